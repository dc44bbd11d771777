"""Grid games (``[grid]``): the loader through the plug-in point, the literal reading of the cascade
(wins, WILD creation and explosion, the path avalanche, the key) and ``rtp spin --cells``."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from exact import rules
from exact.cli import main
from exact.comply import load_rules
from exact.grid_chain import chain_figures
from exact.rules.grid import evaluate, find_wins, grid_config, grid_config_of, play_cascade, spiral
import exact
from exact.grid import grid_report
from strips.errors import MathSetError, UnsupportedRule
from strips.loader import load_math_set
from tests.gen_grid import grid_toml, write_grid

CFG = grid_config_of(3, 3, {"A": (0, 0, 20), "B": (0, 0, 10), "C": (0, 0, 5)}, key="K", free_spins=2)


def cells(text: str) -> tuple:
    return tuple(text.split())


def test_a_grid_game_loads_without_reels_rows_or_strips(tmp_path):
    ms = load_math_set(str(write_grid(tmp_path / "g")))
    cfg = grid_config(ms.model)
    assert (cfg.rows, cfg.columns, cfg.path, cfg.key, cfg.free_spins) == (3, 3, spiral(3, 3), "K", 2)
    assert ms.strips == {} and [r.name for r in rules.rules_of(ms.model)][-2:] == [
        "grid of independent cells", "the key to the path's end"]


def test_the_reel_strip_path_is_unchanged():
    assert grid_config(load_math_set("rules_page").model) is None


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


BAD = [   # (replace this, with that, the line the error names, words of the message)
    ("bet = 10", "bet = 10\nreels = 3", "reels = 3", "give no [game] reels"),
    ("bet = 10", "bet = 10\nrows = 3", "rows = 3", "give no [game] rows"),
    ("bet = 10", "bet = 0", "bet = 0", "at least 1"),
    ("[3, 1], [3, 2]", "[3, 1], [3, 1]", "path = ", "repeats entry 1"),
    ("[3, 1], [3, 2], ", "", "path = ", "misses the cell [3, 1]"),
    ("[3, 1], [3, 2]", "[4, 1], [3, 2]", "path = ", "row in 1..3"),
    ("rows = 3\n", "rows = 0\n", "rows = 0", "at least 1"),
    ('wild_only = "if_no_other_win"', 'wild_only = "always"', "wild_only", "unsupported rule"),
    ('wild_explodes = "orthogonal"', 'wild_explodes = "diagonal"', "wild_explodes", "unsupported rule"),
    ("pays = [0, 0, 20]", "pays = [0, 20]", "pays = [0, 20]", "one per run length 1..3"),
    ("pays = [0, 0, 20]", "pays = [0, 0, -1]", "pays = [0, 0, -1]", "negative"),
    ('class = "wild"', 'class = "scatter"', 'class = "scatter"', "unsupported rule: class 'scatter'"),
    ("weights.base = { C = 1,", "weights.base = { W = 1, C = 1,", "weights.base", "no WILD is drawn"),
    ("weights.base = { C = 1,", "weights.base = { K = 1, C = 1,", "weights.base", "never drawn"),
    ("weights.base = { C = 1,", "weights.base = { D = 1, C = 1,", "weights.base", "unknown pay symbol"),
    ("weights.base = { C = 1, B = 2, A = 3 }", "weights.base = { C = 0, B = 0, A = 0 }", "weights.base",
     "sum to zero"),
    ("weights.base = { C = 1,", "weights.base = { C = -1,", "weights.base", "integer weight >= 0"),
    ('weights = "free"', 'weights = "other"', 'weights = "other"', "no weight table 'other'"),
    ("spins = 2", "spins = 0", "spins = 0", "at least 1"),
    ('start = "entry"', 'start = "end"', 'start = "end"', "unsupported rule"),
    ('symbol = "K"', 'symbol = "A"', 'symbol = "A"', "is a symbol of [symbols]"),
    ("[cells]", "[strips]\nbase = \"base.csv\"\n\n[cells]", "[strips]", "unsupported rule: table 'strips'"),
    ("spins = 2", "spins = 2\nretrigger = { 3 = 2 }", "retrigger", "unsupported rule: key 'retrigger'"),
]


@pytest.mark.parametrize("old,new,where,words", BAD, ids=[b[3] for b in BAD])
def test_each_malformed_key_is_refused_with_file_row_and_column(tmp_path, old, new, words, where):
    text = grid_toml()
    assert old in text
    bad = text.replace(old, new, 1)
    d = tmp_path / "g"
    d.mkdir()
    (d / "game.toml").write_text(bad, encoding="utf-8")
    with pytest.raises(MathSetError) as e:
        load_math_set(str(d))
    assert words in str(e.value)
    assert e.value.row == _line_of(bad, where), str(e.value)
    assert e.value.column >= 1 and str(e.value).startswith(f"{d / 'game.toml'}:{e.value.row}:")


def test_free_spins_need_the_key(tmp_path):
    text = grid_toml().replace('[key]\nsymbol = "K"\nstart = "entry"\n\n', "")
    (tmp_path / "game.toml").write_text(text, encoding="utf-8")
    with pytest.raises(MathSetError, match="awarded by the key"):
        load_math_set(str(tmp_path))


def test_the_cycle_of_the_spiral_returns_to_its_grid():
    """C K W / B B C / C C C wins its bottom row and right column; the same five cells survive in the
    same places, and four refilled C give the grid it started from (so the cascade has cycles)."""
    start = cells("C K W  B B C  C C C")
    ev = evaluate(CFG, start)
    assert [(w.symbol, w.cells) for w in ev.wins] == [("C", (6, 7, 8)), ("C", (2, 5, 8))]
    assert ev.removed == (2, 5, 6, 7, 8) and ev.new_wilds == (7,)     # the K beside the WILD stays
    assert sorted(ev.refill) == [5, 6, 7, 8]
    assert tuple(ev.moved[c] for c in range(5)) == start[:5]
    assert tuple(s if c not in ev.refill else "C" for c, s in enumerate(ev.moved)) == start


def test_a_line_holds_several_wins_sharing_a_wild():
    cfg = grid_config_of(1, 5, {"A": (0, 0, 3, 4, 5), "B": (0, 0, 1, 2, 3)})
    assert [(w.symbol, w.cells, w.pay) for w in find_wins(cfg, cells("A A W B B"))] == [
        ("A", (0, 1, 2), 3), ("B", (2, 3, 4), 1)]
    assert [(w.symbol, w.n, w.pay) for w in find_wins(cfg, cells("A A A A B"))] == [("A", 4, 4)]   # one run of 4
    assert [(w.symbol, w.n) for w in find_wins(cfg, cells("W W W A B"))] == [("A", 4)]


def test_wilds_alone_pay_only_without_another_win_as_the_highest_paying_symbol():
    cfg = grid_config_of(2, 4, {"A": (0, 0, 3, 9), "B": (0, 0, 5, 6)})
    only = find_wins(cfg, cells("W W W B  A B A A"))
    assert [(w.symbol, w.n) for w in only] == [("B", 4)]       # the WILDs substitute for the B beside them
    alone = find_wins(cfg, cells("W W W K  A B A B".replace("K", "A").replace("A B A B", "B A B A")))
    assert [(w.symbol, w.n) for w in alone] == [("A", 4)]
    cfg_k = grid_config_of(2, 4, {"A": (0, 0, 3, 9), "B": (0, 0, 5, 6)}, key="K", free_spins=1)
    ev = evaluate(cfg_k, cells("W W W K  A B A B"))
    assert [(w.symbol, w.n, w.pay) for w in ev.wins] == [("W", 3, 5)]     # max over symbols of pays[2]
    assert ev.removed == (0, 1, 2, 4, 5, 6) and ev.new_wilds == ()        # neighbours explode, K stays
    with_other = evaluate(cfg_k, cells("W W W K  A A A B"))
    assert [w.symbol for w in with_other.wins] == ["A"]                   # another win: WILDs alone do not pay


def test_only_the_wilds_of_a_paying_win_explode():
    """The A win explodes its WILD at cell 2: cells 1 and 5 go; the WILD at 5, removed as a neighbour and in
    no win, does not explode (cell 4 stays), and the key at 8 is never removed."""
    cfg = grid_config_of(3, 3, {"A": (0, 0, 1), "B": (0, 0, 1), "C": (0, 0, 1)}, key="K", free_spins=1)
    ev = evaluate(cfg, cells("A A W  B C W  C B K"))
    assert [(w.symbol, w.cells, w.wilds) for w in ev.wins] == [("A", (0, 1, 2), (2,))]
    assert ev.removed == (0, 1, 2, 5) and ev.new_wilds == ()


def test_the_new_wild_of_an_even_run_takes_the_larger_path_index():
    fwd = grid_config_of(1, 4, {"A": (0, 0, 1, 2), "B": (0, 0, 1, 2)}, path=(0, 1, 2, 3))
    back = grid_config_of(1, 4, {"A": (0, 0, 1, 2), "B": (0, 0, 1, 2)}, path=(3, 2, 1, 0))
    assert evaluate(fwd, cells("A A A A")).new_wilds == (2,)
    assert evaluate(back, cells("A A A A")).new_wilds == (1,)


def test_two_wins_with_one_middle_place_one_wild_and_the_rest_keep_their_order():
    ev = evaluate(CFG, cells("B A B  A A A  B A B"))
    assert ev.new_wilds == (4,) and ev.pay == 40
    assert [ev.moved[c] for c in CFG.path if ev.moved[c]] == ["B", "B", "B", "B", "W"]


def test_the_key_moves_with_the_others_and_awards_on_the_path_end(tmp_path, capsys):
    d = write_grid(tmp_path / "g")
    code = main(["spin", "--set", str(d), "--cells", "C K W / B B C / C C C", "--refill", "C,C,C,C", "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "refilled     [3,1]=C [3,2]=C [3,3]=C [2,3]=C" in out
    grids = out.split("evaluation ")[1:3]
    assert grids[0].splitlines()[1:4] == grids[1].splitlines()[1:4]        # back where it started
    c = play_cascade(CFG, cells("C B A  A K C  B C A"), lambda n: ["A", "B", "C"][:n])
    assert c.evaluations[-1].wins == () and c.final.count("K") == 1


def test_spin_refuses_in_one_line(tmp_path, capsys):
    d = str(write_grid(tmp_path / "g"))
    for argv, words in ((["--cells", "C K W / B B C / C C C"], "needs refill symbols"),
                        (["--cells", "C K W / B B C / C C C", "--refill", "C"], "--refill ran out"),
                        (["--cells", "C K W / B B C"], "needs 3 rows"),
                        (["--cells", "C K Z / B B C / C C C"], "unknown symbol 'Z'"),
                        (["--stops", "1,2,3"], "no reel strips"),
                        ([], "give --cells")):
        assert main(["spin", "--set", d, *argv]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err


@pytest.mark.parametrize("command", ["sensitivity", "tune", "distribution", "chain", "check", "diff",
                                     "prove"])
def test_commands_that_need_reel_strips_refuse_in_one_line(tmp_path, capsys, command):
    d = str(write_grid(tmp_path / "g"))
    extra = {"tune": ["--target-rtp", "0.9", "--out", str(tmp_path / "o")], "export": ["--xlsx", str(tmp_path / "p.xlsx")],
             "diff": [d, d]}.get(command, [])
    argv = [command, *extra] if command == "diff" else [command, "--set", d, *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unsupported rule: grid of independent cells (no reel strips)" in err, err


def test_report_of_a_2x3_grid_is_exact_and_of_a_large_grid_simulated(tmp_path, capsys):
    small = str(write_grid(tmp_path / "small", rows=2, columns=3))
    assert main(["report", "--set", small, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "exact" and "/" in out["rtp"] and out["first_drop"]["no_win"].count("/") == 1
    assert Fraction(out["rtp"]) * 10 == chain_figures(grid_config(load_math_set(small).model)).mean
    assert main(["report", "--set", small, "--max-grid-states", "3", "--target-halfwidth", "0.05", "--json"]) == 0
    sim = json.loads(capsys.readouterr().out)
    assert sim["method"] == "simulation" and sim["rtp_ci99"][0] <= sim["rtp"] <= sim["rtp_ci99"][1]
    assert sim["rtp_halfwidth99"] < 0.05 and {"rounds", "seed", "sd_per_bet", "variance_reduction"} <= set(sim)
    assert sim["rtp_ci99"][0] <= float(Fraction(out["rtp"])) <= sim["rtp_ci99"][1]


def test_simulate_of_a_grid_game_text_and_json(tmp_path, capsys):
    d = str(write_grid(tmp_path / "g", rows=2, columns=3))
    assert main(["simulate", "--set", d, "--rounds", "20000", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert "RTP" in text and "simulated, 99% interval" in text and "first drop   exact" in text
    rtp_line = next(ln for ln in text.splitlines() if ln.startswith("RTP "))
    assert "99% normal interval (asymptotic, not a proven bound)" in rtp_line      # the interval as it is
    assert main(["simulate", "--set", d, "--rounds", "20000", "--seed", "3", "--json"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert a["rtp_interval"] == "normal interval (asymptotic, not a proven bound)"
    assert main(["simulate", "--set", d, "--rounds", "20000", "--seed", "3", "--json", "--workers", "1"]) == 0
    b = json.loads(capsys.readouterr().out)
    assert a["rtp"] == b["rtp"] and a["rounds"] == 20000 and a["p_free_spins_ci99"][0] <= a["p_free_spins"]
    assert main(["simulate", "--set", d, "--mode", "x"]) == 2
    assert "no bet modes" in capsys.readouterr().err


def test_the_api_refuses_a_grid_game_in_the_reel_strip_par_sheet_and_names_its_report(tmp_path):
    ms = load_math_set(str(write_grid(tmp_path / "g", rows=2, columns=3)))
    with pytest.raises(UnsupportedRule, match="exact.grid.grid_report"):
        exact.par_sheet(ms)
    for call in (exact.win_distribution, lambda m: exact.require(m, "sensitivity")):
        with pytest.raises(UnsupportedRule, match="grid of independent cells"):
            call(ms)
    assert grid_report(ms).exact


def test_comply_uses_exact_figures_or_the_whole_interval(tmp_path, capsys):
    small = str(write_grid(tmp_path / "small", rows=2, columns=3))
    code = main(["comply", "--set", small, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["figures"] == "exact" and code == (0 if out["passed"] else 1)
    assert any(c["item"] == "free spins" for c in out["checks"])
    big = str(write_grid(tmp_path / "big", rows=4, columns=4))      # its chain is refused: simulated
    code = main(["comply", "--set", big, "--json", "--target-halfwidth", "0.05", "--workers", "1",
                 "--max-rounds", "40000"])
    sim = json.loads(capsys.readouterr().out)
    assert sim["figures"].startswith("simulated")
    assert main(["simulate", "--set", big, "--json", "--target-halfwidth", "0.0001", "--workers", "1",
                 "--max-rounds", "20000"]) == 0
    short = json.loads(capsys.readouterr().out)
    assert short["rounds"] == 20000 and short["target_reached"] is False
    for c in sim["checks"]:
        if c["measure"] == "rtp":
            lo, hi = c["value_ci99"]
            rule = next(r for r in load_rules() if r.id == c["rule"])
            assert c["pass"] == ((rule.min is None or lo >= rule.min) and (rule.max is None or hi <= rule.max))
    assert code == (0 if sim["passed"] else 1)
