"""Cluster pays (``[game] evaluation = "clusters"``): groups of edge-connected cells of one pay symbol pay by size.

The literal reading (:func:`cluster_wins`): for each pay symbol ``p``, the cells showing ``p`` or a WILD
substituting for it split into maximal groups connected through shared edges (up, down, left, right);
each group holding at least one cell of ``p`` itself (a group of WILDs alone pays for no symbol) pays
``pays[min(size, len(pays)) - 1]`` credits once.  A WILD may belong to clusters of several symbols.
The cells of a paying cluster (WILDs included) are the cells a cascade removes.  A WILD has no pays of
its own under clusters.

Exact figures: enumeration of every stop combination (:mod:`exact.enumeration`); no per-reel terms.
"""
from __future__ import annotations

from exact.rules.anywhere import AnywhereWin, CellPays, count_pay
from exact.rules.base import PaysWords
from strips import plugins

__all__ = ["Clusters", "cluster_wins"]

CLUSTERS = "clusters"


def cluster_wins(model, window) -> tuple[AnywhereWin, ...]:
    """The cluster wins of one window, literally: one per paying maximal cluster, credits before multipliers.

    >>> from strips.loader import parse_game
    >>> import exact  # registers the evaluation
    >>> m = parse_game(b'''[game]
    ... reels = 3
    ... rows = 2
    ... bet = 1
    ... evaluation = "clusters"
    ... [strips]
    ... base = "base.csv"
    ... [symbols.A]
    ... class = "pay"
    ... pays = [0, 0, 5]
    ... [symbols.B]
    ... class = "pay"
    ... pays = [0, 0, 5]
    ... ''', "game.toml")
    >>> [(w.symbol, w.count, w.pay) for w in cluster_wins(m, [["A", "A"], ["B", "A"], ["A", "B"]])]
    [('A', 3, 5)]
    """
    reels, rows = len(window), len(window[0]) if window else 0
    out = []
    for p in model.pay_symbols:
        member = {(r, i) for r in range(reels) for i in range(rows)
                  if window[r][i] == p.name or model.symbol(window[r][i]).substitutes_for(p.name)}
        seen: set = set()
        for start in sorted(member):
            if start in seen:
                continue
            group, todo = {start}, [start]
            while todo:
                r, i = todo.pop()
                for nb in ((r - 1, i), (r + 1, i), (r, i - 1), (r, i + 1)):
                    if nb in member and nb not in group:
                        group.add(nb)
                        todo.append(nb)
            seen |= group
            if not any(window[r][i] == p.name for r, i in group):
                continue
            pay = count_pay(p.pays, len(group))
            if pay:
                out.append(AnywhereWin(p.name, len(group), pay, frozenset(group)))
    return tuple(out)


class Clusters(CellPays):
    """Cluster pays: exact by enumeration of every stop combination.

    >>> Clusters.present(type("M", (), {"evaluation": "clusters"})())
    True
    """

    name = "cluster pays"
    keys = '[game] evaluation = "clusters"'
    evaluation = CLUSTERS
    words = PaysWords("cluster pays", "cluster wins", "", "cluster")


plugins.register(Clusters.name, (), Clusters.parse)
plugins.register_evaluation(CLUSTERS, pays_by_cells=True, wild_pays=False)
