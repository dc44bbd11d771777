"""The free-spin ladder chain (markov.chain) against rules page section 11.

Oracles: the page's scenario tables A-D, arithmetic done by hand in the
comments, exhaustive enumeration of outcome sequences and a seeded Monte Carlo
run (tests/test_markov_oracle.py), none of which uses markov.
"""
from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from markov.moments import CountSplit
from markov.chain import (
    END,
    Ladder,
    PathLevel,
    State,
    check_phase,
    feature_result,
    feature_results,
    features_by_trigger,
    ladder_of,
    model_ladder,
    play,
    validate_split,
)
from generators import enumerate_feature, phase_analysis, rules_page_model, simulate_feature, split_of

HALF = F(1, 2)


def forced(k: int, win: int) -> CountSplit:
    """A split where every spin has exactly ``k`` KEY symbols and wins ``win`` credits."""
    return split_of([(F(1), k, F(win))])


def rules_page_ladder(splits=None) -> Ladder:
    """The rules-page ladder (thresholds 3/6/9, 8 spins, x1/x2/x5/x10 from game.toml)."""
    model = rules_page_model()
    return model_ladder(model, splits or [split_of([(HALF, 0, F(0)), (HALF, 1, F(lv.multiplier))])
                                          for lv in model.levels])


def ladder(outcomes, thresholds, spins) -> Ladder:
    return Ladder(tuple(thresholds), tuple(spins), (1,) * len(outcomes),
                  tuple(split_of(o) for o in outcomes))


# ---------------------------------------------------------------------------
# section 11 scenarios A-D: (level, multiplier, spins, KEY in level, KEY total, next level)
# typed from the page's tables
# ---------------------------------------------------------------------------
SCENARIOS = {
    "A": ([1, 0, 0, 0, 0, 1, 0, 0, 0, 0],
          [(1, 1, 10, 2, 2, None)]),
    "B": ([0, 1, 0, 0, 2, 0, 0, 0, 0, 0] + [0, 0, 1, 0, 0, 0, 1, 0],
          [(1, 1, 10, 3, 3, 2), (2, 2, 8, 2, 5, None)]),
    "C": ([3, 0, 2, 0, 0, 1, 0, 0, 1, 0] + [0] * 8 + [0, 0, 0, 0, 0, 0, 0, 1],
          [(1, 1, 10, 7, 7, 2), (2, 2, 8, 0, 7, 3), (3, 5, 8, 1, 8, None)]),
    "D": ([1, 1, 1, 1, 0, 0, 0, 0, 0, 0] + [0, 2, 0, 0, 0, 0, 0, 0] + [1, 0, 1, 0, 0, 0, 0, 1]
          + [0, 0, 0, 0, 0, 0, 2, 0],
          [(1, 1, 10, 4, 4, 2), (2, 2, 8, 2, 6, 3), (3, 5, 8, 3, 9, 4), (4, 10, 8, 2, 11, None)]),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_level_sequence(name):
    keys, table = SCENARIOS[name]
    assert sum(keys) == table[-1][4]
    assert play(rules_page_ladder(), 10, keys) == tuple(PathLevel(*row) for row in table)


def test_scenario_c_counter_above_higher_threshold_does_not_skip():
    # 7 KEY symbols on level 1 pass the level 3 threshold (6), yet level 2 comes next
    path = play(rules_page_ladder(), 10, SCENARIOS["C"][0])
    assert [row.level for row in path] == [1, 2, 3]


def test_forced_splits_end_after_level_1_like_scenario_a():
    # 0 KEY on every spin of level 1: 0 < 3, the free spins end after 10 spins
    lad = rules_page_ladder([forced(0, 1), forced(0, 2), forced(0, 5), forced(0, 10)])
    r = feature_result(lad, 10)
    assert r.reach == (1, 0, 0, 0) and r.final_level == (1, 0, 0, 0)
    assert r.spins_by_level == (10, 0, 0, 0) and r.keys == 0
    assert (r.mean, r.variance) == (10, 0)


@pytest.mark.parametrize("initial, ks, final, keys", [
    (3, (1, 0, 0, 0), 2, 3),    # like B: 3 after level 1 starts level 2; 3 < 6 ends after level 2
    (7, (1, 0, 0, 0), 3, 7),    # like C: 7 >= 3 -> level 2, 7 >= 6 -> level 3, 7 < 9 ends
    (4, (1, 1, 0, 0), 4, 12),   # like D: 4 -> level 2, 12 -> levels 3 and 4, ends after the top level
    (10, (1, 0, 0, 0), 4, 10),  # 10 KEY on level 1: levels 2, 3, 4 each still play their own 8 spins
])
def test_forced_splits_play_the_page_level_sequence(initial, ks, final, keys):
    wins = (1, 2, 5, 10)
    lad = rules_page_ladder([forced(k, w) for k, w in zip(ks, wins)])
    r = feature_result(lad, initial)
    levels = (initial, 8, 8, 8)
    assert r.reach == tuple(int(i < final) for i in range(4))
    assert r.final_level == tuple(int(i == final - 1) for i in range(4))
    assert r.spins_by_level == tuple(levels[i] * (i < final) for i in range(4))
    assert r.keys == keys
    win = sum(levels[i] * wins[i] for i in range(final))
    assert (r.mean, r.second, r.variance) == (win, win * win, 0)
    assert r.win_by_level == tuple(levels[i] * wins[i] * (i < final) for i in range(4))


# ---------------------------------------------------------------------------
# tiny ladders by hand
# ---------------------------------------------------------------------------
def test_hand_two_levels_one_spin_each():
    # level 1: 1 spin, k=1 w.p. 1/2 winning 2; level 2 (threshold 1): 1 spin, k=1 w.p. 1/2 winning 10
    # F = 0 w.p. 1/2 (k1=0), 2 w.p. 1/4 (k1=1,k2=0), 12 w.p. 1/4 (k1=k2=1)
    # E[F] = 2/4 + 12/4 = 7/2; E[F^2] = 4/4 + 144/4 = 37; Var = 37 - 49/4 = 99/4
    lad = ladder([[(HALF, 0, F(0)), (HALF, 1, F(2))], [(HALF, 0, F(0)), (HALF, 1, F(10))]], (0, 1), (None, 1))
    r = feature_result(lad, 1)
    assert (r.mean, r.second, r.variance) == (F(7, 2), 37, F(99, 4))
    assert r.reach == (1, HALF) and r.final_level == (HALF, HALF)
    assert r.spins_by_level == (1, HALF) and r.spins == F(3, 2)
    assert r.keys == F(3, 4)                       # 1/2 + 1/2 * 1/2
    assert r.win_by_level == (1, F(5, 2))          # 1 * E[W1] = 1 ; 1/2 * E[W2] = 1/2 * 5


def test_hand_counter_never_resets():
    # 3 levels of 1 spin, KEY w.p. 1/2 (win 1 x level number), thresholds 1 and 1:
    # the KEY of level 1 also opens level 3, so reach = 1, 1/2, 1/2 (not 1/4)
    # E[F] = 1 * 1/2 + 1/2 * (2 * 1/2) + 1/2 * (3 * 1/2) = 1/2 + 1/2 + 3/4 = 7/4
    out = [[(HALF, 0, F(0)), (HALF, 1, F(i))] for i in (1, 2, 3)]
    r = feature_result(ladder(out, (0, 1, 1), (None, 1, 1)), 1)
    assert r.reach == (1, HALF, HALF) and r.final_level == (HALF, 0, HALF)
    assert r.mean == F(7, 4)


def test_hand_thresholds_need_keys_in_total():
    # same ladder, thresholds 1 and 2: level 3 needs a KEY on both spins: reach = 1, 1/2, 1/4
    # E[F] = 1/2 + 1/2 * 1 + 1/4 * 3/2 = 11/8
    out = [[(HALF, 0, F(0)), (HALF, 1, F(i))] for i in (1, 2, 3)]
    r = feature_result(ladder(out, (0, 1, 2), (None, 1, 1)), 1)
    assert r.reach == (1, HALF, F(1, 4)) and r.final_level == (HALF, F(1, 4), F(1, 4))
    assert r.mean == F(11, 8)
    assert r.keys == F(1, 2) + F(1, 4) + F(1, 8)   # E[K] per spin 1/2 x expected spins 1 + 1/2 + 1/4


def test_hand_counter_cap_keeps_the_true_count():
    # level 1: 2 spins, each 2 KEY w.p. 1/2 (else 0); level 2 threshold 2, 1 spin, 2 KEY always.
    # The state counter is capped at 2, but the expected KEY count is uncapped:
    # level 1: 2 spins x 1 KEY = 2; reach level 2 = P(any KEY on level 1) = 3/4; + 3/4 x 2 = 7/2
    out = [[(HALF, 0, F(0)), (HALF, 2, F(0))], [(F(1), 2, F(0))]]
    lad = ladder(out, (0, 2), (None, 1))
    assert lad.cap == 2
    r = feature_result(lad, 2)
    assert r.reach == (1, F(3, 4)) and r.keys == F(7, 2)


def test_joint_moments_not_product_of_marginals():
    # level 1: 1 spin; k=1 with win 4 w.p. 1/2, k=0 with win 0. Level 2 (threshold 1), 1 spin, win 6.
    # F = 0 (1/2) or 4 + 6 = 10 (1/2): E[F^2] = 50. Treating the spin's win as independent of k
    # would give E[W1]E[F2] cross terms 2 * 2 * 3 = 12 instead of 2 * E[W1 1{k=1}] * 6 = 24.
    lad = ladder([[(HALF, 0, F(0)), (HALF, 1, F(4))], [(F(1), 0, F(6))]], (0, 1), (None, 1))
    r = feature_result(lad, 1)
    assert (r.mean, r.second) == (5, 50)


# ---------------------------------------------------------------------------
# brute force: every outcome sequence
# ---------------------------------------------------------------------------
SMALL = [
    # (outcomes per level, thresholds, spins): several wins per KEY count, 0..2 KEYs
    ([[(F(1, 2), 0, F(0)), (F(1, 6), 0, F(3)), (F(1, 4), 1, F(2)), (F(1, 12), 2, F(7))],
      [(F(2, 3), 0, F(1)), (F(1, 3), 1, F(4))],
      [(F(1, 5), 0, F(0)), (F(3, 5), 1, F(10)), (F(1, 5), 2, F(30))]],
     (0, 2, 3), (None, 2, 2)),
    ([[(F(3, 4), 0, F(1)), (F(1, 4), 1, F(0))],
      [(F(1, 2), 0, F(0)), (F(1, 2), 3, F(5))],
      [(F(1, 3), 0, F(2)), (F(2, 3), 1, F(9))],
      [(F(1), 0, F(11))]],
     (0, 1, 1, 4), (None, 1, 2, 1)),
]


@pytest.mark.parametrize("case", range(len(SMALL)))
@pytest.mark.parametrize("initial", [1, 2, 3])
def test_exact_equals_brute_force(case, initial):
    out, thresholds, spins = SMALL[case]
    r = feature_result(ladder(out, thresholds, spins), initial)
    b = enumerate_feature(out, thresholds, spins, initial)
    assert (r.mean, r.second) == (b.mean, b.second)
    assert list(r.reach) == b.reach and list(r.final_level) == b.final_level
    assert list(r.spins_by_level) == b.spins_by_level and list(r.win_by_level) == b.win_by_level
    assert r.keys == b.keys


outcome = st.tuples(st.integers(1, 4), st.integers(0, 2), st.integers(0, 9))


@settings(max_examples=30, deadline=None)
@given(levels=st.lists(st.lists(outcome, min_size=1, max_size=3), min_size=1, max_size=3),
       thresholds=st.lists(st.integers(0, 4), min_size=3, max_size=3),
       spins=st.lists(st.integers(1, 2), min_size=3, max_size=3),
       initial=st.integers(1, 3))
def test_exact_equals_brute_force_random_ladders(levels, thresholds, spins, initial):
    out = []
    for lv in levels:
        total = sum(w for w, _, _ in lv)
        out.append([(F(w, total), k, F(x)) for w, k, x in lv])
    n = len(out)
    th, sp = (0,) + tuple(sorted(thresholds))[1:n], (None,) + tuple(spins[1:n])
    r = feature_result(ladder(out, th, sp), initial)
    b = enumerate_feature(out, th, sp, initial)
    assert (r.mean, r.second, r.keys) == (b.mean, b.second, b.keys)
    assert list(r.reach) == b.reach and list(r.spins_by_level) == b.spins_by_level


def test_one_backward_pass_serves_every_trigger():
    out, thresholds, spins = SMALL[0]
    lad = ladder(out, thresholds, spins)
    together = feature_results(lad, (3, 1, 2))
    assert together == tuple(feature_result(lad, n) for n in (3, 1, 2))


# ---------------------------------------------------------------------------
# Monte Carlo, seeded
# ---------------------------------------------------------------------------
def test_monte_carlo_within_999_interval():
    out, thresholds, spins = SMALL[0]
    r = feature_result(ladder(out, thresholds, spins), 3)
    n = 200_000
    wins, reached = simulate_feature(out, thresholds, spins, 3, n, seed=20261129)
    z = 3.2905  # two-sided 99.9%
    assert abs(wins.mean() - float(r.mean)) < z * math.sqrt(float(r.variance) / n)
    for i in range(3):
        p = float(r.reach[i])
        assert abs(np.mean(reached >= i + 1) - p) <= z * math.sqrt(p * (1 - p) / n) + 1e-15


# ---------------------------------------------------------------------------
# model glue
# ---------------------------------------------------------------------------
def test_ladder_of_reads_the_model_ladder():
    model = rules_page_model()
    splits = [split_of([(HALF, 0, F(i)), (HALF, 1, F(0))]) for i in range(4)]
    lad = ladder_of(model, [phase_analysis(s) for s in splits])
    assert lad.thresholds == (0, 3, 6, 9) and lad.spins == (None, 8, 8, 8)
    assert lad.multipliers == (1, 2, 5, 10) and lad.cap == 9
    assert lad.splits == tuple(splits)


def test_features_by_trigger_maps_scatter_counts_to_initial_spins():
    lad = rules_page_ladder()
    res = features_by_trigger(rules_page_model(), lad, range(6))
    assert sorted(res) == [3, 4, 5]
    assert [res[n].initial_spins for n in (3, 4, 5)] == [10, 15, 20]
    assert res[4] == feature_result(lad, 15)


def test_step_and_transitions():
    lad = rules_page_ladder()
    assert lad.step(State(1, 2, 8), 3) == State(1, 1, 9)          # capped at 9
    assert lad.step(State(1, 1, 2), 1) == State(2, 8, 3)          # threshold 3 reached
    assert lad.step(State(1, 1, 2), 0) == END
    assert lad.step(State(2, 1, 9), 0) == State(3, 8, 9)          # no skip to level 4
    assert lad.step(State(4, 1, 9), 1) == END                     # top level complete
    assert [t[0] for t in lad.transitions(State(1, 3, 0))] == [0, 1]
    states = lad.reachable([10])
    assert states[0] == State(1, 10, 0)
    assert all(s.level == 1 or s.keys >= lad.thresholds[s.level - 1] for s in states)


# ---------------------------------------------------------------------------
# validation: one test per rule
# ---------------------------------------------------------------------------
GOOD = split_of([(HALF, 0, F(1)), (HALF, 1, F(2))])


def test_raises_probabilities_not_summing_to_one():
    with pytest.raises(ValueError, match="sum to 3/4"):
        validate_split(CountSplit((HALF, F(1, 4)), (0, 0), (0, 0)), "x")


def test_raises_lengths_differ():
    with pytest.raises(ValueError, match="equal length"):
        validate_split(CountSplit((HALF, HALF), (0,), (0, 0)), "x")


def test_raises_empty_split():
    with pytest.raises(ValueError, match="non-empty"):
        validate_split(CountSplit((), (), ()), "x")


def test_raises_float_entry():
    with pytest.raises(ValueError, match="not an exact"):
        validate_split(CountSplit((0.5, HALF), (0, 0), (0, 0)), "x")


def test_raises_probability_outside_unit_interval():
    with pytest.raises(ValueError, match="outside"):
        validate_split(CountSplit((F(3, 2), -HALF), (0, 0), (0, 0)), "x")


def test_raises_negative_second_moment():
    with pytest.raises(ValueError, match="negative"):
        validate_split(CountSplit((HALF, HALF), (0, 0), (0, -1)), "x")


def test_raises_win_on_impossible_count():
    with pytest.raises(ValueError, match="probability 0"):
        validate_split(CountSplit((F(1), F(0)), (0, 1), (0, 1)), "x")


def test_raises_ladder_without_levels():
    with pytest.raises(ValueError, match="at least one level"):
        Ladder((), (), (), ())


def test_raises_ladder_lengths_differ():
    with pytest.raises(ValueError, match="differ in length"):
        Ladder((0, 1), (None,), (1,), (GOOD,))


def test_raises_level_without_spins():
    with pytest.raises(ValueError, match="spins >= 1"):
        Ladder((0, 1), (None, 0), (1, 2), (GOOD, GOOD))


def test_raises_ladder_with_invalid_split():
    with pytest.raises(ValueError, match="level 2 KEY split"):
        Ladder((0, 1), (None, 1), (1, 2), (GOOD, CountSplit((HALF,), (0,), (0,))))


def test_raises_no_initial_spins():
    with pytest.raises(ValueError, match="initial free spins"):
        feature_result(ladder([[(F(1), 0, F(0))]], (0,), (None,)), 0)


def test_raises_wrong_number_of_level_analyses():
    with pytest.raises(ValueError, match="3 level analyses given for 4 levels"):
        ladder_of(rules_page_model(), [phase_analysis(GOOD)] * 3)


def test_raises_split_disagrees_with_phase():
    pa = phase_analysis(GOOD)
    with pytest.raises(ValueError, match="differ from the phase"):
        check_phase(pa, split_of([(F(1), 0, F(1))]), "level 1 KEY split")


def test_raises_key_sequence_too_short():
    with pytest.raises(ValueError, match="end before the free spins end"):
        play(rules_page_ladder(), 10, [0] * 9)


def test_raises_key_sequence_too_long():
    with pytest.raises(ValueError, match="ended after 10 spins"):
        play(rules_page_ladder(), 10, [0] * 11)
