"""option-order: options that are quantities are not listed in numerical order."""
import re
from collections.abc import Iterator

from pydantic import Field
from rapidfuzz import fuzz

from qlint.edits import Fix, Reorder
from qlint.finding import Severity
from qlint.language.numbers import quantity
from qlint.language.wordlists import word_lists
from qlint.language.words import short, words_in
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation


class Options(RuleOptions):
    min_numeric: int = Field(default=3, ge=2, le=1000, description="at least this many options must state a quantity")
    min_numeric_share: float = Field(default=0.5, ge=0, le=1, description="... and at least this share of the options")
    template_similarity: float = Field(default=0.75, ge=0, le=1, description=(
        "a sentence option counts only if the text around its number matches another option's this closely"))
    max_unit_words: int = Field(default=3, ge=0, le=1000, description="words allowed around a bare quantity ('42 km/h')")
    allow_descending: bool = Field(default=False, description=(
        "accept largest-to-smallest lists too (reviewers of real banks called flagged descending lists false "
        "alarms; the human flaw labels the rule is measured against flag them)"))


# a number that is part of a name, not a quantity: joined to letters ("ResNet-50", "GPT-4", "fp16", "int8",
# "COVID-19"), a version with two dots ("3.10.1"), or a whole option that is a capitalised name and a number
# ("Python 3.12", "Windows 10"), whose numbers do not sort as decimals (3.10 comes after 3.8)
# a version's digits from the first of their run, taken whole: from every digit of a long run the search cost its square
_NAME_NUMBER = re.compile(r"[A-Za-z]-?\d|\d[A-Za-z]{2,}|(?<!\d)\d++\.\d+\.\d|^\s*[A-Z][\w.+#]*\s+v?\d+(?:\.\d+)*\s*$")
_UNITS = frozenset(u for kind in ("time_units", "metric_units") for unit in word_lists("quantities")[kind]
                   for u in (unit, unit + "s")) | frozenset(word_lists("quantities")["suffix_units"])
# a capitalised word that may stand before a plain quantity ("About 40", "Rs. 750")
_LEADING_WORDS = frozenset(word_lists("quantities")["leading_words"])


def _quantity(text: str) -> tuple[float, str] | None:
    """quantity(text), unless the number is part of a name or version."""
    m = _NAME_NUMBER.search(text)
    if m and not (m.group().split()[0].lower() in _LEADING_WORDS or _unit_suffix(m.group())):
        return None
    return quantity(text)


def _unit_suffix(match: str) -> bool:
    """'50km', '10min', '2kg': digits joined to a known unit are a quantity."""
    unit = re.match(r"\d([A-Za-z]+)$", match)
    return bool(unit) and unit.group(1).lower() in _UNITS


# a stem, rationale or explanation that names an option by its place ("option B", "(C)", "both B and D", "answer 2"):
# reordering the options would make it point at another one, so no fix is offered (the finding still is)
_BY_PLACE = re.compile(r"\b(?i:options?|answers?|choices?)\s*\(?[A-Ea-e1-9]\b|\([A-E]\)|(?<![\w.])[A-E]\)"
                       r"|\b(?:both|neither|only|and|or|nor)\s+[B-E]\b|\b[B-E]\s+(?:and|or|nor)\s+[A-E]\b")


def _names_an_option(question: Question) -> bool:
    texts = [question.stem, question.explanation or "", *(o.rationale or "" for o in question.options)]
    return any(_BY_PLACE.search(text) for text in texts)


def check(question: Question, options: Options) -> Iterator[Violation]:
    opts = question.options
    parsed = [(i, q) for i, q in enumerate(_quantity(o.text) for o in opts) if q is not None]
    if len(parsed) < options.min_numeric or len(parsed) < options.min_numeric_share * len(opts):
        return
    kept = [(i, value) for i, (value, tpl) in parsed
            if words_in(tpl) <= options.max_unit_words or any(
                fuzz.ratio(tpl, other) >= 100 * options.template_similarity
                for j, (_, other) in parsed if j != i)]
    if len(kept) < options.min_numeric:
        return
    values = [v for _, v in kept]
    if all(a <= b for a, b in zip(values, values[1:])):
        return
    if options.allow_descending and all(a >= b for a, b in zip(values, values[1:])):
        return
    now = ", ".join(short(opts[i].text, 24) for i, _ in kept)
    ordered = ", ".join(short(opts[i].text, 24) for i, _ in sorted(kept, key=lambda k: k[1]))
    order = "ascending or descending" if options.allow_descending else "ascending"
    fix = None
    # only a list of nothing but plain quantities in one unit is reordered automatically: a wrong reorder
    # changes the item
    if (len(kept) == len(opts) and len({tpl for _, (_, tpl) in parsed}) == 1 and words_in(parsed[0][1][1]) <= 1
            and not _names_an_option(question)):
        order_ = tuple(i for i, _ in sorted(kept, key=lambda k: k[1]))
        fix = Fix("sort the options ascending", (Reorder("options", order_),))
    yield Violation("options", f"numeric options are not in {order} order ({now}); list them as {ordered}", fix)


RULE = QuestionRule(
    code="Q304",
    name="option-order",
    severity=Severity.WARNING,
    enabled=False,
    summary="Options that are numbers or quantities are not listed from smallest to largest.",
    why=("When options are numbers, a scrambled order makes the examinee hunt for the value they computed and "
         "can hint at the key's position. Haladyna, Downing & Rodriguez (2002, guideline 21) advise placing "
         "options in logical or numerical order."),
    use_instead="List numeric options from smallest to largest, with the same unit and precision.",
    options=Options,
    check=check,
    fix_safety=("The fix reorders the options, each with its `correct` flag and rationale, so the key stays the key and "
                "every rationale stays with its option. It is offered only when every option is a plain quantity in one "
                "unit, so that ascending order is certain, and never when the stem, the explanation or a rationale "
                "names an option by its place (\"option B\", \"(C)\", \"both B and D\"), which the new order would "
                "make point at another option: those findings are reported without a fix."),
    notes="Off by default: reviewers of six public banks of real questions agreed with too few of its findings (its judged precision is under Measured accuracy); descending lists, numbers in statement-style options, numbers that are names (isotopes, parameters, codes) and lists in mixed units were judged no flaw or debatable. Turn it on for its safe fix on lists of plain quantities (allow-descending accepts largest-to-smallest lists). " + ("Quantities are parsed from integers, decimals, thousands separators, currency, percentages, "
           "fractions (\"4 1/3\", \"\\frac{5}{7}\"), scale words (million, lakh), number words with time units "
           "(\"a week\", \"168 hours\") and ranges (their midpoint); time and metric units are converted before "
           "comparing. Expressions (\"3 x 5 - 2\"), identifiers (\"ISO 9001\") and options with two numbers give no "
           "value; non-numeric options such as \"None of these\" are skipped. A sentence option counts only if it "
           "shares its wording around the number with another option. "
           "allow-descending defaults to false although the usual guideline accepts either direction: on the "
           "BenchMarker dev split every descending list (4 of 4) is labelled an ordering flaw and none is labelled "
           "fine, so these reviewers read 'ordered' as smallest-to-largest. Measured with the CLI, kappa is 0.87 "
           "(recall 0.82) with the default and 0.77 (recall 0.70) with allow-descending = true, at precision 1.00 "
           "both ways. Set allow-descending = true for a house style that accepts largest-to-smallest lists."),
    passing=("""\
id: oo-ascending
stem: A car travels 150 km in 2.5 hours. What is its average speed?
options:
  - {text: 50 km/h, rationale: Incorrect. That divides by 3 hours.}
  - {text: 60 km/h, correct: true, rationale: Correct. 150 / 2.5 = 60.}
  - {text: 75 km/h, rationale: Incorrect. That divides by 2 hours.}
  - {text: 90 km/h, rationale: Incorrect. That is a guess above the true speed.}
""", """\
id: oo-none-skipped
stem: How many ways can 5 different books be arranged on a shelf?
options:
  - {text: '24', rationale: Incorrect. That is 4!.}
  - {text: '120', correct: true, rationale: Correct. 5! = 120.}
  - {text: '720', rationale: Incorrect. That is 6!.}
  - {text: None of these, rationale: Incorrect. 120 is listed.}
""", """\
id: oo-expressions
stem: Which expression equals 12?
options:
  - {text: 3 x 5 - 2, rationale: Incorrect. It equals 13.}
  - {text: 2 x 4 + 4, correct: true, rationale: Correct. 8 + 4 = 12.}
  - {text: 18 - 3 x 3, rationale: Incorrect. It equals 9.}
""", """\
id: oo-model-names
stem: Which network won the 2015 ImageNet classification challenge?
options:
  - {text: ResNet-152, correct: true, rationale: Correct. Residual networks won in 2015.}
  - {text: ResNet-18, rationale: Incorrect. It is a smaller variant published alongside it.}
  - {text: ResNet-101, rationale: Incorrect. It is a smaller variant published alongside it.}
  - {text: GPT-4, rationale: Incorrect. It is a language model.}
""", """\
id: oo-versions
stem: Which Python release introduced the match statement?
options:
  - {text: Python 3.12, rationale: Incorrect. It came two releases later.}
  - {text: Python 3.10, correct: true, rationale: Correct. Structural pattern matching arrived in 3.10.}
  - {text: Python 3.8, rationale: Incorrect. It brought the walrus operator.}
""", """\
id: oo-precisions
stem: Which number format halves memory without losing float32's exponent range?
options:
  - {text: fp16, rationale: Incorrect. Its exponent range is much smaller.}
  - {text: bf16, correct: true, rationale: Correct. It keeps the 8-bit exponent.}
  - {text: fp32, rationale: Incorrect. It does not halve memory.}
  - {text: int8, rationale: Incorrect. It is an integer format.}
""", """\
id: oo-letter-after-article
stem: What does the novice in the story hope for?
options:
  - {text: To become a S-nin, correct: true, rationale: Correct. That is the rank the story names.}
  - {text: To stay an apprentice, rationale: Incorrect. The novice wants to advance.}
  - {text: La septicémie a S. aureus, rationale: Incorrect. Unrelated.}
  - {text: To leave, rationale: Incorrect. The novice stays.}
"""),
    failing=(Invalid("""\
id: oo-scrambled
stem: A recipe needs 3 eggs per cake. How many eggs are needed for 7 cakes?
options:
  - {text: '18', rationale: Incorrect. That is 6 cakes.}
  - {text: '21', correct: true, rationale: Correct. 3 x 7 = 21.}
  - {text: '14', rationale: Incorrect. That is 2 eggs per cake.}
  - {text: '28', rationale: Incorrect. That is 4 eggs per cake.}
""", field="options", message="numeric options are not in ascending order (18, 21, 14, 28)",
        fixed="""\
id: oo-scrambled
stem: A recipe needs 3 eggs per cake. How many eggs are needed for 7 cakes?
options:
  - {text: '14', rationale: Incorrect. That is 2 eggs per cake.}
  - {text: '18', rationale: Incorrect. That is 6 cakes.}
  - {text: '21', correct: true, rationale: Correct. 3 x 7 = 21.}
  - {text: '28', rationale: Incorrect. That is 4 eggs per cake.}
"""), Invalid("""\
id: oo-units
stem: How long does light from the Sun take to reach Earth?
options:
  - {text: about 8 seconds, rationale: Incorrect. Light covers 150 million km in far longer.}
  - {text: about 8 minutes, correct: true, rationale: Correct. 1.5e8 km / 3e5 km/s is about 500 s.}
  - {text: about 8 hours, rationale: Incorrect. That is 60 times too long.}
  - {text: about 1 second, rationale: Incorrect. That is the Moon's distance.}
""", field="options", message="numeric options are not in ascending order"), Invalid("""\
id: oo-sentences
stem: About how many people live in Canada?
options:
  - {text: Canada has about 40 million people., correct: true, rationale: Correct. The 2023 estimate is about 40 million.}
  - {text: Canada has about 4 million people., rationale: Incorrect. That is ten times too few.}
  - {text: Canada has about 400 million people., rationale: Incorrect. That exceeds the US population.}
""", field="options", message="numeric options are not in ascending order")),
)
