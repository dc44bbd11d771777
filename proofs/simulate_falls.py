"""Simulation of whole rounds of a game whose spins fall (cascades, pay anywhere, clusters, the multiplier
symbol): stops drawn uniformly, each spin played fall by fall (:class:`exact.falls.FallEvaluator`, the
vectorised literal reading), the multiplier symbol's values drawn from the phase's weights, free spins
played one by one with their retriggers; the estimates beside the exact figures of :func:`exact.par_sheet`.

Labelled simulated: every float here is an estimate with its interval, never an exact figure.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from exact.falls import FallEvaluator
from exact.par import par_sheet
from exact.rules import combined_value, initial_spins, retrigger_spins, round_total_steps
from strips.decimals import exact_text
from proofs.simulate_tables import exact_sum

__all__ = ["FallSimulation", "simulate_falls", "Z"]

#: The two-sided 99.99% normal quantile of the intervals.
Z = 3.890591886
BLOCK = 1 << 15


@dataclass(frozen=True)
class FallSimulation:
    """``rounds`` simulated game rounds (seed ``seed``): the mean round win per bet with its interval
    (``Z`` x exact SD / sqrt(rounds)), the base-spin hit rate and P(at least 2 falls) with theirs, beside
    the exact values; ``passed`` when each lies inside."""

    rounds: int
    seed: int
    seconds: float
    figures: tuple      # (name, estimate, (low, high), exact, inside)

    @property
    def passed(self) -> bool:
        return all(f[4] for f in self.figures)

    def to_json(self) -> dict:
        return {"rounds": self.rounds, "seed": self.seed, "seconds": self.seconds, "simulated": True,
                "passed": self.passed, "interval": "99.99% normal (exact SD)",
                "figures": [{"name": n, "estimate": e, "interval": list(i), "exact": float(x), "inside": ok}
                            for n, e, i, x, ok in self.figures]}

    def text(self, name: str) -> str:
        lines = [f"math set {name}: {self.rounds:,} simulated game rounds, seed {self.seed}, {self.seconds:.1f} s "
                 f"(every spin played fall by fall)", "intervals: 99.99% normal, exact SD", "",
                 f"{'figure':<26}{'estimate':>14}  {'99.99% interval':<27}{'exact':>14}  inside"]
        for n, e, (lo, hi), x, ok in self.figures:
            lines.append(f"{n:<26}{e:>14.8f}  [{lo:.8f}, {hi:.8f}]{float(x):>14.8f}  {'yes' if ok else 'NO'}")
        lines.append("")
        lines.append("PASS" if self.passed else "FAIL")
        return "\n".join(lines)


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


def simulate_falls(ms, rounds: int, seed: int) -> FallSimulation:
    """Simulate ``rounds`` game rounds of ``ms`` with numpy's PCG64 stream of ``seed``.

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
    level = model.level_phase(model.levels[0]) if model.trigger and model.levels else None
    free = FallEvaluator(ms, level) if level is not None else None
    top = model.reels * model.rows + 1
    start_tab = [initial_spins(model, n) for n in range(top)]
    re_tab = [retrigger_spins(model, n) for n in range(top)]
    cap = model.retrigger_cap
    round_steps = round_total_steps(model)      # a win cap, as the literal round reads it
    total = total2 = hits = falls2 = 0
    start = time.perf_counter()
    done = 0
    while done < rounds:
        m = min(BLOCK, rounds - done)
        stops = np.stack([rng.integers(0, n, size=m) for n in base.lengths], axis=1)
        out = base.play(stops)
        win = _spin_wins(base, out, rng)
        hits += int((win > 0).sum())
        falls2 += int((out.falls >= 2).sum())
        left = _awards(base, out, start_tab) if free is not None else np.zeros(m, dtype=np.int64)
        played = np.zeros(m, dtype=np.int64)
        while free is not None and left.any():
            idx = np.flatnonzero(left > 0)
            st = np.stack([rng.integers(0, n, size=idx.size) for n in free.lengths], axis=1)
            fo = free.play(st)
            win[idx] += level.multiplier * _spin_wins(free, fo, rng)
            left[idx] -= 1
            played[idx] += 1
            more = _awards(free, fo, re_tab)
            if cap is not None:
                more = np.minimum(more, np.maximum(cap - played[idx] - left[idx], 0))
            left[idx] += more
        for rule, config, bet in round_steps:
            win = rule.vector_step(config, bet, win)
        total += exact_sum(win)
        total2 += sum(int(w) * int(w) for w in win.tolist())
        done += m
    seconds = time.perf_counter() - start
    bet = model.bet
    sd = math.sqrt(float(sheet.variance))
    half = Z * sd / math.sqrt(rounds) / bet
    figures = [("rtp (per bet)", total / rounds / bet, sheet.rtp, half)]
    for name, count, p in (("base hit frequency", hits, sheet.analysis.base.hit_frequency),
                           ("P(at least 2 falls)", falls2, sheet.analysis.base.falls.at_least(2)
                            if sheet.analysis.base.falls else None)):
        if p is None:
            continue
        figures.append((name, count / rounds, p, Z * math.sqrt(float(p * (1 - p)) / rounds)))
    out = tuple((n, e, (float(x) - h, float(x) + h), x, abs(e - float(x)) <= h) for n, e, x, h in figures)
    return FallSimulation(rounds, seed, seconds, out)


def falls_certificate(ms, rounds: int, seed: int) -> tuple[str, bool]:
    """The certificate of a game whose spins fall, as Markdown, and whether it passed: its exact figures (the
    enumeration of every stop combination of every phase, :mod:`exact.enumeration`, itself exhaustive) and
    ``rounds`` simulated rounds (0: none) beside them (:func:`simulate_falls`).

    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "clusters"},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "B"], ["A", "B"]]})
    >>> text, ok = falls_certificate(ms, 1000, 1)
    >>> ok, "enumeration of 4 stop combinations" in text
    (True, True)
    """
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
    ok = True
    if rounds:
        fr = simulate_falls(ms, rounds, seed)
        ok = fr.passed
        lines += ["", "## Simulation (independent draws of the stops)", "", "```", fr.text(ms.name), "```"]
    lines += ["", f"Result: {'PASS' if ok else 'FAIL'}", ""]
    return "\n".join(lines), ok
