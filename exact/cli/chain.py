"""``rtp chain``: the free-spin ladder (or retrigger chain) as an absorbing Markov chain, per trigger, and its graph;
``--round``: the whole game round (the spin, a respin, the prize wheels, the free spins) as one chain of the protocol.

Prints, for each trigger (FS count), the exact feature figures of
:class:`markov.chain.FeatureResult` (shown as decimals; ``--json`` gives the
exact fractions as ``"p/q"`` strings beside floats), the chain's size, its
checks (acyclic, absorbing) and the float cross-check through the
fundamental matrix.  ``--graphml FILE`` or ``--dot FILE`` writes the chain
("math flow chart").  A game with a retrigger table shows the retrigger
chain of :mod:`markov.retrigger` instead: with a cap its finite chain (graph
and cross-check as for the ladder), without one the closed form (no graph,
no float cross-check).  Exit 1 if the float cross-check differs from the exact
values by more than 1e-12 (relative), 2 on bad input.

Source: rules page sections 10 and 11.
"""
from __future__ import annotations

import json
import math
from fractions import Fraction

from exact.formatting import decimal_text, fraction_text, percent, significant
from exact.cli.args import UsageError, add_set_argument, refuse_unsupported
from exact.engine import analyse
from markov.chain import FeatureResult, Ladder
from markov.feature import feature_chain
from exact.bet_modes import buy_chain, mode_chain
from markov import protocol
from markov.graph import chain_graph, check_chain, cross_check, float_moments, graph_bytes, relative_error
from markov.round_chain import SPIN
from strips.model import DEFAULT_MODE
from markov.retrigger import RetriggerChain
from markov.round import RoundResult, round_result
from exact.cli.outputs import check_output, protected_inputs, write_output
from strips.loader import load_math_set

#: relative tolerance of the float cross-check
TOLERANCE = 1e-12


def add_arguments(p) -> None:
    """Options of ``rtp chain``: ``--set``, ``--trigger N``, ``--graphml FILE`` | ``--dot FILE``, ``--json``."""
    add_set_argument(p)
    p.add_argument("--trigger", type=int, default=None, metavar="N",
                   help="only the feature started by N FS symbols (default: every trigger)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--graphml", metavar="FILE", help="write the chain as GraphML to FILE")
    out.add_argument("--dot", metavar="FILE", help="write the chain as Graphviz DOT to FILE")
    p.add_argument("--json", action="store_true", help="print one JSON object (exact values as 'p/q')")
    p.add_argument("--round", action="store_true",
                   help="the whole game round instead (the spin, a bet mode's respin, the prize wheels, the free "
                        "spins as one step each): one chain of the protocol, solved, checked and exported the same way")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--mode", default=None, metavar="NAME", help="with --round: the bet mode (default: the default mode)")
    which.add_argument("--buy", default=None, metavar="NAME",
                       help="with --round: a bought feature's round (the free spins its trigger starts, for its cost)")


def exact(x: Fraction) -> dict:
    """A Fraction as JSON: exact ``"p/q"`` text and a float for display."""
    return {"exact": fraction_text(x), "float": float(x)}


def feature_json(n: int, f: FeatureResult, r: RoundResult) -> dict:
    """JSON object of the feature of ``n`` FS: trigger probability (per base spin), win moments
    (credits per feature), RTP contribution (fraction of the bet), spins, KEYs and per-level figures."""
    return {
        "fs": n, "initial_spins": f.initial_spins, "trigger_probability": exact(r.trigger_prob[n]),
        "mean": exact(f.mean), "second": exact(f.second), "variance": exact(f.variance),
        "mean_in_bets": exact(f.mean / r.bet),
        "rtp_contribution": exact(r.trigger_prob[n] * f.mean / r.bet),
        "spins": exact(f.spins), "keys": exact(f.keys),
        "levels": [{"level": i + 1, "reach": exact(f.reach[i]), "final": exact(f.final_level[i]),
                    "spins": exact(f.spins_by_level[i]), "win": exact(f.win_by_level[i])}
                   for i in range(len(f.reach))],
    }


def feature_text(n: int, f: FeatureResult, r: RoundResult, multipliers, scatter: str = "scatter",
                 keys: bool = True) -> list[str]:
    """Text lines of the feature of ``n`` scatters (the figures of :func:`feature_json`, as decimals).

    ``scatter`` is the game's trigger symbol name; ``keys`` whether the game has KEY symbols
    (without, the expected KEY count is not shown).
    """
    p = r.trigger_prob[n]
    lines = [f"{n} {scatter}: {f.initial_spins} initial free spins, P(trigger) = {significant(p)} "
             f"(1 in {decimal_text(1 / p, 0, grouping=True)})" if p else
             f"{n} {scatter}: {f.initial_spins} initial free spins, P(trigger) = 0",
             f"  feature win      E = {decimal_text(f.mean, 6)} credits ({decimal_text(f.mean / r.bet, 6)} x bet), "
             f"SD = {math.sqrt(f.variance):.6f}",
             f"  RTP contribution {percent(p * f.mean / r.bet, 6)}",
             f"  free spins       E = {decimal_text(f.spins, 6)}"
             + (f";  KEY symbols E = {decimal_text(f.keys, 6)}" if keys else ""),
             "  level  multiplier  P(reach)     P(ends here)  E[spins]     E[win] credits"]
    for i in range(len(f.reach)):
        lines.append(f"  {i + 1:<6} x{multipliers[i]:<10} {decimal_text(f.reach[i], 8):<12} "
                     f"{decimal_text(f.final_level[i], 8):<13} {decimal_text(f.spins_by_level[i], 6):<12} "
                     f"{decimal_text(f.win_by_level[i], 6)}")
    return lines


def retrigger_json(model, r: RoundResult, chain: RetriggerChain) -> dict:
    """JSON object of the retrigger rule: table, cap, multiplier, E[R] per free spin and q per paid spin."""
    return {"retrigger": {"table": [list(row) for row in model.retrigger], "cap": chain.cap,
                          "multiplier": chain.multiplier,
                          "expected_extra_spins_per_free_spin": exact(r.retrigger_per_spin),
                          "initial_free_spins_per_round": exact(r.initial_free_spins),
                          "free_spins_per_round": exact(r.free_spins_played)}}


def retrigger_text(name: str, model, r: RoundResult, chain: RetriggerChain, graph) -> list[str]:
    """Header lines of ``rtp chain`` for free spins with retrigger (rule, E[R], q, chain size)."""
    table = ", ".join(f"{n} scatters +{e}" for n, e in model.retrigger)
    lines = [f"math set {name}: free spins with retrigger on one level, multiplier x{chain.multiplier}",
             f"  retrigger {table}; " + (f"at most {chain.cap} free spins per feature (cap)"
                                         if chain.cap is not None else "no cap"),
             f"  E[extra spins per free spin] = {decimal_text(r.retrigger_per_spin, 6)}; "
             f"initial free spins per paid spin q = {decimal_text(r.initial_free_spins, 6)}; "
             f"free spins per paid spin = {decimal_text(r.free_spins_played, 6)}"]
    if graph is None:
        lines.append("chain: uncapped branching process, solved in closed form (markov.retrigger)")
    else:
        lines.append(f"chain: {graph.number_of_nodes() - 1} transient states (spins left, spins played) + END, "
                     f"{graph.number_of_edges()} edges; acyclic, absorbing")
    return lines


def ladder_json(model, r: RoundResult, chain: Ladder) -> dict:
    """JSON object of the ladder: thresholds, spins and multipliers per level."""
    return {"thresholds": list(chain.thresholds), "spins": list(chain.spins), "multipliers": list(chain.multipliers)}


def ladder_text(name: str, model, r: RoundResult, chain: Ladder, graph) -> list[str]:
    """Header lines of ``rtp chain`` for the ladder (levels, thresholds, spins, multipliers, chain size)."""
    has_keys = bool(model.of_kind("key"))
    counter = f", KEY counter capped at {chain.cap}" if has_keys and chain.levels > 1 else ""
    return [f"math set {name}: free-spin ladder of {chain.levels} level{'s' if chain.levels > 1 else ''}",
            f"  thresholds {'/'.join(map(str, chain.thresholds[1:])) or '-'}, "
            f"spins {'/'.join(map(str, chain.spins[1:])) or '-'} after level 1, "
            f"multipliers {'/'.join(f'x{m}' for m in chain.multipliers)}",
            f"chain: {graph.number_of_nodes() - 1} transient states (level, spins left{counter}) + END, "
            f"{graph.number_of_edges()} edges; acyclic, absorbing"]


#: Chain kind (:data:`markov.feature.CHAINS`) -> its header as text lines and as JSON keys.
HEADERS = {Ladder.kind: (ladder_text, ladder_json), RetriggerChain.kind: (retrigger_text, retrigger_json)}


def run(args) -> int:
    """Solve the chain of a math set, print the feature figures, write the graph if asked.

    Returns 0, or 1 if the float cross-check exceeds :data:`TOLERANCE`.

    Raises
    ------
    UsageError
        Unknown ``--trigger``, an output file that is an input file of the
        math set, a directory or in a missing directory, or an engine input
        the chain rejects.
    MathSetError
        Bad math-set files (from the loader).
    """
    ms = load_math_set(args.set)
    refuse_unsupported(ms, 'chain')
    model = ms.model
    target = args.graphml if args.graphml is not None else args.dot
    protected = protected_inputs(args.set, ms)
    out_path = None if target is None else check_output(target, "rtp chain", "file", protected)
    if args.round:
        return run_round(args, ms, target, out_path, protected)
    if args.mode is not None or args.buy is not None:
        raise UsageError(f"rtp chain: --{'mode' if args.mode is not None else 'buy'} is an option of --round "
                         f"(the free-spin chain is the default mode's)")
    if not model.levels:     # no [free_spins]: an answer, not a refusal
        print(json.dumps({"set": ms.name, "free_spins": False}) if args.json else
              f"math set {ms.name}: no free spins: a round is one base spin and there is no feature chain")
        return 0
    try:
        an = analyse(ms)
        rr = round_result(model, an.base, an.levels)
        chain = feature_chain(model, an.levels)
    except ValueError as e:
        raise UsageError(f"rtp chain: {ms.name}: {e}") from None
    finite = getattr(chain, "finite", True)
    if target is not None and not finite:
        raise UsageError(f"rtp chain: {ms.name}: {chain.infinite}: the chain has "
                         f"infinitely many states, so there is no graph to write (its figures are a closed form)")
    counts = sorted(rr.features)
    scatter = model.trigger_symbol.name if model.trigger_symbol else "scatter"
    has_keys = bool(model.of_kind("key"))
    if args.trigger is not None:
        if args.trigger not in rr.features:
            raise UsageError(f"rtp chain: --trigger must be one of {', '.join(map(str, counts))} "
                             f"({scatter} counts that start the free spins), got {args.trigger}")
        counts = [args.trigger]
    features = [rr.features[n] for n in counts]
    starts = sorted({f.initial_spins for f in features})
    graph = err = None
    status = "not applicable"
    if finite:
        graph = chain_graph(chain, starts)
        check_chain(graph)
        err = cross_check(graph, features)
        status = "PASS" if err <= TOLERANCE else "FAIL"
    text, header_json = HEADERS[chain.kind]
    if out_path is not None:
        write_output(out_path, graph_bytes(graph, "graphml" if args.graphml else "dot"), protected, "rtp chain")
    if args.json:
        out = {"set": ms.name}
        out.update(header_json(model, rr, chain))
        out.update({
            "chain": None if graph is None else {"states": graph.number_of_nodes() - 1,
                                                 "edges": graph.number_of_edges(),
                                                 "acyclic": True, "absorbing": True},
            "float_cross_check": {"max_relative_difference": err, "tolerance": TOLERANCE, "status": status},
            "triggers": [feature_json(n, rr.features[n], rr) for n in counts],
            "graph_file": target,
        })
        print(json.dumps(out, indent=2))
    else:
        print("\n".join(text(ms.name, model, rr, chain, graph)))
        if err is None:
            print("float cross-check: not applicable (closed form of the uncapped branching process)")
        else:
            print(f"float cross-check (scipy sparse LU of I - Q): max relative difference {err:.2e} "
                  f"(tolerance {TOLERANCE:g}) {status}")
        for n in counts:
            print()
            print("\n".join(feature_text(n, rr.features[n], rr, chain.multipliers, scatter, has_keys)))
        if target is not None:
            print()
            print(f"graph written to {target}")
    return 1 if status == "FAIL" else 0


#: The stages of the round's chain (:class:`markov.round_chain.RoundChain`) in words, before the prize wheels.
ROUND_STAGES = ("the spin", "the respin", "the counts that decide the features")


def run_round(args, ms, target, out_path, protected) -> int:
    """``rtp chain --round``: one bet mode's game round as a chain of the protocol (:func:`exact.bet_modes.mode_chain`):
    its size and checks, the exact moments (:func:`markov.protocol.features`) beside the float cross-check through the
    fundamental matrix (:func:`markov.graph.float_moments`), P(reach) and E[win] of each stage, the graph if asked.

    Returns 0, or 1 if the float cross-check exceeds :data:`TOLERANCE`.
    """
    if args.buy is not None:
        return run_buy(args, ms, target, out_path, protected)
    name = args.mode or DEFAULT_MODE
    if name not in ms.mode_names:
        raise UsageError(f"rtp chain: --mode must be one of {', '.join(ms.mode_names)}, got {name}")
    try:
        chain, rr = mode_chain(ms, name)
    except ValueError as e:
        raise UsageError(f"rtp chain: {ms.name}: {e}") from None
    figures, = protocol.features(chain, [0])
    graph = chain_graph(chain, [0])
    check_chain(graph)
    fm, fs = float_moments(graph, chain.node_id(SPIN))
    err = max(relative_error(fm, figures.mean), relative_error(fs, figures.second))
    status = "PASS" if err <= TOLERANCE else "FAIL"
    cost = ms.mode(name).model.bet
    words = ROUND_STAGES + tuple(f"prize wheel {w.name}" for w in ms.mode(name).model.wheels) + ("the free spins",)
    stages = [(w, figures.reach[i], figures.win_by_level[i]) for i, w in enumerate(words) if figures.reach[i]]
    if out_path is not None:
        write_output(out_path, graph_bytes(graph, "graphml" if args.graphml else "dot"), protected, "rtp chain")
    if args.json:
        print(json.dumps({"set": ms.name, "mode": name, "round": {
            "chain": {"states": graph.number_of_nodes() - 1, "edges": graph.number_of_edges(),
                      "acyclic": True, "absorbing": True},
            "float_cross_check": {"max_relative_difference": err, "tolerance": TOLERANCE, "status": status},
            "mean": exact(figures.mean), "second": exact(figures.second), "rtp": exact(figures.mean / cost),
            "stages": [{"stage": w, "reach": exact(p), "win": exact(x)} for w, p, x in stages]},
            "graph_file": target}, indent=2))
    else:
        print(f"math set {ms.name}, mode {name}: the game round as one chain (the spin, a respin, the prize wheels, "
              f"the free spins as one step rewarded with the feature's moments)")
        print(f"chain: {graph.number_of_nodes() - 1} states + END, {graph.number_of_edges()} edges; acyclic, absorbing")
        print(f"float cross-check (scipy sparse LU of I - Q): max relative difference {err:.2e} "
              f"(tolerance {TOLERANCE:g}) {status}")
        print(f"round win    E = {decimal_text(figures.mean, 6)} credits (RTP {percent(figures.mean / cost, 6)}), "
              f"E[W^2] = {decimal_text(figures.second, 2)}")
        print("  stage                                  P(reach)     E[win] credits")
        for w, p, x in stages:
            print(f"  {w:<38} {decimal_text(p, 8):<12} {decimal_text(x, 6)}")
        if target is not None:
            print()
            print(f"graph written to {target}")
    return 1 if status == "FAIL" else 0


def run_buy(args, ms, target, out_path, protected) -> int:
    """``rtp chain --round --buy NAME``: a bought feature's round as one chain (:func:`exact.bet_modes.buy_chain`: the
    free-spin chain started with the spins of the buy's trigger), solved exactly (:func:`markov.protocol.features`),
    checked against the float figures of its graph (:func:`markov.graph.cross_check`) and exported if asked; the RTP
    is the feature's mean over the buy's cost.

    Returns 0, or 1 if the float cross-check exceeds :data:`TOLERANCE`.
    """
    buys = {b.name: b for b in ms.model.buys}
    if args.buy not in buys:
        raise UsageError(f"rtp chain: --buy must be one of {', '.join(buys)}, got {args.buy}" if buys else
                         f"rtp chain: {ms.name} has no [buy]: --buy names a bought feature")
    try:
        chain, start = buy_chain(ms, args.buy)
    except ValueError as e:
        raise UsageError(f"rtp chain: {ms.name}: {e}") from None
    if not getattr(chain, "finite", True):
        raise UsageError(f"rtp chain: {ms.name}: {chain.infinite}: the buy's chain has infinitely many states, so "
                         f"there is no graph to check or write (rtp report gives the buy's exact figures)")
    figures, = protocol.features(chain, [start])
    graph = chain_graph(chain, [start])
    check_chain(graph)
    err = cross_check(graph, [figures])
    status = "PASS" if err <= TOLERANCE else "FAIL"
    cost = buys[args.buy].cost
    if out_path is not None:
        write_output(out_path, graph_bytes(graph, "graphml" if args.graphml else "dot"), protected, "rtp chain")
    if args.json:
        print(json.dumps({"set": ms.name, "buy": args.buy, "round": {
            "cost": cost, "trigger": buys[args.buy].trigger, "initial_spins": start,
            "chain": {"states": graph.number_of_nodes() - 1, "edges": graph.number_of_edges(),
                      "acyclic": True, "absorbing": True},
            "float_cross_check": {"max_relative_difference": err, "tolerance": TOLERANCE, "status": status},
            "mean": exact(figures.mean), "second": exact(figures.second), "rtp": exact(figures.mean / cost),
            "spins": exact(figures.spins)}, "graph_file": target}, indent=2))
    else:
        print(f"math set {ms.name}, buy {args.buy}: the bought round as one chain (the free spins that "
              f"{buys[args.buy].trigger} scatters start: {start} spins, for {cost:,} credits)")
        print(f"chain: {graph.number_of_nodes() - 1} states + END, {graph.number_of_edges()} edges; acyclic, absorbing")
        print(f"float cross-check (scipy sparse LU of I - Q): max relative difference {err:.2e} "
              f"(tolerance {TOLERANCE:g}) {status}")
        print(f"round win    E = {decimal_text(figures.mean, 6)} credits (RTP {percent(figures.mean / cost, 6)}), "
              f"E[W^2] = {decimal_text(figures.second, 2)}, E[spins] = {decimal_text(figures.spins, 6)}")
        if target is not None:
            print()
            print(f"graph written to {target}")
    return 1 if status == "FAIL" else 0
