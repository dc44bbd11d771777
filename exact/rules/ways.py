"""Ways pays (``[game] evaluation = "ways"``, the default): a pay symbol pays for every way of its
leftmost run of reels, the ways being the product of its count (WILDs substituting) on those reels.

Literal reading: :func:`exact.evaluator.ways_pays`; per-reel terms: :mod:`exact.engine`.
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule

__all__ = ["Ways"]


class Ways(Rule):
    """Ways evaluation: every analysis computes it.

    >>> from strips.loader import load_math_set
    >>> Ways.present(load_math_set("rules_page").model)
    True
    """

    name = "ways evaluation"
    keys = '[game] evaluation = "ways"'
    implements = frozenset(ANALYSES)

    @classmethod
    def present(cls, model) -> bool:
        return model.evaluation == "ways"
