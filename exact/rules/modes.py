"""Bet modes (``[modes.NAME] cost, strips, trigger, respin``) and bought features (``[buy.NAME]
cost, trigger``).  :meth:`strips.model.MathSet.mode` gives the math set one mode plays; the
analyses of one math set run on it.
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule

__all__ = ["BetModes", "Buys"]


class BetModes(Rule):
    """Several bet modes: the single-set analyses run per mode (``MathSet.mode(NAME)``).

    >>> from strips.loader import load_math_set
    >>> BetModes.present(load_math_set("wheel_game").model)
    True
    """

    name = "[modes]"
    keys = "[modes.NAME] cost, strips, trigger, respin"
    implements = frozenset(ANALYSES) - {"distribution", "sensitivity", "tune"}
    round_stage = True

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.modes)


class Buys(Rule):
    """Bought features: the feature started directly at a cost."""

    name = "[buy]"
    keys = "[buy.NAME] cost, trigger"
    implements = frozenset(ANALYSES)
    round_stage = True

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.buys)
