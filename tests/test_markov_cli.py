"""``rtp chain`` end to end on a small math set written to a temporary directory."""
from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from exact.cli import main
from exact.engine import analyse
from markov.graph import check_chain, read_graphml
from markov.round import round_result
from exact.formatting import decimal_text
from strips.loader import bundled_path, load_math_set
from exact.rules import initial_spins

BASE = [["PIC1", "KEY", "PIC2", "FS", "AUS1", "PIC3", "FISH1", "PIC4", "PIC5", "AUS3"],
        ["WILD", "PIC1", "FS", "PIC2", "KEY", "AUS2", "FISH2", "PIC1", "AUS4", "PIC3"],
        ["PIC1", "FS", "PIC3", "KEY", "PIC2", "FISH1", "AUS1", "PIC5", "AUS2", "PIC4"],
        ["PIC1", "FISH3", "PIC2", "FS", "PIC3", "AUS1", "WILD", "PIC4", "AUS5", "PIC2"],
        ["PIC2", "FISH4", "PIC1", "FS", "AUS2", "PIC3", "FISH1", "PIC5", "AUS3", "PIC4"]]
# one KEY per reel on reels 1-3 of 12 positions: 1/3 per reel, so levels end at different places
BONUS = [["PIC1", "KEY", "PIC2", "AUS1", "FISH1", "PIC3", "PIC4", "AUS2", "PIC5", "AUS3", "PIC1", "PIC2"],
         ["PIC1", "PIC2", "FISH2", "AUS2", "PIC4", "KEY", "PIC3", "AUS1", "PIC5", "AUS4", "PIC2", "PIC1"],
         ["PIC1", "PIC3", "PIC2", "FISH1", "PIC5", "AUS2", "AUS3", "PIC4", "KEY", "PIC1", "AUS1", "PIC3"],
         ["PIC1", "FISH3", "PIC2", "PIC3", "AUS1", "PIC4", "AUS2", "PIC5", "AUS3", "PIC1", "PIC2", "AUS4"],
         ["PIC2", "FISH4", "PIC1", "FISH1", "PIC3", "PIC5", "AUS1", "PIC4", "AUS2", "PIC1", "AUS5", "PIC3"]]


def write_csv(path, reels):
    lines = [",".join(f"reel{i + 1}" for i in range(len(reels)))]
    lines += [",".join(r[i] for r in reels) for i in range(len(reels[0]))]
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture
def math_set(tmp_path):
    d = tmp_path / "set"
    d.mkdir()
    write_csv(d / "base.csv", BASE)
    write_csv(d / "bonus.csv", BONUS)
    (d / "game.toml").write_bytes((bundled_path("rules_page") / "game.toml").read_bytes())
    return d


def run_json(capsys, *argv):
    assert main(["chain", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_figures_are_the_library_figures(math_set, capsys):
    out = run_json(capsys, "--set", str(math_set))
    ms = load_math_set(str(math_set))
    an = analyse(ms)
    rr = round_result(ms.model, an.base, an.levels)
    assert [t["fs"] for t in out["triggers"]] == [3, 4, 5]
    for t in out["triggers"]:
        f = rr.features[t["fs"]]
        assert t["initial_spins"] == initial_spins(ms.model, t["fs"])
        assert F(t["mean"]["exact"]) == f.mean and F(t["variance"]["exact"]) == f.variance
        assert F(t["trigger_probability"]["exact"]) == rr.trigger_prob[t["fs"]]
        assert [F(lv["reach"]["exact"]) for lv in t["levels"]] == list(f.reach)
        assert [F(lv["win"]["exact"]) for lv in t["levels"]] == list(f.win_by_level)
        assert 0 < f.reach[1] < 1   # the set's levels end at different places
    assert out["float_cross_check"]["status"] == "PASS"
    assert out["float_cross_check"]["max_relative_difference"] < 1e-12


def test_graphml_export_reads_back(math_set, tmp_path, capsys):
    target = tmp_path / "ladder.graphml"
    out = run_json(capsys, "--set", str(math_set), "--trigger", "4", "--graphml", str(target))
    assert [t["fs"] for t in out["triggers"]] == [4]
    g = read_graphml(target)
    check_chain(g)
    assert g.number_of_nodes() - 1 == out["chain"]["states"]
    assert g.nodes["L1 s15 c0"]["start"] == "15"


def test_dot_export_and_text_output(math_set, tmp_path, capsys):
    target = tmp_path / "ladder.dot"
    assert main(["chain", "--set", str(math_set), "--dot", str(target)]) == 0
    text = capsys.readouterr().out
    assert "PASS" in text and "3 FS: 10 initial free spins" in text and "5 FS: 20 initial" in text
    assert target.read_text().startswith("digraph free_spin_ladder {")


@pytest.mark.parametrize("victim", ["base.csv", "bonus.csv", "game.toml"])
def test_raises_overwrite_of_an_input_file(math_set, capsys, victim):
    before = (math_set / victim).read_bytes()
    assert main(["chain", "--set", str(math_set), "--graphml", str(math_set / victim)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refusing to overwrite" in err
    assert (math_set / victim).read_bytes() == before


def test_raises_unknown_trigger(math_set, capsys):
    assert main(["chain", "--set", str(math_set), "--trigger", "2"]) == 2
    assert "--trigger must be one of 3, 4, 5" in capsys.readouterr().err


def test_raises_target_is_a_directory(math_set, tmp_path, capsys):
    assert main(["chain", "--set", str(math_set), "--dot", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_raises_target_in_missing_directory(math_set, tmp_path, capsys):
    assert main(["chain", "--set", str(math_set), "--dot", str(tmp_path / "no" / "x.dot")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_raises_set_without_game_file_before_writing(math_set, capsys):
    """No default game: a set without game.toml is refused (one line), the bundled game file is untouched."""
    (math_set / "game.toml").unlink()
    bundled = bundled_path("rules_page") / "game.toml"
    before = bundled.read_bytes()
    assert main(["chain", "--set", str(math_set), "--dot", str(bundled)]) == 2
    err = capsys.readouterr().err
    assert "no game.toml" in err and len(err.strip().splitlines()) == 1
    assert bundled.read_bytes() == before


# ---------------------------------------------------------------------------
# the whole round as one chain of the protocol (rtp chain --round)
# ---------------------------------------------------------------------------
def test_round_chain_of_every_mode_is_the_report_round(tmp_path, capsys):
    """``rtp chain --round`` on a game with prize wheels, a bet mode with a respin and free spins: its exact
    moments are the PAR sheet's round of each mode, its stages the round's components, its float cross-check
    passes, and its GraphML reads back as an absorbing chain."""
    import exact
    from generators import write_variant
    d = write_variant(tmp_path / "wheel_modes", "wheel_modes")
    sheet = exact.par_sheet(load_math_set(str(d)))
    for mode, m in sheet.modes.items():
        out = tmp_path / f"{mode}.graphml"
        assert main(["chain", "--set", str(d), "--round", "--mode", mode, "--json", "--graphml", str(out)]) == 0
        rep = json.loads(capsys.readouterr().out)["round"]
        assert (F(rep["mean"]["exact"]), F(rep["second"]["exact"])) == (m.round.mean, m.round.second), mode
        assert rep["float_cross_check"]["status"] == "PASS"
        stages = {s["stage"]: F(s["win"]["exact"]) for s in rep["stages"]}
        assert stages.get("the respin", F(0)) == m.round.components.get("respin", F(0)), mode
        assert sum(v for k, v in stages.items() if k.startswith("prize wheel")) == m.round.components["wheel"], mode
        assert stages["the free spins"] == m.round.components["free_spins"], mode
        g = read_graphml(out)
        check_chain(g)
        assert g.number_of_nodes() - 1 == rep["chain"]["states"]
    assert "respin" in sheet.modes["heavy"].round.components     # the respin was exercised


def test_round_chain_of_a_game_without_wheels_is_its_round(capsys):
    assert main(["chain", "--set", "rules_page", "--round"]) == 0
    text = capsys.readouterr().out
    rr = exact_round("rules_page")
    assert f"E = {decimal_text(rr.mean, 6)} credits" in text and "PASS" in text


def test_raises_mode_without_round_or_unknown_mode(capsys):
    assert main(["chain", "--set", "rules_page", "--mode", "default"]) == 2
    assert "--mode is an option of --round" in capsys.readouterr().err
    assert main(["chain", "--set", "rules_page", "--round", "--mode", "nope"]) == 2
    assert capsys.readouterr().err == "rtp chain: --mode must be one of default, got nope\n"


def exact_round(name: str):
    ms = load_math_set(name)
    an = analyse(ms)
    return round_result(ms.model, an.base, an.levels)
