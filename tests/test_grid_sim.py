"""The vectorised reading of grid games (exact/grid_sim.py) against the literal one, step by step and
cascade by cascade on the same draws."""
from __future__ import annotations

import random

import numpy as np
import pytest

from exact.grid_sim import cascade_batch, codes_of, evaluate_batch, grid_tables, move, names_of, play_rounds
from exact.rules.grid import evaluate, play_cascade
from tests.gen_grid import random_config


def _random_grids(cfg, rng, n, wild_share=0.25):
    """Full grids: pay symbols, WILDs (often) and the key (once, sometimes)."""
    out = []
    for _ in range(n):
        g = [rng.choice(cfg.pay_symbols) if rng.random() > wild_share else cfg.wild for _ in range(cfg.cells)]
        if cfg.key and rng.random() < 0.7:
            g[rng.randrange(cfg.cells)] = cfg.key
        out.append(tuple(g))
    return out


@pytest.mark.parametrize("shape", [(3, 3), (2, 3), (4, 3), (3, 4), (5, 5), (1, 5)])
def test_one_evaluation_equals_the_literal_one(shape):
    rng = random.Random(sum(shape))
    cfg = random_config(rng, *shape, symbols=3, key=True)
    t = grid_tables(cfg)
    grids = _random_grids(cfg, rng, 400)
    codes = np.stack([codes_of(cfg, g) for g in grids])
    pay, anywin, removed, nw = evaluate_batch(t, codes)
    moved, empties = move(t, codes, removed, nw)
    for i, g in enumerate(grids):
        ev = evaluate(cfg, g)
        assert (int(pay[i]), bool(anywin[i])) == (ev.pay, bool(ev.wins)), g
        assert [c for c in range(cfg.cells) if int(removed[i]) >> c & 1] == list(ev.removed), g
        assert [c for c in range(cfg.cells) if int(nw[i]) >> c & 1] == list(ev.new_wilds), g
        if ev.wins:
            assert names_of(cfg, moved[i]) == ev.moved and int(empties[i]) == len(ev.refill)


@pytest.mark.parametrize("shape", [(3, 3), (2, 3), (4, 4)])
def test_whole_cascades_equal_the_literal_ones_on_the_same_draws(shape):
    rng = random.Random(7 * shape[0] + shape[1])
    cfg = random_config(rng, *shape, symbols=3, key=True)
    t = grid_tables(cfg)
    grids = _random_grids(cfg, rng, 300, wild_share=0.1)
    codes = np.stack([codes_of(cfg, g) for g in grids])

    def symbol(r, step, k):      # the refill symbol of grid r, evaluation step, path position k
        return (r * 7919 + step * 104729 + k * 31 + (r * step) % 13) % len(cfg.pay_symbols)

    def draw(rows, step, n):
        return np.array([[symbol(int(r), step, k) for k in range(n)] for r in rows], dtype=np.int8)

    win, evals, first, final = cascade_batch(t, codes, draw)
    for r, g in enumerate(grids):
        steps = iter(range(10 ** 6))
        lit = play_cascade(cfg, g, lambda n, r=r, steps=steps: [cfg.pay_symbols[symbol(r, s, k)]
                                                                 for s in [next(steps)] for k in range(n)])
        assert (int(win[r]), int(evals[r]), int(first[r])) == (lit.win, len(lit.evaluations),
                                                               lit.evaluations[0].pay)
        assert names_of(cfg, final[r]) == lit.final


def test_rounds_award_free_spins_only_with_the_key_on_the_path_end():
    cfg = random_config(random.Random(5), 2, 3, symbols=2, key=True)
    t = grid_tables(cfg)
    r = play_rounds(t, 20000, np.random.default_rng(3))
    assert r.awarded.any() and (r.free_win[~r.awarded] == 0).all()
