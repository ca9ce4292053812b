"""import-hazard: a construct qlint reads, but the LMS the format comes from imports differently, losing questions."""
from qlint.finding import Severity
from qlint.problems import IMPORT_HAZARD
from qlint.rule import Invalid, LoaderRule, Valid

RULE = LoaderRule(
    code=IMPORT_HAZARD.code,
    name=IMPORT_HAZARD.name,
    severity=Severity.WARNING,
    summary=("The file reads well in qlint, but the LMS its format belongs to imports it differently and loses "
             "questions (a GIFT `$CATEGORY:` line with question text right below it)."),
    why=("qlint checks what the author wrote; the candidates see what the LMS imported. Moodle reads every line after "
         "`$CATEGORY:` up to the next blank line as part of the category's name, so the question written there "
         "never reaches the quiz, and nothing in the file looks wrong."),
    use_instead="Put a blank line after every `$CATEGORY:` line.",
    notes="Its examples are GIFT files.",
    passing=(Valid("""\
$CATEGORY: $course$/top/Networks

::port-http:: Which TCP port does HTTP use by default? {=80 ~443 ~21}
""", path="example.gift"),),
    failing=(Invalid("""\
$CATEGORY: $course$/top/Networks
::port-http:: Which TCP port does HTTP use by default? {=80 ~443 ~21}
""", path="example.gift", message="no blank line after $CATEGORY"),),
)
