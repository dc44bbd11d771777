"""The rules-page spin evaluator: one window at a time, the rules read literally.

This module is the oracle.  The factorised engine (:mod:`exact.engine`) never
calls it, so each checks the other in the brute-force tests.  It is correct for
any window, also for windows the rules page's strips never show (several
specials or WILDs on one reel).

WILD multipliers (a game-file rule beyond the rules page): a WILD
with multiplier m counts as m in the per-reel count of every pay symbol it
substitutes for, so ways = product over the combination's reels of (count of
the pay symbol + sum of the multipliers of the substituting WILDs on the
reel) and pay = paytable value x ways (section 6 with that change).  m >= 1,
so a multiplier never changes whether a combination continues.  Drawn
multipliers are given explicitly, like FISH values: one per WILD in the
window (mode ``wild``) or one per reel showing the WILD (mode ``reel``),
reel-major, top to bottom (:func:`wild_draws`).

Source: rules page sections 6 (ways pays), 8 (collect), 9 (win of a spin),
10 (free spins trigger) and 11 (level multiplier).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

# the rules' literal readings (re-exported: the oracle's functions keep their names here)
from exact.rules import (LineWin, WayWin, cell_multipliers, combination_ways, combination_wilds,  # noqa: F401
                         default_wild_values, fill_jackpot, line_pays, literal_wins, payline_cells, scatter_codes, scatter_counts,
                         scatter_pay as literal_scatter_pay, scatter_view, trigger_count, unmultiplied, ways_pays, wild_draws)
from strips.model import FISH, KEY, GameModel

Window = Sequence[Sequence[str]]  # shape (reels, rows): window[r][row]


@dataclass(frozen=True)
class SpinResult:
    """Everything the rules page computes for one spin.

    Attributes
    ----------
    window : tuple of tuple of str, shape (reels, rows)
    ways : tuple of WayWin
        Paying combinations, in paytable order.
    ways_pays : int
        Sum of ``ways`` pays, credits (section 6).
    fish_sum : int
        Sum of the FISH values in the window, credits (section 8).
    keys : int
        KEY symbols in the window.
    collect : int
        keys x fish_sum, credits (section 8).
    scatters : int
        FS (scatter) symbols in the window (section 10).
    scatter_pay : int
        Scatter pay for that count, credits (0 in the rules-page game).
    multiplier : int
        Level multiplier (1 in the base game, section 11).
    win : int
        multiplier x (ways_pays + collect + scatter_pay), credits (section 9).
    wild_values : tuple of int
        The drawn WILD multipliers used, in :func:`wild_draws` order (empty
        without drawn multipliers).
    jackpot : (str, int) or None
        The jackpot (NAME, credits, 0 when unvalued) a screen fill pays instead of the line wins
        (``[[screen.fill]] pays = "jackpot NAME", instead = true``), included in ``win`` as is.
    """

    window: tuple[tuple[str, ...], ...]
    ways: tuple[WayWin, ...]
    ways_pays: int
    fish_sum: int
    keys: int
    collect: int
    scatters: int
    multiplier: int
    win: int
    scatter_pay: int = 0
    wild_values: tuple[int, ...] = ()
    lines: tuple[LineWin, ...] = ()
    line_pays: int = 0
    scatter_counts: tuple[tuple[str, int], ...] = ()
    trigger_reels_shown: bool = True
    combination: int = 1
    jackpot: tuple | None = None

    @property
    def trigger_count(self) -> int:
        """The scatter count that awards free spins: ``scatters`` when every trigger reel shows the
        triggering scatter (``trigger_reels``), else 0."""
        return trigger_count(self.scatters, self.trigger_reels_shown)


def canonical_window(model: GameModel, window: Window) -> tuple[tuple[str, ...], ...]:
    """Window with aliases replaced by symbol names, checked against the model's shape.

    Raises
    ------
    ValueError
        If the window is not ``reels`` x ``rows`` or names an unknown symbol.
    """
    if len(window) != model.reels or any(len(col) != model.rows for col in window):
        raise ValueError(f"window must be {model.reels} reels x {model.rows} rows")
    out = []
    for col in window:
        try:
            out.append(tuple(model.symbol(s).name for s in col))
        except KeyError as e:
            raise ValueError(f"unknown symbol {e.args[0]!r}") from None
    return tuple(out)


def default_fish_values(model: GameModel, window: Window) -> tuple[int, ...]:
    """The lowest value of each FISH symbol in the window, reel-major, top to bottom."""
    return tuple(min(model.symbol(n).values) for col in window for n in col if model.symbol(n).kind == FISH)


def evaluate(model: GameModel, window: Window, fish_values: Sequence[int] | None = None,
             multiplier: int = 1, wild_values: Sequence[int] | None = None,
             combination: int | None = None) -> SpinResult:
    """Win of one spin, section 9: ways pays + collect, times the level multiplier.

    Parameters
    ----------
    model : GameModel
    window : shape (reels, rows) of symbol names (aliases such as HOOK allowed)
    fish_values : sequence of int, optional
        Credit value shown by each FISH symbol of the window, in reel-major,
        top-to-bottom order.  Default: the lowest value of each.
    multiplier : int
        Level multiplier (section 11); 1 in the base game.
    wild_values : sequence of int, optional
        The drawn WILD multipliers, in the order of :func:`wild_draws`
        (reel-major, top to bottom; one per WILD in the window for mode
        ``wild``, one per reel showing the WILD for mode ``reel``; fixed
        multipliers take none).  Default: the lowest value of each.  See
        :func:`ways_pays` for how a multiplier counts.
    combination : int, optional
        The value drawn for the spin by the WILD with a ``combination``
        multiplier; default its lowest value (1 without one).
        A winning line or way that uses that WILD is multiplied by it once.

    Returns
    -------
    SpinResult
        All amounts in integer credits.

    Raises
    ------
    ValueError
        If the window has the wrong shape or an unknown symbol, if the number
        of fish values differs from the FISH symbols in the window, or a value
        is not one the symbol can show (section 7); the same for the WILD
        multiplier values.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> m = load_math_set().model
    >>> w = [["PIC2","AUS1","AUS1","PIC4"], ["PIC4","AUS5","AUS5","AUS5"],
    ...      ["AUS2","AUS2","AUS2","PIC4"], ["PIC5","AUS2","PIC5","AUS3"],
    ...      ["FISH4","AUS3","AUS4","PIC5"]]
    >>> evaluate(m, w).win   # rules page example 1
    3
    """
    window = canonical_window(model, window)
    fish = [(n, model.symbol(n)) for col in window for n in col if model.symbol(n).kind == FISH]
    if fish_values is None:
        fish_values = [min(s.values) for _, s in fish]
    fish_values = list(fish_values)
    if len(fish_values) != len(fish):
        raise ValueError(f"{len(fish_values)} fish values given for {len(fish)} FISH symbols in the window")
    for (n, s), v in zip(fish, fish_values):
        if v not in s.values:
            raise ValueError(f"{n} cannot show {v} (values: {', '.join(map(str, s.values))})")
    comb_wilds = combination_wilds(model)
    if combination is None:
        combination = min(comb_wilds[0].multiplier.values) if comb_wilds else 1
    elif comb_wilds and combination not in comb_wilds[0].multiplier.values:
        raise ValueError(f"{comb_wilds[0].name} combination multiplier cannot be {combination} "
                         f"(values: {', '.join(map(str, comb_wilds[0].multiplier.values))})")
    cells = cell_multipliers(model, window, wild_values)
    found = literal_wins(model, window, cells, combination)   # the evaluation rule's literal reading
    wins: tuple[WayWin, ...] = found.get("ways", ())
    lines: tuple[LineWin, ...] = found.get("lines", ())
    ways_total = sum(w.pay for w in wins)
    line_total = sum(w.pay for w in lines)
    keys = sum(1 for col in window for n in col if model.symbol(n).kind == KEY)
    counts = scatter_counts(model, window)
    trig = model.trigger_symbol
    scatters = dict(counts)[trig.name] if trig is not None else 0
    shown = all(any(model.code(n) in scatter_codes(model) for n in window[r]) for r in model.trigger_reels)
    fish_sum = sum(fish_values)
    collect = keys * fish_sum
    scatter_pay = sum(literal_scatter_pay(scatter_view(model, model.symbol(n)).pays, c) for n, c in counts)
    jackpot = fill_jackpot(model, window) if getattr(model, "evaluation", "ways") == "lines" else None
    return SpinResult(jackpot=jackpot, window=window, ways=wins, ways_pays=ways_total, fish_sum=fish_sum, keys=keys,
                      collect=collect, scatters=scatters, multiplier=multiplier,
                      win=multiplier * (ways_total + line_total + collect + scatter_pay)
                      - unmultiplied(model, lines, multiplier) + (jackpot[1] if jackpot else 0),
                      scatter_pay=scatter_pay,
                      wild_values=tuple(cells[r][i] for r, i in wild_draws(model, window)),
                      lines=lines, line_pays=line_total, scatter_counts=counts,
                      trigger_reels_shown=shown, combination=combination if comb_wilds else 1)
