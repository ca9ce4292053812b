"""GIFT, Moodle's text format, read with a grammar.

A file is split into questions at blank lines (as Moodle does); ``//`` comment lines are dropped and
``$CATEGORY:`` lines set the tags of the questions after them. Each question is parsed by the grammar below, so
a syntax error carries the line and column it was met at. Escapes (``\\{ \\} \\= \\~ \\# \\:``, ``\\n``) are
undone in every text. Multiple choice (``=right ~wrong``, weighted ``~%50%``) and true/false become questions;
other types (short answer, numeric, matching, essay, descriptions) are counted and reported once per file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from qlint.formats.base import Draft, build, decode_text, finding, unsupported
from qlint.formats.html import to_plain
from qlint.limits import Limits
from qlint.problems import PARSE_ERROR, SCHEMA
from qlint.sourcemap import ParsedFile, find_suppressions

# Each text terminal takes a run of ordinary characters at a time and an escape pair between runs, possessively:
# an alternation repeated per character (``(?:[^\\{}]|\\.)+``) made Python's regex engine keep a backtracking frame
# for every character of a token, 170 bytes a character (a 19.5 MB one-line file took 3.3 GB).
GRAMMAR = r"""
start: TITLE? STEM? answers STEM?      -> question
     | TITLE? STEM                     -> description
answers: "{" body "}"
?body: tf | numeric | choices | gfeedback? -> essay
tf: TFWORD feedback? feedback? gfeedback?
numeric: "#" (ATEXT feedback? | items)? gfeedback?
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
WS.4: /\s+/
%ignore WS
"""
_PARSER = Lark(GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=False, maybe_placeholders=False)

_ESCAPE = re.compile(r"\\(.)", re.S)
_FORMAT = re.compile(r"^\s*\[(html|moodle|plain|markdown)\]", re.I)


def unescape(text: str, kind: str = "moodle") -> str:
    """GIFT's backslash escapes undone and, in a question whose format is HTML (Moodle's default), HTML made
    plain."""
    if kind in ("html", "moodle") and ("<" in text or "&" in text):
        text = to_plain(text)   # before the escapes are undone: an escaped line break is not HTML whitespace
    return _ESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), text).strip()


def text_format(stem: str) -> tuple[str, str]:
    """A question's format, from the ``[html]``/``[plain]``/``[markdown]``/``[moodle]`` marker its text may open
    with (it applies to the whole question), and the text without it."""
    marker = _FORMAT.match(stem)
    return (marker.group(1).lower(), stem[marker.end():]) if marker else ("moodle", stem)


@dataclass
class _Block:
    text: str
    lines: list[int]   # file line of each of the block's lines
    category: str | None


def blocks(text: str) -> list[_Block]:
    """Questions' texts split at blank lines, comment lines left out; each knows the ``$CATEGORY`` above it."""
    found: list[_Block] = []
    lines: list[str] = []
    numbers: list[int] = []
    category: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("//"):
            continue
        if stripped.startswith("$CATEGORY:"):
            category = _category(stripped[len("$CATEGORY:"):])
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
    return found


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


def _weight(token: Token | None) -> float | None:
    return float(token.value.strip("%")) if token is not None else None


def _choices(tree: Tree, place: _Place, draft: Draft) -> str | None:
    """Options from ``=``/``~`` items; the question type's name when it is not multiple choice."""
    items = _sub(_sub(tree, "items")[0], "item")
    marks = [_tokens(i, "MARK")[0].value for i in items]
    texts = [_tokens(i, "ATEXT") for i in items]
    if any(t and "->" in t[0].value for t in texts) and "~" not in marks:
        return "matching"
    weights = [_weight(next(iter(_tokens(i, "WEIGHT")), None)) for i in items]
    if "~" not in marks:
        return "short answer"
    options = []
    for index, (item, mark, text, weight) in enumerate(zip(items, marks, texts, weights)):
        where = f"options[{index}]"
        mark_token = _tokens(item, "MARK")[0]
        draft.positions[where] = place(mark_token)
        option = {"text": unescape(text[0].value, place.kind) if text else "", "correct": mark == "=" or (weight or 0) > 0}
        draft.positions[f"{where}.text"] = place(text[0] if text else mark_token)
        feedback = _sub(item, "feedback")
        if feedback:
            fb = _tokens(feedback[0], "ATEXT")
            option["rationale"] = unescape(fb[0].value, place.kind) if fb else ""
            draft.positions[f"{where}.rationale"] = place(fb[0] if fb else mark_token)
        options.append(option)
    draft.fields["options"] = options
    if "=" not in marks and any(w is not None for w in weights):
        draft.fields["select"] = max(1, sum(1 for o in options if o["correct"]))
    _general(tree, place, draft)
    return None


def _general(tree: Tree, place: _Place, draft: Draft) -> None:
    general = _sub(tree, "gfeedback")
    if general:
        text = _tokens(general[0], "ATEXT")
        if text:
            draft.fields["explanation"] = unescape(text[0].value, place.kind)
            draft.positions["explanation"] = place(text[0])


def _truefalse(tree: Tree, place: _Place, draft: Draft) -> None:
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
            option["rationale"] = unescape(fb.value, place.kind)
            draft.positions[f"options[{index}].rationale"] = place(fb)
        options.append(option)
    draft.fields["options"] = options
    _general(tree, place, draft)


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
    kind = _truefalse(body, place, draft) if body.data == "tf" else _choices(body, place, draft)
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
        return block.lines[-1], len(block.text.splitlines()[-1]) + 1, "GIFT syntax error: the question ends before its '}'"
    token = getattr(exc, "token", None)
    return line, column, f"GIFT syntax error: unexpected {token.value if token is not None else 'text'!r}"


def _suppression_text(text: str) -> str:
    """``// qlint: ignore[...]`` comments read as the YAML loader's ``# qlint:`` comments, on the same lines."""
    return "\n".join("#" + line.strip()[2:] if line.strip().startswith("//") else line for line in text.splitlines())


class GiftReader:
    name = "gift"
    suffixes = (".gift",)

    def sniff(self, data: bytes, path: str) -> bool:
        head = data[:4096].decode("utf-8", "ignore")
        return bool(re.search(r"(^|\n)\s*(::[^\n]*::|\$CATEGORY:)", head)) or bool(re.search(r"\{\s*[=~]", head))

    def read(self, data: bytes, path: str, limits: Limits) -> ParsedFile:
        text, problems = decode_text(data, path)
        result = ParsedFile(path, findings=list(problems))
        if text is None:
            return result
        if "qlint:" in text:
            result.suppressions = find_suppressions(_suppression_text(text))
        drafts: list[Draft] = []
        skipped: dict[str, tuple[int, int, int]] = {}
        for block in blocks(text):
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
            elif outcome.kind and outcome.kind != "description":
                count, line, column = skipped.get(outcome.kind, (0, block.lines[0], 1))
                skipped[outcome.kind] = (count + 1, line, column)
        if not drafts and not skipped and not result.findings:
            result.findings.append(finding(path, 1, 1, SCHEMA, "file holds no GIFT questions"))
        build(drafts, result)
        result.findings += unsupported(path, skipped)
        return result


READER = GiftReader()
