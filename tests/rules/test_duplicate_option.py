"""duplicate-option: its cost bounds on long option lists, which the rule's own examples cannot show.

The bounds are counts of the pair comparisons the rule makes (``_why``), not seconds: a quadratic search makes
one per pair, the grouped one a bounded number per option. How fast it runs on 100,000 options is measured by
``benchmarks/duplicate_option.py``.
"""
from __future__ import annotations

import itertools

import pytest
from helpers import model_question as _question

from qlint.rules import duplicate_option


@pytest.fixture
def comparisons(monkeypatch) -> list[int]:
    """One entry per pair of options the rule compares."""
    calls: list[int] = []
    why = duplicate_option._why
    monkeypatch.setattr(duplicate_option, "_why", lambda *args: calls.append(1) or why(*args))
    return calls


@pytest.mark.parametrize("size", [1_000, 5_000])
def test_duplicate_option_is_linear_in_the_number_of_options(size, comparisons):
    """A bounded number of pair comparisons per option (not one per pair): the pairwise version took hours on 100k."""
    texts = [f"choice number {i} of the list" for i in range(size)] + ["Choice number 7 of the list."]
    found = list(duplicate_option.check(_question(texts), duplicate_option.Options()))
    assert [v.field for v in found] == [f"options[{size}].text"]
    assert f"option {size + 1} duplicates option 8" in found[0].message
    assert len(comparisons) <= 20 * len(texts)


def test_duplicate_option_many_filler_variants_stay_bounded(comparisons):
    """Options that share one filler-free core are compared with a bounded number of peers."""
    texts = ["it is Ottawa"] + [f"{'just ' * (i % 50)}Ottawa {'simply ' * (i // 50)}" for i in range(2_000)]
    found = list(duplicate_option.check(_question(texts), duplicate_option.Options()))
    assert found
    assert len(comparisons) <= 20 * len(texts)


def test_options_that_are_all_one_core_behind_filler_are_each_compared_with_a_few_peers(comparisons):
    """Every option is "Ottawa" behind other filler words: each is reported against the first, and each is compared
    with at most its peers under each key (and the option of the same text or number), never with all before it."""
    filler = sorted(duplicate_option._FILLER - {"it's"})
    texts = ["Ottawa"] + [" ".join(words) + " Ottawa" for r in (1, 2, 3) for words in itertools.permutations(filler, r)]
    found = list(duplicate_option.check(_question(texts), duplicate_option.Options()))
    assert [v.field for v in found] == [f"options[{j}].text" for j in range(1, len(texts))]
    assert all("duplicates option 1 (one is the other plus filler words)" in v.message for v in found)
    # per option: its peers under two keys, the same text, the same number, and the reported pair's message
    assert len(comparisons) <= (2 * duplicate_option._PEERS + 3) * len(texts)   # all pairs: 1,777,555
