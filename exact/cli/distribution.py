"""``rtp distribution``: the whole win distribution of a math set.

Prints the win-range table in multiples of the bet, the hit frequency of the
round, P(round win >= k x bet), percentiles of the round and of the feature per
trigger, and the largest win of a base spin, of a free spin per level and of a
round with its probability; ``--json`` one JSON object (keys in README.md);
``--plot FILE.png`` a log-scale plot: survival P(win >= x) of the round and of a
base spin, the probability of each win range, P(no win), the max wins
(:mod:`exact.plot`).
"""
from __future__ import annotations

import json
from fractions import Fraction

from exact.cli.args import UsageError, add_set_argument, exact_number, refuse_unsupported
from exact.cli.outputs import check_output, protected_inputs, write_output
from exact.distribution import DEFAULT_EDGES, distribution_json, distribution_text, win_distribution
from strips.loader import load_math_set


def add_arguments(p) -> None:
    add_set_argument(p)
    p.add_argument("--json", action="store_true",
                   help="one JSON object: exact probabilities as \"p/q\" strings, floats within error_bound")
    p.add_argument("--ranges", metavar="EDGES", default=None,
                   help="win-range edges in bets, ascending from 0, e.g. 0,1,2,5,10 (default "
                        + ",".join(map(str, DEFAULT_EDGES)) + ")")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="write a log-scale PNG: survival P(win >= x) of the round and base spin, win ranges, max win")
    p.add_argument("--exact", action="store_true",
                   help="compute the round exactly with Fractions (small games; slow when wins are many)")


#: Most edges of ``--ranges`` (each range is a row of the table; 200 rows are more than a PAR sheet shows).
MAX_RANGE_EDGES = 200


def parse_edges(text: str | None) -> tuple:
    """``"0,1,2.5"`` -> (0, 1, 5/2) in bets; UsageError unless ascending from 0."""
    if text is None:
        return DEFAULT_EDGES
    parts = text.split(",")
    if len(parts) > MAX_RANGE_EDGES:
        raise UsageError(f"rtp distribution: --ranges: {len(parts):,} edges, more than the {MAX_RANGE_EDGES} a "
                         f"table of win ranges holds")
    edges = tuple(exact_number(x, "rtp distribution: --ranges: each edge") for x in parts)
    if not edges or edges[0] != 0 or any(b <= a for a, b in zip(edges, edges[1:])):
        raise UsageError(f"rtp distribution: --ranges must start at 0 and ascend strictly, got {text!r}")
    return edges


def plot_png(wd, name: str, edges=None):
    """A writer callable for :func:`write_output`: the PNG of :func:`exact.plot.plot_distribution`."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def write(f):
        fig, ax = plt.subplots(figsize=(9, 5.5))
        wd.plot(ax=ax, title=f"{name}: win distribution (survival and win ranges)", edges=edges)
        fig.tight_layout()
        fig.savefig(f, format="png", dpi=110)
        plt.close(fig)
    return write


def run(args) -> int:
    """Compute and print the win distribution; write the plot if asked."""
    edges = parse_edges(args.ranges)
    ms = load_math_set(args.set)
    refuse_unsupported(ms, 'distribution')
    protected = protected_inputs(args.set, ms)
    target = None if args.plot is None else check_output(args.plot, "rtp distribution", "file", protected, ".png")
    try:
        wd = win_distribution(ms, exact=True if args.exact else None)
    except ValueError as e:
        raise UsageError(f"rtp distribution: {ms.name}: {e}") from None
    if target is not None:
        write_output(target, plot_png(wd, ms.name, edges), protected, "rtp distribution")
    if args.json:
        print(json.dumps(distribution_json(wd, ms.name, edges)))
    else:
        print(distribution_text(wd, ms.name, edges), end="")
    return 0
