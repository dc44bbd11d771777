"""The gamble (``[gamble] min_win, max_win, multiplier, probability``): an eligible round win may be
staked for ``multiplier`` times it with the given probability.

Exact figures: :mod:`exact.gamble` (the RTP without gamble and the return per stake always; the
RTP when every eligible win is gambled once through the round win's distribution).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exact.rules.base import ANALYSES, Rule

__all__ = ["Gamble", "GambleStep", "gamble_step"]


@dataclass(frozen=True)
class GambleStep:
    """The gamble's vectorised literal step (the simulator's): every eligible round win gambled once.

    A round win x with ``low <= x <= high`` (``high``: the largest win whose gambled win stays within
    ``[gamble] max_win``) becomes ``multiplier * x`` when a uniform integer below ``denominator`` is
    below ``numerator`` (the exact probability), else 0; other wins stay.  One draw per eligible round,
    in round order.

    >>> step = GambleStep(5, 100, 2, 1, 2)
    >>> n, after = step(np.array([0, 5, 200]), np.random.default_rng(3))     # only 5 is eligible
    >>> n, after.tolist()[0], after.tolist()[2], after.tolist()[1] in (0, 10)
    (1, 0, 200, True)
    """

    low: int
    high: int
    multiplier: int
    numerator: int
    denominator: int

    def __call__(self, wins, rng):
        """(eligible rounds, the round wins after the gamble): ``wins`` int64 credits, shape (n,)."""
        rows = np.flatnonzero((wins >= self.low) & (wins <= self.high))
        after = wins.copy()
        won = rng.integers(0, self.denominator, len(rows)) < self.numerator
        after[rows] = np.where(won, self.multiplier * wins[rows], 0)
        return len(rows), after


def gamble_step(model) -> GambleStep | None:
    """The :class:`GambleStep` of the game's ``[gamble]`` (the policy of the exact figures: every eligible
    win gambled once), None for a game without one.

    >>> from strips.loader import load_math_set
    >>> gamble_step(load_math_set("rules_page").model) is None
    True
    """
    g = model.gamble
    if g is None:
        return None
    return GambleStep(g.min_win, g.max_win // g.multiplier, g.multiplier, g.probability.numerator,
                      g.probability.denominator)


class Gamble(Rule):
    """The gamble: every analysis (the RTP with gamble needs the analysis ``gamble`` of the rest).

    >>> from strips.loader import load_math_set
    >>> Gamble.present(load_math_set("wheel_game").model)
    True
    """

    name = "[gamble]"
    keys = "[gamble] min_win, max_win, multiplier, probability"
    implements = frozenset(ANALYSES)
    round_stage = True

    @classmethod
    def present(cls, model) -> bool:
        return model.gamble is not None

    @classmethod
    def report_text(cls, rep, fmt, digits: int) -> list[str]:
        """The GAMBLE section (default mode, per round; every other RTP figure excludes it)."""
        g = rep.gamble_result
        if g is None:
            return []
        out: list[str] = []
        out += ["", "GAMBLE (default mode, per round; every other RTP figure excludes it)"]
        out.append(f"RTP without gamble          {fmt.percent(g.rtp_without_gamble, digits)}")
        if rep.gamble_refused:
            out.append(f"RTP gambling every eligible win once: not computed ({rep.gamble_refused})")
        else:
            out.append(f"RTP gamble every win once   {fmt.percent(g.rtp_gamble_once, digits)} "
                       f"(exact {fmt.short_fraction_text(g.rtp_gamble_once, 60)})")
            out.append(f"eligible round wins         {fmt.percent(g.eligible_probability, 4)} of rounds "
                       f"({fmt.one_in(g.eligible_probability)})")
        out.append(f"gamble return per stake     {fmt.percent(g.return_per_stake, 4)} (probability x multiplier)")
        return out

    @classmethod
    def report_tables(cls, sheet, table, inv) -> list:
        """The gamble table (default mode, per round)."""
        labels = {"rtp_without_gamble": "RTP without gamble", "rtp_gamble_once": "RTP gambling every eligible win once",
                  "return_per_stake": "gamble return per stake (p x multiplier)",
                  "eligible_probability": "P(the round win may be gambled)"}
        rows = [(labels.get(k, k), v, "probability" if k == "eligible_probability" else "fraction of the bet")
                for k, v in sheet.gamble.items()]
        return [table("gamble", "Gamble (default mode, per round)", [("figure",), ("value", "number"), ("unit",)], rows,
                      f"RTP gambling every eligible win once: not computed ({sheet.gamble_refused})"
                      if sheet.gamble_refused else "")]


    @classmethod
    def workbook_sheets(cls, rep, book, f) -> None:
        """The workbook's ``Gamble`` sheet."""
        gamble = rep.gamble
        if not gamble:
            return
        labels = {"rtp_without_gamble": "RTP without gamble (the regulatory figure)",
                  "rtp_gamble_once": "RTP gambling every eligible win once",
                  "return_per_stake": "gamble return per unit staked (p x multiplier)",
                  "eligible_probability": "P(the round win may be gambled)"}
        rows = [[labels.get(k, k), v, "per round" if k == "eligible_probability" else "% of the bet"]
                for k, v in gamble.items()]
        book.add("Gamble", "gamble", ("figure", "value", "unit"), rows, (None, f.ROW, None),
                 [f.PROB if k == "eligible_probability" else f.PERCENT for k in gamble])