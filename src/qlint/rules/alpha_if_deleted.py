"""alpha-if-deleted: the test would be more reliable without this question."""
from collections.abc import Iterator

from pydantic import Field

from qlint.responserule import ItemView, ResponseRule, SampleOptions, enough, example
from qlint.rule import Invalid, Violation


class Options(SampleOptions):
    margin: float = Field(0.01, ge=0, description="how much alpha must rise without the question to flag it")


def check(view: ItemView, options: Options) -> Iterator[Violation]:
    alpha, deleted = view.form.alpha, view.stats.alpha_if_deleted
    if not enough(view, options) or alpha is None or deleted is None:
        return
    if deleted - alpha >= options.margin:
        yield Violation("id", f"the form is more reliable without this question{view.where}: Cronbach's alpha "
                        f"{alpha:.3f}, {deleted:.3f} if it is deleted (n={view.stats.n})")


_ROWS_GOOD = [("AAAA", 60), ("AAAB", 30), ("AABB", 30), ("ABBB", 30), ("BBBB", 50)]
_ROWS_NOISE = [("AAAB", 90), ("AABA", 30), ("ABBA", 30), ("BBBA", 50)]

RULE = ResponseRule(
    code="Q706",
    name="alpha-if-deleted",
    summary="Flags a question whose removal would raise the form's reliability (Cronbach's alpha, KR-20).",
    why="A question that works against the others measures something else (or is mis-keyed): the total score is "
        "more consistent without it.",
    use_instead="Look at its option statistics: fix the key or the wording, or take it out of the scored total.",
    options=Options,
    check=check,
    failing=(Invalid(example("AAAA", _ROWS_NOISE, note="q4 runs against the other three"),
        field="id",
        message="the form is more reliable without this question"),),
    passing=(example("AAAA", _ROWS_GOOD),),
    notes="Runs only with response data. Silent on questions with fewer answers than `min-responses` and on forms "
          "of fewer than three questions.",
)
