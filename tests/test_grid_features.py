"""Random features of a grid game's initial drop against a brute force written from the rules.

Each feature's outcomes (:func:`exact.rules.grid_features.outcomes`, one enumeration shared with the
random player) equal a direct recursion over its draws on small grids, exactly; the round with its
features, solved by the chain from the exact start distribution, equals a literal replay of every
start grid and refill truncated at k evaluations within its tail, and the literal random player's
mean lies within 3.3 standard errors of the exact value (5,000 rounds, seed 11).
"""
from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest

from exact.cli import main
from exact.grid_chain import build_chain, chain_figures, state_means, truncated
from exact.rules.grid import evaluate, find_wins, grid_config_of, refilled
from exact.rules.grid_features import Feature, GridFeatures, apply_feature, outcomes, play_round, start_distribution
from tests.gen_grid import write_grid

PAYS = {"A": (0, 0, 6), "B": (0, 0, 2), "C": (0, 0, 1)}
CFG = grid_config_of(2, 3, PAYS, key="K", free_spins=2, weights={"A": 1, "B": 2, "C": 3})
STARFALL = Feature("starfall_wilds", Fraction(1, 10), Fraction(1, 5),
                   (("modes", (("pattern", 1), ("line", 2))), ("pattern_count", ((1, 1), (2, 3))),
                    ("line_count", ((2, 1),))))
DRAGON = Feature("dragon_destroy", Fraction(0), Fraction(1, 7), (("count", ((2, 1), (3, 2))),))
IRISH = Feature("irish_luck", Fraction(0), Fraction(1, 10), (("orientation", (("row", 1), ("column", 2))),
                                                             ("symbols", (("A", 1), ("B", 2)))))
MAGIC = Feature("magic_transform", Fraction(1, 9), Fraction(1, 11), (("to", (("A", 1), ("B", 3))),), ("B", "C"))


def _add(out, g, p):
    out[tuple(g)] = out.get(tuple(g), Fraction(0)) + p


def brute(cfg, f, grid):
    """The feature's outcomes by direct recursion over its draws, written from the rules."""
    key, wild, out = cfg.key, cfg.wild, {}
    tab = {k: dict(v) for k, v in f.tables}

    def norm(d):
        t = sum(d.values())
        return {k: Fraction(v, t) for k, v in d.items() if v}
    lines_free = [ln for ln in cfg.lines if all(grid[c] != key for c in ln)]
    if f.name == "magic_transform":
        for choice in itertools.product(norm(tab["to"]).items(), repeat=len(f.sources)):
            m = {s: c[0] for s, c in zip(f.sources, choice)}
            p = Fraction(1)
            for _, q in choice:
                p *= q
            _add(out, [m.get(v, v) for v in grid], p)
    elif f.name == "irish_luck":
        for side, ps in norm(tab["orientation"]).items():
            lines = [ln for ln in (cfg.lines[:cfg.rows] if side == "row" else cfg.lines[cfg.rows:]) if ln in lines_free]
            for ln in lines:
                for s, q in norm(tab["symbols"]).items():
                    _add(out, [s if c in ln else v for c, v in enumerate(grid)], ps * q / len(lines))
    elif f.name == "starfall_wilds":
        def grow(g, p):
            if find_wins(cfg, g):
                return _add(out, g, p)
            rest = [c for c in range(cfg.cells) if g[c] not in (key, wild)]
            if not rest:
                return _add(out, g, p)
            for c in rest:
                grow([wild if x == c else v for x, v in enumerate(g)], p / len(rest))
        for mode, pm in norm(tab["modes"]).items():
            if mode == "pattern":
                for k, pk in norm(tab["pattern_count"]).items():
                    sets = list(itertools.combinations([c for c in range(cfg.cells) if grid[c] != key], k))
                    for s in sets:
                        grow([wild if c in s else v for c, v in enumerate(grid)], pm * pk / len(sets))
            else:
                for k, pk in norm(tab["line_count"]).items():
                    lines = [ln for ln in lines_free if len(ln) >= k]
                    for ln in lines:
                        for a in range(len(ln) - k + 1):
                            g = [wild if c in ln[a:a + k] else v for c, v in enumerate(grid)]
                            grow(g, pm * pk / len(lines) / (len(ln) - k + 1))
    else:                       # dragon_destroy: one draw, then conditioned on a win
        w = {s: q for s, q in cfg.table("base") if q}
        tot = sum(w.values())
        for m, pm in norm(tab["count"]).items():
            sets = list(itertools.combinations([c for c in range(cfg.cells) if grid[c] != key], m))
            for s in sets:
                rest = [grid[c] for c in cfg.path if c not in s]
                moved = [None] * cfg.cells
                for c, v in zip(cfg.path[m:], rest):
                    moved[c] = v
                for fill in itertools.product(w, repeat=m):
                    q = pm / len(sets)
                    for x in fill:
                        q *= Fraction(w[x], tot)
                    g = refilled(moved, cfg.path[:m], fill)
                    if find_wins(cfg, g):
                        _add(out, g, q)
        t = sum(out.values())
        out = {k: v / t for k, v in out.items()}
    return out


def drops(cfg, n, seed, won=None):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        g = [rng.choice("ABC") for _ in range(cfg.cells)]
        g[cfg.path[0]] = cfg.key
        if won is None or bool(find_wins(cfg, g)) == won:
            out.append(tuple(g))
    return out


@pytest.mark.parametrize("feature", [STARFALL, DRAGON, IRISH, MAGIC], ids=lambda f: f.name)
def test_each_feature_equals_a_brute_force_over_its_draws(feature):
    for cfg in (CFG, grid_config_of(3, 2, PAYS, key="K", free_spins=2, weights={"A": 1, "B": 2, "C": 3})):
        for grid in drops(cfg, 4, 7, won=False if feature.name in ("dragon_destroy", "irish_luck") else None):
            got = outcomes(cfg, lambda ch: apply_feature(cfg, feature, grid, ch))
            assert got == brute(cfg, feature, grid), (feature.name, grid)
            assert sum(got.values()) == 1


def test_starfall_places_wilds_until_a_win_and_never_on_the_key():
    grid = ("A", "B", "C", "K", "C", "B")
    for g in outcomes(CFG, lambda ch: apply_feature(CFG, STARFALL, grid, ch)):
        assert g[3] == "K" and find_wins(CFG, g) and g.count("W") >= 1


def replay(cfg, start, depth):
    """Literal replay from every start grid and every refill to ``depth`` evaluations: (mean pay so far,
    P(award) so far, tail)."""
    w = dict(cfg.table("base"))
    total = sum(w.values())
    syms = [s for s in cfg.pay_symbols if w[s]]
    out = {"mean": Fraction(0), "award": Fraction(0), "tail": Fraction(0)}

    def go(g, q, step):
        ev = evaluate(cfg, g)
        out["mean"] += q * ev.pay
        if not ev.wins:
            if g[cfg.path[-1]] == cfg.key:
                out["award"] += q
            return
        if step + 1 == depth:
            out["tail"] += q
            return
        for fill in itertools.product(syms, repeat=len(ev.refill)):
            r = q
            for s in fill:
                r *= Fraction(w[s], total)
            go(refilled(ev.moved, ev.refill, fill), r, step + 1)

    for g, p in start.items():
        go(g, p, 0)
    return out


def test_the_round_with_features_equals_a_truncated_literal_replay_and_the_random_player():
    cfg = grid_config_of(2, 3, PAYS, key="K", weights={"A": 1, "B": 2, "C": 3})
    feats = GridFeatures((STARFALL, DRAGON, IRISH, MAGIC))
    start = start_distribution(cfg, feats)
    assert sum(start.values()) == 1
    f = chain_figures(cfg, start=start)
    ch = build_chain(cfg, start=start)
    r = replay(cfg, start, 3)
    tr = truncated(ch, 3)
    assert (tr["mean"], tr["award"], tr["tail"]) == (r["mean"], r["award"], r["tail"])
    assert f.exact and r["award"] <= f.p_free_spins <= r["award"] + r["tail"]
    assert r["mean"] <= f.mean <= r["mean"] + r["tail"] * max(state_means(ch))
    plain = chain_figures(cfg)
    assert f.mean != plain.mean
    rng = random.Random(11)
    n = 5_000
    wins = [play_round(cfg, feats, rng)[0].win for _ in range(n)]
    mean = sum(wins) / n
    sd = (sum(x * x for x in wins) / n - mean * mean) ** 0.5
    assert abs(mean - float(f.mean)) < 3.3 * sd / n ** 0.5


FEATURES_TOML = '''
[features.starfall_wilds]
probability = { win = "1/10", no_win = "1/5" }
modes = { pattern = 1, line = 2 }
pattern_count = { 1 = 1, 2 = 3 }
line_count = { 2 = 1 }

[features.magic_transform]
probability = { win = "1/9", no_win = "1/11" }
from = ["B", "C"]
to = { A = 1, B = 3 }
'''


def test_report_of_a_grid_game_with_features_is_exact(tmp_path, capsys):
    d = str(write_grid(tmp_path / "g", rows=2, columns=3, extra=FEATURES_TOML))
    assert main(["report", "--set", d, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "exact"
    from strips.loader import load_math_set
    from exact.rules import features_of, grid_config
    ms = load_math_set(d)
    cfg = grid_config(ms.model)
    assert [f.name for f in features_of(ms.model).features] == ["starfall_wilds", "magic_transform"]
    assert Fraction(out["rtp"]) * cfg.bet == chain_figures(cfg, start=start_distribution(cfg, features_of(ms.model))).mean
    # comply checks the whole round's RTP, and each award's lower bound counts only the drops no feature
    # touches: the run's probability times 1 - the features' probabilities on a drop with a win
    from exact.cli.grid import _run_probability
    code = main(["comply", "--set", d, "--json"])
    com = json.loads(capsys.readouterr().out)
    assert com["figures"] == "exact" and code == (0 if com["passed"] else 1)
    assert {Fraction(c["value"]) for c in com["checks"] if c["measure"] == "rtp"} == {Fraction(out["rtp"])}
    untouched = 1 - Fraction(1, 10) - Fraction(1, 9)
    odds = [c for c in com["checks"] if c["item"].endswith("(lower bound)")]
    assert odds and all(Fraction(c["value"]) == _run_probability(cfg, c["item"].split()[1], int(c["item"].split()[0]))
                        * untouched for c in odds)


@pytest.mark.parametrize("old,new,words", [
    ('win = "1/10"', 'win = 0.1', "exact probability"),
    ('no_win = "1/5"', 'no_win = "6/5"', "in [0, 1]"),
    ("[features.magic_transform]", "[features.magic]", "unsupported rule: feature 'magic'"),
    ('from = ["B", "C"]', 'from = ["B", "Z"]', "'Z' is not a pay symbol"),
    ("line_count = { 2 = 1 }", "line_count = { 9 = 1 }", "'9' is not one of"),
    ('probability = { win = "1/9"', 'probability = { win = "19/20"', "sum to more than 1"),
])
def test_each_malformed_feature_key_is_refused_in_one_line(tmp_path, capsys, old, new, words):
    text = FEATURES_TOML.replace(old, new)
    assert text != FEATURES_TOML
    d = str(write_grid(tmp_path / "g", rows=2, columns=3, extra=text))
    assert main(["report", "--set", d]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "game.toml:" in err, err


@pytest.mark.parametrize("extra,where", [
    (FEATURES_TOML, "features.starfall_wilds.line_count.2: no row or column of 2 cells"),
    ('\n[features.irish_luck]\nprobability = { no_win = "1/10" }\norientation = { row = 1 }\nsymbols = { A = 1 }\n',
     "features.irish_luck.orientation.row: every row holds the key's start cell"),
])
def test_a_feature_line_that_only_the_key_s_lines_could_hold_is_refused(tmp_path, capsys, extra, where):
    """On a 1x3 grid the key starts on the only row: no line of 2 or more cells is free of it."""
    d = str(write_grid(tmp_path / "g", rows=1, columns=3, extra=extra))
    assert main(["report", "--set", d]) == 2
    err = capsys.readouterr().err
    assert where in err and "game.toml:" in err and err.count("\n") == 1, err


@pytest.mark.parametrize("command", ["report", "comply"])
def test_a_grid_with_too_many_initial_drops_for_the_chain_is_simulated(tmp_path, capsys, monkeypatch, command):
    """A grid game whose random features have more initial drops than the exact round enumerates is
    simulated (as the bundled finn's README documents for rtp --set finn); it was refused in one line."""
    import exact.cli.grid as grid_cli
    import exact.grid as grid
    monkeypatch.setattr(grid, "MAX_FEATURE_DROPS", 1)
    monkeypatch.setattr(grid_cli, "DEFAULT_HALFWIDTH", 0.5)
    d = str(write_grid(tmp_path / "g", rows=2, columns=3, extra=FEATURES_TOML))
    assert main([command, "--set", d, "--json", "--seed", "3"]) in (0, 1)
    out = json.loads(capsys.readouterr().out)
    text = json.dumps(out)
    assert "simulat" in text and "random features of the initial drop" not in capsys.readouterr().err


def test_commands_the_features_do_not_model_refuse_in_one_line_and_the_others_simulate(tmp_path, capsys):
    d = str(write_grid(tmp_path / "g", rows=2, columns=3, extra=FEATURES_TOML))
    big = str(write_grid(tmp_path / "big", rows=4, columns=4, extra=FEATURES_TOML))
    assert main(["sensitivity", "--set", d]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("random features of the initial drop" in err or "grid" in err), err
    for argv in (["simulate", "--set", d, "--rounds", "20000", "--json"],
                 ["report", "--set", big, "--target-halfwidth", "0.2", "--max-rounds", "20000", "--json"]):
        assert main(argv) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["method"] == "simulation" and set(out["features"]) == {"starfall_wilds", "magic_transform"}
        share = sum(v["rtp_share"] for v in out["features"].values()) + out["base_game"]["rtp_share"]
        assert abs(share + out["free_spins"]["rtp_share"] - 1) < 1e-9


def test_spin_shows_the_drop_before_its_feature_and_refuses_an_unknown_one(tmp_path, capsys):
    d = str(write_grid(tmp_path / "g", rows=2, columns=3, extra=FEATURES_TOML))
    assert main(["spin", "--set", d, "--cells", "A B C / K C B", "--feature", "magic_transform", "--seed", "1",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    first = [s for row in out["evaluations"][0]["grid"] for s in row]
    assert out["feature"] == "magic_transform" and out["drop"] == [["A", "B", "C"], ["K", "C", "B"]]
    assert first[0] == "A" and first[3] == "K" and first[1] == first[5] and set(first) <= {"A", "B", "K"}
    assert main(["spin", "--set", d, "--cells", "A B C / K C B", "--feature", "dragon_destroy", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "--feature must be one of the game's features" in err and err.count("\n") == 1


# ---- the free-spin games -------------------------------------------------------------------------------

from exact.rules.grid_free_games import FreeGame, free_game_drop, free_start  # noqa: E402

FREE = grid_config_of(2, 3, PAYS, key="K", free_spins=2, weights={"A": 1, "B": 2, "C": 3},
                      free_weights={"A": 2, "B": 1})
FEATS = GridFeatures((STARFALL, IRISH, MAGIC))
GAMES = [FreeGame("star_bar", 3), FreeGame("lucky_mug", 2), FreeGame("golden_pot", 1, 2, (("B", 1), ("C", 2)))]


def brute_game(cfg, game, grid):
    """A free-spin game's first-drop outcomes by direct recursion, written from the rules."""
    if game.name == "star_bar":
        return brute(cfg, STARFALL, grid)
    out = {}
    if game.name == "lucky_mug":
        won = {c for w in find_wins(cfg, grid) for c in w.cells}
        clean = [ln for ln in cfg.lines if not won & set(ln)]
        symbols = dict(IRISH.tables)["symbols"] if clean else ((cfg.wild, 1),)
        tot = sum(w for _, w in symbols)
        for ln in clean or cfg.lines:
            for s, w in symbols:
                _add(out, [s if c in ln else v for c, v in enumerate(grid)], Fraction(w, tot) / len(clean or cfg.lines))
        return out
    sets = list(itertools.combinations(range(cfg.cells), game.cells))
    tot = sum(w for _, w in game.overlay)
    for cells in sets:
        for fill in itertools.product(game.overlay, repeat=game.cells):
            p = Fraction(1, len(sets))
            g = list(grid)
            for c, (s, w) in zip(cells, fill):
                g[c] = s
                p *= Fraction(w, tot)
            for h, q in brute(cfg, MAGIC, g).items():
                _add(out, h, p * q)
    return out


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_each_free_spin_game_s_drop_equals_a_brute_force(game):
    rng = random.Random(3)
    grids = [tuple(rng.choice("ABC") for _ in range(6)) for _ in range(6)] + [("A", "A", "A", "B", "B", "B")]
    for grid in grids:
        got = outcomes(FREE, lambda ch: free_game_drop(FREE, FEATS, game, grid, ch))
        assert got == brute_game(FREE, game, grid), (game.name, grid)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_free_spin_game_adds_its_spins_times_its_cascade_from_its_first_drops(game):
    fs = free_start(FREE, FEATS, game)
    assert sum(fs.values()) == 1
    with_game = chain_figures(FREE, free_start=fs, free_spins=game.spins)
    nokey = grid_config_of(2, 3, PAYS, weights={"A": 2, "B": 1})
    c = chain_figures(nokey, start=fs).mean
    without = chain_figures(grid_config_of(2, 3, PAYS, key="K", weights={"A": 1, "B": 2, "C": 3}))
    assert with_game.mean == without.mean + with_game.p_free_spins * game.spins * c
    assert with_game.free_mean == c
    ch = build_chain(nokey, start=fs)
    r = replay(nokey, fs, 3)
    assert r["mean"] <= c <= r["mean"] + r["tail"] * max(state_means(ch))


@pytest.mark.slow   # about 25 s; the exact grid report with features stays in the default run
def test_report_gives_every_free_spin_game_and_the_lowest(tmp_path, capsys):
    games = '''
[features.irish_luck]
probability = { no_win = "1/10" }
orientation = { row = 1, column = 2 }
symbols = { A = 1, B = 2 }

[free_spins.games.star_bar]
spins = 3

[free_spins.games.lucky_mug]
spins = 2

[free_spins.choice]
unlock = { star_bar = 1, lucky_mug = 9 }
'''
    d = str(write_grid(tmp_path / "g", rows=2, columns=3, extra=FEATURES_TOML.split("[features.magic")[0] + games))
    assert main(["report", "--set", d, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    g = out["free_spin_games"]
    assert set(g) == {"star_bar", "lucky_mug"} and out["default_choice"] == "star_bar"
    assert out["rtp"] == g["star_bar"]["rtp"]
    assert out["lowest_choice"] == min(g, key=lambda k: Fraction(g[k]["rtp"]))
    main(["comply", "--set", d, "--json"])         # the RTP of every choice is checked
    com = json.loads(capsys.readouterr().out)
    assert {c["item"]: Fraction(c["value"]) for c in com["checks"] if c["measure"] == "rtp"} == \
        {f"rtp ({k})": Fraction(v["rtp"]) for k, v in g.items()}
    capped = write_grid(tmp_path / "c", rows=2, columns=3, extra=FEATURES_TOML.split("[features.magic")[0] + games)
    (capped / "game.toml").write_text((capped / "game.toml").read_text().replace("[game]\n", "[game]\nmax_win = 50\n", 1))
    rules = tmp_path / "cap.toml"
    rules.write_text('[[rules]]\nid = "cap"\njurisdiction = "lab"\nmeasure = "max_win_bets"\nmax = "60"\n'
                     'source = "lab"\n')
    main(["comply", "--set", str(capped), "--json", "--rules", str(rules), "--jurisdiction", "lab"])
    com = json.loads(capsys.readouterr().out)      # a cap: the chain's capped round; the cap is the maximum
    assert com["figures"].startswith("chain, within")
    assert [(c["item"], c["pass"]) for c in com["checks"] if c["measure"] == "max_win_bets"] == \
        [("max win (the win cap)", True)]
    lava = FEATURES_TOML.split("[features.magic")[0] + games.replace("lucky_mug]", "lava_lair]", 1).replace(
        "lucky_mug = 9", "lava_lair = 4")
    bad = str(write_grid(tmp_path / "bad", rows=2, columns=3, extra=lava))
    assert main(["report", "--set", bad]) == 2
    err = capsys.readouterr().err
    assert "lava_lair uses the tables of [features.dragon_destroy]" in err and err.count("\n") == 1
    dragon = '\n[features.dragon_destroy]\nprobability = { no_win = "1/10" }\ncount = { 2 = 1 }\n'
    assert main(["report", "--set", str(write_grid(tmp_path / "never", rows=2, columns=3, extra=lava + dragon))]) == 2
    err = capsys.readouterr().err       # a grid no removal of 2 cells can make win: the rule has no reading
    assert "the Dragon's redraw never ends" in err and err.count("\n") == 1
    dragon = dragon.replace('"1/10"', '"0"')        # Lava Lair's Dragon Destroy only
    good = str(write_grid(tmp_path / "lava", rows=2, columns=3, extra=lava + dragon))
    assert main(["report", "--set", good, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    g = out["free_spin_games"]
    assert set(g) == {"star_bar", "lava_lair"} and out["method"] == "exact"
    star, lava_rtp = Fraction(g["star_bar"]["rtp"]), Fraction(g["lava_lair"]["rtp"])
    assert Fraction(out["new_player"]["rtp"]) == (3 * star + 13 * lava_rtp) / 16      # awards 1-3, then 4-16
    nofeature = str(write_grid(tmp_path / "nof", rows=2, columns=3, extra="\n[free_spins.games.lucky_mug]\nspins = 2\n"))
    assert main(["report", "--set", nofeature]) == 2
    err = capsys.readouterr().err
    assert "uses the tables of [features.irish_luck]" in err and "game.toml:" in err and err.count("\n") == 1


def test_spin_of_a_free_spin_shows_the_game_s_first_drop_change(tmp_path, capsys):
    games = FEATURES_TOML.split("[features.magic")[0] + "\n[free_spins.games.star_bar]\nspins = 3\n"
    d = str(write_grid(tmp_path / "g", rows=2, columns=3, extra=games))
    assert main(["spin", "--set", d, "--phase", "free", "--seed", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    first = [s for row in out["evaluations"][0]["grid"] for s in row]
    assert out["feature"] == "star_bar" and "W" in first and "W" not in sum(out["drop"], [])
    assert main(["spin", "--set", d, "--phase", "free", "--seed", "4", "--feature", "lava_lair"]) == 2
    assert "must be one of the free-spin games" in capsys.readouterr().err


# ---- Lava Lair: the sticky WILD and the stored Dragon Destroy ----------------------------------------------

from exact.grid_chain import lava_moments  # noqa: E402
from exact.rules.grid_free_games import play_lava_spin  # noqa: E402

LAVA_FEATS = GridFeatures((Feature("dragon_destroy", Fraction(0), Fraction(0), (("count", ((2, 1), (3, 1))),)),))


def test_the_sticky_wild_is_never_removed_never_explodes_never_moves():
    cfg = grid_config_of(2, 3, PAYS, key="K", free_spins=1)
    sticky = cfg.path[0]                  # the bottom-left cell, 3
    grid = ("C", "B", "A", "W", "A", "A")  # bottom row W A A: a win of A holding the sticky WILD
    ev = evaluate(cfg, grid, sticky)
    assert [w.symbol for w in ev.wins] == ["A"] and ev.pay == 6
    assert ev.removed == (4, 5) and ev.new_wilds == ()          # no explosion of 0 (above it), no new WILD
    assert ev.moved[sticky] == "W" and ev.refill == (4, 5)        # the others move along the path without it
    assert ev.moved[:3] == ("C", "B", "A")


def brute_lava(cfg, depth):
    """A Lava Lair spin replayed over every drop, refill and Dragon Destroy outcome to ``depth`` steps
    (an evaluation with a win, or the last one; one without a win that fires the Dragon Destroy counts
    with the evaluation after it), written from the rules: (mean win so far, the mass still running)."""
    w = {s: q for s, q in cfg.table(cfg.free_table) if q}
    tot = sum(w.values())
    sticky = cfg.path[0]
    rest = [c for c in cfg.path if c != sticky]
    out = {"mean": Fraction(0), "tail": Fraction(0)}

    def dragon(grid):
        res = {}
        for m, pm in ((2, Fraction(1, 2)), (3, Fraction(1, 2))):
            sets = list(itertools.combinations(rest, m))
            for s in sets:
                left = [grid[c] for c in rest if c not in s]
                moved = list(grid)
                for c in rest:
                    moved[c] = None
                for c, v in zip(rest[m:], left):
                    moved[c] = v
                for fill in itertools.product(w, repeat=m):
                    q = pm / len(sets)
                    for x in fill:
                        q *= Fraction(w[x], tot)
                    g = refilled(moved, rest[:m], fill)
                    if find_wins(cfg, g):
                        _add(res, g, q)
        t = sum(res.values())
        return {g: q / t for g, q in res.items()}

    def go(grid, p, used, step):
        if step == depth:
            out["tail"] += p
            return
        ev = evaluate(cfg, grid, sticky)
        if not ev.wins:
            if not used:
                for g, q in dragon(grid).items():
                    go(g, p * q, True, step)
            return
        out["mean"] += p * ev.pay
        for fill in itertools.product(w, repeat=len(ev.refill)):
            q = p
            for x in fill:
                q *= Fraction(w[x], tot)
            go(refilled(ev.moved, ev.refill, fill), q, used, step + 1)

    for fill in itertools.product(w, repeat=len(rest)):
        p = Fraction(1)
        g = [None] * cfg.cells
        g[sticky] = cfg.wild
        for c, x in zip(rest, fill):
            g[c] = x
            p *= Fraction(w[x], tot)
        go(g, p, False, 0)
    return out


def test_a_lava_lair_spin_equals_a_truncated_literal_replay_and_the_random_player():
    cfg = grid_config_of(2, 3, PAYS, key="K", free_spins=3, weights={"A": 1, "B": 2, "C": 3},
                         free_weights={"A": 2, "B": 1})
    m = lava_moments(cfg, LAVA_FEATS)
    assert m["exact"] and m["zero"] == 0                  # the stored Dragon Destroy guarantees a win
    for depth in (1, 3):
        r = brute_lava(cfg, depth)
        mass, mean = {0: Fraction(1)}, Fraction(0)          # the chain's first ``depth`` steps, forward
        for _ in range(depth):
            nxt = {}
            for a, q in mass.items():
                for p, pay, j in m["rows"][a]:
                    mean += q * p * pay
                    if j >= 0:
                        nxt[j] = nxt.get(j, Fraction(0)) + q * p
            mass = nxt
        assert (mean, sum(mass.values())) == (r["mean"], r["tail"])
        assert r["mean"] <= m["mean"] <= r["mean"] + r["tail"] * max(m["means"])
    rng = random.Random(5)
    wins = [play_lava_spin(cfg, LAVA_FEATS, rng)[0] for _ in range(4000)]
    mean = sum(wins) / len(wins)
    sd = (sum(x * x for x in wins) / len(wins) - mean * mean) ** 0.5
    assert abs(mean - float(m["mean"])) < 3.3 * sd / len(wins) ** 0.5
    with_lava = chain_figures(cfg, free_spins=3, free_moments=m)
    without = chain_figures(grid_config_of(2, 3, PAYS, key="K", weights={"A": 1, "B": 2, "C": 3}))
    assert with_lava.mean == without.mean + with_lava.p_free_spins * 3 * m["mean"]
