r"""The exact distribution of one spin of a phase: a dynamic programme over the reels.

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
from typing import Sequence

import numpy as np

from exact.engine import analyse_phase
from exact.falls import falls_game
from exact.limbs import from_limbs, limb_product, merge_equal, object_array, to_limbs, unique_rows
from exact.rules import beyond_count_tables, trigger_scatter_pay, window_fish, window_ways
from strips.errors import UnsupportedRule
from strips.model import FISH, KEY, PAY, SCATTER, WILD, GameModel, MathSet, Phase, window_codes

#: The joint counts a one-spin distribution can be kept with.
SCATTER_COUNT, KEY_COUNT = "scatter", "key"

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
        return merge_equal([self.wins], self.weights)

    def marginal(self) -> list[tuple[int, Fraction]]:
        """[(win, P(win))], ascending in win, every win of positive probability, exact."""
        wins, w = self.win_weights()
        return [(int(v), Fraction(int(x), self.total)) for v, x in zip(wins, w)]

    def count_probabilities(self) -> dict[int, Fraction]:
        """{count: P(count)}, exact."""
        c, w = merge_equal([self.counts], self.weights)
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
            added = window_ways(s, key.count(code), table)     # the WILD rule's step
            nxt: dict[tuple, int] = defaultdict(int)
            for cv, x in ways.items():
                for v, y in added.items():
                    nxt[tuple(a + v * m for a, m in zip(cv, subst))] += x * y
            ways = dict(nxt)
        fish = window_fish([syms[c] for c in key if syms[c].kind == FISH], table)   # the collect rule's step
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
        weights=object_array([x // g for _, x in items]),
        total=n * den // g)


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
        Precomputed :func:`phase_outcomes` of the phase, or the caller's own per-reel outcomes of a ways
        spin (their counts its own: :mod:`exact.round_distribution` keys them by several symbols' counts).

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
    if outcomes is None and beyond_count_tables(ms.model):   # paylines, trigger rules: the DP knows ways only
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
    alive_tab, aid = unique_rows(o.ways)
    paid = np.zeros(len(aid), dtype=np.int64)
    K, N, F, W = o.keys.copy(), o.scatters.copy(), o.fish.copy(), to_limbs(o.weights)
    paid, K, N, F, alive_tab, aid = _fold(0, R, paid, K, N, F, alive_tab, aid, pays, sp, key_final, fish_final,
                                           sc_fold_at, count)
    aid, paid, K, N, F, W = merge_equal([aid, paid, K, N, F], W)
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
            new_tab, new_id = unique_rows(new_ways.reshape(-1, n_pay))
            new_id = new_id.reshape(len(alive_tab), n_out)
        # outcomes equivalent for every state of one alive row: merged once per row ("classes")
        rows = np.repeat(np.arange(len(alive_tab), dtype=np.int64), n_out)
        cols = np.tile(np.arange(n_out), len(alive_tab))
        c_row, c_new, c_inc, c_k, c_n, c_f, c_w = merge_equal(
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
        aid, paid, K, N, F, W = merge_equal([aid2, paid2, K2, N2, F2], W2)
        alive_tab = new_tab
    cnt = K if count == KEY_COUNT else N
    cnt, wins, W = merge_equal([cnt, paid * phase.multiplier], W)
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
