"""convergence-cue: the key is the option whose parts recur most across the other options."""
import re
from collections import Counter
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.stems import content_stems
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

TOKEN = re.compile(r"[A-Za-z]+|\d+(?:\.\d+)?")


class Options(RuleOptions):
    min_shared_words: int = Field(default=2, ge=1, le=1000, description="the key's parts must recur at least this often")
    max_tokens: int = Field(default=12, ge=1, le=10_000, description="skip questions with options longer than this many "
                                                          "content words (long prose shares words by chance)")


def _tokens(text: str) -> set[str]:
    return content_stems(text) | {t for t in TOKEN.findall(text) if t.isdigit() or re.fullmatch(r"[IVX]+", t)}


def check(question: Question, options: Options) -> Iterator[Violation]:
    opts = question.options
    if len(question.keys) != 1 or len(opts) < 3:
        return
    k = question.keys[0]
    parts = [_tokens(o.text) for o in opts]
    if any(len(p) > options.max_tokens for p in parts):
        return
    # how many options hold each part, counted once: an option's score is how often its parts recur in the
    # others (the count less itself), linear in the options where comparing every pair was quadratic
    holders = Counter(t for p in parts for t in p)
    score = [sum(holders[t] - 1 for t in p) for p in parts]
    if score[k] >= options.min_shared_words and score[k] > max(s for j, s in enumerate(score) if j != k):
        yield Violation(f"options[{k}].text", f"the key (option {k + 1}) shares the most parts with the other "
                                              "options; candidates can converge on it without the content")


RULE = QuestionRule(
    code="Q204",
    name="convergence-cue",
    severity=Severity.INFO,
    enabled=False,
    summary="The key combines the components that recur most often across the options (a convergence cue).",
    why=("Writers build distractors by varying parts of the key, so the key ends up sharing the most parts with the "
         "other options; test-wise candidates pick the option at the centre of the set (Haladyna, Downing & "
         "Rodriguez 2002; the NBME guide's 'convergence strategy')."),
    use_instead="Vary the components so each appears equally often, or build distractors from independent errors.",
    options=Options,
    check=check,
    notes="Off by default: precision below 0.7 on the BenchMarker dev labels. ",
    passing=("""\
id: cc-ok
stem: Which pair of techniques reduces activation memory without changing the model?
options:
  - {text: checkpointing and smaller micro-batches, correct: true, rationale: Correct. Both shrink stored activations.}
  - {text: larger learning rate and warmup, rationale: Incorrect. Neither changes memory.}
  - {text: dropout and weight decay, rationale: Incorrect. Both are regularisers.}
""",),
    failing=(Invalid("""\
id: cc-bad
stem: Which settings give the lowest peak memory for this step?
options:
  - {text: 'bf16 weights, checkpointing', correct: true, rationale: Correct. Both lower the peak.}
  - {text: 'fp32 weights, checkpointing', rationale: Incorrect. fp32 doubles weight memory.}
  - {text: 'bf16 weights, no offload', rationale: Incorrect. Activations are all stored.}
  - {text: fp8 activations only, rationale: Incorrect. fp8 activations are not supported here.}
""", field="options[0].text", message="the key (option 1) shares the most parts with the other options"),),
)
