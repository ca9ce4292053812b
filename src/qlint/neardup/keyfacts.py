"""Keys that contradict each other across the bank: what each question asks, what each option states, and what its
rationales and explanation say about it, as one small record per question; and the bank-wide grouping that finds a
statement keyed one way in one question and the other way in another that asks the same thing.

A record is bytes (cheap to pickle from a worker, to cache, and to join for the whole bank): a fixed header (the
question's two ask digests, its flags, its option count, the length of its quotes, its word count), a 64-bit number
per option's statement, the stem's words, a byte of evidence per option, then the options' short texts for
messages. ``qlint.neardup.keygroups`` reads the headers of every record at once (numpy) and finds the few questions that
share an ask; this module is plain Python, so that a run which only extracts records never imports numpy.
"""
from __future__ import annotations

import re
import struct
from array import array
from collections import defaultdict
from dataclasses import dataclass

from qlint.language.words import short
from qlint.model import Question
from qlint.neardup.bankwords import ask_digests, one_swap, read_stem, statement
from qlint.language.verdicts import polarity

_HEADER = struct.Struct("<QQBBHB")
HEADER_FIELDS = (("o", "<u8"), ("m", "<u8"), ("flags", "u1"), ("n", "u1"), ("quotes", "<u2"), ("words", "u1"))
HEADER_SIZE = _HEADER.size
MAX_WORDS = 24   # of a stem, kept to tell a swapped pair (a longer stem's words must stay in order)
NEG, BEST, SKIP = 1, 2, 4                    # flags: a negative stem, a best-of stem, nothing to compare
SAYS_RIGHT, SAYS_WRONG, ENDORSED = 1, 2, 4   # evidence about one option
MAX_OPTIONS = 64
QUOTE_CHARS = 32
MAX_GROUP = 1000   # copies of one ask compared (a question pasted a hundred times is still read whole)
_LETTER = r"\(?\$?(?:\\mathbf\{)?([A-J])\}?\$?\)?"
_ENDORSES = re.compile(
    rf"\b(?:choice|option|answer)\s+{_LETTER}\s+(?:is|was)\s+(?:the\s+)?(?:best|correct|right)\b"
    rf"|\b(?:the\s+)?(?:correct|right|best)\s+(?:answer|option|choice)\s+(?:is\s*|:\s*){_LETTER}(?![\w'])"
    rf"|^\s*(?:\*\*)?answer\s*[:\-]\s*(?:\*\*)?\s*{_LETTER}(?![\w'])", re.IGNORECASE | re.MULTILINE)


def _endorsed(explanation: str | None, count: int) -> int | None:
    """The option an explanation names as the answer ("Choice B is the best answer", "Answer: B"), when it names
    exactly one."""
    if not explanation:
        return None
    head = explanation[:5000]
    lower = head.lower()
    if "answer" not in lower and "choice" not in lower and "option" not in lower:
        return None   # the pattern needs one of these words: most explanations are spared it
    named = {next(g for g in m.groups() if g).upper() for m in _ENDORSES.finditer(head)}
    if len(named) != 1:
        return None
    index = ord(named.pop()) - ord("A")
    return index if index < count else None


def extract(question: Question) -> bytes:
    """A question's record: what it asks, what each option states, and what its rationales say."""
    options = question.options[:MAX_OPTIONS]
    stem = read_stem(question.stem)
    o, m, words = ask_digests(stem)
    words = words if len(words) <= MAX_WORDS else []
    flags = (NEG if stem.negative else 0) | (BEST if stem.superlative else 0)
    stated = [statement(opt.text) for opt in options]
    keys = [i for i, opt in enumerate(options) if opt.correct]
    if not keys or any(stated[i][1] for i in keys):   # no key, or "All of the above" keyed: no statement to compare
        flags |= SKIP
    elif stem.unseen_exhibit:   # "Which film is this quote from?" without the quote: stems alike, asks not
        flags |= SKIP
    endorsed = _endorsed(question.explanation, len(options)) if len(keys) == 1 else None
    evidence = bytes((SAYS_RIGHT if verdict > 0 else SAYS_WRONG if verdict < 0 else 0) | (ENDORSED if endorsed == i
                     else 0) for i, verdict in enumerate(_verdicts(options)))
    # the options' opening words as written: a message shortens the one it quotes
    raw = "\x1f".join([opt.text[:QUOTE_CHARS + 1].replace("\x1f", " ") for opt in options]).encode(
        "utf-8", "surrogatepass")[:0xFFFF]
    # statements and words as 32 and 16 bits: they are compared only among the few questions whose stems have the
    # same words, where a chance clash of so many bits is no concern
    return (_HEADER.pack(o, m, flags, len(options), len(raw), len(words))
            + array("I", [s & 0xFFFFFFFF for s, _ in stated]).tobytes()
            + array("H", [w & 0xFFFF for w in words]).tobytes() + evidence + raw)


_VERDICT_WORDS = ("correct", "right", "wrong", "best")   # every verdict ``polarity`` reads has one of these


def _verdicts(options) -> list[int]:
    """Each option's rationale's opening verdict (``polarity``), read only where one could be."""
    out = []
    for opt in options:
        rationale = opt.rationale
        if not rationale:
            out.append(0)
            continue
        head = rationale[:80].lower()
        out.append(polarity(rationale) if any(w in head for w in _VERDICT_WORDS) else 0)
    return out


@dataclass(frozen=True)
class Copy:
    """One question as a contradiction names it."""

    index: int                  # in the bank's order
    flags: int
    statements: tuple[int, ...]
    words: tuple[int, ...]      # what the stem asks, word by word (empty for a very long stem)
    evidence: bytes
    quotes: tuple[str, ...]

    @property
    def negative(self) -> bool:
        return bool(self.flags & NEG)


def _copy(index: int, record: bytes) -> Copy:
    _, _, flags, n, size, w = _HEADER.unpack_from(record)
    at = _HEADER.size
    statements = struct.unpack_from(f"={n}I", record, at)   # as array wrote them: native order
    words = struct.unpack_from(f"={w}H", record, at + 4 * n)
    at += 4 * n + 2 * w
    evidence = record[at:at + n]
    quotes = record[at + n:at + n + size].decode("utf-8", "replace").split("\x1f")
    return Copy(index, flags, statements, words, evidence, tuple(short(q, QUOTE_CHARS) for q in quotes))


def same_asks(group: list[int], orders: dict[int, int], copies: dict[int, Copy]) -> list[list[int]]:
    """A group of questions with the same words split into those that ask the same thing: the same words in the
    same order, or with two neighbouring words swapped ("Python and Java" / "Java and Python"; "a male lion and a
    female tiger" is not "a female lion and a male tiger")."""
    by_order: dict[int, list[int]] = defaultdict(list)
    for i in group:
        by_order[orders[i]].append(i)
    parts = list(by_order.values())
    if len(parts) > 1:
        parts = _joined(parts, copies)
    return [sorted(p) for p in parts if len(p) >= 2]


def _joined(parts: list[list[int]], copies: dict[int, Copy]) -> list[list[int]]:
    """Orderings of the same words joined where they differ by one swap of neighbours (transitively)."""
    owner = list(range(len(parts)))

    def root(k: int) -> int:
        while owner[k] != k:
            k = owner[k]
        return k

    words = [copies[p[0]].words for p in parts]
    for a in range(len(parts)):
        for b in range(a + 1, min(len(parts), a + 64)):
            if one_swap(words[a], words[b]):
                owner[root(b)] = root(a)
    joined: dict[int, list[int]] = defaultdict(list)
    for k, part in enumerate(parts):
        joined[root(k)] += part
    return list(joined.values())


@dataclass(frozen=True)
class Side:
    """Where one statement stands in one copy: which option, and whether that copy holds it true."""

    copy: Copy
    option: int
    keyed: bool
    true: bool


def conflicts(part: list[int], copies: dict[int, Copy], keys: dict[int, tuple[int, ...]]) -> list[list[Side]]:
    """The statements that copies asking the same thing hold true in one and false in another (a key of a positive
    question is held true, a key of a NOT question false), each with where it stands in every copy. Where the stem
    asks for the best option and the option lists differ, a copy's distractor counts against another's key only
    when that copy's own key is among the other's options: another list may simply hold a better answer."""
    where: dict[int, list[Side]] = defaultdict(list)
    for i in part:
        copy = copies[i]
        for option, stated in enumerate(copy.statements):
            if stated:
                keyed = option in keys[i]
                where[stated].append(Side(copy, option, keyed, keyed != copy.negative))
    found = []
    for sides in where.values():
        held = defaultdict(set)
        for s in sides:
            held[s.copy.index].add(s.true)
        # a copy that offers the statement twice, keyed once, has a duplicate option: it says nothing either way
        sides = [s for s in sides if len(held[s.copy.index]) == 1]
        if len({s.copy.index for s in sides}) < 2 or len({s.true for s in sides}) < 2:
            continue
        if any(s.copy.flags & BEST for s in sides):
            sides = _comparable(sides, keys)
        if len({s.true for s in sides}) == 2:
            found.append(sides)
    return found


def _comparable(sides: list[Side], keys: dict[int, tuple[int, ...]]) -> list[Side]:
    """In a best-of question, the sides whose copies reject one another's key outright."""
    listed = {s.copy.index: set(s.copy.statements) for s in sides}
    keeps = []
    for s in sides:
        own_keys = {s.copy.statements[k] for k in keys[s.copy.index] if k < len(s.copy.statements)}
        if any(own_keys <= listed[o.copy.index] for o in sides if o.true != s.true):
            keeps.append(s)
    return keeps


def copies_of(records: dict[int, bytes]) -> dict[int, Copy]:
    return {i: _copy(i, record) for i, record in records.items()}
