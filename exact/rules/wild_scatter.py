"""A WILD that is also the only scatter (``[symbols.BOOK] class = "wild"``, ``counts_as_scatter = true``,
``scatter_pays = [...]``, with ``[free_spins] scatter = "BOOK"``).

The symbol substitutes on the paylines as a WILD (its line ``pays``, if any, are a WILD's own pays) and,
counted anywhere in the window, pays ``scatter_pays[n - 1]`` credits for n of it and triggers the free
spins (the game may have no scatter symbol at all).  Its scatter pays are kept apart from its line pays:
:func:`scatter_pays_of` is what every scatter reading takes for it
(:func:`exact.rules.scatter.trigger_scatter_pay`, :func:`exact.rules.scatter.paying_scatters`, the literal
evaluator's scatter pay).

Literal reading: the scatter count of the window (:func:`exact.rules.scatter.scatter_counts`, every
``counts_as_scatter`` cell counted once) and :func:`exact.rules.scatter.scatter_pay` of these pays.
Fast path: the payline chains' scatter tags (:mod:`exact.lines`), which count the same codes.
"""
from __future__ import annotations

from dataclasses import dataclass

from exact.rules.base import Rule
from strips import plugins

__all__ = ["WildScatterConfig", "WildScatter", "scatter_pays_of"]


@dataclass(frozen=True)
class WildScatterConfig:
    """``symbol``: the WILD that is the triggering scatter; ``pays``: its scatter pays, credits for 1, 2, ... of it."""

    symbol: str
    pays: tuple
    rule: str = "a WILD that is the only scatter"


def scatter_pays_of(model, symbol) -> tuple:
    """The scatter pays of ``symbol`` (a :class:`strips.model.Symbol`): a scatter's ``pays``, the
    ``scatter_pays`` of the WILD that is the only scatter, else none.

    >>> from exact.rules.line_reading import example_game
    >>> m = example_game(extra='[symbols.S]\\nclass = "scatter"\\nreels = { base = [1, 2, 3] }\\npays = [0, 0, 5]')
    >>> scatter_pays_of(m, m.symbol("S")), scatter_pays_of(m, m.symbol("W"))
    ((0, 0, 5), ())
    """
    cfg = WildScatter.config(model)
    if cfg is not None and symbol.name == cfg.symbol:
        return cfg.pays
    return tuple(symbol.pays) if symbol.kind == "scatter" else ()


def parse_wild_scatter(t, doc: dict, model) -> WildScatterConfig | None:
    """``[symbols.W] scatter_pays``: on a WILD with ``counts_as_scatter = true`` that ``[free_spins] scatter``
    names, in a game without another scatter symbol; 1 to reels x rows credit values >= 0.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(wild="scatter_pays = [0, 0, 5]"))
    game.toml:19:1: symbols.W.scatter_pays: needs counts_as_scatter = true (the WILD is then the game's only scatter)
    """
    out = None
    for name, spec in (doc.get("symbols") or {}).items():
        if not isinstance(spec, dict) or "scatter_pays" not in spec:
            continue
        path = ("symbols", name, "scatter_pays")
        sym = model.symbol(name)
        if sym.kind != "wild":
            raise t.error(path, f"only a WILD has scatter_pays ({name} is class {sym.kind!r}; a scatter's are its pays)")
        if not sym.counts_as_scatter:
            raise t.error(path, "needs counts_as_scatter = true (the WILD is then the game's only scatter)")
        if model.of_kind("scatter"):
            raise t.error(path, "unsupported rule: a WILD scatter beside scatter symbols (give the scatter its own pays)")
        if model.scatter != name:
            raise t.error(path, f'needs [free_spins] scatter = "{name}" (the WILD triggers the free spins)')
        pays = tuple(t.get(spec, ("symbols", name), "scatter_pays", "ints"))
        if not 1 <= len(pays) <= model.reels * model.rows or any(p < 0 for p in pays):
            raise t.error(path, f"must be 1 to {model.reels * model.rows} credit values >= 0 (for 1, 2, ... of it)")
        if out is not None:
            raise t.error(path, f"{out.symbol} is the scatter already")
        out = WildScatterConfig(name, pays)
    return out


class WildScatter(Rule):
    """The WILD that is the only scatter.

    >>> from strips.loader import load_math_set
    >>> WildScatter.present(load_math_set("rules_page").model)
    False
    """

    name = "a WILD that is the only scatter"
    keys = '[symbols.W] class = "wild", counts_as_scatter = true, scatter_pays; [free_spins] scatter = "W"'
    implements = frozenset({"report", "spin", "check", "chain", "diff"})
    parses = (("symbols", "*", "scatter_pays"),)
    count_tables = False

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if model.evaluation != "lines":
            return f"{cls.name} outside a payline game"
        return super().refusal(model, analysis)


plugins.register(WildScatter.name, WildScatter.parses, parse_wild_scatter)
