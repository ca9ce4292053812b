"""missing-rationale: an option without a rationale."""
from collections.abc import Iterator

from qlint.finding import Severity
from qlint.model import Question
from qlint.rule import Invalid, NoOptions, QuestionRule, Violation


def _missing(index: int) -> Violation:
    return Violation(f"options[{index}]", f"option {index + 1} has no rationale")


def _blank(index: int) -> Violation:
    return Violation(f"options[{index}].rationale", f"option {index + 1} has a blank rationale")


# a finding depends only on the option's index and is immutable: those of the first options (all a real question
# has) are built once and shared by every question; a question with more options builds the rest for itself
_SHARED = 32
_MISSING = tuple(_missing(i) for i in range(_SHARED))
_BLANK = tuple(_blank(i) for i in range(_SHARED))


def check(question: Question, options: NoOptions) -> Iterator[Violation]:
    for index, option in enumerate(question.options):
        rationale = option.rationale
        if rationale is None:
            yield _MISSING[index] if index < _SHARED else _missing(index)
        elif not rationale.strip():
            yield _BLANK[index] if index < _SHARED else _blank(index)


RULE = QuestionRule(
    code="Q106",
    name="missing-rationale",
    severity=Severity.ERROR,
    summary="An option has no rationale, or only whitespace.",
    why=("A rationale for every option is how reviewers verify the key, how candidates learn from feedback, "
         "and how an appeal is answered. A distractor nobody can explain is often a second key."),
    use_instead="Give every option a `rationale`: why the key is right, why each distractor is wrong.",
    check=check,
    passing=("""\
id: mr-ok
stem: Which precision format keeps the exponent range of fp32?
options:
  - {text: bfloat16, correct: true, rationale: Correct. It has 8 exponent bits like fp32.}
  - {text: float16, rationale: Incorrect. It has only 5 exponent bits.}
""",),
    failing=(Invalid("""\
id: mr-bad
stem: Which precision format keeps the exponent range of fp32?
options:
  - {text: bfloat16, correct: true, rationale: Correct. It has 8 exponent bits like fp32.}
  - text: float16
  - {text: int8, rationale: "   "}
""",
        field=("options[1]", "options[2].rationale"),
        message=("option 2 has no rationale", "option 3 has a blank rationale")),),
)
