"""The feature-chain protocol (markov/protocol.py): the generic exact solver, reach and graph written
once for any chain equal the specialised solvers of the ladder and of the capped retrigger chain."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from exact.engine import analyse
from markov import protocol
from markov.chain import feature_results as ladder_features, ladder_of
from markov.graph import chain_graph
from markov.moments import CountSplit
from markov.retrigger import RetriggerChain, capped_features
from strips.loader import load_math_set


def test_the_ladder_solved_generically_equals_its_layer_recursion():
    ms = load_math_set("rules_page")
    ladder = ladder_of(ms.model, analyse(ms).levels)
    starts = [10, 15, 20]
    generic = protocol.solve(ladder, starts)
    for f in ladder_features(ladder, starts):
        g = generic[f.initial_spins]
        assert (g.mean, g.second, g.steps) == (f.mean, f.second, f.spins)
    g = protocol.graph(ladder, starts)
    assert g.number_of_nodes() == chain_graph(ladder, starts).number_of_nodes()
    total = {s: sum(e["probability"] for *_, e in g.out_edges(s, data=True)) for s in g if s != "END"}
    assert set(total.values()) == {1}


def _random_chain(seed: int) -> RetriggerChain:
    rng = random.Random(seed)
    n = rng.randint(2, 4)
    w = [rng.randint(1, 9) for _ in range(n)]
    den = sum(w)
    prob = tuple(Fraction(x, den) for x in w)
    win = tuple(p * rng.randint(0, 20) for p in prob)
    win2 = tuple(x * rng.randint(20, 40) for x in win)
    return RetriggerChain(split=CountSplit(prob, win, win2), extra=tuple([0] + [rng.randint(0, 3) for _ in range(n - 1)]),
                          cap=rng.randint(4, 9))


@pytest.mark.parametrize("seed", range(8))
def test_the_capped_retrigger_solved_generically_equals_its_backward_pass(seed):
    chain = _random_chain(seed)
    starts = list(range(1, min(chain.cap, 4) + 1))
    generic = protocol.solve(chain, starts)
    for f in capped_features(chain, starts):
        g = generic[f.initial_spins]
        assert (g.mean, g.second, g.steps) == (f.mean, f.second, f.spins)
    r = protocol.reach(chain, starts[-1])
    assert r[chain.start(starts[-1])] == 1 and all(0 < p <= 1 for p in r.values())


def test_a_cyclic_chain_is_refused_by_the_acyclic_solver():
    class Loop:
        def start(self, n):
            return 0

        def transitions(self, s):
            return (("stay", Fraction(1, 2), Fraction(1), Fraction(1), 0), ("end", Fraction(1, 2), 0, 0, None))
    with pytest.raises(ValueError, match="cycle"):
        protocol.solve(Loop(), [1])
