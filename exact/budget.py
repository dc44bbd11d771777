"""A computation given a time budget: its result when it ends within the budget, else a reason it was not run.

``rtp report`` and the workbook's Summary show the round's hit frequency and max win when the win
distribution is cheap.  By default that is decided by the game, not by a clock (a round that is one
base spin: :func:`exact.report.cheap_distribution`), so the report is the same on every machine;
``RTP_ROUND_BUDGET=S`` in the environment instead runs ``exact.win_distribution`` under a timer of
``S`` seconds (``0`` never runs it) and stops it when the timer fires (``SIGALRM``: the computation is pure, nothing is left half
written), so a report costs at most the budget more than before.  Where no such timer exists (not the
main thread, or a system without ``setitimer``) nothing is run and the reason says so.

Source: issue "The whole PAR sheet ... in the notebook and the workbook" (round hit frequency and max
win in the report when the distribution takes under 2 s, else "not computed, run rtp distribution").
"""
from __future__ import annotations

import os
import signal
import threading
import time

from strips.errors import UsageError

__all__ = ["budget_seconds", "within", "OverBudget"]

class OverBudget(Exception):
    """Raised inside the computation when its time budget runs out."""


def budget_seconds() -> float | None:
    """The budget in seconds: ``RTP_ROUND_BUDGET`` when set (a number >= 0), else None (no timer: the report
    decides by the game).

    Raises
    ------
    strips.errors.UsageError
        ``RTP_ROUND_BUDGET`` set to something else than a number >= 0 (one line).

    >>> saved = os.environ.pop("RTP_ROUND_BUDGET", None)
    >>> budget_seconds() is None
    True
    >>> os.environ["RTP_ROUND_BUDGET"] = "2"
    >>> budget_seconds()
    2.0
    >>> _ = os.environ.pop("RTP_ROUND_BUDGET") if saved is None else os.environ.update(RTP_ROUND_BUDGET=saved)
    """
    text = os.environ.get("RTP_ROUND_BUDGET", "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value >= 0 or value == float("inf"):
        raise UsageError(f"rtp: RTP_ROUND_BUDGET must be a number of seconds >= 0, got {text[:40]!r}")
    return value


def within(seconds: float, fn, *args, **kwargs) -> tuple[object, str | None]:
    """``(fn(*args, **kwargs), None)`` when it returns within ``seconds``; ``(None, reason)`` when the budget
    runs out, is 0, or cannot be kept here.  Exceptions of ``fn`` propagate.

    >>> within(1.0, sum, [1, 2, 3])
    (6, None)
    >>> within(0.05, time.sleep, 2)[1]
    'takes over 0.05 s'
    >>> within(0, sum, [1])[1]
    'the time budget is 0 s'
    """
    if seconds <= 0:
        return None, "the time budget is 0 s"
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return None, "no timer to stop it here"

    def expire(signum, frame):
        raise OverBudget

    previous = signal.signal(signal.SIGALRM, expire)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return fn(*args, **kwargs), None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except OverBudget:
        return None, f"takes over {seconds:g} s"
    finally:
        signal.signal(signal.SIGALRM, previous)
