"""Integer helpers of the rules' per-reel terms (:mod:`exact.engine` factorises the moments of a spin
into per-reel sums of them): weight scales, scaled moments of a drawn value, integer arrays that fall back
to Python ints beyond int64.
"""
from __future__ import annotations

from math import lcm

import numpy as np

__all__ = ["INT64_SAFE", "weights_scale", "scaled_moments", "int_array", "int_matrix"]

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
