r"""The win distribution of every bet mode and every buy (``rtp distribution``, ``modes.NAME.round`` and
``buy.NAME.round``): each mode's strips, trigger, respin with held reels, prize wheels and jackpots and free
spins (:mod:`exact.round_stages`), a buy's free spins as after its trigger; exact where the grid is small,
else the float pass with its proven bound (:func:`exact.feature_runner.win_distribution`).  The gamble is no
part of the round.

>>> from strips.loader import load_math_set
>>> [n for n, _ in distribution_units(load_math_set("rules_page"))]
['default']
"""
from __future__ import annotations

from exact.feature_runner import win_distribution
from exact.one_spin import SCATTER_COUNT, spin_distribution
from exact.round_stages import BuyStage, ChainStage
from exact.rules import require, round_split
from strips.model import DEFAULT_MODE, MathSet

__all__ = ["mode_distribution", "buy_distribution", "distribution_units"]


def _stage(mset: MathSet):
    """The stage of a bet mode's set: None (the base spin split by its trigger count) or a ChainStage."""
    return ChainStage(mset) if round_split(mset.model) else None


def mode_distribution(ms: MathSet, name: str = DEFAULT_MODE, exact: bool | None = None, **kw):
    """The whole win distribution of one bet mode (:class:`exact.distribution_results.WinDistribution`, credits
    per round of the mode, ``bet`` its cost): its strips, trigger, respin with held reels, prize wheels and
    jackpots; no gamble.

    Raises
    ------
    KeyError
        No mode ``name``.
    strips.errors.UnsupportedRule
        A rule the distribution does not model (:func:`exact.rules.supports`).
    ValueError
        As :func:`exact.feature_runner.win_distribution`.

    >>> from strips.loader import load_math_set
    >>> mode_distribution(load_math_set("rules_page")).bet
    10
    """
    require(ms, "distribution")
    mset = ms.mode(name)
    require(mset, "distribution")
    stage = _stage(mset)
    return win_distribution(mset, exact=exact, stage=stage, **kw) if stage is not None else \
        win_distribution(mset, exact=exact, **kw)


def buy_distribution(ms: MathSet, name: str, exact: bool | None = None, **kw):
    """The win distribution of the bought feature ``name`` (``[buy.NAME]``): the default mode's free spins as
    after the buy's trigger count, credits per buy, ``bet`` the buy's cost.

    Raises
    ------
    KeyError
        No buy ``name``.
    strips.errors.UnsupportedRule, ValueError
        As :func:`mode_distribution`.
    """
    require(ms, "distribution")
    buy = {b.name: b for b in ms.model.buys}[name]
    mset = ms.mode(DEFAULT_MODE)
    stage = _stage(mset)
    base = stage.base if stage is not None else spin_distribution(mset, mset.model.base_phase, SCATTER_COUNT)
    return win_distribution(mset, exact=exact, stage=BuyStage(mset.model, buy.trigger, base, getattr(stage, "spin", None)),
                            bet=buy.cost, **kw)


def distribution_units(ms: MathSet) -> list[tuple[str, str]]:
    """Every unit with a round distribution: ``("default", "mode")`` first, then ``(NAME, "mode")`` per bet
    mode and ``(NAME, "buy")`` per buy, in file order."""
    return [(n, "mode") for n in ms.mode_names] + [(b.name, "buy") for b in ms.model.buys]
