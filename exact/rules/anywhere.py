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

import numpy as np

from exact.phase_law import EnumeratedPhase
from exact.rules.base import ENUMERATED, EvaluationRule
from exact.rules.scatter import scatter_codes
from markov.moments import CountSplit, spin_parts
from strips import plugins

__all__ = ["Anywhere", "AnywhereWin", "anywhere_wins", "count_pay", "refuse_beside_cell_pays", "CellPays",
           "count_product_phase", "PRODUCT_STATES"]

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
    caps = np.array([min(len(p), cells) if i < n_pays else cells for i, (p, _) in enumerate(counted)], dtype=np.int64)
    member = np.zeros((len(syms), len(counted)), dtype=np.int64)
    for j, (_, codes) in enumerate(counted):
        member[codes, j] = 1
    n = prod(len(c) for c in strips.codes)
    reached = _count_product(strips.codes, rows, member, caps, np.int64 if n < 1 << 62 else object)
    if reached is None:                  # too many count vectors reached: the engine enumerates it
        return None
    states, weights = reached
    weights = weights.tolist()
    pay_tabs = [np.array([count_pay(p, k) for k in range(cells + 1)], dtype=np.int64) for p, _ in counted]
    win = np.zeros(states.shape[0], dtype=np.int64)
    scat = np.zeros(states.shape[0], dtype=np.int64)
    for j, tab in enumerate(pay_tabs):
        win += tab[states[:, j]]
        if j >= n_pays:
            scat += tab[states[:, j]]
    tsym = model.trigger_symbol
    t_idx = n_pays + [s.name for s in scatters].index(tsym.name) if tsym is not None else None
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
        combinations=n, distribution=tuple((a, w, Fraction(x, n)) for (a, w), x in sorted(law.items())))


#: The most (count vector reached, count vector of the next reel) pairs one step of the product takes (its
#: work arrays about 8 x counts x that many bytes); a game reaching more is enumerated.
PRODUCT_STATES = 1 << 20


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
        win = window_of(np.asarray(codes, dtype=np.int64), rows)                 # (L, rows)
        vals, cnt = np.unique(member[win].sum(axis=1), axis=0, return_counts=True)
        if states.shape[0] * vals.shape[0] > PRODUCT_STATES:
            return None
        keys = (np.minimum(states[:, None, :] + vals[None, :, :], caps) @ radix).ravel()
        w = (weights[:, None] * cnt.astype(wtype)[None, :]).ravel()
        order = np.argsort(keys, kind="stable")
        keys, w = keys[order], w[order]
        first = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
        weights = np.add.reduceat(w, first)
        states = (keys[first][:, None] // radix[None, :]) % (caps + 1)[None, :]
    return states, weights


def window_of(codes, rows: int):
    """The window column of every stop of a reel strip (wrap-around): shape (len(codes), rows).

    >>> window_of(np.array([0, 1, 2]), 2).tolist()
    [[0, 1], [1, 2], [2, 0]]
    """
    L = len(codes)
    return codes[(np.arange(L)[:, None] + np.arange(rows)[None, :]) % L]


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


class Anywhere(CellPays):
    """Pay anywhere: exact by the per-reel count product (no cascade) or by enumeration.

    >>> Anywhere.present(type("M", (), {"evaluation": "anywhere"})())
    True
    """

    name = "pay-anywhere evaluation"
    keys = '[game] evaluation = "anywhere"'
    evaluation = ANYWHERE


    @classmethod
    def phase_path(cls, model):
        """The per-reel product of count polynomials (:func:`count_product_phase`, which declines a game
        reaching more than :data:`PRODUCT_STATES` count vectors: it is enumerated) when it is the game's only rule without
        per-reel terms (no cascade, no multiplier symbol), without trigger reels or a WILD counted as a
        scatter; else None (enumeration)."""
        if model.trigger_reels or any(s.counts_as_scatter for s in model.symbols):
            return None
        return count_product_phase


plugins.register(Anywhere.name, (), Anywhere.parse)
plugins.register_evaluation(ANYWHERE, pays_by_cells=True, wild_pays=True)
