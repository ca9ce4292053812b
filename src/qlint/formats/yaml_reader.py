"""qlint's own YAML bank format: bank files -> validated questions with a source map.

The checking path composes YAML with libyaml (PyYAML's C loader when present) and
never constructs objects: nodes become plain strings, lists and dicts, every key's
line and column is kept, and pydantic validates the result. Every problem -- bad
bytes, bad YAML, bad shape -- comes out as a Finding, never as an exception.
"""
from __future__ import annotations

import bisect
from typing import Any

import yaml
from pydantic import ValidationError

from qlint.finding import Finding, finding
from qlint.formats.base import decode, on_time, schema_messages
from qlint.limits import Limits
from qlint.model import QUESTION_FIELDS, Plain, Question
from qlint.problems import PARSE_ERROR, SCHEMA
from qlint.sourcemap import (
    COLUMN_BITS,
    FAST_COLUMNS,
    LoadedQuestion,
    ParsedFile,
    RejectedQuestion,
    ValueMap,
    find_suppressions,
)
from qlint.wording import closest, did_you_mean
from qlint.formats.table import BY_NAME

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

_STANDARD_TAGS = frozenset(
    "tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")
)
_QUOTES = frozenset("'\"")
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_FILE_KEYS = ("questions",)


class _Abort(Exception):
    """Stops a walk over a hostile document; carries the finding to report."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line, self.column = line, column


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
    return finding(path, line, column, PARSE_ERROR, message)


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
        if start.line == end.line and start.column < FAST_COLUMNS and (not style or (
                style in _QUOTES and end.index - start.index == len(node.value) + 2)):
            # a one-line value, plain or quoted without escapes (every escape is longer than the character it
            # makes): most of a bank, so ValueMap.pack(line, column, STRAIGHT) inline
            self.values[where] = (start.line + 1 << COLUMN_BITS | start.column + (2 if style else 1)) << 2
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
            self.findings.append(finding(
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
                self.findings.append(finding(self.path, kmark.line + 1, kmark.column + 1, SCHEMA,
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
    return finding(path, mark.line + 1, mark.column + 1, SCHEMA,
                    f"duplicate key {key_node.value!r} (first at line {first_node.start_mark.line + 1}); "
                    "the last value is used, as YAML loaders read it; remove the others")


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
                findings.append(finding(path, m.line + 1, m.column + 1, SCHEMA,
                                         f"unknown top-level key {key!r}{did_you_mean(key, _FILE_KEYS)}"))
            elif first[key] != index:
                findings.append(_duplicate(path, key_node, root.value[first[key]][0]))
        questions_node = root.value[last["questions"]][1]
        m = questions_node.start_mark
        if not isinstance(questions_node, yaml.SequenceNode):
            findings.append(finding(path, m.line + 1, m.column + 1, SCHEMA, "'questions' must be a list of questions"))
            return None
        if not questions_node.value:
            findings.append(finding(path, m.line + 1, m.column + 1, SCHEMA, "'questions' is empty"))
        return questions_node.value
    if isinstance(root, yaml.MappingNode):
        slip = _misspelt_questions(root)
        if slip is not None:   # `question:` over a list: one finding that names the key, not three missing fields
            m = slip.start_mark
            findings.append(finding(path, m.line + 1, m.column + 1, SCHEMA,
                                     f"unknown key {slip.value!r} in the file's top level; did you mean 'questions'?"))
            return None
        return [root]
    m = root.start_mark
    kind = "a list" if isinstance(root, yaml.SequenceNode) else "a single value"
    findings.append(finding(path, m.line + 1, m.column + 1, SCHEMA,
                             f"file holds {kind}; a bank file holds one question (a mapping) "
                             "or a mapping with a 'questions:' list"))
    return None


class _TextAt:
    """Where a file's scalars are written, so that a ``#`` inside a stem, a quoted rationale or a ``|`` block is
    bank text and never a suppression comment (only a YAML comment is one). Spans run from a scalar's start (a
    block's first content line: its header line may carry a comment) to its end, in the file's lines and columns;
    past ``limit`` (where a broken file stopped being read) everything counts as text."""

    def __init__(self, spans: list[tuple[tuple[int, int], tuple[int, int]]], limit: tuple[int, int] | None = None):
        spans.sort()
        self.starts = [start for start, _ in spans]
        self.ends = [end for _, end in spans]
        self.limit = limit

    def __call__(self, line: int, column: int) -> bool:
        at = (line - 1, column - 1)
        if self.limit is not None and at >= self.limit:
            return True
        index = bisect.bisect_right(self.starts, at) - 1
        return index >= 0 and at < self.ends[index]

    @staticmethod
    def _span(start, end, style) -> tuple[tuple[int, int], tuple[int, int]]:
        begin = (start.line + 1, 0) if style in ("|", ">") else (start.line, start.column)
        return begin, (end.line, end.column)

    @classmethod
    def composed(cls, root: yaml.Node | None) -> _TextAt:
        """The spans of every scalar of a composed document (each node once, however many aliases lead to it)."""
        spans, stack, seen = [], [root] if root is not None else [], set()   # None: a file of only comments
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            if type(node) is yaml.ScalarNode:
                spans.append(cls._span(node.start_mark, node.end_mark, node.style))
            elif type(node) is yaml.SequenceNode:
                stack.extend(node.value)
            else:
                stack.extend(child for pair in node.value for child in pair)
        return cls(spans)

    @classmethod
    def scanned(cls, text: str) -> _TextAt:
        """The spans of a file that does not compose: its scalar tokens as far as the scanner reads."""
        spans, limit = [], None
        try:
            for token in yaml.scan(text, Loader=_YamlLoader):
                if isinstance(token, yaml.ScalarToken):
                    spans.append(cls._span(token.start_mark, token.end_mark, token.style))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            limit = (mark.line, mark.column) if mark is not None else (0, 0)
        except RecursionError:
            limit = (0, 0)
        return cls(spans, limit)


def _misspelt_questions(root: yaml.MappingNode) -> yaml.ScalarNode | None:
    """The key of a file that is plainly a ``questions:`` list under a misspelt key (``question:``, ``Questions:``):
    a mapping of no question field whose one close match to ``questions`` holds a list."""
    keys = [(k, v) for k, v in root.value if isinstance(k, yaml.ScalarNode)]
    if any(k.value in QUESTION_FIELDS for k, _ in keys):
        return None
    close = [k for k, v in keys if isinstance(v, yaml.SequenceNode)
             and closest(k.value.lower(), _FILE_KEYS, cutoff=0.8) is not None]
    return close[0] if len(close) == 1 else None


def load_text(text: str, path: str, limits: Limits | None = None) -> ParsedFile:
    """Parse and validate one bank file's text."""
    limits = limits or Limits()
    result = ParsedFile(path=path)
    try:
        root = yaml.compose(text, Loader=_YamlLoader)
    except yaml.YAMLError as exc:
        result.findings.append(_yaml_error(exc, path, text))
        result.suppressions = find_suppressions(text, _TextAt.scanned(text)) if "qlint:" in text else []
        return result
    except RecursionError:
        result.findings.append(finding(path, 1, 1, PARSE_ERROR, "YAML nested too deeply to read"))
        return result
    if "qlint:" in text:
        result.suppressions = find_suppressions(text, _TextAt.composed(root))
    if root is None or (isinstance(root, yaml.ScalarNode) and not root.style and root.value == ""
                        and root.tag in _STANDARD_TAGS):  # "---" alone, or "---\n..."
        result.findings.append(finding(path, 1, 1, SCHEMA, "file holds no questions (it is empty or only comments)"))
        return result

    entries = _entries(root, path, result.findings)
    if entries is None:
        return result
    walker = _Walker(path, limits, text)
    for count, node in enumerate(entries):
        if count % 64 == 0:
            on_time(limits)   # reading counts against the file's time budget
        mark = node.start_mark
        line, column = mark.line + 1, mark.column + 1
        positions: dict[str, tuple[int, int]] = {}
        values = walker.values = {}
        try:
            raw = walker.value(node, "", positions)
        except _Abort as abort:
            result.findings.append(finding(path, abort.line, abort.column, PARSE_ERROR, str(abort)))
            break
        except RecursionError:
            result.findings.append(finding(path, line, column, PARSE_ERROR, "YAML nested too deeply to read"))
            break
        if not isinstance(raw, dict):
            result.findings.append(finding(path, line, column, SCHEMA, "each question must be a mapping"))
            continue
        question = _validated(raw, path, line, column, positions, result.findings)
        if question is not None:
            result.questions.append(LoadedQuestion(question, path, line, column, positions, values))
        elif (qid := _question_id(raw)) is not None:
            where = LoadedQuestion(None, path, line, column, positions).locate("id")  # type: ignore[arg-type]
            result.rejected.append(RejectedQuestion(qid, line, column, *where))
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
        for where, message in schema_messages(exc):
            findings.append(finding(path, *probe.locate(where), SCHEMA, message, qid, where))
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


class YamlReader:
    name = "yaml"
    suffixes = BY_NAME["yaml"].suffixes + BY_NAME["yaml"].shared   # the format table's row

    def sniff(self, data: bytes, path: str) -> bool:
        return path.lower().endswith(self.suffixes)

    def read(self, data: bytes, path: str, limits: Limits) -> ParsedFile:
        text, problems = decode(data, path)
        result = load_text(text, path, limits) if text is not None else ParsedFile(path)
        result.findings[:0] = problems
        return result


READER = YamlReader()
