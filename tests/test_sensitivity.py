"""Exact sensitivities (exact.sensitivity): each value against two full computations.

The oracle for a strip edit is the exact RTP of the edited set, computed from
scratch (loader, engine, free-spin chain) and subtracted from the RTP of the
set as it was.  The oracle for a weight derivative is sympy's derivative of
the base game's mean win as a rational function of the weights, built by
enumerating every stop combination and FISH value with the rules-page
evaluator; for level tables, an exact finite difference of two full
computations on the known form of the RTP in one weight.
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import random
from fractions import Fraction
from math import prod

import numpy as np
import pytest
import sympy

from exact.cli import main
from exact.engine import analyse
from exact.evaluator import evaluate
from strips.model import FISH, KEY, SCATTER
from exact.sensitivity import StripEdit, big_dot, key_fish_moment, sensitivity
from oracle import make_set, small_fish_model
from strips.loader import load_math_set
from generators import MODEL, full_rtp, write_edited, write_random_set


# --------------------------------------------------------------------------
# strip edits
# --------------------------------------------------------------------------
def _pick(edits, rng, n):
    """A sample of edits with every kind that takes a different path in the module."""
    def kind(e):
        sym = {MODEL.symbol(e.edit.old).kind, MODEL.symbol(e.edit.new).kind}
        return (e.edit.strip_set, KEY in sym, SCATTER in sym, FISH in sym)
    groups = {}
    for e in edits:
        groups.setdefault(kind(e), []).append(e)
    out = [rng.choice(g) for g in groups.values()]
    return out + rng.sample(edits, n)


@pytest.mark.parametrize("seed,lengths", [(11, (7, 8, 9, 10, 6)), (12, (4, 5, 6, 7, 8)), (13, (12, 11, 10, 13, 9))])
def test_edit_delta_is_the_difference_of_two_full_computations(tmp_path, seed, lengths):
    ms = load_math_set(str(write_random_set(tmp_path / "a", seed, lengths=lengths)))
    s = sensitivity(ms)
    assert s.rtp == full_rtp(ms)
    rng = random.Random(seed)
    sample = _pick(list(s.edits), rng, 12)
    assert {e.edit.strip_set for e in sample} == {"base", "bonus"}
    for i, es in enumerate(sample):
        edited = load_math_set(str(write_edited(ms, tmp_path / f"e{i}", [es.edit])))
        assert full_rtp(edited) - s.rtp == es.delta, str(es.edit)


def test_edit_on_bonus_key_changes_the_ladder_exactly(tmp_path):
    """Removing and placing a KEY on the bonus strips: the reach probabilities change."""
    ms = load_math_set(str(write_random_set(tmp_path / "a", 21, lengths=(9, 10, 9, 10, 9))))
    s = sensitivity(ms)
    keyed = [e for e in s.edits if e.edit.strip_set == "bonus" and "KEY" in (e.edit.old, e.edit.new)]
    assert any(e.edit.old == "KEY" for e in keyed) and any(e.edit.new == "KEY" for e in keyed)
    rng = random.Random(5)
    for i, es in enumerate(rng.sample(keyed, 6)):
        edited = load_math_set(str(write_edited(ms, tmp_path / f"e{i}", [es.edit])))
        assert full_rtp(edited) - s.rtp == es.delta, str(es.edit)


def test_edits_cover_every_allowed_replacement_once(tmp_path):
    ms = load_math_set(str(write_random_set(tmp_path / "a", 3, lengths=(5, 6, 7, 5, 6))))
    s = sensitivity(ms)
    expected = set()
    for name, rs in ms.strips.items():
        for r, reel in enumerate(rs.reels):
            for i, old in enumerate(reel):
                for sym in MODEL.symbols:
                    if sym.allowed_on(name, r) and sym.name != old:
                        expected.add(StripEdit(name, r, i, old, sym.name))
    got = [e.edit for e in s.edits]
    assert len(got) == len(set(got)) and set(got) == expected


def test_full_size_strips_sampled(tmp_path):
    """100-stop strips (the rules-page shape), sampled base and bonus edits."""
    ms = load_math_set(str(write_random_set(tmp_path / "a", 8, lengths=(100,) * 5, special_share=0.1)))
    s = sensitivity(ms)
    rng = random.Random(8)
    for i, es in enumerate(_pick(list(s.edits), rng, 2)[:7]):
        edited = load_math_set(str(write_edited(ms, tmp_path / f"e{i}", [es.edit])))
        assert full_rtp(edited) - s.rtp == es.delta, str(es.edit)


def test_big_dot_is_exact():
    rng = np.random.default_rng(1)
    small = rng.integers(-10**6, 10**6, size=(50, 9))
    coef = [random.Random(k).randrange(-10**60, 10**60) for k in range(9)]
    want = [sum(int(x) * c for x, c in zip(row, coef)) for row in small]
    assert big_dot(small, coef) == want
    huge = np.array([[2**61, -3]], dtype=np.int64)          # falls back to object arithmetic
    assert big_dot(huge, [5, 7]) == [5 * 2**61 - 21]


# --------------------------------------------------------------------------
# FISH weights
# --------------------------------------------------------------------------
# four reels of five stops, three rows: small enough for sympy, every FISH symbol the 4 reels allow
BASE_TINY = [["PIC1", "KEY", "AUS1", "FISH1", "PIC2"],
             ["WILD", "FISH2", "PIC1", "KEY", "AUS1"],
             ["KEY", "PIC1", "FISH1", "AUS2", "PIC2"],
             ["FISH3", "PIC1", "WILD", "FISH2", "AUS1"]]
BONUS_TINY = [["PIC1", "KEY", "AUS1", "FISH2", "PIC2"],
              ["PIC2", "FISH1", "PIC1", "KEY", "AUS1"],
              ["KEY", "PIC1", "FISH2", "AUS2", "PIC2"],
              ["FISH3", "PIC1", "PIC2", "FISH1", "AUS1"]]


def tiny_set():
    return make_set(small_fish_model(reels=4, rows=3), BASE_TINY, BONUS_TINY)


def symbolic_base_mean(ms, table="base"):
    """E[base win] as a sympy function of every weight of ``table``, by enumeration with the evaluator."""
    model = ms.model
    strips = ms.strips["base"]
    w = {s.name: sympy.symbols(f"w_{s.name}_0:{len(s.values)}", positive=True) for s in model.of_kind(FISH)}
    acc: dict[tuple, Fraction] = {}
    total = prod(strips.lengths)
    for stops in itertools.product(*(range(n) for n in strips.lengths)):
        window = strips.window(stops, model.rows)
        fish = [model.symbol(n) for col in window for n in col if model.symbol(n).kind == FISH]
        for pick in itertools.product(*(range(len(s.values)) for s in fish)):
            win = evaluate(model, window, [s.values[j] for s, j in zip(fish, pick)]).win
            key = tuple(sorted((s.name, j) for s, j in zip(fish, pick)))
            acc[key] = acc.get(key, 0) + Fraction(win, total)
    expr = 0
    for key, x in acc.items():
        term = sympy.Rational(x.numerator, x.denominator)
        for name, j in key:
            term *= w[name][j] / sum(w[name])
        expr += term
    at = {w[s.name][j]: s.weights[table][j] for s in model.of_kind(FISH) for j in range(len(s.values))}
    return expr, w, at


def test_base_weight_derivatives_match_sympy():
    ms = tiny_set()
    model = ms.model
    expr, w, at = symbolic_base_mean(ms)
    mean = analyse(ms).base.mean
    assert expr.subs(at) == sympy.Rational(mean.numerator, mean.denominator)
    s = sensitivity(ms, edits=False)
    got = {(x.symbol, x.value): x.derivative for x in s.weights if x.table == "base"}
    assert len(got) == 8           # FISH4 cannot stand on 4 reels: its derivatives are 0, as sympy's
    for sym in model.of_kind(FISH):
        for j, v in enumerate(sym.values):
            d = sympy.diff(expr, w[sym.name][j]).subs(at) / model.bet
            assert Fraction(int(sympy.numer(d)), int(sympy.denom(d))) == got[(sym.name, v)], (sym.name, v)


def test_level_weight_derivatives_match_exact_finite_differences(tmp_path):
    """In one weight w of table T the RTP is a + b / (W - w_j + w) (affine in the mean value):
    two full computations give b exactly, and the derivative is -b / W^2."""
    ms = load_math_set(str(write_random_set(tmp_path / "a", 4)))
    s = sensitivity(ms, edits=False)
    r0 = s.rtp
    picked = [x for x in s.weights if x.table != "base"][::5]
    assert {x.table for x in picked} >= {"level1", "level2", "level3", "level4"}
    for x in picked:
        sym = ms.model.symbol(x.symbol)
        j = sym.values.index(x.value)
        total = sum(sym.weights[x.table])
        h = 7
        new_w = tuple(wi + (h if k == j else 0) for k, wi in enumerate(sym.weights[x.table]))
        syms = tuple(dataclasses.replace(t, weights={**t.weights, x.table: new_w}) if t.name == x.symbol else t
                     for t in ms.model.symbols)
        bumped = dataclasses.replace(ms, model=dataclasses.replace(ms.model, symbols=syms))
        b = (r0 - full_rtp(bumped)) / (Fraction(1, total) - Fraction(1, total + h))
        assert -b / total**2 == x.derivative, (x.symbol, x.table, x.value)


def test_key_fish_moment_by_enumeration():
    ms = tiny_set()
    strips = ms.strips["base"]
    total = prod(strips.lengths)
    want = Fraction(0)
    for stops in itertools.product(*(range(n) for n in strips.lengths)):
        cells = [x for col in strips.window(stops, ms.model.rows) for x in col]
        want += Fraction(cells.count("KEY") * cells.count("FISH1"), total)
    assert key_fish_moment(ms, "base", "FISH1") == want


# --------------------------------------------------------------------------
# the command
# --------------------------------------------------------------------------
def test_cli_json_top_lists(tmp_path, capsys):
    d = write_random_set(tmp_path / "a", 2)
    assert main(["sensitivity", "--set", str(d), "--top", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    s = sensitivity(load_math_set(str(d)))
    assert Fraction(out["rtp"]) == s.rtp and out["edits"] == len(s.edits)
    ups = [Fraction(e["delta"]) for e in out["top_increase"]]
    downs = [Fraction(e["delta"]) for e in out["top_decrease"]]
    assert len(ups) == len(downs) == 3
    keep = [e.delta for e in s.edits if not e.breaks]      # ranked: edits that keep the strip rules
    assert ups[0] == max(keep) and downs[0] == min(keep)
    assert ups == sorted(ups, reverse=True) and downs == sorted(downs)
    for e in out["top_increase"]:
        assert Fraction(e["rtp_after"]) == s.rtp + Fraction(e["delta"])
    assert len(out["weights"]) == len(s.weights)


def test_cli_text_and_bad_input(tmp_path, capsys):
    d = write_random_set(tmp_path / "a", 2)
    assert main(["sensitivity", "--set", str(d), "--top", "2"]) == 0
    text = capsys.readouterr().out
    assert "TOP 2 EDITS RAISING THE RTP" in text and "TOP 2 WEIGHTS LOWERING THE RTP" in text
    assert main(["sensitivity", "--set", str(d), "--top", "0"]) == 2
    assert main(["sensitivity", "--set", str(tmp_path / "missing" / "x")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2


def test_free_spins_on_base_strips_is_refused_in_one_line(tmp_path, capsys):
    """The incremental formulation needs separate free-spin strips: another game exits 2, one line."""
    from strips.loader import bundled_path
    d = write_random_set(tmp_path / "a", 2)
    game = (bundled_path("rules_page") / "game.toml").read_text()
    assert 'strips = "bonus"' in game
    (d / "game.toml").write_text(game.replace('strips = "bonus"', 'strips = "base"'))
    with pytest.raises(ValueError, match="free spins on the base strips"):
        sensitivity(load_math_set(str(d)))
    assert main(["sensitivity", "--set", str(d)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unsupported rule" in err[0]


def test_top_levers_group_equivalent_positions(tmp_path):
    s = sensitivity(load_math_set(str(write_random_set(tmp_path / "a", 14, lengths=(12, 12, 12, 12, 12)))))
    for increase in (True, False):
        levers = s.top_levers(4, increase)
        assert len(levers) == 4
        deltas = [lv.delta for lv in levers]
        assert deltas == sorted(deltas, reverse=increase)
        assert deltas[0] == (max if increase else min)(e.delta for e in s.edits if not e.breaks)
        for lv in levers:
            same = sorted(e.edit.position for e in s.edits
                          if not e.breaks and (e.edit.strip_set, e.edit.reel, e.edit.old, e.edit.new, e.delta)
                          == (lv.strip_set, lv.reel, lv.old, lv.new, lv.delta))
            assert list(lv.positions) == same


# ---- edits that break what the set keeps (strip rules, published windows and totals) ----
def _bundled():
    from strips.loader import load_math_set
    return load_math_set("rules_page")


def test_edit_breaks_names_the_rule():
    from exact.sensitivity import StripEdit, edit_breaks
    from proofs.reconstruction.rules_page import published_positions
    ms = _bundled()
    reel = ms.strips["base"].reels[0]
    specials = {s.name for s in ms.model.symbols if s.is_special}
    shown = published_positions("base")
    # a FISH1 right after a special, at a position no example shows
    k = next(i for i, s in enumerate(reel) if s in specials and (0, (i + 1) % 100) not in shown
             and reel[(i + 1) % 100] not in specials)
    e = StripEdit("base", 0, (k + 1) % 100, reel[(k + 1) % 100], "FISH2" if reel[k] != "FISH2" else "FISH1")
    assert "pay symbols between" in edit_breaks(ms, e) or "FISH total" in edit_breaks(ms, e)
    # a published position
    (r, pos), (sym, ex) = next(iter(shown.items()))
    other = "PIC1" if sym != "PIC1" else "PIC2"
    assert edit_breaks(ms, StripEdit("base", r, pos, sym, other)) == f"example {ex[0]} shows {sym} here"


def test_aus_run_of_four_is_flagged():
    from exact.sensitivity import StripEdit, edit_breaks
    from proofs.reconstruction.rules_page import published_positions
    ms = _bundled()
    aus = ms.model.strip_rules.max_run_symbols
    shown = published_positions("bonus")
    for r, reel in enumerate(ms.strips["bonus"].reels):
        for i in range(100):
            # three AUS in a row ending at i-1, position i a non-AUS pay symbol no example shows
            if all(reel[(i - k) % 100] in aus for k in (1, 2, 3)) and reel[i].startswith("PIC") \
                    and (r, i) not in shown:
                assert "run of" in edit_breaks(ms, StripEdit("bonus", r, i, reel[i], "AUS1"))
                return
    pytest.skip("no run of 3 AUS followed by a PIC symbol on the bonus strips")


def test_default_levers_keep_every_rule():
    from exact.sensitivity import sensitivity
    s = sensitivity(_bundled())
    assert any(e.breaks for e in s.edits)
    for e in s.top_edits(50, True) + s.top_edits(50, False):
        assert e.breaks == ""
    assert any(e.breaks for e in s.top_edits(50, True, legal=False) + s.top_edits(50, False, legal=False))


def test_cli_says_when_the_set_already_fails_a_published_fact(tmp_path, capsys):
    import shutil
    from strips.loader import bundled_path
    d = tmp_path / "changed"
    shutil.copytree(bundled_path("rules_page"), d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__", "*.md"))
    text = (d / "game.toml").read_text()
    (d / "game.toml").write_text(text.replace("pays = [0, 0, 5, 15, 50]", "pays = [0, 0, 5, 15, 500]", 1))
    assert main(["sensitivity", "--set", str(d), "--top", "1"]) == 0
    assert "already fails 1 published fact" in capsys.readouterr().out
    assert main(["sensitivity", "--set", str(d), "--top", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["published_facts_failing"] == ["PIC1 pays for 3/4/5 OAK, credits per way"]
