"""The enumeration kernel: exact integer totals of blocks of stop combinations.

:func:`evaluate_block` evaluates up to :data:`CHUNK` combinations in numpy:
ways pays reel by reel (a combination that has ended is dropped; the pay
of OAK ``n`` is added once for every completion of the remaining reels, a
broadcast array summed element by element, never multiplied out), the
collect, and the joint histogram of (FS count, KEY count);
:func:`task_totals` sums one task's blocks into :class:`Totals`.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from proofs.enumerate_tables import WindowTables


#: Combinations evaluated in one numpy block (memory bound: a few arrays of this length).
CHUNK = 1 << 18

_INT63 = (1 << 63) - 1


# --------------------------------------------------------------------------
# exact totals
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Totals:
    """Exact integer totals over a set of stop combinations.

    Attributes
    ----------
    combinations : int
        Number of combinations summed.
    ways : tuple of tuple of int, shape (n_pay, reels)
        ``ways[k][n - 1]``: sum over the combinations of the pay of symbol
        ``k`` when its OAK is ``n``, credits before the level multiplier.
    collect : int
        Sum over combinations of ``KEY count x sum of FISH mean numerators``;
        the collect in credits is ``collect / denominator``.
    joint : tuple of tuple of int, shape (max FS + 1, max KEY + 1)
        Combinations by (FS count, KEY count).
    collect_extra : tuple of int
        The ``collect`` of each extra phase (``WindowTables.extra_fish``).
    """

    combinations: int
    ways: tuple[tuple[int, ...], ...]
    collect: int
    joint: tuple[tuple[int, ...], ...]
    collect_extra: tuple[int, ...] = ()

    def __add__(self, other: "Totals") -> "Totals":
        return Totals(self.combinations + other.combinations,
                      tuple(tuple(a + b for a, b in zip(x, y)) for x, y in zip(self.ways, other.ways)),
                      self.collect + other.collect,
                      tuple(tuple(a + b for a, b in zip(x, y)) for x, y in zip(self.joint, other.joint)),
                      tuple(a + b for a, b in zip(self.collect_extra, other.collect_extra)))

    @classmethod
    def zero(cls, n_pay: int, reels: int, max_fs: int, max_key: int, n_extra: int = 0) -> "Totals":
        """Totals of no combination, with the given table sizes."""
        return cls(0, ((0,) * reels,) * n_pay, 0, ((0,) * (max_key + 1),) * (max_fs + 1), (0,) * n_extra)

    def to_json(self) -> dict:
        """JSON-able dict (the collects as decimal strings: exact at any size)."""
        d = {"combinations": self.combinations, "ways": [list(w) for w in self.ways],
             "collect": str(self.collect), "joint": [list(j) for j in self.joint]}
        if self.collect_extra:
            d["collect_extra"] = [str(x) for x in self.collect_extra]
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Totals":
        """Inverse of :meth:`to_json`."""
        return cls(int(d["combinations"]), tuple(tuple(int(x) for x in w) for w in d["ways"]),
                   int(d["collect"]), tuple(tuple(int(x) for x in j) for j in d["joint"]),
                   tuple(int(x) for x in d.get("collect_extra", ())))


def window_max_counts(t: WindowTables) -> tuple[int, int]:
    return (sum(int(s.max()) for s in t.scatters), sum(int(k.max()) for k in t.keys))


def combination_bound(t: WindowTables) -> int:
    """The largest amount one stop combination adds to a block sum: a pay times the ways, or KEY x FISH."""
    max_key = sum(int(k.max()) for k in t.keys)
    max_fish = max(sum(int(f.max()) for f in fish) for fish in (t.fish,) + t.extra_fish)
    max_ways = math.prod(max(1, int(c.max())) for c in t.ways_counts) * max(1, int(t.pays.max()))
    return max(max_key * max_fish, max_ways, 1)


def safe_chunk(t: WindowTables, chunk: int = CHUNK) -> int:
    """The block size (at most ``chunk``) whose int64 block sums provably cannot overflow, from the maxima.

    A block sums at most ``max(block, longest strip)`` combinations of at
    most :func:`combination_bound` each; the block is halved until that is
    below 2^63 (the totals across blocks are Python integers).

    Raises
    ------
    ValueError
        If even a block of one strip's length could overflow (never silently wrong).
    """
    bound = combination_bound(t)
    while chunk > 1 and max(chunk, max(t.lengths)) * bound > _INT63:
        chunk //= 2
    check_bounds(t, chunk)
    return chunk


def check_bounds(t: WindowTables, chunk: int = CHUNK) -> None:
    """Refuse tables whose per-block int64 sums could overflow (never silently wrong)."""
    if max(chunk, max(t.lengths)) * combination_bound(t) > _INT63:
        raise ValueError("pays or FISH values too large for the enumeration's exact 64-bit block sums "
                         "(a pay times the ways, or KEY x FISH, times the longest strip above 2^63 credits)")


@dataclass(frozen=True)
class BlockPlan:
    """How one reel-1 stop is cut into blocks of at most CHUNK combinations.

    Reels ``1 .. split - 1`` (0-based, after reel 0) are looped stop by stop,
    reel ``split`` is taken in ranges of ``step`` stops, reels after it are dense.
    """

    split: int
    step: int


def block_plan(lengths: Sequence[int], chunk: int = CHUNK) -> BlockPlan:
    """The block plan for reel lengths ``lengths`` (at least 2 reels).

    >>> block_plan((100, 100, 100, 100, 100))
    BlockPlan(split=2, step=26)
    """
    if len(lengths) < 2:
        raise ValueError("enumeration needs 2 or more reels")
    for j in range(1, len(lengths)):
        tail = math.prod(lengths[j + 1:])
        if tail <= chunk:
            return BlockPlan(j, max(1, min(lengths[j], chunk // tail)))
    raise AssertionError("unreachable")  # j = reels - 1 has tail 1


def stop_blocks(lengths: Sequence[int], plan: BlockPlan, s0: int):
    """Yield (stops per reel) for each block of reel-1 stop ``s0``: list of index arrays."""
    j, step = plan.split, plan.step
    dense = [np.arange(n) for n in lengths[j + 1:]]
    for mid in itertools.product(*(range(n) for n in lengths[1:j])):
        for a in range(0, lengths[j], step):
            yield [np.array([s0])] + [np.array([s]) for s in mid] + \
                  [np.arange(a, min(a + step, lengths[j]))] + dense


def _grid_sum(tables: Sequence[np.ndarray], stops: Sequence[np.ndarray]) -> np.ndarray:
    """Per-combination sum of a per-stop quantity: flat array, one entry per combination, row-major."""
    acc = np.zeros(1, dtype=np.int64)
    for tab, st in zip(tables, stops):
        acc = (acc[:, None] + tab[st][None, :]).ravel()
    return acc


def _every(values: np.ndarray, completions: int) -> int:
    """Sum of ``values`` once for each of ``completions`` completions: each element visited."""
    if completions == 1 or values.size == 0:
        return int(values.sum(dtype=np.int64))
    return int(np.broadcast_to(values[:, None], (values.size, completions)).sum(dtype=np.int64))


@dataclass(frozen=True)
class Tail:
    """Per-combination values of the dense trailing reels of a block plan (shared by its blocks).

    ``start`` is the first trailing reel; ``keys``, ``fish`` and ``code`` are
    flat arrays with one entry per combination of the trailing reels
    (row-major): KEY count, FISH mean numerator sum and ``FS x (max_key + 1)
    + KEY`` (int64, the index type of ``numpy.bincount``).  They are
    element-wise sums of per-window lookups, never sums over combinations.
    """

    start: int
    keys: np.ndarray
    fish: np.ndarray
    code: np.ndarray
    fish_extra: tuple[np.ndarray, ...] = ()


def _tail(t: WindowTables, stops: Sequence[np.ndarray], start: int, max_key: int, dtype) -> Tail:
    keys = _grid_sum(t.keys[start:], stops[start:])
    scat = _grid_sum(t.scatters[start:], stops[start:])
    return Tail(start, keys.astype(dtype), _grid_sum(t.fish[start:], stops[start:]).astype(dtype),
                (scat * (max_key + 1) + keys).astype(np.intp),
                tuple(_grid_sum(f[start:], stops[start:]).astype(dtype) for f in t.extra_fish))


def _dtype(t: WindowTables):
    """int32 when KEY count x FISH numerator of any window fits, else int64 (exactness first)."""
    max_key = sum(int(k.max(initial=0)) for k in t.keys)
    max_fish = max(sum(int(f.max(initial=0)) for f in fish) for fish in (t.fish,) + t.extra_fish)
    return np.int32 if max(max_key * max_fish, max_fish) < 2 ** 31 - 1 else np.int64


class Workspace:
    """Buffers of one task, allocated once and reused by every block (no per-block allocation churn).

    ``a``, ``b`` (int64) hold the ways products of a block, ``mask`` (bool)
    the live combinations, ``k``, ``f`` (the collect dtype) the KEY counts and
    FISH numerators of every combination, ``c`` (intp) its (FS, KEY) cell;
    each of ``size`` entries (the largest block).
    """

    def __init__(self, size: int, dtype) -> None:
        self.a = np.empty(size, dtype=np.int64)
        self.b = np.empty(size, dtype=np.int64)
        self.mask = np.empty(size, dtype=bool)
        self.k = np.empty(size, dtype=dtype)
        self.f = np.empty(size, dtype=dtype)
        self.c = np.empty(size, dtype=np.intp)


def evaluate_block(t: WindowTables, stops: Sequence[np.ndarray], max_fs: int, max_key: int,
                   tail: Tail | None = None, ws: Workspace | None = None) -> Totals:
    """Exact totals over the combinations ``stops[0] x stops[1] x ... x stops[R-1]``.

    Parameters
    ----------
    t : WindowTables
    stops : sequence of int64 arrays, one per reel
        Stop positions of each reel taken by this block.
    max_fs, max_key : int
        Histogram sizes (largest possible FS and KEY counts).
    tail : Tail, optional
        Precomputed values of the trailing reels ``stops[tail.start:]``
        (must be the same stops); default: computed here.
    ws : Workspace, optional
        Buffers of at least the block's size; default: allocated here.

    Returns
    -------
    Totals
        Ways pays per symbol and OAK (scaled by ``t.ways_scale`` with WILD
        multipliers), collect numerator, (FS, KEY) histogram.
        Source: rules page sections 6, 8, 10.
    """
    sizes = [len(s) for s in stops]
    reels = len(sizes)
    n = math.prod(sizes)
    if tail is None:
        tail = _tail(t, stops, reels, max_key, _dtype(t))
    if ws is None:
        ws = Workspace(n, tail.keys.dtype)
    # completions[r] = combinations of the reels after r
    completions = [math.prod(sizes[r + 1:]) for r in range(reels)]
    a, b, mask = ws.a, ws.b, ws.mask
    ways = []
    for k in range(len(t.pay_names)):
        row = [0] * reels
        a[0] = 1
        live = 1  # a[:live]: ways through the reels so far, one entry per live combination
        for r in range(reels):
            c = t.ways_counts[r][stops[r], k]
            m = live * len(c)
            prod = b[:m].reshape(live, len(c))
            np.multiply(a[:live, None], c[None, :], out=prod)
            nz = np.not_equal(b[:m], 0, out=mask[:m])
            live = int(np.count_nonzero(nz))
            if live == 0:
                break  # every combination ended on reel r: no further OAK
            np.compress(nz, b[:m], out=a[:live])
            pay = int(t.pays[k, r])
            if pay == 0:
                continue
            if r + 1 < reels:
                ends = t.counts[r + 1][stops[r + 1], k] == 0  # reel r+1 shows neither the symbol nor WILD
                m = live * len(ends)
                np.multiply(a[:live, None], ends[None, :], out=b[:m].reshape(live, len(ends)))
                row[r] += pay * _every(b[:m], completions[r + 1])
            else:
                row[r] += pay * int(a[:live].sum(dtype=np.int64))
        ways.append(tuple(row))
    head = stops[:tail.start]
    hk = _grid_sum(t.keys[:tail.start], head)
    hf = _grid_sum(t.fish[:tail.start], head)
    hc = _grid_sum(t.scatters[:tail.start], head) * (max_key + 1) + hk
    dt = tail.keys.dtype
    shape = (hk.size, tail.keys.size)
    size = shape[0] * shape[1]
    # one entry per combination: (head combination) x (tail combination), row-major
    keys = ws.k[:size].reshape(shape)
    fish = ws.f[:size].reshape(shape)
    np.add(hk.astype(dt)[:, None], tail.keys[None, :], out=keys)
    np.add(hf.astype(dt)[:, None], tail.fish[None, :], out=fish)
    np.multiply(keys, fish, out=fish)
    collect = int(fish.sum(dtype=np.int64))
    extra = []
    for table, tf in zip(t.extra_fish, tail.fish_extra):   # the same KEY counts, another level's FISH means
        np.add(_grid_sum(table[:tail.start], head).astype(dt)[:, None], tf[None, :], out=fish)
        np.multiply(keys, fish, out=fish)
        extra.append(int(fish.sum(dtype=np.int64)))
    code = ws.c[:size].reshape(shape)
    np.add(hc.astype(np.intp)[:, None], tail.code[None, :], out=code)
    hist = np.bincount(ws.c[:size], minlength=(max_fs + 1) * (max_key + 1))
    joint = tuple(tuple(int(x) for x in hist[i * (max_key + 1):(i + 1) * (max_key + 1)]) for i in range(max_fs + 1))
    return Totals(n, tuple(ways), collect, joint, tuple(extra))


def task_totals(t: WindowTables, task: tuple[int, int] | int, plan: BlockPlan | None = None) -> Totals:
    """Exact totals over every combination whose reel-1 stop is in ``range(*task)`` (or is ``task``)."""
    first, last = (task, task + 1) if isinstance(task, int) else task
    plan = plan or block_plan(t.lengths)
    max_fs, max_key = window_max_counts(t)
    dtype = _dtype(t)
    ways = [[0] * t.reels for _ in t.pay_names]
    collect, n = 0, 0
    extra = [0] * len(t.extra_fish)
    joint = [[0] * (max_key + 1) for _ in range(max_fs + 1)]
    tail = ws = None
    for s0 in range(first, last):
        for stops in stop_blocks(t.lengths, plan, s0):
            if tail is None:  # the dense reels after the split reel are the same in every block
                tail = _tail(t, stops, plan.split + 1, max_key, dtype)
                ws = Workspace(plan.step * tail.keys.size, dtype)
            tot = evaluate_block(t, stops, max_fs, max_key, tail, ws)
            n += tot.combinations
            collect += tot.collect
            extra = [a + b for a, b in zip(extra, tot.collect_extra)]
            for acc, row in zip(ways, tot.ways):
                for i, v in enumerate(row):
                    acc[i] += v
            for acc, row in zip(joint, tot.joint):
                for i, v in enumerate(row):
                    acc[i] += v
    return Totals(n, tuple(map(tuple, ways)), collect, tuple(map(tuple, joint)), tuple(extra))


def run_task(shared: tuple[WindowTables, BlockPlan], task: tuple[int, int]) -> Totals:
    """One task on a worker: :func:`task_totals` of a range of reel-1 stops."""
    t, plan = shared
    return task_totals(t, task, plan)
