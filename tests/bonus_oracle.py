"""Brute-force oracle for the round rules: whole rounds of small games with bet modes, buys, respins,
prize wheels and gamble, played literally.

Every base stop combination goes through the rules-page evaluator
(:func:`exact.evaluator.evaluate`); the counts that start the features are read
off the window by symbol name here (never through the engine's tables); a
respin enumerates every stop of the reels not held; free spins are played
spin by spin (every stop combination of every spin, summed into the exact
distribution of the feature's total win); a wheel is its weighted draw.
The result is the exact distribution of the round win, {win: probability},
from which mean, variance, award odds and gamble returns follow.

The oracle handles games without FISH and without drawn WILD multipliers, a
one-level ladder without retrigger (what the tests here build).
"""
from __future__ import annotations

import itertools
from fractions import Fraction as F
from math import prod

from exact.evaluator import evaluate

Dist = dict  # win (int credits) -> Fraction


def convolve(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0) + p * q
    return out


def mix(parts) -> Dist:
    """sum of weighted distributions: parts = [(weight, dist)]."""
    out: Dist = {}
    for w, d in parts:
        for x, p in d.items():
            out[x] = out.get(x, 0) + w * p
    return out


def windows(strips, rows, reels_fixed=None):
    """Every (probability, stops, window) of a spin; ``reels_fixed`` maps reel -> the stop it holds."""
    lengths = [len(c) for c in strips]
    fixed = reels_fixed or {}
    ranges = [[fixed[r]] if r in fixed else range(n) for r, n in enumerate(lengths)]
    p = F(1, prod(n for r, n in enumerate(lengths) if r not in fixed))
    for stops in itertools.product(*ranges):
        yield p, stops, [[c[(s + i) % len(c)] for i in range(rows)] for c, s in zip(strips, stops)]


def count(window, name) -> int:
    return sum(x == name for col in window for x in col)


class Game:
    """The literal rules of one small test game (its own copy of the game file's numbers).

    Parameters
    ----------
    model : GameModel (only for the evaluator's paytable)
    rows : int
    scatter : str
        The symbol whose count starts the free spins.
    trigger : dict count -> initial spins
    bonus : list of columns
        Free-spin strips; ``fs_mult`` the level multiplier.
    wheel : (symbol, {count: [(award, weight)]}) or None
        award = ("credits", n) | ("jackpot", credits) | ("free_spins", n)
    """

    def __init__(self, model, rows, scatter, trigger, bonus, fs_mult, wheel=None):
        self.model, self.rows, self.scatter, self.trigger = model, rows, scatter, trigger
        self.bonus, self.fs_mult, self.wheel = bonus, fs_mult, wheel
        self._spin = None
        self._features: dict[int, Dist] = {}

    def initial_spins(self, n):
        return max((s for c, s in self.trigger.items() if n >= c), default=0)

    def free_spin(self) -> Dist:
        if self._spin is None:
            self._spin = mix((p, {evaluate(self.model, w, multiplier=self.fs_mult).win: 1})
                             for p, _, w in windows(self.bonus, self.rows))
        return self._spin

    def feature(self, spins: int) -> Dist:
        """Win of ``spins`` free spins, played one after another."""
        if spins not in self._features:
            d = {0: F(1)}
            for _ in range(spins):
                d = convolve(d, self.free_spin())
            self._features[spins] = d
        return self._features[spins]

    def wheel_table(self, b):
        if self.wheel is None:
            return None
        keys = [c for c in sorted(self.wheel[1]) if b >= c]
        return self.wheel[1][keys[-1]] if keys else None

    def award(self, a) -> Dist:
        kind, n = a
        return self.feature(n) if kind == "free_spins" else {n: F(1)}

    def features(self, window) -> tuple[Dist, list]:
        """The win of the features a window starts, and its wheel's (award, probability) draws."""
        d = {0: F(1)}
        s = self.initial_spins(count(window, self.scatter))
        if s:
            d = convolve(d, self.feature(s))
        draws = []
        table = self.wheel_table(count(window, self.wheel[0])) if self.wheel else None
        if table:
            total = sum(w for _, w in table)
            draws = [(a, F(w, total)) for a, w in table]
            d = convolve(d, mix((p, self.award(a)) for a, p in draws))
        return d, draws

    def starts_feature(self, window) -> bool:
        return bool(self.initial_spins(count(window, self.scatter))) or \
            (self.wheel is not None and self.wheel_table(count(window, self.wheel[0])) is not None)

    def round(self, base, respin=None):
        """(distribution of the round win, {award: P per round}, P(respin), E[respin pays])."""
        parts, awards = [], {}
        p_respin = respin_pays = F(0)
        for p, stops, w in windows(base, self.rows):
            win = evaluate(self.model, w).win
            outcomes = [(F(1), win, w)]
            if respin is not None and count(w, respin[0]) == respin[1] and not self.starts_feature(w):
                held = {r: s for r, s in enumerate(stops) if respin[0] in w[r]}
                outcomes = [(q, win + evaluate(self.model, w2).win, w2)
                            for q, _, w2 in windows(base, self.rows, held)]
                p_respin += p
                respin_pays += p * sum(q * evaluate(self.model, w2).win for q, _, w2 in windows(base, self.rows, held))
            for q, x, window in outcomes:
                feat, draws = self.features(window)
                parts.append((p * q, {x + y: r for y, r in feat.items()}))
                for a, r in draws:
                    awards[a] = awards.get(a, 0) + p * q * r
        return mix(parts), awards, p_respin, respin_pays


def moments(d: Dist) -> tuple[F, F]:
    """(mean, variance) of a distribution."""
    assert sum(d.values()) == 1
    m = sum(x * p for x, p in d.items())
    return m, sum(x * x * p for x, p in d.items()) - m * m


def gamble_once(d: Dist, min_win, max_win, mult, prob) -> F:
    """E[win] when every eligible win (min_win <= x, mult x <= max_win) is gambled once."""
    return sum(p * (prob * mult * x if min_win <= x and mult * x <= max_win else x) for x, p in d.items())
