"""Bet modes (``[modes.NAME] cost, strips, trigger, respin``) and bought features (``[buy.NAME]
cost, trigger``).  :meth:`strips.model.MathSet.mode` gives the math set one mode plays; the
analyses of one math set run on it.
"""
from __future__ import annotations

from math import sqrt

from exact.rules.base import ANALYSES, Cost, Rule, seconds_of
from exact.rules.terms import table_bytes

__all__ = ["BetModes", "Buys", "mode_figures"]


def mode_figures(modes) -> dict[str, dict]:
    """The bet modes' section of the JSON report: mode -> cost (int), rtp, variance, mean_win, trigger_any
    (per round of the mode), respin {probability, rtp} with a respin, wheel_rtp with prize wheels;
    ``modes`` maps each mode's name to its :class:`exact.bonus.ModeResult`."""
    out = {}
    for m in modes.values():
        r = m.round
        d: dict = {"cost": m.cost, "rtp": m.rtp, "variance": m.variance, "mean_win": r.mean,
                   "trigger_any": r.trigger_probability}
        if r.respin_prob:
            d["respin"] = {"probability": r.respin_prob, "rtp": r.components["respin"] / m.cost}
        if r.wheels:
            d["wheel_rtp"] = r.components["wheel"] / m.cost
        out[m.name] = d
    return out


class BetModes(Rule):
    """Several bet modes: the single-set analyses run per mode (``MathSet.mode(NAME)``).

    >>> from strips.loader import load_math_set
    >>> BetModes.present(load_math_set("wheel_game").model)
    True
    """

    name = "[modes]"
    keys = "[modes.NAME] cost, strips, trigger, respin"
    implements = frozenset(ANALYSES) - {"sensitivity", "tune"}
    round_stage = True
    sheet_key = "modes"

    @classmethod
    def sheet_figures(cls, sheet) -> dict:
        """Every bet mode's figures, the default mode's in every game (:func:`mode_figures`)."""
        return mode_figures(sheet.modes)

    #: Seconds of the exact figures of one bet mode per 1,000 stops of the game's strips (calibrated: the
    #: rules-page game, 1,000 stops, with 20 modes: ``rtp --json`` 0.44 s more per mode, load 6).
    SECONDS_PER_MODE = 0.45

    @classmethod
    def costs(cls, ms, analysis: str, factorised: bool = True) -> tuple:
        """Every analysis computes each bet mode's (and buy's) exact figures: units x :data:`SECONDS_PER_MODE`
        scaled by the strips' stops; the simulation also holds each unit's ways tables
        (:func:`exact.rules.terms.table_bytes` of every strip set, one int64 row per stop combination of a group
        of reels and pay symbol) at once."""
        if not hasattr(ms, "strips"):
            return ()
        model = ms.model
        units = 1 + len(model.modes) + len(model.buys)
        stops = sum(sum(s.lengths) for s in ms.strips.values())
        out = [Cost("seconds", seconds_of(units * cls.SECONDS_PER_MODE * max(stops, 200) / 1000, 1.0),
                    f"the exact figures of {units:,} bet modes and buys")]
        if analysis in ("simulate", "prove"):
            per = sum(table_bytes(s.lengths, len(model.pay_symbols) + 2) for s in ms.strips.values())
            out.append(Cost("memory", -(-units * per // 2 ** 20),
                            f"the simulator's tables of {units:,} bet modes and buys"))
        return tuple(out)

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.modes)

    @classmethod
    def report_text(cls, rep, fmt, digits: int) -> list[str]:
        """The BET MODES section of the report: each mode per round of the mode (RTP = mean win / cost)."""
        if not (len(rep.modes) > 1 or any(m.round.respin_prob for m in rep.modes.values())):
            return []
        out: list[str] = []
        out += ["", "BET MODES (every figure per round of the mode; RTP = mean win / cost)"]
        rows = []
        for m in rep.modes.values():
            r = m.round
            rows.append([m.name, str(m.cost), fmt.percent(m.rtp, digits), fmt.decimal_text(r.mean, 4),
                         f"{sqrt(m.variance) / m.cost:.4f}", fmt.one_in(r.trigger_probability) if r.features else "",
                         fmt.one_in(r.respin_prob) if r.respin_prob else "", fmt.percent(r.components["respin"] / m.cost, 4) if r.respin_prob else "",
                         fmt.percent(r.components["wheel"] / m.cost, 4) if r.wheels else ""])
        out += fmt.table_lines(["mode", "cost", "RTP", "mean win", "sd/cost", "free spins", "respin",
                            "respin RTP", "wheel RTP"], rows)
        for m in rep.modes.values():
            out.append(f"  {m.name}: RTP exact {fmt.short_fraction_text(m.rtp, 60)}, variance {fmt.decimal_text(m.variance, 2)} credits^2 per round")
        return out

    @classmethod
    def report_tables(cls, sheet, table, inv) -> list:
        """The bet modes table (per round of the mode)."""
        if not (len(sheet.modes) > 1 or any(m.round.respin_prob for m in sheet.modes.values())):
            return []
        rows = []
        for m in sheet.modes.values():
            rr = m.round
            rows.append((m.name, m.cost, m.rtp, rr.mean, m.variance, sqrt(m.variance) / m.cost,
                         rr.trigger_probability if rr.features else None, rr.respin_prob or None,
                         rr.components["respin"] / m.cost if rr.respin_prob else None, rr.components["wheel"] / m.cost if rr.wheels else None))
        return [table("modes", "Bet modes (per round of the mode; RTP = mean win / cost)",
                      [("mode",), ("cost", "count", "credits"), ("RTP", "rtp", "fraction of the cost"),
                       ("mean win", "credits", "credits per round"), ("variance", "credits", "credits^2"),
                       ("sd/cost", "float", "costs"), ("free spins", "probability", "per round"),
                       ("respin", "probability", "per round"), ("respin RTP", "rtp", "fraction of the cost"),
                       ("wheel RTP", "rtp", "fraction of the cost")], rows)]

    @classmethod
    def workbook_sheets(cls, rep, book, f) -> None:
        """The workbook's ``Bet modes`` sheet (several modes only)."""
        modes = rep.modes_figures if rep.modes else {}
        if len(modes) < 2:
            return
        rows = [[name, m["cost"], m["rtp"], m["mean_win"], m["variance"], m["trigger_any"],
                 f.one_in(m["trigger_any"]), m.get("respin", {}).get("probability"), m.get("respin", {}).get("rtp"),
                 m.get("wheel_rtp")] for name, m in modes.items()]
        book.add("Bet modes", "bet_modes", ("mode", ("cost", "credits per round"), ("RTP", "% of the cost"),
                                            ("mean win", "credits per round"), ("variance", "credits^2 per round"),
                                            ("free spins trigger", "per round"), ("odds", "1 in N rounds"),
                                            ("respin probability", "per round"), ("respin RTP", "% of the cost"),
                                            ("wheel RTP", "% of the cost")),
                 rows, (None, f.COUNT, f.PERCENT, f.CREDITS, f.CREDITS, f.PROB, f.ONE_IN, f.PROB, f.PERCENT, f.PERCENT))


class Buys(Rule):
    """Bought features: the feature started directly at a cost."""

    name = "[buy]"
    keys = "[buy.NAME] cost, trigger"
    implements = frozenset(ANALYSES)
    round_stage = True
    sheet_key = "buy"

    @classmethod
    def sheet_figures(cls, sheet) -> dict:
        """Bought feature -> cost, trigger, initial_spins (ints), rtp, variance, mean_win (per buy), and its
        warning in words when it has one."""
        out = {}
        for b in sheet.buys.values():
            out[b.name] = {"cost": b.cost, "trigger": b.trigger, "initial_spins": b.feature.initial_spins,
                           "rtp": b.rtp, "variance": b.variance, "mean_win": b.feature.mean}
            if b.warning:
                out[b.name]["warning"] = b.warning
        return out

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.buys)

    @classmethod
    def report_text(cls, rep, fmt, digits: int) -> list[str]:
        """The BOUGHT FEATURES section: each buy as the free spins after its trigger."""
        if not rep.buys:
            return []
        out: list[str] = []
        out += ["", "BOUGHT FEATURES (the free spins as after the trigger; no base spin, no wheel)"]
        rows = [[b.name, str(b.cost), str(b.trigger), str(b.feature.initial_spins), fmt.percent(b.rtp, digits),
                 fmt.decimal_text(b.feature.mean, 4), f"{sqrt(b.variance) / b.cost:.4f}"] for b in rep.buys.values()]
        out += fmt.table_lines(["buy", "cost", "trigger", "spins", "RTP", "mean win", "sd/cost"], rows)
        out += [f"  WARNING: {b.warning} ({fmt.percent(b.rtp, 4)} vs {fmt.percent(b.mode_rtp, 4)})"
                for b in rep.buys.values() if b.warning]
        return out

    @classmethod
    def report_tables(cls, sheet, table, inv) -> list:
        """The bought features table (per buy)."""
        rows = [(b.name, b.cost, b.trigger, b.feature.initial_spins, b.rtp, b.feature.mean, b.variance,
                 sqrt(b.variance) / b.cost, b.warning or None) for b in sheet.buys.values()]
        return [table("buys", "Bought features (the free spins as after the trigger)",
                      [("buy",), ("cost", "count", "credits"), ("trigger", "count"), ("spins", "count"),
                       ("RTP", "rtp", "fraction of the cost"), ("mean win", "credits", "credits per buy"),
                       ("variance", "credits", "credits^2"), ("sd/cost", "float", "costs"), ("warning",)], rows)]


    @classmethod
    def workbook_sheets(cls, rep, book, f) -> None:
        """The workbook's ``Buys`` sheet."""
        buys = rep.buy
        if not buys:
            return
        rows = [[name, b["cost"], b["trigger"], b["initial_spins"], b["rtp"], b["mean_win"], b["variance"]]
                for name, b in buys.items()]
        book.add("Buys", "buys", ("buy", ("cost", "credits"), ("trigger", "symbols"), ("initial free spins", "spins"),
                                  ("RTP", "% of the cost"), ("mean win", "credits per buy"),
                                  ("variance", "credits^2 per buy")), rows,
                 (None, f.COUNT, f.COUNT, f.COUNT, f.PERCENT, f.CREDITS, f.CREDITS))