"""too-hard: few candidates answer the question correctly."""
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.responserule import ItemView, ResponseRule, SampleOptions, enough, example
from qlint.rule import Invalid, Violation


class Options(SampleOptions):
    min_p: float = Field(0.20, ge=0, lt=1, description="the lowest acceptable proportion correct (difficulty p)")


def check(view: ItemView, options: Options) -> Iterator[Violation]:
    if enough(view, options) and view.stats.key is not None and view.stats.p < options.min_p:
        yield Violation("id", f"too hard{view.where}: only {view.stats.p:.1%} answer it correctly (below "
                        f"{options.min_p:.0%}; guessing among {len(view.question.options)} options gives "
                        f"{1 / len(view.question.options):.0%}), n={view.stats.n}")


RULE = ResponseRule(
    code="Q704",
    name="too-hard",
    summary="Flags a question that few candidates answer correctly (near or below chance).",
    why="A question almost nobody gets right is often mis-keyed, ambiguous or off the syllabus; at chance level "
        "its score is luck.",
    use_instead="Check the key and the teaching; simplify the wording, or move it to a harder form.",
    severity=Severity.INFO,
    options=Options,
    check=check,
    failing=(Invalid(example("AAA", [("BAA", 60), ("CAB", 40), ("DBA", 30), ("AAB", 20)], note="q1 is almost never answered A"),
        field="id",
        message="too hard: only 13.3% answer it correctly"),),
    passing=(example("AAA", [("AAA", 60), ("CAB", 40), ("DBA", 30), ("BAB", 20)]),),
    notes="Runs only with response data. Silent on questions with fewer answers than `min-responses`.",
)
