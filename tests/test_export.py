"""``rtp export``: the workbook and CSV tables round-trip, and output paths are checked."""
from __future__ import annotations

import csv
from fractions import Fraction

import openpyxl
import pytest

from exact.cli import main
from exact.engine import analyse
from exact.export import par_sheets
from exact.report import build_report
from markov.round import round_result
from strips.loader import load_math_set
from test_proofs_sets import write_random_set


@pytest.fixture
def math_set(tmp_path):
    return write_random_set(tmp_path / "set", 9, lengths=(9, 10, 11, 9, 10))


def _sheet_rows(ws):
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    return rows[0], rows[1:]


def _by_header(header, row):
    return dict(zip(header, row))


def test_workbook_round_trips_with_the_exact_figures(math_set, tmp_path, capsys):
    out = tmp_path / "out" / "par.xlsx"
    out.parent.mkdir()
    assert main(["export", "--set", str(math_set), "--xlsx", str(out)]) == 0
    wb = openpyxl.load_workbook(out)
    ms = load_math_set(str(math_set))
    an = analyse(ms)
    rr = round_result(ms.model, an.base, an.levels)
    assert wb.sheetnames == ["Summary", "Symbols", "Strips base", "Strips bonus", "Fish weights", "Trigger", "Ladder"]

    # every cell equals the tables the writer was given: numbers as numbers, exact as "p/q" text
    sheets = par_sheets(build_report(ms), ms)
    for sh in sheets:
        header, rows = _sheet_rows(wb[sh.name])
        assert tuple(header) == sh.header
        assert len(rows) == len(sh.rows)
        for got, want in zip(rows, sh.rows):
            for g, w in zip(got, want):
                if isinstance(w, float):                # an integral float reads back as an int cell
                    assert isinstance(g, (int, float)) and not isinstance(g, bool), (sh.name, g, w)
                    # openpyxl writes 16 significant digits (Excel keeps 15); the exact column is exact
                    assert g == pytest.approx(w, rel=1e-15, abs=0)
                else:
                    assert type(g) is type(w) and g == w, (sh.name, g, w)
        # every "X exact" column holds the exact form of the number beside it
        for j, h in enumerate(header):
            if h.endswith(" exact"):
                for row in rows:
                    if row[j] is not None:
                        assert isinstance(row[j - 1], (int, float)) and isinstance(row[j], str)
                        assert float(Fraction(row[j])) == pytest.approx(row[j - 1], rel=1e-15, abs=0)

    # and the figures are the engine's, computed independently here
    header, rows = _sheet_rows(wb["Summary"])
    summary = {r[0]: r for r in rows}
    assert Fraction(summary["RTP"][2]) == rr.rtp and summary["RTP"][1] == float(rr.rtp)
    assert Fraction(summary["variance (credits^2 per round)"][2]) == rr.variance
    assert summary["bet (credits per round)"][1] == 10
    header, rows = _sheet_rows(wb["Trigger"])
    for row in rows:
        d = _by_header(header, row)
        n = d["FS count"]
        assert Fraction(d["probability per base spin exact"]) == an.base.by_scatter.prob[n]
        assert Fraction(d["feature mean win exact"]) == rr.features[n].mean
        assert d["initial free spins"] == ms.model.initial_spins(n)
    header, rows = _sheet_rows(wb["Strips base"])
    reels = ms.strips["base"].reels
    assert [r[0] for r in rows] == list(range(max(len(x) for x in reels)))
    for j, reel in enumerate(reels):
        assert [r[j + 1] for r in rows][:len(reel)] == list(reel)
    header, rows = _sheet_rows(wb["Fish weights"])
    for row in rows:
        d = _by_header(header, row)
        sym = ms.model.symbol(d["symbol"])
        w = sym.weights[d["table"]]
        assert d["weight"] == w[sym.values.index(d["value (credits)"])]
        assert Fraction(d["probability exact"]) == Fraction(d["weight"], sum(w))
    header, rows = _sheet_rows(wb["Ladder"])
    assert [Fraction(_by_header(header, r)["mean win per spin exact"]) for r in rows] == [pa.mean for pa in an.levels]


def test_csv_tables_round_trip(math_set, tmp_path, capsys):
    out = tmp_path / "tables"
    assert main(["export", "--set", str(math_set), "--csv", str(out)]) == 0
    ms = load_math_set(str(math_set))
    sheets = par_sheets(build_report(ms), ms)
    for sh in sheets:
        with open(out / f"{sh.slug}.csv", newline="") as f:
            rows = list(csv.reader(f))
        assert tuple(rows[0]) == sh.header and len(rows) == len(sh.rows) + 1
        for got, want in zip(rows[1:], sh.rows):
            for g, w in zip(got, want):
                if w is None:
                    assert g == ""
                elif isinstance(w, float):
                    assert float(g) == w               # repr of a float reads back to the same float
                else:
                    assert g == str(w)


def _one_line(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    return err[0]


def test_malformed_output_paths_exit_2_and_never_touch_inputs(math_set, tmp_path, capsys):
    before = {p.name: p.read_bytes() for p in math_set.iterdir()}
    bad = [
        ("--xlsx", str(tmp_path / "missing" / "par.xlsx"), "does not exist"),
        ("--xlsx", str(tmp_path), "is a directory"),
        ("--xlsx", str(math_set / "base.csv"), "refusing"),
        ("--xlsx", str(math_set / "par.xlsx"), "refusing"),
        ("--csv", str(math_set), "refusing"),
        ("--csv", str(math_set / "base.csv"), "refusing"),
        ("--csv", str(tmp_path / "missing" / "deeper"), "does not exist"),
        ("--xlsx", str(tmp_path / "par.txt"), "must end in .xlsx"),
    ]
    for opt, target, msg in bad:
        assert main(["export", "--set", str(math_set), opt, target]) == 2, target
        assert msg in _one_line(capsys), target
    (tmp_path / "afile").write_text("x")
    assert main(["export", "--set", str(math_set), "--csv", str(tmp_path / "afile")]) == 2
    assert "is a file" in _one_line(capsys)
    assert (tmp_path / "afile").read_text() == "x"
    assert {p.name: p.read_bytes() for p in math_set.iterdir()} == before
    assert main(["export", "--set", str(math_set)]) == 2
    _one_line(capsys)


def test_game_file_of_the_bundled_game_is_protected(math_set, capsys):
    """The bundled game file is never an output, whichever set is exported."""
    from strips.loader import bundled_path
    game = bundled_path("rules_page") / "game.toml"
    data = game.read_bytes()
    assert main(["export", "--set", str(math_set), "--xlsx", str(game)]) == 2
    assert _one_line(capsys)
    assert game.read_bytes() == data
