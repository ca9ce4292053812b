"""blank-in-stem: a fill-in-the-blank gap in the middle of the stem, with the sentence going on after it."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.wordlists import word_lists
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

_DATA = word_lists("blank-in-stem")
_IGNORE = re.compile(r"_x[0-9A-Fa-f]{4}_")   # character escapes some exports leave in text
_BLANK = re.compile("|".join((
    r"_{2,}",                                   # ____ (may touch letters: a____ firm)
    r"(?<![A-Za-z0-9\\_])_(?![A-Za-z0-9_])",    # a lone "_" that is no identifier or subscript
    r"\[\s*(?:blank|\.\.\.|…)\s*\]",            # [blank] [...]
    r"\(\s*blank\s*\)|\(\s{1,5}\)",             # (blank) ( )
    r"(?<=\s)\.{4,}(?=\s|[,;:])",               # .... as a gap between words
    r"(?<=\s)…(?=\s+[a-z])",                    # … then a lower-case continuation
)), re.I)
_QMARK = re.compile(r"\(\s*\?\s*\)|(?<=[=+\-×*/÷x\[(])\s*\?(?=\s*[=+\-×*/÷x\])^])")
_WHAT = re.compile(r"\b(?P<prev>[a-z']+)\s+what\s+(?:" + "|".join(_DATA["what_followers"]) + r")\b", re.I)
_EXEMPT = frozenset(_DATA["what_exempt_before"])
_EOS = re.compile(r"[.!?](?:\s|$)|\n")
_WORD = re.compile(r"[A-Za-z0-9]")


class Options(RuleOptions):
    # reviewers of real banks judged "... means what in Latin?" a complete direct question and "12 + ? = 20" the
    # usual way to write an unknown, not blanks; human flaw labels count both. The rule is off by default.
    flag_what_placeholder: bool = Field(default=True, description=(
        "report a 'what' standing in for a missing word mid-statement ('Bats use echoes to find what in the dark?')"))
    flag_question_mark_placeholder: bool = Field(default=True, description=(
        "report a '?' standing for the unknown inside an expression ('12 + ? x 3 = 24')"))


_QMARK_BEFORE = frozenset("=+-×*/÷x[(")


def _maybe_qmark(stem: str) -> bool:
    """Whether some "?" follows (past spaces) a character _QMARK needs before it: a cheap superset test."""
    at = stem.find("?")
    while at >= 0:
        before = stem[:at].rstrip()
        if before and before[-1] in _QMARK_BEFORE:
            return True
        at = stem.find("?", at + 1)
    return False


def _text_follows(stem: str, end: int) -> bool:
    rest = stem[end:]
    stop = _EOS.search(rest)
    return bool(_WORD.search(rest[: stop.start()] if stop else rest))


# a run of dots that marks words left out of a quotation, not a gap to fill: it stands between sentences
# ("... associated. ...... The proper sphere") or inside quotation marks
_SENTENCE_BEFORE = re.compile(r"[.!?;:\"”'’)]\s*$")
_SENTENCE_AFTER = re.compile(r"\s*[\"“'‘(]?[A-Z]")
_QUOTES = re.compile(r"[\"“”]")


def _ellipsis(stem: str, m: re.Match) -> bool:
    if not m.group(0).lstrip().startswith((".", "…")):
        return False
    between_sentences = _SENTENCE_BEFORE.search(stem[max(0, m.start() - 3):m.start()]) or \
        _SENTENCE_AFTER.match(stem, m.end())
    # an odd number of double quotes before it on its line: it is inside a quotation
    line_start = stem.rfind("\n", 0, m.start()) + 1
    quoted = len(_QUOTES.findall(stem, line_start, m.start())) % 2 == 1
    return bool(between_sentences or quoted)


# code in a stem (`x = _` spans, fenced or indented blocks): an underscore there is a name, never a blank
_CODE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`|^(?: {4}|\t).*$", re.S | re.M)


def _without_code(stem: str) -> str:
    """The stem with its code blanked out, character for character (positions stay where they were)."""
    return _CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), stem) if ("`" in stem or "    " in stem
                                                                                or "\t" in stem) else stem


def check(question: Question, options: Options) -> Iterator[Violation]:
    stem = _IGNORE.sub(" ", question.stem) if "_x" in question.stem else question.stem
    stem = _without_code(stem)
    # cheap character tests first: every blank form needs one of these characters
    has_blank_char = "_" in stem or "[" in stem or "(" in stem or "...." in stem or "…" in stem
    for m in _BLANK.finditer(stem) if has_blank_char else ():
        if _text_follows(stem, m.end()) and not _ellipsis(stem, m):
            yield Violation("stem", f"the stem has a blank (\"{m.group(0).strip()}\") with text after it; "
                                    "ask a direct question or put the blank at the end",
                            span=m.span() if stem == question.stem else None)
            return
    if options.flag_question_mark_placeholder and _maybe_qmark(stem):
        for m in _QMARK.finditer(stem):
            if _WORD.search(stem[m.end():].split("\n")[0]):
                yield Violation("stem", "the stem uses \"?\" as a blank inside an expression; "
                                        "ask for the unknown in words (\"What is x if ...?\")")
                return
    if options.flag_what_placeholder and "what" in stem.lower():
        for m in _WHAT.finditer(stem):
            if m.group("prev").lower() not in _EXEMPT:
                yield Violation("stem", "the stem uses \"what\" as a blank in the middle of a statement "
                                        f"(\"{m.group(0)}\"); ask a direct question instead")
                return


RULE = QuestionRule(
    code="Q403",
    name="blank-in-stem",
    severity=Severity.ERROR,
    enabled=False,
    summary="The stem has a fill-in-the-blank gap with more of the sentence after it (a blank that is not at the end).",
    why=("A blank at the start or in the middle of a stem makes the examinee hold a broken sentence in mind while "
         "reading the options, which adds reading load unrelated to what is tested. Haladyna, Downing & Rodriguez "
         "(2002) and the NBME guide advise a complete question, or at most a completion stem whose blank is at "
         "the end."),
    use_instead=("Rewrite the stem as a direct question (\"Which part of the neuron receives signals?\"), or move "
                 "the missing part to the end so the options complete the sentence."),
    options=Options,
    check=check,
    notes="Off by default: reviewers of six public banks of real questions agreed with too few of its findings (its judged precision is under Measured accuracy); a blank inside a quoted lyric, title or line of dialogue (where the quotation fixes its place), a \"what\" or \"?\" placeholder in a complete direct question, markdown underscores and code placeholders were judged no flaw or debatable. " + ("A blank is \"__\" (any length), a lone \"_\" that is not part of an identifier or LaTeX subscript, "
           "\"[blank]\", \"( )\" or \"....\" between words; it is reported only when word text follows it in the "
           "same sentence. Also reported: a \"?\" standing for the unknown in arithmetic, and the wh-in-situ "
           "placeholder (\"Dogs remain what to ...\"), which is exempt after prepositions, conjunctions and verbs "
           "that take an embedded question (word lists in src/qlint/rules/data/blank-in-stem.yaml)."
           " " "A \"what\" standing for a missing word mid-statement (\"Bats use echoes to find what in the dark?\") and a "
           "\"?\" standing for the unknown in an expression (\"12 + ? x 3 = 24\") are what reviewers "
           "of real banks disagreed with most (they judged such stems complete direct questions); the options "
           "flag-what-placeholder and flag-question-mark-placeholder turn them off. Underscores inside code (`_` in Go, Scala or JavaScript) are never blanks."),
    passing=("""\
id: bis-end
stem: The organelle that carries out photosynthesis is the ________.
options:
  - {text: chloroplast, correct: true, rationale: Correct. Chlorophyll sits in its thylakoids.}
  - {text: mitochondrion, rationale: Incorrect. It carries out respiration.}
  - {text: ribosome, rationale: Incorrect. It builds proteins.}
""", """\
id: bis-identifier
stem: In the function read_file_lines, what does the variable max_len control?
options:
  - {text: the longest line kept, correct: true, rationale: Correct. Longer lines are cut.}
  - {text: the number of files, rationale: Incorrect. One file is read.}
  - {text: the encoding, rationale: Incorrect. The encoding is a separate argument.}
""", """\
id: bis-embedded-what
stem: A student wants to know what to measure first. Which tool finds the mass of a rock?
options:
  - {text: a balance, correct: true, rationale: Correct. A balance measures mass.}
  - {text: a ruler, rationale: Incorrect. It measures length.}
  - {text: a thermometer, rationale: Incorrect. It measures temperature.}
""", """\
id: bis-quoted-ellipsis
stem: |-
  The diarist wrote: "We left at dawn and walked until the river ...... then we rested under the oaks."
  The next entry begins: The rain came early. ...... Nobody had packed a coat.
  Which word best describes the diarist's mood?
options:
  - {text: weary, correct: true, rationale: Correct. Both entries dwell on fatigue and discomfort.}
  - {text: elated, rationale: Incorrect. Nothing in the entries is joyful.}
  - {text: angry, rationale: Incorrect. No one is blamed.}
"""),
    failing=(Invalid("""\
id: bis-middle
stem: The ________ is the part of the neuron that receives signals from other cells.
options:
  - {text: dendrite, correct: true, rationale: Correct. Dendrites carry input toward the cell body.}
  - {text: axon, rationale: Incorrect. The axon carries output.}
  - {text: myelin sheath, rationale: Incorrect. It insulates the axon.}
""", field="stem", message='the stem has a blank ("________") with text after it'), Invalid("""\
id: bis-question-mark
stem: "12 + ? x 3 = 24"
options:
  - {text: '4', correct: true, rationale: Correct. 12 + 12 = 24.}
  - {text: '3', rationale: Incorrect. 12 + 9 = 21.}
  - {text: '6', rationale: Incorrect. 12 + 18 = 30.}
""", field="stem", message='the stem uses "?" as a blank inside an expression'), Invalid("""\
id: bis-what
stem: Bats use echoes to find what in the dark?
options:
  - {text: insects, correct: true, rationale: Correct. Echolocation locates prey.}
  - {text: water, rationale: Incorrect. Bats find water by other cues.}
  - {text: sunlight, rationale: Incorrect. There is none at night.}
""", field="stem", message='the stem uses "what" as a blank in the middle of a statement ("find what in")')),
)
