"""The factorised engine against the brute-force oracle (every stop combination, every
FISH value assignment and every drawn WILD multiplier through the rules-page evaluator), exactly.

Set HYPOTHESIS_PROFILE=thorough for hundreds of random strip sets (opt-in, long).
"""
from __future__ import annotations

import dataclasses
import os
from fractions import Fraction

from hypothesis import HealthCheck, given, settings, strategies as st

from exact.engine import analyse, analyse_phase
from strips.model import Symbol, WildMultiplier
from oracle import brute_force, make_set, small_fish_model

settings.register_profile("default", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("thorough", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def padded(values, n):
    values = tuple(values)
    return values + (Fraction(0),) * (n - len(values))


def from_dict(d, n):
    return tuple(d.get(i, Fraction(0)) for i in range(n))


def with_two_oak_pay(model):
    """Give PIC1 a 2 OAK pay so the 2 OAK path of the engine is exercised too."""
    syms = tuple(dataclasses.replace(s, pays=(0, 1) + s.pays[2:]) if s.name == "PIC1" else s for s in model.symbols)
    return dataclasses.replace(model, symbols=syms)


def with_scatter_pays(model):
    """FS pays 1, 2, 5, ... credits for 1, 2, 3, ... scatters anywhere in the window."""
    syms = tuple(dataclasses.replace(s, pays=(1, 2, 5, 20, 80)) if s.kind == "scatter" else s for s in model.symbols)
    return dataclasses.replace(model, symbols=syms)


def with_partial_wild(model):
    """WILD substitutes for the PIC symbols only, and a second wild WILD2 (base reels 1-2, bonus reel 1)
    substitutes for AUS1 and PIC1 only."""
    pics = frozenset(s.name for s in model.pay_symbols if s.name.startswith("PIC"))
    syms = [dataclasses.replace(s, substitutes=pics) if s.kind == "wild" else s for s in model.symbols]
    syms.append(Symbol("WILD2", "wild", pays=(0,) * model.reels,
                       reels={"base": frozenset({0, 1}), "bonus": frozenset({0})},
                       substitutes=frozenset({"AUS1", "PIC1"})))
    return dataclasses.replace(model, symbols=tuple(syms))


TABLES = ("base", "level1", "level2", "level3", "level4")


def with_wild_multiplier(model, name, mult, bonus_reels=None):
    """Give WILD symbol ``name`` the multiplier ``mult`` (a WildMultiplier or None), optionally
    also letting it stand on ``bonus_reels`` of the bonus strips (so the free-spin levels see it)."""
    def change(s):
        if s.name != name:
            return s
        reels = dict(s.reels)
        if bonus_reels is not None:
            reels["bonus"] = frozenset(bonus_reels)
        return dataclasses.replace(s, multiplier=mult, reels=reels)
    return dataclasses.replace(model, symbols=tuple(change(s) for s in model.symbols))


@st.composite
def wild_multipliers(draw):
    """None, a fixed multiplier, or two small values drawn per WILD (mode wild) or per reel (mode
    reel), each phase with its own weight table (a zero weight allowed, the sum positive)."""
    kind = draw(st.sampled_from((None, "fixed", "wild", "reel")))
    values = draw(st.sampled_from(((1, 2), (2, 3), (1, 4))))
    if kind is None:
        return None
    if kind == "fixed":
        return WildMultiplier(values=values[-1:])
    pairs = st.tuples(st.integers(0, 3), st.integers(1, 3))
    return WildMultiplier(values=values, weights={t: draw(pairs) for t in TABLES}, mode=kind)


@st.composite
def small_sets(draw, reels=(3, 4), max_len=5, multipliers=None):
    """A small random math set; ``multipliers`` True always gives the WILDs multipliers (None: drawn)."""
    n_reels = draw(st.sampled_from(reels))
    rows = draw(st.sampled_from((2, 3, 4)))
    model = small_fish_model(reels=n_reels, rows=rows)
    if draw(st.booleans()):
        model = with_two_oak_pay(model)
    if draw(st.booleans()):
        model = with_scatter_pays(model)
    if draw(st.booleans()):
        model = with_partial_wild(model)
    wilds = []
    if multipliers or (multipliers is None and draw(st.booleans())):  # WILD multipliers; WILD then also stands on bonus reels 2.. (free-spin levels)
        wilds = [s.name for s in model.symbols if s.kind == "wild"]
        for w in wilds:
            model = with_wild_multiplier(model, w, draw(wild_multipliers()),
                                         range(1, n_reels) if w == "WILD" else None)
    pays = [s.name for s in model.pay_symbols]

    def strip(set_name, r):
        allowed = [s.name for s in model.symbols if s.allowed_on(set_name, r)]
        length = draw(st.integers(rows, max_len))
        # pay symbols twice as likely, so windows mix pays with (several) specials; with WILD
        # multipliers the WILDs are 4 times as likely, so several WILDs share windows and ways
        extra = [w for w in wilds if w in allowed] * 3 + pays[:3] * 3
        return draw(st.lists(st.sampled_from(allowed + pays + (extra if wilds else [])),
                             min_size=length, max_size=length))

    base = [strip("base", r) for r in range(n_reels)]
    bonus = [strip("bonus", r) for r in range(n_reels)]
    return make_set(model, base, bonus)


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
        assert sum(sum(v) for v in an.ways_by_symbol.values()) == an.pays_mean
        assert an.pays_mean + an.collect_mean + an.scatter_mean == an.mean == an.by_key.mean
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
    assert an.scatter_mean > 0
    assert an.pays_mean + an.collect_mean + an.scatter_mean == an.mean


def test_results_are_fractions_not_floats():
    model = small_fish_model()
    ms = make_set(model, [["PIC1", "KEY", "AUS2", "FISH1"]] * 5, [["PIC1", "KEY", "AUS2", "FISH1"]] * 5)
    ga = analyse(ms)
    for an in (ga.base,) + ga.levels:
        for v in (an.mean, an.second, an.pays_mean, an.collect_mean, an.hit_frequency) + an.by_key.win2:
            assert type(v) is Fraction
