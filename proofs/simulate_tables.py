"""Per-reel-group spin tables of one strip set for the simulators (:mod:`proofs.simulate`).

The reels are cut into contiguous groups (at most :data:`GROUP_LIMIT` stop
combinations each); a stop combination of a group is one table row, so a
spin's ways pays, KEY and FISH counts and FS count cost one row per group
(the Horner form in :mod:`proofs.simulate`).  WILD multipliers drawn per spin
(:class:`WildWays`, each reel its own group) and FISH values drawn per FISH
symbol (:class:`FishDraw`) live here too.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from strips.model import PER_WILD, MathSet, Phase, window_counts
from proofs.enumerate_tables import fish_weight_table, window_tables
from exact.rules import GROUP_LIMIT, drawn_wilds, has_wild_multipliers, max_wild_multiplier, reel_groups


#: Largest table of one reel group, in stop combinations.


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
    drawn = list(drawn_wilds(model))
    per_code = np.zeros((len(pay), len(model.symbols)), dtype=np.int64)
    for k, p in enumerate(pay):
        for c, sym in enumerate(model.symbols):
            if sym.name == p.name:
                per_code[k, c] = 1
            elif sym.substitutes_for(p.name) and sym not in drawn:
                per_code[k, c] = 1 if sym.multiplier is None else sym.multiplier.values[0]
    drawn_codes = np.array([model.code(s.name) for s in drawn], dtype=np.int64)
    plain, zero, counts = [], [], []
    for codes, c in zip(strips.codes, t.counts):
        n = len(codes)
        wc = window_counts(codes, model.rows, len(model.symbols))
        plain.append((wc @ per_code.T).reshape(n, len(pay)))
        zero.append(c == 0)
        counts.append(wc[:, drawn_codes].reshape(n, len(drawn)))
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
        top_wild = max_wild_multiplier(ms.model)
    else:
        top_wild = 1
    # the largest spin win: every pay symbol at its largest pay and ways at once, and the largest scatter pay
    big = sum(int(pays[k].max(initial=0)) * math.prod(max(1, int(c[:, k].max(initial=0))) * top_wild
                                                       for c in t.counts) for k in range(len(pays)))
    big += max([int(x) for x in t.scatter_pays] + [0])
    if big >= 2 ** 62:
        raise ValueError("pays too large for the simulator's 64-bit integers (a spin's pays times the ways "
                         "above 2^62)")
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


#: Amounts below this are added in int64 (two of them cannot overflow); at or above it, in Python integers.
SAFE = 1 << 62


def top(a: np.ndarray) -> int:
    """The largest absolute value of an integer array, as a Python int (0 when empty).

    >>> top(np.array([3, -7, 5])), top(np.zeros(0, dtype=np.int64))
    (7, 0)
    """
    if a.size == 0:
        return 0
    return max(abs(int(a.max())), abs(int(a.min())))


def wide(a: np.ndarray) -> np.ndarray:
    """``a`` as an array of Python integers (dtype object): sums and products of any size, exactly."""
    return a if a.dtype == object else a.astype(object)


def exact_sum(a: np.ndarray) -> int:
    """Exact sum of an integer array as a Python int, whatever its length and values (never wraps).

    An int64 array is summed in its high and low 32-bit halves (each sum
    fits int64 below 2^31 entries); an object array in Python integers.

    >>> x = np.full(20_000, 1 << 61, dtype=np.int64)
    >>> exact_sum(x) == 20_000 << 61, int(x.sum()) == 20_000 << 61
    (True, False)
    """
    if a.dtype == object or a.size >= 1 << 31:
        return sum(int(v) for v in a.ravel())
    a = a.astype(np.int64, copy=False)
    return (int((a >> 32).sum(dtype=np.int64)) << 32) + int((a & 0xFFFFFFFF).sum(dtype=np.int64))


def add_at(acc: np.ndarray, rows, values) -> np.ndarray:
    """``acc[rows] += values`` exactly: ``acc`` is first widened to Python integers (:func:`wide`) when the
    sum could reach :data:`SAFE` (decided from the two arrays' maxima) or ``values`` is wide; returns ``acc``.

    >>> acc = add_at(np.array([1 << 62, 0]), slice(None), np.array([1 << 62, 1]))
    >>> acc.dtype, acc[0] == 1 << 63
    (dtype('O'), True)
    """
    values = np.asarray(values)
    if acc.dtype != object and (values.dtype == object or top(acc) + top(values) >= SAFE):
        acc = wide(acc)
    acc[rows] += values
    return acc


def scaled(values: np.ndarray, factor) -> np.ndarray:
    """``factor x values`` exactly (``factor`` an int or an integer array broadcast with ``values``)."""
    f = np.asarray(factor)
    if values.dtype != object and f.dtype != object and top(values) * max(1, top(f)) < SAFE:
        return values * f
    return wide(values) * wide(f)


def segment_sums(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Sums of consecutive segments of ``values`` of lengths ``counts``, exact.

    In int64 when the largest value times the longest segment stays below
    :data:`SAFE` (decided up front from the maxima), else in Python integers.

    >>> segment_sums(np.array([1, 2, 3, 4]), np.array([1, 3]))
    array([1, 9])
    >>> segment_sums(np.array([1 << 61] * 4), np.array([4]))[0] == 1 << 63
    True
    """
    ends = np.cumsum(counts)
    longest = int(counts.max(initial=0))
    if values.dtype == object or top(values) * longest >= SAFE:
        cs = np.concatenate((np.array([0], dtype=object), np.cumsum(wide(values))))
    else:   # int64 cumsum may wrap, but each difference is a segment sum below 2^62: exact modulo 2^64
        cs = np.concatenate(([0], np.cumsum(values, dtype=np.int64)))
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
