"""The enumeration and the simulator on the rules beyond the rules page: WILD multipliers of every mode
(enumeration equal to the engine exactly; simulated spins equal to the literal evaluator), retrigger
capped and not, free spins on the base strips, scatter pays, several scatters (seeded runs inside their
intervals, free spins played beside the exact expectation)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from exact.engine import analyse_phase
from exact.evaluator import evaluate, wild_draws
from proofs.enumerate import compare, enumerate_phase, window_tables
from proofs.simulate import WildDraw, exact_values, report, simulate, spin_tables, spin_wins
from strips.loader import GAME_FILE, bundled_path, load_math_set
from generators import VARIANTS, write_random_set, write_variant
from exact.rules import has_wild_multipliers

MODES = {
    "fixed x3": "multiplier = 3",
    "drawn per WILD": 'multiplier = { values = [2, 3, 10], mode = "wild", weights.base = [5, 3, 1] }',
    "drawn per reel": 'multiplier = { values = [1, 4], mode = "reel", weights.base = [2, 1] }',
}


def multiplied_random_set(directory, seed, spec, lengths=(6, 7, 5, 6, 7)):
    """A random set on the rules-page game with many WILDs, its WILD given the multiplier ``spec``."""
    d = write_random_set(directory, seed, lengths=lengths, special_share=0.3)
    text = (bundled_path("rules_page") / GAME_FILE).read_text().replace("pays = [0, 0, ", "pays = [1, 2, ")
    anchor = "reels = { base = [2, 3, 4, 5] }"
    assert anchor in text
    (d / GAME_FILE).write_text(text.replace(anchor, anchor + "\n" + spec, 1))
    return load_math_set(str(d))


@pytest.mark.parametrize("mode", sorted(MODES))
def test_enumeration_with_wild_multipliers_equals_the_engine(tmp_path, mode):
    ms = multiplied_random_set(tmp_path / "s", 3, MODES[mode])
    assert has_wild_multipliers(ms.model)
    t = window_tables(ms, ms.model.base_phase)
    assert any((w != c).any() for w, c in zip(t.ways_counts, t.counts)), "the multipliers were exercised"
    e = enumerate_phase(ms, workers=1, task_stops=2)
    checks = compare(e, analyse_phase(ms, ms.model.base_phase))
    assert [c.figure for c in checks if not c.equal] == []
    assert e.pays_mean > 0


@pytest.mark.parametrize("mode", sorted(MODES))
def test_simulated_spins_with_wild_multipliers_equal_the_evaluator(tmp_path, mode):
    ms = multiplied_random_set(tmp_path / "s", 4, MODES[mode], lengths=(9, 10, 11, 12, 13))
    m = ms.model
    phase = m.base_phase
    strips = ms.phase_strips(phase)
    tabs = spin_tables(ms, phase)
    rng = np.random.default_rng(1)
    values = m.symbol("WILD").multiplier.values
    for v in values:  # a sampler that can draw only v: every draw is v, so the evaluator knows them
        cum = np.array([0 if x != v else 1 for x in values]).cumsum()
        only_v = WildDraw((np.array(values, dtype=np.int64),), (np.maximum.accumulate(cum),))
        if not m.symbol("WILD").has_random_multiplier:
            only_v = None
        stops = np.stack([rng.integers(0, n, 400) for n in strips.lengths], axis=1)
        expected, fish = [], []
        for s in stops:
            w = strips.window(s, m.rows)
            vals = [min(m.symbol(x).values) for col in w for x in col if m.symbol(x).kind == "fish"]
            expected.append(evaluate(m, w, vals, wild_values=[v] * len(wild_draws(m, w))).win)
            fish.append(sum(vals))
        got = spin_wins(tabs, stops, np.array(fish), wild=(only_v, rng) if only_v else None)
        assert got.tolist() == expected
        assert sum(expected) > 0


@pytest.mark.parametrize("mode", sorted(MODES))
def test_seeded_runs_with_wild_multipliers_contain_the_exact_values(tmp_path, mode):
    ms = multiplied_random_set(tmp_path / "s", 5, MODES[mode], lengths=(30, 31, 32, 33, 34))
    tally = simulate(ms, 100_000, seed=3, workers=1)
    rep = report(ms, tally, 3)
    assert rep.passed, [(f.name, f.estimate, f.interval, float(f.exact)) for f in rep.figures if not f.inside]


# several scatters, paylines, bet modes and wheels: the simulation of every rule has its own tests
@pytest.mark.parametrize("name", sorted(set(VARIANTS) - {"two_scatters", "lines", "wheel_modes"}))
def test_seeded_runs_of_every_rule_contain_the_exact_values(tmp_path, name):
    ms = load_math_set(str(write_variant(tmp_path / name, name)))
    exact = exact_values(ms)
    rr = exact[0]
    seed = 100 + sorted(VARIANTS).index(name)  # fixed seeds (a correct game fails a seed with probability <= 1%)
    tally = simulate(ms, 200_000, seed=seed, workers=1)
    rep = report(ms, tally, seed, exact)
    assert rep.passed, [(f.name, f.estimate, f.interval, float(f.exact)) for f in rep.figures if not f.inside]
    # the free spins played per round: a retriggered or capped feature plays as many as the exact chain says
    spins = Fraction(tally.free_spins, tally.rounds)
    assert abs(spins - rr.free_spins_played) < Fraction(1, 10) * rr.free_spins_played
    if ms.model.retrigger_cap:
        assert tally.free_spins <= tally.reach[0] * ms.model.retrigger_cap


def test_retrigger_cap_is_honoured_exactly(tmp_path):
    """With cap = initial spins no retrigger can add a spin: every feature plays exactly 5 spins."""
    d = write_variant(tmp_path / "cap", "retrigger_capped")
    text = (d / GAME_FILE).read_text().replace("retrigger_cap = 15", "retrigger_cap = 5")
    (d / GAME_FILE).write_text(text)
    ms = load_math_set(str(d))
    tally = simulate(ms, 100_000, seed=2, workers=1)
    assert tally.reach[0] > 0 and tally.free_spins == 5 * tally.reach[0]
    assert exact_values(ms)[0].free_spins_played == 5 * exact_values(ms)[0].trigger_probability
