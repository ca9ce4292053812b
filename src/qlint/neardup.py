"""Near-duplicate stems in sub-quadratic time: rare-shingle blocking, then rapidfuzz to confirm.

Works on the per-question keys of ``qlint.stemkey``: stems are normalised and stripped of shared lead-ins
("Which of the following ...", "Select two.") so that boilerplate never makes two stems look alike. Candidate
pairs share a rare word trigram (or, for very short stems, the whole text);
every candidate is confirmed with ``rapidfuzz.fuzz.ratio`` on the text and on its sorted
stemmed words, so a reworded stem ("activation memory" / "memory of activations") still meets its twin.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from operator import attrgetter

import numpy as np
from rapidfuzz import fuzz, process

from qlint.stemkey import StemKey

_K1, _K2, _K3 = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
_PAIR_TAG = 1 << 62
SHORT_STEM = 6  # stems with fewer words are also indexed by word pairs, not only trigrams

PAIR_BUDGET = 8_000_000  # co-occurrence pairs held at once: bounds memory on a million stems


def _pair_codes(members: np.ndarray, starts: np.ndarray, sizes: np.ndarray, n: int, parts: int, part: int
                ) -> Iterator[np.ndarray]:
    """Every pair inside each group of ``members`` (groups given by start and size), as ``low * n + high``
    codes, in batches of at most PAIR_BUDGET pairs; with ``parts`` > 1 only the codes in residue class ``part``."""
    n64 = np.int64(n)
    for size in np.unique(sizes).tolist():
        first = starts[sizes == size]
        left, right = np.triu_indices(size, k=1)
        rows = max(1, PAIR_BUDGET // len(left))
        for at in range(0, len(first), rows):
            block = members[first[at:at + rows, None] + np.arange(size)].astype(np.int64)  # one row per group
            a, b = block[:, left].ravel(), block[:, right].ravel()
            code = np.minimum(a, b) * n64 + np.maximum(a, b)
            del a, b, block
            yield code[code % parts == part] if parts > 1 else code


SHINGLE_CHUNK = 100_000  # stems turned into trigram codes at a time: bounds the temporaries on a million stems


def _shingle_entries(keys: Sequence[StemKey], counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(code, stem) for every word trigram of every stem, and every word pair of short stems (tagged apart).

    The output arrays are allocated once and filled a chunk of stems at a time, so the hashing temporaries
    stay small however big the bank is.
    """
    trigrams = np.maximum(counts - 2, 0)
    pairs = np.where((counts >= 2) & (counts < SHORT_STEM), counts - 1, 0)
    codes = np.empty(int(trigrams.sum() + pairs.sum()), dtype=np.int64)
    stems = np.empty(len(codes), dtype=np.int32)
    mask = np.uint64(_PAIR_TAG - 1)
    at = 0
    for start in range(0, len(keys), SHINGLE_CHUNK):
        stop = min(start + SHINGLE_CHUNK, len(keys))
        here = counts[start:stop]
        if not here.any():
            continue
        h = np.frombuffer(b"".join([k.tokens for k, c in zip(keys[start:stop], here.tolist()) if c]),
                          dtype=np.uint32).astype(np.uint64)
        own = np.repeat(np.arange(start, stop, dtype=np.int32), here)
        with np.errstate(over="ignore"):   # products wrap around modulo 2**64, as a hash should
            same = own[:-2] == own[2:]     # a trigram must not straddle two stems
            tri = h[:-2] * np.uint64(_K1) + h[1:-1] * np.uint64(_K2) + h[2:]
            tri &= mask
            tri = tri[same]
            codes[at:at + len(tri)] = tri.view(np.int64)
            stems[at:at + len(tri)] = own[:-2][same]
            at += len(tri)
            short = (own[:-1] == own[1:]) & (counts[own[:-1]] < SHORT_STEM)
            two = h[:-1][short] * np.uint64(_K3) + h[1:][short]
            two &= mask
            two |= np.uint64(_PAIR_TAG)
            codes[at:at + len(two)] = two.view(np.int64)
            stems[at:at + len(two)] = own[:-1][short]
            at += len(two)
    assert at == len(codes)
    return codes, stems


_TEXT, _NUMBERS, _CODE, _BAG, _TOKENS = (attrgetter(name) for name in StemKey._fields)


def _ids(values: Iterable, count: int, empty: object = None) -> np.ndarray:
    """One number per distinct value, in order of first appearance (-1 for ``empty``), looked up in C: a Python
    loop over a million keys costs more than the numpy work that follows."""
    values = list(values)
    distinct = dict.fromkeys(values)
    distinct.pop(empty, None)
    index = dict(zip(distinct, range(len(distinct))))
    index[empty] = -1
    return np.fromiter(map(index.__getitem__, values), dtype=np.int64, count=count)


def _lengths(values: Iterable, count: int) -> np.ndarray:
    return np.fromiter(map(len, values), dtype=np.int64, count=count)


def text_ids(keys: Sequence[StemKey]) -> np.ndarray:
    """One number per distinct text, in order of first appearance; -1 for an empty text."""
    return _ids(map(_TEXT, keys), len(keys), "")


def candidate_pairs(keys: Sequence[StemKey], max_df: int = 60, min_shared: int = 2,
                    text_id: np.ndarray | None = None) -> np.ndarray:
    """Index pairs worth confirming, as a sorted (n, 2) array: identical texts, or texts sharing rare trigrams.

    A trigram seen in 2 to ``max_df`` stems is rare; boilerplate seen in more pairs nothing. A pair must
    share ``min_shared`` rare trigrams (or all the rare trigrams the smaller stem has), which near-
    duplicates always do and chance neighbours seldom do. Trigrams are integer codes of word hashes, so the
    grouping runs in numpy rather than in a Python loop over every posting.
    """
    if text_id is None:
        text_id = text_ids(keys)
    # identical texts: chain each to the first of its group, so the clusters come out the same at linear cost
    idx = np.flatnonzero(text_id >= 0)
    tid = text_id[idx]
    order = np.argsort(tid, kind="stable")
    idx, tid = idx[order], tid[order]
    opens = np.r_[True, tid[1:] != tid[:-1]] if len(tid) else np.zeros(0, dtype=bool)
    head = idx[np.maximum.accumulate(np.where(opens, np.arange(len(idx)), 0))] if len(idx) else idx
    chained = np.stack((head[~opens], idx[~opens]), axis=1).astype(np.int64).reshape(-1, 2)
    del idx, tid, order, opens, head
    counts = _lengths(map(_TOKENS, keys), len(keys)) // 4
    counts[(counts < 2) | (text_id < 0)] = 0   # a one-word stem pairs only with its identical twins
    if counts.sum() < 2:
        return chained
    codes, stems = _shingle_entries(keys, counts)
    # one entry per (trigram, stem), sorted by trigram then stem: code and stem packed in one int64 (the code
    # cut to the bits the stem number leaves; a rare clash only adds a candidate, which is then confirmed)
    stem_bits = max(1, int(len(keys) - 1).bit_length())
    codes &= np.int64((1 << (63 - stem_bits)) - 1)
    codes <<= np.int64(stem_bits)
    codes |= stems
    del stems
    codes.sort()
    packed = codes[np.r_[True, codes[1:] != codes[:-1]]]
    del codes
    stems = (packed & np.int64((1 << stem_bits) - 1)).astype(np.int32)
    packed >>= np.int64(stem_bits)
    codes = packed
    del packed
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]).astype(np.int32)
    sizes = np.diff(np.r_[starts, np.int32(len(codes))]).astype(np.int32)
    del codes
    rare = (sizes >= 2) & (sizes <= max_df)
    # how many rare trigrams each stem has, and how many each pair shares
    per_stem = np.bincount(stems[np.repeat(rare, sizes)], minlength=len(keys))
    starts, sizes = starts[rare], sizes[rare]
    if not len(sizes):
        return chained
    n = np.int64(len(keys))
    # the pairs of a big bank do not fit at once: count them in residue classes of their code, one class a pass
    total = int((sizes * (sizes - 1) // 2).sum())
    parts = max(1, -(-total // (2 * PAIR_BUDGET)))
    los, his = [], []
    for part in range(parts):
        code = np.concatenate(list(_pair_codes(stems, starts, sizes, len(keys), parts, part)))
        code.sort()
        first = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
        shared = np.diff(np.r_[first, len(code)])
        code = code[first]
        lo, hi = code // n, code % n
        del code, first
        keep = shared >= np.maximum(np.minimum(min_shared, np.minimum(per_stem[lo], per_stem[hi])), 1)
        keep &= text_id[lo] != text_id[hi]  # identical texts are already chained
        los.append(lo[keep])
        his.append(hi[keep])
        del lo, hi, keep, shared
    lo, hi = np.concatenate(los), np.concatenate(his)
    pairs = np.concatenate((chained, np.stack((lo, hi), axis=1)))
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]


def find_pairs(keys: Sequence[StemKey], threshold: float, *, min_chars: int = 12, min_overlap: float = 0.75,
               ignore_variants: bool = True, candidates: Iterable[tuple[int, int]] | np.ndarray | None = None
               ) -> list[tuple[int, int, float]]:
    """Confirmed near-duplicate pairs (i < j) with their similarity, in index order.

    A pair is a near-duplicate when its similarity reaches ``threshold`` and its stems share at
    least ``min_overlap`` of their content words. Candidates are confirmed in chunks: the cheap tests
    (variants, identical texts, length) as array operations, the similarities by rapidfuzz's ``cpdist``
    in C, and the word overlap only for the few pairs that reach the threshold.
    """
    text_id = text_ids(keys)
    if candidates is None:
        candidates = candidate_pairs(keys, text_id=text_id)
    variant = _ids(zip(map(_NUMBERS, keys), map(_CODE, keys)), len(keys))
    length = _lengths(map(_TEXT, keys), len(keys))
    bag_length = _lengths(map(_BAG, keys), len(keys))
    words: dict[int, frozenset[str]] = {}

    def overlap(a: int, b: int) -> float:
        for i in (a, b):
            if i not in words:
                words[i] = keys[i].words
        wa, wb = words[a], words[b]
        return 1.0 if not wa or not wb else len(wa & wb) / len(wa | wb)

    found: list[tuple[int, int, float]] = []
    for chunk in _chunks(candidates):
        a, b = chunk[:, 0], chunk[:, 1]
        keep = variant[a] == variant[b] if ignore_variants else np.ones(len(chunk), dtype=bool)
        same = keep & (text_id[a] == text_id[b])
        found += [(min(x, y), max(x, y), 100.0) for x, y in chunk[same].tolist()]
        # ratio = 100 * (1 - indel distance / total length) can never exceed 200 * shorter / total: pairs of very
        # different lengths (in text and in sorted words) cannot reach the threshold and are not compared
        la, lb, ba, bb = length[a], length[b], bag_length[a], bag_length[b]
        reach = (200.0 * np.minimum(la, lb) >= (threshold - 1e-9) * np.maximum(la + lb, 1)) | \
                (200.0 * np.minimum(ba, bb) >= (threshold - 1e-9) * np.maximum(ba + bb, 1))
        rest = chunk[keep & ~same & (np.minimum(la, lb) >= min_chars) & reach]
        if not len(rest):
            continue
        left, right = [keys[i] for i in rest[:, 0].tolist()], [keys[i] for i in rest[:, 1].tolist()]
        workers = -1 if len(rest) > 20000 else 1   # rapidfuzz's own threads, on every core, for big chunks
        score = process.cpdist([k.text for k in left], [k.text for k in right], scorer=fuzz.ratio,
                               score_cutoff=threshold, dtype=np.float64, workers=workers)
        score = np.maximum(score, process.cpdist([k.bag for k in left], [k.bag for k in right], scorer=fuzz.ratio,
                                                 score_cutoff=threshold, dtype=np.float64, workers=workers))
        for i in np.flatnonzero(score >= threshold).tolist():
            x, y = int(rest[i, 0]), int(rest[i, 1])
            if overlap(x, y) >= min_overlap:
                found.append((min(x, y), max(x, y), float(score[i])))
    found.sort()
    return found


def _chunks(candidates, size: int = 262144) -> Iterable[np.ndarray]:
    """Candidate pairs as (n, 2) int64 arrays of at most ``size`` rows: millions never become Python tuples at once."""
    if isinstance(candidates, np.ndarray):
        for start in range(0, len(candidates), size):
            yield candidates[start:start + size]
        return
    iterator = iter(candidates)
    while batch := list(islice(iterator, size)):
        yield np.array(batch, dtype=np.int64).reshape(-1, 2)


def exhaustive_pairs(keys: Sequence[StemKey], threshold: float, **kwargs) -> list[tuple[int, int, float]]:
    """Every pair compared: the quadratic reference the blocked search is measured against."""
    every = ((a, b) for a in range(len(keys)) for b in range(a + 1, len(keys)) if keys[a].text and keys[b].text)
    return find_pairs(keys, threshold, candidates=every, **kwargs)
