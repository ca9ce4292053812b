"""stray-whitespace: text that starts or ends with spaces or tabs."""
from collections.abc import Iterator

from qlint.edits import Fix, SetText
from qlint.finding import Severity
from qlint.model import Question
from qlint.rule import Invalid, NoOptions, QuestionRule, Violation


def _fields(question: Question) -> Iterator[tuple[str, str]]:
    yield "stem", question.stem
    for i, option in enumerate(question.options):
        yield f"options[{i}].text", option.text
        if option.rationale:
            yield f"options[{i}].rationale", option.rationale
    if question.explanation:
        yield "explanation", question.explanation


def check(question: Question, options: NoOptions) -> Iterator[Violation]:
    for field, value in _fields(question):
        # a block scalar's single final newline is YAML's doing, not the author's
        newline = "\n" if value.endswith("\n") and not value.endswith("\n\n") else ""
        core = value[: len(value) - len(newline)]
        stripped = core.strip(" \t\u00a0")
        if stripped != core and stripped:
            yield Violation(field, f"{field} starts or ends with whitespace",
                            Fix("strip the whitespace", (SetText(field, stripped + newline),)))


RULE = QuestionRule(
    code="Q108",
    name="stray-whitespace",
    severity=Severity.INFO,
    fix_safety=("The fix removes the spaces and tabs at the start and end of the field, and nothing else: the words, "
                "their order and the line breaks inside stay as they are (a `|` block keeps its final line break)."),
    summary="A stem, option, rationale or explanation starts or ends with spaces or tabs (fixable).",
    why=("Stray whitespace is invisible in review but not in delivery: padded options differ in rendered width, "
         "and exact-match tooling (duplicate detection, translation memories) treats them as different texts."),
    use_instead="Trim the text; `qlint check --fix` does it without touching comments or formatting.",
    check=check,
    passing=("""\
id: ws-ok
stem: Which tensor method returns a Python number?
options:
  - {text: item(), correct: true, rationale: Correct. It copies the scalar out.}
  - {text: detach(), rationale: Incorrect. It returns a tensor.}
""",),
    failing=(Invalid("""\
id: ws-bad
stem: "Which tensor method returns a Python number?  "
options:
  - {text: " item()", correct: true, rationale: Correct. It copies the scalar out.}
  - {text: detach(), rationale: Incorrect. It returns a tensor.}
""",
        field=("stem", "options[0].text"),
        message=("stem starts or ends with whitespace", "options[0].text starts or ends with whitespace"),
        fixed="""\
id: ws-bad
stem: "Which tensor method returns a Python number?"
options:
  - {text: "item()", correct: true, rationale: Correct. It copies the scalar out.}
  - {text: detach(), rationale: Incorrect. It returns a tensor.}
"""),),
)
