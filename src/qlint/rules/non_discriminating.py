"""non-discriminating: strong and weak candidates get a question right equally often."""
from collections.abc import Iterator

from pydantic import Field

from qlint.responserule import ItemView, ResponseRule, SampleOptions, enough, example
from qlint.rule import Invalid, Violation


class Options(SampleOptions):
    min_item_rest: float = Field(0.15, description="the lowest acceptable corrected item-total (item-rest) correlation")


def check(view: ItemView, options: Options) -> Iterator[Violation]:
    stats = view.stats
    if not enough(view, options) or stats.key is None or stats.item_rest is None:
        return
    key_pb = stats.options[stats.key].rest_pb or 0.0
    if any(o.opt != stats.key and (o.rest_pb or 0.0) > key_pb for o in stats.options):
        return   # a distractor outdoing the key is likely-miskeyed's verdict, not this one's
    if stats.item_rest < options.min_item_rest:
        disc = "" if stats.discrimination is None else f", upper-lower index {stats.discrimination:+.2f}"
        yield Violation("id", f"does not separate strong from weak candidates{view.where}: item-rest correlation "
                        f"{stats.item_rest:+.2f} (below {options.min_item_rest:.2f}){disc}, n={stats.n}")


_ROWS_GOOD = [("AAAA", 60), ("AABA", 20), ("ABAB", 20), ("BAAC", 15), ("BCCB", 40), ("CDBC", 25), ("DBDD", 20)]
_ROWS_FLAT = [(level + answer, n) for level in ("AAA", "AAB", "BCC") for answer, n in (("A", 30), ("B", 10), ("C", 10), ("D", 10))]

RULE = ResponseRule(
    code="Q702",
    name="non-discriminating",
    summary="Flags a question that strong and weak candidates answer correctly about equally often "
            "(a low corrected item-total correlation).",
    why="A question that does not separate candidates who know the subject from those who do not adds noise to "
        "the score: it is ambiguous, tests something else, or is answered by luck.",
    use_instead="Read the question with its option statistics: sharpen the stem, fix an arguable distractor, or retire it.",
    options=Options,
    check=check,
    failing=(Invalid(example("AAAA", _ROWS_FLAT, note="q4 is answered right as often by weak as by strong candidates"),
        field="id",
        message="does not separate strong from weak candidates"),),
    passing=(example("AAAA", _ROWS_GOOD),),
    notes="Runs only with response data. Silent on questions with fewer answers than `min-responses`, and when a "
          "distractor outdoes the key (likely-miskeyed speaks then).",
)
