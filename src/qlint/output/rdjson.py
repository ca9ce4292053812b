"""reviewdog's Diagnostic Format (rdjson), ruff's ``rdjson``: one JSON object with every finding as a diagnostic,
for ``reviewdog -f=rdjson`` to comment on a pull request."""
from __future__ import annotations

import json
from typing import TextIO

from qlint.finding import Finding, Severity
from qlint.output.base import JsonSafeStream, Report, relative_path

SEVERITIES = {Severity.ERROR: "ERROR", Severity.WARNING: "WARNING", Severity.INFO: "INFO"}


def _diagnostic(f: Finding, root: str) -> dict:
    start = {"line": max(f.line, 1), "column": max(f.column, 1)}
    location: dict = {"path": relative_path(f.path, root), "range": {"start": start}}
    if f.end_line is not None and f.end_column is not None:
        location["range"]["end"] = {"line": max(f.end_line, start["line"]), "column": max(f.end_column, 1)}
    return {"message": f.message, "location": location, "severity": SEVERITIES[f.severity],
            "code": {"value": f"{f.code} {f.rule}"}}


def render(report: Report, stream: TextIO, options: dict) -> None:
    document = {"source": {"name": "qlint"}, "severity": "WARNING",
                "diagnostics": [_diagnostic(f, report.root) for f in report.findings]}
    json.dump(document, JsonSafeStream(stream), indent=2, ensure_ascii=False)
    stream.write("\n")
