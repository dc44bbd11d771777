"""Small games with frames and bowls (``[frames]``) for the tests: a 2-reel window, a prize wheel on the
symbol X whose awards are free spins with frames, a jackpot, Go Large's blocks (``frames_doc``), and random
strips for them (``frames_game``)."""
from __future__ import annotations

import random

import exact


def frames_doc(awards=("free_spins 1", "free_spins 2 go_large", "credits 3"), weights=(1, 1, 1), frames=None,
               reels=2, rows=2, respin=False):
    sym = {"A": {"class": "pay", "pays": [0, 2, 6][:reels]}, "B": {"class": "pay", "pays": [0, 1, 3][:reels]},
           "W": {"class": "wild", "reels": {"base": list(range(2, reels + 1)), "bonus": list(range(2, reels + 1))}},
           "S": {"class": "scatter", "reels": {"base": list(range(1, reels + 1)), "bonus": list(range(1, reels + 1))}},
           "X": {"class": "scatter", "reels": {"base": list(range(1, reels + 1))}}}
    doc = {"game": {"reels": reels, "rows": rows, "bet": 2}, "symbols": sym,
           "free_spins": {"strips": "bonus", "scatter": "S", "trigger": {str(reels * rows): 1},
                          "levels": [{"multiplier": 2}]},
           "jackpots": {"Mini": 20},
           "wheel": {"bonus": {"symbol": "X", "tables": {"2": "t"},
                               "prizes": {"t": {"awards": list(awards), "weights": list(weights)}}}},
           "frames": frames or {"raise": 1, "full": "credits 7",
                                "bowls": {"level1": {"awards": ["credits 1"], "weights": [1]},
                                          "level2": {"awards": ["credits 2", "credits 5"], "weights": [1, 1]},
                                          "level3": {"awards": ["credits 9", "jackpot Mini"], "weights": [3, 1]}},
                                "go_large": {"blocks": ["1x2", "2x1"], "weights": [1, 2]}}}
    if respin:
        doc["modes"] = {"ante": {"cost": 3, "respin": {"symbol": "X", "count": 1}}}
    return doc


def frames_game(seed: int, bonus=None, **kw):
    rng = random.Random(seed)
    doc = frames_doc(**kw)
    reels = doc["game"]["reels"]
    base = [["X"] + [rng.choice("ABXW" if r else "ABX") for _ in range(rng.choice([1, 2]))] for r in range(reels)]
    if bonus is None:
        bonus = [[rng.choice("ABSW" if r else "ABS") for _ in range(rng.choice([2, 3]))] for r in range(reels)]
        for col in bonus:
            col[0] = "S"
    return exact.math_set(doc, {"base": base, "bonus": bonus})
