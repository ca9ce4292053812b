"""JSON: ``{"version": 1, "summary": {...}, "findings": [...]}``, a contract; and one finding per line."""
from __future__ import annotations

import json
from typing import TextIO

from qlint.output.base import Report, json_safe, json_safe_findings


def render(report: Report, stream: TextIO, options: dict) -> None:
    # One finding per line: readable, diffable, and written by json's C encoder (indent= is pure Python).
    stream.write('{\n  "version": 1,\n  "summary": ' + json.dumps(report.summary()) + ',\n  "findings": [')
    for start in range(0, len(report.findings), 10000):   # in slices: a million findings never make one string
        chunk = report.findings[start:start + 10000]
        text = ("," if start else "") + "\n    " + ",\n    ".join([f.to_json() for f in chunk])
        stream.write(text if json_safe_findings(chunk) else json_safe(text))
    stream.write("\n  ]\n}\n" if report.findings else "]\n}\n")


def render_lines(report: Report, stream: TextIO, options: dict) -> None:
    for finding in report.findings:
        stream.write(json_safe(finding.to_json()) + "\n")
