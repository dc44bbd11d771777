"""The exact first drop of grid games against brute force through the literal reading, on every board."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from exact.grid_drop import first_drop
from exact.rules.grid import find_wins, grid_config_of
from tests.gen_grid import random_config


def brute_force(cfg, table="base", key=True):
    """{win: probability} and P(no win) over every board of the initial drop, by find_wins."""
    w = dict(cfg.table(table))
    total = sum(w.values())
    free = [c for c in range(cfg.cells) if not (key and c == cfg.path[0])]
    dist, none = {}, 0
    for vals in itertools.product(cfg.pay_symbols, repeat=len(free)):
        g = [None] * cfg.cells
        if key:
            g[cfg.path[0]] = cfg.key
        p = 1
        for c, v in zip(free, vals):
            g[c] = v
            p *= w[v]
        wins = find_wins(cfg, g)
        win = sum(x.pay for x in wins)
        dist[win] = dist.get(win, 0) + p
        none += p if not wins else 0
    d = total ** len(free)
    return {k: Fraction(v, d) for k, v in sorted(dist.items())}, Fraction(none, d)


def _check(cfg, key):
    got = first_drop(cfg, key=key)
    dist, none = brute_force(cfg, key=key)
    assert dict(got.distribution) == dist
    assert got.no_win == none
    assert got.mean == sum(k * v for k, v in dist.items())


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("shape", [(3, 3), (2, 3), (3, 2), (1, 4), (3, 1)])
def test_first_drop_equals_every_board_of_small_grids(seed, shape):
    rng = random.Random(seed)
    for key in (True, False):
        _check(random_config(rng, *shape, symbols=3, key=key), key)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_first_drop_equals_every_board_of_a_4x3_grid(seed):
    rng = random.Random(100 + seed)
    _check(random_config(rng, 4, 3, symbols=3, key=True), True)
    _check(random_config(rng, 3, 4, symbols=3, key=False), False)


def test_first_drop_of_a_4x3_grid_with_two_symbols():
    _check(random_config(random.Random(7), 4, 3, symbols=2, key=True), True)


def test_the_tensor_no_win_equals_the_distribution_at_zero_on_a_5x5_grid():
    """With every pay > 0, P(no win) = P(win = 0): the tensor DP against the cell-by-cell DP (5x5, 2 symbols)."""
    cfg = grid_config_of(5, 5, {"A": (0, 0, 3, 7, 11), "B": (0, 0, 2, 5, 13)}, weights={"A": 2, "B": 3},
                         key="K", free_spins=1)
    d = first_drop(cfg)
    assert d.no_win == dict(d.distribution)[0] and sum(p for _, p in d.distribution) == 1
