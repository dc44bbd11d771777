"""The literal round player (exact/play.py) as the oracle: its exact round distribution, replayed
over every sequence of draws, equals the engines' exact figures on small games of every feature
kind (ladder with collect, capped retrigger, respin mode, prize wheel with jackpot and free spins,
gamble, win cap), and its random rounds are rounds of that distribution."""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

import exact
from exact.gamble import round_eligible
from exact.play import RandomChooser, play_round, round_distribution


def _moments(d: dict) -> tuple[Fraction, Fraction]:
    assert sum(d.values()) == 1
    m = sum(x * p for x, p in d.items())
    return m, sum(x * x * p for x, p in d.items()) - m * m


def _symbols(bonus: bool = True) -> dict:
    reels = {"base": [1, 2, 3], **({"bonus": [1, 2, 3]} if bonus else {})}
    return {"A": {"class": "pay", "pays": [0, 2, 10]}, "B": {"class": "pay", "pays": [0, 1, 4]},
            "W": {"class": "wild", "reels": reels}, "S": {"class": "scatter", "reels": reels}}


def ladder_game():
    """Two levels climbed by KEYs, FISH collect with drawn values, WILD substitution."""
    sym = _symbols()
    sym["K"] = {"class": "key", "reels": {"base": [1, 2, 3], "bonus": [1, 2, 3]}}
    sym["F"] = {"class": "fish", "reels": {"base": [1, 2, 3], "bonus": [1, 2, 3]}, "values": [1, 3],
                "weights": {"base": [2, 1], "level1": [1, 1], "level2": [1, 3]}}
    game = {"game": {"reels": 3, "rows": 1, "bet": 1}, "symbols": sym,
            "free_spins": {"strips": "bonus", "trigger": {"2": 1},
                           "levels": [{"multiplier": 1, "weights": "level1"},
                                      {"threshold": 1, "spins": 1, "multiplier": 3, "weights": "level2"}]}}
    return exact.math_set(game, {"base": [["A", "S", "K"], ["S", "W", "F"], ["B", "F", "S"]],
                                 "bonus": [["A", "K", "F"], ["B", "K"], ["F", "A", "W"]]})


def retrigger_game():
    """One level with a retrigger table under a cap, and scatter pays."""
    sym = _symbols()
    sym["S"]["pays"] = [0, 1, 5]
    game = {"game": {"reels": 3, "rows": 1, "bet": 1}, "symbols": sym,
            "free_spins": {"strips": "bonus", "trigger": {"2": 1}, "retrigger": {"2": 1}, "retrigger_cap": 3,
                           "levels": [{"multiplier": 2, "weights": "level1"}]}}
    return exact.math_set(game, {"base": [["A", "S", "B"], ["S", "W", "B"], ["B", "A", "S"]],
                                 "bonus": [["S", "A"], ["S", "B"], ["A", "S", "W"]]})


def wheel_game(extra: str = ""):
    """A bet mode with a respin, a prize wheel (credits, a jackpot, free spins) and a gamble."""
    sym = _symbols()
    sym["X"] = {"class": "scatter", "reels": {"base": [1, 2, 3]}}
    game = {"game": {"reels": 3, "rows": 1, "bet": 2}, "symbols": sym,
            "free_spins": {"strips": "bonus", "scatter": "S", "trigger": {"2": 1},
                           "levels": [{"multiplier": 1, "weights": "level1"}]},
            "jackpots": {"Mini": 30},
            "wheel": {"bonus": {"symbol": "X", "tables": {"2": "t"},
                                "prizes": {"t": {"awards": ["credits 5", "jackpot Mini", "free_spins 1"],
                                                 "weights": [3, 1, 2]}}}},
            "modes": {"ante": {"cost": 3, "respin": {"symbol": "X", "count": 1}}},
            "gamble": {"min_win": 1, "max_win": 40, "multiplier": 2, "probability": "9/20"}}
    return exact.math_set(game, {"base": [["A", "X", "S"], ["X", "W", "B"], ["B", "S", "X"]],
                                 "bonus": [["A", "B"], ["S", "W"], ["B", "A", "S"]]})


@pytest.mark.parametrize("make", [ladder_game, retrigger_game], ids=["ladder", "retrigger"])
def test_literal_rounds_equal_the_exact_round(make):
    ms = make()
    sheet = exact.par_sheet(ms)
    assert _moments(round_distribution(ms)) == (sheet.mean_win, sheet.variance)


def test_literal_rounds_of_every_bet_mode_equal_the_exact_modes():
    ms = wheel_game()
    sheet = exact.par_sheet(ms)
    for name in ms.mode_names:
        m = sheet.modes[name].round
        assert _moments(round_distribution(ms.mode(name))) == (m.mean, m.variance), name
    assert sheet.modes["ante"].round.respin_prob > 0 and sheet.modes["default"].round.wheel > 0


def test_literal_gamble_equals_the_exact_gamble():
    ms = wheel_game().mode("default")
    d = round_distribution(ms, gamble=True)
    prob, win = round_eligible(ms, ms.model.gamble)
    plain = round_distribution(ms)
    gm = ms.model.gamble
    eligible = {x: p for x, p in plain.items() if gm.min_win <= x and gm.multiplier * x <= gm.max_win}
    assert (sum(eligible.values()), sum(x * p for x, p in eligible.items())) == (prob, win)
    mean_plain = sum(x * p for x, p in plain.items())
    assert sum(x * p for x, p in d.items()) == mean_plain + win * (gm.probability * gm.multiplier - 1)


def test_literal_win_cap_equals_the_capped_report():
    game = {"game": {"reels": 3, "rows": 1, "bet": 1, "max_win": 6}, "symbols": _symbols(bonus=False)}
    ms = exact.math_set(game, {"base": [["A", "W", "B"], ["A", "W", "B", "S"], ["A", "W", "B"]]})
    sheet = exact.par_sheet(ms)
    assert sheet.sections["win cap"].reached
    assert _moments(round_distribution(ms)) == (sheet.mean_win, sheet.variance)


def test_random_rounds_are_rounds_of_the_exact_distribution():
    ms = ladder_game()
    support = round_distribution(ms)
    for seed in range(200):
        r = play_round(ms, RandomChooser(seed))
        assert r.paid in support and r.total == sum(s.win for _, s in r.spins)


def test_an_endless_feature_is_refused_not_a_hang():
    ms = retrigger_game()
    model = ms.model
    endless = dataclasses.replace(ms, model=dataclasses.replace(model, retrigger_cap=None))
    with pytest.raises(ValueError, match="draws more than"):
        round_distribution(endless, max_draws=40)
