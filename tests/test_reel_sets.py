"""Weighted reel sets (``[strips] base = { sets = [...], weights = [...] }``): every exact figure of a spin is the
weighted mixture of the reel sets' figures, checked against a brute force over (reel set, stops) written from
the rule; the analyses that draw or enumerate stops refuse in one line, in the API and on the command line."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import exact
from exact.cli import main
from exact.engine import analyse_phase
from exact.rules import supports
from strips.errors import MathSetError
from strips.loader import load_math_set

GAME = {"game": {"reels": 3, "rows": 1, "bet": 1},
        "strips": {"base": {"sets": ["base.csv", "base2.csv"], "weights": [3, 1]}},
        "symbols": {"A": {"class": "pay", "pays": [0, 2, 10]}, "B": {"class": "pay", "pays": [0, 1, 4]},
                    "W": {"class": "wild", "reels": {"base": [2, 3]}},
                    "S": {"class": "scatter", "reels": {"base": [1, 2, 3]}, "pays": [0, 1, 5]}}}
SETS = {"base": [["A", "B", "S", "A"], ["W", "A", "B"], ["A", "B", "S"]],
        "base#2": [["B", "B", "S"], ["A", "A", "W", "S"], ["W", "B"]]}


def _window_win(window) -> tuple[int, int]:
    """(win, scatters) of a 3x1 ways window, read literally from the rules above."""
    scat = sum(c == "S" for c in window)
    win = {0: 0, 1: 0, 2: 1, 3: 5}[scat]
    for sym, pays in (("A", [0, 2, 10]), ("B", [0, 1, 4])):
        n = 0
        while n < 3 and (window[n] == sym or (window[n] == "W" and n > 0)):
            n += 1
        win += pays[n - 1] if n else 0
    return win, scat


def test_a_spin_is_the_weighted_mixture_of_its_reel_sets():
    ms = exact.math_set(GAME, SETS)
    a = analyse_phase(ms, ms.model.base_phase)
    law: dict = {}
    for name, w in (("base", 3), ("base#2", 1)):
        strips = SETS[name]
        n = len(strips[0]) * len(strips[1]) * len(strips[2])
        for stops in itertools.product(*(range(len(s)) for s in strips)):
            key = _window_win([strips[r][stops[r]] for r in range(3)])
            law[key] = law.get(key, 0) + Fraction(w, 4 * n)
    assert a.mean == sum(p * w for (w, _), p in law.items())
    assert a.second == sum(p * w * w for (w, _), p in law.items())
    assert a.hit_frequency == sum(p for (w, _), p in law.items() if w > 0)
    for k, p in enumerate(a.by_scatter.prob):
        assert p == sum(q for (_, s), q in law.items() if s == k)
    assert exact.par_sheet(ms).rtp == a.mean


def test_the_round_mixes_the_reel_sets_by_weight():
    """With free spins on their own strips the round RTP is the weighted mean of the rounds of each reel set."""
    symbols = {**GAME["symbols"], "W": {"class": "wild", "reels": {"base": [2, 3], "bonus": [2, 3]}}}
    game = {**GAME, "symbols": symbols, "free_spins": {"strips": "bonus", "trigger": {"2": 2}, "levels": [{"multiplier": 2}]},
            "strips": {"base": {"sets": ["base.csv", "base2.csv"], "weights": [3, 1]}, "bonus": "bonus.csv"}}
    bonus = [["A", "B"], ["A", "B", "W"], ["B", "A", "A"]]
    mixed = exact.par_sheet(exact.math_set(game, {**SETS, "bonus": bonus}))
    one = {**game, "strips": {"base": "base.csv", "bonus": "bonus.csv"}}
    a = exact.par_sheet(exact.math_set(one, {"base": SETS["base"], "bonus": bonus}))
    b = exact.par_sheet(exact.math_set(one, {"base": SETS["base#2"], "bonus": bonus}))
    assert mixed.rtp == (3 * a.rtp + b.rtp) / 4


@pytest.mark.parametrize("command", ["spin", "simulate", "distribution", "sensitivity", "comply", "export"])
def test_the_analyses_that_draw_stops_refuse_in_one_line(tmp_path, capsys, command):
    d = tmp_path / "g"
    d.mkdir()
    text = ('[game]\nname = "g"\nreels = 3\nrows = 1\nbet = 1\n[strips]\nbase = { sets = ["base.csv", "base2.csv"], '
            'weights = [3, 1] }\n[symbols.A]\nclass = "pay"\npays = [0, 2, 10]\n[symbols.B]\nclass = "pay"\n'
            'pays = [0, 1, 4]\n')
    (d / "game.toml").write_text(text)
    (d / "base.csv").write_text("reel1,reel2,reel3\nA,A,B\nB,B,A\n")
    (d / "base2.csv").write_text("reel1,reel2,reel3\nA,A,A\nB,B,B\n")
    ms = load_math_set(str(d))
    analysis = {"export": "export", "spin": "spin"}.get(command, command)
    assert not supports(ms, analysis) and supports(ms, analysis).rule == "weighted reel sets"
    extra = {"spin": ["--stops", "0,0,0"], "export": ["--csv", str(tmp_path / "csv")]}.get(command, [])
    assert main([command, "--set", str(d)] + extra) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "weighted reel sets" in err
    assert main(["--set", str(d)]) == 0        # the report takes it


@pytest.mark.parametrize("table, what", [
    ('{ sets = ["base.csv"], weights = [1, 2] }', r"needs one whole number >= 0 per reel set \(1\)"),
    ('{ sets = ["base.csv", "b.csv"], weights = [0, 0] }', "not all 0"),
    ('{ sets = [], weights = [] }', "one or more strip file names"),
    ('{ sets = ["base.csv"], weights = [1], odds = 2 }', "key 'odds' in \\[strips.base\\]"),
    ('{ sets = ["../x.csv"], weights = [1] }', "must be a file name inside the math-set directory"),
])
def test_raises_on_a_malformed_reel_set_table(tmp_path, table, what):
    (tmp_path / "game.toml").write_text(f'[game]\nname = "g"\nreels = 3\nrows = 1\nbet = 1\n[strips]\nbase = {table}\n'
                                        '[symbols.A]\nclass = "pay"\npays = [0, 2, 10]\n')
    (tmp_path / "base.csv").write_text("reel1,reel2,reel3\nA,A,A\n")
    with pytest.raises(MathSetError, match=what) as e:
        load_math_set(str(tmp_path))
    assert ":7:" in str(e.value)


@pytest.mark.parametrize("cascade", [False, True])
@pytest.mark.parametrize("second", [["A", "B", "S", "B", "A"], ["B", "S", "A", "A"]])
def test_pay_anywhere_reel_sets_equal_a_brute_force(cascade, second):
    """Reel sets of equal or different lengths on a pay-anywhere game, with or without cascades: the mixture of
    their enumerations or count products equals a brute force over (reel set, stops) (the count products'
    method and joint law broke the mixture: a TypeError, or a refusal naming the method)."""
    from exact.rules.cascade import play_falls
    game = {"game": {"reels": 3, "rows": 2, "bet": 1, "evaluation": "anywhere"},
            "strips": {"base": {"sets": ["b1.csv", "b2.csv"], "weights": [3, 1]}},
            "symbols": {"A": {"class": "pay", "pays": [0, 0, 2, 5]}, "B": {"class": "pay", "pays": [0, 0, 1, 3]},
                        "S": {"class": "scatter", "reels": {"base": [1, 2, 3]}, "pays": [0, 0, 4]}}}
    if cascade:
        game["cascade"] = {"multipliers": [1, 2]}
    sets = {"base": [["A", "B", "S", "A", "B"], ["B", "A", "A", "S", "B"], ["A", "A", "B", "B", "S"]],
            "base#2": [second, list(reversed(second)), second[1:] + second[:1]]}
    ms = exact.math_set(game, sets)
    model = ms.model
    mean = hit = Fraction(0)
    for name, w in (("base", 3), ("base#2", 1)):
        reels = sets[name]
        n = len(reels[0]) * len(reels[1]) * len(reels[2])
        for stops in itertools.product(*(range(len(s)) for s in reels)):
            win = play_falls(model, model.base_phase, reels, stops).win
            mean += Fraction(w, 4 * n) * win
            hit += Fraction(w, 4 * n) * (win > 0)
    a = analyse_phase(ms, model.base_phase)
    assert (a.mean, a.hit_frequency) == (mean, hit)
    assert exact.par_sheet(ms).rtp == mean
