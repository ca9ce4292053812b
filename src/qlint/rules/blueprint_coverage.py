"""blueprint-coverage: the bank does not cover the exam blueprint (an objective without enough questions, a domain
off its weight, a difficulty mix off its target)."""
from collections.abc import Iterator, Sequence

from pydantic import ConfigDict, Field

from qlint.blueprint import Blueprint, Coverage, Row, coverage
from qlint.finding import Severity
from qlint.items import BankItem
from qlint.rule import BankRule, BankViolation, Invalid, RuleOptions
from qlint.wording import plural


class Options(RuleOptions):
    model_config = ConfigDict(defer_build=True)   # built when a run uses it: the blueprint's models wait till then

    blueprint: Blueprint | None = Field(default=None, description=(
        "the exam blueprint: set by `blueprint` in the config (a YAML file, or a table); without one the rule is "
        "silent"))


def measure(questions: Sequence[BankItem], blueprint: Blueprint) -> Coverage:
    """How the bank's questions cover the blueprint (their objective and difficulty)."""
    return coverage(blueprint, ((q.objective, q.difficulty) for q in questions))


def _label(row: Row, blueprint: Blueprint) -> str:
    if row.kind == "domain":
        return f"domain {row.id!r}" + (f" ({row.name})" if row.name != row.id else "")
    domain = blueprint.domains[row.domain]
    own = f" ({row.name})" if row.name != row.id else ""
    return f"objective {row.id!r}{own} of domain {domain.key!r}"


def _message(row: Row, blueprint: Blueprint, counted: int) -> str:
    what = _label(row, blueprint)
    if row.kind == "objective":
        have = "no questions" if row.questions == 0 else plural(row.questions, "question")
        return f"{what} has {have} in the bank; the blueprint asks for at least {row.minimum}"
    domain = blueprint.domains[row.domain]
    tolerance = blueprint.tolerance if domain.tolerance is None else domain.tolerance
    expected = row.target_share * counted
    gap = (f"about {expected - row.questions:.0f} questions short" if row.status == "under"
           else f"about {row.questions - expected:.0f} questions over")
    return (f"{what} is {row.share:.0%} of the bank ({row.questions} of {counted} questions that name a blueprint "
            f"objective); the blueprint weighs it {row.target_share:.0%} (tolerance {tolerance:.0%}): {gap}")


def _difficulty(level: dict, blueprint: Blueprint, rated: int) -> str:
    return (f"difficulty {level['level']!r} is {level['share']:.0%} of the rated questions ({level['questions']} of "
            f"{rated}); the blueprint's mix asks {level['target']:.0%} (tolerance {blueprint.difficulty_tolerance:.0%})")


def check(questions: Sequence[BankItem], options: Options) -> Iterator[BankViolation]:
    blueprint = options.blueprint
    if blueprint is None or not questions:
        return
    found = measure(questions, blueprint)
    if not found.counted:
        yield BankViolation(questions[0], "objective", f"none of the {plural(found.total, 'question')} names an "
                            "objective of the blueprint", bank_level=True, at=blueprint.where("domains"))
        return
    for row in found.rows:
        if row.status == "ok":
            continue
        place = ("domains", row.domain) if row.objective is None else ("domains", row.domain, "objectives", row.objective)
        yield BankViolation(questions[0], "objective", _message(row, blueprint, found.counted), bank_level=True,
                            at=blueprint.where(*place))
    for level in found.difficulty:
        if level["status"] in ("under", "over"):
            yield BankViolation(questions[0], "difficulty", _difficulty(level, blueprint, found.rated),
                                bank_level=True, at=blueprint.where("difficulty", level["level"]))


def publish(questions: Sequence[BankItem], options: Options) -> dict | None:
    """The coverage table (target against actual per domain and objective, and the difficulty mix) for ``stats``
    and the report; None without a blueprint."""
    blueprint = options.blueprint
    if blueprint is None:
        return None
    found = measure(questions, blueprint)
    return {"blueprint": blueprint.name, "source": blueprint.source, "tolerance": blueprint.tolerance,
            "counted": found.counted, "total": found.total, "no_objective": found.no_objective,
            "unknown": found.unknown, "rated": found.rated, "difficulty": found.difficulty,
            "rows": [vars(row) for row in found.rows]}


_BLUEPRINT = """\
# options:
#   blueprint:
#     min-questions: 2
#     domains:
#       - {id: "1", name: Cloud Concepts, weight: 50%, objectives: [{id: "1.1", name: Benefits of the cloud}]}
#       - {id: "2", name: Security, weight: 50%, objectives: [{id: "2.1", name: Shared responsibility}]}
questions:
"""
_QUESTION = """\
  - id: {id}
    objective: "{objective}"
    stem: {stem}
    options:
      - {{text: {key}, correct: true, rationale: Correct.}}
      - {{text: {other}, rationale: Incorrect.}}
"""


def _bank(*rows: tuple[str, str, str, str]) -> str:
    return _BLUEPRINT + "".join(_QUESTION.format(id=f"q{i}", objective=o, stem=s, key=k, other=d)
                                for i, (o, s, k, d) in enumerate(rows))


RULE = BankRule(
    code="Q606",
    name="blueprint-coverage",
    severity=Severity.WARNING,
    summary="The bank does not cover the exam blueprint: an objective has no questions or fewer than the blueprint "
            "asks, a domain's share of the bank is off its weight by more than the tolerance, or the difficulty mix "
            "is off its target.",
    why=("A certification bank is built against a published blueprint, and its first duty is to cover it: forms are "
         "drawn from the bank by domain and objective, and an objective with two questions makes every form repeat "
         "them (or skip the objective). A domain that holds a quarter of the bank but a third of the exam is "
         "over-exposed on every form."),
    use_instead=("Write questions for the objectives that are short, retire or re-assign those of an over-weighted "
                 "domain, or correct the blueprint. `qlint stats` prints the coverage table, the report draws it."),
    notes=("Silent without a blueprint (`blueprint = \"exam/blueprint.yaml\"` in the config, or a "
           "`[tool.qlint.blueprint]` table). Questions count by their `objective` (an objective's or a domain's id or "
           "name, case aside); those that name none of the blueprint's are left out of the shares "
           "(`objective-not-in-blueprint` reports them). A share is off when it misses its weight by more than the "
           "tolerance and by at least one whole question. Findings point at the blueprint's line."),
    options=Options,
    check=check,
    publish=publish,
    passing=(_bank(("1.1", "Which cloud benefit lets capacity follow demand?", "Elasticity", "Fixed capacity"),
                   ("1.1", "Which cloud benefit trades capital expense for variable expense?", "Pay as you go",
                    "Upfront purchase"),
                   ("2.1", "Who patches the host operating system of a managed database?", "The provider",
                    "The customer"),
                   ("2.1", "Who configures the security group of a virtual machine?", "The customer",
                    "The provider")),),
    failing=(Invalid(_bank(("1.1", "Which cloud benefit lets capacity follow demand?", "Elasticity", "Fixed capacity"),
                   ("1.1", "Which cloud benefit trades capital expense for variable expense?", "Pay as you go",
                    "Upfront purchase"),
                   ("1.1", "Which cloud benefit removes the need to guess capacity?", "Elastic scaling",
                    "Yearly planning"),
                   ("2.1", "Who patches the host operating system of a managed database?", "The provider",
                    "The customer")),
        field="objective",
        message=(
            "domain '1' (Cloud Concepts) is 75% of the bank (3 of 4 questions that name a blueprint objective)",
            "domain '2' (Security) is 25% of the bank (1 of 4 questions that name a blueprint objective)",
            "objective '2.1' (Shared responsibility) of domain '2' has 1 question in the bank",
        )),),
)
