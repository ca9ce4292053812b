"""The bank-wide step of contradictory-keys: every record's header read at once, and the questions grouped by what
they ask (numpy; imported only when the rule checks the bank)."""
from __future__ import annotations

import numpy as np

from qlint.neardup.keyfacts import HEADER_FIELDS, HEADER_SIZE, SKIP

_DTYPE = np.dtype(list(HEADER_FIELDS))


def headers(whole: bytes, lengths) -> tuple[np.ndarray, np.ndarray]:
    """The fixed header of every record at once, as a structured array (a record too short: flags SKIP), and where
    each record starts in ``whole``."""
    lengths = np.frombuffer(lengths, dtype=np.uint32).astype(np.int64)
    data = np.frombuffer(whole, dtype=np.uint8)
    starts = np.cumsum(lengths) - lengths
    out = np.zeros(len(lengths), dtype=_DTYPE)
    out["flags"] = SKIP
    good = lengths >= HEADER_SIZE
    if good.any():
        rows = data[starts[good, None] + np.arange(HEADER_SIZE)]
        out[good] = np.ascontiguousarray(rows).view(_DTYPE).reshape(-1)
    return out, starts


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


def same_words(whole: bytes, lengths, limit: int) -> list[tuple[list[int], dict[int, int], dict[int, bytes]]]:
    """The groups of questions whose stems have the same words (order aside), each as its first ``limit`` members,
    the digest of each member's words in order, and each member's record."""
    head, starts = headers(whole, lengths)
    sizes = np.frombuffer(lengths, dtype=np.uint32)
    out = []
    for group in ask_groups(head):
        members = group[:limit].tolist()
        records = {i: whole[int(starts[i]):int(starts[i]) + int(sizes[i])] for i in members}
        out.append((members, dict(zip(members, head["o"][group[:limit]].tolist())), records))
    return out
