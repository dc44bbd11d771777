r"""Exact sensitivities of the RTP: every single-symbol strip edit and every FISH weight.

Strip edits
-----------
An edit replaces the symbol at one position of one reel strip (base or bonus)
by another symbol the game allows there (rules page section 4).  The edit
changes only the ``rows`` windows of that reel whose stop is one of the
``rows`` positions ending at the edited one; every other reel keeps its
tables.  The RTP after the edit is computed *exactly* from those changes, by
the same per-reel factorisation as :mod:`exact.engine`, without re-analysing
the set:

**Mean of a phase.**  With the product terms :math:`t` of the engine,
:math:`D\,E[W]/m = \frac{1}{T}\sum_t a_t \prod_r M_r[t]`, where
:math:`M_r[t] = \sum_s E[g_{t,r}(s)]` is reel r's first moment (a sum over its
stops) and :math:`T = \prod_r L_r`.  The mean is linear in each reel's
:math:`M_r`, so an edit of reel r changes it by
:math:`\frac{1}{T}\sum_t \delta M_r[t]\, a_t \prod_{r'\ne r} M_{r'}[t]`, with
:math:`\delta M_r` the change of the first moments of the ``rows`` affected
windows.  The term list holds every collect term the placement rules allow
(not only those present on the strips), so an edit that brings the first KEY
or FISH to a reel is covered.

**Base strips.**  The round's mean is
:math:`E[B] + \sum_n P(N = n) F_n` (:mod:`markov.round`); a base edit changes
:math:`E[B]` (above) and the scatter-count distribution
:math:`P(N=n) = [z^n]\prod_r q_r(z)/T`, linear in the edited reel's count
polynomial :math:`q_r`; the feature means :math:`F_n` do not change.  So a
base edit's RTP change is exact and linear.

**Bonus strips.**  The feature mean is (Wald's identity, see
:mod:`markov.chain`) :math:`F_n = \sum_L \text{spins}_n(L)\,\text{reach}_n(L)\,
E[W_L]`: each level plays a fixed number of spins of mean :math:`E[W_L]`, and
whether it is reached depends only on the KEY counts of earlier spins.  The
reach probabilities depend on the strips only through the per-spin
KEY-count distribution (the same for every level: all levels spin the bonus
strips).  Hence

* an edit that neither removes nor places a KEY leaves every reach
  probability unchanged, and the RTP change is linear in the levels'
  :math:`\delta E[W_L]`;
* an edit that removes or places a KEY changes the KEY-count distribution;
  the reach probabilities are then recomputed exactly with
  :func:`markov.chain.feature_results` (on a ladder whose splits carry the new
  KEY-count probabilities), once per distinct new distribution (few: they
  depend only on the KEY counts of the affected windows), and combined with
  the levels' new means.

Every delta is an exact Fraction; the consistency of the pieces with the full
analysis (base mean, trigger probabilities, level means, feature means) is
checked before any edit is evaluated.

FISH weights
------------
A FISH value enters the win only through the collect win
:math:`K \sum_{\text{FISH}} v` (section 8), and values are independent of the
stops (section 7), so the mean win of a phase is affine in the mean value
:math:`\mu_{s}` of each FISH symbol s:
:math:`\partial E[W]/\partial\mu_s = m\,E[K N_s]` (m the multiplier, K the KEY
count and :math:`N_s` the count of s in the window).  The reach probabilities
do not depend on FISH values, so the RTP is affine in every
:math:`\mu_{s,\text{table}}` and, with :math:`\mu = \sum_j w_j v_j / W`,

.. math:: \frac{\partial\,\text{RTP}}{\partial w_j}
          = \frac{\partial\,\text{RTP}}{\partial \mu}\,\frac{v_j - \mu}{W}.

References
----------
Rules page sections 3 (windows), 4 (placement), 6-8 (the win), 10 (trigger),
11 (levels); :mod:`exact.engine` (factorisation), :mod:`markov.round` (round
mean), :mod:`markov.chain` (reach, Wald's identity).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from math import lcm, prod
from typing import Sequence

import numpy as np

from exact.rules import initial_spins, require
from exact.polynomials import dense, poly_mul
from exact.progress import progress_of
from exact.engine import (GameAnalysis, Term, analyse, fish_scale, product_terms, reel_tables, term_factors)
from strips.model import FISH, KEY, GameModel, MathSet, window_codes
from markov.moments import COLLECT, CountSplit
from exact.formatting import fraction_text, percent, table_lines
from markov.chain import FeatureResult, Ladder, feature_results, features_by_trigger, ladder_of
from markov.round import round_result
from strips.published import window_positions

ZERO = Fraction(0)


# --------------------------------------------------------------------------
# result types
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class StripEdit:
    """One single-symbol replacement on a reel strip.

    Attributes
    ----------
    strip_set : str
        ``"base"`` or ``"bonus"``.
    reel : int
        0-based reel index (printed 1-based).
    position : int
        0-based strip position.
    old, new : str
        Symbol names before and after.
    """

    strip_set: str
    reel: int
    position: int
    old: str
    new: str

    def __str__(self) -> str:
        return f"{self.strip_set} reel {self.reel + 1} pos {self.position}: {self.old} -> {self.new}"


@dataclass(frozen=True)
class EditSensitivity:
    """The exact RTP change of one strip edit (a fraction of 1: 0.01 is one percentage point).

    ``breaks`` names what the edit breaks that the set kept before (a strip
    rule of rules-page section 3, or a window the page publishes); empty when
    the edit keeps them all.
    """

    edit: StripEdit
    delta: Fraction
    breaks: str = ""


@dataclass(frozen=True)
class Lever:
    """Equivalent strip edits: one replacement at any of ``positions`` of one reel, same exact RTP change."""

    strip_set: str
    reel: int
    positions: tuple[int, ...]
    old: str
    new: str
    delta: Fraction

    def __str__(self) -> str:
        pos = ", ".join(map(str, self.positions[:6])) + (f" (+{len(self.positions) - 6} more)"
                                                         if len(self.positions) > 6 else "")
        return f"{self.strip_set} reel {self.reel + 1} pos {pos}: {self.old} -> {self.new}"


@dataclass(frozen=True)
class WeightSensitivity:
    """Exact partial derivative of the RTP with respect to one FISH weight.

    Attributes
    ----------
    symbol, table : str
        FISH symbol and weight-table name (``"base"``, ``"level1"``, ...).
    value, weight : int
        The credit value and its integer weight.
    derivative : Fraction
        d RTP / d weight, per unit of weight (RTP a fraction of 1).
    mean_derivative : Fraction
        d RTP / d E[value] of the symbol under this table, per credit.
    """

    symbol: str
    table: str
    value: int
    weight: int
    derivative: Fraction
    mean_derivative: Fraction


@dataclass(frozen=True)
class Sensitivity:
    """Every exact RTP sensitivity of a math set.

    Attributes
    ----------
    set_name : str
    rtp : Fraction
        RTP of the set as it is.
    edits : tuple of EditSensitivity
        One per (strip set, reel, position, allowed other symbol), in that order.
    weights : tuple of WeightSensitivity
        One per (FISH symbol, weight table used by a phase, value).
    """

    set_name: str
    rtp: Fraction
    edits: tuple[EditSensitivity, ...]
    weights: tuple[WeightSensitivity, ...]

    def top_edits(self, n: int, increase: bool = True, legal: bool = True) -> list[EditSensitivity]:
        """The ``n`` edits that raise (or lower) the RTP most; ties in table order.

        ``legal`` (default) leaves out edits that break a strip rule or a published window.
        """
        sign = -1 if increase else 1
        return sorted((e for e in self.edits if not (legal and e.breaks)), key=lambda e: sign * e.delta)[:n]

    def top_levers(self, n: int, increase: bool = True, legal: bool = True) -> list["Lever"]:
        """The ``n`` strongest levers: edits grouped when they replace the same symbol by the same
        symbol on the same reel with exactly the same RTP change (equivalent positions).

        ``legal`` (default) leaves out edits that break a strip rule or a published window.
        """
        groups: dict[tuple, list[EditSensitivity]] = {}
        sign = -1 if increase else 1
        for e in sorted((e for e in self.edits if not (legal and e.breaks)), key=lambda e: sign * e.delta):
            key = (e.edit.strip_set, e.edit.reel, e.edit.old, e.edit.new, e.delta)
            if key not in groups and len(groups) == n:
                continue                     # a later member of a listed group may still come
            groups.setdefault(key, []).append(e)
        return [Lever(k[0], k[1], tuple(sorted(e.edit.position for e in g)), k[2], k[3], k[4])
                for k, g in groups.items()]

    def top_weights(self, n: int, increase: bool = True) -> list[WeightSensitivity]:
        """The ``n`` weights whose increase raises (or lowers) the RTP fastest."""
        sign = -1 if increase else 1
        return sorted(self.weights, key=lambda w: sign * w.derivative)[:n]


# --------------------------------------------------------------------------
# exact integer dot product with large coefficients
# --------------------------------------------------------------------------
def big_dot(small: np.ndarray, coef: Sequence[int]) -> list[int]:
    """Exact ``small @ coef`` for small integers and arbitrarily large integer coefficients.

    Parameters
    ----------
    small : ndarray, shape (n, k), int64
        Small integers (e.g. window-moment changes).
    coef : sequence of int, length k
        Python integers of any size.

    Returns
    -------
    list of int, length n
        Exact Python integers.

    Notes
    -----
    Splits each coefficient into limbs of ``b`` bits with ``b`` chosen so that
    no int64 partial sum can overflow, multiplies limb by limb with an int64
    matrix product and recombines with Python integers.  Falls back to an
    object-array product when the entries of ``small`` are too large.
    """
    coef = [int(c) for c in coef]
    n, k = small.shape
    if n == 0:
        return []
    bound = int(np.max(np.abs(small), initial=0)) * max(k, 1) + 1
    bits = 62 - bound.bit_length()
    if small.dtype == object or bits < 8:
        return [int(v) for v in small.astype(object).dot(np.array(coef, dtype=object))]
    mask = (1 << bits) - 1
    signs = [(-1 if c < 0 else 1) for c in coef]
    mags = [abs(c) for c in coef]
    limbs = max((m.bit_length() for m in mags), default=0) // bits + 1
    table = np.zeros((k, limbs), dtype=np.int64)
    for t, (s, m) in enumerate(zip(signs, mags)):
        for j in range(limbs):
            table[t, j] = s * ((m >> (bits * j)) & mask)
    part = small.astype(np.int64) @ table                      # (n, limbs), no overflow by the bound
    cols = [[int(v) for v in part[:, j]] for j in range(limbs)]
    return [sum(cols[j][i] << (bits * j) for j in range(limbs)) for i in range(n)]


# --------------------------------------------------------------------------
# per-phase factorised first moments
# --------------------------------------------------------------------------
def phase_terms(model: GameModel, strip_set: str, d: int) -> list[Term]:
    """Every product term any placement-respecting strips of ``strip_set`` can need.

    The ways terms of :func:`exact.engine.product_terms` and one collect term
    per (reel that may show a KEY, reel that may show a FISH) of the strip set,
    so that an edit bringing the first KEY or FISH to a reel changes terms
    that already exist.
    """
    terms = [t for t in product_terms(model, [], d) if t.kind != "collect"]
    reels = range(model.reels)
    key_reels = [r for r in reels if any(s.kind == KEY and s.allowed_on(strip_set, r) for s in model.symbols)]
    fish_reels = [r for r in reels if any(s.kind == FISH and s.allowed_on(strip_set, r) for s in model.symbols)]
    terms += [Term("collect", 1, key_reel=a, fish_reel=b) for a in key_reels for b in fish_reels]
    return terms


@dataclass(frozen=True)
class WindowMoments:
    """First moments of every product term on a run of windows of one reel.

    Attributes
    ----------
    g : ndarray, shape (n_terms, windows), int64 (object if large)
        E[g_{t,r}(s)] x D-scaling of the engine: the deterministic factor, times
        D x E[sum of FISH values] for the term's fish reel.
    keys, scatters : ndarray, shape (windows,), int64
        KEY and scatter counts of each window.
    """

    g: np.ndarray
    keys: np.ndarray
    scatters: np.ndarray


def window_moments(model: GameModel, terms: list[Term], reel: int, strip: np.ndarray,
                   table: str, d: int) -> WindowMoments:
    """:class:`WindowMoments` of every window (stop) of ``strip`` placed as reel ``reel``.

    ``strip`` is a code array, shape (stops,), int64; the windows wrap as on a
    reel strip (section 3).  Built from :func:`exact.engine.reel_tables` and
    :func:`exact.engine.term_factors`.

    Raises
    ------
    ValueError
        If a FISH symbol on the strip has no weight table ``table``.
    """
    t = reel_tables(model, strip, table, d)
    x, phi = term_factors(model, terms, reel, t)
    g = np.where(phi[:, None], x * t.fish_mean[None, :], x)
    return WindowMoments(g=g, keys=t.keys, scatters=t.scatters)


def _poly_mul(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The product of two dense count polynomials (coefficient lists, count 0 first)."""
    return dense(poly_mul(dict(enumerate(a)), dict(enumerate(b))))


def _hist(counts: np.ndarray, size: int) -> list[int]:
    return [int(v) for v in np.bincount(counts.astype(np.int64), minlength=size)[:size]]


def _others_product(items: list, r: int, mul, one):
    acc = one
    for i, x in enumerate(items):
        if i != r:
            acc = mul(acc, x)
    return acc


@dataclass(frozen=True)
class _Phase:
    """Cached factorised pieces of one phase (base, or one level) on one strip set."""

    table: str
    multiplier: int
    d: int
    terms: list[Term]
    coef: list[int]
    reels: list[WindowMoments]
    first: list[list[int]]        # per reel: M_r[t], Python ints

    @property
    def total(self) -> int:
        return prod(w.g.shape[1] for w in self.reels)

    def mean_numerator(self) -> int:
        """T x D x E[W] / multiplier."""
        return sum(a * prod(f[t] for f in self.first) for t, a in enumerate(self.coef))

    @property
    def mean(self) -> Fraction:
        return Fraction(self.mean_numerator() * self.multiplier, self.total * self.d)

    def others(self, r: int) -> list[int]:
        """a_t x prod over the other reels of M_{r'}[t]: the weights of reel r's first moments."""
        return [a * prod(f[t] for i, f in enumerate(self.first) if i != r) for t, a in enumerate(self.coef)]


def _phase(ms: MathSet, strip_set: str, table: str, multiplier: int) -> _Phase:
    model = ms.model
    d = fish_scale(model, table)
    terms = phase_terms(model, strip_set, d)
    reels = [window_moments(model, terms, r, c, table, d) for r, c in enumerate(ms.strips[strip_set].codes)]
    first = [[int(v) for v in w.g.astype(object).sum(axis=1)] for w in reels]
    return _Phase(table, multiplier, d, terms, [t.coef for t in terms], reels, first)


# --------------------------------------------------------------------------
# edits of one reel: the changed windows
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class _ReelEdits:
    """All candidate edits of one reel and the positions/symbols they touch."""

    positions: np.ndarray     # (E,) int64
    new_codes: np.ndarray     # (E,) int64
    segments: np.ndarray      # (E * (2 rows - 1),) int64: concatenated strip pieces after the edit
    old_stops: np.ndarray     # (E, rows) int64: the stops of the affected windows


def reel_edits(model: GameModel, strip_set: str, reel: int, strip: np.ndarray) -> _ReelEdits:
    """Every single-symbol replacement the game allows on one reel, with the strip pieces it changes.

    For an edit of position i the affected windows are those at stops
    i - rows + 1 .. i (mod L).  Their content after the edit is the piece of
    ``2 rows - 1`` positions i - rows + 1 .. i + rows - 1 with every
    occurrence of position i replaced; the first ``rows`` windows of that
    piece are the affected windows.  Pieces of all edits are concatenated so
    that one call of the engine's table builder serves them all.
    """
    rows, n = model.rows, len(strip)
    allowed = [c for c, s in enumerate(model.symbols) if s.allowed_on(strip_set, reel)]
    pos, new = [], []
    for i in range(n):
        for c in allowed:
            if c != strip[i]:
                pos.append(i)
                new.append(c)
    positions = np.array(pos, dtype=np.int64)
    new_codes = np.array(new, dtype=np.int64)
    offsets = np.arange(-(rows - 1), rows)
    idx = (positions[:, None] + offsets[None, :]) % n                      # (E, 2 rows - 1)
    seg = strip[idx]
    seg = np.where(idx == positions[:, None], new_codes[:, None], seg)
    old = (positions[:, None] + np.arange(-(rows - 1), 1)[None, :]) % n   # (E, rows)
    return _ReelEdits(positions, new_codes, seg.ravel(), old)


def _edit_windows(model: GameModel, ph: _Phase, reel: int, ed: _ReelEdits) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Changes per edit: first moments (E, n_terms), KEY and scatter count histograms (E, rows + 1)."""
    rows = model.rows
    e = len(ed.positions)
    w = window_moments(model, ph.terms, reel, ed.segments, ph.table, ph.d)
    width = 2 * rows - 1
    g_new = w.g.reshape(len(ph.terms), e, width)[:, :, :rows].sum(axis=2)
    base = ph.reels[reel]
    g_old = base.g[:, ed.old_stops].sum(axis=2)
    dg = (g_new - g_old).T

    def hist_change(new_counts, old_counts):
        new_c = new_counts.reshape(e, width)[:, :rows]
        old_c = old_counts[ed.old_stops]
        out = np.zeros((e, rows + 1), dtype=np.int64)
        for k in range(rows + 1):
            out[:, k] = (new_c == k).sum(axis=1) - (old_c == k).sum(axis=1)
        return out

    return dg, hist_change(w.keys, base.keys), hist_change(w.scatters, base.scatters)


# --------------------------------------------------------------------------
# the whole computation
# --------------------------------------------------------------------------
def _check(what: str, mine, engine) -> None:
    if mine != engine:
        raise ValueError(f"sensitivity: {what} of the incremental model ({mine}) differs from the engine ({engine})")


def _key_poly(w: WindowMoments, rows: int) -> list[int]:
    return _hist(w.keys, rows + 1)


def _reach_spins(ladder: Ladder, key_prob: Sequence[Fraction], initial: Sequence[int]) -> dict[int, tuple[Fraction, ...]]:
    """Expected spins of each level (spins x reach) for each initial spin count, from a KEY-count distribution."""
    zeros = tuple(ZERO for _ in key_prob)
    split = CountSplit(prob=tuple(key_prob), win=zeros, win2=zeros)
    lad = dataclasses.replace(ladder, splits=(split,) * ladder.levels)
    return {n: f.spins_by_level for n, f in zip(initial, feature_results(lad, initial))}


def edit_work(ms: MathSet) -> int:
    """Work of the strip-edit table: single-symbol edits of every strip the game plays x window rows.

    Each position of each reel can take every other symbol its reel allows
    (:func:`reel_edits`); the cost of an edit grows with the rows of the
    windows it changes.  The bundled set: 12,900 edits x 4 rows = 51,600 (1.7 s).

    >>> from strips.loader import load_math_set
    >>> edit_work(load_math_set("rules_page"))
    51600
    """
    model = ms.model
    sets = ["base"] + ([model.free_spin_strips] if model.trigger else [])
    return model.rows * sum(len(codes) * (sum(1 for s in model.symbols if s.allowed_on(name, r)) - 1)
                            for name in dict.fromkeys(sets) for r, codes in enumerate(ms.strips[name].codes))


def sensitivity(ms: MathSet, analysis: GameAnalysis | None = None, edits: bool = True) -> Sensitivity:
    """Exact RTP change of every single-symbol strip edit and exact RTP derivative per FISH weight.

    Parameters
    ----------
    ms : MathSet
    analysis : GameAnalysis, optional
        The engine's analysis of ``ms`` (computed if not given).
    edits : bool
        False skips the strip-edit table (weights only).

    Returns
    -------
    Sensitivity
        RTP changes as Fractions of 1 (per round, relative to the bet).

    Raises
    ------
    ValueError
        If the game has a rule the formulation does not cover
        (:func:`exact.rules.supports`; a :class:`strips.errors.UnsupportedRule`), a piece of the incremental model disagrees
        with the engine (an internal error), or the set is inconsistent with
        its game file.

    References
    ----------
    Module docstring; rules page sections 3, 4, 6-8, 10, 11.
    """
    require(ms, "sensitivity")
    model = ms.model
    an = analysis or analyse(ms)
    rr = round_result(model, an.base, an.levels)
    rows, bet = model.rows, model.bet
    max_count = model.reels * rows
    ladder = ladder_of(model, an.levels) if model.trigger else None   # None: a game without free spins
    feats: dict[int, FeatureResult] = (dict(features_by_trigger(model, ladder, range(max_count + 1)))
                                       if ladder else {})
    fmean = [feats[n].mean if n in feats else ZERO for n in range(max_count + 1)]

    # ---- base phase ----------------------------------------------------------
    base = _phase(ms, "base", "base", 1)
    _check("base mean", base.mean, an.base.mean)
    scat = [_hist(w.scatters, rows + 1) for w in base.reels]
    prob_num = _others_product(scat, -1, _poly_mul, [1])
    _check("trigger probabilities", [Fraction(x, base.total) for x in prob_num[:len(an.base.by_scatter.prob)]],
           list(an.base.by_scatter.prob))
    p_scatter = [Fraction(prob_num[n], base.total) if n < len(prob_num) else ZERO for n in range(max_count + 1)]

    # ---- free-spin levels ----------------------------------------------------
    fs = model.free_spin_strips
    levels = [_phase(ms, fs, lv.weights, lv.multiplier) for lv in model.levels] if model.trigger else []
    for lv, ph, pa in zip(model.levels, levels, an.levels):
        _check(f"level {lv.number} mean", ph.mean, pa.mean)
    initial = sorted({initial_spins(model, n) for n in feats})
    trig = {n: p for n, p in enumerate(p_scatter) if n in feats and p}
    # omega_L = sum_n P(n) spins_n(L) reach_n(L): expected spins of level L per round
    omega = [sum((p * feats[n].spins_by_level[i] for n, p in trig.items()), ZERO) for i in range(len(levels))]
    for n, f in feats.items():
        _check(f"feature mean ({n} FS)", sum((s * ph.mean for s, ph in zip(f.spins_by_level, levels)), ZERO), f.mean)
    rtp = rr.rtp
    _check("RTP", (base.mean + sum((w * ph.mean for w, ph in zip(omega, levels)), ZERO)) / bet, rtp)

    out: list[EditSensitivity] = []
    if edits:
        out += _base_edits(ms, base, scat, fmean, bet)
        if levels:
            out += _bonus_edits(ms, levels, ladder, initial, trig, feats, omega, bet)
    weights = _weight_sensitivities(ms, an, levels, omega)
    out = [dataclasses.replace(e, breaks=what) if (what := edit_breaks(ms, e.edit)) else e for e in out]
    return Sensitivity(set_name=ms.name, rtp=rtp, edits=tuple(out), weights=tuple(weights))


def edit_breaks(ms: MathSet, edit: StripEdit) -> str:
    """What a single-symbol edit breaks that involves its own position; empty if nothing.

    Checks the soft strip rules of the game file (rules page section 3: at
    least ``min_pay_between_specials`` pay symbols between two specials, at
    most ``max_run_length`` symbols of the AUS group in sequence, cyclic) and
    the set's published data (``published.toml``): whether a published window
    shows the position, whether the edit changes a published symbol total,
    and whether it adds or removes a scatter while the set publishes trigger
    figures (``trigger.*`` facts).
    Only breaks that the edited position takes part in are reported, so a rule
    the strip already broke elsewhere is not blamed on the edit.
    """
    model = ms.model
    reel = ms.strips[edit.strip_set].reels[edit.reel]
    n, pos = len(reel), edit.position
    rules = model.strip_rules
    published = ms.published
    lengths = ms.strips[edit.strip_set].lengths
    windows = [w for w in published.windows if len(w.rows) == model.rows and all(map(int.__lt__, w.stops, lengths))]
    try:
        shown = window_positions(windows, edit.strip_set, lengths).get((edit.reel, pos))
    except ValueError:      # the windows contradict each other: no position is kept by them
        shown = None
    if shown:
        return f"{shown[1][0]} shows {shown[0]} here"
    for tot in published.totals:
        if tot.strip_set == edit.strip_set and (edit.old in tot.symbols) != (edit.new in tot.symbols):
            return f"changes the published {tot.label} total ({tot.source or 'published.toml'})"
    if any(f.figure.startswith("trigger") for f in published.facts):
        old_kind, new_kind = model.symbol(edit.old).kind, model.symbol(edit.new).kind
        if (old_kind == "scatter") != (new_kind == "scatter"):
            name = edit.old if old_kind == "scatter" else edit.new
            return f"changes the {name} count (the published trigger figures)"
    new = model.symbol(edit.new)
    gap = rules.min_pay_between_specials
    if gap and new.is_special:
        for k in range(1, gap + 1):
            for q in ((pos + k) % n, (pos - k) % n):
                if q != pos and model.symbol(reel[q]).is_special:
                    return f"fewer than {gap} pay symbols between {edit.new} and {reel[q]} at position {q}"
    if rules.max_run_length and new.name in rules.max_run_symbols:
        run = 1
        for step in (1, -1):
            q = (pos + step) % n
            while q != pos and reel[q] in rules.max_run_symbols and run <= n:
                run += 1
                q = (q + step) % n
        if run > rules.max_run_length:
            return f"a run of {run} AUS-group symbols (at most {rules.max_run_length})"
    return ""


def _base_edits(ms: MathSet, base: _Phase, scat: list[list[int]], fmean: list[Fraction],
                bet: int) -> list[EditSensitivity]:
    """Base-strip edits: change of E[B] plus the change of sum_n P(n) F_n (both linear in the reel)."""
    model, rows = ms.model, ms.model.rows
    out = []
    strips = ms.strips["base"]
    for r, strip in enumerate(strips.codes):
        ed = reel_edits(model, "base", r, strip)
        dg, _, dscat = _edit_windows(model, base, r, ed)
        mean_num = big_dot(dg, base.others(r))
        q_other = _others_product(scat, r, _poly_mul, [1])
        # h[k] = sum_n F_n Q_{-r}[n - k]
        h = [sum((fmean[k + j] * q for j, q in enumerate(q_other) if k + j < len(fmean)), ZERO)
             for k in range(rows + 1)]
        den_mean = base.total * base.d * bet
        cache: dict[tuple, Fraction] = {}
        for i, (num, dq) in enumerate(zip(mean_num, dscat)):
            key = tuple(int(x) for x in dq)
            trig = cache.get(key)
            if trig is None:
                trig = cache[key] = sum((x * h[k] for k, x in enumerate(key) if x), ZERO) / (base.total * bet)
            edit = StripEdit("base", r, int(ed.positions[i]), strips.reels[r][ed.positions[i]],
                             model.symbols[ed.new_codes[i]].name)
            out.append(EditSensitivity(edit, Fraction(num, den_mean) + trig))
    return out


def _bonus_edits(ms: MathSet, levels: list[_Phase], ladder: Ladder, initial: list[int],
                 trig: dict[int, Fraction], feats: dict[int, FeatureResult], omega: list[Fraction],
                 bet: int) -> list[EditSensitivity]:
    """Bonus-strip edits: linear through the level means; a KEY change also recomputes the reach."""
    model, rows = ms.model, ms.model.rows
    fs = model.free_spin_strips
    strips = ms.strips[fs]
    ref = levels[0]
    keyp = [_key_poly(w, rows) for w in ref.reels]
    # common denominator of the linear part: kappa_L = omega_L m_L / (T D_L bet)
    kappa = [w * ph.multiplier / (ph.total * ph.d * bet) for w, ph in zip(omega, levels)]
    den = lcm(*(k.denominator for k in kappa))
    kappa_num = [k.numerator * (den // k.denominator) for k in kappa]
    level_unit = [Fraction(ph.multiplier, ph.total * ph.d) for ph in levels]   # E[W_L] per unit of numerator
    out = []
    for r, strip in enumerate(strips.codes):
        ed = reel_edits(model, fs, r, strip)
        dkeys = None
        per_level = []
        for ph in levels:
            dg, dk, _ = _edit_windows(model, ph, r, ed)
            per_level.append(big_dot(dg, ph.others(r)))
            dkeys = dk
        k_other = _others_product(keyp, r, _poly_mul, [1])
        reach_cache: dict[tuple, dict[int, tuple[Fraction, ...]]] = {}
        for i in range(len(ed.positions)):
            nums = [pl[i] for pl in per_level]
            dk = tuple(int(x) for x in dkeys[i])
            if not any(dk):
                delta = Fraction(sum(k * n for k, n in zip(kappa_num, nums)), den)
            else:
                spins = reach_cache.get(dk)
                if spins is None:
                    poly = [a + b for a, b in zip(keyp[r], dk)]
                    total = sum(poly) * prod(sum(p) for j, p in enumerate(keyp) if j != r)
                    dist = [Fraction(x, total) for x in _poly_mul(poly, k_other)]
                    while len(dist) > 1 and dist[-1] == 0:
                        dist.pop()
                    spins = reach_cache[dk] = _reach_spins(ladder, dist, initial)
                new_means = [ph.mean + u * n for ph, u, n in zip(levels, level_unit, nums)]
                delta = sum((p * (sum((s * m for s, m in zip(spins[initial_spins(model, n)], new_means)), ZERO)
                                  - feats[n].mean) for n, p in trig.items()), ZERO) / bet
            edit = StripEdit(fs, r, int(ed.positions[i]), strips.reels[r][ed.positions[i]],
                             model.symbols[ed.new_codes[i]].name)
            out.append(EditSensitivity(edit, delta))
    return out


def key_fish_moment(ms: MathSet, strip_set: str, symbol: str) -> Fraction:
    """E[K N_s]: the product moment of the KEY count and the count of FISH symbol ``symbol`` in a window.

    Factorised over independent reels: E[(sum_a k_a)(sum_b n_b)] =
    sum_{a != b} E[k_a] E[n_b] + sum_a E[k_a n_a].  Dimensionless, per spin.
    """
    model = ms.model
    code = model.code(symbol)
    kmask = model.kind_mask(KEY)
    ek, en, ekn = [], [], []
    for strip in ms.strips[strip_set].codes:
        sym = window_codes(strip, model.rows)
        k = kmask[sym].sum(axis=1)
        n = (sym == code).sum(axis=1)
        L = len(strip)
        ek.append(Fraction(int(k.sum()), L))
        en.append(Fraction(int(n.sum()), L))
        ekn.append(Fraction(int((k * n).sum()), L))
    out = sum(ekn, ZERO)
    for a in range(len(ek)):
        for b in range(len(en)):
            if a != b:
                out += ek[a] * en[b]
    return out


def _weight_sensitivities(ms: MathSet, an: GameAnalysis, levels: list[_Phase],
                          omega: list[Fraction]) -> list[WeightSensitivity]:
    """d RTP / d w for each FISH weight of each table used by a phase (module docstring).

    Checks first that m sum_s E[v_s] E[K N_s] reproduces the engine's collect
    mean of every phase.
    """
    model = ms.model
    fs = model.free_spin_strips
    # (strip set, table, multiplier, d RTP / d E[W_phase], engine collect mean)
    phases = [("base", "base", 1, Fraction(1, model.bet), an.base.parts[COLLECT])]
    phases += [(fs, ph.table, ph.multiplier, w / model.bet, pa.parts[COLLECT])
               for ph, w, pa in zip(levels, omega, an.levels)]
    moments: dict[tuple[str, str], Fraction] = {}
    slope: dict[tuple[str, str], Fraction] = {}
    for strip_set, table, mult, scale, collect in phases:
        mine = ZERO
        for s in model.of_kind(FISH):
            if table not in s.weights:
                continue
            key = (strip_set, s.name)
            if key not in moments:
                moments[key] = key_fish_moment(ms, strip_set, s.name)
            mine += mult * s.value_moments(table)[0] * moments[key]
            slope[(table, s.name)] = slope.get((table, s.name), ZERO) + scale * mult * moments[key]
        _check(f"collect mean of the {table} phase", mine, collect)
    out = []
    for s in model.of_kind(FISH):
        for table in s.weights:
            if (table, s.name) not in slope:
                continue
            w = s.weights[table]
            total = sum(w)
            mu = s.value_moments(table)[0]
            dm = slope[(table, s.name)]
            for v, wi in zip(s.values, w):
                out.append(WeightSensitivity(s.name, table, v, wi, dm * (v - mu) / total, dm))
    return out


# --------------------------------------------------------------------------
# views and the command
# --------------------------------------------------------------------------
def _signed_percent(x: Fraction, digits: int) -> str:
    text = percent(x, digits)
    return text if text.startswith("-") else "+" + text


def edit_json(e: EditSensitivity, rtp: Fraction) -> dict:
    """One edit as JSON: 1-based reel, exact ``"p/q"`` delta and RTP after, floats beside, what it breaks."""
    return {"strip_set": e.edit.strip_set, "reel": e.edit.reel + 1, "position": e.edit.position,
            "old": e.edit.old, "new": e.edit.new, "text": str(e.edit), "breaks": e.breaks,
            "delta": fraction_text(e.delta), "delta_float": float(e.delta),
            "rtp_after": fraction_text(rtp + e.delta), "rtp_after_float": float(rtp + e.delta)}


def weight_json(w: WeightSensitivity) -> dict:
    """One weight derivative as JSON (exact ``"p/q"`` with floats beside)."""
    return {"symbol": w.symbol, "table": w.table, "value": w.value, "weight": w.weight,
            "derivative": fraction_text(w.derivative), "derivative_float": float(w.derivative),
            "mean_derivative": fraction_text(w.mean_derivative), "mean_derivative_float": float(w.mean_derivative)}


def sensitivity_json(s: Sensitivity, top: int, every: bool = False, legal: bool = True) -> dict:
    """The sensitivities as one JSON-ready dict: top ``top`` levers each way (rule-keeping edits
    only unless ``legal`` is False), every weight, optionally every edit."""
    out = {"set": s.set_name, "rtp": fraction_text(s.rtp), "rtp_float": float(s.rtp),
           "edits": len(s.edits), "edits_breaking_rules": sum(1 for e in s.edits if e.breaks),
           "top_increase": [edit_json(e, s.rtp) for e in s.top_edits(top, True, legal)],
           "top_decrease": [edit_json(e, s.rtp) for e in s.top_edits(top, False, legal)],
           "weights": [weight_json(w) for w in s.weights]}
    if every:
        out["all_edits"] = [edit_json(e, s.rtp) for e in s.edits]
    return out


def sensitivity_text(s: Sensitivity, top: int, seconds: float | None = None, every: bool = False,
                     legal: bool = True) -> str:
    """The sensitivities as aligned text: RTP, top edits each way, top weights each way."""
    out = [f"RTP SENSITIVITY: math set {s.set_name}", f"RTP          {percent(s.rtp, 6)}"]
    sets: dict[str, int] = {}
    for e in s.edits:
        sets[e.edit.strip_set] = sets.get(e.edit.strip_set, 0) + 1
    line = f"strip edits  {len(s.edits)} single-symbol replacements (" + \
        ", ".join(f"{k} {v}" for k, v in sets.items()) + ")"
    if seconds is not None:
        line += f", exact, computed in {seconds:.2f} s"
    out.append(line)
    out.append("delta RTP is exact (shown rounded); 'RTP after' is the set's RTP with that one edit")

    def edits(title: str, items: list) -> None:
        out.extend(["", title])
        out.extend(table_lines(["edit", "delta RTP", "RTP after"],
                          [[str(getattr(e, "edit", e)), _signed_percent(e.delta, 6), percent(s.rtp + e.delta, 6)]
                           for e in items]))

    if s.edits:
        out.append("(positions with the same replacement and the same exact change are listed together)")
        broken = sum(1 for e in s.edits if e.breaks)
        if legal and broken:
            out.append(f"({broken} edits that break a strip rule of the game file or a published window, "
                       "total or trigger figure are left out; --any lists them too)")
        edits(f"TOP {top} EDITS RAISING THE RTP", s.top_levers(top, True, legal))
        edits(f"TOP {top} EDITS LOWERING THE RTP", s.top_levers(top, False, legal))

    def weights(title: str, items: list[WeightSensitivity]) -> None:
        out.extend(["", title])
        out.extend(table_lines(["symbol", "table", "value", "weight", "dRTP/dweight", "dRTP/dE[value]"],
                          [[w.symbol, w.table, str(w.value), str(w.weight), _signed_percent(w.derivative, 8),
                            _signed_percent(w.mean_derivative, 8)] for w in items]))

    out.extend(["", "FISH WEIGHTS: exact partial derivatives (RTP per unit of weight; per credit of mean value)"])
    weights(f"TOP {top} WEIGHTS RAISING THE RTP", s.top_weights(top, True))
    weights(f"TOP {top} WEIGHTS LOWERING THE RTP", s.top_weights(top, False))
    if every:
        edits("EVERY EDIT", list(s.edits))
    return "\n".join(out) + "\n"


#: ``sensitivity(..., progress=None)``: a progress line after 2 s where stderr is a terminal (:mod:`exact.progress`).
sensitivity = progress_of("sensitivity")(sensitivity)
