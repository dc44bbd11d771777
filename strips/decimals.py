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

__all__ = ["round_half_away", "int_text", "exact_text", "digit_count", "decimal_text", "safe_float", "EXACT_DIGITS"]


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


#: Most decimal digits of an exact integer printed in full (well below Python's 4,300-digit ``str`` limit,
#: which is never lifted); a longer one is printed by its digit count, without converting it to text.
EXACT_DIGITS = 4000

_LOG10_2 = 0.30102999566398119521


def digit_count(n: int) -> int:
    """Decimal digits of ``abs(n)`` (1 for 0), without converting it to text: from its bit length.

    Examples
    --------
    >>> digit_count(0), digit_count(999), digit_count(-1000), digit_count(10 ** 5000)
    (1, 3, 4, 5001)
    """
    n = abs(int(n))
    if n < 10 ** 18:
        return len(str(n))
    d = int((n.bit_length() - 1) * _LOG10_2) + 1   # the digits of 2^(bits - 1) <= n: d or d + 1
    return d + 1 if n >= 10 ** d else d


def int_text(n: int) -> str:
    """Decimal digits of an int; beyond :data:`EXACT_DIGITS` digits, its digit count instead.

    Examples
    --------
    >>> int_text(-1234)
    '-1234'
    >>> int_text(10 ** 5000)
    '(integer of 5,001 digits)'
    """
    d = digit_count(n)
    if d > EXACT_DIGITS:
        return f"({'-' if n < 0 else ''}integer of {d:,} digits)"
    return str(n)


def exact_text(x, ratio: bool = False) -> str:
    """``"p/q"`` (``"n"`` for an integer, unless ``ratio``) of an exact value; when either part has more than
    :data:`EXACT_DIGITS` digits, ``"(fraction of N/M digits)"`` (no part is converted to text).

    Examples
    --------
    >>> exact_text(Fraction(-3, 4)), exact_text(2), exact_text(2, ratio=True)
    ('-3/4', '2', '2/1')
    >>> exact_text(Fraction(10 ** 4500 + 1, 3))
    '(fraction of 4,501/1 digits)'
    """
    x = Fraction(x)
    dn, dd = digit_count(x.numerator), digit_count(x.denominator)
    if max(dn, dd) > EXACT_DIGITS:
        return f"({'-' if x < 0 else ''}fraction of {dn:,}/{dd:,} digits)"
    return str(x.numerator) if x.denominator == 1 and not ratio else f"{x.numerator}/{x.denominator}"


def safe_float(x) -> float | None:
    """``float(x)``, or None for a value beyond the float range (a JSON view's approximate field).

    >>> safe_float(Fraction(1, 4)), safe_float(Fraction(10 ** 400))
    (0.25, None)
    """
    try:
        return float(x)
    except OverflowError:
        return None


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
    if digit_count(whole) > EXACT_DIGITS:
        return f"{sign}(number of {digit_count(whole):,} digits)"
    head = f"{whole:,}" if grouping else int_text(whole)
    return f"{sign}{head}" + (f".{frac:0{digits}d}" if digits > 0 else "")
