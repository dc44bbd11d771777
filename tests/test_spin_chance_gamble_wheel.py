"""Spin Chance and the gamble's left wheel: literal readings, exact figures against a brute-force replay
of every stop combination and every gamble outcome, key validation, the bundled wheel game."""
from __future__ import annotations

import itertools
import json
import shutil
from fractions import Fraction

import pytest

import exact
from exact.cli import main
from exact.rules import gamble_wheel_outcomes, spin_chance_outcomes
from gen_hold_and_win import ways_win
from strips.errors import MathSetError
from strips.loader import bundled_path, load_math_set
from mathset_files import plain_wheel_game

F = Fraction


def _game(extra: dict, bet: int = 5):
    game = {"game": {"reels": 3, "rows": 1, "bet": bet},
            "symbols": {"A": {"class": "pay", "pays": [0, 2, 9]}, "B": {"class": "pay", "pays": [0, 1, 4]},
                        "W": {"class": "wild", "reels": {"base": [2, 3]}}}, **extra}
    strips = {"base": [["A", "B", "B"], ["A", "W", "B", "A"], ["B", "A", "W"]]}
    return game, strips


def _round_law(game, strips):
    """Every stop combination read from the rules (ways pays): {win: probability}."""
    combos = list(itertools.product(*[range(len(s)) for s in strips["base"]]))
    law: dict = {}
    for stops in combos:
        window = [[s[p]] for s, p in zip(strips["base"], stops)]
        w = ways_win(game, window)
        law[w] = law.get(w, 0) + F(1, len(combos))
    return law


def test_spin_chance_returns_the_rtp_per_credit():
    game, strips = _game({"spin_chance": {}})
    sheet = exact.par_sheet(exact.math_set(game, strips))
    s = sheet.sections["spin chance"]
    mean = sum(w * p for w, p in _round_law(game, strips).items())
    for credit in range(1, 5):
        out = dict(spin_chance_outcomes(credit, 5))
        assert out["round"] == F(credit, 5) and sum(out.values()) == 1
        assert out["round"] * mean / credit == s.return_per_credit == sheet.rtp
    for credit in (0, 5, 7):
        with pytest.raises(ValueError, match="Spin Chance needs a credit"):
            spin_chance_outcomes(credit, 5)


GAMBLE = {"gamble": {"min_win": 2, "max_win": 30, "multiplier": 2, "probability": "12/25"},
          "gamble_wheel": {"multipliers": ["4/3", "2", "3"], "return": "24/25"}}


def test_gamble_wheel_rtp_per_choice_equals_brute_force():
    game, strips = _game(GAMBLE)
    sheet = exact.par_sheet(exact.math_set(game, strips))
    s = sheet.sections["gamble wheel"]
    law = _round_law(game, strips)
    assert s.rtp == sheet.rtp and not s.refused
    for m in (F(4, 3), F(2), F(3)):
        gambled = sum(p * q * x for w, p in law.items() for x, q in gamble_wheel_outcomes(w, m, F(24, 25), 2, 30))
        eligible = sum(p for w, p in law.items() if 2 <= w and m * w <= 30)
        assert s.choices[m] == (F(24, 25) / m, eligible, sum(p * w for w, p in law.items() if 2 <= w and m * w <= 30),
                                gambled / 5)
    assert s.choices[F(2)][3] == sheet.gamble_result.rtp_gamble_once


def test_a_gamble_wheel_mutant_fails():
    """The replay can fail: a wheel whose return were 1 per stake would not give the section's RTP."""
    game, strips = _game(GAMBLE)
    s = exact.par_sheet(exact.math_set(game, strips)).sections["gamble wheel"]
    law = _round_law(game, strips)
    wrong = sum(p * q * x for w, p in law.items() for x, q in gamble_wheel_outcomes(w, F(3), F(1), 2, 30)) / 5
    assert wrong != s.choices[F(3)][3]


@pytest.mark.parametrize("table,message", [
    ({"gamble_wheel": {"multipliers": ["1", "2"], "return": "24/25"}}, "distinct multipliers above 1"),
    ({"gamble_wheel": {"multipliers": ["x"], "return": "24/25"}}, "exact fraction"),
    ({"gamble_wheel": {"multipliers": ["4/3"], "return": "3/2"}}, "at most the smallest multiplier"),
    ({"gamble_wheel": {"multipliers": ["2"], "return": "1", "left": 1}}, "unknown key"),
    ({"spin_chance": {"credit": 1}}, "[spin_chance] has no keys"),
])
def test_bad_keys_are_refused_at_their_key(table, message):
    extra = dict(GAMBLE)
    extra.update(table)
    game, strips = _game(extra)
    with pytest.raises(MathSetError, match=message.replace("[", "\\[").replace("]", "\\]")) as e:
        exact.math_set(game, strips)
    assert e.value.file == "<game>" and e.value.row > 1


def test_gamble_wheel_needs_the_gamble():
    game, strips = _game({"gamble_wheel": GAMBLE["gamble_wheel"]})
    with pytest.raises(MathSetError, match="needs \\[gamble\\]"):
        exact.math_set(game, strips)


def test_wheel_game_reports_both(capsys):
    sheet = exact.par_sheet(load_math_set("wheel_game"))
    assert sheet.sections["spin chance"].return_per_credit == sheet.rtp
    assert "frames" in sheet.sections["gamble wheel"].refused     # its per-choice RTP needs the distribution
    sheet = exact.par_sheet(load_math_set(plain_wheel_game()))
    assert sorted(sheet.sections["gamble wheel"].choices) == [F(4, 3), F(2), F(3)]
    assert main(["--set", str(plain_wheel_game()), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["spin_chance"]["return_per_credit"] == out["rtp"]
    assert set(out["gamble_wheel"]["choices"]) == {"4/3", "2", "3"}
