"""Moodle XML (``<quiz>``): ``multichoice`` (one key or several, by fraction) and ``truefalse`` questions.

``<name>`` becomes the id where unique in the file; per-answer ``<feedback>`` the option's rationale;
``<generalfeedback>`` the explanation; ``<tags>`` and the ``category`` pseudo-questions the tags. Text is read by
its ``format`` as Moodle shows it: HTML (escaped or CDATA) made plain, Moodle's auto-format and markdown with the
author's spaces and line breaks, plain text as written. Positions point at the line of the element that holds it.

Fractions are Moodle's: in a single-answer question the key is the answer worth 100%, and an answer worth part of
the marks is a distractor with partial credit (``credit``), never a second key; in a multiple-answer question
every answer with a positive fraction is a key. A fraction other than 0 or 100 is kept as the option's credit.
"""
from __future__ import annotations

from qlint.formats import xmlsafe
from qlint.formats.base import Draft, build, finding, on_time, unsupported
from qlint.formats.gift import _category
from qlint.limits import Limits
from qlint.problems import SCHEMA
from qlint.sourcemap import ParsedFile
from qlint.formats.table import BY_NAME

_NOT_CHECKED = {"essay": "essay", "numerical": "numeric", "shortanswer": "short answer", "matching": "matching",
                "cloze": "cloze", "multianswer": "cloze", "calculated": "calculated", "ddwtos": "drag and drop",
                "gapselect": "gap select", "description": "description", "randomsamatch": "matching"}
_FULL = 99.9999   # Moodle stores 1/3 as 0.3333333: a fraction this close to 100% is the whole mark
# the grades Moodle's importer accepts for an answer (question_bank::fraction_options_full), in percent, either sign
_GRADES = (100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, 14.28571, 12.5,
           11.11111, 10, 5, 0)


def _text(element, name: str):
    """The ``<text>`` inside ``<name>`` (Moodle wraps every text so), or None."""
    holder = xmlsafe.child(element, name)
    return xmlsafe.child(holder, "text") if holder is not None else None


def _plain(text, images: bool = False) -> str:
    """A ``<text>``'s content for the rules, read by the format its holder names (Moodle's default is its
    auto-format: HTML allowed, the author's spaces and line breaks kept)."""
    holder = text.getparent() if text is not None else None
    kind = (holder.get("format") if holder is not None else None) or "moodle_auto_format"
    if kind == "html":
        return xmlsafe.plain(text, images=images)
    if kind in ("plain_text", "markdown"):
        return xmlsafe.plain(text, literal=True, keep_spacing=True, images=images)
    return xmlsafe.plain(text, keep_spacing=True, images=images).strip(" \t")


def _fraction(answer) -> float:
    try:
        return float(answer.get("fraction", "0"))
    except ValueError:
        return 0.0


class MoodleReader:
    name = "moodle-xml"
    suffixes = BY_NAME["moodle-xml"].suffixes + BY_NAME["moodle-xml"].shared   # the format table's row

    def sniff(self, data: bytes, path: str) -> bool:
        return xmlsafe.bank_format(xmlsafe.prolog(xmlsafe.chunked(data))) == "moodle-xml"

    def read(self, data: bytes, path: str, limits: Limits) -> ParsedFile:
        document, problems = xmlsafe.parse(data, path, limits)
        result = ParsedFile(path, findings=problems)
        if document is None:
            return result
        root = document.root
        if xmlsafe.local(root) != "quiz":
            result.findings.append(finding(path, root.sourceline or 1, 1, SCHEMA,
                                           f"Moodle XML must have <quiz> as its root, not <{xmlsafe.local(root)}>"))
            return result
        result.suppressions = xmlsafe.suppressions(document)
        drafts: list[Draft] = []
        skipped: dict[str, tuple[int, int, int]] = {}
        category = None
        for question in xmlsafe.children(root, "question"):
            on_time(limits)
            kind = question.get("type", "")
            if kind == "category":
                text = _text(question, "category")
                category = _category(text.text or "") if text is not None else None
            elif kind == "description":   # text shown between questions, not a question
                continue
            elif kind in ("multichoice", "truefalse"):
                drafts.append(_draft(question, kind, category, document.positions))
            else:
                label = _NOT_CHECKED.get(kind, kind or "untyped")
                count, first_line, first_column = skipped.get(label, (0, *document.positions(question)))
                skipped[label] = (count + 1, first_line, first_column)
        if not xmlsafe.children(root, "question"):
            result.findings.append(finding(path, root.sourceline or 1, 1, SCHEMA, "Moodle XML file holds no questions"))
        result.findings += _grades(root, path, document.positions)
        build(drafts, result, limits)
        result.findings += unsupported(path, skipped)
        return result


def _grades(root, path: str, where: xmlsafe.Positions) -> list:
    """An answer fraction that is not one of Moodle's grades: Moodle's importer refuses the whole question."""
    found = []
    for question in xmlsafe.children(root, "question"):
        if question.get("type") not in ("multichoice", "truefalse"):
            continue
        for answer in xmlsafe.children(question, "answer"):
            fraction = abs(_fraction(answer))
            if all(abs(fraction - grade) > 0.0001 for grade in _GRADES):
                nearest = min(_GRADES, key=lambda grade: abs(fraction - grade))
                found.append(finding(path, *where(answer), SCHEMA,
                                     f"answer fraction {answer.get('fraction')} is not a grade Moodle accepts "
                                     f"(nearest: {nearest:g}); Moodle's import refuses this question"))
    return found


def _draft(question, kind: str, category: str | None, where: xmlsafe.Positions) -> Draft:
    line, column = where(question)
    name = _text(question, "name")
    draft = Draft({}, line, column, name=xmlsafe.plain(name) if name is not None else None)
    draft.positions["id"] = where(name) if name is not None else (line, column)
    stem = _text(question, "questiontext")
    draft.fields["stem"] = _plain(stem, images=True)
    draft.positions["stem"] = where(stem if stem is not None else question)
    general = _text(question, "generalfeedback")
    if general is not None and _plain(general):
        draft.fields["explanation"] = _plain(general)
        draft.positions["explanation"] = where(general)
    single = xmlsafe.child(question, "single")
    several = kind == "multichoice" and single is not None and (single.text or "").strip().lower() in ("false", "0")
    # an answer left blank, worth nothing and without feedback is an empty slot of the form: Moodle drops it on import
    answers = [a for a in xmlsafe.children(question, "answer") if _fraction(a) != 0 or _plain(_text(a, "feedback"))
               or _plain(xmlsafe.child(a, "text"), images=True).strip()]
    options = [_option(answer, index, kind, several, draft, where) for index, answer in enumerate(answers)]
    draft.fields["options"] = options
    if several:
        draft.fields["select"] = max(1, sum(1 for o in options if o["correct"]))
    texts = [xmlsafe.child(tag, "text") for tag in xmlsafe.descendants(question, "tag")]
    tags = ([category] if category else []) + [xmlsafe.plain(t) for t in texts if t is not None and xmlsafe.plain(t)]
    if tags:
        draft.fields["tags"] = tags
    return draft


def _option(answer, index: int, kind: str, several: bool, draft: Draft, where: xmlsafe.Positions) -> dict:
    text = xmlsafe.child(answer, "text")
    # an answer's format sits on the <answer> itself
    literal = answer.get("format") in ("plain_text", "markdown")
    body = (xmlsafe.plain(text, literal=literal, keep_spacing=answer.get("format") != "html", images=True)
            if text is not None else "")
    if kind == "truefalse":
        body = {"true": "True", "false": "False"}.get(body.strip().lower(), body)
    fraction = _fraction(answer)
    option: dict = {"text": body if literal else body.strip(" \t"),
                    "correct": fraction > 0 if several else fraction >= _FULL}
    if fraction != 0 and not option["correct"] or several and 0 < fraction < _FULL or fraction < 0:
        option["credit"] = round(fraction, 5)
    at = f"options[{index}]"
    draft.positions[at] = where(answer)
    draft.positions[f"{at}.text"] = where(text if text is not None else answer)
    feedback = _text(answer, "feedback")
    if feedback is not None and _plain(feedback):
        option["rationale"] = _plain(feedback)
        # the <feedback> holder: its <text> may share a line with the answer's own <text>
        draft.positions[f"{at}.rationale"] = where(feedback.getparent())
    return option


READER = MoodleReader()
