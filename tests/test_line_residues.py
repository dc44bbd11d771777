"""Payline games past int64: the pair and per-line chains of exact.lines run modulo primes and are rebuilt
by the Chinese remainder theorem (exact.limbs.residue_primes, from_residues, IntRing).

Oracles: the brute force through the literal evaluator on small random line games with the residue path
forced and primes below 2^11 (so the chain's integers pass the moduli many times over); linearity on a
game past 2^63 (every strip repeated k times keeps every probability, every pay times K scales the mean
by K and the second moment by K^2), against the small game's exact figures; and the CLI on it.
"""
from __future__ import annotations

import contextlib
import random
from fractions import Fraction
from math import prod
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings

import exact.lines as lines
from exact.cli import main
from exact.engine import analyse, analyse_phase
from markov.round import round_result
from exact.limbs import IntRing, from_residues, residue_primes
from oracle import brute_force_lines, make_set
from generators import game_text, line_games, model_of


@contextlib.contextmanager
def residues(bits: int = 11):
    """Every payline chain on residues modulo primes below 2^bits, whatever its bound."""
    with mock.patch.object(lines, "INT64_CHAIN_BOUND", 0), mock.patch.object(lines, "RESIDUE_BITS", bits):
        yield


def test_residue_primes_rebuild_every_integer_of_the_bound():
    rng = random.Random(3)
    for bits, bound in ((5, 10**6), (11, 2**100), (31, 2**200)):
        ps = residue_primes(bound, bits)
        assert all(p < 2**bits for p in ps) and prod(ps) > 2 * bound
        assert len(set(ps)) == len(ps)
        vals = [rng.randint(-bound, bound) for _ in range(200)] + [bound, -bound, 0]
        res = np.array([[v % p for v in vals] for p in ps], dtype=np.int64)
        assert from_residues(res, ps).tolist() == vals


def test_residue_primes_refuse_a_bound_beyond_their_product():
    with pytest.raises(ValueError, match="do not reach"):
        residue_primes(2**100, bits=4)


def test_ring_products_and_sums_are_exact_past_int64():
    ring = IntRing(residue_primes(2**130))
    a, b = [2**62 + 5, 3, 0], [2**61 - 1, 7, 9]
    assert ring.exact(ring.mul(ring.lift(np.array(a, dtype=object)), ring.lift(np.array(b, dtype=object)))).tolist() \
        == [x * y for x, y in zip(a, b)]


def assert_residue_chains_equal_brute_force(ms):
    """With primes below 2^11 every chain value wraps many times; the rebuilt figures equal the literal
    evaluator's over every stop combination, exactly."""
    with residues():
        for phase in (ms.model.base_phase, ms.model.level_phase(ms.model.levels[0])):
            an = analyse_phase(ms, phase)
            bf = brute_force_lines(ms, phase)
            assert an.mean == sum(bf.win.values()) and an.second == sum(bf.win2.values())
            assert list(an.line_means) == bf.line_means and list(an.line_hits) == bf.line_hits
            table = {(s, i + 1): v for s, row in an.ways_by_symbol.items() for i, v in enumerate(row) if v}
            assert table == {k: v for k, v in bf.by_label.items() if v}


@settings(max_examples=4, deadline=None)
@given(line_games())
def test_line_chains_on_small_primes_equal_brute_force(ms):
    assert_residue_chains_equal_brute_force(ms)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(line_games())
def test_line_chains_on_small_primes_equal_brute_force_many(ms):
    assert_residue_chains_equal_brute_force(ms)


@settings(max_examples=10, deadline=None)
@given(line_games())
def test_residue_and_int64_chains_agree(ms):
    plain = analyse_phase(ms, ms.model.base_phase)
    with residues(bits=7):
        res = analyse_phase(ms, ms.model.base_phase)
    assert (res.mean, res.second, res.by_scatter, res.line_means) == \
        (plain.mean, plain.second, plain.by_scatter, plain.line_means)


def rtp_round(ms):
    a = analyse(ms)
    return round_result(ms.model, a.base, a.levels)


LINES = [(1, 1, 1, 1, 1), (0, 0, 0, 0, 0), (2, 2, 2, 2, 2), (0, 1, 2, 1, 0), (2, 1, 0, 1, 2), (0, 1, 1, 1, 0)]
STRIPS = [["A", "W", "B", "C", "S"], ["B", "A", "W", "C"], ["C", "A", "B", "W", "S"], ["A", "B", "C", "W"],
          ["W", "C", "A", "B"]]


def scaled_set(k: int, repeat: int):
    """A 5x3 six-line game with every pay times ``k`` and every strip repeated ``repeat`` times."""
    pays = {"A": [0, 5, 10, 20, 50], "B": [0, 0, 4, 8, 30], "C": [1, 2, 3, 4, 5]}
    text = game_text(5, 3, LINES, wild_pays=[k * v for v in (0, 3, 12, 40, 100)],
                     comb='{ values = [2], mode = "combination" }', scatter_pays=[k * v for v in (0, 2, 7, 30, 100)],
                     pays={s: [k * v for v in p] for s, p in pays.items()})
    return make_set(model_of(text), [s * repeat for s in STRIPS], [s[::-1] * repeat for s in STRIPS])


def test_a_game_past_int64_is_k_times_the_small_game_exactly():
    """2^45 times the stop combinations (total about 2^54.6) and pays x 2^20: the pair entries reach about
    2^120 and the per-line sums 2^100, far past int64; mean and second moment are exactly K and K^2 times
    the small game's, and the probabilities are the same."""
    k, rep = 1 << 20, 1 << 9
    small, big = scaled_set(1, 1), scaled_set(k, rep)
    total = prod(big.phase_strips(big.model.base_phase).lengths)
    assert total > 2**54 and (100 * k) ** 2 * total > 2**63
    for phase in (small.model.base_phase, small.model.level_phase(small.model.levels[0])):
        a, b = analyse_phase(small, phase), analyse_phase(big, phase)
        assert (b.mean, b.second) == (k * a.mean, k * k * a.second)
        assert b.by_scatter.prob == a.by_scatter.prob and b.hit_frequency == a.hit_frequency
        assert b.line_means == tuple(k * v for v in a.line_means)
    ra, rb = rtp_round(small), rtp_round(big)
    assert rb.mean == k * ra.mean and rb.second == k * k * ra.second


def test_the_cli_runs_a_game_past_int64(tmp_path, capsys):
    from mathset_files import csv_text, write_set
    k, rep = 1 << 20, 1 << 9
    big = scaled_set(k, rep)
    d = write_set(tmp_path / "big", base=csv_text([s * rep for s in STRIPS]),
                  bonus=csv_text([s[::-1] * rep for s in STRIPS]), game=game_text(
                      5, 3, LINES, wild_pays=[k * v for v in (0, 3, 12, 40, 100)],
                      comb='{ values = [2], mode = "combination" }',
                      scatter_pays=[k * v for v in (0, 2, 7, 30, 100)],
                      pays={s: [k * v for v in p] for s, p in
                            {"A": [0, 5, 10, 20, 50], "B": [0, 0, 4, 8, 30], "C": [1, 2, 3, 4, 5]}.items()}))
    assert main(["--json", "--set", str(d)]) == 0
    import json
    out = json.loads(capsys.readouterr().out)
    assert Fraction(out["rtp"]) == rtp_round(big).mean / big.model.bet
