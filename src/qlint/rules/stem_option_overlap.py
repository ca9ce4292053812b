"""stem-option-overlap: the key repeats a content word of the stem that no distractor repeats (clang cue)."""
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.stems import content_stems, first_spelled, spelled_as
from qlint.language.words import is_numeric
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation


class Options(RuleOptions):
    min_chars: int = Field(default=3, ge=1, le=1000, description="shortest word that counts as a content word")
    min_margin: int = Field(default=0, ge=0, le=10_000, description="the key must share this many more stem words than the "
                                                         "best distractor (1: strictly more; fewer findings)")
    max_numeric_share: float = Field(default=0.5, ge=0, le=1,
                                     description="skip questions whose options are mostly numbers or formulas")


def check(question: Question, options: Options) -> Iterator[Violation]:
    opts = question.options
    keys = question.keys
    if len(keys) != 1:
        return
    if sum(is_numeric(o.text) for o in opts) > options.max_numeric_share * len(opts):
        return
    stem = content_stems(question.stem, options.min_chars)
    if not stem:
        return
    shared = [content_stems(o.text, options.min_chars) & stem for o in opts]
    k = keys[0]
    best_distractor = max(len(s) for i, s in enumerate(shared) if i != k)
    others = set().union(*(s for i, s in enumerate(shared) if i != k))
    only_key = shared[k] - others
    if only_key and len(shared[k]) - best_distractor >= options.min_margin:
        listed = ", ".join(f'"{w}"' for w in spelled_as(opts[k].text, only_key, options.min_chars))
        yield Violation(f"options[{k}].text",
                        f"the key (option {k + 1}) repeats stem word(s) {listed} that no distractor repeats; "
                        "word matching alone finds it", span=first_spelled(opts[k].text, only_key, options.min_chars))


RULE = QuestionRule(
    code="Q203",
    name="stem-option-overlap",
    severity=Severity.WARNING,
    enabled=False,
    summary="The key repeats a content word of the stem that no distractor repeats (a clang association).",
    why=("When the key echoes the stem's wording and the distractors do not, a test-wise candidate picks the key "
         "by word matching alone (Haladyna, Downing & Rodriguez 2002, 'avoid clang associations'; the NBME item-"
         "writing guide lists it as a testwiseness cue). The item then measures test-wiseness, not the construct."),
    use_instead=("Use a synonym in the key, or repeat the stem's term in every option (or in none), so word "
                 "matching gives no hint."),
    options=Options,
    check=check,
    notes="Off by default: on six public banks of real questions, two reviewers agreed with 12 of 40 sampled findings; the shared word was a French function word, a product name, a code identifier or a word of a long passage, not a clang cue. " + ("Words are compared after stop-word removal and light suffix stripping, so irregular forms "
           "(slept/sleep) are missed. Questions whose options are mostly numbers or formulas are skipped."),
    passing=("""\
id: sov-ok
stem: Which tensors does autograd keep alive after the forward pass?
options:
  - {text: The intermediate outputs that backward needs, correct: true, rationale: Correct. Gradients need them.}
  - {text: The optimizer's momentum buffers, rationale: Incorrect. The optimizer owns those.}
  - {text: The input batch on the host, rationale: Incorrect. Host copies are not saved by autograd.}
""", """\
id: sov-all-repeat
stem: Which setting makes a DataLoader reuse its worker processes between epochs?
options:
  - {text: persistent workers set to true, correct: true, rationale: Correct. Workers survive across epochs.}
  - {text: more workers, rationale: Incorrect. More workers are still restarted.}
  - {text: pinned memory with workers, rationale: Incorrect. Pinning changes host memory only.}
"""),
    failing=(Invalid("""\
id: sov-bad
stem: Which setting makes a DataLoader reuse its worker processes between epochs?
options:
  - {text: persistent_workers=True so the worker processes survive, correct: true, rationale: Correct. Workers survive across epochs.}
  - {text: pin_memory=True, rationale: Incorrect. Pinning changes host memory only.}
  - {text: drop_last=True, rationale: Incorrect. It drops the last partial batch.}
""",
        field="options[0].text",
        message='the key (option 1) repeats stem word(s) "workers", "processes" that no distractor repeats'),),
)
