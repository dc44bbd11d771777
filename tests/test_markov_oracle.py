"""Independent oracles for the free-spin ladder (rules page section 11), and their own sanity tests.

The oracles never call :mod:`markov`: they play the section 11 rules
literally, with the true (uncapped) KEY counter, over explicit joint outcomes
``(probability, KEY count, win)`` of one spin of each level.

* :func:`enumerate_feature` walks every sequence of per-spin outcomes and sums
  exactly.
* :func:`simulate_feature` plays features with a seeded numpy Generator.
* :func:`split_of` turns a level's outcome list into the
  :class:`~markov.moments.CountSplit` the chain consumes.
"""
from __future__ import annotations

from fractions import Fraction as F

import numpy as np

from strips.model import Phase
from generators import enumerate_feature, simulate_feature, split_of


# ---------------------------------------------------------------------------
# sanity of the oracle itself, against arithmetic done by hand
# ---------------------------------------------------------------------------
def test_split_of_sums_joint_moments():
    # outcomes (p, k, w): (1/2, 0, 0), (1/4, 0, 4), (1/4, 1, 2)
    sp = split_of([(F(1, 2), 0, F(0)), (F(1, 4), 0, F(4)), (F(1, 4), 1, F(2))])
    assert sp.prob == (F(3, 4), F(1, 4))
    assert sp.win == (F(1), F(1, 2))        # 1/4 * 4 ; 1/4 * 2
    assert sp.win2 == (F(4), F(1))          # 1/4 * 16 ; 1/4 * 4


def test_enumerate_two_levels_one_spin_each_by_hand():
    # level 1: k=1 (win 2) or k=0 (win 0), each 1/2; level 2 needs 1 KEY: k=1 (win 10) or 0, each 1/2
    # F = 0 (1/2), 2 (1/4), 12 (1/4): E[F] = 1/2 + 3 = 7/2, E[F^2] = 1 + 36 = 37
    half = F(1, 2)
    out = [[(half, 0, F(0)), (half, 1, F(2))], [(half, 0, F(0)), (half, 1, F(10))]]
    b = enumerate_feature(out, (0, 1), (None, 1), 1)
    assert (b.mean, b.second) == (F(7, 2), F(37))
    assert b.reach == [1, half] and b.final_level == [half, half]
    assert b.keys == F(3, 4)                # 1/2 from level 1 + 1/2 * 1/2 from level 2


def test_simulate_reproduces_a_forced_feature():
    # every spin has 1 KEY and wins 3 x multiplier; thresholds 1, 2 -> all levels, win 3*2 + 6*1 + 15*1
    out = [[(F(1), 1, F(3))], [(F(1), 1, F(6))], [(F(1), 1, F(15))]]
    wins, reached = simulate_feature(out, (0, 1, 2), (None, 1, 1), 2, 10, seed=1)
    assert np.all(wins == 27) and np.all(reached == 3)
