"""``qlint convert``: read a bank in any format qlint reads, write it in another.

What a source file cannot give (a syntax error, a question that does not fit, an essay) is reported and left
out; what the target cannot hold is a warning, never a silent loss. The output keeps the sources' folder tree and
their suppressions (as comments, or YAML's ``qlint: ignore``). It never lands on a source, inside one or around
one, and never replaces a file that is there unless told to (``force``).
"""
from __future__ import annotations

import bisect
import os
from dataclasses import dataclass, field
from pathlib import Path

from qlint.files import read_file
from qlint.finding import Finding, finding
from qlint.formats import discover_banks, read
from qlint.formats.write import TARGETS, Output, Part, UnsafePath, Writer, guard_sources, save
from qlint.formats.write_text import write_aiken, write_gift, write_yaml
from qlint.formats.write_xml import write_moodle, write_qti12, write_qti21
from qlint.limits import Limits
from qlint.model import Question, QuestionSettings
from qlint.problems import PARSE_ERROR, RATIONALES_NOT_HELD
from qlint.sourcemap import ParsedFile

WRITERS: dict[str, Writer] = {"yaml": write_yaml, "gift": write_gift, "aiken": write_aiken,
                              "moodle-xml": write_moodle, "qti12": write_qti12, "qti21": write_qti21}
assert tuple(WRITERS) == TARGETS
PACKAGED = ("qti12", "qti21")   # the targets a .zip output is a content package of (with its imsmanifest.xml)


@dataclass
class Converted:
    """What a conversion read, wrote and could not carry over."""

    questions: int = 0    # read from the sources
    converted: int = 0    # written to the output
    written: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    problems: list[Finding] = field(default_factory=list)


def _base(paths: list[Path]) -> Path | None:
    """The folder the output's tree starts from: the one folder named, else the folder the named paths share."""
    folders = [os.path.abspath(p if os.path.isdir(p) else p.parent) for p in paths]
    try:
        return Path(os.path.commonpath(folders)) if folders else None
    except ValueError:   # different drives
        return None


def _relative(path: Path, base: Path | None) -> str:
    if base is not None:
        try:
            return Path(os.path.abspath(path)).relative_to(base).as_posix()
        except ValueError:
            pass
    return path.name


@dataclass
class _Suppressed:
    """A file's suppression comments, as what the writers carry: rules and reason per question, and file-wide, by
    the path they sit in (the file's, or a package entry's)."""

    by_question: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)
    file_wide: dict[str, list[tuple[tuple[str, ...], str]]] = field(default_factory=dict)
    widened: int = 0   # line suppressions that now cover their whole question


def _suppressions(result: ParsedFile) -> _Suppressed:
    """Which question each valid suppression comment covers: an ``ignore-question`` the question it opens, an
    ``ignore`` (one line) the question that line is in, since no target holds a line's suppression apart."""
    found = _Suppressed()
    starts: dict[str, tuple[list[int], list[str]]] = {}
    for sup in result.suppressions:
        if not sup.rules or not sup.reason:
            continue   # invalid (check says so); there is nothing to carry
        path = sup.path or result.path
        if sup.scope == "file":
            found.file_wide.setdefault(path, []).append((sup.rules, sup.reason))
            continue
        if path not in starts:
            own = sorted((loaded.line, index) for index, loaded in enumerate(result.questions) if loaded.path == path)
            starts[path] = ([line for line, _ in own], [result.questions[i].question.id for _, i in own])
        lines, ids = starts[path]
        at = bisect.bisect_right(lines, sup.target_line) - 1
        if at < 0:
            continue
        for rule in sup.rules:
            found.by_question.setdefault((path, ids[at]), {}).setdefault(rule, sup.reason)
        found.widened += sup.scope == "line"
    return found


def _with_ignores(question: Question, ignores: dict[str, str] | None) -> Question:
    if not ignores:
        return question
    merged = {**ignores, **(question.qlint.ignore if question.qlint is not None else {})}
    return question.model_copy(update={"qlint": QuestionSettings(ignore=merged)})


def collect(paths: list[Path], limits: Limits, exclude: tuple[str, ...] = (),
            out: Path | None = None) -> tuple[list[Part], list[Finding], int]:
    """Every question of the sources, grouped by the file (or package entry) it came from, each with where it sat
    and the suppressions that cover it; the problems; and how many line suppressions now cover a whole question.
    With ``out``, a source found there (or around it) is refused before anything is read."""
    parts: dict[str, Part] = {}
    problems: list[Finding] = []
    widened = 0
    base = _base(paths)
    for path in discover_banks(paths, exclude, limits):
        if out is not None:
            guard_sources(out, [path])
        display = path.as_posix()
        data, _, error = read_file(path, limits)   # a FIFO, a device or an over-limit file is never read
        if data is None:
            problems.append(finding(display, 1, 1, PARSE_ERROR, error or "unreadable"))
            continue
        result = read(data, display, limits, path)
        # what the source cannot hold is for check to say; the output says what the target cannot
        problems += [f for f in result.findings if f.rule != RATIONALES_NOT_HELD.name]
        suppressed = _suppressions(result)
        widened += suppressed.widened
        relative = _relative(path, base)
        for loaded in result.questions:
            entry = loaded.path[len(display):] if loaded.path.startswith(display + "!") else ""
            part = parts.setdefault(loaded.path, Part(loaded.path, [], relative + entry,
                                                      list(suppressed.file_wide.get(loaded.path, ()))))
            part.questions.append(_with_ignores(loaded.question,
                                                suppressed.by_question.get((loaded.path, loaded.question.id))))
    return list(parts.values()), problems, widened


def convert(paths: list[Path], target: str, out: Path, limits: Limits, exclude: tuple[str, ...] = (),
            force: bool = False) -> Converted:
    """Read ``paths``, write them as ``target`` under ``out``; raises write.UnsafePath (an output on a source, or
    over an existing file without ``force``) or OSError on writing."""
    if out.name.lower().endswith(".zip") and target not in PACKAGED:
        # a zip of GIFT, Aiken, YAML or Moodle XML files is no content package: no LMS imports it and qlint reads
        # it as "no imsmanifest.xml", every question lost
        raise UnsafePath(f"refusing to write {out}: a .zip output is a QTI content package (--to qti12 or qti21); "
                         f"write {target} to a folder")
    guard_sources(out, paths)
    parts, problems, widened = collect(paths, limits, exclude, out)
    output = Output()
    WRITERS[target]([p for p in parts if p.questions], output)
    done = Converted(sum(len(p.questions) for p in parts), output.written, warnings=output.warnings(target),
                     problems=problems)
    if widened and target != "aiken":
        done.warnings.append(f"{_count(widened, 'line suppression')} now cover{'s' if widened == 1 else ''} "
                             "the whole question (no target holds a suppression for one line)")
    if output.files:
        done.written = save(output.files, out, force)
    return done


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def summary(done: Converted, target: str, out: str) -> str:
    """What a conversion says last: the questions written, in how many files, and how many it could not write."""
    left = done.questions - done.converted
    tail = f" ({left} of the {done.questions} read could not be written as {target}; see the warnings)" if left else ""
    return f"Wrote {_count(done.converted, 'question')} as {target} to {_count(len(done.written), 'file')} in {out}{tail}\n"
