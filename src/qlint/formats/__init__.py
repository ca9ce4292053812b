"""Bank formats: one reader (and writer) module per format, and the dispatch that picks a file's reader.

A file's format is, in order: ``--from`` or the first ``formats`` glob of the config that matches it; else its
suffix (``.yaml``/``.yml``, ``.gift`` or ``.gift.txt``, ``.aiken`` or ``.aiken.txt``, ``.xml`` by its root element,
``.zip`` by its manifest); else what its content looks like; else YAML, whose loader then says what is wrong with it.
"""
from __future__ import annotations

import dataclasses
import importlib
import os
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from time import monotonic

from qlint.files import SKIP_DIRS, OutsideLink, first_time, matches_glob, open_regular, read_file
from qlint.formats import zipsafe
from qlint.formats.table import BY_NAME, SETTLED, TABLE, WALKED, holders
from qlint.finding import Severity
from qlint.formats.base import ALIASES, BANK_FORMATS, Reader, ReadLimits, ReadTimeout, finding, format_name, parse_error
from qlint.limits import Limits
from qlint.problems import RULE_TIMEOUT
from qlint.sourcemap import ParsedFile

__all__ = ["ALIASES", "BANK_FORMATS", "ReadLimits", "Reader", "discover_banks", "format_name", "parse", "read", "read_path", "reader",
           "reader_for"]


def reader(name: str) -> Reader:
    """The reader of a format; its module (and lark or lxml) is imported on first use, so YAML runs skip them."""
    return importlib.import_module(f"qlint.formats.{BY_NAME[format_name(name)].module}").READER


def forced(path: str, limits: Limits) -> str | None:
    """The format ``--from`` or a config glob names for this path, if any. ``--from`` (the ``**`` pattern) is for
    suffixes that do not settle a format (``.txt``, none, and ``.xml`` for an XML format): ``.yaml``, ``.gift``,
    ``.aiken`` and ``.zip`` files keep theirs, so a folder that mixes formats still checks."""
    for pattern, name in getattr(limits, "formats", ()):
        if pattern == "**":
            lower = path.lower()
            held = holders(lower)
            if not lower.endswith(SETTLED) and (not held or name in held):
                return name
        elif matches_glob(Path(path), (pattern,)):
            return name
    return None


def reader_for(path: str, data: bytes, forced_format: str | None = None) -> Reader:
    """The reader for one file: the forced format, else the suffix (sniffing ``.xml``), else the content."""
    if forced_format:
        return reader(forced_format)
    lower = path.lower()
    for row in TABLE:
        if lower.endswith(row.suffixes):
            return reader(row.name)
    for row in TABLE:   # a suffix formats share (.xml, .txt): the first whose reader knows the content
        if lower.endswith(row.shared) and (row.fallback or reader(row.name).sniff(data, path)):
            return reader(row.name)
    return reader(TABLE[0].name)


def read_path(path: Path, display: str | None = None, limits: Limits | None = None) -> ParsedFile:
    """One bank file on disk -> its questions, source map and problems; a file that cannot be read (missing, a FIFO,
    over ``max-file-size``) is a parse-error finding."""
    limits = limits or ReadLimits()
    data, _, problem = read_file(path, limits)
    return parse(data, display or str(path), limits, path, problem)


def parse(data: bytes | None, path: str, limits: Limits, real_path: Path | None = None,
          problem: str | None = None) -> ParsedFile:
    """``read``, or the parse-error finding of a file whose bytes could not be read (``data`` None) and why."""
    if data is None:
        return parse_error(path, 1, 1, problem or "cannot read file")
    return read(data, path, limits, real_path)


def with_deadline(limits: Limits, deadline: float) -> ReadLimits:
    """The limits with the clock time by which reading must be done."""
    if isinstance(limits, ReadLimits):
        return dataclasses.replace(limits, deadline=deadline)
    fields = {f.name: getattr(limits, f.name) for f in dataclasses.fields(Limits)}
    return ReadLimits(**fields, deadline=deadline)


def read(data: bytes, path: str, limits: Limits, real_path: Path | None = None) -> ParsedFile:
    """One file's bytes -> its questions, source map and problems, by whichever reader its format takes. Reading
    counts against the file's time budget (``rule-time-budget``): a reader past it ends as a rule-timeout finding."""
    chosen = reader_for(path, data, forced(real_path.as_posix() if real_path else path, limits) or forced(path, limits))
    budget = limits.rule_time_budget
    try:
        return chosen.read(data, path, with_deadline(limits, monotonic() + budget))
    except ReadTimeout:
        return ParsedFile(path, findings=[finding(
            path, 1, 1, RULE_TIMEOUT, f"reading this {chosen.name} file ran past its time budget "
            f"(rule-time-budget = {budget:g} s); the file is not checked", severity=Severity.ERROR)])
    except (RecursionError, MemoryError) as exc:
        return parse_error(path, 1, 1, f"{chosen.name} file too deeply nested or too big to read ({type(exc).__name__})")
    except Exception as exc:  # a reader's own bug must cost one file, named with a line, never the run
        return parse_error(path, 1, 1, f"{chosen.name} file could not be read: {type(exc).__name__}: {exc}")


def _wanted(name: str, candidate: Path, globs: tuple[tuple[str, str], ...], limits: Limits | None) -> bool:
    """Whether discovery takes a file the YAML loader's discovery does not: a config glob names it, ``--from``
    names its suffix's format, or its suffix is a bank format's (``.xml``, ``.qti`` and ``.zip`` only when they
    look it)."""
    lower = name.lower()
    for pattern, fmt in globs:
        if pattern == "**" and fmt in BY_NAME and lower.endswith(BY_NAME[fmt].walk_forced):
            return True
        if pattern != "**" and matches_glob(candidate, (pattern,)):
            return True
    for row in TABLE[1:]:   # YAML files were taken before
        if lower.endswith(row.walk):
            return not row.walk_sniffed or _looks_like_bank(candidate, limits or ReadLimits())
    return False


def _looks_like_bank(path: Path, limits: Limits) -> bool:
    """A folder's ``.xml`` file is a bank when its root element (found by parsing its prolog, however long, in any
    encoding) is Moodle's ``<quiz>`` or QTI's; a ``.zip`` when it is a content package (holds ``imsmanifest.xml``).
    Other XML in a bank folder (a build file, a Canvas export's quiz settings) is left alone; a file whose XML breaks
    off before its root element is taken, and reading it reports the error."""
    try:
        # a FIFO or a device is never opened for reading (it would block): it is taken, and reading it says what it is
        with open_regular(path) as handle:
            if path.name.lower().endswith(".zip"):
                return handle.read(2) == b"PK" and _has_manifest(handle, limits)
            # lxml comes in with the XML readers, on first use: a YAML-only run never loads it
            xml = importlib.import_module("qlint.formats.xmlsafe")
            head, broken = xml.read_prolog(xml.file_chunks(handle, limits.max_file_size))
            return broken or xml.bank_format(head) is not None
    except OSError:
        return True   # unreadable: the reader says so


def _has_manifest(handle, limits: Limits) -> bool:
    """Whether a zip holds ``imsmanifest.xml``; its central directory is sized before it is read, and one too big
    to read is taken (the reader reports it)."""
    try:
        if zipsafe.too_big(zipsafe.of_file(handle), getattr(limits, "max_zip_entries", ReadLimits.max_zip_entries)):
            return True
        handle.seek(0)
        with zipfile.ZipFile(handle) as archive:
            return any(i.filename == "imsmanifest.xml" for i in archive.infolist())
    except (OSError, zipfile.BadZipFile, ValueError, EOFError):
        return True   # broken: the reader reports it


def discover_banks(paths: list[Path], exclude: tuple[str, ...] = (), limits: Limits | None = None,
                   skip: Callable[[Path, bool], bool] | None = None) -> Iterator[Path]:
    """Every bank file under ``paths``, in one walk and a stable order: YAML files and the files named explicitly
    (always taken) first, then the files of the other formats. A file reached twice (named by a relative and an
    absolute path, its folder named twice, a link or hard link to another bank file) is taken once, under the
    first name met: checked twice, it would clash with itself. ``skip(path, is_folder)``, when given, leaves out
    what the walk meets (a .gitignore'd folder is never entered); files named explicitly are always taken. The walk
    follows no link to a folder, nor a link to a file outside the folder named: that one comes as an OutsideLink,
    which reading refuses with a finding (a bank must not make qlint read, and print in its findings, a file
    elsewhere on the machine)."""
    globs = tuple(getattr(limits, "formats", ()))
    yaml_suffixes = TABLE[0].walk
    first: list[Path] = []
    rest: list[Path] = []
    identities: set[object] = set()
    for root in paths:
        if not os.path.isdir(root):
            if first_time(root, identities):
                first.append(root)
            continue
        inside = os.path.realpath(root)
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")
                                 and not (skip is not None and skip(Path(dirpath) / d, True)))
            for name in sorted(filenames):
                candidate = Path(dirpath) / name
                if name.startswith(".") or matches_glob(candidate, exclude) or (skip is not None and skip(candidate, False)):
                    continue
                if os.path.islink(candidate) and _leads_outside(candidate, inside):
                    # a link out of the folder walked (to ~/.ssh, /etc): named, never opened, not even to sniff it
                    if name.lower().endswith(_LINKED) and first_time(candidate, identities):
                        first.append(OutsideLink(candidate))
                    continue
                if name.endswith(yaml_suffixes):
                    if first_time(candidate, identities):
                        first.append(candidate)
                elif _wanted(name, candidate, globs, limits):
                    rest.append(candidate)
    yield from first
    taken = set(first)
    for candidate in rest:
        if candidate not in taken:
            taken.add(candidate)
            yield candidate


_LINKED = (*WALKED, ".txt")   # link names a walk reports


def _leads_outside(link: Path, folder: str) -> bool:
    """Whether a symbolic link met on a walk leads to a regular file outside ``folder`` (a real path): one whose
    content reading would show. A dangling link, a loop or a link to a device is read as before (reading says what
    it is, and reads nothing)."""
    target = os.path.realpath(link)
    inside = target == folder or target.startswith(folder.rstrip(os.sep) + os.sep)
    return not inside and os.path.isfile(target)


def with_source_format(config, name: str):
    """The config with ``--from NAME`` in force: it comes before the config's own ``formats`` globs."""
    settings = config.settings
    chosen = format_name(name)
    formats = {"**": chosen, **{g: f for g, f in settings.formats.items() if g != "**"}}
    return dataclasses.replace(config, settings=dataclasses.replace(settings, formats=formats))


def is_yaml(path: str, limits: Limits) -> bool:
    """Whether a checked file is in qlint's own YAML format (the only one ``--fix`` rewrites)."""
    chosen = forced(path, limits)
    if chosen is not None:
        return chosen == "yaml"
    if path.lower().endswith(TABLE[0].suffixes):
        return True
    try:
        with open_regular(path) as handle:
            head = handle.read(8192)
    except OSError:
        return False
    return reader_for(path, head).name == "yaml"
