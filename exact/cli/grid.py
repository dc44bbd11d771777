"""The commands on a grid game (``[grid]``): ``rtp spin`` shows every evaluation of a cascade."""
from __future__ import annotations

import json

from exact.cli.args import UsageError
from exact.grid import config_of, grid_text, parse_cells, spin_cascade


def spin(args, ms) -> int:
    """``rtp spin --set SET --cells "A B C / ..." [--refill S,S,...| --seed N] [--phase base|free]``: the grid,
    the wins, the removed cells, the new WILDs and the refills of every evaluation, and the total win."""
    cfg = config_of(ms)
    if args.stops is not None:
        raise UsageError(f"rtp spin: {ms.name}: a grid game has no reel strips: give --cells (or --seed N), "
                         f"not --stops")
    cells = None if args.cells is None else parse_cells(cfg, args.cells)
    refill = None if args.refill is None else [s.strip() for s in args.refill.replace(" ", ",").split(",") if s.strip()]
    if refill is not None:
        for s in refill:
            if s not in cfg.pay_symbols:
                raise UsageError(f"rtp: --refill: {s!r} is not a pay symbol (refills draw pay symbols only)")
    res = spin_cascade(ms, cells, refill, args.seed, "base" if args.phase == "base" else args.phase)
    pos = cfg.position
    evs = res.cascade.evaluations
    if args.json:
        out = {"set": ms.name, "phase": args.phase, "refills": res.source, "evaluations": [
            {"grid": [list(ev.grid[i * cfg.columns:(i + 1) * cfg.columns]) for i in range(cfg.rows)],
             "wins": [{"symbol": w.symbol, "n": w.n, "cells": [list(pos(c)) for c in w.cells], "pay": w.pay,
                       "wilds": [list(pos(c)) for c in w.wilds]} for w in ev.wins],
             "pay": ev.pay, "removed": [list(pos(c)) for c in ev.removed],
             "new_wilds": [list(pos(c)) for c in ev.new_wilds],
             "refill": [[*pos(c), s] for c, s in zip(ev.refill, _drawn(evs, k))]}
            for k, ev in enumerate(evs)],
            "win": res.cascade.win, "evaluation_count": len(evs), "free_spins": res.free_spins}
        print(json.dumps(out, indent=2))
        return 0
    print(f"math set {ms.name}, grid {cfg.rows}x{cfg.columns}, phase {args.phase}, refills {res.source}")
    for k, ev in enumerate(evs):
        print(f"\nevaluation {k + 1}")
        for line in grid_text(cfg, ev.grid):
            print("  " + line)
        if not ev.wins:
            print("  no win")
            continue
        for w in ev.wins:
            print(f"  win {w.symbol} x{w.n} at {' '.join(_rc(pos(c)) for c in w.cells)}: pay {w.pay}"
                  + (f" (WILDs at {' '.join(_rc(pos(c)) for c in w.wilds)} explode)" if w.wilds else ""))
        print(f"  removed      {' '.join(_rc(pos(c)) for c in ev.removed)}")
        print(f"  new WILDs    {' '.join(_rc(pos(c)) for c in ev.new_wilds) or 'none'}")
        print(f"  refilled     {' '.join(f'{_rc(pos(c))}={s}' for c, s in zip(ev.refill, _drawn(evs, k)))}")
    key = ""
    if cfg.key is not None and args.phase == "base":
        key = (f"; the key is on the path's end: {res.free_spins} free spins awarded" if res.free_spins
               else "; the key is not on the path's end: no free spins")
    print(f"\nwin {res.cascade.win} coins in {len(evs)} evaluations{key}")
    return 0


def _drawn(evs, k: int) -> list:
    """The symbols the evaluation ``k``'s refill drew: read off the next evaluation's grid."""
    return [evs[k + 1].grid[c] for c in evs[k].refill] if k + 1 < len(evs) else []


def _rc(rc) -> str:
    return f"[{rc[0]},{rc[1]}]"
