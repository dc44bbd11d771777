"""The simulation's statistics: family-wise interval levels (Bonferroni), Clopper-Pearson intervals of rates and
proven intervals of means.

A verdict tests k figures at once, each at confidence ``1 - 0.01 / k``, so a
correct game FAILs for at most 1% of seeds (:data:`FAMILY_LEVEL`).  Each interval holds at its level by a
theorem, for any number of rounds and any tail of the round win, so the union bound gives the family level:

* a rate: Clopper-Pearson (exact binomial tails);
* a mean of a round win X >= 0 with the exact variance (:func:`proven_mean_interval`): the interval's upper end by
  Bernstein's inequality on ``-X`` (``mu - X <= mu``), its lower end by Cantelli's one-sided Chebyshev inequality
  (true for any distribution with that variance: a heavy tail of rare large wins cannot make it miss more often),
  and, when an upper bound of X is known, the tighter of that and Bernstein's inequality on ``X``.

The normal interval with the exact SD (:func:`mean_interval`) is only asymptotically right: on a heavy-tailed game
(rare large wins) it misses more often than its level says at practical round counts (Dolphin's Pearl, 20,000
rounds: 7 of 1,000 seeds against 1.67), always by an over-estimate.  It is printed beside, never used.
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


#: Each proven half-width is widened by this relative margin, far above the float rounding of its few operations.
FLOAT_MARGIN = 1e-9


def bernstein_halfwidth(var: float, b: float, n: int, delta: float) -> float:
    """The ``t`` at which Bernstein's inequality bounds P(mean of n - mu >= t) by ``delta``.

    For independent X_i with variance ``var`` and X_i - mu <= ``b``: P(mean - mu >= t) <=
    exp(-n t^2 / (2 var + 2 b t / 3)); ``t`` solves n t^2 - (2 b L / 3) t - 2 var L = 0, L = ln(1 / delta)
    (Bernstein 1924; e.g. Boucheron, Lugosi, Massart, *Concentration Inequalities*, 2013, Theorem 2.10 and
    Corollary 2.11).

    >>> round(bernstein_halfwidth(1.0, 0.0, 100, math.exp(-2)), 6)   # b = 0: sqrt(2 var L / n)
    0.2
    """
    L = math.log(1 / delta)
    a = b * L / 3
    return (a + math.sqrt(a * a + 2 * n * var * L)) / n * (1 + FLOAT_MARGIN)


def cantelli_halfwidth(var: float, n: int, delta: float) -> float:
    """The ``t`` at which Cantelli's inequality bounds P(mean of n - mu >= t) by ``delta``, for any distribution
    of variance ``var``: P(mean - mu >= t) <= var / (var + n t^2) (the one-sided Chebyshev inequality of the
    mean, whose variance is var / n).

    >>> round(cantelli_halfwidth(1.0, 1, 0.5), 6)     # var / (var + t^2) = 1/2 at t = 1
    1.0
    """
    return math.sqrt(var * (1 - delta) / (n * delta)) * (1 + FLOAT_MARGIN)


def proven_mean_interval(total: int, n: int, sd: float, mean: float, level: float,
                         top: float | None = None) -> tuple[float, float]:
    """An interval of the mean of a round win X >= 0 from the exact sum ``total`` of ``n`` rounds, which holds the
    true mean with probability >= ``level`` for every distribution of X with standard deviation <= ``sd``
    (credits) and mean ``mean`` (credits: the exact value under test) and, when ``top`` is given, X <= ``top``.

    The error 1 - level is split in halves between the two ends.  The estimate falls short by more than ``t``
    with probability <= exp(-n t^2 / (2 sd^2 + 2 mean t / 3)) (Bernstein, since mean - X <= mean): the
    interval's upper end.  The estimate overshoots by more than ``t`` with probability <= sd^2 / (sd^2 + n t^2)
    (Cantelli, no bound of X needed): the lower end; with ``top``, the smaller of that and Bernstein's
    (X - mean <= top - mean), each at a quarter of the error (a miss of the smaller is a miss of one of them).

    Returns
    -------
    (lo, hi) : tuple of float, credits

    >>> lo, hi = proven_mean_interval(1000, 1000, 1.0, 1.0, 0.99)
    >>> round(lo, 4), round(hi, 4)                     # the lower end is Cantelli's: wider
    (0.5539, 1.1047)
    >>> lo2, _ = proven_mean_interval(1000, 1000, 1.0, 1.0, 0.99, top=5.0)   # X <= 5: Bernstein's, tighter
    >>> round(lo2, 4)
    0.8823
    """
    delta = 1 - level
    var = sd * sd
    m = total / n
    short = bernstein_halfwidth(var, mean, n, delta / 2)
    over = cantelli_halfwidth(var, n, delta / 2)
    if top is not None:
        over = min(cantelli_halfwidth(var, n, delta / 4), bernstein_halfwidth(var, max(top - mean, 0.0), n, delta / 4))
    return m - over, m + short


def _psi(x):
    """Catoni's influence function: log(1 + x + x^2/2) for x >= 0, -log(1 - x + x^2/2) below (numpy, elementwise)."""
    import numpy as np
    a = np.abs(x)
    return np.sign(x) * np.log1p(a + a * a / 2)


def catoni_interval(hist: dict, n: int, sd: float, level: float, edges) -> tuple[float, float]:
    """An interval of the mean of a round win from its histogram, holding the true mean with probability
    >= ``level`` for EVERY distribution whose standard deviation is <= ``sd`` (credits): no bound of the win
    and no normal approximation (Catoni 2012, "Challenging the empirical mean and empirical variance",
    Ann. IHP 48(4)).

    ``hist`` maps bucket keys to counts of the ``n`` rounds, ``edges(key)`` gives a bucket's smallest and
    largest win (:func:`proofs.simulate_base.bucket_edges`).

    Proof.  psi(x) = sign(x) log(1 + |x| + x^2/2) is non-decreasing and -log(1 - x + x^2/2) <= psi(x) <=
    log(1 + x + x^2/2), so for Y = a (X - mu): E exp(psi(Y)) <= 1 + E Y + E Y^2 / 2 = 1 + a^2 sd^2 / 2 and
    E exp(-psi(Y)) <= the same.  For independent rounds, g(theta) = sum_i psi(a (X_i - theta)) has
    E exp(+-g(mu)) <= (1 + a^2 sd^2 / 2)^n <= exp(n a^2 sd^2 / 2), and Markov's inequality gives
    P(|g(mu)| >= c) <= delta for c = n a^2 sd^2 / 2 + ln(2 / delta), delta = 1 - level.  So
    {theta : |g(theta)| < c} holds mu with probability >= level; g is non-increasing in theta, so that set is an
    interval.  A bucket [lo, hi] bounds each psi(a (X_i - theta)) between psi(a (lo - theta)) and
    psi(a (hi - theta)): the interval returned, {theta : g_hi(theta) > -c and g_lo(theta) < c}, contains it.
    a = sqrt(2 ln(2 / delta) / (n sd^2)) (chosen before the rounds are seen) makes c = 2 ln(2 / delta) and the
    half-width about sd sqrt(2 ln(2 / delta) / n): the normal interval's with ln replacing the normal quantile
    (at 99.83%: 3.77 SD / sqrt(n) against 3.14).  The ends are found by bisection in floats and widened by
    :data:`FLOAT_MARGIN` of the half-width plus 1e-9 credits (the float sums of psi are far more accurate).

    >>> hist = {0: 50, 1: 50}                          # fifty rounds of 0 and fifty of 1 credit (toy keys)
    >>> lo, hi = catoni_interval(hist, 100, 0.5, 0.99, lambda k: (k, k))
    >>> round(lo, 3), round(hi, 3)
    (0.331, 0.669)
    """
    import numpy as np
    delta = 1 - level
    if sd <= 0:
        lo_w = min(edges(k)[0] for k in hist)
        hi_w = max(edges(k)[1] for k in hist)
        return float(lo_w), float(hi_w)
    keys = sorted(hist)
    lo_e = np.array([float(edges(k)[0]) for k in keys])
    hi_e = np.array([float(edges(k)[1]) for k in keys])
    cnt = np.array([float(hist[k]) for k in keys])
    L = math.log(2 / delta)
    a = math.sqrt(2 * L / (n * sd * sd))
    c = 2 * L

    def g(e, theta):
        return float(np.dot(cnt, _psi(a * (e - theta))))

    m = float(np.dot(cnt, (lo_e + hi_e) / 2)) / n
    span = 4 * sd * math.sqrt(2 * L / n) + 1.0

    def end(e, target, up):
        # g(e, .) is non-increasing: find theta with g = target, bracket first
        x0, x1 = m - span, m + span
        while g(e, x0) <= target:
            x0 -= 2 * (x1 - x0)
        while g(e, x1) >= target:
            x1 += 2 * (x1 - x0)
        for _ in range(200):
            mid = (x0 + x1) / 2
            if mid in (x0, x1):
                break
            if g(e, mid) > target:
                x0 = mid
            else:
                x1 = mid
        return x1 if up else x0

    lo = end(lo_e, c, False)
    hi = end(hi_e, -c, True)
    pad = (hi - lo) * FLOAT_MARGIN + 1e-9
    return lo - pad, hi + pad


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
