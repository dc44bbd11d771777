"""Timing and peak memory of the win distribution (opt-in; not part of the test run).

Usage::

    python benchmarks/bench_distribution.py [--set SET] [--repeat N] [--round]

Prints the median and spread (min-max) of the wall time and the CPU time of the exact base-spin
distribution (``spin_distribution`` of the base phase: the one-spin DP of a ways game, the joint payline
chain of a line game) over ``--repeat`` runs; with ``--round`` also the whole round (``win_distribution``:
every level, every feature, the round with its tilted tail pass) and the peak RSS of the process.
Targets: base spin <= 2 s, whole round <= 30 s, peak RSS <= 2 GiB; a payline game such as Dolphin's Pearl
(``--set DIR`` of its game file and strips) under 10 s and 1 GiB for the round.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import time

from exact.distribution import spin_distribution, win_distribution
from strips.loader import load_math_set


def timed(fn, repeat):
    """(wall seconds of each run, CPU seconds of each run, the last result)."""
    times, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return times, cpu, out


def spread(times) -> str:
    return f"median {statistics.median(times):.2f} s, min {min(times):.2f} s, max {max(times):.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--round", action="store_true")
    a = ap.parse_args()
    ms = load_math_set(a.set)
    times, cpu, d = timed(lambda: spin_distribution(ms, ms.model.base_phase), a.repeat)
    print(f"base-spin distribution: {len(d.wins)} (scatter count, win) entries; wall {spread(times)}; "
          f"CPU {spread(cpu)}")
    if a.round:
        times, cpu, wd = timed(lambda: win_distribution(ms, progress=False), a.repeat)
        r = wd.round
        print(f"whole round: {'exact' if r.is_exact else f'{len(r.probabilities)} grid points, bound {r.bound:.2e}'}"
              f", {len(r.passes)} FFT passes; wall {spread(times)}; CPU {spread(cpu)}")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
