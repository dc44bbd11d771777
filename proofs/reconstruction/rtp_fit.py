"""Fit the pay symbols at unseen strip positions to a target RTP of the whole game (the reconstruction's
last step; ``rtp tune``, RTP variants of a finished set, is :mod:`exact.variants`).

The RTP of a game round is (rules page sections 2, 9-11)

    RTP = (E[base ways] + E[base collect] + sum_n P(n FS) E[free spins | n]) / bet,
    E[free spins | n] = sum_L E[spins on level L | n] * m_L * (E[bonus ways] + E[collect_L]).

Exchanging one pay symbol for another at a position that shows no special
symbol changes neither the FS or KEY counts of any window (so neither the
trigger probabilities nor the spins expected on each level) nor any collect
figure.  Hence, exactly,

    RTP = (A + E[base ways] + C * E[bonus ways]) / bet,
    C = sum_n P(n FS) sum_L E[spins on level L | n] * m_L,

with A and C taken once from the exact engine (:func:`exact.engine.analyse`)
and the free-spin chain (:func:`markov.round.round_result`) on the untuned
set.  The two ways means come from the exact closed form of
:mod:`proofs.reconstruction.ways`, updated per move.  The search compares candidates in
floats built from these exact numerators (a speed choice); the returned RTP is
recomputed from scratch by the engine and the chain, exactly.

Source: rules page sections 2, 6, 9, 10, 11; the RTP target (an assumption: the page publishes no RTP).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exact.engine import analyse
from proofs.reconstruction.common import INNER_TOLERANCE, MAX_TUNING_STEPS, STRIP_SETS, aus_run_ok, math_set
from proofs.reconstruction.ways import WaysState
from strips.model import GameModel
from markov.moments import PAYS
from markov.round import round_result


@dataclass(frozen=True)
class FitResult:
    """Outcome of :func:`fit_rtp`.

    Attributes
    ----------
    strips : dict str -> list of list of str, shape (5, 100) each
    rtp_untuned, rtp : Fraction
        Exact RTP (fraction of 1) before and after, from the engine and the chain.
    steps, moves : int
        Candidate moves tried, moves kept.
    """

    strips: dict
    rtp_untuned: Fraction
    rtp: Fraction
    steps: int
    moves: int


def exact_rtp(model: GameModel, strips: dict) -> Fraction:
    """Exact RTP of the whole game of in-memory strips: engine + free-spin chain."""
    ms = math_set(model, strips)
    ga = analyse(ms)
    return round_result(model, ga.base, ga.levels).rtp


def linear_form(model: GameModel, strips: dict) -> tuple[Fraction, Fraction, Fraction]:
    """(A, C, RTP) of the module docstring for a strip set, exact.

    Raises
    ------
    ValueError
        If the levels' ways means are not the level multiplier times one
        common bonus ways mean (they share the free-spin strips).
    """
    ms = math_set(model, strips)
    ga = analyse(ms)
    rr = round_result(model, ga.base, ga.levels)
    mults = [lv.multiplier for lv in model.levels]
    bonus_ways = ga.levels[0].parts[PAYS] / mults[0]
    if any(pa.parts[PAYS] != m * bonus_ways for pa, m in zip(ga.levels, mults)):
        raise ValueError("level ways means are not multiples of one bonus ways mean")
    c = sum((rr.trigger_prob[n] * sum((s * m for s, m in zip(f.spins_by_level, mults)), Fraction(0))
             for n, f in rr.features.items()), Fraction(0))
    a = rr.mean - ga.base.parts[PAYS] - c * bonus_ways
    return a, c, rr.rtp


def fit_rtp(model: GameModel, strips: dict, observations: dict, target: Fraction, rng: np.random.Generator,
            tolerance: Fraction | None = None, max_steps: int | None = None) -> FitResult:
    """Seeded local search over pay symbols at unseen positions until |RTP - target| <= tolerance.

    Parameters
    ----------
    model : GameModel
    strips : dict str -> list of list of str
        ``"base"`` and ``"bonus"`` strips, shape (5, 100) each; not modified.
    observations : dict str -> proofs.reconstruction.reconstruct.Observation
        The published positions, which are never changed.
    target : Fraction
        RTP to reach, a fraction of 1 (0.96 = 96%).
    rng : numpy.random.Generator
        Source of every random choice (position, new symbol).
    tolerance, max_steps : optional
        Defaults: ``proofs.reconstruction.reconstruct.INNER_TOLERANCE`` and ``MAX_TUNING_STEPS``.

    Returns
    -------
    FitResult

    Raises
    ------
    ValueError
        If the search does not get within the tolerance in ``max_steps``.

    Notes
    -----
    A move puts a different pay symbol at one unseen position holding a pay
    symbol (never more than 3 AUS symbols in sequence) and is kept only if it
    brings the RTP closer to the target.
    """

    tolerance = INNER_TOLERANCE if tolerance is None else tolerance
    max_steps = MAX_TUNING_STEPS if max_steps is None else max_steps
    a, c, rtp0 = linear_form(model, strips)
    states = {s: WaysState(model, strips[s]) for s in STRIP_SETS}
    pay_names = states["base"].pay_names
    aus = frozenset(model.strip_rules.max_run_symbols)
    movable = [(s, r, p) for s in STRIP_SETS for r in range(len(strips[s])) for p in range(len(strips[s][r]))
               if (r, p) not in observations[s].known and strips[s][r][p] in pay_names]
    d = states["base"].denominator
    if states["bonus"].denominator != d:
        raise ValueError("base and bonus strips of different lengths")
    # float objective from exact integer numerators: error of bet x RTP x D
    a_d, c_f, goal = float(a * d), float(c), float(model.bet * target * d)

    def error() -> float:
        return abs(a_d + states["base"].numerator + c_f * states["bonus"].numerator - goal)

    limit = float(model.bet * tolerance * d)
    err, steps, moves = error(), 0, 0
    while err > limit and steps < max_steps:
        steps += 1
        s, r, p = movable[int(rng.integers(len(movable)))]
        st = states[s]
        old = st.strips[r][p]
        new = pay_names[int(rng.integers(len(pay_names)))]
        if new == old or not aus_run_ok(st.strips[r], p, new, aus):
            continue
        st.set(r, p, new)
        e = error()
        if e < err:
            err, moves = e, moves + 1
        else:
            st.set(r, p, old)
    tuned = {s: [list(reel) for reel in states[s].strips] for s in STRIP_SETS}
    rtp = exact_rtp(model, tuned)
    if abs(rtp - target) > tolerance:
        raise ValueError(f"tuning stopped after {steps} steps at RTP {float(rtp):.6%}, "
                         f"target {float(target):.4%} +/- {float(tolerance):.5%}")
    return FitResult(tuned, rtp0, rtp, steps, moves)
