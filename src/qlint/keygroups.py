"""The bank-wide step of contradictory-keys: every record's header read at once, and the questions grouped by what
they ask (numpy; imported only when the rule checks the bank)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from qlint.keyfacts import HEADER_FIELDS, HEADER_SIZE, SKIP

_DTYPE = np.dtype(list(HEADER_FIELDS))


def headers(records: Sequence[bytes]) -> np.ndarray:
    """The fixed header of every record at once, as a structured array (a missing record: flags SKIP)."""
    n = len(records)
    lengths = np.fromiter(map(len, records), dtype=np.int64, count=n)
    whole = np.frombuffer(b"".join(records), dtype=np.uint8)
    out = np.zeros(n, dtype=_DTYPE)
    out["flags"] = SKIP
    good = lengths >= HEADER_SIZE
    if good.any():
        starts = (np.cumsum(lengths) - lengths)[good]
        rows = whole[starts[:, None] + np.arange(HEADER_SIZE)]
        out[good] = np.ascontiguousarray(rows).view(_DTYPE).reshape(-1)
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


def same_words(records: Sequence[bytes], limit: int) -> list[tuple[list[int], dict[int, int]]]:
    """The groups of questions whose stems have the same words (order aside), each as its first ``limit`` members
    and the digest of each member's words in order."""
    head = headers(records)
    out = []
    for group in ask_groups(head):
        members = group[:limit].tolist()
        out.append((members, dict(zip(members, head["o"][group[:limit]].tolist()))))
    return out
