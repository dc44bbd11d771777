"""Exact derivation of the per-reel FS and KEY counts the published probabilities force.

With 3 or more pay symbols between any two special symbols (section 3), a
window of 4 rows shows at most one special symbol per reel.  A special symbol
at strip position ``p`` is in the window for exactly the 4 stops
``p-3 .. p``, so a reel that carries ``c`` copies of a special symbol shows it
on ``4c`` of its 100 stops:

    p_r = rows * c_r / length = 4 c_r / 100 = c_r / 25.

The reels are independent (section 3), so the number N of reels that show the
symbol is a sum of independent Bernoulli(p_r) variables and

    P(N = n) = sum over reel subsets S with |S| = n of
               prod_{r in S} p_r * prod_{r not in S} (1 - p_r),

an elementary symmetric polynomial in the p_r (with the 1 - p_r as
co-factors).  Every figure here is an exact ``Fraction``.  The searches run
over every count vector the strip rules allow (0 .. 25 copies per reel, since
no more than 100 / 4 specials fit on a reel with the spacing rule) and keep
those whose probabilities round to the printed figures.

Source: rules page sections 3, 10, 11 and 13.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction
from itertools import combinations_with_replacement, product
from math import comb, prod

from proofs.reconstruction.rules_page import (
    KEY_2PLUS,
    MIN_PAY_BETWEEN_SPECIALS,
    ROWS,
    STRIP_LENGTH,
    TOTALS,
    TRIGGER_FREQUENCY,
    TRIGGER_PROBABILITY,
    rounds_to,
)

#: Most special symbols one reel strip can hold under the spacing rule (25).
MAX_SPECIALS = STRIP_LENGTH // (MIN_PAY_BETWEEN_SPECIALS + 1)


def count_distribution(counts, rows: int = ROWS, length: int = STRIP_LENGTH) -> tuple[Fraction, ...]:
    """Exact P(N = n), n = 0 .. len(counts), of the number of reels showing a symbol.

    Parameters
    ----------
    counts : sequence of int, length = reels considered
        Copies of the symbol on each reel strip.
    rows, length : int
        Window rows and strip length (section 3).

    Returns
    -------
    tuple of Fraction, length len(counts) + 1
        Index n is P(exactly n reels show the symbol), per spin.

    Notes
    -----
    Valid when the spacing rule holds, so a window shows each copy on
    ``rows`` stops and never two copies on one reel: p_r = rows c_r / length.
    """
    numerators = count_numerators(counts, rows, length)
    denominator = length ** len(counts)
    out = [Fraction(x, denominator) for x in numerators]
    return tuple(out)


def count_numerators(counts, rows: int = ROWS, length: int = STRIP_LENGTH) -> tuple[int, ...]:
    """Integer numerators of :func:`count_distribution` over ``length ** len(counts)``.

    The coefficients of prod_r ((length - rows c_r) + rows c_r x): coefficient
    n is length**reels * P(N = n), an exact integer.
    """
    poly = [1]
    for c in counts:
        hit, miss = rows * c, length - rows * c
        nxt = [0] * (len(poly) + 1)
        for n, a in enumerate(poly):
            nxt[n] += a * miss
            nxt[n + 1] += a * hit
        poly = nxt
    return tuple(poly)


@dataclass(frozen=True)
class FsCheck:
    """The FS trigger figures of one multiset of per-reel FS counts.

    Attributes
    ----------
    counts : tuple of int, length 5, ascending
    prob : tuple of Fraction, length 6
        P(exactly n FS symbols) per base spin, n = 0..5.
    ok : dict int -> (bool, bool)
        For n = 3, 4, 5: (probability rounds to the page, frequency rounds to the page).
    """

    counts: tuple[int, ...]
    prob: tuple[Fraction, ...]
    ok: dict

    @property
    def passes(self) -> bool:
        return all(a and b for a, b in self.ok.values())


def fs_check(counts) -> FsCheck:
    """Exact trigger probabilities and frequencies of one FS count vector (section 10)."""
    prob = count_distribution(counts)
    ok = {}
    for n, printed in TRIGGER_PROBABILITY.items():
        freq_ok = prob[n] > 0 and rounds_to(1 / prob[n], TRIGGER_FREQUENCY[n])
        ok[n] = (rounds_to(prob[n], printed), freq_ok)
    return FsCheck(tuple(counts), prob, ok)


@lru_cache(maxsize=None)
def fs_count_solutions(reels: int = 5) -> tuple[tuple[FsCheck, ...], int]:
    """Every multiset of per-reel FS counts whose 6 printed figures all round right.

    The probabilities depend on the counts only as a multiset, so the search
    runs over ascending vectors ``0 <= c_1 <= ... <= c_5 <= 25``.

    Returns
    -------
    (tuple of FsCheck, int)
        The passing multisets, and how many multisets were searched.
        Cached: the search runs once per process.
    """
    found, searched = [], 0
    top = max(TRIGGER_PROBABILITY)
    printed_top = TRIGGER_PROBABILITY[top]
    for counts in combinations_with_replacement(range(MAX_SPECIALS + 1), reels):
        searched += 1
        # fast exact pre-test on the rarest figure, then every figure
        top_prob = Fraction(count_numerators(counts)[top], STRIP_LENGTH ** reels)
        if not rounds_to(top_prob, printed_top):
            continue
        check = fs_check(counts)
        if check.passes:
            found.append(check)
    return tuple(found), searched


def key_2plus(counts) -> Fraction:
    """Exact P(2 or more KEY symbols in the window), per spin, from per-reel KEY counts."""
    return sum(count_distribution(counts)[2:], Fraction(0))


def key_count_solutions(strip_set: str, key_reels: int = 3) -> tuple[list[tuple[tuple[int, ...], Fraction]], int]:
    """Every vector of KEY counts on reels 1..3 with the page's total and P(2+ KEY).

    Parameters
    ----------
    strip_set : str
        ``"base"`` (3 KEY, 0.47%) or ``"bonus"`` (5 KEY, 1.23%).

    Returns
    -------
    (list of (counts, P(2+ KEY)), int)
        Passing ordered vectors (reel 1 first) and how many vectors with the
        right total were searched.
    """
    total = TOTALS[strip_set]["KEY"]
    found, searched = [], 0
    for counts in product(range(total + 1), repeat=key_reels):
        if sum(counts) != total:
            continue
        searched += 1
        p = key_2plus(counts)
        if rounds_to(p, KEY_2PLUS[strip_set]):
            found.append((counts, p))
    return found, searched


def window_likelihood(count: int, observed: int, shown: int, length: int = STRIP_LENGTH) -> Fraction:
    """Hypergeometric likelihood of seeing ``observed`` copies in ``shown`` published positions.

    The probability that ``shown`` distinct strip positions, drawn without
    replacement from a strip of ``length`` that holds ``count`` copies of a
    symbol, contain exactly ``observed`` copies (spacing ignored).  Exact.
    """
    if observed > count or shown - observed > length - count:
        return Fraction(0)
    return Fraction(comb(count, observed) * comb(length - count, shown - observed), comb(length, shown))


def most_likely(candidates, observed, shown) -> tuple[int, ...]:
    """The candidate count vector that makes the published windows most likely.

    Among ``candidates`` (per-reel count vectors that all satisfy the
    published facts) with ``count >= observed`` on each reel, take the one
    that maximises the product over reels of :func:`window_likelihood`; ties
    go to the candidate first in ascending lexicographic order.

    Parameters
    ----------
    candidates : iterable of sequence of int
        Per-reel counts, one entry per reel considered.
    observed, shown : sequence of int, same length
        Per reel: copies seen in the published windows, and distinct
        published positions.

    Returns
    -------
    tuple of int
        The chosen counts, one per reel.

    Raises
    ------
    ValueError
        If no candidate is compatible with the published windows.
    """
    best, best_like = None, Fraction(-1)
    for order in sorted({tuple(c) for c in candidates}):
        if any(c < o for c, o in zip(order, observed)):
            continue
        like = prod(window_likelihood(c, o, n) for c, o, n in zip(order, observed, shown))
        if like > best_like:
            best, best_like = order, like
    if best is None:
        raise ValueError(f"no candidate count vector fits the published windows {tuple(observed)}")
    return best
