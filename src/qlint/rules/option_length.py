"""option-length: the key is the longest option by a clear margin, so length alone points to it."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import Field

from qlint.finding import Severity
from qlint.language.phrases import is_meta
from qlint.language.words import is_code, is_numeric, is_title, plain, strip_code
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation


class Options(RuleOptions):
    key_ratio: float = Field(default=1.5, gt=1, le=1000, description=(
        "the key is reported when it has at least this many times the characters of the longest distractor ..."))
    min_extra_words: int = Field(default=2, ge=0, le=10_000, description=(
        "... and at least this many more words than it"))
    key_min_words: int = Field(default=3, ge=1, le=10_000, description=(
        "keys of fewer words (a name, a term) are not judged: their lengths carry no qualifier"))
    among_terms_min_words: int = Field(default=5, ge=1, le=10_000, description=(
        "when most distractors are names or terms (titles, or one or two words), the key must have at least this "
        "many words: a longer name among names is how the names are"))


# words as a candidate counts them: runs of letters (a formula or a number has none)
WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


@dataclass(frozen=True, slots=True)
class Measured:
    """One option as the rule measures it: its index, its plain text, its characters and words, and whether it
    is a key."""

    index: int
    text: str
    chars: int
    words: int
    key: bool


def measured(question: Question) -> list[Measured] | None:
    """The options the rule compares (not 'All/None of the above' or 'Cannot be determined'), or None when their
    lengths carry no cue: fewer than two, or any of them code or a number."""
    out = []
    for i, option in enumerate(question.options):
        if is_meta(option.text):
            continue
        if is_code(option.text):
            return None
        text = plain(strip_code(option.text))
        if is_numeric(text):
            return None
        out.append(Measured(i, text, len(text), len(WORDS.findall(text)), option.correct))
    if len(out) < 2:
        return None
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _can_fire(question: Question, ratio: float) -> bool:
    """A cheap first look: is the shortest key at least ``ratio`` times the characters of the longest distractor that
    is not about the other options? Most questions stop here."""
    keys = question.keys
    if not keys or len(keys) == len(question.options):
        return False
    lengths = [len(plain(strip_code(o.text))) for o in question.options]
    shortest_key = min(lengths[i] for i in keys)
    others = sorted((i for i in range(len(lengths)) if i not in keys), key=lambda i: -lengths[i])
    longest = next((lengths[i] for i in others if not is_meta(question.options[i].text)), None)
    return longest is not None and shortest_key >= ratio * longest


def check(question: Question, options: Options) -> Iterator[Violation]:
    if not _can_fire(question, options.key_ratio):
        return
    found = measured(question)
    if found is None:
        return
    keys = [m for m in found if m.key]
    distractors = [m for m in found if not m.key]
    if not keys or len(keys) != len(question.keys) or len(distractors) < min(2, len(keys)):
        return   # a key among the meta-options, or too few distractors to compare with
    longest = max(distractors, key=lambda m: (m.chars, m.words))
    most_words = max(m.words for m in distractors)
    shortest = min(keys, key=lambda m: m.chars)
    terms = sum(is_title(m.text) or m.words <= 2 for m in distractors)
    least = options.among_terms_min_words if 2 * terms > len(distractors) else options.key_min_words
    if any(is_title(k.text) or k.words < least for k in keys):
        return
    if not all(k.chars >= options.key_ratio * longest.chars and k.words - most_words >= options.min_extra_words
               for k in keys):
        return
    ratio = shortest.chars / max(1, longest.chars)
    if len(keys) == 1:
        message = (f"the key is the longest option by far: {_plural(shortest.words, 'word')}, {ratio:.1f}x the "
                   f"characters of the longest distractor ({_plural(longest.words, 'word')}); length alone points "
                   "to it")
    else:
        message = (f"the {len(keys)} keys are the {len(keys)} longest options by far: each at least {ratio:.1f}x "
                   f"the characters of the longest distractor ({_plural(longest.words, 'word')}); length alone "
                   "points to them")
    yield Violation(f"options[{shortest.index}].text", message)


RULE = QuestionRule(
    code="Q201",
    name="option-length",
    severity=Severity.WARNING,
    summary="The key is the longest option by a clear margin: length alone points to it.",
    why=("Test-wise candidates pick the longest option, because writers qualify the key to make it exactly right "
         "and leave the distractors short (Haladyna, Downing & Rodriguez 2002, guideline 23; the NBME guide lists "
         "'long correct answer')."),
    use_instead="Make the options alike in length and detail: trim the key, or give the distractors the same care.",
    options=Options,
    check=check,
    notes=("The key must be longer than every distractor, by key-ratio in characters and by min-extra-words in "
           "words; with several keys, every key must be. Only statements are judged: not options that are code, "
           "numbers or formulas, not keys of fewer than key-min-words words (among-terms-min-words when most "
           "distractors are names or short terms), and not names and titles ('The Return of the King'), whose "
           "lengths carry no qualifier. 'All/None of the above' and 'Cannot be determined' are "
           "not compared. A long or short distractor is no cue to the key and is not reported; whether keys are the "
           "longest option more often than chance across the bank is key-length-bias's question."),
    passing=("""\
id: ol-ok
stem: Why does storing `loss` in a list every step make GPU memory grow?
options:
  - {text: Each stored loss keeps its autograd graph alive, correct: true, rationale: Correct. The graph holds activations.}
  - {text: The optimizer copies every stored loss to the GPU, rationale: Incorrect. The optimizer never sees the list.}
  - {text: Python lists are allocated in pinned host memory, rationale: Incorrect. Lists live in ordinary host memory.}
""", """\
id: ol-long-distractor
stem: What does `torch.no_grad()` switch off inside its block?
options:
  - {text: Gradient tracking, correct: true, rationale: Correct. No graph is recorded.}
  - {text: Dropout and the running statistics of batch normalization in every module, rationale: Incorrect. That is `model.eval()`.}
  - {text: Automatic casting, rationale: Incorrect. That is autocast.}
  - {text: The caching allocator, rationale: Incorrect. The allocator is unaffected.}
""", """\
id: ol-numbers
stem: How many bytes does one bfloat16 value take?
options:
  - {text: '2', correct: true, rationale: Correct. It is a 16-bit format.}
  - {text: '4', rationale: Incorrect. That is fp32.}
  - {text: '128', rationale: Incorrect. No float format is that wide.}
""", """\
id: ol-code
stem: Which call returns a loss as a plain Python number?
options:
  - {text: '`loss.detach().cpu().numpy().item()`', correct: true, rationale: Correct. It ends in a Python float.}
  - {text: '`loss.data`', rationale: Incorrect. That is a tensor without history.}
  - {text: '`loss.cpu()`', rationale: Incorrect. That is still a tensor.}
""", """\
id: ol-titles
stem: Which film won the Academy Award for Best Picture for 2003?
options:
  - {text: The Lord of the Rings - The Return of the King, correct: true, rationale: Correct. It won eleven awards.}
  - {text: Mystic River, rationale: Incorrect. It was nominated.}
  - {text: Seabiscuit, rationale: Incorrect. It was nominated.}
  - {text: Lost in Translation, rationale: Incorrect. It was nominated.}
""", """\
id: ol-close
stem: Which technique trades extra compute for lower activation memory?
options:
  - {text: Recomputing activations during the backward pass, correct: true, rationale: Correct. That is checkpointing.}
  - {text: Keeping every activation in pinned memory, rationale: Incorrect. That uses more memory.}
  - {text: Doubling the batch size, rationale: Incorrect. That needs more memory.}
"""),
    failing=(Invalid("""\
id: ol-bad
stem: Why does storing `loss` in a list every step make GPU memory grow?
options:
  - {text: "Each stored loss is a tensor that still references its autograd graph, so every step's activations stay allocated on the GPU", correct: true, rationale: Correct. The graph holds activations.}
  - {text: The optimizer copies it, rationale: Incorrect. The optimizer never sees the list.}
  - {text: Lists are pinned, rationale: Incorrect. Lists live in ordinary host memory.}
""", field="options[0].text", message="the key is the longest option by far"), Invalid("""\
id: ol-pair
stem: What does gradient checkpointing trade?
options:
  - {text: Extra forward compute in exchange for storing fewer activations, correct: true, rationale: Correct. Activations are recomputed.}
  - {text: Accuracy for speed, rationale: Incorrect. The result is the same.}
""", field="options[0].text", message="the key is the longest option by far"), Invalid("""\
id: ol-two-keys
stem: Which two settings make a data loader copy batches to the GPU faster? (Select two.)
select: 2
options:
  - {text: Pinning host memory so that copies can run asynchronously, correct: true, rationale: Correct. Pinned pages can be copied by DMA.}
  - {text: Several worker processes that prepare the next batches in parallel, correct: true, rationale: Correct. The GPU waits less.}
  - {text: Shuffling, rationale: Incorrect. It changes the order only.}
  - {text: A smaller batch, rationale: Incorrect. It copies less per step but no faster.}
""", field="options[0].text", message="the 2 keys are the 2 longest options by far")),
)
