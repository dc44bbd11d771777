"""The gamble's left wheel (``[gamble_wheel] multipliers, return``): an eligible round win may be staked on
one of several multipliers, each won with probability ``return / multiplier``.

The rules page: "Left wheel: increase winnings by one third, double, or triple"; the reading: a round
win ``x`` with ``min_win <= x`` and ``m x <= max_win`` (``[gamble]``: the gamble's threshold and the
auto-collect) may be staked once on multiplier ``m`` (``multipliers = ["4/3", "2", "3"]``): it becomes
``m x`` with probability ``return / m`` (``return = "24/25"`` per credit staked), else 0.  So every
choice returns ``return`` per credit staked, and the RTP when every eligible win is gambled once on
``m`` is ``(E[X] + (return - 1) E[X 1{x eligible for m}]) / bet``.  The right wheel (a stake of the win
for the Standard, Super or Mega bonus) is not modelled: the page does not say what those bonuses are.

Literal reading: :func:`gamble_wheel_outcomes`; exact figures: :mod:`exact.gamble_wheel`.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exact.rules.base import ViewSection, ANALYSES, Rule
from strips import plugins
from strips.decimals import exact_text
from strips.toml_reader import exact_fraction

__all__ = ["GambleWheel", "GambleWheelConfig", "GambleWheelSection", "gamble_wheel_outcomes"]


@dataclass(frozen=True)
class GambleWheelConfig:
    """``multipliers`` (Fractions > 1, in file order) and ``ret`` (the return per credit staked)."""

    multipliers: tuple[Fraction, ...]
    ret: Fraction
    rule: str = "gamble wheel"


def gamble_wheel_outcomes(win: int, multiplier: Fraction, ret: Fraction, min_win: int, max_win: int) -> tuple:
    """One gamble of ``win`` credits on ``multiplier`` read literally: (credits, probability) pairs; a win
    that may not be gambled (below ``min_win`` or above ``max_win / multiplier``) is kept.

    >>> gamble_wheel_outcomes(30, Fraction(4, 3), Fraction(24, 25), 10, 100)
    ((Fraction(40, 1), Fraction(18, 25)), (Fraction(0, 1), Fraction(7, 25)))
    >>> gamble_wheel_outcomes(90, Fraction(2), Fraction(24, 25), 10, 100)
    ((Fraction(90, 1), Fraction(1, 1)),)
    """
    if not (min_win <= win and multiplier * win <= max_win):
        return ((Fraction(win), Fraction(1)),)
    p = ret / multiplier
    return ((multiplier * win, p), (Fraction(0), 1 - p))


@dataclass(frozen=True)
class GambleWheelSection(ViewSection):
    """The left wheel's part of the PAR sheet (default mode, per round).

    ``choices``: multiplier -> (probability won, P(eligible), E[X 1{eligible}] credits, RTP gamble once);
    ``rtp``: the RTP without gamble; ``refused``: why the RTP per choice is not computed ("" when it is).
    """

    bet: int
    ret: Fraction
    rtp: Fraction
    choices: dict
    refused: str = ""

    def figures(self) -> dict:
        out: dict = {"rtp_without_gamble": self.rtp, "return_per_stake": self.ret}
        if self.refused:
            out["rtp_per_choice_refused"] = self.refused
        else:
            out["choices"] = {_text(m): {"probability": p, "eligible_probability": e, "rtp_gamble_once": r}
                              for m, (p, e, _, r) in self.choices.items()}
        return out

    def lines(self) -> list[str]:
        out = [f"gamble wheel return {float(100 * self.ret):.4f}% per credit staked on every multiplier "
               f"({_text(self.ret)}); RTP without gamble {float(100 * self.rtp):.6f}%"]
        if self.refused:
            return out + [f"  RTP per choice not computed: {self.refused}"]
        for m, (p, e, _, r) in self.choices.items():
            out.append(f"  x{_text(m):<5} won with probability {_text(p)}; eligible {float(e):.8f} per round; "
                       f"RTP gambling every eligible win once {float(100 * r):.6f}%")
        return out


def _text(x: Fraction) -> str:
    return exact_text(x)


def _fraction(t, path: tuple, value) -> Fraction:
    return exact_fraction(t, path, value, 'an integer or an exact fraction "p/q"', integers=True)


class GambleWheel(Rule):
    """The left gamble wheel: its RTP per choice through the round win's distribution on the eligible
    range (:func:`exact.gamble.round_eligible`), refused there with the reason when that is not modelled.

    >>> from strips.loader import load_math_set
    >>> GambleWheel.present(load_math_set("wheel_game").model)
    True
    """

    name = "gamble wheel"
    keys = '[gamble_wheel] multipliers = ["4/3", "2", "3"], return = "24/25"'
    implements = frozenset(ANALYSES)
    parses = (("gamble_wheel",),)
    reports_on_round = True

    @classmethod
    def parse(cls, t, doc: dict, model) -> GambleWheelConfig | None:
        if "gamble_wheel" not in doc:
            return None
        path = ("gamble_wheel",)
        spec = doc["gamble_wheel"]
        if not isinstance(spec, dict):
            raise t.error(path, "must be a table")
        for k in spec:
            if k not in ("multipliers", "return"):
                raise t.error(path + (k,), "unknown key (known: multipliers, return)")
        if model.gamble is None:
            raise t.error(path, "needs [gamble] (min_win, max_win: the threshold and the auto-collect)")
        raw = t.get(spec, path, "multipliers", list)
        ms = tuple(_fraction(t, path + ("multipliers",), v) for v in raw)
        ret = _fraction(t, path + ("return",), t.get(spec, path, "return", (str, int)))
        if not ms or len(set(ms)) != len(ms) or any(m <= 1 for m in ms):
            raise t.error(path + ("multipliers",), "needs distinct multipliers above 1")
        if not 0 < ret <= min(ms):
            raise t.error(path + ("return",), f"must be above 0 and at most the smallest multiplier ({_text(min(ms))})")
        return GambleWheelConfig(ms, ret)


plugins.register(GambleWheel.name, GambleWheel.parses, GambleWheel.parse)
