"""The results of the win distribution: a distribution on the win grid (exact, or floats with a proven
bound), the whole distribution of a math set (one spin of every phase, each feature, the round), its win
ranges and percentiles.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple, Sequence

import numpy as np

from exact.algebras import U
from exact.formatting import digits_text, sig_fraction
from exact.notebook import distribution_frame, frames as _frames
from exact.one_spin import SpinDistribution
from exact.plot import plot_distribution
from exact.tables import distribution_tables, html_tables

#: Mass of the live free-spin states below which an endless (uncapped) retrigger feature is cut off.
TRUNCATE_BELOW = 1e-15


def ceil_int(x) -> int:
    x = Fraction(x)
    return -(-x.numerator // x.denominator)


def exact_number(x):
    if x is None:
        return None
    x = Fraction(x)
    return x.numerator if x.denominator == 1 else x


def bets_text(x) -> str:
    """An edge or amount in bets, exact, without trailing zeros."""
    if x is None:
        return "inf"
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    text = sig_fraction(x, 8)
    return text.rstrip("0").rstrip(".") if "." in text and "e" not in text else text


@dataclass(frozen=True)
class WinRange:
    """One row of the win-range table (multiples of the bet).

    Attributes
    ----------
    from_bets, to_bets : int or Fraction; to_bets None for the open top range
        The range [from, to) in bets; ``from_bets == to_bets == 0`` is the row "no win" (win = 0);
        the row from 0 to 1 is (0, 1): wins above 0.
    probability : Fraction or float
        P(round win in the range); a float is within ``bound``.
    rtp : Fraction or float
        E[round win 1{range}] / bet (a fraction of 1); a float is within ``rtp_bound``.
    bound, rtp_bound : float
        0 when exact.
    hits : int, Fraction or None
        Hits per cycle (P x the base strips' stop combinations) where the row is the base
        spin's, exact; None otherwise.
    """

    from_bets: object
    to_bets: object
    probability: object
    rtp: object
    bound: float = 0.0
    rtp_bound: float = 0.0
    hits: object = None

    @property
    def one_in(self):
        """1 / probability (None when 0)."""
        return 1 / self.probability if self.probability else None


#: Default edges of the win-range table, in bets.
DEFAULT_EDGES = (0, 1, 2, 5, 10, 20, 50, 100, 250, 500, 1000, 5000)
#: Percentiles reported (per cent).
PERCENTILES = ("50", "90", "99", "99.9", "99.99")
#: Tail thresholds k of P(round win >= k x bet).
TAIL_BETS = (1, 10, 100, 1000, 5000)


class Percentile(NamedTuple):
    """A percentile of a win: ``bets`` (exact, multiples of the bet, as ``rtp distribution`` prints),
    ``credits`` (int) and ``certain`` (False when the float bound leaves the grid point in doubt)."""

    bets: object
    credits: int
    certain: bool


def _percentile(credits: int, certain: bool, bet: int) -> Percentile:
    return Percentile(exact_number(Fraction(credits, bet)), int(credits), bool(certain))


@dataclass(frozen=True)
class GridDistribution:
    """A distribution of wins on the grid 0, step, 2 step, ... credits: exact, or floats with a bound.

    Attributes
    ----------
    step : int
        Grid step, credits (the gcd of every possible win).
    exact : dict {win credits: Fraction} or None
        Every win of positive probability, when computed exactly.
    passes : tuple of GridPass
        The float evaluations (empty when exact): the plain one first, then tilted ones that
        give the tail many more certain digits.  Each figure is read from the pass whose bound
        for it is smallest.
    truncated : float
        Mass cut off (endless retrigger), not in the distribution.
    beyond, beyond_mean : float
        When the grid was folded (fewer points than the largest win, :func:`exact.feature_runner.fold_bound`):
        bounds of P(win beyond the grid) and of E[win 1{win beyond the grid}] (credits); 0 otherwise.
    """

    step: int
    exact: dict | None
    passes: tuple = ()
    truncated: float = 0.0
    beyond: float = 0.0
    beyond_mean: float = 0.0

    @property
    def is_exact(self) -> bool:
        return self.exact is not None

    @property
    def probabilities(self) -> np.ndarray | None:
        """Float P(win = i x step) per grid point, each from the pass with the smallest bound there."""
        if self.exact is not None:
            return None
        return self._best()[0]

    @property
    def bound(self) -> float:
        """A bound on the error of every float probability (0 when exact)."""
        return 0.0 if self.exact is not None else self.passes[0].bound

    def _best(self):
        if not hasattr(self, "_cache"):
            p = self.passes[0].p.copy()
            b = self.passes[0].entry_bounds()
            for ps in self.passes[1:]:
                eb = ps.entry_bounds()
                better = eb < b
                p[better] = ps.p[better]
                b[better] = eb[better]
            object.__setattr__(self, "_cache", (p, b))
        return self._cache

    def entry_bounds(self) -> np.ndarray | None:
        """The bound of each float probability (per grid point)."""
        return None if self.exact is not None else self._best()[1]

    def items(self) -> list[tuple[int, object]]:
        """[(win credits, probability)] ascending: every positive exact entry, or every float entry above its bound."""
        if self.exact is not None:
            return sorted((w, p) for w, p in self.exact.items() if p)
        p, b = self._best()
        idx = np.flatnonzero(p > b)
        return [(int(i) * self.step, float(p[i])) for i in idx]

    def _span(self, lo: int, hi: int | None) -> tuple[int, int]:
        n = len(self.passes[0].p)
        a = min(-(-lo // self.step), n)
        b = n if hi is None else min(-(-hi // self.step), n)
        return a, max(a, b)

    def prob_between(self, lo: int, hi: int | None) -> tuple[object, float]:
        """P(lo <= win < hi) (hi None: no upper end), credits; with its bound."""
        if self.exact is not None:
            return sum((p for w, p in self.exact.items() if w >= lo and (hi is None or w < hi)), Fraction(0)), 0.0
        a, b = self._span(lo, hi)
        if b == a:
            return 0.0, (self.beyond if a == len(self.passes[0].p) else 0.0)
        best = self._direct(a, b)
        n = len(self.passes[0].p)
        if a > 0 or b < n:
            # the complement: the total mass is 1 - truncated, so P(range) = 1 - truncated - P(outside)
            va, ba = self._direct(0, a) if a > 0 else (0.0, 0.0)
            vb, bb = self._direct(b, n) if b < n else (0.0, 0.0)
            v = (1.0 - self.truncated) - va - vb
            bd = ba + bb + 4 * U + self.truncated * 1e-12
            if bd < best[1]:
                best = (v, bd)
        return best

    def _direct(self, a: int, b: int) -> tuple[float, float]:
        """The sum of grid points a..b-1 and its bound, from the pass that bounds it best."""
        best = None
        for ps in self.passes:
            v = math.fsum(ps.p[a:b])
            bd = ps.bound * float(np.linalg.norm(ps.weights(a, b))) * (1 + 1e-9) + (b - a) * U * abs(v) \
                + math.fsum(ps.untilt_error(a, b))
            if best is None or bd < best[1]:
                best = (v, bd)
        return best

    def win_between(self, lo: int, hi: int | None) -> tuple[object, float]:
        """E[win 1{lo <= win < hi}], credits; with its bound."""
        if self.exact is not None:
            return sum((w * p for w, p in self.exact.items() if w >= lo and (hi is None or w < hi)), Fraction(0)), 0.0
        a, b = self._span(lo, hi)
        if b == a:
            return 0.0, (self.beyond_mean if a == len(self.passes[0].p) else 0.0)
        x = np.arange(a, b, dtype=np.float64) * self.step
        best = None
        for ps in self.passes:
            v = math.fsum(x * ps.p[a:b])
            bd = ps.bound * float(np.linalg.norm(x * ps.weights(a, b))) * (1 + 1e-9) + (b - a) * 2 * U * abs(v) \
                + math.fsum(x * ps.untilt_error(a, b))
            if best is None or bd < best[1]:
                best = (v, bd)
        return best

    @property
    def mass(self):
        return self.prob_between(0, None)[0]

    @property
    def mean(self):
        return self.win_between(0, None)[0]

    def percentile(self, q: Fraction) -> tuple[int, bool]:
        """Smallest win w with P(win <= w) >= q, credits; and whether the bound leaves it certain."""
        if self.exact is not None:
            acc = Fraction(0)
            items = self.items()
            for w, p in items:
                acc += p
                if acc >= q:
                    return w, True
            return items[-1][0], False
        ps = self.passes[0]
        cdf = np.cumsum(ps.p)
        i = min(int(np.searchsorted(cdf, float(q))), len(cdf) - 1)

        def err(j):
            return ps.bound * np.sqrt(j + 1) + (j + 1) * 4 * U

        certain = cdf[i] - err(i) >= float(q) and (i == 0 or cdf[i - 1] + err(i - 1) < float(q))
        return i * self.step, bool(certain)

    def max_positive(self) -> tuple[int, object]:
        """The largest win whose probability is certainly above 1e-15 (float), or > 0 (exact)."""
        if self.exact is not None:
            w = max(w for w, p in self.exact.items() if p)
            return w, self.exact[w]
        p, b = self._best()
        idx = np.flatnonzero(p - b > TRUNCATE_BELOW)
        i = int(idx[-1]) if len(idx) else 0
        return i * self.step, float(p[i])

    def __repr__(self) -> str:
        kind = "exact" if self.exact is not None else f"floats within {self.bound:.1e}"
        n = len(self.exact) if self.exact is not None else len(self.passes[0].p)
        return f"GridDistribution({kind}, step={self.step} credits, points={n})"


@dataclass(frozen=True)
class WinDistribution:
    """The whole win distribution of a math set: one spin of every phase and the round.

    Attributes
    ----------
    bet : int
        Credits per round.
    base : SpinDistribution
        The base spin, exact, joint with the scatter count.
    levels : tuple of SpinDistribution
        One spin of each free-spin level, exact, joint with the KEY count (the ladder) or the
        scatter count (a game with retrigger).
    round : GridDistribution
        The round win (base spin + its free spins).
    features : dict {initial free spins: GridDistribution}
        The win of the free spins per trigger.
    trigger_prob : dict {initial free spins: Fraction}
        P(the base spin triggers that many initial free spins).
    max_round_win : int
        Largest possible round win, credits (for an endless retrigger: the largest win whose
        probability is above 1e-15, see ``max_round_exact``).
    max_round_win_probability : Fraction or float
    max_round_exact : bool
        True when the maximum and its probability are exact (finite chain).
    max_feature : dict {initial free spins: (win, probability)}
    base_cycle : int
        Stop combinations of the base strips (the product of their lengths: the PAR sheet's
        cycle); 0 when unknown.
    """

    bet: int
    base: SpinDistribution
    levels: tuple
    round: GridDistribution
    features: dict
    trigger_prob: dict
    max_round_win: int
    max_round_win_probability: object
    max_round_exact: bool
    max_feature: dict
    base_cycle: int = 0

    # -- figures ----------------------------------------------------------
    def _range_cuts(self, edges: Sequence) -> list[tuple[int, int | None, Fraction, Fraction | None]]:
        """(lo, hi credits, from, to bets) of each row: 0 (no win), then [e_i, e_{i+1}) bets, the last open."""
        edges = [Fraction(e) for e in edges]
        if not edges or edges[0] != 0 or any(b <= a for a, b in zip(edges, edges[1:])):
            raise ValueError(f"win-range edges must start at 0 and ascend strictly, got {edges}")
        out = [(0, 1, Fraction(0), Fraction(0))]   # the win 0 alone
        cuts = [e * self.bet for e in edges] + [None]
        for i, (a, b) in enumerate(zip(cuts, cuts[1:])):
            lo = 1 if a == 0 else ceil_int(a)
            hi = None if b is None else ceil_int(b)
            out.append((lo, hi, edges[i], None if b is None else edges[i + 1]))
        return out

    def win_ranges(self, edges: Sequence = DEFAULT_EDGES) -> list[WinRange]:
        """The win-range table of the round: the row 0 (no win), then [e_i, e_{i+1}) bets, the last open.

        ``edges`` ascending, starting at 0, in bets (int or Fraction).  Hits per cycle are given
        only when the round is the base spin alone (a game without free spins); see
        :meth:`base_win_ranges`.

        Raises
        ------
        ValueError
            Edges not strictly ascending, or not starting at 0.
        """
        if not self.trigger_prob:
            return self.base_win_ranges(edges)
        rows = []
        for lo, hi, fa, fb in self._range_cuts(edges):
            p, pb = self.round.prob_between(lo, hi)
            w, wb = self.round.win_between(lo, hi)
            rows.append(WinRange(exact_number(fa), exact_number(fb), p, w / self.bet, pb, wb / self.bet))
        return rows

    def base_win_ranges(self, edges: Sequence = DEFAULT_EDGES) -> list[WinRange]:
        """The win-range table of one base spin, exact, with hits per cycle.

        ``hits`` = P(range) x :attr:`base_cycle` (stop combinations of the base strips): an
        integer where the win depends on the stops alone, an exact fraction (expected hits)
        where a FISH value or a WILD multiplier is drawn.

        >>> from strips.loader import load_math_set
        >>> from exact.distribution import win_distribution
        >>> wd = win_distribution(load_math_set("rules_page"))
        >>> rows = wd.base_win_ranges()
        >>> sum(r.probability for r in rows), sum(r.rtp for r in rows) * wd.bet == wd.base.mean
        (Fraction(1, 1), True)
        >>> rows[0].hits + sum(r.hits for r in rows[1:]) == wd.base_cycle == 10**10
        True
        """
        marginal = self.base.marginal()
        rows = []
        for lo, hi, fa, fb in self._range_cuts(edges):
            inside = [(w, p) for w, p in marginal if w >= lo and (hi is None or w < hi)]
            p = sum((q for _, q in inside), Fraction(0))
            rtp = sum((w * q for w, q in inside), Fraction(0)) / self.bet
            hits = p * self.base_cycle if self.base_cycle else None
            rows.append(WinRange(exact_number(fa), exact_number(fb), p, rtp,
                                 hits=None if hits is None else exact_number(hits)))
        return rows

    def tail(self, k) -> tuple[object, float]:
        """P(round win >= k x bet) with its bound."""
        return self.round.prob_between(ceil_int(Fraction(k) * self.bet), None)

    @property
    def hit_frequency(self) -> tuple[object, float]:
        """P(round win > 0) with its bound."""
        return self.round.prob_between(1, None)

    def percentiles(self, qs: Sequence[str] = PERCENTILES) -> dict[str, Percentile]:
        """{per cent: Percentile(bets, credits, certain)}: the smallest round win w with P(win <= w) >= q,
        in bets (as ``rtp distribution`` prints) with credits beside."""
        return {q: _percentile(*self.round.percentile(Fraction(q) / 100), self.bet) for q in qs}

    def feature_percentiles(self, qs: Sequence[str] = PERCENTILES) -> dict[int, dict[str, Percentile]]:
        """Per trigger (initial free spins): the percentiles of the feature win (bets, credits, certain)."""
        return {n: {q: _percentile(*f.percentile(Fraction(q) / 100), self.bet) for q in qs}
                for n, f in self.features.items()}

    @property
    def max_base_win(self) -> tuple[int, Fraction]:
        return self.base.max_win, self.base.max_win_probability

    @property
    def max_level_wins(self) -> tuple[tuple[int, Fraction], ...]:
        return tuple((d.max_win, d.max_win_probability) for d in self.levels)

    # -- notebook views -------------------------------------------------------
    def __repr__(self) -> str:
        r = self.round
        kind = "exact" if r.is_exact else f"floats within {r.bound:.1e}"
        return (f"WinDistribution(bet={self.bet} credits, round {kind}, max_round_win={self.max_round_win} credits "
                f"= {bets_text(Fraction(self.max_round_win, self.bet))} x bet, base entries={len(self.base.wins)})")

    def tables(self, frames: bool = True) -> dict:
        """The tables of ``rtp distribution`` (win ranges, tail, percentiles in bets and credits, max
        wins) as {name: DataFrame} with ``_float`` columns beside the exact ones; ``frames=False``:
        plain :class:`exact.tables.Table` objects (no pandas needed).

        Raises
        ------
        ImportError
            pandas is not installed (one line naming ``pip install 'slot-exact[notebook]'``).
        """
        tables = distribution_tables(self, TAIL_BETS)
        return _frames(tables) if frames else tables

    def to_frame(self, which: str = "round"):
        """The distribution as a DataFrame, one row per win: ``win_credits``, ``win_bets``,
        ``probability`` (exact Fraction, or a float within ``bound``), ``probability_float``,
        ``bound``, ``at_least_float``; ``which="base"``: one base spin (exact).

        Raises
        ------
        ImportError
            pandas is not installed.
        ValueError
            ``which`` is neither ``"round"`` nor ``"base"``.
        """
        return distribution_frame(self, which)

    def plot(self, ax=None, title: str | None = None, edges=None):
        """Survival P(round win >= x) and the probability of each win range, log scale (matplotlib).

        ``ax`` an existing matplotlib Axes (a new figure when None); ``edges`` the win ranges' edges in bets
        (as :meth:`win_ranges`; default its own).  Returns the Axes.  See :func:`exact.plot.plot_distribution`.
        """
        return plot_distribution(self, ax=ax, title=title, edges=edges)

    def _repr_html_(self) -> str:
        """Win ranges, tail, percentiles and max wins as HTML tables (no raw arrays)."""
        r = self.round
        lines = [f"bet {self.bet} credits; wins in multiples of the bet",
                 "round: exact (Fractions)" if r.is_exact else
                 f"round: floats on a grid of {r.step} credits, every probability within {r.bound:.1e}"]
        return html_tables("Win distribution", self.tables(frames=False).values(), lines)
