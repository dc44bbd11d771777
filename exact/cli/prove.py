"""``rtp prove``: the certificate of a math set (see :mod:`proofs.prove`)."""
from __future__ import annotations

import sys

from exact.cli.args import (UsageError, add_cluster_arguments, add_mode_arguments, add_set_argument, cluster_of,
                            int64_refusal, int_range, refuse_unsupported)
from exact.cli.outputs import check_output, check_output_dir, protected_inputs, write_output
from proofs.prove import certificate_text
from proofs.simulate import DEFAULT_SEED
from proofs.exhaustive import combinations_to_enumerate
from strips.limits import exceeds, refusal
from strips.loader import load_math_set


def add_arguments(p) -> None:
    """Options of ``rtp prove``."""
    add_set_argument(p)
    p.add_argument("--exhaustive", action="store_true",
                   help="also enumerate every stop combination of every strip set the game plays (base, bet modes, "
                        "free spins), each phase compared with the engine (the bundled set: 2 x 10^10, 1-4 minutes)")
    p.add_argument("--rounds", type=int_range(0), default=10_000_000,
                   help="simulated game rounds (default 10,000,000; 0 skips the simulation); split evenly over "
                        "the bet modes and buys of a game that has them")
    p.add_argument("--seed", type=int_range(0), default=DEFAULT_SEED, help=f"simulation seed (default {DEFAULT_SEED})")
    add_mode_arguments(p)
    p.add_argument("--out", default=None, metavar="FILE", help="write the certificate here (default: stdout)")
    add_cluster_arguments(p)
    p.add_argument("--checkpoint-dir", default=None, metavar="DIR",
                   help="checkpoint directory of the enumeration (default ~/.cache/slot-exact/enumerate); "
                        "one run at a time per directory")
    p.add_argument("--task-stops", type=int_range(1), default=None, metavar="N",
                   help="reel-1 stops per enumeration task (default: by the set's size)")


def run(args) -> int:
    """Build the certificate, write it (``--out`` or stdout); exit 1 if anything fails."""
    ms = load_math_set(args.set)
    refuse_unsupported(ms, 'prove')
    protected = protected_inputs(args.set, ms)
    out = None if args.out is None else check_output(args.out, "rtp prove --out", "file", protected)
    if args.checkpoint_dir is not None:
        check_output_dir(args.checkpoint_dir, "rtp prove --checkpoint-dir", protected)
    limit = exceeds("rounds", args.rounds)
    if limit is not None:
        raise UsageError(f"rtp prove: {ms.name}: {refusal('rounds', args.rounds, limit, 'simulated game rounds')}")
    if args.exhaustive:
        n = combinations_to_enumerate(ms)   # every strip set the game plays, each once
        limit = exceeds("combinations", n)
        if limit is not None:
            raise UsageError(f"rtp prove --exhaustive: {ms.name}: "
                             f"{refusal('combinations', n, limit, 'stop combinations to enumerate')}")
    try:
        text, ok = certificate_text(ms, exhaustive=args.exhaustive, rounds=args.rounds, seed=args.seed,
                                    cluster=cluster_of(args), checkpoint_dir=args.checkpoint_dir,
                                    progress=sys.stderr.isatty(), task_stops=args.task_stops,
                                    mode=args.mode, buy=args.buy)
    except (ValueError, OverflowError) as e:
        raise int64_refusal("rtp prove", ms.name, e, "the exact figures (rtp report) need neither proof: "
                            "run without --exhaustive and with --rounds 0") from None
    if out is None:
        sys.stdout.write(text)
    else:
        write_output(out, text, protected, "rtp prove --out")
        print(f"certificate written to {out}: {'PASS' if ok else 'FAIL'}", file=sys.stderr)
    return 0 if ok else 1
