"""exact.windows.WindowEvaluator against the literal evaluator exact.evaluator.evaluate, window by window.

Exact mode (rng=None): pay / denominator equals the evaluator's win averaged over every assignment of
FISH values, drawn WILD multipliers and the combination value (brute force through the evaluator,
weighted by the phase's tables).  Drawn mode: the evaluator fed the values the rng drew gives the same
win; the documented draw order is replayed by hand.  Games: ways games with FISH/KEY, WILD multipliers
of every mode, partial WILDs, scatter pays; line games with crossing lines, WILD pays, combination
multipliers, several scatters, counts_as_scatter, trigger reels; ways games with the catalogue trigger
rules and a combination WILD beside drawn multipliers.
"""
from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from math import prod

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from exact.evaluator import evaluate, wild_draws
from oracle import make_set
from exact.windows import SUM_HEADROOM, WindowEvaluator
from strips.model import FISH, WildMultiplier
from generators import exact_mean, line_games, small_sets, ways_games_with_catalogue_rules


def all_stops(ev):
    return np.array(list(itertools.product(*(range(n) for n in ev.lengths))), dtype=np.int64)


def check_exact(ms, phase):
    ev = WindowEvaluator(ms, phase)
    stops = all_stops(ev)
    out = ev.evaluate(stops)
    strips = ms.phase_strips(phase)
    wins = ev.windows(stops)
    names = ms.model.names
    for j, st_ in enumerate(stops):
        window = strips.window(tuple(int(x) for x in st_), ms.model.rows)
        assert tuple(tuple(names[c] for c in col) for col in wins[j]) == window
        mean, res, sure = exact_mean(ms, phase, window)
        assert Fraction(int(out.pay[j]), out.denominator) == mean
        assert Fraction(int(out.ways_pay[j] + out.scatter_pay[j] + out.collect[j]), out.denominator) == mean
        assert Fraction(int(out.scatter_pay[j]), out.denominator) == res.scatter_pay
        assert {k: int(v[j]) for k, v in out.scatter_counts.items()} == dict(res.scatter_counts)
        assert int(out.trigger_count[j]) == res.trigger_count
        assert int(out.keys[j]) == res.keys
        assert bool(out.hit[j]) == sure
        if ms.model.is_lines:
            assert [Fraction(int(x), out.denominator) for x in out.line_pays[j]] == exact_mean.lines
            assert list(out.line_hits[j]) == [x > 0 for x in exact_mean.lines]
    return out


def check_drawn(ms, phase, seed):
    ev = WindowEvaluator(ms, phase)
    stops = all_stops(ev)
    out = ev.evaluate(stops, np.random.default_rng(seed))
    assert out.denominator == 1
    model = ms.model
    strips = ms.phase_strips(phase)
    for j, st_ in enumerate(stops):
        window = strips.window(tuple(int(x) for x in st_), model.rows)
        fish = [int(out.cells[j, r, i]) for r, col in enumerate(window) for i, n in enumerate(col)
                if model.symbol(n).kind == FISH]
        wv = [int(out.cells[j, r, i]) for r, i in wild_draws(model, window)]
        cv = int(out.combination[j]) if out.combination is not None else None
        res = evaluate(model, window, fish, 1, wv, combination=cv)
        assert int(out.pay[j]) == res.win
        assert bool(out.hit[j]) == (res.win > 0)
        assert int(out.trigger_count[j]) == res.trigger_count and int(out.keys[j]) == res.keys
    return ev, stops, out


def both(ms):
    for phase in (ms.model.base_phase, ms.model.level_phase(ms.model.levels[0])):
        check_exact(ms, phase)
        check_drawn(ms, phase, 7)


@settings(max_examples=15)
@given(small_sets(reels=(3,), max_len=4))
def test_ways_games_with_fish_and_wild_multipliers_equal_the_evaluator(ms):
    both(ms)


@settings(max_examples=10)
@given(small_sets(reels=(3,), max_len=4, multipliers=True))
def test_every_wild_multiplier_mode_equals_the_evaluator(ms):
    both(ms)


@settings(max_examples=15)
@given(line_games(max_stops=3))
def test_line_games_equal_the_evaluator(ms):
    both(ms)


@settings(max_examples=15)
@given(ways_games_with_catalogue_rules())
def test_ways_games_with_catalogue_trigger_rules_equal_the_evaluator(ms):
    both(ms)


@settings(max_examples=10)
@given(small_sets(reels=(3,), max_len=4, multipliers=True), st.sampled_from((
    WildMultiplier(values=(2,), mode="combination"),
    WildMultiplier(values=(2, 5), weights={t: (2, 1) for t in ("base", "level1", "level2", "level3", "level4")},
                   mode="combination"))))
def test_combination_wild_beside_drawn_multipliers_equals_the_evaluator(ms, comb):
    """WILD2 (a partial WILD) takes a combination multiplier; WILD keeps its drawn or fixed one."""
    model = ms.model
    if not any(s.name == "WILD2" for s in model.symbols):
        return
    syms = tuple(dataclasses.replace(s, multiplier=comb) if s.name == "WILD2" else s for s in model.symbols)
    model = dataclasses.replace(model, symbols=syms)
    ms = make_set(model, ms.strips["base"].reels, ms.strips["bonus"].reels)
    both(ms)


def test_draw_order_is_the_documented_one():
    """Replay the documented draw order with a fresh Generator of the same seed."""
    from strips.loader import load_math_set
    ms = load_math_set("rules_page")
    model = ms.model
    phase = model.level_phase(model.levels[1])
    ev = WindowEvaluator(ms, phase)
    rng = np.random.default_rng(11)
    stops = np.stack([rng.integers(0, n, 500) for n in ev.lengths], axis=1)
    out = ev.evaluate(stops, np.random.default_rng(5))
    win = ev.windows(stops)
    replay = np.random.default_rng(5)
    cells = np.zeros(win.shape, dtype=np.int64)
    for c, s in enumerate(model.symbols):
        if s.kind == FISH and (win == c).any():
            values, weights = s.values, s.weights[phase.weights]
            idx = np.searchsorted(np.cumsum(weights), replay.integers(0, sum(weights), int((win == c).sum())),
                                  side="right")
            cells[win == c] = np.array(values)[idx]
    assert (cells == out.cells).all()
    assert (out.cells[win == model.code("KEY")] == 0).all()


def test_overflow_is_refused_naming_the_rule():
    from strips.loader import load_math_set
    ms = load_math_set("rules_page")
    big = tuple(dataclasses.replace(s, pays=tuple(p * (1 << 40) for p in s.pays)) if s.kind == "pay" else s
                for s in ms.model.symbols)
    ms = dataclasses.replace(ms, model=dataclasses.replace(ms.model, symbols=big))
    with pytest.raises(ValueError, match="unsupported rule: ways pays too large for the exact int64"):
        WindowEvaluator(ms, ms.model.base_phase)
    assert SUM_HEADROOM >= 1 << 18


def test_strip_override_and_bad_stops():
    from strips.loader import load_math_set
    ms = load_math_set("rules_page")
    other = [np.asarray(c[:7]) for c in ms.strips["base"].codes]
    ev = WindowEvaluator(ms, ms.model.base_phase, strips=other)
    assert ev.lengths == (7,) * 5
    w = ev.windows(np.array([[6, 0, 0, 0, 0]]))
    assert list(w[0, 0]) == [int(other[0][6])] + [int(x) for x in other[0][:3]]
    with pytest.raises(ValueError, match="outside"):
        ev.evaluate(np.array([[7, 0, 0, 0, 0]]))


def test_a_leading_wild_that_substitutes_pays_the_run_it_starts():
    """Line W V C with V substituting for A and B only: C's run is W alone (1 OAK, pays 1), as in the evaluator."""
    from generators import game_text, model_of
    model = model_of(game_text(3, 3, [(0, 0, 0)], wild2=True, retrigger=False))
    ms = make_set(model, [["A", "A", "W"], ["A", "A", "V"], ["A", "A", "C"]])
    check_exact(ms, model.base_phase)
    ev = WindowEvaluator(ms, model.base_phase)
    assert int(ev.evaluate(np.array([[2, 2, 2]])).pay[0]) == evaluate(model, [["W", "A", "A"], ["V", "A", "A"],
                                                                             ["C", "A", "A"]]).win == 1


def test_the_cli_refusal_keeps_the_rule_the_evaluator_names():
    from exact.cli.args import int64_refusal
    e = ValueError("unsupported rule: ways pays with WILD multipliers too large for the exact int64 window "
                   "evaluation (largest numerator about 2^70)")
    text = str(int64_refusal("rtp prove", "s", e, "run without --exhaustive"))
    assert "ways pays with WILD multipliers" in text and "\n" not in text and text.endswith("--exhaustive")
