"""Safe fixes: edits rules propose, applied with ruamel.yaml's round-trip so comments, key order and quoting survive.

A file whose untouched round-trip is not byte-identical is never rewritten. A fix addresses the
question the checker read by its position (the line and column of its mapping), never by its id as
ruamel reads it, and a file whose ids collide for qlint, ruamel.yaml or PyYAML is left alone. A fix
that reaches a node with an anchor (which aliases may share) is refused, and the new text is read
again with the checker's loader before it is written: every question must equal its old self with
exactly its own edits. Writes are atomic (temporary file in the same folder, fsync, original mode and
owner kept, rename), follow symbolic links, and refuse read-only files and folders and hard-linked
files, so a run killed mid-write leaves every file either old or new.
"""
from __future__ import annotations

import copy
import io
import os
import stat
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from qlint.edits import Edit, Fix, Reorder, SetText
from qlint.files import write_atomic
from qlint.finding import Finding
from qlint.formats.yaml_reader import load_text
from qlint.limits import Limits
from qlint.sourcemap import ParsedFile


class FixError(Exception):
    """A file qlint will not rewrite; the message says why."""


def _yaml(text: str):
    # ruamel.yaml (round-trip, heavy to import) loads only when a fix is written: checking never needs it
    from ruamel.yaml import YAML
    from ruamel.yaml.util import load_yaml_guess_indent

    _, indent, block_seq_indent = load_yaml_guess_indent(text)
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1_000_000  # never re-wrap lines
    yaml.indent(mapping=2, sequence=indent or 2, offset=block_seq_indent or 0)
    return yaml


def _dump(yaml, data) -> str:
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def _styled(old: Any, value: str) -> Any:
    """``value`` in the scalar style of ``old`` (quoted, folded, literal), so formatting is kept."""
    from ruamel.yaml.scalarstring import ScalarString  # heavy, and only for a fix: see _yaml

    if isinstance(old, ScalarString):
        new = type(old)(value)
        if hasattr(old, "fold_pos") and len(value) == len(old):
            new.fold_pos = list(old.fold_pos)  # same length: keep the original folds
        return new
    return value


def _reorder(seq: Any, order: tuple[int, ...]) -> None:
    """Put a list's items in ``order``. Comment lines between items travel with the item below them, and those after
    the list stay after it (ruamel.yaml hangs both on the item above, which would carry them along)."""
    gaps = _take_gaps(seq) if all(isinstance(item, dict) for item in seq) else None
    items = [seq[i] for i in order]
    comments = getattr(seq, "ca", None)
    moved = {new: comments.items[old] for new, old in enumerate(order) if old in comments.items} if comments else {}
    last = len(seq) - 1
    tail = comments.items.get(last) if comments else None
    for index, item in enumerate(items):
        seq[index] = item
    if comments is not None:
        comments.items.clear()
        comments.items.update(moved)
        if tail is not None and last not in moved:
            comments.items[last] = tail
    if gaps is not None:
        texts, template = gaps
        above = [""] + texts[:-1]   # the comment lines above each item, by old index
        for position, item in enumerate(items):
            _give_gap(item, above[order[position + 1]] if position < last else texts[last], template)


def _end_comment(node: Any) -> tuple[tuple[list, int] | None, tuple[dict, Any, int] | None]:
    """Where the comment that ends ``node`` sits: the deepest row (and index in it) along its last items holding a
    token, and the deepest comment table (with key and index) there is. ruamel.yaml hangs the comment lines
    that follow a node on its last scalar. The walk follows last items only: bounded by the nesting depth."""
    found = deepest = None
    while isinstance(node, (dict, list)) and len(node) and getattr(node, "ca", None) is not None:
        key = next(reversed(node)) if isinstance(node, dict) else len(node) - 1
        index = 2 if isinstance(node, dict) else 0
        deepest = (node.ca.items, key, index)
        row = node.ca.items.get(key)
        if row is not None and len(row) > index and row[index] is not None:
            found = (row, index)
        node = node[key]
    return found, deepest


def _take_gaps(seq: Any) -> tuple[list[str], Any]:
    """The comment lines after each item (cut from the item's last comment), and a token to copy new ones from."""
    texts, template = [], None
    for item in seq:
        found, _ = _end_comment(item)
        after = ""
        if found is not None:
            row, index = found
            template = row[index]
            eol, _, after = template.value.partition("\n")
            if eol:
                template.value = eol + "\n"
            elif after:
                row[index] = None
        texts.append(after)
    return texts, template


def _give_gap(item: Any, after: str, template: Any) -> None:
    """Put comment lines after an item: on its last comment, or on a new one where ruamel.yaml looks for it."""
    if not after:
        return
    found, deepest = _end_comment(item)
    if found is not None:
        row, index = found
        row[index].value += after
    elif deepest is not None:
        table, key, index = deepest
        token = copy.copy(template)
        token.value = "\n" + after
        row = table.setdefault(key, [None, None, None, None] if index == 2 else [None, None])
        row[index] = token


def _round_trip(text: str) -> tuple[Any, Any]:
    """ruamel's round-trip reader and document for ``text``, or FixError when re-dumping would not give it back."""
    try:
        reader = _yaml(text)
        data = reader.load(text)
        unchanged = _dump(reader, data) == text
    except Exception as exc:  # ruamel's own view of the file differs from libyaml's: do not touch it
        raise FixError(f"ruamel.yaml cannot round-trip it ({type(exc).__name__})") from None
    if not unchanged:
        raise FixError("a round-trip would change its formatting, so it is left alone")
    return reader, data


def _entries(data: Any) -> list[Any]:
    """The question entries of a parsed document, in file order, laid out as the checker's loader reads them."""
    if isinstance(data, dict) and "questions" in data:
        items = data["questions"]
        return list(items) if isinstance(items, list) else []
    return [data]


def _id_text(entry: Any) -> str | None:
    """An entry's id as a tool that keys questions by text sees it; None for a missing, null or non-scalar id."""
    value = entry.get("id") if isinstance(entry, dict) else None
    return None if value is None or isinstance(value, (dict, list)) else str(value)


def _line(entry: Any) -> int:
    lc = getattr(entry, "lc", None)
    return lc.line + 1 if lc is not None else 0


def _refuse_colliding_ids(text: str, checked: ParsedFile, entries: list[Any]) -> None:
    """FixError when two questions share an id as qlint, ruamel.yaml (YAML 1.2) or PyYAML (YAML 1.1) reads it:
    ``"31"`` and ``0x1F``, ``007`` and ``7``, ``true`` and ``"True"``. Fixes find their question by position, but
    a bank whose ids collide for some reader is one a person must disambiguate first."""
    readings = [("qlint", [(q.question.id, q.line) for q in checked.questions]),
                ("YAML 1.2 (ruamel.yaml)", [(_id_text(e), _line(e)) for e in entries])]
    try:
        others = _entries(yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    except Exception:  # PyYAML cannot build it (bad tag, unhashable key, too deep): no 1.1 reading
        others = []
    if len(others) == len(entries):
        readings.append(("YAML 1.1 (PyYAML)", [(_id_text(o), _line(e)) for o, e in zip(others, entries)]))
    for reader, ids in readings:
        seen: dict[str, int] = {}
        for key, line in ids:
            if key is None:
                continue
            if key in seen:
                raise FixError(f"the questions at lines {seen[key]} and {line} have the same id {key!r} as "
                               f"{reader} reads it; give each question a distinct, quoted id first")
            seen[key] = line


def _parts(field_path: str) -> list[Any]:
    """``options[1].text`` -> ``["options", 1, "text"]``."""
    parts: list[Any] = []
    for chunk in field_path.replace("]", "").split("."):
        name, *indices = chunk.split("[")
        if name:
            parts.append(name)
        parts.extend(int(i) for i in indices)
    return parts


def _resolve(question: Any, field_path: str) -> tuple[Any, Any]:
    """The container and key/index of a dotted field path inside a question."""
    parts = _parts(field_path)
    node = question
    for part in parts[:-1]:
        node = node[part]
    return node, parts[-1]


def _anchor(node: Any) -> str | None:
    """The name of the anchor a round-trip node carries (its own, or the one its alias points at), if any."""
    getter = getattr(node, "yaml_anchor", None)
    if getter is None:
        return None
    try:
        anchor = getter(any=True)  # scalars report an unused anchor only when asked for any
    except TypeError:
        anchor = getter()
    return getattr(anchor, "value", None)


def _shared(question: Any, edit: Edit) -> str | None:
    """Why ``edit`` must not be applied because it would reach a node shared through an anchor and alias."""
    node, path = question, [question]
    for part in _parts(edit.field):
        node = node[part]
        path.append(node)
    if isinstance(edit, Reorder):  # the moved items and everything in them travel too
        stack = list(node) if isinstance(node, list) else []
        while stack:  # a cycle needs an anchor, and the walk stops at the first one: bounded by the file's nodes
            item = stack.pop()
            if _anchor(item) is not None:
                path.append(item)
                break
            stack.extend(item.values() if isinstance(item, dict) else item if isinstance(item, list) else ())
    name = next((a for a in map(_anchor, path) if a is not None), None)
    if name is None:
        return None
    return (f"{edit.field} carries or sits under the YAML anchor &{name}, which aliases may share; a fix there "
            "could change every place that uses it and never settle, so fix it by hand")


def _overlaps(one: str, other: str) -> bool:
    """True when one field contains the other (``options`` and ``options[2].text``): edit them in separate rounds."""
    short, long = sorted((one, other), key=len)
    return long == short or long.startswith((short + ".", short + "["))


def _located(checked: ParsedFile, entries: list[Any]) -> dict[str, tuple[int, Any]]:
    """Each question the checker read -> its index among the checker's questions and the round-trip mapping that
    starts at the same line and column (the node the checker read, not one that merely has the same id)."""
    at = {(e.lc.line + 1, e.lc.col + 1): e for e in entries if isinstance(e, dict) and getattr(e, "lc", None)}
    return {q.question.id: (index, at.get((q.line, q.column))) for index, q in enumerate(checked.questions)}


@dataclass
class Applied:
    """What fixing one text gave: the new text, how many fixes went in, and why others were refused."""

    text: str
    applied: int = 0
    refused: list[str] = field(default_factory=list)
    used: list[int] = field(default_factory=list)   # the index of each fix that went in


def apply_fixes(text: str, fixes: Sequence[tuple[str, Fix]], limits: Limits | None = None) -> Applied:
    """Apply ``(question id, fix)`` pairs to a file's text, ids as the checker reads them; at most one edit per
    field (first come, first served), and none to a field inside one already edited. FixError when the whole
    file must be left alone."""
    yaml_rt, data = _round_trip(text)
    checked = load_text(text, "<fix>", limits)
    entries = _entries(data)
    _refuse_colliding_ids(text, checked, entries)
    located = _located(checked, entries)
    result = Applied(text)
    planned: list[tuple[int, Edit]] = []
    for number, (qid, fix) in enumerate(fixes):
        index, question = located.get(qid, (None, None))
        if index is None or any(i == index and _overlaps(e.field, edit.field)
                                for i, e in planned for edit in fix.edits):
            continue
        reason = _refusal(question, fix)
        if reason is not None:
            result.refused.append(f"question {qid!r}: {reason}")
            continue
        for edit in fix.edits:
            container, key = _resolve(question, edit.field)
            if isinstance(edit, SetText):
                container[key] = _styled(container[key], edit.value)
            else:
                _reorder(container[key], edit.order)
            planned.append((index, edit))
        result.applied += 1
        result.used.append(number)
    if planned:
        result.text = _dump(yaml_rt, data)
        _verify(text, checked, result.text, planned, limits)
    return result


def _refusal(question: Any, fix: Fix) -> str | None:
    """Why a fix cannot be applied to the round-trip question found for it, or None."""
    if question is None:
        return "ruamel.yaml finds no question where the checker read it"
    try:
        return next((r for r in (_shared(question, e) for e in fix.edits) if r is not None), None)
    except (KeyError, IndexError, TypeError):
        return "its fields are not where the checker read them"


def _verify(old_text: str, checked: ParsedFile, new_text: str, planned: list[tuple[int, Edit]],
            limits: Limits | None) -> None:
    """FixError unless the new text, read by the checker's own loader, is the old one with exactly the planned
    edits: same structural findings, same questions in the same order, each equal to its old self with its own
    edits applied, and the same comment lines."""
    after = load_text(new_text, "<fix>", limits)
    if Counter((f.rule, f.message) for f in checked.findings) != Counter((f.rule, f.message) for f in after.findings):
        raise FixError("the rewrite would change how the file reads (checked before writing); it is left alone")
    if len(after.questions) != len(checked.questions):
        raise FixError("the rewrite would change the number of questions (checked before writing); it is left alone")
    for index, (old, new) in enumerate(zip(checked.questions, after.questions)):
        expected = old.question.model_dump(mode="json")
        for edit in (e for i, e in planned if i == index):
            container, key = _resolve(expected, edit.field)
            container[key] = edit.value if isinstance(edit, SetText) else [container[key][i] for i in edit.order]
        if new.question.model_dump(mode="json") != expected:
            raise FixError(f"the rewrite would change question {old.question.id!r} beyond the fields its findings "
                           "name (checked before writing); it is left alone")
    if _comment_lines(old_text) != _comment_lines(new_text):
        raise FixError("the rewrite would lose or change a comment (checked before writing); it is left alone")


def _comment_lines(text: str) -> Counter[str]:
    return Counter(line.strip() for line in text.splitlines() if line.lstrip().startswith("#"))


def apply_to_text(text: str, fixes: Sequence[tuple[str, Fix]], limits: Limits | None = None) -> str:
    """The text with every fix applied that can be (``apply_fixes`` says which were refused and why)."""
    return apply_fixes(text, fixes, limits).text


def _check_replaceable(target: Path, info: os.stat_result) -> None:
    """FixError when qlint should not replace ``target``: the reason, for the user."""
    if not stat.S_ISREG(info.st_mode):
        raise FixError("it is not a regular file")
    if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise FixError(f"it is read-only (mode {stat.S_IMODE(info.st_mode):04o})")
    folder = os.stat(target.parent)
    if not folder.st_mode & 0o222 or not os.access(target.parent, os.W_OK | os.X_OK):
        raise FixError("its folder is read-only, so no new version can be put in its place")
    if info.st_nlink > 1:
        # a new file in its place would split the links, and writing the shared inode in place is not crash-safe
        raise FixError(f"it has {info.st_nlink} hard links; a fix would either split them or risk a half-written "
                       "file, so fix it by hand")


def replace_fixed(path: Path, text: str, expected: bytes | None = None) -> None:
    """Put a fixed bank file's text in place of the old (through ``qlint.files.write_atomic``, so a crash leaves
    it either old or new, never half-written), keeping its owner and mode.

    A symbolic link is followed and its target replaced, so the link stays a link. FixError, with the file
    untouched, when it must not be replaced (``_check_replaceable``), when ``expected`` (the bytes the fix was
    made from) is no longer what it holds, or when a new file could not keep its owner; other OSErrors propagate.
    """
    target = Path(os.path.realpath(path))
    info = os.stat(target)
    _check_replaceable(target, info)
    if expected is not None and target.read_bytes() != expected:
        raise FixError("it changed on disk while it was being fixed")

    def keep_owner_and_mode(tmp: Path) -> None:
        _keep_owner(tmp, info)
        os.chmod(tmp, stat.S_IMODE(info.st_mode))  # after chown, which may clear set-id bits

    write_atomic(target, [text.encode("utf-8")], durable=True, prepare=keep_owner_and_mode)


def _keep_owner(tmp: Path, info: os.stat_result) -> None:
    """Give the new file the old one's owner and group, or FixError when that is not allowed."""
    mine = os.stat(tmp)
    if (mine.st_uid, mine.st_gid) == (info.st_uid, info.st_gid) or not hasattr(os, "chown"):
        return
    try:
        os.chown(tmp, info.st_uid, info.st_gid)
    except OSError:
        raise FixError("it belongs to another user or group, which a rewritten file could not keep") from None


def fixable(findings: Sequence[Finding]) -> list[tuple[str, Fix]]:
    return [(f.question, f.fix) for f in findings if f.fix is not None and f.question is not None]
