"""unsupported-question: questions of another bank format that are not multiple choice, counted once per file."""
from qlint.finding import Severity
from qlint.problems import UNSUPPORTED
from qlint.rule import Invalid, LoaderRule, Valid

RULE = LoaderRule(
    code=UNSUPPORTED.code,
    name=UNSUPPORTED.name,
    severity=Severity.INFO,
    summary="A GIFT, Moodle XML or QTI file holds questions that are not multiple choice; qlint counts them, once per file.",
    why=("qlint's rules are about multiple-choice items. Essays, numeric, matching, cloze and short-answer questions in "
         "a Moodle or QTI bank are left unchecked: saying so, with how many, keeps a clean report from meaning more "
         "than it does."),
    use_instead="Nothing to fix: this is a count. Turn it off with ignore = [\"unsupported-question\"] if it is noise.",
    passing=(Valid("""\
::capital:: The capital of France is {=Paris ~Lyon ~Nice}
""", path="example.gift"),),
    failing=(Invalid("""\
::essay:: Describe the water cycle. {}

::pi:: Pi to two decimals? {#3.14:0.005}
""", path="example.gift", message="2 questions not checked (not multiple choice): 1 essay, 1 numeric"),),
    notes="Its examples are GIFT files (a YAML bank only holds multiple-choice questions).",
)
