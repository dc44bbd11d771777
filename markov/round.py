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
covariance part of the triggering base spin and its feature.  The same holds
when the free spins use the base strips: each free spin is a new
independent draw, so given ``N = n`` the feature does not depend on ``B``.

The round is a chain of the protocol (:class:`markov.round_chain.RoundChain`: the spin's outcomes by
trigger count, then the feature each count starts), whose moments :func:`markov.protocol.solve` gives.
The feature ``E_n[F]``, ``E_n[F^2]`` comes from the game's feature chain
(:func:`markov.feature.feature_chain`: the KEY-ladder chain of :mod:`markov.chain`,
or the retrigger chain of :mod:`markov.retrigger` for a game with a retrigger
table), solved by :func:`markov.protocol.features`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Mapping, Sequence

from strips.model import GameModel, count_table_value
from markov.moments import COLLECT, PAYS, SCATTER, CountSplit, PhaseAnalysis
from markov import protocol
from markov.chain import ZERO, FeatureResult, check_phase, features_by_trigger, validate_split
from markov.feature import feature_chain
from markov.round_chain import RoundChain, decided


#: The component of the free-spin feature, and the prefix of the base spin's parts, in :attr:`RoundResult.components`.
FREE_SPINS, BASE = "free_spins", "base_"


def spin_component(part: str) -> str:
    """The name in :attr:`RoundResult.components` (and the JSON's ``components``) of a part of the base
    spin (:attr:`markov.moments.PhaseAnalysis.parts`): ``base_<part>``, the evaluation's pays keeping the
    JSON's name ``base_ways`` (line pays too).

    >>> spin_component("pays"), spin_component("collect")
    ('base_ways', 'base_collect')
    """
    return BASE + ("ways" if part == PAYS else part)


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
    components : mapping str -> Fraction
        Credits per round by the rule that pays them, summing exactly to ``mean`` on every game, in
        order: the base spin's parts (``base_ways``: the evaluation's pays, ``base_collect``,
        ``base_scatter``: :attr:`markov.moments.PhaseAnalysis.parts` of the base spin, named by
        :func:`spin_component`), ``free_spins`` (the free-spin feature), then ``respin`` and ``wheel`` on
        a game with a respin or prize wheels, then the part of each rule that acts on the round (the
        win cap's ``win_cap``: minus what it removes; ``hold_and_win``).  ``round_result`` checks the
        base spin's parts against its mean.
    free_spins_by_level : tuple of Fraction, length = levels
        Expected win of each level's spins, credits per round; sums to
        ``free_spins`` (one entry for a game with retrigger).
    base_feature : Fraction
        E[B F], credits^2 per round: the product moment of the base spin's win
        and its feature's win.
    trigger_prob : mapping int -> Fraction
        P(the base spin shows n FS symbols), for each n that triggers.
    features : mapping int -> FeatureResult
        The feature for each triggering FS count (one level for a game with
        retrigger, from :mod:`markov.retrigger`).
    reach : tuple of Fraction, length = levels
        P(level i + 1 is played in a round); ``reach[0]`` is the trigger probability.
    free_spins_played : Fraction
        Expected number of free spins per round (retriggered spins included).
    initial_free_spins : Fraction
        Expected initial free spins per round (per paid spin),
        ``sum_n P(n) initial_spins(n)``: the figure the African Simba README
        calls ``q`` (published 0.034172); retriggered spins not included.
    retrigger_per_spin : Fraction
        E[R], the expected extra free spins a free spin awards (uncapped);
        0 for a game without retrigger.  Without a cap ``free_spins_played
        == initial_free_spins / (1 - retrigger_per_spin)``.
    retrigger_cap : int or None
        Most free spins of one feature (None: no cap or no retrigger).
    """

    bet: int
    mean: Fraction
    second: Fraction
    components: Mapping[str, Fraction]
    free_spins_by_level: tuple[Fraction, ...]
    base_feature: Fraction
    trigger_prob: Mapping[int, Fraction]
    features: Mapping[int, FeatureResult]
    reach: tuple[Fraction, ...]
    free_spins_played: Fraction
    initial_free_spins: Fraction = ZERO
    retrigger_per_spin: Fraction = ZERO
    retrigger_cap: int | None = None
    # the respin of a mode and the prize wheels (see markov.wheels); their credits are components
    respin_prob: Fraction = ZERO
    wheels: Mapping[str, "object"] = field(default_factory=dict)

    @property
    def variance(self) -> Fraction:
        """Var[round win], credits^2 per round."""
        return self.second - self.mean * self.mean

    @property
    def rtp(self) -> Fraction:
        """Return to player: E[round win] / bet (a fraction of 1)."""
        return self.mean / self.bet

    # ---- the components by name (deprecated: read ``components``) --------------------------
    @property
    def base_ways(self) -> Fraction:
        """``components["base_ways"]``: the base spin's evaluation pays, credits per round (deprecated)."""
        return self.components.get(spin_component(PAYS), ZERO)

    @property
    def base_collect(self) -> Fraction:
        """``components["base_collect"]``, credits per round (deprecated)."""
        return self.components.get(spin_component(COLLECT), ZERO)

    @property
    def base_scatter(self) -> Fraction:
        """``components["base_scatter"]``, credits per round (deprecated)."""
        return self.components.get(spin_component(SCATTER), ZERO)

    @property
    def free_spins(self) -> Fraction:
        """``components["free_spins"]``: expected win of the free spins, credits per round."""
        return self.components.get(FREE_SPINS, ZERO)

    @property
    def respin(self) -> Fraction:
        """``components["respin"]``: expected pays of a mode's respin, credits per round (0 without one)."""
        return self.components.get("respin", ZERO)

    @property
    def wheel(self) -> Fraction:
        """``components["wheel"]``: expected win of the prize wheels (their free spins included), credits
        per round (0 without wheels)."""
        return self.components.get("wheel", ZERO)

    @property
    def base_spin(self) -> Fraction:
        """E[B], the base spin's win: the sum of its parts (the components named ``base_*``), credits per round."""
        return sum((v for k, v in self.components.items() if k.startswith(BASE)), ZERO)

    @property
    def rtp_split(self) -> dict[str, Fraction]:
        """RTP by source: ``base ways``, ``base collect``, ``base scatter``, ``free spins``; sums exactly to ``rtp``."""
        return {k.replace("_", " "): v / self.bet for k, v in self.components.items()}

    @property
    def rtp_by_level(self) -> dict[str, Fraction]:
        """RTP of the free spins by level, ``level 1``, ``level 2``, ...; sums to ``rtp_split["free spins"]``."""
        return {f"level {i}": w / self.bet for i, w in enumerate(self.free_spins_by_level, start=1)}

    @property
    def trigger_probability(self) -> Fraction:
        """P(the base spin triggers the free spins), per round."""
        return sum(self.trigger_prob.values(), ZERO)

    @property
    def q(self) -> Fraction:
        """The African Simba README's ``q``: :attr:`initial_free_spins` (expected initial free spins per paid spin)."""
        return self.initial_free_spins

    @property
    def base_feature_covariance(self) -> Fraction:
        """Cov[B, F] = E[B F] - E[B] E[F], credits^2 per round."""
        return self.base_feature - self.base_spin * self.free_spins


def scale_feature(f: FeatureResult, m: int) -> FeatureResult:
    """The feature with every win multiplied by ``m`` (``multiplier_by_trigger``: the trigger
    count sets the multiplier of the whole feature, a retrigger keeps it): E[mF] = m E[F],
    E[(mF)^2] = m^2 E[F^2]; spins and levels unchanged."""
    return dataclasses.replace(f, mean=f.mean * m, second=f.second * m * m,
                               win_by_level=tuple(w * m for w in f.win_by_level))


def by_spins_awarded(model: GameModel, base: PhaseAnalysis, levels: Sequence[PhaseAnalysis]) -> GameModel:
    """The model whose trigger and retrigger tables read splits indexed by the free spins a spin awards
    (a spin whose falls each evaluate the scatters awards the sum of their awards): index s awards s.

    >>> from fractions import Fraction as F
    >>> from types import SimpleNamespace
    >>> from strips.loader import load_math_set
    >>> s = CountSplit((F(1, 2), F(0), F(1, 2)), (F(0),) * 3, (F(0),) * 3)
    >>> by_spins_awarded(load_math_set("rules_page").model, SimpleNamespace(trigger_split=s), []).trigger
    ((2, 2),)
    """
    def table(split):
        return tuple((s, s) for s in range(1, len(split.prob)) if split.prob[s])
    retrigger = table(levels[0].trigger_split) if model.retrigger and levels else model.retrigger
    return dataclasses.replace(model, trigger=table(base.trigger_split) or model.trigger[:0], retrigger=retrigger)


def spin_chain(split: CountSplit, features: Mapping[int, FeatureResult]) -> RoundChain:
    """The round as a chain of the protocol: the spin's outcomes by its trigger count (``split``), then the
    feature each count starts (``features``, the counts without one left out).

    >>> F = Fraction
    >>> c = spin_chain(CountSplit((F(1, 2), F(1, 2)), (F(0), F(1)), (F(0), F(2))), {})
    >>> protocol.solve(c, [0])[0].mean
    Fraction(1, 1)
    """
    return RoundChain([((n,), p, split.win[n], split.win2[n], decided((n,))) for n, p in enumerate(split.prob)],
                      {}, (), {n: (f.mean, f.second) for n, f in features.items()}, None)


def round_result(model: GameModel, base: PhaseAnalysis, levels: Sequence[PhaseAnalysis],
                 split: CountSplit | None = None) -> RoundResult:
    """Exact mean, second moment and splits of a game round.

    Parameters
    ----------
    model : GameModel
        Bet, trigger table, ladder, retrigger table and cap.
    base : PhaseAnalysis
        The base spin; its ``by_scatter`` split (index n = n FS symbols)
        gives the trigger probabilities and E[B 1{n}].
    levels : sequence of PhaseAnalysis, one per level, level 1 first
        Without retrigger each level's ``by_key`` split feeds the ladder
        chain; with retrigger (one level) its ``by_scatter`` split feeds the
        retrigger chain (:func:`markov.retrigger.retrigger_of`).

    Returns
    -------
    RoundResult
        Credits per round; see the module docstring for the formulas.

    Raises
    ------
    ValueError
        If a split is invalid or disagrees with its phase's moments, the base
        ways, collect and scatter means do not sum to its mean, or the number of level
        analyses differs from the number of levels; with retrigger, also
        ``"unsupported rule: retrigger with a multi-level ladder"`` and the
        infinite-feature error of :mod:`markov.retrigger` (E[R] >= 1 without
        a cap).

    split : CountSplit, optional
        The round's win before its features (B, or B plus a respin's pays)
        split by the trigger-scatter count that starts the free
        spins; default ``base.by_scatter``.

    Notes
    -----
    Source: rules page sections 2, 10 and 11; the retrigger rule.
    """
    if getattr(base, "awards_by_spins", False):
        model = by_spins_awarded(model, base, levels)
    check_phase(base, base.trigger_split, "base FS split")
    if sum(base.parts.values(), ZERO) != base.mean:
        raise ValueError("base parts mean " + " + ".join(f"{k} {v}" for k, v in base.parts.items())
                         + f" differ from the base mean {base.mean}")
    if split is None:
        split = base.trigger_split     # by the count that awards free spins (trigger_reels)
    else:
        validate_split(split, "round split before the features")
    # every count of the trigger table, also one these strips cannot show (probability 0): the PAR
    # sheet lists it, and a published figure for it is then checked rather than missing
    counts = range(max([len(split.prob)] + [n + 1 for n, _ in model.trigger]))
    prob = list(split.prob) + [ZERO] * (len(counts) - len(split.prob))
    features, n_levels, figures = {}, 0, {}
    if model.trigger:       # else a game without free spins: the round is the base spin
        chain = feature_chain(model, levels)
        # the trigger count's multiplier of the whole feature (1 without multiplier_by_trigger)
        features = {n: scale_feature(f, count_table_value(model.multiplier_by_trigger, n, 1))
                    for n, f in features_by_trigger(model, chain, counts, solve=protocol.features).items()}
        n_levels, figures = chain.stages, chain.round_figures()
    trigger_prob = {n: prob[n] for n in features}

    def expect(value) -> Fraction:
        """sum over triggering counts n of P(n) value(n, feature of n)."""
        return sum((prob[n] * value(n, f) for n, f in features.items()), ZERO)

    free_spins = expect(lambda n, f: f.mean)
    base_feature = sum((split.win[n] * f.mean for n, f in features.items() if n < len(split.win)), ZERO)
    moments = protocol.solve(spin_chain(split, features), [0])[0]
    return RoundResult(
        bet=model.bet,
        mean=moments.mean,
        second=moments.second,
        components={**{spin_component(k): v for k, v in base.parts.items()}, FREE_SPINS: free_spins},
        free_spins_by_level=tuple(expect(lambda n, f: f.win_by_level[i]) for i in range(n_levels)),
        base_feature=base_feature,
        trigger_prob=trigger_prob,
        features=features,
        reach=tuple(expect(lambda n, f: f.reach[i]) for i in range(n_levels)),
        free_spins_played=expect(lambda n, f: f.spins),
        initial_free_spins=expect(lambda n, f: f.initial_spins),
        **figures,
    )
