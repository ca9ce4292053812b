"""Near-duplicate search: the blocked search finds what comparing every pair finds; lead-ins never pair stems."""
from __future__ import annotations

import random

from helpers import bank_writer, exhaustive_pairs

from qlint.neardup.search import find_pairs
from qlint.neardup.stemkey import stem_key


def test_blocked_search_matches_exhaustive_comparison():
    writer = bank_writer(7)
    rng = random.Random(7)
    stems = [writer.stem() for _ in range(300)]
    stems += [writer.near_duplicate(rng.choice(stems)) for _ in range(30)]
    stems += ["What is a lean canvas?", "What is lean canvas?", "Which of the following is a mammal?",
              "Which of the following is a reptile?"]
    keys = [stem_key(s) for s in stems]
    members = lambda pairs: {i for a, b, _ in pairs for i in (a, b)}  # noqa: E731
    blocked, everything = find_pairs(keys, 90), exhaustive_pairs(keys, 90)
    assert members(everything) and members(blocked) == members(everything)
    mammal, reptile = len(stems) - 2, len(stems) - 1
    assert not any({a, b} == {mammal, reptile} for a, b, _ in blocked)


def test_identical_texts_chain_and_empty_stems_never_pair():
    stems = ["Which port does HTTPS use by default?", "", "Which port does HTTPS use by default?", "?",
             "Which port does HTTPS use by default?", "Which protocol replaced SSL for securing web traffic?"]
    keys = [stem_key(s) for s in stems]
    pairs = find_pairs(keys, 90)
    assert [(a, b) for a, b, _ in pairs] == [(0, 2), (0, 4)]
    assert all(score == 100.0 for _, _, score in pairs)
    assert {(a, b) for a, b, _ in exhaustive_pairs(keys, 90)} >= {(0, 2), (0, 4)}


def test_pairs_are_the_same_whichever_order_the_stems_come_in():
    writer = bank_writer(11)
    rng = random.Random(11)
    stems = [writer.stem() for _ in range(200)]
    stems += [writer.near_duplicate(rng.choice(stems)) for _ in range(20)]
    stems += [rng.choice(stems) for _ in range(5)]
    order = list(range(len(stems)))
    rng.shuffle(order)
    forward = {frozenset((stems[a], stems[b])) for a, b, _ in find_pairs([stem_key(s) for s in stems], 90)}
    shuffled = [stems[i] for i in order]
    backward = {frozenset((shuffled[a], shuffled[b])) for a, b, _ in find_pairs([stem_key(s) for s in shuffled], 90)}
    assert forward and forward == backward


def test_counting_pairs_in_several_passes_changes_nothing(monkeypatch):
    """A million-stem bank counts co-occurring pairs in residue classes, to bound memory; the result is the same."""
    import numpy as np

    from qlint.neardup import search as neardup

    writer = bank_writer(5)
    rng = random.Random(5)
    stems = [writer.stem() for _ in range(300)]
    stems += [writer.near_duplicate(rng.choice(stems)) for _ in range(40)]
    keys = [stem_key(s) for s in stems]
    whole = neardup.candidate_pairs(keys)
    monkeypatch.setattr(neardup, "PAIR_BUDGET", 64)
    assert np.array_equal(neardup.candidate_pairs(keys), whole)
    assert len(whole) > 40


def test_rare_groups_are_the_runs_of_two_to_max_df_equal_codes():
    import numpy as np

    from qlint.neardup.search import rare_groups, spans

    rng = random.Random(9)
    for _ in range(200):
        codes = np.array(sorted(rng.randrange(12) for _ in range(rng.randrange(0, 40))), dtype=np.int64)
        runs, at = [], 0
        while at < len(codes):
            end = at
            while end + 1 < len(codes) and codes[end + 1] == codes[at]:
                end += 1
            if 2 <= end - at + 1 <= 3:
                runs.append((at, end - at + 1))
            at = end + 1
        starts, sizes = rare_groups(codes, 3)
        assert list(zip(starts.tolist(), sizes.tolist())) == runs
        assert spans(starts, sizes).tolist() == [s + k for s, z in runs for k in range(z)]


def test_packed_postings_group_on_their_codes_and_give_the_rare_groups_stems(monkeypatch):
    import numpy as np

    from qlint.neardup import search

    monkeypatch.setattr(search, "_BLOCK", 5)   # the block loops run many times on a few entries
    rng = random.Random(4)
    for _ in range(100):
        bits = rng.randrange(1, 8)
        entries = sorted({(rng.randrange(12), rng.randrange(1 << bits)) for _ in range(rng.randrange(0, 60))})
        codes = np.array([c for c, _ in entries], dtype=np.int64)
        stems = [s for _, s in entries]
        packed = np.array([(c << bits) | s for c, s in entries], dtype=np.int64)
        assert [a.tolist() for a in search.unpacked(packed, bits)] == [codes.tolist(), stems]
        starts, sizes = search.rare_groups(packed, 3, bits)
        expected = search.rare_groups(codes, 3)
        assert starts.tolist() == expected[0].tolist() and sizes.tolist() == expected[1].tolist()
        members, local = search.rare_members(packed, starts, sizes, bits)
        assert members.tolist() == [stems[i] for i in search.spans(starts, sizes).tolist()]
        assert members.dtype == np.int32 and local.tolist() == (np.cumsum(sizes) - sizes).tolist()
