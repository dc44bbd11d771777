"""Expanding WILDs (``[symbols.W] expands = true``): a WILD on a reel turns that whole reel into that WILD
for the line evaluation only.

Scatters under it still count and trigger; expansion happens only on reels where the WILD stands; a
WILD with its own pays counts expanded reels in its WILD-only run.  Every payline is evaluated on its
own (expansion makes the rows unlike), so the published figures of such games are those of the bet
lines their files select.

Literal reading: :func:`expanded` (the window a payline reads); factorised fast path: the per-reel
line view :func:`line_view` (the symbol each stop shows on each row to a payline), which the per-line
chains of :mod:`exact.lines` read instead of the window's rows; the scatter counts keep the window.
Both live in :mod:`exact.rules.line_reading` (the composed reading applies them) and are named here.
"""
from __future__ import annotations

from dataclasses import dataclass

from exact.rules.line_reading import LineReadingRule, expanded, line_view
from strips import plugins

__all__ = ["ExpandingConfig", "ExpandingWilds", "expanded", "line_view"]


@dataclass(frozen=True)
class ExpandingConfig:
    """``wilds``: the names of the WILDs that expand (every phase)."""

    wilds: tuple
    rule: str = "expanding wilds"


def parse_expands(t, doc: dict, model) -> ExpandingConfig | None:
    """Every ``[symbols.W] expands``: ``true`` or ``false`` on a WILD; the phase table form is refused.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(extra="[symbols.C]\\nclass = 'pay'\\npays = [0, 0, 1]\\nexpands = true"))
    game.toml:23:1: symbols.C.expands: only a WILD expands (C is class 'pay')
    """
    out = []
    for name, spec in (doc.get("symbols") or {}).items():
        if not isinstance(spec, dict) or "expands" not in spec:
            continue
        path = ("symbols", name, "expands")
        v = spec["expands"]
        kind = model.symbol(name).kind
        if kind != "wild":
            raise t.error(path, f"only a WILD expands ({name} is class {kind!r})")
        if isinstance(v, dict):
            raise t.error(path, "unsupported rule: expands = { phases } (expansion in some phases only) is not "
                          "modelled yet; use expands = true")
        if not isinstance(v, bool):
            raise t.error(path, f"must be true or false, got {v!r}")
        if model.evaluation != "lines":
            raise t.error(path, "unsupported rule: expanding WILDs outside a payline game")
        if v:
            out.append(name)
    return ExpandingConfig(tuple(out)) if out else None


class ExpandingWilds(LineReadingRule):
    """Expanding WILDs.

    >>> from strips.loader import load_math_set
    >>> ExpandingWilds.present(load_math_set("rules_page").model)
    False
    """

    name = "expanding wilds"
    keys = "[symbols.W] expands = true"
    parses = (("symbols", "*", "expands"),)


plugins.register(ExpandingWilds.name, ExpandingWilds.parses, parse_expands)
