"""reading-level: a sentence, a stem or an option longer than a candidate should have to hold in mind at once."""
from collections.abc import Iterator

from pydantic import Field, model_validator

from qlint.finding import Severity
from qlint.language.readability import Sentence, measure_stem, most_words, words_as_read, words_in_text
from qlint.language.words import short
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation


class Options(RuleOptions):
    max_sentence_words: int = Field(default=40, ge=5, le=1_000_000, description=(
        "a sentence of the stem with more words than this is reported (plain-language guides call a sentence "
        "over 25-35 words long; code, tables and formulas are not counted)"))
    max_stem_words: int = Field(default=150, ge=10, le=1_000_000, description=(
        "a stem with more words than this is reported, not counting a passage the question asks about"))
    max_option_words: int = Field(default=80, ge=5, le=1_000_000, description="an option with more words than this "
                                                                              "is reported")
    max_passage_words: int = Field(default=1000, ge=10, le=1_000_000, description=(
        "a passage with more words than this is reported: the paragraphs before a stem's last one, when that last "
        "paragraph asks about them ('the passage', 'the author', 'the argument above') or they have 150 words or more"))

    @model_validator(mode="before")
    @classmethod
    def _grade_moved(cls, data: object) -> object:
        moved = sorted(k for k in ("max-grade", "min-words") if isinstance(data, dict) and k in data)
        if moved:
            raise ValueError(f"{' and '.join(moved)} moved to the reading-grade rule: set "
                             f"{'them' if len(moved) > 1 else 'it'} under [rules.reading-grade]")
        return data


def _count(n: int) -> str:
    return f"{n:,}"


def _sentence(stem: str, asked: list[Sentence], limit: int) -> Iterator[Violation]:
    over = [(words_as_read(stem, s), s) for s in asked if s.words > limit]
    over = [(n, s) for n, s in over if n > limit]
    if not over:
        return
    words, worst = max(over, key=lambda pair: pair[0])
    more = f"; {len(over) - 1} more over the limit" if len(over) > 1 else ""
    yield Violation("stem", f"a sentence of {_count(words)} words (limit {limit}): "
                            f"\"{short(stem[worst.start:worst.end], 70)}\"{more}; split it",
                    span=(worst.start, worst.end))


def check(question: Question, options: Options) -> Iterator[Violation]:
    stem = question.stem
    yield from _stem(stem, options) if most_words(stem) > min(options.max_sentence_words, options.max_stem_words,
                                                             options.max_passage_words) else ()
    for i, option in enumerate(question.options):
        words = words_in_text(option.text) if most_words(option.text) > options.max_option_words else 0
        if words > options.max_option_words:
            yield Violation(f"options[{i}].text", f"option {i + 1} has {_count(words)} words "
                                                  f"(limit {options.max_option_words}); shorten it, or move what "
                                                  "the options share into the stem")


def _stem(stem: str, options: Options) -> Iterator[Violation]:
    measure = measure_stem(stem)
    yield from _sentence(stem, measure.asked, options.max_sentence_words)
    words = measure.words
    if words > options.max_stem_words:
        after = " after its passage" if measure.passage else ""
        yield Violation("stem", f"the stem has {_count(words)} words{after} (limit {options.max_stem_words}); "
                                "move background into a shorter scenario or cut what the question does not need")
    passage_words = measure.passage_words
    if passage_words > options.max_passage_words:
        yield Violation("stem", f"the passage before the question has {_count(passage_words)} words "
                                f"(limit {options.max_passage_words})")


_LONG_SENTENCE = ("A company that runs its web tier on a fleet of virtual machines behind a load balancer in two "
                  "regions, with a managed database that replicates synchronously to a standby in a second zone and "
                  "a nightly export of every table to object storage for analytics, wants to cut its monthly bill "
                  "without losing availability.")

RULE = QuestionRule(
    code="Q404",
    name="reading-level",
    severity=Severity.WARNING,
    summary="A sentence, the stem or an option is longer than a candidate should have to hold in mind at once.",
    why=("An exam should test the subject, not reading stamina. A long sentence or a padded stem adds "
         "construct-irrelevant difficulty (NBME), which penalises second-language and slow readers most; a long "
         "option usually repeats what belongs in the stem."),
    use_instead=("Split long sentences; move background into a short scenario; put what every option repeats into "
                 "the stem. Code blocks, tables, formulas, URLs and images are not counted as words."),
    options=Options,
    check=check,
    notes=("Each finding names what it measured: the longest sentence over the limit (with its first words), the "
           "stem's words, or an option's words. A sentence ends at a full stop, question or exclamation mark (also "
           "when the next sentence runs on without a space), at a semicolon, at a colon that opens a capitalised "
           "clause, at a line break that is not hard-wrapped prose, and where a full stop was plainly lost (a "
           "lower-case word, then 'The', 'However', 'What' ...). The items of a list (three or more comma-separated "
           "pieces of at most four words) count as a word each. A quotation of eight words or more, or what follows "
           "'lyrics:' or 'the quote:', is the material asked about and counts as one word. A reading passage is "
           "exempt from the sentence and stem limits and held to max-passage-words instead: the paragraphs before "
           "the stem's last one, when that last paragraph asks about them ('According to the passage', 'the "
           "author', 'the argument above'), is itself a question of at most 60 words, or they run to 150 words or "
           "more. The "
           "grade of long stems against the audience is reading-grade's."),
    passing=("""\
id: rl-ok
stem: >-
  A run with `torch.cuda.amp` and `GradScaler` prints a loss of NaN after a few hundred steps.
  The same run in fp32 trains well. What should you check first?
options:
  - {text: Whether the scaler skips steps with inf gradients, correct: true, rationale: Correct. Overflow shows up as inf.}
  - {text: Whether the data loader shuffles each epoch, rationale: Incorrect. Shuffling does not depend on precision.}
""", """\
id: rl-passage
stem: |
  The passage below comes from a 1910 essay on the railway age.

  When the first lines were laid across the valley, the farmers who had carried their grain to the river on carts
  for three generations found that a merchant in the city could now buy it, store it and sell it again before their
  own wagons would have reached the ferry, and many of them, seeing no reason to resist what their sons welcomed,
  sold their land to the company and moved to the towns that grew up around the stations.

  According to the passage, why did many farmers sell their land?
options:
  - {text: They saw no reason to resist a change their sons welcomed, correct: true, rationale: Correct. The passage says so.}
  - {text: The company forced them off the land, rationale: Incorrect. The passage describes a choice.}
""", """\
id: rl-code
stem: |
  What does this function return for `f([3, 1, 2])`?

  ```python
  def f(values):
      return sorted(values, key=lambda value: (value % 2 == 0, value), reverse=False)[0] if values else None
  ```
options:
  - {text: '1', correct: true, rationale: Correct. Odd values sort first.}
  - {text: '2', rationale: Incorrect. Even values sort after odd ones.}
"""),
    failing=(Invalid(f"""\
id: rl-long-sentence
stem: >-
  {_LONG_SENTENCE} Which change saves the most?
options:
  - {{text: Buy reserved capacity for the steady base load, correct: true, rationale: Correct. It is the largest line.}}
  - {{text: Stop the nightly export, rationale: Incorrect. Analytics needs it.}}
""", field="stem", message="words (limit 40)"), Invalid("""\
id: rl-long-stem
stem: >-
  Your team maintains the checkout service of an online shop. The service runs in containers on a managed cluster.
  It talks to a payment provider over HTTPS. Last month the provider changed its certificate chain. Two of the
  five replicas kept working. The other three began to fail every payment with a handshake error. The replicas
  were built from the same image. They were started on different days. The cluster runs three node pools. Each
  pool uses a different machine image. The failing replicas all ran on the oldest pool. Restarting them on the same
  pool did not help. Moving one to a newer pool fixed it at once. The security team asks you for the root cause
  before the next release. They also want to know how to prevent a repeat. The release is due on Friday. Your
  manager asks for a short written summary by Thursday. You have read access to the cluster and to the build logs.
  You cannot change the node pools yourself. What is the most likely cause of the failures?
options:
  - {text: The oldest node pool's machine image lacks the provider's new root certificate, correct: true, rationale: Correct. The trust store comes from the node.}
  - {text: The container image has an expired client certificate, rationale: Incorrect. Every replica uses the same image.}
""", field="stem", message="words (limit 150); move background into a shorter scenario")),
)
