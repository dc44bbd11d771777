"""``rtp tune`` (exact.variants): variants at a target RTP, checked from the written files.

Oracles: on small random sets the variant's RTP is recomputed from its files by
brute force (every stop combination and FISH value through the literal
evaluator, the ladder by the exact chain); on the bundled set by the engine.
Kept figures are compared exactly, published facts re-checked, and the input
files compared byte for byte.
"""
from __future__ import annotations

import doctest
import hashlib
import json
import os
import random
from fractions import Fraction
from pathlib import Path

import pytest

import exact.variants
from exact.cli import main
from exact.engine import analyse
from exact.sensitivity import sensitivity
from exact.variants import (allowed_edits, exact_rtp, game_file_with_weights, hit_frequency_deltas, kept_figures,
                            separation, tune, with_strips, with_weights)
from markov.moments import CountSplit, PhaseAnalysis, spin_parts
from markov.round import round_result
from oracle import brute_force
from exact.facts import check_facts
from strips.loader import bundled_path, load_math_set
from strips.published import Printed, window_positions
from generators import PAYS, _frac_arg, reachable_target, write_small


def brute_rtp(ms) -> Fraction:
    """RTP of a round from brute-force spin moments of every phase (evaluator), ladder by the exact chain."""
    model = ms.model

    def split(p, w, w2):
        n = max(p) + 1
        return CountSplit(tuple(p.get(i, Fraction(0)) for i in range(n)), tuple(w.get(i, Fraction(0)) for i in range(n)),
                          tuple(w2.get(i, Fraction(0)) for i in range(n)))

    def phase(ph):
        bf = brute_force(ms, ph)
        mean = sum(bf.win_scatter.values(), Fraction(0))
        ways = sum((sum(v, Fraction(0)) for v in bf.ways_by_symbol.values()), Fraction(0))
        return PhaseAnalysis(phase=ph, mean=mean, second=sum(bf.win2_scatter.values(), Fraction(0)),
                             parts=spin_parts(ways, bf.collect), ways_by_symbol={}, oak_prob={},
                             by_scatter=split(bf.prob_scatter, bf.win_scatter, bf.win2_scatter),
                             by_key=split(bf.prob_key, bf.win_key, bf.win2_key), hit_frequency=bf.hit)

    return round_result(model, phase(model.base_phase), [phase(model.level_phase(lv)) for lv in model.levels]).rtp


def files_digest(directory: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(directory.iterdir()) if p.is_file()}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_small_random_set_variant_by_brute_force(tmp_path, seed, capsys):
    src = write_small(tmp_path / "in", seed)
    before = files_digest(src)
    ms = load_math_set(str(src))
    target, tol = reachable_target(ms, seed), Fraction(1, 500)
    out = tmp_path / "out"
    code = main(["tune", "--set", str(src), "--target-rtp", _frac_arg(target), "--tolerance", _frac_arg(tol),
                 "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "MET" in text and "CHANGES" in text
    var = load_math_set(str(out))
    rtp = brute_rtp(var)
    assert abs(rtp - target) <= tol
    assert rtp == exact_rtp(var)
    # kept: trigger odds and KEY odds by brute force, feature positions, lengths
    for ph_a, ph_b in [(ms.model.base_phase, var.model.base_phase)] + \
            [(ms.model.level_phase(lv), var.model.level_phase(lv)) for lv in ms.model.levels[:1]]:
        ba, bb = brute_force(ms, ph_a), brute_force(var, ph_b)
        assert ba.prob_scatter == bb.prob_scatter
        assert ba.prob_key == bb.prob_key
        assert ba.collect == bb.collect
    assert all(k.ok for k in kept_figures(ms, var))
    for k in ms.strips:
        for ra, rb in zip(ms.strips[k].reels, var.strips[k].reels):
            assert len(ra) == len(rb)
            for x, y in zip(ra, rb):
                assert x == y or (x in PAYS and y in PAYS)
    assert not var.findings or {f.message for f in var.findings} <= {f.message for f in ms.findings}
    assert files_digest(src) == before


def test_edits_are_separated_and_listed_in_the_diff(tmp_path, capsys):
    src = write_small(tmp_path / "in", 5)
    ms = load_math_set(str(src))
    v = tune(ms, reachable_target(ms, 5), Fraction(1, 500))
    assert v.met and v.edits
    sep = separation(ms)
    for a in v.edits:
        for b in v.edits:
            if a is not b and (a.strip_set, a.reel) == (b.strip_set, b.reel):
                n = len(ms.strips[a.strip_set].reels[a.reel])
                assert min((a.position - b.position) % n, (b.position - a.position) % n) >= sep
    assert v.lower_bound <= len(v.edits)


def test_unreachable_target_exits_1_with_the_closest_value(tmp_path, capsys):
    src = write_small(tmp_path / "in", 7)
    before = files_digest(src)
    out = tmp_path / "out"
    code = main(["tune", "--set", str(src), "--target-rtp", "9.5", "--out", str(out), "--json"])
    res = json.loads(capsys.readouterr().out)
    assert code == 1
    (v,) = res["variants"]
    assert v["met"] is False and v["out"] is None and "closest exact RTP reached" in v["verdict"]
    closest = Fraction(v["rtp"])
    assert closest > exact_rtp(load_math_set(str(src)))     # it moved towards the target
    assert not out.exists() or not any(out.iterdir())
    assert files_digest(src) == before


def test_variants_write_one_subdirectory_each(tmp_path, capsys):
    src = write_small(tmp_path / "in", 2)
    ms = load_math_set(str(src))
    r0 = exact_rtp(ms)
    t1, t2 = reachable_target(ms, 11), reachable_target(ms, 12)
    tol = Fraction(1, 200)
    out = tmp_path / "out"
    code = main(["tune", "--set", str(src), "--variants", f"{_frac_arg(t1)},{_frac_arg(t2)}", "--tolerance",
                 _frac_arg(tol), "--out", str(out), "--json"])
    res = json.loads(capsys.readouterr().out)
    assert code == 0, res
    dirs = [Path(v["out"]) for v in res["variants"]]
    assert len(set(dirs)) == 2 and all(d.parent == out for d in dirs)
    for d, t in zip(dirs, (t1, t2)):
        assert abs(brute_rtp(load_math_set(str(d))) - t) <= tol
    assert r0 == exact_rtp(load_math_set(str(src)))


def test_keep_hit_frequency(tmp_path, capsys):
    src = write_small(tmp_path / "in", 4)
    ms = load_math_set(str(src))
    target, tol, rel = reachable_target(ms, 4), Fraction(1, 200), Fraction(1, 20)
    v = tune(ms, target, tol, keep_hit_frequency=rel)
    assert v.met
    hf0 = analyse(ms).base.hit_frequency
    hf1 = brute_force(v.math_set, v.math_set.model.base_phase).hit
    assert abs(hf1 - hf0) <= rel * hf0
    assert v.hit_frequency == hf1


def test_hit_frequency_deltas_are_exact(tmp_path):
    src = write_small(tmp_path / "in", 6)
    ms = load_math_set(str(src))
    cands = [c.edit for c in allowed_edits(ms, sensitivity(ms).edits)]
    rng = random.Random(6)
    sample = rng.sample(cands, 8)
    hf0 = analyse(ms).base.hit_frequency
    for e, d in zip(sample, hit_frequency_deltas(ms, sample)):
        strips = {k: [list(r) for r in v.reels] for k, v in ms.strips.items()}
        strips[e.strip_set][e.reel][e.position] = e.new
        assert analyse(with_strips(ms, strips)).base.hit_frequency - hf0 == d, str(e)


def test_bundled_set_variant(tmp_path, capsys):
    src = bundled_path("rules_page")
    before = files_digest(src)
    out = tmp_path / "v94"
    code = main(["tune", "--set", "rules_page", "--target-rtp", "0.94", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0, text
    ms, var = load_math_set("rules_page"), load_math_set(str(out))
    assert abs(exact_rtp(var) - Fraction(94, 100)) <= Fraction(1, 10000)
    checks = kept_figures(ms, var)
    assert all(c.ok for c in checks) and len(checks) >= 8
    ga, gb = analyse(ms), analyse(var)
    assert ga.base.by_scatter.prob == gb.base.by_scatter.prob
    assert ga.levels[0].by_key.prob == gb.levels[0].by_key.prob
    assert ga.base.parts["collect"] == gb.base.parts["collect"]
    assert not [f.fact for f in check_facts(var) if f.failed]
    assert (out / "game.toml").read_bytes() == (src / "game.toml").read_bytes()
    assert main(["check", "--set", str(out)]) == 0
    capsys.readouterr()
    assert files_digest(src) == before


def test_output_guard(tmp_path, capsys):
    src = write_small(tmp_path / "in", 1)
    before = files_digest(src)
    assert main(["tune", "--set", str(src), "--target-rtp", "2", "--out", str(src)]) == 2
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.txt").write_text("x")
    assert main(["tune", "--set", str(src), "--target-rtp", "2", "--out", str(tmp_path / "full")]) == 2
    assert main(["tune", "--set", str(src), "--target-rtp", "abc", "--out", str(tmp_path / "o")]) == 2
    assert main(["tune", "--set", str(src), "--target-rtp", "2", "--keep", "variance",
                 "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 4
    assert files_digest(src) == before


def test_doctests():
    assert doctest.testmod(exact.variants).failed == 0


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("RTP_SLOW"), reason="opt-in (RTP_SLOW=1): four variants of the bundled set")
def test_four_variants_of_the_bundled_set(tmp_path, capsys):
    out = tmp_path / "v"
    code = main(["tune", "--set", "rules_page", "--variants", "0.96,0.94,0.92,0.88", "--out", str(out), "--json"])
    res = json.loads(capsys.readouterr().out)
    assert code == 0
    for v in res["variants"]:
        var = load_math_set(v["out"])
        assert abs(exact_rtp(var) - Fraction(v["target"])) <= Fraction(1, 10000)
        assert main(["check", "--set", v["out"]]) == 0
    capsys.readouterr()


def test_allow_fish_weights_when_pay_swaps_cannot_reach(tmp_path, capsys):
    """An unreachable target: with FISH weights allowed the search gets further; the set written from
    the result (game file rewritten) has that exact RTP by brute force; totals kept, every weight >= 1."""
    src = write_small(tmp_path / "in", 3)
    ms = load_math_set(str(src))
    tol = Fraction(1, 1000)
    top = tune(ms, Fraction(1000), tol)                                 # pay swaps only
    v = tune(ms, Fraction(1000), tol, allow=frozenset({"fish-weights"}))
    assert not top.met and not v.met and v.weights and v.rtp > top.rtp
    out = tmp_path / "files"
    out.mkdir()
    for name, data in exact.variants.variant_files(ms, v).items():
        (out / name).write_bytes(data)
    var = load_math_set(str(out))
    assert brute_rtp(var) == v.rtp
    for table, w in var.model.symbol("F").weights.items():
        assert sum(w) == sum(ms.model.symbol("F").weights[table]) and min(w) >= 1
    # a target the weights reach: met, within the tolerance by brute force from the written files
    code = main(["tune", "--set", str(src), "--target-rtp", _frac_arg(v.rtp), "--tolerance", _frac_arg(tol),
                 "--allow", "fish-weights", "--out", str(tmp_path / "met"), "--json"])
    (res,) = json.loads(capsys.readouterr().out)["variants"]
    assert code == 0, res
    assert abs(brute_rtp(load_math_set(str(tmp_path / "met"))) - v.rtp) <= tol


def test_game_file_weights_are_rewritten_in_place():
    text = b"[symbols.F]\nclass = \"fish\"  # note\nweights.base = [3, 1]   # kept\n[symbols.G.weights]\nbase = [1, 1]\n"
    out = game_file_with_weights(text, {("F", "base"): (2, 2), ("G", "base"): (0, 2)}).decode()
    assert out == "[symbols.F]\nclass = \"fish\"  # note\nweights.base = [2, 2]   # kept\n[symbols.G.weights]\nbase = [0, 2]\n"
    with pytest.raises(ValueError, match="cannot rewrite"):
        game_file_with_weights(b"[symbols.F]\nweights = { base = [1, 2] }\n", {("F", "base"): (2, 1)})


def test_a_target_that_is_a_percentage_slip_is_refused(tmp_path, capsys):
    src = write_small(tmp_path / "in", 7)
    assert main(["tune", "--set", str(src), "--target-rtp", "94", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "0.94" in err[0]


# ---- issue: published windows that wrap round the end of a strip; variants that break a published fact
def test_with_strips_keeps_the_published_data():
    """The in-memory variant keeps ``published.toml`` (its windows guard every repair round of the search)."""
    ms = load_math_set("rules_page")
    var = with_strips(ms, {k: [list(r) for r in v.reels] for k, v in ms.strips.items()})
    assert not ms.published.empty and var.published == ms.published


def test_tune_never_edits_a_position_a_published_window_shows(tmp_path, capsys):
    """Target 2.0 on the bundled set: example 2's window on base reel 2 starts at stop 97 of 100 and wraps to
    positions 0 and 1; no edit of any round may touch a position a published window shows, wrapped or not,
    and the verdict breaks no published fact."""
    ms = load_math_set("rules_page")
    shown = {(k, r, p) for k in ms.strips
             for r, p in window_positions(ms.published.windows, k, ms.strips[k].lengths)}
    assert ("base", 1, 0) in shown and ("base", 1, 1) in shown          # the wrapped part of example 2
    out = tmp_path / "v200"
    code = main(["tune", "--set", "rules_page", "--target-rtp", "2.0", "--out", str(out), "--json"])
    (v,) = json.loads(capsys.readouterr().out)["variants"]
    assert v["published_broken"] == []
    written = load_math_set(str(out)) if v["out"] else None
    if written is not None:
        for k in ms.strips:
            for r, (a, b) in enumerate(zip(ms.strips[k].reels, written.strips[k].reels)):
                assert not [p for p, (x, y) in enumerate(zip(a, b)) if x != y and (k, r, p) in shown]
        assert not [f.fact for f in check_facts(written) if f.failed]
    assert code == (0 if v["met"] else 1)


def test_a_variant_that_breaks_a_published_fact_is_not_written(tmp_path, capsys):
    """A set that publishes its RTP: any variant at another RTP breaks that fact, so none is written;
    exit 1 and the closest result that keeps every published fact is reported (here the input itself)."""
    src = write_small(tmp_path / "in", 5)
    ms = load_math_set(str(src))
    rtp0 = exact_rtp(ms)
    printed = f"{float(rtp0 * 100):.2f}%"
    (src / "published.toml").write_text(f'[[facts]]\nfigure = "rtp"\nprinted = "{printed}"\nsource = "test"\n')
    target = reachable_target(ms, 5)
    assert not Fraction(printed[:-1]) / 100 - Fraction(1, 20000) <= target <= Fraction(printed[:-1]) / 100 + Fraction(1, 20000)
    out = tmp_path / "out"
    code = main(["tune", "--set", str(src), "--target-rtp", _frac_arg(target), "--tolerance", "1/500",
                 "--out", str(out), "--json"])
    (v,) = json.loads(capsys.readouterr().out)["variants"]
    assert code == 1 and v["out"] is None and v["met"] is False
    assert not out.exists() or not any(out.iterdir())
    assert "rtp" in " ".join(v["published_broken"]) and "closest" in v["verdict"]
    assert Printed.parse(printed).matches(Fraction(v["rtp"]))     # the closest result keeps the printed RTP


def test_tune_with_a_check_reports_the_closest_passing_state(tmp_path):
    """``tune(check=...)``: a state the check rejects is never returned; with every edited state rejected
    the result is the input, not met, and names what the rejected closer state broke."""
    src = write_small(tmp_path / "in", 5)
    ms = load_math_set(str(src))
    target = reachable_target(ms, 5)
    v = tune(ms, target, Fraction(1, 500), check=lambda var: () if var.strips == ms.strips else ("every edit",))
    assert not v.met and v.edits == () and v.rtp == exact_rtp(ms) and v.rejected == ("every edit",)


# ---- issue: --tolerance 0 reported the unedited input as the closest although the search got closer
def test_tolerance_zero_reports_the_closest_state_found(tmp_path):
    """Tolerance 0 (exactly the target): the result is the closest exact RTP the search reached, at least
    as close as the result of a looser search, never the input when an edit gets closer; bounded in time."""
    src = write_small(tmp_path / "in", 5)
    ms = load_math_set(str(src))
    target = reachable_target(ms, 5) + Fraction(1, 10**7)      # off the exact value of any 2-edit set
    loose = tune(ms, target, Fraction(1, 500))
    assert loose.met and loose.edits
    v = tune(ms, target, Fraction(0), seconds=30)
    assert v.edits and abs(v.rtp - target) <= abs(loose.rtp - target) < abs(exact_rtp(ms) - target)
    assert v.rtp == exact_rtp(v.math_set) and v.met == (v.rtp == target)
    assert v.stopped in ("met", "no closer state", "round limit", "time limit") and v.seconds < 60


def test_tolerance_zero_on_the_command_line(tmp_path, capsys):
    """``--tolerance 0``: one NOT MET line with the closest exact RTP and how long it searched, nothing
    written; ``--write-closest`` writes that closest set (exact RTP as reported), exit still 1."""
    src = write_small(tmp_path / "in", 5)
    ms = load_math_set(str(src))
    target = reachable_target(ms, 5) + Fraction(1, 10**7)
    out = tmp_path / "out"
    code = main(["tune", "--set", str(src), "--target-rtp", _frac_arg(target), "--tolerance", "0",
                 "--time-limit", "20", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 1 and "NOT MET" in text and "searched" in text and "no set written" in text
    assert not out.exists() or not any(out.iterdir())
    code = main(["tune", "--set", str(src), "--target-rtp", _frac_arg(target), "--tolerance", "0",
                 "--time-limit", "20", "--write-closest", "--out", str(out), "--json"])
    (v,) = json.loads(capsys.readouterr().out)["variants"]
    assert code == 1 and v["closest_written"] and v["out"] == str(out) and v["met"] is False
    written = load_math_set(str(out))
    assert exact_rtp(written) == Fraction(v["rtp"]) and abs(Fraction(v["rtp"]) - target) < abs(exact_rtp(ms) - target)
    assert all(v["kept"].values())
    assert main(["tune", "--set", str(src), "--target-rtp", "0.9", "--time-limit", "0", "--out",
                 str(tmp_path / "o2")]) == 2


@pytest.mark.slow   # it runs against a time bound, so it depends on the machine's load
def test_tolerance_zero_within_a_short_time_bound_reports_its_closest_edit():
    """The fast form of the probe below: with tolerance 0 and a 10 s bound, the closest state found so far is
    reported (edited, exact, closer than the input), never the unedited input."""
    ms = load_math_set("rules_page")
    target = Fraction(94, 100)
    v = tune(ms, target, Fraction(0), seconds=10)
    assert v.edits and abs(v.rtp - target) < abs(exact_rtp(ms) - target)
    assert v.rtp == exact_rtp(v.math_set) and not v.met and v.seconds < 10 + 25   # one round may overrun


@pytest.mark.slow
def test_tolerance_zero_on_the_bundled_set_gets_closer_than_the_default_band():
    """The probe: ``--target-rtp 0.94 --tolerance 0`` reported the unedited input (95.999669%) after 90 s
    although the default band reaches 94.004353%; the closest state found is reported, within the time bound."""
    ms = load_math_set("rules_page")
    target = Fraction(94, 100)
    default = tune(ms, target)
    v = tune(ms, target, Fraction(0), seconds=30)
    assert v.edits and abs(v.rtp - target) <= abs(default.rtp - target) < abs(exact_rtp(ms) - target)
    assert v.rtp == exact_rtp(v.math_set) and not v.met and v.seconds < 30 + 25   # one round may overrun
