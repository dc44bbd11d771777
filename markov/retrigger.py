"""Free spins with retrigger on one level, solved exactly: closed form (no cap) or a finite chain (cap).

Source: issue 9 (retriggering free spins; the African Simba rules in
``../shared/external/african-simba/README.md``: "3 SCATTERs in a free spin
award 12 more free spins (retrigger, no limit)").

Rules
-----
The feature has one level (``GameModel.levels`` holds exactly one; its
multiplier applies to every free spin and is included in the wins of the
level's split).  It starts with ``N0`` initial free spins
(the trigger table, ``strips.model.count_table_value``).  Each free spin draws its scatter count ``n``
and win ``W`` jointly from the level's :class:`~markov.moments.CountSplit`
``by_scatter`` and adds ``e(n)`` (the retrigger table of ``n``) spins to the
spins still to play.  The feature ends when no spin is left.  Its win ``F`` is
the sum of the wins of all its spins.

Cap
---
``GameModel.retrigger_cap = C`` is the most free spins one feature can play
in total, initial spins included.  A retrigger awarded when ``a`` spins have
been awarded so far (played + still to play, initial spins included) adds
``min(e(n), C - a)`` spins; the spins beyond the cap are lost.  ``C`` below
the initial spins of a trigger is an error.  ``C = None``: no cap.

No cap: branching process, closed form
--------------------------------------
With ``R = e(N)`` the extra spins of one spin, each spin is the root of an
independent subtree (the spins it awards, the spins those award, ...).  The
subtree total ``Y = W + Y_1 + ... + Y_R`` with ``Y_j`` independent copies of
``Y``, independent of ``(W, R)``.  Taking moments::

    E[Y]   = E[W] + E[R] E[Y]
    E[Y^2] = E[W^2] + 2 E[W R] E[Y] + E[R] E[Y^2] + E[R (R - 1)] E[Y]^2

so, for ``E[R] < 1``::

    E[Y]   = E[W] / (1 - E[R])
    E[Y^2] = (E[W^2] + 2 E[W R] E[Y] + E[R (R - 1)] E[Y]^2) / (1 - E[R])

with ``E[W R] = sum_n e(n) E[W 1{N = n}]`` and ``E[R^k] = sum_n e(n)^k P(n)``.
The feature of ``N0`` initial spins is the sum of ``N0`` independent subtrees:
``E[F] = N0 E[Y]``, ``Var[F] = N0 Var[Y]``.  The expected number of spins is
``N0 / (1 - E[R])`` (the same recursion with ``W = 1``).  ``E[R] >= 1``
makes the expected feature infinite (the process is not subcritical): a
:class:`ValueError`, never a loop.

Cap: finite absorbing chain
---------------------------
State ``(left, played)``: spins still to play (>= 1, the spin about to be
played counted) and spins played, so ``left + played`` spins are awarded and
``left + played <= C``.  One spin with scatter count ``n`` goes to
``(left - 1 + min(e(n), C - left - played), played + 1)``, or to the
absorbing END when that has ``left = 0``.  ``played`` grows by one per step,
so the chain is acyclic (at most ``C`` steps) and is solved backwards from
``played = C - 1`` to ``played = 0`` with::

    V(s)  = sum_g  w_g + p_g V(t_g)
    V2(s) = sum_g  v_g + 2 w_g V(t_g) + p_g V2(t_g)
    S(s)  = 1 + sum_g p_g S(t_g)

over the groups ``g`` of scatter counts with the same extra spins
(``p_g``, ``w_g = E[W 1{g}]``, ``v_g = E[W^2 1{g}]``; ``V = V2 = S = 0`` at
END), exactly as :mod:`markov.chain` does for the ladder.  Integers stand in
for Fractions: with ``D`` the split's common denominator, ``D^(C - played)``
times ``V``, ``V2`` and ``S`` of a state are integers.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from strips.model import GameModel, count_table_value
from markov.moments import CountSplit, PhaseAnalysis
from markov.chain import ZERO, FeatureResult, Numerators, check_phase, validate_split

#: message of the infinite-feature error (E[R] >= 1 without a cap)
INFINITE = "the expected retrigger spins per free spin is >= 1: the feature value is infinite"


@dataclass(frozen=True)
class RetriggerChain:
    """Free spins with retrigger on one level: the per-spin split, the retrigger table and the cap.

    Parameters
    ----------
    split : CountSplit
        One free spin's win ``W`` (credits, level multiplier included) split
        by the scatter count ``n`` of its window, ``n = 0 .. len - 1``.
    extra : tuple of int, same length as ``split.prob``
        ``extra[n]`` = extra free spins awarded by ``n`` scatter symbols in a
        free spin (0: no retrigger).
    cap : int or None
        Most free spins one feature can play in total, initial spins
        included (see the module docstring); ``None``: no cap.
    multiplier : int
        The level's multiplier (for display only: the split's wins include it).
    key_mean : Fraction
        Expected KEY symbols per free spin (0 for a game without KEY), for
        :attr:`FeatureResult.keys`.

    Raises
    ------
    ValueError
        If the split fails :func:`markov.chain.validate_split`; ``extra`` has
        another length than the split or a negative entry; ``cap`` < 1; or
        there is no cap and E[R] >= 1 (:data:`INFINITE`).

    Notes
    -----
    Source: issue 9, the retrigger rule; formulas in the module docstring.
    """

    split: CountSplit
    extra: tuple[int, ...]
    cap: int | None = None
    multiplier: int = 1
    key_mean: Fraction = ZERO

    def __post_init__(self):
        validate_split(self.split, "free-spin scatter split")
        if len(self.extra) != len(self.split.prob):
            raise ValueError(f"{len(self.extra)} retrigger entries for {len(self.split.prob)} scatter counts")
        if any(e < 0 for e in self.extra):
            raise ValueError(f"retrigger spins must be >= 0, got {self.extra}")
        if self.cap is not None and self.cap < 1:
            raise ValueError(f"the retrigger cap must be >= 1 free spin, got {self.cap}")
        if self.cap is None and self.expected_extra >= 1:
            raise ValueError(f"{INFINITE} (E[R] = {self.expected_extra})")

    # -- per-spin moments -------------------------------------------------
    def _sum(self, f) -> Fraction:
        return sum((f(e, p, w) for e, p, w in zip(self.extra, self.split.prob, self.split.win)), ZERO)

    @property
    def expected_extra(self) -> Fraction:
        """E[R]: expected extra free spins awarded per free spin (before any cap)."""
        return self._sum(lambda e, p, w: e * p)

    @property
    def extra_factorial2(self) -> Fraction:
        """E[R (R - 1)], spins^2 per free spin (before any cap)."""
        return self._sum(lambda e, p, w: e * (e - 1) * p)

    @property
    def win_extra(self) -> Fraction:
        """E[W R] = sum_n e(n) E[W 1{N = n}], credits x spins per free spin."""
        return self._sum(lambda e, p, w: e * w)

    def groups(self) -> tuple[tuple[int, Fraction, Fraction, Fraction], ...]:
        """Scatter counts merged by their extra spins: ``(extra, P, E[W 1{g}], E[W^2 1{g}])``.

        Only groups of positive probability, ascending by ``extra``.
        """
        out: dict[int, list[Fraction]] = {}
        for e, p, w, w2 in zip(self.extra, self.split.prob, self.split.win, self.split.win2):
            if p:
                g = out.setdefault(e, [ZERO, ZERO, ZERO])
                g[0] += p
                g[1] += w
                g[2] += w2
        return tuple((e, *out[e]) for e in sorted(out))

    def start(self, initial_spins: int) -> tuple[int, int]:
        """The first state ``(left, played)`` of a feature of ``initial_spins`` free spins.

        Raises
        ------
        ValueError
            If ``initial_spins`` < 1 or above the cap.
        """
        if initial_spins < 1:
            raise ValueError(f"initial free spins must be >= 1, got {initial_spins}")
        if self.cap is not None and initial_spins > self.cap:
            raise ValueError(f"the retrigger cap of {self.cap} free spins is below the "
                             f"{initial_spins} initial free spins of a trigger")
        return initial_spins, 0

    def step(self, state: tuple[int, int], extra: int) -> tuple[int, int] | None:
        """Successor of ``(left, played)`` after a spin awarding ``extra`` spins (``None``: END)."""
        left, played = state
        if self.cap is not None:
            extra = min(extra, self.cap - left - played)
        nxt = (left - 1 + extra, played + 1)
        return nxt if nxt[0] else None


    def transitions(self, state: tuple[int, int]) -> tuple[tuple[int, Fraction, Fraction, Fraction, tuple[int, int] | None], ...]:
        """Outgoing transitions of ``(left, played)``: ``(n, P(n), E[W 1{n}], E[W^2 1{n}], successor)``.

        One per scatter count ``n`` of positive probability; successor
        ``None`` is END.  Wins in credits (per spin) and credits^2.
        """
        sp = self.split
        return tuple((n, sp.prob[n], sp.win[n], sp.win2[n], self.step(state, self.extra[n]))
                     for n in range(len(sp.prob)) if sp.prob[n] != 0)

    def reachable(self, initial_spins: Sequence[int]) -> tuple[tuple[int, int], ...]:
        """Transient states ``(left, played)`` reachable from the given starts, in topological order
        (ascending ``played``).

        Raises
        ------
        ValueError
            If the chain has no cap (infinitely many states), or a start is < 1 or above the cap.
        """
        if self.cap is None:
            raise ValueError("free spins retrigger without a cap: the chain has infinitely many states")
        seen = {self.start(n) for n in initial_spins}
        frontier = sorted(seen)
        while frontier:
            nxt = {t for s in frontier for *_, t in self.transitions(s) if t is not None} - seen
            seen |= nxt
            frontier = sorted(nxt)
        return tuple(sorted(seen, key=lambda s: (s[1], s[0])))


def retrigger_of(model: GameModel, levels: Sequence[PhaseAnalysis]) -> RetriggerChain:
    """The retrigger chain of ``model`` with the engine's analysis of its one free-spin level.

    Parameters
    ----------
    model : GameModel
        Gives ``retrigger`` (via ``retrigger_spins``), ``retrigger_cap`` and
        the one level's multiplier.
    levels : sequence of one PhaseAnalysis
        Its ``by_scatter`` split (scatter count of a free spin) feeds the
        chain, its ``by_key`` split the expected KEY count.

    Raises
    ------
    ValueError
        ``"unsupported rule: retrigger with a multi-level ladder"`` if the
        model has more than one level; if the number of analyses is not one;
        if the split is invalid or disagrees with the phase's moments; or as
        :class:`RetriggerChain`.
    """
    if len(model.levels) != 1:
        raise ValueError("unsupported rule: retrigger with a multi-level ladder")
    if len(levels) != 1:
        raise ValueError(f"{len(levels)} level analyses given for 1 level")
    pa = levels[0]
    check_phase(pa, pa.trigger_split, "free-spin scatter split")
    split = pa.trigger_split
    key_mean = sum((k * p for k, p in enumerate(pa.by_key.prob)), ZERO)
    extra = tuple(count_table_value(model.retrigger, n) for n in range(len(split.prob)))
    return RetriggerChain(split=split, extra=extra,
                          cap=model.retrigger_cap, multiplier=model.levels[0].multiplier, key_mean=key_mean)


def _feature(chain: RetriggerChain, n: int, mean: Fraction, second: Fraction, spins: Fraction) -> FeatureResult:
    """A one-level :class:`FeatureResult` from the feature's moments and expected spins."""
    return FeatureResult(initial_spins=n, mean=mean, second=second, reach=(Fraction(1),),
                         final_level=(Fraction(1),), spins_by_level=(spins,), win_by_level=(mean,),
                         keys=spins * chain.key_mean)


def subtree_moments(chain: RetriggerChain) -> tuple[Fraction, Fraction, Fraction]:
    """Uncapped ``(E[Y], E[Y^2], E[spins])`` of one free spin and everything it retriggers.

    Credits, credits^2 and spins per initial free spin; formulas in the module
    docstring (branching process).

    Raises
    ------
    ValueError
        If E[R] >= 1 (:data:`INFINITE`), whatever the chain's cap.
    """
    er = chain.expected_extra
    if er >= 1:
        raise ValueError(f"{INFINITE} (E[R] = {er})")
    ey = chain.split.mean / (1 - er)
    ey2 = (chain.split.second + 2 * chain.win_extra * ey + chain.extra_factorial2 * ey * ey) / (1 - er)
    return ey, ey2, 1 / (1 - er)


def unlimited_features(chain: RetriggerChain, initial_spins: Sequence[int]) -> tuple[FeatureResult, ...]:
    """Exact features without a cap (the chain's ``cap`` is ignored): closed form of the branching process.

    ``E[F] = N0 E[Y]``, ``Var[F] = N0 Var[Y]``, ``E[spins] = N0 / (1 - E[R])``.

    Raises
    ------
    ValueError
        If E[R] >= 1 or an entry of ``initial_spins`` is < 1.
    """
    ey, ey2, es = subtree_moments(chain)
    out = []
    for n in initial_spins:
        if n < 1:
            raise ValueError(f"initial free spins must be >= 1, got {n}")
        mean = n * ey
        out.append(_feature(chain, n, mean, n * (ey2 - ey * ey) + mean * mean, n * es))
    return tuple(out)


def capped_features(chain: RetriggerChain, initial_spins: Sequence[int]) -> tuple[FeatureResult, ...]:
    """Exact features with the chain's cap: backward solution of the finite chain (module docstring).

    One backward pass serves every entry of ``initial_spins``.  Time grows as
    ``cap^2 x groups`` integer operations on numbers of ``cap x log2(D)`` bits.

    Raises
    ------
    ValueError
        If the chain has no cap, or an entry is < 1 or above the cap.
    """
    if chain.cap is None:
        raise ValueError("capped_features needs a chain with a retrigger cap")
    for n in initial_spins:
        chain.start(n)
    if not initial_spins:
        return ()
    cap = chain.cap
    groups = chain.groups()
    num = Numerators.of(CountSplit(*(tuple(g[i] for g in groups) for i in (1, 2, 3))))
    extras = [g[0] for g in groups]
    w_tot, v_tot = sum(num.win), sum(num.win2)
    # layer `played` = p: lists over left = 0 .. cap - p (index 0 = END, all zero), scaled by D^(cap - p)
    nxt_v = nxt_v2 = nxt_s = [0]      # layer p = cap: only END
    scale = 1                          # D^(cap - p - 1) of the next layer
    for p in range(cap - 1, -1, -1):
        size = cap - p
        v, v2, s = [0] * (size + 1), [0] * (size + 1), [0] * (size + 1)
        for left in range(1, size + 1):
            room = size - left
            acc_v, acc_v2, acc_s = scale * w_tot, scale * v_tot, scale * num.den
            for e, pr, w in zip(extras, num.prob, num.win):
                t = left - 1 + min(e, room)
                if t:
                    acc_v += pr * nxt_v[t]
                    acc_v2 += 2 * w * nxt_v[t] + pr * nxt_v2[t]
                    acc_s += pr * nxt_s[t]
            v[left], v2[left], s[left] = acc_v, acc_v2, acc_s
        nxt_v, nxt_v2, nxt_s = v, v2, s
        scale *= num.den
    return tuple(_feature(chain, n, Fraction(nxt_v[n], scale), Fraction(nxt_v2[n], scale),
                          Fraction(nxt_s[n], scale)) for n in initial_spins)


def feature_results(chain: RetriggerChain, initial_spins: Sequence[int]) -> tuple[FeatureResult, ...]:
    """Exact :class:`FeatureResult` per number of initial free spins: closed form without a cap,
    the finite chain with one.

    Returns
    -------
    tuple of FeatureResult, one per entry, same order; one level:
    ``reach == final_level == (1,)``, ``spins_by_level == (E[spins],)``,
    ``win_by_level == (mean,)``, ``keys = E[spins] x E[KEY per spin]``.

    Raises
    ------
    ValueError
        As :func:`unlimited_features` or :func:`capped_features`.
    """
    if chain.cap is None:
        return unlimited_features(chain, initial_spins)
    return capped_features(chain, initial_spins)
