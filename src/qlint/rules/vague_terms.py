"""vague-terms: an option uses a vague quantifier or frequency word (often, usually, some, many, ...)."""
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.terms import TermList, term_findings
from qlint.language.wordlists import word_lists
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

TERMS = TermList(word_lists("vague-terms"))


class Options(RuleOptions):
    include_weak: bool = Field(default=True, description="also count degree words and evaluative adjectives "
                                                         "(very, some, appropriate, ...)")
    max_words: int = Field(default=30, ge=1, le=10_000, description="skip options longer than this (narrative options)")
    skip_if_in_stem: bool = Field(default=True, description="ignore a vague word the stem itself uses")


def check(question: Question, options: Options) -> Iterator[Violation]:
    for i, found, span in term_findings(question, TERMS, options.include_weak, options.max_words,
                                        options.skip_if_in_stem):
        listed = ", ".join(f'"{t}"' for t in found)
        yield Violation(f"options[{i}].text", f"option {i + 1} uses the vague term {listed}; whether it is true "
                                              "depends on how the reader takes it", span=span)


RULE = QuestionRule(
    code="Q502",
    name="vague-terms",
    severity=Severity.INFO,
    enabled=False,
    summary="An option uses a vague quantifier or frequency word (often, usually, some, many, most, very, ...).",
    why=("Vague frequency and quantity words mean different things to different readers, so whether the option is "
         "true depends on interpretation rather than knowledge (Haladyna, Downing & Rodriguez 2002: avoid vague "
         "terms such as 'frequently', 'usually', 'occasionally'). A hedged key among sharp distractors is also a "
         "testwiseness cue: the qualified option is usually the right one."),
    use_instead=("Replace the vague word with the criterion it stands for ('in more than half of runs', 'within 30 "
                 "minutes'), or drop it."),
    options=Options,
    check=check,
    notes="Off by default: on six public banks of real questions, two reviewers agreed with 2 of 40 sampled findings; the word is mostly part of a title (\"A Few Good Men\"), a technical term or a precise condition. Turn it on (--extend-select vague-terms) to review such words yourself. " + ("Word lists, idiom exemptions (most likely, at least, rather than, ...) and the criterion pattern are "
           "data: src/qlint/rules/data/vague-terms.yaml. A Python rule rather than a pack because a vague word "
           "followed by a number ('usually within 30 minutes', 'about 5 km') is exempt, long options are skipped "
           "and words echoed from the stem are ignored; a pack cannot express these (without them: precision 0.42, "
           "kappa 0.45). 'about' (nearly always a preposition) and the modals may, might, could (a possibility is often "
           "exactly what a precise claim states) are not listed; 'very' inside a term's name (very low-density "
           "lipoprotein) and approximations a claim needs ('roughly proportional') are exempt. Info severity: "
           "precision 0.47; reviewers ignore many hedges in plain prose."),
    passing=("""\
id: vague-ok
stem: How long does a NCCL all-reduce of 1 GB take on this cluster?
options:
  - {text: About 40 ms, correct: true, rationale: Correct. Measured on the 8-GPU nodes.}
  - {text: About 4 s, rationale: Incorrect. That is a hundred times too slow.}
  - {text: Under 1 ms, rationale: Incorrect. The link bandwidth does not allow it.}
""", """\
id: vague-about-modal
stem: What does a deadlock detector report?
options:
  - {text: A cycle of threads that may each wait on a lock another holds, correct: true, rationale: Correct. That is a deadlock.}
  - {text: Statistics about lock contention, rationale: Incorrect. That is a profiler.}
  - {text: Threads that could run but are not scheduled, rationale: Incorrect. That is starvation.}
""", """\
id: vague-term-name
stem: Which lipoprotein carries triglycerides made in the liver out to the tissues?
options:
  - {text: very low-density lipoprotein, correct: true, rationale: Correct. The liver secretes it.}
  - {text: high-density lipoprotein, rationale: Incorrect. It carries cholesterol back to the liver.}
  - {text: chylomicrons, rationale: Incorrect. They carry dietary fat from the gut.}
""", """\
id: vague-roughly-proportional
stem: How does the time of a matrix-vector product grow with the number of matrix entries?
options:
  - {text: roughly proportional to it, correct: true, rationale: Correct. Each entry is read once.}
  - {text: with its square, rationale: Incorrect. No entry is read twice.}
  - {text: with its logarithm, rationale: Incorrect. Every entry must be read.}
"""),
    failing=(Invalid("""\
id: vague-bad
stem: What happens to step time when gradient checkpointing is turned on?
options:
  - {text: It usually gets somewhat longer, correct: true, rationale: Correct. Activations are recomputed.}
  - {text: It halves, rationale: Incorrect. No compute is saved.}
  - {text: It is unchanged, rationale: Incorrect. The recomputation costs time.}
""", field="options[0].text", message='option 1 uses the vague term "somewhat", "usually"'), Invalid("""\
id: vague-that-most
stem: Which test suites should run before every merge?
options:
  - {text: the suites that cover the changed modules, correct: true, rationale: Correct. They can catch a regression.}
  - {text: the suites that most teams rely on, rationale: Incorrect. Popularity says nothing about the change.}
  - {text: the suites that finished last night, rationale: Incorrect. They ran on older code.}
""", field="options[1].text", message='option 2 uses the vague term "most"')),
)
