"""A respin with held reels (``[modes.NAME] respin = { symbol, count }``): a base spin showing exactly
``count`` of ``symbol`` and starting no feature is respun once, the reels showing it held.

Exact figures: :func:`exact.bet_modes.pre_feature_split` (the respin as one more stage before the feature).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exact.rules.base import ANALYSES, Rule, SimulatedSection
from exact.rules.scatter import pre_feature_refusal, round_distribution_refusal

from exact.rules.free_spins import initial_spins
from exact.rules.modes import BetModes

__all__ = ["Respin", "RespinStep", "pre_feature_refusal", "round_distribution_refusal", "starts_feature"]


def starts_feature(model, k: tuple) -> bool:
    """Whether the counts ``k`` of a spin (n triggering scatters, then each wheel symbol's count) start
    the free spins or a wheel: a spin that starts none is the one a respin may respin.

    >>> from strips.loader import load_math_set
    >>> m = load_math_set("wheel_game").model
    >>> starts_feature(m, (6,) + (0,) * len(m.wheels)), starts_feature(m, (5,) + (0,) * len(m.wheels))
    (True, False)
    """
    return initial_spins(model, k[0]) > 0 or any(w.table_for(b) is not None for w, b in zip(model.wheels, k[1:]))


@dataclass(frozen=True)
class RespinStep:
    """The respin's vectorised literal step (the simulator's, before the features): a base window showing
    exactly ``count`` of ``symbol`` and starting no feature is respun once; reels whose window shows the
    symbol (``held[r][stop] > 0``: the per-stop counts of the symbol on reel r) hold their stops, the
    others take new ones.  Its win is added and its window decides the features.

    >>> step = RespinStep("X", 1, (np.array([0, 1]), np.array([1, 0])))
    >>> step.stops(np.array([[1, 1], [0, 0]]), np.array([[7, 8], [9, 6]])).tolist()
    [[1, 8], [9, 0]]
    """

    symbol: str
    count: int
    held: tuple
    rule: str = "respin"
    stage: str = "before_features"

    def stops(self, stops: np.ndarray, new: np.ndarray) -> np.ndarray:
        """The respin's stops (n, reels): held reels keep ``stops``, the others take ``new``."""
        held = np.stack([t[stops[:, r]] > 0 for r, t in enumerate(self.held)], axis=1)
        return np.where(held, stops, new)

    def simulate(self, block) -> None:
        """Respin the rounds of ``block`` that qualify (tallied as ``respins``): new stops drawn for every
        respun round, then its spins evaluated (their draws after)."""
        respun = np.flatnonzero((block.counts[self.symbol] == self.count) & ~block.starts_feature())
        block.tally.respins = len(respun)
        if len(respun):
            block.spin_again(respun, self.stops(block.stops[respun], block.draw(len(respun))))


def _shown(window, symbol: str) -> int:
    return sum(x == symbol for col in window for x in col)


class Respin(Rule):
    """The respin of the mode being analysed.

    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("wheel_game")
    >>> [Respin.present(ms.mode(m).model) for m in ms.mode_names]
    [False, True, False]
    """

    name = "respin"
    keys = "[modes.NAME] respin = { symbol, count }"
    implements = frozenset(ANALYSES) - {"sensitivity", "tune", "comply", "export", "gamble"}
    narrows = frozenset({"report", "distribution"})
    round_stage = True
    before_features = True
    component = "respin"
    component_words = "respin pays"

    @classmethod
    def present(cls, model) -> bool:
        return model.respin is not None

    @classmethod
    def award_odds_refusal(cls, model) -> str:
        """The award odds do not play the held-reel spins."""
        return f"respin on {model.respin.count} {model.respin.symbol}"

    @classmethod
    def simulation_step(cls, model, mode: str, tables) -> RespinStep:
        return RespinStep(model.respin.symbol, model.respin.count, tables(model.respin.symbol))

    @classmethod
    def simulation_section(cls, model, sim) -> SimulatedSection | None:
        """The rate of rounds with a respin."""
        if not sim.round.respin_prob:
            return None
        f = sim.rate("respin", sim.tally.respins, sim.round.respin_prob)
        return SimulatedSection(figures=(f,), json={"respin_rate": f.to_json()})

    @classmethod
    def spin_json(cls, model, phase, window, res) -> dict:
        """The reels the respin holds after a base spin (1-based; empty when it is not respun)."""
        if phase.name != "base":
            return {}
        rs = model.respin
        feature = starts_feature(model, (res.trigger_count, *(_shown(window, w.symbol) for w in model.wheels)))
        held = _shown(window, rs.symbol) == rs.count and not feature
        return {"respin_holds": [r + 1 for r, col in enumerate(window) if rs.symbol in col] if held else []}

    @classmethod
    def spin_text(cls, model, phase, window, res) -> dict[str, list[str]]:
        holds = cls.spin_json(model, phase, window, res).get("respin_holds")
        if not holds:
            return {}
        return {"starts": [f"respin         reels {', '.join(map(str, holds))} hold, the others spin again"]}

    @classmethod
    def report_text(cls, rep, fmt, digits: int) -> list[str]:
        """The bet modes' section of a mode's own sheet (the mode with the respin, without ``[modes]``)."""
        return [] if BetModes in rep.rules else BetModes.report_text(rep, fmt, digits)

    @classmethod
    def report_tables(cls, sheet, table, inv) -> list:
        return [] if BetModes in sheet.rules else BetModes.report_tables(sheet, table, inv)

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if analysis == "report" and pre_feature_refusal(model):
            return f"{pre_feature_refusal(model)} with a prize wheel or a respin"
        if analysis == "distribution" and round_distribution_refusal(model):
            return f"respin with {round_distribution_refusal(model)}"
        return super().refusal(model, analysis)
