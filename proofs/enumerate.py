"""Exhaustive enumeration of every stop combination of one phase of a math set.

This is the test lab's proof by enumeration: each of the
``L1 x L2 x ... x LR`` stop combinations (10^10 for the rules-page base game)
is evaluated and its result added to exact integer totals.  It is written
independently of the factorised engine (:mod:`exact.engine`): it only reads
the windows off the reel strips and applies the rules page's semantics.

What is precomputed per reel and stop (a lookup of one reel's window, the
same facts the evaluator reads off that window column):

* ``counts[r][s, k]`` rows of the window of reel ``r`` at stop ``s`` showing
  pay symbol ``k`` or a WILD (blockers never count; section 6);
* ``keys[r][s]``, ``scatters[r][s]`` KEY and FS symbols in that column
  (sections 8 and 10);
* ``fish[r][s]`` the sum of the exact mean values of the FISH symbols in that
  column, as an integer numerator over the common denominator ``D`` (the
  least common multiple of the weight totals of the phase's tables, section 7).

Everything that depends on the combination is evaluated per combination, in
numpy blocks of up to :data:`CHUNK` combinations:

* ways pays (section 6): for each pay symbol the combination is extended
  reel by reel; combinations whose combination has ended are dropped (the
  evaluator's ``break``); the pay of OAK ``n`` is ``P_n x ways`` for each
  combination whose reel ``n + 1`` shows no such symbol (or ``n`` = reels),
  and this value is added once for every completion of the remaining reels
  (a broadcast array summed element by element, never multiplied out);
* collect (section 8): ``(sum of KEY) x (sum of FISH means)`` per combination;
* the joint histogram of (FS count, KEY count) per combination.

No product-of-sums factorisation is used anywhere: every total is a sum of an
array holding one entry per combination (or per combination of a prefix and
every completion of it).  The work is split over reel-1 stops, one task per
stop, run on a process pool; each finished task is appended to a checkpoint
file keyed by the content hash of the math set, so an interrupted run resumes.

Source: rules page sections 3 (window), 6 (ways), 7 (fish values), 8
(collect), 9 (win of a spin) and 10 (FS count).

Modules: :mod:`proofs.enumerate_tables` (the per-window tables),
:mod:`proofs.enumerate_kernel` (the block evaluator and its exact totals),
:mod:`proofs.enumerate_checkpoint` (the checkpoint store),
:mod:`proofs.enumerate_plan` (the tasks and their run on Dask),
:mod:`proofs.enumerate_generic` (the generic path on :mod:`exact.windows`);
this module holds the result (:class:`Enumeration`, :func:`compare`) and
:func:`enumerate_phase`, and re-exports their public names.
"""
from __future__ import annotations

import dataclasses
import itertools
import operator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Sequence

from markov.moments import COLLECT, PAYS
from strips.model import MathSet, Phase
from strips.protect import set_inputs
from proofs.dask_runner import Cluster
from proofs.enumerate_plan import SMALL_RUN, TASK_COMBINATIONS, run_plan, stop_slice, task_ranges
from proofs.enumerate_checkpoint import (Checkpoint, CheckpointError, LOCK_FILE, TaskPlan, checkpoint_record,
                                         default_checkpoint_dir, record_checksum, set_hash)
from proofs.enumerate_tables import fish_weight_table, window_tables
from proofs.enumerate_kernel import CHUNK, Totals, block_plan, run_task, safe_chunk, window_max_counts
from proofs.enumerate_generic import GENERIC_CHUNK, SpinEnumeration, enumerate_generic, fast_path_takes


# --------------------------------------------------------------------------
# result
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Enumeration:
    """Exact figures of one phase from the enumeration of its stop combinations.

    All figures are per spin of the phase, including the level multiplier.

    Attributes
    ----------
    phase : Phase
    totals : Totals
        Integer totals (ways pays before the multiplier).
    pay_names : tuple of str
    denominator : int
        Common denominator of the fish means.
    multiplier : int
    complete : bool
        True when every combination was evaluated (not a slice).
    seconds : float
        Wall time of this run (run-dependent, for display only).
    scatter_pays : tuple of int
        Scatter pay by FS count, credits.
    ways_scale : tuple of int, length reels
        ``ways_scale[n - 1]``: the integer scale of the ways totals of OAK
        ``n`` (the product of the first ``n`` reels' WILD-multiplier scales;
        all 1 without drawn WILD multipliers).
    reused_tasks, computed_tasks : int
        Tasks taken from valid checkpoint records, and computed in this run.
    bad_records : tuple of str
        Checkpoint records found invalid (and redone), ``"line N: reason"``.
    where : str
        Where the tasks ran (:meth:`proofs.dask_runner.Cluster.describe`).
    """

    phase: Phase
    totals: Totals
    pay_names: tuple[str, ...]
    denominator: int
    multiplier: int
    complete: bool
    seconds: float = 0.0
    scatter_pays: tuple[int, ...] = ()
    ways_scale: tuple[int, ...] = ()
    reused_tasks: int = 0
    computed_tasks: int = 0
    bad_records: tuple[str, ...] = ()
    where: str = ""
    extra: tuple[tuple[Phase, int], ...] = ()

    @property
    def combinations(self) -> int:
        """Number of stop combinations summed."""
        return self.totals.combinations

    def level(self, phase: Phase) -> "Enumeration":
        """The enumeration of ``phase``: this one's own, or one of its extra phases (its collect, FISH
        denominator and multiplier; everything else is shared: same strips and ways tables).

        Raises
        ------
        KeyError
            If ``phase`` is neither this enumeration's phase nor one of its extra phases.
        """
        if phase == self.phase:
            return self
        for i, (p, d) in enumerate(self.extra):
            if p == phase:
                return dataclasses.replace(self, phase=p, multiplier=p.multiplier, denominator=d, extra=(),
                                           totals=dataclasses.replace(self.totals, collect=self.totals.collect_extra[i]))
        raise KeyError(phase.name)

    def ways_by_symbol(self) -> dict[str, tuple[Fraction, ...]]:
        """Symbol -> E[multiplier x ways pay with OAK n] at index n-1, credits per spin."""
        n = self.combinations
        scale = self.ways_scale or (1,) * len(self.totals.ways[0] if self.totals.ways else ())
        return {s: tuple(Fraction(self.multiplier * v, n * sc) for v, sc in zip(row, scale))
                for s, row in zip(self.pay_names, self.totals.ways)}

    @property
    def pays_mean(self) -> Fraction:
        """E[multiplier x ways pays], credits per spin (``PhaseAnalysis.parts["pays"]``)."""
        return sum((sum(row, Fraction(0)) for row in self.ways_by_symbol().values()), Fraction(0))

    @property
    def collect_mean(self) -> Fraction:
        """E[multiplier x collect win], credits per spin (fish values at their exact means)."""
        return Fraction(self.multiplier * self.totals.collect, self.denominator * self.combinations)

    @property
    def scatter_mean(self) -> Fraction:
        """E[multiplier x scatter pay], credits per spin: each combination's pay for its FS count
        (combinations grouped by FS count); 0 in the rules-page game."""
        total = sum(sum(row) * pay for row, pay in zip(self.totals.joint, self.scatter_pays))
        return Fraction(self.multiplier * total, self.combinations)

    @property
    def mean(self) -> Fraction:
        """E[spin win], credits per spin."""
        return self.pays_mean + self.collect_mean + self.scatter_mean

    @property
    def scatter_prob(self) -> tuple[Fraction, ...]:
        """P(FS count = n), n = 0 .. max."""
        return tuple(Fraction(sum(row), self.combinations) for row in self.totals.joint)

    @property
    def key_prob(self) -> tuple[Fraction, ...]:
        """P(KEY count = n), n = 0 .. max."""
        cols = zip(*self.totals.joint)
        return tuple(Fraction(sum(c), self.combinations) for c in cols)


@dataclass(frozen=True)
class Comparison:
    """One figure computed two ways: ``enumerated`` and ``engine``, exact Fractions."""

    figure: str
    enumerated: Fraction
    engine: Fraction

    @property
    def equal(self) -> bool:
        """Exact equality of the two Fractions."""
        return self.enumerated == self.engine


def _padded(xs: Sequence[Fraction], n: int) -> list[Fraction]:
    return list(xs) + [Fraction(0)] * (n - len(xs))


def compare(e: Enumeration, analysis) -> list[Comparison]:
    """Each enumerated figure beside the factorised engine's (a PhaseAnalysis), exact.

    Figures: ways pays per symbol and OAK, ways mean, collect mean, mean spin
    win, P(FS = n) and P(KEY = n) for every n.
    """
    out = []
    for sym, row in e.ways_by_symbol().items():
        eng = analysis.ways_by_symbol[sym]
        for i, v in enumerate(row):
            out.append(Comparison(f"ways {sym} {i + 1} OAK", v, eng[i]))
    out.append(Comparison("ways pays", e.pays_mean, analysis.parts[PAYS]))
    out.append(Comparison("collect", e.collect_mean, analysis.parts[COLLECT]))
    out.append(Comparison("spin win", e.mean, analysis.mean))
    for name, mine, theirs in (("FS", e.scatter_prob, analysis.by_scatter.prob),
                               ("KEY", e.key_prob, analysis.by_key.prob)):
        n = max(len(mine), len(theirs))
        for i, (a, b) in enumerate(zip(_padded(mine, n), _padded(theirs, n))):
            out.append(Comparison(f"P({name} = {i})", a, b))
    return out


def enumerate_phase(ms: MathSet, phase: Phase | None = None, *, first_stops: Iterable[int] | None = None,
                    workers: int | None = None, cluster: Cluster | None = None,
                    checkpoint_dir: str | Path | None = None, progress: bool = False, chunk: int | None = None,
                    task_stops: int | None = None, generic: bool | None = None,
                    extra_phases: Sequence[Phase] = ()) -> "Enumeration | SpinEnumeration":
    """Enumerate every stop combination of ``phase`` (default: the base game).

    A game the fast path takes (:func:`fast_path_takes`) is enumerated by it
    (:class:`Enumeration`, per-symbol ways totals); every other game, or any
    game with ``generic=True``, by the generic path on
    :class:`exact.windows.WindowEvaluator` (:func:`enumerate_generic`,
    :class:`SpinEnumeration`).

    Parameters
    ----------
    ms : MathSet
    phase : Phase, optional
        Default ``ms.model.base_phase``.
    first_stops : iterable of int, optional
        Only these reel-1 stops (a slice, for benchmarks); default all.
    workers : int, optional
        Shorthand for ``Cluster(workers=workers)`` when ``cluster`` is None.
    cluster : Cluster, optional
        Where the tasks run (:class:`proofs.dask_runner.Cluster`); default: a
        local Dask cluster of one process per core, in process for small runs.
    checkpoint_dir : str or Path, optional
        Directory of the checkpoint file ``<set hash>.jsonl`` (see
        :class:`Checkpoint`); each finished task is appended with its
        checksum, and a rerun reuses the valid records and redoes the rest.
        None: no checkpoint.  Never place it next to input files.
    progress : bool
        Show a tqdm progress bar with ETA on stderr.
    chunk : int, optional
        Combinations per numpy block (memory bound); default :data:`CHUNK`
        (:data:`GENERIC_CHUNK` on the generic path).
    task_stops : int, optional
        Reel-1 stops per task; default: enough for :data:`TASK_COMBINATIONS`
        (depends on the set only, so a resumed run has the same tasks).
    generic : bool, optional
        True: the generic path whatever the game; None: by :func:`fast_path_takes`.
    extra_phases : sequence of Phase
        Fast path: phases on the same strips that differ from ``phase`` only
        in their FISH tables (free-spin levels); their collect is summed in
        the same pass (:meth:`Enumeration.level`).

    Returns
    -------
    Enumeration
        Exact totals, the same for any cluster, worker count and task size;
        ``complete`` is False for a slice; ``reused_tasks``,
        ``computed_tasks``, ``bad_records`` and ``seconds`` describe this run.

    Raises
    ------
    ValueError
        If a reel-1 stop is out of range, amounts could overflow int64, the
        checkpoint cannot be used (:class:`CheckpointError`) or the
        scheduler cannot be reached.
    """
    phase = phase or ms.model.base_phase
    cluster = cluster or Cluster(workers=workers)
    if generic or (generic is None and not fast_path_takes(ms)):
        if extra_phases:
            raise ValueError("extra phases are summed by the fast path only")
        return enumerate_generic(ms, phase, first_stops=first_stops, cluster=cluster, checkpoint_dir=checkpoint_dir,
                                 progress=progress, chunk=chunk or GENERIC_CHUNK, task_stops=task_stops)
    chunk = chunk or CHUNK
    t = window_tables(ms, phase, extra_phases)
    chunk = safe_chunk(t, chunk)   # int64 block sums proven safe from the maxima, else smaller blocks
    plan = block_plan(t.lengths, chunk)
    wanted, per_stop, task_stops = stop_slice(t.lengths, first_stops, task_stops, TASK_COMBINATIONS)
    max_fs, max_key = window_max_counts(t)
    levels = "".join(f" +{p.name}/{p.weights}" for p in extra_phases)
    tp = TaskPlan(set_hash(ms, phase, "fast" + levels if levels else ""), tuple(task_ranges(wanted, task_stops)),
                  per_stop, len(t.pay_names), t.reels, max_fs, max_key, len(extra_phases))
    run = run_plan(tp, Totals.zero(len(t.pay_names), t.reels, max_fs, max_key, len(extra_phases)), run_task,
                   (t, plan), cluster=cluster, checkpoint_dir=checkpoint_dir, progress=progress,
                   desc=f"enumerate {phase.name}", small_run=SMALL_RUN,
                   protected=set_inputs(ms))
    return Enumeration(phase=phase, totals=run.totals, pay_names=t.pay_names, denominator=t.denominator,
                       multiplier=t.multiplier, complete=len(wanted) == t.lengths[0],
                       seconds=run.seconds, scatter_pays=t.scatter_pays,
                       ways_scale=tuple(itertools.accumulate(t.ways_scale, operator.mul)),
                       reused_tasks=run.reused, computed_tasks=run.computed, bad_records=run.bad, where=run.where,
                       extra=tuple(zip(extra_phases, t.extra_denominators)))

#: This module's names and those of its split modules importable from here.
__all__ = ['Checkpoint', 'CheckpointError', 'Comparison', 'Enumeration', 'LOCK_FILE', 'TaskPlan', 'Totals',
           'block_plan', 'checkpoint_record', 'compare', 'default_checkpoint_dir', 'enumerate_phase',
           'fast_path_takes', 'fish_weight_table', 'record_checksum', 'set_hash', 'window_tables']
