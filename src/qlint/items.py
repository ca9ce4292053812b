"""What the whole-bank rules see of each question: a small, picklable, cacheable record.

Per-file work (parsing, validation, question rules) can run in worker processes and be
cached; a BankItem is what crosses back. It keeps the fields bank rules use, the positions
they report at, and per-rule features that bank rules precompute per question (so a warm
run recomputes cross-file findings without re-reading a single question).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from qlint.finding import Finding
from qlint.sourcemap import LoadedQuestion, RejectedQuestion, Suppression, locate, pack

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


def rejected_item(rejected: RejectedQuestion, path: str) -> BankItem:
    """A question the format rejected as the bank rules that count ids see it: its id and where it is, no more."""
    return BankItem(id=rejected.id, path=path, line=rejected.line, column=rejected.column, end_line=rejected.line,
                    select=1, keys=(), option_count=0, objective=None, tags=(), difficulty=None, ignore=NO_IGNORE,
                    positions={"id": pack(rejected.id_line, rejected.id_column)})


def with_rejected(files: Sequence[CheckedFile]) -> list[BankItem]:
    """Every file's items and its rejected questions' items, in the order they stand in the file."""
    out: list[BankItem] = []
    for checked in files:
        out += sorted([*checked.items, *checked.rejected], key=lambda i: i.line) if checked.rejected else checked.items
    return out


@dataclass(eq=False)
class CheckedFile:
    """Everything per-file work produced for one file: cacheable, and all the engine needs afterwards."""

    path: str
    findings: list[Finding]
    items: list[BankItem]
    suppressions: list[Suppression]
    questions: list[LoadedQuestion] | None = None  # kept only when asked for (report, stats)
    count: int | None = None   # set when ``items`` was left undecoded (a warm run that needs none of them)
    rejected: list[BankItem] = field(default_factory=list)   # questions the format rejected that name an id

    @property
    def question_count(self) -> int:
        return len(self.items) if self.count is None else self.count
