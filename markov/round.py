"""A whole game round: the base spin plus, after a trigger, the free-spin feature.

Source: rules page section 2 (a game round is one base spin and, if it
triggers, all free spins; its win is the sum), section 10 (trigger table) and
section 11 (the feature).

Let ``B`` be the base spin's win, ``N`` its scatter (FS) count and ``F`` the
feature's win (``F = 0`` without a trigger).  The round win is ``X = B + F``.
Given ``N = n`` the feature is independent of the base spin (it uses other
reels and its own fish values), so with ``E_n[.] = E[. | feature of n FS]``::

    E[X]   = E[B] + sum_n P(n) E_n[F]
    E[X^2] = E[B^2] + 2 sum_n E[B 1{n}] E_n[F] + sum_n P(n) E_n[F^2]

``E[B 1{n}]`` is ``base.by_scatter.win[n]``; the middle term is the
covariance part of the triggering base spin and its feature.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from exact.model import GameModel
from exact.moments import PhaseAnalysis
from markov.chain import ZERO, FeatureResult, check_phase, features_by_trigger, ladder_of


@dataclass(frozen=True)
class RoundResult:
    """Exact figures of one game round (base spin + its free spins), all Fractions.

    Attributes
    ----------
    bet : int
        Credits per round (per base spin).
    mean : Fraction
        E[round win], credits per round.
    second : Fraction
        E[round win^2], credits^2 per round.
    base_ways, base_collect : Fraction
        Expected ways pays and collect win of the base spin, credits per round.
    free_spins : Fraction
        Expected win of the free spins, credits per round.
    free_spins_by_level : tuple of Fraction, length = levels
        Expected win of each level's spins, credits per round; sums to ``free_spins``.
    base_feature : Fraction
        E[B F], credits^2 per round: the product moment of the base spin's win
        and its feature's win.
    trigger_prob : mapping int -> Fraction
        P(the base spin shows n FS symbols), for each n that triggers.
    features : mapping int -> FeatureResult
        The feature for each triggering FS count.
    reach : tuple of Fraction, length = levels
        P(level i + 1 is played in a round); ``reach[0]`` is the trigger probability.
    free_spins_played : Fraction
        Expected number of free spins per round.
    """

    bet: int
    mean: Fraction
    second: Fraction
    base_ways: Fraction
    base_collect: Fraction
    free_spins: Fraction
    free_spins_by_level: tuple[Fraction, ...]
    base_feature: Fraction
    trigger_prob: Mapping[int, Fraction]
    features: Mapping[int, FeatureResult]
    reach: tuple[Fraction, ...]
    free_spins_played: Fraction

    @property
    def variance(self) -> Fraction:
        """Var[round win], credits^2 per round."""
        return self.second - self.mean * self.mean

    @property
    def rtp(self) -> Fraction:
        """Return to player: E[round win] / bet (a fraction of 1)."""
        return self.mean / self.bet

    @property
    def rtp_split(self) -> dict[str, Fraction]:
        """RTP by source: ``base ways``, ``base collect``, ``free spins`` and ``level N``; the first three sum to ``rtp``."""
        out = {"base ways": self.base_ways / self.bet, "base collect": self.base_collect / self.bet,
               "free spins": self.free_spins / self.bet}
        out.update({f"level {i}": w / self.bet for i, w in enumerate(self.free_spins_by_level, start=1)})
        return out

    @property
    def trigger_probability(self) -> Fraction:
        """P(the base spin triggers the free spins), per round."""
        return sum(self.trigger_prob.values(), ZERO)

    @property
    def base_feature_covariance(self) -> Fraction:
        """Cov[B, F] = E[B F] - E[B] E[F], credits^2 per round."""
        return self.base_feature - (self.base_ways + self.base_collect) * self.free_spins


def round_result(model: GameModel, base: PhaseAnalysis, levels: Sequence[PhaseAnalysis]) -> RoundResult:
    """Exact mean, second moment and splits of a game round.

    Parameters
    ----------
    model : GameModel
        Bet, trigger table and ladder.
    base : PhaseAnalysis
        The base spin; its ``by_scatter`` split (index n = n FS symbols)
        gives the trigger probabilities and E[B 1{n}].
    levels : sequence of PhaseAnalysis, one per level, level 1 first
        Each level's ``by_key`` split feeds the ladder chain.

    Returns
    -------
    RoundResult
        Credits per round; see the module docstring for the formulas.

    Raises
    ------
    ValueError
        If a split is invalid or disagrees with its phase's moments, the base
        ways and collect means do not sum to its mean, or the number of level
        analyses differs from the number of levels.

    Notes
    -----
    Source: rules page sections 2, 10 and 11.
    """
    check_phase(base, base.by_scatter, "base FS split")
    if base.ways_mean + base.collect_mean != base.mean:
        raise ValueError(f"base ways mean {base.ways_mean} + collect mean {base.collect_mean} "
                         f"differ from the base mean {base.mean}")
    ladder = ladder_of(model, levels)
    split = base.by_scatter
    features = features_by_trigger(model, ladder, range(len(split.prob)))
    trigger_prob = {n: split.prob[n] for n in features}
    free_spins = sum((split.prob[n] * f.mean for n, f in features.items()), ZERO)
    base_feature = sum((split.win[n] * f.mean for n, f in features.items()), ZERO)
    feature_second = sum((split.prob[n] * f.second for n, f in features.items()), ZERO)

    def per_round(field: str) -> tuple[Fraction, ...]:
        return tuple(sum((split.prob[n] * getattr(f, field)[i] for n, f in features.items()), ZERO)
                     for i in range(ladder.levels))

    return RoundResult(
        bet=model.bet,
        mean=base.mean + free_spins,
        second=base.second + 2 * base_feature + feature_second,
        base_ways=base.ways_mean,
        base_collect=base.collect_mean,
        free_spins=free_spins,
        free_spins_by_level=per_round("win_by_level"),
        base_feature=base_feature,
        trigger_prob=trigger_prob,
        features=features,
        reach=per_round("reach"),
        free_spins_played=sum((split.prob[n] * f.spins for n, f in features.items()), ZERO),
    )
