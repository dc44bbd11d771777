"""The one-spin win distribution of payline games (:func:`exact.one_spin.line_spin_distribution`, the joint
chain of every payline) against the brute force over every stop combination through the literal evaluator,
exactly; and its mean against the payline engine's exact RTP.

Random small line games (tests/generators.py ``line_games``): crossing paylines, a WILD with and without own
pays and a fixed or drawn combination multiplier, a second WILD, scatter pays, a second paying scatter, a
WILD that counts as a scatter, trigger reels, free spins with a level multiplier.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings

from exact.engine import analyse, analyse_phase
from exact.feature_runner import win_distribution
from exact.one_spin import line_spin_distribution, spin_distribution
from exact.rules import supports
from gen_line_rules import catalogue_line_games
from generators import game_text, line_games, model_of
from markov.round import round_result
from oracle import brute_line_spin_distribution, make_set
from strips.errors import UnsupportedRule, UsageError
from strips.limits import Limits, using


def assert_phase_equal(ms, phase):
    d = line_spin_distribution(ms, phase)
    assert d.joint() == {k: v for k, v in brute_line_spin_distribution(ms, phase).items() if v}
    assert d.mean == analyse_phase(ms, phase).mean


@settings(max_examples=12, deadline=None)
@given(line_games(max_stops=3))
def test_line_spin_distribution_equals_brute_force(ms):
    model = ms.model
    if model.multiplier_by_trigger:     # the feature runner does not scale a feature by its trigger count
        with pytest.raises(UnsupportedRule, match="multiplier_by_trigger"):
            line_spin_distribution(ms, model.base_phase)
        return
    assert_phase_equal(ms, model.base_phase)
    assert_phase_equal(ms, model.level_phase(model.levels[0]))


@settings(max_examples=4, deadline=None)
@given(line_games(max_stops=3))
def test_spin_distribution_dispatches_line_games(ms):
    if not ms.model.multiplier_by_trigger:
        d = spin_distribution(ms, ms.model.base_phase)
        assert d.joint() == line_spin_distribution(ms, ms.model.base_phase).joint()


@settings(max_examples=4, deadline=None)
@given(line_games(max_stops=3))
def test_round_distribution_of_line_games_has_the_engines_rtp(ms):
    """The round through the feature runner (capped retrigger: exact Fractions): its mean is the engine's exact
    round mean, its probabilities sum to 1."""
    if ms.model.multiplier_by_trigger:
        with pytest.raises(UnsupportedRule, match="multiplier_by_trigger"):
            win_distribution(ms, exact=True)
        return
    wd = win_distribution(ms, exact=True)
    ga = analyse(ms)
    assert wd.round.is_exact
    assert wd.round.mean == round_result(ms.model, ga.base, ga.levels).mean
    assert sum(wd.round.exact.values()) == 1


def test_a_ways_game_with_trigger_reels_is_still_refused():
    """The trigger rules of line games run in the joint payline chain only: a ways game with trigger reels is
    refused in one line naming the rule."""
    text = game_text(3, 2, [(0, 0, 0)], trigger_reels=[1, 3])
    ms = make_set(model_of(text.replace('evaluation = "lines"', "").replace("[lines]\npaylines = [[1, 1, 1]]", "")),
                  [["A", "S", "B"]] * 3)
    with pytest.raises(UnsupportedRule, match="trigger_reels"):
        win_distribution(ms)


def test_the_step_refuses_beyond_the_seconds_limit():
    """The work limit: a step estimated above ``--max-seconds`` is refused in one line naming the option."""
    ms = make_set(model_of(game_text(3, 2, [(0, 0, 0), (1, 1, 1)])), [["A", "B", "C", "W", "S"]] * 3)
    with using(Limits(seconds=0)), pytest.raises(UsageError, match="--max-seconds"):
        line_spin_distribution(ms, ms.model.base_phase)


@settings(max_examples=6, deadline=None)
@given(catalogue_line_games())
def test_the_catalogues_line_readings_are_equal_to_brute_force_or_refused_by_name(ms):
    """A game with the catalogue's line rules (both-way and centre pays, per-WILD multipliers, groups, blank
    stops, expanding WILDs, screen fills): the distribution equals the brute force where the win
    distribution's support admits the game, else it is refused naming the rule."""
    s = supports(ms, "distribution")
    if s:
        assert_phase_equal(ms, ms.model.base_phase)
    else:
        with pytest.raises(UnsupportedRule, match=re.escape(s.reason)):
            line_spin_distribution(ms, ms.model.base_phase)
