"""``rtp simulate``: Monte Carlo of whole game rounds beside the exact values."""
from __future__ import annotations

import json
import sys
import time

from exact.cli.args import (UsageError, add_cluster_arguments, add_set_argument, cluster_of, int64_refusal, int_range,
                            refuse_bonus_rules)
from proofs.simulate import (DEFAULT_ROUNDS, DEFAULT_SEED, SMALL_RUN, exact_values, format_report, prepare, report,
                             simulate)
from strips.loader import load_math_set


def add_arguments(p) -> None:
    """Options of ``rtp simulate``."""
    add_set_argument(p)
    p.add_argument("--rounds", type=int_range(1), default=DEFAULT_ROUNDS,
                   help=f"game rounds to simulate (default {DEFAULT_ROUNDS:,})")
    p.add_argument("--seed", type=int_range(0), default=DEFAULT_SEED, help=f"seed (default {DEFAULT_SEED})")
    add_cluster_arguments(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def run(args) -> int:
    """Simulate, print the figures beside their exact values; exit 1 if one lies outside its interval."""
    ms = load_math_set(args.set)
    if ms.model.catalogue_rule:   # issue 15 rules: the simulator (proofs/simulate.py) plays ways games only
        raise UsageError(f"rtp simulate: unsupported rule for the simulator: {ms.model.catalogue_rule}")
    refuse_bonus_rules(ms, 'simulate', ("[gamble]", "[buy]"))
    cluster = cluster_of(args)
    try:
        game = prepare(ms)
        exact = exact_values(ms)
        start = time.perf_counter()
        tally = simulate(ms, args.rounds, args.seed, game=game, cluster=cluster,
                         progress=not args.no_progress and not args.json and sys.stderr.isatty())
    except (ValueError, OverflowError) as e:
        raise int64_refusal("rtp simulate", ms.name, e, "the exact figures need no simulation: use rtp report "
                            "(or rtp prove --rounds 0)") from None
    rep = report(ms, tally, args.seed, exact, time.perf_counter() - start,
                 cluster.describe(small=args.rounds < SMALL_RUN))
    if args.json:
        print(json.dumps({"set": ms.name, **rep.to_json()}, indent=2))
    else:
        print(format_report(rep, ms.name))
    return 0 if rep.passed else 1
