"""Statistics without SciPy: the chi-square upper tail, enough for bank-level tests."""
from __future__ import annotations

import math


def _gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x) (Numerical Recipes' series / continued fraction)."""
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(1000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - gln))
    b = x + 1 - a
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - gln) * h)


def chi_square_uniform(counts: list[int]) -> tuple[float, float]:
    """Pearson's chi-square statistic against a uniform spread, and its p-value."""
    n = sum(counts)
    k = len(counts)
    if n == 0 or k < 2:
        return 0.0, 1.0
    expected = n / k
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    return statistic, _gamma_q((k - 1) / 2, statistic / 2)
