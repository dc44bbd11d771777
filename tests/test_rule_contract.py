"""The rule contract, parametrised over every registered rule and every optional capability it implements.

A rule module may give capabilities beyond its presence and support (:data:`exact.rules.base.CAPABILITIES`:
fast paths, literal readings, views).  Each one a rule implements is checked here on a small game that
uses the rule: a fast path equals brute force through the literal reading exactly; a literal reading
equals the vectorised literal step (:class:`exact.windows.WindowEvaluator`); a view says in the command's
output what the rule gives.  A capability without a check fails :func:`test_every_capability_has_a_check`.
Every analysis a rule does not implement refuses in one line, from the API and the command line alike.
"""
from __future__ import annotations

import dataclasses
import itertools
import json
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import exact
from exact import formatting, rules
from exact.cli import main
from exact.diff import model_changes
from exact.engine import analyse_phase
from exact.evaluator import cell_multipliers, evaluate
from exact.export import par_sheets
from exact.report import report_json, report_text
from exact.comply import odds_not_computed
from exact.rules.base import CAPABILITIES, SIMULATION_STAGES, Rule
from exact.windows import WindowEvaluator
from gen_cascade import brute_force as brute_force_falls, random_game
from generators import API_CALLS, game_text, model_of, write_strips, write_variant
from generators import with_wild_multiplier
from gen_line_rules import awards_text, expanding_text, fill_text, rule_text
from oracle import brute_force, make_set, small_fish_model
from strips.model import WildMultiplier as WildMultiplierConfig
from strips.errors import UnsupportedRule
from strips.loader import load_math_set
from proofs.dask_runner import IN_PROCESS, Cluster
from proofs.simulate import prepare_mode, run_simulation, simulate_mode_block
from mathset_files import plain_wheel_game

LINES = [(0, 0, 0), (1, 1, 1), (0, 1, 2)]
BASE = [["A", "S", "W", "B"], ["B", "A", "C", "S"], ["C", "W", "A", "B"]]
BONUS = [["A", "B", "S"], ["W", "A", "B"], ["S", "C", "A"]]


def _ways(text: str, reels: int = 3) -> str:
    return text.replace('evaluation = "lines"', "").replace(f"[lines]\npaylines = {[[1] * reels]}", "")


#: A small game per rule name: game.toml text (with BASE/BONUS strips) or a callable giving a MathSet.
TEXTS = {
    "ways evaluation": _ways(game_text(3, 2, [(0, 0, 0)], retrigger=False)),
    'payline evaluation (evaluation = "lines")': game_text(3, 3, LINES, wild_pays=[0, 3, 12], scatter_pays=[0, 2, 7],
                                                           retrigger=False),
    "a WILD that counts as a scatter": game_text(3, 3, LINES, counts_as_scatter=True, retrigger=False),
    "several scatter symbols": _ways(game_text(3, 2, [(0, 0, 0)], scatter2_pays=[1, 4, 9], retrigger=False)),
    "trigger_reels": game_text(3, 3, LINES, trigger_reels=[1, 3], retrigger=False),
    "multiplier_by_trigger": game_text(3, 3, LINES, multiplier_by_trigger="{ 2 = 2, 3 = 5 }", retrigger=False),
    "a combination WILD multiplier": game_text(3, 3, LINES, comb='{ values = [2], mode = "combination" }',
                                               retrigger=False),
    "both-way pays": rule_text(game_text(3, 3, LINES, retrigger=False), direction="both", both_pay="sum"),
    "expanding symbol": expanding_text(3, 3, LINES, wild_scatter=False, first_line_pays=False, cap=5),
    "free spins awarded by line wins": awards_text(3, 3, LINES, comb=True)
    + '\n[symbols.S]\nclass = "blank"\nreels = { base = [1, 2, 3], bonus = [1, 2, 3] }\n',
    "screen fills": fill_text(game_text(3, 1, [(0, 0, 0)], retrigger=False), [(["A"], "jackpot MINI"), (["C"], "x2")],
                              {"MINI": 40}),
    "a multiplier drawn per free spin": game_text(3, 3, LINES, retrigger=False).replace(
        "[[free_spins.levels]]\nmultiplier = 2", "[[free_spins.levels]]\nmultiplier = { values = [1, 5], weights = [1, 3] }"),
}
#: More small games for the factorisations: ways games with trigger reels, a WILD counted as a scatter and a
#: second paying scatter.
FACTORISED = [_ways(game_text(3, 2, [(0, 0, 0)], trigger_reels=[1, 3], scatter_pays=[0, 2, 7], retrigger=False)),
              _ways(game_text(3, 2, [(0, 0, 0)], counts_as_scatter=True, scatter2_pays=[1, 4, 9], retrigger=False))]
#: Rules whose small game is a bundled set or one of its bet modes.
BUNDLED = {"KEY collect and FISH values": ("rules_page", None), "a free-spin ladder of several levels": ("rules_page", None),
           "free spins": ("rules_page", None),
           "WILD substitution": ("rules_page", None),
           "[modes]": ("wheel_game", None),
           "[wheel]": ("wheel_game", None), "[gamble]": ("wheel_game", None), "respin": ("wheel_game", "fortune_bet"),
           "frames": ("wheel_game", None), "hold and win": ("hold_and_win", None)}
#: Rules whose small game is a test set of :data:`generators.VARIANTS`.
VARIANT = {"[buy]": "wheel_modes", "scatter pays": "scatter_pays"}


def _write(directory: Path, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "game.toml").write_text(text)
    write_strips(directory / "base.csv", BASE)
    write_strips(directory / "bonus.csv", BONUS)
    return directory


def game_of(rule, tmp_path: Path):
    """(MathSet, its directory or bundled name, its bet mode) of a small game that uses ``rule``."""
    if rule.name in BUNDLED:
        name, mode = BUNDLED[rule.name]
        if name == "wheel_game" and rule.name != "frames":
            name = str(plain_wheel_game())     # its frames refuse export, ...
        ms = load_math_set(name)
        return (ms.mode(mode) if mode else ms), name, mode or "default"
    if rule.name in VARIANT:
        d = write_variant(tmp_path / VARIANT[rule.name], VARIANT[rule.name])
        return load_math_set(str(d)), str(d), "default"
    if rule.name in ("pay-anywhere evaluation", "cluster pays"):
        game, strips = random_game(3, "anywhere" if rule.name.startswith("pay") else "clusters", cascade=False)
        return exact.math_set(game, strips), None, "default"
    if rule.name == "win cap":      # a 3x2 ways game whose cap (3 x bet) some rounds reach
        game = {"game": {"reels": 3, "rows": 2, "bet": 2, "max_win": 3},
                "symbols": {"A": {"class": "pay", "pays": [0, 4, 20]}, "B": {"class": "pay", "pays": [0, 2, 10]}}}
        return exact.math_set(game, {"base": [["A", "B", "A", "B", "A"]] * 3}), None, "default"
    d = _write(tmp_path / "game", TEXTS[rule.name])
    return load_math_set(str(d)), str(d), "default"


def _implemented(rule) -> list[str]:
    """The capabilities of :data:`CAPABILITIES` ``rule`` gives itself (not the base class's default)."""
    out = []
    for c in CAPABILITIES:
        mine, base = getattr(rule, c), getattr(Rule, c)
        if getattr(mine, "__func__", mine) is not getattr(base, "__func__", base):
            out.append(c)
    return out


PAIRS = [(r, c) for r in rules.RULES for c in _implemented(r)]


def _stops(ms, phase):
    return itertools.product(*(range(n) for n in ms.phase_strips(phase).lengths))


def _window(ms, phase, stops):
    return ms.phase_strips(phase).window(stops, ms.model.rows)


# -- the checks, one per capability --------------------------------------------------------------------------
def check_factorisation(rule, ms, where, mode, capsys):
    """The engine's factorisation equals brute force through the literal reading (every stop combination),
    on the rule's game and on every small game of :data:`TEXTS` the factorisation takes (trigger reels, a
    WILD counted as a scatter, several scatters, a combination WILD)."""
    games = [make_set(model_of(t), BASE, BONUS) for t in list(TEXTS.values()) + FACTORISED]
    for g in [ms] + [g for g in games if rules.factorisation(g.model) == rule.factorisation]:
        _factorised_equals_brute_force(g)


def _factorised_equals_brute_force(ms):
    phase = ms.model.base_phase
    n, s1, s2, by = 0, Fraction(0), Fraction(0), {}
    for stops in _stops(ms, phase):
        res = evaluate(ms.model, _window(ms, phase, stops))
        n, s1, s2 = n + 1, s1 + res.win, s2 + res.win ** 2
        # the count that decides the free spins: the spins the line wins award, in a game where they do
        key = rules.awarded(ms.model, phase, res.lines) if rules.phase_awards(ms.model, phase) is not None \
            else res.trigger_count
        c, w = by.get(key, (0, 0))
        by[key] = (c + 1, w + res.win)
    a = analyse_phase(ms, phase)
    assert (a.mean, a.second) == (s1 / n, s2 / n)
    split = a.trigger_split      # by the count that awards free spins (trigger reels, a WILD as a scatter)
    assert {k: (Fraction(c, n), Fraction(w, n)) for k, (c, w) in by.items()} == {
        k: (p, x) for k, (p, x) in enumerate(zip(split.prob, split.win)) if p}


def check_literal_wins(rule, ms, where, mode, capsys):
    """The rule's literal reading of every window equals the vectorised literal step (no values drawn)."""
    phase = ms.model.base_phase
    stops = np.array(list(_stops(ms, phase)), dtype=np.int64)
    out = WindowEvaluator(ms, phase).evaluate(stops)
    assert out.denominator == 1
    for i, st in enumerate(stops):
        window = _window(ms, phase, tuple(st))
        found = rule.literal_wins(ms.model, window, cell_multipliers(ms.model, window), 1)
        assert sum(w.pay for wins in found.values() for w in wins) == out.ways_pay[i]


def check_phase_path(rule, ms, where, mode, capsys):
    """The rule's own exact path equals brute force through the rules read fall by fall."""
    game, strips = random_game(3, "anywhere", cascade=False)
    law, _, _, _ = brute_force_falls(game, strips)
    a = rule.phase_path(ms.model)(ms, ms.model.base_phase)
    assert (a.mean, a.second) == (sum(p * w for (_, w), p in law.items()), sum(p * w * w for (_, w), p in law.items()))


#: Rules whose view of a spin is that of a free spin (``rtp spin --phase 1``): the drawn expanding symbol.
SPIN_PHASE = {"expanding symbol": "1"}


def _spin(ms, where, mode, stops, capsys, *flags):
    assert main(["spin", "--set", where, "--mode", mode, "--stops", ",".join(map(str, stops)), *flags]) == 0
    return capsys.readouterr().out


def _spin_phase(rule, ms):
    """(the phase the rule's spin view is checked in, the game that phase's spin reads, rtp spin's flags)."""
    model = ms.model
    phase = model.level_phase(model.levels[0]) if rule.name in SPIN_PHASE else model.base_phase
    flags = ("--phase", SPIN_PHASE[rule.name]) if rule.name in SPIN_PHASE else ()
    return phase, rules.spin_draw(rules.phase_reading(model, phase), phase, None), flags


def _spun(ms, n: int = 4000, phase=None, model=None):
    """(stops, window, SpinResult) of ``n`` stop combinations of the strips of ``phase`` (default base) drawn
    with a fixed seed, read on ``model`` (default the game's)."""
    phase = phase or ms.model.base_phase
    model = model or ms.model
    rng = np.random.default_rng(7)
    for _ in range(n):
        stops = tuple(int(rng.integers(k)) for k in ms.phase_strips(phase).lengths)
        window = _window(ms, phase, stops)
        yield stops, window, evaluate(model, window, None, phase.multiplier)


def check_spin_json(rule, ms, where, mode, capsys):
    """``rtp spin --json`` carries the rule's keys with the rule's values."""
    phase, model, flags = _spin_phase(rule, ms)
    for stops, window, res in itertools.islice(_spun(ms, 3, phase, model), 3):
        got = json.loads(_spin(ms, where, mode, stops, capsys, "--json", *flags))
        want = json.loads(json.dumps(rule.spin_json(model, phase, window, res)))
        assert want and all(got[k] == v for k, v in want.items())


def check_spin_text(rule, ms, where, mode, capsys):
    """``rtp spin`` prints every line the rule gives (some spin of the strips gives one)."""
    shown = 0
    phase, model, flags = _spin_phase(rule, ms)
    for stops, window, res in _spun(ms, phase=phase, model=model):
        text = rule.spin_text(model, phase, window, res)
        if shown >= 3:
            break
        if not any(text.values()):
            continue
        out = _spin(ms, where, mode, stops, capsys, *flags)
        assert all(line in out for lines in text.values() for line in lines)
        shown += 1
    assert shown


def check_changes(rule, ms, where, mode, capsys):
    """No change, no line; the rule's lines against another game are what ``rtp diff`` lists."""
    other = load_math_set("rules_page")
    assert rule.changes(ms.model, ms.model) == []
    lines = rule.changes(other.model, ms.model)
    assert lines and set(lines) <= set(model_changes(other, ms))


def check_symbol_changes(rule, ms, where, mode, capsys):
    """No change, no line; each symbol's lines against another game are what ``rtp diff`` lists."""
    other = make_set(model_of(TEXTS['payline evaluation (evaluation = "lines")']), BASE, BONUS)
    lines = [x for s in ms.model.symbols if s.name in other.model._by_name
             for x in rule.symbol_changes(s.name, other.model.symbol(s.name), s)]
    assert all(rule.symbol_changes(s.name, s, s) == [] for s in ms.model.symbols)
    assert lines and set(lines) <= set(model_changes(other, ms))


_SHEETS: dict = {}


def _sheet(ms, where, mode):
    """The PAR sheet of a small game (a bundled set's computed once)."""
    key = (where, mode) if where in ("rules_page", str(plain_wheel_game())) else id(ms)
    if key not in _SHEETS:
        _SHEETS[key] = exact.par_sheet(ms)
    return _SHEETS[key]


def check_report_text(rule, ms, where, mode, capsys):
    """The report prints the rule's section, in one block (each block, for a rule at several places)."""
    sheet = _sheet(ms, where, mode)
    section = rule.report_text(sheet, formatting, 6)
    blocks = [section[p] for p in rule.view_places("text")] if isinstance(section, dict) else [section]
    text = report_text(sheet)
    assert blocks and all(lines and "\n".join(lines) in text for lines in blocks)


def check_report_json(rule, ms, where, mode, capsys):
    """The JSON report carries the rule's keys with its values, after the exact figures and before the round's
    figures; the rule's text section stands at its place of the text report (between the places around it)."""
    sheet = _sheet(ms, where, mode)
    mine = rule.report_json(sheet)
    out = report_json(sheet)
    assert mine and all(out[k] == v for k, v in mine.items())
    keys = list(out)
    assert all(keys.index(k) > keys.index("published") for k in mine)
    assert all(set(rule.view_places(v)) <= set(rules.VIEW_PLACES[v]) for v in rules.VIEW_PLACES)


def check_report_tables(rule, ms, where, mode, capsys):
    """The PAR sheet's tables hold the rule's tables."""
    sheet = _sheet(ms, where, mode)
    tables = sheet.tables(frames=False)
    section = rule.report_tables(sheet, lambda *a, **k: (a[0], a[3]), lambda p: p)
    made = [t for p in rule.view_places("tables") for t in rules.at_place(section, p)]
    mine = [t for t in made if t[1]]
    assert mine and all(name in tables for name, _ in mine)


def check_workbook_sheets(rule, ms, where, mode, capsys):
    """The PAR workbook holds the rule's sheets."""
    class Book:
        slugs: list = []

        def add(self, name, slug, *args, **kw):
            self.slugs.append(slug)

    sheet = _sheet(ms, where, mode)
    book = Book()
    rule.workbook_sheets(sheet, book, SimpleNamespace(COUNT=0, PERCENT=0, CREDITS=0, PROB=0, ONE_IN=0, TWO=0, ROW=0,
                                                       one_in=lambda p: p))
    assert book.slugs and set(book.slugs) <= {s.slug for s in par_sheets(sheet, ms)}


def check_pays_words(rule, ms, where, mode, capsys):
    """The report and the tables name the evaluation's pays with the rule's words."""
    sheet = exact.par_sheet(ms)
    words = rule.pays_words(ms.model)
    text = report_text(sheet)
    assert f"base game {words.pays}" in text and f"BASE GAME {words.by_symbol.upper()} BY SYMBOL" in text
    tables = sheet.tables(frames=False)
    if "symbols" in tables:         # an enumerated game has no by-symbol table (the report says why)
        assert tables["symbols"].title.startswith(f"Base game {words.by_symbol} by symbol")


def _top(where):
    """The whole math set of a rule's game (its bet modes included)."""
    return load_math_set(where)


def check_simulation_step(rule, ms, where, mode, capsys):
    """The rule's step is in the simulated round of its mode at a stage of the round, and it acts: the same
    rounds with the same seed without the step tally differently."""
    g = prepare_mode(_top(where), mode)
    step = g.step(rule.name)
    assert step.stage in SIMULATION_STAGES
    without = type(g)(**{**g.__dict__, "steps": tuple(s for s in g.steps if s is not step)})
    runs = [simulate_mode_block(x, 3000, np.random.default_rng(5)) for x in (g, without)]
    assert runs[0] != runs[1]


_RUNS: dict = {}


def check_simulation_section(rule, ms, where, mode, capsys):
    """The simulation report carries the rule's figures, and its JSON (what ``rtp simulate --json`` prints)
    the rule's section in the mode's object."""
    if (where, mode) not in _RUNS:
        _RUNS[where, mode] = run_simulation(_top(where), 2000, 3, mode=mode, cluster=Cluster(mode=IN_PROCESS))
    rep = _RUNS[where, mode]
    section = rep.units[0].sections[rule.name]
    assert section.figures and all(f in rep.figures for f in section.figures)
    got = json.loads(json.dumps(rep.to_json()))["modes"][mode]
    assert all(got[k] == json.loads(json.dumps(v)) for k, v in section.json.items())


def check_award_odds_refusal(rule, ms, where, mode, capsys):
    """``rtp comply`` leaves the mode's award odds out with the rule's reason."""
    reason = rule.award_odds_refusal(ms.model)
    assert reason and odds_not_computed(_sheet(_top(where), where, "default"))[mode] == reason


def check_sheet_figures(rule, ms, where, mode, capsys):
    """The report's JSON carries the rule's section under its key, and ``figures()`` every number of it
    (dotted keys; a reason in words stays out)."""
    sheet = _sheet(ms, where, mode)
    section = rule.sheet_figures(sheet)
    assert section and rule.sheet_key in report_json(sheet)
    flat = sheet.figures()

    def walk(node, prefix):
        for k, v in node.items():
            if isinstance(v, dict):
                walk(v, f"{prefix}{k}.")
            elif isinstance(v, str):
                assert f"{prefix}{k}" not in flat
            else:
                assert flat[f"{prefix}{k}"] == v
    walk(section, rule.sheet_key + ".")


def check_component(rule, ms, where, mode, capsys):
    """The round of the rule's game carries the rule's component (credits per round, the components summing to
    the mean), and where the RTP split shows it, the text report, the tables and the workbook word its row as
    the rule does."""
    sheet = _sheet(ms, where, mode)
    rr = sheet.modes[mode].round if mode in sheet.modes else sheet.round
    assert rule.component in rr.components and sum(rr.components.values()) == rr.mean
    rows = {k: words for k, words, _ in rules.component_rows(sheet)}
    if rule.component in rows:
        words = rows[rule.component]
        assert words == rule.component_label(sheet) and f"\n{words} " in report_text(sheet)
        assert words in [r[0] for r in sheet.tables(frames=False)["rtp_split"].rows]
        if rules.supports(ms, "export"):
            summary = next(s for s in par_sheets(sheet, ms) if s.slug == "summary")
            assert f"RTP {words}" in [r[0] for r in summary.rows]


def _reel_terms_game():
    """A 3-reel, 2-row collect game with a WILD whose multiplier is drawn per WILD (every per-reel term of the
    engine: FISH values, KEY, a drawn ways count), small enough to enumerate every stop, FISH value and
    multiplier draw."""
    model = small_fish_model(reels=3, rows=2)
    model = with_wild_multiplier(model, "WILD", WildMultiplierConfig(values=(1, 3), weights={"base": (1, 2)},
                                                                     mode="wild"))
    base = [["PIC1", "KEY", "FISH1", "AUS1"], ["WILD", "PIC1", "FISH2", "KEY", "WILD"],
            ["PIC1", "WILD", "AUS1", "FISH1"]]
    return make_set(model, base, base)


def check_reel_terms(rule, ms, where, mode, capsys):
    """The engine's factorisation with the rule's per-reel terms equals brute force through the literal
    reading (every stop, FISH value and multiplier draw), and differs without them."""
    g = _reel_terms_game()
    assert rule.present(g.model) and rule.reel_terms(g.model, "base") is not None
    phase = g.model.base_phase
    bf = brute_force(g, phase)
    brute = (sum(bf.win_scatter.values()), sum(bf.win2_scatter.values()))
    a = analyse_phase(g, phase)
    assert (a.mean, a.second) == brute
    without = dataclasses.replace(g.model, name="without the rule's terms")      # a new model: a new cache entry
    original = rule.__dict__["reel_terms"]
    try:
        rule.reel_terms = classmethod(lambda cls, model, weights: None)
        b = analyse_phase(dataclasses.replace(g, model=without), phase)
    finally:
        rule.reel_terms = original
    assert (b.mean, b.second) != brute


def check_published_facts(rule, ms, where, mode, capsys):
    """The rule's rows of the printed rules are ``rtp check``'s (PASS on the rule's game, whose
    ``published.toml`` prints them), and a game file that differs from the print fails one of them."""
    printed = ms.published.rules
    rows = rule.published_facts(printed, ms.model)
    assert rows and all(ok for *_, ok in rows)
    assert main(["check", "--set", where, "--json"]) == 0
    checked = {f["fact"]: f["status"] for f in json.loads(capsys.readouterr().out)["facts"]}
    assert all(checked[what] == "PASS" for what, *_ in rows)
    fewer = dataclasses.replace(ms.model, levels=ms.model.levels[:-1], retrigger=((3, 1),))
    assert not all(ok for *_, ok in rule.published_facts(printed, fewer))


CHECKS = {"factorisation": check_factorisation, "literal_wins": check_literal_wins, "phase_path": check_phase_path,
          "spin_json": check_spin_json, "spin_text": check_spin_text, "changes": check_changes,
          "symbol_changes": check_symbol_changes, "report_text": check_report_text,
          "report_tables": check_report_tables, "workbook_sheets": check_workbook_sheets,
          "pays_words": check_pays_words, "simulation_step": check_simulation_step,
          "simulation_section": check_simulation_section, "award_odds_refusal": check_award_odds_refusal,
          "sheet_figures": check_sheet_figures, "published_facts": check_published_facts,
          "reel_terms": check_reel_terms, "component": check_component,
          "report_json": check_report_json}


def test_every_capability_has_a_check():
    assert set(CAPABILITIES) == set(CHECKS)
    assert PAIRS, "no rule implements a capability"


@pytest.mark.parametrize("rule,capability", PAIRS, ids=[f"{r.__name__}-{c}" for r, c in PAIRS])
def test_capability_keeps_the_contract(rule, capability, tmp_path, capsys):
    ms, where, mode = game_of(rule, tmp_path)
    assert rule.present(ms.model), rule.name
    if where is None and capability.startswith("spin"):
        pytest.fail(f"{rule.name}: no game directory for the command")
    CHECKS[capability](rule, ms, where, mode, capsys)


API = API_CALLS
REFUSING = [r for r in rules.RULES if r.name in TEXTS and set(API) - r.implements]


@pytest.mark.parametrize("rule", REFUSING, ids=[r.__name__ for r in REFUSING])
def test_a_missing_capability_refuses_in_one_line_from_the_api_and_the_cli(rule, tmp_path, capsys):
    ms, where, _ = game_of(rule, tmp_path)
    refused = [a for a in API if not rules.supports(ms, a)]
    assert any(a not in rule.implements for a in refused), rule.name
    for analysis in refused:
        s = rules.supports(ms, analysis)
        with pytest.raises(UnsupportedRule) as e:
            API[analysis](ms)
        assert str(e.value) == s.message() and "\n" not in s.message() and e.value.rule == s.rule
        extra = {"tune": ["--target-rtp", "0.9", "--out", str(tmp_path / "out")],
                 "export": ["--xlsx", str(tmp_path / "par.xlsx")]}.get(analysis, [])
        assert main([analysis, "--set", where, *extra]) == 2
        assert capsys.readouterr().err == f"rtp {analysis}: {ms.name}: {s.message()}\n"


def test_a_reason_in_words_stays_out_of_the_figures():
    """A section's reason in words (the gamble wheel's RTP per choice refused under a respin) is in the JSON
    report and out of ``figures()``, which used to raise ValueError on it."""
    sheet = _sheet(load_math_set("wheel_game").mode("fortune_bet"), "wheel_game", "fortune_bet")
    why = report_json(sheet)["gamble_wheel"]["rtp_per_choice_refused"]
    assert why.startswith("unsupported rule: respin")
    figures = sheet.figures()
    assert "gamble_wheel.rtp_without_gamble" in figures and not any("refused" in k for k in figures)
