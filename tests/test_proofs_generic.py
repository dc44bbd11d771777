"""The generic enumeration path (every rule of the literal evaluator) and `rtp prove --exhaustive` on every game.

Oracle: a loop over every stop combination through exact.evaluator.evaluate, every draw (FISH values,
drawn WILD multipliers, the combination value) weighted by its table: the totals of the generic path
must be equal exactly.  Then: the same totals for every task size and worker count, the fast path and
the generic path equal on a ways game, every phase of every bet mode of the reduced bundled wheel game
and of a reduced Dolphin's Pearl equal to the engine, and a wrong engine figure FAILs.
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings

from exact.cli import main
from exact.engine import analyse
from proofs import enumerate as en
from proofs.dask_runner import Cluster
from proofs.exhaustive import prove_exhaustively
from proofs.prove import _enumeration_section
from strips.loader import GAME_FILE, bundled_path, load_math_set
from generators import exact_mean, line_games, small_sets, ways_games_with_catalogue_rules
from mathset_files import plain_wheel_game

ROOT = Path(__file__).resolve().parents[1]
PEARL = ROOT.parent / "shared" / "external" / "dolphins-pearl"


def brute_totals(ms, phase):
    """(mean win x multiplier, P(win > 0 for every draw), trigger histogram, key histogram, scatter histograms)."""
    model = ms.model
    strips = ms.phase_strips(phase)
    n, mean, hits = 0, Fraction(0), 0
    trig, keys, scat = {}, {}, {}
    for stops in itertools.product(*(range(k) for k in strips.lengths)):
        window = strips.window(stops, model.rows)
        m, res, sure = exact_mean(ms, phase, window)
        n += 1
        mean += m
        hits += sure
        trig[res.trigger_count] = trig.get(res.trigger_count, 0) + 1
        keys[res.keys] = keys.get(res.keys, 0) + 1
        for name, c in res.scatter_counts:
            scat.setdefault(name, {})
            scat[name][c] = scat[name].get(c, 0) + 1
    return n, phase.multiplier * mean / n, Fraction(hits, n), trig, keys, scat


def hist(t):
    return {i: v for i, v in enumerate(t) if v}


def assert_generic_equals_brute_force(ms):
    for phase in (ms.model.base_phase, ms.model.level_phase(ms.model.levels[0])):
        e = en.enumerate_phase(ms, phase, workers=1, generic=True)
        n, mean, hit, trig, keys, scat = brute_totals(ms, phase)
        assert isinstance(e, en.SpinEnumeration) and e.complete
        assert e.combinations == n
        assert e.mean == mean
        assert e.pays_mean + e.scatter_mean + e.collect_mean == mean
        assert e.hit_frequency == hit
        assert hist(e.totals.trigger) == trig and hist(e.totals.keys) == keys
        assert {name: hist(h) for name, h in zip(e.scatter_names, e.totals.scatters)} == scat


@settings(max_examples=8)
@given(line_games(max_stops=3))
def test_line_games_generic_totals_equal_the_literal_evaluator(ms):
    assert_generic_equals_brute_force(ms)


@settings(max_examples=8)
@given(ways_games_with_catalogue_rules())
def test_ways_games_with_catalogue_rules_generic_totals_equal_the_literal_evaluator(ms):
    assert_generic_equals_brute_force(ms)


@settings(max_examples=6)
@given(small_sets(reels=(3,), max_len=4, multipliers=True))
def test_fish_and_drawn_wild_multipliers_generic_totals_equal_the_literal_evaluator(ms):
    assert_generic_equals_brute_force(ms)


def cut(src: Path, directory: Path, every: int, files=None, keep: str = "") -> Path:
    """A copy of a math set keeping every ``every``-th row of each strip file, and every row showing ``keep``
    (reduced strips)."""
    directory.mkdir(parents=True, exist_ok=True)
    if (src / GAME_FILE).is_file():
        shutil.copy(src / GAME_FILE, directory / GAME_FILE)
    for f in files or sorted(src.glob("*.csv")):
        lines = f.read_text().splitlines()
        rows = [x for i, x in enumerate(lines[1:]) if i % every == 0 or (keep and keep in x.split(","))]
        (directory / f.name).write_text("\n".join([lines[0]] + rows) + "\n")
    return directory


@pytest.fixture(scope="module")
def wheel_dir(tmp_path_factory):
    return cut(plain_wheel_game(), tmp_path_factory.mktemp("wheel") / "w", 7)     # prove refuses frames


def test_task_sizes_and_workers_give_identical_totals(wheel_dir):
    ms = load_math_set(str(wheel_dir)).mode("fortune_bet")
    phase = ms.model.base_phase
    ref = en.enumerate_phase(ms, phase, workers=1)
    assert isinstance(ref, en.SpinEnumeration)
    for stops in (1, 2, 3):
        assert en.enumerate_phase(ms, phase, workers=1, task_stops=stops).totals == ref.totals
    assert en.enumerate_phase(ms, phase, workers=1, chunk=97, task_stops=2).totals == ref.totals
    for workers in (2, 3):
        got = en.enumerate_phase(ms, phase, cluster=Cluster(workers=workers, mode="local"), task_stops=workers)
        assert got.totals == ref.totals and got.where.startswith("local Dask cluster")


def test_checkpoint_of_the_generic_path_resumes_and_redoes_a_bad_record(wheel_dir, tmp_path):
    ms = load_math_set(str(wheel_dir))
    phase = ms.model.base_phase
    ref = en.enumerate_phase(ms, phase, workers=1, task_stops=1)
    part = en.enumerate_phase(ms, phase, workers=1, task_stops=1, first_stops=[0, 3], checkpoint_dir=tmp_path)
    assert not part.complete and part.computed_tasks == 2
    path = tmp_path / f"{en.set_hash(ms, phase, 'generic')}.jsonl"
    recs = path.read_text().splitlines()
    bad = json.loads(recs[0])
    bad["totals"]["pay"] = str(int(bad["totals"]["pay"]) + 1)   # a tampered amount: checksum mismatch
    path.write_text(json.dumps(bad) + "\n" + recs[1] + "\n")
    e = en.enumerate_phase(ms, phase, workers=1, task_stops=1, checkpoint_dir=tmp_path)
    assert e.totals == ref.totals and e.reused_tasks == 1 and len(e.bad_records) == 1
    assert "checksum" in e.bad_records[0]


def test_fast_path_and_generic_path_agree_on_a_ways_game(tmp_path):
    ms = load_math_set(str(cut(bundled_path("rules_page"), tmp_path / "rp", 11)))
    for phase in ms.model.phases[:2]:
        fast = en.enumerate_phase(ms, phase, workers=1)
        gen = en.enumerate_phase(ms, phase, workers=1, generic=True)
        assert isinstance(fast, en.Enumeration) and isinstance(gen, en.SpinEnumeration)
        assert (fast.mean, fast.pays_mean, fast.collect_mean) == (gen.mean, gen.pays_mean, gen.collect_mean)
        assert fast.scatter_prob == gen.prob(gen.totals.trigger) and fast.key_prob == gen.prob(gen.totals.keys)


def test_every_phase_of_every_mode_of_the_wheel_game_equals_the_engine(wheel_dir):
    ms = load_math_set(str(wheel_dir))
    proofs = prove_exhaustively(ms, cluster=Cluster(workers=1))
    labels = [p.label for p in proofs]
    assert len(proofs) == 6 and sum(1 for p in proofs if not p.reused) == 4   # the modes share the bonus strips
    assert any("mode fortune_bet: base game" in x and "fortune_bet.csv" in x for x in labels)
    assert all(p.passed for p in proofs), [(p.label, c) for p in proofs for c in p.checks if not c.equal]
    figures = {c.figure for p in proofs for c in p.checks}
    assert {"spin win", "hit frequency", "P(SCATTER = 1)", "P(BONUS (wheel) = 1)"} <= figures
    wheel = [c for p in proofs if p.mode == "fortune_bet" and p.phase.name == "base" for c in p.checks
             if c.figure.startswith("P(BONUS") and c.engine]
    assert len(wheel) >= 2   # the reduced Fortune Bet strips show the wheel symbol


def test_a_wrong_engine_figure_fails(wheel_dir):
    ms = load_math_set(str(wheel_dir))
    right = analyse(ms)
    wrong = dataclasses.replace(right, base=dataclasses.replace(right.base, mean=right.base.mean + Fraction(1, 10 ** 9)))
    proofs = prove_exhaustively(ms, wrong, cluster=Cluster(workers=1))
    bad = [(p.label, c.figure) for p in proofs for c in p.checks if not c.equal]
    assert bad == [(proofs[0].label, "spin win")]
    lines, ok = _enumeration_section(proofs)
    assert not ok and "| NO |" in "\n".join(lines) and "Enumeration = factorisation: FAIL" in "\n".join(lines)
    by = right.base.by_scatter
    wrong = dataclasses.replace(right, base=dataclasses.replace(right.base, by_scatter=dataclasses.replace(
        by, prob=(by.prob[0] - Fraction(1, 7),) + by.prob[1:])))
    proofs = prove_exhaustively(ms, wrong, cluster=Cluster(workers=1))
    assert [c.figure for p in proofs for c in p.checks if not c.equal] == ["P(SCATTER = 0)"]


def test_prove_exhaustive_cli_on_the_reduced_wheel_game(wheel_dir, tmp_path):
    out = tmp_path / "cert.md"
    code = main(["prove", "--set", str(wheel_dir), "--exhaustive", "--rounds", "0", "--workers", "1",
                 "--checkpoint-dir", str(tmp_path / "ck"), "--out", str(out)])
    text = out.read_text()
    assert code == 0, text
    assert "#### mode fortune_spins: base game" in text and "path: generic" in text
    assert "Enumeration = factorisation: PASS" in text and "| NO |" not in text


@pytest.mark.skipif(not (PEARL / "base.csv").is_file(), reason=f"third-party strips not found at {PEARL}")
def test_prove_exhaustive_on_reduced_dolphins_pearl(tmp_path):
    d = tmp_path / "pearl"
    cut(PEARL, d, 7, files=[PEARL / "base.csv", PEARL / "bonus.csv"], keep="PEARL")
    shutil.copy(ROOT / "strips" / "external" / "dolphins_pearl" / GAME_FILE, d / GAME_FILE)
    ms = load_math_set(str(d))
    assert ms.model.is_lines and max(ms.strips["base"].lengths) <= 12
    proofs = prove_exhaustively(ms, cluster=Cluster(workers=1))
    assert [p.phase.name for p in proofs] == ["base", "level1"]
    assert all(p.passed for p in proofs)
    figures = {c.figure: c for c in proofs[0].checks}
    assert figures["line pays"].engine > 0 and figures["scatter pays"].engine > 0
    assert "P(PEARL = 3)" in figures


def test_one_fast_pass_sums_every_levels_collect(tmp_path):
    """The bundled free-spin levels differ only in their FISH tables: one pass of the bonus strips gives each
    level's collect, equal to its own enumeration and to the engine; a wrong level-3 collect FAILs."""
    ms = load_math_set(str(cut(bundled_path("rules_page"), tmp_path / "rp", 11)))
    levels = ms.model.phases[1:]
    one = en.enumerate_phase(ms, levels[0], workers=1, extra_phases=levels[1:], task_stops=3)
    assert len(one.totals.collect_extra) == 3
    for p in levels:
        own = en.enumerate_phase(ms, p, workers=1)
        assert (one.level(p).collect_mean, one.level(p).mean) == (own.collect_mean, own.mean)
    assert len({one.level(p).collect_mean for p in levels}) > 1   # the tables differ: a real test
    right = analyse(ms)
    proofs = prove_exhaustively(ms, right, cluster=Cluster(workers=1))
    assert [p.reused != "" for p in proofs] == [False, False, True, True, True] and all(p.passed for p in proofs)
    lv = list(right.levels)
    lv[2] = dataclasses.replace(lv[2], parts={**lv[2].parts, "collect": lv[2].parts["collect"] + Fraction(1, 10 ** 12)})
    proofs = prove_exhaustively(ms, dataclasses.replace(right, levels=tuple(lv)), cluster=Cluster(workers=1))
    assert [(p.phase.name, c.figure) for p in proofs for c in p.checks if not c.equal] == [("level3", "collect")]


def test_a_checkpoint_record_without_the_extra_collects_is_redone(tmp_path):
    ms = load_math_set(str(cut(bundled_path("rules_page"), tmp_path / "rp", 11)))
    levels = ms.model.phases[1:]
    ck = tmp_path / "ck"
    ref = en.enumerate_phase(ms, levels[0], workers=1, extra_phases=levels[1:], task_stops=5, checkpoint_dir=ck)
    path = next(ck.glob("*.jsonl"))
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    rec = recs[0]
    rec["totals"]["collect_extra"] = rec["totals"]["collect_extra"][:2]
    rec["sha256"] = en.record_checksum(rec["key"], rec["task"], rec["totals"])
    path.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    again = en.enumerate_phase(ms, levels[0], workers=1, extra_phases=levels[1:], task_stops=5, checkpoint_dir=ck)
    assert again.totals == ref.totals and again.computed_tasks == 1 and "wrong shape" in again.bad_records[0]
