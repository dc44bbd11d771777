"""Progress of a long library call: a tqdm line on stderr once the call has run 2 s, and a quiet Ctrl-C.

:func:`progress_of` wraps a public function (``exact.win_distribution``,
``exact.par_sheet``) so that a call lasting more than :data:`DELAY` seconds shows
one tqdm line on stderr with its elapsed time and the step it is in (set with
:func:`stage` from inside the computation); a shorter call shows nothing.  The
line is shown only where someone reads it: stderr is a terminal or the call runs
in a Jupyter kernel.  It is off when the caller passes ``progress=False``, or
when the environment variable ``RTP_PROGRESS`` is ``0`` (tests, scripts).

Ctrl-C during a wrapped call closes the line and raises one
``KeyboardInterrupt("NAME interrupted")`` with no chained traceback of the
computation (a notebook shows one line, the command line prints ``rtp:
interrupted``).

Source: issue "The whole PAR sheet ... in the notebook" (progress for any call
over 2 s, off when not a terminal or asked, quiet Ctrl-C).
"""
from __future__ import annotations

import contextvars
import functools
import os
import sys
import threading
import time

__all__ = ["DELAY", "enabled", "progress_of", "stage", "Progress"]

#: Seconds a call runs before its progress line appears.
DELAY = 2.0
#: How often the line's elapsed time is redrawn (seconds).
TICK = 0.5

_current: contextvars.ContextVar = contextvars.ContextVar("rtp_progress", default=None)


def enabled(asked: bool | None = None, stream=None) -> bool:
    """Whether a progress line is shown: ``asked`` when given, else stderr is a terminal or a Jupyter
    kernel runs the call, and ``RTP_PROGRESS`` is not ``0``.

    >>> enabled(False), enabled(True)
    (False, True)
    """
    if asked is not None:
        return bool(asked)
    if os.environ.get("RTP_PROGRESS", "") == "0":
        return False
    stream = sys.stderr if stream is None else stream
    try:
        if stream.isatty():
            return True
    except (AttributeError, ValueError):
        return False
    return "ipykernel" in sys.modules


class Progress:
    """One progress line (a context manager): shown after :data:`DELAY` s, redrawn every :data:`TICK` s.

    Parameters
    ----------
    name : str
        What runs (``"win distribution"``), the line's label.
    show : bool
        False: nothing is drawn (the stage calls still cost nothing).
    delay : float
        Seconds before the line appears.

    Examples
    --------
    >>> with Progress("demo", show=False) as p:
    ...     p.stage("step 1")
    >>> p.stages
    ['step 1']
    """

    def __init__(self, name: str, show: bool, delay: float = DELAY):
        self.name, self.show, self.delay = name, show, delay
        self.stages: list[str] = []
        self._bar = None
        self._stop = threading.Event()
        self._thread = None
        self._start = 0.0

    def stage(self, what: str) -> None:
        """Name the step now running (shown beside the elapsed time)."""
        self.stages.append(what)
        if self._bar is not None:
            self._bar.set_postfix_str(what, refresh=False)

    def _tick(self) -> None:
        while not self._stop.wait(TICK):
            if time.monotonic() - self._start < self.delay:
                continue
            if self._bar is None:
                from tqdm import tqdm
                self._bar = tqdm(total=None, desc=self.name, file=sys.stderr, leave=False,
                                 bar_format="{desc}: {elapsed} elapsed{postfix}")
                if self.stages:
                    self._bar.set_postfix_str(self.stages[-1], refresh=False)
            self._bar.refresh()

    def __enter__(self) -> "Progress":
        self._start = time.monotonic()
        self._token = _current.set(self)
        if self.show:
            self._thread = threading.Thread(target=self._tick, name="rtp-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, kind, value, tb):
        _current.reset(self._token)
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._bar is not None:
            self._bar.close()
        if kind is KeyboardInterrupt:
            raise KeyboardInterrupt(f"{self.name} interrupted") from None
        return False


def stage(what: str) -> None:
    """Name the step the running wrapped call is in; nothing outside a :class:`Progress`.

    >>> stage("outside any call")   # does nothing
    """
    p = _current.get()
    if p is not None:
        p.stage(what)


def progress_of(name: str):
    """Decorator: the function gains a keyword ``progress`` (None: :func:`enabled`) and runs in a
    :class:`Progress`; a nested wrapped call shows no second line.

    >>> @progress_of("sum")
    ... def total(xs):
    ...     stage("adding")
    ...     return sum(xs)
    >>> total([1, 2, 3], progress=False)
    6
    """
    def wrap(fn):
        @functools.wraps(fn)
        def run(*args, progress: bool | None = None, **kwargs):
            if _current.get() is not None:   # inside another wrapped call: its line shows the progress
                return fn(*args, **kwargs)
            with Progress(name, enabled(progress)):
                return fn(*args, **kwargs)
        return run
    return wrap
