"""Human output: ``path:line:col: CODE name: message``; snippet and colour only on a terminal.

Snippets come from ``Report.sources``, the lines the run read under its limits: this module opens no file.
"""
from __future__ import annotations

import os
from collections import Counter
from typing import TextIO

from qlint.finding import Severity
from qlint.reporters import Report, escape_text

SNIPPET_WIDTH = 160  # characters of a source line shown (the run keeps a few more: a cut line ends in ...)

_COLOURS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def use_colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def _snippet(text: str, line: int, column: int, end: int | None = None) -> str:
    """The source line with carets under the finding: from its column to ``end`` (one past its last character, on
    this line), or one caret."""
    text = text.rstrip()
    if len(text) > SNIPPET_WIDTH:
        text = text[:SNIPPET_WIDTH - 3] + "..."
    start = min(max(column, 1), SNIPPET_WIDTH)
    stop = min(max(end or 0, start + 1), max(len(text) + 1, start + 1), SNIPPET_WIDTH + 1)
    caret = " " * (start - 1) + "^" * (stop - start)
    width = len(str(line))
    return f"{' ' * width} |\n{line} | {escape_text(text)}\n{' ' * width} | {caret}"


def render(report: Report, stream: TextIO, options: dict) -> None:
    colour = options.get("colour", use_colour(stream))
    show_source = options.get("show_source", colour)
    quiet = options.get("quiet", False)
    sources = report.sources if show_source else {}
    for f in report.findings:
        where = f"{escape_text(f.path)}:{f.line}:{f.column}:"
        label = f"{f.code} {f.rule}:"
        if colour:
            where = f"{_BOLD}{where}{_RESET}"
            label = f"{_COLOURS[f.severity]}{f.code}{_RESET} {f.rule}:"
        stream.write(f"{where} {label} {escape_text(f.message)}\n")
        source = sources.get((f.path, f.line))
        if source is not None:
            # a range that goes on past this line is marked to the line's end
            end = f.end_column if f.end_line == f.line else (len(source.rstrip()) + 1 if f.end_line else None)
            snippet = _snippet(source, f.line, f.column, end)
            stream.write((f"{_DIM}{snippet}{_RESET}" if colour else snippet) + "\n")
    if options.get("statistics"):
        counts = Counter((f.code, f.rule) for f in report.findings)
        for (code, rule), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            stream.write(f"{n:6d}  {code}  {rule}\n")
    if quiet:
        return
    s = report.summary()
    if report.findings:
        stream.write(f"Found {s['findings']} problem{'s' if s['findings'] != 1 else ''} "
                     f"({s['error']} error, {s['warning']} warning, {s['info']} info) "
                     f"in {s['questions']} questions, {s['files']} files.\n")
    else:
        stream.write(f"All clear: {s['questions']} questions in {s['files']} files.\n")
