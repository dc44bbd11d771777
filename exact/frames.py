"""The exact figures of the frames and bowls (``[frames]``, :mod:`exact.rules.frames`) of a game's wheel awards.

Each ``free_spins N [START]`` award of a prize wheel plays N free spins of level 1 with frames: its win
G = F + B + P (pays, bowls, full prizes) has E[G] and E[G^2] from :func:`markov.frames.feature_moments`,
one per start of the levels (Go Large: every block position, mixed by its probability; the plain start:
every cell at level 0).  The free spins' pays enter through the engine's per-reel terms
(:func:`spin_pays`): one spin's pay is ``m / D x sum_t a_t prod_r x_{t,r}(stop of r)``, so E[pay x g(stop of
r)] and E[pay x prod_r g_r] are per-reel sums.  Those (E[v], E[v^2]) replace the award's plain free spins
in the round (:func:`markov.wheels.wheel_round`).

The starts read from the triggering window (Rollin' Bones, High Steaks) are refused by the rule
(``frames with the start ...``); the literal round player (:mod:`exact.play`) plays them.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exact.engine import analyse_phase, spin_terms
from exact.rules import Frames, ViewSection, block_starts, frame_awards, start_levels
from markov.frames import FramesMoments, SpinPays, feature_moments
from strips.model import MathSet, window_codes

__all__ = ["spin_pays", "scatter_masks", "award_features", "award_values", "FramesSection", "frames_section"]


def spin_pays(ms: MathSet, phase) -> SpinPays:
    """One spin of ``phase`` as the frames' cross moments need it (:class:`markov.frames.SpinPays`).

    Raises
    ------
    ValueError
        FISH values or drawn WILD multipliers on the strips (a random factor: not a product of per-reel
        functions of the stops; the rule refuses such games first).

    >>> import exact
    >>> ms = exact.load_math_set("wheel_game")
    >>> phase = ms.model.level_phase(ms.model.levels[0])
    >>> p = spin_pays(ms, phase)
    >>> p.by_reel(0, [Fraction(1)] * 60) == p.mean
    True
    """
    st = spin_terms(ms, phase)
    coef = [t.coef for t in st.terms]
    xs, invs, means = [], [], []
    for (x, phi, tags, inv), t in zip(st.dedupes, st.tables):
        if phi.any() or tags is not None or t.scale != 1:
            raise ValueError("frames: FISH values or drawn WILD multipliers in the free spins are not modelled")
        xo = x.astype(object)
        xs.append(xo)
        invs.append(inv)
        means.append(xo.sum(axis=1))
    reels = len(xs)
    scale = Fraction(st.multiplier, st.d * int(np.prod([x.shape[1] for x in xs], dtype=object)))
    # K[r][t] = a_t prod_{r' != r} sum_s x_{t,r'}(s): reel r's per-stop numerator of E[pay | stop of r]
    numer = []
    for r in range(reels):
        k = np.array([coef[t] * int(np.prod([means[q][invs[q][t]] for q in range(reels) if q != r], dtype=object))
                      for t in range(len(coef))], dtype=object)
        per_row = np.zeros(xs[r].shape[0], dtype=object)
        np.add.at(per_row, invs[r], k)
        numer.append(per_row.dot(xs[r]))
    a = analyse_phase(ms, phase)

    def by_reel(r: int, g) -> Fraction:
        return scale * sum((int(n) * x for n, x in zip(numer[r], g) if n), Fraction(0))

    def weighted(gs) -> Fraction:
        per = []
        for r in range(reels):
            g = gs[r]
            per.append(means[r] if g is None else
                       [sum((int(v) * w for v, w in zip(row, g) if v), Fraction(0)) for row in xs[r]])
        total = Fraction(0)
        for t, c in enumerate(coef):
            if c:
                x = Fraction(c)
                for r in range(reels):
                    x *= per[r][invs[r][t]]
                total += x
        return scale * total

    return SpinPays(a.mean, a.second, by_reel, weighted)


def scatter_masks(ms: MathSet, phase, scatter: str) -> list[tuple[int, ...]]:
    """Per reel, per stop: the rows showing ``scatter`` on the strips of ``phase`` (bit i = row i + 1)."""
    code = ms.model.code(scatter)
    out = []
    for strip in ms.phase_strips(phase).codes:
        w = window_codes(strip, ms.model.rows)
        out.append(tuple(int(sum(1 << i for i in range(w.shape[1]) if row[i] == code)) for row in w))
    return out


def award_features(ms: MathSet) -> dict:
    """(free spins N, start name) -> :class:`markov.frames.FramesMoments` of every ``free_spins`` award of the
    game's wheels (the plain start: ``""``), Go Large mixed over its blocks and positions.

    Raises
    ------
    strips.errors.UnsupportedRule
        As :func:`exact.rules.require` (the rule refuses the game).
    """
    model = ms.model
    config = Frames.config(model)
    if config is None:
        return {}
    phase = model.level_phase(model.levels[0])
    pays = spin_pays(ms, phase)
    masks = scatter_masks(ms, phase, config.scatter)
    bowls = tuple(b.moments() for b in config.bowls)
    out = {}
    for a in frame_awards(model):
        key = (a.amount, a.start)
        if key in out:
            continue
        start = config.start(a.start)
        if start.name == "go_large":
            parts = [(p, start_levels(start, model.reels, model.rows, block=cells))
                     for p, cells in block_starts(start, model.reels, model.rows)]
        else:
            parts = [(Fraction(1), ((0,) * model.rows,) * model.reels)]
        mixed = [(p, feature_moments(masks, lv, a.amount, start.raise_by, bowls, pays, start.full)) for p, lv in parts]
        out[key] = FramesMoments(*(sum((p * getattr(m, f) for p, m in mixed), Fraction(0))
                                   for f in ("mean", "second", "pays", "bowls", "prize")),
                                 tuple(sum((p * m.levels[i] for p, m in mixed), Fraction(0)) for i in range(3)),
                                 sum((p * m.full for p, m in mixed), Fraction(0)))
    return out


def award_values(ms: MathSet) -> dict:
    """Award -> (E[v], E[v^2]) of every wheel award whose free spins carry frames (empty without ``[frames]``)."""
    feats = award_features(ms)
    if not feats:
        return {}
    return {a: (feats[a.amount, a.start].mean, feats[a.amount, a.start].second) for a in frame_awards(ms.model)}


@dataclass(frozen=True)
class FramesSection(ViewSection):
    """The frames' part of the PAR sheet (default mode): per wheel award with frames, its figures per feature
    and P(the round plays it).  ``features``: award text -> (P per round, FramesMoments)."""

    bet: int
    features: dict

    def figures(self) -> dict:
        return {text: {"probability": p, "mean": m.mean, "second": m.second, "pays": m.pays, "bowls": m.bowls,
                       "full_prize": m.prize, "cells_at_level": {str(i + 1): x for i, x in enumerate(m.levels)},
                       "full": m.full}
                for text, (p, m) in self.features.items()}

    def lines(self) -> list[str]:
        out = ["frames and bowls (per feature; credits):"]
        for text, (p, m) in self.features.items():
            out.append(f"  {text}: played {float(p):.8f} per round; E[win] {float(m.mean):.4f} = pays "
                       f"{float(m.pays):.4f} + bowls {float(m.bowls):.4f} + full prizes {float(m.prize):.6f}; "
                       f"sd {float(m.second - m.mean ** 2) ** 0.5:.4f}")
            out.append("    E[cells at level 1, 2, 3 at the end] " + ", ".join(f"{float(x):.4f}" for x in m.levels)
                       + f"; P(every cell at level 3) {float(m.full):.3e}")
        return out


def frames_section(ms: MathSet, default) -> FramesSection:
    """The frames section of the default mode's round ``default`` (:class:`exact.bet_modes.ModeResult`)."""
    feats = award_features(default.set)
    per_round: dict = {}
    for w in default.round.wheels.values():
        for text, p in w.awards.items():
            per_round[text] = per_round.get(text, Fraction(0)) + p
    out = {}
    for a in frame_awards(ms.model):
        if a.text not in out:
            out[a.text] = (per_round.get(a.text, Fraction(0)), feats[a.amount, a.start])
    return FramesSection(ms.model.bet, out)
