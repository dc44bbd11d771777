"""pandas views of the PAR sheet and the win distribution (the ``notebook`` extra).

``ParSheet.tables()`` / ``ParSheet.table(name)`` and ``WinDistribution.tables()``
/ ``WinDistribution.to_frame()`` call the functions here.  pandas is imported
only when one of them runs; without it they raise :class:`ImportError` with one
line saying how to install it (``pip install 'slot-exact[notebook]'``), and
nothing else of the package needs it.

Every figure column (:mod:`exact.tables`: exact ints and Fractions, dtype
``object``, or floats within a stated bound where the figure is not exact) has
a float column beside it named with the suffix ``_float`` (as in the JSON
report), for plotting and sorting; the figure column is the figure.  Counts
(ints) and float-only columns (square roots, bounds) have no partner.

Source: issue "The whole PAR sheet ... in the notebook" (DataFrames of every
report table, exact Fraction column plus a float column beside it).
"""
from __future__ import annotations

from fractions import Fraction

from exact.tables import Table

__all__ = ["pandas", "frame", "frames", "distribution_frame", "NOTEBOOK_HINT"]

NOTEBOOK_HINT = "pandas is needed for DataFrames: pip install 'slot-exact[notebook]' (or pip install pandas)"

_EXACT_KINDS = ("probability", "rtp", "credits", "number", "count")


def pandas():
    """The pandas module, or ImportError with one line naming the extra to install."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(NOTEBOOK_HINT) from None
    return pd


def _float(x):
    if x is None:
        return float("nan")
    if isinstance(x, str):
        return float("nan")
    return float(x)


def frame(t: Table):
    """One :class:`exact.tables.Table` as a DataFrame: its columns, and beside each exact column
    (ints/Fractions) its ``_float`` column.  ``df.attrs`` holds the title, note and units.

    An odds column (``1 in N``) is a float column of N (its exact form is 1 / the probability).
    """
    pd = pandas()
    data: dict = {}
    units: dict = {}
    for j, c in enumerate(t.columns):
        values = [row[j] for row in t.rows]
        units[c.name] = c.unit
        if c.kind == "odds":
            data[c.name] = [_float(v) for v in values]
            continue
        data[c.name] = pd.Series(values, dtype=object) if c.kind != "bool" else values
        if c.kind in _EXACT_KINDS and (c.kind != "count" or any(isinstance(v, Fraction) for v in values)):
            data[c.name + "_float"] = [_float(v) for v in values]
    df = pd.DataFrame(data)
    df.attrs.update({"name": t.name, "title": t.title, "note": t.note, "units": units})
    return df


def frames(tables: dict) -> dict:
    """{name: DataFrame} of :func:`frame` for every table."""
    return {k: frame(t) for k, t in tables.items()}


def distribution_frame(wd, which: str = "round"):
    """The whole distribution of the round (``which="round"``) or of one base spin (``"base"``) as a
    DataFrame, one row per win: ``win_credits`` (int), ``win_bets`` (exact), ``probability`` (exact
    Fraction, or a float within ``bound``), ``probability_float``, ``bound``, ``at_least_float``
    (P(win >= this win), a display float summed from the rows).

    Raises
    ------
    ValueError
        ``which`` is neither ``"round"`` nor ``"base"``.
    """
    pd = pandas()
    if which == "round":
        items, bound = wd.round.items(), wd.round.bound
    elif which == "base":
        items, bound = wd.base.marginal(), 0.0
    else:
        raise ValueError(f"which must be 'round' or 'base', got {which!r}")
    probs = [float(p) for _, p in items]
    survival, acc = [], 0.0
    for p in reversed(probs):
        acc += p
        survival.append(acc)
    survival.reverse()
    bets = [Fraction(w, wd.bet) for w, _ in items]
    df = pd.DataFrame({"win_credits": [int(w) for w, _ in items],
                       "win_bets": pd.Series([b.numerator if b.denominator == 1 else b for b in bets], dtype=object),
                       "win_bets_float": [float(b) for b in bets],
                       "probability": pd.Series([p for _, p in items], dtype=object),
                       "probability_float": probs, "bound": [float(bound)] * len(items),
                       "at_least_float": survival})
    df.attrs.update({"which": which, "bet": wd.bet, "exact": which == "base" or wd.round.is_exact})
    return df
