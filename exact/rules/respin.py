"""A respin with held reels (``[modes.NAME] respin = { symbol, count }``): a base spin showing exactly
``count`` of ``symbol`` and starting no feature is respun once, the reels showing it held.

Exact figures: :func:`exact.bet_modes.pre_feature_split` (the respin as one more stage before the feature).
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule, first_present
from exact.rules.scatter import CountsAsScatter, MultiplierByTrigger, TriggerReels
from exact.rules.wild import CombinationWildMultiplier

from exact.rules.free_spins import initial_spins
from exact.rules.modes import BetModes

__all__ = ["Respin", "pre_feature_refusal", "starts_feature"]


def starts_feature(model, k: tuple) -> bool:
    """Whether the counts ``k`` of a spin (n triggering scatters, then each wheel symbol's count) start
    the free spins or a wheel: a spin that starts none is the one a respin may respin.

    >>> from strips.loader import load_math_set
    >>> m = load_math_set("wheel_game").model
    >>> starts_feature(m, (6,) + (0,) * len(m.wheels)), starts_feature(m, (5,) + (0,) * len(m.wheels))
    (True, False)
    """
    return initial_spins(model, k[0]) > 0 or any(w.table_for(b) is not None for w, b in zip(model.wheels, k[1:]))


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
    narrows = frozenset({"report"})
    implements = frozenset(ANALYSES) - {"distribution", "sensitivity", "tune", "comply", "export", "gamble"}
    round_stage = True
    before_features = True

    @classmethod
    def present(cls, model) -> bool:
        return model.respin is not None

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
