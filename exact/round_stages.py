r"""The round of a bet mode or a buy as the win distribution plays it (the stages of
:func:`exact.feature_runner.win_distribution`): the round's spin, its respin with held reels, its prize wheels
and jackpots and its free spins as one chain of the protocol (:class:`markov.round_chain.RoundChain`, run by
:func:`markov.protocol.run`) in the distribution's value algebras (:mod:`exact.algebras`).

* The spin is split jointly by every count that decides the round (the triggering scatter, each prize
  wheel's symbol, the respin's symbol, every scatter that pays on its own count): the one-spin dynamic
  programme of :mod:`exact.one_spin` over per-reel outcomes whose additive key packs those counts.
* A respin of hold ``h`` (the reels that hold and their windows) is two such products: the original spin
  (the reels not held on their stops without the symbol) and the respin (those reels on every stop); given
  ``h`` they are independent (:mod:`exact.bet_modes`).
* Each transition of the round's chain carries a kernel: the spin's or the respin's win by the counts it
  ends in, a wheel award's credits (a jackpot's credits), the free spins an award or a trigger starts (the
  feature's own value, its chain run once per initial spins).
* A buy is the free spins started as after its trigger: the feature alone, at the buy's cost.

>>> from strips.loader import load_math_set
>>> ms = load_math_set("wheel_game")
>>> ChainStage(ms.mode("fortune_bet")).starts
[6, 8]
"""
from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from math import gcd, lcm, prod

import numpy as np

from exact.algebras import combine
from exact.limbs import object_array
from exact.one_spin import KEY_COUNT, SCATTER_COUNT, ReelOutcomes, SpinDistribution, reel_outcomes, spin_distribution
from exact.rules import initial_spins, scatter_view, starts_feature, symbol_scatter_pay
from markov import protocol
from markov.round_chain import SPIN, RoundChain, decided
from strips.model import CREDITS, FREE_SPINS, JACKPOT, SCATTER, MathSet, window_codes

__all__ = ["ChainStage", "BuyStage", "counted_symbols", "joint_spin"]


def counted_symbols(model) -> tuple[str, ...]:
    """The symbols whose counts decide a round of ``model``: the triggering scatter, each prize wheel's symbol,
    the respin's symbol, then every other scatter (each may pay on its own count), once each.

    >>> from strips.loader import load_math_set
    >>> counted_symbols(load_math_set("wheel_game").mode("fortune_bet").model)
    ('SCATTER', 'BONUS')
    """
    names = []
    trig = model.trigger_symbol
    for s in ([trig.name] if trig is not None else []) + [w.symbol for w in model.wheels] + \
            ([model.respin.symbol] if model.respin is not None else []) + [s.name for s in model.of_kind(SCATTER)]:
        if s not in names:
            names.append(s)
    return tuple(names)


class _Counts:
    """Per-reel outcomes of a spin keyed by the packed counts of :func:`counted_symbols` (base ``B`` per
    symbol: the sums over the reels never carry)."""

    def __init__(self, ms: MathSet, phase):
        self.ms, self.model, self.phase = ms, ms.model, phase
        self.names = counted_symbols(self.model)
        self.codes = [self.model.code(s) for s in self.names]
        self.strips = ms.phase_strips(phase).codes
        self.windows = [window_codes(c, self.model.rows) for c in self.strips]
        self.base = self.model.reels * self.model.rows + 1
        self._cache: dict = {}

    def shown(self, r: int, code: int) -> np.ndarray:
        """Per stop of reel ``r``, how many times the window shows symbol ``code``."""
        return (self.windows[r] == code).sum(axis=1)

    def window_key(self, r: int, stop: int) -> tuple:
        return tuple(sorted(int(c) for c in self.windows[r][stop]))

    def _window(self, key: tuple):
        """(ways rows, weights, total, packed counts) of one window (its multiset ``key``)."""
        got = self._cache.get(key)
        if got is None:
            o = reel_outcomes(self.model, np.array(key, dtype=np.int64), self.phase.weights)
            packed = sum(key.count(c) * self.base ** i for i, c in enumerate(self.codes))
            got = self._cache[key] = (o.ways, o.weights, o.total, packed)
        return got

    def reel(self, r: int, stops) -> ReelOutcomes:
        """The outcomes of reel ``r`` on the stops ``stops`` (equally likely; merged by window)."""
        groups: dict[tuple, int] = defaultdict(int)
        for s in stops:
            groups[self.window_key(r, int(s))] += 1
        parts = [(self._window(k), n) for k, n in groups.items()]
        den = lcm(*(t for (_, _, t, _), _ in parts))
        merged: dict[tuple, int] = defaultdict(int)
        for (ways, weights, t, packed), n in parts:
            for row, x in zip(ways, weights):
                merged[(tuple(int(v) for v in row), packed)] += int(x) * (den // t) * n
        g = 0
        for v in merged.values():
            g = gcd(g, v)
        items = list(merged.items())
        n_pay = len(self.model.pay_symbols)
        zeros = np.zeros(len(items), dtype=np.int64)
        return ReelOutcomes(ways=np.array([w for (w, _), _ in items], dtype=np.int64).reshape(len(items), n_pay),
                            keys=np.array([k for (_, k), _ in items], dtype=np.int64), scatters=zeros,
                            fish=zeros.copy(), weights=object_array([x // g for _, x in items]),
                            total=sum(groups.values()) * den // g)

    def decode(self, packed: int) -> tuple:
        out = []
        for _ in self.codes:
            packed, c = divmod(packed, self.base)
            out.append(c)
        return tuple(out)


def joint_spin(ms: MathSet, phase, stops=None, counts: _Counts | None = None) -> tuple[dict, int]:
    """The exact joint law of one spin's counts (:func:`counted_symbols`, in order) and its win, every scatter's
    own pay included: ``({counts: {win: integer weight}}, total)``, credits per spin.  ``stops[r]`` restricts
    reel r to those stops (equally likely), default every stop.

    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("wheel_game")
    >>> law, total = joint_spin(ms, ms.model.base_phase)
    >>> sum(sum(t.values()) for t in law.values()) == total
    True
    """
    model = ms.model
    cs = counts or _Counts(ms, phase)
    stops = stops or [range(len(c)) for c in cs.strips]
    outs = [cs.reel(r, stops[r]) for r in range(model.reels)]
    d = spin_distribution(ms, phase, KEY_COUNT, outcomes=outs)
    pays = [(i, scatter_view(model, model.symbol(s))) for i, s in enumerate(cs.names)
            if model.symbol(s).kind == SCATTER]
    law: dict = defaultdict(lambda: defaultdict(int))
    for packed, w, x in zip(d.counts, d.wins, d.weights):
        k = cs.decode(int(packed))
        w = int(w) + phase.multiplier * sum(symbol_scatter_pay(sym, k[i]) for i, sym in pays)
        law[k][w] += int(x)
    return {k: dict(v) for k, v in law.items()}, d.total


def _by_trigger(phase, law: dict, total: int, trig: int | None) -> SpinDistribution:
    """The joint law of :func:`joint_spin` as a SpinDistribution by the triggering scatter's count (index
    ``trig`` of the counts; None: 0)."""
    by: dict = defaultdict(int)
    for k, t in law.items():
        for w, x in t.items():
            by[(k[trig] if trig is not None else 0, w)] += x
    items = sorted(by.items())
    return SpinDistribution(phase, SCATTER_COUNT, total, np.array([n for (n, _), _ in items], dtype=np.int64),
                            np.array([w for (_, w), _ in items], dtype=np.int64), object_array([x for _, x in items]))


class ChainStage:
    """The round of one bet mode as the chain :class:`markov.round_chain.RoundChain` (spin, respin, prize
    wheels, free spins), its transitions' kernels, for :func:`exact.feature_runner.win_distribution`
    (the stage interface of ``exact.feature_runner.SpinStage``).

    Raises
    ------
    ValueError
        A rule this stage does not model (refused up front by :func:`exact.rules.supports`).

    >>> from strips.loader import load_math_set
    >>> st = ChainStage(load_math_set("wheel_game").mode("fortune_spins"))
    >>> st.starts
    [6, 8]
    """

    def __init__(self, mset: MathSet):
        model = mset.model
        self.model = model
        phase = model.base_phase
        cs = _Counts(mset, phase)
        names = cs.names
        trig = names.index(model.trigger_symbol.name) if model.trigger_symbol is not None else None
        wheel_at = [names.index(w.symbol) for w in model.wheels]
        rs = model.respin
        rs_at = names.index(rs.symbol) if rs is not None else None

        def deciding(k):
            return (k[trig] if trig is not None else 0,) + tuple(k[i] for i in wheel_at)

        lengths = [len(c) for c in cs.strips]
        full, total = joint_spin(mset, phase, counts=cs)
        self.base = _by_trigger(phase, full, total, trig)
        tables: dict = {}            # (state, move) -> table {win: P} or ("award", ...)
        succ: dict = {}
        spin_rows, respin_rows = [], {}
        decided_tables: dict = defaultdict(lambda: defaultdict(Fraction))
        for k, t in full.items():
            dk = deciding(k)
            if rs is None or k[rs_at] != rs.count or starts_feature(model, dk):
                for w, x in t.items():
                    decided_tables[dk][w] += Fraction(x, total)
        for dk, t in decided_tables.items():
            spin_rows.append((dk, sum(t.values()), 0, 0, decided(dk)))
            tables[SPIN, dk] = dict(t)
        if rs is not None:
            shown = [cs.shown(r, model.code(rs.symbol)) for r in range(model.reels)]
            none = [np.flatnonzero(s == 0) for s in shown]
            held = []          # per reel: (window, stops showing it, symbols shown)
            for r in range(model.reels):
                groups: dict[tuple, list] = {}
                for i in np.flatnonzero(shown[r] > 0):
                    g = groups.setdefault(cs.window_key(r, int(i)), [int(i), 0, int(shown[r][i])])
                    g[1] += 1
                held.append(list(groups.values()))
            for size in range(1, model.reels + 1):
                for hold in itertools.combinations(range(model.reels), size):
                    rest = [r for r in range(model.reels) if r not in hold]
                    for choice in itertools.product(*(held[r] for r in hold)):
                        if sum(g[2] for g in choice) != rs.count:
                            continue
                        fixed = {r: [g[0]] for r, g in zip(hold, choice)}
                        weight = Fraction(prod(g[1] for g in choice) * prod(len(none[r]) for r in rest),
                                          prod(lengths))
                        if not weight:
                            continue
                        orig, ot = joint_spin(mset, phase, [fixed.get(r, none[r]) for r in range(model.reels)], cs)
                        kept: dict = defaultdict(Fraction)
                        for k, t in orig.items():
                            if not starts_feature(model, deciding(k)):
                                for w, x in t.items():
                                    kept[w] += weight * Fraction(x, ot)
                        if not kept:
                            continue
                        h = (hold, tuple(g[0] for g in choice))
                        state = ("respin", h)
                        spin_rows.append((h, sum(kept.values()), 0, 0, state))
                        tables[SPIN, h] = dict(kept)
                        resp, rt = joint_spin(mset, phase, [fixed.get(r, range(lengths[r]))
                                                            for r in range(model.reels)], cs)
                        by: dict = defaultdict(lambda: defaultdict(Fraction))
                        for k, t in resp.items():
                            for w, x in t.items():
                                by[deciding(k)][w] += Fraction(x, rt)
                        respin_rows[state] = [(dk, sum(t.values()), 0, 0, decided(dk)) for dk, t in by.items()]
                        for dk, t in by.items():
                            tables[state, dk] = dict(t)
        triggering = {n for dk in [r[0] for r in spin_rows if r[4][0] == "decided"] +
                      [r[0] for rows in respin_rows.values() for r in rows] for n in [dk[0]]
                      if initial_spins(model, n)}
        self.chain = RoundChain(spin_rows, respin_rows, [w.table_for for w in model.wheels],
                                {n: (0, 0) for n in triggering}, lambda a, k: (0, 0))
        self.tables = tables
        # every state's moves, their successors and kernels' tables; the starts of the features
        starts: set = set()
        award_tables: dict = {}
        wins: set = set()
        for table in tables.values():
            wins.update(table)
        reach = protocol.reach(self.chain, 0)
        trigger_prob: dict = defaultdict(Fraction)
        self.moves: dict = {}
        for state in reach:
            rows = self.chain.transitions(state)
            moves = {}
            for i, (label, q, _, _, nxt) in enumerate(rows):
                succ[state, i] = nxt
                if state[0] in ("spin", "respin"):
                    moves[i] = ("table", tables[state, label])
                elif state[0] == "decided":
                    moves[i] = ("one",)
                elif state[0] == "wheel":
                    a = model.wheels[state[1]].table_for(state[2][1 + state[1]]).awards[i]
                    if a.kind == FREE_SPINS:
                        starts.add(a.amount)
                        trigger_prob[a.amount] += reach[state] * q
                        key = ("point", 0, q)
                        moves[i] = ("feature", award_tables.setdefault(key, {0: q}), a.amount)
                    else:
                        v = model.jackpots[a.jackpot] if a.kind == JACKPOT else a.amount if a.kind == CREDITS else 0
                        wins.add(v)
                        moves[i] = ("table", award_tables.setdefault(("point", v, q), {v: q}))
                else:                               # the free spins of a trigger
                    n0 = initial_spins(model, state[1])
                    starts.add(n0)
                    trigger_prob[n0] += reach[state]
                    moves[i] = ("feature", None, n0)
            self.moves[state] = moves
        self.succ = succ
        self.starts = sorted(starts)
        self.trigger_prob = dict(trigger_prob)
        self.wins = tuple(sorted(wins))
        self.max_win = max(self.wins)
        # the largest win before a feature: of no use here (the stage refuses endless retriggers)
        self.max_before = self.max_win

    @staticmethod
    def spin(ms: MathSet, phase, count: str) -> SpinDistribution:
        """One spin of ``phase`` by the triggering scatter's count (a free spin's retrigger), every scatter's
        pay included (:func:`joint_spin`); as :func:`exact.one_spin.spin_distribution`.

        Raises
        ------
        ValueError
            ``count`` other than ``"scatter"``.
        """
        if count not in (SCATTER_COUNT, KEY_COUNT) or (count == KEY_COUNT and ms.model.of_kind("key")):
            raise ValueError(f"unsupported rule: a free-spin count by {count} with several scatters, a respin or "
                             f"a prize wheel")
        cs = _Counts(ms, phase)
        law, total = joint_spin(ms, phase, counts=cs)
        trig = cs.names.index(ms.model.trigger_symbol.name) if ms.model.trigger_symbol is not None else None
        d = _by_trigger(phase, law, total, trig if count == SCATTER_COUNT else None)
        return d if count == SCATTER_COUNT else SpinDistribution(phase, count, d.total, d.counts, d.wins, d.weights)

    # the chain as :func:`markov.protocol.run` plays it: each state's law is itself, a move its index
    def law(self, state):
        return state

    def step(self, state, move):
        return self.succ[state, move]

    def value(self, alg, feats: dict):
        kernels = {}
        one = alg.one()
        for state, moves in self.moves.items():
            ks = {}
            for i, m in moves.items():
                if m[0] == "table":
                    ks[i] = alg.kernel(m[1])
                elif m[0] == "one":
                    ks[i] = one
                elif m[1] is None:
                    ks[i] = feats[m[2]]
                else:
                    ks[i] = alg.mul(alg.kernel(m[1]), feats[m[2]])
            kernels[state] = ks
        return protocol.run(alg, self, SPIN, kernels).value


class BuyStage:
    """A bought feature as the win distribution's round: the free spins started as after the buy's trigger,
    no spin before them (the stage interface of ``exact.feature_runner.SpinStage``).

    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> BuyStage(ms.model, 3, None).starts
    [10]
    """

    def __init__(self, model, trigger: int, base, spin=None):
        n0 = initial_spins(model, trigger)
        self.base = base
        if spin is not None:           # the free spins split as the mode's stage splits them
            self.spin = spin
        self.starts = [n0]
        self.trigger_prob = {n0: Fraction(1)}
        self.wins = ()
        self.max_win = self.max_before = 0
        self._n0 = n0

    def value(self, alg, feats: dict):
        return combine(alg, [feats[self._n0]])


