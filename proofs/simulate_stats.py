"""The simulation's statistics: family-wise interval levels (Bonferroni), Clopper-Pearson and normal intervals.

A verdict tests k figures at once, each at confidence ``1 - 0.01 / k``, so a
correct game FAILs for at most 1% of seeds (:data:`FAMILY_LEVEL`).
"""
from __future__ import annotations

import math
from fractions import Fraction


#: Family-wise confidence of a simulation's verdict: a correct game fails with probability at most 1%.
FAMILY_LEVEL = 0.99


def interval_level(k: int, family: float = FAMILY_LEVEL) -> float:
    """Confidence of each of ``k`` intervals so all hold together with probability >= ``family``.

    Bonferroni: each interval misses with probability at most ``(1 - family) / k``,
    so by the union bound (valid for any dependence between the figures) the
    chance that any misses is at most ``1 - family``.

    >>> round(interval_level(10), 6)
    0.999
    """
    return 1 - (1 - family) / k


def proportion_interval(k: int, n: int, level: float) -> tuple[float, float]:
    """Clopper-Pearson exact two-sided interval of a binomial proportion k / n at confidence ``level``."""
    from scipy.special import betaincinv
    a = (1 - level) / 2
    lo = 0.0 if k == 0 else float(betaincinv(k, n - k + 1, a))
    hi = 1.0 if k == n else float(betaincinv(k + 1, n - k, 1 - a))
    return lo, hi


def proportion_ci99(k: int, n: int) -> tuple[float, float]:
    """Clopper-Pearson exact two-sided 99% interval of a binomial proportion k / n."""
    return proportion_interval(k, n, 0.99)


def mean_interval(total: int, n: int, sd: float, level: float) -> tuple[float, float]:
    """Normal interval of a mean from the sum of n samples and the known (exact) standard deviation."""
    from scipy.special import ndtri
    m = total / n
    h = float(ndtri(1 - (1 - level) / 2)) * sd / math.sqrt(n)
    return m - h, m + h


def sample_sd(total: int, total2: int, n: int) -> float:
    """Sample standard deviation from exact integer sums (computed exactly, then one float)."""
    if n < 2:
        return 0.0
    var = Fraction(total2 * n - total * total, n * (n - 1))
    return math.sqrt(float(var))


def fraction_sqrt(x: Fraction) -> float:
    """sqrt of a non-negative Fraction as a float (exact integer square root first: no overflow)."""
    scale = 10 ** 40
    return math.isqrt(x.numerator * scale * scale // x.denominator) / scale
