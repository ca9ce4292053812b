"""Writers for the text formats: qlint's YAML, GIFT and Aiken."""
from __future__ import annotations

import re
from typing import Any

import yaml

from qlint.formats.gift import _category as read_category
from qlint.formats.write import Output, Part, comment_text, common_losses, line_texts, weight, weights
from qlint.formats.table import BY_NAME
from qlint.model import Plain, Question


class _Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, which also writes the loader's plain scalars (``Plain``, text the author wrote
    unquoted in ``meta``) unquoted where YAML reads them back the same."""


# PyYAML writes these raw inside single quotes, where a reader folds them as line breaks: escaped, they survive
_YAML_BREAKS = re.compile("[\x85\u2028\u2029]")


_HASH, _SLASHES = BY_NAME["yaml"].comment, BY_NAME["gift"].comment   # how YAML and GIFT open a comment

def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = '"' if _YAML_BREAKS.search(value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _plain_scalar(dumper: yaml.SafeDumper, value: Plain) -> yaml.ScalarNode:
    text = str(value)
    if _YAML_BREAKS.search(text):
        return _text(dumper, text)
    return dumper.represent_scalar(dumper.resolve(yaml.ScalarNode, text, (True, False)), text)


_Dumper.add_representer(str, _text)
_Dumper.add_representer(Plain, _plain_scalar)


def _data(value: Any) -> Any:
    """Free-form data (``meta``) as what the YAML dumper writes: mappings, lists and scalars; anything else as text."""
    if isinstance(value, dict):
        return {_data(k): _data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_data(v) for v in value]
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(value)


def _yaml_question(q: Question) -> dict:
    entry: dict = {"id": q.id, "stem": q.stem}
    if q.select != 1:
        entry["select"] = q.select
    options = []
    for option in q.options:
        item: dict = {"text": option.text}
        if option.correct:
            item["correct"] = True
        if option.rationale is not None:
            item["rationale"] = option.rationale
        if option.credit is not None:
            item["credit"] = int(option.credit) if option.credit.is_integer() else option.credit
        options.append(item)
    entry["options"] = options
    for name in ("explanation", "difficulty", "objective"):
        if getattr(q, name) is not None:
            entry[name] = getattr(q, name)
    if q.tags:
        entry["tags"] = list(q.tags)
    if q.meta:
        entry["meta"] = _data(q.meta)
    if q.qlint is not None and q.qlint.ignore:
        entry["qlint"] = {"ignore": dict(q.qlint.ignore)}
    return entry


def _suppression(scope: str, rules: tuple[str, ...], reason: str, mark: str) -> str:
    """A suppression comment, one line whatever its rule names and reason hold."""
    names = ", ".join(comment_text(r).replace("]", "\\x5d") for r in rules)
    return f"{mark} qlint: {scope}[{names}] {comment_text(reason)}"


def write_yaml(parts: list[Part], out: Output) -> None:
    """qlint's bank layout: one file per source file, its questions under ``questions:``, ids kept; the source's
    suppressions as ``qlint: ignore`` (per question) and ``# qlint: ignore-file`` comments."""
    for part in parts:
        body = yaml.dump({"questions": [_yaml_question(q) for q in part.questions]}, Dumper=_Dumper, sort_keys=False,
                         allow_unicode=True, width=110, default_flow_style=False)
        head = [f"# converted by qlint from {comment_text(part.source)}"]
        head += [_suppression("ignore-file", rules, reason, _HASH) for rules, reason in part.file_ignores]
        out.add(f"{part.place}.yaml", "\n".join(head) + "\n" + body, len(part.questions))


_GIFT_SPECIAL = re.compile(r"([\\~=#{}:])")
_TRIM = " \t\n\r\0\x0b"   # what Moodle trims off every GIFT text
_MARKER = re.compile(r"\[(?:html|moodle|plain|markdown)\]")


def gift_text(text: str, out: Output | None = None, guard: bool = True) -> str:
    """Plain text as a GIFT text of a ``[plain]`` question: trimmed (as Moodle trims every text), GIFT's specials
    backslashed, line breaks as ``\\n``; with ``guard`` (not for a title, nor a stem that follows its own marker), a
    text that opens with a format marker gets ``[plain]`` in front, so that the marker stays text."""
    trimmed = text.strip(_TRIM)
    if trimmed != text and trimmed and out is not None:
        out.cannot_hold("spaces or line breaks at the start or end of a text (trimmed)")
    escaped = _GIFT_SPECIAL.sub(r"\\\1", trimmed).replace("\n", "\\n")
    return f"[plain]{escaped}" if guard and _MARKER.match(escaped) else escaped


def _gift_options(q: Question, out: Output) -> list[str]:
    lines = []
    every = len(q.keys) == len(q.options)   # "=" alone on every answer would make it a short-answer question
    shares = weights(q, out)
    for index, (option, share) in enumerate(zip(q.options, shares)):
        text = gift_text(option.text, out)
        if q.select > 1:
            mark = f"~%{weight(share)}%"
        elif option.correct:
            mark = "~%100%" if every and index else "="
        else:
            # Moodle reads a weight after "~" (not after "="): a text that starts like one needs an explicit 0
            mark = f"~%{weight(share)}%" if share or text.startswith("%") else "~"
        line = f"  {mark}{text}"
        if option.rationale is not None:
            line += f"#{gift_text(option.rationale, out)}"
        lines.append(line)
    return lines


def _gift_question(q: Question, out: Output) -> str:
    common_losses(q, out, frozenset(("tags", "qlint", "credit")))
    q = line_texts(q, out)
    lines = [_suppression("ignore-question", (rule,), reason, _SLASHES) for rule, reason in
             (q.qlint.ignore.items() if q.qlint is not None else ())]
    ident = q.id.strip()   # a title is the id once trimmed of all white space
    if ident != q.id:
        out.cannot_hold("spaces or line breaks at the start or end of an id (trimmed)")
    lines.append(f"::{gift_text(ident, out, guard=False)}::[plain]{gift_text(q.stem, out, guard=False)} {{")
    lines += _gift_options(q, out)
    if q.explanation is not None:
        lines.append(f"  ####{gift_text(q.explanation, out)}")
    if q.select > 1 and len(q.keys) != q.select:
        out.cannot_hold("a 'select' that differs from the number of keys")
    lines.append("}")
    return "\n".join(lines)


def _category(tag: str, out: Output) -> str:
    """A tag as a ``$CATEGORY:`` line; a tag the category path does not give back as it was is warned about."""
    flat = " ".join(tag.split())
    line = f"$CATEGORY: $course$/top/{flat}"
    if read_category(line[len("$CATEGORY:"):]) != tag:
        out.cannot_hold("tags that a $CATEGORY path cannot hold as they are (line breaks, '//', leading 'top/')")
    return line


def write_gift(parts: list[Part], out: Output) -> None:
    """One ``.gift`` file per source, every question ``[plain]`` text as qlint reads it; a question's first tag
    becomes its ``$CATEGORY``, its suppressions ``// qlint:`` comments above it."""
    for part in parts:
        chunks = [f"// converted by qlint from {comment_text(part.source)}"]
        chunks += [_suppression("ignore-file", rules, reason, _SLASHES) for rules, reason in part.file_ignores]
        category = None
        for q in part.questions:
            wanted = q.tags[0] if q.tags else None
            if wanted != category and wanted is not None:
                chunks.append(_category(wanted, out))
            category = wanted if wanted is not None else category
            if len(q.tags) > 1:
                out.cannot_hold("more than one tag")
            chunks.append(_gift_question(q, out))
        out.add(f"{part.place}.gift", "\n\n".join(chunks) + "\n", len(part.questions))


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_AIKEN_ANSWER = re.compile(r"\s*ANSWER\s*:", re.I)


def _aiken_question(q: Question, out: Output) -> str | None:
    if len(q.keys) != 1 or q.select != 1:
        out.cannot_hold("questions without exactly one key (skipped)")
        return None
    if len(q.options) > len(_LETTERS):
        out.cannot_hold("more than 26 options (skipped)")
        return None
    if _AIKEN_ANSWER.match(" ".join(q.stem.split())):
        out.cannot_hold("a stem that starts like an ANSWER line (skipped)")
        return None
    common_losses(q, out, frozenset())
    q = line_texts(q, out)
    if any(o.rationale is not None for o in q.options):
        out.cannot_hold("rationales")
    if q.explanation is not None:
        out.cannot_hold("explanations")
    out.cannot_hold("ids (Aiken questions are unnamed; ids are derived from the stem when read back)")
    flat = [" ".join(text.split()) for text in (q.stem, *(o.text for o in q.options))]
    if any(text != original for text, original in zip(flat, (q.stem, *(o.text for o in q.options)))):
        out.cannot_hold("line breaks (texts joined onto one line)")
    lines = [flat[0]] + [f"{_LETTERS[i]}. {text}" for i, text in enumerate(flat[1:])]
    lines.append(f"ANSWER: {_LETTERS[q.keys[0]]}")
    return "\n".join(lines)


def write_aiken(parts: list[Part], out: Output) -> None:
    """One Aiken ``.aiken.txt`` per source (a ``.txt`` for the LMS, found as Aiken by qlint check): stem, lettered
    options, ``ANSWER:``. Nothing else survives."""
    for part in parts:
        chunks = [c for c in (_aiken_question(q, out) for q in part.questions) if c is not None]
        if chunks:
            text = "\n\n".join(chunks) + "\n"
            # a stem that opens with U+FEFF would read as the file's byte-order mark: a blank line goes first
            out.add(f"{part.place}.aiken.txt", "\n" + text if text.startswith("\ufeff") else text, len(chunks))
