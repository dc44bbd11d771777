r"""The whole win distribution: one spin of every phase exactly, the feature and the round.

One spin (exact)
----------------
The win of one spin of a phase is a function of the stops, the FISH value
draws and the drawn WILD multipliers (rules page sections 6-9, issue 9); the
reels stop independently and every draw belongs to one reel's window.  So the
distribution is built by a dynamic programme over the reels, left to right:

*Per reel* every stop and every joint draw of the window's FISH values and
WILD multipliers is an *outcome* ``(c, k, n, f)``: ``c`` the ways count of
every pay symbol on the reel (its own count plus the multipliers of the
substituting WILDs, section 6 with issue 9), ``k`` KEY, ``n`` scatter symbols,
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
of a spin), 10 (scatter count), 11 (level multiplier); issue 9 (WILD
multipliers, scatter pays); issue 13 (this distribution).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm, prod
from typing import Sequence

import numpy as np

from strips.model import FISH, KEY, PAY, PER_WILD, SCATTER, WILD, GameModel, MathSet, Phase

#: The joint counts a one-spin distribution can be kept with.
SCATTER_COUNT, KEY_COUNT = "scatter", "key"

_INT64_SAFE = 2**62


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
    win = np.asarray(strip, dtype=np.int64)[(np.arange(n)[:, None] + np.arange(rows)[None, :]) % n]
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
        strips without the phase's weight table; a rule of issue 15
        (``GameModel.catalogue_rule``: paylines, several scatters, ...).

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
    if ms.model.catalogue_rule:   # issue 15 rules (paylines, ...): this DP knows ways games only
        raise ValueError(f"unsupported rule for the win distribution: {ms.model.catalogue_rule}")
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
    sp = np.array([model.scatter_pay(i) for i in range(max_sc + 1)], dtype=np.int64)
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
