"""near-duplicate-stem: two questions in the bank whose stems ask the same thing."""
from collections.abc import Iterator, Sequence

from pydantic import Field

from qlint.finding import Severity
from qlint.items import BankItem
from qlint.model import Question
from qlint.neardup.sameask import Answers
from qlint.neardup.stemkey import StemKey, answers_digest, decode_keys, encode_keys, option_digests, packed, stem_key
from qlint.neardup.verdicts import judged
from qlint.rule import BankRule, BankViolation, Invalid, RuleOptions, Store


class Options(RuleOptions):
    threshold: float = Field(default=90.0, ge=50, le=100,
                             description="similarity (rapidfuzz ratio, 0-100) at or above which stems are near-duplicates")
    min_word_overlap: float = Field(default=0.75, ge=0, le=1,
                                    description="share of content words (stemmed, Jaccard) two stems must have in common; "
                                                "keeps 'a deque' / 'a queue' apart")
    min_shared_options: float = Field(default=0.4, ge=0, le=1, description=(
        "for a stem that leaves its question to the options (\"Which of the following is true?\", a bare topic such "
        "as \"Le virus de l'hepatite B :\"), share of the smaller question's options (case and spacing aside) the "
        "other must also offer to ask the same thing (0: stems alone)"))
    ignore_variants: bool = Field(default=True, description=(
        "stems that differ only in numbers or code are parallel items, not duplicates (unless their options and "
        "key are the same too)"))


_EMPTY = StemKey("", (), ())
_SAYS = {Answers.SAME: "", Answers.DIFFER: ", and their options differ",
         Answers.MISKEYED: ", and their keys disagree: one of the two is likely mis-keyed"}


def extract(question: Question, options: Options) -> StemKey:
    texts = [o.text for o in question.options]
    digests = option_digests(texts)
    return stem_key(question.stem, answers_digest(texts, [o.correct for o in question.options]), packed(digests),
                    packed(d for d, o in zip(digests, question.options) if o.correct))


def confirmed_pairs(keys: Sequence[StemKey], options: Options, store: Store | None = None
                    ) -> list[tuple[int, int, float, Answers]]:
    """The pairs of questions the rule reports, with how their answers compare: similar stems (the search, kept
    in ``store`` between runs) that ask the same thing (``qlint.neardup.sameask``, the verdicts kept beside the
    search)."""
    from qlint.neardup.index import search  # numpy and rapidfuzz: imported only when the search runs

    found = search(keys, options.threshold, store=store, min_overlap=options.min_word_overlap,
                   ignore_variants=options.ignore_variants)
    return judged(keys, found, options.min_shared_options, store.beside("verdicts") if store is not None else None)


def _keys(questions: Sequence[BankItem]) -> list[StemKey]:
    """Each question's key, extracted with its file; a question whose extraction failed (reported as an internal
    error) takes part with an empty key."""
    return [item.features.get(RULE.name) or _EMPTY for item in questions]


def survey(questions: Sequence[BankItem], options: Options, store: Store | None = None
           ) -> list[tuple[int, int, float, Answers]]:
    """The pairs the rule reports, over ``questions`` in order; the search kept in ``store`` by the last run is
    reused."""
    return confirmed_pairs(_keys(questions), options, store)


def check(questions: Sequence[BankItem], options: Options, pairs: list[tuple[int, int, float, Answers]]
          ) -> Iterator[BankViolation]:
    partners: dict[int, list[tuple[float, int, Answers]]] = {}
    for a, b, score, answers in pairs:
        partners.setdefault(a, []).append((score, b, answers))
        partners.setdefault(b, []).append((score, a, answers))
    for index, found in sorted(partners.items()):
        found.sort(key=lambda sba: (-sba[0], sba[1]))
        score, other, answers = found[0]
        peer = questions[other]
        where = f"{peer.path}:{peer.locate('stem')[0]}"
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        yield BankViolation(questions[index], "stem",
                            f"stem is {score:.0f}% similar to question {peer.id!r} at {where}{more}{_SAYS[answers]}")


def publish(questions: Sequence[BankItem], options: Options, pairs: list[tuple[int, int, float, Answers]]
            ) -> list[tuple[int, int, float]]:
    """The pairs the check reports, as (index a, index b, similarity) over ``questions`` in order (a < b)."""
    return [(a, b, score) for a, b, score, _ in pairs]


RULE = BankRule(
    code="Q601",
    name="near-duplicate-stem",
    severity=Severity.WARNING,
    notes=("Two stems are duplicates when what they ask is the same, whatever their options: the message says "
           "when their options differ, and calls the pair a likely mis-key when they offer the same options with "
           "another key. They stay apart when the words that say what is asked for differ (\"true\" / \"false\", "
           "\"must\" / \"could\", \"not\", \"least\" / \"most\"), when a word is swapped for its opposite "
           "(\"inducers\" / \"inhibitors\", \"increase\" / \"decrease\"), when a content word is swapped for "
           "another in a short stem, a short sentence, a Yes/No item or a set of questions that vary one place of a "
           "shared passage or scenario, and when a stem leaves its question to the options (\"Which of the "
           "following is true?\", a bare topic such as \"Le virus de l'hepatite B :\") and the options are not "
           "the same ones (min-shared-options). Word lists: src/qlint/rules/data/near-duplicate-stem.yaml. A "
           "warning, not an error: a pair needs an author's look before one of the two is retired."),
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
    survey=survey,
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
""", """\
questions:
  - id: nd-inducers
    stem: Which of these drugs are strong inducers of CYP3A4, so that they lower the levels of drugs it clears?
    options:
      - {text: Rifampicin, correct: true, rationale: Correct. It induces CYP3A4.}
      - {text: Ketoconazole, rationale: Incorrect. It inhibits CYP3A4.}
      - {text: Paracetamol, rationale: Incorrect. It does neither.}
  - id: nd-inhibitors
    stem: Which of these drugs are strong inhibitors of CYP3A4, so that they raise the levels of drugs it clears?
    options:
      - {text: Rifampicin, rationale: Incorrect. It induces CYP3A4.}
      - {text: Ketoconazole, correct: true, rationale: Correct. It inhibits CYP3A4.}
      - {text: Paracetamol, rationale: Incorrect. It does neither.}
""", """\
questions:
  - id: nd-topic-1
    stem: "Le virus de l'hépatite B :"
    select: 2
    options:
      - {text: est un virus à ADN, correct: true, rationale: Exact. Son génome est un ADN circulaire.}
      - {text: se transmet par voie sexuelle, correct: true, rationale: Exact. Le sang et les rapports le transmettent.}
      - {text: est un virus nu, rationale: Inexact. Il possède une enveloppe.}
  - id: nd-topic-2
    stem: "Le virus de l'hépatite B :"
    select: 2
    options:
      - {text: appartient aux Hepadnaviridae, correct: true, rationale: Exact. C'est sa famille.}
      - {text: se cultive facilement in vitro, rationale: Inexact. Il ne se cultive pas en routine.}
      - {text: possède un antigène de surface HBs, correct: true, rationale: Exact. Il sert au dépistage.}
""", """\
questions:
  - id: nd-game-1
    stem: "A school is planning its week of exams. Five subjects (art, biology, chemistry, drama and English) are each examined on one of the five days, Monday to Friday, one per day. Biology is examined on an earlier day than chemistry. Drama is examined on Wednesday or Friday.\\n\\nWhich one of the following could be true?"
    options:
      - {text: Biology is examined on Friday., rationale: Incorrect. Chemistry must follow it.}
      - {text: Drama is examined on Wednesday., correct: true, rationale: Correct. Nothing rules it out.}
  - id: nd-game-2
    stem: "A school is planning its week of exams. Five subjects (art, biology, chemistry, drama and English) are each examined on one of the five days, Monday to Friday, one per day. Biology is examined on an earlier day than chemistry. Drama is examined on Wednesday or Friday.\\n\\nWhich one of the following could be true?"
    options:
      - {text: Chemistry is examined on Monday., rationale: Incorrect. Biology must come before it.}
      - {text: Art is examined on Thursday., correct: true, rationale: Correct. One order allows it.}
""",),
    failing=(Invalid("""\
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
""",
        field="stem",
        message=(
            "stem is 100% similar to question 'nd-2' at example.yaml:8, and their options differ",
            "stem is 100% similar to question 'nd-1' at example.yaml:3, and their options differ",
        )), Invalid("""\
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
""",
        field="stem",
        message=(
            "stem is 100% similar to question 'nd-renumbered-2' at example.yaml:9",
            "stem is 100% similar to question 'nd-renumbered-1' at example.yaml:3",
        )), Invalid("""\
questions:
  - id: nd-copy
    stem: Which service keeps a record of every API call made in an account, for a later security audit?
    options:
      - {text: the audit log, correct: true, rationale: Correct. It records each call.}
      - {text: the metrics service, rationale: 'Incorrect. It keeps numbers, not calls.'}
      - {text: the object store, rationale: Incorrect. It holds what is written to it.}
  - id: nd-copy-new-options
    stem: Which service actually keeps a record of every API call made in an account, for a later security audit?
    options:
      - {text: the audit trail, correct: true, rationale: Correct. It records each call.}
      - {text: the billing console, rationale: Incorrect. It shows costs.}
      - {text: the message queue, rationale: Incorrect. It passes messages on.}
""",
        field="stem",
        message=(
            "stem is 100% similar to question 'nd-copy-new-options' at example.yaml:9, and their options differ",
            "stem is 100% similar to question 'nd-copy' at example.yaml:3, and their options differ",
        )), Invalid("""\
questions:
  - id: nd-key-1
    stem: Which planet has the shortest year of all the planets in the solar system?
    options:
      - {text: Mercury, correct: true, rationale: Correct. It orbits in 88 days.}
      - {text: Venus, rationale: Incorrect. Its year is 225 days.}
      - {text: Mars, rationale: Incorrect. Its year is 687 days.}
  - id: nd-key-2
    stem: Which planet has the shortest year, of all the planets in the solar system?
    options:
      - {text: Venus, correct: true, rationale: Correct. Its year is 225 days.}
      - {text: Mercury, rationale: Incorrect. It orbits in 88 days.}
      - {text: Mars, rationale: Incorrect. Its year is 687 days.}
""",
        field="stem",
        message=(
            "stem is 100% similar to question 'nd-key-2' at example.yaml:9, and their keys disagree: one",
            "stem is 100% similar to question 'nd-key-1' at example.yaml:3, and their keys disagree: one",
        )),),
)
