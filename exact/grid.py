"""Analyses of grid games (``[grid]``, :mod:`exact.rules.grid`): the literal cascade of ``rtp spin``.

The rule module holds the literal reading (the oracle); this module turns a
math set and command-line text into a played cascade and its display.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from exact import grid_chain
from exact.rules import (Cascade, GridConfig, RandomChooser, apply_feature, drawer, feature_drop, features_of,
                         free_game_drop, free_games_of, grid_config, initial_drop, play_cascade, start_distribution)
from strips.errors import UnsupportedRule, UsageError

__all__ = ["is_grid", "config_of", "parse_cells", "spin_cascade", "SpinResult", "grid_text", "refuse_grid",
           "grid_report", "feature_start", "MAX_FEATURE_DROPS", "TooManyDrops"]

#: Most initial drops the exact start of a round with random features enumerates (each with every
#: outcome of its feature).
MAX_FEATURE_DROPS = 20_000


def is_grid(ms) -> bool:
    """Whether the math set (or GameModel) ``ms`` is a grid game."""
    return grid_config(getattr(ms, "model", ms)) is not None


def config_of(ms) -> GridConfig:
    """The GridConfig of a grid game's math set."""
    return grid_config(getattr(ms, "model", ms))


def parse_cells(cfg: GridConfig, text: str) -> tuple[str, ...]:
    """A grid written row by row, top row first: rows separated by ``/``, cells by commas or spaces.

    Raises
    ------
    UsageError
        A row count or row length that is not the grid's, or an unknown symbol.

    >>> from exact.rules import grid_config_of
    >>> parse_cells(grid_config_of(2, 3, {"A": (0, 0, 1), "B": (0, 0, 1)}), "A B W / B,A,A")
    ('A', 'B', 'W', 'B', 'A', 'A')
    """
    rows = [r.replace(",", " ").split() for r in text.split("/")]
    if len(rows) != cfg.rows or any(len(r) != cfg.columns for r in rows):
        raise UsageError(f"rtp: --cells needs {cfg.rows} rows of {cfg.columns} symbols separated by '/', "
                         f"got {text!r}")
    known = set(cfg.pay_symbols) | {cfg.wild, cfg.key} - {None}
    cells = tuple(s for r in rows for s in r)
    for s in cells:
        if s not in known:
            raise UsageError(f"rtp: --cells: unknown symbol {s!r} (the grid shows {', '.join(sorted(known))})")
    if cells.count(cfg.key) > 1 if cfg.key else False:
        raise UsageError(f"rtp: --cells: the key {cfg.key!r} shows more than once")
    return cells


@dataclass(frozen=True)
class SpinResult:
    """A cascade played by ``rtp spin``: the configuration, the ``cascade``, the refill ``source``
    (``"--refill"`` or ``"--seed N"``), the free spins the key awards (0 or ``[free_spins] spins``), and
    the random ``feature`` that acted on the drop (None) with the ``drop`` before it."""

    config: GridConfig
    cascade: Cascade
    source: str
    free_spins: int
    feature: str | None = None
    drop: tuple | None = None


def spin_cascade(ms, cells: Sequence[str] | None, refill: Sequence[str] | None, seed: int | None,
                 phase: str = "base", feature: str | None = None) -> SpinResult:
    """Play one drop through the literal reading: ``cells`` (or drawn with ``seed``: the key on the entry
    in the base game) and its refills (``refill`` in order, path order from the entry per evaluation, then
    drawn from the phase's weight table with ``seed``).

    Raises
    ------
    UsageError
        Neither cells nor seed, refills that run out, an unknown symbol or phase.

    >>> import exact
    >>> from exact.rules import grid_config_of
    >>> r = spin_cascade(grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 1)}), ("A", "A", "A", "B", "A", "B"),
    ...                  ["B", "A", "B"], None)
    >>> r.cascade.win, len(r.cascade.evaluations)
    (5, 2)
    """
    cfg = ms if isinstance(ms, GridConfig) else config_of(ms)
    feats = None if isinstance(ms, GridConfig) else features_of(getattr(ms, "model", ms))
    tables = {"base": "base"}
    if cfg.free_table:
        tables["free"] = cfg.free_table
    who = f"rtp spin: {ms.name}" if getattr(ms, "name", None) else "rtp spin"
    if phase not in tables:
        raise UsageError(f"{who}: --phase must be one of {', '.join(tables)}, got {phase!r}")
    rng = random.Random(seed)
    draw = drawer(cfg, tables[phase], rng)
    drawn_drop = cells is None
    if cells is None:
        if seed is None:
            raise UsageError(f"{who}: give --cells (the grid) or --seed N (draw it)")
        cells = initial_drop(cfg, draw, phase == "base" and cfg.key is not None)
    drop, name = tuple(cells), None
    games = None if isinstance(ms, GridConfig) else free_games_of(getattr(ms, "model", ms))
    if phase != "base" and games is not None and (feature is not None or drawn_drop):
        cells, name = _free_game(cfg, feats, games, drop, feature, rng, seed)
    elif feature is not None or (feats is not None and drawn_drop and phase == "base"):
        cells, name = _feature(cfg, feats, drop, feature, rng, seed)
    drawn = draw if seed is not None else None
    supply = iter(refill or ())

    def refills(n):
        out = [next(supply, None) for _ in range(n)]
        missing = out.count(None)
        if missing and drawn is None:
            raise UsageError(f"rtp: --refill ran out: the cascade needs more than the {len(refill)} refill "
                             f"symbols given (or add --seed N to draw the rest)" if refill else
                             "rtp: the cascade needs refill symbols: give --refill S,S,... or --seed N")
        return out[:n - missing] + (list(drawn(missing)) if missing else [])
    try:
        cascade = play_cascade(cfg, cells, refills)
    except UsageError:
        raise
    except ValueError as e:
        raise UsageError(f"rtp: {e}") from None
    source = " then ".join(([f"--refill ({len(refill)} given)"] if refill else []) +
                           ([f"--seed {seed}"] if seed is not None else [])) or "none needed"
    key_end = cfg.key is not None and cascade.final[cfg.path[-1]] == cfg.key
    return SpinResult(cfg, cascade, source, cfg.free_spins if key_end and phase == "base" else 0, name,
                      drop if name else None)


def _free_game(cfg: GridConfig, feats, games, drop: tuple, game: str | None, rng, seed):
    """A free spin's drop after the first-drop change of free-spin game ``game`` (default: the default
    choice), draws from ``rng``."""
    named = {g.name: g for g in games.games}
    act = lambda g, ch: free_game_drop(cfg, feats, g, drop, ch)           # noqa: E731
    return _act(cfg, named, game or games.default, act, rng, seed, "in free spins", "free-spin games")


def _feature(cfg: GridConfig, feats, drop: tuple, feature: str | None, rng, seed):
    """The drop after ``feature`` (or, None, the feature drawn for it), draws from ``rng``."""
    if feature is None:
        return feature_drop(cfg, feats, drop, RandomChooser(cfg, rng))
    named = {f.name: f for f in feats.features} if feats else {}
    act = lambda f, ch: apply_feature(cfg, f, drop, ch)                   # noqa: E731
    return _act(cfg, named, feature, act, rng, seed, "", "game's features")


def _act(cfg, named: dict, name: str, act, rng, seed, where: str, what: str):
    """``(act(named[name], chooser), name)`` with the draws from ``rng``; one-line UsageErrors."""
    if name not in named:
        raise UsageError(f"rtp: --feature{' ' + where if where else ''} must be one of the {what} "
                         f"({', '.join(named) or 'none'}), got {name!r}")
    if seed is None:
        raise UsageError(f"rtp: {name} draws its outcome: give --seed N")
    try:
        return act(named[name], RandomChooser(cfg, rng)), name
    except ValueError as e:
        raise UsageError(f"rtp: {name}: {e}") from None


def grid_text(cfg: GridConfig, grid: Sequence[str | None]) -> list[str]:
    """The grid as lines, top row first, ``.`` for an empty cell."""
    width = max([1] + [len(s) for s in grid if s]) + 1
    return ["  ".join(f"{s or '.':<{width}}" for s in grid[i * cfg.columns:(i + 1) * cfg.columns]).rstrip()
            for i in range(cfg.rows)]


def refuse_grid(ms) -> None:
    """Raise :class:`strips.errors.UnsupportedRule` for a grid game handed to the reel-strip PAR sheet
    (:func:`exact.par_sheet`): its report is :func:`grid_report` (``rtp report`` runs it).

    >>> refuse_grid(__import__("strips.loader").loader.load_math_set("rules_page"))
    """
    if is_grid(ms):
        raise UnsupportedRule("unsupported rule: grid of independent cells: the reel-strip PAR sheet "
                              "(exact.par_sheet) does not model it; exact.grid.grid_report(ms) gives its "
                              "report (rtp report)", rule="grid of independent cells", analysis="report")


def grid_report(ms, max_scc: int | None = None, max_states: int | None = None):
    """The round figures of a small grid game by its absorbing chain
    (:func:`exact.grid_chain.chain_figures`: exact Fractions, or floats within a stated bound).

    Raises
    ------
    strips.errors.UnsupportedRule
        A chain too large: the certified simulation (``proofs.grid_simulate.simulate_grid``,
        ``rtp report``) computes such a game.

    >>> from exact.rules import grid_config_of
    >>> grid_report(grid_config_of(1, 3, {"A": (0, 0, 4), "B": (0, 0, 1)})).mean
    Fraction(15, 14)
    """
    cfg = ms if isinstance(ms, GridConfig) else config_of(ms)
    return grid_chain.chain_figures(cfg, max_scc, max_states)


class TooManyDrops(UnsupportedRule):
    """More initial drops than the exact round enumerates (:data:`MAX_FEATURE_DROPS`): the report and comply
    then simulate the game; every other refusal of the features stays a refusal."""


def feature_start(cfg: GridConfig, feats) -> dict | None:
    """The exact distribution of the grid the first evaluation sees, each initial drop after its random
    feature (:func:`exact.rules.start_distribution`), or None without features.

    Raises
    ------
    strips.errors.UnsupportedRule
        More than :data:`MAX_FEATURE_DROPS` initial drops to enumerate.

    >>> feature_start(None, None) is None
    True
    """
    if feats is None:
        return None
    n = sum(1 for _, w in cfg.table("base") if w) ** (cfg.cells - (1 if cfg.key else 0))
    if n > MAX_FEATURE_DROPS:
        raise TooManyDrops(f"unsupported rule: random features of the initial drop: {n:,} initial drops, more "
                              f"than the {MAX_FEATURE_DROPS:,} the exact round enumerates",
                              rule="random features of the initial drop", analysis="report")
    return start_distribution(cfg, feats)
