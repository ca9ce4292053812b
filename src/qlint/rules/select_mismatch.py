"""select-mismatch: the stem announces a number of answers that differs from ``select``."""
import re
from collections.abc import Iterator

from qlint.finding import Severity
from qlint.model import Question
from qlint.rule import Invalid, NoOptions, QuestionRule, Violation

NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "single": 1,
           "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}
_COUNT = r"(?P<n>one|two|three|four|five|six|single|[1-6])"
_NOUN = r"(?:correct\s+|best\s+|true\s+|right\s+|valid\s+)?(?:answers?|options?|choices?|responses?|statements?|items?)"
# "Select two.", "(Choose 3)", "Pick TWO answers", "Which two of the following"
ANNOUNCEMENTS = (
    re.compile(rf"\b(?:select|choose|pick|mark|identify|check)\s+(?:the\s+)?(?:exactly\s+)?{_COUNT}\b"
               rf"(?=\s*(?:[.):;!?]|$|{_NOUN}\b|that\b|which\b))", re.IGNORECASE),
    # "Which two of the following", "Which two statements": not "Which two people won ...", where the count is part
    # of what one option names (reviewers of real banks called every such finding a false alarm)
    re.compile(rf"\bwhich\s+{_COUNT}\s+(?:of\s+the\s+following|{_NOUN})",
               re.IGNORECASE),
)

_NEEDS = (("select", "choose", "pick", "mark", "identify", "check"), ("which",))


# "in which 2 oranges are chosen", "of which 2 members are": a relative clause counts things in the problem
_RELATIVE = re.compile(r"\b(?:in|of|from|for|by|with|to|on|at|after|during|among)\s+$", re.IGNORECASE)
# "Which five actions should you perform in sequence?": the count is the length of an ordered list
_SEQUENCE = re.compile(r"[^.?!]*?\b(?:in\s+(?:the\s+(?:correct|right|proper)\s+)?(?:sequence|order)|arrange|"
                       r"order\s+(?:should|would|do|must))\b", re.IGNORECASE)
# the parts of an option that names several things ("F and G", "B, D, E")
_LIST_SEPARATOR = re.compile(r"\s*(?:,|;|&|\band\b|\bet\b|\+)\s*", re.IGNORECASE)


def announced(stem: str) -> int | None:
    """The answer count a stem announces, if it announces one."""
    lower = stem.lower()
    for pattern, words in zip(ANNOUNCEMENTS, _NEEDS):
        if not any(w in lower for w in words):   # each pattern opens with one of these words
            continue
        for match in pattern.finditer(stem):
            if _RELATIVE.search(stem, 0, match.start()) or _SEQUENCE.match(stem, match.end()):
                continue
            return NUMBERS[match.group("n").lower()]
    return None


def _options_are_sets(question: Question, count: int) -> bool:
    """Half the options or more each name `count` things: one option is the whole answer ("F and G")."""
    sized = sum(1 for o in question.options if len([p for p in _LIST_SEPARATOR.split(o.text) if p]) == count)
    return 2 * sized >= len(question.options)


def check(question: Question, options: NoOptions) -> Iterator[Violation]:
    count = announced(question.stem)
    if count is not None and count != question.select and not (count > 1 and _options_are_sets(question, count)):
        yield Violation("stem", f"the stem asks for {count} answer{'s' if count != 1 else ''} "
                                f"but select is {question.select}")


RULE = QuestionRule(
    code="Q105",
    name="select-mismatch",
    severity=Severity.WARNING,
    notes="A warning, not an error: it reads a count from the stem's wording, which is not certain; it fired on no question of six public banks once counts inside one option were told apart.",
    summary="The stem says how many answers to pick (\"Select two.\", \"(Choose 3)\") and `select` disagrees.",
    why=("Candidates follow the stem, scoring follows `select`. When they disagree, a candidate who does what "
         "the stem says is marked wrong."),
    use_instead="Make `select` equal to the number the stem announces, or reword the stem.",
    check=check,
    passing=("""\
id: sm-ok
stem: Which two changes lower the memory used by activations? (Select two.)
select: 2
options:
  - {text: Activation checkpointing, correct: true, rationale: Correct. Activations are recomputed.}
  - {text: Smaller micro-batches, correct: true, rationale: Correct. Fewer activations at once.}
  - {text: Larger learning rate, rationale: Incorrect. Unrelated to memory.}
  - {text: More data workers, rationale: Incorrect. Host memory only.}
""", """\
id: sm-best
stem: Select the best explanation for a loss that becomes NaN after enabling fp16.
options:
  - {text: Gradient overflow without loss scaling, correct: true, rationale: Correct. fp16 has a narrow range.}
  - {text: A data loader bug, rationale: Incorrect. It would also fail in fp32.}
""", """\
id: sm-sequence
stem: You need to restore a deleted table from last night's backup. Which four actions should you perform in sequence?
options:
  - {text: "Stop writes; restore the backup to a new database; copy the table back; resume writes", correct: true, rationale: Correct. Nothing is overwritten.}
  - {text: "Restore the backup over the live database; stop writes; copy the table; resume writes", rationale: Incorrect. Restoring over it loses today's data.}
  - {text: "Copy the table back; stop writes; restore the backup; resume writes", rationale: Incorrect. There is nothing to copy yet.}
""", """\
id: sm-counted-objects
stem: A basket holds 10 apples. In how many ways can a child pick a set in which 3 apples are chosen?
options:
  - {text: '120', correct: true, rationale: Correct. 10 choose 3 = 120.}
  - {text: '720', rationale: Incorrect. That counts ordered picks.}
  - {text: '30', rationale: Incorrect. That multiplies 10 by 3.}
""", """\
id: sm-pairs
stem: Which two cities hosted the Summer Olympic Games in the 1990s?
options:
  - {text: Barcelona and Atlanta, correct: true, rationale: Correct. 1992 and 1996.}
  - {text: Seoul and Barcelona, rationale: Incorrect. Seoul hosted in 1988.}
  - {text: Atlanta and Sydney, rationale: Incorrect. Sydney hosted in 2000.}
"""),
    failing=(Invalid("""\
id: sm-bad
stem: Which two changes lower the memory used by activations? (Select two.)
options:
  - {text: Activation checkpointing, correct: true, rationale: Correct. Activations are recomputed.}
  - {text: Larger learning rate, rationale: Incorrect. Unrelated to memory.}
  - {text: More data workers, rationale: Incorrect. Host memory only.}
""", field="stem", message="the stem asks for 2 answers but select is 1"), Invalid("""\
id: sm-bad-2
stem: A model does not fit on one GPU. Which techniques split its weights across devices? (Choose 3)
select: 2
options:
  - {text: Tensor parallelism, correct: true, rationale: Correct. Layers are split.}
  - {text: Pipeline parallelism, correct: true, rationale: Correct. Stages are split.}
  - {text: Data parallelism, rationale: Incorrect. Every rank holds a full copy.}
  - {text: Gradient accumulation, rationale: Incorrect. No weights are split.}
""", field="stem", message="the stem asks for 3 answers but select is 2")),
)
