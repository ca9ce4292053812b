"""What every bank reader shares: the names of the formats, the reading limits, and how a reader turns the
fields it found into validated questions with a source map.

A reader turns one file's bytes into a ``ParsedFile`` exactly as the YAML loader does: questions with the line
and column of each field in the file the author edits, and every problem as a finding (Q101 parse-error for
syntax, Q102 schema for shape, Q109 unsupported-question for question types qlint does not check).
"""
from __future__ import annotations

import dataclasses
import hashlib
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from time import monotonic
from typing import TYPE_CHECKING, Any, Protocol

from qlint.finding import Finding, Severity, finding
from qlint.formats.table import ALIASES, TABLE
from qlint.limits import Limits
from qlint.problems import PARSE_ERROR, SCHEMA, UNSUPPORTED
from qlint.sourcemap import LoadedQuestion, ParsedFile, locate
from qlint.wording import closest, did_you_mean

if TYPE_CHECKING:
    from pydantic import ValidationError

# format name -> the suffixes that settle it, from the format table (the YAML reader reads anything unnamed)
BANK_FORMATS: dict[str, tuple[str, ...]] = {f.name: f.suffixes for f in TABLE}


def format_name(name: str) -> str:
    """The reader a user's format name means; a ValueError names the known ones."""
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in BANK_FORMATS:
        raise ValueError(f"unknown bank format {name!r}; known: {', '.join([*BANK_FORMATS, *ALIASES])}")
    return key


@dataclass(frozen=True)
class ReadLimits(Limits):
    """The loader's limits plus which reader files take: (glob, format) pairs, the first match wins; a run with
    ``--from`` puts ``("**", format)`` first. Zip packages are bounded in entries, bytes and compression ratio.
    ``deadline`` is the clock time (``time.monotonic``) by which a reader must be done with the file."""

    formats: tuple[tuple[str, str], ...] = ()
    max_zip_entries: int = 10_000
    max_zip_ratio: int = 100
    deadline: float = math.inf


class ReadTimeout(Exception):
    """A reader ran past the file's time budget (``rule-time-budget``, reading and rules together)."""


def on_time(limits: Limits) -> None:
    """Raise ReadTimeout once the file's reading is past its deadline; readers call it as they go (per question,
    per package entry), so a slow file ends as a finding instead of stalling the run."""
    if monotonic() > getattr(limits, "deadline", math.inf):
        raise ReadTimeout


class Reader(Protocol):
    """One bank format: ``sniff`` says whether bytes look like it, ``read`` turns them into questions."""

    name: str
    suffixes: tuple[str, ...]

    def sniff(self, data: bytes, path: str) -> bool: ...

    def read(self, data: bytes, path: str, limits: Limits) -> ParsedFile: ...


def unsupported(path: str, counts: dict[str, tuple[int, int, int]]) -> list[Finding]:
    """One info finding per file naming the question types qlint skipped: type -> (count, first line, column)."""
    if not counts:
        return []
    first = min(counts.values(), key=lambda c: (c[1], c[2]))
    parts = ", ".join(f"{n} {kind}" for kind, (n, _, _) in sorted(counts.items()))
    total = sum(n for n, _, _ in counts.values())
    return [finding(path, first[1], first[2], UNSUPPORTED,
                    f"{total} question{'s' if total != 1 else ''} not checked (not multiple choice): {parts}",
                    severity=Severity.INFO)]


def stable_id(*parts: str) -> str:
    """An id derived from a question's own text, so that it survives reordering the file."""
    digest = hashlib.blake2b("\x1f".join(parts).encode("utf-8"), digest_size=4).hexdigest()
    words = re.sub(r"[^a-z0-9]+", "-", parts[0].lower()).strip("-")[:32].strip("-")
    return f"{words}-{digest}" if words else f"q-{digest}"


@dataclass
class Draft:
    """A question as a reader found it: plain fields (``stem``, ``options`` as dicts...) and where each sits."""

    fields: dict[str, Any]
    line: int
    column: int
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    name: str | None = None   # the format's own title or name, the id when unique in the file


def assign_ids(drafts: list[Draft]) -> None:
    """Titles become ids where unique in the file; other questions get an id derived from their stem."""
    counts: dict[str, int] = {}
    for draft in drafts:
        if draft.name and draft.name.strip():
            counts[draft.name.strip()] = counts.get(draft.name.strip(), 0) + 1
    taken: set[str] = set()
    # each derived id's chain (an id taken is hashed again until one is free) resumes after the id it last gave:
    # the ids are those of walking the chain from its start, but n copies of one question cost n steps, not n * n / 2
    resume: dict[str, str] = {}
    for draft in drafts:
        name = (draft.name or "").strip()
        if name and counts[name] == 1:
            qid = name
        else:
            stem = str(draft.fields.get("stem") or "")
            start = stable_id(name or stem, stem)
            qid = resume.get(start, start)
            while qid in taken or counts.get(qid):
                qid = stable_id(qid, stem)
            resume[start] = qid
        taken.add(qid)
        draft.fields.setdefault("id", qid)


def build(drafts: list[Draft], result: ParsedFile, limits: Limits | None = None) -> ParsedFile:
    """Validate drafts into questions (ids assigned first); a draft that does not fit is a schema finding. With
    ``limits``, validation stops at the file's reading deadline (``on_time``)."""
    from pydantic import ValidationError  # as the question model below: only when a file is read

    from qlint.model import Question  # the question model: built only when a file is read, never for a warm check

    assign_ids(drafts)
    for index, draft in enumerate(drafts):
        if index % 64 == 0 and limits is not None:
            on_time(limits)
        try:
            question = Question.model_validate(draft.fields)
        except ValidationError as exc:
            qid = draft.fields.get("id")
            for where, message in schema_messages(exc):
                line, column = locate(draft.positions, where, (draft.line, draft.column))
                result.findings.append(finding(result.path, line, column, SCHEMA, message, qid, where))
            continue
        result.questions.append(LoadedQuestion(question, result.path, draft.line, draft.column, draft.positions))
    return result


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def text_lines(text: str) -> list[str]:
    """A text file's lines as editors, the language server protocol and Moodle's importers count them: broken at
    ``\n``, ``\r\n`` and ``\r`` only (``str.splitlines`` also breaks at form feeds, U+2028 and others, which are
    characters inside a line to every tool that edits the file)."""
    return _LINE_BREAK.split(text)


def parse_error(path: str, line: int, column: int, message: str) -> ParsedFile:
    return ParsedFile(path, findings=[finding(path, line, column, PARSE_ERROR, message)])


def decode_text(data: bytes, path: str) -> tuple[str | None, list[Finding]]:
    """Bytes -> text for the text formats, with the YAML loader's rules (UTF-8, BOMs flagged, no NUL bytes)."""
    text, problems = decode(data, path)
    problems = [dataclasses.replace(p, message=p.message.replace("YAML bank file", "bank file")) for p in problems]
    return text, problems


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
                return None, [finding(path, 1, 1, PARSE_ERROR,
                                       f"file starts with a {name} byte-order mark but is not valid {name}")]
            return text, [finding(path, 1, 1, PARSE_ERROR,
                                   f"file is encoded as {codec.upper()}; bank files must be UTF-8 (it was read anyway)")]
    if b"\x00" in data[:8192]:
        return None, [finding(path, 1, 1, PARSE_ERROR, "binary file (contains NUL bytes), not a YAML bank file")]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [finding(path, line, column, PARSE_ERROR,
                               f"invalid UTF-8 byte 0x{data[exc.start]:02x}; bank files must be UTF-8")]


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


def schema_messages(exc: ValidationError) -> Iterator[tuple[str, str]]:
    from qlint.model import OPTION_FIELDS, QUESTION_FIELDS  # as in build, the only caller

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
            elsewhere = closest(key, other, cutoff=0.75)
            if closest(key, allowed) is None and elsewhere is not None and not parent.startswith("qlint"):
                level = "each option" if other is OPTION_FIELDS else "the question, not an option"
                yield where, f"unknown key {key!r} {owner}; did you mean {elsewhere!r}? It belongs to {level}"
            else:
                yield where, f"unknown key {key!r} {owner}{did_you_mean(key, allowed)}"
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
