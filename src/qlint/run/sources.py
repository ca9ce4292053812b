"""The source lines that findings point at, for the text format's snippets.

A reporter never opens a file: a path in a finding may by then be a named pipe (the read would hang), a device
(``/dev/zero`` never ends), a sparse file of gigabytes, or a link to a file outside the bank. The lines are
read here the way the loader reads a bank file -- a regular file, opened without blocking, within
max-file-size -- and, further, never through a symbolic link (its target may be any file on the machine, and a
snippet would print it into a log). Text from stdin comes from the bytes read, never from the file
``--stdin-filename`` names.
"""
from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

from qlint.files import read_limited
from qlint.finding import Finding
from qlint.formats.base import decode
from qlint.limits import Limits

KEPT_WIDTH = 200  # characters kept of a source line: a snippet shows a line's start, never a whole huge line
# the line breaks YAML counts (PyYAML's marks), so a finding's line number picks the same line
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def source_lines(findings: Iterable[Finding], limits: Limits,
                 stdin: tuple[str, bytes | OSError] | None = None) -> dict[tuple[str, int], str]:
    """``(path, line) -> text`` for every line a finding points at, where the file can be read safely.

    ``stdin`` is ``(name, bytes)`` (or the error reading them) when the run read standard input: then no file
    is opened at all."""
    wanted: dict[str, set[int]] = {}
    for finding in findings:
        wanted.setdefault(finding.path, set()).add(finding.line)
    found: dict[tuple[str, int], str] = {}
    for path, lines in wanted.items():
        if stdin is not None:
            read = stdin[1] if path == stdin[0] else None
            data = read if isinstance(read, bytes) and len(read) <= limits.max_file_size else None
        else:
            data = _read_source(Path(path), limits)
        text = decode(data, path)[0] if data is not None else None
        if text is None:
            continue
        for number, line in enumerate(_LINE_BREAK.split(text), start=1):
            if number in lines:
                found[(path, number)] = line[:KEPT_WIDTH]
    return found


def _read_source(path: Path, limits: Limits) -> bytes | None:
    """A bank file's bytes, or None when it is not a regular file, is a symbolic link, or is over the limit."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        if os.path.islink(path):   # where O_NOFOLLOW is missing; with it, a link swapped in later fails to open
            return None
        fd = os.open(path, flags)
        with open(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > limits.max_file_size:
                return None
            data = read_limited(handle, info.st_size, limits.max_file_size)
    except (OSError, ValueError):
        return None
    return data if len(data) <= limits.max_file_size else None
