"""KEY/FISH collect: a KEY in view collects the credit values of the FISH symbols in view.

Literal reading: :func:`exact.evaluator.evaluate` (collect part); per-reel terms:
:mod:`exact.engine` (collect terms per pair of reels).
"""
from __future__ import annotations

from exact.rules.terms import int_array, scaled_moments, weights_scale
from exact.rules.base import value_convolution, ANALYSES, ReelTerms, Rule, published_cells

__all__ = ["Collect", "window_fish", "fish_scale", "fish_moments_scaled"]


class Collect(Rule):
    """KEY and FISH symbols: every analysis but the gamble figure.

    >>> from strips.loader import load_math_set
    >>> Collect.present(load_math_set("rules_page").model)
    True
    """

    name = "KEY collect and FISH values"
    keys = '[symbols.KEY] class = "key", [symbols.FISH] class = "fish", values, weights'
    implements = frozenset(ANALYSES) - {"gamble"}
    spin_part = "collect"
    component = "base_collect"
    component_words = "base game collect"

    @classmethod
    def component_shown(cls, sheet) -> bool:
        """Shown on a game with KEY symbols even when it pays nothing."""
        return sheet.has_collect

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.of_kind("key") or model.of_kind("fish"))

    places = {"text": "after_trigger", "tables": "after_trigger"}

    # -- the section of the PAR sheet: P(2+ KEY) per base spin and per free spin (``sheet.key_2plus``) ---------
    @classmethod
    def report_text(cls, rep, fmt, digits: int) -> list[str]:
        """TWO OR MORE KEY SYMBOLS: per base spin and per free spin, beside the published figures (after the free
        spins' trigger table; none on a game without KEY symbols)."""
        if not rep.has_collect:
            return []
        rows = [[f"per {k} spin" if k == "base" else "per free spin", fmt.percent(p, 4)]
                + published_cells(rep, f"key_2plus.{k}", "") for k, p in rep.key_2plus.items()]
        return ["", "TWO OR MORE KEY SYMBOLS"] + fmt.table_lines(["", "probability", "published", "check"], rows, "lrrl")

    @classmethod
    def report_tables(cls, sheet, table, inv) -> list:
        """``key_2plus``: P(2+ KEY) per base spin and per free spin with the published check (after the trigger
        table; none without KEY symbols)."""
        if not sheet.has_collect:
            return []
        rows = [("base spin" if k == "base" else "free spin", p, *published_cells(sheet, f"key_2plus.{k}"))
                for k, p in sheet.key_2plus.items()]
        return [table("key_2plus", "Two or more KEY symbols", [("spin",), ("probability", "probability", "per spin"),
                                                               ("published",), ("check",)], rows)]

    @classmethod
    def spin_text(cls, model, phase, window, res) -> dict[str, list[str]]:
        if not model.of_kind("key"):
            return {}
        return {"pays": [f"collect        {res.keys} KEY x {res.fish_sum} FISH credits = {res.collect}"]}

    @classmethod
    def reel_terms(cls, model, weights: str) -> ReelTerms:
        """The FISH values a reel shows: scale D (:func:`fish_scale`) and their scaled moments
        (:func:`fish_moments_scaled`) for the phase's weight table ``weights``.

        >>> from strips.loader import load_math_set
        >>> t = Collect.reel_terms(load_math_set("rules_page").model, "base")
        >>> t.value_scale, [int(x) for x in t.value_moments(t.value_scale)[0] if x]
        (1000, [2078, 13450, 67500, 666500])
        """
        d = fish_scale(model, weights)
        return ReelTerms(cls.name, key=(d,), value_scale=d,
                         value_moments=lambda scale: fish_moments_scaled(model, weights, scale))


# -- per-reel terms of the collect (the FISH values' moments, :mod:`exact.engine`) ---------------------------
def fish_scale(model, table: str) -> int:
    """D: the lcm of the weight sums of every FISH symbol's table ``table`` (1 if none)."""
    return weights_scale(s.weights[table] for s in model.of_kind("fish") if table in s.weights)


def fish_moments_scaled(model, table: str, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Per symbol code: D E[v] and D^2 Var[v] of its FISH value (0 for non-FISH), int arrays.

    Exact integers because D is a multiple of every weight sum (:func:`exact.rules.terms.scaled_moments`).
    """
    mean = [0] * len(model.symbols)
    var = [0] * len(model.symbols)
    for code, s in enumerate(model.symbols):
        if s.kind == "fish" and table in s.weights:
            mean[code], var[code] = scaled_moments(tuple(zip(s.values, s.weights[table])), d)
    return int_array(mean), int_array(var)


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
