"""Wall time of ``rtp tune`` on the bundled set: one variant and the four usual variants.

Usage::

    python benchmarks/bench_tune.py [--set SET] [--repeat N] [--targets 0.96,0.94,0.92,0.88]

Runs :func:`exact.variants.tune` (MILP rounds, exact rechecks) for the first
target alone and then for every target, N times each, and prints the median,
the spread (min-max) and, per target, the exact RTP reached and the edit count.
Writing the sets and printing the diffs (``rtp tune``) adds about a second per
variant (two PAR reports), not included here.  Targets: one variant <= 30 s,
four <= 120 s on 2 cores.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exact.variants import tune  # noqa: E402
from strips.loader import load_math_set  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", default="rules_page")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--targets", default="0.96,0.94,0.92,0.88")
    args = p.parse_args(argv)
    ms = load_math_set(args.set)
    targets = [Fraction(t) for t in args.targets.split(",")]
    one, four = [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        tune(ms, targets[1] if len(targets) > 1 else targets[0])
        one.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        results = [tune(ms, t) for t in targets]
        four.append(time.perf_counter() - t0)
    for v in results:
        print(f"target {float(v.target):.4f}: exact RTP {float(v.rtp):.8f} met={v.met} edits {len(v.edits)} "
              f"(proven lower bound {v.lower_bound}) rounds {v.rounds}")
    print(f"one variant ({float(targets[1 if len(targets) > 1 else 0]):.2f}): median {statistics.median(one):.1f} s "
          f"(min {min(one):.1f}, max {max(one):.1f}) of {len(one)} runs")
    print(f"{len(targets)} variants: median {statistics.median(four):.1f} s (min {min(four):.1f}, max {max(four):.1f}) "
          f"of {len(four)} runs")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (other processes slow the figures down)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
