"""The exact law of one spin of a phase computed by enumeration or by a product of per-reel count
polynomials (:class:`EnumeratedPhase`) and its per-fall statistics (:class:`FallStatistics`).

A module of its own, below :mod:`exact.enumeration` and the rule modules' fast paths, which both build
these results.
"""
from __future__ import annotations

from typing import Mapping

from dataclasses import dataclass
from fractions import Fraction

from markov.moments import PhaseAnalysis

__all__ = ["EnumeratedPhase", "FallStatistics"]


@dataclass(frozen=True)
class FallStatistics:
    """Per-fall figures of one spin of a phase, by enumeration (credits per spin, the level multiplier included).

    Attributes
    ----------
    reach : tuple of int
        ``reach[k-1]`` = stop combinations whose spin evaluates a k-th fall (``reach[0]`` = the cycle).
    mean : tuple of Fraction
        E[win of fall k] at index k-1, credits per spin (multipliers included).
    cut : int
        Stop combinations whose fall ``max_falls`` still removed cells (the spin was ended there).
    max_falls : int
    combinations : int
    """

    reach: tuple[int, ...]
    mean: tuple[Fraction, ...]
    cut: int
    max_falls: int
    combinations: int

    def at_least(self, k: int) -> Fraction:
        """P(a spin evaluates at least k falls)."""
        return Fraction(self.reach[k - 1] if k <= len(self.reach) else 0, self.combinations)

    @property
    def mean_falls(self) -> Fraction:
        """E[falls per spin] = sum over k of P(at least k falls)."""
        return Fraction(sum(self.reach), self.combinations)

    @property
    def cut_probability(self) -> Fraction:
        """P(the spin is ended at ``max_falls`` while still removing cells)."""
        return Fraction(self.cut, self.combinations)


@dataclass(frozen=True)
class EnumeratedPhase(PhaseAnalysis):
    """A :class:`markov.moments.PhaseAnalysis` computed by enumeration, with what only enumeration gives.

    Attributes (besides those of PhaseAnalysis)
    ----------
    method : str
        ``"enumeration of N stop combinations"``.
    combinations : int
        N, the cycle.
    falls : FallStatistics or None
        Per-fall statistics (None without a cascade).
    distribution : tuple of (int, int, Fraction)
        (award index, win in credits, probability), the exact joint law of a spin.
    awards_by_spins : bool
        The trigger split is indexed by the free spins a spin awards over its falls (``scatters =
        "every_fall"`` under a cascade), not by a scatter count.
    awards_per_spin : Fraction
        E[free spins awarded per spin] over its falls (0 unless ``awards_by_spins``).
    award_odds : tuple of (str, int, Fraction) or None
        Per advertised award (``"H1 8 cells"``, ``"A 3 OAK"``, ``"S 4 scatter pay"``; the last pay entry stands
        for every larger count, ``"8+"``) its credits and P(a spin pays it in some fall), before the phase's
        multipliers; None when not counted (:func:`exact.enumeration.analyse_phase` with ``awards``).
    award_split : mapping str -> tuple of Fraction, or None
        Per award, P(a spin pays it and has award index i) at index i (the index of ``by_scatter``): what the
        chain needs for the odds per round; None when not counted.
    """

    method: str = ""
    combinations: int = 0
    falls: FallStatistics | None = None
    distribution: tuple = ()
    awards_by_spins: bool = False
    awards_per_spin: Fraction = Fraction(0)
    award_odds: tuple | None = None
    award_split: Mapping | None = None

    def win_probabilities(self) -> dict[int, Fraction]:
        """Win in credits -> probability (the award index summed out)."""
        out: dict[int, Fraction] = {}
        for _, w, p in self.distribution:
            out[w] = out.get(w, Fraction(0)) + p
        return dict(sorted(out.items()))
