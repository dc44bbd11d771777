"""The feature-chain protocol: what every free-spin (or any feature) chain gives, and the analyses
written once for any chain.

A chain is an object with

* ``start(initial_spins) -> state``: the first transient state of a feature;
* ``transitions(state)``: a tuple of ``(label, p, w, v, successor)``, one per
  outcome of one step of positive probability ``p`` (a Fraction), with
  ``w = E[W 1{outcome}]`` and ``v = E[W^2 1{outcome}]`` the step's reward
  (credits and credits^2 per step, W the step's win) and ``successor`` the next
  state, or an absorbing marker (:func:`absorbed`: the ladder's ``END``, the
  retrigger chain's ``None``).

The ladder (:class:`markov.chain.Ladder`) and the capped retrigger chain
(:class:`markov.retrigger.RetriggerChain`) are instances.  For a chain whose
transient states form a finite acyclic graph (every step plays one spin) the
total reward ``F`` from state ``s`` has

    V(s)  = sum over outcomes of  w + p V(t)
    V2(s) = sum over outcomes of  v + 2 w V(t) + p V2(t)
    N(s)  = 1 + sum over outcomes of  p N(t)        (steps until absorption)

with ``V = V2 = N = 0`` at absorption (the step's win is independent of the rest
given the outcome).  :func:`solve` evaluates them in reverse topological order
over the reachable states, exactly; :func:`reach` propagates the probability of
visiting each state forward; :func:`graph` is the chain as a ``networkx``
digraph.  The specialised solvers of :mod:`markov.chain` and
:mod:`markov.retrigger` (integer recursions over whole layers) are fast paths of
these, tested equal to them.

References
----------
J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, ch. III (absorbing chains).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Hashable, Iterable, Protocol, Sequence

import networkx as nx

__all__ = ["FeatureChain", "ChainMoments", "absorbed", "reachable", "solve", "reach", "graph"]

ZERO = Fraction(0)


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


def reachable(chain: FeatureChain, starts: Iterable) -> list:
    """The transient states reachable from ``starts`` (states), in topological order: every
    transition goes from an earlier to a later state.

    Raises
    ------
    ValueError
        If the reachable graph has a cycle (such a chain needs :mod:`markov.absorbing`).
    """
    g = nx.DiGraph()
    todo = list(dict.fromkeys(starts))
    g.add_nodes_from(todo)
    while todo:
        s = todo.pop()
        for *_, t in chain.transitions(s):
            if absorbed(t):
                continue
            if t not in g:
                todo.append(t)
            g.add_edge(s, t)
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


def solve(chain: FeatureChain, initial_spins: Sequence[int]) -> dict[int, ChainMoments]:
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
        A cyclic chain (see :func:`reachable`), or a start the chain refuses.

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
    order = reachable(chain, starts.values())
    v: dict = {}
    v2: dict = {}
    steps: dict = {}
    for s in reversed(order):
        a = b = ZERO
        c = Fraction(1)
        for _, p, w, w2, t in chain.transitions(s):
            if absorbed(t):
                a, b = a + w, b + w2
            else:
                a += w + p * v[t]
                b += w2 + 2 * w * v[t] + p * v2[t]
                c += p * steps[t]
        v[s], v2[s], steps[s] = a, b, c
    return {n: ChainMoments(v[s], v2[s], steps[s]) for n, s in starts.items()}


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
    s0 = chain.start(initial_spins)
    out = {s: ZERO for s in reachable(chain, [s0])}
    out[s0] = Fraction(1)
    for s in list(out):
        for _, p, *_, t in chain.transitions(s):
            if not absorbed(t):
                out[t] += out[s] * p
    return out


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
