"""The factorised engine against the brute-force oracle (every stop combination, every
FISH value assignment and every drawn WILD multiplier through the rules-page evaluator), exactly.

Set HYPOTHESIS_PROFILE=thorough for hundreds of random strip sets (opt-in, long).
"""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from exact.engine import analyse, analyse_phase
from strips.model import WildMultiplier
from oracle import brute_force, make_set, small_fish_model
from generators import small_sets, with_partial_wild, with_scatter_pays, with_wild_multiplier



def padded(values, n):
    values = tuple(values)
    return values + (Fraction(0),) * (n - len(values))


def from_dict(d, n):
    return tuple(d.get(i, Fraction(0)) for i in range(n))


def assert_phase_equal(ms, phase):
    an = analyse_phase(ms, phase)
    bf = brute_force(ms, phase)
    n = max(len(an.by_scatter.prob), max(bf.prob_scatter) + 1)
    assert padded(an.by_scatter.prob, n) == from_dict(bf.prob_scatter, n)
    assert padded(an.by_scatter.win, n) == from_dict(bf.win_scatter, n)
    assert padded(an.by_scatter.win2, n) == from_dict(bf.win2_scatter, n)
    n = max(len(an.by_key.prob), max(bf.prob_key) + 1)
    assert padded(an.by_key.prob, n) == from_dict(bf.prob_key, n)
    assert padded(an.by_key.win, n) == from_dict(bf.win_key, n)
    assert padded(an.by_key.win2, n) == from_dict(bf.win2_key, n)
    assert dict(an.ways_by_symbol) == bf.ways_by_symbol
    assert an.collect_mean == bf.collect
    assert an.hit_frequency == bf.hit
    assert dict(an.oak_prob) == bf.oak
    assert an.key_2plus == sum((v for k, v in bf.prob_key.items() if k >= 2), Fraction(0))
    return an


@given(small_sets())
def test_base_phase_equals_brute_force(ms):
    assert_phase_equal(ms, ms.model.base_phase)


@given(small_sets())
def test_free_spin_level_equals_brute_force(ms):
    model = ms.model
    for level in (model.levels[0], model.levels[-1]):
        assert_phase_equal(ms, model.level_phase(level))


@settings(max_examples=3 * settings.default.max_examples)
@given(small_sets(multipliers=True))
def test_wild_multipliers_equal_brute_force(ms):
    """Every figure with fixed, per-WILD and per-reel drawn WILD multipliers, base game and a level."""
    assert_phase_equal(ms, ms.model.base_phase)
    assert_phase_equal(ms, ms.model.level_phase(ms.model.levels[-1]))


def test_five_reels_general_windows_equal_brute_force():
    """5 reels x 4 rows, windows with several specials and several WILDs on one reel."""
    model = small_fish_model()
    base = [["PIC1", "KEY", "FS", "FISH1", "AUS1"],
            ["WILD", "WILD", "FISH2", "KEY", "PIC1"],
            ["KEY", "FS", "FS", "PIC1", "FISH1"],
            ["FISH3", "WILD", "PIC2", "FS"],
            ["FISH4", "FS", "PIC1", "WILD"]]
    bonus = [["PIC1", "KEY", "FISH1", "KEY"],
             ["KEY", "PIC1", "FISH2", "AUS2"],
             ["KEY", "KEY", "PIC1", "PIC1"],
             ["FISH3", "PIC1", "FISH1", "AUS1"],
             ["FISH4", "PIC1", "PIC2", "FISH1"]]
    ms = make_set(model, base, bonus)
    an = assert_phase_equal(ms, model.base_phase)
    assert len(an.by_scatter.prob) > 5 - 1  # up to 2 FS on one reel: counts beyond 4 occur
    assert_phase_equal(ms, model.level_phase(model.levels[3]))


def test_wild_multipliers_on_five_reels_general_windows_equal_brute_force():
    """5 reels x 2 rows: WILD drawn per reel (PIC symbols), WILD2 drawn per WILD (AUS1, PIC1), with
    two WILDs on one reel, FISH, KEY and FS in the same windows; base game and level 4."""
    model = with_partial_wild(small_fish_model(rows=2))
    model = with_wild_multiplier(model, "WILD", WildMultiplier(values=(2, 3), mode="reel",
                                                               weights={"base": (1, 2), "level4": (3, 1)}),
                                 bonus_reels=range(1, 5))
    model = with_wild_multiplier(model, "WILD2", WildMultiplier(values=(1, 4), mode="wild",
                                                                weights={"base": (2, 1), "level4": (1, 1)}))
    base = [["PIC1", "WILD2", "AUS1", "KEY"],
            ["WILD", "WILD", "WILD2", "PIC1", "FISH1"],
            ["PIC1", "WILD", "FS", "AUS1"],
            ["WILD", "PIC1", "FISH3", "PIC2"],
            ["PIC1", "AUS1", "WILD", "FISH4"]]
    bonus = [["PIC1", "WILD2", "KEY", "AUS1"],
             ["WILD", "WILD", "PIC1", "FISH2"],
             ["KEY", "WILD", "PIC1"],
             ["PIC1", "WILD", "AUS1"],
             ["WILD", "PIC1", "FISH1"]]
    ms = make_set(model, base, bonus)
    an = assert_phase_equal(ms, model.base_phase)
    assert an.ways_by_symbol["PIC1"][4] > 0 and an.ways_by_symbol["AUS1"][2] > 0
    assert_phase_equal(ms, model.level_phase(model.levels[3]))


def test_invariants_on_random_sets():
    """Probabilities sum to 1; the per-symbol split sums to the ways mean; ways + collect = mean."""
    model = small_fish_model()
    ms = make_set(model, [["PIC1", "KEY", "AUS2", "FISH1", "PIC3", "FS"]] * 5,
                  [["PIC1", "KEY", "AUS2", "FISH1", "PIC3", "PIC4"]] * 5)
    for phase in model.phases:
        an = analyse_phase(ms, phase)
        assert sum(an.by_scatter.prob) == 1 and sum(an.by_key.prob) == 1
        assert sum(sum(v) for v in an.ways_by_symbol.values()) == an.parts["pays"]
        assert an.parts["pays"] + an.parts["collect"] + an.parts["scatter"] == an.mean == an.by_key.mean
        assert an.second == an.by_key.second
        for probs in an.oak_prob.values():
            assert sum(probs) <= 1


def test_scatter_pays_and_partial_wilds_on_five_reels_equal_brute_force():
    model = with_partial_wild(with_scatter_pays(small_fish_model()))
    base = [["PIC1", "WILD2", "FS", "AUS1"], ["WILD", "WILD2", "FS", "KEY", "PIC1"],
            ["KEY", "FS", "AUS1", "PIC1", "FISH1"], ["FISH3", "WILD", "PIC2", "FS"],
            ["FISH4", "FS", "PIC1", "WILD", "AUS1"]]
    ms = make_set(model, base, base[:1] + [["PIC1", "KEY", "AUS1", "FISH1"]] * 4)
    an = assert_phase_equal(ms, model.base_phase)
    assert an.parts["scatter"] > 0
    assert an.parts["pays"] + an.parts["collect"] + an.parts["scatter"] == an.mean


def test_results_are_fractions_not_floats():
    model = small_fish_model()
    ms = make_set(model, [["PIC1", "KEY", "AUS2", "FISH1"]] * 5, [["PIC1", "KEY", "AUS2", "FISH1"]] * 5)
    ga = analyse(ms)
    for an in (ga.base,) + ga.levels:
        for v in (an.mean, an.second, an.parts["pays"], an.parts["collect"], an.hit_frequency) + an.by_key.win2:
            assert type(v) is Fraction
