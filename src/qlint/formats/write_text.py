"""Writers for the text formats: qlint's YAML, GIFT and Aiken."""
from __future__ import annotations

import html
import re

import yaml

from qlint.formats.write import Output, Part, common_losses
from qlint.model import Question


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
        options.append(item)
    entry["options"] = options
    for name in ("explanation", "difficulty", "objective"):
        if getattr(q, name) is not None:
            entry[name] = getattr(q, name)
    if q.tags:
        entry["tags"] = list(q.tags)
    if q.meta:
        entry["meta"] = q.meta
    if q.qlint is not None and q.qlint.ignore:
        entry["qlint"] = {"ignore": dict(q.qlint.ignore)}
    return entry


def write_yaml(parts: list[Part], out: Output) -> None:
    """qlint's bank layout: one file per source file, its questions under ``questions:``, ids kept."""
    for part in parts:
        body = yaml.safe_dump({"questions": [_yaml_question(q) for q in part.questions]}, sort_keys=False,
                              allow_unicode=True, width=110, default_flow_style=False)
        out.add(f"{part.stem}.yaml", f"# converted by qlint from {part.source}\n{body}")


_GIFT_SPECIAL = re.compile(r"([\\~=#{}:])")


def gift_text(text: str, markup: bool = True) -> str:
    """Plain text as GIFT text: HTML's ``&<>`` escaped (question text is HTML; a title is not), GIFT's specials
    backslashed, line breaks as ``\\n``."""
    text = html.escape(text, quote=False) if markup else text
    return _GIFT_SPECIAL.sub(r"\\\1", text).replace("\r", "").replace("\n", "\\n")


def _weight(keys: int) -> str:
    return f"{100 / keys:.5f}".rstrip("0").rstrip(".")


def _gift_question(q: Question, out: Output) -> str:
    common_losses(q, out, frozenset(("tags",)))
    lines = [f"::{gift_text(q.id, markup=False)}::[html]{gift_text(q.stem)} {{"]
    keys = len(q.keys)
    every = keys == len(q.options)   # "=" alone on every answer would make it a short-answer question
    for index, option in enumerate(q.options):
        if q.select > 1 and keys:
            mark = f"~%{_weight(keys)}%" if option.correct else "~%-100%"
        elif every and index:
            mark = "~%100%"
        else:
            mark = "=" if option.correct else "~"
        if option.text.startswith("%") and not mark.endswith("%"):   # GIFT cannot escape '%': give the weight
            mark += "%100%" if option.correct else "%0%"
        line = f"  {mark}{gift_text(option.text)}"
        if option.rationale is not None:
            line += f"#{gift_text(option.rationale)}"
        lines.append(line)
    if q.explanation is not None:
        lines.append(f"  ####{gift_text(q.explanation)}")
    if q.select > 1 and keys != q.select:
        out.cannot_hold("a 'select' that differs from the number of keys")
    lines.append("}")
    return "\n".join(lines)


def write_gift(parts: list[Part], out: Output) -> None:
    """One ``.gift`` file per source; a question's first tag becomes its ``$CATEGORY``."""
    for part in parts:
        chunks = [f"// converted by qlint from {part.source}"]
        category = None
        for q in part.questions:
            wanted = q.tags[0] if q.tags else None
            if wanted != category and wanted is not None:
                chunks.append(f"$CATEGORY: $course$/top/{wanted}")
            category = wanted if wanted is not None else category
            if len(q.tags) > 1:
                out.cannot_hold("more than one tag")
            chunks.append(_gift_question(q, out))
        out.add(f"{part.stem}.gift", "\n\n".join(chunks) + "\n")


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
    """One Aiken ``.txt`` per source: stem, lettered options, ``ANSWER:``. Nothing else survives."""
    for part in parts:
        chunks = [c for c in (_aiken_question(q, out) for q in part.questions) if c is not None]
        if chunks:
            out.add(f"{part.stem}.txt", "\n\n".join(chunks) + "\n")
