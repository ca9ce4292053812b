"""The near-duplicate search kept between runs answers exactly what a full search answers, edit after edit."""
from __future__ import annotations

import pytest
from helpers import stem_bank, stem_edit

from qlint.neardup import index as ndindex
from qlint.neardup import search as nd
from qlint.neardup.stemkey import StemKey, stem_key
from qlint.run.cache import FileStore


def reference(keys, max_df=60, threshold=90):
    text_id = nd.text_ids(keys)
    return nd.merged(nd.confirm(keys, nd.candidate_pairs(keys, max_df=max_df, text_id=text_id), threshold, text_id),
                     nd.content_twins(keys, text_id))


@pytest.fixture
def fulls(monkeypatch) -> list[int]:
    """One entry per full search run from here on."""
    calls: list[int] = []
    real_full = ndindex._full
    monkeypatch.setattr(ndindex, "_full", lambda *args: calls.append(1) or real_full(*args))
    return calls


@pytest.mark.parametrize("max_df", [3, 60])
def test_kept_search_equals_full_search_edit_after_edit(tmp_path, fulls, max_df):
    """max_df=3 makes a change flip shingles between rare and common at nearly every edit."""
    writer, rng, stems = stem_bank(3 + max_df, 300)
    memo = tmp_path / "near.memo"
    for step in range(40):
        keys = [stem_key(s) for s in stems]
        got = ndindex.search(keys, 90, store=FileStore(memo), max_df=max_df)
        assert got == reference(keys, max_df), f"step {step}"
        assert_kept_as_full(keys, memo, max_df)
        stems = stem_edit(writer, rng, stems)
    assert len(fulls) == 1   # only the first search was a full one
    assert any(a for a in reference(keys, max_df))


def assert_kept_as_full(keys, memo, max_df):
    """What the kept search leaves for the next run is what a full search would leave."""
    text_id = nd.text_ids(keys)
    kept = ndindex._load(FileStore(memo), {**PARAMS, "max_df": max_df})
    bits = nd.stem_bits(len(keys))
    packed, members, starts, sizes = nd.rare_postings(keys, nd.shingle_counts(keys, text_id), bits, max_df)
    codes, stems = nd.unpacked(packed, bits)
    _, per_stem = nd.near_candidates(members, starts, sizes, text_id)
    assert kept is not None and kept.bits == nd.stem_bits(len(keys))
    assert sorted(zip(kept.codes.tolist(), kept.stems.tolist())) == list(zip(codes.tolist(), stems.tolist()))
    assert kept.per_stem.tolist() == per_stem.tolist()
    assert kept.sig.tolist() == [k.sig for k in keys]


PARAMS = {"threshold": 90, "min_chars": 12, "min_overlap": 0.75, "ignore_variants": True, "max_df": 60, "min_shared": 2}


def test_without_a_memo_it_is_find_pairs():
    _, _, stems = stem_bank(1, 200)
    keys = [stem_key(s) for s in stems]
    assert ndindex.search(keys, 90) == nd.find_pairs(keys, 90) and nd.find_pairs(keys, 90)


def test_a_damaged_or_foreign_memo_means_a_full_search(tmp_path, fulls):
    writer, rng, stems = stem_bank(2, 200)
    keys = [stem_key(s) for s in stems]
    memo = tmp_path / "near.memo"
    expected = reference(keys)
    assert ndindex.search(keys, 90, store=FileStore(memo)) == expected
    data = memo.read_bytes()
    fulls.clear()   # from here on
    for damaged in (data[: len(data) // 2], b"garbage", data[:-9] + b"\xff" * 9, b""):
        memo.write_bytes(damaged)
        assert ndindex.search(keys, 90, store=FileStore(memo)) == expected
    memo.write_bytes(data)
    assert ndindex.search(keys, 95, store=FileStore(memo)) == reference(keys, threshold=95)   # kept with another threshold
    assert len(fulls) == 5
    assert ndindex.search(keys, 95, store=FileStore(memo)) == reference(keys, threshold=95) and len(fulls) == 5


def test_many_changes_or_unknown_stems_fall_back_to_a_full_search(tmp_path, monkeypatch, fulls):
    writer, rng, stems = stem_bank(4, 200)
    memo = tmp_path / "near.memo"
    ndindex.search([stem_key(s) for s in stems], 90, store=FileStore(memo))
    fulls.clear()   # from here on
    monkeypatch.setattr(ndindex, "MIN_CHANGED", 10)
    changed = [writer.stem() for _ in range(100)] + stems[100:]
    keys = [stem_key(s) for s in changed]
    assert ndindex.search(keys, 90, store=FileStore(memo)) == reference(keys) and len(fulls) == 1
    unknown = [StemKey(k.text, k.numbers, k.code, k.bag_chars, k.tokens) for k in keys]   # signature 0: never matched
    assert ndindex.search(unknown, 90, store=FileStore(memo)) == reference(unknown) and len(fulls) == 2
