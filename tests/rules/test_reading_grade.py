"""reading-grade: the grade of long stems against the audience, short and non-English stems left ungraded, the bank's
own terms counted as plain, and grades kept in the cache exactly."""
from __future__ import annotations

import json
import re

import pytest
from helpers import lint_text
from helpers import question as q

from qlint.language.readability import is_english
from qlint.rules import reading_grade

KEY = [("The cache", True), ("The disk", False), ("The network", False)]


def _fired(text: str, registry, rule: str = "reading-grade"):
    return [f for f in lint_text(text, registry) if f.rule == rule]


DENSE = ("Considering the aforementioned computational considerations regarding the instantiation of heterogeneous "
         "configurations, administrators evaluate alternatives methodically. Comprehensive documentation and "
         "institutional accountability complicate implementation decisions regarding authentication and "
         "cryptographic certification. Organisational stakeholders anticipate considerable operational "
         "variability, necessitating continuous monitoring and sophisticated capacity planning methodologies. "
         "Institutional procurement regulations and contractual obligations introduce further complications for "
         "international organisations. Consequently, experienced practitioners systematically prioritise "
         "interoperability and maintainability. Multinational organisations additionally encounter jurisdictional "
         "data-residency considerations, contractual obligations and institutional procurement regulations that "
         "necessitate comprehensive documentation and sophisticated governance. Institutional accountability "
         "necessitates systematic verification, particularly regarding international certification authorities. "
         "Every organisation documents its governance methodology carefully and consistently. Which consideration "
         "predominantly "
         "determines appropriateness?")


def test_a_dense_long_stem_reads_above_the_audience(registry):
    (finding,) = _fired(q(DENSE, KEY), registry, "reading-grade")
    assert str(finding.severity) == "info"
    assert finding.message.startswith("the stem reads at grade ") and "above the audience's 16" in finding.message
    assert "words in 9 sentences" in finding.message and "hard words: " in finding.message


def test_short_and_french_stems_are_not_graded(registry):
    first = DENSE[:DENSE.index(".") + 1]
    assert _fired(q(first, KEY), registry, "reading-grade") == []
    french = ("Parmi les propositions suivantes concernant les anticoagulants oraux, indiquer celle qui est exacte. "
              * 12)
    assert not is_english(french) and is_english(DENSE)
    assert _fired(q(french, KEY), registry, "reading-grade") == []


def _bank(stems: list[str]) -> str:
    return "questions:\n" + "".join(
        f"  - id: s{i}\n    stem: {json.dumps(stem)}\n    options:\n      - {{text: The cache, correct: true, "
        "rationale: Correct.}\n      - {text: The disk, rationale: Incorrect.}\n" for i, stem in enumerate(stems))


def _grade(finding) -> float:
    return float(re.search(r"grade (\d+\.\d)", finding.message).group(1))


def test_the_banks_own_terms_count_as_plain_words(registry):
    # the same technical words in many stems are the subject's vocabulary, not reading difficulty
    terms = ("The administrators of the cluster configure the containerised orchestration deployments. The "
             "administrators monitor the orchestration deployments continuously.")
    stem = " ".join([terms] * 9) + " Which orchestration deployment comes first?"
    (alone,) = _fired(_bank([stem]), registry, "reading-grade")
    others = [f"{terms} Which step {i} comes first?" for i in range(10)]
    within = [f for f in _fired(_bank([stem, *others]), registry, "reading-grade") if f.question == "s0"]
    assert "of the bank's own terms counted as plain" not in alone.message
    assert within == []   # the bank's own terms alone: plain reading
    # a dense stem that also uses the bank's terms still reads above the audience, lower, and says why
    dense = DENSE.replace("Which consideration", terms + " Which consideration")
    (dense_alone,) = _fired(_bank([dense]), registry, "reading-grade")
    (dense_within,) = [f for f in _fired(_bank([dense, *others]), registry, "reading-grade") if f.question == "s0"]
    assert "of the bank's own terms counted as plain" not in dense_alone.message
    assert _grade(dense_within) < _grade(dense_alone) and "7 of the bank's own terms counted as plain" in dense_within.message


def test_grades_are_cached_with_the_file_and_read_back_exactly():
    features = [reading_grade.extract(question, reading_grade.Options()) for question in _questions()]
    data = json.loads(json.dumps(reading_grade.encode(features)))
    assert reading_grade.decode(data, len(features)) == features
    for bad in ([["!!", 0]], [["", [1, 1, -1, []]]], [["", [1, 1, 1, [[3, 1]]]]], "x", [["", 0], ["", 0]]):
        with pytest.raises(Exception):
            reading_grade.decode(bad, 1)


def _questions():
    from qlint.model import Question

    return [Question(id="a", stem=DENSE, options=[{"text": "A", "correct": True}, {"text": "B"}]),
            Question(id="b", stem="Short stem?", options=[{"text": "A", "correct": True}, {"text": "B"}])]
