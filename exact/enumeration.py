"""Exact enumeration through the literal reading: the generic exact path.

A game whose rules have no per-reel terms for the factorised moments (a win
cap that can be reached, and every rule that gives only its literal reading)
gets its exact figures by evaluating every stop combination of its strip set
with the vectorised literal evaluator :class:`exact.windows.WindowEvaluator`
and counting: with ``N`` = the product of the reel lengths and ``w(s)`` the
win of stop combination ``s`` (credits, the phase multiplier included),

    P(win = x) = #{s : w(s) = x} / N,

so the win distribution of one spin, and with it every moment and every
capped figure, is an exact Fraction.  The combinations are streamed in blocks
of :data:`BLOCK` (memory bounded by the block, not by ``N``); the count of
combinations is bounded up front by the ``enumeration`` limit
(``--max-enumeration``), beyond which the one-line refusal names
``rtp prove --exhaustive`` for a distributed run.

Only windows whose win is one number are enumerated this way: a game that
draws values per spin (FISH values, drawn WILD multipliers, a drawn
combination multiplier) is refused, since the literal evaluator gives their
conditional mean, not their distribution.
"""
from __future__ import annotations

import dataclasses
import multiprocessing as mp
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import numpy as np

from exact.falls import FallEvaluator
from exact.formatting import decimal_text
from exact.rules import combined_value, value_law
from exact.windows import WindowEvaluator
from exact.phase_law import EnumeratedPhase, FallStatistics
from markov.moments import CountSplit, scaled_parts, spin_parts
from markov.round import by_spins_awarded
from strips import limits as _limits
from strips.errors import UnsupportedRule
from strips.fingerprint import fingerprint
from strips.limits import combinations_of
from strips.model import MathSet, Phase

__all__ = ["BLOCK", "SpinHistogram", "spin_histogram", "FallStatistics", "EnumeratedPhase", "analyse_phase",
           "EnumerationSection", "enumeration_sections", "awards_model", "enumeration_units", "tally_units", "remember_phase"]

#: Stop combinations evaluated per block.
BLOCK = 1 << 16


def _check_limit(n: int) -> None:
    """Refuse (UnsupportedRule, one line) more stop combinations than the ``enumeration`` limit."""
    limit = _limits.exceeds("enumeration", n)
    if limit is not None:
        raise UnsupportedRule(f"exact enumeration: {_limits.refusal('enumeration', n, limit, 'stop combinations')}; "
                              f"'rtp prove --exhaustive' enumerates it on Dask", rule="enumeration", analysis="report")


def stop_blocks(lengths, lo: int = 0, hi: int | None = None):
    """The stop combinations ``lo .. hi - 1`` (default all) of reels of ``lengths``, in blocks of
    :data:`BLOCK` rows (int64, (m, reels)), the last reel turning fastest.

    >>> [b.tolist() for b in stop_blocks((2, 2))]
    [[[0, 0], [0, 1], [1, 0], [1, 1]]]
    """
    n = combinations_of(lengths) if hi is None else hi
    for start in range(lo, n, BLOCK):
        rest = np.arange(start, min(n, start + BLOCK), dtype=np.int64)
        stops = np.empty((rest.size, len(lengths)), dtype=np.int64)
        for r in range(len(lengths) - 1, -1, -1):
            stops[:, r] = rest % lengths[r]
            rest //= lengths[r]
        yield stops


@dataclass(frozen=True)
class SpinHistogram:
    """The exact win distribution of one spin of a phase, by enumeration of every stop combination.

    Attributes
    ----------
    combinations : int
        N, the stop combinations enumerated (the cycle).
    wins : tuple of (int, int)
        (win in credits, number of combinations) in increasing win, every count > 0.
    triggers : tuple of (int, int)
        (trigger count, number of combinations).
    """

    combinations: int
    wins: tuple[tuple[int, int], ...]
    triggers: tuple[tuple[int, int], ...]

    def probabilities(self) -> dict[int, Fraction]:
        """Win in credits -> exact probability."""
        return {w: Fraction(c, self.combinations) for w, c in self.wins}

    def moment(self, k: int, cap: int | None = None) -> Fraction:
        """E[min(W, cap)^k] in credits^k (no cap when None), exactly."""
        total = sum((min(w, cap) if cap is not None else w) ** k * c for w, c in self.wins)
        return Fraction(total, self.combinations)

    def probability_at_least(self, x: int) -> Fraction:
        """P(W >= x)."""
        return Fraction(sum(c for w, c in self.wins if w >= x), self.combinations)

    @property
    def max_win(self) -> int:
        """The largest win of a spin, in credits."""
        return self.wins[-1][0]


def spin_histogram(ms: MathSet, phase: Phase | None = None) -> SpinHistogram:
    """Enumerate every stop combination of ``phase`` (default: the base game) through the literal reading.

    Parameters
    ----------
    ms : MathSet
    phase : Phase, optional

    Returns
    -------
    SpinHistogram
        Wins in credits per spin, the phase multiplier included.

    Raises
    ------
    strips.errors.UnsupportedRule
        A game that draws values per spin (their distribution is not enumerated), or more stop
        combinations than the ``enumeration`` limit (naming ``rtp prove --exhaustive``).

    Examples
    --------
    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "B"], ["A", "B"]]})
    >>> h = spin_histogram(ms)
    >>> h.combinations, h.wins
    (4, ((0, 2), (1, 1), (5, 1)))
    """
    phase = phase or ms.model.base_phase
    strips = ms.phase_strips(phase)
    lengths = strips.lengths
    n = combinations_of(lengths)
    _check_limit(n)
    ev = WindowEvaluator(ms, phase)
    counts: dict[int, int] = {}
    trig: dict[int, int] = {}
    mult = phase.multiplier
    for stops in stop_blocks(lengths):
        out = ev.evaluate(stops)
        if out.denominator != 1:
            raise UnsupportedRule("exact enumeration: values drawn per spin (FISH values, drawn WILD multipliers): "
                                  "the literal evaluator gives their mean, not their distribution",
                                  rule="drawn values", analysis="report")
        for arr, acc, scale in ((out.pay, counts, mult), (out.trigger_count, trig, 1)):
            vals, cnt = np.unique(arr, return_counts=True)
            for v, c in zip(vals.tolist(), cnt.tolist()):
                acc[v * scale] = acc.get(v * scale, 0) + c
    return SpinHistogram(n, tuple(sorted(counts.items())), tuple(sorted(trig.items())))


# ---------------------------------------------------------------------------
# one phase's exact analysis by enumeration: every figure the round needs
# ---------------------------------------------------------------------------
def _expand(ev, plain: int, items) -> dict[int, Fraction]:
    """The law of ``plain + sum of credits x combined value`` over the multiplier symbol's draws, for the
    (signature, credits) ``items`` of one spin (its values drawn once and kept for its falls)."""
    cfg, table = ev.mcfg, ev.mcfg.table(ev.phase.weights)
    total = sum(x for _, x in table)
    sigs = [(ev.decode(s), a) for s, a in items]
    slots = max(len(d) for d, _ in sigs)
    out: dict[int, Fraction] = {}
    for draw in product(table, repeat=slots):
        w = plain
        for d, a in sigs:
            w += a * combined_value(cfg, [(draw[i][0], c) for i, c in enumerate(d) if c])
        p = Fraction(1)
        for _, x in draw:
            p *= Fraction(x, total)
        out[w] = out.get(w, Fraction(0)) + p
    return out


def _units(ev: FallEvaluator) -> tuple[int, tuple[int, ...]]:
    """(number of units, the reels they enumerate): the stop combinations of the reels but the last when the
    quiet filter plays the last reel's stops at once, else every stop combination."""
    reels = ev.lengths[:-1] if ev.filters_quiet else ev.lengths
    return combinations_of(reels), reels


def _outcomes(ev: FallEvaluator, lo: int = 0, hi: int | None = None, awards: bool = False):
    """(FallsOutcome, quiet) per block of the units ``lo .. hi - 1`` (:func:`_units`): with the quiet filter
    of a line game (:meth:`exact.falls.FallEvaluator.quiet_filter`) only the spins whose fall 1 pays are
    played, the others counted by award index in ``quiet``; else every combination is played."""
    _, reels = _units(ev)
    if not ev.filters_quiet:
        for stops in stop_blocks(reels, lo, hi):
            yield ev.play(stops, awards=awards), {}
        return
    L = ev.lengths[-1]
    bits = np.arange(L, dtype=np.uint64)
    for prefix in stop_blocks(reels, lo, hi):
        for lo in range(0, prefix.shape[0], max(1, BLOCK // L)):
            part = prefix[lo:lo + max(1, BLOCK // L)]
            mask, quiet, given = ev.quiet_filter(part)
            p, s = np.nonzero((mask[:, None] >> bits[None, :]) & np.uint64(1))
            stops = np.concatenate([part[p], s[:, None].astype(np.int64)], axis=1)
            yield ev.play(stops, given, p, awards=awards), quiet


#: Enumerated phases (multiplier 1) by (set fingerprint, what the spins depend on): at most 8, oldest out.
_RESULTS: dict = {}


def _scaled(a: EnumeratedPhase, phase: Phase) -> EnumeratedPhase:
    """The analysis ``a`` of a phase with multiplier 1 for ``phase``, whose every win is ``phase.multiplier``
    times as large (W -> mW: means x m, second moments x m^2, the law's wins x m)."""
    m = phase.multiplier

    def split(c: CountSplit) -> CountSplit:
        return CountSplit(c.prob, tuple(w * m for w in c.win), tuple(w * m * m for w in c.win2))

    falls = a.falls and dataclasses.replace(a.falls, mean=tuple(x * m for x in a.falls.mean))
    return dataclasses.replace(a, phase=phase, mean=a.mean * m, second=a.second * m * m,
                               parts=scaled_parts(a.parts, m), by_scatter=split(a.by_scatter), by_key=split(a.by_key),
                               distribution=tuple((i, w * m, p) for i, w, p in a.distribution), falls=falls)


def analyse_phase(ms: MathSet, phase: Phase, shared: dict | None = None, awards: bool = False) -> EnumeratedPhase:
    """Exact analysis of one spin of ``phase`` by enumerating every stop combination through the
    vectorised literal reading of its falls (:class:`exact.falls.FallEvaluator`), every multiplier-symbol
    value drawn summed with its exact probability.

    Returns
    -------
    EnumeratedPhase
        Mean, second moment, the split by the award index (scatter count of fall 1, or free spins awarded
        over the falls under ``scatters = "every_fall"``), hit frequency, scatter-pay share, per-fall
        statistics, the exact joint law; credits per spin, the level multiplier included.

    Raises
    ------
    strips.errors.UnsupportedRule
        More stop combinations than the ``enumeration`` limit.

    Examples
    --------
    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "anywhere"},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "B"], ["A", "B"]]})
    >>> a = analyse_phase(ms, ms.model.base_phase)
    >>> a.mean, a.hit_frequency, a.method
    (Fraction(3, 2), Fraction(1, 2), 'enumeration of 4 stop combinations')
    """
    ev, key, n = _phase_plan(ms, phase)
    if shared is not None and key in shared and (shared[key].award_odds is not None or not awards):
        return _scaled(shared[key], phase)      # the same spins but for the level multiplier (free spins)
    if key not in _RESULTS or (awards and _RESULTS[key].award_odds is None):   # enumerated once per process
        _check_limit(n)
        unit = dataclasses.replace(phase, multiplier=1)
        _keep(key, _enumerate(ms, unit, ev, n, _tally(ms, unit, ev, n, awards)))
    if shared is not None:
        shared[key] = _RESULTS[key]
    return _scaled(_RESULTS[key], phase)


def _phase_plan(ms: MathSet, phase: Phase) -> tuple[FallEvaluator, tuple, int]:
    """(the phase's evaluator, its key in :data:`_RESULTS`, its stop combinations); weighted stops refused."""
    strips = ms.phase_strips(phase)
    if any(getattr(c, "stop_weights", None) is not None for c in strips.codes):
        raise UnsupportedRule("unsupported rule: weighted stops: exact enumeration takes each stop position once, "
                              "not by its weight", rule="weighted stops", analysis="report")
    ev = FallEvaluator(ms, phase)
    return ev, ("enumeration", fingerprint(ms)) + ev.key(), combinations_of(strips.lengths)


def _keep(key, result: EnumeratedPhase) -> None:
    if len(_RESULTS) >= 8:
        _RESULTS.pop(next(iter(_RESULTS)))
    _RESULTS[key] = result


def enumeration_units(ms: MathSet, phase: Phase) -> tuple[int, int]:
    """(units, stop combinations) of the enumeration of ``phase``: :func:`tally_units` takes unit ranges
    ``lo .. hi - 1`` of ``0 .. units - 1`` (a unit: one stop combination, or the last reel's stops of one
    combination of the others under a line game's quiet filter).

    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "anywhere"},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "B"], ["A", "B", "B"]]})
    >>> enumeration_units(ms, ms.model.base_phase)
    (6, 6)
    """
    ev, _, n = _phase_plan(ms, phase)
    return _units(ev)[0], n


def tally_units(ms: MathSet, phase: Phase, lo: int, hi: int, awards: bool = False) -> "_Tally":
    """The exact integer tally of the units ``lo .. hi - 1`` of ``phase`` (multiplier 1), a task of a
    distributed enumeration: tallies merge exactly (:meth:`_Tally.merge`) in any order.

    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "anywhere"},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "B"], ["A", "B", "B"]]})
    >>> tally_units(ms, ms.model.base_phase, 0, 6).paid
    3
    """
    return _tally_part(ms, dataclasses.replace(phase, multiplier=1), lo, hi, awards)


def remember_phase(ms: MathSet, phase: Phase, tally: "_Tally") -> EnumeratedPhase:
    """The analysis of ``phase`` from the merged tally of all its units (computed elsewhere: on Dask by
    ``rtp prove --exhaustive``), kept for this process so that :func:`analyse_phase` (and the PAR sheet)
    reads it past the in-process ``enumeration`` limit.

    Raises
    ------
    ValueError
        A tally that does not hold every stop combination of the phase once.

    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "anywhere"},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "B"], ["A", "B", "B"]]})
    >>> remember_phase(ms, ms.model.base_phase, tally_units(ms, ms.model.base_phase, 0, 6)).mean
    Fraction(7, 6)
    """
    ev, key, n = _phase_plan(ms, phase)
    if tally.reach[:1] != [n]:
        raise ValueError(f"the tally holds {tally.reach[:1] or [0]} stop combinations of {phase.name}, not {n}")
    _keep(key, _enumerate(ms, dataclasses.replace(phase, multiplier=1), ev, n, tally))
    return _scaled(_RESULTS[key], phase)


@dataclass
class _Tally:
    """The integer sums of an enumeration (mergeable across workers): the joint counts of (award index, win)
    for spins without drawn values, the spins with drawn values by (award, plain, signature credits), the
    spins reaching each fall and the credits of each fall, scatter credits, cut and paying spins."""

    joint: dict = dataclasses.field(default_factory=dict)
    mixed: dict = dataclasses.field(default_factory=dict)
    reach: list = dataclasses.field(default_factory=list)
    fall_plain: list = dataclasses.field(default_factory=list)
    fall_drawn: list = dataclasses.field(default_factory=list)
    scatter_plain: int = 0
    scatter_drawn: dict = dataclasses.field(default_factory=dict)
    cut: int = 0
    paid: int = 0
    #: Per advertised award (:attr:`exact.falls.FallEvaluator.awards`) the spins that pay it in some fall;
    #: None when not counted.
    award_spins: list | None = None
    #: (award, award index) -> the spins of that award index (trigger count, or free spins awarded) that pay
    #: the award (counted with ``award_spins``).
    award_index: dict = dataclasses.field(default_factory=dict)

    def _fall(self, k: int) -> None:
        while len(self.reach) <= k:
            self.reach.append(0), self.fall_plain.append(0), self.fall_drawn.append({})

    def add(self, out, quiet: dict) -> None:
        """Add one block's outcome and its quiet spins."""
        for a, c in quiet.items():        # spins that pay nothing and end at fall 1, counted in bulk
            self.joint[(a, 0)] = self.joint.get((a, 0), 0) + c
            self._fall(0)
            self.reach[0] += c
        for k, st in enumerate(out.per_fall):
            self._fall(k)
            self.reach[k] += st["spins"]
            self.fall_plain[k] += st["plain"]
            _add_counts(self.fall_drawn[k], st["drawn"])
        self.cut += int(out.cut.sum())
        self.paid += int(out.paid.sum())
        if self.award_spins is not None:
            for a, c in enumerate(out.awards.sum(axis=0).tolist()):
                self.award_spins[a] += c
            r, a = np.nonzero(out.awards)
            if len(r):
                span = int(out.award.max(initial=0)) + 1
                keys, cnt = np.unique(a * span + out.award[r], return_counts=True)
                _add_counts(self.award_index, {divmod(int(k), span): int(c) for k, c in zip(keys, cnt)})
        self.scatter_plain += int(out.scatter_plain.sum())
        plain_only = np.ones(out.plain.shape[0], dtype=bool)
        for i, items in out.drawn.items():
            plain_only[i] = False
            merged: dict[int, int] = {}
            for s, a, sc in items:
                merged[s] = merged.get(s, 0) + a
                self.scatter_drawn[s] = self.scatter_drawn.get(s, 0) + sc
            key = (int(out.award[i]), int(out.plain[i]), tuple(sorted(merged.items())))
            self.mixed[key] = self.mixed.get(key, 0) + 1
        wins, index = out.plain[plain_only], out.award[plain_only]
        span = int(wins.max(initial=0)) + 1
        vals, cnt = np.unique(index * span + wins, return_counts=True)     # one int64 key per (award, win)
        self.joint = _add_counts(self.joint, {divmod(key, span): c for key, c in zip(vals.tolist(), cnt.tolist())})

    def merge(self, other: "_Tally") -> "_Tally":
        """This tally plus ``other`` (in place)."""
        _add_counts(self.joint, other.joint)
        _add_counts(self.mixed, other.mixed)
        for k in range(len(other.reach)):
            self._fall(k)
            self.reach[k] += other.reach[k]
            self.fall_plain[k] += other.fall_plain[k]
            _add_counts(self.fall_drawn[k], other.fall_drawn[k])
        self.scatter_plain += other.scatter_plain
        _add_counts(self.scatter_drawn, other.scatter_drawn)
        self.cut += other.cut
        self.paid += other.paid
        if self.award_spins is not None and other.award_spins is not None:
            self.award_spins = [a + b for a, b in zip(self.award_spins, other.award_spins)]
            _add_counts(self.award_index, other.award_index)
        else:
            self.award_spins = None
        return self


def _add_counts(acc: dict, more: dict) -> dict:
    for k, v in more.items():
        acc[k] = acc.get(k, 0) + v
    return acc


#: Stop combinations from which an enumeration runs on every core (a process per core, fork).
PARALLEL_FROM = 4_000_000


def _tally_part(ms: MathSet, phase: Phase, lo: int, hi: int, awards: bool = False) -> _Tally:
    """The tally of the units ``lo .. hi - 1`` of ``phase`` (a worker's part)."""
    ev = FallEvaluator(ms, phase)
    tally = _Tally()
    tally.award_spins = [0] * len(ev.awards) if awards else None
    for out, quiet in _outcomes(ev, lo, hi, awards):
        tally.add(out, quiet)
    return tally


def _tally(ms: MathSet, phase: Phase, ev: FallEvaluator, n: int, awards: bool = False) -> _Tally:
    """The whole tally: in this process, or split over the cores for :data:`PARALLEL_FROM` combinations or more."""
    units, _ = _units(ev)
    workers = min(os.cpu_count() or 1, 8)
    if n < PARALLEL_FROM or workers < 2 or units < workers or "fork" not in mp.get_all_start_methods():
        return _tally_part(ms, phase, 0, units, awards)
    cuts = [units * i // workers for i in range(workers + 1)]
    with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork")) as pool:
        parts = list(pool.map(_tally_part, [ms] * workers, [phase] * workers, cuts[:-1], cuts[1:], [awards] * workers))
    total = parts[0]
    for p in parts[1:]:
        total.merge(p)
    return total


def _enumerate(ms: MathSet, phase: Phase, ev: FallEvaluator, n: int, t: "_Tally") -> EnumeratedPhase:
    """:func:`analyse_phase` of ``phase`` (its multiplier applied to the law) from the tally ``t`` of every
    stop combination through ``ev``."""
    joint, mixed, reach, fall_plain, fall_drawn = t.joint, t.mixed, t.reach, t.fall_plain, t.fall_drawn
    scatter_plain, scatter_drawn, cut, paid = t.scatter_plain, t.scatter_drawn, t.cut, t.paid
    awards = 0
    mult = phase.multiplier
    law: dict[tuple[int, int], Fraction] = {(a, w * mult): Fraction(c, n) for (a, w), c in joint.items()}
    for (a, plain, items), c in mixed.items():
        for w, p in _expand(ev, plain, items).items():
            key = (a, w * mult)
            law[key] = law.get(key, Fraction(0)) + p * Fraction(c, n)

    def mean_of(sig: int) -> Fraction:
        return sum((v * p for v, p in value_law(ev.mcfg, phase.weights, ev.decode(sig)).items()), Fraction(0))

    def expect(plain_sum: int, drawn_sum: dict) -> Fraction:
        return Fraction(plain_sum * mult, n) + sum((Fraction(a * mult, n) * mean_of(s) for s, a in drawn_sum.items()),
                                                   Fraction(0))

    size = max(a for a, _ in law) + 1
    prob, win, win2 = [Fraction(0)] * size, [Fraction(0)] * size, [Fraction(0)] * size
    for (a, w), p in law.items():
        prob[a] += p
        win[a] += p * w
        win2[a] += p * w * w
    split = CountSplit(tuple(prob), tuple(win), tuple(win2))
    mean, second = split.mean, split.second
    scatter_mean = expect(scatter_plain, scatter_drawn)
    falls = None
    if ev.cfg is not None:
        falls = FallStatistics(tuple(reach), tuple(expect(fp, fd) for fp, fd in zip(fall_plain, fall_drawn)),
                               cut, ev.max_falls, n)
    if ev.sum_awards:
        awards = sum((p * a for (a, _), p in law.items()), Fraction(0))   # spins awarded per spin
    by_key = CountSplit((Fraction(1),), (mean,), (second,))
    odds = None if t.award_spins is None else \
        tuple((label, credits, Fraction(c, n)) for (label, credits), c in zip(ev.awards, t.award_spins))
    by_index = None if t.award_spins is None else {
        label: tuple(Fraction(t.award_index.get((a, i), 0), n) for i in range(size))
        for a, (label, _) in enumerate(ev.awards)}
    return EnumeratedPhase(
        phase=phase, mean=mean, second=second, parts=spin_parts(mean - scatter_mean, scatter=scatter_mean),
        ways_by_symbol={}, oak_prob={}, by_scatter=split, by_key=by_key, hit_frequency=Fraction(paid, n),
        method=f"enumeration of {n:,} stop combinations", combinations=n, falls=falls,
        distribution=tuple((a, w, p) for (a, w), p in sorted(law.items())), awards_by_spins=ev.sum_awards,
        awards_per_spin=awards, award_odds=odds, award_split=by_index)


@dataclass(frozen=True)
class EnumerationSection:
    """The PAR sheet's section of a game computed by enumeration (``enumeration`` in the JSON report):
    the method and cycle, per-fall statistics of the base spin, the free spins awarded over the falls.

    Examples
    --------
    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "anywhere"},
    ...                      "cascade": {"multipliers": [1, 2]},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "A", "B"], ["A", "B", "B"]]})
    >>> s = EnumerationSection(analyse_phase(ms, ms.model.base_phase), 1)
    >>> s.figures()["falls"]["at_least"]["2"], s.lines()[0]
    (Fraction(4, 9), 'method       enumeration of 9 stop combinations (the literal reading of every fall)')
    """

    base: EnumeratedPhase
    bet: int
    reached: bool = False

    @property
    def method(self) -> str:
        return self.base.method

    def overrides(self) -> dict:
        return {}

    def figures(self) -> dict:
        out: dict = {"combinations": self.base.combinations}
        f = self.base.falls
        if f is not None:
            out["falls"] = {"at_least": {str(k): f.at_least(k) for k in range(1, len(f.reach) + 1)},
                            "rtp": {str(k): m / self.bet for k, m in enumerate(f.mean, start=1)},
                            "mean_falls": f.mean_falls, "max_falls": f.max_falls,
                            "cut_at_max_falls": f.cut_probability}
        if self.base.awards_by_spins:
            out["free_spins_awarded_per_spin"] = self.base.awards_per_spin
        return out

    def lines(self) -> list[str]:
        how = " (the literal reading of every fall)" if self.method.startswith("enumeration") else ""
        out = [f"method       {self.method}{how}"]
        f = self.base.falls
        if f is None:
            return out
        out.append(f"falls        mean {decimal_text(f.mean_falls, 6)} per base spin; longest {len(f.reach)}")
        for k, (n, m) in enumerate(zip(f.reach, f.mean), start=1):
            out.append(f"  fall {k:<3}   P(at least {k}) {decimal_text(Fraction(n, f.combinations), 8)}  "
                       f"({n:,} combinations)  RTP {decimal_text(100 * m / self.bet, 6)}%")
        if f.cut:
            p = f.cut_probability
            out.append(f"FINDING      {f.cut:,} stop combinations still remove cells at fall max_falls = {f.max_falls}: "
                       f"the spin is ended there, probability {decimal_text(p, 10)} (1 in {float(1 / p):,.2f})")
        else:
            out.append(f"max_falls    {f.max_falls}: no spin reaches it")
        if self.base.awards_by_spins:
            out.append(f"awards       {decimal_text(self.base.awards_per_spin, 6)} free spins awarded per base spin "
                       f"over its falls (trigger figures are indexed by the free spins a spin awards)")
        return out


def enumeration_sections(analysis, bet: int) -> dict:
    """{"enumeration": EnumerationSection} when the base phase of ``analysis`` (a GameAnalysis) was enumerated."""
    return {"enumeration": EnumerationSection(analysis.base, bet)} if isinstance(analysis.base, EnumeratedPhase) else {}


def awards_model(ms: MathSet):
    """``ms.model`` with the trigger and retrigger tables that read the splits of its enumerated phases: the
    model itself, or under ``scatters = "every_fall"`` the tables indexed by the free spins a spin awards
    (:func:`markov.round.by_spins_awarded`)."""
    model = ms.model
    base = analyse_phase(ms, model.base_phase)
    if not base.awards_by_spins:
        return model
    levels = [analyse_phase(ms, model.level_phase(lv)) for lv in model.levels]
    return by_spins_awarded(model, base, levels)
