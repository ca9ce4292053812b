"""Output formats. Each reporter renders a finished Report to a text stream; none decides exit codes."""
from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TextIO

from qlint.finding import Finding, Severity
from qlint.rule import Rule


@dataclass(frozen=True)
class Report:
    """Everything a reporter may show: the findings, how many files and questions, and the rules that ran."""

    findings: list[Finding]
    files: int
    questions: int
    rules: list[Rule] = field(default_factory=list)
    root: str = "."

    def summary(self) -> dict:
        counts = Counter(f.severity for f in self.findings)
        by_severity = {str(s): counts.get(s, 0) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)}
        return {"files": self.files, "questions": self.questions, "findings": len(self.findings), **by_severity}


Renderer = Callable[[Report, TextIO, dict], None]


def renderers() -> dict[str, Renderer]:
    from qlint.reporters import github, gitlab, json_format, junit, sarif, text

    return {"text": text.render, "json": json_format.render, "json-lines": json_format.render_lines,
            "sarif": sarif.render, "github": github.render, "gitlab": gitlab.render, "junit": junit.render}


FORMATS = ("text", "json", "json-lines", "sarif", "github", "gitlab", "junit")


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
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


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
