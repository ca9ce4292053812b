"""extraneous-info: a short stem repeats a content word: likely padding that does not change the question."""
from collections import Counter
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.stems import CUE_STOPWORDS, cue_stem
from qlint.language.words import CODE_SPAN, WORD
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation


class Options(RuleOptions):
    max_stem_words: int = Field(default=20, ge=1, le=100_000, description="judge only stems up to this many words (long "
                                                              "scenarios repeat names legitimately)")
    min_repeats: int = Field(default=2, ge=2, le=1000, description="how often a content word must occur")


def check(question: Question, options: Options) -> Iterator[Violation]:
    written = WORD.findall(CODE_SPAN.sub(" ", question.stem))  # code names repeat by necessity
    tokens = [w.lower() for w in written]
    if not tokens or len(tokens) > options.max_stem_words:
        return
    counts = Counter(cue_stem(w) for w in tokens if len(w) >= 4 and w not in CUE_STOPWORDS)
    repeated = sorted(w for w, n in counts.items() if n >= options.min_repeats)
    if repeated:
        # quote each repeated word as first written, not its stem ('cach')
        first = {}
        for word, lower in zip(written, tokens):
            if len(lower) >= 4 and lower not in CUE_STOPWORDS:
                first.setdefault(cue_stem(lower), word)
        listed = ", ".join(f'"{first[w]}"' for w in repeated)
        yield Violation("stem", f"the stem repeats {listed}; cut what does not change the question")


RULE = QuestionRule(
    code="Q405",
    name="extraneous-info",
    severity=Severity.INFO,
    enabled=False,
    summary="A short stem repeats the same content word: likely padding that does not change the question.",
    why=("Words that do not pose the problem add reading load without measuring anything (Haladyna, Downing & "
         "Rodriguez 2002: avoid window dressing; the NBME guide's 'irrelevant difficulty')."),
    use_instead="Cut the stem to what is needed to pose the problem.",
    options=Options,
    check=check,
    notes="Off by default: a weak proxy (precision about 0.3 on the BenchMarker dev labels). ",
    passing=("""\
id: ei-ok
stem: Which tensor does autograd save for the backward pass of a ReLU?
options:
  - {text: Its output, correct: true, rationale: Correct. The mask is derived from it.}
  - {text: Its weight, rationale: Incorrect. ReLU has no weight.}
  - {text: Nothing, rationale: Incorrect. The backward pass needs the mask.}
""",),
    failing=(Invalid("""\
id: ei-bad
stem: In the backward pass of a ReLU, which tensor does the ReLU save for its backward pass?
options:
  - {text: Its output, correct: true, rationale: Correct. The mask is derived from it.}
  - {text: Its weight, rationale: Incorrect. ReLU has no weight.}
  - {text: Nothing, rationale: Incorrect. The backward pass needs the mask.}
""", field="stem", message='the stem repeats "backward", "pass", "ReLU"'),),
)
