"""duplicate-option: two options of one question say the same thing."""
import re
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache

from pydantic import Field

from qlint.finding import Severity
from qlint.model import Question
from qlint.rule import QuestionRule, RuleOptions, Violation

_LABEL = re.compile(r"^\s*(?:\(?[A-Ha-h]\)\s*|[A-H]\.\s+)")
# only prose punctuation is dropped; maths symbols (+ - ^ ( ) = /) and signs are kept
_PUNCT = re.compile(r"[,;:!?\"“”‘’`*_]|(?<!\d)[.]|[.](?!\d)|'(?!s\b)")
_NUM = re.compile(r"^\s*([-+]?\$?\d[\d,]*(?:\.\d+)?|[-+]?\d+\s*/\s*\d+)\s*(%|[a-z/]{0,6})\s*$", re.I)
_DIGIT = re.compile(r"\d")
_ARTICLES = frozenset(("a", "an", "the"))
# words that add nothing when one option is the other plus these ("It is called Ottawa." vs "Ottawa")
_FILLER = frozenset(("it", "is", "its", "it's", "called", "known", "as", "answer", "the", "a", "an", "simply",
                     "just", "exactly", "option", "that", "this", "be", "would", "will"))


class Options(RuleOptions):
    flag_numeric_equal: bool = Field(default=True, description="'0.5' and '1/2', '1,000' and '1000' are duplicates")
    flag_filler_containment: bool = Field(default=True, description="'Ottawa' and 'It is called Ottawa' are duplicates")
    flag_typo_variants: bool = Field(default=True, description="options equal but for one transposed-letter typo")


_PUNCT_CHARS = str.maketrans({c: " " for c in ",;:!?\"“”‘’`*_"})
_ANY_PUNCT = re.compile("[,;:!?\"“”‘’`*_]")
_PERIOD = re.compile(r"(?<!\d)[.]|[.](?!\d)")
_QUOTE = re.compile(r"'(?!s\b)")


@lru_cache(maxsize=8192)
def _normal(text: str) -> str:
    t = _LABEL.sub("", text).lower().replace("’", "'")
    # _PUNCT.sub(" ", t) in parts, each only when it can change something: a translate for the plain characters,
    # the context-dependent ones (a period is kept only beside a digit) by regex
    # the quote's context ("'s" then a word boundary) is judged on the text as written: an "_" after it is a word
    # character until the translate turns it into a space
    if "'" in t:
        t = _QUOTE.sub(" ", t)
    if "." in t:
        t = _PERIOD.sub(" ", t) if _DIGIT.search(t) else t.replace(".", " ")
    if _ANY_PUNCT.search(t):
        t = t.translate(_PUNCT_CHARS)
    return " ".join([w for w in t.split() if w not in _ARTICLES])


@lru_cache(maxsize=8192)
def _number(text: str) -> tuple[Fraction, str] | None:
    m = _NUM.match(_LABEL.sub("", text).strip().rstrip("."))
    if not m:
        return None
    try:
        value = Fraction(m.group(1).replace(",", "").replace("$", "").replace(" ", "")).limit_denominator(10000)
    except (ValueError, ZeroDivisionError):
        return None
    return value, m.group(2).lower().rstrip("s")


def _transposition(a: str, b: str) -> bool:
    if len(a) != len(b) or len(a) < 5 or a == b or any(c.isdigit() for c in a + b):
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _why(na: str, nb: str, number: tuple[Fraction, str] | None, options: Options,
         other_number: tuple[Fraction, str] | None) -> str | None:
    """Why two options (normalised, non-empty) are the same; the numbers are theirs when they have digits."""
    if na == nb:
        return "identical once case, punctuation and articles are ignored"
    if number is not None and number == other_number:
        return "the same number written differently"
    if options.flag_filler_containment:
        shorter, longer = (na, nb) if len(na) < len(nb) else (nb, na)
        # word lists are joined by single spaces: one is a prefix or suffix of the other's words exactly so
        if longer.startswith(shorter + " ") or longer.endswith(" " + shorter):
            ws, wl = shorter.split(), longer.split()
            for start in (0, len(wl) - len(ws)):
                if wl[start:start + len(ws)] == ws:
                    extra = wl[:start] + wl[start + len(ws):]
                    if extra and all(w in _FILLER for w in extra):
                        return "one is the other plus filler words"
    if options.flag_typo_variants and len(na) == len(nb):   # a transposition keeps the length
        wa, wb = na.split(), nb.split()
        if len(wa) == len(wb):
            diffs = [(x, y) for x, y in zip(wa, wb) if x != y]
            if len(diffs) == 1 and _transposition(*diffs[0]):
                return "they differ only by a transposed-letter typo"
    return None


def check(question: Question, options: Options) -> Iterator[Violation]:
    opts, reported = question.options, set()
    normals = [_normal(o.text) for o in opts]
    # each option's number once (only options with a digit can be one), not once per pair
    numbers = [_number(o.text) if options.flag_numeric_equal and _DIGIT.search(o.text) else None for o in opts]
    for i in range(len(opts)):
        if not normals[i]:
            continue
        for j in range(i + 1, len(opts)):
            if j not in reported and normals[j] and \
                    (why := _why(normals[i], normals[j], numbers[i], options, numbers[j])):
                reported.add(j)
                yield Violation(f"options[{j}].text", f"option {j + 1} duplicates option {i + 1} ({why}); "
                                                      "replace one with a distinct distractor")


RULE = QuestionRule(
    code="Q305",
    name="duplicate-option",
    severity=Severity.ERROR,
    summary="Two options say the same thing (equal once case, punctuation, articles and number format are ignored).",
    why=("Two options that mean the same cannot differ in correctness, so test-wise examinees eliminate both (or, "
         "if one is the key, the item has two keys). It also wastes a distractor. Haladyna, Downing & Rodriguez "
         "(2002) ask for options that are mutually exclusive."),
    use_instead="Replace one of the pair with a distinct, plausible distractor.",
    options=Options,
    check=check,
    notes=("Built for precision: options are compared after dropping case, prose punctuation and articles (maths "
           "symbols and signs are kept, so \"-30\" and \"+30\" differ), as numbers (\"0.5\" = \"1/2\", same unit), "
           "as the same text plus filler words, and for a single transposed-letter typo in a word of 5+ letters. "
           "Fuzzy similarity is deliberately not used: minimal pairs (\"toss\"/\"throw\", \"minutes\"/\"hours\") and "
           "order-sensitive tuples (\"Wrong, Not wrong\" / \"Not wrong, Wrong\") are legitimate options. No human "
           "labels exist for this flaw; all 7 findings on the BenchMarker dev split were checked by hand and are "
           "true duplicates."),
    passing=("""\
id: do-minimal-pair
stem: To soften butter quickly, you can
options:
  - {text: cut it into small cubes and leave it for ten minutes, correct: true, rationale: Correct. Small cubes warm fast.}
  - {text: cut it into small cubes and leave it for ten hours, rationale: Incorrect. It would melt and spoil.}
""", """\
id: do-tuples
stem: "For which scenario does the narrator act wrongly? Scenario 1: I lied to my boss. Scenario 2: I paid my rent."
options:
  - {text: "Wrong, Not wrong", correct: true, rationale: Correct. Lying is wrong; paying rent is not.}
  - {text: "Not wrong, Wrong", rationale: Incorrect. The verdicts are swapped.}
  - {text: "Wrong, Wrong", rationale: Incorrect. Paying rent is not wrong.}
  - {text: "Not wrong, Not wrong", rationale: Incorrect. Lying is wrong.}
""", """\
id: do-signs
stem: What is -5 x 6?
options:
  - {text: '-30', correct: true, rationale: Correct. A negative times a positive is negative.}
  - {text: '+30', rationale: Incorrect. The sign is wrong.}
  - {text: '-11', rationale: Incorrect. That is -5 - 6.}
"""),
    failing=("""\
id: do-case
stem: What is the chemical symbol of sodium?
options:
  - {text: Na, correct: true, rationale: Correct. From the Latin natrium.}
  - {text: NA., rationale: Incorrect. Same letters.}
  - {text: So, rationale: Incorrect. No such element.}
""", """\
id: do-number
stem: What fraction of 8 is 4?
options:
  - {text: 1/2, correct: true, rationale: Correct. 4 / 8 = 1/2.}
  - {text: '0.5', rationale: Incorrect as a separate answer. It equals 1/2.}
  - {text: 1/4, rationale: Incorrect. That is 2 / 8.}
""", """\
id: do-filler
stem: Which city is the capital of Canada?
options:
  - {text: Ottawa, correct: true, rationale: Correct. It has been the capital since 1857.}
  - {text: It is called Ottawa., rationale: Incorrect. Same city.}
  - {text: Toronto, rationale: Incorrect. It is the largest city.}
"""),
)
