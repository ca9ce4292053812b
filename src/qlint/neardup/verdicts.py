"""The near-duplicate verdicts kept between runs: after a commit that changes a few stems, only the pairs whose
verdict reads a changed key are judged again.

A verdict (``qlint.neardup.sameask.Judge``) is a function of min-shared-options and of the keys it reads
(``Judge.reads``: the two questions', and those of the third questions near both). Each is kept under a digest of
those, in the order it reads them; a pair whose digest is kept takes the kept verdict, every other pair is judged.
Only the verdicts of the last run's pairs are kept, so the file never grows past the bank's pairs, and a damaged
or foreign file is simply nothing kept: the answer is ``sameask.judged``'s, pair for pair.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence

from qlint.neardup.sameask import Answers, Judge
from qlint.neardup.sameask import judged as judged_afresh
from qlint.neardup.stemkey import StemKey
from qlint.rule import Store

MAGIC = b"qlint near-duplicate verdicts 1\n"
_VERDICTS: tuple[Answers | None, ...] = (None, Answers.SAME, Answers.DIFFER, Answers.MISKEYED)
_CODE = {verdict: code for code, verdict in enumerate(_VERDICTS)}
_SIZE = 16   # bytes of a digest
_ENTRY = _SIZE + 1


def judged(keys: Sequence[StemKey], pairs: Sequence[tuple[int, int, float]], min_shared: float,
           store: Store | None = None) -> list[tuple[int, int, float, Answers]]:
    """``sameask.judged``'s answer: the pairs that ask the same thing, with how their answers compare, each verdict
    taken from ``store`` where the keys it reads are those it was made from."""
    if store is None:
        return judged_afresh(keys, pairs, min_shared)
    judge = Judge(keys, pairs, min_shared)
    kept = _load(store)
    own: dict[int, bytes] = {}
    setting = repr(float(min_shared)).encode()
    now: dict[bytes, int] = {}
    out = []
    for a, b, score in pairs:
        digest = hashlib.blake2b(setting, digest_size=_SIZE)
        for i in judge.reads(a, b):
            if i not in own:
                own[i] = _key_digest(keys[i])
            digest.update(own[i])
        name = digest.digest()
        code = kept.get(name)
        if code is None:
            code = _CODE[judge.verdict(a, b)]
        now[name] = code
        if _VERDICTS[code] is not None:
            out.append((a, b, score, _VERDICTS[code]))  # type: ignore[arg-type]
    if now != kept:
        store.write([MAGIC, *(name + bytes((code,)) for name, code in now.items())])
    return out


def _key_digest(key: StemKey) -> bytes:
    """A digest of everything in a key, the same for a key extracted now and one decoded from the cache."""
    plain = tuple(value if type(value) in (bytes, int, bool) else
                  str(value) if isinstance(value, str) else tuple(map(str, value)) for value in key)
    return hashlib.blake2b(repr(plain).encode("utf-8", "surrogatepass"), digest_size=_SIZE).digest()


def _load(store: Store) -> dict[bytes, int]:
    """The kept verdicts by digest; nothing when there are none, or the file is not in the shape ``judged`` writes."""
    data = store.read()
    if data is None or not data.startswith(MAGIC) or (len(data) - len(MAGIC)) % _ENTRY:
        return {}
    kept = {}
    for at in range(len(MAGIC), len(data), _ENTRY):
        code = data[at + _SIZE]
        if code >= len(_VERDICTS):
            return {}
        kept[data[at:at + _SIZE]] = code
    return kept
