"""duplicate-option: its cost bounds on long option lists, which the rule's own examples cannot show.

The bounds are counts of the pair comparisons the rule makes (``_why``), not seconds: a quadratic search makes
one per pair, the grouped one a bounded number per option. How fast it runs on 100,000 options is measured by
``benchmarks/duplicate_option.py``. The options that are left out of a key (or questions left out of the pairing)
because they cannot meet there lose no pair: a property test compares the pairs with those of every key.
"""
from __future__ import annotations

import itertools

import pytest
from helpers import model_question as _question
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


def _every_key_pairs(question, options, as_code):
    """The pairs by their plain definition: each option against every earlier one that shares its text, its
    number, its filler-free core or its letters (with no option's letters left out), the lowest that is the same."""
    normals, numbers, prose = duplicate_option._pairs(question, options, as_code)[1:]

    def keys(k):
        n = normals[k]
        found = {("text", n)} | ({("number", numbers[k])} if numbers[k] is not None else set())
        if prose and options.flag_filler_containment:
            found.add(("core", duplicate_option._core(n) or n))
        if prose and options.flag_typo_variants and len(n) <= duplicate_option._TYPO_MAX_CHARS:
            found.add(("letters", " ".join(w if any(c.isdigit() for c in w) else "".join(sorted(w))
                                           for w in n.split())))
        return found

    pairs = []
    for j in range(len(normals)):
        matches = [i for i in range(j) if normals[i] and normals[j] and keys(i) & keys(j) and
                   duplicate_option._why(normals[i], normals[j], numbers[i], options, numbers[j])]
        if matches:
            pairs.append((matches[0], j))
    return sorted(pairs)


# words and their look-alikes (a transposed-letter typo, the same number written differently, case, a period)
_TWINS = {"versioned": "versoined", "bucket": "bukcet", "Ottawa": "otatwa", "region": "Region.", "0.5": "1/2",
          "1000": "1,000", "Save": "save", "the": "a"}


@st.composite
def _option_lists(draw) -> list[str]:
    """Options drawn as variants of one phrase: some words swapped for a look-alike, filler put before, a word
    dropped or a list number instead, so that texts, numbers, cores and letters are often shared."""
    phrase = draw(st.lists(st.sampled_from([*_TWINS, "in", "another", "As", "A"]), min_size=1, max_size=5))
    options = []
    for _ in range(draw(st.integers(2, 8))):
        words = [_TWINS[w] if w in _TWINS and draw(st.booleans()) else w for w in phrase]
        words = draw(st.lists(st.sampled_from(["it", "is", "called", "that"]), max_size=2)) + words
        if len(words) > 1 and draw(st.booleans()):
            del words[draw(st.integers(0, len(words) - 1))]
        options.append(draw(st.sampled_from(["1.", "2."])) if draw(st.integers(0, 9)) == 0 else " ".join(words))
    return options


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_option_lists(), st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_options_are_paired_as_when_every_option_has_every_key(texts, numeric, filler, typos, as_code):
    """Up to the peer bound (8), the options left without a letters key (no other option as long, too few words)
    and the questions whose options share no key lose no pair: the pairs are those of comparing every option
    with every earlier one that shares any of its keys."""
    options = duplicate_option.Options(flag_numeric_equal=numeric, flag_filler_containment=filler,
                                       flag_typo_variants=typos)
    question = _question(texts)
    assert duplicate_option._pairs(question, options, as_code)[0] == _every_key_pairs(question, options, as_code)
