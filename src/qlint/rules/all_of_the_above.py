"""all-of-the-above: an option is "all of the above", "both A and B", or names every listed statement."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.phrases import LABEL, phrase_regex
from qlint.language.wordlists import word_lists
from qlint.language.words import short
from qlint.model import Question
from qlint.rule import QuestionRule, RuleOptions, Violation

_DATA = word_lists("all-of-the-above")
_PHRASE = re.compile(LABEL + "(?P<phrase>" + "|".join(phrase_regex(p) for p in _DATA["phrases"]) + ")", re.I)
_REF = r"\(?(?:[a-eA-E]|[1-6]|i{1,3}|iv|v|I{1,3}|IV|V)\)?"
_BOTH = re.compile(LABEL + "(?P<phrase>" + "|".join(phrase_regex(p) for p in _DATA["both"])
                   + rf"|both\s+{_REF}\s+(?:and|&)\s+{_REF}(?=\s*[.)]?\s*$|\s+(?:are|is|of)\b))", re.I)
# an option that is only enumerators: "(i), (ii), (iii) and (iv)", "1, 2, 3 and 4"
_ENUM_OPTION = re.compile(r"^\s*\(?([ivx]{1,4}|\d)\)?(?:\s*(?:,|and|&)\s*(?:and\s+)?\(?([ivx]{1,4}|\d)\)?){1,8}"
                          r"\s*(?:only)?\s*\.?\s*$", re.I)
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


def check(question: Question, options: Options) -> Iterator[Violation]:
    enums = [_enumerated(o.text) for o in question.options]
    universe = set().union(*enums)
    for i, option in enumerate(question.options):
        where = f"options[{i}].text"
        phrase = _PHRASE.search(option.text) or (options.flag_both and _BOTH.search(option.text))
        if phrase:
            yield Violation(where, f"option {i + 1} is \"{short(option.text)}\", an all-of-the-above option; "
                                   "partial knowledge is enough to pick or rule it out", span=phrase.span("phrase"))
            continue
        e = enums[i]
        if (len(e) >= options.min_enumerated and e == universe and e == set(range(1, max(e) + 1))
                and sum(1 for x in enums if x) >= 3):
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
           "\"Both A and B\" is also a complex-option (Q303) finding; the two flaws are reported separately."),
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
"""),
    failing=("""\
id: aota-phrase
stem: Which of these can carry an electric current?
options:
  - {text: copper wire, rationale: Incorrect on its own. The others conduct too.}
  - {text: salt water, rationale: Incorrect on its own. The others conduct too.}
  - {text: a graphite rod, rationale: Incorrect on its own. The others conduct too.}
  - {text: all of the above, correct: true, rationale: Correct. All three conduct.}
""", """\
id: aota-both
stem: Which molecules does the citric acid cycle produce?
options:
  - {text: NADH, rationale: Incorrect on its own. FADH2 is made too.}
  - {text: FADH2, rationale: Incorrect on its own. NADH is made too.}
  - {text: Both A and B., correct: true, rationale: Correct. Both electron carriers are made.}
  - {text: glucose, rationale: Incorrect. Glucose is consumed upstream.}
""", """\
id: aota-every-statement
stem: "Which statements are true? (i) Water boils at 100 C at sea level (ii) Ice floats (iii) Steam is invisible"
options:
  - {text: (i) only, rationale: Incorrect. (ii) and (iii) are true too.}
  - {text: (i) and (ii) only, rationale: Incorrect. (iii) is true too.}
  - {text: "(i), (ii) and (iii)", correct: true, rationale: Correct. All three are true.}
  - {text: (ii) and (iii) only, rationale: Incorrect. (i) is true too.}
"""),
)
