"""Ways pays (``[game] evaluation = "ways"``, the default): a pay symbol pays for every way of its
leftmost run of reels, the ways being the product of its count (WILDs substituting) on those reels.

Literal reading: :func:`exact.evaluator.ways_pays`; per-reel terms: :mod:`exact.engine`.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Sequence

from exact.rules.base import ANALYSES, EvaluationRule
from exact.rules.wild import cell_multipliers, combination_ways, combination_wilds

__all__ = ["Ways", "WayWin", "ways_pays"]


@dataclass(frozen=True)
class WayWin:
    """The ways pay of one pay symbol (section 6).

    ``oak`` reels in the combination, ``ways`` = product of the per-reel counts
    of the symbol plus WILD (each WILD counted as its multiplier), ``pay`` = paytable value x ways, in credits
    before the level multiplier.
    """

    symbol: str
    oak: int
    ways: int
    pay: int


def ways_pays(model, window,
              wild_multipliers: Sequence[Sequence[int]] | None = None) -> tuple[WayWin, ...]:
    """Ways pays of a window, section 6, literally, with WILD multipliers.

    Each pay symbol is examined independently: its combination starts on
    reel 1 and continues while a reel shows the symbol or a WILD; the OAK is
    the number of reels in the combination; the symbol pays once, for this
    longest combination, if its paytable value is not 0.  Blockers (KEY, FS,
    FISH) never count.  A WILD counts for the pay symbols it substitutes for
    (every pay symbol unless the game file names a subset).

    WILD multipliers (game file ``multiplier`` of a WILD): on each reel of
    the combination the count is (number of the pay symbol) + (sum of the
    multipliers of the substituting WILDs), and ways = product of these
    counts; pay = paytable value x ways.  Without multipliers every WILD
    counts 1 (the rules page).  A multiplier is >= 1, so it never changes the
    OAK or whether the symbol pays.

    Parameters
    ----------
    model : GameModel
    window : shape (reels, rows) of symbol names
    wild_multipliers : shape (reels, rows) of int, optional
        The multiplier of each cell (used at WILD cells only), from
        :func:`cell_multipliers`; default: fixed multipliers at their value,
        drawn ones at their lowest value, 1 for a WILD without multiplier.

    Returns
    -------
    tuple of WayWin, credits before the level multiplier.
    """
    if wild_multipliers is None:
        wild_multipliers = cell_multipliers(model, window)
    wins = []
    for sym in model.pay_symbols:
        counts = []
        for r, col in enumerate(window):
            present = [name == sym.name or model.symbol(name).substitutes_for(sym.name) for name in col]
            if not any(present):
                break
            counts.append(sum(1 if name == sym.name else wild_multipliers[r][i]
                              for i, (name, here) in enumerate(zip(col, present)) if here))
        oak = len(counts)
        if oak == 0:
            continue
        pay = sym.pays[oak - 1]
        if pay:
            ways = prod(counts)
            wins.append(WayWin(sym.name, oak, ways, pay * ways))
    return tuple(wins)


class Ways(EvaluationRule):
    """Ways evaluation: every analysis computes it.

    >>> from strips.loader import load_math_set
    >>> Ways.present(load_math_set("rules_page").model)
    True
    """

    name = "ways evaluation"
    keys = '[game] evaluation = "ways"'
    implements = frozenset(ANALYSES)
    factorisation = "ways"

    @classmethod
    def present(cls, model) -> bool:
        return model.evaluation == "ways"

    @classmethod
    def literal_wins(cls, model, window, cells, combination: int) -> dict:
        """The ways pays of ``window`` (:func:`ways_pays`); a way through a combination WILD is multiplied
        once by ``combination``."""
        wins = ways_pays(model, window, cells)
        if combination_wilds(model):
            wins = tuple(WayWin(w.symbol, w.oak, w.ways, w.pay // w.ways * (
                (lambda pt: pt[0] + combination * (pt[1] - pt[0]))(
                    combination_ways(model, window, w.symbol, w.oak, cells)))) for w in wins)
        return {"ways": wins}

    @classmethod
    def spin_text(cls, model, phase, window, res) -> dict[str, list[str]]:
        return {"pays": [f"ways pays      {res.ways_pays}"]}
