"""Writing a bank in another format: what each writer shares.

A writer takes the questions of one source file (``Part``) and returns files (relative path -> text) and
warnings naming what the target cannot hold. Bank text is never structure: every writer escapes what its format
can escape and replaces (with a warning) what it cannot hold, in texts and in the comments it writes. ``save``
puts the files under the output folder (or into a zip), refusing any path that would land outside it and any file
that is already there (unless forced), each file written whole or not at all.
"""
from __future__ import annotations

import io
import os
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from qlint.files import new_file_mode, not_regular, place, staged
from qlint.formats.table import TARGETS as TABLE_TARGETS
from qlint.model import Question

TARGETS = TABLE_TARGETS   # the convert --to names, in the format table


_SUFFIXES = (".yaml", ".yml", ".gift", ".txt", ".aiken", ".xml", ".zip", ".imscc")


def _safe_name(name: str) -> str:
    """One path component as a safe file name: letters, digits, ``_`` and ``-``; nothing in front that hides it."""
    while True:
        stripped = next((name.removesuffix(s) for s in _SUFFIXES if name.lower().endswith(s)), name)
        if stripped == name:
            break
        name = stripped
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-.") or "bank"


@dataclass
class Part:
    """The questions of one source file (or one entry of a package), that source's name, and where it sat under the
    folder it was found in (``relative``, POSIX, ``!`` before a package's entry), which the output keeps."""

    source: str
    questions: list[Question]
    relative: str = ""
    file_ignores: list[tuple[tuple[str, ...], str]] = field(default_factory=list)   # ignore-file suppressions

    @property
    def stem(self) -> str:
        """A safe file name (no folders, no dots in front) derived from the source's name."""
        return _safe_name(PurePosixPath(self.source.replace("\\", "/").split("!")[-1]).name)

    @property
    def place(self) -> str:
        """Where this source's output goes under the output folder, without suffix: its folders under the folder
        it was found in, each made safe (a package's entries sit in a folder named after the package)."""
        if not self.relative:
            return self.stem
        parts = [p for p in self.relative.replace("\\", "/").replace("!", "/").split("/") if p not in ("", ".", "..")]
        return "/".join(_safe_name(p) for p in parts) or self.stem


@dataclass
class Output:
    """What a writer made: files by relative path, how many questions they hold, and warnings (each once, with how
    many questions it hit)."""

    files: dict[str, str] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)
    written: int = 0

    def cannot_hold(self, what: str, count: int = 1) -> None:
        self.lost[what] = self.lost.get(what, 0) + count

    def warnings(self, target: str) -> list[str]:
        return [f"{target} cannot hold {what} ({n} question{'s' if n != 1 else ''}); left out"
                for what, n in sorted(self.lost.items())]

    def add(self, name: str, text: str, questions: int = 0) -> str:
        """Add a file holding ``questions`` questions under a name not yet taken (``bank.gift``, ``bank-2.gift``...)."""
        folder, slash, leaf = name.rpartition("/")
        base, dot, ext = leaf.partition(".")
        candidate, n = name, 1
        while candidate in self.files:
            n += 1
            candidate = f"{folder}{slash}{base}-{n}{dot}{ext}"
        self.files[candidate] = text
        self.written += questions
        return candidate


Writer = Callable[[list[Part], Output], None]


def common_losses(question: Question, out: Output, keeps: frozenset[str]) -> None:
    """Warn about the optional fields a target drops (``keeps`` names those it holds; ``qlint`` the per-question
    suppressions, ``credit`` partial credit)."""
    for name in ("difficulty", "objective", "meta"):
        if getattr(question, name) not in (None, {}, ()) and name not in keeps:
            out.cannot_hold(name)
    if question.tags and "tags" not in keeps:
        out.cannot_hold("tags")
    if question.qlint is not None and question.qlint.ignore and "qlint" not in keeps:
        out.cannot_hold("suppressions (qlint: ignore and suppression comments)")
    if any(o.credit for o in question.options) and "credit" not in keeps:
        out.cannot_hold("partial credit")


# every line separator str.splitlines() honours but the line feed: a format whose lines are lines cannot hold them
OTHER_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
# what XML 1.0 cannot hold at all, not even as a character reference
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def comment_text(text: str) -> str:
    """A name (a source file's, a zip entry's) or reason as one line of printable text for a comment: every
    character that is not printable (line breaks, control and format characters) written as its escape."""
    return "".join(c if c.isprintable() else (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
                   for c in text)


def rewrite(question: Question, change: Callable[[str], str]) -> Question:
    """The question with ``change`` applied to every text it holds (id, stem, options, explanation, tags)."""
    options = tuple(o.model_copy(update={"text": change(o.text),
                                         "rationale": change(o.rationale) if o.rationale is not None else None})
                    for o in question.options)
    return question.model_copy(update={
        "id": change(question.id), "stem": change(question.stem), "options": options, "tags": tuple(map(change, question.tags)),
        "explanation": change(question.explanation) if question.explanation is not None else None})


def line_texts(question: Question, out: Output) -> Question:
    """The question as a text format of lines holds it: every line break a line feed (``\\r\\n`` quietly, the other
    separators, ``\\r``, vertical tab, form feed, U+001C-1E, NEL, U+2028, U+2029, with a warning, since the format
    cannot hold them apart), and NUL, which no text bank file may hold, as U+FFFD."""
    seen: set[str] = set()

    def change(text: str) -> str:
        text = text.replace("\r\n", "\n")
        if OTHER_BREAKS.search(text):
            seen.add("line separators other than a line feed (written as line breaks)")
            text = OTHER_BREAKS.sub("\n", text)
        if "\x00" in text:
            seen.add("NUL characters (replaced by U+FFFD)")
            text = text.replace("\x00", "\ufffd")
        return text

    question = rewrite(question, change)
    for what in sorted(seen):
        out.cannot_hold(what)
    return question


def xml_texts(question: Question, out: Output) -> Question:
    """The question as XML 1.0 can hold it: line breaks as line feeds, and the control characters (and U+FFFE,
    U+FFFF) it cannot hold even as references replaced by U+FFFD, with a warning."""
    seen = []

    def change(text: str) -> str:
        text = re.sub("\r\n?|[\x0b\x0c\x1c\x1d\x1e]", "\n", text)
        if _NOT_XML.search(text):
            seen.append(text)
            text = _NOT_XML.sub("\ufffd", text)
        return text

    question = rewrite(question, change)
    if seen:
        out.cannot_hold("control characters (replaced by U+FFFD)")
    return question


def xml_comment(text: str) -> str:
    """Text for inside ``<!-- -->``: printable, no ``--``, not ending in ``-``."""
    text = re.sub("-(?=-)", "- ", comment_text(text))
    return text + " " if text.endswith("-") else text


def weight(value: float) -> str:
    """A percentage as GIFT and Moodle XML write it: ``50``, ``33.33333``, ``-100``."""
    return f"{value:.5f}".rstrip("0").rstrip(".")


def weights(question: Question, out: Output) -> list[float]:
    """Each option's share of the marks, in percent, for a target that scores answers: a single-answer question's
    keys 100 and its distractors their credit (0 without); a multiple-answer question's keys their credit or an
    equal share, its distractors their credit or -100 (choosing everything must not score)."""
    keys = len(question.keys) or 1
    multiple = question.select > 1
    shares = []
    for option in question.options:
        credit = option.credit
        if not option.correct:
            shares.append(credit if credit is not None else -100.0 if multiple else 0.0)
            continue
        if credit is not None and (credit <= 0 if multiple else credit != 100):
            out.cannot_hold("partial credit on a key (a key earns its share of the marks)")
            credit = None
        shares.append(100.0 if not multiple else credit if credit is not None else 100 / keys)
    return shares


class UnsafePath(Exception):
    """An output that would land outside the output folder, or on a source, or on a file already there."""


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


def guard_sources(out: Path, sources: list[Path]) -> None:
    """Refuse an output that is a source, lies inside one (a folder named as a source) or holds one, after
    resolving symlinks: writing there would replace what was read, or mix with it."""
    real_out = Path(os.path.realpath(out))
    for source in sources:
        real = Path(os.path.realpath(source))
        if real_out == real or real_out.is_relative_to(real) or real.is_relative_to(real_out):
            how = "is" if real_out == real else "lies inside" if real_out.is_relative_to(real) else "contains"
            raise UnsafePath(f"refusing to write to {out}: it {how} the source {source}; "
                             "choose an output folder outside the bank")


def _temporary(path: Path, data: bytes, mode: int) -> Path:
    """``data`` in a new file beside ``path``, with the mode a new file gets under the umask (mkstemp makes 0600)."""
    return staged(path, [data], mode=mode, durable=True)


def _place(tmp: Path, path: Path, force: bool) -> None:
    """Move a finished file into place: over what is there only with ``force``; else never over a file that
    appeared since the check (a hard link fails where the name is taken)."""
    try:
        place(tmp, path, overwrite=force)
    except FileExistsError:
        raise UnsafePath(f"refusing to overwrite {path}: it appeared while writing; pass --force to replace it") from None


def _existing(paths: list[Path]) -> None:
    taken = [p for p in paths if os.path.lexists(p)]
    if taken:
        shown = ", ".join(str(p) for p in taken[:3]) + (f" and {len(taken) - 3} more" if len(taken) > 3 else "")
        raise UnsafePath(f"refusing to overwrite {shown}: {'it exists' if len(taken) == 1 else 'they exist'}; "
                         "pass --force to replace existing files")


def save(files: dict[str, str], out: Path, force: bool = False) -> list[Path]:
    """Write ``files`` under the folder ``out`` (or, when ``out`` ends in ``.zip``, into that one archive). Every
    name is checked, and no file is overwritten unless ``force``, before anything is written; each file is written
    whole or not at all, with the permissions the umask gives a new file."""
    for name in files:
        _inside(Path("."), name)
    mode = new_file_mode()
    if out.name.lower().endswith(".zip"):
        kind = not_regular(out)
        if kind == "a folder":
            raise UnsafePath(f"refusing to write the package {out}: a folder of that name exists")
        if kind is not None:   # --force or not: a named pipe or a device is no package to replace
            raise UnsafePath(f"refusing to write the package {out}: it is {kind}, not a file")
        if not force:
            _existing([out])
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, text in sorted(files.items()):
                archive.writestr(name, text.encode("utf-8"))
        out.parent.mkdir(parents=True, exist_ok=True)
        _place(_temporary(out, buffer.getvalue(), mode), out, force)
        return [out]
    kind = not_regular(out)
    if kind not in (None, "a folder"):
        raise UnsafePath(f"refusing to write to {out}: it is {kind}, not a folder")
    targets = [(_inside(out, name), text) for name, text in sorted(files.items())]
    special = [(target, kind) for target, _ in targets if (kind := not_regular(target)) is not None]
    if special:   # --force replaces files, never a named pipe, a device or a folder
        raise UnsafePath(f"refusing to write {special[0][0]}: it is {special[0][1]}, not a regular file")
    if not force:
        _existing([target for target, _ in targets])
    out.mkdir(parents=True, exist_ok=True)
    staged: list[tuple[Path, Path]] = []
    try:
        for (target, text), name in zip(targets, sorted(files)):
            target.parent.mkdir(parents=True, exist_ok=True)
            _inside(out, name)   # again, now that folders exist: a symlinked folder is caught here
            staged.append((_temporary(target, text.encode("utf-8"), mode), target))
        for tmp, target in staged:   # every file is written before any is put in place
            _place(tmp, target, force)
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
    return [target for _, target in staged]
