"""Both-way and centre pays (``[lines] direction = "both" | "centre"``, ``both_pay = "sum"``).

``direction = "both"``: each payline is also read right to left (a run of the last reel's symbol); by
default the line pays the larger of its two wins once; ``both_pay = "sum"``: the right run is read
only when the left run is shorter than the line (a full line pays once), at most reels - 1 cells, and
both wins are paid, each with its own combination multiplier; 1-of-a-kind pays count both ways.
``direction = "centre"``: one run per line, the block of adjacent cells through the centre reel that
show one symbol (WILDs substituting), paid once by its length.

Literal reading: :func:`exact.rules.line_reading.line_wins`; the per-line chains of :mod:`exact.lines`
run its scan (:func:`exact.rules.line_reading.prefix_transitions`).
"""
from __future__ import annotations

from dataclasses import dataclass

from exact.rules.line_reading import LineReadingRule
from strips import plugins

__all__ = ["LineDirectionConfig", "BothWayPays", "CentrePays"]

DIRECTIONS = ("left", "both", "centre")
BOTH_PAYS = ("max", "sum")


@dataclass(frozen=True)
class LineDirectionConfig:
    """``direction`` (``both`` or ``centre``) and, for both, ``both_pay`` (``max``: the larger win once;
    ``sum``: both wins)."""

    direction: str
    both_pay: str = "max"
    rule: str = "both-way pays"


def parse_direction(t, doc: dict, model) -> LineDirectionConfig | None:
    """The ``[lines] direction`` and ``both_pay`` keys, each refused at its file, row and column.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(lines='direction = "sideways"'))
    game.toml:8:1: lines.direction: must be "left", "both" or "centre", got 'sideways'
    """
    lines = doc.get("lines") or {}
    if "direction" not in lines and "both_pay" not in lines:
        return None
    direction = lines.get("direction", "left")
    if direction not in DIRECTIONS:
        raise t.error(("lines", "direction"), f'must be "left", "both" or "centre", got {direction!r}')
    both_pay = lines.get("both_pay", "max")
    if "both_pay" in lines and direction != "both":
        raise t.error(("lines", "both_pay"), 'is read only with direction = "both"')
    if both_pay not in BOTH_PAYS:
        raise t.error(("lines", "both_pay"), f'must be "max" (the larger win once) or "sum" (both wins), '
                      f'got {both_pay!r}')
    if direction == "left":
        return None
    if direction == "centre" and model.reels % 2 == 0:
        raise t.error(("lines", "direction"), f"centre pays need an odd number of reels (the game has {model.reels})")
    return LineDirectionConfig(direction, both_pay, "centre pays" if direction == "centre" else "both-way pays")


class BothWayPays(LineReadingRule):
    """Both-way pays.

    >>> from strips.loader import load_math_set
    >>> BothWayPays.present(load_math_set("rules_page").model)
    False
    """

    name = "both-way pays"
    keys = '[lines] direction = "both", both_pay = "max" | "sum"'
    parses = (("lines", "direction"), ("lines", "both_pay"))
    #: ``both_pay = "sum"``: rtp comply runs without the odds of each award (:meth:`award_odds_refusal`).
    narrows = frozenset({"comply"})

    @classmethod
    def award_odds_refusal(cls, model) -> str | None:
        """With ``both_pay = "sum"`` a line may pay two combinations; the payline scan labels its larger one only,
        so the odds of each award are left out (the comply check's bounds would not hold)."""
        cfg = cls.config(model)
        return 'both-way pays with both_pay = "sum" (a line may pay two combinations)' \
            if cfg is not None and cfg.both_pay == "sum" else None


class CentrePays(LineReadingRule):
    """Centre pays."""

    name = "centre pays"
    keys = '[lines] direction = "centre"'


plugins.register("line direction", BothWayPays.parses, parse_direction)
