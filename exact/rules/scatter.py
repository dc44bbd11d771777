"""Scatter symbols: the count anywhere in the window triggers the free spins and pays.

Rules of the scatter mechanic (each refused by name where an analysis does not model it):
scatter pays (``[symbols.S] pays``), several scatter symbols (each pays on its own count;
``[free_spins] scatter`` names the trigger), a WILD that counts as a scatter
(``counts_as_scatter``), trigger reels (``[free_spins] trigger_reels``) and a feature
multiplier by trigger count (``[free_spins] multiplier_by_trigger``).

Literal reading: :func:`exact.evaluator.scatter_counts` and :meth:`exact.evaluator.SpinResult.trigger_count`.
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule

__all__ = ["ScatterPays", "SeveralScatters", "CountsAsScatter", "TriggerReels", "MultiplierByTrigger"]

#: The analyses that model the trigger rules of real catalogues (paylines' companions).
_CATALOGUE = frozenset(ANALYSES) - {"sensitivity", "tune", "distribution", "gamble"}


class ScatterPays(Rule):
    """Scatter pays by count: every analysis but sensitivity and tune.

    >>> from strips.loader import load_math_set
    >>> ScatterPays.present(load_math_set("rules_page").model)
    False
    """

    name = "scatter pays"
    keys = "[symbols.S] class = \"scatter\", pays"
    implements = frozenset(ANALYSES) - {"sensitivity", "tune"}

    @classmethod
    def present(cls, model) -> bool:
        return any(model.scatter_pay(n) for n in range(model.reels * model.rows + 1)) or any(
            s.pays for s in model.of_kind("scatter"))


class SeveralScatters(Rule):
    """Several scatter symbols, each paying on its own count."""

    name = "several scatter symbols"
    keys = '[symbols.A] class = "scatter", [symbols.B] class = "scatter", [free_spins] scatter'
    implements = _CATALOGUE | {"gamble"}

    @classmethod
    def present(cls, model) -> bool:
        return len(model.of_kind("scatter")) > 1


class CountsAsScatter(Rule):
    """A WILD that also counts as one triggering scatter."""

    name = "a WILD that counts as a scatter"
    keys = "[symbols.W] counts_as_scatter = true"
    implements = _CATALOGUE

    @classmethod
    def present(cls, model) -> bool:
        return any(s.counts_as_scatter for s in model.symbols)


class TriggerReels(Rule):
    """The free spins start only when every trigger reel shows a scatter."""

    name = "trigger_reels"
    keys = "[free_spins] trigger_reels"
    implements = _CATALOGUE

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.trigger_reels)


class MultiplierByTrigger(Rule):
    """The feature's win multiplier depends on the trigger count."""

    name = "multiplier_by_trigger"
    keys = "[free_spins] multiplier_by_trigger"
    implements = _CATALOGUE

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.multiplier_by_trigger)
