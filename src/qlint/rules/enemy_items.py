"""enemy-items: one question's stem, explanation or keyed statement states another question's key."""
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Literal

from pydantic import Field

from qlint.finding import Severity
from qlint.items import BankItem
from qlint.model import Question
from qlint.neardup.bankwords import decode_records, encode_records, gather
from qlint.neardup.giveaway import extract
from qlint.rule import BankRule, BankViolation, Invalid, RuleOptions

NAME = "enemy-items"
_WHERE = {"stem": "stem", "explanation": "explanation", "options": "keyed option"}


class Options(RuleOptions):
    fields: tuple[Literal["stem", "explanation", "options"], ...] = Field(
        default=("stem", "options"), min_length=1, description=(
            "where another question's key counts as given away: the stem, a keyed option that states it, and the "
            "explanation (shown after answering, as practice tests do; no exam form shows it)"))
    max_places: int = Field(default=5, ge=1, le=1000, description=(
        "a key found in more questions than this is a stock phrase, not a give-away"))
    window: int = Field(default=10, ge=1, le=100, description=(
        "words either side of the key that are read for what it speaks of"))
    min_shared: int = Field(default=2, ge=1, le=100, description=(
        "content words of the key's own stem that must stand in that window"))
    min_share: float = Field(default=0.45, ge=0, le=1, description=(
        "... and the share of the key's stem's content words they must be (each weighed by how rare it is in the "
        "bank's stems)"))


def _extract(question: Question, options: Options) -> bytes:
    return extract(question, explanations="explanation" in options.fields)


def pairs(questions: Sequence[BankItem], options: Options) -> list:
    """Every find (``qlint.neardup.giveawaysearch.Find``) the check reports."""
    from qlint.neardup.giveawaysearch import Settings, finds, join  # numpy: imported only when the bank is checked

    settings = Settings(frozenset(options.fields), options.max_places, options.window, options.min_shared,
                        options.min_share)
    return finds(join(*gather(questions, NAME)), settings)


def _where(item: BankItem) -> str:
    return f"{item.path}:{item.locate('stem')[0]}"


def _around(find) -> str:
    """How much of what the key's question asks stands around its key in the other question."""
    return f"{len(find.shared)} of the {find.asked} content words it asks stand around it, {find.share:.0%} by rarity"


def check(questions: Sequence[BankItem], options: Options, found: list) -> Iterator[BankViolation]:
    for find in found:
        gives, answers = questions[find.gives], questions[find.answers]
        place, around = _WHERE[find.field], _around(find)
        yield BankViolation(gives, "stem" if find.field == "stem" else find.field if find.field == "explanation"
                            else "options",
                            f"this question's {place} states {find.quote!r}, the key of question {answers.id!r} at "
                            f"{_where(answers)}, and speaks of what that question asks ({around}): keep the two off "
                            "one form")
        yield BankViolation(answers, "options",
                            f"the key {find.quote!r} is stated in the {place} of question {gives.id!r} at "
                            f"{_where(gives)}, which speaks of what this question asks ({around}): keep the two off "
                            "one form")


def publish(questions: Sequence[BankItem], options: Options, found: list) -> list[dict]:
    """The pairs the check reports: which question gives which away, where, and the key it states."""
    out = []
    for find in found:
        gives, answers = questions[find.gives], questions[find.answers]
        out.append({"gives": {"id": gives.id, "path": gives.path, "line": gives.locate("stem")[0]},
                    "answers": {"id": answers.id, "path": answers.path, "line": answers.locate("stem")[0]},
                    "field": find.field, "key": find.quote})
    return out


_PAIR = """\
questions:
  - id: wolverine-name
    stem: What is the real name of the X-Men member Wolverine?
    options:
      - {text: James Howlett, correct: true, rationale: Correct. Logan is the name he goes by.}
      - {text: Scott Summers, rationale: Incorrect. That is Cyclops.}
      - {text: Bruce Banner, rationale: Incorrect. That is the Hulk.}
  - id: wolverine-debut
    stem: %s Which comic first featured him?
    options:
      - {text: "The Incredible Hulk #181", correct: true, rationale: Correct.}
      - {text: "X-Men #1", rationale: Incorrect. He joined the team later.}
      - {text: "Avengers #4", rationale: Incorrect.}
"""

RULE = BankRule(
    code="Q605",
    name=NAME,
    severity=Severity.WARNING,
    enabled=False,
    summary="One question's stem or keyed statement (or its explanation, when asked) states another question's "
            "key, in words that speak of what that question asks (\"Wolverine's real name is James Howlett\" against \"What is the real "
            "name of Wolverine?\"): the two are enemy items.",
    why=("A candidate who meets both on one form reads the answer to one in the other. Exam boards call such pairs "
         "enemy items and keep them apart when they assemble a form; a bank should know its pairs before a form is "
         "drawn."),
    use_instead=("Keep the two off the same form (`qlint check --form` checks a drawn form), or reword the one that "
                 "gives the other away. Both questions are reported, each naming the other."),
    notes=("A key counts when it is a phrase (two content words or more, such as 'James Howlett' or 'Amazon "
           "DynamoDB', not 'Yes' or '42'), is the only key of a question that does not ask for the false option, and "
           "is not already in its own stem. It is found as a whole phrase (case, punctuation and function words "
           "aside) in another question's stem or keyed statement (its explanation too with `fields`, for practice "
           "tests that show explanations between questions); a phrase found in more than "
           "`max-places` questions is a stock phrase. The words around it must speak of what the key's own stem "
           "asks (`min-shared` of its content words, `min-share` of them), so that a name met in passing does not "
           "count. Questions that share most of their stem (a passage, a scenario, a near-duplicate) are left to "
           "near-duplicate-stem. Off by default: a developer's look at its findings on the public banks found 37 "
           "of 40 sampled on a trivia bank that give the answer away or help to it strongly, but 7 of the 9 pairs "
           "on a software skills bank (two name a Photoshop tool beside an Illustrator grid's \"vanishing points\"), "
           "short of the 0.90 in every bank a default rule needs; what it reports wrongly is a key named beside the topic "
           "of the other question but not beside what it asks (\"Margaret Thatcher in The Iron Lady\" against "
           "\"Which prime minister studied chemistry?\"). `qlint check --form` turns it on, for "
           "form-conflict."),
    options=Options,
    check=check,
    extract=_extract,
    encode=encode_records,
    decode=partial(decode_records, unit=4),
    publish=publish,
    survey=pairs,
    passing=(_PAIR % "Wolverine first appeared in a Hulk comic.", """\
questions:
  - id: dynamo-managed
    stem: Which AWS service is a managed NoSQL key-value database?
    options:
      - {text: Amazon DynamoDB, correct: true, rationale: Correct.}
      - {text: Amazon Redshift, rationale: Incorrect. It is a data warehouse.}
  - id: dynamo-passing
    stem: A company keeps session data in Amazon DynamoDB. Which service should it use to send alerts by email?
    options:
      - {text: Amazon SNS, correct: true, rationale: Correct.}
      - {text: Amazon SQS, rationale: Incorrect. It queues messages.}
"""),
    failing=(Invalid(_PAIR % "Wolverine's real name is James Howlett, though he goes by Logan.",
        field=("options", "stem"),
        message=(
            "the key 'James Howlett' is stated in the stem of question 'wolverine-debut'",
            "this question's stem states 'James Howlett', the key of question 'wolverine-name'",
        )), Invalid("""\
# options:
#   fields: [stem, options, explanation]
questions:
  - id: empty-cache
    stem: Which PyTorch call releases the cached blocks of GPU memory back to the driver?
    options:
      - {text: torch.cuda.empty_cache(), correct: true, rationale: Correct.}
      - {text: torch.cuda.synchronize(), rationale: Incorrect. It waits for kernels.}
  - id: after-empty-cache
    stem: A script calls x = None and then torch.cuda.empty_cache(). What does nvidia-smi show?
    explanation: torch.cuda.empty_cache() releases the cached blocks of GPU memory to the driver, so the usage drops.
    options:
      - {text: Lower memory use, correct: true, rationale: Correct.}
      - {text: The same memory use, rationale: Incorrect.}
""",
        field=("options", "explanation"),
        message=(
            "the key 'torch.cuda.empty_cache()' is stated in the explanation of question 'after-empty-cache'",
            "this question's explanation states 'torch.cuda.empty_cache()', the key of question 'empty-cache'",
        ))),
)
