"""The exact figures of the frames and bowls (``[frames]``, :mod:`exact.rules.frames`) of a game's wheel awards.

Each ``free_spins N [START]`` award of a prize wheel plays N free spins of level 1 with frames: its win
G = F + B + P (pays, bowls, full prizes) has E[G] and E[G^2] from :func:`markov.frames.feature_moments`,
one per start of the levels (Go Large: every block position, mixed by its probability; the plain start:
every cell at level 0).  The free spins' pays enter through the engine's per-reel terms
(:func:`spin_pays`): one spin's pay is ``m / D x sum_t a_t prod_r x_{t,r}(stop of r)``, so E[pay x g(stop of
r)] and E[pay x prod_r g_r] are per-reel sums.  Those (E[v], E[v^2]) replace the award's plain free spins
in the round (:func:`markov.wheels.wheel_round`).

The starts read from the triggering window (Rollin' Bones, High Steaks) depend on where the wheel's
symbol lands, which the base win depends on too: the round's win before its features is split by the
deciding counts k and by x, the symbol's cells (each reel's mask in its own bits, summed over reels by
the same per-reel polynomial product, first moments only: :func:`exact.bet_modes.pre_feature_split`
with ``extra``); each x gives the start's levels and E[G | x], E[G^2 | x], so E[v 1{k}], E[v^2 1{k}] and
E[Y v 1{k}] are sums over x (:class:`FramesFigures`, ``window``).  One prize wheel only (a second wheel
would share the window's cells); the rule refuses more.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from exact.engine import analyse_phase, spin_terms
from exact.rules import FRAME_WINDOW_STARTS as WINDOW_STARTS
from exact.rules import Frames, ViewSection, block_starts, frame_awards, start_levels
from markov.frames import FramesMoments, SpinPays, feature_moments
from strips.model import FREE_SPINS, MathSet, window_codes

__all__ = ["spin_pays", "scatter_masks", "FramesFigures", "frames_figures", "FramesSection", "frames_section",
           "bowl_jackpot_odds"]


def _integers(g) -> tuple[list[int], int]:
    """Fractions as integer numerators over their least common denominator: (numerators, denominator).

    >>> _integers([Fraction(1, 2), Fraction(1, 3), 1])
    ([3, 2, 6], 6)
    """
    fr = [x if isinstance(x, Fraction) else Fraction(x) for x in g]
    den = lcm(*(x.denominator for x in fr)) if fr else 1
    return [x.numerator * (den // x.denominator) for x in fr], den


#: Results shared by the bet modes of a game (they share the free-spin strips): (what, the strips' codes,
#: ...) -> value; bounded.
_SHARED: dict = {}


def _shared(key, make):
    if key not in _SHARED:
        if len(_SHARED) > 64:
            _SHARED.clear()
        _SHARED[key] = make()
    return _SHARED[key]


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
        ints, den = _integers(g)
        return scale * Fraction(sum(int(n) * x for n, x in zip(numer[r], ints) if n), den)

    def project(r: int, g):
        """Reel r's sums over its stops of each distinct factor times g: (integer numerators, denominator)."""
        if g is None:
            return [int(v) for v in means[r]], 1
        ints, den = _integers(g)
        return [int(sum(int(v) * w for v, w in zip(row, ints) if v)) for row in xs[r]], den

    def combine(parts) -> Fraction:
        total = 0
        for t, c in enumerate(coef):
            if c:
                x = c
                for r in range(reels):
                    x *= parts[r][0][invs[r][t]]
                total += x
        den = 1
        for _, d in parts:
            den *= d
        return scale * Fraction(total, den)

    return SpinPays(a.mean, a.second, by_reel, project, combine)


def scatter_masks(ms: MathSet, phase, scatter: str) -> list[tuple[int, ...]]:
    """Per reel, per stop: the rows showing ``scatter`` on the strips of ``phase`` (bit i = row i + 1)."""
    code = ms.model.code(scatter)
    out = []
    for strip in ms.phase_strips(phase).codes:
        w = window_codes(strip, ms.model.rows)
        out.append(tuple(int(sum(1 << i for i in range(w.shape[1]) if row[i] == code)) for row in w))
    return out


def _mix(parts) -> FramesMoments:
    """The mixture of (weight, FramesMoments), weights summing to 1."""
    return FramesMoments(*(sum((p * getattr(m, f) for p, m in parts), Fraction(0))
                           for f in ("mean", "second", "pays", "bowls", "prize")),
                         tuple(sum((p * m.levels[i] for p, m in parts), Fraction(0)) for i in range(3)),
                         sum((p * m.full for p, m in parts), Fraction(0)))


@dataclass(frozen=True)
class FramesFigures:
    """The exact figures of every wheel award with frames of one bet mode.

    Attributes
    ----------
    fixed : dict (free spins N, start name) -> FramesMoments
        The awards whose start does not depend on the triggering window (plain ``""``, Go Large mixed over
        its blocks and positions).
    window : dict (N, start) -> {k: (S0, S2, SY)}
        The awards whose start is read from the triggering window (Rollin' Bones, High Steaks), by the
        deciding counts k = (n, b): S0 = sum over the symbol's cells x of P(k, x) E[G | x], S2 the same of
        E[G^2 | x], SY = sum_x E[Y 1{k, x}] E[G | x] (Y the round's win before its features).
    averaged : dict (N, start) -> (P(the award is drawn) per round, FramesMoments given it is played)
        The window awards' figures averaged over the windows that start them.
    jackpots : dict (N, start) -> {jackpot: P(at least one bowl wins it | the feature is played)}
    """

    fixed: dict
    window: dict
    averaged: dict
    jackpots: dict = dataclasses.field(default_factory=dict)

    def values(self, model) -> dict:
        """Award -> (E[v], E[v^2]) for :func:`markov.wheels.wheel_round` (a window award: (0, 0), its part
        given by :meth:`by_counts`)."""
        out = {}
        for a in frame_awards(model):
            m = self.fixed.get((a.amount, a.start))
            out[a] = (m.mean, m.second) if m is not None else (Fraction(0), Fraction(0))
        return out

    def by_counts(self, model) -> dict:
        """Award -> {k: (S0, S2, SY)} of the window awards."""
        return {a: self.window[a.amount, a.start] for a in frame_awards(model) if (a.amount, a.start) in self.window}

    def feature(self, key) -> FramesMoments | None:
        """The figures of one award's feature (a window award: averaged over the windows that start it;
        None when no window starts it)."""
        if key in self.fixed:
            return self.fixed[key]
        return self.averaged[key][1] if key in self.averaged else None


def frames_figures(ms: MathSet, split=None) -> FramesFigures | None:
    """The exact figures of the wheel awards with frames of ``ms`` (one bet mode); None without ``[frames]``.

    ``split(extra)``: the round's win before its features split by the deciding counts and ``extra``
    (:func:`exact.bet_modes.pre_feature_split`), needed by the starts read from the triggering window.

    Raises
    ------
    ValueError
        As :func:`spin_pays`; a window start without ``split``.
    """
    model = ms.model
    config = Frames.config(model)
    if config is None:
        return None
    phase = model.level_phase(model.levels[0])
    strips_key = (repr(model.symbols), model.rows, tuple(c.tobytes() for c in ms.phase_strips(phase).codes),
                  phase.multiplier, phase.weights)
    pays = _shared(("pays",) + strips_key, lambda: spin_pays(ms, phase))
    masks = scatter_masks(ms, phase, config.scatter)
    bowls = tuple(b.moments() for b in config.bowls)
    caches: dict = _shared(("features",) + strips_key + (config.scatter, bowls), dict)

    def moments(spins: int, start, levels) -> FramesMoments:
        cache = caches.setdefault((spins, start.raise_by, start.full), {})
        key = ("feature", levels)
        if key not in cache:
            cache[key] = feature_moments(masks, levels, spins, start.raise_by, bowls, pays, start.full, cache)
        return cache[key]

    jq = {}                   # jackpot -> P(a bowl of level 1, 2, 3 is it)
    for level, b in enumerate(config.bowls):
        for v, q in b.law():
            if v.jackpot:
                jq.setdefault(v.jackpot, [Fraction(0)] * 3)[level] += q

    def odds(spins: int, start, levels) -> dict:
        """Jackpot -> P(at least one bowl wins it | the feature from ``levels``): the reels' bowls are
        independent given their levels, so P(none) is a product over reels."""
        moments(spins, start, levels)
        cache = caches[spins, start.raise_by, start.full]
        if ("odds", levels) not in cache:
            out = {}
            for j, q in jq.items():
                none = Fraction(1)
                for i, lv in enumerate(levels):
                    none *= cache[i, tuple(lv)][0].avoids(q)
                out[j] = 1 - none
            cache["odds", levels] = out
        return cache["odds", levels]

    def mixed_odds(parts) -> dict:
        return {j: sum((p * o[j] for p, o in parts), Fraction(0)) for j in jq}

    fixed: dict = {}
    window: dict = {}
    averaged: dict = {}
    jackpots: dict = {}
    reels, rows = model.reels, model.rows
    for a in frame_awards(model):
        key = (a.amount, a.start)
        start = config.start(a.start)
        if key in fixed or start.name in WINDOW_STARTS:
            continue
        if start.name == "go_large":
            parts = [(p, start_levels(start, reels, rows, block=cells)) for p, cells in block_starts(start, reels, rows)]
        else:
            parts = [(Fraction(1), ((0,) * rows,) * reels)]
        fixed[key] = _mix([(p, moments(a.amount, start, lv)) for p, lv in parts])
        jackpots[key] = mixed_odds([(p, odds(a.amount, start, lv)) for p, lv in parts])
    used = [n for n in WINDOW_STARTS if any(a.start == n for a in frame_awards(model))]
    splits: dict = {}
    for name in used:
        if split is None:
            raise ValueError(f"frames: the start {name} needs the round's split by the triggering window")
        start = config.starts[name]
        if start.symbol not in splits:
            extra = [np.array([m << (rows * r) for m in reel], dtype=np.int64)
                     for r, reel in enumerate(scatter_masks(ms, model.base_phase, start.symbol))]
            splits[start.symbol] = split(extra)
        wheel = model.wheels[0]
        acc: dict = {}
        for k_x, (p, y1, _) in splits[start.symbol].items():
            k, x = k_x[:-1], k_x[-1]
            table = wheel.table_for(k[1])
            if not p or table is None:
                continue
            shown = tuple(tuple(start.symbol if x >> (rows * r + i) & 1 else "" for i in range(rows))
                          for r in range(reels))
            levels = start_levels(start, reels, rows, shown)
            total = sum(table.weights)
            for a, wt in zip(table.awards, table.weights):
                if a.kind != FREE_SPINS or a.start != name or not wt:
                    continue
                g = moments(a.amount, start, levels)
                sums = window.setdefault((a.amount, name), {})
                old = sums.get(k, (Fraction(0),) * 3)
                if (a.amount, name, k, x) not in acc:     # once per window, whatever the table's copies
                    sums[k] = (old[0] + p * g.mean, old[1] + p * g.second, old[2] + y1 * g.mean)
                    acc[a.amount, name, k, x] = True
                acc.setdefault((a.amount, name), []).append((Fraction(wt, total) * p, g, levels))
        for key in [key for key in acc if len(key) == 2]:
            by_feature: dict = {}          # the same start's feature once, its weights added
            for q, g, lv in acc[key]:
                by_feature[lv] = (by_feature[lv][0] + q, g) if lv in by_feature else (q, g)
            played = sum((q for q, _ in by_feature.values()), Fraction(0))
            averaged[key] = (played, _mix([(q / played, g) for q, g in by_feature.values()]))
            jackpots[key] = mixed_odds([(q / played, odds(key[0], start, lv)) for lv, (q, _) in by_feature.items()])
    return FramesFigures(fixed, window, averaged, jackpots)


@dataclass(frozen=True)
class FramesSection(ViewSection):
    """The frames' part of the PAR sheet (default mode): per wheel award with frames, its figures per feature,
    P(the round plays it) and P(a bowl wins each jackpot | it is played).  ``features``: award text ->
    (P per round, FramesMoments, {jackpot: P per feature})."""

    bet: int
    features: dict

    def figures(self) -> dict:
        return {text: {"probability": p, "mean": m.mean, "second": m.second, "pays": m.pays, "bowls": m.bowls,
                       "full_prize": m.prize, "cells_at_level": {str(i + 1): x for i, x in enumerate(m.levels)},
                       "full": m.full,
                       "bowl_jackpots": {j: {"per_feature": q, "per_round": p * q} for j, q in jp.items()}}
                for text, (p, m, jp) in self.features.items()}

    def lines(self) -> list[str]:
        out = ["frames and bowls (per feature; credits):"]
        for text, (p, m, jp) in self.features.items():
            out.append(f"  {text}: played {float(p):.8f} per round; E[win] {float(m.mean):.4f} = pays "
                       f"{float(m.pays):.4f} + bowls {float(m.bowls):.4f} + full prizes {float(m.prize):.6f}; "
                       f"sd {float(m.second - m.mean ** 2) ** 0.5:.4f}")
            out.append("    E[cells at level 1, 2, 3 at the end] " + ", ".join(f"{float(x):.4f}" for x in m.levels)
                       + f"; P(every cell at level 3) {float(m.full):.3e}")
            if jp:
                out.append("    a bowl wins (per feature / per round): " + "; ".join(
                    f"{j} {float(q):.3e} / {float(p * q):.3e}" for j, q in jp.items()))
        return out


def frames_section(ms: MathSet, default) -> FramesSection:
    """The frames section of the default mode's round ``default`` (:class:`exact.bet_modes.ModeResult`)."""
    figs = default.frames
    per_round: dict = {}
    for w in default.round.wheels.values():
        for text, p in w.awards.items():
            per_round[text] = per_round.get(text, Fraction(0)) + p
    out = {}
    for a in frame_awards(ms.model):
        key = (a.amount, a.start)
        f = figs.feature(key)
        if a.text not in out and f is not None:
            out[a.text] = (per_round.get(a.text, Fraction(0)), f, figs.jackpots.get(key, {}))
    return FramesSection(ms.model.bet, out)


def bowl_jackpot_odds(model, rr, figs: FramesFigures) -> dict[str, tuple[Fraction, Fraction]]:
    """Jackpot -> (low, high) bounds of P(a bowl wins it in a round) of one bet mode (``rr`` its
    :class:`markov.round.RoundResult`, ``figs`` its frames figures): per wheel award with frames, P(the round
    plays it) x P(a bowl wins it | the feature); one prize wheel draws one award per round, so the awards'
    terms add exactly (low = high); with several wheels a round may play several features: the largest
    term and the sum (at most 1) bound it.

    >>> import exact
    >>> ms = exact.load_math_set("wheel_game")
    >>> m = exact.par_sheet(ms).modes["default"]
    >>> lo, hi = bowl_jackpot_odds(ms.model, m.round, m.frames)["Grand"]
    >>> lo == hi and 0 < lo < 1
    True
    """
    per_round: dict = {}
    for w in rr.wheels.values():
        for text, p in w.awards.items():
            per_round[text] = per_round.get(text, Fraction(0)) + p
    terms: dict = {}
    seen = set()
    for a in frame_awards(model):
        key = (a.amount, a.start)
        if a.text in seen:
            continue
        seen.add(a.text)
        for j, q in figs.jackpots.get(key, {}).items():
            terms.setdefault(j, []).append(per_round.get(a.text, Fraction(0)) * q)
    one = len(model.wheels) == 1
    return {j: (sum(t, Fraction(0)) if one else max(t), min(Fraction(1), sum(t, Fraction(0)))) for j, t in terms.items()}
