"""``rtp tune``: RTP variants of a math set with few strip edits, exactly.

``rtp tune --set SET --target-rtp 0.94 --out DIR`` writes one variant into DIR;
``rtp tune --set SET --variants 0.96,0.94,0.92,0.88 --out DIR`` writes one
subdirectory per target (``DIR/rtp_96``, ``DIR/rtp_94``, ...).  Each variant is
the game file (a byte copy), every other file of the set, and new strip CSVs.
For each variant the command prints the ``rtp diff`` of the input and the
variant (figures that changed), what was kept exactly, and a one-line verdict.

Exit 0 when every variant is within its tolerance and keeps everything;
1 when a target cannot be met under the constraints (the closest exact RTP
reached by a set that keeps everything is printed; no set is written for it);
2 on bad input.  A set whose exact recheck breaks a kept figure or a published
fact is never written: the search only returns sets that keep every published
fact (:func:`exact.variants.tune`, ``check``), and the result is checked again
in memory before anything is written.  The method is in :mod:`exact.variants`.
"""
from __future__ import annotations

import json
import sys
import time
from fractions import Fraction

from exact.cli.args import UsageError, add_set_argument, exact_number, refuse_unsupported
from exact.cli.outputs import check_output, protected_inputs, write_output_dir
from exact.diff import diff_sets, diff_text
from exact.report import fraction_text, percent
from exact.variants import ALLOW, DEFAULT_TOLERANCE, SEARCH_SECONDS, exact_rtp, kept_figures, tune, variant_files
from exact.facts import check_facts
from strips.loader import load_math_set, resolve

#: What ``--keep`` may name beyond the defaults (strip lengths, feature symbols, strip rules, published facts).
KEEP = ("hit-frequency",)
DEFAULT_HIT_TOLERANCE = Fraction(1, 100)


def _fraction(text: str, what: str) -> Fraction:
    """A decimal or a per cent (``0.94``, ``94%``) as an exact Fraction (never through a float)."""
    return exact_number(text, f"rtp tune: {what}", percent=True)


def add_arguments(p) -> None:
    add_set_argument(p)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--target-rtp", metavar="RTP", help="target RTP as a fraction of the bet, e.g. 0.94 (or 94%%)")
    which.add_argument("--variants", metavar="RTP,RTP,...",
                       help="several targets, e.g. 0.96,0.94,0.92,0.88: one subdirectory of --out each")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory (new or empty; never the input set)")
    p.add_argument("--tolerance", default=None, metavar="T",
                   help="accepted |RTP - target|, a fraction of the bet (default 0.0001 = 0.01 pp; 0 = exactly the "
                        "target: searched for the closest exact RTP within --time-limit)")
    p.add_argument("--time-limit", default=None, metavar="S", type=float,
                   help=f"seconds the search for one target may take (default {SEARCH_SECONDS:g}); at the limit "
                        "the closest exact RTP found is reported")
    p.add_argument("--write-closest", action="store_true",
                   help="when a target is not met, write the closest set found (it keeps everything but misses "
                        "the target; the verdict says NOT MET and the exit status stays 1)")
    p.add_argument("--keep", action="append", default=[], metavar="WHAT",
                   help="also keep: hit-frequency (the base hit frequency within --hit-tolerance); "
                        "strip lengths, feature symbols, strip rules and published facts are always kept")
    p.add_argument("--allow", action="append", default=[], metavar="WHAT",
                   help="may also change, when pay-for-pay swaps cannot meet a target: fish-weights (FISH "
                        "weight tables, totals kept; published FISH probabilities then change)")
    p.add_argument("--hit-tolerance", default=None, metavar="R",
                   help="relative tolerance of --keep hit-frequency (default 0.01 = 1%% of the input's)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of the text view")


#: Largest target RTP accepted (a fraction of the bet; 2 = 200% is a legitimate unreachable target):
#: above it ("94") the value is a slip for 0.94 or 94%.
MAX_TARGET = Fraction(10)


def _targets(args) -> list[tuple[str, Fraction]]:
    texts = [args.target_rtp] if args.target_rtp is not None else [t for t in args.variants.split(",")]
    out = []
    for t in texts:
        value = _fraction(t, "a target RTP")
        if value <= 0:
            raise UsageError(f"rtp tune: a target RTP must be positive, got {t!r}")
        if value > MAX_TARGET:   # "2" or "94" is a slip for 0.94 / 94%, not a 200% or 9400% game
            raise UsageError(f"rtp tune: a target RTP is a fraction of the bet such as 0.94 (or 94%), at most "
                             f"{MAX_TARGET}, got {t!r}")
        out.append((t.strip(), value))
    if not out:
        raise UsageError("rtp tune: --variants lists no target")
    return out


def _subdir(value: Fraction) -> str:
    """``rtp_94`` for 0.94, ``rtp_94.5`` for 0.945."""
    pct = value * 100
    if pct.denominator == 1:
        return f"rtp_{pct.numerator}"
    text = f"{float(pct):.6f}".rstrip("0").rstrip(".")
    return f"rtp_{text}"


def _shown(k) -> str:
    """The kept value of a probability table, rounded for display (the check itself is exact)."""
    if k.ok and isinstance(k.after, tuple) and k.after and all(isinstance(x, Fraction) for x in k.after):
        return ": " + " / ".join(f"{float(x):.8f}" for x in k.after) + " (exactly equal)"
    return ""


def _other_files(spec, ms) -> dict[str, bytes]:
    """Files of the input set directory besides the game file and strip CSVs (published facts, notes)."""
    _, directory = resolve(spec)
    skip = set(ms.model.strip_files.values()) | {"game.toml"}
    out = {}
    for f in sorted(directory.iterdir()):
        if f.is_file() and not f.name.startswith(".") and f.name not in skip and f.suffix not in (".py", ".pyc"):
            out[f.name] = f.read_bytes()
    return out


def broken_facts(ms):
    """A check for :func:`exact.variants.tune`: the published facts a variant fails that ``ms`` passes
    (the ``broken`` of :func:`exact.diff.diff_sets`)."""
    kept = {f.fact for f in check_facts(ms) if f.is_fact and not f.failed}
    return lambda var: [f.fact for f in check_facts(var) if f.is_fact and f.failed and f.fact in kept]


def run(args) -> int:
    """``rtp tune``: exit 0 all variants met, 1 a target not met (closest printed), 2 bad input."""
    targets = _targets(args)
    tolerance = DEFAULT_TOLERANCE if args.tolerance is None else _fraction(args.tolerance, "--tolerance")
    if tolerance < 0:
        raise UsageError("rtp tune: --tolerance must not be negative")
    budget = SEARCH_SECONDS if args.time_limit is None else args.time_limit
    if not budget > 0 or budget == float("inf"):
        raise UsageError(f"rtp tune: --time-limit must be a positive number of seconds, got {args.time_limit}")
    keep = [k.strip() for item in args.keep for k in item.split(",") if k.strip()]
    for k in keep:
        if k not in KEEP:
            raise UsageError(f"rtp tune: --keep {k!r}: can keep {', '.join(KEEP)} (the rest is always kept)")
    allow = frozenset(k.strip() for item in args.allow for k in item.split(",") if k.strip())
    for k in allow:
        if k not in ALLOW:
            raise UsageError(f"rtp tune: --allow {k!r}: can allow {', '.join(ALLOW)}")
    hit_tol = None
    if args.hit_tolerance is not None:
        if "hit-frequency" not in keep:
            raise UsageError("rtp tune: --hit-tolerance applies to --keep hit-frequency only; give both or neither")
        hit_tol = exact_number(args.hit_tolerance, "rtp tune: --hit-tolerance", percent=True, minimum=Fraction(0))
    elif "hit-frequency" in keep:
        hit_tol = DEFAULT_HIT_TOLERANCE
    ms = load_math_set(args.set)
    refuse_unsupported(ms, 'tune')
    protected = protected_inputs(args.set, ms)
    out = check_output(args.out, "rtp tune", "dir", protected)
    many = args.variants is not None
    dests = [out / _subdir(v) if many else out for _, v in targets]
    if len(set(dests)) != len(dests):
        raise UsageError("rtp tune: two targets give the same output directory")
    if not many and out.exists() and any(out.iterdir()):
        raise UsageError(f"rtp tune: {args.out}: the directory is not empty; give a new or empty directory")
    for d in dests if many else []:
        if d.exists():
            raise UsageError(f"rtp tune: {d}: exists already; give a new output directory")
    checked = not ms.published.empty
    fact_check = broken_facts(ms) if checked else None
    extra_files = _other_files(args.set, ms)
    results, code = [], 0
    if many:
        out.mkdir(exist_ok=True)
    for (text, target), dest in zip(targets, dests):
        start = time.perf_counter()
        try:
            v = tune(ms, target, tolerance, keep_hit_frequency=hit_tol, allow=allow, check=fact_check, seconds=budget)
        except ValueError as e:
            raise UsageError(f"rtp tune: {ms.name}: {e}") from None
        seconds = time.perf_counter() - start
        results.append(_report(args, ms, v, text, dest, extra_files, checked, hit_tol, seconds))
        code = max(code, results[-1]["exit"])
    if args.json:
        print(json.dumps({"set": ms.name, "variants": results}, indent=2))
    return code


def _report(args, ms, v, text, dest, extra_files, checked, hit_tol, seconds) -> dict:
    """Write (if met), recheck from the files, print the diff and the verdict; the JSON record."""
    n = len(v.edits)
    bound = ("proven minimal" if v.minimal else
             f"a heuristic bound; proven lower bound {v.lower_bound}")
    weights = sum(1 for _, _, old, new in v.weights for x, y in zip(old, new) if x != y)
    target_text = (f"{percent(v.target, 2)} +/- {float(v.tolerance * 100):g} pp" if v.tolerance else
                   f"exactly {fraction_text(v.target)}")
    searched = f"searched {v.seconds:.1f} s, {v.rounds} exact rechecks, stopped: {v.stopped}"
    rec = {"target": fraction_text(v.target), "target_float": float(v.target),
           "tolerance": fraction_text(v.tolerance), "rtp_input": fraction_text(v.rtp_input),
           "rtp": fraction_text(v.rtp), "rtp_float": float(v.rtp), "met": v.met, "edits": n,
           "lower_bound": v.lower_bound, "minimal": v.minimal, "rounds": v.rounds, "seconds": round(seconds, 3),
           "search_seconds": round(v.seconds, 3), "stopped": v.stopped, "closest_written": False,
           "changes": [str(e) for e in v.edits], "weights_changed": weights,
           "weight_tables": [{"symbol": s, "table": t, "before": list(a), "after": list(b)} for s, t, a, b in v.weights],
           "out": None, "kept": {}, "published_broken": [], "exit": 0}
    if not v.met:
        how = (f"{n} strip edits + {weights} FISH weights" if weights else
               f"{n} strip edits (pay symbols swapped for pay symbols only"
               + ("" if "fish-weights" in getattr(args, "allow", []) else "; --allow fish-weights may get further")
               + ")")
        why = ""
        if v.rejected:
            why = (f"; a closer result broke published facts ({'; '.join(v.rejected)}): every published fact is "
                   f"kept, so it is not a variant")
        line = (f"{text}: NOT MET: target {target_text}; closest exact RTP reached {percent(v.rtp, 6)} "
                f"(off by {float(abs(v.rtp - v.target) * 100):.3g} pp) with {how}{why}; {searched}")
        rec.update(exit=1, published_broken=list(v.rejected))
        if not args.write_closest or not v.edits and not v.weights:
            line += "; no set written" + ("" if args.write_closest else " (--write-closest writes the closest set)")
            if not args.json:
                print(line)
            rec["verdict"] = line
            return rec
    # checked in memory before anything is written: a variant never breaks a kept figure or a published fact
    kept = kept_figures(ms, v.math_set, hit_tol, weights_changed=bool(v.weights))
    broken = list(diff_sets(ms, v.math_set).broken) if checked else []
    if not all(k.ok for k in kept) or (broken and not v.weights):
        what = [k.name for k in kept if not k.ok] + [f"published fact {b}" for b in broken]
        line = (f"{text}: FAILED: exact RTP {percent(v.rtp, 6)} (target {target_text}) but the exact recheck "
                f"breaks {'; '.join(what)}; no set written")
        rec.update(exit=1, published_broken=broken, kept={k.name: k.ok for k in kept}, verdict=line)
        if not args.json:
            print(line)
        return rec
    try:
        files = variant_files(ms, v)
    except ValueError as e:
        raise UsageError(f"rtp tune: {ms.name}: {e}") from None
    files.update({k: b for k, b in extra_files.items() if k not in files})
    if v.rtp > 1:   # legitimate (a promotion, a test), but never silent: the variant pays more than it takes
        print(f"rtp tune: warning: {dest}: the variant's RTP is {percent(v.rtp, 2)}, above 100% of the bet: "
              f"it pays out more than it takes in", file=sys.stderr)
    write_output_dir(dest, files, protected_inputs(args.set, ms), "rtp tune")  # whole, atomically
    written = load_math_set(str(dest))
    rtp = exact_rtp(written)
    if rtp != v.rtp:
        raise UsageError(f"rtp tune: internal error: the written set's RTP {rtp} differs from the tuned {v.rtp}")
    kept = kept_figures(ms, written, hit_tol, weights_changed=bool(v.weights))
    d = diff_sets(ms, written)
    broken = list(d.broken)
    ok = all(k.ok for k in kept) and (not broken or bool(v.weights)) and abs(rtp - v.target) <= v.tolerance
    rec.update(out=str(dest), kept={k.name: k.ok for k in kept}, published_broken=broken, exit=0 if ok else 1)
    facts = ("published facts: none broken" if checked else "published facts: none (no published.toml)")
    if broken:
        facts = (f"published facts changed by --allow fish-weights: {len(broken)}" if v.weights else
                 "BROKEN published facts: " + "; ".join(broken))
    changes = f"{n} strip edit{'s' if n != 1 else ''}" + (f" + {weights} FISH weights" if weights else "")
    if v.met:
        line = (f"{text}: {'MET' if ok else 'FAILED'}: exact RTP {percent(rtp, 6)} (target {target_text}), "
                f"{changes} ({bound}), kept {sum(k.ok for k in kept)} of {len(kept)}, {facts} -> {dest}")
    else:   # --write-closest: the closest set, written because it was asked for; the target is not met
        line = (f"{text}: NOT MET, closest set written: exact RTP {percent(rtp, 6)} (target {target_text}, off by "
                f"{float(abs(rtp - v.target) * 100):.3g} pp), {changes}, kept {sum(k.ok for k in kept)} of "
                f"{len(kept)}, {facts}; {searched} -> {dest}")
        rec.update(exit=1, closest_written=True)
    rec["verdict"] = line
    if not args.json:
        print(f"=== VARIANT {text} -> {dest} ({seconds:.1f} s, {v.rounds} exact rechecks)")
        print(diff_text(d, 6, every=False), end="")
        print("KEPT (checked exactly on the written set)")
        for k in kept:
            print(f"  {'ok    ' if k.ok else 'BROKEN'}  {k.name}{_shown(k)}")
        print(line)
        print()
    return rec
