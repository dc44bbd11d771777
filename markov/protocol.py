"""The feature-chain protocol: what every feature chain gives, and the analyses written once for any chain.

A chain is an object with

* ``start(initial_spins) -> state``: the first transient state of a feature;
* ``transitions(state)``: a tuple of ``(label, p, w, v, successor)``, one per
  outcome of one step of positive probability ``p`` (a Fraction), with
  ``w = E[W 1{outcome}]`` and ``v = E[W^2 1{outcome}]`` the step's reward
  (credits and credits^2 per step, W the step's win) and ``successor`` the next
  state, or an absorbing marker (:func:`absorbed`: the ladder's ``END``, the
  retrigger chain's ``None``).

and, optionally (each with a default, so a chain of two methods is a chain):

* ``finite`` (default True): False for a chain with infinitely many states (free
  spins retriggered without a cap), whose exact figures are its own
  ``closed_form(starts) -> {initial spins: FeatureResult}``;
* ``order(state)``: a sort key that grows along every transition (default: a
  topological sort): the order the states are listed and exported in;
* ``stages`` and ``stage(state)`` (default 1 and 0): the levels of a ladder,
  never decreasing along a transition; :class:`FeatureResult` splits by them;
* ``count(state, label, p)`` (default 0): ``E[K 1{outcome}]`` of a count the
  feature reports (the KEY symbols of a ladder); ``count_weight(state, label)``
  when that count is an integer weight times ``p`` (summed in integers);
* ``law(state)`` and ``step(state, move)``: the distribution's runner
  (:func:`run`) plays ``kernels[law(state)]``, a mapping move -> kernel, and goes
  to ``step(state, move)``; ``moves(tables)`` turns the per-stage tables by
  outcome label into those kernels' tables (default: unchanged); an endless chain
  may give ``series(alg, start, kernels, max_spins)``, its feature as a sum
  instead of spin by spin;
* ``node_id(state)``, ``node_attributes(state)``, ``graph_attributes()``: its
  graph export (:func:`markov.graph.chain_graph`).

The ladder (:class:`markov.chain.Ladder`), the retrigger chain
(:class:`markov.retrigger.RetriggerChain`) and every new feature are instances.
For a chain whose transient states form a finite acyclic graph (every step plays
one spin) the total reward ``F`` from state ``s`` has

    V(s)  = sum over outcomes of  w + p V(t)
    V2(s) = sum over outcomes of  v + 2 w V(t) + p V2(t)
    N(s)  = 1 + sum over outcomes of  p N(t)        (steps until absorption)

with ``V = V2 = N = 0`` at absorption (the step's win is independent of the rest
given the outcome).  :func:`solve` evaluates them in reverse topological order
over the reachable states; :func:`reach` propagates the probability of visiting
each state forward (on an acyclic chain each state is visited at most once, so
it is also the expected number of visits); :func:`features` gives the figures of
a feature from both, split by stage; :func:`avoids` is the probability that no
step shows an event (the odds of an award per feature); :func:`run` plays the
feature in any algebra of distributions (the win distribution's runner);
:func:`graph` is the chain as a ``networkx`` digraph.

Exact and fast: every value is an integer numerator over a scale (the common
denominator of a state's transitions times the scales of its successors, the
same for every state of a layer in the ladder and the retrigger chain), and one
Fraction is formed per result, so no gcd is taken inside the recursion.

References
----------
J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, ch. III (absorbing chains).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any, Callable, Hashable, Iterable, Protocol, Sequence


__all__ = ["FeatureChain", "ChainMoments", "FeatureResult", "FeatureRun", "absorbed", "reachable", "solve", "reach",
           "features", "avoids", "avoids_from", "exits", "run", "graph", "MAX_LAYERS"]

ZERO = Fraction(0)
#: Most steps :func:`run` plays before it refuses (a feature that would not end).
MAX_LAYERS = 100_000


class FeatureChain(Protocol):
    """The protocol of a feature chain (module docstring)."""

    def start(self, initial_spins: int) -> Hashable: ...

    def transitions(self, state: Any) -> tuple: ...


def absorbed(successor) -> bool:
    """Whether a successor is the absorbing state (``"END"`` of the ladder, ``None`` of the retrigger chain).

    >>> absorbed("END"), absorbed(None), absorbed((3, 1))
    (True, True, False)
    """
    return successor is None or (isinstance(successor, str) and successor == "END")


def reachable(chain: FeatureChain, starts: Iterable, memo: dict | None = None) -> list:
    """The transient states reachable from ``starts`` (states), in topological order: every
    transition goes from an earlier to a later state (the chain's ``order`` when it gives one).

    Raises
    ------
    ValueError
        If the chain has infinitely many states (``finite`` False), or the reachable graph has a
        cycle (such a chain needs :mod:`markov.absorbing`), or a transition goes against ``order``.

    >>> from markov.retrigger import RetriggerChain
    >>> from markov.moments import CountSplit
    >>> F = Fraction
    >>> c = RetriggerChain(split=CountSplit((F(3, 4), F(1, 4)), (F(0), F(1, 4)), (F(0), F(1, 4))),
    ...                    extra=(0, 1), cap=2)
    >>> reachable(c, [c.start(2)])
    [(2, 0), (1, 1)]
    """
    if not getattr(chain, "finite", True):
        raise ValueError("the chain has infinitely many states: its figures are its closed form")
    starts = list(dict.fromkeys(starts))
    order = getattr(chain, "order", None)
    seen = set(starts)
    todo = list(starts)
    edges = []
    while todo:
        s = todo.pop()
        for *_, t in (chain.transitions(s) if memo is None else _scaled_rows(chain, s, memo)[1]):
            if absorbed(t):
                continue
            edges.append((s, t))
            if t not in seen:
                seen.add(t)
                todo.append(t)
    if order is not None:
        for s, t in edges:
            if not order(s) < order(t):
                raise ValueError(f"the transition {s} -> {t} goes against the chain's order")
        return sorted(seen, key=order)
    import networkx as nx    # imported on use: ``import markov`` stays light
    g = nx.DiGraph()
    g.add_nodes_from(starts)
    g.add_edges_from(edges)
    try:
        return list(nx.topological_sort(g))
    except nx.NetworkXUnfeasible:
        raise ValueError("the chain has a cycle: solve it with markov.absorbing") from None


@dataclass(frozen=True)
class ChainMoments:
    """Exact figures of a feature from one start: ``mean`` = E[F], ``second`` = E[F^2] (credits,
    credits^2 per feature) and ``steps`` = the expected number of steps (spins) played."""

    mean: Fraction
    second: Fraction
    steps: Fraction

    @property
    def variance(self) -> Fraction:
        return self.second - self.mean * self.mean


@dataclass(frozen=True)
class FeatureResult:
    """Exact figures of one feature (all its stages: the levels of a ladder) for a given number of initial spins.

    Source: rules page section 11.  All values are exact Fractions.

    Attributes
    ----------
    initial_spins : int
        Free spins of level 1 (section 10 trigger table).
    mean : Fraction
        E[F], F = total win of the free spins, credits per feature.
    second : Fraction
        E[F^2], credits^2 per feature.
    reach : tuple of Fraction, length = levels
        P(level i + 1 is played); ``reach[0] == 1``.
    final_level : tuple of Fraction, length = levels
        P(the free spins end after level i + 1); sums to 1.
    spins_by_level : tuple of Fraction, length = levels
        Expected free spins played on level i + 1, spins per feature.
    win_by_level : tuple of Fraction, length = levels
        Expected win of level i + 1's spins, credits per feature; sums to ``mean``.
    keys : Fraction
        Expected total KEY count of the feature (uncapped counter at the end).
    """

    initial_spins: int
    mean: Fraction
    second: Fraction
    reach: tuple[Fraction, ...]
    final_level: tuple[Fraction, ...]
    spins_by_level: tuple[Fraction, ...]
    win_by_level: tuple[Fraction, ...]
    keys: Fraction

    @property
    def variance(self) -> Fraction:
        """Var[F], credits^2 per feature."""
        return self.second - self.mean * self.mean

    @property
    def spins(self) -> Fraction:
        """Expected total free spins of the feature."""
        return sum(self.spins_by_level, ZERO)


# ---------------------------------------------------------------------------
# scaled integers: a value is (numerator, scale), one Fraction per result
# ---------------------------------------------------------------------------
def _common(values) -> int:
    """The least common multiple of positive integers, fast when one is a multiple of all the others."""
    top = max(values, default=1)
    if all(top % x == 0 for x in values):
        return top
    return lcm(*values)


def _scaled_rows(chain, state, memo: dict | None = None):
    """The transitions of ``state`` on one denominator: (den, [(label, P den, w den, v den, successor)]);
    kept in ``memo`` (state -> rows) when given, so the passes of one analysis read each state once."""
    if memo is not None and state in memo:
        return memo[state]
    rows = [(label, Fraction(p), Fraction(w), Fraction(v), t) for label, p, w, v, t in chain.transitions(state)]
    den = lcm(*(x.denominator for _, p, w, v, _ in rows for x in (p, w, v)))
    out = den, [(label, p.numerator * (den // p.denominator), w.numerator * (den // w.denominator),
                 v.numerator * (den // v.denominator), t) for label, p, w, v, t in rows]
    if memo is not None:
        memo[state] = out
    return out


class _Sum:
    """A running sum of scaled integers ``num / scale`` (no gcd until :meth:`value`)."""

    __slots__ = ("num", "scale")

    def __init__(self):
        self.num, self.scale = 0, 1

    def add(self, num: int, scale: int) -> None:
        if scale != self.scale:
            common = _common((self.scale, scale))
            self.num, num = self.num * (common // self.scale), num * (common // scale)
            self.scale = common
        self.num += num

    def value(self) -> Fraction:
        return Fraction(self.num, self.scale)


def solve(chain: FeatureChain, initial_spins: Sequence[int], memo: dict | None = None,
          order: list | None = None) -> dict[int, ChainMoments]:
    """E[F], E[F^2] and the expected steps of the feature from each start, exactly.

    Parameters
    ----------
    chain : FeatureChain
    initial_spins : sequence of int
        The starts, as ``chain.start`` takes them.

    Returns
    -------
    dict {initial spins: ChainMoments}

    Raises
    ------
    ValueError
        A cyclic or infinite chain (see :func:`reachable`), or a start the chain refuses.

    Examples
    --------
    A one-level feature of 2 spins, each paying 3 credits with probability 1/2:

    >>> from markov.retrigger import RetriggerChain
    >>> from markov.moments import CountSplit
    >>> F = Fraction
    >>> c = RetriggerChain(split=CountSplit((F(1, 2), F(1, 2)), (F(0), F(3, 2)), (F(0), F(9, 2))),
    ...                    extra=(0, 0), cap=2)
    >>> m = solve(c, [2])[2]
    >>> m.mean, m.variance, m.steps
    (Fraction(3, 1), Fraction(9, 2), Fraction(2, 1))
    """
    starts = {n: chain.start(n) for n in initial_spins}
    values: dict = {}        # state -> (R, R V, R V2, R N), all integers
    for s in reversed(order if order is not None else reachable(chain, starts.values(), memo)):
        den, rows = _scaled_rows(chain, s, memo)
        succ = [values[t] for *_, t in rows if not absorbed(t)]
        scale = _common([v[0] for v in succ])
        a = b = 0
        c = den * scale
        for _, p, w, v, t in rows:
            a += w * scale
            b += v * scale
            if not absorbed(t):
                r, ta, tb, tc = values[t]
                f = scale // r
                a += p * f * ta
                b += f * (2 * w * ta + p * tb)
                c += p * f * tc
        values[s] = (den * scale, a, b, c)
    out = {}
    for n, s in starts.items():
        r, a, b, c = values[s]
        out[n] = ChainMoments(Fraction(a, r), Fraction(b, r), Fraction(c, r))
    return out


def _forward(chain, start, memo: dict | None = None, order: list | None = None) -> tuple[dict, dict, Fraction]:
    """Forward pass from ``start``: (state -> P(visiting it) as (numerator, scale), state -> scaled rows,
    absorbed mass).  ``order``: the states
    in topological order when known (the reachable states of several starts: those ``start`` never
    reaches keep mass 0).
    """
    order = order if order is not None else reachable(chain, [start], memo)
    mass = {s: _Sum() for s in order}
    mass[start].add(1, 1)
    rows_of: dict = {}
    ended = _Sum()
    for s in order:
        m = mass[s]
        den, rows = _scaled_rows(chain, s, memo)
        rows_of[s] = (den, rows)
        if not m.num:
            continue
        scale = m.scale * den
        for _, p, _, _, t in rows:
            if p:
                (ended if absorbed(t) else mass[t]).add(m.num * p, scale)
    return mass, rows_of, ended.value()


def reach(chain: FeatureChain, initial_spins: int) -> dict:
    """P(the feature from ``initial_spins`` visits each reachable transient state), exactly.

    >>> from markov.retrigger import RetriggerChain
    >>> from markov.moments import CountSplit
    >>> F = Fraction
    >>> c = RetriggerChain(split=CountSplit((F(3, 4), F(1, 4)), (F(0), F(1, 4)), (F(0), F(1, 4))),
    ...                    extra=(0, 1), cap=2)
    >>> reach(c, 1)
    {(1, 0): Fraction(1, 1), (1, 1): Fraction(1, 4)}
    """
    mass, _, _ = _forward(chain, chain.start(initial_spins))
    return {s: m.value() for s, m in mass.items()}


def exits(chain: FeatureChain, initial_spins: int, stop: Callable) -> dict:
    """The states where ``stop(state)`` holds that the chain from ``initial_spins`` reaches, each with
    P(reaching it), E[W 1{reaching it}] and E[W^2 1{reaching it}], W the reward collected before it (credits,
    credits^2), exactly: the split of a stage's win by the state it ends in (a spin and its respin by the
    counts that decide the features).  The chain stops at those states (their transitions are not read).

    One forward pass over the reachable states in the chain's order: a state's mass ``P``, ``M1``, ``M2``
    go to each successor ``t`` as ``P p``, ``M1 p + P w``, ``M2 p + 2 M1 w + P v`` (a step's win independent
    of the wins before it given the state).  The result lists the states in the order they are first
    reached, transitions read in their order.

    >>> from markov.round_chain import RoundChain, decided
    >>> F = Fraction
    >>> c = RoundChain([("a", F(1, 2), F(1), F(2), ("respin", 0)), ("b", F(1, 2), F(0), F(0), decided((0,)))],
    ...                {("respin", 0): [("c", F(1), F(3), F(9), decided((0,)))]}, (), {}, None)
    >>> exits(c, 0, lambda s: s[0] == "decided")
    {('decided', (0,)): (Fraction(1, 1), Fraction(5, 2), Fraction(25, 2))}
    """
    start = chain.start(initial_spins)
    order = getattr(chain, "order", None)
    if order is None:       # the position in a topological order
        rank = {t: i for i, t in enumerate(reachable(chain, [start]))}
        order = rank.__getitem__
    mass: dict = {start: (Fraction(1), Fraction(0), Fraction(0))}
    out: dict = {}
    heap = [(order(start), 0, start)]
    seen = 1
    while heap:
        *_, s = heapq.heappop(heap)
        pm, m1, m2 = mass.pop(s)
        if stop(s):
            out[s] = (pm, m1, m2)
            continue
        for _, p, w, v, t in chain.transitions(s):
            if absorbed(t):
                continue
            if t not in mass:
                mass[t] = (Fraction(0), Fraction(0), Fraction(0))
                heapq.heappush(heap, (order(t), seen, t))      # first reached, first read among equals
                seen += 1
            q, a, b = mass[t]
            mass[t] = (q + pm * p, a + m1 * p + pm * w, b + m2 * p + 2 * m1 * w + pm * v)
    return out


def avoids(chain: FeatureChain, initial_spins: int, weight: Callable, memo: dict | None = None) -> Fraction:
    """P(the feature from ``initial_spins`` ends with no step showing an event), exactly: the mass of the
    paths to absorption when an outcome weighs ``weight(state, label, p)`` = P(no event, outcome) instead of p.
    One start of :func:`avoids_from`; ``memo`` as there.

    Used for the odds of an award per game round (GLI-11 v3.0 section 4.8.2).

    >>> from markov.retrigger import RetriggerChain
    >>> from markov.moments import CountSplit
    >>> h = Fraction(1, 2)
    >>> ch = RetriggerChain(CountSplit((h, h), (0, 0), (0, 0)), (0, 1), cap=2)
    >>> avoids(ch, 1, lambda s, n, p: [h, 0][n])   # the event is "one scatter"; avoiding it also ends the feature
    Fraction(1, 2)
    """
    return avoids_from(chain, [initial_spins], weight, memo)[initial_spins]


#: Memo key of the reachable states of a tuple of starts (a tuple no state equals).
_ORDER = object()


def avoids_from(chain: FeatureChain, initial_spins: Sequence[int], weight: Callable,
                memo: dict | None = None) -> dict[int, Fraction]:
    """:func:`avoids` from each start at once, by one backward pass over the states they reach:
    ``A(s) = sum over outcomes of weight(s, outcome) A(t)``, ``A = 1`` at absorption.

    ``memo`` (a dict, empty at first) keeps the chain's reachable states and scaled transitions between
    calls on the same chain (the odds of every award of a set read each state once).

    Returns
    -------
    dict {initial spins: Fraction}
        P(no step shows the event), per feature.

    Raises
    ------
    ValueError
        As :func:`reachable`.

    >>> from markov.retrigger import RetriggerChain
    >>> from markov.moments import CountSplit
    >>> h = Fraction(1, 2)
    >>> ch = RetriggerChain(CountSplit((h, h), (0, 0), (0, 0)), (0, 1), cap=3)
    >>> avoids_from(ch, [1, 2], lambda s, n, p: [h, 0][n])
    {1: Fraction(1, 2), 2: Fraction(1, 4)}
    """
    starts = {n: chain.start(n) for n in initial_spins}
    if memo is None:
        memo = {}
    key = (_ORDER, tuple(starts.values()))
    if key not in memo:
        memo[key] = reachable(chain, starts.values(), memo)
    p_of: dict = {}                  # (scaled p, den) -> the Fraction the weight is given
    values: dict = {}                # state -> (numerator, scale)
    for s in reversed(memo[key]):
        den, rows = _scaled_rows(chain, s, memo)
        ws = []
        for label, p, _, _, t in rows:
            fp = p_of.get((p, den))
            if fp is None:
                fp = p_of[(p, den)] = Fraction(p, den)
            x = weight(s, label, fp)
            x = x if isinstance(x, Fraction) else Fraction(x)
            if x:
                ws.append((x.numerator, x.denominator, (1, 1) if absorbed(t) else values[t]))
        den2 = lcm(*(d for _, d, _ in ws)) if ws else 1
        scale = _common([sc for *_, (_, sc) in ws]) if ws else 1
        values[s] = (sum(n * (den2 // d) * v * (scale // sc) for n, d, (v, sc) in ws), den2 * scale)
    return {n: Fraction(*values[s]) for n, s in starts.items()}


def features(chain: FeatureChain, initial_spins: Sequence[int]) -> tuple[FeatureResult, ...]:
    """The :class:`FeatureResult` of the feature from each start, exactly; a chain with infinitely many
    states gives its own ``closed_form``.

    Stages (the chain's ``stages``, ``stage(state)``): P(stage played) is the mass entering it, P(the
    feature ends in it) the mass absorbed from it, its spins the expected visits of its states and its
    win their expected rewards; ``keys`` the expected sum of the chain's ``count``.

    Raises
    ------
    ValueError
        As :func:`solve`, or a transition to an earlier stage.

    >>> from markov.retrigger import RetriggerChain
    >>> from markov.moments import CountSplit
    >>> F = Fraction
    >>> c = RetriggerChain(split=CountSplit((F(1, 2), F(1, 2)), (F(0), F(3, 2)), (F(0), F(9, 2))),
    ...                    extra=(0, 1), cap=3)
    >>> f, = features(c, [1])
    >>> f.mean, f.spins, f.reach
    (Fraction(21, 8), Fraction(7, 4), (Fraction(1, 1),))
    """
    if not getattr(chain, "finite", True):
        return tuple(chain.closed_form(initial_spins)[n] for n in initial_spins)
    if not initial_spins:
        return ()
    memo: dict = {}
    order = reachable(chain, [chain.start(n) for n in initial_spins], memo)     # one pass for every start
    moments = solve(chain, initial_spins, memo, order)
    n_stages = getattr(chain, "stages", 1)
    stage = getattr(chain, "stage", lambda s: 0)
    count = getattr(chain, "count", None)
    count_weight = getattr(chain, "count_weight", None)     # count = weight x p: integer sums
    summary: dict = {}      # state -> what each start's pass reads of it (the same for every start)

    def summarise(s, den, rows):
        i = stage(s)
        if count_weight is not None:
            k = Fraction(sum(count_weight(s, label) * p for label, p, *_ in rows), den)
        elif count is not None:
            k = sum((Fraction(count(s, label, Fraction(p, den))) for label, p, *_ in rows), ZERO)
        else:
            k = None
        ended, entered = 0, []
        for _, p, _, _, t in rows:
            if absorbed(t):
                ended += p
            elif stage(t) != i:
                if stage(t) < i:
                    raise ValueError(f"the transition {s} -> {t} goes to an earlier stage")
                entered.append((stage(t), p))
        return i, den, sum(w for _, _, w, _, _ in rows), k, ended, entered

    out = []
    for n in initial_spins:
        s0 = chain.start(n)
        mass, rows_of, _ = _forward(chain, s0, memo=memo, order=order)
        entered = [_Sum() for _ in range(n_stages)]
        ended = [_Sum() for _ in range(n_stages)]
        spins = [_Sum() for _ in range(n_stages)]
        win = [_Sum() for _ in range(n_stages)]
        keys = _Sum()
        entered[stage(s0)].add(1, 1)
        for s, m in mass.items():
            if not m.num:
                continue
            if s not in summary:
                summary[s] = summarise(s, *rows_of[s])
            i, den, w, k, e, moves = summary[s]
            spins[i].add(m.num, m.scale)
            win[i].add(m.num * w, m.scale * den)
            if k is not None:
                keys.add(m.num * k.numerator, m.scale * k.denominator)
            if e:
                ended[i].add(m.num * e, m.scale * den)
            for j, p in moves:
                entered[j].add(m.num * p, m.scale * den)
        mo = moments[n]
        out.append(FeatureResult(initial_spins=n, mean=mo.mean, second=mo.second,
                                 reach=tuple(x.value() for x in entered), final_level=tuple(x.value() for x in ended),
                                 spins_by_level=tuple(x.value() for x in spins),
                                 win_by_level=tuple(x.value() for x in win), keys=keys.value()))
    return tuple(out)


@dataclass(frozen=True)
class FeatureRun:
    """The win of a feature from one start, in an algebra's form (:func:`run`).

    Attributes
    ----------
    value : object
        The feature win's (sub-)distribution in the algebra (``None``: never ends, impossible).
    truncated : float
        Mass cut off because an endless feature went on (0 for a finite chain).
    spins : int
        Most steps (spins) played on a path kept.
    visits : int
        States visited, summed over the steps.
    """

    value: object
    truncated: float
    spins: int
    visits: int = 0


def run(alg, chain, start, kernels, max_spins: int | None = None, cut_below: float | None = None) -> FeatureRun:
    """Play the chain from ``start`` one step at a time, in algebra ``alg`` (the win distribution's runner).

    Parameters
    ----------
    alg : an algebra of sub-distributions
        ``one()``, ``mul_add(acc, a, k)``, ``mass(a)`` (:mod:`exact.distribution`'s exact, largest-win,
        mass and spectral algebras).
    chain : FeatureChain with ``step(state, move)`` (and ``law(state)``)
    start : a state of the chain
    kernels : mapping
        ``kernels[chain.law(state)]`` is the mapping move -> kernel of a step from ``state`` (a chain
        without ``law``: ``kernels`` itself).
    max_spins : int, optional
        Stop after this many steps (the cut-off of an endless feature); the live mass then is the
        truncated mass.
    cut_below : float, optional
        Stop as soon as the live mass is below this.

    Raises
    ------
    ValueError
        A feature going on for more than :data:`MAX_LAYERS` steps.

    Layer t holds every state after t steps (each transition plays one spin), so the layers are
    processed in order and each state once; the ended mass collects in ``value``.
    """
    law = getattr(chain, "law", None)
    live = {start: alg.one()}
    ended = None
    t = 0
    visits = 0
    while live:
        if max_spins is not None and t >= max_spins:
            break
        if t >= MAX_LAYERS:
            raise ValueError(f"the free spins go on for more than {MAX_LAYERS} spins")
        nxt: dict = {}
        visits += len(live)
        for state, v in live.items():
            for move, kern in (kernels if law is None else kernels[law(state)]).items():
                succ = chain.step(state, move)
                if absorbed(succ):
                    ended = alg.mul_add(ended, v, kern)
                else:
                    nxt[succ] = alg.mul_add(nxt.get(succ), v, kern)
        live = nxt
        t += 1
        if cut_below is not None and sum(alg.mass(v) for v in live.values()) < cut_below:
            break
    truncated = sum(alg.mass(v) for v in live.values()) if live else 0.0
    return FeatureRun(ended, truncated, t, visits)


def graph(chain: FeatureChain, initial_spins: Sequence[int]) -> nx.DiGraph:
    """The chain as a digraph: one node per reachable transient state and ``"END"``; one edge per
    (state, successor) with its outcomes' labels, probability and reward (``probability``, ``win``,
    ``win2`` Fractions, ``labels`` a tuple), the starts as node attribute ``start``.

    >>> from markov.retrigger import RetriggerChain
    >>> from markov.moments import CountSplit
    >>> F = Fraction
    >>> c = RetriggerChain(split=CountSplit((F(3, 4), F(1, 4)), (F(0), F(1, 4)), (F(0), F(1, 4))),
    ...                    extra=(0, 1), cap=2)
    >>> sorted(map(str, graph(c, [1]).nodes))
    ['(1, 0)', '(1, 1)', 'END']
    """
    import networkx as nx
    g = nx.DiGraph()
    starts = {n: chain.start(n) for n in initial_spins}
    for s in reachable(chain, starts.values()):
        g.add_node(s, start=tuple(n for n, t in starts.items() if t == s))
        for label, p, w, w2, t in chain.transitions(s):
            t = "END" if absorbed(t) else t
            if g.has_edge(s, t):
                e = g.edges[s, t]
                e["labels"] += (label,)
                e["probability"] += p
                e["win"] += w
                e["win2"] += w2
            else:
                g.add_edge(s, t, labels=(label,), probability=p, win=w, win2=w2)
    return g
