"""Brute-force oracle: every stop combination, every FISH value assignment and every
drawn WILD multiplier assignment, each spin evaluated by the rules-page evaluator
(exact.evaluator), summed exactly.

Used to check every figure the factorised engine claims to be exact.
"""
from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from math import prod

import numpy as np

from exact.evaluator import evaluate, wild_draws
from strips.model import FISH, MathSet, ReelStrips
from strips.loader import bundled_path, parse_game
from exact.rules import combination_wilds, phase_reading


def rules_page_model():
    p = bundled_path("rules_page") / "game.toml"
    return parse_game(p.read_bytes(), str(p))


def small_fish_model(model=None, reels=None, rows=None):
    """The rules-page game with two values per FISH symbol (so fish assignments can be
    enumerated quickly), optionally with another reel count or row count."""
    model = model or rules_page_model()
    syms = []
    for s in model.symbols:
        if s.kind == FISH:
            v = (s.values[0], s.values[-1])
            w = {k: (t[0] + 1, t[-1] + 2) for k, t in s.weights.items()}
            s = dataclasses.replace(s, values=v, weights=w)
        if reels is not None:
            if s.kind == "pay":
                pays = tuple(s.pays[:reels]) + (0,) * max(0, reels - len(s.pays))
                pays = pays[:-1] + (max(s.pays[-1], pays[-1]),) if reels < len(s.pays) else pays
                s = dataclasses.replace(s, pays=pays)
            s = dataclasses.replace(s, reels={k: frozenset(r for r in v if r < reels) for k, v in s.reels.items()})
        syms.append(s)
    return dataclasses.replace(model, symbols=tuple(syms), reels=reels or model.reels, rows=rows or model.rows)


def make_set(model, base_reels, bonus_reels=None) -> MathSet:
    """A MathSet from lists of symbol-name lists."""
    def rs(name, reels):
        return ReelStrips(name=name, reels=tuple(tuple(r) for r in reels),
                          codes=tuple(np.array([model.code(x) for x in r], dtype=np.int64) for r in reels))
    strips = {"base": rs("base", base_reels)}
    strips["bonus"] = rs("bonus", bonus_reels if bonus_reels is not None else base_reels)
    return MathSet(name="test", model=model, strips=strips)


@dataclasses.dataclass
class BruteForce:
    prob_scatter: dict
    win_scatter: dict
    win2_scatter: dict
    prob_key: dict
    win_key: dict
    win2_key: dict
    ways_by_symbol: dict
    collect: Fraction
    hit: Fraction
    oak: dict


def brute_force(ms: MathSet, phase) -> BruteForce:
    """Exact moments of one spin of ``phase`` by enumerating every stop combination,
    every FISH value assignment and every drawn WILD multiplier assignment, evaluated literally."""
    model = ms.model
    strips = ms.phase_strips(phase)
    total = prod(strips.lengths)
    acc = {k: {} for k in ("ps", "ws", "w2s", "pk", "wk", "w2k")}
    ways = {s.name: [Fraction(0)] * model.reels for s in model.pay_symbols}
    oak = {s.name: [Fraction(0)] * model.reels for s in model.pay_symbols}
    collect = Fraction(0)
    hit = Fraction(0)
    for stops in itertools.product(*(range(n) for n in strips.lengths)):
        window = strips.window(stops, model.rows)
        fish = [model.symbol(n) for col in window for n in col if model.symbol(n).kind == FISH]
        # the drawn WILD multipliers: one per WILD (mode wild) or per reel (mode reel), independent
        wilds = [model.symbol(window[r][i]).multiplier for r, i in wild_draws(model, window)]
        choices = [list(zip(s.values, s.weights[phase.weights])) for s in fish] + \
            [list(m.table(phase.weights)) for m in wilds]
        sums = [sum(x[1] for x in c) for c in choices]
        pw = Fraction(1, total)
        for assignment in itertools.product(*choices):
            w = pw * Fraction(prod(x[1] for x in assignment), prod(sums))
            if not w:
                continue
            values = [x[0] for x in assignment]
            res = evaluate(model, window, values[:len(fish)], phase.multiplier, values[len(fish):])
            for key, n in (("s", res.scatters), ("k", res.keys)):
                acc["p" + key][n] = acc["p" + key].get(n, 0) + w
                acc["w" + key][n] = acc["w" + key].get(n, 0) + w * res.win
                acc["w2" + key][n] = acc["w2" + key].get(n, 0) + w * res.win * res.win
            for ww in res.ways:
                ways[ww.symbol][ww.oak - 1] += w * ww.pay * phase.multiplier
            collect += w * res.collect * phase.multiplier
            if res.win > 0:
                hit += w
        # OAK of each symbol regardless of pay (section 6 combination length)
        for s in model.pay_symbols:
            n = 0
            for col in window:
                if any(x == s.name or model.symbol(x).substitutes_for(s.name) for x in col):
                    n += 1
                else:
                    break
            if n:
                oak[s.name][n - 1] += Fraction(1, total)
    return BruteForce(acc["ps"], acc["ws"], acc["w2s"], acc["pk"], acc["wk"], acc["w2k"],
                      {k: tuple(v) for k, v in ways.items()}, collect, hit, {k: tuple(v) for k, v in oak.items()})


def brute_spin_distribution(ms: MathSet, phase) -> dict:
    """Exact joint distribution {(scatters, keys, win): P} of one spin of ``phase``: every stop
    combination, FISH value assignment and drawn WILD multiplier assignment through the evaluator."""
    model = ms.model
    strips = ms.phase_strips(phase)
    total = prod(strips.lengths)
    out: dict = {}
    for stops in itertools.product(*(range(n) for n in strips.lengths)):
        window = strips.window(stops, model.rows)
        fish = [model.symbol(n) for col in window for n in col if model.symbol(n).kind == FISH]
        wilds = [model.symbol(window[r][i]).multiplier for r, i in wild_draws(model, window)]
        choices = [list(zip(s.values, s.weights[phase.weights])) for s in fish] + \
            [list(m.table(phase.weights)) for m in wilds]
        sums = [sum(x[1] for x in c) for c in choices]
        pw = Fraction(1, total)
        for assignment in itertools.product(*choices):
            w = pw * Fraction(prod(x[1] for x in assignment), prod(sums))
            if not w:
                continue
            values = [x[0] for x in assignment]
            res = evaluate(model, window, values[:len(fish)], phase.multiplier, values[len(fish):])
            key = (res.scatters, res.keys, res.win)
            out[key] = out.get(key, 0) + w
    return out


def marginal_of(joint: dict, axes) -> dict:
    """Sum a {tuple: P} distribution onto the given tuple positions (a tuple key, or a scalar for one axis)."""
    out: dict = {}
    for key, p in joint.items():
        k = tuple(key[a] for a in axes) if len(axes) > 1 else key[axes[0]]
        out[k] = out.get(k, 0) + p
    return out


@dataclasses.dataclass
class LinesBruteForce:
    prob: dict          # (trigger count, trigger reels shown) -> P
    win: dict           # -> E[W 1{.}]
    win2: dict          # -> E[W^2 1{.}]
    by_label: dict      # (symbol, run) -> E[multiplier x pay of lines winning so]
    line1_label: dict   # (symbol, run) -> P(payline 1 wins so)
    line_means: list    # payline -> E[multiplier x its win]
    line_hits: list     # payline -> P(it pays)
    scatter_mean: Fraction
    hit: Fraction


def line_spins(ms: MathSet, phase):
    """Every (probability, SpinResult) of one spin of a line game's ``phase``: each stop combination and each
    combination-multiplier value, evaluated literally by exact.evaluator.evaluate (on the game the phase reads:
    exact.rules.phase_reading)."""
    model = phase_reading(ms.model, phase)
    strips = ms.phase_strips(phase)
    total = prod(strips.lengths)
    comb = combination_wilds(model)
    table = comb[0].multiplier.combination_table(phase.weights) if comb else ((None, 1),)
    wsum = sum(w for _, w in table)
    for stops in itertools.product(*(range(n) for n in strips.lengths)):
        window = strips.window(stops, model.rows)
        for m, w in table:
            if w:
                yield Fraction(w, total * wsum), evaluate(model, window, multiplier=phase.multiplier, combination=m)


def brute_force_lines(ms: MathSet, phase) -> LinesBruteForce:
    """Every stop combination and every combination-multiplier value of a line game, evaluated
    literally by exact.evaluator.evaluate (on the game the phase reads: exact.rules.phase_reading), summed exactly."""
    model = phase_reading(ms.model, phase)
    out = LinesBruteForce({}, {}, {}, {}, {}, [Fraction(0)] * len(model.paylines),
                          [Fraction(0)] * len(model.paylines), Fraction(0), Fraction(0))
    for p, res in line_spins(ms, phase):
        key = (res.scatters, res.trigger_reels_shown)
        out.prob[key] = out.prob.get(key, 0) + p
        out.win[key] = out.win.get(key, 0) + p * res.win
        out.win2[key] = out.win2.get(key, 0) + p * res.win * res.win
        out.scatter_mean += p * res.scatter_pay * phase.multiplier
        if res.win > 0:
            out.hit += p
        for lw in res.lines:
            lab = (lw.symbol, lw.run)
            out.by_label[lab] = out.by_label.get(lab, 0) + p * lw.pay * phase.multiplier
            out.line_means[lw.line - 1] += p * lw.pay * phase.multiplier
            out.line_hits[lw.line - 1] += p
            if lw.line == 1:
                out.line1_label[lab] = out.line1_label.get(lab, 0) + p
    return out


def small_feature_set() -> MathSet:
    """A tiny exact game with a feature: 3 reels x 2 rows, FISH/KEY/WILD, 2 FS trigger 2 free spins, a
    2-level ladder; its round distribution is exact (Fractions) and takes milliseconds."""
    from strips.model import Level
    m = small_fish_model(reels=3, rows=2)
    m = dataclasses.replace(m, trigger=((1, 2), (2, 3)),
                            levels=(Level(1, 0, None, 1, "level1"), Level(2, 1, 2, 3, "level2")))
    return make_set(m, [["FS", "PIC1", "AUS1", "KEY", "FISH1"], ["PIC1", "AUS1", "WILD", "AUS2"],
                        ["PIC1", "AUS1", "FISH1", "AUS2"]],
                    [["PIC1", "KEY", "AUS1", "FISH1"], ["PIC1", "AUS1", "WILD"], ["KEY", "PIC1", "AUS1"]])


def brute_line_spin_distribution(ms: MathSet, phase) -> dict:
    """Exact joint distribution {(count that awards free spins, win): P} of one spin of a line game's
    ``phase``: every stop combination and every combination-multiplier value through the literal evaluator
    (the count: the triggering scatters when every trigger reel shows one, else 0)."""
    out: dict = {}
    for p, res in line_spins(ms, phase):
        key = (res.scatters if res.trigger_reels_shown else 0, res.win)
        out[key] = out.get(key, 0) + p
    return out
