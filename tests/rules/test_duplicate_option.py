"""duplicate-option: its cost bounds on very long option lists, which the rule's own examples cannot show."""
from __future__ import annotations

import time

import pytest
from helpers import model_question as _question

from qlint.rules import duplicate_option


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
