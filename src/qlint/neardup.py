"""Near-duplicate stems in sub-quadratic time: rare-shingle blocking, then rapidfuzz to confirm.

Stems are normalised and stripped of shared lead-ins ("Which of the following ...",
"Select two.") so that boilerplate never makes two stems look alike. Candidate
pairs share a rare word trigram (or, for very short stems, the whole text);
every candidate is confirmed with ``rapidfuzz.fuzz.ratio`` on the text and on its sorted
stemmed words, so a reworded stem ("activation memory" / "memory of activations") still meets its twin.
"""
from __future__ import annotations

import re
from array import array
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat

import numpy as np
from rapidfuzz import fuzz

from qlint.text import STOPWORDS, normalize, stem_word

LEAD_INS = re.compile(
    r"\b(?:which|what)\s+(?:one\s+)?of\s+(?:the\s+)?(?:following|these|those)(?:\s+(?:statements?|options?|choices?|"
    r"answers?|items?|best|most|is|are|would|will|can|could|should|does|do))*"
    r"|\b(?:select|choose|pick|mark)\s+(?:the\s+)?(?:one|two|three|four|five|best|correct|right|most\s+\w+)"
    r"(?:\s+(?:answers?|options?|choices?|responses?))?"
    r"|\ball\s+that\s+apply\b|\bthe\s+correct\s+answer\s+is\b|\bbest\s+describes?\b|\bwhich\s+statement\b"
)
_DIGITS = re.compile(r"\d+(?:\.\d+)?")
# code spans, indented code lines and short quoted terms: stems that differ only there ask different things
_CODE = re.compile(r"`[^`]+`|^(?: {4}|\t).+$|\"[^\"\n]{1,40}\"|“[^”\n]{1,40}”", re.MULTILINE)
SHORT_STEM = 6  # stems with fewer words are also indexed by word pairs, not only trigrams
MAX_COMPARE_CHARS = 4000  # a pathological 3 MB stem must not make a comparison cost seconds


def key_text(stem: str) -> str:
    """The part of a stem that says what it asks: normalised, lead-ins removed."""
    text = normalize(stem[:MAX_COMPARE_CHARS])
    return re.sub(r"\s+", " ", LEAD_INS.sub(" ", text)).strip()


@dataclass(frozen=True, slots=True)
class StemKey:
    """What near-duplicate search keeps per question: small, picklable, cacheable."""

    text: str
    numbers: tuple[str, ...]
    code: tuple[str, ...]

    @property
    def bag(self) -> str:
        """Stemmed words in sorted order: reworded stems ("memory of activations") still meet."""
        return " ".join(sorted(stem_word(w) for w in self.text.split()))

    @property
    def words(self) -> frozenset[str]:
        """Stemmed content words: "a deque" and "a queue" share text, not meaning."""
        return frozenset(stem_word(w) for w in self.text.split() if len(w) >= 3 and w not in STOPWORDS)


def stem_key(stem: str) -> StemKey:
    head = stem[:MAX_COMPARE_CHARS]
    text = key_text(head)
    return StemKey(text, tuple(sorted(_DIGITS.findall(head))), tuple(_CODE.findall(head)))


def _shingles(tokens: list[str], size: int = 3) -> set[str]:
    if len(tokens) < size:
        return {" ".join(tokens)} if tokens else set()
    return {" ".join(tokens[i:i + size]) for i in range(len(tokens) - size + 1)}


def _pairs_within_groups(members: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Every (a, b) pair inside each group of ``members``, as an (n, 2) array; groups given by start and size."""
    out = []
    for size in np.unique(sizes):
        first = starts[sizes == size]
        block = members[first[:, None] + np.arange(size)]  # one row per group
        left, right = np.triu_indices(int(size), k=1)
        out.append(np.stack((block[:, left].ravel(), block[:, right].ravel()), axis=1))
    return np.concatenate(out) if out else np.empty((0, 2), dtype=np.int64)


def candidate_pairs(keys: Sequence[StemKey], max_df: int = 60, min_shared: int = 2) -> np.ndarray:
    """Index pairs worth confirming, as a sorted (n, 2) array: identical texts, or texts sharing rare trigrams.

    A trigram seen in 2 to ``max_df`` stems is rare; boilerplate seen in more pairs nothing. A pair must
    share ``min_shared`` rare trigrams (or all the rare trigrams the smaller stem has), which near-
    duplicates always do and chance neighbours seldom do. Trigrams are integer codes of token ids, so the
    grouping runs in numpy rather than in a Python loop over every posting.
    """
    vocabulary: dict[str, int] = {}
    exact: dict[str, list[int]] = defaultdict(list)
    token_ids = array("q")  # machine integers: a million stems make tens of millions of tokens
    owners = array("i")
    short: list[tuple[int, int, int]] = []
    for index, key in enumerate(keys):
        if not key.text:
            continue
        exact[key.text].append(index)
        tokens = key.text.split()
        if len(tokens) < 2:
            continue  # a one-word stem pairs only with its identical twins
        ids_here = [vocabulary.setdefault(t, len(vocabulary)) for t in tokens]
        token_ids.extend(ids_here)
        owners.extend(repeat(index, len(tokens)))
        if len(tokens) < SHORT_STEM:
            short.extend((a, b, index) for a, b in zip(ids_here, ids_here[1:]))
    # identical texts: chain them, the clusters come out the same and the cost stays linear
    chained = np.array([(g[0], o) for g in exact.values() for o in g[1:]], dtype=np.int64).reshape(-1, 2)
    text_id = np.full(len(keys), -1, dtype=np.int64)
    for number, group in enumerate(exact.values()):
        text_id[group] = number
    if len(token_ids) < 2:
        return chained
    ids = np.frombuffer(token_ids, dtype=np.int64)
    own = np.frombuffer(owners, dtype=np.int32)
    del token_ids, owners  # a million stems hold tens of millions of tokens: free the lists at once
    same = (own[:-2] == own[2:])  # a trigram must not straddle two stems
    width = np.int64(len(vocabulary) + 1)
    codes = ((ids[:-2] * width + ids[1:-1]) * width + ids[2:])[same]
    stems = own[:-2][same]
    del ids, own, same
    if short:  # short stems also get word pairs ("what is a lean canvas" / "what is lean canvas"), coded below zero
        pair = np.asarray(short, dtype=np.int64)
        codes = np.concatenate((codes, -1 - (pair[:, 0] * width + pair[:, 1])))
        stems = np.concatenate((stems, pair[:, 2].astype(np.int32)))
    # one entry per (trigram, stem), sorted by trigram
    order = np.lexsort((stems, codes))
    codes, stems = codes[order], stems[order]
    fresh = np.ones(len(codes), dtype=bool)
    fresh[1:] = (codes[1:] != codes[:-1]) | (stems[1:] != stems[:-1])
    codes, stems = codes[fresh], stems[fresh]
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    sizes = np.diff(np.r_[starts, len(codes)])
    rare = (sizes >= 2) & (sizes <= max_df)
    found = _pairs_within_groups(stems, starts[rare], sizes[rare]).astype(np.int64)
    if not len(found):
        return chained
    # how many rare trigrams each stem has, and how many each pair shares
    in_rare = np.repeat(rare, sizes)
    per_stem = np.bincount(stems[in_rare], minlength=len(keys))
    n = np.int64(len(keys))
    code = np.sort(np.minimum(found[:, 0], found[:, 1]) * n + np.maximum(found[:, 0], found[:, 1]))
    first = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
    shared = np.diff(np.r_[first, len(code)])
    code = code[first]
    lo, hi = code // n, code % n
    keep = shared >= np.maximum(np.minimum(min_shared, np.minimum(per_stem[lo], per_stem[hi])), 1)
    keep &= text_id[lo] != text_id[hi]  # identical texts are already chained
    pairs = np.concatenate((chained, np.stack((lo[keep], hi[keep]), axis=1)))
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]


def similarity(a: StemKey, b: StemKey) -> float:
    """0-100: the better of character similarity in order and of the sorted stemmed words."""
    if a.text == b.text:
        return 100.0
    return max(fuzz.ratio(a.text, b.text), fuzz.ratio(a.bag, b.bag))


def is_variant(a: StemKey, b: StemKey) -> bool:
    """Stems that differ in their numbers or code are parallel items, not duplicates."""
    return a.numbers != b.numbers or a.code != b.code


def word_overlap(a: StemKey, b: StemKey) -> float:
    """Jaccard overlap of the stemmed content words (1.0 when either has none)."""
    wa, wb = a.words, b.words
    if not wa or not wb:
        return 1.0
    return len(wa & wb) / len(wa | wb)


def find_pairs(keys: Sequence[StemKey], threshold: float, *, min_chars: int = 12, min_overlap: float = 0.75,
               ignore_variants: bool = True, candidates: Iterable[tuple[int, int]] | None = None
               ) -> list[tuple[int, int, float]]:
    """Confirmed near-duplicate pairs (i < j) with their similarity, in index order.

    A pair is a near-duplicate when its similarity reaches ``threshold`` and its stems share at
    least ``min_overlap`` of their content words. The cheap tests run first; bags and word sets
    are computed once per stem, and only for stems that reach the costly tests.
    """
    bags: dict[int, str] = {}
    words: dict[int, frozenset[str]] = {}

    def bag(i: int) -> str:
        if i not in bags:
            bags[i] = keys[i].bag
        return bags[i]

    def overlap(a: int, b: int) -> float:
        for i in (a, b):
            if i not in words:
                words[i] = keys[i].words
        wa, wb = words[a], words[b]
        return 1.0 if not wa or not wb else len(wa & wb) / len(wa | wb)

    found = []
    for a, b in _iterate(candidates if candidates is not None else candidate_pairs(keys)):
        ka, kb = keys[a], keys[b]
        if ignore_variants and is_variant(ka, kb):
            continue
        if ka.text == kb.text:
            score = 100.0
        else:
            if min(len(ka.text), len(kb.text)) < min_chars:
                continue
            score = max(fuzz.ratio(ka.text, kb.text, score_cutoff=threshold),
                        fuzz.ratio(bag(a), bag(b), score_cutoff=threshold))
            if not score or overlap(a, b) < min_overlap:
                continue
        found.append((min(a, b), max(a, b), score))
    return found


def _iterate(candidates) -> Iterable[tuple[int, int]]:
    """Pairs in index order; an array is walked in chunks, so millions of pairs never become Python tuples at once."""
    if isinstance(candidates, np.ndarray):
        for start in range(0, len(candidates), 65536):
            yield from candidates[start:start + 65536].tolist()
    else:
        yield from sorted(candidates)


def exhaustive_pairs(keys: Sequence[StemKey], threshold: float, **kwargs) -> list[tuple[int, int, float]]:
    """Every pair compared: the quadratic reference the blocked search is measured against."""
    every = ((a, b) for a in range(len(keys)) for b in range(a + 1, len(keys)) if keys[a].text and keys[b].text)
    return find_pairs(keys, threshold, candidates=every, **kwargs)
