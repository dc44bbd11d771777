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
Rounds run in blocks of :data:`BLOCK` rounds; block ``i`` draws from its own
``numpy.random.Generator`` seeded by ``SeedSequence(seed).spawn``, so the
result depends only on (seed, rounds), not on the number of processes.

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

Statistics
----------
RTP: mean round win / bet with a normal 99% interval (sample standard
deviation).  Rates (base-spin hit frequency, trigger rate per FS count,
level reach): Clopper-Pearson exact 99% intervals (scipy.stats.beta).
Exact values: :func:`exact.engine.analyse` and
:func:`markov.round.round_result`.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

import numpy as np

from exact.engine import analyse
from markov.round import round_result
from strips.model import MathSet, Phase
from proofs.enumerate import fish_weight_table, window_tables

#: Rounds per block (memory bound: a few arrays of this length).
BLOCK = 1 << 18
#: Largest table of one reel group, in stop combinations.
GROUP_LIMIT = 1 << 20
#: Two-sided 99% normal quantile, scipy.stats.norm.ppf(0.995).
Z99 = 2.5758293035489004
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
    big = int(pays.max(initial=0)) * math.prod(max(1, int(c.max(initial=0))) for c in t.counts)
    if big >= 2 ** 62:
        raise ValueError("ways pays too large for int64")
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
    return SpinTables(phase.strips, tuple(groups), t.fish_names, np.array(t.scatter_pays, dtype=np.int64))


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
    """Uniform random group rows for ``n`` spins: independent uniform stops (section 3)."""
    return [rng.integers(0, g.size, n) for g in tabs.groups]


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


def spins(tabs: SpinTables, idx: Sequence[np.ndarray], all_fish: bool = True) -> Spins:
    """Ways pays, KEY, FS and FISH counts of spins given their group rows (section 6, 8, 10).

    With ``all_fish`` False, FISH counts are read only for spins with a KEY in
    the window (the others' FISH pay nothing, section 8) and are 0 elsewhere.
    """
    gs = tabs.groups
    b = gs[-1].add[idx[-1]]
    for g, i in zip(gs[-2::-1], idx[-2::-1]):
        b = g.add[i] + g.mul[i] * b
    keys = sum(g.keys[i].astype(np.int64) for g, i in zip(gs, idx))
    scat = sum(g.scatters[i].astype(np.int64) for g, i in zip(gs, idx))
    fish = np.zeros((len(keys), len(tabs.fish_names)), dtype=np.int64)
    rows = np.ones(len(keys), dtype=bool) if all_fish else keys > 0
    if rows.any():
        fish[rows] = sum(g.fish[i[rows]].astype(np.int64) for g, i in zip(gs, idx))
    ways = b.sum(axis=1, dtype=np.int64)
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


def spin_wins(tabs: SpinTables, stops: np.ndarray, fish_sums: np.ndarray, multiplier: int = 1) -> np.ndarray:
    """Win of each spin from explicit stops (n, reels) and FISH value sums (n,), credits (int64).

    The simulator's own spin evaluation (section 9): multiplier x (ways pays +
    KEY count x FISH sum).  Exposed so tests can compare it with the
    rules-page evaluator spin by spin.
    """
    s = spins(tabs, group_indices(tabs, np.asarray(stops, dtype=np.int64)))
    return multiplier * (s.ways + s.keys * np.asarray(fish_sums, dtype=np.int64))


# --------------------------------------------------------------------------
# rounds
# --------------------------------------------------------------------------
@dataclass
class Tally:
    """Running counts of a simulation (Python ints; ``win2`` float, simulation only).

    Attributes
    ----------
    rounds : int
    win : int
        Sum of round wins, credits.
    win2 : float
        Sum of squared round wins, credits^2 (for the interval only).
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
    win2: float = 0.0
    base_hits: int = 0
    base_win: int = 0
    scatter: dict = field(default_factory=dict)
    reach: list = field(default_factory=list)
    free_spins: int = 0

    def add(self, o: "Tally") -> None:
        """Add another tally's counts into this one."""
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


@dataclass(frozen=True)
class Game:
    """Prepared tables of a math set for the simulator."""

    base: SpinTables
    bonus: SpinTables
    base_fish: FishDraw
    level_fish: tuple[FishDraw, ...]
    multipliers: tuple[int, ...]
    thresholds: tuple[int, ...]
    level_spins: tuple[int | None, ...]
    trigger: np.ndarray  # FS count -> initial free spins, shape (max FS + 1,)


def prepare(ms: MathSet, limit: int = GROUP_LIMIT) -> Game:
    """Tables and samplers of every phase of ``ms`` (rules page sections 3-11).

    Raises
    ------
    ValueError
        If the game retriggers free spins or has WILD multipliers (not simulated).
    """
    model = ms.model
    if model.retrigger:
        raise ValueError("the simulator does not simulate retriggered free spins")
    if model.has_wild_multipliers:
        raise ValueError("unsupported rule for the simulator: WILD multipliers")
    base_phase = model.base_phase
    base = spin_tables(ms, base_phase, limit)
    levels = [model.level_phase(lv) for lv in model.levels]
    bonus = spin_tables(ms, levels[0], limit) if levels else base
    max_fs = sum(int(g.scatters.max(initial=0)) for g in base.groups)
    trigger = np.array([model.initial_spins(n) for n in range(max_fs + 1)], dtype=np.int64)
    return Game(base=base, bonus=bonus, base_fish=fish_draw(ms, base_phase, base.fish_names),
                level_fish=tuple(fish_draw(ms, p, bonus.fish_names) for p in levels),
                multipliers=tuple(lv.multiplier for lv in model.levels),
                thresholds=tuple(lv.threshold for lv in model.levels),
                level_spins=tuple(lv.spins for lv in model.levels), trigger=trigger)


def _phase_wins(tabs: SpinTables, draw: FishDraw, n: int, rng: np.random.Generator) -> Spins:
    """``n`` random spins; returns Spins with ``ways`` replaced by the spin win before the multiplier."""
    s = spins(tabs, random_indices(tabs, n, rng), all_fish=False)
    collect = s.keys > 0  # FISH values only pay with a KEY in the window (section 8)
    win = s.ways.copy()
    if collect.any():
        win[collect] += s.keys[collect] * draw.sums(s.fish[collect], rng)
    return Spins(win, s.keys, s.scatters, s.fish)


def simulate_block(game: Game, n: int, rng: np.random.Generator) -> Tally:
    """Simulate ``n`` whole game rounds (base spin + free spins), sections 2, 9, 10, 11."""
    base = _phase_wins(game.base, game.base_fish, n, rng)
    round_win = base.ways.copy()
    tally = Tally(rounds=n, base_hits=int(np.count_nonzero(base.ways)), base_win=int(base.ways.sum()))
    fs_counts = np.bincount(base.scatters)
    tally.scatter = {i: int(c) for i, c in enumerate(fs_counts) if c}
    initial = game.trigger[np.minimum(base.scatters, len(game.trigger) - 1)]
    active = np.flatnonzero(initial)
    spins_now = initial[active]
    counter = np.zeros(len(active), dtype=np.int64)
    reach = [0] * len(game.multipliers)
    for lv in range(len(game.multipliers)):
        if len(active) == 0:
            break
        reach[lv] = len(active)
        total = int(spins_now.sum())
        tally.free_spins += total
        fs = _phase_wins(game.bonus, game.level_fish[lv], total, rng)
        round_win[active] += game.multipliers[lv] * segment_sums(fs.ways, spins_now)
        counter += segment_sums(fs.keys, spins_now)
        if lv + 1 == len(game.multipliers):
            break
        go = counter >= game.thresholds[lv + 1]
        active, counter = active[go], counter[go]
        spins_now = np.full(len(active), game.level_spins[lv + 1], dtype=np.int64)
    tally.reach = reach
    tally.win = int(round_win.sum())
    w = round_win.astype(np.float64)
    tally.win2 = float(w @ w)
    return tally


_GAME: dict = {}


def _init(game: Game) -> None:
    _GAME["g"] = game


def _run_block(arg) -> Tally:
    i, n, seq = arg
    return simulate_block(_GAME["g"], n, np.random.default_rng(seq))


def simulate(ms: MathSet, rounds: int, seed: int, workers: int = 1, game: Game | None = None,
             progress: bool = False) -> Tally:
    """Simulate ``rounds`` whole game rounds with seed ``seed``.

    Block ``i`` of :data:`BLOCK` rounds uses ``SeedSequence(seed).spawn(...)[i]``,
    so the tally depends only on ``(seed, rounds)``.

    Raises
    ------
    ValueError
        If ``rounds`` < 1 or ``seed`` < 0.
    """
    if rounds < 1:
        raise ValueError("rounds must be 1 or more")
    if seed < 0:
        raise ValueError("seed must be 0 or more")
    game = game or prepare(ms)
    nblocks = -(-rounds // BLOCK)
    seqs = np.random.SeedSequence(seed).spawn(nblocks)
    jobs = [(i, min(BLOCK, rounds - i * BLOCK), seqs[i]) for i in range(nblocks)]
    tally = Tally()
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=rounds, unit="round", unit_scale=True, file=sys.stderr, desc="simulate")
    workers = max(1, min(workers, nblocks))
    try:
        if workers == 1:
            for i, n, seq in jobs:
                tally.add(simulate_block(game, n, np.random.default_rng(seq)))
                if bar is not None:
                    bar.update(n)
        else:
            import multiprocessing as mp
            ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
            with ctx.Pool(workers, initializer=_init, initargs=(game,)) as pool:
                for t in pool.imap(_run_block, jobs):
                    tally.add(t)
                    if bar is not None:
                        bar.update(t.rounds)
    finally:
        if bar is not None:
            bar.close()
    return tally


# --------------------------------------------------------------------------
# intervals and the report
# --------------------------------------------------------------------------
def proportion_ci99(k: int, n: int) -> tuple[float, float]:
    """Clopper-Pearson exact two-sided 99% interval of a binomial proportion k / n."""
    from scipy.stats import beta
    lo = 0.0 if k == 0 else float(beta.ppf(0.005, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(0.995, k + 1, n - k))
    return lo, hi


def mean_ci99(total: float, total2: float, n: int) -> tuple[float, float]:
    """Normal 99% interval of a mean from the sum and sum of squares of n samples."""
    m = total / n
    var = max(0.0, (total2 - n * m * m) / (n - 1)) if n > 1 else 0.0
    h = Z99 * math.sqrt(var / n)
    return m - h, m + h


@dataclass(frozen=True)
class Figure:
    """One simulated figure beside its exact value.

    ``estimate`` and ``ci99`` are floats (simulation); ``exact`` a Fraction.
    """

    name: str
    estimate: float
    ci99: tuple[float, float]
    exact: Fraction

    @property
    def inside(self) -> bool:
        """Whether the exact value lies inside the 99% interval (compared exactly)."""
        lo, hi = self.ci99
        return Fraction(lo) <= self.exact <= Fraction(hi)

    def to_json(self) -> dict:
        """``estimate``, ``ci99``, ``exact`` (``"p/q"``) and ``in_ci99``."""
        return {"estimate": self.estimate, "ci99": list(self.ci99), "exact": _q(self.exact),
                "in_ci99": self.inside}


def _q(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


@dataclass(frozen=True)
class SimulationReport:
    """A simulation's figures beside the exact ones.

    Attributes
    ----------
    rounds, seed : int
    rtp : Figure
        Fraction of the bet per round.
    hit_rate : Figure
        P(base spin win > 0).
    trigger : tuple of (int, Figure)
        P(base spin shows n FS symbols), for each triggering n.
    reach : tuple of (int, Figure)
        P(level l is played in a round).
    seconds : float
        Wall time (run-dependent).
    """

    rounds: int
    seed: int
    rtp: Figure
    hit_rate: Figure
    trigger: tuple[tuple[int, Figure], ...]
    reach: tuple[tuple[int, Figure], ...]
    seconds: float = 0.0

    @property
    def figures(self) -> list[Figure]:
        """Every figure: RTP, hit rate, trigger rates, level-reach rates."""
        return [self.rtp, self.hit_rate] + [f for _, f in self.trigger] + [f for _, f in self.reach]

    @property
    def passed(self) -> bool:
        """Whether every exact value lies inside its 99% interval."""
        return all(f.inside for f in self.figures)

    def to_json(self) -> dict:
        """The JSON object of ``rtp simulate --json`` (rates as fractions of 1, RTP as a fraction of the bet)."""
        out = {"rounds": self.rounds, "seed": self.seed,
               "rtp_estimate": self.rtp.estimate, "rtp_ci99": list(self.rtp.ci99),
               "rtp": _q(self.rtp.exact), "rtp_in_ci99": self.rtp.inside,
               "hit_rate_estimate": self.hit_rate.estimate, "hit_rate_ci99": list(self.hit_rate.ci99),
               "hit_rate": _q(self.hit_rate.exact), "hit_rate_in_ci99": self.hit_rate.inside,
               "trigger_rates": {str(n): f.to_json() for n, f in self.trigger},
               "level_reach_rates": {str(n): f.to_json() for n, f in self.reach},
               "all_in_ci99": self.passed,
               "seconds": round(self.seconds, 3),
               "rounds_per_second": round(self.rounds / self.seconds) if self.seconds else None}
        return out


def exact_values(ms: MathSet):
    """(RoundResult, base PhaseAnalysis) of the exact engine and the ladder chain."""
    a = analyse(ms)
    return round_result(ms.model, a.base, a.levels), a.base


def report(ms: MathSet, tally: Tally, seed: int, exact=None, seconds: float = 0.0) -> SimulationReport:
    """Compare a tally with the exact values (computed when ``exact`` is None)."""
    rr, base = exact or exact_values(ms)
    n = tally.rounds
    bet = ms.model.bet
    lo, hi = mean_ci99(float(tally.win), tally.win2, n)
    rtp = Figure("RTP", tally.win / n / bet, (lo / bet, hi / bet), rr.rtp)

    def rate(name, k, exact_value):
        return Figure(name, k / n, proportion_ci99(k, n), exact_value)

    hit = rate("hit rate (base spin)", tally.base_hits, base.hit_frequency)
    trig = tuple((c, rate(f"trigger {c} FS", tally.scatter.get(c, 0), p)) for c, p in sorted(rr.trigger_prob.items()))
    reach = tuple((i + 1, rate(f"reach level {i + 1}", tally.reach[i] if i < len(tally.reach) else 0, p))
                  for i, p in enumerate(rr.reach))
    return SimulationReport(rounds=n, seed=seed, rtp=rtp, hit_rate=hit, trigger=trig, reach=reach, seconds=seconds)


def format_report(rep: SimulationReport, name: str) -> str:
    """Plain-text table of a SimulationReport."""
    lines = [f"math set {name}: {rep.rounds:,} simulated game rounds, seed {rep.seed}"
             + (f", {rep.seconds:.1f} s ({rep.rounds / rep.seconds:,.0f} rounds/s)" if rep.seconds else ""),
             "",
             f"{'figure':<22}{'estimate':>14}  {'99% interval':<27}{'exact':>14}  inside"]
    for f in rep.figures:
        lines.append(f"{f.name:<22}{f.estimate:>14.8f}  [{f.ci99[0]:.8f}, {f.ci99[1]:.8f}]"
                     f"{float(f.exact):>14.8f}  {'yes' if f.inside else 'NO'}")
    lines.append("")
    lines.append("PASS: every exact value lies inside its 99% interval" if rep.passed
                 else "FAIL: an exact value lies outside its 99% interval")
    return "\n".join(lines)
