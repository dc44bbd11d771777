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

from dataclasses import dataclass
from fractions import Fraction as F
from pathlib import Path

import numpy as np

from strips.model import Phase
from markov.moments import CountSplit, PhaseAnalysis
from strips.loader import parse_game

#: one spin outcome of a level: (probability, KEY count, win in credits)
Outcome = tuple[F, int, F]

GAME_TOML = Path(__file__).resolve().parents[1] / "strips" / "rules_page" / "game.toml"


def rules_page_model():
    """The rules-page GameModel, parsed from the bundled game.toml (no strips needed)."""
    return parse_game(GAME_TOML.read_bytes(), str(GAME_TOML))


def split_of(outcomes: list[Outcome], keys: int | None = None) -> CountSplit:
    """CountSplit of a level from its joint outcomes: P(k), E[W 1{k}], E[W^2 1{k}]."""
    n = (max(k for _, k, _ in outcomes) if keys is None else keys) + 1
    prob, win, win2 = [F(0)] * n, [F(0)] * n, [F(0)] * n
    for p, k, w in outcomes:
        prob[k] += p
        win[k] += p * w
        win2[k] += p * w * w
    return CountSplit(tuple(prob), tuple(win), tuple(win2))


@dataclass
class Brute:
    """Exact figures of a feature, summed over every outcome sequence."""

    mean: F
    second: F
    reach: list[F]
    final_level: list[F]
    spins_by_level: list[F]
    win_by_level: list[F]
    keys: F


def feature_paths(outcomes, thresholds, spins, initial_spins):
    """Every sequence of spin outcomes, played through the section 11 rules literally.

    ``outcomes[i]`` lists the outcomes of one spin of level i + 1;
    ``thresholds[i]`` is the KEY total needed to start level i + 1;
    ``spins[i]`` its spins (``spins[0]`` unused: level 1 plays ``initial_spins``).

    Yields
    ------
    (probability, wins of each level played (list), KEY total, spins of each level played (list))
    """
    n_levels = len(outcomes)

    def play_level(level, counter, prob, wins, played):
        n = initial_spins if level == 0 else spins[level]
        seqs = [(prob, counter, F(0))]
        for _ in range(n):
            seqs = [(p * q, c + k, w + x) for p, c, w in seqs for q, k, x in outcomes[level]]
        for p, c, w in seqs:
            if level + 1 < n_levels and c >= thresholds[level + 1]:   # the next level starts
                yield from play_level(level + 1, c, p, wins + [w], played + [n])
            else:                                                      # the free spins end
                yield p, wins + [w], c, played + [n]

    yield from play_level(0, 0, F(1), [], [])


def enumerate_feature(outcomes, thresholds, spins, initial_spins) -> Brute:
    """Exact feature figures summed over :func:`feature_paths`."""
    n_levels = len(outcomes)
    res = Brute(F(0), F(0), [F(0)] * n_levels, [F(0)] * n_levels, [F(0)] * n_levels,
                [F(0)] * n_levels, F(0))
    for p, wins, keys, played in feature_paths(outcomes, thresholds, spins, initial_spins):
        total = sum(wins)
        res.mean += p * total
        res.second += p * total * total
        res.keys += p * keys
        res.final_level[len(wins) - 1] += p
        for i, (w, n) in enumerate(zip(wins, played)):
            res.reach[i] += p
            res.spins_by_level[i] += p * n
            res.win_by_level[i] += p * w
    return res


def phase_analysis(split: CountSplit, name="level1", scatter: CountSplit | None = None,
                   ways_share=F(1, 2)) -> PhaseAnalysis:
    """A hand-built PhaseAnalysis around a KEY split (ways mean = ``ways_share`` x mean, collect the rest)."""
    mean = split.mean
    return PhaseAnalysis(phase=Phase(name, "bonus", name, 1), mean=mean, second=split.second,
                         pays_mean=mean * ways_share, collect_mean=mean * (1 - ways_share),
                         ways_by_symbol={}, oak_prob={},
                         by_scatter=scatter or CountSplit((F(1),), (mean,), (split.second,)),
                         by_key=split, hit_frequency=F(0))


def simulate_feature(outcomes, thresholds, spins, initial_spins, n_features, seed):
    """Seeded Monte Carlo of ``n_features`` features; returns (wins array float64 shape (n,), levels reached int array)."""
    rng = np.random.default_rng(seed)
    n_levels = len(outcomes)
    total = np.zeros(n_features)
    counter = np.zeros(n_features, dtype=np.int64)
    alive = np.ones(n_features, dtype=bool)
    reached = np.ones(n_features, dtype=np.int64)
    for level in range(n_levels):
        n = initial_spins if level == 0 else spins[level]
        p = np.array([float(q) for q, _, _ in outcomes[level]])
        ks = np.array([k for _, k, _ in outcomes[level]])
        ws = np.array([float(w) for _, _, w in outcomes[level]])
        idx = np.flatnonzero(alive)
        draws = rng.choice(len(p), size=(len(idx), n), p=p / p.sum())
        total[idx] += ws[draws].sum(axis=1)
        counter[idx] += ks[draws].sum(axis=1)
        if level + 1 < n_levels:
            alive &= counter >= thresholds[level + 1]
            reached[alive] = level + 2
        else:
            alive[:] = False
    return total, reached


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
