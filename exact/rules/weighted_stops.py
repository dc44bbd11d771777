"""Weighted stops (virtual reels, as land-based PAR sheets print them): a strip CSV may carry a weight column
per reel (``reel1_weight``, ...: the integer weight of each stop), the stop drawn with probability
weight / total.

The loader parses the columns (:mod:`strips.strips_csv`: a weight exactly where the reel has a symbol, a
whole number >= 0, not all 0) and keeps them on the strip's codes (:class:`strips.model.WeightedStops`);
it marks the game with :class:`strips.model.StopWeightsConfig`.  Literal reading: :func:`stop_probability`
(one stop combination's probability, the product of each reel's weight / total).  Fast path: every exact
per-stop table is built from :func:`strips.model.window_codes`, which repeats a weighted stop's window
``weight`` times, so the ways products and the payline chains count each stop with its weight exactly; the
cycle is the product of the reels' weight totals (:attr:`strips.model.ReelStrips.cycle_lengths`).  The
analyses that draw or enumerate stops by position (simulation, the exhaustive proof, the distribution,
sensitivity, tune, comply, export) refuse it in one line.
"""
from __future__ import annotations

from fractions import Fraction

from exact.rules.base import Rule

__all__ = ["WeightedStops", "stop_probability"]


def stop_probability(strips, stops) -> Fraction:
    """P(the reels stop at ``stops``) on ``strips`` (:class:`strips.model.ReelStrips`): the product over
    reels of weight / total (1 / length on a reel without weights).

    >>> import numpy as np
    >>> from strips.model import ReelStrips, WeightedStops
    >>> rs = ReelStrips("base", (("A", "B"), ("A", "B")), (WeightedStops([0, 1], [3, 1]), np.array([0, 1])))
    >>> stop_probability(rs, (0, 1))
    Fraction(3, 8)
    """
    p = Fraction(1)
    for r, (s, n) in enumerate(zip(stops, strips.cycle_lengths)):
        p *= Fraction(strips.stop_weight(r, s), n)
    return p


class WeightedStops(Rule):
    """Weighted stops of a strip set.

    >>> from strips.loader import load_math_set
    >>> WeightedStops.present(load_math_set("rules_page").model)
    False
    """

    name = "weighted stops"
    keys = "strip CSV columns reel1_weight, reel2_weight, ..."
    implements = frozenset({"report", "spin", "check", "chain", "diff"})

