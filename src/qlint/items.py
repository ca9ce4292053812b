"""What the whole-bank rules see of each question: a small, picklable, cacheable record.

Per-file work (parsing, validation, question rules) can run in worker processes and be
cached; a BankItem is what crosses back. It keeps the fields bank rules use, the positions
they report at, and per-rule features that bank rules precompute per question (so a warm
run recomputes cross-file findings without re-reading a single question).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qlint.finding import Finding
from qlint.sourcemap import LoadedQuestion, Suppression, locate, pack

# the positions bank rules and suppressions report at; the rest stay with the file (a million questions
# keep a million of these)
_KEPT_NAMES = frozenset(("id", "stem", "options", "select", "objective", "qlint"))   # and every "qlint.*"


@dataclass(slots=True, eq=False)
class BankItem:
    """One question as the bank rules see it."""

    id: str
    path: str
    line: int
    column: int
    end_line: int
    select: int
    keys: tuple[int, ...]
    option_count: int
    objective: str | None
    tags: tuple[str, ...]
    difficulty: int | str | None
    ignore: dict[str, str]
    positions: dict[str, int]   # field -> its position, ``pack``-ed: one small int, not a tuple (a million kept)
    features: dict[str, Any] = field(default_factory=dict)

    def locate(self, field_path: str | None) -> tuple[int, int]:
        """Line and column of a field; falls back to its parent, then to the question."""
        return locate(self.positions, field_path, (self.line, self.column))


NO_IGNORE: dict[str, str] = {}   # shared by the questions that suppress nothing; never mutated


def to_item(loaded: LoadedQuestion) -> BankItem:
    q = loaded.question
    return BankItem(
        id=q.id, path=loaded.path, line=loaded.line, column=loaded.column, end_line=loaded.end_line,
        select=q.select, keys=q.keys, option_count=len(q.options), objective=q.objective,
        tags=q.tags, difficulty=q.difficulty, ignore=dict(q.qlint.ignore) if q.qlint and q.qlint.ignore else NO_IGNORE,
        positions={k: pack(*v) for k, v in loaded.positions.items() if k in _KEPT_NAMES or k.startswith("qlint.")},
    )


@dataclass(eq=False)
class CheckedFile:
    """Everything per-file work produced for one file: cacheable, and all the engine needs afterwards."""

    path: str
    findings: list[Finding]
    items: list[BankItem]
    suppressions: list[Suppression]
    questions: list[LoadedQuestion] | None = None  # kept only when asked for (report, stats)
    count: int | None = None   # set when ``items`` was left undecoded (a warm run that needs none of them)

    @property
    def question_count(self) -> int:
        return len(self.items) if self.count is None else self.count
