"""Weighted reel sets (``[strips] base = { sets = ["base1.csv", "base2.csv"], weights = [3, 1] }``): each spin of
a phase that plays the strip set first draws one of its reel sets, set ``i`` with probability
``weights[i] / sum(weights)``, then stops its reels uniformly (or by their stop weights).

The loader (:func:`strips.game_toml.reel_set_files`) checks the table's shape and loads the reel sets as
strip sets of their own: set 1 keeps the name (``base``), set ``k`` is ``base#k``; this rule keeps the
weights (:class:`ReelSetsConfig`, on ``model.rules``, so the fingerprint covers them).

Literal reading (:func:`draw_reel_set`): the reel set a uniform draw ``u`` in ``0 .. sum(weights) - 1``
selects.  Fast path: a spin's law is the mixture of the reel sets' laws, and every exact figure of one
spin (means, moments, the split by trigger count, hit frequency, OAK probabilities, per-line figures) is
linear in that law, so the phase's analysis is the weighted mean of the reel sets' analyses, field by field
(:func:`mixture`).  The free-spin chain reads the mixed phase as any other.  The analyses that draw or
enumerate stops (spin, simulation, the exhaustive proof, the distribution, sensitivity, tune, comply,
export) refuse it in one line.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

from exact.rules.base import Rule
from strips import plugins

__all__ = ["ReelSetsConfig", "WeightedReelSets", "draw_reel_set", "mixture"]


@dataclass(frozen=True)
class ReelSetsConfig:
    """Per strip set of weighted reel sets: its reel sets (strip set names) and their integer weights."""

    mixtures: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    rule: str = "weighted reel sets"

    def members(self, strip_set: str) -> tuple[tuple[str, int], ...] | None:
        """((reel set, weight), ...) of ``strip_set``, or None when it is one reel set."""
        return dict(self.mixtures).get(strip_set)

    def describe(self) -> str:
        """The weights in words, as ``rtp diff`` lists a change of them."""
        return "; ".join(f"{name}: " + ", ".join(f"{m} x{w}" for m, w in sets) for name, sets in self.mixtures)


def draw_reel_set(members: tuple[tuple[str, int], ...], u: int) -> str:
    """The literal reading: the reel set a uniform draw ``u`` (``0 <= u < sum of the weights``) selects, the
    sets taking consecutive ranges of draws in their order.

    >>> draw_reel_set((("base", 3), ("base#2", 1)), 2), draw_reel_set((("base", 3), ("base#2", 1)), 3)
    ('base', 'base#2')
    """
    for name, w in members:
        if u < w:
            return name
        u -= w
    raise ValueError(f"draw {u} past the weights")


def _mix(values: list, weights: list[Fraction]):
    """The weighted mean of ``values`` of one kind: numbers, tuples (elementwise), mappings (key by key: a key
    a part lacks counts as 0), dataclasses (field by field); anything else must be equal in every part."""
    first = values[0]
    if isinstance(first, (int, Fraction)) and not isinstance(first, bool):
        return sum((w * v for w, v in zip(weights, values)), Fraction(0))
    if isinstance(first, tuple) and not dataclasses.is_dataclass(first):
        size = max(len(v) for v in values)
        return tuple(_mix([v[i] if i < len(v) else 0 for v in values], weights) for i in range(size))
    if isinstance(first, Mapping):
        keys = list(dict.fromkeys(k for v in values for k in v))
        zero = {k: next(v[k] for v in values if k in v) for k in keys}
        return {k: _mix([v.get(k, _zero_like(zero[k])) for v in values], weights) for k in keys}
    if dataclasses.is_dataclass(first):
        return dataclasses.replace(first, **{f.name: _mix([getattr(v, f.name) for v in values], weights)
                                             for f in dataclasses.fields(first) if f.init})
    if any(v != first for v in values):
        raise ValueError(f"the reel sets' analyses differ in a field that is not a probability: {first!r}")
    return first


def _zero_like(x):
    if isinstance(x, tuple):
        return tuple(_zero_like(v) for v in x)
    return Fraction(0) if isinstance(x, (int, Fraction)) else x


def mixture(parts: list[tuple[int, object]], phase, kind=None):
    """The analysis of one spin of ``phase`` whose reel set is drawn by weight: ``parts`` (weight, analysis
    of the phase on that reel set); every figure the weighted mean (each is linear in the spin's law).
    ``kind``: the class of the result (:class:`markov.moments.PhaseAnalysis`), whose fields alone are mixed:
    what only one reel set's enumeration gives (its method, cycle, joint law, award counts) is no mixture.

    >>> from markov.moments import CountSplit
    >>> a, b = CountSplit((Fraction(1),), (Fraction(2),), (Fraction(4),)), CountSplit((Fraction(1),), (Fraction(6),), (Fraction(36),))
    >>> mixture([(3, a), (1, b)], None).win
    (Fraction(3, 1),)
    """
    total = sum(w for w, _ in parts)
    weights = [Fraction(w, total) for w, _ in parts]
    if kind is None:
        return _mix([a if phase is None else dataclasses.replace(a, phase=phase) for _, a in parts], weights)
    values = [kind(**{f.name: getattr(a, f.name) for f in dataclasses.fields(kind) if f.init} | {"phase": phase})
              for _, a in parts]
    return _mix(values, weights)


class WeightedReelSets(Rule):
    """Weighted reel sets of a strip set: exact by the mixture of the reel sets' analyses.

    >>> from strips.loader import load_math_set
    >>> WeightedReelSets.present(load_math_set("rules_page").model)
    False
    """

    name = "weighted reel sets"
    keys = '[strips] NAME = { sets = ["a.csv", "b.csv"], weights = [3, 1] }'
    implements = frozenset({"report", "check", "chain", "diff"})

    @classmethod
    def parse(cls, t, doc: dict, model) -> ReelSetsConfig | None:
        """The weights of each strip set given as reel sets (the loader checked the table's shape)."""
        table = doc.get("strips") or {}
        if "modes" in doc and any(isinstance(v, dict) for v in table.values()):
            raise t.error(("modes",), "unsupported rule: bet modes with weighted reel sets")
        mixtures = []
        for name, value in table.items():
            if isinstance(value, dict):
                weights = [int(w) for w in value["weights"]]
                mixtures.append((name, tuple((name if k == 0 else f"{name}#{k + 1}", w)
                                             for k, w in enumerate(weights))))
        return ReelSetsConfig(tuple(mixtures)) if mixtures else None

    @classmethod
    def members(cls, model, strip_set: str):
        """((reel set, weight), ...) of ``strip_set`` of ``model``, or None for a strip set of one reel set."""
        config = cls.config(model)
        return config.members(strip_set) if config is not None else None


plugins.register(WeightedReelSets.name, (), WeightedReelSets.parse)
