"""invalid-suppression: a suppression without a reason or naming no known rule."""
from qlint.finding import Severity
from qlint.problems import INVALID_SUPPRESSION
from qlint.rule import Invalid, LoaderRule

RULE = LoaderRule(
    code=INVALID_SUPPRESSION.code,
    name=INVALID_SUPPRESSION.name,
    severity=Severity.WARNING,
    summary="A suppression comment with no reason, no rule names, or a rule name qlint does not know.",
    why="A suppression is a decision a reviewer must be able to audit; without a reason it is only a silencer.",
    use_instead="`# qlint: ignore[rule-name] why this rule does not apply here`",
    passing=("""\
id: sup-fine
stem: Which setting lets a DataLoader copy batches to the GPU asynchronously?
options:
  - text: pin_memory=True
    correct: true
    rationale: Correct. Pinned host memory allows non-blocking copies.
  - text: drop_last=True  # qlint: ignore[missing-rationale] legacy item, rationale pending
""",),
    failing=(Invalid("""\
id: sup-bad
stem: Which setting lets a DataLoader copy batches to the GPU asynchronously?
options:
  - text: pin_memory=True
    correct: true
    rationale: Correct. Pinned host memory allows non-blocking copies.
  - text: drop_last=True  # qlint: ignore[missing-rationale]
""", message="suppression needs a reason: # qlint: ignore[rule] reason"), Invalid("""\
id: sup-typo
stem: Which setting lets a DataLoader copy batches to the GPU asynchronously?
options:
  - text: pin_memory=True  # qlint: ignore[option-lenght] short options are fine here
    correct: true
    rationale: Correct. Pinned host memory allows non-blocking copies.
  - text: drop_last=True
    rationale: Incorrect. It only drops an incomplete final batch.
""", message="suppression names 'option-lenght', which is not a qlint rule")),
)
