"""grammatical-cue: options that do not fit the stem's grammar (a/an, singular/plural, verb form), or are not parallel.

Two families of signal. The stem's grammar against each option: an article at the end of the lead-in against
the option's first sound and number; a stem that asks for one thing ("Which of the following is a ...", "... is
called") against plural options, or for several ("... are called", "These are ...") against "a ..." options; a
lead-in ending in its subject against a verb that does not agree; a goal ("To remove a stain,") or a "what does X
need to do" question against options that are not instructions or base-form verb phrases; a question asking for a
place, a person or an action ("Where ...", "Who ...", "What will X want to do?") against a bare adjective, and a
blank that takes a verb ("he must what?") against a noun phrase. And the options against
each other: "a ..." beside bare nouns, one numeric option written unlike the rest, sentences among short phrases,
a prepositional phrase among noun phrases, an option that opens a new section while the others continue the text.
"""
import re
from collections import Counter
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.grammar import DETERMINERS, form, is_plural, noun_head, starts_with_vowel_sound
from qlint.language.phrases import is_meta
from qlint.language.words import MARKUP, WORD, is_numeric
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

_BLANK = r"\s*(?:\.{3}|…|_+)?\s*"
# the lead-in ends in the article, or asks for "a what?"; lower case only: "... of vitamin A" is no article
ARTICLE_END = re.compile(r"\b(an?)" + _BLANK + r"$|\b(an?)\s+(?:what|which)\s*\??\s*$")
# the answer is one thing: "Which of the following is a ...", "Which unit is used ...", "What is often ...",
# "... is called"
SINGULAR = re.compile(
    r"\bwhich(?:\s+(?:one|of\s+(?:the\s+following|these|those)))?\s+(?:is|was)\s+(?:an?|one)\b"
    r"|\b(?:which|what)(?:\s+[a-z]+[^s\W])?\s+(?:is|was|has)\s+(?:[a-z]+(?:ed|est)|often|usually|commonly|always"
    r"|mainly|mostly|generally|typically|most|best|least|likely|also|not)\b"
    r"|\b(?:is|was)\s+(?:called|known\s+as|termed|named|referred\s+to\s+as|an?\s+(?:example|type|kind|form)\s+of)"
    + _BLANK + r"$", re.I)
# the answer is several things: "... are called", "These are ...", "Which of the following are examples of"
PLURAL = re.compile(
    r"\b(?:are|were)(?:\s+(?:called|known\s+as|termed|named|referred\s+to\s+as|(?:examples|types|kinds)\s+of))?"
    + _BLANK + r"$|\b(?:these|those)\s+are\b"
    r"|\bwhich\s+(?:of\s+(?:the\s+following|these|those)\s+)?are\s+(?:examples|types|kinds)\b", re.I)
# an incomplete lead-in that ends in its subject ("... the man", "... they"): the options start with its verb
SUBJECT_END = re.compile(r"\b(he|she|it|they|we|(?:the|a|an|this|that|these|those)\s+(?:[a-z-]+\s+)?([a-z-]+))$",
                         re.I)
_SINGULAR_VERBS = frozenset("is was has does isn't wasn't hasn't doesn't".split())
_PLURAL_VERBS = frozenset("are were have do aren't weren't haven't don't".split())
# "a few", "a pair of", "a number of": an article before a plural
_QUANTITY = frozenset("few lot number couple pair dozen group set range variety series kind type".split())
# a goal ("To remove a stain,", "How to make tea") is completed by an instruction, not a statement or a list
GOAL = re.compile(r"^(?:how\s+)?to\s+(?!what\b|which\b|whom?\b|whose\b)[a-z]+\b[^?]*$", re.I)
_NOT_INSTRUCTION = frozenset("a an the this these those when if as because since just it they he she i we there "
                             "in with".split())
# "What does Kai need to do before this?", "Why did Kai do this?": answered by a base-form verb phrase
DO_FRAME = re.compile(r"\b(?:to\s+do|do\s+this)\b[^.?!]*\?\s*$", re.I)
_BASE_IN_ED = frozenset("embed shed wed bed red shred sled".split())
# "Where ...", "Who ...", "... where should he put it?": answered by a place or a person, never a bare adjective
PLACE_OR_PERSON = re.compile(r"(?:where|who)\b", re.I)
WHERE_END = re.compile(r"\bwhere\b[^.?!]*\?\s*$", re.I)
# "he must what?", "Objects do what with those materials?": the blank is a verb phrase, not a noun
# (not "does what"/"did what": "Typing it does what?" is answered by "Starts the service", "Floats")
VERB_BLANK = re.compile(r"\b(?:(will|would|can|could|should|must|may|might)|do)\s+what\b[^?.]*\?\s*$", re.I)
# common adjectives that are not also nouns, names of groups ("the rich"), verbs ("clean", "upset") or words of
# position ("far", "deep", "low")
_ADJECTIVES = frozenset("""
afraid angry annoying ashamed bad beautiful big bored boring brave bright broken busy careful careless cheap clever
closed confused crowded curious cute dangerous delighted difficult dirty disappointed early easy embarrassed
excited exciting expensive famous fancy friendly frightened full glad good grateful happy hard harmful healthy
heavy helpful honest hopeful huge hungry imaginary important impossible interesting jealous large late lazy lonely
loud necessary nervous new nice noisy pleased polite popular possible pretty proud relieved rude sad satisfied
scared small smart soft sorry strong stupid successful surprised tall thankful thick thirsty tiny tired ugly useful
useless weak wet wide worried
""".split())
_NUMBER = re.compile(r"[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+−]?\.\d+")
_DIGIT = re.compile(r"\d")
_LETTERS = re.compile(r"[^\W\d_]+")
_SHAPE = re.compile(r"[Na%]")
_FORMULA = re.compile(r"[=^\\()]|\d\s*[-+*×÷]\s*[\w(]")   # expressions, not quantities: "4-4i", "f(n)=2n"


class Options(RuleOptions):
    check_article: bool = Field(default=True, description="a stem ending in 'a'/'an' against each option's first "
                                                          "sound and number")
    check_number: bool = Field(default=True, description="a stem asking for one thing (or several) against plural "
                                                         "(or 'a ...') options, and subject-verb agreement")
    check_completion: bool = Field(default=True, description="a goal or a 'what does X need to do' stem against "
                                                             "options that are not instructions or verb phrases")
    check_answer_kind: bool = Field(default=True, description="a 'Where'/'Who'/action question against a bare "
                                                              "adjective, and a verb blank against a noun phrase")
    check_article_mix: bool = Field(default=True, description="options with 'a'/'an' beside bare nouns")
    check_numeric_format: bool = Field(default=True, description="one numeric option written unlike the others")
    check_sentence_mix: bool = Field(default=True, description="full sentences mixed with bare phrases, or an option "
                                                               "opening a new section among continuations")
    max_phrase_words: int = Field(default=3, ge=1, le=1000,
                                  description="sentence mix: a bare phrase has at most this many words")
    check_form: bool = Field(default=True, description="a prepositional phrase among noun phrases, or the reverse")
    max_words: int = Field(default=6, ge=1, le=10_000, description="judge parallel form only for options up to this many words")
    min_options: int = Field(default=3, ge=2, le=1000, description="judge the options against each other only with at least "
                                                          "this many")
    max_minority_share: float = Field(default=0.5, gt=0, le=1, description="an odd form must be at most this share")


Opts = list[tuple[int, str]]


def _at(i: int, message: str) -> Violation:
    return Violation(f"options[{i}].text", message)


def _first_word(text: str) -> str:
    tokens = WORD.findall(text)
    return tokens[0].lower() if tokens else ""


def _plural_option(text: str) -> bool:
    head = noun_head(text)
    return bool(head) and is_plural(head) and _first_word(text) not in _QUANTITY


def _article(stem: str, opts: Opts) -> Iterator[Violation]:
    last = stem.rstrip(" ?_.…")[-6:]
    if not last.endswith((" a", " an", "what", "which")):
        return
    match = ARTICLE_END.search(stem)
    if not match:
        return
    article = match.group(1) or match.group(2)
    want_vowel = article == "an"
    for i, text in opts:
        tokens = re.findall(r"[\w'-]+", text)
        if not tokens or tokens[0].lower() in ("a", "an", "the"):
            continue
        if starts_with_vowel_sound(tokens[0]) != want_vowel:
            yield _at(i, f"the stem ends in \"{article}\" but option {i + 1} starts with a "
                         f"{'consonant' if want_vowel else 'vowel'} sound")
            return
        if _plural_option(text):
            yield _at(i, f"the stem ends in \"{article}\" but option {i + 1} is plural")
            return


def _number(stem: str, opts: Opts) -> Iterator[Violation]:
    tail = stem[-160:]
    lower = tail.lower()
    if (" is " in lower or " was " in lower or " has " in lower) and SINGULAR.search(tail):
        i = next((i for i, text in opts if _plural_option(text)), None)
        if i is not None:
            yield _at(i, f"the stem asks for one thing but option {i + 1} is plural")
    elif (" are" in lower or " were" in lower) and PLURAL.search(tail):
        i = next((i for i, text in opts if _first_word(text) in ("a", "an", "one") and " and " not in text), None)
        if i is not None:
            yield _at(i, f"the stem asks for several things but option {i + 1} is singular")


def _agreement(stem: str, opts: Opts) -> Iterator[Violation]:
    if not stem[-1:].isalpha():
        return
    match = SUBJECT_END.search(stem[-60:])
    if not match:
        return
    subject, noun = match.group(1).lower(), (match.group(2) or "").lower()
    plural = subject in ("they", "we") or subject.startswith(("these ", "those ")) or is_plural(noun)
    wrong = _SINGULAR_VERBS if plural else _PLURAL_VERBS
    i = next((i for i, text in opts if _first_word(text) in wrong), None)
    if i is not None:
        yield _at(i, f"the stem ends in a {'plural' if plural else 'singular'} subject but option {i + 1} starts "
                     "with a verb that does not agree with it")


def _completion(stem: str, opts: Opts) -> Iterator[Violation]:
    start = stem[:4].lower()
    if start.startswith(("to ", "how ")) and GOAL.match(stem):
        for i, text in opts:
            first = _first_word(text) if text[:1].isalpha() else "1"
            if len(text.split()) >= 3 and (first in _NOT_INSTRUCTION or first == "1"):
                yield _at(i, f"the stem states a goal but option {i + 1} is not an instruction")
                return
    elif " do" in stem[-80:].lower() and DO_FRAME.search(stem[-80:]):
        clauses = []
        for i, text in opts:
            first = _first_word(text)
            if first.endswith("ed") and len(first) >= 5 and not first.endswith("eed") and first not in _BASE_IN_ED:
                yield _at(i, f"the stem asks what someone does but option {i + 1} is in the past tense")
                return
            if first in ("so", "because"):
                clauses.append(i)
        if clauses and len(clauses) < len(opts) / 2:
            yield _at(clauses[0], f"the stem asks what someone does but option {clauses[0] + 1} is a clause")


def _answer_kind(stem: str, opts: Opts) -> Iterator[Violation]:
    tail = stem[-100:]
    lower = tail.lower()
    verb_blank = VERB_BLANK.search(tail) if "what" in lower else None
    if PLACE_OR_PERSON.match(stem) or ("where" in lower and WHERE_END.search(tail)):
        asked = "a place or a person"
    elif verb_blank or (" do" in lower and DO_FRAME.search(stem[-80:])):
        asked = "an action"
    else:
        return
    for i, text in opts:
        words = WORD.findall(text)
        if len(words) == 1 and words[0].lower() in _ADJECTIVES and not (words[0][0].isupper() and
                                                                         stem[:3].lower() == "who"):
            yield _at(i, f"the stem asks for {asked} but option {i + 1} is an adjective")
            return
        if verb_blank and words:
            # after "must"/"do", a verb in its base form: never a plural noun, an '-ical' word or (after a modal) 'the'
            first = words[0].lower()
            if (len(words) == 1 and _plural_option(text)) or first.endswith("ical") or (
                    verb_blank.group(1) and first in ("a", "an", "the")):
                yield _at(i, f"the stem's blank takes a verb but option {i + 1} is a noun phrase")
                return


def _article_mix(opts: Opts, forms: dict[int, str | None]) -> Iterator[Violation]:
    with_article, bare = [], []
    for i, text in opts:
        words = WORD.findall(text)
        if not words or len(words) > 5 or not text[:1].isalpha() or forms[i] == "sentence":
            return
        first = words[0].lower()
        if first in ("a", "an"):
            with_article.append(i)
        elif first not in DETERMINERS and not words[0][0].isupper():
            bare.append(i)
    if with_article and bare:
        odd = with_article if len(with_article) <= len(bare) else bare
        yield _at(odd[0], f"option {odd[0] + 1} {'has' if odd is with_article else 'lacks'} an article while "
                          "other options do not; options should be parallel")


def _numeric_format(opts: Opts) -> Iterator[Violation]:
    shapes, n_numeric = {}, 0
    for i, text in opts:
        if not _DIGIT.search(text) or _FORMULA.search(text):
            return
        n_numeric += is_numeric(text)
        # numbers, words and percent signs, not their spelling or other symbols: "42 kms/hr" and "41 km/hr" are
        # alike, and so are "100 °C" and "373 K"; "40%" and "0.4" are not, nor "6,468" and "6,468 DIRECTIONS"
        shapes[i] = " ".join(_SHAPE.findall(_NUMBER.sub(" N ", _LETTERS.sub(" a ", text))))
    if len(shapes) < 4 or n_numeric < len(shapes) - 1:
        return
    (major, n_major), = Counter(shapes.values()).most_common(1)
    if n_major == len(shapes) - 1:
        i = next(i for i, shape in shapes.items() if shape != major)
        yield _at(i, f"option {i + 1} is written unlike the other numeric options (unit, format or a stray word)")


def _sentence_mix(question: Question, opts: Opts, forms: dict[int, str | None],
                  options: Options) -> Iterator[Violation]:
    opens = [i for i, text in opts if MARKUP.match(text.lstrip())]
    if opens and len(opens) < len(opts) and "[" in question.stem:
        odd = opens if len(opens) <= len(opts) - len(opens) else [i for i, _ in opts if i not in opens]
        yield _at(odd[0], f"option {odd[0] + 1} {'opens a new section' if odd is opens else 'continues the text'} "
                          f"while other options {'continue the text' if odd is opens else 'open a new section'}")
        return
    forms = {i: f for i, f in forms.items() if f and f != "num"}
    if not forms:
        return
    # only a stark contrast counts: clauses against bare phrases of a few words (verbs are not all known)
    size = {i: len(WORD.findall(question.options[i].text)) for i in forms}
    n_sentence = sum(f == "sentence" for f in forms.values())
    n_phrase = sum(f != "sentence" and size[i] <= options.max_phrase_words for i, f in forms.items())
    if n_sentence + n_phrase < len(forms):
        n_phrase = 0
    if 0 < n_sentence and 0 < n_phrase and min(n_sentence, n_phrase) <= options.max_minority_share * len(forms):
        odd_is_sentence = n_sentence < n_phrase
        i = next(i for i, f in forms.items() if (f == "sentence") == odd_is_sentence)
        odd, rest = ("a full sentence", "phrases") if odd_is_sentence else ("a bare phrase", "sentences")
        yield _at(i, f"option {i + 1} is {odd} while the others are {rest}; options should be parallel")


def _form_mix(opts: Opts, forms: dict[int, str | None], options: Options) -> Iterator[Violation]:
    # only noun against prepositional phrases: verb, gerund and adverb readings without a lexicon are too rough
    phrases = {i: forms[i] for i, t in opts
               if forms[i] in ("noun", "prep") and len(WORD.findall(t)) <= options.max_words}
    if len(phrases) < options.min_options:
        return
    counts = Counter(phrases.values())
    major = counts.most_common(1)[0][0]
    for i, f in phrases.items():
        if f != major and counts[f] <= options.max_minority_share * len(phrases):
            yield _at(i, f"option {i + 1} is a {f} phrase while most options are {major} phrases; options should "
                         "be parallel")
            return


def _signals(question: Question, opts: Opts, options: Options) -> Iterator[Iterator[Violation]]:
    stem = question.stem.strip()
    if options.check_article:
        yield _article(stem, opts)
    if options.check_number:
        yield _number(stem, opts)
        yield _agreement(stem, opts)
    if options.check_completion:
        yield _completion(stem, opts)
    if options.check_answer_kind:
        yield _answer_kind(stem, opts)
    if len(opts) < options.min_options:
        return
    forms = {i: form(text) for i, text in opts}     # the costly part: once per question, shared below
    if options.check_article_mix:
        yield _article_mix(opts, forms)
    if options.check_numeric_format:
        yield _numeric_format(opts)
    if options.check_sentence_mix:
        yield _sentence_mix(question, opts, forms, options)
    if options.check_form:
        yield _form_mix(opts, forms, options)


def check(question: Question, options: Options) -> Iterator[Violation]:
    opts = [(i, o.text) for i, o in enumerate(question.options) if not is_meta(o.text)]
    if len(opts) < 2:
        return
    for found in _signals(question, opts, options):
        first = next(found, None)
        if first is not None:
            yield first         # one finding per question: the first, most specific signal
            return


RULE = QuestionRule(
    code="Q202",
    name="grammatical-cue",
    severity=Severity.INFO,
    enabled=False,
    summary="Options do not all fit the stem's grammar (a/an, singular/plural, verb agreement) or are not parallel "
            "in form (a sentence among phrases, 'a ...' among bare nouns, one number written differently).",
    why=("When the stem's grammar fits only some options, or one option differs in form from the rest, candidates "
         "discard options on grammar alone (Haladyna, Downing & Rodriguez 2002: keep options grammatically "
         "consistent with the stem and parallel; the NBME guide lists grammatical cues as a testwiseness flaw)."),
    use_instead=("Write every option in the same grammatical form (all noun phrases, all verb phrases, all full "
                 "sentences, all numbers in one format) so each completes the stem; end the stem with 'a(n)' only "
                 "when every option takes it, or leave the article to the options; match 'is'/'are' to the options."),
    options=Options,
    check=check,
    notes=("No dictionary or parser: a/an by a spelling heuristic for the first sound (acronyms letter by letter: "
           "'an MRI', 'a URL'; 'uni-', 'use', 'eu-', 'one' take 'a'; silent h in 'hour', 'honest', 'heir'); plural "
           "by spelling ('trees', 'bacteria'; not 'glass', 'virus', 'physics'), judged only on short noun phrases "
           "whose head is not a name; subject-verb agreement only on auxiliaries (is/are, has/have, ...); adjectives "
           "from a short list of common ones that are never nouns ('expensive', 'wet', 'proud'). So it misses what "
           "only meaning shows: a rarer adjective among nouns, a thing where a place is asked. Off by "
           "default although precise on the dev labels: on 64,247 questions from four public banks it fired on "
           "2,083 (3.2%), and of 14 findings drawn at random, 13 were no cue (titles, names and cloud service "
           "names read as sentences or phrases; UI steps mixed with 'Click X.'). The parallel-form checks need "
           "a parser before they can run on every bank."),
    passing=("""\
id: gc-ok
stem: The profiler view that shows kernels on a timeline per CUDA stream is an
options:
  - {text: execution trace, correct: true, rationale: Correct. The trace has one row per stream.}
  - {text: operator table, rationale: Incorrect. It aggregates time per operator.}
  - {text: allocation snapshot, rationale: 'Incorrect. It shows allocations, not kernels.'}
""", """\
id: gc-acronym
stem: To check whether a job is input-bound, first look at the utilisation of the GPU reported by an
options:
  - {text: NVML query (nvidia-smi), correct: true, rationale: Correct. It samples utilisation.}
  - {text: MPI trace, rationale: Incorrect. It records communication only.}
  - {text: HTTP log, rationale: Incorrect. It has nothing on the GPU.}
""", """\
id: gc-plural
stem: Processes that run on the GPU and are launched from the host are called
options:
  - {text: kernels, correct: true, rationale: Correct. The host launches kernels on the device.}
  - {text: streams, rationale: Incorrect. A stream orders kernels; it does not run.}
  - {text: warps, rationale: Incorrect. Warps are groups of threads inside a kernel.}
""", """\
id: gc-where
stem: Where should a long training job write its checkpoints?
options:
  - {text: shared storage, correct: true, rationale: Correct. It outlives the node.}
  - {text: local disk, rationale: Incorrect. It is lost when the node is reclaimed.}
  - {text: GPU memory, rationale: Incorrect. It is freed when the job ends.}
""", """\
id: gc-verb-blank
stem: When the loss turns NaN in mixed precision, a careful engineer should what?
options:
  - {text: lower the learning rate, correct: true, rationale: Correct. Large steps overflow in fp16.}
  - {text: add more data, rationale: Incorrect. Data does not fix an overflow.}
  - {text: restart the job, rationale: Incorrect. It fails again at the same step.}
"""),
    failing=(Invalid("""\
id: gc-bad
stem: The profiler view that shows kernels on a timeline per CUDA stream is an
options:
  - {text: execution trace, correct: true, rationale: Correct. The trace has one row per stream.}
  - {text: table of operators, rationale: Incorrect. It aggregates time per operator.}
  - {text: memory snapshot, rationale: 'Incorrect. It shows allocations, not kernels.'}
""", field="options[1].text", message='the stem ends in "an" but option 2 starts with a consonant sound'), Invalid("""\
id: gc-number
stem: Which of the following is a way to overlap data transfer with compute?
options:
  - {text: pinned host memory with a second stream, correct: true, rationale: Correct. Copies run async.}
  - {text: larger batches, rationale: 'Incorrect. They change the work, not the overlap.'}
  - {text: more epochs, rationale: Incorrect. They repeat the work.}
""", field="options[1].text", message="the stem asks for one thing but option 2 is plural"), Invalid("""\
id: gc-article-mix
stem: Which tool is used to find the slowest kernel in a training step?
options:
  - {text: a profiler, correct: true, rationale: Correct. It times each kernel.}
  - {text: debugger, rationale: Incorrect. It steps through code without timing it.}
  - {text: linter, rationale: Incorrect. It reads source code only.}
""", field="options[0].text", message="option 1 has an article while other options do not"), Invalid("""\
id: gc-where-adjective
stem: Where should a long training job write its checkpoints?
options:
  - {text: shared storage, correct: true, rationale: Correct. It outlives the node.}
  - {text: local disk, rationale: Incorrect. It is lost when the node is reclaimed.}
  - {text: expensive, rationale: Incorrect. A price is no place.}
""", field="options[2].text", message="the stem asks for a place or a person but option 3 is an adjective"), Invalid("""\
id: gc-verb-blank-noun
stem: When the loss turns NaN in mixed precision, a careful engineer should what?
options:
  - {text: lower the learning rate, correct: true, rationale: Correct. Large steps overflow in fp16.}
  - {text: gradients, rationale: Incorrect. A noun does not complete 'should'.}
  - {text: restart the job, rationale: Incorrect. It fails again at the same step.}
""", field="options[1].text", message="the stem's blank takes a verb but option 2 is a noun phrase")),
)
