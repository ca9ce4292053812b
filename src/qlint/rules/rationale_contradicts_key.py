"""rationale-contradicts-key: a rationale opens with the wrong verdict for its option."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.verdicts import polarity
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

# in a negative item ("Which is NOT ...?", "Which statement is false?") a rationale may call the key's statement
# wrong and a distractor's statement correct: the verdict is about the statement, not the option
_NEGATIVE_STEM = re.compile(r"\b(?:NOT|EXCEPT|LEAST)\b|(?i:\b(?:except|false|incorrect|untrue|inaccurate|wrong|"
                            r"not\s+(?:true|correct|accurate|valid))\b)")
_NEGATIVE_WORDS = ("not", "except", "least", "false", "incorrect", "untrue", "inaccurate", "wrong")  # one is in each


class Options(RuleOptions):
    check_key: bool = Field(default=True, description="report a key whose rationale opens with 'Incorrect'")
    check_distractors: bool = Field(default=True, description="report a distractor whose rationale opens with 'Correct'")


def _negative(stem: str) -> bool:
    """Whether the stem asks for what is not so ("Which is NOT ...?", "Which statement is false?")."""
    lower = stem.lower()
    return any(w in lower for w in _NEGATIVE_WORDS) and _NEGATIVE_STEM.search(stem) is not None


def check(question: Question, options: Options) -> Iterator[Violation]:
    found = []
    for i, option in enumerate(question.options):
        p = polarity(option.rationale)
        if option.correct and p < 0 and options.check_key:
            found.append(Violation(f"options[{i}].rationale", f"option {i + 1} is marked correct but its rationale "
                                                              "opens by calling it incorrect; check the key"))
        elif not option.correct and p > 0 and options.check_distractors:
            found.append(Violation(f"options[{i}].rationale", f"option {i + 1} is not marked correct but its "
                                                              "rationale opens by calling it correct; check the key"))
    # the stem is read only when a verdict disagrees: most questions have none to excuse
    if found and question.keys and not _negative(question.stem):   # no key: correct-count reports that
        yield from found

RULE = QuestionRule(
    code="Q107",
    name="rationale-contradicts-key",
    severity=Severity.WARNING,
    summary="A rationale's opening verdict disagrees with the key: the key's says \"Incorrect\", or a distractor's "
            "says \"Correct\".",
    why=("A rationale that argues the wrong way signals a mis-keyed item or a rationale attached to the wrong option; "
         "examinees who read the feedback are taught the wrong answer."),
    use_instead="Check the answer key: fix the `correct` flag, or move the rationale to the option it belongs to.",
    options=Options,
    check=check,
    notes="A warning, not an error: it reads the opening words of each rationale, which is not certain. " + ("Only the opening verdict is read: \"Correct.\", \"Correct, because ...\", \"This is the right answer\" "
           "versus \"Incorrect\", \"Wrong\", \"Not correct\", \"This is not the correct answer\". \"Correct answer is "
           "B ...\" (it points elsewhere), \"False\" (often a verdict on a statement), hedges (\"Partially "
           "correct ...\") and \"This is correct only if ...\" are "
           "not verdicts. Negative items (NOT, EXCEPT, \"which is false\") are skipped: there a rationale may call "
           "the key's statement incorrect. Questions without a key are left to correct-count. No labelled data "
           "exists for this flaw; it reports nothing on the BenchMarker dev split (no rationales) or on the project's sample bank, whose "
           "rationales open with \"Correct.\" / \"Incorrect.\" consistently with the key."),
    passing=("""\
id: rck-consistent
stem: What is 7 x 8?
options:
  - {text: '56', correct: true, rationale: Correct. 7 x 8 = 56.}
  - {text: '54', rationale: Incorrect. The correct answer is 56; 54 is 6 x 9.}
  - {text: '48', rationale: 'This is 6 x 8, not 7 x 8.'}
""", """\
id: rck-pointers-and-hedges
stem: Which gas do plants absorb for photosynthesis?
options:
  - {text: carbon dioxide, correct: true, rationale: Plants take in CO2 through their stomata.}
  - {text: oxygen, rationale: 'Correct answer is carbon dioxide; oxygen is released, not absorbed.'}
  - {text: nitrogen, rationale: "Partially correct thinking: plants need nitrogen, but not for photosynthesis."}
""", """\
id: rck-negative-item
stem: Which of these is NOT a greenhouse gas?
options:
  - {text: nitrogen, correct: true, rationale: "Incorrect as a greenhouse gas: N2 does not absorb infrared, so it is the answer."}
  - {text: methane, rationale: 'Correct. Methane is a greenhouse gas, so it is not the answer.'}
  - {text: water vapour, rationale: Incorrect choice. Water vapour traps heat.}
"""),
    failing=(Invalid("""\
id: rck-key-called-wrong
stem: What is the boiling point of water at sea level?
options:
  - {text: 100 degrees Celsius, correct: true, rationale: Incorrect. Water boils at 90 degrees at sea level.}
  - {text: 90 degrees Celsius, rationale: Correct. This is the boiling point at sea level.}
""",
        field=("options[0].rationale", "options[1].rationale"),
        message=(
            "option 1 is marked correct but its rationale opens by calling it incorrect",
            "option 2 is not marked correct but its rationale opens by calling it correct",
        )), Invalid("""\
id: rck-distractor-called-right
stem: Who wrote Hamlet?
options:
  - {text: Shakespeare, correct: true, rationale: "Correct, Shakespeare wrote it around 1600."}
  - {text: Marlowe, rationale: This is the correct answer; Marlowe wrote Hamlet.}
  - {text: Jonson, rationale: Incorrect. Jonson wrote Volpone.}
""",
        field="options[1].rationale",
        message="option 2 is not marked correct but its rationale opens by calling it correct")),
)
