"""Frames and bowls as a rule (exact/rules/frames.py, exact/frames.py): the keys and their refusals, the
literal reading, and the exact figures of every wheel award with frames equal to a literal replay of
every round (exact/play.py: every base stop, wheel draw, block, free-spin stop and bowl draw) on small games."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import exact
from exact.evaluator import evaluate
from exact.frames import frames_figures
from exact.play import round_distribution
from exact.rules import Frames, bowls_win, frames_spin, start_levels, supports
from gen_frames import frames_doc, frames_game
from strips.errors import MathSetError


def _moments(d: dict) -> tuple[Fraction, Fraction]:
    m = sum(x * p for x, p in d.items())
    return m, sum(x * x * p for x, p in d.items()) - m * m


@pytest.mark.parametrize("seed, spins", [(1, 1), pytest.param(0, 2, marks=pytest.mark.slow),
                                         pytest.param(2, 2, marks=pytest.mark.slow), pytest.param(3, 2, marks=pytest.mark.slow)])
def test_the_round_with_frames_equals_the_literal_replay(seed, spins):
    ms = frames_game(seed, awards=("free_spins 1", f"free_spins {spins} go_large", "credits 3"))
    sheet = exact.par_sheet(ms)
    assert _moments(round_distribution(ms, max_paths=400_000)) == (sheet.mean_win, sheet.variance)
    assert "frames" in sheet.sections


def test_frames_with_a_respin_mode_and_raise_max():
    frames = frames_doc()["frames"]
    frames = {**frames, "raise": "max", "go_large": {"blocks": ["2x2"], "weights": [1], "raise": 1}}
    ms = frames_game(7, frames=frames, respin=True, awards=("free_spins 1 go_large", "jackpot Mini"), weights=(2, 1))
    sheet = exact.par_sheet(ms)
    for name in ms.mode_names:
        m = sheet.modes[name].round
        assert _moments(round_distribution(ms.mode(name), max_paths=400_000)) == (m.mean, m.variance), name
        assert m.components["wheel"] > 0


def _feature_replay(ms, spins: int, start):
    """E[G], E[G^2] of one frames feature read literally over every free-spin stop sequence (bowl values
    drawn independently: their mean and variance given the final levels)."""
    model = ms.model
    config = Frames.config(model)
    phase = model.level_phase(model.levels[0])
    strips = ms.phase_strips(phase)
    combos = list(itertools.product(*[range(n) for n in strips.lengths]))
    bowls = [b.moments() for b in config.bowls]
    mini = [sum((q for v, q in b.law() if v.jackpot == "Mini"), Fraction(0)) for b in config.bowls]
    mean = second = no_mini = Fraction(0)
    for seq in itertools.product(combos, repeat=spins):
        levels, win = start, 0
        for stops in seq:
            w = strips.window(stops, model.rows)
            levels, landed = frames_spin(levels, w, config.scatter, config.plain.raise_by)
            win += evaluate(model, w, multiplier=phase.multiplier).win + landed * config.plain.full
        cells = [v for lv in levels for v in lv if v]
        m = win + sum(bowls[v - 1][0] for v in cells)
        var = sum(bowls[v - 1][1] - bowls[v - 1][0] ** 2 for v in cells)
        p = Fraction(1, len(combos) ** spins)
        mean += p * m
        second += p * (var + m * m)
        none = Fraction(1)
        for v in cells:
            none *= 1 - mini[v - 1]
        no_mini += p * none
    return mean, second, 1 - no_mini


@pytest.mark.parametrize("seed", range(3))
def test_a_long_feature_reaching_the_full_prize_equals_the_replay(seed):
    """Three free spins on a 2x1 window with scatters on most stops: every cell reaches level 3 and the full
    prize pays; E[G] and E[G^2] (pays, bowls, prize and every cross term) equal the replay."""
    frames = {**{k: v for k, v in frames_doc()["frames"].items() if k != "go_large"}, "raise": "max"}
    bonus = [["S", "A", "S"][: 2 + seed % 2], ["S", "A", "W"][: 3 - seed % 2]]
    ms = frames_game(seed, bonus, reels=2, rows=1, frames=frames, awards=("free_spins 3",), weights=(1,))
    figs = frames_figures(ms)
    f = figs.fixed[3, ""]
    assert (f.mean, f.second, figs.jackpots[3, ""]["Mini"]) == _feature_replay(ms, 3, ((0,), (0,)))
    assert f.prize > 0 and f.full > 0 and f.pays > 0


def test_literal_reading():
    s = Frames.config(frames_game(0).model).starts["go_large"]
    assert start_levels(s, 2, 2, block=frozenset({(0, 0), (0, 1)})) == ((1, 1), (0, 0))
    assert frames_spin(((1, 3), (0, 0)), (("S", "S"), ("A", "S")), "S", 1) == (((2, 3), (0, 1)), 0)
    assert frames_spin(((3, 3),), (("S", "A"),), "S", 1) == (((3, 3),), 1)
    assert bowls_win(((2, 0),), [Frames.config(frames_game(0).model).bowls[1].values[1]]) == 5


@pytest.mark.parametrize("change, where", [
    ({"raise": 2}, "frames.raise"),
    ({"bowls": {"level1": {"awards": ["credits 1"], "weights": [1]}}}, "frames.bowls"),
    ({"go_large": {"blocks": ["3x1"], "weights": [1]}}, "frames.go_large.blocks"),
    ({"go_large": {"blocks": ["1x1"], "weights": [1, 2]}}, "frames.go_large.weights"),
    ({"colour": 1}, "frames.colour"),
    ({"full": "points 3"}, "frames.full"),
])
def test_bad_keys_name_file_row_and_column(change, where, tmp_path):
    doc = frames_doc()
    doc["frames"] = {**doc["frames"], **change}
    with pytest.raises(MathSetError) as e:
        exact.math_set(doc, {"base": [["A", "X"], ["B", "X"]], "bonus": [["S", "A"], ["S", "B"]]})
    assert where.split(".")[-1] in str(e.value) or "frames" in str(e.value)


def test_an_unknown_start_refuses_at_its_key():
    with pytest.raises(MathSetError, match="no table of the game defines"):
        exact.math_set(frames_doc(awards=("free_spins 1 rollin_bones",), weights=(1,)),
                       {"base": [["A", "X"], ["B", "X"]], "bonus": [["S", "A"], ["S", "B"]]})


@pytest.mark.parametrize("name, extra", [("rollin_bones", {}), ("high_steaks", {"raise": "max", "full": "credits 9"})])
def test_starts_read_from_the_triggering_window_equal_the_replay(name, extra):
    """Rollin' Bones and High Steaks start from where the wheel's symbols land: the round (the base win's
    cross term with the feature by the symbol's cells) equals the literal replay, in a mode with a respin."""
    frames = {**frames_doc()["frames"], name: {"symbol": "X", **extra}}
    ms = frames_game(5, frames=frames, respin=True, awards=(f"free_spins 1 {name}", "credits 4"), weights=(2, 1))
    sheet = exact.par_sheet(ms)
    for mode in ms.mode_names:
        m = sheet.modes[mode].round
        assert _moments(round_distribution(ms.mode(mode), max_paths=400_000)) == (m.mean, m.variance), mode
        assert m.components["wheel"] > 0
    f = sheet.sections["frames"].features[f"free_spins 1 {name}"][1]
    assert f.levels[0 if name == "rollin_bones" else 2] > 0


def test_a_window_start_with_two_wheels_refuses_in_one_line():
    frames = {**frames_doc()["frames"], "rollin_bones": {"symbol": "X"}}
    doc = frames_doc(awards=("free_spins 1 rollin_bones",), weights=(1,), frames=frames)
    doc["wheel"]["other"] = {"symbol": "S", "tables": {"3": "u"}, "prizes": {"u": {"awards": ["credits 1"], "weights": [1]}}}
    doc["free_spins"]["scatter"] = "S"
    doc["symbols"]["Y"] = {"class": "scatter", "reels": {"base": [1, 2]}}
    doc["wheel"]["other"]["symbol"] = "Y"
    ms = exact.math_set(doc, {"base": [["A", "X", "Y"], ["B", "X"]], "bonus": [["S", "A"], ["S", "B"]]})
    s = supports(ms, "report")
    assert not s and s.rule == "frames" and "several prize wheels" in s.reason
    assert not supports(ms, "simulate") and supports(ms, "spin")
    assert sum(round_distribution(ms).values()) == 1       # the literal player plays it
