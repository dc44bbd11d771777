"""Small random hold-and-win games and a brute-force replay of every outcome, written from the rules.

Shared test data (not a test module).  The replay follows the README's reading of the keys
independently of ``exact``: plain Python over symbol names; every base stop combination, every
sequence of respin stop combinations until the feature ends, every value drawn by every coin.
"""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

JACKPOTS = {"Mini": 7, "Grand": 20}
VALUES = ["credits 1", "credits 3", "jackpot Mini"]


def random_game(seed: int, *, reels=None, rows=None, full=None):
    """(game dict for :func:`exact.math_set`, strips dict) of a tiny hold-and-win game."""
    rng = random.Random(seed)
    reels = reels or rng.choice([2, 3])
    rows = rows or rng.choice([1, 2])
    cells = reels * rows
    syms = {"A": {"class": "pay", "pays": [0] * (reels - 1) + [rng.randint(1, 5)]},
            "B": {"class": "pay", "pays": [0, rng.randint(0, 2)] + [rng.randint(1, 4)] * (reels - 2)},
            "W": {"class": "wild", "reels": {"base": list(range(2, reels + 1))}},
            "C": {"class": "coin", "reels": {"base": list(range(1, reels + 1)), "respin": list(range(1, reels + 1))},
                  "values": VALUES,
                  "weights": {"base": [rng.randint(0, 3) for _ in VALUES[:-1]] + [rng.randint(1, 2)],
                              "respin": [rng.randint(1, 3), rng.randint(0, 3), rng.randint(0, 2)]}}}
    if not sum(syms["C"]["weights"]["base"][:-1]):
        syms["C"]["weights"]["base"][0] = 1
    hw = {"symbol": "C", "trigger": rng.randint(1, min(3, cells)), "strips": "respin",
          "respins": rng.randint(1, 3)}
    if full if full is not None else rng.random() < 0.5:
        hw["full"] = "jackpot Grand"
    game = {"game": {"reels": reels, "rows": rows, "bet": 1}, "strips": {"base": "base.csv", "respin": "respin.csv"},
            "symbols": syms, "jackpots": dict(JACKPOTS), "hold_and_win": hw}
    base = [["A", "B", "C"] + [rng.choice(["A", "B", "C", "W" if r else "A"]) for _ in range(rng.randint(0, 2))]
            for r in range(reels)]
    respin = [["C"] + [rng.choice(["A", "C", "B"]) for _ in range(rng.randint(1, 3))] for _ in range(reels)]
    return game, {"base": base, "respin": respin}


def _window(strip_set, stops, rows):
    return [[s[(p + i) % len(s)] for i in range(rows)] for s, p in zip(strip_set, stops)]


def ways_win(game, window) -> int:
    """Ways pays of one window read from the rules: per pay symbol, the run of reels from the left
    showing it or a WILD, its pays entry times the product of the counts."""
    syms = game["symbols"]
    total = 0
    for name, spec in syms.items():
        if spec["class"] != "pay":
            continue
        counts = []
        for col in window:
            n = sum(1 for c in col if c == name or syms[c]["class"] == "wild")
            if not n:
                break
            counts.append(n)
        if counts and spec["pays"][len(counts) - 1]:
            ways = 1
            for n in counts:
                ways *= n
            total += spec["pays"][len(counts) - 1] * ways
    return total


def _value_law(game, table):
    spec = game["symbols"]["C"]
    w = spec["weights"][table]
    return [(v, Fraction(x, sum(w))) for v, x in zip(spec["values"], w) if x]


def _credits(text):
    kind, arg = text.split()
    return JACKPOTS[arg] if kind == "jackpot" else int(arg)


def _respin_tree(game, strips, held, counter, cells, memo):
    """Every way the respins play out from ``held`` (a frozenset of (reel, row) cells) with the counter
    at ``counter``: {(final held cells, respins played): probability}, each respin's stop combinations
    enumerated (outcomes from the same held cells and counter are the same subtree: ``memo``)."""
    if counter == 0 or len(held) == cells:
        return {(held, 0): Fraction(1)}
    key = (held, counter)
    if key in memo:
        return memo[key]
    rows = game["game"]["rows"]
    combos = list(itertools.product(*[range(len(s)) for s in strips]))
    out: dict = {}
    for stops in combos:
        win = _window(strips, stops, rows)
        new = {(r, i) for r, col in enumerate(win) for i, c in enumerate(col) if c == "C"} - held
        nxt = game["hold_and_win"]["respins"] if new else counter - 1
        for (h, n), q in _respin_tree(game, strips, held | new, nxt, cells, memo).items():
            out[(h, n + 1)] = out.get((h, n + 1), 0) + q / len(combos)
    memo[key] = out
    return out


def replay(game, strips):
    """Exact figures of the round by brute force: ``mean``, ``second`` (credits), ``trigger``, ``full``,
    ``respins`` (expected respins per round), ``jackpots`` {name: P(won)}, ``awards`` {value text:
    expected coins per round}, ``coins`` {n: P(n coins at the end, feature started)}."""
    g = game["game"]
    reels, rows = g["reels"], g["rows"]
    cells = reels * rows
    hw = game["hold_and_win"]
    law_b, law_r = _value_law(game, "base"), _value_law(game, "respin")
    full_award = _credits(hw["full"]) if "full" in hw else 0
    full_jackpot = hw["full"].split()[1] if "full" in hw else None
    out = {"mean": Fraction(0), "second": Fraction(0), "trigger": Fraction(0), "full": Fraction(0),
           "respins": Fraction(0), "jackpots": {"Mini": Fraction(0), "Grand": Fraction(0)},
           "awards": {v: Fraction(0) for v in VALUES}, "coins": {}}
    base = strips["base"]
    combos = list(itertools.product(*[range(len(s)) for s in base]))
    draws: dict = {}
    memo: dict = {}
    for stops in combos:
        p = Fraction(1, len(combos))
        win = _window(base, stops, rows)
        x = ways_win(game, win)
        held = frozenset((r, i) for r, col in enumerate(win) for i, c in enumerate(col) if c == "C")
        if len(held) < hw["trigger"]:
            out["mean"] += p * x
            out["second"] += p * x * x
            continue
        out["trigger"] += p
        k = len(held)
        for (final, played), q in _respin_tree(game, strips["respin"], held, hw["respins"], cells, memo).items():
            q *= p
            m = len(final) - k
            out["respins"] += q * played
            out["coins"][len(final)] = out["coins"].get(len(final), 0) + q
            full = len(final) == cells
            if full:
                out["full"] += q
            key = (k, m, full)
            if key not in draws:      # every value of every coin, aggregated by what the round sees
                agg: dict = {}
                for assignment in itertools.product(*([law_b] * k + [law_r] * m)):
                    r = Fraction(1)
                    for _, pv in assignment:
                        r *= pv
                    texts = tuple(sorted(v for v, _ in assignment))
                    fw = sum(_credits(v) for v in texts) + (full_award if full else 0)
                    won = frozenset({v.split()[1] for v in texts if v.startswith("jackpot")}
                                    | ({full_jackpot} if full and full_jackpot else set()))
                    agg[(fw, won, texts)] = agg.get((fw, won, texts), 0) + r
                draws[key] = agg
            for (fw, won, texts), r in draws[key].items():
                r *= q
                w = x + fw
                out["mean"] += r * w
                out["second"] += r * w * w
                for v in texts:
                    out["awards"][v] += r
                for j in won:
                    out["jackpots"][j] += r
    return out
