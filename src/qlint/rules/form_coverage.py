"""form-coverage: a drawn form does not follow the exam blueprint (a domain's count off its weight, a difficulty mix
off target), or lists a question the bank does not have, or one question twice."""
from collections import Counter
from collections.abc import Iterator

from pydantic import ConfigDict, Field

from qlint.blueprint import Blueprint, coverage
from qlint.finding import Severity
from qlint.formrule import FormRule, FormView, FormViolation
from qlint.rule import Invalid, RuleOptions
from qlint.wording import plural


class Options(RuleOptions):
    model_config = ConfigDict(defer_build=True)   # built when a run uses it: the blueprint's models wait till then

    blueprint: Blueprint | None = Field(default=None, description=(
        "the exam blueprint: set by `blueprint` in the config; without one only unknown and repeated questions "
        "are reported"))


def _counts(view: FormView, blueprint: Blueprint) -> Iterator[FormViolation]:
    found = coverage(blueprint, [(e.item.objective, e.item.difficulty) for e in view.entries if e.item is not None],
                     form=True)
    if not found.counted:
        yield FormViolation(None, f"none of the form's {plural(found.total, 'question')} names an objective of the "
                                  "blueprint")
        return
    for row in found.rows:
        if row.status == "ok" or row.target_count is None:
            continue
        domain = blueprint.domains[row.domain]
        what = (f"domain {row.id!r}" if row.kind == "domain" else f"objective {row.id!r} of domain {domain.key!r}")
        tolerance = blueprint.tolerance if domain.tolerance is None else domain.tolerance
        yield FormViolation(None, f"{what} has {plural(row.questions, 'question')} on this form of {found.counted} "
                                  f"({row.share:.0%}); the blueprint asks {row.target_share:.0%}, about "
                                  f"{row.target_count:.0f} (tolerance {tolerance:.0%})")
    for level in found.difficulty:
        if level["status"] in ("under", "over", "missing") and found.rated:
            yield FormViolation(None, f"difficulty {level['level']!r} is {level['questions']} of the form's "
                                      f"{found.rated} rated questions ({level['share']:.0%}); the blueprint's mix asks "
                                      f"{level['target']:.0%}")


def check(view: FormView, options: Options) -> Iterator[FormViolation]:
    first: dict[str, int] = {}
    for index, entry in enumerate(view.entries):
        if entry.item is None:
            yield FormViolation(index, f"the form lists question {entry.id!r}, which is not in the bank")
        elif entry.id in first:
            yield FormViolation(index, f"the form lists question {entry.id!r} twice (first on line "
                                       f"{view.entries[first[entry.id]].line})")
        first.setdefault(entry.id, index)
    counts = Counter(e.id for e in view.entries)
    if options.blueprint is not None and view.entries and max(counts.values()) == 1:
        yield from _counts(view, options.blueprint)


_BANK = """\
# options:
#   blueprint:
#     domains:
#       - {id: "1", name: Cloud Concepts, weight: 50%}
#       - {id: "2", name: Security, weight: 50%}
questions:
""" + "".join(f"""\
  - id: {q}
    objective: "{o}"
    stem: Question {q} about {"cloud benefits" if o == "1" else "security duties"} number {n}?
    options:
      - {{text: Answer {n}, correct: true, rationale: Correct.}}
      - {{text: Other {n}, rationale: Incorrect.}}
""" for n, (q, o) in enumerate([("c1", "1"), ("c2", "1"), ("c3", "1"), ("c4", "1"), ("s1", "2"), ("s2", "2"),
                                ("s3", "2"), ("s4", "2")]))

RULE = FormRule(
    code="Q608",
    name="form-coverage",
    severity=Severity.WARNING,
    summary="A drawn exam form does not follow the blueprint: a domain (or a weighted objective) has more or fewer "
            "questions than its weight asks of a form that size, the difficulty mix is off target, or the form lists "
            "a question the bank does not have, or one question twice.",
    why=("A form is what a candidate sits: if it under-samples a domain that the blueprint weighs at a third, the "
         "score no longer means what the certification says it means, and two forms of one exam stop being "
         "comparable."),
    use_instead="Draw the form again, or swap questions between domains until each count is near its weight.",
    notes=("Runs with `qlint check --form FORM` (a YAML list of question ids, a `questions:` list, or a folder of "
           "bank files). A count is off when it misses the blueprint's weight times the form's size by more than the "
           "tolerance and by at least one whole question. Findings point at the form file."),
    options=Options,
    check=check,
    passing=(_BANK + "# form: [c1, c2, s1, s2]\n",),
    failing=(Invalid(_BANK + "# form: [c1, c2, c3, c4, s1, s2]\n",
        message=(
            "domain '1' has 4 questions on this form of 6 (67%)",
            "domain '2' has 2 questions on this form of 6 (33%)",
        )), Invalid(_BANK + "# form: [c1, s1, s9]\n", message="the form lists question 's9', which is not in the bank")),
)
