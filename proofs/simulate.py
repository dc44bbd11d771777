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
tasks (ranges of streams, run in process or on Dask by :mod:`proofs.dask_runner`)
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

Every rule of the game file (issues 15 and 16): :func:`run_simulation` plays
each bet mode and buy as its own unit (:class:`ModeGame`, :class:`BuyGame`,
:func:`simulate_mode_block`): several scatters, ``counts_as_scatter``,
``trigger_reels``, ``multiplier_by_trigger``, respins with held reels, prize
wheels, the gamble policy; line games and combination WILD multipliers
through the literal window evaluator :class:`exact.windows.WindowEvaluator`.

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
:func:`markov.round.round_result`; for a game with issue 16 rules
:func:`exact.bonus.analyse_mode` per mode, :func:`exact.bonus.analyse_buys`
and the gamble of :func:`exact.par.gamble_figures`.  With bet modes and buys
the family covers every figure of every unit (each mode's RTP, hit rate,
trigger, reach, respin, wheel and award rates; each buy's RTP and reach; the
gamble's RTP, whose interval uses an upper bound of its SD
(:func:`gamble_sd_bound`), and eligible rate), and ``--rounds`` is split evenly
over the units (:func:`split_rounds`).
"""
from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

import numpy as np

from exact.bonus import analyse_buys, analyse_mode
from exact.engine import analyse
from exact.gamble import eligible_range
from exact.par import gamble_figures
from markov.round import round_result
from strips.model import (CREDITS, DEFAULT_MODE, FREE_SPINS, JACKPOT, PER_WILD, SCATTER, WILD, MathSet,
                          Phase)
from proofs.dask_runner import Cluster, progress_bar, run_tasks
from proofs.enumerate import fish_weight_table, window_tables
from exact.rounds import apply_sections, round_sections
from exact.rules import (beyond_count_tables, combination_wilds, feature_multiplier, has_wild_multipliers, initial_spins, retrigger_spins, round_rules, rules_of, scatter_codes, symbol_scatter_pay)
from exact.windows import WindowEvaluator

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
    if has_wild_multipliers(ms.model):
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
    respins : int
        Rounds with a respin (issue 16).
    wheels : dict str -> int
        Rounds that started each prize wheel.
    awards : dict (wheel, award text) -> int
        Rounds that won each award of each wheel.
    gamble_eligible, gamble_win, gamble_win2 : int
        Rounds whose win may be gambled; sum and sum of squares of the round
        wins after gambling every eligible win once (credits, credits^2).
    """

    rounds: int = 0
    win: int = 0
    win2: int = 0
    base_hits: int = 0
    base_win: int = 0
    scatter: dict = field(default_factory=dict)
    reach: list = field(default_factory=list)
    free_spins: int = 0
    respins: int = 0
    wheels: dict = field(default_factory=dict)
    awards: dict = field(default_factory=dict)
    gamble_eligible: int = 0
    gamble_win: int = 0
    gamble_win2: int = 0

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
        self.respins += o.respins
        for mine, theirs in ((self.wheels, o.wheels), (self.awards, o.awards)):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v
        self.gamble_eligible += o.gamble_eligible
        self.gamble_win += o.gamble_win
        self.gamble_win2 += o.gamble_win2

    def canonical(self) -> "Tally":
        """The same counts with every dict's keys sorted (equal tallies compare and print alike)."""
        return dataclasses.replace(self, scatter=dict(sorted(self.scatter.items())), reach=list(self.reach),
                                   wheels=dict(sorted(self.wheels.items())), awards=dict(sorted(self.awards.items())))


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
    trigger = np.array([initial_spins(model, n) for n in range(max_fs + 1)], dtype=np.int64)
    retrigger = None
    if model.retrigger and levels:
        top = sum(int(g.scatters.max(initial=0)) for g in bonus.groups)
        retrigger = np.array([retrigger_spins(model, n) for n in range(top + 1)], dtype=np.int64)
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
    return Spins(with_collect(s, draw, rng), s.keys, s.scatters, s.fish)


def with_collect(s: Spins, draw: FishDraw, rng: np.random.Generator) -> np.ndarray:
    """The spins' wins: ways pays (``s.ways``) plus KEY count x freshly drawn FISH values where a KEY
    shows (section 8: FISH values only pay with a KEY in the window); (n,) int64 credits."""
    collect = s.keys > 0
    win = s.ways.copy()
    if collect.any():
        win[collect] += s.keys[collect] * draw.sums(s.fish[collect], rng)
    return win


def play_features(rules, spins_now: np.ndarray, rng: np.random.Generator, sample) -> tuple[np.ndarray, list, int]:
    """Play free-spin features to their end, all at once; sections 10, 11 and :mod:`markov.retrigger`.

    Without retrigger the features go through the KEY-counter ladder; with a
    retrigger table (one level) the spins of all features are played in
    waves: every spin awarded and not yet played is played, its retriggers
    are added (capped: the spins awarded to a feature become ``min(cap,
    awarded + extra)``, the same as adding ``min(extra, cap - awarded)``
    spin by spin, :mod:`markov.retrigger`), until no feature has a spin left.

    Parameters
    ----------
    rules : Game or ModeGame
        ``multipliers``, ``thresholds``, ``level_spins`` (the ladder),
        ``retrigger`` (extra spins by trigger count, None without) and ``cap``.
    spins_now : numpy.ndarray, shape (m,), int64
        Initial free spins of each feature (each >= 1).
    sample : callable
        ``sample(level_index, n, rng) -> Spins``: ``n`` free spins of a level,
        ``ways`` = the spin win before the level multiplier, ``keys`` and
        ``scatters`` = the count that (re)triggers.

    Returns
    -------
    (win, reach, free_spins)
        Win of each feature, shape (m,) int64 credits (level multipliers
        included); features that played each level; free spins played.
    """
    m = len(spins_now)
    win = np.zeros(m, dtype=np.int64)
    reach = [0] * len(rules.multipliers)
    played_total = 0
    active = np.arange(m)
    if rules.retrigger is not None:
        reach[0] = m
        awarded, played = spins_now.copy(), np.zeros(m, dtype=np.int64)
        while len(active):
            total = int(spins_now.sum())
            played_total += total
            fs = sample(0, total, rng)
            win[active] += rules.multipliers[0] * segment_sums(fs.ways, spins_now)
            extra = segment_sums(rules.retrigger[np.minimum(fs.scatters, len(rules.retrigger) - 1)], spins_now)
            played += spins_now
            awarded = awarded + extra if rules.cap is None else np.minimum(rules.cap, awarded + extra)
            left = awarded - played
            go = left > 0
            active, awarded, played, spins_now = active[go], awarded[go], played[go], left[go]
    else:
        counter = np.zeros(m, dtype=np.int64)
        for lv in range(len(rules.multipliers)):
            if len(active) == 0:
                break
            reach[lv] = len(active)
            total = int(spins_now.sum())
            played_total += total
            fs = sample(lv, total, rng)
            win[active] += rules.multipliers[lv] * segment_sums(fs.ways, spins_now)
            counter += segment_sums(fs.keys, spins_now)
            if lv + 1 == len(rules.multipliers):
                break
            go = counter >= rules.thresholds[lv + 1]
            active, counter = active[go], counter[go]
            spins_now = np.full(len(active), rules.level_spins[lv + 1], dtype=np.int64)
    return win, reach, played_total


def simulate_block(game: Game, n: int, rng: np.random.Generator) -> Tally:
    """Simulate ``n`` whole game rounds (base spin + free spins), sections 2, 9, 10, 11
    (the features by :func:`play_features`)."""
    base = _phase_wins(game.base, game.base_fish, n, rng, game.base_wild)
    round_win = base.ways.copy()
    tally = Tally(rounds=n, base_hits=int(np.count_nonzero(base.ways)), base_win=int(base.ways.sum()))
    fs_counts = np.bincount(base.scatters)
    tally.scatter = {i: int(c) for i, c in enumerate(fs_counts) if c}
    initial = game.trigger[np.minimum(base.scatters, len(game.trigger) - 1)]
    active = np.flatnonzero(initial)

    def sample(lv, k, g):
        return _phase_wins(game.bonus, game.level_fish[lv], k, g, game.level_wild[lv])
    win, tally.reach, tally.free_spins = play_features(game, initial[active], rng, sample)
    round_win[active] += win
    tally.win = int(round_win.sum())
    tally.win2 = sum_of_squares(round_win)
    return tally


# --------------------------------------------------------------------------
# every rule: catalogue rules (issue 15), bet modes, respin, wheels, buys, gamble (issue 16)
# --------------------------------------------------------------------------
def column_counts(strips, rows: int, codes: Sequence[int]) -> tuple[np.ndarray, ...]:
    """Per reel and stop: how many cells of the window column show one of ``codes``.

    Returns one int64 array of shape (L_r,) per reel (rows ``s .. s+rows-1``
    with wrap-around, section 3).

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("wheel_game")
    >>> t = column_counts(ms.strips["base"], 3, (ms.model.code("BONUS"),))
    >>> len(t), int(t[0].max()) <= 3
    (5, True)
    """
    want = np.zeros(max([int(c.max(initial=0)) for c in strips.codes] + list(codes)) + 1, dtype=np.int64)
    want[list(codes)] = 1
    out = []
    for c in strips.codes:
        n = len(c)
        win = np.asarray(c, dtype=np.int64)[(np.arange(n)[:, None] + np.arange(rows)[None, :]) % n]
        out.append(want[win].sum(axis=1).astype(np.int64))
    return tuple(out)


def _reel_sum(tables: Sequence[np.ndarray], stops: np.ndarray) -> np.ndarray:
    return sum(t[stops[:, r]] for r, t in enumerate(tables))


@dataclass(frozen=True)
class SpinOut:
    """Results of ``n`` spins of one phase, arrays of shape (n,), int64.

    ``win``: credits before the phase multiplier (ways or line pays, every
    scatter's pays, collect with drawn FISH values, drawn WILD multipliers);
    ``keys``: KEY symbols; ``trigger``: the count that awards free spins (the
    triggering scatter's, WILDs that count as it included; 0 when a
    ``trigger_reels`` reel shows none); ``counts``: one array per counted
    symbol of :class:`PhaseSpins` (``counted``).
    """

    win: np.ndarray
    keys: np.ndarray
    trigger: np.ndarray
    counts: tuple[np.ndarray, ...]


@dataclass(frozen=True)
class PhaseSpins:
    """Spins of one phase with every rule of the game file (issue 15 and the counts issue 16 needs).

    Attributes
    ----------
    lengths : tuple of int
        Strip lengths (stops drawn uniformly and independently, reel by reel).
    tables : SpinTables or None
        The ways tables (:func:`spin_tables`, its scatter pays zeroed: they are
        paid per scatter symbol here); None when ``window`` evaluates.
    window : exact.windows.WindowEvaluator or None
        The literal window evaluator of line games and combination WILD
        multipliers (its outcome gives pay, keys and trigger count).
    fish : FishDraw
    wild : WildDraw or None
    trigger_shown : tuple of numpy.ndarray
        Per reel and stop: triggering scatter codes in the column.
    trigger_reels : tuple of int
        0-based reels that must each show a triggering scatter (issue 15).
    scatter_pays : tuple of (numpy.ndarray, tuple of numpy.ndarray)
        Per paying scatter symbol: its pay by count (credits) and its per-reel counts.
    counted : tuple of tuple of numpy.ndarray
        Per counted symbol (wheel symbols, the respin symbol): its per-reel counts
        (the symbol itself).
    """

    lengths: tuple[int, ...]
    tables: SpinTables | None
    window: object
    fish: FishDraw
    wild: WildDraw | None
    trigger_shown: tuple[np.ndarray, ...]
    trigger_reels: tuple[int, ...]
    scatter_pays: tuple
    counted: tuple

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """Stops of ``n`` spins, shape (n, reels) int64, drawn reel by reel (as :func:`random_indices`)."""
        return np.stack([rng.integers(0, k, n) for k in self.lengths], axis=1).reshape(n, len(self.lengths))

    def evaluate(self, stops: np.ndarray, rng: np.random.Generator) -> SpinOut:
        """Evaluate spins at ``stops`` (n, reels); FISH values and WILD multipliers drawn from ``rng``."""
        if self.window is not None:
            o = self.window.evaluate(stops, rng)
            win, keys, trigger = (np.asarray(o.pay, dtype=np.int64), np.asarray(o.keys, dtype=np.int64),
                                  np.asarray(o.trigger_count, dtype=np.int64))
        else:
            tabs = self.tables
            s = spins(tabs, group_indices(tabs, stops), all_fish=False,
                      wild=(self.wild, rng) if tabs.wild is not None else None)
            win, keys = with_collect(s, self.fish, rng), s.keys
            for pays, tables in self.scatter_pays:
                win += pays[np.minimum(_reel_sum(tables, stops), len(pays) - 1)]
            trigger = _reel_sum(self.trigger_shown, stops)
            for r in self.trigger_reels:
                trigger = trigger * (self.trigger_shown[r][stops[:, r]] > 0)
        counts = tuple(_reel_sum(t, stops) for t in self.counted)
        return SpinOut(win, keys, trigger, counts)

    def spins(self, n: int, rng: np.random.Generator) -> Spins:
        """``n`` random spins as :class:`Spins` (``ways`` = win, ``scatters`` = trigger count) for the features."""
        o = self.evaluate(self.draw(n, rng), rng)
        return Spins(o.win, o.keys, o.trigger, None)


def phase_spins(ms: MathSet, phase: Phase, counted: Sequence[str] = (), limit: int = GROUP_LIMIT) -> PhaseSpins:
    """The :class:`PhaseSpins` of ``phase`` of ``ms`` (a mode's math set for a bet mode).

    Line games and combination WILD multipliers are evaluated by the literal
    window evaluator; every other game by the ways tables of :func:`spin_tables`.

    Raises
    ------
    ValueError
        As :func:`spin_tables`; a FISH or drawn WILD without a weight table for the phase.
    """
    model = ms.model
    strips = ms.phase_strips(phase)
    window = tables = wild = None
    fish = FishDraw((), ())
    if model.is_lines or combination_wilds(model):
        window = WindowEvaluator(ms, phase)
    else:
        tables = spin_tables(ms, phase, limit)
        tables = dataclasses.replace(tables, scatter_pays=np.zeros(1, dtype=np.int64))
        fish = fish_draw(ms, phase, tables.fish_names)
        if tables.wild is not None and tables.wild.names:
            wild = wild_draw(ms, phase, tables.wild.names)
    scatter_pays = []
    for s in model.of_kind(SCATTER):
        if s.pays and any(s.pays):
            t = column_counts(strips, model.rows, scatter_codes(model, s))
            top = sum(int(x.max(initial=0)) for x in t)
            scatter_pays.append((np.array([symbol_scatter_pay(s, c) for c in range(top + 1)], dtype=np.int64), t))
    return PhaseSpins(
        lengths=strips.lengths, tables=tables, window=window, fish=fish, wild=wild,
        trigger_shown=column_counts(strips, model.rows, scatter_codes(model)),
        trigger_reels=tuple(sorted(model.trigger_reels)), scatter_pays=tuple(scatter_pays),
        counted=tuple(column_counts(strips, model.rows, (model.code(name),)) for name in counted))


@dataclass(frozen=True)
class WheelDraw:
    """One prize wheel's draws (issue 16): prize table by symbol count, then a weighted award.

    ``table[c]`` the prize table index for ``c`` wheel symbols (-1: no
    wheel), the last entry for every larger count; per table the cumulative
    integer weights and per award its credits (a jackpot's credits
    included), its free spins, and the index of its text in ``texts``.
    """

    name: str
    table: np.ndarray
    cumulative: tuple[np.ndarray, ...]
    credits: tuple[np.ndarray, ...]
    free_spins: tuple[np.ndarray, ...]
    text: tuple[np.ndarray, ...]
    texts: tuple[str, ...]


def wheel_draw(model, wheel, top: int) -> WheelDraw:
    """The :class:`WheelDraw` of ``wheel`` for symbol counts 0 .. ``top``."""
    names = list(wheel.prizes)
    table = np.array([-1 if wheel.table_for(c) is None else names.index(wheel.table_for(c).name)
                      for c in range(top + 1)], dtype=np.int64)
    texts: list[str] = []
    cum, credits, spins_, text = [], [], [], []
    for name in names:
        t = wheel.prizes[name]
        cum.append(np.cumsum(np.array(t.weights, dtype=np.int64)))
        credits.append(np.array([model.jackpots[a.jackpot] if a.kind == JACKPOT else a.amount if a.kind == CREDITS
                                 else 0 for a in t.awards], dtype=np.int64))
        spins_.append(np.array([a.amount if a.kind == FREE_SPINS else 0 for a in t.awards], dtype=np.int64))
        for a in t.awards:
            if a.text not in texts:
                texts.append(a.text)
        text.append(np.array([texts.index(a.text) for a in t.awards], dtype=np.int64))
    return WheelDraw(wheel.name, table, tuple(cum), tuple(credits), tuple(spins_), tuple(text), tuple(texts))


@dataclass(frozen=True)
class GambleDraw:
    """The gamble policy of the engine (issue 16): every eligible round win gambled once.

    A round win x with ``low <= x <= high`` becomes ``multiplier * x`` when a
    uniform integer below ``denominator`` is below ``numerator``, else 0.
    """

    low: int
    high: int
    multiplier: int
    numerator: int
    denominator: int


@dataclass(frozen=True)
class ModeGame:
    """Prepared tables of one bet mode of a game with any rule of the game file (issue 15, 16).

    Attributes
    ----------
    base : PhaseSpins
        The mode's base spin; ``counted`` = the wheel symbols, then the respin symbol.
    levels : tuple of PhaseSpins
        One per free-spin level.
    multipliers, thresholds, level_spins, retrigger, cap
        The features as in :class:`Game` (read by :func:`play_features`).
    trigger : numpy.ndarray
        Initial free spins by trigger count.
    feature_multiplier : numpy.ndarray or None
        ``multiplier_by_trigger`` by trigger count (None without the rule).
    wheels : tuple of WheelDraw
    respin : (int, tuple of numpy.ndarray) or None
        The respin count and the per-reel counts of its symbol (held reels show it).
    gamble : GambleDraw or None
        Drawn in the default mode only.
    """

    base: PhaseSpins
    levels: tuple[PhaseSpins, ...]
    multipliers: tuple[int, ...]
    thresholds: tuple[int, ...]
    level_spins: tuple[int | None, ...]
    trigger: np.ndarray
    retrigger: np.ndarray | None = None
    cap: int | None = None
    feature_multiplier: np.ndarray | None = None
    wheels: tuple[WheelDraw, ...] = ()
    respin: tuple | None = None
    gamble: GambleDraw | None = None
    #: (rule, its configuration, bet) of every rule acting on the round's total win (a win cap), applied
    #: in registry order by the rule's ``vector_step`` before the gamble.
    round_steps: tuple = ()

    def sample(self, lv: int, n: int, rng: np.random.Generator) -> Spins:
        """``n`` free spins of level ``lv`` (0-based) for :func:`play_features`."""
        return self.levels[lv].spins(n, rng)


@dataclass(frozen=True)
class BuyGame:
    """A bought feature (issue 16): the free spins of ``spins`` initial spins of ``mode``, no base spin."""

    mode: ModeGame
    spins: int


def _top(tables: Sequence[np.ndarray]) -> int:
    return sum(int(t.max(initial=0)) for t in tables)


def prepare_mode(ms: MathSet, name: str = DEFAULT_MODE, limit: int = GROUP_LIMIT) -> ModeGame:
    """Tables and samplers of bet mode ``name`` of ``ms`` (``ms.mode(name)``), every rule.

    Raises
    ------
    ValueError
        As :func:`phase_spins`; ``unsupported rule ...`` for a rule the simulator cannot play.
    KeyError
        If the game has no mode ``name``.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> g = prepare_mode(load_math_set("wheel_game"), "fortune_bet")
    >>> g.respin[0], [w.name for w in g.wheels], int(g.trigger[5])
    (2, ['bonus'], 8)
    """
    mset = ms.mode(name)
    model = mset.model
    counted = [w.symbol for w in model.wheels] + ([model.respin.symbol] if model.respin else [])
    base = phase_spins(mset, model.base_phase, counted, limit)
    level_phases = [model.level_phase(lv) for lv in model.levels]
    levels = []
    for p in level_phases:
        same = levels and p.strips == level_phases[0].strips
        ps = phase_spins(mset, p, (), limit) if not same or base.window is not None else \
            dataclasses.replace(levels[0], fish=fish_draw(mset, p, levels[0].tables.fish_names),
                                wild=(wild_draw(mset, p, levels[0].tables.wild.names)
                                      if levels[0].wild is not None else None))
        levels.append(ps)
    top = _top(base.trigger_shown)
    trigger = np.array([initial_spins(model, c) for c in range(top + 1)], dtype=np.int64)
    retrigger = None
    if model.retrigger and levels:
        rtop = _top(levels[0].trigger_shown)
        retrigger = np.array([retrigger_spins(model, c) for c in range(rtop + 1)], dtype=np.int64)
    fmult = (np.array([feature_multiplier(model, c) for c in range(top + 1)], dtype=np.int64)
             if model.multiplier_by_trigger else None)
    wheels = tuple(wheel_draw(model, w, _top(base.counted[i])) for i, w in enumerate(model.wheels))
    respin = (model.respin.count, base.counted[-1]) if model.respin else None
    g = model.gamble
    gamble = None if g is None or name != DEFAULT_MODE else GambleDraw(
        g.min_win, g.max_win // g.multiplier, g.multiplier, g.probability.numerator, g.probability.denominator)
    return ModeGame(base=base, levels=tuple(levels), multipliers=tuple(lv.multiplier for lv in model.levels),
                    thresholds=tuple(lv.threshold for lv in model.levels),
                    level_spins=tuple(lv.spins for lv in model.levels), trigger=trigger, retrigger=retrigger,
                    cap=model.retrigger_cap if retrigger is not None else None, feature_multiplier=fmult,
                    wheels=wheels, respin=respin, gamble=gamble,
                    round_steps=tuple((r, r.config(model), model.bet) for r in rules_of(model) if r.acts_on_round))


def _starts_feature(g: ModeGame, trigger: np.ndarray, counts: Sequence[np.ndarray]) -> np.ndarray:
    """Whether each window starts the free spins or a wheel (:func:`exact.bonus.starts_feature`)."""
    starts = g.trigger[np.minimum(trigger, len(g.trigger) - 1)] > 0
    for w, c in zip(g.wheels, counts):
        starts |= w.table[np.minimum(c, len(w.table) - 1)] >= 0
    return starts


def respin_stops(g: ModeGame, stops: np.ndarray, new: np.ndarray) -> np.ndarray:
    """The respin's stops: reels whose window shows the respin symbol hold ``stops``, the others take ``new``.

    >>> import numpy as np
    >>> g = ModeGame(None, (), (), (), (), np.zeros(1, np.int64), respin=(1, (np.array([0, 1]), np.array([1, 0]))))
    >>> respin_stops(g, np.array([[1, 1], [0, 0]]), np.array([[7, 8], [9, 6]])).tolist()
    [[1, 8], [9, 0]]
    """
    held = np.stack([t[stops[:, r]] > 0 for r, t in enumerate(g.respin[1])], axis=1)
    return np.where(held, stops, new)


def _spin_wheels(g: ModeGame, counts: Sequence[np.ndarray], rng: np.random.Generator, tally: "Tally"):
    """Draw the started wheels; returns (credits per round (n,), per wheel the free spins it awards per round (n,)).

    Each wheel's free-spin award is its own feature (:mod:`markov.bonus`), so
    the awards of several wheels are kept apart.
    """
    n = len(counts[0]) if counts else 0
    credits = np.zeros(n, dtype=np.int64)
    awarded = []
    for w, c in zip(g.wheels, counts):
        award_spins = np.zeros(n, dtype=np.int64)
        awarded.append(award_spins)
        t = w.table[np.minimum(c, len(w.table) - 1)]
        started = int(np.count_nonzero(t >= 0))
        if started:
            tally.wheels[w.name] = tally.wheels.get(w.name, 0) + started
        for ti in range(len(w.cumulative)):
            rows = np.flatnonzero(t == ti)
            if not len(rows):
                continue
            a = np.searchsorted(w.cumulative[ti], rng.integers(0, int(w.cumulative[ti][-1]), len(rows)), side="right")
            credits[rows] += w.credits[ti][a]
            award_spins[rows] += w.free_spins[ti][a]
            for k, v in enumerate(np.bincount(w.text[ti][a], minlength=len(w.texts))):
                if v:
                    key = (w.name, w.texts[k])
                    tally.awards[key] = tally.awards.get(key, 0) + int(v)
    return credits, awarded


def simulate_mode_block(g: ModeGame, n: int, rng: np.random.Generator) -> "Tally":
    """Simulate ``n`` whole rounds of one bet mode with every rule (issue 15, 16).

    A round (``exact/bonus.py``, ``markov/bonus.py``): the base spin; if the
    mode has a respin, the window shows exactly its count of the respin symbol
    and starts no feature, a respin (reels showing the symbol hold, the others
    take new stops; its win is added and its window decides the features);
    the free spins of the deciding window's trigger count (times the
    ``multiplier_by_trigger`` value of that count); each started wheel draws
    one award (credits, a jackpot's credits, or free spins played from level 1
    as their own feature, after the scatter-triggered one).  In the default
    mode of a game with a gamble, every eligible round win is then gambled once
    (tallied apart: the round win excludes it, as every RTP but the gamble's).
    """
    stops = g.base.draw(n, rng)
    base = g.base.evaluate(stops, rng)
    tally = Tally(rounds=n, base_hits=int(np.count_nonzero(base.win)), base_win=int(base.win.sum()))
    round_win = base.win.copy()
    trigger, counts = base.trigger, list(base.counts)
    if g.respin is not None:
        respun = np.flatnonzero((counts[-1] == g.respin[0]) & ~_starts_feature(g, trigger, counts))
        tally.respins = len(respun)
        if len(respun):
            st = respin_stops(g, stops[respun], g.base.draw(len(respun), rng))
            again = g.base.evaluate(st, rng)
            round_win[respun] += again.win
            trigger = trigger.copy()
            trigger[respun] = again.trigger
            for i, c in enumerate(again.counts):
                counts[i] = counts[i].copy()
                counts[i][respun] = c
    tally.scatter = {i: int(c) for i, c in enumerate(np.bincount(trigger)) if c}
    initial = g.trigger[np.minimum(trigger, len(g.trigger) - 1)]
    active = np.flatnonzero(initial)
    win, tally.reach, tally.free_spins = play_features(g, initial[active], rng, g.sample)
    if g.feature_multiplier is not None:
        win = win * g.feature_multiplier[np.minimum(trigger[active], len(g.feature_multiplier) - 1)]
    round_win[active] += win
    if g.wheels:
        credits, awarded = _spin_wheels(g, counts, rng, tally)
        round_win += credits
        for award_spins in awarded:   # each wheel's free spins: a feature of its own
            rows = np.flatnonzero(award_spins)
            if len(rows):
                win, _, played = play_features(g, award_spins[rows], rng, g.sample)
                round_win[rows] += win
                tally.free_spins += played
    for rule, config, bet in g.round_steps:      # a win cap: the round's total, before the gamble
        round_win = rule.vector_step(config, bet, round_win)
    tally.win = int(round_win.sum())
    tally.win2 = sum_of_squares(round_win)
    if g.gamble is not None:
        gm = g.gamble
        rows = np.flatnonzero((round_win >= gm.low) & (round_win <= gm.high))
        tally.gamble_eligible = len(rows)
        after = round_win.copy()
        won = rng.integers(0, gm.denominator, len(rows)) < gm.numerator
        after[rows] = np.where(won, gm.multiplier * round_win[rows], 0)
        tally.gamble_win = int(after.sum())
        tally.gamble_win2 = sum_of_squares(after)
    return tally


def simulate_buy_block(g: BuyGame, n: int, rng: np.random.Generator) -> "Tally":
    """Simulate ``n`` bought features: each the free spins of ``g.spins`` initial spins (no base spin, no wheel)."""
    win, reach, played = play_features(g.mode, np.full(n, g.spins, dtype=np.int64), rng, g.mode.sample)
    return Tally(rounds=n, win=int(win.sum()), win2=sum_of_squares(win), reach=reach, free_spins=played)


def stream_seed(seed: int, stream: int, unit: int = 0) -> np.random.SeedSequence:
    """The seed of stream ``stream`` of unit ``unit`` (a bet mode or buy, :class:`Unit`) of a run with ``seed``.

    Unit 0 (the default mode) uses ``SeedSequence(seed).spawn(...)[stream]``
    (spawn key ``(stream,)``) as a game without modes always did; unit
    ``k >= 1`` uses spawn key ``(stream, k)``: every stream of every unit
    its own, whatever the other units' rounds.

    >>> stream_seed(7, 3).spawn_key == np.random.SeedSequence(7).spawn(5)[3].spawn_key
    True
    >>> stream_seed(7, 3, 2).spawn_key
    (3, 2)
    """
    return np.random.SeedSequence(seed, spawn_key=(stream,) if unit == 0 else (stream, unit))


@dataclass(frozen=True)
class Unit:
    """What one part of a run simulates: a bet mode's rounds or a buy's bought features (issue 16).

    ``key`` numbers the units of the game (the default mode 0, the other
    modes in file order, then the buys): the streams' seeds
    (:func:`stream_seed`).
    """

    kind: str
    name: str
    key: int

    @property
    def label(self) -> str:
        """``mode NAME`` or ``buy NAME``."""
        return f"{self.kind} {self.name}"


def units_of(ms: MathSet, mode: str | None = None, buy: str | None = None) -> list[Unit]:
    """Every bet mode (the default first) and every buy of ``ms``; only ``mode`` or only ``buy`` when given.

    Raises
    ------
    ValueError
        If the game has no such mode or buy.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> [u.label for u in units_of(load_math_set("wheel_game"))]
    ['mode default', 'mode fortune_bet', 'mode fortune_spins']
    """
    modes = ms.mode_names
    out = [Unit("mode", m, i) for i, m in enumerate(modes)] + \
        [Unit("buy", b.name, len(modes) + j) for j, b in enumerate(ms.model.buys)]
    if mode is not None or buy is not None:
        kind, name = ("mode", mode) if mode is not None else ("buy", buy)
        picked = [u for u in out if u.kind == kind and u.name == name]
        if not picked:
            have = ", ".join(u.name for u in out if u.kind == kind) or "none"
            raise ValueError(f"no {kind} {name!r} (the game's: {have})")
        return picked
    return out


def split_rounds(rounds: int, n: int) -> list[int]:
    """``rounds`` split evenly over ``n`` units, the first units taking the remainder.

    >>> split_rounds(10, 3)
    [4, 3, 3]

    Raises
    ------
    ValueError
        If ``rounds`` < ``n`` (every unit needs a round).
    """
    if rounds < n:
        raise ValueError(f"--rounds {rounds} is fewer than the {n} bet modes and buys to simulate "
                         f"(each gets an even share; --mode or --buy simulates one)")
    return [rounds // n + (1 if i < rounds % n else 0) for i in range(n)]


def is_plain(ms: MathSet) -> bool:
    """True for a ways game without the rules of issue 15 and 16: the fast tables of :class:`Game` play it.

    >>> from strips.loader import load_math_set
    >>> is_plain(load_math_set("rules_page")), is_plain(load_math_set("wheel_game"))
    (True, False)
    """
    return (not beyond_count_tables(ms.model) and not round_rules(ms.model)
            and not any(r.acts_on_round for r in rules_of(ms.model)))


def prepare_units(ms: MathSet, units: Sequence[Unit], limit: int = GROUP_LIMIT) -> tuple:
    """The prepared game of each unit: :class:`Game` (plain games), :class:`ModeGame` or :class:`BuyGame`."""
    out, default = [], None
    for u in units:
        if u.kind == "mode":
            out.append(prepare(ms, limit) if is_plain(ms) else prepare_mode(ms, u.name, limit))
        else:
            default = default or prepare_mode(ms, DEFAULT_MODE, limit)
            b = next(b for b in ms.model.buys if b.name == u.name)
            out.append(BuyGame(default, initial_spins(ms.mode(DEFAULT_MODE).model, b.trigger)))
    return tuple(out)


def simulate_game_block(game, n: int, rng: np.random.Generator) -> Tally:
    """``n`` rounds of a prepared unit: :func:`simulate_block`, :func:`simulate_mode_block` or :func:`simulate_buy_block`."""
    if isinstance(game, Game):
        return simulate_block(game, n, rng)
    if isinstance(game, ModeGame):
        return simulate_mode_block(game, n, rng)
    return simulate_buy_block(game, n, rng)


def _run_streams(games: tuple, task: tuple[int, int, int, int, int, int]) -> Tally:
    """One task on a worker: streams ``first .. last - 1`` of unit ``u`` (``rounds`` rounds, stream key ``key``)."""
    u, first, last, seed, key, rounds = task
    tally = Tally()
    for i in range(first, last):
        n = min(STREAM, rounds - i * STREAM)
        tally.add(simulate_game_block(games[u], n, np.random.default_rng(stream_seed(seed, i, key))))
    return tally


def simulate_units(ms: MathSet, rounds: Sequence[int], seed: int, units: Sequence[Unit], games: tuple | None = None,
                   workers: int | None = 1, progress: bool = False, cluster: Cluster | None = None,
                   task_streams: int | None = None) -> list[Tally]:
    """Simulate ``rounds[i]`` rounds of each unit (bet mode or buy) with seed ``seed``; one Tally per unit.

    Each unit's rounds are cut into streams of :data:`STREAM` rounds seeded by
    :func:`stream_seed`, and tasks are ranges of ``task_streams`` streams of
    one unit returning exact integer tallies, so every tally depends only on
    ``(seed, unit, its rounds)``: not on the cluster, the number of workers or
    the task size.

    Raises
    ------
    ValueError
        If a unit has fewer than 1 round or ``seed`` < 0, a rule the simulator
        cannot play, or the scheduler cannot be reached.
    """
    if any(r < 1 for r in rounds):
        raise ValueError("rounds must be 1 or more")
    if seed < 0:
        raise ValueError("seed must be 0 or more")
    cluster = cluster or Cluster(workers=workers)
    games = games if games is not None else prepare_units(ms, units)
    per = task_streams or TASK_STREAMS

    def tasks():   # generated as they are run: 10^13 rounds are 10^7 tasks, never held in a list
        for u, (unit, n) in enumerate(zip(units, rounds)):
            nstreams = -(-n // STREAM)
            for a in range(0, nstreams, per):
                yield u, a, min(a + per, nstreams), seed, unit.key, n

    tallies = [Tally() for _ in units]
    total = sum(rounds)
    bar = progress_bar(total, 0, "round", "simulate", progress)
    try:
        for task, t in run_tasks(cluster, _run_streams, games, tasks(), small=total < SMALL_RUN):
            tallies[task[0]].add(t)
            if bar is not None:
                bar.update(t.rounds)
    finally:
        if bar is not None:
            bar.close()
    return [t.canonical() for t in tallies]


def simulate(ms: MathSet, rounds: int, seed: int, workers: int | None = 1, game=None,
             progress: bool = False, cluster: Cluster | None = None, task_streams: int | None = None) -> Tally:
    """Simulate ``rounds`` whole game rounds of the default mode with seed ``seed``.

    The rounds are cut into streams of :data:`STREAM` rounds; stream ``i``
    draws from ``numpy.random.default_rng(SeedSequence(seed).spawn(...)[i])``
    and tasks are ranges of ``task_streams`` streams, so the tally depends
    only on ``(seed, rounds)``: not on the cluster, the number of workers or
    the task size.  :func:`simulate_units` runs every mode and buy.

    Parameters
    ----------
    game : Game or ModeGame, optional
        The prepared default mode (:func:`prepare_units`).
    workers : int, optional
        Shorthand for ``Cluster(workers=workers)`` when ``cluster`` is None.
    cluster : Cluster, optional
        Where the tasks run (:mod:`proofs.dask_runner`); small runs stay in process.
    task_streams : int, optional
        Streams per task (default :data:`TASK_STREAMS`).

    Raises
    ------
    ValueError
        If ``rounds`` < 1 or ``seed`` < 0, or the scheduler cannot be reached.
    """
    unit = Unit("mode", DEFAULT_MODE, 0)
    return simulate_units(ms, [rounds], seed, [unit], None if game is None else (game,), workers, progress,
                          cluster, task_streams)[0]


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
class UnitReport:
    """The figures of one unit (a bet mode or a buy) beside the exact ones.

    Attributes
    ----------
    unit : Unit
    cost : int
        Credits per round (per buy).
    rounds : int
    rtp : Figure
        Fraction of the cost per round; its interval uses the exact SD.
    sd_exact, sd_sample : float
        Exact and sample standard deviation of the round win, credits.
    hit_rate : Figure or None
        P(base spin win > 0) (None for a buy: no base spin).
    trigger : tuple of (int, Figure)
        P(the window that decides the features shows n triggering scatters), each triggering n.
    reach : tuple of (int, Figure)
        P(level l is played in a round) for the scatter-triggered features
        (a buy: levels 2 and up, its level 1 being certain).
    respin : Figure or None
        P(the round has a respin).
    wheels : tuple of (str, Figure)
        P(the wheel starts), per wheel.
    awards : tuple of (str, str, Figure)
        (wheel, award text, P(the round wins it)).
    gamble : tuple of (str, Figure)
        ``rtp_gamble_once`` (interval with an upper bound of the SD, see
        :func:`gamble_sd_bound`) and ``eligible_probability``.
    """

    unit: Unit
    cost: int
    rounds: int
    rtp: Figure
    sd_exact: float = 0.0
    sd_sample: float = 0.0
    hit_rate: Figure | None = None
    trigger: tuple = ()
    reach: tuple = ()
    respin: Figure | None = None
    wheels: tuple = ()
    awards: tuple = ()
    gamble: tuple = ()
    gamble_sd: float = 0.0

    @property
    def figures(self) -> list[Figure]:
        """Every figure of the unit, RTP first."""
        return ([self.rtp] + ([self.hit_rate] if self.hit_rate else []) + [f for _, f in self.trigger]
                + [f for _, f in self.reach] + ([self.respin] if self.respin else []) + [f for _, f in self.wheels]
                + [f for _, _, f in self.awards] + [f for _, f in self.gamble])

    def to_json(self) -> dict:
        """The unit's JSON object (``modes.NAME`` / ``buys.NAME`` of ``rtp simulate --json``)."""
        out = {"rounds": self.rounds, "cost": self.cost, "rtp_estimate": self.rtp.estimate,
               "rtp_interval": list(self.rtp.interval), "rtp": _q(self.rtp.exact), "rtp_inside": self.rtp.inside,
               "sd_exact": self.sd_exact, "sd_sample": self.sd_sample}
        if self.hit_rate:
            out["hit_rate"] = self.hit_rate.to_json()
        if self.trigger:
            out["trigger_rates"] = {str(n): f.to_json() for n, f in self.trigger}
        out["level_reach_rates"] = {str(n): f.to_json() for n, f in self.reach}
        if self.respin:
            out["respin_rate"] = self.respin.to_json()
        if self.wheels:
            out["wheel_rates"] = {w: f.to_json() for w, f in self.wheels}
            out["award_rates"] = {w: {t: f.to_json() for ww, t, f in self.awards if ww == w} for w, _ in self.wheels}
        if self.gamble:
            out["gamble"] = {k: f.to_json() for k, f in self.gamble}
            out["gamble"]["sd_bound"] = self.gamble_sd
        out["all_inside"] = all(f.inside for f in self.figures)
        return out


@dataclass(frozen=True)
class SimulationReport:
    """A simulation's figures beside the exact ones: one :class:`UnitReport` per bet mode and buy simulated.

    Attributes
    ----------
    rounds, seed : int
        All rounds of the run; its seed.
    units : tuple of UnitReport
        The first is the default mode unless one mode or buy was asked for.
    level : float
        Confidence of each interval (Bonferroni over every figure of every unit).
    seconds : float
        Wall time (run-dependent).
    where : str
        Where the tasks ran.
    split : str
        How the rounds were split over the units ("" for one unit).
    gamble_not_tested : str
        Why the gamble is simulated but not compared (the engine refuses its
        distribution for the rule named); "" otherwise.
    """

    rounds: int
    seed: int
    units: tuple[UnitReport, ...]
    level: float = 0.99
    seconds: float = 0.0
    where: str = ""
    split: str = ""
    gamble_not_tested: str = ""

    # the first unit's figures, as the report of a game without modes always showed them
    @property
    def rtp(self) -> Figure:
        return self.units[0].rtp

    @property
    def hit_rate(self) -> Figure | None:
        return self.units[0].hit_rate

    @property
    def trigger(self) -> tuple:
        return self.units[0].trigger

    @property
    def reach(self) -> tuple:
        return self.units[0].reach

    @property
    def sd_exact(self) -> float:
        return self.units[0].sd_exact

    @property
    def sd_sample(self) -> float:
        return self.units[0].sd_sample

    @property
    def figures(self) -> list[Figure]:
        """Every figure of every unit: RTP, hit rate, trigger rates, level-reach rates, then the issue 16 rates."""
        return [f for u in self.units for f in u.figures]

    @property
    def passed(self) -> bool:
        """Whether every exact value lies inside its interval (a correct game fails at most 1% of seeds)."""
        return all(f.inside for f in self.figures)

    @property
    def method(self) -> str:
        """The statistics in one sentence."""
        k = len(self.figures)
        text = (f"{k} intervals at {self.level:.4%} each (Bonferroni: all hold together with probability "
                f">= {FAMILY_LEVEL:.0%}); RTP: normal interval with the exact SD; rates: Clopper-Pearson")
        if any(u.gamble for u in self.units):
            text += ("; RTP with the gamble: normal interval with an upper bound of its SD from the engine's "
                     "exact moments")
        if self.split:
            text += f"; {self.split}"
        if self.gamble_not_tested:
            text += f"; the gamble is not tested: {self.gamble_not_tested}"
        return text

    def to_json(self) -> dict:
        """The JSON object of ``rtp simulate --json`` (rates as fractions of 1, RTP as a fraction of the bet).

        The top-level figures are the first unit's (the default mode); a game
        with bet modes, buys, a respin, wheels or a gamble adds ``modes`` and
        ``buys`` (one object per unit, :meth:`UnitReport.to_json`),
        ``rounds_split`` and, with a gamble, ``gamble``.
        """
        first = self.units[0]
        out = {"rounds": self.rounds, "seed": self.seed,
               "rtp_estimate": self.rtp.estimate, "rtp_interval": list(self.rtp.interval),
               "rtp": _q(self.rtp.exact), "rtp_inside": self.rtp.inside,
               "sd_exact": self.sd_exact, "sd_sample": self.sd_sample}
        if self.hit_rate is not None:
            out.update({"hit_rate_estimate": self.hit_rate.estimate, "hit_rate_interval": list(self.hit_rate.interval),
                        "hit_rate": _q(self.hit_rate.exact), "hit_rate_inside": self.hit_rate.inside})
        out.update({"trigger_rates": {str(n): f.to_json() for n, f in self.trigger},
                    "level_reach_rates": {str(n): f.to_json() for n, f in self.reach}})
        if len(self.units) > 1 or first.unit.key != 0 or first.figures != [first.rtp, first.hit_rate] + \
                [f for _, f in first.trigger] + [f for _, f in first.reach]:
            out["modes"] = {u.unit.name: u.to_json() for u in self.units if u.unit.kind == "mode"}
            out["buys"] = {u.unit.name: u.to_json() for u in self.units if u.unit.kind == "buy"}
            out["rounds_split"] = self.split or f"all {self.rounds:,} rounds: {first.unit.label}"
            if first.gamble:
                out["gamble"] = out["modes"][first.unit.name]["gamble"]
        if self.gamble_not_tested:
            out["gamble_not_tested"] = self.gamble_not_tested
        out.update({"interval_level": self.level, "family_level": FAMILY_LEVEL, "method": self.method,
                    "all_inside": self.passed,
                    "seconds": round(self.seconds, 3),
                    "rounds_per_second": round(self.rounds / self.seconds) if self.seconds else None})
        return out


def exact_values(ms: MathSet):
    """(RoundResult, base PhaseAnalysis) of the exact engine and the ladder chain (a game without issue 16 rules)."""
    a = analyse(ms)
    return round_result(ms.model, a.base, a.levels), a.base


@dataclass(frozen=True)
class Exact:
    """The exact figures a run compares with (:func:`exact_units`).

    ``modes``: name -> :class:`exact.bonus.ModeResult`; ``buys``: name ->
    :class:`exact.bonus.BuyResult`; ``gamble``: the default mode's
    :class:`exact.gamble.GambleResult` or None (no gamble, or its
    distribution refused: ``gamble_refused``).
    """

    modes: dict
    buys: dict
    gamble: object = None
    gamble_refused: str = ""


def exact_units(ms: MathSet, units: Sequence[Unit]) -> Exact:
    """The exact figures of the units' modes and buys, and the default mode's gamble (:mod:`exact.bonus`,
    :mod:`exact.gamble`): the engine's definitions the simulation is compared with.

    Raises
    ------
    ValueError
        As :func:`exact.bonus.analyse_mode` (a rule the engine does not model).
    """
    default = analyse_mode(ms)
    sections = round_sections(ms)      # a win cap: the default mode's round is the capped one
    if sections:
        default = dataclasses.replace(default, round=apply_sections(default.round, sections))
    modes = {DEFAULT_MODE: default}
    for u in units:
        if u.kind == "mode" and u.name not in modes:
            modes[u.name] = analyse_mode(ms, u.name)
    buys = analyse_buys(ms, default) if any(u.kind == "buy" for u in units) else {}
    g = gamble_figures(default) if any(u.kind == "mode" and u.name == DEFAULT_MODE for u in units) else {}
    res = g.get("gamble_result")
    refused = g.get("gamble_refused", "")
    return Exact(modes, buys, None if refused else res, refused)


def gamble_sd_bound(g, gamble, second: Fraction, cost: int) -> float:
    """An upper bound of the SD of the round win when every eligible win is gambled once, credits.

    ``g`` the engine's :class:`exact.gamble.GambleResult`, ``gamble`` the
    game's :class:`strips.model.Gamble`, ``second`` = E[X^2] of the round win
    X, ``cost`` the bet.  With E the eligibility, m the multiplier and p the
    probability: E[X_g^2] = E[X^2] + (p m^2 - 1) E[X^2 E].  An eligible x
    lies in [low, high], so ``E[X^2 E] <= min(high E[X E], E[X^2])`` and
    ``E[X^2 E] >= max(low E[X E], E[X E]^2 / P(E))`` (Cauchy-Schwarz); the
    side that makes the variance largest bounds it, so an interval with it
    holds at least at its stated level.

    >>> from strips.model import Gamble
    >>> from exact.gamble import gamble_result
    >>> gm = Gamble(min_win=1, max_win=4, multiplier=2, probability=Fraction(1, 2))
    >>> r = gamble_result(gm, 1, Fraction(1), Fraction(1), Fraction(1))   # X = 1 always: X_g = 2 or 0, SD 1
    >>> round(gamble_sd_bound(r, gm, Fraction(1), 1), 6)   # E[X^2 E] = 1 <= min(2 x E[X E], E[X^2]): exact here
    1.0
    """
    low, high = eligible_range(gamble)
    c = gamble.probability * gamble.multiplier ** 2 - 1
    e1, pe = g.eligible_win, g.eligible_probability
    if c >= 0:
        x2e = min(high * e1, second)
    else:
        x2e = max(low * e1, e1 * e1 / pe if pe else Fraction(0))
    bound = second + c * x2e
    mean = g.rtp_gamble_once * cost
    return fraction_sqrt(max(bound - mean * mean, Fraction(0)))


def _mode_report(unit: Unit, tally: Tally, rr, base, level: float, gamble=None) -> UnitReport:
    """A bet mode's figures: RTP, hit rate, trigger, reach, respin, wheel and award rates, the gamble."""
    n = tally.rounds
    prefix = "" if unit.key == 0 else f"{unit.name}: "

    def rate(name, k, exact_value):
        return Figure(prefix + name, k / n, proportion_interval(k, n, level), exact_value, level)

    cost = rr.bet
    sd = fraction_sqrt(rr.variance)
    lo, hi = mean_interval(tally.win, n, sd, level)
    rtp = Figure(prefix + "RTP", tally.win / n / cost, (lo / cost, hi / cost), rr.rtp, level)
    hit = rate("hit rate (base spin)", tally.base_hits, base.hit_frequency)
    trig = tuple((c, rate(f"trigger {c} FS", tally.scatter.get(c, 0), p)) for c, p in sorted(rr.trigger_prob.items()))
    reach = tuple((i + 1, rate(f"reach level {i + 1}", tally.reach[i] if i < len(tally.reach) else 0, p))
                  for i, p in enumerate(rr.reach))
    respin = rate("respin", tally.respins, rr.respin_prob) if rr.respin_prob else None
    wheels = tuple((w.name, rate(f"wheel {w.name}", tally.wheels.get(w.name, 0), w.prob)) for w in rr.wheels.values())
    awards = tuple((w.name, t, rate(f"{w.name}: {t}", tally.awards.get((w.name, t), 0), p))
                   for w in rr.wheels.values() for t, p in w.awards.items())
    gfig, gsd = (), 0.0
    if gamble is not None:
        res, rule = gamble
        gsd = gamble_sd_bound(res, rule, rr.second, cost)
        glo, ghi = mean_interval(tally.gamble_win, n, gsd, level)
        gfig = (("rtp_gamble_once", Figure(prefix + "RTP gamble once", tally.gamble_win / n / cost,
                                           (glo / cost, ghi / cost), res.rtp_gamble_once, level)),
                ("eligible_probability", rate("gamble eligible", tally.gamble_eligible, res.eligible_probability)))
    return UnitReport(unit, cost, n, rtp, sd, sample_sd(tally.win, tally.win2, n), hit, trig, reach, respin,
                      wheels, awards, gfig, gsd)


def _buy_report(unit: Unit, tally: Tally, b, level: float) -> UnitReport:
    """A buy's figures: RTP per buy (exact SD of the feature) and the reach of levels 2 and up."""
    n = tally.rounds
    sd = fraction_sqrt(b.variance)
    lo, hi = mean_interval(tally.win, n, sd, level)
    rtp = Figure(f"buy {unit.name}: RTP", tally.win / n / b.cost, (lo / b.cost, hi / b.cost), b.rtp, level)
    reach = tuple((i + 1, Figure(f"buy {unit.name}: reach level {i + 1}", k / n, proportion_interval(k, n, level),
                                 p, level))
                  for i, p in enumerate(b.feature.reach) if i
                  for k in [tally.reach[i] if i < len(tally.reach) else 0])
    return UnitReport(unit, b.cost, n, rtp, sd, sample_sd(tally.win, tally.win2, n), reach=reach)


def report_units(ms: MathSet, units: Sequence[Unit], tallies: Sequence[Tally], seed: int, exact: Exact | None = None,
                 seconds: float = 0.0, where: str = "", split: str = "") -> SimulationReport:
    """Compare each unit's tally with the exact values (computed when ``exact`` is None).

    Every figure of every unit gets an interval at the Bonferroni level
    :func:`interval_level` over all of them (so the verdict is wrong for a
    correct game with probability <= 1%): RTP a normal interval with the
    exact SD (the gamble's with an upper bound of it), rates
    Clopper-Pearson intervals.
    """
    exact = exact or exact_units(ms, units)
    gamble = ms.model.gamble

    def build(level):
        out = []
        for u, t in zip(units, tallies):
            if u.kind == "buy":
                out.append(_buy_report(u, t, exact.buys[u.name], level))
            else:
                m = exact.modes[u.name]
                g = (exact.gamble, gamble) if u.name == DEFAULT_MODE and exact.gamble is not None else None
                out.append(_mode_report(u, t, m.round, m.analysis.base, level, g))
        return out

    k = sum(len(u.figures) for u in build(FAMILY_LEVEL))
    level = interval_level(k)
    untested = exact.gamble_refused if gamble is not None and any(u.kind == "mode" and u.name == DEFAULT_MODE
                                                                  for u in units) else ""
    return SimulationReport(rounds=sum(t.rounds for t in tallies), seed=seed, units=tuple(build(level)), level=level,
                            seconds=seconds, where=where, split=split, gamble_not_tested=untested)


def report(ms: MathSet, tally: Tally, seed: int, exact=None, seconds: float = 0.0, where: str = "") -> SimulationReport:
    """Compare the default mode's tally of a game without issue 16 rules with the exact values.

    ``exact`` = (RoundResult, base PhaseAnalysis) as :func:`exact_values`
    (computed when None).  Every figure gets an interval at the Bonferroni
    level :func:`interval_level` (so the verdict is wrong for a correct game
    with probability <= 1%): the RTP a normal interval with the exact
    standard deviation of the round win (the engine's variance), the rates
    Clopper-Pearson intervals.
    """
    rr, base = exact or exact_values(ms)
    unit = Unit("mode", DEFAULT_MODE, 0)
    k = len(_mode_report(unit, tally, rr, base, FAMILY_LEVEL).figures)
    level = interval_level(k)
    return SimulationReport(rounds=tally.rounds, seed=seed, units=(_mode_report(unit, tally, rr, base, level),),
                            level=level, seconds=seconds, where=where)


def split_text(units: Sequence[Unit], rounds: Sequence[int]) -> str:
    """How a run's rounds were split over its units ("" for one unit).

    >>> split_text([Unit("mode", "default", 0), Unit("buy", "b", 1)], [5, 4])
    '--rounds split evenly over 2 bet modes and buys: mode default 5, buy b 4'
    """
    if len(units) == 1:
        return ""
    return (f"--rounds split evenly over {len(units)} bet modes and buys: "
            + ", ".join(f"{u.label} {n:,}" for u, n in zip(units, rounds)))


def run_simulation(ms: MathSet, rounds: int, seed: int, *, mode: str | None = None, buy: str | None = None,
                   cluster: Cluster | None = None, progress: bool = False, exact: Exact | None = None,
                   task_streams: int | None = None) -> SimulationReport:
    """Simulate every bet mode and buy of ``ms`` (or only ``mode`` / ``buy``) and compare with the engine.

    ``rounds`` is split evenly over the units (:func:`split_rounds`); each
    unit's streams are its own (:func:`stream_seed`), so a unit's figures
    depend only on the seed and its rounds.  ``seconds`` of the report times
    the simulation alone.

    Raises
    ------
    ValueError
        An unknown mode or buy, fewer rounds than units, a rule the simulator
        or the engine does not model, a pay too large for int64.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> rep = run_simulation(load_math_set("wheel_game"), 30_000, 1)
    >>> [u.rounds for u in rep.units], rep.passed
    ([10000, 10000, 10000], True)
    """
    cluster = cluster or Cluster(workers=1)
    units = units_of(ms, mode, buy)
    split = split_rounds(rounds, len(units))
    games = prepare_units(ms, units)
    exact = exact or exact_units(ms, units)
    start = time.perf_counter()
    tallies = simulate_units(ms, split, seed, units, games, cluster=cluster, progress=progress,
                             task_streams=task_streams)
    seconds = time.perf_counter() - start
    return report_units(ms, units, tallies, seed, exact, seconds, cluster.describe(small=rounds < SMALL_RUN),
                        split_text(units, split))


def format_report(rep: SimulationReport, name: str) -> str:
    """Plain-text table of a SimulationReport."""
    width = max([22] + [len(f.name) + 2 for f in rep.figures])
    lines = [f"math set {name}: {rep.rounds:,} simulated game rounds, seed {rep.seed}"
             + (f", {rep.seconds:.1f} s ({rep.rounds / rep.seconds:,.0f} rounds/s)" if rep.seconds else "")
             + (f", {rep.where}" if rep.where else ""),
             f"intervals: {rep.method}"]
    for u in rep.units:
        head = "SD of the round win" if len(rep.units) == 1 else f"{u.unit.label} ({u.rounds:,} rounds, cost {u.cost}): SD"
        lines.append(f"{head}: exact {u.sd_exact:.6f} credits (used), sample {u.sd_sample:.6f}"
                     + (f"; with the gamble: bound {u.gamble_sd:.6f} (used)" if u.gamble else ""))
    lines += ["", f"{'figure':<{width}}{'estimate':>14}  {f'{rep.level:.4%} interval':<27}{'exact':>14}  inside"]
    for f in rep.figures:
        lines.append(f"{f.name:<{width}}{f.estimate:>14.8f}  [{f.interval[0]:.8f}, {f.interval[1]:.8f}]"
                     f"{float(f.exact):>14.8f}  {'yes' if f.inside else 'NO'}")
    lines.append("")
    lines.append("PASS: every exact value lies inside its interval" if rep.passed
                 else f"FAIL: an exact value lies outside its interval (a correct game fails with "
                      f"probability <= {1 - FAMILY_LEVEL:.0%})")
    return "\n".join(lines)
