"""Cascades, pay anywhere, clusters and the multiplier symbol: every exact figure against a brute-force replay.

The oracle is :mod:`tests.gen_cascade` (the rules written out in plain Python, every stop combination and
every multiplier value enumerated); the figures come from ``exact`` (enumeration through the vectorised
reading, the literal reading of :func:`exact.rules.cascade.play_falls`, the round of :func:`exact.par_sheet`).
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

import exact
from exact.cli import main
from exact.engine import analyse_phase
from exact.enumeration import analyse_phase as en_analyse
from exact.rules import supports
from exact.rules.cascade import play_falls
from gen_cascade import brute_force, random_game, replay, write_set
from strips.errors import UnsupportedRule
from strips.loader import load_math_set

CASES = [(seed, ev, mult) for seed, (ev, mult) in enumerate(itertools.product(
    ("ways", "lines", "anywhere", "clusters"), (None, ("cell", "sum"), ("reel", "product"))))]


def _figures(law):
    mean = sum(p * w for (_, w), p in law.items())
    second = sum(p * w * w for (_, w), p in law.items())
    by_index: dict = {}
    for (a, w), p in law.items():
        by_index[a] = by_index.get(a, 0) + p
    return mean, second, by_index


@pytest.mark.parametrize("seed,evaluation,multiplier", CASES)
def test_base_spin_equals_brute_force(seed, evaluation, multiplier):
    game, strips = random_game(seed, evaluation, multiplier=multiplier)
    ms = exact.math_set(game, strips)
    a = analyse_phase(ms, ms.model.base_phase)
    law, reach, cut, hit = brute_force(game, strips)
    mean, second, by_index = _figures(law)
    assert (a.mean, a.second, a.hit_frequency) == (mean, second, hit)
    assert {i: p for i, p in enumerate(a.by_scatter.prob) if p} == {i: p for i, p in by_index.items() if p}
    assert a.falls.reach == tuple(reach[k] for k in sorted(reach))
    assert a.falls.cut_probability == cut
    assert {(i, w): p for i, w, p in a.distribution} == {k: p for k, p in law.items() if p}


@pytest.mark.parametrize("evaluation,multiplier", [("ways", None), ("lines", ("cell", "sum")),
                                                   ("anywhere", ("cell", "sum")), ("clusters", ("reel", "sum")),
                                                   ("anywhere", None)])
def test_no_cascade_equals_brute_force(evaluation, multiplier):
    """Without [cascade]; pay anywhere without a multiplier symbol takes its per-reel product of counts."""
    game, strips = random_game(40, evaluation, cascade=False, multiplier=multiplier)
    ms = exact.math_set(game, strips)
    a = analyse_phase(ms, ms.model.base_phase)
    law, _, _, hit = brute_force(game, strips)
    mean, second, by_index = _figures(law)
    assert (a.mean, a.second, a.hit_frequency) == (mean, second, hit)
    assert {i: p for i, p in enumerate(a.by_scatter.prob) if p} == {i: p for i, p in by_index.items() if p}
    if evaluation == "ways":      # a ways game without falls or multiplier symbols: the engine's factorisation
        assert not hasattr(a, "method")
        return
    assert {(i, w): p for i, w, p in a.distribution} == {k: p for k, p in law.items() if p}
    product = evaluation == "anywhere" and multiplier is None
    assert a.method.startswith("per-reel product" if product else "enumeration")


def test_anywhere_product_with_free_spins_equals_brute_force():
    game, strips = random_game(21, "anywhere", cascade=False, free_spins=True)
    ms = exact.math_set(game, strips)
    base_law, _, _, _ = brute_force(game, strips)
    free_law, _, _, _ = brute_force(game, strips, level=1)
    mu_b, _, idx_b = _figures(base_law)
    mu_f, _, idx_f = _figures(free_law)
    q = sum(p * (2 if i >= 2 else 0) for i, p in idx_b.items())
    r = sum(p * (1 if i >= 3 else 0) for i, p in idx_f.items())
    sheet = exact.par_sheet(ms)
    assert sheet.mean_win == mu_b + q * mu_f / (1 - r) and sheet.method.startswith("per-reel product")


@pytest.mark.parametrize("evaluation,scatters", [("ways", "every_fall"), ("anywhere", "first_fall"),
                                                 ("clusters", "every_fall"), ("lines", "first_fall")])
def test_free_spin_round_equals_brute_force(evaluation, scatters):
    """The round: base spin + (spins awarded) x the free spin's mean / (1 - spins retriggered per free spin)."""
    game, strips = random_game(7, evaluation, free_spins=True, scatters=scatters,
                               multiplier=("cell", "sum") if evaluation == "anywhere" else None)
    ms = exact.math_set(game, strips)
    base_law, _, _, _ = brute_force(game, strips)
    free_law, _, _, _ = brute_force(game, strips, level=1)
    awards = (lambda n: 2 if n >= 2 else 0) if scatters == "first_fall" else (lambda s: s)
    re_awards = (lambda n: 1 if n >= 3 else 0) if scatters == "first_fall" else (lambda s: s)
    mu_b, _, idx_b = _figures(base_law)
    mu_f, _, idx_f = _figures(free_law)
    q = sum(p * awards(i) for i, p in idx_b.items())
    r = sum(p * re_awards(i) for i, p in idx_f.items())
    expected = mu_b + q * mu_f / (1 - r)
    sheet = exact.par_sheet(ms)
    assert sheet.mean_win == expected
    assert sheet.method.startswith("enumeration of")


def test_literal_reading_equals_the_replay():
    """play_falls (the rule module's literal reading) against the test's replay, every stop, every evaluation."""
    for seed, ev, mult in CASES:
        game, strips = random_game(seed, ev, multiplier=mult)
        ms = exact.math_set(game, strips)
        reels = strips["base"]
        for stops in itertools.product(*(range(len(s)) for s in reels)):
            values = {}
            got = play_falls(ms.model, ms.model.base_phase, reels, stops,
                             draw=lambda key: values.setdefault(key, 2 + len(values) % 2))
            keyed = {("reel", k[2]) if k[1] == "reel" else ("cell", k[1]): v for k, v in got.drawn}
            win, _, falls, cut, _ = replay(game, reels, stops, values=keyed)
            assert (got.win, len(got.falls), got.cut) == (win, falls, cut), (seed, ev, stops)


def test_endless_cascade_ends_at_max_falls_with_its_probability():
    """B pays alone and its reel refills B for ever: a cascade that never stops is cut at max_falls, a
    finding with its probability (here every spin whose reel 2 starts on its B run), never a hang."""
    game = {"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "anywhere"}, "cascade": {"max_falls": 4},
            "symbols": {"A": {"class": "pay", "pays": [0, 1]}, "B": {"class": "pay", "pays": [1]},
                        "C": {"class": "pay", "pays": [0, 0]}}}
    strips = {"base": [["A", "A", "C"], ["B", "B", "B", "B", "A", "C"]]}
    ms = exact.math_set(game, strips)
    a = analyse_phase(ms, ms.model.base_phase)
    law, reach, cut, _ = brute_force(game, strips)
    assert a.falls.cut_probability == cut and 0 < cut < 1, cut
    assert a.falls.reach == tuple(reach[k] for k in sorted(reach)) and len(a.falls.reach) == 4
    assert a.mean == _figures(law)[0]
    lines = exact.par_sheet(ms).sections["enumeration"].lines()
    assert any("FINDING" in line and "max_falls = 4" in line for line in lines)


def test_sensitivity_and_tune_refuse_in_one_line():
    game, strips = random_game(3, "clusters", scatter=False)
    ms = exact.math_set(game, strips)
    for analysis in ("sensitivity", "tune"):
        s = supports(ms, analysis)
        assert not s and s.rule == "cluster pays" and "\n" not in s.message()


def test_spin_command_shows_every_fall_as_the_replay(tmp_path, capsys):
    """rtp spin --json: each fall's window and removed cells, the win equal to the replay's."""
    game, strips = random_game(5, "anywhere", multiplier=("cell", "sum"))
    d = write_set(tmp_path, game, strips)
    ms = load_math_set(d)
    for stops in itertools.product(*(range(len(s)) for s in strips["base"])):
        assert main(["spin", "--set", str(d), "--stops", ",".join(map(str, stops)), "--values", "3,2,3", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        keys = {("cell", i): v for i, v in enumerate([3, 2, 3] + [2] * 9)}
        win, _, falls, _, _ = replay(game, strips["base"], stops, values=keys)
        assert (out["win"], len(out["falls"])) == (win, falls)
        assert all(f["removed"] or i == len(out["falls"]) - 1 for i, f in enumerate(out["falls"]))
    assert ms.model.evaluation == "anywhere"


def test_distribution_equals_brute_force_and_simulation_passes(tmp_path, capsys):
    game, strips = random_game(11, "clusters", multiplier=("reel", "sum"))
    ms = exact.math_set(game, strips)
    law, _, _, _ = brute_force(game, strips)
    wd = exact.win_distribution(ms)
    marginal: dict = {}
    for (_, w), p in law.items():
        marginal[w] = marginal.get(w, 0) + p
    assert dict(wd.base.marginal()) == {w: p for w, p in marginal.items() if p}
    assert wd.round.is_exact and wd.round.exact == {w: p for w, p in marginal.items() if p}
    d = write_set(tmp_path, game, strips)
    assert main(["simulate", "--set", str(d), "--rounds", "20000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["all_inside"] and out["rounds"] == 20000 and out["rtp_inside"]


@pytest.mark.parametrize("command", ["sensitivity", "tune"])
def test_commands_without_the_falls_refuse_in_one_line(tmp_path, capsys, command):
    game, strips = random_game(2, "ways")
    d = write_set(tmp_path, game, strips)
    extra = {"export": ["--xlsx", str(tmp_path / "x.xlsx")], "tune": ["--out", str(tmp_path / "t"), "--target-rtp", "0.9"]}.get(command, [])
    assert main([command, "--set", str(d)] + extra) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "unsupported rule" in err


def test_the_simulated_cascade_round_takes_the_win_cap():
    """The fall-by-fall simulation caps each round's total win as the literal round does (found by a new-user
    run: a capped cascade game simulated its uncapped RTP and failed)."""
    from proofs.simulate_falls import simulate_falls
    game = {"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "anywhere", "max_win": 2},
            "cascade": {"multipliers": [1, 2]},
            "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}}
    ms = exact.math_set(game, {"base": [["A", "A", "B"], ["A", "B", "B"]]})
    sim = simulate_falls(ms, 4_000, 1)
    rtp = sim.figures[0]
    assert rtp.name == "RTP" and rtp.inside and rtp.estimate <= 2 and rtp.exact == exact.par_sheet(ms).rtp


@pytest.mark.parametrize("evaluation", ["anywhere", "clusters"])
def test_the_simulated_round_plays_every_level_of_the_ladder(evaluation):
    """A pay-anywhere or cluster game whose ladder has a second level (threshold 0: these games show no KEY)
    is simulated level by level as the literal round plays it: every feature reaches level 2, and the RTP's
    interval holds the exact RTP (it played level 1 only, and its RTP fell 87% short)."""
    from proofs.simulate_falls import simulate_falls
    game = {"game": {"reels": 3, "rows": 1, "bet": 1, "evaluation": evaluation},
            "symbols": {"A": {"class": "pay", "pays": [0, 2, 5]}, "B": {"class": "pay", "pays": [0, 1, 3]},
                        "S": {"class": "scatter", "reels": {"base": [1, 2, 3]}}},
            "free_spins": {"strips": "bonus", "trigger": {"2": 2},
                           "levels": [{"multiplier": 1}, {"threshold": 0, "spins": 2, "multiplier": 10}]}}
    ms = exact.math_set(game, {"base": [["A", "B", "S", "S"], ["A", "B", "S"], ["A", "B", "S"]],
                               "bonus": [["A", "B"], ["A", "A", "B"], ["A", "B"]]})
    sim = simulate_falls(ms, 20_000, 1)
    reach = dict(sim.reach)
    assert reach[2].estimate == reach[1].estimate > 0 and reach[2].exact == exact.par_sheet(ms).round.reach[1]
    assert sim.figures[0].inside and sim.passed


def test_cascade_simulation_reports_as_every_simulator(tmp_path, capsys):
    """rtp simulate on a cascade game: the report and JSON keys of every simulator (Bonferroni intervals, the
    RTP's normal interval with the exact SD, Clopper-Pearson rates, the trigger and reach rates), plus
    P(at least 2 falls); the estimates are the fall-by-fall play of independently drawn stops."""
    game, strips = random_game(7, "anywhere", free_spins=True)
    write_set(tmp_path, game, strips)
    assert main(["simulate", "--set", str(tmp_path), "--rounds", "3000", "--json"]) in (0, 1)
    out = json.loads(capsys.readouterr().out)
    for key in ("rtp_estimate", "rtp_interval", "rtp", "rtp_inside", "sd_exact", "sd_sample", "hit_rate_estimate",
                "hit_rate_interval", "hit_rate", "trigger_rates", "level_reach_rates", "interval_level",
                "family_level", "method", "all_inside", "falls_2_rate"):
        assert key in out, key
    assert out["all_inside"] and out["trigger_rates"] and out["level_reach_rates"]["1"]["inside"]
    assert main(["simulate", "--set", str(tmp_path), "--rounds", "3000"]) == 0
    text = capsys.readouterr().out
    assert "Bonferroni" in text and "P(at least 2 falls)" in text and "reach level 1" in text


def _wide_line_game(seed):
    """A 4x3 line cascade game (paylines sharing their first rows, so the coded reading's trie shares steps)."""
    import random
    rng = random.Random(seed)
    game, strips = random_game(seed, "lines", free_spins=seed % 2 == 0)
    game["game"].update(reels=4, rows=3)
    for name in ("A", "B", "C"):
        game["symbols"][name]["pays"] = [0, 0, rng.randint(1, 5), rng.randint(5, 20)]
    game["symbols"]["S"]["reels"] = game["symbols"]["W"]["reels"] = {"base": [1, 2, 3, 4]}
    lines = rng.sample([list(x) for x in itertools.product((1, 2, 3), repeat=4) if x[:2] != (1, 1)], 6)
    game["lines"] = {"paylines": lines + [[1, 1, 2, 2], [1, 1, 2, 3], [1, 1, 3, 1]]}
    strips["base"] = [[rng.choice("ABCWS") for _ in range(rng.randint(3, 5))] for _ in range(4)]
    return game, strips


@pytest.mark.parametrize("seed", range(3))
def test_coded_line_reading_equals_the_replay(seed):
    """The coded line reading (column codes, the paylines' trie, bit masks, the quiet filter's prefix states)
    against the replay at every stop, and the enumeration's figures against the brute force."""
    from exact.falls import FallEvaluator
    import numpy as np
    game, strips = _wide_line_game(seed)
    ms = exact.math_set(game, strips)
    ev = FallEvaluator(ms, ms.model.base_phase)
    assert ev._coded is not None and ev.filters_quiet
    reels = strips["base"]
    stops = np.array(list(itertools.product(*(range(len(s)) for s in reels))))
    out = ev.play(stops)
    for i, s in enumerate(stops.tolist()):
        win, awarded, falls, cut, _ = replay(game, reels, s)
        assert (int(out.plain[i]), int(out.award[i]), int(out.falls[i]), bool(out.cut[i])) == \
            (win, awarded, falls, cut), s
    a = analyse_phase(ms, ms.model.base_phase)
    law, reach, _, hit = brute_force(game, strips)
    mean, second, _ = _figures(law)
    assert (a.mean, a.second, a.hit_frequency) == (mean, second, hit)
    assert a.falls.reach == tuple(reach[k] for k in sorted(reach))


@pytest.mark.parametrize("seed", range(3))
def test_coded_line_reading_equals_the_cell_reading_with_trigger_reels_and_kept_scatters(seed):
    """Options the replay does not write out: scatters kept on the window, trigger reels; the coded
    reading against the cell reading (the vectorised literal reading), every field of every stop."""
    from exact.falls import FallEvaluator
    import numpy as np
    game, strips = _wide_line_game(seed)
    game["cascade"]["remove_scatters"] = seed != 1
    game.setdefault("free_spins", {"strips": "base", "trigger": {"2": 2}, "levels": [{"multiplier": 1}]})
    if seed != 0:
        game["free_spins"]["trigger_reels"] = [1, 4]
    ms = exact.math_set(game, strips)
    ev = FallEvaluator(ms, ms.model.base_phase)
    stops = np.array(list(itertools.product(*(range(len(s)) for s in strips["base"]))))
    coded = ev.play(stops)
    ev._coded = None
    cells = ev.play(stops)
    for f in ("plain", "scatter_plain", "award", "falls", "cut", "paid"):
        assert np.array_equal(getattr(coded, f), getattr(cells, f)), f
    assert coded.per_fall == cells.per_fall


@pytest.mark.parametrize("seed", [41, 0, 4, 5, 10])
def test_anywhere_product_past_its_bound_takes_pairs_of_counts_with_the_same_figures(monkeypatch, seed):
    """The per-reel product on the count vectors it reaches; past PRODUCT_STATES the moments come from the laws
    of pairs of counts and the hit frequency by inclusion-exclusion (or, past INCLUSION_DEPTH, from the sparse
    product of the quiet vectors); past QUIET_STATES too, the phase is enumerated.  Every path gives the same
    exact figures, each equal to the brute force (seeds 0, 4, 5, 10: pays with a zero after a paying count)."""
    import exact.rules.anywhere as anywhere
    game, strips = random_game(seed, "anywhere", cascade=False)
    law, _, _, hit = brute_force(game, strips)
    mean, second, _ = _figures(law)
    split = {}
    for (i, w), p in law.items():
        split.setdefault(i, [0, 0, 0])
        split[i] = [split[i][0] + p, split[i][1] + p * w, split[i][2] + p * w * w]
    methods = []
    for product, depth, quiet in ((anywhere.PRODUCT_STATES, 5, 1 << 22), (1, 5, 1 << 22), (1, 0, 1 << 22), (1, 0, 1)):
        monkeypatch.setattr(anywhere, "PRODUCT_STATES", product)
        monkeypatch.setattr(anywhere, "INCLUSION_DEPTH", depth)
        monkeypatch.setattr(anywhere, "QUIET_STATES", quiet)
        ms = exact.math_set(game, strips)
        a = analyse_phase(ms, ms.model.base_phase)
        assert (a.mean, a.second, a.hit_frequency) == (mean, second, hit)
        got = a.by_scatter
        assert [(got.prob[i], got.win[i], got.win2[i]) for i in range(len(got.prob))] == \
            [tuple(split.get(i, (0, 0, 0))) for i in range(len(got.prob))]
        methods.append(a.method.split(" (")[0])
    pairs = "per-reel products of count polynomials, by pairs of counts"
    assert methods[:3] == ["per-reel product of count polynomials", pairs, pairs]
    assert methods[3].startswith("enumeration of")


def test_weighted_stops_of_a_pay_anywhere_game_count_by_their_weights(tmp_path):
    """Pay anywhere without cascades reads weighted stops by their weights, in the full product and by pairs of
    counts: the same figures as the unweighted game whose strips repeat each stop by its weight (it took each
    stop once: 150% for 200%)."""
    import exact.rules.anywhere as anywhere
    game = {"game": {"name": "w", "reels": 2, "rows": 1, "bet": 1, "evaluation": "anywhere"},
            "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]},
                        "S": {"class": "scatter", "reels": {"base": [1, 2]}, "pays": [0, 3]}}}
    write_set(tmp_path, game, {"base": [["A"], ["A"]]})
    (tmp_path / "base.csv").write_text("reel1,reel2,reel1_weight,reel2_weight\nA,A,3,1\nB,B,1,2\nS,S,2,1\n")
    weighted = load_math_set(str(tmp_path))
    flat = exact.math_set(game, {"base": [["A"] * 3 + ["B"] + ["S"] * 2, ["A", "B", "B", "S"]]})
    want = analyse_phase(flat, flat.model.base_phase)
    for bound in (anywhere.PRODUCT_STATES, 1):
        anywhere.PRODUCT_STATES, old = bound, anywhere.PRODUCT_STATES
        try:
            got = analyse_phase(weighted, weighted.model.base_phase)
        finally:
            anywhere.PRODUCT_STATES = old
        assert (got.mean, got.second, got.hit_frequency, got.by_scatter) == \
            (want.mean, want.second, want.hit_frequency, want.by_scatter)
    assert exact.par_sheet(weighted).rtp == exact.par_sheet(flat).rtp == Fraction(3 * 1 * 5 + 1 * 2 * 1 + 2 * 1 * 3, 6 * 4)


@pytest.mark.parametrize("evaluation, cascade", [("clusters", False), ("anywhere", True)])
def test_weighted_stops_refuse_where_the_game_is_enumerated(tmp_path, capsys, evaluation, cascade):
    """Exact enumeration takes each stop position once, so a game it computes (clusters, cascades) with
    weighted stops is refused in one line, in the API and on the command line alike."""
    game = {"game": {"name": "w", "reels": 2, "rows": 1, "bet": 1, "evaluation": evaluation},
            "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}}
    if cascade:
        game["cascade"] = {"multipliers": [1, 2]}
    write_set(tmp_path, game, {"base": [["A"], ["A"]]})
    (tmp_path / "base.csv").write_text("reel1,reel2,reel1_weight,reel2_weight\nA,A,3,1\nB,B,1,1\n")
    ms = load_math_set(str(tmp_path))
    assert not supports(ms, "report") and "weighted stops" in supports(ms, "report").reason
    with pytest.raises(UnsupportedRule, match="weighted stops"):
        exact.par_sheet(ms)
    assert main(["--set", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "weighted stops under exact enumeration" in err
    assert main(["spin", "--set", str(tmp_path), "--stops", "0,1"]) == 0


def test_report_names_anywhere_pays_and_says_why_no_symbol_table(tmp_path, capsys):
    """A pay-anywhere game's report: the by-symbol tables replaced by one line saying why (the figures come
    from each window's total win), the JSON's reason under a new key."""
    game, strips = random_game(3, "anywhere", free_spins=True)
    write_set(tmp_path, game, strips)
    assert main(["--set", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "BY SYMBOL (per base spin)\nnot computed: the exact figures come from" in text
    assert text.count("not computed: the exact figures come from the total win of each window") == 2
    assert main(["--set", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["symbols"] == {} and out["symbols_not_computed"].startswith("not computed: the exact figures")


@pytest.mark.parametrize("evaluation, words", [("anywhere", "anywhere"), ("clusters", "cluster")])
def test_report_and_workbook_name_the_pays_of_the_evaluation(tmp_path, capsys, evaluation, words):
    """The RTP split and the by-symbol heading of a pay-anywhere or cluster game name its pays, never "ways", in
    the report and in the workbook's tables (the workbook's Summary said "ways pays" on every game)."""
    game, strips = random_game(3, evaluation, free_spins=True)
    (tmp_path / "g").mkdir()
    write_set(tmp_path / "g", game, strips)
    assert main(["--set", str(tmp_path / "g")]) == 0
    text = capsys.readouterr().out
    assert f"base game {words} pays" in text and f"BASE GAME {words.upper()} WINS BY SYMBOL" in text
    assert "ways" not in text.lower()
    assert main(["export", "--set", str(tmp_path / "g"), "--csv", str(tmp_path / "csv")]) == 0
    capsys.readouterr()
    tables = "".join(p.read_text() for p in (tmp_path / "csv").glob("*.csv"))
    assert f"base game {words} pays" in tables and "ways" not in tables.lower()


def test_prove_exhaustive_enumerates_past_the_report_limit_in_tasks(tmp_path, capsys):
    """The report enumerates up to ``--max-enumeration`` combinations in process and names
    ``rtp prove --exhaustive`` beyond it; that command enumerates every phase in tasks of exact tallies
    (here in process; on Dask in tests/test_proofs_dask.py), merged in any order: the same exact figures."""
    import exact.enumeration as en
    from proofs.simulate_falls import enumerate_falls
    game, strips = random_game(5, "anywhere", free_spins=True)
    write_set(tmp_path, game, strips)
    assert main(["--set", str(tmp_path), "--max-enumeration", "10"]) == 2
    assert "'rtp prove --exhaustive' enumerates it" in capsys.readouterr().err
    assert main(["prove", "--set", str(tmp_path), "--exhaustive", "--rounds", "0", "--max-enumeration", "10"]) == 0
    text = capsys.readouterr().out
    assert "Result: PASS" in text and "in tasks of exact integer tallies" in text
    ms = exact.math_set(game, strips)
    want = exact.par_sheet(ms)
    for per_worker in (1, 3, 50):
        en._RESULTS.clear()
        from proofs.dask_runner import Cluster
        enumerate_falls(ms, cluster=Cluster(workers=1), tasks_per_worker=per_worker)
        got = en.analyse_phase(ms, ms.model.base_phase)
        assert got == want.analysis.base
    with pytest.raises(ValueError, match="stop combinations"):
        en.remember_phase(ms, ms.model.base_phase, en.tally_units(ms, ms.model.base_phase, 0, 1))


@pytest.mark.parametrize("evaluation", ["ways", "lines", "anywhere", "clusters"])
@pytest.mark.parametrize("cascade", [True, False])
def test_award_odds_equal_the_literal_reading_of_every_stop_combination(evaluation, cascade):
    """P(a spin pays the award in some fall) for every advertised award (a symbol's pay entry by OAK, cells,
    cluster size or payline run; each scatter pay by count), from the enumeration, equals the literal
    reading (play_falls) of every stop combination; the count products of pay anywhere give the same."""
    import exact.rules.anywhere as anywhere
    for seed in range(3):
        game, strips = random_game(seed, evaluation, cascade=cascade)
        ms = exact.math_set(game, strips)
        model = ms.model
        syms = {s.name: s for s in model.symbols}
        got = {}
        for label, credits, p in en_analyse(ms, model.base_phase, awards=True).award_odds:
            name, count = label.split()[:2]
            got[(name, int(count.rstrip("+")), label.endswith("scatter pay"))] = p
        reels = strips["base"]
        want: dict = {}
        for stops in itertools.product(*(range(len(s)) for s in reels)):
            keys = set()
            for f in play_falls(model, model.base_phase, reels, stops).falls:
                keys |= {(w[0], min(w[1], len(syms[w[0]].pays)), False) for w in f.wins if w[2] > 0}
                keys |= {(n, min(c, len(syms[n].pays)), True) for n, c, p in f.scatters if p > 0}
            for k in keys:
                want[k] = want.get(k, 0) + 1
        n = 1
        for s in reels:
            n *= len(s)
        assert {k: v for k, v in got.items() if v} == {k: Fraction(v, n) for k, v in want.items()}
        if evaluation == "anywhere" and not cascade:
            for bound in (anywhere.PRODUCT_STATES, 1):
                old, anywhere.PRODUCT_STATES = anywhere.PRODUCT_STATES, bound
                try:
                    odds = anywhere.count_product_phase(ms, model.base_phase).award_odds
                finally:
                    anywhere.PRODUCT_STATES = old
                assert {l: p for l, _, p in odds} == {l: p for l, _, p in en_analyse(ms, model.base_phase, awards=True).award_odds}


def test_comply_checks_the_award_odds_of_a_cascade_game(tmp_path, capsys):
    """rtp comply on a cascade game checks every advertised award per round (it said "award odds not
    computed"): exact without free spins (the base spin's odds), and with free spins bounds whose lower end
    is the base spin's odds and whose upper end adds the expected free spins times the free spins' odds."""
    game, strips = random_game(2, "anywhere")
    (tmp_path / "plain").mkdir()
    write_set(tmp_path / "plain", game, strips)
    assert main(["comply", "--set", str(tmp_path / "plain"), "--json"]) in (0, 1)
    out = json.loads(capsys.readouterr().out)
    checks = {c["item"]: c for c in out["checks"] if c["measure"] == "award_odds"}
    ms = exact.math_set(game, strips)
    odds = {l: p for l, _, p in en_analyse(ms, ms.model.base_phase, awards=True).award_odds}
    assert odds and all(Fraction(checks[l]["value"]) == p for l, p in odds.items())
    game, strips = random_game(4, "anywhere", free_spins=True)     # a finite feature (seed 2's retrigger is endless)
    ms = exact.math_set(game, strips)
    from exact.comply import awards
    sheet = exact.par_sheet(ms)
    got = {a.item: a.probability for a in awards(ms, sheet.analysis)}
    base = {l: p for l, _, p in en_analyse(ms, ms.model.base_phase, awards=True).award_odds}
    free = {l: p for l, _, p in en_analyse(ms, ms.model.level_phase(ms.model.levels[0]), awards=True).award_odds}
    spins = sheet.round.free_spins_played
    assert spins > 0
    for label, p in base.items():
        assert got[label].low == p and got[label].high == min(1, p + spins * free[label])


@pytest.mark.parametrize("evaluation", ["anywhere", "ways"])
def test_award_odds_per_round_with_free_spins_equal_a_brute_force_of_the_round(evaluation):
    """With free spins (no retrigger) a round pays an award when its base spin or one of its free spins
    does: 1 - sum over base stops of P(stops) [base avoids] (1 - q)^spins, q the free spin's odds, every
    spin read literally (play_falls); comply's odds per round are exact and equal it."""
    from exact.comply import awards
    from exact.rules.free_spins import initial_spins
    game, strips = random_game(4, evaluation, free_spins=True, scatters="first_fall")
    game["free_spins"].pop("retrigger")
    ms = exact.math_set(game, strips)
    model = ms.model
    reels = strips["base"]
    level = model.level_phase(model.levels[0])
    syms = {s.name: s for s in model.symbols}

    def keys_of(phase, stops):
        keys = set()
        for f in play_falls(model, phase, reels, stops).falls:
            keys |= {(w[0], min(w[1], len(syms[w[0]].pays)), False) for w in f.wins if w[2] > 0}
            keys |= {(n, min(c, len(syms[n].pays)), True) for n, c, p in f.scatters if p > 0}
        return keys

    every = list(itertools.product(*(range(len(s)) for s in reels)))
    n = len(every)
    free_keys = [keys_of(level, st) for st in every]
    got = {}
    for a in awards(ms):
        if a.kind in ("combination", "scatter pay"):
            name, count = a.item.split()[:2]
            got[(name, int(count.rstrip("+")), a.item.endswith("scatter pay"))] = a.probability
    assert got
    for key, bounds in got.items():
        q = Fraction(sum(key in k for k in free_keys), n)
        avoid = Fraction(0)
        for st in every:
            sp = play_falls(model, model.base_phase, reels, st)
            if key in keys_of(model.base_phase, st):
                continue
            trig = sp.falls[0].scatters[0][1] if sp.falls[0].scatters else 0
            avoid += Fraction(1, n) * (1 - q) ** initial_spins(model, trig)
        assert bounds.low == bounds.high == 1 - avoid, key
