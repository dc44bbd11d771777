"""The game file as a general schema (issue 9): games without free spins, rules the
schema cannot express, and the validation of the new keys."""
from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from exact.cli import main
from exact.errors import MathSetError
from mathset_files import BUNDLED_GAME, csv_text
from oracle import brute_force
from strips.loader import load_math_set, parse_game

BASE_GAME = """
[game]
reels = 3
rows = 2
bet = 5
[strips]
base = "base.csv"
[symbols.A]
class = "pay"
pays = [0, 1, 4]
[symbols.B]
class = "pay"
pays = [0, 2, 3]
[symbols.W]
class = "wild"
reels = { base = [2, 3] }
substitutes = ["A"]
[symbols.S]
class = "scatter"
reels = { base = [1, 2, 3] }
pays = [0, 5, 20]
"""


def write(tmp_path, game: str, base_cols) -> str:
    (tmp_path / "game.toml").write_text(game)
    (tmp_path / "base.csv").write_text(csv_text(base_cols))
    return str(tmp_path)


def test_game_without_free_spins_round_is_the_base_spin(tmp_path, capsys):
    """No [free_spins]: RTP, mean and variance of a round are those of the base spin, by brute force."""
    d = write(tmp_path, BASE_GAME, [["A", "B", "S", "A"], ["W", "A", "S", "B", "B"], ["S", "A", "W", "B"]])
    assert main(["--set", d, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ms = load_math_set(d)
    bf = brute_force(ms, ms.model.base_phase)
    mean = sum(bf.win_scatter.values(), Fraction(0))
    second = sum(bf.win2_scatter.values(), Fraction(0))
    assert Fraction(out["mean_win"]) == mean
    assert Fraction(out["variance"]) == second - mean * mean
    assert Fraction(out["rtp"]) == mean / 5
    assert Fraction(out["components"]["base_scatter"]) > 0
    assert out["trigger"] == {} and out["feature"] == {}
    assert main(["--set", d]) == 0
    text = capsys.readouterr().out
    assert "FREE SPINS" not in text and "base game scatter pays" in text


@pytest.mark.parametrize("extra, key", [
    ("\n[cascades]\nmultipliers = [1, 2, 3]\n", "cascades"),
    ("\n[pick_bonus]\nprizes = [10, 20]\n", "pick_bonus"),
])
def test_unsupported_table_is_refused_naming_the_rule(tmp_path, capsys, extra, key):
    d = write(tmp_path, BASE_GAME + extra, [["A", "B"], ["A", "B"], ["A", "B"]])
    assert main(["--set", d]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unsupported rule" in err and key in err
    line = BASE_GAME.count("\n") + 2
    assert f"game.toml:{line}:" in err


def test_unsupported_key_in_free_spins_is_refused():
    text = BUNDLED_GAME.read_text().replace("retrigger = false", "retrigger = false\ncascade = true")
    with pytest.raises(MathSetError, match="unsupported rule: key 'cascade'") as e:
        parse_game(text.encode(), "game.toml")
    assert e.value.row == text.splitlines().index("cascade = true") + 1


def test_raises_substitutes_naming_a_non_pay_symbol():
    text = BASE_GAME.replace('substitutes = ["A"]', 'substitutes = ["A", "S"]')
    with pytest.raises(MathSetError, match="'S' is not a pay symbol") as e:
        parse_game(text.encode(), "game.toml")
    assert e.value.row == text.splitlines().index('substitutes = ["A", "S"]') + 1


def test_raises_retrigger_with_a_multi_level_ladder():
    text = BUNDLED_GAME.read_text().replace("retrigger = false", "retrigger = { 3 = 5 }")
    with pytest.raises(MathSetError, match="unsupported rule: retrigger with a multi-level ladder"):
        parse_game(text.encode(), "game.toml")


@pytest.mark.parametrize("table, message", [
    ("retrigger = { 0 = 5 }", "scatter counts >= 1"),
    ("retrigger = { 3 = 0 }", "extra free spins must be >= 1"),
    ("retrigger = { 3 = 5 }\nretrigger_cap = 0", "at least 1 free spin"),
])
def test_raises_bad_retrigger_table(table, message):
    game = BASE_GAME + '\n[free_spins]\nstrips = "base"\ntrigger = { 3 = 5 }\n' + table + \
        "\n[[free_spins.levels]]\nmultiplier = 2\n"
    with pytest.raises(MathSetError, match=re.escape(message)):
        parse_game(game.encode(), "game.toml")


def test_raises_negative_scatter_pay():
    with pytest.raises(MathSetError, match="scatter pays must not be negative"):
        parse_game(BASE_GAME.replace("pays = [0, 5, 20]", "pays = [0, -5, 20]").encode(), "game.toml")


def test_raises_weight_table_used_by_no_phase():
    """A FISH weight table no phase uses would be silently ignored: it is refused where it stands."""
    text = BUNDLED_GAME.read_text().replace("weights.level4 = [250, 300, 250, 200]",
                                            "weights.level4 = [250, 300, 250, 200]\nweights.level9 = [1, 1, 1, 1]")
    with pytest.raises(MathSetError, match="weight table 'level9' is used by no phase") as e:
        parse_game(text.encode(), "game.toml")
    assert e.value.row == text.splitlines().index("weights.level9 = [1, 1, 1, 1]") + 1
