"""Absorbing Markov chains with cycles, solved strongly connected component by component.

A chain on transient states ``0 .. n-1`` with sub-stochastic transition
probabilities ``P[i][j]`` (the rest of each row's mass is absorbed) and a
reward vector ``b`` has the unique solution of ``x = b + P x`` (expected total
reward before absorption) when absorption is certain.  The states are split
into strongly connected components (networkx), and the components are solved
in reverse topological order (every successor first): for a component ``M``,

    (I - P_MM) x_M = b_M + P_M,out x_out,

by exact Gaussian elimination over Fractions when every component has at most
``max_scc`` states, else by a floating-point solve of the whole chain
(scipy's sparse LU per component) with the bound

    |x - x_hat|_inf <= |(I - P)^-1|_inf |r|_inf = max_i t_i |r|_inf,

``r = b + P x_hat - x_hat`` the residual and ``t = (I - P)^-1 1`` the expected
number of steps to absorption (itself solved in floating point; the bound is
stated as computed, not as a certificate).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

import numpy as np

__all__ = ["ChainSolution", "solve_absorbing", "components"]


@dataclass(frozen=True)
class ChainSolution:
    """``values[k][i]``: the solution of right-hand side ``k`` at state ``i`` (Fractions when ``exact``,
    else floats within ``bounds[k]``); ``largest`` is the largest component's size."""

    values: tuple
    exact: bool
    bounds: tuple
    largest: int
    components: int


def components(n: int, edges: Sequence[Mapping[int, object]]) -> list[list[int]]:
    """The strongly connected components, each successor's component before its predecessors'.

    >>> components(3, [{1: 1}, {0: 1, 2: 1}, {}])
    [[2], [0, 1]]
    """
    import networkx as nx    # imported on use: ``import markov`` stays light
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from((i, j) for i, row in enumerate(edges) for j in row)
    cond = nx.condensation(g)
    order = list(nx.topological_sort(cond))
    return [sorted(cond.nodes[c]["members"]) for c in reversed(order)]


def _solve_exact(a: list[list[Fraction]], rhs: list[list[Fraction]]) -> list[list[Fraction]]:
    """Solve ``a X = rhs`` (``rhs`` one column per list) by Gaussian elimination with exact pivots."""
    n = len(a)
    m = [row[:] + [col[i] for col in rhs] for i, row in enumerate(a)]
    k = len(rhs)
    for c in range(n):
        p = next(r for r in range(c, n) if m[r][c] != 0)
        m[c], m[p] = m[p], m[c]
        inv = 1 / m[c][c]
        pivot = m[c]
        for j in range(c, n + k):
            pivot[j] *= inv
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c]
                row = m[r]
                for j in range(c, n + k):
                    if pivot[j]:
                        row[j] -= f * pivot[j]
    return [[m[i][n + q] for i in range(n)] for q in range(k)]


def solve_absorbing(n: int, edges: Sequence[Mapping[int, Fraction]], rhs: Sequence[Sequence[Fraction]],
                    max_scc: int = 200) -> ChainSolution:
    """Solve ``x = b + P x`` for each right-hand side ``b`` of ``rhs``.

    Parameters
    ----------
    n : int
        Transient states.
    edges : sequence of {successor: probability (Fraction)}
        Row ``i`` of ``P`` (absorption takes the rest of the mass).
    rhs : sequence of sequences of Fraction
        Rewards per state, one sequence per right-hand side.
    max_scc : int
        Largest component solved exactly; a larger one makes the whole solve floating point.

    Raises
    ------
    ValueError
        A singular component (absorption not certain from it).

    >>> from fractions import Fraction as F
    >>> s = solve_absorbing(2, [{0: F(1, 2), 1: F(1, 4)}, {0: F(1, 3)}], [[F(1), F(1)]])
    >>> s.values[0], s.exact
    ((Fraction(3, 1), Fraction(2, 1)), True)
    """
    comps = components(n, edges)
    largest = max((len(c) for c in comps), default=0)
    if largest <= max_scc:
        x = [[Fraction(0)] * n for _ in rhs]
        for comp in comps:
            where = {s: i for i, s in enumerate(comp)}
            a = [[Fraction(int(i == j)) for j in range(len(comp))] for i in range(len(comp))]
            cols = []
            for k, b in enumerate(rhs):
                col = []
                for s in comp:
                    v = Fraction(b[s])
                    for t, p in edges[s].items():
                        if t not in where:
                            v += p * x[k][t]
                    col.append(v)
                cols.append(col)
            for i, s in enumerate(comp):
                for t, p in edges[s].items():
                    if t in where:
                        a[i][where[t]] -= p
            try:
                sol = _solve_exact(a, cols)
            except StopIteration:
                raise ValueError(f"the chain does not absorb from the component of state {comp[0]}") from None
            for k in range(len(rhs)):
                for i, s in enumerate(comp):
                    x[k][s] = sol[k][i]
        return ChainSolution(tuple(tuple(v) for v in x), True, tuple(0.0 for _ in rhs), largest, len(comps))
    return _solve_float(n, edges, rhs, comps, largest)


def _solve_float(n, edges, rhs, comps, largest) -> ChainSolution:
    from scipy.sparse import csr_matrix, identity
    from scipy.sparse.linalg import spsolve
    rows, cols, vals = [], [], []
    for i, row in enumerate(edges):
        for j, p in row.items():
            rows.append(i)
            cols.append(j)
            vals.append(float(p))
    P = csr_matrix((vals, (rows, cols)), shape=(n, n))
    A = (identity(n, format="csr") - P).tocsc()
    B = np.array([[float(v) for v in b] for b in rhs] + [[1.0] * n]).T
    X = spsolve(A, B)
    X = X.reshape(n, -1)
    t = X[:, -1]
    bounds = []
    for k in range(len(rhs)):
        r = B[:, k] + P @ X[:, k] - X[:, k]
        bounds.append(float(np.abs(t).max() * np.abs(r).max() + 1e-15 * np.abs(X[:, k]).max()))
    values = tuple(tuple(float(v) for v in X[:, k]) for k in range(len(rhs)))
    return ChainSolution(values, False, tuple(bounds), largest, len(comps))
