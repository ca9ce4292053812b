"""Where each question and field sits in its file: the source map every reader produces and every finding uses.

A reader turns one file's bytes into a ``ParsedFile``: its questions (``LoadedQuestion``: a validated question
with the line and column of each field's key and how each scalar's value is written), its suppression comments
and the problems it met, as findings. Nothing here knows a file format; one ``locate`` finds a field's position
in any reader's map (or a ``BankItem``'s packed one).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from qlint.finding import Finding

if TYPE_CHECKING:
    from qlint.model import Question


@dataclass(frozen=True, eq=False)
class LoadedQuestion:
    """A validated question and where each of its fields sits in its file.

    ``positions`` holds where each field's key starts; ``values`` where each scalar's value starts and how it is
    written (``ValueMap``), so that a span inside a value can be placed in the file.
    """

    question: Question
    path: str
    line: int
    column: int
    positions: dict[str, tuple[int, int]]
    values: dict[str, Any] = field(default_factory=dict)

    @property
    def end_line(self) -> int:
        """The last line any of this question's fields starts on."""
        return max((line for line, _ in self.positions.values()), default=self.line)

    def locate(self, field_path: str | None) -> tuple[int, int]:
        """Line and column of a field such as ``options[2].rationale``; falls back to its parent."""
        return locate(self.positions, field_path, (self.line, self.column))

    def locate_span(self, field_path: str, span: tuple[int, int]) -> tuple[int, int, int | None, int | None]:
        """Where characters ``span`` of a field's text are in the file: start line and column, and the line and
        column one past the end (None, None when the value is not written so that offsets map exactly: then the
        start is where the value starts)."""
        code = self.values.get(field_path)
        text = field_text(self.question, field_path) if code is not None else None
        if text is None:
            return (*self.locate(field_path), None, None)
        placed = ValueMap.place(code, text, span)
        if placed is None:
            return (*ValueMap.start(code), None, None)
        return placed


_FIELD_PART = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)(?:\[(\d+)\])?")


def field_text(question: Question, field_path: str) -> str | None:
    """The text of a field such as ``options[2].text`` or ``stem``, as the rules read it; None if it is none."""
    node: Any = question
    for part in field_path.split("."):
        match = _FIELD_PART.fullmatch(part)
        if match is None:
            return None
        name = match.group(1)
        # a model's own fields only (``__doc__`` is text too); a dict of free data (meta) is looked into by key
        model_fields = getattr(type(node), "model_fields", None)   # a question model's (pydantic's) own fields
        node = (getattr(node, name) if name in model_fields else None) if isinstance(model_fields, dict) \
            else node.get(name) if isinstance(node, dict) else None
        if match.group(2) is not None:
            index = int(match.group(2))
            node = node[index] if isinstance(node, tuple) and index < len(node) else None
    return node if isinstance(node, str) else None


COLUMN_BITS = 25   # columns up to 33 million: beyond any file max-file-size lets through
FAST_COLUMNS = (1 << COLUMN_BITS) - 2


class ValueMap:
    """How a scalar's value sits in its file, packed small (a bank keeps one per scalar field of every question).

    An int ``(line << 25 | column) << 2 | style``: STRAIGHT, the value's characters sit one for one from
    ``(line, column)`` (a plain or quoted scalar on one line); LITERAL, a ``|`` block whose first line is ``line``
    and whose text starts at ``column`` on every line; START, offsets do not map exactly (folded lines, an escape
    not handled), so any span is placed at the value's start. A quoted scalar with escapes is a tuple
    ``(code, shifts)``: ``shifts`` are ``(offset, extra)`` pairs, the value's character at ``offset`` is written
    with ``extra`` more characters (``''``, ``\\n``, ``\\x41``).
    """

    STRAIGHT, LITERAL, START = 0, 1, 2
    _BITS = COLUMN_BITS

    @classmethod
    def pack(cls, line: int, column: int, style: int) -> int:
        return (line << cls._BITS | min(column, (1 << cls._BITS) - 1)) << 2 | style

    @classmethod
    def start(cls, code: Any) -> tuple[int, int]:
        code = code[0] if isinstance(code, tuple) else code
        return code >> (cls._BITS + 2), (code >> 2) & ((1 << cls._BITS) - 1)

    @classmethod
    def place(cls, code: Any, text: str, span: tuple[int, int]) -> tuple[int, int, int, int] | None:
        """``span`` of ``text`` as (line, column, end line, end column), or None when it cannot be placed."""
        start, end = span
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(text)):
            return None
        shifts = code[1] if isinstance(code, tuple) else ()
        base = code[0] if shifts else code
        style = base & 3
        line, column = cls.start(base)
        if style == cls.STRAIGHT:
            def at(offset: int) -> int:
                return column + offset + sum(extra for where, extra in shifts if where < offset)
            return line, at(start), line, at(end)
        if style == cls.LITERAL:
            def point(offset: int) -> tuple[int, int]:
                return line + text.count("\n", 0, offset), column + offset - (text.rfind("\n", 0, offset) + 1)
            return (*point(start), *point(end))
        return None


def nearest(positions: Mapping[str, Any], field_path: str | None) -> str | None:
    """The field itself if ``positions`` records it, else its nearest recorded parent, else None."""
    key = field_path or ""
    while key:
        if key in positions:
            return key
        cut = max(key.rfind("."), key.rfind("["))
        key = key[:cut] if cut > 0 else ""
    return None


def pack(line: int, column: int) -> int:
    """A position as one small int (a bank keeps a few for each of a million questions)."""
    return line << COLUMN_BITS | min(column, (1 << COLUMN_BITS) - 1)


def unpack(value: int) -> tuple[int, int]:
    return value >> COLUMN_BITS, value & ((1 << COLUMN_BITS) - 1)


def locate(positions: Mapping[str, Any], field_path: str | None, default: tuple[int, int]) -> tuple[int, int]:
    """The position of a field, else of its nearest recorded parent, else ``default``; ``positions`` holds
    ``(line, column)`` pairs (a reader's map) or ``pack``-ed ints (a ``BankItem``'s)."""
    key = nearest(positions, field_path)
    if key is None:
        return default
    value = positions[key]
    return value if isinstance(value, tuple) else unpack(value)


@dataclass(frozen=True)
class Suppression:
    """A ``# qlint: ignore[...] reason`` comment and the line it covers (``ignore-question``: the question there;
    ``ignore-file``: the whole file). ``path`` names the part of the file it sits in when that is not the file
    itself (an entry of a package: ``quiz.zip!items/q1.xml``)."""

    line: int
    column: int
    target_line: int
    scope: str  # "line", "question" or "file"
    rules: tuple[str, ...]
    reason: str
    path: str | None = None


@dataclass(frozen=True)
class RejectedQuestion:
    """A question the bank format rejects (its schema findings say why) that still names an id: no rule checks it,
    but the id is taken, so the rules about ids across the bank (duplicate-id) count it."""

    id: str
    line: int
    column: int
    id_line: int
    id_column: int


@dataclass
class ParsedFile:
    """What one file yielded: its questions, its suppression comments and the problems found reading it, and the
    ids of the questions it could not accept."""

    path: str
    questions: list[LoadedQuestion] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    suppressions: list[Suppression] = field(default_factory=list)
    rejected: list[RejectedQuestion] = field(default_factory=list)
    # ids of questions whose format cannot hold their options' rationales: the reader's one rationales-not-held
    # finding stands for their missing-rationale findings
    rationales_not_held: set[str] = field(default_factory=set)


# a directive ends at a space, its brackets or the end: "ignore-questoin[...]" is no "ignore" but an unknown directive
_SUPPRESSION = re.compile(r"#\s*qlint:\s*(ignore-question|ignore-file|ignore)(?![\w-])\s*(?:\[([^\]\n]*)\])?[ \t]*"
                          r"([^\n]*)")
# a suppression comment's body, after the format's comment opener (``#``, ``//``, ``<!--``)
_BODY = re.compile(r"\s*qlint:\s*(ignore-question|ignore-file|ignore)(?![\w-])\s*(?:\[([^\]\n]*)\])?[ \t]*([^\n]*)")
# ... and one that names no directive qlint knows ("qlint: ignoree[...]", "qlint: disable"): an invalid suppression,
# said with the directive it names, never silently a plain comment that leaves the finding standing
_UNKNOWN = re.compile(r"\s*qlint:\s*([A-Za-z][\w-]{0,40})")
_UNKNOWN_HASH = re.compile(r"#\s*qlint:\s*[A-Za-z]")
UNKNOWN = "unknown"   # the scope of a comment naming an unknown directive: it covers nothing
_OPENING = re.compile(r"#\s*+qlint:")
_SCOPES = {"ignore": "line", "ignore-question": "question", "ignore-file": "file"}

# whether the character at (line, column), both counted from 1, is bank text (a scalar's) rather than a comment
TextAt = Callable[[int, int], bool]


@dataclass(frozen=True)
class CommentLine:
    """One line of a file as suppressions see it, told by the reader that knows the format's comment syntax:
    whether it holds content (bank text, markup: the line a lone comment above it covers), and the comment on it
    that may be a suppression, if any: the column its opener starts at, its text after the opener, and whether it
    stands alone on its line (nothing before it)."""

    number: int
    content: bool
    column: int = 0
    body: str | None = None
    lone: bool = False


def collect_suppressions(lines: Iterable[CommentLine]) -> list[Suppression]:
    """The suppressions among a file's comment lines, in one pass: a lone comment covers the next content line,
    any other comment its own line. Lines a reader leaves out (blank, plain comments) cover nothing."""
    found: list[tuple[int, int, str, tuple[str, ...], str]] = []
    targets: list[int] = []
    waiting: list[int] = []  # indexes of comments alone on their line that have not met a content line yet
    for line in lines:
        if line.content:
            # one pass: a content line is the target of every lone comment still waiting above it (searching
            # ahead from each comment instead was quadratic in a run of comment lines)
            for index in waiting:
                targets[index] = line.number
            waiting.clear()
        match = _BODY.match(line.body) if line.body is not None else None
        if match is None:
            unknown = _UNKNOWN.match(line.body) if line.body is not None else None
            if unknown is not None:
                found.append((line.number, line.column, UNKNOWN, (), unknown.group(1)))
                targets.append(line.number)
            continue
        if line.lone:
            waiting.append(len(found))
        rules = tuple(r.strip() for r in (match.group(2) or "").split(",") if r.strip())
        found.append((line.number, line.column, _SCOPES[match.group(1)], rules, match.group(3).strip()))
        targets.append(line.number)  # its own line until a content line below claims it
    return [Suppression(number, column, target, scope, rules, reason)
            for (number, column, scope, rules, reason), target in zip(found, targets)]


def find_suppressions(text: str, text_at: TextAt | None = None) -> list[Suppression]:
    """``# qlint:`` suppression comments in a YAML file's text. A comment alone on its line covers the next content
    line.

    ``text_at`` says where the file's text holds bank text: a ``#`` there is part of a stem or a rationale, never a
    comment, so bank text can neither suppress a finding nor be taken for a comment line. Each line's candidates
    are found in one pass and the whole pattern is matched once, at the first that is a comment."""
    if "qlint:" not in text:
        return []
    return collect_suppressions(_hash_comments(text, text_at))


def _hash_comments(text: str, text_at: TextAt | None) -> Iterator[CommentLine]:
    """Each line of a text whose comments open with ``#``, as suppressions see it."""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.lstrip()
        lone = stripped.startswith("#") and not (text_at is not None and text_at(number, len(line) - len(stripped) + 1))
        content = bool(stripped) and not lone
        match = _comment(line, number, text_at) if "qlint:" in line else None
        if match is None:
            if content:
                yield CommentLine(number, True)
            continue
        at = match.start()
        yield CommentLine(number, content, at + 1, line[at + 1:], not line[:at].strip())


def _comment(line: str, number: int, text_at: TextAt | None) -> re.Match | None:
    """The first suppression on a line that is a comment, not bank text."""
    for candidate in _OPENING.finditer(line):
        if text_at is not None and text_at(number, candidate.start() + 1):
            continue
        match = _SUPPRESSION.match(line, candidate.start()) or _UNKNOWN_HASH.match(line, candidate.start())
        if match is not None:
            return match
    return None
