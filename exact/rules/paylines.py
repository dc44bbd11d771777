"""Payline pays (``[game] evaluation = "lines"`` with ``[lines] paylines``): each payline pays its
leftmost run, WILDs substituting; a WILD's own pays for a WILD-only run.

Literal reading: :func:`exact.evaluator.line_pays`; per-line chains: :mod:`exact.lines`.
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule

__all__ = ["Paylines", "payline_count"]


class Paylines(Rule):
    """Payline evaluation: no sensitivity, tune, win distribution or gamble figure yet.

    >>> from strips.loader import load_math_set
    >>> Paylines.present(load_math_set("rules_page").model)
    False
    """

    name = 'payline evaluation (evaluation = "lines")'
    keys = '[game] evaluation = "lines", [lines] paylines'
    implements = frozenset(ANALYSES) - {"sensitivity", "tune", "distribution", "gamble"}
    count_tables = False

    @classmethod
    def present(cls, model) -> bool:
        return model.evaluation == "lines"


def payline_count(model) -> int:
    """The number of paylines a game pays on (0 for a game that does not pay by lines).

    >>> from strips.loader import load_math_set
    >>> payline_count(load_math_set("rules_page").model)
    0
    """
    return len(model.paylines) if model.is_lines else 0
