"""Timing of the hold-and-win figures (opt-in; not part of the test run).

Usage::

    python benchmarks/bench_hold_and_win.py [--set SET] [--repeat N]

Prints the median wall time (and the spread) of: the base spin split by its coins' cells and the
chain together (``exact.hold_and_win.hold_and_win_section``, every triggering held set), the chain
alone (``markov.hold_and_win.final_law``), and the public worked example (15 one-row reels, p = 1/5,
3 respins, from 6 coins held).
"""
from __future__ import annotations

import argparse
import statistics
import time

import exact
from exact.engine import analyse_phase
from exact.hold_and_win import coin_masks, hold_and_win_section
from exact.rules import HoldAndWin
from markov.hold_and_win import final_law


def timed(fn, repeat: int) -> tuple[float, float, float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times), max(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="hold_and_win")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    ms = exact.load_math_set(args.set)
    model = ms.model
    config = HoldAndWin.config(model)
    base = analyse_phase(ms, model.base_phase)
    coin = model.code(config.symbol)
    masks = [tuple(int(m) for m in coin_masks(s, model.rows, coin)) for s in ms.strips[config.strips].codes]
    import itertools
    starts = [h for h in itertools.product(range(1 << model.rows), repeat=model.reels)
              if sum(bin(m).count("1") for m in h) >= config.trigger]
    rows = [("section (base split + chain, every trigger)", lambda: hold_and_win_section(ms, base.mean, base.second)),
            (f"chain alone ({len(starts):,} triggering held sets)", lambda: final_law(masks, model.rows, config.respins, starts)),
            ("worked example (15 cells, p = 1/5, 3 respins, 6 held)",
             lambda: final_law([(1, 0, 0, 0, 0)] * 15, 1, 3, [(1,) * 6 + (0,) * 9]))]
    for label, fn in rows:
        med, lo, hi = timed(fn, args.repeat)
        print(f"{label:58s} median {med:.3f} s (spread {lo:.3f}-{hi:.3f} s, {args.repeat} runs)")


if __name__ == "__main__":
    main()
