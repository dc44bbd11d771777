"""The multiplier symbol (``[symbols.X] class = "multiplier"``): the "multiplier orb / bomb" of cascade games.

Keys of its table: ``values`` (integers), ``weights`` (one integer weight per value, per phase table:
``{ base = [...], level1 = [...] }``; a phase without a table shows the symbol as a blank),
``per = "cell"`` (one value per cell showing it, the default) or ``"reel"`` (one value per reel,
counted for each of its cells showing the symbol), ``combine = "sum"`` (default) or ``"product"``,
``applies_to_scatters`` (default true), plus ``reels`` and ``aliases`` as any special symbol.

The literal reading (:func:`combined_value`): every win of a fall (scatter pays included unless
``applies_to_scatters = false``) is multiplied by the combined value of the multiplier symbols in
view: the sum (or product) of the value of each cell showing one (per reel: its reel's value, once
for each such cell); a sum of 0, or none in view, counts as 1.  Values are drawn when a symbol first
shows in the spin (equivalently, when the spin starts) and kept for all its falls; multiplier
symbols pay nothing, are never part of a win and are never removed.  One multiplier symbol per game.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from exact.rules.base import ENUMERATED, Rule
from strips import plugins

__all__ = ["MultiplierSymbol", "MultiplierSymbolConfig", "combined_value", "value_law"]

MULTIPLIER = "multiplier"
CLASS_KEYS = ("values", "weights", "per", "combine", "applies_to_scatters")


@dataclass(frozen=True)
class MultiplierSymbolConfig:
    """The game's multiplier symbol: ``name``, ``values``, ``weights`` ((table, weights) pairs), ``per``
    (``"cell"``/``"reel"``), ``combine`` (``"sum"``/``"product"``), ``applies_to_scatters``."""

    name: str
    values: tuple[int, ...]
    weights: tuple[tuple[str, tuple[int, ...]], ...]
    per: str = "cell"
    combine: str = "sum"
    applies_to_scatters: bool = True
    rule: str = "multiplier symbol"

    def table(self, phase_weights: str) -> tuple[tuple[int, int], ...] | None:
        """(value, weight) pairs of the phase's table (positive weights only), None when the phase has none."""
        w = dict(self.weights).get(phase_weights)
        return None if w is None else tuple((v, x) for v, x in zip(self.values, w) if x)


def combined_value(config: MultiplierSymbolConfig, slot_counts) -> int:
    """The combined value from ``slot_counts``: (value, cells) for each drawn value in view (per cell: one
    cell each; per reel: the cells of its reel showing the symbol).

    >>> c = MultiplierSymbolConfig("M", (2, 5), (("base", (1, 1)),))
    >>> combined_value(c, []), combined_value(c, [(2, 1), (5, 1)])
    (1, 7)
    >>> combined_value(MultiplierSymbolConfig("M", (2, 5), (), combine="product"), [(2, 2), (5, 1)])
    20
    """
    if config.combine == "sum":
        s = sum(v * n for v, n in slot_counts)
        return s if s else 1
    out = 1
    for v, n in slot_counts:
        out *= v ** n
    return out


def value_law(config: MultiplierSymbolConfig, phase_weights: str, signature) -> dict[int, Fraction]:
    """The exact law {combined value: probability} for a ``signature``: the cell count of each drawn value
    in view (a tuple, one entry per value slot), the values drawn independently from the phase's table.

    >>> c = MultiplierSymbolConfig("M", (2, 3), (("base", (1, 1)),))
    >>> value_law(c, "base", (1, 1))
    {4: Fraction(1, 4), 5: Fraction(1, 2), 6: Fraction(1, 4)}
    """
    pairs = config.table(phase_weights) or ((1, 1),)
    total = sum(x for _, x in pairs)
    out: dict[int, Fraction] = {}
    for draw in product(pairs, repeat=len(signature)):
        v = combined_value(config, [(d[0], n) for d, n in zip(draw, signature)])
        w = Fraction(1)
        for d in draw:
            w *= Fraction(d[1], total)
        out[v] = out.get(v, 0) + w
    return dict(sorted(out.items()))


class MultiplierSymbol(Rule):
    """The multiplier symbol: exact by enumeration of every stop combination and every value drawn."""

    name = "multiplier symbol"
    keys = '[symbols.X] class = "multiplier", values, weights, per, combine, applies_to_scatters'
    implements = ENUMERATED
    factorised = False
    parses = (("symbols",),)

    @classmethod
    def parse(cls, t, doc: dict, model) -> MultiplierSymbolConfig | None:
        found = [(n, s) for n, s in doc.get("symbols", {}).items() if isinstance(s, dict) and s.get("class") == MULTIPLIER]
        if not found:
            return None
        if len(found) > 1:
            raise t.error(("symbols", found[1][0], "class"), "unsupported rule: several multiplier symbols")
        name, spec = found[0]
        path = ("symbols", name)
        values = tuple(t.get(spec, path, "values", "ints"))
        if not values or any(v < 0 for v in values):
            raise t.error(path + ("values",), "must be a non-empty list of multipliers >= 0")
        combine = t.get(spec, path, "combine", str, "sum")
        if combine not in ("sum", "product"):
            raise t.error(path + ("combine",), f"must be 'sum' or 'product', got {combine!r}")
        if combine == "product" and min(values) < 1:
            raise t.error(path + ("values",), "a product of multipliers needs values >= 1")
        per = t.get(spec, path, "per", str, "cell")
        if per not in ("cell", "reel"):
            raise t.error(path + ("per",), f"must be 'cell' or 'reel', got {per!r}")
        applies = t.get(spec, path, "applies_to_scatters", bool, True)
        wt = t.get(spec, path, "weights", dict)
        tables = ["base"] + [lv.weights for lv in model.levels]
        weights = []
        for tn, w in wt.items():
            if tn not in tables:
                raise t.error(path + ("weights", tn), f"weight table {tn!r} is used by no phase "
                              f"(the phases use {', '.join(dict.fromkeys(tables))})")
            w = t.get(wt, path + ("weights",), tn, "ints")
            if len(w) != len(values) or any(x < 0 for x in w) or not sum(w):
                raise t.error(path + ("weights", tn), f"needs {len(values)} weights >= 0, not all 0")
            weights.append((tn, tuple(w)))
        for s in model.symbols:
            if s.kind in ("key", "fish") or s.multiplier is not None:
                raise t.error(("symbols", s.name), f"unsupported rule: {s.kind} symbol "
                              f"{'with a WILD multiplier ' if s.multiplier else ''}together with a multiplier symbol")
        return MultiplierSymbolConfig(name, values, tuple(weights), per, combine, applies)


plugins.register_symbol_class(MULTIPLIER, CLASS_KEYS)
plugins.register(MultiplierSymbol.name, MultiplierSymbol.parses, MultiplierSymbol.parse)
