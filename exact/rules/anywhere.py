"""Pay anywhere (``[game] evaluation = "anywhere"``): a pay symbol pays by how many cells of the window show it.

The literal reading (:func:`anywhere_wins`): for each pay symbol ``p``, ``n`` = the cells showing ``p``
or a WILD that substitutes for it, wherever they are (WILDs alone make a count too); it pays
``pays[min(n, len(pays)) - 1]`` credits (0 = no pay).  A WILD's own ``pays`` pay by the count of its
cells alone, in addition to every symbol they substitute for.  The paying cells (WILDs included)
are the cells a cascade removes.

Fast path (:func:`analyse_anywhere_phase`): without a cascade or a multiplier symbol the win of a
window is ``sum_p pay_p(N_p)`` with ``N_p = sum_r n_{p,r}(s_r)`` a sum of per-reel counts, so the
joint law of the counts is a product of per-reel count polynomials.  Each pay symbol's marginal
gives its mean exactly; the second moment needs the pairs (``N_p``, ``N_q``) and the hit frequency
the joint law of every count; both are computed by convolving per-reel distributions of the count
vectors (distinct vectors only), with the scatter counts carried along for the trigger split.
"""
from __future__ import annotations

from exact.rules.base import ENUMERATED, Rule
from strips import plugins

__all__ = ["Anywhere", "AnywhereWin", "anywhere_wins", "count_pay", "refuse_beside_cell_pays", "CellPays"]

ANYWHERE = "anywhere"


class AnywhereWin(tuple):
    """(symbol, count, pay in credits, cells as a frozenset of (reel, row), 0-based)."""

    __slots__ = ()

    def __new__(cls, symbol: str, count: int, pay: int, cells: frozenset):
        return super().__new__(cls, (symbol, count, pay, cells))

    symbol = property(lambda self: self[0])
    count = property(lambda self: self[1])
    pay = property(lambda self: self[2])
    cells = property(lambda self: self[3])


def count_pay(pays, n: int) -> int:
    """The pay of a count ``n`` of cells: ``pays[n - 1]``, the last entry beyond the list, 0 for n = 0.

    >>> count_pay((0, 0, 5, 10), 2), count_pay((0, 0, 5, 10), 9), count_pay((1,), 0)
    (0, 10, 0)
    """
    if n < 1 or not pays:
        return 0
    return pays[min(n, len(pays)) - 1]


def anywhere_wins(model, window) -> tuple[AnywhereWin, ...]:
    """The pay-anywhere wins of one window, literally (credits before any multiplier).

    ``window[r][i]`` is the symbol name at reel r, row i (0-based).

    >>> from strips.loader import parse_game
    >>> import exact  # registers the evaluation
    >>> m = parse_game(b'''[game]
    ... reels = 2
    ... rows = 2
    ... bet = 1
    ... evaluation = "anywhere"
    ... [strips]
    ... base = "base.csv"
    ... [symbols.A]
    ... class = "pay"
    ... pays = [0, 0, 5]
    ... [symbols.W]
    ... class = "wild"
    ... reels = { base = [1, 2] }
    ... ''', "game.toml")
    >>> [(w.symbol, w.count, w.pay) for w in anywhere_wins(m, [["A", "W"], ["A", "A"]])]
    [('A', 4, 5)]
    """
    out = []
    for p in model.pay_symbols:
        cells = frozenset((r, i) for r, col in enumerate(window) for i, name in enumerate(col)
                          if name == p.name or model.symbol(name).substitutes_for(p.name))
        pay = count_pay(p.pays, len(cells))
        if pay:
            out.append(AnywhereWin(p.name, len(cells), pay, cells))
    for w in model.of_kind("wild"):
        if w.pays:
            cells = frozenset((r, i) for r, col in enumerate(window) for i, name in enumerate(col) if name == w.name)
            pay = count_pay(w.pays, len(cells))
            if pay:
                out.append(AnywhereWin(w.name, len(cells), pay, cells))
    return tuple(out)


def refuse_beside_cell_pays(t, model) -> None:
    """Collect (KEY/FISH) and WILD multipliers are rules of ways games: refused (file, row, column) under
    pay anywhere and clusters."""
    for s in model.symbols:
        if s.kind in ("key", "fish"):
            raise t.error(("symbols", s.name, "class"), f"unsupported rule: {s.kind} symbols (collect) in a "
                          f"{model.evaluation} game")
        if s.multiplier is not None:
            raise t.error(("symbols", s.name, "multiplier"), f"unsupported rule: a WILD multiplier in a "
                          f"{model.evaluation} game")


class CellPays(Rule):
    """The common part of the evaluations that pay by cells (anywhere, clusters): exact by enumeration,
    collect and WILD multipliers refused at load; subclasses set ``name``, ``keys`` and ``evaluation``."""

    implements = ENUMERATED
    #: The engine's ways/lines factorisation does not compute it.
    factorised = False
    evaluation = ""

    @classmethod
    def parse(cls, t, doc: dict, model) -> None:
        """Refuse what the evaluation cannot mean (collect, WILD multipliers); it keeps no configuration."""
        if cls.present(model):
            refuse_beside_cell_pays(t, model)
        return None

    @classmethod
    def present(cls, model) -> bool:
        return model.evaluation == cls.evaluation


class Anywhere(CellPays):
    """Pay anywhere: exact by the per-reel count product (no cascade) or by enumeration.

    >>> Anywhere.present(type("M", (), {"evaluation": "anywhere"})())
    True
    """

    name = "pay-anywhere evaluation"
    keys = '[game] evaluation = "anywhere"'
    evaluation = ANYWHERE


plugins.register(Anywhere.name, (), Anywhere.parse)
plugins.register_evaluation(ANYWHERE, pays_by_cells=True, wild_pays=True)
