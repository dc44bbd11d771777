"""Every command on every math set the loader accepts: an answer or a one-line refusal, never a traceback.

The sets: every bundled set under ``strips/`` (found by its ``game.toml``; an external one is assembled
from the third-party strips in ``../shared/external/``), and test sets written here that exercise each rule
beyond the rules page: retrigger (capped and not), WILD multipliers of every mode, free spins on the base
strips, scatter pays, several scatter symbols.  The commands: every entry of ``exact.cli.COMMANDS``, with
the arguments of :data:`RECIPES` (a command without a recipe runs as ``rtp COMMAND --set SET``).
"""
from __future__ import annotations

import shutil
import os
import signal
import tomllib
from pathlib import Path

import pytest

from exact.cli import COMMANDS, main
from proofs.enumerate import fast_path_takes
from proofs.exhaustive import combinations_to_enumerate
from strips.loader import GAME_FILE, load_math_set

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "external"


def bundled_sets() -> list[tuple[str, Path, Path | None]]:
    """(id, game directory under strips/, directory of its third-party strips or None)."""
    out = []
    for game in sorted((ROOT / "strips").rglob(GAME_FILE)):
        d = game.parent
        files = tomllib.loads(game.read_text()).get("strips", {}).values()
        if all((d / f).is_file() for f in files):
            out.append((d.name, d, None))
        else:
            out.append((d.name, d, SHARED / d.name.replace("_", "-")))
    return out


GAME = """\
[game]
name = "{name}"
reels = 5
rows = 3
bet = 10

[strips]
base = "base.csv"
{bonus_file}
[symbols.A]
class = "pay"
pays = [0, 0, 5, 20, 50]
[symbols.B]
class = "pay"
pays = [0, 1, 3, 10, 30]
[symbols.C]
class = "pay"
pays = [0, 0, 2, 5, 15]

[symbols.WILD]
class = "wild"
reels = {{ base = [2, 3, 4]{wild_bonus} }}
{wild_multiplier}
[symbols.STAR]
class = "scatter"
reels = {{ base = [1, 2, 3, 4, 5]{star_bonus} }}
{star_pays}
{second_scatter}
[free_spins]
strips = "{fs_strips}"
{fs_scatter}trigger = {{ 3 = 5 }}
{retrigger}
[[free_spins.levels]]
multiplier = 2
{level_weights}
"""

WHEEL_MODES = """
[jackpots]
Mini = 100

[wheel.moon]
symbol = "MOON"
tables = { 2 = "prizes" }
[wheel.moon.prizes.prizes]
awards = ["credits 20", "jackpot Mini", "free_spins 3"]
weights = [5, 1, 2]

[modes.heavy]
cost = 15
strips = { base = "heavy.csv" }
respin = { symbol = "MOON", count = 1 }

[buy.feature]
cost = 400
trigger = 3

[gamble]
min_win = 20
max_win = 2000
multiplier = 2
probability = "1/2"
"""

#: name -> options of a test set (each exercises one rule beyond the rules page)
VARIANTS = {
    "retrigger": dict(retrigger="retrigger = { 3 = 5 }"),
    "retrigger_capped": dict(retrigger="retrigger = { 3 = 5 }\nretrigger_cap = 15"),
    "wild_fixed_x2": dict(wild_multiplier="multiplier = 2"),
    "wild_drawn_per_wild": dict(wild_multiplier='multiplier = { values = [2, 3], mode = "wild", '
                                                'weights.base = [3, 1], weights.level1 = [1, 1] }',
                                level_weights='weights = "level1"', bonus=True),
    "wild_drawn_per_reel": dict(wild_multiplier='multiplier = { values = [1, 5], mode = "reel", '
                                                'weights.base = [4, 1], weights.level1 = [1, 3] }'),
    "scatter_pays": dict(star_pays="pays = [0, 2, 10, 50, 200]"),
    "two_scatters": dict(second_scatter='[symbols.MOON]\nclass = "scatter"\nreels = { base = [1, 5] }\n'
                                        'pays = [0, 0, 5]\n', fs_scatter='scatter = "STAR"\n'),
    "bonus_strips": dict(bonus=True, retrigger="retrigger = { 3 = 5 }\nretrigger_cap = 20"),
    # a Dolphin's Pearl-like line game: 5 paylines, a WILD on every reel with own pays and a combination
    # multiplier (x2 for a line using it), scatter pays, free spins x3 with retrigger
    "lines": dict(lines=True, wild_bonus="", wild_multiplier='pays = [0, 10, 25, 100, 500]\n'
                  'multiplier = { values = [2], mode = "combination" }', star_pays="pays = [0, 2, 5, 20, 100]",
                  retrigger="retrigger = { 3 = 5 }"),
    # several scatters starting different things: a prize wheel on MOON with a jackpot, a bet mode with its
    # own strips and a respin on MOON, a buy and a gamble (the rules of the bundled wheel game)
    "wheel_modes": dict(second_scatter='[symbols.MOON]\nclass = "scatter"\nreels = { base = [1, 5] }\n',
                        fs_scatter='scatter = "STAR"\n', tail=WHEEL_MODES),
}

SYMBOLS = ("A", "B", "C", "A", "B", "C", "A", "B", "B", "C", "C")


def write_variant(directory: Path, name: str) -> Path:
    """A 5x3 ways game with 11-13 stops per reel and the rule ``name`` of :data:`VARIANTS`."""
    opt = dict(bonus_file="", wild_bonus="", star_bonus="", star_pays="", second_scatter="", retrigger="",
               wild_multiplier="", level_weights="", fs_strips="base", fs_scatter="")
    v = dict(VARIANTS[name])
    line_game = v.pop("lines", False)
    tail = v.pop("tail", "")
    if v.pop("bonus", False):
        opt.update(bonus_file='bonus = "bonus.csv"\n', wild_bonus=", bonus = [2, 3, 4]",
                   star_bonus=", bonus = [1, 3, 5]", fs_strips="bonus")
    opt.update(v)
    directory.mkdir(parents=True, exist_ok=True)
    text = GAME.format(name=name, **opt) + tail
    if line_game:   # paylines, the WILD on every reel
        text = text.replace("bet = 10\n", 'bet = 5\nevaluation = "lines"\n\n[lines]\npaylines = [[2, 2, 2, 2, 2], '
                            '[1, 1, 1, 1, 1], [3, 3, 3, 3, 3], [1, 2, 3, 2, 1], [3, 2, 1, 2, 3]]\n')
        text = text.replace("reels = { base = [2, 3, 4] }", "reels = { base = [1, 2, 3, 4, 5] }")
    (directory / GAME_FILE).write_text(text)
    sets = ("base", "bonus") if "bonus.csv" in opt["bonus_file"] else ("base",)
    for strip_set in sets + (("heavy",) if "[modes.heavy]" in tail else ()):
        cols = []
        for r in range(5):
            col = [SYMBOLS[(i * (r + 2) + r) % len(SYMBOLS)] for i in range(11 + r % 3)]
            col[3] = "STAR"
            if r in (1, 2, 3) or (line_game and r in (0, 4)):
                col[7] = "WILD"
            if strip_set == "heavy":
                col[5] = "MOON" if r in (0, 4) else col[5]
            if "MOON" in opt["second_scatter"] and r in (0, 4):
                col[9] = "MOON"
            if strip_set == "bonus" and r not in (0, 2, 4):
                col[3] = "C"
            cols.append(col)
        lines = [",".join(f"reel{i + 1}" for i in range(5))]
        lines += [",".join(c[i] if i < len(c) else "" for c in cols) for i in range(max(map(len, cols)))]
        (directory / f"{strip_set}.csv").write_text("\n".join(lines) + "\n")
    return directory


def recipes(d: str, ms, out: Path) -> dict[str, list[list[str]]]:
    """Command -> argument lists to run on the set in directory (or bundled name) ``d``."""
    # --exhaustive where it takes seconds: the fast path (ways games) up to 2 x 10^8 combinations, the
    # generic path (every other game, about 10^6 windows/s) up to 4 x 10^6
    n = combinations_to_enumerate(ms)
    small = n <= (2 * 10 ** 8 if fast_path_takes(ms) else 4 * 10 ** 6)
    zeros = ",".join("0" for _ in range(ms.model.reels))
    return {
        "report": [["--set", d], ["--set", d, "--json"]],
        "spin": [["--set", d, "--stops", zeros]] + [["--set", d, "--stops", zeros, "--phase", "1"]] * bool(ms.model.levels),
        "check": [["--set", d]],
        "chain": [["--set", d, "--json"]],
        "prove": [["--set", d, "--rounds", "20000", "--workers", "1", "--out", str(out / "cert.md"),
                   "--checkpoint-dir", str(out / "ck")] + (["--exhaustive"] if small else [])],
        "simulate": [["--set", d, "--rounds", "20000", "--workers", "1", "--json"]],
        "diff": [[d, d]],
        "sensitivity": [["--set", d, "--top", "3"]],
        "export": [["--set", d, "--csv", str(out / "csv")]],
    }


def math_sets(tmp: Path) -> list[tuple[str, str]]:
    out = []
    for name, d, shared in bundled_sets():
        if shared is None:
            out.append((name, str(d)))
        elif shared.is_dir():
            target = tmp / name
            target.mkdir(parents=True)
            shutil.copy(d / GAME_FILE, target / GAME_FILE)
            for f in shared.glob("*.csv"):
                shutil.copy(f, target / f.name)
            out.append((name, str(target)))
    for name in VARIANTS:
        out.append((name, str(write_variant(tmp / name, name))))
    return out


#: Seconds one command may take on one of these small sets before it counts as a hang.
TIME_LIMIT = 120

#: (command, set) -> why it is not run: known failures of commands this test does not own, reported to
#: their owners; the test of the command is marked xfail with the reason while any remain.
KNOWN: dict = {}

#: (command, set) pairs that take 20 s to a minute each (their whole-round distribution; the
#: endless retrigger of the external game): run with RTP_SLOW=1, left out of the default run to keep it
#: under CI's 10 minutes (comply on these sets is tested with --no-distribution elsewhere).
SLOW = {("comply", "rules_page")}   # the bundled round distribution: 20 s (African Simba's: under 2 s, by the cycle lemma)
# Gonzo's Quest: 50,722,560 stop combinations with cascades, enumerated (about 40 s each, above the default
# enumeration limit of 2 x 10^7: by default a one-line refusal); its figures: tests/test_external_cascade.py
SLOW |= {(c, "gonzos_quest") for c in COMMANDS if c != "spin"}


class Hang(Exception):
    """A command ran longer than TIME_LIMIT."""


def _alarm(signum, frame):
    raise Hang()


def _run(argv, capsys):
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    try:
        code = main(argv)  # a traceback is an exception escaping main: the test fails with it
    except Hang:
        code = "hang"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_on_every_math_set(command, tmp_path, capsys):
    failures, known = [], []
    for name, d in math_sets(tmp_path / "sets"):
        if (command, name) in SLOW and not os.environ.get("RTP_SLOW"):
            continue
        if (command, name) in KNOWN:
            known.append(KNOWN[(command, name)])
            continue
        ms = load_math_set(d)
        out = tmp_path / "out" / name
        out.mkdir(parents=True)
        for args in recipes(d, ms, out).get(command, [["--set", d]]):
            code, stdout, err = _run([command] + args, capsys)
            if code == "hang":
                failures.append(f"{name}: rtp {command}: no answer within {TIME_LIMIT} s")
                continue
            if code not in (0, 1, 2):
                failures.append(f"{name}: rtp {command}: exit {code}")
            if code == 2 and len(err.strip().splitlines()) != 1:
                failures.append(f"{name}: rtp {command}: refusal is not one line: {err!r}")
            # these commands model every rule of the ways games (issue 17); the rules of issue 15 (paylines,
            # several scatters counted apart, ...) they may refuse, by name, in one line
            if command in ("prove", "simulate", "report", "chain", "spin", "diff", "export") and code == 2 and \
                    not (ms.model.catalogue_rule and "unsupported rule" in err):
                failures.append(f"{name}: rtp {command} refused: {err.strip()}")
    assert failures == []
    if known:
        pytest.xfail("; ".join(known))


def test_the_variants_load_and_carry_their_rule(tmp_path):
    sets = dict(math_sets(tmp_path))
    m = {name: load_math_set(sets[name]).model for name in VARIANTS}
    assert m["retrigger"].retrigger and m["retrigger"].retrigger_cap is None
    assert m["retrigger_capped"].retrigger_cap == 15
    assert m["wild_fixed_x2"].has_wild_multipliers
    assert m["wild_drawn_per_reel"].symbol("WILD").multiplier.mode == "reel"
    assert m["wild_drawn_per_wild"].free_spin_strips == "bonus"
    assert m["scatter_pays"].scatter_pay(3) == 10
    assert len(m["two_scatters"].of_kind("scatter")) == 2
    assert "rules_page" in sets
