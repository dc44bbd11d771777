"""The whole win distribution of a math set: the base spin and every level exactly (:mod:`exact.one_spin`),
the feature through the game's chain (:mod:`markov.feature`) played by the protocol's runner
(:func:`markov.protocol.run`) in a value algebra (:mod:`exact.algebras`), and the round.
"""
from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction
from math import gcd

import numpy as np

from exact.algebras import BoundAlgebra, ExactAlgebra, MassAlgebra, MaxAlgebra, SpectralAlgebra, combine, dyadic
from exact.distribution_results import (DEFAULT_EDGES, TAIL_BETS, TRUNCATE_BELOW, GridDistribution, WinDistribution,
                                        ceil_int)
from exact.enumeration import awards_model
from exact.falls import falls_game
from exact.one_spin import SCATTER_COUNT, SpinDistribution, spin_distribution
from exact.progress import progress_of, stage
from exact.rules import initial_spins, require
from markov.feature import chain_class
from markov.moments import CountSplit
from markov.protocol import run as run_feature
from strips.model import MathSet

#: Largest round-win grid (wins / grid step) convolved exactly with Fractions by default.
EXACT_GRID = 3000
#: Largest round-win grid convolved exactly when asked for (``exact=True``); beyond, a one-line refusal.
EXACT_LIMIT = 20000
#: Largest (grid points x feature states visited) of the float pass of an endless retrigger: a minute or
#: two on 2 cores.  Beyond it the distribution is refused up front instead of running for hours.
MAX_SPECTRAL_WORK = 2 * 10**10
#: Largest round-win grid of the float pass (points).  The bundled set's 1,036,800 points peak at
#: 454 MiB; memory grows with the grid, so beyond this the distribution is refused up front
#: (one line) instead of exhausting memory or overflowing the FFT's index arithmetic.
MAX_GRID = 1 << 23


def count_split(dist: SpinDistribution) -> CountSplit:
    """The exact CountSplit of a one-spin distribution: P, E[W 1{count}], E[W^2 1{count}] per count."""
    n = int(dist.counts.max()) + 1
    prob, win, win2 = [0] * n, [0] * n, [0] * n
    for c, w, x in zip(dist.counts, dist.wins, dist.weights):
        c, w, x = int(c), int(w), int(x)
        prob[c] += x
        win[c] += x * w
        win2[c] += x * w * w
    t = dist.total
    return CountSplit(tuple(Fraction(v, t) for v in prob), tuple(Fraction(v, t) for v in win),
                      tuple(Fraction(v, t) for v in win2))


def by_count(dist: SpinDistribution) -> dict[int, dict[int, Fraction]]:
    """{count: {win: P(count, win)}}, exact."""
    out: dict[int, dict[int, Fraction]] = defaultdict(dict)
    for c, w, x in zip(dist.counts, dist.wins, dist.weights):
        out[int(c)][int(w)] = Fraction(int(x), dist.total)
    return dict(out)


def fast_length(n: int) -> int:
    """The smallest 5-smooth integer (2^a 3^b 5^c) >= n: an FFT length pocketfft handles fast."""
    best = 1 << max(n - 1, 0).bit_length()
    p5 = 1
    while p5 < 2 * n:
        p35 = p5
        while p35 < 2 * n:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def weight_norm(theta: float, a: int, b: int) -> float:
    """|| e^(-theta i) ||_2 over grid points a <= i < b."""
    if theta == 0:
        return math.sqrt(b - a)
    return math.exp(-theta * a) * math.sqrt(-math.expm1(-2 * theta * (b - a)) / -math.expm1(-2 * theta))


def tail_tilt(predict, targets, size: int) -> float:
    """The tilt theta (per grid point) whose pass proves the tail figures best.

    ``predict(theta)`` is the bound the tilted pass would prove (:class:`BoundAlgebra`); a sum
    over grid points [a, b) then has the bound predict(theta) x || e^(-theta i) ||_2 there.
    ``targets`` are (a, b, estimated probability) of the figures to prove (tails and win
    ranges); theta minimises the worst ratio of a figure's bound to its goal, max(1e-13,
    1e-7 x its probability) (6 digits, or 1e-13 absolute).  Candidates are geometric with
    theta x size <= 600 (nothing overflows); 0 when no tilt beats the plain pass.
    """
    targets = [(a, b, p) for a, b, p in targets if 0 < a < b <= size]
    if not targets:
        return 0.0

    def worst(theta, bound):
        return max(math.log(bound * weight_norm(theta, a, b) / max(1e-13, 1e-7 * p)) for a, b, p in targets)

    best, best_theta = worst(0.0, predict(0.0)), 0.0
    for theta in np.geomspace(1e-7, 600.0 / size, 40):
        theta = dyadic(float(theta))
        bd = predict(float(theta))
        if not math.isfinite(bd) or bd <= 0:
            continue
        val = worst(float(theta), bd)
        if val < best:
            best, best_theta = val, float(theta)
    return best_theta


def _gcd_of_wins(dists) -> int:
    g = 0
    for d in dists:
        for w in np.unique(d.wins):
            g = gcd(g, int(w))
    return g or 1


def win_distribution(ms: MathSet, exact: bool | None = None,
                     tail_at: int | None = max(TAIL_BETS)) -> WinDistribution:
    """The whole win distribution of a math set: base spin, each level, each feature and the round.

    Parameters
    ----------
    ms : MathSet
    exact : bool, optional
        True: every distribution with Fractions (small games only: the work grows with the
        number of distinct round wins); False: the feature and the round as float FFTs with a
        proven bound; None (default): exact when the round-win grid has at most
        :data:`EXACT_GRID` points and the free spins end for sure.  ``True`` with more than
        :data:`EXACT_LIMIT` grid points raises ValueError (it would not finish).
    tail_at : int or None
        Bets at which a second, tilted FFT pass is aimed (default the largest P(win >= k x bet)
        reported); None: no tilted pass (the tail then has only the plain pass's digits).

    Returns
    -------
    WinDistribution
        The base spin and every level exactly; the round and the features exact or within
        ``round.bound`` per probability; credits per round.

    Raises
    ------
    ValueError
        A free-spin rule the chains refuse (e.g. retrigger with several levels, an endless
        retrigger with E[extra spins] >= 1), or a FISH / WILD weight table missing.

    Examples
    --------
    A tiny game on the rules page's model (every window shows the same few symbols):

    >>> import dataclasses, numpy as np
    >>> from strips.loader import load_math_set
    >>> from strips.model import ReelStrips
    >>> ms = load_math_set("rules_page")
    >>> def strip_set(name, reels):
    ...     return ReelStrips(name, tuple(map(tuple, reels)),
    ...                       tuple(np.array([ms.model.code(s) for s in r]) for r in reels))
    >>> tiny = dataclasses.replace(ms, strips={
    ...     "base": strip_set("base", [["FS", "PIC1", "AUS1", "KEY", "FISH1", "AUS2"]] * 5),
    ...     "bonus": strip_set("bonus", [["PIC1", "KEY", "AUS2", "FISH1", "AUS3"]] * 5)})
    >>> wd = win_distribution(tiny)
    >>> sum(p for _, p in wd.base.marginal())
    Fraction(1, 1)
    >>> wd.round.is_exact, wd.round.bound < 1e-12, round(wd.round.mass, 9)
    (False, True, 1.0)
    >>> wd.max_round_win, wd.max_round_exact
    (28210, True)
    """
    require(ms, "distribution")
    model = ms.model
    cycle = math.prod(len(c) for c in ms.strips[model.base_phase.strips].codes)
    stage("base spin")
    base = spin_distribution(ms, model.base_phase, SCATTER_COUNT)
    base_by = by_count(base)
    kind = chain_class(model)
    stage("free-spin levels")
    levels = tuple(spin_distribution(ms, model.level_phase(lv), kind.count_by) for lv in model.levels) \
        if model.trigger else ()
    if falls_game(model):         # awards summed over falls: the tables read the splits indexed by spins
        model = awards_model(ms)
    starts = sorted({initial_spins(model, n) for n in base_by if initial_spins(model, n) > 0})
    if not starts:
        g = _gcd_of_wins([base])
        rd = GridDistribution(g, dict(base.marginal()))
        return WinDistribution(model.bet, base, levels, rd, {}, {}, base.max_win, base.max_win_probability, True, {},
                               cycle)
    # the feature: the game's chain (markov.feature), its kernels' tables by the moves of its runner
    chain = kind.of_splits(model, [count_split(d) for d in levels])
    tables = chain.moves([by_count(d) for d in levels])
    start_of = {n0: chain.start(n0) for n0 in starts}
    finite = getattr(chain, "finite", True)

    def kernels(alg):
        return [{k: alg.kernel(t) for k, t in law.items()} for law in tables]

    trigger_prob: dict[int, Fraction] = defaultdict(Fraction)
    for n, table in base_by.items():
        if initial_spins(model, n):
            trigger_prob[initial_spins(model, n)] += sum(table.values(), Fraction(0))
    g = _gcd_of_wins([base, *levels])
    # the largest round win: exact (max-plus) for a finite chain; else bounded by the spins kept
    max_spins: dict[int, int | None] = {n0: None for n0 in starts}
    truncated: dict[int, float] = {n0: 0.0 for n0 in starts}
    max_feature: dict[int, tuple] = {}
    visits: dict[int, int] = {}
    stage("largest round win")
    if finite:
        ma = MaxAlgebra()
        mk = kernels(ma)
        for n0 in starts:
            max_feature[n0] = run_feature(ma, chain, start_of[n0], mk).value
        top = None
        for n, table in base_by.items():
            b = ma.kernel(table)
            n0 = initial_spins(model, n)
            v = ma.mul(b, max_feature[n0]) if n0 else b
            top = v if top is None else ma.add(top, v)
        max_round, max_round_p = top
        grid_top = max_round
    else:
        mass = MassAlgebra()
        mk = kernels(mass)
        for n0 in starts:
            r = run_feature(mass, chain, start_of[n0], mk, cut_below=TRUNCATE_BELOW)
            max_spins[n0], truncated[n0] = r.spins, r.truncated
            visits[n0] = r.visits
        grid_top = base.max_win + max(max_spins.values()) * levels[0].max_win
    # every kernel must fit on the grid too (a level no path reaches may win more than any round)
    size = max(grid_top, base.max_win, *(d.max_win for d in levels)) // g + 1
    if size > MAX_GRID and not exact:
        raise ValueError(f"the round win takes up to {size:,} points on its grid of {g:,} credits (largest round win "
                         f"{grid_top:,} credits): more than the {MAX_GRID:,} points the win distribution holds "
                         f"in memory")
    if not finite:   # an endless retrigger: the float pass costs one grid product per state visited
        work = fast_length(size) * sum(visits.values())
        if work > MAX_SPECTRAL_WORK:
            raise ValueError(f"unsupported rule: the endless retrigger needs {sum(visits.values()):,} feature states "
                             f"on a {size:,}-point grid ({work:.1e} grid operations, more than the "
                             f"{MAX_SPECTRAL_WORK:.0e} the win distribution allows); give the free spins a retrigger_cap")
    if exact is None:
        exact = finite and size <= EXACT_GRID
    elif exact and size > EXACT_LIMIT:
        raise ValueError(f"the round win takes up to {size} values on its grid: too many for exact Fractions "
                         f"(at most {EXACT_LIMIT}); the float computation has a proven bound")
    def feature(alg, ks, n0):
        if not finite:   # an endless feature: its own sum (the retrigger's cycle lemma), else layer by layer
            v = chain.series(alg, start_of[n0], ks, max_spins[n0])
            if v is not None:
                return v
        return run_feature(alg, chain, start_of[n0], ks, max_spins=max_spins[n0]).value

    def evaluate(alg):
        ks = kernels(alg)
        feats = {n0: feature(alg, ks, n0) for n0 in starts}
        parts = []
        for n, table in sorted(base_by.items()):
            b = alg.kernel(table)
            n0 = initial_spins(model, n)
            parts.append(alg.mul(b, feats[n0]) if n0 else b)
        return combine(alg, parts), feats

    trunc = float(sum(trigger_prob[n0] * Fraction(truncated[n0]) for n0 in starts))
    stage("round (exact)" if exact else "round (FFT)")
    if exact:
        rnd, fvals = evaluate(ExactAlgebra())
        round_grid = GridDistribution(g, {w: p for w, p in rnd.items() if p}, (), trunc)
        feats = {n0: GridDistribution(g, {w: p for w, p in v.items() if p}, (), truncated[n0])
                 for n0, v in fvals.items()}
    else:
        n_fft = fast_length(size)
        alg = SpectralAlgebra(n_fft, g)
        rnd, fvals = evaluate(alg)
        plain = alg.probabilities(rnd)
        passes = [plain]
        cuts = sorted({ceil_int(Fraction(k * model.bet, g)) for k in (*TAIL_BETS, *DEFAULT_EDGES[1:])
                       if tail_at and 0 < k <= tail_at})
        targets = [(a, size, math.fsum(plain.p[a:size])) for a in cuts] + \
            [(a, b, math.fsum(plain.p[a:b])) for a, b in zip(cuts, cuts[1:])]

        def predict(theta):
            ba = BoundAlgebra(n_fft, g, theta)
            with np.errstate(over="ignore", invalid="ignore"):
                return ba.final_bound(evaluate(ba)[0])

        stage("tail (tilted pass)")
        theta = tail_tilt(predict, targets, size)
        if theta:
            talg = SpectralAlgebra(n_fft, g, theta)
            passes.append(talg.probabilities(evaluate(talg)[0]))
        round_grid = GridDistribution(g, None, tuple(passes), trunc)
        feats = {n0: GridDistribution(g, None, (alg.probabilities(v),), truncated[n0]) for n0, v in fvals.items()}

    if finite:
        mr = (max_round, max_round_p)
        mf = {n0: max_feature[n0] for n0 in starts}
    else:
        mr = round_grid.max_positive()
        mf = {n0: feats[n0].max_positive() for n0 in starts}
    return WinDistribution(model.bet, base, levels, round_grid, feats, dict(trigger_prob), mr[0], mr[1], finite, mf,
                           cycle)


#: ``win_distribution(..., progress=None)``: a progress line after 2 s where stderr is a terminal
#: (:mod:`exact.progress`); ``progress=False`` turns it off.
win_distribution = progress_of("win distribution")(win_distribution)
