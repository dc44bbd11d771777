"""Frames that persist through the free spins, and the bowls they become: exact chains over per-reel cell levels.

During a fixed number of free spins each cell holds a frame level 0..3 that persists to the end; a
scatter landing on a cell raises its level by ``raise_by`` (1; or to 3 at once: ``raise_by = 3``), at
most 3.  A spin draws one stop per reel of the free-spin strips, every stop equally likely; reel ``r``
at stop ``p`` shows scatters on the rows of the bit mask ``stop_masks[r][p]``.  At the end every
framed cell becomes a bowl whose value is drawn from its level's table, independently.

The reels are independent (each reel's levels move with its own stops), so the law of the levels at
the end is a product over reels of per-reel laws, each a chain over the ``4^rows`` level tuples of one
reel (:func:`reel_levels_law`), and the law of the numbers of cells at each level is their
convolution (:func:`level_counts_law`).  :class:`FramesChain` is the same feature as an instance of
the chain protocol (:mod:`markov.protocol`: state = every reel's levels x spins left, the bowls'
value the reward of the last spin), for small games; the two are tested equal and against a literal
replay of every stop sequence.

Not wired into a game yet: the wheel game's prizes (Go Large's scatter blocks, Rollin' Bones, High
Steaks and its 10x prize) and the ``[frames]`` keys are not read by the loader.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product as cartesian
from typing import Sequence

__all__ = ["raise_levels", "reel_levels_law", "level_counts_law", "bowls_moments", "FramesChain"]

TOP = 3


def raise_levels(levels: tuple[int, ...], mask: int, raise_by: int) -> tuple[int, ...]:
    """One spin on one reel read literally: each row of ``mask`` showing a scatter raises its level by
    ``raise_by``, at most 3.

    >>> raise_levels((0, 2, 3), 0b111, 1), raise_levels((0, 1, 0), 0b010, 3)
    ((1, 3, 3), (0, 3, 0))
    """
    return tuple(min(TOP, v + raise_by) if mask >> i & 1 else v for i, v in enumerate(levels))


def reel_levels_law(stop_masks: Sequence[int], start: tuple[int, ...], spins: int, raise_by: int = 1) -> dict:
    """The exact law of one reel's levels after ``spins`` free spins from ``start``: {levels: Fraction}.

    >>> reel_levels_law([0b1, 0], (0,), 2)
    {(2,): Fraction(1, 4), (1,): Fraction(1, 2), (0,): Fraction(1, 4)}
    """
    law = {tuple(start): Fraction(1)}
    n = len(stop_masks)
    for _ in range(spins):
        nxt: dict = {}
        for levels, p in law.items():
            for m in stop_masks:
                t = raise_levels(levels, m, raise_by)
                nxt[t] = nxt.get(t, 0) + p / n
        law = nxt
    return law


def _counts(levels: tuple[int, ...]) -> tuple[int, int, int]:
    return tuple(sum(1 for v in levels if v == k) for k in (1, 2, 3))


def level_counts_law(reel_laws: Sequence[dict]) -> dict:
    """The law of (cells at level 1, at level 2, at level 3) over every reel: the convolution of the
    per-reel laws of :func:`reel_levels_law`.

    >>> level_counts_law([{(1,): Fraction(1, 2), (0,): Fraction(1, 2)}, {(3,): Fraction(1)}])
    {(1, 0, 1): Fraction(1, 2), (0, 0, 1): Fraction(1, 2)}
    """
    acc = {(0, 0, 0): Fraction(1)}
    for law in reel_laws:
        per: dict = {}
        for levels, p in law.items():
            c = _counts(levels)
            per[c] = per.get(c, 0) + p
        out: dict = {}
        for k1, p1 in acc.items():
            for k2, p2 in per.items():
                k = tuple(a + b for a, b in zip(k1, k2))
                out[k] = out.get(k, 0) + p1 * p2
        acc = out
    return acc


def bowls_moments(counts_law: dict, bowls: Sequence[tuple[Fraction, Fraction]]) -> tuple[Fraction, Fraction]:
    """E[B] and E[B^2] of the bowls' total value B (credits): ``bowls[L - 1]`` = (E[v], E[v^2]) of one bowl
    of level L, the bowls drawn independently; ``counts_law`` from :func:`level_counts_law`.

    >>> bowls_moments({(1, 0, 1): Fraction(1, 2), (0, 0, 1): Fraction(1, 2)},
    ...               [(Fraction(2), Fraction(4)), (Fraction(0), Fraction(0)), (Fraction(10), Fraction(100))])
    (Fraction(11, 1), Fraction(122, 1))
    """
    mean = second = Fraction(0)
    for k, p in counts_law.items():
        m = sum(n * b[0] for n, b in zip(k, bowls))
        var = sum(n * (b[1] - b[0] * b[0]) for n, b in zip(k, bowls))
        mean += p * m
        second += p * (var + m * m)
    return mean, second


@dataclass(frozen=True)
class FramesChain:
    """The frames of the free spins as a chain of the protocol of :mod:`markov.protocol` (small games).

    State: (every reel's levels, spins left); one transition per stop combination of a spin; the
    reward is 0 on every spin but the last, whose reward is the bowls' value at the end (E[B], E[B^2]
    given the final levels).  ``start(spins)`` starts from ``levels`` (every reel's start levels).

    >>> from markov.protocol import solve
    >>> c = FramesChain(((0b1, 0),), ((0,),), bowls=((Fraction(2), Fraction(4)),) * 3)
    >>> solve(c, [2])[2].mean
    Fraction(3, 2)
    """

    stop_masks: tuple[tuple[int, ...], ...]
    levels: tuple[tuple[int, ...], ...]
    bowls: tuple[tuple[Fraction, Fraction], ...]
    raise_by: int = 1

    def start(self, spins: int):
        return (self.levels, spins)

    def transitions(self, state) -> tuple:
        levels, left = state
        total = 1
        for m in self.stop_masks:
            total *= len(m)
        out: dict = {}
        for stops in cartesian(*self.stop_masks):
            t = tuple(raise_levels(lv, m, self.raise_by) for lv, m in zip(levels, stops))
            out[t] = out.get(t, 0) + 1
        rows = []
        for t, c in out.items():
            p = Fraction(c, total)
            if left > 1:
                rows.append((f"levels {t}", p, Fraction(0), Fraction(0), (t, left - 1)))
            else:
                k = tuple(sum(n) for n in zip(*(_counts(lv) for lv in t)))
                m, m2 = bowls_moments({k: Fraction(1)}, self.bowls)
                rows.append((f"levels {t} (bowls)", p, p * m, p * m2, None))
        return tuple(rows)
