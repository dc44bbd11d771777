"""A game round with prize wheels and a respin: exact mean and second moment.

Source: the round rules (wheels, respin, fixed readings) on top of :mod:`markov.round`.

Let ``Y`` be the round's win before its features (the base spin's win, plus
the respin's pays when the spin is respun) and ``k = (n, b_1, ..., b_W)`` the
counts of the window that decides the features (the respin's window after a
respin): ``n`` trigger scatters, ``b_w`` symbols of wheel ``w``.  Given ``k``
the features are independent of ``Y`` and of each other: the free spins of
``n`` scatters (win ``F_n``) and one draw of each started wheel (win
``V_w``; a ``free_spins N`` award plays N free spins from level 1, after the
scatter-triggered ones, as its own feature).  With ``G = F_n + sum_w V_w``::

    E[X]   = E[Y] + sum_k P(k) E[G | k]
    E[X^2] = E[Y^2] + 2 sum_k E[Y 1{k}] E[G | k] + sum_k P(k) E[G^2 | k]
    E[G^2 | k] = E[F_n^2] + sum_w E[V_w^2] + 2 sum over pairs of distinct parts of the product of their means

A wheel is a finite weighted draw: ``E[V] = sum_a q_a E[v_a]``,
``E[V^2] = sum_a q_a E[v_a^2]`` with ``q_a`` = weight / total weight and
``v_a`` the award's win (credits, a jackpot's credits, or the free spins'
win ``F`` of N initial spins).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

from strips.model import CREDITS, FREE_SPINS, JACKPOT, Award, GameModel
from markov import protocol
from markov.chain import ZERO, FeatureResult
from markov.feature import feature_chain
from markov.moments import CountSplit, PhaseAnalysis
from markov.round import RoundResult, round_result, spin_chain
from markov.round_chain import RoundChain, split_by_counts

#: counts that decide the features -> (P, E[Y 1{k}], E[Y^2 1{k}]); k = (trigger scatters, wheel symbols ...)
PreSplit = Mapping[tuple, tuple[Fraction, Fraction, Fraction]]


@dataclass(frozen=True)
class WheelResult:
    """Exact figures of one prize wheel per round.

    Attributes
    ----------
    name : str
    mean : Fraction
        E[the wheel's win], credits per round, the free spins it awards included.
    prob : Fraction
        P(the wheel starts), per round.
    awards : mapping str -> Fraction
        Award text (``"jackpot Mini"``) -> P(the round wins it), per round.
    """

    name: str
    mean: Fraction
    prob: Fraction
    awards: Mapping[str, Fraction]


def features_for_spins(model: GameModel, levels: Sequence[PhaseAnalysis], spins: Iterable[int]) -> dict[int, FeatureResult]:
    """The free-spin feature started with each number of initial spins (level 1 of the ladder, or the retrigger chain).

    Raises
    ------
    ValueError
        As :func:`markov.round.round_result` (an invalid split; a retrigger chain that never ends).
    """
    distinct = sorted(set(spins))
    if not distinct:
        return {}
    return dict(zip(distinct, protocol.features(feature_chain(model, levels), distinct)))


def award_moments(award: Award, model: GameModel, features: Mapping[int, FeatureResult],
                  values: Mapping | None = None) -> tuple[Fraction, Fraction]:
    """(E[v], E[v^2]) of one award's win, credits and credits^2 (``values``: an award's moments given by a
    rule of the analysis layer, free spins with frames)."""
    if values and award in values:
        return values[award]
    if award.kind == CREDITS:
        return Fraction(award.amount), Fraction(award.amount ** 2)
    if award.kind == JACKPOT:
        v = model.jackpots[award.jackpot]
        return Fraction(v), Fraction(v * v)
    f = features[award.amount]
    return f.mean, f.second


def marginal_split(pre: PreSplit) -> CountSplit:
    """The split by the trigger-scatter count ``k[0]`` of a pre-feature split."""
    top = max(k[0] for k in pre)
    rows = [[ZERO, ZERO, ZERO] for _ in range(top + 1)]
    for k, vals in pre.items():
        for i in range(3):
            rows[k[0]][i] += vals[i]
    return CountSplit(prob=tuple(r[0] for r in rows), win=tuple(r[1] for r in rows), win2=tuple(r[2] for r in rows))


def wheel_chain(model: GameModel, base: PhaseAnalysis, levels: Sequence[PhaseAnalysis],
                stage: tuple | None = None, award_values: Mapping | None = None,
                window_awards: Mapping | None = None) -> tuple[RoundChain, RoundResult, PreSplit | None]:
    """The round as a chain of the protocol (:class:`markov.round_chain.RoundChain`: the spin, a respin, the
    prize wheels, the free spins), the round before its wheels (:func:`markov.round.round_result` on the split
    by the counts that decide the features) and that split (None without ``stage``); the parameters as
    :func:`wheel_round`, which solves the chain.  ``rtp chain --round`` exports it.

    >>> from strips.loader import load_math_set
    >>> from exact.engine import analyse
    >>> ms = load_math_set("rules_page")
    >>> an = analyse(ms)
    >>> chain, rr, pre = wheel_chain(ms.model, an.base, an.levels)
    >>> protocol.solve(chain, [0])[0].mean == rr.mean, pre is None
    (True, True)
    """
    if stage is None:       # no split by the wheels' counts or a respin: the round of the base spin
        rr = round_result(model, base, levels)
        return spin_chain(base.trigger_split, rr.features), rr, None
    spin_rows, respin_rows = stage
    pre = split_by_counts(RoundChain(spin_rows, respin_rows, (), {}, None))
    rr = round_result(model, base, levels, marginal_split(pre))
    award_spins = {a.amount for w in model.wheels for t in w.prizes.values() for a in t.awards if a.kind == FREE_SPINS}
    spins_features = features_for_spins(model, levels, award_spins)
    window_awards = window_awards or {}

    def award(a, k):
        """An award's (E[v], E[v^2]) given the deciding counts ``k``."""
        if a in window_awards:
            p = pre[k][0]
            s0, s2, _ = window_awards[a].get(k, (ZERO, ZERO, ZERO))
            return (s0 / p, s2 / p) if p else (ZERO, ZERO)
        return award_moments(a, model, spins_features, award_values)

    chain = RoundChain(spin_rows, respin_rows, [w.table_for for w in model.wheels],
                       {n: (f.mean, f.second) for n, f in rr.features.items()}, award)
    return chain, rr, pre


def wheel_round(model: GameModel, base: PhaseAnalysis, levels: Sequence[PhaseAnalysis],
                stage: tuple | None = None, award_values: Mapping | None = None,
                window_awards: Mapping | None = None) -> RoundResult:
    """Exact round figures with the game's prize wheels and a respin's pays: the round as a chain of the
    protocol (:class:`markov.round_chain.RoundChain`), solved by :func:`markov.protocol.features` (module
    docstring).

    Parameters
    ----------
    model : GameModel
        The mode's model (bet = its cost).
    base, levels : PhaseAnalysis
        As :func:`markov.round.round_result`.
    stage : (spin_rows, respin_rows), optional
        The spin's stage of the round's chain (the outcomes of the spin and of each respin,
        :func:`exact.bet_modes.spin_stage`); default none: no wheel, no respin, the round of
        :func:`markov.round.round_result`.
    award_values : mapping Award -> (E[v], E[v^2]), optional
        Awards whose win a rule gives (free spins with frames), independent of the round's other parts
        given the window's counts.
    window_awards : mapping Award -> {k: (S0, S2, SY)}, optional
        Awards whose win depends on where symbols land in the deciding window (one wheel only): by the
        split's counts k, S0 = E[v 1{k}], S2 = E[v^2 1{k}], SY = E[Y v 1{k}] (Y the round's win before
        its features); their ``award_values`` entry is (0, 0).  In the chain such an award wins its mean
        given k; its cross moment with Y beyond k is added to the second moment apart.

    Returns
    -------
    RoundResult
        ``mean``, ``second`` with the wheels; ``free_spins`` the
        scatter-triggered free spins only; ``wheel`` every wheel's win (the
        free spins it awards included); ``wheels`` a :class:`WheelResult`
        per wheel; ``respin``, ``respin_prob`` the respin's pays and probability per round.

    Raises
    ------
    ValueError
        As :func:`markov.round.round_result`.
    """
    if stage is None:       # no split by the wheels' counts or a respin: the round of the base spin
        return round_result(model, base, levels)
    chain, rr, pre = wheel_chain(model, base, levels, stage, award_values, window_awards)
    respin_rows = stage[1]
    window_awards = window_awards or {}
    figures, = protocol.features(chain, [0])
    cross = ZERO        # the window awards' E[Y v 1{k}] beyond the chain's E[Y 1{k}] E[v | k]
    awards: dict[str, dict[str, Fraction]] = {w.name: {} for w in model.wheels}
    for k, (p, y1, _) in pre.items():
        for i, w in enumerate(model.wheels):
            table = w.table_for(k[1 + i])
            reached = p if table is not None else ZERO      # P(visiting ("wheel", i, k)): P(reaching decided(k))
            if not reached:
                continue
            total = sum(table.weights)
            for a, wt in zip(table.awards, table.weights):
                q = Fraction(wt, total)
                awards[w.name][a.text] = awards[w.name].get(a.text, ZERO) + reached * q
                if a in window_awards:
                    s0, _, sy = window_awards[a].get(k, (ZERO, ZERO, ZERO))
                    cross += 2 * q * (sy - y1 * s0 / p)
    results = {w.name: WheelResult(w.name, figures.win_by_level[3 + i], figures.reach[3 + i], awards[w.name])
               for i, w in enumerate(model.wheels)}
    respin_prob = figures.reach[1] if respin_rows else ZERO
    components = {**rr.components, **({"respin": figures.win_by_level[1]} if respin_prob else {}),
                  **({"wheel": sum((r.mean for r in results.values()), ZERO)} if results else {})}
    return dataclasses.replace(rr, mean=figures.mean, second=figures.second + cross, components=components,
                               respin_prob=respin_prob, wheels=results)
