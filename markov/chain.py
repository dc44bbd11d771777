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
With ``p_k = P(k)``, ``w_k = E[W 1{k}]`` and ``v_k = E[W^2 1{k}]`` of the
state's level and ``t_k`` the successor after ``k`` KEYs (``V(END) = V2(END)
= 0``), the expected remaining win ``V`` and its second moment ``V2`` obey
(the spin's win is independent of the rest of the feature given ``k``)::

    V(s)  = sum_k  w_k + p_k V(t_k)
    V2(s) = sum_k  v_k + 2 w_k V(t_k) + p_k V2(t_k)

solved in reverse topological order (last level first, fewest spins left
first).  To stay fast the solver works on integers: with ``D`` the common
denominator of a level's split and ``R(L, s) = D_L^s R(L + 1, spins(L + 1))``
(``R = 1`` after the top level) the numbers ``R V`` and ``R V2`` are integers,
and a single ``Fraction`` is formed per result.  Probabilities of the KEY
counter at level boundaries are propagated forward once per trigger the same
way.  Each level's ``spins`` is fixed, so the expected number of spins of
level ``L`` is ``spins(L) P(reach L)`` and, by Wald's identity, its expected
win is ``spins(L) P(reach L) E[W_L]``.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Iterable, Mapping, Sequence

from strips.model import GameModel, count_table_value
from markov.moments import CountSplit, PhaseAnalysis

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
class Numerators:
    """A split on one common denominator: integers, so the solvers avoid Fraction gcds.

    Attributes
    ----------
    den : int
        Common denominator of every entry of the split.
    prob, win, win2 : tuple of int
        ``den`` times the split's ``prob``, ``win`` (credits) and ``win2`` (credits^2).
    """

    den: int
    prob: tuple[int, ...]
    win: tuple[int, ...]
    win2: tuple[int, ...]

    @classmethod
    def of(cls, split: CountSplit) -> "Numerators":
        items = [Fraction(x) for x in (*split.prob, *split.win, *split.win2)]
        den = lcm(*(x.denominator for x in items))
        num = [x.numerator * (den // x.denominator) for x in items]
        n = len(split.prob)
        return cls(den, tuple(num[:n]), tuple(num[n:2 * n]), tuple(num[2 * n:]))


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
            In topological order: every transition goes from an earlier to a
            later state.
        """
        seen = {self.start(n) for n in initial_spins}
        frontier = sorted(seen)
        while frontier:
            nxt = set()
            for s in frontier:
                for *_, t in self.transitions(s):
                    if t != END and t not in seen:
                        seen.add(t)
                        nxt.add(t)
            frontier = sorted(nxt)
        return tuple(sorted(seen, key=lambda s: (s.level, -s.spins_left, s.keys)))


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


@dataclass(frozen=True)
class FeatureResult:
    """Exact figures of one free-spin feature (all levels) for a given number of initial spins.

    Source: rules page section 11.  All values are exact Fractions.

    Attributes
    ----------
    initial_spins : int
        Free spins of level 1 (section 10 trigger table).
    mean : Fraction
        E[F], F = total win of the free spins, credits per feature.
    second : Fraction
        E[F^2], credits^2 per feature.
    reach : tuple of Fraction, length = levels
        P(level i + 1 is played); ``reach[0] == 1``.
    final_level : tuple of Fraction, length = levels
        P(the free spins end after level i + 1); sums to 1.
    spins_by_level : tuple of Fraction, length = levels
        Expected free spins played on level i + 1, spins per feature.
    win_by_level : tuple of Fraction, length = levels
        Expected win of level i + 1's spins, credits per feature; sums to ``mean``.
    keys : Fraction
        Expected total KEY count of the feature (uncapped counter at the end).
    """

    initial_spins: int
    mean: Fraction
    second: Fraction
    reach: tuple[Fraction, ...]
    final_level: tuple[Fraction, ...]
    spins_by_level: tuple[Fraction, ...]
    win_by_level: tuple[Fraction, ...]
    keys: Fraction

    @property
    def variance(self) -> Fraction:
        """Var[F], credits^2 per feature."""
        return self.second - self.mean * self.mean

    @property
    def spins(self) -> Fraction:
        """Expected total free spins of the feature."""
        return sum(self.spins_by_level, ZERO)


def _backward(ladder: Ladder, max_initial: int) -> dict[int, tuple[Fraction, Fraction]]:
    """Exact (E[F], E[F^2]) from every level-1 state ``(1, s, 0)``, s = 1 .. max_initial.

    Integer form of the recursion in the module docstring; one pass serves
    every trigger because a level-1 state does not depend on where it started.
    """
    cap = ladder.cap
    nums = [Numerators.of(sp) for sp in ladder.splits]
    # value vectors over the counter c = 0 .. cap of the layer last computed,
    # scaled by that layer's R
    nxt_v = nxt_v2 = None   # layer of the next level's start state
    r_next = 1              # R of that layer (1 after the top level)
    out: dict[int, tuple[Fraction, Fraction]] = {}
    for li in range(ladder.levels - 1, -1, -1):
        level = li + 1
        nm = nums[li]
        ks = [k for k in range(len(nm.prob)) if nm.prob[k]]
        w_tot = sum(nm.win)
        v_tot = sum(nm.win2)
        n_spins = max_initial if level == 1 else ladder.spins[li]
        # successor layer of the level's last spin: next level start or END
        end_state = [ladder.after_level(level, c) for c in range(cap + 1)]
        succ_v = [None if t == END else nxt_v[c] for c, t in enumerate(end_state)]
        succ_v2 = [None if t == END else nxt_v2[c] for c, t in enumerate(end_state)]
        r_succ = r_next
        for s in range(1, n_spins + 1):
            v, v2 = [0] * (cap + 1), [0] * (cap + 1)
            base_v, base_v2 = r_succ * w_tot, r_succ * v_tot
            for c in range(cap + 1):
                acc_v, acc_v2 = base_v, base_v2
                for k in ks:
                    t = min(c + k, cap)
                    sv = succ_v[t]
                    if sv is not None:
                        acc_v += nm.prob[k] * sv
                        acc_v2 += 2 * nm.win[k] * sv + nm.prob[k] * succ_v2[t]
                v[c], v2[c] = acc_v, acc_v2
            r_succ *= nm.den
            succ_v, succ_v2 = v, v2
            if level == 1:
                out[s] = (Fraction(v[0], r_succ), Fraction(v2[0], r_succ))
        nxt_v, nxt_v2, r_next = succ_v, succ_v2, r_succ
    return out


def _reach(ladder: Ladder, initial_spins: int) -> list[Fraction]:
    """Exact probability of reaching each level, level 1 first.

    Propagates the distribution of the capped counter spin by spin (integer
    numerators over the product of the levels' denominators).
    """
    cap = ladder.cap
    dist = [1] + [0] * cap  # counter distribution at the level start, scaled by den
    den = 1
    reach: list[Fraction] = []
    for li, sp in enumerate(ladder.splits):
        level = li + 1
        mass = sum(dist)
        reach.append(Fraction(mass, den))
        if mass == 0:
            continue
        nm = Numerators.of(sp)
        ks = [k for k in range(len(nm.prob)) if nm.prob[k]]
        for _ in range(ladder.level_spins(level, initial_spins)):
            new = [0] * (cap + 1)
            for c, x in enumerate(dist):
                if x:
                    for k in ks:
                        new[min(c + k, cap)] += x * nm.prob[k]
            dist, den = new, den * nm.den
        dist = [x if ladder.after_level(level, c) != END else 0 for c, x in enumerate(dist)]
    return reach


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
    One backward pass (the expected win and second moment from every level-1
    state) serves all entries; the reach probabilities are propagated forward
    once per entry.  Source: rules page section 11.
    """
    for n in initial_spins:
        ladder.start(n)
    if not initial_spins:
        return ()
    values = _backward(ladder, max(initial_spins))
    key_means = [sum((k * p for k, p in enumerate(sp.prob)), ZERO) for sp in ladder.splits]
    results = []
    for n in initial_spins:
        reach = _reach(ladder, n)
        spins = tuple(ladder.level_spins(i + 1, n) * r for i, r in enumerate(reach))
        final = tuple(reach[i] - (reach[i + 1] if i + 1 < ladder.levels else 0)
                      for i in range(ladder.levels))
        mean, second = values[n]
        results.append(FeatureResult(
            initial_spins=n, mean=mean, second=second, reach=tuple(reach), final_level=final,
            spins_by_level=spins,
            win_by_level=tuple(s * sp.mean for s, sp in zip(spins, ladder.splits)),
            keys=sum((s * km for s, km in zip(spins, key_means)), ZERO)))
    return tuple(results)


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
