"""``rtp prove --exhaustive`` for every game: enumerate every strip set the game plays, compare per phase.

The strip sets: the base game's, each bet mode's own (``[modes.NAME] strips``),
and the free-spin strips; each is enumerated once for every distinct set of
weight tables its phases draw from (a free-spin level that differs from
another only by its multiplier reuses that enumeration, scaled).  Games the
fast rules-page path takes are enumerated by it, every other game by the
generic path on :class:`exact.windows.WindowEvaluator` (:mod:`proofs.enumerate`).

Each phase's enumerated figures are compared, as exact Fractions, with the
figures the engine states for that phase (:func:`exact.engine.analyse` of the
mode's math set: the factorised per-reel products of :mod:`exact.engine`, the
line machine of :mod:`exact.lines`), and, for a prize wheel, the odds of each
count of its symbol in a base spin from :func:`exact.bet_modes.pre_feature_split`
(the respin left out: it is a round feature).  Compared per phase:

* mean win per spin and its parts: ways or line pays, scatter pays, collect;
* P(count = n) of the triggering scatter (the ``counts_as_scatter`` WILDs
  included), P(trigger count = n) with ``trigger_reels``, P(KEY = n), P(count of
  a wheel symbol = n);
* the hit frequency (generic path; left out when a FISH value of 0 can be drawn,
  since then a window's win can be 0 for some draws only);
* on the fast path, also ways pays per symbol and OAK.

Round features (respin, prize-wheel awards, buys, the gamble, retrigger) are
built by the engine from these per-spin figures; they are not enumerated
(the simulation plays them).

Source: the proof of every game's figures by enumeration.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction

from exact.bet_modes import pre_feature_split
from exact.engine import GameAnalysis, analyse
from markov.moments import COLLECT, PAYS, SCATTER, PhaseAnalysis
from proofs import enumerate as en
from proofs.dask_runner import Cluster
from strips.model import DEFAULT_MODE, FISH, MathSet, Phase
from exact.rules import draws_multiplier


@dataclass(frozen=True)
class PhaseProof:
    """One phase of one bet mode: its enumeration and the comparisons with the engine.

    ``label`` names the mode, phase and strip set; ``reused`` names the
    phase whose enumeration this one reuses (same strips and weight tables),
    empty when enumerated for this phase.
    """

    mode: str
    phase: Phase
    label: str
    enumeration: object
    checks: tuple
    reused: str = ""

    @property
    def passed(self) -> bool:
        return all(c.equal for c in self.checks)


def _strip_file(mset: MathSet, phase: Phase) -> str:
    return mset.model.strip_files.get(phase.strips, phase.strips)


def phase_key(mset: MathSet, phase: Phase, fish: bool = True) -> str:
    """What one enumeration depends on besides the multiplier: the strips and the weight tables the phase
    draws from (FISH values, drawn WILD multipliers, the combination value); hex sha256.  ``fish=False``
    leaves the FISH tables out (the fast path sums the collect of several FISH tables in one pass)."""
    model = mset.model
    strips = mset.phase_strips(phase)
    on = {n for reel in strips.reels for n in reel}
    tables = []
    for s in model.symbols:
        if s.name not in on:
            continue
        if s.kind == FISH:
            if fish:
                tables.append((s.name, "fish", s.weights.get(phase.weights)))
        elif draws_multiplier(s):
            tables.append((s.name, "multiplier", s.multiplier.weights.get(phase.weights)))
    body = json.dumps([[list(r) for r in strips.reels], tables], default=list)
    return hashlib.sha256(body.encode()).hexdigest()


def plan(ms: MathSet) -> list[tuple[str, MathSet, Phase, str]]:
    """(mode, the mode's math set, phase, phase key) of every phase of every bet mode, default first."""
    out = []
    for name in ms.mode_names:
        mset = ms.mode(name)
        for phase in mset.model.phases:
            out.append((name, mset, phase, phase_key(mset, phase)))
    return out


def passes(ms: MathSet, generic: bool | None = None) -> list[tuple[str, MathSet, Phase, list[Phase]]]:
    """The enumeration runs of ``rtp prove --exhaustive``: (mode, its math set, phase, extra phases).

    Each distinct phase key (:func:`phase_key`) is enumerated once; on the fast path a mode's phases
    that differ from an earlier one only in their FISH tables are its extra phases (one pass).
    """
    entries = plan(ms)
    seen: set[str] = set()
    out = []
    for mode, mset, phase, key in entries:
        if key in seen:
            continue
        seen.add(key)
        extras = []
        if not generic and en.fast_path_takes(mset):
            same = phase_key(mset, phase, fish=False)
            for m2, _, p2, k2 in entries:
                if m2 == mode and k2 not in seen and phase_key(mset, p2, fish=False) == same:
                    seen.add(k2)
                    extras.append(p2)
        out.append((mode, mset, phase, extras))
    return out


def combinations_to_enumerate(ms: MathSet) -> int:
    """Stop combinations ``rtp prove --exhaustive`` enumerates (one pass per entry of :func:`passes`)."""
    total = 0
    for _, mset, phase, _ in passes(ms):
        n = 1
        for x in mset.phase_strips(phase).lengths:
            n *= x
        total += n
    return total


def _label(mode: str, mset: MathSet, phase: Phase) -> str:
    what = "base game" if phase.name == "base" else f"free spins {phase.name}"
    who = "" if mode == DEFAULT_MODE else f"mode {mode}: "
    return f"{who}{what} (strip set {phase.strips} = {_strip_file(mset, phase)}, weights {phase.weights}, " \
           f"x{phase.multiplier})"


def wheel_count_probs(mset: MathSet) -> dict[str, tuple[Fraction, ...]]:
    """Wheel symbol -> P(its count in a base spin = n), n = 0 .. max, from the engine's split of the base
    spin by the counts that decide the features (:func:`exact.bet_modes.pre_feature_split`, respin left out)."""
    model = mset.model
    if not model.wheels:
        return {}
    plain = dataclasses.replace(mset, model=dataclasses.replace(model, respin=None))
    split, _, _ = pre_feature_split(plain)
    out = {}
    for i, w in enumerate(model.wheels):
        probs: dict[int, Fraction] = {}
        for k, (p, _, _) in split.items():
            probs[k[1 + i]] = probs.get(k[1 + i], Fraction(0)) + p
        out[w.symbol] = tuple(probs.get(n, Fraction(0)) for n in range(max(probs) + 1))
    return out


def _probs(name: str, mine, theirs) -> list:
    n = max(len(mine), len(theirs))
    pad = (lambda t: list(t) + [Fraction(0)] * (n - len(t)))
    return [en.Comparison(f"P({name} = {i})", a, b) for i, (a, b) in enumerate(zip(pad(mine), pad(theirs)))]


def compare_spin(e: en.SpinEnumeration, an: PhaseAnalysis, wheels: dict | None = None,
                 lines: bool = False) -> list:
    """The generic path's figures of one phase beside the engine's, exact (module docstring)."""
    out = [en.Comparison("line pays" if lines else "ways pays", e.pays_mean, an.parts[PAYS]),
           en.Comparison("scatter pays", e.scatter_mean, an.parts[SCATTER]),
           en.Comparison("collect", e.collect_mean, an.parts[COLLECT]),
           en.Comparison("spin win", e.mean, an.mean)]
    if not e.zero_fish:
        out.append(en.Comparison("hit frequency", e.hit_frequency, an.hit_frequency))
    if e.trigger_name is not None:
        out += _probs(e.trigger_name, e.scatter_prob(e.trigger_name), an.by_scatter.prob)
        if an.by_trigger is not None:
            out += _probs("trigger count", e.prob(e.totals.trigger), an.by_trigger.prob)
    out += _probs("KEY", e.prob(e.totals.keys), an.by_key.prob)
    for i, (mine, theirs) in enumerate(zip(e.line_means, an.line_means), start=1):
        out.append(en.Comparison(f"payline {i} pays", mine, theirs))
    for i, (mine, theirs) in enumerate(zip(e.line_hits, an.line_hits), start=1):
        out.append(en.Comparison(f"P(payline {i} pays)", mine, theirs))
    for sym, probs in (wheels or {}).items():
        out += _probs(f"{sym} (wheel)", e.scatter_prob(sym), probs)
    return out


def _phase_analysis(analysis: GameAnalysis, mset: MathSet, phase: Phase) -> PhaseAnalysis:
    if phase.name == "base":
        return analysis.base
    return analysis.levels[[p.name for p in mset.model.phases[1:]].index(phase.name)]


def prove_exhaustively(ms: MathSet, analysis: GameAnalysis | None = None, *, cluster: Cluster | None = None,
                       checkpoint_dir=None, progress: bool = False, task_stops: int | None = None,
                       generic: bool | None = None) -> list[PhaseProof]:
    """Enumerate every strip set the game plays and compare every phase of every bet mode with the engine.

    Parameters
    ----------
    ms : MathSet
    analysis : GameAnalysis, optional
        The default mode's engine analysis (computed when not given).
    cluster, checkpoint_dir, progress, task_stops
        As :func:`proofs.enumerate.enumerate_phase`.
    generic : bool, optional
        Force the generic path (True) or decide by the game (None).

    Returns
    -------
    list of PhaseProof, in the order of :func:`plan`.

    Raises
    ------
    ValueError
        As :func:`proofs.enumerate.enumerate_phase` and :func:`exact.engine.analyse`.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> [p[2].name for p in plan(load_math_set("rules_page"))]
    ['base', 'level1', 'level2', 'level3', 'level4']
    """
    cluster = cluster or Cluster()
    analyses: dict[str, GameAnalysis] = {}
    runs = {(mode, phase.name): extras for mode, _, phase, extras in passes(ms, generic)}
    done: dict[str, tuple[str, object]] = {}
    out = []
    for mode, mset, phase, key in plan(ms):
        if mode not in analyses:
            analyses[mode] = analysis if (mode == DEFAULT_MODE and analysis is not None) else analyse(mset)
        label = _label(mode, mset, phase)
        reused = ""
        if key in done:
            reused, e = done[key]
            e = dataclasses.replace(e, phase=phase, multiplier=phase.multiplier)
        else:
            extras = runs[(mode, phase.name)]
            e = en.enumerate_phase(mset, phase, cluster=cluster, checkpoint_dir=checkpoint_dir, progress=progress,
                                   task_stops=task_stops, generic=generic, extra_phases=extras)
            for p2 in extras:
                done[phase_key(mset, p2)] = (f"{label}, in the same pass (same strips and ways tables; the collect "
                                             f"of this phase's own FISH table summed beside)", e.level(p2))
            done[key] = (f"{label} (same strips and weight tables)", e)
        an = _phase_analysis(analyses[mode], mset, phase)
        if isinstance(e, en.SpinEnumeration):
            wheels = wheel_count_probs(mset) if phase.name == "base" else {}
            checks = compare_spin(e, an, wheels, mset.model.is_lines)
        else:
            checks = en.compare(e, an)
        out.append(PhaseProof(mode, phase, label, e, tuple(checks), reused))
    return out
