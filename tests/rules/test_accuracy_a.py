"""Regressions for duplicate-option, near-duplicate-stem, option-order, answer-position-bias and friends:
cost bounds and behaviours that the rules' own examples cannot show."""
from __future__ import annotations

import json
import time

import pytest

from test_neardup import exhaustive_pairs

from qlint.model import Option, Question
from qlint.neardup.search import find_pairs
from qlint.neardup.stemkey import answers_digest, choice_digests, decode_keys, encode_keys, stem_key
from qlint.rules import duplicate_option, near_duplicate_stem, option_order


def _question(texts: list[str], stem: str = "Which one?") -> Question:
    return Question(id="q", stem=stem, options=tuple(Option(text=t, correct=i == 0) for i, t in enumerate(texts)))


@pytest.mark.slow  # a large generated question
def test_duplicate_option_is_linear_in_the_number_of_options(monkeypatch):
    """100k options: a bounded number of pair comparisons per option (not one per pair) and seconds, not minutes."""
    calls = []
    why = duplicate_option._why
    monkeypatch.setattr(duplicate_option, "_why", lambda *args: calls.append(1) or why(*args))
    texts = [f"choice number {i} of the list" for i in range(100_000)] + ["Choice number 7 of the list."]
    started = time.perf_counter()
    found = list(duplicate_option.check(_question(texts), duplicate_option.Options()))
    elapsed = time.perf_counter() - started
    assert [v.field for v in found] == ["options[100000].text"]
    assert "option 100001 duplicates option 8" in found[0].message
    assert len(calls) <= 20 * len(texts)
    assert elapsed < 30, elapsed   # generous for a loaded machine; the pairwise version took hours


@pytest.mark.slow  # a large generated question
def test_duplicate_option_many_filler_variants_stay_bounded():
    """Options that share one filler-free core are compared with a bounded number of peers."""
    texts = ["it is Ottawa"] + [f"{'just ' * (i % 50)}Ottawa {'simply ' * (i // 50)}" for i in range(20_000)]
    started = time.perf_counter()
    found = list(duplicate_option.check(_question(texts), duplicate_option.Options()))
    assert found and time.perf_counter() - started < 30


def test_option_order_reorders_only_plain_quantities_in_one_unit():
    """A wrong reorder changes the item: mixed units or wording are reported but never sorted automatically."""
    plain = list(option_order.check(_question(["18", "21", "14", "28"]), option_order.Options()))
    assert plain and plain[0].fix is not None
    mixed = list(option_order.check(_question(["about 8 seconds", "about 8 minutes", "about 8 hours",
                                               "about 1 second"]), option_order.Options()))
    assert mixed and mixed[0].fix is None
    units = list(option_order.check(_question(["5 km", "300 m", "2 km"]), option_order.Options()))
    assert units and units[0].fix is None


def _near_duplicates(stems_and_options: list[tuple[str, list[str]]]) -> list[tuple[int, int, float]]:
    """The pairs near-duplicate-stem reports (the first option is the key)."""
    keys = [stem_key(stem, answers_digest(options, [i == 0 for i in range(len(options))]), choice_digests(options),
                     choice_digests(options[:1])) for stem, options in stems_and_options]
    assert find_pairs(keys, 90.0) == exhaustive_pairs(keys, 90.0)   # the blocked search stays exact
    return [(a, b, score) for a, b, score, _ in near_duplicate_stem.confirmed_pairs(keys, near_duplicate_stem.Options())]


_PASSAGE = ("Seven volunteers (Fay, Gil, Hal, Ivy, Jo, Kai and Lu) staff a stall on seven consecutive days, one "
            "volunteer a day. Gil works on an earlier day than Hal. Ivy works on the third or the fifth day. Jo "
            "does not work on a day next to Kai's. Lu works on a later day than Fay and an earlier day than Jo.")


def test_near_duplicate_stem_compares_what_a_shared_passage_asks():
    asks = ["If Gil works on the first day, which one of the following must be true?",
            "If Gil works on the first day, which one of the following could be true?",
            "If Kai works on the first day, which one of the following must be true?",
            "Which one of the following could be the volunteer who works on the seventh day?"]
    options = ["Fay works on the second day", "Hal works on the second day", "Lu works on the fourth day"]
    assert _near_duplicates([(f"{_PASSAGE}\n\n{a}", options) for a in asks]) == []
    # the same question after the same passage is still a duplicate, also with the question's wording retouched
    again = _near_duplicates([(f"{_PASSAGE}\n\n{asks[0]}", options),
                              (f"{_PASSAGE}\n\n{asks[0].replace('the first day', 'the first day,')}", options)])
    assert [(a, b) for a, b, _ in again] == [(0, 1)]


def test_near_duplicate_stem_numbers_only_differ_parallel_unless_answers_are_the_same():
    stem = "A tank holds {} litres and drains at {} litres a minute. How long does it take to empty?"
    parallel = [(stem.format(600, 20), ["30 minutes", "20 minutes", "12 minutes"]),
                (stem.format(900, 30), ["30 minutes", "25 minutes", "45 minutes"])]
    assert _near_duplicates(parallel) == []
    renumbered = [(stem.format(600, 20), ["30 minutes", "20 minutes", "12 minutes"]),
                  (stem.format(900, 30), ["30 minutes", "20 minutes", "12 minutes"])]
    assert [(a, b) for a, b, _ in _near_duplicates(renumbered)] == [(0, 1)]
    # two options (Yes / No) are shared by chance: numbers keep such items apart
    yes_no = [(stem.format(600, 20) + " Is it 30 minutes?", ["Yes", "No"]),
              (stem.format(900, 30) + " Is it 30 minutes?", ["Yes", "No"])]
    assert _near_duplicates(yes_no) == []


def test_cache_keeps_what_a_stem_asks_and_its_answers_digest():
    key = stem_key(f"{_PASSAGE}\n\nWho works on the last day?", answers_digest(["Fay", "Gil", "Hal"], [1, 0, 0]))
    assert key.asks and key.answers
    assert decode_keys(json.loads(json.dumps(encode_keys([key]))), 1) == [key]   # as stored
