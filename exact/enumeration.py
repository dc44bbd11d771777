"""Exact enumeration through the literal reading: the generic exact path.

A game whose rules have no per-reel terms for the factorised moments (a win
cap that can be reached, and every rule that gives only its literal reading)
gets its exact figures by evaluating every stop combination of its strip set
with the vectorised literal evaluator :class:`exact.windows.WindowEvaluator`
and counting: with ``N`` = the product of the reel lengths and ``w(s)`` the
win of stop combination ``s`` (credits, the phase multiplier included),

    P(win = x) = #{s : w(s) = x} / N,

so the win distribution of one spin, and with it every moment and every
capped figure, is an exact Fraction.  The combinations are streamed in blocks
of :data:`BLOCK` (memory bounded by the block, not by ``N``); the count of
combinations is bounded up front by the ``enumeration`` limit
(``--max-enumeration``), beyond which the one-line refusal names
``rtp prove --exhaustive`` for a distributed run.

Only windows whose win is one number are enumerated this way: a game that
draws values per spin (FISH values, drawn WILD multipliers, a drawn
combination multiplier) is refused, since the literal evaluator gives their
conditional mean, not their distribution.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exact.windows import WindowEvaluator
from strips import limits as _limits
from strips.errors import UnsupportedRule
from strips.limits import combinations_of
from strips.model import MathSet, Phase

__all__ = ["BLOCK", "SpinHistogram", "spin_histogram"]

#: Stop combinations evaluated per block.
BLOCK = 1 << 16


@dataclass(frozen=True)
class SpinHistogram:
    """The exact win distribution of one spin of a phase, by enumeration of every stop combination.

    Attributes
    ----------
    combinations : int
        N, the stop combinations enumerated (the cycle).
    wins : tuple of (int, int)
        (win in credits, number of combinations) in increasing win, every count > 0.
    triggers : tuple of (int, int)
        (trigger count, number of combinations).
    """

    combinations: int
    wins: tuple[tuple[int, int], ...]
    triggers: tuple[tuple[int, int], ...]

    def probabilities(self) -> dict[int, Fraction]:
        """Win in credits -> exact probability."""
        return {w: Fraction(c, self.combinations) for w, c in self.wins}

    def moment(self, k: int, cap: int | None = None) -> Fraction:
        """E[min(W, cap)^k] in credits^k (no cap when None), exactly."""
        total = sum((min(w, cap) if cap is not None else w) ** k * c for w, c in self.wins)
        return Fraction(total, self.combinations)

    def probability_at_least(self, x: int) -> Fraction:
        """P(W >= x)."""
        return Fraction(sum(c for w, c in self.wins if w >= x), self.combinations)

    @property
    def max_win(self) -> int:
        """The largest win of a spin, in credits."""
        return self.wins[-1][0]


def spin_histogram(ms: MathSet, phase: Phase | None = None) -> SpinHistogram:
    """Enumerate every stop combination of ``phase`` (default: the base game) through the literal reading.

    Parameters
    ----------
    ms : MathSet
    phase : Phase, optional

    Returns
    -------
    SpinHistogram
        Wins in credits per spin, the phase multiplier included.

    Raises
    ------
    strips.errors.UnsupportedRule
        A game that draws values per spin (their distribution is not enumerated), or more stop
        combinations than the ``enumeration`` limit (naming ``rtp prove --exhaustive``).

    Examples
    --------
    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "B"], ["A", "B"]]})
    >>> h = spin_histogram(ms)
    >>> h.combinations, h.wins
    (4, ((0, 2), (1, 1), (5, 1)))
    """
    phase = phase or ms.model.base_phase
    strips = ms.phase_strips(phase)
    lengths = strips.lengths
    n = combinations_of(lengths)
    limit = _limits.exceeds("enumeration", n)
    if limit is not None:
        raise UnsupportedRule(f"exact enumeration: {_limits.refusal('enumeration', n, limit, 'stop combinations')}; "
                              f"'rtp prove --exhaustive' enumerates it on Dask", rule="enumeration", analysis="report")
    ev = WindowEvaluator(ms, phase)
    counts: dict[int, int] = {}
    trig: dict[int, int] = {}
    mult = phase.multiplier
    for start in range(0, n, BLOCK):
        idx = np.arange(start, min(n, start + BLOCK), dtype=np.int64)
        stops = np.empty((idx.size, len(lengths)), dtype=np.int64)
        rest = idx.copy()
        for r in range(len(lengths) - 1, -1, -1):
            stops[:, r] = rest % lengths[r]
            rest //= lengths[r]
        out = ev.evaluate(stops)
        if out.denominator != 1:
            raise UnsupportedRule("exact enumeration: values drawn per spin (FISH values, drawn WILD multipliers): "
                                  "the literal evaluator gives their mean, not their distribution",
                                  rule="drawn values", analysis="report")
        for arr, acc, scale in ((out.pay, counts, mult), (out.trigger_count, trig, 1)):
            vals, cnt = np.unique(arr, return_counts=True)
            for v, c in zip(vals.tolist(), cnt.tolist()):
                acc[v * scale] = acc.get(v * scale, 0) + c
    return SpinHistogram(n, tuple(sorted(counts.items())), tuple(sorted(trig.items())))
