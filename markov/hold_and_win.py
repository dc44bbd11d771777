"""The hold-and-win chain: which cells of each reel hold a coin, times respins left, exactly.

A respin draws one stop per reel of the respin strips, every stop equally likely; reel ``r`` at
stop ``p`` shows coins on the rows of the bit mask ``reel_masks[r][p]`` (bit ``i`` = row ``i``).
Held cells keep their coins, an empty cell showing a coin holds it from then on, so reel ``r``'s
held mask goes from ``a`` to ``a | reel_masks[r][p]``; the reels are independent given the state.
The counter starts at ``respins``, is set back to it after a respin that lands a new coin and drops
by one after one that lands none; the feature ends at 0 or when every cell holds a coin.

:class:`HoldChain` is the chain as an instance of the feature-chain protocol
(:mod:`markov.protocol`): state ``(masks, left)``, one transition per combination of the reels'
new masks, the step's reward the new coins' values (drawn independently from the respin weights)
and, on the step that fills the window, the ``full`` award.  :func:`markov.protocol.solve` then gives
E[F], E[F^2] and the expected respins from any start.

:func:`final_law` is its fast path for many starts at once: the law of the number of coins held at
the end and the expected respins from every reachable held set.  With ``q(h)`` = P(a respin lands no
new coin at ``h``), the counter needs no state of its own: from ``h`` with a full counter the feature
plays ``1 + q + ... + q^(R-1)`` respins at ``h`` on average, ends at ``h`` with probability ``q^R`` and
moves to ``h' != h`` with probability ``(1 + q + ... + q^(R-1)) P(h -> h')``; held sets only grow, so
the chain over held sets is solved backwards in decreasing number of coins.  Reels with the same
respin strip window masks are exchangeable, so held sets equal up to a permutation of such reels are
one state (the canonical form sorts their masks).  Exact integers throughout (the state at ``n``
coins is scaled by ``D^(R (cells - n + 1))``, ``D`` the number of stop combinations of a respin),
Fractions formed once per read-out.

References
----------
J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, ch. III (absorbing chains).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import prod
from typing import Iterable, Sequence

__all__ = ["HoldChain", "FinalLaw", "final_law", "canonical", "popcount"]


def popcount(masks: Sequence[int]) -> int:
    """Coins held in a tuple of per-reel masks.

    >>> popcount((0b101, 0b1))
    3
    """
    return sum(bin(m).count("1") for m in masks)


def _outcomes(stop_masks: Sequence[int], held: int) -> dict[int, int]:
    """Reel's held mask after one respin from ``held``: new mask -> number of stops."""
    out: dict[int, int] = {}
    for m in stop_masks:
        b = held | m
        out[b] = out.get(b, 0) + 1
    return out


def _product(per_reel: list[dict[int, int]]) -> dict[tuple, int]:
    acc: dict[tuple, int] = {(): 1}
    for dist in per_reel:
        acc = {k + (b,): w * c for k, w in acc.items() for b, c in dist.items()}
    return acc


@dataclass(frozen=True)
class HoldChain:
    """The hold-and-win feature as a chain of the protocol of :mod:`markov.protocol`.

    Attributes
    ----------
    reel_masks : tuple of tuple of int
        Per reel, per stop of its respin strip, the bit mask of the rows showing the coin symbol.
    rows : int
    respins : int
        The counter's start and reset value.
    mean, second : Fraction
        E[v] and E[v^2] of a coin landing in a respin (credits, credits^2).
    full : int
        Credits paid when every cell holds a coin at the end (0: none).

    Examples
    --------
    Two one-row reels, each landing a coin with probability 1/2, one respin, coins worth 1:

    >>> from markov.protocol import solve
    >>> c = HoldChain(((1, 0), (1, 0)), rows=1, respins=1, mean=Fraction(1), second=Fraction(1), full=10)
    >>> m = solve(c, [(1, 0)])[(1, 0)]
    >>> m.mean, m.steps
    (Fraction(11, 2), Fraction(1, 1))
    """

    reel_masks: tuple[tuple[int, ...], ...]
    rows: int
    respins: int
    mean: Fraction = Fraction(0)
    second: Fraction = Fraction(0)
    full: int = 0

    @property
    def cells(self) -> int:
        return len(self.reel_masks) * self.rows

    @property
    def combinations(self) -> int:
        """Stop combinations of one respin."""
        return prod(len(m) for m in self.reel_masks)

    def start(self, held: tuple[int, ...]) -> tuple:
        """The state after a trigger holding the coin masks ``held`` (one per reel): ``(held, respins)``.

        Raises
        ------
        ValueError
            A full window (the feature ends at once: no state to start).
        """
        held = tuple(int(h) for h in held)
        if popcount(held) == self.cells:
            raise ValueError("a full window plays no respin")
        return (held, self.respins)

    def transitions(self, state) -> tuple:
        """``(label, p, E[W 1], E[W^2 1], successor)`` per combination of the reels' new masks; the
        successor is ``None`` when the feature ends (counter at 0, or every cell holds a coin)."""
        held, left = state
        n = popcount(held)
        d = self.combinations
        var = self.second - self.mean * self.mean
        out = []
        for new, count in _product([_outcomes(m, h) for m, h in zip(self.reel_masks, held)]).items():
            p = Fraction(count, d)
            gained = popcount(new) - n
            if not gained:
                out.append(("no new coin", p, Fraction(0), Fraction(0), None if left == 1 else (held, left - 1)))
                continue
            full = popcount(new) == self.cells
            m = gained * self.mean + (self.full if full else 0)
            out.append((f"+{gained} coin{'s' if gained > 1 else ''}" + (" (full)" if full else ""), p, p * m,
                        p * (gained * var + m * m), None if full else (new, self.respins)))
        return tuple(out)


def canonical(masks: Sequence[int], groups: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The held set with the masks of each group of exchangeable reels sorted (its canonical form).

    >>> canonical((3, 1, 2), [[0, 2], [1]])
    (2, 1, 3)
    """
    out = list(masks)
    for g in groups:
        for i, v in zip(g, sorted(masks[i] for i in g)):
            out[i] = v
    return tuple(out)


def reel_groups(reel_masks: Sequence[Sequence[int]]) -> list[list[int]]:
    """Reels whose respin strips show the same multiset of coin masks (exchangeable reels).

    >>> reel_groups([(1, 0), (0, 1), (1, 1)])
    [[0, 1], [2]]
    """
    groups: dict[tuple, list[int]] = {}
    for r, m in enumerate(reel_masks):
        groups.setdefault(tuple(sorted(m)), []).append(r)
    return list(groups.values())


@dataclass(frozen=True)
class FinalLaw:
    """From each canonical held set: the law of the coins held at the end and the expected respins.

    Attributes
    ----------
    law : dict {canonical held set: tuple of Fraction}
        ``law[h][n]`` = P(n coins held at the end | the feature at ``h`` with a full counter), n = 0..cells.
    respins : dict {canonical held set: Fraction}
        Expected respins played from ``h``.
    groups : list of list of int
        The exchangeable reels (:func:`reel_groups`).
    states : int
        Canonical held sets solved (the chain's size without the counter; times the counter's values
        ``respins`` it is the protocol chain's size folded by symmetry).
    """

    law: dict
    respins: dict
    groups: list
    states: int

    def of(self, held: Sequence[int]) -> tuple[tuple, Fraction]:
        """(law of the final coin count, expected respins) from the held masks ``held``."""
        k = canonical(held, self.groups)
        return self.law[k], self.respins[k]


def final_law(reel_masks: Sequence[Sequence[int]], rows: int, respins: int, starts: Iterable[Sequence[int]]) -> FinalLaw:
    """The law of the final coin count and the expected respins from every held set reachable from
    ``starts`` (module docstring), exactly.

    Parameters
    ----------
    reel_masks : sequence of sequence of int
        Per reel, per respin stop, the coin mask of its window (bit i = row i).
    rows, respins : int
    starts : iterable of sequence of int
        Held masks (one per reel) of the triggering windows.

    Returns
    -------
    FinalLaw

    Examples
    --------
    Two one-row reels, each landing a coin with probability 1/2, one respin, one coin held:

    >>> f = final_law([(1, 0), (1, 0)], 1, 1, [(1, 0)])
    >>> f.of((1, 0)), f.states
    (((Fraction(0, 1), Fraction(1, 2), Fraction(1, 2)), Fraction(1, 1)), 2)
    """
    reel_masks = [tuple(int(m) for m in r) for r in reel_masks]
    groups = reel_groups(reel_masks)
    cells = len(reel_masks) * rows
    d = prod(len(m) for m in reel_masks)
    rr = respins
    cache: dict = {}

    def dist(r: int, h: int) -> dict[int, int]:
        key = (tuple(sorted(reel_masks[r])), h)
        if key not in cache:
            cache[key] = _outcomes(reel_masks[r], h)
        return cache[key]

    succ: dict[tuple, dict[tuple, int]] = {}
    todo = list(dict.fromkeys(canonical(s, groups) for s in starts))
    seen = set(todo)
    while todo:
        s = todo.pop()
        out: dict[tuple, int] = {}
        if popcount(s) < cells:
            for new, c in _product([dist(r, h) for r, h in enumerate(s)]).items():
                k = canonical(new, groups)
                out[k] = out.get(k, 0) + c
        succ[s] = out
        for t in out:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    # backward in decreasing coins: U(s) = V(s) D^(R (cells - |s| + 1)), integers (module docstring)
    scaled: dict[tuple, list[int]] = {}
    for s in sorted(succ, key=popcount, reverse=True):
        n = popcount(s)
        if n == cells:
            u = [0] * (cells + 2)
            u[cells] = d ** rr
            scaled[s] = u
            continue
        q = succ[s].get(s, 0)
        g = sum(q ** i * d ** (rr - 1 - i) for i in range(rr))
        u = [0] * (cells + 2)
        u[n] = q ** rr * d ** (rr * (cells - n))
        u[cells + 1] = g * d ** (rr * (cells - n) + 1)
        for t, c in succ[s].items():
            if t == s:
                continue
            f = g * c * d ** (rr * (popcount(t) - n - 1))
            ut = scaled[t]
            for i in range(n + 1, cells + 2):
                if ut[i]:
                    u[i] += f * ut[i]
        scaled[s] = u
    law, resp = {}, {}
    for s, u in scaled.items():
        den = d ** (rr * (cells - popcount(s) + 1))
        law[s] = tuple(Fraction(x, den) for x in u[:cells + 1])
        resp[s] = Fraction(u[cells + 1], den)
    return FinalLaw(law=law, respins=resp, groups=groups, states=len(scaled))
