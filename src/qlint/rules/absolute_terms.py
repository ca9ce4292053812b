"""absolute-terms: an option uses an absolute word (always, never, all, only, ...)."""
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.terms import TermList, term_findings
from qlint.language.wordlists import word_lists
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

TERMS = TermList(word_lists("absolute-terms"))


class Options(RuleOptions):
    include_weak: bool = Field(default=False, description="also count no, any, whole, must, cannot (more findings, "
                                                          "lower precision)")
    max_words: int = Field(default=20, ge=1, le=10_000, description="skip options longer than this: in narrative options the "
                                                         "word is context, not a claim")
    skip_if_in_stem: bool = Field(default=True, description="ignore an absolute word the stem itself uses "
                                                            "('Are all X ...?')")
    check_stem: bool = Field(default=False, description="also report absolute terms in the stem")


def check(question: Question, options: Options) -> Iterator[Violation]:
    for i, found, span in term_findings(question, TERMS, options.include_weak, options.max_words,
                                        options.skip_if_in_stem):
        if question.options[i].correct:
            continue  # a key that states a true absolute cues against itself: test-wise candidates drop it
        listed = ", ".join(f'"{t}"' for t in found)
        yield Violation(f"options[{i}].text", f"option {i + 1} uses the absolute term {listed}; test-wise "
                                              "candidates rule such options out", span=span)
    if options.check_stem:
        located = TERMS.located(question.stem, options.include_weak)
        if located:
            found = sorted({t for t, _ in located})
            yield Violation("stem", f"the stem uses the absolute term {', '.join(repr(t) for t in found)}",
                            span=located[0][1])


RULE = QuestionRule(
    code="Q501",
    name="absolute-terms",
    severity=Severity.INFO,
    enabled=False,
    summary="An option uses an absolute term (always, never, all, none, only, every, completely, ...).",
    why=("Absolute claims are rarely true, so test-wise candidates eliminate options with 'always', 'never', "
         "'all' or 'only' without knowing the content (Haladyna, Downing & Rodriguez 2002: avoid specific "
         "determiners; the NBME guide lists absolute terms as a testwiseness flaw). If the key is the only "
         "option without one, the item is answered by its form."),
    use_instead="State the claim with its real scope or condition, or word every option with the same care.",
    options=Options,
    check=check,
    notes="Off by default: on six public banks of real questions, two reviewers agreed with 1 of 40 sampled findings; the word is mostly part of a title, a name, a quotation, an idiom or a technical term (\"eventually consistent\"), or states a precise condition. Turn it on (--extend-select absolute-terms) to review absolutes yourself. " + ("The word lists and idiom exemptions (all of the above, every other day, not only, 'I and III only', "
           "...) are data: src/qlint/rules/data/absolute-terms.yaml. A Python rule rather than a pack because "
           "it needs guards a pack cannot express: exemptions that are patterns (every 3 hours), skipping long "
           "narrative options, and ignoring a word the stem itself uses (as a pack without them: precision 0.52, "
           "kappa 0.49 on the dev labels). The key is not reported: an absolute that is true cues against the "
           "key, not towards it. A negated absolute ('not always', \"isn't necessarily\") is a hedge and is exempt. "
           "Info severity: precision 0.65, below the 0.7 bar for warnings."),
    passing=("""\
id: abs-ok
stem: How often should a training job write a checkpoint?
options:
  - {text: Every 30 minutes of wall time, correct: true, rationale: Correct. It bounds the work lost to a failure.}
  - {text: Once at the end of training, rationale: Incorrect. A crash loses the whole run.}
  - {text: After each optimizer step, rationale: Incorrect. The I/O dominates the step time.}
""", """\
id: abs-k-type
stem: Which of these reduce activation memory? I. checkpointing II. smaller micro-batches III. a larger learning rate
options:
  - {text: I and II only, correct: true, rationale: Correct. Both shrink stored activations.}
  - {text: II and III only, rationale: Incorrect. The learning rate does not change memory.}
  - {text: III only, rationale: Incorrect. The learning rate does not change memory.}
""", """\
id: abs-true-key
stem: What does a process see after another process has called fsync on a file and returned?
options:
  - {text: Every write made before the call survives a power loss, correct: true, rationale: Correct. That is fsync's promise.}
  - {text: Writes are not always visible to other processes, rationale: Incorrect. The page cache is shared.}
  - {text: The file is locked until it is closed, rationale: Incorrect. fsync takes no lock.}
"""),
    failing=(Invalid("""\
id: abs-bad
stem: What does gradient checkpointing do to training?
options:
  - {text: It recomputes activations during the backward pass, correct: true, rationale: Correct. That is the trade.}
  - {text: It always makes training faster, rationale: Incorrect. It adds compute.}
  - {text: It never changes peak memory, rationale: Incorrect. Lowering peak memory is its purpose.}
""",
        field=("options[1].text", "options[2].text"),
        message=('option 2 uses the absolute term "always"', 'option 3 uses the absolute term "never"')), Invalid("""\
id: abs-that-all
stem: What does a learning-rate warmup do at the start of training?
options:
  - {text: It raises the rate step by step over the first updates, correct: true, rationale: Correct. That is warmup.}
  - {text: It keeps the rate fixed at all times, rationale: Incorrect. The rate changes during warmup.}
  - {text: It ensures that all layers get the same gradient, rationale: Incorrect. Gradients differ by layer.}
""",
        field=("options[1].text", "options[2].text"),
        message=('option 2 uses the absolute term "all"', 'option 3 uses the absolute term "all"'))),
)
