"""near-duplicate-stem: two questions in the bank whose stems ask the same thing."""
from collections.abc import Iterator, Sequence

from pydantic import Field

from qlint.finding import Severity
from qlint.items import BankItem
from qlint.model import Question
from qlint.rule import BankRule, BankViolation, RuleOptions, Store
from qlint.stemkey import StemKey, answers_digest, choice_digests, decode_keys, encode_keys, stem_key


class Options(RuleOptions):
    threshold: float = Field(default=90.0, ge=50, le=100,
                             description="similarity (rapidfuzz ratio, 0-100) at or above which stems are near-duplicates")
    min_word_overlap: float = Field(default=0.75, ge=0, le=1,
                                    description="share of content words (stemmed, Jaccard) two stems must have in common; "
                                                "keeps 'a deque' / 'a queue' apart")
    min_shared_options: float = Field(default=0.5, ge=0, le=1, description=(
        "share of the smaller question's options (case and spacing aside) the other must also offer; questions "
        "that share a passage or scenario but offer different answers ask different things (0: stems alone)"))
    stems_alone: float = Field(default=95.0, ge=50, le=100, description=(
        "similarity at or above which two stems without a long shared passage are duplicates whatever their options"))
    ignore_variants: bool = Field(default=True, description=(
        "stems that differ only in numbers or code are parallel items, not duplicates (unless their options and "
        "key are the same too)"))


_EMPTY = StemKey("", (), ())


def extract(question: Question, options: Options) -> StemKey:
    texts = [o.text for o in question.options]
    return stem_key(question.stem, answers_digest(texts, [o.correct for o in question.options]),
                    choice_digests(texts))


def same_question(a: StemKey, b: StemKey, score: float, options: Options) -> bool:
    """Whether two similar stems ask the same thing. Short stems this close are the same question whatever the
    options; otherwise (a shared passage or scenario, or a shared lead-in with other words after it) they must
    also offer the same answers. Two-option questions (Yes/No, True/False) share their options by chance, so
    there the stems must be the same."""
    if options.min_shared_options <= 0 or not a.choices or not b.choices:
        return True
    if score >= options.stems_alone and not (a.asks or b.asks):
        return True
    if min(len(a.choices), len(b.choices)) < 3:
        return a.text == b.text and a.asks == b.asks
    shared = len(set(a.choices) & set(b.choices))
    return shared >= options.min_shared_options * min(len(a.choices), len(b.choices))


def confirmed_pairs(keys: Sequence[StemKey], options: Options, store: Store | None = None
                    ) -> list[tuple[int, int, float]]:
    """The pairs of questions the rule reports: similar stems (the search, kept in ``store`` between runs) that
    also offer the same answers."""
    from qlint.ndindex import search  # numpy and rapidfuzz: imported only when the search runs

    return [(a, b, score) for a, b, score in search(keys, options.threshold, store=store,
                                                    min_overlap=options.min_word_overlap,
                                                    ignore_variants=options.ignore_variants)
            if same_question(keys[a], keys[b], score, options)]


def _keys(questions: Sequence[BankItem]) -> list[StemKey]:
    """Each question's key, extracted with its file; a question whose extraction failed (reported as an internal
    error) takes part with an empty key."""
    return [item.features.get(RULE.name) or _EMPTY for item in questions]


def check(questions: Sequence[BankItem], options: Options, store: Store | None = None) -> Iterator[BankViolation]:
    # the search kept in ``store`` by the last run is reused
    keys = _keys(questions)
    partners: dict[int, list[tuple[float, int]]] = {}
    for a, b, score in confirmed_pairs(keys, options, store):
        partners.setdefault(a, []).append((score, b))
        partners.setdefault(b, []).append((score, a))
    for index, found in sorted(partners.items()):
        found.sort(key=lambda sb: (-sb[0], sb[1]))
        score, other = found[0]
        peer = questions[other]
        where = f"{peer.path}:{peer.locate('stem')[0]}"
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        yield BankViolation(questions[index], "stem",
                            f"stem is {score:.0f}% similar to question {peer.id!r} at {where}{more}")


def publish(questions: Sequence[BankItem], options: Options) -> list[tuple[int, int, float]]:
    """The pairs the check reports, as (index a, index b, similarity) over ``questions`` in order (a < b)."""
    return confirmed_pairs(_keys(questions), options)


RULE = BankRule(
    code="Q601",
    name="near-duplicate-stem",
    severity=Severity.WARNING,
    notes="A warning, not an error: on six public banks of real questions, two reviewers agreed with 43 of 49 sampled findings (0.88); pairs that share only a stock lead-in, or ask about opposite actions, were judged false alarms.",
    summary="Two questions in the bank have near-identical stems.",
    why=("Near-duplicates let one question cue another on the same form, double-weight one objective, and "
         "survive as stale copies when only one of them gets fixed."),
    use_instead=("Keep one question and retire the other, or rewrite one so that it tests a different point. "
                 "Shared lead-ins (\"Which of the following ...\") are ignored when comparing."),
    options=Options,
    check=check,
    extract=extract,
    encode=encode_keys,
    decode=decode_keys,
    memo=True,
    publish=publish,
    passing=("""\
questions:
  - id: nd-series-1
    stem: >-
      A team trains a 7B-parameter model on eight GPUs. Each step runs out of memory at the backward pass, and the
      team must fit a global batch of 64 without buying more hardware or changing the model. Solution: the team
      turns on activation checkpointing. Does this meet the goal?
    options:
      - {text: 'Yes', correct: true, rationale: Correct. Recomputing activations frees their memory.}
      - {text: 'No', rationale: Incorrect. It does fit the batch.}
  - id: nd-series-2
    stem: >-
      A team trains a 7B-parameter model on eight GPUs. Each step runs out of memory at the backward pass, and the
      team must fit a global batch of 64 without buying more hardware or changing the model. Solution: the team
      doubles the learning rate. Does this meet the goal?
    options:
      - {text: 'Yes', rationale: Incorrect. The learning rate does not change memory.}
      - {text: 'No', correct: true, rationale: Correct. Memory use is unchanged.}
""", """\
questions:
  - id: nd-1
    stem: Which of the following reduces activation memory at the cost of extra compute?
    options:
      - {text: Gradient checkpointing, correct: true, rationale: Correct. Activations are recomputed.}
      - {text: Larger batches, rationale: Incorrect. They increase memory.}
  - id: nd-2
    stem: Which of the following keeps fp16 gradients from underflowing to zero?
    options:
      - {text: Loss scaling, correct: true, rationale: Correct. Small gradients are scaled up first.}
      - {text: Weight decay, rationale: Incorrect. It regularises weights.}
""", """\
questions:
  - id: nd-set-1
    stem: "A school is planning its week of exams. Five subjects (art, biology, chemistry, drama and English) are each examined on one of the five days, Monday to Friday, one per day. Biology is examined on an earlier day than chemistry. Drama is examined on Wednesday or Friday. Art is not examined on the day before or the day after English. English is examined on an earlier day than drama.\\n\\nIf art is examined on Monday, which one of the following must be true?"
    options:
      - {text: Biology is examined on Tuesday., correct: true, rationale: Correct. It is the only day left before chemistry.}
      - {text: Drama is examined on Wednesday., rationale: Incorrect. Drama can fall on Friday.}
  - id: nd-set-2
    stem: "A school is planning its week of exams. Five subjects (art, biology, chemistry, drama and English) are each examined on one of the five days, Monday to Friday, one per day. Biology is examined on an earlier day than chemistry. Drama is examined on Wednesday or Friday. Art is not examined on the day before or the day after English. English is examined on an earlier day than drama.\\n\\nWhich one of the following could be the subject examined on Thursday?"
    options:
      - {text: Chemistry, correct: true, rationale: Correct. One valid order puts it there.}
      - {text: Biology, rationale: Incorrect. Chemistry would then fall on Friday with drama.}
""", """\
questions:
  - id: nd-parallel-1
    stem: A train travels 120 km in 2 hours. What is its average speed?
    options:
      - {text: 60 km/h, correct: true, rationale: Correct. 120 / 2 = 60.}
      - {text: 240 km/h, rationale: Incorrect. That multiplies.}
  - id: nd-parallel-2
    stem: A train travels 150 km in 3 hours. What is its average speed?
    options:
      - {text: 50 km/h, correct: true, rationale: Correct. 150 / 3 = 50.}
      - {text: 450 km/h, rationale: Incorrect. That multiplies.}
""",),
    failing=("""\
questions:
  - id: nd-1
    stem: Which technique reduces activation memory at the cost of extra compute in the backward pass?
    options:
      - {text: Gradient checkpointing, correct: true, rationale: Correct. Activations are recomputed.}
      - {text: Larger batches, rationale: Incorrect. They increase memory.}
  - id: nd-2
    stem: Which technique reduces activation memory at the cost of extra compute during the backward pass?
    options:
      - {text: Activation checkpointing, correct: true, rationale: Correct. Activations are recomputed.}
      - {text: Mixed precision, rationale: Incorrect. It halves storage but adds no compute.}
""", """\
questions:
  - id: nd-renumbered-1
    stem: A train travels 120 km in 2 hours. What is its average speed?
    options:
      - {text: 60 km/h, correct: true, rationale: Correct. 120 / 2 = 60.}
      - {text: 240 km/h, rationale: Incorrect. That multiplies.}
      - {text: 122 km/h, rationale: Incorrect. That adds.}
  - id: nd-renumbered-2
    stem: A train travels 120 km in 2.0 hours. What is its average speed?
    options:
      - {text: 60 km/h, correct: true, rationale: Correct. 120 / 2 = 60.}
      - {text: 240 km/h, rationale: Incorrect. That multiplies.}
      - {text: 122 km/h, rationale: Incorrect. That adds.}
""",),
)
