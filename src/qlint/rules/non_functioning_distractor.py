"""non-functioning-distractor: a distractor almost nobody chooses."""
from collections.abc import Iterator

from pydantic import Field

from qlint.responserule import ItemView, ResponseRule, SampleOptions, enough, example
from qlint.rule import Invalid, Violation


class Options(SampleOptions):
    min_proportion: float = Field(0.05, ge=0, lt=1, description="a distractor chosen by fewer than this share does not function")


def check(view: ItemView, options: Options) -> Iterator[Violation]:
    stats = view.stats
    if not enough(view, options) or stats.key is None:
        return
    for option in stats.options:
        if option.opt != stats.key and option.proportion < options.min_proportion:
            who = "nobody chose it" if option.n == 0 else f"chosen by {option.proportion:.1%} ({option.n} of {stats.n})"
            yield Violation(f"options[{option.opt}].text",
                            f"distractor {view.label(option.opt)} does not function{view.where}: {who}, below "
                            f"{options.min_proportion:.0%}")


RULE = ResponseRule(
    code="Q705",
    name="non-functioning-distractor",
    summary="Flags a distractor chosen by fewer than 5% of candidates.",
    why="A distractor nobody picks is implausible: the question has one option fewer than it seems, and guessing "
        "gets easier. Two of three distractors in typical exams are of this kind.",
    use_instead="Replace it with a mistake candidates really make, or drop it (three good options beat four weak ones).",
    options=Options,
    check=check,
    failing=(Invalid(example("AAA", [("AAA", 60), ("BBB", 30), ("CCC", 30), ("ADD", 30)], note="nobody chooses D on q1"),
        field="options[3].text",
        message="distractor D ('Answer D') does not function: nobody chose it, below 5%"),),
    passing=(example("AAA", [("AAA", 60), ("BBB", 30), ("CCC", 30), ("DDD", 30)]),),
    notes="Runs only with response data. Silent on questions with fewer answers than `min-responses`.",
)
