"""``rtp comply``: every rule of the chosen jurisdictions on a math set: value, limit, PASS/FAIL.

Exit 0 when every rule passes, 1 on a FAIL, 2 on bad input (one line).
"""
from __future__ import annotations

import json

from exact.cli import grid as grid_cli
from exact.cli.args import UsageError, add_set_argument, refuse_costly, refuse_unsupported
from exact.grid import is_grid
from exact.comply import comply, load_rules, odds_not_computed, top_award_refusal
from exact.distribution import win_distribution
from exact.round_distribution import distribution_units, unit_distribution, unit_label
from strips.errors import UnsupportedRule
from exact.par import par_sheet
from exact.formatting import fraction_text, one_in, scientific, table_lines
from fractions import Fraction
from strips.loader import load_math_set


def add_arguments(p) -> None:
    """Options of ``rtp comply``."""
    add_set_argument(p)
    p.add_argument("--jurisdiction", action="extend", nargs="+", metavar="ID", default=None,
                   help="jurisdiction ids: several after one flag (--jurisdiction gli-11 nevada) or the flag "
                        "repeated (default: every jurisdiction in the rules)")
    p.add_argument("--rules", metavar="FILE", default=None,
                   help="a rules file of your own (the format of exact/jurisdictions.toml), added to the package's")
    p.add_argument("--json", action="store_true", help="one JSON object; exact values as \"p/q\" strings")
    grid_cli.add_simulation_arguments(p)
    p.add_argument("--no-distribution", action="store_true",
                   help="skip the win distribution (faster): no top award, max_win_bets rules refused")


def _value_text(c) -> str:
    if c.value is None and c.rule.measure in ("award_odds", "pattern_odds_ways", "hit_frequency"):
        p = c.value_float        # a float within a proven bound (the distribution's), said in the item
        return f"{p:.6g} (1 in {1 / p:.6g})" if p > 0 else f"{p:.6g} (never)"
    if c.value is None:
        return f"{c.value_float:.{c.rule.decimals or 2}f}"
    if c.rule.measure in ("award_odds", "pattern_odds_ways", "hit_frequency"):
        shown = scientific(c.value) if c.value and abs(c.value) < Fraction(1, 10 ** 300) else f"{c.value_float:.6g}"
        return f"{shown} ({one_in(c.value)})" + ("" if c.exact else " (lower bound)")
    if c.rule.measure == "rtp":
        return f"{c.value_float * 100:.6f}%"
    return f"{c.value_float:.6g}"


def _limit_text(rule) -> str:
    if rule.measure != "rtp":
        return rule.limit_text()
    return " and ".join(f"{op} {float(x) * 100:g}%" for op, x in ((">=", rule.min), ("<=", rule.max)) if x is not None)


def distribution_or_reason(ms, skip: bool):
    """(the win distribution, None), or (None, why it is not there): skipped, or a rule it refuses."""
    if skip:
        return None, "--no-distribution"
    try:
        return win_distribution(ms), None
    except ValueError as e:
        return None, f"the win distribution refuses this game: {e}"


def unit_distributions_or_reasons(ms, skip: bool) -> tuple[dict, dict]:
    """The win distributions of the other bet modes and the buys (label -> WinDistribution,
    :func:`exact.round_distribution.unit_label`), and label -> why one is not there (a rule it refuses)."""
    found, why = {}, {}
    if skip:
        return found, why
    for name, kind in distribution_units(ms)[1:]:
        label = unit_label(name, kind)
        try:
            found[label] = unit_distribution(ms, name, kind)
        except (ValueError, UnsupportedRule) as e:
            why[label] = str(e)
    return found, why


def run(args) -> int:
    """Print one line per rule and item; exit 1 if any fails."""
    rules = load_rules(args.rules)
    known = sorted({r.jurisdiction for r in rules})
    chosen = args.jurisdiction
    if chosen:
        for j in chosen:
            if j.lower() not in known:
                raise UsageError(f"rtp comply: unknown jurisdiction {j!r} (known: {', '.join(known)})")
    ms = load_math_set(args.set)
    # RTP of every mode and buy; award odds of every mode but one with a respin (exact.comply.odds_not_computed)
    refuse_unsupported(ms, 'comply')
    if not args.no_distribution:
        refuse_costly(ms, 'comply', 'distribution', "or leave it out with --no-distribution")
    if is_grid(ms):   # a grid of independent cells: exact or simulated figures, intervals for simulated ones
        return grid_cli.comply(args, ms, rules, chosen)
    try:
        sheet = par_sheet(ms)
    except ValueError as e:
        raise UsageError(f"rtp comply: {ms.name}: {e}") from None
    dist, why = distribution_or_reason(ms, args.no_distribution)
    picked = {j.lower() for j in chosen} if chosen else None      # as exact.comply.comply reads them
    applying = [r for r in rules if picked is None or r.jurisdiction in picked]
    needs_max = [r.id for r in applying if r.measure == "max_win_bets"]
    if needs_max and dist is None:
        raise UsageError(f"rtp comply: rule {needs_max[0]} (max_win_bets) needs the win distribution ({why})")
    others, others_why = unit_distributions_or_reasons(ms, args.no_distribution)
    if needs_max and others_why:
        label, reason = next(iter(others_why.items()))
        raise UsageError(f"rtp comply: rule {needs_max[0]} (max_win_bets) needs the win distribution of {label} "
                         f"({reason})")
    try:
        checks = comply(ms, rules, chosen, sheet=sheet, distribution=dist, unit_distributions=others)
    except ValueError as e:
        raise UsageError(f"rtp comply: {ms.name}: {e}") from None
    failed = [c for c in checks if not c.passed]
    skipped = odds_not_computed(sheet)
    # the top award is an award_odds check: say so wherever it is skipped (summary line and JSON)
    by_reason: dict = {}
    for label, reason in others_why.items():
        by_reason.setdefault(reason, []).append(label)
    for label, d in others.items():      # a unit whose distribution has no largest round win
        reason = top_award_refusal(d)
        if reason:
            by_reason.setdefault(reason, []).append(label)
    own = why or (top_award_refusal(dist) if dist is not None else None)
    unchecked = ([own] if own else []) + [f"{', '.join(labels)}: {reason}" for reason, labels in by_reason.items()
                                          if not (own and own.endswith(reason))]
    top_skipped = "; ".join(unchecked) if unchecked and any(r.measure == "award_odds" for r in applying) else None
    if not checks:      # nothing was checked: never a PASS
        raise UsageError(f"rtp comply: {ms.name}: none of the chosen rules could be checked"
                         + (f" (top award: {top_skipped})" if top_skipped else ""))
    if args.json:
        print(json.dumps({"set": ms.name, "passed": not failed, "checks": [
            {"rule": c.rule.id, "jurisdiction": c.rule.jurisdiction, "measure": c.rule.measure, "item": c.item,
             "value": None if c.value is None else fraction_text(c.value), "value_float": c.value_float,
             "exact": c.exact,
             "limit": fraction_text(c.rule.min) if c.rule.min is not None else
             (fraction_text(c.rule.max) if c.rule.max is not None else None),
             "min": None if c.rule.min is None else fraction_text(c.rule.min),
             "max": None if c.rule.max is None else fraction_text(c.rule.max),
             "pass": c.passed, "source": c.rule.citation()}
            for c in checks], "top_award_checked": top_skipped is None,
            **({"top_award_not_checked": top_skipped} if top_skipped else {}),
            **({"award_odds_not_computed_for_modes": skipped} if skipped else {})}, indent=2))
        return 1 if failed else 0
    print(f"compliance of math set {ms.name}: {len(checks) - len(failed)} of {len(checks)} checks pass"
          + (f"; top award not checked ({top_skipped})" if top_skipped else ""))
    for mode, reason in skipped.items():
        print(f"bet mode {mode}: RTP, triggers and wheel awards checked, odds of its combinations not computed "
              f"({reason})")
    rows = [[c.rule.id, c.rule.jurisdiction, c.item, _value_text(c), _limit_text(c.rule),
             "PASS" if c.passed else "FAIL"] for c in checks]
    print("\n".join(table_lines(["rule", "jurisdiction", "item", "value", "limit", "verdict"], rows, "lllrll")))
    print("\nsources:")
    for r in {c.rule.id: c.rule for c in checks}.values():
        print(f"  {r.id}: {r.citation()}")
    return 1 if failed else 0
