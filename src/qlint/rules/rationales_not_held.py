"""rationales-not-held: a bank format that cannot hold a rationale for each option, said once instead of a
missing-rationale error per option."""
from qlint.finding import Severity
from qlint.problems import RATIONALES_NOT_HELD
from qlint.rule import Invalid, LoaderRule, Valid

RULE = LoaderRule(
    code=RATIONALES_NOT_HELD.code,
    name=RATIONALES_NOT_HELD.name,
    severity=Severity.WARNING,
    summary=("The file's format cannot hold a rationale for each option (Aiken; a GIFT true/false question without "
             "feedback): said once per file or question instead of a missing-rationale error per option."),
    why=("Aiken has no place for feedback at all, so every option of every question would be a missing-rationale "
         "error: a wall of red for a limit of the format, which hides the findings the author can act on. The "
         "rationales are still missing; this finding says so once, with what to do about it."),
    use_instead=("Write the rationales where the format holds them: convert an Aiken bank (qlint convert --to yaml "
                 "or --to gift) and give each option its rationale; give a GIFT true/false question its two feedbacks, "
                 "{TRUE#shown for the wrong answer#shown for the right one}. Set this rule's severity in the config, "
                 "or ignore it to accept the format as it is."),
    notes=("Reported only while missing-rationale is on; the options it covers get no missing-rationale finding "
           "(whether or not this rule is on). An Aiken file gets one for the whole file. Its examples are GIFT files."),
    passing=(Valid("""\
::sky:: The sky is green. {FALSE#It is blue on a clear day.#Right: it is blue.}
""", path="example.gift"),),
    failing=(Invalid("""\
::sky:: The sky is green. {FALSE}
""", path="example.gift", message="true/false question without feedback, so neither answer has a rationale"),),
)
