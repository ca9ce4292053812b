"""answer-position-bias: keys pile up in some positions across the bank."""
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pydantic import Field

from qlint.finding import Severity
from qlint.items import BankItem
from qlint.language.chisquare import binomial_sum_tail, chi_square_uniform
from qlint.rule import BankRule, BankViolation, Invalid, RuleOptions

LETTERS = "ABCDEFGHIJ"


class Options(RuleOptions):
    alpha: float = Field(default=0.01, gt=0, lt=0.5, description=(
        "significance level for the whole bank, shared (Bonferroni) among the option-count groups tested"))
    min_questions: int = Field(default=20, ge=2, le=10_000_000, description=(
        "option-count groups smaller than this (or with fewer than 5 expected keys per position, where the "
        "chi-square approximation fails) get an exact binomial test per position instead"))
    max_run: int = Field(default=0, ge=0, le=10_000_000,
                         description="flag runs of the same key position longer than this in file order; "
                                     "0 picks the length whose chance under random placement is below alpha")


def _expected_run_limit(n: int, k: int, alpha: float) -> int:
    """Smallest run length L for which P(any run >= L) < alpha, roughly n * (1/k)^(L-1) * (1 - 1/k)."""
    length = 2
    while n * (1 / k) ** (length - 1) * (1 - 1 / k) >= alpha and length < 50:
        length += 1
    return length


def _binomial_tail(n: int, k: int, count: int) -> float:
    """P(X >= count) for X ~ Binomial(n, 1/k): the exact chance that one position gets this many keys or more."""
    # in log space: comb(n, i) as a float overflows past n of about a thousand (a group that big is tested exactly
    # when min-questions is set above it)
    return binomial_sum_tail([(n, 1 / k)], count)


def _spread_test(counts: list[int], large: bool) -> tuple[str, float, float]:
    """(the test's name, its statistic, its p-value) that keys are spread evenly over the positions: chi-square for
    a large group, else an exact binomial test of the fullest position (its statistic: that position's keys)."""
    if large:
        statistic, p = chi_square_uniform(counts)
        return "chi-square", statistic, p
    # exact per-position test, Bonferroni over the k positions: the chi-square approximation does not hold
    n, k = sum(counts), len(counts)
    top = max(counts)
    return "exact binomial", top, min(1.0, k * _binomial_tail(n, k, top))


def _runs(items: list[BankItem], limit: int) -> Iterator[tuple[BankItem, int]]:
    """Each run of at least ``limit`` questions in a row (in file order) with the key at the same position: its
    first question and its length."""
    n = len(items)
    run_start, run = 0, 1
    for i in range(1, n + 1):
        if i < n and items[i].keys[0] == items[i - 1].keys[0]:
            run += 1
            continue
        if run >= limit:
            yield items[run_start], run
        run_start, run = i, 1


def _groups(questions: Sequence[BankItem]) -> tuple[dict[int, list[BankItem]], int]:
    """The single-key questions by option count (2 to 10 options, in bank order), and how many questions are left
    out (several keys or none, more options than letters)."""
    groups: dict[int, list[BankItem]] = defaultdict(list)
    excluded = 0
    for item in questions:
        if item.select == 1 and len(item.keys) == 1 and 2 <= item.option_count <= len(LETTERS):
            groups[item.option_count].append(item)
        else:
            excluded += 1
    return groups, excluded


def _key_counts(items: list[BankItem], k: int) -> list[int]:
    """How many of these k-option questions have their key at each position."""
    counts = [0] * k
    for item in items:
        counts[item.keys[0]] += 1
    return counts


def _chi_square_minimum(k: int, options: Options) -> int:
    """The fewest k-option questions the chi-square approximation holds for (5 expected keys per position)."""
    return max(options.min_questions, 5 * k)


@dataclass(frozen=True)
class Judged:
    """One option-count group as the rule judges it: the spread test it ran (None for a group of one question),
    at the significance level shared among the groups, and the runs it found."""

    options: int
    items: list[BankItem]
    counts: list[int]
    alpha: float
    test: str | None = None
    statistic: float | None = None
    p_value: float | None = None
    runs: tuple[tuple[BankItem, int], ...] = ()

    @property
    def biased(self) -> bool | None:
        return None if self.p_value is None else self.p_value < self.alpha


def _judge(questions: Sequence[BankItem], options: Options) -> tuple[list[Judged], int]:
    """Every option-count group, judged; and how many questions no group holds. ``check`` reports from this and
    ``publish`` shows it, so the report's table is the test check ran."""
    groups, excluded = _groups(questions)
    alpha = options.alpha / max(1, sum(len(items) >= 2 for items in groups.values()))   # one family per bank
    judged = []
    for k, items in sorted(groups.items()):
        counts = _key_counts(items, k)
        if len(items) < 2:
            judged.append(Judged(k, items, counts, alpha))
            continue
        test, statistic, p = _spread_test(counts, len(items) >= _chi_square_minimum(k, options))
        runs = tuple(_runs(items, options.max_run or _expected_run_limit(len(items), k, alpha)))
        judged.append(Judged(k, items, counts, alpha, test, statistic, p, runs))
    return judged, excluded


def _named(group: Judged) -> str:
    """The test as the message names it."""
    if group.test == "chi-square":
        return f"chi-square {group.statistic:.1f}"
    return f"exact binomial test of {group.statistic:.0f} at one position"


def check(questions: Sequence[BankItem], options: Options, surveyed: tuple[list[Judged], int]
          ) -> Iterator[BankViolation]:
    for group in surveyed[0]:
        n, k = len(group.items), group.options
        if group.biased:
            spread = ", ".join(f"{LETTERS[i]} {c}" for i, c in enumerate(group.counts))
            yield BankViolation(group.items[0], "options",
                                f"keys of the {n} {k}-option questions sit at {spread}; expected about {n / k:.0f} each "
                                f"({_named(group)}, p={group.p_value:.2g})", bank_level=True)
        for first, length in group.runs:
            yield BankViolation(first, "options", f"{length} {k}-option questions in a row have their key at "
                                                  f"{LETTERS[first.keys[0]]}, starting here")


def publish(questions: Sequence[BankItem], options: Options, surveyed: tuple[list[Judged], int]) -> dict:
    """The key-position table, as check judged it: per option count, the questions, their keys per position, the
    spread test check ran on the group (``test``: chi-square where the group has at least ``needed`` questions, else
    an exact binomial test of the fullest position; None for a lone question), its statistic and p-value, the
    significance level shared among the groups (``alpha``), whether the test fired (``biased``), and the runs of one
    key position check found; and how many questions no group holds (``excluded``)."""
    judged, excluded = surveyed
    table = [{"options": g.options, "questions": len(g.items), "counts": g.counts,
              "needed": _chi_square_minimum(g.options, options), "tested": g.test is not None,
              "test": g.test, "statistic": g.statistic, "p_value": g.p_value, "alpha": g.alpha, "biased": g.biased,
              "runs": [{"id": first.id, "path": first.path, "line": first.line, "length": length,
                        "position": LETTERS[first.keys[0]]} for first, length in g.runs]}
             for g in judged]
    return {"groups": table, "excluded": excluded}


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

# a 12-question quiz, every key at A: too small for the chi-square approximation, not for an exact test
_SMALL_QUIZ = "questions:\n" + "".join(
    f"""  - id: quiz-{i}
    stem: Quiz question {i} on topic number {i * 11}?
    options:
      - {{text: First choice, correct: true, rationale: Reason.}}
      - {{text: Second choice, rationale: Reason.}}
      - {{text: Third choice, rationale: Reason.}}
      - {{text: Fourth choice, rationale: Reason.}}
""" for i in range(12))
_SMALL_BALANCED = "questions:\n" + "".join(
    f"""  - id: even-{i}
    stem: Quiz question {i} on topic number {i * 11}?
    options:
""" + "".join(f"""      - {{text: Choice {j}, correct: {str((i * 3) % 4 == j).lower()}, rationale: Reason.}}
""" for j in range(4)) for i in range(12))

RULE = BankRule(
    code="Q602",
    name="answer-position-bias",
    severity=Severity.WARNING,
    summary="Across the bank, keys sit in some positions far more than chance allows, or repeat in long runs.",
    why=("Writers over-place keys in middle positions, up to 3-4:1 (Attali & Bar-Hillel 2003), and hand balancing "
         "leaves runs. Test-wise candidates exploit both. A fixed share is no test: a small bank is lumpy by "
         "chance, so qlint asks a chi-square test per option count (an exact binomial test per position where the "
         "group is too small for chi-square), at a significance level shared among the groups."),
    use_instead="Randomise key positions when assembling forms, or rebalance the bank's keys by hand.",
    options=Options,
    check=check,
    publish=publish,
    survey=_judge,
    passing=(_BALANCED, _SMALL_BALANCED),
    failing=(Invalid(_BIASED, field="options", message="keys of the 30 3-option questions sit at A 24, B 6, C 0"), Invalid(_SMALL_QUIZ,
        field="options",
        message=(
            "12 4-option questions in a row have their key at A, starting here",
            "keys of the 12 4-option questions sit at A 12, B 0, C 0, D 0",
        ))),
)
