"""Files on disk: which ones a bank holds, reading one safely (no FIFO, device or over-limit file), and the one way
qlint writes a file (atomically: a reader or a crash sees the old file or the new one, never half of it).

Nothing here knows a bank format: readers turn the bytes into questions.
"""
from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from qlint.limits import Limits

if TYPE_CHECKING:
    import pathspec

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


class OutsideLink(type(Path())):   # type: ignore[misc]  # the concrete Path class of this system
    """A symbolic link met on a walk of a folder that leads to a file outside it (``bank/x.yaml -> ~/.ssh/id_rsa``):
    the walk names it, so that it is a finding, and ``read_file`` never opens it. Named on the command line, the
    same link is a plain Path and is read, as asked."""


OUTSIDE = "cannot read it: a symbolic link to a file outside the folder checked (name the file itself to check it)"


def read_file(path: Path, limits: Limits, unchanged: Signature | None = None
              ) -> tuple[bytes | None, Signature | None, str | None]:
    """A bank file's bytes, its stat signature (taken before reading) and, when it cannot be read, why (the text of
    its parse-error finding). A file whose signature is ``unchanged`` (one trusted from an earlier run) is not read:
    its bytes come back as None. A FIFO, a device, a file over ``max-file-size`` or an OutsideLink is never read."""
    if isinstance(path, OutsideLink):
        return None, None, OUTSIDE
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
        return None, None, (f"file is {_size(size)}, over the limit of {_size(limits.max_file_size)} (max-file-size)")
    return data, signature, None


class NotRegularFile(OSError):
    """A path that is no regular file (a FIFO, a device, a folder): never read, since reading could block or never
    end. Its ``strerror`` says what it is, as an OSError's does."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.strerror = message


def open_regular(path: Path | str):
    """A regular file opened for reading in binary; NotRegularFile for anything else. Opened without blocking (a
    FIFO swapped in must not hang the run) and without becoming a controlling terminal."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        kind = _special_kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise NotRegularFile(f"not a regular file ({kind})")
        return open(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: Path | str, limit: int | None = None) -> bytes:
    """The bytes of a file a setting or an option names (a config, a baseline, a blueprint, a rule pack): at most
    ``limit`` + 1 of them, so the caller can say it is too big. NotRegularFile for a FIFO, a device or a folder,
    which is never read (a read could block or never end); other OSErrors propagate."""
    with open_regular(path) as handle:
        if limit is None:
            return handle.read()
        return read_limited(handle, os.fstat(handle.fileno()).st_size, limit)


def not_regular(path: Path) -> str | None:
    """What stands at ``path`` when it is no regular file (a folder, a named pipe, a device), else None (a regular
    file, or nothing): a writer must neither open it, which could block, nor replace it."""
    try:
        return _special_kind(os.stat(path).st_mode)
    except OSError:
        return None


def _special_kind(mode: int) -> str | None:
    """What a path is when it is not a regular file (reading a FIFO or a device could block or never end)."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


def staged(path: Path, chunks: Iterable[bytes], *, mode: int | None = None, durable: bool = False,
           prefix: str | None = None, suffix: str = ".qlint-tmp") -> Path:
    """``chunks`` in a new temporary file beside ``path`` (same folder, so the rename into place is atomic), with
    ``mode``'s permission bits (mkstemp makes 0600) and, when ``durable``, synced to disk. Removed when writing
    fails; ``place`` puts it where it belongs."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}." if prefix is None else prefix, suffix=suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            for chunk in chunks:
                handle.write(chunk)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def place(tmp: Path, path: Path, *, overwrite: bool) -> None:
    """Rename a ``staged`` file to ``path``: over what is there when ``overwrite``; else only where the name is
    free, FileExistsError when another writer got there first (a hard link fails where the name is taken; on a
    file system without hard links, a rename when the name is still free). The temporary file is gone after."""
    try:
        if overwrite:
            os.replace(tmp, path)
            return
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError:   # a file system without hard links
            if os.path.lexists(path):
                raise FileExistsError(f"{path} exists") from None
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_atomic(path: Path, chunks: Iterable[bytes], *, overwrite: bool = True, mode: int | None = None,
                 durable: bool = False, prepare: Callable[[Path], None] | None = None, prefix: str | None = None,
                 suffix: str = ".qlint-tmp") -> None:
    """Write ``path`` whole or not at all: ``staged``, then ``prepare`` (given the temporary file: its owner, its
    mode), then ``place``. ``durable`` also syncs the folder, so the new name survives a power cut. OSErrors
    propagate, with no temporary file left behind."""
    tmp = staged(path, chunks, mode=mode, durable=durable, prefix=prefix, suffix=suffix)
    try:
        if prepare is not None:
            prepare(tmp)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    place(tmp, path, overwrite=overwrite)
    if durable:
        _sync_folder(path.parent)


def new_file_mode() -> int:
    """The permission bits the umask gives a new file (mkstemp's temporary files are 0600 until told)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def replacing_mode(path: Path) -> int:
    """The permission bits a file written at ``path`` keeps: the existing file's, else a new file's. NotRegularFile
    when ``path`` is a FIFO, a device or a folder, which is never written over, and PermissionError when this user
    could not write the file in place (a new file renamed over it must not get round that)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return new_file_mode()
    kind = _special_kind(info.st_mode)
    if kind is not None:
        raise NotRegularFile(f"not a regular file ({kind})")
    if not os.access(path, os.W_OK):
        raise PermissionError(13, "Permission denied", str(path))
    return stat.S_IMODE(info.st_mode)


def _sync_folder(folder: Path) -> None:
    """fsync a folder so a rename in it is on disk; where folders cannot be opened or synced, nothing."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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
    """True when a path matches any glob: as the gitignore syntax reads it (``**`` spans folders, a pattern with no
    slash matches a name at any depth, ``!`` re-includes), or as ``Path.match`` does from the right
    (``drafts/*.yaml`` matches ``bank/drafts/a.yaml``)."""
    if not patterns:
        return False
    return any(path.match(p) for p in patterns) or _spec(patterns).match_file(path.as_posix())


@lru_cache(maxsize=64)
def _spec(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    """The patterns compiled once, on RE2 (linear in the path whatever the pattern: a pattern from a repository's
    config or .gitignore cannot stall a run); a line that is no valid pattern matches nothing."""
    import pathspec  # only where globs or a .gitignore are matched: a check of a file outside git needs neither

    return pathspec.GitIgnoreSpec.from_lines(_valid(patterns), backend="re2")


def _valid(lines: Iterable[str]) -> list[str]:
    import pathspec  # as in _spec

    kept = []
    for line in lines:
        try:
            pathspec.GitIgnoreSpec.from_lines([line], backend="re2")
        except Exception:  # pathspec's error for a malformed pattern (a lone "!", a bad escape): git ignores it too
            continue
        kept.append(line)
    return kept


GITIGNORE_LIMITS = Limits(max_file_size=1024 * 1024)   # a .gitignore is a few hundred bytes; a huge one is skipped
GITIGNORE_MAX_LINES = 10_000


class GitIgnored:
    """Whether git ignores a path: the rules of ``.git/info/exclude`` and of each ``.gitignore`` from the path's work
    tree top (the nearest folder holding ``.git``) down to its folder, a deeper file having the last word, as git reads
    them (pathspec's ``GitIgnoreSpec``). A path in no git work tree is never ignored. Each folder's rules are read
    once (regular files only, within GITIGNORE_LIMITS)."""

    def __init__(self) -> None:
        self._chains: dict[str, tuple[tuple[str, pathspec.GitIgnoreSpec], ...] | None] = {}

    def __call__(self, path: Path, is_dir: bool = False, parents: bool = False) -> bool:
        """``parents``: also when a folder above the path is ignored, for a path named directly rather than met on
        a walk (which never enters an ignored folder)."""
        here = os.path.abspath(path)
        chain = self._chain(os.path.dirname(here))
        if not chain:
            return False
        if parents:
            base, folder, above = chain[0][0], os.path.dirname(here), []
            while len(folder) > len(base):   # the folders below the first that has rules, down to the path's own
                above.append(folder)
                folder = os.path.dirname(folder)
            if any(self._matches(folder, True) for folder in reversed(above)):
                return True
        return self._matches(here, is_dir)

    def _matches(self, here: str, is_dir: bool) -> bool:
        verdict = None
        for base, spec in self._chain(os.path.dirname(here)) or ():
            rel = os.path.relpath(here, base).replace(os.sep, "/") + ("/" if is_dir else "")
            include = spec.check_file(rel).include
            if include is not None:
                verdict = include
        return bool(verdict)

    def _chain(self, folder: str) -> tuple[tuple[str, pathspec.GitIgnoreSpec], ...] | None:
        """The rules that apply in ``folder``, top first; None outside every git work tree."""
        pending = []
        at = folder
        while at not in self._chains:
            pending.append(at)
            if os.path.lexists(os.path.join(at, ".git")):
                info = _rules(os.path.join(at, ".git", "info", "exclude"))
                self._chains[at] = tuple((at, spec) for spec in (info, _rules(os.path.join(at, ".gitignore")))
                                         if spec is not None)
                pending.pop()
                break
            parent = os.path.dirname(at)
            if parent == at:
                self._chains[at] = None
                pending.pop()
                break
            at = parent
        for below in reversed(pending):   # from the nearest known folder down to ``folder``
            up = self._chains[os.path.dirname(below)]
            own = _rules(os.path.join(below, ".gitignore")) if up is not None else None
            self._chains[below] = None if up is None else up + (((below, own),) if own is not None else ())
        return self._chains[folder]


def _rules(path: str) -> pathspec.GitIgnoreSpec | None:
    """One ignore file's rules, or None when there is none (or it is no regular file, or too big)."""
    if not os.path.lexists(path):
        return None
    data, _, problem = read_file(Path(path), GITIGNORE_LIMITS)
    if data is None or problem is not None:
        return None
    lines = data.decode("utf-8", "replace").splitlines()[:GITIGNORE_MAX_LINES]
    import pathspec  # as in _spec

    return pathspec.GitIgnoreSpec.from_lines(_valid(lines), backend="re2")


def shipped_dir() -> Path | None:
    """Where qlint's own rule packs are: inside the installed package, or ``packs/`` of a source checkout (found
    here, not where packs are read, so that a run listing their rules from the manifest reads none of them)."""
    for candidate in (Path(__file__).parent / "packs", Path(__file__).resolve().parents[2] / "packs"):
        if candidate.is_dir():
            return candidate
    return None


def _size(n: int) -> str:
    """A size as a person reads it: MB from a tenth of one up, else bytes ("0.0 MB, over the 0 MB limit" said
    nothing of a limit of a few bytes)."""
    return f"{n / 1048576:.1f} MB" if n >= 104858 else f"{n:,} bytes"
