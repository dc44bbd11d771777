"""The feature-chain protocol (markov/protocol.py): the analyses written once for any chain (exact
figures, visit probabilities, award odds, the distribution's runner, the graph) equal brute force
over every sequence of outcomes, written from the rules without markov, on small ladders, capped
retrigger chains and a chain of two methods; the literal round player (tests/test_play.py) checks
the same generic solver through whole rounds."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from exact.distribution import ExactAlgebra
from markov import protocol
from markov.chain import END, Ladder
from markov.graph import chain_graph, check_chain
from markov.moments import CountSplit
from markov.retrigger import RetriggerChain
from generators import enumerate_feature, split_of

F = Fraction


def _random_outcomes(rng: random.Random, max_count: int) -> list:
    """One spin's joint outcomes (P, count, win) with 2-4 outcomes of random weights."""
    n = rng.randint(2, 4)
    w = [rng.randint(1, 9) for _ in range(n)]
    return [(F(x, sum(w)), rng.randint(0, max_count), F(rng.randint(0, 12))) for x in w]


def _random_retrigger(seed: int):
    rng = random.Random(seed)
    out = _random_outcomes(rng, 3)
    extra = tuple([0] + [rng.randint(0, 3) for _ in range(3)])
    return out, extra, rng.randint(3, 7)


def _retrigger_paths(outcomes, extra, cap, initial):
    """Every sequence of spins of a capped retrigger feature, from the rule itself (spins awarded so far
    never above the cap): yields (P, total win, spins played)."""
    def walk(p, left, awarded, win, played):
        if left == 0:
            yield p, win, played
            return
        for q, n, w in outcomes:
            add = min(extra[n], cap - awarded)
            yield from walk(p * q, left - 1 + add, awarded + add, win + w, played + 1)
    yield from walk(F(1), initial, initial, F(0), 0)


def _retrigger_chain(outcomes, extra, cap):
    return RetriggerChain(split=split_of(outcomes, keys=len(extra) - 1), extra=extra, cap=cap)


@pytest.mark.parametrize("seed", range(6))
def test_a_capped_retrigger_solved_by_the_protocol_equals_every_sequence_of_spins(seed):
    outcomes, extra, cap = _random_retrigger(seed)
    chain = _retrigger_chain(outcomes, extra, cap)
    starts = list(range(1, min(cap, 3) + 1))
    for f in protocol.features(chain, starts):
        paths = list(_retrigger_paths(outcomes, extra, cap, f.initial_spins))
        assert sum(p for p, *_ in paths) == 1
        assert f.mean == sum(p * w for p, w, _ in paths)
        assert f.second == sum(p * w * w for p, w, _ in paths)
        assert f.spins == sum(p * n for p, _, n in paths)
        m = protocol.solve(chain, [f.initial_spins])[f.initial_spins]
        assert (m.mean, m.second, m.steps) == (f.mean, f.second, f.spins)


@pytest.mark.parametrize("seed", range(6))
def test_a_random_ladder_solved_by_the_protocol_equals_every_sequence_of_spins(seed):
    rng = random.Random(100 + seed)
    levels = rng.randint(1, 3)
    outcomes = [_random_outcomes(rng, 2) for _ in range(levels)]
    thresholds = [0] + sorted(rng.randint(1, 4) for _ in range(levels - 1))
    spins = [None] + [rng.randint(1, 3) for _ in range(levels - 1)]
    cap_keys = max(k for o in outcomes for _, k, _ in o)
    ladder = Ladder(tuple(thresholds), tuple(spins), (1,) * levels,
                    tuple(split_of(o, keys=cap_keys) for o in outcomes))
    for f in protocol.features(ladder, [1, 2, 3]):
        b = enumerate_feature(outcomes, thresholds, spins, f.initial_spins)
        assert (f.mean, f.second, f.keys) == (b.mean, b.second, b.keys)
        assert list(f.reach) == b.reach and list(f.final_level) == b.final_level
        assert list(f.spins_by_level) == b.spins_by_level and list(f.win_by_level) == b.win_by_level


@pytest.mark.parametrize("seed", range(4))
def test_the_runner_in_the_exact_algebra_is_the_law_of_the_feature_win(seed):
    """protocol.run plays the chain's kernels (by the runner's moves: extra spins merged) into the exact
    law of the feature's win, the law brute force gives."""
    outcomes, extra, cap = _random_retrigger(seed)
    chain = _retrigger_chain(outcomes, extra, cap)
    tables: dict = {}
    for q, n, w in outcomes:
        tables.setdefault(n, {})
        tables[n][int(w)] = tables[n].get(int(w), 0) + q
    kernels = chain.moves([tables])
    got = protocol.run(ExactAlgebra(), chain, chain.start(2), kernels).value
    want: dict = {}
    for p, w, _ in _retrigger_paths(outcomes, extra, cap, 2):
        want[int(w)] = want.get(int(w), 0) + p
    assert {w: p for w, p in got.items() if p} == {w: p for w, p in want.items() if p}


@pytest.mark.parametrize("seed", range(4))
def test_the_odds_that_no_spin_shows_an_event_equal_every_sequence_of_spins(seed):
    """protocol.avoids: the event is a win of at least 8 credits in one spin."""
    outcomes, extra, cap = _random_retrigger(seed)
    chain = _retrigger_chain(outcomes, extra, cap)
    avoid = [F(0)] * len(extra)
    for q, n, w in outcomes:
        if w < 8:
            avoid[n] += q

    def paths(p, left, awarded, clean):
        if left == 0:
            yield p if clean else F(0)
            return
        for q, n, w in outcomes:
            add = min(extra[n], cap - awarded)
            yield from paths(p * q, left - 1 + add, awarded + add, clean and w < 8)
    assert protocol.avoids(chain, 2, lambda s, n, p: avoid[n]) == sum(paths(F(1), 2, 2, True))


class Coins:
    """A chain of the protocol's two required methods only: draw until 3 coins are held or 2 draws miss
    in a row; a coin pays 5, the third coin 20 more.  State (coins, misses in a row)."""

    def start(self, n):
        return (n, 0)

    def transitions(self, s):
        coins, miss = s
        hit = (coins + 1, 0) if coins + 1 < 3 else None
        out = [("coin", F(1, 3), F(5 + (20 if coins + 1 == 3 else 0), 3), F((5 + (20 if coins + 1 == 3 else 0)) ** 2, 3), hit)]
        out.append(("miss", F(2, 3), F(0), F(0), (coins, miss + 1) if miss + 1 < 2 else None))
        return tuple(out)


def _coin_paths(coins, miss, p=F(1), win=0, steps=0):
    if coins == 3 or miss == 2:
        yield p, win, steps
        return
    yield from _coin_paths(coins + 1, 0, p / 3, win + 5 + (20 if coins + 1 == 3 else 0), steps + 1)
    yield from _coin_paths(coins, miss + 1, p * 2 / 3, win, steps + 1)


def test_a_chain_of_two_methods_gets_every_analysis():
    c = Coins()
    f, = protocol.features(c, [1])
    paths = list(_coin_paths(1, 0))
    assert f.mean == sum(p * w for p, w, _ in paths) and f.second == sum(p * w * w for p, w, _ in paths)
    assert f.spins == sum(p * n for p, _, n in paths) and f.reach == (1,) and f.final_level == (1,)
    assert sum(protocol.reach(c, 1).values()) == f.spins      # acyclic: visits = reach, one step per visit
    g = chain_graph(c, [1])
    check_chain(g)
    assert g.number_of_nodes() == len(protocol.reachable(c, [c.start(1)])) + 1
    assert protocol.avoids(c, 1, lambda s, label, p: p if label == "miss" else 0) == F(4, 9)


def test_the_ladder_of_the_rules_page_is_exported_in_its_own_order():
    out = [[(F(1, 2), 0, F(0)), (F(1, 2), 1, F(2))], [(F(1), 0, F(3))]]
    ladder = Ladder((0, 1), (None, 2), (1, 2), tuple(split_of(o, keys=1) for o in out))
    states = protocol.reachable(ladder, [ladder.start(2)])
    assert states == sorted(states, key=Ladder.order) and states[0] == ladder.start(2)
    g = chain_graph(ladder, [2])
    assert list(g)[0] == END and list(g)[1] == "L1 s2 c0"


def test_a_cyclic_chain_is_refused_by_the_acyclic_solver():
    class Loop:
        def start(self, n):
            return 0

        def transitions(self, s):
            return (("stay", Fraction(1, 2), Fraction(1), Fraction(1), 0), ("end", Fraction(1, 2), 0, 0, None))
    with pytest.raises(ValueError, match="cycle"):
        protocol.solve(Loop(), [1])


def test_an_uncapped_retrigger_has_its_closed_form_not_a_walk():
    h = F(1, 2)
    c = RetriggerChain(CountSplit((h, h), (F(0), F(1)), (F(0), F(1))), (0, 1))
    with pytest.raises(ValueError, match="infinitely many states"):
        protocol.reachable(c, [c.start(1)])
    f, = protocol.features(c, [1])
    assert f.spins == 2 and f.mean == 2      # E[spins] = 1 / (1 - E[R]) = 2, each paying 1 on average


# -- the round as a chain: a spin, its respin, two prize wheels and the free spins ------------------------------
def _dist(rng, n=2):
    """A small discrete law of a win: ((probability, credits), ...), probabilities summing to 1."""
    w = [rng.randint(1, 4) for _ in range(n)]
    return tuple((F(x, sum(w)), rng.randint(0, 9)) for x in w)


def _moments(law, scale=F(1)):
    """(P, E[X 1], E[X^2 1]) of a law, every probability times ``scale``."""
    return (sum(p for p, _ in law) * scale, sum(p * x for p, x in law) * scale, sum(p * x * x for p, x in law) * scale)


def _random_round(seed: int):
    """A random round: the spin's outcomes (deciding counts k = (n, b1, b2) or a hold that respins), each
    with a law of its win; the respins' outcomes; two wheels; free spins by n. Returns (chain, paths) where
    paths lists every sequence of outcomes as (probability, total win, wheel wins)."""
    from markov.round_chain import RoundChain, decided
    from strips.model import Award, PrizeTable
    rng = random.Random(seed)
    ks = [(rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 2)) for _ in range(4)]
    tables = [PrizeTable("t", tuple(Award("credits", rng.randint(0, 20)) for _ in range(2)),
                         (rng.randint(0, 3), rng.randint(1, 3))) for _ in range(2)]
    wheels = [lambda b, t=t: t if b >= 1 else None for t in tables]
    free = {n: _dist(rng) for n in (1, 2)}
    spin = [(("k", k), F(1, 6), _dist(rng)) for k in ks] + [(("h", i), F(1, 6), _dist(rng)) for i in range(2)]
    respins = {("respin", i): [(k, F(1, 2), _dist(rng)) for k in rng.sample(ks, 2)] for i in range(2)}
    rows = [(lab, *_moments(law, p), decided(lab[1]) if lab[0] == "k" else ("respin", lab[1])) for lab, p, law in spin]
    respin_rows = {s: [(k, *_moments(law, p), decided(k)) for k, p, law in out] for s, out in respins.items()}
    chain = RoundChain(rows, respin_rows, wheels, {n: _moments(law)[1:] for n, law in free.items()},
                       lambda a, k: (F(a.amount), F(a.amount ** 2)))

    def features(k):        # every (probability, win, wheel wins) of the features k starts
        out = [(F(1), 0, (0, 0))]
        for i, t in enumerate(tables):
            if k[1 + i] >= 1:
                out = [(p * F(wt, sum(t.weights)), x + a.amount, tuple(y + (a.amount if j == i else 0)
                                                                         for j, y in enumerate(ws)))
                       for p, x, ws in out for a, wt in zip(t.awards, t.weights)]
        if k[0] in free:
            out = [(p * q, x + y, ws) for p, x, ws in out for q, y in free[k[0]]]
        return out

    paths = []
    for lab, p, law in spin:
        for q, x in law:
            if lab[0] == "k":
                ends = [(p * q, x, lab[1])]
            else:
                ends = [(p * q * r * s, x + y, k) for k, r, law2 in respins[("respin", lab[1])] for s, y in law2]
            for pe, xe, k in ends:
                paths += [(pe * pf, xe + xf, ws, k) for pf, xf, ws in features(k)]
    return chain, paths


@pytest.mark.parametrize("seed", range(6))
def test_the_round_as_a_chain_equals_every_sequence_of_its_parts(seed):
    """The round's chain (spin, respin, wheels, free spins) solved by the protocol equals every sequence of
    outcomes: mean, second moment, each wheel's share and start probability, the respin's; and its exits
    (the split by the deciding counts) equal the paths' split before the features."""
    chain, paths = _random_round(seed)
    f, = protocol.features(chain, [0])
    assert f.mean == sum(p * x for p, x, _, _ in paths)
    assert f.second == sum(p * x * x for p, x, _, _ in paths)
    for i in range(2):
        assert f.win_by_level[3 + i] == sum(p * ws[i] for p, _, ws, _ in paths)
    assert f.reach[1] == F(2, 6)
    split = protocol.exits(chain, 0, lambda s: s[0] == "decided")
    assert sum(v[0] for v in split.values()) == 1
    m = protocol.solve(chain, [0])[0]
    assert (m.mean, m.second) == (f.mean, f.second)
    g = chain_graph(chain, [0])       # the graph export of any chain
    assert any(str(n).startswith("wheel") for n in g.nodes) and g.number_of_nodes() == len(protocol.reachable(chain, [chain.start(0)])) + 1


def test_exits_split_the_reward_by_the_state_it_ends_in():
    """protocol.exits on a chain of two steps equals the sum over its paths."""
    from markov.round_chain import RoundChain, decided
    rows = [("a", F(1, 3), F(2, 3), F(4, 3), ("respin", 0)), ("b", F(2, 3), F(2), F(6), decided((1,)))]
    c = RoundChain(rows, {("respin", 0): [("x", F(1, 4), F(1, 4), F(1, 4), decided((1,))),
                                          ("y", F(3, 4), F(0), F(0), decided((0,)))]}, (), {}, None)
    # paths: a (win 2) then x (win 1): p 1/12, win 3; a then y: p 1/4, win 2; b: p 2/3, win 3 (b's law: 3 with p 1)
    assert protocol.exits(c, 0, lambda s: s[0] == "decided") == {
        decided((1,)): (F(1, 12) + F(2, 3), F(1, 12) * 3 + F(2, 3) * 3, F(1, 12) * 9 + F(2, 3) * 9),
        decided((0,)): (F(1, 4), F(1, 4) * 2, F(1, 4) * 4)}
