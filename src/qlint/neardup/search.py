"""Near-duplicate stems in sub-quadratic time: rare-shingle blocking, then rapidfuzz to confirm.

Works on the per-question keys of ``qlint.neardup.stemkey``: stems are normalised and stripped of shared lead-ins
("Which of the following ...", "Select two.") so that boilerplate never makes two stems look alike. Candidate
pairs share a rare word trigram (or, for very short stems, the whole text);
every candidate is confirmed with ``rapidfuzz.fuzz.ratio`` on the text and on its sorted
stemmed words, so a reworded stem ("activation memory" / "memory of activations") still meets its twin. Stems
with the same content words in any order (a swapped pair, a comma, a filler word, a retouched lead-in) are
paired whatever their similarity. Whether a pair asks the same thing is ``qlint.neardup.sameask``'s to say.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from operator import attrgetter

import numpy as np
from rapidfuzz import fuzz, process

from qlint.neardup.stemkey import StemKey

_K1, _K2, _K3 = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
_PAIR_TAG = 1 << 62
SHORT_STEM = 6  # stems with fewer words are also indexed by word pairs, not only trigrams

PAIR_BUDGET = 4_000_000  # co-occurrence pairs held at once: bounds memory on a million stems


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


SHINGLE_CHUNK = 25_000  # stems turned into trigram codes at a time: bounds the temporaries on a million stems


def _shingle_chunks(keys: Sequence[StemKey], counts: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(code, stem) for every word trigram of every stem, and every word pair of short stems (tagged apart), a
    chunk of stems at a time, so the hashing temporaries stay small however big the bank is."""
    mask = np.uint64(_PAIR_TAG - 1)
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
            short = (own[:-1] == own[1:]) & (counts[own[:-1]] < SHORT_STEM)
            two = h[:-1][short] * np.uint64(_K3) + h[1:][short]
            two &= mask
            two |= np.uint64(_PAIR_TAG)
            yield np.concatenate((tri[same], two)).view(np.int64), np.concatenate((own[:-2][same], own[:-1][short]))


(_TEXT, _NUMBERS, _CODE, _BAG_CHARS, _TOKENS, _SIG, _ASKS, _ANSWERS, _CHOICES, _ENDS, _GIST, _MARKS, _OPEN,
 _KEYED, _TAIL) = (attrgetter(name) for name in StemKey._fields)


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


def chained(text_id: np.ndarray) -> np.ndarray:
    """Identical texts as pairs: each chained to the first of its group, so the clusters come out the same at
    linear cost (a text repeated k times makes k - 1 pairs, not k * (k - 1) / 2)."""
    idx = np.flatnonzero(text_id >= 0)
    tid = text_id[idx]
    order = np.argsort(tid, kind="stable")
    idx, tid = idx[order], tid[order]
    opens = np.r_[True, tid[1:] != tid[:-1]] if len(tid) else np.zeros(0, dtype=bool)
    head = idx[np.maximum.accumulate(np.where(opens, np.arange(len(idx)), 0))] if len(idx) else idx
    return np.stack((head[~opens], idx[~opens]), axis=1).astype(np.int64).reshape(-1, 2)


def shingle_counts(keys: Sequence[StemKey], text_id: np.ndarray | None = None) -> np.ndarray:
    """Words per stem, or 0 for a stem that takes part in no shingle (one word, or empty: it pairs only with its
    identical twins)."""
    counts = _lengths(map(_TOKENS, keys), len(keys)) // 4
    empty = np.fromiter((not k.text for k in keys), dtype=bool, count=len(keys)) if text_id is None else text_id < 0
    counts[(counts < 2) | empty] = 0
    return counts


def stem_bits(n: int) -> int:
    """Bits a stem number takes in a packed (code, stem) entry; the code keeps the rest."""
    return max(1, int(n - 1).bit_length())


def postings(keys: Sequence[StemKey], counts: np.ndarray, bits: int) -> np.ndarray:
    """Every distinct shingle of every stem as one int64, code then stem (``unpacked`` splits them), sorted.

    The code is cut to the bits the stem number leaves (a rare clash only adds a candidate, which is then
    confirmed). Each chunk of stems is packed and made distinct on its own (a stem's shingles all fall in its
    chunk), into one array sorted in place: on a million stems no second copy of it is ever made, nor an array of
    stems beside it (``rare_members`` takes the few in rare groups).
    """
    trigrams = np.maximum(counts - 2, 0)
    pairs = np.where((counts >= 2) & (counts < SHORT_STEM), counts - 1, 0)
    packed = np.empty(int(trigrams.sum() + pairs.sum()), dtype=np.int64)
    cut, at = np.int64((1 << (63 - bits)) - 1), 0
    for codes, stems in _shingle_chunks(keys, counts):
        codes &= cut
        codes <<= np.int64(bits)
        codes |= stems
        codes.sort()
        codes = codes[np.r_[True, codes[1:] != codes[:-1]]] if len(codes) else codes
        packed[at:at + len(codes)] = codes
        at += len(codes)
    packed = packed[:at]   # a stem's repeated shingles are counted once
    packed.sort()   # in place, and faster than merging the chunks' sorted runs
    return packed


def unpacked(packed: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """``postings``' entries as (code, stem) arrays."""
    return packed >> np.int64(bits), (packed & np.int64((1 << bits) - 1)).astype(np.int32)


_BLOCK = 1 << 20   # entries compared at a time: the temporaries of a million stems' postings stay small


def rare_groups(codes: np.ndarray, max_df: int, bits: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Start and size (int32) of each run of 2 to ``max_df`` equal codes in sorted ``codes`` (``postings``' entries
    when ``bits`` is the bits of their stem numbers, compared on their codes alone): the rare shingles.

    Found from where a code equals the one before it, so no array with an entry per distinct code is made:
    nearly every shingle of a big bank is seen once, and such arrays would cost hundreds of MB on a million stems.
    """
    n = len(codes)
    shift = np.int64(bits)
    same = np.zeros(n + 1, dtype=bool)   # same[i]: codes[i] equals codes[i - 1]
    for lo in range(0, max(n - 1, 0), _BLOCK):
        hi = min(n - 1, lo + _BLOCK)
        np.equal(codes[lo + 1:hi + 1] >> shift, codes[lo:hi] >> shift, out=same[lo + 1:hi + 1])
    opens = np.flatnonzero(same[1:] & ~same[:-1])   # a run of equal codes begins here ...
    closes = np.flatnonzero(same[:-1] & ~same[1:])  # ... and ends here
    del same
    sizes = closes - opens + 1
    rare = sizes <= max_df
    return opens[rare].astype(np.int32), sizes[rare].astype(np.int32)


def rare_members(packed: np.ndarray, starts: np.ndarray, sizes: np.ndarray, bits: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The stems of the rare groups of ``postings``' entries, group after group (int32), and where each group now
    starts: the pair counting reads these alone, and the postings can go."""
    members = np.empty(int(sizes.sum()), dtype=np.int32)
    mask, at = np.int64((1 << bits) - 1), 0
    step = max(1, _BLOCK // max(int(sizes.max(initial=1)), 1))
    for lo in range(0, len(starts), step):
        where = spans(starts[lo:lo + step], sizes[lo:lo + step])
        np.bitwise_and(packed[where], mask, out=members[at:at + len(where)], casting="unsafe")
        at += len(where)
    return members, (np.cumsum(sizes, dtype=np.int64) - sizes).astype(np.int32)


def spans(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The positions inside every group, one after another."""
    before = np.cumsum(sizes, dtype=np.int64) - sizes
    return np.repeat(starts.astype(np.int64) - before, sizes) + np.arange(int(sizes.sum()), dtype=np.int64)


def is_rare(df: np.ndarray, max_df: int) -> np.ndarray:
    return (df >= 2) & (df <= max_df)


def enough_shared(shared: np.ndarray, per_lo: np.ndarray, per_hi: np.ndarray, min_shared: int) -> np.ndarray:
    """A pair is a candidate when it shares ``min_shared`` rare shingles, or all the rare shingles the smaller
    stem has (and at least one)."""
    return shared >= np.maximum(np.minimum(min_shared, np.minimum(per_lo, per_hi)), 1)


def count_pairs(members: np.ndarray, starts: np.ndarray, sizes: np.ndarray, n: int
                ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(low, high, shared) for every pair of stems that meet in a group, with how many groups they meet in; in as
    many passes as PAIR_BUDGET needs (each pass one residue class of the pair codes)."""
    n64 = np.int64(n)
    total = int((sizes.astype(np.int64) * (sizes - 1) // 2).sum())
    parts = max(1, -(-total // (2 * PAIR_BUDGET)))
    for part in range(parts):
        code = np.concatenate([np.zeros(0, dtype=np.int64), *_pair_codes(members, starts, sizes, n, parts, part)])
        code.sort()
        first = np.flatnonzero(np.r_[True, code[1:] != code[:-1]]) if len(code) else np.zeros(0, dtype=np.int64)
        shared = np.diff(np.r_[first, len(code)])
        code = code[first]
        yield code // n64, code % n64, shared


def rare_postings(keys: Sequence[StemKey], counts: np.ndarray, bits: int, max_df: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ``postings`` of ``keys`` and their rare groups: (postings, the groups' stems, each group's start in
    them, its size)."""
    packed = postings(keys, counts, bits)
    starts, sizes = rare_groups(packed, max_df, bits)
    members, starts = rare_members(packed, starts, sizes, bits)
    return packed, members, starts, sizes


def near_candidates(stems: np.ndarray, starts: np.ndarray, sizes: np.ndarray, text_id: np.ndarray,
                    min_shared: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of different texts that share enough rare shingles (given as ``rare_groups``), as an (n, 2) array,
    and how many rare shingles each stem has."""
    n = len(text_id)
    per_stem = np.bincount(stems[spans(starts, sizes)], minlength=n).astype(np.int32)
    los, his = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for lo, hi, shared in count_pairs(stems, starts, sizes, n):
        keep = enough_shared(shared, per_stem[lo], per_stem[hi], min_shared)
        keep &= text_id[lo] != text_id[hi]  # identical texts are chained apart
        los.append(lo[keep])
        his.append(hi[keep])
    return np.stack((np.concatenate(los), np.concatenate(his)), axis=1), per_stem


def candidate_pairs(keys: Sequence[StemKey], max_df: int = 60, min_shared: int = 2,
                    text_id: np.ndarray | None = None) -> np.ndarray:
    """Index pairs worth confirming, as a sorted (n, 2) array: identical texts, or texts sharing rare trigrams.

    A trigram seen in 2 to ``max_df`` stems is rare. A pair must share ``min_shared`` rare trigrams (or all
    the rare trigrams the smaller stem has), which near-duplicates always do and chance neighbours seldom
    do. Trigrams are integer codes of word hashes, so the grouping runs in numpy rather than in a Python loop
    over every posting.
    """
    if text_id is None:
        text_id = text_ids(keys)
    pairs = chained(text_id)
    counts = shingle_counts(keys, text_id)
    if counts.sum() >= 2:
        _, members, starts, sizes = rare_postings(keys, counts, stem_bits(len(keys)), max_df)
        pairs = np.concatenate((pairs, near_candidates(members, starts, sizes, text_id, min_shared)[0]))
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]


def find_pairs(keys: Sequence[StemKey], threshold: float, *, min_chars: int = 12, min_overlap: float = 0.75,
               ignore_variants: bool = True, candidates: Iterable[tuple[int, int]] | np.ndarray | None = None
               ) -> list[tuple[int, int, float]]:
    """Confirmed near-duplicate pairs (i < j) with their similarity, in index order."""
    text_id = text_ids(keys)
    if candidates is None:
        candidates = candidate_pairs(keys, text_id=text_id)
    found = confirm(keys, candidates, threshold, text_id, min_chars=min_chars, min_overlap=min_overlap,
                    ignore_variants=ignore_variants)
    return merged(found, content_twins(keys, text_id, ignore_variants))


def content_twins(keys: Sequence[StemKey], text_id: np.ndarray, ignore_variants: bool = True
                  ) -> list[tuple[int, int, float]]:
    """Stems of different text with the same content words in any order (each chained to the first of its
    group), as (i, j, similarity): a swapped pair of words, a comma, a filler word or a retouched lead-in leaves
    the content as it was. The similarity is the best of the texts', the sorted words' and the content words'."""
    pairs = chained(_ids(map(_GIST, keys), len(keys), 0))
    if not len(pairs):
        return []
    pairs = pairs[text_id[pairs[:, 0]] != text_id[pairs[:, 1]]]
    if ignore_variants and len(pairs):
        local, at = np.unique(pairs, return_inverse=True)
        at = at.reshape(-1, 2)
        pairs = pairs[_same_variant([keys[i] for i in local.tolist()], at[:, 0], at[:, 1])]
    out = []
    for a, b in pairs.tolist():
        x, y = keys[a], keys[b]
        score = max(fuzz.ratio(x.text, y.text), fuzz.ratio(x.bag, y.bag),
                    fuzz.ratio(x.core.replace(" | ", " "), y.core.replace(" | ", " ")))
        out.append((min(a, b), max(a, b), float(score)))
    return out


def merged(*found: list[tuple[int, int, float]]) -> list[tuple[int, int, float]]:
    """Pairs from several searches, each once with its best similarity, in index order."""
    best: dict[tuple[int, int], float] = {}
    for pairs in found:
        for a, b, score in pairs:
            if score > best.get((a, b), -1.0):
                best[(a, b)] = score
    return sorted((a, b, score) for (a, b), score in best.items())


def confirm(keys: Sequence[StemKey], candidates: Iterable[tuple[int, int]] | np.ndarray, threshold: float,
            text_id: np.ndarray, *, min_chars: int = 12, min_overlap: float = 0.75, ignore_variants: bool = True
            ) -> list[tuple[int, int, float]]:
    """The candidates that are near-duplicates, as (i, j, similarity) with i < j, unsorted.

    A pair is a near-duplicate when its similarity reaches ``threshold`` and its stems share at
    least ``min_overlap`` of their content words. Candidates are confirmed in chunks: the cheap tests
    (variants, identical texts, length) as array operations, the similarities by rapidfuzz's ``cpdist``
    in C, and the word overlap only for the few pairs that reach the threshold. Only the stems the
    candidates name are looked at.
    """
    words: dict[int, frozenset[str]] = {}

    def overlap(a: int, b: int) -> float:
        for i in (a, b):
            if i not in words:
                words[i] = keys[i].words
        wa, wb = words[a], words[b]
        return 1.0 if not wa or not wb else len(wa & wb) / len(wa | wb)

    found: list[tuple[int, int, float]] = []
    for chunk in _chunks(candidates):
        # the stems this chunk names, numbered locally: a chunk of a few pairs costs a few lookups, not the bank
        local, at = np.unique(chunk, return_inverse=True)
        at = at.reshape(-1, 2)
        a, b = at[:, 0], at[:, 1]
        named = [keys[i] for i in local.tolist()]
        count = len(named)
        length, tid = _lengths(map(_TEXT, named), count), text_id[local]
        bag_length = np.fromiter(map(_BAG_CHARS, named), dtype=np.int64, count=count)
        keep = _same_variant(named, a, b) if ignore_variants else np.ones(len(chunk), dtype=bool)
        same = keep & (tid[a] == tid[b])
        found += [(min(x, y), max(x, y), 100.0) for x, y in chunk[same].tolist()]
        # ratio = 100 * (1 - indel distance / total length) can never exceed 200 * shorter / total: pairs of very
        # different lengths (in text and in sorted words) cannot reach the threshold and are not compared
        la, lb, ba, bb = length[a], length[b], bag_length[a], bag_length[b]
        reach = (200.0 * np.minimum(la, lb) >= (threshold - 1e-9) * np.maximum(la + lb, 1)) | \
                (200.0 * np.minimum(ba, bb) >= (threshold - 1e-9) * np.maximum(ba + bb, 1))
        compared = keep & ~same & (np.minimum(la, lb) >= min_chars) & reach
        rest = chunk[compared]
        if not len(rest):
            continue
        left, right = a[compared].tolist(), b[compared].tolist()
        texts, bags = [k.text for k in named], [""] * count
        for i in np.unique(np.concatenate((a[compared], b[compared]))).tolist():
            bags[i] = named[i].bag   # each compared stem's sorted words made once, however many pairs it is in
        workers = -1 if len(rest) > 20000 else 1   # rapidfuzz's own threads, on every core, for big chunks
        score = process.cpdist([texts[i] for i in left], [texts[i] for i in right], scorer=fuzz.ratio,
                               score_cutoff=threshold, dtype=np.float64, workers=workers)
        score = np.maximum(score, process.cpdist([bags[i] for i in left], [bags[i] for i in right],
                                                 scorer=fuzz.ratio, score_cutoff=threshold, dtype=np.float64,
                                                 workers=workers))
        for i in np.flatnonzero(score >= threshold).tolist():
            x, y = int(rest[i, 0]), int(rest[i, 1])
            if overlap(x, y) >= min_overlap:
                found.append((min(x, y), max(x, y), float(score[i])))
    return found


def _same_variant(named: list[StemKey], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairs that are not parallel items: the same numbers and code, or the same code with the same options and
    key (stems that differ only in numbers but share their answers ask the same thing)."""
    count = len(named)
    variant = _ids(zip(map(_NUMBERS, named), map(_CODE, named)), count)
    code = _ids(map(_CODE, named), count)
    answers = _ids(map(_ANSWERS, named), count, "")
    return (variant[a] == variant[b]) | ((code[a] == code[b]) & (answers[a] == answers[b]) & (answers[a] >= 0))


def _chunks(candidates, size: int = 262144) -> Iterable[np.ndarray]:
    """Candidate pairs as (n, 2) int64 arrays of at most ``size`` rows: millions never become Python tuples at once."""
    if isinstance(candidates, np.ndarray):
        for start in range(0, len(candidates), size):
            yield candidates[start:start + size]
        return
    iterator = iter(candidates)
    while batch := list(islice(iterator, size)):
        yield np.array(batch, dtype=np.int64).reshape(-1, 2)
