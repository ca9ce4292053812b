"""parse-error: a bank file that cannot be read as YAML."""
from qlint.finding import Severity
from qlint.problems import PARSE_ERROR
from qlint.rule import Invalid, MachineRule

RULE = MachineRule(
    code=PARSE_ERROR.code,
    name=PARSE_ERROR.name,
    severity=Severity.ERROR,
    summary="A file that is not readable YAML: syntax errors, bad bytes, unsupported encodings, limits exceeded.",
    why="A file qlint cannot read is a file nobody checked, and one an exam delivery system may reject or misread.",
    use_instead="Fix the YAML at the reported line. Keep bank files UTF-8, one YAML document each.",
    notes=("A finding of this rule is reported whatever `--select`, `--ignore` or `select` in the config say, as ruff never hides a syntax error: the rules that are on did not see what it hides. Its severity can be changed."),
    failing=(Invalid("""\
id: broken-1
stem: "An unclosed quote
options:
  - text: One
""", message="YAML syntax error: found unexpected end of stream"), Invalid("""\
questions:
  - id: a
    stem: A list item with bad indentation?
   options: []
""", message="YAML syntax error: did not find expected '-' indicator")),
)
