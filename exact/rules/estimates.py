"""Up-front cost estimates of the analyses themselves (not of one rule's keys): the free-spin ladder's chain as
the win distribution, the exact figures and the award odds play it, and the hold-and-win respins' exact
chain.  Each is computed from the parsed set alone (a few integer operations: no spin is evaluated) and
returned as :class:`~exact.rules.base.Cost` rows that :func:`exact.rules.registry.costs` adds to the rules'
own, so :func:`exact.rules.cost_refusal` refuses them in one line in the API and on the command line alike.

Each rate is calibrated on copies of the bundled sets grown along one axis (``tests/gen_costs.py``; README
"Input limits", the table of estimates against measured figures; ``benchmarks/bench_limits.py --costs``)
on the shared 2-core machine, and chosen so the estimate is at or above the measured figure at the large
end, where refusing matters.

>>> from strips.loader import load_math_set
>>> [c.limit for c in analysis_costs(load_math_set("rules_page"), "distribution")]
['seconds', 'memory']
>>> analysis_costs(load_math_set("rules_page"), "spin")
()
"""
from __future__ import annotations

from exact.rules.base import ENUMERATED, Cost, rule_config, seconds_of
from strips.limits import combinations_of

__all__ = ["ENUMERATION_SECONDS_PER_CELL", "ladder_units", "analysis_costs", "simulation_cost", "SPINS_PER_SECOND", "hold_and_win_units", "DISTRIBUTION_SECONDS_PER_UNIT",
           "DISTRIBUTION_MIB_PER_STATE", "DISTRIBUTION_BASE_MIB", "CHAIN_SECONDS_PER_UNIT", "ODDS_SECONDS_PER_UNIT",
           "HOLD_SECONDS_PER_UNIT"]

#: Seconds of the win distribution's feature pass per ladder unit (:func:`ladder_units`): every state of the
#: chain carries the round-win grid, whose length grows with the spins.  Calibrated: the rules-page game with
#: 100 initial spins and last threshold 100 (1.55e6 units) ran ``rtp distribution`` in 211 s at load 5-7.
DISTRIBUTION_SECONDS_PER_UNIT = 1.4e-4
#: MiB the win distribution holds per (KEY counter state x spin of the longest feature) (the live states'
#: grids), beyond :data:`DISTRIBUTION_BASE_MIB`.  Calibrated: 1.0 GiB peak at 101 counter states x 124 spins.
DISTRIBUTION_MIB_PER_STATE = 0.05
#: MiB of the win distribution of the bundled rules-page game (its one-spin tables and round grid): 390 MiB peak.
DISTRIBUTION_BASE_MIB = 400
#: Seconds of the exact figures' chain solve (``rtp report``: the ladder's moments) per ladder unit.
#: Calibrated: 440 initial spins and last threshold 440 (9.5e7 units, just under the chain-work limit) took
#: 112 s, so the default ``--max-chain-work`` admits about the default ``--max-seconds`` of exact figures.
CHAIN_SECONDS_PER_UNIT = 1.2e-6
#: Seconds of the award odds per round (``rtp comply``, ``rtp export``) per ladder unit and award: one exact
#: pass through the chain per award.  Calibrated: the 1.55e6-unit ladder (31 passes) ran ``rtp comply
#: --no-distribution`` in 14.3 s (4.7 s of CPU) at load 10, ``rtp report`` in 10.3 s (with the win
#: distribution ``rtp comply`` took 514 s: the distribution is the dear part, its own estimate).
ODDS_SECONDS_PER_UNIT = 1.5e-7
#: Seconds of the hold-and-win chain per unit of :func:`hold_and_win_units`.  Calibrated: the bundled
#: hold-and-win game with 100 and 300 respins ran ``rtp report`` in 31 s and 491 s at load 7-11.
HOLD_SECONDS_PER_UNIT = 6.5e-11

#: Spins (base spins and free spins) the simulator plays a second on the shared 2-core machine: the bundled
#: rules-page game ran 10^7 rounds (1.1 spins a round) in 1.9 s on the idle machine (5.8e6 spins/s); at the load
#: of 5-10 the engineers' sessions bring it is several times slower, so the estimate takes 1e6.
SPINS_PER_SECOND = 1e6

#: Seconds of the generic enumeration (the literal reading of every stop combination, :mod:`exact.enumeration`)
#: per stop combination and window cell.  Calibrated: the bundled tumble-anywhere game (6 x 5, two phases of
#: 262,144 combinations, cascades) ran ``rtp --set`` in 7.1 s of CPU (9.2 s wall at load 5), about 5.5 s of
#: them the enumeration: 3.5e-7 s a combination and cell, taken as 5e-7 for the load.
ENUMERATION_SECONDS_PER_CELL = 5e-7

#: The analyses that solve the ladder's chain exactly (its moments): every one that computes the exact figures.
CHAIN_ANALYSES = frozenset({"report", "check", "diff", "prove", "export", "comply", "chain", "simulate", "gamble",
                            "tune", "sensitivity"})
#: The analyses that also compute the award odds per round through the chain.
ODDS_ANALYSES = frozenset({"comply", "export"})


def ladder_units(model) -> tuple[int, int, int]:
    """``(units, counter states, spins of the longest feature)`` of a KEY-counter ladder's chain played from
    every distinct initial-spin count of the trigger: per start, (its spins plus every later level's) x
    (KEY counter states 0..cap) x the same spins again (the work per state grows with the spins: the grid of
    the round win, the digits of the exact numbers).  ``(0, 0, 0)`` for a game without free spins or with a
    retrigger (its own chain, bounded by ``--max-chain-work`` at its ``retrigger_cap``).

    >>> from strips.loader import load_math_set
    >>> ladder_units(load_math_set("rules_page").model)    # starts 10, 15 and 20, 24 later spins, cap 9
    (46130, 10, 44)
    """
    if not model.trigger or not model.levels or model.retrigger:
        return 0, 0, 0
    later = sum(lv.spins or 0 for lv in model.levels[1:])
    states = max((lv.threshold for lv in model.levels[1:]), default=0) + 1
    starts = sorted({n for _, n in model.trigger if n > 0})
    units = sum((n + later) * states * (n + later) for n in starts)
    return units, states, max(starts, default=0) + later


def hold_and_win_units(config, cells: int, combinations: int) -> int:
    """Work units of the hold-and-win chain's exact solve (:func:`markov.hold_and_win.final_law`): its numbers
    carry ``respins x cells x bits`` bits (bits of one respin's stop ``combinations``), each held set sums
    ``respins`` of them, and a product of two costs about their length^1.6 (Karatsuba); per cell of the window.

    >>> hold_and_win_units(type("C", (), {"respins": 3})(), 15, 10 ** 10) < hold_and_win_units(
    ...     type("C", (), {"respins": 300})(), 15, 10 ** 10)
    True
    """
    bits = config.respins * cells * max(combinations.bit_length(), 1)
    return int(cells * cells * config.respins * bits ** 1.6)


def _ladder(ms, analysis: str) -> list[Cost]:
    units, states, spins = ladder_units(ms.model)
    if not units:
        return []
    out = []
    where = f"the free-spin ladder's chain ({states:,} KEY counter states x {spins:,} spins)"
    if analysis == "distribution":
        out.append(Cost("seconds", seconds_of(units * DISTRIBUTION_SECONDS_PER_UNIT, 1.0),
                        f"the win distribution through {where}"))
        out.append(Cost("memory", DISTRIBUTION_BASE_MIB + -int(-states * spins * DISTRIBUTION_MIB_PER_STATE // 1),
                        f"the win distribution's grids through {where}"))
    elif analysis in CHAIN_ANALYSES:
        rate = CHAIN_SECONDS_PER_UNIT
        what = f"the exact figures through {where}"
        if analysis in ODDS_ANALYSES:
            awards = sum(1 for s in ms.model.symbols for x in s.pays if x) + 1
            rate += ODDS_SECONDS_PER_UNIT * awards
            what = f"the exact figures and {awards:,} award-odds passes per round through {where}"
        out.append(Cost("seconds", seconds_of(units * rate, 1.0), what))
    return out


def _hold_and_win(ms, analysis: str) -> list[Cost]:
    config = rule_config(ms.model, "hold and win")
    if config is None or analysis == "spin" or config.strips not in ms.strips:
        return []
    lengths = ms.strips[config.strips].lengths
    combos = 1
    for n in lengths:
        combos *= n
    cells = len(lengths) * ms.model.rows
    units = hold_and_win_units(config, cells, combos)
    return [Cost("seconds", seconds_of(units * HOLD_SECONDS_PER_UNIT, 1.0),
                 f"the hold-and-win chain ({config.respins:,} respins on {cells} cells)")]


def _enumeration(ms, analysis: str) -> list[Cost]:
    model = ms.model
    if analysis not in ENUMERATED or analysis in ("spin", "prove"):     # prove: checkpointed, on Dask, --max-combinations
        return []
    sets = dict.fromkeys([model.base_phase.strips] + [model.level_phase(lv).strips for lv in model.levels])
    combos = sum(combinations_of(ms.strips[s].lengths) for s in sets if s in ms.strips)
    cells = model.reels * model.rows
    return [Cost("seconds", seconds_of(combos * cells * ENUMERATION_SECONDS_PER_CELL, 1.0),
                 f"the enumeration of {combos:,} stop combinations of {len(sets)} strip sets through the literal "
                 f"reading ({cells} cells a window)")]


def analysis_costs(ms, analysis: str, enumerated: bool = False) -> tuple:
    """The up-front estimates (:class:`~exact.rules.base.Cost`) of ``analysis`` on the math set ``ms`` that belong
    to the analysis rather than to one rule's keys: the free-spin ladder's chain (the win distribution's seconds
    and memory; the exact figures' and award odds' seconds), the hold-and-win chain and, when ``enumerated`` (the
    game's phases are computed by the generic enumeration: :func:`exact.rules.registry.phase_path`), the enumeration
    of every strip set its phases spin.  ``()`` before the strips are read (a game model alone).  In well under a
    millisecond."""
    if not hasattr(ms, "strips"):
        return ()
    return tuple(_ladder(ms, analysis) + _hold_and_win(ms, analysis) + (_enumeration(ms, analysis) if enumerated else []))


def simulation_cost(units) -> Cost:
    """The simulation's estimated seconds: ``units`` are ``(name, rounds, spins per round)`` of each bet mode or
    buy simulated, the spins per round from the chain's expectation (1 + the exact expected free spins played
    per round, :attr:`markov.round.RoundResult.free_spins_played`), at :data:`SPINS_PER_SECOND`.  Made after the
    exact figures (the simulation needs them anyway) and before any round is played.

    >>> simulation_cost([("default", 10 ** 7, 1.1)]).estimate
    11
    >>> simulation_cost([("default", 10 ** 8, 7.0)]).refusal(120).split(" (")[0]
    'estimated 700 seconds for the simulation of 100,000,000 rounds'
    """
    units = list(units)
    spins = sum(r * s for _, r, s in units)
    rounds = sum(r for _, r, _ in units)
    return Cost("seconds", seconds_of(spins, SPINS_PER_SECOND),
                f"the simulation of {rounds:,} rounds ({spins / max(rounds, 1):.2f} spins a round by the exact "
                f"free-spin chain's expectation, {len(units):,} bet modes and buys)")
