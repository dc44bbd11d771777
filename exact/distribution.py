r"""The whole win distribution: one spin of every phase exactly, the feature and the round.

The parts, one module each (this module keeps every name importable from here):

* :mod:`exact.one_spin` — one spin of a phase exactly: the dynamic programme over the reels
  (:func:`spin_distribution`, :class:`SpinDistribution`, the per-reel outcomes, :data:`MAX_DP_BYTES`);
* :mod:`exact.limbs` — exact integer weights as int64 limbs and the merging of equal rows;
* :mod:`exact.algebras` — the value algebras the feature is played in (exact Fractions, the largest
  win, the mass, the real FFT with a proven bound, the bound alone);
* :mod:`exact.feature_runner` — the feature through the game's chain (:mod:`markov.feature`, played by
  :func:`markov.protocol.run`) and the round: :func:`win_distribution`;
* :mod:`exact.distribution_results` — the results: :class:`GridDistribution`, :class:`WinDistribution`,
  win ranges and percentiles;
* :mod:`exact.distribution_views` — the figures as text and JSON (``rtp distribution``).

The endless retrigger's cycle-lemma sum is :func:`markov.retrigger.cycle_lemma_feature` (also
importable from here).

>>> from strips.loader import load_math_set
>>> ms = load_math_set("rules_page")
>>> d = spin_distribution(ms, ms.model.base_phase)
>>> sum(d.joint().values())
Fraction(1, 1)
"""
from __future__ import annotations

from exact.limbs import LIMB_BITS, from_limbs, limb_product, limb_sum, normalise, to_limbs
from exact.one_spin import (KEY_COUNT, MAX_DP_BYTES, SCATTER_COUNT, ReelOutcomes, SpinDistribution,
                            enumerated_spin_distribution, phase_outcomes, reel_outcomes, spin_distribution)
from exact.algebras import (BoundAlgebra, ExactAlgebra, GridPass, MassAlgebra, MaxAlgebra, SpectralAlgebra, Spectrum,
                            dyadic)
from exact.distribution_results import (DEFAULT_EDGES, PERCENTILES, TAIL_BETS, TRUNCATE_BELOW, GridDistribution,
                                        Percentile, WinDistribution, WinRange, sig_fraction)
from exact.feature_runner import (EXACT_GRID, EXACT_LIMIT, MAX_GRID, MAX_SPECTRAL_WORK, by_count, count_split,
                                  fast_length, tail_tilt, win_distribution)
from exact.distribution_views import (certain_text, distribution_json, distribution_text, frac_text, one_in_text,
                                      sig_float)
from markov.protocol import FeatureRun, run as run_feature
from markov.retrigger import MAX_CYCLE_COEFFICIENT, MAX_CYCLE_TERMS, cycle_lemma_feature, cycle_lemma_terms

__all__ = ["LIMB_BITS", "from_limbs", "limb_product", "limb_sum", "normalise", "to_limbs", "KEY_COUNT",
           "MAX_DP_BYTES", "SCATTER_COUNT", "ReelOutcomes", "SpinDistribution", "enumerated_spin_distribution",
           "phase_outcomes", "reel_outcomes", "spin_distribution", "BoundAlgebra", "ExactAlgebra", "GridPass",
           "MassAlgebra", "MaxAlgebra", "SpectralAlgebra", "Spectrum", "dyadic", "DEFAULT_EDGES", "PERCENTILES",
           "TAIL_BETS", "TRUNCATE_BELOW", "GridDistribution", "Percentile", "WinDistribution", "WinRange",
           "sig_fraction", "EXACT_GRID", "EXACT_LIMIT", "MAX_GRID", "MAX_SPECTRAL_WORK", "by_count", "count_split",
           "fast_length", "tail_tilt", "win_distribution", "certain_text", "distribution_json", "distribution_text",
           "frac_text", "one_in_text", "sig_float", "FeatureRun", "run_feature", "MAX_CYCLE_COEFFICIENT",
           "MAX_CYCLE_TERMS", "cycle_lemma_feature", "cycle_lemma_terms"]
