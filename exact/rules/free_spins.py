"""The free-spin feature: the KEY-counter ladder of levels, the retrigger table, free spins on the
base strips.  The feature is an absorbing Markov chain (:mod:`markov.chain`, :mod:`markov.retrigger`).
"""
from __future__ import annotations

import numpy as np

from strips.model import count_table_value

from exact.rules.base import ANALYSES, Rule
from exact.rules.scatter import by_count

__all__ = ["Ladder", "Retrigger", "FreeSpinsOnBaseStrips", "chain_count", "initial_spins", "retrigger_spins",
           "retrigger_table", "retrigger_step"]


def initial_spins(model, scatters: int) -> int:
    """Initial free spins of ``model``'s trigger table for ``scatters`` triggering scatters (0: no trigger);
    a count above the largest entry takes that entry's spins (rules page section 10).

    >>> from strips.loader import load_math_set
    >>> [initial_spins(load_math_set("rules_page").model, n) for n in (2, 3, 9)]
    [0, 10, 20]
    """
    return count_table_value(model.trigger, scatters)


def retrigger_spins(model, scatters: int) -> int:
    """Extra free spins of ``model``'s retrigger table for ``scatters`` scatters in a free spin (0 if none).

    >>> from strips.loader import load_math_set
    >>> retrigger_spins(load_math_set("rules_page").model, 3)
    0
    """
    return count_table_value(model.retrigger, scatters)


def retrigger_table(model, top: int):
    """The retrigger's extra free spins for 0 .. ``top`` triggering scatters in a free spin (int64 array, the
    simulator's vectorised step looks them up), or None when the free spins do not retrigger.

    >>> from strips.loader import load_math_set
    >>> retrigger_table(load_math_set("rules_page").model, 5) is None
    True
    """
    if not (model.retrigger and model.levels):
        return None
    return np.array([retrigger_spins(model, n) for n in range(top + 1)], dtype=np.int64)


def chain_count(model) -> str:
    """The count the free-spin chain reads on each free spin: ``"scatter"`` (the retrigger) or ``"key"``
    (the KEY-counter ladder).

    >>> from strips.loader import load_math_set
    >>> chain_count(load_math_set("rules_page").model)
    'key'
    """
    return "scatter" if model.retrigger else "key"


def retrigger_step(model, scatters: int, awarded: int) -> int:
    """The literal reading of a retrigger: the extra free spins a free spin showing ``scatters`` triggering
    scatters awards (the retrigger table, ``by_count``), cut so that the feature's ``awarded`` spins never
    pass ``retrigger_cap``, and nothing once they reach ``retrigger_below``; 0 without a retrigger table.

    >>> from strips.loader import load_math_set
    >>> retrigger_step(load_math_set("rules_page").model, 5, 10)
    0
    """
    extra = by_count(model.retrigger, scatters)
    if model.retrigger_cap is not None:
        extra = max(0, min(extra, model.retrigger_cap - awarded))
    below = getattr(model, "retrigger_below", None)    # retrigger_total_below: whole awards while below it
    if below is not None and awarded >= below:
        extra = 0
    return extra


class Ladder(Rule):
    """A ladder of several free-spin levels climbed by collected KEYs.

    >>> from strips.loader import load_math_set
    >>> Ladder.present(load_math_set("rules_page").model)
    True
    """

    name = "a free-spin ladder of several levels"
    keys = "[[free_spins.levels]] threshold, spins, multiplier, weights"
    implements = frozenset(ANALYSES) - {"gamble"}

    @classmethod
    def present(cls, model) -> bool:
        return len(model.levels) > 1

    @classmethod
    def published_facts(cls, printed, model) -> list[tuple]:
        """The ladder and the retrigger as the rules page prints them (``published.toml [rules] levels``,
        ``retrigger``) against the game file: one row per printed level (KEY threshold, spins, multiplier;
        level 1 plays the initial spins, its ``spins`` left out), then one of the number of levels and
        whether the free spins retrigger.

        >>> from strips.loader import load_math_set
        >>> ms = load_math_set("rules_page")
        >>> [row[-1] for row in Ladder.published_facts(ms.published.rules, ms.model)]
        [True, True, True, True, True]
        """
        out = []
        if printed.levels is not None:
            have_ladder = tuple((lv.threshold, lv.spins, lv.multiplier) for lv in model.levels)
            for i, lv in enumerate(printed.levels, start=1):
                want = (lv.threshold, lv.spins, lv.multiplier)
                have = have_ladder[i - 1] if i <= len(have_ladder) else None
                same = have is not None and have[0] == want[0] and (have[1] or None) == want[1] and have[2] == want[2]
                out.append((f"level {i}: KEY threshold, spins, multiplier", "levels",
                            f"{want[0]}, {want[1] or 'initial'}, x{want[2]}", have,
                            "missing" if have is None else f"{have[0]}, {have[1] or 'initial'}, x{have[2]}", same))
        if printed.levels is not None or printed.retrigger is not None:
            parts, want, have, ok = [], [], [], True
            if printed.levels is not None:
                parts.append("levels in the ladder")
                want.append(str(len(printed.levels)))
                have.append(str(len(model.levels)))
                ok &= len(model.levels) == len(printed.levels)
            if printed.retrigger is not None:
                parts.append("retrigger" if printed.retrigger else "no retrigger")
                want.append("yes" if printed.retrigger else "no")
                have.append("yes" if model.retrigger else "no")
                ok &= bool(model.retrigger) == printed.retrigger
            out.append(("; ".join(parts), "levels" if printed.levels is not None else "retrigger",
                        "; ".join(want), "; ".join(have), "; ".join(have), ok))
        return out


class Retrigger(Rule):
    """Scatters during the free spins award more spins (``[free_spins] retrigger``, ``retrigger_cap``)."""

    name = "retrigger"
    keys = "[free_spins] retrigger, retrigger_cap"
    implements = frozenset(ANALYSES) - {"gamble", "sensitivity", "tune"}
    narrows = frozenset({"distribution"})

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.retrigger)

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if analysis == "distribution" and len(model.levels) > 1:
            return "retrigger with a multi-level ladder"
        if analysis in ("sensitivity", "tune"):
            return "free spins with a retrigger table"
        return super().refusal(model, analysis)


class FreeSpinsOnBaseStrips(Rule):
    """The free spins spin the base game's strips."""

    name = "free spins on the base strips"
    keys = '[free_spins] strips = "base"'
    implements = frozenset(ANALYSES) - {"sensitivity", "tune"}

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.trigger) and model.free_spin_strips == "base"
