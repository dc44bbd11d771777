"""Small random cascade games and a brute-force replay of every stop combination, written from the rules.

Shared test data (not a test module).  The replay follows the rules of the game file's keys as the
README states them (cascade, pay anywhere, clusters, the multiplier symbol), independently of
``exact``: plain Python over symbol names, every multiplier value assignment enumerated.
"""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

PAYLINES = [[1, 1, 1], [2, 2, 2], [1, 2, 1], [2, 1, 2]]


def random_game(seed: int, evaluation: str, *, wild=True, scatter=True, multiplier=None, free_spins=False,
                cascade=True, scatters="every_fall", max_falls=100):
    """(game dict for :func:`exact.math_set`, strips dict) of a 3-reel, 2-row game on short strips."""
    rng = random.Random(seed)
    reels, rows = 3, 2
    cells = reels * rows
    per_count = evaluation in ("anywhere", "clusters")
    syms = {}
    for name in ("A", "B", "C"):
        if per_count:
            pays = [0, 0] + [rng.randint(0, 6) for _ in range(rng.randint(1, cells - 2))]
        else:
            pays = [0, rng.choice([0, 1]), rng.randint(1, 5)]
        syms[name] = {"class": "pay", "pays": pays}
    names = ["A", "B", "C"]
    if wild:
        syms["W"] = {"class": "wild", "reels": {"base": [1, 2, 3]}}
        if evaluation == "anywhere":
            syms["W"]["pays"] = [0, 0, 9]
        names.append("W")
    if scatter:
        syms["S"] = {"class": "scatter", "reels": {"base": [1, 2, 3]}, "pays": [0, 2, 5]}
        names.append("S")
    if multiplier:
        syms["M"] = {"class": "multiplier", "reels": {"base": [1, 2, 3]}, "values": [2, 3],
                     "weights": {"base": [1, 2], "level1": [3, 1]} if free_spins else {"base": [1, 2]},
                     "per": multiplier[0], "combine": multiplier[1]}
        names.append("M")
    game = {"game": {"reels": reels, "rows": rows, "bet": 1, "evaluation": evaluation}, "symbols": syms}
    if evaluation == "lines":
        game["lines"] = {"paylines": PAYLINES}
    if cascade:
        game["cascade"] = {"multipliers": [1, 2, 3], "scatters": scatters, "max_falls": max_falls}
    if free_spins:
        game["free_spins"] = {"strips": "base", "trigger": {"2": 2}, "retrigger": {"3": 1},
                              "levels": [{"multiplier": 2}]}
        if cascade:
            game["free_spins"]["levels"][0]["cascade_multipliers"] = [2, 4]
    strips = [[rng.choice(names) for _ in range(rng.randint(3, 5))] for _ in range(reels)]
    return game, {"base": strips}


def _subst(game, name, p):
    return name == p or (game["symbols"][name]["class"] == "wild")


def _count_pay(pays, n):
    return pays[min(n, len(pays)) - 1] if n >= 1 and pays else 0


def fall_wins(game, win):
    """[(pay, cells)] of the evaluation's wins of window ``win`` (list of columns of names)."""
    ev = game["game"]["evaluation"]
    syms = game["symbols"]
    pays = [n for n, s in syms.items() if s["class"] == "pay"]
    R, rows = len(win), len(win[0])
    out = []
    if ev == "ways":
        for p in pays:
            cells, counts = set(), []
            for r in range(R):
                here = [(r, i) for i in range(rows) if _subst(game, win[r][i], p)]
                if not here:
                    break
                counts.append(len(here))
                cells |= set(here)
            if counts and syms[p]["pays"][len(counts) - 1]:
                ways = 1
                for c in counts:
                    ways *= c
                out.append((syms[p]["pays"][len(counts) - 1] * ways, cells))
    elif ev == "lines":
        for line in game["lines"]["paylines"]:
            cl = [(r, line[r] - 1) for r in range(R)]
            names = [win[r][i] for r, i in cl]
            first = next((n for n in names if syms[n]["class"] != "wild"), None)
            if first is None or syms[first]["class"] != "pay":
                continue
            run = 0
            while run < R and _subst(game, names[run], first):
                run += 1
            if syms[first]["pays"][run - 1]:
                out.append((syms[first]["pays"][run - 1], set(cl[:run])))
    elif ev == "anywhere":
        for p in pays:
            cells = {(r, i) for r in range(R) for i in range(rows) if _subst(game, win[r][i], p)}
            if _count_pay(syms[p]["pays"], len(cells)):
                out.append((_count_pay(syms[p]["pays"], len(cells)), cells))
        for w, s in syms.items():
            if s["class"] == "wild" and s.get("pays"):
                cells = {(r, i) for r in range(R) for i in range(rows) if win[r][i] == w}
                if _count_pay(s["pays"], len(cells)):
                    out.append((_count_pay(s["pays"], len(cells)), cells))
    else:   # clusters: flood fill per symbol, a cluster needs one cell of the symbol itself
        for p in pays:
            member = {(r, i) for r in range(R) for i in range(rows) if _subst(game, win[r][i], p)}
            while member:
                group = {member.pop()}
                grew = True
                while grew:
                    near = {c for c in member if any(abs(c[0] - g[0]) + abs(c[1] - g[1]) == 1 for g in group)}
                    grew = bool(near)
                    group |= near
                    member -= near
                if any(win[r][i] == p for r, i in group) and _count_pay(syms[p]["pays"], len(group)):
                    out.append((_count_pay(syms[p]["pays"], len(group)), group))
    return out


def replay(game, strips, stops, level=None, values=None):
    """One spin by the rules: (win before the level multiplier, spins awarded or trigger count, falls, cut, keys).

    ``values`` maps a multiplier key (("cell", k) for the k-th multiplier cell to appear, ("reel", r)) to
    its value; the keys met are returned so the caller can enumerate them.
    """
    syms = game["symbols"]
    cas = game.get("cascade")
    fs = game.get("free_spins")
    R, rows = game["game"]["reels"], game["game"]["rows"]
    pos = list(stops)
    seen = []
    mult = next((s for s in syms.values() if s["class"] == "multiplier"), None)
    mname = next((n for n, s in syms.items() if s["class"] == "multiplier"), None)
    table = "base" if level is None else "level1"
    if mult is not None and table not in mult["weights"]:
        mname = None

    def new_cell(r, name):
        if name != mname:
            return (name, None)
        key = ("reel", r) if mult["per"] == "reel" else ("cell", sum(1 for k in seen if k[0] == "cell"))
        if key not in seen:
            seen.append(key)
        return (name, key)

    cols = [[new_cell(r, strips[r][(pos[r] + i) % len(strips[r])]) for i in range(rows)] for r in range(R)]
    total = awarded = 0
    first_trigger = 0
    k = 0
    mlist = (cas or {}).get("multipliers", [1])
    if level is not None and cas:
        mlist = fs["levels"][0].get("cascade_multipliers", mlist)
    max_falls = cas["max_falls"] if cas else 1
    cut = False
    while True:
        k += 1
        win = [[n for n, _ in col] for col in cols]
        wins = fall_wins(game, win)
        evaluate = not cas or cas.get("scatters", "every_fall") == "every_fall" or k == 1
        scat_cells = {(r, i) for r in range(R) for i in range(rows) if syms[win[r][i]]["class"] == "scatter"}
        n_s = len(scat_cells)
        spay = _count_pay(syms["S"]["pays"], n_s) if evaluate and "S" in syms else 0
        award = 0
        if evaluate and fs:
            tab = fs["trigger"] if level is None else fs.get("retrigger", {})
            award = max([v for c, v in tab.items() if n_s >= int(c)], default=0)
        if k == 1:
            first_trigger = n_s
        awarded += award
        fm = mlist[min(k, len(mlist)) - 1] if cas else 1
        sm = 1
        if mname is not None:
            in_view = [key for col in cols for _, key in col if key is not None]
            if mult["combine"] == "sum":
                sm = sum(values[key] for key in in_view) or 1
            else:
                sm = 1
                for key in in_view:
                    sm *= values[key]
        total += fm * (sm * sum(p for p, _ in wins) + sm * spay)
        removed = set()
        for _, cells in wins:
            removed |= cells
        if spay or award:
            removed |= scat_cells
        removed = {c for c in removed if win[c[0]][c[1]] != mname}
        if not cas or not removed:
            break
        if k >= max_falls:
            cut = True
            break
        for r in range(R):
            gone = [i for i in range(rows) if (r, i) in removed]
            if gone:
                pos[r] -= len(gone)
                keep = [c for i, c in enumerate(cols[r]) if i not in gone]
                cols[r] = [new_cell(r, strips[r][(pos[r] + j) % len(strips[r])]) for j in range(len(gone))] + keep
    index = awarded if (cas and cas.get("scatters", "every_fall") == "every_fall" and fs) else first_trigger
    return total, index, k, cut, list(seen)


def brute_force(game, strips, level=None):
    """Every stop combination and every multiplier value: {(index, win incl. level multiplier): probability},
    reach per fall, cut probability, hit frequency."""
    reels = strips["base"]
    n = 1
    for s in reels:
        n *= len(s)
    lv_mult = game["free_spins"]["levels"][0]["multiplier"] if level is not None else 1
    mult = next((s for s in game["symbols"].values() if s["class"] == "multiplier"), None)
    table = "base" if level is None else "level1"
    law: dict = {}
    reach: dict = {}
    cut = hits = 0
    for stops in itertools.product(*(range(len(s)) for s in reels)):
        _, _, falls, c, keys = replay(game, reels, stops, level, values={k: 1 for k in [("cell", i) for i in range(99)]
                                                                               + [("reel", r) for r in range(9)]})
        for k in range(1, falls + 1):
            reach[k] = reach.get(k, 0) + 1
        cut += c
        if mult is not None and table in mult["weights"] and keys:
            w = mult["weights"][table]
            choices = list(zip(mult["values"], w))
            assigns = itertools.product(choices, repeat=len(keys))
        else:
            assigns = [()]
            w = [1]
        hit = False
        for a in assigns:
            p = Fraction(1, n)
            for _, x in a:
                p *= Fraction(x, sum(w))
            if p == 0:
                continue
            win, idx, _, _, _ = replay(game, reels, stops, level, values={k: v for k, (v, _) in zip(keys, a)})
            law[(idx, win * lv_mult)] = law.get((idx, win * lv_mult), 0) + p
            hit |= win > 0
        hits += hit
    return law, reach, Fraction(cut, n), Fraction(hits, n)


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f'"{k}" = {_toml_value(x)}' for k, x in v.items()) + " }"
    return str(v)


def write_set(directory, game, strips):
    """Write ``game`` (the dict of :func:`random_game`) as ``game.toml`` and its strips as ``base.csv``."""
    lines = []
    for table, body in game.items():
        if table == "symbols":
            for name, spec in body.items():
                lines.append(f"[symbols.{name}]")
                lines += [f"{k} = {_toml_value(v)}" for k, v in spec.items()]
            continue
        if table == "free_spins":
            lines.append("[free_spins]")
            lines += [f"{k} = {_toml_value(v)}" for k, v in body.items() if k != "levels"]
            for lv in body["levels"]:
                lines.append("[[free_spins.levels]]")
                lines += [f"{k} = {_toml_value(v)}" for k, v in lv.items()]
            continue
        lines.append(f"[{table}]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in body.items()]
    lines += ["[strips]", 'base = "base.csv"']
    (directory / "game.toml").write_text("\n".join(lines) + "\n")
    reels = strips["base"]
    rows = ["reel" + ",reel".join(str(i + 1) for i in range(len(reels)))]
    for i in range(max(len(s) for s in reels)):
        rows.append(",".join(s[i] if i < len(s) else "" for s in reels))
    (directory / "base.csv").write_text("\n".join(rows) + "\n")
    lengths = [len(s) for s in reels]
    if len(set(lengths)) > 1:
        text = (directory / "game.toml").read_text()
        (directory / "game.toml").write_text(text + f"[strip_rules]\nlengths = {lengths}\n")
    return directory
