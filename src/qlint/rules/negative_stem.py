"""negative-stem: the question clause is negatively worded (NOT, EXCEPT, never, cannot, all but, ...)."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.edits import Fix, SetText
from qlint.finding import Severity
from qlint.language.phrases import question_clause
from qlint.language.wordlists import word_lists
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

_DATA = word_lists("negative-stem")
_NEG = re.compile("|".join(_DATA["negations"]), re.I)
_FALSE = re.compile("|".join(_DATA["false_words"]), re.I)
_EXEMPT = re.compile("|".join(_DATA["exempt"]), re.I)
_SUBORDINATORS = frozenset(_DATA["subordinators"])
_LEAST, _LEAST_CAPS = re.compile(r"\bleast\b", re.I), re.compile(r"\bLEAST\b")
_QUOTED = re.compile(r"\"[^\"]{1,200}\"|“[^”]{1,200}”")   # quoted words are not the question's wording
_WORD = re.compile(r"[A-Za-z']+")
# every negation, false word and 'least' contains one of these: a clause without any is skipped unscanned
_TRIGGERS = ("not", "n't", "never", "cannot", "except", "all", "other", "false", "incorrect", "untrue",
             "inaccurate", "wrong", "least")


class Options(RuleOptions):
    flag_lowercase_least: bool = Field(default=True, description=(
        "also report lower-case 'least' ('least likely'); capitalised 'LEAST' is always reported"))
    flag_false_incorrect: bool = Field(default=True, description="report 'Which statement is false / incorrect?'")


def _in_subordinate(clause: str, pos: int) -> bool:
    """A subordinator earlier in the same comma-chunk puts the negation in a subordinate clause."""
    start = clause.rfind(",", 0, pos) + 1
    words = [w.lower() for w in _WORD.findall(clause[start:pos])]
    if start == 0 and words and words[0] in ("which", "who", "whom", "whose", "where", "when"):
        words = words[1:]   # the opening wh-word asks the question; it is no relative pronoun
    return any(w in _SUBORDINATORS for w in words)


def check(question: Question, options: Options) -> Iterator[Violation]:
    clause = question_clause(question.stem)
    if not clause:
        return
    lower = clause.lower()
    if not any(t in lower for t in _TRIGGERS):
        return
    def blank(m: re.Match) -> str:
        return " " * len(m.group(0))   # keep offsets
    masked = _EXEMPT.sub(blank, _QUOTED.sub(blank, clause))
    cues = list(_NEG.finditer(masked))
    if options.flag_false_incorrect:
        cues += _FALSE.finditer(masked)
    cues += (_LEAST if options.flag_lowercase_least else _LEAST_CAPS).finditer(masked)
    for m in sorted(cues, key=lambda m: m.start()):
        word = m.group(0)
        if (word.isupper() and len(word) > 1) or word.lower().startswith(("except", "all")) \
                or not _in_subordinate(masked, m.start()):
            at = question.stem.rfind(clause)   # the clause is the stem's last words, as read
            yield Violation("stem", f"the question is negatively worded (\"{clause[m.start():m.end()]}\"); "
                                    "ask for the correct answer instead", _capitalise(question.stem, clause, m),
                            span=(at + m.start(), at + m.end()) if at >= 0 else None)
            return


def _capitalise(stem: str, clause: str, m: re.Match) -> Fix | None:
    """The safe fix when the negative stays: capitalise it (Haladyna: emphasise an unavoidable negative)."""
    start = stem.rfind(clause)
    word = clause[m.start():m.end()]
    if start < 0 or word.isupper():
        return None
    at = start + m.start()
    return Fix(f"capitalise {word!r}", (SetText("stem", stem[:at] + word.upper() + stem[at + len(word):]),))


RULE = QuestionRule(
    code="Q401",
    name="negative-stem",
    severity=Severity.WARNING,
    enabled=False,
    summary="The question clause is negatively worded (NOT, EXCEPT, LEAST, never, cannot, all but, false).",
    why=("Negatively worded stems are misread under time pressure (the negation is missed) and test the ability to "
         "spot a wrong statement rather than knowledge of the right one. Haladyna, Downing & Rodriguez (2002, "
         "guideline 17) advise wording stems positively and, if a negative is essential, emphasising it; the NBME "
         "guide discourages negative items."),
    use_instead=("Ask for the correct or best answer (\"Which is a fossil fuel?\"); if a negative is unavoidable, "
                 "capitalise or bold it."),
    options=Options,
    check=check,
    fix_safety=("The fix writes the negative word of the stem in capitals (not -> NOT, except -> EXCEPT) and changes no "
                "other character, so the question asks what it asked, with the negation harder to miss."),
    notes="Off by default: on six public banks of real questions, two reviewers agreed with 25 of 40 sampled findings (0.62); capitalised negatives (as item-writing guides allow), \"LEAST operational overhead\" (which asks for the best option) and negations that are part of the fact asked were judged no flaw or debatable. Turn it on to find negative stems to rewrite or capitalise. " + ("Only the clause that asks is read: the last sentence (trailing parenthetical notes dropped), narrowed to "
           "a final \", what/which ...\" clause. A stem ending in a plain statement (a story to continue) has no "
           "question clause. Negations inside quotes, in relative or subordinate clauses (\"a patient who has not "
           "eaten ...\") and in idioms (\"at least\", \"not only\", \"whether or not\") are not reported; EXCEPT, "
           "\"all but\" and capitalised cues always are. Lower-case \"least\" counts too (flag-lowercase-least; "
           "off, it raises dev precision from 0.81 to 0.84, but 'least suitable' is a negative stem by any "
           "guideline). Word lists: "
           "src/qlint/rules/data/negative-stem.yaml."),
    passing=("""\
id: ns-relative
stem: A patient who has not eaten for 12 hours arrives for a glucose test. Which value is normal?
options:
  - {text: 85 mg/dL, correct: true, rationale: Correct. Fasting glucose is 70-99 mg/dL.}
  - {text: 160 mg/dL, rationale: Incorrect. That is diabetic.}
  - {text: 250 mg/dL, rationale: Incorrect. That is far too high.}
""", """\
id: ns-at-least
stem: What is the minimum number of coins, at least one of each kind, needed to pay 37 cents?
options:
  - {text: '4', correct: true, rationale: Correct. 25 + 10 + 1 + 1.}
  - {text: '3', rationale: Incorrect. No three coins make 37.}
  - {text: '5', rationale: Incorrect. Four coins suffice.}
""", """\
id: ns-but-not
stem: Which metal is a liquid at room temperature but not at minus 50 degrees?
options:
  - {text: mercury, correct: true, rationale: Correct. It freezes at -39 C.}
  - {text: iron, rationale: Incorrect. It is solid at room temperature.}
  - {text: copper, rationale: Incorrect. It is solid at room temperature.}
"""),
    failing=(Invalid("""\
id: ns-not
stem: Which of the following is NOT a greenhouse gas?
options:
  - {text: nitrogen, correct: true, rationale: Correct. N2 does not absorb infrared.}
  - {text: methane, rationale: Incorrect. It is a strong greenhouse gas.}
  - {text: carbon dioxide, rationale: Incorrect. It is the main one.}
""", field="stem", message='the question is negatively worded ("NOT")'), Invalid("""\
id: ns-except
stem: All of the following are symptoms of dehydration EXCEPT
options:
  - {text: dry mouth, rationale: Incorrect. It is a symptom.}
  - {text: dark urine, rationale: Incorrect. It is a symptom.}
  - {text: increased urine output, correct: true, rationale: Correct. Dehydration reduces urine output.}
""", field="stem", message='the question is negatively worded ("EXCEPT")'), Invalid("""\
id: ns-cannot
stem: Plants need light for photosynthesis. Which organism cannot make its own food?
options:
  - {text: a mushroom, correct: true, rationale: Correct. Fungi absorb food.}
  - {text: a fern, rationale: Incorrect. Ferns photosynthesise.}
  - {text: a moss, rationale: Incorrect. Mosses photosynthesise.}
""", field="stem", message='the question is negatively worded ("cannot")',
        fixed="""\
id: ns-cannot
stem: Plants need light for photosynthesis. Which organism CANNOT make its own food?
options:
  - {text: a mushroom, correct: true, rationale: Correct. Fungi absorb food.}
  - {text: a fern, rationale: Incorrect. Ferns photosynthesise.}
  - {text: a moss, rationale: Incorrect. Mosses photosynthesise.}
""")),
)
