"""The plan of a long enumeration: its tasks (ranges of reel-1 stops) and their run on Dask.

:func:`task_ranges` cuts the wanted reel-1 stops into tasks aligned to
multiples of the task size (so a slice's tasks are the whole run's and a
resumed run finds them); :func:`run_plan` runs the tasks the checkpoint does
not hold on :func:`proofs.dask_runner.run_tasks`, appends each finished
task to the checkpoint and merges the totals exactly.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Sequence

from proofs.dask_runner import Cluster, progress_bar, run_tasks
from strips.protect import Protected
from proofs.enumerate_checkpoint import Checkpoint, record_bytes


#: Combinations of one task by default (whole reel-1 stops, at least this many; deterministic per set).
TASK_COMBINATIONS = 1 << 24
#: Runs below this many combinations stay in process by default (a local cluster takes seconds to start).
SMALL_RUN = 4 * 10 ** 8


def task_ranges(first_stops: Sequence[int], task_stops: int) -> list[tuple[int, int]]:
    """The tasks of a run: reel-1 stops in ranges aligned to multiples of ``task_stops``.

    Task ``i`` is ``[i x task_stops, (i + 1) x task_stops)``, cut to the
    stops wanted (a slice), so a slice's tasks are the whole run's wherever
    it covers them and a resumed run finds its tasks in the checkpoint.

    >>> task_ranges([0, 1, 2, 3, 7, 8], 3)
    [(0, 3), (3, 4), (7, 9)]
    """
    out: list[tuple[int, int]] = []
    for s in sorted(first_stops):
        if out and out[-1][1] == s and s // task_stops == out[-1][0] // task_stops:
            out[-1] = (out[-1][0], s + 1)
        else:
            out.append((s, s + 1))
    return out


def stop_slice(lengths: Sequence[int], first_stops, task_stops: int | None, task_combinations: int):
    """(reel-1 stops wanted, combinations per reel-1 stop, reel-1 stops per task) of a run.

    Raises
    ------
    ValueError
        A reel-1 stop outside the strip.
    """
    wanted = list(range(lengths[0])) if first_stops is None else sorted(set(first_stops))
    for s in wanted:
        if not 0 <= s < lengths[0]:
            raise ValueError(f"reel-1 stop {s} outside 0..{lengths[0] - 1}")
    per_stop = math.prod(lengths[1:])
    return wanted, per_stop, task_stops or max(1, -(-task_combinations // per_stop))


@dataclass(frozen=True)
class PlanRun:
    """The outcome of :func:`run_plan`: merged totals, tasks reused and computed, bad records, where, wall time."""

    totals: object
    reused: int
    computed: int
    bad: tuple[str, ...]
    where: str
    seconds: float


def run_plan(plan, zero, fn, shared, *, cluster: Cluster, checkpoint_dir, progress: bool, desc: str,
             small_run: int, protected: Protected | None = None) -> PlanRun:
    """Run the tasks of ``plan`` (a :class:`TaskPlan` or :class:`GenericPlan`) not found in the checkpoint.

    Each task's totals (``fn(shared, task)``, on :func:`proofs.dask_runner.run_tasks`) are checked to hold
    the task's combinations, appended to the checkpoint as they finish, and merged into ``zero`` in task
    order (exact integers: the same totals for any worker count, task size or completion order).  Runs
    below ``small_run`` combinations stay in process in the cluster's ``auto`` mode.  The checkpoint file is
never one of ``protected`` (the set's input files, :func:`strips.protect.set_inputs`) nor a link to one.

    Raises
    ------
    CheckpointError
        As :class:`Checkpoint`.
    AssertionError
        A task that returned another number of combinations than its own.
    """
    start = time.perf_counter()
    ckpt = (Checkpoint(checkpoint_dir, plan, protected, record_bytes(plan.key, zero))
            if checkpoint_dir is not None else None)
    per_stop = plan.per_stop
    total = sum(b - a for a, b in plan.tasks) * per_stop
    try:
        done = {} if ckpt is None else {task: v for task, v in ckpt.done.items() if task in set(plan.tasks)}
        pending = [task for task in plan.tasks if task not in done]
        results = dict(done)
        todo = sum(b - a for a, b in pending) * per_stop
        bar = progress_bar(total, total - todo, "combo", desc, progress)
        try:
            for task, tot in run_tasks(cluster, fn, shared, pending, small=todo < small_run):
                if tot.combinations != (task[1] - task[0]) * per_stop:
                    raise AssertionError(f"task {task} returned {tot.combinations} combinations")
                results[task] = tot
                if ckpt is not None:
                    ckpt.append(task, tot)
                if bar is not None:
                    bar.update(tot.combinations)
        finally:
            if bar is not None:
                bar.close()
    finally:
        if ckpt is not None:
            ckpt.close()
    acc = zero
    for task in plan.tasks:  # merged in task order (integers: any order gives the same totals)
        acc = acc + results[task]
    return PlanRun(acc, len(done), len(pending), tuple(ckpt.bad) if ckpt is not None else (),
                   cluster.describe(small=todo < small_run) if pending else "nothing to compute",
                   time.perf_counter() - start)
