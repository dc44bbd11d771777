"""Pay anywhere (``[game] evaluation = "anywhere"``): a pay symbol pays by how many cells of the window show it.

The literal reading (:func:`anywhere_wins`): for each pay symbol ``p``, ``n`` = the cells showing ``p``
or a WILD that substitutes for it, wherever they are (WILDs alone make a count too); it pays
``pays[min(n, len(pays)) - 1]`` credits (0 = no pay).  A WILD's own ``pays`` pay by the count of its
cells alone, in addition to every symbol they substitute for.  The paying cells (WILDs included)
are the cells a cascade removes.

Fast path (:func:`analyse_anywhere_phase`): without a cascade or a multiplier symbol the win of a
window is ``sum_p pay_p(N_p)`` with ``N_p = sum_r n_{p,r}(s_r)`` a sum of per-reel counts, so the
joint law of the counts is a product of per-reel count polynomials.  Each pay symbol's marginal
gives its mean exactly; the second moment needs the pairs (``N_p``, ``N_q``) and the hit frequency
the joint law of every count; both are computed by convolving per-reel distributions of the count
vectors (distinct vectors only), with the scatter counts carried along for the trigger split.
"""
from __future__ import annotations

from fractions import Fraction
from math import prod
from typing import ClassVar

import numpy as np

from exact.phase_law import EnumeratedPhase
from exact.rules.base import ENUMERATED, EvaluationRule, PaysWords
from exact.rules.scatter import scatter_codes
from markov.moments import CountSplit, spin_parts
from strips import plugins
from strips.model import window_codes

__all__ = ["Anywhere", "AnywhereWin", "count_award", "award_label", "anywhere_wins", "count_pay", "refuse_beside_cell_pays", "CellPays",
           "count_product_phase", "PRODUCT_STATES", "QUIET_STATES"]

ANYWHERE = "anywhere"


class AnywhereWin(tuple):
    """(symbol, count, pay in credits, cells as a frozenset of (reel, row), 0-based)."""

    __slots__ = ()

    def __new__(cls, symbol: str, count: int, pay: int, cells: frozenset):
        return super().__new__(cls, (symbol, count, pay, cells))

    symbol = property(lambda self: self[0])
    count = property(lambda self: self[1])
    pay = property(lambda self: self[2])
    cells = property(lambda self: self[3])


def count_pay(pays, n: int) -> int:
    """The pay of a count ``n`` of cells: ``pays[n - 1]``, the last entry beyond the list, 0 for n = 0.

    >>> count_pay((0, 0, 5, 10), 2), count_pay((0, 0, 5, 10), 9), count_pay((1,), 0)
    (0, 10, 0)
    """
    if n < 1 or not pays:
        return 0
    return pays[min(n, len(pays)) - 1]


def count_award(pays, n: int, top: int) -> int:
    """The pay entry (1-based; 0: none) a count ``n`` is paid by, of a pay list ``pays`` whose last entry
    pays every larger count, counts running up to ``top``: the award an advertised pay stands for.

    >>> count_award([0, 0, 5, 8], 9, 30), count_award([0, 0, 5, 8], 2, 30)
    (4, 0)
    """
    e = min(n, len(pays), top)
    return e if e and pays[e - 1] else 0


def award_label(name: str, e: int, pays, top: int, unit: str) -> str:
    """The label of the award of pay entry ``e`` of symbol ``name`` (``unit``: ``OAK``, ``cells``,
    ``cluster``, ``scatter pay``): the last entry reads ``e+`` when larger counts (up to ``top``) exist.

    >>> award_label("H1", 12, [0] * 11 + [800], 30, "cells")
    'H1 12+ cells'
    """
    return f"{name} {e}{'+' if e == len(pays) and e < top else ''} {unit}"


def anywhere_wins(model, window) -> tuple[AnywhereWin, ...]:
    """The pay-anywhere wins of one window, literally (credits before any multiplier).

    ``window[r][i]`` is the symbol name at reel r, row i (0-based).

    >>> from strips.loader import parse_game
    >>> import exact  # registers the evaluation
    >>> m = parse_game(b'''[game]
    ... reels = 2
    ... rows = 2
    ... bet = 1
    ... evaluation = "anywhere"
    ... [strips]
    ... base = "base.csv"
    ... [symbols.A]
    ... class = "pay"
    ... pays = [0, 0, 5]
    ... [symbols.W]
    ... class = "wild"
    ... reels = { base = [1, 2] }
    ... ''', "game.toml")
    >>> [(w.symbol, w.count, w.pay) for w in anywhere_wins(m, [["A", "W"], ["A", "A"]])]
    [('A', 4, 5)]
    """
    out = []
    for p in model.pay_symbols:
        cells = frozenset((r, i) for r, col in enumerate(window) for i, name in enumerate(col)
                          if name == p.name or model.symbol(name).substitutes_for(p.name))
        pay = count_pay(p.pays, len(cells))
        if pay:
            out.append(AnywhereWin(p.name, len(cells), pay, cells))
    for w in model.of_kind("wild"):
        if w.pays:
            cells = frozenset((r, i) for r, col in enumerate(window) for i, name in enumerate(col) if name == w.name)
            pay = count_pay(w.pays, len(cells))
            if pay:
                out.append(AnywhereWin(w.name, len(cells), pay, cells))
    return tuple(out)


def refuse_beside_cell_pays(t, model) -> None:
    """Collect (KEY/FISH) and WILD multipliers are rules of ways games: refused (file, row, column) under
    pay anywhere and clusters."""
    for s in model.symbols:
        if s.kind in ("key", "fish"):
            raise t.error(("symbols", s.name, "class"), f"unsupported rule: {s.kind} symbols (collect) in a "
                          f"{model.evaluation} game")
        if s.multiplier is not None:
            raise t.error(("symbols", s.name, "multiplier"), f"unsupported rule: a WILD multiplier in a "
                          f"{model.evaluation} game")


def count_product_phase(ms, phase):
    """One spin of ``phase`` of a pay-anywhere game without cascades, exactly, by the product over reels of
    per-reel count polynomials (the fast path of :class:`Anywhere`).

    The win of a window depends only on its vector of counts: per pay symbol ``N_p`` (its cells and its
    substituting WILDs), per paying WILD its own cells, per scatter symbol its cells; each count is a sum
    of per-reel counts, and a pay symbol's count above its ``pays`` list pays as the list's last entry,
    so the counts can be capped there (``min(a + b, c) = min(min(a, c) + b, c)``).  The exact joint law
    of the capped vector is the product over reels of each reel's law of its vector (a polynomial in one
    variable per count, truncated at the caps), built reel by reel on integer-encoded states with integer
    weights (no float); the spin's win, trigger count and scatter pays are functions of the final state.

    Returns
    -------
    exact.phase_law.EnumeratedPhase or None
        With ``method`` "per-reel product of count polynomials (N stop combinations)" and the joint law
        of (trigger count, win); credits per spin, the level multiplier included.  None when a step of
        the product passes :data:`PRODUCT_STATES` (the engine then enumerates the phase).

    Examples
    --------
    Three cells of one reel, A paying for 2 cells or more (the last entry for 3):

    >>> from exact import math_set
    >>> game = {"game": {"reels": 1, "rows": 3, "bet": 2, "evaluation": "anywhere"},
    ...         "symbols": {"A": {"class": "pay", "pays": [0, 4]}, "B": {"class": "pay", "pays": [1]}}}
    >>> one = math_set(game, {"base": [["A", "A", "B", "B"]]})
    >>> count_product_phase(one, one.model.base_phase).distribution
    ((0, 1, Fraction(1, 2)), (0, 5, Fraction(1, 2)))
    """
    model = ms.model
    strips = ms.phase_strips(phase)
    rows = model.rows
    cells = model.reels * rows
    syms = model.symbols
    # the counts: pay symbols (with their WILDs), paying WILDs alone, scatter symbols
    counted = [(p.pays, [c for c, s in enumerate(syms) if s.name == p.name or s.substitutes_for(p.name)])
               for p in model.pay_symbols]
    counted += [(w.pays, [model.code(w.name)]) for w in model.of_kind("wild") if w.pays and any(w.pays)]
    n_pays = len(counted)
    scatters = model.of_kind("scatter")
    counted += [(s.pays, list(scatter_codes(model, s))) for s in scatters]
    named = ([(p.name, "cells") for p in model.pay_symbols] + [(w.name, "cells") for w in model.of_kind("wild")
             if w.pays and any(w.pays)] + [(s.name, "scatter pay") for s in scatters])
    caps = np.array([min(len(p), cells) if i < n_pays else cells for i, (p, _) in enumerate(counted)], dtype=np.int64)
    member = np.zeros((len(syms), len(counted)), dtype=np.int64)
    for j, (_, codes) in enumerate(counted):
        member[codes, j] = 1
    n = prod(strips.cycle_lengths)     # weighted stops: the product of the reels' weight totals
    wtype = np.int64 if n < 1 << 62 else object
    tsym = model.trigger_symbol
    t_idx = n_pays + [s.name for s in scatters].index(tsym.name) if tsym is not None else None
    reached = _count_product(strips.codes, rows, member, caps, wtype)
    if reached is None:                  # too many count vectors reached: the moments by pairs of counts
        return _pairs_phase(phase, strips.codes, rows, member, caps, [p for p, _ in counted], n_pays, t_idx, n, wtype,
                            named)
    states, weights = reached
    weights = weights.tolist()
    pay_tabs = [np.array([count_pay(p, k) for k in range(cells + 1)], dtype=np.int64) for p, _ in counted]
    win = np.zeros(states.shape[0], dtype=np.int64)
    scat = np.zeros(states.shape[0], dtype=np.int64)
    for j, tab in enumerate(pay_tabs):
        win += tab[states[:, j]]
        if j >= n_pays:
            scat += tab[states[:, j]]
    trig = states[:, t_idx] if t_idx is not None else np.zeros(states.shape[0], dtype=np.int64)
    m = phase.multiplier
    law: dict = {}
    for a, w, x in zip(trig.tolist(), win.tolist(), weights):
        law[(a, w * m)] = law.get((a, w * m), 0) + x
    size = max(a for a, _ in law) + 1
    prob, wsum, w2sum = [0] * size, [0] * size, [0] * size
    for (a, w), x in law.items():
        prob[a] += x
        wsum[a] += x * w
        w2sum[a] += x * w * w
    split = CountSplit(*(tuple(Fraction(v, n) for v in t) for t in (prob, wsum, w2sum)))
    scatter_mean = Fraction(sum(int(s) * x for s, x in zip(scat.tolist(), weights)) * m, n)
    hit = Fraction(sum(x for (a, w), x in law.items() if w > 0), n)
    return EnumeratedPhase(
        phase=phase, mean=split.mean, second=split.second,
        parts=spin_parts(split.mean - scatter_mean, scatter=scatter_mean), ways_by_symbol={}, oak_prob={}, by_scatter=split,
        by_key=CountSplit((Fraction(1),), (split.mean,), (split.second,)), hit_frequency=hit,
        method=f"per-reel product of count polynomials ({n:,} stop combinations)",
        combinations=n, distribution=tuple((a, w, Fraction(x, n)) for (a, w), x in sorted(law.items())),
        award_odds=_award_odds(named, [p for p, _ in counted], [_marginal(states[:, j], weights) for j in range(len(caps))],
                               cells, n))


def _marginal(values, weights) -> list[int]:
    """The law of one count from the product's states: weight per count value (index = value)."""
    out = [0] * (int(values.max(initial=0)) + 1)
    for v, w in zip(values.tolist(), weights):
        out[v] += int(w)
    return out


def _award_odds(named, pays, marginals, cells: int, n: int) -> tuple:
    """Per advertised award of the counts (``named``: (symbol, unit) per count; ``pays`` its pay list) its
    credits and P(a spin pays it), from each count's law ``marginals`` (weights per value, the largest value
    standing for every larger count): the labels of :attr:`exact.falls.FallEvaluator.awards`."""
    out = []
    for (name, unit), p, law in zip(named, pays, marginals):
        acc: dict[int, int] = {}
        for c in range(1, cells + 1):
            e = count_award(p, c, cells)
            if e:
                acc[e] = acc.get(e, 0) + (int(law[c]) if c < len(law) else 0)
        out += [(award_label(name, e, p, cells, unit), int(p[e - 1]), Fraction(w, n)) for e, w in acc.items()]
    return tuple(out)


def _pairs_phase(phase, strips, rows: int, member, caps, pays, n_pays: int, t_idx, n: int, wtype, named):
    """One spin's exact figures from the laws of pairs of counts, for a game whose whole count vector reaches
    too many values (the fast path of :func:`count_product_phase` past :data:`PRODUCT_STATES`).

    With ``W = sum_j pay_j(N_j)`` (pay symbols, paying WILDs, scatters) and ``T`` the trigger count,
    ``E[W 1{T=a}] = sum_j E[pay_j(N_j) 1{T=a}]`` needs the law of each pair ``(N_j, T)`` and
    ``E[W^2 1{T=a}] = sum_{j,k} E[pay_j(N_j) pay_k(N_k) 1{T=a}]`` the law of each triple ``(N_j, N_k, T)``:
    each is a product over reels of that reel's law of its three counts (a 3-d integer array convolved
    reel by reel, capped where the pay stops changing: ``min(a + b, c) = min(min(a, c) + b, c)``).  The hit
    frequency ``1 - P(every pay_j(N_j) = 0)``: by inclusion-exclusion (:func:`_quiet_by_inclusion_exclusion`),
    else the sparse product of the vectors where no count has passed its last zero pay
    (:func:`_quiet_weight`).  Each award's odds come from its count's law.

    Returns
    -------
    exact.phase_law.EnumeratedPhase or None
        As :func:`count_product_phase`, without the joint law (``distribution`` empty: the win
        distribution enumerates the game); None when the hit frequency's vectors also pass the bound.
    """
    cells = len(strips) * rows
    n_counts = len(caps)
    wins = [window_codes(c, rows) for c in strips]
    per_reel = [member[w].sum(axis=1) for w in wins]                 # (stops, counts) per reel
    tab = [np.array([count_pay(p, k) for k in range(cells + 1)], dtype=np.int64).astype(wtype) for p in pays]
    scat = list(range(n_pays, n_counts))

    def law(idx):
        """The law of the counts ``idx``, each pay count capped where its pay stops changing."""
        return _counts_law(per_reel, idx, wtype, tuple(int(caps[j]) if j != t_idx else cells for j in idx))

    def paid(j, size):
        return tab[j][:size]          # the entry at the cap stands for every count past it

    first = [0] * (cells + 1)
    second = [0] * (cells + 1)
    prob = None
    scatter_total = 0
    marginals = []
    for j in range(n_counts):
        if t_idx is None:
            lj = law((j,))
            marginals.append(lj.tolist())
            row = (lj * paid(j, lj.shape[0])).sum()
            first[0] += row
            if j in scat:
                scatter_total += row
        else:
            lj = law((j, t_idx))
            marginals.append(lj.sum(axis=1).tolist())
            if prob is None:
                prob = lj.sum(axis=0)
            col = (lj * paid(j, lj.shape[0])[:, None]).sum(axis=0)
            for a, x in enumerate(col.tolist()):
                first[a] += x
            if j in scat:
                scatter_total += int(col.sum())
        for k in range(j, n_counts):
            twice = 1 if k == j else 2
            if t_idx is None:
                lk = law((j, k))
                x = (lk * paid(j, lk.shape[0])[:, None] * paid(k, lk.shape[1])[None, :]).sum()
                second[0] += twice * x
            else:
                lk = law((j, k, t_idx))
                col = (lk * paid(j, lk.shape[0])[:, None, None] * paid(k, lk.shape[1])[None, :, None]).sum(axis=(0, 1))
                for a, x in enumerate(col.tolist()):
                    second[a] += twice * x
    if prob is None:
        prob = np.array([n], dtype=object)
    size = len(prob)
    while size > 1 and prob[size - 1] == 0:
        size -= 1
    quiet = _quiet_by_inclusion_exclusion(per_reel, tab, wtype)
    quiet = quiet if quiet is not None else _quiet_weight(per_reel, tab, wtype)
    if quiet is None:
        return None
    m = phase.multiplier
    split = CountSplit(tuple(Fraction(int(prob[a]), n) for a in range(size)),
                       tuple(Fraction(int(first[a]) * m, n) for a in range(size)),
                       tuple(Fraction(int(second[a]) * m * m, n) for a in range(size)))
    scatter_mean = Fraction(int(scatter_total) * m, n)
    return EnumeratedPhase(
        phase=phase, mean=split.mean, second=split.second,
        parts=spin_parts(split.mean - scatter_mean, scatter=scatter_mean), ways_by_symbol={}, oak_prob={}, by_scatter=split,
        by_key=CountSplit((Fraction(1),), (split.mean,), (split.second,)), hit_frequency=Fraction(n - quiet, n),
        method=f"per-reel products of count polynomials, by pairs of counts ({n:,} stop combinations)",
        combinations=n, distribution=(), award_odds=_award_odds(named, pays, marginals, cells, n))


def _counts_law(per_reel, idx, wtype, caps=None):
    """The exact law of the counts ``idx`` (count indices, repeats allowed) of a window: an ndarray of integer
    weights indexed by the counts, each count ``min(count, cap)`` (``caps`` per index; None: uncapped, each
    count at most the cells), the product over reels of each reel's law, convolved by shifted adds of the
    reel's distinct count vectors, the mass past a cap folded onto it after each reel
    (``min(a + b, c) = min(min(a, c) + b, c)``).

    >>> per_reel = [np.array([[0], [1]]), np.array([[1], [1], [0]])]
    >>> _counts_law(per_reel, (0,), np.int64).tolist(), _counts_law(per_reel, (0,), np.int64, (1,)).tolist()
    ([1, 3, 2], [1, 5])
    """
    out = np.ones((1,) * len(idx), dtype=wtype)
    for v in per_reel:
        vals, cnt = np.unique(v[:, list(idx)], axis=0, return_counts=True)
        top = vals.max(axis=0)
        new = np.zeros(tuple(a + b for a, b in zip(out.shape, top)), dtype=wtype)
        for vec, c in zip(vals, cnt):
            new[tuple(slice(x, x + d) for x, d in zip(vec, out.shape))] += out * int(c)
        for axis, cap in enumerate(caps or ()):
            if new.shape[axis] > cap + 1:
                over = np.take(new, range(cap, new.shape[axis]), axis=axis).sum(axis=axis, keepdims=True)
                new = np.concatenate([np.take(new, range(cap), axis=axis), over], axis=axis)
        out = new
    return out


#: The most counts a term of :func:`_quiet_by_inclusion_exclusion` takes at once (a dense law of that many
#: counts, each up to the cells).
INCLUSION_DEPTH = 5


def _quiet_by_inclusion_exclusion(per_reel, tab, wtype):
    """The stop combinations whose window pays nothing, by inclusion-exclusion over the events
    ``A_j = {pay_j(N_j) > 0}``: ``#(no A_j) = sum_S (-1)^|S| #(every A_j, j in S)``, each term from the dense
    law of the counts in S (:func:`_counts_law`).  A set S whose counts cannot all reach their first paying
    count (the sum over reels of each reel's largest ``sum_{j in S} n_j`` is below the sum of those counts)
    has no combination, nor has any set holding it, so the sum runs over the sets grown from possible ones
    only.  None when a possible set has more than :data:`INCLUSION_DEPTH` counts (then the sparse product).
    """
    n = prod(len(v) for v in per_reel)
    live = [j for j, t in enumerate(tab) if t.any()]
    first = {j: int(np.flatnonzero(tab[j])[0]) for j in live}
    # whether count k pays is the same for every k from stable[j] on: the law may cap the count there
    stable = {j: int(np.flatnonzero(np.diff((tab[j] != 0).astype(np.int8)))[-1]) + 1
              if np.diff((tab[j] != 0).astype(np.int8)).any() else 0 for j in live}
    total, level = n, [()]
    for size in range(1, len(live) + 1):
        grown = sorted({tuple(sorted(S + (j,))) for S in level for j in live if not S or j > S[-1]})
        level = [S for S in grown
                 if sum(int(v[:, list(S)].sum(axis=1).max()) for v in per_reel) >= sum(first[j] for j in S)]
        if not level:
            return total
        if size > INCLUSION_DEPTH:
            return None
        for S in level:
            lw = _counts_law(per_reel, S, wtype, tuple(stable[j] for j in S))
            mask = np.ones(lw.shape, dtype=bool)
            for axis, j in enumerate(S):
                shape = [1] * len(S)
                shape[axis] = lw.shape[axis]
                mask &= (tab[j][: lw.shape[axis]] != 0).reshape(shape)   # the cap's entry stands for all past it
            total += (-1) ** size * int(lw[mask].sum())
    return total


def _merge_codes(keys, w, radix, base):
    """The sparse polynomial's merge step: the count vectors coded as ``keys`` (a mixed-radix code, ``radix``
    its place values, ``base`` its digit bases; shape (m,), int64) with weights ``w`` (m,), sorted and equal
    codes merged with their weights added (exact integers).  Returns ``(states (k, counts) int64, weights
    (k,))``, the distinct vectors decoded in increasing code order.

    >>> st, w = _merge_codes(np.array([3, 1, 3]), np.array([1, 2, 4]), np.array([1, 2]), np.array([2, 2]))
    >>> st.tolist(), w.tolist()
    ([[1, 0], [1, 1]], [2, 5])
    """
    order = np.argsort(keys, kind="stable")
    keys, w = keys[order], w[order]
    first = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
    return (keys[first][:, None] // radix[None, :]) % base[None, :], np.add.reduceat(w, first)


def _quiet_weight(per_reel, tab, wtype):
    """The stop combinations whose window pays nothing: the sparse product of :func:`_count_product` on the
    counts that can pay, each capped one past its last zero pay, a vector dropped as soon as a count
    passes it; None past :data:`PRODUCT_STATES`."""
    zero = []
    for j, t in enumerate(tab):
        z = np.flatnonzero(t == 0)
        if len(z) < len(t):              # a count that can pay: quiet while it stays at or below its last zero
            zero.append((j, int(z.max()) if len(z) else -1))
    if not zero:
        return prod(len(v) for v in per_reel)
    idx = [j for j, _ in zero]
    limit = np.array([z for _, z in zero], dtype=np.int64)        # a count above it pays
    radix = np.cumprod(np.concatenate([[1], limit[:-1] + 2])).astype(np.int64)
    states = np.zeros((1, len(idx)), dtype=np.int64)
    weights = np.ones(1, dtype=wtype)
    for v in per_reel:
        vals, cnt = np.unique(v[:, idx], axis=0, return_counts=True)
        if states.shape[0] * vals.shape[0] > QUIET_STATES:
            return None
        nxt = states[:, None, :] + vals[None, :, :]
        keep = (nxt <= limit).all(axis=2).ravel()
        keys = (np.minimum(nxt, limit + 1) @ radix).ravel()[keep]
        w = (weights[:, None] * cnt.astype(wtype)[None, :]).ravel()[keep]
        if len(keys) == 0:
            return 0
        states, weights = _merge_codes(keys, w, radix, limit + 2)
    # below its last zero a count may still pay (pays = [0, 0, 3, 0, 5]): keep the vectors that pay nothing
    silent = np.ones(states.shape[0], dtype=bool)
    for c, j in enumerate(idx):
        silent &= tab[j][states[:, c]] == 0
    return int(weights[silent].sum())


#: The most (count vector reached, count vector of the next reel) pairs one step of the product takes (its
#: work arrays about 8 x counts x that many bytes); a game reaching more is enumerated.
PRODUCT_STATES = 1 << 17

#: The same bound for the hit frequency's product of :func:`_pairs_phase` (the vectors no count of which
#: has passed its last zero pay).
QUIET_STATES = 1 << 22


def _count_product(strips, rows: int, member, caps, wtype):
    """The exact law of the capped count vector of a window: the product over reels, reel by reel, of each
    reel's law of its count vector, on the vectors reached only (a sparse polynomial: integer-encoded
    vectors, sorted, equal ones merged with their integer weights added).

    Parameters
    ----------
    strips : sequence of int arrays
        Per reel its strip's symbol codes.
    member : ndarray (symbols, counts), int64
        1 where a symbol adds to a count.
    caps : ndarray (counts,), int64
        The cap of each count (``min(a + b, c) = min(min(a, c) + b, c)``).
    wtype : numpy dtype
        The weights' dtype (int64 when the cycle is below 2^62, else object: exact either way).

    Returns
    -------
    (states (m, counts) int64, weights (m,)) or None
        None when a step would take more than :data:`PRODUCT_STATES` pairs or the vectors' code would
        pass 2^62.

    >>> st, w = _count_product([np.array([0, 1]), np.array([0, 0, 1])], 1, np.array([[1], [0]]), np.array([2]),
    ...                        np.int64)
    >>> st.tolist(), w.tolist()
    ([[0], [1], [2]], [1, 3, 2])
    """
    radix = np.cumprod(np.concatenate([[1], caps[:-1] + 1])).astype(np.int64)
    if prod(int(c) + 1 for c in caps) >= 1 << 62:
        return None
    states = np.zeros((1, len(caps)), dtype=np.int64)
    weights = np.ones(1, dtype=wtype)
    for codes in strips:
        win = window_codes(codes, rows)          # (stops, rows); a weighted stop's window by its weight
        vals, cnt = np.unique(member[win].sum(axis=1), axis=0, return_counts=True)
        if states.shape[0] * vals.shape[0] > PRODUCT_STATES:
            return None
        keys = (np.minimum(states[:, None, :] + vals[None, :, :], caps) @ radix).ravel()
        w = (weights[:, None] * cnt.astype(wtype)[None, :]).ravel()
        states, weights = _merge_codes(keys, w, radix, caps + 1)
    return states, weights


class CellPays(EvaluationRule):
    """The common part of the evaluations that pay by cells (anywhere, clusters): exact by enumeration,
    collect and WILD multipliers refused at load; subclasses set ``name``, ``keys`` and ``evaluation``."""

    implements = ENUMERATED
    #: The engine's ways/lines factorisation does not compute it.
    factorised = False
    evaluation = ""

    @classmethod
    def parse(cls, t, doc: dict, model) -> None:
        """Refuse what the evaluation cannot mean (collect, WILD multipliers); it keeps no configuration."""
        if cls.present(model):
            refuse_beside_cell_pays(t, model)
        return None

    @classmethod
    def present(cls, model) -> bool:
        return model.evaluation == cls.evaluation

    #: How the views name the pays (:class:`exact.rules.base.PaysWords`): set by each evaluation.
    words: ClassVar[PaysWords] = PaysWords()

    @classmethod
    def pays_words(cls, model) -> PaysWords:
        """The report's and workbook's words for the evaluation's pays (``anywhere pays``, ``cluster pays``).

        >>> Anywhere.pays_words(None).pays
        'anywhere pays'
        """
        return cls.words


class Anywhere(CellPays):
    """Pay anywhere: exact by the per-reel count product (no cascade) or by enumeration.

    >>> Anywhere.present(type("M", (), {"evaluation": "anywhere"})())
    True
    """

    name = "pay-anywhere evaluation"
    keys = '[game] evaluation = "anywhere"'
    evaluation = ANYWHERE
    words = PaysWords("anywhere pays", "anywhere wins", "", "count")


    @classmethod
    def phase_path(cls, model):
        """The per-reel product of count polynomials (:func:`count_product_phase`, which declines a game
        reaching more than :data:`PRODUCT_STATES` count vectors: it is enumerated) when it is the game's only rule without
        per-reel terms (no cascade, no multiplier symbol), without trigger reels or a WILD counted as a
        scatter; else None (enumeration)."""
        if model.trigger_reels or any(s.counts_as_scatter for s in model.symbols):
            return None
        return count_product_phase

    @classmethod
    def reads_stop_weights(cls, model) -> bool:
        """The count products read weighted stops by their weights; the enumeration does not."""
        return cls.phase_path(model) is not None


plugins.register(Anywhere.name, (), Anywhere.parse)
plugins.register_evaluation(ANYWHERE, pays_by_cells=True, wild_pays=True)
