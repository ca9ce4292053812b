"""Regressions for duplicate-option, near-duplicate-stem, option-order, answer-position-bias and friends:
cost bounds and behaviours that the rules' own examples cannot show."""
from __future__ import annotations

import time

from qlint.model import Option, Question
from qlint.rules import duplicate_option, option_order


def _question(texts: list[str], stem: str = "Which one?") -> Question:
    return Question(id="q", stem=stem, options=tuple(Option(text=t, correct=i == 0) for i, t in enumerate(texts)))


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
