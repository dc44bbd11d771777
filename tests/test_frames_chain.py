"""Frames through the free spins (markov/frames.py): the per-reel chains and their convolution, the protocol
chain, each equal to a literal replay of every stop sequence on small games."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from markov.frames import FramesChain, bowls_moments, level_counts_law, reel_levels_law
from markov.protocol import solve

F = Fraction
BOWLS = ((F(3, 2), F(5, 2)), (F(5), F(30)), (F(40), F(2600)))


def _game(seed):
    rng = random.Random(seed)
    reels, rows = rng.choice([2, 3]), rng.choice([1, 2])
    masks = [tuple(rng.randrange(1 << rows) if rng.random() < 0.5 else 0 for _ in range(rng.randint(2, 3)))
             for _ in range(reels)]
    start = tuple(tuple(rng.choice([0, 0, 1, 3]) for _ in range(rows)) for _ in range(reels))
    return masks, start, rng.randint(1, 3), rng.choice([1, 3])


def _replay(masks, start, spins, raise_by):
    """Every sequence of stop combinations, read from the rules: (E[B], E[B^2])."""
    combos = list(itertools.product(*[range(len(m)) for m in masks]))
    mean = second = F(0)
    for seq in itertools.product(combos, repeat=spins):
        levels = [list(lv) for lv in start]
        for stops in seq:
            for r, p in enumerate(stops):
                for i in range(len(levels[r])):
                    if masks[r][p] >> i & 1:
                        levels[r][i] = min(3, levels[r][i] + raise_by)
        p = F(1, len(combos) ** spins)
        cells = [v for lv in levels for v in lv if v]
        m = sum(BOWLS[v - 1][0] for v in cells)
        var = sum(BOWLS[v - 1][1] - BOWLS[v - 1][0] ** 2 for v in cells)
        mean += p * m
        second += p * (var + m * m)
    return mean, second


@pytest.mark.parametrize("seed", range(10))
def test_per_reel_convolution_and_protocol_chain_equal_the_replay(seed):
    masks, start, spins, raise_by = _game(seed)
    want = _replay(masks, start, spins, raise_by)
    laws = [reel_levels_law(m, s, spins, raise_by) for m, s in zip(masks, start)]
    assert bowls_moments(level_counts_law(laws), BOWLS) == want
    m = solve(FramesChain(tuple(masks), start, BOWLS, raise_by), [spins])[spins]
    assert (m.mean, m.second, m.steps) == (want[0], want[1], spins)


def test_levels_are_capped_at_3():
    """A level-2 frame hit twice is a level-3 bowl (without the cap it would be level 4 and no bowl)."""
    right = bowls_moments(level_counts_law([reel_levels_law((1, 1), (2,), 2)]), BOWLS)
    assert right == BOWLS[2]
