"""Near-duplicate stems in sub-quadratic time: rare-shingle blocking, then rapidfuzz to confirm.

Stems are normalised and stripped of shared lead-ins ("Which of the following ...",
"Select two.") so that boilerplate never makes two stems look alike. Candidate
pairs share a rare word trigram (or, for very short stems, the whole text);
every candidate is confirmed with ``rapidfuzz.fuzz.ratio`` on the text and on its sorted
stemmed words, so a reworded stem ("activation memory" / "memory of activations") still meets its twin.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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


def candidate_pairs(keys: Sequence[StemKey], max_df: int = 60) -> set[tuple[int, int]]:
    """Index pairs worth confirming: identical texts, or texts sharing a rare word trigram."""
    exact: dict[str, list[int]] = defaultdict(list)
    postings: dict[str, list[int]] = defaultdict(list)
    for index, key in enumerate(keys):
        if not key.text:
            continue
        exact[key.text].append(index)
        for shingle in _shingles(key.text.split()):
            postings[shingle].append(index)
    pairs: set[tuple[int, int]] = set()
    for group in exact.values():
        # identical texts: chain them, the clusters come out the same and the cost stays linear
        pairs.update((group[0], other) for other in group[1:])
    for ids in postings.values():
        if 2 <= len(ids) <= max_df:
            for i, a in enumerate(ids):
                for b in ids[i + 1:]:
                    if keys[a].text != keys[b].text:
                        pairs.add((a, b))
    return pairs


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
    for a, b in sorted(candidates if candidates is not None else candidate_pairs(keys)):
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


def exhaustive_pairs(keys: Sequence[StemKey], threshold: float, **kwargs) -> list[tuple[int, int, float]]:
    """Every pair compared: the quadratic reference the blocked search is measured against."""
    every = ((a, b) for a in range(len(keys)) for b in range(a + 1, len(keys)) if keys[a].text and keys[b].text)
    return find_pairs(keys, threshold, candidates=every, **kwargs)
