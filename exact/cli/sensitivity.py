"""``rtp sensitivity``: exact RTP change per strip edit and per FISH weight."""
from __future__ import annotations

import json
import time

from exact.cli.args import UsageError, add_set_argument, int_range, refuse_unsupported
from exact.sensitivity import edit_work, sensitivity, sensitivity_json, sensitivity_text
from exact.facts import check_facts
from strips.loader import load_math_set
from strips.limits import exceeds, refusal


def add_arguments(p) -> None:
    add_set_argument(p)
    p.add_argument("--top", type=int_range(1), default=10, metavar="N", help="levers listed in each direction (default 10)")
    p.add_argument("--json", action="store_true", help="one JSON object; exact figures as \"p/q\" strings")
    p.add_argument("--all", dest="every", action="store_true", help="also list every strip edit")
    p.add_argument("--any", dest="any_edit", action="store_true",
                   help="rank edits that break a strip rule or a published window too")


def run(args) -> int:
    """``rtp sensitivity``: exact RTP change per strip edit and per FISH weight; exit 0 (2 on bad input).

    For a set that already fails a fact of its published.toml, the output says so first.
    """
    ms = load_math_set(args.set)
    refuse_unsupported(ms, 'sensitivity')
    work = edit_work(ms)
    limit = exceeds("edit_work", work)
    if limit is not None:
        raise UsageError(f"rtp sensitivity: {ms.name}: {refusal('edit_work', work, limit, 'strip edits x window rows')}")
    start = time.perf_counter()
    try:
        s = sensitivity(ms)
    except ValueError as e:
        raise UsageError(f"rtp: {ms.name}: {e}") from None
    seconds = time.perf_counter() - start
    failing = [f.fact for f in check_facts(ms) if f.failed]
    if args.json:
        out = sensitivity_json(s, args.top, args.every, not args.any_edit)
        out["published_facts_failing"] = failing
        print(json.dumps(out, indent=2))
    else:
        text = sensitivity_text(s, args.top, seconds, args.every, not args.any_edit)
        if failing:   # the levers are ranked from a set that already breaks the page
            note = (f"note: this set already fails {len(failing)} published fact(s) of its published.toml "
                    f"(rtp check lists them), e.g. {failing[0]}\n")
            head, _, rest = text.partition("\n")
            text = head + "\n" + note + rest
        print(text, end="")
    return 0
