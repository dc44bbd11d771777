"""The vectorised whole rounds of a grid game with random features and free-spin games
(exact/grid_rounds.py) against the literal reading on the same draws, exactly.

Each round and each free spin reads its own stream of integers (tests/gen_grid.py ``TapeDraws``); the
literal reading (exact.rules: feature_drop, free_game_drop, lava_drop, play_lava_spin,
play_featured_round) reads the same stream through ``IntegerChooser``.  Every grid, win, evaluation
count and award must be equal.
"""
from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from exact.grid_rounds import (FeaturedBatch, RngDraws, apply_features, free_drops, play_featured_rounds,
                               round_tables)
from exact.grid_sim import codes_of, names_of
from exact.rules import (GridFeatures, IntegerChooser, feature_drop, find_wins, free_game_drop, grid_config_of,
                         initial_drop, lava_drop, play_featured_round)
from exact.rules.grid_features import Feature
from exact.rules.grid_free_games import FreeGame, FreeSpinGames, play_lava_spin
from tests.gen_grid import TapeDraws, tape_chooser

PAYS4 = {"A": (0, 0, 8, 20), "B": (0, 0, 4, 10), "C": (0, 0, 2, 5), "D": (0, 0, 1, 3)}
FEATS = GridFeatures((
    Feature("starfall_wilds", Fraction(1, 3), Fraction(1, 4),
            (("modes", (("pattern", 2), ("line", 1))), ("pattern_count", ((2, 3), (3, 1))), ("line_count", ((3, 2), (4, 1))))),
    Feature("dragon_destroy", Fraction(0), Fraction(1, 4), (("count", ((5, 2), (6, 1))),)),
    Feature("irish_luck", Fraction(0), Fraction(1, 4), (("orientation", (("row", 1), ("column", 2))),
                                                         ("symbols", (("A", 1), ("B", 2), ("D", 1))))),
    Feature("magic_transform", Fraction(1, 3), Fraction(1, 8), (("to", (("A", 1), ("B", 3))),), ("C", "D"))))
GAMES = FreeSpinGames((FreeGame("star_bar", 2), FreeGame("lava_lair", 2), FreeGame("lucky_mug", 2),
                       FreeGame("golden_pot", 2, 5, (("C", 1), ("D", 2)))),
                      (("star_bar", 1), ("lava_lair", 4), ("lucky_mug", 9), ("golden_pot", 16)), "star_bar")


def _cfg(rows=4, columns=4):
    return grid_config_of(rows, columns, {s: p[:max(rows, columns)] + (p[-1],) * (max(rows, columns) - len(p))
                                          for s, p in PAYS4.items()},
                          weights={"A": 2, "B": 3, "C": 5, "D": 6}, key="K", free_spins=2,
                          free_weights={"A": 3, "B": 3, "C": 4, "D": 4})


def _drops(cfg, n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        g = [rng.choice("ABCD") for _ in range(cfg.cells)]
        g[cfg.path[0]] = cfg.key
        out.append(tuple(g))
    return out


@pytest.mark.parametrize("shape", [(4, 4), (5, 5), (3, 4)])
def test_each_random_feature_equals_the_literal_one_on_the_same_draws(shape):
    cfg = _cfg(*shape)
    rt = round_tables(cfg, FEATS, GAMES)
    drops = _drops(cfg, 160, sum(shape))
    G = np.stack([codes_of(cfg, g) for g in drops])
    won = np.array([bool(find_wins(cfg, g)) for g in drops])
    feature = apply_features(rt, TapeDraws(rt.t, range(len(drops))), np.arange(len(drops)), G, won)
    seen = set()
    for r, drop in enumerate(drops):
        grid, name = feature_drop(cfg, FEATS, drop, tape_chooser(cfg, r))
        assert names_of(cfg, G[r]) == grid, (r, name)
        assert (rt.features[feature[r]] if feature[r] >= 0 else None) == name
        seen.add(name)
    assert seen == {None, "starfall_wilds", "dragon_destroy", "irish_luck", "magic_transform"}


@pytest.mark.parametrize("game", ["star_bar", "lava_lair", "lucky_mug", "golden_pot"])
def test_each_free_spin_game_s_drop_equals_the_literal_one_on_the_same_draws(game):
    cfg = _cfg()
    rt = round_tables(cfg, FEATS, GAMES)
    n = 120
    G = free_drops(rt, TapeDraws(rt.t, range(n)), np.arange(n), game)
    for r in range(n):
        ch = tape_chooser(cfg, r)
        if game == "lava_lair":
            lit = lava_drop(cfg, ch)
        else:
            lit = free_game_drop(cfg, FEATS, GAMES.game(game), initial_drop(cfg, lambda k: ch.symbols("free", k), False), ch)
        assert names_of(cfg, G[r]) == lit, r


def test_whole_rounds_equal_the_literal_rounds_on_the_same_draws():
    """Base drop, feature, cascade, the key's award and every game's free spins (Lava Lair's sticky WILD
    and stored Dragon Destroy included), round by round."""
    cfg = _cfg()
    rt = round_tables(cfg, FEATS, GAMES)
    n = 200
    b = play_featured_rounds(rt, n, TapeDraws(rt.t, range(n)))
    for r in range(n):
        lit = play_featured_round(cfg, FEATS, GAMES, [g.name for g in GAMES.games],
                                  lambda s, r=r: tape_chooser(cfg, r if s == "base" else (r, *s)))
        assert (int(b.base_win[r]), int(b.evaluations[r]), bool(b.awarded[r])) == \
            (lit.base_win, len(lit.cascade.evaluations), lit.awarded), r
        assert (rt.features[b.feature[r]] if b.feature[r] >= 0 else None) == lit.feature
        for g in b.free:
            assert int(b.free[g][r]) == lit.free_win(g), (r, g)
    assert b.awarded.sum() >= 5 and all(b.free[g].sum() > 0 for g in b.free)


def test_a_lava_lair_spin_equals_the_literal_spin_on_the_same_draws():
    cfg = _cfg()
    rt = round_tables(cfg, FEATS, GAMES)
    n = 150
    from exact.grid_rounds import free_cascades
    wins = free_cascades(rt, TapeDraws(rt.t, range(n)), np.arange(n), "lava_lair")
    for r in range(n):
        lit = sum(play_lava_spin(cfg, FEATS, None, tape_chooser(cfg, (r, "lava_lair", s)))[0] for s in range(2))
        assert int(wins[r]) == lit, r


def test_the_win_cap_caps_each_choice_s_round_total():
    b = FeaturedBatch(np.zeros(3), np.zeros(3, bool), np.full(3, -1), np.array([5, 90, 300]), np.ones(3),
                      np.array([False, True, True]), {"star_bar": np.array([0, 20, 50])})
    assert b.total("star_bar", 100).tolist() == [5, 100, 100] and b.total("star_bar", None).tolist() == [5, 110, 350]


def test_random_draws_play_the_same_law_as_the_literal_reading():
    """The rng reading of the same rounds: its mean base win within 4 standard errors of the literal
    random player's (IntegerChooser on Python's random)."""
    cfg = _cfg()
    rt = round_tables(cfg, FEATS, GAMES)
    b = play_featured_rounds(rt, 3000, RngDraws(rt.t, np.random.default_rng(5)))
    rng = random.Random(5)
    lit = [play_featured_round(cfg, FEATS, GAMES, ["star_bar"],
                               lambda s: IntegerChooser(cfg, rng.randrange)) for _ in range(600)]
    v = np.array([x.base_win + x.free_win("star_bar") for x in lit], dtype=float)
    w = (b.base_win + b.free["star_bar"]).astype(float)
    se = (v.var() / v.size + w.var() / w.size) ** 0.5
    assert abs(v.mean() - w.mean()) < 4 * se
