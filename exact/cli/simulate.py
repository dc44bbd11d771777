"""``rtp simulate``: Monte Carlo of whole game rounds beside the exact values."""
from __future__ import annotations

import json
import sys

from exact.cli import grid as grid_cli
from exact.grid import is_grid
from exact.cli.args import (UsageError, add_cluster_arguments, add_mode_arguments, add_set_argument, cluster_of,
                            int64_refusal, int_range, refuse_unsupported)
from exact.falls import falls_game
from proofs.simulate import DEFAULT_ROUNDS, DEFAULT_SEED, format_report, run_simulation
from proofs.simulate_falls import simulate_falls
from strips.limits import exceeds, refusal
from strips.loader import load_math_set


def add_arguments(p) -> None:
    """Options of ``rtp simulate``."""
    add_set_argument(p)
    p.add_argument("--rounds", type=int_range(1), default=DEFAULT_ROUNDS,
                   help=f"game rounds to simulate (default {DEFAULT_ROUNDS:,}); split evenly over the bet modes "
                        "and buys of a game that has them")
    p.add_argument("--seed", type=int_range(0), default=DEFAULT_SEED, help=f"seed (default {DEFAULT_SEED})")
    add_mode_arguments(p)
    add_cluster_arguments(p)
    grid_cli.add_simulate_arguments(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def simulation(ms, args, cluster, progress: bool, command: str):
    """Run the simulation the options ask for (:func:`proofs.simulate.run_simulation`): a SimulationReport.

    Raises
    ------
    UsageError
        An unknown mode or buy, fewer rounds than units, a rule the simulator
        or the engine cannot play (one line naming it), int64 overflow.
    """
    limit = exceeds("rounds", args.rounds)
    if limit is not None:
        raise UsageError(f"{command}: {ms.name}: {refusal('rounds', args.rounds, limit, 'simulated game rounds')}")
    try:
        return run_simulation(ms, args.rounds, args.seed, mode=getattr(args, "mode", None),
                              buy=getattr(args, "buy", None), cluster=cluster, progress=progress)
    except (ValueError, OverflowError) as e:
        raise int64_refusal(command, ms.name, e, "the exact figures need no simulation: use rtp report "
                            "(or rtp prove --rounds 0)") from None


def run(args) -> int:
    """Simulate, print the figures beside their exact values; exit 1 if one lies outside its interval."""
    ms = load_math_set(args.set)
    refuse_unsupported(ms, 'simulate')
    if is_grid(ms):   # a grid of independent cells: the certified simulation of its rounds
        return grid_cli.simulate(args, ms)
    if args.target_halfwidth is not None:
        raise UsageError("rtp simulate: --target-halfwidth is for grid games (give --rounds)")
    if falls_game(ms.model):   # spins that fall: every spin played fall by fall (proofs.simulate_falls)
        limit = exceeds("rounds", args.rounds)
        if limit is not None:
            raise UsageError(f"rtp simulate: {ms.name}: {refusal('rounds', args.rounds, limit, 'simulated game rounds')}")
        fr = simulate_falls(ms, args.rounds, args.seed)
        print(json.dumps({"set": ms.name, **fr.to_json()}, indent=2) if args.json else format_report(fr, ms.name))
        return 0 if fr.passed else 1
    cluster = cluster_of(args)
    rep = simulation(ms, args, cluster, not args.no_progress and not args.json and sys.stderr.isatty(),
                     "rtp simulate")
    if args.json:
        print(json.dumps({"set": ms.name, **rep.to_json()}, indent=2))
    else:
        print(format_report(rep, ms.name))
    return 0 if rep.passed else 1
