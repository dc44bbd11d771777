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

from typing import Sequence

from strips.model import GameModel
from markov.chain import Ladder
from markov.moments import CountSplit, PhaseAnalysis
from markov.retrigger import RetriggerChain

__all__ = ["CHAINS", "chain_kind", "chain_class", "feature_chain", "chain_of_splits"]

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
    return chain_class(model).of(model, levels)


def chain_of_splits(model: GameModel, splits: Sequence[CountSplit]):
    """``model``'s free-spin chain with one per-spin split per level, by the chain's ``count``.

    Raises
    ------
    ValueError
        As :func:`feature_chain`.
    """
    return chain_class(model).of_splits(model, splits)
