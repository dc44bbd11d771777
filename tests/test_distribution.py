"""The win distribution (exact.distribution) against brute force through the rules-page evaluator.

One spin: every stop combination, FISH value and drawn WILD multiplier of small random math sets
evaluated literally (tests/oracle.py), compared exactly with the dynamic programme.
"""
from __future__ import annotations

import os
from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from exact.distribution import (KEY_COUNT, SCATTER_COUNT, from_limbs, limb_product, limb_sum, spin_distribution,
                                to_limbs)
from exact.engine import analyse, analyse_phase
from oracle import brute_spin_distribution, make_set, marginal_of, small_fish_model
from test_engine import small_sets, with_partial_wild, with_scatter_pays, with_wild_multiplier

settings.register_profile("default", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def assert_spin_equal(ms, phase):
    brute = brute_spin_distribution(ms, phase)
    by_scatter = spin_distribution(ms, phase, SCATTER_COUNT)
    by_key = spin_distribution(ms, phase, KEY_COUNT)
    assert by_scatter.joint() == marginal_of(brute, (0, 2))
    assert by_key.joint() == marginal_of(brute, (1, 2))
    assert by_scatter.marginal() == sorted(marginal_of(brute, (2,)).items())
    assert by_key.marginal() == by_scatter.marginal()
    assert by_scatter.mean == analyse_phase(ms, phase).mean
    return by_scatter


@given(small_sets())
def test_base_spin_distribution_equals_brute_force(ms):
    assert_spin_equal(ms, ms.model.base_phase)


@given(small_sets())
def test_free_spin_distribution_equals_brute_force(ms):
    for level in (ms.model.levels[0], ms.model.levels[-1]):
        assert_spin_equal(ms, ms.model.level_phase(level))


@settings(max_examples=2 * settings.default.max_examples)
@given(small_sets(multipliers=True))
def test_wild_multiplier_spin_distribution_equals_brute_force(ms):
    assert_spin_equal(ms, ms.model.base_phase)
    assert_spin_equal(ms, ms.model.level_phase(ms.model.levels[-1]))


def test_five_reels_general_windows_equal_brute_force():
    """5 reels x 2 rows: several specials and WILDs (drawn per reel and per WILD) on one reel, scatter pays."""
    model = with_scatter_pays(with_partial_wild(small_fish_model(rows=2)))
    from strips.model import WildMultiplier
    model = with_wild_multiplier(model, "WILD", WildMultiplier(values=(2, 3), mode="reel",
                                                               weights={"base": (1, 2), "level4": (3, 1)}),
                                 bonus_reels=range(1, 5))
    base = [["PIC1", "KEY", "FS", "FISH1", "AUS1"],
            ["WILD", "WILD", "FISH2", "KEY", "PIC1"],
            ["KEY", "FS", "WILD", "PIC1", "FISH1"],
            ["FISH3", "WILD", "PIC2", "FS"],
            ["FISH4", "FS", "PIC1", "WILD"]]
    bonus = [["PIC1", "KEY", "FISH1", "KEY"],
             ["KEY", "PIC1", "FISH2", "AUS2"],
             ["KEY", "WILD", "PIC1", "PIC1"],
             ["FISH3", "PIC1", "FISH1", "WILD"],
             ["FISH4", "PIC1", "PIC2", "FISH1"]]
    ms = make_set(model, base, bonus)
    d = assert_spin_equal(ms, model.base_phase)
    assert d.max_win > 0 and max(d.counts) >= 4
    assert_spin_equal(ms, model.level_phase(model.levels[3]))


def test_bundled_base_and_levels_mass_one_and_engine_mean():
    """Full size: mass exactly 1, mean exactly the engine's, counts exactly the engine's split."""
    from strips.loader import load_math_set
    ms = load_math_set()
    ga = analyse(ms)
    d = spin_distribution(ms, ms.model.base_phase)
    assert sum(p for _, p in d.marginal()) == 1
    assert d.mean == ga.base.mean
    cp = d.count_probabilities()
    assert tuple(cp.get(i, 0) for i in range(len(ga.base.by_scatter.prob))) == ga.base.by_scatter.prob
    for lv, pa in zip(ms.model.levels, ga.levels):
        dk = spin_distribution(ms, ms.model.level_phase(lv), KEY_COUNT)
        assert dk.mean == pa.mean
        cp = dk.count_probabilities()
        assert tuple(cp.get(i, 0) for i in range(len(pa.by_key.prob))) == pa.by_key.prob
        # E[W 1{K = k}] per KEY count: the engine's split
        for k, w in enumerate(pa.by_key.win):
            sel = dk.counts == k
            assert Fraction(int(np.dot(dk.wins[sel].astype(object), dk.weights[sel])), dk.total) == w


@given(st.lists(st.integers(0, 2**130), min_size=1, max_size=30), st.lists(st.integers(0, 2**90), min_size=1,
                                                                          max_size=30))
def test_limb_arithmetic_is_exact(a, b):
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    la, lb = to_limbs(a), to_limbs(b)
    assert list(from_limbs(la)) == a
    assert list(from_limbs(limb_product(la, lb))) == [x * y for x, y in zip(a, b)]
    starts = np.array(sorted({0, n // 2, n - 1}), dtype=np.int64)
    sums = from_limbs(limb_sum(la, starts))
    bounds = list(starts) + [n]
    assert list(sums) == [sum(a[bounds[i]:bounds[i + 1]]) for i in range(len(starts))]


def test_doctests():
    import doctest
    import exact.distribution
    assert doctest.testmod(exact.distribution).failed == 0
