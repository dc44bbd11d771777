"""The win distribution (exact.distribution) against brute force through the rules-page evaluator.

One spin: every stop combination, FISH value and drawn WILD multiplier of small random math sets
evaluated literally (tests/oracle.py), compared exactly with the dynamic programme.
"""
from __future__ import annotations

import os
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from exact.distribution import (KEY_COUNT, SCATTER_COUNT, from_limbs, limb_product, limb_sum, spin_distribution,
                                to_limbs)
from exact.engine import analyse, analyse_phase
from exact.rules import by_count
from oracle import brute_spin_distribution, make_set, marginal_of, small_fish_model
from generators import small_sets, with_partial_wild, with_scatter_pays, with_wild_multiplier

#: examples per brute-force test (the thorough profile of tests/test_engine.py multiplies them)
EXAMPLES = 15 if os.environ.get("HYPOTHESIS_PROFILE", "default") == "default" else 200


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


@settings(max_examples=EXAMPLES)
@given(small_sets())
def test_base_spin_distribution_equals_brute_force(ms):
    assert_spin_equal(ms, ms.model.base_phase)


@settings(max_examples=EXAMPLES)
@given(small_sets())
def test_free_spin_distribution_equals_brute_force(ms):
    for level in (ms.model.levels[0], ms.model.levels[-1]):
        assert_spin_equal(ms, ms.model.level_phase(level))


@settings(max_examples=2 * EXAMPLES)
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


# --------------------------------------------------------------------------
# the round: brute force through the evaluator and the free-spin rules literally
# --------------------------------------------------------------------------
import dataclasses
from functools import lru_cache

from exact.distribution import win_distribution
from markov.round import round_result
from strips.model import Level

LADDERS = {
    # trigger (scatters -> initial spins), levels (number, threshold, spins, multiplier)
    "two levels": (((1, 2), (2, 3)), ((1, 0, None, 1), (2, 1, 2, 3))),
    "three levels": (((1, 2),), ((1, 0, None, 1), (2, 1, 2, 2), (3, 3, 3, 5))),
}


@st.composite
def round_sets(draw):
    """Tiny games with a whole feature: 3 reels x 2-3 rows, 3-5 stops, a 2-3 level ladder of 2-4 spins
    or one level with a capped retrigger; FISH, KEY, WILD (maybe with drawn multipliers), scatter."""
    rows = draw(st.sampled_from((2, 3)))
    model = small_fish_model(reels=3, rows=rows)
    if draw(st.booleans()):
        model = with_scatter_pays(model)
    if draw(st.booleans()):
        from generators import wild_multipliers
        model = with_wild_multiplier(model, "WILD", draw(wild_multipliers()), range(1, 3))
    kind = draw(st.sampled_from(("two levels", "three levels", "retrigger")))
    # the scatter may stand on the free-spin strips too (the retrigger needs it)
    syms = tuple(dataclasses.replace(s, reels={**s.reels, "bonus": frozenset({0, 1, 2})}) if s.kind == "scatter"
                 else s for s in model.symbols)
    if kind == "retrigger":
        model = dataclasses.replace(model, symbols=syms, trigger=((1, 2), (2, 3)),
                                    levels=(Level(1, 0, None, 2, "level1"),),
                                    retrigger=((1, 1), (2, 2)), retrigger_cap=draw(st.sampled_from((3, 4, 5))))
    else:
        trigger, levels = LADDERS[kind]
        model = dataclasses.replace(model, symbols=syms, trigger=trigger,
                                    levels=tuple(Level(n, t, s, m, f"level{n}") for n, t, s, m in levels))
    pays = [s.name for s in model.pay_symbols][:3]

    def strip(set_name, r):
        allowed = [s.name for s in model.symbols if s.allowed_on(set_name, r)]
        length = draw(st.integers(rows, 4 if rows == 3 else 5))
        return draw(st.lists(st.sampled_from(allowed + pays * 2), min_size=length, max_size=length))

    base = [strip("base", r) for r in range(3)]
    base[0][0] = "FS"   # every game triggers (one FS on reel 1 of the base strips)
    bonus = [strip("bonus", r) for r in range(3)]
    if kind == "retrigger":
        bonus[0][0] = "FS"   # and every retrigger game retriggers
    return make_set(model, base, bonus)


def brute_round(ms) -> dict:
    """{round win: P}: the base spin and every free-spin level by the evaluator (every stop and draw),
    the feature by the rules literally (section 11 ladder with the true KEY counter; or the
    retrigger with its cap), every path summed exactly."""
    model = ms.model
    base = brute_spin_distribution(ms, model.base_phase)
    spins = [brute_spin_distribution(ms, model.level_phase(lv)) for lv in model.levels]

    def add(out, dist, p, shift):
        for w, q in dist.items():
            out[w + shift] = out.get(w + shift, 0) + p * q

    @lru_cache(maxsize=None)
    def ladder(level, left, counter):
        """{remaining feature win: P} from a spin of ``level`` with ``left`` spins to play, KEY counter."""
        out: dict = {}
        lv = model.levels[level - 1]
        for (sc, k, w), p in spins[level - 1].items():
            c = counter + k
            if left > 1:
                rest = ladder(level, left - 1, c)
            elif level < len(model.levels) and c >= model.levels[level].threshold:
                rest = ladder(level + 1, model.levels[level].spins, c)
            else:
                rest = {0: Fraction(1)}
            add(out, rest, p, w)
        return out

    @lru_cache(maxsize=None)
    def retrigger(left, awarded):
        out: dict = {}
        for (sc, k, w), p in spins[0].items():
            extra = min(by_count(model.retrigger, sc), model.retrigger_cap - awarded)
            rest = retrigger(left - 1 + extra, awarded + extra) if left - 1 + extra > 0 else {0: Fraction(1)}
            add(out, rest, p, w)
        return out

    result: dict = {}
    for (sc, k, w), p in base.items():
        n0 = by_count(model.trigger, sc)
        if not n0:
            feature = {0: Fraction(1)}
        elif model.retrigger:
            feature = retrigger(n0, n0)
        else:
            feature = ladder(1, n0, 0)
        add(result, feature, p, w)
    return {w: p for w, p in result.items() if p}


@settings(max_examples=2 * EXAMPLES)
@given(round_sets())
def test_round_distribution_equals_brute_force(ms):
    """Exact path: the whole round distribution equals brute force; float path: every entry within its bound."""
    brute = brute_round(ms)
    wd = win_distribution(ms, exact=True)
    assert wd.round.is_exact
    assert wd.round.exact == brute
    ga = analyse(ms)
    rr = round_result(ms.model, ga.base, ga.levels)
    assert sum(brute.values()) == 1
    assert wd.round.mean == rr.mean
    assert sum((x.rtp for x in wd.win_ranges()), Fraction(0)) == rr.mean / ms.model.bet
    assert sum((x.probability for x in wd.win_ranges()), Fraction(0)) == 1
    assert wd.max_round_win == max(brute) and wd.max_round_win_probability == brute[max(brute)]
    fl = win_distribution(ms, exact=False)
    assert not fl.round.is_exact and fl.round.bound < 1e-12
    p, bounds = fl.round.probabilities, fl.round.entry_bounds()
    exact = np.zeros(len(p))
    for w, q in brute.items():
        exact[w // fl.round.step] = float(q)
    assert np.all(np.abs(p - exact) <= bounds + 1e-300)
    mean, mb = fl.round.win_between(0, None)
    assert abs(mean - float(rr.mean)) <= mb + 1e-15 * float(rr.mean)
    assert abs(sum(x.rtp for x in fl.win_ranges()) - float(rr.rtp)) <= sum(x.rtp_bound for x in fl.win_ranges()) + 1e-15


# --------------------------------------------------------------------------
# the enumeration histogram (proofs.histogram) against the dynamic programme
# --------------------------------------------------------------------------
from proofs.histogram import distribution as histogram_distribution, enumerate_histogram


def reduced(ms, stops):
    """The set with every reel strip cut to its first ``stops`` positions (CI-sized enumeration)."""
    from strips.model import ReelStrips
    strips = {k: ReelStrips(v.name, tuple(r[:stops] for r in v.reels), tuple(c[:stops] for c in v.codes))
              for k, v in ms.strips.items()}
    return dataclasses.replace(ms, strips=strips)


def test_histogram_of_reduced_bundled_strips_equals_the_dp():
    """Every combination of the bundled strips cut to 12 stops (248,832 per phase): base game (scatter
    count) and level 4 (KEY count), distribution from the integer histogram == the DP, exactly."""
    from strips.loader import load_math_set
    ms = reduced(load_math_set(), 12)
    for phase, count in ((ms.model.base_phase, SCATTER_COUNT), (ms.model.level_phase(ms.model.levels[3]), KEY_COUNT)):
        hist = enumerate_histogram(ms, phase)
        assert hist.complete and hist.combinations == 12 ** 5
        assert sum(hist.counts.values()) == hist.combinations
        assert histogram_distribution(hist, ms, count) == spin_distribution(ms, phase, count).joint()


@settings(max_examples=EXAMPLES)
@given(small_sets(multipliers=False))
def test_histogram_equals_the_dp_on_random_sets(ms):
    for phase in (ms.model.base_phase, ms.model.level_phase(ms.model.levels[-1])):
        hist = enumerate_histogram(ms, phase)
        assert histogram_distribution(hist, ms, "scatter") == spin_distribution(ms, phase, SCATTER_COUNT).joint()
        assert histogram_distribution(hist, ms, "key") == spin_distribution(ms, phase, KEY_COUNT).joint()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_sets())
def test_base_win_ranges_and_hits_per_cycle_equal_brute_force(ms):
    """Each row of the base-spin win-range table: probability, RTP and hits per cycle (P x the stop
    combinations of the base strips) equal a literal count over every stop combination and draw."""
    from math import prod
    wd = win_distribution(ms)
    brute = marginal_of(brute_spin_distribution(ms, ms.model.base_phase), (2,))
    cycle = prod(ms.phase_strips(ms.model.base_phase).lengths)
    assert wd.base_cycle == cycle
    edges = (0, Fraction(1, 2), 1, 3, 10)
    rows = wd.base_win_ranges(edges)
    cuts = [(0, 1)] + [(0 if a == 0 else a * ms.model.bet, None if b is None else b * ms.model.bet)
                       for a, b in zip(edges, list(edges[1:]) + [None])]
    for row, (lo, hi) in zip(rows, cuts):
        inside = {w: p for w, p in brute.items() if (w > 0 if lo == 0 and hi != 1 else w >= lo)
                  and (hi is None or w < hi)}
        assert row.probability == sum(inside.values(), Fraction(0))
        assert row.rtp == sum((w * p for w, p in inside.items()), Fraction(0)) / ms.model.bet
        assert row.hits == row.probability * cycle
        if row.probability.denominator == 1 or cycle % row.probability.denominator == 0:
            assert isinstance(row.hits, int)
    assert sum(r.probability for r in rows) == 1


def _capped_retrigger_set(cap: int):
    """A 3x2 game whose free spins retrigger up to ``cap`` spins: a long, thin round-win tail."""
    model = with_scatter_pays(small_fish_model(reels=3, rows=2))
    syms = tuple(dataclasses.replace(s, reels={**s.reels, "bonus": frozenset({0, 1, 2})}) if s.kind == "scatter"
                 else s for s in model.symbols)
    model = dataclasses.replace(model, symbols=syms, trigger=((1, 2), (2, 3)), levels=(Level(1, 0, None, 2, "level1"),),
                                retrigger=((1, 1), (2, 2)), retrigger_cap=cap)
    return make_set(model, [["FS", "PIC1", "PIC1"], ["PIC1", "FS"], ["PIC2", "PIC2"]],
                    [["FS", "PIC1"], ["PIC1", "PIC1"], ["PIC2", "PIC2"]])


def test_tilted_pass_bound_holds_where_the_tilt_argument_is_large():
    """Regression (found by a new-user run of the suite): a capped retrigger whose tilted pass used
    theta x i near 545; the argument's rounding made e^(theta i) off by ~6e-14 relative and one entry
    missed its claimed bound (1.92e-14 > 1.88e-14).  Tilts are now dyadic (exact theta x i) and undoing
    the tilt carries its own rounding term."""
    ms = _capped_retrigger_set(4)
    brute = brute_round(ms)
    fl = win_distribution(ms, exact=False)
    assert len(fl.round.passes) == 2 and fl.round.passes[1].theta * 10 > 500
    p, bounds = fl.round.probabilities, fl.round.entry_bounds()
    exact = np.zeros(len(p))
    for w, q in brute.items():
        exact[w // fl.round.step] = float(q)
    assert np.all(np.abs(p - exact) <= bounds)


@pytest.mark.parametrize("tail_at", [None, 1])
def test_a_folded_grid_keeps_every_probability_and_mean_within_its_bound(monkeypatch, tail_at):
    """The FFT on fewer points than the largest round win folds the tail onto the grid; the pass's bound grows
    by the Chernoff folding term (exact.feature_runner.fold_bound).  Forced on a small game (any fold
    accepted, grids from 4 points), every entry, tail and mean of the round and of each feature lies
    within its bound of the brute-force round."""
    from exact import feature_runner
    monkeypatch.setattr(feature_runner, "FOLD_MIN", 4)
    monkeypatch.setattr(feature_runner, "FOLD_SHARE", 1e300)
    if tail_at is not None:     # a tilted pass on the folded grid too, whatever tilt the search would pick
        monkeypatch.setattr(feature_runner, "tail_tilt", lambda *args: feature_runner.dyadic(0.25))
    ms = _capped_retrigger_set(6)
    brute = brute_round(ms)
    fl = win_distribution(ms, exact=False, tail_at=tail_at)
    rd = fl.round
    top = max(brute) // rd.step
    assert len(rd.passes) == (1 if tail_at is None else 2)
    assert all(len(ps.p) <= top for ps in rd.passes), "every pass must be folded for this test to mean anything"
    p, bounds = rd.probabilities, rd.entry_bounds()
    exact = np.zeros(len(p))
    for w, q in brute.items():
        if w // rd.step < len(p):
            exact[w // rd.step] = float(q)
    assert np.all(np.abs(p - exact) <= bounds)
    for lo in sorted({0, rd.step, 5 * rd.step, (len(p) - 1) * rd.step, len(p) * rd.step}):
        v, bd = rd.prob_between(lo, None)
        assert abs(v - float(sum(q for w, q in brute.items() if w >= lo))) <= bd
        v, bd = rd.win_between(lo, None)
        assert abs(v - float(sum(w * q for w, q in brute.items() if w >= lo))) <= bd


class _Uncapped:
    """The spins-left rule of an uncapped retrigger (markov.retrigger.RetriggerChain.step without a cap)."""
    cap = None

    @staticmethod
    def step(state, extra):
        nxt = (state[0] - 1 + extra, state[1] + 1)
        return nxt if nxt[0] else None


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4), st.lists(st.integers(1, 5), min_size=1, max_size=3, unique=True), st.integers(0, 14),
       st.randoms(use_true_random=False))
def test_cycle_lemma_feature_equals_the_spin_by_spin_run_exactly(s0, extras, extra_spins, rnd):
    """The endless retrigger's feature as a sum over award counts (the hitting-time theorem) equals the
    layer-by-layer chain, exactly (Fractions), for every cut-off in spins."""
    from exact.distribution import ExactAlgebra, cycle_lemma_feature, run_feature
    weights = [rnd.randint(1, 6) for _ in range(len(extras) + 1)]
    total = sum(weights) * 2
    kernels = {}
    for e, wgt in zip([0] + extras, weights):   # each award: two wins of its own
        a, b = rnd.randint(0, 4), rnd.randint(5, 9)
        kernels[e] = {a: Fraction(wgt, total), b: Fraction(wgt, total)}
    alg = ExactAlgebra()
    max_spins = s0 + extra_spins
    layered = run_feature(alg, _Uncapped(), (s0, 0), kernels, max_spins=max_spins).value or {}
    summed = cycle_lemma_feature(alg, s0, kernels, max_spins)
    assert {w: p for w, p in summed.items() if p} == {w: p for w, p in layered.items() if p}
