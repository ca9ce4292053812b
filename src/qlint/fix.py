"""Safe fixes: edits rules propose, applied with ruamel.yaml's round-trip so comments, key order and quoting survive.

A file whose untouched round-trip is not byte-identical is never rewritten. Writes are atomic
(temporary file in the same folder, fsync, original mode kept, rename), so a run killed
mid-write leaves every file either old or new.
"""
from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qlint.finding import Finding


@dataclass(frozen=True)
class SetText:
    """Replace the text at a field (``stem``, ``options[1].text``) with ``value``."""

    field: str
    value: str


@dataclass(frozen=True)
class Reorder:
    """Put the items of a list field (``options``) in ``order`` (old indices, new order)."""

    field: str
    order: tuple[int, ...]


Edit = SetText | Reorder


@dataclass(frozen=True)
class Fix:
    """What a finding's rule proposes: edits to its question and a one-line description."""

    description: str
    edits: tuple[Edit, ...]


class FixError(Exception):
    """A file qlint will not rewrite; the message says why."""


def _yaml(text: str):
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


def _questions(data: Any) -> dict[str, Any]:
    items = data.get("questions") if isinstance(data, dict) and "questions" in data else [data]
    return {str(q.get("id")): q for q in items or () if isinstance(q, dict)}


def _resolve(question: Any, field: str) -> tuple[Any, Any]:
    """The container and key/index of a dotted field path inside a round-trip question."""
    parts: list[Any] = []
    for chunk in field.replace("]", "").split("."):
        name, *indices = chunk.split("[")
        if name:
            parts.append(name)
        parts.extend(int(i) for i in indices)
    node = question
    for part in parts[:-1]:
        node = node[part]
    return node, parts[-1]


def _styled(old: Any, value: str) -> Any:
    """``value`` in the scalar style of ``old`` (quoted, folded, literal), so formatting is kept."""
    from ruamel.yaml.scalarstring import ScalarString

    if isinstance(old, ScalarString):
        new = type(old)(value)
        if hasattr(old, "fold_pos") and len(value) == len(old):
            new.fold_pos = list(old.fold_pos)  # same length: keep the original folds
        return new
    return value


def _reorder(seq: Any, order: tuple[int, ...]) -> None:
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


def apply_to_text(text: str, fixes: Sequence[tuple[str, Fix]]) -> str:
    """Apply ``(question id, fix)`` pairs to a file's text; at most one edit per field, first come first served."""
    try:
        yaml = _yaml(text)
        data = yaml.load(text)
        unchanged = _dump(yaml, data) == text
    except Exception as exc:  # ruamel's own view of the file differs from libyaml's: do not touch it
        raise FixError(f"ruamel.yaml cannot round-trip it ({type(exc).__name__})") from None
    if not unchanged:
        raise FixError("a round-trip would change its formatting, so it is left alone")
    questions = _questions(data)
    touched: set[tuple[str, str]] = set()
    for qid, fix in fixes:
        question = questions.get(qid)
        if question is None or any((qid, e.field) in touched for e in fix.edits):
            continue
        for edit in fix.edits:
            container, key = _resolve(question, edit.field)
            if isinstance(edit, SetText):
                container[key] = _styled(container[key], edit.value)
            else:
                _reorder(container[key], edit.order)
            touched.add((qid, edit.field))
    return _dump(yaml, data)


def write_atomic(path: Path, text: str) -> None:
    """Replace a file's contents so that a crash leaves it either old or new, never half-written."""
    mode = os.stat(path).st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".qlint-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def fixable(findings: Sequence[Finding]) -> list[tuple[str, Fix]]:
    return [(f.question, f.fix) for f in findings if f.fix is not None and f.question is not None]
