"""Checkpoints you can trust: the store of finished enumeration tasks.

Each finished task's exact totals are appended to a checkpoint file keyed
by the content hash of the math set and phase (:func:`set_hash`), one JSON
record a line with its checksum (:func:`record_checksum`); a lock file
keeps two runs from writing one checkpoint, and a record that does not
match the plan (:class:`TaskPlan`) is reported and recomputed.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Sequence

from strips.model import MathSet, Phase
from proofs.enumerate_kernel import Totals


#: Bump when the enumeration's semantics or checkpoint format change: old checkpoints are then ignored.
ENUMERATOR_VERSION = 2


# --------------------------------------------------------------------------
# checkpoints you can trust, and the run on Dask
# --------------------------------------------------------------------------
def set_hash(ms: MathSet, phase: Phase, path: str = "") -> str:
    """Content hash of what the enumeration of ``phase`` depends on: hex sha256.

    Covers the raw bytes of every source file of the set (game file and strip
    files), the phase and :data:`ENUMERATOR_VERSION`, so a checkpoint of a
    changed set is never reused.
    """
    h = hashlib.sha256()
    h.update(f"enumerate v{ENUMERATOR_VERSION} phase={phase.name} strips={phase.strips} "
             f"weights={phase.weights} x{phase.multiplier}\n".encode())
    if path:   # another path's totals (the generic path): never mixed with the fast path's records
        h.update(f"path={path}\n".encode())
    for name in sorted(ms.sources):
        data = ms.sources[name]
        h.update(f"{name} {len(data)}\n".encode())
        h.update(data)
    # the parsed strips too: a set built in memory has no sources
    strips = ms.phase_strips(phase)
    h.update(json.dumps([list(r) for r in strips.reels]).encode())
    return h.hexdigest()


def default_checkpoint_dir() -> Path:
    """``$XDG_CACHE_HOME/slot-exact/enumerate`` (default ``~/.cache/slot-exact/enumerate``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "slot-exact" / "enumerate"


#: Name of the lock file in a checkpoint directory (held while a run uses the directory).
LOCK_FILE = "enumerate.lock"


def record_checksum(key: str, task: Sequence[int], totals_json: dict) -> str:
    """sha256 of a checkpoint record's content (set key, task, totals), canonical JSON.

    >>> len(record_checksum("k", (0, 1), {"combinations": 1}))
    64
    """
    body = json.dumps({"key": key, "task": list(task), "totals": totals_json}, sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def checkpoint_record(key: str, task: tuple[int, int], totals: Totals) -> str:
    """One line of the checkpoint file: the task, its combination count, totals and checksum."""
    tj = totals.to_json()
    return json.dumps({"v": ENUMERATOR_VERSION, "key": key, "task": list(task),
                       "combinations": totals.combinations, "totals": tj,
                       "sha256": record_checksum(key, task, tj)}) + "\n"


@dataclass(frozen=True)
class TaskPlan:
    """What a run must compute: the tasks (ranges of reel-1 stops) and the shape of their totals."""

    key: str
    tasks: tuple[tuple[int, int], ...]
    per_stop: int
    n_pay: int
    reels: int
    max_fs: int
    max_key: int
    n_extra: int = 0

    def validate(self, rec) -> tuple[tuple[int, int], Totals]:
        """The (task, totals) of a checkpoint record, checked against this plan.

        Raises
        ------
        ValueError
            Naming what is wrong: not an object, another set's key, a task
            that is not one of the plan's, a combination count that is not
            the task's, a wrong shape, a negative or non-integer entry, a
            histogram that does not add up, or a checksum mismatch.
        """
        task, want, tj = record_header(rec, self.key, self._task_set, self.per_stop)
        ways, joint, collect = tj.get("ways"), tj.get("joint"), tj.get("collect")
        extra = tj.get("collect_extra", [])
        if not (is_int_table(ways, self.n_pay, self.reels) and is_int_table(joint, self.max_fs + 1, self.max_key + 1)
                and isinstance(collect, str) and collect.isdigit() and isinstance(extra, list)
                and len(extra) == self.n_extra and all(isinstance(x, str) and x.isdigit() for x in extra)):
            raise ValueError("wrong shape")
        if sum(map(sum, joint)) != want:
            raise ValueError("(FS, KEY) histogram does not add up to the combination count")
        return task, Totals.from_json(tj)

    @cached_property
    def _task_set(self) -> frozenset:
        return frozenset(self.tasks)


def record_header(rec, key: str, tasks: frozenset, per_stop: int) -> tuple[tuple[int, int], int, dict]:
    """(task, its combinations, its totals' JSON) of a checkpoint record of run ``key``, checked.

    Raises
    ------
    ValueError
        Not an object, another set's key, a task not in ``tasks``, a
        combination count that is not the task's, or a checksum mismatch.

    >>> rec = {"key": "k", "task": [0, 2], "combinations": 6, "totals": {"combinations": 6}}
    >>> rec["sha256"] = record_checksum("k", (0, 2), rec["totals"])
    >>> record_header(rec, "k", frozenset({(0, 2)}), 3)
    ((0, 2), 6, {'combinations': 6})
    """
    if not isinstance(rec, dict):
        raise ValueError("not a JSON object")
    if rec.get("key") != key:
        raise ValueError("a record of another math set or enumerator version")
    task = rec.get("task")
    if not (isinstance(task, list) and len(task) == 2 and all(type(x) is int for x in task)):
        raise ValueError("no task range")
    task = (task[0], task[1])
    if task not in tasks:
        raise ValueError(f"task {list(task)} is not one of this run's tasks")
    want = (task[1] - task[0]) * per_stop
    tj = rec.get("totals")
    if rec.get("combinations") != want or not isinstance(tj, dict) or tj.get("combinations") != want:
        raise ValueError(f"combination count is not the task's {want}")
    if rec.get("sha256") != record_checksum(key, task, tj):
        raise ValueError("checksum mismatch")
    return task, want, tj


def is_int_table(x, rows: int, cols: int) -> bool:
    return (isinstance(x, list) and len(x) == rows and
            all(isinstance(r, list) and len(r) == cols and all(type(v) is int and v >= 0 for v in r) for r in x))


class CheckpointError(ValueError):
    """A checkpoint directory or file that cannot be used (in use, a symlink, not a regular file)."""


class Checkpoint:
    """The checkpoint file of one enumeration, locked for the run.

    ``<dir>/<set hash>.jsonl``: one JSON record per finished task
    (:func:`checkpoint_record`).  Opening takes the lock ``<dir>/enumerate.lock``
    (a second run on the directory is refused), refuses a checkpoint file that
    is a symbolic link or not a regular file, reads and validates every
    record against the plan, and makes the next record start on a new line.
    The lock is released by :meth:`close` or when the process dies.
    """

    def __init__(self, directory: str | Path, plan: TaskPlan) -> None:
        import fcntl
        self.directory = Path(directory)
        self.path = self.directory / f"{plan.key}.jsonl"
        self.plan = plan
        self.directory.mkdir(parents=True, exist_ok=True)
        lock_path = self.directory / LOCK_FILE
        try:
            self._lock = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OSError as e:
            raise CheckpointError(f"cannot open the lock file {lock_path}: {e.strerror}") from None
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self._lock)
            raise CheckpointError(f"checkpoint directory {self.directory} is in use by another run "
                                  f"(lock file {lock_path}); wait for it or give another --checkpoint-dir") from None
        try:
            self.done, self.bad = self._read()
            self._out = self._open_append()
        except BaseException:
            os.close(self._lock)
            raise

    def _open(self, flags: int) -> int:
        try:
            fd = os.open(self.path, flags | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise CheckpointError(f"checkpoint file {self.path} is a symbolic link: refusing to use it") from None
            raise
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise CheckpointError(f"checkpoint file {self.path} is not a regular file: refusing to use it")
        return fd

    def _read(self) -> tuple[dict, list[str]]:
        done: dict[tuple[int, int], Totals] = {}
        bad: list[str] = []
        try:
            fd = self._open(os.O_RDONLY)
        except FileNotFoundError:
            return done, bad
        with os.fdopen(fd, "rb") as f:
            data = f.read()
        conflicted = set()
        for number, raw in enumerate(data.split(b"\n"), start=1):
            if not raw.strip():
                continue
            try:
                task, tot = self.plan.validate(json.loads(raw.decode("utf-8")))
            except (ValueError, UnicodeDecodeError, RecursionError) as e:
                reason = "not JSON (a torn or damaged line)" if isinstance(e, (json.JSONDecodeError,
                                                                               UnicodeDecodeError)) else str(e)
                bad.append(f"line {number}: {reason}")
                continue
            if task in done and done[task] != tot:
                bad.append(f"line {number}: task {list(task)} recorded twice with different totals")
                conflicted.add(task)
            done.setdefault(task, tot)
        for task in conflicted:  # neither record is trusted
            del done[task]
        return done, bad

    def _open_append(self):
        fd = self._open(os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        f = os.fdopen(fd, "a", encoding="utf-8")
        size = os.fstat(fd).st_size
        if size:
            with open(self.path, "rb") as r:
                r.seek(size - 1)
                if r.read(1) != b"\n":
                    f.write("\n")  # a torn last line stays alone on its line
                    f.flush()
        return f

    def append(self, task: tuple[int, int], totals: Totals) -> None:
        """Append one finished task (flushed: a killed run keeps it).

        Raises
        ------
        CheckpointError
            If the write fails (disk full, ...), naming the file.
        """
        try:
            self._out.write(checkpoint_record(self.plan.key, task, totals))
            self._out.flush()
        except OSError as e:
            raise CheckpointError(f"cannot write the checkpoint file {self.path}: {e.strerror}") from None

    def close(self) -> None:
        """Close the file and release the lock."""
        try:
            self._out.close()
        finally:
            os.close(self._lock)
