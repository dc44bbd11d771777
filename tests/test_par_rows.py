"""PAR rows a lab expects: scatter pays by count, the free-spin symbol table per level, the round's hit
frequency and max win in the report and the workbook Summary when the distribution is cheap, ``rtp comply``
saying when it skips the top award, and the per-symbol table's floats in the JSON.

Oracles: enumeration of every stop combination through the literal window (scatter counts), the brute-force
one-spin figures of tests/oracle.py (free-spin OAK table), the win distribution itself (round figures)."""
from __future__ import annotations

import dataclasses
import itertools
import json
import shutil
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

import exact
from exact.cli import main
from exact.scatter_pays import scatter_count_distribution, scatter_pay_rows
from mathset_files import write_set
from oracle import brute_force, make_set, small_fish_model, small_feature_set

ROOT = Path(__file__).resolve().parents[1]
PEARL = ROOT.parent / "shared" / "external" / "dolphins-pearl"

#: A small rules-page set whose round distribution takes well under a second.
BASE = [["FS", "PIC1", "AUS1", "KEY", "FISH1", "AUS2"]] * 3 + [["FS", "PIC1", "AUS1", "WILD", "FISH1", "AUS2"]] * 2
BONUS = [["PIC1", "KEY", "AUS2", "FISH1", "AUS3"]] * 3 + [["PIC1", "AUS4", "AUS2", "FISH1", "AUS3"]] * 2


def scatter_pay_game():
    """A 3-reel game whose FS pays 2 / 10 / 40 credits for 1 / 2 / 3+ in the window (2 rows)."""
    model = small_fish_model(reels=3, rows=2)
    syms = tuple(dataclasses.replace(s, pays=(2, 10, 40)) if s.name == "FS" else s for s in model.symbols)
    model = dataclasses.replace(model, symbols=syms, trigger=(), levels=())
    return make_set(model, [["FS", "PIC1", "FS", "AUS1"], ["AUS1", "FS", "PIC1"], ["FS", "AUS2", "FS", "FS", "PIC1"]])


def literal_counts(ms, symbol):
    """{count: P} by every stop combination: the window of reel r at stop s shows rows s, s+1 (wrapping)."""
    reels = ms.strips["base"].reels
    out: dict = {}
    for stops in itertools.product(*(range(len(r)) for r in reels)):
        n = sum(reel[(s + k) % len(reel)] == symbol for reel, s in zip(reels, stops) for k in range(ms.model.rows))
        out[n] = out.get(n, 0) + 1
    total = sum(out.values())
    return {n: Fraction(c, total) for n, c in out.items()}


def test_scatter_pays_by_count_equal_the_enumeration():
    ms = scatter_pay_game()
    assert scatter_count_distribution(ms, "FS") == literal_counts(ms, "FS")
    rows = scatter_pay_rows(ms)
    brute = literal_counts(ms, "FS")
    assert [(r.count, r.or_more, r.pay) for r in rows] == [(1, False, 2), (2, False, 10), (3, True, 40)]
    for r in rows:
        want = sum(p for n, p in brute.items() if n >= r.count) if r.or_more else brute.get(r.count, 0)
        assert r.probability == want and r.rtp == want * r.pay / ms.model.bet
    sheet = exact.par_sheet(ms)
    assert sum(r.rtp for r in rows) * ms.model.bet == sheet.analysis.base.parts["scatter"]   # the engine's share
    assert sheet.table("scatter_pays")["pay"].tolist() == [2, 10, 40] if _has_pandas() else True
    from exact.export import par_sheets
    sheets = {sh.name: sh for sh in par_sheets(sheet, ms)}
    exact_cells = {(row[2], row[3]): Fraction(row[4]) for row in sheets["Exact"].rows if row[0] == "Scatter pays"}
    assert [exact_cells[f"FS {r[1]}", "probability"] for r in sheets["Scatter pays"].rows] == [r.probability for r in rows]
    assert [exact_cells[f"FS {r[1]}", "RTP contribution"] for r in sheets["Scatter pays"].rows] == [r.rtp for r in rows]


def _has_pandas() -> bool:
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not (PEARL / "base.csv").is_file(), reason="third-party strips not found")
def test_dolphins_pearl_scatter_rows_sum_to_the_published_share(tmp_path, capsys):
    d = tmp_path / "pearl"
    d.mkdir()
    shutil.copyfile(ROOT / "strips" / "external" / "dolphins_pearl" / "game.toml", d / "game.toml")
    for f in ("base.csv", "bonus.csv"):
        shutil.copyfile(PEARL / f, d / f)
    assert main(["--set", str(d)]) == 0
    text = capsys.readouterr().out
    assert "SCATTER PAYS BY COUNT" in text and "PEARL    5+" in text and "FREE SPINS LEVEL 1 (x3) BY SYMBOL" in text
    rows = scatter_pay_rows(exact.load_math_set(d))
    assert f"{float(sum(r.rtp for r in rows)) * 100:.3f}" == "11.288"   # the published scatter share
    assert main(["comply", "--set", str(d), "--json"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    assert doc["top_award_checked"] is False and "endless retrigger" in doc["top_award_not_checked"]


def test_free_spin_symbol_table_per_level_equals_brute_force():
    ms = small_feature_set()
    sheet = exact.par_sheet(ms)
    tables = sheet.tables(frames=False)
    for i, lv in enumerate(ms.model.levels, start=1):
        brute = brute_force(ms, ms.model.level_phase(lv))
        rows = tables[f"free_spin_symbols_{i}"].rows
        assert rows
        for symbol, n, p, _, mean, share in rows:
            assert p == brute.oak[symbol][n - 1] and mean == brute.ways_by_symbol[symbol][n - 1]
            assert share == mean / ms.model.bet


@pytest.fixture
def quick_set(tmp_path):
    return write_set(tmp_path / "quick", base=BASE, bonus=BONUS, published=False)


def test_report_gives_the_round_figures_when_cheap_and_says_so_otherwise(quick_set, capsys, monkeypatch):
    wd = exact.win_distribution(exact.load_math_set(quick_set), progress=False)
    monkeypatch.setenv("RTP_ROUND_BUDGET", "30")
    assert main(["--set", str(quick_set), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    got = doc["round_figures"]
    assert got["computed"] and got["max_win"] == wd.max_round_win and got["hit_frequency"] == wd.hit_frequency[0]
    assert got["max_win_exact"] == wd.max_round_exact
    assert main(["--set", str(quick_set)]) == 0
    text = capsys.readouterr().out
    assert f"max win of a round           {wd.max_round_win:,} credits" in text
    monkeypatch.setenv("RTP_ROUND_BUDGET", "0.001")
    assert main(["--set", str(quick_set), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["round_figures"]
    assert got == {"computed": False, "reason": "not computed, run rtp distribution (the win distribution takes over 0.001 s)"}
    assert main(["--set", str(quick_set)]) == 0
    assert "hit frequency and max win of the round: not computed, run rtp distribution" in capsys.readouterr().out


def test_workbook_summary_has_the_round_figures_when_cheap(quick_set, tmp_path, capsys, monkeypatch):
    wd = exact.win_distribution(exact.load_math_set(quick_set), progress=False)
    for budget, want in (("30", True), ("0", False)):
        monkeypatch.setenv("RTP_ROUND_BUDGET", budget)
        out = tmp_path / f"par{budget}.xlsx"
        assert main(["export", "--set", str(quick_set), "--xlsx", str(out)]) == 0
        wb = openpyxl.load_workbook(out)
        summary = {r[0]: r[1] for r in wb["Summary"].iter_rows(min_row=3, values_only=True)}
        if want:
            assert summary["max win of a round"] == wd.max_round_win
            assert summary["hit frequency of the round"] == pytest.approx(wd.hit_frequency[0], abs=1e-12)
            assert "Win distribution" not in wb.sheetnames     # the sheets of --distribution stay out
        else:
            assert summary["hit frequency and max win of the round"].startswith("not computed, run rtp distribution")


def test_comply_says_top_award_not_checked_in_its_summary_line_and_json(quick_set, capsys):
    assert main(["comply", "--set", str(quick_set), "--no-distribution"]) in (0, 1)
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("; top award not checked (--no-distribution)")
    assert main(["comply", "--set", str(quick_set), "--no-distribution", "--json"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    assert doc["top_award_checked"] is False and doc["top_award_not_checked"] == "--no-distribution"
    assert main(["comply", "--set", str(quick_set), "--json"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    assert doc["top_award_checked"] is True and "top_award_not_checked" not in doc
    assert any(c["item"].startswith("max win") for c in doc["checks"])
    assert main(["comply", "--set", str(quick_set), "--no-distribution", "--jurisdiction", "nevada"]) == 0
    assert "top award" not in capsys.readouterr().out     # no award-odds rule chosen: nothing skipped


def test_every_json_figure_with_a_float_partner_has_it(capsys):
    assert main(["--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for symbol, oaks in doc["symbols"].items():
        for oak, d in oaks.items():
            for k in ("probability", "rtp"):
                assert d[k + "_float"] == float(Fraction(d[k])), (symbol, oak, k)
    missing = []

    def walk(node, path):
        for k, v in node.items():
            if isinstance(v, dict):
                walk(v, f"{path}{k}.")
            elif isinstance(v, str) and "/" in v and k + "_float" not in node and k != "awards":
                missing.append(path + k)
    walk(doc, "")
    assert not missing


@pytest.mark.parametrize("command", ["report", "distribution", "export", "comply", "prove", "simulate", "spin"])
def test_help_usage_leaves_the_limits_to_their_own_section(command, capsys):
    from exact.cli import COMMANDS
    from strips.limits import DESCRIPTIONS, option
    assert command in COMMANDS
    assert main([command, "--help"]) == 0
    text = capsys.readouterr().out
    usage = text.split("\n\n")[0]
    assert "--max-" not in usage and "--no-limits" not in usage and usage.rstrip().endswith("[input limits]")
    section = text[text.index("input limits:"):]
    assert all(option(name) in section.replace("-\n  ", "-").replace("\n  ", " ") for name in DESCRIPTIONS)


def test_limit_options_still_work(capsys):
    assert main(["report", "--max-reels", "3"]) == 2
    assert "more than the limit of 3" in capsys.readouterr().err


def test_python_dash_m_exact_runs_the_command_line():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "exact", "--version"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.startswith("rtp (slot-exact)")
    out = subprocess.run([sys.executable, "-m", "exact", "report", "--set", "no_such_set"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
