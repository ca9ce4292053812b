"""too-easy: nearly everyone answers the question correctly."""
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.responserule import ItemView, ResponseRule, SampleOptions, enough, example
from qlint.rule import Invalid, Violation


class Options(SampleOptions):
    max_p: float = Field(0.95, gt=0, le=1, description="the highest acceptable proportion correct (difficulty p)")


def check(view: ItemView, options: Options) -> Iterator[Violation]:
    if enough(view, options) and view.stats.key is not None and view.stats.p > options.max_p:
        yield Violation("id", f"too easy{view.where}: {view.stats.p:.1%} answer it correctly (above "
                        f"{options.max_p:.0%}), n={view.stats.n}")


RULE = ResponseRule(
    code="Q703",
    name="too-easy",
    summary="Flags a question that nearly every candidate answers correctly.",
    why="A question everyone gets right tells nothing about who knows more, and often gives its answer away.",
    use_instead="Keep it only as a deliberate warm-up; otherwise make the distractors plausible or retire it.",
    severity=Severity.INFO,
    options=Options,
    check=check,
    failing=(Invalid(example("AAA", [("AAA", 60), ("AAB", 40), ("ABA", 30), ("ACB", 17), ("BCB", 3)], note="nearly everyone gets q1 right"),
        field="id",
        message="too easy: 98.0% answer it correctly (above 95%)"),),
    passing=(example("AAA", [("AAA", 60), ("BAB", 40), ("BAA", 30), ("ACA", 20)]),),
    notes="Runs only with response data. Silent on questions with fewer answers than `min-responses`.",
)
