"""Spin Chance (``[spin_chance]``): a credit below the stake buys a round with probability credit / stake.

The rules page: "activated automatically if the credit drops below the cost of a spin but is still
above zero ... the proportion of green/red segments is based on remaining credit relative to the
bet".  The reading: a credit of ``c`` credits, ``0 < c < bet``, is wagered whole on a wheel of
``bet`` equal segments, ``c`` of them green; green plays one round at the full stake (its win is the
round's), red loses the credit.  So

    E[return | c] = (c / bet) E[W],      E[return | c] / c = E[W] / bet = RTP

for every credit: Spin Chance returns the game's RTP per credit wagered, exactly.  It changes no
figure of the round.  Literal reading: :func:`spin_chance_outcomes`.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exact.rules.base import ViewSection, ANALYSES, Rule
from strips import plugins
from strips.decimals import exact_text

__all__ = ["SpinChance", "SpinChanceConfig", "SpinChanceSection", "spin_chance_outcomes"]


@dataclass(frozen=True)
class SpinChanceConfig:
    """``[spin_chance]`` (no keys: the page fixes the reading)."""

    rule: str = "spin chance"


def spin_chance_outcomes(credit: int, bet: int) -> tuple[tuple[str, Fraction], ...]:
    """The wheel read literally: ``bet`` equal segments, ``credit`` green (a round at the full stake),
    the rest red (the credit lost); (outcome, probability) pairs.

    Raises
    ------
    ValueError
        Unless 0 < credit < bet (Spin Chance is offered only then).

    >>> spin_chance_outcomes(3, 10)
    (('round', Fraction(3, 10)), ('lost', Fraction(7, 10)))
    """
    if not 0 < credit < bet:
        raise ValueError(f"Spin Chance needs a credit between 1 and {bet - 1} credits (the stake is {bet}), got {credit}")
    segments = ["round"] * credit + ["lost"] * (bet - credit)
    return tuple((o, Fraction(segments.count(o), bet)) for o in ("round", "lost"))


@dataclass(frozen=True)
class SpinChanceSection(ViewSection):
    """Spin Chance's part of the PAR sheet: ``bet`` credits, ``mean`` = E[round win] (credits per round)."""

    bet: int
    mean: Fraction

    @property
    def return_per_credit(self) -> Fraction:
        """E[return] / credit wagered, the same for every credit: E[W] / bet."""
        return self.mean / self.bet

    def figures(self) -> dict:
        return {"probability_per_credit": Fraction(1, self.bet), "return_per_credit": self.return_per_credit,
                "credit_max": self.bet - 1}

    def lines(self) -> list[str]:
        r = self.return_per_credit
        return [f"spin chance  a credit c of 1..{self.bet - 1} credits buys a round with probability c/{self.bet}: "
                f"return per credit wagered {float(100 * r):.6f}% = the RTP exactly ({exact_text(r, ratio=True)})"
                if len(str(r.denominator)) < 40 else
                f"spin chance  a credit c of 1..{self.bet - 1} credits buys a round with probability c/{self.bet}: "
                f"return per credit wagered {float(100 * r):.6f}% = the RTP exactly"]


class SpinChance(Rule):
    """Spin Chance: a wager outside the round; every analysis computes the game with it (it changes no
    figure of the round), the report adds its return per credit.

    >>> SpinChance.section(SpinChanceConfig(), 10, Fraction(19, 2)).return_per_credit
    Fraction(19, 20)
    """

    name = "spin chance"
    keys = "[spin_chance]"
    implements = frozenset(ANALYSES)
    parses = (("spin_chance",),)
    reports_on_round = True

    @classmethod
    def parse(cls, t, doc: dict, model) -> SpinChanceConfig | None:
        if "spin_chance" not in doc:
            return None
        spec = doc["spin_chance"]
        if not isinstance(spec, dict):
            raise t.error(("spin_chance",), "must be a table")
        if spec:
            raise t.error(("spin_chance", next(iter(spec))), "unknown key ([spin_chance] has no keys: the reading is fixed)")
        return SpinChanceConfig()

    @staticmethod
    def section(config: SpinChanceConfig, bet: int, mean: Fraction) -> SpinChanceSection:
        """The section from the round's mean win ``mean`` (credits per round at the stake ``bet``)."""
        return SpinChanceSection(bet, mean)


plugins.register(SpinChance.name, SpinChance.parses, SpinChance.parse)
