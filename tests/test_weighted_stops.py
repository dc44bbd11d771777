"""Weighted stops (virtual reels: a strip CSV's reel1_weight, ... columns): every exact figure of a phase, for
ways and payline games, equals the brute force over every stop combination through the literal reading
(exact.evaluator.evaluate), each combination counted with the product of its stops' weight / total; the
weight columns' errors name file, row and column; the analyses that do not model them refuse in one line;
a strip without weights keeps every figure.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.engine import analyse_phase
from exact.evaluator import evaluate
from exact.rules import supports
from exact.rules.weighted_stops import stop_probability
from generators import game_text, model_of, run
from strips.errors import MathSetError
from strips.loader import load_math_set

LINES = [(0, 0, 0), (1, 1, 1), (0, 1, 0)]


def write_weighted(path, reels, weights):
    """One strip CSV with the weight columns (reels: lists of names; weights: lists of ints, or None for a
    plain file)."""
    n = len(reels)
    head = [f"reel{i + 1}" for i in range(n)] + ([f"reel{i + 1}_weight" for i in range(n)] if weights else [])
    out = [",".join(head)]
    for i in range(max(len(r) for r in reels)):
        cells = [r[i] if i < len(r) else "" for r in reels]
        if weights:
            cells += [str(w[i]) if i < len(w) else "" for w in weights]
        out.append(",".join(cells))
    path.write_text("\n".join(out) + "\n")


def _set(tmp, text, base, bonus, wb, wf):
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "game.toml").write_text(text)
    write_weighted(tmp / "base.csv", base, wb)
    write_weighted(tmp / "bonus.csv", bonus, wf)
    return load_math_set(str(tmp))


def brute(ms, phase):
    strips = ms.phase_strips(phase)
    mean = second = hit = Fraction(0)
    split: dict = {}
    for stops in itertools.product(*(range(n) for n in strips.lengths)):
        p = stop_probability(strips, stops)
        res = evaluate(ms.model, strips.window(stops, ms.model.rows), multiplier=phase.multiplier)
        mean, second = mean + p * res.win, second + p * res.win ** 2
        hit += p if res.win > 0 else 0
        a, b = split.get(res.trigger_count, (0, 0))
        split[res.trigger_count] = (a + p, b + p * res.win)
    return mean, second, hit, split


reel = st.lists(st.sampled_from(["A", "B", "C", "W", "S"]), min_size=2, max_size=4)


@settings(max_examples=12)
@given(st.booleans(), st.lists(reel, min_size=3, max_size=3), st.lists(reel, min_size=3, max_size=3),
       st.data())
def test_weighted_stops_equal_brute_force(tmp_path_factory, lines, base, bonus, data):
    text = game_text(3, 2, LINES, wild_pays=[0, 3, 12], scatter_pays=[0, 2, 7], retrigger=False)
    if not lines:
        text = text.replace('evaluation = "lines"', "").replace(f"[lines]\npaylines = {[[r + 1 for r in ln] for ln in LINES]}", "")
        text = text.replace("pays = [0, 3, 12]\n", "")
    weights = [data.draw(st.lists(st.integers(0, 5), min_size=len(r), max_size=len(r)).filter(any)) for r in base]
    ms = _set(tmp_path_factory.mktemp("w"), text, base, bonus, weights, None)
    for phase in (ms.model.base_phase, ms.model.level_phase(ms.model.levels[0])):
        an = analyse_phase(ms, phase)
        mean, second, hit, split = brute(ms, phase)
        assert (an.mean, an.second, an.hit_frequency) == (mean, second, hit)
        got = {n: (p, w) for n, (p, w) in enumerate(zip(an.trigger_split.prob, an.trigger_split.win)) if p}
        assert got == {n: v for n, v in split.items() if v[0]}


def test_weights_of_one_keep_every_figure(tmp_path):
    """A weight column of ones is the plain strip: the same exact figures; the cycle is the weights' total."""
    text = game_text(3, 2, LINES, scatter_pays=[0, 2, 7], retrigger=False)
    base = [["A", "B", "S", "W"], ["B", "C", "A"], ["S", "A", "C", "B"]]
    plain = _set(tmp_path / "p", text, base, base, None, None)
    ones = _set(tmp_path / "o", text, base, base, [[1] * len(r) for r in base], None)
    a, b = analyse_phase(plain, plain.model.base_phase), analyse_phase(ones, ones.model.base_phase)
    assert (a.mean, a.second, a.hit_frequency, a.by_scatter) == (b.mean, b.second, b.hit_frequency, b.by_scatter)
    heavy = _set(tmp_path / "h", text, base, base, [[2, 1, 1, 1], [1, 1, 3], [1, 1, 1, 1]], None)
    assert heavy.strips["base"].cycle_lengths == (5, 5, 4) and plain.strips["base"].cycle_lengths == (4, 3, 4)
    code, out, err = run(["--set", str(tmp_path / "h")])
    assert code == 0 and "3 reels of 5/5/4 stops, cycle 100 stop combinations" in out, out


@pytest.mark.parametrize("row, message", [
    ("A,B,C,1,x,1", "reel2_weight: must be a whole number"),
    ("A,B,C,1,,1", "reel2_weight: a weight is needed exactly where"),
    ("A,B,C,1,-1,1", "reel2_weight: must be a whole number"),
])
def test_bad_weights_are_refused_with_file_row_and_column(tmp_path, row, message):
    text = game_text(3, 1, [(0, 0, 0)], free_spins=False)
    (tmp_path / "game.toml").write_text(text)
    (tmp_path / "bonus.csv").write_text("reel1,reel2,reel3\nA,B,C\n")
    (tmp_path / "base.csv").write_text("reel1,reel2,reel3,reel1_weight,reel2_weight,reel3_weight\n"
                                       f"B,C,A,1,1,1\n{row}\n")
    with pytest.raises(MathSetError) as e:
        load_math_set(str(tmp_path))
    msg = str(e.value)
    assert msg.startswith(str(tmp_path / "base.csv") + ":3:5:") and message in msg and len(msg.splitlines()) == 1


def test_all_zero_weights_are_refused(tmp_path):
    text = game_text(3, 1, [(0, 0, 0)], free_spins=False)
    (tmp_path / "game.toml").write_text(text)
    (tmp_path / "bonus.csv").write_text("reel1,reel2,reel3\nA,B,C\n")
    (tmp_path / "base.csv").write_text("reel1,reel2,reel3,reel1_weight,reel2_weight,reel3_weight\nB,C,A,1,0,1\n"
                                       "A,B,C,1,0,1\n")
    with pytest.raises(MathSetError) as e:
        load_math_set(str(tmp_path))
    assert ":1:5:" in str(e.value) and "sum to 0" in str(e.value)


def test_commands_run_or_refuse_in_one_line(tmp_path_factory):
    d = tmp_path_factory.mktemp("set")
    text = game_text(3, 2, LINES, scatter_pays=[0, 2, 7], retrigger=False)
    base = [["A", "B", "S", "W"], ["B", "C", "A"], ["S", "A", "C", "B"]]
    ms = _set(d, text, base, base, [[2, 1, 1, 1], [1, 1, 3], [1, 1, 1, 1]], [[1, 1, 1, 2], [1, 2, 1], [1, 1, 1, 1]])
    out_dir = tmp_path_factory.mktemp("out")
    for cmd in ("report", "spin", "check", "chain", "prove", "simulate", "sensitivity", "export", "comply",
                "distribution"):
        argv = [cmd, "--set", str(d)] + {"export": ["--xlsx", str(out_dir / "x.xlsx")],
                                         "spin": ["--stops", "0,0,0"]}.get(cmd, [])
        code, out, err = run(argv)
        ok = supports(ms, cmd)
        assert "Traceback" not in err, (cmd, err)
        if ok:
            assert code in (0, 1) and out, (cmd, err)
        else:
            assert code == 2 and len(err.strip().splitlines()) == 1 and ok.reason in err, (cmd, err)
