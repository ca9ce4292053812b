"""missing-rationale shares the findings of a question's first options and builds those of later ones."""
from __future__ import annotations

from qlint.model import Option, Question
from qlint.rules.missing_rationale import _SHARED, check


def test_every_option_is_named_past_the_shared_findings() -> None:
    count = _SHARED + 3
    options = [Option(text=f"option {i}", correct=i == 0, rationale=None if i % 2 else "  ") for i in range(count)]
    question = Question(id="many", stem="Which one?", options=options)
    found = [(v.field, v.message) for v in check(question, None)]
    assert found == [(f"options[{i}]", f"option {i + 1} has no rationale") if i % 2 else
                     (f"options[{i}].rationale", f"option {i + 1} has a blank rationale") for i in range(count)]
