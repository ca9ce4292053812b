"""complex-option: K-type options that combine other options or statements ("A and B", "I and III only")."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.model import Question
from qlint.rule import QuestionRule, RuleOptions, Violation
from qlint.rules._cues_a import short

# a reference to an option or numbered statement: A, (b), II, (iv), 3, statement 2
_REF = r"(?:(?:statements?|options?|choices?|scenarios?)\s+)?\(?(?:[A-Ea-e]|[IVX]{1,4}|[ivx]{1,4}|[1-9])\)?(?![A-Za-z0-9])"
_JOIN = r"(?:\s*,\s*(?:(?:and|or|&)\s+)?|\s+(?:and|or)\s+|\s*[&+]\s*)"   # spaced, so "core" is not "c or e"
_COMBO = re.compile(rf"^\s*(?:both\s+|either\s+|only\s+)?{_REF}(?:{_JOIN}{_REF}){{1,7}}"
                    r"(?:\s+(?:only|are\s+(?:correct|true)|both))?\s*\.?\s*$")
_SINGLE = re.compile(rf"^\s*{_REF}\s+only\s*\.?\s*$")
_TOKEN = re.compile(r"\(?\b([A-Ea-e]|[IVXivx]{1,4}|[1-9])\b\)?")
_SPLIT = re.compile(r"\s*[,;]\s+|\s+/\s+")   # "True, False"; not "35,000"


class Options(RuleOptions):
    min_tuple_options: int = Field(default=3, ge=2, le=1000, description=(
        "judgement tuples ('True, False') are reported when at least this many options share the crossing"))
    max_values_per_slot: int = Field(default=3, ge=2, le=1000, description="a tuple slot takes at most this many values")


def _refs_ok(text: str, stem: str) -> bool:
    """Digit references count only when the stem numbers its statements ('1.', '(2)', 'Statement 3')."""
    return all(re.search(rf"(?:^|\s|\()(?:statement|scenario|item|option)?\s*\(?{d}(?:\)|\.|\s*\||:)", stem, re.I)
               for d in _TOKEN.findall(text) if d.isdigit())


def _tuple_crossing(question: Question, options: Options) -> bool:
    first = question.options[0].text if question.options else ""
    if "," not in first and ";" not in first and "/" not in first:
        return False   # a tuple needs a separator in every option: the first has none
    parts = [[p.strip().lower() for p in _SPLIT.split(o.text.strip().rstrip("."))] for o in question.options]
    sizes = {len(p) for p in parts}
    if len(sizes) != 1 or len(parts) < options.min_tuple_options or not 2 <= (k := sizes.pop()) <= 4:
        return False
    for slot in range(k):
        values = [p[slot] for p in parts]
        distinct = set(values)
        if not 2 <= len(distinct) <= options.max_values_per_slot:
            return False
        if any(values.count(v) < 2 or len(v.split()) > 6 for v in distinct):
            return False
    return True


def check(question: Question, options: Options) -> Iterator[Violation]:
    stem, opts = question.stem, question.options
    combos = [i for i, o in enumerate(opts) if _COMBO.match(o.text) and _refs_ok(o.text, stem)]
    singles = [i for i, o in enumerate(opts) if _SINGLE.match(o.text) and _refs_ok(o.text, stem)]
    for i in combos:
        yield Violation(f"options[{i}].text", f"option {i + 1} (\"{short(opts[i].text)}\") is a combination of "
                                              "other options or statements (a K-type option)")
    if not combos and len(singles) >= 2:
        yield Violation(f"options[{singles[0]}].text", "options choose among numbered statements "
                                                       "(\"I only\", \"II only\"): a K-type item")
    if not combos and _tuple_crossing(question, options):
        yield Violation("options", "options cross judgements about several statements (e.g. \"True, False\"): "
                                   "a K-type item")


RULE = QuestionRule(
    code="Q303",
    name="complex-option",
    severity=Severity.ERROR,
    summary="Options are combinations of other options or statements (K-type: \"A and B\", \"I and III only\", \"True, False\").",
    why=("Complex multiple-choice (K-type) items ask for a combination of statements. They reward partial knowledge "
         "and test-wiseness (ruling out one statement removes several combinations), discriminate less and take "
         "longer to read. Haladyna, Downing & Rodriguez (2002, guideline 27) and the NBME guide advise against them."),
    use_instead=("Ask about one statement per item, or make it a multiple-response item (`select: N`) or separate "
                 "true/false items."),
    options=Options,
    check=check,
    notes=("Three shapes are reported: an option that is only references joined by commas/and/or (\"both (a) and "
           "(c)\", \"I, II and III\"; digits count only when the stem numbers its statements, so \"2 and 3\" as "
           "the roots of an equation is fine); two or more \"I only\" options; and judgement tuples where every "
           "option has the same 2-4 comma-separated slots of 2-3 recurring values (\"True, False\", \"Wrong, Not "
           "wrong\"). \"Both A and B\" is also an all-of-the-above (Q301) finding."),
    passing=("""\
id: co-pairs
stem: Which pair of elements forms an ionic compound?
options:
  - {text: sodium and chlorine, correct: true, rationale: Correct. A metal gives an electron to a non-metal.}
  - {text: carbon and oxygen, rationale: Incorrect. They share electrons.}
  - {text: nitrogen and hydrogen, rationale: Incorrect. Ammonia is covalent.}
""", """\
id: co-roots
stem: What are the solutions of x^2 - 5x + 6 = 0?
options:
  - {text: 2 and 3, correct: true, rationale: Correct. (x - 2)(x - 3) = 0.}
  - {text: -2 and -3, rationale: Incorrect. The signs are flipped.}
  - {text: 1 and 6, rationale: Incorrect. 1 + 6 is not 5.}
""", """\
id: co-lists
stem: Which list gives the planets in order from the Sun?
options:
  - {text: "Mercury, Venus, Earth", correct: true, rationale: Correct. Mercury is innermost.}
  - {text: "Venus, Mercury, Earth", rationale: Incorrect. Mercury comes first.}
  - {text: "Earth, Venus, Mars", rationale: Incorrect. Earth is third.}
"""),
    failing=("""\
id: co-roman
stem: "Which are renewable? I. wind II. coal III. solar"
options:
  - {text: I only, rationale: Incorrect. Solar is renewable too.}
  - {text: I and III only, correct: true, rationale: Correct. Coal is a fossil fuel.}
  - {text: II and III only, rationale: Incorrect. Coal is not renewable.}
""", """\
id: co-true-false
stem: "Statement 1: every square is a rectangle. Statement 2: every rectangle is a square."
options:
  - {text: "True, True", rationale: Incorrect. Statement 2 is false.}
  - {text: "True, False", correct: true, rationale: Correct. Only statement 1 holds.}
  - {text: "False, True", rationale: Incorrect. Statement 1 is true.}
  - {text: "False, False", rationale: Incorrect. Statement 1 is true.}
""", """\
id: co-letters
stem: Which of these are mammals?
options:
  - {text: (a) whale, rationale: Incorrect on its own. Bats are mammals too.}
  - {text: (b) shark, rationale: Incorrect. Sharks are fish.}
  - {text: (c) bat, rationale: Incorrect on its own. Whales are mammals too.}
  - {text: both (a) and (c), correct: true, rationale: Correct. Whales and bats are mammals.}
"""),
)
