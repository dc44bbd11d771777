"""Exact result objects passed from the per-reel engine to the free-spin chain and the report.

All figures are ``fractions.Fraction`` in credits (per spin) or plain
probabilities; nothing here is a float.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

from strips.model import Phase


ZERO = Fraction(0)

#: The keys of the parts of a spin's mean (:attr:`PhaseAnalysis.parts`) that every phase carries, in order:
#: the evaluation rule's pays, the KEY collect, the scatter pays (the rules' ``spin_part``).
PAYS, COLLECT, SCATTER = "pays", "collect", "scatter"
SPIN_PARTS = (PAYS, COLLECT, SCATTER)


def spin_parts(pays: Fraction, collect: Fraction = ZERO, scatter: Fraction = ZERO, **more: Fraction) -> dict[str, Fraction]:
    """The parts of one spin's mean (:attr:`PhaseAnalysis.parts`): the three of :data:`SPIN_PARTS`, then
    any of a rule with a part of its own, credits per spin.

    >>> spin_parts(Fraction(3), scatter=Fraction(1))
    {'pays': Fraction(3, 1), 'collect': Fraction(0, 1), 'scatter': Fraction(1, 1)}
    """
    return {PAYS: pays, COLLECT: collect, SCATTER: scatter, **more}


def scaled_parts(parts: Mapping[str, Fraction], m) -> dict[str, Fraction]:
    """Every part multiplied by ``m`` (a multiplier of the whole spin).

    >>> scaled_parts(spin_parts(Fraction(3)), 2)[PAYS]
    Fraction(6, 1)
    """
    return {k: v * m for k, v in parts.items()}


def mixed_parts(weighted, total) -> dict[str, Fraction]:
    """The parts of a mixture of phases ``[(weight, PhaseAnalysis), ...]`` (weights summing to ``total``):
    each part's weighted mean, keys in the first phase's order.

    >>> from types import SimpleNamespace as P
    >>> mixed_parts([(1, P(parts=spin_parts(Fraction(2)))), (3, P(parts=spin_parts(Fraction(6))))], 4)[PAYS]
    Fraction(5, 1)
    """
    keys = list(dict.fromkeys(k for _, a in weighted for k in a.parts))
    return {k: sum((Fraction(w) * a.parts.get(k, ZERO) for w, a in weighted), ZERO) / total for k in keys}


@dataclass(frozen=True)
class CountSplit:
    """Moments of one spin's win W split by a count N of symbols in the window.

    In the base game N is the scatter (FS) count, in a free-spin level it is
    the KEY count.  Index n of each tuple is N = n, for n = 0 .. max possible.

    Attributes
    ----------
    prob : tuple of Fraction
        P(N = n).  Sums to 1.
    win : tuple of Fraction
        E[W * 1{N = n}], credits per spin.  Sums to E[W].
    win2 : tuple of Fraction
        E[W^2 * 1{N = n}], credits^2 per spin.  Sums to E[W^2].
    """

    prob: tuple[Fraction, ...]
    win: tuple[Fraction, ...]
    win2: tuple[Fraction, ...]

    @property
    def mean(self) -> Fraction:
        """E[W], credits per spin."""
        return sum(self.win, Fraction(0))

    @property
    def second(self) -> Fraction:
        """E[W^2], credits^2 per spin."""
        return sum(self.win2, Fraction(0))

    def at_least(self, n: int) -> Fraction:
        """P(N >= n)."""
        return sum(self.prob[n:], Fraction(0))


@dataclass(frozen=True)
class PhaseAnalysis:
    """Exact figures of one spin of a phase (base game or one free-spin level).

    Attributes
    ----------
    phase : Phase
    mean : Fraction
        E[W], credits per spin, W = multiplier x (ways pays + collect).
    second : Fraction
        E[W^2], credits^2 per spin.
    parts : mapping str -> Fraction
        The spin's mean split by the rule that pays it: part key -> E[multiplier x that rule's win],
        credits per spin, summing exactly to ``mean``.  Every phase carries the parts of
        :data:`SPIN_PARTS` in that order (0 where the game lacks the rule): ``pays`` (the evaluation
        rule's pays: the ways pays of a ways game, the payline wins of a line game, the pays of an
        enumerated game's evaluation), ``collect`` (the KEY collect) and ``scatter`` (the scatter pays);
        a rule with a part of its own adds its key after them (:attr:`exact.rules.Rule.spin_part`).
    ways_by_symbol : mapping str -> tuple of Fraction, length reels
        Pay symbol -> E[multiplier x its ways pay with OAK = n] at index n-1,
        credits per spin.  Sums (over symbols and OAK) to ``parts["pays"]``.
    oak_prob : mapping str -> tuple of Fraction, length reels
        Pay symbol -> P(its combination has exactly OAK = n) at index n-1.
    by_scatter : CountSplit
        Split by the scatter (FS) count in the window.
    by_key : CountSplit
        Split by the KEY count in the window.
    hit_frequency : Fraction
        P(W > 0).
    by_trigger : CountSplit or None
        ``trigger_reels``: the split by the count that awards free
        spins (index n: n triggering scatters shown with every trigger reel
        showing one; index 0 also holds every spin whose trigger reels do
        not all show one).  None: the same as ``by_scatter``.
    line_means : tuple of Fraction
        Line games: E[multiplier x win of payline i] at index i - 1, credits
        per spin (empty for a ways game).
    line_hits : tuple of Fraction
        Line games: P(payline i pays) at index i - 1.

    For a line game ``parts["pays"]`` is the mean of the line wins,
    ``ways_by_symbol`` and ``oak_prob`` are keyed by the paying symbol of a
    line (a WILD for WILD-only wins) and its run, ``oak_prob`` being the
    probability that one payline wins so (the same for every payline).
    """

    phase: Phase
    mean: Fraction
    second: Fraction
    parts: Mapping[str, Fraction]
    ways_by_symbol: Mapping[str, tuple[Fraction, ...]]
    oak_prob: Mapping[str, tuple[Fraction, ...]]
    by_scatter: CountSplit
    by_key: CountSplit
    hit_frequency: Fraction
    by_trigger: CountSplit | None = None
    line_means: tuple[Fraction, ...] = ()
    line_hits: tuple[Fraction, ...] = ()

    # ---- the parts every phase has, by name (deprecated: read ``parts``) ----------------------
    @property
    def pays_mean(self) -> Fraction:
        """``parts["pays"]``: E[multiplier x the evaluation's pays], credits per spin (deprecated)."""
        return self.parts.get(PAYS, ZERO)

    @property
    def collect_mean(self) -> Fraction:
        """``parts["collect"]``: E[multiplier x collect win], credits per spin (deprecated)."""
        return self.parts.get(COLLECT, ZERO)

    @property
    def scatter_mean(self) -> Fraction:
        """``parts["scatter"]``: E[multiplier x scatter pays], credits per spin (deprecated)."""
        return self.parts.get(SCATTER, ZERO)

    @property
    def trigger_split(self) -> CountSplit:
        """The split by the count that awards free spins: ``by_trigger`` if set, else ``by_scatter``."""
        return self.by_trigger if self.by_trigger is not None else self.by_scatter

    @property
    def variance(self) -> Fraction:
        """Var[W], credits^2 per spin."""
        return self.second - self.mean * self.mean

    @property
    def key_2plus(self) -> Fraction:
        """P(2 or more KEY symbols in the window), rules page section 13."""
        return self.by_key.at_least(2)
