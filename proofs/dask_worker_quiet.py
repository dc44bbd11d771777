"""A Dask worker preload: the worker ignores SIGINT.

A Ctrl-C on a terminal reaches every process of its group: the run's own process stops the run and closes
its local cluster (:func:`proofs.dask_runner.run_tasks`); the workers, which it closes, need not print a
traceback each (``Process Dask Worker process (from Nanny): Traceback ... KeyboardInterrupt``).
"""
from __future__ import annotations

import signal
import threading


def dask_setup(worker) -> None:
    """Ignore SIGINT in this worker process (called by Dask when the worker starts)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
