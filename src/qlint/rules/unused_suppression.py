"""unused-suppression: a suppression that silences nothing."""
from qlint.finding import Severity
from qlint.problems import UNUSED_SUPPRESSION
from qlint.rule import Invalid, LoaderRule

RULE = LoaderRule(
    code=UNUSED_SUPPRESSION.code,
    name=UNUSED_SUPPRESSION.name,
    severity=Severity.WARNING,
    summary="A `# qlint: ignore[...]` comment or a `qlint: ignore:` entry that no finding needed.",
    why=("Stale suppressions hide future problems: once the question is fixed, the suppression stays and "
         "silently swallows the next real finding of that rule."),
    use_instead="Delete the suppression.",
    passing=("""\
id: sup-ok
stem: Which setting lets a DataLoader copy batches to the GPU asynchronously?
qlint:
  ignore:
    missing-rationale: the rationale lives in the course notes for this legacy item
options:
  - text: pin_memory=True
    correct: true
    rationale: Correct. Pinned host memory allows non-blocking copies.
  - text: drop_last=True
""",),
    failing=(Invalid("""\
id: sup-stale
stem: Which setting lets a DataLoader copy batches to the GPU asynchronously?
options:  # qlint: ignore[missing-rationale] legacy item, rationales pending
  - text: pin_memory=True
    correct: true
    rationale: Correct. Pinned host memory allows non-blocking copies.
  - text: drop_last=True
    rationale: Incorrect. It only drops an incomplete final batch.
""", message="suppression of missing-rationale silences nothing"),),
)
