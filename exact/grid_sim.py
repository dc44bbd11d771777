"""The literal reading of a grid game, vectorised across rounds (numpy): evaluation, cascade, whole rounds.

Every figure is the rule of :mod:`exact.rules.grid` applied to many grids at
once.  Symbols are small integer codes: the pay symbols ``0 .. S-1`` (the
config's order), the WILD ``S``, the key ``S+1``, an empty cell ``S+2``.  A
line (row or column) of ``n`` cells showing codes ``x_0 .. x_{n-1}`` (no empty
cell) is the pattern number ``sum x_k B^k`` (``B = S + 2``); for each line a table
built once through the literal reading (:func:`exact.rules.grid.find_wins` on
that line alone, its cells ordered as the path orders them) gives, per pattern,
the pay of its wins, the cells they remove, their WILDs (which explode), the new
WILDs and the WILD-only runs.  Since every win lies in one line and a WILD-only
win pays only when no line holds another win, one evaluation of the grid is one
table look-up per line, an OR of cell bitmasks (a grid has at most 64 cells) and
the neighbour shifts of the exploding WILDs; the move along the path is a stable
compaction of the grid read in path order; refills draw ``rng.integers(0, T)``
against the table's cumulative integer weights (exactly ``w / T`` each).

Arrays: ``grids`` is ``(n, cells)`` int8 (row-major cells); bitmasks are uint64.
``tests/test_grid_sim.py`` checks each step and whole cascades against the
literal reading on the same draws.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import numpy as np

from exact.rules import MAX_EVALUATIONS, GridConfig, find_wins, middle_cell

__all__ = ["GridTables", "grid_tables", "evaluate_batch", "win_parts", "move", "draw_cells", "cascade_batch", "RoundBatch", "play_rounds",
           "codes_of", "names_of", "MAX_CELLS"]

#: Cells a grid may have for the vectorised reading (one bit each in a uint64 mask).
MAX_CELLS = 64
#: Line patterns a table may hold (B^n): longer lines are refused by :func:`grid_tables`.
MAX_PATTERNS = 2_000_000


@dataclass(frozen=True)
class GridTables:
    """The per-line tables and draws of a grid game (picklable; sent to each Dask worker once).

    Attributes
    ----------
    rows, columns, symbols : int
        Grid shape and S, the number of pay symbols.
    path : ndarray (cells,) int64
        The path, entry first.
    weights : tuple of (name, ndarray (S,) int64 cumulative weights)
    key_cell : int
        The path's entry (where the key starts; -1 without a key).
    end_cell : int
    free_spins : int
    free_table : str or None
    powers : ndarray (cells, lines) float64
        Pattern number of each line = grid codes @ powers (exact below 2^53).
    offsets : ndarray (lines,) int64
        Start of each line's block in the flat tables.
    reg_pay, wo_pay : ndarray int64
        Coins of the line's wins (regular; WILD-only runs).
    reg_any, wo_any : ndarray bool
    reg_rm, reg_xw, reg_nw, wo_rm : ndarray uint64
        Cell bitmasks: cells removed, WILDs that explode, new WILDs; cells of WILD-only runs.
    """

    rows: int
    columns: int
    symbols: int
    path: np.ndarray
    weights: tuple
    key_cell: int
    end_cell: int
    free_spins: int
    free_table: str | None
    powers: np.ndarray
    offsets: np.ndarray
    reg_pay: np.ndarray
    reg_any: np.ndarray
    reg_rm: np.ndarray
    reg_xw: np.ndarray
    reg_nw: np.ndarray
    wo_pay: np.ndarray
    wo_any: np.ndarray
    wo_rm: np.ndarray

    @property
    def cells(self) -> int:
        return self.rows * self.columns

    @property
    def wild(self) -> int:
        return self.symbols

    @property
    def key(self) -> int:
        return self.symbols + 1

    @property
    def empty(self) -> int:
        return self.symbols + 2

    def cumulative(self, table: str) -> np.ndarray:
        return dict(self.weights)[table]

    @cached_property
    def packed_a(self) -> np.ndarray:
        """Grids of at most 32 cells: removed cells | exploding WILDs << 32, one word per pattern."""
        return self.reg_rm | (self.reg_xw << np.uint64(32))

    @cached_property
    def packed_b(self) -> np.ndarray:
        """Grids of at most 32 cells: new WILDs | (a regular win) << 32."""
        return self.reg_nw | (self.reg_any.astype(np.uint64) << np.uint64(32))


def codes_of(cfg: GridConfig, grid) -> np.ndarray:
    """Symbol names (None: empty) -> codes, int8."""
    code = {s: i for i, s in enumerate(cfg.pay_symbols)}
    S = len(code)
    code.update({cfg.wild: S, cfg.key: S + 1, None: S + 2})
    return np.array([code[s] for s in grid], dtype=np.int8)


def names_of(cfg: GridConfig, codes) -> tuple:
    """Codes -> symbol names (None: empty)."""
    names = list(cfg.pay_symbols) + [cfg.wild, cfg.key, None]
    return tuple(names[int(c)] for c in codes)


def grid_tables(cfg: GridConfig) -> GridTables:
    """Build the per-line tables of ``cfg`` through the literal reading (one look-up per line pattern).

    Raises
    ------
    ValueError
        More than :data:`MAX_CELLS` cells, or a line with more than :data:`MAX_PATTERNS` patterns.

    >>> from exact.rules import grid_config_of
    >>> t = grid_tables(grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}))
    >>> t.reg_pay.size, int(t.reg_pay.max())
    (176, 5)
    """
    if cfg.cells > MAX_CELLS:
        raise ValueError(f"the vectorised reading takes grids of at most {MAX_CELLS} cells, got {cfg.cells}")
    S = len(cfg.pay_symbols)
    B = S + 2
    order = {c: i for i, c in enumerate(cfg.path)}
    blocks = {k: [] for k in ("reg_pay", "reg_any", "reg_rm", "reg_xw", "reg_nw", "wo_pay", "wo_any", "wo_rm")}
    powers = np.zeros((cfg.cells, len(cfg.lines)), dtype=np.float64)
    offsets, off = [], 0
    found: dict[int, list] = {}
    for li, line in enumerate(cfg.lines):
        n = len(line)
        if B ** n > MAX_PATTERNS:
            raise ValueError(f"a line of {n} cells with {S} pay symbols has {B ** n:,} patterns, more than "
                             f"{MAX_PATTERNS:,}")
        if n not in found:
            found[n] = _line_wins(cfg, n)
        for k, c in enumerate(line):
            powers[c, li] = B ** k
        # the line alone, as a 1 x n grid whose path orders its cells as the game's path does
        lc = GridConfig(1, n, tuple(sorted(range(n), key=lambda k: order[line[k]])), cfg.pays, cfg.wild,
                        cfg.weights, cfg.bet, key=cfg.key)
        size = B ** n
        arr = {k: np.zeros(size, dtype=np.int64 if k.endswith("pay") else bool if k.endswith("any") else np.uint64)
               for k in blocks}
        for idx, wins in found[n]:
            rm = sum(1 << line[k] for k in {k for w in wins for k in w.cells})
            pay = sum(w.pay for w in wins)
            if wins[0].symbol == cfg.wild:
                arr["wo_pay"][idx], arr["wo_any"][idx], arr["wo_rm"][idx] = pay, True, rm
                continue
            xw = sum(1 << line[k] for k in {k for w in wins for k in w.wilds})
            nw = sum(1 << line[k] for k in {middle_cell(lc, w.cells) for w in wins if not w.wilds})
            arr["reg_pay"][idx], arr["reg_any"][idx] = pay, True
            arr["reg_rm"][idx], arr["reg_xw"][idx], arr["reg_nw"][idx] = rm, xw, nw
        for k in blocks:
            blocks[k].append(arr[k])
        offsets.append(off)
        off += size
    weights = tuple((name, np.cumsum([w for _, w in table]).astype(np.int64)) for name, table in cfg.weights)
    flat = {k: np.concatenate(v) for k, v in blocks.items()}
    return GridTables(cfg.rows, cfg.columns, S, np.array(cfg.path, dtype=np.int64), weights,
                      cfg.path[0] if cfg.key else -1, cfg.path[-1], cfg.free_spins, cfg.free_table,
                      powers, np.array(offsets, dtype=np.int64), **flat)


def _line_wins(cfg: GridConfig, n: int) -> list:
    """(pattern number, wins) of every pattern of a line of ``n`` cells that holds a win, by the literal
    reading on a 1 x n grid (cells are line positions)."""
    S = len(cfg.pay_symbols)
    names = list(cfg.pay_symbols) + [cfg.wild, cfg.key]
    lc = GridConfig(1, n, tuple(range(n)), cfg.pays, cfg.wild, cfg.weights, cfg.bet, key=cfg.key)
    out = []
    for idx, pattern in zip(_candidates(S, n).tolist(), _patterns(S, n)):
        if (cfg.wild is None and S in pattern) or (cfg.key is None and S + 1 in pattern):
            continue
        wins = find_wins(lc, [names[x] for x in pattern])
        if wins:
            out.append((idx, wins))
    return out


def _digits(S: int, n: int) -> np.ndarray:
    """Every pattern of a line of ``n`` cells over the codes ``0 .. S+1``: (B^n, n) int, x_0 the lowest digit."""
    B = S + 2
    idx = np.arange(B ** n)
    return np.stack([(idx // B ** k) % B for k in range(n)], axis=1)


def _candidates(S: int, n: int) -> np.ndarray:
    """The pattern numbers that can hold a win: three adjacent cells each showing one pay symbol or the
    WILD (code S) -- every win (a run of 3 or more of a symbol with WILDs, or of WILDs alone) has them;
    the literal reading decides the rest."""
    d = _digits(S, n)
    ok = np.zeros(len(d), dtype=bool)
    for a in range(n - 2):
        w = d[:, a:a + 3]
        for sym in range(S):
            ok |= ((w == sym) | (w == S)).all(axis=1)
    return np.nonzero(ok)[0]


def _patterns(S: int, n: int):
    """The digit tuples of :func:`_candidates`, in the same order."""
    d = _digits(S, n)
    return (tuple(r) for r in d[_candidates(S, n)].tolist())


def _bits(mask: np.ndarray, cells: int) -> np.ndarray:
    """uint64 masks (n,) -> bool (n, cells)."""
    return ((mask[:, None] >> np.arange(cells, dtype=np.uint64)) & np.uint64(1)).astype(bool)


def _neighbours(t: GridTables, mask: np.ndarray) -> np.ndarray:
    """Cells up, down, left and right of every cell of ``mask`` (uint64 bitmasks)."""
    C, n = t.columns, t.cells
    full = np.uint64((1 << n) - 1)
    col0 = np.uint64(sum(1 << (i * C) for i in range(t.rows)))
    last = np.uint64(sum(1 << (i * C + C - 1) for i in range(t.rows)))
    c = np.uint64(C)
    one = np.uint64(1)
    return (((mask >> c) | (mask << c) | ((mask & ~col0) >> one) | ((mask & ~last) << one)) & full)


def evaluate_batch(t: GridTables, grids: np.ndarray, sticky: int = -1):
    """One evaluation of each full grid: (pay int64, any win bool, removed uint64, new WILDs uint64).

    Shapes: ``grids`` (n, cells) int8 with no empty cell; outputs (n,).  ``sticky``: a cell holding a
    sticky WILD (never removed, never explodes), -1 for none.
    """
    pay, reg_any, rm, xw, nw = win_parts(t, grids)
    if sticky >= 0:
        xw = xw & ~np.uint64(1 << sticky)
    removed = rm | _neighbours(t, xw)
    if sticky >= 0:
        removed &= ~np.uint64(1 << sticky)
    if t.key_cell >= 0:
        keys = grids == t.key
        kmask = np.bitwise_or.reduce(np.where(keys, np.uint64(1) << np.arange(t.cells, dtype=np.uint64),
                                              np.uint64(0)), axis=1)
        removed &= ~kmask
    return pay, reg_any, removed, nw


def win_parts(t: GridTables, grids: np.ndarray):
    """The wins of each full grid: (pay int64, any win bool, the cells of its wins uint64, their WILDs
    uint64, the new WILDs uint64), WILD-only runs counted when the grid has no other win.

    Shapes: ``grids`` (n, cells) int8 with no empty cell; outputs (n,).
    """
    idx = (grids.astype(np.float64) @ t.powers).astype(np.int64) + t.offsets
    pay = t.reg_pay[idx].sum(axis=1)
    if t.cells <= 32:             # two cell masks in one word: half the look-ups
        low = np.uint64(0xFFFFFFFF)
        a = np.bitwise_or.reduce(t.packed_a[idx], axis=1)
        b = np.bitwise_or.reduce(t.packed_b[idx], axis=1)
        rm, xw, nw = a & low, a >> np.uint64(32), b & low
        reg_any = (b >> np.uint64(32)).astype(bool)
    else:
        reg_any = t.reg_any[idx].any(axis=1)
        rm = np.bitwise_or.reduce(t.reg_rm[idx], axis=1)
        xw = np.bitwise_or.reduce(t.reg_xw[idx], axis=1)
        nw = np.bitwise_or.reduce(t.reg_nw[idx], axis=1)
    none = ~reg_any
    if none.any():                  # WILD-only runs pay when the grid has no other win
        sub = idx[none]
        wo_any = t.wo_any[sub].any(axis=1)
        if wo_any.any():
            wrm = np.bitwise_or.reduce(t.wo_rm[sub], axis=1)
            pay[none] = t.wo_pay[sub].sum(axis=1)
            rm[none] = wrm
            xw[none] = wrm
            reg_any[none] = wo_any
    return pay, reg_any, rm, xw, nw


def move(t: GridTables, grids: np.ndarray, removed: np.ndarray, new_wilds: np.ndarray, sticky: int = -1):
    """Remove, place the new WILDs, move along the path: (moved grids with empty cells, empties per grid).

    The ``e`` empty cells of a grid are the first ``e`` cells of the path (of the path without the
    ``sticky`` cell, which keeps its symbol, when ``sticky >= 0``).
    """
    g = grids.copy()
    g[_bits(removed, t.cells)] = t.empty
    g[_bits(new_wilds, t.cells)] = t.wild
    path = t.path if sticky < 0 else t.path[t.path != sticky]
    gp = g[:, path]
    full = gp != t.empty
    n = gp.shape[1]
    after = np.cumsum(full[:, ::-1], axis=1)[:, ::-1]      # non-empty cells at or after each position
    target = n - after
    out = np.full_like(gp, t.empty)
    rows = np.nonzero(full)
    out[rows[0], target[rows]] = gp[rows]
    moved = g.copy() if sticky >= 0 else np.empty_like(g)
    moved[:, path] = out
    return moved, n - full.sum(axis=1)


#: Weight totals up to this draw by a look-up table of one entry per unit of weight (else searchsorted).
LOOKUP_LIMIT = 1 << 20


def draw_cells(t: GridTables, table: str, shape, rng: np.random.Generator) -> np.ndarray:
    """Independent symbols of ``table``: int8 codes of ``shape`` (``u`` uniform on 0..T-1, symbol ``s``
    where ``cum[s-1] <= u < cum[s]``: probability ``w_s / T`` exactly)."""
    cum = t.cumulative(table)
    u = rng.integers(0, int(cum[-1]), size=shape)
    if cum[-1] <= LOOKUP_LIMIT:
        return _lookup(cum)[u]
    return np.searchsorted(cum, u, side="right").astype(np.int8)


_LOOKUPS: dict = {}


def _lookup(cum: np.ndarray) -> np.ndarray:
    key = cum.tobytes()
    if key not in _LOOKUPS:
        _LOOKUPS[key] = np.searchsorted(cum, np.arange(int(cum[-1])), side="right").astype(np.int8)
    return _LOOKUPS[key]


Draw = Callable[[np.ndarray, int, int], np.ndarray]


def cascade_batch(t: GridTables, grids: np.ndarray, draw: Draw, first: bool = True):
    """Play every grid to its last evaluation.

    ``draw(rows, evaluation, n)`` gives the refill codes (len(rows), n) of the grids ``rows`` after
    evaluation ``evaluation`` (0-based), path order from the entry (the first ``e`` used).

    Returns
    -------
    (win int64, evaluations int64, first_pay int64, final grids int8)
        Coins per grid, evaluations counted with the last one (no win), the first evaluation's pay.

    Raises
    ------
    ValueError
        A cascade longer than :data:`exact.rules.grid.MAX_EVALUATIONS`.
    """
    n = grids.shape[0]
    win = np.zeros(n, dtype=np.int64)
    evals = np.zeros(n, dtype=np.int64)
    first_pay = np.zeros(n, dtype=np.int64)
    final = grids.copy()
    active = np.arange(n)
    g = grids
    step = 0
    while active.size:
        pay, anywin, removed, nw = evaluate_batch(t, g)
        evals[active] += 1
        win[active] += pay
        if step == 0:
            first_pay[active] = pay
        done = ~anywin
        final[active[done]] = g[done]
        active, g, removed, nw = active[anywin], g[anywin], removed[anywin], nw[anywin]
        if not active.size:
            break
        if step + 1 >= MAX_EVALUATIONS:
            raise ValueError(f"a cascade of more than {MAX_EVALUATIONS:,} evaluations")
        moved, empties = move(t, g, removed, nw)
        e = int(empties.max())
        refill = draw(active, step, e)                 # path positions 0 .. e-1
        gp = moved[:, t.path[:e]]
        fill = np.arange(e)[None, :] < empties[:, None]
        moved[:, t.path[:e]] = np.where(fill, refill[:, :e], gp)
        g = moved
        step += 1
    return win, evals, first_pay, final


@dataclass(frozen=True)
class RoundBatch:
    """Whole rounds: per round the base cascade's ``base_win``, ``evaluations``, ``first_pay`` (the first
    evaluation's pay), whether the key ``awarded`` the free spins, and the free spins' ``free_win``
    (coins)."""

    base_win: np.ndarray
    evaluations: np.ndarray
    first_pay: np.ndarray
    first_win: np.ndarray
    awarded: np.ndarray
    free_win: np.ndarray

    @property
    def win(self) -> np.ndarray:
        return self.base_win + self.free_win


def initial_grids(t: GridTables, table: str, n: int, rng: np.random.Generator, key: bool) -> np.ndarray:
    """``n`` initial drops: every cell drawn, the key on the path's entry when ``key``."""
    g = draw_cells(t, table, (n, t.cells), rng)
    if key and t.key_cell >= 0:
        g[:, t.key_cell] = t.key
    return g


def play_rounds(t: GridTables, n: int, rng: np.random.Generator, grids: np.ndarray | None = None) -> RoundBatch:
    """Play ``n`` whole rounds (or the rounds of the initial ``grids`` given), every draw from ``rng``.

    >>> from exact.rules import grid_config_of
    >>> t = grid_tables(grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, key="K", free_spins=2))
    >>> r = play_rounds(t, 1000, np.random.default_rng(1))
    >>> bool((r.evaluations >= 1).all()), bool((r.win >= r.first_pay).all())
    (True, True)
    """
    if grids is None:
        grids = initial_grids(t, "base", n, rng, True)
    base_draw = lambda rows, step, k: draw_cells(t, "base", (rows.size, k), rng)   # noqa: E731
    win, evals, first, final = cascade_batch(t, grids, base_draw)
    first_win = evals > 1
    awarded = (final[:, t.end_cell] == t.key) if t.key_cell >= 0 else np.zeros(len(win), dtype=bool)
    free = np.zeros(len(win), dtype=np.int64)
    hit = np.nonzero(awarded)[0]
    if hit.size and t.free_table and t.free_spins:
        m = hit.size * t.free_spins
        fg = initial_grids(t, t.free_table, m, rng, False)
        fdraw = lambda rows, step, k: draw_cells(t, t.free_table, (rows.size, k), rng)   # noqa: E731
        fwin, _, _, _ = cascade_batch(t, fg, fdraw)
        free[hit] = fwin.reshape(hit.size, t.free_spins).sum(axis=1)
    return RoundBatch(win, evals, first, first_win, awarded, free)
