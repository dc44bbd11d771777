"""Payline pays (``[game] evaluation = "lines"`` with ``[lines] paylines``): each payline pays its
leftmost run, WILDs substituting; a WILD's own pays for a WILD-only run.

Literal reading: :func:`exact.evaluator.line_pays`; per-line chains: :mod:`exact.lines`.
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule

__all__ = ["Paylines"]


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
