"""One line a finding in the shapes pylint's and yamllint's parsers read: ruff's ``pylint`` format,
``path:line: [CODE] rule: message``, and yamllint's ``parsable``, ``path:line:col: [severity] message (rule)``."""
from __future__ import annotations

from typing import TextIO

from qlint.output.base import Report, escape_text


def render(report: Report, stream: TextIO, options: dict) -> None:
    for f in report.findings:
        stream.write(f"{escape_text(f.path)}:{f.line}: [{f.code}] {f.rule}: {escape_text(f.message)}\n")


def render_parsable(report: Report, stream: TextIO, options: dict) -> None:
    for f in report.findings:
        stream.write(f"{escape_text(f.path)}:{f.line}:{f.column}: [{f.severity}] {escape_text(f.message)} "
                     f"({f.code} {f.rule})\n")
