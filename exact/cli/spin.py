"""``rtp spin``: one spin of a math set, evaluated by the rules-page evaluator.

Source: rules page sections 3 (window from stops), 6-11 (the win of a spin);
WILD multipliers as in :mod:`exact.evaluator` (``--wild`` gives the drawn values).
"""
from __future__ import annotations

import json
from fractions import Fraction

from exact.cli.args import UsageError, add_set_argument, int_list, refuse_unsupported
from exact.cli.spin_falls import print_falls
from exact.evaluator import cell_multipliers, default_fish_values, evaluate
from exact.rules import (combination_wilds, initial_spins, one_spin_round, phase_reading, retrigger_spins, rules_of,
                         spin_draw, spin_views)
from exact.falls import falls_game
from exact.formatting import fraction_text
from exact.rounds import feature_spins
from exact.cli import grid as grid_cli
from exact.grid import is_grid
from strips.loader import load_math_set


def add_arguments(p) -> None:
    add_set_argument(p)
    p.add_argument("--phase", default="base", help="base or a free-spin level number 1..4 (default base)")
    p.add_argument("--stops", default=None, help="stop positions, one per reel, e.g. 10,11,81,14,32")
    p.add_argument("--cells", default=None, help="grid games: the grid, rows top first, separated by '/', e.g. "
                   "'C K W / B B C / C C C'")
    p.add_argument("--refill", default=None, help="grid games: the refill symbols in order (path order from "
                   "the entry, evaluation after evaluation), e.g. C,C,C,C")
    p.add_argument("--seed", type=int, default=None, help="grid games: draw the refills (and, without --cells, "
                   "the grid) with this seed")
    p.add_argument("--feature", default=None, help="grid games with random features: apply this feature to the "
                   "drop before its first evaluation, its draws from --seed (without --cells and --feature, "
                   "--seed draws the feature too)")
    p.add_argument("--fish", default=None, help="value of each FISH in the window, reel-major, top to bottom "
                   "(default: the lowest value of each)")
    p.add_argument("--wild", default=None, help="drawn multiplier of each WILD in the window (mode wild) or of "
                   "each reel showing the WILD (mode reel), reel-major, top to bottom (default: the lowest "
                   "value of each); games with drawn WILD multipliers only")
    p.add_argument("--combination", type=int, default=None, help="the combination WILD multiplier drawn for "
                   "the spin (default: its lowest value); games with a combination multiplier only")
    p.add_argument("--values", default=None, help="values of the multiplier symbol, in the order its cells (per "
                   "reel: its reels) appear in the spin, reel by reel, top to bottom, then at each refill "
                   "(default: its first value each); games with a multiplier symbol only")
    p.add_argument("--draw", default=None, help="free spins of a game with an expanding symbol: the symbol drawn "
                   "at their start (default: the first of its draw table)")
    p.add_argument("--mode", default="default", help="bet mode of the game's [modes] (default: the game's own); "
                   "its strips, trigger table and respin apply")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def phase_of(model, text: str):
    """The Phase named by ``base``, ``2`` or ``level2``; UsageError otherwise."""
    if text == "base":
        return model.base_phase
    levels = {str(lv.number): lv for lv in model.levels}
    key = text[5:] if text.startswith("level") else text
    if key not in levels:
        choices = f"base or one of {', '.join(levels)}" if levels else "base (the game has no free spins)"
        raise UsageError(f"rtp: --phase must be {choices}, got {text!r}")
    return model.level_phase(levels[key])


def strips_heading(model, phase, mode: str) -> str:
    """``phase base (base strips: base.csv)``, or for a bet mode that spins its own file
    ``bet mode fortune_bet, phase base (the mode's base strips: fortune_bet.csv)``: the strips actually spun."""
    file = model.strip_files.get(phase.strips, "?")
    if mode == "default":
        return f"phase {phase.name} ({phase.strips} strips: {file})"
    return f"bet mode {mode}, phase {phase.name} (the mode's {phase.strips} strips: {file})"


def run(args) -> int:
    """Print the window, each paying symbol, collect, KEY and scatter counts, free spins started and the
    win (credits); ``--json``: the same as one object (``fish_values`` in the window's row layout)."""
    ms = load_math_set(args.set)
    refuse_unsupported(ms, 'spin')
    if is_grid(ms):   # a grid of independent cells: no stops, the cascade of a given grid
        return grid_cli.spin(args, ms)
    if args.stops is None or args.cells is not None or args.refill is not None or args.seed is not None:
        raise UsageError("rtp spin: give --stops (--cells, --refill, --seed are for grid games)")
    if args.mode not in ms.mode_names:
        raise UsageError(f"rtp: --mode must be one of {', '.join(ms.mode_names)}, got {args.mode!r}")
    ms = ms.mode(args.mode)
    model = ms.model
    phase = phase_of(model, args.phase)
    strips = ms.phase_strips(phase)
    stops = int_list(args.stops, "--stops")
    if len(stops) != model.reels:
        raise UsageError(f"rtp: --stops needs {model.reels} stop positions, got {len(stops)}")
    for r, (s, n) in enumerate(zip(stops, strips.lengths)):
        if not 0 <= s < n:
            raise UsageError(f"rtp: stop {s} of reel {r + 1} is outside 0..{n - 1}")
    if falls_game(model):      # a rule without per-reel terms: every fall by the literal reading
        values = None if args.values is None else int_list(args.values, "--values")
        return print_falls(ms, phase, stops, args.json, values)
    window = strips.window(stops, model.rows)
    try:
        model = spin_draw(phase_reading(model, phase), phase, args.draw)   # the phase's reading, the symbol drawn
    except ValueError as e:
        raise UsageError(f"rtp: {e}") from None
    fish = None if args.fish is None else int_list(args.fish, "--fish")
    wild = None if args.wild is None else int_list(args.wild, "--wild")
    try:
        if args.combination is not None and not combination_wilds(model):
            raise ValueError("--combination: the game has no WILD with a combination multiplier")
        res = evaluate(model, window, fish, phase.multiplier, wild, args.combination)
        cells = cell_multipliers(model, window, wild)
    except ValueError as e:
        raise UsageError(f"rtp: {e}") from None
    multiplied = any(s.multiplier is not None and not s.multiplier.is_combination for s in model.symbols)
    fish_cells = [(r, i) for r in range(model.reels) for i in range(model.rows)
                  if model.symbol(window[r][i]).kind == "fish"]
    value_at = dict(zip(fish_cells, res_fish_values(model, window, fish)))
    views, lines = spin_views(model, phase, window, res)
    if args.json:
        out = {
            "set": ms.name, "mode": args.mode, "phase": phase.name,
            "strips": {"set": phase.strips, "file": model.strip_files.get(phase.strips)}, "stops": stops,
            "window": [[window[r][i] for r in range(model.reels)] for i in range(model.rows)],
            "ways": [{"symbol": w.symbol, "oak": w.oak, "ways": w.ways, "pay": w.pay} for w in res.ways],
            "ways_pays": res.ways_pays, "fish_sum": res.fish_sum, "collect": res.collect,
            "keys": res.keys, "fs": res.scatters, "multiplier": res.multiplier, "win": res.win,
            "fish_values": [[value_at.get((r, i)) for r in range(model.reels)] for i in range(model.rows)],
            "scatter_pay": res.scatter_pay,
            "free_spins": awarded(model, res, phase),
        }
        out.update(views)   # each rule's keys: paylines, scatter counts, trigger reels, wheels, respin, ...
        out.update(round_rules(model, phase, res.win, as_json=True))
        out.update({name.replace(" ", "_"): _json_fractions(v) for name, v in feature_spins(ms, phase, window).items()})
        if multiplied:  # games with WILD multipliers: each WILD's multiplier, window layout
            out["wild_multipliers"] = [[cells[r][i] if model.symbol(window[r][i]).kind == "wild" else None
                                        for r in range(model.reels)] for i in range(model.rows)]
            out["wild_values"] = list(res.wild_values)
        print(json.dumps(out, indent=2))
        return 0
    print(f"math set {ms.name}, {strips_heading(model, phase, args.mode)}, stops {','.join(map(str, stops))}")
    fish_iter = iter(res_fish_values(model, window, fish))
    text = [[None] * model.reels for _ in range(model.rows)]
    for r in range(model.reels):
        for i in range(model.rows):
            name = window[r][i]
            kind = model.symbol(name).kind
            text[i][r] = (f"{name}={next(fish_iter)}" if kind == "fish"
                          else f"{name}=x{cells[r][i]}" if kind == "wild" and multiplied else name)
    width = max(9, max(len(c) for row in text for c in row) + 2)
    print(" " * 7 + "".join(f"Reel {r + 1}".ljust(width) for r in range(model.reels)))
    for i, row in enumerate(text):
        print(f"Row {i + 1}  " + "".join(c.ljust(width) for c in row))
    print()
    for w in res.ways:
        print(f"{w.symbol}: {w.oak} of a kind, ways {w.ways}, pay {w.pay}")
    for w in res.lines:
        times = f" (x{w.multiplier} combination)" if w.multiplier != 1 else ""
        print(f"line {w.line}: {w.symbol} x{w.run}, pay {w.pay}{times}")
    for line in lines.get("pays", ()):     # the evaluation's pays, collect
        print(line)
    counts = res.scatter_counts or (("scatter", res.scatters),)
    for name, c in counts:
        print(f"{name + ' symbols':<14} {c}")
    for line in lines.get("counts", ()):   # trigger reels not shown
        print(line)
    if res.scatter_pay:
        print(f"scatter pay    {res.scatter_pay}")
    spins = awarded(model, res, phase)
    if spins:
        times = "".join(lines.get("award", ()))   # the feature's multiplier by trigger
        print(f"free spins     {spins} {'start' if phase.name == 'base' else 'more (retrigger)'} after this spin{times}")
    for line in lines.get("starts", ()):   # wheels, respin
        print(line)
    for name, v in feature_spins(ms, phase, window).items():
        if v["starts"]:
            print(f"{name:<14} {v['coins']} coins (>= {v['trigger']}) start it after this spin: exact mean "
                  f"{float(v['mean']):.4f} credits, {float(v['respins']):.4f} respins, full window "
                  f"{float(v['full']):.6e} (--json: the exact fractions)")
        else:
            print(f"{name:<14} {v['coins']} coins (< {v['trigger']}): not started")
    print(f"multiplier     x{res.multiplier}")
    print(f"win            {res.win} credits" + (" (base spin; the feature pays at its end)"
                                                if any(v["starts"] for v in feature_spins(ms, phase, window).values())
                                                else ""))
    for line in round_rules(model, phase, res.win):
        print(line)
    return 0


def _json_fractions(node):
    """A feature's spin view with Fractions as exact "p/q" strings (JSON)."""
    if isinstance(node, dict):
        return {k: _json_fractions(v) for k, v in node.items()}
    return fraction_text(node) if isinstance(node, Fraction) else node


def round_rules(model, phase, win: int, as_json: bool = False):
    """The rules on the round's total (a win cap) for one spin: what they cap, and what this spin's round
    pays when the spin is the whole round (a base spin of a game whose round is one spin)."""
    whole = phase.name == "base" and one_spin_round(model)
    lines, out = [], {}
    for rule in rules_of(model):
        if not rule.acts_on_round:
            continue
        config = rule.config(model)
        paid = rule.literal(config, model.bet, win)
        key = rule.name.replace(" ", "_")
        out[key] = {"rule": config.describe(), **({"round_pays": paid} if whole else {})}
        lines.append(f"{rule.name:<14} {config.describe()}: " + (
            f"this spin is the whole round and pays {paid} credits" if whole
            else "applies to the round's total win (base spin and its features)"))
    return out if as_json else lines


def awarded(model, res, phase) -> int:
    """Free spins the spin awards: initial spins in the base game, retrigger spins in a free spin
    (the count that triggers respects ``trigger_reels``)."""
    n = res.trigger_count
    return initial_spins(model, n) if phase.name == "base" else retrigger_spins(model, n)


def res_fish_values(model, window, fish):
    return default_fish_values(model, window) if fish is None else fish
