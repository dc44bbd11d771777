"""The free-spin feature: the KEY-counter ladder of levels, the retrigger table, free spins on the
base strips.  The feature is an absorbing Markov chain (:mod:`markov.chain`, :mod:`markov.retrigger`).
"""
from __future__ import annotations

import math

import numpy as np

from strips.decimals import exact_text
from strips.model import count_table_value

from exact.rules.base import ANALYSES, Rule, published_cells
from exact.rules.scatter import by_count

__all__ = ["FreeSpins", "Ladder", "Retrigger", "FreeSpinsOnBaseStrips", "chain_count", "initial_spins", "retrigger_spins",
           "retrigger_table", "retrigger_step"]


def initial_spins(model, scatters: int) -> int:
    """Initial free spins of ``model``'s trigger table for ``scatters`` triggering scatters (0: no trigger);
    a count above the largest entry takes that entry's spins (rules page section 10).

    >>> from strips.loader import load_math_set
    >>> [initial_spins(load_math_set("rules_page").model, n) for n in (2, 3, 9)]
    [0, 10, 20]
    """
    return count_table_value(model.trigger, scatters)


def retrigger_spins(model, scatters: int) -> int:
    """Extra free spins of ``model``'s retrigger table for ``scatters`` scatters in a free spin (0 if none).

    >>> from strips.loader import load_math_set
    >>> retrigger_spins(load_math_set("rules_page").model, 3)
    0
    """
    return count_table_value(model.retrigger, scatters)


def retrigger_table(model, top: int):
    """The retrigger's extra free spins for 0 .. ``top`` triggering scatters in a free spin (int64 array, the
    simulator's vectorised step looks them up), or None when the free spins do not retrigger.

    >>> from strips.loader import load_math_set
    >>> retrigger_table(load_math_set("rules_page").model, 5) is None
    True
    """
    if not (model.retrigger and model.levels):
        return None
    return np.array([retrigger_spins(model, n) for n in range(top + 1)], dtype=np.int64)


def chain_count(model) -> str:
    """The count the free-spin chain reads on each free spin: ``"scatter"`` (the retrigger) or ``"key"``
    (the KEY-counter ladder).

    >>> from strips.loader import load_math_set
    >>> chain_count(load_math_set("rules_page").model)
    'key'
    """
    return "scatter" if model.retrigger else "key"


def retrigger_step(model, scatters: int, awarded: int) -> int:
    """The literal reading of a retrigger: the extra free spins a free spin showing ``scatters`` triggering
    scatters awards (the retrigger table, ``by_count``), cut so that the feature's ``awarded`` spins never
    pass ``retrigger_cap``, and nothing once they reach ``retrigger_below``; 0 without a retrigger table.

    >>> from strips.loader import load_math_set
    >>> retrigger_step(load_math_set("rules_page").model, 5, 10)
    0
    """
    extra = by_count(model.retrigger, scatters)
    if model.retrigger_cap is not None:
        extra = max(0, min(extra, model.retrigger_cap - awarded))
    below = getattr(model, "retrigger_below", None)    # retrigger_total_below: whole awards while below it
    if below is not None and awarded >= below:
        extra = 0
    return extra


class FreeSpins(Rule):
    """Scatter-triggered free spins: every analysis that takes the game's other rules (the ladder, the retrigger
    and the rest narrow it by name).  Its home is the feature's section of the PAR sheet: the trigger table, the
    feature by trigger, each level's spin and its by-symbol table, in every view.

    >>> from strips.loader import load_math_set
    >>> FreeSpins.present(load_math_set("rules_page").model), FreeSpins.present(load_math_set("hold_and_win").model)
    (True, False)
    """

    name = "free spins"
    keys = "[free_spins] trigger, strips; [[free_spins.levels]] multiplier, weights"
    implements = frozenset(ANALYSES)
    places = {"text": ("after_round", "after_key_odds"), "tables": ("after_volatility", "after_key_odds", "after_levels"),
              "workbook": "after_combinations"}

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.levels)

    # -- the section of the PAR sheet, by place (exact.rules.base.VIEW_PLACES) ----------------------------------
    @classmethod
    def report_text(cls, rep, fmt, digits: int) -> dict[str, list[str]]:
        """The text report's FREE SPINS TRIGGER table with q, E[R] and the spins played (``after_round``), and its
        FREE SPINS FEATURE BY TRIGGER, per-level and by-symbol tables (``after_key_odds``); none when no count
        starts the free spins."""
        r, levels = rep.round, rep.analysis.levels
        if not r.features:
            return {}
        rows, shown_any = [], False
        for n, p in r.trigger_prob.items():
            rows.append([f"{n} {rep.scatter_name}", str(r.features[n].initial_spins), fmt.decimal_text(p, 8),
                         fmt.one_in(p)] + published_cells(rep, f"trigger.{n}", ""))
            shown_any |= bool(rep.published(f"trigger.{n}"))
        rows.append(["any", "", fmt.decimal_text(r.trigger_probability, 8), fmt.one_in(r.trigger_probability)]
                    + published_cells(rep, "trigger_any", ""))
        shown_any |= bool(rep.published("trigger_any"))
        headers = [rep.scatter_name, "spins", "probability", "frequency", "published", "check"]
        if not shown_any:
            headers, rows = headers[:4], [row[:4] for row in rows]
        trigger = ["", "FREE SPINS TRIGGER (per base spin)"] + fmt.table_lines(headers, rows, "lrrrrl")
        trigger.append(f"expected free spins awarded per paid spin (q)  {fmt.decimal_text(r.q, 6)}")
        if r.retrigger_per_spin:
            cap = "no cap" if r.retrigger_cap is None else f"cap {r.retrigger_cap} spins"
            trigger.append(f"expected retrigger spins per free spin E[R]    {fmt.decimal_text(r.retrigger_per_spin, 6)} ({cap})")
        trigger.append(f"expected free spins played per round           {fmt.decimal_text(r.free_spins_played, 6)}")
        keys = rep.has_collect
        rows = [[f"{n} {rep.scatter_name}", str(f.initial_spins), fmt.decimal_text(f.mean, 2),
                 f"{math.sqrt(f.variance):.2f}", fmt.decimal_text(f.spins, 3)]
                + ([fmt.decimal_text(f.keys, 3)] if keys else []) + [fmt.percent(f.reach[i], 3) for i in range(1, len(levels))]
                for n, f in r.features.items()]
        feature = ["", "FREE SPINS FEATURE BY TRIGGER"] + fmt.table_lines(
            ["trigger", "spins", "mean win", "sd", "E[spins]"] + (["E[KEY]"] if keys else [])
            + [f"reach L{i + 1}" for i in range(1, len(levels))], rows)
        rows = [[lv.phase.name, f"x{lv.phase.multiplier}", fmt.decimal_text(lv.mean, 4), fmt.percent(lv.hit_frequency, 3)]
                + ([fmt.percent(lv.key_2plus, 4)] if keys else []) for lv in levels]
        feature += ["", "per free spin (one spin of each level)"] + fmt.table_lines(
            ["level", "mult", "mean win", "hit freq"] + (["P(2+ KEY)"] if keys else []), rows)
        for i, lv in enumerate(levels, start=1):
            rows = [[s, str(n), fmt.sig_fraction(p, 6), fmt.one_in(p), fmt.decimal_text(w, 6)]
                    for s, n, p, w in rep.level_symbol_rows(i) if p]
            feature += ["", f"FREE SPINS LEVEL {i} (x{lv.phase.multiplier}) BY SYMBOL (per free spin, "
                            f"{lv.phase.strips} strips)"]
            missing = rep.by_symbol_missing(lv)
            if missing and not rows:
                feature.append(missing)
                continue
            feature += fmt.table_lines(["symbol", "OAK", "probability", "frequency", "mean win (credits)"], rows, "llrrr")
        return {"after_round": trigger, "after_key_odds": feature}

    @classmethod
    def report_json(cls, sheet) -> dict:
        """``free_spin_symbols`` {level: {symbol: {OAK: {probability, mean_win (credits per free spin)}}}}, exact
        ``"p/q"`` with floats beside, when the game has free spins."""
        out: dict = {}
        for i in range(1, len(sheet.analysis.levels) + 1):
            level: dict = {}
            for s, n, p, w in sheet.level_symbol_rows(i):
                level.setdefault(s, {})[str(n)] = {"probability": exact_text(p), "probability_float": float(p),
                                                   "mean_win": exact_text(w), "mean_win_float": float(w)}
            out[str(i)] = level
        return {"free_spin_symbols": out} if out else {}

    @classmethod
    def report_tables(cls, sheet, table, inv) -> dict[str, list]:
        """The tables ``trigger`` (``after_volatility``), ``features`` and ``levels`` (``after_key_odds``) and
        ``free_spin_symbols_N`` per level (``after_levels``)."""
        r, levels = sheet.round, sheet.analysis.levels
        out: dict[str, list] = {"after_levels": []}
        if r.features:
            rows = [(f"{n} {sheet.scatter_name}", r.features[n].initial_spins, p, inv(p),
                     *published_cells(sheet, f"trigger.{n}")) for n, p in r.trigger_prob.items()]
            rows.append(("any", None, r.trigger_probability, inv(r.trigger_probability),
                         *published_cells(sheet, "trigger_any")))
            out["after_volatility"] = [table("trigger", "Free spins trigger (per base spin)",
                                             [("trigger",), ("spins", "count"), ("probability", "probability", "per base spin"),
                                              ("1 in N", "odds"), ("published",), ("check",)], rows)]
            keys, n_levels = sheet.has_collect, len(levels)
            rows = [(f"{n} {sheet.scatter_name}", f.initial_spins, f.mean, f.variance, math.sqrt(f.variance), f.spins)
                    + ((f.keys,) if keys else ()) + tuple(f.reach[i] for i in range(1, n_levels))
                    for n, f in r.features.items()]
            features = table("features", "Free spins feature by trigger",
                             [("trigger",), ("spins", "count"), ("mean win", "credits", "credits"),
                              ("variance", "credits", "credits^2"), ("sd", "float", "credits"), ("E[spins]", "number", "spins")]
                             + ([("E[KEY]", "number", "KEYs")] if keys else [])
                             + [(f"reach L{i + 1}", "probability", "per feature") for i in range(1, n_levels)], rows)
            rows = [(lv.phase.name, lv.phase.multiplier, lv.mean, lv.hit_frequency) + ((lv.key_2plus,) if keys else ())
                    for lv in levels]
            out["after_key_odds"] = [features, table("levels", "Per free spin (one spin of each level)",
                                                     [("level",), ("multiplier", "count"),
                                                      ("mean win", "credits", "credits per spin"),
                                                      ("hit frequency", "probability", "per spin")]
                                                     + ([("P(2+ KEY)", "probability", "per spin")] if keys else []), rows)]
        for i, lv in enumerate(levels, start=1):
            rows = [(s, n, p, inv(p), w, w / sheet.bet) for s, n, p, w in sheet.level_symbol_rows(i)]
            out["after_levels"].append(table(
                f"free_spin_symbols_{i}", f"Free spins level {i} (x{lv.phase.multiplier}) by symbol "
                f"(per free spin, {lv.phase.strips} strips)",
                [("symbol",), ("OAK", "count"), ("probability", "probability", "per free spin"), ("1 in N", "odds"),
                 ("mean win", "credits", "credits per free spin"), ("share of the bet", "rtp", "per free spin")], rows))
        return out

    @classmethod
    def workbook_sheets(cls, rep, book, formats) -> None:
        """The sheets ``Free-spin combinations`` (each level's symbol and OAK), ``Features`` (per trigger count) and
        ``Levels`` (each level's rules and figures), after Combinations and Scatter pays."""
        f, r, a, bet = formats, rep.round, rep.analysis, rep.bet
        rows = [[i, s, n, p, f.one_in(p), w] for i in range(1, len(a.levels) + 1)
                for s, n, p, w in rep.level_symbol_rows(i) if p]
        book.add("Free-spin combinations", "free_spin_combinations",
                 ("level", "symbol", "OAK", ("probability", "per free spin"), ("odds", "1 in N free spins"),
                  ("mean win", "credits per free spin")), rows, (f.COUNT, None, f.COUNT, f.PROB, f.ONE_IN, f.CREDITS),
                 keys=3)
        levels = len(a.levels)
        rows = []
        for n, x in r.features.items():
            p = r.trigger_prob[n]
            rows.append([n, x.initial_spins, p, f.one_in(p), x.mean, x.variance, x.spins, p * x.mean / bet]
                        + [x.reach[i] for i in range(1, levels)])
        book.add("Features", "features", ((rep.scatter_name + " count", "symbols"), ("initial free spins", "spins"),
                                          ("probability", "per base spin"), ("odds", "1 in N base spins"),
                                          ("feature mean win", "credits"), ("feature variance", "credits^2"),
                                          ("feature spins", "spins played"), ("RTP contribution", "% of the bet"))
                 + tuple((f"reach level {i + 1}", "per feature") for i in range(1, levels)), rows,
                 (f.COUNT, f.COUNT, f.PROB, f.ONE_IN, f.CREDITS, f.CREDITS, f.TWO, f.PERCENT) + (f.PROB,) * (levels - 1))
        model = rep.modes["default"].set.model
        rows = [[lv.number, lv.threshold, lv.spins, lv.multiplier, lv.weights, pa.mean, pa.hit_frequency, reach, w / bet]
                for lv, pa, w, reach in zip(model.levels, a.levels, r.free_spins_by_level, r.reach)]
        book.add("Levels", "levels", ("level", ("KEY threshold", "KEYs"), ("spins", "spins"), ("multiplier", "x"),
                                      "weight table", ("mean win", "credits per spin"), ("hit frequency", "per spin"),
                                      ("reach", "per round"), ("RTP", "% of the bet")),
                 rows, (f.COUNT, f.COUNT, f.COUNT, f.COUNT, None, f.CREDITS, f.PERCENT, f.PROB, f.PERCENT))


class Ladder(Rule):
    """A ladder of several free-spin levels climbed by collected KEYs.

    >>> from strips.loader import load_math_set
    >>> Ladder.present(load_math_set("rules_page").model)
    True
    """

    name = "a free-spin ladder of several levels"
    keys = "[[free_spins.levels]] threshold, spins, multiplier, weights"
    implements = frozenset(ANALYSES) - {"gamble"}

    @classmethod
    def present(cls, model) -> bool:
        return len(model.levels) > 1

    @classmethod
    def published_facts(cls, printed, model) -> list[tuple]:
        """The ladder and the retrigger as the rules page prints them (``published.toml [rules] levels``,
        ``retrigger``) against the game file: one row per printed level (KEY threshold, spins, multiplier;
        level 1 plays the initial spins, its ``spins`` left out), then one of the number of levels and
        whether the free spins retrigger.

        >>> from strips.loader import load_math_set
        >>> ms = load_math_set("rules_page")
        >>> [row[-1] for row in Ladder.published_facts(ms.published.rules, ms.model)]
        [True, True, True, True, True]
        """
        out = []
        if printed.levels is not None:
            have_ladder = tuple((lv.threshold, lv.spins, lv.multiplier) for lv in model.levels)
            for i, lv in enumerate(printed.levels, start=1):
                want = (lv.threshold, lv.spins, lv.multiplier)
                have = have_ladder[i - 1] if i <= len(have_ladder) else None
                same = have is not None and have[0] == want[0] and (have[1] or None) == want[1] and have[2] == want[2]
                out.append((f"level {i}: KEY threshold, spins, multiplier", "levels",
                            f"{want[0]}, {want[1] or 'initial'}, x{want[2]}", have,
                            "missing" if have is None else f"{have[0]}, {have[1] or 'initial'}, x{have[2]}", same))
        if printed.levels is not None or printed.retrigger is not None:
            parts, want, have, ok = [], [], [], True
            if printed.levels is not None:
                parts.append("levels in the ladder")
                want.append(str(len(printed.levels)))
                have.append(str(len(model.levels)))
                ok &= len(model.levels) == len(printed.levels)
            if printed.retrigger is not None:
                parts.append("retrigger" if printed.retrigger else "no retrigger")
                want.append("yes" if printed.retrigger else "no")
                have.append("yes" if model.retrigger else "no")
                ok &= bool(model.retrigger) == printed.retrigger
            out.append(("; ".join(parts), "levels" if printed.levels is not None else "retrigger",
                        "; ".join(want), "; ".join(have), "; ".join(have), ok))
        return out


class Retrigger(Rule):
    """Scatters during the free spins award more spins (``[free_spins] retrigger``, ``retrigger_cap``)."""

    name = "retrigger"
    keys = "[free_spins] retrigger, retrigger_cap"
    implements = frozenset(ANALYSES) - {"gamble", "sensitivity", "tune"}
    narrows = frozenset({"distribution"})

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.retrigger)

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if analysis == "distribution" and len(model.levels) > 1:
            return "retrigger with a multi-level ladder"
        if analysis in ("sensitivity", "tune"):
            return "free spins with a retrigger table"
        return super().refusal(model, analysis)


class FreeSpinsOnBaseStrips(Rule):
    """The free spins spin the base game's strips."""

    name = "free spins on the base strips"
    keys = '[free_spins] strips = "base"'
    implements = frozenset(ANALYSES) - {"sensitivity", "tune"}

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.trigger) and model.free_spin_strips == "base"
