"""Frames and bowls (``[frames]``): persistent cells through the free spins a prize-wheel award starts.

Keys (``game.toml``; the readings are fixed, the weights the game's):

* ``[frames] scatter = "SCATTER"`` (optional: the free spins' scatter by default), ``raise = 1`` or
  ``raise = "max"``: during the free spins a prize-wheel award starts (``free_spins N`` or
  ``free_spins N START``), each cell holds a frame level 0-3 that persists to the end of those free
  spins; a scatter landing on a cell raises its level by one (``"max"``: to 3), at most 3.
* ``[frames.bowls.level1]``, ``level2``, ``level3``: ``awards = ["credits 5", ..., "jackpot Mini"]``,
  ``weights = [...]`` (integers): at the end every framed cell becomes a bowl whose value is drawn
  from its level's table, each independently, and the dog collects them all.
* ``full = "credits 100"`` (optional, on ``[frames]`` or a start): paid for each scatter that lands when
  no cell can take a frame (every cell already at level 3).
* The named starts of a wheel award ``free_spins N START`` (each may set its own ``raise`` and ``full``):

  - ``[frames.go_large] blocks = ["2x2", "3x3", "5x3"], weights = [...]``: a block of scatters of
    C reels x R rows (by weight, then uniformly over the positions where it fits) lands in view at the
    start; its cells become level-1 frames.
  - ``[frames.rollin_bones] symbol = "BONUS"``: each such symbol of the triggering window rolls right
    along its row to the last reel; every cell it passes (its own included) gets a level-1 frame; a
    cell passed by k of them gets level min(k, 3).
  - ``[frames.high_steaks] symbol = "BONUS", raise = "max", full = "credits 100"``: the triggering
    window's such symbols become scatters with level-3 frames.

The round win adds the free spins' pays, the bowls and the full prizes once the free spins end.  This
module holds the configuration, its validation (file, row and column of every bad key) and the literal
reading (:func:`block_starts`, :func:`start_levels`, :func:`frames_spin`, :func:`bowls_win`): the oracle.
The exact figures are :mod:`markov.frames` (per-reel chains over the 4^rows level tuples) through
:mod:`exact.frames` (the window starts by the base win split by the symbol's cells).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Mapping, Sequence

import numpy as np

from strips import plugins
from strips.model import FREE_SPINS, SCATTER

from exact.rules.base import Rule
from exact.rules.hold_and_win import CoinValue, _coin_value
from exact.rules.wild import combination_wilds

__all__ = ["Frames", "FramesConfig", "FrameStart", "BowlTable", "block_starts", "block_places", "start_levels", "frames_spin",
           "bowls_win", "frame_awards", "TOP", "STARTS", "FramesStep"]

TOP = 3
#: The named starts a ``[frames]`` table may define (fixed readings) and the keys of each.
STARTS = {"go_large": ("blocks", "weights", "raise", "full"),
          "rollin_bones": ("symbol", "raise", "full"),
          "high_steaks": ("symbol", "raise", "full")}
#: The starts read from the triggering window (their exact figures need the window's cells).
WINDOW_STARTS = ("rollin_bones", "high_steaks")
TABLE_KEYS = ("scatter", "raise", "full", "bowls") + tuple(STARTS)
_BLOCK = re.compile(r"^([1-9][0-9]*)x([1-9][0-9]*)$")


@dataclass(frozen=True)
class BowlTable:
    """One level's bowl values with integer weights."""

    values: tuple[CoinValue, ...]
    weights: tuple[int, ...]

    def law(self) -> tuple[tuple[CoinValue, Fraction], ...]:
        """(value, probability) of one bowl, positive only.

        >>> BowlTable((CoinValue(5), CoinValue(100, "Mini")), (3, 1)).law()[1]
        (CoinValue(credits=100, jackpot='Mini'), Fraction(1, 4))
        """
        total = sum(self.weights)
        return tuple((v, Fraction(w, total)) for v, w in zip(self.values, self.weights) if w)

    def moments(self) -> tuple[Fraction, Fraction]:
        """(E[v], E[v^2]) of one bowl, credits.

        >>> BowlTable((CoinValue(5), CoinValue(100, "Mini")), (3, 1)).moments()
        (Fraction(115, 4), Fraction(10075, 4))
        """
        law = self.law()
        return (sum((p * v.credits for v, p in law), Fraction(0)),
                sum((p * v.credits * v.credits for v, p in law), Fraction(0)))


@dataclass(frozen=True)
class FrameStart:
    """One named start of the frames (or the plain start, ``name = ""``: every cell at level 0).

    ``blocks``: (reels wide, rows tall) of Go Large's blocks with ``weights``; ``symbol``: the symbol of
    the triggering window Rollin' Bones and High Steaks read; ``raise_by`` 1 or 3; ``full`` credits per
    scatter landing when every cell is at level 3 (0: none).
    """

    name: str
    raise_by: int
    full: int = 0
    blocks: tuple[tuple[int, int], ...] = ()
    weights: tuple[int, ...] = ()
    symbol: str = ""


@dataclass(frozen=True)
class FramesConfig:
    """The parsed ``[frames]`` table: the scatter, the bowls of levels 1-3, the plain start and the named ones."""

    scatter: str
    bowls: tuple[BowlTable, BowlTable, BowlTable]
    plain: FrameStart
    starts: Mapping[str, FrameStart] = field(default_factory=dict)
    rule: str = "frames"

    def start(self, name: str) -> FrameStart:
        """The start of a wheel award (``""``: the plain start)."""
        return self.starts[name] if name else self.plain


# ---------------------------------------------------------------------------
# the literal reading
# ---------------------------------------------------------------------------
def block_starts(start: FrameStart, reels: int, rows: int) -> list[tuple[Fraction, frozenset]]:
    """Go Large read literally: every (probability, cells (reel, row) of the block) it lands: a block by
    weight, then uniformly over the positions where it fits in the window.

    >>> [(p, sorted(c)) for p, c in block_starts(FrameStart("go_large", 1, blocks=((2, 1),), weights=(1,)), 3, 1)]
    [(Fraction(1, 2), [(0, 0), (1, 0)]), (Fraction(1, 2), [(1, 0), (2, 0)])]
    """
    total = sum(start.weights)
    out = []
    for block, wt in zip(start.blocks, start.weights):
        places = block_places(block, reels, rows)
        out += [(Fraction(wt, total * len(places)), cells) for cells in places] if wt else []
    return out


def block_places(block: tuple[int, int], reels: int, rows: int) -> list[frozenset]:
    """The cells (reel, row) of a block of ``block`` = (reels wide, rows tall) at every position where it fits.

    >>> [sorted(c) for c in block_places((1, 2), 1, 3)]
    [[(0, 0), (0, 1)], [(0, 1), (0, 2)]]
    """
    w, h = block
    return [frozenset((x + i, y + j) for i in range(w) for j in range(h))
            for x in range(reels - w + 1) for y in range(rows - h + 1)]


def start_levels(start: FrameStart, reels: int, rows: int, window=None, block=frozenset()) -> tuple[tuple[int, ...], ...]:
    """The frame levels at the start of the free spins, one tuple per reel (row 1 first).

    ``window``: the triggering window (per reel, the symbol names of rows 1..rows; read by Rollin' Bones
    and High Steaks); ``block``: the cells of Go Large's block (:func:`block_starts`).

    >>> rb = FrameStart("rollin_bones", 1, symbol="B")
    >>> start_levels(rb, 3, 1, (("B",), ("B",), ("x",)))
    ((1,), (2,), (2,))
    >>> start_levels(FrameStart("high_steaks", 3, symbol="B"), 2, 2, (("B", "x"), ("x", "B")))
    ((3, 0), (0, 3))
    """
    if start.name == "go_large":
        return tuple(tuple(1 if (r, i) in block else 0 for i in range(rows)) for r in range(reels))
    if start.name == "rollin_bones":
        out, passed = [], [0] * rows
        for r in range(reels):
            passed = [k + (window[r][i] == start.symbol) for i, k in enumerate(passed)]
            out.append(tuple(min(TOP, k) for k in passed))
        return tuple(out)
    if start.name == "high_steaks":
        return tuple(tuple(TOP if window[r][i] == start.symbol else 0 for i in range(rows)) for r in range(reels))
    return ((0,) * rows,) * reels


def frames_spin(levels: Sequence[Sequence[int]], window, scatter: str, raise_by: int) -> tuple[tuple, int]:
    """One free spin read literally: (the levels after it, the scatters paid the full prize).

    When every cell is already at level 3 (no cell can take a frame) each scatter in view pays the full
    prize; otherwise each scatter raises its cell's level by ``raise_by``, at most 3.

    >>> frames_spin(((0, 2),), (("S", "S"),), "S", 1), frames_spin(((3,),), (("S",),), "S", 1)
    ((((1, 3),), 0), (((3,),), 1))
    """
    shown = sum(x == scatter for col in window for x in col)
    if all(v == TOP for lv in levels for v in lv):
        return tuple(tuple(lv) for lv in levels), shown
    return tuple(tuple(min(TOP, v + raise_by) if col[i] == scatter else v for i, v in enumerate(lv))
                 for lv, col in zip(levels, window)), 0


def bowls_win(levels: Sequence[Sequence[int]], draws: Sequence[CoinValue]) -> int:
    """The bowls' value: one drawn value per framed cell (reel by reel, row 1 first), credits.

    >>> bowls_win(((1, 0), (3, 0)), [CoinValue(5), CoinValue(100, "Mini")])
    105
    """
    assert len(draws) == sum(1 for lv in levels for v in lv if v)
    return sum(v.credits for v in draws)


def frame_awards(model) -> list:
    """The wheel awards of ``model`` whose free spins carry frames: every ``free_spins`` award."""
    return [a for w in model.wheels for t in w.prizes.values() for a in t.awards if a.kind == FREE_SPINS]


# ---------------------------------------------------------------------------
# the simulator's step: every frames feature a wheel awards, played literally, vectorised over rounds
# ---------------------------------------------------------------------------
def _bits(masks: np.ndarray, rows: int) -> np.ndarray:
    """Row bit masks (any shape) as 0/1 cells: shape + (rows,), int64."""
    return (masks[..., None] >> np.arange(rows, dtype=np.int64)) & 1


@dataclass(frozen=True)
class FramesStep:
    """The frames' vectorised literal step of a simulated round: the prize wheels' step
    (:class:`exact.rules.wheels.WheelSteps`) hands it every free-spin award drawn (``play_awards``), and
    it plays each as :func:`start_levels`, :func:`frames_spin` and :func:`bowls_win` read it, for all the
    rounds of one award at once: the start's levels (Go Large: a block by weight, then a position
    uniformly; Rollin' Bones and High Steaks: the symbol's cells of the window that decided the features,
    ``block.stops``), then each free spin (its stops drawn, its pays by the mode's level-1 spins times the
    level's multiplier; a round whose every cell is already at level 3 is paid ``full`` per scatter in
    view, any other raises the cells showing a scatter), then one bowl drawn per framed cell.

    ``scatter``: per reel, per free-spin stop, the rows showing the frames' scatter (bit masks);
    ``symbols``: per start symbol, the same on the base strips; ``bowls``: per level 1-3 (cumulative
    integer weights, credits of each value).
    """

    config: FramesConfig
    reels: int
    rows: int
    scatter: tuple
    symbols: dict
    bowls: tuple
    places: dict
    rule: str = "frames"
    stage: str = "after_features"

    @classmethod
    def of(cls, model, tables) -> "FramesStep":
        """The step of ``model`` (a bet mode's game); ``tables(symbol, masks=True, level=...)`` the masks."""
        config = Frames.config(model)
        symbols = {s.symbol: tables(s.symbol, masks=True) for s in config.starts.values() if s.symbol}
        bowls = tuple((np.cumsum(np.array(b.weights, dtype=np.int64)),
                       np.array([v.credits for v in b.values], dtype=np.int64)) for b in config.bowls)
        places = {blk: np.array([[[int((r, i) in cells) for i in range(model.rows)] for r in range(model.reels)]
                                 for cells in block_places(blk, model.reels, model.rows)], dtype=np.int64)
                  for s in config.starts.values() for blk in s.blocks}
        return cls(config, model.reels, model.rows, tables(config.scatter, masks=True, level=0), symbols, bowls,
                   places)

    def simulate(self, block) -> None:
        """Nothing of its own: the wheels' step calls :meth:`play_awards`."""

    def start(self, block, rows: np.ndarray, start: FrameStart) -> np.ndarray:
        """The levels at the start of the free spins of the rounds ``rows``: (n, reels, rows) int64."""
        n, rng = len(rows), block.rng
        if start.name == "go_large":
            cum = np.cumsum(np.array(start.weights, dtype=np.int64))
            which = np.searchsorted(cum, rng.integers(0, int(cum[-1]), n), side="right")
            levels = np.zeros((n, self.reels, self.rows), dtype=np.int64)
            for b, blk in enumerate(start.blocks):
                sel = np.flatnonzero(which == b)
                if len(sel):
                    cells = self.places[blk]
                    levels[sel] = cells[rng.integers(0, len(cells), len(sel))]
            return levels
        if start.name in WINDOW_STARTS:
            masks = self.symbols[start.symbol]
            shown = np.stack([_bits(masks[r][block.stops[rows, r]], self.rows) for r in range(self.reels)], axis=1)
            if start.name == "rollin_bones":
                return np.minimum(TOP, np.cumsum(shown, axis=1))
            return shown * TOP
        return np.zeros((n, self.reels, self.rows), dtype=np.int64)

    def spin(self, levels: np.ndarray, stops: np.ndarray, raise_by: int) -> tuple[np.ndarray, np.ndarray]:
        """One free spin at ``stops`` (n, reels) on the levels (n, reels, rows), as :func:`frames_spin`: (the
        levels after it, the scatters paid the full prize per round (n,))."""
        shown = np.stack([_bits(self.scatter[r][stops[:, r]], self.rows) for r in range(self.reels)], axis=1)
        full = (levels == TOP).all(axis=(1, 2))
        return (np.where(full[:, None, None], levels, np.minimum(TOP, levels + raise_by * shown)),
                full * shown.sum(axis=(1, 2)))

    def play(self, block, rows: np.ndarray, spins: int, start: FrameStart) -> np.ndarray:
        """The win of the frames feature of ``spins`` free spins from ``start`` for the rounds ``rows``
        (pays + bowls + full prizes, credits, int64 (n,)); its free spins tallied."""
        g, rng = block.game, block.rng
        levels = self.start(block, rows, start)
        n = len(rows)
        win = np.zeros(n, dtype=np.int64)
        for _ in range(spins):
            stops = g.levels[0].draw(n, rng)
            win += g.levels[0].evaluate(stops, rng).win * g.multipliers[0]
            levels, landed = self.spin(levels, stops, start.raise_by)
            win += landed * start.full
        for level, (cum, credits) in enumerate(self.bowls, start=1):
            cells = (levels == level).sum(axis=(1, 2))
            total = int(cells.sum())
            if total:
                values = credits[np.searchsorted(cum, rng.integers(0, int(cum[-1]), total), side="right")]
                np.add.at(win, np.repeat(np.arange(n), cells), values)
        block.tally.free_spins += n * spins
        return win

    def play_awards(self, block, rows: np.ndarray, awards) -> None:
        """Play the free-spin award of each round of ``rows`` (``awards[i]``: a ``free_spins N [START]``
        :class:`strips.model.Award`) with its frames, award by award; their wins added."""
        keys = sorted({(a.amount, a.start) for a in awards})
        for amount, name in keys:
            sel = np.array([i for i, a in enumerate(awards) if (a.amount, a.start) == (amount, name)], dtype=np.int64)
            block.add_win(rows[sel], self.play(block, rows[sel], amount, self.config.start(name)))

# ---------------------------------------------------------------------------
# keys and validation
# ---------------------------------------------------------------------------
def _raise(t, spec: dict, path: tuple, default: int) -> int:
    if "raise" not in spec:
        return default
    v = spec["raise"]
    if v == 1 and not isinstance(v, bool):
        return 1
    if v == "max":
        return TOP
    raise t.error(path + ("raise",), f"must be 1 or \"max\", got {v!r}")


def _full(t, spec: dict, path: tuple, jackpots: dict, default: int) -> int:
    if "full" not in spec:
        return default
    return _coin_value(t, path + ("full",), spec["full"], jackpots).credits


def _bowls(t, spec, path: tuple, jackpots: dict) -> tuple[BowlTable, ...]:
    if not isinstance(spec, dict):
        raise t.error(path, "needs [frames.bowls.level1], level2 and level3 (awards, weights)")
    unknown = [k for k in spec if k not in ("level1", "level2", "level3")]
    if unknown:
        raise t.error(path + (unknown[0],), "unknown bowl table (known: level1, level2, level3)")
    out = []
    for level in ("level1", "level2", "level3"):
        lp = path + (level,)
        if level not in spec:
            raise t.error(path, f"bowls.{level} is missing (awards, weights)")
        ls = spec[level]
        if not isinstance(ls, dict):
            raise t.error(lp, "must be a table (awards, weights)")
        bad = [k for k in ls if k not in ("awards", "weights")]
        if bad:
            raise t.error(lp + (bad[0],), "unknown key (known: awards, weights)")
        texts = t.get(ls, lp, "awards", list)
        if not texts:
            raise t.error(lp + ("awards",), "needs at least one award")
        values = tuple(_coin_value(t, lp + ("awards",), x, jackpots) for x in texts)
        weights = tuple(t.get(ls, lp, "weights", "ints"))
        if len(weights) != len(values) or any(w < 0 for w in weights) or not sum(weights):
            raise t.error(lp + ("weights",), f"needs {len(values)} weights >= 0 (one per award), not all 0")
        out.append(BowlTable(values, weights))
    return tuple(out)


def _start(t, name: str, spec, path: tuple, model, jackpots: dict, plain: FrameStart) -> FrameStart:
    if not isinstance(spec, dict):
        raise t.error(path, "must be a table")
    unknown = [k for k in spec if k not in STARTS[name]]
    if unknown:
        raise t.error(path + (unknown[0],), f"unknown key (known: {', '.join(STARTS[name])})")
    raise_by = _raise(t, spec, path, plain.raise_by)
    full = _full(t, spec, path, jackpots, plain.full)
    if name == "go_large":
        texts = t.get(spec, path, "blocks", list)
        blocks = []
        for x in texts:
            m = _BLOCK.match(x) if isinstance(x, str) else None
            if not m:
                raise t.error(path + ("blocks",), f"block {x!r} is not 'CxR' (reels wide x rows tall, e.g. \"2x2\")")
            w, h = int(m.group(1)), int(m.group(2))
            if w > model.reels or h > model.rows:
                raise t.error(path + ("blocks",), f"block {x!r} does not fit the {model.reels}x{model.rows} window")
            blocks.append((w, h))
        if not blocks:
            raise t.error(path + ("blocks",), "needs at least one block")
        weights = tuple(t.get(spec, path, "weights", "ints"))
        if len(weights) != len(blocks) or any(w < 0 for w in weights) or not sum(weights):
            raise t.error(path + ("weights",), f"needs {len(blocks)} weights >= 0 (one per block), not all 0")
        return FrameStart(name, raise_by, full, tuple(blocks), weights)
    symbol = t.get(spec, path, "symbol", str)
    try:
        sym = model.symbol(symbol)
    except KeyError:
        raise t.error(path + ("symbol",), f"unknown symbol {symbol!r} (known: {', '.join(model.names)})") from None
    return FrameStart(name, raise_by, full, symbol=sym.name)


def parse(t, doc: dict, model) -> FramesConfig | None:
    """The ``[frames]`` table, validated (each error names file, row and column)."""
    spec = doc.get("frames")
    if spec is None:
        return None
    path = ("frames",)
    if not isinstance(spec, dict):
        raise t.error(path, "must be a table")
    unknown = [k for k in spec if k not in TABLE_KEYS]
    if unknown:
        raise t.error(path + (unknown[0],), f"unknown key (known: {', '.join(TABLE_KEYS)})")
    if not model.levels:
        raise t.error(path, "frames need free spins ([free_spins])")
    if not frame_awards(model):
        raise t.error(path, "frames persist through the free spins a prize-wheel award starts, and no "
                      "[wheel] award is 'free_spins N'")
    if "scatter" in spec:
        name = t.get(spec, path, "scatter", str)
        try:
            sym = model.symbol(name)
        except KeyError:
            raise t.error(path + ("scatter",), f"unknown symbol {name!r} (known: {', '.join(model.names)})") from None
        if sym.kind != SCATTER:
            raise t.error(path + ("scatter",), f"{name} is a {sym.kind} symbol, not a scatter-class symbol")
        scatter = sym.name
    elif model.trigger_symbol is not None:
        scatter = model.trigger_symbol.name
    else:
        raise t.error(path, "needs scatter = \"NAME\" (the game has no free-spin scatter)")
    jackpots = dict(getattr(model, "jackpots", {}) or {})
    plain = FrameStart("", _raise(t, spec, path, 1), _full(t, spec, path, jackpots, 0))
    bowls = _bowls(t, spec.get("bowls"), path + ("bowls",), jackpots)
    starts = {name: _start(t, name, spec[name], path + (name,), model, jackpots, plain)
              for name in STARTS if name in spec}
    return FramesConfig(scatter, bowls, plain, starts)


class Frames(Rule):
    """Frames and bowls: exact by per-reel chains over the 4^rows level tuples (:mod:`markov.frames`),
    the free spins' pays joined to them by the engine's per-reel terms (:mod:`exact.frames`).

    >>> sorted(Frames.implements)
    ['check', 'comply', 'diff', 'export', 'prove', 'report', 'simulate', 'spin']
    """

    name = "frames"
    keys = ('[frames] scatter, raise = 1 | "max", full; [frames.bowls.level1..3] awards, weights; '
            '[frames.go_large|rollin_bones|high_steaks]; award "free_spins N START"')
    implements = frozenset({"report", "check", "diff", "spin", "simulate", "prove", "comply", "export"})
    narrows = frozenset({"report", "check", "diff", "simulate", "prove", "comply", "export"})
    parses = (("frames",),)
    reports_on_round = True
    section_table = False      # its section is laid out in the workbook's Frames sheet

    @classmethod
    def simulation_step(cls, model, mode: str, tables) -> FramesStep:
        return FramesStep.of(model, tables)

    @classmethod
    def workbook_sheets(cls, rep, book, f) -> None:
        """The workbook's ``Frames`` sheet (default mode): per wheel award with frames, P(the round plays it),
        E[win] = pays + bowls + full prizes per feature, its SD, E[cells at each level at the end],
        P(every cell at level 3), then P(a bowl wins each jackpot) per feature and per round."""
        section = getattr(rep, "sections", {}).get(cls.name)
        if section is None:
            return
        rows = []
        for text, (p, m, jp) in section.features.items():
            sd = float(m.second - m.mean * m.mean) ** 0.5
            rows.append([text, "played", p, f.one_in(p), "per round"])
            rows += [[text, what, x, None, "credits per feature"] for what, x in
                     (("E[win]", m.mean), ("pays", m.pays), ("bowls", m.bowls), ("full prizes", m.prize), ("SD", sd))]
            rows += [[text, f"E[cells at level {i + 1} at the end]", x, None, "cells"] for i, x in enumerate(m.levels)]
            rows.append([text, "P(every cell at level 3)", m.full, f.one_in(m.full), "per feature"])
            for j, q in jp.items():
                rows.append([text, f"a bowl wins jackpot {j}", q, f.one_in(q), "per feature"])
                rows.append([text, f"a bowl wins jackpot {j}, per round", p * q, f.one_in(p * q), "per round"])
        book.add("Frames", "frames", ("award", "figure", "value", ("odds", "1 in N"), "unit"), rows,
                 (None, None, f.CREDITS, f.ONE_IN, None), keys=2)

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if analysis in cls.narrows:
            why = cls.unmodelled(model)
            if why:
                return f"frames with {why}"
        return super().refusal(model, analysis)

    @classmethod
    def unmodelled(cls, model) -> str | None:
        """The part of the game the exact frames figures do not model, or None."""
        config = cls.config(model)
        used = {a.start for a in frame_awards(model)}
        window = next((s for s in WINDOW_STARTS if s in used), None)
        checks = (
            (model.evaluation != "ways", f"{model.evaluation} evaluation"),
            (len(model.levels) != 1, "a free-spin ladder of several levels"),
            (model.retrigger, "a retrigger"),
            (model.of_kind("key") or model.of_kind("fish"), "KEY/FISH collect"),
            (any(s.has_random_multiplier for s in model.of_kind("wild")) or combination_wilds(model),
             "drawn or combination WILD multipliers"),
            (any(s.pays and any(s.pays) for s in model.of_kind("scatter")), "scatter pays"),
            (window and len(model.wheels) > 1, f"the start {window} (read from the triggering window) and "
                                               "several prize wheels"),
        )
        return next((why for cond, why in checks if cond), None)


plugins.register(Frames.name, Frames.parses, parse)
plugins.register_award_starts(Frames.name, lambda doc: tuple(n for n in STARTS if n in (doc.get("frames") or {})))
