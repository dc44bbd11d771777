"""The frames' step of the simulator (exact/rules/frames.py FramesStep): its start levels and its free spin equal
the literal reading (start_levels, frames_spin) on every window of small games, and whole simulated rounds
with frames agree with the literal replay of every round (exact/play.py) within a few standard errors."""
from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest

import exact
from exact.comply import comply, load_rules
from exact.export import par_sheets
from exact.play import round_distribution
from exact.rules import Frames, block_starts, frames_spin, start_levels
from gen_frames import frames_doc, frames_game
from proofs.simulate import prepare_mode, simulate_mode_block


def _window_game(respin=False):
    frames = {**frames_doc()["frames"], "rollin_bones": {"symbol": "X"},
              "high_steaks": {"symbol": "X", "raise": "max", "full": "credits 9"}}
    return frames_game(0, frames=frames, respin=respin,
                       awards=("free_spins 1 rollin_bones", "free_spins 1 high_steaks", "free_spins 1 go_large",
                               "credits 4"), weights=(2, 2, 1, 1))


def test_the_start_levels_equal_the_literal_reading_on_every_window():
    ms = _window_game()
    model = ms.model
    step = prepare_mode(ms).step("frames")
    strips = ms.phase_strips(model.base_phase)
    stops = np.array(list(itertools.product(*(range(n) for n in strips.lengths))), dtype=np.int64)
    block = SimpleNamespace(stops=stops, rng=np.random.default_rng(0))
    for name in ("rollin_bones", "high_steaks", ""):
        start = Frames.config(model).start(name)
        got = step.start(block, np.arange(len(stops)), start)
        want = [start_levels(start, model.reels, model.rows, strips.window(tuple(s), model.rows)) for s in stops]
        assert got.tolist() == [[list(lv) for lv in w] for w in want], name


def test_go_large_lands_each_block_position_by_its_weight():
    ms = frames_game(0)
    step = prepare_mode(ms).step("frames")
    start = Frames.config(ms.model).starts["go_large"]
    n = 60_000
    got = step.start(SimpleNamespace(stops=None, rng=np.random.default_rng(3)), np.arange(n), start)
    for p, cells in block_starts(start, ms.model.reels, ms.model.rows):
        want = np.array([[int((r, i) in cells) for i in range(ms.model.rows)] for r in range(ms.model.reels)])
        share = float((got == want).all(axis=(1, 2)).mean())
        assert abs(share - float(p)) < 5 * (float(p) * (1 - float(p)) / n) ** 0.5


@pytest.mark.parametrize("raise_by", [1, 3])
def test_one_free_spin_equals_the_literal_reading(raise_by):
    ms = frames_game(2)
    model = ms.model
    step = prepare_mode(ms).step("frames")
    strips = ms.phase_strips(model.level_phase(model.levels[0]))
    combos = list(itertools.product(*(range(n) for n in strips.lengths)))
    every = list(itertools.product(range(4), repeat=model.reels * model.rows))
    levels = np.array(every, dtype=np.int64).reshape(-1, model.reels, model.rows)
    for stops in combos:
        got, landed = step.spin(levels, np.array([stops] * len(levels), dtype=np.int64), raise_by)
        window = strips.window(stops, model.rows)
        for lv, g, k in zip(levels.tolist(), got.tolist(), landed.tolist()):
            want, paid = frames_spin(lv, window, "S", raise_by)
            assert (g, k) == ([list(x) for x in want], paid)


@pytest.mark.parametrize("mode", ["default", "ante"])
def test_simulated_rounds_agree_with_the_literal_replay(mode):
    """Mean and second moment of 60,000 simulated rounds within 5 standard errors of the exact ones (the
    replay of every round), in the base mode and a mode with a respin; without the frames' step (the free
    spins played plain) the mean falls outside."""
    ms = _window_game(respin=True)
    assert exact.par_sheet(ms).modes["ante"].round.respin_prob > 0
    exact_dist = round_distribution(ms.mode(mode), max_paths=400_000)
    moments = [float(sum(p * x ** k for x, p in exact_dist.items())) for k in (1, 2, 3, 4)]
    g = prepare_mode(ms, mode)
    n = 60_000
    t = simulate_mode_block(g, n, np.random.default_rng(11))
    se1 = ((moments[1] - moments[0] ** 2) / n) ** 0.5
    se2 = ((moments[3] - moments[1] ** 2) / n) ** 0.5
    assert abs(t.win / n - moments[0]) < 5 * se1
    assert abs(t.win2 / n - moments[1]) < 5 * se2
    plain = type(g)(**{**g.__dict__, "steps": tuple(s for s in g.steps if s.rule != "frames")})
    t = simulate_mode_block(plain, n, np.random.default_rng(11))
    assert abs(t.win / n - moments[0]) > 5 * se1


def test_comply_and_the_workbook_carry_the_bowls_jackpots():
    """rtp comply lists P(a bowl wins each jackpot) per round of every mode whose award odds it computes (the
    per-feature odds times P(the round plays the award): those equal the replay in test_frames), and the
    workbook a Frames sheet with the same figures."""
    ms = _window_game()
    sheet = exact.par_sheet(ms)
    checks = comply(ms, load_rules(), ["gli-11"], sheet=sheet)
    got = {c.item: c.value for c in checks if "a bowl wins" in c.item and c.exact}
    m = sheet.modes["default"]
    want = sum(m.round.wheels["bonus"].awards[a.text] * m.frames.jackpots[a.amount, a.start]["Mini"]
               for a in ms.model.wheels[0].prizes["t"].awards if a.kind == "free_spins")
    assert got == {"a bowl wins jackpot Mini": want} and want > 0
    frames = next(s for s in par_sheets(sheet, ms) if s.slug == "frames")
    assert ("free_spins 1 high_steaks", "a bowl wins jackpot Mini",
            float(m.frames.jackpots[1, "high_steaks"]["Mini"])) in [row[:3] for row in frames.rows]
