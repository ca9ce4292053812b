"""Aiken: a stem line, lettered options (``A.`` or ``A)``), then ``ANSWER: X``; questions apart by blank lines.

Aiken files are plain ``.txt``: a folder's ``.txt`` files are read as Aiken only with ``--from aiken`` or a
``formats`` glob in the config; a ``.txt`` file named on the command line is read as Aiken when it looks like it.
"""
from __future__ import annotations

import re

from qlint.formats.base import Draft, build, decode_text, finding
from qlint.limits import Limits
from qlint.problems import SCHEMA
from qlint.sourcemap import ParsedFile

_OPTION = re.compile(r"^\s*([A-Z])\s*[.)]\s+(.*\S)\s*$")
_ANSWER = re.compile(r"^\s*ANSWER\s*:\s*(\S*)\s*$", re.I)


class _Question:
    def __init__(self, line: int) -> None:
        self.line = line
        self.stem: list[tuple[int, str]] = []
        self.options: list[tuple[int, int, str, str]] = []   # line, column, letter, text
        self.answer: tuple[int, int, str] | None = None


def _groups(text: str) -> list[_Question]:
    """Consecutive non-blank lines, each group one question; an ANSWER line also ends its question."""
    found: list[_Question] = []
    current: _Question | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            current = None
            continue
        if current is None or current.answer is not None:
            current = _Question(number)
            found.append(current)
        answer = _ANSWER.match(line)
        option = _OPTION.match(line)
        if answer:
            current.answer = (number, line.index(answer.group(1)) + 1 if answer.group(1) else 1, answer.group(1))
        elif option and (current.stem or current.options):
            current.options.append((number, option.start(2) + 1, option.group(1), option.group(2)))
        elif current.options:   # a line after the options continues the last one
            n, c, letter, body = current.options[-1]
            current.options[-1] = (n, c, letter, f"{body} {line.strip()}")
        else:
            current.stem.append((number, line))
    return found


class AikenReader:
    name = "aiken"
    suffixes = (".aiken",)

    def sniff(self, data: bytes, path: str) -> bool:
        head = data[:8192].decode("utf-8", "ignore")
        return bool(re.search(r"(?m)^\s*ANSWER\s*:\s*[A-Z]\s*$", head)) and bool(re.search(r"(?m)^\s*[A-Z][.)]\s", head))

    def read(self, data: bytes, path: str, limits: Limits) -> ParsedFile:
        text, problems = decode_text(data, path)
        result = ParsedFile(path, findings=list(problems))
        if text is None:
            return result
        drafts = []
        for group in _groups(text):
            draft = self._draft(group, result)
            if draft is not None:
                drafts.append(draft)
        if not drafts and not result.findings:
            result.findings.append(finding(path, 1, 1, SCHEMA, "file holds no Aiken questions"))
        return build(drafts, result)

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
        if key.upper() not in letters:
            shown = f"'{key}'" if key else "nothing"
            result.findings.append(finding(result.path, line, col, SCHEMA,
                                           f"ANSWER names {shown}, not one of the options {', '.join(letters) or '(none)'}"))
            return None
        options = []
        for index, (number, col, letter, body) in enumerate(group.options):
            options.append({"text": body, "correct": letter == key.upper()})
            draft.positions[f"options[{index}]"] = draft.positions[f"options[{index}].text"] = (number, col)
        draft.fields["options"] = options
        return draft


READER = AikenReader()
