"""The certified simulation of grid games: its interval holds the exact value of a small grid at the
stated level (over many seeds), its figures do not depend on where or in which order tasks run, and the
stratified control-variate estimator is unbiased."""
from __future__ import annotations


import pytest

from exact.grid_chain import chain_figures
from exact.grid_drop import first_drop
from exact.grid_sim import grid_tables
from exact.rules.grid import grid_config_of
from proofs.dask_runner import Cluster
from proofs.grid_simulate import GridStats, figures, grid_task, simulate_grid
from tests.gen_grid import binomial_tail

CFG = grid_config_of(2, 3, {"A": (0, 0, 30), "B": (0, 0, 12), "C": (0, 0, 6)}, weights={"A": 2, "B": 3, "C": 4},
                     key="K", free_spins=3, bet=10)



def _misses(seeds, rounds):
    exact = chain_figures(CFG)
    rtp, pfs = exact.mean / CFG.bet, exact.p_free_spins
    t, fd = grid_tables(CFG), first_drop(CFG)
    miss = {"rtp": 0, "p_free_spins": 0}
    for seed in seeds:
        s = simulate_grid(CFG, seed, rounds=rounds, task_rounds=rounds // 2, tables=t, fd=fd)
        miss["rtp"] += not s.rtp_ci99[0] <= rtp <= s.rtp_ci99[1]
        miss["p_free_spins"] += not s.p_free_spins_ci99[0] <= pfs <= s.p_free_spins_ci99[1]
    return miss


def test_the_99_interval_holds_the_exact_rtp_of_a_small_grid_over_many_seeds():
    """200 seeds of 4,000 rounds: at a true miss rate of 1% (the stated level), 7 or more misses has
    probability below 0.5%; the exact RTP is the chain's."""
    n = 200
    miss = _misses(range(n), 4000)
    assert binomial_tail(7, n, 0.01) < 0.005
    assert miss["rtp"] <= 6 and miss["p_free_spins"] <= 6, miss


@pytest.mark.slow
def test_the_false_fail_rate_is_at_most_the_level_over_thousands_of_seeds():
    n = 3000
    miss = _misses(range(10_000, 10_000 + n), 20_000)
    limit = next(k for k in range(n) if binomial_tail(k, n, 0.01) < 0.001)
    assert miss["rtp"] < limit and miss["p_free_spins"] < limit, (miss, limit)


def test_tasks_merge_to_the_same_figures_in_any_order():
    t, fd = grid_tables(CFG), first_drop(CFG)
    parts = [grid_task(t, (5, k, 3000)) for k in range(4)]
    fwd, back = GridStats(), GridStats()
    for p in parts:
        fwd.add(p)
    for p in reversed(parts):
        back.add(p)
    a, b = figures(fwd, fd.no_win, fd.mean, 10, 5, fd), figures(back, fd.no_win, fd.mean, 10, 5, fd)
    assert a == b and a.rounds == 12000


def test_the_target_halfwidth_is_reached_and_the_variance_is_reduced():
    s = simulate_grid(CFG, 2, target=0.02, task_rounds=5000)
    assert s.halfwidth < 0.02 and s.variance_reduction > 1
    assert s.evaluations[0][0] == 1 and s.evaluations[0][1] == float(first_drop(CFG).no_win)


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_figures_of_one_process():
    one = simulate_grid(CFG, 9, rounds=40_000, task_rounds=10_000, cluster=Cluster(workers=1))
    two = simulate_grid(CFG, 9, rounds=40_000, task_rounds=10_000, cluster=Cluster(workers=2, mode="local"))
    assert (one.rtp, one.rtp_ci99, one.p_free_spins) == (two.rtp, two.rtp_ci99, two.p_free_spins)
