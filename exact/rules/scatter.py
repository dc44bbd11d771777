"""Scatter symbols: the count anywhere in the window triggers the free spins and pays.

Rules of the scatter mechanic (each refused by name where an analysis does not model it):
scatter pays (``[symbols.S] pays``), several scatter symbols (each pays on its own count;
``[free_spins] scatter`` names the trigger), a WILD that counts as a scatter
(``counts_as_scatter``), trigger reels (``[free_spins] trigger_reels``) and a feature
multiplier by trigger count (``[free_spins] multiplier_by_trigger``).

Literal reading: :func:`exact.evaluator.scatter_counts` and :meth:`exact.evaluator.SpinResult.trigger_count`.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from strips import plugins
from strips.decimals import exact_text
from strips.model import count_table_value
from strips.toml_reader import count_table

from exact.rules.base import ANALYSES, Rule, first_present
from exact.rules.wild import CombinationWildMultiplier
from exact.rules.wild_scatter import scatter_pays_of

__all__ = ["pre_feature_refusal", "round_distribution_refusal", "feature_multiplier_table", "ScatterPays", "SeveralScatters", "CountsAsScatter", "TriggerReels",
           "MultiplierByTrigger", "scatter_pay", "by_count", "symbol_scatter_pay", "trigger_scatter_pay", "other_scatters", "scatter_codes",
           "feature_multiplier", "scatter_counts", "paying_scatters", "extra_counts", "count_array", "trigger_reel_shown",
           "trigger_moments", "trigger_count", "scatter_view"]


def scatter_pay(pays, count: int) -> int:
    """The literal reading of a scatter's ``pays`` list: credits for ``count`` of it anywhere in the
    window, ``pays[count - 1]``; a count beyond the list pays its last entry; none, or no list, pays 0.

    The oracle's reading, written apart from the engines' count tables so that a mistake in either is caught by the brute-force tests (the engines' table is
    :func:`symbol_scatter_pay`).

    >>> scatter_pay((0, 0, 20, 100), 3), scatter_pay((0, 0, 20, 100), 7), scatter_pay((), 3), scatter_pay((5,), 0)
    (20, 100, 0, 0)
    """
    if count <= 0 or not pays:
        return 0
    return pays[len(pays) - 1] if count > len(pays) else pays[count - 1]


def by_count(table, count: int, default: int = 0) -> int:
    """The literal reading of a count table ``{3 = 10, 4 = 15}`` (``trigger``, ``retrigger``,
    ``multiplier_by_trigger``): the value of the largest listed count that ``count`` reaches, else
    ``default``.  ``table`` is a sequence of (count, value) pairs in any order.

    >>> by_count(((3, 10), (5, 20), (4, 15)), 4), by_count(((3, 10),), 2), by_count(((3, 2),), 9, 1)
    (15, 0, 2)
    """
    reached = [(c, v) for c, v in table if count >= c]
    return max(reached)[1] if reached else default

def symbol_scatter_pay(symbol, count: int) -> int:
    """The engines' scatter pay in credits of one scatter symbol (a :class:`strips.model.Symbol`) shown
    ``count`` times (0 if it pays nothing); a count above its paytable takes the last entry.

    >>> from strips.loader import load_math_set
    >>> symbol_scatter_pay(load_math_set("rules_page").model.symbol("KEY"), 3)
    0
    """
    if not symbol.pays or count < 1:
        return 0
    return symbol.pays[min(count, len(symbol.pays)) - 1]


def trigger_scatter_pay(model, scatters: int) -> int:
    """Pay in credits of the triggering scatter (``model.trigger_symbol``) for ``scatters`` of it in the
    window; the other scatter symbols pay on their own counts (:func:`symbol_scatter_pay`).

    >>> from strips.loader import load_math_set
    >>> trigger_scatter_pay(load_math_set("rules_page").model, 3)
    0
    """
    s = model.trigger_symbol
    return symbol_scatter_pay(scatter_view(model, s), scatters) if s is not None else 0


def scatter_view(model, symbol):
    """``symbol`` as the scatter readings see it: a scatter as it is, the WILD that is the only scatter with
    its ``scatter_pays`` as its pays (:mod:`exact.rules.wild_scatter`).

    >>> from strips.loader import load_math_set
    >>> m = load_math_set("wheel_game").model
    >>> scatter_view(m, m.symbol("SCATTER")) is m.symbol("SCATTER")
    True
    """
    if symbol.kind == "scatter":
        return symbol
    return dataclasses.replace(symbol, pays=scatter_pays_of(model, symbol))


def other_scatters(model) -> tuple:
    """The scatter symbols of ``model`` other than its triggering scatter, each counted and paid on its own.

    >>> from strips.loader import load_math_set
    >>> other_scatters(load_math_set("rules_page").model)
    ()
    """
    t = model.trigger_symbol
    return tuple(s for s in model.of_kind("scatter") if t is None or s.name != t.name)


def scatter_codes(model, symbol=None) -> tuple[int, ...]:
    """Symbol codes counted as ``symbol`` (default the triggering scatter): the symbol itself, plus every
    WILD with ``counts_as_scatter`` when it is the triggering scatter (empty: no scatter).

    >>> from strips.loader import load_math_set
    >>> m = load_math_set("wheel_game").model
    >>> [m.symbols[c].name for c in scatter_codes(m)]
    ['SCATTER']
    """
    t = model.trigger_symbol
    symbol = t if symbol is None else symbol
    if symbol is None:
        return ()
    out = [model.code(symbol.name)]
    if t is not None and symbol.name == t.name:
        out += [model.code(s.name) for s in model.of_kind("wild") if s.counts_as_scatter and s.name != t.name]
    return tuple(out)


def feature_multiplier(model, scatters: int) -> int:
    """The free-spin feature's multiplier set by ``multiplier_by_trigger`` for a trigger of ``scatters``
    (1 without the rule).

    >>> from strips.loader import load_math_set
    >>> feature_multiplier(load_math_set("rules_page").model, 5)
    1
    """
    return count_table_value(model.multiplier_by_trigger, scatters, 1)


def scatter_counts(model, window) -> tuple[tuple[str, int], ...]:
    """Each scatter symbol's count in the window, in file order (each counts on its own);
    a WILD with ``counts_as_scatter`` counts as one more of the triggering scatter."""
    trig = model.trigger_symbol
    extra = sum(1 for col in window for n in col if model.symbol(n).counts_as_scatter)
    if trig is not None and trig.kind != "scatter":     # the WILD that is the only scatter: its cells alone
        return ((trig.name, extra),)
    return tuple((s.name, sum(1 for col in window for n in col if n == s.name)
                  + (extra if trig is not None and s.name == trig.name else 0))
                 for s in model.of_kind("scatter"))


def paying_scatters(model, others: bool = False) -> tuple:
    """The scatter symbols of ``model`` with a non-zero pay (``others``: only those other than the
    triggering scatter), in file order.

    >>> from strips.loader import load_math_set
    >>> paying_scatters(load_math_set("rules_page").model)
    ()
    """
    trig = model.trigger_symbol
    wild = (scatter_view(model, trig),) if trig is not None and trig.kind != "scatter" and not others else ()
    return tuple(s for s in (other_scatters(model) if others else model.of_kind("scatter") + wild)
                 if s.pays and any(s.pays))


# -- per-reel terms of the trigger counts (the factorised engine's splits, :mod:`exact.engine`) -------------------
def extra_counts(model) -> tuple[str, ...]:
    """Counts beyond (triggering scatters, KEYs) the split of a phase needs: ``trig`` (trigger reels
    showing a triggering scatter) and ``sc:NAME`` for each other paying scatter.

    >>> from strips.loader import load_math_set
    >>> extra_counts(load_math_set("rules_page").model)
    ()
    """
    out = ("trig",) if model.trigger_reels else ()
    return out + tuple(f"sc:{s.name}" for s in paying_scatters(model, others=True))


def trigger_reel_shown(model, r: int, scatters, otherwise: int):
    """Per stop of reel ``r`` (0-based): 1 where a trigger reel shows a triggering scatter (``scatters``:
    their count per stop, int array), else 0; a reel that is no trigger reel gives ``otherwise``.

    >>> import numpy as np
    >>> from strips.loader import load_math_set
    >>> trigger_reel_shown(load_math_set("rules_page").model, 0, np.array([0, 2]), 1).tolist()
    [1, 1]
    """
    if r in model.trigger_reels:
        return (scatters > 0).astype(np.int64)
    return np.full(len(scatters), otherwise, dtype=np.int64)


def trigger_moments(model, joint: dict) -> dict | None:
    """The moments by the count that awards free spins when ``model`` has trigger reels (None without):
    from joint moments keyed (n triggering scatters, k KEY, trigger reels showing one, ...), n when every
    trigger reel shows a triggering scatter, else bucket 0.

    >>> from strips.loader import load_math_set
    >>> trigger_moments(load_math_set("rules_page").model, {}) is None
    True
    """
    if not model.trigger_reels:
        return None
    listed = len(model.trigger_reels)
    out: dict = {}
    for key, vals in joint.items():
        k = key[0] if key[2] == listed else 0
        out[k] = tuple(a + b for a, b in zip(out[k], vals)) if k in out else vals
    return out


def trigger_count(scatters: int, trigger_reels_shown: bool) -> int:
    """The literal reading of trigger reels: a spin's ``scatters`` award free spins only when every trigger
    reel shows a triggering scatter (``trigger_reels_shown``; True without trigger reels), else 0.

    >>> trigger_count(3, True), trigger_count(3, False)
    (3, 0)
    """
    return scatters if trigger_reels_shown else 0


def count_array(model, t, r: int, attr: str):
    """Per stop of reel ``r``: a count of :func:`extra_counts`, or a count of the reel's window tables ``t``
    (an :class:`exact.engine.ReelTables`: ``scatters``, ``keys``)."""
    if attr == "trig":
        return trigger_reel_shown(model, r, t.scatters, 0)
    if attr.startswith("sc:"):
        return t.counts[model.code(attr[3:])]
    return getattr(t, attr)


#: The analyses that model the trigger rules of real catalogues (paylines' companions).
_CATALOGUE = frozenset(ANALYSES) - {"sensitivity", "tune", "distribution", "gamble"}


class ScatterPays(Rule):
    """Scatter pays by count: every analysis but sensitivity and tune.

    >>> from strips.loader import load_math_set
    >>> ScatterPays.present(load_math_set("rules_page").model)
    False
    """

    name = "scatter pays"
    keys = "[symbols.S] class = \"scatter\", pays"
    implements = frozenset(ANALYSES) - {"sensitivity", "tune"}
    spin_part = "scatter"
    component = "base_scatter"
    component_words = "base game scatter pays"

    places = {"text": "after_symbols", "tables": "after_levels", "workbook": "after_combinations"}

    @classmethod
    def present(cls, model) -> bool:
        return any(trigger_scatter_pay(model, n) for n in range(model.reels * model.rows + 1)) or any(
            s.pays for s in model.of_kind("scatter"))

    # -- the section of the PAR sheet: scatter pays by count of the base spin (``sheet.scatter_pays()``) ------
    @classmethod
    def report_text(cls, rep, fmt, digits: int) -> list[str]:
        """SCATTER PAYS BY COUNT: per scatter and count, pay, probability, 1 in N, RTP share (after the by-symbol
        table; none when the scatters pay nothing)."""
        rows = [[r.symbol, _count_text(r), str(r.pay), fmt.sig_fraction(r.probability, 6), fmt.one_in(r.probability),
                 fmt.percent(r.rtp, 4)] for r in rep.scatter_pays()]
        if not rows:
            return []
        return ["", "SCATTER PAYS BY COUNT (per base spin; n+ = n or more)"] + fmt.table_lines(
            ["scatter", "count", "pay", "probability", "frequency", "RTP"], rows, "llrrrr")

    @classmethod
    def report_json(cls, sheet) -> dict:
        """``scatter_pays``: [{symbol, count, or_more, pay, probability, rtp}] (exact ``"p/q"``, floats beside),
        carried by every report (empty when no scatter pays)."""
        return {"scatter_pays": [{"symbol": x.symbol, "count": x.count, "or_more": x.or_more, "pay": x.pay,
                                  "probability": exact_text(x.probability), "probability_float": float(x.probability),
                                  "rtp": exact_text(x.rtp), "rtp_float": float(x.rtp)} for x in sheet.scatter_pays()]}

    @classmethod
    def report_tables(cls, sheet, table, inv) -> list:
        """``scatter_pays``: pay, probability, 1 in N and RTP share per count (after the per-level table)."""
        rows = [(r.symbol, _count_text(r), r.pay, r.probability, inv(r.probability), r.rtp) for r in sheet.scatter_pays()]
        return [table("scatter_pays", "Scatter pays by count (per base spin; n+ = n or more)",
                      [("scatter",), ("count",), ("pay", "count", "credits"), ("probability", "probability", "per base spin"),
                       ("1 in N", "odds"), ("RTP", "rtp", "fraction of the bet")], rows)]

    @classmethod
    def workbook_sheets(cls, rep, book, formats) -> None:
        """The ``Scatter pays`` sheet (after Combinations): one row per scatter and paying count."""
        f = formats
        rows = [[x.symbol, _count_text(x), x.pay, x.probability, f.one_in(x.probability), x.rtp] for x in rep.scatter_pays()]
        book.add("Scatter pays", "scatter_pays", ("scatter", ("count", "n+ = n or more"), ("pay", "credits"),
                                                  ("probability", "per base spin"), ("odds", "1 in N base spins"),
                                                  ("RTP contribution", "% of the bet")), rows,
                 (None, None, f.COUNT, f.PROB, f.ONE_IN, f.PERCENT), keys=2)


def _count_text(row) -> str:
    """A scatter-pay row's count as the views print it: ``n``, or ``n+`` for the last (n or more)."""
    return f"{row.count}+" if row.or_more else str(row.count)



class SeveralScatters(Rule):
    """Several scatter symbols, each paying on its own count."""

    name = "several scatter symbols"
    keys = '[symbols.A] class = "scatter", [symbols.B] class = "scatter", [free_spins] scatter'
    implements = _CATALOGUE | {"gamble", "distribution"}
    narrows = frozenset({"distribution"})
    count_tables = False

    @classmethod
    def present(cls, model) -> bool:
        return len(model.of_kind("scatter")) > 1

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        """The win distribution splits a ways spin by every scatter's count (:mod:`exact.round_distribution`);
        with another rule beyond the per-reel count tables (paylines, trigger reels, ...) it refuses."""
        if analysis == "distribution":
            if round_distribution_refusal(model):
                return f"{cls.name} with {round_distribution_refusal(model)}"
        return super().refusal(model, analysis)

    @classmethod
    def spin_json(cls, model, phase, window, res) -> dict:
        return {"scatter_counts": dict(res.scatter_counts)}

    @classmethod
    def changes(cls, ma, mb) -> list[str]:
        """The triggering scatter (``[free_spins] scatter``)."""
        if ma.scatter == mb.scatter:
            return []
        return [f"triggering scatter {ma.scatter or 'the only one'} -> {mb.scatter or 'the only one'}"]


class CountsAsScatter(Rule):
    """A WILD that also counts as one triggering scatter."""

    name = "a WILD that counts as a scatter"
    keys = "[symbols.W] counts_as_scatter = true"
    implements = _CATALOGUE
    count_tables = False

    @classmethod
    def present(cls, model) -> bool:
        return any(s.counts_as_scatter for s in model.symbols)

    @classmethod
    def symbol_changes(cls, name: str, sa, sb) -> list[str]:
        if sa.counts_as_scatter == sb.counts_as_scatter:
            return []
        return [f"{name} counts as scatter {'yes' if sa.counts_as_scatter else 'no'} -> "
                f"{'yes' if sb.counts_as_scatter else 'no'}"]


class TriggerReels(Rule):
    """The free spins start only when every trigger reel shows a scatter."""

    name = "trigger_reels"
    keys = "[free_spins] trigger_reels"
    implements = _CATALOGUE
    count_tables = False
    parses = (("free_spins", "trigger_reels"),)

    @classmethod
    def parse(cls, t, doc: dict, model) -> dict:
        """``[free_spins] trigger_reels = [1, 3, 5]`` (reels numbered from 1): the core field ``trigger_reels``
        (0-based); refused at the key unless every reel is one of the game's.

        >>> from exact.rules.line_reading import example_game
        >>> sorted(example_game(extra=_free_spins("trigger_reels = [1, 3]")).trigger_reels)
        [0, 2]
        >>> print(example_game(extra=_free_spins("trigger_reels = [1, 9]")))
        game.toml:26:1: free_spins.trigger_reels: must list reels between 1 and 3
        """
        fs = doc.get("free_spins") or {}
        if "trigger_reels" not in fs:
            return {}
        lst = t.get(fs, ("free_spins",), "trigger_reels", "ints")
        if not lst or any(r < 1 or r > model.reels for r in lst):
            raise t.error(("free_spins", "trigger_reels"), f"must list reels between 1 and {model.reels}")
        return {"trigger_reels": frozenset(r - 1 for r in lst)}

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.trigger_reels)

    @classmethod
    def spin_json(cls, model, phase, window, res) -> dict:
        return {"trigger_reels_shown": res.trigger_reels_shown}

    @classmethod
    def spin_text(cls, model, phase, window, res) -> dict[str, list[str]]:
        if res.trigger_reels_shown:
            return {}
        return {"counts": [f"trigger reels  {_reels_text(model.trigger_reels)} do not all show "
                           f"{model.trigger_symbol.name}: no trigger"]}

    @classmethod
    def changes(cls, ma, mb) -> list[str]:
        if ma.trigger_reels == mb.trigger_reels:
            return []
        return [f"trigger reels {_reels_text(ma.trigger_reels) or 'none'} -> {_reels_text(mb.trigger_reels) or 'none'}"]


class MultiplierByTrigger(Rule):
    """The feature's win multiplier depends on the trigger count."""

    name = "multiplier_by_trigger"
    keys = "[free_spins] multiplier_by_trigger"
    implements = _CATALOGUE
    count_tables = False
    parses = (("free_spins", "multiplier_by_trigger"),)

    @classmethod
    def parse(cls, t, doc: dict, model) -> dict:
        """``[free_spins] multiplier_by_trigger = { 3 = 2, 4 = 5 }``: the core field ``multiplier_by_trigger``;
        refused at the key when it sets no multiplier for the lowest trigger count, or with a ladder of
        several levels.

        >>> from exact.rules.line_reading import example_game
        >>> example_game(extra=_free_spins("multiplier_by_trigger = { 2 = 2, 3 = 5 }")).multiplier_by_trigger
        ((2, 2), (3, 5))
        >>> print(example_game(extra=_free_spins("multiplier_by_trigger = { 3 = 2 }")))
        game.toml:26:1: free_spins.multiplier_by_trigger: sets no multiplier for a trigger of 2 scatters (its lowest count is 3)
        """
        fs = doc.get("free_spins") or {}
        if "multiplier_by_trigger" not in fs:
            return {}
        trigger, key = model.trigger, ("free_spins", "multiplier_by_trigger")
        by_trigger = count_table(t, fs, "multiplier_by_trigger", "the free-spin multiplier",
                                 cells=model.reels * model.rows)
        if trigger and by_trigger[0][0] > trigger[0][0]:
            raise t.error(key, f"sets no multiplier for a trigger of {trigger[0][0]} scatters (its lowest count "
                          f"is {by_trigger[0][0]})")
        if len(model.levels) > 1:
            raise t.error(key, "unsupported rule: multiplier_by_trigger with a multi-level ladder")
        return {"multiplier_by_trigger": by_trigger}

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.multiplier_by_trigger)

    @classmethod
    def spin_text(cls, model, phase, window, res) -> dict[str, list[str]]:
        """The feature's multiplier, after the free spins a base spin starts."""
        if phase.name != "base" or not count_table_value(model.trigger, res.trigger_count):
            return {}
        return {"award": [f", multiplier x{feature_multiplier(model, res.trigger_count)}"]}

    @classmethod
    def changes(cls, ma, mb) -> list[str]:
        if ma.multiplier_by_trigger == mb.multiplier_by_trigger:
            return []
        return [f"multiplier by trigger {_table_text(ma.multiplier_by_trigger)} -> "
                f"{_table_text(mb.multiplier_by_trigger)}"]


def _reels_text(reels) -> str:
    """0-based reels as the rules page numbers them: ``1, 5`` (empty for none)."""
    return ", ".join(str(r + 1) for r in sorted(reels))


def _table_text(table) -> str:
    """A count table ``((3, 2), (4, 5))`` as ``3: 2, 4: 5`` (``none`` when empty)."""
    return ", ".join(f"{c}: {v}" for c, v in table) or "none"


def feature_multiplier_table(model, top: int):
    """``multiplier_by_trigger``'s multiplier of the feature for 0 .. ``top`` triggering scatters (int64 array,
    the simulator's vectorised step looks it up), or None when the game has no such rule.

    >>> from strips.loader import load_math_set
    >>> feature_multiplier_table(load_math_set("rules_page").model, 5) is None
    True
    """
    if not model.multiplier_by_trigger:
        return None
    return np.array([feature_multiplier(model, c) for c in range(top + 1)], dtype=np.int64)


def _free_spins(key: str) -> str:
    """The tables of the rules' doctest games: a scatter S on reels 1-3, two of it triggering 5 free spins, with ``key``
    (one line) in ``[free_spins]``."""
    return ('[symbols.S]\nclass = "scatter"\nreels = { base = [1, 2, 3] }\n[free_spins]\nstrips = "base"\n'
            f'trigger = {{ 2 = 5 }}\n{key}\n[[free_spins.levels]]\nmultiplier = 1\n')

for _rule in (TriggerReels, MultiplierByTrigger):
    plugins.register_core(_rule.name, _rule.parses, _rule.parse)


def pre_feature_refusal(model) -> str | None:
    """The payline or trigger rule the respin and wheel stage before the feature does not model
    (several scatters it does), or None.

    >>> from strips.loader import load_math_set
    >>> pre_feature_refusal(load_math_set("wheel_game").model) is None
    True
    """
    if model.evaluation == "lines":
        return "payline evaluation"
    return first_present(model, (CombinationWildMultiplier, CountsAsScatter, TriggerReels, MultiplierByTrigger))


def round_distribution_refusal(model) -> str | None:
    """The rule the win distribution of a round with a respin, prize wheels or several scatters
    (:mod:`exact.round_stages`: a ways spin split by several symbols' counts) does not model, or None:
    :func:`pre_feature_refusal`, an evaluation other than ways, KEY collect and FISH values (spins that fall
    are refused by their own rule, :meth:`exact.rules.base.Rule.refusal`).

    >>> from strips.loader import load_math_set
    >>> round_distribution_refusal(load_math_set("wheel_game").model) is None
    True
    """
    rule = pre_feature_refusal(model)
    if rule:
        return rule
    if model.evaluation != "ways":
        return f"{model.evaluation} evaluation"
    if model.of_kind("key") or model.of_kind("fish"):
        return "KEY collect and FISH values"
    return None
