"""Throughput of the Monte Carlo simulator: whole game rounds per second.

Usage::

    python benchmarks/bench_simulate.py [--set SET] [--rounds N] [--seed S] [--workers W ...] [--units]

Prepares the tables once (timed separately), then simulates N rounds for each
worker count given (default: 1 and all cores) and prints rounds per second.
``--units``: every bet mode and buy of the set, the rounds split evenly
(what ``rtp simulate`` runs on a game with modes); default: the default mode.
The load average is printed too: other processes on the machine lower the
figure.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from proofs.simulate import prepare_units, simulate_units, split_rounds, units_of  # noqa: E402
from strips.loader import load_math_set  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", default=None)
    p.add_argument("--rounds", type=int, default=4_000_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, nargs="*", default=None)
    p.add_argument("--units", action="store_true", help="every bet mode and buy (default: the default mode)")
    args = p.parse_args(argv)
    ms = load_math_set(args.set)
    start = time.perf_counter()
    units = units_of(ms) if args.units else units_of(ms, mode="default")
    rounds = split_rounds(args.rounds, len(units))
    games = prepare_units(ms, units)
    print(f"set {ms.name}: tables prepared in {time.perf_counter() - start:.2f} s; "
          f"cpu_count {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}")
    for w in args.workers or sorted({1, os.cpu_count() or 1}):
        start = time.perf_counter()
        tallies = simulate_units(ms, rounds, args.seed, units, games, workers=w)
        dt = time.perf_counter() - start
        n, fs = sum(t.rounds for t in tallies), sum(t.free_spins for t in tallies)
        print(f"{w} worker(s): {n:,} rounds ({fs:,} free spins; {len(units)} unit(s)) in {dt:.2f} s "
              f"-> {n / dt:,.0f} rounds/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
