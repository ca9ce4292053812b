"""fix-skipped: a file, or one fix in it, that ``--fix`` left alone, and why."""
from qlint.finding import Severity
from qlint.problems import FIX_SKIPPED
from qlint.rule import Invalid, MachineRule

# What ``check --fix`` reports, not a check of the bank: a file it could not rewrite safely (not UTF-8, read-only,
# changed while it was fixed, a rewrite that would change how it reads) or a fix it refused. A warning: nothing was
# lost, but a finding the user asked to have fixed is still there.
RULE = MachineRule(
    code=FIX_SKIPPED.code,
    name=FIX_SKIPPED.name,
    severity=Severity.WARNING,
    summary="`--fix` left a file, or one fix in it, alone, because it could not apply it safely; the message says why.",
    why=("A fix never changes what a question means, and never writes a file it cannot put back whole: when it "
         "cannot keep that promise it does nothing, and says so in the report (not only on stderr), so that the "
         "findings still there are not mistaken for ones --fix could not see."),
    use_instead=("Fix what the message names (a read-only file, two questions with one id, a file edited while it was "
                 "fixed), then run `--fix` again; or apply the remaining fixes by hand."),
    notes=("The findings come from `check --fix`, not from the text: its failing example fires when `--fix` runs over "
           "it (`qlint.testing` runs it so). `--ignore fix-skipped` leaves them out of the report; stderr still "
           "names each file left alone."),
    made_by="fix",
    failing=(Invalid("""\
# checked with --fix: the stray space is fixable, but two questions share an id, so the file is left alone
questions:
  - id: fs-twice
    stem: "Which device holds a tensor created with torch.zeros(3) by default? "
    options:
      - {text: The CPU, correct: true, rationale: Correct. Tensors are created on the CPU unless a device is given.}
      - {text: The GPU, rationale: Incorrect. CUDA placement needs a device.}
  - id: fs-twice
    stem: Which call moves a tensor to the first GPU?
    options:
      - {text: .to("cuda:0"), correct: true, rationale: Correct. It names the device.}
      - {text: .cpu(), rationale: Incorrect. It moves the tensor to the CPU.}
""", message="not fixed: "),),
)
