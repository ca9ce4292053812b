"""near-duplicate-stem's judgement of similar stems: clones are duplicates whatever their options; opposite asks,
sets on one passage or scenario, Yes/No series and stems that leave their question to the options stay apart."""
from __future__ import annotations

import json

import pytest
from helpers import lint_text

from qlint.neardup.sameask import one_apart, opposite, opposite_asks
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
