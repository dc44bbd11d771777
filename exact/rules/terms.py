"""Integer helpers of the rules' per-reel terms (:mod:`exact.engine` factorises the moments of a spin
into per-reel sums of them): weight scales, scaled moments of a drawn value, integer arrays that fall back
to Python ints beyond int64.
"""
from __future__ import annotations

from math import lcm

import numpy as np

__all__ = ["INT64_SAFE", "weights_scale", "scaled_moments", "int_array", "int_matrix", "GROUP_LIMIT", "reel_groups",
           "table_bytes"]

#: Most stop combinations of one group of reels in the simulator's ways tables.
GROUP_LIMIT = 1 << 14

#: Integers below this fit an int64 product of two with room for sums (beyond: Python ints).
INT64_SAFE = 2**62


def weights_scale(tables) -> int:
    """The lcm of the weight sums of integer weight tables (1 if none)."""
    return lcm(1, *(sum(w) for w in tables))


def scaled_moments(pairs, d: int) -> tuple[int, int]:
    """D E[v] and D^2 Var[v] of a value drawn from (value, integer weight) pairs, D a multiple of the weight sum W.

    Exact integers: D E[v] = (D/W) sum w v and D^2 Var[v] = (D/W)^2 (W sum w v^2 - (sum w v)^2).
    """
    total = sum(w for _, w in pairs)
    f = d // total
    s1 = sum(w * v for v, w in pairs)
    s2 = sum(w * v * v for v, w in pairs)
    return f * s1, f * f * (total * s2 - s1 * s1)


def int_array(values) -> np.ndarray:
    values = [int(v) for v in values]
    if all(abs(v) < INT64_SAFE for v in values):
        return np.array(values, dtype=np.int64)
    return np.array(values, dtype=object)


def int_matrix(values: np.ndarray) -> np.ndarray:
    """An object array of Python ints as int64 if every entry fits safely, else unchanged."""
    if all(abs(int(v)) < INT64_SAFE for v in values.flat):
        return values.astype(np.int64)
    return values


def reel_groups(lengths, limit: int = GROUP_LIMIT) -> list[tuple[int, ...]]:
    """Cut reels into contiguous groups of at most ``limit`` stop combinations, filled from the right (the
    simulator's ways tables: one row per stop combination of a group).

    >>> reel_groups((100,) * 5)
    [(0,), (1, 2), (3, 4)]
    """
    groups: list[list[int]] = []
    size = limit + 1
    for r in reversed(range(len(lengths))):
        if size * lengths[r] > limit or not groups:
            groups.insert(0, [r])
            size = lengths[r]
        else:
            groups[0].insert(0, r)
            size *= lengths[r]
    return [tuple(g) for g in groups]


def table_bytes(lengths, columns: int) -> int:
    """Bytes of the simulator's ways tables of one strip set of reel ``lengths``: one int64 row of ``columns``
    per stop combination of each group (:func:`reel_groups`).

    >>> table_bytes((100,) * 5, 12)        # the rules-page base strips: 20,100 rows of 12
    1929600
    """
    total = 0
    for g in reel_groups(lengths):
        rows = 1
        for r in g:
            rows *= lengths[r]
        total += rows
    return total * columns * 8
