"""Simulation of whole rounds of a game whose spins fall (cascades, pay anywhere, clusters, the multiplier
symbol): stops drawn uniformly, each spin played fall by fall (:class:`exact.falls.FallEvaluator`, the
vectorised literal reading), the multiplier symbol's values drawn from the phase's weights, free spins
played one by one with their retriggers, level after level of the ladder as :mod:`exact.play` reads it (these
games show no KEY, so a later level starts only where its threshold is 0); the estimates beside the exact
figures of :func:`exact.par_sheet`.

The report is the one of every simulator (:class:`proofs.simulate_report.SimulationReport`: the same
figures, intervals and JSON keys): RTP (Catoni's interval with the exact SD, from the exact histogram of the
round wins), the base spin's hit rate,
the trigger rates by award index and the reach of the free spins (Clopper-Pearson), every interval at
the Bonferroni level of the run's figures, plus under a cascade P(at least 2 falls) of the base spin
(``falls_2_rate``).  Labelled simulated: every float here is an estimate with its interval, never an
exact figure.
"""
from __future__ import annotations

import dataclasses
import time

import numpy as np

from exact.enumeration import PARALLEL_FROM, enumeration_units, remember_phase, tally_units
from exact.falls import FallEvaluator
from exact.par import par_sheet
from exact.rules import SimulatedSection, combined_value, initial_spins, retrigger_spins, round_total_steps
from strips.decimals import exact_text
from strips.model import DEFAULT_MODE
from proofs.dask_runner import Cluster, progress_bar, run_tasks
from proofs.simulate_base import Tally, sum_of_squares, win_histogram
from strips import limits as _limits
from strips.errors import UnsupportedRule
from proofs.simulate_modes import Unit
from proofs.simulate_report import Figure, SimulationReport, _mode_report, format_report
from proofs.simulate_stats import FAMILY_LEVEL, interval_level, proportion_interval
from proofs.simulate_tables import exact_sum

__all__ = ["simulate_falls", "falls_certificate", "enumerate_falls"]

BLOCK = 1 << 15


def _spin_wins(ev: FallEvaluator, out, rng) -> np.ndarray:
    """Each spin's win before the level multiplier, the multiplier symbol's values drawn."""
    win = out.plain.copy()
    if out.drawn:
        table = ev.mcfg.table(ev.phase.weights)
        vals = np.array([v for v, _ in table])
        cum = np.cumsum([x for _, x in table])
        for i, items in out.drawn.items():
            sigs = [(ev.decode(s), a) for s, a, _ in items]
            slots = max(len(d) for d, _ in sigs)
            drawn = vals[np.searchsorted(cum, rng.integers(0, cum[-1], size=slots), side="right")]
            win[i] += sum(a * combined_value(ev.mcfg, [(int(drawn[j]), c) for j, c in enumerate(d) if c])
                          for d, a in sigs)
    return win


def _awards(ev: FallEvaluator, out, table) -> np.ndarray:
    """Free spins each spin awards: summed over its falls, or by the trigger count of fall 1."""
    return out.award if ev.sum_awards else np.asarray(table)[np.minimum(out.award, len(table) - 1)]


def simulate_falls(ms, rounds: int, seed: int) -> SimulationReport:
    """Simulate ``rounds`` game rounds of ``ms`` with numpy's PCG64 stream of ``seed``, in this process.

    Returns
    -------
    proofs.simulate_report.SimulationReport
        The figures beside the exact ones (see the module docstring).

    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "anywhere"},
    ...                      "cascade": {"multipliers": [1, 2]},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "A", "B"], ["A", "B", "B"]]})
    >>> simulate_falls(ms, 20_000, 1).passed
    True
    """
    model = ms.model
    sheet = par_sheet(ms)
    rng = np.random.default_rng(seed)
    base = FallEvaluator(ms, model.base_phase)
    # every level of the free spins, each its own evaluator (its strips, weights, cascade multipliers)
    levels = [model.level_phase(lv) for lv in model.levels] if model.trigger else []
    free = [FallEvaluator(ms, ph) for ph in levels]
    top = model.reels * model.rows + 1
    start_tab = [initial_spins(model, n) for n in range(top)]
    re_tab = [retrigger_spins(model, n) for n in range(top)]
    cap = model.retrigger_cap
    round_steps = round_total_steps(model)      # a win cap, as the literal round reads it
    tally = Tally(rounds=rounds, reach=[0] * len(levels))
    falls2 = 0
    start = time.perf_counter()
    done = 0
    while done < rounds:
        m = min(BLOCK, rounds - done)
        stops = np.stack([rng.integers(0, n, size=m) for n in base.lengths], axis=1)
        out = base.play(stops)
        win = _spin_wins(base, out, rng)
        tally.base_hits += int((win > 0).sum())
        tally.base_win += exact_sum(win)
        falls2 += int((out.falls >= 2).sum())
        for a, c in zip(*np.unique(out.award, return_counts=True)):
            tally.scatter[int(a)] = tally.scatter.get(int(a), 0) + int(c)
        played = np.zeros(m, dtype=np.int64)
        if free:
            left = _awards(base, out, start_tab)
            awarded = left.copy()
            for k, (phase, ev) in enumerate(zip(levels, free)):
                tally.reach[k] += int((left > 0).sum())
                while left.any():
                    idx = np.flatnonzero(left > 0)
                    st = np.stack([rng.integers(0, n, size=idx.size) for n in ev.lengths], axis=1)
                    fo = ev.play(st)
                    win[idx] += phase.multiplier * _spin_wins(ev, fo, rng)
                    left[idx] -= 1
                    played[idx] += 1
                    more = _awards(ev, fo, re_tab)
                    if cap is not None:
                        more = np.minimum(more, np.maximum(cap - awarded[idx], 0))
                    left[idx] += more
                    awarded[idx] += more
                if k + 1 < len(levels):
                    # the ladder (exact.play): the next level starts when the KEY counter is at its
                    # threshold; these games show no KEY, so the counter stays 0
                    go = (played > 0) & (model.levels[k + 1].threshold <= 0)
                    left = np.where(go, model.levels[k + 1].spins, 0).astype(np.int64)
        tally.free_spins += int(played.sum())
        for rule, config, bet in round_steps:
            win = rule.vector_step(config, bet, win)
        tally.win += exact_sum(win)
        tally.win2 += sum_of_squares(win)
        for b, c in win_histogram(win).items():
            tally.win_hist[b] = tally.win_hist.get(b, 0) + c
        done += m
    seconds = time.perf_counter() - start
    unit = Unit("mode", DEFAULT_MODE, 0)
    base_exact = sheet.analysis.base
    reached = base_exact.falls.at_least(2) if base_exact.falls else None

    def build(level):
        u = _mode_report(unit, tally, sheet.round, base_exact, level)
        if reached is None:
            return u
        f = Figure("P(at least 2 falls)", falls2 / rounds, proportion_interval(falls2, rounds, level), reached, level)
        return dataclasses.replace(u, sections={"cascading reels": SimulatedSection(
            figures=(f,), json={"falls_2_rate": f.to_json()}, lifted=("falls_2_rate",))})

    level = interval_level(len(build(FAMILY_LEVEL).figures))
    return SimulationReport(rounds=rounds, seed=seed, units=(build(level),), level=level, seconds=seconds,
                            where="in process, every spin played fall by fall")


def enumerate_falls(ms, *, cluster: Cluster | None = None, progress: bool = False, tasks_per_worker: int = 8) -> list:
    """Enumerate every stop combination of every phase of a game whose spins fall on ``cluster`` (a local
    Dask cluster, an existing one, or this process: :mod:`proofs.dask_runner`), past the in-process
    ``enumeration`` limit (up to the ``combinations`` limit of ``rtp prove --exhaustive``), each task the exact
    integer tally of a range of stop combinations (:func:`exact.enumeration.tally_units`: streamed in blocks,
    bounded memory), merged exactly; the phases are then kept for the PAR sheet of this process
    (:func:`exact.enumeration.remember_phase`).

    Returns
    -------
    list of (str, int, str)
        Per distinct phase (phases that differ only by their multiplier are enumerated once): its name, its
        stop combinations and where it ran.

    Raises
    ------
    strips.errors.UnsupportedRule
        More stop combinations than the ``combinations`` limit.

    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "clusters"},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "B"], ["A", "B"]]})
    >>> enumerate_falls(ms, cluster=Cluster(workers=1))
    [('base', 4, 'in process')]
    """
    cluster = cluster or Cluster(workers=1)
    model = ms.model
    phases = [model.base_phase] + ([model.level_phase(lv) for lv in model.levels] if model.trigger else [])
    seen, out = set(), []
    for phase in phases:
        key = FallEvaluator(ms, phase).key()
        if key in seen:
            continue
        seen.add(key)
        units, n = enumeration_units(ms, phase)
        limit = _limits.exceeds("combinations", n)
        if limit is not None:
            raise UnsupportedRule(f"exhaustive enumeration: {_limits.refusal('combinations', n, limit, 'stop combinations')}",
                                  rule="enumeration", analysis="prove")
        workers = cluster.local_workers
        parts = max(1, min(units, workers * tasks_per_worker))
        cuts = [units * i // parts for i in range(parts + 1)]
        tasks = [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if b > a]
        small = n < PARALLEL_FROM
        bar = progress_bar(units, 0, "unit", f"enumerating {phase.name}", progress)
        total = None
        try:
            for (a, b), t in run_tasks(cluster, _tally_task, (ms, phase), tasks, small=small):
                total = t if total is None else total.merge(t)
                if bar is not None:
                    bar.update(b - a)
        finally:
            if bar is not None:
                bar.close()
        remember_phase(ms, phase, total)
        out.append((phase.name, n, cluster.describe(small=small)))
    return out


def _tally_task(shared, task):
    """One task of :func:`enumerate_falls`: the tally of the unit range ``task`` of the phase ``shared``."""
    ms, phase = shared
    return tally_units(ms, phase, *task)


def falls_certificate(ms, rounds: int, seed: int, *, exhaustive: bool = False, cluster: Cluster | None = None,
                      progress: bool = False) -> tuple[str, bool]:
    """The certificate of a game whose spins fall, as Markdown, and whether it passed: its exact figures (the
    enumeration of every stop combination of every phase, :mod:`exact.enumeration`, itself exhaustive; with
    ``exhaustive``, on ``cluster`` past the in-process limit: :func:`enumerate_falls`) and ``rounds`` simulated
    rounds (0: none) beside them (:func:`simulate_falls`).

    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "clusters"},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "B"], ["A", "B"]]})
    >>> text, ok = falls_certificate(ms, 1000, 1)
    >>> ok, "enumeration of 4 stop combinations" in text
    (True, True)
    """
    where = enumerate_falls(ms, cluster=cluster, progress=progress) if exhaustive else []
    sheet = par_sheet(ms)
    a = sheet.analysis
    lines = [f"# Certificate of math set {ms.name}", "",
             f"RTP {float(sheet.rtp):.8%} exactly {exact_text(sheet.rtp, ratio=True)}", "",
             "## Exact figures: exhaustive enumeration", "",
             "Every phase below is the enumeration of every stop combination of its strips, every spin played "
             "fall by fall by the vectorised literal reading (exact/falls.py) and every multiplier value drawn "
             "summed with its probability; the tests check that reading against a brute-force replay written "
             "from the rules.", ""]
    for ph in (a.base,) + tuple(a.levels):
        lines.append(f"- {ph.phase.name}: {getattr(ph, 'method', 'per-reel factorisation')}, mean "
                     f"{float(ph.mean):.8f} credits per spin, hit frequency {float(ph.hit_frequency):.8f}")
    if where:
        lines += ["", "Enumerated " + "; ".join(f"{name} ({n:,} stop combinations) {at}" for name, n, at in where)
                  + ", in tasks of exact integer tallies merged exactly (no checkpoint is kept for these games)."]
    ok = True
    if rounds:
        fr = simulate_falls(ms, rounds, seed)
        ok = fr.passed
        lines += ["", "## Simulation (independent draws of the stops)", "", "```", format_report(fr, ms.name), "```"]
    lines += ["", f"Result: {'PASS' if ok else 'FAIL'}", ""]
    return "\n".join(lines), ok
