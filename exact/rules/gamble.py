"""The gamble (``[gamble] min_win, max_win, multiplier, probability``): an eligible round win may be
staked for ``multiplier`` times it with the given probability.

Exact figures: :mod:`exact.gamble` (the RTP without gamble and the return per stake always; the
RTP when every eligible win is gambled once through the round win's distribution).
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule

__all__ = ["Gamble"]


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
