"""The near-duplicate search kept between runs: after a commit that changes a few stems, only those are searched again.

A full search (``qlint.neardup.search``) lists every stem's shingles (postings), counts the pairs that share enough rare
ones, and confirms them with rapidfuzz. This module keeps what it built in two files of the cache: the postings in
one, written as soon as they are made (so that a million stems' postings are not held while pairs are counted), and
how many rare shingles each stem has, the confirmed pairs and every stem's signature in the other. The next run
matches its stems to the kept ones by signature. The stems it cannot match are new; the kept ones left unmatched
are gone. A pair can only appear or vanish where one of its stems is new, or holds a shingle whose rarity the change
flipped: those stems are searched again, against the whole bank; every other pair is kept as found. The answer
is the full search's, pair for pair (``tests/rules/test_neardup_index.py`` compares them on random edits).
"""
from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from qlint.neardup import search as nd
from qlint.neardup.stemkey import StemKey
from qlint.rule import Store

MAGIC = b"qlint near-duplicate index 3\n"
POSTINGS_MAGIC = b"qlint near-duplicate postings 1\n"
TOKEN = 16   # bytes of the token that ties a postings file to the index file written with it
MAX_CHANGED = 0.05   # stems new or gone, as a share of the bank, above which a full search costs about as much
MIN_CHANGED = 256    # ... but this many are always searched incrementally
_SIG = attrgetter("sig")
_ARRAYS = {"sig": np.uint64, "per_stem": np.int32, "pairs": np.int64,
           "scores": np.float64}
Pair = tuple[int, int, float]


@dataclass
class Kept:
    """What a search leaves for the next one; stems are numbered in the bank's order of that run."""

    bits: int             # bits of a stem number in the packed postings (the codes are cut to the rest)
    codes: np.ndarray     # int64 shingle codes, sorted
    stems: np.ndarray     # int32 stem of each code
    sig: np.ndarray       # uint64 signature of each stem (0: unknown, never matched)
    per_stem: np.ndarray  # int32 rare shingles of each stem
    pairs: np.ndarray     # int64 (p, 2): confirmed pairs of different texts, low first
    scores: np.ndarray    # float64 similarity of each pair


def search(keys: Sequence[StemKey], threshold: float, *, store: Store | None = None, min_chars: int = 12,
           min_overlap: float = 0.75, ignore_variants: bool = True, max_df: int = 60, min_shared: int = 2
           ) -> list[Pair]:
    """Confirmed near-duplicate pairs (i < j) with their similarity, in index order: ``neardup.find_pairs``'s
    answer, found from the search kept in ``store`` when there is one, which is then updated."""
    params = {"threshold": threshold, "min_chars": min_chars, "min_overlap": min_overlap,
              "ignore_variants": ignore_variants, "max_df": max_df, "min_shared": min_shared}
    text_id = nd.text_ids(keys)
    found = _confirm(keys, nd.chained(text_id), text_id, params)
    kept = _load(store, params) if store is not None else None
    near = _update(kept, keys, text_id, params, store) if kept is not None else None
    if near is None:
        near = _full(keys, text_id, params, store)
    return nd.merged(found, near, nd.content_twins(keys, text_id, params["ignore_variants"]))


def _full(keys: Sequence[StemKey], text_id: np.ndarray, params: dict, store: Store | None) -> list[Pair]:
    bits = nd.stem_bits(len(keys))
    writer = _Writer(store, params, bits) if store is not None else None
    counts = nd.shingle_counts(keys, text_id)
    packed, members, starts, sizes = nd.rare_postings(keys, counts, bits, params["max_df"])
    if writer is not None:
        writer.postings(packed)   # written now, in a file of their own, and let go: on a million stems 0.3 GB
    del packed
    candidates, per_stem = nd.near_candidates(members, starts, sizes, text_id, params["min_shared"])
    del members, starts, sizes
    near = _confirm(keys, candidates, text_id, params)
    if writer is not None:
        writer.finish(_signatures(keys), per_stem, near)
    return near


def _update(kept: Kept, keys: Sequence[StemKey], text_id: np.ndarray, params: dict, store: Store | None
            ) -> list[Pair] | None:
    """The near pairs of ``keys`` found from ``kept``; None when a full search is the better way."""
    n = len(keys)
    bits = nd.stem_bits(n)
    if bits != kept.bits:
        return None
    sig = _signatures(keys)
    old_of_new, new_of_old = _match(kept.sig, sig)
    added = np.flatnonzero(old_of_new < 0)
    gone = new_of_old < 0
    if len(added) + int(gone.sum()) > max(MIN_CHANGED, MAX_CHANGED * n):
        return None
    max_df = params["max_df"]
    codes, stems, flipped = _merged_postings(kept, keys, text_id, added, gone, new_of_old, bits, max_df)
    affected = _affected(n, added, codes, stems, flipped)
    per_stem, rare_codes = _rare_per_stem(kept, old_of_new, codes, stems, affected, max_df)
    candidates = _candidates(codes, stems, rare_codes, affected, per_stem, text_id, params["min_shared"])
    near = _confirm(keys, candidates, text_id, params)
    near += _kept_pairs(kept, new_of_old, affected)
    if store is not None and (len(added) or gone.any() or not np.array_equal(sig, kept.sig)):
        writer = _Writer(store, params, bits)
        writer.postings((codes << np.int64(bits)) | stems)
        writer.finish(sig, per_stem, near)
    return near


def _merged_postings(kept: Kept, keys: Sequence[StemKey], text_id: np.ndarray, added: np.ndarray, gone: np.ndarray,
                     new_of_old: np.ndarray, bits: int, max_df: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This bank's postings (codes, stems), from the kept ones and the added stems', and the shingles whose
    rarity the change flipped."""
    # the added stems' postings, numbered in this bank
    new_keys = [keys[i] for i in added.tolist()]
    a_codes, a_local = nd.unpacked(nd.postings(new_keys, nd.shingle_counts(new_keys, text_id[added]), bits), bits)
    a_stems = added[a_local].astype(np.int32)
    # which shingles changed their count, and which of those became rare or stopped being rare
    entry_gone = gone[kept.stems]
    g_codes = kept.codes[entry_gone]
    touched = np.union1d(g_codes, a_codes)
    df_old = _count_in(kept.codes, touched)
    df_new = df_old - _count_in(g_codes, touched) + _count_in(a_codes, touched)
    flipped = touched[nd.is_rare(df_old, max_df) != nd.is_rare(df_new, max_df)]
    # the kept entries of stems still here, renumbered, and the added stems' merged in
    codes = kept.codes[~entry_gone]
    stems = new_of_old[kept.stems[~entry_gone]]
    at = np.searchsorted(codes, a_codes, side="right")
    return np.insert(codes, at, a_codes), np.insert(stems, at, a_stems), flipped


def _affected(n: int, added: np.ndarray, codes: np.ndarray, stems: np.ndarray, flipped: np.ndarray) -> np.ndarray:
    """The stems whose pairs may change: the added ones, and those holding a shingle whose rarity flipped."""
    affected = np.zeros(n, dtype=bool)
    affected[added] = True
    first, last = np.searchsorted(codes, flipped, "left"), np.searchsorted(codes, flipped, "right")
    for start, stop in zip(first.tolist(), last.tolist()):
        affected[stems[start:stop]] = True
    return affected


def _rare_per_stem(kept: Kept, old_of_new: np.ndarray, codes: np.ndarray, stems: np.ndarray, affected: np.ndarray,
                   max_df: int) -> tuple[np.ndarray, np.ndarray]:
    """Rare shingles per stem (as kept, recounted for the affected stems), and the rare shingles the affected
    stems hold."""
    n = len(affected)
    per_stem = np.zeros(n, dtype=np.int32)
    here = old_of_new >= 0
    per_stem[here] = kept.per_stem[old_of_new[here]]
    mine = affected[stems]
    own_codes, own_stems = codes[mine], stems[mine]
    rare = nd.is_rare(_count_in(codes, own_codes), max_df)
    per_stem[affected] = 0
    per_stem += np.bincount(own_stems[rare], minlength=n).astype(np.int32)
    return per_stem, np.unique(own_codes[rare])


def _candidates(codes: np.ndarray, stems: np.ndarray, rare_codes: np.ndarray, affected: np.ndarray,
                per_stem: np.ndarray, text_id: np.ndarray, min_shared: int) -> np.ndarray:
    """Every pair that meets in a rare shingle of an affected stem, counted over the whole bank."""
    n = len(affected)
    starts = np.searchsorted(codes, rare_codes, "left").astype(np.int32)
    sizes = (np.searchsorted(codes, rare_codes, "right") - starts).astype(np.int32)
    found = []
    for lo, hi, shared in nd.count_pairs(stems, starts, sizes, n):
        keep = (affected[lo] | affected[hi]) & nd.enough_shared(shared, per_stem[lo], per_stem[hi], min_shared)
        keep &= text_id[lo] != text_id[hi]
        found.append(np.stack((lo[keep], hi[keep]), axis=1))
    return np.concatenate([np.zeros((0, 2), dtype=np.int64), *found])


def _kept_pairs(kept: Kept, new_of_old: np.ndarray, affected: np.ndarray) -> list[Pair]:
    """The kept pairs whose stems are both still here and unaffected, renumbered."""
    a, b = new_of_old[kept.pairs[:, 0]], new_of_old[kept.pairs[:, 1]]
    still = (a >= 0) & (b >= 0)
    still[still] &= ~(affected[a[still]] | affected[b[still]])
    a, b = a[still], b[still]
    return list(zip(np.minimum(a, b).tolist(), np.maximum(a, b).tolist(), kept.scores[still].tolist()))


def _confirm(keys: Sequence[StemKey], candidates: np.ndarray, text_id: np.ndarray, params: dict) -> list[Pair]:
    return nd.confirm(keys, candidates, params["threshold"], text_id, min_chars=params["min_chars"],
                      min_overlap=params["min_overlap"], ignore_variants=params["ignore_variants"])


def _signatures(keys: Sequence[StemKey]) -> np.ndarray:
    return np.fromiter(map(_SIG, keys), dtype=np.uint64, count=len(keys))


def _count_in(sorted_codes: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """How many times each of ``codes`` occurs in ``sorted_codes``."""
    return np.searchsorted(sorted_codes, codes, "right") - np.searchsorted(sorted_codes, codes, "left")


def _match(old: np.ndarray, new: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Stems of equal signature paired one to one (the k-th of a signature here with the k-th kept): for each new
    stem its kept number, and for each kept stem its new number (-1: none). Signature 0 never matches."""
    o_order, n_order = np.argsort(old, kind="stable"), np.argsort(new, kind="stable")
    o_sorted, n_sorted = old[o_order], new[n_order]
    opens = np.r_[True, n_sorted[1:] != n_sorted[:-1]] if len(n_sorted) else np.zeros(0, dtype=bool)
    index = np.arange(len(n_sorted))
    rank = index - np.maximum.accumulate(np.where(opens, index, 0)) if len(index) else index
    at = np.searchsorted(o_sorted, n_sorted, "left") + rank
    ok = (at < len(o_sorted)) & (n_sorted != 0)
    ok[ok] = o_sorted[at[ok]] == n_sorted[ok]
    old_of_new = np.full(len(new), -1, dtype=np.int32)   # int32: a million stems' renumbering stays small
    new_of_old = np.full(len(old), -1, dtype=np.int32)
    old_of_new[n_order[ok]] = o_order[at[ok]]
    new_of_old[o_order[at[ok]]] = n_order[ok]
    return old_of_new, new_of_old


# --- the files: the postings in a store of their own (written first, and let go), then the rest: arrays back to
# back, a JSON footer naming them and the postings file's token, the footer's length ------------------------------
class _Writer:
    """Collects a Kept an array at a time and hands it to the store in one write: a concurrent run reads the old
    bytes or the new, never half of them. The postings go first, each file whole or not at all; a token both files
    hold ties them, so a postings file another run wrote in between is never read with this index."""

    def __init__(self, store: Store, params: dict, bits: int) -> None:
        self.store, self.at = store, len(MAGIC)
        self.token = os.urandom(TOKEN)
        self.meta = {"params": params, "bits": bits, "arrays": {}, "token": self.token.hex(), "postings": 0}
        self.chunks: list[bytes | memoryview] = [MAGIC]

    def postings(self, packed: np.ndarray) -> None:
        packed = np.ascontiguousarray(packed, dtype=np.int64)
        self.store.beside("postings").write([POSTINGS_MAGIC, self.token, packed.view(np.uint8).data])
        self.meta["postings"] = len(packed)

    def add(self, name: str, array: np.ndarray) -> None:
        array = np.ascontiguousarray(array)
        if array.nbytes:
            self.chunks.append(array.reshape(-1).view(np.uint8).data)
        self.meta["arrays"][name] = [self.at, array.dtype.str, list(array.shape)]
        self.at += array.nbytes

    def finish(self, sig: np.ndarray, per_stem: np.ndarray, near: list[Pair]) -> None:
        self.add("sig", sig)
        self.add("per_stem", per_stem)
        self.add("pairs", np.array([(a, b) for a, b, _ in near], dtype=np.int64).reshape(-1, 2))
        self.add("scores", np.array([s for _, _, s in near], dtype=np.float64))
        footer = json.dumps(self.meta).encode()
        self.store.write([*self.chunks, footer + len(footer).to_bytes(8, "little")])


def _load(store: Store, params: dict) -> Kept | None:
    """The kept search, or None when there is none, it was made with other settings, or it is damaged (any
    error reading or decoding it, or arrays out of shape: a damaged or foreign file means a full search)."""
    try:
        data = store.read()
        if data is None or not data.startswith(MAGIC) or len(data) < len(MAGIC) + 8:
            return None
        size = int.from_bytes(data[-8:], "little")
        end = len(data) - 8 - size   # where the arrays end and the footer starts
        meta = json.loads(data[end:len(data) - 8]) if len(MAGIC) <= end else None
        if type(meta) is not dict or meta.get("params") != params or type(meta.get("bits")) is not int:
            return None
        arrays = {}
        for name, dtype in _ARRAYS.items():
            offset, spelled, shape = meta["arrays"][name]
            dims = 2 if name == "pairs" else 1
            if (np.dtype(spelled) != np.dtype(dtype) or type(shape) is not list or len(shape) != dims
                    or not all(type(d) is int and d >= 0 for d in [offset, *shape])):
                return None
            count = int(np.prod(shape, dtype=object))
            if offset + count * np.dtype(dtype).itemsize > end:
                return None
            arrays[name] = np.frombuffer(data, dtype=dtype, count=count, offset=offset).reshape(shape)
        bits, postings = meta["bits"], _postings(store, meta)
        if postings is None or not 0 < bits < 63:
            return None
        kept = Kept(bits, *nd.unpacked(postings, bits), **arrays)
    except Exception:   # whatever a damaged file raises (RecursionError, OverflowError, ...): search afresh
        return None
    return kept if _consistent(kept) else None


def _postings(store: Store, meta: dict) -> np.ndarray | None:
    """The postings written with the index ``meta`` names: None when their file is missing, damaged, cut short or
    was written by another run."""
    token, count = meta.get("token"), meta.get("postings")
    if type(token) is not str or type(count) is not int or count < 0:
        return None
    data = store.beside("postings").read()
    head = POSTINGS_MAGIC + bytes.fromhex(token)
    if data is None or not data.startswith(head) or len(data) != len(head) + 8 * count:
        return None
    return np.frombuffer(data, dtype=np.int64, count=count, offset=len(head))


def _consistent(kept: Kept) -> bool:
    """The arrays agree with each other: every stem and pair index in range, codes sorted, scores similarities."""
    n, m = len(kept.sig), len(kept.codes)
    return (len(kept.stems) == m and len(kept.per_stem) == n and len(kept.scores) == len(kept.pairs)
            and kept.pairs.shape[1] == 2 and bool(np.all(kept.codes[1:] >= kept.codes[:-1]))
            and (m == 0 or 0 <= int(kept.stems.min()) and int(kept.stems.max()) < n)
            and (n == 0 or int(kept.per_stem.min()) >= 0)
            and (len(kept.pairs) == 0 or 0 <= int(kept.pairs.min()) and int(kept.pairs.max()) < n)
            and bool(np.all((kept.scores >= 0) & (kept.scores <= 100))))
