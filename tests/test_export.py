"""``rtp export``: the workbook and CSV tables round-trip, and output paths are checked."""
from __future__ import annotations

import csv
import hashlib
import json
from math import prod
from fractions import Fraction

import openpyxl
import pytest

from exact.cli import main
from exact.engine import analyse
from exact.comply import comply, load_rules
from exact.export import par_sheets
from exact.formatting import scientific
from markov.round import round_result
from exact.facts import checked_sheet
from strips.loader import load_math_set
from generators import write_random_set
from exact.rules import initial_spins


@pytest.fixture
def math_set(tmp_path):
    return write_random_set(tmp_path / "set", 9, lengths=(9, 10, 11, 9, 10))


def _sheet_rows(ws):
    """(column names, data rows): row 1 names the columns, row 2 gives their units."""
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    return rows[0], rows[2:]


def _by_header(header, row):
    return dict(zip(header, row))


def test_workbook_round_trips_with_the_exact_figures(math_set, tmp_path, capsys):
    (math_set / "published.toml").write_text('[[facts]]\nfigure = "rtp"\nprinted = "96%"\n')
    out = tmp_path / "out" / "par.xlsx"
    out.parent.mkdir()
    assert main(["export", "--set", str(math_set), "--xlsx", str(out)]) == 0
    wb = openpyxl.load_workbook(out)
    ms = load_math_set(str(math_set))
    an = analyse(ms)
    rr = round_result(ms.model, an.base, an.levels)
    # "Published" is there when the set publishes facts (the rules-page game's facts on this random set)
    assert [n for n in wb.sheetnames if n != "Published"] == [
        "Summary", "Paytable", "Symbol counts", "Combinations", "Free-spin combinations", "Features", "Levels",
        "Compliance", "Strips base",
        "Strips bonus", "Fish weights", "Exact"]

    # every exact figure: a numeric cell in its sheet, its "p/q" in the Exact sheet, both the same number
    header, rows = _sheet_rows(wb["Exact"])
    assert header == ["sheet", "cell", "row", "column", "exact value"] and len(rows) > 100
    assert [c.value for c in wb["Exact"][2]][-1] == "p/q"
    exact = {}
    for sheet, cell, label, column, value in rows:
        x = Fraction(value)
        got = wb[sheet][cell].value
        if isinstance(got, str):   # beyond a float's range: the exact scientific text
            assert got == scientific(x) and not Fraction(1, 10**300) <= abs(x) <= 10**300, (sheet, cell)
            continue
        assert isinstance(got, (int, float)) and not isinstance(got, bool), (sheet, cell, got)
        assert got == pytest.approx(float(x), rel=1e-15, abs=0), (sheet, cell)
        exact[sheet, label, column] = x

    # and the figures are the engine's, computed independently here
    assert exact["Summary", "RTP", "value"] == rr.rtp
    assert exact["Summary", "variance", "value"] == rr.variance
    assert wb["Summary"]["B3"].value  # the game's title or name
    summary = {r[0]: (r[1], c) for r, c in zip(_sheet_rows(wb["Summary"])[1],
                                                 [wb["Summary"].cell(row=i + 3, column=2) for i in range(999)])}
    rtp_cell = summary["RTP"][1]
    assert rtp_cell.number_format.endswith("%")
    assert summary["bet"][0] == 10
    assert summary["cycle of strip set base"][0] == prod(ms.strips["base"].lengths)
    for name, data in ms.sources.items():
        assert summary[f"sha256 of {name}"][0] == hashlib.sha256(data).hexdigest()
    published = math_set / "published.toml"
    assert "published.toml" not in ms.sources   # not maths: listed beside the input files all the same
    assert summary["sha256 of published.toml"][0] == hashlib.sha256(published.read_bytes()).hexdigest()
    header, rows = _sheet_rows(wb["Combinations"])
    cycle = prod(ms.strips["base"].lengths)
    assert rows
    for row in rows:
        d = _by_header(header, row)
        p = an.base.oak_prob[d["symbol"]][d["OAK"] - 1]
        assert d["hits per cycle"] == p * cycle and isinstance(d["hits per cycle"], int)
        assert exact["Combinations", f"{d['symbol']} {d['OAK']}", "probability"] == p
    header, rows = _sheet_rows(wb["Features"])
    for row in rows:
        d = _by_header(header, row)
        n = d["FS count"]
        assert exact["Features", str(n), "probability"] == an.base.by_scatter.prob[n]
        assert exact["Features", str(n), "feature mean win"] == rr.features[n].mean
        assert d["initial free spins"] == initial_spins(ms.model, n)
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
        assert d["weight"] == w[sym.values.index(d["value"])]
    header, rows = _sheet_rows(wb["Levels"])
    assert [exact["Levels", str(r[0]), "mean win"] for r in rows] == [pa.mean for pa in an.levels]
    header, rows = _sheet_rows(wb["Compliance"])
    assert {_by_header(header, r)["jurisdiction"] for r in rows} >= {"gli-11", "au-nz"}


def test_workbook_figures_equal_the_json_report(math_set, tmp_path, capsys):
    """Round trip: the Summary's exact figures are the JSON report's."""
    out = tmp_path / "par.xlsx"
    assert main(["export", "--set", str(math_set), "--xlsx", str(out)]) == 0
    capsys.readouterr()
    assert main(["--set", str(math_set), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    wb = openpyxl.load_workbook(out)
    exact = {(r[0], r[2]): Fraction(r[4]) for r in list(wb["Exact"].iter_rows(values_only=True))[2:]
             if r[0] == "Summary"}
    assert exact["Summary", "RTP"] == Fraction(rep["rtp"])
    assert exact["Summary", "mean win"] == Fraction(rep["mean_win"])
    assert exact["Summary", "variance"] == Fraction(rep["variance"])
    assert exact["Summary", "hit frequency of the base spin"] == Fraction(rep["hit_frequency_base"])
    assert exact["Summary", "RTP free spins"] == Fraction(rep["components"]["free_spins"]) / rep["bet"]


def test_a_game_without_fish_or_free_spins_leaves_those_sheets_out(tmp_path, capsys):
    from generators import rare_set
    d = rare_set(tmp_path / "s", 12)
    out = tmp_path / "par.xlsx"
    assert main(["export", "--set", str(d), "--xlsx", str(out)]) == 0
    names = openpyxl.load_workbook(out).sheetnames
    assert "Fish weights" not in names and "Features" not in names and "Levels" not in names
    assert {"Summary", "Paytable", "Combinations", "Compliance", "Strips base", "Exact"} <= set(names)


def test_csv_tables_round_trip(math_set, tmp_path, capsys):
    out = tmp_path / "tables"
    assert main(["export", "--set", str(math_set), "--csv", str(out)]) == 0
    ms = load_math_set(str(math_set))
    with open(out / "summary.csv", newline="") as f:
        meta = {r[0]: r[1] for r in csv.reader(f)}
    rep = checked_sheet(ms)
    sheets = par_sheets(rep, ms, checks=comply(ms, load_rules()),
                        meta={"version": meta["tool version"], "date": meta["date"]})
    assert {f"{sh.slug}.csv" for sh in sheets} == {p.name for p in out.iterdir()}
    for sh in sheets:
        with open(out / f"{sh.slug}.csv", newline="") as f:
            rows = list(csv.reader(f))
        assert tuple(rows[0]) == sh.csv_header and len(rows) == len(sh.rows) + 1
        assert [h.split(" [")[0] for h in rows[0]] == list(sh.header)
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
    # nor is any place inside the installed package's bundled sets, whichever set is exported
    for target in (bundled_path("wheel_game") / "par.xlsx", bundled_path("rules_page").parent / "par.xlsx"):
        assert main(["export", "--set", str(math_set), "--xlsx", str(target)]) == 2
        assert "refusing to write into the installed package's bundled math sets" in _one_line(capsys)
        assert not target.exists()
    assert main(["export", "--set", str(math_set), "--csv", str(bundled_path("wheel_game") / "tables")]) == 2
    assert "bundled math sets" in _one_line(capsys) and not (bundled_path("wheel_game") / "tables").exists()


def test_the_win_distribution_sheets_hold_the_distributions_figures(tmp_path, capsys):
    """A small exact game: the range table and the max win in the workbook are the distribution's."""
    from exact.distribution import win_distribution
    from generators import TINY_BASE, TINY_BONUS, TINY_GAME
    from mathset_files import write_set
    d = write_set(tmp_path / "tiny", base=TINY_BASE, bonus=TINY_BONUS,
                  game=TINY_GAME.replace("weights.level2 = [1, 3]\n", ""))
    out = tmp_path / "par.xlsx"
    assert main(["export", "--set", str(d), "--xlsx", str(out), "--distribution"]) == 0
    wb = openpyxl.load_workbook(out)
    dist = win_distribution(load_math_set(str(d)))
    assert dist.round.is_exact
    exact = {(r[0], r[2], r[3]): Fraction(r[4]) for r in list(wb["Exact"].iter_rows(values_only=True))[2:]}
    ranges = dist.win_ranges()
    header, rows = _sheet_rows(wb["Win distribution"])
    assert len(rows) == len(ranges)
    for i, wr in enumerate(ranges):
        label = f"{rows[i][0]} {rows[i][1]}"
        assert exact["Win distribution", label, "probability"] == wr.probability
    assert sum(exact["Win distribution", f"{r[0]} {r[1]}", "probability"] for r in rows) == 1
    summary = {r[0]: r[1] for r in _sheet_rows(wb["Summary"])[1]}
    assert summary["max win of a round"] == dist.max_round_win
    assert exact["Summary", "max win probability", "value"] == dist.max_round_win_probability
    assert "Tail and percentiles" in wb.sheetnames
    header, rows = _sheet_rows(wb["Base spin win ranges"])
    base = dist.base_win_ranges()
    hits_col = next(h for h in header if h.startswith("hits per cycle"))
    for r, wr in zip(rows, base, strict=True):
        assert exact["Base spin win ranges", f"{r[0]} {r[1]}", "probability"] == wr.probability
        assert exact["Base spin win ranges", f"{r[0]} {r[1]}", hits_col] == wr.hits
    assert sum(wr.hits for wr in base) == dist.base_cycle


#: Starts of a cell a spreadsheet reads as a formula (OWASP CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def test_text_from_user_files_is_never_a_formula(tmp_path, capsys):
    """A title, symbol name, fact label or source starting with = + - @ (tab, CR) is text in both views:
    XLSX cells of type string with a quote prefix, CSV cells prefixed with one quote; numbers stay numbers."""
    import shutil
    from strips.loader import bundled_path
    src = tmp_path / "set"
    shutil.copytree(bundled_path("rules_page"), src)
    title = '=HYPERLINK("http://evil","x")+cmd|calc'
    game = (src / "game.toml").read_text()
    game = game.replace('title = "Rules-page game', 'title = "=HYPERLINK(\\"http://evil\\",\\"x\\")+cmd|calc" #')
    game = game.replace("[symbols.AUS5]", '[symbols."@AUS5"]').replace('"AUS5"', '"@AUS5"')
    (src / "game.toml").write_text(game)
    for f in ("base.csv", "bonus.csv"):
        (src / f).write_text((src / f).read_text().replace("AUS5", "@AUS5"))
    (src / "published.toml").write_text('[[facts]]\nfigure = "rtp"\nprinted = "96%"\nlabel = "-2+3"\n'
                                        'source = "+SUM(A1:A9)"\n')
    ms = load_math_set(str(src))
    assert ms.model.title == title
    out = tmp_path / "out"
    out.mkdir()
    assert main(["export", "--set", str(src), "--xlsx", str(out / "par.xlsx")]) == 0
    wb = openpyxl.load_workbook(out / "par.xlsx")
    guarded = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                assert c.data_type != "f", (ws.title, c.coordinate, c.value)
                if isinstance(c.value, str) and c.value.startswith(FORMULA_STARTS):
                    assert c.data_type == "s" and c.quotePrefix, (ws.title, c.coordinate, c.value)
                    guarded.add(c.value)
    assert {title, "@AUS5", "-2+3", "+SUM(A1:A9)"} <= guarded
    assert wb["Summary"]["B3"].value == title
    rtp_row = next(r for r in wb["Summary"].iter_rows() if r[0].value == "RTP")
    assert isinstance(rtp_row[1].value, float) and rtp_row[1].data_type == "n"   # numbers stay numeric

    assert main(["export", "--set", str(src), "--csv", str(out / "tables")]) == 0
    cells = {}
    for p in (out / "tables").iterdir():
        with open(p, newline="") as f:
            for r in csv.reader(f):
                for c in r:
                    cells[c] = p.name
    assert not [c for c in cells if c.startswith(FORMULA_STARTS)], cells
    assert cells["'" + title] == "summary.csv"
    assert {"'@AUS5", "'-2+3", "'+SUM(A1:A9)"} <= set(cells)
    with open(out / "tables" / "summary.csv", newline="") as f:
        rtp = {r[0]: r[1] for r in csv.reader(f)}["RTP"]
    assert float(rtp) == float(ms_rtp(ms))


def ms_rtp(ms):
    an = analyse(ms)
    return round_result(ms.model, an.base, an.levels).rtp
