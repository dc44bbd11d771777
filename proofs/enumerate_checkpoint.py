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

from strips.errors import UsageError
from strips.model import MathSet, Phase
from strips.protect import Protected, refuse_target
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


#: Most digits of a number in a checkpoint record (an exact total: combinations up to 10^11 times amounts
#: below 2^63 have at most 31); a longer one is a damaged record, refused before Python converts it.
RECORD_DIGITS = 60


def record_int(text: str) -> int:
    """A JSON integer of a checkpoint record, at most :data:`RECORD_DIGITS` digits.

    >>> record_int("12")
    12
    >>> record_int("9" * 5000)
    Traceback (most recent call last):
    ...
    ValueError: an integer of 5,000 digits (a record's numbers have at most 60)
    """
    if len(text.lstrip("-")) > RECORD_DIGITS:
        raise ValueError(f"an integer of {len(text.lstrip('-')):,} digits (a record's numbers have at most "
                         f"{RECORD_DIGITS})")
    return int(text)


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
                and isinstance(collect, str) and collect.isdigit() and len(collect) <= RECORD_DIGITS
                and isinstance(extra, list) and len(extra) == self.n_extra
                and all(isinstance(x, str) and x.isdigit() and len(x) <= RECORD_DIGITS for x in extra)):
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
    """A checkpoint directory or file that cannot be used (in use, a link, an input of a set, not a regular file)."""


#: Longest checkpoint line read by default (bytes); a longer line is reported as bad and skipped, never read whole.
MAX_LINE_BYTES = 1 << 20


def record_bytes(key: str, zero) -> int:
    """The longest checkpoint line a run can write: 64 bytes per character of the record of ``zero`` totals.

    Every number of a record is an exact total of at most a few dozen digits, written where the zero record
    has one character; a line longer than this is not one of the run's records.

    >>> from proofs.enumerate_kernel import Totals
    >>> 10_000 < record_bytes("k", Totals(0, ((0,),), 0, ((0,),))) < 100_000
    True
    """
    return 64 * len(checkpoint_record(key, (0, 0), zero)) + 4096


class Checkpoint:
    """The checkpoint file of one enumeration, locked for the run.

    ``<dir>/<set hash>.jsonl``: one JSON record per finished task
    (:func:`checkpoint_record`).  Opening takes the lock ``<dir>/enumerate.lock``
    (a second run on the directory is refused) and opens the checkpoint file
    once, for reading and appending, through the guard of every writer
    (:func:`strips.protect.refuse_target`): a lock or checkpoint file that
    is an input file of the set or a hard link to one, or a symbolic link,
    or not a regular file, or a file with more than one name (a hard link to
    anything) is refused before a byte is written; the file is opened with
    ``O_NOFOLLOW`` and its inode checked after opening, so a file swapped in
    between the check and the open is refused too.  Every record is read
    with a bounded line length (``line_bytes``), validated against the plan,
    and the next record starts on a new line.  The lock is released by
    :meth:`close` or when the process dies.  Nothing else is created in the
    directory (no temporary file).

    Raises
    ------
    CheckpointError
        Naming the file: in use, a link, an input file, not a regular file,
        cannot be opened or written (disk full, permissions).
    """

    def __init__(self, directory: str | Path, plan, protected: Protected | None = None,
                 line_bytes: int = MAX_LINE_BYTES) -> None:
        import fcntl
        self.directory = Path(directory)
        self.path = self.directory / f"{plan.key}.jsonl"
        self.plan = plan
        self.protected = protected if protected is not None else Protected()
        self.line_bytes = line_bytes
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CheckpointError(f"cannot create the checkpoint directory {self.directory}: {e.strerror}") from None
        lock_path = self.directory / LOCK_FILE
        self._lock = self._open(lock_path, os.O_RDWR | os.O_CREAT, "lock file")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self._lock)
            raise CheckpointError(f"checkpoint directory {self.directory} is in use by another run "
                                  f"(lock file {lock_path}); wait for it or give another --checkpoint-dir") from None
        self._fd = None
        try:
            self._fd = self._open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, "checkpoint file")
            self.done, self.bad = self._read()
            self._start_line()
        except BaseException:
            if self._fd is not None:
                os.close(self._fd)
            os.close(self._lock)
            raise

    def _open(self, path: Path, flags: int, what: str) -> int:
        """Open ``path`` through the writers' guard, without following a link; its inode checked after opening."""
        try:
            refuse_target(path, f"{what} {path}", self.protected, "file")
        except UsageError as e:
            raise CheckpointError(f"{e}") from None
        try:
            before = os.lstat(path)
        except FileNotFoundError:
            before = None
        except OSError as e:
            raise CheckpointError(f"cannot use the {what} {path}: {e.strerror}") from None
        try:
            fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise CheckpointError(f"{what} {path} is a symbolic link: refusing to use it") from None
            raise CheckpointError(f"cannot open the {what} {path}: {e.strerror}") from None
        st = os.fstat(fd)
        reason = None
        if not stat.S_ISREG(st.st_mode):
            reason = "is not a regular file"
        elif (st.st_dev, st.st_ino) in self.protected.inodes:
            reason = "is an input file of the math set (the same file or a hard link to it)"
        elif st.st_nlink != 1:
            reason = f"has {st.st_nlink} names (a hard link; a {what} has one)"
        elif before is not None and (before.st_dev, before.st_ino) != (st.st_dev, st.st_ino):
            reason = "was replaced while it was being opened"
        if reason is not None:
            os.close(fd)
            raise CheckpointError(f"{what} {path} {reason}: refusing to use it")
        return fd

    def _lines(self):
        """(line number, bytes of the line or None when longer than ``line_bytes``) of the file, read in blocks."""
        number, buf, skipping, offset = 0, b"", False, 0
        while True:
            block = os.pread(self._fd, 1 << 16, offset)
            if not block:
                break
            offset += len(block)
            buf += block
            start, cut = 0, buf.find(b"\n", len(buf) - len(block))
            while cut >= 0:
                number += 1
                yield number, (None if skipping or cut - start > self.line_bytes else buf[start:cut])
                skipping, start = False, cut + 1
                cut = buf.find(b"\n", start)
            buf = buf[start:]
            if len(buf) > self.line_bytes:   # a line longer than any record: skipped, never held whole
                buf, skipping = b"", True
        if buf or skipping:
            yield number + 1, (None if skipping else buf)

    def _read(self) -> tuple[dict, list[str]]:
        done: dict[tuple[int, int], Totals] = {}
        bad: list[str] = []
        conflicted = set()
        for number, raw in self._lines():
            if raw is None:
                bad.append(f"line {number}: longer than {self.line_bytes:,} bytes (not a record of this run)")
                continue
            if not raw.strip():
                continue
            try:
                task, tot = self.plan.validate(json.loads(raw.decode("utf-8"), parse_int=record_int))
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

    def _write(self, data: bytes) -> None:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view):]
        except OSError as e:
            raise CheckpointError(f"cannot write the checkpoint file {self.path}: "
                                  f"{'no space left on the device' if e.errno == errno.ENOSPC else e.strerror}"
                                  ) from None

    def _start_line(self) -> None:
        size = os.fstat(self._fd).st_size
        if size and os.pread(self._fd, 1, size - 1) != b"\n":
            self._write(b"\n")  # a torn last line stays alone on its line

    def append(self, task: tuple[int, int], totals: Totals) -> None:
        """Append one finished task (one ``write`` of the whole line: a killed run keeps it or tears only it).

        Raises
        ------
        CheckpointError
            If the write fails (disk full, ...), naming the file.
        """
        self._write(checkpoint_record(self.plan.key, task, totals).encode("utf-8"))

    def close(self) -> None:
        """Close the file and release the lock."""
        try:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
        finally:
            os.close(self._lock)
