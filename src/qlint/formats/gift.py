"""GIFT, Moodle's text format, read with a grammar and Moodle's importer as the reference.

A file is split into questions at blank lines (as Moodle does; lines break at ``\\n``, ``\\r\\n`` and ``\\r`` only);
``//`` comment lines are dropped and ``$CATEGORY:`` lines set the tags of the questions after them. Each question is
parsed by the grammar below, so a syntax error carries the line and column it was met at. As in Moodle, every text
may open with a format marker (``[html]``, ``[moodle]``, ``[plain]``, ``[markdown]``; answers and feedback default to
the question's), only ``\\: \\# \\= \\{ \\} \\~ \\n \\\\`` are escapes (any other backslash is kept), and blank
answers (``~=answer``) are left out. Multiple choice and true/false become questions: in a question with an ``=``
answer (single answer) a weighted ``~%50%`` answer is a distractor with partial credit, in one without, the answers
with a positive weight are its keys. Other types (short answer, numeric, matching, essay, descriptions) are counted
and reported once per file.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from qlint.formats.base import Draft, build, decode_text, finding, on_time, text_lines, unsupported
from qlint.formats.html_text import to_plain
from qlint.limits import Limits
from qlint.finding import Severity
from qlint.problems import IMPORT_HAZARD, PARSE_ERROR, RATIONALES_NOT_HELD, SCHEMA
from qlint.sourcemap import CommentLine, ParsedFile, collect_suppressions
from qlint.formats.table import BY_NAME

# White space between tokens is what Moodle trims off (PHP's trim): a no-break space opening a text is text.
# Each text terminal takes a run of ordinary characters at a time and an escape pair between runs, possessively:
# an alternation repeated per character (``(?:[^\\{}]|\\.)+``) made Python's regex engine keep a backtracking frame
# for every character of a token, 170 bytes a character (a 19.5 MB one-line file took 3.3 GB).
GRAMMAR = r"""
start: TITLE? STEM? answers STEM?      -> question
     | TITLE? STEM                     -> description
answers: "{" body "}"
?body: tf | numeric | choices | gfeedback? -> essay
tf: TFWORD feedback? feedback? gfeedback?
numeric: "#" (ATEXT feedback? items? | items)? gfeedback?
choices: items gfeedback?
items: item+
item: MARK WEIGHT? ATEXT? feedback?
feedback: "#" ATEXT?
gfeedback: "####" ATEXT?

TITLE.3: /::(?:[^:\\]++|\\.|:(?!:))*+::/s
STEM: /(?:[^\\{}]++|\\.)++/s
ATEXT: /(?:[^\\{}=~#]++|\\.)++/s
MARK: "=" | "~"
WEIGHT.2: /%-?\d+(?:\.\d+)?%/
TFWORD.2: /(?i:true|false|t|f)(?![^\s#}])/
WS.4: /[ \t\n\r\x0b]+/
%ignore WS
"""
_PARSER = Lark(GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=False, maybe_placeholders=False)

_ESCAPE = re.compile(r"\\(.)", re.S)
_ESCAPED = {":": ":", "#": "#", "=": "=", "{": "{", "}": "}", "~": "~", "n": "\n", "\\": "\\"}
_FORMATS = frozenset(("html", "moodle", "plain", "markdown"))
_TRIM = " \t\n\r\0\x0b"   # what PHP's trim() takes off, which Moodle applies to every text


def unescape(text: str, kind: str = "moodle") -> str:
    """GIFT's backslash escapes undone as Moodle does (``\\: \\# \\= \\{ \\} \\~ \\n \\\\``; a backslash before any
    other character stays) and, in a text whose format is HTML (Moodle's default), HTML made plain."""
    if kind in ("html", "moodle") and ("<" in text or "&" in text):
        if kind == "moodle":   # Moodle's own format shows a line break of the file as one
            text = text.replace("\n", "<br>")
        text = to_plain(text)   # before the escapes are undone: an escaped line break is not HTML whitespace
    return _ESCAPE.sub(lambda m: _ESCAPED.get(m.group(1), m.group(0)), text).strip(_TRIM)


def text_format(text: str, default: str = "moodle") -> tuple[str, str]:
    """A text's format and the text without its marker: as in Moodle, a trimmed text that opens with ``[html]``,
    ``[moodle]``, ``[plain]`` or ``[markdown]`` (lower case) has that format, any other text ``default`` (for answers
    and feedback, the question's format)."""
    stripped = text.lstrip(_TRIM)
    if stripped.startswith("["):
        end = stripped.find("]")
        if end > 0 and stripped[1:end] in _FORMATS:
            return stripped[1:end], stripped[end + 1:]
    return default, text


def read_text(raw: str, default: str = "moodle") -> str:
    """A GIFT text as the rules read it: its format marker taken off, escapes undone, HTML made plain."""
    kind, body = text_format(raw, default)
    return unescape(body, kind)


@dataclass
class _Block:
    text: str
    lines: list[int]   # file line of each of the block's lines
    category: str | None


def blocks(text: str) -> tuple[list[_Block], list[int]]:
    """Questions' texts split at blank lines, comment lines left out; each knows the ``$CATEGORY`` above it. Also
    the lines of ``$CATEGORY:`` lines with question text right below them (no blank line between)."""
    found: list[_Block] = []
    lines: list[str] = []
    numbers: list[int] = []
    category: str | None = None
    crowded: list[int] = []
    after_category = 0
    for number, line in enumerate(text_lines(text), start=1):
        stripped = line.strip(_TRIM)   # as Moodle trims: a line of no-break spaces is not blank
        if stripped.startswith("//"):
            continue
        if after_category and stripped and not stripped.startswith("$CATEGORY:"):
            crowded.append(after_category)
        after_category = 0
        if stripped.startswith("$CATEGORY:"):
            category = _category(stripped[len("$CATEGORY:"):])
            after_category = number
            stripped = ""
        if not stripped:
            if lines:
                found.append(_Block("\n".join(lines), numbers, category))
            lines, numbers = [], []
            continue
        lines.append(line)
        numbers.append(number)
    if lines:
        found.append(_Block("\n".join(lines), numbers, category))
    return found, crowded


def _category(raw: str) -> str:
    parts = [p for p in raw.strip().split("/") if p]
    while parts and parts[0] in ("$course$", "$cat1$", "$cat2$", "$cat3$", "$module$", "$system$", "top"):
        parts = parts[1:]
    return "/".join(parts)


class _Place:
    """Block (line, column) -> file (line, column)."""

    def __init__(self, block: _Block, kind: str = "moodle") -> None:
        self.block = block
        self.kind = kind   # the question's text format, which its answers and feedback share

    def __call__(self, token: Token | None, default: tuple[int, int] = (1, 1)) -> tuple[int, int]:
        if token is None or token.line is None:
            return default
        line = self.block.lines[min(token.line, len(self.block.lines)) - 1]
        return line, token.column


def _tokens(tree: Tree, kind: str) -> list[Token]:
    return [c for c in tree.children if isinstance(c, Token) and c.type == kind]


def _sub(tree: Tree, name: str) -> list[Tree]:
    return [c for c in tree.children if isinstance(c, Tree) and c.data == name]


@dataclass
class _Outcome:
    draft: Draft | None
    kind: str | None   # an unsupported question's type
    no_feedback: bool = False   # a true/false question without feedback for its answers


def _weight(token: Token | None) -> float | None:
    return float(token.value.strip("%")) if token is not None else None


def _choices(tree: Tree, place: _Place, draft: Draft) -> str | None:
    """Options from ``=``/``~`` items; the question type's name when it is not multiple choice.

    As in Moodle, a question with an ``=`` answer is single-answer: its keys are the ``=`` answers (and any weighted
    100%), a weighted ``~%50%`` answer is a distractor that earns partial credit. In one without, every answer with
    a positive weight is a key and ``select`` counts them. Blank answers are left out, as Moodle leaves them out
    when it saves the question (``~=answer`` writes one before every key)."""
    items = _sub(_sub(tree, "items")[0], "item")
    marks = [_tokens(i, "MARK")[0].value for i in items]
    texts = [_tokens(i, "ATEXT") for i in items]
    if any(t and "->" in t[0].value for t in texts) and "~" not in marks:
        return "matching"
    weights = [_weight(next(iter(_tokens(i, "WEIGHT")), None)) for i in items]
    if "~" not in marks:
        return "short answer"
    single = "=" in marks
    options = []
    for item, mark, text, weight in zip(items, marks, texts, weights):
        raw = text[0].value if text else ""
        if mark == "=" and weight is not None:   # Moodle reads no weight after "=": "=%50% off" is the text
            token = _tokens(item, "WEIGHT")[0]
            raw = place.block.text[token.start_pos:text[0].end_pos] if text else token.value
            weight = None
        if not unescape(text_format(raw, place.kind)[1], "plain"):
            continue   # blank as written (an answer of markup alone is not blank to Moodle: its text is checked)
        body = read_text(raw, place.kind)
        feedback = _sub(item, "feedback")
        where = f"options[{len(options)}]"
        mark_token = _tokens(item, "MARK")[0]
        draft.positions[where] = place(mark_token)
        correct = mark == "=" or (weight or 0) >= 100 if single else (weight or 0) > 0
        option: dict = {"text": body, "correct": correct}
        if weight and not (single and correct):   # a single-answer key earns full marks: nothing to keep
            option["credit"] = weight
        draft.positions[f"{where}.text"] = place(text[0] if text else mark_token)
        if feedback:
            fb = _tokens(feedback[0], "ATEXT")
            option["rationale"] = read_text(fb[0].value, place.kind) if fb else ""
            draft.positions[f"{where}.rationale"] = place(fb[0] if fb else mark_token)
        options.append(option)
    draft.fields["options"] = options
    if not single and any(w is not None for w in weights):
        draft.fields["select"] = max(1, sum(1 for o in options if o["correct"]))
    _general(tree, place, draft)
    return None


def _general(tree: Tree, place: _Place, draft: Draft) -> None:
    general = _sub(tree, "gfeedback")
    if general:
        text = _tokens(general[0], "ATEXT")
        explanation = read_text(text[0].value, place.kind) if text else ""
        if explanation:
            draft.fields["explanation"] = explanation
            draft.positions["explanation"] = place(text[0])


def _truefalse(tree: Tree, place: _Place, draft: Draft) -> bool:
    """True/false as two options; whether the question has feedback for its answers."""
    word = _tokens(tree, "TFWORD")[0]
    right = word.value.strip().upper() in ("T", "TRUE")
    feedback = [_tokens(f, "ATEXT") for f in _sub(tree, "feedback")]
    # Moodle: the first feedback is shown for the wrong answer, the second for the right one
    wrong_fb = feedback[0][0] if len(feedback) > 0 and feedback[0] else None
    right_fb = feedback[1][0] if len(feedback) > 1 and feedback[1] else None
    options = []
    for index, (text, is_key) in enumerate((("True", right), ("False", not right))):
        option: dict = {"text": text, "correct": is_key}
        draft.positions[f"options[{index}]"] = draft.positions[f"options[{index}].text"] = place(word)
        fb = right_fb if is_key else wrong_fb
        if fb is not None:
            option["rationale"] = read_text(fb.value, place.kind)
            draft.positions[f"options[{index}].rationale"] = place(fb)
        options.append(option)
    draft.fields["options"] = options
    _general(tree, place, draft)
    return bool(feedback)


def _question(tree: Tree, block: _Block) -> _Outcome:
    place = _Place(block)
    first = tree.children[0] if tree.children and isinstance(tree.children[0], Token) else None
    start = place(first, (block.lines[0], 1))
    titles = _tokens(tree, "TITLE")
    if tree.data == "description":
        return _Outcome(None, "description")
    answers = _sub(tree, "answers")[0]
    body = answers.children[0] if answers.children else Tree("essay", [])
    if body.data in ("essay", "numeric"):
        return _Outcome(None, body.data)
    draft = Draft({}, *start, name=unescape(titles[0].value[2:-2], "plain") if titles else None)
    draft.positions["id"] = start
    split = next(i for i, c in enumerate(tree.children) if c is answers)
    before = _tokens(Tree("before", tree.children[:split]), "STEM")
    after = _tokens(Tree("after", tree.children[split + 1:]), "STEM")   # a "missing word" sentence's rest
    kind, head = text_format(before[0].value if before else "")
    place.kind = kind
    stem = unescape(head, kind)
    if after:   # "missing word": the answers stand for a blank in the sentence
        stem = f"{stem} _____ {unescape(after[0].value, kind)}".strip()
    draft.fields["stem"] = stem
    draft.positions["stem"] = place(before[0] if before else (after[0] if after else None), start)
    if block.category:
        draft.fields["tags"] = [block.category]
    if body.data == "tf":
        return _Outcome(draft, None, no_feedback=not _truefalse(body, place, draft))
    kind = _choices(body, place, draft)
    return _Outcome(None, kind) if kind else _Outcome(draft, None)


def _error(exc: UnexpectedInput, block: _Block) -> tuple[int, int, str]:
    line = block.lines[min(max(exc.line, 1), len(block.lines)) - 1] if exc.line and exc.line > 0 else block.lines[-1]
    column = exc.column if exc.column and exc.column > 0 else 1
    if isinstance(exc, UnexpectedCharacters):
        char = block.text[exc.pos_in_stream] if exc.pos_in_stream < len(block.text) else ""
        what = {"{": "an unescaped '{' (write \\{ for a literal brace)",
                "}": "an unescaped '}' (write \\} for a literal brace)"}.get(char, f"unexpected {char!r}")
        return line, column, f"GIFT syntax error: {what}"
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        return block.lines[-1], len(block.text.rsplit("\n", 1)[-1]) + 1, "GIFT syntax error: the question ends before its '}'"
    token = getattr(exc, "token", None)
    return line, column, f"GIFT syntax error: unexpected {token.value if token is not None else 'text'!r}"


_COMMENT = BY_NAME["gift"].comment   # "//"
_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def _comment_lines(text: str) -> Iterator[CommentLine]:
    """GIFT's lines as suppressions see them: a ``//`` line is a comment (``// qlint: ignore[...]`` a suppression,
    alone on its line), every other line question text (a ``#`` there opens feedback, or is a stem's), so no text
    can pass for a suppression. The characters ``str.splitlines`` would also break at are spaces here, so that the
    lines stay the file's; lines are trimmed as ``blocks()`` trims them."""
    for number, line in enumerate(text_lines(_OTHER_BREAKS.sub(" ", text)), start=1):
        line = line.strip(_TRIM)
        if line.startswith(_COMMENT):
            if "qlint:" in line:
                yield CommentLine(number, False, 1, line[len(_COMMENT):], True)
        elif line:
            yield CommentLine(number, True)


class GiftReader:
    name = "gift"
    suffixes = BY_NAME["gift"].suffixes + BY_NAME["gift"].shared   # the format table's row

    def sniff(self, data: bytes, path: str) -> bool:
        head = data[:4096].decode("utf-8", "ignore")
        return bool(re.search(r"(^|\n)\s*(::[^\n]*::|\$CATEGORY:)", head)) or bool(re.search(r"\{\s*[=~]", head))

    def read(self, data: bytes, path: str, limits: Limits) -> ParsedFile:
        text, problems = decode_text(data, path)
        result = ParsedFile(path, findings=list(problems))
        if text is None:
            return result
        if "qlint:" in text:
            result.suppressions = collect_suppressions(_comment_lines(text))
        drafts: list[Draft] = []
        skipped: dict[str, tuple[int, int, int]] = {}
        found, crowded = blocks(text)
        for line in crowded:
            result.findings.append(finding(
                path, line, 1, IMPORT_HAZARD, "no blank line after $CATEGORY: Moodle reads the lines below it, up to the "
                "next blank line, as part of the category's name and loses the question they hold; put a blank line "
                "after the $CATEGORY: line", severity=Severity.WARNING))
        untold: list[Draft] = []
        for count, block in enumerate(found):
            if count % 64 == 0:
                on_time(limits)   # reading counts against the file's time budget
            try:
                tree = _PARSER.parse(block.text)
            except UnexpectedInput as exc:
                line, column, message = _error(exc, block)
                result.findings.append(finding(path, line, column, PARSE_ERROR, message))
                continue
            except (LarkError, RecursionError) as exc:
                result.findings.append(finding(path, block.lines[0], 1, PARSE_ERROR, f"GIFT syntax error: {exc}"))
                continue
            outcome = _question(tree, block)
            if outcome.draft is not None:
                drafts.append(outcome.draft)
                if outcome.no_feedback:
                    untold.append(outcome.draft)
            elif outcome.kind and outcome.kind != "description":
                count, line, column = skipped.get(outcome.kind, (0, block.lines[0], 1))
                skipped[outcome.kind] = (count + 1, line, column)
        if not drafts and not skipped and not result.findings:
            result.findings.append(finding(path, 1, 1, SCHEMA, "file holds no GIFT questions"))
        build(drafts, result, limits)
        result.findings += unsupported(path, skipped)
        _no_feedback(untold, result)
        return result


def _no_feedback(drafts: list[Draft], result: ParsedFile) -> None:
    """One rationales-not-held finding for each true/false question without feedback, instead of a missing-rationale
    finding for each of its two answers."""
    loaded = {q.question.id for q in result.questions}
    for draft in drafts:
        qid = draft.fields.get("id")
        if qid not in loaded:
            continue
        result.rationales_not_held.add(qid)
        result.findings.append(finding(
            result.path, draft.line, draft.column, RATIONALES_NOT_HELD,
            "true/false question without feedback, so neither answer has a rationale: write them as "
            "{TRUE#shown for the wrong answer#shown for the right one}", qid, severity=Severity.WARNING))


READER = GiftReader()
