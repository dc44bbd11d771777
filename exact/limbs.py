"""Exact integer weights as int64 limbs, and the merging of equal rows with their weights.

The one-spin distribution (:mod:`exact.one_spin`) keeps every weight exact: a weight is a Python
integer split into limbs of :data:`LIMB_BITS` bits held in int64 arrays (shape (limbs, entries)), so
products and sums of weights are numpy operations; :func:`merge_equal` merges equal rows of integer
columns, summing their weights.

Integers too large for int64 in a linear chain (the payline pair chains of :mod:`exact.lines`) are kept
as residues instead: the chain runs modulo a few primes below 2^31 (:func:`residue_primes`), each product
of two residues below 2^62, and the exact integers are rebuilt once at the end by the Chinese remainder
theorem (:func:`from_residues`).  :class:`IntRing` is the arithmetic either way: plain int64 (no primes)
or residues.
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
# exact integers as residues modulo primes below 2^31
# --------------------------------------------------------------------------
#: Bits of the residue primes: a product of two residues is below 2^62.
RESIDUE_BITS = 31


def _is_prime(n: int) -> bool:
    """Trial division (n below 2^32: at most 2^16 divisors)."""
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    f = 3
    while f * f <= n:
        if n % f == 0:
            return False
        f += 2
    return True


def residue_primes(bound: int, bits: int = RESIDUE_BITS) -> tuple[int, ...]:
    """The largest primes below ``2^bits``, descending, as few as make their product exceed ``2 bound``:
    every integer of magnitude at most ``bound`` is rebuilt from its residues by :func:`from_residues`.

    Raises ValueError when the primes below ``2^bits`` do not reach the bound.

    >>> residue_primes(10**6, bits=11)
    (2039, 2029)
    >>> residue_primes(2**70)
    (2147483647, 2147483629, 2147483587)
    """
    bound = abs(int(bound))
    out, product, n = [], 1, (1 << bits) - 1
    while product <= 2 * bound:
        while n > 2 and not _is_prime(n):
            n -= 1
        if n <= 2:
            raise ValueError(f"the primes below 2^{bits} do not reach {bound}")
        out.append(n)
        product *= n
        n -= 1
    return tuple(out)


def from_residues(residues: np.ndarray, primes: Sequence[int]) -> np.ndarray:
    """The integers of residues (shape (P, n), int64, row i modulo ``primes[i]``) by the Chinese remainder
    theorem: object array (n,) of Python ints in the symmetric range (-M/2, M/2], M the primes' product.
    Exact for every integer of magnitude below M/2 (:func:`residue_primes` picks the primes for a bound).

    >>> ps = (7, 11, 13)
    >>> r = np.array([[v % p for v in (-5, 0, 400)] for p in ps], dtype=np.int64)
    >>> from_residues(r, ps).tolist()
    [-5, 0, 400]
    """
    primes = [int(p) for p in primes]
    m = prod(primes)
    acc = np.zeros(residues.shape[1], dtype=object)
    for p, row in zip(primes, residues):
        mp = m // p
        acc = acc + row.astype(object) * (mp * pow(mp, -1, p))
    acc = acc % m
    return np.where(acc > m // 2, acc - m, acc)


class IntRing:
    """The integer arithmetic of a linear chain: plain int64 (``primes`` None; the caller proves every value
    below 2^62) or residues modulo ``primes`` (each below 2^31).  Values are int64 arrays whose first axis
    is the prime (length 1 for int64).

    >>> ring = IntRing((7, 11, 13))
    >>> a = ring.lift([10, 20])
    >>> ring.exact(ring.mul(a, ring.lift([3, 3]))).tolist()
    [30, 60]
    >>> IntRing().exact(IntRing().lift([2**40])).tolist()
    [1099511627776]
    """

    def __init__(self, primes: Sequence[int] | None = None):
        self.primes = tuple(int(p) for p in primes) if primes else None
        self.size = len(self.primes) if self.primes else 1
        if self.primes and max(self.primes) >= 1 << 31:
            raise ValueError("residue primes must be below 2^31")
        self._p = np.array(self.primes, dtype=np.int64) if self.primes else None

    def _mod(self, ndim: int) -> np.ndarray:
        return self._p.reshape((-1,) + (1,) * (ndim - 1))

    def lift(self, values) -> np.ndarray:
        """Integers (a Python int, a sequence, or an integer array of any shape) as ring values: shape (P, ...)."""
        if self.primes is None:
            return np.asarray(values, dtype=np.int64)[None]
        arr = np.asarray(values)
        if arr.dtype == object or not np.issubdtype(arr.dtype, np.integer):
            flat = [int(v) for v in arr.reshape(-1)]
            return np.array([[v % p for v in flat] for p in self.primes],
                            dtype=np.int64).reshape((self.size,) + arr.shape)
        arr = arr.astype(np.int64)
        return arr[None] % self._mod(arr.ndim + 1)

    def mul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The product of two ring values (broadcast; a scalar-like factor of shape (P, 1, ...) too)."""
        out = a * b
        return out if self.primes is None else out % self._mod(out.ndim)

    def reduce(self, a: np.ndarray) -> np.ndarray:
        """Sums of ring values (each entry non-negative, below 2^62) brought back below the moduli."""
        return a if self.primes is None else a % self._mod(a.ndim)

    def exact(self, a: np.ndarray) -> np.ndarray:
        """The Python integers of ring values of shape (P, n): object array (n,)."""
        return a[0].astype(object) if self.primes is None else from_residues(a, self.primes)


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
    order, idx = equal_runs(columns, n)
    first = order[idx]
    if limbs:
        w = limb_sum(weights[:, order], idx)
    else:
        w = np.add.reduceat(weights[order], idx)
    return (*[c[first] for c in columns], w)


def equal_runs(columns: Sequence[np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    """(order, starts): the permutation sorting the ``n`` rows of the int64 ``columns`` lexicographically
    and the positions in it where each run of equal rows begins (the grouping of :func:`merge_equal`).

    >>> order, starts = equal_runs([np.array([2, 1, 2])], 3)
    >>> order.tolist(), starts.tolist()
    ([1, 0, 2], [0, 1])
    """
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
    return order, np.flatnonzero(start)


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
