"""Prize wheels and jackpots (``[wheel.NAME] symbol, tables, prizes``; ``[jackpots]``): a wheel symbol's
count in the base window starts its wheel, whose prize is credits, a jackpot or free spins.

Exact figures: :mod:`exact.bet_modes` and :mod:`markov.wheels`.
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule
from exact.rules.respin import pre_feature_refusal

__all__ = ["Wheels"]


class Wheels(Rule):
    """Prize wheels (and their jackpots).

    >>> from strips.loader import load_math_set
    >>> Wheels.present(load_math_set("wheel_game").model)
    True
    """

    name = "[wheel]"
    keys = "[wheel.NAME] symbol, tables, prizes; [jackpots]"
    narrows = frozenset({"report"})
    implements = frozenset(ANALYSES) - {"distribution", "sensitivity", "tune"}
    round_stage = True
    before_features = True

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.wheels)

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if analysis == "report":
            rule = pre_feature_refusal(model)
            if rule:
                return f"{rule} with a prize wheel or a respin"
        return super().refusal(model, analysis)
