"""The rule protocol: what a mechanic's module declares and what it may implement.

A *rule* is one mechanic of a game (ways pays, a respin, a win cap, ...).  Each
lives in one module of :mod:`exact.rules` as a subclass of :class:`Rule` and
declares, as class attributes,

* ``name``: the field's name of the rule, as every refusal prints it;
* ``keys``: the ``game.toml`` table or keys that switch it on;
* ``implements``: the analyses (:data:`ANALYSES`) whose code computes a game
  with this rule correctly.

Every rule must give its *presence* (:meth:`Rule.present`: does a parsed game
use it?).  A rule may narrow its support by game (:meth:`Rule.refusal`: a
respin under paylines, a retrigger with a multi-level ladder).  A rule with a
configuration of its own (new rules: the win cap, cascades) also owns its
frozen configuration, its parser and validation (:meth:`Rule.parse`, each
error naming file, row and column) and its literal reading (the oracle); its
configuration is kept on :attr:`strips.model.GameModel.rules`, so the
fingerprint stays generic.

Like a distribution class of ``sympy.stats`` whose ``pdf`` is required and
whose fast paths are optional, a rule need implement only its literal reading;
:func:`exact.rules.supports` then refuses, in one line naming the rule, every
analysis it does not implement, and exact enumeration through the literal
reading is the generic exact path.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

__all__ = ["Rule", "rule_config", "EvaluationRule", "ANALYSES", "Refusal", "line_distribution", "by_position_refusal", "round_split", "Cost", "ViewSection", "one_spin_round", "ENUMERATED", "first_present", "PaysWords", "ReelTerms",
           "CAPABILITIES", "SimulatedSection", "SIMULATION_STAGES", "VIEW_PLACES", "published_cells"]

#: Analysis -> what it computes (the words of a refusal: "<rule>: <what> does not model it").
ANALYSES: dict[str, str] = {
    "report": "the exact PAR sheet (rtp report, exact.par_sheet)",
    "spin": "the literal evaluation of one spin (rtp spin)",
    "check": "the published-facts check (rtp check)",
    "chain": "the free-spin chain export (rtp chain)",
    "diff": "the figure-by-figure comparison (rtp diff)",
    "prove": "the certificate of independent checks (rtp prove: its enumeration and simulation)",
    "simulate": "the simulation of whole rounds (rtp simulate, rtp prove)",
    "sensitivity": "the strip-edit sensitivity (rtp sensitivity, exact.sensitivity)",
    "tune": "the RTP variants (rtp tune, exact.variants)",
    "export": "the PAR workbook (rtp export, exact.export)",
    "comply": "the jurisdiction check (rtp comply, exact.comply)",
    "distribution": "the win distribution (rtp distribution, exact.win_distribution)",
    "gamble": "the RTP when every eligible win is gambled once",
}


#: The analyses that compute a game by exact enumeration of its literal reading (a rule without per-reel
#: terms: cascades, pay anywhere, clusters, the multiplier symbol).
ENUMERATED = frozenset({"report", "check", "diff", "chain", "spin", "simulate", "distribution", "export", "comply", "prove"})


#: The optional capabilities a rule may give (the base class falls back: no section, no view, the ways words,
#: enumeration for a rule without per-reel terms); tests/test_rule_contract.py checks each one a rule gives.
CAPABILITIES = ("factorisation", "literal_wins", "phase_path", "spin_json", "spin_text", "changes", "symbol_changes",
                "report_text", "report_tables", "workbook_sheets", "pays_words", "simulation_step",
                "simulation_section", "award_odds_refusal", "sheet_figures", "published_facts", "reel_terms", "component",
                "report_json")

#: Where a rule's section may stand in each view of the PAR sheet (:attr:`Rule.places`), in the view's order:
#: ``text`` (the text report: after the base game's by-symbol table, after the round's lines, after the free
#: spins' trigger table, after the 2+ KEY odds, at the end), ``tables`` (the notebook and HTML tables: after the
#: volatility table, after the trigger table, after the 2+ KEY table, after the per-level table, at the end) and
#: ``workbook`` (the PAR workbook and its CSV files: after the Combinations sheet, at the end).  At each place a
#: view renders the section of every rule the game uses that stands there, in registry order
#: (:func:`exact.rules.registry.placed`, :func:`exact.rules.registry.at_place`).
VIEW_PLACES: dict[str, tuple[str, ...]] = {
    "text": ("after_symbols", "after_round", "after_trigger", "after_key_odds", "end"),
    "tables": ("after_volatility", "after_trigger", "after_key_odds", "after_levels", "end"),
    "workbook": ("after_combinations", "end"),
}


def published_cells(sheet, figure: str, empty=None) -> list:
    """[the printed figures, ``PASS``/``FAIL``] of the published facts a PAR sheet ``sheet`` checked for one figure
    (``sheet.published(figure)``, e.g. ``trigger.3``), or two ``empty`` cells when none is printed for it: the
    ``published`` and ``check`` columns of the report's and the tables' rows.

    >>> from types import SimpleNamespace as N
    >>> fact = N(published="1 in 100", failed=False)
    >>> published_cells(N(published=lambda f: (fact,)), "trigger_any"), published_cells(N(published=lambda f: ()), "q", "")
    (['1 in 100', 'PASS'], ['', ''])
    """
    facts = sheet.published(figure)
    if not facts:
        return [empty, empty]
    return [" / ".join(f.published for f in facts), "FAIL" if any(f.failed for f in facts) else "PASS"]

#: Where a rule's step acts in a simulated round (:meth:`Rule.simulation_step`), in the round's order:
#: ``before_features`` after the base spin, before the free spins (a respin: its window decides the
#: features); ``after_features`` after the scatter-triggered free spins (prize wheels and the features they
#: award); ``after_round`` on the finished round's total win, tallied apart (the gamble); ``free_spin`` on the win
#: of every free spin before its level multiplier (a multiplier drawn per free spin): the step gives
#: ``spin(level, win, rng) -> win`` (``level`` 0-based, ``win`` (n,) int64 credits).
SIMULATION_STAGES = ("before_features", "after_features", "after_round", "free_spin")


class ViewSection:
    """Base of the PAR-sheet section of a rule that reports on the finished round without changing it
    (``Rule.reports_on_round``): it never applies to the round's moments (``reached`` False, no
    ``overrides`` or ``components``); a subclass gives ``figures()`` and ``lines()``.

    >>> ViewSection().overrides(), ViewSection.reached
    ({}, False)
    """

    reached = False
    method = ""

    def overrides(self) -> dict:
        return {}

    def components(self) -> dict:
        return {}


@dataclass(frozen=True)
class Cost:
    """One up-front estimate of what an analysis will take on a parsed game, made before any work
    (:meth:`Rule.costs`; :func:`exact.rules.registry.cost_refusal` refuses one above its limit).

    Attributes
    ----------
    limit : str
        The :class:`strips.limits.Limits` field that bounds it: ``"seconds"`` (estimated seconds on the
        shared 2-core machine), ``"memory"`` (estimated MiB), or an existing count limit.
    estimate : int
        In the limit's unit, rounded up.
    what : str
        What is estimated, in the field's words ("the exact payline engine: 2,000 paylines, pairs of lines x
        reels x symbol states").

    >>> Cost("seconds", 300, "the demo").refusal(60)
    'estimated 300 seconds for the demo, more than the limit of 60 (raise it with --max-seconds N, or --no-limits)'
    """

    limit: str
    estimate: int
    what: str

    def refusal(self, limit: int) -> str:
        """The one line of a refusal at ``limit``."""
        unit = {"seconds": "seconds", "memory": "MiB"}.get(self.limit, self.limit.replace("_", " "))
        return (f"estimated {self.estimate:,} {unit} for {self.what}, more than the limit of {limit:,} "
                f"(raise it with --max-{self.limit.replace('_', '-')} N, or --no-limits)")


def round_split(model) -> str:
    """What makes the win distribution split ``model``'s spin by several symbols' counts (a respin, prize
    wheels, several scatters), in words, or "" when its trigger count alone decides the round.

    >>> round_split(type("M", (), {"respin": None, "wheels": (), "of_kind": lambda self, k: ("S",)})())
    ''
    """
    # a payline game's joint payline chain counts every scatter itself (exact.one_spin.line_spin_distribution)
    several = len(model.of_kind("scatter")) > 1 and getattr(model, "evaluation", "ways") != "lines"
    parts = [w for w, on in (("a respin", model.respin is not None), ("prize wheels", bool(model.wheels)),
                             ("several scatters", several)) if on]
    return " and ".join(parts)


def seconds_of(units: float, per_second: float) -> int:
    """Estimated seconds (at least 1) of ``units`` of work done at ``per_second`` (a calibrated rate).

    >>> seconds_of(10, 4), seconds_of(0, 4)
    (3, 1)
    """
    return max(1, -int(-units // per_second))


@dataclass(frozen=True)
class ReelTerms:
    """A rule's part of the per-reel terms of the engine's factorisation (:func:`exact.engine.reel_tables`)
    for one phase: the random value a symbol adds to the win and the random ways count a symbol adds
    (:meth:`Rule.reel_terms`).  The engine merges the parts of every rule a game uses; a part no rule gives
    takes the engine's default (no drawn value, each pay symbol's ways count its plain count).

    Attributes
    ----------
    rule : str
        The rule's name.
    key : tuple
        What of the phase the terms depend on beyond the strips (part of the engine's cache key).
    value_scale : int
        D: the integer the drawn values are scaled by (the lcm of their weight sums), 1 for none; every
        term's coefficient carries it.
    value_moments : callable or None
        ``value_moments(d) -> (mean, var)``: per symbol code, d E[v] and d^2 Var[v] of the value the symbol
        shows (int arrays, shape (n_symbols,); 0 for a symbol without one), d a multiple of ``value_scale``.
    ways_scale : int
        D_m: the integer the drawn multipliers in the ways counts are scaled by, 1 for none.
    ways_tables : callable or None
        ``ways_tables(counts, pay_codes, dm) -> (ways_count, scale, ways_mean, wild_var, wild_subst)`` of one
        reel (``counts``: shape (n_symbols, stops) int64; ``dm`` a multiple of ``ways_scale``): each pay
        symbol's plain ways count with the symbols that count as it, the reel's scale, the scaled mean ways
        counts, the variance pieces of each drawn multiplier and which pay symbols each substitutes for
        (:class:`exact.engine.ReelTables`).
    """

    rule: str
    key: tuple = ()
    value_scale: int = 1
    value_moments: Any = None
    ways_scale: int = 1
    ways_tables: Any = None


class Refusal(str):
    """The one line that says why an analysis does not run: the rule's name and, when the rule
    narrows its support by game, the reason (``"retrigger with a multi-level ladder"``)."""


@dataclass(frozen=True)
class PaysWords:
    """How the report, the tables and the workbook name the pays of a game's evaluation rule (the ways
    words unless the rule gives its own, :meth:`Rule.pays_words`).

    Attributes
    ----------
    pays : str
        The RTP split's row, after ``base game``: ``ways pays``, ``line pays``.
    by_symbol : str
        The by-symbol table's noun: ``ways``, ``line wins``.
    note : str
        Added to the table's ``(per base spin...)`` note (lines: ``; P: one payline of 20 wins so``).
    unit : str
        What a pay is per: ``way``, ``line``.
    """

    pays: str = "ways pays"
    by_symbol: str = "ways"
    note: str = ""
    unit: str = "way"


@dataclass(frozen=True)
class SimulatedSection:
    """A rule's part of one bet mode's figures in a simulation report (``rtp simulate``,
    :meth:`Rule.simulation_section`).

    Attributes
    ----------
    figures : tuple
        The rule's simulated figures (:class:`proofs.simulate_report.Figure`: estimate, interval, exact value),
        in the report's order; each gets an interval at the run's Bonferroni level.
    json : dict
        The keys the rule adds to the mode's object of ``rtp simulate --json`` (in order).
    lifted : tuple of str
        Keys of ``json`` also copied to the top level when the mode is the run's first unit.
    sd_words, sd_bound : str, float or None
        A bound of the round's SD the rule's figures used (``"the gamble"``, credits), printed after the
        exact SD; None for none.
    method : str
        The rule's words in the run's statistics sentence ("" for none).
    """

    figures: tuple = ()
    json: dict = field(default_factory=dict)
    lifted: tuple[str, ...] = ()
    sd_words: str = ""
    sd_bound: float | None = None
    method: str = ""


class Rule:
    """One mechanic of a game: its presence, its keys, the analyses it supports.

    Subclasses set :attr:`name`, :attr:`keys` and :attr:`implements` and
    define :meth:`present`.  Instances are never made: a rule is a set of
    class-level declarations and functions over the parsed game, as
    :mod:`strips.model` holds the data.

    Examples
    --------
    >>> class Blank(Rule):
    ...     name, keys, implements = "blank stops", "[symbols.X] class = 'blank'", frozenset({"spin"})
    ...     @classmethod
    ...     def present(cls, model):
    ...         return True
    >>> Blank.refusal(None, "spin") is None, Blank.refusal(None, "report")
    (True, 'blank stops')
    """

    #: The rule's name as a refusal prints it.
    name: ClassVar[str] = ""
    #: The ``game.toml`` table or keys of the rule.
    keys: ClassVar[str] = ""
    #: The analyses of :data:`ANALYSES` that compute a game with this rule correctly.
    implements: ClassVar[frozenset[str]] = frozenset()
    #: The analyses whose support :meth:`refusal` or :meth:`needs` narrows by the rest of the game
    #: (marked ``yes*`` in the README's support table).
    narrows: ClassVar[frozenset[str]] = frozenset()
    #: The table/key paths of ``game.toml`` this rule parses itself (tuples of keys); empty for rules
    #: the core loader parses.
    parses: ClassVar[tuple[tuple[str, ...], ...]] = ()

    @classmethod
    def present(cls, model) -> bool:
        """Whether the parsed ``model`` (a :class:`strips.model.GameModel`) uses the rule: by default, whether
        its configuration is kept on ``model.rules`` (:meth:`config`); a rule read from the core model's
        fields overrides this."""
        return cls.config(model) is not None

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        """Why ``analysis`` does not run on ``model`` for this rule, or None when it does.

        The default refuses every analysis outside :attr:`implements` with the
        rule's :attr:`name`; a rule whose support depends on the rest of the
        game overrides this (and calls the default).
        """
        if analysis not in cls.implements:
            return Refusal(cls.name)
        if analysis == "distribution" and not cls.factorised and round_split(model):
            # the round's split by several symbols' counts (exact.round_stages) reads ways spins only
            return Refusal(f"{cls.name} with {round_split(model)}")
        return None if cls.reads_stop_weights(model) else by_position_refusal(model, analysis)

    @classmethod
    def reads_stop_weights(cls, model) -> bool:
        """Whether the rule's exact path counts weighted stops by their weights: the factorisations do (their
        per-stop tables come from :func:`strips.model.window_codes`); a rule computed by exact enumeration of
        stop positions does not, and refuses a game with weighted stops (:func:`by_position_refusal`)."""
        return cls.factorised

    #: Whether the engine's per-reel factorisation (:func:`exact.engine.analyse_phase`) computes a phase of
    #: a game with this rule; a rule without per-reel terms sets it False and the phase is computed by
    #: its own fast path (:meth:`phase_path`) or by exact enumeration (:mod:`exact.enumeration`).
    factorised: ClassVar[bool] = True

    @classmethod
    def phase_path(cls, model):
        """A fast path ``f(ms, phase) -> PhaseAnalysis`` of this rule for ``model`` when it is the only rule
        without per-reel terms, or None (then enumeration); ``f`` may return None for a game it declines
        (too large for it: then enumeration)."""
        return None

    #: False for a rule the fast paths on per-reel count tables of a ways game with one triggering scatter
    #: (the one-spin distribution DP, the fast exhaustive enumeration and simulation) do not model: paylines,
    #: several scatters, a WILD counted as a scatter, trigger reels, multiplier_by_trigger, the combination
    #: WILD multiplier (:func:`exact.rules.registry.beyond_count_tables`).
    count_tables: ClassVar[bool] = True

    #: True for a rule the simulator's per-reel ways tables do not play, so its spins are read window by window
    #: by the vectorised literal evaluator (:class:`exact.windows.WindowEvaluator`): paylines, the combination
    #: WILD multiplier (:func:`exact.rules.registry.reads_windows`).
    window_read: ClassVar[bool] = False

    #: The engine's per-reel factorisation of an evaluation rule's pays (``"ways"``: products of per-reel
    #: counts; ``"lines"``: per-line chains), None for a rule that is no evaluation
    #: (:func:`exact.rules.registry.factorisation`).
    factorisation: ClassVar[str | None] = None

    #: The key of the rule's part of one spin's mean (:attr:`markov.moments.PhaseAnalysis.parts`, the engines
    #: fill it from the rule's terms or literal path): ``"pays"`` for an evaluation rule (ways, lines, pays by
    #: cells), ``"collect"`` for the KEY collect, ``"scatter"`` for scatter pays; None for a rule whose wins
    #: are no part of a spin of its own (:func:`exact.rules.registry.spin_part_rules`).
    spin_part: ClassVar[str | None] = None

    #: The key of the rule's part of the round's mean (:attr:`markov.round.RoundResult.components`, the JSON's
    #: ``components``): ``base_ways`` for an evaluation rule, ``base_collect``, ``base_scatter``, ``respin``,
    #: ``wheel``, ``win_cap``, ``hold_and_win``; None for a rule without one.  The views' RTP split asks the
    #: rule for the row's words (:meth:`component_label`, :func:`exact.rules.registry.component_rows`).
    component: ClassVar[str | None] = None
    #: The words of the rule's row in the RTP split (:meth:`component_label`); "" for the component's key in words.
    component_words: ClassVar[str] = ""

    @classmethod
    def component_label(cls, sheet) -> str:
        """The words of the rule's row in the RTP split of the report, the tables and the workbook, for the
        PAR sheet ``sheet``: :attr:`component_words`, or the component's key in words."""
        return cls.component_words or (cls.component or "").replace("_", " ")

    @classmethod
    def component_shown(cls, sheet) -> bool:
        """Whether the RTP split shows the rule's row when its credits are 0 (the base class: no)."""
        return False

    #: True for a rule of the round beyond its spins (bet modes, buys, respins, prize wheels, the gamble):
    #: :func:`exact.rules.registry.round_rules`.
    round_stage: ClassVar[bool] = False

    #: True for a rule that acts between the base spin and the features, or starts features of its own from
    #: the window's counts (a respin, prize wheels): the round's win before its features is then split by
    #: the counts that decide them (:func:`exact.bet_modes.pre_feature_split`); see
    #: :func:`exact.rules.registry.pre_feature_rules`.
    before_features: ClassVar[bool] = False

    #: True for a rule that acts on the round's total win (a win cap): the report hands it the round's
    #: exact win distribution (:mod:`exact.rounds`) and shows its section.
    acts_on_round: ClassVar[bool] = False

    #: True for a rule that adds a feature of its own to the round after the base spin (hold and win): the
    #: report (:func:`exact.rounds.round_sections`) computes its section, whose ``overrides()`` are the
    #: round's moments and ``components()`` its part of the round's mean.
    adds_to_round: ClassVar[bool] = False
    #: True for a rule that reports on the finished round without changing it (Spin Chance, the gamble
    #: wheel): the report (:func:`exact.rounds.view_sections`) adds its section from the default mode.
    reports_on_round: ClassVar[bool] = False
    #: Whether the workbook, the CSV tables and the notebook tables show the rule's section of the PAR sheet
    #: (:attr:`exact.par.ParSheet.sections`) as a table of its figures (:meth:`exact.par.ParSheet.section_rows`);
    #: False for a rule that lays its section out in sheets of its own (:meth:`workbook_sheets`: frames).
    section_table: ClassVar[bool] = True

    # A rule with ``acts_on_round`` also gives ``literal(config, bet, win) -> int`` (one round's total,
    # the oracle's reading), ``vector_step(config, bet, wins)`` (numpy, the simulator's) and
    # ``section(config, bet, distribution, method, max_win)`` (the report's).

    # -- optional views of one spin and of a change (the base class has none: the command prints only
    # -- the figures every game has) -----------------------------------------------------------------
    @classmethod
    def spin_json(cls, model, phase, window, res) -> dict:
        """The keys this rule adds to ``rtp spin --json`` for one evaluated spin ``res`` (an
        :class:`exact.evaluator.SpinResult` of ``window`` in ``phase``); the base class adds none."""
        return {}

    @classmethod
    def spin_text(cls, model, phase, window, res) -> dict[str, list[str]]:
        """The lines this rule adds to ``rtp spin``'s text, by place: ``pays`` (after the paying
        combinations), ``counts`` (after the symbol counts), ``award`` (words after the free spins
        awarded), ``starts`` (what starts after the spin); the base class adds none."""
        return {}

    @classmethod
    def literal_wins(cls, model, window, cells, combination: int) -> dict:
        """An evaluation rule's literal reading of one window (the oracle): its wins by kind (``ways``:
        WayWins, ``lines``: LineWins), credits before the level multiplier; ``cells`` the multiplier of
        each cell, ``combination`` the combination WILD multiplier drawn for the spin.  The base class
        reads nothing (a rule that is no evaluation)."""
        return {}

    @classmethod
    def pays_words(cls, model) -> PaysWords | None:
        """How the views name an evaluation rule's pays (None: the rule is no evaluation; the views then
        use the ways words)."""
        return None

    @classmethod
    def report_text(cls, rep, fmt, digits: int) -> list[str] | dict[str, list[str]]:
        """The rule's section of the text report (lines) from the PAR sheet ``rep``, or its blocks by place when the
        rule stands at several places of the report (:attr:`places`); ``fmt`` is :mod:`exact.formatting` (percent,
        decimal_text, one_in, sig_fraction, short_fraction_text, table_lines), ``digits`` the decimal places of
        percentages.  The base class has no section."""
        return []

    @classmethod
    def report_tables(cls, sheet, table, inv) -> list | dict[str, list]:
        """The rule's tables of the PAR sheet (:meth:`exact.par.ParSheet.tables`), or its tables by place when the
        rule stands at several places (:attr:`places`): ``table(name, title, columns, rows, note="")`` builds one,
        ``inv(p)`` is 1 / p (None for 0).  The base class has none."""
        return []

    @classmethod
    def workbook_sheets(cls, rep, book, formats) -> None:
        """Add the rule's sheets of the PAR workbook (:func:`exact.export.par_sheets`) to ``book``
        (``book.add(name, slug, header, rows, formats, row_formats=(), keys=1)``); ``formats`` holds the
        workbook's cell formats (COUNT, PERCENT, CREDITS, PROB, ONE_IN, TWO, ROW) and ``one_in(p)``.  The base
        class adds none."""

    #: Where the rule's sections stand in each view (:data:`VIEW_PLACES`): view -> a place, or a tuple of places
    #: (then the view's capability, :meth:`report_text` or :meth:`report_tables`, returns its blocks by place: a
    #: dict); a view it does not name takes it at the ``end``.
    places: ClassVar[dict[str, str | tuple[str, ...]]] = {}

    @classmethod
    def view_places(cls, view: str) -> tuple[str, ...]:
        """The places of ``view`` (a key of :data:`VIEW_PLACES`) where the rule's section stands: :attr:`places`,
        else ``("end",)``.

        >>> Rule.view_places("text")
        ('end',)
        """
        where = cls.places.get(view, "end")
        return (where,) if isinstance(where, str) else tuple(where)

    @classmethod
    def report_json(cls, sheet) -> dict:
        """The keys the rule adds to the JSON report (``rtp report --json``) after the exact figures of the PAR
        sheet ``sheet``: JSON-ready values (exact figures as ``"p/q"`` text with a ``_float`` beside, outside
        :meth:`exact.par.ParSheet.figures`).  Asked of every registered rule in registry order, so a key the
        report carries for every game (``scatter_pays``, empty then) comes from the rule whether the game uses it
        or not; the base class adds none."""
        return {}

    #: The key of the rule's section in every PAR sheet's JSON (``rtp report --json``), carried whether the game
    #: uses the rule or not (empty then): ``modes``, ``buy``, ``wheel``, ``gamble``; None for a rule without
    #: one (:data:`exact.rules.registry.SHEET_RULES`).
    sheet_key: ClassVar[str | None] = None

    @classmethod
    def sheet_figures(cls, sheet) -> dict:
        """The rule's section of the PAR sheet ``sheet`` (:class:`exact.par.ParSheet`) under :attr:`sheet_key`:
        key -> int, Fraction, str (a reason in words: the JSON keeps it, ``figures()`` leaves it out) or a
        nested dict; the base class has none."""
        return {}

    @classmethod
    def reel_terms(cls, model, weights: str) -> ReelTerms | None:
        """The rule's per-reel terms of the engine's factorisation for a phase of ``model`` with weight table
        ``weights`` (:class:`ReelTerms`), or None (the base class: the rule adds no random value or ways
        count to a reel)."""
        return None

    @classmethod
    def published_facts(cls, printed, model) -> list[tuple]:
        """The rule's rows of ``rtp check``: the rule as the rules page prints it (``printed``, the
        ``[rules]`` table of ``published.toml``: :class:`strips.published.PublishedRules`) against the game
        file's ``model`` (which may not use the rule), each ``(what, key of [rules], printed text, value,
        shown, ok)``; asked of every registered rule, in registry order.  The base class has none."""
        return []

    @classmethod
    def award_odds_refusal(cls, model) -> str | None:
        """Why ``rtp comply`` leaves out the odds of each award of a bet mode whose game ``model`` uses this
        rule, or None when they are computed.  The base class: none (a rule without per-reel terms has its
        awards counted by the enumeration or count product of its phases, :mod:`exact.comply`)."""
        return None

    @classmethod
    def simulation_step(cls, model, mode: str, tables):
        """The rule's vectorised literal step of a simulated round of bet mode ``mode`` (``model`` the mode's
        game), or None (the base class: the rule adds no step).  ``tables(symbol)`` gives the per-reel,
        per-stop counts of ``symbol`` in the base window (int64 arrays; asking for a symbol makes the
        simulator count it on every base spin).  The step has ``stage`` (one of :data:`SIMULATION_STAGES`),
        ``rule`` (the rule's name) and ``simulate(block)``: it reads and changes the rounds of
        ``block`` (:class:`proofs.simulate_modes.RoundBlock`: ``stops``, ``win``, ``trigger``, ``counts``,
        ``tally``, ``rng``, ``draw(n)``, ``spin_again(rows, stops)``, ``play(rows, spins)``,
        ``starts_feature()``); a step that starts features of its own also gives ``starts(counts)``."""
        return None

    @classmethod
    def simulation_section(cls, model, sim) -> SimulatedSection | None:
        """The rule's figures in one bet mode's part of a simulation report, or None (the base class).
        ``sim`` (:class:`proofs.simulate_report.Simulated`) holds the mode's exact ``round``
        (:class:`markov.round.RoundResult`), its ``tally``, the run's ``exact`` figures, ``default`` (the
        default mode), ``cost`` and the figure makers ``rate(name, count, exact)`` (a Clopper-Pearson
        rate) and ``mean(name, total, variance, exact, hist)`` ((a mean per cost with Catoni's interval from
        the rounds' histogram of wins ``hist``, proven at its level for any tail; its SD))."""
        return None

    @classmethod
    def changes(cls, ma, mb) -> list[str]:
        """The lines ``rtp diff`` prints for a change of this rule's keys from game ``ma`` to game ``mb``
        (either may not use the rule); the base class has no keys of its own to compare."""
        return []

    @classmethod
    def symbol_changes(cls, name: str, sa, sb) -> list[str]:
        """The lines ``rtp diff`` prints for a change of this rule's keys on symbol ``name``
        (:class:`strips.model.Symbol` ``sa`` -> ``sb``); the base class has none."""
        return []

    @classmethod
    def costs(cls, ms, analysis: str, factorised: bool = True) -> tuple:
        """The rule's up-front estimates (:class:`Cost`) of ``analysis`` on the math set ``ms``, from the parsed
        set alone and in well under a second; ``factorised`` says whether the engine's per-reel factorisation
        computes the game's phases (no rule without per-reel terms).  The base class has none (its work is
        bounded by the input limits); a rule whose work can grow past them on a small file overrides it
        (paylines, bet modes, the free-spin ladder, hold and win)."""
        return ()

    @classmethod
    def needs(cls, model, analysis: str) -> str | None:
        """Another analysis that must support the rest of the game for this rule's part of
        ``analysis`` to run (the win cap's report needs the round's win distribution), or None."""
        return None

    @classmethod
    def parse(cls, t, doc: dict, model) -> Any:
        """The rule's frozen configuration from the parsed ``game.toml`` document, or None when the
        file does not use the rule.  ``t`` locates keys for errors (``t.error(path, message)``
        raises :class:`strips.errors.MathSetError` with file, row and column).  Only rules with
        :attr:`parses` define it."""
        return None

    @classmethod
    def config(cls, model) -> Any:
        """The rule's configuration kept on ``model.rules`` (None when absent): :func:`rule_config` by the rule's name."""
        return rule_config(model, cls.name)


def rule_config(model, name: str) -> Any:
    """The configuration of the rule called ``name`` kept on ``model.rules`` (the loader's parsed config, whose
    ``rule`` attribute is that name), or None when the game has no such rule.  The one lookup by rule name:
    :meth:`Rule.config` and the composed line reading both use it.

    >>> from strips.loader import load_math_set
    >>> rule_config(load_math_set("rules_page").model, "screen fills") is None
    True
    """
    return next((c for c in getattr(model, "rules", ()) if getattr(c, "rule", None) == name), None)


def by_position_refusal(model, analysis: str) -> Refusal | None:
    """Why a rule whose phases are computed by exact enumeration of stop positions (cascades, clusters, the
    multiplier symbol, pay anywhere off its count product) refuses ``analysis`` on a game with weighted stops
    (:class:`strips.model.StopWeightsConfig` on ``model.rules``): the enumeration takes each stop once, not by its
    weight.  Every analysis but ``spin`` (one window at given stops); None without weighted stops.

    >>> from strips.loader import load_math_set
    >>> by_position_refusal(load_math_set("tumble_anywhere").model, "report") is None
    True
    """
    if analysis == "spin" or not any(type(c).__name__ == "StopWeightsConfig" for c in getattr(model, "rules", ())):
        return None
    return Refusal("weighted stops under exact enumeration (it takes each stop position once, not by its weight)")


class EvaluationRule(Rule):
    """The common part of the rules that evaluate a window's pays (ways, paylines, pays by cells): their
    part of a spin is ``pays`` and of the round ``base_ways`` (the JSON's name, line pays too), shown in
    the RTP split in the evaluation's words (:meth:`Rule.pays_words`) even when 0."""

    spin_part = "pays"
    component = "base_ways"

    @classmethod
    def component_label(cls, sheet) -> str:
        return f"base game {sheet.words.pays}"

    @classmethod
    def component_shown(cls, sheet) -> bool:
        return True


def line_distribution(model, analysis: str) -> bool:
    """Whether ``analysis`` is the win distribution of a payline game, which the joint payline chain computes
    with the trigger rules of line games (several scatters, a WILD counted as a scatter, trigger reels, the
    combination WILD multiplier: :func:`exact.one_spin.line_spin_distribution`).

    >>> from strips.loader import load_math_set
    >>> line_distribution(load_math_set("rules_page").model, "distribution")
    False
    """
    return analysis == "distribution" and model.evaluation == "lines"


def one_spin_round(model) -> bool:
    """Whether a round of ``model`` is one base spin: no free spins, respin, prize wheels, bet modes or buys.

    >>> from strips.loader import load_math_set
    >>> one_spin_round(load_math_set("rules_page").model)
    False
    """
    return not model.trigger and model.respin is None and not model.wheels and not model.modes and not model.buys


def first_present(model, rules) -> str | None:
    """The name of the first of ``rules`` (Rule classes, in order) that ``model`` uses, or None.

    >>> from strips.loader import load_math_set
    >>> class Any(Rule):
    ...     name = "any game"
    ...     @classmethod
    ...     def present(cls, model):
    ...         return True
    >>> first_present(load_math_set("rules_page").model, (Any,)), first_present(None, ())
    ('any game', None)
    """
    return next((r.name for r in rules if r.present(model)), None)


def value_convolution(tables) -> dict[int, int]:
    """The sum of independent draws, each from ``((value, integer weight), ...)``: {sum: integer weight}
    (a weight 0 never enters).  The draws of one window in the one-spin distribution's per-reel step.

    >>> value_convolution([((1, 1), (2, 1)), ((0, 3), (5, 1))])
    {1: 3, 6: 1, 2: 3, 7: 1}
    """
    out = {0: 1}
    for table in tables:
        nxt: dict[int, int] = {}
        for a, x in out.items():
            for v, w in table:
                if w:
                    nxt[a + v] = nxt.get(a + v, 0) + x * w
        out = nxt
    return out
