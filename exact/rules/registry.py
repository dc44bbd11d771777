"""The rule registry and the one place that says what each analysis supports.

Every analysis asks :func:`supports` (or :func:`require`) before it computes
anything, in the API and on the command line alike; no other code decides
which games an analysis takes.  The answer is derived from the rules a math
set uses (:func:`rules_of`) and what each rule implements
(:attr:`exact.rules.base.Rule.implements`, narrowed by
:meth:`~exact.rules.base.Rule.refusal`).
"""
from __future__ import annotations

from dataclasses import dataclass

from exact.rules.anywhere import Anywhere
from exact.rules.base import ANALYSES, VIEW_PLACES, PaysWords, Rule, first_present
from exact.rules.cascade import Cascade
from exact.rules.clusters import Clusters
from exact.rules.collect import Collect
from exact.rules.free_spins import FreeSpins, FreeSpinsOnBaseStrips, Ladder, Retrigger
from exact.rules.drawn_multiplier import DrawnLevelMultiplier
from exact.rules.estimates import analysis_costs
from exact.rules.expanding_wilds import ExpandingWilds
from exact.rules.gamble import Gamble
from exact.rules.grid import Grid, GridKey
from exact.rules.hold_and_win import HoldAndWin
from exact.rules.spin_chance import SpinChance
from exact.rules.gamble_wheel import GambleWheel
from exact.rules.frames import Frames
from exact.rules.grid_features import RandomFeatures
from exact.rules.grid_free_games import FreeSpinChoice
from exact.rules.groups import BlankStops, SymbolGroups
from exact.rules.line_direction import BothWayPays, CentrePays
from exact.rules.modes import BetModes, Buys
from exact.rules.multiplier_symbol import MultiplierSymbol
from exact.rules.paylines import Paylines
from exact.rules.per_wild import PerWildMultiplier
from exact.rules.respin import Respin
from exact.rules.retrigger_below import RetriggerTotalBelow
from exact.rules.screen_fill import ScreenFill
from exact.rules.skip_wild_line import SkipWildLine
from exact.rules.wild_scatter import WildScatter
from exact.rules.expanding_symbol import ExpandingSymbol
from exact.rules.line_awards import LineAwards
from exact.rules.weighted_stops import WeightedStops
from exact.rules.reel_sets import WeightedReelSets, mixture as reel_set_mixture
from exact.rules.scatter import CountsAsScatter, MultiplierByTrigger, ScatterPays, SeveralScatters, TriggerReels
from exact.rules.ways import Ways
from exact.rules.wheels import Wheels
from exact.rules.wild import CombinationWildMultiplier, DrawnWildMultiplier, WildMultiplier, WildSubstitution
from exact.rules.win_cap import WinCap
from strips import limits as _limits
from strips.errors import UnsupportedRule, UsageError

__all__ = ["RULES", "placed", "at_place", "report_json_keys", "component_rows", "rules_of", "costs", "cost_refusal", "Support", "supports", "require", "support_table", "phase_path", "beyond_count_tables", "pre_feature_rules", "round_rules", "spin_views", "pays_words", "literal_wins", "factorisation", "reads_windows", "award_odds_refusal", "SHEET_RULES", "published_rule_facts", "reel_terms", "reel_set_members", "reel_set_mixture"]

#: Every registered rule, in the order a refusal names the first one that refuses.
RULES: tuple[type[Rule], ...] = (
    Ways, Paylines, CombinationWildMultiplier, CountsAsScatter, SeveralScatters, TriggerReels,
    MultiplierByTrigger, ScatterPays, Collect, WildSubstitution, WildMultiplier, DrawnWildMultiplier,
    FreeSpins, Ladder, Retrigger, FreeSpinsOnBaseStrips, BetModes, Buys, Respin, Wheels, Gamble, WinCap,
    Anywhere, Clusters, Cascade, MultiplierSymbol, Grid, GridKey, RandomFeatures, FreeSpinChoice, HoldAndWin, SpinChance, GambleWheel, Frames,
    ExpandingWilds, BothWayPays, CentrePays, PerWildMultiplier, SymbolGroups, BlankStops, ScreenFill,
    RetriggerTotalBelow, DrawnLevelMultiplier, SkipWildLine, WildScatter, ExpandingSymbol, LineAwards, WeightedStops, WeightedReelSets,
)


#: The rules whose section every PAR sheet's JSON carries (:attr:`~exact.rules.base.Rule.sheet_key`), in
#: registry order.
SHEET_RULES: tuple[type[Rule], ...] = tuple(r for r in RULES if r.sheet_key)


def placed(rules, view: str, place: str) -> tuple[type[Rule], ...]:
    """The rules of ``rules`` (a PAR sheet's ``rules``, registry order) whose section stands at ``place`` of
    ``view`` (:data:`exact.rules.base.VIEW_PLACES`, :meth:`~exact.rules.base.Rule.view_places`).

    >>> [r.name for r in placed(RULES, "text", "after_symbols")], [r.name for r in placed(RULES, "text", "after_round")]
    (['scatter pays'], ['free spins'])
    """
    if place not in VIEW_PLACES[view]:
        raise KeyError(f"no place {place!r} in the {view} view (places: {', '.join(VIEW_PLACES[view])})")
    return tuple(r for r in rules if place in r.view_places(view))


def at_place(section, place: str) -> list:
    """A rule's section of a view at ``place``: the section itself (a list: the rule stands at one place), or its
    block there (a dict by place: the rule stands at several).

    >>> at_place(["a"], "end"), at_place({"end": ["b"]}, "end"), at_place({"end": ["b"]}, "after_round")
    (['a'], ['b'], [])
    """
    return section.get(place, []) if isinstance(section, dict) else section


def report_json_keys(sheet) -> dict:
    """The keys every registered rule adds to the JSON report of the PAR sheet ``sheet``
    (:meth:`~exact.rules.base.Rule.report_json`), in registry order.

    >>> import exact
    >>> list(report_json_keys(exact.par_sheet(exact.load_math_set("rules_page"))))
    ['scatter_pays', 'free_spin_symbols']
    """
    out: dict = {}
    for r in RULES:
        out.update(r.report_json(sheet))
    return out


def beyond_count_tables(model) -> str | None:
    """The first rule ``model`` uses that the fast paths on per-reel count tables of a ways game with one
    triggering scatter do not model (:attr:`~exact.rules.base.Rule.count_tables` False: paylines, a
    combination WILD multiplier, a WILD counted as a scatter, several scatters, trigger reels,
    multiplier_by_trigger), or None.

    >>> from strips.loader import load_math_set
    >>> beyond_count_tables(load_math_set("rules_page").model) is None
    True
    """
    return first_present(model, (r for r in RULES if not r.count_tables))


def reads_windows(model) -> bool:
    """Whether the simulator reads ``model``'s spins window by window (a rule it uses has
    :attr:`~exact.rules.base.Rule.window_read`: paylines, a combination WILD multiplier) rather than by
    its per-reel ways tables.

    >>> from strips.loader import load_math_set
    >>> reads_windows(load_math_set("rules_page").model)
    False
    """
    return any(r.window_read for r in rules_of(model))


def award_odds_refusal(model) -> str | None:
    """Why ``rtp comply`` leaves out the odds of each award of ``model`` (a bet mode's game): the first rule
    it uses that gives a reason (:meth:`~exact.rules.base.Rule.award_odds_refusal`), or None.

    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("wheel_game")
    >>> award_odds_refusal(ms.model), award_odds_refusal(ms.mode("fortune_bet").model)
    (None, 'respin on 2 BONUS')
    """
    return next((why for r in rules_of(model) if (why := r.award_odds_refusal(model))), None)


def reel_set_members(model, strip_set: str):
    """((reel set, weight), ...) when a spin of ``strip_set`` first draws its reel set by weight
    (:class:`exact.rules.reel_sets.WeightedReelSets`), else None.

    >>> from strips.loader import load_math_set
    >>> reel_set_members(load_math_set("rules_page").model, "base") is None
    True
    """
    return WeightedReelSets.members(model, strip_set)


def reel_terms(model, weights: str) -> tuple:
    """The per-reel terms of the engine's factorisation that the rules ``model`` uses give for a phase with
    weight table ``weights`` (:meth:`~exact.rules.base.Rule.reel_terms`), in registry order.

    >>> from strips.loader import load_math_set
    >>> [t.rule for t in reel_terms(load_math_set("rules_page").model, "base")]
    ['KEY collect and FISH values', 'WILD substitution']
    """
    return tuple(t for r in rules_of(model) if (t := r.reel_terms(model, weights)) is not None)


def published_rule_facts(printed, model) -> list[tuple]:
    """The rows of ``rtp check`` that the registered rules give for the printed rules ``printed``
    (``published.toml [rules]``) against ``model`` (:meth:`~exact.rules.base.Rule.published_facts`), every rule
    asked in registry order (a printed "no retrigger" is checked on a game without one).

    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> published_rule_facts(ms.published.rules, ms.model)[-1][:3]
    ('levels in the ladder; no retrigger', 'levels', '4; no')
    """
    return [row for r in RULES for row in r.published_facts(printed, model)]


def component_rows(sheet) -> list[tuple[str, str, object]]:
    """The rows of the RTP split of a PAR sheet ``sheet`` (:class:`exact.par.ParSheet`) that every view shows
    (the text report, the tables, the workbook): ``(key, words, credits per round)`` for each component of
    its round (:attr:`markov.round.RoundResult.components`, in order), worded by the rule that owns it
    (:attr:`~exact.rules.base.Rule.component`, :meth:`~exact.rules.base.Rule.component_label`: a rule the
    game uses first, then any registered one); a component no rule owns (the free spins of the trigger
    table) in its key's words.  A row of 0 credits is shown when its rule says so
    (:meth:`~exact.rules.base.Rule.component_shown`), the free spins when the round has features.

    >>> import exact
    >>> [(k, words) for k, words, _ in component_rows(exact.par_sheet(exact.load_math_set("rules_page")))]
    [('base_ways', 'base game ways pays'), ('base_collect', 'base game collect'), ('free_spins', 'free spins')]
    """
    used = tuple(sheet.rules)
    rows = []
    for key, credits in sheet.components.items():
        owner = next((r for r in used + RULES if r.component == key), None)
        shown = (owner.component_shown(sheet) and owner in used) if owner is not None else bool(sheet.round.features)
        if credits or shown:
            rows.append((key, owner.component_label(sheet) if owner is not None else key.replace("_", " "), credits))
    return rows


def round_rules(model) -> tuple[str, ...]:
    """The names of the rules of the round beyond its spins that ``model`` uses
    (:attr:`~exact.rules.base.Rule.round_stage`: bet modes, buys, respins, prize wheels, the gamble).

    >>> from strips.loader import load_math_set
    >>> round_rules(load_math_set("rules_page").model), round_rules(load_math_set("wheel_game").model)
    ((), ('[modes]', '[wheel]', '[gamble]'))
    """
    return tuple(r.name for r in RULES if r.round_stage and r.present(model))


def pre_feature_rules(model) -> tuple[str, ...]:
    """The names of the rules ``model`` uses that act before its features (a respin, prize wheels:
    :attr:`~exact.rules.base.Rule.before_features`).

    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("wheel_game")
    >>> pre_feature_rules(load_math_set("rules_page").model), pre_feature_rules(ms.mode("fortune_bet").model)
    ((), ('respin', '[wheel]'))
    """
    return tuple(r.name for r in RULES if r.before_features and r.present(model))


def literal_wins(model, window, cells, combination: int = 1) -> dict:
    """The wins of one window by the literal reading of ``model``'s evaluation rule
    (:meth:`~exact.rules.base.Rule.literal_wins`); a game whose evaluation rule reads no window this way
    (its spins are read fall by fall) falls back to the ways reading.

    >>> from strips.loader import load_math_set
    >>> m = load_math_set("rules_page").model
    >>> w = (("PIC1",) * 3,) * 5
    >>> [(x.symbol, x.oak, x.ways) for x in literal_wins(m, w, ((1,) * 3,) * 5)["ways"]]
    [('PIC1', 5, 243)]
    """
    for rule in rules_of(model):
        found = rule.literal_wins(model, window, cells, combination)
        if found:
            return found
    return Ways.literal_wins(model, window, cells, combination)


def factorisation(model) -> str:
    """The engine's factorisation of ``model``'s evaluation (:attr:`~exact.rules.base.Rule.factorisation`
    of its evaluation rule; ``"ways"`` when none declares one).

    >>> from strips.loader import load_math_set
    >>> factorisation(load_math_set("rules_page").model)
    'ways'
    """
    return next((r.factorisation for r in rules_of(model) if r.factorisation), "ways")


def pays_words(model) -> PaysWords:
    """How the views name the pays of ``model``'s evaluation: its rule's :meth:`~exact.rules.base.Rule.pays_words`,
    else the ways words.

    >>> from strips.loader import load_math_set
    >>> pays_words(load_math_set("rules_page").model).pays
    'ways pays'
    """
    return next((w for r in rules_of(model) if (w := r.pays_words(model)) is not None), PaysWords())


def spin_views(model, phase, window, res) -> tuple[dict, dict[str, list[str]]]:
    """What the rules ``model`` uses add to one evaluated spin's view (:meth:`~exact.rules.base.Rule.spin_json`,
    :meth:`~exact.rules.base.Rule.spin_text`), in registry order: the JSON keys, and the text lines by place.

    >>> from strips.loader import load_math_set
    >>> from exact.evaluator import evaluate
    >>> ms = load_math_set("rules_page")
    >>> w = ms.phase_strips(ms.model.base_phase).window((0, 0, 0, 0, 0), ms.model.rows)
    >>> spin_views(ms.model, ms.model.base_phase, w, evaluate(ms.model, w))[1]["pays"][0].split()[:2]
    ['ways', 'pays']
    """
    fields: dict = {}
    text: dict[str, list[str]] = {}
    for rule in rules_of(model):
        fields.update(rule.spin_json(model, phase, window, res))
        for place, lines in rule.spin_text(model, phase, window, res).items():
            text.setdefault(place, []).extend(lines)
    return fields, text


def rules_of(model) -> tuple[type[Rule], ...]:
    """The registered rules ``model`` (a :class:`strips.model.GameModel`) uses, in registry order.

    >>> from strips.loader import load_math_set
    >>> [r.name for r in rules_of(load_math_set("rules_page").model)]
    ['ways evaluation', 'KEY collect and FISH values', 'WILD substitution', 'free spins', 'a free-spin ladder of several levels']
    """
    return tuple(r for r in RULES if r.present(model))


def phase_reading(model, phase):
    """The game one spin of ``phase`` is read with: ``model`` narrowed by each rule it uses that reads some
    phases only (``Rule.for_phase``: a WILD that expands in the free spins only); ``model`` itself otherwise.
    Every analysis of a phase and the literal spin read this game.

    >>> from strips.loader import load_math_set
    >>> m = load_math_set("rules_page").model
    >>> phase_reading(m, m.base_phase) is m
    True
    """
    for r in rules_of(model):
        narrow = getattr(r, "for_phase", None)
        if narrow is not None:
            model = narrow(model, phase)
    return model


def trigger_name(model) -> str:
    """What the rows of the free-spin trigger tables count (after the row's number): the first rule the game
    uses that names it (``Rule.trigger_words``: free spins awarded by line wins), else the triggering scatter's
    name, else ``scatter``.

    >>> from strips.loader import load_math_set
    >>> trigger_name(load_math_set("rules_page").model)
    'FS'
    """
    words = next((r.trigger_words for r in rules_of(model) if getattr(r, "trigger_words", "")), "")
    return words or (model.trigger_symbol.name if model.trigger_symbol else "scatter")


def round_total_steps(model) -> tuple:
    """The vectorised steps of the rules that act on a round's total win (``Rule.acts_on_round``: the win
    cap), as ``(rule, config, bet)`` in registry order: each simulator applies
    ``wins = rule.vector_step(config, bet, wins)`` to its rounds' totals (numpy int64, credits).

    >>> from strips.loader import load_math_set
    >>> round_total_steps(load_math_set("rules_page").model)
    ()
    """
    return tuple((r, r.config(model), model.bet) for r in rules_of(model) if r.acts_on_round)


@dataclass(frozen=True)
class Support:
    """Whether an analysis runs on a math set: ``ok``, else the ``rule`` that refuses and ``reason``
    (the rule's name, or a narrower reason it gives)."""

    analysis: str
    ok: bool
    rule: str = ""
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok

    def message(self) -> str:
        """The one line of a refusal: ``unsupported rule: <reason>: <analysis> does not model it``."""
        return f"unsupported rule: {self.reason}: {ANALYSES[self.analysis]} does not model it"


def supports(ms, analysis: str, ignoring: frozenset = frozenset()) -> Support:
    """Whether ``analysis`` computes the math set ``ms`` correctly (``ms`` a MathSet or a GameModel).

    Parameters
    ----------
    ms : strips.model.MathSet or strips.model.GameModel
    analysis : str
        A key of :data:`exact.rules.base.ANALYSES`.
    ignoring : frozenset of Rule classes
        Rules left out (a rule that needs another analysis asks it of the rest of the game).

    Returns
    -------
    Support
        True when it runs; else names the first rule (registry order) that refuses.

    Raises
    ------
    KeyError
        An unknown analysis.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("wheel_game")
    >>> bool(supports(ms, "report")), supports(ms.mode("fortune_bet"), "export").reason
    (True, 'respin')
    """
    if analysis not in ANALYSES:
        raise KeyError(f"unknown analysis {analysis!r} (known: {', '.join(ANALYSES)})")
    model = getattr(ms, "model", ms)
    for rule in rules_of(model):
        if rule in ignoring:
            continue
        why = rule.refusal(model, analysis)
        need = None if why else rule.needs(model, analysis)
        if need:
            rest = supports(model, need, ignoring | {rule})
            if not rest:
                why = (f"{rule.name} with {rest.reason} (the {rule.name} needs {ANALYSES[need]}, "
                       f"which does not model {rest.reason})")
        if why:
            return Support(analysis, False, rule.name, str(why))
    return Support(analysis, True)


def costs(ms, analysis: str) -> tuple:
    """Every up-front estimate of ``analysis`` on the math set ``ms`` (:meth:`~exact.rules.base.Rule.costs`
    of each rule it uses, registry order, then the analysis's own: :func:`exact.rules.estimates.analysis_costs`,
    the free-spin ladder's chain and the hold-and-win chain), made from the parsed set before any work.

    >>> from strips.loader import load_math_set
    >>> costs(load_math_set("rules_page"), "spin")
    ()
    """
    model = getattr(ms, "model", ms)
    factorised = all(r.factorised for r in rules_of(model))
    enumerated = not factorised and phase_path(model) == "enumeration"
    return tuple(c for r in rules_of(model) for c in r.costs(ms, analysis, factorised)) + \
        analysis_costs(ms, analysis, enumerated)


def cost_refusal(ms, analysis: str) -> str | None:
    """The one-line refusal of the first estimate of :func:`costs` above its active limit
    (:func:`strips.limits.active`), or None when every one is within.

    >>> from strips.loader import load_math_set
    >>> cost_refusal(load_math_set("rules_page"), "distribution") is None
    True
    """
    limits = _limits.active()
    for c in costs(ms, analysis):
        limit = getattr(limits, c.limit)
        if limit is not None and c.estimate > limit:
            return c.refusal(limit)
    return None


def require(ms, analysis: str) -> None:
    """Raise :class:`strips.errors.UnsupportedRule` unless ``analysis`` supports ``ms``.

    >>> from strips.loader import load_math_set
    >>> try:
    ...     require(load_math_set("wheel_game").mode("fortune_bet"), "comply")
    ... except UnsupportedRule as e:
    ...     print(e)
    unsupported rule: respin: the jurisdiction check (rtp comply, exact.comply) does not model it
    """
    s = supports(ms, analysis)
    if not s:
        raise UnsupportedRule(s.message(), rule=s.rule, analysis=analysis)
    if hasattr(ms, "strips"):          # a math set (its strips read): the up-front estimates
        why = cost_refusal(ms, analysis)
        if why:
            raise UsageError(why)


def support_table() -> str:
    """The README's support table: one row per registered rule, one column per analysis
    (``yes`` where the rule implements it, ``-`` where it refuses; ``yes*`` where the rule
    narrows its support by the rest of the game: see its :meth:`~exact.rules.base.Rule.refusal`
    and :meth:`~exact.rules.base.Rule.needs`).

    >>> support_table().splitlines()[0].startswith("| rule | game.toml |")
    True
    """
    names = list(ANALYSES)
    out = ["| rule | game.toml | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for r in RULES:
        narrowed = set(getattr(r, "narrows", ()))
        cells = [("yes*" if a in narrowed else "yes") if a in r.implements else "-" for a in names]
        keys = r.keys.replace("|", "\\|")
        out.append(f"| {r.name} | `{keys}` | " + " | ".join(cells) + " |")
    return "\n".join(out)


def phase_path(model):
    """How one phase of ``model`` is computed exactly: None for the engine's per-reel factorisation (every
    rule the game uses has per-reel terms), else a callable ``f(ms, phase) -> PhaseAnalysis``: the fast
    path of the one rule without per-reel terms when it has one for this game, else exact enumeration
    (:func:`exact.enumeration.analyse_phase`).

    >>> from strips.loader import load_math_set
    >>> phase_path(load_math_set("rules_page").model) is None
    True
    """
    from_rules = [r for r in rules_of(model) if not r.factorised]
    if not from_rules:
        return None
    if len(from_rules) == 1 and from_rules[0].phase_path(model) is not None:
        return from_rules[0].phase_path(model)
    return "enumeration"
