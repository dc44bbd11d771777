"""The Monte Carlo simulator: its spin evaluation against the rules-page evaluator, and seeded
runs whose 99% intervals must contain the exact values of the engine and the ladder chain."""
from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import numpy as np
import pytest

from exact.cli import main
from exact.evaluator import evaluate
from proofs.simulate import (
    exact_values,
    proportion_ci99,
    report,
    segment_sums,
    simulate,
    spin_tables,
    spin_wins,
)
from generators import MODEL, random_set, write_random_set


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    return random_set(tmp_path_factory.mktemp("sim") / "s", 7, lengths=(9, 10, 11, 12, 13), special_share=0.3)


@pytest.mark.parametrize("limit", [1, 150, 2000, 10 ** 7])
def test_spin_win_equals_evaluator_on_sampled_spins(small, limit):
    m = small.model
    rng = np.random.default_rng(limit)
    for phase in m.phases:
        strips = small.phase_strips(phase)
        tabs = spin_tables(small, phase, limit)
        stops = np.stack([rng.integers(0, n, 300) for n in strips.lengths], axis=1)
        expected, sums = [], []
        for s in stops:
            w = strips.window(s, m.rows)
            vals = [int(rng.choice(m.symbol(x).values)) for col in w for x in col if m.symbol(x).kind == "fish"]
            expected.append(evaluate(m, w, vals, phase.multiplier).win)
            sums.append(sum(vals))
        assert spin_wins(tabs, stops, np.array(sums), phase.multiplier).tolist() == expected
        assert sum(expected) > 0


def test_segment_sums():
    vals = np.array([3, 1, 4, 1, 5, 9, 2, 6])
    counts = np.array([2, 0, 3, 1, 0, 2])
    assert segment_sums(vals, counts).tolist() == [4, 0, 10, 9, 0, 8]


def test_clopper_pearson_edges():
    lo, hi = proportion_ci99(0, 100)
    assert lo == 0.0 and 0.04 < hi < 0.06  # 1 - 0.005 ** (1/100) = 0.0516
    lo, hi = proportion_ci99(100, 100)
    assert hi == 1.0 and 0.94 < lo < 0.96


def test_seeded_run_contains_exact_values(tmp_path):
    # long bonus strips with one KEY per reel: a part of the features stops at each level
    ms = random_set(tmp_path / "s", 7, lengths=(40, 41, 42, 43, 44), special_share=0.05,
                    bonus_lengths=(60, 61, 62, 63, 64))
    exact = exact_values(ms)
    tally = simulate(ms, 200_000, seed=5, workers=1)
    rep = report(ms, tally, 5, exact)
    assert [f.name for f in rep.figures if not f.inside] == []
    assert rep.passed and tally.rounds == 200_000 and tally.free_spins > 0
    assert tally.reach[0] > tally.reach[1] > tally.reach[2] > tally.reach[3] > 0
    # the same seed gives the same tally, whatever the number of processes
    again = simulate(ms, 200_000, seed=5, workers=2)
    assert dataclasses.asdict(again) == dataclasses.asdict(tally)
    # a wrong exact value is detected
    rr, base = exact
    wrong = dataclasses.replace(rr, mean=rr.mean * Fraction(12, 10))
    assert not report(ms, tally, 5, (wrong, base)).rtp.inside


def test_keyless_bonus_never_passes_level_1(tmp_path):
    d = write_random_set(tmp_path / "s", 9, lengths=(8, 9, 10, 9, 8), special_share=0.35)
    lines = (d / "bonus.csv").read_text().replace("KEY", "PIC1")
    (d / "bonus.csv").write_text(lines)
    from strips.loader import load_math_set
    ms = load_math_set(str(d))
    tally = simulate(ms, 100_000, seed=3)
    rep = report(ms, tally, 3)
    assert rep.reach[0][1].estimate > 0
    assert [f.estimate for _, f in rep.reach[1:]] == [0.0] * (len(MODEL.levels) - 1)
    assert rep.passed


def test_cli_json(tmp_path, capsys):
    d = write_random_set(tmp_path / "s", 7, lengths=(9, 10, 11, 12, 13), special_share=0.3)
    code = main(["simulate", "--set", str(d), "--rounds", "50000", "--seed", "11", "--json", "--workers", "1"])
    out = json.loads(capsys.readouterr().out)
    assert out["rounds"] == 50000 and out["seed"] == 11
    assert code == (0 if out["all_inside"] else 1)
    lo, hi = out["rtp_interval"]
    assert lo <= out["rtp_estimate"] <= hi
    p, q = map(int, out["rtp"].split("/"))
    assert out["rtp_inside"] == (lo <= p / q <= hi)
    for key in ("hit_rate_estimate", "hit_rate_interval", "hit_rate", "hit_rate_inside", "sd_exact", "sd_sample"):
        assert key in out
    assert set(out["trigger_rates"]) >= {"3", "4", "5"}
    assert set(out["level_reach_rates"]) == {"1", "2", "3", "4"}
    assert set(out["trigger_rates"]["3"]) == {"estimate", "interval", "exact", "inside"}
    k = 2 + len(out["trigger_rates"]) + len(out["level_reach_rates"])
    assert out["interval_level"] == 1 - 0.01 / k and out["family_level"] == 0.99
    assert "Bonferroni" in out["method"]


def test_cli_bad_rounds(tmp_path, capsys):
    d = write_random_set(tmp_path / "s", 7)
    assert main(["simulate", "--set", str(d), "--rounds", "0"]) == 2
    assert "--rounds" in capsys.readouterr().err


def test_spin_win_with_substitution_sets_and_scatter_pays(small):
    m = small.model
    symbols = tuple(dataclasses.replace(s, substitutes=frozenset({"PIC1", "AUS3"})) if s.name == "WILD" else
                    dataclasses.replace(s, pays=(0, 1, 7, 20, 100)) if s.name == "FS" else s for s in m.symbols)
    ms = dataclasses.replace(small, model=dataclasses.replace(m, symbols=symbols))
    m = ms.model
    strips = ms.phase_strips(m.base_phase)
    rng = np.random.default_rng(4)
    stops = np.stack([rng.integers(0, n, 400) for n in strips.lengths], axis=1)
    expected = [evaluate(m, strips.window(s, m.rows)) for s in stops]
    fish = [sum(min(m.symbol(x).values) for col in r.window for x in col if m.symbol(x).kind == "fish")
            for r in expected]
    got = spin_wins(spin_tables(ms, m.base_phase), stops, np.array(fish))
    assert got.tolist() == [r.win for r in expected]
    assert any(r.scatter_pay for r in expected)


@pytest.mark.slow
def test_false_fail_rate_over_200_seeds_at_20000_rounds():
    """The bundled set is correct: simulate may FAIL it for at most 1% of seeds (Bonferroni family level).

    Measured: 2 of 200 seeds (0..199) FAIL, each on one figure (seed 15 the RTP, seed 78 the 4-FS trigger
    rate).  The assertion allows up to 8 of 200, which a true rate
    of 1% exceeds with probability below 0.1%; the old uncorrected 99% intervals failed about 1 seed in 10.
    """
    from proofs.dask_runner import IN_PROCESS, Cluster
    from proofs.simulate import prepare
    from strips.loader import load_math_set
    ms = load_math_set("rules_page")
    exact, game = exact_values(ms), prepare(ms)
    here = Cluster(mode=IN_PROCESS)
    fails = [s for s in range(200) if not report(ms, simulate(ms, 20_000, s, game=game, cluster=here), s,
                                                 exact).passed]
    assert len(fails) <= 8, fails
