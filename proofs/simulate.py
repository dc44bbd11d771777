"""Monte Carlo simulation of whole game rounds, beside the exact values.

``rtp simulate [--set SET] [--rounds N] [--seed S] [--json]``

A round is simulated as the rules page plays it (sections 2, 3, 7-11): a base
spin (uniform independent stops), FISH values drawn per FISH symbol from the
phase's weight table, the collect, the FS count; a trigger starts the free
spins on the free-spin strips through the KEY-counter ladder (level 1 plays
the initial free spins, each later level starts iff the counter reaches its
threshold at the end of the level before, each level with its own weight
table and multiplier).

Vectorisation
-------------
Rounds run in streams of :data:`STREAM` rounds; stream ``i`` draws from its
own ``numpy.random.Generator`` seeded by ``SeedSequence(seed).spawn``, and the
tasks (ranges of streams, run in process or on Dask by :mod:`proofs.cluster`)
return exact integer tallies, so the result depends only on (seed, rounds):
not on the cluster, the number of workers or the task size.

A spin's ways pays are computed with per-reel-group tables.  The reels are
cut into contiguous groups (at most :data:`GROUP_LIMIT` stop combinations
each) and a stop combination of a group is one table row.  For each pay
symbol, with ``c_r`` the rows of reel ``r`` showing it or WILD, ``z_r =
[c_r == 0]`` and ``P_n`` its pay for OAK ``n``, the pay of section 6 is the
Horner form::

    pay = c_1 (P_1 z_2 + c_2 (P_2 z_3 + ... + c_R P_R))

and a group ``a..b`` contributes ``B_a = P_{a-1} z_a + A + M (P_b z_{b+1} +
B_{b+1}...)`` through two tables ``add`` and ``mul`` (``mul = prod c``), so
a spin costs one table row per group.  The tests check this against the
literal evaluator spin by spin.

Beyond the rules page: WILD multipliers (fixed or drawn per WILD or per
reel) are drawn per spin (:class:`WildWays`, each reel its own group); a
retrigger table plays the features in waves with the cap of
:mod:`markov.retrigger`; free spins on the base strips and scatter pays use
the same tables.

Statistics
----------
The verdict tests k figures at once (RTP, base-spin hit frequency, trigger
rate per FS count, level reach), each with an interval at confidence
``1 - 0.01 / k`` (Bonferroni), so all k hold together with probability at
least 99% whatever their dependence: a correct game FAILs for at most 1% of
seeds.  RTP: mean round win / bet with a normal interval using the exact
standard deviation of the round win (the engine's variance; the sample SD is
shown beside it).  Rates: Clopper-Pearson exact intervals (scipy.stats.beta).
Exact values: :func:`exact.engine.analyse` and
:func:`markov.round.round_result`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

import numpy as np

from exact.engine import analyse
from markov.round import round_result
from strips.model import PER_WILD, WILD, MathSet, Phase
from proofs.cluster import Cluster, progress_bar, run_tasks
from proofs.enumerate import fish_weight_table, window_tables

#: Largest table of one reel group, in stop combinations.
GROUP_LIMIT = 1 << 14
#: Rounds of one seed stream (fixed: a seed's results do not depend on how streams are grouped into tasks).
STREAM = 1 << 16
#: Streams per task by default (about a million rounds).
TASK_STREAMS = 16
#: Runs below this many rounds stay in process by default (a local cluster takes seconds to start).
SMALL_RUN = 20_000_000
DEFAULT_ROUNDS = 10_000_000
DEFAULT_SEED = 20240601


# --------------------------------------------------------------------------
# spin tables of one strip set
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """Tables of one contiguous group of reels, one row per stop combination of the group.

    Attributes
    ----------
    reels : tuple of int
        0-based reels of the group.
    lengths : tuple of int
        Their strip lengths; row index = mixed-radix stops, first reel most significant.
    add : numpy.ndarray, shape (rows, n_pay), int32 or int64
    mul : numpy.ndarray or None, shape (rows, n_pay)
        Horner tables (module docstring); ``mul`` is None for the last group.
    keys, scatters : numpy.ndarray, shape (rows,), int16
    fish : numpy.ndarray, shape (rows, n_fish), int16
        FISH symbols of each kind in the group's window columns.
    """

    reels: tuple[int, ...]
    lengths: tuple[int, ...]
    add: np.ndarray
    mul: np.ndarray | None
    keys: np.ndarray
    scatters: np.ndarray
    fish: np.ndarray

    @property
    def size(self) -> int:
        """Rows of the group's tables: stop combinations of its reels."""
        return math.prod(self.lengths)


@dataclass(frozen=True)
class SpinTables:
    """Everything the simulator needs to evaluate spins of one strip set.

    Attributes
    ----------
    strips : str
        Strip set name.
    groups : tuple of Group
        Reel groups, left to right.
    fish_names : tuple of str
    scatter_pays : numpy.ndarray, shape (max scatters + 1,), int64
        Scatter pay in credits by scatter count (all 0 in the rules-page game).
    """

    strips: str
    groups: tuple[Group, ...]
    fish_names: tuple[str, ...]
    scatter_pays: np.ndarray
    wild: "WildWays | None" = None


@dataclass(frozen=True)
class WildWays:
    """Ways tables of a strip set whose WILDs carry multipliers (each reel its own group, row = stop).

    A WILD with multiplier m counts as m in the count of every pay symbol it
    substitutes for (:class:`strips.model.WildMultiplier`), so the count of
    pay symbol k on reel r is ``plain[r][stop, k] + sum_j subst[j, k] Y_j``
    with ``Y_j`` the drawn multipliers of the j-th drawn WILD symbol on the
    reel: the sum of one draw per WILD (mode ``wild``) or the WILD count times
    one draw per reel (mode ``reel``).

    Attributes
    ----------
    plain : tuple of numpy.ndarray, each (L_r, n_pay) int64
        The symbol itself, WILDs without multiplier (1 each) and WILDs with a
        fixed multiplier m (m each).
    zero : tuple of numpy.ndarray, each (L_r, n_pay) bool
        The column shows neither the symbol nor a WILD for it (the
        combination ends there; a multiplier never changes it).
    drawn : tuple of numpy.ndarray, each (L_r, n_drawn) int64
        WILDs of each drawn-multiplier symbol in the column.
    subst : numpy.ndarray, (n_drawn, n_pay) int64
        1 where drawn WILD j substitutes for pay symbol k.
    modes : tuple of str
        ``wild`` or ``reel`` per drawn WILD symbol.
    names : tuple of str
        The drawn WILD symbols.
    pays : numpy.ndarray, (n_pay, reels) int64
        Credits per way by OAK.
    """

    plain: tuple[np.ndarray, ...]
    zero: tuple[np.ndarray, ...]
    drawn: tuple[np.ndarray, ...]
    subst: np.ndarray
    modes: tuple[str, ...]
    names: tuple[str, ...]
    pays: np.ndarray


def wild_ways(ms: MathSet, phase: Phase, t) -> WildWays:
    """The :class:`WildWays` of ``phase``'s strips from its window tables ``t``."""
    model = ms.model
    strips = ms.phase_strips(phase)
    pay = model.pay_symbols
    drawn = [s for s in model.of_kind(WILD) if s.has_random_multiplier]
    per_code = np.zeros((len(pay), len(model.symbols)), dtype=np.int64)
    for k, p in enumerate(pay):
        for c, sym in enumerate(model.symbols):
            if sym.name == p.name:
                per_code[k, c] = 1
            elif sym.substitutes_for(p.name) and not sym.has_random_multiplier:
                per_code[k, c] = 1 if sym.multiplier is None else sym.multiplier.values[0]
    drawn_codes = np.array([model.code(s.name) for s in drawn], dtype=np.int64)
    plain, zero, counts = [], [], []
    for codes, c in zip(strips.codes, t.counts):
        n = len(codes)
        win = np.asarray(codes, dtype=np.int64)[(np.arange(n)[:, None] + np.arange(model.rows)[None, :]) % n]
        plain.append(per_code[:, win].sum(axis=2).T.reshape(n, len(pay)).astype(np.int64))
        zero.append(c == 0)
        counts.append((win[:, :, None] == drawn_codes[None, None, :]).sum(axis=1).astype(np.int64)
                      .reshape(n, len(drawn)))
    subst = np.array([[int(s.substitutes_for(p.name)) for p in pay] for s in drawn], dtype=np.int64)
    return WildWays(tuple(plain), tuple(zero), tuple(counts), subst.reshape(len(drawn), len(pay)),
                    tuple(s.multiplier.mode for s in drawn), tuple(s.name for s in drawn), t.pays)


@dataclass(frozen=True)
class WildDraw:
    """Inverse-CDF sampler of the drawn WILD multipliers of one weight table (exact integer weights)."""

    values: tuple[np.ndarray, ...]
    cumulative: tuple[np.ndarray, ...]


def wild_draw(ms: MathSet, phase: Phase, names: Sequence[str]) -> WildDraw:
    """The multiplier sampler of ``phase``'s weight table, drawn WILD symbols in ``names`` order.

    Raises
    ------
    ValueError
        If a drawn WILD on the phase's strips has no weight table for the phase.
    """
    on_strips = {n for reel in ms.phase_strips(phase).reels for n in reel}
    vals, cums = [], []
    for name in names:
        m = ms.model.symbol(name).multiplier
        w = m.weights.get(phase.weights)
        if w is None:
            if name in on_strips:
                raise ValueError(f"{name} has no multiplier weight table {phase.weights!r}")
            w = (1,) + (0,) * (len(m.values) - 1)
        vals.append(np.array(m.values, dtype=np.int64))
        cums.append(np.cumsum(np.array(w, dtype=np.int64)))
    return WildDraw(tuple(vals), tuple(cums))


def _draws(vals: np.ndarray, cum: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    return vals[np.searchsorted(cum, rng.integers(0, int(cum[-1]), n), side="right")]


def wild_ways_pays(w: WildWays, stops: Sequence[np.ndarray], draw: WildDraw, rng: np.random.Generator) -> np.ndarray:
    """Ways pays (credits, before the level multiplier) of spins at ``stops`` (one (n,) array per reel),
    with freshly drawn WILD multipliers: the Horner form of the module docstring, reel by reel."""
    counts = []
    for r, st in enumerate(stops):
        c = w.plain[r][st]
        nw = w.drawn[r][st]
        if nw.shape[1] and nw.any():
            y = np.zeros(nw.shape, dtype=np.int64)
            for j in range(nw.shape[1]):
                col = nw[:, j]
                if not col.any():
                    continue
                if w.modes[j] == PER_WILD:
                    y[:, j] = segment_sums(_draws(draw.values[j], draw.cumulative[j], int(col.sum()), rng), col)
                else:
                    rows = np.flatnonzero(col)
                    y[rows, j] = col[rows] * _draws(draw.values[j], draw.cumulative[j], len(rows), rng)
            c = c + y @ w.subst
        counts.append(c)
    last = len(stops) - 1
    b = counts[last] * w.pays[:, last]
    for r in range(last - 1, -1, -1):
        b = counts[r] * (w.pays[:, r] * w.zero[r + 1][stops[r + 1]] + b)
    return b.sum(axis=1, dtype=np.int64)


def reel_groups(lengths: Sequence[int], limit: int = GROUP_LIMIT) -> list[tuple[int, ...]]:
    """Cut reels into contiguous groups of at most ``limit`` stop combinations, filled from the right."""
    groups: list[list[int]] = []
    size = limit + 1
    for r in reversed(range(len(lengths))):
        if size * lengths[r] > limit or not groups:
            groups.insert(0, [r])
            size = lengths[r]
        else:
            groups[0].insert(0, r)
            size *= lengths[r]
    return [tuple(g) for g in groups]


def _grid(arrays: Sequence[np.ndarray], combine) -> np.ndarray:
    """Row-major grid of per-stop arrays (each shape (L, ...)) combined pairwise by ``combine``."""
    acc = arrays[0]
    for a in arrays[1:]:
        acc = combine(acc[:, None], a[None, :]).reshape((len(acc) * len(a),) + a.shape[1:])  # (-1 fails on 0 FISH)
    return acc


def spin_tables(ms: MathSet, phase: Phase, limit: int = GROUP_LIMIT) -> SpinTables:
    """Build the group tables of ``phase``'s strip set (fish weights do not enter).

    Raises
    ------
    ValueError
        If a spin's pay could overflow int64.
    """
    t = window_tables(ms, phase)
    pays = t.pays  # (n_pay, reels)
    wild = None
    if ms.model.has_wild_multipliers:
        limit = 1  # each reel its own group: the ways counts are drawn per spin (WildWays)
        wild = wild_ways(ms, phase, t)
        top = max((max(s.multiplier.values) for s in ms.model.of_kind(WILD) if s.multiplier), default=1)
        big = int(pays.max(initial=0)) * math.prod(max(1, int(c.max(initial=0))) * top for c in t.counts)
    else:
        big = int(pays.max(initial=0)) * math.prod(max(1, int(c.max(initial=0))) for c in t.counts)
    if big >= 2 ** 62:
        raise ValueError("pays too large for the simulator's 64-bit integers (a pay times the ways above 2^62)")
    dtype = np.int32 if big < 2 ** 31 else np.int64
    groups = []
    parts = reel_groups(t.lengths, limit)
    for gi, g in enumerate(parts):
        a, b = g[0], g[-1]
        counts = [t.counts[r] for r in g]
        # M = prod c over the group; A = sum_{r<b} P_r prod_{a..r} c z_{r+1} inside the group
        prefix = counts[0]
        inner = np.zeros_like(prefix)
        for i in range(1, len(g)):
            z_next = (counts[i] == 0).astype(np.int64)
            inner = _grid([inner, z_next], lambda x, y: x + 0 * y) + \
                _grid([prefix, z_next], lambda x, y: x * y) * pays[:, g[i - 1]]
            prefix = _grid([prefix, counts[i]], lambda x, y: x * y)
        first_zero = _grid([(counts[0] == 0).astype(np.int64)] +
                           [np.zeros_like(c) for c in counts[1:]], lambda x, y: x + y)
        lead = pays[:, a - 1] * first_zero if a > 0 else 0
        if gi == len(parts) - 1:
            add, mul = lead + inner + prefix * pays[:, b], None
        else:
            add, mul = lead + inner, prefix.astype(dtype)
        keys = _grid([t.keys[r] for r in g], lambda x, y: x + y).astype(np.int16)
        scat = _grid([t.scatters[r] for r in g], lambda x, y: x + y).astype(np.int16)
        fish = _grid([t.fish_codes[r] for r in g], lambda x, y: x + y).astype(np.int16)
        groups.append(Group(g, tuple(t.lengths[r] for r in g), np.ascontiguousarray(add, dtype=dtype),
                            mul, keys, scat, fish))
    return SpinTables(phase.strips, tuple(groups), t.fish_names, np.array(t.scatter_pays, dtype=np.int64), wild)


def group_indices(tabs: SpinTables, stops: np.ndarray) -> list[np.ndarray]:
    """Row of each group for stops of shape (n, reels), int64 -> list of (n,) int64."""
    out = []
    for g in tabs.groups:
        idx = np.zeros(len(stops), dtype=np.int64)
        for r, n in zip(g.reels, g.lengths):
            idx = idx * n + stops[:, r]
        out.append(idx)
    return out


def random_indices(tabs: SpinTables, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Group rows of ``n`` spins with independent uniform stops (section 3).

    The stops are drawn reel by reel (reel 1 first, ``n`` draws each), so a
    seed's spins do not depend on how the reels are grouped into tables.
    """
    out = []
    for g in tabs.groups:
        idx = None
        for n_stops in g.lengths:
            stop = rng.integers(0, n_stops, n)
            idx = stop if idx is None else idx * n_stops + stop
        out.append(idx)
    return out


@dataclass(frozen=True)
class Spins:
    """Results of ``n`` spins before fish values, arrays of shape (n,).

    ``ways`` credits: ways pays plus scatter pay (int64, before the
    multiplier), ``keys``, ``scatters``
    (int64) and ``fish`` (shape (n, n_fish), int64: FISH of each kind).
    """

    ways: np.ndarray
    keys: np.ndarray
    scatters: np.ndarray
    fish: np.ndarray


def spins(tabs: SpinTables, idx: Sequence[np.ndarray], all_fish: bool = True,
          wild: "tuple[WildDraw, np.random.Generator] | None" = None) -> Spins:
    """Ways pays, KEY, FS and FISH counts of spins given their group rows (section 6, 8, 10).

    With ``all_fish`` False, FISH counts are read only for spins with a KEY in
    the window (the others' FISH pay nothing, section 8) and are 0 elsewhere.
    With WILD multipliers (``tabs.wild``) the groups are single reels and
    ``wild`` = (sampler, generator) draws the multipliers.
    """
    gs = tabs.groups
    if tabs.wild is not None:
        if wild is None and tabs.wild.names:
            raise ValueError("spins with drawn WILD multipliers need a sampler and a generator")
        ways = wild_ways_pays(tabs.wild, idx, *(wild or (None, None)))
    else:
        b = gs[-1].add[idx[-1]]
        for g, i in zip(gs[-2::-1], idx[-2::-1]):
            b = g.add[i] + g.mul[i] * b
        ways = b.sum(axis=1, dtype=np.int64)
    keys = sum(g.keys[i].astype(np.int64) for g, i in zip(gs, idx))
    scat = sum(g.scatters[i].astype(np.int64) for g, i in zip(gs, idx))
    fish = np.zeros((len(keys), len(tabs.fish_names)), dtype=np.int64)
    rows = np.ones(len(keys), dtype=bool) if all_fish else keys > 0
    if rows.any():
        fish[rows] = sum(g.fish[i[rows]].astype(np.int64) for g, i in zip(gs, idx))
    if tabs.scatter_pays.any():
        ways += tabs.scatter_pays[scat]
    return Spins(ways, keys, scat, fish)


def segment_sums(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Sums of consecutive segments of ``values`` of lengths ``counts`` (exact int64)."""
    cs = np.concatenate(([0], np.cumsum(values, dtype=np.int64)))
    ends = np.cumsum(counts)
    return cs[ends] - cs[ends - counts]


@dataclass(frozen=True)
class FishDraw:
    """Inverse-CDF sampler of the FISH values of one weight table (section 7), exact integer weights."""

    values: tuple[np.ndarray, ...]
    cumulative: tuple[np.ndarray, ...]

    def sums(self, counts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Sum of freshly drawn values per spin; ``counts`` shape (n, n_fish) -> (n,) int64 credits."""
        out = np.zeros(len(counts), dtype=np.int64)
        for f, (vals, cum) in enumerate(zip(self.values, self.cumulative)):
            c = counts[:, f]
            total = int(c.sum())
            if total == 0:
                continue
            u = rng.integers(0, int(cum[-1]), total)
            out += segment_sums(vals[np.searchsorted(cum, u, side="right")], c)
        return out


def fish_draw(ms: MathSet, phase: Phase, fish_names: Sequence[str]) -> FishDraw:
    """The sampler of ``phase``'s weight tables, kinds in ``fish_names`` order."""
    table = fish_weight_table(ms, phase)
    vals, cums = [], []
    for name in fish_names:
        v, w = table.get(name, ((0,), (1,)))
        vals.append(np.array(v, dtype=np.int64))
        cums.append(np.cumsum(np.array(w, dtype=np.int64)))
    return FishDraw(tuple(vals), tuple(cums))


def spin_wins(tabs: SpinTables, stops: np.ndarray, fish_sums: np.ndarray, multiplier: int = 1,
              wild: "tuple[WildDraw, np.random.Generator] | None" = None) -> np.ndarray:
    """Win of each spin from explicit stops (n, reels) and FISH value sums (n,), credits (int64).

    The simulator's own spin evaluation (section 9): multiplier x (ways pays +
    KEY count x FISH sum).  Exposed so tests can compare it with the
    rules-page evaluator spin by spin.
    """
    s = spins(tabs, group_indices(tabs, np.asarray(stops, dtype=np.int64)), wild=wild)
    return multiplier * (s.ways + s.keys * np.asarray(fish_sums, dtype=np.int64))


# --------------------------------------------------------------------------
# rounds
# --------------------------------------------------------------------------
@dataclass
class Tally:
    """Running counts of a simulation: exact integers, merged exactly in any order.

    Attributes
    ----------
    rounds : int
    win : int
        Sum of round wins, credits.
    win2 : int
        Sum of squared round wins, credits^2 (exact).
    base_hits : int
        Rounds whose base spin won (> 0 credits).
    base_win : int
        Sum of base spin wins, credits.
    scatter : dict int -> int
        Rounds by FS count of the base spin.
    reach : list of int
        Rounds that played level i + 1.
    free_spins : int
        Free spins played.
    """

    rounds: int = 0
    win: int = 0
    win2: int = 0
    base_hits: int = 0
    base_win: int = 0
    scatter: dict = field(default_factory=dict)
    reach: list = field(default_factory=list)
    free_spins: int = 0

    def add(self, o: "Tally") -> None:
        """Add another tally's counts into this one (integer sums: the order never matters)."""
        self.rounds += o.rounds
        self.win += o.win
        self.win2 += o.win2
        self.base_hits += o.base_hits
        self.base_win += o.base_win
        for k, v in o.scatter.items():
            self.scatter[k] = self.scatter.get(k, 0) + v
        if len(self.reach) < len(o.reach):
            self.reach += [0] * (len(o.reach) - len(self.reach))
        for i, v in enumerate(o.reach):
            self.reach[i] += v
        self.free_spins += o.free_spins

    def canonical(self) -> "Tally":
        """The same counts with the scatter keys sorted (equal tallies compare and print alike)."""
        return Tally(self.rounds, self.win, self.win2, self.base_hits, self.base_win,
                     dict(sorted(self.scatter.items())), list(self.reach), self.free_spins)


def sum_of_squares(x: np.ndarray) -> int:
    """Exact sum of squares of a non-negative int64 array, as a Python int (no float, no overflow).

    >>> sum_of_squares(np.array([3, 4, 3_000_000_000]))
    9000000000000000025
    """
    small = x[x < (1 << 31)]
    sq = small * small  # < 2^62 each
    total = (int((sq >> 32).sum(dtype=np.int64)) << 32) + int((sq & 0xFFFFFFFF).sum(dtype=np.int64))
    return total + sum(int(v) * int(v) for v in x[x >= (1 << 31)])


@dataclass(frozen=True)
class Game:
    """Prepared tables of a math set for the simulator.

    ``retrigger[n]`` is the extra free spins for n scatters in a free spin
    (None without a retrigger table; the feature then has one level) and
    ``cap`` the most free spins of one feature (None: no cap).  ``base_wild``
    and ``level_wild`` sample drawn WILD multipliers (None without them).
    """

    base: SpinTables
    bonus: SpinTables
    base_fish: FishDraw
    level_fish: tuple[FishDraw, ...]
    multipliers: tuple[int, ...]
    thresholds: tuple[int, ...]
    level_spins: tuple[int | None, ...]
    trigger: np.ndarray  # FS count -> initial free spins, shape (max FS + 1,)
    retrigger: np.ndarray | None = None
    cap: int | None = None
    base_wild: WildDraw | None = None
    level_wild: tuple[WildDraw | None, ...] = ()


def prepare(ms: MathSet, limit: int = GROUP_LIMIT) -> Game:
    """Tables and samplers of every phase of ``ms`` (rules page sections 3-11; retrigger and WILD
    multipliers as the game file defines them).

    Raises
    ------
    ValueError
        If a FISH symbol or drawn WILD multiplier has no weight table for a
        phase that shows it, or a pay is too large for 64-bit integers.
    """
    model = ms.model
    base_phase = model.base_phase
    base = spin_tables(ms, base_phase, limit)
    levels = [model.level_phase(lv) for lv in model.levels]
    bonus = spin_tables(ms, levels[0], limit) if levels else base
    max_fs = sum(int(g.scatters.max(initial=0)) for g in base.groups)
    trigger = np.array([model.initial_spins(n) for n in range(max_fs + 1)], dtype=np.int64)
    retrigger = None
    if model.retrigger and levels:
        top = sum(int(g.scatters.max(initial=0)) for g in bonus.groups)
        retrigger = np.array([model.retrigger_spins(n) for n in range(top + 1)], dtype=np.int64)
    names = base.wild.names if base.wild is not None else ()
    return Game(base=base, bonus=bonus, base_fish=fish_draw(ms, base_phase, base.fish_names),
                level_fish=tuple(fish_draw(ms, p, bonus.fish_names) for p in levels),
                multipliers=tuple(lv.multiplier for lv in model.levels),
                thresholds=tuple(lv.threshold for lv in model.levels),
                level_spins=tuple(lv.spins for lv in model.levels), trigger=trigger,
                retrigger=retrigger, cap=model.retrigger_cap if retrigger is not None else None,
                base_wild=wild_draw(ms, base_phase, names) if names else None,
                level_wild=tuple(wild_draw(ms, p, names) if names else None for p in levels))


def _phase_wins(tabs: SpinTables, draw: FishDraw, n: int, rng: np.random.Generator,
                wild: WildDraw | None = None) -> Spins:
    """``n`` random spins; returns Spins with ``ways`` replaced by the spin win before the multiplier."""
    s = spins(tabs, random_indices(tabs, n, rng), all_fish=False,
              wild=(wild, rng) if tabs.wild is not None else None)
    collect = s.keys > 0  # FISH values only pay with a KEY in the window (section 8)
    win = s.ways.copy()
    if collect.any():
        win[collect] += s.keys[collect] * draw.sums(s.fish[collect], rng)
    return Spins(win, s.keys, s.scatters, s.fish)


def simulate_block(game: Game, n: int, rng: np.random.Generator) -> Tally:
    """Simulate ``n`` whole game rounds (base spin + free spins), sections 2, 9, 10, 11.

    Without retrigger the free spins go through the KEY-counter ladder; with
    a retrigger table (one level) the spins of all features are played in
    waves: every spin awarded and not yet played is played, its retriggers
    are added (capped: the spins awarded to a feature become ``min(cap,
    awarded + extra)``, the same as adding ``min(extra, cap - awarded)``
    spin by spin, :mod:`markov.retrigger`), until no feature has a spin left.
    """
    base = _phase_wins(game.base, game.base_fish, n, rng, game.base_wild)
    round_win = base.ways.copy()
    tally = Tally(rounds=n, base_hits=int(np.count_nonzero(base.ways)), base_win=int(base.ways.sum()))
    fs_counts = np.bincount(base.scatters)
    tally.scatter = {i: int(c) for i, c in enumerate(fs_counts) if c}
    initial = game.trigger[np.minimum(base.scatters, len(game.trigger) - 1)]
    active = np.flatnonzero(initial)
    spins_now = initial[active]
    reach = [0] * len(game.multipliers)
    if game.retrigger is not None:
        reach[0] = len(active)
        awarded, played = spins_now.copy(), np.zeros(len(active), dtype=np.int64)
        while len(active):
            total = int(spins_now.sum())
            tally.free_spins += total
            fs = _phase_wins(game.bonus, game.level_fish[0], total, rng, game.level_wild[0])
            round_win[active] += game.multipliers[0] * segment_sums(fs.ways, spins_now)
            extra = segment_sums(game.retrigger[np.minimum(fs.scatters, len(game.retrigger) - 1)], spins_now)
            played += spins_now
            awarded = awarded + extra if game.cap is None else np.minimum(game.cap, awarded + extra)
            left = awarded - played
            go = left > 0
            active, awarded, played, spins_now = active[go], awarded[go], played[go], left[go]
    else:
        counter = np.zeros(len(active), dtype=np.int64)
        for lv in range(len(game.multipliers)):
            if len(active) == 0:
                break
            reach[lv] = len(active)
            total = int(spins_now.sum())
            tally.free_spins += total
            fs = _phase_wins(game.bonus, game.level_fish[lv], total, rng, game.level_wild[lv])
            round_win[active] += game.multipliers[lv] * segment_sums(fs.ways, spins_now)
            counter += segment_sums(fs.keys, spins_now)
            if lv + 1 == len(game.multipliers):
                break
            go = counter >= game.thresholds[lv + 1]
            active, counter = active[go], counter[go]
            spins_now = np.full(len(active), game.level_spins[lv + 1], dtype=np.int64)
    tally.reach = reach
    tally.win = int(round_win.sum())
    tally.win2 = sum_of_squares(round_win)
    return tally


def stream_seed(seed: int, stream: int) -> np.random.SeedSequence:
    """The seed of stream ``stream`` of a run with seed ``seed``: ``SeedSequence(seed).spawn(...)[stream]``.

    >>> stream_seed(7, 3).spawn_key == np.random.SeedSequence(7).spawn(5)[3].spawn_key
    True
    """
    return np.random.SeedSequence(seed, spawn_key=(stream,))


def _run_streams(game: Game, task: tuple[int, int, int, int]) -> Tally:
    """One task on a worker: streams ``first .. last - 1`` of a run of ``rounds`` rounds with ``seed``."""
    first, last, seed, rounds = task
    tally = Tally()
    for i in range(first, last):
        n = min(STREAM, rounds - i * STREAM)
        tally.add(simulate_block(game, n, np.random.default_rng(stream_seed(seed, i))))
    return tally


def simulate(ms: MathSet, rounds: int, seed: int, workers: int | None = 1, game: Game | None = None,
             progress: bool = False, cluster: Cluster | None = None, task_streams: int | None = None) -> Tally:
    """Simulate ``rounds`` whole game rounds with seed ``seed``.

    The rounds are cut into streams of :data:`STREAM` rounds; stream ``i``
    draws from ``numpy.random.default_rng(SeedSequence(seed).spawn(...)[i])``
    and tasks are ranges of ``task_streams`` streams, so the tally depends
    only on ``(seed, rounds)``: not on the cluster, the number of workers or
    the task size.

    Parameters
    ----------
    workers : int, optional
        Shorthand for ``Cluster(workers=workers)`` when ``cluster`` is None.
    cluster : Cluster, optional
        Where the tasks run (:mod:`proofs.cluster`); small runs stay in process.
    task_streams : int, optional
        Streams per task (default :data:`TASK_STREAMS`).

    Raises
    ------
    ValueError
        If ``rounds`` < 1 or ``seed`` < 0, or the scheduler cannot be reached.
    """
    if rounds < 1:
        raise ValueError("rounds must be 1 or more")
    if seed < 0:
        raise ValueError("seed must be 0 or more")
    cluster = cluster or Cluster(workers=workers)
    game = game or prepare(ms)
    nstreams = -(-rounds // STREAM)
    per = task_streams or TASK_STREAMS
    tasks = [(a, min(a + per, nstreams), seed, rounds) for a in range(0, nstreams, per)]
    tally = Tally()
    bar = progress_bar(rounds, 0, "round", "simulate", progress)
    try:
        for _, t in run_tasks(cluster, _run_streams, game, tasks, small=rounds < SMALL_RUN):
            tally.add(t)
            if bar is not None:
                bar.update(t.rounds)
    finally:
        if bar is not None:
            bar.close()
    return tally.canonical()


# --------------------------------------------------------------------------
# intervals and the report
# --------------------------------------------------------------------------
#: Family-wise confidence of a simulation's verdict: a correct game fails with probability at most 1%.
FAMILY_LEVEL = 0.99


def interval_level(k: int, family: float = FAMILY_LEVEL) -> float:
    """Confidence of each of ``k`` intervals so all hold together with probability >= ``family``.

    Bonferroni: each interval misses with probability at most ``(1 - family) / k``,
    so by the union bound (valid for any dependence between the figures) the
    chance that any misses is at most ``1 - family``.

    >>> round(interval_level(10), 6)
    0.999
    """
    return 1 - (1 - family) / k


def proportion_interval(k: int, n: int, level: float) -> tuple[float, float]:
    """Clopper-Pearson exact two-sided interval of a binomial proportion k / n at confidence ``level``."""
    from scipy.special import betaincinv
    a = (1 - level) / 2
    lo = 0.0 if k == 0 else float(betaincinv(k, n - k + 1, a))
    hi = 1.0 if k == n else float(betaincinv(k + 1, n - k, 1 - a))
    return lo, hi


def proportion_ci99(k: int, n: int) -> tuple[float, float]:
    """Clopper-Pearson exact two-sided 99% interval of a binomial proportion k / n."""
    return proportion_interval(k, n, 0.99)


def mean_interval(total: int, n: int, sd: float, level: float) -> tuple[float, float]:
    """Normal interval of a mean from the sum of n samples and the known (exact) standard deviation."""
    from scipy.special import ndtri
    m = total / n
    h = float(ndtri(1 - (1 - level) / 2)) * sd / math.sqrt(n)
    return m - h, m + h


def sample_sd(total: int, total2: int, n: int) -> float:
    """Sample standard deviation from exact integer sums (computed exactly, then one float)."""
    if n < 2:
        return 0.0
    var = Fraction(total2 * n - total * total, n * (n - 1))
    return math.sqrt(float(var))


def fraction_sqrt(x: Fraction) -> float:
    """sqrt of a non-negative Fraction as a float (exact integer square root first: no overflow)."""
    scale = 10 ** 40
    return math.isqrt(x.numerator * scale * scale // x.denominator) / scale


@dataclass(frozen=True)
class Figure:
    """One simulated figure beside its exact value.

    ``estimate`` and ``interval`` are floats (simulation), ``level`` the
    interval's confidence; ``exact`` a Fraction.
    """

    name: str
    estimate: float
    interval: tuple[float, float]
    exact: Fraction
    level: float = 0.99

    @property
    def inside(self) -> bool:
        """Whether the exact value lies inside the interval (compared exactly)."""
        lo, hi = self.interval
        return Fraction(lo) <= self.exact <= Fraction(hi)

    def to_json(self) -> dict:
        """``estimate``, ``interval``, ``exact`` (``"p/q"``) and ``inside``."""
        return {"estimate": self.estimate, "interval": list(self.interval), "exact": _q(self.exact),
                "inside": self.inside}


def _q(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


@dataclass(frozen=True)
class SimulationReport:
    """A simulation's figures beside the exact ones.

    Attributes
    ----------
    rounds, seed : int
    rtp : Figure
        Fraction of the bet per round; its interval uses the exact SD.
    hit_rate : Figure
        P(base spin win > 0).
    trigger : tuple of (int, Figure)
        P(base spin shows n FS symbols), for each triggering n.
    reach : tuple of (int, Figure)
        P(level l is played in a round).
    sd_exact, sd_sample : float
        Exact and sample standard deviation of the round win, credits.
    level : float
        Confidence of each interval (Bonferroni over all figures).
    seconds : float
        Wall time (run-dependent).
    where : str
        Where the tasks ran.
    """

    rounds: int
    seed: int
    rtp: Figure
    hit_rate: Figure
    trigger: tuple[tuple[int, Figure], ...]
    reach: tuple[tuple[int, Figure], ...]
    sd_exact: float = 0.0
    sd_sample: float = 0.0
    level: float = 0.99
    seconds: float = 0.0
    where: str = ""

    @property
    def figures(self) -> list[Figure]:
        """Every figure: RTP, hit rate, trigger rates, level-reach rates."""
        return [self.rtp, self.hit_rate] + [f for _, f in self.trigger] + [f for _, f in self.reach]

    @property
    def passed(self) -> bool:
        """Whether every exact value lies inside its interval (a correct game fails at most 1% of seeds)."""
        return all(f.inside for f in self.figures)

    @property
    def method(self) -> str:
        """The statistics in one sentence."""
        k = len(self.figures)
        return (f"{k} intervals at {self.level:.4%} each (Bonferroni: all hold together with probability "
                f">= {FAMILY_LEVEL:.0%}); RTP: normal interval with the exact SD; rates: Clopper-Pearson")

    def to_json(self) -> dict:
        """The JSON object of ``rtp simulate --json`` (rates as fractions of 1, RTP as a fraction of the bet)."""
        return {"rounds": self.rounds, "seed": self.seed,
                "rtp_estimate": self.rtp.estimate, "rtp_interval": list(self.rtp.interval),
                "rtp": _q(self.rtp.exact), "rtp_inside": self.rtp.inside,
                "sd_exact": self.sd_exact, "sd_sample": self.sd_sample,
                "hit_rate_estimate": self.hit_rate.estimate, "hit_rate_interval": list(self.hit_rate.interval),
                "hit_rate": _q(self.hit_rate.exact), "hit_rate_inside": self.hit_rate.inside,
                "trigger_rates": {str(n): f.to_json() for n, f in self.trigger},
                "level_reach_rates": {str(n): f.to_json() for n, f in self.reach},
                "interval_level": self.level, "family_level": FAMILY_LEVEL, "method": self.method,
                "all_inside": self.passed,
                "seconds": round(self.seconds, 3),
                "rounds_per_second": round(self.rounds / self.seconds) if self.seconds else None}


def exact_values(ms: MathSet):
    """(RoundResult, base PhaseAnalysis) of the exact engine and the ladder chain."""
    a = analyse(ms)
    return round_result(ms.model, a.base, a.levels), a.base


def report(ms: MathSet, tally: Tally, seed: int, exact=None, seconds: float = 0.0, where: str = "") -> SimulationReport:
    """Compare a tally with the exact values (computed when ``exact`` is None).

    Every figure gets an interval at the Bonferroni level :func:`interval_level`
    (so the verdict is wrong for a correct game with probability <= 1%): the
    RTP a normal interval with the exact standard deviation of the round win
    (the engine's variance), the rates Clopper-Pearson intervals.
    """
    rr, base = exact or exact_values(ms)
    n = tally.rounds
    bet = ms.model.bet
    trig_items = sorted(rr.trigger_prob.items())
    level = interval_level(2 + len(trig_items) + len(rr.reach))
    sd = fraction_sqrt(rr.variance)
    lo, hi = mean_interval(tally.win, n, sd, level)
    rtp = Figure("RTP", tally.win / n / bet, (lo / bet, hi / bet), rr.rtp, level)

    def rate(name, k, exact_value):
        return Figure(name, k / n, proportion_interval(k, n, level), exact_value, level)

    hit = rate("hit rate (base spin)", tally.base_hits, base.hit_frequency)
    trig = tuple((c, rate(f"trigger {c} FS", tally.scatter.get(c, 0), p)) for c, p in trig_items)
    reach = tuple((i + 1, rate(f"reach level {i + 1}", tally.reach[i] if i < len(tally.reach) else 0, p))
                  for i, p in enumerate(rr.reach))
    return SimulationReport(rounds=n, seed=seed, rtp=rtp, hit_rate=hit, trigger=trig, reach=reach,
                            sd_exact=sd, sd_sample=sample_sd(tally.win, tally.win2, n), level=level,
                            seconds=seconds, where=where)


def format_report(rep: SimulationReport, name: str) -> str:
    """Plain-text table of a SimulationReport."""
    lines = [f"math set {name}: {rep.rounds:,} simulated game rounds, seed {rep.seed}"
             + (f", {rep.seconds:.1f} s ({rep.rounds / rep.seconds:,.0f} rounds/s)" if rep.seconds else "")
             + (f", {rep.where}" if rep.where else ""),
             f"intervals: {rep.method}",
             f"SD of the round win: exact {rep.sd_exact:.6f} credits (used), sample {rep.sd_sample:.6f}",
             "",
             f"{'figure':<22}{'estimate':>14}  {f'{rep.level:.4%} interval':<27}{'exact':>14}  inside"]
    for f in rep.figures:
        lines.append(f"{f.name:<22}{f.estimate:>14.8f}  [{f.interval[0]:.8f}, {f.interval[1]:.8f}]"
                     f"{float(f.exact):>14.8f}  {'yes' if f.inside else 'NO'}")
    lines.append("")
    lines.append("PASS: every exact value lies inside its interval" if rep.passed
                 else f"FAIL: an exact value lies outside its interval (a correct game fails with "
                      f"probability <= {1 - FAMILY_LEVEL:.0%})")
    return "\n".join(lines)
