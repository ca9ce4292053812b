"""answer-position-bias: keys pile up in some positions across the bank."""
from collections import defaultdict
from collections.abc import Iterator, Sequence

from pydantic import Field

from qlint.finding import Severity
from qlint.items import BankItem
from qlint.rule import BankRule, BankViolation, RuleOptions
from qlint.stats import chi_square_uniform

LETTERS = "ABCDEFGHIJ"


class Options(RuleOptions):
    alpha: float = Field(default=0.01, gt=0, lt=0.5, description="significance level of the chi-square test")
    min_questions: int = Field(default=20, ge=2, le=10_000_000,
                               description="option-count groups smaller than this are not tested "
                                           "(and never fewer than 5 expected keys per position)")
    max_run: int = Field(default=0, ge=0, le=10_000_000,
                         description="flag runs of the same key position longer than this in file order; "
                                     "0 picks the length whose chance under random placement is below alpha")


def _expected_run_limit(n: int, k: int, alpha: float) -> int:
    """Smallest run length L for which P(any run >= L) < alpha, roughly n * (1/k)^(L-1) * (1 - 1/k)."""
    length = 2
    while n * (1 / k) ** (length - 1) * (1 - 1 / k) >= alpha and length < 50:
        length += 1
    return length


def check(questions: Sequence[BankItem], options: Options) -> Iterator[BankViolation]:
    groups: dict[int, list[BankItem]] = defaultdict(list)
    for item in [q for q in questions if q.select == 1 and len(q.keys) == 1]:
        if 2 <= item.option_count <= len(LETTERS):
            groups[item.option_count].append(item)
    for k, items in sorted(groups.items()):
        n = len(items)
        if n < max(options.min_questions, 5 * k):
            continue
        counts = [0] * k
        for item in items:
            counts[item.keys[0]] += 1
        statistic, p = chi_square_uniform(counts)
        if p < options.alpha:
            spread = ", ".join(f"{LETTERS[i]} {c}" for i, c in enumerate(counts))
            yield BankViolation(items[0], "options",
                                f"keys of the {n} {k}-option questions sit at {spread}; expected about {n / k:.0f} each "
                                f"(chi-square {statistic:.1f}, p={p:.2g})", bank_level=True)
        limit = options.max_run or _expected_run_limit(n, k, options.alpha)
        run_start, run = 0, 1
        for i in range(1, n + 1):
            if i < n and items[i].keys[0] == items[i - 1].keys[0]:
                run += 1
                continue
            if run >= limit:
                first = items[run_start]
                yield BankViolation(first, "options",
                                    f"{run} {k}-option questions in a row have their key at "
                                    f"{LETTERS[first.keys[0]]}, starting here")
            run_start, run = i, 1


_BIASED = "questions:\n" + "".join(
    f"""  - id: bias-{i}
    stem: Question {i} about a distinct topic number {i * 7}?
    options:
      - {{text: Option one, correct: {str(i % 5 != 0).lower()}, rationale: Reason.}}
      - {{text: Option two, correct: {str(i % 5 == 0).lower()}, rationale: Reason.}}
      - {{text: Option three, rationale: Reason.}}
""" for i in range(30))
_BALANCED = "questions:\n" + "".join(
    f"""  - id: fair-{i}
    stem: Question {i} about a distinct topic number {i * 7}?
    options:
      - {{text: Option one, correct: {str(i % 3 == 0).lower()}, rationale: Reason.}}
      - {{text: Option two, correct: {str(i % 3 == 1).lower()}, rationale: Reason.}}
      - {{text: Option three, correct: {str(i % 3 == 2).lower()}, rationale: Reason.}}
""" for i in range(30))

RULE = BankRule(
    code="Q602",
    name="answer-position-bias",
    severity=Severity.WARNING,
    summary="Across the bank, keys sit in some positions far more than chance allows, or repeat in long runs.",
    why=("Writers over-place keys in middle positions, up to 3-4:1 (Attali & Bar-Hillel 2003), and hand balancing "
         "leaves runs. Test-wise candidates exploit both. A fixed share is no test: a small bank is lumpy by "
         "chance, so qlint asks a chi-square test per option count."),
    use_instead="Randomise key positions when assembling forms, or rebalance the bank's keys by hand.",
    options=Options,
    check=check,
    passing=(_BALANCED,),
    failing=(_BIASED,),
)
