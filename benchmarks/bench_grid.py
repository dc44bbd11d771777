"""Grid games (a 5x5 spiral of independent cells, 7 pay symbols, the key): the exact first drop and
the certified simulation's whole-process throughput.

Usage::

    python benchmarks/bench_grid.py first-drop [--symbols 7] [--distribution]
    python benchmarks/bench_grid.py simulate [--rounds 10000000] [--workers 2]
    python benchmarks/bench_grid.py target [--halfwidth 0.001] [--workers 2]

``first-drop`` times P(no win) (the transfer-matrix DP over the rows) and the
mean (linearity), and with ``--distribution`` the whole distribution (the
cell-by-cell DP). ``simulate`` runs ``rtp simulate --rounds N`` as a child
process and reports rounds per second of the whole process (start-up, tables,
the Dask cluster included) and its peak memory (children included). ``target``
runs ``rtp report --target-halfwidth H`` (the RTP to a 99% half-width of H).
The load average is printed: other processes lower the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

NAMES = ("SPADE", "HEART", "CLOVER", "DIAMOND", "HAT", "POT", "HARP")


def game_text(symbols: int = 7) -> str:
    """A 5x5 spiral game with ``symbols`` pay symbols, a WILD, the key and 8 free spins (illustrative pays)."""
    from exact.rules.grid import spiral    # noqa: PLC0415 - a benchmark script, not the package
    path = ", ".join(f"[{c // 5 + 1}, {c % 5 + 1}]" for c in spiral(5, 5))
    out = ['[game]\nname = "grid5x5"\nbet = 10\n', f"[grid]\nrows = 5\ncolumns = 5\npath = [{path}]\n"]
    for i, s in enumerate(NAMES[:symbols]):
        out.append(f'[symbols.{s}]\nclass = "pay"\npays = [0, 0, {2 + i}, {6 + 3 * i}, {20 + 10 * i}]\n')
    out.append('[symbols.WILD]\nclass = "wild"\n\n[key]\nsymbol = "KEY"\nstart = "entry"\n\n'
               '[free_spins]\nspins = 8\nweights = "free"\n')
    w = ", ".join(f"{s} = {40 - 3 * i}" for i, s in enumerate(NAMES[:symbols]))
    out.append(f"[cells]\nweights.base = {{ {w} }}\nweights.free = {{ {w} }}\n")
    return "\n".join(out)


def write_game(symbols: int) -> Path:
    d = Path(tempfile.mkdtemp()) / "grid5x5"
    d.mkdir()
    (d / "game.toml").write_text(game_text(symbols), encoding="utf-8")
    return d


def first_drop_bench(args) -> None:
    from exact.grid_drop import first_drop_distribution, first_drop_mean, no_win_probability  # noqa: PLC0415
    from strips.loader import load_math_set  # noqa: PLC0415
    import exact  # noqa: F401,PLC0415 - registers the grid plug-in
    from exact.rules.grid import grid_config  # noqa: PLC0415
    cfg = grid_config(load_math_set(str(write_game(args.symbols))).model)
    t = time.perf_counter()
    p0 = no_win_probability(cfg)
    t1 = time.perf_counter()
    mean = first_drop_mean(cfg)
    t2 = time.perf_counter()
    print(f"5x5, {args.symbols} pay symbols + key: P(no win) {float(p0):.9f} in {t1 - t:.2f} s; mean "
          f"{float(mean):.6f} coins in {t2 - t1:.3f} s")
    if args.distribution:
        d = first_drop_distribution(cfg)
        print(f"distribution: {len(d)} win values in {time.perf_counter() - t2:.2f} s")


def child(argv: list[str]) -> tuple[float, float, str]:
    """Seconds, peak MiB (children) and standard output of ``rtp ARGV``."""
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", "import sys; from exact.cli import main; sys.exit(main(sys.argv[1:]))",
                          *argv], check=True, capture_output=True, text=True).stdout
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return time.perf_counter() - t, peak, out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("what", choices=("first-drop", "simulate", "target"))
    p.add_argument("--symbols", type=int, default=7)
    p.add_argument("--distribution", action="store_true")
    p.add_argument("--rounds", type=int, default=10_000_000)
    p.add_argument("--halfwidth", type=float, default=0.001)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--set", default=None, help="simulate/target: this math set (e.g. the bundled finn: whole rounds "
                   "with random features, four free-spin games and a win cap) instead of the generated 5x5 game")
    args = p.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    if args.what == "first-drop":
        first_drop_bench(args)
    elif args.what == "simulate":
        d = args.set or write_game(args.symbols)
        s, mib, _ = child(["simulate", "--set", str(d), "--rounds", str(args.rounds), "--workers", str(args.workers),
                           "--no-progress"])
        print(f"{args.rounds:,} rounds in {s:.1f} s whole process: {args.rounds / s:,.0f} rounds/s; "
              f"peak memory of a process {mib:,.0f} MiB")
    else:
        d = args.set or write_game(args.symbols)
        s, mib, out = child(["report", "--set", str(d), "--target-halfwidth", str(args.halfwidth),
                             "--workers", str(args.workers), "--json"])
        rep = json.loads(out)
        print(f"RTP {rep['rtp']:.5f} to a 99% half-width of {args.halfwidth} ({rep['rtp_halfwidth99']:.5f}) in "
              f"{s:.1f} s whole process: {rep['rounds']:,} rounds, variance reduction x{rep['variance_reduction']:.2f}; "
              f"peak {mib:,.0f} MiB")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
