"""Shared test data: the small games, generated math sets and literal helpers several test modules use.

Not a test module (no tests here): test modules import their shared generators from
here, never from another test module (tests/test_layers.py checks it).
"""
from __future__ import annotations

import contextlib
import dataclasses
import io
import itertools
import random
from dataclasses import dataclass
from fractions import Fraction, Fraction as F
from math import prod
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

from exact.cli import main
from exact.engine import analyse
from exact.evaluator import evaluate, wild_draws
from exact.sensitivity import sensitivity
from exact.variants import allowed_edits, exact_rtp, with_strips
from markov.moments import CountSplit, PhaseAnalysis, spin_parts
from markov.round import round_result
from strips.loader import GAME_FILE, bundled_path, load_math_set, parse_game, resolve
from strips.model import FISH, Phase, Symbol, WildMultiplier

from mathset_files import csv_text, write_set
from oracle import make_set, small_fish_model
from exact.rules import combination_wilds
import exact
from exact.comply import comply, load_rules
from exact.export import par_sheets
from exact.variants import tune


#: analysis -> its API entry point on a math set (each must refuse exactly what supports() refuses)
API_CALLS = {
    "report": lambda ms: exact.par_sheet(ms),
    "distribution": lambda ms: exact.win_distribution(ms),
    "sensitivity": lambda ms: sensitivity(ms),
    "tune": lambda ms: tune(ms, Fraction(9, 10)),
    "comply": lambda ms: comply(ms, load_rules()),
    "export": lambda ms: par_sheets(exact.par_sheet(ms), ms),
}


# ---- from test_proofs_sets.py --------------------------------------------

_GAME = bundled_path("rules_page") / GAME_FILE


MODEL = parse_game(_GAME.read_bytes(), str(_GAME))


def allowed(strip_set: str, reel: int) -> list[str]:
    """Symbols the bundled game allows on 0-based ``reel`` of ``strip_set``."""
    return [s.name for s in MODEL.symbols if s.allowed_on(strip_set, reel)]


def write_random_set(directory: Path, seed: int, lengths=(7, 8, 9, 10, 6), special_share: float = 0.35,
                     bonus_lengths=None) -> Path:
    """Write a random math set (base.csv, bonus.csv, the bundled game.toml) into ``directory``; returns the directory."""
    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    for strip_set, lens in (("base", lengths), ("bonus", bonus_lengths or lengths)):
        cols = []
        for r, n in enumerate(lens):
            names = allowed(strip_set, r)
            pays = [x for x in names if not MODEL.symbol(x).is_special]
            specials = [x for x in names if MODEL.symbol(x).is_special]
            col = [rng.choice(specials) if specials and rng.random() < special_share else rng.choice(pays)
                   for _ in range(n)]
            if n >= len(specials) + 3:
                for x, i in zip(specials, rng.sample(range(n), len(specials))):
                    col[i] = x  # each allowed special at least once per reel
            cols.append(col)
        lines = [",".join(f"reel{i + 1}" for i in range(len(lens)))]
        for i in range(max(lens)):
            lines.append(",".join(c[i] if i < len(c) else "" for c in cols))
        (directory / f"{strip_set}.csv").write_text("\n".join(lines) + "\n")
    if not (directory / GAME_FILE).exists():
        (directory / GAME_FILE).write_bytes(_GAME.read_bytes())
    return directory


def random_set(directory: Path, seed: int, **kw):
    """Load a freshly written random math set."""
    return load_math_set(str(write_random_set(directory, seed, **kw)))


# ---- from test_report.py -------------------------------------------------

def run(argv) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``rtp argv`` in process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------------------
# the whole round against brute force, on a tiny game
# ---------------------------------------------------------------------------
TINY_GAME = """
[game]
name = "tiny"
reels = 5
rows = 2
bet = 10

[strips]
base = "base.csv"
bonus = "bonus.csv"

[symbols.PIC1]
class = "pay"
pays = [0, 0, 5, 10, 20]
[symbols.AUS1]
class = "pay"
pays = [0, 1, 2, 3, 4]
[symbols.WILD]
class = "wild"
reels = { base = [2, 3, 4, 5] }
[symbols.KEY]
class = "key"
aliases = ["HOOK"]
reels = { base = [1, 2, 3], bonus = [1, 2, 3] }
[symbols.FS]
class = "scatter"
reels = { base = [1, 2, 3, 4, 5] }
[symbols.FISH1]
class = "fish"
reels = { base = [1, 2, 3, 4, 5], bonus = [1, 2, 3, 4, 5] }
values = [1, 5]
weights.base = [3, 1]
weights.level1 = [1, 1]
weights.level2 = [1, 3]

[free_spins]
strips = "bonus"
trigger = { 2 = 1, 3 = 2 }

[[free_spins.levels]]
multiplier = 1
weights = "level1"
"""


TINY_LEVEL2 = """
[[free_spins.levels]]
threshold = 1
spins = 1
multiplier = 3
weights = "level2"
"""


# the oracle's own copy of the rules above: FS count -> initial spins; ladder
TINY_TRIGGER = {2: 1, 3: 2}


TINY_THRESHOLDS, TINY_SPINS, TINY_MULT = (0, 1), (None, 1), (1, 3)


TINY_FISH = {"base": (3, 1), "level1": (1, 1), "level2": (1, 3)}   # weights of values 1, 5


# windows with several specials on one reel, WILD next to FS, two KEYs: the rules hold for any window
TINY_BASE = [["PIC1", "FS", "AUS1", "KEY", "FISH1"], ["WILD", "PIC1", "FS", "AUS1"],
             ["AUS1", "FISH1", "PIC1", "FS", "KEY"], ["PIC1", "WILD", "FS", "AUS1"],
             ["FS", "AUS1", "FISH1", "PIC1", "WILD"]]


TINY_BONUS = [["KEY", "PIC1", "AUS1", "FISH1"], ["AUS1", "HOOK", "PIC1", "AUS1", "PIC1"],
              ["PIC1", "AUS1", "KEY", "FISH1"], ["PIC1", "PIC1", "AUS1", "AUS1"],
              ["AUS1", "FISH1", "PIC1", "PIC1"]]


def spin_outcomes(model, columns, rows, weights, multiplier):
    """Every stop combination x FISH value assignment of one spin, evaluated literally.

    Returns
    -------
    (den, outcomes): outcomes is a list of (weight, win, FS count, KEY count, ways pays,
    collect), integers; the probability of an outcome is weight / den.  Amounts are
    credits after the multiplier.
    """
    lengths = [len(c) for c in columns]
    w_total = sum(weights)
    windows = [[[c[(s + i) % len(c)] for i in range(rows)] for c, s in zip(columns, stops)]
               for stops in itertools.product(*(range(n) for n in lengths))]
    n_fish = [sum(model.symbol(x).kind == FISH for col in w for x in col) for w in windows]
    top = max(n_fish)
    out = []
    for window, nf in zip(windows, n_fish):
        for values in itertools.product((0, 1), repeat=nf):
            weight = prod(weights[v] for v in values) * w_total ** (top - nf)
            res = evaluate(model, window, [(1, 5)[v] for v in values], multiplier)
            out.append((weight, res.win, res.scatters, res.keys, multiplier * res.ways_pays,
                        multiplier * res.collect))
    return len(windows) * w_total ** top, out


def grouped(spin) -> tuple[int, list[tuple[int, int, int]]]:
    """(den, [(weight, KEY count, win)]) with equal (KEY count, win) merged: one level's spin outcomes."""
    den, outcomes = spin
    acc: dict[tuple[int, int], int] = {}
    for weight, win, _, keys, _, _ in outcomes:
        acc[keys, win] = acc.get((keys, win), 0) + weight
    return den, [(w, k, x) for (k, x), w in sorted(acc.items())]


def add(d: dict, key, p) -> None:
    d[key] = d.get(key, 0) + p


def play_feature(level_outcomes, initial_spins: int) -> dict[tuple[int, ...], F]:
    """Section 11 literally: P(the free spins end with these wins of each level played).

    ``level_outcomes[i]``: (den, [(weight, KEY count, win)]) of one spin of level i + 1.
    Level 1 plays ``initial_spins``; at the end of each level the next one starts
    when the KEY counter (never reset) reaches its threshold, else the free spins end.

    Returns
    -------
    dict: tuple of the win of each level played (credits) -> probability
    """
    ended: dict[tuple[int, ...], F] = {}
    starting = {(0, ()): 1}                                  # (KEY counter, wins of the levels played)
    scale = 1                                                # every weight below is over this denominator
    for level, (den, outcomes) in enumerate(level_outcomes):
        spins = initial_spins if level == 0 else TINY_SPINS[level]
        states = {(c, wins, 0): p for (c, wins), p in starting.items()}
        for _ in range(spins):
            nxt: dict = {}
            for (c, wins, w), p in states.items():
                for q, k, x in outcomes:
                    add(nxt, (c + k, wins, w + x), p * q)
            states, scale = nxt, scale * den
        starting = {}
        for (c, wins, w), p in states.items():
            if level + 1 < len(level_outcomes) and c >= TINY_THRESHOLDS[level + 1]:
                add(starting, (c, wins + (w,)), p)
            else:
                add(ended, wins + (w,), F(p, scale))
    return ended


def feature_figures(ended: dict[tuple[int, ...], F], levels: int, initial_spins: int) -> dict:
    """Mean, E[F^2], reach, expected spins and win by level of a feature from its end distribution."""
    out = dict(mean=F(0), second=F(0), reach=[F(0)] * levels, spins=F(0), by_level=[F(0)] * levels)
    for wins, p in ended.items():
        total = sum(wins)
        out["mean"] += p * total
        out["second"] += p * total * total
        for i, w in enumerate(wins):
            out["reach"][i] += p
            out["by_level"][i] += p * w
            out["spins"] += p * (initial_spins if i == 0 else TINY_SPINS[i])
    assert sum(ended.values()) == 1
    return out


def brute_force_round(model, levels: int) -> dict:
    den, base = spin_outcomes(model, TINY_BASE, 2, TINY_FISH["base"], 1)
    assert sum(o[0] for o in base) == den
    level_outcomes = [grouped(spin_outcomes(model, TINY_BONUS, 2, TINY_FISH[f"level{i + 1}"], TINY_MULT[i]))
                      for i in range(levels)]

    def initial(n):
        return max((s for c, s in TINY_TRIGGER.items() if n >= c), default=0)

    features = {s: feature_figures(play_feature(level_outcomes, s), levels, s) for s in set(TINY_TRIGGER.values())}
    mean = second = ways = collect = F(0)
    p_fs: dict[int, F] = {}
    by_level = [F(0)] * levels
    for weight, b, n, _, w, c in base:
        p = F(weight, den)
        ways += p * w
        collect += p * c
        add(p_fs, n, p)
        s = initial(n)
        fm, f2 = (features[s]["mean"], features[s]["second"]) if s else (F(0), F(0))
        mean += p * (b + fm)                                   # round win X = B + F, section 2
        second += p * (b * b + 2 * b * fm + f2)                # F independent of B given the trigger
        if s:
            by_level = [x + p * y for x, y in zip(by_level, features[s]["by_level"])]
    level_den, level1 = level_outcomes[0]
    key2 = {"base": F(sum(o[0] for o in base if o[3] >= 2), den),
            "free": F(sum(q for q, k, _ in level1 if k >= 2), level_den)}
    return dict(mean=mean, variance=second - mean * mean, ways=ways, collect=collect, free=mean - ways - collect,
                by_level=by_level, p_fs=p_fs, features=features, initial=initial, key2=key2)


# ---- from test_comply.py -------------------------------------------------

NO_FS_GAME = """
[game]
name = "rare top"
reels = 5
rows = 3
bet = 1

[strips]
base = "base.csv"

[symbols.PIC1]
class = "pay"
pays = [0, 0, 5, 50, 5000]
[symbols.AUS1]
class = "pay"
pays = [0, 0, 1, 2, 3]
[symbols.AUS2]
class = "pay"
pays = [0, 0, 1, 2, 3]
"""


def rare_set(tmp_path, length=150):
    cols = [["PIC1"] + [("AUS1", "AUS2")[(i // (4 + r)) % 2] for i in range(length - 1)] for r in range(5)]
    return write_set(tmp_path, base=cols, bonus=None, game=NO_FS_GAME)


# ---- from test_bonus.py --------------------------------------------------

def three_reel_game(name: str, bet: int = 10, title: str | None = None) -> str:
    """The head of a small game.toml: 3 reels, 2 rows, base and bonus strips, pay symbols A and B.

    A pays 2 and 5 credits for 2 and 3 OAK, B 1 and 3; the rest of a game (its other symbols and
    tables) follows it.

    >>> import tomllib
    >>> tomllib.loads(three_reel_game("t", 2))["symbols"]["B"]["pays"]
    [0, 1, 3]
    """
    title_line = f'title = "{title}"\n' if title is not None else ""
    return f"""
[game]
name = "{name}"
{title_line}reels = 3
rows = 2
bet = {bet}

[strips]
base = "base.csv"
bonus = "bonus.csv"

[symbols.A]
class = "pay"
pays = [0, 2, 5]
[symbols.B]
class = "pay"
pays = [0, 1, 3]
"""


MODES_GAME = three_reel_game("tiny_wheel") + """[symbols.W]
class = "wild"
reels = { base = [2, 3], bonus = [2, 3] }
[symbols.S]
class = "scatter"
reels = { base = [1, 2, 3], bonus = [1, 3] }
[symbols.X]
class = "scatter"
reels = { base = [1, 2, 3] }

[free_spins]
strips = "bonus"
scatter = "S"
trigger = { 2 = 2, 3 = 3 }
[[free_spins.levels]]
multiplier = 2

[jackpots]
Mini = 50
Major = 500

[wheel.bonus]
symbol = "X"
tables = { 2 = "w1", 3 = "w2" }
[wheel.bonus.prizes.w1]
awards = ["credits 20", "jackpot Mini", "free_spins 1"]
weights = [5, 2, 1]
[wheel.bonus.prizes.w2]
awards = ["jackpot Major", "free_spins 2", "credits 0"]
weights = [1, 1, 2]

[modes.ante]
cost = 15
respin = { symbol = "X", count = 1 }
[modes.pairs]
cost = 20
respin = { symbol = "A", count = 2 }
[modes.plain]
cost = 20
[modes.alt]
cost = 30
strips = { base = "alt.csv" }
trigger = { 3 = 1 }

[buy.fs]
cost = 40
trigger = 2
[buy.big]
cost = 100
trigger = 3
"""


BASE = [["A", "S", "X", "B", "A"], ["B", "W", "S", "A", "X", "B"], ["X", "A", "B", "S", "W"]]


BONUS = [["A", "B", "S", "A"], ["B", "W", "A", "B"], ["A", "S", "B", "W"]]


ALT = [["A", "A", "X", "B"], ["W", "B", "X"], ["S", "A", "X", "S"]]

#: The literal rules' copy of MODES_GAME's wheel (:class:`bonus_oracle.Game`): symbol, count -> [(award, weight)].
MODES_WHEEL = ("X", {2: [(("credits", 20), 5), (("jackpot", 50), 2), (("free_spins", 1), 1)],
                     3: [(("jackpot", 500), 1), (("free_spins", 2), 1), (("credits", 0), 2)]})
#: The literal rules' copy of each mode of MODES_GAME: (cost, base strips, trigger table, respin).
MODES_TABLE = {"default": (10, BASE, {2: 2, 3: 3}, None), "ante": (15, BASE, {2: 2, 3: 3}, ("X", 1)),
               "pairs": (20, BASE, {2: 2, 3: 3}, ("A", 2)), "plain": (20, BASE, {2: 2, 3: 3}, None),
               "alt": (30, ALT, {3: 1}, None)}


def write_modes_game(directory: Path) -> Path:
    """MODES_GAME written as a math set in ``directory`` (base, bonus and the alt mode's strips)."""
    d = write_set(directory, base=BASE, bonus=BONUS, game=MODES_GAME)
    (d / "alt.csv").write_text(csv_text(ALT))
    return d


# ---- from test_engine.py -------------------------------------------------

def with_two_oak_pay(model):
    """Give PIC1 a 2 OAK pay so the 2 OAK path of the engine is exercised too."""
    syms = tuple(dataclasses.replace(s, pays=(0, 1) + s.pays[2:]) if s.name == "PIC1" else s for s in model.symbols)
    return dataclasses.replace(model, symbols=syms)


def with_scatter_pays(model):
    """FS pays 1, 2, 5, ... credits for 1, 2, 3, ... scatters anywhere in the window."""
    syms = tuple(dataclasses.replace(s, pays=(1, 2, 5, 20, 80)) if s.kind == "scatter" else s for s in model.symbols)
    return dataclasses.replace(model, symbols=syms)


def with_partial_wild(model):
    """WILD substitutes for the PIC symbols only, and a second wild WILD2 (base reels 1-2, bonus reel 1)
    substitutes for AUS1 and PIC1 only."""
    pics = frozenset(s.name for s in model.pay_symbols if s.name.startswith("PIC"))
    syms = [dataclasses.replace(s, substitutes=pics) if s.kind == "wild" else s for s in model.symbols]
    syms.append(Symbol("WILD2", "wild", pays=(0,) * model.reels,
                       reels={"base": frozenset({0, 1}), "bonus": frozenset({0})},
                       substitutes=frozenset({"AUS1", "PIC1"})))
    return dataclasses.replace(model, symbols=tuple(syms))


TABLES = ("base", "level1", "level2", "level3", "level4")


def with_wild_multiplier(model, name, mult, bonus_reels=None):
    """Give WILD symbol ``name`` the multiplier ``mult`` (a WildMultiplier or None), optionally
    also letting it stand on ``bonus_reels`` of the bonus strips (so the free-spin levels see it)."""
    def change(s):
        if s.name != name:
            return s
        reels = dict(s.reels)
        if bonus_reels is not None:
            reels["bonus"] = frozenset(bonus_reels)
        return dataclasses.replace(s, multiplier=mult, reels=reels)
    return dataclasses.replace(model, symbols=tuple(change(s) for s in model.symbols))


@st.composite
def wild_multipliers(draw):
    """None, a fixed multiplier, or two small values drawn per WILD (mode wild) or per reel (mode
    reel), each phase with its own weight table (a zero weight allowed, the sum positive)."""
    kind = draw(st.sampled_from((None, "fixed", "wild", "reel")))
    values = draw(st.sampled_from(((1, 2), (2, 3), (1, 4))))
    if kind is None:
        return None
    if kind == "fixed":
        return WildMultiplier(values=values[-1:])
    pairs = st.tuples(st.integers(0, 3), st.integers(1, 3))
    return WildMultiplier(values=values, weights={t: draw(pairs) for t in TABLES}, mode=kind)


@st.composite
def small_sets(draw, reels=(3, 4), max_len=5, multipliers=None):
    """A small random math set; ``multipliers`` True always gives the WILDs multipliers (None: drawn)."""
    n_reels = draw(st.sampled_from(reels))
    rows = draw(st.sampled_from((2, 3, 4)))
    model = small_fish_model(reels=n_reels, rows=rows)
    if draw(st.booleans()):
        model = with_two_oak_pay(model)
    if draw(st.booleans()):
        model = with_scatter_pays(model)
    if draw(st.booleans()):
        model = with_partial_wild(model)
    wilds = []
    if multipliers or (multipliers is None and draw(st.booleans())):  # WILD multipliers; WILD then also stands on bonus reels 2.. (free-spin levels)
        wilds = [s.name for s in model.symbols if s.kind == "wild"]
        for w in wilds:
            model = with_wild_multiplier(model, w, draw(wild_multipliers()),
                                         range(1, n_reels) if w == "WILD" else None)
    pays = [s.name for s in model.pay_symbols]

    def strip(set_name, r):
        allowed = [s.name for s in model.symbols if s.allowed_on(set_name, r)]
        length = draw(st.integers(rows, max_len))
        # pay symbols twice as likely, so windows mix pays with (several) specials; with WILD
        # multipliers the WILDs are 4 times as likely, so several WILDs share windows and ways
        extra = [w for w in wilds if w in allowed] * 3 + pays[:3] * 3
        return draw(st.lists(st.sampled_from(allowed + pays + (extra if wilds else [])),
                             min_size=length, max_size=length))

    base = [strip("base", r) for r in range(n_reels)]
    bonus = [strip("bonus", r) for r in range(n_reels)]
    return make_set(model, base, bonus)


# ---- from test_lines.py --------------------------------------------------

PAY = ("A", "B", "C")


def game_text(reels, rows, lines, *, wild_pays=None, comb=None, wild2=False, scatter_pays=None,
              scatter2_pays=None, counts_as_scatter=False, trigger_reels=None, free_spins=True,
              multiplier_by_trigger=None, level_multiplier=2, retrigger=True, cap=4, pays=None):
    """A line game's game.toml as text (the loader is part of what is tested)."""
    pays = pays or {"A": [0, 5, 10, 20, 50], "B": [0, 0, 4, 8, 30], "C": [1, 2, 3, 4, 5]}
    out = [f'[game]\nreels = {reels}\nrows = {rows}\nbet = {len(lines)}\nevaluation = "lines"',
           f"[lines]\npaylines = {[[r + 1 for r in line] for line in lines]}",
           '[strips]\nbase = "base.csv"\nbonus = "bonus.csv"']
    for s in PAY:
        out.append(f'[symbols.{s}]\nclass = "pay"\npays = {pays[s][:reels]}')
    every = list(range(1, reels + 1))
    w = f'[symbols.W]\nclass = "wild"\nreels = {{ base = {every}, bonus = {every} }}'
    if wild_pays:
        w += f"\npays = {wild_pays[:reels]}"
    if comb:
        w += "\nmultiplier = " + comb
    if counts_as_scatter:
        w += "\ncounts_as_scatter = true"
    out.append(w)
    if wild2:
        out.append(f'[symbols.V]\nclass = "wild"\nsubstitutes = ["A", "B"]\nreels = {{ base = {every}, bonus = {every} }}')
    s = f'[symbols.S]\nclass = "scatter"\nreels = {{ base = {every}, bonus = {every} }}'
    if scatter_pays:
        s += f"\npays = {scatter_pays}"
    out.append(s)
    if scatter2_pays is not None:
        out.append(f'[symbols.T]\nclass = "scatter"\nreels = {{ base = {every}, bonus = {every} }}\npays = {scatter2_pays}')
    if free_spins:
        fs = '[free_spins]\nstrips = "bonus"\ntrigger = { 2 = 2, 3 = 3 }'
        if retrigger:
            fs += f"\nretrigger = {{ 2 = 1 }}\nretrigger_cap = {cap}"
        if scatter2_pays is not None:
            fs += '\nscatter = "S"'
        if trigger_reels:
            fs += f"\ntrigger_reels = {trigger_reels}"
        if multiplier_by_trigger:
            fs += f"\nmultiplier_by_trigger = {multiplier_by_trigger}"
        out.append(fs)
        out.append(f"[[free_spins.levels]]\nmultiplier = {level_multiplier}")
    return "\n\n".join(out) + "\n"


def model_of(text):
    return parse_game(text.encode(), "game.toml")


@st.composite
def line_games(draw, max_stops=None):
    reels = draw(st.integers(3, 5))
    rows = draw(st.integers(3, 4))
    n_lines = draw(st.integers(1, 20))
    lines = list(dict.fromkeys([tuple(draw(st.integers(0, rows - 1)) for _ in range(reels)) for _ in range(n_lines)]))   # distinct: a repeated payline is refused
    wild_pays = draw(st.sampled_from((None, [0, 3, 12, 40, 100], [0, 0, 60, 200, 500])))
    comb = draw(st.sampled_from((None, '{ values = [2], mode = "combination" }',
                                 '{ values = [2, 3], weights.base = [1, 2], weights.level1 = [3, 1], '
                                 'mode = "combination" }')))
    wild2 = wild_pays is None and draw(st.booleans())
    scatter_pays = draw(st.sampled_from((None, [0, 2, 7, 30, 100])))
    scatter2 = draw(st.sampled_from((None, [1, 4, 9])))
    cas = draw(st.booleans())
    trigger_reels = draw(st.sampled_from((None, [1], [1, reels])))
    text = game_text(reels, rows, lines, wild_pays=wild_pays, comb=comb, wild2=wild2, scatter_pays=scatter_pays,
                     scatter2_pays=scatter2, counts_as_scatter=cas, trigger_reels=trigger_reels,
                     level_multiplier=draw(st.integers(1, 3)))
    model = model_of(text)
    names = [s.name for s in model.symbols]
    max_stops = max_stops or {3: 5, 4: 4, 5: 3}[reels]
    # pay symbols more often, WILDs and scatters often enough to share windows and lines
    pool = names + ["A", "B", "C", "W"]

    def strip():
        n = draw(st.integers(rows, max(rows, max_stops)))
        return draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))

    # a reel needs at least `rows` stops; keep the enumeration small
    base = [strip()[:max(rows, max_stops)] for _ in range(reels)]
    bonus = [strip()[:max(rows, max_stops)] for _ in range(reels)]
    return make_set(model, base, bonus)


@st.composite
def ways_games_with_catalogue_rules(draw):
    """Ways games with the catalogue trigger rules: trigger reels, a second paying scatter counted on
    its own, a WILD that counts as the triggering scatter."""
    reels = draw(st.integers(3, 4))
    rows = draw(st.integers(2, 3))
    text = game_text(reels, rows, [(0,) * reels], scatter_pays=draw(st.sampled_from((None, [0, 2, 7, 30]))),
                     scatter2_pays=draw(st.sampled_from((None, [1, 4, 9]))), counts_as_scatter=draw(st.booleans()),
                     trigger_reels=draw(st.sampled_from((None, [1], [1, reels]))), level_multiplier=2)
    text = text.replace('evaluation = "lines"', "").replace(f"[lines]\npaylines = {[[1] * reels]}", "")
    model = model_of(text)
    names = [s.name for s in model.symbols]
    pool = names + ["A", "B", "W", "S"]

    def strip():
        n = draw(st.integers(rows, 4))
        return draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))

    return make_set(model, [strip() for _ in range(reels)], [strip() for _ in range(reels)])


# ---- from test_proofs_windows.py -----------------------------------------

def exact_mean(ms, phase, window):
    """The evaluator's win (level multiplier 1) averaged over every draw, exactly, and the draw-free fields."""
    model = ms.model
    fish = [model.symbol(n) for col in window for n in col if model.symbol(n).kind == FISH]
    wilds = [model.symbol(window[r][i]).multiplier for r, i in wild_draws(model, window)]
    comb = combination_wilds(model)
    choices = [list(zip(s.values, s.weights[phase.weights])) for s in fish] + \
        [list(m.table(phase.weights)) for m in wilds]
    ctable = list(comb[0].multiplier.combination_table(phase.weights)) if comb else [(None, 1)]
    total, weight, res0, every_draw_wins = Fraction(0), 0, None, True
    lines = [Fraction(0)] * len(model.paylines)
    for assignment in itertools.product(*choices):
        for cv, cw in ctable:
            w = prod(x[1] for x in assignment) * cw
            if not w:
                continue
            vals = [x[0] for x in assignment]
            res = evaluate(model, window, vals[:len(fish)], 1, vals[len(fish):], combination=cv)
            total += w * res.win
            weight += w
            every_draw_wins &= res.win > 0
            for lw in res.lines:
                lines[lw.line - 1] += w * lw.pay
            res0 = res
    exact_mean.lines = [x / weight for x in lines]   # per payline, for the line games' checks
    return total / weight, res0, every_draw_wins


# ---- from test_markov_oracle.py ------------------------------------------

#: one spin outcome of a level: (probability, KEY count, win in credits)
Outcome = tuple[F, int, F]


GAME_TOML = Path(__file__).resolve().parents[1] / "strips" / "rules_page" / "game.toml"


def rules_page_model():
    """The rules-page GameModel, parsed from the bundled game.toml (no strips needed)."""
    return parse_game(GAME_TOML.read_bytes(), str(GAME_TOML))


def split_of(outcomes: list[Outcome], keys: int | None = None) -> CountSplit:
    """CountSplit of a level from its joint outcomes: P(k), E[W 1{k}], E[W^2 1{k}]."""
    n = (max(k for _, k, _ in outcomes) if keys is None else keys) + 1
    prob, win, win2 = [F(0)] * n, [F(0)] * n, [F(0)] * n
    for p, k, w in outcomes:
        prob[k] += p
        win[k] += p * w
        win2[k] += p * w * w
    return CountSplit(tuple(prob), tuple(win), tuple(win2))


@dataclass
class Brute:
    """Exact figures of a feature, summed over every outcome sequence."""

    mean: F
    second: F
    reach: list[F]
    final_level: list[F]
    spins_by_level: list[F]
    win_by_level: list[F]
    keys: F


def feature_paths(outcomes, thresholds, spins, initial_spins):
    """Every sequence of spin outcomes, played through the section 11 rules literally.

    ``outcomes[i]`` lists the outcomes of one spin of level i + 1;
    ``thresholds[i]`` is the KEY total needed to start level i + 1;
    ``spins[i]`` its spins (``spins[0]`` unused: level 1 plays ``initial_spins``).

    Yields
    ------
    (probability, wins of each level played (list), KEY total, spins of each level played (list))
    """
    n_levels = len(outcomes)

    def play_level(level, counter, prob, wins, played):
        n = initial_spins if level == 0 else spins[level]
        seqs = [(prob, counter, F(0))]
        for _ in range(n):
            seqs = [(p * q, c + k, w + x) for p, c, w in seqs for q, k, x in outcomes[level]]
        for p, c, w in seqs:
            if level + 1 < n_levels and c >= thresholds[level + 1]:   # the next level starts
                yield from play_level(level + 1, c, p, wins + [w], played + [n])
            else:                                                      # the free spins end
                yield p, wins + [w], c, played + [n]

    yield from play_level(0, 0, F(1), [], [])


def enumerate_feature(outcomes, thresholds, spins, initial_spins) -> Brute:
    """Exact feature figures summed over :func:`feature_paths`."""
    n_levels = len(outcomes)
    res = Brute(F(0), F(0), [F(0)] * n_levels, [F(0)] * n_levels, [F(0)] * n_levels,
                [F(0)] * n_levels, F(0))
    for p, wins, keys, played in feature_paths(outcomes, thresholds, spins, initial_spins):
        total = sum(wins)
        res.mean += p * total
        res.second += p * total * total
        res.keys += p * keys
        res.final_level[len(wins) - 1] += p
        for i, (w, n) in enumerate(zip(wins, played)):
            res.reach[i] += p
            res.spins_by_level[i] += p * n
            res.win_by_level[i] += p * w
    return res


def phase_analysis(split: CountSplit, name="level1", scatter: CountSplit | None = None,
                   ways_share=F(1, 2)) -> PhaseAnalysis:
    """A hand-built PhaseAnalysis around a KEY split (ways mean = ``ways_share`` x mean, collect the rest)."""
    mean = split.mean
    return PhaseAnalysis(phase=Phase(name, "bonus", name, 1), mean=mean, second=split.second,
                         parts=spin_parts(mean * ways_share, mean * (1 - ways_share)),
                         ways_by_symbol={}, oak_prob={},
                         by_scatter=scatter or CountSplit((F(1),), (mean,), (split.second,)),
                         by_key=split, hit_frequency=F(0))


def simulate_feature(outcomes, thresholds, spins, initial_spins, n_features, seed):
    """Seeded Monte Carlo of ``n_features`` features; returns (wins array float64 shape (n,), levels reached int array)."""
    rng = np.random.default_rng(seed)
    n_levels = len(outcomes)
    total = np.zeros(n_features)
    counter = np.zeros(n_features, dtype=np.int64)
    alive = np.ones(n_features, dtype=bool)
    reached = np.ones(n_features, dtype=np.int64)
    for level in range(n_levels):
        n = initial_spins if level == 0 else spins[level]
        p = np.array([float(q) for q, _, _ in outcomes[level]])
        ks = np.array([k for _, k, _ in outcomes[level]])
        ws = np.array([float(w) for _, _, w in outcomes[level]])
        idx = np.flatnonzero(alive)
        draws = rng.choice(len(p), size=(len(idx), n), p=p / p.sum())
        total[idx] += ws[draws].sum(axis=1)
        counter[idx] += ks[draws].sum(axis=1)
        if level + 1 < n_levels:
            alive &= counter >= thresholds[level + 1]
            reached[alive] = level + 2
        else:
            alive[:] = False
    return total, reached


# ---- from test_markov_round.py -------------------------------------------

def rules_page_inputs():
    """The rules-page model with hand-built base and level analyses: (model, base, levels).

    Base FS split: P(3, 4, 5 FS) = 8, 1, 1 per 1000; each level spin shows 1 KEY w.p. 1/10.
    """
    model = rules_page_model()
    scatter = CountSplit(tuple(F(x, 1000) for x in (900, 60, 30, 8, 1, 1)),
                         tuple(F(x, 100) for x in (300, 30, 20, 10, 1, 2)),
                         tuple(F(x, 10) for x in (9000, 900, 800, 300, 90, 200)))
    base = phase_analysis(scatter, "base", scatter=scatter)
    levels = [phase_analysis(split_of([(F(9, 10), 0, F(lv.multiplier)), (F(1, 10), 1, F(3 * lv.multiplier))]))
              for lv in model.levels]
    return model, base, levels


# ---- from test_every_command.py ------------------------------------------

EVERY_RULE_GAME = """\
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
    text = EVERY_RULE_GAME.format(name=name, **opt) + tail
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


# ---- from test_sensitivity.py --------------------------------------------

# --------------------------------------------------------------------------
# helpers shared with test_diff and test_export
# --------------------------------------------------------------------------
def write_strips(path: Path, reels) -> None:
    """Write one strip-set CSV (header reel1..reelN, columns may differ in length)."""
    lines = [",".join(f"reel{i + 1}" for i in range(len(reels)))]
    for i in range(max(len(r) for r in reels)):
        lines.append(",".join(r[i] if i < len(r) else "" for r in reels))
    path.write_text("\n".join(lines) + "\n")


def write_edited(ms, directory: Path, edits=()) -> Path:
    """Write ``ms``'s game file, published.toml and strips (with ``edits`` applied) as a math set in ``directory``; returns it."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, rs in ms.strips.items():
        reels = [list(r) for r in rs.reels]
        for e in edits:
            if e.strip_set == name:
                assert reels[e.reel][e.position] == e.old
                reels[e.reel][e.position] = e.new
        write_strips(directory / ms.model.strip_files[name], reels)
    (directory / "game.toml").write_bytes(ms.sources["game.toml"])   # the set's own game file
    published = resolve(ms.name)[1] / "published.toml"                 # and its published facts
    if published.is_file():
        (directory / "published.toml").write_bytes(published.read_bytes())
    return directory


def full_rtp(ms) -> Fraction:
    a = analyse(ms)
    return round_result(ms.model, a.base, a.levels).rtp


# ---- from test_variants.py -----------------------------------------------

SMALL_GAME = """
[game]
name = "small"
reels = 3
rows = 2
bet = 5
[strips]
base = "base.csv"
bonus = "bonus.csv"
[strip_rules]
max_run = { symbols = ["A1", "A2"], length = 2 }
[symbols.P1]
class = "pay"
pays = [0, 2, 10]
[symbols.P2]
class = "pay"
pays = [0, 1, 5]
[symbols.A1]
class = "pay"
pays = [0, 0, 3]
[symbols.A2]
class = "pay"
pays = [0, 1, 2]
[symbols.W]
class = "wild"
reels = { base = [2, 3], bonus = [2, 3] }
[symbols.K]
class = "key"
reels = { base = [1], bonus = [1, 2] }
[symbols.S]
class = "scatter"
reels = { base = [1, 2, 3] }
[symbols.F]
class = "fish"
reels = { base = [2, 3], bonus = [2, 3] }
values = [1, 5]
weights.base = [3, 1]
weights.level1 = [1, 1]
weights.level2 = [1, 2]
[free_spins]
strips = "bonus"
trigger = { 2 = 3, 3 = 5 }
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


PAYS = ["P1", "P2", "A1", "A2"]


SPECIALS = {"base": [["K", "S"], ["W", "S", "F"], ["W", "S", "F"]],
            "bonus": [["K"], ["W", "K", "F"], ["W", "F"]]}


def write_small(directory: Path, seed: int) -> Path:
    """A random small set of SMALL_GAME: 3 reels of 6-8 stops, each allowed special once or twice."""
    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "game.toml").write_text(SMALL_GAME)
    for strip_set, specials in SPECIALS.items():
        cols = []
        for r in range(3):
            n = rng.randint(6, 8)
            col = [rng.choice(PAYS) for _ in range(n)]
            for x, i in zip(specials[r] + [rng.choice(specials[r])], rng.sample(range(n), len(specials[r]) + 1)):
                col[i] = x
            cols.append(col)
        (directory / f"{strip_set}.csv").write_text(csv_text(cols))
    return directory


def reachable_target(ms, seed: int) -> Fraction:
    """The exact RTP after two random allowed edits that keep the separation: a target the search can reach."""
    rng = random.Random(seed)
    cands = allowed_edits(ms, sensitivity(ms).edits)
    a = rng.choice(cands)
    far = [c for c in cands if c.edit.strip_set != a.edit.strip_set or c.edit.reel != a.edit.reel]
    b = rng.choice(far)
    strips = {k: [list(r) for r in v.reels] for k, v in ms.strips.items()}
    for e in (a.edit, b.edit):
        strips[e.strip_set][e.reel][e.position] = e.new
    return exact_rtp(with_strips(ms, strips))


def _frac_arg(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


# ---- a 12-reel x 32-row game whose sums overflow int64 (test_int64_overflow.py) ----

def big_window_game(directory: Path, pay: int, *, mode: bool = False, rows: int = 32, stops: int = 34,
                    seed: int = 5) -> Path:
    """A 12 x 32 ways game (34 stops a reel, so fast) whose every figure is ``pay`` times the ``pay = 1`` game's.

    A pays ``pay`` for 12 OAK and ``pay // 2`` for 6 OAK (ways up to 4^12); one S on reel 1 triggers one free spin at x16 in almost every round.  With ``pay =
    2^36`` a spin wins up to 2^60 and a round up to 17 x 2^60: the round wins and their sums over rounds overflow int64.  The filler F
    pays nothing.  ``mode``
    adds a bet mode (the simulator of every rule and the window evaluator); ``lines`` makes it a
    25-line game (the window evaluator).
    """
    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    R, L = 12, stops
    pays = [0] * 5 + [pay // 2] + [0] * 5 + [pay]
    text = (f'[game]\nname = "big_window"\nreels = {R}\nrows = {rows}\nbet = 1\n'
            + '\n[strips]\nbase = "base.csv"\n'
            + f'\n[symbols.A]\nclass = "pay"\npays = {pays}\n'
            + f'[symbols.F]\nclass = "pay"\npays = {[0] * R}\n'
            + '[symbols.S]\nclass = "scatter"\nreels = { base = [1] }\n'
            + '\n[free_spins]\nstrips = "base"\ntrigger = { 1 = 1 }\n[[free_spins.levels]]\nmultiplier = 16\n')
    if mode:
        text += "\n[modes.double]\ncost = 2\n"
    (directory / "game.toml").write_text(text)
    reels = []
    for r in range(R):
        filler = "F"
        strip = ["A"] * rng.randint(1, min(4, L - 2))
        strip += [filler] * (L - len(strip) - (1 if r == 0 else 0)) + (["S"] if r == 0 else [])
        rng.shuffle(strip)
        reels.append(strip)
    write_strips(directory / "base.csv", reels)
    return directory
