r"""Closed form of the expected ways pays of one spin, kept up to date under single-symbol edits.

For a pay symbol ``s`` let :math:`c_r` be the count of ``s`` plus WILD in the
window of reel r.  The combination of ``s`` has OAK = n exactly when
:math:`c_1, \dots, c_n > 0` and :math:`c_{n+1} = 0`; its pay is
:math:`\text{pay}_s(n) \prod_{r \le n} c_r`, which is 0 anyway when some
:math:`c_r = 0`.  The reels are independent (section 3), so

.. math::

   E[\text{ways pay of } s] = \sum_{n=1}^{R} \text{pay}_s(n)
        \prod_{r \le n} E[c_r] \; P(c_{n+1} = 0)   \qquad (P(c_{R+1}=0) := 1),

with :math:`E[c_r] = \text{rows}\,(k_{s,r} + k_{W,r}) / L` (each strip
position is in the window on ``rows`` stops; k = copies on the strip) and
:math:`P(c_r = 0) = z_{s,r} / L`, z the number of stops whose window shows
neither ``s`` nor WILD.  Every term is an integer over :math:`L^R`, so the
mean is exact.  This is a mean-only formula, independent of the factorised
engine (:mod:`exact.engine`), which computes the whole distribution; the two
are checked against each other in the tests.

Source: rules page section 6 (ways pays).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from strips.model import PAY, WILD, GameModel


class WaysState:
    """Expected ways pays of a strip set, exact, with O(rows) updates per edited position.

    Parameters
    ----------
    model : GameModel
        Paytable, window rows, WILD symbols.
    strips : sequence of sequence of str, shape (reels, L)
        The strip set; every reel must have the same length L.

    Raises
    ------
    ValueError
        If the reels differ in length or a reel is shorter than the window.

    Notes
    -----
    Internally ``count[r, s]`` (copies of pay symbol s on reel r, int64,
    shape (reels, pay symbols)), ``wild[r]`` (copies of WILD), and
    ``shown[r, stop, s]`` (copies of s plus WILD in the window at ``stop``,
    int64, shape (reels, L, pay symbols)).
    """

    def __init__(self, model: GameModel, strips):
        lengths = {len(r) for r in strips}
        if len(lengths) != 1:
            raise ValueError(f"reels of different lengths {sorted(lengths)}: the closed form needs one length")
        self.model = model
        self.rows = model.rows
        self.length = lengths.pop()
        if self.length < self.rows:
            raise ValueError(f"reels of {self.length} symbols are shorter than the {self.rows} window rows")
        self.reels = len(strips)
        self.pay_names = tuple(s.name for s in model.symbols if s.kind == PAY)
        self.pays = tuple(s.pays for s in model.symbols if s.kind == PAY)
        self.index = {n: i for i, n in enumerate(self.pay_names)}
        self.wilds = frozenset(s.name for s in model.symbols if s.kind == WILD)
        for s in model.symbols:
            for a in s.aliases:
                if s.kind == PAY:
                    self.index[a] = self.index[s.name]
                elif s.kind == WILD:
                    self.wilds |= {a}
        self.strips = [list(r) for r in strips]
        npay = len(self.pay_names)
        self.count = np.zeros((self.reels, npay), dtype=np.int64)
        self.wild = np.zeros(self.reels, dtype=np.int64)
        self.shown = np.zeros((self.reels, self.length, npay), dtype=np.int64)
        for r, reel in enumerate(self.strips):
            for p, name in enumerate(reel):
                self._add(r, p, name, +1)
        self.zero = (self.shown == 0).sum(axis=1).astype(np.int64)  # shape (reels, npay)
        self.terms = [self._numerator(s) for s in range(npay)]

    def _add(self, r: int, p: int, name: str, sign: int) -> None:
        stops = [(p - k) % self.length for k in range(self.rows)]
        if name in self.wilds:
            self.wild[r] += sign
            for st in stops:
                self.shown[r, st, :] += sign
        elif name in self.index:
            s = self.index[name]
            self.count[r, s] += sign
            for st in stops:
                self.shown[r, st, s] += sign

    def _numerator(self, s: int) -> int:
        """length**reels x E[ways pay of pay symbol s], an exact integer (credits)."""
        big_l, rows, reels = self.length, self.rows, self.reels
        total, lead = 0, 1
        for n in range(1, reels + 1):
            lead *= rows * int(self.count[n - 1, s] + self.wild[n - 1])
            if lead == 0:
                break
            pay = self.pays[s][n - 1]
            if not pay:
                continue
            if n < reels:
                total += pay * lead * int(self.zero[n, s]) * big_l ** (reels - n - 1)
            else:
                total += pay * lead
        return total

    @property
    def denominator(self) -> int:
        """length ** reels: the common denominator of :attr:`numerator`."""
        return self.length ** self.reels

    @property
    def numerator(self) -> int:
        """denominator x E[ways pays of one spin], an exact integer (credits)."""
        return sum(self.terms)

    @property
    def mean(self) -> Fraction:
        """E[ways pays of one spin], credits per spin, before any level multiplier."""
        return Fraction(self.numerator, self.denominator)

    def by_symbol(self) -> dict[str, Fraction]:
        """Pay symbol -> E[its ways pay], credits per spin."""
        return {n: Fraction(t, self.denominator) for n, t in zip(self.pay_names, self.terms)}

    def set(self, r: int, p: int, name: str) -> None:
        """Put ``name`` at position ``p`` of reel ``r`` (0-based) and update the mean.

        Only pay symbols may be replaced by pay symbols here (the tuning's
        move); other edits need a new :class:`WaysState`.

        Raises
        ------
        ValueError
            If the old or the new symbol is not a pay symbol.
        """
        old = self.strips[r][p]
        if old not in self.index or name not in self.index:
            raise ValueError(f"only pay symbols can be exchanged here, not {old} -> {name}")
        if old == name:
            return
        self._add(r, p, old, -1)
        self._add(r, p, name, +1)
        self.strips[r][p] = name
        touched = {self.index[old], self.index[name]}
        for s in touched:
            self.zero[r, s] = int((self.shown[r, :, s] == 0).sum())
        for s in touched:
            self.terms[s] = self._numerator(s)
