"""near-duplicate-stem: its judgement of similar stems (clones are duplicates whatever their options; opposite asks,
sets on one passage or scenario, Yes/No series and stems that leave their question to the options stay apart), what
a shared passage asks, numbers that differ, and clones of real stems (benchmarks/clones.py) found with nothing else.

The clones are made at run time from the public corpora beside the checkout (../shared/corpora), which are never
copied into the project: those tests skip when they are absent.
"""
from __future__ import annotations

import json

import pytest
from helpers import ROOT, exhaustive_pairs, lint_text, load_script

from qlint.neardup.sameask import one_apart, opposite, opposite_asks
from qlint.neardup.search import find_pairs
from qlint.neardup.stemkey import answers_digest, choice_digests, decode_keys, encode_keys, key_text, stem_key
from qlint.rules import near_duplicate_stem

SCENARIO = ("A retailer runs its web shop on a fleet of virtual machines behind a load balancer. Orders arrive in "
            "bursts after every marketing e-mail, and the checkout slows down until the fleet catches up. The "
            "retailer wants the checkout to stay fast during bursts without paying for idle machines at night.")


def _key(stem: str, options: list[str], keys: tuple[int, ...] = (0,)):
    flags = [i in keys for i in range(len(options))]
    return stem_key(stem, answers_digest(options, flags), choice_digests(options),
                    choice_digests([o for o, k in zip(options, flags) if k]))


def reported(*questions: tuple[str, list[str]] | tuple[str, list[str], tuple[int, ...]]):
    """The (a, b, how their answers compare) pairs near-duplicate-stem reports (the first option is the key)."""
    keys = [_key(*q) for q in questions]
    return [(a, b, how.value) for a, b, _, how in
            near_duplicate_stem.confirmed_pairs(keys, near_duplicate_stem.Options())]


OPTIONS = ["Rifampicin", "Ketoconazole", "Paracetamol", "Metformin"]


@pytest.mark.parametrize("one,other", [
    ("Which of these drugs are strong inducers of CYP3A4?", "Which of these drugs are strong inhibitors of CYP3A4?"),
    ("Which change increases the cache hit rate of a web server the most?",
     "Which change decreases the cache hit rate of a web server the most?"),
    ("Which of the following statements about TCP slow start is true?",
     "Which of the following statements about TCP slow start is false?"),
    ("Which of the following must be true of the schedule?", "Which of the following could be true of the schedule?"),
    ("Which finding is typical of hyperkalaemia on an ECG?", "Which finding is typical of hypokalaemia on an ECG?"),
    ("Which of the following lists is an acceptable order for the first team's performance on the stage?",
     "Which of the following lists is an acceptable order for the second team's performance on the stage?"),
])
def test_opposite_asks_stay_apart_even_with_the_same_options(one, other):
    assert reported((one, OPTIONS), (other, OPTIONS)) == []


def test_a_clone_is_a_duplicate_whatever_its_options():
    stem = "Which AWS service stores session state for a fleet of web servers with single-digit millisecond latency?"
    clone = "Which AWS service actually stores session state for a fleet of web servers, with single-digit millisecond latency?"
    same = ["ElastiCache", "S3", "Glacier", "EBS"]
    assert reported((stem, same), (clone, same)) == [(0, 1, "same")]
    assert reported((stem, same), (clone, ["S3", "Glacier", "EBS", "ElastiCache"], (3,))) == [(0, 1, "same")]
    assert reported((stem, same), (clone, ["DynamoDB", "Redshift", "CloudFront", "SQS"])) == [(0, 1, "options differ")]
    assert reported((stem, same), (clone, same, (1,))) == [(0, 1, "keys disagree")]


def test_a_question_after_a_shared_scenario_is_a_duplicate_only_if_it_asks_the_same():
    asks = ["Which change keeps the checkout fast during bursts at the lowest cost?",
            "Which metric should the retailer watch to see the checkout slow down?"]
    a, b = (f"{SCENARIO}\n\n{ask}" for ask in asks)
    assert reported((a, OPTIONS), (b, OPTIONS)) == []
    clone = a.replace("bursts at", "bursts, at")
    assert reported((a, OPTIONS), (clone, ["Autoscaling", "Reserved machines", "A bigger balancer", "A CDN"])) == \
        [(0, 1, "options differ")]


def test_a_set_that_varies_one_place_of_a_shared_setup_stays_apart():
    names = ["Young", "Togowa", "Xu"]
    stems = [f"{SCENARIO} Three analysts review the orders: Young, Togowa and Xu, one a day.\n\n"
             f"If {name} reviews the orders on the first day, which analyst reviews them on the last day?"
             for name in names]
    assert reported(*[(s, OPTIONS[:3]) for s in stems]) == []


def test_a_yes_no_series_on_one_scenario_stays_apart():
    solutions = ["You add an autoscaling group with a schedule.", "You add a second load balancer."]
    stems = [f"{SCENARIO} Solution: {s} Does this meet the goal?" for s in solutions]
    assert reported((stems[0], ["Yes", "No"]), (stems[1], ["Yes", "No"], (1,))) == []
    assert reported((stems[0], ["Yes", "No"]), (stems[0].replace("group with", "group, with"), ["Yes", "No"])) == \
        [(0, 1, "same")]


def test_a_swapped_word_in_a_short_stem_asks_another_question():
    assert reported(("Which Django class-based view would you use to update an existing object?", OPTIONS),
                    ("Which Django class-based view would you use to delete an existing object?", OPTIONS)) == []


def test_a_word_added_to_a_short_stem_with_other_keys_asks_another_question():
    assert reported(("Who was the first US President to die in office?", ["Harrison", "Tyler", "Polk", "Taylor"]),
                    ("Who was the first US Vice President to die in office?", ["Clinton", "Gerry", "King", "Wilson"])) \
        == []
    # the same key: the added word only specifies
    assert reported(("What is the official language of Egypt?", ["Arabic", "Coptic", "French", "English"]),
                    ("What is the official language of Cairo, Egypt?", ["Arabic", "Greek", "Turkish", "Latin"])) \
        == [(0, 1, "options differ")]


@pytest.mark.parametrize("stem", ["Le virus de l'hépatite B :", "Which of the following statements about the "
                                  "virus that causes hepatitis B is true?", "La pharmacovigilance"])
def test_a_stem_that_leaves_its_question_to_the_options_needs_the_same_options(stem):
    statements = ["est un virus à ADN", "se transmet par le sang", "est un virus nu", "se cultive in vitro"]
    others = ["appartient aux Hepadnaviridae", "possède l'antigène HBs", "guérit toujours", "est un rétrovirus"]
    assert reported((stem, statements), (stem, others)) == []
    assert reported((stem, statements), (stem, statements[:2] + others[:2])) == [(0, 1, "options differ")]


def test_the_message_names_how_the_answers_compare(registry):
    text = """\
questions:
  - id: a
    stem: Which planet has the shortest year of all the planets in the solar system?
    options:
      - {text: Mercury, correct: true, rationale: Correct. 88 days.}
      - {text: Venus, rationale: Incorrect. 225 days.}
      - {text: Mars, rationale: Incorrect. 687 days.}
  - id: b
    stem: Which planet has the shortest year, of all the planets in the solar system?
    options:
      - {text: Venus, correct: true, rationale: Correct. 225 days.}
      - {text: Mercury, rationale: Incorrect. 88 days.}
      - {text: Mars, rationale: Incorrect. 687 days.}
  - id: c
    stem: Which planet of the solar system has the shortest year of all the planets?
    options:
      - {text: Mercury, correct: true, rationale: Correct. 88 days.}
      - {text: Jupiter, rationale: Incorrect. 12 years.}
      - {text: Saturn, rationale: Incorrect. 29 years.}
"""
    messages = {f.question: f.message for f in lint_text(text, registry) if f.rule == "near-duplicate-stem"}
    assert "keys disagree" in messages["a"] and "likely mis-keyed" in messages["a"]
    assert messages["c"].endswith("and their options differ")


def test_the_words_compared_travel_through_the_cache():
    key = _key(f"{SCENARIO}\n\nWhich of the following is true?", OPTIONS)
    assert key.open and "true" in key.marks.split(",") and key.core and key.gist and key.keyed
    assert decode_keys(json.loads(json.dumps(encode_keys([key]))), 1) == [key]   # as stored


def test_stem_keys_read_back_reject_packed_columns_out_of_shape():
    keys = [_key("Which service stores objects durably at the lowest cost?", ["S3", "EBS", "EFS"]),
            _key("Which service queues messages between two parts of an application?", ["SQS", "SNS"], (1,))]
    data = json.loads(json.dumps(encode_keys(keys)))
    assert decode_keys(data, 2) == keys
    choices = data[9]
    for damaged in ([choices[0][:-2], choices[1]],                    # a digest cut short
                    [choices[0][:-10] + " " * 10, choices[1]],       # spaces, which fromhex would skip
                    [choices[0][:-10] + "zz" * 5, choices[1]],        # not hex
                    [choices[0] + choices[1][:5], choices[1][5:]]):   # a digest split across two questions
        with pytest.raises(ValueError):
            decode_keys([*data[:9], damaged, *data[10:]], 2)


def test_ask_marks_oppose_when_each_asks_for_its_own():
    assert opposite_asks("can,true", "must,true") and opposite_asks("when", "where") and opposite_asks("", "not")
    assert not opposite_asks("first", "") and not opposite_asks("", "") and not opposite_asks("most,true", "true")
    assert reported(("When was the song Misty written by Erroll Garner?", ["1954", "1944", "1964"]),
                    ("Where was the song Misty written by Erroll Garner?", ["On a plane", "On a train", "At home"])) == []


def test_a_mark_added_alone_asks_the_same():
    one = "What is the most likely cause when the nightly export job stops writing files to the shared folder?"
    other = "What is the likely cause when the nightly export job stops writing files to the shared folder?"
    assert reported((one, OPTIONS), (other, OPTIONS)) == [(0, 1, "same")]


@pytest.mark.parametrize("stem", [
    "Which of the following is true?\n\nThe U.S. President signs bills; Congress passes them: which one?",
    "A 2.5 GB file. Select two.\n```python\nx = 1.0\n```\nWhat is printed?",
    "Dr. No is a film. Mr. Wrong is one too! Which came first?", "", "?", "Le virus de l'hépatite B :"])
def test_the_compared_text_is_the_key_text_of_the_head(stem):
    """One normalisation with sentence ends marked serves the text, the marks and the content words: the text is
    what key_text gives, so the kept search matches stems as before."""
    assert stem_key(stem).text == key_text(stem)


def test_typing_slips_and_opposites():
    assert one_apart("simmons", "simons") and one_apart("recieve", "receive") and not one_apart("actor", "actress")
    assert opposite("inducer", "inhibitor") and opposite("increas", "decreas") and opposite("exact", "inexact")
    assert opposite("upload", "download") and not opposite("form", "file")


# ---- a shared passage, numbers that differ ---------------------------------------------------------------------------

def _near_duplicates(stems_and_options: list[tuple[str, list[str]]]) -> list[tuple[int, int, float]]:
    """The pairs near-duplicate-stem reports (the first option is the key)."""
    keys = [stem_key(stem, answers_digest(options, [i == 0 for i in range(len(options))]), choice_digests(options),
                     choice_digests(options[:1])) for stem, options in stems_and_options]
    assert find_pairs(keys, 90.0) == exhaustive_pairs(keys, 90.0)   # the blocked search stays exact
    return [(a, b, score) for a, b, score, _ in near_duplicate_stem.confirmed_pairs(keys, near_duplicate_stem.Options())]


_PASSAGE = ("Seven volunteers (Fay, Gil, Hal, Ivy, Jo, Kai and Lu) staff a stall on seven consecutive days, one "
            "volunteer a day. Gil works on an earlier day than Hal. Ivy works on the third or the fifth day. Jo "
            "does not work on a day next to Kai's. Lu works on a later day than Fay and an earlier day than Jo.")


def test_near_duplicate_stem_compares_what_a_shared_passage_asks():
    asks = ["If Gil works on the first day, which one of the following must be true?",
            "If Gil works on the first day, which one of the following could be true?",
            "If Kai works on the first day, which one of the following must be true?",
            "Which one of the following could be the volunteer who works on the seventh day?"]
    options = ["Fay works on the second day", "Hal works on the second day", "Lu works on the fourth day"]
    assert _near_duplicates([(f"{_PASSAGE}\n\n{a}", options) for a in asks]) == []
    # the same question after the same passage is still a duplicate, also with the question's wording retouched
    again = _near_duplicates([(f"{_PASSAGE}\n\n{asks[0]}", options),
                              (f"{_PASSAGE}\n\n{asks[0].replace('the first day', 'the first day,')}", options)])
    assert [(a, b) for a, b, _ in again] == [(0, 1)]


def test_near_duplicate_stem_numbers_only_differ_parallel_unless_answers_are_the_same():
    stem = "A tank holds {} litres and drains at {} litres a minute. How long does it take to empty?"
    parallel = [(stem.format(600, 20), ["30 minutes", "20 minutes", "12 minutes"]),
                (stem.format(900, 30), ["30 minutes", "25 minutes", "45 minutes"])]
    assert _near_duplicates(parallel) == []
    renumbered = [(stem.format(600, 20), ["30 minutes", "20 minutes", "12 minutes"]),
                  (stem.format(900, 30), ["30 minutes", "20 minutes", "12 minutes"])]
    assert [(a, b) for a, b, _ in _near_duplicates(renumbered)] == [(0, 1)]
    # two options (Yes / No) are shared by chance: numbers keep such items apart
    yes_no = [(stem.format(600, 20) + " Is it 30 minutes?", ["Yes", "No"]),
              (stem.format(900, 30) + " Is it 30 minutes?", ["Yes", "No"])]
    assert _near_duplicates(yes_no) == []


def test_cache_keeps_what_a_stem_asks_and_its_answers_digest():
    key = stem_key(f"{_PASSAGE}\n\nWho works on the last day?", answers_digest(["Fay", "Gil", "Hal"], [1, 0, 0]))
    assert key.asks and key.answers
    assert decode_keys(json.loads(json.dumps(encode_keys([key]))), 1) == [key]   # as stored


# ---- clones of real stems -----------------------------------------------------------------------------------------

SCRIPT = ROOT / "benchmarks" / "clones.py"
# statement items: an AGIEval logic game's "Which one of the following could be true?" and FrenchMedMCQA's
# "Parmi les propositions suivantes, laquelle est exacte ?" leave the question to their options, so a copy whose
# options are all new asks something else (reviewers judge such pairs false alarms)
STATEMENT_BANKS = ("agieval-en", "frenchmedmcqa")


@pytest.fixture(scope="module")
def clones():
    module = load_script(SCRIPT)
    if not module.CORPORA.is_dir():
        pytest.skip("the shared corpora are not beside this checkout")
    return module


@pytest.fixture(scope="module")
def result(clones, tmp_path_factory):
    bank = tmp_path_factory.mktemp("clones")
    return clones.measure(bank, clones.build(clones.CORPORA, bank, per_corpus=40, seed=3, sibling_limit=3))


@pytest.mark.slow  # a generated bank of clones of every kind
def test_clones_of_every_kind_are_found(result):
    for kind, row in result["kinds"].items():
        if kind != "all":
            assert row["recall"] >= 0.95, (kind, row)
            assert row["worded"] == row["found"], (kind, row)


def test_clones_with_all_options_new_are_found_where_the_stem_states_its_question(result):
    found = sum(row["all"][0] for corpus, row in result["per_corpus"].items() if corpus not in STATEMENT_BANKS)
    total = sum(row["all"][1] for corpus, row in result["per_corpus"].items() if corpus not in STATEMENT_BANKS)
    assert total and found / total >= 0.95, (found, total)


def test_no_question_without_a_twin_is_reported(result):
    assert result["without_twin"] == 0, result["examples"]
