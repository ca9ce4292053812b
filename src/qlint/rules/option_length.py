"""option-length: the key gives itself away by its length, or the options are badly unbalanced."""
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.model import Question
from qlint.rule import QuestionRule, RuleOptions, Violation
from qlint.text import parse_number, words


class Options(RuleOptions):
    key_ratio: float = Field(default=1.5, gt=1,
                             description="the key is flagged when it is this many times longer than the longest distractor")
    min_key_words: int = Field(default=4, ge=1, description="keys shorter than this many words are never flagged")


def _length(text: str) -> int:
    return len(" ".join(text.split()))


def _is_code_or_number(text: str) -> bool:
    return parse_number(text) is not None or "`" in text or "\n" in text.strip()


def check(question: Question, options: Options) -> Iterator[Violation]:
    opts = question.options
    keys = [i for i, o in enumerate(opts) if o.correct]
    distractors = [o for o in opts if not o.correct]
    if not keys or not distractors or any(_is_code_or_number(o.text) for o in opts):
        return
    longest = max(_length(o.text) for o in distractors)
    for index in keys:
        text = opts[index].text
        if len(words(text)) < options.min_key_words or longest == 0:
            continue
        ratio = _length(text) / longest
        if ratio >= options.key_ratio:
            yield Violation(f"options[{index}].text",
                            f"the key is {ratio:.1f}x as long as the longest distractor; length alone cues it")


RULE = QuestionRule(
    code="Q201",
    name="option-length",
    severity=Severity.WARNING,
    summary="The correct option is conspicuously longer than every distractor (the longest-answer cue).",
    why=("Test-wise candidates pick the longest option: writers qualify the key to make it exactly right and "
         "leave distractors short (Haladyna, Downing & Rodriguez 2002, guideline 23)."),
    use_instead="Make options similar in length and detail: trim the key, or give distractors the same care.",
    options=Options,
    check=check,
    passing=("""\
id: ol-ok
stem: Why does storing `loss` in a list every step make GPU memory grow?
options:
  - {text: Each stored loss keeps its autograd graph alive, correct: true, rationale: Correct. The graph holds activations.}
  - {text: The optimizer copies every stored loss to the GPU, rationale: Incorrect. The optimizer never sees the list.}
  - {text: Python lists are allocated in pinned host memory, rationale: Incorrect. Lists live in ordinary host memory.}
""", """\
id: ol-numbers
stem: How many bytes does one bfloat16 value take?
options:
  - {text: '2', correct: true, rationale: Correct. It is a 16-bit format.}
  - {text: '4', rationale: Incorrect. That is fp32.}
  - {text: '8', rationale: Incorrect. That is fp64.}
"""),
    failing=("""\
id: ol-bad
stem: Why does storing `loss` in a list every step make GPU memory grow?
options:
  - {text: "Each stored loss is a tensor that still references its autograd graph, so every step's activations stay allocated on the GPU", correct: true, rationale: Correct. The graph holds activations.}
  - {text: The optimizer copies it, rationale: Incorrect. The optimizer never sees the list.}
  - {text: Lists are pinned, rationale: Incorrect. Lists live in ordinary host memory.}
""",),
)
