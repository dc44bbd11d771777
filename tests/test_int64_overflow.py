"""No silent int64 overflow: a 12-reel x 32-row game whose round wins and sums pass 2^63 is simulated
exactly, and a game whose block sums would pass it is enumerated exactly.

The oracle is linearity: every pay of the big game is K times the small game's, the random draws do not
depend on the pays, so every sum of the big game's simulation is exactly K times the small one's (K^2 for
the sums of squares), and its exact figures are the engine's (Python integers and Fractions).
"""
from __future__ import annotations

import pytest

from exact.engine import analyse_phase
from proofs.enumerate import compare, enumerate_phase
from proofs.simulate import run_simulation, simulate_units, units_of, prepare_units, split_rounds
from strips.loader import load_math_set
from generators import big_window_game

INT63 = 1 << 63


def tallies(ms, rounds, seed=11):
    units = units_of(ms, None, None)
    return simulate_units(ms, split_rounds(rounds, len(units)), seed, units, prepare_units(ms, units))


@pytest.mark.parametrize("mode", [False, True], ids=["plain", "bet-mode"])
def test_simulation_past_int64_is_exactly_k_times_the_small_game(tmp_path, mode):
    k = 1 << 35
    small = load_math_set(str(big_window_game(tmp_path / "small", 2, mode=mode)))
    big = load_math_set(str(big_window_game(tmp_path / "big", 2 * k, mode=mode)))
    for a, b in zip(tallies(small, 4000), tallies(big, 4000)):
        assert b.win > INT63 and max(b.win2, b.base_win) > INT63   # the int64 sums would have wrapped
        assert (b.win, b.win2, b.base_win) == (k * a.win, k * k * a.win2, k * a.base_win)
        assert (b.rounds, b.free_spins, b.base_hits) == (a.rounds, a.free_spins, a.base_hits)


def test_simulate_and_prove_of_the_12x32_game_agree_with_the_engine(tmp_path):
    """The probe's case: an estimate of about -2.3e14 against the exact +2.5e15, a false FAIL on every seed."""
    from exact.cli import main
    d = big_window_game(tmp_path / "big", 1 << 36)
    rep = run_simulation(load_math_set(str(d)), 4000, 3)
    assert rep.passed
    assert main(["simulate", "--set", str(d), "--rounds", "4000"]) == 0
    assert main(["prove", "--set", str(d), "--rounds", "4000", "--out", str(tmp_path / "cert.md")]) == 0


def test_enumeration_past_int64_block_sums_equals_the_engine(tmp_path):
    """A pay of 2^39 times ways up to 2^12 over blocks of 2^18 combinations would pass 2^63: the blocks are
    made smaller (decided from the maxima) and every figure equals the engine's."""
    from proofs.enumerate_kernel import CHUNK, combination_bound, safe_chunk
    from proofs.enumerate_tables import window_tables
    ms = load_math_set(str(big_window_game(tmp_path / "big", 1 << 39, rows=2, stops=3)))
    phase = ms.model.base_phase
    t = window_tables(ms, phase)
    assert CHUNK * combination_bound(t) > INT63 >= safe_chunk(t) * combination_bound(t)
    e = enumerate_phase(ms, phase, workers=1)
    assert e.complete and [c.figure for c in compare(e, analyse_phase(ms, phase)) if not c.equal] == []
