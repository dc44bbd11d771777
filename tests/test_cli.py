"""The ``rtp`` command line: ``rtp spin`` end to end, and every bad-input path.

In process through ``exact.cli.main(argv) -> int`` (stdout/stderr captured),
and as the installed ``rtp`` console script in a subprocess.  Bad input must
give exit code 2 and exactly one line on stderr, never a traceback.

The spin tests write the rules page's worked example windows into a temp math
set at the page's own stop positions, so ``rtp spin --stops`` must reproduce
the page's windows, pays, collect and totals (rules page sections 3, 6-11,
examples 1-9; the JSON schema).
"""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from exact.cli import main
from mathset_files import csv_text, valid_columns, write_set
from rules_page_examples import EXAMPLES, window_of

RTP = shutil.which("rtp")
needs_rtp = pytest.mark.skipif(RTP is None, reason="the rtp console script is not installed")
STRIP_SET = {"base": "base", "level1": "bonus", "level3": "bonus"}


# ---------------------------------------------------------------------------
# a set that shows every worked example at the page's stops
# ---------------------------------------------------------------------------
def example_columns() -> dict[str, list[list[str]]]:
    """Valid strips with each example's window written at its stops (rows stop..stop+3, wrapping)."""
    cols = {"base": valid_columns("base"), "bonus": valid_columns("bonus")}
    placed: dict[tuple[str, int, int], str] = {}
    for ex in EXAMPLES.values():
        s = STRIP_SET[ex["phase"]]
        for r, (stop, column) in enumerate(zip(ex["stops"], window_of(ex))):
            for i, name in enumerate(column):
                pos = (stop + i) % 100
                assert placed.setdefault((s, r, pos), name) == name, "two examples disagree"
                cols[s][r][pos] = name
    return cols


@pytest.fixture(scope="module")
def example_set(tmp_path_factory):
    cols = example_columns()
    return str(write_set(tmp_path_factory.mktemp("examples"), base=cols["base"], bonus=cols["bonus"]))


@pytest.fixture(scope="module")
def valid_set(tmp_path_factory):
    return str(write_set(tmp_path_factory.mktemp("valid")))


def run_main(capsys, argv):
    """(exit code, stdout, stderr) of ``main(argv)`` in process."""
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def spin_argv(example_set, ex, json_out=True):
    argv = ["spin", "--set", example_set, "--stops", ",".join(map(str, ex["stops"]))]
    if ex["phase"] != "base":
        argv += ["--phase", ex["phase"][len("level"):]]
    if ex["fish"] is not None:
        argv += ["--fish", ",".join(map(str, ex["fish"]))]
    return argv + (["--json"] if json_out else [])


def assert_one_line_error(code, out, err, *words):
    assert code == 2
    assert "Traceback" not in err and "Traceback" not in out
    assert err.endswith("\n") and err.count("\n") == 1, err
    for w in words:
        assert w in err, err


# ---------------------------------------------------------------------------
# rtp spin
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("number", sorted(EXAMPLES))
def test_spin_json_reproduces_the_worked_example(capsys, example_set, number):
    ex = EXAMPLES[number]
    code, out, err = run_main(capsys, spin_argv(example_set, ex))
    assert (code, err) == (0, "")
    res = json.loads(out)
    # the JSON schema: every amount an integer number of credits
    assert {"window", "ways", "collect", "keys", "fs", "multiplier", "win"} <= set(res)
    assert res["window"] == [row.split() for row in ex["rows"]]
    assert all(type(res[k]) is int for k in ("collect", "keys", "fs", "multiplier", "win"))
    for w in res["ways"]:
        assert set(w) == {"symbol", "oak", "ways", "pay"}
        assert type(w["symbol"]) is str and all(type(w[k]) is int for k in ("oak", "ways", "pay"))
    if ex["ways"] is not None:
        assert {w["symbol"]: (w["oak"], w["ways"], w["pay"]) for w in res["ways"]} == ex["ways"]
    assert (res["collect"], res["keys"], res["fs"]) == (ex["collect"], ex["keys"], ex["fs"])
    assert res["multiplier"] == ex.get("multiplier", 1)
    if "win" in ex:
        assert res["win"] == ex["win"]
    else:   # example 9 prints no total: win = multiplier x (ways pays + collect), section 9
        assert res["win"] == res["multiplier"] * (sum(w["pay"] for w in res["ways"]) + res["collect"])


def test_spin_text_prints_window_pays_and_win(capsys, example_set):
    ex = EXAMPLES[5]                                       # collect and ways pays in one spin
    code, out, err = run_main(capsys, spin_argv(example_set, ex, json_out=False))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    fish = iter(ex["fish"])
    shown = [[f"{n}={next(fish)}" if n.startswith("FISH") else n for n in col] for col in window_of(ex)]
    for i in range(4):                                     # one line per window row, reels left to right
        row = next(line for line in lines if line.startswith(f"Row {i + 1}"))
        assert row.split()[2:] == [shown[r][i] for r in range(5)]
    assert any(line.startswith("AUS4") and "5 of a kind" in line and "ways 8" in line and "pay 32" in line
               for line in lines)
    collect = next(line for line in lines if line.startswith("collect"))
    assert "1 KEY" in collect and collect.split()[-1] == "9"
    assert next(line for line in lines if line.startswith("win")).split()[1] == "41"


def test_spin_default_fish_values_are_the_lowest(capsys, example_set):
    ex = dict(EXAMPLES[5], fish=None)                      # FISH1 x3 at its lowest value 1: collect 3
    code, out, _ = run_main(capsys, spin_argv(example_set, ex))
    res = json.loads(out)
    assert code == 0 and res["collect"] == 3 and res["win"] == 32 + 3


def test_spin_stops_wrap_around(capsys, valid_set):
    # stop 98 shows positions 98, 99, 0, 1 (section 3: the strip is a loop)
    code, out, _ = run_main(capsys, ["spin", "--set", valid_set, "--stops", "98,98,98,98,98", "--json"])
    cols = valid_columns("base")
    assert code == 0
    assert json.loads(out)["window"] == [[cols[r][p] for r in range(5)] for p in (98, 99, 0, 1)]


# ---------------------------------------------------------------------------
# bad input: exit 2, one line on stderr
# ---------------------------------------------------------------------------
STOPS_OK = "20,0,0,0,0"          # valid set: FISH1 at reel 1 row 1, no other FISH in the window

BAD_SPIN_ARGS = {
    "stops too few": (["--stops", "1,2,3,4"], "5 stop positions"),
    "stops too many": (["--stops", "1,2,3,4,5,6"], "5 stop positions"),
    "stops empty": (["--stops", ""], "5 stop positions"),
    "stop out of range": (["--stops", "0,0,0,0,100"], "reel 5"),
    "stop negative": (["--stops=-1,0,0,0,0"], "reel 1"),
    "stop negative after a space": (["--stops", "-1,0,0,0,0"], "reel 1"),
    "stops not integers": (["--stops", "a,0,0,0,0"], "--stops"),
    "stops float": (["--stops", "1.5,0,0,0,0"], "--stops"),
    "stops missing": ([], "--stops"),
    "phase unknown level": (["--stops", STOPS_OK, "--phase", "5"], "--phase"),
    "phase zero": (["--stops", STOPS_OK, "--phase", "0"], "--phase"),
    "phase word": (["--stops", STOPS_OK, "--phase", "bonus"], "--phase"),
    "fish too many": (["--stops", STOPS_OK, "--fish", "1,2"], "fish"),
    "fish too few": (["--stops", STOPS_OK, "--fish", ""], "fish"),
    "fish value not shown": (["--stops", STOPS_OK, "--fish", "4"], "FISH1"),
    "fish not integer": (["--stops", STOPS_OK, "--fish", "x"], "--fish"),
    "unknown option": (["--stops", STOPS_OK, "--frobnicate"], "--frobnicate"),
}


@pytest.mark.parametrize("case", sorted(BAD_SPIN_ARGS))
def test_spin_bad_arguments_exit_2_one_line(capsys, valid_set, case):
    args, word = BAD_SPIN_ARGS[case]
    assert_one_line_error(*run_main(capsys, ["spin", "--set", valid_set] + args), word)


@pytest.mark.parametrize("option, value", [("--stops", "1,,2,3,4,5"), ("--stops", "1,2,3,4,5,"), ("--fish", ",1")])
def test_spin_list_with_empty_entry_is_refused(capsys, valid_set, option, value):
    # '1,,2,3,4,5' must not read as 5 stops: that would evaluate a shifted window
    argv = ["spin", "--set", valid_set, "--stops", value if option == "--stops" else STOPS_OK]
    argv += [option, value] if option == "--fish" else []
    assert_one_line_error(*run_main(capsys, argv), option)


def bad_sets(root):
    """name -> (--set argument, text the error line must show)."""
    out = {}
    cols = valid_columns("base")
    cols[1][5] = "PIC9"                                   # strip position 5 of reel 2: line 7, column 2
    d = write_set(root / "unknown_symbol", base=cols)
    out["unknown symbol"] = (str(d), f"{d / 'base.csv'}:7:2: unknown symbol 'PIC9'")
    d = write_set(root / "bad_toml", game="[game]\nreels = = 5\n")
    out["malformed toml"] = (str(d), f"{d / 'game.toml'}:2:")
    d = write_set(root / "no_base")
    (d / "base.csv").unlink()
    out["missing base.csv"] = (str(d), str(d / "base.csv"))
    d = write_set(root / "latin1", bonus=csv_text(valid_columns("bonus")).encode().replace(b"PIC1", b"P\xcdC1", 1))
    out["non-utf8"] = (str(d), "not UTF-8")
    d = write_set(root / "nul", base=b"reel1,reel2\x00")
    out["nul byte"] = (str(d), "NUL")
    out["no such directory"] = (str(root / "no" / "such"), "no such directory")
    out["set is a file"] = (str(d / "base.csv"), "is a file")
    out["unknown bundled name"] = ("no_such_set", "no_such_set")
    return out


@pytest.fixture(scope="module")
def bad_set_args(tmp_path_factory):
    return bad_sets(tmp_path_factory.mktemp("bad"))


BAD_SET_NAMES = ["unknown symbol", "malformed toml", "missing base.csv", "non-utf8", "nul byte",
                 "no such directory", "set is a file", "unknown bundled name"]


@pytest.mark.parametrize("case", BAD_SET_NAMES)
@pytest.mark.parametrize("command", [["spin", "--stops", "0,0,0,0,0"], ["report"], []])
def test_bad_set_exit_2_one_line(capsys, bad_set_args, case, command):
    spec, word = bad_set_args[case]
    assert_one_line_error(*run_main(capsys, command + ["--set", spec]), word)


def test_unknown_command_exit_2(capsys):
    assert_one_line_error(*run_main(capsys, ["frobnicate"]), "unknown command", "frobnicate")


def test_unknown_top_level_option_exit_2(capsys):
    assert_one_line_error(*run_main(capsys, ["--frobnicate"]), "--frobnicate")


def test_top_level_help_exit_0(capsys):
    code, out, err = run_main(capsys, ["--help"])
    assert code == 0 and "spin" in out and "report" in out and err == ""


def test_command_help_returns_0_in_process(capsys):
    code, out, _ = run_main(capsys, ["spin", "--help"])
    assert code == 0 and "--stops" in out


# ---------------------------------------------------------------------------
# the installed console script
# ---------------------------------------------------------------------------
def rtp(*args):
    return subprocess.run([RTP, *args], capture_output=True, text=True, timeout=60)


@needs_rtp
@pytest.mark.parametrize("args, words", [(["--help"], ["spin", "report"]), (["spin", "--help"], ["--stops", "--fish"]),
                                         (["report", "--help"], ["--json", "--digits"])])
def test_console_help_exit_0(args, words):
    r = rtp(*args)
    assert r.returncode == 0 and r.stderr == ""
    assert all(w in r.stdout for w in words)


@needs_rtp
def test_console_spin_json(example_set):
    ex = EXAMPLES[2]                                       # WILD and more than one way
    r = rtp(*spin_argv(example_set, ex))
    assert r.returncode == 0 and r.stderr == ""
    res = json.loads(r.stdout)
    assert res["window"] == [row.split() for row in ex["rows"]]
    assert res["ways"] == [{"symbol": "AUS2", "oak": 5, "ways": 6, "pay": 30}] and res["win"] == 30


@needs_rtp
@pytest.mark.parametrize("args, word", [
    (["frobnicate"], "unknown command"),
    (["spin", "--stops", "0,0,0"], "5 stop positions"),
    (["spin", "--stops", "0,0,0,0,0", "--phase", "9"], "--phase"),
    (["report", "--digits", "99"], "--digits"),
])
def test_console_bad_arguments_exit_2(valid_set, args, word):
    r = rtp(*args[:1], "--set", valid_set, *args[1:]) if args[0] != "frobnicate" else rtp(*args)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and word in r.stderr and r.stdout == ""


@needs_rtp
@pytest.mark.parametrize("case", ["unknown symbol", "malformed toml", "set is a file", "unknown bundled name"])
def test_console_bad_set_exit_2(bad_set_args, case):
    spec, word = bad_set_args[case]
    r = rtp("--set", spec)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and word in r.stderr and r.stdout == ""



def test_spin_json_shows_fish_values_in_the_window_layout_and_the_free_spins(capsys):
    """Example 5 (section 8): FISH1 = 5 on reel 2 row 4, 1 on reel 3 row 2, 3 on reel 5 row 3;
    example 7 (section 10): 3 FS start 10 free spins."""
    assert main(["spin", "--stops", "91,77,51,72,58", "--fish", "5,1,3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fish_values"][3][1] == 5 and out["fish_values"][1][2] == 1 and out["fish_values"][2][4] == 3
    assert sum(v is not None for row in out["fish_values"] for v in row) == 3
    assert out["free_spins"] == 0 and out["win"] == 41
    assert main(["spin", "--stops", "1,1,19,98,5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["free_spins"] == 10
    assert main(["spin", "--stops", "1,1,19,98,5"]) == 0
    assert "10 start after this spin" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["simulate", "--rounds", "0"], "--rounds: must be 1 or more, got 0"),
    (["prove", "--workers", "0"], "--workers: must be between 1 and "),
    (["simulate", "--workers", "1000000"], "--workers: must be between 1 and "),
    (["simulate", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not allowed with argument --workers"),
    (["--digits", "51"], "--digits: must be between 0 and 50, got 51"),
    (["sensitivity", "--top", "0"], "--top: must be 1 or more, got 0"),
    (["simulate", "--seed", "x"], "--seed: must be an integer, got 'x'"),
])
def test_numeric_option_out_of_range_is_one_line_exit_2(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err
