"""A grid of independent cells with a path avalanche: match-3 wins, WILD creation and explosion, the key.

The game has no reel strips: each of its ``rows x columns`` cells draws its
symbol independently from the integer weights of the phase
(``[cells] weights.base = { A = 30, ... }``).  The rules, read literally (the
oracle of every figure of such a game):

* **Wins.** A win is a maximal run of 3 or more cells of one row or one column
  showing one pay symbol, WILDs substituting, with at least one cell of the
  symbol itself; a run of ``n`` pays ``pays[n-1]`` of the symbol (only the
  longest run counts).  Wins of one line may share WILDs (``A A W B B`` is a win
  of A and a win of B).  A run of WILDs alone substitutes only for the symbols
  beside it; when the whole grid has no other win, each maximal run of 3 or
  more WILDs pays the largest ``pays[n-1]`` over the pay symbols
  (``wild_only = "if_no_other_win"``).
* **One evaluation** (repeated until one finds no win): every win is paid;
  every cell of every win is removed; a win holding a WILD also removes the
  cells up, down, left and right of each of its WILDs
  (``wild_explodes = "orthogonal"``; the key is never removed, a WILD removed as
  a neighbour does not explode); a win without a WILD places a new WILD on its
  middle cell (a run of even length: of the two centre cells the one with the
  larger path index; one WILD per cell) after the removal, and so does no
  WILD-only win; then the symbols left, new WILDs included, keep their order
  and move along ``[grid] path`` toward its end to close the gaps, and the
  empty cells at the path's entry draw new symbols (listed here in path order,
  entry first).
* **The key** (``[key] symbol``, ``start = "entry"``): each base round starts
  with the key on the path's entry cell and every other cell drawn; it never
  wins, is never removed and moves with the others; when an evaluation finds
  no win with the key on the path's end, the round awards ``[free_spins]
  spins`` free spins, each a fresh drop from ``[cells] weights.NAME``
  (``[free_spins] weights = "NAME"``) played to its last evaluation, without
  key, retrigger or multiplier.

Cells are numbered row-major from 0 (``row * columns + column``, row 0 the
top); a grid is a tuple of symbol names, None for an empty cell.  Pays and the
bet are in coins (credits).  This module imports only :mod:`strips` and the
standard library: it is the oracle, and the fast paths (:mod:`exact.grid`)
never call it from their kernels.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from exact.rules.base import Rule
from strips import limits as _limits
from strips import plugins
from strips.display import printable
from strips.model import PAY, WILD, GameModel, StripRules, Symbol

__all__ = ["GridConfig", "Win", "Evaluation", "Cascade", "RoundPlay", "Grid", "GridKey", "parse_grid_game",
           "find_wins", "evaluate", "play_cascade", "initial_drop", "play_round", "grid_config", "MAX_EVALUATIONS",
           "grid_config_of", "spiral", "refilled", "drawer", "middle_cell", "avalanche", "EXTRA_TABLES", "EXTRA_KEYS"]

#: The readings of ``wild_only`` and ``wild_explodes`` the rule implements.
WILD_ONLY = ("if_no_other_win",)
WILD_EXPLODES = ("orthogonal",)
#: A cascade longer than this is refused by the literal player (never reached in practice: each
#: evaluation refills at least two cells; the probability of 10^4 evaluations is far below 1e-100).
MAX_EVALUATIONS = 10_000


@dataclass(frozen=True)
class GridConfig:
    """A grid game's rules (the frozen configuration kept on ``GameModel.rules``).

    Attributes
    ----------
    rows, columns : int
    path : tuple of int
        Every cell once (row-major index), from the path's entry to its end.
    pays : tuple of (str, tuple of int)
        Pay symbol -> ``pays[n-1]`` in coins for a run of ``n`` (``max(rows, columns)`` entries).
    wild : str or None
        The WILD's name (never drawn; created by wins).
    weights : tuple of (str, tuple of (str, int))
        Weight table name -> (pay symbol, integer weight >= 0) per pay symbol, sum > 0.
    key : str or None
        The key's name (``[key] symbol``), None without a key.
    free_spins : int
        Free spins a key on the path's end awards (0 without a key).
    free_weights : str or None
        The weight table of the free spins.
    bet : int
        Coins per round.
    """

    rows: int
    columns: int
    path: tuple[int, ...]
    pays: tuple[tuple[str, tuple[int, ...]], ...]
    wild: str | None
    weights: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    bet: int
    key: str | None = None
    key_start: str = "entry"
    free_spins: int = 0
    free_weights: str | None = None
    wild_only: str = "if_no_other_win"
    wild_explodes: str = "orthogonal"
    rule: str = "grid of independent cells"
    lines: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self):
        r, c = self.rows, self.columns
        lines = tuple(tuple(i * c + j for j in range(c)) for i in range(r)) + tuple(
            tuple(i * c + j for i in range(r)) for j in range(c))
        object.__setattr__(self, "lines", lines)

    @property
    def cells(self) -> int:
        return self.rows * self.columns

    @property
    def pay_symbols(self) -> tuple[str, ...]:
        return tuple(s for s, _ in self.pays)

    def pay(self, symbol: str, n: int) -> int:
        """Coins of a run of ``n`` of ``symbol`` (the WILD: the largest over the pay symbols)."""
        if symbol == self.wild:
            return max(p[n - 1] for _, p in self.pays)
        return dict(self.pays)[symbol][n - 1]

    def table(self, name: str) -> tuple[tuple[str, int], ...]:
        """The weight table ``name``: (pay symbol, weight), weights summing to > 0."""
        return dict(self.weights)[name]

    @property
    def free_table(self) -> str | None:
        return self.free_weights if self.key and self.free_spins else None

    def neighbours(self, cell: int) -> tuple[int, ...]:
        """The cells up, down, left and right of ``cell``."""
        i, j = divmod(cell, self.columns)
        out = []
        for di, dj in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            a, b = i + di, j + dj
            if 0 <= a < self.rows and 0 <= b < self.columns:
                out.append(a * self.columns + b)
        return tuple(out)

    def position(self, cell: int) -> tuple[int, int]:
        """``[row, column]`` of a cell, 1-based as the game file writes it."""
        i, j = divmod(cell, self.columns)
        return i + 1, j + 1


@dataclass(frozen=True)
class Win:
    """One win of an evaluation: ``symbol`` (the WILD for a WILD-only win), its ``cells`` in line order,
    ``pay`` in coins, the ``wilds`` among its cells."""

    symbol: str
    cells: tuple[int, ...]
    pay: int
    wilds: tuple[int, ...]

    @property
    def n(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Evaluation:
    """One evaluation of a grid: ``grid`` as found, its ``wins`` and their ``pay`` (coins), the cells
    ``removed``, the ``new_wilds`` placed, ``moved`` (the grid after the move along the path, None at
    the empty cells) and ``refill`` (the empty cells, path order from the entry)."""

    grid: tuple[str | None, ...]
    wins: tuple[Win, ...]
    pay: int
    removed: tuple[int, ...]
    new_wilds: tuple[int, ...]
    moved: tuple[str | None, ...]
    refill: tuple[int, ...]


@dataclass(frozen=True)
class Cascade:
    """A drop played to its last evaluation (the one that finds no win): every evaluation, the total
    ``win`` in coins and the ``final`` grid."""

    evaluations: tuple[Evaluation, ...]
    win: int
    final: tuple[str | None, ...]


@dataclass(frozen=True)
class RoundPlay:
    """A whole round: the base cascade, whether the key awarded the free spins, each free spin's
    cascade, and the round's total ``win`` in coins."""

    base: Cascade
    awarded: bool
    free: tuple[Cascade, ...]

    @property
    def win(self) -> int:
        return self.base.win + sum(c.win for c in self.free)

    @property
    def evaluations(self) -> int:
        """Evaluations of the base cascade, the last one (no win) included."""
        return len(self.base.evaluations)


def _runs(cfg: GridConfig, grid: Sequence, line: tuple[int, ...], symbol: str) -> list[tuple[int, ...]]:
    """Maximal runs of ``symbol`` or WILD along ``line`` holding ``symbol`` itself, 3 cells or more."""
    out, run = [], []
    for cell in line + (None,):
        v = None if cell is None else grid[cell]
        if cell is not None and (v == symbol or (v is not None and v == cfg.wild)):
            run.append(cell)
            continue
        if len(run) >= 3 and any(grid[c] == symbol for c in run):
            out.append(tuple(run))
        run = []
    return out


def find_wins(cfg: GridConfig, grid: Sequence[str | None]) -> tuple[Win, ...]:
    """Every win of ``grid`` (rows top to bottom, then columns left to right; in a line by first cell).

    >>> cfg = grid_config_of(3, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, wild="W")
    >>> [(w.symbol, w.cells, w.pay) for w in find_wins(cfg, ("A", "A", "W",  "B", "W", "B",  "A", "W", "B"))]
    [('A', (0, 1, 2), 5), ('B', (3, 4, 5), 2), ('A', (1, 4, 7), 5), ('B', (2, 5, 8), 2)]
    >>> [(w.symbol, w.pay) for w in find_wins(cfg, ("W", "W", "W",  "A", "B", "A",  "B", "A", "B"))]
    [('W', 5)]
    """
    wins = []
    for line in cfg.lines:
        found = [(run, s) for s in cfg.pay_symbols for run in _runs(cfg, grid, line, s)]
        for run, s in sorted(found, key=lambda rs: (line.index(rs[0][0]), cfg.pay_symbols.index(rs[1]))):
            wins.append(Win(s, run, cfg.pay(s, len(run)), tuple(c for c in run if grid[c] == cfg.wild)))
    if wins or cfg.wild is None:
        return tuple(wins)
    for line in cfg.lines:     # wild_only = "if_no_other_win": WILD runs pay as the highest-paying symbol
        run: list[int] = []
        for cell in line + (None,):
            if cell is not None and grid[cell] == cfg.wild:
                run.append(cell)
                continue
            if len(run) >= 3:
                wins.append(Win(cfg.wild, tuple(run), cfg.pay(cfg.wild, len(run)), tuple(run)))
            run = []
    return tuple(wins)


def middle_cell(cfg: GridConfig, cells: tuple[int, ...]) -> int:
    """The middle cell of a run; of the two centre cells of an even run the one with the larger path index."""
    n = len(cells)
    if n % 2:
        return cells[n // 2]
    a, b = cells[n // 2 - 1], cells[n // 2]
    order = _path_index(cfg)
    return a if order[a] > order[b] else b


def _path_index(cfg: GridConfig) -> dict[int, int]:
    return {c: i for i, c in enumerate(cfg.path)}


def evaluate(cfg: GridConfig, grid: Sequence[str | None], sticky: int | None = None) -> Evaluation:
    """One evaluation of a full ``grid``: wins, removal, new WILDs and the move along the path.

    ``sticky``: a cell holding a sticky WILD (a free-spin game's): it substitutes like a WILD but is
    never removed, never explodes and never moves (the others move along the path without it).

    >>> cfg = grid_config_of(3, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, wild="W")
    >>> ev = evaluate(cfg, ("B", "A", "B",  "A", "A", "A",  "B", "A", "B"))
    >>> ev.pay, ev.removed, ev.new_wilds, ev.refill
    (10, (1, 3, 4, 5, 7), (4,), (6, 7, 8, 5))
    >>> ev.moved
    ('B', 'B', 'B', 'B', 'W', None, None, None, None)
    """
    grid = tuple(grid)
    wins = find_wins(cfg, grid)
    removed: set[int] = set()
    for w in wins:
        removed.update(w.cells)
        for c in w.wilds:
            if c != sticky:
                removed.update(n for n in cfg.neighbours(c) if cfg.key is None or grid[n] != cfg.key)
    removed.discard(sticky)
    new_wilds = sorted({middle_cell(cfg, w.cells) for w in wins if not w.wilds})
    after = [None if c in removed else v for c, v in enumerate(grid)]
    for c in new_wilds:
        after[c] = cfg.wild
    moved, refill = avalanche(cfg, after, sticky)
    return Evaluation(grid, wins, sum(w.pay for w in wins), tuple(sorted(removed)), tuple(new_wilds),
                      moved, refill)


def avalanche(cfg: GridConfig, after: Sequence[str | None],
              sticky: int | None = None) -> tuple[tuple[str | None, ...], tuple[int, ...]]:
    """The symbols of ``after`` (None: an empty cell) keep their order and move along the path toward its
    end to close the gaps: (the moved grid, the empty cells at the path's entry in path order).  A
    ``sticky`` cell stays where it is: the others move along the path without it.

    >>> avalanche(grid_config_of(1, 3, {"A": (0, 0, 1)}), ("A", None, "B"))
    ((None, 'A', 'B'), (0,))
    """
    path = [c for c in cfg.path if c != sticky]
    left = [after[c] for c in path if after[c] is not None]
    gaps = len(path) - len(left)
    moved: list[str | None] = [None] * cfg.cells
    for c, v in zip(path[gaps:], left):
        moved[c] = v
    if sticky is not None:
        moved[sticky] = after[sticky]
    return tuple(moved), tuple(path[:gaps])


def refilled(moved: Sequence[str | None], cells: Sequence[int], symbols: Sequence[str]) -> tuple[str | None, ...]:
    """``moved`` with ``symbols[i]`` on ``cells[i]``.

    >>> refilled((None, "A", None), (0, 2), ("B", "C"))
    ('B', 'A', 'C')
    """
    out = list(moved)
    for c, s in zip(cells, symbols, strict=True):
        out[c] = s
    return tuple(out)


def play_cascade(cfg: GridConfig, grid: Sequence[str | None], draw: Callable[[int], Sequence[str]],
                 limit: int = MAX_EVALUATIONS) -> Cascade:
    """Evaluate ``grid`` until an evaluation finds no win; ``draw(n)`` gives the ``n`` refill symbols of
    each evaluation in path order from the entry.

    Raises
    ------
    ValueError
        More than ``limit`` evaluations.

    >>> cfg = grid_config_of(3, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, wild="W")
    >>> refills = iter("AABAAB")
    >>> c = play_cascade(cfg, ("B", "A", "B",  "A", "A", "A",  "B", "A", "B"), lambda n: [next(refills) for _ in range(n)])
    >>> c.win, [e.refill for e in c.evaluations], c.final
    (12, [(6, 7, 8, 5), (6, 7), ()], ('W', 'A', 'B', 'B', 'W', 'A', 'A', 'B', 'A'))
    """
    evs, win = [], 0
    grid = tuple(grid)
    while True:
        ev = evaluate(cfg, grid)
        evs.append(ev)
        win += ev.pay
        if not ev.wins:
            return Cascade(tuple(evs), win, grid)
        if len(evs) >= limit:
            raise ValueError(f"a cascade of more than {limit:,} evaluations")
        grid = refilled(ev.moved, ev.refill, draw(len(ev.refill)))


def drawer(cfg: GridConfig, table: str, rng: random.Random) -> Callable[[int], list[str]]:
    """``draw(n)``: ``n`` independent symbols from weight table ``table``."""
    names, weights = zip(*[(s, w) for s, w in cfg.table(table) if w])
    return lambda n: rng.choices(names, weights, k=n)


def initial_drop(cfg: GridConfig, draw: Callable[[int], Sequence[str]], with_key: bool) -> tuple[str | None, ...]:
    """The initial drop: the key on the path's entry (``with_key``) and every other cell drawn in path order."""
    grid: list[str | None] = [None] * cfg.cells
    cells = list(cfg.path)
    if with_key:
        grid[cells.pop(0)] = cfg.key
    for c, s in zip(cells, draw(len(cells)), strict=True):
        grid[c] = s
    return tuple(grid)


def play_round(cfg: GridConfig, rng: random.Random) -> RoundPlay:
    """One whole round, every draw from ``rng``: the base drop and cascade, then the free spins the key
    awards (each a fresh drop of the free-spin table played to its end).

    >>> cfg = grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, wild="W")
    >>> r = play_round(cfg, random.Random(1))
    >>> r.win >= 0 and r.evaluations >= 1
    True
    """
    base = play_cascade(cfg, initial_drop(cfg, drawer(cfg, "base", rng), cfg.key is not None), drawer(cfg, "base", rng))
    awarded = cfg.key is not None and base.final[cfg.path[-1]] == cfg.key
    free = ()
    if awarded and cfg.free_table:
        draw = drawer(cfg, cfg.free_table, rng)
        free = tuple(play_cascade(cfg, initial_drop(cfg, draw, False), draw) for _ in range(cfg.free_spins))
    return RoundPlay(base, awarded, free)


def spiral(rows: int, columns: int) -> tuple[int, ...]:
    """The spiral from the bottom-left cell to the centre: right along the bottom row first, then up the
    right column, left along the top row, down the left column, and inward (counter-clockwise), as cells.

    >>> spiral(3, 3)
    (6, 7, 8, 5, 2, 1, 0, 3, 4)
    """
    top, bottom, left, right = 0, rows - 1, 0, columns - 1
    out: list[int] = []
    while top <= bottom and left <= right:
        out += [bottom * columns + j for j in range(left, right + 1)]
        out += [i * columns + right for i in range(bottom - 1, top - 1, -1)]
        if top < bottom:
            out += [top * columns + j for j in range(right - 1, left - 1, -1)]
        if left < right:
            out += [i * columns + left for i in range(top + 1, bottom)]
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
    return tuple(dict.fromkeys(out))


def grid_config_of(rows: int, columns: int, pays: dict, wild: str | None = "W", weights: dict | None = None,
                   path: Sequence[int] | None = None, key: str | None = None, free_spins: int = 0,
                   free_weights: dict | None = None, bet: int = 1) -> GridConfig:
    """A GridConfig from Python values (tests, doctests): equal weights by default, the spiral path.

    >>> grid_config_of(2, 2, {"A": (0, 0)}).path
    (2, 3, 1, 0)
    """
    names = tuple(pays)
    tables = {"base": weights or {s: 1 for s in names}}
    if free_spins:
        tables["free"] = free_weights or tables["base"]
    return GridConfig(rows, columns, tuple(path) if path is not None else spiral(rows, columns),
                      tuple((s, tuple(p)) for s, p in pays.items()), wild,
                      tuple((t, tuple((s, int(w.get(s, 0))) for s in names)) for t, w in tables.items()), bet,
                      key=key, free_spins=free_spins if key else 0, free_weights="free" if key and free_spins else None)


def grid_config(model) -> GridConfig | None:
    """The grid configuration of a parsed game, or None (not a grid game)."""
    return Grid.config(model)


# --------------------------------------------------------------------------------------------------
# The game file: a grid game has its own core ([grid], [cells]); neither [game] reels/rows nor [strips].

GAME_KEYS = ("name", "title", "bet")
TABLES = ("game", "grid", "symbols", "cells", "key", "free_spins")
#: Top-level tables other rule modules parse on a grid game: table -> ``parse(t, table, cfg)`` returning the
#: rule's frozen configuration (kept on ``GameModel.rules`` beside the GridConfig).
EXTRA_TABLES: dict = {}
#: Keys inside a grid game's own tables that other rule modules parse: (table, key) -> ``parse(t, doc,
#: cfg)`` (the whole document; e.g. ``[free_spins.games]``), None or a configuration kept on
#: ``GameModel.rules`` like :data:`EXTRA_TABLES`'.
EXTRA_KEYS: dict = {}


def _only(t, table: dict, path: tuple, known: Iterable[str], what: str = "key") -> None:
    known = tuple(dict.fromkeys(known))   # each key named once, in order
    for k in table:
        if k not in known:
            where = f"[{'.'.join(map(str, path))}]" if path else "the game file"
            raise t.error(path + (k,), f"unsupported rule: {what} {k!r} in {where} of a grid game "
                          f"(supported: {', '.join(known)})")


def _positive(t, table: dict, path: tuple, key: str, what: str, default=...) -> int:
    v = t.get(table, path, key, int, default)
    if v is not default and v < 1:
        raise t.error(path + (key,), f"must be at least 1 ({what}), got {v}")
    return v


def _choice(t, table: dict, path: tuple, key: str, allowed: tuple[str, ...]) -> str:
    v = t.get(table, path, key, str, allowed[0])
    if v not in allowed:
        raise t.error(path + (key,), f"unsupported rule: {key} = {v!r} (supported: "
                      f"{', '.join(repr(a) for a in allowed)})")
    return v


def parse_grid_game(t, doc: dict):
    """The whole ``game.toml`` of a grid game (``[grid]`` present) -> a GameModel with its GridConfig.

    Raises
    ------
    strips.errors.MathSetError
        Naming file, row and column: ``[game] reels`` or ``rows`` or a ``[strips]`` table (a grid game
        has neither), a path that misses or repeats a cell or leaves the grid, ``pays`` without an
        entry for every run length up to ``max(rows, columns)``, a weight table naming an unknown
        symbol, the WILD or the key, negative or all-zero weights, a table no phase uses, a key
        without free spins (or the reverse), any unknown key or table.
    """
    _only(t, doc, (), TABLES + tuple(EXTRA_TABLES), "table")
    game = t.get(doc, (), "game", dict)
    for k in ("reels", "rows"):
        if k in game:
            raise t.error(("game", k), f"a grid game takes its shape from [grid] rows and columns: "
                          f"give no [game] {k}")
    _only(t, game, ("game",), GAME_KEYS + tuple(k for tb, k in EXTRA_KEYS if tb == "game"))
    bet = _positive(t, game, ("game",), "bet", "coins per round")
    name = printable(t.get(game, ("game",), "name", str, "grid"))
    title = printable(t.get(game, ("game",), "title", str, ""))

    g = t.get(doc, (), "grid", dict)
    _only(t, g, ("grid",), ("rows", "columns", "path", "wild_only", "wild_explodes"))
    rows = _positive(t, g, ("grid",), "rows", "rows of the grid")
    columns = _positive(t, g, ("grid",), "columns", "columns of the grid")
    for k, v, lim in (("rows", rows, "rows"), ("columns", columns, "reels")):
        over = _limits.exceeds(lim, v)
        if over is not None:
            raise t.error(("grid", k), _limits.refusal(lim, v, over, f"{k} of the grid"))
    raw = t.get(g, ("grid",), "path", list)
    seen: dict[int, int] = {}
    for i, rc in enumerate(raw):
        if (not isinstance(rc, list) or len(rc) != 2 or not all(type(x) is int for x in rc)
                or not (1 <= rc[0] <= rows and 1 <= rc[1] <= columns)):
            raise t.error(("grid", "path"), f"entry {i + 1} must be [row, column] with row in 1..{rows} and "
                          f"column in 1..{columns}, got {rc!r}")
        cell = (rc[0] - 1) * columns + rc[1] - 1
        if cell in seen:
            raise t.error(("grid", "path"), f"entry {i + 1} {rc!r} repeats entry {seen[cell] + 1}: the path "
                          f"lists every cell exactly once")
        seen[cell] = i
    if len(seen) != rows * columns:
        miss = next(c for c in range(rows * columns) if c not in seen)
        raise t.error(("grid", "path"), f"misses the cell [{miss // columns + 1}, {miss % columns + 1}]: the "
                      f"path lists every cell of the {rows}x{columns} grid exactly once")
    wild_only = _choice(t, g, ("grid",), "wild_only", WILD_ONLY)
    wild_explodes = _choice(t, g, ("grid",), "wild_explodes", WILD_EXPLODES)

    span = max(rows, columns)
    sym = t.get(doc, (), "symbols", dict)
    pays: list[tuple[str, tuple[int, ...]]] = []
    wild = None
    for s, spec in sym.items():
        path = ("symbols", s)
        if not isinstance(spec, dict):
            raise t.error(path, "must be a table")
        if not s or printable(s) != s:
            raise t.error(path, f"name {s!r} is empty or holds a control or invisible character")
        kind = t.get(spec, path, "class", str)
        if kind == PAY:
            _only(t, spec, path, ("class", "pays"))
            p = t.get(spec, path, "pays", "ints")
            if len(p) != span:
                raise t.error(path + ("pays",), f"has {len(p)} entries: a grid of {rows}x{columns} needs one "
                              f"per run length 1..{span}")
            if any(x < 0 for x in p):
                raise t.error(path + ("pays",), "pays must not be negative")
            pays.append((s, tuple(p)))
        elif kind == WILD:
            _only(t, spec, path, ("class",))
            if wild is not None:
                raise t.error(path, f"a grid game has one WILD ({wild!r} is already one)")
            wild = s
        else:
            raise t.error(path + ("class",), f"unsupported rule: class {kind!r} in a grid game "
                          f"(supported: 'pay', 'wild'; the key is [key] symbol)")
    if not pays:
        raise t.error(("symbols",), "the game has no pay symbol")

    key = None
    fs = doc.get("free_spins")
    kt = t.get(doc, (), "key", dict, None)
    if kt is not None:
        _only(t, kt, ("key",), ("symbol", "start"))
        key = t.get(kt, ("key",), "symbol", str)
        if key in sym:
            raise t.error(("key", "symbol"), f"{key!r} is a symbol of [symbols]: the key is its own symbol, "
                          f"declared only here")
        if not key or printable(key) != key:
            raise t.error(("key", "symbol"), f"name {key!r} is empty or holds a control character")
        _choice(t, kt, ("key",), "start", ("entry",))
        if fs is None:
            raise t.error(("key",), "a key needs [free_spins] spins and weights (what it awards)")
    spins, fweights = 0, None
    if fs is not None:
        fs = t.get(doc, (), "free_spins", dict)
        if key is None:
            raise t.error(("free_spins",), "free spins of a grid game are awarded by the key: add [key] symbol")
        _only(t, fs, ("free_spins",), ("spins", "weights") + tuple(k for tb, k in EXTRA_KEYS if tb == "free_spins"))
        spins = _positive(t, fs, ("free_spins",), "spins", "free spins the key awards")
        over = _limits.exceeds("spins", spins)
        if over is not None:
            raise t.error(("free_spins", "spins"), _limits.refusal("spins", spins, over, "free spins"))
        fweights = t.get(fs, ("free_spins",), "weights", str)

    cells = t.get(doc, (), "cells", dict)
    _only(t, cells, ("cells",), ("weights",))
    wt = t.get(cells, ("cells",), "weights", dict)
    used = ["base"] + ([fweights] if fweights else [])
    names = [s for s, _ in pays]
    for tn in used:
        if tn not in wt:
            where = ("free_spins", "weights") if tn != "base" else ("cells", "weights")
            raise t.error(where, f"no weight table {tn!r} in [cells] weights")
    tables = []
    for tn, table in wt.items():
        path = ("cells", "weights", tn)
        if tn not in used:
            raise t.error(path, f"weight table {tn!r} is used by no phase (the phases use {', '.join(used)})")
        if not isinstance(table, dict):
            raise t.error(path, "must be a table of symbol = integer weight")
        for s, w in table.items():
            if s == wild:
                raise t.error(path + (s,), f"{s!r} is the WILD: no WILD is drawn (wins create them)")
            if s == key:
                raise t.error(path + (s,), f"{s!r} is the key: it is placed, never drawn")
            if s not in names:
                raise t.error(path + (s,), f"unknown pay symbol {s!r}")
            if type(w) is not int or w < 0:
                raise t.error(path + (s,), f"must be an integer weight >= 0, got {w!r}")
        if not any(table.values()):
            raise t.error(path, "weights sum to zero: the cells could draw nothing")
        tables.append((tn, tuple((s, table.get(s, 0)) for s in names)))
    if key is not None and rows * columns < 2:
        raise t.error(("key",), "a grid of one cell has no cell to draw beside the key")

    cfg = GridConfig(rows, columns, tuple(seen), tuple(pays), wild, tuple(tables), bet, key=key,
                     free_spins=spins, free_weights=fweights, wild_only=wild_only, wild_explodes=wild_explodes)
    symbols = tuple(Symbol(name=s, kind=PAY, pays=p) for s, p in pays) + (
        (Symbol(name=wild, kind=WILD, substitutes=frozenset(names)),) if wild else ())
    return GameModel(name=name, reels=columns, rows=rows, bet=bet, symbols=symbols, strip_files={},
                     strip_rules=StripRules(), trigger=(), free_spin_strips="", levels=(), title=title,
                     evaluation="grid", rules=(cfg,) + tuple(
                         parse(t, t.get(doc, (), name, dict), cfg) for name, parse in EXTRA_TABLES.items()
                         if name in doc) + tuple(
                         c for c in (parse(t, doc, cfg) for (table, k), parse in EXTRA_KEYS.items()
                                     if k in doc.get(table, {})) if c is not None))


class Grid(Rule):
    """A grid of independent cells with the path avalanche: match-3 wins, WILD creation and explosion.

    >>> Grid.refusal(None, "sensitivity")
    'grid of independent cells (no reel strips)'
    """

    name = "grid of independent cells"
    keys = "[grid] rows, columns, path, wild_only, wild_explodes; [cells] weights"
    implements = frozenset({"spin", "report", "simulate", "comply", "export"})
    parses = (("grid",), ("cells",))

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        return None if analysis in cls.implements else f"{cls.name} (no reel strips)"


class GridKey(Rule):
    """The key of a grid game: placed on the path's entry, it awards the free spins on the path's end."""

    name = "the key to the path's end"
    keys = "[key] symbol, start; [free_spins] spins, weights"
    implements = Grid.implements
    parses = (("key",),)

    @classmethod
    def present(cls, model) -> bool:
        cfg = Grid.config(model)
        return cfg is not None and cfg.key is not None


plugins.register_game(Grid.name, "grid", parse_grid_game)
