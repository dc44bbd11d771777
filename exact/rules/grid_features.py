"""Random features of a grid game's initial drop: Starfall Wilds, Dragon Destroy, Irish Luck, Magic Transform.

After the initial drop and before its first evaluation, at most one feature
may act on the grid.  ``[features.NAME] probability = { win = "p/q", no_win =
"p/q" }`` gives its probability for a drop with a win and for one without
(the features exclude each other: the probabilities of one kind of drop sum to
at most 1; Dragon Destroy and Irish Luck act only on a drop without a win).
The readings (literal; every draw below is a choice of :class:`Chooser`, so
that the same code plays a random round and enumerates every outcome exactly):

* ``starfall_wilds``: ``modes = { pattern = w, line = w }``; *pattern*: ``k``
  WILDs (``pattern_count = { k = w, ... }``, k >= 1) on a uniformly chosen set
  of ``k`` cells that are not the key's; *line*: a line (row or column)
  uniform among the lines without the key, ``k`` WILDs
  (``line_count``) on ``k`` adjacent cells uniform among its placements; then,
  while the grid has no win, one more WILD on a uniformly chosen cell that is
  neither the key's nor a WILD.
* ``dragon_destroy`` (``count = { m = w, ... }``; only ``no_win``): ``m`` cells
  that are not the key's are removed uniformly, the rest move along the path
  (the key with them) and the empty cells at its entry draw new symbols; the
  whole draw (``m``, the cells, the refill) is repeated until the grid has a
  win.  The move is not an evaluation.
* ``irish_luck`` (``orientation = { row = w, column = w }``, ``symbols = {
  NAME = w }``; only ``no_win``): a line of the drawn orientation, uniform
  among its lines without the key, is overwritten with one pay symbol drawn
  by ``symbols``.
* ``magic_transform`` (``from = ["SPADE", "HEART"]``, ``to = { NAME = w }``):
  every cell showing a ``from`` symbol becomes the symbol drawn for it (one
  independent draw by ``to`` per source symbol).

Weights are integers >= 0 (at least one > 0); probabilities are exact
(``"p/q"`` strings or integers, never floats).  ``first_drop`` figures stay
those of the drop before any feature.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

from exact.rules.base import Rule
from strips.errors import UnsupportedRule
from exact.rules.grid import (EXTRA_TABLES, GridConfig, RoundPlay, avalanche, drawer, find_wins, initial_drop,
                              play_cascade, refilled)

__all__ = ["Feature", "GridFeatures", "Chooser", "RandomChooser", "IntegerChooser", "integer_weights", "outcomes", "feature_drop", "apply_feature",
           "play_round", "start_distribution", "features_of", "FEATURES", "RandomFeatures"]

#: The features this module reads, in the order a drop's feature is drawn.
FEATURES = ("starfall_wilds", "dragon_destroy", "irish_luck", "magic_transform")
#: Keys of each feature's table (besides ``probability``).
_KEYS = {"starfall_wilds": ("modes", "pattern_count", "line_count"), "dragon_destroy": ("count",),
         "irish_luck": ("orientation", "symbols"), "magic_transform": ("from", "to")}
#: Tries of a Dragon Destroy draw in a random round before it is refused (its exact reading needs none).
MAX_RETRIES = 100_000


@dataclass(frozen=True)
class Feature:
    """One random feature: ``name`` (of :data:`FEATURES`), its probabilities on a drop with a win (``win``)
    and without (``no_win``), and its weight tables as ((value, weight), ...) (``sources`` for Magic
    Transform's ``from``)."""

    name: str
    win: Fraction
    no_win: Fraction
    tables: tuple = ()
    sources: tuple = ()

    def table(self, key: str) -> tuple:
        return dict(self.tables)[key]


@dataclass(frozen=True)
class GridFeatures:
    """The random features of a grid game (the configuration kept on ``GameModel.rules``)."""

    features: tuple[Feature, ...]
    rule: str = "random features of the initial drop"


class Reject(Exception):
    """A draw that must be repeated (Dragon Destroy's grid without a win)."""


class Chooser:
    """The draws of a feature: :meth:`weighted` (values by weights), :meth:`uniform`, :meth:`subset` (a
    uniform set of ``k`` distinct values), :meth:`symbols` (``n`` cells drawn from a weight table) and
    :meth:`until` (repeat a draw until it does not :class:`Reject`).  Subclasses play them at random
    (:class:`RandomChooser`) or enumerate them (:func:`outcomes`)."""

    def __init__(self, cfg: GridConfig):
        self.cfg = cfg

    def weighted(self, options: Sequence[tuple[object, object]]):
        raise NotImplementedError

    def uniform(self, values: Sequence):
        return self.weighted([(v, 1) for v in values])

    def subset(self, values: Sequence, k: int) -> tuple:
        return self.uniform(list(itertools.combinations(values, k)))

    def symbols(self, table: str, n: int) -> tuple:
        opts = [(s, w) for s, w in self.cfg.table(table) if w]
        return tuple(self.weighted(opts) for _ in range(n))

    def until(self, draw: Callable[["Chooser"], object], key=None):
        """``draw(chooser)`` repeated until it does not raise :class:`Reject` (``key``: what the draw
        depends on, so that its enumeration is done once)."""
        raise NotImplementedError


class RandomChooser(Chooser):
    """Every draw from ``rng`` (a :class:`random.Random`)."""

    def __init__(self, cfg: GridConfig, rng: random.Random):
        super().__init__(cfg)
        self.rng = rng

    def weighted(self, options):
        vals, ws = zip(*[(v, w) for v, w in options if w])
        return vals[0] if len(vals) == 1 else self.rng.choices(vals, [float(w) for w in ws])[0]

    def subset(self, values, k):
        return tuple(self.rng.sample(list(values), k))

    def until(self, draw, key=None):
        for _ in range(MAX_RETRIES):
            try:
                return draw(self)
            except Reject:
                continue
        raise ValueError(f"a repeated draw found no accepted outcome in {MAX_RETRIES:,} tries")


def integer_weights(weights: Sequence) -> tuple[int, ...]:
    """Integer weights proportional to ``weights`` (ints, or exact Fractions put over their common
    denominator): the draw of :class:`IntegerChooser` and of the vectorised steps.

    >>> integer_weights([Fraction(1, 10), Fraction(1, 4), Fraction(13, 20)]), integer_weights([3, 0, 1])
    ((2, 5, 13), (3, 0, 1))
    """
    if all(type(w) is int for w in weights):
        return tuple(weights)
    fr = [Fraction(w) for w in weights]
    den = 1
    for w in fr:
        den = den * w.denominator // math.gcd(den, w.denominator)
    return tuple(int(w * den) for w in fr)


class IntegerChooser(Chooser):
    """Every draw from ``next_int(bound)`` (an integer uniform on ``0 .. bound-1``): a weighted choice is
    the option whose cumulative integer weight (:func:`integer_weights`, options in the order given)
    first exceeds the integer drawn, a uniform one the option at that index, a subset ``k`` such
    draws, each among the values not yet taken (in their order); nothing is skipped, a single option
    is still drawn.  This is how the vectorised steps (:mod:`exact.grid_rounds`) read their integers, so
    that a literal replay of the same integers gives the same grid.

    >>> from exact.rules.grid import grid_config_of
    >>> ints = iter([3, 1, 0])
    >>> ch = IntegerChooser(grid_config_of(1, 3, {"A": (0, 0, 1)}), lambda bound: next(ints) % bound)
    >>> ch.weighted([("x", 1), ("y", 3)]), ch.subset(["a", "b", "c"], 2)
    ('y', ('b', 'a'))
    """

    def __init__(self, cfg: GridConfig, next_int: Callable[[int], int]):
        super().__init__(cfg)
        self.next_int = next_int

    def weighted(self, options):
        values = [v for v, _ in options]
        cum = list(itertools.accumulate(integer_weights([w for _, w in options])))
        u = self.next_int(cum[-1])
        return values[next(i for i, c in enumerate(cum) if c > u)]

    def uniform(self, values):
        return values[self.next_int(len(values))]

    def subset(self, values, k):
        rest, out = list(values), []
        for _ in range(k):
            out.append(rest.pop(self.next_int(len(rest))))
        return tuple(out)

    def until(self, draw, key=None):
        return RandomChooser.until(self, draw, key)


class _Replay(Chooser):
    """Replays one sequence of choice indices (``prefix``), extending it with 0s; records each choice's
    number of options and the path's probability."""

    def __init__(self, cfg, prefix: list[int], cache: dict):
        super().__init__(cfg)
        self.prefix, self.sizes, self.p, self.cache = prefix, [], Fraction(1), cache

    def weighted(self, options):
        opts = [(v, w) for v, w in options if w]
        i = len(self.sizes)
        if i == len(self.prefix):
            self.prefix.append(0)
        self.sizes.append(len(opts))
        v, w = opts[self.prefix[i]]
        total = sum(x for _, x in opts)
        self.p *= Fraction(w, total) if type(w) is int and type(total) is int else Fraction(w) / total
        return v

    def uniform(self, values):
        i = len(self.sizes)
        if i == len(self.prefix):
            self.prefix.append(0)
        self.sizes.append(len(values))
        self.p *= Fraction(1, len(values))
        return values[self.prefix[i]]

    def until(self, draw, key=None):
        accepted = self.cache.get(key) if key is not None else None
        if accepted is None:
            accepted = outcomes(self.cfg, draw, reject=False)
            if key is not None:
                self.cache[key] = accepted
        if not accepted:
            raise UnsupportedRule("unsupported rule: features.dragon_destroy: on this grid a drop without a win can "
                                  "have no removal that makes one, so the Dragon's redraw never ends",
                                  "random features of the initial drop", "report")
        return self.weighted(list(accepted.items()))


def outcomes(cfg: GridConfig, program: Callable[[Chooser], object], reject: bool = True) -> dict:
    """Every outcome of ``program(chooser)`` with its exact probability (every sequence of choices
    enumerated; a :class:`Reject` path is dropped and the rest renormalised when ``reject`` is False).

    >>> from exact.rules.grid import grid_config_of
    >>> cfg = grid_config_of(1, 3, {"A": (0, 0, 1), "B": (0, 0, 1)})
    >>> outcomes(cfg, lambda ch: ch.weighted([("x", 1), ("y", 3)]))
    {'x': Fraction(1, 4), 'y': Fraction(3, 4)}
    """
    out: dict = {}
    lost = Fraction(0)
    prefix: list[int] = []
    cache: dict = {}
    while True:
        ch = _Replay(cfg, prefix, cache)
        try:
            res = program(ch)
            out[res] = out.get(res, Fraction(0)) + ch.p
        except Reject:
            if reject:
                raise ValueError("a rejected draw outside a repeated draw") from None
            lost += ch.p
        i = len(ch.sizes) - 1
        while i >= 0 and prefix[i] + 1 >= ch.sizes[i]:
            i -= 1
        if i < 0:
            break
        prefix = prefix[:i] + [prefix[i] + 1]
    if lost and out:
        keep = 1 - lost
        out = {k: v / keep for k, v in out.items()}
    return out


def _lines_without_key(cfg: GridConfig, grid, lines) -> list:
    return [ln for ln in lines if cfg.key is None or all(grid[c] != cfg.key for c in ln)]


def apply_feature(cfg: GridConfig, f: Feature, grid: Sequence, ch: Chooser, table: str = "base") -> tuple:
    """The grid after feature ``f`` acts on the full ``grid`` (draws from ``ch``; Dragon Destroy's refill
    from weight table ``table``).

    >>> from exact.rules.grid import grid_config_of
    >>> cfg = grid_config_of(1, 3, {"A": (0, 0, 1), "B": (0, 0, 1)})
    >>> f = Feature("magic_transform", Fraction(1), Fraction(1), (("to", (("B", 1),)),), ("A",))
    >>> outcomes(cfg, lambda ch: apply_feature(cfg, f, ("A", "B", "A"), ch))
    {('B', 'B', 'B'): Fraction(1, 1)}
    """
    g = list(grid)
    key, wild = cfg.key, cfg.wild
    if f.name == "magic_transform":
        new = {s: ch.weighted(f.table("to")) for s in f.sources}
        return tuple(new.get(v, v) for v in g)
    if f.name == "irish_luck":
        side = ch.weighted(f.table("orientation"))
        lines = cfg.lines[:cfg.rows] if side == "row" else cfg.lines[cfg.rows:]
        line = ch.uniform(_lines_without_key(cfg, g, lines))
        s = ch.weighted(f.table("symbols"))
        for c in line:
            g[c] = s
        return tuple(g)
    if f.name == "starfall_wilds":
        mode = ch.weighted(f.table("modes"))
        if mode == "pattern":
            k = ch.weighted(f.table("pattern_count"))
            cells = ch.subset([c for c in range(cfg.cells) if g[c] != key], k)
        else:
            k = ch.weighted(f.table("line_count"))
            line = ch.uniform([ln for ln in _lines_without_key(cfg, g, cfg.lines) if len(ln) >= k])
            cells = ch.uniform([line[a:a + k] for a in range(len(line) - k + 1)])
        for c in cells:
            g[c] = wild
        while not find_wins(cfg, g):
            rest = [c for c in range(cfg.cells) if g[c] not in (key, wild)]
            if not rest:
                break
            g[ch.uniform(rest)] = wild
        return tuple(g)
    if f.name == "dragon_destroy":
        def destroy(c: Chooser) -> tuple:
            m = c.weighted(f.table("count"))
            gone = set(c.subset([x for x in range(cfg.cells) if grid[x] != key], m))
            moved, holes = avalanche(cfg, [None if x in gone else v for x, v in enumerate(grid)])
            out = refilled(moved, holes, c.symbols(table, len(holes)))
            if not find_wins(cfg, out):
                raise Reject
            return out
        return ch.until(destroy, key=("dragon_destroy", tuple(grid), table))
    raise ValueError(f"unknown feature {f.name!r}")


def feature_drop(cfg: GridConfig, feats: GridFeatures | None, drop: Sequence, ch: Chooser) -> tuple:
    """``(grid, feature name or None)``: the initial ``drop`` after the feature drawn for it (at most one,
    by the probabilities of a drop with or without a win).

    >>> from exact.rules.grid import grid_config_of
    >>> cfg = grid_config_of(1, 3, {"A": (0, 0, 1), "B": (0, 0, 1)})
    >>> f = GridFeatures((Feature("magic_transform", Fraction(1, 3), Fraction(0), (("to", (("B", 1),)),), ("A",)),))
    >>> outcomes(cfg, lambda ch: feature_drop(cfg, f, ("A", "A", "A"), ch))
    {(('B', 'B', 'B'), 'magic_transform'): Fraction(1, 3), (('A', 'A', 'A'), None): Fraction(2, 3)}
    """
    if feats is None or not feats.features:
        return tuple(drop), None
    won = bool(find_wins(cfg, drop))
    probs = [(f, f.win if won else f.no_win) for f in feats.features]
    none = 1 - sum(p for _, p in probs)
    f = ch.weighted(probs + [(None, none)])
    if f is None:
        return tuple(drop), None
    return apply_feature(cfg, f, drop, ch), f.name


def play_round(cfg: GridConfig, feats: GridFeatures | None, rng: random.Random) -> tuple[RoundPlay, str | None]:
    """One whole base round with its random feature, every draw from ``rng``: (the round, the feature).

    >>> from exact.rules.grid import grid_config_of
    >>> cfg = grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, wild="W")
    >>> f = GridFeatures((Feature("magic_transform", Fraction(1), Fraction(1), (("to", (("B", 1),)),), ("A",)),))
    >>> r, name = play_round(cfg, f, random.Random(3))
    >>> name, r.base.evaluations[0].grid
    ('magic_transform', ('B', 'B', 'B', 'B', 'B', 'B'))
    """
    ch = RandomChooser(cfg, rng)
    draw = drawer(cfg, "base", rng)
    grid, name = feature_drop(cfg, feats, initial_drop(cfg, draw, cfg.key is not None), ch)
    base = play_cascade(cfg, grid, draw)
    awarded = cfg.key is not None and base.final[cfg.path[-1]] == cfg.key
    free = ()
    if awarded and cfg.free_table:
        fdraw = drawer(cfg, cfg.free_table, rng)
        free = tuple(play_cascade(cfg, initial_drop(cfg, fdraw, False), fdraw) for _ in range(cfg.free_spins))
    return RoundPlay(base, awarded, free), name


def start_distribution(cfg: GridConfig, feats: GridFeatures | None, table: str = "base",
                       key: bool | None = None, act: Callable | None = None) -> dict:
    """Every full grid the first evaluation of a round can see, with its exact probability: each initial
    drop (the key on the entry when ``key``) after its feature, or after ``act(drop, chooser) -> grid``
    (small grids: the drops are enumerated).

    >>> from exact.rules.grid import grid_config_of
    >>> cfg = grid_config_of(1, 3, {"A": (0, 0, 1), "B": (0, 0, 1)})
    >>> f = GridFeatures((Feature("magic_transform", Fraction(1, 2), Fraction(0), (("to", (("B", 1),)),), ("A",)),))
    >>> start_distribution(cfg, f)[("B", "B", "B")]
    Fraction(3, 16)
    """
    key = (cfg.key is not None and table == "base") if key is None else key
    opts = [(s, w) for s, w in cfg.table(table) if w]
    total = sum(w for _, w in opts)
    cells = list(cfg.path)
    drop: list = [None] * cfg.cells
    if key:
        drop[cells.pop(0)] = cfg.key
    out: dict = {}
    den = total ** len(cells)
    for combo in itertools.product(opts, repeat=len(cells)):
        weight = 1
        for c, (s, w) in zip(cells, combo):
            drop[c] = s
            weight *= w
        p = Fraction(weight, den)
        grid = tuple(drop)
        program = (lambda ch: feature_drop(cfg, feats, grid, ch)[0]) if act is None else (lambda ch: act(grid, ch))
        for g, q in outcomes(cfg, program).items():
            out[g] = out.get(g, Fraction(0)) + p * q
    return out


def features_of(model) -> GridFeatures | None:
    """The random features of a parsed grid game, or None.

    >>> features_of(__import__("strips.loader").loader.load_math_set("rules_page").model) is None
    True
    """
    return RandomFeatures.config(model)


# --------------------------------------------------------------------------------------------------
# The game file: [features.NAME] tables.

def _fraction(t, table: dict, path: tuple, key: str) -> Fraction:
    v = table.get(key, 0)
    if isinstance(v, bool) or isinstance(v, float) or not isinstance(v, (int, str)):
        raise t.error(path + (key,), f"must be an exact probability (\"p/q\" or an integer), got {v!r}")
    try:
        p = Fraction(v)
    except (ValueError, ZeroDivisionError):
        raise t.error(path + (key,), f"must be an exact probability \"p/q\", got {v!r}") from None
    if not 0 <= p <= 1:
        raise t.error(path + (key,), f"a probability must be in [0, 1], got {v}")
    return p


def _weights(t, table: dict, path: tuple, key: str, allowed: Sequence, as_int: bool = False) -> tuple:
    w = t.get(table, path, key, dict)
    out = []
    for k, v in w.items():
        name = k
        if as_int:
            if not k.isdigit() or int(k) < 1:
                raise t.error(path + (key, k), f"must be a count >= 1, got {k!r}")
            name = int(k)
        if name not in allowed:
            raise t.error(path + (key, k), f"{k!r} is not one of {', '.join(map(str, allowed))}")
        if type(v) is not int or v < 0:
            raise t.error(path + (key, k), f"must be an integer weight >= 0, got {v!r}")
        out.append((name, v))
    if not any(v for _, v in out):
        raise t.error(path + (key,), "weights sum to zero")
    return tuple(out)


def parse_features(t, table: dict, cfg: GridConfig) -> GridFeatures:
    """``[features.NAME]`` tables -> GridFeatures (errors name file, row and column).

    >>> from exact.rules.grid import grid_config_of
    >>> class T:                                     # the loader's key locator, minimal
    ...     def get(self, table, path, key, kind, default=...):
    ...         return table[key] if default is ... else table.get(key, default)
    >>> cfg = grid_config_of(1, 3, {"A": (0, 0, 1), "B": (0, 0, 1)})
    >>> parse_features(T(), {"magic_transform": {"probability": {"win": "1/4"}, "from": ["A"], "to": {"B": 1}}},
    ...                cfg).features[0].win
    Fraction(1, 4)
    """
    feats = []
    free = cfg.cells - (1 if cfg.key else 0)
    lines = range(1, max(cfg.rows, cfg.columns) + 1)
    keyless = [ln for ln in cfg.lines if not (cfg.key and cfg.path and cfg.path[0] in ln)]
    pays = cfg.pay_symbols
    for name, spec in table.items():
        path = ("features", name)
        if name not in FEATURES:
            raise t.error(path, f"unsupported rule: feature {name!r} (supported: {', '.join(FEATURES)})")
        if not isinstance(spec, dict):
            raise t.error(path, "must be a table")
        for k in spec:
            if k not in ("probability",) + _KEYS[name]:
                raise t.error(path + (k,), f"unsupported rule: key {k!r} of feature {name} (supported: "
                              f"probability, {', '.join(_KEYS[name])})")
        pr = t.get(spec, path, "probability", dict)
        for k in pr:
            if k not in ("win", "no_win"):
                raise t.error(path + ("probability", k), f"must be win or no_win, got {k!r}")
        win, no_win = (_fraction(t, pr, path + ("probability",), k) for k in ("win", "no_win"))
        if name in ("dragon_destroy", "irish_luck") and win:
            raise t.error(path + ("probability", "win"), f"{name} acts only on a drop without a win: give no_win only")
        tables, sources = [], ()
        if name == "starfall_wilds":
            if cfg.wild is None:
                raise t.error(path, "Starfall Wilds places WILDs: the game has no WILD")
            modes = _weights(t, spec, path, "modes", ("pattern", "line"))
            tables.append(("modes", modes))
            for mode, key, most in (("pattern", "pattern_count", free), ("line", "line_count", max(lines))):
                if dict(modes).get(mode):
                    tables.append((key, _weights(t, spec, path, key, range(1, most + 1), as_int=True)))
            if dict(modes).get("line") and (win or no_win):   # a base drop's line is free of the key
                longest = max(map(len, keyless), default=0)
                for k, w in dict(tables)["line_count"]:
                    if w and k > longest:
                        raise t.error(path + ("line_count", str(k)), f"no row or column of {k} cells or more "
                                      f"is free of the key's start cell (the longest is {longest})")
        elif name == "dragon_destroy":
            tables.append(("count", _weights(t, spec, path, "count", range(1, free + 1), as_int=True)))
        elif name == "irish_luck":
            sides = _weights(t, spec, path, "orientation", ("row", "column"))
            tables.append(("orientation", sides))
            for side, w in sides:    # a base drop's line is drawn among that orientation's lines free of the key
                if w and no_win and not [ln for ln in keyless if (ln in cfg.lines[:cfg.rows]) == (side == "row")]:
                    raise t.error(path + ("orientation", side), f"every {side} holds the key's start cell: "
                                  f"no {side} can be overwritten")
            tables.append(("symbols", _weights(t, spec, path, "symbols", pays)))
        else:
            sources = tuple(t.get(spec, path, "from", list))
            for s in sources:
                if s not in pays:
                    raise t.error(path + ("from",), f"{s!r} is not a pay symbol")
            tables.append(("to", _weights(t, spec, path, "to", pays)))
        feats.append(Feature(name, win, no_win, tuple(tables), sources))
    for kind in ("win", "no_win"):
        total = 0
        for f in feats:   # located at the entry that takes the sum past 1, in the file's order
            total += getattr(f, kind)
            if total > 1:
                raise t.error(("features", f.name, "probability", kind),
                              f"the features' probabilities on a drop {'with' if kind == 'win' else 'without'}"
                              f" a win sum to more than 1 (they exclude each other)")
    return GridFeatures(tuple(sorted(feats, key=lambda f: FEATURES.index(f.name))))


class RandomFeatures(Rule):
    """Random features of a grid game's initial drop (``[features.NAME]``): exact through the round's
    chain on small grids (their draws are finite), the literal round player, and the certified simulation
    of whole rounds (:mod:`exact.grid_rounds`, its vectorised reading).

    >>> RandomFeatures.refusal(None, "sensitivity")
    'random features of the initial drop'
    """

    name = "random features of the initial drop"
    keys = "[features.starfall_wilds|dragon_destroy|irish_luck|magic_transform] probability, ..."
    implements = frozenset({"spin", "report", "simulate", "export", "comply"})
    parses = (("features",),)


EXTRA_TABLES["features"] = parse_features
