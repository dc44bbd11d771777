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

from exact.algebras import (BoundAlgebra, ExactAlgebra, GridPass, MassAlgebra, MaxAlgebra, SpectralAlgebra, combine,
                            dyadic)
from exact.distribution_results import (DEFAULT_EDGES, TAIL_BETS, TRUNCATE_BELOW, GridDistribution, WinDistribution,
                                        ceil_int)
from exact.enumeration import awards_model
from exact.falls import falls_game
from exact.one_spin import SCATTER_COUNT, SpinDistribution, spin_distribution
from exact.progress import progress_of, stage as progress_stage
from exact.round_stages import ChainStage
from exact.rules import initial_spins, require, round_split
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


#: A folded grid is used only when its folding term is at most this share of the pass's own bound.
FOLD_SHARE = 1e-3
#: Fewest grid points of a folded grid (below, the saving is not worth the scalar passes).
FOLD_MIN = 1 << 12
#: The tilts (per grid point) tried by Chernoff's bound of a folded grid (one scalar chain pass each).
TILTS = np.geomspace(1e-9, 1.0, 46)


def fold_bound(log_mass, m: int, top: int, theta: float = 0.0) -> float:
    """The error that folding a distribution of grid points 0..``top`` onto ``m`` points adds to a pass
    tilted by ``theta`` (0: the plain pass), bounded by Chernoff's inequality.

    The FFT's products are circular: on ``m`` points the pass computes the distribution folded modulo
    ``m`` (folding is a ring homomorphism of the convolution, so each product may fold at once).  In the
    pass's (tilted) coordinates the folded entries add a non-negative error of total
    ``T = sum_{i >= m} p_i e^(theta i) <= E[e^(t I)] e^(-(t - theta) m)`` for every ``t > theta``
    (Markov's inequality on e^((t - theta) I)), and the entries beyond ``m`` are missing: at most ``T`` of
    probability in a pass's coordinates and ``T top`` grid points of mean.  Both are covered, for every
    probability and every mean the queries read (whose bounds multiply the pass's bound by a weight norm
    of at least ``(m - 1) e^(-theta m)`` grid points on a range reaching ``m``), when the pass's bound grows by
    ``F = 2 T max(1, top / (m - 1))``.

    Parameters
    ----------
    log_mass : callable t -> float
        log of an upper bound of ``E[e^(t I)]`` (I the win in grid points; -inf..inf, nan/inf when unknown).
    m : int
        Points of the folded grid.
    top : int
        Largest grid point of the distribution.
    theta : float
        The pass's tilt.

    Returns
    -------
    float
        ``F``; ``inf`` when no ``t`` gives a finite bound; 0 when nothing folds (``m > top``).
        ``F / (2 max(1, top / (m - 1)))`` bounds ``T``, the (tilted) mass beyond the grid.

    Examples
    --------
    A geometric win, P(I = i) = 2^-(i+1) on 0..199, folded onto 64 points: P(I >= 64) = 2^-64, and the
    Chernoff bound holds it (a few hundred times above, the price of a bound from the mass alone):

    >>> lm = lambda t: math.log(sum(math.exp(t * i) * 2.0 ** -(i + 1) for i in range(200)))
    >>> 2 * 2.0 ** -64 * 199 / 63 < fold_bound(lm, 64, 199) < 1e-15
    True
    >>> fold_bound(lm, 200, 199)
    0.0
    """
    if m > top:
        return 0.0
    best = math.inf
    for t in theta + TILTS[TILTS <= 700.0 / m]:
        lm = log_mass(float(t))
        if math.isfinite(lm):
            best = min(best, lm - (float(t) - theta) * m)
    if not math.isfinite(best) or best > 700:
        return math.inf
    return 2 * math.exp(best) * max(1.0, top / max(m - 1, 1)) * (1 + 1e-6)


def folded(ps: GridPass, extra: float) -> GridPass:
    """The pass with its bound grown by a folding term (:func:`fold_bound`)."""
    return GridPass(ps.p, ps.bound + extra, ps.theta) if extra else ps


def padded(ps: GridPass, n: int) -> GridPass:
    """The pass on ``n`` >= its points, the entries beyond it 0: their true mass, below the pass's folding
    term, is already in its bound (:func:`fold_bound`)."""
    if len(ps.p) >= n:
        return ps
    return GridPass(np.concatenate([ps.p, np.zeros(n - len(ps.p))]), ps.bound, ps.theta)


def _gcd_of_wins(dists) -> int:
    g = 0
    for d in dists:
        for w in np.unique(d.wins):
            g = gcd(g, int(w))
    return g or 1


class SpinStage:
    """The round before its feature as the win distribution plays it: a spin split by the count that
    starts the free spins (the default round: ``model``'s base spin, ``by[n] = {win: P(n, win)}``).

    A round stage gives the distribution its parts: ``starts`` (the initial spins of every feature it
    may start), ``trigger_prob`` (initial spins -> P), ``wins`` (every credit value a kernel of the stage
    takes, for the grid's step), ``max_win`` (the largest), ``max_before`` (the largest win before a
    feature) and ``value(alg, feats)``: the round in the algebra ``alg`` given each feature's value
    ``feats[n0]`` (:mod:`exact.algebras`).  :mod:`exact.round_distribution` gives the stages of the bet
    modes' respins and prize wheels and of the buys.

    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> st = SpinStage(ms.model, spin_distribution(ms, ms.model.base_phase, SCATTER_COUNT))
    >>> st.starts, st.max_win == st.base.max_win
    ([10, 15, 20], True)
    """

    def __init__(self, model, base: SpinDistribution):
        self.model, self.base = model, base
        self.by = by_count(base)
        self.starts = sorted({initial_spins(model, n) for n in self.by if initial_spins(model, n) > 0})
        tp: dict[int, Fraction] = defaultdict(Fraction)
        for n, table in self.by.items():
            if initial_spins(model, n):
                tp[initial_spins(model, n)] += sum(table.values(), Fraction(0))
        self.trigger_prob = dict(tp)
        self.wins = tuple(int(w) for w in np.unique(base.wins))
        self.max_win = self.max_before = base.max_win

    def value(self, alg, feats: dict):
        parts = []
        for n, table in sorted(self.by.items()):
            b = alg.kernel(table)
            n0 = initial_spins(self.model, n)
            parts.append(alg.mul(b, feats[n0]) if n0 else b)
        return combine(alg, parts)


def _gcd_of_values(values) -> int:
    g = 0
    for w in values:
        g = gcd(g, int(w))
    return g


def win_distribution(ms: MathSet, exact: bool | None = None,
                     tail_at: int | None = max(TAIL_BETS), stage=None, bet: int | None = None) -> WinDistribution:
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
    stage : SpinStage-like, optional
        The round before its feature (:class:`SpinStage`; default the base spin split by its trigger count):
        a bet mode's respin and prize wheels, a buy (:mod:`exact.round_distribution`).
    bet : int, optional
        Credits per round (default ``ms.model.bet``; a buy's cost).

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
    if stage is None:
        require(ms, "distribution")
    model = ms.model
    if stage is None and round_split(model):     # the round's respin, prize wheels, several scatters
        stage = ChainStage(ms)
    bet = model.bet if bet is None else bet
    cycle = math.prod(len(c) for c in ms.strips[model.base_phase.strips].codes)
    progress_stage("base spin")
    base = spin_distribution(ms, model.base_phase, SCATTER_COUNT) if stage is None else stage.base
    kind = chain_class(model)
    progress_stage("free-spin levels")
    spin = getattr(stage, "spin", spin_distribution)     # a stage may split the spins by its own counts
    levels = tuple(spin(ms, model.level_phase(lv), kind.count_by) for lv in model.levels) \
        if model.trigger else ()
    if falls_game(model):         # awards summed over falls: the tables read the splits indexed by spins
        model = awards_model(ms)
    if stage is None:
        stage = SpinStage(model, base)
    starts = stage.starts
    if not starts and isinstance(stage, SpinStage):
        g = _gcd_of_wins([base])
        rd = GridDistribution(g, dict(base.marginal()))
        return WinDistribution(bet, base, levels, rd, {}, {}, base.max_win, base.max_win_probability, True, {},
                               cycle)
    # the feature: the game's chain (markov.feature), its kernels' tables by the moves of its runner
    if starts:
        chain = kind.of_splits(model, [count_split(d) for d in levels])
        tables = chain.moves([by_count(d) for d in levels])
        start_of = {n0: chain.start(n0) for n0 in starts}
        finite = getattr(chain, "finite", True)
    else:
        chain, tables, start_of, finite = None, [], {}, True
    if not finite and not isinstance(stage, SpinStage):
        raise ValueError("unsupported rule: an endless retrigger after a respin, a prize wheel or a buy (the win "
                         "distribution's largest round win needs a finite feature there); give the free spins a "
                         "retrigger_cap")

    def kernels(alg):
        return [{k: alg.kernel(t) for k, t in law.items()} for law in tables]

    trigger_prob = stage.trigger_prob
    g = _gcd_of_values([*stage.wins, *(int(w) for d in levels for w in np.unique(d.wins))]) or 1
    # the largest round win: exact (max-plus) for a finite chain; else bounded by the spins kept
    max_spins: dict[int, int | None] = {n0: None for n0 in starts}
    truncated: dict[int, float] = {n0: 0.0 for n0 in starts}
    max_feature: dict[int, tuple] = {}
    visits: dict[int, int] = {}
    progress_stage("largest round win")
    if finite:
        ma = MaxAlgebra()
        mk = kernels(ma)
        for n0 in starts:
            max_feature[n0] = run_feature(ma, chain, start_of[n0], mk).value
        max_round, max_round_p = stage.value(ma, max_feature)
        grid_top = max_round
    else:
        mass = MassAlgebra()
        mk = kernels(mass)
        for n0 in starts:
            r = run_feature(mass, chain, start_of[n0], mk, cut_below=TRUNCATE_BELOW)
            max_spins[n0], truncated[n0] = r.spins, r.truncated
            visits[n0] = r.visits
        grid_top = stage.max_before + max(max_spins.values()) * levels[0].max_win
    # every kernel must fit on the grid too (a level no path reaches may win more than any round)
    size = max(grid_top, stage.max_win, *(d.max_win for d in levels)) // g + 1
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
        return stage.value(alg, feats), feats

    trunc = float(sum(trigger_prob.get(n0, 0) * Fraction(truncated[n0]) for n0 in starts))
    progress_stage("round (exact)" if exact else "round (FFT)")
    if exact:
        rnd, fvals = evaluate(ExactAlgebra())
        round_grid = GridDistribution(g, {w: p for w, p in rnd.items() if p}, (), trunc)
        feats = {n0: GridDistribution(g, {w: p for w, p in v.items() if p}, (), truncated[n0])
                 for n0, v in fvals.items()}
    else:
        n_full = fast_length(size)
        cuts = sorted({ceil_int(Fraction(k * bet, g)) for k in (*TAIL_BETS, *DEFAULT_EDGES[1:])
                       if tail_at and 0 < k <= tail_at})
        log_masses: dict = {}

        arrays: dict = {}

        def bounds_at(n, theta):
            """(round, {feature}) as (mass, bound) pairs of a pass of ``n`` points tilted by ``theta``."""
            ba = BoundAlgebra(n, g, theta, arrays)
            with np.errstate(over="ignore", invalid="ignore"):
                return evaluate(ba)

        def log_mass(which):
            def lm(t):
                if t not in log_masses:
                    r, f = bounds_at(n_full, t)
                    log_masses[t] = (r, f)
                r, f = log_masses[t]
                v = r if which is None else f[which]
                return math.log(v[0]) if v[0] > 0 and math.isfinite(v[0]) else math.inf
            return lm

        def folds(n, theta):
            """The folding term of every pass on ``n`` points (round first, then each feature; tilted
            passes only for the round), or None when one exceeds FOLD_SHARE of its pass's bound."""
            if n >= n_full:
                return 0.0, {n0: 0.0 for n0 in starts}
            r, f = bounds_at(n, theta)
            ba = BoundAlgebra(n, g, theta)
            fr = fold_bound(log_mass(None), n, size - 1, theta)
            if not fr <= FOLD_SHARE * ba.final_bound(r):
                return None
            if theta:
                return fr, {}
            ff = {n0: fold_bound(log_mass(n0), n, size - 1) for n0 in starts}
            if not all(ff[n0] <= FOLD_SHARE * ba.final_bound(f[n0]) for n0 in starts):
                return None
            return fr, ff

        # the smallest grid (a doubling ladder of fast lengths) whose folding is negligible against the
        # pass's own bound: every kernel and every cut point must lie on it; the tilted pass, whose tail
        # weighs more, may need a longer one, and the plain pass is then padded with zeros to its length
        # (the missing entries are within the plain pass's folding term)
        low = max([d.max_win // g + 1 for d in levels] + [stage.max_win // g + 1] + [c + 1 for c in cuts] +
                  [FOLD_MIN])
        n_plain, fold = n_full, (0.0, {n0: 0.0 for n0 in starts})
        n = fast_length(low)
        while n < n_full:
            got = folds(n, 0.0)
            if got is not None:
                n_plain, fold = n, got
                break
            n = fast_length(2 * n)
        alg = SpectralAlgebra(n_plain, g)
        rnd, fvals = evaluate(alg)
        plain = folded(alg.probabilities(rnd), fold[0])
        span = min(size, n_plain)
        targets = [(a, span, math.fsum(plain.p[a:span])) for a in cuts] + \
            [(a, b, math.fsum(plain.p[a:b])) for a, b in zip(cuts, cuts[1:])]

        progress_stage("tail (tilted pass)")
        theta = tail_tilt(lambda t: BoundAlgebra(n_plain, g, t).final_bound(bounds_at(n_plain, t)[0]), targets, span)
        n_fft, tilt_fold = n_plain, 0.0
        if theta:
            n_fft = n_plain
            while n_fft < n_full:
                got = folds(n_fft, theta)
                if got is not None:
                    tilt_fold = got[0]
                    break
                n_fft = fast_length(2 * n_fft)
            n_fft = min(n_fft, n_full)
        passes = [padded(plain, n_fft)]
        if theta:
            talg = SpectralAlgebra(n_fft, g, theta)
            passes.append(folded(talg.probabilities(evaluate(talg)[0]), tilt_fold))
        def beyond(f):      # P(beyond the grid) and its mean, from a plain pass's folding term
            if not f:       # nothing folded (the grid holds every win)
                return {}
            t = f / (2 * max(1.0, (size - 1) / (n_plain - 1)))
            return dict(beyond=t, beyond_mean=t * (size - 1) * g)
        round_grid = GridDistribution(g, None, tuple(passes), trunc, **beyond(fold[0]))
        feats = {n0: GridDistribution(g, None, (padded(folded(alg.probabilities(v), fold[1][n0]), n_fft),),
                                      truncated[n0], **beyond(fold[1][n0])) for n0, v in fvals.items()}

    if finite:
        mr = (max_round, max_round_p)
        mf = {n0: max_feature[n0] for n0 in starts}
    else:
        mr = round_grid.max_positive()
        mf = {n0: feats[n0].max_positive() for n0 in starts}
    return WinDistribution(bet, base, levels, round_grid, feats, dict(trigger_prob), mr[0], mr[1], finite, mf,
                           cycle)


#: ``win_distribution(..., progress=None)``: a progress line after 2 s where stderr is a terminal
#: (:mod:`exact.progress`); ``progress=False`` turns it off.
win_distribution = progress_of("win distribution")(win_distribution)
