"""Throughput of the exhaustive enumeration on a slice of reel-1 stops, extrapolated to the whole set.

Usage::

    python benchmarks/bench_enumerate.py [--set SET] [--stops N] [--workers W] [--phase base|1..4]

Enumerates the first N reel-1 stops (N x L2 x ... x LR combinations) on W
processes, without a checkpoint, and prints combinations per second and the
projected wall time of all combinations.  A long run is never part of the
test suite; this script is how the README figure is measured.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exact.cli.spin import phase_of  # noqa: E402
from proofs.enumerate import enumerate_phase, window_tables  # noqa: E402
from strips.loader import load_math_set  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", default=None)
    p.add_argument("--stops", type=int, default=4, help="reel-1 stops to enumerate (default 4)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--phase", default="base")
    args = p.parse_args(argv)
    ms = load_math_set(args.set)
    phase = phase_of(ms.model, args.phase)
    t = window_tables(ms, phase)
    stops = min(args.stops, t.lengths[0])
    start = time.perf_counter()
    e = enumerate_phase(ms, phase, first_stops=range(stops), workers=args.workers)
    dt = time.perf_counter() - start
    rate = e.combinations / dt
    print(f"set {ms.name}, phase {phase.name}, {args.workers} worker(s), cpu_count {os.cpu_count()}")
    print(f"slice: {stops} reel-1 stops = {e.combinations:,} combinations in {dt:.2f} s "
          f"-> {rate / 1e6:.1f} million combinations/s")
    print(f"projected: all {t.combinations:,} combinations in {t.combinations / rate:.0f} s "
          f"({t.combinations / rate / 60:.1f} min)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
