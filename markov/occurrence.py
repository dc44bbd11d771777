"""The probability that an event never happens during a free-spin feature, exactly.

Used for the odds of an award per game round (GLI-11 v3.0 section 4.8.2: the
odds of an advertised award are counted per game, so an award seen in any
free spin of the round counts).

Mathematics
-----------
Let ``A`` be an event of one spin (a paytable combination shows, ``n``
scatters show, ...).  Each free spin draws the count ``N`` that drives its
chain (the KEY count on a ladder, the scatter count on a retrigger feature)
jointly with ``A``.  Write ``a_L[k] = P(not A, N = k)`` for a spin of level
``L``: a *substochastic* split (``sum_k a_L[k] = P(not A) <= 1``).

The feature never shows ``A`` exactly when every one of its spins avoids it,
so ``P(feature avoids A)`` is the total mass of the chain's paths to its
absorbing end when each transition of a spin with count ``k`` is weighted by
``a_L[k]`` instead of ``P(N = k)``.  On an acyclic chain (the ladder; the
retrigger feature under a cap; any finite chain of the protocol) this is one
forward pass over the states, :func:`markov.protocol.avoids`.

Without a cap the retrigger feature is a subcritical branching process; the
probability ``q`` that a spin's subtree avoids ``A`` solves
``q = f(q) = sum_k a[k] q^e(k)`` with ``e(k)`` the spins ``k`` scatters add.
``f`` is increasing, so iterating from ``q = 1`` gives upper bounds
(``P(no A within depth d)``) and from ``q = 0`` lower bounds
(``P(no A and depth <= d)``); both are rounded outward to a grid of
``10^-40`` and iterated until they differ by at most ``1e-30``.

References
----------
Kemeny, J. G. and Snell, J. L., *Finite Markov Chains* (1960), ch. III
(absorbing chains); Harris, T. E., *The Theory of Branching Processes* (1963),
ch. I (the generating-function fixed point).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor
from typing import Sequence

from markov import protocol
from markov.chain import Ladder
from markov.retrigger import RetriggerChain

__all__ = ["Bounds", "ladder_avoids", "retrigger_avoids", "AVOIDS", "feature_avoids"]

#: Grid of the outward rounding of the uncapped retrigger bounds.
GRID = 10**40
#: Width at which the uncapped retrigger iteration stops.
WIDTH = Fraction(1, 10**30)


@dataclass(frozen=True)
class Bounds:
    """An exact probability or a rational interval that holds it.

    Attributes
    ----------
    low, high : Fraction
        ``low <= p <= high``; equal when the value is exact.
    """

    low: Fraction
    high: Fraction

    @property
    def exact(self) -> bool:
        """True when the interval is one point."""
        return self.low == self.high


def ladder_avoids(ladder: Ladder, avoid: Sequence[Sequence[Fraction]], initial_spins: int | Sequence[int],
                  memo: dict | None = None) -> Fraction | dict[int, Fraction]:
    """P(no free spin of the feature shows the event), exact.

    Parameters
    ----------
    ladder : Ladder
        The KEY-counter ladder (:func:`markov.chain.ladder_of`).
    avoid : sequence (one per level, level 1 first) of sequence of Fraction
        ``avoid[L][k] = P(event does not show, KEY count = k)`` for one spin
        of level ``L + 1``; each sums to at most 1.
    initial_spins : int or sequence of int
        Free spins of level 1 (the trigger's award); several: one backward pass for all.
    memo : dict, optional
        Shared between calls on the same ladder (:func:`markov.protocol.avoids_from`).

    Returns
    -------
    Fraction, or dict {initial spins: Fraction} for several
        Probability per feature.

    Raises
    ------
    ValueError
        If ``avoid`` has a level too few or a negative entry.

    Examples
    --------
    >>> from markov.chain import Ladder
    >>> from markov.moments import CountSplit
    >>> h = Fraction(1, 2)
    >>> one = Ladder((0,), (None,), (1,), (CountSplit((h, h), (h, 0), (h, 0)),))
    >>> ladder_avoids(one, [[h, 0]], 3)    # every spin avoids the event with probability 1/2
    Fraction(1, 8)
    """
    if len(avoid) != ladder.levels:
        raise ValueError(f"{len(avoid)} avoid splits for {ladder.levels} levels")
    if any(Fraction(x) < 0 for a in avoid for x in a):
        raise ValueError("avoid probabilities must be >= 0")
    def weight(s, k, p):
        a = avoid[s.level - 1]
        return a[k] if k < len(a) else 0
    if isinstance(initial_spins, int):
        return protocol.avoids(ladder, initial_spins, weight, memo)
    return protocol.avoids_from(ladder, initial_spins, weight, memo)


def retrigger_avoids(chain: RetriggerChain, avoid: Sequence[Fraction], initial_spins: int | Sequence[int],
                     memo: dict | None = None) -> Bounds | dict[int, Bounds]:
    """P(no free spin of a retrigger feature shows the event): exact under a cap, else tight bounds.

    Parameters
    ----------
    chain : RetriggerChain
        The feature (:func:`markov.retrigger.retrigger_of`); its ``extra[n]``
        are the spins ``n`` scatters add.
    avoid : sequence of Fraction
        ``avoid[n] = P(event does not show, scatter count = n)`` for one free spin.
    initial_spins : int or sequence of int
        Several: the bounds of each, from one pass.
    memo : dict, optional
        Shared between calls on the same chain (:func:`markov.protocol.avoids_from`).

    Returns
    -------
    Bounds, or dict {initial spins: Bounds} for several
        Exact (``low == high``) with a cap; without one, rational bounds at
        most ``1e-30`` apart (see the module docstring).

    Examples
    --------
    >>> from markov.moments import CountSplit
    >>> h = Fraction(1, 2)
    >>> ch = RetriggerChain(CountSplit((h, h), (0, 0), (0, 0)), (0, 1), cap=2)
    >>> retrigger_avoids(ch, [h, 0], 1).low    # the event is "one scatter"; avoiding it also ends the feature
    Fraction(1, 2)
    """
    avoid = [Fraction(x) for x in avoid] + [Fraction(0)] * (len(chain.extra) - len(avoid))
    several = not isinstance(initial_spins, int)
    starts = list(initial_spins) if several else [initial_spins]
    if chain.cap is not None:
        ended = protocol.avoids_from(chain, starts, lambda s, n, p: avoid[n], memo)
        out = {n: Bounds(e, e) for n, e in ended.items()}
        return out if several else out[initial_spins]
    # independent subtrees: P = q^N0
    lo, hi = Fraction(0), Fraction(1)
    for _ in range(100_000):
        lo = Fraction(floor(_f(chain, avoid, lo) * GRID), GRID)
        hi = Fraction(ceil(_f(chain, avoid, hi) * GRID), GRID)
        if hi - lo <= WIDTH:
            break
    hi = min(hi, Fraction(1))
    out = {n: Bounds(lo ** n, hi ** n) for n in starts}
    return out if several else out[initial_spins]


def _f(chain: RetriggerChain, avoid: Sequence[Fraction], q: Fraction) -> Fraction:
    return sum((a * q ** chain.extra[n] for n, a in enumerate(avoid) if a), Fraction(0))


def _ladder_bounds(ladder: Ladder, avoid: Sequence[Sequence[Fraction]], starts: Sequence[int],
                   memo: dict | None) -> dict[int, Bounds]:
    return {n: Bounds(p, p) for n, p in ladder_avoids(ladder, avoid, list(starts), memo).items()}


def _retrigger_bounds(chain: RetriggerChain, avoid: Sequence[Sequence[Fraction]], starts: Sequence[int],
                      memo: dict | None) -> dict[int, Bounds]:
    return retrigger_avoids(chain, list(avoid[0])[:len(chain.extra)], list(starts), memo)


#: Chain kind (:data:`markov.feature.CHAINS`) -> its odds that no free spin shows an event:
#: ``f(chain, avoid, starts, memo) -> {initial spins: Bounds}`` with ``avoid[L][k]`` = P(event does not show, count = k) for
#: one spin of level L + 1 (the count the chain is by: a ladder's KEYs, a retrigger's scatters).
AVOIDS = {Ladder.kind: _ladder_bounds, RetriggerChain.kind: _retrigger_bounds}


def feature_avoids(chain, avoid: Sequence[Sequence[Fraction]], initial_spins: int | Sequence[int],
                   memo: dict | None = None) -> Bounds | dict[int, Bounds]:
    """P(no free spin of the feature ``chain`` shows the event), by the chain's kind (:data:`AVOIDS`);
    several starts (a sequence): {initial spins: Bounds} from one pass; ``memo`` shared between the calls
    on one chain (:func:`markov.protocol.avoids_from`).

    >>> from markov.moments import CountSplit
    >>> h = Fraction(1, 2)
    >>> one = Ladder((0,), (None,), (1,), (CountSplit((h, h), (h, 0), (h, 0)),))
    >>> feature_avoids(one, [[h, 0]], 3).low, feature_avoids(one, [[h, 0]], [1, 2])[2].low
    (Fraction(1, 8), Fraction(1, 4))
    """
    if isinstance(initial_spins, int):
        return AVOIDS[chain.kind](chain, avoid, [initial_spins], memo)[initial_spins]
    return AVOIDS[chain.kind](chain, avoid, initial_spins, memo)
