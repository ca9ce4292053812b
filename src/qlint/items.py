"""What the whole-bank rules see of each question: a small, picklable, cacheable record.

Per-file work (parsing, validation, question rules) can run in worker processes and be
cached; a BankItem is what crosses back. It keeps the fields bank rules use, the positions
they report at, and per-rule features that bank rules precompute per question (so a warm
run recomputes cross-file findings without re-reading a single question).
"""
from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from qlint.finding import Finding
from qlint.sourcemap import LoadedQuestion, RejectedQuestion, Suppression, locate, pack

# the positions bank rules and suppressions report at; the rest stay with the file (a million questions
# keep a million of these)
_KEPT_NAMES = frozenset(("id", "stem", "options", "select", "objective", "qlint"))   # and every "qlint.*"


class Named(Mapping):
    """A small read-only mapping kept for each of a million questions: its names as one tuple that every question
    with the same names shares, its values in a sequence of their own (a dict of four costs several times as
    much). Subclasses say how the values are held (``_hold``)."""

    __slots__ = ("_names", "_values")
    _shared: dict[tuple[str, ...], tuple[str, ...]] = {}   # the names tuples, one of each (shared by subclasses)

    def __init__(self, values: Mapping[str, Any] = {}) -> None:  # noqa: B006 - never mutated
        self._names = _names_of(tuple(values))
        self._values = self._hold(values.values())

    @staticmethod
    def _hold(values: Iterable[Any]) -> Sequence[Any]:
        return tuple(values)

    def __getitem__(self, name: str) -> Any:
        try:
            return self._values[self._names.index(name)]
        except ValueError:
            raise KeyError(name) from None

    def get(self, name: str, default: Any = None) -> Any:   # without Mapping's exception on every miss
        names = self._names
        return self._values[names.index(name)] if name in names else default

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self)!r})"

    @classmethod
    def maker(cls, names: Iterable[str]) -> Callable[[Iterable[Any]], Named]:
        """What makes the mapping of these names (in this order) from their values: for the questions of a file,
        which all have the same names, the names are looked up once, not once per question."""
        kept = _names_of(tuple(names))
        hold, new = cls._hold, cls.__new__

        def make(values: Iterable[Any]) -> Named:
            made = new(cls)
            made._names = kept
            made._values = hold(values)
            return made
        return make

    def __reduce__(self) -> tuple:
        values = self._values
        return _remade, (type(self), self._names, values.tobytes() if isinstance(values, array) else values)


def _names_of(names: tuple[str, ...]) -> tuple[str, ...]:
    """The one tuple of these names; past 4,096 kinds (questions of odd shapes) a tuple is kept as it is."""
    shared = Named._shared.get(names)
    if shared is None:
        if len(Named._shared) >= 4096:
            return names
        shared = Named._shared[names] = tuple(sys.intern(str(n)) for n in names)
    return shared


def _remade(kind: type[Named], names: tuple[str, ...], values: Any) -> Named:
    """``Named.__reduce__``'s parts back as the mapping (a worker's question in the main process)."""
    made = kind.__new__(kind)
    made._names = _names_of(names)
    made._values = kind._hold(values) if isinstance(values, bytes) else values
    return made


class Places(Named):
    """A question's kept positions: field -> its ``pack``-ed position, the positions in one array of machine words."""

    __slots__ = ()

    @staticmethod
    def _hold(values: Iterable[Any]) -> Sequence[Any]:
        return array("q", values)


class Features(Named):
    """A question's bank features: rule name -> what the rule extracted."""

    __slots__ = ()


NO_FEATURES = Features()


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
    positions: Places   # field -> its position, ``pack``-ed: one small int, not a tuple (a million kept)
    # rule name -> feature: a dict while the file's rules extract them, then ``Features``
    features: Mapping[str, Any] = field(default_factory=dict)

    def locate(self, field_path: str | None) -> tuple[int, int]:
        """Line and column of a field; falls back to its parent, then to the question."""
        return locate(self.positions, field_path, (self.line, self.column))


NO_IGNORE: dict[str, str] = {}   # shared by the questions that suppress nothing; never mutated


def to_item(loaded: LoadedQuestion) -> BankItem:
    q = loaded.question
    return BankItem(
        id=q.id, path=loaded.path, line=loaded.line, column=loaded.column, end_line=loaded.end_line,
        select=q.select, keys=one_copy(q.keys), option_count=len(q.options), objective=shared(q.objective),
        tags=one_copy(tuple(map(shared, q.tags))), difficulty=q.difficulty,
        ignore=dict(q.qlint.ignore) if q.qlint and q.qlint.ignore else NO_IGNORE,
        positions=Places({k: pack(*v) for k, v in loaded.positions.items() if k in _KEPT_NAMES or k.startswith("qlint.")}),
    )


_COPIES: dict[Any, Any] = {}


def one_copy(value: Any) -> Any:
    """A read-only value (a question's keys or tags, a rule's small record) as the one copy every question with an
    equal value shares: a bank of a million questions has a few thousand distinct ones ((0,), (1,), a bank's few sets
    of tags). Past 65,536 distinct values, a value is kept as it is."""
    found = _COPIES.get(value)
    if found is None:
        if len(_COPIES) >= 65536:
            return value
        found = _COPIES[value] = value
    return found


def shared(name: Any) -> Any:
    """An objective's or a tag's name as the one copy every question that names it shares (a bank repeats a few
    names over all its questions); anything else as it is."""
    return sys.intern(str(name)) if isinstance(name, str) else name


def rejected_item(rejected: RejectedQuestion, path: str) -> BankItem:
    """A question the format rejected as the bank rules that count ids see it: its id and where it is, no more."""
    return BankItem(id=rejected.id, path=path, line=rejected.line, column=rejected.column, end_line=rejected.line,
                    select=1, keys=(), option_count=0, objective=None, tags=(), difficulty=None, ignore=NO_IGNORE,
                    positions=Places({"id": pack(rejected.id_line, rejected.id_column)}), features=NO_FEATURES)


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
