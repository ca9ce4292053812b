"""duplicate-id: two questions share an id."""
from collections import Counter
from collections.abc import Iterator, Sequence
from operator import attrgetter

from qlint.finding import Severity
from qlint.items import BankItem
from qlint.rule import BankRule, BankViolation, Invalid, NoOptions

_ID = attrgetter("id")
NAMED = 5   # other places a finding names; the rest are counted


def check(questions: Sequence[BankItem], options: NoOptions) -> Iterator[BankViolation]:
    counts = Counter(map(_ID, questions))   # counted in C: ids are nearly always unique
    shared = {qid for qid, n in counts.items() if n > 1}
    if not shared:
        return
    seen: dict[str, list[BankItem]] = {}
    for item in questions:
        if item.id in shared:
            seen.setdefault(item.id, []).append(item)
    for qid, items in seen.items():
        places = [f"{o.path}:{o.locate('id')[0]}" for o in items]
        for n, item in enumerate(items):
            # the first few other places, not all of them: a templated import that gives one id to thousands of
            # questions would otherwise make a message of thousands of places for each of them
            others = [place for at, place in enumerate(places[:NAMED + 1]) if at != n][:NAMED]
            more = len(items) - 1 - len(others)
            named = ", ".join(others) + (f" and {more:,} more" if more else "")
            yield BankViolation(item, "id", f"id {qid!r} is also used at {named}")


RULE = BankRule(
    code="Q103",
    name="duplicate-id",
    severity=Severity.ERROR,
    summary="Two questions in the bank share an id.",
    why=("Ids key item statistics, exam forms and baselines. Two questions under one id corrupt item "
         "analysis and make one of them unreachable."),
    use_instead="Give every question a unique, stable id; never reuse a retired one.",
    check=check,
    counts_rejected=True,   # a question with a misspelt field still takes its id
    passing=("""\
questions:
  - id: ckpt-001
    stem: Which state must a checkpoint keep so that Adam resumes exactly where it stopped?
    options:
      - {text: The moment estimates, correct: true, rationale: Correct. Adam's update uses them.}
      - {text: The batch size, rationale: Incorrect. That is configuration.}
  - id: ckpt-002
    stem: Which state must a checkpoint keep so that dropout masks repeat after resuming?
    options:
      - {text: The RNG states, correct: true, rationale: Correct. Masks come from the generators.}
      - {text: The loss history, rationale: Incorrect. Logs do not drive sampling.}
""",),
    failing=(Invalid("""\
questions:
  - id: ckpt-001
    stem: Which state must a checkpoint keep so that Adam resumes exactly where it stopped?
    options:
      - {text: The moment estimates, correct: true, rationale: Correct. Adam's update uses them.}
      - {text: The batch size, rationale: Incorrect. That is configuration.}
  - id: ckpt-001
    stem: Which state must a checkpoint keep so that dropout masks repeat after resuming?
    options:
      - {text: The RNG states, correct: true, rationale: Correct. Masks come from the generators.}
      - {text: The loss history, rationale: Incorrect. Logs do not drive sampling.}
""",
        field="id",
        message=("id 'ckpt-001' is also used at example.yaml:7", "id 'ckpt-001' is also used at example.yaml:2")),),
)
