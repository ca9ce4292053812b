"""``qlint convert``: read a bank in any format qlint reads, write it in another.

What a source file cannot give (a syntax error, a question that does not fit, an essay) is reported and left
out; what the target cannot hold is a warning, never a silent loss.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from qlint.files import read_limited
from qlint.finding import Finding, Severity
from qlint.formats import discover_banks, read
from qlint.formats.write import TARGETS, Output, Part, Writer, save
from qlint.formats.write_text import write_aiken, write_gift, write_yaml
from qlint.formats.write_xml import write_moodle, write_qti12, write_qti21
from qlint.limits import Limits
from qlint.problems import PARSE_ERROR

WRITERS: dict[str, Writer] = {"yaml": write_yaml, "gift": write_gift, "aiken": write_aiken,
                              "moodle-xml": write_moodle, "qti12": write_qti12, "qti21": write_qti21}
assert tuple(WRITERS) == TARGETS


@dataclass
class Converted:
    """What a conversion read, wrote and could not carry over."""

    questions: int = 0
    written: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    problems: list[Finding] = field(default_factory=list)


def _read_file(path: Path, display: str, limits: Limits) -> tuple[bytes | None, str | None]:
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > limits.max_file_size:
                return None, f"file is {size / 1048576:.1f} MB, over the max-file-size limit"
            return read_limited(handle, size, limits.max_file_size), None
    except OSError as exc:
        return None, f"cannot read file: {exc.strerror or type(exc).__name__}"


def collect(paths: list[Path], limits: Limits, exclude: tuple[str, ...] = ()) -> tuple[list[Part], list[Finding]]:
    """Every question of the sources, grouped by the file (or package entry) it came from, and the problems."""
    parts: dict[str, Part] = {}
    problems: list[Finding] = []
    for path in discover_banks(paths, exclude, limits):
        display = path.as_posix()
        data, error = _read_file(path, display, limits)
        if data is None:
            problems.append(Finding(display, 1, 1, *PARSE_ERROR, Severity.ERROR, error or "unreadable"))
            continue
        result = read(data, display, limits, path)
        problems += result.findings
        for loaded in result.questions:
            parts.setdefault(loaded.path, Part(loaded.path, [])).questions.append(loaded.question)
    return list(parts.values()), problems


def convert(paths: list[Path], target: str, out: Path, limits: Limits, exclude: tuple[str, ...] = ()) -> Converted:
    """Read ``paths``, write them as ``target`` under ``out``; raises write.UnsafePath or OSError on writing."""
    parts, problems = collect(paths, limits, exclude)
    output = Output()
    WRITERS[target]([p for p in parts if p.questions], output)
    done = Converted(sum(len(p.questions) for p in parts), warnings=output.warnings(target), problems=problems)
    if output.files:
        done.written = save(output.files, out)
    return done
