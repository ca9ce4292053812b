"""Azure Pipelines logging commands, one a finding: ``##vso[task.logissue type=error;sourcepath=F;linenumber=L;
columnnumber=C;code=CODE;]message`` (ruff's ``azure`` format). Azure has no level below warning: info is a warning.

A property value ends at ``;`` or ``]`` and the command at a line break, so those are escaped as the agent reads
them back (``%3B``, ``%5D`` in properties; ``%0D``, ``%0A``, and ``%`` itself as ``%AZP25`` everywhere).
"""
from __future__ import annotations

from typing import TextIO

from qlint.finding import Severity
from qlint.output.base import Report, escape_text


def _data(text: str) -> str:
    """The message: the agent reads back ``%AZP25``, ``%0D`` and ``%0A`` in it; other control characters (an
    escape sequence would drive the log's terminal rendering) and undecodable bytes are escaped as text."""
    return escape_text(text.replace("%", "%AZP25").replace("\r", "%0D").replace("\n", "%0A"))


def _property(text: str) -> str:
    """A property's value: the message's escapes, and ``;`` and ``]``, which would end it."""
    return _data(text).replace(";", "%3B").replace("]", "%5D")


def render(report: Report, stream: TextIO, options: dict) -> None:
    for f in report.findings:
        kind = "error" if f.severity >= Severity.ERROR else "warning"
        stream.write(f"##vso[task.logissue type={kind};sourcepath={_property(f.path)};linenumber={max(f.line, 1)};"
                     f"columnnumber={max(f.column, 1)};code={_property(f.code)};]{_data(f'{f.rule}: {f.message}')}\n")
