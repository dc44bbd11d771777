"""Throughput of the exhaustive enumeration on a slice of reel-1 stops, extrapolated to the whole set.

Usage::

    python benchmarks/bench_enumerate.py [--set SET] [--stops N] [--workers W] [--phase base|1..4] [--generic]

Enumerates the first N reel-1 stops (N x L2 x ... x LR combinations) on W
processes, without a checkpoint, and prints combinations per second and the
projected wall time of all combinations.  The path is the one ``rtp prove
--exhaustive`` takes for the set (the fast path for ways games without the
catalogue rules, else the generic path); ``--generic`` forces the generic path.  A long run is never part of the
test suite; this script is how the README figure is measured.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exact.cli.spin import phase_of  # noqa: E402
from proofs.enumerate import enumerate_phase  # noqa: E402
from strips.loader import load_math_set  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", default=None)
    p.add_argument("--stops", type=int, default=4, help="reel-1 stops to enumerate (default 4)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--phase", default="base")
    p.add_argument("--generic", action="store_true", help="the generic path (exact.windows) even for a ways game")
    args = p.parse_args(argv)
    ms = load_math_set(args.set)
    phase = phase_of(ms.model, args.phase)
    lengths = ms.phase_strips(phase).lengths
    total = math.prod(lengths)
    stops = min(args.stops, lengths[0])
    start = time.perf_counter()
    e = enumerate_phase(ms, phase, first_stops=range(stops), workers=args.workers,
                        generic=True if args.generic else None)
    dt = time.perf_counter() - start
    rate = e.combinations / dt
    print(f"set {ms.name}, phase {phase.name}, {getattr(e, 'path', 'fast')} path, {args.workers} worker(s), "
          f"cpu_count {os.cpu_count()}")
    print(f"slice: {stops} reel-1 stops = {e.combinations:,} combinations in {dt:.2f} s "
          f"-> {rate / 1e6:.1f} million combinations/s")
    print(f"projected: all {total:,} combinations in {total / rate:.0f} s ({total / rate / 60:.1f} min)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
