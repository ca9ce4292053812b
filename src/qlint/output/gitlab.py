"""GitLab Code Quality: a JSON array of ``{description, check_name, fingerprint, severity, location}``.

GitLab keys each issue on ``fingerprint`` (equal fingerprints collapse into one), so they
are unique within a report and stable when lines move: the same identity SARIF uses.
"""
from __future__ import annotations

import json
from typing import TextIO

from qlint.finding import Finding, Severity
from qlint.output.base import JsonSafeStream, Report, fingerprints, relative_path

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def build(report: Report) -> list[dict]:
    return [
        {
            "description": f"{f.code} {f.rule}: {f.message}",
            "check_name": f"{f.code} {f.rule}",
            "fingerprint": print_,
            "severity": SEVERITIES[f.severity],
            "location": _location(f, report.root),
        }
        for f, print_ in zip(report.findings, fingerprints(report.findings))
    ]


def _location(f: Finding, root: str) -> dict:
    """``lines.begin`` (what GitLab shows); ``positions`` with columns and the end as well, when the end is known."""
    location: dict = {"path": relative_path(f.path, root), "lines": {"begin": max(f.line, 1)}}
    if f.end_line is not None and f.end_column is not None:
        location["positions"] = {"begin": {"line": max(f.line, 1), "column": max(f.column, 1)},
                                 "end": {"line": max(f.end_line, f.line, 1), "column": max(f.end_column, 1)}}
    return location


def render(report: Report, stream: TextIO, options: dict) -> None:
    json.dump(build(report), JsonSafeStream(stream), indent=2, ensure_ascii=False)
    stream.write("\n")
