"""The rule registry: one ``supports()`` for the API and the command line, the rule contract, and
the win cap plug-in against brute force through the literal reading."""
from __future__ import annotations

import dataclasses
import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import exact
from exact import rules
from exact.rules import by_count, feature_multiplier, initial_spins, retrigger_spins, scatter_pay, symbol_scatter_pay
from exact.cli import main
from exact.enumeration import spin_histogram
from exact.evaluator import evaluate
from exact.gamble import round_eligible
from exact.rules.base import ANALYSES, Rule
from exact.rules.win_cap import WinCap, WinCapConfig
from exact.rules.base import CAPABILITIES
from proofs.simulate import prepare_mode, simulate_mode_block
from strips import limits
from strips.errors import MathSetError, UnsupportedRule
from strips.loader import bundled_names, bundled_path, load_math_set

from generators import API_CALLS, VARIANTS, write_variant

#: Every bundled set whose strips ship with it (the external games' strips are third-party data).
BUNDLED = bundled_names()

#: analysis -> its API entry point on a math set (each must refuse exactly what supports() refuses)
API = {**API_CALLS, "gamble": lambda ms: round_eligible(ms, ms.model.gamble)}


def _sets():
    """(label, MathSet) of every bundled set and every bet mode of one."""
    for name in BUNDLED:
        ms = load_math_set(name)
        yield name, ms
        for mode in ms.mode_names:
            yield f"{name}:{mode}", ms.mode(mode)


SETS = list(_sets())


def test_every_rule_keeps_the_contract():
    assert len({r.name for r in rules.RULES}) == len(rules.RULES)
    for r in rules.RULES:
        assert issubclass(r, Rule) and r.name and r.keys, r
        assert r.implements <= set(ANALYSES), r
        for _, ms in SETS:
            assert isinstance(r.present(ms.model), bool)
            for a in ANALYSES:
                why = r.refusal(ms.model, a)
                assert why is None or (isinstance(why, str) and "\n" not in why)


def _api_refuses(label, ms):
    """Every analysis ``supports()`` refuses on ``ms`` raises UnsupportedRule from the API with its line."""
    for analysis, call in API.items():
        s = rules.supports(ms, analysis)
        if s or (analysis == "gamble" and ms.model.gamble is None):
            continue
        with pytest.raises(UnsupportedRule) as e:
            call(ms)
        assert str(e.value) == s.message() and e.value.rule == s.rule, (label, analysis)


@pytest.mark.parametrize("label,ms", SETS, ids=[s for s, _ in SETS])
def test_api_refuses_exactly_what_supports_refuses(label, ms):
    """Every refused analysis raises UnsupportedRule with supports()'s line, before any work."""
    _api_refuses(label, ms)


def _rules_page_with_respin_mode(tmp_path) -> Path:
    """The bundled game with an added bet mode that respins on two FS (the case once silently wrong)."""
    d = tmp_path / "respin_mode"
    d.mkdir()
    src = bundled_path("rules_page")
    for f in src.iterdir():
        if f.suffix in (".csv", ".toml"):
            (d / f.name).write_bytes(f.read_bytes())
    with open(d / "game.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[modes.respin]\ncost = 20\nrespin = { symbol = "FS", count = 2 }\n')
    return d


def test_the_respin_mode_is_refused_where_it_was_silently_wrong(tmp_path, capsys):
    """The respin of a bet mode is not modelled by the distribution, sensitivity, tune, comply, export:
    the API refuses it (it once returned the distribution without the respin), as the CLI does."""
    whole = load_math_set(str(_rules_page_with_respin_mode(tmp_path)))
    ms = whole.mode("respin")
    for analysis in ("distribution", "sensitivity", "tune", "comply", "export"):
        with pytest.raises(UnsupportedRule, match="^unsupported rule: respin( with KEY collect and FISH values)?: "):
            API[analysis](ms)
    sheet = exact.par_sheet(whole)
    assert sheet.modes["respin"].round.mean > sheet.modes["default"].round.mean      # the report takes it
    assert main(["distribution", "--set", str(tmp_path / "respin_mode")]) == 2
    assert "unsupported rule: respin with KEY collect and FISH values" in capsys.readouterr().err


#: The commands of the analyses (each must refuse exactly what supports() refuses, in one line).
COMMANDS = ["distribution", "sensitivity", "tune", "comply", "export", "chain", "spin", "check", "report", "simulate",
            "prove"]


def _cli_refuses(name, analysis, capsys, tmp_path):
    ms = load_math_set(name)
    s = rules.supports(ms, analysis)
    if s:      # the command runs (tests/test_every_command.py runs each one on every bundled set)
        return
    extra = {"tune": ["--target-rtp", "0.9", "--out", str(tmp_path / "out")],
             "export": ["--xlsx", str(tmp_path / "par.xlsx")]}.get(analysis, [])
    code = main([analysis, "--set", name, *extra])
    err = capsys.readouterr().err
    assert code == 2 and err == f"rtp {analysis}: {ms.name}: {s.message()}\n", (name, analysis)


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("analysis", COMMANDS)
def test_cli_refuses_exactly_what_supports_refuses(name, analysis, capsys, tmp_path):
    _cli_refuses(name, analysis, capsys, tmp_path)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_api_and_cli_refuse_exactly_what_supports_refuses_on_the_test_sets(name, capsys, tmp_path):
    """The same on every test set of :data:`generators.VARIANTS` (a rule each beyond the rules page) and its
    bet modes."""
    d = str(write_variant(tmp_path / name, name))
    whole = load_math_set(d)
    for label, ms in [(name, whole)] + [(f"{name}:{m}", whole.mode(m)) for m in whole.mode_names]:
        _api_refuses(label, ms)
    for analysis in COMMANDS:
        _cli_refuses(d, analysis, capsys, tmp_path)


def test_support_table_is_the_readme_table():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert rules.support_table() in readme


def test_the_walk_through_of_adding_a_mechanic_is_the_win_cap_module():
    """README "Adding a mechanic" lists the win cap's implements and narrows as its module declares them, and names
    every capability of exact.rules.base.CAPABILITIES."""
    import re
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    walk = readme[readme.index("## Adding a mechanic"):readme.index("## External reference case")]
    implements = re.search(r"`implements` \(([a-z,\s]+)\)", walk).group(1)
    narrows = re.search(r"`yes\*` in the table: ([a-z,\s]+)\)", walk).group(1)
    assert {x.strip() for x in implements.split(",")} == set(WinCap.implements)
    assert {x.strip() for x in narrows.split(",")} == set(WinCap.narrows)
    assert [c for c in CAPABILITIES if f"`{c}`" not in walk] == []


def test_a_rule_that_needs_another_analysis_is_refused_by_it():
    """The win cap's report on a game with free spins needs the round distribution of the rest."""
    model = exact.load_math_set("wheel_game").model
    assert rules.supports(model, "report")
    capped = _with_cap(model, 100)
    s = rules.supports(capped, "report")
    assert not s and s.rule == "win cap" and "win distribution" in s.reason, s


# ---------------------------------------------------------------------------
# the win cap
# ---------------------------------------------------------------------------
def _with_cap(model, bets):
    return dataclasses.replace(model, rules=model.rules + (WinCapConfig(bets=bets),))


def _game(seed: int, cap: int | None, reels=3, rows=2, stops=5, scatter=False, **tables):
    rng = random.Random(seed)
    names = ["A", "B", "C", "W"] + (["S"] if scatter else [])
    symbols = {"A": {"class": "pay", "pays": [0, 4, 20][:reels] + [40] * (reels - 3)},
               "B": {"class": "pay", "pays": [0, 2, 10][:reels] + [15] * (reels - 3)},
               "C": {"class": "pay", "pays": [0, 1, 5][:reels] + [8] * (reels - 3)},
               "W": {"class": "wild", "reels": {"base": list(range(1, reels + 1))}}}
    if scatter:
        symbols["S"] = {"class": "scatter", "pays": [0, 3] + [10] * (reels * rows - 2),
                        "reels": {"base": list(range(1, reels + 1))}}
    game = {"game": {"reels": reels, "rows": rows, "bet": 2, **({"max_win": cap} if cap else {})}, "symbols": symbols,
            **tables}
    strips = [[rng.choice(names) for _ in range(stops)] for _ in range(reels)]
    return exact.math_set(game, {"base": strips})


def _brute(ms, cap_credits):
    """Every stop combination through the literal evaluator: (E[min(W,c)], E[min(W,c)^2], P(W >= c), wins)."""
    strips = ms.phase_strips(ms.model.base_phase)
    total, m1, m2, hit = 0, 0, 0, 0
    wins = {}
    for stops in itertools.product(*(range(n) for n in strips.lengths)):
        w = evaluate(ms.model, strips.window(stops, ms.model.rows)).win
        wins[w] = wins.get(w, 0) + 1
        c = min(w, cap_credits)
        total, m1, m2, hit = total + 1, m1 + c, m2 + c * c, hit + (w >= cap_credits)
    return Fraction(m1, total), Fraction(m2, total), Fraction(hit, total), wins


@pytest.mark.parametrize("seed", range(6))
def test_win_cap_equals_brute_force(seed):
    scatter = seed % 2 == 1
    plain = _game(seed, None, scatter=scatter)
    top = max(_brute(plain, 10 ** 9)[3])
    cap_bets = max(1, top // 2 // 2)            # a cap some rounds reach (bet 2 credits)
    ms = _game(seed, cap_bets, scatter=scatter)
    m1, m2, p, _ = _brute(ms, cap_bets * 2)
    sheet = exact.par_sheet(ms)
    sec = sheet.sections["win cap"]
    assert (sheet.mean_win, sheet.variance, sec.probability) == (m1, m2 - m1 * m1, p)
    assert sheet.rtp == m1 / 2 and sec.reached
    assert sum(sheet.components.values()) == sheet.mean_win
    assert sheet.method == f"enumeration of {5 ** 3} stop combinations"
    assert exact.par_sheet(plain).mean_win - sec.removed == m1      # the uncapped engine, less what the cap takes


def test_enumeration_histogram_equals_the_literal_evaluator():
    ms = _game(11, None, scatter=True)
    _, _, _, wins = _brute(ms, 1)
    assert dict(spin_histogram(ms).wins) == wins


def test_win_cap_never_reached_changes_nothing():
    plain, ms = _game(3, None), _game(3, 10 ** 6)
    a, b = exact.par_sheet(plain), exact.par_sheet(ms)
    assert (a.rtp, a.variance) == (b.rtp, b.variance) and not b.sections["win cap"].reached
    assert b.method == "per-reel factorisation" and "never reached" in b.sections["win cap"].lines()[0]


def test_win_cap_in_the_report_and_json(tmp_path, capsys):
    d = _write(tmp_path, _game(2, 3))
    assert main(["report", "--set", str(d), "--json"]) == 0
    out = capsys.readouterr().out
    assert '"method": "enumeration of 125 stop combinations"' in out and '"win_cap"' in out
    assert main(["report", "--set", str(d)]) == 0
    text = capsys.readouterr().out
    assert "win cap      3 x bet (6 credits): reached" in text and "removed by the win cap" in text


def test_win_cap_in_simulation_caps_each_round():
    """The simulator's round is the literal one capped: the same draws, each round min(W, cap)."""
    plain, capped = prepare_mode(_game(5, None, scatter=True)), prepare_mode(_game(5, 4, scatter=True))
    hit = 0
    for seed in range(200):
        a = simulate_mode_block(plain, 1, np.random.default_rng(seed))
        b = simulate_mode_block(capped, 1, np.random.default_rng(seed))
        assert b.win == min(a.win, 4 * 2) and b.base_win == a.base_win
        hit += a.win > 8
    assert 0 < hit < 200


def test_win_cap_simulated_beside_its_exact_figures(tmp_path, capsys):
    d = _write(tmp_path, _game(2, 3))
    assert main(["simulate", "--set", str(d), "--rounds", "20000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert Fraction(out["rtp"]) == exact.par_sheet(_game(2, 3)).rtp != exact.par_sheet(_game(2, None)).rtp
    assert out["rtp_inside"]


def test_win_cap_refused_where_not_modelled(tmp_path, capsys):
    d = _write(tmp_path, _game(2, 3))
    for command in ("distribution", "sensitivity", "comply"):
        assert main([command, "--set", str(d)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "unsupported rule: win cap" in err, err


def test_enumeration_limit_names_the_distributed_proof():
    ms = _game(4, 2)
    with limits.using(limits.Limits().but(enumeration=100)):
        with pytest.raises(UnsupportedRule, match="rtp prove --exhaustive"):
            exact.par_sheet(ms)


@pytest.mark.parametrize("value", ["0", "-3", "1.5", '"5000"', "true"])
def test_raises_bad_max_win(tmp_path, value):
    d = _write(tmp_path, _game(2, 3))
    text = (d / "game.toml").read_text(encoding="utf-8").replace("max_win = 3", f"max_win = {value}")
    (d / "game.toml").write_text(text, encoding="utf-8")
    with pytest.raises(MathSetError) as e:
        load_math_set(str(d))
    row = text.splitlines().index(f"max_win = {value}") + 1
    assert (e.value.row, e.value.column) == (row, 1) and "win cap" in e.value.message


def _write(tmp_path, ms) -> Path:
    """A math set written to disk from an in-memory one (the game.toml and CSV texts the builder rendered)."""
    d = tmp_path / "capped"
    d.mkdir(parents=True)
    for name, data in ms.sources.items():
        (d / name).write_bytes(data)
    return d


def test_count_tables_of_the_engines_equal_the_literal_readings():
    """The engines' count tables (on the data model) and the oracle's literal readings (in the scatter
    rule) are written apart; on every bundled game and count they agree."""
    for _, ms in SETS:
        m = ms.model
        for n in range(m.reels * m.rows + 2):
            assert initial_spins(m, n) == by_count(m.trigger, n)
            assert retrigger_spins(m, n) == by_count(m.retrigger, n)
            assert feature_multiplier(m, n) == by_count(m.multiplier_by_trigger, n, 1)
            for s in m.of_kind("scatter"):
                assert symbol_scatter_pay(s, n) == scatter_pay(s.pays, n)


GAMBLE = {"gamble": {"min_win": 1, "max_win": 100, "multiplier": 2, "probability": "2/5"}}


def test_win_cap_figures_built_on_the_round_take_the_cap():
    """The gamble's RTP without gamble is the capped RTP (it once was the uncapped one)."""
    sheet = exact.par_sheet(_game(2, 3, **GAMBLE))
    assert sheet.sections["win cap"].reached
    assert sheet.gamble["rtp_without_gamble"] == sheet.rtp != exact.par_sheet(_game(2, None, **GAMBLE)).rtp


def test_win_cap_with_bet_modes_or_buys_is_refused_by_name(tmp_path, capsys):
    modes = _game(2, 3, modes={"double": {"cost": 4}})
    s = rules.supports(modes, "report")
    assert not s and s.reason.startswith("win cap with [modes]") and "win distribution" in s.reason
    for analysis in ("simulate", "prove"):
        assert rules.supports(modes, analysis).rule == "win cap"
    d = _write(tmp_path, modes)
    assert main(["simulate", "--set", str(d), "--rounds", "1000"]) == 2
    assert "unsupported rule: win cap with [modes]" in capsys.readouterr().err


def test_diff_and_spin_say_the_cap(tmp_path, capsys):
    a, b = _write(tmp_path / "a", _game(2, None)), _write(tmp_path / "b", _game(2, 3))
    main(["diff", str(a), str(b)])
    assert "win cap none -> 3 x bet" in capsys.readouterr().out
    ms = _game(2, 3)
    strips = ms.strips["base"]
    stops = next(st for st in itertools.product(*(range(n) for n in strips.lengths))
                 if evaluate(ms.model, strips.window(st, ms.model.rows)).win > 6)
    assert main(["spin", "--set", str(b), "--stops", ",".join(map(str, stops))]) == 0
    assert "win cap        3 x bet: this spin is the whole round and pays 6 credits" in capsys.readouterr().out
