"""Wall time of the exact strip-edit sensitivity table (every position x every allowed symbol).

Usage::

    python benchmarks/bench_sensitivity.py [--set SET] [--repeat N]

Without ``--set`` it uses the bundled ``rules_page`` set when its strips are
present, otherwise a random 5 x 100-stop set (base and bonus, placement rules
of the bundled game) written to a temporary directory.  Prints the number of
edits, the best and median wall time of N runs of
:func:`exact.sensitivity.sensitivity`, the time of one full computation
(engine + chain) and what 1 full computation per edit would cost, and the
load average (other processes on the machine slow the figure down).  Target:
under 10 s for the full base + bonus table.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from exact.engine import analyse  # noqa: E402
from strips.errors import MathSetError  # noqa: E402
from exact.sensitivity import sensitivity  # noqa: E402
from markov.round import round_result  # noqa: E402
from strips.loader import load_math_set  # noqa: E402


def _load(spec: str | None, tmp: str):
    if spec is not None:
        return load_math_set(spec)
    try:
        return load_math_set("rules_page")
    except MathSetError:
        from test_proofs_sets import write_random_set
        return load_math_set(str(write_random_set(Path(tmp) / "set", 7, lengths=(100,) * 5, special_share=0.1)))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", default=None)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        ms = _load(args.set, tmp)
        t0 = time.perf_counter()
        an = analyse(ms)
        round_result(ms.model, an.base, an.levels)
        full = time.perf_counter() - t0
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            s = sensitivity(ms)
            times.append(time.perf_counter() - t0)
    n = len(s.edits)
    by_set = {k: sum(1 for e in s.edits if e.edit.strip_set == k) for k in ms.strips}
    print(f"set {ms.name}: strips {', '.join(f'{k} {v.lengths}' for k, v in ms.strips.items())}")
    print(f"edits: {n} ({', '.join(f'{k} {v}' for k, v in by_set.items())}); FISH weight derivatives: {len(s.weights)}")
    print(f"sensitivity (edits + weights, exact): best {min(times):.2f} s, median {statistics.median(times):.2f} s "
          f"of {len(times)} runs")
    print(f"one full computation (engine + chain): {full:.3f} s -> one per edit would take {full * n:.0f} s")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (other processes slow the figures down)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
