"""``rtp check``: each published fact of a math set (its published.toml): printed, exact, PASS/FAIL."""
from __future__ import annotations

import json
from fractions import Fraction

from exact.cli.args import add_set_argument, refuse_unsupported
from exact.facts import json_value, check_facts
from strips.loader import PUBLISHED_FILE, load_math_set
from strips.decimals import digit_count


def add_arguments(p) -> None:
    add_set_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args) -> int:
    """Print each fact (printed, exact, PASS/FAIL) and each assumption; exit 1 on any FAIL, 0 otherwise.

    A set without published.toml has nothing to check: one line, exit 0.  A
    fact naming a figure the report lacks is bad input (exit 2, file:row:col).
    """
    ms = load_math_set(args.set)
    refuse_unsupported(ms, 'check')
    if ms.published.empty:
        note = (f"math set {ms.name}: {ms.published.file} holds no fact, nothing to check" if ms.published.file
                else f"math set {ms.name}: no {PUBLISHED_FILE}, nothing to check")
        if args.json:
            print(json.dumps({"set": ms.name, "passed": True, "facts": [], "note": note}, indent=2))
        else:
            print(note)
        return 0
    results = check_facts(ms)
    failed = [r for r in results if r.failed]
    if args.json:
        print(json.dumps({"set": ms.name, "file": ms.published.file, "passed": not failed, "facts": [
            {"fact": r.fact, "source": r.source, "figure": r.figure or None, "published": r.published,
             "exact": json_value(r.exact), "shown": r.shown, "status": r.status} for r in results]}, indent=2))
        return 1 if failed else 0
    print(f"published facts of math set {ms.name} ({ms.published.file})")
    for r in results:
        print(f"{r.status:<18} {r.fact}" + (f" [{r.source}]" if r.source else ""))
        print(f"{'':18}   published: {r.published}")
        exact = r.exact
        if isinstance(exact, Fraction) and digit_count(exact.denominator) > 40:
            print(f"{'':18}   exact:     a fraction of {digit_count(exact.numerator)}/{digit_count(exact.denominator)} "
                  f"digits (see --json) -> {r.shown}")
        elif isinstance(exact, Fraction):
            print(f"{'':18}   exact:     {exact.numerator}/{exact.denominator} -> {r.shown}")
        else:
            print(f"{'':18}   on set:    {r.shown}")
    n_facts = sum(1 for r in results if r.is_fact)
    print(f"{n_facts - len(failed)} of {n_facts} facts pass" + (f"; {len(failed)} FAIL" if failed else ""))
    return 1 if failed else 0
