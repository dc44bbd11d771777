"""A respin with held reels (``[modes.NAME] respin = { symbol, count }``): a base spin showing exactly
``count`` of ``symbol`` and starting no feature is respun once, the reels showing it held.

Exact figures: :func:`exact.bet_modes.pre_feature_split` (the respin as one more stage before the feature).
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule, first_present
from exact.rules.scatter import CountsAsScatter, MultiplierByTrigger, TriggerReels
from exact.rules.wild import CombinationWildMultiplier

__all__ = ["Respin", "pre_feature_refusal"]


class Respin(Rule):
    """The respin of the mode being analysed.

    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("wheel_game")
    >>> [Respin.present(ms.mode(m).model) for m in ms.mode_names]
    [False, True, False]
    """

    name = "respin"
    keys = "[modes.NAME] respin = { symbol, count }"
    narrows = frozenset({"report"})
    implements = frozenset(ANALYSES) - {"distribution", "sensitivity", "tune", "comply", "export", "gamble"}
    round_stage = True
    before_features = True

    @classmethod
    def present(cls, model) -> bool:
        return model.respin is not None

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if analysis == "report":
            rule = pre_feature_refusal(model)
            if rule:
                return f"{rule} with a prize wheel or a respin"
        return super().refusal(model, analysis)


def pre_feature_refusal(model) -> str | None:
    """The payline or trigger rule the respin and wheel stage before the feature does not model
    (several scatters it does), or None.

    >>> from strips.loader import load_math_set
    >>> pre_feature_refusal(load_math_set("wheel_game").model) is None
    True
    """
    if model.evaluation == "lines":
        return "payline evaluation"
    return first_present(model, (CombinationWildMultiplier, CountsAsScatter, TriggerReels, MultiplierByTrigger))
