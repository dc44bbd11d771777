"""The PAR sheet of a math set: one object holding every exact figure of ``rtp report``.

:func:`par_sheet` runs the exact engine (:func:`exact.engine.analyse`) and the
round (:func:`markov.round.round_result`) once; every view reads the
:class:`ParSheet` it returns: the text and JSON reports (:mod:`exact.report`),
``rtp diff`` (:mod:`exact.diff`), the workbook (:mod:`exact.export`) and a
notebook (``repr`` and ``_repr_html_``).

Exact figures are ints or Fractions.  Standard deviation, volatility index
and the observed-RTP bands involve square roots: they are floats, for display
only (:meth:`ParSheet.display_figures`).

Source: rules page sections 2 (game round), 5-11 (the win), 10 (trigger
table), 13 (2+ KEY); PAR-sheet figures as game mathematicians use them
(VI = z x standard deviation per bet; observed-RTP band RTP +/- VI / sqrt(N)).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Mapping

from exact.bet_modes import BuyResult, ModeResult, analyse_buys, analyse_mode, analyse_modes
from exact.gamble import GambleResult, gamble_result, round_eligible
from exact.grid import refuse_grid
from exact.engine import GameAnalysis
from exact.enumeration import enumeration_sections
from exact.rounds import apply_sections, round_sections, view_sections
from exact.rules import (RULES, SHEET_RULES, PaysWords, mode_figures, pays_words, require, rules_of, trigger_name,
                         wilds_with_pays)
from exact.formatting import decimal_text, fraction_text, one_in, percent
from exact.notebook import frame as _frame, frames as _frames
from exact.phase_law import EnumeratedPhase
from exact.scatter_pays import ScatterPayRow, scatter_pay_rows
from exact.tables import html_tables, par_tables
from markov.round import RoundResult
from strips.fingerprint import fingerprint
from strips.model import Finding, MathSet

__all__ = ["ParSheet", "par_sheet", "by_symbol_missing", "SymbolRow", "CONFIDENCE", "BAND_ROUNDS", "NOT_FIGURES", "GambleFigures"]

CONFIDENCE = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))
BAND_ROUNDS = (10**3, 10**5, 10**7)
#: Keys of the JSON report that are not exact figures (names, hashes, text, display floats).
NOT_FIGURES = frozenset({"set", "fingerprint", "strips", "rtp_percent", "sd_per_bet", "volatility_index", "rtp_band",
                         "published", "findings", "compliance", "compliance_not_computed",
                         "compliance_top_award", "scatter_pays", "free_spin_symbols", "round_figures"})


@dataclass(frozen=True)
class SymbolRow:
    """One pay symbol of the base game: OAK probabilities and RTP contributions.

    ``oak_prob[i]`` and ``rtp[i]`` are for OAK = ``oaks[i]`` (the OAKs that
    pay); ``rtp`` is a fraction of the bet, per base spin.
    """

    symbol: str
    oaks: tuple[int, ...]
    oak_prob: tuple[Fraction, ...]
    rtp: tuple[Fraction, ...]

    @property
    def rtp_total(self) -> Fraction:
        return sum(self.rtp, Fraction(0))


@dataclass(frozen=True, repr=False)
class ParSheet:
    """Every figure of the PAR report of a math set.  Exact figures are Fractions (ints for counts).

    The exact figures are attributes named as the keys of the JSON report
    (``rtp``, ``mean_win``, ``variance``, ``components``, ``trigger``,
    ``hit_frequency_base``, ...); :meth:`figures` flattens them to one dict
    keyed by the dotted JSON key (``trigger.3``, ``components.base_ways``).

    Attributes
    ----------
    set_name, fingerprint, title : str
        The set's name, the SHA-256 of its parsed maths (:mod:`strips.fingerprint`), the game title.
    bet : int
        Credits per round.
    analysis : GameAnalysis
        One-spin figures of every phase.
    round : RoundResult
        Whole-round figures (credits per round), computed once.
    findings : tuple of Finding
        Soft strip-rule findings of the loader.
    paying_oaks : mapping str -> tuple of int
        Pay symbol -> the OAKs with a non-zero paytable value (section 5).
    scatter_name : str
        The game's scatter symbol name(s) for labels.
    has_collect : bool
        Whether the game has KEY symbols (collect and the KEY figures apply).
    facts : tuple of exact.facts.FactResult
        The set's published facts (its ``published.toml``) checked (``rtp
        check``) when the sheet came from :func:`exact.facts.checked_sheet`
        (as :func:`exact.par_sheet` and ``rtp report`` build it), empty from
        :func:`par_sheet` here; a fact on a figure carries its key in
        ``figure`` (:meth:`published`).
    reel_lengths : mapping str -> tuple of int
        Strip set -> stops of each reel (reel 1 first); their product is the
        set's cycle (:meth:`cycle`).

    Examples
    --------
    >>> import exact
    >>> p = exact.par_sheet(exact.load_math_set("rules_page"))
    >>> p.rtp == p.figures()["rtp"] == sum(p.round.rtp_split.values())
    True
    >>> len(repr(p)) < 2000
    True
    """

    set_name: str
    fingerprint: str
    title: str
    bet: int
    analysis: GameAnalysis
    round: RoundResult
    findings: tuple[Finding, ...]
    paying_oaks: Mapping[str, tuple[int, ...]]
    scatter_name: str = "scatter"
    has_collect: bool = True
    facts: tuple = ()
    reel_lengths: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    paylines: int = 0
    #: How the views name the evaluation's pays (:func:`exact.rules.pays_words`).
    words: PaysWords = PaysWords()
    #: The registered rules the game uses (:func:`exact.rules.rules_of`): the views ask each for its section.
    rules: tuple = ()
    #: Rule name -> that rule's results for the sheet, for the rules of the round beyond its spins whose
    #: section every report carries (``"[modes]"``: mode -> :class:`~exact.bet_modes.ModeResult`, the
    #: default first; ``"[buy]"``: buy -> :class:`~exact.bet_modes.BuyResult`; ``"[gamble]"``:
    #: :class:`GambleFigures`); each rule renders its own JSON section (:meth:`exact.rules.Rule.sheet_figures`).
    parts: Mapping[str, object] = dataclasses.field(default_factory=dict)
    #: () -> {jurisdiction: (passed, checks)} of ``rtp comply`` without the top award (set by
    #: :func:`exact.par_sheet`; the HTML view and ``tables()`` show it), or None.
    compliance: object = dataclasses.field(default=None, compare=False)
    #: Rule name -> the section of a rule acting on the round's total win (the win cap), adding a feature to
    #: the round (hold and win) or reporting on the finished round (Spin Chance, the gamble wheel, frames), and
    #: the enumeration's (``"enumeration"``) (:mod:`exact.rounds`): each gives ``figures()`` (JSON, ``figures()``,
    #: ``rtp diff``, and the workbook's and tables' sheet of it, :meth:`section_rows`) and ``lines()`` (text).
    sections: Mapping[str, object] = dataclasses.field(default_factory=dict)

    # ---- the rules' parts, by rule (read-only views kept as attributes) --------
    @property
    def modes(self) -> Mapping[str, ModeResult]:
        """Bet mode -> :class:`~exact.bet_modes.ModeResult` (the default mode first; ``parts["[modes]"]``)."""
        return self.parts.get("[modes]", {})

    @property
    def buys(self) -> Mapping[str, BuyResult]:
        """Bought feature -> :class:`~exact.bet_modes.BuyResult` (``parts["[buy]"]``)."""
        return self.parts.get("[buy]", {})

    @property
    def gamble_result(self) -> GambleResult | None:
        """The gamble's figures of the default mode, or None without ``[gamble]`` (``parts["[gamble]"]``)."""
        g = self.parts.get("[gamble]")
        return g.result if g is not None else None

    @property
    def gamble_refused(self) -> str:
        """Why the RTP when every eligible win is gambled once is not computed ("" when it is)."""
        g = self.parts.get("[gamble]")
        return g.refused if g is not None else ""

    @property
    def method(self) -> str:
        """How the round's figures were computed: ``per-reel factorisation``, or the method of the
        round distribution a rule on the round's total needed (``enumeration of N stop combinations``)."""
        reached = [s.method for s in self.sections.values() if s.reached]
        return reached[0] if reached else getattr(self.analysis.base, "method", "") or "per-reel factorisation"

    def published(self, figure: str) -> tuple:
        """The checked published facts printed for one figure (e.g. ``trigger.3``), in file order."""
        return tuple(f for f in self.facts if f.is_fact and f.figure == figure)

    def cycle(self, strip_set: str) -> int:
        """Stop combinations of one strip set: the product of its reel lengths (the full cycle)."""
        return math.prod(self.reel_lengths[strip_set])

    # ---- exact figures (the JSON report's keys) ------------------------------
    @property
    def rtp(self) -> Fraction:
        """Return to player, E[round win] / bet, a fraction of 1."""
        return self.round.rtp

    @property
    def mean_win(self) -> Fraction:
        """E[round win], credits per round."""
        return self.round.mean

    @property
    def variance(self) -> Fraction:
        """Var[round win], credits^2 per round."""
        return self.round.variance

    @property
    def components(self) -> dict[str, Fraction]:
        """Credits per round: base ways, base collect, base scatter pays, free spins (sum = mean win)."""
        return self.round.components

    @property
    def free_spins_by_level(self) -> dict[str, Fraction]:
        """Credits per round won on each free-spin level, ``"1"``, ``"2"``, ...; sums to the free spins."""
        return {str(i): w for i, w in enumerate(self.round.free_spins_by_level, start=1)}

    @property
    def trigger(self) -> dict[str, Fraction]:
        """P(the base spin shows n scatters), per round, for each triggering n (keys ``"3"``, ...)."""
        return {str(n): p for n, p in self.round.trigger_prob.items()}

    @property
    def trigger_any(self) -> Fraction:
        """P(the base spin triggers the free spins), per round."""
        return self.round.trigger_probability

    @property
    def q(self) -> Fraction:
        """Expected initial free spins awarded per paid spin."""
        return self.round.q

    @property
    def retrigger_per_spin(self) -> Fraction:
        """E[R]: expected extra free spins a free spin awards (0 without retrigger)."""
        return self.round.retrigger_per_spin

    @property
    def free_spins_played(self) -> Fraction:
        """Expected free spins played per round, retriggered spins included."""
        return self.round.free_spins_played

    @property
    def feature(self) -> dict[str, dict]:
        """Per triggering scatter count: initial spins (int), mean, variance, reach by level, spins, keys."""
        out = {}
        for n, f in self.round.features.items():
            out[str(n)] = {"initial_spins": f.initial_spins, "mean": f.mean, "variance": f.variance,
                           "reach": {str(i + 1): f.reach[i] for i in range(1, len(f.reach))},
                           "spins": f.spins, "keys": f.keys}
        return out

    @property
    def key_2plus(self) -> dict[str, Fraction]:
        """P(2+ KEY) per base spin and per free spin (level 1; every level spins the same strips)."""
        out = {"base": self.analysis.base.key_2plus}
        if self.analysis.levels:
            out["free"] = self.analysis.levels[0].key_2plus
        return out

    @property
    def levels(self) -> dict[str, dict]:
        """One free spin of each level ("1".."L"): multiplier, mean win (credits), hit frequency, P(2+ KEY)."""
        return {str(i): {"multiplier": lv.phase.multiplier, "mean": lv.mean, "hit_frequency": lv.hit_frequency,
                         "key_2plus": lv.key_2plus} for i, lv in enumerate(self.analysis.levels, start=1)}

    @property
    def hit_frequency_base(self) -> Fraction:
        """P(a base spin wins something), per base spin."""
        return self.analysis.base.hit_frequency

    @property
    def symbols(self) -> dict[str, dict[str, dict[str, Fraction]]]:
        """Pay symbol -> paying OAK -> ``probability`` (per base spin) and ``rtp`` (fraction of the bet)."""
        return {row.symbol: {str(n): {"probability": p, "rtp": x} for n, p, x in zip(row.oaks, row.oak_prob, row.rtp)}
                for row in self.symbol_rows()}

    @property
    def modes_figures(self) -> dict[str, dict]:
        """Bet mode -> cost (int), rtp, variance, mean_win, trigger_any, respin {probability, rtp}, wheel_rtp
        (:func:`exact.rules.mode_figures`)."""
        return mode_figures(self.modes)

    @property
    def buy(self) -> dict[str, dict]:
        """Bought feature -> cost, trigger, initial_spins (ints), rtp, variance, mean_win (per buy)."""
        return {k: _numbers(b) for k, b in self._rule_section("buy").items()}

    @property
    def wheel(self) -> dict[str, dict]:
        """Prize wheel -> rtp (its share, free spins it awards included), probability per round, awards."""
        return self._rule_section("wheel")

    @property
    def gamble(self) -> dict[str, Fraction]:
        """The gamble, default mode, per round: rtp_without_gamble, rtp_gamble_once,
        return_per_stake (p x multiplier), eligible_probability; empty without ``[gamble]``;
        without rtp_gamble_once when its distribution is refused (:attr:`gamble_refused`)."""
        return _numbers(self._rule_section("gamble"))

    def _rule_section(self, key: str) -> dict:
        """The JSON section ``key`` of the rule that gives it (:data:`exact.rules.SHEET_RULES`)."""
        return next(r.sheet_figures(self) for r in SHEET_RULES if r.sheet_key == key)

    def section_rows(self) -> dict[str, list[tuple[str, object]]]:
        """Each section of :attr:`sections` (a rule acting on or reporting on the round, the enumeration) as
        rows ``(figure, value)``: the section's JSON keys dotted for nesting, each value an int, a Fraction,
        ``yes``/``no`` or a reason in words, in JSON order; the workbook, the CSV tables and the notebook
        tables render any rule's section from these, in one loop.  A rule that lays its section out in
        sheets of its own (``Rule.section_table`` False: frames) is left out.

        >>> import exact
        >>> rows = exact.par_sheet(exact.load_math_set("wheel_game")).section_rows()
        >>> list(rows), rows["spin chance"][0]
        (['spin chance', 'gamble wheel'], ('probability_per_credit', Fraction(1, 10)))
        """
        own = {r.name for r in RULES if not r.section_table}
        out: dict[str, list[tuple[str, object]]] = {}

        def walk(node: dict, prefix: str, rows: list) -> None:
            for k, v in node.items():
                if isinstance(v, dict):
                    walk(v, f"{prefix}{k}.", rows)
                else:
                    rows.append((f"{prefix}{k}", ("yes" if v else "no") if isinstance(v, bool) else v))
        for name, s in self.sections.items():
            if name not in own:
                walk(s.figures(), "", out.setdefault(name, []))
        return out

    def symbol_rows(self) -> list[SymbolRow]:
        """Per-symbol ways table of the base game (a PAR sheet's symbol table), paying OAKs only."""
        base = self.analysis.base
        rows = []
        for s, ways in base.ways_by_symbol.items():
            oaks = self.paying_oaks[s]
            rows.append(SymbolRow(s, oaks, tuple(base.oak_prob[s][n - 1] for n in oaks),
                                  tuple(ways[n - 1] / self.bet for n in oaks)))
        return rows

    def level_symbol_rows(self, level: int) -> list[tuple]:
        """(symbol, OAK, P(OAK) per free spin, mean win per free spin in credits) of free-spin level ``level``
        (1-based): the per-symbol OAK table of the free-spin strips, the level's multiplier and weights applied.

        >>> import exact
        >>> exact.par_sheet(exact.load_math_set("rules_page")).level_symbol_rows(1)[0][:2]
        ('PIC1', 3)
        """
        lv = self.analysis.levels[level - 1]
        return [(s, n, lv.oak_prob[s][n - 1], ways[n - 1]) for s, ways in lv.ways_by_symbol.items()
                for n in self.paying_oaks[s]]

    @staticmethod
    def by_symbol_missing(a) -> str | None:
        """Why a phase analysis ``a`` has no by-symbol figures, or None (:func:`by_symbol_missing`)."""
        return by_symbol_missing(a)

    def scatter_pays(self) -> list[ScatterPayRow]:
        """Scatter pays by count of the base spin (:mod:`exact.scatter_pays`): symbol, count, pay,
        probability, RTP share; empty for a game whose scatters pay nothing."""
        return scatter_pay_rows(self.modes["default"].set) if self.modes else []

    #: The exact figures in JSON order (attribute names = JSON keys).
    #: (Then the sections of the rules that every report carries, :data:`exact.rules.SHEET_RULES`: modes, buy,
    #: wheel, gamble; then the sections of the rules acting on or reporting on the round.)
    FIGURES = ("bet", "rtp", "mean_win", "variance", "components", "free_spins_by_level", "trigger", "trigger_any",
               "q", "retrigger_per_spin", "free_spins_played", "feature", "key_2plus", "levels",
               "hit_frequency_base", "symbols")

    def tree(self) -> dict:
        """The exact figures nested as in the JSON report: key -> int, Fraction, str (a section's reason in
        words) or dict; each rule's section under its key (:meth:`exact.rules.Rule.sheet_figures`: ``modes``,
        ``buy``, ``wheel``, ``gamble``), then the round's sections by rule name (``win_cap``)."""
        out = {k: getattr(self, k) for k in self.FIGURES}
        out.update({r.sheet_key: r.sheet_figures(self) for r in SHEET_RULES})
        out.update({name.replace(" ", "_"): s.figures() for name, s in self.sections.items()})
        return out

    def figures(self) -> dict[str, Fraction]:
        """Every exact figure as one flat dict, keyed by the JSON report's key dotted for nesting.

        Returns
        -------
        dict str -> Fraction
            e.g. ``"rtp"``, ``"components.base_ways"``, ``"trigger.3"``,
            ``"feature.3.reach.2"``, ``"symbols.PIC1.5.rtp"``; counts
            (``bet``, ``feature.N.initial_spins``) as integral Fractions.

        Examples
        --------
        >>> import exact
        >>> f = exact.par_sheet(exact.load_math_set("rules_page")).figures()
        >>> f["components.base_ways"] + f["components.base_collect"] + f["components.base_scatter"] \\
        ...     + f["components.free_spins"] == f["mean_win"]
        True
        """
        out: dict[str, Fraction] = {}

        def walk(node: dict, prefix: str) -> None:
            for k, v in node.items():
                key = f"{prefix}{k}"
                if isinstance(v, dict):
                    walk(v, key + ".")
                elif not isinstance(v, str):     # a section's reason in words is no figure
                    out[key] = Fraction(v)
        walk(self.tree(), "")
        return out

    # ---- display figures (floats) ------------------------------------------
    @property
    def sd_per_bet(self) -> float:
        """Standard deviation of the round win in bets (float, display)."""
        return math.sqrt(self.round.variance) / self.bet

    def volatility_index(self, confidence: Fraction) -> float:
        """VI = z x sd per bet, z the two-sided standard normal quantile (float, display)."""
        z = NormalDist().inv_cdf(float((1 + confidence) / 2))
        return z * self.sd_per_bet

    def rtp_band(self, rounds: int, confidence: Fraction) -> tuple[float, float]:
        """Observed-RTP band after ``rounds`` rounds: RTP +/- VI / sqrt(rounds) (floats)."""
        half = self.volatility_index(confidence) / math.sqrt(rounds)
        return float(self.rtp) - half, float(self.rtp) + half

    def display_figures(self) -> dict[str, float]:
        """The float figures of the report, dotted JSON keys: ``sd_per_bet``, ``volatility_index.90`` ..."""
        out = {"sd_per_bet": self.sd_per_bet}
        out.update({f"volatility_index.{int(c * 100)}": self.volatility_index(c) for c in CONFIDENCE})
        return out

    # ---- notebook views ------------------------------------------------------
    def _summary(self) -> list[tuple[str, str]]:
        rows = [("set", self.set_name), ("fingerprint", self.fingerprint[:16] + "..."),
                ("bet", f"{self.bet} credits"),
                ("rtp", percent(self.rtp, 6) + (f" = {fraction_text(self.rtp)}"
                                                if len(fraction_text(self.rtp)) <= 40 else "")),
                ("mean_win", f"{decimal_text(self.mean_win, 6)} credits per round"),
                ("variance", f"{decimal_text(self.variance, 2)} credits^2"),
                ("hit_frequency_base", f"{percent(self.hit_frequency_base, 4)} ({one_in(self.hit_frequency_base)})")]
        rows += [(f"components.{k}", percent(v / self.bet, 6)) for k, v in self.components.items() if v]
        if self.round.features:
            rows.append(("trigger_any", f"{decimal_text(self.trigger_any, 8)} ({one_in(self.trigger_any)})"))
        rows.append(("VI 90/95/99", " / ".join(f"{self.volatility_index(c):.4f}" for c in CONFIDENCE)))
        rows.append(("figures()", f"{len(self.figures())} exact figures"))
        return rows

    def __repr__(self) -> str:
        return "ParSheet(" + ", ".join(f"{k}={v}" for k, v in self._summary()) + ")"

    def _repr_html_(self) -> str:
        """The report's sections as HTML tables (:mod:`exact.tables`), for Jupyter."""
        title = f"PAR sheet: {self.set_name}" + (f" ({self.title})" if self.title else "")
        return html_tables(title, self.tables(frames=False).values(),
                           [f"fingerprint sha256:{self.fingerprint}", f"bet {self.bet} credits per round"])

    def tables(self, frames: bool = True) -> dict:
        """Every table of the report: {name: pandas DataFrame}, an exact column (Fractions) and its
        ``_float`` column beside it (:mod:`exact.notebook`); ``frames=False``: the plain
        :class:`exact.tables.Table` objects (no pandas needed).

        Raises
        ------
        ImportError
            pandas is not installed (one line: ``pip install 'slot-exact[notebook]'``).

        >>> import exact
        >>> t = exact.par_sheet(exact.load_math_set("rules_page")).tables(frames=False)
        >>> "symbols" in t and "trigger" in t
        True
        """
        tables = par_tables(self, CONFIDENCE, BAND_ROUNDS)
        return _frames(tables) if frames else tables

    def table(self, name: str):
        """One table of :meth:`tables` as a DataFrame (``"symbols"``, ``"trigger"``, ...).

        Raises
        ------
        KeyError
            No table of that name for this game (the message lists the names).
        """
        tables = par_tables(self, CONFIDENCE, BAND_ROUNDS)
        if name not in tables:
            raise KeyError(f"no table {name!r} for {self.set_name}; tables: {', '.join(tables)}")
        return _frame(tables[name])

def by_symbol_missing(a) -> str | None:
    """Why a phase analysis ``a`` has no by-symbol figures (its exact figures come from the total win of each
    window: enumeration, or the pay-anywhere count product), or None when it has them.

    >>> import exact
    >>> from exact.engine import analyse_phase
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "clusters"},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}}}, {"base": [["A", "A"], ["A", "A"]]})
    >>> by_symbol_missing(analyse_phase(ms, ms.model.base_phase))
    'not computed: the exact figures come from the total win of each window (enumeration of 4 stop combinations), not symbol by symbol'
    """
    if isinstance(a, EnumeratedPhase) and not a.ways_by_symbol:
        return (f"not computed: the exact figures come from the total win of each window ({a.method}), "
                f"not symbol by symbol")
    return None


def par_sheet(ms: MathSet) -> ParSheet:
    """The PAR sheet of a math set: the exact engine and the round, run once.

    Its published facts are not checked here (``facts`` is empty):
    :func:`exact.facts.checked_sheet` adds them, as :func:`exact.par_sheet`
    and ``rtp report`` do (this module does not import :mod:`exact.facts`,
    which reads the figures of a sheet).

    Parameters
    ----------
    ms : MathSet
        From :func:`exact.load_math_set` or :func:`exact.math_set`.

    Returns
    -------
    ParSheet

    Raises
    ------
    ValueError
        If the set's strips and game file disagree (see :func:`exact.engine.analyse`).

    Examples
    --------
    >>> import exact
    >>> p = par_sheet(exact.load_math_set("rules_page"))
    >>> p.figures()["trigger.3"] == p.trigger["3"] == p.round.trigger_prob[3]
    True
    """
    require(ms, "report")
    refuse_grid(ms)                       # a grid game's report is exact.grid.grid_report (no reel strips)
    sections = round_sections(ms)
    default = analyse_mode(ms)
    analysis, rr = default.analysis, default.round
    rr = apply_sections(rr, sections)     # a rule on the round's total replaces the round's moments
    default = dataclasses.replace(default, round=rr)     # and every figure built on the round takes it
    sections = {**sections, **view_sections(ms, default)}   # rules that report on the finished round
    sections = {**enumeration_sections(analysis, ms.model.bet), **sections}
    sheet = ParSheet(set_name=ms.name, fingerprint=fingerprint(ms), title=ms.model.title, bet=ms.model.bet,
                     analysis=analysis, round=rr, findings=ms.findings,
                     paying_oaks={s.name: tuple(i + 1 for i, v in enumerate(s.pays) if v) for s in ms.model.pay_symbols
                                  + wilds_with_pays(ms.model)},
                     scatter_name=trigger_name(ms.model),
                     has_collect=bool(ms.model.of_kind("key")), paylines=len(ms.model.paylines),
                     words=pays_words(ms.model), rules=rules_of(ms.model),
                     reel_lengths={k: rs.cycle_lengths for k, rs in ms.strips.items()},
                     parts={"[modes]": analyse_modes(ms, default), "[buy]": analyse_buys(ms, default),
                            **gamble_part(default)},
                     sections=sections)
    return sheet


def _numbers(section: dict) -> dict:
    """A section's figures without its reasons in words."""
    return {k: v for k, v in section.items() if not isinstance(v, str)}


@dataclass(frozen=True)
class GambleFigures:
    """The gamble's part of a PAR sheet (``ParSheet.parts["[gamble]"]``): the default mode's
    :class:`~exact.gamble.GambleResult` and why the RTP gambling every eligible win once is not computed
    ("" when it is)."""

    result: GambleResult
    refused: str = ""


def gamble_part(default: ModeResult) -> dict:
    """``{"[gamble]": GambleFigures}`` of the default mode, empty without ``[gamble]`` (:func:`gamble_figures`)."""
    g = gamble_figures(default)
    return {"[gamble]": GambleFigures(g["gamble_result"], g["gamble_refused"])} if g else {}


def gamble_figures(default: ModeResult) -> dict:
    """``gamble_result`` and ``gamble_refused`` of :class:`ParSheet` for the default mode.

    The RTP without gamble and the gamble's return per stake are always
    exact; the RTP when every eligible win is gambled once needs the round
    win's distribution (:func:`exact.gamble.round_eligible`), refused with
    the rule's name for the games it does not model.
    """
    g = default.set.model.gamble
    if g is None:
        return {}
    try:
        prob, win = round_eligible(default.set, g)
        refused = ""
    except ValueError as e:
        prob, win, refused = Fraction(0), Fraction(0), str(e)
    return {"gamble_result": gamble_result(g, default.cost, default.round.mean, prob, win), "gamble_refused": refused}
