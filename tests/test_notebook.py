"""The notebook API: ParSheet.tables()/table(), WinDistribution.tables()/to_frame()/plot(), the HTML and
short reprs, percentiles in bets, progress after 2 s and a quiet Ctrl-C, pandas only when asked.

Oracles: the sheet's own exact attributes (each table cell is the figure it shows, its ``_float`` its
float), the definition of a percentile applied literally to the exact round distribution (itself equal
to the brute-force enumeration in test_distribution), and the exact mean of the round.
"""
from __future__ import annotations

import builtins
import io
import subprocess
import sys
import time
from fractions import Fraction

import matplotlib
import pytest

matplotlib.use("Agg")

import exact
from exact import progress
from exact.tables import cell_text
from oracle import small_feature_set



@pytest.fixture(scope="module")
def pd():
    return pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def small():
    ms = small_feature_set()
    return ms, exact.par_sheet(ms), exact.win_distribution(ms, progress=False)


@pytest.fixture(scope="module")
def bundled():
    return exact.par_sheet(exact.load_math_set("rules_page"))


def test_every_report_table_is_a_frame_with_exact_and_float_columns(bundled, pd):
    tables = bundled.tables()
    assert {"summary", "rtp_split", "symbols", "trigger", "key_2plus", "features", "levels", "compliance"} <= set(tables)
    for name, df in tables.items():
        assert isinstance(df, pd.DataFrame) and len(df), name
        for col in df.columns:
            if col.endswith("_float"):
                exact_col = df[col[:-len("_float")]]
                for x, f in zip(exact_col, df[col]):
                    if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
                        assert f == float(x), (name, col)
    sym = tables["symbols"]
    for _, row in sym.iterrows():
        fig = bundled.symbols[row["symbol"]][str(row["oak"])]
        assert row["probability"] == fig["probability"] and isinstance(row["probability"], Fraction)
        assert row["rtp"] == fig["rtp"] and row["one_in"] == float(1 / fig["probability"])
    assert len(sym) == sum(len(v) for v in bundled.symbols.values())
    split = tables["rtp_split"]
    assert split["rtp"].iloc[-1] == bundled.rtp and split["credits_per_round"].iloc[-1] == bundled.mean_win
    trig = bundled.table("trigger")
    assert list(trig["probability"][:-1]) == list(bundled.trigger.values())
    assert trig["probability"].iloc[-1] == bundled.trigger_any
    feats = bundled.table("features")
    assert list(feats["mean_win"]) == [f["mean"] for f in bundled.feature.values()]


def test_table_of_an_unknown_name_lists_the_names(bundled, pd):
    with pytest.raises(KeyError, match="tables: summary, rtp_split"):
        bundled.table("no_such_table")


def test_the_api_sheet_carries_the_published_check_columns(pd):
    ms = exact.load_math_set("rules_page")
    trig = exact.par_sheet(ms).table("trigger")     # checked as rtp report checks it
    assert list(trig["check"][:3]) == ["PASS"] * 3 and trig["published"].iloc[0] == "0.005558 / 1 in 180"
    assert "published" not in exact.par.par_sheet(ms).table("trigger")     # the unchecked sheet of exact/par.py


def test_html_has_the_report_sections_and_the_repr_is_short(bundled):
    page = bundled._repr_html_()
    for title in ("RTP split", "Base game ways by symbol", "Free spins trigger", "Two or more KEY",
                  "Free spins feature by trigger", "Per free spin", "Compliance summary"):
        assert title in page, title
    assert "(fraction of" not in page and "digits" not in page and "95.999669%" in page and "1 in 179.91" in page
    assert len(repr(bundled)) < 600 and "digits" not in repr(bundled)


def test_distribution_frame_is_the_exact_round(small, pd):
    ms, sheet, wd = small
    assert wd.round.is_exact
    df = wd.to_frame()
    assert sum(df["probability"]) == 1
    assert sum(w * p for w, p in zip(df["win_credits"], df["probability"])) == sheet.mean_win
    assert list(df["win_bets"]) == [Fraction(w, wd.bet) for w in df["win_credits"]]
    assert df["at_least_float"].iloc[0] == pytest.approx(1.0)
    assert list(df["probability_float"]) == [float(p) for p in df["probability"]]
    base = wd.to_frame("base")
    assert sum(base["probability"]) == 1 and sum(w * p for w, p in zip(base["win_credits"], base["probability"])) \
        == wd.base.mean
    with pytest.raises(ValueError, match="round"):
        wd.to_frame("feature")


def test_percentiles_are_in_bets_with_credits_beside_by_the_definition(small):
    _, _, wd = small
    items = sorted(wd.round.exact.items())
    for q, x in wd.percentiles().items():
        acc, want = Fraction(0), None
        for w, p in items:
            acc += p
            if acc >= Fraction(q) / 100:
                want = w
                break
        assert x.credits == want and x.bets == Fraction(want, wd.bet) and x.certain
    t = wd.tables(frames=False)["percentiles"]
    assert [row[3] for row in t.rows[:5]] == [x.credits for x in wd.percentiles().values()]
    assert [row[2] for row in t.rows[:5]] == [x.bets for x in wd.percentiles().values()]


def test_distribution_tables_html_and_repr(small, pd):
    _, _, wd = small
    tables = wd.tables()
    assert {"win_ranges", "base_win_ranges", "tail", "percentiles", "max_wins"} == set(tables)
    ranges = tables["win_ranges"]
    assert sum(ranges["probability"]) == 1 and sum(ranges["rtp"]) * wd.bet == wd.round.mean
    page = wd._repr_html_()
    assert "Percentiles" in page and "Max win" in page and "array" not in page and len(page) < 20000
    assert len(repr(wd)) < 300 and "array" not in repr(wd) and "array" not in repr(wd.round)


def test_plot_survival_ranges_and_limits(small):
    _, _, wd = small
    ax = wd.plot()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(x.startswith("P(round win >= x)") for x in labels)
    assert any(x.startswith("P(base spin win >= x)") for x in labels)
    assert any(x.startswith("max round win") for x in labels) and "P(round win in range)" in labels
    shown = [float(r.probability) for r in wd.win_ranges()[1:] if float(r.probability) >= 1e-12]
    assert 1e-12 <= ax.get_ylim()[0] <= min(shown)
    assert any("P(no win)" in t.get_text() for t in ax.texts)
    # the survival curve is P(win >= x) at each positive win
    line = ax.get_lines()[0]
    items = sorted(wd.round.exact.items())
    x0 = line.get_xdata()[0]
    assert line.get_ydata()[0] == pytest.approx(float(sum(p for w, p in items if w / wd.bet >= x0)))


def test_core_works_without_pandas_and_says_how_to_install_it(small, monkeypatch):
    _, sheet, wd = small
    real = builtins.__import__

    def no_pandas(name, *a, **k):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("No module named 'pandas'")
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", no_pandas)
    assert "RTP split" in sheet._repr_html_() and "Percentiles" in wd._repr_html_()
    assert "symbols" in sheet.tables(frames=False)
    with pytest.raises(ImportError) as e:
        sheet.tables()
    assert str(e.value) == "pandas is needed for DataFrames: pip install 'slot-exact[notebook]' (or pip install pandas)"
    with pytest.raises(ImportError, match=r"slot-exact\[notebook\]"):
        wd.to_frame()


def test_the_package_imports_without_pandas():
    code = ("import sys; sys.modules['pandas'] = None; import exact, exact.tables, exact.plot, exact.notebook; "
            "p = exact.par_sheet(exact.load_math_set('rules_page')); print(len(p._repr_html_()) > 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_progress_line_after_the_delay_and_quiet_interrupt(capsys):
    with progress.Progress("demo run", show=True, delay=0.0) as p:
        p.stage("step one")
        time.sleep(3 * progress.TICK)
    err = capsys.readouterr().err
    assert "demo run" in err and "step one" in err
    with progress.Progress("quick", show=True, delay=5.0):
        pass
    assert capsys.readouterr().err == ""

    @progress.progress_of("long call")
    def interrupted():
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt, match="long call interrupted") as e:
        interrupted(progress=False)
    assert e.value.__suppress_context__


def test_progress_is_off_when_not_a_terminal_or_asked(monkeypatch):
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    assert not progress.enabled(None, io.StringIO())
    monkeypatch.setenv("RTP_PROGRESS", "0")
    assert not progress.enabled()
    assert progress.enabled(True) and not progress.enabled(False)


def test_cell_text_of_each_kind():
    assert cell_text(Fraction(6103672, 10 ** 15), "probability") == "6.10367e-09"
    assert cell_text(Fraction(1, 2 * 10 ** 4), "probability") == "5e-05"
    assert cell_text(Fraction(123456789, 10 ** 13), "probability") == "1.23457e-05"
    assert cell_text(Fraction(1, 3), "probability") == "0.333333"
    assert cell_text(Fraction(400), "odds") == "1 in 400.00"
    assert cell_text(0.25, "rtp") == "25.000000%" and cell_text(True, "bool") == "yes"


def test_the_docs_notebook_runs_every_call():
    """docs/notebook.ipynb, executed where nbclient (an optional tool) is installed; each call it shows is
    also tested directly above."""
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("ipykernel")
    pytest.importorskip("pandas")
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "docs" / "notebook.ipynb"
    nb = nbformat.read(path, as_version=4)
    source = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for call in ("par_sheet(", "_repr_html_()", ".tables()", ".table(", "win_distribution(", ".percentiles()",
                 ".to_frame()", '.to_frame("base")', ".plot(", "exact.par_sheet(bundled)"):
        assert call in source, call
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}},
                            ).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
