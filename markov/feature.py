"""The feature chain of a game: which chain of the protocol (:mod:`markov.protocol`) its free spins are,
built from the engine's level analyses or from per-spin splits.

Every analysis that needs the free-spin feature (the round, the prize wheels' and buys' free spins, the
``rtp chain`` export, the win distribution's feature runner, the award odds) takes it from here and then
uses only the protocol, so a new chain is one class registered in :data:`CHAINS`.

A chain class gives, besides the protocol's members,

* ``kind``: its name in :data:`CHAINS`;
* ``count_by``: the count its per-spin split is by (``"key"``: the KEY count of a ladder's level;
  ``"scatter"``: the scatter count of a retrigger);
* ``of(model, levels)``: the chain from the engine's level analyses (:class:`~markov.moments.PhaseAnalysis`,
  level 1 first), checking them; ``of_splits(model, splits)``: from one split per level;
* ``round_figures()``: the fields it adds to :class:`markov.round.RoundResult` (the retrigger's
  E[extra spins] and cap).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from strips.model import GameModel
from markov.chain import Ladder
from markov.moments import CountSplit, PhaseAnalysis
from markov import protocol
from markov.retrigger import RetriggerChain

ZERO = Fraction(0)

__all__ = ["CHAINS", "MixtureChain", "chain_kind", "chain_class", "feature_chain", "chain_of_splits"]

#: Chain kind -> chain class.
CHAINS: dict[str, type] = {Ladder.kind: Ladder, RetriggerChain.kind: RetriggerChain}


def chain_kind(model: GameModel) -> str:
    """The kind of ``model``'s free-spin chain: ``"retrigger"`` with a retrigger table, else ``"ladder"``
    (one level is a ladder of one level).

    >>> from strips.loader import load_math_set
    >>> chain_kind(load_math_set("rules_page").model)
    'ladder'
    """
    if model.retrigger:
        return RetriggerChain.kind
    return Ladder.kind


def chain_class(model: GameModel) -> type:
    """The class of ``model``'s free-spin chain (:data:`CHAINS` of :func:`chain_kind`)."""
    return CHAINS[chain_kind(model)]


@dataclass(frozen=True)
class MixtureChain:
    """A feature that first draws one of several chains and plays it to the end (a symbol drawn once per
    feature: the expanding symbol): ``parts`` are (probability, chain).  Its figures from a start are the
    probability-weighted means of each chain's (every figure of a :class:`FeatureResult` is an expectation
    over the feature, so the mixture is exact, second moment included); it is given by its closed form.

    >>> from fractions import Fraction as F
    >>> from markov.moments import CountSplit
    >>> a = RetriggerChain(split=CountSplit((F(1),), (F(2),), (F(4),)), extra=(0,))
    >>> b = RetriggerChain(split=CountSplit((F(1),), (F(4),), (F(16),)), extra=(0,))
    >>> f = protocol.features(MixtureChain(((F(1, 2), a), (F(1, 2), b))), [1])[0]
    >>> f.mean, f.second
    (Fraction(3, 1), Fraction(10, 1))
    """

    parts: tuple
    finite = False

    def __getattr__(self, name):
        """What does not depend on the draw (the kind, stages, multipliers, the retrigger table and cap) is
        the first part's."""
        if name.startswith("__") or name == "parts":
            raise AttributeError(name)
        return getattr(self.parts[0][1], name)

    def start(self, initial_spins: int):
        return ("draw", initial_spins)

    def transitions(self, state) -> tuple:
        raise ValueError("a feature that draws its chain first is given by its closed form")

    def closed_form(self, starts) -> dict:
        """{initial spins: FeatureResult}, the mixture of each part's."""
        starts = tuple(starts)
        results = [(p, protocol.features(c, starts)) for p, c in self.parts]
        out = {}
        for i, n in enumerate(starts):
            rs = [(p, r[i]) for p, r in results]
            first = rs[0][1]

            def avg(get):
                return sum((p * get(r) for p, r in rs), ZERO)

            def avg_t(get):
                return tuple(avg(lambda r, j=j: get(r)[j]) for j in range(len(get(first))))

            out[n] = dataclasses.replace(
                first, mean=avg(lambda r: r.mean), second=avg(lambda r: r.second), reach=avg_t(lambda r: r.reach),
                final_level=avg_t(lambda r: r.final_level), spins_by_level=avg_t(lambda r: r.spins_by_level),
                win_by_level=avg_t(lambda r: r.win_by_level), keys=avg(lambda r: r.keys))
        return out

    def round_figures(self) -> dict:
        """The round's fields the parts set, their weighted means (the retrigger's E[extra spins] and cap)."""
        figs = [(p, c.round_figures()) for p, c in self.parts]
        out = dict(figs[0][1])
        for k, v in out.items():
            if isinstance(v, Fraction):
                out[k] = sum((p * f[k] for p, f in figs), ZERO)
        return out


def feature_chain(model: GameModel, levels: Sequence[PhaseAnalysis]):
    """``model``'s free-spin chain with the engine's analyses of its levels (level 1 first).

    Raises
    ------
    ValueError
        A split invalid or disagreeing with its phase's moments, a number of analyses other than the
        levels, a rule the chain refuses (retrigger with a multi-level ladder; an uncapped retrigger
        with E[extra spins] >= 1).

    >>> from strips.loader import load_math_set
    >>> from exact.engine import analyse
    >>> ms = load_math_set("rules_page")
    >>> feature_chain(ms.model, analyse(ms).levels).levels
    4
    """
    draws = getattr(levels[0], "feature_draw", ()) if levels else ()
    if draws:       # a reading drawn once per feature (exact.lines.DrawnPhase): the mixture of its chains
        return MixtureChain(tuple((p, chain_class(model).of(model, (a,) + tuple(levels[1:]))) for p, a in draws))
    return chain_class(model).of(model, levels)


def chain_of_splits(model: GameModel, splits: Sequence[CountSplit]):
    """``model``'s free-spin chain with one per-spin split per level, by the chain's ``count``.

    Raises
    ------
    ValueError
        As :func:`feature_chain`.
    """
    return chain_class(model).of_splits(model, splits)
