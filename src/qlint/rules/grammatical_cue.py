"""grammatical-cue: options that do not fit the stem's grammar (a/an), or are not parallel in form."""
import re
from collections import Counter
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.model import Question
from qlint.rule import QuestionRule, RuleOptions, Violation
from qlint.rules._cues_b import WORD, form, is_meta, starts_with_vowel_sound

ARTICLE_END = re.compile(r"\b(a|an)\s*(?:\.{3}|…|_+)?\s*$", re.I)


class Options(RuleOptions):
    check_article: bool = Field(default=True, description="a stem ending in 'a'/'an' against each option's first sound")
    check_sentence_mix: bool = Field(default=True, description="full sentences mixed with bare phrases")
    max_phrase_words: int = Field(default=3, ge=1,
                                  description="sentence mix: a bare phrase has at most this many words")
    check_form: bool = Field(default=True,
                             description="parallel form (noun/verb/gerund/... phrase) among short options")
    max_words: int = Field(default=6, ge=1, description="judge parallel form only for options up to this many words")
    min_options: int = Field(default=3, ge=2, description="judge form only with at least this many options")
    max_minority_share: float = Field(default=0.5, gt=0, le=1, description="an odd form must be at most this share")


def _article(question: Question, opts: list[tuple[int, str]]) -> Iterator[Violation]:
    match = ARTICLE_END.search(question.stem.strip())
    if not match:
        return
    want_vowel = match.group(1).lower() == "an"
    for i, text in opts:
        tokens = re.findall(r"[\w'-]+", text)
        if tokens and tokens[0].lower() not in ("a", "an", "the") and starts_with_vowel_sound(tokens[0]) != want_vowel:
            yield Violation(f"options[{i}].text", f"the stem ends in \"{match.group(1)}\" but option {i + 1} starts "
                                                  f"with a {'consonant' if want_vowel else 'vowel'} sound")
            return


def check(question: Question, options: Options) -> Iterator[Violation]:
    opts = [(i, o.text) for i, o in enumerate(question.options) if not is_meta(o.text)]
    if len(opts) < 2:
        return
    if options.check_article:
        found = list(_article(question, opts))
        if found:
            yield from found
            return
    if len(opts) < options.min_options:
        return
    forms = {i: f for i, f in ((i, form(t)) for i, t in opts) if f and f != "num"}
    if options.check_sentence_mix and forms:
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
            yield Violation(f"options[{i}].text", f"option {i + 1} is {odd} while the others are {rest}; "
                                                  "options should be parallel")
            return
    if options.check_form:
        phrases = {i: f for i, f in forms.items()
                   if f != "sentence" and len(WORD.findall(question.options[i].text)) <= options.max_words}
        if len(phrases) >= options.min_options:
            counts = Counter(phrases.values())
            major = counts.most_common(1)[0][0]
            for i, f in phrases.items():
                if f != major and counts[f] <= options.max_minority_share * len(phrases):
                    yield Violation(f"options[{i}].text", f"option {i + 1} is a {f} phrase while most options are "
                                                          f"{major} phrases; options should be parallel")
                    return


RULE = QuestionRule(
    code="Q202",
    name="grammatical-cue",
    severity=Severity.INFO,
    enabled=False,
    summary="Options do not all fit the stem's grammar (a/an) or are not parallel in form (a verb among nouns, "
            "a sentence among phrases).",
    why=("When the stem's grammar fits only some options, or one option differs in form from the rest, candidates "
         "discard options on grammar alone (Haladyna, Downing & Rodriguez 2002: keep options grammatically "
         "consistent with the stem and parallel; the NBME guide lists grammatical cues as a testwiseness flaw)."),
    use_instead=("Write every option in the same grammatical form (all noun phrases, all verb phrases, all full "
                 "sentences) so each completes the stem; end the stem with 'a(n)' or leave the article to the options."),
    options=Options,
    check=check,
    notes=("a/an is judged by a spelling heuristic for the first sound (acronyms letter by letter: 'an MRI', "
           "'a URL'; 'uni-', 'use', 'eu-', 'one' take 'a'; silent h in 'hour', 'honest', 'heir'). Phrase forms come "
           "from function words and suffixes, without a dictionary or parser, so they are rough. Off by default: "
           "precision 0.55 on the dev labels, whose notion of parallel form is broad and taste-dependent."),
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
"""),
    failing=("""\
id: gc-bad
stem: The profiler view that shows kernels on a timeline per CUDA stream is an
options:
  - {text: execution trace, correct: true, rationale: Correct. The trace has one row per stream.}
  - {text: table of operators, rationale: Incorrect. It aggregates time per operator.}
  - {text: memory snapshot, rationale: 'Incorrect. It shows allocations, not kernels.'}
""",),
)
