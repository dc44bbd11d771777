"""The ladder chain as a directed graph: checks, GraphML/DOT export and a float cross-check.

This is the "math flow chart" of the free spins (rules page section 11): one
node per reachable transient state ``L{level} s{spins left} c{KEY counter}``
(see :mod:`markov.chain` for the state definition) plus the absorbing node
``END``; one edge per (state, successor) pair, merging the KEY counts that
lead to the same successor.

Node attributes
    ``level``, ``spins_left``, ``keys`` (int; 0 for ``END``), ``multiplier``
    (int), ``kind`` (``"transient"`` or ``"absorbing"``), ``start`` (str:
    comma-separated initial free spins for which the node is the first state,
    else empty).
Edge attributes (in memory)
    ``k`` (tuple of int: the KEY counts of the spin), ``probability``
    (Fraction), ``win`` = E[W 1{edge}] (Fraction, credits), ``win2`` =
    E[W^2 1{edge}] (Fraction, credits^2), ``key_count`` = E[K 1{edge}]
    (Fraction), ``reward_mean`` = E[W | edge] (Fraction, credits).
Graph attributes
    ``thresholds``, ``spins`` (level 1 as 0), ``multipliers`` (tuples of int),
    ``cap`` (int).

The capped retrigger chain of :mod:`markov.retrigger` has the same form
(:func:`retrigger_graph`): nodes ``s{spins left} p{spins played}``, edges
labelled with the scatter counts of the spin.  An uncapped retrigger chain
has infinitely many states and no graph.

In GraphML and DOT the exact Fractions are written as ``"p/q"`` strings
(``probability``, ...) beside a float copy for viewers (``probability_float``,
...); ``k`` and the tuples are written as comma-separated strings.
"""
from __future__ import annotations

import io
import re

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Sequence

import networkx as nx
import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import splu

from markov import protocol
from markov.chain import END, ZERO, FeatureResult, State
from markov.retrigger import RetriggerChain

EXACT_EDGE_FIELDS = ("probability", "win", "win2", "key_count", "reward_mean")
TUPLE_GRAPH_FIELDS = ("thresholds", "spins", "multipliers")


def node_id(state: State | str) -> str:
    """Graph node id of a ladder state: ``"L2 s8 c3"`` or ``"END"``."""
    return str(state)


def chain_graph(chain, initial_spins: Sequence[int]) -> nx.DiGraph:
    """Any finite chain of the protocol (:mod:`markov.protocol`) reachable from the given starts, as a
    networkx DiGraph: the ladder, the capped retrigger chain, a new feature.

    Parameters
    ----------
    chain : FeatureChain
        With the protocol's graph members ``node_id``, ``node_attributes``, ``graph_attributes`` and
        ``end_attributes`` (defaults: ``str``, none, none, none) and ``count`` (edge ``key_count``).
    initial_spins : sequence of int
        Starts to include, e.g. ``(10, 15, 20)``: the states of a shorter start are shared with
        the longer ones.

    Returns
    -------
    networkx.DiGraph
        Attributes as in the module docstring; passes :func:`check_chain`.

    Raises
    ------
    ValueError
        If an entry of ``initial_spins`` is < 1 (or above a cap), or the chain has infinitely many
        states (free spins retriggered without a cap).
    """
    states = protocol.reachable(chain, [chain.start(n) for n in initial_spins])
    ident = getattr(chain, "node_id", str)
    attributes = getattr(chain, "node_attributes", lambda s: {})
    count = getattr(chain, "count", lambda s, label, p: ZERO)
    g = nx.DiGraph(**getattr(chain, "graph_attributes", dict)())
    g.add_node(END, **getattr(chain, "end_attributes", {}), kind="absorbing", start="")
    nodes = {s: attributes(s) for s in states}
    edges = {s: [(k, p, w, w2, count(s, k, p), END if protocol.absorbed(t) else t)
                 for k, p, w, w2, t in chain.transitions(s)] for s in states}
    _add_states(g, nodes, edges, {n: chain.start(n) for n in initial_spins}, ident)
    return g


def retrigger_graph(chain: RetriggerChain, initial_spins: Sequence[int]) -> nx.DiGraph:
    """The capped retrigger chain (:mod:`markov.retrigger`) as a networkx DiGraph: :func:`chain_graph`.

    Nodes ``"s{left} p{played}"`` (attributes ``level`` = 1, ``spins_left``,
    ``played``, ``keys`` = 0, ``multiplier``, ``kind``, ``start``) plus
    ``END``; edge ``k`` lists the scatter counts of the spin.  The KEY count
    is not split by scatter count, so an edge's ``key_count`` is
    ``probability x E[KEY per spin]`` (its sum over a state's edges is exact).
    Graph attributes: ``thresholds = (0,)``, ``spins = (0,)``,
    ``multipliers = (multiplier,)``, ``cap`` = the retrigger cap,
    ``retrigger`` = the extra spins per scatter count (tuple of int).

    Raises
    ------
    ValueError
        If the chain has no cap, or a start is < 1 or above the cap.
    """
    return chain_graph(chain, initial_spins)


def retrigger_node_id(state) -> str:
    """Graph node id of a retrigger-chain state ``(left, played)``: ``"s12 p3"``, or ``"END"``."""
    return RetriggerChain.node_id(state)


def _add_states(g: nx.DiGraph, nodes: dict, edges: dict, starts: dict, ident) -> None:
    """Add transient nodes (attributes ``nodes[state]`` + kind, start) and edges merged by successor.

    ``edges[state]`` lists ``(k, probability, win, win2, key_count, successor)``;
    ``starts`` maps initial spins to their start state; ``ident`` maps a
    state (or END) to its node id.
    """
    start_of: dict = {}
    for n, s in starts.items():
        start_of.setdefault(s, []).append(n)
    for s, attrs in nodes.items():
        g.add_node(ident(s), **attrs, kind="transient", start=",".join(map(str, start_of.get(s, []))))
    for s, out in edges.items():
        merged: dict[str, list] = {}
        for k, p, w, w2, kc, t in out:
            e = merged.setdefault(ident(t), [(), ZERO, ZERO, ZERO, ZERO])
            e[0] += (k,)
            e[1] += p
            e[2] += w
            e[3] += w2
            e[4] += kc
        for t, (ks, p, w, w2, kc) in merged.items():
            g.add_edge(ident(s), t, k=ks, probability=p, win=w, win2=w2, key_count=kc,
                       reward_mean=w / p)


def check_chain(g: nx.DiGraph) -> None:
    """Check that the graph is an absorbing chain: acyclic, stochastic, every state reaches END.

    Raises
    ------
    ValueError
        If the graph has a cycle, ``END`` is missing or has an outgoing edge,
        a transient node's outgoing probabilities do not sum to exactly 1, or
        a node cannot reach ``END``.
    """
    if END not in g:
        raise ValueError("the chain has no END node")
    if not nx.is_directed_acyclic_graph(g):
        raise ValueError(f"the chain has a cycle: {nx.find_cycle(g)}")
    if g.out_degree(END):
        raise ValueError("END has outgoing edges; it must be absorbing")
    stuck = set(g) - nx.ancestors(g, END) - {END}
    if stuck:
        raise ValueError(f"{len(stuck)} states never reach END, e.g. {sorted(stuck)[0]}")
    for u in g:
        if u != END:
            total = sum((d["probability"] for _, _, d in g.out_edges(u, data=True)), ZERO)
            if total != 1:
                raise ValueError(f"state {u}: outgoing probabilities sum to {total}, not 1")


# ---------------------------------------------------------------------------
# export
# ---------------------------------------------------------------------------
def _text(x) -> str:
    return ",".join(map(str, x)) if isinstance(x, tuple) else str(x)


def export_graph(g: nx.DiGraph) -> nx.DiGraph:
    """A copy of ``g`` whose attributes are GraphML scalars: exact Fractions as ``"p/q"``
    strings plus a ``*_float`` display copy, tuples as comma-separated strings."""
    out = nx.DiGraph(**{k: _text(v) for k, v in g.graph.items()})
    out.add_nodes_from(g.nodes(data=True))
    for u, v, d in g.edges(data=True):
        attrs = {"k": _text(d["k"])}
        for f in EXACT_EDGE_FIELDS:
            attrs[f] = str(d[f])
            attrs[f + "_float"] = float(d[f])
        out.add_edge(u, v, **attrs)
    return out


def read_graphml(path: str | Path) -> nx.DiGraph:
    """Read a chain written by :func:`write_graph` as GraphML, restoring Fractions and tuples (a graph without
    the ladder's graph attributes, such as the game round's, keeps none; an edge label that is no list of
    counts stays its text).

    Raises
    ------
    ValueError
        If an exact field is not a ``"p/q"`` fraction.
    OSError
        If the file cannot be read.
    """
    h = nx.read_graphml(path)
    g = nx.DiGraph(**{k: v for k, v in h.graph.items() if k not in ("node_default", "edge_default")})
    for f in TUPLE_GRAPH_FIELDS + ("retrigger",):
        if f in h.graph:
            g.graph[f] = tuple(int(x) for x in h.graph[f].split(","))
    if "cap" in h.graph:
        g.graph["cap"] = int(h.graph["cap"])
    g.add_nodes_from(h.nodes(data=True))
    for u, v, d in h.edges(data=True):
        k = d["k"]
        g.add_edge(u, v, k=tuple(int(x) for x in k.split(",")) if re.fullmatch(r"-?\d+(,-?\d+)*", k) else k,
                   **{f: Fraction(d[f]) for f in EXACT_EDGE_FIELDS})
    return g


def _dot_quote(x) -> str:
    return '"' + str(x).replace("\\", "\\\\").replace('"', '\\"') + '"'


def dot_text(g: nx.DiGraph) -> str:
    """The chain in Graphviz DOT: one cluster-free digraph, edges labelled with k and P (float).

    Exact values are kept as extra edge attributes (``probability="p/q"``).
    """
    e = export_graph(g)
    lines = ["digraph free_spin_ladder {", "  rankdir=LR;", "  node [shape=box];"]
    lines += [f"  {k}={_dot_quote(v)};" for k, v in e.graph.items()]
    for n, d in e.nodes(data=True):
        label = n + (f"\\nstart of {d['start']} initial spins" if d["start"] else "")
        extra = ", shape=doublecircle" if n == END else ""
        attrs = ", ".join(f"{k}={_dot_quote(v)}" for k, v in d.items())
        lines.append(f'  {_dot_quote(n)} [label="{label}"{extra}, {attrs}];')
    for u, v, d in e.edges(data=True):
        label = f"k={d['k']}\\np={d['probability_float']:.6g}"
        attrs = ", ".join(f"{k}={_dot_quote(x)}" for k, x in d.items() if not k.endswith("_float"))
        lines.append(f'  {_dot_quote(u)} -> {_dot_quote(v)} [label="{label}", {attrs}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


#: export formats of :func:`write_graph`
FORMATS = ("graphml", "dot")


def graph_bytes(g: nx.DiGraph, fmt: str) -> bytes:
    """The chain as GraphML or Graphviz DOT file content (UTF-8; exact values as ``"p/q"``, see :func:`export_graph`).

    Raises
    ------
    ValueError
        If ``fmt`` is not one of :data:`FORMATS`.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown graph format {fmt!r} (known: {', '.join(FORMATS)})")
    if fmt == "graphml":
        buf = io.BytesIO()
        nx.write_graphml(export_graph(g), buf)
        return buf.getvalue()
    return dot_text(g).encode("utf-8")


def write_graph(g: nx.DiGraph, path: str | Path, fmt: str) -> None:
    """Write the chain as GraphML or Graphviz DOT to a file (:func:`graph_bytes`; library use, the
    ``rtp chain`` command writes through its atomic output writer instead).

    Parameters
    ----------
    g : networkx.DiGraph
        A graph from :func:`chain_graph`.
    path : str or Path
        Target file; its directory must exist.
    fmt : {"graphml", "dot"}

    Raises
    ------
    ValueError
        If ``fmt`` is unknown or the directory of ``path`` does not exist.
    OSError
        If the file cannot be written.
    """
    data = graph_bytes(g, fmt)
    p = Path(path)
    if not p.parent.is_dir():
        raise ValueError(f"{p}: directory {p.parent} does not exist")
    p.write_bytes(data)


# ---------------------------------------------------------------------------
# float cross-check (labelled: floats, not exact)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class FloatFigures:
    """Float cross-check of a feature, from the graph through the fundamental matrix.

    All floats (float64), never exact.  ``mean`` credits, ``second``
    credits^2 per feature; ``spins_by_level``, ``reach`` shape (levels,);
    ``keys`` expected total KEY count.
    """

    mean: float
    second: float
    spins_by_level: tuple[float, ...]
    reach: tuple[float, ...]
    keys: float


def _float_solution(g: nx.DiGraph):
    """(transient nodes, their index, the LU of I - Q, v = N r, v2, per-node KEY counts) of the graph (floats)."""
    nodes = [n for n in g if n != END]
    idx = {n: i for i, n in enumerate(nodes)}
    n = len(nodes)
    rows, cols, vals = [], [], []
    r, r2, rk = np.zeros(n), np.zeros(n), np.zeros(n)
    for u, v, d in g.edges(data=True):
        i = idx[u]
        r[i] += float(d["win"])
        r2[i] += float(d["win2"])
        rk[i] += float(d["key_count"])
        if v != END:
            rows.append(i)
            cols.append(idx[v])
            vals.append(float(d["probability"]))
    q = sp.csc_matrix((vals, (rows, cols)), shape=(n, n))
    lu = splu((sp.identity(n, format="csc") - q).tocsc())
    v = lu.solve(r)
    b2 = r2.copy()
    for u, w, d in g.edges(data=True):
        if w != END:
            b2[idx[u]] += 2 * float(d["win"]) * v[idx[w]]
    return nodes, idx, lu, v, lu.solve(b2), rk


def float_moments(g: nx.DiGraph, start: str) -> tuple[float, float]:
    """(E[W], E[W^2]) of the chain's total reward from node ``start``, floats through the fundamental matrix
    (:func:`float_figures` without the ladder's per-level figures): the cross-check of any chain's graph, such
    as the game round's (:class:`markov.round_chain.RoundChain`).

    >>> from fractions import Fraction as F
    >>> from markov.round_chain import RoundChain, decided
    >>> c = RoundChain([((1,), F(1, 2), F(1), F(2), decided((1,))), ((0,), F(1, 2), F(0), F(0), decided((0,)))],
    ...                {}, (), {1: (F(3), F(9))}, None)
    >>> float_moments(chain_graph(c, [0]), "spin")
    (2.5, 12.5)
    """
    nodes, idx, lu, v, v2, _ = _float_solution(g)
    return float(v[idx[start]]), float(v2[idx[start]])


def float_figures(g: nx.DiGraph, start: str) -> FloatFigures:
    """Float figures of the feature starting at node ``start``.

    With ``Q`` the sparse transient-to-transient transition matrix and
    ``N = (I - Q)^-1`` the fundamental matrix (never formed: ``I - Q`` is LU
    factorised and solved), ``v = N r`` (r = expected win of one step),
    ``v2 = N (r2 + 2 sum_t P_win(s, t) v_t)`` and the expected visits from the
    start are row ``start`` of ``N`` (a transposed solve).

    Raises
    ------
    KeyError
        If ``start`` is not a node.
    """
    nodes, idx, lu, v, v2, rk = _float_solution(g)
    n = len(nodes)
    e = np.zeros(n)
    e[idx[start]] = 1.0
    visits = lu.solve(e, trans="T")
    level = np.array([g.nodes[x]["level"] for x in nodes])
    left = np.array([g.nodes[x]["spins_left"] for x in nodes])
    spins = g.graph["spins"]
    n_levels = len(spins)
    by_level = tuple(float(visits[level == i + 1].sum()) for i in range(n_levels))
    reach = (1.0,) + tuple(float(visits[(level == i + 1) & (left == spins[i])].sum())
                           for i in range(1, n_levels))
    return FloatFigures(mean=float(v[idx[start]]), second=float(v2[idx[start]]),
                        spins_by_level=by_level, reach=reach, keys=float(visits @ rk))


def relative_error(approx: float, exact: Fraction) -> float:
    """|approx - exact| / |exact|, or |approx| if exact is 0 (float, display only)."""
    return abs(approx - float(exact)) / abs(float(exact)) if exact else abs(approx)


def start_node(g: nx.DiGraph, initial_spins: int) -> str:
    """The node whose ``start`` attribute lists ``initial_spins``.

    Raises
    ------
    KeyError
        If no node starts a feature of that many initial spins.
    """
    for n, d in g.nodes(data=True):
        if str(initial_spins) in d["start"].split(","):
            return n
    raise KeyError(f"no start node for {initial_spins} initial free spins")


def cross_check(g: nx.DiGraph, features: Sequence[FeatureResult]) -> float:
    """Largest relative difference between the float figures and the exact results.

    Compares mean, second moment, expected spins per level, reach per level
    and expected KEY count of each feature, the float side computed from the
    graph by :func:`float_figures`.

    Raises
    ------
    KeyError
        If a feature's start state is not in the graph.
    """
    worst = 0.0
    for f in features:
        x = float_figures(g, start_node(g, f.initial_spins))
        pairs = [(x.mean, f.mean), (x.second, f.second), (x.keys, f.keys),
                 *zip(x.spins_by_level, f.spins_by_level), *zip(x.reach, f.reach)]
        worst = max([worst] + [relative_error(a, b) for a, b in pairs])
    return worst
