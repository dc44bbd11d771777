"""The enumeration histogram: every stop combination of one phase, counted by what decides its win.

An independent check of the one-spin distribution of :mod:`exact.distribution`.  Every one of the
``L1 x ... x LR`` stop combinations (10^10 in the rules-page base game) is evaluated and counted in an integer histogram keyed by

    (ways pay in credits, KEY count, scatter count, number of each FISH symbol in view)

from which the exact distribution of the spin's win follows: the FISH values are drawn
independently of the stops (section 7), so a bin with FISH counts ``c`` contributes its
combinations times the distribution of the sum of ``c_f`` values of each FISH symbol ``f``, and
the win is ``multiplier x (ways + KEY count x FISH sum + scatter pay)`` (sections 8, 9).

Evaluation per combination (no product-of-sums anywhere): the per-stop window facts are read by
:func:`proofs.enumerate.window_tables`; the reels are split into a prefix (looped over, stop by
stop) and a suffix (a numpy grid of every suffix combination).  For every pay symbol and every
suffix combination the table ``h[suffix]`` holds the pay of the symbol's combination if it enters
the suffix running with ways 1 (``pay(OAK) x product of the suffix counts`` up to the reel where
it ends, section 6); a combination's ways pay is then, entry by entry, the pays of the symbols
that ended in the prefix plus ``prefix ways x h`` of those still running.  The KEY, scatter and
FISH counts add up reel by reel as one mixed-radix integer code.  Each prefix's grid is counted
with ``np.unique`` and merged into the histogram.

Cost: ``L1 x ... x LR`` evaluations in blocks of the suffix size (10^6 for the bundled set, 10^4
prefixes); minutes at full size (opt-in: ``rtp``-free, ``python -m proofs.histogram``), a
fraction of a second on reduced strips (the CI test).  WILD multipliers are refused (as by
:func:`proofs.enumerate.window_tables`).

Source: rules page sections 3 (window), 6 (ways), 7 (FISH values), 8 (collect), 9 (win),
10 (scatter count).
"""
from __future__ import annotations

import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import prod
from typing import Iterable

import numpy as np

from exact.distribution import spin_distribution
from proofs.enumerate import fish_weight_table, window_tables
from strips.loader import load_math_set
from strips.model import MathSet, Phase
from exact.rules import chain_count, has_wild_multipliers, trigger_scatter_pay


#: Most suffix combinations evaluated in one numpy block.
SUFFIX_MAX = 1 << 21


@dataclass(frozen=True)
class Histogram:
    """Integer counts of the stop combinations of one phase by (ways pay, KEY, scatters, FISH in view).

    Attributes
    ----------
    phase : Phase
    combinations : int
        Stop combinations counted (every one when ``complete``).
    fish_names : tuple of str
        Order of the FISH counts in a key.
    counts : dict {(ways pay credits, KEY count, scatter count, FISH counts tuple): int}
    complete : bool
        True when every combination was enumerated.
    seconds : float
    """

    phase: Phase
    combinations: int
    fish_names: tuple
    counts: dict
    complete: bool
    seconds: float = 0.0


def _suffix_pays(pays: np.ndarray, counts: list[np.ndarray], start: int) -> np.ndarray:
    """h[p, suffix]: the pay of symbol p's combination entering reel ``start`` running with ways 1.

    ``counts[r]`` shape (stops_r, n_pay) for the suffix reels r = start..R-1; the result has
    shape (n_pay, prod of the suffix lengths) in C order of the suffix stops.
    """
    R = pays.shape[1]
    n_pay = pays.shape[0]
    shape = tuple(c.shape[0] for c in counts)
    size = prod(shape)
    h = np.zeros((n_pay, size), dtype=np.int64)
    for p in range(n_pay):
        ways = np.ones(size, dtype=np.int64)
        alive = np.ones(size, dtype=bool)
        for i, c in enumerate(counts):
            r = start + i
            grid = np.broadcast_to(c[:, p].reshape([-1 if j == i else 1 for j in range(len(shape))]),
                                   shape).reshape(-1)
            ends = alive & (grid == 0)
            if r > 0:
                h[p][ends] = pays[p, r - 1] * ways[ends]
            alive &= grid > 0
            ways = np.where(alive, ways * grid, ways)
        h[p][alive] = pays[p, R - 1] * ways[alive]
    return h


def enumerate_histogram(ms: MathSet, phase: Phase | None = None,
                        first_stops: Iterable[int] | None = None) -> Histogram:
    """Count every stop combination of ``phase`` (default the base game) in the histogram.

    Parameters
    ----------
    ms : MathSet
    phase : Phase, optional
    first_stops : iterable of int, optional
        Only these stops of reel 1 (a slice of the enumeration; ``complete`` is then False
        unless they are all of them).

    Raises
    ------
    ValueError
        From :func:`proofs.enumerate.window_tables`: WILD multipliers, a FISH symbol without
        the phase's weight table.

    Examples
    --------
    The bundled set with every strip cut to 6 stops (6^5 combinations):

    >>> import dataclasses
    >>> from strips.model import ReelStrips
    >>> ms = load_math_set("rules_page")
    >>> small = dataclasses.replace(ms, strips={k: ReelStrips(v.name, tuple(r[:6] for r in v.reels),
    ...                                                       tuple(c[:6] for c in v.codes))
    ...                                         for k, v in ms.strips.items()})
    >>> h = enumerate_histogram(small)
    >>> h.combinations, sum(h.counts.values()), h.complete
    (7776, 7776, True)
    >>> distribution(h, small) == spin_distribution(small, small.model.base_phase).joint()
    True
    """
    t0 = time.perf_counter()
    model = ms.model
    phase = phase or model.base_phase
    if has_wild_multipliers(ms.model):  # window_tables counts a WILD as 1 in ``counts`` (its means: ways_counts)
        raise ValueError("unsupported rule for the enumeration histogram: WILD multipliers")
    t = window_tables(ms, phase)
    R = t.reels
    pays = t.pays
    # the suffix: the last reels whose grid stays within SUFFIX_MAX
    start = R
    while start > 1 and prod(t.lengths[start - 1:]) <= SUFFIX_MAX:
        start -= 1
    start = min(start, R - 1)
    # per-reel additive code of (KEY, scatters, FISH counts): mixed radix large enough for the sums
    parts = [t.keys, t.scatters] + [[f[:, j] for f in t.fish_codes] for j in range(len(t.fish_names))]
    parts = [list(x) for x in parts]
    radices = [sum(int(a.max(initial=0)) for a in x) + 1 for x in parts]
    weights = [prod(radices[i + 1:]) for i in range(len(radices))]
    code = [sum(parts[i][r].astype(np.int64) * weights[i] for i in range(len(parts))) for r in range(R)]
    suffix_shape = t.lengths[start:]

    def grid_sum(tables):
        out = np.zeros(suffix_shape, dtype=np.int64)
        for i, tab in enumerate(tables):
            out = out + tab.reshape([-1 if j == i else 1 for j in range(len(suffix_shape))])
        return out.reshape(-1)

    suffix_code = grid_sum(code[start:])
    h = _suffix_pays(pays, [t.counts[r] for r in range(start, R)], start)
    # the suffix histogram of codes alone, for prefixes where no symbol is still running
    code_span = int(suffix_code.max()) + 1
    plain = np.bincount(suffix_code, minlength=code_span)
    acc: dict[tuple[int, int], int] = defaultdict(int)
    reel1 = range(t.lengths[0]) if first_stops is None else sorted(set(first_stops))
    prefixes = [list(reel1)] + [range(n) for n in t.lengths[1:start]]
    total = 0
    for stops in _product(prefixes):
        paid = 0
        ways = np.ones(len(h), dtype=np.int64)
        alive = np.ones(len(h), dtype=bool)
        for r, s in enumerate(stops):
            c = t.counts[r][s]
            ends = alive & (c == 0)
            if r > 0:
                paid += int((pays[ends, r - 1] * ways[ends]).sum())
            alive &= c > 0
            ways = np.where(alive, ways * c, ways)
        pcode = int(sum(code[r][s] for r, s in enumerate(stops)))
        total += len(suffix_code)
        if not alive.any():
            nz = np.flatnonzero(plain)
            for c, n in zip(nz, plain[nz]):
                acc[(paid, pcode + int(c))] += int(n)
            continue
        win = paid + (ways[alive][:, None] * h[alive]).sum(axis=0)
        key = win * code_span + suffix_code
        u, n = np.unique(key, return_counts=True)
        for k, m in zip(u.tolist(), n.tolist()):
            acc[(k // code_span, pcode + k % code_span)] += m
    counts = {}
    for (win, c), n in acc.items():
        digits = []
        for w in weights:
            digits.append(c // w)
            c %= w
        counts[(win, digits[0], digits[1], tuple(digits[2:]))] = n
    complete = first_stops is None or set(reel1) == set(range(t.lengths[0]))
    return Histogram(phase, total, tuple(t.fish_names), counts, complete, time.perf_counter() - t0)


def _product(ranges):
    if not ranges:
        yield ()
        return
    first, rest = ranges[0], ranges[1:]
    for s in first:
        for tail in _product(rest):
            yield (s,) + tail


def distribution(hist: Histogram, ms: MathSet, count: str = "scatter",
                 phase: Phase | None = None) -> dict[tuple[int, int], Fraction]:
    """{(count, win credits): P} of one spin, exactly, from the histogram (``count`` "scatter" or "key").

    Each bin's combinations times the distribution of its FISH sum (independent draws per FISH
    symbol, the phase's weight table, section 7); win = multiplier x (ways + KEY x FISH sum +
    scatter pay).  ``phase`` (default the histogram's) may be any phase on the same strips: the
    free-spin levels share one histogram and differ in FISH weights and multiplier only.
    Requires a complete histogram.

    Raises
    ------
    ValueError
        An incomplete histogram, an unknown ``count``, or a phase on other strips.
    """
    phase = phase or hist.phase
    if phase.strips != hist.phase.strips:
        raise ValueError(f"phase {phase.name} spins the {phase.strips} strips, the histogram the {hist.phase.strips}")
    if not hist.complete:
        raise ValueError("the histogram does not hold every stop combination")
    if count not in ("scatter", "key"):
        raise ValueError(f"unknown count {count!r}")
    model = ms.model
    tables = fish_weight_table(ms, phase)
    cache: dict[tuple, dict[int, Fraction]] = {}

    def fish_sum(counts):
        if counts not in cache:
            dist = {0: Fraction(1)}
            for name, c in zip(hist.fish_names, counts):
                for _ in range(c):
                    values, w = tables[name]
                    total = sum(w)
                    nxt: dict[int, Fraction] = defaultdict(Fraction)
                    for a, p in dist.items():
                        for v, x in zip(values, w):
                            if x:
                                nxt[a + v] += p * Fraction(x, total)
                    dist = dict(nxt)
            cache[counts] = dist
        return cache[counts]

    m = phase.multiplier
    out: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for (ways, keys, scatters, fish), n in hist.counts.items():
        p = Fraction(n, hist.combinations)
        c = scatters if count == "scatter" else keys
        sp = trigger_scatter_pay(model, scatters)
        for f, q in fish_sum(fish).items():
            out[(c, m * (ways + keys * f + sp))] += p * q
    return {k: v for k, v in out.items() if v}


def main(argv=None) -> int:
    """``python -m proofs.histogram [SET] [--levels]``: the full enumeration of the base game (and with
    ``--levels`` of the free-spin strips, every level) against the DP; exit 1 on a difference."""
    args = sys.argv[1:] if argv is None else argv
    names = [a for a in args if not a.startswith("--")]
    ms = load_math_set(names[0] if names else None)
    model = ms.model
    checks = [(model.base_phase, "scatter", None)]
    if "--levels" in args and model.levels:
        first = model.level_phase(model.levels[0])
        count = chain_count(model)
        checks += [(first, count, model.level_phase(lv)) for lv in model.levels]
    hists: dict = {}
    ok = True
    for phase, count, derived in checks:
        if phase.strips not in hists or hists[phase.strips].phase.name != phase.name:
            hists[phase.strips] = enumerate_histogram(ms, phase)
        hist = hists[phase.strips]
        target = derived or phase
        dist = distribution(hist, ms, count, target)
        same = dist == spin_distribution(ms, target, count).joint()
        ok &= same
        print(f"{target.name}: {hist.combinations} combinations in {hist.seconds:.0f} s, {len(hist.counts)} bins, "
              f"{len(dist)} ({count} count, win) entries; equal to the DP: {same}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
