"""Files on disk: which ones a bank holds, and reading one safely (no FIFO, device or over-limit file).

Nothing here knows a bank format: readers turn the bytes into questions.
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from qlint.limits import Limits

Signature = tuple[int, int, int, int, int]   # size, mtime and ctime (ns), inode, device


def relative(path: Path) -> str:
    """A path as users expect to see it: relative to the working folder when below it."""
    if not path.is_absolute():
        # what relpath gives for a relative path that stays below the working folder, without asking the system
        # for the working folder once per file (a big bank has thousands)
        rel = os.path.normpath(path)
        if rel != ".." and not rel.startswith(".." + os.sep):
            return rel if os.sep == "/" else Path(rel).as_posix()
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path.as_posix()
    return Path(rel).as_posix() if not rel.startswith("..") else path.as_posix()


def read_limited(handle, size: int, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of an open file whose stat said ``size``: a buffer of the file's own size is
    allocated, not one of the limit (20 MB a file made reading a bank cost twice its hashing), and a file that
    grew since the stat is still read up to one byte past the limit."""
    data = handle.read(min(size, limit) + 1)
    if len(data) > size:
        data += handle.read(limit + 1 - len(data))
    return data


def _signature(info: os.stat_result) -> Signature:
    return info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev


def read_file(path: Path, limits: Limits, unchanged: Signature | None = None
              ) -> tuple[bytes | None, Signature | None, str | None]:
    """A bank file's bytes, its stat signature (taken before reading) and, when it cannot be read, why (the text of
    its parse-error finding). A file whose signature is ``unchanged`` (one trusted from an earlier run) is not read:
    its bytes come back as None. A FIFO, a device or a file over ``max-file-size`` is never read."""
    size = 0
    try:
        info = os.stat(path)
        kind = _special_kind(info.st_mode)
        if kind is None and unchanged is not None and _signature(info) == unchanged:
            return None, unchanged, None   # known from an earlier run: a stat is enough, nothing is opened
        if kind is None:
            # O_NONBLOCK: a file swapped for a FIFO after the stat above must not hang the run
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
            with open(fd, "rb") as handle:
                info = os.fstat(handle.fileno())
                kind, size = _special_kind(info.st_mode), info.st_size
                if kind is None and size <= limits.max_file_size:
                    signature = _signature(info)
                    data = read_limited(handle, size, limits.max_file_size)
                    size = max(size, len(data))
    except OSError as exc:
        return None, None, f"cannot read file: {exc.strerror or type(exc).__name__}"
    if kind is not None:
        return None, None, f"not a regular file ({kind}); a bank file must be a regular file"
    if size > limits.max_file_size:
        return None, None, (f"file is {size / 1048576:.1f} MB, over the {limits.max_file_size / 1048576:.0f} MB "
                            "limit (max-file-size)")
    return data, signature, None


def _special_kind(mode: int) -> str | None:
    """What a path is when it is not a regular file (reading a FIFO or a device could block or never end)."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


SKIP_DIRS = frozenset((".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".qlint_cache", ".tox"))


def first_time(path: Path, seen: set[object]) -> bool:
    """True the first time a file is met: files are the same when their device and inode are (whatever the
    spelling or link that leads there); a path that cannot be stat-ed (dangling, a loop), or a file system
    without inode numbers, falls back to the absolute path."""
    try:
        info = os.stat(path)
        identity: object = (info.st_dev, info.st_ino) if info.st_ino else os.path.abspath(path)
    except (OSError, ValueError):
        identity = os.path.abspath(path)
    if identity in seen:
        return False
    seen.add(identity)
    return True


def matches_glob(path: Path, patterns: tuple[str, ...]) -> bool:
    """True when a path matches any glob (``**`` spans folders)."""
    if not patterns:
        return False
    text = path.as_posix()
    return any(path.match(p) or re.fullmatch(_glob_to_regex(p), text) for p in patterns)


def _glob_to_regex(pattern: str) -> str:
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return out
