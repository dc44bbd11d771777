"""A whole game round (markov.round) against brute force and its own invariants.

Rules page sections 2 (round win = base spin + free spins), 10 (trigger table), 11.
"""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from strips.model import GameModel, Level, StripRules
from markov.chain import feature_result, ladder_of
from markov.round import round_result
from generators import feature_paths, phase_analysis, rules_page_inputs, split_of
from exact.rules import initial_spins

HALF = F(1, 2)

# tiny game: 1 FS -> 1 free spin, 2 FS -> 2 free spins; level 2 needs 1 KEY, plays 1 spin
TINY = GameModel(name="tiny", reels=2, rows=1, bet=2, symbols=(), strip_files={},
                 strip_rules=StripRules(), trigger=((1, 1), (2, 2)), free_spin_strips="bonus",
                 levels=(Level(1, 0, None, 1, "level1"), Level(2, 1, 1, 2, "level2")))
# base spin outcomes (probability, FS count, win); wins are correlated with the FS count
BASE = [(F(1, 2), 0, F(0)), (F(1, 6), 0, F(3)), (F(1, 6), 1, F(1)), (F(1, 12), 1, F(4)), (F(1, 12), 2, F(5))]
LEVELS = [[(F(1, 2), 0, F(0)), (F(1, 4), 1, F(2)), (F(1, 4), 0, F(6))],
          [(F(1, 3), 0, F(4)), (F(2, 3), 1, F(10))]]


def tiny_result(ways_share=F(1, 3)):
    base_split = split_of(BASE)
    base = phase_analysis(base_split, "base", scatter=base_split, ways_share=ways_share)
    return round_result(TINY, base, [phase_analysis(split_of(o)) for o in LEVELS])


def test_round_mean_and_variance_equal_brute_force():
    # every base outcome, then every free-spin outcome sequence of its trigger; X = B + F literally
    mean = second = F(0)
    for p, n, b in BASE:
        spins = initial_spins(TINY, n)
        paths = feature_paths(LEVELS, (0, 1), (None, 1), spins) if spins else [(F(1), [F(0)], 0, [0])]
        for q, wins, _, _ in paths:
            x = b + sum(wins)
            mean += p * q * x
            second += p * q * x * x
    r = tiny_result()
    assert (r.mean, r.second) == (mean, second)
    assert r.variance == second - mean * mean
    assert r.rtp == mean / 2


def test_round_covariance_term_matters():
    # E[B F] = sum_n E[B 1{n}] E[F | n], here not E[B] E[F]: dropping it changes the second moment
    r = tiny_result()
    f1, f2 = r.features[1].mean, r.features[2].mean
    assert r.base_feature == F(1, 6) * 1 * f1 + F(1, 12) * 4 * f1 + F(1, 12) * 5 * f2
    assert r.base_feature_covariance != 0


def test_round_invariants_tiny():
    r = tiny_result()
    assert r.components["base_ways"] + r.components["base_collect"] + r.components["free_spins"] == r.mean
    assert sum(r.free_spins_by_level) == r.free_spins
    assert r.trigger_prob == {1: F(1, 4), 2: F(1, 12)}
    assert r.trigger_probability == F(1, 3) == r.reach[0]
    s = r.rtp_split
    assert sum(s.values()) == r.rtp and s["base scatter"] == 0
    assert r.rtp_by_level["level 1"] + r.rtp_by_level["level 2"] == s["free spins"]


def test_round_rules_page_shape():
    # rules-page ladder with hand-built splits: triggers 3/4/5 FS -> 10/15/20 spins
    model, base, levels = rules_page_inputs()
    r = round_result(model, base, levels)
    assert sorted(r.trigger_prob) == [3, 4, 5]
    assert [r.features[n].initial_spins for n in (3, 4, 5)] == [10, 15, 20]
    assert r.features[5] == feature_result(ladder_of(model, levels), 20)
    assert r.trigger_probability == F(10, 1000)
    assert r.free_spins == sum(r.trigger_prob[n] * r.features[n].mean for n in (3, 4, 5))
    assert r.free_spins_played == sum(r.trigger_prob[n] * r.features[n].spins for n in (3, 4, 5))
    assert r.reach[3] == sum(r.trigger_prob[n] * r.features[n].reach[3] for n in (3, 4, 5))
    assert r.components["base_ways"] + r.components["base_collect"] + r.components["free_spins"] == r.mean
    assert sum(r.free_spins_by_level) == r.free_spins
    for f in r.features.values():
        assert sum(f.final_level) == 1 and f.reach[0] == 1
        assert list(f.reach) == sorted(f.reach, reverse=True)
    assert r.bet == 10 and r.rtp == r.mean / 10


def test_raises_base_split_disagrees_with_base_mean():
    base_split = split_of(BASE)
    base = phase_analysis(base_split, "base", scatter=split_of(BASE[:-1] + [(F(1, 12), 2, F(6))]))
    with pytest.raises(ValueError, match="base FS split"):
        round_result(TINY, base, [phase_analysis(split_of(o)) for o in LEVELS])


def test_raises_pays_and_collect_do_not_sum_to_base_mean():
    base_split = split_of(BASE)
    base = phase_analysis(base_split, "base", scatter=base_split)
    bad = type(base)(**{**base.__dict__, "parts": {**base.parts, "collect": base.parts["collect"] + 1}})
    with pytest.raises(ValueError, match="parts mean"):
        round_result(TINY, bad, [phase_analysis(split_of(o)) for o in LEVELS])
