"""The free-spin level ladder as an absorbing Markov chain, solved exactly.

Source: rules page section 11 (levels, KEY counter, thresholds, end of the
free spins).

State definition
----------------
A transient state is ``State(level, spins_left, keys)``:

``level``
    1-based level number of the level being played.
``spins_left``
    Spins of that level not yet played, ``1 .. spins of the level`` (the spin
    about to be played is counted).
``keys``
    The KEY counter, the total KEY count of all free spins so far, capped at
    ``cap`` = the highest threshold of a level after level 1.  The game only
    compares the counter with thresholds (">= threshold"), so the capped
    counter decides every transition exactly as the true counter does.

One free spin in state ``(L, s, c)`` draws the KEY count ``k`` of the window
from level ``L``'s :class:`~markov.moments.CountSplit` (``prob[k]``) and pays
the win ``W`` (credits, level multiplier included) jointly distributed with
``k``.  The next state is ``(L, s - 1, min(c + k, cap))`` if ``s > 1``.  After
the last spin of a level (``s == 1``) the counter ``c' = min(c + k, cap)`` is
examined: level ``L + 1`` starts with its own spins iff ``L`` is not the top
level and ``c' >= threshold(L + 1)``; otherwise the free spins end (the
absorbing state :data:`END`).  Levels never skip and the counter never resets.

Every state is visited at most once (each transition plays one spin and the
number of spins already played grows), so the chain is acyclic and the
expected number of visits of a state equals the probability of reaching it.

Exact solver
------------
The ladder is an instance of the feature-chain protocol (:mod:`markov.protocol`): its
``transitions`` give, per KEY count ``k`` of positive probability, ``p_k = P(k)``,
``w_k = E[W 1{k}]``, ``v_k = E[W^2 1{k}]`` of the state's level and the successor
``t_k``; :func:`markov.protocol.features` solves

    V(s)  = sum_k  w_k + p_k V(t_k)
    V2(s) = sum_k  v_k + 2 w_k V(t_k) + p_k V2(t_k)

backwards and propagates the visit probabilities forwards, exactly, with the levels
as the chain's stages (P(reach a level), P(end after it), its expected spins and win).
Each level's ``spins`` is fixed, so the expected number of spins of level ``L`` is
``spins(L) P(reach L)`` and, by Wald's identity, its expected win is
``spins(L) P(reach L) E[W_L]``.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

from strips.model import GameModel, count_table_value
from markov import protocol
from markov.moments import CountSplit, PhaseAnalysis
from markov.protocol import FeatureResult

#: The absorbing state: the free spins have ended.
END = "END"

ZERO = Fraction(0)


@dataclass(frozen=True, order=True)
class State:
    """A transient state of the ladder chain (rules page section 11).

    Attributes
    ----------
    level : int
        1-based number of the level being played.
    spins_left : int
        Spins of the level still to play, including the one about to be played (>= 1).
    keys : int
        KEY counter (total KEY symbols of the free spins so far), capped at the
        chain's ``cap``.
    """

    level: int
    spins_left: int
    keys: int

    def __str__(self) -> str:
        return f"L{self.level} s{self.spins_left} c{self.keys}"


def validate_split(split: CountSplit, what: str) -> None:
    """Check that a :class:`CountSplit` is a probability split with consistent joint moments.

    Parameters
    ----------
    split : CountSplit
        ``prob``, ``win``, ``win2`` of equal length n + 1 (counts 0 .. n).
    what : str
        Name used in the error message, e.g. ``"level 2 KEY split"``.

    Raises
    ------
    ValueError
        If the tuples are empty or differ in length; an entry is not an
        exact ``int`` or ``Fraction``; a probability is outside [0, 1]; the
        probabilities do not sum to exactly 1; a second moment is negative; or
        a count of probability 0 carries win moments.
    """
    n = len(split.prob)
    if n == 0 or len(split.win) != n or len(split.win2) != n:
        raise ValueError(f"{what}: prob, win and win2 must be non-empty and of equal length, "
                         f"got {len(split.prob)}, {len(split.win)}, {len(split.win2)}")
    for name, seq in (("prob", split.prob), ("win", split.win), ("win2", split.win2)):
        for i, x in enumerate(seq):
            if isinstance(x, bool) or not isinstance(x, (int, Fraction)):
                raise ValueError(f"{what}: {name}[{i}] = {x!r} is not an exact int or Fraction")
    for i, p in enumerate(split.prob):
        if not 0 <= p <= 1:
            raise ValueError(f"{what}: prob[{i}] = {p} is outside [0, 1]")
        if split.win2[i] < 0:
            raise ValueError(f"{what}: win2[{i}] = {split.win2[i]} is negative")
        if p == 0 and (split.win[i] != 0 or split.win2[i] != 0):
            raise ValueError(f"{what}: count {i} has probability 0 but a win moment")
    total = sum(split.prob, ZERO)
    if total != 1:
        raise ValueError(f"{what}: probabilities sum to {total}, not 1")


def check_phase(phase: PhaseAnalysis, split: CountSplit, what: str) -> None:
    """Validate ``split`` and check that it reproduces the phase's mean and second moment.

    Raises
    ------
    ValueError
        If :func:`validate_split` fails, or ``sum(split.win) != phase.mean`` or
        ``sum(split.win2) != phase.second`` (an inconsistent engine result).
    """
    validate_split(split, what)
    if split.mean != phase.mean or split.second != phase.second:
        raise ValueError(f"{what}: split moments ({split.mean}, {split.second}) differ from the "
                         f"phase's mean and second moment ({phase.mean}, {phase.second})")


@dataclass(frozen=True)
class Ladder:
    """The free-spin ladder of a game with the per-spin split of each level.

    Parameters
    ----------
    thresholds : tuple of int, length = levels
        KEY-counter total needed at the end of level ``i`` to start level
        ``i + 1`` is ``thresholds[i]`` (0-based index of the level started);
        ``thresholds[0]`` (level 1) is ignored.
    spins : tuple of int or None, length = levels
        Spins of each level; ``spins[0]`` is ``None`` (level 1 plays the
        initial free spins of the trigger).
    multipliers : tuple of int, length = levels
        Level multipliers (for display only: the splits' wins include them).
    splits : tuple of CountSplit, length = levels
        Per level, the split of one spin's win ``W`` (credits, multiplier
        included) by the KEY count of the window.

    Raises
    ------
    ValueError
        If there is no level; the tuples differ in length; a level after
        level 1 has ``spins`` < 1 (or ``None``); or a split fails
        :func:`validate_split`.

    Notes
    -----
    Source: rules page section 11.
    """

    thresholds: tuple[int, ...]
    spins: tuple[int | None, ...]
    multipliers: tuple[int, ...]
    splits: tuple[CountSplit, ...]

    def __post_init__(self):
        n = len(self.splits)
        if n == 0:
            raise ValueError("the ladder needs at least one level")
        if not (len(self.thresholds) == len(self.spins) == len(self.multipliers) == n):
            raise ValueError(f"ladder tuples differ in length: {len(self.thresholds)} thresholds, "
                             f"{len(self.spins)} spins, {len(self.multipliers)} multipliers, {n} splits")
        for i, s in enumerate(self.spins[1:], start=2):
            if s is None or s < 1:
                raise ValueError(f"level {i} needs spins >= 1, got {s}")
        for i, sp in enumerate(self.splits, start=1):
            validate_split(sp, f"level {i} KEY split")

    # -- rules -----------------------------------------------------------
    @property
    def levels(self) -> int:
        """Number of levels."""
        return len(self.splits)

    @property
    def cap(self) -> int:
        """Cap of the KEY counter in the state: the highest threshold after level 1 (0 if none)."""
        return max(self.thresholds[1:], default=0)

    def level_spins(self, level: int, initial_spins: int) -> int:
        """Spins of 1-based ``level``: ``initial_spins`` for level 1, else the level's own spins."""
        return initial_spins if level == 1 else self.spins[level - 1]

    def start(self, initial_spins: int) -> State:
        """The first state of a feature of ``initial_spins`` free spins.

        Raises
        ------
        ValueError
            If ``initial_spins`` < 1.
        """
        if initial_spins < 1:
            raise ValueError(f"initial free spins must be >= 1, got {initial_spins}")
        return State(1, initial_spins, 0)

    def after_level(self, level: int, keys: int) -> State | str:
        """The state after the last spin of 1-based ``level`` with counter ``keys`` (capped).

        The next level starts iff there is one and ``keys`` >= its threshold;
        otherwise :data:`END` (section 11: "the game examines the counter only
        when all spins of the current level are complete"; levels never skip).
        """
        if level < self.levels and keys >= self.thresholds[level]:
            return State(level + 1, self.spins[level], keys)
        return END

    def step(self, state: State, k: int) -> State | str:
        """Successor of ``state`` after one free spin with ``k`` KEY symbols.

        Returns a :class:`State` or :data:`END`.  Source: section 11.
        """
        keys = min(state.keys + k, self.cap)
        if state.spins_left > 1:
            return State(state.level, state.spins_left - 1, keys)
        return self.after_level(state.level, keys)

    def transitions(self, state: State) -> tuple[tuple[int, Fraction, Fraction, Fraction, State | str], ...]:
        """Outgoing transitions of ``state``: ``(k, P(k), E[W 1{k}], E[W^2 1{k}], successor)``.

        Only KEY counts of positive probability are listed.  Wins in credits
        (per spin) and credits^2.
        """
        sp = self.splits[state.level - 1]
        return tuple((k, sp.prob[k], sp.win[k], sp.win2[k], self.step(state, k))
                     for k in range(len(sp.prob)) if sp.prob[k] != 0)

    def reachable(self, initial_spins: Iterable[int]) -> tuple[State, ...]:
        """Transient states reachable (with positive probability) from the given starts.

        Returns
        -------
        tuple of State
            In topological order (:meth:`order`): every transition goes from an earlier to a
            later state.
        """
        return tuple(protocol.reachable(self, [self.start(n) for n in initial_spins]))

    # -- the game's feature chain (markov.feature) ----------------------------
    #: name of the chain in :data:`markov.feature.CHAINS`
    kind = "ladder"
    #: the count a level's per-spin split is by: the KEY count
    count_by = "key"

    @classmethod
    def of(cls, model: GameModel, levels: Sequence[PhaseAnalysis]) -> "Ladder":
        """:func:`ladder_of`."""
        return ladder_of(model, levels)

    @classmethod
    def of_splits(cls, model: GameModel, splits: Sequence[CountSplit]) -> "Ladder":
        """:func:`model_ladder`."""
        return model_ladder(model, splits)

    def round_figures(self) -> dict:
        """Fields of :class:`markov.round.RoundResult` the ladder sets: none beyond the levels."""
        return {}

    # -- the protocol's optional members (markov.protocol) ------------------
    @staticmethod
    def order(state: State) -> tuple:
        """Sort key growing along every transition: level, spins played on it, counter."""
        return state.level, -state.spins_left, state.keys

    @property
    def stages(self) -> int:
        """The levels are the chain's stages."""
        return self.levels

    @staticmethod
    def stage(state: State) -> int:
        """0-based level of ``state``."""
        return state.level - 1

    @staticmethod
    def count(state: State, k: int, p: Fraction) -> Fraction:
        """E[K 1{k}] of one spin: the KEY count of the outcome times its probability."""
        return k * p

    @staticmethod
    def count_weight(state: State, k: int) -> int:
        """The count of an outcome is linear in its probability (:meth:`count` = ``k`` x p): its weight ``k``."""
        return k

    @staticmethod
    def law(state: State) -> int:
        """The distribution's runner plays the kernels of the state's level (0-based)."""
        return state.level - 1

    @staticmethod
    def moves(tables: Sequence) -> list:
        """The runner's tables per level: a level's tables by KEY count, unchanged."""
        return list(tables)

    @staticmethod
    def node_id(state) -> str:
        """Graph node id: ``"L2 s8 c3"`` or ``"END"``."""
        return str(state)

    def node_attributes(self, state: State) -> dict:
        """Graph node attributes: level, spins left, counter, the level's multiplier."""
        return dict(level=state.level, spins_left=state.spins_left, keys=state.keys,
                    multiplier=self.multipliers[state.level - 1])

    def graph_attributes(self) -> dict:
        """Graph attributes: thresholds, spins (level 1 as 0), multipliers, the counter's cap."""
        return dict(thresholds=tuple(self.thresholds), spins=(0,) + tuple(self.spins[1:]),
                    multipliers=tuple(self.multipliers), cap=self.cap)

    #: the attributes of the absorbing node of the graph export
    end_attributes = dict(level=0, spins_left=0, keys=0, multiplier=0)


def ladder_of(model: GameModel, levels: Sequence[PhaseAnalysis]) -> Ladder:
    """The ladder of ``model`` with the KEY splits of the exact engine's level analyses.

    Parameters
    ----------
    model : GameModel
        Gives thresholds, spins and multipliers (``model.levels``).
    levels : sequence of PhaseAnalysis, one per level, level 1 first
        Their ``by_key`` splits are the per-spin inputs.

    Raises
    ------
    ValueError
        If the number of analyses differs from the number of levels, or a
        split is invalid or disagrees with its phase's mean / second moment.
    """
    if len(levels) != len(model.levels):
        raise ValueError(f"{len(levels)} level analyses given for {len(model.levels)} levels")
    for lv, pa in zip(model.levels, levels):
        check_phase(pa, pa.by_key, f"level {lv.number} KEY split")
    return model_ladder(model, [pa.by_key for pa in levels])


def model_ladder(model: GameModel, splits: Sequence[CountSplit]) -> Ladder:
    """The ladder of ``model`` (thresholds, spins, multipliers) with the given KEY splits, level 1 first.

    Raises
    ------
    ValueError
        As :class:`Ladder` (e.g. the number of splits differs from the number of levels).
    """
    return Ladder(thresholds=tuple(lv.threshold for lv in model.levels),
                  spins=(None,) + tuple(lv.spins for lv in model.levels[1:]),
                  multipliers=tuple(lv.multiplier for lv in model.levels),
                  splits=tuple(splits))


def feature_results(ladder: Ladder, initial_spins: Sequence[int]) -> tuple[FeatureResult, ...]:
    """Exact :class:`FeatureResult` for each number of initial free spins.

    Parameters
    ----------
    ladder : Ladder
    initial_spins : sequence of int
        E.g. ``(10, 15, 20)`` for the rules page's 3, 4, 5 FS triggers.

    Returns
    -------
    tuple of FeatureResult, one per entry of ``initial_spins``, same order.

    Raises
    ------
    ValueError
        If an entry is < 1.

    Notes
    -----
    :func:`markov.protocol.features` on the ladder (its levels as the stages).  Source: rules
    page section 11.
    """
    return protocol.features(ladder, tuple(initial_spins))


def feature_result(ladder: Ladder, initial_spins: int) -> FeatureResult:
    """Exact :class:`FeatureResult` for one number of initial free spins (see :func:`feature_results`)."""
    return feature_results(ladder, (initial_spins,))[0]


@dataclass(frozen=True)
class PathLevel:
    """One level of a played KEY-count sequence (a row of the section 11 scenario tables).

    Attributes
    ----------
    level, multiplier, spins : int
        The level, its multiplier and the spins played on it.
    keys_in_level, keys_total : int
        KEY symbols of this level and the uncapped counter at its end.
    next_level : int or None
        The level that starts next, ``None`` if the free spins end.
    """

    level: int
    multiplier: int
    spins: int
    keys_in_level: int
    keys_total: int
    next_level: int | None


def play(ladder: Ladder, initial_spins: int, key_counts: Sequence[int]) -> tuple[PathLevel, ...]:
    """Play a given sequence of per-spin KEY counts through the chain's transitions.

    Follows :meth:`Ladder.step` state by state, keeping the true (uncapped)
    counter beside it, and reports each level as in the scenario tables of
    rules page section 11.

    Parameters
    ----------
    ladder : Ladder
    initial_spins : int
    key_counts : sequence of int
        KEY count of each free spin in order; must be exactly as long as the
        feature it produces.

    Raises
    ------
    ValueError
        If ``key_counts`` ends before the free spins end or goes on after.
    """
    state: State | str = ladder.start(initial_spins)
    rows: list[PathLevel] = []
    total = in_level = played = 0
    for i, k in enumerate(key_counts):
        if state == END:
            raise ValueError(f"the free spins ended after {i} spins; {len(key_counts)} KEY counts given")
        total, in_level, played = total + k, in_level + k, played + 1
        nxt = ladder.step(state, k)
        if nxt == END or nxt.level != state.level:
            rows.append(PathLevel(state.level, ladder.multipliers[state.level - 1], played,
                                  in_level, total, None if nxt == END else nxt.level))
            in_level = played = 0
        state = nxt
    if state != END:
        raise ValueError(f"{len(key_counts)} KEY counts end before the free spins end (at {state})")
    return tuple(rows)


def features_by_trigger(model: GameModel, ladder, counts: Iterable[int],
                        solve=None) -> Mapping[int, FeatureResult]:
    """FeatureResult per triggering scatter count (counts giving no free spins are left out).

    Parameters
    ----------
    model : GameModel
        Its trigger table maps a scatter count to initial free spins.
    ladder : Ladder, or the chain ``solve`` takes
    counts : iterable of int
        Scatter counts of the base spin to consider.
    solve : callable ``(chain, initial_spins) -> tuple of FeatureResult``, optional
        The solver; default :func:`feature_results` (the ladder), e.g.
        :func:`markov.retrigger.feature_results` for free spins with retrigger.

    Counts with the same initial spins share one result.  Source: rules page
    sections 10 and 11.
    """
    by_count = {n: s for n in counts if (s := count_table_value(model.trigger, n)) > 0}
    distinct = sorted(set(by_count.values()))
    res = dict(zip(distinct, (solve or feature_results)(ladder, distinct)))
    return {n: res[s] for n, s in by_count.items()}
