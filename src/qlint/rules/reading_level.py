"""reading-level: a stem harder to read than the audience should need."""
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.readability import grade
from qlint.model import Question
from qlint.rule import QuestionRule, RuleOptions, Violation


class Options(RuleOptions):
    max_grade: float = Field(default=16.0, gt=0, le=100, description=(
        "highest Flesch-Kincaid grade a stem may have (16: a graduate reader; certification stems in public "
        "banks have a 95th percentile near 14)"))
    min_words: int = Field(default=20, ge=1, le=1_000_000,
                           description="stems with fewer plain words are not graded (formulas are unstable on short text)")


def check(question: Question, options: Options) -> Iterator[Violation]:
    level, counted = grade(question.stem)
    level = round(level, 1)  # judged as shown: "14.0" is never "above 14"
    if counted >= options.min_words and level > options.max_grade:
        yield Violation("stem", f"stem reads at grade {level:.1f}, above the target of {options.max_grade:g} "
                                "(Flesch-Kincaid; shorten sentences, prefer plain words)")


RULE = QuestionRule(
    code="Q404",
    name="reading-level",
    severity=Severity.WARNING,
    enabled=False,
    notes="Off by default: on six public banks of real questions, two reviewers agreed with 2 of 40 sampled findings; grades were inflated by sentences run together without a space after the full stop, code, tables, lyrics and names, French text was scored with an English formula, and in reading-comprehension items the passage's difficulty is the point. Turn it on with a max-grade that fits your audience.",
    summary="The stem's Flesch-Kincaid grade is above the configured target.",
    why=("An exam should test the subject, not reading stamina. Long sentences and stacked polysyllables add "
         "construct-irrelevant difficulty (NBME), which penalises second-language candidates most."),
    use_instead=("Split long sentences, move background into a short scenario, prefer common words. Code, "
                 "identifiers and URLs are not counted, and stems under `min-words` plain words are not graded."),
    options=Options,
    check=check,
    passing=("""\
id: rl-ok
stem: >-
  A run with `torch.cuda.amp` and `GradScaler` prints a loss of NaN after a few hundred steps.
  The same run in fp32 trains well. What should you check first?
options:
  - {text: Whether the scaler skips steps with inf gradients, correct: true, rationale: Correct. Overflow shows up as inf.}
  - {text: Whether the data loader shuffles each epoch, rationale: Incorrect. Shuffling does not depend on precision.}
""", """\
id: rl-short
stem: Which NCCL collective does DistributedDataParallel use to average gradients?
options:
  - {text: all_reduce, correct: true, rationale: Correct. Every rank gets the averaged gradients.}
  - {text: broadcast, rationale: Incorrect. Broadcast copies from one rank only.}
"""),
    failing=("""\
id: rl-hard
stem: >-
  Considering the aforementioned computational considerations regarding the instantiation of
  heterogeneous parallelisation configurations, notwithstanding the organisational
  particularities characterising contemporary institutional infrastructure, which
  consideration predominantly determines the appropriateness of implementation?
options:
  - {text: Communication bandwidth, correct: true, rationale: Correct. It bounds scaling.}
  - {text: Colour of the racks, rationale: Incorrect. Irrelevant.}
""",),
)
