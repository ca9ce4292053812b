"""all-of-the-above: an option is "all of the above", "both A and B", or names every listed statement."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.phrases import LABEL, phrase_regex
from qlint.language.stems import CUE_STOPWORDS, cue_stem
from qlint.language.wordlists import word_lists
from qlint.language.words import short
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

_DATA = word_lists("all-of-the-above")
_PHRASE = re.compile(LABEL + "(?P<phrase>" + "|".join(phrase_regex(p) for p in _DATA["phrases"]) + ")", re.I)
# "all of them", "all three": the words point at a set that may be the options or a list in the stem, and what
# follows says which (_points_at_options)
_OPEN_REFERENCE = re.compile(LABEL + "(?P<phrase>" + "|".join(phrase_regex(p) for p in _DATA["references"]) + ")",
                             re.I)
# what may follow such a phrase and still speak of the options: nothing, a break, or a verdict about them
_ABOUT_OPTIONS = re.compile(r"\s*+(?:$|[-–—:;,.(!?]|(?:of\s+)?(?:the\s+)?(?:above|below|options?|choices?|answers?|"
                            r"statements?|responses?|alternatives?)\b|(?:[^\W\d_]+\s+){0,2}(?:are|is|were|would\s+be)\s+"
                            r"(?:all\s+)?(?:correct|true|right|possible|valid\s+answers?)\b|apply\b|(?:are|is)\s*+[.!]?\s*+$"
                            # what the question asks, by a word that points back at it: "All of them have done this"
                            r"|(?:[^\W\d_]+\s+){1,4}(?:this|so)\b)", re.I)
_WORD = re.compile(r"[^\W\d_]{3,}")
# items of a combination option ("`0`, `''`, `undefined`", "2 and 3"): short, joined by commas or "and"; a join
# starts where its spaces do (tried from inside a run of spaces, it reads the run again: quadratic in a long one)
_JOINS = re.compile(r"(?<!\s)\s*(?:,\s*(?:and\s+|&\s*)?|\s(?:and|&)\s)\s*")
_REF = r"\(?(?:[a-eA-E]|[1-6]|i{1,3}|iv|v|I{1,3}|IV|V)\)?"
_BOTH = re.compile(LABEL + "(?P<phrase>" + "|".join(phrase_regex(p) for p in _DATA["both"])
                   + rf"|both\s+{_REF}\s+(?:and|&)\s+{_REF}(?=\s*+[.)]?\s*+$|\s+(?:are|is|of)\b))", re.I)
# an option that is only enumerators: "(i), (ii), (iii) and (iv)", "1, 2, 3 and 4"
_ENUM_OPTION = re.compile(r"^\s*+\(?([ivx]{1,4}|\d)\)?(?:\s*+(?:,|and|&)\s*+(?:and\s+)?\(?([ivx]{1,4}|\d)\)?){1,8}"
                          r"\s*+(?:only)?\s*+\.?\s*+$", re.I)
_ENUM_TOKEN = re.compile(r"\(?\b([ivx]{1,4}|\d)\b\)?", re.I)
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8}


class Options(RuleOptions):
    min_enumerated: int = Field(default=3, ge=2, le=1000, description=(
        "an option naming every enumerated statement ('(i), (ii) and (iii)') is reported from this many statements"))
    flag_both: bool = Field(default=True, description="also report 'both of the above' and 'both A and B'")


def _enumerated(text: str) -> set[int]:
    if not _ENUM_OPTION.match(text):
        return set()
    tokens = (t.lower() for t in _ENUM_TOKEN.findall(text))
    return {_ROMAN[t] if t in _ROMAN else int(t) for t in tokens if t in _ROMAN or t.isdigit()}


def _content(text: str) -> set[str]:
    return {cue_stem(w) for w in _WORD.findall(text.lower()) if w not in CUE_STOPWORDS}


def _combination(text: str, stem: str) -> bool:
    """An option that names several items of a list in the stem ("`0`, `''`, `undefined`" after six values, "2
    and 3" after three numbered lines): its "all of them" sibling is the full set, a specific answer."""
    items = [item.strip(" `") for item in _JOINS.split(text.strip().rstrip("."))]
    return len(items) >= 2 and all(item and len(item.split()) <= 3 and item.lower() in stem for item in items)


def _points_at_options(question: Question, i: int, rest: str, number: int | None) -> bool:
    """Whether "all of them" (or "all three") in option ``i``, followed by ``rest``, speaks of the other options
    rather than stating something of its own: it does when nothing or a verdict follows ("All of them", "All
    three are correct") or when what follows repeats the question ("All of them were murdered" for "Which king was
    not murdered?"); it does not when the other options are combinations of a list in the stem (it is the full
    set), when they say the opposite of the same thing ("`x` is not valid" / "All of them are valid"), or when it
    claims something new ("All three plays are selected", "All of them served in the war")."""
    stem = question.stem.lower()
    others = [o.text for k, o in enumerate(question.options) if k != i]
    if any(_combination(text, stem) for text in others):
        return False
    if _ABOUT_OPTIONS.match(rest):
        return True
    if number is not None and number != len(others):
        return False   # "All three plays ..." beside four options: a count of things in the stem
    words = _content(rest)
    if any(words and words <= _content(text) for text in others):
        return False   # the others say it of one each ("... is not valid"): this one says it of all
    return bool(words) and len(words & _content(question.stem)) * 2 >= len(words)


_COUNTS = {"three": 3, "four": 4, "five": 5, "six": 6}


def _count(phrase: str) -> int | None:
    """The number in "all three" (None for "all of them")."""
    last = phrase.lower().split()[-1]
    return int(last) if last.isdigit() else _COUNTS.get(last)


def _phrase(question: Question, i: int, options: Options) -> re.Match | None:
    text = question.options[i].text
    found = _PHRASE.search(text) or (options.flag_both and _BOTH.search(text))
    if found:
        return found
    found = _OPEN_REFERENCE.search(text)
    if found is None:
        return None
    return found if _points_at_options(question, i, text[found.end():], _count(found.group("phrase"))) else None


def check(question: Question, options: Options) -> Iterator[Violation]:
    enums = [_enumerated(o.text) for o in question.options]
    universe = set().union(*enums)
    # an ordering question lists every statement in each option: none of them stands for "all of the above"
    full_sets = sum(1 for e in enums if e and e == universe)
    for i, option in enumerate(question.options):
        where = f"options[{i}].text"
        if phrase := _phrase(question, i, options):
            yield Violation(where, f"option {i + 1} is \"{short(option.text)}\", an all-of-the-above option; "
                                   "partial knowledge is enough to pick or rule it out", span=phrase.span("phrase"))
            continue
        e = enums[i]
        if (len(e) >= options.min_enumerated and e == universe and e == set(range(1, max(e) + 1))
                and sum(1 for x in enums if x) >= 3 and full_sets == 1):
            text = option.text
            yield Violation(where, f"option {i + 1} (\"{short(option.text)}\") names every listed statement, "
                                   "so it works as all-of-the-above",
                            span=(len(text) - len(text.lstrip()), len(text.rstrip())))


RULE = QuestionRule(
    code="Q301",
    name="all-of-the-above",
    severity=Severity.ERROR,
    summary="An option is \"all of the above\" (or \"all of these\", \"both A and B\", or every listed statement).",
    why=("\"All of the above\" lets test-wise examinees answer from partial knowledge: recognising two options as "
         "correct is enough to pick it, and spotting one wrong option rules it out. Haladyna, Downing & Rodriguez "
         "(2002, guideline 25) and the NBME item-writing guide advise against it."),
    use_instead=("Write a single-best-answer item whose key stands on its own, or make it a multiple-response "
                 "item (`select: N`) if several statements are true."),
    options=Options,
    check=check,
    notes=("The phrases are data (src/qlint/rules/data/all-of-the-above.yaml) and must open the option, after an "
           "optional label such as \"(D)\"; \"all\" in running prose is not reported. An option made only of "
           "statement numbers (\"(i), (ii), (iii) and (iv)\") is reported when it names every statement the "
           "options refer to (at least min-enumerated of them): reviewers treat it as all-of-the-above. "
           "\"Both A and B\" is also a complex-option (Q303) finding; the two flaws are reported separately. "
           "\"All of them\", \"All of these\" and \"All three\" point at a set that may be the options or a "
           "list in the stem, and count only when they speak of the options: nothing or a verdict follows (\"All "
           "of them\", \"All of these are correct\") or what follows repeats the question (\"All of them were "
           "murdered\" for \"Which king was not murdered?\"). They are an answer of their own beside combinations "
           "of a list in the stem (\"All of them are falsy\" beside \"`0`, `''`, `undefined`\"), beside options "
           "that each say the opposite (\"... is not valid\"), or when they claim something new (\"All three plays "
           "are selected\", \"All of them served in the war\"); an ordering question's permutations each name "
           "every statement and none stands for all of them. An error: a fresh sample judged 0.65 on two banks, "
           "all of it in those classes; of the judged findings that still fire, every one is a flaw (36 of 36: "
           "OpenTriviaQA 26, LinkedIn 5, cloud exams 5), and the banks with few judged findings need a top-up "
           "before the next release."),
    passing=("""\
id: aota-plain
stem: Which gas makes up most of Earth's atmosphere?
options:
  - {text: Nitrogen, correct: true, rationale: Correct. It is about 78% by volume.}
  - {text: Oxygen, rationale: Incorrect. It is about 21%.}
  - {text: Carbon dioxide, rationale: Incorrect. It is a trace gas.}
  - {text: Argon, rationale: Incorrect. It is under 1%.}
""", """\
id: aota-all-in-prose
stem: Which statement about small mammals in winter is best supported?
options:
  - {text: Small animals lose heat faster because of their surface-to-volume ratio, correct: true, rationale: Correct. Less volume holds heat for more surface.}
  - {text: All mammals hibernate when the temperature drops, rationale: Incorrect. Most do not hibernate.}
  - {text: Above the snow line no mammal survives, rationale: Incorrect. Pikas and hares live there.}
""", """\
id: aota-partial-combination
stem: "Which are prime? (i) 2 (ii) 9 (iii) 11 (iv) 15"
options:
  - {text: (i) and (iii) only, correct: true, rationale: Correct. 2 and 11 are prime.}
  - {text: (ii) and (iv) only, rationale: Incorrect. 9 and 15 are composite.}
  - {text: "(i), (ii) and (iii) only", rationale: Incorrect. 9 = 3 x 3.}
  - {text: (ii) only, rationale: Incorrect. 9 is composite.}
""", """\
id: aota-all-with-content
stem: "A festival picks plays to stage from three English plays, three Russian novels and five French works, with the rules given. If no French work is picked, which one of the following must be true?"
options:
  - {text: All three plays are selected., correct: true, rationale: Correct. The rules then force every play in.}
  - {text: Exactly one Russian novel is selected., rationale: Incorrect. Two may be.}
  - {text: No play is selected., rationale: Incorrect. At least one must be.}
""", """\
id: aota-full-set-of-the-stem
stem: "Which of these values are falsy? `0`, `new Number(0)`, `''`, `' '`, `new Boolean(false)`, `undefined`"
options:
  - {text: "`0`, `''`, `undefined`", correct: true, rationale: Correct. Objects are truthy and so is a space.}
  - {text: "`0`, `new Number(0)`, `''`, `undefined`", rationale: Incorrect. A Number object is truthy.}
  - {text: "`0`, `''`, `new Boolean(false)`, `undefined`", rationale: Incorrect. A Boolean object is truthy.}
  - {text: All of them are falsy, rationale: Incorrect. Objects and a space are truthy.}
""", """\
id: aota-claim-against-the-others
stem: "Given `const bird = {size: 'small'}` and `const mouse = {name: 'Mickey', small: true}`, which one is true?"
options:
  - {text: '`mouse.bird.size` is not valid', correct: true, rationale: Correct. mouse has no bird property.}
  - {text: '`mouse[bird.size]` is not valid', rationale: Incorrect. It reads mouse.small.}
  - {text: '`mouse[bird["size"]]` is not valid', rationale: Incorrect. It reads mouse.small too.}
  - {text: All of them are valid, rationale: Incorrect. The first throws.}
""", """\
id: aota-claim-about-the-stem
stem: What do George Bernard Shaw, William Butler Yeats and Rudyard Kipling have in common?
options:
  - {text: They were all born in Dublin., rationale: Incorrect. Kipling was born in Bombay.}
  - {text: All of them received the Nobel Prize in Literature., correct: true, rationale: 'Correct. 1907, 1923 and 1925.'}
  - {text: All of them served in the First World War., rationale: Incorrect. None of them did.}
""", """\
id: aota-ordering
stem: "Put these events in order, earliest first: (1) the Magna Carta (2) the Black Death (3) the Battle of Hastings"
options:
  - {text: "3, 1, 2", correct: true, rationale: 'Correct. 1066, 1215, 1348.'}
  - {text: "1, 3, 2", rationale: Incorrect. Hastings came first.}
  - {text: "3, 2, 1", rationale: Incorrect. The Magna Carta came before the plague.}
"""),
    failing=(Invalid("""\
id: aota-french
stem: Lesquelles de ces substances conduisent le courant ?
options:
  - {text: le fil de cuivre, rationale: Inexact seul. Les autres conduisent aussi.}
  - {text: l'eau salée, rationale: Inexact seul. Les autres conduisent aussi.}
  - {text: une mine de graphite, rationale: Inexact seul. Les autres conduisent aussi.}
  - {text: Toutes ces réponses sont exactes, correct: true, rationale: Exact. Les trois conduisent.}
""", field="options[3].text", message='option 4 is "Toutes ces réponses sont exactes", an all-of-the-above option'), Invalid("""\
id: aota-phrase
stem: Which of these can carry an electric current?
options:
  - {text: copper wire, rationale: Incorrect on its own. The others conduct too.}
  - {text: salt water, rationale: Incorrect on its own. The others conduct too.}
  - {text: a graphite rod, rationale: Incorrect on its own. The others conduct too.}
  - {text: all of the above, correct: true, rationale: Correct. All three conduct.}
""", field="options[3].text", message='option 4 is "all of the above", an all-of-the-above option'), Invalid("""\
id: aota-both
stem: Which molecules does the citric acid cycle produce?
options:
  - {text: NADH, rationale: Incorrect on its own. FADH2 is made too.}
  - {text: FADH2, rationale: Incorrect on its own. NADH is made too.}
  - {text: Both A and B., correct: true, rationale: Correct. Both electron carriers are made.}
  - {text: glucose, rationale: Incorrect. Glucose is consumed upstream.}
""", field="options[2].text", message='option 3 is "Both A and B.", an all-of-the-above option'), Invalid("""\
id: aota-every-statement
stem: "Which statements are true? (i) Water boils at 100 C at sea level (ii) Ice floats (iii) Steam is invisible"
options:
  - {text: (i) only, rationale: Incorrect. (ii) and (iii) are true too.}
  - {text: (i) and (ii) only, rationale: Incorrect. (iii) is true too.}
  - {text: "(i), (ii) and (iii)", correct: true, rationale: Correct. All three are true.}
  - {text: (ii) and (iii) only, rationale: Incorrect. (i) is true too.}
""",
        field="options[2].text",
        message='option 3 ("(i), (ii) and (iii)") names every listed statement, so it works as all-of-the-above'), Invalid("""\
id: aota-all-of-them
stem: Which of King Lear's daughters is sent away after she refuses to flatter her father?
options:
  - {text: Cordelia, correct: true, rationale: Correct. She will not profess her love in words.}
  - {text: Goneril, rationale: Incorrect. She flatters him.}
  - {text: Regan, rationale: Incorrect. She flatters him too.}
  - {text: All of them, rationale: Incorrect. Only Cordelia is banished.}
""", field="options[3].text", message='option 4 is "All of them", an all-of-the-above option'), Invalid("""\
id: aota-all-of-them-echoes-the-question
stem: Which of these kings in Shakespeare's plays was not murdered by a rival for the throne?
options:
  - {text: King Lear, correct: true, rationale: Correct. He dies of grief.}
  - {text: King Duncan, rationale: Incorrect. Macbeth murders him.}
  - {text: King Hamlet, rationale: Incorrect. Claudius poisons him.}
  - {text: All of them were murdered by a rival for the throne., rationale: Incorrect. Lear was not.}
""",
        field="options[3].text",
        message='option 4 is "All of them were murdered by a rival for the throne.", an all-of-the-above option')),
)
