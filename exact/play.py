"""The literal round player: whole game rounds composed from the rules' literal readings.

A round, read literally from the game file (nothing here uses the engines'
tables or chains; the engines never call this module):

1. **Base spin.** Each reel stops uniformly at random; every FISH in view draws
   its value and every drawn WILD multiplier its value from the phase's weight
   tables, a combination WILD's value once per spin; the window is evaluated by
   :func:`exact.evaluator.evaluate` (ways or paylines, WILDs, collect, scatter
   pays).
2. **Respin** (a bet mode's ``respin = { symbol, count }``): a base window that
   shows exactly ``count`` of ``symbol`` (WILDs do not count) and starts no
   feature is respun once; the reels showing the symbol hold, the others stop
   anew; its win is added and its window decides the features.
3. **Free spins.** The deciding window's trigger count ``n`` awards
   ``by_count(trigger, n)`` spins of level 1.  With a retrigger table, each free
   spin's scatter count adds ``by_count(retrigger, count)`` spins, while the
   spins awarded in the feature stay within ``retrigger_cap``.  With a ladder,
   the KEYs of every free spin add to one counter; after a level's last spin
   the next level starts with its own spins when the counter reaches its
   threshold, else the feature ends.  Each free spin pays its level's
   multiplier; ``multiplier_by_trigger`` multiplies the whole feature.
4. **Prize wheels.** Each wheel whose symbol shows often enough in the deciding
   window draws one award by weight: credits, a jackpot's credits, or free
   spins played from level 1 as a feature of their own (with ``[frames]``: the
   frames' start, raises and bowls, :func:`_frames_feature`).
5. **Rules on the round's total** (a win cap), in registry order.
6. **Gamble** (optional policy ``gamble=True``): an eligible win is gambled once.

Every draw goes through a :class:`Chooser`: :class:`RandomChooser` plays one
random round; :func:`round_distribution` replays the player over every
sequence of choices (depth-first, each path's probability the product of its
choices') and gives the exact distribution of the round win of a small game,
the oracle of the exact figures.  A path longer than ``max_draws`` choices is
refused (an endless retrigger), never a hang.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from exact.evaluator import SpinResult, evaluate, wild_draws
from exact.rules import (Frames, block_places, by_count, combination_wilds, frames_spin, retrigger_step, rules_of,
                         start_levels)
from strips.model import CREDITS, FISH, FREE_SPINS, JACKPOT, MathSet, Phase

__all__ = ["Chooser", "RandomChooser", "RoundPlay", "play_round", "round_distribution"]


class Chooser:
    """Where the player's draws come from: ``choose(weights) -> index`` with P(index) = weight / total."""

    def choose(self, weights: Sequence[int]) -> int:
        raise NotImplementedError


class RandomChooser(Chooser):
    """Random draws from ``random.Random(seed)`` (a weighted index by one ``randrange`` of the total)."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, weights: Sequence[int]) -> int:
        x = self.rng.randrange(sum(weights))
        for i, w in enumerate(weights):
            if x < w:
                return i
            x -= w
        raise AssertionError("unreachable")


class _Path(Chooser):
    """Replays a fixed prefix of choices, then takes choice 0, recording every choice's (index, weights)."""

    def __init__(self, prefix: list[int], max_draws: int):
        self.prefix, self.taken, self.max_draws = prefix, [], max_draws

    def choose(self, weights: Sequence[int]) -> int:
        i = len(self.taken)
        if i >= self.max_draws:
            raise ValueError(f"a round draws more than {self.max_draws:,} values (an endless feature?)")
        k = self.prefix[i] if i < len(self.prefix) else 0
        while weights[k] == 0:      # a zero weight is never drawn
            k += 1
        self.taken.append((k, tuple(weights)))
        return k


@dataclass(frozen=True)
class RoundPlay:
    """One round played literally.

    Attributes
    ----------
    spins : tuple of (str, SpinResult)
        Every window evaluated, in order, with its phase name (``base``, ``respin``, ``level1``, ...).
    awards : tuple of (str, str)
        (wheel name, award text) of every wheel spun.
    total : int
        The round's win in credits before the rules on its total.
    win : int
        The round's win after them (a win cap), before the gamble.
    paid : int
        What the round pays: ``win``, or the gamble's outcome under the gamble policy.
    """

    spins: tuple[tuple[str, SpinResult], ...]
    awards: tuple[tuple[str, str], ...]
    total: int
    win: int
    paid: int


def _spin(ms: MathSet, phase: Phase, chooser: Chooser, held: dict | None = None,
          multiplier: int | None = None) -> tuple[tuple[int, ...], SpinResult]:
    """One spin of ``phase``: stops (the ``held`` reels keep theirs), drawn values, the literal evaluation."""
    model, strips = ms.model, ms.phase_strips(phase)
    held = held or {}
    stops = tuple(held[r] if r in held else chooser.choose([1] * n) for r, n in enumerate(strips.lengths))
    window = strips.window(stops, model.rows)
    fish = []
    for col in window:
        for name in col:
            s = model.symbol(name)
            if s.kind == FISH:
                w = s.weights[phase.weights]
                fish.append(s.values[chooser.choose(w)])
    wilds = []
    for r, i in wild_draws(model, window):
        table = model.symbol(window[r][i]).multiplier.table(phase.weights)
        wilds.append(table[chooser.choose([w for _, w in table])][0])
    combination = None
    for s in combination_wilds(model):
        table = s.multiplier.combination_table(phase.weights)
        combination = table[chooser.choose([w for _, w in table])][0]
    res = evaluate(model, window, fish, multiplier if multiplier is not None else phase.multiplier, wilds,
                   combination)
    return stops, res


def _count(window, name: str) -> int:
    return sum(x == name for col in window for x in col)


def _feature(ms: MathSet, spins: int, chooser: Chooser, out: list) -> int:
    """The free spins of one feature of ``spins`` initial spins from level 1: its win in credits."""
    model = ms.model
    if spins <= 0 or not model.levels:
        return 0
    win, level, left, keys, awarded = 0, 0, spins, 0, spins
    while left > 0:
        lv = model.levels[level]
        phase = model.level_phase(lv)
        _, res = _spin(ms, phase, chooser)
        out.append((phase.name, res))
        win += res.win
        keys += res.keys
        left -= 1
        extra = retrigger_step(model, res.trigger_count, awarded)   # the retrigger rule's reading
        left, awarded = left + extra, awarded + extra
        if left == 0 and level + 1 < len(model.levels) and keys >= model.levels[level + 1].threshold:
            level += 1
            left = model.levels[level].spins
    return win


def _frames_feature(ms: MathSet, award, window, chooser: Chooser, out: list) -> int:
    """The free spins of a wheel award with frames (:mod:`exact.rules.frames`), read literally: the start's
    levels (Go Large: a block by weight, then a position uniformly; Rollin' Bones and High Steaks: from the
    triggering ``window``), each free spin's pays and frame raises (or full prizes), then one bowl drawn per
    framed cell by its level's weights.  Its win in credits."""
    model = ms.model
    config = Frames.config(model)
    start = config.start(award.start)
    block = frozenset()
    if start.blocks:
        b = chooser.choose(start.weights)
        places = block_places(start.blocks[b], model.reels, model.rows)
        block = places[chooser.choose([1] * len(places))]
    levels = start_levels(start, model.reels, model.rows, window, block)
    phase = model.level_phase(model.levels[0])
    win = 0
    for _ in range(award.amount):
        _, res = _spin(ms, phase, chooser)
        out.append((phase.name, res))
        levels, landed = frames_spin(levels, res.window, config.scatter, start.raise_by)
        win += res.win + landed * start.full
    for lv in levels:
        for v in lv:
            if v:
                table = config.bowls[v - 1]
                win += table.values[chooser.choose(table.weights)].credits
    return win


def play_round(ms: MathSet, chooser: Chooser | None = None, gamble: bool = False) -> RoundPlay:
    """Play one round of ``ms`` (one bet mode: ``ms.mode(NAME)``) literally (module docstring).

    Parameters
    ----------
    ms : MathSet
    chooser : Chooser, optional
        Default: random draws of an unseeded ``RandomChooser``.
    gamble : bool
        Gamble every eligible win once (the game's ``[gamble]``).

    Returns
    -------
    RoundPlay
        Credits per round.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> r = play_round(load_math_set("rules_page"), RandomChooser(7))
    >>> r.spins[0][0], r.total == sum(s.win for _, s in r.spins), r.win == r.total
    ('base', True, True)
    """
    chooser = chooser or RandomChooser()
    model = ms.model
    out: list = []
    stops, res = _spin(ms, model.base_phase, chooser)
    out.append(("base", res))
    total, window = res.win, res.window

    def starts(res) -> bool:
        return by_count(model.trigger, res.trigger_count) > 0 or any(
            w.table_for(_count(res.window, w.symbol)) is not None for w in model.wheels)

    rs = model.respin
    if rs is not None and _count(window, rs.symbol) == rs.count and not starts(res):
        held = {r: s for r, s in enumerate(stops) if rs.symbol in window[r]}
        _, res = _spin(ms, model.base_phase, chooser, held)
        out.append(("respin", res))
        total += res.win
        window = res.window
    initial = by_count(model.trigger, res.trigger_count)
    if initial:
        total += by_count(model.multiplier_by_trigger, res.trigger_count, 1) * _feature(ms, initial, chooser, out)
    awards = []
    for w in model.wheels:
        table = w.table_for(_count(window, w.symbol))
        if table is None:
            continue
        a = table.awards[chooser.choose(table.weights)]
        awards.append((w.name, a.text))
        if a.kind == CREDITS:
            total += a.amount
        elif a.kind == JACKPOT:
            total += model.jackpots.get(a.jackpot, 0)
        elif a.kind == FREE_SPINS and Frames.present(model):
            total += _frames_feature(ms, a, window, chooser, out)
        elif a.kind == FREE_SPINS:
            total += _feature(ms, a.amount, chooser, out)
    win = total
    for rule in rules_of(model):
        if rule.acts_on_round:
            win = rule.literal(rule.config(model), model.bet, win)
    paid = win
    g = model.gamble
    if gamble and g is not None and g.min_win <= win and g.multiplier * win <= g.max_win:
        p = g.probability
        paid = g.multiplier * win if chooser.choose([p.numerator, p.denominator - p.numerator]) == 0 else 0
    return RoundPlay(tuple(out), tuple(awards), total, win, paid)


def round_distribution(ms: MathSet, gamble: bool = False, max_draws: int = 64,
                       max_paths: int = 2_000_000) -> dict[int, Fraction]:
    """The exact distribution of what a round pays, by replaying :func:`play_round` over every
    sequence of draws (small games only: the oracle of the exact figures).

    Raises
    ------
    ValueError
        A round with more than ``max_draws`` draws, or more than ``max_paths`` paths.

    Examples
    --------
    A 2-reel game capped at 4 x bet: AA pays 8, capped to 4.

    >>> from strips.builder import math_set
    >>> game = {"game": {"reels": 2, "rows": 1, "bet": 1, "max_win": 4},
    ...         "symbols": {"A": {"class": "pay", "pays": [0, 8]}, "C": {"class": "pay", "pays": [0, 0]}}}
    >>> sorted(round_distribution(math_set(game, {"base": [["A", "C", "C"], ["A", "C"]]})).items())
    [(0, Fraction(5, 6)), (4, Fraction(1, 6))]
    """
    out: dict[int, Fraction] = {}
    prefix: list[int] = []
    for _ in range(max_paths):
        path = _Path(prefix, max_draws)
        paid = play_round(ms, path, gamble).paid
        p = Fraction(1)
        for k, w in path.taken:
            p *= Fraction(w[k], sum(w))
        out[paid] = out.get(paid, Fraction(0)) + p
        # the next path: advance the deepest choice that has a later non-zero option
        taken = path.taken
        while taken:
            k, w = taken[-1]
            nxt = next((j for j in range(k + 1, len(w)) if w[j]), None)
            if nxt is not None:
                prefix = [c for c, _ in taken[:-1]] + [nxt]
                break
            taken = taken[:-1]
        else:
            return out
    raise ValueError(f"more than {max_paths:,} paths of draws: too large for the literal oracle")
