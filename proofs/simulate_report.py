"""The simulation report: each figure's estimate and interval beside its exact value, and the verdict.

:func:`report_units` (and :func:`report` for the default mode) compare the
tallies of :mod:`proofs.simulate` with the exact values of the engine,
:func:`exact.bet_modes.analyse_mode`, :func:`exact.bet_modes.analyse_buys` and the
gamble; :func:`format_report` prints them.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from exact.bet_modes import analyse_buys, analyse_mode
from exact.engine import analyse
from exact.par import gamble_figures
from exact.rules import gambled_second_bound, rules_of
from markov.round import round_result
from strips.model import DEFAULT_MODE, MathSet
from exact.rounds import apply_sections, round_sections
from proofs.simulate_base import Tally
from proofs.simulate_modes import Unit
from proofs.simulate_base import bucket_edges
from proofs.simulate_stats import (FAMILY_LEVEL, catoni_interval, fraction_sqrt, interval_level, mean_interval,
                                   proportion_interval, proven_mean_interval, sample_sd)

#: The statistics sentence's words for the interval of a mean (:func:`proofs.simulate_stats.proven_mean_interval`).
MEAN_METHOD = ("RTP: Catoni's interval with the exact SD (proven for any tail of rare large wins: no normal "
               "approximation, no bound of the round win; the normal interval is shown beside, not used)")
from strips.decimals import exact_text


@dataclass(frozen=True)
class Figure:
    """One simulated figure beside its exact value.

    ``estimate`` and ``interval`` are floats (simulation), ``level`` the
    interval's confidence; ``exact`` a Fraction.
    """

    name: str
    estimate: float
    interval: tuple[float, float]
    exact: Fraction
    level: float = 0.99
    #: A mean's normal interval with the exact SD (approximate; shown beside the proven ``interval``, never used).
    normal: tuple[float, float] | None = None

    @property
    def inside(self) -> bool:
        """Whether the exact value lies inside the interval (compared exactly)."""
        lo, hi = self.interval
        return Fraction(lo) <= self.exact <= Fraction(hi)

    def to_json(self) -> dict:
        """``estimate``, ``interval``, ``exact`` (``"p/q"``) and ``inside``."""
        return {"estimate": self.estimate, "interval": list(self.interval), "exact": _q(self.exact),
                "inside": self.inside}


def _q(x: Fraction) -> str:
    return exact_text(x, ratio=True)


@dataclass(frozen=True)
class UnitReport:
    """The figures of one unit (a bet mode or a buy) beside the exact ones.

    Attributes
    ----------
    unit : Unit
    cost : int
        Credits per round (per buy).
    rounds : int
    rtp : Figure
        Fraction of the cost per round; its interval uses the exact SD.
    sd_exact, sd_sample : float
        Exact and sample standard deviation of the round win, credits.
    hit_rate : Figure or None
        P(base spin win > 0) (None for a buy: no base spin).
    trigger : tuple of (int, Figure)
        P(the window that decides the features shows n triggering scatters), each triggering n.
    reach : tuple of (int, Figure)
        P(level l is played in a round) for the scatter-triggered features
        (a buy: levels 2 and up, its level 1 being certain).
    sections : dict str -> exact.rules.SimulatedSection
        The figures of the rules of the round beyond its spins, by rule name in registry order
        (:meth:`exact.rules.Rule.simulation_section`: the respin rate, the wheel and award rates, the
        gamble's RTP and eligible rate).
    """

    unit: Unit
    cost: int
    rounds: int
    rtp: Figure
    sd_exact: float = 0.0
    sd_sample: float = 0.0
    hit_rate: Figure | None = None
    trigger: tuple = ()
    reach: tuple = ()
    sections: dict = dataclasses.field(default_factory=dict)

    @property
    def figures(self) -> list[Figure]:
        """Every figure of the unit, RTP first."""
        return ([self.rtp] + ([self.hit_rate] if self.hit_rate else []) + [f for _, f in self.trigger]
                + [f for _, f in self.reach] + [f for s in self.sections.values() for f in s.figures])

    def sd_notes(self, bound: str = "bound") -> str:
        """The bounds of the round's SD the rules' figures used (``; with the gamble: bound 1.234567 (used)``)."""
        return "".join(f"; with {s.sd_words}: {bound} {s.sd_bound:.6f} (used)"
                       for s in self.sections.values() if s.sd_words)

    def to_json(self) -> dict:
        """The unit's JSON object (``modes.NAME`` / ``buys.NAME`` of ``rtp simulate --json``)."""
        out = {"rounds": self.rounds, "cost": self.cost, "rtp_estimate": self.rtp.estimate,
               "rtp_interval": list(self.rtp.interval), "rtp": _q(self.rtp.exact), "rtp_inside": self.rtp.inside,
               "sd_exact": self.sd_exact, "sd_sample": self.sd_sample}
        if self.rtp.normal is not None:
            out["rtp_interval_normal"] = list(self.rtp.normal)
        if self.hit_rate:
            out["hit_rate"] = self.hit_rate.to_json()
        if self.trigger:
            out["trigger_rates"] = {str(n): f.to_json() for n, f in self.trigger}
        out["level_reach_rates"] = {str(n): f.to_json() for n, f in self.reach}
        for s in self.sections.values():
            out.update(s.json)
        out["all_inside"] = all(f.inside for f in self.figures)
        return out


@dataclass(frozen=True)
class SimulationReport:
    """A simulation's figures beside the exact ones: one :class:`UnitReport` per bet mode and buy simulated.

    Attributes
    ----------
    rounds, seed : int
        All rounds of the run; its seed.
    units : tuple of UnitReport
        The first is the default mode unless one mode or buy was asked for.
    level : float
        Confidence of each interval (Bonferroni over every figure of every unit).
    seconds : float
        Wall time (run-dependent).
    where : str
        Where the tasks ran.
    split : str
        How the rounds were split over the units ("" for one unit).
    gamble_not_tested : str
        Why the gamble is simulated but not compared (the engine refuses its
        distribution for the rule named); "" otherwise.
    """

    rounds: int
    seed: int
    units: tuple[UnitReport, ...]
    level: float = 0.99
    seconds: float = 0.0
    where: str = ""
    split: str = ""
    gamble_not_tested: str = ""

    # the first unit's figures, as the report of a game without modes always showed them
    @property
    def rtp(self) -> Figure:
        return self.units[0].rtp

    @property
    def hit_rate(self) -> Figure | None:
        return self.units[0].hit_rate

    @property
    def trigger(self) -> tuple:
        return self.units[0].trigger

    @property
    def reach(self) -> tuple:
        return self.units[0].reach

    @property
    def sd_exact(self) -> float:
        return self.units[0].sd_exact

    @property
    def sd_sample(self) -> float:
        return self.units[0].sd_sample

    @property
    def figures(self) -> list[Figure]:
        """Every figure of every unit: RTP, hit rate, trigger rates, level-reach rates, then the round rules' rates."""
        return [f for u in self.units for f in u.figures]

    @property
    def passed(self) -> bool:
        """Whether every exact value lies inside its interval (a correct game fails at most 1% of seeds)."""
        return all(f.inside for f in self.figures)

    @property
    def method(self) -> str:
        """The statistics in one sentence."""
        k = len(self.figures)
        text = (f"{k} intervals at {self.level:.4%} each (Bonferroni: all hold together with probability "
                f">= {FAMILY_LEVEL:.0%}); {MEAN_METHOD}; rates: Clopper-Pearson")
        for note in dict.fromkeys(s.method for u in self.units for s in u.sections.values() if s.method):
            text += f"; {note}"
        if self.split:
            text += f"; {self.split}"
        if self.gamble_not_tested:
            text += f"; the gamble is not tested: {self.gamble_not_tested}"
        return text

    def to_json(self) -> dict:
        """The JSON object of ``rtp simulate --json`` (rates as fractions of 1, RTP as a fraction of the bet).

        The top-level figures are the first unit's (the default mode); a game
        with bet modes, buys, a respin, wheels or a gamble adds ``modes`` and
        ``buys`` (one object per unit, :meth:`UnitReport.to_json`),
        ``rounds_split`` and, with a gamble, ``gamble``.
        """
        first = self.units[0]
        out = {"rounds": self.rounds, "seed": self.seed,
               "rtp_estimate": self.rtp.estimate, "rtp_interval": list(self.rtp.interval),
               "rtp": _q(self.rtp.exact), "rtp_inside": self.rtp.inside,
               "sd_exact": self.sd_exact, "sd_sample": self.sd_sample}
        if self.rtp.normal is not None:
            out["rtp_interval_normal"] = list(self.rtp.normal)
        if self.hit_rate is not None:
            out.update({"hit_rate_estimate": self.hit_rate.estimate, "hit_rate_interval": list(self.hit_rate.interval),
                        "hit_rate": _q(self.hit_rate.exact), "hit_rate_inside": self.hit_rate.inside})
        out.update({"trigger_rates": {str(n): f.to_json() for n, f in self.trigger},
                    "level_reach_rates": {str(n): f.to_json() for n, f in self.reach}})
        if len(self.units) > 1 or first.unit.key != 0 or first.figures != [first.rtp, first.hit_rate] + \
                [f for _, f in first.trigger] + [f for _, f in first.reach]:
            out["modes"] = {u.unit.name: u.to_json() for u in self.units if u.unit.kind == "mode"}
            out["buys"] = {u.unit.name: u.to_json() for u in self.units if u.unit.kind == "buy"}
            out["rounds_split"] = self.split or f"all {self.rounds:,} rounds: {first.unit.label}"
            for key in (k for s in first.sections.values() for k in s.lifted):
                out[key] = out["modes"][first.unit.name][key]
        if self.gamble_not_tested:
            out["gamble_not_tested"] = self.gamble_not_tested
        out.update({"interval_level": self.level, "family_level": FAMILY_LEVEL, "method": self.method,
                    "all_inside": self.passed,
                    "seconds": round(self.seconds, 3),
                    "rounds_per_second": round(self.rounds / self.seconds) if self.seconds else None})
        return out


def exact_values(ms: MathSet):
    """(RoundResult, base PhaseAnalysis) of the exact engine and the ladder chain (a game without round rules)."""
    a = analyse(ms)
    return round_result(ms.model, a.base, a.levels), a.base


@dataclass(frozen=True)
class Exact:
    """The exact figures a run compares with (:func:`exact_units`).

    ``modes``: name -> :class:`exact.bet_modes.ModeResult`; ``buys``: name ->
    :class:`exact.bet_modes.BuyResult`; ``gamble``: the default mode's
    :class:`exact.gamble.GambleResult` or None (no gamble, or its
    distribution refused: ``gamble_refused``).
    """

    modes: dict
    buys: dict
    gamble: object = None
    gamble_refused: str = ""


def exact_units(ms: MathSet, units: Sequence[Unit]) -> Exact:
    """The exact figures of the units' modes and buys, and the default mode's gamble (:mod:`exact.bet_modes`,
    :mod:`exact.gamble`): the engine's definitions the simulation is compared with.

    Raises
    ------
    ValueError
        As :func:`exact.bet_modes.analyse_mode` (a rule the engine does not model).
    """
    default = analyse_mode(ms)
    sections = round_sections(ms)      # a win cap: the default mode's round is the capped one
    if sections:
        default = dataclasses.replace(default, round=apply_sections(default.round, sections))
    modes = {DEFAULT_MODE: default}
    for u in units:
        if u.kind == "mode" and u.name not in modes:
            modes[u.name] = analyse_mode(ms, u.name)
    buys = analyse_buys(ms, default) if any(u.kind == "buy" for u in units) else {}
    g = gamble_figures(default) if any(u.kind == "mode" and u.name == DEFAULT_MODE for u in units) else {}
    res = g.get("gamble_result")
    refused = g.get("gamble_refused", "")
    return Exact(modes, buys, None if refused else res, refused)


def gamble_sd_bound(g, gamble, second: Fraction, cost: int) -> float:
    """An upper bound of the SD of the round win when every eligible win is gambled once, credits
    (:func:`exact.rules.gambled_second_bound`, so an interval with it holds at least at its stated level).

    ``g`` the engine's :class:`exact.gamble.GambleResult`, ``gamble`` the game's :class:`strips.model.Gamble`,
    ``second`` = E[X^2] of the round win X, ``cost`` the bet.

    >>> from strips.model import Gamble
    >>> from exact.gamble import gamble_result
    >>> gm = Gamble(min_win=1, max_win=4, multiplier=2, probability=Fraction(1, 2))
    >>> r = gamble_result(gm, 1, Fraction(1), Fraction(1), Fraction(1))   # X = 1 always: X_g = 2 or 0, SD 1
    >>> round(gamble_sd_bound(r, gm, Fraction(1), 1), 6)   # E[X^2 E] = 1 <= min(2 x E[X E], E[X^2]): exact here
    1.0
    """
    mean = g.rtp_gamble_once * cost
    return fraction_sqrt(max(gambled_second_bound(gamble, g, second) - mean * mean, Fraction(0)))


@dataclass(frozen=True)
class Simulated:
    """What a rule's section of a simulation report reads (:meth:`exact.rules.Rule.simulation_section`):
    one bet mode's exact ``round`` (:class:`markov.round.RoundResult`), its ``tally``, the run's ``exact``
    figures (:class:`Exact`), whether the mode is the ``default`` one, its ``cost`` (credits), the interval
    ``level`` and the figures' name ``prefix``."""

    round: object
    tally: Tally
    exact: object
    default: bool
    cost: int
    level: float
    prefix: str = ""

    def rate(self, name: str, k: int, exact_value: Fraction) -> Figure:
        """P(an event) from ``k`` of the rounds: a Clopper-Pearson interval."""
        n = self.tally.rounds
        return Figure(self.prefix + name, k / n, proportion_interval(k, n, self.level), exact_value, self.level)

    def mean(self, name: str, total: int, variance: Fraction, exact_value: Fraction,
             hist: dict | None = None) -> tuple[Figure, float]:
        """(a mean per cost from the rounds' ``total`` credits (each round's >= 0) and their histogram ``hist``
        (:attr:`proofs.simulate_base.Tally.win_hist`): the proven interval of :func:`mean_figure` with SD
        sqrt(``variance``) credits (the exact SD or an upper bound of it), that SD)."""
        sd = fraction_sqrt(variance)
        return mean_figure(self.prefix + name, total, self.tally.rounds, sd, exact_value, self.cost, self.level,
                           hist), sd


def mean_figure(name: str, total: int, n: int, sd: float, exact_value: Fraction, cost: int, level: float,
                hist: dict | None = None) -> Figure:
    """A mean per ``cost`` of ``n`` round wins (each >= 0) summing to ``total`` credits, with its proven interval
    and the normal interval beside it.  The proven interval: Catoni's from the wins' histogram ``hist``
    (:func:`proofs.simulate_stats.catoni_interval`, SD ``sd`` credits); without a histogram (a tally made
    by hand) Bernstein's and Cantelli's inequalities (:func:`proofs.simulate_stats.proven_mean_interval`, the
    mean under test ``exact_value`` x ``cost``), also proven, wider.

    >>> f = mean_figure("RTP", 960, 1000, 2.0, Fraction(96, 100), 1, 0.99)
    >>> f.inside, f.interval[0] < f.normal[0] < f.normal[1] < f.interval[1]
    (True, True)
    """
    if hist and sum(hist.values()) == n:
        lo, hi = catoni_interval(hist, n, sd, level, bucket_edges)
    else:
        lo, hi = proven_mean_interval(total, n, sd, float(exact_value * cost), level)
    lo = max(lo, 0.0)                 # every win is >= 0, so is the mean
    nlo, nhi = mean_interval(total, n, sd, level)
    return Figure(name, total / n / cost, (lo / cost, hi / cost), exact_value, level, (nlo / cost, nhi / cost))


def _mode_report(unit: Unit, tally: Tally, rr, base, level: float, model=None, exact=None) -> UnitReport:
    """A bet mode's figures: RTP, hit rate, trigger and reach rates, then each rule's section
    (:meth:`exact.rules.Rule.simulation_section` of the rules of the mode's game ``model``)."""
    n = tally.rounds
    prefix = "" if unit.key == 0 else f"{unit.name}: "
    sim = Simulated(rr, tally, exact, unit.name == DEFAULT_MODE, rr.bet, level, prefix)
    cost = rr.bet
    rtp, sd = sim.mean("RTP", tally.win, rr.variance, rr.rtp, tally.win_hist)
    hit = sim.rate("hit rate (base spin)", tally.base_hits, base.hit_frequency)
    trig = tuple((c, sim.rate(f"trigger {c} FS", tally.scatter.get(c, 0), p)) for c, p in sorted(rr.trigger_prob.items()))
    reach = tuple((i + 1, sim.rate(f"reach level {i + 1}", tally.reach[i] if i < len(tally.reach) else 0, p))
                  for i, p in enumerate(rr.reach))
    sections = {r.name: s for r in (rules_of(model) if model is not None else ())
                if (s := r.simulation_section(model, sim)) is not None}
    return UnitReport(unit, cost, n, rtp, sd, sample_sd(tally.win, tally.win2, n), hit, trig, reach, sections)


def _buy_report(unit: Unit, tally: Tally, b, level: float) -> UnitReport:
    """A buy's figures: RTP per buy (exact SD of the feature) and the reach of levels 2 and up."""
    n = tally.rounds
    sd = fraction_sqrt(b.variance)
    rtp = mean_figure(f"buy {unit.name}: RTP", tally.win, n, sd, b.rtp, b.cost, level, tally.win_hist)
    reach = tuple((i + 1, Figure(f"buy {unit.name}: reach level {i + 1}", k / n, proportion_interval(k, n, level),
                                 p, level))
                  for i, p in enumerate(b.feature.reach) if i
                  for k in [tally.reach[i] if i < len(tally.reach) else 0])
    return UnitReport(unit, b.cost, n, rtp, sd, sample_sd(tally.win, tally.win2, n), reach=reach)


def report_units(ms: MathSet, units: Sequence[Unit], tallies: Sequence[Tally], seed: int, exact: Exact | None = None,
                 seconds: float = 0.0, where: str = "", split: str = "") -> SimulationReport:
    """Compare each unit's tally with the exact values (computed when ``exact`` is None).

    Every figure of every unit gets an interval at the Bonferroni level
    :func:`interval_level` over all of them (so the verdict is wrong for a
    correct game with probability <= 1%): RTP a proven interval with the
    exact SD (the gamble's with an upper bound of it; :func:`mean_figure`),
    rates Clopper-Pearson intervals.
    """
    exact = exact or exact_units(ms, units)

    def build(level):
        out = []
        for u, t in zip(units, tallies):
            if u.kind == "buy":
                out.append(_buy_report(u, t, exact.buys[u.name], level))
            else:
                m = exact.modes[u.name]
                out.append(_mode_report(u, t, m.round, m.analysis.base, level, m.set.model, exact))
        return out

    k = sum(len(u.figures) for u in build(FAMILY_LEVEL))
    level = interval_level(k)
    untested = exact.gamble_refused       # "" without a gamble, or when the run has no default mode
    return SimulationReport(rounds=sum(t.rounds for t in tallies), seed=seed, units=tuple(build(level)), level=level,
                            seconds=seconds, where=where, split=split, gamble_not_tested=untested)


def report(ms: MathSet, tally: Tally, seed: int, exact=None, seconds: float = 0.0, where: str = "") -> SimulationReport:
    """Compare the default mode's tally of a game without round rules with the exact values.

    ``exact`` = (RoundResult, base PhaseAnalysis) as :func:`exact_values`
    (computed when None).  Every figure gets an interval at the Bonferroni
    level :func:`interval_level` (so the verdict is wrong for a correct game
    with probability <= 1%): the RTP a proven interval with the exact
    standard deviation of the round win (the engine's variance; :func:`mean_figure`),
    the rates Clopper-Pearson intervals.
    """
    rr, base = exact or exact_values(ms)
    unit = Unit("mode", DEFAULT_MODE, 0)
    k = len(_mode_report(unit, tally, rr, base, FAMILY_LEVEL).figures)
    level = interval_level(k)
    return SimulationReport(rounds=tally.rounds, seed=seed, units=(_mode_report(unit, tally, rr, base, level),),
                            level=level, seconds=seconds, where=where)


def split_text(units: Sequence[Unit], rounds: Sequence[int]) -> str:
    """How a run's rounds were split over its units ("" for one unit).

    >>> split_text([Unit("mode", "default", 0), Unit("buy", "b", 1)], [5, 4])
    '--rounds split evenly over 2 bet modes and buys: mode default 5, buy b 4'
    """
    if len(units) == 1:
        return ""
    return (f"--rounds split evenly over {len(units)} bet modes and buys: "
            + ", ".join(f"{u.label} {n:,}" for u, n in zip(units, rounds)))


def format_report(rep: SimulationReport, name: str) -> str:
    """Plain-text table of a SimulationReport."""
    width = max([22] + [len(f.name) + 2 for f in rep.figures])
    lines = [f"math set {name}: {rep.rounds:,} simulated game rounds, seed {rep.seed}"
             + (f", {rep.seconds:.1f} s ({rep.rounds / rep.seconds:,.0f} rounds/s)" if rep.seconds else "")
             + (f", {rep.where}" if rep.where else ""),
             f"intervals: {rep.method}"]
    for u in rep.units:
        head = "SD of the round win" if len(rep.units) == 1 else f"{u.unit.label} ({u.rounds:,} rounds, cost {u.cost}): SD"
        lines.append(f"{head}: exact {u.sd_exact:.6f} credits (used), sample {u.sd_sample:.6f}" + u.sd_notes())
        if u.rtp.normal is not None:
            lines.append(f"  {u.rtp.name} normal interval (approximate, not used): "
                         f"[{u.rtp.normal[0]:.8f}, {u.rtp.normal[1]:.8f}]")
    lines += ["", f"{'figure':<{width}}{'estimate':>14}  {f'{rep.level:.4%} interval':<27}{'exact':>14}  inside"]
    for f in rep.figures:
        lines.append(f"{f.name:<{width}}{f.estimate:>14.8f}  [{f.interval[0]:.8f}, {f.interval[1]:.8f}]"
                     f"{float(f.exact):>14.8f}  {'yes' if f.inside else 'NO'}")
    lines.append("")
    lines.append("PASS: every exact value lies inside its interval" if rep.passed
                 else f"FAIL: an exact value lies outside its interval (a correct game fails with "
                      f"probability <= {1 - FAMILY_LEVEL:.0%})")
    return "\n".join(lines)
