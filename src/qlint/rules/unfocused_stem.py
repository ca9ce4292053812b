"""unfocused-stem: the stem poses no clear question and cannot be answered without reading the options."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.words import MARKUP, is_numeric
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

QUESTION_END = re.compile(r"\?\s*[\"')\]]*\s*$")
QUESTION_INSIDE = re.compile(r"\?\s")
WH_WORDS = ("what", "which", "who", "whom", "whose", "where", "when", "why", "how")
# instructions that state the task ("Find the area.")
IMPERATIVES = ("find", "calculate", "compute", "determine", "solve", "evaluate", "simplify", "estimate", "identify",
               "choose", "select", "pick", "name", "state", "give", "write", "express", "complete", "fill", "arrange",
               "match", "classify", "convert", "predict", "explain", "describe", "indicate", "rank", "define",
               "translate", "interpret", "decide", "recall", "suggest", "recommend", "prove", "verify", "assess",
               "analyze", "analyse", "compare", "distinguish", "rewrite", "approximate")
IMPERATIVE = re.compile(r"^\s*(?:please\s+)?(?:" + "|".join(IMPERATIVES) + r")\b", re.I)
# ... after a lead-in clause: "Using the ideal gas law, find the pressure."
LED_IMPERATIVE = re.compile(r",\s+(?:please\s+)?(?:" + "|".join(IMPERATIVES) + r")\s+(?:the|a|an|which|what|how|all|each|"
                            r"this|these|its|their|your|one|two|\$|\d)", re.I)
# a wh-question ("how to ..." is a topic, not a question)
WH = re.compile(r"^\s*(?:" + "|".join(WH_WORDS) + r")\b(?!\s+to\b)", re.I)
HOW_TO = re.compile(r"^\s*how\s+to\b", re.I)
WH_ANYWHERE = re.compile(r"\b(?:" + "|".join(WH_WORDS) + r"|whether)\b", re.I)
# a clause that opens a yes/no question ("Is the sum even?", "..., can it be reused?")
AUX_FIRST = re.compile(r"^\W*(?:is|are|was|were|am|do|does|did|can|could|will|would|shall|should|may|might|must|"
                       r"has|have|had|isn't|aren't|doesn't|don't|didn't|can't|won't|true\s+or\s+false)\b", re.I)
# questions that only point at the options: "Which of the following is true (about X)?", "Which statement
# about X is correct?", "What is true of X?": the criterion is in the options, not in the stem
_VERDICT = r"(?:not\s+)?(?:true|correct|false|incorrect|accurate|inaccurate|right|wrong|valid|untrue)"
_POINTER = r"(?:statements?|options?|answers?|choices?|ones?)"
_ABOUT = r"(?:about|regarding|concerning|of|on|for|with\s+(?:respect|regard)\s+to)\b"
GENERIC_Q = re.compile(r"^\s*(?:which|what)(?:\s+one)?(?:\s+of\s+(?:the\s+following|these|those))?(?:\s+" + _POINTER +
                       r"(?:\s+" + _ABOUT + r"[^?:]{1,80}?)?)?\s+(?:is|are)\s+(?:(?:the\s+)?(?:most|least)\s+)?" +
                       _VERDICT + r"(?:\s+" + _ABOUT + r"[^?:]*)?\s*[?:.]?$", re.I)
# ... as an instruction ("Select the correct statement about X.") or a lead-in ("All of these are true EXCEPT")
GENERIC_TASK = re.compile(r"^\s*(?:please\s+)?(?:choose|select|pick|identify|find|mark|indicate)\s+the\s+(?:(?:one|most|"
                          r"only)\s+)?(?:true|correct|false|incorrect|accurate|right|best)\s+" + _POINTER +
                          r"(?:\s+" + _ABOUT + r"[^?:]*)?\s*[.:!]?$", re.I)
GENERIC_EXCEPT = re.compile(r"^\s*all\s+(?:of\s+)?(?:the\s+following|these|those)(?:\s+" + _POINTER + r")?\s+(?:are|is)\s+"
                            + _VERDICT + r"\b", re.I)
# completion stems whose ending names the task: "... are known as", "All of these ... EXCEPT"
NAMED_TASK = re.compile(r"(?:\b(?:known|referred\s+to|described|defined|classified)\s+as|\b(?:called|termed|named)|"
                        r"\bexcept)\W*$", re.I)
BLANK_END = re.compile(r"(?<!_)_{2,}+\W*$")   # from a run's first "_", taken whole: from every "_" it was quadratic
# options that are bare verdicts on statements made in the stem: "True", "False, True", "Yes"
VERDICT_OPTION = re.compile(r"^\W*(?:(?:true|false|yes|no)\b\W*)+$", re.I)
# ... one verdict each: the true/false (yes/no) format, whose stem is the statement to judge
SINGLE_VERDICT = re.compile(r"^\W*(?:true|false|yes|no)\W*$", re.I)
OPEN_Q = re.compile(r"^\s*(?:what|who|where)\b", re.I)
FINITE = re.compile(r"\b(?:is|are|was|were|will|can|has|have|had|do|does|need|needs|want|wants|must|should|allows?)\b",
                    re.I)
# a sentence ends at . ! ? before a capital, but not after a title ("Ms. Sanchez")
SENTENCE_SPLIT = re.compile(r"(?<=[.!?])(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bDr\.)(?<!\bSt\.)(?<!\bProf\.)"
                            r"\s+(?=[A-Z\[$\\(])")
# an answer-count tag after the question: "(Select two.)", "Choose 2.", "Select all that apply."; it opens a
# sentence or a bracket ("..., so choose a bigger one." is no tag)
# (the spaces after a tag are left to the next tag's or the end's, each run taken whole: read as "spaces, a mark,
# spaces" in every tag, a long run after one cost its length squared, times the forty characters of the tag)
COUNT_TAG = re.compile(r"(?:(?:^|(?<=[.?!)]))\s*+\(?\s*+(?:select|choose|pick|mark)\b[^()?\n]{0,40}\)?(?:\s*+[.!])?)+"
                       r"\s*+$", re.I)
_COUNT_WORDS = ("select", "choose", "pick", "mark")
# a question followed by the statements it asks about: "Which are noble gases? I. Neon II. Argon"
LISTED_AFTER = re.compile(r"\?\s*(?:\n\s*)?(?:[IVX]{1,4}[.)]|\d{1,2}[.)]|[A-H][.)]|\(?[a-hA-H]\))\s+\S")

# a one-line question whose subject is the wh-word and whose predicate is an open property: "What can be
# deceptive?", "What have many organelles?", "Who has blood and parents?", "What are social?". Countless things
# fit, so only the options bound the answer. "What is X?" (a definition) and "has" + a participle (the perfect:
# "What has caused ...?") are left out; determiners, pronouns and comparatives make the property definite.
OPEN_PROPERTY = re.compile(r"^(?:what|who)\s+(?:(?:(?:can|could|may|might|will|would|must)\s+(be|have)|has|have)"
                           r"\s+([a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2})|are\s+([a-z-]+(?:ive|al|ous|ful|less|able|"
                           r"ible|ic|ary|ent|ant|ish|ile)))\s*\?$", re.I)
DEFINITE = frozenset((
    "the", "a", "an", "this", "that", "these", "those", "it", "its", "his", "her", "their", "your", "my", "our",
    "there", "you", "i", "we", "they", "he", "she", "him", "them", "me", "us", "one", "to", "or", "than", "used",
    "meant", "called", "known", "been", "more", "most", "less", "least", "greater", "higher", "lower", "better",
    "best", "worse", "worst"))
PARTICIPLE = re.compile(r"(?:ed|en|wn|ne|un)$|^(?:made|led|won|got|had|said|built|brought|caught|taught|sent|spent|"
                        r"kept|left|lost|met|paid|put|set|told|thought|found|held|become|come|hit|cut|let|struck|"
                        r"stood|sold|fed|felt|fought)$", re.I)
# "What does Kai need to do before this?": a precondition of an unnamed event, with no goal; anything done
# earlier would do, so the options decide
BEFORE_THIS = re.compile(r"\bdo\s+before\s+this\s*\?$", re.I)

POINTS_AT_OPTIONS = ("the stem only points at the options (\"Which statement is true?\"); ask about one specific "
                     "point in the stem")


class Options(RuleOptions):
    allow_colon: bool = Field(default=True, description="a completion stem ending in ':' counts as focused when it "
                                                         "states a task (not a bare topic such as 'Photosynthesis:')")
    allow_blank_end: bool = Field(default=True,
                                  description="stems ending in a blank ('... is ____.') count as focused")
    allow_unmarked_question: bool = Field(default=False, description="a wh-question without its '?' counts as focused")
    allow_passage_end: bool = Field(default=True, description="a stem ending in a complete declarative sentence "
                                                               "(a passage to continue) counts as focused")
    open_question_words: int = Field(default=0, ge=0, le=10_000, description=(
        "flag one-sentence what/who/where questions up to this many words (0: off; off by default because short "
        "direct questions such as 'What does DNS resolve?' are usually fine)"))


def last_sentence(stem: str) -> str:
    text = (MARKUP.sub(" ", stem) if "[" in stem else stem).strip()
    parts = [p for p in SENTENCE_SPLIT.split(text) if p.strip()]
    return parts[-1].strip() if parts else text


def _asks(sentence: str) -> bool:
    """The sentence before its '?' asks something: a wh-word, a clause opening with an auxiliary ("..., is it
    even?"), an instruction, a blank, or a formula to work out ("15% of 80 = ?")."""
    clause = sentence.rsplit(",", 1)[-1]
    return bool(WH_ANYWHERE.search(sentence) or AUX_FIRST.match(clause) or AUX_FIRST.match(sentence)
                or IMPERATIVE.match(sentence) or "=" in sentence or "__" in sentence or is_numeric(sentence))


def _open_property(stem: str) -> bool:
    """A one-line 'What can be deceptive?': the wh-word is the subject and the predicate an open property."""
    match = OPEN_PROPERTY.match(stem)
    if not match:
        return False
    after_modal, predicate, adjective = match.groups()
    words = (predicate or adjective).split()
    if any(w[:1].isupper() or w.lower() in DEFINITE for w in words):
        return False
    # after has/have a participle is the perfect ("What has caused ...?"), not a property
    return bool(adjective) or (after_modal or "").lower() == "be" or not PARTICIPLE.search(words[0])


def check(question: Question, options: Options) -> Iterator[Violation]:
    stem = question.stem
    stem = (MARKUP.sub(" ", stem) if "[" in stem else stem).strip()
    if "?" in stem and LISTED_AFTER.search(stem):
        return
    lower = stem.lower()
    if any(w in lower for w in _COUNT_WORDS):
        stem = COUNT_TAG.sub("", stem).strip() or stem
    if all(SINGLE_VERDICT.match(o.text) for o in question.options):
        return  # a true/false item: the stem states what to judge and the format says how
    last = last_sentence(stem)
    first = last[:1].lower()
    if QUESTION_END.search(stem):
        if first == "w" and GENERIC_Q.match(last):
            yield Violation("stem", POINTS_AT_OPTIONS)
        elif not _asks(last):
            yield Violation("stem", "a statement with a question mark ('The rate of interest is?') asks nothing; "
                                    "ask for what is wanted")
        elif len(stem) < 60 and first == "w" and _open_property(stem):
            yield Violation("stem", "the stem asks what has an open property ('What can be deceptive?'): countless "
                                    "things fit, so only the options bound the answer; name the class or the "
                                    "situation")
        elif "before this" in lower and BEFORE_THIS.search(last):
            yield Violation("stem", "the stem asks what must be done 'before this' without naming the goal: "
                                    "anything done earlier fits, so only the options bound the answer; ask for "
                                    "the step that a named outcome needs")
        elif options.open_question_words and OPEN_Q.match(last) and stem == last \
                and len(last.split()) <= options.open_question_words:
            yield Violation("stem", "a very short open question that only the options make answerable")
        return
    if IMPERATIVE.match(last):
        if GENERIC_TASK.match(last):
            yield Violation("stem", POINTS_AT_OPTIONS)
        return
    if "," in last and LED_IMPERATIVE.search(last):
        return
    if QUESTION_INSIDE.search(last) or (options.allow_unmarked_question and WH.match(last)):
        return
    if last.endswith(":"):
        if first == "w" and GENERIC_Q.match(last):
            yield Violation("stem", POINTS_AT_OPTIONS)
            return
        if WH.match(last) or (options.allow_colon and (len(last.split()) > 3 or FINITE.search(last))):
            return  # a question, or a lead-in that states its task, introduced by a colon
    elif options.allow_blank_end and "__" in last and BLANK_END.search(last):
        return
    elif NAMED_TASK.search(last):
        if first == "a" and GENERIC_EXCEPT.match(last):
            yield Violation("stem", POINTS_AT_OPTIONS)
        return
    elif options.allow_passage_end and last.endswith(".") and len(last.split()) >= 5 and not WH.match(last) \
            and not HOW_TO.match(last) and FINITE.search(last):
        if "true or false" in lower or not all(VERDICT_OPTION.match(o.text) for o in question.options):
            return
        yield Violation("stem", "the stem only makes statements and the options ('True, False') say what to do "
                                "with them; ask the question in the stem")
        return
    yield Violation("stem", "the stem is not a question or an instruction; state the problem so that it can be "
                            "answered with the options covered")


RULE = QuestionRule(
    code="Q402",
    name="unfocused-stem",
    severity=Severity.INFO,
    enabled=False,
    summary="The stem poses no clear question: not a question, not an instruction, only a topic or an open fragment.",
    why=("A focused stem states the whole problem, so a knowledgeable candidate could answer with the options "
         "covered (Haladyna, Downing & Rodriguez 2002: 'the central idea should be in the stem'; the NBME 'cover "
         "the options' rule). Fragments such as 'The sky is' or a bare topic turn the item into a set of "
         "true/false statements and test the reading of the options."),
    use_instead=("Rewrite the stem as a direct question ('What does activation checkpointing trade?') or a complete "
                 "instruction ('Find the peak memory of this step.')."),
    options=Options,
    check=check,
    notes="Off by default: on six public banks of real questions, two reviewers agreed with 3 of 40 sampled findings; most flagged stems were trivia statements (\"This speed skater won ...\") that can be answered with the options covered, or complete questions. " + ("Form, not meaning: a stem passes when it asks a question, gives an instruction, ends in a blank, or "
           "leads in with a colon to a stated task ('The main product of photosynthesis is:'); it fails when it is "
           "a bare topic or fragment ('Activation checkpointing', 'How to brine a turkey'), a statement with a "
           "question mark ('The rate of interest is?'), a question that only points at the options ('Which of the "
           "following is true about X?', 'Select the correct statement.', 'All of the following are true EXCEPT'), "
           "or statements that only combined verdict options ('True, False') turn into a task; a single "
           "statement with the options 'True' and 'False' (or 'Yes' and 'No') is the true/false format and "
           "passes. Two well-formed questions with an unbounded answer also fail: a one-line question whose "
           "wh-word is the subject of an open property ('What can be deceptive?', 'Who has blood and parents?', "
           "'What are social?'; not 'What is X?', not the perfect 'What has caused X?', not a definite or compared property 'Who has the veto?'), "
           "and a question for what must be done 'before this' with no goal named. A completion stem without "
           "a colon or blank fails unless its ending names the task ('... is known as', '... EXCEPT'); a stem "
           "ending in a complete sentence (a passage to continue) passes. Other questions that are vague in "
           "meaning ('Where could you have fun?') and math word problems are not caught: that is semantics, and "
           "most misses on the dev labels are of that kind. Info severity: precision is above the 0.7 bar on "
           "the dev labels, but recall is about one half, and the 'true about X' pattern agreed with only one "
           "of three labels there."),
    passing=("""\
id: us-ok
stem: Which tensors does activation checkpointing avoid storing during the forward pass?
options:
  - {text: Intermediate activations inside each checkpointed block, correct: true, rationale: Correct. They are recomputed.}
  - {text: The parameters of each block, rationale: Incorrect. Parameters are always kept.}
  - {text: The optimizer state, rationale: Incorrect. Checkpointing does not touch it.}
""", """\
id: us-task
stem: A step needs 30 GB of activations and 10 GB for everything else. Find the peak memory of the step.
options:
  - {text: 40 GB, correct: true, rationale: Correct. The two add.}
  - {text: 30 GB, rationale: Incorrect. This leaves out the 10 GB.}
  - {text: 10 GB, rationale: Incorrect. This leaves out the activations.}
""", """\
id: us-colon
stem: 'With activation checkpointing, the backward pass of each checkpointed block first has to:'
options:
  - {text: rerun the block's forward pass, correct: true, rationale: Correct. Activations are recomputed.}
  - {text: reload the block's activations from disk, rationale: Incorrect. Nothing is written to disk.}
  - {text: skip the block's gradient, rationale: Incorrect. Every block still gets gradients.}
""", """\
id: us-blank
stem: Recomputing activations in the backward pass instead of storing them is called ____.
options:
  - {text: activation checkpointing, correct: true, rationale: Correct. That is its name.}
  - {text: gradient accumulation, rationale: Incorrect. That sums gradients over micro-batches.}
  - {text: mixed precision, rationale: Incorrect. That changes number formats.}
""", """\
id: us-has-to
stem: What has to be recomputed in the backward pass of a checkpointed block?
options:
  - {text: The block's activations, correct: true, rationale: Correct. They were not stored.}
  - {text: The block's parameters, rationale: Incorrect. Parameters are always kept.}
  - {text: The optimizer state, rationale: Incorrect. Checkpointing does not touch it.}
""", """\
id: us-before-named
stem: A block's activations are dropped after its forward pass. What must the backward pass do before it can use them?
options:
  - {text: Rerun the block's forward pass, correct: true, rationale: Correct. That recomputes them.}
  - {text: Reload them from disk, rationale: Incorrect. Nothing is written to disk.}
  - {text: Skip the block's gradient, rationale: Incorrect. Every block still gets gradients.}
""", """\
id: us-true-false
stem: Gradient checkpointing lowers peak memory.
options:
  - {text: 'True', correct: true, rationale: Correct. Fewer activations are stored.}
  - {text: 'False', rationale: Incorrect. Lowering peak memory is its purpose.}
"""),
    failing=(Invalid("""\
id: us-bad
stem: Activation checkpointing
options:
  - {text: recomputes activations in the backward pass, correct: true, rationale: Correct. That is the trade.}
  - {text: stores activations on disk, rationale: Incorrect. Nothing is written to disk.}
  - {text: removes the backward pass, rationale: Incorrect. Backward still runs.}
""", field="stem", message="the stem is not a question or an instruction"), Invalid("""\
id: us-generic
stem: Which of the following is true about activation checkpointing?
options:
  - {text: It recomputes activations in the backward pass, correct: true, rationale: Correct. That is the trade.}
  - {text: It stores activations on disk, rationale: Incorrect. Nothing is written to disk.}
  - {text: It removes the backward pass, rationale: Incorrect. Backward still runs.}
""", field="stem", message='the stem only points at the options ("Which statement is true?")'), Invalid("""\
id: us-statement-mark
stem: A step stores 30 GB of activations and checkpointing keeps a quarter of them. The memory saved is?
options:
  - {text: 22.5 GB, correct: true, rationale: Correct. Three quarters are dropped.}
  - {text: 7.5 GB, rationale: Incorrect. That is what is kept.}
  - {text: 30 GB, rationale: Incorrect. Some activations are kept.}
""", field="stem", message="a statement with a question mark ('The rate of interest is?') asks nothing"), Invalid("""\
id: us-verdicts
stem: Checkpointing trades compute for memory. Checkpointing can change the gradients of a model.
options:
  - {text: 'True, True', rationale: Incorrect. The gradients are the same.}
  - {text: 'True, False', correct: true, rationale: Correct. Only memory and compute change.}
  - {text: 'False, True', rationale: Incorrect. It does trade compute for memory.}
  - {text: 'False, False', rationale: Incorrect. It does trade compute for memory.}
""",
        field="stem",
        message="the stem only makes statements and the options ('True, False') say what to do with them"), Invalid("""\
id: us-open-property
stem: What can be recomputed?
options:
  - {text: Activations, correct: true, rationale: Correct. They come from the stored inputs of each block.}
  - {text: Random seeds drawn from hardware noise, rationale: Incorrect. They cannot be reproduced.}
  - {text: Deleted training data, rationale: Incorrect. It is gone.}
""",
        field="stem",
        message="the stem asks what has an open property ('What can be deceptive?'): countless things fit, so only"), Invalid("""\
id: us-before-this
stem: Kai turned on activation checkpointing for every block. What does Kai need to do before this?
options:
  - {text: Measure the peak memory of a step, correct: true, rationale: Correct. That shows whether it is needed.}
  - {text: Delete the optimizer state, rationale: Incorrect. Checkpointing does not need that.}
  - {text: Remove the backward pass, rationale: Incorrect. Training needs it.}
""",
        field="stem",
        message="the stem asks what must be done 'before this' without naming the goal: anything done earlier fits")),
)
