"""rtp comply: award odds per game round against a literal replay of whole rounds, the rules file, the command.

The oracle plays every base window through the evaluator and, when it
triggers, every sequence of free-spin windows through the ladder (or the
retrigger rule) literally, tracking whether any spin showed the award.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction as F
from math import prod

import pytest

from exact.cli import main
from exact.comply import awards, comply, load_rules, parse_rules, patterns
from exact.engine import analyse
from exact.evaluator import evaluate
from exact.rules import by_count
from mathset_files import write_set
from strips.errors import MathSetError
from strips.loader import load_math_set
from generators import NO_FS_GAME, TINY_BASE, TINY_BONUS, TINY_GAME, TINY_LEVEL2, rare_set
from mathset_files import plain_wheel_game


def windows(strips, rows):
    lengths = strips.lengths
    n = prod(lengths)
    for stops in itertools.product(*(range(k) for k in lengths)):
        yield F(1, n), strips.window(stops, rows)


def shows(model, award: str, res, phase_is_base: bool) -> bool:
    """Whether one evaluated spin shows the award named as ``awards`` names it."""
    parts = award.split()
    if parts[-1] == "OAK":
        return any(w.symbol == parts[0] and w.oak == int(parts[1]) and w.pay > 0 for w in res.ways)
    if parts[-2:] == ["scatter", "pay"]:
        m = parts[1]
        return res.scatters >= int(m[:-1]) if m.endswith("+") else res.scatters == int(m)
    count = int(parts[1])
    table = model.trigger if parts[0] == "trigger" else model.retrigger
    if (parts[0] == "trigger") != phase_is_base:
        return False
    keys = sorted(c for c, _ in table)
    nxt = next((k for k in keys if k > count), 10**9)
    return count <= res.scatters < nxt


def spin_table(ms, phase, predicate, base):
    """[(probability, shows the award, scatter count, KEY count)] over every window of one spin;
    ``predicate(model, result, base)`` says whether a spin shows the award."""
    model = ms.model
    merged = {}
    for p, w in windows(ms.phase_strips(phase), model.rows):
        res = evaluate(model, w, None, phase.multiplier)
        key = (predicate(model, res, base), res.scatters, res.keys)
        merged[key] = merged.get(key, F(0)) + p
    return [(p, *key) for key, p in merged.items()]


def feature_avoids_ladder(model, level_tables, initial):
    """Section 11 literally, keeping only the paths where no spin showed the award."""
    ended = F(0)
    start = {0: F(1)}                       # KEY counter -> mass of the paths that avoided the award
    for li, table in enumerate(level_tables):
        spins = initial if li == 0 else model.levels[li].spins
        states = dict(start)
        for _ in range(spins):
            nxt = {}
            for c, m in states.items():
                for p, hit, _, k in table:
                    if not hit:
                        nxt[c + k] = nxt.get(c + k, F(0)) + m * p
            states = nxt
        start = {}
        for c, m in states.items():
            if li + 1 < len(level_tables) and c >= model.levels[li + 1].threshold:
                start[c] = m
            else:
                ended += m
    return ended


def feature_avoids_retrigger(model, table, initial, cap):
    """Retrigger rule literally: (left, played) with the cap on the total awarded spins."""
    ended = F(0)
    states = {(initial, 0): F(1)}
    while states:
        nxt = {}
        for (left, played), m in states.items():
            for p, hit, n, _ in table:
                if hit:
                    continue
                extra = by_count(model.retrigger, n)
                extra = min(extra, cap - left - played)
                t = (left - 1 + extra, played + 1)
                if t[0] == 0:
                    ended += m * p
                else:
                    nxt[t] = nxt.get(t, F(0)) + m * p
        states = nxt
    return ended


def round_contains(ms, award):
    """P(a round shows the award named as ``awards`` names it), replayed literally."""
    return round_contains_with(ms, lambda model, res, base: shows(model, award, res, base))


def round_contains_with(ms, predicate):
    model = ms.model
    base = spin_table(ms, model.base_phase, predicate, True)
    levels = [spin_table(ms, model.level_phase(lv), predicate, False) for lv in model.levels]
    feature = {}
    for spins in {by_count(model.trigger, n) for _, _, n, _ in base} - {0}:
        if not levels:
            feature[spins] = F(1)
        elif model.retrigger:
            feature[spins] = feature_avoids_retrigger(model, levels[0], spins, model.retrigger_cap)
        else:
            feature[spins] = feature_avoids_ladder(model, levels, spins)
    avoid = F(0)
    for p, hit, n, _ in base:
        if not hit:
            spins = by_count(model.trigger, n)
            avoid += p * (feature[spins] if spins else 1)
    return 1 - avoid


@pytest.fixture(scope="module", params=[1, 2], ids=["one level", "two levels"])
def tiny_set(request, tmp_path_factory):
    levels = request.param
    game = (TINY_GAME if levels == 2 else TINY_GAME.replace("weights.level2 = [1, 3]\n", "")) + \
        (TINY_LEVEL2 if levels == 2 else "")
    d = write_set(tmp_path_factory.mktemp(f"comply{levels}"), base=TINY_BASE, bonus=TINY_BONUS, game=game)
    return load_math_set(str(d))


def test_award_odds_per_round_equal_a_literal_replay(tiny_set):
    found = awards(tiny_set)
    assert {a.kind for a in found} >= {"combination", "trigger"}
    for a in found:
        assert a.probability.exact
        assert a.probability.low == round_contains(tiny_set, a.item), a.item


RETRIGGER_GAME = """
[game]
name = "tiny retrigger"
reels = 3
rows = 2
bet = 5

[strips]
base = "base.csv"

[symbols.A]
class = "pay"
pays = [0, 2, 6]
[symbols.B]
class = "pay"
pays = [0, 1, 3]
[symbols.W]
class = "wild"
reels = { base = [2, 3] }
[symbols.S]
class = "scatter"
reels = { base = [1, 2, 3] }
pays = [0, 2, 10]

[free_spins]
strips = "base"
trigger = { 2 = 2 }
retrigger = { 2 = 1 }
retrigger_cap = 4

[[free_spins.levels]]
multiplier = 2
"""


def test_retrigger_awards_equal_a_literal_replay(tmp_path):
    base = [["A", "S", "B", "A", "B"], ["B", "W", "S", "A"], ["S", "A", "B", "W", "B"]]
    (tmp_path / "game.toml").write_text(RETRIGGER_GAME)
    (tmp_path / "base.csv").write_text("reel1,reel2,reel3\n" + "\n".join(
        ",".join(c[i] if i < len(c) else "" for c in base) for i in range(5)) + "\n")
    ms = load_math_set(str(tmp_path))
    found = awards(ms)
    kinds = {a.kind for a in found}
    assert kinds == {"combination", "scatter pay", "trigger", "retrigger"}
    for a in found:
        assert a.probability.low == round_contains(ms, a.item), a.item


def retrigger_set(path, cap):
    base = [["A", "S", "B", "A", "B", "A"], ["B", "W", "S", "A", "B"], ["S", "A", "B", "W", "B", "A"]]
    game = RETRIGGER_GAME.replace("retrigger_cap = 4\n", "" if cap is None else f"retrigger_cap = {cap}\n")
    path.mkdir()
    (path / "game.toml").write_text(game)
    (path / "base.csv").write_text("reel1,reel2,reel3\n" + "\n".join(
        ",".join(c[i] if i < len(c) else "" for c in base) for i in range(6)) + "\n")
    return load_math_set(str(path))


def test_uncapped_retrigger_bounds_are_tight_and_hold_the_limit_of_the_capped_values(tmp_path):
    free = {a.item: a.probability for a in awards(retrigger_set(tmp_path / "free", None))}
    capped = {a.item: a.probability.low for a in awards(retrigger_set(tmp_path / "cap", 30))}
    for item, b in free.items():
        assert b.low <= b.high and b.high - b.low <= F(1, 10**29)
        # a cap only removes spins, so it can only lower the odds of an award; 30 spins are rarely reached
        assert capped[item] <= b.high
        assert b.low - capped[item] < F(1, 10**6)
    assert any(not b.exact for b in free.values())


def test_without_free_spins_a_combination_is_the_engines_oak_probability():
    ms = load_math_set("rules_page")
    an = analyse(ms)
    trig = {a.item: a.probability.low for a in awards(ms, an) if a.kind == "trigger"}
    split = an.base.by_scatter.prob
    assert trig == {"trigger 3 FS": split[3], "trigger 4 FS": split[4], "trigger 5 FS": sum(split[5:], F(0))}


def test_no_free_spins_combination_odds_are_the_engines_oak_probabilities(tmp_path):
    ms = load_math_set(str(rare_set(tmp_path, 12)))
    an = analyse(ms)
    for a in awards(ms, an):
        sym, n = a.item.split()[0], int(a.item.split()[1])
        assert a.probability.low == an.base.oak_prob[sym][n - 1]


def test_a_rare_5_oak_fails_gli_exactly_there(tmp_path):
    ms = load_math_set(str(rare_set(tmp_path)))
    checks = comply(ms, load_rules(), ["gli-11"])
    failed = [c.item for c in checks if not c.passed]
    assert failed == ["PIC1 5 OAK"]
    top = next(c for c in checks if c.item == "PIC1 5 OAK")
    assert top.value == F(3, 150) ** 5 and top.value < F(1, 10**8)


def test_a_rare_pattern_fails_au_nz_1_22_16a(tmp_path):
    ms = load_math_set(str(rare_set(tmp_path)))
    checks = comply(ms, load_rules(), ["au-nz"])
    failed = [c.item for c in checks if not c.passed and c.rule.id == "au-nz-1.22.16a"]
    assert failed == ["PIC1 5 OAK"]
    # per way: PIC1 on every reel's row = 1/150 each; times the 3^5 ways
    assert dict(patterns(ms))["PIC1 5 OAK"] == F(1, 150) ** 5 * 3 ** 5


def test_patterns_equal_a_count_over_every_way(tmp_path):
    ms = load_math_set(str(rare_set(tmp_path, 6)))
    model, strips = ms.model, ms.strips["base"]
    got = dict(patterns(ms))
    want = {}
    n = prod(strips.lengths)
    for stops in itertools.product(*(range(k) for k in strips.lengths)):
        w = strips.window(stops, model.rows)
        for way in itertools.product(range(model.rows), repeat=model.reels):
            for s in model.pay_symbols:
                k = 0
                while k < model.reels and w[k][way[k]] == s.name:
                    k += 1
                if k and s.pays[k - 1]:
                    want[f"{s.name} {k} OAK"] = want.get(f"{s.name} {k} OAK", F(0)) + F(1, n)
    assert set(want) <= set(got) and len(want) >= 4
    assert {k: want.get(k, F(0)) for k in got} == got


def test_rtp_rules_use_the_exact_rtp():
    ms = load_math_set("rules_page")
    checks = comply(ms, load_rules(), ["nevada", "south-dakota"])
    an = analyse(ms)
    from markov.round import round_result
    rtp = round_result(ms.model, an.base, an.levels).rtp
    assert [(c.item, c.value, c.passed) for c in checks] == [("RTP", rtp, True), ("RTP", rtp, True)]


# ---------------------------------------------------------------------------
# the rules file
# ---------------------------------------------------------------------------
GOOD = '[[rules]]\nid = "own-rtp"\njurisdiction = "own"\nmeasure = "rtp"\nmin = "92%"\nsource = "house"\n'


def test_every_package_rule_names_its_source_section_and_version():
    for r in load_rules():
        assert r.source and r.section and r.version, r.id


def test_a_users_rule_is_added_and_checked(tmp_path):
    f = tmp_path / "own.toml"
    f.write_text(GOOD.replace('"92%"', '"97%"'))
    ms = load_math_set("rules_page")
    checks = comply(ms, load_rules(f), ["own"])
    assert [(c.rule.id, c.passed) for c in checks] == [("own-rtp", False)]
    assert checks[0].rule.min == F(97, 100)


@pytest.mark.parametrize("text,what", [
    ("[[rules]]\nid = \"x\"\njurisdiction = \"j\"\nmeasure = \"rtp\"\n", "give min or max"),
    ("[[rules]]\nid = \"x\"\njurisdiction = \"j\"\nmeasure = \"speed\"\nmin = \"1\"\n", "unknown measure"),
    ("[[rules]]\nid = \"x\"\njurisdiction = \"j\"\nmeasure = \"rtp\"\nmin = 0.9\n", "exact number"),
    ("[[rules]]\nid = \"x\"\njurisdiction = \"j\"\nmeasure = \"rtp\"\nmin = \"abc\"\n", "exact number"),
    ("[[rules]]\njurisdiction = \"j\"\nmeasure = \"rtp\"\nmin = \"1\"\n", "id must be"),
    ("[[rules]]\nid = \"x\"\njurisdiction = \"j\"\nmeasure = \"rtp\"\nmin = \"1\"\ncolour = 1\n", "unknown key"),
    (GOOD + GOOD, "appears twice"),
    ("[[rules]]\nid = \"x\"\njurisdiction = \"j\"\nmeasure = \"sd_per_bet\"\ndecimals = -1\n", "decimals"),
    ("rules = 3\n", "array of tables"),
    ("[other]\n", "unknown table"),
    ("[[rules]\n", "not valid TOML"),
])
def test_raises_on_a_bad_rule(text, what):
    with pytest.raises(MathSetError) as e:
        parse_rules(text.encode(), "own.toml")
    assert what in str(e.value) and str(e.value).startswith("own.toml:")


def test_the_second_rule_is_located_on_its_own_line():
    text = GOOD + '[[rules]]\nid = "y"\njurisdiction = "j"\nmeasure = "rtp"\nmin = "x"\n'
    with pytest.raises(MathSetError) as e:
        parse_rules(text.encode(), "own.toml")
    assert e.value.row == 11   # the min line of the second rule


# ---------------------------------------------------------------------------
# the command
# ---------------------------------------------------------------------------
def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_comply_json_schema_and_exit_0_on_the_bundled_set(capsys):
    code, out, _ = run(["comply", "--json", "--no-distribution"], capsys)
    assert code == 0
    checks = json.loads(out)["checks"]
    assert {c["jurisdiction"] for c in checks} == {"gli-11", "au-nz", "nevada", "south-dakota"}
    for c in checks:
        assert set(c) >= {"rule", "jurisdiction", "item", "value", "limit", "pass"}
        assert c["pass"] is True


def test_comply_exits_1_naming_the_failing_item(tmp_path, capsys):
    d = rare_set(tmp_path)
    code, out, _ = run(["comply", "--set", str(d), "--jurisdiction", "gli-11", "--no-distribution"], capsys)
    assert code == 1
    fail_lines = [line for line in out.splitlines() if line.rstrip().endswith("FAIL")]
    assert len(fail_lines) == 1 and "PIC1 5 OAK" in fail_lines[0]
    # with the distribution the top award (five PIC1 and nothing better) is as rare and fails too
    code, out, _ = run(["comply", "--set", str(d), "--jurisdiction", "gli-11"], capsys)
    fail_lines = [line for line in out.splitlines() if line.rstrip().endswith("FAIL")]
    assert code == 1 and len(fail_lines) == 2 and "max win" in fail_lines[1]


@pytest.mark.parametrize("flags", [["--jurisdiction", "gli-11", "nevada"],
                                   ["--jurisdiction", "gli-11", "--jurisdiction", "nevada"],
                                   ["--jurisdiction", "gli-11", "--jurisdiction", "nevada", "gli-11"]])
def test_comply_takes_several_jurisdictions_after_one_flag_or_repeated(capsys, flags):
    code, out, err = run(["comply", "--json", "--no-distribution"] + flags, capsys)
    assert (code, err) == (0, "")
    assert {c["jurisdiction"] for c in json.loads(out)["checks"]} == {"gli-11", "nevada"}


@pytest.mark.parametrize("argv,what", [
    (["comply", "--jurisdiction", "mars"], "unknown jurisdiction"),
    (["comply", "--rules", "/nonexistent/rules.toml"], "no such rules file"),
])
def test_comply_bad_input_is_one_line_exit_2(argv, what, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and what in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------
# line games: per-line probabilities exact, per-round odds as proven bounds
# ---------------------------------------------------------------------------
LINE_GAME = """
[game]
name = "tiny lines"
reels = 3
rows = 2
bet = 3
evaluation = "lines"

[lines]
paylines = [[1, 1, 1], [2, 2, 2], [1, 2, 1]]

[strips]
base = "base.csv"

[symbols.A]
class = "pay"
pays = [0, 2, 8]
[symbols.B]
class = "pay"
pays = [0, 1, 4]
[symbols.W]
class = "wild"
reels = { base = [1, 2, 3] }
pays = [0, 5, 20]
[symbols.S]
class = "scatter"
reels = { base = [1, 2, 3] }
pays = [0, 3, 9]

[free_spins]
strips = "base"
trigger = { 2 = 1 }
retrigger = { 2 = 1 }
retrigger_cap = 3

[[free_spins.levels]]
multiplier = 2
"""


def line_set(tmp_path):
    base = [["A", "S", "B", "W", "B"], ["B", "W", "A", "S"], ["S", "A", "B", "W", "A"]]
    (tmp_path / "game.toml").write_text(LINE_GAME)
    (tmp_path / "base.csv").write_text("reel1,reel2,reel3\n" + "\n".join(
        ",".join(c[i] if i < len(c) else "" for c in base) for i in range(5)) + "\n")
    return load_math_set(str(tmp_path))


def test_line_game_per_line_probabilities_and_round_bounds_hold_the_literal_values(tmp_path):
    from exact.comply import line_probabilities
    ms = line_set(tmp_path)
    model = ms.model
    per_line = line_probabilities(ms, model.base_phase)
    want: dict = {}
    for p, w in windows(ms.strips["base"], model.rows):
        for lw in evaluate(model, w, None, 1).lines:
            want.setdefault((lw.symbol, lw.run), [F(0)] * 3)[lw.line - 1] += p
    assert {k: v for k, v in per_line.items() if any(v)} == want
    assert dict(patterns(ms)) == {f"{s} {n} OAK": sum(v, F(0)) for (s, n), v in want.items()}
    for a in awards(ms):
        if a.kind != "combination":
            continue
        sym, n = a.item.split()[0], int(a.item.split()[1])

        def line_shows(model_, res, base, sym=sym, n=n):
            return any(lw.symbol == sym and lw.run == n for lw in res.lines)
        truth = round_contains_with(ms, line_shows)
        assert a.probability.low <= truth <= a.probability.high, a.item
        assert a.probability.low > 0


# ---------------------------------------------------------------------------
# the external reference games (third-party strips read from ../shared at test time)
# ---------------------------------------------------------------------------
from pathlib import Path  # noqa: E402
import shutil  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "external"
EXTERNAL = {"african_simba": ("african-simba", ("base.csv",)),
            "dolphins_pearl": ("dolphins-pearl", ("base.csv", "bonus.csv"))}


@pytest.mark.parametrize("game", sorted(EXTERNAL))
def test_comply_runs_on_the_external_games(game, tmp_path, capsys):
    folder, files = EXTERNAL[game]
    if not (SHARED / folder / files[0]).is_file():
        pytest.skip(f"third-party strips not found at {SHARED / folder}")
    shutil.copyfile(ROOT / "strips" / "external" / game / "game.toml", tmp_path / "game.toml")
    for f in files:
        shutil.copyfile(SHARED / folder / f, tmp_path / f)
    code, out, err = run(["comply", "--set", str(tmp_path), "--json", "--no-distribution"], capsys)
    assert code in (0, 1) and not err
    checks = json.loads(out)["checks"]
    assert {c["jurisdiction"] for c in checks} == {"gli-11", "au-nz", "nevada", "south-dakota"}
    awards_ = [c for c in checks if c["rule"] == "gli-11-4.8.2"]
    assert any(c["item"].startswith("trigger") for c in awards_)
    ms = load_math_set(str(tmp_path))
    trig = analyse(ms).base.trigger_split.prob
    first = min(k for k, _ in ms.model.trigger)
    got = next(c for c in awards_ if c["item"].startswith(f"trigger {first} "))
    assert F(got["value"]) == sum(trig[first:], F(0)) or F(got["value"]) == trig[first]


def test_bet_modes_and_wheel_awards_are_checked_on_the_bundled_wheel_game():
    import exact
    ms = exact.load_math_set(plain_wheel_game())      # comply refuses frames: the set without them
    sheet = exact.par_sheet(ms)
    checks = comply(ms, load_rules(), ["gli-11", "nevada"], sheet=sheet)
    rtp = {c.item: c.value for c in checks if c.rule.measure == "rtp"}
    want = {"RTP": sheet.rtp}
    want.update({f"RTP of bet mode {k}": f["rtp"] for k, f in sheet.modes_figures.items() if k != "default"})
    want.update({f"RTP of buy {k}": f["rtp"] for k, f in sheet.buy.items()})
    assert rtp == want and len(rtp) >= 2
    got = {c.item: c.value for c in checks if "(wheel " in c.item and not c.item.startswith("bet mode ")}
    assert got == {f"{a} (wheel {w})": p for w, d in sheet.wheel.items() for a, p in d["awards"].items()}
    assert any(k.startswith("jackpot") for k in got)
    # wheel free spins are not replayed by the combination odds: those are lower bounds there
    assert all(not c.exact for c in checks if c.item.endswith(" OAK"))


def test_the_top_award_is_the_distributions_exact_max_win(tiny_set, capsys):
    from exact.distribution import win_distribution
    d = win_distribution(tiny_set)
    assert d.max_round_exact
    checks = comply(tiny_set, load_rules(), ["gli-11"], distribution=d)
    top = [c for c in checks if c.item.startswith("max win")]
    assert len(top) == 1 and top[0].value == d.max_round_win_probability and top[0].exact
    assert f"max win {d.max_round_win} credits" in top[0].item


def test_a_max_win_rule_of_ones_own_is_checked_in_bets(tiny_set, tmp_path):
    from exact.distribution import win_distribution
    d = win_distribution(tiny_set)
    f = tmp_path / "cap.toml"
    f.write_text('[[rules]]\nid = "cap"\njurisdiction = "own"\nmeasure = "max_win_bets"\nmax = "5000"\n')
    (c,) = comply(tiny_set, load_rules(f), ["own"], distribution=d)
    assert c.value == F(d.max_round_win, tiny_set.model.bet) and c.passed == (c.value <= 5000)
    with pytest.raises(ValueError, match="needs the win distribution|distribution"):
        comply(tiny_set, load_rules(f), ["own"])


@pytest.mark.parametrize("value", ['"1e999999999"', '"1e-99999999"', '"' + "9" * 80 + '"'])
def test_raises_on_a_limit_too_large_to_build_at_once(value):
    text = f'[[rules]]\nid = "x"\njurisdiction = "j"\nmeasure = "rtp"\n\nmin = {value}\n'
    with pytest.raises(MathSetError) as e:
        parse_rules(text.encode(), "own.toml")
    assert e.value.row == 6 and "exponent" in str(e.value)


def test_an_unknown_key_is_located_on_its_own_line():
    with pytest.raises(MathSetError) as e:
        parse_rules(b'[[rules]]\nid = "x"\njurisdiction = "j"\nmeasure = "rtp"\nfoo = 1\n', "own.toml")
    assert e.value.row == 5


def test_a_bet_modes_own_strips_get_their_own_award_odds_and_patterns(tmp_path):
    """A mode whose strips make PIC1 5 OAK rarer than 1 in 10^8 fails GLI-11 and AU/NZ 1.22.16a
    exactly at that mode's item, with the odds of a set whose base strips are the mode's."""
    common = rare_set(tmp_path / "rare", 12)
    rare = rare_set(tmp_path / "alone", 150)
    d = tmp_path / "modes"
    shutil.copytree(common, d)
    shutil.copyfile(rare / "base.csv", d / "rare.csv")
    (d / "game.toml").write_text(NO_FS_GAME + '\n[modes.rare]\ncost = 2\nstrips = { base = "rare.csv" }\n')
    ms = load_math_set(str(d))
    alone = load_math_set(str(rare))
    gli = comply(ms, load_rules(), ["gli-11"])
    assert [c.item for c in gli if not c.passed] == ["bet mode rare: PIC1 5 OAK"]
    by_item = {c.item: c.value for c in gli}
    for c in comply(alone, load_rules(), ["gli-11"]):
        if c.rule.measure == "award_odds":
            assert by_item[f"bet mode rare: {c.item}"] == c.value
    au = comply(ms, load_rules(), ["au-nz"])
    assert [c.item for c in au if not c.passed and c.rule.id == "au-nz-1.22.16a"] == ["bet mode rare: PIC1 5 OAK"]
    assert {c.item: c.value for c in au if c.rule.id == "au-nz-1.22.16a" and c.item.startswith("bet mode rare: ")} \
        == {f"bet mode rare: {k}": v for k, v in patterns(alone)}


def test_a_top_award_known_within_the_distributions_bound_prints_its_probability():
    """A top award whose probability is a float within the distribution's bound (an endless retrigger) prints
    that probability and its 1 in N, as every award does (it printed 0.00 for 1.0e-15)."""
    from exact.cli.comply import _value_text
    from exact.comply import Check
    rule = next(r for r in load_rules() if r.measure == "award_odds")
    text = _value_text(Check(rule, "max win 33450 credits (within the distribution's bound)", None, 1.0025e-15,
                             False, False))
    assert text == "1.0025e-15 (1 in 9.97506e+14)"
    assert _value_text(Check(rule, "max win", None, 0.0, False, False)) == "0 (never)"


def test_an_endless_retrigger_leaves_the_top_award_out_and_says_why(tmp_path, capsys, monkeypatch):
    """An endless retrigger has no largest round win: no top-award check, and the summary line and the JSON
    say "top award not checked" and why (it was checked against the distribution's cut-off, 1e-15).  The
    tiny set's distribution stands in, marked endless."""
    import dataclasses
    import exact.cli.comply
    from exact.distribution import win_distribution
    d = write_set(tmp_path, base=TINY_BASE, bonus=TINY_BONUS, game=TINY_GAME.replace("weights.level2 = [1, 3]\n", ""))
    tiny_set = load_math_set(str(d))
    endless = dataclasses.replace(win_distribution(tiny_set), max_round_exact=False)
    checks = comply(tiny_set, load_rules(), ["gli-11"], distribution=endless)
    assert checks and not any(c.item.startswith("max win") for c in checks)
    monkeypatch.setattr(exact.cli.comply, "win_distribution", lambda ms: endless)
    code, out, _ = run(["comply", "--set", str(d), "--jurisdiction", "gli-11"], capsys)
    assert "top award not checked (an endless retrigger has no largest round win)" in out.splitlines()[0]
    code, out, _ = run(["comply", "--set", str(d), "--jurisdiction", "gli-11", "--json"], capsys)
    got = json.loads(out)
    assert got["top_award_checked"] is False and got["top_award_not_checked"] == "an endless retrigger has no largest round win"


def test_a_line_award_only_free_spins_show_has_a_positive_lower_bound(tmp_path):
    """W 3 OAK cannot show in the base spin (no W on reel 1) but can in the free spins: its lower bound per round
    is P(trigger) x the first free spin's likeliest payline (it read 0, "never", and FAILed GLI-11), within the
    literal round's value."""
    text = LINE_GAME.replace('reels = { base = [1, 2, 3] }\npays = [0, 5, 20]',
                             'reels = { base = [2, 3], bonus = [1, 2, 3] }\npays = [0, 5, 20]')
    text = text.replace('reels = { base = [1, 2, 3] }\npays = [0, 3, 9]',
                        'reels = { base = [1, 2, 3], bonus = [1, 2, 3] }\npays = [0, 3, 9]')
    text = text.replace('strips = "base"\ntrigger', 'strips = "bonus"\ntrigger').replace(
        'base = "base.csv"', 'base = "base.csv"\nbonus = "bonus.csv"')
    base = [["A", "S", "B", "A", "B"], ["B", "W", "A", "S"], ["S", "A", "B", "W", "A"]]
    bonus = [["W", "S", "A"], ["W", "B", "S"], ["W", "A", "B"]]

    def csv(reels):
        h = max(len(c) for c in reels)
        return "reel1,reel2,reel3\n" + "\n".join(",".join(c[i] if i < len(c) else "" for c in reels)
                                                 for i in range(h)) + "\n"
    (tmp_path / "game.toml").write_text(text)
    (tmp_path / "base.csv").write_text(csv(base))
    (tmp_path / "bonus.csv").write_text(csv(bonus))
    ms = load_math_set(str(tmp_path))
    a, = [a for a in awards(ms) if a.item == "W 3 OAK"]

    def line_shows(model_, res, base_, sym="W", n=3):
        return any(lw.symbol == sym and lw.run == n for lw in res.lines)
    truth = round_contains_with(ms, line_shows)
    assert 0 < a.probability.low <= truth <= a.probability.high
