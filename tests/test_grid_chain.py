"""The round of small grid games as an absorbing chain, against a literal replay of every board and
refill truncated at k evaluations (within the replay's remaining tail)."""
from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import numpy as np
import pytest

from exact.grid_chain import build_chain, chain_figures, round_distribution, state_means, truncated
from exact.grid_sim import codes_of, evaluate_batch, grid_tables, move
from exact.rules.grid import evaluate, grid_config_of, refilled
from tests.gen_grid import random_config


def replay(cfg, table, key, depth):
    """Literal replay of every board and refill to ``depth`` evaluations: (mean win so far, P(award)
    so far, E[min(evaluations, depth)], tail mass = P(more than ``depth`` evaluations))."""
    w = dict(cfg.table(table))
    total = sum(w.values())
    syms = [s for s in cfg.pay_symbols if w[s]]
    start = [None] * cfg.cells
    if key:
        start[cfg.path[0]] = cfg.key
    out = {"mean": Fraction(0), "award": Fraction(0), "evals": Fraction(0), "tail": Fraction(0)}
    ended = out["ended"] = {}       # round win -> P(the cascade ended within depth with that win)

    def go(grid, holes, p, step, won=0):
        for fill in itertools.product(syms, repeat=len(holes)):
            q = p
            for s in fill:
                q *= Fraction(w[s], total)
            g = refilled(grid, holes, fill)
            ev = evaluate(cfg, g)
            out["evals"] += q
            out["mean"] += q * ev.pay
            if not ev.wins:
                if key and g[cfg.path[-1]] == cfg.key:
                    out["award"] += q
                ended[won] = ended.get(won, Fraction(0)) + q
                continue
            if step + 1 == depth:
                out["tail"] += q
                continue
            go(ev.moved, ev.refill, q, step + 1, won + ev.pay)

    go(tuple(start), [c for c in cfg.path if start[c] is None], Fraction(1), 0)
    return out


CASES = [(2, 3, 2, 4), (3, 2, 2, 4), (2, 3, 3, 3), (1, 4, 3, 4)]


@pytest.mark.parametrize("rows,columns,symbols,depth", CASES)
def test_the_chain_equals_a_truncated_literal_replay_within_its_tail(rows, columns, symbols, depth):
    rng = random.Random(rows * 100 + columns * 10 + symbols)
    base = random_config(rng, rows, columns, symbols=symbols, key=True)
    cfg = grid_config_of(rows, columns, dict(base.pays), wild="W", weights=dict(base.table("base")), key="K")
    f = chain_figures(cfg)
    ch = build_chain(cfg)
    r = replay(cfg, "base", True, depth)
    r.pop("ended")
    assert truncated(ch, depth) == r                       # the chain's first k evaluations, exactly
    assert f.exact
    tail = r["tail"]
    assert r["award"] <= f.p_free_spins <= r["award"] + tail
    assert r["evals"] <= f.evaluations
    means = state_means(ch)
    assert f.mean == means[0]
    assert r["mean"] <= f.mean <= r["mean"] + tail * max(means)   # the tail pays at most its best state


def test_deeper_replays_close_on_the_chain():
    cfg = grid_config_of(1, 3, {"A": (0, 0, 4), "B": (0, 0, 1)})
    f = chain_figures(cfg)
    gaps = [f.mean - replay(cfg, "base", False, d)["mean"] for d in (2, 4, 6, 8)]
    assert all(a > b > 0 for a, b in zip(gaps, gaps[1:]))
    assert f.mean == Fraction(15, 14)      # m0 = 5/8 + m1/4, m1 = 5/4 + m0/2 (the module's example, by hand)


def test_free_spins_add_spins_times_their_cascade():
    pays = {"A": (0, 0, 6), "B": (0, 0, 2)}
    with_fs = chain_figures(grid_config_of(2, 3, pays, key="K", free_spins=3))
    without = chain_figures(grid_config_of(2, 3, pays, key="K"))
    free = chain_figures(grid_config_of(2, 3, pays))      # a free spin: no key, the same table
    assert with_fs.mean == without.mean + with_fs.p_free_spins * 3 * free.mean
    assert with_fs.p_free_spins == without.p_free_spins > 0


def test_the_spiral_cycle_is_a_component_of_the_3x3_chain():
    """C K W / B B C / C C C after its evaluation is a state that returns to itself."""
    cfg = grid_config_of(3, 3, {"A": (0, 0, 20), "B": (0, 0, 10), "C": (0, 0, 5)}, key="K", free_spins=2)
    t = grid_tables(cfg)
    g = codes_of(cfg, "C K W B B C C C C".split())[None, :]
    pay, _, rm, nw = evaluate_batch(t, g)
    moved, _ = move(t, g, rm, nw)
    again = moved.copy()
    again[0, [6, 7, 8, 5]] = 2          # four C refilled
    assert (again == g).all()


def test_the_round_distribution_has_the_chain_s_mean_and_zero_mass():
    cfg = grid_config_of(2, 3, {"A": (0, 0, 6), "B": (0, 0, 2)}, key="K", free_spins=2)
    d, cut = round_distribution(cfg)
    f = chain_figures(cfg)
    assert cut < 1e-14 and abs(sum(d.values()) + cut - 1) < 1e-12
    assert abs(sum(w * p for w, p in d.items()) - float(f.mean)) < 1e-9
    assert abs(d[0] - float(f.p_zero)) < 1e-12


@pytest.mark.parametrize("rows,columns,symbols,depth", [(2, 3, 2, 5), pytest.param(1, 4, 3, 5, marks=pytest.mark.slow),
                                                       (3, 2, 2, 4)])   # the 1x4 grid with 3 symbols: about 11 s
def test_the_round_distribution_lies_within_a_truncated_literal_replay_and_its_tail(rows, columns, symbols, depth):
    """Each round win's probability is at least the replay's (cascades ended within ``depth``
    evaluations) and at most that plus the replay's tail; the cut mass is below 1e-15."""
    cfg = random_config(random.Random(rows * 7 + columns * 3 + symbols), rows, columns, symbols=symbols)
    d, cut = round_distribution(cfg)
    r = replay(cfg, "base", False, depth)
    assert cut < 1e-15 and abs(sum(d.values()) + cut - 1) < 1e-12
    assert set(r["ended"]) <= set(d)
    for w, p in d.items():
        low = float(r["ended"].get(w, 0))
        assert low - 1e-12 <= p <= low + float(r["tail"]) + 1e-12, (w, p, low)
    assert float(r["tail"]) < 0.5                    # the replay is deep enough to bound something


@pytest.mark.parametrize("cfg,depth,cap,tight", [
    (grid_config_of(1, 3, {"A": (0, 0, 4), "B": (0, 0, 1)}), 12, 9, True),
    (random_config(random.Random(27), 2, 3, symbols=2), 4, 15, False),
    (random_config(random.Random(29), 1, 4, symbols=3), 4, 10, False),
])
def test_the_capped_round_lies_within_a_truncated_literal_replay_and_its_tail(cfg, depth, cap, tight):
    """E[min(W, cap)] and P(W >= cap) of the chain's capped round: within the literal replay of every board
    and refill to ``depth`` evaluations (the rounds ended by then) and what its tail can add (at most the
    cap each), widened by the capped round's own proven bound."""
    from exact.grid_chain import capped_round
    d, cut, depth_ = round_distribution(cfg, depth=True)
    c = capped_round(d, cut, depth_, cap)
    r = replay(cfg, "base", False, depth)
    tail = r["tail"]
    low = sum((min(w, cap) * p for w, p in r["ended"].items()), Fraction(0))
    assert float(low) - c.bound <= c.mean <= float(low + cap * tail) + c.bound
    low2 = sum((min(w, cap) ** 2 * p for w, p in r["ended"].items()), Fraction(0))
    assert float(low2) - c.bound * cap <= c.second <= float(low2 + cap * cap * tail) + c.bound * cap
    reach = sum((p for w, p in r["ended"].items() if w >= cap), Fraction(0))
    assert float(reach) - c.bound / cap <= c.p_cap <= float(reach + tail) + c.bound / cap
    assert 0 < c.p_cap and c.mean < float(chain_figures(cfg).mean)     # the cap is reached and removes something
    assert c.bound < 1e-9 and (float(tail) * cap < 1e-4 or not tight)   # a replay deep enough to pin it


def test_a_capped_grid_report_is_chain_solved_not_simulated(tmp_path, capsys):
    from exact.cli import main
    from tests.gen_grid import write_grid
    d = write_grid(tmp_path / "g", rows=2, columns=3)
    (d / "game.toml").write_text((d / "game.toml").read_text().replace("[game]\n", "[game]\nmax_win = 5\n", 1))
    assert main(["report", "--set", str(d), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    cap = out["win_cap"]
    assert out["method"] == "chain" and cap["coins"] == 50 and 0 < cap["probability"] < 1
    assert out["rtp"] < float(Fraction(cap["rtp_uncapped"])) and out["bound"] < 1e-9
    assert abs(float(Fraction(cap["rtp_uncapped"])) - out["rtp"] - cap["removed_rtp"]) < 1e-12


def test_the_chain_limits_are_input_limits(tmp_path, capsys):
    """--max-scc 1 solves the 2x3 chain in floating point within its bound; --max-grid-states refuses
    the chain and the report is simulated; both listed among the input limits."""
    from exact.cli import main
    from tests.gen_grid import write_grid
    d = str(write_grid(tmp_path / "g", rows=2, columns=3))
    assert main(["report", "--set", d, "--json"]) == 0
    exact_ = json.loads(capsys.readouterr().out)
    assert main(["report", "--set", d, "--json", "--max-scc", "1"]) == 0
    approx = json.loads(capsys.readouterr().out)
    assert exact_["method"] == "exact" and approx["method"] == "chain"
    assert abs(approx["rtp"] - float(Fraction(exact_["rtp"]))) <= approx["bound"] / 10 + 1e-15
    from strips.limits import Limits, using
    from strips.errors import UnsupportedRule
    with using(Limits(grid_states=2)), pytest.raises(UnsupportedRule, match="--max-grid-states N"):
        chain_figures(random_config(random.Random(1), 2, 3))
    assert main(["report", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--max-scc N" in text and "--max-grid-states N" in text and "--chain-max" not in text
