"""The round of a small grid game as an absorbing Markov chain, solved exactly (or within a stated bound).

**States.** After an evaluation with a win, what the next evaluation depends on
is the grid left by the removal and the move (the key's place included): the
cells at the path's positions ``e .. n-1`` and ``e`` empty cells at its entry,
which the next refill draws independently.  That grid is the state.  The
round's start is the state whose every cell but the key's is empty (the
initial drop draws them); a free spin's start has every cell empty.  From a
state, each refill ``r`` (probability ``prod w(r_k) / T^e``) gives a full grid;
if it has a win the evaluation pays and moves to the next state, else the
cascade ends (absorbed), with the key on the path's end or not.

**Cycles.** The graph has cycles (on the 3x3 spiral, ``C K W / B B C / C C C``
comes back to itself when the four refilled cells draw C), so a cascade can
last any number of evaluations.  The chain is solved component by component
(:func:`markov.absorbing.solve_absorbing`): exact Fractions when every strongly
connected component has at most ``max_scc`` states, else floating point with
the stated bound.

**Figures** (each the solution of ``x = b + P x`` for a reward ``b``): the mean
win ``m`` (``b`` = expected pay of the evaluation, plus ``E[F]`` on absorbing
with the key on the path's end, ``F`` the free spins' total), its second moment
(``b = E[pay^2 + 2 pay m(next)] + E[F^2]`` on the key's absorption), P(free
spins), expected evaluations (``b = 1``), and P(round win = 0) on the chain of
zero-pay wins.  The free spins are ``spins`` independent cascades from a full
drop of their table, solved by the same chain without the key:
``E[F] = k c``, ``E[F^2] = k c2 + k (k - 1) c^2``, ``P(F = 0) = z^k``.

Transitions are found with the vectorised literal reading (:mod:`exact.grid_sim`,
itself checked against :mod:`exact.rules.grid` step by step), and
``tests/test_grid_chain.py`` checks the figures against a literal replay of
every board and refill truncated at ``k`` evaluations, within its tail.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exact.grid_sim import GridTables, codes_of, evaluate_batch, grid_tables, move
from exact.rules import MAX_EVALUATIONS, GridConfig, lava_drop, lava_step, outcomes, refilled
from markov.absorbing import solve_absorbing
from strips import limits as _limits
from strips.errors import UnsupportedRule

__all__ = ["GridChain", "build_chain", "ChainFigures", "chain_figures", "CappedRound", "capped_round", "MAX_SCC", "MAX_GRID_STATES", "active_bounds",
           "round_distribution", "truncated", "state_means", "cascade_distribution"]

#: Largest strongly connected component solved with exact Fractions (2x3 and 3x2 grids pass): the
#: default of the input limit ``scc`` (``--max-scc N``).
MAX_SCC = _limits.Limits().scc
#: Most states a chain may have (a 3x3 grid with 3 symbols passes); beyond, the simulation: the default
#: of the input limit ``grid_states`` (``--max-grid-states N``).
MAX_GRID_STATES = _limits.Limits().grid_states
#: What an unbounded limit (``--no-limits``) stands for.
_UNBOUNDED = 10 ** 18


def active_bounds(max_scc: int | None = None, max_states: int | None = None) -> tuple[int, int]:
    """``(max_scc, max_states)``: the arguments given, else the active input limits ``scc`` and
    ``grid_states`` (:func:`strips.limits.active`; unbounded under ``--no-limits``).

    >>> active_bounds()
    (200, 400000)
    >>> with _limits.using(_limits.Limits(scc=5)):
    ...     active_bounds(max_states=9)
    (5, 9)
    """
    lim = _limits.active()
    return (max_scc if max_scc is not None else (lim.scc if lim.scc is not None else _UNBOUNDED),
            max_states if max_states is not None else (lim.grid_states if lim.grid_states is not None
                                                        else _UNBOUNDED))
#: Most refills of one state (the start draws every cell but the key's).
MAX_REFILLS = 2_000_000


@dataclass
class GridChain:
    """The chain of one phase: ``states`` (grid codes as bytes; state 0 the start), per state the
    refill weight total ``denom`` (``T^e``), ``edges`` {next: [weight, weight x pay, weight of zero-pay
    wins]}, ``pay1``/``pay2`` (sums of weight x pay and weight x pay^2 over its winning refills) and
    ``end_key``/``end_other`` (weights of the refills whose grid has no win, with the key on the
    path's end or not)."""

    table: str
    states: list
    denom: list
    edges: list
    pay1: list
    pay2: list
    end_key: list
    end_other: list
    #: per state {(next state, pay): weight}: the edges split by the evaluation's pay
    split: list = None


def _refills(t: GridTables, table: str, cells: np.ndarray):
    """Every refill of ``cells`` (in order): codes (k, len) int8 and integer weights (k,) object."""
    cum = t.cumulative(table)
    w = np.diff(np.concatenate([[0], cum]))
    syms = [s for s in range(t.symbols) if w[s] > 0]
    if len(syms) ** len(cells) > MAX_REFILLS:
        raise UnsupportedRule(f"grid chain: a drop of {len(cells)} cells has {len(syms) ** len(cells):,} "
                              f"refills, more than {MAX_REFILLS:,}: the round of this grid is simulated "
                              f"('rtp simulate', 'rtp report --target-halfwidth H')",
                              rule="grid of independent cells", analysis="report")
    combos = np.array(list(itertools.product(syms, repeat=len(cells))), dtype=np.int8).reshape(-1, len(cells))
    weights = np.ones(len(combos), dtype=object)
    for k in range(len(cells)):
        weights = weights * w[combos[:, k]].astype(object)
    return combos, weights


def build_chain(cfg: GridConfig, table: str = "base", key: bool | None = None, max_states: int | None = None,
                tables: GridTables | None = None, start: dict | None = None) -> GridChain:
    """Enumerate the chain of ``table``'s cascade from its start (the key on the entry when ``key``).

    ``start`` ({full grid (symbol names): probability}, e.g. the initial drops after their random
    feature, :func:`exact.rules.start_distribution`) replaces the start's draw of every cell.

    Raises
    ------
    strips.errors.UnsupportedRule
        More than ``max_states`` states (naming the simulation).
    """
    t = tables or grid_tables(cfg)
    max_states = active_bounds(max_states=max_states)[1]
    key = (cfg.key is not None and table == "base") if key is None else key
    empty = np.full(t.cells, t.empty, dtype=np.int8)
    if key and t.key_cell >= 0:
        empty[t.key_cell] = t.key
    if start is not None:           # a state of its own: a cascade may come back to the empty grid
        empty[:] = _START
    ch = GridChain(table, [empty.tobytes()], [], [], [], [], [], [], [])
    index = {ch.states[0]: 0}
    i = 0
    total = int(t.cumulative(table)[-1])
    while i < len(ch.states):
        g = np.frombuffer(ch.states[i], dtype=np.int8)
        holes = np.nonzero(g == t.empty)[0]
        holes = holes[np.argsort(np.argsort(t.path)[holes])]          # in path order
        if i == 0 and start is not None:
            grids, weights, den = _start_grids(cfg, start)
        else:
            combos, weights = _refills(t, table, holes)
            grids = np.repeat(g[None, :], len(combos), axis=0)
            grids[:, holes] = combos
            den = total ** len(holes)
        pay, anywin, removed, nw = evaluate_batch(t, grids)
        edges: dict = {}
        split: dict = {}
        p1 = p2 = ek = eo = 0
        stop = ~anywin
        if stop.any():
            at_end = grids[stop][:, t.end_cell] == t.key
            ws = weights[stop]
            ek += int(ws[at_end].sum()) if at_end.any() else 0
            eo += int(ws[~at_end].sum()) if (~at_end).any() else 0
        if anywin.any():
            moved, _ = move(t, grids[anywin], removed[anywin], nw[anywin])
            pw = pay[anywin].astype(object)
            ww = weights[anywin]
            p1 += int((ww * pw).sum())
            p2 += int((ww * pw * pw).sum())
            keys = [m.tobytes() for m in moved]
            for kb, wv, pv in zip(keys, ww, pw):
                j = index.get(kb)
                if j is None:
                    j = index[kb] = len(ch.states)
                    ch.states.append(kb)
                    if len(ch.states) > max_states:
                        raise UnsupportedRule(
                            f"grid chain: more than {max_states:,} states (raise it with --max-grid-states N): "
                            f"the round of this grid is simulated ('rtp simulate', 'rtp report "
                            f"--target-halfwidth H')", rule="grid of independent cells", analysis="report")
                e = edges.setdefault(j, [0, 0, 0])
                split[j, pv] = split.get((j, pv), 0) + wv
                e[0] += wv
                e[1] += wv * pv
                if pv == 0:
                    e[2] += wv
        ch.denom.append(den)
        ch.edges.append(edges)
        ch.split.append(split)
        ch.pay1.append(p1)
        ch.pay2.append(p2)
        ch.end_key.append(ek)
        ch.end_other.append(eo)
        i += 1
    return ch


#: The code of every cell of a chain's start given as a distribution of full grids.
_START = 127


def _start_grids(cfg: GridConfig, start: dict):
    """A start distribution as (grid codes (k, cells) int8, integer weights (k,) object, their denominator)."""
    den = math.lcm(*(p.denominator for p in start.values()))
    grids = np.array([codes_of(cfg, g) for g in start], dtype=np.int8).reshape(len(start), cfg.cells)
    weights = np.array([p.numerator * (den // p.denominator) for p in start.values()], dtype=object)
    return grids, weights, den


@dataclass(frozen=True)
class ChainFigures:
    """Round figures from the chain: ``mean`` and ``second`` (coins, coins^2 per round), ``p_free_spins``,
    ``evaluations`` (base cascade, the last counted), ``p_zero`` (P(round win = 0)); Fractions when
    ``exact``, else floats within ``bound`` (the largest of the solves' bounds); ``states``,
    ``largest`` (component), ``free`` (the free spins' per-spin mean, second moment, P(0))."""

    mean: object
    second: object
    p_free_spins: object
    evaluations: object
    p_zero: object
    exact: bool
    bound: float
    states: int
    largest: int
    free_states: int
    #: The mean win of one free spin (coins; 0 without free spins).
    free_mean: object = 0

    @property
    def variance(self):
        return self.second - self.mean * self.mean


def _solve(ch: GridChain, rewards, max_scc: int, zero: bool = False):
    n = len(ch.states)
    edges = [{j: Fraction(e[2 if zero else 0], ch.denom[i]) for j, e in ch.edges[i].items() if e[2 if zero else 0]}
             for i in range(n)]
    return solve_absorbing(n, edges, rewards, max_scc)


def lava_moments(cfg: GridConfig, feats, max_scc: int | None = None, max_states: int | None = None) -> dict:
    """One Lava Lair free spin (:func:`exact.rules.lava_step`: the sticky WILD, the stored Dragon Destroy) as
    an absorbing chain on (grid left by an evaluation, Dragon Destroy fired): its exact (or bounded)
    ``mean``, ``second`` moment and ``zero`` = P(win 0), ``exact``, ``bound``, ``states``, ``largest``
    (component), ``means`` (the expected remaining win from every state) and ``rows`` (per state its
    transitions ``(probability, pay, next state or -1 at the end)``).  Every refill and
    every Dragon Destroy outcome is enumerated through the literal reading (small grids).

    Raises
    ------
    strips.errors.UnsupportedRule
        More than ``max_states`` states.

    >>> from fractions import Fraction
    >>> from exact.rules import grid_config_of
    >>> from exact.rules.grid_features import Feature, GridFeatures
    >>> cfg = grid_config_of(1, 3, {"A": (0, 0, 4), "B": (0, 0, 1)}, key="K", free_spins=1)
    >>> feats = GridFeatures((Feature("dragon_destroy", Fraction(0), Fraction(0), (("count", ((1, 1),)),)),))
    >>> lava_moments(cfg, feats)["zero"]
    Fraction(0, 1)
    """
    max_scc, max_states = active_bounds(max_scc, max_states)
    table = cfg.free_table
    keys: list = [None]
    index: dict = {None: 0}
    rows: list = []

    def after(grid, used, ch):
        pay, _, nxt, used = lava_step(cfg, feats, grid, used, ch)
        return pay, (None if nxt is None else (nxt, used))
    i = 0
    while i < len(keys):
        k = keys[i]
        if k is None:
            res = outcomes(cfg, lambda ch: after(lava_drop(cfg, ch), False, ch))
        else:
            (moved, holes), used = k
            res = outcomes(cfg, lambda ch: after(refilled(moved, holes, ch.symbols(table, len(holes))), used, ch))
        row = []
        for (pay, nxt), p in res.items():
            j = -1
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = len(keys)
                    keys.append(nxt)
                    if len(keys) > max_states:
                        raise UnsupportedRule(f"grid chain: a Lava Lair spin has more than {max_states:,} states "
                                              f"(raise it with --max-grid-states N)",
                                              rule="a choice of free-spin games", analysis="report")
                j = index[nxt]
            row.append((p, pay, j))
        rows.append(row)
        i += 1
    n = len(keys)
    edges = [{} for _ in range(n)]
    zedges = [{} for _ in range(n)]
    for a, row in enumerate(rows):
        for p, pay, j in row:
            if j >= 0:
                edges[a][j] = edges[a].get(j, 0) + p
                if pay == 0:
                    zedges[a][j] = zedges[a].get(j, 0) + p
    m = solve_absorbing(n, edges, [[sum((p * pay for p, pay, _ in row), Fraction(0)) for row in rows]], max_scc)
    mv = m.values[0]
    b2 = [sum((p * (pay * pay + 2 * pay * (mv[j] if j >= 0 else 0)) for p, pay, j in row), Fraction(0) if m.exact
              else 0.0) for row in rows]
    s2 = solve_absorbing(n, edges, [b2], max_scc)
    z = solve_absorbing(n, zedges, [[sum((p for p, pay, j in row if pay == 0 and j < 0), Fraction(0))
                                     for row in rows]], max_scc)
    return {"mean": mv[0], "second": s2.values[0][0], "zero": z.values[0][0], "exact": m.exact and s2.exact
            and z.exact, "bound": max(m.bounds[0], s2.bounds[0], z.bounds[0]), "states": n,
            "largest": max(m.largest, z.largest), "means": mv, "rows": rows}


def chain_figures(cfg: GridConfig, max_scc: int | None = None, max_states: int | None = None,
                  start: dict | None = None, free_start: dict | None = None,
                  free_spins: int | None = None, free_moments: dict | None = None) -> ChainFigures:
    """The exact (or bounded) figures of a whole round of a small grid game.

    ``start`` / ``free_start``: the distribution of the grid the first evaluation of the base round / of
    a free spin sees (:func:`build_chain`); ``free_spins``: the spins of an award (default ``[free_spins]
    spins``).

    Raises
    ------
    strips.errors.UnsupportedRule
        More than ``max_states`` states in the base or the free-spin chain.

    >>> from exact.rules import grid_config_of
    >>> f = chain_figures(grid_config_of(1, 3, {"A": (0, 0, 4), "B": (0, 0, 1)}))
    >>> f.mean, f.exact
    (Fraction(15, 14), True)
    """
    max_scc, max_states = active_bounds(max_scc, max_states)
    tables = grid_tables(cfg)
    fc = fc2 = Fraction(0)
    fz = Fraction(1)
    k = (cfg.free_spins if free_spins is None else free_spins) if cfg.free_table else 0
    free_states = 0
    exact = True
    bound = 0.0
    largest = 0
    if k and free_moments is not None:          # a free spin solved by its own chain (lava_moments)
        fm = free_moments
        fc, fc2, fz = fm["mean"], fm["second"], fm["zero"]
        exact, bound, largest, free_states = fm["exact"], fm["bound"], fm["largest"], fm["states"]
        ef, ef2, pf0 = k * fc, k * fc2 + k * (k - 1) * fc * fc, fz ** k
    elif k:
        fch = build_chain(cfg, cfg.free_table, key=False, max_states=max_states, tables=tables, start=free_start)
        free_states = len(fch.states)
        c = _phase_solve(fch, 0, 0, max_scc)
        z = _solve(fch, [[Fraction(fch.end_other[i] + fch.end_key[i], fch.denom[i]) for i in range(free_states)]],
                   max_scc, zero=True)
        fc, fc2, fz = c["mean"], c["second"], z.values[0][0]
        exact, bound, largest = c["exact"] and z.exact, max(c["bound"], z.bounds[0]), c["largest"]
        ef, ef2, pf0 = k * fc, k * fc2 + k * (k - 1) * fc * fc, fz ** k
    else:
        ef = ef2 = 0
        pf0 = 1
    ch = build_chain(cfg, "base", max_states=max_states, tables=tables, start=start)
    n = len(ch.states)
    r = _phase_solve(ch, ef, ef2, max_scc)
    p = _solve(ch, [[Fraction(ch.end_key[i], ch.denom[i]) for i in range(n)], [Fraction(1)] * n], max_scc)
    z = _solve(ch, [[Fraction(ch.end_other[i], ch.denom[i]) + Fraction(ch.end_key[i], ch.denom[i]) * pf0
                     for i in range(n)]], max_scc, zero=True)
    exact = exact and r["exact"] and p.exact and z.exact
    bound = max(bound, r["bound"], *p.bounds, z.bounds[0])
    largest = max(largest, r["largest"], p.largest)
    return ChainFigures(r["mean"], r["second"], p.values[0][0], p.values[1][0], z.values[0][0], exact, bound,
                        n, largest, free_states, fc)


def _phase_solve(ch: GridChain, ef, ef2, max_scc: int) -> dict:
    """Mean and second moment of the cascade's win plus ``F`` (moments ``ef``, ``ef2``) on the key's
    absorption."""
    n = len(ch.states)
    d = ch.denom
    b1 = [Fraction(ch.pay1[i], d[i]) + Fraction(ch.end_key[i], d[i]) * ef for i in range(n)]
    m = _solve(ch, [b1], max_scc)
    mv = m.values[0]
    b2 = [Fraction(ch.pay2[i], d[i]) + Fraction(ch.end_key[i], d[i]) * ef2
          + 2 * sum((Fraction(e[1], d[i]) * mv[j] for j, e in ch.edges[i].items()), Fraction(0))
          for i in range(n)] if m.exact else [
        float(ch.pay2[i]) / d[i] + float(ch.end_key[i]) / d[i] * float(ef2)
        + 2 * sum(float(e[1]) / d[i] * mv[j] for j, e in ch.edges[i].items()) for i in range(n)]
    s = _solve(ch, [b2], max_scc)
    return {"mean": mv[0], "second": s.values[0][0], "exact": m.exact and s.exact,
            "bound": max(m.bounds[0], s.bounds[0]), "largest": m.largest}


def truncated(ch: GridChain, depth: int) -> dict:
    """The cascade's first ``depth`` evaluations by forward propagation on the chain, exactly: the mean
    pay of those evaluations, P(the key's award within them), E[min(evaluations, depth)] and the tail
    P(more than ``depth`` evaluations) (no free spins counted).

    >>> from exact.rules import grid_config_of
    >>> truncated(build_chain(grid_config_of(1, 3, {"A": (0, 0, 4), "B": (0, 0, 1)})), 1)["tail"]
    Fraction(1, 4)
    """
    mass = {0: Fraction(1)}
    out = {"mean": Fraction(0), "award": Fraction(0), "evals": Fraction(0), "tail": Fraction(0)}
    for _ in range(depth):
        nxt: dict = {}
        for s, p in mass.items():
            d = ch.denom[s]
            out["evals"] += p
            out["mean"] += p * Fraction(ch.pay1[s], d)
            out["award"] += p * Fraction(ch.end_key[s], d)
            for j, e in ch.edges[s].items():
                nxt[j] = nxt.get(j, Fraction(0)) + p * Fraction(e[0], d)
        mass = nxt
    out["tail"] = sum(mass.values(), Fraction(0))
    return out


def state_means(ch: GridChain, max_scc: int | None = None) -> tuple:
    """The expected remaining pay of the cascade (no free spins) from every state."""
    n = len(ch.states)
    return _solve(ch, [[Fraction(ch.pay1[i], ch.denom[i]) for i in range(n)]], active_bounds(max_scc)[0]).values[0]


#: The round distribution is propagated until the mass still in the cascade is below this.
CUT = 1e-15


#: Most (state, win value) entries the forward propagation of the round distribution holds at once.
MAX_ENTRIES = 5_000_000


def _unit(ch: GridChain) -> int:
    """The gcd of every evaluation pay of the chain (1 without a pay): the win axis' step in coins."""
    g = 0
    for split in ch.split:
        for _, pay in split:
            g = math.gcd(g, int(pay))
    return g or 1


def _dense(ch: GridChain, cut: float, max_entries: int):
    """Forward propagation on a dense (state, win / unit) array: (ended without the key, ended with the
    key) as float arrays over win / unit, the mass left cascading, the steps, the unit."""
    n = len(ch.states)
    g = _unit(ch)
    by_pay: dict = {}
    for s, split in enumerate(ch.split):
        for (j, pay), wt in split.items():
            rows, cols, vals = by_pay.setdefault(int(pay) // g, ([], [], []))
            rows.append(j)
            cols.append(s)
            vals.append(float(wt) / ch.denom[s])
    from scipy import sparse    # imported on use: the report of a reel game never loads scipy
    mats = {k: sparse.csr_matrix((v, (r, c)), shape=(n, n)) for k, (r, c, v) in by_pay.items()}
    end_o = np.array([float(ch.end_other[i]) / ch.denom[i] for i in range(n)])
    end_k = np.array([float(ch.end_key[i]) / ch.denom[i] for i in range(n)])
    top = max(mats, default=0)
    indegree = sum((np.diff(m.indptr) for m in mats.values()), np.zeros(n, dtype=np.int64))
    mass = np.zeros((n, 1))
    mass[0, 0] = 1.0
    other, keyed = np.zeros(1), np.zeros(1)
    steps = 0
    while mass.sum() >= cut:
        width = mass.shape[1]
        if other.size < width:
            other, keyed = np.pad(other, (0, width - other.size)), np.pad(keyed, (0, width - keyed.size))
        other[:width] += end_o @ mass
        keyed[:width] += end_k @ mass
        if (width + top) * n > max_entries:
            raise UnsupportedRule(f"grid chain: the round distribution needs more than {max_entries:,} "
                                  f"(state, win) entries", rule="grid of independent cells", analysis="report")
        if steps >= MAX_EVALUATIONS:   # a cascade whose refills keep winning (one dominant weight): no end in sight
            raise UnsupportedRule(f"grid chain: the round distribution's cascades keep {float(mass.sum()):.3g} of their "
                                  f"mass after {MAX_EVALUATIONS:,} evaluations (a refill that almost always wins)",
                                  rule="grid of independent cells", analysis="report")
        nxt = np.zeros((n, width + top))
        for k, m in mats.items():
            nxt[:, k:k + width] += m @ mass
        live = np.nonzero(nxt.any(axis=0))[0]
        mass = nxt[:, :live[-1] + 1] if live.size else nxt[:, :1] * 0
        steps += 1
    # rounding depth: each step multiplies by a weight (two roundings: to float, the division) and sums at
    # most (largest in-degree) products; the absorbed arrays add n-term products once per step
    depth = steps * (int(indegree.max(initial=0)) + 4) + n + steps + 3
    return other, keyed, float(mass.sum()), steps, g, depth


def _as_dict(vec: np.ndarray, unit: int) -> dict:
    return {int(i) * unit: float(vec[i]) for i in np.nonzero(vec)[0]}


def cascade_distribution(ch: GridChain, cut: float = CUT, max_entries: int = MAX_ENTRIES):
    """The distribution of a cascade's win by forward propagation on the chain, in floating point:
    ({win: P(win, absorbed without the key on the end)}, {win: P(win, the key on the end)}, the mass
    left in the cascade when it falls below ``cut``, evaluations propagated).

    Raises
    ------
    strips.errors.UnsupportedRule
        More than ``max_entries`` (state, win) entries at once.

    >>> from exact.rules import grid_config_of
    >>> o, k, left, steps = cascade_distribution(build_chain(grid_config_of(1, 3, {"A": (0, 0, 4), "B": (0, 0, 1)})))
    >>> round(o[0], 12), left < 1e-15
    (0.75, True)
    """
    other, keyed, left, steps, g, _ = _dense(ch, cut, max_entries)
    return _as_dict(other, g), _as_dict(keyed, g), left, steps


def _spread(d: dict, unit: int) -> np.ndarray:
    v = np.zeros(max(d, default=0) // unit + 1)
    for w, p in d.items():
        v[w // unit] += p
    return v


def round_distribution(cfg: GridConfig, cut: float = CUT, max_states: int | None = None, start: dict | None = None,
                       free_start: dict | None = None, free_spins: int | None = None, depth: bool = False):
    """The round win's distribution {coins: probability} (floating point) and the cut mass (the
    probability left unassigned: cascades still running when their mass fell below ``cut``); with
    ``depth``, also the rounding depth D of every probability: each computed probability is the true
    one (of the rounds that ended) times a factor within ``[(1-u)^D, (1+u)^D]``, u = 2^-53 (all terms
    are nonnegative: Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., section 3.1).

    >>> from exact.rules import grid_config_of
    >>> d, cut = round_distribution(grid_config_of(1, 3, {"A": (0, 0, 4), "B": (0, 0, 1)}))
    >>> round(sum(d.values()) + cut, 12), cut < 1e-15
    (1.0, True)
    """
    tables = grid_tables(cfg)
    ch = build_chain(cfg, "base", max_states=max_states, tables=tables, start=start)
    o, k, left, _, g, deep = _dense(ch, cut, MAX_ENTRIES)
    other, keyed = _as_dict(o, g), _as_dict(k, g)
    spins = cfg.free_spins if free_spins is None else free_spins
    if keyed and cfg.free_table and spins:
        fch = build_chain(cfg, cfg.free_table, key=False, max_states=max_states, tables=tables, start=free_start)
        fo_, fk_, _, _, fg, fdeep = _dense(fch, cut, MAX_ENTRIES)
        fo, fk = _as_dict(fo_, fg), _as_dict(fk_, fg)
        unit = math.gcd(_unit(ch), _unit(fch))
        one = _spread({w: fo.get(w, 0.0) + fk.get(w, 0.0) for w in set(fo) | set(fk)}, unit)
        total = np.ones(1)
        for _ in range(spins):
            total = np.convolve(total, one)       # direct sums (numpy.convolve does not use the FFT)
        both = np.convolve(_spread(keyed, unit), total)
        base = _spread(other, unit)
        size = max(both.size, base.size)
        dist = _as_dict(np.pad(base, (0, size - base.size)) + np.pad(both, (0, size - both.size)), unit)
        left += sum(keyed.values()) * max(1 - float(total.sum()), 0.0)
        deep += fdeep + spins * (one.size + 1) + len(keyed) + total.size + len(dist) + 4
    else:
        dist = dict(other)
        for w, p in keyed.items():
            dist[w] = dist.get(w, 0.0) + p
        deep += 1
    out = dict(sorted(dist.items()))
    return (out, left, deep) if depth else (out, left)


@dataclass(frozen=True)
class CappedRound:
    """The round under a win cap of ``cap`` coins, from the chain's floating-point round distribution:
    ``mean`` = E[min(W, cap)] (coins), ``second`` = E[min(W, cap)^2] (coins^2), ``p_cap`` = P(W >= cap),
    each within its bound: ``bound`` (coins) for the mean, ``bound * cap`` for the second moment,
    ``bound / cap`` for the probability.  The bound is proven: the rounding of every probability (its
    depth, :func:`round_distribution`) and the cut mass, whose rounds add between 0 and ``cap`` each."""

    cap: int
    mean: float
    second: float
    p_cap: float
    bound: float

    @property
    def variance(self) -> float:
        return self.second - self.mean * self.mean

    @property
    def variance_bound(self) -> float:
        return self.bound * self.cap + (2 * abs(self.mean) + self.bound) * self.bound


def capped_round(dist: dict, left: float, depth: int, cap: int) -> CappedRound:
    """E[min(W, cap)], E[min(W, cap)^2] and P(W >= cap) of the round win W of distribution ``dist``
    ({coins: probability}, cut mass ``left``, rounding depth ``depth``: :func:`round_distribution`).

    >>> c = capped_round({0: 0.5, 10: 0.25, 40: 0.25}, 0.0, 1, 20)
    >>> c.mean, c.second, c.p_cap, c.bound < 1e-12
    (7.5, 125.0, 0.25, True)
    """
    u = 2.0 ** -53
    d = depth + 2
    gamma = d * u / (1 - d * u)
    share = 2 * gamma + u + left * (1 + 2 * gamma)     # of the cap, per unit of probability
    mean = math.fsum(min(w, cap) * p for w, p in dist.items())
    second = math.fsum(min(w, cap) ** 2 * p for w, p in dist.items())
    p_cap = math.fsum(p for w, p in dist.items() if w >= cap)
    return CappedRound(cap, mean, second, p_cap, cap * share)


def win_ranges(dist: dict, bet: int, edges=(0, 1, 2, 5, 10, 20, 50, 100, 250, 500, 1000, 5000)) -> list:
    """The distribution ``dist`` {coins: probability} by ranges of the win in bets: ``[(low, high, p), ...]``,
    first the win 0 (``(0, 0, p)``), then ``low <= win / bet < high`` (``high`` None for the last).

    >>> win_ranges({0: 0.5, 10: 0.25, 35: 0.25}, 10, edges=(0, 1, 2, 5))
    [(0, 0, 0.5), (0, 1, 0.0), (1, 2, 0.25), (2, 5, 0.25), (5, None, 0.0)]
    """
    out = [(0, 0, dist.get(0, 0.0))]
    bounds = list(edges) + [None]
    for lo, hi in zip(bounds, bounds[1:]):
        out.append((lo, hi, sum((p for w, p in dist.items() if w > 0 and lo * bet <= w
                                 and (hi is None or w < hi * bet)), 0.0)))
    return out
