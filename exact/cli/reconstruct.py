"""``python -m exact.cli.reconstruct --out DIR [--seed N] [--target-rtp 0.96]``: rebuild the rules-page strips.

The reconstruction itself is :mod:`proofs.reconstruction.reconstruct`.
"""
from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from pathlib import Path

from exact.cli.outputs import refuse_package_data
from proofs.reconstruction.reconstruct import DEFAULT_SEED, DEFAULT_TARGET, build, write
from strips.errors import MathSetError


def _parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m exact.cli.reconstruct", description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, help="output directory (new or empty; see --force)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed of every random choice (default {DEFAULT_SEED})")
    p.add_argument("--target-rtp", default=str(DEFAULT_TARGET.numerator / DEFAULT_TARGET.denominator),
                   help="RTP to tune to, a decimal fraction of 1 such as 0.96, or 'none' to skip tuning")
    p.add_argument("--force", action="store_true", help="write into an existing non-empty directory")
    return p.parse_args(argv)


def _target(text: str) -> Fraction | None:
    if text.lower() == "none":
        return None
    try:
        t = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise MathSetError("--target-rtp", 0, 0, f"must be a decimal such as 0.96 or 'none', got {text!r}") from None
    if not 0 < t < 10:
        raise MathSetError("--target-rtp", 0, 0, f"must be a fraction of 1 such as 0.96, got {text!r}")
    return t


def main(argv=None) -> int:
    """Command line entry: rebuild into ``--out``; exit 0, or 2 with one line on bad input."""
    args = _parse_args(argv)
    try:
        out = Path(args.out)
        refuse_package_data(out, str(out))   # the installed bundled sets are never overwritten, --force or not
        if out.exists() and not out.is_dir():
            raise MathSetError(str(out), 0, 0, "--out names a file; give a new or empty directory")
        if out.is_dir() and any(out.iterdir()) and not args.force:
            raise MathSetError(str(out), 0, 0, "--out is a non-empty directory; give a new or empty one, "
                               "or --force to overwrite the reconstruction files in it")
        target = _target(args.target_rtp)
        b = build(args.seed, target)
    except (MathSetError, ValueError) as e:
        print(f"exact.cli.reconstruct: error: {e}", file=sys.stderr)
        return 2
    for path in write(b, out):
        print(path)
    if b.rtp is not None:
        print(f"exact RTP {float(b.rtp) * 100:.5f}% (target {float(b.target) * 100:.5f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
