"""rule-timeout: a file whose rules ran out of their time budget, so some of them were skipped."""
from qlint.finding import Severity
from qlint.problems import RULE_TIMEOUT
from qlint.rule import A_WELL_FORMED_QUESTION, Invalid, MachineRule

# An error, like parse-error: a file whose rules did not all run is a file nobody fully checked, and a gate must not
# pass it silently. The default budget (rule-time-budget, 60 s a file) is far above what any bank file within
# max-file-size needs, so reaching it means a pathological file, not a busy machine.
RULE = MachineRule(
    code=RULE_TIMEOUT.code,
    name=RULE_TIMEOUT.name,
    severity=Severity.ERROR,
    summary=("Reading a file and its question rules ran past the file's time budget (`rule-time-budget`); what was "
             "left was skipped."),
    why=("One pathological file must not stall the whole bank: past the budget qlint stops reading or checking that "
         "file and says what it skipped, so that file's findings are incomplete and nobody has fully checked it."),
    use_instead=("Split the file, or look at what makes it slow (thousands of options in one question, megabyte "
                 "stems); raise `rule-time-budget` only if the file is as intended."),
    notes="Its failing example fires only under a budget shorter than the rules take over it. ",
    failing=(Invalid("# checked with rule-time-budget shorter than the rules take over this file\n"
                     + A_WELL_FORMED_QUESTION, settings={"rule-time-budget": 1e-9}, message="ran past its time budget"),),
)
