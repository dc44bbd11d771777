"""The game file as a general schema: games without free spins, rules the
schema cannot express, and the validation of the new keys."""
from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from exact.cli import main
from strips.errors import MathSetError
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


@pytest.mark.parametrize("old, new, key", [
    ("bet = 5\n", "bet = 5\ncascades = true\n", "cascades"),
    ("bet = 5\n", "bet = 5\nbett = 6\n", "bett"),
])
def test_unknown_key_in_game_table_is_refused(old, new, key):
    """A key of [game] the schema does not know (a rule or a typo) is refused, never ignored."""
    text = BASE_GAME.replace(old, new)
    with pytest.raises(MathSetError, match=f"unsupported rule: key '{key}' in \\[game\\]") as e:
        parse_game(text.encode(), "game.toml")
    assert e.value.row == text.splitlines().index(new.splitlines()[1]) + 1


def test_simulate_runs_a_game_without_fish_key_or_free_spins(tmp_path, capsys):
    """A 3x2 ways game with a scatter pay, no FISH, no KEY and no free spins simulates; its
    99% intervals contain the exact values (seeded)."""
    d = write(tmp_path, BASE_GAME, [["A", "B", "S", "A"], ["W", "A", "S", "B", "B"], ["S", "A", "W", "B"]])
    assert main(["simulate", "--set", d, "--rounds", "20000", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rtp_inside"] is True and out["rounds"] == 20000


def test_sensitivity_of_a_game_without_free_spins_equals_two_full_computations(tmp_path):
    from exact.engine import analyse
    from exact.sensitivity import sensitivity
    from markov.round import round_result
    text = BUNDLED_GAME.read_text()
    text = text[:text.index("# Free spins, sections 10 and 11.")]
    text = text.replace('bonus = "bonus.csv"\n', "")
    text = re.sub(r", bonus = \[[0-9, ]*\]", "", text)
    text = re.sub(r"weights\.level\d = \[[^\]]*\]\n", "", text)
    (tmp_path / "game.toml").write_text(text)
    base = (BUNDLED_GAME.parent / "base.csv").read_text()
    (tmp_path / "base.csv").write_text(base)
    ms = load_math_set(str(tmp_path))
    s = sensitivity(ms)
    edit = next(e for e in s.edits if not e.breaks and e.edit.old.startswith("AUS") and e.edit.new == "PIC1")
    rows = base.splitlines()
    cells = rows[edit.edit.position + 1].split(",")
    cells[edit.edit.reel] = edit.edit.new
    rows[edit.edit.position + 1] = ",".join(cells)
    (tmp_path / "base.csv").write_text("\n".join(rows) + "\n")
    ms2 = load_math_set(str(tmp_path))
    a1, a2 = analyse(ms), analyse(ms2)
    rtp1 = round_result(ms.model, a1.base, a1.levels).rtp
    rtp2 = round_result(ms2.model, a2.base, a2.levels).rtp
    assert edit.delta == rtp2 - rtp1 != 0


def test_raises_respin_count_larger_than_the_window():
    """The wheel game's window has 5 x 3 = 15 cells: a respin on 16 BONUS symbols never happens."""
    from strips.loader import bundled_path
    text = (bundled_path("wheel_game") / "game.toml").read_text()
    text = text.replace('respin = { symbol = "BONUS", count = 2 }', 'respin = { symbol = "BONUS", count = 16 }')
    with pytest.raises(MathSetError, match=r"modes\.fortune_bet\.respin\.count: 16 BONUS symbols cannot show in a "
                                           r"window of 15 cells") as e:
        parse_game(text.encode(), "game.toml")
    assert e.value.row == text.splitlines().index('respin = { symbol = "BONUS", count = 16 }') + 1


def test_raises_duplicated_payline_naming_both_lines():
    """A payline listed twice would pay twice: refused, naming both line numbers."""
    from generators import game_text
    text = game_text(3, 3, [(0, 0, 0), (1, 1, 1), (0, 1, 2), (1, 1, 1)])
    with pytest.raises(MathSetError, match=r"lines\.paylines: payline 4 repeats payline 2 \(\[2, 2, 2\]\)") as e:
        parse_game(text.encode(), "game.toml")
    assert e.value.row == next(i for i, x in enumerate(text.splitlines(), 1) if x.startswith("paylines ="))
