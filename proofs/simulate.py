"""Monte Carlo simulation of whole game rounds, beside the exact values.

``rtp simulate [--set SET] [--rounds N] [--seed S] [--json]``

A round is simulated as the rules page plays it (sections 2, 3, 7-11): a base
spin (uniform independent stops), FISH values drawn per FISH symbol from the
phase's weight table, the collect, the FS count; a trigger starts the free
spins on the free-spin strips through the KEY-counter ladder (level 1 plays
the initial free spins, each later level starts iff the counter reaches its
threshold at the end of the level before, each level with its own weight
table and multiplier).

This module runs the simulation (seed streams, units, tasks on Dask) and
re-exports the names of the modules it is split into:
:mod:`proofs.simulate_tables` (the spin tables of one strip set),
:mod:`proofs.simulate_base` (the rules-page simulator and :class:`Tally`),
:mod:`proofs.simulate_modes` (the simulator of every rule: modes, buys,
respins, wheels, gamble, line games), :mod:`proofs.simulate_stats` (the
intervals) and :mod:`proofs.simulate_report` (the report and its verdict).

Vectorisation
-------------
Rounds run in streams of :data:`STREAM` rounds; stream ``i`` draws from its
own ``numpy.random.Generator`` seeded by ``SeedSequence(seed).spawn``, and the
tasks (ranges of streams, run in process or on Dask by :mod:`proofs.dask_runner`)
return exact integer tallies, so the result depends only on (seed, rounds):
not on the cluster, the number of workers or the task size.

A spin's ways pays are computed with per-reel-group tables.  The reels are
cut into contiguous groups (at most :data:`GROUP_LIMIT` stop combinations
each) and a stop combination of a group is one table row.  For each pay
symbol, with ``c_r`` the rows of reel ``r`` showing it or WILD, ``z_r =
[c_r == 0]`` and ``P_n`` its pay for OAK ``n``, the pay of section 6 is the
Horner form::

    pay = c_1 (P_1 z_2 + c_2 (P_2 z_3 + ... + c_R P_R))

and a group ``a..b`` contributes ``B_a = P_{a-1} z_a + A + M (P_b z_{b+1} +
B_{b+1}...)`` through two tables ``add`` and ``mul`` (``mul = prod c``), so
a spin costs one table row per group.  The tests check this against the
literal evaluator spin by spin.

Every rule of the game file: :func:`run_simulation` plays
each bet mode and buy as its own unit (:class:`ModeGame`, :class:`BuyGame`,
:func:`simulate_mode_block`): several scatters, ``counts_as_scatter``,
``trigger_reels``, ``multiplier_by_trigger``, respins with held reels, prize
wheels, the gamble policy; line games and combination WILD multipliers
through the literal window evaluator :class:`exact.windows.WindowEvaluator`.

Beyond the rules page: WILD multipliers (fixed or drawn per WILD or per
reel) are drawn per spin (:class:`WildWays`, each reel its own group); a
retrigger table plays the features in waves with the cap of
:mod:`markov.retrigger`; free spins on the base strips and scatter pays use
the same tables.

Statistics
----------
The verdict tests k figures at once (RTP, base-spin hit frequency, trigger
rate per FS count, level reach), each with an interval at confidence
``1 - 0.01 / k`` (Bonferroni), so all k hold together with probability at
least 99% whatever their dependence: a correct game FAILs for at most 1% of
seeds.  RTP: mean round win / bet with Catoni's interval using the exact
standard deviation of the round win (the engine's variance; the sample SD is
shown beside it): proven at its level for any tail of the round win
(:func:`proofs.simulate_stats.catoni_interval`, read from the rounds'
histogram of wins), where the normal interval is only asymptotically right and
misses too often on rare large wins (it is shown beside, not used).  Rates: Clopper-Pearson exact intervals (scipy.stats.beta).
Exact values: :func:`exact.engine.analyse` and
:func:`markov.round.round_result`; for a game with round rules
:func:`exact.bet_modes.analyse_mode` per mode, :func:`exact.bet_modes.analyse_buys`
and the gamble of :func:`exact.par.gamble_figures`.  With bet modes and buys
the family covers every figure of every unit (each mode's RTP, hit rate,
trigger, reach, respin, wheel and award rates; each buy's RTP and reach; the
gamble's RTP, whose interval uses an upper bound of its SD
(:func:`gamble_sd_bound`), and eligible rate), and ``--rounds`` is split evenly
over the units (:func:`split_rounds`).
"""
from __future__ import annotations

import time
from typing import Sequence

import numpy as np

from strips.limits import active as active_limits
from strips.model import DEFAULT_MODE, MathSet
from proofs.dask_runner import Cluster, progress_bar, run_tasks
from exact.rules import beyond_count_tables, initial_spins, round_rules, rules_of, simulation_cost
from proofs.simulate_tables import GROUP_LIMIT, WildDraw, segment_sums, spin_tables, spin_wins
from proofs.simulate_base import Game, Tally, prepare, simulate_block
from proofs.simulate_modes import (BuyGame, ModeGame, Unit, prepare_mode, respin_stops,
                                   simulate_buy_block, simulate_mode_block, split_rounds, stream_seed, units_of)
from proofs.simulate_stats import proportion_ci99
from proofs.simulate_report import (Exact, SimulationReport, exact_units, exact_values, format_report, report,
                                    report_units, split_text)


#: Rounds of one seed stream (fixed: a seed's results do not depend on how streams are grouped into tasks).
STREAM = 1 << 16
#: Streams per task by default (about a million rounds).
TASK_STREAMS = 16
#: Runs below this many rounds stay in process by default (a local cluster takes seconds to start).
SMALL_RUN = 20_000_000
DEFAULT_ROUNDS = 10_000_000
DEFAULT_SEED = 20240601


def is_plain(ms: MathSet) -> bool:
    """True for a ways game without the catalogue rules and the round rules: the fast tables of :class:`Game` play it.

    >>> from strips.loader import load_math_set
    >>> is_plain(load_math_set("rules_page")), is_plain(load_math_set("wheel_game"))
    (True, False)
    """
    return (not beyond_count_tables(ms.model) and not round_rules(ms.model)
            and not any(r.acts_on_round for r in rules_of(ms.model)))


def prepare_units(ms: MathSet, units: Sequence[Unit], limit: int = GROUP_LIMIT) -> tuple:
    """The prepared game of each unit: :class:`Game` (plain games), :class:`ModeGame` or :class:`BuyGame`."""
    out, default = [], None
    for u in units:
        if u.kind == "mode":
            out.append(prepare(ms, limit) if is_plain(ms) else prepare_mode(ms, u.name, limit))
        else:
            default = default or prepare_mode(ms, DEFAULT_MODE, limit)
            b = next(b for b in ms.model.buys if b.name == u.name)
            out.append(BuyGame(default, initial_spins(ms.mode(DEFAULT_MODE).model, b.trigger)))
    return tuple(out)


def simulate_game_block(game, n: int, rng: np.random.Generator) -> Tally:
    """``n`` rounds of a prepared unit: :func:`simulate_block`, :func:`simulate_mode_block` or :func:`simulate_buy_block`."""
    if isinstance(game, Game):
        return simulate_block(game, n, rng)
    if isinstance(game, ModeGame):
        return simulate_mode_block(game, n, rng)
    return simulate_buy_block(game, n, rng)


def _run_streams(games: tuple, task: tuple[int, int, int, int, int, int]) -> Tally:
    """One task on a worker: streams ``first .. last - 1`` of unit ``u`` (``rounds`` rounds, stream key ``key``)."""
    u, first, last, seed, key, rounds = task
    tally = Tally()
    for i in range(first, last):
        n = min(STREAM, rounds - i * STREAM)
        tally.add(simulate_game_block(games[u], n, np.random.default_rng(stream_seed(seed, i, key))))
    return tally


def simulate_units(ms: MathSet, rounds: Sequence[int], seed: int, units: Sequence[Unit], games: tuple | None = None,
                   workers: int | None = 1, progress: bool = False, cluster: Cluster | None = None,
                   task_streams: int | None = None) -> list[Tally]:
    """Simulate ``rounds[i]`` rounds of each unit (bet mode or buy) with seed ``seed``; one Tally per unit.

    Each unit's rounds are cut into streams of :data:`STREAM` rounds seeded by
    :func:`stream_seed`, and tasks are ranges of ``task_streams`` streams of
    one unit returning exact integer tallies, so every tally depends only on
    ``(seed, unit, its rounds)``: not on the cluster, the number of workers or
    the task size.

    Raises
    ------
    ValueError
        If a unit has fewer than 1 round or ``seed`` < 0, a rule the simulator
        cannot play, or the scheduler cannot be reached.
    """
    if any(r < 1 for r in rounds):
        raise ValueError("rounds must be 1 or more")
    if seed < 0:
        raise ValueError("seed must be 0 or more")
    cluster = cluster or Cluster(workers=workers)
    games = games if games is not None else prepare_units(ms, units)
    per = task_streams or TASK_STREAMS

    def tasks():   # generated as they are run: 10^13 rounds are 10^7 tasks, never held in a list
        for u, (unit, n) in enumerate(zip(units, rounds)):
            nstreams = -(-n // STREAM)
            for a in range(0, nstreams, per):
                yield u, a, min(a + per, nstreams), seed, unit.key, n

    tallies = [Tally() for _ in units]
    total = sum(rounds)
    bar = progress_bar(total, 0, "round", "simulate", progress)
    try:
        for task, t in run_tasks(cluster, _run_streams, games, tasks(), small=total < SMALL_RUN):
            tallies[task[0]].add(t)
            if bar is not None:
                bar.update(t.rounds)
    finally:
        if bar is not None:
            bar.close()
    return [t.canonical() for t in tallies]


def simulate(ms: MathSet, rounds: int, seed: int, workers: int | None = 1, game=None,
             progress: bool = False, cluster: Cluster | None = None, task_streams: int | None = None) -> Tally:
    """Simulate ``rounds`` whole game rounds of the default mode with seed ``seed``.

    The rounds are cut into streams of :data:`STREAM` rounds; stream ``i``
    draws from ``numpy.random.default_rng(SeedSequence(seed).spawn(...)[i])``
    and tasks are ranges of ``task_streams`` streams, so the tally depends
    only on ``(seed, rounds)``: not on the cluster, the number of workers or
    the task size.  :func:`simulate_units` runs every mode and buy.

    Parameters
    ----------
    game : Game or ModeGame, optional
        The prepared default mode (:func:`prepare_units`).
    workers : int, optional
        Shorthand for ``Cluster(workers=workers)`` when ``cluster`` is None.
    cluster : Cluster, optional
        Where the tasks run (:mod:`proofs.dask_runner`); small runs stay in process.
    task_streams : int, optional
        Streams per task (default :data:`TASK_STREAMS`).

    Raises
    ------
    ValueError
        If ``rounds`` < 1 or ``seed`` < 0, or the scheduler cannot be reached.
    """
    unit = Unit("mode", DEFAULT_MODE, 0)
    return simulate_units(ms, [rounds], seed, [unit], None if game is None else (game,), workers, progress,
                          cluster, task_streams)[0]


def run_simulation(ms: MathSet, rounds: int, seed: int, *, mode: str | None = None, buy: str | None = None,
                   cluster: Cluster | None = None, progress: bool = False, exact: Exact | None = None,
                   task_streams: int | None = None) -> SimulationReport:
    """Simulate every bet mode and buy of ``ms`` (or only ``mode`` / ``buy``) and compare with the engine.

    ``rounds`` is split evenly over the units (:func:`split_rounds`); each
    unit's streams are its own (:func:`stream_seed`), so a unit's figures
    depend only on the seed and its rounds.  ``seconds`` of the report times
    the simulation alone.

    Raises
    ------
    ValueError
        An unknown mode or buy, fewer rounds than units, a rule the simulator
        or the engine does not model, a pay too large for int64.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> rep = run_simulation(load_math_set("wheel_game"), 30_000, 1)
    >>> [u.rounds for u in rep.units], rep.passed
    ([10000, 10000, 10000], True)
    """
    cluster = cluster or Cluster(workers=1)
    units = units_of(ms, mode, buy)
    split = split_rounds(rounds, len(units))
    games = prepare_units(ms, units)
    exact = exact or exact_units(ms, units)
    refuse_costly_simulation(units, split, exact)
    start = time.perf_counter()
    tallies = simulate_units(ms, split, seed, units, games, cluster=cluster, progress=progress,
                             task_streams=task_streams)
    seconds = time.perf_counter() - start
    return report_units(ms, units, tallies, seed, exact, seconds, cluster.describe(small=rounds < SMALL_RUN),
                        split_text(units, split))

def refuse_costly_simulation(units, split, exact) -> None:
    """Refuse (ValueError, one line) a simulation whose estimated seconds (:func:`exact.rules.estimates.simulation_cost`:
    the rounds x the spins a round by the exact chain's expectation) are above ``--max-seconds``, before any round.

    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> units = units_of(ms, None, None)
    >>> refuse_costly_simulation(units, [10 ** 6], exact_units(ms, units)) is None
    True
    """
    rows = []
    for u, rounds in zip(units, split):
        fig = (exact.modes if u.kind == "mode" else exact.buys).get(u.name)
        played = getattr(getattr(fig, "round", None), "free_spins_played", None)
        if played is None:         # a buy: its feature's spins (every round plays it)
            played = getattr(getattr(fig, "feature", None), "spins", 0) or 0
        rows.append((u.name, rounds, 1 + float(played)))
    cost, limit = simulation_cost(rows), active_limits().seconds
    if limit is not None and cost.estimate > limit:
        raise ValueError(cost.refusal(limit))


#: This module's names and those of its split modules importable from here.
__all__ = ['Tally', 'WildDraw', 'exact_units', 'exact_values', 'format_report', 'is_plain', 'prepare',
           'prepare_mode', 'prepare_units', 'proportion_ci99', 'report', 'report_units', 'respin_stops',
           'run_simulation', 'segment_sums', 'simulate', 'simulate_game_block', 'simulate_mode_block',
           'simulate_units', 'spin_tables', 'spin_wins', 'split_rounds', 'split_text', 'units_of']
