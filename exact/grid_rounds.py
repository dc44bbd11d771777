"""Whole rounds of a grid game with random features and a choice of free-spin games, vectorised (numpy).

The literal readings are :mod:`exact.rules.grid_features` (the four random
features of the initial drop) and :mod:`exact.rules.grid_free_games` (Star
Bar, Lava Lair, Lucky Mug, Golden Pot); this module plays them on many grids
at once with the kernels of :mod:`exact.grid_sim` (one table look-up per line,
cell bitmasks, the path compaction).  Every draw is an integer uniform on
``0 .. bound-1`` read exactly as :class:`exact.rules.IntegerChooser` reads it
(a weighted choice by cumulative integer weights in the game file's order; a
uniform choice by index; a subset by successive draws among the values left,
in cell order), and each round (and each free spin) has its own stream of
draws in the order the literal reading makes them.  So a literal replay of the
same integers gives the same grids and the same wins, which
``tests/test_grid_rounds.py`` checks step by step and round by round (exact
equality).  In a simulation the integers come from one numpy Generator
(:class:`RngDraws`): the streams are then interleaved, which changes nothing
in law (every draw is independent and uniform).

Arrays: grids are ``(n, cells)`` int8 codes of :mod:`exact.grid_sim` (pay
symbols ``0 .. S-1``, the WILD ``S``, the key ``S+1``); wins are int64 coins.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exact.grid_sim import GridTables, draw_cells, evaluate_batch, grid_tables, move, win_parts
from exact.rules import MAX_EVALUATIONS, GridConfig, integer_weights

__all__ = ["RoundTables", "round_tables", "RngDraws", "FeaturedBatch", "play_featured_rounds", "apply_features",
           "free_drops", "free_cascades", "cascade", "PLAIN", "MAX_RETRIES"]

#: The choice name of plain free spins (a game without ``[free_spins.games]``).
PLAIN = "free_spins"
#: Tries of a Dragon Destroy redraw before the simulation gives up (the literal player's limit).
MAX_RETRIES = 100_000


@dataclass(frozen=True)
class Weighted:
    """A weighted draw: the ``values`` (codes or names) and their cumulative integer weights ``cum``."""

    values: np.ndarray
    cum: np.ndarray

    @classmethod
    def of(cls, options, code=lambda v: v) -> "Weighted":
        options = list(options)
        return cls(np.array([code(v) for v, _ in options]), np.cumsum(integer_weights([w for _, w in options])).astype(np.int64))

    def draw(self, d, rows: np.ndarray) -> np.ndarray:
        u = d.ints(rows, int(self.cum[-1]))
        return self.values[np.searchsorted(self.cum, u, side="right")]


@dataclass(frozen=True)
class RoundTables:
    """Everything a worker needs to play whole rounds (picklable).

    Attributes
    ----------
    t : GridTables
    lines : ndarray (L, longest) int64
        The rows then the columns of the grid, cells in line order, padded with -1.
    line_len : ndarray (L,) int64
    line_mask : ndarray (L, cells) bool
    features : tuple of str
        The random features, in the order of their draw.
    pick : dict
        ``True``/``False`` (a drop with / without a win) -> Weighted over the feature indices and -1
        (no feature).
    draws : dict
        The weight tables of the features and games: (feature or game, key) -> Weighted.
    sources : tuple of int
        Magic Transform's ``from`` codes.
    games : tuple of (name, spins, cells)
        The free-spin games (or ``(PLAIN, spins, 0)``), ``default`` the default choice.
    cap : int or None
        The win cap in coins (``[game] max_win`` x bet).
    """

    t: GridTables
    lines: np.ndarray
    line_len: np.ndarray
    line_mask: np.ndarray
    features: tuple
    pick: dict
    draws: dict
    sources: tuple
    games: tuple
    default: str
    free_table: str | None
    cap: int | None
    bet: int = 1

    def spins(self, game: str) -> int:
        return next(s for g, s, _ in self.games if g == game)

    def game_cells(self, game: str) -> int:
        return next(c for g, _, c in self.games if g == game)


def round_tables(cfg: GridConfig, feats=None, games=None, cap_bets: int | None = None) -> RoundTables:
    """The tables of :func:`play_featured_rounds` for ``cfg`` with its random features ``feats``
    (:class:`exact.rules.GridFeatures` or None), free-spin games ``games``
    (:class:`exact.rules.FreeSpinGames` or None) and win cap ``cap_bets`` (bets, or None).

    >>> from exact.rules import grid_config_of
    >>> rt = round_tables(grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, key="K", free_spins=2))
    >>> rt.games, rt.lines.tolist()
    ((('free_spins', 2, 0),), [[0, 1, 2], [3, 4, 5], [0, 3, -1], [1, 4, -1], [2, 5, -1]])
    """
    t = grid_tables(cfg)
    code = {s: i for i, s in enumerate(cfg.pay_symbols)}
    code[cfg.wild] = t.wild
    longest = max(len(ln) for ln in cfg.lines)
    lines = np.array([list(ln) + [-1] * (longest - len(ln)) for ln in cfg.lines], dtype=np.int64)
    mask = np.zeros((len(cfg.lines), cfg.cells), dtype=bool)
    for i, ln in enumerate(cfg.lines):
        mask[i, list(ln)] = True
    fs = tuple(feats.features) if feats else ()
    pick, draws, sources = {}, {}, ()
    if fs:
        for won in (True, False):
            probs = [(i, f.win if won else f.no_win) for i, f in enumerate(fs)]
            pick[won] = Weighted.of(probs + [(-1, 1 - sum(p for _, p in probs))])
    for f in fs:
        for key, table in f.tables:
            as_code = key in ("symbols", "to")
            draws[(f.name, key)] = Weighted.of(table, (lambda v: code[v]) if as_code else (lambda v: v))
        if f.name == "magic_transform":
            sources = tuple(code[s] for s in f.sources)
    if games is not None:
        gs = tuple((g.name, g.spins, g.cells) for g in games.games)
        for g in games.games:
            if g.overlay:
                draws[(g.name, "overlay")] = Weighted.of(g.overlay, lambda v: code[v])
        default = games.default
    else:
        gs = ((PLAIN, cfg.free_spins, 0),) if cfg.free_table else ()
        default = PLAIN
    return RoundTables(t, lines, np.array([len(ln) for ln in cfg.lines], dtype=np.int64), mask,
                       tuple(f.name for f in fs), pick, draws, sources, gs, default, cfg.free_table,
                       None if cap_bets is None else cap_bets * cfg.bet, cfg.bet)


class RngDraws:
    """The draws of a simulation: every integer from the numpy Generator ``rng`` (the streams of the
    rounds interleaved: every draw independent and uniform, the law of the literal reading)."""

    def __init__(self, t: GridTables, rng: np.random.Generator):
        self.t, self.rng = t, rng

    def ints(self, rows: np.ndarray, bound) -> np.ndarray:
        """Integers uniform on ``0 .. bound-1`` (a bound per row or one for all), one per row of ``rows``."""
        b = np.asarray(bound, dtype=np.int64)
        if (b < 1).any():
            raise ValueError("a draw among no options")
        return self.rng.integers(0, np.broadcast_to(b, rows.shape)) if rows.size else np.zeros(0, np.int64)

    def cells(self, rows: np.ndarray, table: str, counts: np.ndarray) -> np.ndarray:
        """Symbols of weight table ``table``: (len(rows), max(counts)) int8 codes, ``counts[i]`` used in row i."""
        k = int(counts.max()) if counts.size else 0
        return draw_cells(self.t, table, (rows.size, k), self.rng)

    def spawn(self, rows: np.ndarray, game: str, spins: int) -> "RngDraws":
        """The draws of the ``spins`` free spins of game ``game`` of each round of ``rows`` (row-major)."""
        return self


def _pick(avail: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Per row, the index of the ``j``-th (0-based) True of ``avail`` (m, k)."""
    return (np.cumsum(avail, axis=1) > j[:, None]).argmax(axis=1)


def _subset(d, rows: np.ndarray, avail: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``k[i]`` successive uniform picks among the True cells of ``avail[i]`` (taken ones removed): the
    cells (m, max k), -1 past ``k[i]``."""
    avail = avail.copy()
    top = int(k.max()) if k.size else 0
    picks = np.full((len(rows), top), -1, dtype=np.int64)
    for q in range(top):
        act = np.nonzero(k > q)[0]
        j = d.ints(rows[act], avail[act].sum(axis=1))
        idx = _pick(avail[act], j)
        avail[act, idx] = False
        picks[act, q] = idx
    return picks


def _put(G: np.ndarray, picks: np.ndarray, symbol) -> None:
    """Write ``symbol`` (one, or one per row) on the cells ``picks`` (-1: none) of each grid."""
    r, q = np.nonzero(picks >= 0)
    G[r, picks[r, q]] = symbol if np.ndim(symbol) == 0 else np.asarray(symbol)[r]


def _without_key(rt: RoundTables, G: np.ndarray) -> np.ndarray:
    """(m, L) bool: the lines of each grid that do not hold the key."""
    return ~((G == rt.t.key).astype(np.int64) @ rt.line_mask.T.astype(np.int64)).astype(bool)


def _line_cells(rt: RoundTables, G: np.ndarray, li: np.ndarray, start: np.ndarray, k: np.ndarray, symbol) -> None:
    """Overwrite ``k[i]`` cells of line ``li[i]`` from position ``start[i]`` with ``symbol`` (per row or one)."""
    top = int(k.max()) if k.size else 0
    picks = np.full((len(li), top), -1, dtype=np.int64)
    for q in range(top):
        sel = k > q
        picks[sel, q] = rt.lines[li[sel], start[sel] + q]
    _put(G, picks, symbol)


def _starfall(rt: RoundTables, d, rows: np.ndarray, G: np.ndarray) -> None:
    """Starfall Wilds on the grids ``G`` (in place): the mode, the pattern's cells or the line's run, then
    one WILD at a time on a cell neither key nor WILD while the grid has no win."""
    t = rt.t
    mode = rt.draws[("starfall_wilds", "modes")].draw(d, rows)
    for name, key in (("pattern", "pattern_count"), ("line", "line_count")):
        i = np.nonzero(mode == name)[0]
        if not i.size:
            continue
        k = rt.draws[("starfall_wilds", key)].draw(d, rows[i]).astype(np.int64)
        sub = G[i]
        if name == "pattern":
            _put(sub, _subset(d, rows[i], sub != t.key, k), t.wild)
        else:
            valid = _without_key(rt, sub) & (rt.line_len[None, :] >= k[:, None])
            li = _pick(valid, d.ints(rows[i], valid.sum(axis=1)))
            a = d.ints(rows[i], rt.line_len[li] - k + 1)
            _line_cells(rt, sub, li, a, k, t.wild)
        G[i] = sub
    act = np.arange(len(rows))
    while act.size:
        anywin = win_parts(t, G[act])[1]
        act = act[~anywin]
        rest = (G[act] != t.key) & (G[act] != t.wild)
        act, rest = act[rest.any(axis=1)], rest[rest.any(axis=1)]
        if not act.size:
            break
        c = _pick(rest, d.ints(rows[act], rest.sum(axis=1)))
        G[act, c] = t.wild


def _refill(rt: RoundTables, d, rows, moved: np.ndarray, empties: np.ndarray, table: str, sticky: int = -1) -> None:
    """Fill the ``empties[i]`` first cells of the path (without ``sticky``) of each moved grid, in place."""
    e = int(empties.max()) if empties.size else 0
    if not e:
        return
    t = rt.t
    path = t.path if sticky < 0 else t.path[t.path != sticky]
    vals = d.cells(rows, table, empties)
    pos = path[:e]
    fill = np.arange(e)[None, :] < empties[:, None]
    moved[:, pos] = np.where(fill, vals[:, :e], moved[:, pos])


def _dragon(rt: RoundTables, d, rows: np.ndarray, G: np.ndarray, table: str, sticky: int = -1) -> np.ndarray:
    """Dragon Destroy on grids without a win: ``m`` cells (not the key's, nor ``sticky``) removed, the move
    along the path, the refill; the whole draw repeated until the grid has a win.  Returns the grids."""
    t = rt.t
    out = G.copy()
    pending = np.arange(len(rows))
    for _ in range(MAX_RETRIES):
        if not pending.size:
            return out
        r, g = rows[pending], G[pending]
        m = rt.draws[("dragon_destroy", "count")].draw(d, r).astype(np.int64)
        avail = g != t.key
        if sticky >= 0:
            avail[:, sticky] = False
            m = np.minimum(m, t.cells - 1)
        picks = _subset(d, r, avail, m)
        removed = np.zeros(len(r), dtype=np.uint64)
        for q in range(picks.shape[1]):
            sel = picks[:, q] >= 0
            removed[sel] |= np.uint64(1) << picks[sel, q].astype(np.uint64)
        moved, empties = move(t, g, removed, np.zeros(len(r), dtype=np.uint64), sticky)
        _refill(rt, d, r, moved, empties, table, sticky)
        won = win_parts(t, moved)[1]
        out[pending[won]] = moved[won]
        pending = pending[~won]
    raise ValueError(f"a Dragon Destroy redraw found no grid with a win in {MAX_RETRIES:,} tries")


def _irish(rt: RoundTables, d, rows: np.ndarray, G: np.ndarray) -> None:
    t = rt.t
    side = rt.draws[("irish_luck", "orientation")].draw(d, rows)
    L = len(rt.line_len)
    is_row = np.arange(L) < t.rows
    valid = _without_key(rt, G) & np.where((side == "row")[:, None], is_row[None, :], ~is_row[None, :])
    li = _pick(valid, d.ints(rows, valid.sum(axis=1)))
    s = rt.draws[("irish_luck", "symbols")].draw(d, rows).astype(np.int8)
    _line_cells(rt, G, li, np.zeros(len(rows), dtype=np.int64), rt.line_len[li], s)


def _magic(rt: RoundTables, d, rows: np.ndarray, G: np.ndarray) -> None:
    new = G.copy()
    for src in rt.sources:
        to = rt.draws[("magic_transform", "to")].draw(d, rows).astype(np.int8)
        new = np.where(G == src, to[:, None], new)
    G[:] = new


_APPLY = {"starfall_wilds": _starfall, "irish_luck": _irish, "magic_transform": _magic}


def apply_features(rt: RoundTables, d, rows: np.ndarray, G: np.ndarray, won: np.ndarray) -> np.ndarray:
    """The random feature of each initial drop ``G`` (in place): drawn by the probabilities of a drop with
    (``won``) or without a win, then applied.  Returns the feature index per grid (-1: none)."""
    feature = np.full(len(rows), -1, dtype=np.int64)
    if not rt.features:
        return feature
    for w in (True, False):
        i = np.nonzero(won == w)[0]
        if i.size:
            feature[i] = rt.pick[w].draw(d, rows[i]).astype(np.int64)
    for fi, name in enumerate(rt.features):
        i = np.nonzero(feature == fi)[0]
        if not i.size:
            continue
        sub = G[i]
        if name == "dragon_destroy":
            sub = _dragon(rt, d, rows[i], sub, "base")
        else:
            _APPLY[name](rt, d, rows[i], sub)
        G[i] = sub
    return feature


def cascade(rt: RoundTables, d, rows: np.ndarray, G: np.ndarray, table: str, sticky: int = -1,
            dragon: bool = False):
    """Play every grid to its last evaluation (``sticky``: a sticky WILD's cell; ``dragon``: Lava Lair's
    stored Dragon Destroy fires once, at the first evaluation without a win, and the cascade goes on).

    Returns
    -------
    (win int64, evaluations int64, final grids int8)
    """
    t = rt.t
    n = len(rows)
    win = np.zeros(n, dtype=np.int64)
    evals = np.zeros(n, dtype=np.int64)
    used = np.zeros(n, dtype=bool) if dragon else np.ones(n, dtype=bool)
    final = G.copy()
    act, g = np.arange(n), G
    while act.size:
        pay, anywin, removed, nw = evaluate_batch(t, g, sticky)
        evals[act] += 1
        win[act] += pay
        fire = ~anywin & ~used[act]
        if fire.any():
            i = np.nonzero(fire)[0]
            g[i] = _dragon(rt, d, rows[act[i]], g[i], table, sticky)
            used[act[i]] = True
        stop = ~anywin & ~fire
        final[act[stop]] = g[stop]
        go = anywin
        keep = anywin | fire
        if int(evals.max()) > MAX_EVALUATIONS:
            raise ValueError(f"a cascade of more than {MAX_EVALUATIONS:,} evaluations")
        moved = g.copy()
        if go.any():
            i = np.nonzero(go)[0]
            m, empties = move(t, g[i], removed[i], nw[i], sticky)
            _refill(rt, d, rows[act[i]], m, empties, table, sticky)
            moved[i] = m
        act, g = act[keep], moved[keep]
    return win, evals, final


def free_drops(rt: RoundTables, d, rows: np.ndarray, game: str) -> np.ndarray:
    """The initial drops of free spins of ``game`` (every cell drawn in path order from the free-spin
    table; Lava Lair: the sticky WILD on the path's entry) after the game's change of the drop."""
    t = rt.t
    n = len(rows)
    G = np.empty((n, t.cells), dtype=np.int8)
    if game == "lava_lair":
        G[:, t.path[0]] = t.wild
        G[:, t.path[1:]] = d.cells(rows, rt.free_table, np.full(n, t.cells - 1))[:, :t.cells - 1]
        return G
    G[:, t.path] = d.cells(rows, rt.free_table, np.full(n, t.cells))[:, :t.cells]
    if game == "star_bar":
        _starfall(rt, d, rows, G)
    elif game == "lucky_mug":
        rm = win_parts(t, G)[2]
        cells = ((rm[:, None] >> np.arange(t.cells, dtype=np.uint64)) & np.uint64(1)).astype(np.int64)
        clean = (cells @ rt.line_mask.T.astype(np.int64)) == 0
        has = clean.any(axis=1)
        valid = np.where(has[:, None], clean, True)
        li = _pick(valid, d.ints(rows, valid.sum(axis=1)))
        s = np.full(n, t.wild, dtype=np.int8)
        i = np.nonzero(has)[0]
        s[i] = rt.draws[("irish_luck", "symbols")].draw(d, rows[i]).astype(np.int8)
        _line_cells(rt, G, li, np.zeros(n, dtype=np.int64), rt.line_len[li], s)
    elif game == "golden_pot":
        k = rt.game_cells(game)
        picks = _subset(d, rows, np.ones((n, t.cells), dtype=bool), np.full(n, k))
        for q in range(k):
            G[np.arange(n), picks[:, q]] = rt.draws[(game, "overlay")].draw(d, rows).astype(np.int8)
        _magic(rt, d, rows, G)
    return G


def free_cascades(rt: RoundTables, d, rounds: np.ndarray, game: str) -> np.ndarray:
    """The free-spin win (coins) of each round of ``rounds`` (indices) awarded ``game``: its spins, each a
    fresh drop played to its end."""
    spins = rt.spins(game)
    sub = d.spawn(rounds, game, spins)
    rows = np.arange(len(rounds) * spins)
    G = free_drops(rt, sub, rows, game)
    lava = game == "lava_lair"
    win, _, _ = cascade(rt, sub, rows, G, rt.free_table, sticky=rt.t.path[0] if lava else -1, dragon=lava)
    return win.reshape(len(rounds), spins).sum(axis=1)


@dataclass(frozen=True)
class FeaturedBatch:
    """Whole rounds: per round the initial drop's ``first_pay`` (its first evaluation's pay before any
    feature: the control variate) and ``first_won``, the ``feature`` index (-1: none), the base
    cascade's ``base_win`` and ``evaluations``, whether the key ``awarded`` the free spins, and per
    choice the free spins' win ``free[choice]`` (coins, 0 without an award)."""

    first_pay: np.ndarray
    first_won: np.ndarray
    feature: np.ndarray
    base_win: np.ndarray
    evaluations: np.ndarray
    awarded: np.ndarray
    free: dict

    def total(self, choice: str, cap: int | None) -> np.ndarray:
        """The round's total win for a fixed ``choice``, capped at ``cap`` coins (the win cap)."""
        w = self.base_win + self.free[choice] if choice in self.free else self.base_win.copy()
        return w if cap is None else np.minimum(w, cap)


def play_featured_rounds(rt: RoundTables, n: int, d, choices=None) -> FeaturedBatch:
    """Play ``n`` whole rounds: the initial drop (the key on the path's entry, the other cells in path
    order), its random feature, the base cascade and, for each choice of ``choices`` (default: every
    game), the free spins of the rounds whose key ends on the path's end.

    >>> from exact.rules import grid_config_of
    >>> rt = round_tables(grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, key="K", free_spins=2))
    >>> b = play_featured_rounds(rt, 2000, RngDraws(rt.t, np.random.default_rng(1)))
    >>> bool((b.evaluations >= 1).all()), bool((b.free["free_spins"][~b.awarded] == 0).all())
    (True, True)
    """
    t = rt.t
    rows = np.arange(n)
    G = np.empty((n, t.cells), dtype=np.int8)
    if t.key_cell >= 0:
        G[:, t.key_cell] = t.key
        G[:, t.path[1:]] = d.cells(rows, "base", np.full(n, t.cells - 1))[:, :t.cells - 1]
    else:
        G[:, t.path] = d.cells(rows, "base", np.full(n, t.cells))[:, :t.cells]
    first_pay, first_won = win_parts(t, G)[:2]
    feature = apply_features(rt, d, rows, G, first_won)
    win, evals, final = cascade(rt, d, rows, G, "base")
    awarded = (final[:, t.end_cell] == t.key) if t.key_cell >= 0 else np.zeros(n, dtype=bool)
    hit = np.nonzero(awarded)[0]
    free = {}
    for g in (tuple(g for g, _, _ in rt.games) if choices is None else choices):
        free[g] = np.zeros(n, dtype=np.int64)
        if hit.size:
            free[g][hit] = free_cascades(rt, d, hit, g)
    return FeaturedBatch(first_pay, first_won, feature, win, evals, awarded, free)

