"""The rules-page simulator: whole rounds of a plain ways game on the fast spin tables.

A round is a base spin, the collect, the FS count and, on a trigger, the
free spins through the KEY-counter ladder or the retrigger waves
(:func:`simulate_block`); :class:`Tally` holds the exact integer counts every
simulator returns.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from strips.model import MathSet
from proofs.simulate_tables import (FishDraw, GROUP_LIMIT, SpinTables, Spins, WildDraw, add_at, exact_sum, fish_draw,
                                    random_indices, scaled, segment_sums, spin_tables, spins, wild_draw)
from exact.rules import initial_spins, retrigger_table


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
        Rounds with a respin.
    wheels : dict str -> int
        Rounds that started each prize wheel.
    awards : dict (wheel, award text) -> int
        Rounds that won each award of each wheel.
    gamble_eligible, gamble_win, gamble_win2 : int
        Rounds whose win may be gambled; sum and sum of squares of the round
        wins after gambling every eligible win once (credits, credits^2).
    win_hist, gamble_hist : dict int -> int
        Rounds by bucket of their win (:func:`win_histogram`): every win below 512 credits its own bucket, 256
        buckets per power of 2 above; the proven interval of the RTP reads it
        (:func:`proofs.simulate_stats.catoni_interval`).
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
    win_hist: dict = field(default_factory=dict)
    gamble_hist: dict = field(default_factory=dict)

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
        for mine, theirs in ((self.win_hist, o.win_hist), (self.gamble_hist, o.gamble_hist)):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v

    def canonical(self) -> "Tally":
        """The same counts with every dict's keys sorted (equal tallies compare and print alike)."""
        return dataclasses.replace(self, scatter=dict(sorted(self.scatter.items())), reach=list(self.reach),
                                   wheels=dict(sorted(self.wheels.items())), awards=dict(sorted(self.awards.items())),
                                   win_hist=dict(sorted(self.win_hist.items())),
                                   gamble_hist=dict(sorted(self.gamble_hist.items())))


#: Buckets of :func:`win_histogram` per power of 2.
BUCKETS = 256


def win_histogram(x: np.ndarray) -> dict[int, int]:
    # the float path agrees with bucket_key below 2^53 (tests/test_simulate_coverage.py checks both)
    """Counts of non-negative wins (int64 or object array, credits) by bucket: {bucket key: count}.

    Key 0 holds the wins of 0; a win w >= 1 with w = m 2^e (0.5 <= m < 1, :func:`numpy.frexp`) has key
    e x 256 + floor((m - 0.5) x 512), so every win below 512 credits has its own bucket and a bucket above
    spans a relative width of at most 1/256 (:func:`bucket_edges`).  Integer counts: merged exactly in any order.

    >>> win_histogram(np.array([0, 0, 1, 2, 3, 1000]))
    {0: 2, 256: 1, 512: 1, 640: 1, 2804: 1}
    >>> [bucket_edges(k) for k in (0, 256, 640, 2804)]
    [(0, 0), (1, 1), (3, 3), (1000, 1001)]
    """
    if x.dtype == object or (len(x) and int(x.max()) >= 1 << 53):     # beyond 2^53 a float rounds: exact keys
        out: dict[int, int] = {}
        for v in x.tolist():
            k = bucket_key(int(v))
            out[k] = out.get(k, 0) + 1
        return dict(sorted(out.items()))
    small = x < 512
    counts = np.bincount(x[small], minlength=1)
    out = {_SMALL_KEYS[w]: int(counts[w]) for w in np.flatnonzero(counts).tolist()}
    big = x[~small]
    if len(big):
        m, e = np.frexp(big.astype(np.float64))
        keys = e.astype(np.int64) * BUCKETS + ((m - 0.5) * (2 * BUCKETS)).astype(np.int64)
        k, c = np.unique(keys, return_counts=True)
        out.update(zip(k.tolist(), c.tolist()))
    return out


def bucket_key(w: int) -> int:
    """The :func:`win_histogram` bucket of one win ``w`` >= 0 (exact integer arithmetic, any size).

    >>> bucket_key(0), bucket_key(1), bucket_key(511), bucket_key(512), bucket_key(2 ** 70 + 1)
    (0, 256, 2559, 2560, 18176)
    """
    if w <= 0:
        return 0
    e = w.bit_length()
    top = w >> (e - 9) if e > 9 else w << (9 - e)       # the 9 leading bits: 256 <= top < 512
    return e * BUCKETS + int(top) - BUCKETS


#: bucket_key(w) of every win w below 512 (each its own bucket).
_SMALL_KEYS = [bucket_key(w) for w in range(512)]


def bucket_edges(key: int) -> tuple[int, int]:
    """The smallest and largest win (credits) of bucket ``key`` of :func:`win_histogram`.

    >>> bucket_edges(2560), bucket_edges(2561)
    ((512, 513), (514, 515))
    """
    if key <= 0:
        return 0, 0
    e, top = divmod(key, BUCKETS)
    top += BUCKETS
    if e <= 9:
        lo = top >> (9 - e)
        return lo, lo
    return top << (e - 9), ((top + 1) << (e - 9)) - 1


def sum_of_squares(x: np.ndarray) -> int:
    """Exact sum of squares of a non-negative int64 array, as a Python int (no float, no overflow).

    >>> sum_of_squares(np.array([3, 4, 3_000_000_000]))
    9000000000000000025
    """
    if x.dtype == object:
        return sum(int(v) * int(v) for v in x)
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
    retrigger = retrigger_table(model, sum(int(g.scatters.max(initial=0)) for g in bonus.groups))
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
        win = add_at(win, collect, scaled(s.keys[collect], draw.sums(s.fish[collect], rng)))
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
            win = add_at(win, active, scaled(segment_sums(fs.ways, spins_now), rules.multipliers[0]))
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
            win = add_at(win, active, scaled(segment_sums(fs.ways, spins_now), rules.multipliers[lv]))
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
    tally = Tally(rounds=n, base_hits=int(np.count_nonzero(base.ways)), base_win=exact_sum(base.ways))
    fs_counts = np.bincount(base.scatters)
    tally.scatter = {i: int(c) for i, c in enumerate(fs_counts) if c}
    initial = game.trigger[np.minimum(base.scatters, len(game.trigger) - 1)]
    active = np.flatnonzero(initial)

    def sample(lv, k, g):
        return _phase_wins(game.bonus, game.level_fish[lv], k, g, game.level_wild[lv])
    win, tally.reach, tally.free_spins = play_features(game, initial[active], rng, sample)
    round_win = add_at(round_win, active, win)
    tally.win = exact_sum(round_win)
    tally.win2 = sum_of_squares(round_win)
    tally.win_hist = win_histogram(round_win)
    return tally
