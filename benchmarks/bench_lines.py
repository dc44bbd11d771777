"""Benchmark: ``rtp --json`` on payline games, whole process.

Targets: a 20-line 5x3 game with 50-stop strips in 0.5 s or less,
a 100-line 5x4 game in 2 s or less, whole-process wall time of ``rtp --json``.
Cost measured (no target): the 20-line 5x3 game with 256-stop strips, whose pair chains
pass int64 (the largest line pay squared times 2^40 stop combinations) and run on residues
modulo three primes below 2^31 (:func:`exact.lines.chain_ring`).

The games are generated here (fixed seed, so every run measures the same
sets): 8 pay symbols, a WILD with own pays and a combination multiplier x2,
a paying scatter that triggers 10 free spins x3 on their own strips with a
retrigger; paylines drawn at random (rows per reel), strips of 50 stops
with about 1 WILD and 1 scatter in 12 stops.

Usage::

    python benchmarks/bench_lines.py [--repeat N] [--keep DIR]

Prints the median and the spread (min..max) of the wall time and of the CPU time (user + system)
of ``rtp --json --set DIR`` for each game, and its peak RSS.
"""
from __future__ import annotations

import argparse
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PAYS = {"P1": [0, 5, 40, 150, 800], "P2": [0, 3, 30, 100, 500], "P3": [0, 0, 20, 80, 300],
        "P4": [0, 0, 15, 50, 200], "P5": [0, 0, 10, 30, 120], "P6": [0, 0, 8, 25, 100],
        "P7": [0, 0, 5, 20, 80], "P8": [0, 0, 5, 15, 60]}


def write_game(directory: Path, lines: int, rows: int, stops: int = 50, seed: int = 15) -> Path:
    """A generated 5-reel line game with ``lines`` paylines and ``rows`` rows in ``directory``."""
    rng = random.Random(seed)
    reels = 5
    paylines = []
    seen = set()
    for i in range(rows):
        paylines.append([i + 1] * reels)
        seen.add(tuple(paylines[-1]))
    while len(paylines) < lines:
        line = tuple(rng.randint(1, rows) for _ in range(reels))
        if line not in seen:
            seen.add(line)
            paylines.append(list(line))
    every = list(range(1, reels + 1))
    text = [f'[game]\nname = "bench_{lines}x{rows}"\nreels = {reels}\nrows = {rows}\nbet = {lines}\n'
            f'evaluation = "lines"', f"[lines]\npaylines = {paylines[:lines]}",
            '[strips]\nbase = "base.csv"\nbonus = "bonus.csv"']
    for s, p in PAYS.items():
        text.append(f'[symbols.{s}]\nclass = "pay"\npays = {p}')
    text.append(f'[symbols.WILD]\nclass = "wild"\nreels = {{ base = {every}, bonus = {every} }}\n'
                f'pays = [0, 10, 100, 1000, 5000]\nmultiplier = {{ values = [2], mode = "combination" }}')
    text.append(f'[symbols.SC]\nclass = "scatter"\nreels = {{ base = {every}, bonus = {every} }}\n'
                f'pays = [0, 2, 5, 20, 100]')
    text.append('[free_spins]\nstrips = "bonus"\ntrigger = { 3 = 10 }\nretrigger = { 3 = 10 }\n\n'
                '[[free_spins.levels]]\nmultiplier = 3')
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "game.toml").write_text("\n\n".join(text) + "\n")
    names = list(PAYS)
    for strip_set in ("base", "bonus"):
        cols = []
        for _ in range(reels):
            col = []
            for i in range(stops):
                x = rng.random()
                col.append("WILD" if x < 0.08 else "SC" if x < 0.16 and i % 4 == 0 else
                           names[min(int(rng.random() ** 1.5 * len(names)), len(names) - 1)])
            cols.append(col)
        rows_ = ["reel1,reel2,reel3,reel4,reel5"] + [",".join(c[i] for c in cols) for i in range(stops)]
        (directory / f"{strip_set}.csv").write_text("\n".join(rows_) + "\n")
    return directory


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--keep", default=None, help="write the generated games here (default: a temporary directory)")
    args = ap.parse_args(argv)
    exe = shutil.which("rtp")
    if not exe:
        print("rtp is not on PATH", file=sys.stderr)
        return 2
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench_lines_"))
    for lines, rows, stops, target in ((20, 3, 50, 0.5), (100, 4, 50, 2.0), (20, 3, 256, None)):
        d = write_game(root / f"lines{lines}_{rows}rows_{stops}", lines, rows, stops)
        cmd = [exe, "--json", "--set", str(d)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)   # warm the file cache
        walls, cpus = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            walls.append(time.perf_counter() - t)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"rtp --json  {lines:3d} lines 5x{rows}, {stops} stops: median {statistics.median(walls):.3f} s "
              f"(spread {min(walls):.3f}..{max(walls):.3f} s, target {target or 'none'} s), CPU median "
              f"{statistics.median(cpus):.3f} s (spread {min(cpus):.3f}..{max(cpus):.3f} s), peak RSS {rss:.0f} MiB "
              f"(the largest of the runs so far)")
    if not args.keep:
        shutil.rmtree(root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
