"""JSON: ``{"version": 1, "summary": {...}, "findings": [...]}``, a contract; and one finding per line."""
from __future__ import annotations

import json
from typing import TextIO

from qlint.reporters import Report


def render(report: Report, stream: TextIO, options: dict) -> None:
    # One finding per line: readable, diffable, and written by json's C encoder (indent= is pure Python).
    stream.write('{\n  "version": 1,\n  "summary": ' + json.dumps(report.summary()) + ',\n  "findings": [')
    for index, finding in enumerate(report.findings):
        stream.write(("," if index else "") + "\n    " + json.dumps(finding.to_dict(), ensure_ascii=False))
    stream.write("\n  ]\n}\n" if report.findings else "]\n}\n")


def render_lines(report: Report, stream: TextIO, options: dict) -> None:
    for finding in report.findings:
        stream.write(json.dumps(finding.to_dict(), ensure_ascii=False) + "\n")
