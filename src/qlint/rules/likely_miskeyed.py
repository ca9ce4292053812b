"""likely-miskeyed: people who do well on the rest of the test avoid the key and choose a distractor."""
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.responserule import ItemView, ResponseRule, SampleOptions, enough, example
from qlint.rule import Invalid, Violation
from qlint.wording import letter


class Options(SampleOptions):
    margin: float = Field(0.05, ge=0, description="how far a distractor's option-rest point-biserial must exceed the key's")
    min_distractor: float = Field(0.10, description="the lowest point-biserial a distractor needs to count as key-like")
    negative_key: float = Field(-0.10, le=0, description="a key's point-biserial at or below this is flagged alone")


def check(view: ItemView, options: Options) -> Iterator[Violation]:
    stats = view.stats
    if not enough(view, options) or stats.key is None:
        return
    key_pb = stats.options[stats.key].rest_pb
    key_value = -1.0 if key_pb is None else key_pb   # nobody (or everybody) chose the key
    best = max((o for o in stats.options if o.opt != stats.key and o.rest_pb is not None),
               key=lambda o: o.rest_pb, default=None)
    key_like = best is not None and best.rest_pb >= options.min_distractor and best.rest_pb - key_value >= options.margin
    avoided = key_pb is not None and key_pb <= options.negative_key
    if not (key_like or avoided):
        return
    key_text = "nobody chose it" if key_pb is None else f"option-rest point-biserial {key_pb:+.2f}"
    field, stated = f"options[{stats.key}].text", f"the stated key {view.label(stats.key)}"
    if best is not None and best.rest_pb > max(key_value, 0.0):
        yield Violation(field, f"likely mis-keyed{view.where}: option {view.label(best.opt)} behaves like the key "
                        f"(option-rest point-biserial {best.rest_pb:+.2f}, chosen by {best.proportion:.0%}) while "
                        f"{stated} has {key_text}, n={stats.n}; check whether {letter(best.opt)} is the right answer")
    else:
        yield Violation(field, f"likely mis-keyed{view.where}: people who do well on the rest of the test avoid "
                        f"{stated} ({key_text}, n={stats.n})")


_ROWS_GOOD = [("AAAB", 60), ("AABB", 20), ("ABAB", 20), ("BAAC", 15), ("BCCD", 40), ("CDBA", 25), ("DBDC", 20)]
_ROWS_MISKEYED = [("AAAC", 60), ("AABC", 20), ("ABAC", 20), ("BAAB", 15), ("BCCB", 40), ("CDBA", 25), ("DBDB", 20)]

RULE = ResponseRule(
    code="Q701",
    name="likely-miskeyed",
    summary="Flags a question whose stated key is avoided by strong candidates while a distractor is chosen by them: "
            "the key is probably wrong, and the finding names the option that behaves like the key.",
    why="A wrong key marks every candidate who knew the answer wrong and rewards the ones who guessed the "
        "stated key. Item analysis finds it from how people answered: the option-rest point-biserial of the right "
        "answer is positive (strong candidates choose it), a distractor's is negative.",
    use_instead="Check the question with a subject expert; fix the key (or the option text) and re-score the sitting.",
    severity=Severity.ERROR,
    options=Options,
    check=check,
    failing=(Invalid(example("AAAB", _ROWS_MISKEYED, note="strong candidates choose C on q4; the bank says B"),
        field="options[1].text",
        message="likely mis-keyed: option C ('Answer C') behaves like the key"),),
    passing=(example("AAAB", _ROWS_GOOD),),
    notes="Runs only with response data (`qlint analyze`, `qlint check --responses`). Silent on questions with "
          "fewer answers than `min-responses`; the run's summary counts them.",
)
