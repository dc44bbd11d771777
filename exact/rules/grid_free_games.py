"""A choice of free-spin games on a grid game (Finn's Star Bar, Lucky Mug and Golden Pot).

When the key awards the free spins, the player chooses one free-spin game among
those unlocked (``[free_spins.choice] unlock = { star_bar = 1, ... }``, in keys
collected, one per award; ``default`` the choice the headline figures are for).
Each game is ``[free_spins.games.NAME] spins = N`` free spins, each a fresh drop
of the free-spin weight table (no key, no retrigger) played to its end, its
initial drop first changed by the game's feature (literal readings):

* ``star_bar``: Starfall Wilds (the tables of ``[features.starfall_wilds]``) on
  the initial drop of each spin;
* ``lucky_mug``: Irish Luck on the initial drop of each spin whatever it shows:
  a line uniform among the rows and columns none of whose cells is part of a
  win, overwritten with one symbol drawn by ``[features.irish_luck] symbols``;
  if every line holds a win, a line uniform among all, overwritten with WILD;
* ``golden_pot``: ``cells`` distinct cells (default 5) chosen uniformly each
  become a symbol drawn by ``overlay = { SPADE = w, HEART = w }``, then Magic
  Transform (``[features.magic_transform]``);
* ``lava_lair``: a sticky WILD on the key's start cell (the path's entry) in
  every spin: it substitutes, is never removed, never explodes and never moves
  (the others move along the path without it; a win it is part of holds a WILD,
  so it creates no new WILD); Dragon Destroy (``[features.dragon_destroy]``
  ``count``) is stored and fires once per spin, the first time an evaluation
  finds no win (never removing the sticky cell; repeated until the grid wins),
  after which the cascade goes on.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from strips import limits as _limits
from exact.rules.base import Rule
from exact.rules.win_cap import capped
from exact.rules.grid import (EXTRA_KEYS, MAX_EVALUATIONS, GridConfig, avalanche, evaluate, find_wins,
                              initial_drop, play_cascade, refilled)
from exact.rules.grid_features import (Chooser, GridFeatures, RandomChooser, Reject, apply_feature, feature_drop,
                                       start_distribution)

__all__ = ["FreeGame", "FreeSpinGames", "GAMES", "free_game_drop", "free_start", "free_games_of", "FreeSpinChoice",
           "lava_drop", "lava_dragon", "lava_step", "play_lava_spin", "FeaturedRound", "play_featured_round"]

#: The free-spin games this module reads, in the order the key meter unlocks them.
GAMES = ("star_bar", "lava_lair", "lucky_mug", "golden_pot")
#: The random feature whose tables each game uses.
USES = {"star_bar": "starfall_wilds", "lucky_mug": "irish_luck", "golden_pot": "magic_transform",
        "lava_lair": "dragon_destroy"}


@dataclass(frozen=True)
class FreeGame:
    """One free-spin game: ``name`` (of :data:`GAMES`), its ``spins``, Golden Pot's ``cells`` and
    ``overlay`` ((symbol, weight), ...)."""

    name: str
    spins: int
    cells: int = 0
    overlay: tuple = ()


@dataclass(frozen=True)
class FreeSpinGames:
    """The free-spin games a player chooses from, their ``unlock`` ((game, keys), ...) and the
    ``default`` choice (the configuration kept on ``GameModel.rules``)."""

    games: tuple[FreeGame, ...]
    unlock: tuple
    default: str
    rule: str = "a choice of free-spin games"

    def game(self, name: str) -> FreeGame:
        return next(g for g in self.games if g.name == name)


def _feature(feats: GridFeatures | None, name: str):
    f = next((f for f in (feats.features if feats else ()) if f.name == name), None)
    if f is None:
        raise ValueError(f"the free-spin game uses the tables of [features.{name}]: the game file has none")
    return f


def free_game_drop(cfg: GridConfig, feats: GridFeatures, game: FreeGame, drop, ch: Chooser) -> tuple:
    """The free spin's initial ``drop`` after ``game``'s feature (draws from ``ch``).

    >>> from fractions import Fraction
    >>> from exact.rules.grid import grid_config_of
    >>> from exact.rules.grid_features import Feature, outcomes
    >>> cfg = grid_config_of(1, 3, {"A": (0, 0, 1), "B": (0, 0, 1)})
    >>> feats = GridFeatures((Feature("irish_luck", Fraction(0), Fraction(0), (("orientation", (("row", 1),)),
    ...                                ("symbols", (("B", 1),)))),))
    >>> d = outcomes(cfg, lambda ch: free_game_drop(cfg, feats, FreeGame("lucky_mug", 4), ("A", "A", "A"), ch))
    >>> d[("W", "W", "W")], d[("W", "A", "A")]          # every line holds a win cell: the row or a column, WILDs
    (Fraction(1, 4), Fraction(1, 4))
    """
    g = list(drop)
    if game.name == "star_bar":
        return apply_feature(cfg, _feature(feats, "starfall_wilds"), g, ch)
    if game.name == "lucky_mug":
        won = {c for w in find_wins(cfg, g) for c in w.cells}
        clean = [ln for ln in cfg.lines if not won.intersection(ln)]
        line = ch.uniform(clean or list(cfg.lines))
        s = ch.weighted(_feature(feats, "irish_luck").table("symbols")) if clean else cfg.wild
        for c in line:
            g[c] = s
        return tuple(g)
    if game.name == "golden_pot":
        for c in ch.subset(range(cfg.cells), game.cells):
            g[c] = ch.weighted(game.overlay)
        return apply_feature(cfg, _feature(feats, "magic_transform"), g, ch)
    raise ValueError(f"free-spin game {game.name!r} changes more than its first drop (its own chain)")


def lava_drop(cfg: GridConfig, ch: Chooser) -> tuple:
    """A Lava Lair spin's initial drop: the sticky WILD on the path's entry, every other cell drawn from the
    free-spin table (path order).

    >>> from exact.rules.grid import grid_config_of
    >>> from exact.rules.grid_features import outcomes
    >>> cfg = grid_config_of(1, 3, {"A": (0, 0, 1)}, key="K", free_spins=1)
    >>> outcomes(cfg, lambda ch: lava_drop(cfg, ch))
    {('W', 'A', 'A'): Fraction(1, 1)}
    """
    g: list = [None] * cfg.cells
    g[cfg.path[0]] = cfg.wild
    for c, s in zip(cfg.path[1:], ch.symbols(cfg.free_table, cfg.cells - 1)):
        g[c] = s
    return tuple(g)


def lava_dragon(cfg: GridConfig, feats: GridFeatures, grid, ch: Chooser) -> tuple:
    """Lava Lair's stored Dragon Destroy on a full ``grid`` without a win: ``m`` cells other than the sticky
    one removed uniformly, the others moved along the path without it, the holes refilled from the
    free-spin table, the whole draw repeated until the grid has a win."""
    f, sticky, table = _feature(feats, "dragon_destroy"), cfg.path[0], cfg.free_table

    def destroy(c: Chooser) -> tuple:
        m = c.weighted(f.table("count"))
        gone = set(c.subset([x for x in range(cfg.cells) if x != sticky], min(m, cfg.cells - 1)))
        moved, holes = avalanche(cfg, [None if x in gone else v for x, v in enumerate(grid)], sticky)
        out = refilled(moved, holes, c.symbols(table, len(holes)))
        if not find_wins(cfg, out):
            raise Reject
        return out
    return ch.until(destroy, key=("lava_lair", tuple(grid)))


def lava_step(cfg: GridConfig, feats: GridFeatures, grid, used: bool, ch: Chooser):
    """One evaluation of a Lava Lair spin's full ``grid`` (``used``: the stored Dragon Destroy has fired):
    ``(pay, evaluations, moved grid or None when the spin ends, used)``; a grid without a win fires the
    stored Dragon Destroy (once) and the grid it leaves is evaluated at once (two evaluations)."""
    sticky = cfg.path[0]
    ev = evaluate(cfg, grid, sticky)
    if ev.wins:
        return ev.pay, 1, (ev.moved, ev.refill), used
    if used:
        return 0, 1, None, used
    ev = evaluate(cfg, lava_dragon(cfg, feats, grid, ch), sticky)
    return ev.pay, 2, (ev.moved, ev.refill), True


def play_lava_spin(cfg: GridConfig, feats: GridFeatures, rng: random.Random | None,
                   ch: Chooser | None = None) -> tuple[int, int]:
    """One Lava Lair free spin played literally, every draw from ``rng`` (or the chooser ``ch``): (win in
    coins, evaluations).

    >>> from fractions import Fraction
    >>> from exact.rules.grid import grid_config_of
    >>> from exact.rules.grid_features import Feature
    >>> cfg = grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, key="K", free_spins=1)
    >>> feats = GridFeatures((Feature("dragon_destroy", Fraction(0), Fraction(0), (("count", ((2, 1),)),)),))
    >>> win, evaluations = play_lava_spin(cfg, feats, random.Random(2))
    >>> win > 0 and evaluations >= 3       # the first no-win evaluation fires the Dragon: a win follows
    True
    """
    ch = ch or RandomChooser(cfg, rng)
    grid, used, win, evs = lava_drop(cfg, ch), False, 0, 0
    while True:
        pay, n, nxt, used = lava_step(cfg, feats, grid, used, ch)
        win, evs = win + pay, evs + n
        if nxt is None:
            return win, evs
        if evs > MAX_EVALUATIONS:
            raise ValueError(f"a cascade of more than {MAX_EVALUATIONS:,} evaluations")
        moved, holes = nxt
        grid = refilled(moved, holes, ch.symbols(cfg.free_table, len(holes)))


@dataclass(frozen=True)
class FeaturedRound:
    """A whole round of a grid game with random features and a choice of free-spin games, played
    literally: the base ``cascade``, the random ``feature`` of its initial drop (None), whether the key
    ``awarded`` the free spins, and per free-spin game played (``choices``) the win of each of its spins."""

    cascade: object
    feature: str | None
    awarded: bool
    free: tuple

    @property
    def base_win(self) -> int:
        return self.cascade.win

    def free_win(self, game: str) -> int:
        return sum(dict(self.free).get(game, ()))

    def total(self, game: str, cap: int | None = None) -> int:
        """The round's total win in coins with ``game`` chosen, capped at ``cap`` coins (the win cap's
        literal reading) when given."""
        win = self.base_win + self.free_win(game)
        return win if cap is None else capped(win, cap)


def play_featured_round(cfg: GridConfig, feats: GridFeatures | None, games: FreeSpinGames | None,
                        choices, chooser: Callable[[object], Chooser]) -> FeaturedRound:
    """One whole base round played literally: the initial drop (the key on the entry, the other cells in
    path order), its random feature, the cascade, and when the key awards the free spins, each game of
    ``choices`` played for its spins (so that the rounds of every fixed choice share the base round).
    ``chooser(stream)`` gives the chooser of each stream of draws: ``"base"`` for the base round,
    ``(game, spin)`` for a free spin (the vectorised player, :mod:`exact.grid_rounds`, draws the same
    streams).

    >>> from fractions import Fraction
    >>> from exact.rules.grid import grid_config_of
    >>> from exact.rules.grid_features import Feature
    >>> cfg = grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, key="K", free_spins=1)
    >>> feats = GridFeatures((Feature("magic_transform", Fraction(1), Fraction(1), (("to", (("B", 1),)),), ("A",)),))
    >>> r = play_featured_round(cfg, feats, None, (), lambda stream: RandomChooser(cfg, random.Random(3)))
    >>> r.feature, r.base_win >= 2
    ('magic_transform', True)
    """
    ch = chooser("base")
    drop = initial_drop(cfg, lambda n: ch.symbols("base", n), cfg.key is not None)
    grid, name = feature_drop(cfg, feats, drop, ch)
    cascade = play_cascade(cfg, grid, lambda n: ch.symbols("base", n))
    awarded = cfg.key is not None and cascade.final[cfg.path[-1]] == cfg.key
    free = []
    for g in (choices if awarded else ()):
        game = games.game(g) if games else None
        wins = []
        for spin in range(game.spins if game else cfg.free_spins):
            c = chooser((g, spin))
            if g == "lava_lair":
                wins.append(play_lava_spin(cfg, feats, None, c)[0])
                continue
            fdrop = initial_drop(cfg, lambda n, c=c: c.symbols(cfg.free_table, n), False)
            if game is not None:
                fdrop = free_game_drop(cfg, feats, game, fdrop, c)
            wins.append(play_cascade(cfg, fdrop, lambda n, c=c: c.symbols(cfg.free_table, n)).win)
        free.append((g, tuple(wins)))
    return FeaturedRound(cascade, name, awarded, tuple(free))


def free_start(cfg: GridConfig, feats: GridFeatures, game: FreeGame) -> dict:
    """Every grid the first evaluation of one of ``game``'s free spins sees, with its exact probability.

    >>> from fractions import Fraction
    >>> from exact.rules.grid import grid_config_of
    >>> from exact.rules.grid_features import Feature
    >>> cfg = grid_config_of(1, 3, {"A": (0, 0, 1), "B": (0, 0, 1)}, key="K", free_spins=1)
    >>> feats = GridFeatures((Feature("magic_transform", Fraction(0), Fraction(0), (("to", (("B", 1),)),), ("A",)),))
    >>> free_start(cfg, feats, FreeGame("golden_pot", 1, 3, (("A", 1),)))
    {('B', 'B', 'B'): Fraction(1, 1)}
    """
    act: Callable = lambda drop, ch: free_game_drop(cfg, feats, game, drop, ch)   # noqa: E731
    return start_distribution(cfg, feats, cfg.free_table, key=False, act=act)


def free_games_of(model) -> FreeSpinGames | None:
    """The free-spin games of a parsed grid game, or None.

    >>> free_games_of(__import__("strips.loader").loader.load_math_set("rules_page").model) is None
    True
    """
    return FreeSpinChoice.config(model)


def parse_free_games(t, doc: dict, cfg: GridConfig) -> FreeSpinGames | None:
    """``[free_spins.games.NAME]`` and ``[free_spins.choice]`` of the game file ``doc`` -> FreeSpinGames
    (errors name file, row and column: a game whose feature has no ``[features.NAME]`` table, too).

    >>> from exact.rules.grid import grid_config_of
    >>> class T:                                     # the loader's key locator, minimal
    ...     def get(self, table, path, key, kind, default=...):
    ...         return table[key] if default is ... else table.get(key, default)
    >>> doc = {"features": {"starfall_wilds": {}}, "free_spins": {"games": {"star_bar": {"spins": 7}}}}
    >>> parse_free_games(T(), doc, grid_config_of(1, 3, {"A": (0, 0, 1)})).default
    'star_bar'
    """
    fs = doc["free_spins"]
    if "games" not in fs:
        if "choice" in fs:
            raise t.error(("free_spins", "choice"), "a choice needs [free_spins.games.NAME] tables")
        return None
    games = []
    for name, spec in t.get(fs, ("free_spins",), "games", dict).items():
        path = ("free_spins", "games", name)
        if name not in GAMES:
            raise t.error(path, f"unsupported rule: free-spin game {name!r} (supported: {', '.join(GAMES)})")
        if not isinstance(spec, dict):
            raise t.error(path, "must be a table")
        allowed = ("spins", "cells", "overlay") if name == "golden_pot" else ("spins",)
        for k in spec:
            if k not in allowed:
                raise t.error(path + (k,), f"unsupported rule: key {k!r} of free-spin game {name} (supported: "
                              f"{', '.join(allowed)})")
        uses = USES[name]
        if uses not in doc.get("features", {}):
            raise t.error(path, f"the free-spin game {name} uses the tables of [features.{uses}]: the game file "
                          f"has none")
        spins = t.get(spec, path, "spins", int)
        if spins < 1:
            raise t.error(path + ("spins",), f"must be at least 1, got {spins}")
        over = _limits.exceeds("spins", spins)
        if over is not None:
            raise t.error(path + ("spins",), _limits.refusal("spins", spins, over, "free spins"))
        cells, overlay = 0, ()
        if name == "golden_pot":
            cells = t.get(spec, path, "cells", int, 5)
            if not 1 <= cells <= cfg.cells:
                raise t.error(path + ("cells",), f"must be in 1..{cfg.cells}, got {cells}")
            ov = t.get(spec, path, "overlay", dict)
            for s, w in ov.items():
                if s not in cfg.pay_symbols:
                    raise t.error(path + ("overlay", s), f"{s!r} is not a pay symbol")
                if type(w) is not int or w < 0:
                    raise t.error(path + ("overlay", s), f"must be an integer weight >= 0, got {w!r}")
            if not any(ov.values()):
                raise t.error(path + ("overlay",), "weights sum to zero")
            overlay = tuple(ov.items())
        games.append(FreeGame(name, spins, cells, overlay))
    if not games:
        raise t.error(("free_spins", "games"), "no free-spin game")
    names = [g.name for g in games]
    ch = t.get(fs, ("free_spins",), "choice", dict, {})
    for k in ch:
        if k not in ("unlock", "default"):
            raise t.error(("free_spins", "choice", k), f"unsupported rule: key {k!r} (supported: unlock, default)")
    unlock = t.get(ch, ("free_spins", "choice"), "unlock", dict, {g: 1 for g in names})
    for g, n in unlock.items():
        if g not in names:
            raise t.error(("free_spins", "choice", "unlock", g), f"{g!r} is not one of the games ({', '.join(names)})")
        if type(n) is not int or n < 1:
            raise t.error(("free_spins", "choice", "unlock", g), f"must be a key count >= 1, got {n!r}")
    default = t.get(ch, ("free_spins", "choice"), "default", str, min(names, key=lambda g: (unlock.get(g, 1),
                                                                                              GAMES.index(g))))
    if default not in names:
        raise t.error(("free_spins", "choice", "default"), f"{default!r} is not one of the games")
    return FreeSpinGames(tuple(games), tuple((g, unlock.get(g, 1)) for g in names), default)


class FreeSpinChoice(Rule):
    """A choice of free-spin games (``[free_spins.games.NAME]``, ``[free_spins.choice]``): exact through
    the chains on small grids, and the certified simulation of whole rounds (:mod:`exact.grid_rounds`).

    >>> FreeSpinChoice.refusal(None, "sensitivity")
    'a choice of free-spin games'
    """

    name = "a choice of free-spin games"
    keys = "[free_spins.games.star_bar|lucky_mug|golden_pot] spins, ...; [free_spins.choice] unlock, default"
    implements = frozenset({"spin", "report", "simulate", "export", "comply"})
    parses = (("free_spins", "games"), ("free_spins", "choice"))


EXTRA_KEYS[("free_spins", "games")] = parse_free_games
EXTRA_KEYS[("free_spins", "choice")] = lambda t, doc, cfg: None      # read with the games
