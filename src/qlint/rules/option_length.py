"""option-length: one option is conspicuously longer or shorter than the rest, or the key is the longest by far."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.phrases import is_meta
from qlint.language.words import is_code, is_numeric, plain, strip_code
from qlint.model import Question
from qlint.rule import QuestionRule, RuleOptions, Violation


class Options(RuleOptions):
    long_ratio: float = Field(default=1.8, gt=1, le=1000, description="an option this many times the median length of the "
                                                              "others is an outlier ...")
    min_extra_chars: int = Field(default=10, ge=0, le=1_000_000, description="... when it is also this many characters longer")
    short_ratio: float = Field(default=0.4, gt=0, lt=1, description="an option this fraction of the median of the "
                                                                    "others is a stub ...")
    min_short_gap: int = Field(default=10, ge=0, le=1_000_000, description="... when it is also this many characters shorter")
    key_ratio: float = Field(default=1.5, gt=1, le=1000, description="the key is flagged when it is this many times as long "
                                                            "as the longest distractor ...")
    key_min_words: int = Field(default=5, ge=1, le=10_000, description="... and has at least this many words")
    pair_ratio: float = Field(default=1.3, gt=1, le=1000, description="two-option questions: longer / shorter")
    distractor_ratio: float = Field(default=1.8, gt=1, le=1000, description=(
        "a long distractor is an outlier at this many times the median of the others (a long distractor cues "
        "nothing towards the key, so it may be held to a higher bar than long-ratio)"))
    twin_tolerance: float = Field(default=0.25, ge=0, lt=1, description=(
        "an option is no outlier when another option is within this fraction of its length ('FIFO' / 'LIFO')"))
    math_min_chars: int = Field(default=6, ge=1, le=1_000_000, description="numbers and formulas are judged only when some option "
                                                             "has this many symbols")
    short_words: int = Field(default=3, ge=1, description=(
        "options of at most this many words each (names, short terms) are judged only for the key being the "
        "longest, by min-extra-chars over every distractor: a long or short distractor among names cues nothing"))


# words for key-min-words: runs of letters, so "(a + b)(a - b)" has none
WORDS = re.compile(r"[^\W\d_]{2,}")


def _median(values) -> float:
    """``statistics.median``, without its generic machinery (it is called twice per option of every question)."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _wordy(text: str) -> bool:
    """Mostly letters: a name or term, not a number, formula or code."""
    visible = len(text) - text.count(" ")
    return visible > 0 and sum(map(str.isalpha, text)) >= 0.8 * visible


def _length(text: str, mathy: bool) -> int:
    if mathy:  # numbers and formulas: count digits and symbols, not spacing or currency/TeX noise
        return len(re.sub(r"[\s$\\{}]", "", text))
    return len(text)


def _pair(opts, idx: list[int], length: dict[int, int], short: bool, options: Options) -> Iterator[Violation]:
    """Two options: the longer stands out by pair-ratio and min-extra-chars (among short ones, only a long key)."""
    a, b = idx
    lo, hi = sorted((length[a], length[b]))
    i = a if length[a] > length[b] else b
    if lo and hi / lo >= options.pair_ratio and hi - lo >= options.min_extra_chars and (opts[i].correct or not short):
        yield Violation(f"options[{i}].text", f"of the two options, option {i + 1} is {hi / lo:.1f}x as long "
                                              "as the other; length alone picks one")


def _short_key(opts, idx: list[int], length: dict[int, int], name_words: dict[int, int] | None,
               options: Options) -> Iterator[Violation]:
    """Short options (names, a few words): only a single key that is longer than every distractor by
    min-extra-chars, and long-ratio times their median, is a cue; a few characters' difference is not.
    ``name_words``: word counts when the options are names of one or two words."""
    keys = [i for i in idx if opts[i].correct]
    if len(keys) != 1:
        return
    k = keys[0]
    if name_words and len({name_words[j] for j in idx if j != k}) == 1:
        return  # "Standard deviation" among "Mean", "Median": how the names are, not a cue
    others = [length[j] for j in idx if j != k]
    median = _median(others)
    ratio = max(options.long_ratio, options.key_ratio)
    if median and length[k] - max(others) >= options.min_extra_chars and length[k] >= ratio * median:
        yield Violation(f"options[{k}].text", f"option {k + 1} is {length[k] / median:.1f}x as long as the "
                                              "median of the others; an outlier draws the eye")


def check(question: Question, options: Options) -> Iterator[Violation]:
    opts = question.options
    idx = [i for i, o in enumerate(opts) if not is_meta(o.text)]
    if len(idx) < 2 or all(is_code(opts[i].text) for i in idx):
        return  # meta-options are naturally shorter; code is judged by reviewers, not by character counts
    texts = {i: plain(strip_code(opts[i].text)) for i in idx}
    if all(" " not in t for t in texts.values()) and not all(is_numeric(t) for t in texts.values()):
        return  # single words: "ox" vs "hippopotamus" is no cue
    mathy = all(is_numeric(t) for t in texts.values())
    length = {i: _length(texts[i], mathy) for i in idx}
    if mathy and max(length.values()) < options.math_min_chars:
        return  # short numbers differ in digits naturally (9 vs 12)
    words = {i: texts[i].count(" ") + 1 for i in idx}
    short = max(words.values()) <= options.short_words and all(map(_wordy, texts.values()))
    if len(idx) == 2:
        yield from _pair(opts, idx, length, short, options)
        return
    # names of one or two words: one two-word term among single words ("Standard deviation" among "Mean",
    # "Median", "Range") or one word among two-word terms ("Water" among acids) is how the names are, not a cue
    short_names = max(words.values()) <= 2 and not any(is_numeric(t) for t in texts.values())
    if short:
        yield from _short_key(opts, idx, length, words if short_names else None, options)
        return
    longest_all = max(length.values())
    for i in idx:
        if any(j != i and abs(length[j] - length[i]) <= options.twin_tolerance * length[i] for j in idx):
            continue  # another option shares its length: two of a kind are no outlier
        if short_names and len({words[j] for j in idx if j != i}) == 1:
            continue
        others = _median(length[j] for j in idx if j != i)
        # a long key is never held to a lower bar than key-ratio: raising key-ratio quiets long keys
        ratio = max(options.long_ratio, options.key_ratio) if opts[i].correct else options.distractor_ratio
        if others and length[i] >= ratio * others and length[i] - others >= options.min_extra_chars:
            yield Violation(f"options[{i}].text", f"option {i + 1} is {length[i] / others:.1f}x as long as the "
                                                  "median of the others; an outlier draws the eye")
            return
        # a stub is judged against the others, leaving out a key that is the longest option (its own cue)
        ref = [length[j] for j in idx if j != i and not (opts[j].correct and length[j] == longest_all)]
        ref_median = _median(ref) if ref else others
        # a short key is no stub: among long distractors it cues against itself, and the key is often the plain fact
        if not opts[i].correct and length[i] <= options.short_ratio * ref_median \
                and ref_median - length[i] >= options.min_short_gap:
            yield Violation(f"options[{i}].text", f"option {i + 1} is much shorter than the others "
                                                  f"({length[i]} vs a median of {others:.0f} characters)")
            return
    keys = [i for i in idx if opts[i].correct]
    if len(keys) == 1:
        k = keys[0]
        longest = max(length[j] for j in idx if j != k)
        if longest and len(WORDS.findall(texts[k])) >= options.key_min_words and length[k] >= options.key_ratio * longest:
            yield Violation(f"options[{k}].text", f"the key is {length[k] / longest:.1f}x as long as the longest "
                                                  "distractor; length alone cues it")


RULE = QuestionRule(
    code="Q201",
    name="option-length",
    severity=Severity.WARNING,
    enabled=False,
    summary="One option is conspicuously longer or shorter than the others, or the key is the longest by far.",
    why=("Test-wise candidates pick the longest option: writers qualify the key to make it exactly right and "
         "leave distractors short (Haladyna, Downing & Rodriguez 2002, guideline 23; the NBME guide lists 'long "
         "correct answer'). An outlier of any kind draws attention to itself or is dismissed on form alone."),
    use_instead="Make options similar in length and detail: trim the long one, or give the others the same care.",
    options=Options,
    check=check,
    notes="Off by default: on six public banks of real questions, two reviewers agreed with 11 of 40 sampled findings; the long option was often a distractor, or the options were names, titles or code whose lengths carry no cue. " + ("Each option is compared with the median of the others, so 'half long, half short' passes. "
           "'All/none of the above' and 'cannot be determined' are not counted. Numbers and formulas are measured "
           "in symbols and judged only when some option has at least math-min-chars of them; options that are all "
           "code, or all single words, are not judged. Names of one or two words are not judged against a list "
           "whose other options all have one word count (a lone 'Standard deviation' among 'Mean', 'Median', "
           "'Range'); a key is never flagged for being short (a short key among long distractors cues against "
           "itself), and key-min-words counts words, not the symbols of a formula. Among short options (names and "
           "terms of at most short-words words) only a key that is longer than every distractor by min-extra-chars "
           "is reported: a long or short distractor among names cues nothing, and neither does a key a few "
           "characters longer than the next option."),
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
  - {text: '128', rationale: Incorrect. No float format is that wide.}
""", """\
id: ol-code
stem: Which call returns a loss as a plain Python number?
options:
  - {text: '`loss.item()`', correct: true, rationale: Correct. It copies the scalar to the host.}
  - {text: '`loss.detach().cpu().clone()`', rationale: Incorrect. That is still a tensor.}
  - {text: '`loss.data`', rationale: Incorrect. That is a tensor without history.}
""", """\
id: ol-words
stem: Which format has the same exponent range as fp32?
options:
  - {text: bfloat16, correct: true, rationale: Correct. It keeps fp32's 8 exponent bits.}
  - {text: fp16, rationale: Incorrect. It has 5 exponent bits.}
  - {text: int8, rationale: Incorrect. It is an integer format.}
""", """\
id: ol-short-key
stem: What does `torch.no_grad()` switch off inside its block?
options:
  - {text: Gradient tracking, correct: true, rationale: Correct. No graph is recorded.}
  - {text: Dropout and the running statistics of batch normalization in every module, rationale: Incorrect. That is `model.eval()`.}
  - {text: Automatic mixed-precision casting of the matrix multiplications in the block, rationale: Incorrect. That is autocast.}
  - {text: The caching allocator that keeps freed GPU memory blocks for later reuse, rationale: Incorrect. The allocator is unaffected.}
""", """\
id: ol-formula
stem: Which expression equals $a^2 - b^2$ for all real $a$ and $b$?
options:
  - {text: (a + b)(a - b), correct: true, rationale: Correct. The middle terms cancel.}
  - {text: (a - b)^2, rationale: Incorrect. That has a middle term.}
  - {text: (b - a)^2, rationale: Incorrect. That has a middle term.}
  - {text: a^2 + b^2, rationale: Incorrect. The sign is wrong.}
""", """\
id: ol-names
stem: Which statistic of a batch of losses stays the same when every loss is shifted by a constant?
options:
  - {text: Standard deviation, correct: true, rationale: Correct. A shift moves every value and the mean alike.}
  - {text: Mean, rationale: Incorrect. It moves with the shift.}
  - {text: Median, rationale: Incorrect. It moves with the shift.}
  - {text: Maximum, rationale: Incorrect. It moves with the shift.}
""", """\
id: ol-short-long-distractor
stem: Which collective communication sums gradients and leaves the result on every rank?
options:
  - {text: all-reduce, correct: true, rationale: Correct. Every rank gets the sum.}
  - {text: broadcast, rationale: Incorrect. It copies one rank's tensor.}
  - {text: reduce-scatter with padding, rationale: Incorrect. Each rank keeps only a shard.}
  - {text: gather, rationale: Incorrect. Only one rank receives the tensors.}
""", """\
id: ol-short-key-few-chars
stem: Which parallelism splits each weight matrix across the GPUs of a node?
options:
  - {text: tensor model parallelism, correct: true, rationale: Correct. Each GPU holds a slice of every matrix.}
  - {text: data parallelism, rationale: Incorrect. Each GPU holds every weight.}
  - {text: ZeRO, rationale: Incorrect. It shards optimizer state and gradients.}
  - {text: FSDP, rationale: Incorrect. It shards whole parameters between uses.}
"""),
    failing=("""\
id: ol-bad
stem: Why does storing `loss` in a list every step make GPU memory grow?
options:
  - {text: "Each stored loss is a tensor that still references its autograd graph, so every step's activations stay allocated on the GPU", correct: true, rationale: Correct. The graph holds activations.}
  - {text: The optimizer copies it, rationale: Incorrect. The optimizer never sees the list.}
  - {text: Lists are pinned, rationale: Incorrect. Lists live in ordinary host memory.}
""", """\
id: ol-pair
stem: What does gradient checkpointing trade?
options:
  - {text: Extra forward compute in exchange for storing fewer activations, correct: true, rationale: Correct. Activations are recomputed.}
  - {text: Accuracy for speed, rationale: Incorrect. The result is the same.}
"""),
)
