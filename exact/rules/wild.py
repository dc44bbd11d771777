"""WILD symbols: substitution, a WILD's own pays, and its multipliers.

Rules: WILD substitution (``[symbols.W] class = "wild"``, ``substitutes``), a fixed WILD multiplier
(``multiplier = 2``: counts as 2 in the ways), drawn WILD multipliers (``multiplier = { values,
weights, mode = "wild" | "reel" }``), and the combination multiplier (``mode = "combination"``: a
win using the WILD is multiplied once, the value drawn once per spin).

Literal reading: :func:`exact.evaluator.cell_multipliers`, :func:`exact.evaluator.ways_pays`,
:func:`exact.evaluator.line_pays`; per-reel terms: :func:`wild_multiplier_tables`.
"""
from __future__ import annotations

from strips.model import PER_WILD
from typing import Sequence
import numpy as np
from strips import plugins
from strips.game_toml import check_weight_tables, shown_tables
from exact.rules.terms import int_matrix, scaled_moments, weights_scale
from exact.rules.base import value_convolution, ANALYSES, ReelTerms, Rule, line_distribution

__all__ = ["paying_wilds", "drawn_wilds", "draws_multiplier", "max_wild_multiplier", "WildSubstitution", "WildMultiplier", "DrawnWildMultiplier", "CombinationWildMultiplier", "combination_wilds", "has_wild_multipliers", "window_ways", "multiplier_text", "wild_draws", "default_wild_values", "cell_multipliers", "combination_ways", "multiplier_scale", "wild_multiplier_tables", "drawn_tables", "wilds_with_pays", "substitute_codes", "refuse_ways_rules"]


def multiplier_text(m) -> str:
    """A WILD multiplier (a :class:`strips.model.WildMultiplier` or None) in words: none, x2, or the drawn
    values, mode and weight tables.

    >>> from strips.model import WildMultiplier
    >>> multiplier_text(None), multiplier_text(WildMultiplier(values=(2,)))
    ('none', 'x2')
    """
    if m is None:
        return "none"
    if m.is_combination:
        if len(m.values) == 1 and not m.weights:
            return f"x{m.values[0]} per combination"
        tables = "; ".join(f"{t} {list(w)}" for t, w in m.weights.items())
        return f"per combination, drawn per spin from {list(m.values)} ({tables})"
    if not m.is_random:
        return f"x{m.values[0]}"
    tables = "; ".join(f"{t} {list(w)}" for t, w in m.weights.items())
    return f"drawn per {m.mode} from {list(m.values)} ({tables})"


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


def wilds_with_pays(model) -> tuple:
    """The WILDs of ``model`` with a paytable of their own (``pays``), in file order.

    >>> from strips.loader import load_math_set
    >>> wilds_with_pays(load_math_set("rules_page").model)
    ()
    """
    return tuple(s for s in model.of_kind("wild") if s.pays)


def substitute_codes(model) -> list[list[int]]:
    """Per pay symbol (file order): the codes of the WILDs that substitute for it.

    >>> from strips.loader import load_math_set
    >>> m = load_math_set("rules_page").model
    >>> [[m.symbols[c].name for c in codes] for codes in substitute_codes(m)][0]
    ['WILD']
    """
    return [[model.code(w.name) for w in model.of_kind("wild") if w.substitutes_for(s.name)] for s in model.pay_symbols]


def refuse_ways_rules(model) -> None:
    """Refuse what the ways factorisation does not compute: a combination WILD multiplier together with
    drawn (``wild``/``reel``) WILD multipliers (the rule's narrowed report, :meth:`CombinationWildMultiplier.refusal`).

    Raises
    ------
    ValueError
        ``unsupported rule: a combination WILD multiplier with drawn WILD multipliers in a ways game``.

    >>> from strips.loader import load_math_set
    >>> refuse_ways_rules(load_math_set("rules_page").model)
    """
    if combination_wilds(model) and any(s.has_random_multiplier for s in model.symbols):
        raise ValueError("unsupported rule: a combination WILD multiplier with drawn WILD multipliers "
                         "in a ways game")


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

    @classmethod
    def reel_terms(cls, model, weights: str) -> ReelTerms:
        """The ways counts a reel's WILDs add to the pay symbols they substitute for, their multipliers
        (fixed, or drawn from the phase's weight table ``weights``: scale D_m) included
        (:func:`wild_multiplier_tables`).

        >>> from strips.loader import load_math_set
        >>> import numpy as np
        >>> m = load_math_set("rules_page").model
        >>> t = WildSubstitution.reel_terms(m, "base")
        >>> counts = np.zeros((len(m.symbols), 1), dtype=np.int64); counts[m.code("WILD")] = 1
        >>> pay = np.array([m.code(s.name) for s in m.pay_symbols])
        >>> t.ways_tables(counts, pay, t.ways_scale)[0].ravel().tolist()    # the WILD counts as every pay symbol
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
        """
        dm = multiplier_scale(model, weights)

        def ways_tables(counts, pay_codes, scale):
            ways_count = counts[pay_codes].copy()
            for code, s in enumerate(model.symbols):
                if s.kind == "wild":
                    for i, p in enumerate(pay_codes):
                        if s.substitutes_for(model.symbols[p].name):
                            ways_count[i] += counts[code]
            return (ways_count,) + wild_multiplier_tables(model, counts, pay_codes, ways_count, weights, scale)

        return ReelTerms(cls.name, key=(dm, drawn_tables(model, weights)), ways_scale=dm, ways_tables=ways_tables)


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
    window_read = True
    narrows = frozenset({"report", "distribution"})

    @classmethod
    def present(cls, model) -> bool:
        return any(s.multiplier.is_combination for s in _multiplied(model))

    @classmethod
    def spin_json(cls, model, phase, window, res) -> dict:
        return {"combination": res.combination}

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if (analysis == "report" and model.evaluation == "ways"
                and any(s.has_random_multiplier for s in model.symbols)):
            return "a combination WILD multiplier with drawn WILD multipliers in a ways game"
        if line_distribution(model, analysis):     # the joint payline chain: one run per drawn value
            return None
        return super().refusal(model, analysis)


def check_multiplier_tables(t, doc: dict, model) -> dict:
    """The weight tables of the WILD multipliers (a check of the core's ``[symbols.W] multiplier``, no field
    set): a drawn multiplier (mode ``wild``/``reel``) needs a table for every phase whose strips show its
    WILD, a combination multiplier drawn from several values one for every phase, and no table may be one no
    phase uses; at most one WILD has a combination multiplier (one value is drawn per spin).

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(wild='multiplier = { values = [2, 3], weights.level9 = [1, 1], mode = "wild" }'))
    game.toml:19:1: symbols.W.multiplier.weights.level9: weight table 'level9' is used by no phase (the phases use base)
    """
    tables = ["base"] + [lv.weights for lv in model.levels]
    for w in model.of_kind("wild"):
        if w.multiplier is not None and w.multiplier.is_random:
            check_weight_tables(t, w.multiplier.weights, ("symbols", w.name, "multiplier", "weights"),
                                shown_tables(w, model.levels, model.free_spin_strips), tables)
    combination = [w for w in model.of_kind("wild") if w.multiplier is not None and w.multiplier.is_combination]
    if len(combination) > 1:
        raise t.error(("symbols", combination[1].name, "multiplier"), "unsupported rule: several WILDs with "
                      "combination multipliers (one value is drawn per spin)")
    for w in combination:
        if w.multiplier.weights or len(w.multiplier.values) > 1:
            check_weight_tables(t, w.multiplier.weights, ("symbols", w.name, "multiplier", "weights"), tables,
                                tables)
    return {}


plugins.register_core("WILD multiplier tables", (), check_multiplier_tables)


# -- the literal reading of WILD multipliers (the oracle, :mod:`exact.evaluator`) --------------------------
def wild_draws(model, window) -> tuple[tuple[int, int], ...]:
    """The WILD multiplier draws of a window: (reel, row) of the WILD that shows each drawn value.

    Reel-major, top to bottom: mode ``wild`` draws once per WILD symbol in
    the window; mode ``reel`` draws once per reel showing that WILD symbol
    (at its top-most cell; the other WILDs of the symbol on the reel share
    the value); fixed multipliers draw nothing.
    """
    out = []
    for r, col in enumerate(window):
        seen = set()
        for i, name in enumerate(col):
            s = model.symbol(name)
            if s.has_random_multiplier and (s.multiplier.mode == PER_WILD or s.name not in seen):
                out.append((r, i))
                seen.add(s.name)
    return tuple(out)


def default_wild_values(model, window) -> tuple[int, ...]:
    """The lowest multiplier of each WILD draw of the window (:func:`wild_draws` order)."""
    return tuple(min(model.symbol(window[r][i]).multiplier.values) for r, i in wild_draws(model, window))


def cell_multipliers(model, window,
                     wild_values: Sequence[int] | None = None) -> tuple[tuple[int, ...], ...]:
    """The multiplier of each cell of a window, shape (reels, rows), int (1 where no WILD multiplier).

    Parameters
    ----------
    model : GameModel
    window : shape (reels, rows) of symbol names (canonical names)
    wild_values : sequence of int, optional
        One drawn value per entry of :func:`wild_draws`; default the lowest
        value of each.  Fixed multipliers take their value.

    Raises
    ------
    ValueError
        If the number of values differs from the draws of the window, or a
        value is not one the WILD can take.
    """
    draws = wild_draws(model, window)
    values = default_wild_values(model, window) if wild_values is None else tuple(wild_values)
    if len(values) != len(draws):
        raise ValueError(f"{len(values)} WILD multiplier values given for {len(draws)} drawn "
                         f"WILD multipliers in the window")
    drawn = {}
    for (r, i), v in zip(draws, values):
        s = model.symbol(window[r][i])
        if v not in s.multiplier.values:
            raise ValueError(f"{s.name} multiplier cannot be {v} (values: {', '.join(map(str, s.multiplier.values))})")
        drawn[(r, i)] = v
    out = []
    for r, col in enumerate(window):
        row = []
        for i, name in enumerate(col):
            s = model.symbol(name)
            if s.multiplier is None or s.multiplier.is_combination:
                row.append(1)
            elif not s.multiplier.is_random:
                row.append(s.multiplier.values[0])
            elif s.multiplier.mode == PER_WILD:
                row.append(drawn[(r, i)])
            else:  # per reel: the value drawn at the top-most WILD of this symbol on the reel
                row.append(drawn[(r, col.index(name))])
        out.append(tuple(row))
    return tuple(out)


def combination_ways(model, window, symbol: str, oak: int,
                     wild_multipliers: Sequence[Sequence[int]]) -> tuple[int, int]:
    """(ways using no combination WILD, all ways) of ``symbol`` over the first ``oak`` reels of a window.

    Ways without a combination WILD count, on each reel, the symbol and the
    other substituting WILDs (each as its multiplier); all ways add the
    combination WILDs (a way through at least one of them is
    multiplied once by the combination value).
    """
    comb = {s.name for s in combination_wilds(model)}
    pure, total = 1, 1
    for r, col in enumerate(window[:oak]):
        here = [(name, wild_multipliers[r][i]) for i, name in enumerate(col)
                if name == symbol or model.symbol(name).substitutes_for(symbol)]
        pure *= sum(1 if n == symbol else m for n, m in here if n not in comb)
        total *= sum(1 if n == symbol else m for n, m in here)
    return pure, total


# -- per-reel terms of the WILD multipliers (:mod:`exact.engine`) -------------------------------------------
def multiplier_scale(model, table: str) -> int:
    """D_m: the lcm of the weight sums of every drawn WILD multiplier's table ``table`` (1 if none)."""
    return weights_scale(s.multiplier.weights[table] for s in model.of_kind("wild")
                          if s.has_random_multiplier and table in s.multiplier.weights)


def drawn_tables(model, table: str) -> tuple:
    """(name, weight table ``table``) of every WILD with a drawn multiplier: the part of a phase's per-reel
    terms the drawn multipliers shape (a cache key of :mod:`exact.engine`).

    >>> from strips.loader import load_math_set
    >>> drawn_tables(load_math_set("rules_page").model, "base")
    ()
    """
    return tuple((s.name, s.multiplier.weights.get(table)) for s in drawn_wilds(model))


def wild_multiplier_tables(model, counts: np.ndarray, pay_codes: np.ndarray, ways_count: np.ndarray,
                           table: str, dm: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    r"""The random ways counts of one reel: scale, scaled means and covariance pieces.

    With WILD multipliers the ways count of pay symbol p on a reel is
    :math:`c_p = n_p + Y_p`, :math:`Y_p` the sum of the multipliers of the
    WILDs in the window that substitute for p.  Given the stop, each WILD w
    with a drawn multiplier adds :math:`n_w \mu_w` to :math:`E[Y_p]` and,
    independently of every other draw (other WILD symbols, FISH values),
    :math:`n_w \mathrm{Var}(m_w)` (mode ``wild``: one draw per WILD) or
    :math:`n_w^2 \mathrm{Var}(M_w)` (mode ``reel``: one draw shared on the
    reel) to :math:`\mathrm{Cov}(Y_p, Y_q)` for every p, q it substitutes for.
    A fixed multiplier m adds :math:`m n_w`, no variance.  Everything is
    scaled by s = D_m when the strip shows a drawn multiplier, so every
    entry is an integer.

    Parameters
    ----------
    counts : ndarray, shape (n_symbols, stops), int64
    pay_codes : ndarray, shape (n_pay,), int
    ways_count : ndarray, shape (n_pay, stops), int64
        Unweighted count of each pay symbol plus its WILDs.

    Returns
    -------
    scale : int
    ways_mean : ndarray, shape (n_pay, stops), int64 or object
        s x E[c_p | stop].
    wild_var : ndarray, shape (n_drawn, stops), int64 or object
        s^2 x the variance contribution of each drawn WILD.
    wild_subst : ndarray, shape (n_drawn, n_pay), bool

    Raises
    ------
    ValueError
        A drawn WILD on the strip without weight table ``table``, or ``dm``
        not a multiple of its weight sum.
    """
    wilds = [(code, s) for code, s in enumerate(model.symbols)
             if s.kind == "wild" and s.multiplier is not None and not s.multiplier.is_combination
             and counts[code].any()]
    drawn = [(code, s) for code, s in wilds if s.multiplier.is_random]
    n_pay = len(pay_codes)
    if not wilds:
        return 1, ways_count, np.zeros((0, counts.shape[1]), dtype=np.int64), np.zeros((0, n_pay), dtype=bool)
    for _, s in drawn:
        if table not in s.multiplier.weights:
            raise ValueError(f"{s.name} has no multiplier weight table {table!r}")
        if dm % sum(s.multiplier.weights[table]):
            raise ValueError(f"{s.name}: drawn WILD multipliers need the multiplier scale D_m "
                             f"(not supported by this computation)")
    scale = dm if drawn else 1
    names = [model.symbols[p].name for p in pay_codes]
    subst = {code: np.array([s.substitutes_for(n) for n in names], dtype=bool) for code, s in wilds}
    # s x E[multiplier] per WILD code (a WILD without multiplier counts 1)
    per_code = [scale if s.kind == "wild" else 0 for s in model.symbols]
    var_rows = []
    for code, s in wilds:
        m1, m2 = scaled_moments(s.multiplier.table(table), scale)
        per_code[code] = m1
        if s.multiplier.is_random:
            n = counts[code].astype(object)
            var_rows.append(m2 * (n if s.multiplier.mode == PER_WILD else n * n))
    mean = [[0] * len(model.symbols) for _ in range(n_pay)]
    for i, p in enumerate(pay_codes):
        mean[i][p] = scale
        for code, s in enumerate(model.symbols):
            if s.kind == "wild" and s.substitutes_for(names[i]):
                mean[i][code] = per_code[code]
    ways_mean = int_matrix(np.array(mean, dtype=object).dot(counts.astype(object)))
    wild_var = int_matrix(np.array(var_rows, dtype=object).reshape(len(drawn), counts.shape[1]))
    wild_subst = np.array([subst[code] for code, _ in drawn], dtype=bool).reshape(len(drawn), n_pay)
    return scale, ways_mean, wild_var, wild_subst


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
