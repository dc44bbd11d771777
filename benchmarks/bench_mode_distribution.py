"""Timing and peak memory of ``rtp distribution`` on every bet mode and buy of a set (opt-in; not in the tests).

Usage::

    python benchmarks/bench_mode_distribution.py [--set SET] [--repeat N] [--without-frames]

Runs ``rtp distribution --mode NAME --json`` (one process each, so each peak RSS is its own) for every bet
mode of the set, ``--repeat`` times, and prints per mode the median and the spread (min-max) of the wall
time and the largest peak RSS of the process (its children's ``ru_maxrss``).  ``--without-frames`` first
copies the set into a temporary directory with its ``[frames]`` tables removed and each wheel award's
frames feature read as plain free spins (``free_spins 6 go_large`` -> ``free_spins 6``): the bundled
``wheel_game`` is refused whole (``unsupported rule: frames``: a frames award's pays and frame levels are
not independent), and this copy is the same round size without them.  Target: under 10 s and 1 GiB per
mode.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import exact.rules  # noqa: F401  (registers the rules the game file names)
from strips.loader import load_math_set, resolve


def without_frames(src: Path, dst: Path) -> Path:
    """A copy of the math set ``src`` in ``dst`` without ``[frames]`` (its awards as plain free spins)."""
    shutil.copytree(src, dst)
    keep, out = True, []
    for line in (dst / "game.toml").read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            keep = not line.startswith("[frames")
        if keep:
            out.append(line)
    text = re.sub(r'"free_spins (\d+) [a-z_]+"', r'"free_spins \1"', "\n".join(out) + "\n")
    (dst / "game.toml").write_text(text, encoding="utf-8")
    return dst


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", default="wheel_game")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--without-frames", action="store_true")
    a = ap.parse_args()
    path = Path(resolve(a.set)[1])
    if a.without_frames:
        path = without_frames(path, Path(tempfile.mkdtemp()) / path.name)
    ms = load_math_set(str(path))
    for mode in ms.mode_names:
        times, cpus = [], []
        for _ in range(a.repeat):
            t = time.perf_counter()
            c = resource.getrusage(resource.RUSAGE_CHILDREN)
            run = subprocess.run([sys.executable, "-m", "exact", "distribution", "--set", str(path), "--mode", mode,
                                  "--json"], capture_output=True, text=True)
            times.append(time.perf_counter() - t)
            c2 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(c2.ru_utime + c2.ru_stime - c.ru_utime - c.ru_stime)
            if run.returncode:
                print(f"{mode}: exit {run.returncode}: {run.stderr.strip()}")
                break
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"{mode}: wall median {statistics.median(times):.1f} s (min {min(times):.1f}, max {max(times):.1f}); "
              f"CPU median {statistics.median(cpus):.1f} s (min {min(cpus):.1f}, max {max(cpus):.1f}); "
              f"peak RSS so far {rss:.0f} MiB; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
