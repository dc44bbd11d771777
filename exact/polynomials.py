"""The one polynomial product of the analyses: per-reel count polynomials multiplied over the reels.

A polynomial is a mapping exponent -> coefficient.  An exponent is an int (a count: a scatter or
KEY count, a window's count of some symbol) or a tuple of ints (several counts at once, added
component-wise); a coefficient is anything with ``+`` and ``*``: an int (a number of stops or
stop combinations), a Fraction, or a numpy array (several polynomials at once, multiplied entry by
entry).  Coefficients are never changed in place, so arrays shared between polynomials stay as
they were.  Exact: no float anywhere.
"""
from __future__ import annotations

from typing import Mapping, Sequence


def poly_mul(a: Mapping, b: Mapping) -> dict:
    """The product of two polynomials: exponents added, coefficients multiplied and summed.

    >>> poly_mul({0: 2, 1: 1}, {0: 1, 2: 3})
    {0: 2, 2: 6, 1: 1, 3: 3}
    >>> poly_mul({(0, 1): 1}, {(1, 1): 2, (0, 0): 1})
    {(1, 2): 2, (0, 1): 1}
    """
    out: dict = {}
    for i, x in a.items():
        for j, y in b.items():
            k = tuple(u + v for u, v in zip(i, j)) if isinstance(i, tuple) else i + j
            p = x * y
            out[k] = out[k] + p if k in out else p
    return out


def poly_product(polys: Sequence[Mapping]) -> dict:
    """The product of one or more polynomials (one per reel, in reel order).

    >>> poly_product([{0: 1, 1: 1}] * 3)      # 3 reels, each stop of 2 shows the symbol or not
    {0: 1, 1: 3, 2: 3, 3: 1}
    """
    acc = dict(polys[0])
    for p in polys[1:]:
        acc = poly_mul(acc, p)
    return acc


def dense(poly: Mapping[int, int]) -> list:
    """The coefficients of a polynomial in one int count, exponent 0 upwards (0 where absent).

    >>> dense({2: 5, 0: 1})
    [1, 0, 5]
    """
    return [poly.get(n, 0) for n in range(max(poly, default=-1) + 1)]
