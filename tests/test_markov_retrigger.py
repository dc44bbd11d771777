"""Free spins with retrigger (markov.retrigger) and their round (markov.round).

Oracles, none of which uses markov:

* :func:`capped_paths` plays the retrigger rule literally over every sequence
  of per-spin outcomes ``(probability, scatter count, win)`` of a capped
  feature: a spin with ``n`` scatters awards the table's extra spins, but
  never more than the cap allows in total (the rest are lost).
* hand derivations of the uncapped feature by another route (a geometric
  number of spins; the Catalan distribution of a binary branching process);
* a seeded Monte Carlo of uncapped features, within a 99.9% interval;
* the capped chain itself as the cap grows (the closed form is its limit).
"""
from __future__ import annotations

import dataclasses
import json
import math
import re
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from exact.cli import main
from exact.engine import analyse
from strips.model import Level
from markov.moments import CountSplit, PhaseAnalysis
from markov.chain import END, feature_result, ladder_of, model_ladder
from markov.graph import check_chain, cross_check, read_graphml, retrigger_graph
from markov.retrigger import (
    INFINITE,
    RetriggerChain,
    capped_features,
    feature_results,
    retrigger_of,
    subtree_moments,
    unlimited_features,
)
from markov.round import round_result
from generators import phase_analysis, rules_page_inputs, rules_page_model, split_of
from strips.loader import load_math_set

Z999 = 3.2905  # two-sided 99.9% standard normal quantile


# ---------------------------------------------------------------------------
# oracles
# ---------------------------------------------------------------------------
def table_spins(table, n):
    """Spins of a (count, spins) table for n scatters: the largest entry with count <= n, else 0."""
    return max((s for c, s in table if n >= c), default=0)


def capped_paths(outcomes, table, cap, initial):
    """Every outcome sequence of a capped feature, played literally.

    Yields (probability, total win, spins played).
    """
    def go(prob, win, played, awarded):
        if played == awarded:          # no spin left: the feature ends
            yield prob, win, played
            return
        for p, n, w in outcomes:
            extra = min(table_spins(table, n), cap - awarded)   # spins beyond the cap are lost
            yield from go(prob * p, win + w, played + 1, awarded + extra)

    yield from go(F(1), F(0), 0, initial)


def brute_capped(outcomes, table, cap, initial):
    """(E[F], E[F^2], E[spins]) summed over :func:`capped_paths`."""
    mean = second = spins = F(0)
    for p, w, n in capped_paths(outcomes, table, cap, initial):
        mean += p * w
        second += p * w * w
        spins += p * n
    return mean, second, spins


def simulate_uncapped(outcomes, table, initial, n_features, seed):
    """Seeded Monte Carlo of uncapped features: (total wins, spins played), float64 / int64 arrays of shape (n,)."""
    rng = np.random.default_rng(seed)
    p = np.array([float(q) for q, _, _ in outcomes])
    extra = np.array([table_spins(table, n) for _, n, _ in outcomes])
    win = np.array([float(w) for _, _, w in outcomes])
    left = np.full(n_features, initial, dtype=np.int64)
    total = np.zeros(n_features)
    played = np.zeros(n_features, dtype=np.int64)
    while True:
        idx = np.flatnonzero(left)
        if not len(idx):
            return total, played
        draw = rng.choice(len(p), size=len(idx), p=p / p.sum())
        total[idx] += win[draw]
        played[idx] += 1
        left[idx] += extra[draw] - 1


def free_phase(split: CountSplit) -> PhaseAnalysis:
    """A free-spin PhaseAnalysis around a scatter split, with no KEY symbols."""
    return phase_analysis(CountSplit((F(1),), (split.mean,), (split.second,)), scatter=split)


def chain(outcomes, table, cap=None) -> RetriggerChain:
    sp = split_of(outcomes)
    return RetriggerChain(sp, tuple(table_spins(table, n) for n in range(len(sp.prob))), cap)


# one free spin: (probability, scatter count, win); 2 scatters -> 1 extra spin, 3 -> 2
SPIN = [(F(1, 2), 0, F(0)), (F(1, 4), 1, F(3)), (F(1, 8), 2, F(1)), (F(1, 8), 3, F(10))]
TABLE = ((2, 1), (3, 2))


# ---------------------------------------------------------------------------
# capped: exact equality with the literal enumeration
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("cap,initial", [(1, 1), (2, 1), (3, 2), (5, 2), (7, 3), (8, 1)])
def test_capped_equals_literal_enumeration(cap, initial):
    f = capped_features(chain(SPIN, TABLE, cap), [initial])[0]
    assert (f.mean, f.second, f.spins) == brute_capped(SPIN, TABLE, cap, initial)
    assert f.initial_spins == initial and f.reach == f.final_level == (1,)
    assert f.win_by_level == (f.mean,)


def test_capped_wald_identity():
    # the spins played form a stopping time: E[F] = E[spins] E[W]
    f = capped_features(chain(SPIN, TABLE, 9), [2])[0]
    assert f.mean == f.spins * split_of(SPIN).mean


def test_capped_one_pass_serves_every_start():
    ch = chain(SPIN, TABLE, 6)
    many = capped_features(ch, [1, 2, 3, 6])
    assert many == tuple(capped_features(ch, [n])[0] for n in (1, 2, 3, 6))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(0, 3), st.integers(0, 9)), min_size=1, max_size=3),
       st.lists(st.integers(0, 3), min_size=3, max_size=3), st.integers(1, 5), st.integers(1, 3))
def test_capped_random_games_equal_literal_enumeration(raw, extras, cap, initial):
    initial = min(initial, cap)
    total = sum(w for w, _, _ in raw)
    outcomes = [(F(w, total), n, F(x)) for w, n, x in raw]
    table = tuple((c, e) for c, e in zip((1, 2, 3), extras))
    f = feature_results(chain(outcomes, table, cap), [initial])[0]
    assert (f.mean, f.second, f.spins) == brute_capped(outcomes, table, cap, initial)


def test_capped_allows_expected_retrigger_above_one():
    # every spin retriggers 2 spins: only the cap ends the feature, after exactly `cap` spins
    f = capped_features(chain([(F(1), 3, F(5))], TABLE, 6), [2])[0]
    assert (f.mean, f.second, f.spins) == (F(30), F(900), F(6))


# ---------------------------------------------------------------------------
# uncapped: closed form against hand derivations, the capped limit, Monte Carlo
# ---------------------------------------------------------------------------
def test_uncapped_geometric_toy_by_hand():
    # a spin retriggers 1 spin w.p. 1/4 (win 4), else wins 0 (1/2) or 2 (1/4).  From one initial
    # spin the spins T are geometric, P(T = t) = (1/4)^(t-1) (3/4); the first T - 1 spins won 4
    # each, the last wins Z in {0, 2} w.p. 2/3, 1/3 independently of T: Y = 4 (T - 1) + Z.
    # E[T - 1] = (1/4)/(3/4) = 1/3, Var[T - 1] = (1/4)/(3/4)^2 = 4/9; E[Z] = 2/3, Var[Z] = 4/3 - 4/9 = 8/9.
    # E[Y] = 4/3 + 2/3 = 2; Var[Y] = 16 * 4/9 + 8/9 = 8.  Three initial spins: E = 6, Var = 24, spins 4.
    out = [(F(1, 2), 0, F(0)), (F(1, 4), 0, F(2)), (F(1, 4), 3, F(4))]
    f = unlimited_features(chain(out, ((3, 1),)), [3])[0]
    assert (f.mean, f.variance, f.spins) == (F(6), F(24), F(4))


def test_uncapped_binary_branching_catalan_series():
    # every spin wins 1 and retriggers 2 spins w.p. 1/3: Y = T, the total progeny of a binary
    # branching process, P(T = 2k + 1) = Catalan(k) (1/3)^k (2/3)^(k + 1).  By hand
    # E[T] = 1/(1 - 2/3) = 3 and E[T^2] = 2/3 + 1/3 E[(1 + T1 + T2)^2] = 2/3 + 1/3 (31 + 2 E[T^2]) => 33.
    out = [(F(2, 3), 0, F(1)), (F(1, 3), 3, F(1))]
    ey, ey2, es = subtree_moments(chain(out, ((3, 2),)))
    assert (ey, ey2, es) == (F(3), F(33), F(3))
    m1 = m2 = F(0)
    for k in range(400):
        p = F(math.comb(2 * k, k), k + 1) * F(1, 3) ** k * F(2, 3) ** (k + 1)
        m1 += p * (2 * k + 1)
        m2 += p * (2 * k + 1) ** 2
    assert 0 < ey - m1 < F(1, 10 ** 15) and 0 < ey2 - m2 < F(1, 10 ** 15)


def test_capped_converges_geometrically_to_the_closed_form():
    out = [(F(1, 2), 0, F(1)), (F(1, 4), 2, F(3)), (F(1, 4), 3, F(7))]
    table = ((2, 1), (3, 2))      # E[R] = 1/4 + 2/4 = 3/4
    ch = chain(out, table)
    exact = unlimited_features(ch, [2])[0]
    caps = [10, 30, 50, 70, 90]
    capped = [capped_features(dataclasses.replace(ch, cap=c), [2])[0] for c in caps]
    for attr in ("mean", "second", "spins"):
        gaps = [getattr(exact, attr) - getattr(f, attr) for f in capped]
        assert all(g > 0 for g in gaps)                         # the cap only loses spins
        assert all(b <= a / 2 for a, b in zip(gaps, gaps[1:]))  # each 20 more spins: half or less


def test_uncapped_monte_carlo_within_999_interval():
    n = 100_000
    f = unlimited_features(chain(SPIN, TABLE), [2])[0]
    wins, spins = simulate_uncapped(SPIN, TABLE, 2, n, seed=20261201)
    for sample, mean in ((wins, f.mean), (wins ** 2, f.second), (spins.astype(float), f.spins)):
        assert abs(sample.mean() - float(mean)) <= Z999 * sample.std(ddof=1) / math.sqrt(n)


def test_uncapped_feature_is_n_independent_subtrees():
    ch = chain(SPIN, TABLE)
    one, five = unlimited_features(ch, [1, 5])
    assert five.mean == 5 * one.mean and five.variance == 5 * one.variance and five.spins == 5 * one.spins


@pytest.mark.parametrize("out", [
    [(F(1), 3, F(1))],                                   # E[R] = 2
    [(F(1, 2), 0, F(1)), (F(1, 2), 3, F(1))],            # E[R] = 1 exactly
])
def test_uncapped_expected_retrigger_at_least_one_raises(out):
    with pytest.raises(ValueError, match="feature value is infinite"):
        chain(out, TABLE)
    capped = chain(out, TABLE, cap=4)                    # fine with a cap
    with pytest.raises(ValueError, match=INFINITE):
        subtree_moments(capped)


def test_invalid_chains_raise():
    sp = split_of(SPIN)
    with pytest.raises(ValueError, match="retrigger entries"):
        RetriggerChain(sp, (0, 1))
    with pytest.raises(ValueError, match=">= 0"):
        RetriggerChain(sp, (0, 0, -1, 2))
    with pytest.raises(ValueError, match="cap must be >= 1"):
        RetriggerChain(sp, (0, 0, 1, 2), cap=0)
    with pytest.raises(ValueError, match="below the 4 initial"):
        capped_features(RetriggerChain(sp, (0, 0, 1, 2), cap=3), [4])


def test_no_retrigger_equals_one_level_ladder():
    # two independent solvers agree when the table never awards extra spins
    ladder = model_ladder(dataclasses.replace(rules_page_model(), levels=(Level(1, 0, None, 1, "level1"),)),
                          [split_of(SPIN)])
    key_mean = sum(p * n for p, n, _ in SPIN)   # the ladder reads the split's counts as KEY counts
    for cap in (None, 12):
        ch = RetriggerChain(split_of(SPIN), (0,) * 4, cap, key_mean=key_mean)
        assert feature_results(ch, [7])[0] == feature_result(ladder, 7)


# ---------------------------------------------------------------------------
# whole round
# ---------------------------------------------------------------------------
# base spin: (probability, scatter count, win); 1 scatter -> 1 free spin, 2 or more -> 2
BASE = [(F(1, 2), 0, F(0)), (F(1, 6), 0, F(3)), (F(1, 6), 1, F(1)), (F(1, 12), 1, F(4)), (F(1, 12), 3, F(5))]


def retrigger_model(cap, levels=(Level(1, 0, None, 3, "level1"),)):
    return dataclasses.replace(rules_page_model(), bet=2, trigger=((1, 1), (2, 2)), retrigger=TABLE,
                               retrigger_cap=cap, levels=levels)


def retrigger_round(cap, spin=SPIN):
    base_split = split_of(BASE)
    base = phase_analysis(base_split, "base", scatter=base_split, ways_share=F(1, 3))
    return round_result(retrigger_model(cap), base, [free_phase(split_of(spin))])


@pytest.mark.parametrize("cap", [2, 4, 6])
def test_round_with_capped_retrigger_equals_brute_force(cap):
    mean = second = spins = F(0)
    for p, n, b in BASE:
        initial = table_spins(((1, 1), (2, 2)), n)
        paths = capped_paths(SPIN, TABLE, cap, initial) if initial else [(F(1), F(0), 0)]
        for q, w, played in paths:
            mean += p * q * (b + w)
            second += p * q * (b + w) ** 2
            spins += p * q * played
    r = retrigger_round(cap)
    assert (r.mean, r.second, r.free_spins_played) == (mean, second, spins)
    assert r.trigger_prob == {1: F(1, 4), 2: F(0), 3: F(1, 12)}   # 2 scatters never shown
    assert r.initial_free_spins == r.q == F(1, 4) * 1 + F(1, 12) * 2
    assert r.retrigger_per_spin == F(1, 8) * 1 + F(1, 8) * 2 and r.retrigger_cap == cap
    assert r.reach == (F(1, 3),) and r.free_spins_by_level == (r.free_spins,)
    assert r.components["base_ways"] + r.components["base_collect"] + r.components["free_spins"] == r.mean


def test_round_with_uncapped_retrigger_by_hand():
    # free spin of test_uncapped_geometric_toy_by_hand: a feature of m spins has E = 2m, Var = 8m
    spin = [(F(1, 2), 0, F(0)), (F(1, 4), 0, F(2)), (F(1, 4), 2, F(4))]   # 2 scatters: 1 extra spin
    r = retrigger_round(None, spin)
    eb = sum(p * b for p, _, b in BASE)
    eb2 = sum(p * b * b for p, _, b in BASE)
    feats = [(p, n, b, table_spins(((1, 1), (2, 2)), n)) for p, n, b in BASE]
    mean = eb + sum(p * 2 * m for p, _, _, m in feats)
    second = eb2 + sum(2 * p * b * 2 * m + p * (8 * m + 4 * m * m) for p, _, b, m in feats)
    assert (r.mean, r.second) == (mean, second)
    # spins: initial / (1 - E[R]) with E[R] = 1/4 (the closed form "N / (1 - q)")
    assert r.retrigger_per_spin == F(1, 4) and r.free_spins_played == r.initial_free_spins / (1 - F(1, 4))


def test_round_uncapped_expected_retrigger_at_least_one_raises():
    with pytest.raises(ValueError, match="feature value is infinite"):
        retrigger_round(None, [(F(1, 2), 0, F(1)), (F(1, 2), 3, F(1))])   # E[R] = 1/2 x 2 = 1


def test_round_retrigger_with_multi_level_ladder_raises():
    model = retrigger_model(None, levels=rules_page_model().levels)
    base_split = split_of(BASE)
    base = phase_analysis(base_split, "base", scatter=base_split)
    with pytest.raises(ValueError, match="unsupported rule: retrigger with a multi-level ladder"):
        round_result(model, base, [free_phase(split_of(SPIN))] * len(model.levels))
    with pytest.raises(ValueError, match="unsupported rule: retrigger with a multi-level ladder"):
        retrigger_of(model, [free_phase(split_of(SPIN))])


def test_round_retrigger_reads_the_scatter_split_and_key_mean():
    keys = split_of([(F(1, 2), 0, F(0)), (F(1, 2), 2, F(2))])
    spin = CountSplit((F(1, 2), F(0), F(1, 2)), (F(0), F(0), F(1)), (F(0), F(0), F(2)))
    pa = dataclasses.replace(phase_analysis(keys), by_scatter=spin)  # E[KEY] = 1 per free spin
    ch = retrigger_of(retrigger_model(None), [pa])
    assert ch.extra == (0, 0, 1) and ch.multiplier == 3 and ch.key_mean == 1
    f = feature_results(ch, [2])[0]
    assert f.spins == 4 and f.keys == 4 and f.mean == 2 * F(1) / (1 - F(1, 2))


def test_ladder_round_keeps_ladder_results():
    # the rules-page game (no retrigger) still goes through the KEY ladder, unchanged
    model, base, levels = rules_page_inputs()
    assert model.retrigger == ()
    r = round_result(model, base, levels)
    ladder = ladder_of(model, levels)
    for n, spins in ((3, 10), (4, 15), (5, 20)):
        assert r.features[n] == feature_result(ladder, spins)
    assert r.retrigger_per_spin == 0 and r.retrigger_cap is None
    assert r.initial_free_spins == F(8, 1000) * 10 + F(1, 1000) * 15 + F(1, 1000) * 20
    assert len(r.reach) == len(r.free_spins_by_level) == 4


# ---------------------------------------------------------------------------
# graph of the capped chain, and ``rtp chain`` on a small retrigger math set
# ---------------------------------------------------------------------------
def test_retrigger_graph_is_absorbing_and_matches_floats():
    ch = chain(SPIN, TABLE, 9)
    g = retrigger_graph(ch, [1, 3])
    check_chain(g)
    assert {d["start"] for _, d in g.nodes(data=True) if d["start"]} == {"1", "3"}
    assert all(d["spins_left"] + d["played"] <= 9 for n, d in g.nodes(data=True) if n != END)
    # 2 scatters (1 extra spin) from "s3 p0": 3 - 1 + 1 spins left after 1 played
    assert g.edges["s3 p0", "s3 p1"]["k"] == (2,) and g.edges["s3 p0", "s3 p1"]["probability"] == F(1, 8)
    assert cross_check(g, capped_features(ch, [1, 3])) <= 1e-12
    with pytest.raises(ValueError, match="infinitely many states"):
        retrigger_graph(chain(SPIN, TABLE), [1])


# our own small strips (not third-party): SCATTER on reels 1, 3, 5 at 1 of 10 stops, 3 rows:
# P(3 SCATTER) = (3/10)^3 = 27/1000, so E[R] = 12 x 27/1000 = 81/250 per free spin
TINY_STRIPS = """reel1,reel2,reel3,reel4,reel5
SCATTER,GIRAFFE,SCATTER,A,SCATTER
GIRAFFE,WILD,K,WILD,NINE
A,K,WILD,GIRAFFE,A
K,A,GIRAFFE,K,GIRAFFE
NINE,GIRAFFE,A,NINE,K
TEN,Q,TEN,J,TEN
Q,BUFFALO,LEMUR,FLAMINGO,Q
BUFFALO,NINE,BUFFALO,BUFFALO,J
J,LEMUR,J,Q,LEMUR
LEMUR,J,Q,LEMUR,BUFFALO
"""
SIMBA_GAME = Path(__file__).resolve().parents[1] / "strips" / "external" / "african_simba" / "game.toml"


def retrigger_set(tmp_path, cap=None):
    d = tmp_path / ("capped" if cap else "uncapped")
    d.mkdir()
    text = SIMBA_GAME.read_text()
    if cap:
        text = re.sub(r"(?m)^retrigger\s*=.*$", lambda m: f"{m.group(0)}\nretrigger_cap = {cap}", text)
    (d / "game.toml").write_text(text)
    (d / "base.csv").write_text(TINY_STRIPS)
    return d


def test_cli_uncapped_retrigger_json_and_no_graph(tmp_path, capsys):
    d = retrigger_set(tmp_path)
    assert main(["chain", "--set", str(d), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ms = load_math_set(str(d))
    an = analyse(ms)
    r = round_result(ms.model, an.base, an.levels)
    rt = out["retrigger"]
    assert rt["cap"] is None and rt["table"] == [[3, 12]] and rt["multiplier"] == 3
    assert F(rt["expected_extra_spins_per_free_spin"]["exact"]) == r.retrigger_per_spin == F(81, 250)
    assert F(rt["initial_free_spins_per_round"]["exact"]) == r.q == 12 * F(27, 1000)
    assert out["chain"] is None and out["float_cross_check"]["status"] == "not applicable"
    assert [F(t["mean"]["exact"]) for t in out["triggers"]] == [r.features[3].mean]
    assert main(["chain", "--set", str(d), "--graphml", str(tmp_path / "g.graphml")]) == 2
    assert "infinitely many states" in capsys.readouterr().err
    assert not (tmp_path / "g.graphml").exists()


def test_cli_capped_retrigger_graph_and_cross_check(tmp_path, capsys):
    d = retrigger_set(tmp_path, cap=36)
    target = tmp_path / "chain.graphml"
    assert main(["chain", "--set", str(d), "--graphml", str(target)]) == 0
    text = capsys.readouterr().out
    assert "at most 36 free spins per feature" in text and "PASS" in text
    g = read_graphml(target)
    check_chain(g)
    assert g.graph["cap"] == 36 and g.graph["retrigger"][3] == 12
    # 12 initial spins, +12 per retrigger, cap 36: played + left stays within the cap
    assert all(int(d["spins_left"]) + int(d["played"]) <= 36 for n, d in g.nodes(data=True) if n != END)
