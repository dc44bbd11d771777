"""Certified simulation of whole grid rounds with random features, free-spin games and a win cap.

Rounds are played by :func:`exact.grid_rounds.play_featured_rounds` (the
literal readings vectorised) in tasks of fixed size, each with its own seed
``SeedSequence(seed, spawn_key=(task,))`` on the Dask runner; each task
returns exact integer sums, merged in any order, so the figures never depend on
the worker count.  Every round plays the free spins of *every* free-spin game
when its key awards them, so each fixed choice's round is simulated on the same
base rounds (common random numbers), and the win cap caps each choice's total.

**Estimator** (exactly unbiased; the proof).  The strata are the pairs
(the initial drop wins or not, the random feature drawn for it), with exact
probabilities ``w = P(first drop wins) P(feature | win)`` (and likewise without
a win): P(no win) is exact (:mod:`exact.grid_drop`) and the feature's draw
depends on the drop only through whether it wins.  Within a stratum the round's
variables (each choice's capped total ``T_g``, its free-spin win ``F_g``, the
base cascade's win ``B``, the award, a win > 0, the evaluations) are averaged;
``X``, the first evaluation's pay of the drop before any feature, has the exact
conditional mean ``E[X | win] = mu / (1 - p0)`` in every winning stratum (0 in
the others) and is the control variate, its coefficient cross-fitted (each fold
of tasks, even and odd numbers, adjusted with the coefficient estimated on the
other fold, hence independent of it).  The estimate ``sum_s w_s mean_s(Z)``
is exactly unbiased given that every stratum of positive probability holds
rounds (post-stratification; the simulation refuses to report otherwise), and
its variance ``sum_s w_s^2 Var_s(Z) / m_s`` gives the normal 99% interval (asymptotic, not a proven bound:
the report and its JSON ``rtp_interval`` say so).  A
linear combination of the variables (a feature's share of the base win, the
free spins' share, a new player's RTP) has its interval the same way, and a
ratio (a share of the RTP) its delta-method interval.  Proportions of the
evaluations and of the win ranges are plain counts over all rounds with their
Clopper-Pearson 99% intervals.
"""
from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from exact.grid_drop import FirstDrop
from exact.grid_rounds import RngDraws, RoundTables, play_featured_rounds
from proofs.dask_runner import Cluster, run_tasks
from proofs.grid_simulate import NORMAL_WORDS, split_tasks
from proofs.simulate import proportion_ci99

__all__ = ["RoundStats", "RoundSimulation", "round_task", "round_figures", "simulate_rounds", "EDGES", "Z99"]

#: The two-sided 99% normal quantile.
Z99 = 2.5758293035489004
#: Rounds per task and per block of a task.
TASK_ROUNDS = 200_000
BLOCK = 25_000
#: Win ranges in bets (a round win of 0, then [0, 1), [1, 2), ... [5000, inf)).
EDGES = (0, 1, 2, 5, 10, 20, 50, 100, 250, 500, 1000, 2500, 5000)


def columns(rt: RoundTables) -> tuple[str, ...]:
    """The variables tallied per round: ``X`` (the control variate), per choice ``T:g`` and ``F:g``, then
    ``B``, ``A`` (awarded), ``H`` (default choice's total > 0), ``E`` (evaluations), ``C`` (the cap
    applies to the default choice)."""
    return ("X",) + tuple(f"{k}:{g}" for g, _, _ in rt.games for k in ("T", "F")) + ("B", "A", "H", "E", "C")


@dataclass
class RoundStats:
    """Exact integer sums of a set of rounds: per (stratum, fold) the count ``m``, the column sums ``s1``
    and the cross sums ``s2`` (lists of Python ints); ``n`` rounds per fold; histograms of the
    evaluations and of the default choice's win range (index into :data:`EDGES`); the largest uncapped
    round win of the default choice."""

    m: dict = field(default_factory=dict)
    s1: dict = field(default_factory=dict)
    s2: dict = field(default_factory=dict)
    n: list = field(default_factory=lambda: [0, 0])
    evals: dict = field(default_factory=dict)
    ranges: dict = field(default_factory=dict)
    max_win: int = 0

    def add(self, other: "RoundStats") -> None:
        for k, v in other.m.items():
            self.m[k] = self.m.get(k, 0) + v
            a, b = self.s1.get(k), other.s1[k]
            self.s1[k] = list(b) if a is None else [x + y for x, y in zip(a, b)]
            a, b = self.s2.get(k), other.s2[k]
            self.s2[k] = [list(r) for r in b] if a is None else [[x + y for x, y in zip(ra, rb)] for ra, rb in zip(a, b)]
        self.n = [self.n[0] + other.n[0], self.n[1] + other.n[1]]
        for d, o in ((self.evals, other.evals), (self.ranges, other.ranges)):
            for e, c in o.items():
                d[e] = d.get(e, 0) + c
        self.max_win = max(self.max_win, other.max_win)

    @property
    def rounds(self) -> int:
        return self.n[0] + self.n[1]


def _sums(V: np.ndarray):
    """Column sums and cross sums of ``V`` (k, c) int64, exact (Python ints)."""
    big = int(np.abs(V).max()) if V.size else 0
    if big and big * big * len(V) >= 2 ** 62:
        W = V.astype(object)
        return [int(x) for x in W.sum(axis=0)], [[int(x) for x in r] for r in W.T.dot(W)]
    return [int(x) for x in V.sum(axis=0)], [[int(x) for x in r] for r in V.T @ V]


def _histogram(values: np.ndarray, out: dict) -> None:
    vals, cnt = np.unique(values, return_counts=True)
    for v, c in zip(vals.tolist(), cnt.tolist()):
        out[v] = out.get(v, 0) + c


def round_task(rt: RoundTables, task: tuple[int, int, int]) -> RoundStats:
    """Play the ``rounds`` of task ``(seed, number, rounds)``: its RoundStats (fold = number % 2)."""
    seed, number, rounds = task
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(number,)))
    d = RngDraws(rt.t, rng)
    st = RoundStats()
    f = number % 2
    bet = rt.bet
    coins = np.array(EDGES[1:], dtype=np.int64) * bet
    left = rounds
    while left:
        k = min(BLOCK, left)
        left -= k
        b = play_featured_rounds(rt, k, d)
        cols = [b.first_pay]
        for g, _, _ in rt.games:
            cols += [b.total(g, rt.cap), b.free[g]]
        raw = b.total(rt.default, None)
        tot = b.total(rt.default, rt.cap)
        cols += [b.base_win, b.awarded.astype(np.int64), (tot > 0).astype(np.int64), b.evaluations,
                 (raw >= rt.cap).astype(np.int64) if rt.cap is not None else np.zeros(k, dtype=np.int64)]
        V = np.stack(cols, axis=1).astype(np.int64)
        stratum = b.first_won.astype(np.int64) * 100 + b.feature
        for s in np.unique(stratum).tolist():
            rows = stratum == s
            key = (s, f)
            s1, s2 = _sums(V[rows])
            st.m[key] = st.m.get(key, 0) + int(rows.sum())
            if key in st.s1:
                st.s1[key] = [x + y for x, y in zip(st.s1[key], s1)]
                st.s2[key] = [[x + y for x, y in zip(ra, rb)] for ra, rb in zip(st.s2[key], s2)]
            else:
                st.s1[key], st.s2[key] = s1, s2
        st.n[f] += k
        _histogram(b.evaluations, st.evals)
        _histogram(np.where(tot == 0, 0, 1 + np.searchsorted(coins, tot, side="right")), st.ranges)
        st.max_win = max(st.max_win, int(raw.max()) if raw.size else 0)
    return st


def feature_of(stratum: int) -> int:
    """The feature index of a stratum key (``100 x first drop wins + feature``; -1: none)."""
    return stratum - 100 if stratum >= 99 else stratum


@dataclass(frozen=True)
class Estimate:
    """A simulated figure: ``value`` and its 99% interval ``ci``."""

    value: float
    ci: tuple[float, float]

    def json(self, name: str) -> dict:
        return {name: self.value, f"{name}_ci99": list(self.ci)}


class _Strata:
    """The stratified, cross-fitted control-variate means of every column (see the module's estimator)."""

    def __init__(self, st: RoundStats, weights: dict, mux: float, ncol: int):
        self.w, self.means, self.covs, self.m, self.raw2 = {}, {}, {}, {}, {}
        for s, w in weights.items():
            if w == 0:
                continue
            m = sum(st.m.get((s, f), 0) for f in (0, 1))
            if m < 2:
                raise ValueError(f"only {m} simulated rounds in a stratum of probability {float(w):.3g} (the "
                                 f"first drop {'wins' if s >= 99 else 'has no win'}, feature "
                                 f"{feature_of(s) if feature_of(s) >= 0 else 'none'}): simulate more rounds")
            mu = mux if s >= 99 else 0.0
            beta = [self._beta(st, (s, f), mu, ncol) for f in (0, 1)]
            sz = np.zeros(ncol)
            szz = np.zeros((ncol, ncol))
            for f in (0, 1):
                key = (s, f)
                if key not in st.m:
                    continue
                b = beta[1 - f] if (s, 1 - f) in st.m else np.zeros(ncol)
                n = st.m[key]
                s1 = np.array(st.s1[key], dtype=float)
                s2 = np.array(st.s2[key], dtype=float)
                dx = s1[0] - n * mu                              # sum (X - mu)
                ux = s2[:, 0] - mu * s1                          # sum v (X - mu), per column
                xx = s2[0, 0] - 2 * mu * s1[0] + n * mu * mu     # sum (X - mu)^2
                sz += s1 - b * dx
                szz += s2 - np.outer(b, ux) - np.outer(ux, b) + np.outer(b, b) * xx
            mean = sz / m
            self.w[s], self.m[s] = float(w), m
            self.raw2[s] = sum(np.diag(np.array(st.s2[(s, f)], dtype=float)) for f in (0, 1) if (s, f) in st.m) / m
            self.means[s] = mean
            self.covs[s] = (szz - m * np.outer(mean, mean)) / (m - 1)

    @staticmethod
    def _beta(st: RoundStats, key, mu: float, ncol: int) -> np.ndarray:
        if st.m.get(key, 0) < 2:
            return np.zeros(ncol)
        n = st.m[key]
        s1 = np.array(st.s1[key], dtype=float)
        s2 = np.array(st.s2[key], dtype=float)
        vx = s2[0, 0] - s1[0] ** 2 / n
        if vx <= 0:
            return np.zeros(ncol)
        return (s2[:, 0] - s1[0] * s1 / n) / vx

    def linear(self, a) -> tuple[float, float]:
        """``sum_s w_s a(s) . mean_s`` and its variance; ``a(s)`` a coefficient vector (or None: 0)."""
        est = var = 0.0
        for s, w in self.w.items():
            c = a(s)
            if c is None:
                continue
            est += w * float(c @ self.means[s])
            var += w * w * float(c @ self.covs[s] @ c) / self.m[s]
        return est, var

    def cov(self, a, b) -> float:
        out = 0.0
        for s, w in self.w.items():
            ca, cb = a(s), b(s)
            if ca is None or cb is None:
                continue
            out += w * w * float(ca @ self.covs[s] @ cb) / self.m[s]
        return out

    def second(self, col: int) -> float:
        """E[v^2] of a column, stratified (plain within strata)."""
        return sum(w * self.raw2[s][col] for s, w in self.w.items())


def _ci(est: float, var: float, scale: float = 1.0) -> Estimate:
    h = Z99 * math.sqrt(max(var, 0.0))
    return Estimate(est / scale, ((est - h) / scale, (est + h) / scale))


def _ratio(S: _Strata, a, b) -> Estimate:
    """The ratio of two linear figures with its delta-method 99% interval."""
    ea, va = S.linear(a)
    eb, vb = S.linear(b)
    if eb == 0:
        return Estimate(0.0, (0.0, 0.0))
    r = ea / eb
    var = (va - 2 * r * S.cov(a, b) + r * r * vb) / (eb * eb)
    h = Z99 * math.sqrt(max(var, 0.0))
    return Estimate(r, (r - h, r + h))


@dataclass(frozen=True)
class RoundSimulation:
    """The figures of a certified simulation of whole rounds (every figure simulated, with its 99%
    interval, except the exact first drop).  RTPs and contributions are per bet."""

    rtp: Estimate
    sd_per_bet: float
    variance_reduction: float
    p_free_spins: Estimate
    hit_frequency: Estimate
    evaluations_mean: Estimate
    evaluations: tuple
    ranges: tuple
    choices: dict
    features: dict
    base_game: Estimate
    free_spins: Estimate
    cap: dict | None
    lowest_choice: str
    new_player: Estimate | None
    default: str
    rounds: int
    seed: int
    first_drop: FirstDrop
    max_win: int
    bet: int
    seconds: float = 0.0
    where: str = ""
    target: float | None = None

    @property
    def halfwidth(self) -> float:
        return (self.rtp.ci[1] - self.rtp.ci[0]) / 2

    def to_json(self) -> dict:
        """``method`` "simulation", ``rtp``/``rtp_ci99`` (the default choice), ``rounds``, ``seed``,
        ``sd_per_bet``, ``variance_reduction``, ``features`` {NAME: ``rtp``, ``rtp_share`` with their
        ``_ci99``}, ``free_spin_games`` {NAME: ``rtp``, ``free_spins_rtp``, ``rtp_share`` ...}, the
        ranges, the cap and the exact ``first_drop``."""
        out = {"method": "simulation", "rounds": self.rounds, "seed": self.seed, "default_choice": self.default,
               **self.rtp.json("rtp"), "rtp_interval": NORMAL_WORDS, "rtp_halfwidth99": self.halfwidth, "sd_per_bet": self.sd_per_bet,
               "variance_reduction": self.variance_reduction, **self.p_free_spins.json("p_free_spins"),
               **self.hit_frequency.json("hit_frequency"), **self.evaluations_mean.json("evaluations_mean"),
               "base_game": {**self.base_game[0].json("rtp"), **self.base_game[1].json("rtp_share")},
               "free_spins": {**self.free_spins[0].json("rtp"), **self.free_spins[1].json("rtp_share")},
               "features": {k: {"probability": v["probability"], **v["rtp"].json("rtp"),
                                **v["share"].json("rtp_share")} for k, v in self.features.items()},
               "free_spin_games": {g: {**v["rtp"].json("rtp"), **v["free"].json("free_spins_rtp"),
                                       **v["share"].json("rtp_share"), "spins": v["spins"],
                                       **({"unlock": v["unlock"]} if v.get("unlock") else {})}
                                   for g, v in self.choices.items()},
               "lowest_choice": self.lowest_choice,
               "evaluations": [{"evaluations": e, "probability": p, "probability_ci99": list(ci)}
                               for e, p, ci in self.evaluations],
               "win_ranges_bets": [{"from": lo, "to": hi, "probability": p, "probability_ci99": list(ci)}
                                   for lo, hi, p, ci in self.ranges],
               "max_win_observed": self.max_win, "first_drop": self.first_drop.figures(),
               "seconds": round(self.seconds, 3), "where": self.where}
        if self.new_player is not None:
            out["new_player"] = {"policy": NEW_PLAYER, **self.new_player.json("rtp")}
        if self.cap is not None:
            out["win_cap"] = {"bets": self.cap["bets"], "coins": self.cap["coins"],
                              **self.cap["probability"].json("probability"), **self.cap["removed"].json("removed_rtp")}
        if self.target is not None:
            out.update(target_halfwidth=self.target, target_reached=self.halfwidth < self.target)
        return out

    def lines(self, digits: int = 4) -> list[str]:
        """The text report's lines (simulated figures marked so; the first drop exact)."""
        pct = lambda v: f"{100 * v:.{digits}f}%"                      # noqa: E731
        ci = lambda e: f"[{pct(e.ci[0])}, {pct(e.ci[1])}]"            # noqa: E731
        one = lambda p: f"1 in {1 / p:,.1f}" if p > 0 else "never"    # noqa: E731
        fd = self.first_drop
        out = [f"method       simulation of {self.rounds:,} whole rounds (seed {self.seed}; {self.where}; "
               f"{self.seconds:.1f} s), stratified on the exact first drop and the random feature, its exact mean "
               f"as control variate; every figure below simulated (99% intervals) but the first drop",
               f"RTP          {pct(self.rtp.value)}  simulated, 99% {NORMAL_WORDS} {ci(self.rtp)} (half-width "
               f"{100 * self.halfwidth:.{digits}f} points; the default choice, {self.default})"]
        if self.target is not None and self.halfwidth >= self.target:
            out.append(f"NOTE         the target half-width {self.target} was not reached within --max-rounds "
                       f"({self.rounds:,} rounds)")
        out += [f"SD           {self.sd_per_bet:.4f} per bet (simulated)",
                f"variance reduction  x{self.variance_reduction:.2f} against plain Monte Carlo on the same rounds",
                f"hit frequency {pct(self.hit_frequency.value)}  simulated, 99% interval {ci(self.hit_frequency)}",
                f"P(free spins) {pct(self.p_free_spins.value)} ({one(self.p_free_spins.value)}; 1 in "
                f"{1 / self.p_free_spins.ci[1]:,.1f} to {1 / self.p_free_spins.ci[0]:,.1f})  simulated, 99% interval "
                f"{ci(self.p_free_spins)}" if self.p_free_spins.ci[0] > 0 else
                f"P(free spins) {pct(self.p_free_spins.value)}  simulated, 99% interval {ci(self.p_free_spins)}",
                f"evaluations  {self.evaluations_mean.value:.4f} per round (the base cascade, the last without a win "
                f"counted)  simulated, 99% interval [{self.evaluations_mean.ci[0]:.4f}, {self.evaluations_mean.ci[1]:.4f}]",
                "RTP split    (shares of the default choice's RTP, simulated, 99% intervals)"]
        b, bs = self.base_game
        out.append(f"  base game without a feature  {pct(b.value)} {ci(b)}  share {pct(bs.value)} {ci(bs)}")
        for name, v in self.features.items():
            out.append(f"  {name:<28} {pct(v['rtp'].value)} {ci(v['rtp'])}  share {pct(v['share'].value)} "
                       f"{ci(v['share'])}  (base cascades of the rounds it acts on)")
        f, fs = self.free_spins
        out.append(f"  free spins ({self.default}){'':<{max(0, 15 - len(self.default))}} {pct(f.value)} {ci(f)}  share "
                   f"{pct(fs.value)} {ci(fs)}")
        if self.cap is not None:
            r = self.cap["removed"]
            out.append(f"  removed by the win cap       {pct(-r.value)} [{pct(-r.ci[1])}, {pct(-r.ci[0])}]")
        if len(self.choices) > 1:
            out.append(f"free-spin games (each a fixed choice for every award; the lowest round RTP is the one a lab "
                       f"certifies: {self.lowest_choice})")
            for g, v in self.choices.items():
                out.append(f"  {g:<11} {v['spins']} spins{', unlocked at ' + str(v['unlock']) + ' keys' if v.get('unlock') else ''}:"
                           f" round RTP {pct(v['rtp'].value)} {ci(v['rtp'])}, free spins {pct(v['free'].value)} of it")
            if self.new_player is not None:
                out.append(f"  new player  round RTP {pct(self.new_player.value)} {ci(self.new_player)} ({NEW_PLAYER})")
        if self.cap is not None:
            p = self.cap["probability"]
            out.append(f"win cap      {self.cap['bets']:,} x bet ({self.cap['coins']:,} coins): reached in "
                       f"{pct(p.value)} of rounds, 99% interval {ci(p)} (simulated)")
        out.append(f"max win      {self.max_win:,} coins observed{' before the cap' if self.cap is not None else ''} "
                   f"({self.max_win / self.bet:,.1f} x bet)")
        out.append("win distribution (default choice, win / bet; simulated, Clopper-Pearson 99% intervals)")
        for lo, hi, p, c in self.ranges:
            what = "win = 0" if hi == 0 else f"{lo} < win/bet < {hi}" if lo == 0 else \
                f"{lo} <= win/bet < {hi}" if hi is not None else f"win/bet >= {lo}"
            out.append(f"  {what:<22} {p:.6g}  [{c[0]:.6g}, {c[1]:.6g}]")
        for e, p, c in self.evaluations[:6]:
            out.append(f"  {e:>3} evaluations  {pct(p)}  simulated, 99% interval {ci(Estimate(p, c))}")
        out.append(f"first drop   exact (before any feature): P(no win) {float(fd.no_win):.6f} ({fd.no_win}), mean "
                   f"{float(fd.mean) / self.bet:.6f} per bet")
        return out


#: The key meter's policy of a new player (as the chain report states it).
NEW_PLAYER = ("the newest unlocked game at each of the first 16 awards (award a unlocks the games needing at "
              "most a keys), the round RTP averaged over those 16 awards")


def round_figures(rt: RoundTables, st: RoundStats, fd: FirstDrop, feats, games, seed: int, seconds: float = 0.0,
                  where: str = "", cap_bets: int | None = None) -> RoundSimulation:
    """The simulation's figures from the merged sums (see the module's estimator)."""
    p0 = fd.no_win
    if p0 == 1:
        raise ValueError("the initial drop can never win")
    cols = columns(rt)
    ix = {c: i for i, c in enumerate(cols)}
    fs = tuple(feats.features) if feats else ()
    weights: dict = {}
    for won, pw in ((1, 1 - p0), (0, p0)):
        probs = [(i, Fraction(f.win if won else f.no_win)) for i, f in enumerate(fs)]
        for i, p in probs + [(-1, 1 - sum((p for _, p in probs), Fraction(0)))]:
            weights[won * 100 + i] = pw * p
    mux = float(fd.mean / (1 - p0))
    S = _Strata(st, weights, mux, len(cols))
    bet = rt.bet
    unit = lambda c: (lambda s: np.eye(len(cols))[ix[c]])       # noqa: E731
    only = lambda c, pred: (lambda s: np.eye(len(cols))[ix[c]] if pred(s) else None)   # noqa: E731
    d = rt.default
    rtp = _ci(*S.linear(unit(f"T:{d}")), bet) if rt.games else _ci(*S.linear(unit("B")), bet)
    total = unit(f"T:{d}") if rt.games else unit("B")
    sd = math.sqrt(max(0.0, S.second(ix[f"T:{d}" if rt.games else "B"]) - (rtp.value * bet) ** 2)) / bet
    N = st.rounds
    se2 = ((rtp.ci[1] - rtp.value) / Z99) ** 2
    vr = (sd * sd / N) / se2 if se2 > 0 else float("inf")
    feat_out = {}
    for i, f in enumerate(fs):
        a = only("B", lambda s, i=i: feature_of(s) == i)
        feat_out[f.name] = {"probability": {"win": str(f.win), "no_win": str(f.no_win)},
                            "rtp": _ci(*S.linear(a), bet), "share": _ratio(S, a, total)}
    none = only("B", lambda s: feature_of(s) == -1)
    base = (_ci(*S.linear(none), bet), _ratio(S, none, total))
    if rt.games:
        free = (_ci(*S.linear(unit(f"F:{d}")), bet), _ratio(S, unit(f"F:{d}"), total))
    else:
        free = (Estimate(0.0, (0.0, 0.0)), Estimate(0.0, (0.0, 0.0)))
    unlock = dict(games.unlock) if games else {}
    choices = {g: {"rtp": _ci(*S.linear(unit(f"T:{g}")), bet), "free": _ci(*S.linear(unit(f"F:{g}")), bet),
                   "share": _ratio(S, unit(f"F:{g}"), unit(f"T:{g}")), "spins": spins, "unlock": unlock.get(g)}
               for g, spins, _ in rt.games}
    lowest = min(choices, key=lambda g: choices[g]["rtp"].value) if choices else d
    new_player = None
    if games and len(choices) > 1:
        order = sorted(unlock, key=lambda g: (unlock[g], [x for x, _, _ in rt.games].index(g)))
        share = {g: 0 for g in choices}
        for a in range(1, 17):
            share[([g for g in order if unlock[g] <= a] or order[:1])[-1]] += 1
        vec = sum(share[g] / 16 * np.eye(len(cols))[ix[f"T:{g}"]] for g in choices)
        new_player = _ci(*S.linear(lambda s: vec), bet)
    cap = None
    if rt.cap is not None:
        removed = lambda s: np.eye(len(cols))[ix["B"]] + np.eye(len(cols))[ix[f"F:{d}"]] - np.eye(len(cols))[ix[f"T:{d}"]]  # noqa: E731
        cap = {"bets": cap_bets, "coins": rt.cap, "probability": _ci(*S.linear(unit("C"))),
               "removed": _ci(*S.linear(removed), bet)}
    evs = tuple((e, c / N, proportion_ci99(c, N)) for e, c in sorted(st.evals.items()))
    ranges = []
    bounds = [(0, 0)] + [(EDGES[k], EDGES[k + 1]) for k in range(len(EDGES) - 1)] + [(EDGES[-1], None)]
    for k, (lo, hi) in enumerate(bounds):
        c = st.ranges.get(k, 0)
        ranges.append((lo, hi, c / N, proportion_ci99(c, N)))
    return RoundSimulation(rtp, sd, vr, _ci(*S.linear(unit("A"))), _ci(*S.linear(unit("H"))),
                           _ci(*S.linear(unit("E"))), evs, tuple(ranges), choices, feat_out, base, free, cap, lowest,
                           new_player, d, N, seed, fd, st.max_win, bet, seconds, where)


def simulate_rounds(rt: RoundTables, fd: FirstDrop, feats, games, seed: int, *, rounds: int | None = None,
                    target: float | None = None, max_rounds: int = 10 ** 12, cluster: Cluster | None = None,
                    task_rounds: int = TASK_ROUNDS, cap_bets: int | None = None) -> RoundSimulation:
    """Simulate ``rounds`` whole rounds, or (``target``) until the default choice's RTP 99% half-width is
    below ``target`` (per bet) or ``max_rounds``.

    Raises
    ------
    ValueError
        A stratum of positive probability with fewer than 2 rounds; a cascade or a Dragon Destroy redraw
        beyond the literal player's limits.

    >>> from exact.grid_drop import first_drop
    >>> from exact.grid_rounds import round_tables
    >>> from exact.rules import grid_config_of
    >>> cfg = grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, key="K", free_spins=2)
    >>> s = simulate_rounds(round_tables(cfg), first_drop(cfg), None, None, 1, rounds=20_000, task_rounds=5_000)
    >>> s.rounds, s.rtp.ci[0] < s.rtp.value < s.rtp.ci[1]
    (20000, True)
    """
    cluster = cluster or Cluster(workers=1)
    start = time.perf_counter()
    st = RoundStats()
    used: list[int] = []
    done = 0

    def run(n: int) -> None:
        nonlocal done
        task_r = max(1, min(task_rounds, -(-n // 2)))
        tasks = list(split_tasks(seed, (max(used) + 1) if used else 0, n, task_r))
        used.extend(t[1] for t in tasks)
        for _, res in run_tasks(cluster, round_task, rt, tasks, small=n <= 2 * task_rounds):
            st.add(res)
        done += n

    figs = lambda secs=0.0, where="": round_figures(rt, st, fd, feats, games, seed, secs, where, cap_bets)  # noqa: E731
    if target is None:
        run(rounds or 2 * task_rounds)
    else:
        run(min(max_rounds, 2 * task_rounds))
        while done < max_rounds:
            sim = figs()
            if sim.halfwidth < target:
                break
            need = int(done * (sim.halfwidth / target) ** 2 * 1.1) - done
            run(min(max_rounds - done, max(need, 2 * task_rounds)))
    sim = figs(time.perf_counter() - start, cluster.describe(small=done <= 2 * task_rounds))
    return dataclasses.replace(sim, target=target)
