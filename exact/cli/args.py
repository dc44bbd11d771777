"""Shared argparse pieces of the ``rtp`` commands: the parser, ``--set``, integer ranges and lists."""
from __future__ import annotations

import argparse
from fractions import Fraction
import json
from pathlib import Path
import os

from proofs.dask_runner import Cluster

from strips import limits as _limits
from strips.errors import UsageError

__all__ = ["Parser", "UsageError", "add_set_argument", "add_limit_arguments", "int_list", "int_range", "limits_of",
           "int64_refusal", "refuse_unsupported", "refuse_costly", "add_cluster_arguments", "cluster_of", "add_mode_arguments"]


class Parser(argparse.ArgumentParser):
    """ArgumentParser that reports a usage error as one line (exit 2) instead of a usage dump."""

    def error(self, message):
        raise UsageError(f"{self.prog}: {message}")


#: Longest exact number accepted on the command line (characters): an exponent like 1e999999999 would
#: build a billion-digit integer, so none is accepted.
MAX_NUMBER_CHARS = 40


def exact_number(text: str, what: str, *, percent: bool = False, minimum: Fraction | None = None) -> Fraction:
    """A decimal or fraction of the command line (``0.94``, ``3/4``; ``94%`` with ``percent``) as an exact
    Fraction, never through a float: at most :data:`MAX_NUMBER_CHARS` characters, no exponent, at least
    ``minimum``.

    Raises
    ------
    UsageError
        One line naming ``what`` (e.g. ``"rtp tune: --hit-tolerance"``).

    >>> exact_number("94%", "x", percent=True), exact_number("1/8", "x")
    (Fraction(47, 50), Fraction(1, 8))
    >>> exact_number("-1", "rtp tune: --hit-tolerance", minimum=Fraction(0))
    Traceback (most recent call last):
    ...
    strips.errors.UsageError: rtp tune: --hit-tolerance must be at least 0, got '-1'
    """
    t = str(text).strip().replace("_", "")
    form = "a decimal such as 0.94" + (" or 94%" if percent else "") + " or a fraction such as 3/4"
    if len(t) > MAX_NUMBER_CHARS or "e" in t.lower():
        raise UsageError(f"{what} must be {form} of at most {MAX_NUMBER_CHARS} characters without an exponent, "
                         f"got {str(text)[:MAX_NUMBER_CHARS]!r}")
    try:
        value = Fraction(t[:-1].strip()) / 100 if percent and t.endswith("%") else Fraction(t)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"{what} must be {form}, got {text!r}") from None
    if minimum is not None and value < minimum:
        raise UsageError(f"{what} must be at least {minimum}, got {text!r}")
    return value


def int_range(low: int, high: int | None = None):
    """An argparse ``type``: an integer from ``low`` to ``high`` (no upper bound if None).

    A value outside the range is a usage error naming the option and the range (exit 2).
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if value < low or (high is not None and value > high):
            span = f"between {low} and {high}" if high is not None else f"{low} or more"
            raise argparse.ArgumentTypeError(f"must be {span}, got {value}")
        return value
    return parse


def _set_name(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty: give a math-set directory or a bundled set name")
    return text


def add_set_argument(p: argparse.ArgumentParser) -> None:
    """The ``--set SET`` option every command shares."""
    p.add_argument("--set", dest="set", default=None, metavar="SET", type=_set_name,
                   help="math-set directory or bundled set name (default: rules_page)")


def int_list(text: str, what: str) -> list[int]:
    """Parse ``"1,2,3"``; raises UsageError naming ``what`` on anything else."""
    if not text.strip():
        return []
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise UsageError(f"rtp: {what} must be comma-separated integers, got {text!r}") from None


def refuse_unsupported(ms, command: str, analysis: str | None = None) -> None:
    """Refuse, in one line (exit 2), a game with a rule the command's analysis does not model, as the
    API does (:func:`exact.rules.supports`: the one place that decides it), or whose estimated cost is above
    its limit (:func:`exact.rules.cost_refusal`), before any work.

    Raises
    ------
    UsageError
        ``rtp COMMAND: SET: unsupported rule: RULE: ANALYSIS does not model it``.
    """
    from exact.rules import supports
    s = supports(ms, analysis or command)
    if not s:
        raise UsageError(f"rtp {command}: {ms.name}: {s.message()}")
    refuse_costly(ms, command, analysis or command)

def refuse_costly(ms, command: str, analysis: str, alternative: str = "") -> None:
    """Refuse, in one line (exit 2), ``analysis`` of ``command`` on ``ms`` when an up-front estimate is above its
    limit (:func:`exact.rules.cost_refusal`: ``--max-seconds``, ``--max-memory``), before any work; a command that
    runs a second analysis (``rtp comply`` and ``rtp export --distribution``: the win distribution) checks that
    one too, ``alternative`` naming how to go without it.

    Raises
    ------
    UsageError
        ``rtp COMMAND: SET: estimated N seconds for WHAT, more than the limit of L (raise it with ...)``.
    """
    from exact.rules import cost_refusal
    why = cost_refusal(ms, analysis)     # each rule's and analysis's up-front estimate against --max-seconds/--max-memory
    if why:
        raise UsageError(f"rtp {command}: {ms.name}: {why}" + (f"; {alternative}" if alternative else ""))

def add_mode_arguments(p: argparse.ArgumentParser) -> None:
    """``--mode NAME`` / ``--buy NAME`` of the simulation: one bet mode or one buy with all the rounds."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--mode", default=None, metavar="NAME",
                   help="simulate only this bet mode ('default' = the game's own) with all the rounds "
                        "(default: every mode and buy, the rounds split evenly)")
    g.add_argument("--buy", default=None, metavar="NAME", help="simulate only this bought feature with all the rounds")


def add_limit_arguments(p: argparse.ArgumentParser) -> None:
    """The input-limit options every command shares: ``--max-NAME N`` per limit and ``--no-limits``.

    See :mod:`strips.limits` for the limits and their defaults.
    """
    # the usage line names the command's own options and "[input limits]"; the limits have one help section
    fmt = p._get_formatter()
    fmt.add_usage(None, p._actions, p._mutually_exclusive_groups, prefix="")
    p.usage = fmt.format_help().strip().replace("%", "%%") + " [input limits]"
    defaults = _limits.Limits()
    listed = "; ".join(f"{_limits.option(name)} N: {what} (default {getattr(defaults, name):,})"
                       for name, what in _limits.DESCRIPTIONS.items())
    g = p.add_argument_group("input limits", f"checked before any work (README 'Input limits'): {listed}; "
                                             "--no-limits: lift every input limit (memory and time unbounded)")
    for name in _limits.DESCRIPTIONS:
        g.add_argument(_limits.option(name), dest=f"max_{name}", type=int_range(1), default=None, metavar="N",
                       help=argparse.SUPPRESS)
    g.add_argument("--no-limits", action="store_true", help=argparse.SUPPRESS)


def limits_of(args: argparse.Namespace) -> _limits.Limits:
    """The :class:`strips.limits.Limits` asked for by ``--max-...`` and ``--no-limits``."""
    base = _limits.NO_LIMITS if getattr(args, "no_limits", False) else _limits.Limits()
    changes = {name: getattr(args, f"max_{name}") for name in _limits.DESCRIPTIONS
               if getattr(args, f"max_{name}", None) is not None}
    return base.but(**changes)


def int64_refusal(command: str, set_name: str, e: Exception, instead: str) -> UsageError:
    """A UsageError for a failure of the int64 proofs (enumeration, simulation) that names what to do instead.

    ``e`` is the ValueError or OverflowError of :mod:`proofs`; one that is not
    about int64 amounts keeps its own text.
    """
    text = str(e)
    if text.startswith("unsupported rule:") and "int64" in text:   # the proof names the rule it cannot hold
        return UsageError(f"{command}: {set_name}: {text}; {instead}")
    if isinstance(e, OverflowError) or "int64" in text or "too large" in text:
        return UsageError(f"{command}: {set_name}: the amounts (pays x ways x multipliers) are too large for "
                          f"its exact int64 arithmetic; {instead}")
    return UsageError(f"{command}: {set_name}: {text}")


#: Most worker processes of a local cluster: twice the cores (each Dask worker process holds its own
#: copy of the tables, ~100 MB; a million of them would exhaust the machine before any work).
MAX_LOCAL_WORKERS = 2 * (os.cpu_count() or 1)


def add_cluster_arguments(p: argparse.ArgumentParser) -> None:
    """``--workers``, ``--scheduler`` and ``--scheduler-file``: where a long proof runs (:mod:`proofs.dask_runner`)."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--workers", type=int_range(1, MAX_LOCAL_WORKERS), default=None,
                   help=f"worker processes of the local Dask cluster (default: all cores; 1 runs in this process; "
                        f"small runs stay in this process; at most {MAX_LOCAL_WORKERS}: more cores are a cluster's "
                        f"job, --scheduler)")
    g.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="run the tasks on this existing Dask cluster (start one with 'dask scheduler' and "
                        "'dask worker tcp://HOST:PORT')")
    g.add_argument("--scheduler-file", default=None, metavar="FILE",
                   help="run the tasks on the Dask cluster of this scheduler file ('dask scheduler --scheduler-file')")


def cluster_of(args) -> Cluster:
    """The :class:`proofs.dask_runner.Cluster` the options of :func:`add_cluster_arguments` name."""
    if args.scheduler_file is not None:   # dask waits forever for a missing file and asserts on a bad one
        _check_scheduler_file(args.scheduler_file)
    return Cluster(workers=args.workers or os.cpu_count() or 1, scheduler=args.scheduler,
                   scheduler_file=args.scheduler_file)


def _check_scheduler_file(path: str) -> None:
    """A scheduler file must exist, be a regular file and hold JSON with the scheduler's ``address``."""

    p = Path(path)
    if p.exists() and not p.is_file():
        raise UsageError(f"rtp: --scheduler-file {path}: not a regular file (a directory or a device; give the "
                         f"file 'dask scheduler --scheduler-file FILE' wrote)")
    if not p.is_file():
        raise UsageError(f"rtp: --scheduler-file {path}: no such file (start the scheduler with "
                         f"'dask scheduler --scheduler-file {path}' first)")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise UsageError(f"rtp: --scheduler-file {path}: not a dask scheduler file ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("address"), str) or "://" not in data["address"]:
        raise UsageError(f"rtp: --scheduler-file {path}: not a dask scheduler file (no 'address' such as "
                         f"tcp://HOST:PORT)")
