"""objective-not-in-blueprint: a question names an objective the exam blueprint does not have."""
from collections.abc import Iterator, Sequence

from pydantic import ConfigDict, Field

from qlint.blueprint import Blueprint, spellings, targets
from qlint.finding import Severity
from qlint.items import BankItem
from qlint.rule import BankRule, BankViolation, Invalid, RuleOptions
from qlint.wording import did_you_mean


class Options(RuleOptions):
    model_config = ConfigDict(defer_build=True)   # built when a run uses it: the blueprint's models wait till then

    blueprint: Blueprint | None = Field(default=None, description=(
        "the exam blueprint: set by `blueprint` in the config; without one the rule is silent"))
    require: bool = Field(default=True, description="also report a question with no `objective` at all")


def check(questions: Sequence[BankItem], options: Options) -> Iterator[BankViolation]:
    blueprint = options.blueprint
    if blueprint is None:
        return
    known = targets(blueprint)
    spelled = spellings(blueprint)
    hint = "; `qlint stats` lists the blueprint's objectives"
    hints: dict[str, str] = {}   # one did-you-mean per distinct objective, not one per question
    for item in questions:
        objective = item.objective.strip() if isinstance(item.objective, str) else ""
        if not objective:
            if options.require:
                yield BankViolation(item, "id", "the question has no `objective`: the blueprint's coverage cannot "
                                                "count it")
        elif objective.casefold() not in known:
            if objective not in hints:
                hints[objective] = did_you_mean(objective, spelled, hint)
            yield BankViolation(item, "objective", f"objective {objective!r} is not in the blueprint{hints[objective]}")


_HEADER = """\
# options:
#   blueprint:
#     domains:
#       - id: "1"
#         name: Cloud Concepts
#         weight: 100%
#         objectives: [{id: "1.1", name: Benefits of the cloud}, {id: "1.2", name: Design principles}]
"""

RULE = BankRule(
    code="Q607",
    name="objective-not-in-blueprint",
    severity=Severity.ERROR,
    summary="A question's `objective` names no domain or objective of the exam blueprint (with a did-you-mean), or "
            "the question has no objective at all.",
    why=("A question whose objective the blueprint does not know is counted nowhere: the coverage table misses it, "
         "and a form drawn by objective never draws it. A misspelt objective (\"1.21\" for \"1.2\") is the usual "
         "cause; a retired objective is the other."),
    use_instead="Name the objective as the blueprint writes it (its id, such as `1.2`, or its name), or add the "
                "objective to the blueprint.",
    notes=("Silent without a blueprint (`blueprint` in the config). An objective matches a blueprint objective's or "
           "domain's id or name, case and surrounding spaces aside. An error: that the name is not in the blueprint "
           "is certain, and the bank's coverage is wrong until it is fixed."),
    options=Options,
    check=check,
    passing=(_HEADER + """\
questions:
  - id: q1
    objective: "1.2"
    stem: Which framework names six pillars of good cloud design?
    options:
      - {text: The Well-Architected Framework, correct: true, rationale: Correct.}
      - {text: The Cloud Adoption Framework, rationale: Incorrect. It guides migration.}
  - id: q2
    objective: benefits of the cloud
    stem: Which benefit lets capacity follow demand?
    options:
      - {text: Elasticity, correct: true, rationale: Correct.}
      - {text: Fixed capacity, rationale: Incorrect.}
""",),
    failing=(Invalid(_HEADER + """\
questions:
  - id: q1
    objective: "1.21"
    stem: Which framework names six pillars of good cloud design?
    options:
      - {text: The Well-Architected Framework, correct: true, rationale: Correct.}
      - {text: The Cloud Adoption Framework, rationale: Incorrect. It guides migration.}
""", field="objective", message="objective '1.21' is not in the blueprint"), Invalid(_HEADER + """\
questions:
  - id: q1
    stem: Which benefit lets capacity follow demand?
    options:
      - {text: Elasticity, correct: true, rationale: Correct.}
      - {text: Fixed capacity, rationale: Incorrect.}
""", field="id", message="the question has no `objective`: the blueprint's coverage cannot count it")),
)
