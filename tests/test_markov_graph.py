"""The ladder chain as a graph (markov.graph): absorbing, acyclic, exportable, float cross-check."""
from __future__ import annotations

import re
from fractions import Fraction as F

import networkx as nx
import pytest

from markov.chain import END, Ladder, feature_results, model_ladder
from markov.graph import (
    chain_graph,
    check_chain,
    cross_check,
    dot_text,
    float_figures,
    read_graphml,
    write_graph,
)
from generators import rules_page_model, split_of

HALF = F(1, 2)


def rules_page_ladder() -> Ladder:
    """Rules-page ladder; level splits with 0..3 KEYs and wins correlated with the KEY count."""
    model = rules_page_model()
    splits = []
    for lv in model.levels:
        m = lv.multiplier
        splits.append(split_of([(F(801, 1000), 0, F(0)), (F(60, 1000), 0, F(3 * m)),
                                (F(100, 1000), 1, F(5 * m)), (F(30, 1000), 2, F(40 * m)),
                                (F(9, 1000), 3, F(300 * m))]))
    return model_ladder(model, splits)


@pytest.fixture(scope="module")
def graph():
    return chain_graph(rules_page_ladder(), (10, 15, 20))


def test_graph_is_absorbing_and_acyclic(graph):
    check_chain(graph)
    assert nx.is_directed_acyclic_graph(graph)
    assert graph.out_degree(END) == 0
    assert all(nx.has_path(graph, n, END) for n in graph)
    starts = {d["start"] for _, d in graph.nodes(data=True) if d["start"]}
    assert starts == {"10", "15", "20"}


def test_graph_edges_merge_key_counts(graph):
    # last spin of level 4: every KEY count ends the free spins -> one edge, probability 1
    d = graph.edges["L4 s1 c9", END]
    assert d["k"] == (0, 1, 2, 3) and d["probability"] == 1
    # level 1 with counter 8: 1, 2 or 3 KEYs all hit the cap 9 -> one merged edge
    d = graph.edges["L1 s3 c8", "L1 s2 c9"]
    assert d["k"] == (1, 2, 3) and d["probability"] == F(139, 1000)
    assert d["win"] == F(100, 1000) * 5 + F(30, 1000) * 40 + F(9, 1000) * 300
    assert d["reward_mean"] == d["win"] / d["probability"]
    # no level 2 state below its threshold, no level skipped
    assert not any(graph.nodes[n]["level"] == 2 and graph.nodes[n]["keys"] < 3 for n in graph if n != END)
    assert ("L1 s1 c9", "L4 s8 c9") not in graph.edges and ("L1 s1 c9", "L2 s8 c9") in graph.edges


def test_float_cross_check_within_1e12(graph):
    lad = rules_page_ladder()
    err = cross_check(graph, feature_results(lad, (10, 15, 20)))
    assert err < 1e-12


def test_float_figures_fundamental_matrix_by_hand():
    # 2 levels of 1 spin, KEY w.p. 1/2 (win 2), level 2 (threshold 1): k=1 w.p. 1/2 winning 10
    # E[F] = 7/2, E[F^2] = 37 (derived in test_markov_chain.test_hand_two_levels_one_spin_each)
    lad = Ladder((0, 1), (None, 1), (1, 2), (split_of([(HALF, 0, F(0)), (HALF, 1, F(2))]),
                                              split_of([(HALF, 0, F(0)), (HALF, 1, F(10))])))
    x = float_figures(chain_graph(lad, (1,)), "L1 s1 c0")
    assert x.mean == pytest.approx(3.5, rel=1e-15) and x.second == pytest.approx(37, rel=1e-15)
    assert x.reach == pytest.approx((1, 0.5)) and x.spins_by_level == pytest.approx((1, 0.5))


def test_cross_check_detects_a_wrong_exact_value(graph):
    lad = rules_page_ladder()
    f = feature_results(lad, (10,))[0]
    wrong = type(f)(**{**f.__dict__, "second": f.second * (1 + F(1, 10**9))})
    assert cross_check(graph, [wrong]) > 1e-10


def test_graphml_round_trip(graph, tmp_path):
    path = tmp_path / "chain.graphml"
    write_graph(graph, path, "graphml")
    back = read_graphml(path)
    assert set(back.nodes) == set(graph.nodes)
    assert set(back.edges) == set(graph.edges)
    for u, v, d in graph.edges(data=True):
        assert back.edges[u, v] == d
    for n, d in graph.nodes(data=True):
        assert back.nodes[n] == d
    assert back.graph == graph.graph
    check_chain(back)
    # the file is plain GraphML: networkx alone reads the exact probability strings
    raw = nx.read_graphml(path)
    assert F(raw.edges["L1 s3 c8", "L1 s2 c9"]["probability"]) == F(139, 1000)


def test_dot_export(graph, tmp_path):
    path = tmp_path / "chain.dot"
    write_graph(graph, path, "dot")
    text = path.read_text()
    assert text.startswith("digraph free_spin_ladder {") and text.rstrip().endswith("}")
    edges = re.findall(r'^  "([^"]+)" -> "([^"]+)"', text, flags=re.M)
    assert set(edges) == set(graph.edges)
    nodes = re.findall(r'^  "([^"]+)" \[', text, flags=re.M)
    assert set(nodes) == set(graph.nodes)
    assert 'probability="139/1000"' in text
    assert dot_text(graph) == text


def test_raises_cycle():
    g = chain_graph(rules_page_ladder(), (10,))
    g.add_edge("L1 s1 c0", "L1 s10 c0", probability=F(0))
    with pytest.raises(ValueError, match="cycle"):
        check_chain(g)


def test_raises_probabilities_not_stochastic():
    g = chain_graph(rules_page_ladder(), (10,))
    g.edges["L1 s10 c0", "L1 s9 c0"]["probability"] -= F(1, 10**12)
    with pytest.raises(ValueError, match="sum to"):
        check_chain(g)


def test_raises_state_not_reaching_end():
    g = chain_graph(rules_page_ladder(), (10,))
    g.add_node("orphan", level=1)
    with pytest.raises(ValueError, match="never reach END"):
        check_chain(g)


def test_raises_missing_end():
    g = nx.DiGraph()
    g.add_node("L1 s1 c0")
    with pytest.raises(ValueError, match="no END"):
        check_chain(g)


def test_raises_end_with_outgoing_edge_without_cycle():
    g = chain_graph(rules_page_ladder(), (10,))
    g.add_edge(END, "sink", probability=F(1))
    with pytest.raises(ValueError, match="absorbing"):
        check_chain(g)


def test_raises_export_to_missing_directory(graph, tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        write_graph(graph, tmp_path / "no" / "chain.graphml", "graphml")
    with pytest.raises(ValueError, match="does not exist"):
        write_graph(graph, tmp_path / "no" / "chain.dot", "dot")


def test_raises_unknown_format(graph, tmp_path):
    with pytest.raises(ValueError, match="unknown graph format"):
        write_graph(graph, tmp_path / "chain.svg", "svg")
