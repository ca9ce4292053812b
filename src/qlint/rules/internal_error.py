"""internal-error: a rule that failed on a question, or a plugin that failed to load; never a traceback."""
from qlint.finding import Severity
from qlint.problems import INTERNAL_ERROR
from qlint.rule import A_WELL_FORMED_QUESTION, Invalid, MachineRule

# What qlint's own machinery reports, not a check of the bank: the engine when a rule raises (the rule's other
# questions and every other rule still run), the run when an installed plugin cannot be loaded, the item analysis
# when a response rule raises. An error: the rule that failed did not check what it was given.
RULE = MachineRule(
    code=INTERNAL_ERROR.code,
    name=INTERNAL_ERROR.name,
    severity=Severity.ERROR,
    summary="A rule raised an exception on a question, or an installed plugin failed to load.",
    why=("A broken rule must not stop the run or hide the other rules' findings, nor pass silently: the questions it "
         "failed on are not checked by it, so the run says so where it happened, and a gate fails."),
    use_instead=("Report it with the command you ran; a plugin's to its authors. Until it is fixed, `--ignore` the "
                 "rule that failed (the message names it), not this one."),
    notes=("The findings come from the machinery, not from the text: its failing example fires when a rule that "
           "raises runs over it (`qlint.testing` runs it so). Reported whatever `--ignore` says: the rule that "
           "failed did not check what the finding is about."),
    made_by="a-raising-rule",
    failing=(Invalid("# checked with a rule installed that raises on every question\n" + A_WELL_FORMED_QUESTION,
                     message="failed: "),),
)
