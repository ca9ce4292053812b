"""Output formats. Each reporter renders a finished Report to a text stream; none decides exit codes."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from qlint.finding import Finding
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
        by_severity = {"error": 0, "warning": 0, "info": 0}
        for f in self.findings:
            by_severity[str(f.severity)] += 1
        return {"files": self.files, "questions": self.questions, "findings": len(self.findings), **by_severity}


Renderer = Callable[[Report, TextIO, dict], None]


def renderers() -> dict[str, Renderer]:
    from qlint.reporters import json_format, text

    return {"text": text.render, "json": json_format.render, "json-lines": json_format.render_lines}


FORMATS = ("text", "json", "json-lines")
