"""Up-front cost estimates (exact.rules.Rule.costs): a set small on disk whose analysis would take hours or
gigabytes is refused in one line naming the limit and the estimate, before any work; below the limit it runs."""
from __future__ import annotations

import time

import pytest

from exact.cli import main
from exact.rules import cost_refusal, costs
from strips.limits import Limits, using
from strips.loader import load_math_set
from tests.gen_costs import many_lines_game, many_modes


def refused_fast(capsys, argv, *words):
    start = time.perf_counter()
    code = main(argv)
    took = time.perf_counter() - start
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert all(w in err[0] for w in words), err[0]
    assert took < 5          # the estimate comes before any work (well under a second idle; loading included)
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
