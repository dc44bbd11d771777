"""The round rules against brute force: bet modes, buys, respins with held reels, prize wheels and jackpots.

A small game (3 reels x 2 rows, strips of 3-6 stops) with two scatter-class
symbols (S starts the free spins, X the wheel), four bet modes and two buys is
played literally by :mod:`bonus_oracle` (every stop, every respin stop, every
free-spin sequence, every wheel draw, summed into the exact distribution of
the round win).  The report must equal it exactly.
"""
from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction as F

import pytest

from bonus_oracle import Game, moments
from exact.bet_modes import analyse_buys, analyse_mode, analyse_modes
from exact.cli import main
from mathset_files import csv_text, write_set
from strips.loader import load_math_set
from generators import ALT, BASE, BONUS, MODES_GAME, MODES_TABLE, MODES_WHEEL, write_modes_game
from mathset_files import plain_wheel_game

WHEEL, MODES = MODES_WHEEL, MODES_TABLE
AWARD_TEXT = {("credits", 20): "credits 20", ("jackpot", 50): "jackpot Mini", ("free_spins", 1): "free_spins 1",
              ("jackpot", 500): "jackpot Major", ("free_spins", 2): "free_spins 2", ("credits", 0): "credits 0"}


def run(argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def set_dir(tmp_path_factory):
    return write_modes_game(tmp_path_factory.mktemp("tiny_wheel"))


@pytest.fixture(scope="module")
def ms(set_dir):
    return load_math_set(str(set_dir))


@pytest.fixture(scope="module")
def modes(ms):
    return analyse_modes(ms)


@pytest.fixture(scope="module")
def oracle(ms):
    """mode -> (round distribution, award odds, P(respin), E[respin pays]), played literally."""
    out = {}
    for name, (cost, base, trigger, respin) in MODES.items():
        game = Game(ms.model, 2, "S", trigger, BONUS, 2, WHEEL)
        out[name] = game.round(base, respin)
    return out


@pytest.mark.parametrize("mode", list(MODES))
def test_every_mode_rtp_and_variance_equal_brute_force(modes, oracle, mode):
    dist = oracle[mode][0]
    mean, var = moments(dist)
    m = modes[mode]
    assert m.cost == MODES[mode][0]
    assert m.round.mean == mean
    assert m.rtp == mean / MODES[mode][0]
    assert m.variance == var


def test_every_part_is_exercised(oracle):
    _, awards, p_respin, _ = oracle["ante"]
    assert p_respin > 0 and oracle["pairs"][2] > 0
    assert set(awards) == set(AWARD_TEXT)


@pytest.mark.parametrize("mode", ["ante", "pairs"])
def test_respin_probability_and_pays_equal_brute_force(modes, oracle, mode):
    _, _, p_respin, pays = oracle[mode]
    assert modes[mode].round.respin_prob == p_respin
    assert modes[mode].round.components["respin"] == pays


@pytest.mark.parametrize("mode", ["default", "ante", "alt"])
def test_wheel_award_odds_and_share_equal_brute_force(modes, oracle, mode):
    _, awards, _, _ = oracle[mode]
    w = modes[mode].round.wheels["bonus"]
    assert w.awards == {AWARD_TEXT[a]: p for a, p in awards.items()}
    game = Game(None, 2, "S", MODES[mode][2], BONUS, 2, WHEEL)
    game.model = modes[mode].set.model
    share = sum(p * moments(game.award(a))[0] for a, p in awards.items())
    assert w.mean == share == modes[mode].round.components["wheel"]
    assert w.prob == sum(awards.values())


def test_mode_without_overrides_equals_default_except_cost(modes):
    d, p = modes["default"], modes["plain"]
    assert p.round.mean == d.round.mean and p.variance == d.variance
    assert p.rtp == d.rtp * F(10, 20)


def test_buys_equal_the_literal_feature(ms, modes):
    buys = analyse_buys(ms, modes["default"])
    game = Game(ms.model, 2, "S", {2: 2, 3: 3}, BONUS, 2)
    for name, cost, spins in (("fs", 40, 2), ("big", 100, 3)):
        mean, var = moments(game.feature(spins))
        assert buys[name].rtp == mean / cost and buys[name].variance == var
        assert buys[name].feature.initial_spins == spins
    assert buys["big"].warning and "5 percentage points" in buys["big"].warning


def test_buy_round_chain_equals_the_literal_feature(ms, set_dir, tmp_path):
    """``rtp chain --round --buy NAME`` and :func:`exact.bet_modes.buy_chain`: the bought round's chain gives the
    literal feature's moments (brute force over the free-spin windows), its float cross-check passes and its
    GraphML reads back as an absorbing chain; an unknown buy is one line from the API and the CLI alike."""
    from markov import protocol
    from markov.graph import check_chain, read_graphml
    from exact.bet_modes import buy_chain
    game = Game(ms.model, 2, "S", {2: 2, 3: 3}, BONUS, 2)
    for name, cost, spins in (("fs", 40, 2), ("big", 100, 3)):
        mean, var = moments(game.feature(spins))
        chain, start = buy_chain(ms, name)
        f, = protocol.features(chain, [start])
        assert (start, f.mean, f.variance) == (spins, mean, var)
        out = tmp_path / f"{name}.graphml"
        code, text, err = run(["chain", "--set", str(set_dir), "--round", "--buy", name, "--json", "--graphml", str(out)])
        assert (code, err) == (0, "")
        r = json.loads(text)["round"]
        assert (F(r["mean"]["exact"]), F(r["rtp"]["exact"]), r["initial_spins"]) == (mean, mean / cost, spins)
        assert r["float_cross_check"]["status"] == "PASS"
        check_chain(read_graphml(out))
    with pytest.raises(KeyError, match="no buy 'nope'"):
        buy_chain(ms, "nope")
    assert run(["chain", "--set", str(set_dir), "--round", "--buy", "nope"]) == (
        2, "", "rtp chain: --buy must be one of fs, big, got nope\n")
    assert run(["chain", "--set", str(set_dir), "--buy", "fs"])[2] == (
        "rtp chain: --buy is an option of --round (the free-spin chain is the default mode's)\n")
    code, _, err = run(["chain", "--set", "rules_page", "--round", "--buy", "fs"])
    assert (code, err) == (2, "rtp chain: rules_page has no [buy]: --buy names a bought feature\n")


def test_json_keys(set_dir, modes):
    code, out, err = run(["--set", str(set_dir), "--json"])
    assert (code, err) == (0, "")
    r = json.loads(out)
    assert list(r["modes"]) == ["default", "ante", "pairs", "plain", "alt"]
    for name, m in modes.items():
        assert r["modes"][name]["cost"] == m.cost
        assert F(r["modes"][name]["rtp"]) == m.rtp and F(r["modes"][name]["variance"]) == m.variance
    assert F(r["rtp"]) == modes["default"].rtp
    assert set(r["buy"]) == {"fs", "big"} and {"cost", "rtp", "variance"} <= set(r["buy"]["fs"])
    w = r["wheel"]["bonus"]
    assert F(w["rtp"]) == modes["default"].round.components["wheel"] / 10
    assert {k: F(v) for k, v in w["awards"].items()} == modes["default"].round.wheels["bonus"].awards
    c = r["components"]
    assert sum(F(v) for k, v in c.items() if not k.endswith("_float")) == F(r["mean_win"])


def test_text_report_lists_modes_buys_and_wheel(set_dir):
    code, out, err = run(["--set", str(set_dir)])
    assert (code, err) == (0, "")
    for text in ("BET MODES", "ante", "BOUGHT FEATURES", "WARNING: buy big", "PRIZE WHEELS", "jackpot Major"):
        assert text in out, text


# ---------------------------------------------------------------------------
# bad input: exit 2, one line naming file, row and column
# ---------------------------------------------------------------------------
def _line_col(text: str, needle: str) -> tuple[int, int]:
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


@pytest.mark.parametrize("old, new, at, message", [
    ('respin = { symbol = "X", count = 1 }', 'respin = { symbol = "Q", count = 1 }', 'symbol = "Q"',
     "unknown symbol 'Q'"),
    ("weights = [5, 2, 1]", "weights = [0, 0, 0]", "weights = [0, 0, 0]", "weights sum to zero"),
    ('"jackpot Mini"', '"jackpot Grand"', 'awards = ["credits 20", "jackpot Grand"', "unknown jackpot 'Grand'"),
    ("cost = 100\ntrigger = 3", "cost = 100\ntrigger = 4", "trigger = 4", "cannot have a trigger of 4"),
    ('symbol = "X"\ntables', 'symbol = "A"\ntables', 'symbol = "A"', "not a scatter-class symbol"),
    ("[modes.plain]", "[modes.default]", "[modes.default]", "the game's own mode"),
    ("[modes.plain]\ncost = 20", "[modes.plain]\ncost = 20\nbet = 3", "bet = 3", "unsupported rule: key 'bet'"),
    ('awards = ["credits 20"', 'awards = ["coins 20"', 'awards = ["coins 20"', "is not 'credits N'"),
])
def test_bad_input_is_one_line_with_file_row_and_column(tmp_path, old, new, at, message):
    assert MODES_GAME.count(old) == 1
    game = MODES_GAME.replace(old, new)
    d = write_set(tmp_path, base=BASE, bonus=BONUS, game=game)
    (d / "alt.csv").write_text(csv_text(ALT))
    code, out, err = run(["--set", str(d)])
    row, col = _line_col(game, at)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert f"game.toml:{row}:" in err and message in err, err
    assert f"game.toml:{row}:{col}:" in err, err


@pytest.mark.parametrize("table", ["[gamble]\nmin_win = 10\nmax_win = 40\nmultiplier = 2\nprobability = 0.48\n",
                                   "[gamble]\nmin_win = 10\nmax_win = 40\nmultiplier = 2\nprobability = \"3/2\"\n"])
def test_gamble_probability_must_be_an_exact_fraction(tmp_path, table):
    game = MODES_GAME + table
    d = write_set(tmp_path, base=BASE, bonus=BONUS, game=game)
    (d / "alt.csv").write_text(csv_text(ALT))
    code, _, err = run(["--set", str(d)])
    assert code == 2 and err.count("\n") == 1 and f"game.toml:{_line_col(game, 'probability')[0]}:" in err


# ---------------------------------------------------------------------------
# every other command: handles the rules or refuses one named rule in one line
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("argv, rule", [(["sensitivity"], "[modes]")])   # simulate, prove: tests/test_simulate_rules.py
def test_commands_that_do_not_model_the_rules_refuse_one_rule(set_dir, tmp_path, argv, rule):
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in argv]
    code, out, err = run(argv + ["--set", str(set_dir)])
    assert code == 2 and out == "" and err.count("\n") == 1 and "unsupported rule" in err, err
    assert rule in err or "several scatter symbols" in err, err
    assert not (tmp_path / "out").exists()


def test_spin_shows_the_wheel_and_the_respin_of_a_mode(set_dir):
    # windows: reel 1 stop 2 = X,B; reel 2 stop 4 = X,B; reel 3 stop 0 = X,A: three X start table w2
    code, out, err = run(["spin", "--set", str(set_dir), "--stops", "2,4,0", "--json"])
    assert (code, err) == (0, "")
    assert json.loads(out)["wheels"] == {"bonus": "w2"}
    code, out, err = run(["spin", "--set", str(set_dir), "--stops", "2,0,1", "--mode", "ante", "--json"])
    assert (code, err) == (0, "")
    r = json.loads(out)
    assert r["wheels"] == {"bonus": None} and r["respin_holds"] == [1]
    code, out, err = run(["spin", "--set", str(set_dir), "--stops", "2,0,1", "--mode", "nope"])
    assert code == 2 and "--mode must be one of default, ante, pairs, plain, alt" in err


def test_diff_carries_the_modes(set_dir, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    for f in set_dir.iterdir():
        (other / f.name).write_bytes(f.read_bytes())
    (other / "game.toml").write_text(MODES_GAME.replace("[modes.ante]\ncost = 15", "[modes.ante]\ncost = 16"))
    code, out, err = run(["diff", str(set_dir), str(other), "--json"])
    assert code == 0, err
    figures = {f["figure"] for f in json.loads(out)["figures"] if f["before"] != f["after"]}
    assert {"modes.ante.cost", "modes.ante.rtp"} <= figures and "rtp" not in figures


# ---------------------------------------------------------------------------
# the bundled wheel game
# ---------------------------------------------------------------------------
@pytest.mark.slow   # about 16 s; every command on the bundled wheel game stays in the default run (test_every_command)
def test_bundled_wheel_game_reports_modes_wheel_and_jackpots():
    from strips.loader import bundled_names
    assert "wheel_game" in bundled_names()
    code, out, err = run(["--set", "wheel_game", "--json"])
    assert (code, err) == (0, ""), err
    r = json.loads(out)
    assert list(r["modes"]) == ["default", "fortune_bet", "fortune_spins"]
    assert [r["modes"][m]["cost"] for m in r["modes"]] == [10, 15, 52]
    assert F(r["modes"]["default"]["rtp"]) == F(r["rtp"])
    assert "respin" in r["modes"]["fortune_bet"] and "respin" not in r["modes"]["default"]
    awards = {k: F(v) for k, v in r["wheel"]["bonus"]["awards"].items()}
    assert set(awards) == {"free_spins 6 go_large", "free_spins 6 rollin_bones", "free_spins 6 high_steaks", "jackpot Mini",
                           "jackpot Minor", "jackpot Major", "jackpot Grand"}
    assert sum(awards.values()) == F(r["wheel"]["bonus"]["probability"])
    assert awards["jackpot Grand"] < awards["jackpot Major"] < awards["jackpot Minor"] < awards["jackpot Mini"]
    c = r["components"]
    assert sum(F(v) for k, v in c.items() if not k.endswith("_float")) == F(r["mean_win"])
    assert F(c["wheel"]) / 10 == F(r["wheel"]["bonus"]["rtp"])
    assert r["findings"] == []
    g = {k: v for k, v in r["gamble"].items() if not k.endswith("_float")}
    assert F(g["rtp_without_gamble"]) == F(r["rtp"]) and F(g["return_per_stake"]) == F(24, 25)
    assert "rtp_gamble_once" not in g and "frames" in g["rtp_gamble_once_refused"]    # the gamble's distribution refuses frames
    assert set(r["frames"]) == {"free_spins 6 go_large", "free_spins 6 rollin_bones", "free_spins 6 high_steaks"}
    code, out, err = run(["--set", "wheel_game"])
    assert code == 0 and "fortune_bet" in out and "jackpot Grand" in out and "frames and bowls" in out
    code, out, err = run(["--set", str(plain_wheel_game()), "--json"])       # without frames: the gamble once
    g = {k: F(v) for k, v in json.loads(out)["gamble"].items() if not k.endswith("_float")}
    assert g["rtp_without_gamble"] - g["rtp_gamble_once"] > 0 and 0 < g["eligible_probability"] < 1


def test_bundled_wheel_game_spin_shows_wheel_and_respin():
    ms = load_math_set("wheel_game").mode("fortune_bet")
    strips = ms.strips["base"]
    # two BONUS on reels 1 and 2, none elsewhere, no scatters: a respin holding reels 1 and 2
    stops = []
    for r, reel in enumerate(strips.reels):
        want = "BONUS" if r < 2 else None
        for s in range(len(reel)):
            window = [reel[(s + i) % len(reel)] for i in range(3)]
            if (want in window) if want else not any(x in ("BONUS", "SCATTER") for x in window):
                stops.append(s)
                break
    code, out, err = run(["spin", "--set", "wheel_game", "--mode", "fortune_bet", "--stops",
                          ",".join(map(str, stops)), "--json"])
    assert (code, err) == (0, "")
    assert json.loads(out)["respin_holds"] == [1, 2]
    assert json.loads(out)["strips"] == {"set": "base", "file": "fortune_bet.csv"}
    # the text is headed by the strips it spun: the mode's, never "(base strips)" of the game
    code, out, err = run(["spin", "--set", "wheel_game", "--mode", "fortune_bet", "--stops", ",".join(map(str, stops))])
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == ("math set wheel_game, bet mode fortune_bet, phase base (the mode's base strips: "
                                   f"fortune_bet.csv), stops {','.join(map(str, stops))}")
    code, out, err = run(["spin", "--set", "wheel_game", "--stops", "0,0,0,0,0"])
    assert out.splitlines()[0] == "math set wheel_game, phase base (base strips: base.csv), stops 0,0,0,0,0"


# ---------------------------------------------------------------------------
# gamble
# ---------------------------------------------------------------------------
GAMBLE = '\n[gamble]\nmin_win = 10\nmax_win = {max_win}\nmultiplier = {mult}\nprobability = "{p}"\n'


@pytest.mark.parametrize("max_win, mult, p", [(40, 2, "12/25"), (1000, 3, "1/3"), (19, 2, "1/2")])
def test_gamble_returns_equal_brute_force(tmp_path, oracle, max_win, mult, p):
    from exact.gamble import gamble_of_distribution
    d = write_set(tmp_path, base=BASE, bonus=BONUS, game=MODES_GAME + GAMBLE.format(max_win=max_win, mult=mult, p=p))
    (d / "alt.csv").write_text(csv_text(ALT))
    code, out, err = run(["--set", str(d), "--json"])
    assert (code, err) == (0, ""), err
    g = {k: F(v) for k, v in json.loads(out)["gamble"].items() if not k.endswith("_float")}
    dist = oracle["default"][0]
    prob, bet = F(p), 10
    lo, hi = 10, max_win // mult
    mean = sum(x * q for x, q in dist.items())
    eligible = sum(x * q for x, q in dist.items() if lo <= x <= hi)
    assert g["rtp_without_gamble"] == mean / bet == F(json.loads(out)["rtp"])
    assert g["rtp_gamble_once"] == (mean - eligible + prob * mult * eligible) / bet
    assert g["return_per_stake"] == prob * mult
    assert g["eligible_probability"] == sum(q for x, q in dist.items() if lo <= x <= hi)
    ref = gamble_of_distribution(load_math_set(str(d)).model.gamble, bet, dist)
    assert (ref.rtp_gamble_once, ref.eligible_probability) == (g["rtp_gamble_once"], g["eligible_probability"])
    assert (0 < g["eligible_probability"] < 1) == (hi >= lo)   # (19, 2): no win may be gambled


def test_spin_joint_equals_the_literal_evaluator(ms):
    from bonus_oracle import windows
    from exact.evaluator import evaluate
    from exact.gamble import spin_joint
    model = ms.model
    total, joint = spin_joint(ms, model.base_phase, ((model.code("S"),), (model.code("X"),)))
    ref: dict = {}
    for p, _, w in windows(BASE, 2):
        key = ((sum(x == "S" for c in w for x in c), sum(x == "X" for c in w for x in c)), evaluate(model, w).win)
        ref[key] = ref.get(key, 0) + p
    assert {k: F(v, total) for k, v in joint.items()} == ref


def test_fft_convolution_is_exact_modulo_the_prime():
    import numpy as np
    from exact.gamble import _conv, _primes
    rng = np.random.default_rng(7)
    p = _primes(1)[0]
    for la, lb, size in ((12501, 12501, 12501), (9000, 3000, 12501), (100, 12000, 5000), (16384, 16384, 16384)):
        a, b = rng.integers(0, p, la), rng.integers(0, p, lb)
        a[-1] = b[-1] = p - 1                       # the largest residues, at the ends
        # the direct convolution in int64, exactly: 12-bit limbs of a times b stay below 2^50
        ref = (np.convolve(a & 0xFFF, b) % p + (np.convolve(a >> 12, b) % p) * 4096) % p
        assert np.array_equal(_conv(a, b, p, size), ref[:size])


def test_gamble_refused_for_a_rule_it_does_not_model(tmp_path):
    game = (MODES_GAME.replace("[[free_spins.levels]]\nmultiplier = 2\n",
                         "[[free_spins.levels]]\nmultiplier = 2\n[[free_spins.levels]]\nthreshold = 1\nspins = 1\nmultiplier = 3\n")
            + GAMBLE.format(max_win=40, mult=2, p="1/2"))
    d = write_set(tmp_path, base=BASE, bonus=BONUS, game=game)
    (d / "alt.csv").write_text(csv_text(ALT))
    code, out, err = run(["--set", str(d), "--json"])
    assert (code, err) == (0, "")
    g = json.loads(out)["gamble"]
    assert "rtp_gamble_once" not in g and "several levels" in g["rtp_gamble_once_refused"]
    assert F(g["rtp_without_gamble"]) == F(json.loads(out)["rtp"])


@pytest.mark.slow
@pytest.mark.skipif(not __import__("os").environ.get("RTP_SLOW"), reason="opt-in (RTP_SLOW=1): 30 s of direct convolution")
def test_wheel_game_gamble_fft_equals_direct_convolution(monkeypatch):
    """The bundled set's gamble sums through the FFT path equal those of the direct int64 convolution (slow)."""
    import numpy as np
    import exact.gamble as gm
    ms = load_math_set(plain_wheel_game()).mode("default")
    fast = gm.round_eligible(ms, ms.model.gamble)
    monkeypatch.setattr(gm, "_conv", lambda a, b, p, size: np.convolve(a, b)[:size] % p)
    assert gm.round_eligible(ms, ms.model.gamble) == fast


@pytest.mark.parametrize("argv", [["tune", "--target-rtp", "0.9", "--out", "OUT"]])
def test_tune_refuses_the_rules_in_one_line(set_dir, tmp_path, argv):
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in argv]
    code, out, err = run(argv + ["--set", str(set_dir)])
    assert code == 2 and out == "" and err.count("\n") == 1 and "unsupported rule" in err, err
    assert not (tmp_path / "out").exists()


def test_comply_checks_every_modes_rtp_and_the_wheel_awards(set_dir):
    code, out, err = run(["comply", "--set", str(set_dir), "--json", "--no-distribution"])
    assert code in (0, 1) and not err
    data = json.loads(out)
    items = {c["item"] for c in data["checks"]}
    assert any(i.startswith("RTP of bet mode") for i in items)
    assert data.get("award_odds_not_computed_for_modes")
