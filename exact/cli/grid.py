"""The commands on a grid game (``[grid]``): ``rtp spin`` shows every evaluation of a cascade;
``rtp report`` solves the round's chain on small grids (exact, or within a stated bound) and runs the
certified simulation otherwise; ``rtp simulate`` runs the simulation."""
from __future__ import annotations

import json
from fractions import Fraction

from exact.cli.args import UsageError, add_cluster_arguments, cluster_of
from exact.grid import TooManyDrops, config_of, feature_start, grid_text, parse_cells, spin_cascade
from exact.rules import FREE_SPIN_GAMES as GAME_ORDER
from exact.rules import WinCap, features_of, free_games_of, free_start
from exact.grid_chain import active_bounds, capped_round, chain_figures, lava_moments, round_distribution, win_ranges
from exact.grid_drop import first_drop
from exact.export import grid_sheets
from exact.grid_rounds import round_tables
from proofs.grid_simulate import cheap_distribution, simulate_grid
from proofs.grid_simulate_rounds import simulate_rounds
from proofs.simulate import DEFAULT_SEED
from strips.errors import UnsupportedRule
from strips.limits import active
from strips.decimals import exact_text

#: RTP half-width (99%, per bet) of a simulated grid report: by default, and with --quick.
DEFAULT_HALFWIDTH, QUICK_HALFWIDTH = 0.001, 0.005


def spin(args, ms) -> int:
    """``rtp spin --set SET --cells "A B C / ..." [--refill S,S,...| --seed N] [--phase base|free]``: the grid,
    the wins, the removed cells, the new WILDs and the refills of every evaluation, and the total win."""
    cfg = config_of(ms)
    if args.stops is not None:
        raise UsageError(f"rtp spin: {ms.name}: a grid game has no reel strips: give --cells (or --seed N), "
                         f"not --stops")
    cells = None if args.cells is None else parse_cells(cfg, args.cells)
    refill = None if args.refill is None else [s.strip() for s in args.refill.replace(" ", ",").split(",") if s.strip()]
    if refill is not None:
        for s in refill:
            if s not in cfg.pay_symbols:
                raise UsageError(f"rtp: --refill: {s!r} is not a pay symbol (refills draw pay symbols only)")
    res = spin_cascade(ms, cells, refill, args.seed, "base" if args.phase == "base" else args.phase,
                       feature=getattr(args, "feature", None))
    pos = cfg.position
    evs = res.cascade.evaluations
    if args.json:
        out = {"set": ms.name, "phase": args.phase, "refills": res.source, "evaluations": [
            {"grid": [list(ev.grid[i * cfg.columns:(i + 1) * cfg.columns]) for i in range(cfg.rows)],
             "wins": [{"symbol": w.symbol, "n": w.n, "cells": [list(pos(c)) for c in w.cells], "pay": w.pay,
                       "wilds": [list(pos(c)) for c in w.wilds]} for w in ev.wins],
             "pay": ev.pay, "removed": [list(pos(c)) for c in ev.removed],
             "new_wilds": [list(pos(c)) for c in ev.new_wilds],
             "refill": [[*pos(c), s] for c, s in zip(ev.refill, _drawn(evs, k))]}
            for k, ev in enumerate(evs)],
            "win": res.cascade.win, "evaluation_count": len(evs), "free_spins": res.free_spins,
            **({"feature": res.feature, "drop": [list(res.drop[i * cfg.columns:(i + 1) * cfg.columns])
                                                 for i in range(cfg.rows)]} if res.feature else {})}
        print(json.dumps(out, indent=2))
        return 0
    print(f"math set {ms.name}, grid {cfg.rows}x{cfg.columns}, phase {args.phase}, refills {res.source}")
    if res.feature:
        print(f"\nthe drop before its feature ({res.feature})")
        for line in grid_text(cfg, res.drop):
            print("  " + line)
    for k, ev in enumerate(evs):
        print(f"\nevaluation {k + 1}")
        for line in grid_text(cfg, ev.grid):
            print("  " + line)
        if not ev.wins:
            print("  no win")
            continue
        for w in ev.wins:
            print(f"  win {w.symbol} x{w.n} at {' '.join(_rc(pos(c)) for c in w.cells)}: pay {w.pay}"
                  + (f" (WILDs at {' '.join(_rc(pos(c)) for c in w.wilds)} explode)" if w.wilds else ""))
        print(f"  removed      {' '.join(_rc(pos(c)) for c in ev.removed)}")
        print(f"  new WILDs    {' '.join(_rc(pos(c)) for c in ev.new_wilds) or 'none'}")
        print(f"  refilled     {' '.join(f'{_rc(pos(c))}={s}' for c, s in zip(ev.refill, _drawn(evs, k)))}")
    key = ""
    if cfg.key is not None and args.phase == "base":
        key = (f"; the key is on the path's end: {res.free_spins} free spins awarded" if res.free_spins
               else "; the key is not on the path's end: no free spins")
    print(f"\nwin {res.cascade.win} coins in {len(evs)} evaluations{key}")
    return 0


def _drawn(evs, k: int) -> list:
    """The symbols the evaluation ``k``'s refill drew: read off the next evaluation's grid."""
    return [evs[k + 1].grid[c] for c in evs[k].refill] if k + 1 < len(evs) else []


def _rc(rc) -> str:
    return f"[{rc[0]},{rc[1]}]"


def _q(x) -> str:
    return exact_text(x, ratio=True)


def add_report_arguments(p) -> None:
    """Options of ``rtp report`` that only grid games use (and the cluster of their simulation)."""
    p.add_argument("--quick", action="store_true", help=f"grid games simulated: half-width {QUICK_HALFWIDTH}")
    add_simulation_arguments(p)


def add_simulation_arguments(p) -> None:
    """``--target-halfwidth``, ``--seed`` and where the simulation of a grid game too large for its chain runs."""
    p.add_argument("--target-halfwidth", type=float, default=None, metavar="H",
                   help=f"grid games simulated: run until the RTP's 99%% half-width is below H (default "
                        f"{DEFAULT_HALFWIDTH}; rtp report --quick {QUICK_HALFWIDTH}) or --max-rounds")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"grid games simulated: the seed "
                   f"(default {DEFAULT_SEED})")
    add_cluster_arguments(p)


def add_simulate_arguments(p) -> None:
    """``rtp simulate --target-halfwidth H`` (grid games)."""
    p.add_argument("--target-halfwidth", type=float, default=None, metavar="H",
                   help="grid games: simulate until the RTP's 99%% half-width is below H (or --max-rounds) "
                        "instead of --rounds")


def _target(args):
    h = args.target_halfwidth
    if h is not None and not h > 0:
        raise UsageError(f"rtp: --target-halfwidth must be > 0, got {h}")
    return h


def _simulate(args, ms, cfg, target, rounds=None):
    try:
        return simulate_grid(cfg, args.seed, rounds=rounds, target=target,
                             max_rounds=active().rounds or 10 ** 15, cluster=cluster_of(args))
    except ValueError as e:
        raise UsageError(f"rtp: {ms.name}: {e}") from None


def _cap_bets(ms) -> int | None:
    cap = WinCap.config(ms.model)
    return None if cap is None else cap.bets


def _whole_rounds(ms) -> bool:
    """Whether the game's rounds need the whole-round simulation (random features, a choice of free-spin
    games or a win cap) rather than the plain cascade's."""
    return features_of(ms.model) is not None or free_games_of(ms.model) is not None or _cap_bets(ms) is not None


def _simulate_rounds(args, ms, cfg, target, rounds=None):
    feats, games, cap = features_of(ms.model), free_games_of(ms.model), _cap_bets(ms)
    try:
        return simulate_rounds(round_tables(cfg, feats, games, cap), first_drop(cfg, distribution=cheap_distribution(cfg)),
                               feats, games, args.seed, rounds=rounds, target=target,
                               max_rounds=active().rounds or 10 ** 15, cluster=cluster_of(args), cap_bets=cap)
    except ValueError as e:
        raise UsageError(f"rtp: {ms.name}: {e}") from None


def simulate(args, ms) -> int:
    """``rtp simulate`` on a grid game: the certified simulation (``--rounds`` or ``--target-halfwidth``)."""
    if getattr(args, "mode", None) or getattr(args, "buy", None):
        raise UsageError(f"rtp simulate: {ms.name}: a grid game has no bet modes or buys")
    cfg = config_of(ms)
    target = _target(args)
    run = _simulate_rounds if _whole_rounds(ms) else _simulate
    sim = run(args, ms, cfg, target, None if target else args.rounds)
    if args.json:
        print(json.dumps({"set": ms.name, **sim.to_json()}, indent=2))
    else:
        print(f"math set {ms.name}: grid {cfg.rows}x{cfg.columns} of independent cells, bet {cfg.bet} coins")
        print("\n".join(sim.lines()))
    return 0


def report(args, ms, emit=None) -> int:
    """``rtp report`` on a grid game: the chain's exact (or bounded) figures, else the simulation.
    ``emit``: given, receives the JSON figures (a dict) instead of their being printed (``rtp export``)."""
    if emit is not None:
        args.json = True
    show = (lambda out: print(json.dumps(out, indent=2))) if emit is None else emit     # noqa: E731
    cfg = config_of(ms)
    target = _target(args)
    if args.quick and target is None:
        target = QUICK_HALFWIDTH
    fd = first_drop(cfg, distribution=cheap_distribution(cfg))
    head = f"math set {ms.name}: grid {cfg.rows}x{cfg.columns} of independent cells, bet {cfg.bet} coins"
    figs, why = None, ""
    feats = features_of(ms.model)
    games = free_games_of(ms.model)
    start, choices, capped = None, {}, None
    if target is None:
        try:
            try:
                start = feature_start(cfg, feats)
            except TooManyDrops:
                raise                       # too many initial drops for the chain: the simulation below
            except ValueError as e:
                raise UsageError(f"rtp: {ms.name}: {e}") from None
            choices = _choices(cfg, feats, games, start)
            figs = choices[games.default][0] if games else chain_figures(cfg, start=start)
            if _cap_bets(ms) is not None:
                capped = _capped(cfg, start, choices, games, _cap_bets(ms) * cfg.bet)
        except UnsupportedRule as e:
            figs, why = None, str(e)
    if figs is None:
        run = _simulate_rounds if _whole_rounds(ms) else _simulate
        sim = run(args, ms, cfg, target or DEFAULT_HALFWIDTH)
        if args.json:
            show({"set": ms.name, **sim.to_json(), **({"chain_not_solved": why} if why else {})})
        else:
            print(head + ("\n" + f"(the round's chain is not solved: {why})" if why else ""))
            print("\n".join(sim.lines(args.digits)))
        return 0
    bet = cfg.bet
    exact_ = figs.exact and capped is None
    if capped is None:
        rtp, var, bound = figs.mean / bet, figs.variance / (bet * bet), figs.bound
        round_rtp = {g: f.mean / bet for g, (f, _) in choices.items()}
    else:       # the capped round from the chain's round distribution, within its proven bound
        top, top_dist = capped[games.default if games else ""]
        rtp, var = top.mean / bet, top.variance / (bet * bet)
        bound = max(figs.bound, top.bound / bet, top.variance_bound / (bet * bet))
        round_rtp = {g: c.mean / bet for g, (c, _) in capped.items()}
    hit = 1 - figs.p_zero
    try:
        if capped is not None:
            dist, cut = top_dist
        else:
            if games and games.default == "lava_lair":
                raise UnsupportedRule("the round distribution with Lava Lair's free spins is not computed",
                                      rule="a choice of free-spin games", analysis="report")
            dist, cut = round_distribution(cfg, start=start, **({"free_start": choices[games.default][1],
                                                                 "free_spins": games.game(games.default).spins}
                                                                if games else {}))
        no_dist = ""
    except UnsupportedRule as e:
        dist, cut, no_dist = None, None, str(e).removeprefix("unsupported rule: ")
    if args.json:
        num = _q if exact_ else float
        out = {"set": ms.name, "method": "exact" if exact_ else "chain", "rtp": num(rtp),
               "variance_per_bet2": num(var), "sd_per_bet": float(var) ** 0.5, "hit_frequency": num(hit),
               "p_free_spins": num(figs.p_free_spins), "evaluations_mean": num(figs.evaluations),
               "chain": {"states": figs.states, "free_spin_states": figs.free_states,
                         "largest_component": figs.largest, "max_scc": active_bounds()[0]},
               "first_drop": fd.figures()}
        if not exact_:
            out["bound"] = bound
        if capped is not None:
            out["win_cap"] = _cap_json(top, figs, bet, _cap_bets(ms))
        if games:
            out["free_spin_games"] = {g: _game_figures(f, games.game(g).spins, bet, num, round_rtp[g])
                                      for g, (f, _) in choices.items()}
            out["default_choice"] = games.default
            out["lowest_choice"] = min(round_rtp, key=round_rtp.get)
            out["unlock"] = dict(games.unlock)
            out["new_player"] = {"policy": NEW_PLAYER, "rtp": num(_new_player(games, round_rtp))}
        out["round_distribution"] = {"method": "chain, floating point", "not_computed": no_dist} if dist is None \
            else {"method": "chain, floating point", "cut_mass": cut,
                  "distribution": [[w, p] for w, p in dist.items()]}
        show(out)
        return 0
    d = args.digits
    how = ("exact Fractions" if figs.exact else f"floating point (a component of {figs.largest} states > "
           f"--max-scc {active_bounds()[0]}), every figure within {figs.bound:.1e} of the chain's solution")
    tag = "exact" if exact_ else "chain"
    one = lambda p: f"1 in {1 / float(p):,.2f}" if p else "never"      # noqa: E731
    lines = [head,
             f"method       {tag}: the round as an absorbing Markov chain of {figs.states:,} states "
             f"(+ {figs.free_states:,} of a free spin; largest strongly connected component {figs.largest}), "
             f"solved component by component in {how}",
             f"RTP          {100 * float(rtp):.{d}f}%" + (f"  = {_q(rtp)}" if exact_ else
                                                      f"  (within {bound:.1e} per bet)" if capped else ""),
             f"SD           {float(var) ** 0.5:.6f} per bet (variance {float(var):.6f})",
             f"hit frequency {100 * float(hit):.{d}f}% (P(round win > 0))",
             f"P(free spins) {100 * float(figs.p_free_spins):.{d}f}% ({one(figs.p_free_spins)})",
             f"evaluations  {float(figs.evaluations):.6f} per round (the base cascade; the last, without a win, "
             f"counted)",
             f"first drop   exact: P(no win) {float(fd.no_win):.6f} ({_q(fd.no_win)}), mean "
             f"{float(fd.mean) / bet:.6f} per bet ({_q(fd.mean / bet)})"]
    if fd.distribution is not None:
        lines.append("first drop distribution (win in coins: probability): " + ", ".join(
            f"{w}: {float(p):.6g}" for w, p in fd.distribution[:12]) + (" ..." if len(fd.distribution) > 12 else ""))
    if capped is not None:
        lines[3:3] = _cap_lines(top, figs, bet, _cap_bets(ms), d)
    if games:
        low = min(round_rtp, key=round_rtp.get)
        lines.append(f"free-spin games (the figures above are for the default choice, {games.default}; the lowest "
                     f"round RTP is the one a lab certifies):")
        for g, (f, _) in choices.items():
            gf = _game_figures(f, games.game(g).spins, bet, float, round_rtp[g])
            lines.append(f"  {g:<11} {games.game(g).spins} spins, unlocked at {dict(games.unlock)[g]} keys: round RTP "
                         f"{100 * gf['rtp']:.{d}f}%, an award pays {gf['award_mean_per_bet']:.6f} per bet"
                         + ("  (lowest)" if g == low else ""))
    if games:
        lines.append(f"  new player  round RTP {100 * float(_new_player(games, round_rtp)):.{d}f}% ({NEW_PLAYER})")
    if dist is None:
        lines.append(f"round win distribution  not computed: {no_dist}")
    else:
        lines.append(f"round win distribution{' (before the cap)' if capped else ''}  by forward propagation on the "
                     f"chain in floating point, "
                     f"{len(dist):,} win values, cut where the mass still cascading fell below 1e-15 (cut mass "
                     f"{cut:.1e})")
        for lo, hi, p in win_ranges(dist, bet):
            what = "win = 0" if hi == 0 else f"{lo} < win/bet < {hi}" if lo == 0 else f"{lo} <= win/bet < {hi}" if hi else f"win/bet >= {lo}"
            lines.append(f"  {what:<22} {p:.6g}")
    print("\n".join(lines))
    return 0


def _capped(cfg, start, choices: dict, games, cap: int) -> dict:
    """Per free-spin choice ("" without a choice): (the round under the win cap of ``cap`` coins from the
    chain's round distribution, (that distribution, its cut mass)).

    Raises
    ------
    strips.errors.UnsupportedRule
        Lava Lair among the choices (its round distribution is not computed), or a distribution too large.
    """
    out = {}
    for g in (games.games if games else (None,)):
        if g is not None and g.name == "lava_lair":
            raise UnsupportedRule("the round distribution a win cap needs, with Lava Lair's free spins",
                                  rule="a choice of free-spin games", analysis="report")
        extra = {"free_start": choices[g.name][1], "free_spins": g.spins} if g is not None else {}
        dist, cut, depth = round_distribution(cfg, start=start, depth=True, **extra)
        out["" if g is None else g.name] = (capped_round(dist, cut, depth, cap), (dist, cut))
    return out


def _cap_json(c, figs, bet: int, bets: int) -> dict:
    """JSON ``win_cap`` of a chain-solved capped round (floats within ``bound`` per bet; the uncapped RTP
    exact when the chain is)."""
    num = _q if figs.exact else float
    return {"bets": bets, "coins": c.cap, "probability": c.p_cap, "probability_bound": c.bound / c.cap,
            "rtp_uncapped": num(figs.mean / bet), "removed_rtp": float(figs.mean / bet) - c.mean / bet,
            "bound": c.bound / bet, "method": "chain, floating point, proven bound"}


def _cap_lines(c, figs, bet: int, bets: int, d: int) -> list[str]:
    """Text lines of a chain-solved capped round."""
    return [f"win cap      {bets:,} x bet ({c.cap:,} coins): reached in {100 * c.p_cap:.{d}f}% of rounds "
            f"(within {c.bound / c.cap:.1e}); the RTP without the cap {100 * float(figs.mean / bet):.{d}f}%"
            + (f" = {_q(figs.mean / bet)}" if figs.exact else "")
            + f", the cap removes {100 * (float(figs.mean / bet) - c.mean / bet):.{d}f} points",
            f"             (the capped figures from the chain's round distribution in floating point: E[min(W, "
            f"cap)], each probability's rounding and the cut mass bounded)"]


def _choices(cfg, feats, games, start) -> dict:
    """Per free-spin game (or {} without a choice): (the round's chain figures for that fixed choice, the
    exact distribution of a free spin's first grid)."""
    if games is None:
        return {}
    out = {}
    for g in games.games:
        if g.name == "lava_lair":         # its spins change the cascade itself: a chain of its own
            try:
                moments = lava_moments(cfg, feats)
            except ValueError as e:
                raise UsageError(f"rtp: free-spin game lava_lair: {e}") from None
            out[g.name] = (chain_figures(cfg, start=start, free_spins=g.spins, free_moments=moments), None)
            continue
        try:
            fs = free_start(cfg, feats, g)
        except ValueError as e:
            raise UsageError(f"rtp: free-spin game {g.name}: {e}") from None
        out[g.name] = (chain_figures(cfg, start=start, free_start=fs, free_spins=g.spins), fs)
    return out


#: The key meter's policy of a new player the report states.
NEW_PLAYER = ("the newest unlocked game at each of the first 16 awards (award a unlocks the games needing at "
              "most a keys), the round RTP averaged over those 16 awards")


def _new_player(games, round_rtp: dict):
    """The round RTP of :data:`NEW_PLAYER`: the mean over awards 1..16 of the RTP of the round whose award
    goes to the newest game unlocked by then (the first unlocked game before any is); ``round_rtp``: the
    round's RTP per fixed choice."""
    unlock = dict(games.unlock)
    order = sorted(unlock, key=lambda g: (unlock[g], GAME_ORDER.index(g)))
    total = 0
    for a in range(1, 17):
        open_ = [g for g in order if unlock[g] <= a] or order[:1]
        total += round_rtp[open_[-1]]
    return total / 16


def _game_figures(f, spins: int, bet: int, num, rtp) -> dict:
    """A free-spin game's figures: the round's RTP for that choice (``rtp``: capped by a win cap), the
    award's mean per bet (before the cap)."""
    award = f.free_mean * spins / bet
    return {"rtp": num(rtp), "spins": spins, "award_mean_per_bet": num(award),
            "p_free_spins": num(f.p_free_spins)}


def _run_probability(cfg, symbol: str, n: int) -> Fraction:
    """An exact lower bound of P(a round shows a win of ``n`` of ``symbol``): P(the initial drop shows a
    maximal run of exactly ``n`` of it at the start of the first line without the key's cell)."""
    w = dict(cfg.table("base"))
    total = sum(w.values())
    line = next((ln for ln in cfg.lines if len(ln) >= n and not (cfg.key and cfg.path[0] in ln)), None)
    if line is None:
        return Fraction(0)
    p = Fraction(w[symbol], total) ** n
    if n < len(line):
        p *= 1 - Fraction(w[symbol], total)
    return p


def _whole_round_figures(args, ms, cfg):
    """The figures comply checks on a grid game with random features, free-spin games or a win cap: the
    chain of the whole round where it is solved (no cap, small grid), else the certified simulation of
    whole rounds.  Returns (how, exact, {label: (value, (low, high))} of the RTP per free-spin choice,
    hit frequency, P(free spins), SD per bet) for the default choice; the RTP of every choice."""
    feats, games = features_of(ms.model), free_games_of(ms.model)
    bet = cfg.bet
    if _target(args) is None:
        try:
            try:
                start = feature_start(cfg, feats)
            except TooManyDrops:
                raise                       # too many initial drops for the chain: the simulation below
            except ValueError as e:
                raise UsageError(f"rtp comply: {ms.name}: {e}") from None
            full = _choices(cfg, feats, games, start) if games else {"": (chain_figures(cfg, start=start), None)}
            choices = {g: f for g, (f, _) in full.items()}
            figs = choices[games.default] if games else choices[""]
            exact_ = all(f.exact for f in choices.values())
            bound = max(f.bound for f in choices.values())
            means = {g: f.mean for g, f in choices.items()}
            if _cap_bets(ms) is not None:     # the capped round from the chain's distribution, within its bound
                capped = _capped(cfg, start, full, games, _cap_bets(ms) * bet)
                means = {g: c.mean for g, (c, _) in capped.items()}
                exact_, bound = False, max([bound] + [c.bound for c, _ in capped.values()])
            lo_hi = lambda x, scale=1: (float(x) / scale - bound / scale, float(x) / scale + bound / scale)  # noqa: E731
            rtps = {g: (m / bet if exact_ else float(m) / bet, lo_hi(m, bet)) for g, m in means.items()}
            return ("exact" if exact_ else f"chain, within {bound:.1e}", exact_, rtps,
                    (1 - figs.p_zero, lo_hi(1 - figs.p_zero)), (figs.p_free_spins, lo_hi(figs.p_free_spins)),
                    float(figs.variance / (bet * bet)) ** 0.5)
        except UnsupportedRule:
            pass
    sim = _simulate_rounds(args, ms, cfg, _target(args) or DEFAULT_HALFWIDTH)
    rtps = {g: (v["rtp"].value, v["rtp"].ci) for g, v in sim.choices.items()} if len(sim.choices) > 1 else \
        {"": (sim.rtp.value, sim.rtp.ci)}
    return (f"simulated, 99% intervals ({sim.rounds:,} rounds, seed {sim.seed})", False, rtps,
            (sim.hit_frequency.value, sim.hit_frequency.ci), (sim.p_free_spins.value, sim.p_free_spins.ci),
            sim.sd_per_bet)


def comply(args, ms, rules, chosen) -> int:
    """``rtp comply`` on a grid game: RTP, SD and hit frequency from the chain (exact, or within its bound)
    or the simulation (a rule passes only when its whole 99% interval passes); award odds by exact lower
    bounds from the initial drop (each win) and the free spins' probability (its interval).  With free-spin
    games the RTP of every choice is checked (a lab certifies the lowest); with random features an award's
    bound counts only drops no feature touches; with a win cap the maximum win is the cap."""
    cfg = config_of(ms)
    if _whole_rounds(ms):
        how, exact_, rtps, hit, pfs, sd = _whole_round_figures(args, ms, cfg)
    else:
        try:
            figs = chain_figures(cfg)
            lo_hi = lambda x, scale=1: (float(x) / scale - figs.bound / scale, float(x) / scale + figs.bound / scale)  # noqa: E731
            exact_ = figs.exact
            rtps = {"": (figs.mean / cfg.bet, lo_hi(figs.mean, cfg.bet))}
            hit = (1 - figs.p_zero, lo_hi(1 - figs.p_zero))
            pfs = (figs.p_free_spins, lo_hi(figs.p_free_spins))
            sd = float(figs.variance / (cfg.bet * cfg.bet)) ** 0.5
            how = "exact" if exact_ else f"chain, within {figs.bound:.1e}"
        except UnsupportedRule:
            sim = _simulate(args, ms, cfg, _target(args) or DEFAULT_HALFWIDTH)
            exact_ = False
            rtps, hit, pfs = {"": (sim.rtp, sim.rtp_ci99)}, (sim.hit_frequency, sim.hit_frequency_ci99), \
                (sim.p_free_spins, sim.p_free_spins_ci99)
            sd = sim.sd_per_bet
            how = f"simulated, 99% intervals ({sim.rounds:,} rounds, seed {sim.seed})"
    feats, cap = features_of(ms.model), _cap_bets(ms)
    untouched = 1 - sum((f.win for f in feats.features), Fraction(0)) if feats is not None else Fraction(1)

    def verdict(rule, lo, hi) -> bool:
        return (rule.min is None or lo >= rule.min) and (rule.max is None or hi <= rule.max)

    checks = []
    for r in rules:
        if chosen and r.jurisdiction not in [c.lower() for c in chosen]:
            continue
        if r.measure in ("rtp", "hit_frequency"):
            for g, (v, (lo, hi)) in (rtps.items() if r.measure == "rtp" else (("", hit),)):
                ok = verdict(r, Fraction(v), Fraction(v)) if exact_ else verdict(r, lo, hi)
                checks.append((r, r.measure + (f" ({g})" if g else ""), v, (lo, hi), ok))
        elif r.measure == "sd_per_bet":
            checks.append((r, "SD per bet", sd, None, True))
        elif r.measure == "award_odds":
            for s, pays in cfg.pays:
                for n in range(3, len(pays) + 1):
                    if pays[n - 1] > 0:
                        p = _run_probability(cfg, s, n) * untouched
                        checks.append((r, f"{n} {s} (lower bound)", p, (float(p), 1.0), verdict(r, p, 1)))
            if cfg.free_table:
                v, (lo, hi) = pfs
                checks.append((r, "free spins", v, (lo, hi), verdict(r, Fraction(v) if exact_ else lo, 1)))
        elif r.measure == "max_win_bets" and cap is not None:
            checks.append((r, "max win (the win cap)", Fraction(cap), None, r.max is None or cap <= r.max))
        elif r.measure == "max_win_bets":
            checks.append((r, "max win (no upper bound: a cascade can last any number of evaluations)",
                           float("inf"), None, r.max is None))
        # pattern_odds_ways: a ways-game rule; a grid game has no ways
    failed = [c for c in checks if not c[4]]
    if args.json:
        print(json.dumps({"set": ms.name, "passed": not failed, "figures": how, "checks": [
            {"rule": r.id, "jurisdiction": r.jurisdiction, "measure": r.measure, "item": item,
             "value": _q(v) if isinstance(v, Fraction) else v, "value_ci99": None if ci is None else list(ci),
             "pass": ok, "source": r.citation()} for r, item, v, ci, ok in checks]},
            indent=2, default=str))
        return 1 if failed else 0
    print(f"compliance of math set {ms.name}: {len(checks) - len(failed)} of {len(checks)} checks pass "
          f"(figures {how}; a simulated figure passes only when its whole interval does)")
    for r, item, v, ci, ok in checks:
        shown = f"{float(v):.6g}" + (f" [{ci[0]:.6g}, {ci[1]:.6g}]" if ci and not isinstance(v, Fraction) else "")
        print(f"  {r.id:<16} {r.jurisdiction:<13} {item:<40} {shown:<32} {r.limit_text():<22} "
              f"{'PASS' if ok else 'FAIL'}")
    return 1 if failed else 0


def export_sheets(args, ms, meta: dict) -> list:
    """The workbook of a grid game (``rtp export``): the sheets of :func:`exact.export.grid_sheets` built
    from the figures ``rtp report --json`` gives it (the chain's, or the certified simulation's with the
    options of ``rtp report``)."""
    figs: dict = {}
    if not hasattr(args, "digits"):
        args.digits = 6
    report(args, ms, emit=figs.update)
    return grid_sheets(figs, meta)
