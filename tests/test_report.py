"""``rtp`` / ``rtp report``: its JSON schema, its exact invariants, the
fingerprint, the exit codes, and the whole-round figures against brute force.

The brute-force oracle plays a tiny game (custom game.toml, 5 reels x 2 rows,
strips of 4-5 stops) literally: every base stop combination and FISH value
assignment through the rules-page evaluator, and, for each triggering FS
count, every sequence of free-spin outcomes played through the section 11
ladder rules (:func:`play_feature`; sequences that reach the same KEY counter
and the same level wins are merged, which only adds their probabilities).
It never calls the engine or the chain.  The report must match it exactly.

Source: rules page sections 2 (round win), 6-11 (spin win, trigger, ladder),
13 (2+ KEY).
"""
from __future__ import annotations

import io
import json
import re
from fractions import Fraction as F

import pytest

import exact as exact_module

from strips.model import FISH
from mathset_files import BUNDLED_GAME, copy_bundled_game, valid_columns, write_set
from strips.loader import load_math_set
from generators import TINY_BASE, TINY_BONUS, TINY_GAME, TINY_LEVEL2, TINY_TRIGGER, brute_force_round, run

EXACT = re.compile(r"^-?\d+(/\d+)?$")


def report_json(set_dir, *extra) -> dict:
    code, out, err = run(["--set", str(set_dir), "--json", *extra])
    assert (code, err) == (0, ""), err
    return json.loads(out)


def exact(text) -> F:
    """An exact JSON figure: "p/q" or "n", never a decimal or a float."""
    assert isinstance(text, str) and EXACT.match(text), text
    return F(text)


# ---------------------------------------------------------------------------
# schema and invariants, on a valid 100-stop set with the bundled game
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def valid_dir(tmp_path_factory):
    return write_set(tmp_path_factory.mktemp("valid"))


@pytest.fixture(scope="module")
def valid_report(valid_dir):
    return report_json(valid_dir)


def test_report_command_and_default_command_agree(valid_dir, valid_report):
    code, out, _ = run(["report", "--set", str(valid_dir), "--json"])
    assert code == 0 and json.loads(out) == valid_report


def test_json_schema(valid_dir, valid_report):
    r = valid_report
    for key in ("set", "fingerprint", "bet", "rtp", "rtp_percent", "mean_win", "variance", "sd_per_bet",
                "components", "free_spins_by_level", "trigger", "feature", "key_2plus"):
        assert key in r, key
    assert r["set"] == str(valid_dir)
    assert re.fullmatch(r"[0-9a-f]{64}", r["fingerprint"])
    assert r["bet"] == 10
    assert set(r["components"]) >= {"base_ways", "base_collect", "free_spins"}
    assert {k for k in r["free_spins_by_level"] if not k.endswith("_float")} == {"1", "2", "3", "4"}
    assert {k for k in r["trigger"] if not k.endswith("_float")} == {"3", "4", "5"}
    assert set(r["feature"]) == {"3", "4", "5"}
    for f in r["feature"].values():
        assert {"mean", "variance", "reach", "spins"} <= set(f)
        assert {k for k in f["reach"] if not k.endswith("_float")} == {"2", "3", "4"}
    assert set(r["key_2plus"]) >= {"base", "free"}
    assert isinstance(r["sd_per_bet"], float)


def exact_figures(r: dict):
    """Every exact figure of the JSON schema: (name, "p/q" text)."""
    yield from (("rtp", r["rtp"]), ("mean_win", r["mean_win"]), ("variance", r["variance"]))
    for group in ("components", "free_spins_by_level", "trigger", "key_2plus"):
        yield from ((f"{group}.{k}", v) for k, v in r[group].items() if not k.endswith("_float"))
    for n, f in r["feature"].items():
        yield from ((f"feature.{n}.{k}", f[k]) for k in ("mean", "variance", "spins"))
        yield from ((f"feature.{n}.reach.{k}", v) for k, v in f["reach"].items() if not k.endswith("_float"))


def test_every_exact_figure_is_a_fraction_string(valid_report):
    figures = dict(exact_figures(valid_report))
    assert len(figures) >= 3 + 3 + 4 + 3 + 2 + 3 * 6
    for name, text in figures.items():
        x = exact(text)
        assert x >= 0, name                          # credits, credits^2, probabilities, spins
        if name.startswith(("trigger.", "key_2plus.")) or ".reach." in name:
            assert x <= 1, name


def test_float_siblings_match_their_exact_figure(valid_report):
    r = valid_report
    for key in ("rtp", "mean_win", "variance"):
        assert r[key + "_float"] == pytest.approx(float(exact(r[key])), rel=1e-12)
    for k, v in r["components"].items():
        if not k.endswith("_float"):
            assert r["components"][k + "_float"] == pytest.approx(float(exact(v)), rel=1e-12)


def test_components_sum_to_mean_win(valid_report):
    r = valid_report
    c = r["components"]
    assert exact(c["base_ways"]) + exact(c["base_collect"]) + exact(c["free_spins"]) == exact(r["mean_win"])


def test_free_spins_by_level_sum_to_free_spins(valid_report):
    r = valid_report
    levels = [exact(v) for k, v in r["free_spins_by_level"].items() if not k.endswith("_float")]
    assert sum(levels) == exact(r["components"]["free_spins"])


def test_rtp_is_mean_win_per_bet(valid_report):
    r = valid_report
    assert exact(r["rtp"]) == exact(r["mean_win"]) / r["bet"]
    assert F(r["rtp_percent"]) == round(100 * exact(r["rtp"]), 6)          # default 6 digits, exact rounding


@pytest.mark.parametrize("digits", [0, 3, 12])
def test_digits_round_the_percent_exactly(valid_dir, valid_report, digits):
    r = report_json(valid_dir, "--digits", str(digits))
    assert F(r["rtp_percent"]) == round(100 * exact(valid_report["rtp"]), digits)
    assert len(r["rtp_percent"].partition(".")[2]) == digits


def test_digits_round_the_percentages_of_the_rtp_split_not_its_credits():
    """--digits sets the places of percentages: the RTP split's RTP column takes it, its credits column and the
    mean win keep 6 places (each the exact component rounded)."""
    from exact.formatting import decimal_text, percent
    from exact.report import report_text
    from exact.rules import component_rows
    sheet = exact_module.par_sheet(exact_module.load_math_set("rules_page"))
    lines = report_text(sheet, digits=0).splitlines()
    for key, words, credits in component_rows(sheet) + [("total", "total", sheet.mean_win)]:
        row = next(line for line in lines if line.startswith(words + "  "))
        assert row.split()[-2:] == [decimal_text(credits, 6), percent(credits / sheet.bet, 0)], key
    assert f"mean win     {decimal_text(sheet.mean_win, 6)} credits per round" in lines


def test_sd_per_bet_is_the_root_of_the_exact_variance(valid_report):
    r = valid_report
    assert r["sd_per_bet"] == pytest.approx(float(exact(r["variance"])) ** 0.5 / r["bet"], rel=1e-12)


def test_feature_reach_falls_and_spins_add_up(valid_report):
    # reach(2) >= reach(3) >= reach(4); E[spins] >= initial spins + 8 x P(reach 2) ...
    initial = {"3": 10, "4": 15, "5": 20}
    for n, f in valid_report["feature"].items():
        reach = [exact(f["reach"][k]) for k in ("2", "3", "4")]
        assert 1 >= reach[0] >= reach[1] >= reach[2] >= 0
        assert exact(f["spins"]) == initial[n] + 8 * sum(reach)                # section 11: 8 spins per level
        assert exact(f["variance"]) >= 0


@pytest.mark.parametrize("digits", ["51", "-1"])
def test_digits_out_of_range_exit_2(valid_dir, digits):
    code, out, err = run(["--set", str(valid_dir), "--digits", digits])
    assert code == 2 and out == "" and err.count("\n") == 1 and "--digits" in err and "Traceback" not in err


def test_text_report_shows_the_exact_rtp(valid_dir, valid_report):
    code, out, err = run(["--set", str(valid_dir)])
    assert (code, err) == (0, "")
    assert valid_report["fingerprint"] in out
    assert f"{valid_report['rtp_percent']}%" in out


def test_long_ladder_report_prints_huge_fractions_by_their_digit_counts(tmp_path):
    # a level of 500 spins makes the exact variance a fraction past Python's 4300-digit int-to-str limit:
    # it is shown by its digit counts (never converted to text), the other figures in full
    write_set(tmp_path, game=BUNDLED_GAME.read_text().replace("spins = 8", "spins = 500", 1))
    code, out, err = run(["--set", str(tmp_path), "--json"])
    assert (code, err) == (0, "")
    r = json.loads(out)
    assert re.fullmatch(r"\(fraction of [\d,]+/[\d,]+ digits\)", r["variance"])
    assert min(int(x.replace(",", "")) for x in re.findall(r"[\d,]+", r["variance"])) > 4000
    mean, rtp = exact(r["mean_win"]), exact(r["rtp"])
    assert rtp == mean / r["bet"] > 0
    assert run(["--set", str(tmp_path)])[0] == 0                   # the text view too


# ---------------------------------------------------------------------------
# fingerprint
# ---------------------------------------------------------------------------
def test_fingerprint_ignores_game_file_comments_and_layout(tmp_path, valid_report):
    game = copy_bundled_game(tmp_path / "commented")
    text = game.read_text()
    game.write_text("# audit copy, comments only\n\n" + text.replace("bet = 10", "bet   =   10   # credits", 1)
                    + "\n# trailing comment\n")
    write_set(tmp_path / "commented")
    assert report_json(tmp_path / "commented")["fingerprint"] == valid_report["fingerprint"]


def test_fingerprint_ignores_hook_alias(tmp_path, valid_report):
    cols = valid_columns("base")
    cols[0] = ["HOOK" if x == "KEY" else x for x in cols[0]]
    write_set(tmp_path, base=cols)
    assert report_json(tmp_path)["fingerprint"] == valid_report["fingerprint"]


@pytest.mark.parametrize("strip_set, reel, position, symbol", [("base", 2, 33, "PIC1"), ("bonus", 4, 99, "AUS5")])
def test_fingerprint_changes_with_one_strip_cell(tmp_path, valid_report, strip_set, reel, position, symbol):
    cols = valid_columns(strip_set)
    assert cols[reel][position] != symbol
    cols[reel][position] = symbol
    write_set(tmp_path, **{strip_set: cols})
    assert report_json(tmp_path)["fingerprint"] != valid_report["fingerprint"]


def test_fingerprint_changes_with_one_game_number(tmp_path, valid_report):
    game = BUNDLED_GAME.read_text().replace("weights.base = [889, 111]", "weights.base = [888, 112]", 1)
    write_set(tmp_path, game=game)
    assert report_json(tmp_path)["fingerprint"] != valid_report["fingerprint"]


# ---------------------------------------------------------------------------
# --check: exit 1 when a published fact fails
# ---------------------------------------------------------------------------
def test_check_exits_1_when_a_trigger_probability_breaks(tmp_path):
    cols = valid_columns("base")
    cols[0] = ["FISH1" if x == "FS" else x for x in cols[0]]      # no FS on reel 1: fewer triggers
    write_set(tmp_path, base=cols)
    r = report_json(tmp_path)
    assert r["published"]["figures"]["trigger.3"] == {"printed": ["0.005558", "1 in 180"], "pass": False}
    assert "P(3 FS symbols) per base spin" in r["published"]["facts"]["failed"]
    assert run(["--set", str(tmp_path), "--check"])[0] == 1
    assert run(["--set", str(tmp_path), "--json", "--check"])[0] == 1
    assert run(["--set", str(tmp_path)])[0] == 0                      # without --check: the report only


def test_check_exits_0_on_the_bundled_set():
    code, out, err = run(["--check"])
    assert (code, err) == (0, "") and "PAR report" in out


@pytest.fixture(scope="module")
def tiny_dirs(tmp_path_factory):
    """levels -> directory of the tiny set with a 1- or 2-level ladder (same strips, same symbols)."""
    out = {}
    for levels in (1, 2):
        out[levels] = write_set(tmp_path_factory.mktemp(f"tiny{levels}"), base=TINY_BASE, bonus=TINY_BONUS,
                                game=(TINY_GAME if levels == 2 else TINY_GAME.replace("weights.level2 = [1, 3]\n", ""))
                                + (TINY_LEVEL2 if levels == 2 else ""))
    return out


@pytest.fixture(scope="module", params=[2, 1], ids=["two levels", "one level"])
def tiny(request, tiny_dirs):
    levels = request.param
    model = load_math_set(str(tiny_dirs[levels])).model
    return report_json(tiny_dirs[levels]), brute_force_round(model, levels), levels


def test_tiny_round_mean_and_variance_equal_brute_force(tiny):
    rep, bf, _ = tiny
    assert exact(rep["mean_win"]) == bf["mean"]
    assert exact(rep["variance"]) == bf["variance"]
    assert exact(rep["rtp"]) == bf["mean"] / 10
    assert bf["free"] > 0 and bf["collect"] > 0 and bf["ways"] > 0   # every component is exercised


def test_tiny_rtp_split_equals_brute_force(tiny):
    rep, bf, levels = tiny
    c = rep["components"]
    assert (exact(c["base_ways"]), exact(c["base_collect"]), exact(c["free_spins"])) == \
        (bf["ways"], bf["collect"], bf["free"])
    assert [exact(rep["free_spins_by_level"][str(i + 1)]) for i in range(levels)] == bf["by_level"]


def test_tiny_trigger_and_key_figures_equal_brute_force(tiny):
    rep, bf, _ = tiny
    trig = {int(k): exact(v) for k, v in rep["trigger"].items() if not k.endswith("_float")}
    assert trig == {n: p for n, p in bf["p_fs"].items() if n >= min(TINY_TRIGGER)}
    assert {k: exact(v) for k, v in rep["key_2plus"].items() if not k.endswith("_float")} == bf["key2"]


def test_tiny_features_equal_brute_force(tiny):
    rep, bf, levels = tiny
    for n, f in rep["feature"].items():
        ref = bf["features"][bf["initial"](int(n))]
        assert exact(f["mean"]) == ref["mean"]
        assert exact(f["variance"]) == ref["second"] - ref["mean"] ** 2
        assert exact(f["spins"]) == ref["spins"]
        assert {int(k): exact(v) for k, v in f["reach"].items() if not k.endswith("_float")} == \
            {i + 1: ref["reach"][i] for i in range(1, levels)}


def test_the_report_points_at_no_command_that_refuses_the_game(capsys, monkeypatch):
    """hold_and_win: the distribution and comply refuse it, so the report says why, without telling the user
    to run them (it said "run rtp distribution" and "rtp comply checks it")."""
    from exact.cli import main
    monkeypatch.delenv("RTP_ROUND_BUDGET", raising=False)     # the report's own choice, not the tests' 0 s
    assert main(["--set", "hold_and_win"]) == 0
    text = capsys.readouterr().out
    assert "hit frequency and max win of the round: not computed (the win distribution refuses this game" in text
    assert "run rtp distribution" not in text and "rtp comply checks it" not in text
    assert main(["--set", "hold_and_win", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "compliance_top_award" not in out and not out["round_figures"]["reason"].startswith("not computed, run")
