"""Benchmark: the exact engine and the whole ``rtp --json`` process.

Targets: all phases of a math set (base game + every free-spin
level) analysed in under 20 ms after import, on one core; the whole process
``rtp --json`` under 1 s wall; peak RSS of ``rtp`` under 300 MiB.

Usage::

    python benchmarks/bench_engine.py [--set SET] [--repeat N]

Prints median wall and CPU time per call of ``exact.engine.analyse``, of the
free-spin chain (``markov.round.round_result``), and the median wall time and
peak RSS of ``rtp --json`` run as a subprocess.
"""
from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import time


def measure(fn, repeat):
    fn()  # warm-up
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default=None)
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args(argv)

    from exact.engine import analyse
    from markov.round import round_result
    from strips.loader import load_math_set

    ms = load_math_set(args.set)
    wall, cpu = measure(lambda: analyse(ms), args.repeat)
    print(f"engine  analyse(all {1 + len(ms.model.levels)} phases)   median {wall:7.2f} ms wall  {cpu:7.2f} ms cpu")
    ga = analyse(ms)
    wall, cpu = measure(lambda: round_result(ms.model, ga.base, ga.levels), args.repeat)
    print(f"chain   round_result (3 triggers)       median {wall:7.2f} ms wall  {cpu:7.2f} ms cpu")

    exe = shutil.which("rtp")
    if exe:
        cmd = [exe, "--json"] + (["--set", args.set] if args.set else [])
        walls = []
        for _ in range(max(3, args.repeat // 6)):
            t = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            walls.append(time.perf_counter() - t)
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"process rtp --json                      median {statistics.median(walls) * 1000:7.1f} ms wall  "
              f"peak RSS {rss:.0f} MiB")
    else:
        print("process rtp: not installed (pip install .)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
