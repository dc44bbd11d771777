"""A multiplier drawn per free spin (``[[free_spins.levels]] multiplier = { values = [1, 2, 3, 5, 10],
weights = [1, 1, 1, 1, 1] }``): each free spin of the level draws one value, independently of the stops,
and multiplies every win of that spin (lines, WILD-only lines and the scatter pay).

Literal reading: :func:`draw_law` (value -> exact probability); a spin's win is the value times the win
the spin pays unmultiplied.  Fast path: the draw is independent of the stops, so a phase's figures are
those of the unmultiplied spin with every first moment times E[m] and every second moment times E[m^2]
(:func:`with_drawn_multiplier`; P(win > 0) and the OAK probabilities unchanged, every value >= 1).
Payline games only (refused at the key elsewhere); ``rtp spin`` refuses it (a spin shows one value).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exact.rules.line_reading import LineReadingRule
from strips import plugins

__all__ = ["DrawnLevelMultiplier", "DrawnMultiplierConfig", "DrawnMultiplierStep", "draw_law", "with_drawn_multiplier"]


@dataclass(frozen=True)
class DrawnMultiplierConfig:
    """``levels``: (level number, values, integer weights) per level whose multiplier is drawn."""

    levels: tuple
    rule: str = "a multiplier drawn per free spin"


def draw_law(values, weights) -> dict:
    """The literal reading: value -> P(a free spin draws it), exact.

    >>> draw_law((1, 2, 3, 5, 10), (1, 1, 1, 1, 1))[10]
    Fraction(1, 5)
    """
    total = sum(weights)
    out: dict = {}
    for v, w in zip(values, weights):
        out[v] = out.get(v, Fraction(0)) + Fraction(w, total)
    return out


def parse_drawn(t, doc: dict, model) -> DrawnMultiplierConfig | None:
    """Every ``[[free_spins.levels]] multiplier = { values, weights }``, each bad key refused at its position.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(extra='[symbols.S]\\nclass = "scatter"\\nreels = { base = [1, 2, 3] }\\n'
    ...       '[free_spins]\\nstrips = "base"\\ntrigger = { 3 = 5 }\\n[[free_spins.levels]]\\n'
    ...       'multiplier = { values = [1, 2], weights = [1] }'))
    game.toml:27:33: free_spins.levels[1].multiplier.weights: must be 2 integer weights >= 0 with a positive sum, got [1]
    """
    out = []
    for i, lv in enumerate((doc.get("free_spins") or {}).get("levels") or []):
        raw = lv.get("multiplier") if isinstance(lv, dict) else None
        if not isinstance(raw, dict):
            continue
        path = ("free_spins", "levels", i, "multiplier")
        for k in raw:
            if k not in ("values", "weights"):
                raise t.error(path + (k,), f"unknown key {k!r} of a drawn multiplier (values, weights)")
        values = t.get(raw, path, "values", "ints")
        if not values or any(v < 1 for v in values):
            raise t.error(path + ("values",), "must be a non-empty list of integer multipliers >= 1")
        weights = t.get(raw, path, "weights", "ints")
        if len(weights) != len(values) or any(w < 0 for w in weights) or not sum(weights):
            raise t.error(path + ("weights",), f"must be {len(values)} integer weights >= 0 with a positive sum, "
                          f"got {weights!r}")
        if model.evaluation != "lines":
            raise t.error(path, "unsupported rule: a multiplier drawn per free spin outside a payline game")
        out.append((i + 1, tuple(values), tuple(weights)))
    return DrawnMultiplierConfig(tuple(out)) if out else None


def with_drawn_multiplier(model, phase, analysis):
    """``analysis`` (a :class:`markov.moments.PhaseAnalysis` of ``phase`` computed with multiplier 1) with
    the level's drawn multiplier: first moments times E[m], second moments times E[m^2]; unchanged for a
    phase without one.

    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(rules=(DrawnMultiplierConfig(((1, (1, 3), (1, 1)),)),))
    >>> an = SimpleNamespace(mean=Fraction(1))
    >>> with_drawn_multiplier(m, SimpleNamespace(name="base"), an) is an
    True
    """
    cfg = DrawnLevelMultiplier.config(model)
    law = next((draw_law(v, w) for n, v, w in (cfg.levels if cfg else ()) if phase.name == f"level{n}"), None)
    if law is None:
        return analysis
    m1 = sum((v * p for v, p in law.items()), Fraction(0))
    m2 = sum((v * v * p for v, p in law.items()), Fraction(0))

    def split(s):
        return None if s is None else dataclasses.replace(s, win=tuple(m1 * x for x in s.win),
                                                          win2=tuple(m2 * x for x in s.win2))

    a = analysis
    return dataclasses.replace(
        a, mean=m1 * a.mean, second=m2 * a.second, parts={k: m1 * v for k, v in a.parts.items()},
        line_means=tuple(m1 * x for x in a.line_means),
        ways_by_symbol={s: tuple(m1 * x for x in row) for s, row in a.ways_by_symbol.items()},
        by_scatter=split(a.by_scatter), by_key=split(a.by_key), by_trigger=split(a.by_trigger))


@dataclass(frozen=True)
class DrawnMultiplierStep:
    """The simulator's step: every free spin of a level with the rule draws its multiplier (an integer
    uniform below the weights' total, mapped through their cumulative sums) and its win is multiplied by it.

    ``levels``: 0-based level -> (values, integer weights).

    >>> step = DrawnMultiplierStep({0: ((2, 3), (0, 1))})
    >>> step.spin(0, np.array([0, 5]), np.random.default_rng(1)).tolist(), step.spin(1, np.array([5]), None).tolist()
    ([0, 15], [5])
    """

    levels: dict
    rule: str = "a multiplier drawn per free spin"
    stage: str = "free_spin"

    def spin(self, level: int, win, rng):
        """``win`` ((n,) int64 credits, free spins of 0-based ``level``) times the multiplier each spin draws."""
        if level not in self.levels:
            return win
        values, weights = self.levels[level]
        cum = np.cumsum(np.asarray(weights, dtype=np.int64))
        drawn = np.asarray(values, dtype=np.int64)[np.searchsorted(cum, rng.integers(0, int(cum[-1]), len(win)),
                                                                   side="right")]
        return win * drawn


class DrawnLevelMultiplier(LineReadingRule):
    """A multiplier drawn per free spin: the exact PAR sheet and its views, the workbook and comply (the award
    odds do not depend on it), and the simulation (:class:`DrawnMultiplierStep`); not the one-spin view (a spin
    shows one value) nor the proof's enumeration (it enumerates the stops, not the draw)."""

    name = "a multiplier drawn per free spin"
    keys = "[[free_spins.levels]] multiplier = { values, weights }"
    implements = frozenset({"report", "check", "diff", "chain", "simulate", "comply", "export"})

    @classmethod
    def simulation_step(cls, model, mode: str, tables):
        """The :class:`DrawnMultiplierStep` of the game's levels with a drawn multiplier."""
        cfg = cls.config(model)
        return DrawnMultiplierStep({n - 1: (v, w) for n, v, w in cfg.levels}) if cfg is not None else None
    parses = (("free_spins", "levels", "multiplier", "values"), ("free_spins", "levels", "multiplier", "weights"))


plugins.register(DrawnLevelMultiplier.name, DrawnLevelMultiplier.parses, parse_drawn)
