"""A multiplier per WILD in the paid run (``[symbols.W] multiplier = { per_wild = 2, combine = "product" }``).

A line win whose paid run holds k WILDs of this kind (a WILD after the run's end does not count) is
multiplied by ``per_wild^k`` (``combine = "product"``), by ``k x per_wild`` (``"sum"``) or by
``per_wild`` (``"max"``); a WILD's own pay is never multiplied.  Several WILD kinds each with their own
multiplier join as their ``combine`` says (every kind must state the same one): the product, the sum
or the largest of the kinds' multipliers.  A WILD substitutes for another WILD kind never (each WILD
is its own symbol; ``substitutes`` names the pay symbols it stands for).

Literal reading: :func:`exact.rules.line_reading.run_multiplier`; the per-line chains of
:mod:`exact.lines` run the composed scan.
"""
from __future__ import annotations

from dataclasses import dataclass

from exact.rules.line_reading import LineReadingRule
from strips import plugins

__all__ = ["PerWildConfig", "PerWildMultiplier"]

COMBINES = ("product", "sum", "max")


@dataclass(frozen=True)
class PerWildConfig:
    """``wilds``: (WILD name, per_wild factor >= 1, combine) per WILD kind; ``across``: how kinds join."""

    wilds: tuple
    across: str = "product"
    rule: str = "per-wild multipliers"


def parse_per_wild(t, doc: dict, model) -> PerWildConfig | None:
    """Every ``[symbols.W] multiplier = { per_wild, combine }``, each bad value refused at its key.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(wild="multiplier = { per_wild = 0 }"))
    game.toml:19:16: symbols.W.multiplier.per_wild: must be an integer >= 1, got 0
    """
    out, combines = [], []
    for name, spec in (doc.get("symbols") or {}).items():
        raw = spec.get("multiplier") if isinstance(spec, dict) else None
        if not (isinstance(raw, dict) and "per_wild" in raw):
            continue
        path = ("symbols", name, "multiplier")
        if model.symbol(name).kind != "wild":
            raise t.error(path, "a per-WILD multiplier needs class = \"wild\"")
        for k in raw:
            if k not in ("per_wild", "combine"):
                raise t.error(path + (k,), f"unknown key {k!r} of a per-WILD multiplier (per_wild, combine)")
        f = raw["per_wild"]
        if type(f) is not int or f < 1:
            raise t.error(path + ("per_wild",), f"must be an integer >= 1, got {f!r}")
        comb = raw.get("combine", "product")
        if comb not in COMBINES:
            raise t.error(path + ("combine",), f'must be "product", "sum" or "max", got {comb!r}')
        if combines and comb != combines[0]:
            raise t.error(path + ("combine",), f"every WILD kind must join the same way (another says "
                          f"{combines[0]!r}, this one {comb!r})")
        if model.evaluation != "lines":
            raise t.error(path, "unsupported rule: a per-WILD multiplier outside a payline game")
        combines.append(comb)
        out.append((name, f, comb))
    if not out:
        return None
    return PerWildConfig(tuple(out), combines[0])


class PerWildMultiplier(LineReadingRule):
    """Per-WILD multipliers in the paid run.

    >>> from strips.loader import load_math_set
    >>> PerWildMultiplier.present(load_math_set("rules_page").model)
    False
    """

    name = "per-wild multipliers"
    keys = '[symbols.W] multiplier = { per_wild = 2, combine = "product" | "sum" | "max" }'
    parses = (("symbols", "*", "multiplier", "per_wild"),)


plugins.register(PerWildMultiplier.name, PerWildMultiplier.parses, parse_per_wild)
