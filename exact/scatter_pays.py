"""Scatter pays by count: P(the base spin shows n of a scatter), its pay and its RTP share, per count.

A scatter pays on its count anywhere in the window, each scatter symbol on its own count (the
triggering scatter counts the WILDs that ``counts_as_scatter`` too); the last paytable entry pays
for that many or more.  The count is a sum over reels of the symbol's cells in each reel's window,
and the reels stop independently, so its distribution is the product of one polynomial per reel
(stop counts by the number of the symbol's cells in the window), exact integers over the cycle.

Source: game file ``[symbols.NAME] pays`` of a scatter; the PAR rows a lab expects
(issue "The whole PAR sheet ...": scatter pays by count, probability, 1 in N, RTP share per count).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from strips.model import SCATTER, MathSet, Phase, window_table
from exact.rules import scatter_codes
from exact.polynomials import poly_product

__all__ = ["ScatterPayRow", "scatter_count_distribution", "scatter_pay_rows"]


@dataclass(frozen=True)
class ScatterPayRow:
    """One row: ``count`` of ``symbol`` in the window (``or_more``: that many or more, the paytable's last
    entry), its ``pay`` (credits), ``probability`` per base spin and ``rtp`` share (pay x probability x the
    phase multiplier / bet, a fraction of 1)."""

    symbol: str
    count: int
    or_more: bool
    pay: int
    probability: Fraction
    rtp: Fraction


def scatter_count_distribution(ms: MathSet, symbol: str, phase: Phase | None = None) -> dict[int, Fraction]:
    """{n: P(the window shows n cells counted as ``symbol``)} for one spin of ``phase`` (default base), exact.

    >>> import exact
    >>> d = scatter_count_distribution(exact.load_math_set("rules_page"), "FS")
    >>> sum(d.values()), d[3] + d[4] + d[5] == exact.par_sheet(exact.load_math_set("rules_page")).trigger_any
    (Fraction(1, 1), True)
    """
    model = ms.model
    phase = phase or model.base_phase
    codes = np.array(scatter_codes(model, model.symbol(symbol)), dtype=np.int64)
    shows = np.zeros(len(model.symbols), dtype=np.int64)
    shows[codes] = 1
    per_reel, total = [], 1
    for strip in ms.phase_strips(phase).codes:
        shown = window_table(strip, model.rows, shows)          # per stop: the symbol's cells in the window
        per_reel.append({n: int(x) for n, x in enumerate(np.bincount(shown))})
        total *= len(strip)
    poly = poly_product(per_reel)
    return {n: Fraction(poly[n], total) for n in sorted(poly) if poly[n]}


def scatter_pay_rows(ms: MathSet, phase: Phase | None = None) -> list[ScatterPayRow]:
    """Every paying count of every scatter symbol with pays, for one spin of ``phase`` (default base).

    The RTP shares sum to the phase's scatter-pay mean over the bet.

    >>> import exact
    >>> scatter_pay_rows(exact.load_math_set("rules_page"))   # its FS pays nothing
    []
    """
    model = ms.model
    phase = phase or model.base_phase
    out = []
    for s in model.of_kind(SCATTER):
        if not s.pays or not any(s.pays):
            continue
        dist = scatter_count_distribution(ms, s.name, phase)
        last = len(s.pays)
        for n in range(1, last + 1):
            pay = s.pays[n - 1]
            if not pay:
                continue
            p = sum((q for k, q in dist.items() if k >= n), Fraction(0)) if n == last else dist.get(n, Fraction(0))
            out.append(ScatterPayRow(s.name, n, n == last, pay, p, p * pay * phase.multiplier / model.bet))
    return out
