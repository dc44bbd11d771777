"""Calibrate a grid game's RTP by one random feature's probabilities, from one certified simulation.

The round's RTP for a fixed choice is linear in the random features' probabilities: with the strata of
:mod:`proofs.grid_simulate_rounds` (the first drop wins or not, the feature drawn), whose probabilities
are ``P(win) p_f`` (``p_f`` the feature's probability on such a drop) and whose conditional means
``mu`` do not depend on the probabilities, scaling feature ``f``'s two probabilities by ``s`` gives

    RTP(s) = RTP(1) + (s - 1) sum over the two kinds of drop of P(kind) p_f (mu(kind, f) - mu(kind, none)).

One simulation gives every ``mu`` (the stratified, control-variate means), so ``s`` solving
``RTP(s) = target`` is read off; the probabilities are then rounded to exact fractions of denominator
at most ``--denominator`` and written as the ``"p/q"`` strings of the game file.  The calibrated set is
then checked by a fresh simulation with another seed (``rtp --set SET``): the README of the set shows
that check, whose 99% interval must hold the target.

Command::

    python benchmarks/calibrate_grid.py --set DIR --feature NAME --target 0.9662 --rounds N --seed S [--workers 2]
"""
from __future__ import annotations

from fractions import Fraction

from exact.grid_drop import first_drop
from exact.grid_rounds import round_tables
from exact.rules import WinCap, features_of, free_games_of, grid_config
from proofs.dask_runner import Cluster, run_tasks
from proofs.grid_simulate import split_tasks
from proofs.grid_simulate_rounds import TASK_ROUNDS, RoundStats, _Strata, columns, feature_of, round_task

__all__ = ["calibrate"]


#: Grid of the first rounding of a scaled probability (a simulated scale is a float): 1e-15, far below the
#: ``denominator`` of the written fraction.
GRID = 10**15


def _rounded(p: Fraction, scale: float, denominator: int) -> Fraction:
    """``p x scale`` as an exact fraction of denominator at most ``denominator``: rounded to the grid of
    1/:data:`GRID` in integers, then to its best rational approximation (no Fraction is made from a float).

    >>> _rounded(Fraction(1, 3), 1.5, 100)
    Fraction(1, 2)
    """
    return Fraction(round(p * GRID * scale), GRID).limit_denominator(denominator)


def calibrate(ms, feature: str, target: float, rounds: int, seed: int, cluster: Cluster | None = None,
              denominator: int = 100_000) -> dict:
    """The probabilities of ``feature`` (scaled together) that bring the default choice's RTP of ``ms`` to
    ``target`` (per bet), from ``rounds`` simulated rounds with ``seed``.

    Returns
    -------
    dict
        ``scale``, ``win``/``no_win`` (exact Fractions), ``rtp_before`` (simulated), ``slope`` (RTP per
        unit of scale), ``rounds``, ``seed``.

    Raises
    ------
    ValueError
        An unknown feature, a scale outside the probabilities' range.
    """
    cfg, feats, games = grid_config(ms.model), features_of(ms.model), free_games_of(ms.model)
    cap = WinCap.config(ms.model)
    rt = round_tables(cfg, feats, games, None if cap is None else cap.bets)
    names = [f.name for f in feats.features] if feats else []
    if feature not in names:
        raise ValueError(f"the game has no feature {feature!r} (its features: {', '.join(names) or 'none'})")
    fi = names.index(feature)
    fd = first_drop(cfg, distribution=False)
    st = RoundStats()
    for _, res in run_tasks(cluster or Cluster(workers=1), round_task, rt,
                            list(split_tasks(seed, 0, rounds, min(TASK_ROUNDS, -(-rounds // 2))))):
        st.add(res)
    p0 = fd.no_win
    weights = {}
    for won, pw in ((1, 1 - p0), (0, p0)):
        probs = [(i, Fraction(f.win if won else f.no_win)) for i, f in enumerate(feats.features)]
        for i, p in probs + [(-1, 1 - sum((p for _, p in probs), Fraction(0)))]:
            weights[won * 100 + i] = pw * p
    cols = columns(rt)
    S = _Strata(st, weights, float(fd.mean / (1 - p0)), len(cols))
    col = cols.index(f"T:{rt.default}") if rt.games else cols.index("B")
    mu = {s: S.means[s][col] for s in S.means}
    rtp = sum(S.w[s] * mu[s] for s in S.w) / cfg.bet
    f = feats.features[fi]
    slope = 0.0
    for won, pw in ((1, float(1 - p0)), (0, float(p0))):
        p = float(f.win if won else f.no_win)
        if p:
            slope += pw * p * (mu[won * 100 + fi] - mu[won * 100 - 1]) / cfg.bet
    if slope == 0:
        raise ValueError(f"{feature} does not move the RTP (its rounds pay as the others)")
    s = 1 + (target - rtp) / slope
    win, no_win = (_rounded(f.win, s, denominator), _rounded(f.no_win, s, denominator))
    if s < 0 or win > 1 or no_win > 1:
        raise ValueError(f"scale {s:.4f} of {feature}'s probabilities leaves [0, 1]: choose another feature")
    return {"scale": s, "win": win, "no_win": no_win, "rtp_before": rtp, "slope": slope, "rounds": st.rounds,
            "seed": seed, "strata": {feature_of(k): v for k, v in mu.items()}}
