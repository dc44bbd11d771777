"""Hold-and-win: the rule's keys and validation, its literal reading, the protocol chain, the fast
chain and the round figures, each against a brute-force replay of every outcome (tests/gen_hold_and_win.py)."""
from __future__ import annotations

import itertools
import json
import random
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

import exact
import gen_hold_and_win as gen
from exact.cli import main
from exact.formatting import decimal_text
from exact.hold_and_win import coin_masks, hold_and_win_spin
from exact.rules import HoldAndWin, play_feature, respin_step, supports
from markov.hold_and_win import HoldChain, final_law, popcount
from markov.protocol import solve
from strips.errors import MathSetError, UnsupportedRule
from strips.loader import bundled_path, load_math_set

F = Fraction


def _section(ms):
    return exact.par_sheet(ms).sections["hold and win"]


@pytest.mark.parametrize("seed", range(12))
def test_round_figures_equal_brute_force(seed):
    game, strips = gen.random_game(seed, reels=2)
    ms = exact.math_set(game, strips)
    sheet = exact.par_sheet(ms)
    s = sheet.sections["hold and win"]
    r = gen.replay(game, strips)
    assert sheet.mean_win == r["mean"] and sheet.round.second == r["second"]
    assert (s.trigger, s.full, s.respins * s.trigger) == (r["trigger"], r["full"], r["respins"])
    assert all(s.jackpots.get(j, 0) == p for j, p in r["jackpots"].items())
    assert all(s.awards[t] == n for t, n in r["awards"].items())
    assert {n: p * s.trigger for n, p in enumerate(s.coins) if p} == {n: p for n, p in r["coins"].items() if p}
    assert sum(sheet.components.values()) == sheet.mean_win


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_round_figures_equal_brute_force_3x2(seed):
    game, strips = gen.random_game(seed, reels=3, rows=2)
    ms = exact.math_set(game, strips)
    sheet = exact.par_sheet(ms)
    r = gen.replay(game, strips)
    assert sheet.mean_win == r["mean"] and sheet.round.second == r["second"]
    assert sheet.sections["hold and win"].full == r["full"]


def test_a_mutant_reading_fails_the_replay():
    """The replay can fail: a counter that is not reset by a new coin changes the figures."""
    game, strips = gen.random_game(3, reels=2, rows=2, full=True)
    game["hold_and_win"]["respins"] = 2
    s = _section(exact.math_set(game, strips))
    r = gen.replay(game, strips)
    assert s.respins * s.trigger == r["respins"]
    masks = [tuple(int(m) for m in coin_masks(c, 2, 3)) for c in exact.math_set(game, strips).strips["respin"].codes]
    start = (1, 0)
    right = final_law(masks, 2, 2, [start]).of(start)[1]
    wrong = final_law(masks, 2, 1, [start]).of(start)[1]
    assert right != wrong


def _random_masks(seed, reels, rows, length):
    rng = random.Random(seed)
    return [tuple(rng.choice([0, 0, 0, 1, 2, 4, 3][: 2 + (1 << rows)]) & ((1 << rows) - 1) for _ in range(length))
            for _ in range(reels)]


@pytest.mark.parametrize("seed", range(6))
def test_protocol_chain_equals_the_fast_chain(seed):
    reels, rows = 3, 2
    masks = _random_masks(seed, reels, rows, 3)
    starts = [h for h in itertools.product(range(1 << rows), repeat=reels) if 2 <= popcount(h) < reels * rows]
    fast = final_law(masks, rows, 2, starts)
    chain = HoldChain(tuple(masks), rows, 2, mean=F(1), second=F(1), full=0)
    moments = solve(chain, starts)
    for h in starts:
        law, respins = fast.of(h)
        m = moments[h]
        assert m.mean == sum(p * (n - popcount(h)) for n, p in enumerate(law))
        assert m.steps == respins and sum(law) == 1


def test_chain_transitions_are_the_literal_respin_aggregated():
    """Every respin stop combination read literally (respin_step) gives the chain's transitions."""
    reels, rows = 2, 2
    strips = [[3, 1, 3, 0], [1, 3, 3]]
    masks = [tuple(int(m) for m in coin_masks(s, rows, 3)) for s in strips]
    chain = HoldChain(tuple(masks), rows, 3)
    held = frozenset({(0, 0)})
    counts: dict = {}
    for stops in itertools.product(*[range(len(s)) for s in strips]):
        window = tuple(tuple(s[(p + i) % len(s)] for i in range(rows)) for s, p in zip(strips, stops))
        new_held, _ = respin_step(held, window, 3)
        key = tuple(sum(1 << i for (rr, i) in new_held if rr == r) for r in range(reels))
        counts[key] = counts.get(key, 0) + 1
    total = len(strips[0]) * len(strips[1])
    got: dict = {}
    for label, p, _, _, succ in chain.transitions(((1, 0), 3)):
        key = (3, 3) if "full" in label else (1, 0) if succ == ((1, 0), 2) else succ[0]
        got[key] = got.get(key, 0) + p
    assert got == {k: F(c, total) for k, c in counts.items()}


def test_play_feature_ends_on_the_counter_and_on_a_full_window():
    assert play_feature(frozenset({(0, 0)}), iter([((0,), (0,))] * 2), 1, 2, 2) == (frozenset({(0, 0)}), 2)
    held, played = play_feature(frozenset({(0, 0)}), iter([((0,), (0,)), ((0,), (1,)), ((9,), (9,))]), 1, 2, 2)
    assert held == frozenset({(0, 0), (1, 0)}) and played == 2


def _count_chain(cells, held, p, respins):
    """The worked example written independently: i.i.d. cells, state (coins held, respins left)."""
    from math import comb
    memo = {}

    def go(n, r):   # (E[coins at the end], E[respins played])
        if r == 0 or n == cells:
            return F(n), F(0)
        if (n, r) in memo:
            return memo[(n, r)]
        e = cells - n
        a = b = F(0)
        for j in range(e + 1):
            q = comb(e, j) * p ** j * (1 - p) ** (e - j)
            x, y = go(n + j, respins if j else r - 1)
            a += q * x
            b += q * (1 + y)
        memo[(n, r)] = (a, b)
        return a, b

    return go(held, respins)


def test_worked_example_15_cells():
    """15 independent cells (15 one-row reels), p = 1/5, 3 respins reset by a new coin, from 6 coins held."""
    masks = [(1, 0, 0, 0, 0)] * 15
    start = (1,) * 6 + (0,) * 9
    f = final_law(masks, 1, 3, [start])
    law, respins = f.of(start)
    coins = sum(n * p for n, p in enumerate(law))
    assert (coins, respins) == _count_chain(15, 6, F(1, 5), 3)
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert decimal_text(coins, 12) in readme and decimal_text(respins, 12) in readme and f.states == 10


def test_worked_example_through_the_protocol_chain_on_9_cells():
    masks = [(1, 0, 0, 0, 0)] * 9
    start = (1,) * 3 + (0,) * 6
    m = solve(HoldChain(tuple(masks), 1, 3, mean=F(1), second=F(1)), [start])[start]
    coins, respins = _count_chain(9, 3, F(1, 5), 3)
    assert (m.mean + 3, m.steps) == (coins, respins)


def test_bundled_set_report_json_and_readme(capsys):
    ms = load_math_set("hold_and_win")
    sheet = exact.par_sheet(ms)
    s = sheet.sections["hold and win"]
    assert sheet.components["hold_and_win"] == s.feature and sum(sheet.components.values()) == sheet.mean_win
    readme = (bundled_path("hold_and_win") / "README.md").read_text(encoding="utf-8")
    assert f"RTP {decimal_text(100 * sheet.rtp, 6)}%" in readme and f"{s.states} canonical held sets" in readme
    assert main(["--set", "hold_and_win", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"trigger", "rtp", "mean", "full", "respins", "awards"} <= set(out["hold_and_win"])


@pytest.mark.parametrize("command", [["distribution"], ["simulate", "--rounds", "100"], ["sensitivity"], ["comply"],
                                     ["chain"]])
def test_commands_refuse_in_one_line(capsys, command):
    code = main(command + ["--set", "hold_and_win"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "unsupported rule: hold and win" in err, err


def test_hold_and_win_with_free_spins_is_refused_by_name():
    game, strips = gen.random_game(1, reels=2)
    game["symbols"]["S"] = {"class": "scatter", "reels": {"base": [1, 2]}}
    game["free_spins"] = {"strips": "base", "trigger": {"2": 1}, "levels": [{"multiplier": 1}]}
    strips["base"][0].append("S")
    ms = exact.math_set(game, strips)
    assert supports(ms, "report").reason == "hold and win with free spins"
    with pytest.raises(UnsupportedRule, match="hold and win with free spins"):
        exact.par_sheet(ms)


BAD = [
    ('trigger = 6                    # six or more COINs in a base window', "trigger = 0", "between 1 and 15"),
    ('respins = 3                    # reset to 3 by every respin that lands a new COIN', "respins = 0", "at least 1"),
    ('strips = "respin"', 'strips = "free"', "names no key of [strips]"),
    ('symbol = "COIN"', 'symbol = "DIAMOND"', "coin-class symbol is 'COIN'"),
    ('full = "jackpot Grand"         # every cell holds a COIN at the end', 'full = "jackpot Huge"', "unknown jackpot"),
    ('weights.base = [300, 250, 150, 100, 50, 20, 12, 4, 1]', "weights.base = [1, 2]", "needs 9 weights"),
    ('weights.respin = [300, 250, 150, 100, 50, 20, 15, 5, 1]', "weights.respin = [0, 0, 0, 0, 0, 0, 0, 0, 0]", "not all 0"),
    ('trigger = 6                    # six or more COINs in a base window', "trigger = 6\nextra = 1", "unknown key"),
    ('values = ["credits 30", "credits 60", "credits 90", "credits 150", "credits 300", "credits 600",',
     'values = ["credits x", "credits 60", "credits 90", "credits 150", "credits 300", "credits 600",', "integer"),
]


@pytest.mark.parametrize("line,replacement,message", BAD)
def test_bad_keys_name_file_row_and_column(tmp_path, line, replacement, message):
    d = tmp_path / "set"
    shutil.copytree(bundled_path("hold_and_win"), d)
    text = (d / "game.toml").read_text(encoding="utf-8")
    assert line in text
    text = text.replace(line, replacement)
    (d / "game.toml").write_text(text, encoding="utf-8")
    with pytest.raises(MathSetError) as e:
        load_math_set(str(d))
    first = replacement.splitlines()[-1]
    row = text.splitlines().index(first) + 1
    assert e.value.row == row and message in e.value.message, (e.value.row, row, e.value.message)


def test_a_coin_without_the_table_and_two_coins_are_refused(tmp_path):
    d = tmp_path / "set"
    shutil.copytree(bundled_path("hold_and_win"), d)
    text = (d / "game.toml").read_text(encoding="utf-8")
    cut = text[:text.index("[hold_and_win]")]
    (d / "game.toml").write_text(cut, encoding="utf-8")
    with pytest.raises(MathSetError, match="needs a \\[hold_and_win\\] table"):
        load_math_set(str(d))
    two = text.replace("[jackpots]", '[symbols.COIN2]\nclass = "coin"\nvalues = ["credits 1"]\n'
                                      'weights.base = [1]\nweights.respin = [1]\n\n[jackpots]')
    (d / "game.toml").write_text(two, encoding="utf-8")
    with pytest.raises(MathSetError, match="exactly one coin-class symbol"):
        load_math_set(str(d))


def test_rule_declarations():
    assert HoldAndWin.adds_to_round and "report" in HoldAndWin.implements
    assert HoldAndWin.present(load_math_set("hold_and_win").model)
    assert not HoldAndWin.present(load_math_set("rules_page").model)


@pytest.mark.parametrize("seed", range(4))
def test_spin_view_of_every_window_sums_to_the_feature(seed):
    """E[F | window] of rtp spin, averaged over every base stop combination, is the section's E[F]."""
    game, strips = gen.random_game(seed, reels=2)
    ms = exact.math_set(game, strips)
    s = _section(ms)
    base = ms.strips["base"]
    combos = list(itertools.product(*[range(n) for n in base.lengths]))
    total = F(0)
    for stops in combos:
        v = hold_and_win_spin(ms, base.window(list(stops), ms.model.rows))
        total += v["mean"] if v["starts"] else 0
    assert total / len(combos) == s.feature


def test_spin_shows_what_the_window_starts(capsys):
    ms = load_math_set("hold_and_win")
    base = ms.strips["base"]
    stops = next(st for st in itertools.product(range(40), repeat=5)
                 if sum(c.count("COIN") for c in base.window(list(st), 3)) >= 6)
    assert main(["spin", "--set", "hold_and_win", "--stops", ",".join(map(str, stops))]) == 0
    out = capsys.readouterr().out
    assert "hold and win   6 coins (>= 6) start it after this spin: exact mean" in out
    assert main(["spin", "--set", "hold_and_win", "--stops", ",".join(map(str, stops)), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)["hold_and_win"]
    assert view["starts"] and F(view["mean"]) == hold_and_win_spin(ms, base.window(list(stops), 3))["mean"]
