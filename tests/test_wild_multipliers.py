"""WILD multipliers: the game-file schema, its validation, hand-derived figures,
the evaluator's draws and ``rtp spin --wild``.

Semantics under test (strips.model.WildMultiplier): a WILD with multiplier m counts as m
in the per-reel count of every pay symbol it substitutes for; ways = product of
(count of the symbol + sum of the multipliers of the substituting WILDs) over the
combination's reels; pay = paytable value x ways.  Mode ``wild`` draws one value per
WILD in the window, mode ``reel`` one value per reel shared by its WILDs.

Every expected figure here is derived in the test from the strips written in it; the
random-set comparisons with the brute-force oracle are in tests/test_engine.py.
"""
from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from exact.cli import main
from exact.engine import analyse, analyse_phase
from strips.errors import MathSetError
from exact.evaluator import evaluate, wild_draws
from strips.model import WildMultiplier
from mathset_files import csv_text
from oracle import brute_force
from strips.loader import load_math_set, parse_game

TINY = """\
[game]
name = "tiny"
reels = {reels}
rows = 2
bet = 1

[strips]
base = "base.csv"

[symbols.A]
class = "pay"
pays = {pays_a}
[symbols.B]
class = "pay"
pays = {pays_b}

[symbols.WILD]
class = "wild"
reels = {{ base = {wild_reels} }}
{multiplier}
"""


def tiny_game(multiplier: str, reels: int = 3, pays_a="[0, 0, 5]", pays_b="[0, 0, 2]") -> str:
    """A reels x 2 game: pay symbols A and B, WILD on reels 2.. with ``multiplier`` (a TOML line)."""
    wild_reels = str(list(range(2, reels + 1)))
    return TINY.format(reels=reels, pays_a=pays_a, pays_b=pays_b, multiplier=multiplier, wild_reels=wild_reels)


def write_tiny(directory: Path, game: str, columns) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "game.toml").write_text(game)
    (directory / "base.csv").write_text(csv_text(columns))
    return directory


def mean(values) -> Fraction:
    return Fraction(sum(values), len(values))


# ---------------------------------------------------------------------------
# hand-computed: one WILD x3 on a tiny strip set
# ---------------------------------------------------------------------------
TINY_STRIPS = [["A", "B", "A"], ["WILD", "A", "B"], ["B", "B", "WILD"]]


def test_fixed_wild_x3_hand_computed(tmp_path):
    """3 reels x 2 rows, A pays 5 and B pays 2 for 3 OAK, WILD x3 on reels 2-3.

    The windows (stop s shows positions s, s+1, wrapping) and the per-reel counts with the
    WILD counted 3, by hand:
      reel 1: (A,B) (B,A) (A,A)        A: 1, 1, 2      B: 1, 1, 0
      reel 2: (W,A) (A,B) (B,W)        A: 4, 1, 3      B: 3, 1, 4
      reel 3: (B,B) (B,W) (W,B)        A: 0, 3, 3      B: 2, 4, 4
    Only 3 OAK pays, so W = 5 a1 a2 a3 + 2 b1 b2 b3 (a zero count gives a zero product), and
    the reels are independent: E[W] = 5 prod E[a_r] + 2 prod E[b_r],
    E[W^2] = 25 prod E[a_r^2] + 20 prod E[a_r b_r] + 4 prod E[b_r^2].
    """
    ms = load_math_set(write_tiny(tmp_path / "tiny", tiny_game("multiplier = 3"), TINY_STRIPS))
    a = [[1, 1, 2], [4, 1, 3], [0, 3, 3]]
    b = [[1, 1, 0], [3, 1, 4], [2, 4, 4]]
    ea = [mean(r) for r in a]
    eb = [mean(r) for r in b]
    assert ea == [Fraction(4, 3), Fraction(8, 3), Fraction(2)]
    way_a = 5 * ea[0] * ea[1] * ea[2]
    way_b = 2 * eb[0] * eb[1] * eb[2]
    assert (way_a, way_b) == (Fraction(320, 9), Fraction(320, 27))
    second = (25 * prod_of(mean([x * x for x in r]) for r in a)
              + 20 * prod_of(mean([x * y for x, y in zip(ra, rb)]) for ra, rb in zip(a, b))
              + 4 * prod_of(mean([y * y for y in r]) for r in b))
    an = analyse(ms).base
    assert an.ways_by_symbol["A"] == (0, 0, way_a)
    assert an.ways_by_symbol["B"] == (0, 0, way_b)
    assert an.mean == way_a + way_b == Fraction(1280, 27)
    assert an.second == second
    # one window by the evaluator: stops 2, 0, 2 -> (A,A) (W,A) (W,B): A ways 2 x 4 x 3 = 24
    window = ms.strips["base"].window((2, 0, 2), 2)
    res = evaluate(ms.model, window)
    assert [(w.symbol, w.oak, w.ways, w.pay) for w in res.ways] == [("A", 3, 24, 120)]
    # the multiplier changes no OAK probability: the same game without it has the same ones
    plain = load_math_set(write_tiny(tmp_path / "plain", tiny_game(""), TINY_STRIPS))
    assert analyse(plain).base.oak_prob == an.oak_prob
    assert analyse(plain).base.hit_frequency == an.hit_frequency


def prod_of(values) -> Fraction:
    out = Fraction(1)
    for v in values:
        out *= v
    return out


@pytest.mark.parametrize("weights", ["[1, 3]", "[1000000007, 3000000021]"])
@pytest.mark.parametrize("mode", ["wild", "reel"])
def test_two_wilds_on_a_reel_per_wild_and_per_reel_draws_hand_computed(tmp_path, mode, weights):
    """2 reels x 2 rows, A pays 1 for 2 OAK; reel 1 always shows (A,A), reel 2 always (WILD,WILD);
    multiplier 2 or 3 with weights 1 and 3 (or the same odds with weights near 10^9, whose scale
    D_m^2 ~ 1.6e19 leaves int64: the object-array path).  ways = 2 x Y with Y = m1 + m2 (mode
    wild, two independent draws) or Y = 2 M (mode reel, one draw shared by both WILDs)."""
    game = tiny_game('multiplier = { values = [2, 3], weights.base = %s, mode = "%s" }' % (weights, mode),
                     reels=2, pays_a="[0, 1]", pays_b="[0, 1]")
    ms = load_math_set(write_tiny(tmp_path / mode, game, [["A", "A"], ["WILD", "WILD"]]))
    dist = {2: Fraction(1, 4), 3: Fraction(3, 4)}
    if mode == "wild":
        ys = {}
        for m1, m2 in product(dist, dist):
            ys[m1 + m2] = ys.get(m1 + m2, 0) + dist[m1] * dist[m2]
    else:
        ys = {2 * m: p for m, p in dist.items()}
    ew = sum(p * 2 * y for y, p in ys.items())
    ew2 = sum(p * (2 * y) ** 2 for y, p in ys.items())
    assert ew == 11                                   # 2 x 2 x E[m] = 4 x 11/4 in both modes
    assert ew2 == (Fraction(245, 2) if mode == "wild" else 124)
    an = analyse(ms).base
    assert an.ways_by_symbol["A"] == (0, ew)
    assert an.mean == ew and an.second == ew2
    bf = brute_force(ms, ms.model.base_phase)
    assert bf.win_scatter == {0: ew} and bf.win2_scatter == {0: ew2}
    # the draws of the window: two in mode wild, one shared in mode reel
    window = ms.strips["base"].window((0, 0), 2)
    assert wild_draws(ms.model, window) == (((1, 0), (1, 1)) if mode == "wild" else ((1, 0),))
    values = [2, 3] if mode == "wild" else [3]
    assert evaluate(ms.model, window, wild_values=values).ways_pays == 2 * (5 if mode == "wild" else 6)


def test_drawn_multiplier_with_one_value_equals_the_fixed_multiplier_on_the_rules_page_game():
    """Rules-page strips: WILD drawn from the single value 2 (weight 7) gives the figures of WILD x2,
    and WILD x1 those of the rules page (two code paths: scale 7 and scale 1)."""
    model = load_math_set().model
    with_wild = rules_page_with_wild
    ms = with_wild(None)
    fixed = analyse_phase(with_wild(WildMultiplier(values=(2,))), model.base_phase)
    drawn = analyse_phase(with_wild(WildMultiplier(values=(2,), weights={"base": (7,)}, mode="reel")),
                          model.base_phase)
    assert (drawn.by_scatter, drawn.ways_by_symbol) == (fixed.by_scatter, fixed.ways_by_symbol)
    one = analyse_phase(with_wild(WildMultiplier(values=(1,))), model.base_phase)
    plain = analyse_phase(ms, model.base_phase)
    assert one.by_scatter == plain.by_scatter and one.by_key == plain.by_key
    assert fixed.parts["pays"] > plain.parts["pays"] and fixed.hit_frequency == plain.hit_frequency


# ---------------------------------------------------------------------------
# validation: one test per rule, each at the file, row and column of the bad key
# ---------------------------------------------------------------------------
def parse_error(multiplier: str, extra: str = "") -> tuple[MathSetError, str]:
    text = tiny_game(multiplier) + extra
    with pytest.raises(MathSetError) as info:
        parse_game(text.encode(), "game.toml")
    return info.value, text


def assert_at(err: MathSetError, text: str, fragment: str, column_of: str, *words: str) -> None:
    """The error is at the line holding ``fragment``, column of ``column_of`` on it, and says ``words``."""
    lines = text.splitlines()
    row = next(i + 1 for i, line in enumerate(lines) if fragment in line)
    col = lines[row - 1].index(column_of) + 1
    assert (err.file, err.row, err.column) == ("game.toml", row, col), str(err)
    for w in words:
        assert w in err.message, str(err)
    assert "\n" not in str(err)


@pytest.mark.parametrize("value", ["0", "-2", "2.5", "true", '"x2"'])
def test_raises_fixed_multiplier_not_an_integer_of_at_least_1(value):
    err, text = parse_error(f"multiplier = {value}")
    assert_at(err, text, "multiplier =", "multiplier", "integer >= 1")


@pytest.mark.parametrize("values", ["[0, 2]", "[]", "[-1, 3]"])
def test_raises_multiplier_values_below_1_or_empty(values):
    err, text = parse_error(f'multiplier = {{ values = {values}, weights.base = [1, 1], mode = "wild" }}')
    assert_at(err, text, "multiplier =", "values", "multiplier.values", ">= 1")


def test_raises_multiplier_values_not_integers():
    err, text = parse_error('multiplier = { values = [2, 2.5], weights.base = [1, 1], mode = "wild" }')
    assert_at(err, text, "multiplier =", "values", "list of integers")


def test_raises_multiplier_weight_negative():
    err, text = parse_error('[symbols.WILD.multiplier]\nvalues = [2, 3]\nweights.base = [1, -1]\nmode = "wild"')
    assert_at(err, text, "weights.base", "weights", "multiplier.weights.base", "negative")


def test_raises_multiplier_weights_sum_to_zero():
    err, text = parse_error('[symbols.WILD.multiplier]\nvalues = [2, 3]\nweights.base = [0, 0]\nmode = "reel"')
    assert_at(err, text, "weights.base", "weights", "sum to zero")


def test_raises_multiplier_weight_not_an_integer():
    err, text = parse_error('[symbols.WILD.multiplier]\nvalues = [2, 3]\nweights.base = [1, 0.5]\nmode = "reel"')
    assert_at(err, text, "weights.base", "weights", "list of integers")


def test_raises_multiplier_weights_of_the_wrong_length():
    err, text = parse_error('[symbols.WILD.multiplier]\nvalues = [2, 3]\nweights.base = [1, 2, 3]\nmode = "reel"')
    assert_at(err, text, "weights.base", "weights", "3 weights for 2 values")


def test_raises_multiplier_weight_table_missing_for_a_phase():
    """The WILD stands on the free-spin strips, so level 1 needs a multiplier weight table."""
    levels = '\n[free_spins]\nstrips = "base"\ntrigger = { 3 = 5 }\n[[free_spins.levels]]\nmultiplier = 1\n'
    err, text = parse_error('[symbols.WILD.multiplier]\nvalues = [2, 3]\nweights.base = [1, 2]\nmode = "wild"',
                            extra="\n[symbols.S]\nclass = \"scatter\"\nreels = { base = [1, 2, 3] }\n" + levels)
    assert_at(err, text, "weights.base", "weights", "missing weight table 'level1'")


def test_raises_multiplier_mode_unknown():
    err, text = parse_error('multiplier = { values = [2, 3], weights.base = [1, 1], mode = "sticky" }')
    assert_at(err, text, "multiplier =", "mode", "'wild'", "'reel'", "sticky")


def test_raises_multiplier_mode_missing():
    err, text = parse_error('[symbols.WILD.multiplier]\nvalues = [2, 3]\nweights.base = [1, 2]')
    assert_at(err, text, "[symbols.WILD.multiplier]", "[", "mode", "required")


def test_raises_multiplier_weights_missing():
    err, text = parse_error('multiplier = { values = [2, 3], mode = "wild" }')
    assert_at(err, text, "multiplier =", "multiplier", "weights", "required")


def test_raises_multiplier_table_with_an_unknown_rule():
    err, text = parse_error('multiplier = { values = [2, 3], weights.base = [1, 1], mode = "wild", grows = 1 }')
    assert_at(err, text, "multiplier =", "grows", "unsupported rule", "grows")


def test_raises_multiplier_on_a_pay_symbol():
    text = tiny_game("").replace('pays = [0, 0, 5]', 'pays = [0, 0, 5]\nmultiplier = 2')
    with pytest.raises(MathSetError) as info:
        parse_game(text.encode(), "game.toml")
    assert_at(info.value, text, "multiplier = 2", "multiplier", "unsupported rule")


def test_raises_through_the_cli_as_one_line_exit_2(tmp_path, capsys):
    d = write_tiny(tmp_path / "bad", tiny_game("multiplier = 0"), TINY_STRIPS)
    code = main(["--set", str(d)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "multiplier" in err and "game.toml:" in err


def rules_page_with_wild(mult):
    """The bundled rules-page set with its WILD given multiplier ``mult``."""
    ms = load_math_set()
    syms = tuple(dataclasses.replace(s, multiplier=mult) if s.kind == "wild" else s for s in ms.model.symbols)
    return dataclasses.replace(ms, model=dataclasses.replace(ms.model, symbols=syms))


def test_sensitivity_refuses_drawn_multipliers_rather_than_answer_wrongly():
    """The incremental edit engine has no multiplier scale: a drawn multiplier is a clear error."""
    from exact.sensitivity import sensitivity
    ms = rules_page_with_wild(WildMultiplier(values=(2, 3), weights={"base": (1, 3)}, mode="wild"))
    with pytest.raises(ValueError, match="multiplier"):
        sensitivity(ms, edits=False)


# ---------------------------------------------------------------------------
# rtp spin --wild
# ---------------------------------------------------------------------------
def test_spin_wild_values_json_and_text(tmp_path, capsys):
    game = tiny_game('multiplier = { values = [2, 3], weights.base = [1, 3], mode = "wild" }')
    d = str(write_tiny(tmp_path / "spin", game, TINY_STRIPS))
    # stops 2, 0, 2: reel 1 (A,A), reel 2 (WILD,A), reel 3 (WILD,B); WILD values 3 then 2
    assert main(["spin", "--set", d, "--stops", "2,0,2", "--wild", "3,2", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["wild_values"] == [3, 2]
    assert res["wild_multipliers"] == [[None, 3, 2], [None, None, None]]
    assert res["ways"] == [{"symbol": "A", "oak": 3, "ways": 2 * 4 * 2, "pay": 5 * 16}]
    assert main(["spin", "--set", d, "--stops", "2,0,2"]) == 0      # default: lowest values 2, 2
    text = capsys.readouterr().out
    assert "WILD=x2" in text and "A: 3 of a kind, ways 12, pay 60" in text
    assert main(["spin", "--set", d, "--stops", "2,0,2", "--wild", "3"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "1 WILD multiplier values given for 2" in err
    assert main(["spin", "--set", d, "--stops", "2,0,2", "--wild", "3,5"]) == 2
    assert "cannot be 5" in capsys.readouterr().err


# ---- commands that count a WILD as 1 refuse multiplied WILDs instead of a wrong answer ----
def _multiplied_set(tmp_path, spec: str):
    import shutil
    from strips.loader import bundled_path
    d = tmp_path / "wm"
    shutil.copytree(bundled_path("rules_page"), d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__", "*.md"))
    text = (d / "game.toml").read_text()
    (d / "game.toml").write_text(text.replace('reels = { base = [2, 3, 4, 5] }',
                                              'reels = { base = [2, 3, 4, 5] }\n' + spec, 1))
    return str(d)


@pytest.mark.parametrize("spec", ["multiplier = 2",
                                  'multiplier = { values = [2, 3], mode = "reel", weights.base = [1, 1] }'])
def test_independent_checks_handle_wild_multipliers(tmp_path, capsys, spec):
    """simulate and prove run on a game with WILD multipliers (the checks themselves: tests/test_proofs_rules.py)."""
    from exact.cli import main
    d = _multiplied_set(tmp_path, spec)
    assert main(["simulate", "--rounds", "1000", "--workers", "1", "--json", "--set", d]) in (0, 1)
    assert json.loads(capsys.readouterr().out)["rounds"] == 1000


def test_sensitivity_refuses_drawn_wild_multipliers(tmp_path, capsys):
    from exact.cli import main
    d = _multiplied_set(tmp_path, 'multiplier = { values = [2, 3], mode = "wild", weights.base = [1, 1] }')
    assert main(["sensitivity", "--set", d]) == 2
    assert "drawn WILD multipliers" in capsys.readouterr().err
