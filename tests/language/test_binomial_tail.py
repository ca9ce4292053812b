"""The exact tail of a sum of binomials: the test key-length-bias runs when questions have different chances."""
from __future__ import annotations

from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qlint.language.chisquare import binomial_sum_tail


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 30), st.sampled_from([0.2, 0.25, 1 / 3, 0.5])), min_size=1, max_size=3),
       st.integers(0, 95))
def test_the_tail_is_the_exact_one(groups, count):
    pmf = [1.0]
    for n, p in groups:
        step = [comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(n + 1)]
        pmf = [sum(pmf[j] * step[i - j] for j in range(len(pmf)) if 0 <= i - j <= n) for i in range(len(pmf) + n)]
    want = sum(pmf[count:])
    assert binomial_sum_tail(groups, count) == pytest.approx(want, rel=1e-9, abs=1e-15)


def test_the_tail_of_big_groups_matches_the_normal_approximation():
    # 900,000 questions: the FFT path; mean 325,000, sd 440, so 326,000 is 2.27 sd above
    assert binomial_sum_tail([(500_000, 0.25), (400_000, 0.5)], 326_000) == pytest.approx(0.0116, abs=5e-4)
