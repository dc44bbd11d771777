"""Calibrate a grid game's RTP by one random feature's probabilities (proofs.grid_calibrate.calibrate).

    python benchmarks/calibrate_grid.py --set DIR --feature NAME --target 0.9662 --rounds N --seed S [--workers 2]

prints the simulated RTP before, the scale and the feature's new ``probability = { ... }`` line.
"""
from __future__ import annotations

import argparse
import sys

from proofs.dask_runner import Cluster
from proofs.grid_calibrate import calibrate
from strips.loader import load_math_set


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python benchmarks/calibrate_grid.py", description=__doc__.splitlines()[0])
    p.add_argument("--set", required=True)
    p.add_argument("--feature", required=True)
    p.add_argument("--target", type=float, required=True, help="RTP per bet, e.g. 0.9662")
    p.add_argument("--rounds", type=int, default=20_000_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--denominator", type=int, default=100_000)
    a = p.parse_args(argv)
    try:
        r = calibrate(load_math_set(a.set), a.feature, a.target, a.rounds, a.seed,
                      Cluster(workers=a.workers, mode="local" if a.workers > 1 else "auto"), a.denominator)
    except ValueError as e:
        print(f"grid_calibrate: {e}", file=sys.stderr)
        return 2
    print(f"simulated RTP {100 * r['rtp_before']:.4f}% ({r['rounds']:,} rounds, seed {r['seed']}); {a.feature}'s "
          f"probabilities x{r['scale']:.6f} (RTP {100 * r['slope']:.4f} points per unit of scale):")
    print(f'probability = {{ win = "{r["win"]}", no_win = "{r["no_win"]}" }}')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
