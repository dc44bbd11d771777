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
from exact.distribution import DEFAULT_EDGES, distribution_json, distribution_text
from exact.round_distribution import buy_distribution, distribution_units, mode_distribution
from strips.loader import load_math_set
from strips.model import DEFAULT_MODE


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
    p.add_argument("--mode", metavar="NAME", default=None,
                   help="only the bet mode NAME (default: every bet mode and buy; the default mode as round)")
    p.add_argument("--buy", metavar="NAME", default=None, help="only the bought feature NAME")


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


def units_of(ms, mode: str | None, buy: str | None) -> list[tuple[str, str]]:
    """The (name, "mode" | "buy") units the command computes: every one (the default mode first), or the one
    ``--mode`` / ``--buy`` names; UsageError naming the known ones otherwise."""
    units = distribution_units(ms)
    if mode is not None and buy is not None:
        raise UsageError("rtp distribution: give --mode or --buy, not both")
    if mode is None and buy is None:
        return units
    name, kind = (mode, "mode") if mode is not None else (buy, "buy")
    if (name, kind) not in units:
        known = ", ".join(n for n, k in units if k == kind) or "none"
        raise UsageError(f"rtp distribution: {ms.name}: no {'bet mode' if kind == 'mode' else 'buy'} {name!r} "
                         f"(known: {known})")
    return [(name, kind)]


def plot_target(path: str, name: str, kind: str) -> str:
    """The PNG of one unit: ``FILE.png`` for the default mode, ``FILE.NAME.png`` for a bet mode,
    ``FILE.buy.NAME.png`` for a buy."""
    if (name, kind) == (DEFAULT_MODE, "mode"):
        return path
    stem = path[:-4] if path.lower().endswith(".png") else path
    return f"{stem}.{name}.png" if kind == "mode" else f"{stem}.buy.{name}.png"


def unit_title(ms, name: str, kind: str) -> str:
    if (name, kind) == (DEFAULT_MODE, "mode"):
        return ms.name
    return f"{ms.name} {'mode' if kind == 'mode' else 'buy'} {name}"


def run(args) -> int:
    """Compute and print the win distribution of every bet mode and buy (or the one asked); write the plots."""
    edges = parse_edges(args.ranges)
    ms = load_math_set(args.set)
    refuse_unsupported(ms, 'distribution')
    units = units_of(ms, getattr(args, "mode", None), getattr(args, "buy", None))
    for name, kind in units:
        if kind == "mode":
            refuse_unsupported(ms.mode(name), 'distribution')
    protected = protected_inputs(args.set, ms)
    targets = {} if args.plot is None else {
        u: check_output(plot_target(args.plot, *u), "rtp distribution", "file", protected, ".png") for u in units}
    exact = True if args.exact else None
    wds = {}
    try:
        for name, kind in units:
            wds[name, kind] = mode_distribution(ms, name, exact=exact) if kind == "mode" else \
                buy_distribution(ms, name, exact=exact)
    except ValueError as e:
        raise UsageError(f"rtp distribution: {ms.name}: {e}") from None
    for u, target in targets.items():
        write_output(target, plot_png(wds[u], unit_title(ms, *u), edges), protected, "rtp distribution")
    if args.json:
        print(json.dumps(units_json(ms, wds, edges)))
    else:
        print("".join(distribution_text(wd, unit_title(ms, *u), edges) for u, wd in wds.items()), end="")
    return 0


def units_json(ms, wds: dict, edges) -> dict:
    """The JSON of ``rtp distribution``: the default mode's keys at the top (``round``...), each other bet mode
    under ``modes.NAME`` and each buy under ``buy.NAME`` (the same keys, ``cost`` beside); one unit alone
    (``--mode`` / ``--buy``) at the top with ``mode`` or ``buy`` naming it."""
    if len(wds) == 1:
        (name, kind), wd = next(iter(wds.items()))
        out = distribution_json(wd, ms.name, edges)
        out[kind] = name
        out["cost"] = wd.bet
        return out
    out = distribution_json(wds[DEFAULT_MODE, "mode"], ms.name, edges)
    for key, kind in (("modes", "mode"), ("buy", "buy")):
        part = {}
        for (name, k), wd in wds.items():
            if k == kind and (name, k) != (DEFAULT_MODE, "mode"):
                d = distribution_json(wd, ms.name, edges)
                del d["set"]
                part[name] = {"cost": wd.bet, **d}
        if part:
            out[key] = part
    return out
