"""Display text of exact figures: the one formatting module of every view (text, JSON, XLSX, certificate).

The rounding rule
-----------------
Every decimal shown by ``rtp`` is the exact Fraction rounded **half away from
zero** ("half up" on magnitudes: ``0.125 -> 0.13``, ``-0.125 -> -0.13``), the
rule rules pages and PAR sheets print with.  No float is ever rounded for an
exact figure: the rounding is done on the Fraction.  (A published fact keeps
its own comparison rule in :mod:`strips.published`; that is a fact of the
page, not a display choice.)  :func:`decimal_text`, :func:`round_half_away` and :func:`int_text` are
:mod:`strips.decimals`' (the one copy, which the published-fact check prints
with too), re-exported here.

Examples
--------
>>> from fractions import Fraction
>>> decimal_text(Fraction(1, 8), 2), decimal_text(Fraction(-1, 8), 2)
('0.13', '-0.13')
>>> percent(Fraction(211, 500), 3)
'42.200%'
>>> fraction_text(Fraction(211, 500)), fraction_text(Fraction(4))
('211/500', '4')
>>> one_in(Fraction(1, 180))
'1 in 180.00'
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Mapping

from strips.decimals import decimal_text, digit_count, exact_text, int_text, round_half_away

__all__ = ["ROUNDING", "sig_fraction", "digits_text", "round_half_away", "int_text", "fraction_text", "short_fraction_text", "decimal_text",
           "significant", "percent", "one_in", "value_text", "table_lines"]

#: The one rounding rule of every view, in words (README, certificate).
ROUNDING = "half away from zero"


def fraction_text(x: Fraction) -> str:
    """``"p/q"`` (or ``"n"`` for an integer): the exact form of JSON, CSV and XLSX ``exact`` cells; a part of
    more than :data:`strips.decimals.EXACT_DIGITS` digits is shown by the digit counts (:func:`exact_text`).

    Examples
    --------
    >>> fraction_text(Fraction(-3, 4))
    '-3/4'
    """
    return exact_text(x)


def short_fraction_text(x: Fraction, limit: int = 120) -> str:
    """:func:`fraction_text`, or its digit counts when longer than ``limit`` characters (text views);
    the length is found from the digit counts, never by converting the parts.

    Examples
    --------
    >>> short_fraction_text(Fraction(1, 3))
    '1/3'
    >>> short_fraction_text(Fraction(10 ** 30 + 1, 3 ** 70), limit=20)
    '(fraction of 31/34 digits)'
    """
    x = Fraction(x)
    dn, dd = digit_count(x.numerator), digit_count(x.denominator)
    if dn + (dd + 1 if x.denominator != 1 else 0) + (x < 0) <= limit:
        return exact_text(x)
    return f"(fraction of {dn:,}/{dd:,} digits)"


def significant(x: Fraction, figures: int = 6) -> str:
    """Exact decimal text of ``x`` to ``figures`` significant digits (:data:`ROUNDING`), never an exponent.

    Examples
    --------
    >>> significant(Fraction(24576, 5 * 10 ** 9)), significant(Fraction(1, 3), 3), significant(Fraction(0))
    ('0.0000049152', '0.333', '0')
    """
    x = Fraction(x)
    if x == 0:
        return "0"
    places, a = figures - 1, abs(x)
    while a >= 10:
        a, places = a / 10, places - 1
    while a < 1:
        a, places = a * 10, places + 1
    text = decimal_text(x, max(places, 0))
    return text.rstrip("0").rstrip(".") if "." in text else text


def scientific(x: Fraction, figures: int = 6) -> str:
    """Exact ``m.mmmmme[+-]NN`` text of ``x`` (``figures`` significant digits, :data:`ROUNDING`), for
    values a float cannot hold (beyond about 1e308 or below 1e-308).

    Examples
    --------
    >>> scientific(Fraction(895, 10 ** 385)), scientific(Fraction(10 ** 400, 3), 3), scientific(Fraction(0))
    ('8.95e-383', '3.33e+399', '0')
    """
    x = Fraction(x)
    if x == 0:
        return "0"
    a, e = abs(x), 0
    # a first jump by the sizes of numerator and denominator, then exact steps
    e = (a.numerator.bit_length() - a.denominator.bit_length()) * 30103 // 100000
    a = a / Fraction(10) ** e
    while a >= 10:
        a, e = a / 10, e + 1
    while a < 1:
        a, e = a * 10, e - 1
    m = round_half_away(a, figures - 1)
    if m >= 10:
        m, e = m / 10, e + 1
    text = decimal_text(m, figures - 1).rstrip("0").rstrip(".")
    return f"{'-' if x < 0 else ''}{text}e{'+' if e >= 0 else '-'}{abs(e):02d}"


def percent(x: Fraction, digits: int) -> str:
    """``x`` (a fraction of 1) as a percentage with ``digits`` places, e.g. ``"85.225703%"``.

    Examples
    --------
    >>> percent(Fraction(1, 3), 2)
    '33.33%'
    """
    return decimal_text(100 * Fraction(x), digits) + "%"


def one_in(p: Fraction, digits: int = 2) -> str:
    """``"1 in N"`` with N = 1/p to ``digits`` places, or ``"never"`` for p = 0; N of 10^15 or more
    in exact scientific notation (6 significant digits) rather than hundreds of digits.

    Examples
    --------
    >>> one_in(Fraction(3, 8)), one_in(Fraction(0)), one_in(Fraction(895, 10 ** 385))
    ('1 in 2.67', 'never', '1 in 1.11732e+382')
    """
    if p == 0:
        return "never"
    n = 1 / Fraction(p)
    return f"1 in {scientific(n) if n >= 10 ** 15 else decimal_text(n, digits)}"


def sig_fraction(x, digits: int) -> str:
    """An exact int/Fraction >= 0 rounded (half to even) to ``digits`` significant digits, e.g. ``1.23457e-05``.

    Plain notation from 1e-4 to below 1e7 (the win distribution's and the probability tables' rule).

    >>> sig_fraction(Fraction(1, 81), 6), sig_fraction(Fraction(123456789, 10 ** 13), 3)
    ('0.0123457', '1.23e-05')
    """
    x = Fraction(x)
    if x == 0:
        return "0"
    n, d = x.numerator, x.denominator
    e = len(str(n)) - len(str(d))
    if Fraction(10) ** e > x:
        e -= 1
    if Fraction(10) ** (e + 1) <= x:
        e += 1
    m = round(x / Fraction(10) ** (e - digits + 1))
    if m >= 10 ** digits:
        m //= 10
        e += 1
    return digits_text(str(m), e)


def digits_text(mant: str, e: int) -> str:
    """Significant digits ``mant`` (first digit non-zero) times 10^(e - len + 1) as text.

    >>> digits_text("125", 1), digits_text("125", 8)
    ('12.5', '1.25e+08')
    """
    if -4 <= e < 7:
        if e >= len(mant) - 1:
            return mant + "0" * (e - len(mant) + 1)
        if e >= 0:
            return mant[:e + 1] + "." + mant[e + 1:]
        return "0." + "0" * (-e - 1) + mant
    return (mant[0] + ("." + mant[1:] if len(mant) > 1 else "")) + f"e{e:+03d}"


def _non_default(f: dataclasses.Field, value) -> bool:
    if f.default is not dataclasses.MISSING:
        return value != f.default
    if f.default_factory is not dataclasses.MISSING:
        return value != f.default_factory()
    return True


def value_text(x) -> str:
    """A value for a reader, never a Python repr: Fraction -> ``p/q``, bool -> yes/no, None -> none,
    tuples and lists -> comma-separated (empty: none; dataclasses ``;``-separated), mappings
    ``key: value``, a dataclass ``name (field value, ...)`` with its fields that differ from
    their defaults, other values -> ``str``.

    Examples
    --------
    >>> value_text(Fraction(211, 500)), value_text(True), value_text(None), value_text(())
    ('211/500', 'yes', 'none', 'none')
    >>> value_text(((3, 10), (4, 15)))
    '3: 10, 4: 15'
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Mode:
    ...     name: str
    ...     cost: int
    ...     trigger: tuple = ()
    >>> value_text((Mode("ante", 15), Mode("alt", 30, ((3, 1),))))
    'ante (cost 15); alt (cost 30, trigger 3: 1)'
    """
    if isinstance(x, bool):
        return "yes" if x else "no"
    if x is None:
        return "none"
    if isinstance(x, Fraction):
        return fraction_text(x)
    if isinstance(x, (frozenset, set)):
        x = sorted(x)
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        shown = [(f.name, getattr(x, f.name)) for f in dataclasses.fields(x) if _non_default(f, getattr(x, f.name))]
        head = ""
        if shown and shown[0][0] == "name":
            head, shown = str(shown[0][1]), shown[1:]
        body = ", ".join(f"{k.replace('_', ' ')} {_nested(v)}" for k, v in shown)
        return f"{head} ({body})" if head and body else head or body or "default"
    if isinstance(x, (tuple, list)):
        if not x:
            return "none"
        if all(dataclasses.is_dataclass(e) for e in x):
            return "; ".join(value_text(e) for e in x)
        if all(isinstance(e, tuple) and len(e) == 2 for e in x):
            return ", ".join(f"{value_text(a)}: {value_text(b)}" for a, b in x)
        return ", ".join(value_text(e) for e in x)
    if isinstance(x, Mapping):
        return ", ".join(f"{k}: {value_text(v)}" for k, v in x.items()) or "none"
    return str(x)


def _nested(x) -> str:
    """:func:`value_text` of a value inside a dataclass: parentheses around a nested dataclass or list."""
    text = value_text(x)
    if (dataclasses.is_dataclass(x) and not text.endswith(")")) or (isinstance(x, (tuple, list)) and len(x) > 1
                                                                     and any(dataclasses.is_dataclass(e) for e in x)):
        return f"({text})"
    return text


def table_lines(headers: list[str], rows: list[list[str]], align: str | None = None) -> list[str]:
    """An aligned text table: header, rule, rows; column 1 left-aligned, the rest right-aligned by default.

    Examples
    --------
    >>> print("\\n".join(table_lines(["n", "p"], [["3", "0.5"], ["10", "0.25"]])))
    n      p
    --  ----
    3    0.5
    10  0.25
    """
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    align = align or "l" + "r" * (len(headers) - 1)

    def fmt(cells):
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, align)).rstrip()
    return [fmt(headers), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]
