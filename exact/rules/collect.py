"""KEY/FISH collect: a KEY in view collects the credit values of the FISH symbols in view.

Literal reading: :func:`exact.evaluator.evaluate` (collect part); per-reel terms:
:mod:`exact.engine` (collect terms per pair of reels).
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule

__all__ = ["Collect"]


class Collect(Rule):
    """KEY and FISH symbols: every analysis but the gamble figure.

    >>> from strips.loader import load_math_set
    >>> Collect.present(load_math_set("rules_page").model)
    True
    """

    name = "KEY collect and FISH values"
    keys = '[symbols.KEY] class = "key", [symbols.FISH] class = "fish", values, weights'
    implements = frozenset(ANALYSES) - {"gamble"}

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.of_kind("key") or model.of_kind("fish"))
