"""The exhaustive enumeration against the literal rules-page evaluator and the factorised engine.

The oracle here applies :func:`exact.evaluator.evaluate` to every stop
combination one by one (the rules page read literally); the fish part of the
collect is the exact mean of each FISH symbol's weight table, taken from the
model, so the oracle's collect is keys x sum of means per window.
"""
from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from exact.engine import analyse_phase
from exact.evaluator import evaluate
from proofs.enumerate import (
    block_plan,
    compare,
    enumerate_phase,
    set_hash,
    window_tables,
)
from strips.loader import GAME_FILE, bundled_path, load_math_set
from generators import random_set, write_random_set


def literal(ms, phase):
    """Per-symbol/OAK ways pays, collect mean and FS/KEY histograms by the literal evaluator."""
    m = ms.model
    strips = ms.phase_strips(phase)
    means = {s.name: s.value_moments(phase.weights)[0] for s in m.of_kind("fish") if phase.weights in s.weights}
    ways = {s.name: [0] * m.reels for s in m.pay_symbols}
    collect, fs, keys, n, other = Fraction(0), {}, {}, 0, 0
    for stops in itertools.product(*(range(k) for k in strips.lengths)):
        w = strips.window(stops, m.rows)
        res = evaluate(m, w, multiplier=phase.multiplier)
        for ww in res.ways:
            ways[ww.symbol][ww.oak - 1] += ww.pay * phase.multiplier
        collect += phase.multiplier * res.keys * sum(means[x] for col in w for x in col if x in means)
        other += phase.multiplier * (res.ways_pays + getattr(res, "scatter_pay", 0))
        fs[res.scatters] = fs.get(res.scatters, 0) + 1
        keys[res.keys] = keys.get(res.keys, 0) + 1
        n += 1
    return dict(n=n, ways={s: tuple(Fraction(v, n) for v in row) for s, row in ways.items()},
                collect=collect / n, fs=fs, keys=keys, mean=Fraction(other, n) + collect / n)


def assert_matches_literal(e, lit):
    assert e.combinations == lit["n"]
    assert e.ways_by_symbol() == lit["ways"]
    assert e.collect_mean == lit["collect"]
    assert e.mean == lit["mean"]
    assert {i: int(p * e.combinations) for i, p in enumerate(e.scatter_prob) if p} == lit["fs"]
    assert {i: int(p * e.combinations) for i, p in enumerate(e.key_prob) if p} == lit["keys"]


def game_with_low_oak_pays(directory: Path) -> None:
    """A game.toml where every pay symbol also pays for 1 and 2 of a kind (exercises every OAK)."""
    text = (bundled_path("rules_page") / GAME_FILE).read_text()
    assert text.count("pays = [0, 0, ") == 10
    (directory / GAME_FILE).write_text(text.replace("pays = [0, 0, ", "pays = [1, 2, "))


def test_random_set_equals_literal_evaluator_and_engine(tmp_path):
    d = write_random_set(tmp_path / "s", 11, lengths=(7, 8, 6, 9, 7), special_share=0.2)
    game_with_low_oak_pays(d)
    ms = load_math_set(str(d))
    for phase in (ms.model.base_phase, ms.model.level_phase(ms.model.levels[2])):
        e = enumerate_phase(ms, phase, workers=1)
        assert e.complete
        lit = literal(ms, phase)
        assert_matches_literal(e, lit)
        assert any(row[0] or row[1] for row in e.totals.ways), "the low-OAK pays were exercised"
        assert e.collect_mean > 0
        checks = compare(e, analyse_phase(ms, phase))
        assert [c.figure for c in checks if not c.equal] == []


def test_wild_substitution_sets_and_scatter_pays(tmp_path):
    ms = random_set(tmp_path / "s", 13, lengths=(7, 8, 6, 9, 7), special_share=0.25)
    m = ms.model
    wild = m.symbol("WILD")
    fs = m.symbol("FS")
    symbols = tuple(dataclasses.replace(s, substitutes=frozenset({"PIC1", "AUS3"})) if s is wild else
                    dataclasses.replace(s, pays=(0, 1, 7, 20, 100)) if s is fs else s for s in m.symbols)
    ms = dataclasses.replace(ms, model=dataclasses.replace(m, symbols=symbols))
    e = enumerate_phase(ms, workers=1)
    lit = literal(ms, ms.model.base_phase)
    assert_matches_literal(e, lit)
    assert e.scatter_mean > 0


def test_small_blocks_and_two_workers_give_the_same_totals(tmp_path):
    ms = random_set(tmp_path / "s", 21, lengths=(5, 6, 7, 5, 6), special_share=0.25)
    whole = enumerate_phase(ms, workers=1)
    # chunk 7 forces looping over reel 2..3 stops and ranges on the split reel
    assert block_plan(window_tables(ms, ms.model.base_phase).lengths, 7).split == 3
    small = enumerate_phase(ms, workers=1, chunk=7)
    pooled = enumerate_phase(ms, workers=2, chunk=40)
    assert small.totals == whole.totals == pooled.totals
    # a slice of reel-1 stops plus the rest is the whole
    a = enumerate_phase(ms, workers=1, first_stops=[0, 3])
    b = enumerate_phase(ms, workers=1, first_stops=[1, 2, 4])
    assert not a.complete and (a.totals + b.totals) == whole.totals


def test_checkpoint_is_keyed_by_content(tmp_path):
    ckdir = tmp_path / "cache"
    ms = random_set(tmp_path / "s", 31, lengths=(6, 5, 5, 6, 5), special_share=0.25)
    enumerate_phase(ms, workers=1, checkpoint_dir=ckdir)
    # a changed strip has another hash: the old checkpoint is never used for it
    d2 = write_random_set(tmp_path / "s2", 31, lengths=(6, 5, 5, 6, 5), special_share=0.25)
    text = (d2 / "base.csv").read_text().splitlines()
    row = text[1].split(",")
    row[0] = "PIC1" if row[0] != "PIC1" else "PIC2"
    text[1] = ",".join(row)
    (d2 / "base.csv").write_text("\n".join(text) + "\n")
    ms2 = load_math_set(str(d2))
    assert set_hash(ms2, ms2.model.base_phase) != set_hash(ms, ms.model.base_phase)
    fresh = enumerate_phase(ms2, workers=1, checkpoint_dir=ckdir)
    assert fresh.reused_tasks == 0 and fresh.computed_tasks == 1
    assert fresh.totals == enumerate_phase(ms2, workers=1).totals
    assert len(list(ckdir.glob("*.jsonl"))) == 2


def test_bad_slice_is_refused(tmp_path):
    ms = random_set(tmp_path / "s", 41, lengths=(5, 5, 5, 5, 5))
    with pytest.raises(ValueError, match="reel-1 stop 9"):
        enumerate_phase(ms, workers=1, first_stops=[9])


def cut_bundled(directory: Path, stops: int = 10) -> Path:
    """The bundled strips cut to their first ``stops`` positions per reel (bundled game.toml)."""
    directory.mkdir(parents=True, exist_ok=True)
    src = bundled_path("rules_page")
    for name in ("base.csv", "bonus.csv"):
        lines = (src / name).read_text().splitlines()
        (directory / name).write_text("\n".join(lines[:stops + 1]) + "\n")
    (directory / "game.toml").write_bytes((src / "game.toml").read_bytes())
    return directory


def test_bundled_strips_cut_to_10_stops(tmp_path):
    ms = load_math_set(str(cut_bundled(tmp_path / "cut")))
    phase = ms.model.base_phase
    e = enumerate_phase(ms, phase, workers=2)
    assert e.combinations == 10 ** 5
    assert_matches_literal(e, literal(ms, phase))
    assert [c.figure for c in compare(e, analyse_phase(ms, phase)) if not c.equal] == []
