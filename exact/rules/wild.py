"""WILD symbols: substitution, a WILD's own pays, and its multipliers.

Rules: WILD substitution (``[symbols.W] class = "wild"``, ``substitutes``), a fixed WILD multiplier
(``multiplier = 2``: counts as 2 in the ways), drawn WILD multipliers (``multiplier = { values,
weights, mode = "wild" | "reel" }``), and the combination multiplier (``mode = "combination"``: a
win using the WILD is multiplied once, the value drawn once per spin).

Literal reading: :func:`exact.evaluator.cell_multipliers`, :func:`exact.evaluator.ways_pays`,
:func:`exact.evaluator.line_pays`; per-reel terms: :func:`exact.engine.wild_multiplier_tables`.
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule, value_convolution
from strips.model import PER_WILD

__all__ = ["paying_wilds", "drawn_wilds", "draws_multiplier", "max_wild_multiplier", "WildSubstitution", "WildMultiplier", "DrawnWildMultiplier", "CombinationWildMultiplier",
           "combination_wilds", "has_wild_multipliers", "window_ways"]


def combination_wilds(model) -> tuple:
    """The WILDs of ``model`` whose multiplier has mode ``combination``.

    >>> from strips.loader import load_math_set
    >>> combination_wilds(load_math_set("rules_page").model)
    ()
    """
    return tuple(s for s in model.of_kind("wild") if s.multiplier is not None and s.multiplier.is_combination)


def drawn_wilds(model) -> tuple:
    """The WILD symbols whose multiplier is drawn from a weight table (per WILD or per reel), in file order.

    >>> from strips.loader import load_math_set
    >>> drawn_wilds(load_math_set("rules_page").model)
    ()
    """
    return tuple(s for s in model.of_kind("wild") if s.has_random_multiplier)


def paying_wilds(model) -> tuple:
    """The WILD symbols with pays of their own (a run or count of the WILD alone pays), in file order.

    >>> from strips.loader import load_math_set
    >>> paying_wilds(load_math_set("rules_page").model)
    ()
    """
    return tuple(w for w in model.of_kind("wild") if w.pays and any(w.pays))


def draws_multiplier(symbol) -> bool:
    """Whether a symbol's multiplier is drawn each spin: drawn per WILD or reel, or the combination value.

    >>> from strips.loader import load_math_set
    >>> [draws_multiplier(s) for s in load_math_set("rules_page").model.of_kind("wild")]
    [False]
    """
    return symbol.multiplier is not None and (symbol.multiplier.is_random or symbol.multiplier.is_combination)


def max_wild_multiplier(model) -> int:
    """The largest value any WILD multiplier of the game can take (1 without WILD multipliers).

    >>> from strips.loader import load_math_set
    >>> max_wild_multiplier(load_math_set("rules_page").model)
    1
    """
    return max((max(s.multiplier.values) for s in model.of_kind("wild") if s.multiplier), default=1)


def window_ways(symbol, many: int, table: str) -> dict[int, int]:
    """The one-spin distribution's per-reel step of a WILD: what ``many`` copies of WILD ``symbol`` in one
    reel's window add to the ways count of each symbol it substitutes, ``{added ways: integer weight}``
    over the draws of its multiplier from the phase's weight table ``table`` (mode ``wild``: one draw per
    WILD; mode ``reel``: one draw for the reel, each WILD counting the value; as
    :func:`exact.evaluator.wild_draws`).

    Raises
    ------
    ValueError
        A drawn multiplier without the weight table ``table``.

    >>> from strips.loader import load_math_set
    >>> w = load_math_set("rules_page").model.symbol("WILD")
    >>> window_ways(w, 2, "base")
    {2: 1}
    """
    m = symbol.multiplier
    if m is None:
        draws = [((many, 1),)]
    elif not m.is_random:
        draws = [((many * m.values[0], 1),)]
    else:
        if table not in m.weights:
            raise ValueError(f"{symbol.name} has no multiplier weight table {table!r}")
        t = m.table(table)
        draws = [t] * many if m.mode == PER_WILD else [tuple((v * many, x) for v, x in t)]
    return value_convolution(draws)


def has_wild_multipliers(model) -> bool:
    """True when a WILD of ``model`` counts as more than 1 in the ways (a fixed multiplier other than 1,
    or a drawn one).

    >>> from strips.loader import load_math_set
    >>> has_wild_multipliers(load_math_set("rules_page").model)
    False
    """
    return any(s.multiplier is not None and not s.multiplier.is_combination
               and (s.multiplier.is_random or s.multiplier.values != (1,))
               for s in model.of_kind("wild"))


class WildSubstitution(Rule):
    """A WILD substitutes for pay symbols (and may pay on its own): every analysis.

    >>> from strips.loader import load_math_set
    >>> WildSubstitution.present(load_math_set("rules_page").model)
    True
    """

    name = "WILD substitution"
    keys = '[symbols.W] class = "wild", substitutes, pays'
    implements = frozenset(ANALYSES)

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.of_kind("wild"))


def _multiplied(model) -> list:
    return [s for s in model.of_kind("wild") if s.multiplier is not None]


class WildMultiplier(Rule):
    """A fixed WILD multiplier in the ways count."""

    name = "WILD multipliers"
    keys = "[symbols.W] multiplier = 2"
    implements = frozenset(ANALYSES) - {"gamble"}

    @classmethod
    def present(cls, model) -> bool:
        return any(not s.multiplier.is_random and not s.multiplier.is_combination for s in _multiplied(model))


class DrawnWildMultiplier(Rule):
    """WILD multipliers drawn per WILD or per reel."""

    name = "drawn WILD multipliers"
    keys = '[symbols.W] multiplier = { values, weights, mode = "wild" | "reel" }'
    implements = frozenset(ANALYSES) - {"gamble", "sensitivity", "tune"}

    @classmethod
    def present(cls, model) -> bool:
        return any(s.multiplier.is_random for s in _multiplied(model))


class CombinationWildMultiplier(Rule):
    """A win that uses the WILD is multiplied once by a value drawn per spin."""

    name = "a combination WILD multiplier"
    keys = '[symbols.W] multiplier = { values, mode = "combination" }'
    implements = frozenset(ANALYSES) - {"gamble", "sensitivity", "tune", "distribution"}
    count_tables = False
    narrows = frozenset({"report"})

    @classmethod
    def present(cls, model) -> bool:
        return any(s.multiplier.is_combination for s in _multiplied(model))

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if (analysis == "report" and model.evaluation == "ways"
                and any(s.has_random_multiplier for s in model.symbols)):
            return "a combination WILD multiplier with drawn WILD multipliers in a ways game"
        return super().refusal(model, analysis)
