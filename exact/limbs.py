"""Exact integer weights as int64 limbs, and the merging of equal rows with their weights.

The one-spin distribution (:mod:`exact.one_spin`) keeps every weight exact: a weight is a Python
integer split into limbs of :data:`LIMB_BITS` bits held in int64 arrays (shape (limbs, entries)), so
products and sums of weights are numpy operations; :func:`merge_equal` merges equal rows of integer
columns, summing their weights.
"""
from __future__ import annotations

from math import prod
from typing import Sequence

import numpy as np

#: Largest magnitude kept in int64 before weights fall back to Python integers.
INT64_SAFE = 2**62

# --------------------------------------------------------------------------
# exact integer weights as int64 limbs
# --------------------------------------------------------------------------
#: Bits per limb: a product of two limbs is < 2^48, so a sum of up to 2^14 such products fits int64.
LIMB_BITS = 24
_MASK = (1 << LIMB_BITS) - 1


def to_limbs(values) -> np.ndarray:
    """Non-negative Python integers as int64 limbs: shape (L, n), value = sum_i limbs[i] 2^(24 i), each limb < 2^24."""
    values = [int(v) for v in values]
    top = max(values, default=0)
    n_limbs = max(1, -(-top.bit_length() // LIMB_BITS))
    out = np.zeros((n_limbs, len(values)), dtype=np.int64)
    for i in range(n_limbs):
        out[i] = [(v >> (LIMB_BITS * i)) & _MASK for v in values]
    return out


def from_limbs(limbs: np.ndarray) -> np.ndarray:
    """The Python integers of a limb array (shape (L, n)): object array of shape (n,)."""
    acc = limbs[-1].astype(object)
    for i in range(limbs.shape[0] - 2, -1, -1):
        acc = acc * (1 << LIMB_BITS) + limbs[i].astype(object)
    return acc


def normalise(limbs: np.ndarray) -> np.ndarray:
    """Carry every limb above 2^24 into the next (values unchanged); top zero limbs dropped.

    Every limb must be non-negative and below 2^62 on entry.
    """
    rows = list(limbs)
    res = []
    carry = np.zeros(limbs.shape[1], dtype=np.int64)
    i = 0
    while i < len(rows) or carry.any():
        cur = rows[i] + carry if i < len(rows) else carry
        carry = cur >> LIMB_BITS
        res.append(cur & _MASK)
        i += 1
    while len(res) > 1 and not res[-1].any():
        res.pop()
    return np.array(res, dtype=np.int64).reshape(len(res), limbs.shape[1])


def limb_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise product of two normalised limb arrays of equal length n: shape (La + Lb, n), normalised."""
    la, lb = a.shape[0], b.shape[0]
    if min(la, lb) >= 1 << 14:
        raise OverflowError("limb product of numbers above 2^(24 x 16384)")
    out = np.zeros((la + lb, a.shape[1]), dtype=np.int64)
    for i in range(la):
        for j in range(lb):
            out[i + j] += a[i] * b[j]
    return normalise(out)


def limb_sum(limbs: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sums of the runs beginning at ``starts`` (as ``np.add.reduceat``), normalised; runs below 2^38 entries."""
    if limbs.shape[1] >= 1 << 38:
        raise OverflowError("limb sum of 2^38 entries or more")
    return normalise(np.add.reduceat(limbs, starts, axis=1))


# --------------------------------------------------------------------------
# merging helpers
# --------------------------------------------------------------------------
def object_array(values) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = [int(v) for v in values]
    return out


def merge_equal(columns: Sequence[np.ndarray], weights: np.ndarray) -> tuple:
    """Group equal rows of the int64 ``columns`` and sum their weights.

    ``weights`` is a limb array, shape (L, n) (:func:`to_limbs`), or an
    object array of Python integers, shape (n,).  Returns the distinct rows
    (one array per column, sorted lexicographically, the first column most
    significant) and the summed weights in the same form.
    """
    limbs = weights.ndim == 2
    n = weights.shape[-1]
    if n == 0:
        return (*[c[:0] for c in columns], weights[..., :0])
    lows = [int(c.min()) for c in columns]
    radices = [int(c.max()) - lo + 1 for c, lo in zip(columns, lows)]
    if prod(radices) < INT64_SAFE:   # one int64 key: a single sort instead of a lexicographic one
        code = np.zeros(n, dtype=np.int64)
        for c, lo, rad in zip(columns, lows, radices):
            code = code * rad + (c - lo)
        order = np.argsort(code, kind="stable")
        sc = code[order]
        start = np.ones(n, dtype=bool)
        start[1:] = sc[1:] != sc[:-1]
    else:
        order = np.lexsort(tuple(reversed(columns)))
        start = np.ones(n, dtype=bool)
        start[1:] = False
        for c in columns:
            cs = c[order]
            start[1:] |= cs[1:] != cs[:-1]
    idx = np.flatnonzero(start)
    first = order[idx]
    if limbs:
        w = limb_sum(weights[:, order], idx)
    else:
        w = np.add.reduceat(weights[order], idx)
    return (*[c[first] for c in columns], w)


def unique_rows(mat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of an int64 matrix (lexicographic order) and the index of each row among them."""
    if mat.shape[0] == 0:
        return mat, np.zeros(0, dtype=np.int64)
    order = np.lexsort(mat.T[::-1])
    srt = mat[order]
    start = np.ones(len(order), dtype=bool)
    start[1:] = (srt[1:] != srt[:-1]).any(axis=1)
    ids = np.cumsum(start) - 1
    inv = np.empty(len(order), dtype=np.int64)
    inv[order] = ids
    return srt[start], inv
