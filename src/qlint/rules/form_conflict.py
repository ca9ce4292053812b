"""form-conflict: two questions on one drawn form give each other away, are near-duplicates, or contradict each
other's key."""
from collections.abc import Iterator

from qlint.finding import Severity
from qlint.formrule import FormRule, FormView, FormViolation
from qlint.rule import Invalid, NoOptions

_WHAT = {"enemy-items": "gives the other away", "near-duplicate-stem": "is a near-duplicate of the other",
         "contradictory-keys": "contradicts the other's key"}


def check(view: FormView, options: NoOptions) -> Iterator[FormViolation]:
    for pair in view.pairs:
        a, b = view.entries[pair.first], view.entries[pair.second]
        yield FormViolation(pair.second, f"question {b.id!r} and question {a.id!r} (line {a.line}) are both on this "
                                         f"form, and one {_WHAT.get(pair.rule, 'conflicts with the other')} "
                                         f"({pair.rule}: {pair.detail}): draw only one of them")


_BANK = """\
questions:
  - id: wolverine-name
    stem: What is the real name of the X-Men member Wolverine?
    options:
      - {text: James Howlett, correct: true, rationale: Correct.}
      - {text: Scott Summers, rationale: Incorrect. That is Cyclops.}
  - id: wolverine-debut
    stem: Wolverine's real name is James Howlett. Which comic first featured him?
    options:
      - {text: "The Incredible Hulk #181", correct: true, rationale: Correct.}
      - {text: "X-Men #1", rationale: Incorrect.}
  - id: storm-power
    stem: Which power does the X-Men member Storm have?
    options:
      - {text: She controls the weather, correct: true, rationale: Correct.}
      - {text: She reads minds, rationale: Incorrect. That is Professor X.}
"""

RULE = FormRule(
    code="Q609",
    name="form-conflict",
    severity=Severity.WARNING,
    summary="Two questions on one drawn form are enemy items (one states the other's key), near-duplicates, or "
            "copies whose keys contradict each other.",
    why=("On one form, an enemy item hands the candidate the answer to its partner, a near-duplicate tests one "
         "point twice, and contradictory copies mark a candidate wrong on one of them whatever they answer."),
    use_instead="Draw one question of each pair; the bank's own findings (enemy-items, near-duplicate-stem, "
                "contradictory-keys) name the pairs before a form is drawn.",
    notes=("Runs with `qlint check --form FORM`, which also turns on enemy-items. The pairs are those the bank rules "
           "report about the whole bank (enemy-items, near-duplicate-stem, contradictory-keys); a rule that did not "
           "run (one ignored) contributes none, and the run says so."),
    check=check,
    passing=(_BANK + "# form: [wolverine-name, storm-power]\n",),
    failing=(Invalid(_BANK + "# form: [wolverine-name, wolverine-debut, storm-power]\n",
        message="question 'wolverine-debut' and question 'wolverine-name' (line 1) are both on this form"),),
)
