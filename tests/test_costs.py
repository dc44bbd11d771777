"""Up-front cost estimates (exact.rules.Rule.costs): a set small on disk whose analysis would take hours or
gigabytes is refused in one line naming the limit and the estimate, before any work; below the limit it runs."""
from __future__ import annotations

import pytest

from exact.cli import main
from exact.rules import cost_refusal, costs
from strips.limits import Limits, using
from strips.loader import load_math_set
from tests.gen_costs import (chain_work_ladder, hold_and_win_respins, initial_spins, many_lines_game, many_modes,
                              tiny_ladder)


def refused_fast(capsys, argv, *words):
    """The one-line refusal (exit 2) of ``rtp argv``, naming each of ``words``; how fast it comes is
    benchmarks/bench_limits.py --costs (README "Input limits"), not a test."""
    code = main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert all(w in err[0] for w in words), err[0]
    return err[0]


@pytest.mark.parametrize("command", [[], ["check"], ["simulate", "--rounds", "20000"], ["comply"]])
def test_2000_paylines_on_a_12x32_window_are_refused_up_front(tmp_path, capsys, command):
    d = many_lines_game(tmp_path / "lines", stops=200)
    refused_fast(capsys, command + ["--set", str(d)], "estimated", "exact payline engine", "--max-seconds")


def test_a_small_line_game_is_within_its_estimate(tmp_path):
    ms = load_math_set(many_lines_game(tmp_path / "small", reels=5, rows=3, stops=20, symbols=6, lines=10))
    assert cost_refusal(ms, "report") is None and costs(ms, "report")[0].estimate >= 1
    with using(Limits(seconds=None)):
        assert cost_refusal(load_math_set(many_lines_game(tmp_path / "big", stops=200)), "report") is None


def test_1000_bet_modes_are_refused_up_front(tmp_path, capsys):
    d = many_modes(tmp_path / "modes", 1000)
    refused_fast(capsys, ["simulate", "--rounds", "20000", "--set", str(d)], "1,001 bet modes", "--max-seconds")
    refused_fast(capsys, ["--set", str(d)], "1,001 bet modes")
    ms = load_math_set(d)
    with using(Limits(seconds=None)):
        mem = [c for c in costs(ms, "simulate") if c.limit == "memory"][0]
        assert mem.estimate > 3000          # about 3.9 MB of ways tables a unit (measured 3.9 MB)


def test_a_few_bet_modes_run(tmp_path):
    ms = load_math_set(many_modes(tmp_path / "modes", 3))
    assert cost_refusal(ms, "simulate") is None and cost_refusal(ms, "report") is None


def estimate(ms, analysis, limit="seconds"):
    return next(c.estimate for c in costs(ms, analysis) if c.limit == limit)


@pytest.mark.parametrize("limit", ["seconds", "memory"])
def test_the_win_distribution_runs_at_its_estimate_and_is_refused_just_below(tmp_path, capsys, limit):
    d = tiny_ladder(tmp_path / "tiny", spins=20, threshold=20)      # 2 s and 424 MiB estimated, under 1 s run
    e = estimate(load_math_set(d), "distribution", limit)
    option = f"--max-{limit}"
    assert main(["distribution", "--set", str(d), option, str(e)]) == 0
    assert "max win of a round" in capsys.readouterr().out
    line = refused_fast(capsys, ["distribution", "--set", str(d), option, str(e - 1)], option,
                        f"estimated {e:,}", "win distribution", "KEY counter states")
    assert line.startswith(f"rtp distribution: {d}: ")


@pytest.mark.parametrize("make", [chain_work_ladder, initial_spins], ids=["chain-work limit", "1,000 initial spins"])
def test_the_win_distribution_of_a_long_ladder_is_refused_up_front(tmp_path, capsys, make):
    d = make(tmp_path / "ladder")
    refused_fast(capsys, ["distribution", "--set", str(d)], "--max-seconds", "win distribution")
    ms = load_math_set(d)
    with using(Limits(seconds=None)):
        assert "--max-memory" in cost_refusal(ms, "distribution") if make is chain_work_ladder else True
    refused_fast(capsys, ["comply", "--set", str(d)], "--max-seconds")


def test_comply_refuses_the_dear_win_distribution_before_its_exact_figures(tmp_path, capsys):
    d = tiny_ladder(tmp_path / "tiny", spins=20, threshold=20)
    ms = load_math_set(d)
    assert estimate(ms, "comply") == 1 < estimate(ms, "distribution")
    refused_fast(capsys, ["comply", "--set", str(d), "--max-seconds", "1"], "win distribution", "--no-distribution")
    assert main(["comply", "--set", str(d), "--max-seconds", "1", "--no-distribution"]) in (0, 1)
    assert "compliance of math set" in capsys.readouterr().out


def test_the_exact_figures_at_the_chain_work_limit_are_within_the_seconds_limit(tmp_path):
    ms = load_math_set(chain_work_ladder(tmp_path / "ladder"))
    assert cost_refusal(ms, "report") is None and 60 < estimate(ms, "report") <= 120
    assert estimate(ms, "comply") > estimate(ms, "report")      # the award odds: one pass per award


def test_the_award_odds_of_a_long_ladder_are_refused_without_the_distribution(tmp_path, capsys):
    d = chain_work_ladder(tmp_path / "ladder", spins=300, threshold=300)
    for command in (["comply", "--no-distribution"], ["export", "--xlsx", str(tmp_path / "x.xlsx")]):
        refused_fast(capsys, command + ["--set", str(d)], "--max-seconds", "award-odds passes")
    assert not (tmp_path / "x.xlsx").exists()
    assert cost_refusal(load_math_set(d), "report") is None


def test_many_hold_and_win_respins_are_refused_up_front(tmp_path, capsys):
    d = hold_and_win_respins(tmp_path / "hw", 1000)
    refused_fast(capsys, ["--set", str(d)], "--max-seconds", "hold-and-win chain (1,000 respins")
    few = load_math_set(hold_and_win_respins(tmp_path / "few", 30))
    e = estimate(few, "report")
    with using(Limits(seconds=e)):
        assert cost_refusal(few, "report") is None
    with using(Limits(seconds=e - 1)):
        assert "hold-and-win chain (30 respins" in cost_refusal(few, "report")


def test_the_simulation_estimate_counts_the_spins_a_round_by_the_chain(tmp_path, capsys):
    d = str(tiny_ladder(tmp_path / "tiny", spins=20, threshold=20))
    line = refused_fast(capsys, ["simulate", "--set", d, "--rounds", "2000000", "--max-seconds", "1"],
                        "--max-seconds", "simulation of 2,000,000 rounds", "spins a round")
    spins = float(line.split("rounds (")[1].split(" spins")[0])
    ms = load_math_set(d)
    from exact import par_sheet
    assert spins == round(1 + float(par_sheet(ms).round.free_spins_played), 2) > 1
    assert main(["simulate", "--set", d, "--rounds", "20000", "--max-seconds", "1"]) in (0, 1)
    assert "RTP" in capsys.readouterr().out


def test_every_long_library_call_shows_progress_on_a_terminal():
    """The calls behind the long commands take ``progress`` (exact.progress: a line after 2 s on a terminal, off
    elsewhere); simulate and prove pass theirs to the simulator, comply and export run these."""
    import exact
    from exact.sensitivity import sensitivity
    from exact.variants import tune
    for fn in (exact.par_sheet, exact.win_distribution, sensitivity, tune):
        assert hasattr(fn, "__wrapped__"), fn


def test_the_generic_enumeration_is_estimated_per_stop_combination_and_cell(capsys):
    ms = load_math_set("tumble_anywhere")        # cascades on 6 x 5: every window read literally
    line = next(c for c in costs(ms, "report") if "enumeration" in c.what)
    e = line.estimate
    assert e > 1 and "524,288 stop combinations" in line.what
    with using(Limits(seconds=e)):
        assert cost_refusal(ms, "report") is None
    with using(Limits(seconds=e - 1)):
        assert "--max-seconds" in cost_refusal(ms, "report")


@pytest.mark.slow
def test_the_enumerated_game_runs_at_its_estimate():
    import exact
    ms = load_math_set("tumble_anywhere")
    e = next(c.estimate for c in costs(ms, "report") if "enumeration" in c.what)
    with using(Limits(seconds=e)):
        assert exact.par_sheet(ms, progress=False).rtp > 0
