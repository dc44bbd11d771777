"""Prize wheels and jackpots (``[wheel.NAME] symbol, tables, prizes``; ``[jackpots]``): a wheel symbol's
count in the base window starts its wheel, whose prize is credits, a jackpot or free spins.

Exact figures: :mod:`exact.bet_modes` and :mod:`markov.wheels`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from strips.model import CREDITS, FREE_SPINS, JACKPOT

from exact.rules.base import ANALYSES, Rule, SimulatedSection
from exact.rules.respin import pre_feature_refusal, round_distribution_refusal

__all__ = ["Wheels", "WheelStep", "WheelSteps"]


class Wheels(Rule):
    """Prize wheels (and their jackpots).

    >>> from strips.loader import load_math_set
    >>> Wheels.present(load_math_set("wheel_game").model)
    True
    """

    name = "[wheel]"
    keys = "[wheel.NAME] symbol, tables, prizes; [jackpots]"
    narrows = frozenset({"report", "distribution"})
    implements = frozenset(ANALYSES) - {"sensitivity", "tune"}
    round_stage = True
    before_features = True
    sheet_key = "wheel"
    component = "wheel"
    component_words = "prize wheels (their free spins included)"

    @classmethod
    def present(cls, model) -> bool:
        return bool(model.wheels)

    @classmethod
    def sheet_figures(cls, sheet) -> dict:
        """Prize wheel -> rtp (its share, free spins it awards included), probability per round, awards."""
        return {w.name: {"rtp": w.mean / sheet.bet, "probability": w.prob, "awards": dict(w.awards)}
                for w in sheet.round.wheels.values()}

    @classmethod
    def simulation_step(cls, model, mode: str, tables) -> "WheelSteps":
        return WheelSteps(tuple((w.symbol, WheelStep.of(model, w, sum(int(t.max(initial=0)) for t in tables(w.symbol))))
                                for w in model.wheels))

    @classmethod
    def simulation_section(cls, model, sim) -> SimulatedSection:
        """The rate of rounds that start each wheel, then of each award of each wheel."""
        wheels = tuple((w.name, sim.rate(f"wheel {w.name}", sim.tally.wheels.get(w.name, 0), w.prob))
                       for w in sim.round.wheels.values())
        awards = tuple((w.name, t, sim.rate(f"{w.name}: {t}", sim.tally.awards.get((w.name, t), 0), p))
                       for w in sim.round.wheels.values() for t, p in w.awards.items())
        return SimulatedSection(
            figures=tuple(f for _, f in wheels) + tuple(f for _, _, f in awards),
            json={"wheel_rates": {w: f.to_json() for w, f in wheels},
                  "award_rates": {w: {t: f.to_json() for ww, t, f in awards if ww == w} for w, _ in wheels}})

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
        if analysis == "report" and pre_feature_refusal(model):
            return f"{pre_feature_refusal(model)} with a prize wheel or a respin"
        if analysis == "distribution" and round_distribution_refusal(model):
            return f"[wheel] with {round_distribution_refusal(model)}"
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


@dataclass(frozen=True)
class WheelStep:
    """One prize wheel's vectorised literal step (the simulator's): the prize table by the count of its
    symbol, then one weighted award per started wheel.

    ``table[c]`` the prize table index for ``c`` wheel symbols (-1: no wheel), the last entry for
    every larger count; per table the cumulative integer weights and per award its credits (a
    jackpot's credits included), its free spins, and the index of its text in ``texts``.

    >>> from strips.loader import load_math_set
    >>> model = load_math_set("wheel_game").model
    >>> step = WheelStep.of(model, model.wheels[0], 5)
    >>> paid, spins, started, awards = step(np.array([0, 5]), np.random.default_rng(1))
    >>> started, int(paid[0] + spins[0]), sum(awards.values())
    (1, 0, 1)
    """

    name: str
    table: np.ndarray
    cumulative: tuple[np.ndarray, ...]
    credits: tuple[np.ndarray, ...]
    free_spins: tuple[np.ndarray, ...]
    text: tuple[np.ndarray, ...]
    texts: tuple[str, ...]
    #: Per table, its awards (:class:`strips.model.Award`), in the order of its weights.
    awards: tuple[tuple, ...] = ()

    @classmethod
    def of(cls, model, wheel, top: int) -> "WheelStep":
        """The step of ``wheel`` (a :class:`strips.model.Wheel` of ``model``) for symbol counts 0 .. ``top``."""
        names = list(wheel.prizes)
        table = np.array([-1 if wheel.table_for(c) is None else names.index(wheel.table_for(c).name)
                          for c in range(top + 1)], dtype=np.int64)
        texts: list[str] = []
        cum, credits, spins_, text = [], [], [], []
        for name in names:
            t = wheel.prizes[name]
            cum.append(np.cumsum(np.array(t.weights, dtype=np.int64)))
            credits.append(np.array([model.jackpots[a.jackpot] if a.kind == JACKPOT else a.amount
                                     if a.kind == CREDITS else 0 for a in t.awards], dtype=np.int64))
            spins_.append(np.array([a.amount if a.kind == FREE_SPINS else 0 for a in t.awards], dtype=np.int64))
            for a in t.awards:
                if a.text not in texts:
                    texts.append(a.text)
            text.append(np.array([texts.index(a.text) for a in t.awards], dtype=np.int64))
        return cls(wheel.name, table, tuple(cum), tuple(credits), tuple(spins_), tuple(text), tuple(texts),
                   tuple(wheel.prizes[name].awards for name in names))

    def starts(self, counts: np.ndarray) -> np.ndarray:
        """Whether each window (its count of the wheel symbol, int64 (n,)) starts the wheel: bool (n,)."""
        return self.table[np.minimum(counts, len(self.table) - 1)] >= 0

    def __call__(self, counts: np.ndarray, rng: np.random.Generator):
        """(credits per round (n,), free spins awarded per round (n,), wheels started, award text -> count).

        One draw per started wheel, table by table in the wheel's order of tables.
        """
        return self.draw(counts, rng)[:4]

    def draw(self, counts: np.ndarray, rng: np.random.Generator):
        """As :meth:`__call__`, and a fifth item: the award each round drew (a :class:`strips.model.Award`,
        None for a round that starts no wheel), a list of n."""
        n = len(counts)
        drawn: list = [None] * n
        credits = np.zeros(n, dtype=np.int64)
        award_spins = np.zeros(n, dtype=np.int64)
        awards: dict[str, int] = {}
        t = self.table[np.minimum(counts, len(self.table) - 1)]
        started = int(np.count_nonzero(t >= 0))
        for ti in range(len(self.cumulative)):
            rows = np.flatnonzero(t == ti)
            if not len(rows):
                continue
            a = np.searchsorted(self.cumulative[ti], rng.integers(0, int(self.cumulative[ti][-1]), len(rows)),
                                side="right")
            credits[rows] += self.credits[ti][a]
            award_spins[rows] += self.free_spins[ti][a]
            for row, i in zip(rows.tolist(), a.tolist()):
                drawn[row] = self.awards[ti][i]
            for k, v in enumerate(np.bincount(self.text[ti][a], minlength=len(self.texts))):
                if v:
                    awards[self.texts[k]] = awards.get(self.texts[k], 0) + int(v)
        return credits, award_spins, started, awards, drawn


@dataclass(frozen=True)
class WheelSteps:
    """The prize wheels' step of a simulated round (after the scatter-triggered free spins): every started
    wheel draws its award (:class:`WheelStep`, wheels in file order), then each wheel's free-spin award is
    played from level 1 as a feature of its own (:mod:`markov.wheels`), wheel by wheel.  ``wheels`` pairs
    each wheel's symbol with its step.  A step of another rule of the mode with ``play_awards(block, rows,
    awards)`` plays the free-spin awards instead (frames that persist through them)."""

    wheels: tuple
    rule: str = "[wheel]"
    stage: str = "after_features"

    def starts(self, counts: dict) -> np.ndarray:
        """Whether each window (``counts``: symbol -> its count per round) starts a wheel: bool (n,)."""
        out = None
        for symbol, w in self.wheels:
            s = w.starts(counts[symbol])
            out = s if out is None else out | s
        return out

    def simulate(self, block) -> None:
        """Draw the started wheels of ``block`` (tallied: ``wheels`` started, ``awards`` won), add their
        credits, then play their free spins."""
        n = len(block.win)
        credits = np.zeros(n, dtype=np.int64)
        awarded = []
        for symbol, w in self.wheels:
            paid, award_spins, started, awards, drawn = w.draw(block.counts[symbol], block.rng)
            credits += paid
            awarded.append((award_spins, drawn))
            if started:
                block.tally.wheels[w.name] = block.tally.wheels.get(w.name, 0) + started
            for text, v in awards.items():
                block.tally.awards[w.name, text] = block.tally.awards.get((w.name, text), 0) + v
        block.add_win(slice(None), credits)
        player = next((st for st in block.game.steps if hasattr(st, "play_awards")), None)
        for award_spins, drawn in awarded:   # each wheel's free spins: a feature of its own
            rows = np.flatnonzero(award_spins)
            if len(rows) and player is not None:
                player.play_awards(block, rows, [drawn[i] for i in rows.tolist()])
            elif len(rows):
                block.play(rows, award_spins[rows])
