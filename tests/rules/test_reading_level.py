"""reading-level read as a bank rule: a setup several questions share is their passage, a limit has a tolerance,
lost full stops end sentences, and a question that restates its own material refers to it."""
from __future__ import annotations

import json

import pytest
from helpers import lint_text

from qlint.language.readability import restated_words, sentences
from qlint.rules import reading_level

CASE = ("Contoso is a consulting firm with a main office in Montreal and branch offices in Seattle and New York, and it "
        "hosts every server it runs in one cloud subscription that the central IT team manages on behalf of all three "
        "offices and of the partners who work with them on projects. The firm plans to move its file shares to managed "
        "storage.")


def bank(*stems: str) -> str:
    """A bank of one question per stem (written as double-quoted YAML strings)."""
    lines = ["questions:"]
    for number, stem in enumerate(stems, 1):
        lines += [f"  - id: q{number}", f"    stem: {json.dumps(stem)}", "    options:",
                  "      - {text: The first, correct: true, rationale: Correct. It fits.}",
                  "      - {text: The second, rationale: Incorrect. It does not fit.}"]
    return "\n".join(lines) + "\n"


def fired(text: str, registry, options: dict | None = None) -> list[tuple[str | None, str]]:
    found = lint_text(text, registry, options={"reading-level": options} if options else None)
    return [(f.question, f.message) for f in found if f.rule == "reading-level"]


def test_a_case_study_two_questions_share_is_their_passage(registry):
    alone = fired(bank(CASE + " Which storage service should the firm use?"), registry)
    assert [m.split(" (")[0] for _, m in alone] == ["a sentence of 52 words"]
    shared = bank(CASE + " Which storage service should the firm use?",
                  CASE + " How should the firm copy the shares without stopping work?",
                  "Which port does HTTPS use by default?")
    assert fired(shared, registry) == []


def test_the_lead_in_of_a_shared_setup_is_still_held_to_the_limit(registry):
    run_on = ("If the firm moves the shares of all three offices in one weekend and the partners keep writing to them "
              "from their own networks during the move, which service lets the firm copy every change made during "
              "the weekend without asking the partners to stop?")
    found = fired(bank(CASE + " " + run_on, CASE + " Which storage service should the firm use?"), registry)
    assert [(q, m.split(":")[0]) for q, m in found] == [("q1", "a sentence of 45 words (limit 35, reported above 40)")]


def test_the_same_stem_twice_is_not_a_shared_setup(registry):
    """Two copies of one question are a duplicate (near-duplicate-stem's business), not a case study: each copy is
    still read alone."""
    stem = CASE + " Which storage service should the firm use?"
    assert [q for q, _ in fired(bank(stem, stem), registry)] == ["q1", "q2"]


def test_a_sentence_barely_over_the_limit_is_not_reported(registry):
    def sentence(n: int) -> str:
        return " ".join(["word"] * (n - 1)) + " end?"
    assert fired(bank(sentence(37)), registry) == []
    assert fired(bank(sentence(40)), registry) == []
    (finding,) = fired(bank(sentence(41)), registry)
    assert finding[1].startswith("a sentence of 41 words (limit 35, reported above 40)")
    (finding,) = fired(bank(sentence(37)), registry, {"tolerance": 0})
    assert finding[1].startswith("a sentence of 37 words (limit 35):")


@pytest.mark.parametrize("text, parts", [
    ("You are running out of processing power in your mix, Besides printing the track, how can you save power?",
     ["You are running out of processing power in your mix,", "Besides printing the track, how can you save power?"]),
    ("A company uses a bucket to store reports Management has mandated that every object is encrypted.",
     ["A company uses a bucket to store reports", "Management has mandated that every object is encrypted."]),
    ("Instances are used as batch processors Cloud Watch monitors the number of queued jobs.",
     ["Instances are used as batch processors", "Cloud Watch monitors the number of queued jobs."]),
    # a name inside a sentence stays in it: after a word that takes a name, or with no verb after it
    ("The team at Google has released a tool that the company uses Kubernetes to run.",
     ["The team at Google has released a tool that the company uses Kubernetes to run."]),
])
def test_a_lost_full_stop_ends_a_sentence(text, parts):
    assert [text[s.start:s.end] for s in sentences(text)] == parts


def test_a_question_that_restates_a_condition_refers_to_it():
    stem = ("Exactly six photographers are available. If Knutson is not assigned to the Thorne ceremony, then both "
            "Heideck and Mays must be assigned to it. Which one of the following, if substituted for the constraint "
            "that if Knutson is not assigned to the Thorne ceremony, then both Heideck and Mays must be assigned to "
            "it, would have the same effect?")
    last = sentences(stem)[-1]
    assert last.words == 35 and restated_words(stem, last, last.start) == 19 - 1
    # the writer's own words, with nothing repeated, count in full
    fresh = "Which one of the following would have the same effect on the assignment of the photographers?"
    assert restated_words(stem + " " + fresh, sentences(stem + " " + fresh)[-1], len(stem)) == 0


def test_a_logic_game_restating_a_condition_in_its_question_is_not_reported(registry):
    setup = ("The manager must assign photographers to two ceremonies. The following constraints apply: Frost must be "
             "assigned together with Heideck. If Knutson is not assigned to the Thorne University ceremony, then both "
             "Heideck and Mays must be assigned to it.")
    question = ("Which one of the following, if substituted for the constraint that if Knutson is not assigned to the "
                "Thorne University ceremony, then both Heideck and Mays must be assigned to it, would have the same "
                "effect in determining the assignment of photographers to the graduation ceremonies?")
    assert fired(bank(setup + "\n\n" + question), registry) == []
    # the same question with its own words in place of the restated condition is one long sentence
    padded = question.replace("the constraint that if Knutson is not assigned to the Thorne University ceremony, then "
                              "both Heideck and Mays must be assigned to it", "the rule about Knutson that the "
                              "manager wrote down first for the two ceremonies of the two universities this spring")
    assert fired(bank(setup + "\n\n" + padded), registry)


def test_a_cached_feature_of_another_shape_is_refused():
    good = reading_level.encode([[[["stem", "a sentence"]], None, None, None]])
    assert reading_level.decode(good, 1) == good
    for bad in ([[[["stem"]], None, None, None]], [[[], [["stem", "x"]], "digest", 1]], [[[], None]], {"a": 1}):
        with pytest.raises(ValueError):
            reading_level.decode(bad, 1)


def test_the_sentences_a_stem_says_it_quotes_are_its_material(registry):
    """A judged false-alarm class: the quotation a question asks about is not the writer's sentence, also when the
    stem marks it with words ('who said this?', 'these lyrics') instead of quotation marks."""
    quote = ("I love you in a really big way and I will pretend to like your taste in music and let you eat the last "
             "piece of cake and hold the remote control as long as you want to because that is what friends do.")
    assert fired(bank(quote + " Who said this?"), registry) == []
    # the same words as the writer's own sentence, with no word of quoting, are one long sentence
    assert fired(bank(quote + " Which friend is kind?"), registry)
