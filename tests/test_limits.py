"""Input bounds checked before any work, one-line errors and display sanitising.

Every bound: the refusal is exit 2, one line, naming the option that raises
it; ``--no-limits`` (or the ``--max-...`` option) lifts it.  The extreme
inputs of the reliability probe are refused in one line even with the
limits lifted.  (Refusals are immediate by construction; timing is measured
in benchmarks, never asserted here.)
"""
from __future__ import annotations

import doctest
import json
import os
import shutil
from pathlib import Path

import pytest

import exact.cli
import exact.cli.outputs
import strips.display
import strips.limits
from exact.cli import main
from strips.display import printable, skeleton
from strips.limits import NO_LIMITS, Limits, using
from strips.loader import bundled_path, load_math_set

TINY_GAME = """\
[game]
reels = 3
rows = 1
bet = 1
[strips]
base = "base.csv"
[symbols.A]
class = "pay"
pays = [0, 0, 5]
[symbols.B]
class = "pay"
pays = [0, 1, 2]
[symbols.S]
class = "scatter"
reels = { base = [1, 2, 3] }
[free_spins]
strips = "base"
trigger = { 3 = 10 }
retrigger = { 3 = 10 }
retrigger_cap = 100
[[free_spins.levels]]
multiplier = 2
"""
TINY_STRIPS = "reel1,reel2,reel3\nA,A,B\nS,S,S\nB,A,A\nA,B,A\n"


def rules_page_copy(tmp_path) -> Path:
    d = tmp_path / "set"
    shutil.copytree(bundled_path("rules_page"), d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__", "*.md"))
    return d


def tiny(tmp_path, game: str = TINY_GAME, strips: str = TINY_STRIPS, name: str = "tiny") -> Path:
    d = tmp_path / name
    d.mkdir(exist_ok=True)
    (d / "game.toml").write_text(game, encoding="utf-8")
    (d / "base.csv").write_text(strips, encoding="utf-8")
    return d


def edit_game(d: Path, old: str, new: str) -> None:
    g = (d / "game.toml").read_text(encoding="utf-8")
    assert old in g, old
    (d / "game.toml").write_text(g.replace(old, new), encoding="utf-8")


def refused(capsys, argv, *needles) -> str:
    """Run the CLI in-process: exit 2, exactly one line on stderr holding every needle."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in err, (n, err)
    return err


# --------------------------------------------------------------------------
# each bound: refused in one line naming its option, lifted by the option and by --no-limits
# --------------------------------------------------------------------------
def test_rows(tmp_path, capsys):
    d = rules_page_copy(tmp_path)
    edit_game(d, "rows = 4 ", "rows = 50000 ")
    refused(capsys, ["--set", str(d)], "game.toml:", "50,000 rows", "--max-rows", "--no-limits")


def test_reels(tmp_path, capsys):
    d = rules_page_copy(tmp_path)
    edit_game(d, "reels = 5 ", "reels = 13 ")
    refused(capsys, ["--set", str(d)], "13 reels", "--max-reels")


def test_symbols(tmp_path, capsys):
    d = rules_page_copy(tmp_path)
    extra = "".join(f'\n[symbols.X{i}]\nclass = "pay"\npays = [0, 0, 1, 2, 3]\n' for i in range(10_000))
    (d / "game.toml").write_text((d / "game.toml").read_text() + extra)
    refused(capsys, ["--set", str(d)], "symbols, more than the limit of 128", "--max-symbols")


def test_stops(tmp_path, capsys):
    d = tiny(tmp_path, strips="reel1,reel2,reel3\n" + "A,B,S\n" * 10_001)
    refused(capsys, ["--set", str(d)], "10,000 stops", "--max-stops")
    assert main(["--set", str(d), "--max-stops", "20000"]) == 0
    assert main(["--set", "rules_page", "--max-stops", "50"]) == 2


def test_file_size(tmp_path, capsys):
    d = rules_page_copy(tmp_path)
    (d / "game.toml").write_text((d / "game.toml").read_text() + "#" * (4 * 1024 * 1024) + "\n")
    refused(capsys, ["--set", str(d)], "game.toml", "--max-file-bytes")
    capsys.readouterr()
    assert main(["--set", str(d), "--no-limits"]) == 0


def test_strip_file_linked_to_dev_zero(tmp_path, capsys):
    d = rules_page_copy(tmp_path)
    (d / "base.csv").unlink()
    (d / "base.csv").symlink_to("/dev/zero")
    refused(capsys, ["--set", str(d)], "base.csv", "character device")
    refused(capsys, ["--set", str(d), "--no-limits"], "character device")


@pytest.mark.parametrize("name", ["base.csv", "game.toml"])
def test_fifo_input_is_refused_not_read(tmp_path, capsys, name):
    d = rules_page_copy(tmp_path)
    (d / name).unlink()
    os.mkfifo(d / name)
    refused(capsys, ["--set", str(d), "--no-limits"], name, "FIFO")


def test_dangling_game_file_is_refused_not_replaced_by_the_bundled_game(tmp_path, capsys):
    d = rules_page_copy(tmp_path)
    (d / "game.toml").unlink()
    (d / "game.toml").symlink_to(tmp_path / "missing.toml")
    refused(capsys, ["--set", str(d)], "game.toml")


@pytest.mark.parametrize("old,new", [
    ("trigger = { 3 = 10, 4 = 15, 5 = 20 }", "trigger = { 3 = 1000000, 4 = 15, 5 = 20 }"),
    ("threshold = 9\nspins = 8", "threshold = 9\nspins = 5000"),
])
def test_spins(tmp_path, capsys, old, new):
    d = rules_page_copy(tmp_path)
    edit_game(d, old, new)
    refused(capsys, ["chain", "--set", str(d)], "free spins", "--max-spins")


def test_retrigger_spins(tmp_path, capsys):
    d = tiny(tmp_path, TINY_GAME.replace("retrigger = { 3 = 10 }", "retrigger = { 3 = 100000 }"))
    refused(capsys, ["--set", str(d)], "--max-spins")


def test_threshold(tmp_path, capsys):
    d = rules_page_copy(tmp_path)
    edit_game(d, "threshold = 9\n", "threshold = 5000\n")
    refused(capsys, ["--set", str(d)], "threshold", "--max-threshold")
    edit_game(d, "threshold = 5000\n", "threshold = 1000000000000000000\n")
    refused(capsys, ["--set", str(d)], "--max-digits")


def test_retrigger_cap(tmp_path, capsys):
    d = tiny(tmp_path, TINY_GAME.replace("retrigger_cap = 100", "retrigger_cap = 10000"))
    refused(capsys, ["chain", "--set", str(d)], "retrigger cap", "--max-retrigger-cap")
    d = tiny(tmp_path)
    assert main(["chain", "--set", str(d)]) == 0


def test_chain_work_estimate(tmp_path, capsys):
    """Each of spins and threshold within its limit, their chain together too large: refused up front."""
    d = rules_page_copy(tmp_path)
    edit_game(d, "trigger = { 3 = 10, 4 = 15, 5 = 20 }", "trigger = { 3 = 1000, 4 = 15, 5 = 20 }")
    edit_game(d, "threshold = 9\n", "threshold = 1000\n")
    refused(capsys, ["--set", str(d)], "free-spin chain", "--max-chain-work")


def test_exhaustive_combinations(capsys):
    # every strip set the game plays: the base game's 10^10 and the free-spin strips' 10^10 (one pass sums
    # the collect of each level's own FISH table)
    refused(capsys, ["prove", "--exhaustive", "--rounds", "0", "--max-combinations", "1000"],
            "20,000,000,000 stop combinations", "--max-combinations")


def test_integer_digits(tmp_path, capsys):
    d = rules_page_copy(tmp_path)
    edit_game(d, "pays = [0, 0, 5, 15, 50]", "pays = [0, 0, 5, 15, 10000000000000]")
    err = refused(capsys, ["--set", str(d)], "14 digits", "--max-digits")
    assert "game.toml:" in err


@pytest.mark.parametrize("lifted", [[], ["--no-limits"]])
def test_integer_of_100000_digits(tmp_path, capsys, lifted):
    d = rules_page_copy(tmp_path)
    edit_game(d, "bet = 10 ", "bet = 1" + "0" * 100_000 + " ")
    err = refused(capsys, ["--set", str(d)] + lifted, "game.toml", "100,001 digits in an integer")
    assert len(err) < 600
    assert "sys." not in err and "4300" not in err      # the project's words, not Python's
    assert ("--max-digits" in err) == (not lifted)


@pytest.mark.parametrize("text", ["x = " + "[" * 1000 + "]" * 1000, "x = " + "{a=" * 1000 + "1" + "}" * 1000,
                                  "x = " + "[" * 20 + "]" * 20])
@pytest.mark.parametrize("lifted", [[], ["--no-limits"]])
def test_toml_nested_deep(tmp_path, capsys, text, lifted):
    d = rules_page_copy(tmp_path)
    (d / "game.toml").write_text(text + "\n" + (d / "game.toml").read_text())
    refused(capsys, ["--set", str(d)] + lifted, "game.toml")


def test_nul_in_a_strip_file_name(tmp_path, capsys):
    d = rules_page_copy(tmp_path)
    edit_game(d, 'base = "base.csv"', 'base = "ba\\u0000se.csv"')
    refused(capsys, ["--set", str(d)], "game.toml", "strips.base")


def test_pay_of_10_to_200(tmp_path, capsys):
    d = rules_page_copy(tmp_path)
    edit_game(d, "pays = [0, 0, 5, 15, 50]", f"pays = [0, 0, 5, 15, {10 ** 200}]")
    refused(capsys, ["--set", str(d)], "--max-digits")
    refused(capsys, ["--set", str(d), "--no-limits"], "too large")


def test_pays_above_int64_in_the_proofs_name_an_option(tmp_path, capsys):
    # (a pay of 999,999,999,999 is now enumerated exactly in smaller blocks: tests/test_int64_overflow.py)
    d = rules_page_copy(tmp_path)
    edit_game(d, "pays = [0, 0, 5, 15, 50]", f"pays = [0, 0, 5, 15, {10 ** 17}]")
    err = refused(capsys, ["prove", "--set", str(d), "--exhaustive", "--rounds", "0", "--workers", "1",
                           "--no-limits"], "int64", "--exhaustive")
    assert "CHUNK" not in err
    for argv, option in ((["prove", "--rounds", "100"], "--rounds 0"), (["simulate", "--rounds", "100"], "rtp report")):
        err = refused(capsys, argv + ["--set", str(d), "--workers", "1", "--no-limits"], "int64", option)
        assert "CHUNK" not in err


def test_limits_api():
    assert strips.limits.active() == Limits()
    with using(NO_LIMITS):
        assert strips.limits.active().rows is None
        with using(Limits().but(rows=2)):
            assert strips.limits.exceeds("rows", 3) == 2
    assert strips.limits.exceeds("rows", 3) is None


def test_library_load_obeys_the_active_limits():
    with using(Limits().but(stops=50)):
        with pytest.raises(ValueError, match="--max-stops"):
            load_math_set("rules_page")
    assert load_math_set("rules_page").strips["base"].reels


# --------------------------------------------------------------------------
# one-line errors cut to a readable length; display without control characters
# --------------------------------------------------------------------------
def test_huge_error_is_cut_with_a_count(tmp_path, capsys):
    d = tiny(tmp_path, strips="reel1,reel2,reel3\nA,A,B\nS,S," + "Z" * 100_000 + "\nB,A,A\n")
    err = refused(capsys, ["--set", str(d)], "unknown symbol", "more characters")
    assert len(err) < 600


def test_title_escapes_never_reach_the_terminal(tmp_path, capsys):
    d = rules_page_copy(tmp_path)
    edit_game(d, 'title = "Rules-page game', 'title = "\\u001b]0;owned\\u0007\\u001b[2JRules-page\\u202e game')
    assert main(["--set", str(d)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out and "Rules-page game" in out


def test_control_character_in_a_symbol_name_is_refused(tmp_path, capsys):
    d = tiny(tmp_path, TINY_GAME.replace("[symbols.B]", '[symbols."B\\u001b[31m"]'),
             TINY_STRIPS.replace("B", "B\x1b[31m"))
    err = refused(capsys, ["--set", str(d)], "control or invisible character")
    assert "\x1b" not in err


def test_cyrillic_lookalike_symbol_name_is_a_finding(tmp_path, capsys):
    d = tiny(tmp_path, TINY_GAME.replace("[symbols.B]", "[symbols.\"\u0410\"]").replace("[symbols.A]", "[symbols.AA]"),
             TINY_STRIPS.replace("A", "AA").replace("B", "\u0410"))
    d2 = tiny(tmp_path, TINY_GAME + '[symbols."\u0410"]\nclass = "pay"\npays = [0, 0, 1]\n', name="tiny2")
    assert main(["--set", str(d2), "--json"]) == 0
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert any("not plain ASCII" in f and "CYRILLIC CAPITAL LETTER A" in f for f in findings), findings
    assert any("looks like 'A'" in f for f in findings), findings
    assert main(["--set", str(d), "--json"]) == 0
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert any("not plain ASCII" in f for f in findings) and not any("looks like" in f for f in findings)


def test_bundled_sets_have_no_name_findings():
    assert not [f for f in load_math_set("rules_page").findings if "symbol name" in f.message]


def test_skeletons():
    assert skeleton("\u0410US1") == skeleton("AUS1") == skeleton("AUSl") == skeleton("\uff21US1")
    assert skeleton("PIC1") != skeleton("PIC2")
    assert printable("a\x1b[1mb\x00c\u200bd") == "abcd"


@pytest.mark.parametrize("module", [strips.limits, strips.display, exact.cli.outputs, exact.cli])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def test_sensitivity_edit_work(tmp_path, capsys):
    """rtp sensitivity estimates its strip-edit work up front (edits x rows) and refuses beyond the limit."""
    from exact.sensitivity import edit_work
    from strips.loader import load_math_set
    d = rules_page_copy(tmp_path)
    ms = load_math_set(str(d))
    work = edit_work(ms)
    # every position of every reel of both strip sets, each other symbol its reel allows, x 4 rows
    assert work == 4 * sum(1 for name in ("base", "bonus") for r, c in enumerate(ms.strips[name].codes)
                           for _ in c for s in ms.model.symbols if s.allowed_on(name, r)) - 4 * 1000
    refused(capsys, ["sensitivity", "--set", str(d), "--max-edit-work", str(work - 1)],
            f"{work:,} strip edits x window rows", "--max-edit-work")


def test_digits_name_the_element_of_an_array_of_tables(tmp_path, capsys):
    """The first integer too long in the file's order, named by its [[array]] element and found at its line."""
    d = rules_page_copy(tmp_path)
    g = (d / "game.toml").read_text(encoding="utf-8")
    # no other integer of the bundled game has 5 digits: level 3's multiplier, written after level 1's
    edit_game(d, "spins = 8\nmultiplier = 5\n", "spins = 8\nmultiplier = 50000\n")
    g = (d / "game.toml").read_text(encoding="utf-8")
    line = g.splitlines().index("multiplier = 50000") + 1
    err = refused(capsys, ["--set", str(d), "--max-digits", "4"], "--max-digits")
    assert f"game.toml:{line}:1: free_spins.levels[3].multiplier: 5 digits" in err, err


# ---- the capped retrigger's work (African Simba with retrigger_cap = 1000 ran past 480 s, admitted)
SIMBA_STRIPS = Path(__file__).resolve().parents[2] / "shared" / "external" / "african-simba" / "base.csv"
SIMBA_GAME = Path(__file__).resolve().parents[1] / "strips" / "external" / "african_simba" / "game.toml"


def simba_with_cap(tmp_path, cap: int) -> Path:
    d = tmp_path / f"simba_{cap}"
    d.mkdir()
    text = SIMBA_GAME.read_text(encoding="utf-8")
    assert "retrigger = { 3 = 12 }" in text
    (d / "game.toml").write_text(text.replace("retrigger = { 3 = 12 }", f"retrigger_cap = {cap}\nretrigger = {{ 3 = 12 }}", 1),
                                 encoding="utf-8")
    shutil.copyfile(SIMBA_STRIPS, d / "base.csv")
    return d


@pytest.mark.skipif(not SIMBA_STRIPS.is_file(), reason=f"third-party strips not found at {SIMBA_STRIPS}")
def test_a_retrigger_cap_the_default_limit_admitted_for_minutes_is_refused_up_front(tmp_path, capsys):
    """African Simba with retrigger_cap = 1000 (the default --max-retrigger-cap): refused in one line at the
    game file's retrigger_cap key, naming --max-chain-work; cap 100 loads; --max-chain-work lifts it."""
    d = simba_with_cap(tmp_path, 1000)
    err = refused(capsys, ["--set", str(d)], "free-spin chain", "--max-chain-work", "retrigger_cap = 1,000")
    assert "game.toml:" in err
    with pytest.raises(Exception, match="--max-chain-work"):
        load_math_set(str(d))
    with using(Limits(chain_work=None)):
        assert load_math_set(str(d)).model.retrigger_cap == 1000
    assert load_math_set(str(simba_with_cap(tmp_path, 100))).model.retrigger_cap == 100


@pytest.mark.parametrize("seed", range(6))
def test_awarded_totals_hold_every_reachable_state_of_the_chain(seed):
    """Oracle: the chain's own reachable states (markov.retrigger) all lie on the estimate's awarded totals,
    and the estimate's state count (sum of the totals) bounds their number."""
    import random
    from fractions import Fraction
    from markov.moments import CountSplit
    from markov.retrigger import RetriggerChain
    rng = random.Random(seed)
    k = rng.randint(2, 5)
    probs = [Fraction(1, k)] * k
    extra = tuple([0] + [rng.choice([0, 1, 2, 3, 5, 12]) for _ in range(k - 1)])
    cap = rng.randint(5, 60)
    starts = sorted({rng.randint(1, cap) for _ in range(2)})
    zero = tuple(Fraction(0) for _ in probs)
    chain = RetriggerChain(CountSplit(tuple(probs), zero, zero), extra, cap=cap)
    states = chain.reachable(starts)
    totals = strips.limits.awarded_totals(starts, list(extra), cap)
    assert {left + played for left, played in states} <= set(totals)
    assert len(states) <= sum(totals)


def test_retrigger_work_grows_with_the_cap_the_spins_and_the_bits():
    w = strips.limits.retrigger_work
    base = w([12], [12], 400, 31, 4, 27)
    assert w([12], [12], 800, 31, 4, 27) > 8 * base          # cubic and worse in the cap
    assert w([12], [6], 400, 31, 4, 27) > 1.5 * base          # more awarded totals with fewer spins per retrigger
    assert w([12], [12], 400, 31, 8, 27) == 2 * base or abs(w([12], [12], 400, 31, 8, 27) - 2 * base) <= 1
    assert w([12], [12], 400, 31, 4, 54) > 3 * base           # numbers of twice the bits
@pytest.mark.parametrize("command", ["simulate", "prove"])
def test_simulated_rounds(capsys, command):
    """10^22 rounds (accepted before, and 10^13 held 1.7 GB of task tuples before any output): refused."""
    refused(capsys, [command, "--rounds", str(10**22)], "10,000,000,000,000,000,000,000 simulated game rounds",
            "--max-rounds")
