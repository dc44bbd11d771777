"""`rtp check`: each published fact of the rules page, PASS on the bundled set, FAIL when broken.

Source: rules page sections 3, 4, 10, 11, 13 and examples 1-9.
"""
import json
import shutil
from fractions import Fraction

import pytest

from exact.cli import main
from exact.facts import FAIL, MET, PASS, check_facts, fewest_between, longest_run
from strips.loader import bundled_path, load_math_set

BUNDLED = bundled_path("rules_page")


@pytest.fixture(scope="module")
def results():
    return check_facts(load_math_set("rules_page"))


def _copy(tmp_path):
    d = tmp_path / "set"
    shutil.copytree(BUNDLED, d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__", "*.md"))
    return d


def _edit(path, row, reel, symbol):
    """Put ``symbol`` at strip position ``row`` (0-based) of 0-based ``reel`` in a CSV file."""
    lines = path.read_text().splitlines()
    cells = lines[row + 1].split(",")
    cells[reel] = symbol
    lines[row + 1] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n")


def test_every_fact_passes_on_the_bundled_set(results):
    facts = [r for r in results if r.is_fact]
    assert facts and all(r.status == PASS for r in facts), [r.fact for r in facts if r.status != PASS]
    assert results[-1].status == MET and not results[-1].is_fact


def test_fact_list_covers_the_issue(results):
    text = " | ".join(r.fact for r in results)
    for n in range(1, 10):
        assert f"example {n} window" in text
    for phrase in ("24 FISH", "3 KEY", "70 FISH", "5 KEY", "P(3 FS", "P(4 FS", "P(5 FS", "1 in N",
                   "per base spin", "per free spin", "AUS symbols in sequence", "between two specials",
                   "WILD only on reels 2, 3, 4, 5", "bonus strips: WILD only on no reel",
                   "bonus strips: FS only on no reel", "FISH3 only on reels 4", "FISH4 only on reels 5",
                   "KEY only on reels 1, 2, 3", "5 reels x 100 stops"):
        assert phrase in text, phrase


def test_exact_values_are_the_hand_derived_ones(results):
    by_fact = {r.fact: r for r in results}
    assert by_fact["P(5 FS symbols) per base spin"].exact == Fraction(2**4 * 3, 25**5)
    assert by_fact["P(2 or more KEY symbols) per base spin"].exact == Fraction(73, 25**3)
    assert by_fact["P(2 or more KEY symbols) per free spin (level 1)"].exact == Fraction(192, 25**3)
    assert by_fact["frequency of 3 FS symbols, 1 in N"].shown == "1 in 180"


def test_cli_exit_0_and_json(capsys):
    assert main(["check", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["passed"] is True
    fs5 = next(f for f in out["facts"] if f["fact"] == "P(5 FS symbols) per base spin")
    assert fs5["exact"]["fraction"] == "48/9765625" and fs5["status"] == PASS


def test_changed_example_position_fails(tmp_path, capsys):
    d = _copy(tmp_path)
    _edit(d / "base.csv", 12, 0, "PIC1")   # example 1 reel 1 row 3 shows AUS1 at position 12
    res = check_facts(load_math_set(str(d)))
    failed = [r.fact for r in res if r.status == FAIL]
    assert failed == ["example 1 window at stops 10,11,81,14,32 (base strips)"]
    assert main(["check", "--set", str(d)]) == 1
    assert "1 FAIL" in capsys.readouterr().out


def test_missing_fs_breaks_the_trigger_facts(tmp_path):
    d = _copy(tmp_path)
    reel5 = [line.split(",")[4] for line in (d / "base.csv").read_text().splitlines()[1:]]
    _edit(d / "base.csv", reel5.index("FS"), 4, "PIC1")
    failed = {r.fact for r in check_facts(load_math_set(str(d))) if r.status == FAIL}
    assert "P(3 FS symbols) per base spin" in failed and "P(5 FS symbols) per base spin" in failed


def test_strip_rule_breaks_fail(tmp_path):
    d = _copy(tmp_path)
    reel1 = [line.split(",")[0] for line in (d / "bonus.csv").read_text().splitlines()[1:]]
    k = reel1.index("KEY")
    assert reel1[(k + 2) % 100] not in ("KEY", "FISH1", "FISH2")
    _edit(d / "bonus.csv", (k + 2) % 100, 0, "KEY")    # a sixth KEY, 1 symbol after a KEY
    failed = {r.fact for r in check_facts(load_math_set(str(d))) if r.status == FAIL}
    assert "bonus strips: 3 or more pay symbols between two specials (cyclic)" in failed
    assert "bonus strips: 5 KEY symbols in total" in failed


def test_forbidden_placement_is_bad_input(tmp_path, capsys):
    d = _copy(tmp_path)
    _edit(d / "bonus.csv", 5, 1, "WILD")
    assert main(["check", "--set", str(d)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bonus.csv:7:2" in err[0] and "WILD" in err[0]


def test_run_helpers():
    aus = frozenset({"A"})
    assert longest_run(["A", "B", "A", "A", "A"], aus) == 4   # cyclic: positions 2, 3, 4, 0
    assert longest_run(["A", "A"], aus) == 2
    assert longest_run(["B", "B"], aus) == 0
    sp = frozenset({"S"})
    assert fewest_between(["S", "x", "x", "S", "x", "x", "x", "x"], sp) == 2
    assert fewest_between(["S", "x", "x", "x", "x", "x", "S"], sp) == 0  # cyclic neighbours
    assert fewest_between(["S", "x"], sp) is None


@pytest.mark.parametrize("old, new, fact", [
    ("pays = [0, 0, 5, 15, 50]", "pays = [0, 0, 5, 15, 500]", "PIC1 pays for 3/4/5 OAK, credits per way"),
    ("weights.base = [889, 111]", "weights.base = [111, 889]", "FISH4 value probabilities, base"),
    ("values = [1, 2, 3, 5]", "values = [1, 2, 3, 6]", "FISH1 values, credits"),
    ("trigger = { 3 = 10, 4 = 15, 5 = 20 }", "trigger = { 3 = 10, 4 = 15, 5 = 25 }", "initial free spins for 3/4/5 FS"),
    ("threshold = 3\n", "threshold = 2\n", "level 2: KEY threshold, spins, multiplier"),
    ("multiplier = 10", "multiplier = 12", "level 4: KEY threshold, spins, multiplier"),
    ("bet = 10 ", "bet = 20 ", "bet per base spin, credits"),
])
def test_changed_rule_in_game_file_fails_exactly_that_fact(tmp_path, capsys, old, new, fact):
    """The game file's rules are checked against the page's printed rules (sections 2, 5, 7, 10, 11)."""
    d = _copy(tmp_path)
    text = (d / "game.toml").read_text()
    assert text.count(old) >= 1
    (d / "game.toml").write_text(text.replace(old, new, 1))
    failed = [r.fact for r in check_facts(load_math_set(str(d))) if r.status == FAIL]
    assert any(f.startswith(fact) for f in failed), failed
    assert not [f for f in failed if not (f.startswith(fact) or f.startswith(("P(", "frequency")))], failed
    assert main(["--set", str(d), "--check"]) == 1
    assert fact in capsys.readouterr().out


def test_scaled_weight_table_is_the_same_rule(tmp_path):
    """Weights are compared as probabilities: 844/556 is 422/278 doubled."""
    d = _copy(tmp_path)
    text = (d / "game.toml").read_text()
    (d / "game.toml").write_text(text.replace("weights.base = [422, 278, 200, 100]",
                                              "weights.base = [844, 556, 400, 200]"))
    assert not [r for r in check_facts(load_math_set(str(d))) if r.failed and r.is_fact]
