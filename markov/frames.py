"""Frames that persist through the free spins, and the bowls they become: exact chains over per-reel cell levels.

During a fixed number of free spins each cell holds a frame level 0..3 that persists to the end; a
scatter landing on a cell raises its level by ``raise_by`` (1; or to 3 at once: ``raise_by = 3``), at
most 3.  A spin draws one stop per reel of the free-spin strips, every stop equally likely; reel ``r``
at stop ``p`` shows scatters on the rows of the bit mask ``stop_masks[r][p]``.  At the end every
framed cell becomes a bowl whose value is drawn from its level's table, independently.

The reels are independent (each reel's levels move with its own stops), so the law of the levels at
the end is a product over reels of per-reel laws, each a chain over the ``4^rows`` level tuples of one
reel (:func:`reel_levels_law`), and the law of the numbers of cells at each level is their
convolution (:func:`level_counts_law`).  :class:`FramesChain` is the same feature as an instance of
the chain protocol (:mod:`markov.protocol`: state = every reel's levels x spins left, the bowls'
value the reward of the last spin), for small games; the two are tested equal and against a literal
replay of every stop sequence.

The whole feature with the free spins' pays and the full prize (:func:`feature_moments`): its win is
G = F + B + P, F the free spins' pays, B the bowls, P a prize paid for each scatter that lands when
every cell already holds a level-3 frame (no cell can take one).  Its exact E[G] and E[G^2] need, beyond
the per-reel chains, the pays' covariance with the levels: one spin's pay is a sum of products of
per-reel factors (the engine's terms), so E[pay x g(stop of reel r)] and E[pay x prod_r g_r(stop of r)]
are per-reel sums (``SpinPays``, given by the analysis layer, :mod:`exact.frames`).  The ``[frames]``
rule is :mod:`exact.rules.frames`.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product as cartesian
from typing import Callable, Sequence

__all__ = ["raise_levels", "reel_levels_law", "level_counts_law", "bowls_moments", "FramesChain", "ReelFrames",
           "SpinPays", "FramesMoments", "feature_moments"]

TOP = 3


def raise_levels(levels: tuple[int, ...], mask: int, raise_by: int) -> tuple[int, ...]:
    """One spin on one reel read literally: each row of ``mask`` showing a scatter raises its level by
    ``raise_by``, at most 3.

    >>> raise_levels((0, 2, 3), 0b111, 1), raise_levels((0, 1, 0), 0b010, 3)
    ((1, 3, 3), (0, 3, 0))
    """
    return tuple(min(TOP, v + raise_by) if mask >> i & 1 else v for i, v in enumerate(levels))


def reel_levels_law(stop_masks: Sequence[int], start: tuple[int, ...], spins: int, raise_by: int = 1) -> dict:
    """The exact law of one reel's levels after ``spins`` free spins from ``start``: {levels: Fraction}.

    >>> reel_levels_law([0b1, 0], (0,), 2)
    {(2,): Fraction(1, 4), (1,): Fraction(1, 2), (0,): Fraction(1, 4)}
    """
    law = {tuple(start): Fraction(1)}
    n = len(stop_masks)
    for _ in range(spins):
        nxt: dict = {}
        for levels, p in law.items():
            for m in stop_masks:
                t = raise_levels(levels, m, raise_by)
                nxt[t] = nxt.get(t, 0) + p / n
        law = nxt
    return law


def _counts(levels: tuple[int, ...]) -> tuple[int, int, int]:
    return tuple(sum(1 for v in levels if v == k) for k in (1, 2, 3))


def level_counts_law(reel_laws: Sequence[dict]) -> dict:
    """The law of (cells at level 1, at level 2, at level 3) over every reel: the convolution of the
    per-reel laws of :func:`reel_levels_law`.

    >>> level_counts_law([{(1,): Fraction(1, 2), (0,): Fraction(1, 2)}, {(3,): Fraction(1)}])
    {(1, 0, 1): Fraction(1, 2), (0, 0, 1): Fraction(1, 2)}
    """
    acc = {(0, 0, 0): Fraction(1)}
    for law in reel_laws:
        per: dict = {}
        for levels, p in law.items():
            c = _counts(levels)
            per[c] = per.get(c, 0) + p
        out: dict = {}
        for k1, p1 in acc.items():
            for k2, p2 in per.items():
                k = tuple(a + b for a, b in zip(k1, k2))
                out[k] = out.get(k, 0) + p1 * p2
        acc = out
    return acc


def bowls_moments(counts_law: dict, bowls: Sequence[tuple[Fraction, Fraction]]) -> tuple[Fraction, Fraction]:
    """E[B] and E[B^2] of the bowls' total value B (credits): ``bowls[L - 1]`` = (E[v], E[v^2]) of one bowl
    of level L, the bowls drawn independently; ``counts_law`` from :func:`level_counts_law`.

    >>> bowls_moments({(1, 0, 1): Fraction(1, 2), (0, 0, 1): Fraction(1, 2)},
    ...               [(Fraction(2), Fraction(4)), (Fraction(0), Fraction(0)), (Fraction(10), Fraction(100))])
    (Fraction(11, 1), Fraction(122, 1))
    """
    mean = second = Fraction(0)
    for k, p in counts_law.items():
        m = sum(n * b[0] for n, b in zip(k, bowls))
        var = sum(n * (b[1] - b[0] * b[0]) for n, b in zip(k, bowls))
        mean += p * m
        second += p * (var + m * m)
    return mean, second


@dataclass(frozen=True)
class FramesChain:
    """The frames of the free spins as a chain of the protocol of :mod:`markov.protocol` (small games).

    State: (every reel's levels, spins left); one transition per stop combination of a spin; the
    reward is 0 on every spin but the last, whose reward is the bowls' value at the end (E[B], E[B^2]
    given the final levels).  ``start(spins)`` starts from ``levels`` (every reel's start levels).

    >>> from markov.protocol import solve
    >>> c = FramesChain(((0b1, 0),), ((0,),), bowls=((Fraction(2), Fraction(4)),) * 3)
    >>> solve(c, [2])[2].mean
    Fraction(3, 2)
    """

    stop_masks: tuple[tuple[int, ...], ...]
    levels: tuple[tuple[int, ...], ...]
    bowls: tuple[tuple[Fraction, Fraction], ...]
    raise_by: int = 1

    def start(self, spins: int):
        return (self.levels, spins)

    def transitions(self, state) -> tuple:
        levels, left = state
        total = 1
        for m in self.stop_masks:
            total *= len(m)
        out: dict = {}
        for stops in cartesian(*self.stop_masks):
            t = tuple(raise_levels(lv, m, self.raise_by) for lv, m in zip(levels, stops))
            out[t] = out.get(t, 0) + 1
        rows = []
        for t, c in out.items():
            p = Fraction(c, total)
            if left > 1:
                rows.append((f"levels {t}", p, Fraction(0), Fraction(0), (t, left - 1)))
            else:
                k = tuple(sum(n) for n in zip(*(_counts(lv) for lv in t)))
                m, m2 = bowls_moments({k: Fraction(1)}, self.bowls)
                rows.append((f"levels {t} (bowls)", p, p * m, p * m2, None))
        return tuple(rows)


# ---------------------------------------------------------------------------
# the whole feature: pays, bowls and the full prize, exactly
# ---------------------------------------------------------------------------
class ReelFrames:
    """One reel's levels through ``spins`` free spins from ``start``: the forward laws, the bowls' value
    backwards, and what the cross moments need.

    ``stop_masks[p]``: the rows of stop p showing the frames' scatter (bit i = row i); ``bowls[L - 1]`` =
    (E[v], E[v^2]) of one bowl of level L.

    >>> r = ReelFrames((0b1, 0), (0,), 2, 1, ((Fraction(2), Fraction(4)),) * 3)
    >>> r.bowl_mean(), r.bowl_second(), r.given_stop(1)
    (Fraction(3, 2), Fraction(3, 1), (Fraction(2, 1), Fraction(1, 1)))
    """

    def __init__(self, stop_masks: Sequence[int], start: tuple[int, ...], spins: int, raise_by: int,
                 bowls: Sequence[tuple[Fraction, Fraction]]):
        self.masks, self.start, self.spins, self.raise_by = tuple(stop_masks), tuple(start), spins, raise_by
        self.n = len(self.masks)
        groups: dict[int, int] = {}
        for m in self.masks:
            groups[m] = groups.get(m, 0) + 1
        self.groups = tuple((m, Fraction(c, self.n)) for m, c in groups.items())
        self.mu = (Fraction(0),) + tuple(b[0] for b in bowls)
        self.var = (Fraction(0),) + tuple(b[1] - b[0] * b[0] for b in bowls)
        self.top = (TOP,) * len(self.start)
        laws = [{self.start: Fraction(1)}]
        for _ in range(spins):
            nxt: dict = {}
            for lv, p in laws[-1].items():
                for m, q in self.groups:
                    t = raise_levels(lv, m, raise_by)
                    nxt[t] = nxt.get(t, 0) + p * q
            laws.append(nxt)
        self.laws = laws
        self._memo: dict = {}

    def _back(self, kind: str, t: int, lv: tuple) -> Fraction:
        """E[the end value ``kind`` | levels ``lv`` after ``t`` spins]: ``mean`` / ``second`` of the reel's
        bowls, ``full T`` = P(every cell at level 3 after T spins) (t <= T)."""
        key = (kind, t, lv)
        if key in self._memo:
            return self._memo[key]
        end = int(kind.split()[1]) if kind.startswith("full") else self.spins
        if t == end:
            if kind == "mean":
                v = sum((self.mu[x] for x in lv), Fraction(0))
            elif kind == "second":
                m = sum((self.mu[x] for x in lv), Fraction(0))
                v = m * m + sum((self.var[x] for x in lv), Fraction(0))
            else:
                v = Fraction(int(lv == self.top))
        else:
            v = sum((q * self._back(kind, t + 1, raise_levels(lv, m, self.raise_by)) for m, q in self.groups),
                    Fraction(0))
        self._memo[key] = v
        return v

    def bowl_mean(self) -> Fraction:
        """E[B_r]: the reel's bowls at the end, credits."""
        return self._back("mean", 0, self.start)

    def bowl_second(self) -> Fraction:
        """E[B_r^2], credits^2."""
        return self._back("second", 0, self.start)

    def _given(self, kind: str, t: int) -> tuple[Fraction, ...]:
        """Per stop p: E[the end value ``kind`` | the reel stops at p on spin ``t``] (1-based)."""
        by_mask = {m: sum((p * self._back(kind, t, raise_levels(lv, m, self.raise_by))
                           for lv, p in self.laws[t - 1].items()), Fraction(0)) for m, _ in self.groups}
        return tuple(by_mask[m] for m in self.masks)

    def given_stop(self, t: int) -> tuple[Fraction, ...]:
        """Per stop p: E[B_r | stop p on spin t], credits."""
        return self._given("mean", t)

    def full_after(self, t: int) -> Fraction:
        """P(every cell of the reel at level 3 after ``t`` spins)."""
        return self.laws[t].get(self.top, Fraction(0))

    def full_given_stop(self, t: int, end: int) -> tuple[Fraction, ...]:
        """Per stop p: P(every cell at level 3 after ``end`` spins | stop p on spin ``t``), t <= end."""
        return self._given(f"full {end}", t)

    def level_means(self) -> tuple[Fraction, Fraction, Fraction]:
        """E[cells of the reel at level 1, 2, 3 at the end]."""
        if "levels" not in self._memo:
            out = [Fraction(0)] * 3
            for lv, p in self.laws[-1].items():
                for x in lv:
                    if x:
                        out[x - 1] += p
            self._memo["levels"] = tuple(out)
        return self._memo["levels"]

    def avoids(self, q: Sequence[Fraction]) -> Fraction:
        """P(no bowl of the reel shows an award), ``q[L - 1]`` its probability in a bowl of level L."""
        key = ("avoids", tuple(q))
        if key in self._memo:
            return self._memo[key]
        qq = (Fraction(0),) + tuple(q)
        total = Fraction(0)
        for lv, p in self.laws[-1].items():
            x = p
            for v in lv:
                x *= 1 - qq[v]
            total += x
        self._memo[key] = total
        return total


@dataclass(frozen=True)
class SpinPays:
    """One free spin's pays as the frames' cross moments need them (credits, the level multiplier in).

    ``by_reel(r, g)`` = E[pay x g[stop of reel r]] for per-stop Fractions ``g``; ``project(r, g)`` reel r's
    part of E[pay x prod_r g_r] (any object ``combine`` takes), ``combine(parts)`` that expectation from
    one part per reel.
    """

    mean: Fraction
    second: Fraction
    by_reel: Callable
    project: Callable
    combine: Callable

    def weighted(self, gs) -> Fraction:
        """E[pay x prod_r gs[r][stop of reel r]]."""
        return self.combine([self.project(r, g) for r, g in enumerate(gs)])


@dataclass(frozen=True)
class FramesMoments:
    """Exact figures of one frames feature: G = F + B + P (credits per feature).

    Attributes
    ----------
    mean, second : Fraction
        E[G], E[G^2].
    pays, bowls, prize : Fraction
        E[F] (the free spins' pays), E[B] (the bowls), E[P] (the full prize).
    levels : tuple of 3 Fraction
        E[cells at level 1, 2, 3 at the end].
    full : Fraction
        P(every cell at level 3 at the end).
    """

    mean: Fraction
    second: Fraction
    pays: Fraction
    bowls: Fraction
    prize: Fraction
    levels: tuple
    full: Fraction


def _prod(xs) -> Fraction:
    out = Fraction(1)
    for x in xs:
        out *= x
    return out


def feature_moments(stop_masks: Sequence[Sequence[int]], start: Sequence[tuple[int, ...]], spins: int,
                    raise_by: int, bowls: Sequence[tuple[Fraction, Fraction]], pays: SpinPays,
                    prize: int = 0, cache: dict | None = None) -> FramesMoments:
    """E[G] and E[G^2] of the frames feature of ``spins`` free spins from the levels ``start`` (one tuple
    per reel): G = F + B + P (module docstring).

    With A_t = every cell at level 3 before spin t (a product over reels), N_t the scatters of spin t
    and P = prize x sum_t A_t N_t: E[F B] = sum_t sum_r E[pay x E[B_r | stop of r on spin t]];
    E[P] = prize sum_t P(A_t) E[N]; E[P^2] = prize^2 sum_t P(A_t) (E[N^2] + 2 (later spins) E[N]^2);
    E[B P] = prize sum_t P(A_t) E[N] x cells x E[level-3 bowl]; E[F P] = prize sum_t (P(A_t) E[pay N] +
    (later spins) P(A_t) E[N] E[pay] + sum_{t' < t} E[N] E[pay_t' A_t]).

    ``cache``: a dict kept between calls with the same masks, spins, raise, bowls and pays (each reel's
    chain and its parts of the cross moments, by the reel and its start levels).

    >>> from fractions import Fraction as F
    >>> pays = SpinPays(F(1), F(1), lambda r, g: sum(g, F(0)) / len(g), None, None)
    >>> m = feature_moments([(0b1, 0)], [(0,)], 1, 1, ((F(2), F(4)),) * 3, pays)
    >>> m.mean, m.second
    (Fraction(2, 1), Fraction(5, 1))
    """
    cache = {} if cache is None else cache

    def reel(i: int, s: tuple) -> tuple:
        """(ReelFrames, E[B_r], E[B_r^2], sum_t E[pay x E[B_r | stop on spin t]]) of reel i from s, cached."""
        if (i, s) not in cache:
            r = ReelFrames(stop_masks[i], s, spins, raise_by, bowls)
            fb = sum((pays.by_reel(i, r.given_stop(t)) for t in range(1, spins + 1)), Fraction(0))
            cache[i, s] = (r, r.bowl_mean(), r.bowl_second(), fb)
        return cache[i, s]

    parts = [reel(i, tuple(s)) for i, s in enumerate(start)]
    reels = [p[0] for p in parts]
    e_f, e_f2 = spins * pays.mean, spins * pays.second + spins * (spins - 1) * pays.mean ** 2
    bm = [p[1] for p in parts]
    e_b = sum(bm, Fraction(0))
    e_b2 = sum((p[2] for p in parts), Fraction(0)) + (e_b * e_b - sum((x * x for x in bm), Fraction(0)))
    e_fb = sum((p[3] for p in parts), Fraction(0))
    e_p = e_p2 = e_bp = e_fp = Fraction(0)
    full = _prod(r.full_after(spins) for r in reels)
    if prize:
        if "scatters" not in cache:     # E[N], E[N^2], E[pay N] of one spin: the same from every start
            counts = [tuple(bin(m).count("1") for m in masks) for masks in stop_masks]
            cn = [sum(c, 0) for c in counts]
            en = sum((Fraction(c, len(cs)) for c, cs in zip(cn, counts)), Fraction(0))
            var = sum((Fraction(sum(x * x for x in cs), len(cs)) - Fraction(c, len(cs)) ** 2
                       for c, cs in zip(cn, counts)), Fraction(0))
            pay_n = sum((pays.by_reel(i, tuple(Fraction(x) for x in cs)) for i, cs in enumerate(counts)), Fraction(0))
            cache["scatters"] = (en, var + en * en, pay_n)
        en, en2, pay_n = cache["scatters"]
        cells = sum(len(s) for s in start)
        alpha = [_prod(r.full_after(t - 1) for r in reels) for t in range(1, spins + 1)]
        for t in range(1, spins + 1):
            a = alpha[t - 1]
            later = spins - t
            e_p += a * en
            e_p2 += a * (en2 + 2 * later * en * en)
            e_bp += a * en * cells * bowls[2][0]
            e_fp += a * pay_n + later * a * en * pays.mean
            if a:       # A_t possible: the earlier spins' pays with it
                for u in range(1, t):
                    proj = []
                    for i, (r, s) in enumerate(zip(reels, start)):
                        if ("full", i, tuple(s), u, t) not in cache:
                            cache["full", i, tuple(s), u, t] = pays.project(i, r.full_given_stop(u, t - 1))
                        proj.append(cache["full", i, tuple(s), u, t])
                    e_fp += en * pays.combine(proj)
        e_p, e_p2, e_bp, e_fp = prize * e_p, prize * prize * e_p2, prize * e_bp, prize * e_fp
    levels = tuple(sum(x) for x in zip(*(r.level_means() for r in reels)))
    mean = e_f + e_b + e_p
    second = e_f2 + e_b2 + e_p2 + 2 * (e_fb + e_fp + e_bp)
    return FramesMoments(mean, second, e_f, e_b, e_p, levels, full)
