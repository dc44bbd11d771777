"""``rtp spin`` on a game whose rules have no per-reel terms (cascades, pay anywhere, clusters, the
multiplier symbol): every fall of the spin by the literal reading (:func:`exact.falls.play_falls`):
its window, its wins, the removed cells, its multipliers and its win."""
from __future__ import annotations

import json

from exact.falls import play_falls

__all__ = ["print_falls"]


def print_falls(ms, phase, stops, as_json: bool, values=None) -> int:
    """Print (or ``as_json``) every fall of the spin at ``stops``; ``values``: the multiplier symbol's values
    in order of appearance (default: its first value each)."""
    model = ms.model
    strips = [[model.symbols[c].name for c in codes] for codes in ms.phase_strips(phase).codes]
    queue = list(values or [])

    def draw(key):
        return queue.pop(0) if queue else None

    res = play_falls(model, phase, strips, stops, draw=draw)
    if as_json:
        print(json.dumps({
            "set": ms.name, "phase": phase.name, "stops": list(stops), "win": res.win, "free_spins": res.award,
            "cut_at_max_falls": res.cut,
            "multiplier_values": [{"key": list(map(str, k)), "value": v} for k, v in res.drawn],
            "falls": [{"fall": f.index, "window": [[f.window[r][i] for r in range(model.reels)]
                                                   for i in range(model.rows)],
                       "wins": [{"symbol": w[0], "count": w[1], "pay": w[2],
                                 "cells": sorted([r + 1, i + 1] for r, i in w[3])} for w in f.wins],
                       "scatters": [{"symbol": n, "count": c, "pay": p} for n, c, p in f.scatters],
                       "free_spins": f.award, "fall_multiplier": f.fall_multiplier,
                       "symbol_multiplier": f.symbol_multiplier,
                       "removed": sorted([r + 1, i + 1] for r, i in f.removed), "win": f.win} for f in res.falls],
        }, indent=2))
        return 0
    print(f"math set {ms.name}, {phase.name} (multiplier x{phase.multiplier}), stops {','.join(map(str, stops))}")
    for f in res.falls:
        print(f"\nfall {f.index}: multiplier x{f.fall_multiplier}"
              + (f", multiplier symbols x{f.symbol_multiplier}" if f.symbol_multiplier != 1 else ""))
        width = max(9, max(len(n) for col in f.window for n in col) + 3)
        print(" " * 7 + "".join(f"Reel {r + 1}".ljust(width) for r in range(model.reels)))
        for i in range(model.rows):
            print(f"Row {i + 1}  " + "".join((f.window[r][i] + ("*" if (r, i) in f.removed else "")).ljust(width)
                                              for r in range(model.reels)))
        for w in f.wins:
            print(f"  {w[0]}: {w[1]} {'cells' if model.evaluation in ('anywhere', 'clusters') else 'in the run/OAK'}, "
                  f"pay {w[2]}")
        for n, c, p in f.scatters:
            if c:
                print(f"  {n}: {c} in view" + (f", pay {p}" if p else ""))
        if f.award:
            print(f"  free spins {f.award} awarded")
        print(f"  removed {len(f.removed)} cells (*); fall win {f.win} credits")
    if res.cut:
        print(f"\nthe spin is ended at max_falls: fall {len(res.falls)} still removed cells")
    for k, v in res.drawn:
        print(f"multiplier value {v} ({' '.join(map(str, k))})")
    print(f"\nfree spins     {res.award}")
    print(f"win            {res.win} credits (x{phase.multiplier} level multiplier included)")
    return 0
