"""Where the long proofs run: in this process, on a local Dask cluster, or on an existing one.

The enumeration (:mod:`proofs.enumerate`) and the simulation
(:mod:`proofs.simulate`) cut their work into independent tasks; each task
returns exact integer accumulators, merged exactly by the caller in whatever
order they finish, so the result never depends on where or in which order the
tasks ran.  :func:`run_tasks` runs them:

* **in process** (a plain loop): for small runs, where starting worker
  processes would take longer than the work, and with one worker;
* on a **local Dask cluster** (``dask.distributed.LocalCluster``, one
  single-threaded worker process per core by default);
* on an **existing cluster** named by ``--scheduler tcp://HOST:PORT`` or
  ``--scheduler-file FILE`` (start one with ``dask scheduler`` and
  ``dask worker tcp://HOST:PORT``; the workers need only this package
  installed).

The read-only data every task needs (the window tables, the simulator's
spin tables) is scattered to every worker once; tasks are submitted a few
per worker at a time so that millions of tasks never sit in the scheduler.
"""
from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

#: Modes of :class:`Cluster`: decide by the size of the run; always a LocalCluster; always in process.
AUTO, LOCAL, IN_PROCESS = "auto", "local", "in-process"


@dataclass(frozen=True)
class Cluster:
    """Where to run the tasks of a long proof.

    Attributes
    ----------
    workers : int or None
        Worker processes of a local cluster; None: ``os.cpu_count()``.
        1 runs in this process (unless ``mode`` is ``local``).
    scheduler : str or None
        Address of an existing Dask scheduler, e.g. ``tcp://10.0.0.5:8786``.
    scheduler_file : str or None
        Scheduler file written by ``dask scheduler --scheduler-file FILE``.
    mode : str
        ``auto`` (default): in process when the caller says the run is
        small or ``workers`` is 1, else a local cluster; ``local``: always a
        LocalCluster of ``workers`` processes; ``in-process``: never Dask.
        Ignored when a scheduler is given.
    client : dask.distributed.Client or None
        An already connected client (tests, notebooks); it is not closed.
    timeout : float
        Seconds to wait for a scheduler to answer.

    Examples
    --------
    >>> Cluster(workers=1).describe(small=False)
    'in process'
    >>> Cluster(scheduler="tcp://127.0.0.1:8786").describe()
    'Dask cluster at tcp://127.0.0.1:8786'
    """

    workers: int | None = None
    scheduler: str | None = None
    scheduler_file: str | None = None
    mode: str = AUTO
    client: Any = None
    timeout: float = 10.0

    @property
    def remote(self) -> bool:
        """True when the tasks go to a cluster this run does not start."""
        return self.client is not None or self.scheduler is not None or self.scheduler_file is not None

    @property
    def local_workers(self) -> int:
        """Processes of a local cluster."""
        return max(1, self.workers or os.cpu_count() or 1)

    def in_process(self, small: bool = False) -> bool:
        """Whether the tasks run in this process (no Dask) for a run that is ``small`` or not."""
        if self.remote:
            return False
        if self.mode == IN_PROCESS:
            return True
        if self.mode == LOCAL:
            return False
        return small or self.local_workers == 1

    def describe(self, small: bool = False) -> str:
        """Where the tasks run, for the certificate and the report."""
        if self.client is not None:
            return f"Dask cluster at {self.client.scheduler.address}"
        if self.scheduler is not None:
            return f"Dask cluster at {self.scheduler}"
        if self.scheduler_file is not None:
            return f"Dask cluster of scheduler file {self.scheduler_file}"
        if self.in_process(small):
            return "in process"
        n = self.local_workers
        return f"local Dask cluster of {n} worker process{'es' if n > 1 else ''}"


def _connect(cluster: Cluster):
    """(client, things to close) for a cluster spec; raises ValueError when it cannot connect."""
    from dask.distributed import Client, LocalCluster
    if cluster.client is not None:
        return cluster.client, []
    try:
        if cluster.scheduler is not None and cluster.scheduler.startswith("tcp://"):
            _probe(cluster.scheduler, cluster.timeout)   # nothing listening: say so at once, not after the timeout
        if cluster.scheduler is not None or cluster.scheduler_file is not None:
            try:
                client = Client(cluster.scheduler, scheduler_file=cluster.scheduler_file,
                                timeout=f"{cluster.timeout}s")
            except (OSError, TimeoutError, RuntimeError):
                raise
            except (MemoryError, Exception) as e:   # noqa: BLE001 - a service that answers, but not as Dask
                raise ValueError(f"cannot reach the Dask scheduler {cluster.scheduler or cluster.scheduler_file}: "
                                 f"the service there does not answer as a Dask scheduler "
                                 f"({type(e).__name__})") from None
            return client, [client]
        # preload: the workers ignore SIGINT, so a Ctrl-C stops this process (which closes them) without a
        # traceback from every worker
        local = LocalCluster(n_workers=cluster.local_workers, threads_per_worker=1, processes=True,
                             dashboard_address=":0", silence_logs=logging.ERROR,
                             preload=["proofs.dask_worker_quiet"])   # ":0": a free port, so
        # a dashboard already on 8787 (another run) prints no "Port 8787 is already in use" warning
        client = Client(local)
        return client, [client, local]
    except (OSError, TimeoutError, RuntimeError) as e:
        where = cluster.scheduler or cluster.scheduler_file
        what = f"cannot reach the Dask scheduler {where}" if where else "cannot start a local Dask cluster"
        raise ValueError(f"{what}: {e}") from None


def _probe(address: str, timeout: float) -> None:
    """Open and close a TCP connection to ``tcp://HOST:PORT``; OSError when nothing answers there."""
    import socket
    host, _, port = address[len("tcp://"):].rpartition(":")
    if not host or not port.isdigit():
        raise OSError(f"not an address of the form tcp://HOST:PORT: {address}")
    with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
        pass


def _close(things) -> None:
    for x in things:
        try:
            x.close()
        except Exception:  # noqa: BLE001 - closing a cluster that is already gone
            pass


def run_tasks(cluster: Cluster, fn: Callable, shared: Any, tasks: Iterable, *, small: bool = False,
              per_worker: int = 3) -> Iterator[tuple[Any, Any]]:
    """Run ``fn(shared, task)`` for every task; yield ``(task, result)`` as each finishes.

    Parameters
    ----------
    cluster : Cluster
    fn : callable
        A module-level function (it is pickled by reference to the workers).
    shared : object
        Read-only data every task needs; sent to each worker once.
    tasks : iterable
        Task descriptions (small picklable values).
    small : bool
        The caller's judgement that the run is too short for a local cluster
        (mode ``auto`` then runs in process).
    per_worker : int
        Tasks kept in flight per worker.

    Yields
    ------
    (task, result)
        In completion order (not submission order): callers merge exactly.

    Raises
    ------
    ValueError
        If the scheduler cannot be reached; any exception of ``fn`` as raised.

    Examples
    --------
    >>> sorted(run_tasks(Cluster(workers=1), pow, 2, [3, 5]))
    [(3, 8), (5, 32)]
    """
    if cluster.in_process(small):
        for t in tasks:
            yield t, fn(shared, t)
        return
    from dask.distributed import as_completed
    client, owned = _connect(cluster)
    pending: dict = {}
    try:
        nworkers = max(1, len(client.scheduler_info().get("workers", {})) or cluster.local_workers)
        data = client.scatter(shared, broadcast=True, hash=False)
        it = iter(tasks)
        ac = as_completed()

        def submit(n: int) -> None:
            for _ in range(n):
                try:
                    t = next(it)
                except StopIteration:
                    return
                f = client.submit(fn, data, t, pure=False)
                pending[f.key] = (f, t)
                ac.add(f)

        submit(per_worker * nworkers)
        for f in ac:
            _, t = pending.pop(f.key)
            result = f.result()
            f.release()
            submit(1)
            yield t, result
    finally:
        if pending and not owned:  # stopped early on a cluster that outlives this run
            client.cancel([f for f, _ in pending.values()])
        _close(owned)


def progress_bar(total: int, initial: int, unit: str, desc: str, enabled: bool):
    """A tqdm bar on stderr (None when disabled): the progress of a long run with its ETA."""
    if not enabled:
        return None
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, unit=unit, unit_scale=True, file=sys.stderr, desc=desc,
                smoothing=0.1)
