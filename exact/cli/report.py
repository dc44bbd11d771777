"""``rtp report``: the PAR report of a math set (the default command)."""
from __future__ import annotations

import json

from exact.cli import grid as grid_cli
from exact.cli.args import UsageError, add_set_argument, int_range, refuse_unsupported
from exact.grid import is_grid
from exact import load_math_set
from exact.comply import comply, load_rules, summary
from exact.report import cheap_distribution, published_ok, report_json, report_text
from exact.facts import checked_sheet


def add_arguments(p) -> None:
    add_set_argument(p)
    p.add_argument("--json", action="store_true", help="one JSON object; exact figures as \"p/q\" strings")
    p.add_argument("--digits", type=int_range(0, 50), default=6, help="decimal places of percentages (default 6)")
    p.add_argument("--check", action="store_true", help="exit 1 if a published figure fails")
    grid_cli.add_report_arguments(p)


#: The report's compliance summary leaves out the one check that needs the win distribution.
TOP_AWARD_NOTE = "top award (the largest round win) not checked here: it needs the win distribution; rtp comply checks it"


def run(args) -> int:
    """``rtp report``: print the PAR report; exit 1 with --check when a published figure fails."""
    ms = load_math_set(args.set)
    refuse_unsupported(ms, 'report')
    if is_grid(ms):   # a grid of independent cells: its chain, or its certified simulation
        return grid_cli.report(args, ms)
    try:
        rep = checked_sheet(ms)
    except ValueError as e:
        raise UsageError(f"rtp: {ms.name}: {e}") from None
    try:   # the short compliance summary (rtp comply gives every line)
        counts = summary(comply(ms, load_rules(), sheet=rep))
        why = None
    except ValueError as e:
        counts, why = {}, str(e)
    dist, dist_why = cheap_distribution(ms)   # the round's hit frequency and max win when cheap (< 2 s)
    if args.json:
        out = report_json(rep, args.digits, dist, dist_why)
        out["compliance"] = {j: {"passed": a, "checks": b} for j, (a, b) in counts.items()}
        if why:
            out["compliance_not_computed"] = why
        if counts:
            out["compliance_top_award"] = TOP_AWARD_NOTE
        print(json.dumps(out, indent=2))
    else:
        text = report_text(rep, args.digits, dist, dist_why)
        line = "; ".join(f"{j}: {a} of {b} pass"
                         for j, (a, b) in counts.items()) or f"not computed ({why})"
        note = f"({TOP_AWARD_NOTE})\n" if counts else ""      # not when comply refuses the game
        print(text + f"\nCOMPLIANCE (rtp comply lists every check)\n{line}\n{note}", end="")
    return 1 if args.check and not published_ok(rep) else 0
