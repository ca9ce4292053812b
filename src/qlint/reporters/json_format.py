"""JSON: ``{"version": 1, "summary": {...}, "findings": [...]}``, a contract; and one finding per line."""
from __future__ import annotations

import json
from typing import TextIO

from qlint.reporters import Report


def render(report: Report, stream: TextIO, options: dict) -> None:
    doc = {"version": 1, "summary": report.summary(), "findings": [f.to_dict() for f in report.findings]}
    json.dump(doc, stream, indent=2, ensure_ascii=False)
    stream.write("\n")


def render_lines(report: Report, stream: TextIO, options: dict) -> None:
    for finding in report.findings:
        stream.write(json.dumps(finding.to_dict(), ensure_ascii=False) + "\n")
