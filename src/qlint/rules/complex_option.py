"""complex-option: K-type options that combine other options or statements ("A and B", "I and III only")."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.words import short
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

# a reference to an option or numbered statement: A, (b), II, (iv), 3, statement 2
_REF = r"(?:(?i:statements?|options?|choices?|scenarios?)\s+)?\(?(?:[A-Ea-e]|[IVX]{1,4}|[ivx]{1,4}|[1-9])\)?(?![A-Za-z0-9])"
_JOIN = r"(?:\s*,\s*(?:(?:and|or|&)\s+)?|\s+(?:and|or)\s+|\s*[&+]\s*)"   # spaced, so "core" is not "c or e"
_COMBO = re.compile(rf"^\s*(?i:both\s+|either\s+|only\s+|all\s+of\s+)?{_REF}(?:{_JOIN}{_REF}){{1,7}}"
                    r"(?:\s+(?i:only|are\s+(?:correct|true|false|incorrect)|both))?\s*+\.?\s*+$")
# a matching key: every part pairs a numbered item with a lettered one ("1-b, 2-c, 3-a", "A-3; B-1")
_PAIR = r"(?:[1-9]|[IVX]{1,4}|[ivx]{1,4}|[A-Ea-e])\s*(?:-|–|→|->|=|:)\s*(?:[1-9]|[IVX]{1,4}|[ivx]{1,4}|[A-Ea-e])"
_MATCHING = re.compile(rf"^\s*{_PAIR}(?:\s*[,;]?\s+{_PAIR}|\s*[,;]\s*{_PAIR}){{1,9}}\s*+\.?\s*+$")
_JOINER = re.compile(r"\s(?:and|or|&)\s", re.I)
# the parts of an option that lists things ("wind and solar", "wind, coal and solar")
# each from the first space of a run, the run taken whole (possessive): tried from every space of a long run, as a
# plain \s* is, the search cost the square of the run
_LIST = re.compile(r"(?<!\s)\s*+,\s*+(?:and\s+|or\s+)?|(?<!\s)\s++(?:and|or|&)\s+", re.I)
_SINGLE = re.compile(rf"^\s*{_REF}\s+only\s*+\.?\s*+$")
_TOKEN = re.compile(r"\(?\b([A-Ea-e]|[IVXivx]{1,4}|[1-9])\b\)?")
_SPLIT = re.compile(r"(?<!\s)\s*+[,;]\s+|(?<!\s)\s++/\s+")   # "True, False"; not "35,000"


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


def _joins_other_options(question: Question) -> list[int]:
    """Options that list two or more other options' texts ("wind and solar" beside "wind" and "solar")."""
    texts = {" ".join(o.text.lower().strip(" .").split()): i for i, o in enumerate(question.options)}
    found = []
    for i, o in enumerate(question.options):
        parts = [p.strip(" .").lower() for p in _LIST.split(o.text) if p.strip(" .")]
        # a comma alone lists the parts of one answer ("one novel, two plays"); "and" / "or" joins answers
        if len(parts) >= 2 and _JOINER.search(o.text) and all(texts.get(" ".join(p.split()), i) != i for p in parts):
            found.append(i)
    return found


def check(question: Question, options: Options) -> Iterator[Violation]:
    stem, opts = question.stem, question.options
    combos = sorted({i for i, o in enumerate(opts) if (_COMBO.match(o.text) and _refs_ok(o.text, stem))
                     or (_MATCHING.match(o.text) and _refs_ok(o.text, stem))} | set(_joins_other_options(question)))
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
    severity=Severity.INFO,
    enabled=False,
    summary="Options are combinations of other options or statements (K-type: \"A and B\", \"I and III only\", \"True, False\").",
    why=("Complex multiple-choice (K-type) items ask for a combination of statements. They reward partial knowledge "
         "and test-wiseness (ruling out one statement removes several combinations), discriminate less and take "
         "longer to read. Haladyna, Downing & Rodriguez (2002, guideline 27) and the NBME guide advise against them."),
    use_instead=("Ask about one statement per item, or make it a multiple-response item (`select: N`) or separate "
                 "true/false items."),
    options=Options,
    check=check,
    notes="Off by default: on six public banks of real questions, two reviewers agreed with 30 of 40 sampled findings (0.75); options that cross two features (2 x 2 pairs) and tuples printed by code were judged no flaw or debatable." + ("Three shapes are reported: an option that is only references joined by commas/and/or (\"both (a) and "
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
""", """\
id: co-pairs-of-people
stem: Six runners enter a relay; exactly two of them run the first leg. If Kim runs the first leg, who runs it with her?
options:
  - {text: Kim and Lee, correct: true, rationale: Correct. Lee is the only one free.}
  - {text: Kim and Ola, rationale: Incorrect. Ola runs the last leg.}
  - {text: Kim and Sam, rationale: Incorrect. Sam cannot run with Kim.}
"""),
    failing=(Invalid("""\
id: co-roman
stem: "Which are renewable? I. wind II. coal III. solar"
options:
  - {text: I only, rationale: Incorrect. Solar is renewable too.}
  - {text: I and III only, correct: true, rationale: Correct. Coal is a fossil fuel.}
  - {text: II and III only, rationale: Incorrect. Coal is not renewable.}
""",
        field=("options[1].text", "options[2].text"),
        message=(
            'option 2 ("I and III only") is a combination of other options or statements (a K-type option)',
            'option 3 ("II and III only") is a combination of other options or statements (a K-type option)',
        )), Invalid("""\
id: co-true-false
stem: "Statement 1: every square is a rectangle. Statement 2: every rectangle is a square."
options:
  - {text: "True, True", rationale: Incorrect. Statement 2 is false.}
  - {text: "True, False", correct: true, rationale: Correct. Only statement 1 holds.}
  - {text: "False, True", rationale: Incorrect. Statement 1 is true.}
  - {text: "False, False", rationale: Incorrect. Statement 1 is true.}
""",
        field="options",
        message='options cross judgements about several statements (e.g. "True, False"): a K-type item'), Invalid("""\
id: co-letters
stem: Which of these are mammals?
options:
  - {text: (a) whale, rationale: Incorrect on its own. Bats are mammals too.}
  - {text: (b) shark, rationale: Incorrect. Sharks are fish.}
  - {text: (c) bat, rationale: Incorrect on its own. Whales are mammals too.}
  - {text: both (a) and (c), correct: true, rationale: Correct. Whales and bats are mammals.}
""",
        field="options[3].text",
        message='option 4 ("both (a) and (c)") is a combination of other options or statements (a K-type option)'), Invalid("""\
id: co-capitalised
stem: "Consider: I. wind is renewable. II. coal is renewable. III. tides are renewable. IV. peat is renewable."
options:
  - {text: Only I and III, correct: true, rationale: Correct. Coal and peat are fossil fuels.}
  - {text: Both II and IV, rationale: Incorrect. Neither is renewable.}
  - {text: Statements I and II are true, rationale: Incorrect. Coal is not renewable.}
""",
        field=("options[0].text", "options[1].text", "options[2].text"),
        message=(
            'option 1 ("Only I and III") is a combination of other options or statements (a K-type option)',
            'option 2 ("Both II and IV") is a combination of other options or statements (a K-type option)',
            'option 3 ("Statements I and II are true") is a combination of other options or statements',
        )), Invalid("""\
id: co-matching
stem: "Match each gas to its use: 1. helium 2. argon 3. neon. a. signs b. balloons c. welding"
options:
  - {text: "1-b, 2-c, 3-a", correct: true, rationale: Correct. Helium lifts balloons and argon shields welds.}
  - {text: "1-a, 2-b, 3-c", rationale: Incorrect. Helium is not for signs.}
  - {text: "1-c, 2-a, 3-b", rationale: Incorrect. Argon is not for signs.}
""",
        field=("options[0].text", "options[1].text", "options[2].text"),
        message=(
            'option 1 ("1-b, 2-c, 3-a") is a combination of other options or statements (a K-type option)',
            'option 2 ("1-a, 2-b, 3-c") is a combination of other options or statements (a K-type option)',
            'option 3 ("1-c, 2-a, 3-b") is a combination of other options or statements (a K-type option)',
        )), Invalid("""\
id: co-option-texts
stem: Which sources of energy are renewable?
options:
  - {text: wind, rationale: Incorrect on its own. Solar is renewable too.}
  - {text: solar, rationale: Incorrect on its own. Wind is renewable too.}
  - {text: coal, rationale: Incorrect. Coal is a fossil fuel.}
  - {text: wind and solar, correct: true, rationale: Correct. Both are renewable.}
""",
        field="options[3].text",
        message='option 4 ("wind and solar") is a combination of other options or statements (a K-type option)')),
)
