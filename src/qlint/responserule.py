"""Response rules: rules over how people answered a question, not over its wording.

A ResponseRule is a pure function of one question's item statistics (ItemView). It runs only when response
data is given (``qlint analyze``, ``qlint check --responses``); without data it is listed and configurable
like any rule but stays silent. Its examples are bank YAML followed by a comment block of responses, so the
card shows both and one test runs them (tests/rules/test_response_rules.py):

    # responses: q1,count       <- wide layout: one column per question id, then how many people
    # responses: A,60              answered that way (a compact way to write hundreds of persons)

This module is everything a response rule sees (a question as item analysis reads it, one option's, one
question's and one form's statistics) and imports nothing of ``qlint.analysis``: the analysis computes these
values, the rules in ``qlint.rules`` judge them, and neither package imports the other's way back.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from qlint.rule import Rule, RuleOptions, Violation
from qlint.sourcemap import LoadedQuestion
from qlint.wording import letter

RESPONSES_MARK = "# responses:"


@dataclass(frozen=True)
class BankQuestion:
    """One question of the bank as item analysis sees it: where it is, its options, its key."""

    index: int
    loaded: LoadedQuestion

    @property
    def id(self) -> str:
        return self.loaded.question.id

    @property
    def options(self) -> tuple[str, ...]:
        return tuple(o.text for o in self.loaded.question.options)

    @property
    def key(self) -> int | None:
        """The single correct option's index; None when the question has no single key (select > 1)."""
        keys = self.loaded.question.keys
        return keys[0] if len(keys) == 1 and self.loaded.question.select == 1 else None


@dataclass(frozen=True)
class OptionStats:
    """One option of one question: who chose it and how they scored on the rest of the test."""

    opt: int
    n: int
    proportion: float
    rest_pb: float | None
    groups: tuple[float, ...]   # proportion choosing it in each of the five score groups, lowest first


@dataclass(frozen=True)
class ItemStats:
    """One question on one form."""

    form: str
    qi: int
    key: int
    n: int
    p: float
    omitted: int
    item_rest: float | None
    discrimination: float | None   # upper-lower 27% index
    alpha_if_deleted: float | None
    options: tuple[OptionStats, ...]
    omitted_groups: tuple[float, ...] = ()


@dataclass(frozen=True)
class FormStats:
    """A form (the whole data set when there is no ``form`` column): its persons, questions and reliability."""

    form: str
    persons: int
    items: int
    mean: float
    sd: float
    alpha: float | None


class SampleOptions(RuleOptions):
    """Every response rule's minimum sample: below it the rule does not judge (and says so in the summary)."""

    min_responses: int = Field(100, ge=1, description="answers a question needs before this rule judges it")


@dataclass(frozen=True)
class ItemView:
    """What a response rule sees: one question, its statistics on one form, and the form's."""

    question: BankQuestion
    stats: ItemStats
    form: FormStats
    forms: int   # how many forms the data has (messages name the form only when there are several)

    def label(self, opt: int) -> str:
        """An option as a message names it: its letter and a short quote of its text."""
        text = self.question.options[opt]
        short = text if len(text) <= 40 else text[:37] + "..."
        return f"{letter(opt)} ({short!r})"

    @property
    def where(self) -> str:
        return f" on form {self.form.form!r}" if self.forms > 1 and self.form.form else ""


@dataclass(frozen=True, kw_only=True)
class ResponseRule(Rule):
    """A rule over one question's response statistics."""

    check: Callable[[ItemView, Any], Iterable[Violation]]
    options: type[RuleOptions] = SampleOptions
    enabled: bool = False   # on only when response data is given: a suppression of it never looks unused

    @property
    def kind(self) -> str:
        return "response"


def enough(view: ItemView, options: Any) -> bool:
    return view.stats.n >= options.min_responses


def split_example(text: str) -> tuple[str, str]:
    """An example's bank YAML and its responses as a wide CSV, one row per person (``count`` expanded)."""
    bank, rows = [], []
    for line in text.splitlines():
        (rows if line.startswith(RESPONSES_MARK) else bank).append(line)
    table = [r[len(RESPONSES_MARK):].strip().split(",") for r in rows]
    if not table:
        return "\n".join(bank) + "\n", ""
    header, body = table[0], table[1:]
    count_at = header.index("count")
    out = ["person," + ",".join(h for i, h in enumerate(header) if i != count_at)]
    person = 0
    for row in body:
        cells = ",".join(c for i, c in enumerate(row) if i != count_at)
        for _ in range(int(row[count_at])):
            person += 1
            out.append(f"p{person},{cells}")
    return "\n".join(bank) + "\n", "\n".join(out) + "\n"


def example(keys: str, rows: Iterable[tuple[str, int]], options: int = 4, note: str = "") -> str:
    """A compact example: one question per letter of ``keys`` (its key), then answer patterns and counts,
    e.g. ``example("AAB", [("AAC", 50), ...])``: 50 people answered A, A and C."""
    lines = [f"# {note}"] if note else []
    lines.append("questions:")
    for n, key in enumerate(keys, 1):
        lines.append(f"  - id: q{n}")
        lines.append(f"    stem: Which answer does question {n} expect?")
        lines.append("    options:")
        for o in range(options):
            mark = ", correct: true" if letter(o) == key else ""
            lines.append(f"      - {{text: Answer {letter(o)}{mark}}}")
    lines.append(f"{RESPONSES_MARK} {','.join(f'q{n}' for n in range(1, len(keys) + 1))},count")
    lines += [f"{RESPONSES_MARK} {','.join(pattern)},{count}" for pattern, count in rows]
    return "\n".join(lines) + "\n"
