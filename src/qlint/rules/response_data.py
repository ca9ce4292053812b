"""response-data: response rows that item analysis could not use (unknown ids, no such option, bad rows)."""
from collections.abc import Iterator

from qlint.problems import RESPONSE_DATA
from qlint.responserule import ItemView, ResponseRule, example
from qlint.rule import Invalid, NoOptions, Violation


def check(view: ItemView, options) -> Iterator[Violation]:
    return iter(())   # the readers report these while joining the responses to the bank, not per question


RULE = ResponseRule(
    code=RESPONSE_DATA.code,
    name=RESPONSE_DATA.name,
    summary="Reports response rows item analysis could not use: rows it could not parse, answers to question "
            "ids the bank does not have, and answers that name no option of their question.",
    why="Silently dropped rows bias every statistic computed from the rest; a renamed id or a re-lettered option "
        "shows up here first.",
    use_instead="Fix the export or the ids; an answer names its option by letter, 1-based number or exact text.",
    check=check,
    options=NoOptions,
    failing=(Invalid(example("AAA", [("AAA", 60), ("BAE", 40)], note="E is no option of q3"),
        field="options",
        message="40 answers named no option of this question: 'E' (40)"),),
    passing=(example("AAA", [("AAA", 60), ("BAD", 40)]),),
    notes="Runs only with response data. Counts are always reported, whatever the sample size.",
)
