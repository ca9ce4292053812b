"""Human output: ``path:line:col: severity: CODE name: message``; snippets on a terminal, colour there unless NO_COLOR.

Snippets come from ``Report.sources``, the lines the run read under its limits: this module opens no file.
"""
from __future__ import annotations

import os
from collections import Counter
from typing import TextIO

from qlint.finding import Severity
from qlint.output.base import Report, escape_text
from qlint.wording import plural

SNIPPET_WIDTH = 160  # characters of a source line shown (the run keeps a few more: a cut line ends in ...)

COLOURS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def _terminal(stream: TextIO) -> bool:
    return hasattr(stream, "isatty") and stream.isatty()


def use_colour(stream: TextIO, choice: str = "auto") -> bool:
    """``--color``: always, never, or auto: never with NO_COLOR set, always with FORCE_COLOR, else on a terminal.
    The option is the user's word for this run and so comes before either variable (as no-color.org asks)."""
    if choice in ("always", "never"):
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return _terminal(stream)


def use_snippets(stream: TextIO, colour: str = "auto") -> bool:
    """Source snippets where the output is read as a terminal is: a terminal, or a pager that was sent colour on
    purpose (``--color always``, FORCE_COLOR). NO_COLOR takes the colour away, never the snippets."""
    return colour == "always" or bool(os.environ.get("FORCE_COLOR")) or _terminal(stream)


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
    if options.get("statistics"):   # as ruff: the table alone, no findings list and no summary
        _statistics(report, stream)
        return
    colour = options.get("colour", use_colour(stream))
    show_source = options.get("show_source", use_snippets(stream))
    sources = report.sources if show_source else {}
    for f in report.findings:
        where = f"{escape_text(f.path)}:{f.line}:{f.column}:"
        # the severity in words, where compilers put it (`error:`): a log without colour still shows what fails
        severity = f"{f.severity}:"
        if colour:
            where = f"{_BOLD}{where}{_RESET}"
            severity = f"{COLOURS[f.severity]}{severity}{_RESET}"
        marker = " [*]" if f.fix is not None else ""   # ruff's mark of a finding that --fix repairs
        stream.write(f"{where} {severity} {f.code}{marker} {f.rule}: {escape_text(f.message)}\n")
        source = sources.get((f.path, f.line))
        if source is not None:
            # a range that goes on past this line is marked to the line's end
            end = f.end_column if f.end_line == f.line else (len(source.rstrip()) + 1 if f.end_line else None)
            snippet = _snippet(source, f.line, f.column, end)
            stream.write((f"{_DIM}{snippet}{_RESET}" if colour else snippet) + "\n")
    if options.get("fixes") is not None:
        _fixes(options["fixes"], stream)
    if not options.get("quiet", False):
        summary(report, stream, options.get("fix_hint", True))


def _fixes(fixes: dict, stream: TextIO) -> None:
    """--show-fixes, as ruff lists them: each file, and how many fixes of each rule it got (or would get)."""
    files = {path: counts for path, counts in sorted(fixes["files"].items()) if counts}
    total = sum(sum(counts.values()) for counts in files.values())
    if not total:
        stream.write("No problems fixed.\n" if fixes["done"] else "No problems fixable with `--fix`.\n")
        return
    head = f"Fixed {plural(total, 'problem')}" if fixes["done"] else f"{plural(total, 'problem')} fixable with `--fix`"
    stream.write(f"{head}:\n")
    for path, counts in files.items():
        stream.write(f"- {escape_text(path)}:\n")
        for (code, rule), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            stream.write(f"    {n} × {code} ({rule})\n")


def _statistics(report: Report, stream: TextIO) -> None:
    """Findings per rule, most frequent first; ``[*]`` marks the rules whose findings here are all fixable."""
    counts = Counter((f.code, f.rule) for f in report.findings)
    fixable = Counter((f.code, f.rule) for f in report.findings if f.fix is not None)
    for (code, rule), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        marker = "[*]" if fixable[code, rule] == n else "   "
        stream.write(f"{n:6d}  {code}  {marker} {rule}\n")


def summary(report: Report, stream: TextIO, fix_hint: bool) -> None:
    s = report.summary()
    questions, files = plural(s["questions"], "question"), plural(s["files"], "file")
    if not report.findings:
        stream.write(f"All clear: {questions} in {files}.\n")
        return
    stream.write(f"Found {plural(s['findings'], 'problem')} ({plural(s['error'], 'error')}, "
                 f"{plural(s['warning'], 'warning')}, {s['info']} info) in {questions}, {files}.\n")
    fixable = sum(1 for f in report.findings if f.fix is not None)
    if fixable and fix_hint:
        stream.write(f"[*] {fixable} fixable with the `--fix` option.\n")
