"""Timing of the free-spin ladder chain (opt-in; not part of the test run).

Usage::

    python benchmarks/bench_markov.py [--set SET] [--repeat N]

With a math set whose strips load, times the exact solver on the engine's
level splits; otherwise (or with ``--synthetic``) on the rules-page ladder
with synthetic splits whose denominators are as large as the engine's
(strip length 100 on 5 reels, fish weights summing to 1000).  Prints the
median wall time of: the exact solve of all triggers (``feature_results``),
the whole round (``round_result``), the graph build and the float
cross-check.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from fractions import Fraction

from strips.errors import MathSetError
from markov.moments import CountSplit
from markov.chain import feature_results, ladder_of, model_ladder
from markov.graph import chain_graph, cross_check
from strips.loader import bundled_path, load_math_set, parse_game


def synthetic_split(rng: random.Random, multiplier: int) -> CountSplit:
    """P(k KEY), k = 0..3, over 100^5 stop combinations; win moments over fish weights 1000^3."""
    den = 100 ** 5
    a = [rng.randint(1, den // 20) for _ in range(3)]
    prob = tuple(Fraction(x, den) for x in [den - sum(a)] + a)
    win = tuple(Fraction(rng.randint(1, 10 ** 16) * multiplier, den * 1000 ** 3) for _ in prob)
    win2 = tuple(Fraction(rng.randint(1, 10 ** 22) * multiplier ** 2, den * 1000 ** 6) for _ in prob)
    return CountSplit(prob, win, win2)


def timed(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", default=None)
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--synthetic", action="store_true")
    args = p.parse_args()
    analysis = None
    if not args.synthetic:
        try:
            ms = load_math_set(args.set)
            from exact.engine import analyse
            analysis = analyse(ms)
            model = ms.model
        except MathSetError as e:
            print(f"(math set not loadable: {e}; using synthetic splits)")
    if analysis is None:
        path = bundled_path("rules_page") / "game.toml"
        model = parse_game(path.read_bytes(), str(path))
        rng = random.Random(1)
        ladder = model_ladder(model, [synthetic_split(rng, lv.multiplier) for lv in model.levels])
        source = "synthetic splits"
    else:
        ladder = ladder_of(model, analysis.levels)
        source = f"engine splits of {ms.name}"
    starts = sorted({n for _, n in model.trigger})
    t_solve, feats = timed(lambda: feature_results(ladder, starts), args.repeat)
    print(f"ladder {source}; starts {starts}")
    print(f"exact solve, all triggers   {t_solve * 1e3:8.2f} ms")
    if analysis is not None:
        from markov.round import round_result
        t_round, _ = timed(lambda: round_result(model, analysis.base, analysis.levels), args.repeat)
        print(f"round_result                {t_round * 1e3:8.2f} ms")
    t_graph, g = timed(lambda: chain_graph(ladder, starts), max(1, args.repeat // 4))
    t_check, err = timed(lambda: cross_check(g, feats), max(1, args.repeat // 4))
    print(f"graph build                 {t_graph * 1e3:8.2f} ms ({g.number_of_nodes()} nodes, "
          f"{g.number_of_edges()} edges)")
    print(f"float cross-check           {t_check * 1e3:8.2f} ms (max relative difference {err:.2e})")
    print(f"largest denominator digits  {max(len(str(f.second.denominator)) for f in feats)}")


if __name__ == "__main__":
    main()
