"""The left gamble wheel's exact figures (``[gamble_wheel]``): the RTP per choice of multiplier.

For multiplier ``m`` won with probability ``r / m``, a round win ``x`` is eligible when ``min_win <= x``
and ``m x <= max_win``; gambling every eligible win once gives ``(E[X] + (r - 1) E[X 1{eligible}]) / bet``.
``E[X 1{eligible}]`` is the round win's distribution on the eligible range, exactly
(:func:`exact.gamble.round_eligible`, as for ``[gamble]``).
"""
from __future__ import annotations

import dataclasses

from exact.gamble import eligible_range, gamble_result, round_ranges
from exact.rules import GambleWheel, GambleWheelSection

__all__ = ["gamble_wheel_section"]


def gamble_wheel_section(ms, default) -> GambleWheelSection:
    """The section of the default mode ``default`` (:class:`exact.bet_modes.ModeResult`) of ``ms``.

    On the bundled wheel game the frames of its free spins are beyond the gamble's round distribution, so
    the RTP per choice is refused by name (the return itself is the set's):

    >>> import exact
    >>> s = exact.par_sheet(exact.load_math_set("wheel_game")).sections["gamble wheel"]
    >>> s.ret, s.choices, s.refused
    (Fraction(24, 25), {}, 'unsupported rule: frames: the RTP when every eligible win is gambled once does not model it')
    """
    config = GambleWheel.config(ms.model)
    g = ms.model.gamble
    choices, refused = {}, ""
    steps = [dataclasses.replace(g, multiplier=m, probability=config.ret / m) for m in config.multipliers]
    try:
        sums = round_ranges(default.set, g.min_win, tuple(eligible_range(st)[1] for st in steps))
    except ValueError as e:
        refused, sums = str(e), []
    for m, st, (prob, win) in zip(config.multipliers, steps, sums):
        r = gamble_result(st, default.cost, default.round.mean, prob, win)
        choices[m] = (config.ret / m, prob, win, r.rtp_gamble_once)
    return GambleWheelSection(bet=default.cost, ret=config.ret, rtp=default.round.mean / default.cost,
                              choices={} if refused else choices, refused=refused)
