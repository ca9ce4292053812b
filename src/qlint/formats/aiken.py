"""Aiken: a stem line, lettered options (``A.`` or ``A)``, the space after it optional as in Moodle), then
``ANSWER: X``; questions apart by blank lines.

Aiken files are plain ``.txt``: a folder's ``.aiken`` and ``.aiken.txt`` files are read as Aiken, other ``.txt``
files only with ``--from aiken`` or a ``formats`` glob in the config; a ``.txt`` file named on the command line is
read as Aiken when it looks like it. Aiken holds no feedback, so the file gets one rationales-not-held finding
instead of a missing-rationale error for every option.

Every pattern here is matched at the start of a stripped line, with no quantifier that can give back what it took
(Python's possessive forms), so a line of a million spaces costs one pass.
"""
from __future__ import annotations

import re

from qlint.finding import Severity
from qlint.formats.base import Draft, build, decode_text, finding, on_time, text_lines
from qlint.limits import Limits
from qlint.problems import RATIONALES_NOT_HELD, SCHEMA
from qlint.sourcemap import ParsedFile
from qlint.formats.table import BY_NAME

_OPTION = re.compile(r"([A-Z])[ \t]*+[.)][ \t]*+(.*)", re.S)
_ANSWER = re.compile(r"ANSWER[ \t]*+:[ \t]*+(.*)", re.S | re.I)
_SEPARATORS = re.compile(r"[\s,;/&]+")


class _Question:
    def __init__(self, line: int) -> None:
        self.line = line
        self.stem: list[tuple[int, str]] = []
        # line, column, letter, and the text's lines (a line after an option continues it; joined once at the end,
        # since adding each to a growing string cost the square of its length)
        self.options: list[tuple[int, int, str, list[str]]] = []
        self.answer: tuple[int, int, str] | None = None


def _groups(text: str) -> list[_Question]:
    """Consecutive non-blank lines, each group one question; an ANSWER line also ends its question."""
    found: list[_Question] = []
    current: _Question | None = None
    for number, line in enumerate(text_lines(text), start=1):
        stripped = line.strip()
        if not stripped:
            current = None
            continue
        if current is None or current.answer is not None:
            current = _Question(number)
            found.append(current)
        indent = len(line) - len(line.lstrip())
        answer = _ANSWER.match(stripped)
        option = _OPTION.match(stripped)
        if answer:
            key = answer.group(1)
            current.answer = (number, indent + answer.start(1) + 1 if key else indent + 1, key)
        elif option and option.group(2) and (current.stem or current.options):
            current.options.append((number, indent + option.start(2) + 1, option.group(1), [option.group(2)]))
        elif current.options:   # a line after the options continues the last one
            current.options[-1][3].append(stripped)
        else:
            current.stem.append((number, line))
    return found


class AikenReader:
    name = "aiken"
    suffixes = BY_NAME["aiken"].suffixes + BY_NAME["aiken"].shared   # the format table's row

    def sniff(self, data: bytes, path: str) -> bool:
        head = data[:8192].decode("utf-8", "ignore")
        return bool(re.search(r"(?m)^[ \t]*ANSWER[ \t]*:[ \t]*[A-Z][ \t]*$", head)) and \
            bool(re.search(r"(?m)^[ \t]*[A-Z][.)]", head))

    def read(self, data: bytes, path: str, limits: Limits) -> ParsedFile:
        text, problems = decode_text(data, path)
        result = ParsedFile(path, findings=list(problems))
        if text is None:
            return result
        drafts = []
        for count, group in enumerate(_groups(text)):
            if count % 64 == 0:
                on_time(limits)   # reading counts against the file's time budget
            draft = self._draft(group, result)
            if draft is not None:
                drafts.append(draft)
        if not drafts and not result.findings:
            result.findings.append(finding(path, 1, 1, SCHEMA, "file holds no Aiken questions"))
        build(drafts, result, limits)
        if result.questions:
            self._no_rationales(result)
        return result

    @staticmethod
    def _no_rationales(result: ParsedFile) -> None:
        """One finding for the file: Aiken holds no feedback, so no option has a rationale."""
        first = result.questions[0]
        count = len(result.questions)
        result.rationales_not_held.update(q.question.id for q in result.questions)
        result.findings.append(finding(
            result.path, first.line, first.column, RATIONALES_NOT_HELD,
            f"Aiken cannot hold rationales: the {count} question{'s' if count != 1 else ''} of this file "
            f"{'have' if count != 1 else 'has'} none for any option; convert the bank (qlint convert --to yaml or "
            "--to gift) to give each option its rationale", severity=Severity.WARNING))

    def _draft(self, group: _Question, result: ParsedFile) -> Draft | None:
        column = len(group.stem[0][1]) - len(group.stem[0][1].lstrip()) + 1 if group.stem else 1
        draft = Draft({"stem": " ".join(line.strip() for _, line in group.stem)}, group.line, column)
        draft.positions["stem"] = (group.line, column)
        if group.answer is None:
            result.findings.append(finding(result.path, group.line, column, SCHEMA,
                                           "Aiken question has no 'ANSWER: X' line"))
            return None
        letters = [letter for _, _, letter, _ in group.options]
        line, col, key = group.answer
        key = key.strip()
        if key.upper() not in letters:
            named = [k for k in _SEPARATORS.split(key) if k]
            if len(named) > 1 and all(len(k) == 1 and k.isalpha() for k in named):
                message = (f"ANSWER names {key!r}: Aiken holds one key per question, a single letter; a question "
                           "with several keys needs a format that holds them (YAML, GIFT, Moodle XML, QTI)")
            else:
                shown = f"{key!r}" if key else "nothing"
                message = f"ANSWER names {shown}, not one of the options {', '.join(letters) or '(none)'}"
            result.findings.append(finding(result.path, line, col, SCHEMA, message))
            return None
        options = []
        for index, (number, col, letter, body) in enumerate(group.options):
            options.append({"text": " ".join(body), "correct": letter == key.upper()})
            draft.positions[f"options[{index}]"] = draft.positions[f"options[{index}].text"] = (number, col)
        draft.fields["options"] = options
        return draft


READER = AikenReader()
