"""The round's exact win distribution for the rules that act on a round's total win (a win cap).

Such a rule (``Rule.acts_on_round``) has no per-reel terms: the report hands it
the round's exact distribution.  For a round that is one base spin, that is the
enumeration of every stop combination through the literal reading
(:func:`exact.enumeration.spin_histogram`), or the one-spin distribution DP when
values are drawn per spin; for a round with free spins, the round distribution of
:func:`exact.distribution.win_distribution` of the game without those rules, when
it is exact.  When it is known only within a bound, the exact largest round win
still decides a cap that can never be reached; otherwise the report refuses.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from exact.distribution import spin_distribution, win_distribution
from exact.enumeration import spin_histogram
from exact.engine import analyse_phase
from exact.frames import frames_section
from exact.gamble_wheel import gamble_wheel_section
from exact.hold_and_win import hold_and_win_section, hold_and_win_spin
from exact.rules import SpinChance, rules_of, one_spin_round
from exact.rules.registry import phase_path
from strips.errors import UnsupportedRule
from strips.model import MathSet

#: Rule name -> ``f(ms, base_mean, base_second) -> section`` of each rule that adds a feature of its own to
#: the round (``Rule.adds_to_round``).
FEATURE_SECTIONS = {"hold and win": hold_and_win_section}
#: Rule name -> ``f(ms, window) -> dict``: what one base window starts of such a feature (``rtp spin``).
FEATURE_SPINS = {"hold and win": hold_and_win_spin}

#: Rule name -> ``f(ms, default) -> section`` of each rule that reports on the finished round without
#: changing it (``Rule.reports_on_round``); ``default`` the default mode's :class:`exact.bet_modes.ModeResult`.
VIEW_SECTIONS = {"spin chance": lambda ms, d: SpinChance.section(SpinChance.config(ms.model), d.cost, d.round.mean),
                 "gamble wheel": gamble_wheel_section, "frames": frames_section}

__all__ = ["FEATURE_SECTIONS", "FEATURE_SPINS", "feature_spins", "VIEW_SECTIONS", "view_sections", "RoundDistribution", "round_distribution", "without_round_rules", "round_sections", "apply_sections"]


@dataclasses.dataclass(frozen=True)
class RoundDistribution:
    """The round win of a math set, before the rules that act on it.

    Attributes
    ----------
    probabilities : dict {win credits: Fraction} or None
        The exact distribution; None when only ``max_win`` is known exactly.
    max_win : int
        The largest round win, credits (exact).
    method : str
        How it was computed, as the report says it.
    """

    probabilities: dict | None
    max_win: int
    method: str


def without_round_rules(ms: MathSet) -> MathSet:
    """``ms`` without the configurations of the rules that act on the round's total (its uncapped game)."""
    names = {r.name for r in rules_of(ms.model) if r.acts_on_round}
    model = dataclasses.replace(ms.model, rules=tuple(c for c in ms.model.rules if c.rule not in names))
    return dataclasses.replace(ms, model=model)


def round_distribution(ms: MathSet) -> RoundDistribution:
    """The exact round-win distribution of ``ms`` before the rules that act on it.

    Raises
    ------
    strips.errors.UnsupportedRule
        More stop combinations than the enumeration limit; a rule the win distribution refuses.

    Examples
    --------
    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "max_win": 3},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "B"], ["A", "B"]]})
    >>> d = round_distribution(ms)
    >>> d.probabilities, d.method
    ({0: Fraction(1, 2), 1: Fraction(1, 4), 5: Fraction(1, 4)}, 'enumeration of 4 stop combinations')
    """
    plain = without_round_rules(ms)
    if one_spin_round(ms.model) and phase_path(plain.model) is not None:   # enumerated falls, drawn values
        a = analyse_phase(plain, plain.model.base_phase)
        probs = a.win_probabilities()
        return RoundDistribution(probs, max(probs), a.method)
    if one_spin_round(ms.model):
        try:
            h = spin_histogram(plain)
            return RoundDistribution(h.probabilities(), h.max_win, f"enumeration of {h.combinations:,} stop combinations")
        except UnsupportedRule as e:
            if e.rule != "drawn values":
                raise
        d = spin_distribution(plain, plain.model.base_phase)
        probs = {x: p for x, p in d.marginal() if p}
        return RoundDistribution(probs, max(probs), "one-spin distribution (exact dynamic programme over the reels)")
    wd = win_distribution(plain)
    if wd.round.is_exact:
        probs = {x: p for x, p in wd.round.exact.items() if p}
        return RoundDistribution(probs, max(probs), "exact round win distribution (base spin and free-spin chain)")
    if wd.max_round_exact:
        return RoundDistribution(None, wd.max_round_win, "the exact largest round win (the round distribution is "
                                 f"known within {wd.round.bound:.1e})")
    raise UnsupportedRule("unsupported rule: the round's largest win is not exact (endless retrigger): a rule on the "
                          "round's total win cannot be computed exactly", rule="round total", analysis="report")


def round_sections(ms: MathSet) -> dict:
    """Rule name -> section of every rule that acts on the round's total win (empty when none).

    Raises
    ------
    strips.errors.UnsupportedRule
        As :func:`round_distribution`, or a rule whose section needs the whole distribution when only
        the largest win is exact and the rule applies.
    """
    out = {}
    for r in rules_of(ms.model):
        if r.adds_to_round:
            if r.name not in FEATURE_SECTIONS:
                raise KeyError(f"rule {r.name!r} adds to the round but has no section in exact.rounds.FEATURE_SECTIONS")
            base = analyse_phase(ms, ms.model.base_phase)
            out[r.name] = FEATURE_SECTIONS[r.name](ms, base.mean, base.second)
    rules = [r for r in rules_of(ms.model) if r.acts_on_round]
    if not rules:
        return out
    d = round_distribution(ms)
    for r in rules:
        section = r.section(r.config(ms.model), ms.model.bet, d.probabilities or {}, d.method, d.max_win)
        if section.reached and d.probabilities is None:
            raise UnsupportedRule(f"unsupported rule: {r.name}: rounds reach it and their distribution is known "
                                  f"only within a bound ({d.method}); the exact report does not take it",
                                  rule=r.name, analysis="report")
        out[r.name] = section
    return out


def apply_sections(rr, sections: dict):
    """The round ``rr`` (a :class:`markov.round.RoundResult`) with the moments of every section that
    applies (a cap some round reaches) and its component (``win_cap``: minus what it removes), so the
    components still sum to the mean."""
    for name, s in sections.items():
        if s.reached:
            o = s.overrides()
            rr = dataclasses.replace(rr, mean=o["mean"], second=o["second"],
                                     components={**rr.components, **s.components()})
    return rr


def view_sections(ms: MathSet, default) -> dict:
    """Rule name -> section of every rule that reports on the finished round (``Rule.reports_on_round``),
    from the default mode's result ``default`` (its round already with the sections of
    :func:`round_sections`)."""
    out = {}
    for r in rules_of(ms.model):
        if r.reports_on_round:
            if r.name not in VIEW_SECTIONS:
                raise KeyError(f"rule {r.name!r} reports on the round but has no section in exact.rounds.VIEW_SECTIONS")
            out[r.name] = VIEW_SECTIONS[r.name](ms, default)
    return out


def feature_spins(ms: MathSet, phase, window) -> dict:
    """Rule name -> what the base ``window`` starts of each rule that adds a feature to the round
    (``FEATURE_SPINS``; empty outside the base game)."""
    if phase.name != "base":
        return {}
    return {r.name: FEATURE_SPINS[r.name](ms, window) for r in rules_of(ms.model) if r.adds_to_round}
