"""Findings grouped under their file, as ruff's ``grouped`` and yamllint's ``standard`` print them::

    bank/b.yaml:
      3:1  error    Q104 correct-count: 2 options are marked correct ...

The line and column, the severity and the code line up in columns; a blank line ends each file.
"""
from __future__ import annotations

from itertools import groupby
from typing import TextIO

from qlint.output.base import Report, escape_text
from qlint.output.text import COLOURS, summary, use_colour

_BOLD, _RESET = "\033[1m", "\033[0m"


def render(report: Report, stream: TextIO, options: dict) -> None:
    colour = options.get("colour", use_colour(stream))
    for path, group in groupby(report.findings, key=lambda f: f.path):
        findings = list(group)
        name = f"{escape_text(path)}:"
        stream.write((f"{_BOLD}{name}{_RESET}" if colour else name) + "\n")
        width = max(len(f"{f.line}:{f.column}") for f in findings)
        for f in findings:
            severity = f"{str(f.severity):<7}"
            if colour:
                severity = f"{COLOURS[f.severity]}{severity}{_RESET}"
            marker = " [*]" if f.fix is not None else ""
            stream.write(f"  {f'{f.line}:{f.column}':<{width}}  {severity}  {f.code}{marker} {f.rule}: "
                         f"{escape_text(f.message)}\n")
        stream.write("\n")
    if not options.get("quiet", False):
        summary(report, stream, options.get("fix_hint", True))
