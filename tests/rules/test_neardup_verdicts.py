"""The near-duplicate verdicts kept between runs answer exactly what judging every pair answers, edit after edit."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import stem_bank, stem_edit

from qlint.neardup import sameask
from qlint.neardup import search as nd
from qlint.neardup import verdicts
from qlint.neardup.stemkey import answers_digest, option_digests, packed, stem_key
from qlint.run.cache import FileStore

OPTIONS = ["Redis", "PostgreSQL", "a queue", "a deque", "the audit log", "the object store", "Yes", "No"]


def keyed_stem(stem: str, rng: random.Random):
    """A stem's key with options of its own: some pairs then share options, some differ, some disagree on the key."""
    texts = rng.sample(OPTIONS, rng.choice((2, 3, 4)))
    correct = [i == 0 for i in range(len(texts))]
    digests = option_digests(texts)
    return stem_key(stem, answers_digest(texts, correct), packed(digests), digests[0])


@pytest.fixture
def judged_afresh(monkeypatch) -> list[tuple[int, int]]:
    """Every pair judged from its keys from here on (not taken from the kept verdicts)."""
    calls: list[tuple[int, int]] = []
    real = sameask.Judge.verdict
    monkeypatch.setattr(sameask.Judge, "verdict", lambda self, a, b: calls.append((a, b)) or real(self, a, b))
    return calls


def test_kept_verdicts_equal_judging_every_pair_edit_after_edit(tmp_path, judged_afresh):
    writer, rng, stems = stem_bank(5, 300)
    memo = FileStore(tmp_path / "near.memo").beside("verdicts")
    options = {}
    for step in range(30):
        keys = [keyed_stem(s, random.Random(options.setdefault(s, rng.random()))) for s in stems]
        pairs = nd.find_pairs(keys, 90)
        expected = sameask.judged(keys, pairs, 0.4)
        judged_afresh.clear()
        assert verdicts.judged(keys, pairs, 0.4, memo) == expected, f"step {step}"
        if step:   # only the pairs an edit touched are judged again
            assert len(judged_afresh) < len(pairs) // 2, f"step {step}"
        stems = stem_edit(writer, rng, stems)
    assert len(pairs) > 20 and any(v is not sameask.Answers.SAME for *_, v in expected)


def test_a_third_question_near_both_is_part_of_a_verdict(tmp_path):
    """A set of questions that vary one place of a shared setup: the verdict on two of them reads the third."""
    setup = ("The museum committee decided that the new exhibition of ancient Greek pottery and bronze statues "
             "opens in {} after the restoration of the east wing by the city architects. Which department approved "
             "the decision?")
    keys = [stem_key(setup.format(season)) for season in ("spring", "autumn", "winter")]
    alone = keys[:2] + [stem_key("What is a lean canvas?")]
    assert not sameask.judged(keys, nd.find_pairs(keys, 80), 0.4)   # three seasons: a set varying one place
    assert sameask.judged(alone, nd.find_pairs(alone, 80), 0.4)      # two alone: the same question
    memo = FileStore(tmp_path / "near.memo").beside("verdicts")
    for three in (keys, alone, keys, alone):
        pairs = nd.find_pairs(three, 80)
        assert verdicts.judged(three, pairs, 0.4, memo) == sameask.judged(three, pairs, 0.4)
    assert sameask.Judge(keys, nd.find_pairs(keys, 80), 0.4).reads(0, 1) == [0, 1, 2]


def test_damaged_or_foreign_verdicts_are_nothing_kept(tmp_path, judged_afresh):
    _, rng, stems = stem_bank(8, 200)
    keys = [keyed_stem(s, rng) for s in stems]
    pairs = nd.find_pairs(keys, 90)
    expected = sameask.judged(keys, pairs, 0.4)
    path = tmp_path / "near.verdicts.memo"
    store = FileStore(path)
    assert verdicts.judged(keys, pairs, 0.4, store) == expected
    data = path.read_bytes()
    flipped = data[:len(verdicts.MAGIC) + 16] + b"\x09" + data[len(verdicts.MAGIC) + 17:]
    for damaged in (data[:-1], b"garbage", flipped, b""):
        path.write_bytes(damaged)
        judged_afresh.clear()
        assert verdicts.judged(keys, pairs, 0.4, store) == expected
        assert len(judged_afresh) == len(pairs)
    other = sameask.judged(keys, pairs, 0.9)
    judged_afresh.clear()
    assert verdicts.judged(keys, pairs, 0.9, store) == other   # kept under another setting
    assert len(judged_afresh) == len(pairs)
    assert verdicts.judged(keys, pairs, 0.9) == other           # no store: every pair judged


def test_a_store_part_is_a_name():
    with pytest.raises(ValueError):
        FileStore(Path("x.memo")).beside("../up")
