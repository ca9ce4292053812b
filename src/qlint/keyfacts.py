"""Keys that contradict each other across the bank: what each question asks, what each option states, and what its
rationales and explanation say about it, as one small record per question; and the bank-wide grouping that finds a
statement keyed one way in one question and the other way in another that asks the same thing.

A record is bytes (cheap to pickle from a worker, to cache, and to join for the whole bank): a fixed header (the
question's two ask digests, its flags, its option count, the length of its quotes), a 64-bit number per option's
statement, a byte of evidence per option, then the options' short texts for messages. The bank-wide step reads the
headers of every record at once (numpy) and looks at the few questions that share an ask.
"""
from __future__ import annotations

import re
import struct
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from qlint.bankwords import NEGATIVE, SUPERLATIVE, ask_digests, one_swap, statement, unseen_exhibit
from qlint.language.words import short
from qlint.model import Question
from qlint.rules.rationale_contradicts_key import polarity

_HEADER = struct.Struct("<QQBBHB")
HEADER_DTYPE = np.dtype([("o", "<u8"), ("m", "<u8"), ("flags", "u1"), ("n", "u1"), ("quotes", "<u2"), ("words", "u1")])
MAX_WORDS = 255   # of a stem, kept to tell a swapped pair (a longer stem's words must stay in order)
NEG, BEST, SKIP = 1, 2, 4                    # flags: a negative stem, a best-of stem, nothing to compare
SAYS_RIGHT, SAYS_WRONG, ENDORSED = 1, 2, 4   # evidence about one option
MAX_OPTIONS = 64
QUOTE_CHARS = 48
MAX_GROUP = 1000   # copies of one ask looked at (a pasted question a hundred times is still read whole)
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
    named = {next(g for g in m.groups() if g).upper() for m in _ENDORSES.finditer(explanation[:5000])}
    if len(named) != 1:
        return None
    index = ord(named.pop()) - ord("A")
    return index if index < count else None


def extract(question: Question) -> bytes:
    """A question's record: what it asks, what each option states, and what its rationales say."""
    options = question.options[:MAX_OPTIONS]
    o, m, words = ask_digests(question.stem)
    words = words if len(words) <= MAX_WORDS else []
    flags = (NEG if NEGATIVE.search(question.stem) else 0) | (BEST if SUPERLATIVE.search(question.stem) else 0)
    if unseen_exhibit(question.stem):   # "Which film is this quote from?" without the quote: stems alike, asks not
        flags |= SKIP
    stated = [statement(opt.text) for opt in options]
    keys = [i for i, opt in enumerate(options) if opt.correct]
    if not keys or any(stated[i][1] for i in keys):   # no key, or "All of the above" keyed: no statement to compare
        flags |= SKIP
    endorsed = _endorsed(question.explanation, len(options)) if len(keys) == 1 else None
    evidence = bytearray()
    for i, opt in enumerate(options):
        verdict = polarity(opt.rationale)
        evidence.append((SAYS_RIGHT if verdict > 0 else SAYS_WRONG if verdict < 0 else 0)
                        | (ENDORSED if endorsed == i else 0))
    quotes = "\x1f".join(short(opt.text, QUOTE_CHARS).replace("\x1f", " ") for opt in options)
    raw = quotes.encode("utf-8", "surrogatepass")[:0xFFFF]
    return (_HEADER.pack(o, m, flags, len(options), len(raw), len(words))
            + struct.pack(f"<{len(options)}Q{len(words)}I", *(s for s, _ in stated), *words) + bytes(evidence) + raw)


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
    statements = struct.unpack_from(f"<{n}Q", record, at)
    words = struct.unpack_from(f"<{w}I", record, at + 8 * n)
    at += 8 * n + 4 * w
    evidence = record[at:at + n]
    quotes = record[at + n:at + n + size].decode("utf-8", "replace").split("\x1f")
    return Copy(index, flags, statements, words, evidence, tuple(quotes))


def headers(records: Sequence[bytes]) -> np.ndarray:
    """The fixed header of every record at once, as a structured array (a missing record: flags SKIP)."""
    n = len(records)
    lengths = np.fromiter(map(len, records), dtype=np.int64, count=n)
    whole = np.frombuffer(b"".join(records), dtype=np.uint8)
    out = np.zeros(n, dtype=HEADER_DTYPE)
    out["flags"] = SKIP
    good = lengths >= _HEADER.size
    if good.any():
        starts = (np.cumsum(lengths) - lengths)[good]
        rows = whole[starts[:, None] + np.arange(_HEADER.size)]
        out[good] = np.ascontiguousarray(rows).view(HEADER_DTYPE).reshape(-1)
    return out


def ask_groups(head: np.ndarray) -> list[np.ndarray]:
    """Indices of questions that may ask the same thing (the same words, order aside), two or more each."""
    live = np.flatnonzero((head["flags"] & SKIP) == 0)
    if len(live) < 2:
        return []
    m = head["m"][live]
    order = np.argsort(m, kind="stable")
    m, live = m[order], live[order]
    opens = np.r_[True, m[1:] != m[:-1]]
    starts = np.flatnonzero(opens)
    sizes = np.diff(np.r_[starts, len(m)])
    return [live[s:s + size] for s, size in zip(starts.tolist(), sizes.tolist()) if size >= 2]


def same_asks(group: np.ndarray, head: np.ndarray, copies: dict[int, Copy]) -> list[list[int]]:
    """A group of questions with the same words split into those that ask the same thing: the same words in the
    same order, or with two neighbouring words swapped ("Python and Java" / "Java and Python"; "a male lion and a
    female tiger" is not "a female lion and a male tiger")."""
    by_order: dict[int, list[int]] = defaultdict(list)
    for i in group.tolist():
        by_order[int(head["o"][i])].append(i)
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
    for i in part[:MAX_GROUP]:
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


def copies_of(group: np.ndarray, records: Sequence[bytes]) -> dict[int, Copy]:
    return {i: _copy(i, records[i]) for i in group.tolist()}
