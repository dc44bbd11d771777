"""Exact decimal text of a Fraction, rounded half away from zero: the one decimal formatter.

The lowest layer's copy, so that the published-fact check (:mod:`strips.published`,
``Printed.show``) and every view above (:mod:`exact.formatting`, which re-exports
these names) print a number the same way.  No float enters: the rounding is done
on the Fraction.

Examples
--------
>>> from fractions import Fraction
>>> decimal_text(Fraction(1, 8), 2), decimal_text(Fraction(-1, 8), 2)
('0.13', '-0.13')
"""
from __future__ import annotations

import sys
from fractions import Fraction

__all__ = ["round_half_away", "int_text", "decimal_text"]


def round_half_away(x: Fraction, digits: int) -> Fraction:
    """``x`` rounded to ``digits`` decimal places, halves away from zero; exact.

    Parameters
    ----------
    x : Fraction or int
    digits : int
        Decimal places, >= 0.

    Returns
    -------
    Fraction

    Examples
    --------
    >>> round_half_away(Fraction(5, 2), 0), round_half_away(Fraction(-5, 2), 0)
    (Fraction(3, 1), Fraction(-3, 1))
    """
    x = Fraction(x)
    scale = 10 ** digits
    q = (abs(x) * scale + Fraction(1, 2)).__floor__()
    return Fraction(q if x >= 0 else -q, scale)


def int_text(n: int) -> str:
    """Decimal digits of an int of any length (exact figures can pass Python's 4300-digit ``str`` limit).

    Examples
    --------
    >>> len(int_text(10 ** 5000))
    5001
    """
    try:
        return str(n)
    except ValueError:
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return str(n)
        finally:
            sys.set_int_max_str_digits(old)


def decimal_text(x: Fraction, digits: int, grouping: bool = False) -> str:
    """Exact decimal text of ``x`` to ``digits`` places (half away from zero: :func:`round_half_away`).

    ``grouping`` puts thousands separators in the whole part (``"203,451"``).

    Examples
    --------
    >>> decimal_text(Fraction(2, 3), 0), decimal_text(Fraction(1, 3), 4)
    ('1', '0.3333')
    >>> decimal_text(Fraction(4069011, 20), 0, grouping=True)
    '203,451'
    """
    q = round_half_away(x, digits)
    sign = "-" if q < 0 else ""
    q = abs(q)
    whole, frac = divmod(q.numerator * 10 ** digits // q.denominator, 10 ** digits)
    head = f"{whole:,}" if grouping else int_text(whole)
    return f"{sign}{head}" + (f".{frac:0{digits}d}" if digits > 0 else "")
