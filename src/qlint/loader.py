"""Bank files -> validated questions with a source map.

The checking path composes YAML with libyaml (PyYAML's C loader when present) and
never constructs objects: nodes become plain strings, lists and dicts, every key's
line and column is kept, and pydantic validates the result. Every problem -- bad
bytes, bad YAML, bad shape -- comes out as a Finding, never as an exception.
"""
from __future__ import annotations

import difflib
import os
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from qlint.finding import Finding, Severity
from qlint.model import OPTION_FIELDS, QUESTION_FIELDS, Plain, Question

try:  # libyaml is ~10x faster; the pure-Python loader gives the same nodes.
    _BaseLoader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _BaseLoader = yaml.SafeLoader

_DEFAULT_TAGS = {yaml.ScalarNode: "tag:yaml.org,2002:str", yaml.SequenceNode: "tag:yaml.org,2002:seq",
                 yaml.MappingNode: "tag:yaml.org,2002:map"}


class _YamlLoader(_BaseLoader):
    """Composes without resolving implicit tags: qlint reads every plain scalar as text itself, and PyYAML's
    regex resolver, called back from C for every scalar, cost 40% of parsing. Explicit tags are kept."""

    def resolve(self, kind, value, implicit):  # noqa: D401 - PyYAML's hook
        return _DEFAULT_TAGS[kind]

PARSE_ERROR = ("Q101", "parse-error")
SCHEMA = ("Q102", "schema")

_STANDARD_TAGS = frozenset(
    "tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")
)
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_FILE_KEYS = ("questions",)


@dataclass(frozen=True)
class Limits:
    """Bounds that keep a hostile file cheap."""

    max_file_size: int = 20 * 1024 * 1024
    max_depth: int = 64
    max_alias_expansion: int = 10_000
    rule_time_budget: float = 60.0  # seconds the question rules may take over one file before the rest are skipped


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
        node = (getattr(node, name) if name in type(node).model_fields else None) if isinstance(node, BaseModel) \
            else node.get(name) if isinstance(node, dict) else None
        if match.group(2) is not None:
            index = int(match.group(2))
            node = node[index] if isinstance(node, tuple) and index < len(node) else None
    return node if isinstance(node, str) else None


_COLUMN_BITS = 25
_FAST_COLUMNS = (1 << _COLUMN_BITS) - 2
_QUOTES = frozenset("'\"")


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
    _BITS = _COLUMN_BITS

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


def locate(positions: dict[str, tuple[int, int]], field_path: str | None,
           default: tuple[int, int]) -> tuple[int, int]:
    """The position of a field, else of its nearest recorded parent, else ``default``."""
    key = nearest(positions, field_path)
    return positions[key] if key is not None else default


@dataclass(frozen=True)
class Suppression:
    """A ``# qlint: ignore[...] reason`` comment and the line it covers (``ignore-question``: the question there;
    ``ignore-file``: the whole file)."""

    line: int
    column: int
    target_line: int
    scope: str  # "line", "question" or "file"
    rules: tuple[str, ...]
    reason: str


@dataclass
class FileResult:
    """What one file yielded: its questions, its suppression comments and the problems found reading it."""

    path: str
    questions: list[LoadedQuestion] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    suppressions: list[Suppression] = field(default_factory=list)


_SUPPRESSION = re.compile(r"#\s*qlint:\s*(ignore-question|ignore-file|ignore)\b\s*(?:\[([^\]\n]*)\])?[ \t]*([^\n]*)")
_SCOPES = {"ignore": "line", "ignore-question": "question", "ignore-file": "file"}


def find_suppressions(text: str) -> list[Suppression]:
    """Suppression comments in a file's text. A comment alone on its line covers the next content line."""
    if "qlint:" not in text:
        return []
    found: list[tuple[int, int, str, tuple[str, ...], str]] = []
    targets: list[int] = []
    waiting: list[int] = []  # indexes of comments alone on their line that have not met a content line yet
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.lstrip()
        if stripped and not stripped.startswith("#"):
            # one pass: a content line is the target of every lone comment still waiting above it (searching
            # ahead from each comment instead was quadratic in a run of comment lines)
            for index in waiting:
                targets[index] = number
            waiting.clear()
        if "qlint:" not in line:
            continue
        match = _SUPPRESSION.search(line)
        if match is None:
            continue
        if not line[: match.start()].strip():
            waiting.append(len(found))
        scope = _SCOPES[match.group(1)]
        rules = tuple(r.strip() for r in (match.group(2) or "").split(",") if r.strip())
        found.append((number, match.start() + 1, scope, rules, match.group(3).strip()))
        targets.append(number)  # its own line until a content line below claims it
    return [Suppression(number, column, target, scope, rules, reason)
            for (number, column, scope, rules, reason), target in zip(found, targets)]


class _Abort(Exception):
    """Stops a walk over a hostile document; carries the finding to report."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line, self.column = line, column


def _finding(path: str, line: int, column: int, kind: tuple[str, str], message: str,
             question: str | None = None, field_path: str | None = None) -> Finding:
    code, name = kind
    return Finding(path, line, column, code, name, Severity.ERROR, message, question, field_path)


def decode(data: bytes, path: str) -> tuple[str | None, list[Finding]]:
    """Bytes -> text. UTF-8 (with or without BOM) is the bank encoding; UTF-16/32 with a BOM is read but flagged."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for bom, codec in ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
                       (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            try:
                text = data[len(bom):].decode(codec)
            except UnicodeDecodeError:
                name = codec.upper()
                return None, [_finding(path, 1, 1, PARSE_ERROR,
                                       f"file starts with a {name} byte-order mark but is not valid {name}")]
            return text, [_finding(path, 1, 1, PARSE_ERROR,
                                   f"file is encoded as {codec.upper()}; bank files must be UTF-8 (it was read anyway)")]
    if b"\x00" in data[:8192]:
        return None, [_finding(path, 1, 1, PARSE_ERROR, "binary file (contains NUL bytes), not a YAML bank file")]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [_finding(path, line, column, PARSE_ERROR,
                               f"invalid UTF-8 byte 0x{data[exc.start]:02x}; bank files must be UTF-8")]


def _yaml_error(exc: yaml.YAMLError, path: str, text: str = "") -> Finding:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    if mark is None and isinstance(getattr(exc, "position", None), int):
        # a reader error (a control character) has only an offset: libyaml's counts UTF-8 bytes
        head = text.encode("utf-8", "surrogatepass")[: exc.position].decode("utf-8", "replace")
        line, column = head.count("\n") + 1, len(head) - (head.rfind("\n") + 1) + 1
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    message = f"YAML syntax error: {problem}"
    if context:
        message += f" ({context})"
    return _finding(path, line, column, PARSE_ERROR, message)


class _Walker:
    """Turns composed nodes into plain values, recording the position of every field."""

    def __init__(self, path: str, limits: Limits, text: str = "") -> None:
        self.path = path
        self.limits = limits
        self.text = text
        self.findings: list[Finding] = []
        self.values: dict[str, Any] = {}   # the current question's ValueMap codes, by field
        self._seen: set[int] = set()
        self._expanded = 0

    def _scalar(self, node: yaml.ScalarNode, where: str) -> Any:
        """A scalar's value (a plain one as ``Plain``), recording where it is written."""
        start, end, style = node.start_mark, node.end_mark, node.style
        if start.line == end.line and start.column < _FAST_COLUMNS and (not style or (
                style in _QUOTES and end.index - start.index == len(node.value) + 2)):
            # a one-line value, plain or quoted without escapes (every escape is longer than the character it
            # makes): most of a bank, so ValueMap.pack(line, column, STRAIGHT) inline
            self.values[where] = (start.line + 1 << _COLUMN_BITS | start.column + (2 if style else 1)) << 2
        else:
            self.values[where] = self._value_map(node)
        if not style:  # libyaml gives plain scalars style "", PyYAML None
            return None if node.value in _NULLS else Plain(node.value)
        return node.value

    def _value_map(self, node: yaml.ScalarNode) -> Any:
        """The ValueMap code of a scalar: exact where offsets map one for one (or line by line), else its start."""
        start, end, style = node.start_mark, node.end_mark, node.style
        line, column = start.line + 1, start.column + 1
        if style == "|":
            return self._literal(node)
        if start.line != end.line or style == ">":
            return ValueMap.pack(line, column, ValueMap.START)   # folded lines: the joins do not map one for one
        if not style:
            return ValueMap.pack(line, column, ValueMap.STRAIGHT)
        if end.index - start.index == len(node.value) + 2:
            return ValueMap.pack(line, column + 1, ValueMap.STRAIGHT)   # no escapes
        shifts = _quote_shifts(self.text[start.index + 1:end.index - 1], style, node.value)
        if shifts is None:
            return ValueMap.pack(line, column, ValueMap.START)
        return ValueMap.pack(line, column + 1, ValueMap.STRAIGHT), shifts

    def _literal(self, node: yaml.ScalarNode) -> int:
        """A ``|`` block: its text starts on the line after the header, at the indentation of its first line."""
        start, end = node.start_mark, node.end_mark
        fallback = ValueMap.pack(start.line + 1, start.column + 1, ValueMap.START)
        text = self.text
        head_end = text.find("\n", start.index, end.index)
        header = text[start.index:head_end].split("#")[0]
        block = text[head_end + 1:end.index] if head_end >= 0 else ""
        # an explicit indentation (|2) or line breaks other than LF make the simple column rule unsafe
        if head_end < 0 or any(c.isdigit() for c in header) or any(c in block for c in "\r\x85\u2028\u2029"):
            return fallback
        first = next((ln for ln in block.split("\n", 64) if ln.strip()), None) if block.strip() else None
        if first is None:
            return fallback
        indent = len(first) - len(first.lstrip(" "))
        if not node.value.lstrip("\n").startswith(first[indent:]):
            return fallback
        return ValueMap.pack(start.line + 2, indent + 1, ValueMap.LITERAL)

    def _check_tag(self, node: yaml.Node) -> None:
        if node.tag not in _STANDARD_TAGS:
            mark = node.start_mark
            self.findings.append(_finding(
                self.path, mark.line + 1, mark.column + 1, SCHEMA,
                f"YAML tag {node.tag!r} is not allowed in a bank (qlint never constructs tagged objects); remove it"))

    def value(self, node: yaml.Node, where: str, positions: dict[str, tuple[int, int]],
              depth: int = 0, in_alias: bool = False) -> Any:
        if depth > self.limits.max_depth:
            mark = node.start_mark
            raise _Abort(f"nesting deeper than {self.limits.max_depth} levels (limit max-depth)",
                         mark.line + 1, mark.column + 1)
        seen = self._seen
        if id(node) in seen:
            in_alias = True  # a node met twice is an alias: the rules would read it again
        else:
            seen.add(id(node))
        kind = type(node)
        if in_alias:
            # a long text counts once per 1,000 characters, so aliases to one big scalar are bounded too
            self._expanded += 1 + (len(node.value) // 1000 if kind is yaml.ScalarNode else 0)
            if self._expanded > self.limits.max_alias_expansion:
                mark = node.start_mark
                raise _Abort(f"aliases expand to more than {self.limits.max_alias_expansion} nodes "
                             "(limit max-alias-expansion)", mark.line + 1, mark.column + 1)
        if node.tag not in _STANDARD_TAGS:
            self._check_tag(node)
        if kind is yaml.ScalarNode:
            return self._scalar(node, where)
        if kind is yaml.SequenceNode:
            items = []
            for index, item in enumerate(node.value):
                key = f"{where}[{index}]"
                if key not in positions:
                    mark = item.start_mark
                    positions[key] = (mark.line + 1, mark.column + 1)
                items.append(self.value(item, key, positions, depth + 1, in_alias))
            return items
        result: dict[str, Any] = {}
        first, last = _key_indexes(node.value)
        for index, (key_node, value_node) in enumerate(node.value):
            kmark = key_node.start_mark
            if key_node.tag not in _STANDARD_TAGS:
                self._check_tag(key_node)
            if type(key_node) is not yaml.ScalarNode:
                self.findings.append(_finding(self.path, kmark.line + 1, kmark.column + 1, SCHEMA,
                                              "a mapping key must be a plain scalar"))
                continue
            key = key_node.value
            if first[key] != index:
                self.findings.append(_duplicate(self.path, key_node, node.value[first[key]][0]))
            if last[key] != index:
                continue  # an earlier value: YAML consumers keep the last one, so that is the one checked
            child = f"{where}.{key}" if where else key
            positions[child] = (kmark.line + 1, kmark.column + 1)
            result[key] = self.value(value_node, child, positions, depth + 1, in_alias)
        return result


def _quote_shifts(raw: str, style: str, value: str) -> tuple[tuple[int, int], ...] | None:
    """Where a one-line quoted scalar's escapes (``''``; ``\\n``, ``\\x41``, ``\\u00e9``) make its text longer
    than its value: ``(value offset, extra characters)`` pairs; None when they do not account for the value."""
    shifts: list[tuple[int, int]] = []
    escape, widths = ("'", {}) if style == "'" else ("\\", {"x": 3, "u": 5, "U": 9})
    extra = 0
    at = raw.find(escape)
    while at >= 0:
        width = widths.get(raw[at + 1:at + 2], 1)
        shifts.append((at - extra, width))
        extra += width
        at = raw.find(escape, at + width + 1)
    return tuple(shifts) if len(raw) - extra == len(value) else None


def _key_indexes(pairs: list[tuple[yaml.Node, yaml.Node]]) -> tuple[dict[str, int], dict[str, int]]:
    """Where each scalar key of a mapping first and last occurs, by pair index."""
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for index, (key_node, _) in enumerate(pairs):
        if type(key_node) is yaml.ScalarNode:
            first.setdefault(key_node.value, index)
            last[key_node.value] = index
    return first, last


def _duplicate(path: str, key_node: yaml.Node, first_node: yaml.Node) -> Finding:
    """A repeated key. PyYAML and most YAML consumers keep the last value, so qlint checks that one too: what the
    bank's users read is what gets checked."""
    mark = key_node.start_mark
    return _finding(path, mark.line + 1, mark.column + 1, SCHEMA,
                    f"duplicate key {key_node.value!r} (first at line {first_node.start_mark.line + 1}); "
                    "the last value is used, as YAML loaders read it; remove the others")


def _did_you_mean(key: str, allowed: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else f"; allowed: {', '.join(allowed)}"


def _dotted(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


_TYPE_WORDS = {
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "tuple_type": "must be a list",
    "list_type": "must be a list",
    "dict_type": "must be a mapping",
    "model_type": "must be a mapping",
    "missing": "is required",
    "string_too_short": "must not be empty",
    "string_pattern_mismatch": "must not be blank",
}


def _schema_messages(exc: ValidationError) -> Iterator[tuple[str, str]]:
    errors = exc.errors()
    inner = {e["loc"][0] for e in errors if len(e["loc"]) > 1}
    for err in errors:
        loc = tuple(err["loc"])
        # pydantic re-reports a list whose items failed as "too short": noise.
        if err["type"] == "too_short" and loc and loc[0] in inner:
            continue
        where = _dotted(loc)
        if err["type"] == "extra_forbidden":
            key = str(loc[-1])
            parent = _dotted(loc[:-1])
            allowed = OPTION_FIELDS if parent.startswith("options[") and parent.count(".") == 0 else QUESTION_FIELDS
            if parent.startswith("qlint"):
                allowed = ("ignore",)
            owner = f"in {parent}" if parent else "in question"
            other = QUESTION_FIELDS if allowed is OPTION_FIELDS else OPTION_FIELDS
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            elsewhere = difflib.get_close_matches(key, other, n=1, cutoff=0.75)
            if not close and elsewhere and not parent.startswith("qlint"):
                level = "each option" if other is OPTION_FIELDS else "the question, not an option"
                yield where, f"unknown key {key!r} {owner}; did you mean {elsewhere[0]!r}? It belongs to {level}"
            else:
                yield where, f"unknown key {key!r} {owner}{_did_you_mean(key, allowed)}"
        elif err["type"] == "too_short" and loc == ("options",):
            yield where, "a question needs at least two options"
        elif err["type"] == "missing":
            yield where, f"missing required field {where!r}"
        elif err["type"] == "value_error":
            yield where, f"{where!r} {err['msg'].removeprefix('Value error, ')}"
        elif err["type"] in _TYPE_WORDS:
            yield where, f"{where!r} {_TYPE_WORDS[err['type']]}"
        else:
            yield where, f"{where!r}: {err['msg']}"


def _question_id(raw: Any) -> str | None:
    if isinstance(raw, dict) and isinstance(raw.get("id"), str) and raw["id"].strip():
        return raw["id"]
    return None


def _entries(root: yaml.Node, path: str, findings: list[Finding]) -> list[yaml.Node] | None:
    """The question nodes of a file: its ``questions:`` list, or the file itself as one question. None (with the
    reason in ``findings``) when the file holds none. A repeated ``questions:`` is reported, and the last list is
    the one checked: YAML loaders keep the last value, so that is the list the bank's users read."""
    first, last = _key_indexes(root.value) if isinstance(root, yaml.MappingNode) else ({}, {})
    if "questions" in last:
        for index, (key_node, _value_node) in enumerate(root.value):
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else "?"
            if key not in _FILE_KEYS:
                m = key_node.start_mark
                findings.append(_finding(path, m.line + 1, m.column + 1, SCHEMA,
                                         f"unknown top-level key {key!r}{_did_you_mean(key, _FILE_KEYS)}"))
            elif first[key] != index:
                findings.append(_duplicate(path, key_node, root.value[first[key]][0]))
        questions_node = root.value[last["questions"]][1]
        m = questions_node.start_mark
        if not isinstance(questions_node, yaml.SequenceNode):
            findings.append(_finding(path, m.line + 1, m.column + 1, SCHEMA, "'questions' must be a list of questions"))
            return None
        if not questions_node.value:
            findings.append(_finding(path, m.line + 1, m.column + 1, SCHEMA, "'questions' is empty"))
        return questions_node.value
    if isinstance(root, yaml.MappingNode):
        return [root]
    m = root.start_mark
    kind = "a list" if isinstance(root, yaml.SequenceNode) else "a single value"
    findings.append(_finding(path, m.line + 1, m.column + 1, SCHEMA,
                             f"file holds {kind}; a bank file holds one question (a mapping) "
                             "or a mapping with a 'questions:' list"))
    return None


def load_text(text: str, path: str, limits: Limits | None = None) -> FileResult:
    """Parse and validate one bank file's text."""
    limits = limits or Limits()
    result = FileResult(path=path, suppressions=find_suppressions(text))
    try:
        root = yaml.compose(text, Loader=_YamlLoader)
    except yaml.YAMLError as exc:
        result.findings.append(_yaml_error(exc, path, text))
        return result
    except RecursionError:
        result.findings.append(_finding(path, 1, 1, PARSE_ERROR, "YAML nested too deeply to read"))
        return result
    if root is None or (isinstance(root, yaml.ScalarNode) and not root.style and root.value == ""
                        and root.tag in _STANDARD_TAGS):  # "---" alone, or "---\n..."
        result.findings.append(_finding(path, 1, 1, SCHEMA, "file holds no questions (it is empty or only comments)"))
        return result

    entries = _entries(root, path, result.findings)
    if entries is None:
        return result
    walker = _Walker(path, limits, text)
    for node in entries:
        mark = node.start_mark
        line, column = mark.line + 1, mark.column + 1
        positions: dict[str, tuple[int, int]] = {}
        values = walker.values = {}
        try:
            raw = walker.value(node, "", positions)
        except _Abort as abort:
            result.findings.append(_finding(path, abort.line, abort.column, PARSE_ERROR, str(abort)))
            break
        except RecursionError:
            result.findings.append(_finding(path, line, column, PARSE_ERROR, "YAML nested too deeply to read"))
            break
        if not isinstance(raw, dict):
            result.findings.append(_finding(path, line, column, SCHEMA, "each question must be a mapping"))
            continue
        question = _validated(raw, path, line, column, positions, result.findings)
        if question is not None:
            result.questions.append(LoadedQuestion(question, path, line, column, positions, values))
    result.findings.extend(walker.findings)
    return result


def _validated(raw: dict, path: str, line: int, column: int, positions: dict[str, tuple[int, int]],
               findings: list[Finding]) -> Question | None:
    """The question, with a schema finding for each problem. A question whose only problems are unknown keys (a
    misspelt ``rationnale``) is still checked by every other rule, as if those keys were not there."""
    try:
        return Question.model_validate(raw)
    except ValidationError as exc:
        qid = _question_id(raw)
        probe = LoadedQuestion(None, path, line, column, positions)  # type: ignore[arg-type]
        for where, message in _schema_messages(exc):
            findings.append(_finding(path, *probe.locate(where), SCHEMA, message, qid, where))
        unknown = [e["loc"] for e in exc.errors() if e["type"] == "extra_forbidden"]
        # pydantic also reports a list whose items failed as "too short": that follows from the unknown keys
        others = [e for e in exc.errors() if e["type"] != "extra_forbidden"
                  and not (e["type"] == "too_short" and any(loc[:len(e["loc"])] == e["loc"] for loc in unknown))]
        if others:
            return None
        for loc in unknown:
            _drop(raw, loc)
    try:
        return Question.model_validate(raw)
    except ValidationError:
        return None


def _drop(raw: Any, loc: tuple) -> None:
    """Remove the value at a pydantic error location (a key path) from the raw mapping, if it is there."""
    node = raw
    for part in loc[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return
    if isinstance(node, dict):
        node.pop(loc[-1], None)


def read_limited(handle, size: int, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of an open file whose stat said ``size``: a buffer of the file's own size is
    allocated, not one of the limit (20 MB a file made reading a bank cost twice its hashing), and a file that
    grew since the stat is still read up to one byte past the limit."""
    data = handle.read(min(size, limit) + 1)
    if len(data) > size:
        data += handle.read(limit + 1 - len(data))
    return data


def load_file(path: Path, display: str | None = None, limits: Limits | None = None) -> FileResult:
    """Read, decode and load one file; an unreadable file is a finding too."""
    limits = limits or Limits()
    shown = display or str(path)
    data, size = b"", 0
    try:
        kind = _special_kind(os.stat(path).st_mode)
        if kind is None:
            # O_NONBLOCK: a file swapped for a FIFO after the stat above must not hang the run
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
            with open(fd, "rb") as handle:
                info = os.fstat(handle.fileno())
                kind, size = _special_kind(info.st_mode), info.st_size
                if kind is None and size <= limits.max_file_size:
                    data = read_limited(handle, size, limits.max_file_size)
                    size = max(size, len(data))
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        return FileResult(shown, findings=[_finding(shown, 1, 1, PARSE_ERROR, f"cannot read file: {reason}")])
    if kind is not None:
        return FileResult(shown, findings=[_finding(
            shown, 1, 1, PARSE_ERROR, f"not a regular file ({kind}); a bank file must be a regular file")])
    if size > limits.max_file_size:
        return FileResult(shown, findings=[_finding(
            shown, 1, 1, PARSE_ERROR,
            f"file is {size / 1048576:.1f} MB, over the {limits.max_file_size / 1048576:.0f} MB limit (max-file-size)")])
    text, problems = decode(data, shown)
    if text is None:
        return FileResult(shown, findings=problems)
    result = load_text(text, shown, limits)
    result.findings[:0] = problems
    return result


def _special_kind(mode: int) -> str | None:
    """What a path is when it is not a regular file (reading a FIFO or a device could block or never end)."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


_YAML_SUFFIXES = (".yaml", ".yml")
SKIP_DIRS = frozenset((".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".qlint_cache", ".tox"))


def discover(paths: list[Path], exclude: tuple[str, ...] = ()) -> Iterator[Path]:
    """Bank files under the given paths, in a stable order; a file named explicitly is always taken. A file
    reached twice (named by a relative and an absolute path, its folder named twice, a link or hard link to
    another bank file) is taken once, under the first name met: checked twice, it would clash with itself."""
    seen: set[object] = set()
    for root in paths:
        if root.is_dir():
            for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
                dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
                for name in sorted(filenames):
                    candidate = Path(dirpath) / name
                    if name.endswith(_YAML_SUFFIXES) and not name.startswith(".") and not matches_glob(candidate, exclude):
                        if _first_time(candidate, seen):
                            yield candidate
        elif _first_time(root, seen):
            yield root


def _first_time(path: Path, seen: set[object]) -> bool:
    """True the first time a file is met: files are the same when their device and inode are (whatever the
    spelling or link that leads there); a path that cannot be stat-ed (dangling, a loop), or a file system
    without inode numbers, falls back to the absolute path."""
    try:
        info = os.stat(path)
        identity: object = (info.st_dev, info.st_ino) if info.st_ino else os.path.abspath(path)
    except (OSError, ValueError):
        identity = os.path.abspath(path)
    if identity in seen:
        return False
    seen.add(identity)
    return True


def matches_glob(path: Path, patterns: tuple[str, ...]) -> bool:
    """True when a path matches any glob (``**`` spans folders)."""
    text = path.as_posix()
    return any(path.match(p) or re.fullmatch(_glob_to_regex(p), text) for p in patterns)


def _glob_to_regex(pattern: str) -> str:
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return out
