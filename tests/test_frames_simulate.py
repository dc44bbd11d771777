"""The frames' step of the simulator (exact/rules/frames.py FramesStep): its start levels and its free spin equal
the literal reading (start_levels, frames_spin) on every window of small games, and whole simulated rounds
with frames agree with the literal replay of every round (exact/play.py) within a few standard errors."""
from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest

from exact.play import round_distribution
from exact.rules import Frames, block_starts, frames_spin, start_levels
from gen_frames import frames_doc, frames_game
from proofs.simulate import prepare_mode, simulate_mode_block


def _window_game(respin=False):
    frames = {**frames_doc()["frames"], "rollin_bones": {"symbol": "X"},
              "high_steaks": {"symbol": "X", "raise": "max", "full": "credits 9"}}
    return frames_game(5, frames=frames, respin=respin,
                       awards=("free_spins 1 rollin_bones", "free_spins 2 high_steaks", "free_spins 1 go_large",
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
    """Mean and second moment of 200,000 simulated rounds within 5 standard errors of the exact ones (the
    replay of every round), in the base mode and a mode with a respin; without the frames' step (the free
    spins played plain) the mean falls outside."""
    ms = _window_game(respin=True)
    exact_dist = round_distribution(ms.mode(mode), max_paths=400_000)
    moments = [float(sum(p * x ** k for x, p in exact_dist.items())) for k in (1, 2, 3, 4)]
    g = prepare_mode(ms, mode)
    n = 200_000
    t = simulate_mode_block(g, n, np.random.default_rng(11))
    se1 = ((moments[1] - moments[0] ** 2) / n) ** 0.5
    se2 = ((moments[3] - moments[1] ** 2) / n) ** 0.5
    assert abs(t.win / n - moments[0]) < 5 * se1
    assert abs(t.win2 / n - moments[1]) < 5 * se2
    plain = type(g)(**{**g.__dict__, "steps": tuple(s for s in g.steps if s.rule != "frames")})
    t = simulate_mode_block(plain, n, np.random.default_rng(11))
    assert abs(t.win / n - moments[0]) > 5 * se1
