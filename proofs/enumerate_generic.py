"""The generic enumeration path: every rule of the literal window evaluator, on :mod:`exact.windows`.

A game the fast rules-page path does not take (paylines, several scatters,
combination multipliers, ``counts_as_scatter``, ``trigger_reels``,
``multiplier_by_trigger``, wheels, bet modes) is enumerated block by block
through :class:`exact.windows.WindowEvaluator` (:func:`generic_task_totals`),
with the same checkpoints and plan as the fast path.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from strips.model import MathSet, Phase
from strips.protect import set_inputs
from proofs.dask_runner import Cluster
from exact.windows import SUM_HEADROOM, WindowEvaluator
from proofs.enumerate_plan import run_plan, stop_slice, task_ranges
from proofs.enumerate_checkpoint import is_int_table, record_header, set_hash
from proofs.enumerate_kernel import block_plan, stop_blocks
from exact.rules import beyond_count_tables, payline_count


#: Combinations per block of the generic path (at most exact.windows.SUM_HEADROOM: exact int64 block sums).
GENERIC_CHUNK = 1 << 15


def fast_path_takes(ms: MathSet) -> bool:
    """Whether the fast rules-page path enumerates this game: a ways game without the catalogue rules
    (one scatter symbol, no paylines, combination multipliers, counts_as_scatter, trigger_reels,
    multiplier_by_trigger).  Every other game goes through the generic path (:func:`generic_task_totals`)."""
    return beyond_count_tables(ms.model) is None


@dataclass(frozen=True)
class SpinTotals:
    """Exact integer totals of the generic path over a set of stop combinations.

    Amounts are numerators over the evaluator's denominator
    (:attr:`exact.windows.WindowEvaluator.denominator`), before the level multiplier.

    Attributes
    ----------
    combinations : int
    pay, ways, scatter, collect : int
        Sums over the combinations of the win and of its parts (ways or line pays, scatter pays, collect).
    hits : int
        Combinations whose win is > 0 for every draw.
    trigger : tuple of int
        Combinations by trigger count (``SpinResult.trigger_count``).
    keys : tuple of int
        Combinations by KEY count.
    scatters : tuple of tuple of int
        Per scatter symbol (file order), combinations by its count.
    lines, line_hits : tuple of int
        Line games: per payline the sum of its pays (numerators) and the combinations in which it pays.
    """

    combinations: int
    pay: int
    ways: int
    scatter: int
    collect: int
    hits: int
    trigger: tuple[int, ...]
    keys: tuple[int, ...]
    scatters: tuple[tuple[int, ...], ...]
    lines: tuple[int, ...] = ()
    line_hits: tuple[int, ...] = ()

    def __add__(self, other: "SpinTotals") -> "SpinTotals":
        def add(a, b):
            return tuple(x + y for x, y in zip(a, b))
        return SpinTotals(self.combinations + other.combinations, self.pay + other.pay, self.ways + other.ways,
                          self.scatter + other.scatter, self.collect + other.collect, self.hits + other.hits,
                          add(self.trigger, other.trigger), add(self.keys, other.keys),
                          tuple(add(a, b) for a, b in zip(self.scatters, other.scatters)),
                          add(self.lines, other.lines), add(self.line_hits, other.line_hits))

    @classmethod
    def zero(cls, max_key: int, max_scatters: Sequence[int], max_trigger: int, paylines: int = 0) -> "SpinTotals":
        """Totals of no combination with histograms for counts up to the given maxima."""
        return cls(0, 0, 0, 0, 0, 0, (0,) * (max_trigger + 1), (0,) * (max_key + 1),
                   tuple((0,) * (m + 1) for m in max_scatters), (0,) * paylines, (0,) * paylines)

    def to_json(self) -> dict:
        """JSON-able dict (amounts as decimal strings: exact at any size)."""
        return {"combinations": self.combinations, "pay": str(self.pay), "ways": str(self.ways),
                "scatter": str(self.scatter), "collect": str(self.collect), "hits": self.hits,
                "trigger": list(self.trigger), "keys": list(self.keys), "scatters": [list(x) for x in self.scatters],
                "lines": [str(x) for x in self.lines], "line_hits": list(self.line_hits)}

    @classmethod
    def from_json(cls, d: dict) -> "SpinTotals":
        """Inverse of :meth:`to_json`."""
        return cls(int(d["combinations"]), int(d["pay"]), int(d["ways"]), int(d["scatter"]), int(d["collect"]),
                   int(d["hits"]), tuple(int(x) for x in d["trigger"]), tuple(int(x) for x in d["keys"]),
                   tuple(tuple(int(x) for x in s) for s in d["scatters"]), tuple(int(x) for x in d["lines"]),
                   tuple(int(x) for x in d["line_hits"]))


@dataclass(frozen=True)
class GenericPlan:
    """What a generic run must compute: its tasks and the shape of their totals (validates checkpoint records)."""

    key: str
    tasks: tuple[tuple[int, int], ...]
    per_stop: int
    max_key: int
    max_scatters: tuple[int, ...]
    max_trigger: int
    paylines: int = 0

    def validate(self, rec) -> tuple[tuple[int, int], SpinTotals]:
        """The (task, totals) of a checkpoint record, checked against this plan.

        Raises
        ------
        ValueError
            As :meth:`TaskPlan.validate`: another set, an unknown task, a wrong
            combination count, shape, a histogram that does not add up, or a checksum mismatch.
        """
        task, want, tj = record_header(rec, self.key, frozenset(self.tasks), self.per_stop)
        hists = [(tj.get("trigger"), self.max_trigger), (tj.get("keys"), self.max_key)]
        scat = tj.get("scatters")
        if not (isinstance(scat, list) and len(scat) == len(self.max_scatters)):
            raise ValueError("wrong shape")
        hists += list(zip(scat, self.max_scatters))
        amounts = [tj.get(k) for k in ("pay", "ways", "scatter", "collect")]
        lines, line_hits = tj.get("lines"), tj.get("line_hits")
        if not (isinstance(lines, list) and len(lines) == self.paylines and is_int_table([line_hits], 1, self.paylines)
                and all(0 <= h <= want for h in line_hits)):
            raise ValueError("wrong shape")
        amounts += lines
        if not (all(is_int_table([h], 1, m + 1) for h, m in hists) and all(isinstance(a, str) and a.isdigit()
                                                                          for a in amounts)
                and type(tj.get("hits")) is int and 0 <= tj["hits"] <= want):
            raise ValueError("wrong shape")
        if any(sum(h) != want for h, _ in hists):
            raise ValueError("a count histogram does not add up to the combination count")
        return task, SpinTotals.from_json(tj)


def _grid(stops: Sequence[np.ndarray]) -> np.ndarray:
    """Every combination of the per-reel stop arrays, row-major: shape (prod sizes, reels), int64."""
    mesh = np.meshgrid(*stops, indexing="ij")
    return np.stack([m.ravel() for m in mesh], axis=1).astype(np.int64)


def generic_task_totals(ev: WindowEvaluator, task: tuple[int, int] | int, chunk: int = GENERIC_CHUNK) -> SpinTotals:
    """Exact totals of the generic path over every combination whose reel-1 stop is in ``range(*task)``.

    Every combination's window is evaluated literally by ``ev`` (exact
    conditional means over FISH values, drawn WILD multipliers and the
    combination value) in blocks of at most ``chunk`` combinations; each
    block's sums are int64 (``chunk`` <= :data:`exact.windows.SUM_HEADROOM`)
    and are added as Python integers.
    """
    first, last = (task, task + 1) if isinstance(task, int) else task
    if chunk > SUM_HEADROOM:
        raise ValueError(f"chunk {chunk} above the evaluator's exact-sum headroom {SUM_HEADROOM}")
    max_key, max_sc, max_trig = ev.max_counts()
    plan = block_plan(ev.lengths, chunk)
    n = pay = ways = scatter = collect = hits = 0
    paylines = payline_count(ev.model)
    lines = [0] * paylines
    line_hits = np.zeros(paylines, dtype=np.int64)
    trig = np.zeros(max_trig + 1, dtype=np.int64)
    keys = np.zeros(max_key + 1, dtype=np.int64)
    scat = [np.zeros(m + 1, dtype=np.int64) for m in max_sc]
    for s0 in range(first, last):
        for stops in stop_blocks(ev.lengths, plan, s0):
            out = ev.evaluate(_grid(stops))
            n += out.pay.size
            pay += int(out.pay.sum(dtype=np.int64))
            ways += int(out.ways_pay.sum(dtype=np.int64))
            scatter += int(out.scatter_pay.sum(dtype=np.int64))
            collect += int(out.collect.sum(dtype=np.int64))
            hits += int(np.count_nonzero(out.hit))
            trig += np.bincount(out.trigger_count, minlength=max_trig + 1)
            keys += np.bincount(out.keys, minlength=max_key + 1)
            for h, name in zip(scat, ev.scatter_names):
                h += np.bincount(out.scatter_counts[name], minlength=len(h))
            if paylines:
                lines = [a + int(b) for a, b in zip(lines, out.line_pays.sum(axis=0, dtype=np.int64))]
                line_hits += out.line_hits.sum(axis=0)
    return SpinTotals(n, pay, ways, scatter, collect, hits, tuple(int(x) for x in trig), tuple(int(x) for x in keys),
                      tuple(tuple(int(x) for x in h) for h in scat), tuple(lines), tuple(int(x) for x in line_hits))


def _run_generic_task(shared: tuple[WindowEvaluator, int], task: tuple[int, int]) -> SpinTotals:
    """One task of the generic path on a worker."""
    ev, chunk = shared
    return generic_task_totals(ev, task, chunk)


@dataclass(frozen=True)
class SpinEnumeration:
    """Exact per-spin figures of one phase from the generic path (every rule of the literal evaluator).

    Figures include the phase's level multiplier; ``totals`` are before it.
    Attributes as :class:`Enumeration` where they share a name; ``scatter_names``
    and ``trigger_name`` label the histograms; ``zero_fish``: a FISH value of 0
    on the strips (the hit count then means "wins for every draw").
    """

    phase: Phase
    totals: SpinTotals
    denominator: int
    multiplier: int
    complete: bool
    scatter_names: tuple[str, ...]
    trigger_name: str | None
    seconds: float = 0.0
    reused_tasks: int = 0
    computed_tasks: int = 0
    bad_records: tuple[str, ...] = ()
    where: str = ""
    zero_fish: bool = False
    path: str = "generic"

    @property
    def combinations(self) -> int:
        return self.totals.combinations

    def _mean(self, amount: int) -> Fraction:
        return Fraction(self.multiplier * amount, self.denominator * self.combinations)

    @property
    def mean(self) -> Fraction:
        """E[spin win], credits per spin."""
        return self._mean(self.totals.pay)

    @property
    def pays_mean(self) -> Fraction:
        """E[multiplier x ways or line pays], credits per spin."""
        return self._mean(self.totals.ways)

    @property
    def scatter_mean(self) -> Fraction:
        """E[multiplier x scatter pays], credits per spin."""
        return self._mean(self.totals.scatter)

    @property
    def collect_mean(self) -> Fraction:
        """E[multiplier x collect], credits per spin."""
        return self._mean(self.totals.collect)

    @property
    def hit_frequency(self) -> Fraction:
        """P(win > 0) (for every draw: see ``zero_fish``)."""
        return Fraction(self.totals.hits, self.combinations)

    def prob(self, hist: Sequence[int]) -> tuple[Fraction, ...]:
        """A count histogram as probabilities."""
        return tuple(Fraction(h, self.combinations) for h in hist)

    def scatter_prob(self, name: str) -> tuple[Fraction, ...]:
        """P(count of scatter symbol ``name`` = n), n = 0 .. max."""
        return self.prob(self.totals.scatters[self.scatter_names.index(name)])

    @property
    def line_means(self) -> tuple[Fraction, ...]:
        """Line games: E[multiplier x win of payline i] at index i - 1, credits per spin."""
        return tuple(self._mean(x) for x in self.totals.lines)

    @property
    def line_hits(self) -> tuple[Fraction, ...]:
        """Line games: P(payline i pays) at index i - 1."""
        return self.prob(self.totals.line_hits)


def enumerate_generic(ms: MathSet, phase: Phase, *, first_stops: Iterable[int] | None = None,
                      cluster: Cluster | None = None, checkpoint_dir: str | Path | None = None,
                      progress: bool = False, chunk: int = GENERIC_CHUNK,
                      task_stops: int | None = None) -> SpinEnumeration:
    """Enumerate every stop combination of ``phase`` through :class:`exact.windows.WindowEvaluator`.

    Parameters and tasks as :func:`enumerate_phase` (ranges of reel-1 stops,
    checkpoint records keyed by the content hash, exact integer totals merged
    in task order: identical for any worker count and task size).

    Raises
    ------
    ValueError
        As :func:`enumerate_phase`, or an amount too large for the evaluator's
        int64 arithmetic (the message names the rule).
    """
    cluster = cluster or Cluster()
    ev = WindowEvaluator(ms, phase)
    max_key, max_sc, max_trig = ev.max_counts()
    lengths = ev.lengths
    if len(lengths) < 2:
        raise ValueError("enumeration needs 2 or more reels")
    wanted, per_stop, task_stops = stop_slice(lengths, first_stops, task_stops, GENERIC_TASK_COMBINATIONS)
    paylines = payline_count(ms.model)
    plan = GenericPlan(set_hash(ms, phase, "generic"), tuple(task_ranges(wanted, task_stops)), per_stop,
                       max_key, max_sc, max_trig, paylines)
    run = run_plan(plan, SpinTotals.zero(max_key, max_sc, max_trig, paylines), _run_generic_task, (ev, chunk),
                   cluster=cluster, checkpoint_dir=checkpoint_dir, progress=progress, desc=f"enumerate {phase.name}",
                   small_run=GENERIC_SMALL_RUN, protected=set_inputs(ms))
    trig = ms.model.trigger_symbol
    return SpinEnumeration(phase=phase, totals=run.totals, denominator=ev.denominator, multiplier=phase.multiplier,
                           complete=len(wanted) == lengths[0], scatter_names=ev.scatter_names,
                           trigger_name=trig.name if trig is not None else None, seconds=run.seconds,
                           reused_tasks=run.reused, computed_tasks=run.computed, bad_records=run.bad,
                           where=run.where, zero_fish=ev.zero_fish)


#: Combinations of one generic task by default (the generic path evaluates about 10^6 windows/s per core).
GENERIC_TASK_COMBINATIONS = 1 << 20
#: Generic runs below this many combinations stay in process by default.
GENERIC_SMALL_RUN = 1 << 26
