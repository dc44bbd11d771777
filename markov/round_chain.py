"""A game round as a chain of the feature-chain protocol (:mod:`markov.protocol`): the spin, a respin, the
prize wheels and the free spins, so that the analyses written once for any chain (exact moments, the
visit probabilities, the split by stage, the graph) compute the round.

States, each transition one part of the round (the graph is acyclic, its stages never fall):

* :data:`SPIN`: the round's spin.  Its outcomes are the counts ``k = (n, b_1, ..., b_W)`` of the window
  that decides the features (``n`` trigger scatters, ``b_w`` symbols of prize wheel ``w``), rewarded with
  the spin's win ``Y``: ``p = P(k)``, ``w = E[Y 1{k}]``, ``v = E[Y^2 1{k}]``; or, with a respin, a hold
  ``h`` (the reels that hold and their windows) rewarded with the original spin's win, to ``("respin", h)``.
* ``("respin", h)``: the respin of the reels ``h`` does not hold: its outcomes are the counts ``k`` of the
  respin's window (held symbols counted), rewarded with the respin's pays (independent of the original
  spin's win given ``h``).
* ``("decided", k)``: the counts are known; one outcome of probability 1 and no reward to the first
  feature ``k`` starts.
* ``("wheel", i, k)``: prize wheel ``i`` spins the table of ``b_i``; its outcomes are the table's awards
  (``p`` = weight / total, ``w = p E[v_a]``, ``v = p E[v_a^2]``), then the next started wheel.
* ``("free spins", n)``: the free spins ``n`` trigger scatters start, one outcome rewarded with the
  feature's moments ``E[F_n]``, ``E[F_n^2]`` (the feature itself is the game's free-spin chain,
  :func:`markov.feature.feature_chain`); then the end.

Given the state, each step's win is independent of the wins before it, which is the protocol's
assumption: the features a window starts are independent of the round's win before them given its
counts, and of each other (:mod:`markov.wheels`).  A wheel award whose value depends on where symbols land
beyond the counts (frames) breaks it: its win enters at its mean given ``k``, and its exact cross moment
with the spin's win is added apart (:func:`markov.wheels.wheel_round`).

Stages (:func:`markov.protocol.features` splits by them): 0 the spin, 1 the respin, 2 the decided counts,
3 + i prize wheel i, 3 + W the free spins.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable, Mapping, Sequence

from markov import protocol

__all__ = ["SPIN", "RoundChain", "decided", "split_by_counts"]

#: The round's first state.
SPIN = ("spin",)
END = "END"


def decided(k: tuple) -> tuple:
    """The state of the counts ``k`` once the window that decides the features is known.

    >>> decided((3, 0))
    ('decided', (3, 0))
    """
    return ("decided", k)


def split_by_counts(chain) -> dict:
    """The round's win before its features by the counts that decide them: ``k -> (P, E[Y 1{k}], E[Y^2 1{k}])``,
    the chain's exits at its decided states (:func:`markov.protocol.exits`), in the order they are first reached.

    >>> F = Fraction
    >>> split_by_counts(RoundChain([((1,), F(1, 2), F(1), F(2), decided((1,))),
    ...                             ((0,), F(1, 2), F(0), F(0), decided((0,)))], {}, (), {}, None))[(1,)]
    (Fraction(1, 2), Fraction(1, 1), Fraction(2, 1))
    """
    return {s[1]: v for s, v in protocol.exits(chain, 0, lambda s: s[0] == "decided").items()}


class RoundChain:
    """One game round as a chain (module docstring).

    Parameters
    ----------
    spin_rows : sequence of (label, p, w, v, successor)
        The outcomes of :data:`SPIN` with positive probability: successor ``decided(k)`` or ``("respin", h)``.
    respin_rows : mapping ``("respin", h)`` -> sequence of (label, p, w, v, ``decided(k)``)
        The outcomes of each respin (probabilities given ``h``, summing to 1).
    wheels : sequence of callables ``count -> PrizeTable or None``
        Each prize wheel's table for a count of its symbol (:meth:`strips.model.Wheel.table_for`).
    free_spins : mapping int -> (E[F], E[F^2])
        The free-spin feature of each triggering count ``n`` (counts without one are left out).
    award : callable ``(award, k) -> (E[v], E[v^2])``
        An award's win given the deciding counts ``k``.

    Examples
    --------
    A spin paying 2 credits with probability 1/2 that starts 1 free spin paying 3 credits:

    >>> F = Fraction
    >>> from markov import protocol
    >>> c = RoundChain([((1,), F(1, 2), F(1), F(2), decided((1,))), ((0,), F(1, 2), F(0), F(0), decided((0,)))],
    ...                {}, (), {1: (F(3), F(9))}, None)
    >>> m = protocol.solve(c, [0])[0]
    >>> m.mean, m.second
    (Fraction(5, 2), Fraction(25, 2))
    """

    kind = "round"

    def __init__(self, spin_rows: Sequence, respin_rows: Mapping, wheels: Sequence[Callable],
                 free_spins: Mapping[int, tuple], award: Callable | None):
        self.spin_rows = tuple(spin_rows)
        self.respin_rows = dict(respin_rows)
        self.tables = tuple(wheels)
        self.free_spins = dict(free_spins)
        self.award = award
        self.stages = 4 + len(self.tables)
        # the respin states in the order the spin's outcomes list them: the order their outcomes are read
        self._index = {s: i for i, (*_, s) in enumerate(self.spin_rows) if s[0] == "respin"}

    def start(self, _=0):
        return SPIN

    def stage(self, state) -> int:
        head = state[0]
        if head == "spin":
            return 0
        if head == "respin":
            return 1
        if head == "decided":
            return 2
        if head == "wheel":
            return 3 + state[1]
        return 3 + len(self.tables)

    def order(self, state):
        """Stage, then the place in the spin's outcomes: every transition goes to a later stage."""
        return self.stage(state), self._index.get(state, 0)

    def _after(self, k: tuple, first: int):
        """The first feature the counts ``k`` start from wheel ``first`` on: a wheel, the free spins or the end."""
        for i in range(first, len(self.tables)):
            if self.tables[i](k[1 + i]) is not None:
                return ("wheel", i, k)
        return ("free spins", k[0]) if k[0] in self.free_spins else END

    def transitions(self, state) -> tuple:
        head = state[0]
        if head == "spin":
            return self.spin_rows
        if head == "respin":
            return tuple(self.respin_rows[state])
        if head == "decided":
            return ((None, Fraction(1), Fraction(0), Fraction(0), self._after(state[1], 0)),)
        if head == "wheel":
            _, i, k = state
            table = self.tables[i](k[1 + i])
            total = sum(table.weights)
            nxt = self._after(k, i + 1)
            out = []
            for a, wt in zip(table.awards, table.weights):
                q = Fraction(wt, total)
                m, s = self.award(a, k)
                out.append(((i, a.text), q, q * m, q * s, nxt))
            return tuple(out)
        m, s = self.free_spins[state[1]]
        return (("free spins", Fraction(1), m, s, END),)

    def node_id(self, state) -> str:
        """The state's name in the graph export: its parts joined by ``/`` (``wheel/0/(3, 1)``)."""
        return state if isinstance(state, str) else "/".join(str(x) for x in state)
