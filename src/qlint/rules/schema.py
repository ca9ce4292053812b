"""schema: a question that does not fit the bank format."""
from qlint.finding import Severity
from qlint.problems import SCHEMA
from qlint.rule import Invalid, LoaderRule

RULE = LoaderRule(
    code=SCHEMA.code,
    name=SCHEMA.name,
    severity=Severity.ERROR,
    summary="A field is missing, misspelt, of the wrong type, or not part of the bank format.",
    why=("A misspelt key (`corect: true`) is silently ignored by most tools, so a question ships with no key "
         "or no rationale. qlint knows every field of the format and names the one you probably meant."),
    use_instead=("Question keys: id, stem, options, select, explanation, difficulty, objective, tags, meta, qlint. "
                 "Option keys: text, correct, rationale."),
    notes=("A finding of this rule is reported whatever `--select`, `--ignore` or `select` in the config say, as ruff never hides a syntax error: the rules that are on did not see what it hides. Its severity can be changed."),
    passing=("""\
id: ok-2
stem: Which call returns a Python number from a one-element tensor?
options:
  - text: loss.item()
    correct: true
    rationale: Correct. item() copies the value out and keeps no graph.
  - text: loss.detach()
    rationale: Incorrect. detach() still returns a tensor.
""",),
    failing=(Invalid("""\
id: bad-2
stem: Which call returns a Python number from a one-element tensor?
options:
  - text: loss.item()
    corect: true
    rationale: Correct. item() copies the value out.
  - text: loss.detach()
    rationnale: Incorrect. detach() still returns a tensor.
""",
        field=("options[0].corect", "options[1].rationnale"),
        message=("unknown key 'corect' in options[0]", "unknown key 'rationnale' in options[1]")), Invalid("""\
id: bad-3
options:
  - text: only one option
""", field=("stem", "options"), message=("missing required field 'stem'", "a question needs at least two options")), Invalid("""\
id: bad-4
stem: A tag that would construct an object is never executed?
options: !!python/object/apply:os.system ["echo hi"]
""",
        field=(None, "options[0]"),
        message=(
            "YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed",
            "'options[0]' must be a mapping",
        ))),
)
