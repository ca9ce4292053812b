"""contradictory-keys: the same statement is the key of one question and a distractor of another that asks the same
thing; the message says which copy is probably mis-keyed when the evidence points one way."""
from collections.abc import Iterator, Sequence

from qlint.neardup.bankwords import decode_records, encode_records, gather
from qlint.finding import Severity
from qlint.items import BankItem
from qlint.neardup.keyfacts import ENDORSED, MAX_GROUP, SAYS_RIGHT, SAYS_WRONG, Copy, Side, conflicts, copies_of, extract, \
    same_asks
from qlint.model import Question
from qlint.rule import BankRule, BankViolation, Invalid, NoOptions

NAME = "contradictory-keys"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _extract(question: Question, options: NoOptions) -> bytes:
    return extract(question)


def _evidence(side: Side) -> tuple[bool, bool, str]:
    """Whether this copy's own rationale or explanation says its keying of the statement is wrong, or right, and
    the words for it. A NOT question's rationales speak of the statement, not the option: none is read."""
    if side.copy.negative:
        return False, False, ""
    said = side.copy.evidence[side.option]
    letter = LETTERS[side.option]
    endorsed = next((i for i, e in enumerate(side.copy.evidence) if e & ENDORSED), None)
    if side.keyed and said & SAYS_WRONG:
        return True, False, f"its rationale for option {letter} calls it incorrect"
    if side.keyed and endorsed is not None and endorsed != side.option:
        return True, False, f"its explanation names option {LETTERS[endorsed]} as the answer"
    if not side.keyed and said & SAYS_RIGHT:
        return True, False, f"its rationale for option {letter} calls it correct"
    if not side.keyed and said & ENDORSED:
        return True, False, f"its explanation names option {letter} as the answer"
    right = bool(said & (SAYS_RIGHT if side.keyed else SAYS_WRONG)) or (side.keyed and bool(said & ENDORSED))
    return False, right, ""


def verdict(sides: list[Side]) -> tuple[bool | None, str]:
    """Which side (held true or held false) is probably the mis-keyed one, and why; (None, "") when the evidence
    does not point one way. Evidence in the copies' own rationales and explanations first, then a clear majority
    of copies (two to one or more)."""
    wrong = {True: [], False: []}
    right = {True: 0, False: 0}
    for s in sides:
        bad, good, words = _evidence(s)
        if bad:
            wrong[s.true].append(words)
        right[s.true] += good
    for held in (True, False):
        if wrong[held] and not wrong[not held] and not right[held]:
            return held, wrong[held][0]
    count = {held: len({s.copy.index for s in sides if s.true == held}) for held in (True, False)}
    for held in (True, False):
        if count[not held] >= 2 and count[not held] >= 2 * count[held] and not wrong[not held]:
            return held, f"{count[not held]} of {count[held] + count[not held]} copies key it the other way"
    return None, ""


def _role(side: Side) -> str:
    return "the key" if side.keyed else "a distractor"


def _message(side: Side, sides: list[Side], questions: Sequence[BankItem], judged: tuple[bool | None, str]) -> str:
    others = [s for s in sides if s.true != side.true]
    peer = others[0]   # sides come in bank order
    there = questions[peer.copy.index]
    quote = side.copy.quotes[side.option] if side.option < len(side.copy.quotes) else ""
    place = f"question {there.id!r} at {there.path}:{there.locate('stem')[0]} (option {LETTERS[peer.option]})"
    if side.copy.negative == peer.copy.negative:
        said = f"is {_role(side)} here but {_role(peer)} of {place}, which asks the same thing"
    else:
        said = (f"is {_role(side)} here, so the question holds it {'true' if side.true else 'false'}, but "
                f"{_role(peer)} of {place}, which asks the same thing the other way round")
    more = len({s.copy.index for s in others}) - 1
    if more:
        said += f" (and {more} more {'copy' if more == 1 else 'copies'})"
    held, why = judged
    if held is None:
        tail = "one of them is mis-keyed"
    elif held == side.true:
        tail = f"this copy is probably the mis-keyed one: {why}"
    else:
        tail = f"{there.id!r} is probably the mis-keyed one: {why}"
    return f"option {LETTERS[side.option]} {quote!r} {said}; {tail}"


def contradictions(questions: Sequence[BankItem]) -> Iterator[list[Side]]:
    """Every statement held true in one question and false in another that asks the same thing."""
    from qlint.neardup.keygroups import same_words  # numpy: imported only when the bank is checked

    # a question pasted a hundred thousand times is compared in its first MAX_GROUP copies
    for group, orders, records in same_words(*gather(questions, NAME), MAX_GROUP):
        copies = copies_of(records)
        keys = {i: questions[i].keys for i in group}
        for part in same_asks(group, orders, copies):
            yield from conflicts(part, copies, keys)


def survey(questions: Sequence[BankItem], options: NoOptions) -> list[list[Side]]:
    """The contradictions check reports and publish lists."""
    return list(contradictions(questions))


def check(questions: Sequence[BankItem], options: NoOptions, found: list[list[Side]]) -> Iterator[BankViolation]:
    chosen: dict[int, tuple[Side, list[Side], tuple[bool | None, str]]] = {}
    for sides in found:
        judged = verdict(sides)
        for side in sides:
            held = chosen.get(side.copy.index)
            if held is None or (side.keyed and not held[0].keyed):   # a copy is named by its own key first
                chosen[side.copy.index] = (side, sides, judged)
    for index in sorted(chosen):
        side, sides, judged = chosen[index]
        yield BankViolation(questions[index], "options", _message(side, sides, questions, judged))


def _member(side: Side, questions: Sequence[BankItem], held: bool | None) -> dict:
    item = questions[side.copy.index]
    return {"id": item.id, "path": item.path, "line": item.locate("stem")[0], "option": LETTERS[side.option],
            "keyed": side.keyed, "held_true": side.true, "probably_wrong": held is not None and held == side.true}


def publish(questions: Sequence[BankItem], options: NoOptions, found: list[list[Side]]) -> list[dict]:
    """Each contradicted statement: its text and where it stands in every copy, and which copies are probably
    mis-keyed (and why)."""
    out = []
    for sides in found:
        held, why = verdict(sides)
        first: Copy = sides[0].copy
        out.append({"statement": first.quotes[sides[0].option] if sides[0].option < len(first.quotes) else "",
                    "copies": [_member(s, questions, held) for s in sides], "why": why})
    return out


_COPY = """\
  - id: {id}
    stem: Your boss likes the new logo but wants variations in other colour schemes. Which feature generates them quickly?
    options:
      - {{text: Variables, {a}rationale: {ra}}}
      - {{text: Recolor Artwork, {b}rationale: {rb}}}
      - {{text: Live Paint, {c}rationale: {rc}}}
"""
_RIGHT = dict(a="", b="correct: true, ", c="", ra="Incorrect. Variables swap data.", rb="Correct. It remaps colours.",
              rc="Incorrect. It fills regions.")

RULE = BankRule(
    code="Q604",
    name=NAME,
    severity=Severity.WARNING,
    summary="The same statement is the key of one question and a distractor of another that asks the same thing "
            "(or is held true by one and false by another, counting NOT questions); the finding names both places "
            "and the option in each, and which copy is probably mis-keyed when the evidence points one way.",
    why=("One of the two is mis-keyed, and a candidate who meets both is marked wrong on one of them whatever they "
         "answer. Copies drift apart when one is fixed and the other is not; a bank assembled from several sources "
         "keeps both versions."),
    use_instead=("Decide which key is right, fix the other copy, and retire one of the two if they ask the same "
                 "thing. The message says which copy is probably wrong: the one whose own rationale or explanation "
                 "argues against its key, or the one that a clear majority of copies contradicts."),
    notes=("Two questions ask the same thing when their stems have the same words in the same order once case, "
           "punctuation, function words, fillers (\"actually\") and polarity words are aside (\"Which is true\" and "
           "\"Which is NOT true\" ask the same thing the other way round), with the same code and figures, or with "
           "two neighbouring words swapped (in stems of up to 24 such words). Stems that refer to a quote, clip, "
           "picture or table they do not hold ask about different things however alike they read. Options are the "
           "same statement when their text is, case and punctuation aside (code as written). \"All of the above\", "
           "\"A and B\" and Roman-numeral sets are no statements, and a question whose key is one of them is left out; "
           "so is a question that offers a statement twice. Where the stem asks for the best option and the option "
           "lists differ, a distractor counts against another copy's key only when each rejects the other's key "
           "outright. On six public banks a developer's look at its findings (all of those outside one bank, and a "
           "sample of that bank's 77) found every one a statement keyed both ways but an \"official language of "
           "India\" pair whose other copy offers a fuller answer. near-duplicate-stem reports such copies as "
           "near-duplicates; this rule says which statement is keyed both ways and which copy is probably wrong."),
    check=check,
    extract=_extract,
    encode=encode_records,
    decode=decode_records,
    publish=publish,
    survey=survey,
    passing=("questions:\n" + _COPY.format(id="logo-1", **_RIGHT) + _COPY.format(id="logo-2", **_RIGHT), """\
questions:
  - id: liger
    stem: What is the animal born of a male lion and a female tiger?
    options:
      - {text: Liger, correct: true, rationale: Correct.}
      - {text: Tigon, rationale: Incorrect. That is the reverse cross.}
  - id: tigon
    stem: What is the animal born of a female lion and a male tiger?
    options:
      - {text: Liger, rationale: Incorrect. That is the reverse cross.}
      - {text: Tigon, correct: true, rationale: Correct.}
""", """\
questions:
  - id: true-1
    stem: Which statement about TCP is true?
    options:
      - {text: It retransmits lost segments, correct: true, rationale: Correct.}
      - {text: It has no handshake, rationale: Incorrect.}
  - id: false-1
    stem: Which statement about TCP is NOT true?
    options:
      - {text: It retransmits lost segments, rationale: Incorrect. It does.}
      - {text: It has no handshake, correct: true, rationale: Correct. It has a three-way handshake.}
"""),
    failing=(Invalid("questions:\n" + _COPY.format(id="logo-1", **_RIGHT)
             + _COPY.format(id="logo-2", a="", b="", c="correct: true, ", ra="Incorrect. Variables swap data.",
                            rb="Correct. It remaps colours.", rc="Incorrect. It fills regions."),
        field="options",
        message=("is the key here but a distractor of question 'logo-2'", "this copy is probably the mis-keyed one")), Invalid("""\
questions:
  - id: true-1
    stem: Which statement about TCP is true?
    options:
      - {text: It retransmits lost segments, correct: true, rationale: Correct.}
      - {text: It has no handshake, rationale: Incorrect.}
  - id: false-1
    stem: Which statement about TCP is NOT true?
    options:
      - {text: It retransmits lost segments, correct: true, rationale: Incorrect.}
      - {text: It has no handshake, rationale: Correct.}
""",
        field="options",
        message=(
            "so the question holds it true, but the key of question 'false-1'",
            "so the question holds it false, but the key of question 'true-1'",
        ))),
)
