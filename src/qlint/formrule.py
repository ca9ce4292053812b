"""Form rules: rules over one drawn exam form (``qlint check --form FORM``), not over the bank.

A FormRule is a pure function of a FormView: the form's entries (each question id as the form lists it, and the
bank's question of that id), the exam blueprint, and the pairs the bank rules published (enemy items,
near-duplicates, contradictory copies) that have both questions on the form. It runs only when a form is given;
without one it is listed and configurable like any rule but stays silent. Its examples are bank YAML after a
``# form: [ids]`` line (and the ``# options:`` block other rules use), so the card shows both and one test runs
them (tests/rules/test_forms.py).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from qlint.items import BankItem
from qlint.rule import Rule

FORM_MARK = "# form:"


@dataclass(frozen=True)
class FormEntry:
    """One question on the form: its id as the form lists it, where the form lists it, and the bank's question of
    that id (None: the bank has no such question)."""

    id: str
    line: int
    item: BankItem | None


@dataclass(frozen=True)
class FormPair:
    """Two questions of the form that a bank rule pairs: which rule, and what it says of them."""

    rule: str          # enemy-items, near-duplicate-stem, contradictory-keys
    first: int         # entry indices, first < second
    second: int
    detail: str


@dataclass(frozen=True)
class FormView:
    """What a form rule sees."""

    name: str
    path: str
    entries: tuple[FormEntry, ...]
    blueprint: Any       # qlint.blueprint.Blueprint | None
    pairs: tuple[FormPair, ...]
    missing: tuple[str, ...]   # the bank rules whose pairs are not known (they did not run)


@dataclass(frozen=True)
class FormViolation:
    """A form rule's verdict: which entry of the form (None: the form as a whole) and what is wrong."""

    entry: int | None
    message: str


@dataclass(frozen=True, kw_only=True)
class FormRule(Rule):
    """A rule over one drawn form."""

    check: Callable[[FormView, Any], Iterable[FormViolation]]
    enabled: bool = False   # on only when a form is given: a suppression of it never looks unused

    @property
    def kind(self) -> str:
        return "form"


def split_example(text: str) -> tuple[str, list[str]]:
    """An example's bank YAML and the form it draws (the ids after ``# form:``)."""
    form: list[str] = []
    lines = []
    for line in text.splitlines():
        if line.startswith(FORM_MARK):
            form = [part.strip().strip("'\"") for part in line[len(FORM_MARK):].strip().strip("[]").split(",")
                    if part.strip()]
        else:
            lines.append(line)
    return "\n".join(lines) + "\n", form
