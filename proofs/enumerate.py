"""Exhaustive enumeration of every stop combination of one phase of a math set.

This is the test lab's proof by enumeration: each of the
``L1 x L2 x ... x LR`` stop combinations (10^10 for the rules-page base game)
is evaluated and its result added to exact integer totals.  It is written
independently of the factorised engine (:mod:`exact.engine`): it only reads
the windows off the reel strips and applies the rules page's semantics.

What is precomputed per reel and stop (a lookup of one reel's window, the
same facts the evaluator reads off that window column):

* ``counts[r][s, k]`` rows of the window of reel ``r`` at stop ``s`` showing
  pay symbol ``k`` or a WILD (blockers never count; section 6);
* ``keys[r][s]``, ``scatters[r][s]`` KEY and FS symbols in that column
  (sections 8 and 10);
* ``fish[r][s]`` the sum of the exact mean values of the FISH symbols in that
  column, as an integer numerator over the common denominator ``D`` (the
  least common multiple of the weight totals of the phase's tables, section 7).

Everything that depends on the combination is evaluated per combination, in
numpy blocks of up to :data:`CHUNK` combinations:

* ways pays (section 6): for each pay symbol the combination is extended
  reel by reel; combinations whose combination has ended are dropped (the
  evaluator's ``break``); the pay of OAK ``n`` is ``P_n x ways`` for each
  combination whose reel ``n + 1`` shows no such symbol (or ``n`` = reels),
  and this value is added once for every completion of the remaining reels
  (a broadcast array summed element by element, never multiplied out);
* collect (section 8): ``(sum of KEY) x (sum of FISH means)`` per combination;
* the joint histogram of (FS count, KEY count) per combination.

No product-of-sums factorisation is used anywhere: every total is a sum of an
array holding one entry per combination (or per combination of a prefix and
every completion of it).  The work is split over reel-1 stops, one task per
stop, run on a process pool; each finished task is appended to a checkpoint
file keyed by the content hash of the math set, so an interrupted run resumes.

Source: rules page sections 3 (window), 6 (ways), 7 (fish values), 8
(collect), 9 (win of a spin) and 10 (FS count).
"""
from __future__ import annotations

import dataclasses
import errno
import hashlib
import itertools
import json
import math
import operator
import os
import stat
import time
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from strips.model import FISH, KEY, SCATTER, WILD, MathSet, Phase
from proofs.dask_runner import Cluster, progress_bar, run_tasks
from exact.windows import SUM_HEADROOM, WindowEvaluator
from exact.rules import beyond_count_tables, trigger_scatter_pay

#: Combinations evaluated in one numpy block (memory bound: a few arrays of this length).
CHUNK = 1 << 18

#: Bump when the enumeration's semantics or checkpoint format change: old checkpoints are then ignored.
ENUMERATOR_VERSION = 2

_INT63 = (1 << 63) - 1


# --------------------------------------------------------------------------
# per-window tables
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class WindowTables:
    """Per reel and stop facts of the window column of one phase's strips.

    Attributes
    ----------
    phase : Phase
    lengths : tuple of int, length reels
        Stops of each reel strip.
    pay_names : tuple of str, length n_pay
        Pay symbols in model order (section 5).
    pays : numpy.ndarray, shape (n_pay, reels), int64
        ``pays[k, n - 1]`` credits per way for OAK ``n`` of pay symbol ``k``.
    counts : tuple of numpy.ndarray, each shape (L_r, n_pay), int64
        Rows of the column showing pay symbol ``k`` or WILD (section 6).
    keys, scatters : tuple of numpy.ndarray, each shape (L_r,), int64
        KEY and FS (scatter) symbols in the column (sections 8, 10).
    fish : tuple of numpy.ndarray, each shape (L_r,), int64
        Sum over the FISH symbols of the column of ``D * E[value]`` (exact
        integer numerators, credits times ``denominator``), section 7.
    fish_codes : tuple of numpy.ndarray, each shape (L_r, n_fish), int64
        FISH symbols of each kind in the column (kind order: ``fish_names``).
    fish_names : tuple of str, length n_fish
    denominator : int
        ``D``: least common multiple of the weight totals of the phase's FISH tables.
    multiplier : int
        Level multiplier of the phase (section 11); 1 in the base game.
    scatter_pays : tuple of int
        ``scatter_pays[n]``: scatter pay in credits for n scatter symbols in
        the window, n = 0 .. max (all 0 in the rules-page game).
    ways_counts : tuple of numpy.ndarray, each shape (L_r, n_pay), int64
        ``ways_scale[r] x E[c_k | stop]``: the ways count of pay symbol ``k``
        with each substituting WILD counted as its multiplier (a drawn one at
        its exact mean, the draws being independent of the stops and of each
        other; :class:`strips.model.WildMultiplier`).  Equal to ``counts``
        without WILD multipliers.  Zero exactly where ``counts`` is zero
        (a multiplier is >= 1), so the OAK of a combination is read off
        either.
    ways_scale : tuple of int, length reels
        Integer scale of each reel's ``ways_counts``: the lcm of the weight
        sums of the drawn WILD multipliers the reel's strip shows (1 if none).
    extra_fish : tuple of tuple of numpy.ndarray
        Per extra phase (:func:`window_tables` ``extra_phases``: phases on the
        same strips that differ only in their FISH tables), its ``fish`` table;
        the enumeration sums its collect in the same pass.
    extra_denominators : tuple of int
        The ``denominator`` of each extra phase.
    """

    phase: Phase
    lengths: tuple[int, ...]
    pay_names: tuple[str, ...]
    pays: np.ndarray
    counts: tuple[np.ndarray, ...]
    keys: tuple[np.ndarray, ...]
    scatters: tuple[np.ndarray, ...]
    fish: tuple[np.ndarray, ...]
    fish_codes: tuple[np.ndarray, ...]
    fish_names: tuple[str, ...]
    denominator: int
    multiplier: int
    scatter_pays: tuple[int, ...] = ()
    ways_counts: tuple[np.ndarray, ...] = ()
    ways_scale: tuple[int, ...] = ()
    extra_fish: tuple[tuple[np.ndarray, ...], ...] = ()
    extra_denominators: tuple[int, ...] = ()

    @property
    def reels(self) -> int:
        """Number of reels."""
        return len(self.lengths)

    @property
    def combinations(self) -> int:
        """Number of stop combinations, ``prod(lengths)``."""
        return math.prod(self.lengths)


def fish_weight_table(ms: MathSet, phase: Phase) -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """FISH symbol -> (values in credits, integer weights) of the phase's table (section 7).

    Raises
    ------
    ValueError
        If a FISH symbol on the phase's strips has no weight table for the phase.
    """
    model = ms.model
    on_strips = {n for reel in ms.phase_strips(phase).reels for n in reel}
    out = {}
    for s in model.of_kind(FISH):
        w = s.weights.get(phase.weights)
        if w is None:
            if s.name in on_strips:
                raise ValueError(f"{s.name} has no weight table {phase.weights!r}")
            continue
        out[s.name] = (tuple(s.values), tuple(w))
    return out


def window_tables(ms: MathSet, phase: Phase, extra_phases: Sequence[Phase] = ()) -> WindowTables:
    """Read the per-stop window facts of every reel of ``phase``'s strips.

    Each column is read exactly as the evaluator reads it: rows ``s, s+1, ...,
    s+rows-1`` of the strip with wrap-around (section 3).

    Raises
    ------
    ValueError
        If a FISH symbol on the strips has no weight table for the phase, or
        a WILD with a drawn multiplier on the strips has no weight table for
        it, or an extra phase differs from ``phase`` in more than its FISH tables.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> t = window_tables(ms, ms.model.base_phase)
    >>> t.lengths, t.counts[0].shape == (100, len(t.pay_names)), t.ways_scale
    ((100, 100, 100, 100, 100), True, (1, 1, 1, 1, 1))
    """
    model = ms.model
    strips = ms.phase_strips(phase)
    names = model.names
    pay_codes = [model.code(s.name) for s in model.pay_symbols]
    fish_names = tuple(s.name for s in model.of_kind(FISH))
    d, fish_num = _fish_numerators(ms, phase)
    extras = [_fish_numerators(ms, ep) for ep in extra_phases]
    for ep in extra_phases:
        if ms.phase_strips(ep) != strips or _drawn_tables(ms, ep) != _drawn_tables(ms, phase):
            raise ValueError(f"phase {ep.name} differs from {phase.name} in more than its FISH tables")
    # subst[k, code]: the symbol counts for pay symbol k (itself, or a WILD substituting for it; section 6)
    subst = np.array([[n == s.name or model.symbol(n).substitutes_for(s.name) for n in names]
                      for s in model.pay_symbols], dtype=bool).reshape(len(pay_codes), len(names))
    key = model.kind_mask(KEY)
    scat = model.kind_mask(SCATTER)
    counts, keys, scatters, fish, fish_codes = [], [], [], [], []
    extra_fish: list[list[np.ndarray]] = [[] for _ in extras]
    for codes in strips.codes:
        n = len(codes)
        win = np.asarray(codes, dtype=np.int64)[(np.arange(n)[:, None] + np.arange(model.rows)[None, :]) % n]
        counts.append(subst[:, win].sum(axis=2).T.astype(np.int64).reshape(n, len(pay_codes)))
        keys.append(key[win].sum(axis=1).astype(np.int64))
        scatters.append(scat[win].sum(axis=1).astype(np.int64))
        fish.append(fish_num[win].sum(axis=1))
        for (_, num), acc in zip(extras, extra_fish):
            acc.append(num[win].sum(axis=1))
        fish_codes.append(np.array([[int((row == model.code(f)).sum()) for f in fish_names] for row in win],
                                   dtype=np.int64).reshape(n, len(fish_names)))
    max_scatters = sum(int(x.max(initial=0)) for x in scatters)
    pays = np.array([s.pays for s in model.pay_symbols], dtype=np.int64).reshape(len(pay_codes), model.reels)
    ways_counts, ways_scale = [], []
    for codes, c in zip(strips.codes, counts):
        scale, per_code = wild_means(ms, phase, set(int(x) for x in np.unique(codes)))
        if per_code is None:
            ways_counts.append(c)
        else:
            n = len(codes)
            win = np.asarray(codes, dtype=np.int64)[(np.arange(n)[:, None] + np.arange(model.rows)[None, :]) % n]
            # per_code[k, code]: what one symbol of `code` adds to pay symbol k's count, times the scale
            ways_counts.append(per_code[:, win].sum(axis=2).T.astype(np.int64).reshape(n, len(pay_codes)))
        ways_scale.append(scale)
    return WindowTables(phase=phase, lengths=strips.lengths, pay_names=tuple(s.name for s in model.pay_symbols),
                        pays=pays, counts=tuple(counts), keys=tuple(keys), scatters=tuple(scatters),
                        fish=tuple(fish), fish_codes=tuple(fish_codes), fish_names=fish_names,
                        denominator=d, multiplier=phase.multiplier,
                        scatter_pays=tuple(trigger_scatter_pay(model, k) for k in range(max_scatters + 1)),
                        ways_counts=tuple(ways_counts), ways_scale=tuple(ways_scale),
                        extra_fish=tuple(tuple(x) for x in extra_fish),
                        extra_denominators=tuple(e[0] for e in extras))


def _fish_numerators(ms: MathSet, phase: Phase) -> tuple[int, np.ndarray]:
    """(D, per code D x E[FISH value]) of the phase's FISH tables, D the lcm of their weight sums (section 7)."""
    model = ms.model
    table = fish_weight_table(ms, phase)
    d = 1
    for _, w in table.values():
        d = math.lcm(d, sum(w))
    num = np.zeros(len(model.symbols), dtype=np.int64)
    for name, (values, w) in table.items():
        num[model.code(name)] = sum(v * wi for v, wi in zip(values, w)) * (d // sum(w))
    return d, num


def _drawn_tables(ms: MathSet, phase: Phase) -> tuple:
    """The drawn WILD multiplier tables ``phase`` uses (what its ways counts depend on besides the strips)."""
    return tuple((s.name, s.multiplier.weights.get(phase.weights)) for s in ms.model.of_kind(WILD)
                 if s.has_random_multiplier)


def wild_means(ms: MathSet, phase: Phase, codes_on_reel: set[int]) -> tuple[int, np.ndarray | None]:
    """Scale and per-symbol ways contributions of one reel whose strip shows the symbol codes given.

    Returns ``(s, per_code)``: ``per_code[k, code]`` is ``s`` times the mean
    amount one symbol ``code`` adds to the ways count of pay symbol ``k``
    (``s`` for the symbol itself, ``s x E[m]`` for a WILD with multiplier
    ``m`` that substitutes for it, 0 otherwise); ``s`` is the lcm of the
    weight sums of the drawn multipliers on the reel (so every entry is an
    integer).  ``per_code`` is None when no WILD of the reel has a multiplier
    (the plain counts apply).

    Raises
    ------
    ValueError
        If a drawn multiplier on the reel has no weight table ``phase.weights``.
    """
    model = ms.model
    wilds = [(c, model.symbols[c]) for c in sorted(codes_on_reel)
             if model.symbols[c].kind == WILD and model.symbols[c].multiplier is not None]
    if not wilds:
        return 1, None
    scale = 1
    for _, w in wilds:
        if w.multiplier.is_random:
            if phase.weights not in w.multiplier.weights:
                raise ValueError(f"{w.name} has no multiplier weight table {phase.weights!r}")
            scale = math.lcm(scale, sum(w.multiplier.weights[phase.weights]))
    pay = model.pay_symbols
    per_code = np.zeros((len(pay), len(model.symbols)), dtype=np.int64)
    for k, p in enumerate(pay):
        for c, sym in enumerate(model.symbols):
            if sym.name == p.name:
                per_code[k, c] = scale
            elif sym.substitutes_for(p.name) and c in codes_on_reel:
                if sym.multiplier is None:
                    per_code[k, c] = scale
                else:
                    pairs = sym.multiplier.table(phase.weights)
                    total = sum(w for _, w in pairs)
                    per_code[k, c] = sum(v * w for v, w in pairs) * (scale // total)
    return scale, per_code


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


def _max_counts(t: WindowTables) -> tuple[int, int]:
    return (sum(int(s.max()) for s in t.scatters), sum(int(k.max()) for k in t.keys))


def _check_bounds(t: WindowTables, chunk: int = CHUNK) -> None:
    """Refuse tables whose per-block int64 sums could overflow (never silently wrong)."""
    max_key = sum(int(k.max()) for k in t.keys)
    max_fish = max(sum(int(f.max()) for f in fish) for fish in (t.fish,) + t.extra_fish)
    max_ways = math.prod(max(1, int(c.max())) for c in t.ways_counts) * max(1, int(t.pays.max()))
    if max(chunk, max(t.lengths)) * max(max_key * max_fish, max_ways, 1) > _INT63:
        raise ValueError("pays or FISH values too large for the enumeration's exact 64-bit block sums "
                         "(a pay times the ways, or KEY x FISH, above about 2^63 / 2^18 credits)")


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


def _blocks(lengths: Sequence[int], plan: BlockPlan, s0: int):
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
    max_fs, max_key = _max_counts(t)
    dtype = _dtype(t)
    ways = [[0] * t.reels for _ in t.pay_names]
    collect, n = 0, 0
    extra = [0] * len(t.extra_fish)
    joint = [[0] * (max_key + 1) for _ in range(max_fs + 1)]
    tail = ws = None
    for s0 in range(first, last):
        for stops in _blocks(t.lengths, plan, s0):
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


def _run_task(shared: tuple[WindowTables, BlockPlan], task: tuple[int, int]) -> Totals:
    """One task on a worker: :func:`task_totals` of a range of reel-1 stops."""
    t, plan = shared
    return task_totals(t, task, plan)


# --------------------------------------------------------------------------
# result
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Enumeration:
    """Exact figures of one phase from the enumeration of its stop combinations.

    All figures are per spin of the phase, including the level multiplier.

    Attributes
    ----------
    phase : Phase
    totals : Totals
        Integer totals (ways pays before the multiplier).
    pay_names : tuple of str
    denominator : int
        Common denominator of the fish means.
    multiplier : int
    complete : bool
        True when every combination was evaluated (not a slice).
    seconds : float
        Wall time of this run (run-dependent, for display only).
    scatter_pays : tuple of int
        Scatter pay by FS count, credits.
    ways_scale : tuple of int, length reels
        ``ways_scale[n - 1]``: the integer scale of the ways totals of OAK
        ``n`` (the product of the first ``n`` reels' WILD-multiplier scales;
        all 1 without drawn WILD multipliers).
    reused_tasks, computed_tasks : int
        Tasks taken from valid checkpoint records, and computed in this run.
    bad_records : tuple of str
        Checkpoint records found invalid (and redone), ``"line N: reason"``.
    where : str
        Where the tasks ran (:meth:`proofs.dask_runner.Cluster.describe`).
    """

    phase: Phase
    totals: Totals
    pay_names: tuple[str, ...]
    denominator: int
    multiplier: int
    complete: bool
    seconds: float = 0.0
    scatter_pays: tuple[int, ...] = ()
    ways_scale: tuple[int, ...] = ()
    reused_tasks: int = 0
    computed_tasks: int = 0
    bad_records: tuple[str, ...] = ()
    where: str = ""
    extra: tuple[tuple[Phase, int], ...] = ()

    @property
    def combinations(self) -> int:
        """Number of stop combinations summed."""
        return self.totals.combinations

    def level(self, phase: Phase) -> "Enumeration":
        """The enumeration of ``phase``: this one's own, or one of its extra phases (its collect, FISH
        denominator and multiplier; everything else is shared: same strips and ways tables).

        Raises
        ------
        KeyError
            If ``phase`` is neither this enumeration's phase nor one of its extra phases.
        """
        if phase == self.phase:
            return self
        for i, (p, d) in enumerate(self.extra):
            if p == phase:
                return dataclasses.replace(self, phase=p, multiplier=p.multiplier, denominator=d, extra=(),
                                           totals=dataclasses.replace(self.totals, collect=self.totals.collect_extra[i]))
        raise KeyError(phase.name)

    def ways_by_symbol(self) -> dict[str, tuple[Fraction, ...]]:
        """Symbol -> E[multiplier x ways pay with OAK n] at index n-1, credits per spin."""
        n = self.combinations
        scale = self.ways_scale or (1,) * len(self.totals.ways[0] if self.totals.ways else ())
        return {s: tuple(Fraction(self.multiplier * v, n * sc) for v, sc in zip(row, scale))
                for s, row in zip(self.pay_names, self.totals.ways)}

    @property
    def pays_mean(self) -> Fraction:
        """E[multiplier x ways pays], credits per spin (:attr:`markov.moments.PhaseAnalysis.pays_mean`)."""
        return sum((sum(row, Fraction(0)) for row in self.ways_by_symbol().values()), Fraction(0))

    @property
    def collect_mean(self) -> Fraction:
        """E[multiplier x collect win], credits per spin (fish values at their exact means)."""
        return Fraction(self.multiplier * self.totals.collect, self.denominator * self.combinations)

    @property
    def scatter_mean(self) -> Fraction:
        """E[multiplier x scatter pay], credits per spin: each combination's pay for its FS count
        (combinations grouped by FS count); 0 in the rules-page game."""
        total = sum(sum(row) * pay for row, pay in zip(self.totals.joint, self.scatter_pays))
        return Fraction(self.multiplier * total, self.combinations)

    @property
    def mean(self) -> Fraction:
        """E[spin win], credits per spin."""
        return self.pays_mean + self.collect_mean + self.scatter_mean

    @property
    def scatter_prob(self) -> tuple[Fraction, ...]:
        """P(FS count = n), n = 0 .. max."""
        return tuple(Fraction(sum(row), self.combinations) for row in self.totals.joint)

    @property
    def key_prob(self) -> tuple[Fraction, ...]:
        """P(KEY count = n), n = 0 .. max."""
        cols = zip(*self.totals.joint)
        return tuple(Fraction(sum(c), self.combinations) for c in cols)


@dataclass(frozen=True)
class Comparison:
    """One figure computed two ways: ``enumerated`` and ``engine``, exact Fractions."""

    figure: str
    enumerated: Fraction
    engine: Fraction

    @property
    def equal(self) -> bool:
        """Exact equality of the two Fractions."""
        return self.enumerated == self.engine


def _padded(xs: Sequence[Fraction], n: int) -> list[Fraction]:
    return list(xs) + [Fraction(0)] * (n - len(xs))


def compare(e: Enumeration, analysis) -> list[Comparison]:
    """Each enumerated figure beside the factorised engine's (a PhaseAnalysis), exact.

    Figures: ways pays per symbol and OAK, ways mean, collect mean, mean spin
    win, P(FS = n) and P(KEY = n) for every n.
    """
    out = []
    for sym, row in e.ways_by_symbol().items():
        eng = analysis.ways_by_symbol[sym]
        for i, v in enumerate(row):
            out.append(Comparison(f"ways {sym} {i + 1} OAK", v, eng[i]))
    out.append(Comparison("ways pays", e.pays_mean, analysis.pays_mean))
    out.append(Comparison("collect", e.collect_mean, analysis.collect_mean))
    out.append(Comparison("spin win", e.mean, analysis.mean))
    for name, mine, theirs in (("FS", e.scatter_prob, analysis.by_scatter.prob),
                               ("KEY", e.key_prob, analysis.by_key.prob)):
        n = max(len(mine), len(theirs))
        for i, (a, b) in enumerate(zip(_padded(mine, n), _padded(theirs, n))):
            out.append(Comparison(f"P({name} = {i})", a, b))
    return out


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
        if not isinstance(rec, dict):
            raise ValueError("not a JSON object")
        if rec.get("key") != self.key:
            raise ValueError("a record of another math set or enumerator version")
        task = rec.get("task")
        if not (isinstance(task, list) and len(task) == 2 and all(type(x) is int for x in task)):
            raise ValueError("no task range")
        task = (task[0], task[1])
        if task not in self._task_set:
            raise ValueError(f"task {list(task)} is not one of this run's tasks")
        want = (task[1] - task[0]) * self.per_stop
        tj = rec.get("totals")
        if rec.get("combinations") != want or not isinstance(tj, dict) or tj.get("combinations") != want:
            raise ValueError(f"combination count is not the task's {want}")
        if rec.get("sha256") != record_checksum(self.key, task, tj):
            raise ValueError("checksum mismatch")
        ways, joint, collect = tj.get("ways"), tj.get("joint"), tj.get("collect")
        extra = tj.get("collect_extra", [])
        if not (_int_table(ways, self.n_pay, self.reels) and _int_table(joint, self.max_fs + 1, self.max_key + 1)
                and isinstance(collect, str) and collect.isdigit() and isinstance(extra, list)
                and len(extra) == self.n_extra and all(isinstance(x, str) and x.isdigit() for x in extra)):
            raise ValueError("wrong shape")
        if sum(map(sum, joint)) != want:
            raise ValueError("(FS, KEY) histogram does not add up to the combination count")
        return task, Totals.from_json(tj)

    @cached_property
    def _task_set(self) -> frozenset:
        return frozenset(self.tasks)


def _int_table(x, rows: int, cols: int) -> bool:
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


def enumerate_phase(ms: MathSet, phase: Phase | None = None, *, first_stops: Iterable[int] | None = None,
                    workers: int | None = None, cluster: Cluster | None = None,
                    checkpoint_dir: str | Path | None = None, progress: bool = False, chunk: int | None = None,
                    task_stops: int | None = None, generic: bool | None = None,
                    extra_phases: Sequence[Phase] = ()) -> "Enumeration | SpinEnumeration":
    """Enumerate every stop combination of ``phase`` (default: the base game).

    A game the fast path takes (:func:`fast_path_takes`) is enumerated by it
    (:class:`Enumeration`, per-symbol ways totals); every other game, or any
    game with ``generic=True``, by the generic path on
    :class:`exact.windows.WindowEvaluator` (:func:`enumerate_generic`,
    :class:`SpinEnumeration`).

    Parameters
    ----------
    ms : MathSet
    phase : Phase, optional
        Default ``ms.model.base_phase``.
    first_stops : iterable of int, optional
        Only these reel-1 stops (a slice, for benchmarks); default all.
    workers : int, optional
        Shorthand for ``Cluster(workers=workers)`` when ``cluster`` is None.
    cluster : Cluster, optional
        Where the tasks run (:class:`proofs.dask_runner.Cluster`); default: a
        local Dask cluster of one process per core, in process for small runs.
    checkpoint_dir : str or Path, optional
        Directory of the checkpoint file ``<set hash>.jsonl`` (see
        :class:`Checkpoint`); each finished task is appended with its
        checksum, and a rerun reuses the valid records and redoes the rest.
        None: no checkpoint.  Never place it next to input files.
    progress : bool
        Show a tqdm progress bar with ETA on stderr.
    chunk : int, optional
        Combinations per numpy block (memory bound); default :data:`CHUNK`
        (:data:`GENERIC_CHUNK` on the generic path).
    task_stops : int, optional
        Reel-1 stops per task; default: enough for :data:`TASK_COMBINATIONS`
        (depends on the set only, so a resumed run has the same tasks).
    generic : bool, optional
        True: the generic path whatever the game; None: by :func:`fast_path_takes`.
    extra_phases : sequence of Phase
        Fast path: phases on the same strips that differ from ``phase`` only
        in their FISH tables (free-spin levels); their collect is summed in
        the same pass (:meth:`Enumeration.level`).

    Returns
    -------
    Enumeration
        Exact totals, the same for any cluster, worker count and task size;
        ``complete`` is False for a slice; ``reused_tasks``,
        ``computed_tasks``, ``bad_records`` and ``seconds`` describe this run.

    Raises
    ------
    ValueError
        If a reel-1 stop is out of range, amounts could overflow int64, the
        checkpoint cannot be used (:class:`CheckpointError`) or the
        scheduler cannot be reached.
    """
    phase = phase or ms.model.base_phase
    cluster = cluster or Cluster(workers=workers)
    if generic or (generic is None and not fast_path_takes(ms)):
        if extra_phases:
            raise ValueError("extra phases are summed by the fast path only")
        return enumerate_generic(ms, phase, first_stops=first_stops, cluster=cluster, checkpoint_dir=checkpoint_dir,
                                 progress=progress, chunk=chunk or GENERIC_CHUNK, task_stops=task_stops)
    chunk = chunk or CHUNK
    t = window_tables(ms, phase, extra_phases)
    _check_bounds(t, chunk)
    plan = block_plan(t.lengths, chunk)
    wanted, per_stop, task_stops = _slice(t.lengths, first_stops, task_stops, TASK_COMBINATIONS)
    max_fs, max_key = _max_counts(t)
    levels = "".join(f" +{p.name}/{p.weights}" for p in extra_phases)
    tp = TaskPlan(set_hash(ms, phase, "fast" + levels if levels else ""), tuple(task_ranges(wanted, task_stops)),
                  per_stop, len(t.pay_names), t.reels, max_fs, max_key, len(extra_phases))
    run = run_plan(tp, Totals.zero(len(t.pay_names), t.reels, max_fs, max_key, len(extra_phases)), _run_task,
                   (t, plan), cluster=cluster, checkpoint_dir=checkpoint_dir, progress=progress,
                   desc=f"enumerate {phase.name}", small_run=SMALL_RUN)
    return Enumeration(phase=phase, totals=run.totals, pay_names=t.pay_names, denominator=t.denominator,
                       multiplier=t.multiplier, complete=len(wanted) == t.lengths[0],
                       seconds=run.seconds, scatter_pays=t.scatter_pays,
                       ways_scale=tuple(itertools.accumulate(t.ways_scale, operator.mul)),
                       reused_tasks=run.reused, computed_tasks=run.computed, bad_records=run.bad, where=run.where,
                       extra=tuple(zip(extra_phases, t.extra_denominators)))


def _slice(lengths: Sequence[int], first_stops, task_stops: int | None, task_combinations: int):
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
             small_run: int) -> PlanRun:
    """Run the tasks of ``plan`` (a :class:`TaskPlan` or :class:`GenericPlan`) not found in the checkpoint.

    Each task's totals (``fn(shared, task)``, on :func:`proofs.dask_runner.run_tasks`) are checked to hold
    the task's combinations, appended to the checkpoint as they finish, and merged into ``zero`` in task
    order (exact integers: the same totals for any worker count, task size or completion order).  Runs
    below ``small_run`` combinations stay in process in the cluster's ``auto`` mode.

    Raises
    ------
    CheckpointError
        As :class:`Checkpoint`.
    AssertionError
        A task that returned another number of combinations than its own.
    """
    start = time.perf_counter()
    ckpt = Checkpoint(checkpoint_dir, plan) if checkpoint_dir is not None else None
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


# --------------------------------------------------------------------------
# the generic path: every rule of the literal evaluator, on exact.windows
# --------------------------------------------------------------------------
#: Combinations per block of the generic path (at most exact.windows.SUM_HEADROOM: exact int64 block sums).
GENERIC_CHUNK = 1 << 15


def fast_path_takes(ms: MathSet) -> bool:
    """Whether the fast rules-page path enumerates this game: a ways game without the rules of issue 15
    (one scatter symbol, no paylines, combination multipliers, counts_as_scatter, trigger_reels,
    multiplier_by_trigger).  Every other game goes through the generic path (:func:`generic_task_totals`)."""
    return beyond_count_tables(ms.model) is None


@dataclass(frozen=True)
class SpinTotals:
    """Exact integer totals of the generic path over a set of stop combinations.

    Amounts are numerators over the evaluator's denominator
    (:attr:`exact.windows.WindowEvaluator.denominator`), before the level multiplier.

    Attributes
    ----------
    combinations : int
    pay, ways, scatter, collect : int
        Sums over the combinations of the win and of its parts (ways or line pays, scatter pays, collect).
    hits : int
        Combinations whose win is > 0 for every draw.
    trigger : tuple of int
        Combinations by trigger count (``SpinResult.trigger_count``).
    keys : tuple of int
        Combinations by KEY count.
    scatters : tuple of tuple of int
        Per scatter symbol (file order), combinations by its count.
    lines, line_hits : tuple of int
        Line games: per payline the sum of its pays (numerators) and the combinations in which it pays.
    """

    combinations: int
    pay: int
    ways: int
    scatter: int
    collect: int
    hits: int
    trigger: tuple[int, ...]
    keys: tuple[int, ...]
    scatters: tuple[tuple[int, ...], ...]
    lines: tuple[int, ...] = ()
    line_hits: tuple[int, ...] = ()

    def __add__(self, other: "SpinTotals") -> "SpinTotals":
        def add(a, b):
            return tuple(x + y for x, y in zip(a, b))
        return SpinTotals(self.combinations + other.combinations, self.pay + other.pay, self.ways + other.ways,
                          self.scatter + other.scatter, self.collect + other.collect, self.hits + other.hits,
                          add(self.trigger, other.trigger), add(self.keys, other.keys),
                          tuple(add(a, b) for a, b in zip(self.scatters, other.scatters)),
                          add(self.lines, other.lines), add(self.line_hits, other.line_hits))

    @classmethod
    def zero(cls, max_key: int, max_scatters: Sequence[int], max_trigger: int, paylines: int = 0) -> "SpinTotals":
        """Totals of no combination with histograms for counts up to the given maxima."""
        return cls(0, 0, 0, 0, 0, 0, (0,) * (max_trigger + 1), (0,) * (max_key + 1),
                   tuple((0,) * (m + 1) for m in max_scatters), (0,) * paylines, (0,) * paylines)

    def to_json(self) -> dict:
        """JSON-able dict (amounts as decimal strings: exact at any size)."""
        return {"combinations": self.combinations, "pay": str(self.pay), "ways": str(self.ways),
                "scatter": str(self.scatter), "collect": str(self.collect), "hits": self.hits,
                "trigger": list(self.trigger), "keys": list(self.keys), "scatters": [list(x) for x in self.scatters],
                "lines": [str(x) for x in self.lines], "line_hits": list(self.line_hits)}

    @classmethod
    def from_json(cls, d: dict) -> "SpinTotals":
        """Inverse of :meth:`to_json`."""
        return cls(int(d["combinations"]), int(d["pay"]), int(d["ways"]), int(d["scatter"]), int(d["collect"]),
                   int(d["hits"]), tuple(int(x) for x in d["trigger"]), tuple(int(x) for x in d["keys"]),
                   tuple(tuple(int(x) for x in s) for s in d["scatters"]), tuple(int(x) for x in d["lines"]),
                   tuple(int(x) for x in d["line_hits"]))


@dataclass(frozen=True)
class GenericPlan:
    """What a generic run must compute: its tasks and the shape of their totals (validates checkpoint records)."""

    key: str
    tasks: tuple[tuple[int, int], ...]
    per_stop: int
    max_key: int
    max_scatters: tuple[int, ...]
    max_trigger: int
    paylines: int = 0

    def validate(self, rec) -> tuple[tuple[int, int], SpinTotals]:
        """The (task, totals) of a checkpoint record, checked against this plan.

        Raises
        ------
        ValueError
            As :meth:`TaskPlan.validate`: another set, an unknown task, a wrong
            combination count, shape, a histogram that does not add up, or a checksum mismatch.
        """
        if not isinstance(rec, dict):
            raise ValueError("not a JSON object")
        if rec.get("key") != self.key:
            raise ValueError("a record of another math set or enumerator version")
        task = rec.get("task")
        if not (isinstance(task, list) and len(task) == 2 and all(type(x) is int for x in task)):
            raise ValueError("no task range")
        task = (task[0], task[1])
        if task not in set(self.tasks):
            raise ValueError(f"task {list(task)} is not one of this run's tasks")
        want = (task[1] - task[0]) * self.per_stop
        tj = rec.get("totals")
        if rec.get("combinations") != want or not isinstance(tj, dict) or tj.get("combinations") != want:
            raise ValueError(f"combination count is not the task's {want}")
        if rec.get("sha256") != record_checksum(self.key, task, tj):
            raise ValueError("checksum mismatch")
        hists = [(tj.get("trigger"), self.max_trigger), (tj.get("keys"), self.max_key)]
        scat = tj.get("scatters")
        if not (isinstance(scat, list) and len(scat) == len(self.max_scatters)):
            raise ValueError("wrong shape")
        hists += list(zip(scat, self.max_scatters))
        amounts = [tj.get(k) for k in ("pay", "ways", "scatter", "collect")]
        lines, line_hits = tj.get("lines"), tj.get("line_hits")
        if not (isinstance(lines, list) and len(lines) == self.paylines and _int_table([line_hits], 1, self.paylines)
                and all(0 <= h <= want for h in line_hits)):
            raise ValueError("wrong shape")
        amounts += lines
        if not (all(_int_table([h], 1, m + 1) for h, m in hists) and all(isinstance(a, str) and a.isdigit()
                                                                          for a in amounts)
                and type(tj.get("hits")) is int and 0 <= tj["hits"] <= want):
            raise ValueError("wrong shape")
        if any(sum(h) != want for h, _ in hists):
            raise ValueError("a count histogram does not add up to the combination count")
        return task, SpinTotals.from_json(tj)


def _grid(stops: Sequence[np.ndarray]) -> np.ndarray:
    """Every combination of the per-reel stop arrays, row-major: shape (prod sizes, reels), int64."""
    mesh = np.meshgrid(*stops, indexing="ij")
    return np.stack([m.ravel() for m in mesh], axis=1).astype(np.int64)


def generic_task_totals(ev: WindowEvaluator, task: tuple[int, int] | int, chunk: int = GENERIC_CHUNK) -> SpinTotals:
    """Exact totals of the generic path over every combination whose reel-1 stop is in ``range(*task)``.

    Every combination's window is evaluated literally by ``ev`` (exact
    conditional means over FISH values, drawn WILD multipliers and the
    combination value) in blocks of at most ``chunk`` combinations; each
    block's sums are int64 (``chunk`` <= :data:`exact.windows.SUM_HEADROOM`)
    and are added as Python integers.
    """
    first, last = (task, task + 1) if isinstance(task, int) else task
    if chunk > SUM_HEADROOM:
        raise ValueError(f"chunk {chunk} above the evaluator's exact-sum headroom {SUM_HEADROOM}")
    max_key, max_sc, max_trig = ev.max_counts()
    plan = block_plan(ev.lengths, chunk)
    n = pay = ways = scatter = collect = hits = 0
    paylines = len(ev.model.paylines) if ev.is_lines else 0
    lines = [0] * paylines
    line_hits = np.zeros(paylines, dtype=np.int64)
    trig = np.zeros(max_trig + 1, dtype=np.int64)
    keys = np.zeros(max_key + 1, dtype=np.int64)
    scat = [np.zeros(m + 1, dtype=np.int64) for m in max_sc]
    for s0 in range(first, last):
        for stops in _blocks(ev.lengths, plan, s0):
            out = ev.evaluate(_grid(stops))
            n += out.pay.size
            pay += int(out.pay.sum(dtype=np.int64))
            ways += int(out.ways_pay.sum(dtype=np.int64))
            scatter += int(out.scatter_pay.sum(dtype=np.int64))
            collect += int(out.collect.sum(dtype=np.int64))
            hits += int(np.count_nonzero(out.hit))
            trig += np.bincount(out.trigger_count, minlength=max_trig + 1)
            keys += np.bincount(out.keys, minlength=max_key + 1)
            for h, name in zip(scat, ev.scatter_names):
                h += np.bincount(out.scatter_counts[name], minlength=len(h))
            if paylines:
                lines = [a + int(b) for a, b in zip(lines, out.line_pays.sum(axis=0, dtype=np.int64))]
                line_hits += out.line_hits.sum(axis=0)
    return SpinTotals(n, pay, ways, scatter, collect, hits, tuple(int(x) for x in trig), tuple(int(x) for x in keys),
                      tuple(tuple(int(x) for x in h) for h in scat), tuple(lines), tuple(int(x) for x in line_hits))


def _run_generic_task(shared: tuple[WindowEvaluator, int], task: tuple[int, int]) -> SpinTotals:
    """One task of the generic path on a worker."""
    ev, chunk = shared
    return generic_task_totals(ev, task, chunk)


@dataclass(frozen=True)
class SpinEnumeration:
    """Exact per-spin figures of one phase from the generic path (every rule of the literal evaluator).

    Figures include the phase's level multiplier; ``totals`` are before it.
    Attributes as :class:`Enumeration` where they share a name; ``scatter_names``
    and ``trigger_name`` label the histograms; ``zero_fish``: a FISH value of 0
    on the strips (the hit count then means "wins for every draw").
    """

    phase: Phase
    totals: SpinTotals
    denominator: int
    multiplier: int
    complete: bool
    scatter_names: tuple[str, ...]
    trigger_name: str | None
    seconds: float = 0.0
    reused_tasks: int = 0
    computed_tasks: int = 0
    bad_records: tuple[str, ...] = ()
    where: str = ""
    zero_fish: bool = False
    path: str = "generic"

    @property
    def combinations(self) -> int:
        return self.totals.combinations

    def _mean(self, amount: int) -> Fraction:
        return Fraction(self.multiplier * amount, self.denominator * self.combinations)

    @property
    def mean(self) -> Fraction:
        """E[spin win], credits per spin."""
        return self._mean(self.totals.pay)

    @property
    def pays_mean(self) -> Fraction:
        """E[multiplier x ways or line pays], credits per spin."""
        return self._mean(self.totals.ways)

    @property
    def scatter_mean(self) -> Fraction:
        """E[multiplier x scatter pays], credits per spin."""
        return self._mean(self.totals.scatter)

    @property
    def collect_mean(self) -> Fraction:
        """E[multiplier x collect], credits per spin."""
        return self._mean(self.totals.collect)

    @property
    def hit_frequency(self) -> Fraction:
        """P(win > 0) (for every draw: see ``zero_fish``)."""
        return Fraction(self.totals.hits, self.combinations)

    def prob(self, hist: Sequence[int]) -> tuple[Fraction, ...]:
        """A count histogram as probabilities."""
        return tuple(Fraction(h, self.combinations) for h in hist)

    def scatter_prob(self, name: str) -> tuple[Fraction, ...]:
        """P(count of scatter symbol ``name`` = n), n = 0 .. max."""
        return self.prob(self.totals.scatters[self.scatter_names.index(name)])

    @property
    def line_means(self) -> tuple[Fraction, ...]:
        """Line games: E[multiplier x win of payline i] at index i - 1, credits per spin."""
        return tuple(self._mean(x) for x in self.totals.lines)

    @property
    def line_hits(self) -> tuple[Fraction, ...]:
        """Line games: P(payline i pays) at index i - 1."""
        return self.prob(self.totals.line_hits)


def enumerate_generic(ms: MathSet, phase: Phase, *, first_stops: Iterable[int] | None = None,
                      cluster: Cluster | None = None, checkpoint_dir: str | Path | None = None,
                      progress: bool = False, chunk: int = GENERIC_CHUNK,
                      task_stops: int | None = None) -> SpinEnumeration:
    """Enumerate every stop combination of ``phase`` through :class:`exact.windows.WindowEvaluator`.

    Parameters and tasks as :func:`enumerate_phase` (ranges of reel-1 stops,
    checkpoint records keyed by the content hash, exact integer totals merged
    in task order: identical for any worker count and task size).

    Raises
    ------
    ValueError
        As :func:`enumerate_phase`, or an amount too large for the evaluator's
        int64 arithmetic (the message names the rule).
    """
    cluster = cluster or Cluster()
    ev = WindowEvaluator(ms, phase)
    max_key, max_sc, max_trig = ev.max_counts()
    lengths = ev.lengths
    if len(lengths) < 2:
        raise ValueError("enumeration needs 2 or more reels")
    wanted, per_stop, task_stops = _slice(lengths, first_stops, task_stops, GENERIC_TASK_COMBINATIONS)
    paylines = len(ms.model.paylines) if ms.model.is_lines else 0
    plan = GenericPlan(set_hash(ms, phase, "generic"), tuple(task_ranges(wanted, task_stops)), per_stop,
                       max_key, max_sc, max_trig, paylines)
    run = run_plan(plan, SpinTotals.zero(max_key, max_sc, max_trig, paylines), _run_generic_task, (ev, chunk),
                   cluster=cluster, checkpoint_dir=checkpoint_dir, progress=progress, desc=f"enumerate {phase.name}",
                   small_run=GENERIC_SMALL_RUN)
    trig = ms.model.trigger_symbol
    return SpinEnumeration(phase=phase, totals=run.totals, denominator=ev.denominator, multiplier=phase.multiplier,
                           complete=len(wanted) == lengths[0], scatter_names=ev.scatter_names,
                           trigger_name=trig.name if trig is not None else None, seconds=run.seconds,
                           reused_tasks=run.reused, computed_tasks=run.computed, bad_records=run.bad,
                           where=run.where, zero_fish=ev.zero_fish)


#: Combinations of one generic task by default (the generic path evaluates about 10^6 windows/s per core).
GENERIC_TASK_COMBINATIONS = 1 << 20
#: Generic runs below this many combinations stay in process by default.
GENERIC_SMALL_RUN = 1 << 26
