"""``rtp distribution`` on the bundled set and on African Simba (assembled from ../shared at test time).

The figures are checked against the exact engine (mean = RTP, trigger probabilities), against each
other (ranges cover [0, inf), their probabilities and RTPs sum to 1 and to the RTP within the
bounds) and for the keys of its JSON.  One run per set (module fixtures): each takes seconds.
"""
from __future__ import annotations

import contextlib
import io
import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from exact.cli import main
from exact.engine import analyse
from markov.round import round_result
from strips.loader import bundled_path, load_math_set
from exact.rules import initial_spins

ROOT = Path(__file__).resolve().parents[1]
EXTERNAL = ROOT.parent / "shared" / "external" / "african-simba" / "base.csv"
GAME = ROOT / "strips" / "external" / "african_simba" / "game.toml"
KEYS = ("base", "round", "max_round_win", "max_round_win_probability", "win_ranges", "percentiles", "error_bound")


def run_json(args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["distribution", "--json", *args])
    assert code == 0
    return json.loads(out.getvalue())


def frac(text):
    return Fraction(text) if isinstance(text, str) else text


def check_figures(d, ms):
    model = ms.model
    ga = analyse(ms)
    rr = round_result(model, ga.base, ga.levels)
    for k in KEYS:
        assert k in d
    # base: exact, ascending, mass 1, mean = the engine's
    wins = [w for w, _ in d["base"]]
    assert wins == sorted(set(wins))
    assert sum(Fraction(p) for _, p in d["base"]) == 1
    assert sum(w * Fraction(p) for w, p in d["base"]) == ga.base.mean
    # round: ascending, every float within the bound of [0, 1]
    rw = [w for w, _ in d["round"]]
    assert rw == sorted(set(rw))
    if d["max_round_win_exact"]:
        assert rw[-1] <= d["max_round_win"]
    else:   # endless retrigger: the largest win with P > 1e-15 (smaller ones may follow)
        assert d["max_round_win"] in rw and dict(d["round"])[d["max_round_win"]] > 1e-15
    assert 0 < d["error_bound"] < 1e-12
    total = sum(frac(p) for _, p in d["round"])
    assert abs(float(total) + d["truncated_mass"] - 1) <= 1e-9
    # win ranges cover [0, inf) in order; probabilities sum to 1, RTPs to the exact RTP, within the bounds
    rows = d["win_ranges"]
    assert rows[0]["from_bets"] == 0 and rows[0]["to_bets"] == 0 and rows[-1]["to_bets"] is None
    for a, b in zip(rows[1:], rows[2:]):
        assert a["to_bets"] == b["from_bets"]
    pb = sum(r["probability_bound"] for r in rows)
    assert abs(sum(float(frac(r["probability"])) for r in rows) + d["truncated_mass"] - 1) <= pb + 1e-12
    rb = sum(r["rtp_bound"] for r in rows)
    assert abs(sum(float(frac(r["rtp"])) for r in rows) - float(rr.rtp)) <= rb + d["truncated_mass"] * 1e6 + 1e-12
    # the hit frequency is the complement of the no-win row; P(>= 1 x bet) <= the hit frequency
    assert abs(float(frac(d["hit_frequency"])) + float(frac(rows[0]["probability"])) + d["truncated_mass"] - 1) < 1e-9
    assert float(frac(d["at_least"]["1"])) <= float(frac(d["hit_frequency"]))
    # percentiles ascend; max wins of each phase are exact and below the round's
    pct = [d["percentiles"][q] for q in ("50", "90", "99", "99.9", "99.99")]
    assert pct == sorted(pct)
    assert d["max_base_win"] <= d["max_round_win"]
    assert 0 < Fraction(d["max_base_win_probability"]) <= 1
    assert len(d["max_free_spin_win"]) == len(model.levels)
    # the feature per trigger: trigger probabilities are the engine's
    for n0, f in d["features"].items():
        assert Fraction(f["trigger_probability"]) == sum(p for n, p in rr.trigger_prob.items()
                                                         if initial_spins(model, n) == int(n0))


def test_bundled_set_json_and_plot(tmp_path):
    png = tmp_path / "dist.png"
    d = run_json(["--plot", str(png)])
    ms = load_math_set()
    check_figures(d, ms)
    assert d["max_round_win_exact"] is True and Fraction(d["max_round_win_probability"]) > 0
    assert d["truncated_mass"] == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bundled_set_text_and_ranges(capsys):
    assert main(["distribution", "--ranges", "0,1,10,100"]) == 0
    out = capsys.readouterr().out
    for text in ("WIN DISTRIBUTION", "0 (no win)", "[10, 100)", "[100, inf)", "hit frequency of the round",
                 "P(round win >= 5000 x bet)", "percentiles of the round win", "max win of a base spin",
                 "max win of a free spin, level 4", "max win of a round"):
        assert text in out


@pytest.mark.parametrize("args, message", [
    (["--ranges", "1,2"], "--ranges must start at 0"),
    (["--ranges", "0,5,2"], "--ranges must start at 0 and ascend"),
    (["--ranges", "0,x"], "--ranges: each edge must be a decimal"),
    (["--plot", str(bundled_path("rules_page") / "plot.png")], "refusing"),
    (["--plot", "/nonexistent-dir/p.png"], "does not exist"),
    (["--plot", "p.txt"], ".png"),
    (["--exact"], "too many for exact Fractions"),
])
def test_bad_requests_exit_2_in_one_line(args, message, capsys):
    assert main(["distribution", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(not EXTERNAL.is_file(), reason=f"third-party strips not found at {EXTERNAL}")
def test_african_simba(tmp_path, capsys):
    d = tmp_path / "african_simba"
    d.mkdir()
    shutil.copyfile(GAME, d / "game.toml")
    shutil.copyfile(EXTERNAL, d / "base.csv")
    out = run_json(["--set", str(d)])
    ms = load_math_set(d)
    check_figures(out, ms)
    # an endless retrigger: cut off below 1e-15 and said so; the max round win is the largest above 1e-15
    assert out["max_round_win_exact"] is False
    assert 0 <= out["truncated_mass"] < 1e-15
    assert out["features"]["12"]["truncated_mass"] < 1e-15


def test_an_endless_retrigger_too_costly_for_the_float_pass_is_refused_up_front(tmp_path, capsys, monkeypatch):
    """An endless retrigger whose grid products (its cycle-lemma series' terms) exceed MAX_SPECTRAL_WORK: one
    line, exit 2, at once (no hour-long run).  E[R] = 0.55 takes seconds through its series, so the limit is
    lowered here."""
    import sys
    import exact.feature_runner
    sys.path.insert(0, str(Path(__file__).parent))
    from generators import write_variant
    monkeypatch.setattr(exact.feature_runner, "MAX_SPECTRAL_WORK", 10**6)
    d = write_variant(tmp_path / "rt", "retrigger")
    assert main(["distribution", "--set", str(d)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "retrigger_cap" in err[0]


def test_a_round_win_grid_too_large_for_memory_is_refused_up_front(tmp_path, capsys):
    """A 5 OAK pay of 2^63 - 1 credits (admitted with --no-limits) makes a grid of ~10^20 points: one line,
    exit 2, naming the grid (was a TypeError traceback from numpy)."""
    from exact.distribution import MAX_GRID
    d = tmp_path / "big"
    shutil.copytree(bundled_path("rules_page"), d)
    (d / "published.toml").unlink()
    game = (d / "game.toml").read_text()
    assert "pays = [0, 0, 5, 15, 50]" in game
    (d / "game.toml").write_text(game.replace("pays = [0, 0, 5, 15, 50]", f"pays = [0, 0, 5, 15, {2**63 - 1}]", 1))
    assert main(["distribution", "--set", str(d), "--no-limits"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{MAX_GRID:,} points" in err[0] and "Traceback" not in err[0]


def test_a_one_spin_step_beyond_the_memory_budget_is_refused_in_one_line(capsys, monkeypatch):
    """The DP's arrays grow with states x window outcomes; past MAX_DP_BYTES the command stops at once
    (a 10,000-stop, 32-row set reached 14.6 GB before).  Here the budget is lowered to 1 MiB."""
    import exact.one_spin
    monkeypatch.setattr(exact.one_spin, "MAX_DP_BYTES", 1 << 20)
    assert main(["distribution", "--set", "rules_page"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "GiB at reel" in err[0] and "states x" in err[0]


def test_the_plot_draws_the_ranges_the_table_uses():
    """wd.plot(edges=...) and rtp distribution --ranges ... --plot: the bars are the table's ranges (the PNG
    drew the default ranges whatever --ranges said)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import exact
    ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1},
                         "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [1, 2]}}},
                        {"base": [["A", "B", "B"], ["A", "B", "A"]]})
    wd = exact.win_distribution(ms, progress=False)

    def bars(edges):
        fig, ax = plt.subplots()
        wd.plot(ax=ax, edges=edges)
        n = sum(len(c.get_segments()) for c in ax.collections)
        plt.close(fig)
        return n
    custom = (0, 3)
    shown = [r for r in wd.win_ranges(custom) if not (r.from_bets == r.to_bets == 0) and r.probability > 0]
    assert bars(custom) == len(shown) and bars(None) != bars(custom)
