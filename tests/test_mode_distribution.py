"""The win distribution of every bet mode and buy against brute force: the round's spin, its respin with held
reels, its prize wheel and jackpots and its free spins.

The small game of :data:`generators.MODES_GAME` (3 reels x 2 rows, two scatters S and X, a wheel on X, four bet
modes two of them with a respin, two buys) is played literally by :mod:`bonus_oracle` (every base stop, every
respin stop, every free-spin sequence, every wheel draw): the exact round distribution of each mode must equal
it, its mean the ParSheet's figure of the mode, the float pass must lie within its proven bound, and the
command line must carry the same figures under ``modes.NAME.round`` and ``buy.NAME.round``.
"""
from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from bonus_oracle import Game
from exact.bet_modes import analyse_buys, analyse_modes
from exact.round_distribution import buy_distribution, mode_distribution
from generators import BONUS, MODES_TABLE, MODES_WHEEL, random_modes_strips, run, write_modes_game
from strips.errors import UnsupportedRule
from strips.loader import load_math_set

WHEEL, MODES = MODES_WHEEL, MODES_TABLE
BUYS = {"fs": (40, 2), "big": (100, 3)}


def positive(d) -> dict:
    return {w: p for w, p in d.items() if p}


@pytest.fixture(scope="module")
def set_dir(tmp_path_factory):
    return write_modes_game(tmp_path_factory.mktemp("tiny_wheel"))


ms = pytest.fixture(scope="module", name="ms")(lambda set_dir: load_math_set(str(set_dir)))


@pytest.fixture(scope="module")
def oracle(ms):
    """unit -> the exact distribution of its round win, played literally."""
    out = {}
    for name, (cost, base, trigger, respin) in MODES.items():
        out["mode", name] = Game(ms.model, 2, "S", trigger, BONUS, 2, WHEEL).round(base, respin)[0]
    for name, (cost, trigger) in BUYS.items():
        game = Game(ms.model, 2, "S", MODES["default"][2], BONUS, 2)
        out["buy", name] = game.feature(game.initial_spins(trigger))
    return out


@pytest.fixture(scope="module")
def exact_units(ms):
    out = {("mode", n): mode_distribution(ms, n, exact=True) for n in MODES}
    out.update({("buy", n): buy_distribution(ms, n, exact=True) for n in BUYS})
    return out


def test_every_part_of_the_round_is_exercised(oracle):
    """The respin modes differ from the default (their respin is played), the wheel's jackpot is reached."""
    assert oracle["mode", "ante"] != oracle["mode", "default"] != oracle["mode", "pairs"]
    assert any(w >= 500 for w in positive(oracle["mode", "default"]))


@pytest.mark.parametrize("unit", [("mode", n) for n in MODES] + [("buy", n) for n in BUYS])
def test_exact_round_equals_brute_force_and_its_mean_the_par_sheet(ms, oracle, exact_units, unit):
    wd = exact_units[unit]
    assert wd.round.is_exact
    got = positive(dict(wd.round.items()))
    assert got == positive(oracle[unit])
    mean = sum(w * p for w, p in got.items())
    if unit[0] == "mode":
        m = analyse_modes(ms)[unit[1]]
        assert wd.bet == m.cost and mean == m.round.mean and mean / wd.bet == m.rtp
    else:
        b = analyse_buys(ms, analyse_modes(ms)["default"])[unit[1]]
        assert wd.bet == b.cost and mean == b.feature.mean and mean / wd.bet == b.rtp
    assert (wd.max_round_win, wd.max_round_win_probability) == max(got.items())


@pytest.mark.parametrize("unit", [("mode", "ante"), ("mode", "pairs"), ("buy", "big")])
def test_float_pass_lies_within_its_proven_bound(ms, oracle, unit):
    wd = mode_distribution(ms, unit[1], exact=False) if unit[0] == "mode" else buy_distribution(ms, unit[1],
                                                                                             exact=False)
    assert not wd.round.is_exact
    want = oracle[unit]
    for w, p in wd.round.items():
        assert abs(float(p) - float(want.get(w, 0))) <= wd.round.bound
    assert wd.max_round_win == max(positive(want))


def test_json_carries_every_mode_and_buy(set_dir, oracle):
    code, out, err = run(["distribution", "--set", str(set_dir), "--json", "--exact"])
    assert code == 0, err
    d = json.loads(out)
    assert set(d["modes"]) == set(MODES) - {"default"} and set(d["buy"]) == set(BUYS)
    assert {w: F(p) for w, p in d["round"]} == positive(oracle["mode", "default"])
    for name in d["modes"]:
        assert {w: F(p) for w, p in d["modes"][name]["round"]} == positive(oracle["mode", name])
        assert d["modes"][name]["cost"] == MODES[name][0]
    for name in d["buy"]:
        assert {w: F(p) for w, p in d["buy"][name]["round"]} == positive(oracle["buy", name])


def test_mode_and_buy_select_one(set_dir, oracle):
    code, out, _ = run(["distribution", "--set", str(set_dir), "--json", "--exact", "--mode", "pairs"])
    d = json.loads(out)
    assert code == 0 and d["mode"] == "pairs" and d["cost"] == 20 and "modes" not in d
    assert {w: F(p) for w, p in d["round"]} == positive(oracle["mode", "pairs"])
    code, out, _ = run(["distribution", "--set", str(set_dir), "--json", "--buy", "fs"])
    assert code == 0 and json.loads(out)["buy"] == "fs"
    code, _, err = run(["distribution", "--set", str(set_dir), "--mode", "nope"])
    assert code == 2 and err.count("\n") == 1 and "no bet mode 'nope' (known: default, ante, pairs, plain, alt)" in err


def test_one_unit_writes_its_own_png(set_dir, tmp_path):
    code, _, err = run(["distribution", "--set", str(set_dir), "--buy", "fs", "--plot", str(tmp_path / "d.png")])
    assert code == 0, err
    assert [p.name for p in tmp_path.iterdir()] == ["d.buy.fs.png"]


@pytest.mark.slow
def test_one_png_per_mode_and_buy(set_dir, tmp_path):
    code, _, err = run(["distribution", "--set", str(set_dir), "--plot", str(tmp_path / "d.png")])
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["d.png"] + [f"d.{n}.png" for n in MODES if n != "default"] + [f"d.buy.{n}.png" for n in BUYS])


def test_api_and_cli_refuse_the_frames_alike():
    """The frames' award (its pays and frame levels are not independent) is refused by name, as by supports()."""
    ms = load_math_set("wheel_game")
    for mode in ms.mode_names:
        with pytest.raises(UnsupportedRule) as e:
            mode_distribution(ms, mode)
        code, _, err = run(["distribution", "--set", "wheel_game", "--mode", mode])
        assert code == 2 and err == f"rtp distribution: wheel_game: {e.value}\n"
        assert str(e.value).startswith("unsupported rule: frames: ")


def test_comply_checks_every_modes_top_award(set_dir, oracle):
    code, out, err = run(["comply", "--set", str(set_dir), "--json"])
    d = json.loads(out)
    assert code in (0, 1) and d["top_award_checked"], err
    top = {c["item"].split(": max win")[0] if ": max win" in c["item"] else "default": c
           for c in d["checks"] if c["measure"] == "award_odds" and "max win" in c["item"]}
    labels = ["default"] + [f"bet mode {n}" for n in MODES if n != "default"] + [f"buy {n}" for n in BUYS]
    assert sorted(top) == sorted(labels)
    for label, c in top.items():
        kind, name = ("mode", "default") if label == "default" else \
            (("mode", label[len("bet mode "):]) if label.startswith("bet mode") else ("buy", label[len("buy "):]))
        win, p = max(positive(oracle[kind, name]).items())
        assert c["exact"] and F(c["value"]) == p and c["item"].endswith(f"max win {win} credits "
                                                                      f"({F(win, (MODES[name][0] if kind == 'mode' else BUYS[name][0]))} bets)")


def test_export_carries_every_modes_distribution(set_dir, tmp_path):
    code, _, err = run(["export", "--set", str(set_dir), "--distribution", "--csv", str(tmp_path / "csv")])
    assert code == 0, err
    names = {p.name for p in (tmp_path / "csv").iterdir()}
    assert {f"win_distribution_bet_mode_{n}.csv" for n in MODES if n != "default"} | \
        {f"win_distribution_buy_{n}.csv" for n in BUYS} | {"win_distribution.csv"} <= names
    # the workbook: one sheet per unit, each title naming its unit, distinct and within Excel's 31 characters
    openpyxl = pytest.importorskip("openpyxl")
    code, _, err = run(["export", "--set", str(set_dir), "--distribution", "--xlsx", str(tmp_path / "w.xlsx")])
    assert code == 0, err
    titles = openpyxl.load_workbook(tmp_path / "w.xlsx").sheetnames
    assert {f"Dist. mode {n}" for n in MODES if n != "default"} | {f"Dist. buy {n}" for n in BUYS} | \
        {"Win distribution"} <= set(titles) and all(len(t) <= 31 for t in titles)


@pytest.mark.parametrize("max_win, mult, p", [(40, 2, "12/25"), (1000, 3, "1/3")])
def test_gamble_entry_is_apart_from_the_round(tmp_path, oracle, max_win, mult, p):
    """The round excludes the gamble; ``gamble`` gives every eligible win gambled once, per mode's cost."""
    d = write_modes_game(tmp_path)
    with open(d / "game.toml", "a", encoding="utf-8") as fh:
        fh.write(f'\n[gamble]\nmin_win = 10\nmax_win = {max_win}\nmultiplier = {mult}\nprobability = "{p}"\n')
    code, out, err = run(["distribution", "--set", str(d), "--json", "--exact"])
    assert code == 0, err
    js = json.loads(out)
    for name in MODES:
        unit = js if name == "default" else js["modes"][name]
        dist, cost = positive(oracle["mode", name]), MODES[name][0]
        assert {w: F(q) for w, q in unit["round"]} == dist
        lo, hi = 10, max_win // mult
        mean = sum(x * q for x, q in dist.items())
        eligible = sum(x * q for x, q in dist.items() if lo <= x <= hi)
        g = unit["gamble"]
        assert F(g["rtp_without_gamble"]) == mean / cost
        assert F(g["rtp_gamble_once"]) == (mean - eligible + F(p) * mult * eligible) / cost
        assert F(g["eligible_probability"]) == sum(q for x, q in dist.items() if lo <= x <= hi)


@pytest.mark.parametrize("seed", [1, 2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow),
                                  pytest.param(5, marks=pytest.mark.slow)])
def test_random_small_games_equal_brute_force(tmp_path, seed):
    """Random strips of the five-mode game, S paying on its own count: every mode's and buy's exact round is the
    literal one, and the float pass within its bound of it."""
    st = random_modes_strips(seed)
    ms = load_math_set(str(write_modes_game(tmp_path, st, scatter_pays="[0, 4, 9]")))
    modes = analyse_modes(ms)
    for name, (cost, base, trigger, respin) in MODES.items():
        base = st["alt"] if base is MODES["alt"][1] else st["base"]
        want = positive(Game(ms.model, 2, "S", trigger, st["bonus"], 2, WHEEL).round(base, respin)[0])
        wd = mode_distribution(ms, name, exact=True)
        assert positive(dict(wd.round.items())) == want, name
        assert sum(w * p for w, p in want.items()) == modes[name].round.mean
        if name in ("ante", "default"):
            wf = mode_distribution(ms, name, exact=False)
            assert all(abs(float(p) - float(want.get(w, 0))) <= wf.round.bound for w, p in wf.round.items())
    game = Game(ms.model, 2, "S", MODES["default"][2], st["bonus"], 2)
    for name, (cost, trigger) in BUYS.items():
        assert positive(dict(buy_distribution(ms, name, exact=True).round.items())) == \
            positive(game.feature(game.initial_spins(trigger)))


@pytest.mark.parametrize("mode", ["ante", "pairs"])
def test_respin_modes_trigger_odds_equal_the_literal_round(set_dir, ms, mode):
    """A bet mode with a respin gives its triggers' odds (the respin's window decides where it is respun)."""
    from bonus_oracle import count, windows
    cost, base, trigger, (symbol, n) = MODES[mode]
    game = Game(ms.model, 2, "S", trigger, BONUS, 2, WHEEL)
    want: dict = {}
    for p, stops, w in windows(base, 2):
        decided = [(F(1), w)]
        if count(w, symbol) == n and not game.starts_feature(w):
            decided = [(q, w2) for q, _, w2 in windows(base, 2, {r: s for r, s in enumerate(stops) if symbol in w[r]})]
        for q, w2 in decided:
            s = min(count(w2, "S"), 3)
            if s >= 2:
                want[f"trigger {s} S"] = want.get(f"trigger {s} S", 0) + p * q
    code, out, _ = run(["comply", "--set", str(set_dir), "--json"])
    got = {c["item"][len(f"bet mode {mode}: "):]: F(c["value"]) for c in json.loads(out)["checks"]
           if c["item"].startswith(f"bet mode {mode}: trigger") and c["measure"] == "award_odds"}
    assert got == want and len(want) == 2


def test_export_distribution_of_a_refused_game_is_one_line(tmp_path):
    """``rtp export --distribution`` on a game whose distribution is refused (the bundled wheel game: frames):
    one line naming the rule and the way out, exit 2, nothing written (it wrote the workbook without a word)."""
    code, out, err = run(["export", "--set", "wheel_game", "--distribution", "--csv", str(tmp_path / "csv")])
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert "frames" in err and "leave out --distribution" in err and not (tmp_path / "csv").exists()
