"""Benchmark: the exact report of the catalogue's payline games, whole process `rtp --set DIR --json`.

Each handed-over game (../shared/external/<game>, the MIT-licensed slotopol/server) is assembled in a
temporary directory from the project's game file and its first published reel set (as
tests/test_external_catalogue.py does) and reported `--repeat` times; prints the median and the spread
per game.  The issue's target: a 5x3, 20-line game with any of these rules in under 1 s (Chicago: 20
lines, WILD pays, a multiplier drawn per free spin; Misty Forest: expanding WILDs).  Usage:

    python benchmarks/bench_catalogue_lines.py [--repeat 3] [--game chicago]
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "external"
GAMES = {"jewels": "jewels", "captains-treasure": "captains_treasure", "double-hot-habanero": "double_hot_habanero",
         "devils-fruits": "devils_fruits", "misty-forest": "misty_forest", "ultra-hot": "ultra_hot",
         "mighty-rex": "mighty_rex", "chicago": "chicago", "forest-nymph": "forest_nymph", "book-of-ra": "book_of_ra",
         "fruit-shop": "fruit_shop"}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--game", choices=sorted(GAMES), action="append")
    args = p.parse_args()
    for game in args.game or GAMES:
        with tempfile.TemporaryDirectory() as d:
            shutil.copyfile(ROOT / "strips" / "external" / GAMES[game] / "game.toml", Path(d) / "game.toml")
            csv = sorted((SHARED / game).glob("base_*.csv"))[0]
            shutil.copyfile(csv, Path(d) / "base.csv")
            if (SHARED / game / "bonus.csv").is_file():
                shutil.copyfile(SHARED / game / "bonus.csv", Path(d) / "bonus.csv")
            times, cpu = [], []
            for _ in range(args.repeat):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t = time.perf_counter()
                subprocess.run([sys.executable, "-m", "exact", "--set", d, "--json"], capture_output=True,
                               check=True)
                times.append(time.perf_counter() - t)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            print(f"{game:22s} {csv.name:22s} wall median {statistics.median(times):.2f} s "
                  f"(min {min(times):.2f}, max {max(times):.2f}); CPU median {statistics.median(cpu):.2f} s "
                  f"(min {min(cpu):.2f}, max {max(cpu):.2f}); {args.repeat} runs", flush=True)
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} (1, 5, 15 min)")


if __name__ == "__main__":
    main()
