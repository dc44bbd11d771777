"""Certified simulation of grid games: whole rounds played literally, stratified, with a control variate.

Rounds are played by the vectorised literal reading (:mod:`exact.grid_sim`) in
tasks of fixed size, each with its own seed ``SeedSequence(seed, spawn_key=(task,))``,
on the Dask runner (:func:`proofs.dask_runner.run_tasks`: in process, a local
cluster or ``--scheduler``).  Each task returns exact integer sums, merged in
any order, so the figures never depend on the worker count.

**Estimator** (unbiased, with its proof).  Let ``p0`` = P(the initial drop has no
win) and ``mu`` = E[first evaluation's pay], both exact (:mod:`exact.grid_drop`).

* *Stratification* on the first-drop class: a round whose initial drop has no
  win pays exactly 0 (its cascade ends at once; the key, on the path's entry,
  is not on the path's end of a grid of 2 cells or more).  So
  ``E[W] = (1 - p0) E[Y]``, ``Y`` the round win given a first-drop win, and only
  the rounds of that stratum carry variance.
* *Control variate*: ``X`` = the first evaluation's pay, with the exact
  ``E[X | win] = mu / (1 - p0)``.  ``Z = Y - beta (X - E[X | win])`` has mean
  ``E[Y]`` for any ``beta`` independent of the round.  The tasks are cut into two
  folds (even and odd task numbers); each fold's ``beta = Cov(X, Y) / Var(X)`` is
  estimated on the *other* fold, so it is independent of the rounds it adjusts
  and the estimator ``(1 - p0) mean(Z)`` is exactly unbiased (cross-fitting).
* The 99% interval is the normal one, ``+- z_{0.995} (1 - p0) s_Z / sqrt(n)``: right as the rounds grow, not a
  proven bound (the report and its JSON ``rtp_interval`` say so);
  the variance-reduction factor is the plain Monte Carlo variance of the mean
  of all ``N`` rounds drawn (``Var(W) / N``) over this estimator's, both
  measured on the same rounds.  Proportions (P(free spins), P(evaluations = e),
  hit frequency) are ``(1 - p0)`` times a stratum proportion with its
  Clopper-Pearson 99% interval; P(evaluations = 1) = ``p0`` exactly (a win
  needs a second evaluation).

``--target-halfwidth H`` plays waves of tasks (fixed task numbers, so the stop
is reproducible) until the RTP's 99% half-width is below ``H`` or the rounds
reach ``--max-rounds``.
"""
from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from exact.grid_drop import FirstDrop, first_drop
from exact.grid_sim import GridTables, grid_tables, play_rounds
from exact.rules import GridConfig
from proofs.dask_runner import Cluster, run_tasks
from proofs.simulate import proportion_ci99

__all__ = ["GridStats", "GridSimulation", "simulate_grid", "split_tasks", "TASK_ROUNDS", "Z99", "cheap_distribution"]

#: Rounds per task (each task is played in blocks of :data:`BLOCK`).
TASK_ROUNDS = 400_000
BLOCK = 50_000
#: What the RTP's interval is, in the report and its JSON (``rtp_interval``): the normal interval of the
#: control-variate estimator, right as the rounds grow but not a proven bound (a heavy tail of rare large wins
#: can make it miss more often than 1%).
NORMAL_WORDS = "normal interval (asymptotic, not a proven bound)"
#: The two-sided 99% normal quantile.
Z99 = 2.5758293035489004


@dataclass
class GridStats:
    """Exact integer sums of a set of rounds, per fold (0: even tasks, 1: odd tasks).

    ``n`` rounds drawn; over the rounds whose first drop wins: ``m`` rounds, sums of ``Y`` (round win),
    ``Y^2``, ``X`` (first pay), ``X^2``, ``XY``; ``awards`` free-spin awards, ``hits`` rounds with a win
    > 0, ``evals`` {evaluations: rounds}, ``eval_sum``, ``eval_sq``; ``max_win`` the largest round win.
    """

    n: list = field(default_factory=lambda: [0, 0])
    m: list = field(default_factory=lambda: [0, 0])
    y: list = field(default_factory=lambda: [0, 0])
    y2: list = field(default_factory=lambda: [0, 0])
    x: list = field(default_factory=lambda: [0, 0])
    x2: list = field(default_factory=lambda: [0, 0])
    xy: list = field(default_factory=lambda: [0, 0])
    awards: int = 0
    hits: int = 0
    eval_sum: int = 0
    eval_sq: int = 0
    evals: dict = field(default_factory=dict)
    max_win: int = 0

    def add(self, other: "GridStats") -> None:
        for k in ("n", "m", "y", "y2", "x", "x2", "xy"):
            a, b = getattr(self, k), getattr(other, k)
            setattr(self, k, [a[0] + b[0], a[1] + b[1]])
        self.awards += other.awards
        self.hits += other.hits
        self.eval_sum += other.eval_sum
        self.eval_sq += other.eval_sq
        for e, c in other.evals.items():
            self.evals[e] = self.evals.get(e, 0) + c
        self.max_win = max(self.max_win, other.max_win)

    @property
    def rounds(self) -> int:
        return self.n[0] + self.n[1]

    @property
    def stratum(self) -> int:
        return self.m[0] + self.m[1]


def _isum(a: np.ndarray) -> int:
    return int(a.astype(object).sum()) if a.size else 0


def grid_task(tables: GridTables, task: tuple[int, int, int]) -> GridStats:
    """Play the ``rounds`` of task ``(seed, number, rounds)``: its GridStats (fold = number % 2)."""
    seed, number, rounds = task
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(number,)))
    st = GridStats()
    f = number % 2
    left = rounds
    while left:
        k = min(BLOCK, left)
        left -= k
        r = play_rounds(tables, k, rng)
        win = r.win
        s = r.first_win
        if (win[~s] != 0).any():
            raise ValueError("a round without a first-drop win paid: the stratification does not hold")
        y, x = win[s], r.first_pay[s]
        st.n[f] += k
        st.m[f] += int(s.sum())
        st.y[f] += _isum(y)
        st.y2[f] += _isum(y.astype(object) ** 2) if y.size else 0
        st.x[f] += _isum(x)
        st.x2[f] += _isum(x.astype(object) ** 2) if x.size else 0
        st.xy[f] += _isum(x.astype(object) * y.astype(object)) if x.size else 0
        st.awards += int(r.awarded.sum())
        st.hits += int((win > 0).sum())
        e = r.evaluations[s]
        st.eval_sum += int(e.sum())
        st.eval_sq += int((e * e).sum())
        vals, cnt = np.unique(e, return_counts=True)
        for v, c in zip(vals.tolist(), cnt.tolist()):
            st.evals[v] = st.evals.get(v, 0) + c
        st.max_win = max(st.max_win, int(win.max()) if win.size else 0)
    return st


@dataclass(frozen=True)
class GridSimulation:
    """The figures of a certified simulation of a grid game (floats; every one simulated, with its 99%
    interval, except the exact first drop).

    Attributes
    ----------
    rtp, rtp_ci99 : float, (float, float)
        Per bet.
    sd_per_bet : float
        SD of the round win per bet (stratified moments).
    variance_reduction : float
        Plain Monte Carlo variance of the mean of the same rounds over this estimator's.
    p_free_spins, p_free_spins_ci99 : float, (float, float)
    hit_frequency, hit_frequency_ci99 : float, (float, float)
    evaluations_mean, evaluations_mean_ci99 : float, (float, float)
        Evaluations of the base cascade per round, the last one (no win) counted.
    evaluations : tuple of (int, float, (float, float))
        (evaluations, probability, 99% interval); evaluations = 1 is exact (p0).
    rounds, seed : int
    first_drop : FirstDrop
        Exact.
    max_win : int
        Largest round win observed, coins.
    seconds : float
    where : str
    """

    rtp: float
    rtp_ci99: tuple[float, float]
    sd_per_bet: float
    variance_reduction: float
    p_free_spins: float
    p_free_spins_ci99: tuple[float, float]
    hit_frequency: float
    hit_frequency_ci99: tuple[float, float]
    evaluations_mean: float
    evaluations_mean_ci99: tuple[float, float]
    evaluations: tuple
    rounds: int
    seed: int
    first_drop: FirstDrop
    max_win: int
    bet: int
    seconds: float = 0.0
    where: str = ""
    #: The RTP half-width asked for (``--target-halfwidth``), None for a fixed number of rounds.
    target: float | None = None

    @property
    def halfwidth(self) -> float:
        return (self.rtp_ci99[1] - self.rtp_ci99[0]) / 2

    def to_json(self) -> dict:
        """The JSON keys the report fixes: ``method``, ``rtp``/``rtp_ci99``, ``rounds``, ``seed``,
        ``sd_per_bet``, ``variance_reduction``, ``first_drop`` (exact), and the other simulated figures
        with their ``_ci99``."""
        return {
            "method": "simulation", "rounds": self.rounds, "seed": self.seed,
            "rtp": self.rtp, "rtp_ci99": list(self.rtp_ci99), "rtp_interval": NORMAL_WORDS, "rtp_halfwidth99": self.halfwidth,
            "sd_per_bet": self.sd_per_bet, "variance_reduction": self.variance_reduction,
            "p_free_spins": self.p_free_spins, "p_free_spins_ci99": list(self.p_free_spins_ci99),
            "hit_frequency": self.hit_frequency, "hit_frequency_ci99": list(self.hit_frequency_ci99),
            "evaluations_mean": self.evaluations_mean, "evaluations_mean_ci99": list(self.evaluations_mean_ci99),
            "evaluations": [{"evaluations": e, "probability": p, "probability_ci99": list(ci)}
                            for e, p, ci in self.evaluations],
            "max_win_observed": self.max_win, "first_drop": self.first_drop.figures(),
            "seconds": round(self.seconds, 3), "where": self.where,
            **({"target_halfwidth": self.target, "target_reached": self.halfwidth < self.target}
               if self.target is not None else {}),
        }

    def lines(self, digits: int = 4) -> list[str]:
        """The text report's lines (simulated figures marked so; the first drop exact)."""
        pct = lambda v: f"{100 * v:.{digits}f}%"          # noqa: E731
        ci = lambda c: f"[{pct(c[0])}, {pct(c[1])}]"       # noqa: E731
        fd = self.first_drop
        if self.target is not None and self.halfwidth >= self.target:
            out_note = [f"NOTE         the target half-width {self.target} was not reached within --max-rounds "
                        f"({self.rounds:,} rounds)"]
        else:
            out_note = []
        one = lambda p: f"1 in {1 / p:,.1f}" if p > 0 else "never"   # noqa: E731
        out = [f"method       simulation of {self.rounds:,} whole rounds (seed {self.seed}; {self.where}; "
               f"{self.seconds:.1f} s), stratified on the exact first drop with its exact mean as control variate",
               f"RTP          {pct(self.rtp)}  simulated, 99% {NORMAL_WORDS} {ci(self.rtp_ci99)} "
               f"(half-width {100 * self.halfwidth:.{digits}f} points)",
               f"SD           {self.sd_per_bet:.4f} per bet (simulated)",
               f"variance reduction  x{self.variance_reduction:.2f} against plain Monte Carlo on the same rounds",
               f"hit frequency {pct(self.hit_frequency)}  simulated, 99% interval {ci(self.hit_frequency_ci99)}",
               f"P(free spins) {pct(self.p_free_spins)} ({one(self.p_free_spins)})  simulated, 99% interval "
               f"{ci(self.p_free_spins_ci99)}",
               f"evaluations  {self.evaluations_mean:.4f} per round (the last, without a win, counted)  simulated, "
               f"99% interval [{self.evaluations_mean_ci99[0]:.4f}, {self.evaluations_mean_ci99[1]:.4f}]"] + out_note
        for e, p, c in self.evaluations[:8]:
            tag = "exact (P(no first-drop win))" if e == 1 else f"simulated, 99% interval {ci(c)}"
            out.append(f"  {e:>3} evaluations  {pct(p)}  {tag}")
        if len(self.evaluations) > 8:
            out.append(f"  ... up to {self.evaluations[-1][0]} evaluations")
        out.append(f"max win      {self.max_win:,} coins observed ({self.max_win / self.bet:,.1f} x bet)")
        out.append(f"first drop   exact: P(no win) {float(fd.no_win):.6f} ({fd.no_win}), mean "
                   f"{float(fd.mean) / self.bet:.6f} per bet" + ("" if fd.distribution is not None else
                                                                  " (distribution not computed: grid too large)"))
        return out


def _beta(st: GridStats, f: int, mu: float) -> float:
    """Cov(X, Y) / Var(X) over the stratum rounds of fold ``f``."""
    m = st.m[f]
    if m < 2:
        return 0.0
    vx = st.x2[f] - st.x[f] ** 2 / m
    cxy = st.xy[f] - st.x[f] * st.y[f] / m
    return float(cxy / vx) if vx > 0 else 0.0


def figures(st: GridStats, p0: Fraction, mu: Fraction, bet: int, seed: int, fd: FirstDrop,
            seconds: float = 0.0, where: str = "") -> GridSimulation:
    """The simulation's figures from the merged sums (see the module's estimator)."""
    q = 1 - float(p0)
    mux = float(mu / (1 - p0)) if p0 < 1 else 0.0
    m = st.stratum
    N = st.rounds
    if p0 == 1:
        raise ValueError("the initial drop can never win: every round pays 0 exactly (rtp report gives it)")
    if m < 2:
        raise ValueError(f"only {m} of {N:,} rounds had a first-drop win: simulate more rounds")
    sz = sz2 = 0.0
    for f in (0, 1):
        b = _beta(st, 1 - f, mux)
        n = st.m[f]
        sy, sy2, sx, sx2, sxy = (float(v) for v in (st.y[f], st.y2[f], st.x[f], st.x2[f], st.xy[f]))
        sz += sy - b * (sx - n * mux)
        sz2 += sy2 - 2 * b * (sxy - mux * sy) + b * b * (sx2 - 2 * mux * sx + n * mux * mux)
    zbar = sz / m
    vz = max(0.0, (sz2 - m * zbar * zbar) / (m - 1))
    rtp = q * zbar / bet
    se = q * math.sqrt(vz / m) / bet
    ytot, y2tot = sum(st.y), sum(st.y2)
    ew, ew2 = q * ytot / m, q * y2tot / m
    sd = math.sqrt(max(0.0, ew2 - ew * ew)) / bet
    plain_var = (y2tot / N - (ytot / N) ** 2) * N / (N - 1) / N / bet ** 2
    vr = plain_var / (se * se) if se > 0 else float("inf")

    def prop(k: int) -> tuple[float, tuple[float, float]]:
        lo, hi = proportion_ci99(k, m)
        return q * k / m, (q * lo, q * hi)

    pfs, pfs_ci = prop(st.awards)
    hit, hit_ci = prop(st.hits)
    me = st.eval_sum / m
    ve = max(0.0, (st.eval_sq - m * me * me) / (m - 1))
    emean = float(p0) + q * me
    eh = Z99 * q * math.sqrt(ve / m)
    evs = [(1, float(p0), (float(p0), float(p0)))] + [(e, *prop(c)) for e, c in sorted(st.evals.items())]
    return GridSimulation(rtp, (rtp - Z99 * se, rtp + Z99 * se), sd, vr, pfs, pfs_ci, hit, hit_ci, emean,
                          (emean - eh, emean + eh), tuple(evs), N, seed, fd, st.max_win, bet, seconds, where)


def split_tasks(seed: int, start: int, rounds: int, task_rounds: int):
    """Tasks ``(seed, number, rounds)`` of at most ``task_rounds`` rounds each, numbered from ``start``."""
    n, k = 0, start
    while n < rounds:
        r = min(task_rounds, rounds - n)
        yield (seed, k, r)
        n += r
        k += 1


def simulate_grid(cfg: GridConfig, seed: int, *, rounds: int | None = None, target: float | None = None,
                  max_rounds: int = 10 ** 12, cluster: Cluster | None = None, task_rounds: int = TASK_ROUNDS,
                  tables: GridTables | None = None, fd: FirstDrop | None = None) -> GridSimulation:
    """Simulate ``rounds`` rounds, or (``target``) until the RTP's 99% half-width is below ``target``.

    Parameters
    ----------
    cfg : GridConfig
    seed : int
    rounds : int, optional
        A fixed number of rounds (at least 2 tasks' worth are cut so both folds have rounds).
    target : float, optional
        Half-width of the RTP's 99% interval to reach (per bet, e.g. 0.001 = 0.1 points).
    max_rounds : int
        Rounds at most with ``target``.
    cluster : proofs.dask_runner.Cluster, optional
        Default: in process.

    Raises
    ------
    ValueError
        Too few rounds with a first-drop win, a cascade beyond the literal player's limit.

    >>> from exact.rules import grid_config_of
    >>> cfg = grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}, key="K", free_spins=2)
    >>> s = simulate_grid(cfg, 1, rounds=20_000, task_rounds=5_000)
    >>> s.rounds, s.rtp_ci99[0] < s.rtp < s.rtp_ci99[1]
    (20000, True)
    """
    cluster = cluster or Cluster(workers=1)
    tables = tables or grid_tables(cfg)
    fd = fd or first_drop(cfg, distribution=cheap_distribution(cfg))
    start = time.perf_counter()
    st = GridStats()
    done = 0

    def run(n: int) -> None:
        nonlocal done
        task_r = max(1, min(task_rounds, -(-n // 2)))
        tasks = list(split_tasks(seed, _next_task(st_tasks), n, task_r))
        st_tasks.extend(t[1] for t in tasks)
        for _, res in run_tasks(cluster, grid_task, tables, tasks, small=n <= 2 * task_rounds):
            st.add(res)
        done += n

    st_tasks: list[int] = []
    if target is None:
        run(rounds or 2 * task_rounds)
    else:
        n = min(max_rounds, 2 * task_rounds)
        run(n)
        while done < max_rounds:
            sim = figures(st, fd.no_win, fd.mean, cfg.bet, seed, fd)
            if sim.halfwidth < target:
                break
            need = int(done * (sim.halfwidth / target) ** 2 * 1.1) - done
            run(min(max_rounds - done, max(need, 2 * task_rounds)))
    where = cluster.describe(small=done <= 2 * task_rounds)
    sim = figures(st, fd.no_win, fd.mean, cfg.bet, seed, fd, time.perf_counter() - start, where)
    return dataclasses.replace(sim, target=target)


def _next_task(used: list[int]) -> int:
    return (max(used) + 1) if used else 0


def cheap_distribution(cfg: GridConfig) -> bool:
    """Whether the exact first-drop distribution is cheap (a second or so): the cell-by-cell DP's
    states grow like (S x run lengths)^columns."""
    S = len(cfg.pay_symbols)
    return (S * min(cfg.rows, 3)) ** min(cfg.columns, cfg.rows) <= 60_000
