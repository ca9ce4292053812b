"""The bank-wide search of enemy-items (numpy; imported only when the rule checks the bank): every record joined
into one array of 32-bit words, each key's first two words found in every text at once, the whole phrase confirmed,
stock phrases dropped, and a find kept only where the words around it speak of what the key's own stem asks."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from qlint.neardup.bankwords import CONTENT_BIT, HASH_MASK
from qlint.neardup.giveaway import HEADER_WORDS, KEYED, MAX_KEY, NEGATIVE_STEM

TABLE_BITS = 24
_BUCKETS = 1 << 20   # word numbers folded for counting how often each stands in the bank


@dataclass(frozen=True)
class Find:
    """One question's key found in another's text."""

    answers: int      # the question whose key it is (bank order)
    gives: int        # the question whose text states it
    field: str        # "stem", "explanation" or "options"
    shared: tuple[int, ...]   # the words around it that the key's stem also has (their numbers)
    quote: str        # the key's text
    asked: int = 0    # the content words of the key's stem (the key's own words aside)
    share: float = 0.0   # the shared words' part of them, weighed by rarity


@dataclass
class Joined:
    """Every record as one array of 32-bit words, and where each part of each record lies in it."""

    words: np.ndarray        # uint32
    start: np.ndarray        # word where each record starts (int64)
    head: np.ndarray         # (n, 6) int64: flags, key, stem, explanation, statements, quote (counts)

    def part(self, q: int, name: str) -> tuple[int, int]:
        """Word range of one part ("key", "stem", "explanation", "statements", "quote") of record ``q``."""
        order = ("key", "stem", "explanation", "statements")
        at = int(self.start[q]) + HEADER_WORDS
        counts = self.head[q, 1:5].tolist()
        for name_, count in zip(order, counts):
            if name_ == name:
                return at, at + count
            at += count
        return at, at + int(self.head[q, 5]) // 4


def join(whole: bytes, lengths) -> Joined:
    """Every record (``whole``, each ``lengths`` bytes long, as ``bankwords.gather`` joins them) as one array of
    words; ValueError when a record is not in the shape ``giveaway.extract`` writes."""
    lengths = np.frombuffer(lengths, dtype=np.uint32).astype(np.int64)
    n = len(lengths)
    if np.any(lengths % 4) or np.any((lengths > 0) & (lengths < 4 * HEADER_WORDS)) or len(whole) % 4:
        raise ValueError("a record is not a whole number of words")
    words = np.frombuffer(whole, dtype="<u4")
    start = (np.cumsum(lengths) - lengths) // 4
    head = np.zeros((n, 6), dtype=np.int64)
    live = lengths > 0
    if live.any():
        raw = words[start[live, None] + np.arange(HEADER_WORDS)].astype("<u4").view(np.uint8).reshape(-1, 12)
        head[live, 0] = raw[:, 0]
        head[live, 1] = raw[:, 1]
        for column, at in enumerate(range(2, 10, 2), start=2):
            head[live, column] = raw[:, at].astype(np.int64) | (raw[:, at + 1].astype(np.int64) << 8)
    # each record's parts must fit inside it: a record's counts are the only indices the search trusts
    need = HEADER_WORDS + head[:, 1:5].sum(axis=1) + head[:, 5] // 4
    if np.any(live & (need != lengths // 4)) or np.any(head[:, 5] % 4):
        raise ValueError("a record's counts do not match its length")
    return Joined(words, start, head)


def spans(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The positions inside every range (start, size), one range after another."""
    sizes = sizes.astype(np.int64)
    before = np.cumsum(sizes) - sizes
    return np.repeat(starts.astype(np.int64) - before, sizes) + np.arange(int(sizes.sum()), dtype=np.int64)


@dataclass
class Texts:
    """The words another key may stand in (stems, explanations, keyed statements), gathered from every record into
    one array; ``at`` is each word's position among the record words. Every stretch of text ends with a 0 word, so
    that a phrase, which never holds a 0, never runs from one stretch into the next."""

    at: np.ndarray        # int64
    words: np.ndarray     # uint32, 31-bit codes (and the content bit); 0 at the end of every stretch


def texts(joined: Joined) -> Texts:
    begin = joined.start + HEADER_WORDS + joined.head[:, 1]        # after the key
    at = spans(begin, joined.head[:, 2:5].sum(axis=1))             # the stem, the explanation, the statements
    return Texts(at, joined.words[at])


def _mix(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """A 24-bit mix of two words' numbers: the table that sifts candidates is indexed by it."""
    return (first ^ (second >> np.uint32(7))) & np.uint32((1 << TABLE_BITS) - 1)


def _pairs(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Two words as one exact 62-bit code."""
    return ((first & HASH_MASK).astype(np.uint64) << np.uint64(31)) | (second & HASH_MASK).astype(np.uint64)


def _keys(joined: Joined, text: Texts) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The keys to look for: their questions, their words (a row each, 0 after the end), their lengths, and which
    two neighbouring words each is looked for by: the pair whose words the bank's texts hold least often (the first
    two words of a key are often common ones, and every place they stand would be a candidate)."""
    keyed = np.flatnonzero((joined.head[:, 0] & KEYED) != 0)
    length = joined.head[keyed, 1]
    words = np.zeros((len(keyed), MAX_KEY), dtype=np.int64)
    at = spans(joined.start[keyed] + HEADER_WORDS, length)
    row = np.repeat(np.arange(len(keyed)), length)
    column = np.arange(len(at)) - np.repeat(np.cumsum(length) - length, length)
    words[row, column] = joined.words[at] & HASH_MASK
    often = np.bincount((text.words & (_BUCKETS - 1)).astype(np.int64), minlength=_BUCKETS)
    cost = often[words & (_BUCKETS - 1)]
    pair = (cost[:, :-1] + cost[:, 1:]).astype(np.float64)
    pair[np.arange(MAX_KEY - 1)[None, :] >= (length - 1)[:, None]] = np.inf
    return keyed, words, length, np.argmin(pair, axis=1)


def raw_finds(joined: Joined) -> tuple[np.ndarray, np.ndarray]:
    """(word position, key's question) of every place a key's whole phrase stands in a text, in any question.

    A key is looked for by two neighbouring words (``_keys``). Where those two words stand in more than
    ``MAX_ANCHOR_PLACES`` places, or are the pair of more than ``MAX_ANCHOR_KEYS`` keys, the key is a stock phrase
    and not looked for: the work stays linear in the bank whatever it holds, and is done ``CANDIDATE_BUDGET``
    candidates at a time."""
    text = texts(joined)
    if not (joined.head[:, 0] & KEYED).any() or len(text.words) < 2:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    keyed, key_words, key_len, offset = _keys(joined, text)
    rows = np.arange(len(keyed))
    first, second = key_words[rows, offset].astype(np.uint32), key_words[rows, offset + 1].astype(np.uint32)
    anchors = _pairs(first, second)
    order = np.argsort(anchors, kind="stable")
    anchors, keyed, key_words, key_len, offset = (anchors[order], keyed[order], key_words[order], key_len[order],
                                                  offset[order])
    table = np.zeros(1 << TABLE_BITS, dtype=bool)
    table[_mix(first, second)] = True
    # sifted by the table first: the exact codes are made only for the few pairs that pass it
    positions = np.flatnonzero(table[_mix(text.words[:-1] & np.uint32(HASH_MASK), text.words[1:] & np.uint32(HASH_MASK))])
    codes = _pairs(text.words[positions], text.words[positions + 1])
    lo, hi = np.searchsorted(anchors, codes, "left"), np.searchsorted(anchors, codes, "right")
    counts = hi - lo
    places = np.bincount(lo[counts > 0], minlength=len(anchors))   # by the first key of each run of equal anchors
    counts[(places[lo] > MAX_ANCHOR_PLACES) | (counts > MAX_ANCHOR_KEYS)] = 0
    found_pos, found_key = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for start, stop in _chunks(counts, CANDIDATE_BUDGET):
        c = counts[start:stop]
        if not c.any():
            continue
        pos = np.repeat(positions[start:stop], c)
        which = np.repeat(lo[start:stop], c) + (np.arange(int(c.sum())) - np.repeat(np.cumsum(c) - c, c))
        begin = pos - offset[which]   # where the whole key would start
        got = _confirmed(begin, pos, which, text, key_words, key_len)
        found_pos.append(text.at[begin[got]])
        found_key.append(keyed[which[got]])
    return np.concatenate(found_pos), np.concatenate(found_key)


MAX_ANCHOR_PLACES = 2000
MAX_ANCHOR_KEYS = 64
CANDIDATE_BUDGET = 2_000_000


def _chunks(counts: np.ndarray, budget: int):
    """Ranges of positions whose candidates add up to about ``budget`` each (one position never splits)."""
    total = np.cumsum(counts)
    start = 0
    while start < len(counts):
        before = int(total[start - 1]) if start else 0
        stop = int(np.searchsorted(total, before + budget, "right"))
        stop = max(stop, start + 1)
        yield start, stop
        start = stop


def _confirmed(begin, pos, which, text: Texts, key_words, key_len) -> np.ndarray:
    """Which candidates have their whole key there: every word of it from ``begin`` (a key holds no 0, so a match
    never runs across the end of a stretch)."""
    n = len(text.words)
    keep = (begin >= 0) & (begin + key_len[which] <= n)
    for j in range(MAX_KEY):
        needed = keep & (key_len[which] > j)
        if not needed.any():
            break
        at = begin[needed] + j
        good = (text.words[at] & HASH_MASK) == key_words[which[needed], j]
        keep[np.flatnonzero(needed)[~good]] = False
    return keep


@dataclass(frozen=True)
class Settings:
    """How strict the search is (the rule's options)."""

    fields: frozenset[str]
    max_places: int      # a key found in more questions than this is a stock phrase
    window: int          # words either side of a find that are read for what it speaks of
    min_shared: int      # content words of the key's stem that must stand in that window
    min_share: float     # ... and their share of the key's stem's content words


_FIELDS = ("stem", "explanation", "options")


def _content(words: np.ndarray) -> set[int]:
    return {int(w) & HASH_MASK for w in words.tolist() if w & CONTENT_BIT}


def finds(joined: Joined, settings: Settings) -> list[Find]:
    """Every place one question's text states another's key, as the rule reports them."""
    pos, answers = raw_finds(joined)
    gives = np.searchsorted(joined.start, pos, "right") - 1
    other = gives != answers
    pos, answers, gives = pos[other], answers[other], gives[other]
    if not len(pos):
        return []
    # a key stated in more questions than max-places is a stock phrase: counted in numpy, before any Python loop
    pairs = np.unique(np.stack((answers, gives), axis=1), axis=0)
    places = np.bincount(pairs[:, 0], minlength=len(joined.start))
    keep = places[answers] <= settings.max_places
    pos, answers, gives = pos[keep], answers[keep], gives[keep]
    weight = _weights(joined) if len(pos) else None
    out, seen = [], set()
    for p, a, g in zip(pos.tolist(), answers.tolist(), gives.tolist()):
        if (a, g) in seen:
            continue
        spoken = _speaks_of(joined, a, g, p, settings, weight)
        if spoken is None:
            continue
        shared, asked, share = spoken
        seen.add((a, g))
        q_lo, q_hi = joined.part(a, "quote")
        quote = joined.words[q_lo:q_hi].tobytes().decode("utf-8", "replace").rstrip()
        out.append(Find(a, g, _field(joined, g, p)[0], tuple(sorted(shared)), quote, asked, share))
    return out




def _weights(joined: Joined):
    """How telling each content word of the stems is (its inverse document frequency over the bank's stems, its
    number folded into a million buckets: a shared bucket only makes two words count alike)."""
    stems = joined.words[spans(joined.start + HEADER_WORDS + joined.head[:, 1], joined.head[:, 2])]
    stems = stems[(stems & CONTENT_BIT) != 0]
    df = np.bincount((stems & (_BUCKETS - 1)).astype(np.int64), minlength=_BUCKETS)
    count = max(1, int((joined.head[:, 2] > 0).sum()))

    def weight(codes: set[int]) -> float:
        return sum(math.log((count + 1) / (int(df[c & (_BUCKETS - 1)]) + 1)) + 1 for c in codes)
    return weight


def _speaks_of(joined: Joined, a: int, g: int, p: int, settings: Settings,
               weight) -> tuple[set[int], int, float] | None:
    """The content words of question ``a``'s stem that stand around its key at word ``p`` of question ``g`` (with
    how many ``a`` asks and the shared ones' part of them by rarity), when they are enough to say that ``g`` states
    the answer to what ``a`` asks; None otherwise."""
    field, lo, hi = _field(joined, g, p)
    if field not in settings.fields:
        return None
    k_lo, k_hi = joined.part(a, "key")
    length = k_hi - k_lo
    if field == "options":
        if joined.head[g, 0] & NEGATIVE_STEM:
            return None   # a keyed option of a question that asks for the false one states nothing true
        lo, hi = _statement_at(joined.words, lo, hi, p)
        if hi - lo < length + 3:
            return None   # an answer, not a statement about it
    key_words = _content(joined.words[k_lo:k_hi])
    own, theirs = _content(joined.words[slice(*joined.part(a, "stem"))]), _content(joined.words[slice(*joined.part(g, "stem"))])
    if own | theirs and len(own & theirs) / len(own | theirs) >= 0.5:
        return None   # the two share a passage or ask near the same thing: near-duplicate-stem's concern
    asked = own - key_words
    around = _content(joined.words[max(lo, p - settings.window):p]) | \
        _content(joined.words[p + length:min(hi, p + length + settings.window)])
    shared = asked & (around - key_words)
    if len(shared) < settings.min_shared:
        return None
    share = weight(shared) / weight(asked)
    if share < settings.min_share:
        return None
    return shared, len(asked), share


def _statement_at(words: np.ndarray, lo: int, hi: int, p: int) -> tuple[int, int]:
    """The one keyed statement (they are separated by 0) that holds word ``p``."""
    left = p
    while left > lo and words[left - 1] != 0:
        left -= 1
    right = p
    while right < hi and words[right] != 0:
        right += 1
    return left, right


def _field(joined: Joined, q: int, p: int) -> tuple[str, int, int]:
    """Which text of record ``q`` holds word ``p``, and that text's word range."""
    for field, part in zip(_FIELDS, ("stem", "explanation", "statements")):
        lo, hi = joined.part(q, part)
        if lo <= p < hi:
            return field, lo, hi
    return "", p, p
