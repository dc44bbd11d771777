"""The simulator of every rule: bet modes, buys, respins, prize wheels, the gamble, line games.

Each bet mode and buy is its own unit (:class:`Unit`, :class:`ModeGame`,
:class:`BuyGame`, :func:`simulate_mode_block`): several scatters,
``counts_as_scatter``, ``trigger_reels``, ``multiplier_by_trigger``, respins
with held reels, prize wheels, the gamble policy; line games and combination
WILD multipliers through the literal window evaluator
:class:`exact.windows.WindowEvaluator`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from strips.model import DEFAULT_MODE, SCATTER, MathSet, Phase, window_codes, window_table
from exact.rules import (SIMULATION_STAGES, feature_multiplier_table, initial_spins, reads_windows, retrigger_table,
                         round_total_steps, rules_of, scatter_codes, symbol_scatter_pay)
from exact.windows import WindowEvaluator
from proofs.simulate_tables import (FishDraw, GROUP_LIMIT, SpinTables, Spins, WildDraw, add_at, exact_sum, fish_draw,
                                    group_indices, scaled, spin_tables, spins, wild_draw)
from proofs.simulate_base import Tally, play_features, sum_of_squares, win_histogram, with_collect


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
    return tuple(window_table(c, rows, want) for c in strips.codes)


def column_masks(strips, rows: int, code: int) -> tuple[np.ndarray, ...]:
    """Per reel and stop: the rows of the window showing symbol ``code`` as a bit mask (bit i = row i + 1), int64.

    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("wheel_game")
    >>> m = column_masks(ms.strips["bonus"], 3, ms.model.code("SCATTER"))
    >>> sorted(set(m[0].tolist()))
    [0, 1, 2, 4]
    """
    bits = 1 << np.arange(rows, dtype=np.int64)
    return tuple(((window_codes(c, rows) == code) * bits).sum(axis=1).astype(np.int64) for c in strips.codes)


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
    """Spins of one phase with every rule of the game file (the catalogue rules and the counts the round rules need).

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
        0-based reels that must each show a triggering scatter.
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
    counted_names: tuple[str, ...] = ()

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
    if reads_windows(model):
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
        counted=tuple(column_counts(strips, model.rows, (model.code(name),)) for name in counted),
        counted_names=tuple(counted))


@dataclass(frozen=True)
class ModeGame:
    """Prepared tables of one bet mode of a game with any rule of the game file.

    Attributes
    ----------
    base : PhaseSpins
        The mode's base spin; ``counted`` = the symbols the rules' steps count (the wheel symbols, the
        respin symbol).
    levels : tuple of PhaseSpins
        One per free-spin level.
    multipliers, thresholds, level_spins, retrigger, cap
        The features as in :class:`Game` (read by :func:`play_features`).
    trigger : numpy.ndarray
        Initial free spins by trigger count.
    feature_multiplier : numpy.ndarray or None
        ``multiplier_by_trigger`` by trigger count (None without the rule).
    steps : tuple
        The rules' steps of the round, in registry order (:meth:`exact.rules.Rule.simulation_step`: a
        respin, the prize wheels, the gamble's policy in the default mode), each run at its ``stage``.
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
    steps: tuple = ()
    #: (rule, its configuration, bet) of every rule acting on the round's total win (a win cap), applied
    #: in registry order by the rule's ``vector_step`` before the gamble.
    round_steps: tuple = ()

    def step(self, rule: str):
        """The step of the rule named ``rule``.

        Raises
        ------
        KeyError
            If no rule of the mode has a step of that name.
        """
        for st in self.steps:
            if st.rule == rule:
                return st
        raise KeyError(rule)

    def sample(self, lv: int, n: int, rng: np.random.Generator) -> Spins:
        """``n`` free spins of level ``lv`` (0-based) for :func:`play_features`, each win through the rules'
        ``free_spin`` steps (a multiplier drawn per free spin)."""
        s = self.levels[lv].spins(n, rng)
        for st in self.steps:
            if st.stage == "free_spin":
                s = Spins(st.spin(lv, s.ways, rng), s.keys, s.scatters, s.fish)
        return s


@dataclass(frozen=True)
class BuyGame:
    """A bought feature: the free spins of ``spins`` initial spins of ``mode``, no base spin."""

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
    >>> [st.rule for st in g.steps], g.step("respin").count, int(g.trigger[5])
    (['respin', '[wheel]', 'frames'], 2, 8)
    """
    mset = ms.mode(name)
    model = mset.model
    strips = mset.phase_strips(model.base_phase)
    counted: dict[str, tuple] = {}

    def tables(symbol: str, masks: bool = False, level: int | None = None) -> tuple[np.ndarray, ...]:
        """A rule's step counts ``symbol`` in the base window (per reel, per stop); ``masks``: the rows showing
        it instead (bit i = row i + 1), on the base strips or, with ``level`` (0-based), that free-spin level's."""
        if masks:
            phase = model.base_phase if level is None else model.level_phase(model.levels[level])
            return column_masks(mset.phase_strips(phase), model.rows, model.code(symbol))
        if symbol not in counted:
            counted[symbol] = column_counts(strips, model.rows, (model.code(symbol),))
        return counted[symbol]

    steps = tuple(st for r in rules_of(model) if (st := r.simulation_step(model, name, tables)) is not None)
    base = phase_spins(mset, model.base_phase, tuple(counted), limit)
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
    retrigger = retrigger_table(model, _top(levels[0].trigger_shown) if levels else 0)
    fmult = feature_multiplier_table(model, top)
    return ModeGame(base=base, levels=tuple(levels), multipliers=tuple(lv.multiplier for lv in model.levels),
                    thresholds=tuple(lv.threshold for lv in model.levels),
                    level_spins=tuple(lv.spins for lv in model.levels), trigger=trigger, retrigger=retrigger,
                    cap=model.retrigger_cap if retrigger is not None else None, feature_multiplier=fmult,
                    steps=steps, round_steps=round_total_steps(model))


def respin_stops(g: ModeGame, stops: np.ndarray, new: np.ndarray) -> np.ndarray:
    """The respin's stops: reels whose window shows the respin symbol hold ``stops``, the others take ``new``
    (:meth:`exact.rules.RespinStep.stops` of the mode's respin step).

    Raises
    ------
    KeyError
        If the mode has no respin.
    """
    return g.step("respin").stops(stops, new)


@dataclass
class RoundBlock:
    """``n`` rounds of one bet mode being simulated: the state the rules' steps read and change
    (:meth:`exact.rules.Rule.simulation_step`).

    Attributes
    ----------
    game : ModeGame
    rng : numpy.random.Generator
    tally : Tally
        The block's counts (a step adds its own: respins, wheels and awards, the gamble's).
    stops : numpy.ndarray
        The stops of the window that decides the features, (n, reels) int64: the base spin's, a respin's
        after it.
    win : numpy.ndarray
        Each round's win so far, credits, (n,) int64.
    trigger : numpy.ndarray
        The count that decides the free spins, per round.
    counts : dict str -> numpy.ndarray
        Per counted symbol (:attr:`PhaseSpins.counted`), its count in the window that decides the features.
    """

    game: ModeGame
    rng: np.random.Generator
    tally: Tally
    stops: np.ndarray
    win: np.ndarray
    trigger: np.ndarray
    counts: dict

    #: Exact sum of squares of a non-negative int64 array (:func:`proofs.simulate_base.sum_of_squares`).
    sum_of_squares = staticmethod(sum_of_squares)
    #: Counts of round wins by bucket (:func:`proofs.simulate_base.win_histogram`).
    win_histogram = staticmethod(win_histogram)
    #: Exact sum of an integer array, never wrapping (:func:`proofs.simulate_tables.exact_sum`).
    exact_sum = staticmethod(exact_sum)

    def add_win(self, rows, values) -> None:
        """Add ``values`` to the round wins of ``rows`` exactly (widened to Python integers when the maxima
        could reach 2^62: :func:`proofs.simulate_tables.add_at`)."""
        self.win = add_at(self.win, rows, values)

    def draw(self, n: int) -> np.ndarray:
        """Stops of ``n`` new base spins, (n, reels)."""
        return self.game.base.draw(n, self.rng)

    def starts_feature(self) -> np.ndarray:
        """Whether each round's deciding window starts the free spins or a feature of a step
        (:func:`exact.rules.starts_feature`): bool (n,)."""
        g = self.game
        starts = g.trigger[np.minimum(self.trigger, len(g.trigger) - 1)] > 0
        for st in g.steps:
            if hasattr(st, "starts"):
                starts |= st.starts(self.counts)
        return starts

    def spin_again(self, rows: np.ndarray, stops: np.ndarray) -> None:
        """Evaluate base spins at ``stops`` for the rounds ``rows``: their win is added, their window decides
        the features (``stops``, trigger and counts replaced)."""
        again = self.game.base.evaluate(stops, self.rng)
        self.stops = self.stops.copy()
        self.stops[rows] = stops
        self.add_win(rows, again.win)
        self.trigger = self.trigger.copy()
        self.trigger[rows] = again.trigger
        for name, c in zip(self.game.base.counted_names, again.counts):
            self.counts[name] = self.counts[name].copy()
            self.counts[name][rows] = c

    def play(self, rows: np.ndarray, spins: np.ndarray) -> None:
        """Play ``spins`` free spins from level 1 for the rounds ``rows`` as a feature of its own (its win
        added, its spins tallied)."""
        g = self.game
        win, _, played = play_features(g, spins, self.rng, g.sample)
        self.add_win(rows, win)
        self.tally.free_spins += played


def simulate_mode_block(g: ModeGame, n: int, rng: np.random.Generator) -> "Tally":
    """Simulate ``n`` whole rounds of one bet mode with every rule.

    A round (``exact/bet_modes.py``, ``markov/wheels.py``): the base spin; the steps ``before_features``
    (a respin: the window shows exactly its count of the respin symbol and starts no feature, so the reels
    showing the symbol hold, the others take new stops; its win is added and its window decides the
    features); the free spins of the deciding window's trigger count (times the ``multiplier_by_trigger``
    value of that count); the steps ``after_features`` (each started wheel draws one award: credits, a
    jackpot's credits, or free spins played from level 1 as their own feature); the rules on the round's
    total (a win cap); then the steps ``after_round`` (in the default mode of a game with a gamble, every
    eligible round win is gambled once, tallied apart: the round win excludes it, as every RTP but the
    gamble's).
    """
    stops = g.base.draw(n, rng)
    base = g.base.evaluate(stops, rng)
    tally = Tally(rounds=n, base_hits=int(np.count_nonzero(base.win)), base_win=exact_sum(base.win))
    block = RoundBlock(g, rng, tally, stops, base.win.copy(), base.trigger,
                       dict(zip(g.base.counted_names, base.counts)))
    stages = {s: [st for st in g.steps if st.stage == s] for s in SIMULATION_STAGES}
    for st in stages["before_features"]:
        st.simulate(block)
    trigger = block.trigger
    tally.scatter = {i: int(c) for i, c in enumerate(np.bincount(trigger)) if c}
    initial = g.trigger[np.minimum(trigger, len(g.trigger) - 1)]
    active = np.flatnonzero(initial)
    win, tally.reach, tally.free_spins = play_features(g, initial[active], rng, g.sample)
    if g.feature_multiplier is not None:
        win = scaled(win, g.feature_multiplier[np.minimum(trigger[active], len(g.feature_multiplier) - 1)])
    block.win = add_at(block.win, active, win)
    for st in stages["after_features"]:
        st.simulate(block)
    for rule, config, bet in g.round_steps:      # a win cap: the round's total, before the gamble
        block.win = rule.vector_step(config, bet, block.win)
    tally.win = exact_sum(block.win)
    tally.win2 = sum_of_squares(block.win)
    tally.win_hist = win_histogram(block.win)
    for st in stages["after_round"]:
        st.simulate(block)
    return tally


def simulate_buy_block(g: BuyGame, n: int, rng: np.random.Generator) -> "Tally":
    """Simulate ``n`` bought features: each the free spins of ``g.spins`` initial spins (no base spin, no wheel)."""
    win, reach, played = play_features(g.mode, np.full(n, g.spins, dtype=np.int64), rng, g.mode.sample)
    return Tally(rounds=n, win=exact_sum(win), win2=sum_of_squares(win), reach=reach, free_spins=played,
                 win_hist=win_histogram(win))


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
    """What one part of a run simulates: a bet mode's rounds or a buy's bought features.

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
