"""Throughput and scaling of the long proofs: the exhaustive enumeration and the simulation on Dask.

Usage::

    python benchmarks/bench_proofs.py [--set SET] [--stops N] [--rounds N] [--whole-process]

For 1 worker (in process) and for a local Dask cluster of 1 and 2 worker
processes (or ``--workers`` counts) it prints

* the enumeration of the first N reel-1 stops (N x L2 x ... x LR
  combinations, no checkpoint): combinations per second, cluster start-up
  excluded and included, and the projected time of every combination;
* the simulation of ``--rounds`` rounds: rounds per second;
* the scaling efficiency of W workers: rate(W) / (W x rate(1 worker process)).

``--whole-process`` also times ``rtp simulate --rounds 10000000 --json`` and
``rtp prove --exhaustive --rounds 0`` on a fresh checkpoint directory as the
user runs them (wall time of the whole process, start-up included).  The load
average before each figure is printed: other processes lower the figures.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from proofs.dask_runner import IN_PROCESS, LOCAL, Cluster  # noqa: E402
from proofs.enumerate import enumerate_phase, window_tables  # noqa: E402
from proofs.simulate import prepare, simulate  # noqa: E402
from strips.loader import load_math_set  # noqa: E402


def _load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def _cluster_run(fn, workers: int):
    """(seconds with start-up, seconds without) of fn(cluster) on a fresh LocalCluster of ``workers``."""
    from dask.distributed import Client, LocalCluster
    start = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            Client(lc) as client:
        client.wait_for_workers(workers)
        up = time.perf_counter()
        fn(Cluster(client=client))
        end = time.perf_counter()
    return end - start, end - up


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", default="rules_page")
    p.add_argument("--stops", type=int, default=8, help="reel-1 stops to enumerate (default 8)")
    p.add_argument("--rounds", type=int, default=10_000_000)
    p.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    p.add_argument("--whole-process", action="store_true")
    args = p.parse_args(argv)
    ms = load_math_set(args.set)
    t = window_tables(ms, ms.model.base_phase)
    stops = range(min(args.stops, t.lengths[0]))
    game = prepare(ms)
    print(f"set {ms.name}: {t.combinations:,} base combinations; cpu_count {os.cpu_count()}")

    def enum(cluster):
        return enumerate_phase(ms, first_stops=stops, cluster=cluster, task_stops=1)

    def sim(cluster):
        return simulate(ms, args.rounds, 1, game=game, cluster=cluster)

    n = len(stops) * (t.combinations // t.lengths[0])
    rates = {}
    print(_load())
    start = time.perf_counter()
    enum(Cluster(mode=IN_PROCESS))
    dt = time.perf_counter() - start
    print(f"enumeration, in process: {n:,} combinations in {dt:.2f} s -> {n / dt / 1e6:.1f} M/s")
    start = time.perf_counter()
    sim(Cluster(mode=IN_PROCESS))
    dt = time.perf_counter() - start
    print(f"simulation, in process: {args.rounds:,} rounds in {dt:.2f} s -> {args.rounds / dt / 1e6:.2f} M rounds/s")
    for w in args.workers:
        print(_load())
        whole, work = _cluster_run(enum, w)
        rates[("enum", w)] = n / work
        print(f"enumeration, LocalCluster of {w}: {n / work / 1e6:.1f} M/s ({n / whole / 1e6:.1f} M/s with "
              f"start-up) -> all {t.combinations:,} in {t.combinations / (n / work):.0f} s")
        whole, work = _cluster_run(sim, w)
        rates[("sim", w)] = args.rounds / work
        print(f"simulation, LocalCluster of {w}: {args.rounds / work / 1e6:.2f} M rounds/s "
              f"({args.rounds / whole / 1e6:.2f} M with start-up)")
    one = min(args.workers)
    for w in args.workers:
        if w != one:
            for kind in ("enum", "sim"):
                eff = rates[(kind, w)] / (w / one * rates[(kind, one)])
                print(f"scaling {kind} {one} -> {w} workers: x{rates[(kind, w)] / rates[(kind, one)]:.2f}, "
                      f"efficiency {eff:.0%}")
    if args.whole_process:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        rtp = [sys.executable, "-c", "from exact.cli import main; raise SystemExit(main())"]
        for cmd in (["simulate", "--set", args.set, "--rounds", "10000000", "--json"],):
            print(_load())
            start = time.perf_counter()
            subprocess.run(rtp + cmd, env=env, check=False, capture_output=True)
            dt = time.perf_counter() - start
            print(f"whole process rtp {' '.join(cmd)}: {dt:.2f} s -> {1e7 / dt / 1e6:.2f} M rounds/s")
        with tempfile.TemporaryDirectory() as ck:
            print(_load())
            cmd = ["prove", "--set", args.set, "--exhaustive", "--rounds", "0", "--checkpoint-dir", ck]
            start = time.perf_counter()
            subprocess.run(rtp + cmd, env=env, check=False, capture_output=True)
            dt = time.perf_counter() - start
            print(f"whole process rtp {' '.join(cmd[:-2])}: {dt:.1f} s -> "
                  f"{t.combinations / dt / 1e6:.0f} M combinations/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
