"""duplicate-option: two options of one question say the same thing."""
import re
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache

from pydantic import Field

from qlint.finding import Severity
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

_LABEL = re.compile(r"^\s*(?:\(?[A-Ha-h]\)\s*|[A-H]\.\s+)")
_NUM = re.compile(r"^\s*([-+]?\$?\d[\d,]*(?:\.\d+)?|[-+]?\d+\s*/\s*\d+)\s*(%|[a-z/]{0,6})\s*$", re.I)
# commas that group thousands ("1,000,000"); any other comma in a number is a decimal comma ("0,5") or unclear
_THOUSANDS = re.compile(r"[-+]?\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_DECIMAL_COMMA = re.compile(r"[-+]?\$?\d+,\d+")
_DIGIT = re.compile(r"\d")
_ARTICLES = frozenset(("a", "an", "the"))
# only prose punctuation is dropped (a period only where a sentence ends: "a.out" is a name; quotes never); maths symbols
# (+ - ^ ( ) = /) and signs are kept; _normal_cased applies this in cheaper steps
_PUNCT = re.compile(r"[,;:!?`*_]|[.](?=\s|$)")
# words that add nothing when they open an option that is otherwise the other ("It is called Ottawa." vs "Ottawa");
# at its end they may be what the option is ("Save" / "Save As"), and an intensifier changes a phrase ("right" /
# "just right") (no articles: those left after normalising are letters, as in "A, C")
_FILLER = frozenset(("it", "is", "its", "it's", "called", "known", "as", "answer", "option", "that", "this", "be",
                     "would", "will"))
# a transposed-letter typo is a slip in a copied phrase: between one- or two-word options the letters are the point
# (a spelling question, a look-alike name such as "Orpah" / "Oprah", a pun such as "crepes" / "creeps")
_TYPO_MIN_WORDS = 3
# the question is about code or data, where "0" and "0.0" (an int and a float) or "3,14" and "3.14" differ
_PROGRAMMING = re.compile(r"\b(?:variables?|data\s*types?|datatypes?|float|double|integers?|int|boolean|strings?|"
                          r"chars?|json|yaml|xml|csv|output|print(?:s|ed)?|console|syntax|literals?|declar\w*|typeof|"
                          r"casts?|default\s+values?|python|java|javascript|typescript|kotlin|swift|golang|rust|php|"
                          r"ruby|sql|bash|shell|regex|compiler?|programs?|code|functions?\s*\()\b", re.I)


class Options(RuleOptions):
    flag_numeric_equal: bool = Field(default=True, description="'0.5' and '1/2', '1,000' and '1000' are duplicates")
    flag_filler_containment: bool = Field(default=True, description="'Ottawa' and 'It is called Ottawa' are duplicates")
    flag_typo_variants: bool = Field(default=True, description="options equal but for one transposed-letter typo")


# quotes are not among them: '42' and 42, "key" and key differ in code and in data formats, and reviewers of real
# banks called such pairs false alarms
_PUNCT_CHARS = str.maketrans({c: " " for c in ",;:!?`*_"})
_ANY_PUNCT = re.compile("[,;:!?`*_]")
_PERIOD = re.compile(r"[.](?=\s|$)")
# symbols that make an option code or markup, where every character counts ("$$" vs "$?", "a:hover" vs "a :hover"),
# and quotes or an underscore inside a name ('key: "value"', "VPC_Change_Group")
_CODE = re.compile(r"[`{}\[\]<>=$@#*&|\\^~\"]|\w\(|::|!\w|\w!|[^\W_]_[^\W_]")
# a character that every match of _CODE holds (one set: a search tests each character once, and most options
# have none of them)
_CODE_CHAR = re.compile(r"[`{}\[\]<>=$@#*&|\\^~\"(:!_]")
# options longer than this are not searched for typos (their words' sorted letters are the search key)
_TYPO_MAX_CHARS = 200
# options sharing a key that are checked pairwise against each later one (bounds adversarial input)
_PEERS = 8


@lru_cache(maxsize=8192)
def _normal_cased(text: str) -> str:
    """The option as prose: label, prose punctuation and articles dropped, case kept (the caller folds it)."""
    t = _LABEL.sub("", text).replace("’", "'")
    # each step only when it can change something: a translate for the plain characters, the context-dependent
    # ones by regex; the quote's context ("'s" then a word boundary) is judged on the text as written
    if "." in t:   # before the quotes: a period is judged by what follows it as written
        t = _PERIOD.sub(" ", t)
    if _ANY_PUNCT.search(t):
        t = t.translate(_PUNCT_CHARS)
    words = t.split()
    # an article comes before a word: a lone "A" before another single letter is a letter in a list ("A, C")
    return " ".join([w for k, w in enumerate(words)
                     if not (w.lower() in _ARTICLES and k + 1 < len(words) and len(words[k + 1]) > 1)])


@lru_cache(maxsize=8192)
def _number(text: str) -> tuple[Fraction, str] | None:
    m = _NUM.match(_LABEL.sub("", text).strip().rstrip("."))
    if not m:
        return None
    written = m.group(1).replace(" ", "")
    if "," in written:
        if _THOUSANDS.fullmatch(written):
            written = written.replace(",", "")
        elif _DECIMAL_COMMA.fullmatch(written):
            written = written.replace(",", ".")   # "0,5" is a half where decimals are written with a comma
        else:
            return None
    try:   # exact: 0.000001 and 0.0000000001 are different numbers
        value = Fraction(written.replace("$", ""))
    except (ValueError, ZeroDivisionError):
        return None
    return value, m.group(2).lower().rstrip("s")


def _transposition(a: str, b: str) -> bool:
    if len(a) != len(b) or len(a) < 5 or a == b or any(c.isdigit() for c in a + b):
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _core(normal: str) -> str:
    """The words left once leading filler words are cut ("it is called ottawa" -> "ottawa")."""
    words = normal.split()
    lo = 0
    while lo < len(words) and words[lo] in _FILLER:
        lo += 1
    return " ".join(words[lo:]) if lo else ""


def _why(na: str, nb: str, number: tuple[Fraction, str] | None, options: Options,
         other_number: tuple[Fraction, str] | None) -> str | None:
    """Why two options (normalised, non-empty) are the same; the numbers are theirs when they have digits."""
    if na == nb:
        return "identical once case, punctuation and articles are ignored"
    if number is not None and number == other_number:
        return "the same number written differently"
    if options.flag_filler_containment:
        shorter, longer = (na, nb) if len(na) < len(nb) else (nb, na)
        # word lists are joined by single spaces: the longer ends with the shorter's words exactly so
        if longer.endswith(" " + shorter):
            extra = longer[:len(longer) - len(shorter)].split()
            if extra and all(w in _FILLER for w in extra):
                return "one is the other plus filler words"
    if options.flag_typo_variants and len(na) == len(nb):   # a transposition keeps the length
        wa, wb = na.split(), nb.split()
        if len(wa) == len(wb) >= _TYPO_MIN_WORDS:
            diffs = [(x, y) for x, y in zip(wa, wb) if x != y]
            if len(diffs) == 1 and _transposition(*diffs[0]):
                return "they differ only by a transposed-letter typo"
    return None


def _normals(question: Question, as_code: bool = False) -> tuple[list[str], bool]:
    """Each option's comparison text and whether the options are prose: code and markup (and every option when
    ``as_code``) are compared as written (spacing aside), prose normalised.

    Case is folded unless the options show it is the point: three or more of them differ from another only in
    case (TRUE / true / NULL / null), which a writer does on purpose."""
    if as_code or "`" in question.stem or any(_CODE_CHAR.search(o.text) and _CODE.search(o.text)
                                              for o in question.options):
        # as written, but for spacing within lines: a line break may be output ("1\n1" is not "1 1")
        return ["\n".join(" ".join(line.split()) for line in o.text.splitlines() if line.strip())
                for o in question.options], False
    texts = [" ".join(o.text.split()) for o in question.options]
    cased = [_normal_cased(t) for t in texts]
    folded = [c.lower() for c in cased]
    if len(set(folded)) < len(folded):   # some options are equal once case is folded: is case the point?
        forms: dict[str, set[str]] = {}
        for c, f in zip(cased, folded):
            forms.setdefault(f, set()).add(c)
        if sum(1 for f in folded if len(forms[f]) > 1) >= 3:
            return cased, True
    return folded, True


def _case_matters(a: str, b: str) -> bool:
    """Two options that differ only in the case of a name: one word ("True" / "true"), or a word that is no
    plain word ("declare -a" / "declare -A", "/contact/" / "/CONTACT/", "VarX" / "varx", "TRUE" / "true"); a
    capital opening a word ("sodium Chloride" / "Sodium chloride") or a long word in capitals is only style
    (reviewers of real banks called the case pairs false alarms)."""
    ca, cb = _normal_cased(a), _normal_cased(b)
    if ca == cb or ca.lower() != cb.lower():
        return False
    wa, wb = ca.split(), cb.split()
    if len(wa) == 1:
        return True
    return any(x != y and (not x.isalpha() or len(x) == 1 or _named(x) or _named(y)) for x, y in zip(wa, wb))


def _named(word: str) -> bool:
    """A word whose case is part of its name: capitals after its first letter ("VarX", "NaN"), or a short word
    in capitals ("TRUE", "NULL")."""
    return any(c.isupper() for c in word[1:]) and (not word.isupper() or len(word) <= 5)


def _peer_keys(normal: str, options: Options, alike: bool) -> list[tuple[str, str]]:
    """Keys under which options that may be near-duplicates of this one meet: the same filler-free core, or
    the same letters in each word (a transposed-letter typo keeps them).

    The letters are a key only where a typo can be found: when another option is as long (``alike``; a
    transposition keeps the length) and this one has enough words. An option without that key loses no match:
    the options that would share it with this one are as long and have as many words, so a typo is ruled out,
    containment too (it needs a longer option), and equal texts or numbers meet under their own keys."""
    keys = []
    if options.flag_filler_containment:
        keys.append(("core", _core(normal) or normal))
    if options.flag_typo_variants and alike and len(normal) <= _TYPO_MAX_CHARS:
        words = normal.split()
        if len(words) >= _TYPO_MIN_WORDS:
            # each word by its letters, words with digits as written (a typo is never in a number)
            keys.append(("letters", " ".join(w if _DIGIT.search(w) else "".join(sorted(w)) for w in words)))
    return keys


def _first_match(j: int, normals: list[str], numbers: list, first: dict, peers: dict, keys: list,
                 options: Options) -> int:
    """The lowest earlier option that option j duplicates, or -1; every lookup is a dict hit or bounded."""
    candidates = [first.get(normals[j], j)]
    if numbers[j] is not None:
        candidates.append(first.get(numbers[j], j))
    for key in keys:
        candidates += [i for i in peers[key][:_PEERS] if i < j]
    return min((i for i in candidates if i < j and
                _why(normals[i], normals[j], numbers[i], options, numbers[j])), default=-1)


# an option that is only a list number ("1.", "b)"): in a flattened multi-part item the numbers of each part's
# list start again, and the repeats are layout, not answers
_ENUMERATOR = re.compile(r"^\s*\(?(?:\d{1,2}|[a-hA-H])[.)]\s*$")


def _restarted_lists(question: Question) -> bool:
    """Whether the options hold list numbers that start again ("1.", "2.", "3.", "1.", "2.", ...)."""
    numbers = [o.text.strip().strip("().").lower() for o in question.options if _ENUMERATOR.match(o.text)]
    return len(numbers) > len(set(numbers)) and numbers.count(numbers[0]) > 1


def check(question: Question, options: Options) -> Iterator[Violation]:
    pairs, normals, numbers, prose = _pairs(question, options)
    # only where prose options meet: is the question about code or data, where every character counts?
    if pairs and prose and _PROGRAMMING.search(question.stem):
        pairs, normals, numbers, prose = _pairs(question, options, as_code=True)
    for i, j in pairs:
        if prose and _case_matters(question.options[i].text, question.options[j].text):
            continue
        why = _why(normals[i], normals[j], numbers[i], options, numbers[j])
        yield Violation(f"options[{j}].text", f"option {j + 1} duplicates option {i + 1} ({why}); "
                                              "replace one with a distinct distractor")


def _pairs(question: Question, options: Options, as_code: bool = False) -> tuple[list[tuple[int, int]], list[str],
                                                                                list, bool]:
    """The duplicate pairs (i < j: each j with the first earlier option it duplicates, sorted by i then j), each
    option's comparison text and number, and whether they are prose."""
    normals, prose = _normals(question, as_code)
    if _restarted_lists(question):
        normals = ["" if _ENUMERATOR.match(o.text) else n for o, n in zip(question.options, normals)]
    # each option's number once (only prose options with a digit can be one)
    numeric = prose and options.flag_numeric_equal
    numbers = [_number(o.text) if numeric and _DIGIT.search(o.text) else None for o in question.options]
    # near-duplicates (filler, typos) only among prose options; code is compared as written
    lengths = Counter(map(len, normals))
    keys = [_peer_keys(n, options, lengths[len(n)] > 1) if prose and n else [] for n in normals]
    first: dict = {}
    peers: dict[tuple[str, str], list[int]] = {}
    met = False   # whether two options share a text, a number or a key: only then can one duplicate another
    for i, n in enumerate(normals):
        if n:
            met |= first.setdefault(n, i) != i
            if numbers[i] is not None:
                met |= first.setdefault(numbers[i], i) != i
            for key in keys[i]:
                group = peers.setdefault(key, [])
                met |= bool(group)
                group.append(i)
    if not met:
        return [], normals, numbers, prose
    pairs = [(i, j) for j, n in enumerate(normals) if n and
             (i := _first_match(j, normals, numbers, first, peers, keys[j], options)) >= 0]
    return sorted(pairs), normals, numbers, prose


RULE = QuestionRule(
    code="Q305",
    name="duplicate-option",
    severity=Severity.WARNING,
    summary="Two options say the same thing (equal once case, punctuation, articles and number format are ignored).",
    why=("Two options that mean the same cannot differ in correctness, so test-wise examinees eliminate both (or, "
         "if one is the key, the item has two keys). It also wastes a distractor. Haladyna, Downing & Rodriguez "
         "(2002) ask for options that are mutually exclusive."),
    use_instead="Replace one of the pair with a distinct, plausible distractor.",
    options=Options,
    check=check,
    notes="A warning, not an error: on six public banks of real questions, two reviewers agreed with 40 of 50 sampled findings (0.80); options that differ by a word that matters (Save / Save As) or by their layout were judged false alarms. " + ("Built for precision: options are compared after dropping case, prose punctuation and articles (maths "
           "symbols and signs are kept, so \"-30\" and \"+30\" differ; a period counts only where a sentence ends, "
           "so \"a.out\" is a name; a lone letter before another is no article, so \"A, C\" keeps its A), as numbers (\"0.5\" = \"1/2\", same unit), "
           "as the same text after a leading filler phrase (\"It is called Ottawa\"; a word at the end may be what "
           "the option is: \"Save\" / \"Save As\"), and for a single transposed-letter typo in a word of 5+ "
           "letters inside options of three or more words (between one- or two-word options the letters are the "
           "point: a spelling question, a look-alike name such as \"Orpah\" / \"Oprah\", a pun). "
           "Options of a question with code or markup (backticks, or symbols such as $ { } < > = # @) are compared "
           "as written, spacing within a line aside (a line break may be output), and so are the options of a "
           "question about code or data (JSON, a variable's type, a program's output: \"0\" and \"0.0\" or "
           "\"3,14\" and \"3.14\" differ there) and options with quotes or an underscore inside a name. Case "
           "is kept when three or more options differ from another only in case (\"true\" / \"TRUE\" / "
           "\"null\" / \"NULL\"), and two options differing only in the case of a name are different "
           "(\"declare -a\" / \"declare -A\", \"VarX\" / \"varx\"). Options are grouped by their normal form, so a "
           "question with 100,000 options is checked in linear time. "
           "Fuzzy similarity is deliberately not used: minimal pairs (\"toss\"/\"throw\", \"minutes\"/\"hours\") and "
           "order-sensitive tuples (\"Wrong, Not wrong\" / \"Not wrong, Wrong\") are legitimate options. No human "
           "labels exist for this flaw; all 7 findings on the BenchMarker dev split were checked by hand and are "
           "true duplicates."),
    passing=("""\
id: do-restarted-lists
stem: "Match each kind of resource to its scope: management groups, blueprint definitions, blueprint assignments."
options:
  - {text: "Management groups:", rationale: A heading of the first list.}
  - {text: 1., correct: true, rationale: The first slot.}
  - {text: 2., rationale: The second slot.}
  - {text: "Blueprint definitions:", rationale: A heading of the second list.}
  - {text: 1., rationale: The first slot again.}
  - {text: 2., rationale: The second slot again.}
""", """\
id: do-case-is-the-point
stem: Which git branch flag deletes a branch even when it is not merged?
options:
  - {text: '-d', rationale: Incorrect. It refuses unmerged branches.}
  - {text: '-D', correct: true, rationale: Correct. It is --delete --force.}
  - {text: '"-D"', rationale: 'Incorrect. Quoted, it is not a flag.'}
  - {text: '-f', rationale: Incorrect. branch -f moves a branch.}
""", """\
id: do-decimal-comma
stem: Quelle est la dose maximale, en grammes ?
options:
  - {text: '0,5', correct: true, rationale: Correct.}
  - {text: '5', rationale: Incorrect. Dix fois trop.}
  - {text: '0,000001', rationale: Incorrect.}
  - {text: '0,0000000001', rationale: Incorrect.}
""", """\
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
""", """\
id: do-letter-lists
stem: "Which of the statements are true? A: water boils at 100 C at sea level. B: ice sinks. C: steam is water."
options:
  - {text: A, rationale: Incorrect. C is true as well.}
  - {text: C, rationale: Incorrect. A is true as well.}
  - {text: "A, C", correct: true, rationale: Correct. B is false; ice floats.}
  - {text: "A, B, C", rationale: Incorrect. Ice floats.}
""", """\
id: do-case-is-the-point
stem: Which of these is a literal in JSON?
options:
  - {text: 'true', correct: true, rationale: Correct. JSON literals are lower case.}
  - {text: 'TRUE', rationale: Incorrect. JSON is case-sensitive.}
  - {text: 'Null', rationale: Incorrect. Only null in lower case.}
  - {text: 'NULL', rationale: Incorrect. Only null in lower case.}
""", """\
id: do-code-symbols
stem: In a shell, which variable holds the exit status of the last command?
options:
  - {text: '$?', correct: true, rationale: Correct. It expands to the last exit status.}
  - {text: '$$', rationale: Incorrect. That is the process id of the shell.}
  - {text: '$!', rationale: Incorrect. That is the id of the last background job.}
  - {text: 'a.out', rationale: Incorrect. That is a default program name.}
  - {text: 'out', rationale: Incorrect. Not a variable.}
""", """\
id: do-case-sensitive-flag
stem: What is the command to create an associative array in Bash?
options:
  - {text: declare -A, correct: true, rationale: Correct. -A declares an associative array.}
  - {text: declare -a, rationale: Incorrect. -a declares an indexed array.}
  - {text: declare -i, rationale: Incorrect. -i declares an integer.}
""", """\
id: do-spelling
stem: Which is the correct spelling of the word for commercial or mercantile activity?
options:
  - {text: business, correct: true, rationale: Correct.}
  - {text: buisness, rationale: Incorrect. The i and the s are swapped.}
  - {text: bussiness, rationale: Incorrect. There is one s before the i.}
""", """\
id: do-look-alike
stem: Who was Ruth's sister-in-law according to the Book of Ruth?
options:
  - {text: Orpah, correct: true, rationale: Correct. She returns to Moab.}
  - {text: Oprah, rationale: 'Incorrect. A look-alike of the name, from a later century.'}
  - {text: Naomi, rationale: Incorrect. She is Ruth's mother-in-law.}
""", """\
id: do-type-is-the-point
stem: What is the default value of a double field in Java?
options:
  - {text: '0.0', correct: true, rationale: Correct. Numeric fields default to zero of their type.}
  - {text: '0', rationale: Incorrect. That is the int default.}
  - {text: 'null', rationale: Incorrect. Primitives are never null.}
""", """\
id: do-a-word-that-matters
stem: Which command writes the open project to a new file under another name?
options:
  - {text: Save As, correct: true, rationale: Correct. It asks for a new name.}
  - {text: Save, rationale: Incorrect. It overwrites the current file.}
  - {text: Export, rationale: Incorrect. It writes another format.}
"""),
    failing=(Invalid("""\
id: do-case
stem: Which compound is common table salt?
options:
  - {text: Sodium chloride, correct: true, rationale: Correct. NaCl.}
  - {text: sodium Chloride., rationale: Incorrect. The same compound.}
  - {text: Potassium iodide, rationale: Incorrect. It is added to iodised salt.}
""",
        field="options[1].text",
        message="option 2 duplicates option 1 (identical once case, punctuation and articles are ignored)"), Invalid("""\
id: do-number
stem: What fraction of 8 is 4?
options:
  - {text: 1/2, correct: true, rationale: Correct. 4 / 8 = 1/2.}
  - {text: '0.5', rationale: Incorrect as a separate answer. It equals 1/2.}
  - {text: 1/4, rationale: Incorrect. That is 2 / 8.}
""", field="options[1].text", message="option 2 duplicates option 1 (the same number written differently)"), Invalid("""\
id: do-filler
stem: Which city is the capital of Canada?
options:
  - {text: Ottawa, correct: true, rationale: Correct. It has been the capital since 1857.}
  - {text: It is called Ottawa., rationale: Incorrect. Same city.}
  - {text: Toronto, rationale: Incorrect. It is the largest city.}
""", field="options[1].text", message="option 2 duplicates option 1 (one is the other plus filler words)"), Invalid("""\
id: do-typo-in-a-copy
stem: Where should the nightly backups be kept?
options:
  - {text: in a versioned bucket in another region, correct: true, rationale: Correct. It survives a regional outage.}
  - {text: in a versoined bucket in another region, rationale: 'Incorrect as a separate answer. The same place, mistyped.'}
  - {text: on the database server itself, rationale: Incorrect. It fails with the server.}
""", field="options[1].text", message="option 2 duplicates option 1 (they differ only by a transposed-letter typo)")),
)
