"""Bounds on a math set's input, checked before any work.

A small file can ask for unbounded work: 10,000 unused symbols, ``rows =
50000``, a strip file that is a link to ``/dev/zero`` or a FIFO, a KEY
threshold of 10^18, a retrigger cap of 10,000 (cubic), an integer of 10^5
digits.  Every such input is refused up front, in one line naming the limit
and how to raise it, so that the bounded work fits in 4 GiB and minutes.

The limits (defaults in :class:`Limits`, measured on the bundled game made
larger along one axis at a time; see README "Input limits"):

=================  ==========  ===============================================
limit              default     what it bounds
=================  ==========  ===============================================
``file_bytes``     4 MiB       size of each input file (regular files only)
``symbols``        128         symbols (names and aliases) of the game file
``reels``          12          reels of the window
``rows``           32          rows of the window
``stops``          10,000      stops (positions) of each reel strip
``spins``          1,000       free spins of a trigger, a retrigger or a level
``threshold``      1,000       KEY threshold of a level
``retrigger_cap``  1,000       ``free_spins.retrigger_cap`` (its chain is cubic)
``digits``         12          decimal digits of any integer of the game file
                               (and significant digits of a printed figure)
``depth``          16          nesting of tables and arrays in the game file
``chain_work``     1e8         estimated work of the free-spin chain (about a minute;
                              :func:`chain_work`, :func:`retrigger_work`)
``combinations``   1e11        stop combinations of ``rtp prove --exhaustive``
``edit_work``      2e6         strip edits x window rows of ``rtp sensitivity`` (about a minute)
``rounds``         1e12        simulated game rounds of ``rtp simulate`` / ``rtp prove`` (days on 2 cores)
``scc``            200         states of a strongly connected component of a grid game's round chain
                              solved with exact Fractions (beyond: floating point, a stated bound)
``grid_states``    400,000     states of a grid game's round chain (beyond: the certified simulation)
``seconds``        120         estimated seconds of one analysis, from the parsed set before any work
                               (each rule's cost, :meth:`exact.rules.Rule.costs`)
``memory``         4,096       estimated MiB of one analysis, likewise
=================  ==========  ===============================================

Each is raised on the command line by ``--max-NAME N`` (``--max-retrigger-cap``
for ``retrigger_cap``) or all at once by ``--no-limits``; in Python by
``with using(Limits(rows=64)):`` or ``with using(NO_LIMITS):``.

Example
-------
>>> active().rows
32
>>> with using(NO_LIMITS):
...     active().rows is None
True
>>> refusal("rows", 50000, 32)
'50,000 rows, more than the limit of 32 (raise it with --max-rows N, or --no-limits)'
"""
from __future__ import annotations

import contextlib
import os
import stat
import sys
from contextvars import ContextVar
from dataclasses import dataclass, fields, replace
from typing import Iterator

from strips.errors import MathSetError

__all__ = ["Limits", "NO_LIMITS", "DESCRIPTIONS", "active", "using", "option", "refusal", "exceeds",
           "read_regular_file", "digits_refusal", "integer_too_long", "nesting_depth", "chain_work",
           "retrigger_work", "awarded_totals", "combinations_of"]


@dataclass(frozen=True)
class Limits:
    """The input bounds; ``None`` for a field means unbounded.  Defaults: see the module docstring."""

    file_bytes: int | None = 4 * 1024 * 1024
    symbols: int | None = 128
    reels: int | None = 12
    rows: int | None = 32
    stops: int | None = 10_000
    spins: int | None = 1_000
    threshold: int | None = 1_000
    retrigger_cap: int | None = 1_000
    digits: int | None = 12
    depth: int | None = 16
    chain_work: int | None = 100_000_000
    combinations: int | None = 100_000_000_000
    edit_work: int | None = 2_000_000
    rounds: int | None = 1_000_000_000_000
    enumeration: int | None = 20_000_000
    scc: int | None = 200
    grid_states: int | None = 400_000
    seconds: int | None = 120
    memory: int | None = 4096

    def but(self, **changes) -> "Limits":
        """A copy with some limits changed."""
        return replace(self, **changes)


#: Every limit off (``--no-limits``).
NO_LIMITS = Limits(**{f.name: None for f in fields(Limits)})

#: limit -> (what is counted, for messages and ``--help``)
DESCRIPTIONS = {
    "file_bytes": "bytes of each input file",
    "symbols": "symbols of the game file",
    "reels": "reels",
    "rows": "rows of the window",
    "stops": "stops of each reel strip",
    "spins": "free spins of one trigger, retrigger or level",
    "threshold": "KEY threshold of a level",
    "retrigger_cap": "free spins of the retrigger cap",
    "digits": "decimal digits of an integer in the game file (significant digits of a printed figure)",
    "depth": "nesting depth of tables and arrays in the game file",
    "chain_work": "estimated work units of the free-spin chain (ladder: spins x counter states x spins; "
                  "capped retrigger: see README Input limits)",
    "combinations": "stop combinations of the exhaustive enumeration",
    "edit_work": "strip edits x window rows of rtp sensitivity",
    "rounds": "simulated game rounds",
    "enumeration": "stop combinations the exact report enumerates in process (beyond: rtp prove --exhaustive)",
    "scc": "states of a strongly connected component of a grid game's round chain solved with exact Fractions "
           "(beyond: floating point within a stated bound)",
    "grid_states": "states of a grid game's round chain (beyond: the certified simulation)",
    "seconds": "estimated seconds of one analysis on this 2-core machine, from the parsed set before any work "
               "(README 'Input limits': each estimate and its calibration)",
    "memory": "estimated MiB of memory of one analysis, from the parsed set before any work",
}

_ACTIVE: ContextVar[Limits] = ContextVar("slot_exact_limits", default=Limits())


def active() -> Limits:
    """The limits in force (the defaults unless inside :func:`using`)."""
    return _ACTIVE.get()


@contextlib.contextmanager
def using(limits: Limits) -> Iterator[Limits]:
    """Run a block under other limits (``--max-...`` / ``--no-limits``)."""
    token = _ACTIVE.set(limits)
    try:
        yield limits
    finally:
        _ACTIVE.reset(token)


def option(name: str) -> str:
    """The command-line option that raises a limit: ``"retrigger_cap"`` -> ``"--max-retrigger-cap"``."""
    return "--max-" + name.replace("_", "-")


def refusal(name: str, value, limit: int, what: str | None = None) -> str:
    """The one-line refusal text of a limit (without file and position)."""
    what = what or name.replace("_", " ")
    shown = f"{value:,}" if isinstance(value, int) else str(value)
    return (f"{shown} {what}, more than the limit of {limit:,} "
            f"(raise it with {option(name)} N, or --no-limits)")


def digits_refusal(digits: int, what: str) -> str:
    """The refusal of a number written with ``digits`` decimal digits: past the most digits Python reads in
    one number, that (no limit can raise it); else above the ``digits`` limit, the limit's words.

    >>> digits_refusal(50, "digits in an integer")
    '50 digits in an integer, more than the limit of 12 (raise it with --max-digits N, or --no-limits)'
    >>> digits_refusal(5000, "digits in an integer")
    '5,000 digits in an integer, more than the limit of 12 (--max-digits) and than the 4,300 digits a number can have here (no limit raises that)'
    >>> with using(NO_LIMITS):
    ...     digits_refusal(5000, "digits in an integer")
    '5,000 digits in an integer, more than the 4,300 digits a number can have here (whatever the limits)'
    """
    cap = sys.get_int_max_str_digits()
    limit = active().digits
    if limit is not None and limit < digits <= cap:
        return refusal("digits", digits, limit, what)
    if limit is not None and digits > limit:
        return (f"{digits:,} {what}, more than the limit of {limit:,} (--max-digits) and than the {cap:,} digits "
                f"a number can have here (no limit raises that)")
    return f"{digits:,} {what}, more than the {cap:,} digits a number can have here (whatever the limits)"


def exceeds(name: str, value: int) -> int | None:
    """The active limit ``name`` if ``value`` is above it, else None."""
    limit = getattr(active(), name)
    return limit if limit is not None and value > limit else None


def read_regular_file(path, max_bytes: int | None = None) -> bytes:
    """The bytes of a regular file, refusing anything else and anything too large, without blocking.

    The file is opened non-blocking (a FIFO cannot hang the open) and checked
    with ``fstat`` on the open descriptor (a link to ``/dev/zero`` is a
    character device), then at most ``max_bytes + 1`` bytes are read (a file
    that grows while it is read is still refused).

    Parameters
    ----------
    path : str or Path
    max_bytes : int, optional
        Default: the active ``file_bytes`` limit.

    Raises
    ------
    MathSetError
        Row and column 0: not a regular file, larger than the limit.
    OSError
        As ``open`` raises it (missing file, permissions, a directory).
    """
    if max_bytes is None:
        max_bytes = active().file_bytes
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(21, "Is a directory", str(path))
        if not stat.S_ISREG(st.st_mode):
            kind = ("a FIFO" if stat.S_ISFIFO(st.st_mode) else "a character device" if stat.S_ISCHR(st.st_mode)
                    else "a block device" if stat.S_ISBLK(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode)
                    else "not a regular file")
            raise MathSetError(str(path), 0, 0, f"is {kind}, not a regular file: refusing to read it")
        if max_bytes is not None and st.st_size > max_bytes:
            raise MathSetError(str(path), 0, 0, refusal("file_bytes", st.st_size, max_bytes, "bytes"))
        chunks, size = [], 0
        while True:
            block = os.read(fd, 1 << 20)
            if not block:
                break
            chunks.append(block)
            size += len(block)
            if max_bytes is not None and size > max_bytes:
                raise MathSetError(str(path), 0, 0, refusal("file_bytes", size, max_bytes, "bytes (and growing)"))
        return b"".join(chunks)
    finally:
        os.close(fd)


def integer_too_long(value: int, digits: int | None) -> bool:
    """True if ``value`` has more than ``digits`` decimal digits (cheap: no conversion to text).

    >>> integer_too_long(10 ** 12, 12), integer_too_long(10 ** 12 - 1, 12)
    (True, False)
    """
    return digits is not None and abs(value) >= 10 ** digits


def nesting_depth(doc, limit: int) -> tuple[tuple, int] | None:
    """The key path of the first value nested deeper than ``limit`` in a parsed TOML document, or None.

    Depth counts tables and arrays: the document itself is depth 0.

    >>> nesting_depth({"a": {"b": [[1]]}}, 2)
    (('a', 'b', 0), 3)
    """
    stack = [((), doc, 0)]
    while stack:
        path, node, depth = stack.pop()
        if depth > limit:
            return path, depth
        if isinstance(node, dict):
            stack.extend((path + (k,), v, depth + 1) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((path + (i,), v, depth + 1) for i, v in enumerate(node))
    return None


def chain_work(max_initial: int, level_spins: list[int], cap: int) -> int:
    """Estimated work of the exact KEY-counter ladder, in units of which 10^7 take 3-7 s on one core.

    Its states (spins of the longest feature x KEY-counter values ``0..cap``)
    times the spins again (the exact integers grow by one denominator per
    spin).  Calibration (rules-page game, ``rtp report``): 1,000 initial spins
    with counter cap 9 (1.0e7 units) 7 s; spins and cap 400 (7.2e7) 13 s.  A
    retrigger under a cap: :func:`retrigger_work`.

    >>> chain_work(20, [8, 8, 8], 9)
    19360
    """
    spins = max_initial + sum(level_spins)
    return spins * (cap + 1) * spins


def awarded_totals(initial: list[int], extras: list[int], cap: int) -> list[int]:
    """Totals of free spins a capped retrigger feature can award: initial spins plus retriggers, at most ``cap``.

    Each total ``a`` holds the chain states ``(left, played)`` with ``left + played = a``
    (:mod:`markov.retrigger`); ``O(cap x len(extras))``.

    >>> awarded_totals([12], [12], 50)
    [12, 24, 36, 48, 50]
    """
    steps = sorted({e for e in extras if e > 0})
    reach = bytearray(cap + 1)
    for n in initial:
        if 1 <= n <= cap:
            reach[n] = 1
    for a in range(1, cap + 1):          # a + e > a: one ascending pass closes the set
        if reach[a]:
            for e in steps:
                reach[min(a + e, cap)] = 1
    return [a for a in range(1, cap + 1) if reach[a]]


#: Divisor of the capped retrigger's work (calibrated: see :func:`retrigger_work`).
RETRIGGER_DIVISOR = 32


def retrigger_work(initial: list[int], extras: list[int], cap: int, passes: int, outcomes: int, bits: int) -> int:
    """Estimated work of a free-spin feature with retrigger under ``retrigger_cap = cap``, in chain-work units.

    The dear part is the award odds of ``rtp report`` / ``rtp comply``
    (:func:`markov.occurrence.retrigger_avoids`): one exact forward pass over the
    chain's states ``(left, played)`` per award and trigger (``passes``), each
    state with one transition per scatter count of a free spin (``outcomes``),
    on exact numbers that grow by one denominator of ``bits`` bits per spin
    played, so a state after ``p`` spins costs about ``(1 + p bits / 64)**2``
    (the gcd of two numbers of ``p bits / 64`` words).  The states are those of
    every reachable awarded total ``a`` (:func:`awarded_totals`: about
    ``cap / extra`` totals of ``a`` states each), so the work grows like
    ``cap**4 / extra`` -- cubic and worse, and inversely with the spins a
    retrigger awards::

        passes x outcomes x sum_a sum_{p < a} (1 + p bits / 64)**2 / RETRIGGER_DIVISOR

    Calibration (African Simba, 12 + 12 per retrigger, 31 awards, 4 scatter
    counts, 27 bits; shared 2-core machine at load 2-3; README "Input
    limits"): the default limit 1e8 admits caps up to 370 (9.9e7 units);
    ``rtp comply`` (award odds plus the win distribution, the dearest
    command) took 58 s at cap 400 (1.4e8) and 137 s at cap 500 (3.1e8),
    ``rtp --set`` 19 s and 37 s; cap 1,000 (5.1e9) ran 447 s.  Measured time
    grows slower than the estimate (exponent 3.3 against 4 from cap 300 to
    500; about 1.4 against 2 in ``bits``), so the estimate bounds it.

    >>> retrigger_work([12], [12], 370, 31, 4, 27) < 10**8 < retrigger_work([12], [12], 380, 31, 4, 27)
    True
    """
    total = 0
    b = bits
    for a in awarded_totals(initial, extras, cap):
        # sum_{p=0}^{a-1} (64 + p b)^2, exactly
        total += 4096 * a + 64 * b * a * (a - 1) + b * b * (a - 1) * a * (2 * a - 1) // 6
    return max(passes, 1) * max(outcomes, 1) * total // (4096 * RETRIGGER_DIVISOR)


def combinations_of(lengths) -> int:
    """Stop combinations of a strip set: the product of its reel lengths."""
    n = 1
    for x in lengths:
        n *= x
    return n
