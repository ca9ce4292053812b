"""Moodle XML (``<quiz>``): ``multichoice`` (one key or several, by fraction) and ``truefalse`` questions.

``<name>`` becomes the id where unique in the file; per-answer ``<feedback>`` the option's rationale;
``<generalfeedback>`` the explanation; ``<tags>`` and the ``category`` pseudo-questions the tags. HTML text
(escaped or CDATA) is made plain for the rules; positions point at the line of the element that holds it.
"""
from __future__ import annotations

from qlint.formats import xmlsafe
from qlint.formats.base import Draft, build, finding, unsupported
from qlint.formats.gift import _category
from qlint.limits import Limits
from qlint.problems import SCHEMA
from qlint.sourcemap import ParsedFile

_NOT_CHECKED = {"essay": "essay", "numerical": "numeric", "shortanswer": "short answer", "matching": "matching",
                "cloze": "cloze", "multianswer": "cloze", "calculated": "calculated", "ddwtos": "drag and drop",
                "gapselect": "gap select", "description": "description", "randomsamatch": "matching"}


def _text(element, name: str):
    """The ``<text>`` inside ``<name>`` (Moodle wraps every text so), or None."""
    holder = xmlsafe.child(element, name)
    return xmlsafe.child(holder, "text") if holder is not None else None


def _plain(text) -> str:
    """A ``<text>``'s content for the rules: HTML made plain, unless its holder says it is plain text."""
    holder = text.getparent() if text is not None else None
    literal = holder is not None and holder.get("format") in ("plain_text", "markdown")
    return xmlsafe.plain(text, literal=literal)


def _fraction(answer) -> float:
    try:
        return float(answer.get("fraction", "0"))
    except ValueError:
        return 0.0


class MoodleReader:
    name = "moodle-xml"
    suffixes = (".xml",)

    def sniff(self, data: bytes, path: str) -> bool:
        head = data[:4096]
        # Canvas packages hold a <quiz> of their own (assessment_meta.xml): settings, not questions
        return b"<quiz" in head and b"questestinterop" not in head and b"canvas.instructure.com" not in head

    def read(self, data: bytes, path: str, limits: Limits) -> ParsedFile:
        root, problems = xmlsafe.parse(data, path)
        result = ParsedFile(path, findings=problems)
        if root is None:
            return result
        if xmlsafe.local(root) != "quiz":
            result.findings.append(finding(path, root.sourceline or 1, 1, SCHEMA,
                                           f"Moodle XML must have <quiz> as its root, not <{xmlsafe.local(root)}>"))
            return result
        lines = xmlsafe.source_lines(data)
        result.suppressions = xmlsafe.suppressions(data)
        drafts: list[Draft] = []
        skipped: dict[str, tuple[int, int, int]] = {}
        category = None
        for question in xmlsafe.children(root, "question"):
            kind = question.get("type", "")
            line, column = xmlsafe.column(lines, question)
            if kind == "category":
                text = _text(question, "category")
                category = _category(text.text or "") if text is not None else None
            elif kind == "description":   # text shown between questions, not a question
                continue
            elif kind in ("multichoice", "truefalse"):
                drafts.append(self._draft(question, kind, category, lines))
            else:
                label = _NOT_CHECKED.get(kind, kind or "untyped")
                count, first_line, first_column = skipped.get(label, (0, line, column))
                skipped[label] = (count + 1, first_line, first_column)
        if not drafts and not skipped:
            result.findings.append(finding(path, root.sourceline or 1, 1, SCHEMA, "Moodle XML file holds no questions"))
        build(drafts, result)
        result.findings += unsupported(path, skipped)
        return result

    def _draft(self, question, kind: str, category: str | None, lines: list[str]) -> Draft:
        line, column = xmlsafe.column(lines, question)
        name = _text(question, "name")
        draft = Draft({}, line, column, name=xmlsafe.plain(name) if name is not None else None)
        draft.positions["id"] = xmlsafe.column(lines, name) if name is not None else (line, column)
        stem = _text(question, "questiontext")
        draft.fields["stem"] = _plain(stem)
        draft.positions["stem"] = xmlsafe.column(lines, stem if stem is not None else question)
        general = _text(question, "generalfeedback")
        if general is not None and _plain(general):
            draft.fields["explanation"] = _plain(general)
            draft.positions["explanation"] = xmlsafe.column(lines, general)
        options = []
        for index, answer in enumerate(xmlsafe.children(question, "answer")):
            text = xmlsafe.child(answer, "text")
            body = _plain(text) if text is not None else ""
            if kind == "truefalse":
                body = {"true": "True", "false": "False"}.get(body.strip().lower(), body)
            option: dict = {"text": body, "correct": _fraction(answer) > 0}
            where = f"options[{index}]"
            draft.positions[where] = xmlsafe.column(lines, answer)
            draft.positions[f"{where}.text"] = xmlsafe.column(lines, text if text is not None else answer)
            feedback = _text(answer, "feedback")
            if feedback is not None and _plain(feedback):
                option["rationale"] = _plain(feedback)
                # the <feedback> holder: its <text> may share a line with the answer's own <text>
                draft.positions[f"{where}.rationale"] = xmlsafe.column(lines, feedback.getparent())
            options.append(option)
        draft.fields["options"] = options
        single = xmlsafe.child(question, "single")
        if kind == "multichoice" and single is not None and (single.text or "").strip().lower() in ("false", "0"):
            draft.fields["select"] = max(1, sum(1 for o in options if o["correct"]))
        texts = [xmlsafe.child(tag, "text") for tag in xmlsafe.descendants(question, "tag")]
        tags = ([category] if category else []) + [xmlsafe.plain(t) for t in texts if t is not None and xmlsafe.plain(t)]
        if tags:
            draft.fields["tags"] = tags
        return draft


READER = MoodleReader()
