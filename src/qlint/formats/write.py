"""Writing a bank in another format: what each writer shares.

A writer takes the questions of one source file (``Part``) and returns files (relative path -> text) and
warnings naming what the target cannot hold. ``save`` puts the files under the output folder (or into a zip),
refusing any path that would land outside it, each file written whole or not at all.
"""
from __future__ import annotations

import io
import os
import re
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from qlint.model import Question

TARGETS = ("yaml", "gift", "aiken", "moodle-xml", "qti12", "qti21")


@dataclass
class Part:
    """The questions of one source file (or one entry of a package), and that source's name."""

    source: str
    questions: list[Question]

    @property
    def stem(self) -> str:
        """A safe file name (no folders, no dots in front) derived from the source's name."""
        name = PurePosixPath(self.source.replace("\\", "/").split("!")[-1]).name
        for suffix in (".yaml", ".yml", ".gift", ".txt", ".aiken", ".xml", ".zip"):
            name = name.removesuffix(suffix)
        return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-.") or "bank"


@dataclass
class Output:
    """What a writer made: files by relative path, and warnings (each once, with how many questions it hit)."""

    files: dict[str, str] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)

    def cannot_hold(self, what: str, count: int = 1) -> None:
        self.lost[what] = self.lost.get(what, 0) + count

    def warnings(self, target: str) -> list[str]:
        return [f"{target} cannot hold {what} ({n} question{'s' if n != 1 else ''}); left out"
                for what, n in sorted(self.lost.items())]

    def add(self, name: str, text: str) -> str:
        """Add a file under a name not yet taken (``bank.gift``, ``bank-2.gift``...)."""
        base, dot, ext = name.rpartition(".")
        candidate, n = name, 1
        while candidate in self.files:
            n += 1
            candidate = f"{base}-{n}.{ext}" if dot else f"{name}-{n}"
        self.files[candidate] = text
        return candidate


Writer = Callable[[list[Part], Output], None]


def common_losses(question: Question, out: Output, keeps: frozenset[str]) -> None:
    """Warn about the optional fields a target drops (``keeps`` names those it holds)."""
    for name in ("difficulty", "objective", "meta"):
        if getattr(question, name) not in (None, {}, ()) and name not in keeps:
            out.cannot_hold(name)
    if question.tags and "tags" not in keeps:
        out.cannot_hold("tags")
    if question.qlint is not None and question.qlint.ignore:
        out.cannot_hold("per-question qlint settings")


class UnsafePath(Exception):
    """An output path that would land outside the output folder."""


def _inside(root: Path, relative: str) -> Path:
    """The path ``relative`` names under ``root``, if it stays there (also through symlinks that exist)."""
    pure = PurePosixPath(relative)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts or any(":" in p or "\\" in p for p in pure.parts):
        raise UnsafePath(f"refusing to write {relative!r}: outside the output folder")
    target = root.joinpath(*pure.parts)
    real_root = Path(os.path.realpath(root))
    if not Path(os.path.realpath(target)).is_relative_to(real_root):
        raise UnsafePath(f"refusing to write {relative!r}: it resolves outside the output folder (a symlink?)")
    return target


def _write_whole(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".qlint-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save(files: dict[str, str], out: Path) -> list[Path]:
    """Write ``files`` under the folder ``out`` (or, when ``out`` ends in ``.zip``, into that one archive)."""
    for name in files:   # every name is checked before anything is written
        _inside(Path("."), name)
    if out.name.lower().endswith(".zip"):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, text in sorted(files.items()):
                archive.writestr(name, text.encode("utf-8"))
        out.parent.mkdir(parents=True, exist_ok=True)
        _write_whole(out, buffer.getvalue())
        return [out]
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in sorted(files.items()):
        target = _inside(out, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        _inside(out, name)   # again, now that folders exist: a symlinked folder is caught here
        _write_whole(target, text.encode("utf-8"))
        written.append(target)
    return written
