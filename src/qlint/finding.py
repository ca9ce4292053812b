"""The one currency every stage trades in: a located finding, never changed once made."""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from functools import lru_cache
from json.encoder import encode_basestring as _quote  # json.dumps(..., ensure_ascii=False) quotes strings with it
from operator import attrgetter
from typing import Any


class Severity(enum.IntEnum):
    """How bad a finding is; ordered so that ``>=`` compares badness."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, value: str | Severity) -> Severity:
        if isinstance(value, Severity):
            return value
        try:
            return cls[str(value).strip().upper()]
        except KeyError:
            from qlint.wording import closest  # difflib and pydantic: only for the message of a misspelt severity

            close = closest(str(value).strip().lower(), ["error", "warning", "info"])
            hint = f"did you mean {close!r}? (error, warning or info)" if close else "use error, warning or info"
            raise ValueError(f"unknown severity {value!r}; {hint}") from None


@dataclass(slots=True, unsafe_hash=True)
class Finding:
    """A problem at a place: ``path:line:column``, the rule that saw it, and why.

    ``end_line``/``end_column`` close the range the finding covers (the offending words), one past its last
    character as SARIF and LSP count; None when only the start is known.

    Treated as immutable (hashed, shared between reports) but not ``frozen=True``: a frozen dataclass builds
    six times slower, and a warm run of a big bank builds every cached finding again.
    """

    path: str
    line: int
    column: int
    code: str
    rule: str
    severity: Severity
    message: str
    question: str | None = None
    field: str | None = None
    fix: Any = dataclasses.field(default=None, compare=False, repr=False)  # a qlint.edits.Fix the rule proposes
    end_line: int | None = None
    end_column: int | None = None

    # the order findings are reported in: (path, line, column, code, message), extracted in C
    sort_key = staticmethod(attrgetter("path", "line", "column", "code", "message"))


    def to_json(self) -> str:
        """``json.dumps(self.to_dict(), ensure_ascii=False)``, byte for byte, at a fraction of the cost (a report of a
        million findings spent most of its time in the encoder's per-call set-up)."""
        question = "null" if self.question is None else _quote(self.question)
        head = _head(self.rule, self.code, self.severity, self.path)
        end = ('"end_line": null, "end_column": null' if self.end_line is None else
               f'"end_line": {int(self.end_line)}, "end_column": {int(self.end_column)}')  # type: ignore[arg-type]
        return (f'{head}{int(self.line)}, "column": {int(self.column)}, {end}, "question": {question}, '
                f'"message": {_quote(self.message)}}}')

    def to_dict(self) -> dict:
        return {
            "rule": self.rule,
            "code": self.code,
            "severity": str(self.severity),
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column if self.end_line is not None else None,
            "question": self.question,
            "message": self.message,
        }


_NAMES = {s: str(s) for s in Severity}


@lru_cache(maxsize=65536)   # a report repeats each rule and path thousands of times: quote them once
def _head(rule: str, code: str, severity: Severity, path: str) -> str:
    """The quoted start of a finding's JSON, up to its line."""
    return (f'{{"rule": {_quote(rule)}, "code": {_quote(code)}, "severity": "{_NAMES[severity]}", '
            f'"path": {_quote(path)}, "line": ')


def finding(path: str, line: int, column: int, kind: tuple[str, str], message: str, question: str | None = None,
            field: str | None = None, severity: Severity = Severity.ERROR, *, fix: Any = None,
            end_line: int | None = None, end_column: int | None = None) -> Finding:
    """qlint's one way to make a finding: where (line and column, 1 at least), which rule (``kind``: its code and
    name, as ``qlint.problems`` names the run's own, or ``(rule.code, rule.name)``), why, and optionally the
    question, the field, the severity (an error unless told), the fix and the end of the range. Only the cache and
    the workers' wire, which rebuild stored or sent findings by the thousand, call ``Finding`` itself."""
    code, name = kind
    return Finding(path, max(1, line), max(1, column), code, name, severity, message, question, field, fix,
                   end_line, end_column)
