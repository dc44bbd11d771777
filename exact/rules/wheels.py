"""Prize wheels and jackpots (``[wheel.NAME] symbol, tables, prizes``; ``[jackpots]``): a wheel symbol's
count in the base window starts its wheel, whose prize is credits, a jackpot or free spins.

Exact figures: :mod:`exact.bet_modes` and :mod:`markov.wheels`.
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Rule
from exact.rules.respin import pre_feature_refusal

__all__ = ["Wheels"]


class Wheels(Rule):
    """Prize wheels (and their jackpots).

    >>> from strips.loader import load_math_set
    >>> Wheels.present(load_math_set("wheel_game").model)
    True
    """

    name = "[wheel]"
    keys = "[wheel.NAME] symbol, tables, prizes; [jackpots]"
    narrows = frozenset({"report"})
    implements = frozenset(ANALYSES) - {"distribution", "sensitivity", "tune"}
    round_stage = True
    before_features = True

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.wheels)

    @classmethod
    def spin_json(cls, model, phase, window, res) -> dict:
        """The prize table each wheel starts after a base spin (None: it does not start)."""
        if phase.name != "base":
            return {}
        out = {}
        for w in model.wheels:
            table = w.table_for(sum(x == w.symbol for col in window for x in col))
            out[w.name] = table.name if table else None
        return {"wheels": out}

    @classmethod
    def spin_text(cls, model, phase, window, res) -> dict[str, list[str]]:
        tables = cls.spin_json(model, phase, window, res).get("wheels", {})
        return {"starts": [f"wheel          {name} starts after this spin (prize table {table})"
                           for name, table in tables.items() if table]}

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if analysis == "report":
            rule = pre_feature_refusal(model)
            if rule:
                return f"{rule} with a prize wheel or a respin"
        return super().refusal(model, analysis)

    @classmethod
    def report_text(cls, rep, fmt, digits: int) -> list[str]:
        """The PRIZE WHEELS section: each wheel per round of the default mode, its awards with their odds."""
        if not rep.round.wheels:
            return []
        out: list[str] = []
        out += ["", "PRIZE WHEELS (default mode, per round; a wheel's share includes the free spins it awards)"]
        for w in rep.round.wheels.values():
            out.append(f"{w.name}: starts {fmt.one_in(w.prob)} rounds ({fmt.decimal_text(w.prob, 8)}), "
                       f"RTP share {fmt.percent(w.mean / rep.bet, digits)} (exact {fmt.short_fraction_text(w.mean / rep.bet, 60)})")
            rows = [[text, fmt.decimal_text(p, 10), fmt.one_in(p)] for text, p in w.awards.items()]
            out += ["  " + line for line in fmt.table_lines(["award", "probability per round", "odds"], rows)]
        return out

    @classmethod
    def report_tables(cls, sheet, table, inv) -> list:
        """The prize wheels table: each wheel's start and awards per round."""
        rows = []
        for w in sheet.round.wheels.values():
            rows.append((w.name, "wheel starts", w.prob, inv(w.prob), w.mean / sheet.bet))
            rows += [(w.name, text, p, inv(p), None) for text, p in w.awards.items()]
        return [table("wheels", "Prize wheels (default mode, per round)",
                      [("wheel",), ("award",), ("probability", "probability", "per round"), ("1 in N", "odds"),
                       ("RTP share", "rtp", "fraction of the bet")], rows)]


    @classmethod
    def workbook_sheets(cls, rep, book, f) -> None:
        """The workbook's ``Prize wheels`` sheet: each wheel's start and awards per round."""
        wheels = rep.wheel
        if not wheels:
            return
        rows = []
        for name, w in wheels.items():
            rows.append([name, "wheel starts", w["probability"], f.one_in(w["probability"]), w["rtp"]])
            rows += [[name, award, q, f.one_in(q), None] for award, q in w["awards"].items()]
        book.add("Prize wheels", "prize_wheels", ("wheel", "award", ("probability", "per round (default mode)"),
                                                  ("odds", "1 in N rounds"), ("RTP share", "% of the bet")), rows,
                 (None, None, f.PROB, f.ONE_IN, f.PERCENT), keys=2)