"""KEY/FISH collect: a KEY in view collects the credit values of the FISH symbols in view.

Literal reading: :func:`exact.evaluator.evaluate` (collect part); per-reel terms:
:mod:`exact.engine` (collect terms per pair of reels).
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule, value_convolution

__all__ = ["Collect", "window_fish"]


class Collect(Rule):
    """KEY and FISH symbols: every analysis but the gamble figure.

    >>> from strips.loader import load_math_set
    >>> Collect.present(load_math_set("rules_page").model)
    True
    """

    name = "KEY collect and FISH values"
    keys = '[symbols.KEY] class = "key", [symbols.FISH] class = "fish", values, weights'
    implements = frozenset(ANALYSES) - {"gamble"}

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.of_kind("key") or model.of_kind("fish"))


def window_fish(fish, table: str) -> dict[int, int]:
    """The one-spin distribution's per-reel step of the collect: the FISH values drawn in one reel's window
    (``fish``: its FISH symbols, one per cell showing one), summed, ``{credits: integer weight}`` from the
    phase's weight table ``table`` (one draw per FISH symbol).

    Raises
    ------
    ValueError
        A FISH symbol without the weight table ``table``.

    >>> from strips.loader import load_math_set
    >>> f = load_math_set("rules_page").model.symbol("FISH1")
    >>> sum(window_fish([f], "base").values()) == sum(f.weights["base"])
    True
    """
    tables = []
    for s in fish:
        if table not in s.weights:
            raise ValueError(f"{s.name} has no weight table {table!r}")
        tables.append(tuple(zip(s.values, s.weights[table])))
    return value_convolution(tables)
