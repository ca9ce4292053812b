"""rationale-contradicts-key reads the stem only when a verdict disagrees with the key: what it excuses stays the
same."""
from __future__ import annotations

from qlint.model import Option, Question
from qlint.rules.rationale_contradicts_key import Options, check


def _question(stem: str, keyed: bool) -> Question:
    return Question(id="q", stem=stem, options=[
        Option(text="a", correct=keyed, rationale="Incorrect. It is not."),
        Option(text="b", rationale="Correct. It is."),
    ])


def test_a_question_without_a_key_is_left_to_correct_count() -> None:
    assert list(check(_question("Which is it?", keyed=False), Options())) == []


def test_a_negative_stem_excuses_every_verdict() -> None:
    assert list(check(_question("Which is NOT it?", keyed=True), Options())) == []


def test_both_verdicts_are_reported_in_option_order() -> None:
    found = [v.field for v in check(_question("Which is it?", keyed=True), Options())]
    assert found == ["options[0].rationale", "options[1].rationale"]
