"""The certified simulation of whole grid rounds with random features, free-spin games and a win cap
(proofs/grid_simulate_rounds.py): its intervals hold the exact figures of small grids (the chain's) at the
stated level over many seeds, its sums merge to the same figures in any order, and the win cap's removal
is exactly the difference of the capped and uncapped figures on the same rounds."""
from __future__ import annotations

from fractions import Fraction

import pytest

from exact.grid_chain import chain_figures
from exact.grid_drop import first_drop
from exact.grid_rounds import round_tables
from exact.rules import GridFeatures, free_start, grid_config_of, start_distribution
from exact.rules.grid_features import Feature
from exact.rules.grid_free_games import FreeGame, FreeSpinGames
from proofs.grid_simulate_rounds import RoundStats, round_figures, round_task, simulate_rounds
from tests.gen_grid import binomial_tail

PAYS = {"A": (0, 0, 6), "B": (0, 0, 2), "C": (0, 0, 1)}
CFG = grid_config_of(2, 3, PAYS, key="K", free_spins=2, weights={"A": 1, "B": 2, "C": 3}, bet=10)
IRISH = Feature("irish_luck", Fraction(0), Fraction(1, 10), (("orientation", (("row", 1), ("column", 2))),
                                                             ("symbols", (("A", 1), ("B", 2)))))
MAGIC = Feature("magic_transform", Fraction(1, 9), Fraction(1, 11), (("to", (("A", 1), ("B", 3))),), ("B", "C"))
STARFALL = Feature("starfall_wilds", Fraction(1, 10), Fraction(1, 5),
                   (("modes", (("pattern", 1), ("line", 2))), ("pattern_count", ((1, 1), (2, 3))),
                    ("line_count", ((2, 1),))))
FEATS = GridFeatures((IRISH, MAGIC))



def test_the_99_interval_holds_the_exact_figures_of_a_small_grid_with_features():
    """10 seeds of 10,000 rounds: at the stated 1% miss rate, 3 or more misses of a figure has probability
    below 0.2%; the exact figures are the chain's from the exact start distribution."""
    exact = chain_figures(CFG, start=start_distribution(CFG, FEATS))
    rt, fd = round_tables(CFG, FEATS), first_drop(CFG)
    miss = {"rtp": 0, "p_free_spins": 0, "hit": 0}
    for seed in range(10):
        s = simulate_rounds(rt, fd, FEATS, None, seed, rounds=10_000, task_rounds=5_000)
        miss["rtp"] += not s.rtp.ci[0] <= exact.mean / CFG.bet <= s.rtp.ci[1]
        miss["p_free_spins"] += not s.p_free_spins.ci[0] <= exact.p_free_spins <= s.p_free_spins.ci[1]
        miss["hit"] += not s.hit_frequency.ci[0] <= 1 - exact.p_zero <= s.hit_frequency.ci[1]
    assert binomial_tail(3, 10, 0.01) < 0.002
    assert max(miss.values()) <= 2, miss


def test_tasks_merge_to_the_same_figures_in_any_order():
    rt, fd = round_tables(CFG, FEATS), first_drop(CFG)
    parts = [round_task(rt, (5, k, 3000)) for k in range(4)]
    fwd, back = RoundStats(), RoundStats()
    for p in parts:
        fwd.add(p)
    for p in reversed(parts):
        back.add(p)
    a, b = round_figures(rt, fwd, fd, FEATS, None, 5), round_figures(rt, back, fd, FEATS, None, 5)
    assert a == b and a.rounds == 12000


def test_the_win_cap_removes_exactly_the_difference_on_the_same_rounds():
    fd = first_drop(CFG)
    free = simulate_rounds(round_tables(CFG, FEATS), fd, FEATS, None, 3, rounds=8000, task_rounds=4000)
    capped = simulate_rounds(round_tables(CFG, FEATS, cap_bets=1), fd, FEATS, None, 3, rounds=8000,
                             task_rounds=4000, cap_bets=1)
    r = capped.cap["removed"].value
    assert r > 0 and capped.cap["probability"].value > 0 and capped.cap["coins"] == 10
    assert abs(free.rtp.value - r - capped.rtp.value) < 1e-12
    assert all(p == 0 for lo, hi, p, _ in capped.ranges if lo > 1)        # nothing pays beyond 1 x bet
    assert any(p > 0 for lo, hi, p, _ in free.ranges if lo > 1)


@pytest.mark.slow
def test_every_free_spin_game_s_interval_holds_its_exact_round_rtp():
    feats = GridFeatures((STARFALL, IRISH, MAGIC))
    games = FreeSpinGames((FreeGame("star_bar", 3), FreeGame("lucky_mug", 2),
                           FreeGame("golden_pot", 2, 2, (("B", 1), ("C", 1)))),
                          (("star_bar", 1), ("lucky_mug", 9), ("golden_pot", 16)), "star_bar")
    start = start_distribution(CFG, feats)
    exact = {g.name: chain_figures(CFG, start=start, free_start=free_start(CFG, feats, g), free_spins=g.spins).mean
             / CFG.bet for g in games.games}
    rt, fd = round_tables(CFG, feats, games), first_drop(CFG)
    n = 60
    miss = {g: 0 for g in exact}
    for seed in range(n):
        s = simulate_rounds(rt, fd, feats, games, seed, rounds=20_000, task_rounds=10_000)
        for g, v in exact.items():
            miss[g] += not s.choices[g]["rtp"].ci[0] <= v <= s.choices[g]["rtp"].ci[1]
    assert binomial_tail(5, n, 0.01) < 0.005
    assert max(miss.values()) <= 4, miss
