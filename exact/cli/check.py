"""``rtp check``: each published fact of a math set: published, exact, PASS/FAIL."""
from __future__ import annotations

import json
from fractions import Fraction

from exact.cli.args import UsageError, add_set_argument
from exact.formatting import value_text
from proofs.facts import _json_value, check_facts
from strips.published import RULES_PAGE_GAME, applies_to
from strips.loader import load_math_set


def add_arguments(p) -> None:
    add_set_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args) -> int:
    """Print each fact (published, exact, PASS/FAIL) and the RTP assumption; exit 1 on any FAIL."""
    ms = load_math_set(args.set)
    if not applies_to(ms):
        raise UsageError(f"rtp check: {ms.name}: the published facts are those of the rules page (game "
                         f"'{RULES_PAGE_GAME}'); game '{ms.model.name}' publishes none that this tool holds")
    results = check_facts(ms)
    failed = [r for r in results if r.failed]
    if args.json:
        print(json.dumps({"set": ms.name, "passed": not failed, "facts": [
            {"fact": r.fact, "source": r.source, "published": r.published, "exact": _json_value(r.exact),
             "shown": r.shown, "status": r.status} for r in results]}, indent=2))
        return 1 if failed else 0
    print(f"published facts of the rules page on math set {ms.name}")
    for r in results:
        print(f"{r.status:<18} {r.fact} [{r.source}]")
        print(f"{'':18}   published: {r.published}")
        exact = r.exact
        if isinstance(exact, Fraction) and len(str(exact.denominator)) > 40:
            print(f"{'':18}   exact:     a fraction of {len(str(exact.numerator))}/{len(str(exact.denominator))} "
                  f"digits (see --json) -> {r.shown}")
        elif isinstance(exact, Fraction):
            print(f"{'':18}   exact:     {exact.numerator}/{exact.denominator} -> {r.shown}")
        elif r.shown != value_text(exact):
            print(f"{'':18}   exact:     {value_text(exact)} -> {r.shown}")
        else:
            print(f"{'':18}   on set:    {r.shown}")
    n_facts = sum(1 for r in results if r.is_fact)
    print(f"{n_facts - len(failed)} of {n_facts} facts pass" + (f"; {len(failed)} FAIL" if failed else ""))
    return 1 if failed else 0
