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


def binomial_sum_tail(groups: list[tuple[int, float]], count: int) -> float:
    """P(X >= count) where X is the sum of independent Binomial(n, p) for each (n, p) in ``groups``: the exact
    chance of this many successes or more when questions have different chances (1/4 for four options, 1/2 for
    two). Each binomial's distribution is computed in log space (no overflow at a million questions) and the sum's
    by convolving them (numpy's FFT for big groups: its error, ~1e-15 of the total, is far below any tested
    significance level)."""
    import numpy as np  # only the bank statistics need it; a check of one file does not load numpy for this

    groups = [(n, p) for n, p in groups if n > 0]
    if count <= 0:
        return 1.0
    total = sum(n for n, _ in groups)
    if count > total:
        return 0.0
    dist = np.ones(1)
    for n, p in groups:
        pmf = _binomial_pmf(np, n, p)
        if len(dist) * len(pmf) <= 4_000_000:
            dist = np.convolve(dist, pmf)
        else:
            size = len(dist) + len(pmf) - 1
            dist = np.fft.irfft(np.fft.rfft(dist, size) * np.fft.rfft(pmf, size), size)
            dist = np.clip(dist, 0.0, None)
    return float(min(1.0, max(0.0, dist[count:].sum() / dist.sum())))


def _binomial_pmf(np, n: int, p: float):
    if p <= 0:
        return np.eye(1, n + 1)[0]
    if p >= 1:
        return np.eye(1, n + 1, n)[0]
    i = np.arange(n, dtype=np.float64)
    steps = np.log(n - i) - np.log(i + 1) + math.log(p / (1 - p))
    log_pmf = np.concatenate(([n * math.log1p(-p)], n * math.log1p(-p) + np.cumsum(steps)))
    return np.exp(log_pmf - log_pmf.max()) / np.exp(log_pmf - log_pmf.max()).sum()
