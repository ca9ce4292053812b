"""GitHub Actions workflow commands: ``::error file=F,line=L,col=C,title=T::message``, then a plain summary.

GitHub turns at most 10 error and 10 warning annotations per step (50 per job) into
annotations; the rest show only in the log. The closing summary line says how many there
were, so a truncated annotation list is never mistaken for the whole story.
"""
from __future__ import annotations

from typing import TextIO

from qlint.finding import Finding, Severity
from qlint.output.base import Report, escape_text
from qlint.wording import plural

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
ANNOTATION_CAP = 10  # per severity, per step


def escape_data(text: str) -> str:
    # the runner splits lines on LF only and decodes %25, %0D and %0A; a name's byte that is not UTF-8, and any other
    # control character (an escape sequence would drive the log's terminal rendering), is escaped as text
    return escape_text(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(finding: Finding) -> str:
    props = {
        "file": finding.path.replace("\\", "/"),
        "line": str(max(finding.line, 1)),
        "col": str(max(finding.column, 1)),
        "title": f"{finding.code} {finding.rule}",
    }
    if finding.end_line is not None and finding.end_column is not None:
        props["endLine"] = str(max(finding.end_line, finding.line, 1))
        props["endColumn"] = str(max(finding.end_column, 1))
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in props.items())
    return f"::{COMMANDS[finding.severity]} {joined}::{escape_data(finding.message)}"


def render(report: Report, stream: TextIO, options: dict) -> None:
    for finding in report.findings:
        stream.write(command(finding) + "\n")
    if options.get("quiet"):
        return
    s = report.summary()
    if not report.findings:
        stream.write(f"qlint: all clear: {plural(s['questions'], 'question')} in {plural(s['files'], 'file')}.\n")
        return
    line = (f"qlint: found {plural(s['findings'], 'problem')} "
            f"({plural(s['error'], 'error')}, {plural(s['warning'], 'warning')}, {s['info']} info) "
            f"in {plural(s['questions'], 'question')}, {plural(s['files'], 'file')}.")
    if s["error"] > ANNOTATION_CAP or s["warning"] > ANNOTATION_CAP or s["info"] > ANNOTATION_CAP:
        line += (f" GitHub annotates only {ANNOTATION_CAP} of each severity per step; all are listed above"
                 " (use --format sarif with code scanning to see every one).")
    stream.write(line + "\n")
