"""Free spins with retrigger on one level, solved exactly: closed form (no cap) or a finite chain (cap).

Source: the retrigger rule (retriggering free spins; the African Simba rules in
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
so the chain is acyclic (at most ``C`` steps): an instance of the
feature-chain protocol (:mod:`markov.protocol`), solved by
:func:`markov.protocol.features` exactly as the ladder is.  Without a cap the
spins played change nothing ahead: the state is ``(left, 0)`` and the chain
has infinitely many states (its figures are the closed form above, its win
distribution the cycle-lemma sum :func:`cycle_lemma_feature` or the
layer-by-layer run of :func:`markov.protocol.run`).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from strips.model import GameModel, count_table_value
from markov.moments import CountSplit, PhaseAnalysis
from markov import protocol
from markov.chain import ZERO, check_phase, validate_split
from markov.protocol import FeatureResult

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
    Source: the retrigger rule; formulas in the module docstring.
    """

    split: CountSplit
    extra: tuple[int, ...]
    cap: int | None = None
    multiplier: int = 1
    key_mean: Fraction = ZERO
    #: ``retrigger_total_below`` with several award sizes: a spin's retrigger adds its spins only while
    #: left + played (the current spin among the left) is below it, else nothing; None without.
    below: int | None = None

    def __post_init__(self):
        validate_split(self.split, "free-spin scatter split")
        if len(self.extra) != len(self.split.prob):
            raise ValueError(f"{len(self.extra)} retrigger entries for {len(self.split.prob)} scatter counts")
        if any(e < 0 for e in self.extra):
            raise ValueError(f"retrigger spins must be >= 0, got {self.extra}")
        if self.cap is not None and self.cap < 1:
            raise ValueError(f"the retrigger cap must be >= 1 free spin, got {self.cap}")
        if self.cap is None and self.below is None and self.expected_extra >= 1:
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
        """Successor of ``(left, played)`` after a spin awarding ``extra`` spins (``None``: END); without a
        cap the spins played are not kept (``played`` stays 0: they change nothing ahead)."""
        left, played = state
        if self.below is not None:      # whole awards while the spins awarded so far are below the bound
            nxt = (left - 1 + (extra if left + played < self.below else 0), played + 1)
        elif self.cap is None:
            nxt = (left - 1 + extra, 0)
        else:
            nxt = (left - 1 + min(extra, self.cap - left - played), played + 1)
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
        if not self.finite:
            raise ValueError("free spins retrigger without a cap: the chain has infinitely many states")
        return tuple(protocol.reachable(self, [self.start(n) for n in initial_spins]))

    # -- the game's feature chain (markov.feature) ----------------------------
    #: name of the chain in :data:`markov.feature.CHAINS`
    kind = "retrigger"
    #: the count the level's per-spin split is by: the scatter count (it decides the retrigger)
    count_by = "scatter"

    @classmethod
    def of(cls, model: GameModel, levels: Sequence[PhaseAnalysis]) -> "RetriggerChain":
        """:func:`retrigger_of`."""
        return retrigger_of(model, levels)

    @classmethod
    def of_splits(cls, model: GameModel, splits: Sequence[CountSplit]) -> "RetriggerChain":
        """The chain of ``model``'s one level with its per-spin split by scatter count.

        Raises
        ------
        ValueError
            ``"unsupported rule: retrigger with a multi-level ladder"`` with more than one split; as
            :class:`RetriggerChain`.
        """
        if len(splits) != 1:
            raise ValueError("unsupported rule: retrigger with a multi-level ladder")
        split = splits[0]
        return cls(split=split, extra=tuple(count_table_value(model.retrigger, n) for n in range(len(split.prob))),
                   cap=model.retrigger_cap, multiplier=model.levels[0].multiplier,
                   below=getattr(model, "retrigger_below", None))

    def round_figures(self) -> dict:
        """Fields of :class:`markov.round.RoundResult`: E[extra spins per free spin] and the cap."""
        return {"retrigger_per_spin": self.expected_extra, "retrigger_cap": self.cap}

    @property
    def multipliers(self) -> tuple[int]:
        """The multiplier of each level: the one level's."""
        return (self.multiplier,)

    #: why the chain has infinitely many states when :attr:`finite` is False
    infinite = "the free spins retrigger without a cap"

    # -- the protocol's optional members (markov.protocol) ------------------
    @property
    def finite(self) -> bool:
        """Whether the chain has finitely many states: with a cap or a bound on the spins awarded."""
        return self.cap is not None or self.below is not None

    @staticmethod
    def order(state: tuple[int, int]) -> tuple[int, int]:
        """Sort key growing along every transition: spins played, then spins left."""
        return state[1], state[0]

    #: one level: one stage
    stages = 1

    @staticmethod
    def stage(state) -> int:
        """Every state is on the one level."""
        return 0

    def count(self, state, n: int, p: Fraction) -> Fraction:
        """E[K 1{n}]: the KEY count is not split by scatter count, so probability x E[KEY per spin]."""
        return p * self.key_mean

    @staticmethod
    def law(state) -> int:
        """One law for every state: the runner plays ``kernels[0]``, by extra spins."""
        return 0

    def moves(self, tables: Sequence[dict]) -> list[dict]:
        """The runner's tables: the one level's tables by scatter count merged by the extra spins they award."""
        merged: dict[int, dict] = {}
        for n, table in tables[0].items():
            m = merged.setdefault(self.extra[n], {})
            for w, p in table.items():
                m[w] = m.get(w, 0) + p
        return [merged]

    def series(self, alg, start, kernels, max_spins: int):
        """The endless feature from ``start`` as the cycle-lemma sum (:func:`cycle_lemma_feature`), or None."""
        return cycle_lemma_feature(alg, start[0], kernels[0], max_spins)

    def closed_form(self, initial_spins: Sequence[int]) -> dict[int, FeatureResult]:
        """The figures without a cap: :func:`unlimited_features` by initial spins."""
        return dict(zip(initial_spins, unlimited_features(self, initial_spins)))

    @staticmethod
    def node_id(state) -> str:
        """Graph node id of ``(left, played)``: ``"s12 p3"``, or ``"END"``."""
        return "END" if state == "END" else f"s{state[0]} p{state[1]}"

    def node_attributes(self, state) -> dict:
        """Graph node attributes: one level, spins left, spins played, the level's multiplier."""
        return dict(level=1, spins_left=state[0], played=state[1], keys=0, multiplier=self.multiplier)

    def graph_attributes(self) -> dict:
        """Graph attributes: one level (thresholds, spins, multipliers), the cap, the extra spins per count."""
        return dict(thresholds=(0,), spins=(0,), multipliers=(self.multiplier,), cap=self.cap,
                    retrigger=tuple(self.extra))

    #: the attributes of the absorbing node of the graph export
    end_attributes = dict(level=0, spins_left=0, played=0, keys=0, multiplier=0)


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
                          cap=model.retrigger_cap, multiplier=model.levels[0].multiplier, key_mean=key_mean,
                          below=getattr(model, "retrigger_below", None))


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
    """Exact features with the chain's cap: :func:`markov.protocol.features` on the finite chain.

    Raises
    ------
    ValueError
        If the chain has no cap, or an entry is < 1 or above the cap.
    """
    if chain.cap is None:
        raise ValueError("capped_features needs a chain with a retrigger cap")
    return protocol.features(chain, tuple(initial_spins))


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
    return protocol.features(chain, tuple(initial_spins))


# ---------------------------------------------------------------------------
# the endless feature's win distribution as a sum over award counts (any algebra of distributions)
# ---------------------------------------------------------------------------
#: Most terms (vectors of retrigger counts) of :func:`cycle_lemma_feature`; beyond, the layer-by-layer run.
MAX_CYCLE_TERMS = 20_000
#: Largest coefficient of a term (its float must not overflow; see SpectralAlgebra.scale).
MAX_CYCLE_COEFFICIENT = 10 ** 250


def _power(alg, k, e: int):
    """k^e (e >= 1) by squaring: about 2 log2(e) products."""
    out, sq = None, k
    while True:
        if e & 1:
            out = sq if out is None else alg.mul(out, sq)
        e >>= 1
        if not e:
            return out
        sq = alg.mul(sq, sq)


def cycle_lemma_terms(s0: int, extras: Sequence[int], max_spins: int) -> list[tuple[tuple[int, ...], Fraction]] | None:
    """The terms of :func:`cycle_lemma_feature`: (counts c_e of each extra e > 0, coefficient), or None
    when there are more than :data:`MAX_CYCLE_TERMS` or a coefficient above :data:`MAX_CYCLE_COEFFICIENT`.

    A vector c plays t = s0 + sum c_e e spins (t <= max_spins), c_0 = t - sum c_e of them awarding
    nothing; its coefficient is (s0 / t) x t! / (c_0! prod c_e!).

    >>> cycle_lemma_terms(2, [1], 4)   # 2, 3, 4 spins; ending at 4: 3 of the 6 orders of 2 awards
    [((0,), Fraction(1, 1)), ((1,), Fraction(2, 1)), ((2,), Fraction(3, 1))]
    """
    terms = _cycle_lemma_terms(s0, tuple(extras), max_spins)   # the passes of one distribution ask alike
    return None if terms is None else list(terms)


@functools.lru_cache(maxsize=32)
def _cycle_lemma_terms(s0: int, extras: tuple[int, ...], max_spins: int) -> tuple | None:
    """:func:`cycle_lemma_terms` as a tuple, remembered."""
    out: list = []

    def walk(i: int, counts: tuple[int, ...], used: int) -> bool:
        if i == len(extras):
            t = s0 + used
            c0 = t - sum(counts)
            coef = Fraction(s0, t) * math.factorial(t) / math.factorial(c0) / math.prod(map(math.factorial, counts))
            if coef > MAX_CYCLE_COEFFICIENT or len(out) >= MAX_CYCLE_TERMS:
                return False
            out.append((counts, coef))
            return True
        c = 0
        while s0 + used + c * extras[i] <= max_spins:
            if not walk(i + 1, counts + (c,), used + c * extras[i]):
                return False
            c += 1
        return True

    return tuple(out) if walk(0, (), 0) else None


def cycle_lemma_feature(alg, s0: int, kernels: dict, max_spins: int):
    """The feature of an endless (uncapped) retrigger from ``s0`` free spins, cut after ``max_spins``
    spins, as a sum over the counts of each retrigger award instead of spin by spin; None when
    :func:`cycle_lemma_terms` refuses (then :func:`markov.protocol.run` plays it layer by layer).

    Each spin consumes one spin and awards e >= 0 more, so the spins left walk down by at most
    one per spin and the feature ends at the first t with s0 + sum (e_i - 1) = 0.  By the cycle
    lemma (the hitting-time theorem, Kemperman 1961; van der Hofstad and Keane 2008), for
    i.i.d. spins P(the feature ends at spin t, its win = w) = (s0 / t) P(sum of e_i - 1 over t
    spins = -s0, sum of the t wins = w): the win of a sequence is the same for all its cyclic
    shifts, of which exactly s0 end at t.  So, with K_e the kernel of a spin awarding e,

        feature = sum over c = (c_e)_{e > 0} of (s0 / t) multinomial(t; c_0, c) K_0^c_0 prod K_e^c_e,

    t = s0 + sum c_e e <= max_spins, c_0 = t - sum c_e: the same truncation as :func:`markov.protocol.run`
    (every feature that ends within ``max_spins`` spins), in about one product per term instead
    of one per state and spin.  Exact in :class:`exact.distribution.ExactAlgebra` (tested equal to the layered run).

    References
    ----------
    Kemperman, J. H. B. (1961). *The Passage Problem for a Stationary Markov Chain*. Univ. of Chicago Press.
    van der Hofstad, R., Keane, M. (2008). An elementary proof of the hitting time theorem.
    *Amer. Math. Monthly* 115(8), 753-756.
    """
    if 0 not in kernels:
        return None
    extras = sorted(e for e in kernels if e > 0)
    terms = cycle_lemma_terms(s0, extras, max_spins)
    if terms is None:
        return None
    k0 = kernels[0]
    steps = [alg.mul(_power(alg, k0, e - 1), kernels[e]) if e > 1 else kernels[e] for e in extras]
    coefficient = dict(terms)
    acc = None

    def walk(i: int, value, counts: tuple[int, ...], used: int) -> None:
        """Every term whose leading counts are ``counts``; ``value`` = K_0^s0 prod_{j<i} step_j^c_j."""
        nonlocal acc
        if i == len(extras):
            term = alg.scale(value, coefficient[counts])
            acc = term if acc is None else alg.add(acc, term)
            return
        c = 0
        while True:
            walk(i + 1, value, counts + (c,), used + c * extras[i])
            c += 1
            if s0 + used + c * extras[i] > max_spins:
                return
            value = alg.mul(value, steps[i])    # step_i = K_0^(e_i - 1) K_e_i: one more award of e_i

    walk(0, _power(alg, k0, s0), (), 0)
    return acc
