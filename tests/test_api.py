"""The public Python API (``exact.load_math_set``, ``exact.math_set``, ``exact.par_sheet``), the
fingerprint of the parsed maths, and the one RoundResult (base scatter pays included).

Oracles: the JSON report of the CLI (figures key by key), the loader (same maths from files in
another layout), and the brute-force enumeration through the literal evaluator on a tiny
scatter-pay game (every component of the round)."""
from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
import tomllib
from fractions import Fraction as F
from pathlib import Path

import pytest

import exact
from exact.par import NOT_FIGURES
from exact.report import report_json
from exact.rules import scatter_pay
from markov.round import round_result
from oracle import brute_force
from strips.builder import game_toml, strips_csv
from strips.errors import MathSetError
from strips.fingerprint import fingerprint
from strips.loader import bundled_path
from mathset_files import write_set
from generators import (
    ALT, BASE, BONUS, MODES_GAME, TINY_BASE, TINY_BONUS, TINY_GAME, TINY_LEVEL2, brute_force_round, run)
from mathset_files import csv_text

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bundled():
    return exact.load_math_set("rules_page")


@pytest.fixture(scope="module")
def bundled_sheet(bundled):
    return exact.par_sheet(bundled)


def reels(ms, strip_set):
    return [list(r) for r in ms.strips[strip_set].reels]


def bundled_game_dict() -> dict:
    return tomllib.loads((bundled_path("rules_page") / "game.toml").read_text())


# ---------------------------------------------------------------------------
# the fingerprint of the parsed maths
# ---------------------------------------------------------------------------
def test_same_maths_in_memory_from_a_dict_has_the_files_fingerprint(bundled):
    ms = exact.math_set(bundled_game_dict(), {"base": reels(bundled, "base"), "bonus": reels(bundled, "bonus")})
    assert ms.model.symbols == bundled.model.symbols and ms.strips == bundled.strips
    assert fingerprint(ms) == fingerprint(bundled)


def test_one_strip_symbol_changed_through_math_set_changes_fingerprint_and_rtp(bundled, bundled_sheet):
    base = reels(bundled, "base")
    pos = base[2].index("PIC1")
    base[2][pos] = "AUS5"
    ms = exact.math_set(bundled.model, {"base": base, "bonus": reels(bundled, "bonus")})
    p = exact.par_sheet(ms)
    assert p.fingerprint != bundled_sheet.fingerprint
    assert p.rtp != bundled_sheet.rtp
    # and changing it back gives the original maths again
    base[2][pos] = "PIC1"
    back = exact.math_set(bundled_game_dict(), {"base": base, "bonus": reels(bundled, "bonus")})
    assert fingerprint(back) == bundled_sheet.fingerprint


def test_one_game_number_changed_through_math_set_changes_the_fingerprint(bundled):
    game = bundled_game_dict()
    fish = next(k for k, v in game["symbols"].items() if v["class"] == "fish")
    game["symbols"][fish]["weights"]["base"][0] += 1
    ms = exact.math_set(game, {"base": reels(bundled, "base"), "bonus": reels(bundled, "bonus")})
    assert fingerprint(ms) != fingerprint(bundled)


def test_differently_formatted_files_give_the_same_fingerprint(tmp_path, bundled):
    """Reordered tables and symbols, comments, another title and name, other strip file names."""
    game = bundled_game_dict()
    game["game"] = dict(reversed(list(game["game"].items())), title="Another title", name="renamed")
    game["symbols"] = dict(reversed(list(game["symbols"].items())))
    game["strips"] = {"bonus": "reels_bonus.csv", "base": "reels_base.csv"}
    text = game_toml(dict(reversed(list(game.items()))))
    text = "# an audit copy\n" + text.replace("\n[", "\n# a comment line\n[").replace(" = ", "   =   ")
    d = tmp_path / "other"
    d.mkdir()
    (d / "game.toml").write_text(text)
    for name in ("base", "bonus"):
        (d / f"reels_{name}.csv").write_text(strips_csv(reels(bundled, name)).replace("\n", "\r\n"))
    other = exact.load_math_set(str(d))
    assert other.model.title == "Another title" and other.model.symbols != bundled.model.symbols  # order differs
    assert fingerprint(other) == fingerprint(bundled)
    assert json.loads(run(["--set", str(d), "--json"])[1])["fingerprint"] == fingerprint(bundled)


# ---------------------------------------------------------------------------
# exact.math_set validates as the loader does
# ---------------------------------------------------------------------------
def test_math_set_errors_name_a_pseudo_file_row_and_column(bundled):
    base, bonus = reels(bundled, "base"), reels(bundled, "bonus")
    base[3][7] = "NOPE"
    with pytest.raises(MathSetError) as e:
        exact.math_set(bundled.model, {"base": base, "bonus": bonus})
    assert (e.value.file, e.value.row, e.value.column) == ("<strips.base>", 9, 4)
    assert "unknown symbol 'NOPE'" in e.value.message
    with pytest.raises(MathSetError, match=r"^<strips.bonus>:1:1: no reels given"):
        exact.math_set(bundled.model, {"base": reels(bundled, "base")})
    game = bundled_game_dict()
    game["game"]["rows"] = 0
    with pytest.raises(MathSetError) as e:
        exact.math_set(game, {"base": reels(bundled, "base"), "bonus": bonus})
    assert e.value.file == "<game>" and e.value.row >= 1 and e.value.column >= 1
    assert "game.rows: must be at least 1" in e.value.message
    line = game_toml(game).splitlines()[e.value.row - 1]
    assert line.startswith("rows")                      # the row points at the key in the rendered text


def test_math_set_keeps_the_loaders_findings(bundled):
    short = reels(bundled, "base")
    short[0] = short[0][:50]
    ms = exact.math_set(bundled.model, {"base": short, "bonus": reels(bundled, "bonus")})
    assert any("reel 1 has 50 stops" in str(f) and str(f).startswith("<strips.base>") for f in ms.findings)


# ---------------------------------------------------------------------------
# ParSheet
# ---------------------------------------------------------------------------
def flat_json_figures(doc: dict) -> dict:
    """The exact figures of a JSON report by dotted key, read from the JSON itself (the oracle)."""
    want = {}

    def walk(node, prefix):
        for k, v in node.items():
            if (not prefix and k in NOT_FIGURES) or k.endswith("_float") or k == "warning":
                continue
            if isinstance(v, dict):
                walk(v, f"{prefix}{k}.")
            else:
                want[prefix + k] = F(v)
    walk(doc, "")
    return want


def test_figures_equal_the_json_reports_exact_figures_key_by_key(bundled_sheet):
    code, out, err = run(["--json"])
    assert code == 0, err
    want = flat_json_figures(json.loads(out))
    got = bundled_sheet.figures()
    assert list(got) == list(want) and got == want
    assert all(type(v) is F for v in got.values())
    assert report_json(bundled_sheet)["rtp"] == f"{got['rtp'].numerator}/{got['rtp'].denominator}"


def test_attributes_are_the_exact_figures(bundled_sheet):
    p, f = bundled_sheet, bundled_sheet.figures()
    assert (p.rtp, p.variance, p.hit_frequency_base, p.mean_win) == (f["rtp"], f["variance"],
                                                                     f["hit_frequency_base"], f["mean_win"])
    assert all(isinstance(x, F) for x in (p.rtp, p.variance, p.hit_frequency_base, p.q, p.trigger_any))
    assert p.trigger["3"] == f["trigger.3"] and p.components["base_ways"] == f["components.base_ways"]


def test_repr_is_short_and_html_is_a_table(bundled_sheet):
    text = repr(bundled_sheet)
    assert len(text) < 2000 and text.startswith("ParSheet(") and bundled_sheet.fingerprint[:16] in text
    assert "Fraction(" not in text
    page = bundled_sheet._repr_html_()
    assert page.startswith("<div>") and "<table class='rtp'>" in page and "rules_page" in page and len(page) < 100000
    assert "array(" not in page and "Fraction(" not in page


def test_one_liner_of_the_readme_runs_in_a_fresh_interpreter():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", "import exact; p = exact.par_sheet(exact.load_math_set('rules_page'));"
                          " print(p.rtp, p.fingerprint)"], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    rtp, fp = out.stdout.split()
    assert F(rtp) == exact.par_sheet(exact.load_math_set("rules_page")).rtp and len(fp) == 64


def test_public_names():
    assert set(exact.__all__) >= {"load_math_set", "math_set", "par_sheet", "ParSheet", "fingerprint"}
    assert all(hasattr(exact, n) for n in exact.__all__)


# ---------------------------------------------------------------------------
# RoundResult: every component, base scatter pays included, against brute force
# ---------------------------------------------------------------------------
SCATTER_PAYS = [0, 2, 5, 20, 50]


@pytest.fixture(scope="module", params=[1, 2], ids=["one level", "two levels"])
def scatter_game(request):
    levels = request.param
    text = TINY_GAME + (TINY_LEVEL2 if levels == 2 else "")
    if levels == 1:
        text = text.replace("weights.level2 = [1, 3]\n", "")
    game = tomllib.loads(text)
    game["symbols"]["FS"]["pays"] = SCATTER_PAYS
    ms = exact.math_set(game, {"base": TINY_BASE, "bonus": TINY_BONUS})
    return ms, levels


def test_round_split_sums_to_the_rtp_on_a_scatter_pay_game(scatter_game):
    ms, levels = scatter_game
    p = exact.par_sheet(ms)
    r = p.round
    assert r.base_scatter > 0
    assert sum(r.rtp_split.values()) == r.rtp == p.rtp
    assert sum(r.components.values()) == r.mean
    assert sum(r.rtp_by_level.values()) == r.rtp_split["free spins"]
    # brute force: the base spin through the literal evaluator, the round through the literal ladder
    base = brute_force(ms, ms.model.base_phase)
    ways = sum(sum(v) for v in base.ways_by_symbol.values())
    base_mean = sum(base.win_scatter.values())
    bf = brute_force_round(ms.model, levels)
    assert (r.base_ways, r.base_collect) == (ways, base.collect) == (bf["ways"], bf["collect"])
    assert r.base_scatter == base_mean - ways - base.collect
    assert r.base_scatter == sum(base.prob_scatter[n] * scatter_pay(ms.model.trigger_symbol.pays, n) for n in base.prob_scatter)
    assert r.free_spins == bf["mean"] - base_mean
    assert (r.mean, r.variance) == (bf["mean"], bf["variance"])
    assert list(r.free_spins_by_level) == bf["by_level"]
    # the report, the JSON and the PAR sheet read this one RoundResult
    assert p.components["base_scatter"] == r.base_scatter
    assert r.base_feature_covariance == r.base_feature - base_mean * r.free_spins


def test_round_result_of_the_sheet_is_the_markov_round(scatter_game):
    ms, _ = scatter_game
    p = exact.par_sheet(ms)
    assert p.round == round_result(ms.model, p.analysis.base, p.analysis.levels)


# ---------------------------------------------------------------------------
# a game with bet modes, a respin, a prize wheel and buys: the same API
# ---------------------------------------------------------------------------
def test_bonus_game_figures_split_and_in_memory_build(tmp_path):
    game = tomllib.loads(MODES_GAME)     # the round rules' test game (modes, respin, wheel, buy)
    ms = exact.math_set(game, {"base": BASE, "bonus": BONUS, Path(next(
        f for m in game["modes"].values() for f in m.get("strips", {}).values())).stem: ALT})
    p = exact.par_sheet(ms)
    for m in p.modes.values():
        assert sum(m.round.components.values()) == m.round.mean
        assert sum(m.round.rtp_split.values()) == m.rtp
    assert p.wheel and p.modes_figures and "wheel" in p.round.components
    d = write_set(tmp_path / "wheel", base=BASE, bonus=BONUS, game=MODES_GAME)
    (d / "alt.csv").write_text(csv_text(ALT))
    code, out, err = run(["--set", str(d), "--json"])
    assert code == 0, err
    assert p.figures() == flat_json_figures(json.loads(out))
    assert fingerprint(exact.load_math_set(str(d))) == p.fingerprint


def test_readme_notebook_session_runs_as_shown():
    """The README's "Python API" session, run as a doctest (a changed figure or fingerprint fails here:
    re-run the session and update the README)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Python API"):]
    section = section[:section.index("\n## ", 1)]
    blocks = "\n".join(re.findall(r"```python\n(.*?)```", section, re.S))
    assert blocks.count(">>>") >= 8
    test = doctest.DocTestParser().get_doctest(blocks, {}, "README Python API", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, "README's Python API session differs from a fresh run"


def test_round_result_runs_once_per_report_and_once_per_set_in_diff(tmp_path, monkeypatch):
    """The report, its JSON and the diff read the ParSheet's one RoundResult (no recomputation)."""
    import markov.round
    original, calls = markov.round.round_result, []

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)
    for module in list(sys.modules.values()):
        if getattr(module, "round_result", None) is original:
            monkeypatch.setattr(module, "round_result", counted)
    game = tomllib.loads(TINY_GAME + TINY_LEVEL2)
    game["symbols"]["FS"]["pays"] = SCATTER_PAYS
    d = tmp_path / "scatter"
    d.mkdir()
    (d / "game.toml").write_text(game_toml(game))
    for name, reels_ in (("base", TINY_BASE), ("bonus", TINY_BONUS)):
        (d / f"{name}.csv").write_text(strips_csv(reels_))
    for argv, want in ((["--set", str(d), "--json"], 1), (["--set", str(d)], 1), (["diff", str(d), str(d)], 2)):
        calls.clear()
        code, out, err = run(argv)
        assert code == 0, err
        assert len(calls) == want, argv


# ---------------------------------------------------------------------------
# start-up: ``import exact`` is light, and still registers every rule with the loader
# ---------------------------------------------------------------------------
def _fresh(code: str) -> str:
    """Run ``code`` in a new interpreter (nothing imported yet) and return its stdout."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=Path(exact.__file__).parents[1])
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_import_exact_loads_neither_numpy_nor_the_rules_until_used():
    assert _fresh("import sys, exact, exact.cli\n"
                  "print(sorted(m for m in ('numpy', 'exact.rules', 'exact.par', 'networkx') if m in sys.modules))") \
        == "[]"


@pytest.mark.parametrize("loader", ["exact.load_math_set", "strips.loader.load_math_set"])
def test_a_set_with_rules_of_rule_modules_loads_in_a_fresh_interpreter(loader):
    # the wheel game's [gamble_wheel] and the hold-and-win table are keys of rule modules, registered on first parse
    code = (f"import exact, strips.loader\n"
            f"for name in ('wheel_game', 'hold_and_win'):\n"
            f"    print({loader}(name).model.bet)")
    assert _fresh(code).split() == [str(exact.load_math_set(n).model.bet) for n in ("wheel_game", "hold_and_win")]


def test_public_names_and_submodules_resolve_on_first_use():
    assert _fresh("import exact\nprint(exact.sensitivity.sensitivity.__name__, exact.MathSet.__name__, "
                  "exact.formatting.percent(exact.par_sheet(exact.load_math_set()).rtp, 6))") \
        == f"sensitivity MathSet {exact.formatting.percent(exact.par_sheet(exact.load_math_set()).rtp, 6)}"
    with pytest.raises(AttributeError, match="no attribute 'no_such_part'"):
        exact.no_such_part
