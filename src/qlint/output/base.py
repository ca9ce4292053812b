"""What every output format shares: the Report a reporter renders, safe text for each medium, stable fingerprints."""
from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter
from pathlib import Path, PurePosixPath
from typing import TextIO

from qlint.finding import Finding, Severity
from qlint.rule import Rule


_SEVERITY_OF = attrgetter("severity")


@dataclass(frozen=True)
class Report:
    """Everything a reporter may show: the findings, how many files and questions, the rules that ran, and the
    source lines the findings point at, ``(path, line) -> text``, read by the run under its size limits (a
    reporter never opens a file: one named in a finding may be a pipe, a device or a link to a secret)."""

    findings: list[Finding]
    files: int
    questions: int
    rules: list[Rule] = field(default_factory=list)
    root: str = "."
    sources: Mapping[tuple[str, int], str] = field(default_factory=dict)

    def summary(self) -> dict:
        counts = Counter(map(_SEVERITY_OF, self.findings))
        by_severity = {str(s): counts.get(s, 0) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)}
        return {"files": self.files, "questions": self.questions, "findings": len(self.findings), **by_severity}


# text: snippets on a terminal; concise and full (ruff's names): never and always; grouped, pylint, azure, rdjson:
# ruff's formats of those names; parsable, standard, colored: yamllint's
FORMATS = ("text", "concise", "full", "grouped", "json", "json-lines", "sarif", "github", "gitlab", "junit", "pylint",
           "azure", "rdjson", "parsable", "standard", "colored")


# Names and texts that no output can carry as they are: a file name is bytes, not text (a byte that is not UTF-8
# comes in as a lone surrogate, which no UTF-8 stream can write), and a newline or an escape sequence in a
# name would start a forged line in a log or drive the terminal.

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(match: re.Match) -> str:
    char = match.group()
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if 0xDC80 <= code <= 0xDCFF:  # a byte os.fsdecode could not decode: shown as that byte
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_text(text: str) -> str:
    """Text for a line of output: control characters and undecodable bytes as backslash escapes (``\\n``,
    ``\\x1b``, ``\\xff`` for a file name's byte that is not UTF-8), everything else as it is."""
    return _UNSAFE.sub(_escape_char, text) if _UNSAFE.search(text) else text


def escape_undecodable(text: str) -> str:
    """``escape_text`` for lone surrogates only (a file name's byte that is not UTF-8 becomes ``\\xff``)."""
    return _SURROGATE.sub(_escape_char, text) if _SURROGATE.search(text) else text


def json_safe(text: str) -> str:
    """JSON text whose strings may hold lone surrogates, made writable as UTF-8: each becomes the JSON escape
    ``\\udcff``, which a JSON reader turns back into the same string (and ``os.fsencode`` into the name's bytes)."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if _SURROGATE.search(text) else text


_TEXTS = attrgetter("rule", "code", "path", "message")


def json_safe_findings(findings: Sequence[Finding]) -> bool:
    """Whether the JSON of these findings (``Finding.to_json``) is already ``json_safe``: no lone surrogate in any
    text it carries. Their texts repeat (a bank's thousands of "option 2 has no rationale"), so each distinct one is
    looked at once, not every finding's JSON scanned again."""
    texts = set(chain.from_iterable(map(_TEXTS, findings)))
    texts.update(f.question for f in findings if f.question is not None)
    return not _SURROGATE.search("".join(texts))


class JsonSafeStream:
    """A text stream that passes everything written to it through ``json_safe`` (for ``json.dump``, which writes
    one token at a time, so a string is never split)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(json_safe(text))


# Shared by the CI formats (sarif, gitlab): where a finding is, and who it is across runs.

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_SPACE = re.compile(r"\s+")


def relative_path(path: str, root: str = ".") -> str:
    """``path`` with forward slashes and relative to ``root`` when it lies inside it; else as given."""
    posix = path.replace(os.sep, "/") if os.sep != "/" else path
    if os.path.isabs(path):
        try:
            rel = os.path.relpath(Path(path).resolve(), Path(root).resolve())
        except ValueError:  # another drive on Windows
            return posix
        if rel == ".." or rel.startswith(".." + os.sep):
            return posix
        posix = Path(rel).as_posix()
    while posix.startswith("./"):
        posix = posix[2:]
    return posix


def fingerprint(finding: Finding) -> str:
    """A stable identity for a finding: rule, question id, path, field and message with numbers blanked.

    Line and column are left out on purpose, so a finding keeps its identity when lines move
    (a question added above it, a reflowed stem). Numbers in the message are blanked because
    they drift for the same problem ("grade 13.2" -> "grade 13.4", "also used at x.yaml:40").
    """
    message = _SPACE.sub(" ", _NUMBER.sub("#", finding.message)).strip()
    path = str(PurePosixPath(relative_path(finding.path)))
    parts = (finding.code, finding.question or "", path, finding.field or "", message)
    # surrogatepass: a name's undecodable byte (a lone surrogate) must not stop the report
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def fingerprints(findings: Iterable[Finding]) -> list[str]:
    """``fingerprint`` of each finding, made unique: a repeat gets its occurrence number folded in.

    Two findings that differ only in numbers (or only in line) would otherwise share an identity,
    and GitLab collapses findings with equal fingerprints. The first occurrence (in report order)
    keeps the plain fingerprint.
    """
    seen: dict[str, int] = {}
    out: list[str] = []
    for finding in findings:
        base = fingerprint(finding)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.append(base if n == 0 else hashlib.sha256(f"{base}:{n}".encode()).hexdigest())
    return out
