"""correct-count: not exactly one correct option, or not exactly ``select``."""
from collections.abc import Iterator

from qlint.finding import Severity
from qlint.model import Question
from qlint.rule import Invalid, NoOptions, QuestionRule, Violation


def check(question: Question, options: NoOptions) -> Iterator[Violation]:
    keys = len(question.keys)
    wanted = question.select
    if wanted > len(question.options):
        yield Violation("select", f"select is {wanted} but the question has only {len(question.options)} options")
        return
    if keys == wanted:
        return
    if keys == 0:
        yield Violation("options", "no option is marked correct (set `correct: true` on the key)")
    elif wanted == 1:
        yield Violation("options", f"{keys} options are marked correct; a single-answer question needs exactly one "
                                   f"(add `select: {keys}` if {keys} answers are intended)")
    else:
        yield Violation("options", f"{keys} option{'s are' if keys != 1 else ' is'} marked correct but select is {wanted}")


RULE = QuestionRule(
    code="Q104",
    name="correct-count",
    severity=Severity.ERROR,
    summary="The number of options marked correct differs from one, or from the declared `select`.",
    why=("A question with no key cannot be scored; one with two keys where one is expected marks right answers "
         "wrong. This is the most expensive defect an exam can ship."),
    use_instead="Mark exactly one option `correct: true`, or declare `select: N` and mark N options.",
    check=check,
    notes=("A multiple-answer question whose every option is a key, with `select` saying so, is a format some exams "
           "use (\"select all that apply\"), not a miscount: it is not reported. Two reviewers judged such items "
           "debatable, not certain, on a public bank."),
    passing=("""\
id: cc-all-keys
stem: Which of these are prime numbers? (Select all that apply.)
select: 3
options:
  - {text: '2', correct: true, rationale: Correct. Its only divisors are 1 and 2.}
  - {text: '3', correct: true, rationale: Correct. Its only divisors are 1 and 3.}
  - {text: '5', correct: true, rationale: Correct. Its only divisors are 1 and 5.}
""", """\
id: cc-ok
stem: Which two settings reduce peak activation memory during training? (Select two.)
select: 2
options:
  - {text: Gradient checkpointing, correct: true, rationale: Correct. Activations are recomputed instead of stored.}
  - {text: A smaller micro-batch, correct: true, rationale: Correct. Activation memory scales with batch size.}
  - {text: A larger learning rate, rationale: 'Incorrect. It changes the update size, not memory.'}
  - {text: More DataLoader workers, rationale: Incorrect. Workers use host memory.}
""",),
    failing=(Invalid("""\
id: cc-none
stem: Which call frees the autograd graph of a logged loss?
options:
  - {text: loss.item(), rationale: Correct. It returns a Python float.}
  - {text: loss.clone(), rationale: Incorrect. A clone keeps the graph.}
""", field="options", message="no option is marked correct (set `correct: true` on the key)"), Invalid("""\
id: cc-two
stem: Which call frees the autograd graph of a logged loss?
options:
  - {text: loss.item(), correct: true, rationale: Correct. It returns a Python float.}
  - {text: loss.detach().item(), correct: true, rationale: "Correct. Same value, no graph."}
  - {text: loss.clone(), rationale: Incorrect. A clone keeps the graph.}
""", field="options", message="2 options are marked correct; a single-answer question needs exactly one")),
)
