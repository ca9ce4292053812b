"""Human output: ``path:line:col: CODE name: message``; snippet and colour only on a terminal."""
from __future__ import annotations

import os
from collections import Counter
from typing import TextIO

from qlint.finding import Severity
from qlint.reporters import Report

_COLOURS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def use_colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def _snippet(path: str, line: int, column: int, cache: dict) -> str | None:
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                cache[path] = handle.read().splitlines()
        except OSError:
            cache[path] = None
    lines = cache[path]
    if not lines or not 1 <= line <= len(lines):
        return None
    text = lines[line - 1].rstrip()
    if len(text) > 160:
        text = text[:157] + "..."
    caret = " " * (max(column, 1) - 1) + "^"
    width = len(str(line))
    return f"{' ' * width} |\n{line} | {text}\n{' ' * width} | {caret}"


def render(report: Report, stream: TextIO, options: dict) -> None:
    colour = options.get("colour", use_colour(stream))
    show_source = options.get("show_source", colour)
    quiet = options.get("quiet", False)
    cache: dict = {}
    for f in report.findings:
        where = f"{f.path}:{f.line}:{f.column}:"
        label = f"{f.code} {f.rule}:"
        if colour:
            where = f"{_BOLD}{where}{_RESET}"
            label = f"{_COLOURS[f.severity]}{f.code}{_RESET} {f.rule}:"
        stream.write(f"{where} {label} {f.message}\n")
        if show_source:
            snippet = _snippet(f.path, f.line, f.column, cache)
            if snippet:
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
