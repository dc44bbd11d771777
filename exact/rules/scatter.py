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

__all__ = ["ScatterPays", "SeveralScatters", "CountsAsScatter", "TriggerReels", "MultiplierByTrigger",
           "scatter_pay", "by_count"]


def scatter_pay(pays, count: int) -> int:
    """The literal reading of a scatter's ``pays`` list: credits for ``count`` of it anywhere in the
    window, ``pays[count - 1]``; a count beyond the list pays its last entry; none, or no list, pays 0.

    The oracle's reading, written apart from the engines' count tables (:meth:`strips.model.GameModel.symbol_scatter_pay`)
    so that a mistake in either is caught by the brute-force tests.

    >>> scatter_pay((0, 0, 20, 100), 3), scatter_pay((0, 0, 20, 100), 7), scatter_pay((), 3), scatter_pay((5,), 0)
    (20, 100, 0, 0)
    """
    if count <= 0 or not pays:
        return 0
    return pays[len(pays) - 1] if count > len(pays) else pays[count - 1]


def by_count(table, count: int, default: int = 0) -> int:
    """The literal reading of a count table ``{3 = 10, 4 = 15}`` (``trigger``, ``retrigger``,
    ``multiplier_by_trigger``): the value of the largest listed count that ``count`` reaches, else
    ``default``.  ``table`` is a sequence of (count, value) pairs in any order.

    >>> by_count(((3, 10), (5, 20), (4, 15)), 4), by_count(((3, 10),), 2), by_count(((3, 2),), 9, 1)
    (15, 0, 2)
    """
    reached = [(c, v) for c, v in table if count >= c]
    return max(reached)[1] if reached else default

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
