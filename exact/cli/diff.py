"""``rtp diff A B``: two math sets figure by figure, with the list of changes."""
from __future__ import annotations

import json

from exact.cli.args import UsageError, int_range, refuse_unsupported
from exact.diff import diff_json, diff_sets, diff_text
from exact import load_math_set


def add_arguments(p) -> None:
    p.add_argument("a", metavar="A", help="math set before: directory or bundled set name")
    p.add_argument("b", metavar="B", help="math set after: directory or bundled set name")
    p.add_argument("--json", action="store_true", help="one JSON object; exact figures as \"p/q\" strings")
    p.add_argument("--changed", action="store_true", help="text view: list only the figures that changed")
    p.add_argument("--digits", type=int_range(0, 60), default=10, help="decimal places in the text view (default 10)")


def run(args) -> int:
    """``rtp diff A B``: exit 0 if no published fact broke, 1 if one did, 2 on bad input."""
    a, b = load_math_set(args.a), load_math_set(args.b)
    refuse_unsupported(a, "diff")
    refuse_unsupported(b, "diff")
    try:
        d = diff_sets(a, b)
    except ValueError as e:
        raise UsageError(f"rtp diff: {e}") from None
    if args.json:
        print(json.dumps(diff_json(d), indent=2))
    else:
        print(diff_text(d, args.digits, every=not args.changed), end="")
    return d.exit_code
