"""Response files as the engine reads them: the exact file that was named, and its errors in words.

DuckDB's readers take a path and expand it: ``*``, ``?`` and ``[...]`` are patterns, a leading ``~`` is the home
folder, and ``key=value`` folders become columns. So qlint opens the named file itself and hands DuckDB that open
file (``/dev/fd/N``), or, where the system has no such name, the absolute path with every pattern character
escaped; partition columns are off. A file named ``*.csv`` is that one file, never its siblings.

Engine errors are translated here into one line that names the file (and the line, where there is one): never
the quoted SQL, the reader's list of candidate dialects, or its advice on options qlint sets itself.
"""
from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from qlint.analysis import AnalysisError

MAX_LINE = 2_000_000   # DuckDB's longest line by default
_CHUNK = 8 * 1024 * 1024
SPREADSHEETS = (".xlsx", ".xls", ".ods")
JSON_FILES = (".json", ".ndjson", ".jsonl")
COMPRESSION = {".gz": "gzip", ".zst": "zstd"}
TAB_SEPARATED = (".tsv", ".tab")
_ENDINGS = {b"\r\n": "CRLF", b"\n": "LF", b"\r": "CR"}


@dataclass(frozen=True)
class Opened:
    """A response file qlint opened: its handle, the name the engine reads it by, and its size."""

    handle: BinaryIO
    name: str
    size: int


def glob_literal(path: str) -> str:
    """``path`` as a DuckDB glob that matches only itself: each pattern character in a one-character class."""
    return re.sub(r"([*?\[])", r"[\1]", path)


def refuse_by_name(path: Path) -> None:
    """A spreadsheet or a JSON file is not read as CSV (it would read as one odd column, or not at all)."""
    suffix = _suffix(path)
    if suffix in SPREADSHEETS:
        raise AnalysisError(f"{path}: a spreadsheet; export it as CSV (or Parquet) first")
    if suffix in JSON_FILES:
        raise AnalysisError(f"{path}: a JSON file; qlint reads response data from CSV, TSV or Parquet files: export "
                            "the responses as one of those (one row per answer: person,item,response)")


def _suffix(path: Path) -> str:
    """The suffix that says the format, past a compression suffix (``answers.tsv.gz`` is TSV)."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in COMPRESSION:
        suffixes.pop()
    return suffixes[-1] if suffixes else ""


@contextmanager
def opened(path: Path) -> Iterator[Opened]:
    """The named regular file, open, and the name the engine is to read it by."""
    try:
        # O_NONBLOCK: a FIFO (or a file swapped for one) must not hang the run before fstat refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise AnalysisError(f"{path}: cannot read it: {exc.strerror or type(exc).__name__}") from None
    with open(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise AnalysisError(f"{path}: not a regular file")
        yield Opened(handle, by_descriptor(fd) or glob_literal(os.path.abspath(path)), info.st_size)


def by_descriptor(fd: int) -> str | None:
    """The name an open file has on systems that give one (``/dev/fd/N``), else None."""
    name = f"/dev/fd/{fd}"
    return name if os.path.exists(name) else None


def quote(text: str) -> str:
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def source(path: Path, file: Opened, tag: str) -> str:
    """The SQL table function that reads one opened file (options by the name's suffix, never the engine's guess
    from a descriptor's name)."""
    name = quote(file.name)
    suffix = _suffix(path)
    if suffix == ".parquet":
        return f"read_parquet({name}, hive_partitioning=false)"
    options = ", delim='\\t'" if suffix in TAB_SEPARATED else ""
    options += ", encoding='utf-16'" if _head(file.handle, 2) in (b"\xff\xfe", b"\xfe\xff") else ""
    compression = COMPRESSION.get(path.suffix.lower())
    options += f", compression='{compression}'" if compression else ""
    return (f"read_csv({name}, header=true, all_varchar=true, ignore_errors=true, store_rejects=true, "
            f"rejects_table='rejects_{tag}', rejects_scan='scans_{tag}', null_padding=false, "
            f"hive_partitioning=false{options})")


def _head(handle: BinaryIO, size: int) -> bytes:
    handle.seek(0)
    head = handle.read(size)
    handle.seek(0)
    return head


def check_lines(file: Opened, path: Path) -> None:
    """Refuse a text file holding a line longer than ``MAX_LINE`` before the engine reads it: the engine
    rejects such a line too, but only after minutes per gigabyte. One streaming pass, line breaks found by
    numpy a chunk at a time (a second or so for 10 million rows)."""
    # numpy only when responses are read: the response rules' module is loaded on every run, and a check whose
    # bank findings are cached imports no numpy at all
    import numpy as np

    handle = file.handle
    handle.seek(0)
    run, line = 0, 1   # bytes since the last line break, and that line's number
    while chunk := handle.read(_CHUNK):
        if line == 1 and run == 0 and chunk.startswith(b"PAR1"):
            break   # Parquet: no lines
        data = np.frombuffer(chunk, dtype=np.uint8)
        breaks = np.flatnonzero((data == 10) | (data == 13))
        if breaks.size == 0:
            run += len(chunk)
        else:
            gaps = np.diff(breaks, prepend=-1) - 1
            gaps[0] += run
            longest = int(gaps.argmax())
            if gaps[longest] > MAX_LINE:
                run, line = int(gaps[longest]), line + int(np.count_nonzero(data[breaks[:longest]] == 10))
                break
            line += int(np.count_nonzero(data[breaks] == 10))
            run = len(chunk) - 1 - int(breaks[-1])
        if run > MAX_LINE:
            break
    handle.seek(0)
    if run > MAX_LINE:
        raise AnalysisError(f"{path}: line {line} is longer than {MAX_LINE:,} bytes: not a table of responses")


def mixed_ending(handle: BinaryIO) -> tuple[int, str, str] | None:
    """The first line whose ending differs from the first line's: (its number, its ending, the first line's
    ending); None when every line ends alike. Line breaks inside quoted cells count too: this only explains a
    file the engine could not read."""
    import numpy as np  # as in check_lines: only when responses are read

    handle.seek(0)
    first, lines = None, 0
    while chunk := handle.read(_CHUNK):
        if chunk.endswith(b"\r"):
            chunk += handle.read(1)   # a CRLF split between two chunks is one ending
        data = np.frombuffer(chunk, dtype=np.uint8)
        cr, lf = np.flatnonzero(data == 13), np.flatnonzero(data == 10)
        crlf = np.isin(cr + 1, lf)
        lone_lf = lf[~np.isin(lf - 1, cr)]
        ends = np.concatenate((cr[crlf], cr[~crlf], lone_lf))
        kinds = np.concatenate((np.zeros(int(crlf.sum()), np.int8), np.ones(int((~crlf).sum()), np.int8),
                                np.full(lone_lf.size, 2, np.int8)))[np.argsort(ends, kind="stable")]
        if kinds.size:
            first = int(kinds[0]) if first is None else first
            odd = np.flatnonzero(kinds != first)
            if odd.size:
                names = ("CRLF", "CR", "LF")
                handle.seek(0)
                return lines + int(odd[0]) + 1, names[int(kinds[odd[0]])], names[first]
            lines += kinds.size
    handle.seek(0)
    return None


def first_line(exc: BaseException | str) -> str:
    """An engine error in a line or two: its headline and what went wrong, never the quoted row, the SQL or the
    advice."""
    lines = [line.strip()[:200] for line in str(exc).strip().splitlines()
             if line.strip() and not line.lower().startswith(("original line", "possible solution", "possible fix",
                                                              "line ", "  ", "\t", "*"))]
    return ": ".join(lines[:2]) if lines else type(exc).__name__ if isinstance(exc, BaseException) else "unknown error"


def explain(exc: BaseException, path: Path, file: Opened) -> str:
    """What the engine could not do with a file, as one line naming the file (and the line, where known)."""
    text = str(exc).replace(file.name, str(path))
    if "Error when sniffing file" in text or "not possible to automatically detect" in text:
        head = _head(file.handle, 8192)
        if b"\0" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
            return f"{path}: a binary file, not a table of responses (save the responses as CSV, TSV or Parquet)"
        mixed = mixed_ending(file.handle)
        if mixed is not None:
            line, ending, first = mixed
            return (f"{path}:{line}: line {line} ends with {ending} where line 1 ends with {first}: the file mixes "
                    "line endings, and the CSV reader cannot make out its rows; save it with one kind of line ending")
        return (f"{path}:1: not a table the CSV reader can make out (no delimiter, quoting and column count fits "
                "its rows): save the responses as CSV or TSV with a header row")
    if "Out of Memory" in text:
        return (f"{path}: the engine ran out of memory reading it (item analysis keeps to 1 GB, spilling to disk "
                "where it can): a table this large or this wide cannot be analysed in one run")
    if _suffix(path) == ".parquet":
        return f"{path}: not a Parquet file the engine can read: {_without_kind(first_line(text))}"
    at = re.search(r"\bline:? (\d+)", text)
    where = f"{path}:{at[1]}" if at else str(path)
    return f"{where}: cannot read it: {_without_kind(first_line(text))}"


def _without_kind(message: str) -> str:
    """An engine message without its error class ("Invalid Input Error: ...")."""
    return re.sub(r"^[A-Z][A-Za-z ]*Error: ", "", message)
