"""Fuzz the loader and the commands with hostile game files and CSVs (never a traceback).

Every run of the command line, in-process through ``main(argv)``, ends with
exit 0, 1 or 2; exit 2 prints exactly one line; no exception escapes.  The
inputs start from a small valid set and are mutated: a line replaced by
random text, an integer replaced by an extreme one, random bytes inserted, a
random CSV grid, escape and look-alike characters in names.  The default run
is small; ``HYPOTHESIS_PROFILE=thorough`` runs hundreds of examples (opt-in).
The memory bound is the limits' job (tests/test_limits.py); here every
example also runs under the default limits, so none can grow without bound.

Every command on mutated copies of each bundled set (tests/gen_fuzz.py: types,
signs, extreme numbers, huge spin counts, awards and thresholds, encodings,
look-alike names, damaged strip rows and published figures), each run bounded
at 20 s of CPU time and 1 GiB of address space: :data:`DEFAULT_SEEDS` in the default run,
``FUZZ_RUNS`` (default 1,000) seeds in the opt-in long run
(``python -m pytest -m slow tests/test_fuzz_inputs.py``).
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from exact.cli import main
from generators import three_reel_game
from gen_fuzz import fuzz_case, run_case

EXAMPLES = 30 if os.environ.get("HYPOTHESIS_PROFILE", "default") == "default" else 500
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

GAME = three_reel_game("fuzz", 2, title="Fuzz game") + """[symbols.W]
class = "wild"
reels = { base = [2, 3], bonus = [2, 3] }
[symbols.K]
class = "key"
reels = { base = [1, 2], bonus = [1, 2] }
[symbols.S]
class = "scatter"
reels = { base = [1, 2, 3] }
[symbols.F]
class = "fish"
reels = { base = [1, 2, 3], bonus = [1, 2, 3] }
values = [1, 5]
weights.base = [3, 1]
weights.level1 = [1, 1]
weights.level2 = [1, 2]
[free_spins]
strips = "bonus"
trigger = { 3 = 4 }
retrigger = false
[[free_spins.levels]]
multiplier = 1
weights = "level1"
[[free_spins.levels]]
threshold = 2
spins = 3
multiplier = 2
weights = "level2"
"""
BASE = "reel1,reel2,reel3\nA,B,A\nK,W,S\nB,A,F\nS,A,B\nF,S,A\nA,K,B\n"
BONUS = "reel1,reel2,reel3\nA,B,A\nK,W,F\nB,A,B\nF,K,A\n"
SYMBOLS = ["A", "B", "W", "K", "S", "F", "", " A", "Z", "\u0410", "A\x1b[2J", '"', "HOOK"]
EXTREME_INTS = [0, -1, 1, 2, 7, 999, 10 ** 6, 10 ** 12, 10 ** 13, 2 ** 63, 10 ** 18, 10 ** 200]
COMMANDS = [[], ["chain"], ["spin", "--stops", "0,0,0"], ["simulate", "--rounds", "200", "--workers", "1"],
            ["diff", "rules_page"], ["sensitivity"]]


def run(files: dict[str, bytes], command: list[str]) -> tuple[int, str]:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "set"
        d.mkdir()
        for name, data in files.items():
            (d / name).write_bytes(data)
        argv = (["diff", str(d), "rules_page"] if command[:1] == ["diff"] else command + ["--set", str(d)])
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    return code, err.getvalue()


def check(code: int, err: str) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err, err
    if code == 2:
        assert err.count("\n") == 1, err


@st.composite
def mutated_game(draw) -> str:
    lines = GAME.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["line", "int", "insert", "name"]))
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "line":
            lines[i] = draw(st.text(max_size=40))
        elif kind == "int":
            nums = list(re.finditer(r"\d+", lines[i]))
            if nums:
                m = draw(st.sampled_from(nums))
                lines[i] = lines[i][:m.start()] + str(draw(st.sampled_from(EXTREME_INTS))) + lines[i][m.end():]
        elif kind == "insert":
            lines.insert(i, draw(st.sampled_from([
                "[symbols.X]", 'class = "pay"', "pays = [0, 0, 1]", "x = " + "[" * 400 + "]" * 400,
                'title = "\\u001b]0;t\\u0007"', "[[free_spins.levels]]", "retrigger_cap = 5",
                "aliases = [\"\u0410\"]", "[strips]", 'bonus = "base.csv"', "y = 1" + "0" * 5000])))
        else:
            lines[i] = lines[i].replace("A", draw(st.sampled_from(["\u0410", "A\\u001b", "AA", ""])), 1)
    return "\n".join(lines) + "\n"


@st.composite
def grid_csv(draw) -> str:
    reels = draw(st.integers(1, 4))
    rows = draw(st.integers(0, 8))
    header = ",".join(f"reel{j + 1}" for j in range(reels))
    body = [",".join(draw(st.lists(st.sampled_from(SYMBOLS), min_size=reels, max_size=reels))) for _ in range(rows)]
    return "\n".join([header] + body) + "\n"


@SETTINGS
@given(game=mutated_game(), command=st.sampled_from(COMMANDS))
def test_mutated_game_files_end_in_exit_0_1_2(game, command):
    check(*run({"game.toml": game.encode("utf-8", "surrogatepass"), "base.csv": BASE.encode(),
                "bonus.csv": BONUS.encode()}, command))


@SETTINGS
@given(base=st.one_of(grid_csv(), st.text(max_size=200)), command=st.sampled_from(COMMANDS[:3]))
def test_random_strip_files_end_in_exit_0_1_2(base, command):
    check(*run({"game.toml": GAME.encode(), "base.csv": base.encode("utf-8", "surrogatepass"),
                "bonus.csv": BONUS.encode()}, command))


@SETTINGS
@given(data=st.binary(max_size=300), which=st.sampled_from(["game.toml", "base.csv"]), at=st.integers(0, 2000))
def test_random_bytes_end_in_exit_0_1_2(data, which, at):
    files = {"game.toml": GAME.encode(), "base.csv": BASE.encode(), "bonus.csv": BONUS.encode()}
    old = files[which]
    files[which] = old[:at] + data + old[at:]
    check(*run(files, []))


def test_the_fuzz_base_set_is_valid():
    """The starting point loads and reports, so the mutations test refusals of real inputs."""
    code, err = run({"game.toml": GAME.encode(), "base.csv": BASE.encode(), "bonus.csv": BONUS.encode()}, [])
    assert code == 0, err


# ---------------------------------------------------------------------------
# every command on mutated copies of each bundled set
# ---------------------------------------------------------------------------
#: Fixed seeds of the default run (a few seconds in all: 1002, a 6 s exhaustive-free proof of a valid set, is
#: left to the long run); the long run takes seeds 0 .. FUZZ_RUNS - 1.
DEFAULT_SEEDS = tuple(s for s in range(1000, 1025) if s != 1002)


def check_case(seed: int, tmp: Path) -> str | None:
    """None when the run of ``seed`` passes, else what went wrong (one line)."""
    case, files = fuzz_case(seed)
    code, err, kept = run_case(case, files, tmp)
    what = f"seed {seed}: {case.set_name} {list(case.mutations)} rtp {' '.join(case.command)[:60]}"
    if not kept:
        return f"{what}: past 20 s of CPU or 1 GiB ({err.strip()[-200:]!r})"
    if code not in (0, 1, 2) or "Traceback" in err or (code == 2 and err.count("\n") != 1):
        return f"{what}: exit {code}, stderr {err[-300:]!r}"
    return None


@pytest.mark.parametrize("seed", DEFAULT_SEEDS)
def test_every_command_on_a_mutated_bundled_set(seed, tmp_path):
    assert check_case(seed, tmp_path) is None


@pytest.mark.slow
def test_long_fuzz_of_every_command_on_mutated_bundled_sets(tmp_path):
    """The opt-in long run: FUZZ_RUNS (default 1,000) seeds; every failure listed."""
    runs = int(os.environ.get("FUZZ_RUNS", "1000"))
    failures = [f for f in (check_case(seed, tmp_path) for seed in range(runs)) if f is not None]
    assert failures == [], "\n".join(failures)
