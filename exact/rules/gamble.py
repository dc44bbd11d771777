"""The gamble (``[gamble] min_win, max_win, multiplier, probability``): an eligible round win may be
staked for ``multiplier`` times it with the given probability.

Exact figures: :mod:`exact.gamble` (the RTP without gamble and the return per stake always; the
RTP when every eligible win is gambled once through the round win's distribution).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from strips.model import DEFAULT_MODE

from exact.rules.base import ANALYSES, Rule, SimulatedSection

__all__ = ["Gamble", "GambleStep", "gamble_step", "gambled_second_bound"]


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
    rule: str = "[gamble]"
    stage: str = "after_round"

    def simulate(self, block) -> None:
        """Gamble every eligible round win of ``block`` once, tallied apart (``gamble_eligible``,
        ``gamble_win``, ``gamble_win2``, ``gamble_hist``): the round win itself stays."""
        block.tally.gamble_eligible, after = self(block.win, block.rng)
        block.tally.gamble_win = block.exact_sum(after)
        block.tally.gamble_win2 = block.sum_of_squares(after)
        block.tally.gamble_hist = block.win_histogram(after)

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


def gambled_second_bound(gamble, g, second: Fraction) -> Fraction:
    """An upper bound of E[X_g^2], X_g the round win in credits when every eligible win is gambled once.

    ``gamble`` the game's :class:`strips.model.Gamble`, ``g`` the engine's :class:`exact.gamble.GambleResult`,
    ``second`` = E[X^2] of the round win X.  With E the eligibility, m the multiplier and p the probability:
    E[X_g^2] = E[X^2] + (p m^2 - 1) E[X^2 E].  An eligible x lies in [low, high], so
    ``E[X^2 E] <= min(high E[X E], E[X^2])`` and ``E[X^2 E] >= max(low E[X E], E[X E]^2 / P(E))``
    (Cauchy-Schwarz); the side that makes the variance largest bounds it.

    >>> from types import SimpleNamespace as NS
    >>> gm = NS(min_win=1, max_win=4, multiplier=2, probability=Fraction(1, 2))
    >>> gambled_second_bound(gm, NS(eligible_win=Fraction(1), eligible_probability=Fraction(1)), Fraction(1))
    Fraction(2, 1)
    """
    low, high = gamble.min_win, gamble.max_win // gamble.multiplier
    c = gamble.probability * gamble.multiplier ** 2 - 1
    e1, pe = g.eligible_win, g.eligible_probability
    if c >= 0:
        x2e = min(high * e1, second)
    else:
        x2e = max(low * e1, e1 * e1 / pe if pe else Fraction(0))
    return second + c * x2e


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
    sheet_key = "gamble"

    @classmethod
    def present(cls, model) -> bool:
        return model.gamble is not None

    @classmethod
    def sheet_figures(cls, sheet) -> dict:
        """The gamble, default mode, per round: rtp_without_gamble, rtp_gamble_once, return_per_stake
        (p x multiplier), eligible_probability; empty without ``[gamble]``; when its distribution is refused,
        the reason in words (``rtp_gamble_once_refused``) instead of rtp_gamble_once and eligible_probability."""
        g = sheet.gamble_result
        if g is None:
            return {}
        if sheet.gamble_refused:
            return {"rtp_without_gamble": g.rtp_without_gamble, "return_per_stake": g.return_per_stake,
                    "rtp_gamble_once_refused": sheet.gamble_refused}
        return {"rtp_without_gamble": g.rtp_without_gamble, "rtp_gamble_once": g.rtp_gamble_once,
                "return_per_stake": g.return_per_stake, "eligible_probability": g.eligible_probability}

    @classmethod
    def simulation_step(cls, model, mode: str, tables) -> GambleStep | None:
        """The gamble's policy is played in the default mode only."""
        return gamble_step(model) if mode == DEFAULT_MODE else None

    @classmethod
    def simulation_section(cls, model, sim) -> SimulatedSection | None:
        """The RTP when every eligible win is gambled once (an upper bound of its SD,
        :func:`gambled_second_bound`) and the eligible rate, in the default mode when the engine computes
        the gamble's figures."""
        res = sim.exact.gamble
        if not sim.default or res is None:
            return None
        mean = res.rtp_gamble_once * sim.cost
        variance = max(gambled_second_bound(model.gamble, res, sim.round.second) - mean * mean, Fraction(0))
        rtp, sd = sim.mean("RTP gamble once", sim.tally.gamble_win, variance, res.rtp_gamble_once,
                           sim.tally.gamble_hist)
        eligible = sim.rate("gamble eligible", sim.tally.gamble_eligible, res.eligible_probability)
        return SimulatedSection(
            figures=(rtp, eligible), lifted=("gamble",), sd_words="the gamble", sd_bound=sd,
            json={"gamble": {"rtp_gamble_once": rtp.to_json(), "eligible_probability": eligible.to_json(),
                             "sd_bound": sd}},
            method="RTP with the gamble: Catoni's interval with an upper bound of its SD from the engine's exact moments")

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