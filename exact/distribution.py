r"""The whole win distribution: one spin of every phase exactly, the feature and the round.

One spin (exact)
----------------
The win of one spin of a phase is a function of the stops, the FISH value
draws and the drawn WILD multipliers (rules page sections 6-9); the
reels stop independently and every draw belongs to one reel's window.  So the
distribution is built by a dynamic programme over the reels, left to right:

*Per reel* every stop and every joint draw of the window's FISH values and
WILD multipliers is an *outcome* ``(c, k, n, f)``: ``c`` the ways count of
every pay symbol on the reel (its own count plus the multipliers of the
substituting WILDs, section 6 with WILD multipliers), ``k`` KEY, ``n`` scatter symbols,
``f`` the sum of the FISH values drawn; equal outcomes are merged with integer
weights (stop x product of the draws' integer weights, over the reel's common
denominator).  A bundled base reel has 100-170 outcomes.

*State* after reels ``1..r``: ``(a, paid, K, N, F)`` with ``a`` the vector of
the ways so far of every pay symbol whose combination is still running (0:
ended), ``paid`` the credits already won by the combinations that ended (pay
of their OAK x ways), ``K``, ``N`` the KEY and scatter counts so far and ``F``
the FISH sum so far.  One reel maps each (state, outcome) pair to one state:
a running symbol with ``c > 0`` multiplies its ways by ``c``, one with ``c =
0`` ends at OAK ``r`` and adds ``pay(r) x ways`` to ``paid``.  Equal states
are merged (their integer weights summed).  What can no longer matter is
folded as soon as it is final, which keeps the state count small:

* once no later reel can show a KEY, ``K`` is final: ``K F`` (the collect,
  section 8) goes into ``paid`` and later FISH values add ``K f``; ``F`` is
  dropped;
* once neither a KEY nor a FISH can follow, ``K`` is dropped unless it is
  the count asked for (the KEY count of a free spin);
* once no later reel can show a scatter, the scatter pay of ``N`` goes into
  ``paid``, and ``N`` is dropped unless it is the count asked for;
* after the last reel every running symbol pays its full-length OAK.

The result is the exact joint distribution of ``(count, win)`` (win in
credits including the phase's multiplier), as integer weights over the
product of the reels' denominators: nothing is a float, no Fraction is formed
before the end.

*Cost*: each reel costs (states before it) x (its outcomes) integer steps,
done as numpy array operations (int64 for the state, Python integers for the
weights when their product may exceed int64), followed by one sort to merge
equal states.  The bundled base game peaks at about 2 x 10^4 states before the
last reel (3.4 x 10^6 pairs), against 10^10 stop combinations x FISH draws.

Source: rules page sections 6 (ways), 7 (FISH values), 8 (collect), 9 (win
of a spin), 10 (scatter count), 11 (level multiplier); WILD
multipliers, scatter pays.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm, prod
from typing import NamedTuple, Sequence

import math

import numpy as np

from exact.engine import analyse_phase
from exact.enumeration import awards_model
from exact.falls import falls_game
from exact.formatting import decimal_text
from exact.notebook import distribution_frame, frames as _frames
from exact.plot import plot_distribution
from exact.progress import progress_of, stage
from exact.tables import distribution_tables, html_tables
from exact.rules import beyond_count_tables, initial_spins, require, trigger_scatter_pay
from strips.errors import UnsupportedRule
from strips.model import FISH, KEY, PAY, PER_WILD, SCATTER, WILD, GameModel, MathSet, Phase, window_codes
from markov.feature import chain_class
from markov.moments import CountSplit
from markov.protocol import FeatureRun, run as run_feature
from markov.retrigger import MAX_CYCLE_COEFFICIENT, MAX_CYCLE_TERMS, cycle_lemma_feature, cycle_lemma_terms

#: The joint counts a one-spin distribution can be kept with.
SCATTER_COUNT, KEY_COUNT = "scatter", "key"

_INT64_SAFE = 2**62
#: Memory the one-spin DP may take for one reel's step (bytes).  Its arrays grow with the states
#: alive times the reel's window outcomes; beyond this it refuses in one line instead of paging
#: the machine out (a 10,000-stop, 32-row set once reached 14.6 GB).
MAX_DP_BYTES = 2 << 30


def _check_dp_memory(reel: int, states: int, outcomes: int, entries: int, width: int) -> None:
    """Raise ValueError when ``entries`` DP entries of ``width`` int64 each exceed :data:`MAX_DP_BYTES`."""
    need = entries * width * 8
    if need > MAX_DP_BYTES:
        raise ValueError(f"the one-spin distribution needs about {need / 2**30:,.1f} GiB at reel {reel + 1} "
                         f"({states:,} states x {outcomes:,} window outcomes): more than the "
                         f"{MAX_DP_BYTES / 2**30:g} GiB it may use")


# --------------------------------------------------------------------------
# one spin: result object
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class SpinDistribution:
    """Exact joint distribution of one spin's win and a count of the window.

    Attributes
    ----------
    phase : Phase
        The phase spun (base game or one free-spin level).
    count : str
        ``"scatter"`` (scatter symbols in the window) or ``"key"`` (KEY symbols).
    total : int
        Common denominator of every weight.
    counts : ndarray, shape (m,), int64
        The count of each entry.
    wins : ndarray, shape (m,), int64
        The win of each entry, credits per spin, the phase multiplier included.
    weights : ndarray, shape (m,), object (Python int)
        Integer weight of each entry; P(count, win) = weight / total; every
        weight > 0; entries sorted by (count, win) and distinct.
    """

    phase: Phase
    count: str
    total: int
    counts: np.ndarray
    wins: np.ndarray
    weights: np.ndarray

    def joint(self) -> dict[tuple[int, int], Fraction]:
        """{(count, win): P} exactly, every entry of positive probability."""
        return {(int(c), int(w)): Fraction(int(x), self.total)
                for c, w, x in zip(self.counts, self.wins, self.weights)}

    def win_weights(self) -> tuple[np.ndarray, np.ndarray]:
        """The marginal of the win: (wins ascending int64, integer weights object) over ``total``."""
        return _merge([self.wins], self.weights)

    def marginal(self) -> list[tuple[int, Fraction]]:
        """[(win, P(win))], ascending in win, every win of positive probability, exact."""
        wins, w = self.win_weights()
        return [(int(v), Fraction(int(x), self.total)) for v, x in zip(wins, w)]

    def count_probabilities(self) -> dict[int, Fraction]:
        """{count: P(count)}, exact."""
        c, w = _merge([self.counts], self.weights)
        return {int(a): Fraction(int(x), self.total) for a, x in zip(c, w)}

    @property
    def mean(self) -> Fraction:
        """E[win], credits per spin, exact."""
        return Fraction(int(np.dot(self.wins.astype(object), self.weights)), self.total)

    @property
    def max_win(self) -> int:
        """The largest win of positive probability, credits."""
        return int(self.wins.max())

    @property
    def max_win_probability(self) -> Fraction:
        """P(win = max_win), exact."""
        sel = self.wins == self.wins.max()
        return Fraction(int(self.weights[sel].sum()), self.total)

    def __repr__(self) -> str:
        return (f"SpinDistribution(phase={self.phase.name}, count={self.count}, entries={len(self.wins)}, "
                f"max_win={self.max_win} credits)")


# --------------------------------------------------------------------------
# per-reel outcomes
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class ReelOutcomes:
    """The distinct outcomes of one reel: stop and every draw of its window, merged.

    Attributes
    ----------
    ways : ndarray, shape (m, n_pay), int64
        Ways count of each pay symbol (its count + the multipliers of the
        substituting WILDs in the window).
    keys, scatters, fish : ndarray, shape (m,), int64
        KEY count, scatter count, sum of the FISH values drawn (credits).
    weights : ndarray, shape (m,), object
        Integer weights over ``total``.
    total : int
    """

    ways: np.ndarray
    keys: np.ndarray
    scatters: np.ndarray
    fish: np.ndarray
    weights: np.ndarray
    total: int


def _value_convolution(tables) -> dict[int, int]:
    """Sum of independent draws, each from ((value, integer weight), ...): {sum: weight}."""
    out = {0: 1}
    for table in tables:
        nxt: dict[int, int] = defaultdict(int)
        for a, x in out.items():
            for v, w in table:
                if w:
                    nxt[a + v] += x * w
        out = nxt
    return dict(out)


def reel_outcomes(model: GameModel, strip: np.ndarray, table: str) -> ReelOutcomes:
    """Every outcome of one reel strip in a phase with weight table ``table``.

    Parameters
    ----------
    model : GameModel
    strip : ndarray, shape (stops,), int64
        Symbol codes of the reel strip.
    table : str
        Weight-table name of the phase (FISH values and drawn WILD multipliers).

    Raises
    ------
    ValueError
        If a FISH symbol or a drawn WILD multiplier in a window has no weight
        table ``table``.

    Notes
    -----
    The draws follow :func:`exact.evaluator.wild_draws`: mode ``wild`` one
    draw per WILD, mode ``reel`` one draw per reel shared by the WILDs of that
    symbol (each counting the value); FISH values one draw per FISH symbol.
    """
    syms = model.symbols
    pay_codes = [i for i, s in enumerate(syms) if s.kind == PAY]
    names = [syms[p].name for p in pay_codes]
    rows = model.rows
    n = len(strip)
    win = window_codes(strip, rows)
    per_stop = []
    cache: dict[tuple, tuple] = {}
    for w in win:
        key = tuple(sorted(int(c) for c in w))   # the outcome depends on the multiset of the window only
        if key in cache:
            per_stop.append(cache[key])
            continue
        counts = [sum(1 for c in key if c == p) for p in pay_codes]
        k = sum(1 for c in key if syms[c].kind == KEY)
        sc = sum(1 for c in key if syms[c].kind == SCATTER)
        ways = {tuple(counts): 1}
        for code in sorted(set(c for c in key if syms[c].kind == WILD)):
            s = syms[code]
            subst = [s.substitutes_for(nm) for nm in names]
            many = key.count(code)
            if s.multiplier is None:
                draws = [((many, 1),)]
            elif not s.multiplier.is_random:
                draws = [((many * s.multiplier.values[0], 1),)]
            else:
                if table not in s.multiplier.weights:
                    raise ValueError(f"{s.name} has no multiplier weight table {table!r}")
                t = s.multiplier.table(table)
                draws = [t] * many if s.multiplier.mode == PER_WILD else [tuple((v * many, x) for v, x in t)]
            added = _value_convolution(draws)
            nxt: dict[tuple, int] = defaultdict(int)
            for cv, x in ways.items():
                for v, y in added.items():
                    nxt[tuple(a + v * m for a, m in zip(cv, subst))] += x * y
            ways = dict(nxt)
        fish_tables = []
        for c in key:
            if syms[c].kind == FISH:
                if table not in syms[c].weights:
                    raise ValueError(f"{syms[c].name} has no weight table {table!r}")
                fish_tables.append(tuple(zip(syms[c].values, syms[c].weights[table])))
        fish = _value_convolution(fish_tables)
        entry = (ways, k, sc, fish, sum(ways.values()) * sum(fish.values()))
        cache[key] = entry
        per_stop.append(entry)
    den = lcm(*(e[4] for e in per_stop))
    merged: dict[tuple, int] = defaultdict(int)
    for ways, k, sc, fish, d in per_stop:
        f = den // d
        for cv, x in ways.items():
            for fs, y in fish.items():
                merged[(cv, k, sc, fs)] += f * x * y
    g = 0
    for v in merged.values():
        g = gcd(g, v)
    items = list(merged.items())
    n_pay = len(pay_codes)
    return ReelOutcomes(
        ways=np.array([cv for (cv, *_), _ in items], dtype=np.int64).reshape(len(items), n_pay),
        keys=np.array([k for (_, k, _, _), _ in items], dtype=np.int64),
        scatters=np.array([s for (_, _, s, _), _ in items], dtype=np.int64),
        fish=np.array([f for (*_, f), _ in items], dtype=np.int64),
        weights=_obj([x // g for _, x in items]),
        total=n * den // g)


# --------------------------------------------------------------------------
# exact integer weights as int64 limbs
# --------------------------------------------------------------------------
#: Bits per limb: a product of two limbs is < 2^48, so a sum of up to 2^14 such products fits int64.
LIMB_BITS = 24
_MASK = (1 << LIMB_BITS) - 1


def to_limbs(values) -> np.ndarray:
    """Non-negative Python integers as int64 limbs: shape (L, n), value = sum_i limbs[i] 2^(24 i), each limb < 2^24."""
    values = [int(v) for v in values]
    top = max(values, default=0)
    n_limbs = max(1, -(-top.bit_length() // LIMB_BITS))
    out = np.zeros((n_limbs, len(values)), dtype=np.int64)
    for i in range(n_limbs):
        out[i] = [(v >> (LIMB_BITS * i)) & _MASK for v in values]
    return out


def from_limbs(limbs: np.ndarray) -> np.ndarray:
    """The Python integers of a limb array (shape (L, n)): object array of shape (n,)."""
    acc = limbs[-1].astype(object)
    for i in range(limbs.shape[0] - 2, -1, -1):
        acc = acc * (1 << LIMB_BITS) + limbs[i].astype(object)
    return acc


def normalise(limbs: np.ndarray) -> np.ndarray:
    """Carry every limb above 2^24 into the next (values unchanged); top zero limbs dropped.

    Every limb must be non-negative and below 2^62 on entry.
    """
    rows = list(limbs)
    res = []
    carry = np.zeros(limbs.shape[1], dtype=np.int64)
    i = 0
    while i < len(rows) or carry.any():
        cur = rows[i] + carry if i < len(rows) else carry
        carry = cur >> LIMB_BITS
        res.append(cur & _MASK)
        i += 1
    while len(res) > 1 and not res[-1].any():
        res.pop()
    return np.array(res, dtype=np.int64).reshape(len(res), limbs.shape[1])


def limb_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise product of two normalised limb arrays of equal length n: shape (La + Lb, n), normalised."""
    la, lb = a.shape[0], b.shape[0]
    if min(la, lb) >= 1 << 14:
        raise OverflowError("limb product of numbers above 2^(24 x 16384)")
    out = np.zeros((la + lb, a.shape[1]), dtype=np.int64)
    for i in range(la):
        for j in range(lb):
            out[i + j] += a[i] * b[j]
    return normalise(out)


def limb_sum(limbs: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sums of the runs beginning at ``starts`` (as ``np.add.reduceat``), normalised; runs below 2^38 entries."""
    if limbs.shape[1] >= 1 << 38:
        raise OverflowError("limb sum of 2^38 entries or more")
    return normalise(np.add.reduceat(limbs, starts, axis=1))


# --------------------------------------------------------------------------
# merging helpers
# --------------------------------------------------------------------------
def _obj(values) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = [int(v) for v in values]
    return out


def _merge(columns: Sequence[np.ndarray], weights: np.ndarray) -> tuple:
    """Group equal rows of the int64 ``columns`` and sum their weights.

    ``weights`` is a limb array, shape (L, n) (:func:`to_limbs`), or an
    object array of Python integers, shape (n,).  Returns the distinct rows
    (one array per column, sorted lexicographically, the first column most
    significant) and the summed weights in the same form.
    """
    limbs = weights.ndim == 2
    n = weights.shape[-1]
    if n == 0:
        return (*[c[:0] for c in columns], weights[..., :0])
    lows = [int(c.min()) for c in columns]
    radices = [int(c.max()) - lo + 1 for c, lo in zip(columns, lows)]
    if prod(radices) < _INT64_SAFE:   # one int64 key: a single sort instead of a lexicographic one
        code = np.zeros(n, dtype=np.int64)
        for c, lo, rad in zip(columns, lows, radices):
            code = code * rad + (c - lo)
        order = np.argsort(code, kind="stable")
        sc = code[order]
        start = np.ones(n, dtype=bool)
        start[1:] = sc[1:] != sc[:-1]
    else:
        order = np.lexsort(tuple(reversed(columns)))
        start = np.ones(n, dtype=bool)
        start[1:] = False
        for c in columns:
            cs = c[order]
            start[1:] |= cs[1:] != cs[:-1]
    idx = np.flatnonzero(start)
    first = order[idx]
    if limbs:
        w = limb_sum(weights[:, order], idx)
    else:
        w = np.add.reduceat(weights[order], idx)
    return (*[c[first] for c in columns], w)


def _unique_rows(mat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of an int64 matrix (lexicographic order) and the index of each row among them."""
    if mat.shape[0] == 0:
        return mat, np.zeros(0, dtype=np.int64)
    order = np.lexsort(mat.T[::-1])
    srt = mat[order]
    start = np.ones(len(order), dtype=bool)
    start[1:] = (srt[1:] != srt[:-1]).any(axis=1)
    ids = np.cumsum(start) - 1
    inv = np.empty(len(order), dtype=np.int64)
    inv[order] = ids
    return srt[start], inv


# --------------------------------------------------------------------------
# one spin: the dynamic programme
# --------------------------------------------------------------------------
def phase_outcomes(ms: MathSet, phase: Phase) -> list[ReelOutcomes]:
    """:func:`reel_outcomes` of every reel of ``phase``'s strips, reel 1 first."""
    return [reel_outcomes(ms.model, s, phase.weights) for s in ms.phase_strips(phase).codes]


def enumerated_spin_distribution(ms: MathSet, phase: Phase) -> SpinDistribution:
    """The one-spin distribution of a game whose spins fall, from its enumeration
    (:attr:`exact.enumeration.EnumeratedPhase.distribution`): joint with its award index (the scatter count
    of fall 1, or the free spins its falls award, as the phase's trigger split), ``count`` = ``"scatter"``."""
    a = analyse_phase(ms, phase)
    total = lcm(*(p.denominator for _, _, p in a.distribution))
    rows = [(i, w, int(p * total)) for i, w, p in a.distribution]
    return SpinDistribution(phase, SCATTER_COUNT, total, np.array([r[0] for r in rows], dtype=np.int64),
                            np.array([r[1] for r in rows], dtype=np.int64), np.array([r[2] for r in rows], dtype=object))


def spin_distribution(ms: MathSet, phase: Phase, count: str = SCATTER_COUNT,
                      outcomes: Sequence[ReelOutcomes] | None = None) -> SpinDistribution:
    """Exact joint distribution of (count, win) of one spin of ``phase``.

    Parameters
    ----------
    ms : MathSet
    phase : Phase
        ``model.base_phase`` or ``model.level_phase(level)``.
    count : str
        ``"scatter"`` (the base game's trigger, a free spin's retrigger) or
        ``"key"`` (a free spin's KEY count, the ladder's input).
    outcomes : sequence of ReelOutcomes, optional
        Precomputed :func:`phase_outcomes` of the phase.

    Returns
    -------
    SpinDistribution
        Wins in credits per spin, the phase's multiplier included.

    Raises
    ------
    ValueError
        An unknown ``count``; a FISH symbol or drawn WILD multiplier on the
        strips without the phase's weight table; a catalogue rule
        (``exact.rules.beyond_count_tables``: paylines, several scatters, ...).

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> d = spin_distribution(ms, ms.model.base_phase)
    >>> sum(d.joint().values())
    Fraction(1, 1)
    """
    if count not in (SCATTER_COUNT, KEY_COUNT):
        raise ValueError(f"unknown count {count!r} (scatter or key)")
    if falls_game(ms.model):      # enumerated falls: the exact joint law of (award index, win)
        return enumerated_spin_distribution(ms, phase)
    if beyond_count_tables(ms.model):   # the payline and trigger rules: this DP knows ways games only
        raise UnsupportedRule(f"unsupported rule for the one-spin distribution: {beyond_count_tables(ms.model)}",
                              rule=beyond_count_tables(ms.model), analysis="distribution")
    model = ms.model
    outs = list(outcomes) if outcomes is not None else phase_outcomes(ms, phase)
    R = len(outs)
    pays = np.array([s.pays for s in model.pay_symbols], dtype=np.int64).reshape(-1, model.reels)
    n_pay = pays.shape[0]
    any_key = [bool(o.keys.any()) for o in outs]
    any_sc = [bool(o.scatters.any()) for o in outs]
    any_fish = [bool(o.fish.any()) for o in outs]
    key_final = [not any(any_key[r + 1:]) for r in range(R)]
    fish_final = [not any(any_fish[r + 1:]) for r in range(R)]
    sc_final = [not any(any_sc[r + 1:]) for r in range(R)]
    sc_fold_at = sc_final.index(True)
    max_sc = sum(int(o.scatters.max(initial=0)) for o in outs)
    sp = np.array([trigger_scatter_pay(model, i) for i in range(max_sc + 1)], dtype=np.int64)
    total = prod(o.total for o in outs)
    # state arrays: alive table index, paid, K, N, F, weight
    o = outs[0]
    alive_tab, aid = _unique_rows(o.ways)
    paid = np.zeros(len(aid), dtype=np.int64)
    K, N, F, W = o.keys.copy(), o.scatters.copy(), o.fish.copy(), to_limbs(o.weights)
    paid, K, N, F, alive_tab, aid = _fold(0, R, paid, K, N, F, alive_tab, aid, pays, sp, key_final, fish_final,
                                           sc_fold_at, count)
    aid, paid, K, N, F, W = _merge([aid, paid, K, N, F], W)
    for r in range(1, R):
        o = outs[r]
        n_out = len(o.keys)
        _check_dp_memory(r, len(aid), n_out, len(alive_tab) * n_out, 3 * n_pay + 2)
        live = alive_tab > 0
        present = o.ways > 0
        # new ways and the pays of the combinations that end on this reel (OAK r), per (alive row, outcome)
        new_ways = alive_tab[:, None, :] * o.ways[None, :, :]
        ended = live[:, None, :] & ~present[None, :, :]
        inc = (ended * (alive_tab * pays[:, r - 1][None, :])[:, None, :]).sum(axis=2)
        if r == R - 1:   # every running combination pays its full-length OAK: no state is left running
            inc = inc + (new_ways * pays[:, R - 1][None, None, :]).sum(axis=2)
            new_tab = np.zeros((1, n_pay), dtype=np.int64)
            new_id = np.zeros(inc.shape, dtype=np.int64)
        else:
            new_tab, new_id = _unique_rows(new_ways.reshape(-1, n_pay))
            new_id = new_id.reshape(len(alive_tab), n_out)
        # outcomes equivalent for every state of one alive row: merged once per row ("classes")
        rows = np.repeat(np.arange(len(alive_tab), dtype=np.int64), n_out)
        cols = np.tile(np.arange(n_out), len(alive_tab))
        c_row, c_new, c_inc, c_k, c_n, c_f, c_w = _merge(
            [rows, new_id.reshape(-1), inc.reshape(-1), o.keys[cols], o.scatters[cols], o.fish[cols]],
            to_limbs(o.weights)[:, cols])
        first = np.searchsorted(c_row, np.arange(len(alive_tab)))
        size = np.diff(np.append(first, len(c_row)))
        # every (state, class of its alive row) pair
        per_state = size[aid]
        _check_dp_memory(r, len(aid), n_out, int(per_state.sum()), 10 + 2 * W.shape[0] + c_w.shape[0])
        s_idx = np.repeat(np.arange(len(aid)), per_state)
        offs = np.arange(len(s_idx)) - np.repeat(np.cumsum(per_state) - per_state, per_state)
        c_idx = first[aid][s_idx] + offs
        paid2 = paid[s_idx] + c_inc[c_idx]
        aid2 = c_new[c_idx]
        K2 = K[s_idx] + c_k[c_idx]
        N2 = N[s_idx] + c_n[c_idx]
        F2 = F[s_idx] + c_f[c_idx]
        W2 = limb_product(W[:, s_idx], c_w[:, c_idx])
        paid2, K2, N2, F2, new_tab, aid2 = _fold(r, R, paid2, K2, N2, F2, new_tab, aid2, pays, sp, key_final,
                                                 fish_final, sc_fold_at, count)
        aid, paid, K, N, F, W = _merge([aid2, paid2, K2, N2, F2], W2)
        alive_tab = new_tab
    cnt = K if count == KEY_COUNT else N
    cnt, wins, W = _merge([cnt, paid * phase.multiplier], W)
    W = from_limbs(W)
    keep = W != 0
    return SpinDistribution(phase=phase, count=count, total=total, counts=cnt[keep], wins=wins[keep],
                            weights=W[keep])


def _fold(r, R, paid, K, N, F, alive_tab, aid, pays, sp, key_final, fish_final, sc_fold_at, count):
    """Fold into ``paid`` what is final after reel ``r`` (0-based); see the module docstring."""
    if key_final[r]:
        paid = paid + K * F
        F = np.zeros_like(F)
        if fish_final[r] and count != KEY_COUNT:
            K = np.zeros_like(K)
    if r == sc_fold_at:
        paid = paid + sp[N]
        if count != SCATTER_COUNT:
            N = np.zeros_like(N)
    if r == R - 1 and alive_tab.any():   # a one-reel game: every running combination pays its OAK 1
        paid = paid + (alive_tab * pays[:, R - 1][None, :]).sum(axis=1)[aid]
        alive_tab = np.zeros((1, alive_tab.shape[1]), dtype=np.int64)
        aid = np.zeros_like(aid)
    return paid, K, N, F, alive_tab, aid


# --------------------------------------------------------------------------
# the feature and the round
# --------------------------------------------------------------------------
#: Mass of the live free-spin states below which an endless (uncapped) retrigger feature is cut off.
TRUNCATE_BELOW = 1e-15
#: Largest round-win grid (wins / grid step) convolved exactly with Fractions by default.
EXACT_GRID = 3000
#: Largest round-win grid convolved exactly when asked for (``exact=True``); beyond, a one-line refusal.
EXACT_LIMIT = 20000
_U = 2.0 ** -53            # unit roundoff of float64
_ETA = 10 * _U             # error of one FFT pass (Higham 2002, Thm 24.2: mu + gamma_4 (sqrt 2 + mu), mu <= u)
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


# -- value algebras: the chain is linear in the distribution of the win so far ----------
class ExactAlgebra:
    """Sub-distributions as {win: Fraction}; convolution and sum exact."""

    name = "exact"

    def kernel(self, table: dict[int, Fraction]):
        return dict(table)

    def one(self):
        return {0: Fraction(1)}

    def mul(self, a, k):
        out: dict[int, Fraction] = defaultdict(Fraction)
        for x, p in a.items():
            for y, q in k.items():
                out[x + y] += p * q
        return dict(out)

    def add(self, a, b):
        out = dict(a)
        for x, p in b.items():
            out[x] = out.get(x, 0) + p
        return out

    def mass(self, a) -> float:
        return float(sum(a.values(), Fraction(0)))

    def mul_add(self, acc, a, k):
        u = self.mul(a, k)
        return u if acc is None else self.add(acc, u)

    def scale(self, a, c: Fraction):
        return {x: p * c for x, p in a.items()}


class MaxAlgebra:
    """(largest win, its exact probability) of a sub-distribution: max-plus with probabilities."""

    name = "max"

    def kernel(self, table):
        m = max(table)
        return (m, table[m])

    def one(self):
        return (0, Fraction(1))

    def mul(self, a, k):
        return (a[0] + k[0], a[1] * k[1])

    def add(self, a, b):
        if a[0] == b[0]:
            return (a[0], a[1] + b[1])
        return a if a[0] > b[0] else b

    def mass(self, a) -> float:
        return 1.0   # the largest win is unaffected by how much mass is left: never a reason to stop

    mul_add = ExactAlgebra.mul_add


class MassAlgebra:
    """Only the mass (float): finds how many free spins an endless retrigger needs before the cut-off."""

    name = "mass"

    def kernel(self, table):
        return float(sum(table.values(), Fraction(0)))

    def one(self):
        return 1.0

    def mul(self, a, k):
        return a * k

    def add(self, a, b):
        return a + b

    def mass(self, a) -> float:
        return a

    mul_add = ExactAlgebra.mul_add


@dataclass
class Spectrum:
    """A sub-distribution on the grid 0, g, 2g, ... as its real FFT, with its mass and an error bound.

    ``err`` bounds the root-mean-square (over the n frequencies) of the error of ``spec``; by
    Parseval it bounds the 2-norm, hence every entry, of the error of the probabilities.
    """

    spec: np.ndarray
    mass: float
    err: float


class SpectralAlgebra:
    """Sub-distributions as real FFTs of length ``n`` on the grid of step ``step`` credits (float64).

    With ``theta`` > 0 every kernel is tilted, entry i times e^(theta i): the chain is linear and
    e^(theta (i + j)) = e^(theta i) e^(theta j), so the result is the round's distribution times
    e^(theta i), whose tail entries are large enough for the FFT's absolute error to leave them
    many certain digits (exponential tilting, as in the Chernoff bound).

    Error bound (module docstring): every kernel carries ``(log2 n) eta + 4 u`` times its mass,
    every product ``a k`` adds ``err(a) mass(k) + mass(a) err(k) + 3 u mass(a) mass(k)`` (|k| <=
    mass(k), |a| <= mass(a) at every frequency: the entries are non-negative), every sum
    ``u (mass(a) + mass(b))``.
    """

    name = "spectral"

    def __init__(self, n: int, step: int, theta: float = 0.0):
        if theta != dyadic(theta):
            raise ValueError("a tilt must be dyadic (exact products theta x i): use dyadic(theta)")
        self.n = n
        self.step = step
        self.theta = theta
        self.fft_err = np.log2(n) * _ETA + 4 * _U

    def kernel(self, table):
        dense = np.zeros(self.n, dtype=np.float64)
        idx = np.array([w // self.step for w in table], dtype=np.int64)
        vals = np.array([float(p) for p in table.values()], dtype=np.float64)
        if self.theta:
            vals = vals * np.exp(self.theta * idx.astype(np.float64))
        np.add.at(dense, idx, vals)
        mass = math.fsum(vals) * (1 + 8 * _U)
        return Spectrum(np.fft.rfft(dense), mass, self.fft_err * mass)

    def one(self):
        return Spectrum(np.ones(self.n // 2 + 1, dtype=np.complex128), 1.0, 0.0)

    def mul(self, a, k):
        return Spectrum(a.spec * k.spec, a.mass * k.mass,
                        a.err * k.mass + a.mass * k.err + 3 * _U * a.mass * k.mass)

    def add(self, a, b):
        return Spectrum(a.spec + b.spec, a.mass + b.mass, a.err + b.err + _U * (a.mass + b.mass))

    def scale(self, a, c: Fraction):
        """c a for an exact c > 0: c rounded to a float (u), the product rounded (u); plus the
        underflow of the products that made ``a`` (< 2^-1074 per entry each, a c <= 1e250 keeps it
        below 1e-60 in all)."""
        m = a.mass * float(c) * (1 + 2 * _U)
        return Spectrum(a.spec * float(c), m, a.err * float(c) * (1 + 2 * _U) + 2 * _U * m + 1e-60)

    def mass(self, a) -> float:
        return a.mass

    def mul_add(self, acc, a, k):
        """acc + a k, in place in ``acc`` (a new Spectrum when acc is None)."""
        if acc is None:
            return self.mul(a, k)
        buf = self._buf if getattr(self, "_buf", None) is not None and self._buf.shape == a.spec.shape \
            else np.empty_like(a.spec)
        self._buf = buf
        np.multiply(a.spec, k.spec, out=buf)
        np.add(acc.spec, buf, out=acc.spec)
        m = a.mass * k.mass
        acc.err += a.err * k.mass + a.mass * k.err + 3 * _U * m + _U * (acc.mass + m)
        acc.mass += m
        return acc

    def probabilities(self, a) -> "GridPass":
        """The probabilities on the grid (tilt undone) and their weighted 2-norm error bound."""
        q = np.fft.irfft(a.spec, n=self.n)
        bound = (a.err + (np.log2(self.n) * _ETA + 3 * _U) * max(a.mass, 1.0)) * (1 + 1e-6)
        if self.theta:
            q = q * np.exp(-self.theta * np.arange(self.n, dtype=np.float64))
        return GridPass(q, float(bound), self.theta)


@dataclass(frozen=True)
class GridPass:
    """One FFT evaluation of a distribution on the grid, with its proven error bound.

    ``p[i]`` approximates P(win = i x step); the error vector e satisfies
    ``|| e_i e^(theta i) ||_2 <= bound`` (theta = 0: the plain 2-norm, so every entry is within
    ``bound`` and a sum of m entries within sqrt(m) x bound).
    """

    p: np.ndarray
    bound: float
    theta: float = 0.0

    def weights(self, a: int, b: int) -> np.ndarray:
        """e^(-theta i) for i in [a, b): the factor of each entry's error bound."""
        i = np.arange(a, b, dtype=np.float64)
        return np.exp(-self.theta * i) if self.theta else np.ones(len(i))

    def entry_bounds(self) -> np.ndarray:
        """Per grid point: ``bound`` e^(-theta i), plus, after a tilt, the rounding of undoing it
        (``p_i`` = q_i x exp(-theta i): <= 3 u |p_i|)."""
        return self.bound * self.weights(0, len(self.p)) + self.untilt_error(0, len(self.p))

    def untilt_error(self, a: int, b: int) -> np.ndarray:
        """3 u |p_i| for i in [a, b) after a tilt (exp <= 1 ulp, the product 1/2 ulp), else 0."""
        return 3 * _U * np.abs(self.p[a:b]) if self.theta else np.zeros(b - a)


class BoundAlgebra:
    """The (mass, error bound) bookkeeping of :class:`SpectralAlgebra` without the arrays.

    Predicts, in scalars, the bound a (tilted) spectral pass would prove, so the tilt can be
    chosen by the bound it actually gives.
    """

    name = "bound"

    def __init__(self, n: int, step: int, theta: float):
        self.n, self.step, self.theta = n, step, theta
        self.fft_err = np.log2(n) * _ETA + 4 * _U

    def kernel(self, table):
        idx = np.array([w // self.step for w in table], dtype=np.float64)
        vals = np.array([float(p) for p in table.values()], dtype=np.float64) * np.exp(self.theta * idx)
        mass = math.fsum(vals) * (1 + 8 * _U)
        return (mass, self.fft_err * mass)

    def one(self):
        return (1.0, 0.0)

    def mul(self, a, k):
        return (a[0] * k[0], a[1] * k[0] + a[0] * k[1] + 3 * _U * a[0] * k[0])

    def add(self, a, b):
        return (a[0] + b[0], a[1] + b[1] + _U * (a[0] + b[0]))

    def scale(self, a, c: Fraction):
        m = a[0] * float(c) * (1 + 2 * _U)
        return (m, a[1] * float(c) * (1 + 2 * _U) + 2 * _U * m + 1e-60)

    def mul_add(self, acc, a, k):
        u = self.mul(a, k)
        return u if acc is None else self.add(acc, u)

    def mass(self, a) -> float:
        return a[0]

    def final_bound(self, a) -> float:
        """The bound :meth:`SpectralAlgebra.probabilities` would give."""
        return (a[1] + (np.log2(self.n) * _ETA + 3 * _U) * max(a[0], 1.0)) * (1 + 1e-6)


def _combine(alg, parts):
    acc = None
    for v in parts:
        acc = v if acc is None else alg.add(acc, v)
    return acc


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
    return Percentile(_num(Fraction(credits, bet)), int(credits), bool(certain))


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
    """

    step: int
    exact: dict | None
    passes: tuple = ()
    truncated: float = 0.0

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
            return 0.0, 0.0
        best = self._direct(a, b)
        n = len(self.passes[0].p)
        if a > 0 or b < n:
            # the complement: the total mass is 1 - truncated, so P(range) = 1 - truncated - P(outside)
            va, ba = self._direct(0, a) if a > 0 else (0.0, 0.0)
            vb, bb = self._direct(b, n) if b < n else (0.0, 0.0)
            v = (1.0 - self.truncated) - va - vb
            bd = ba + bb + 4 * _U + self.truncated * 1e-12
            if bd < best[1]:
                best = (v, bd)
        return best

    def _direct(self, a: int, b: int) -> tuple[float, float]:
        """The sum of grid points a..b-1 and its bound, from the pass that bounds it best."""
        best = None
        for ps in self.passes:
            v = math.fsum(ps.p[a:b])
            bd = ps.bound * float(np.linalg.norm(ps.weights(a, b))) * (1 + 1e-9) + (b - a) * _U * abs(v) \
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
            return 0.0, 0.0
        x = np.arange(a, b, dtype=np.float64) * self.step
        best = None
        for ps in self.passes:
            v = math.fsum(x * ps.p[a:b])
            bd = ps.bound * float(np.linalg.norm(x * ps.weights(a, b))) * (1 + 1e-9) + (b - a) * 2 * _U * abs(v) \
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
            return ps.bound * np.sqrt(j + 1) + (j + 1) * 4 * _U

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
            lo = 1 if a == 0 else _ceil(a)
            hi = None if b is None else _ceil(b)
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
            rows.append(WinRange(_num(fa), _num(fb), p, w / self.bet, pb, wb / self.bet))
        return rows

    def base_win_ranges(self, edges: Sequence = DEFAULT_EDGES) -> list[WinRange]:
        """The win-range table of one base spin, exact, with hits per cycle.

        ``hits`` = P(range) x :attr:`base_cycle` (stop combinations of the base strips): an
        integer where the win depends on the stops alone, an exact fraction (expected hits)
        where a FISH value or a WILD multiplier is drawn.

        >>> from strips.loader import load_math_set
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
            rows.append(WinRange(_num(fa), _num(fb), p, rtp,
                                 hits=None if hits is None else _num(hits)))
        return rows

    def tail(self, k) -> tuple[object, float]:
        """P(round win >= k x bet) with its bound."""
        return self.round.prob_between(_ceil(Fraction(k) * self.bet), None)

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
                f"= {_bets_text(Fraction(self.max_round_win, self.bet))} x bet, base entries={len(self.base.wins)})")

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

    def plot(self, ax=None, title: str | None = None):
        """Survival P(round win >= x) and the probability of each win range, log scale (matplotlib).

        ``ax`` an existing matplotlib Axes (a new figure when None).  Returns the Axes.  See
        :func:`exact.plot.plot_distribution`.
        """
        return plot_distribution(self, ax=ax, title=title)

    def _repr_html_(self) -> str:
        """Win ranges, tail, percentiles and max wins as HTML tables (no raw arrays)."""
        r = self.round
        lines = [f"bet {self.bet} credits; wins in multiples of the bet",
                 "round: exact (Fractions)" if r.is_exact else
                 f"round: floats on a grid of {r.step} credits, every probability within {r.bound:.1e}"]
        return html_tables("Win distribution", self.tables(frames=False).values(), lines)


def _ceil(x) -> int:
    x = Fraction(x)
    return -(-x.numerator // x.denominator)


def _num(x):
    if x is None:
        return None
    x = Fraction(x)
    return x.numerator if x.denominator == 1 else x


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


def _weight_norm(theta: float, a: int, b: int) -> float:
    """|| e^(-theta i) ||_2 over grid points a <= i < b."""
    if theta == 0:
        return math.sqrt(b - a)
    return math.exp(-theta * a) * math.sqrt(-math.expm1(-2 * theta * (b - a)) / -math.expm1(-2 * theta))


def dyadic(theta: float, bits: int = 20) -> float:
    """``theta`` rounded to ``bits`` significant bits, so that ``theta * i`` is exact in float64 for
    every grid index i < 2^(53 - bits) (2^33 here; grids stop at :data:`MAX_GRID` = 2^23).

    A tilt e^(theta i) then carries only the rounding of ``exp`` itself (<= 1 ulp): the argument's
    own rounding would add a relative error of about theta i x 2^-53, up to 600 x 2^-53, which the
    bound does not allow for (a tilted pass claimed 1.88e-14 where the error was 1.92e-14).

    >>> t = dyadic(0.1234567890123)
    >>> t * 12345 == float(__import__("fractions").Fraction(t) * 12345)
    True
    """
    if theta == 0:
        return 0.0
    m, e = math.frexp(theta)
    return math.ldexp(round(math.ldexp(m, bits)), e - bits)


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
        return max(math.log(bound * _weight_norm(theta, a, b) / max(1e-13, 1e-7 * p)) for a, b, p in targets)

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
        return _combine(alg, parts), feats

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
        cuts = sorted({_ceil(Fraction(k * model.bet, g)) for k in (*TAIL_BETS, *DEFAULT_EDGES[1:])
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


# --------------------------------------------------------------------------
# figures as text and JSON (every printed digit right)
# --------------------------------------------------------------------------
def sig_fraction(x, digits: int) -> str:
    """An exact int/Fraction >= 0 rounded (half to even) to ``digits`` significant digits, e.g. ``1.23457e-05``.

    Plain notation from 1e-4 to below 1e7.
    """
    x = Fraction(x)
    if x == 0:
        return "0"
    n, d = x.numerator, x.denominator
    e = len(str(n)) - len(str(d))
    if Fraction(10) ** e > x:
        e -= 1
    if Fraction(10) ** (e + 1) <= x:
        e += 1
    m = round(x / Fraction(10) ** (e - digits + 1))
    if m >= 10 ** digits:
        m //= 10
        e += 1
    return _digits_text(str(m), e)


def _digits_text(mant: str, e: int) -> str:
    """Significant digits ``mant`` (first digit non-zero) times 10^(e - len + 1) as text."""
    if -4 <= e < 7:
        if e >= len(mant) - 1:
            return mant + "0" * (e - len(mant) + 1)
        if e >= 0:
            return mant[:e + 1] + "." + mant[e + 1:]
        return "0." + "0" * (-e - 1) + mant
    return (mant[0] + ("." + mant[1:] if len(mant) > 1 else "")) + f"e{e:+03d}"


def sig_float(x: float, digits: int) -> str:
    """A float rounded to ``digits`` significant digits (correctly rounded from its binary value)."""
    if x == 0:
        return "0"
    s = f"{x:.{digits - 1}e}"
    mant, e = s.split("e")
    return _digits_text(mant.replace(".", ""), int(e))


def certain_text(value, bound: float = 0.0, digits: int = 6) -> str:
    """``value`` with only the digits the bound leaves certain (at most ``digits`` significant).

    Exact values (bound 0, int or Fraction) are rounded exactly.  A float within ``bound``:
    the most significant digits d such that value - bound and value + bound round alike
    (rounding is monotone, so the exact value rounds to them too); when no digit is
    certain, ``"<= u"`` (or ``"v +- b"``).
    """
    if not bound and (not isinstance(value, float) or value == 0):
        return sig_fraction(value, digits) if not isinstance(value, float) else "0"
    lo, hi = value - bound, value + bound
    for d in range(digits, 0, -1):
        a, b = sig_float(max(lo, 0.0), d), sig_float(hi, d)
        if a == b and lo > 0:
            return a
    if lo <= 0:
        return "<= " + sig_float(hi, 2)
    return f"{sig_float(value, 2)} +- {sig_float(bound, 1)}"


def one_in_text(p, bound: float = 0.0, digits: int = 6) -> str:
    """``1 in N`` with N = 1/p and only certain digits."""
    if not bound and not isinstance(p, float):
        return "never" if p == 0 else "1 in " + sig_fraction(1 / Fraction(p), digits)
    lo, hi = p - bound, p + bound
    if lo <= 0:
        return "1 in >= " + sig_float(1 / hi, 2) if hi > 0 else "never"
    for d in range(digits, 0, -1):
        a, b = sig_float(1 / hi, d), sig_float(1 / lo, d)
        if a == b:
            return "1 in " + a
    return "1 in " + sig_float(1 / p, 2) + " (+-)"


def frac_text(x) -> str:
    """An exact value as ``"p/q"``."""
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def _prob_json(p):
    return frac_text(p) if not isinstance(p, float) else p


def distribution_json(wd: WinDistribution, name: str, edges: Sequence = DEFAULT_EDGES) -> dict:
    """The JSON object of ``rtp distribution --json`` (its keys fixed; more may be added).

    Exact probabilities are ``"p/q"`` strings, floats are within ``error_bound`` (per round
    entry) or the ``*_bound`` given beside them.
    """
    r = wd.round
    base = wd.base.marginal()
    ranges = wd.win_ranges(edges)
    pct = wd.percentiles()
    out = {
        "set": name,
        "bet": wd.bet,
        "exact": r.is_exact,
        "grid_step": r.step,
        "base": [[w, frac_text(p)] for w, p in base],
        "round": [[w, _prob_json(p)] for w, p in r.items()],
        "error_bound": float(r.bound),
        "truncated_mass": float(r.truncated),
        "max_round_win": int(wd.max_round_win),
        "max_round_win_probability": _prob_json(wd.max_round_win_probability),
        "max_round_win_exact": wd.max_round_exact,
        "max_base_win": wd.base.max_win,
        "max_base_win_probability": frac_text(wd.base.max_win_probability),
        "max_free_spin_win": [{"level": i, "win": w, "probability": frac_text(p)}
                              for i, (w, p) in enumerate(wd.max_level_wins, start=1)],
        "hit_frequency": _prob_json(wd.hit_frequency[0]),
        "hit_frequency_bound": float(wd.hit_frequency[1]),
        "at_least": {str(k): _prob_json(wd.tail(k)[0]) for k in TAIL_BETS},
        "at_least_bound": {str(k): float(wd.tail(k)[1]) for k in TAIL_BETS},
        "win_ranges": [_range_json(x) for x in ranges],
        "base_win_ranges": [_range_json(x) for x in wd.base_win_ranges(edges)],
        "base_cycle": wd.base_cycle,
        "percentiles": {q: x.credits for q, x in pct.items()},
        "percentiles_bets": {q: _json_num(x.bets) for q, x in pct.items()},
        "percentiles_certain": {q: x.certain for q, x in pct.items()},
        "features": {str(n0): {"trigger_probability": frac_text(wd.trigger_prob[n0]),
                               "percentiles": {q: x.credits for q, x in fp.items()},
                               "max_win": int(wd.max_feature[n0][0]),
                               "max_win_probability": _prob_json(wd.max_feature[n0][1]),
                               "truncated_mass": float(wd.features[n0].truncated)}
                     for n0, fp in wd.feature_percentiles().items()},
    }
    return out


def _range_json(x: WinRange) -> dict:
    d = {"from_bets": _json_num(x.from_bets), "to_bets": _json_num(x.to_bets),
         "probability": _prob_json(x.probability), "rtp": _prob_json(x.rtp),
         "probability_bound": float(x.bound), "rtp_bound": float(x.rtp_bound)}
    if x.hits is not None:
        d["hits_per_cycle"] = _json_num(x.hits)
    return d


def _json_num(x):
    if x is None or isinstance(x, int):
        return x
    return frac_text(x)


def _bets_text(x) -> str:
    """An edge or amount in bets, exact, without trailing zeros."""
    if x is None:
        return "inf"
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    text = sig_fraction(x, 8)
    return text.rstrip("0").rstrip(".") if "." in text and "e" not in text else text


def _win_text(w: int, bet: int) -> str:
    return f"{w} credits ({_bets_text(Fraction(w, bet))} x bet)"


def distribution_text(wd: WinDistribution, name: str, edges: Sequence = DEFAULT_EDGES) -> str:
    """The ``rtp distribution`` text: win-range table, hit frequency, tails, percentiles, max wins."""
    r = wd.round
    lines = [f"WIN DISTRIBUTION  {name}  (bet {wd.bet} credits; wins in multiples of the bet)"]
    if r.is_exact:
        lines.append("round: exact (Fractions); every figure below is exact, rounded to the digits shown")
    else:
        lines.append(f"round: floats (FFT over {len(r.probabilities)} grid points of {r.step} credit"
                     f"{'s' if r.step > 1 else ''}); every probability within {sig_float(r.bound, 2)} "
                     f"(a sum of m of them within sqrt(m) x that); only certain digits are printed")
    if r.truncated:
        lines.append(f"endless retrigger cut off where the live mass is below {TRUNCATE_BELOW:g}: "
                     f"truncated mass {sig_float(r.truncated, 3)}")
    lines.append("base spin and free-spin levels: exact")
    lines.append("")
    lines += _range_table(wd.win_ranges(edges), "win range (x bet)", wd.base_cycle)
    lines.append("")
    if wd.trigger_prob:
        lines.append(f"one base spin (exact; hits in the cycle of {wd.base_cycle:,} stop combinations, "
                     f"expected hits where a value is drawn):")
        lines += _range_table(wd.base_win_ranges(edges), "base spin win (x bet)", wd.base_cycle)
        lines.append("")
    hf, hb = wd.hit_frequency
    lines.append(f"hit frequency of the round  {certain_text(hf, hb)}  ({one_in_text(hf, hb)})")
    for k in TAIL_BETS:
        p, b = wd.tail(k)
        lines.append(f"P(round win >= {k} x bet)  {certain_text(p, b)}  ({one_in_text(p, b)})")
    lines.append("")
    pct = wd.percentiles()
    lines.append("percentiles of the round win: " + ", ".join(
        f"{q}%: {_bets_text(x.bets)} x bet" + ("" if x.certain else " (uncertain within the bound)")
        for q, x in pct.items()))
    for n0, fp in wd.feature_percentiles().items():
        lines.append(f"percentiles of the feature win ({n0} free spins): " + ", ".join(
            f"{q}%: {_bets_text(x.bets)} x bet" + ("" if x.certain else " (uncertain)") for q, x in fp.items()))
    lines.append("")
    w, p = wd.max_base_win
    lines.append(f"max win of a base spin   {_win_text(w, wd.bet)}, P = {sig_fraction(p, 6)} "
                 f"({one_in_text(p)}), exact")
    for i, (w, p) in enumerate(wd.max_level_wins, start=1):
        lines.append(f"max win of a free spin, level {i}  {_win_text(w, wd.bet)}, P = {sig_fraction(p, 6)} "
                     f"({one_in_text(p)}), exact")
    p = wd.max_round_win_probability
    if wd.max_round_exact:
        lines.append(f"max win of a round       {_win_text(wd.max_round_win, wd.bet)}, P = {sig_fraction(p, 6)} "
                     f"({one_in_text(p)}), exact")
    else:
        lines.append(f"max win of a round       infinite support (endless retrigger): the largest win with "
                     f"P > {TRUNCATE_BELOW:g} is {_win_text(wd.max_round_win, wd.bet)}, P = "
                     f"{certain_text(p, r.bound)}")
    return "\n".join(lines) + "\n"


def _range_table(ranges: Sequence[WinRange], title: str, cycle: int) -> list[str]:
    """A win-range table; with a column of hits per cycle when its rows have them."""
    hits = all(x.hits is not None for x in ranges)
    rows = []
    for x in ranges:
        label = "0 (no win)" if x.from_bets == 0 and x.to_bets == 0 else \
            f"(0, {_bets_text(x.to_bets)})" if x.from_bets == 0 else f"[{_bets_text(x.from_bets)}, {_bets_text(x.to_bets)})"
        row = [label, certain_text(x.probability, x.bound), one_in_text(x.probability, x.bound),
               certain_text(x.rtp * 100, x.rtp_bound * 100) + "%"]
        if hits:
            row.append(f"{x.hits:,}" if isinstance(x.hits, int) else decimal_text(x.hits, 2, grouping=True))
        rows.append(row)
    return _table([title, "probability", "1 in N", "RTP"] + (["hits per cycle"] if hits else []), rows)


def _table(headers, rows):
    widths = [max(len(h), *(len(x[i]) for x in rows)) for i, h in enumerate(headers)]
    def fmt(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return [fmt(headers), fmt(["-" * w for w in widths])] + [fmt(x) for x in rows]
