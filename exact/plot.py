"""The plot of a win distribution (matplotlib): survival P(win >= x) and the win ranges, log scale.

:func:`plot_distribution` draws, on one Axes with both scales logarithmic
(win in multiples of the bet, probability):

* the survival curve of the round, P(round win >= x), a line with markers;
* the survival curve of one base spin, dashed with other markers (so the base
  spin is seen beside the round, not hidden under it);
* the probability of each win range of the round (``WinDistribution.win_ranges``)
  as a horizontal segment over the range;
* the max win of a round and of a base spin as vertical lines, and a cap on the
  win when one is given;
* P(no win) of the round and of a base spin in a box.

The probability axis starts a half decade below the smallest win range shown,
and never below 1e-12 (below that a range holds no useful mass for a lab);
points below it are left out.  Values are floats for display only (an exact
figure is drawn as its float; a float round is within its proven bound).

``WinDistribution.plot(ax=None)`` and ``rtp distribution --plot`` call it.

Source: issue "The whole PAR sheet ... in the notebook" (survival and per-range
probability, data-led lower limit, P(no win), base vs round, cap and max win).
"""
from __future__ import annotations

from fractions import Fraction

from exact.formatting import significant

__all__ = ["plot_distribution", "FLOOR", "survival"]

#: The lowest probability the plot's axis goes down to.
FLOOR = 1e-12


def survival(items) -> tuple[list[float], list[float]]:
    """(wins, P(win >= w)) for every positive win of ``[(win, p), ...]`` ascending (floats).

    >>> survival([(0, Fraction(1, 2)), (2, Fraction(1, 4)), (5, Fraction(1, 4))])
    ([2.0, 5.0], [0.5, 0.25])
    """
    xs, ys, acc = [], [], 0.0
    for w, p in reversed(items):
        acc += float(p)
        if w > 0:
            xs.append(float(w))
            ys.append(acc)
    return xs[::-1], ys[::-1]


def _lower_limit(ranges) -> float:
    shown = [float(r.probability) for r in ranges if float(r.probability) > 0 and not (r.from_bets == r.to_bets == 0)]
    smallest = min([p for p in shown if p >= FLOOR], default=FLOOR)
    return max(FLOOR, smallest / 10 ** 0.5)


def plot_distribution(wd, ax=None, title: str | None = None, cap_bets=None, edges=None):
    """Draw the win distribution ``wd`` (an :class:`exact.distribution.WinDistribution`) on ``ax``.

    Parameters
    ----------
    wd : WinDistribution
    ax : matplotlib Axes, optional
        Drawn on; a new figure (9 x 5.5 in) when None.
    title : str, optional
    cap_bets : number, optional
        A cap on the round win (bets), marked when given (the game model has no win cap).

    Returns
    -------
    matplotlib Axes
        Its ``lower_limit`` attribute is the probability axis' lower end.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import exact
    >>> model = exact.load_math_set("rules_page").model
    >>> reel = ["FS", "PIC1", "AUS1", "FISH1", "AUS2"]
    >>> tiny = exact.math_set(model, {"base": [reel] * 5, "bonus": [["PIC1", "KEY", "AUS2", "AUS3"]] * 3
    ...                                + [["PIC1", "AUS4", "AUS2", "AUS3"]] * 2})
    >>> ax = exact.win_distribution(tiny, progress=False).plot()
    >>> ax.get_yscale(), ax.get_xscale(), ax.lower_limit >= FLOOR
    ('log', 'log', True)
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(9, 5.5))
    bet = wd.bet
    ranges = wd.win_ranges(edges) if edges is not None else wd.win_ranges()   # the table's ranges (--ranges)
    low = _lower_limit(ranges)
    round_label = "round" + (" (exact)" if wd.round.is_exact else f" (within {wd.round.bound:.1e})")
    xs, ys = survival(wd.round.items())
    keep = [(x / bet, y) for x, y in zip(xs, ys) if y >= low]
    if keep:
        ax.plot([x for x, _ in keep], [y for _, y in keep], "-o", ms=3, lw=1.4, markevery=max(1, len(keep) // 60),
                color="C0", label=f"P(round win >= x), {round_label}")
    bxs, bys = survival(wd.base.marginal())
    keep = [(x / bet, y) for x, y in zip(bxs, bys) if y >= low]
    if keep and wd.trigger_prob:
        ax.plot([x for x, _ in keep], [y for _, y in keep], "--s", ms=3, lw=1.2, markevery=max(1, len(keep) // 60),
                color="C1", label="P(base spin win >= x), exact")
    top = wd.max_round_win / bet
    first = True
    for r in ranges:
        p = float(r.probability)
        if r.from_bets == r.to_bets == 0 or p < low:
            continue
        a = max(float(r.from_bets), min(bxs[0] if bxs else 1, xs[0] if xs else 1) / bet)
        b = float(r.to_bets) if r.to_bets is not None else max(top, a * 2)
        ax.hlines(p, a, b, colors="C2", lw=3, alpha=0.7, label="P(round win in range)" if first else None)
        first = False
    ax.axvline(top, color="C3", ls=":", lw=1.2,
               label=f"max round win {_bets(wd.max_round_win, bet)} x bet"
               + ("" if wd.max_round_exact else " (largest with P > 1e-15)"))
    if wd.trigger_prob:
        ax.axvline(wd.base.max_win / bet, color="C1", ls=":", lw=1, label=f"max base spin win {_bets(wd.base.max_win, bet)} x bet")
    if cap_bets is not None:
        ax.axvline(float(cap_bets), color="k", ls="-.", lw=1.2, label=f"win cap {cap_bets} x bet")
    no_round = float(ranges[0].probability)
    no_base = float(wd.base_win_ranges()[0].probability)
    text = f"P(no win): round {no_round:.6g}" + (f", base spin {no_base:.6g}" if wd.trigger_prob else "")
    ax.text(0.99, 0.98, text, transform=ax.transAxes, ha="right", va="top", fontsize=9,
            bbox={"boxstyle": "round", "fc": "white", "ec": "0.7"})
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(low, 1.5)
    ax.set_xlabel("win x (multiples of the bet)")
    ax.set_ylabel("probability per round (per base spin for the base curve)")
    ax.set_title(title or "win distribution: survival and win ranges")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    ax.lower_limit = low
    return ax


def _bets(w: int, bet: int) -> str:
    x = Fraction(w, bet)
    return f"{x.numerator:,}" if x.denominator == 1 else significant(x, 12)

