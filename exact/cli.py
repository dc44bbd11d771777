"""The ``rtp`` command.

``rtp [report]``   exact PAR figures of a math set (default: bundled ``rules_page``)
``rtp spin``       one spin evaluated by the rules-page evaluator
``rtp check``      each published fact of the rules page against the set

Exit codes: 0 success, 1 a published fact fails, 2 bad input (one line on
stderr naming file, row and column; never a traceback).

Heavy modules are imported inside each command so ``rtp spin`` and
``rtp --help`` start fast.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from exact.errors import MathSetError

COMMANDS = ("report", "spin", "check", "prove", "simulate", "diff", "sensitivity", "export", "chain")


class UsageError(Exception):
    """A command-line argument the user got wrong (exit 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no usage dump
        raise UsageError(f"{self.prog}: {message}")


def _set_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--set", dest="set", default=None, metavar="SET",
                   help="math-set directory or bundled set name (default: rules_page)")


def _int_list(text: str, what: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip() != ""]
    except ValueError:
        raise UsageError(f"rtp: {what} must be comma-separated integers, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rtp", description="Exact slot-math calculator: exact RTP, variance and PAR "
                     "figures of a math set. Without a command: 'report'.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    p = sub.add_parser("report", help="exact PAR report of a math set (the default command)")
    _set_arg(p)
    p.add_argument("--json", action="store_true", help="one JSON object; exact figures as \"p/q\" strings")
    p.add_argument("--digits", type=int, default=6, help="digits after the point for percentages (default 6)")
    p.add_argument("--check", action="store_true", help="exit 1 if a published fact fails")

    p = sub.add_parser("spin", help="evaluate one spin with the rules-page evaluator")
    _set_arg(p)
    p.add_argument("--phase", default="base", help="base or a free-spin level number 1..4 (default base)")
    p.add_argument("--stops", required=True, help="stop positions, one per reel, e.g. 10,11,81,14,32")
    p.add_argument("--fish", default=None, help="value of each FISH in the window, reel-major, top to bottom "
                   "(default: the lowest value of each)")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser("check", help="each published fact of the rules page: published, exact, PASS/FAIL")
    _set_arg(p)
    p.add_argument("--json", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rtp`` command; returns the exit code (0 ok, 1 a published fact fails, 2 bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["report"] + argv
    try:
        args = build_parser().parse_args(argv)
        return _dispatch(args)
    except MathSetError as e:
        print(f"rtp: error: {e}", file=sys.stderr)
        return 2
    except UsageError as e:
        print(f"{e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("rtp: interrupted", file=sys.stderr)
        return 130


def _dispatch(args) -> int:
    if args.command == "spin":
        return cmd_spin(args)
    if args.command == "report":
        from exact.report import cmd_report
        return cmd_report(args)
    if args.command == "check":
        from exact.report import cmd_check
        return cmd_check(args)
    raise UsageError(f"rtp: unknown command {args.command!r}")


def _phase(model, text: str):
    if text == "base":
        return model.base_phase
    levels = {str(lv.number): lv for lv in model.levels}
    key = text[5:] if text.startswith("level") else text
    if key not in levels:
        raise UsageError(f"rtp: --phase must be base or one of {', '.join(levels)}, got {text!r}")
    return model.level_phase(levels[key])


def cmd_spin(args) -> int:
    from exact.evaluator import evaluate
    from strips.loader import load_math_set

    ms = load_math_set(args.set)
    model = ms.model
    phase = _phase(model, args.phase)
    strips = ms.phase_strips(phase)
    stops = _int_list(args.stops, "--stops")
    if len(stops) != model.reels:
        raise UsageError(f"rtp: --stops needs {model.reels} stop positions, got {len(stops)}")
    for r, (s, n) in enumerate(zip(stops, strips.lengths)):
        if not 0 <= s < n:
            raise UsageError(f"rtp: stop {s} of reel {r + 1} is outside 0..{n - 1}")
    window = strips.window(stops, model.rows)
    fish = None if args.fish is None else _int_list(args.fish, "--fish")
    try:
        res = evaluate(model, window, fish, phase.multiplier)
    except ValueError as e:
        raise UsageError(f"rtp: {e}") from None
    if args.json:
        out = {
            "set": ms.name, "phase": phase.name, "stops": stops,
            "window": [[window[r][i] for r in range(model.reels)] for i in range(model.rows)],
            "ways": [{"symbol": w.symbol, "oak": w.oak, "ways": w.ways, "pay": w.pay} for w in res.ways],
            "ways_pays": res.ways_pays, "fish_sum": res.fish_sum, "collect": res.collect,
            "keys": res.keys, "fs": res.scatters, "multiplier": res.multiplier, "win": res.win,
        }
        print(json.dumps(out, indent=2))
        return 0
    print(f"math set {ms.name}, phase {phase.name} ({phase.strips} strips), stops {','.join(map(str, stops))}")
    fish_iter = iter(res_fish_values(model, window, fish))
    cells = [[None] * model.reels for _ in range(model.rows)]
    for r in range(model.reels):
        for i in range(model.rows):
            name = window[r][i]
            cells[i][r] = f"{name}={next(fish_iter)}" if model.symbol(name).kind == "fish" else name
    width = max(9, max(len(c) for row in cells for c in row) + 2)
    print(" " * 7 + "".join(f"Reel {r + 1}".ljust(width) for r in range(model.reels)))
    for i, row in enumerate(cells):
        print(f"Row {i + 1}  " + "".join(c.ljust(width) for c in row))
    print()
    for w in res.ways:
        print(f"{w.symbol}: {w.oak} of a kind, ways {w.ways}, pay {w.pay}")
    print(f"ways pays      {res.ways_pays}")
    print(f"collect        {res.keys} KEY x {res.fish_sum} FISH credits = {res.collect}")
    print(f"FS symbols     {res.scatters}")
    print(f"multiplier     x{res.multiplier}")
    print(f"win            {res.win} credits")
    return 0


def res_fish_values(model, window, fish):
    from exact.evaluator import default_fish_values
    return default_fish_values(model, window) if fish is None else fish
