"""``rtp prove``: the certificate of a math set, with independent checks of its exact figures.

``rtp prove [--set SET] [--exhaustive] [--rounds N] [--seed S] [--out FILE]``

Writes a Markdown certificate (to ``--out FILE``, else to stdout) with

* a deterministic part (:mod:`proofs.certificate`): exact figures, every
  published fact, examples 1-9, sympy derivations.  It lies between the
  :data:`BEGIN` and :data:`END` markers and depends only on the set, so a
  test regenerates it and compares it with the committed
  ``proofs/CERTIFICATE.md`` of the bundled set;
* a run-dependent part: the exhaustive enumeration of every stop combination
  of every strip set the game plays (base, each bet mode's own, free spins),
  each phase compared exactly with the engine (``--exhaustive``,
  :mod:`proofs.exhaustive`),
  the Monte Carlo simulation with its seed and 99% intervals, and timings.

The certificate of the bundled set is made with
``rtp prove --exhaustive --out proofs/CERTIFICATE.md``.  The command never
writes into a math-set directory (exit 2).  Exit 1 if anything fails: a
published fact, an example, a derivation, an enumerated figure that differs
from the engine's, or an exact value outside its simulated interval.
"""
from __future__ import annotations

import datetime
import os
import platform
import shlex
import time

from exact import __version__
from exact.bet_modes import ModeResult
from exact.engine import analyse
from exact.falls import falls_game
from strips.model import DEFAULT_MODE
from proofs import certificate, enumerate as en, exhaustive as ex, simulate as sim
from proofs.dask_runner import Cluster
from proofs.simulate_falls import falls_certificate
from proofs.certificate import decimal, fraction_text, render

BEGIN = "<!-- BEGIN deterministic part: exact figures only; tests regenerate it and fail on any difference -->"
END = "<!-- END deterministic part -->"


def deterministic_part(text: str) -> str:
    """The text between the BEGIN and END markers of a certificate.

    Raises
    ------
    ValueError
        If a marker is missing.
    """
    try:
        start = text.index(BEGIN) + len(BEGIN)
        end = text.index(END, start)
    except ValueError:
        raise ValueError("not a certificate: deterministic-part markers missing") from None
    return text[start:end]


def render_deterministic(cert) -> str:
    """The deterministic part with its markers, as it appears in the certificate file."""
    return f"{BEGIN}\n\n{render(cert)}\n{END}\n"


def _enumeration_section(proofs) -> tuple[list[str], bool]:
    lines = ["### Exhaustive enumeration of every strip set", ""]
    if proofs is None:
        lines += ["Not run for this certificate (`rtp prove --exhaustive` runs it).", ""]
        return lines, True
    ok = True
    lines += ["Method: every stop combination of every strip set the game plays (the base game's, each bet "
              "mode's own, the free-spin strips; once per distinct set of weight tables) evaluated literally, "
              "vectorised in numpy blocks, exact integer totals (`proofs/enumerate.py`); each phase's figures "
              "compared with the engine's as exact Fractions (`proofs/exhaustive.py`). Fast path (ways games "
              "without the catalogue rules): section 6 ways with WILD, WILD multipliers at their exact means, "
              "blockers, collect = KEY count x sum of FISH mean values, FS count. Generic path (every other "
              "game; `exact/windows.py`): every rule of the literal evaluator (paylines, WILD pays, every WILD "
              "multiplier mode, each scatter symbol counted apart, trigger reels), FISH values, drawn WILD "
              "multipliers and the combination value at their exact conditional means. Round features "
              "(respin, wheel awards, buys, gamble, retrigger) are built from these spin figures and played "
              "by the simulation; they are not enumerated.", ""]
    for pp in proofs:
        enum, checks = pp.enumeration, pp.checks
        bad = [c for c in checks if not c.equal]
        ok = ok and not bad
        lines += [f"#### {pp.label}", ""]
        if pp.reused:
            lines += [f"- enumeration of {pp.reused}; figures x{pp.phase.multiplier}"]
        else:
            n_tasks = enum.reused_tasks + enum.computed_tasks
            path = getattr(enum, "path", "fast")
            lines += [f"- path: {path}; combinations: {enum.combinations:,} in {n_tasks} tasks (ranges of reel-1 "
                      f"stops): {enum.computed_tasks} computed in this run ({enum.where}), {enum.reused_tasks} "
                      "reused from checkpoint records validated by checksum, combination count and shape",
                      f"- wall time of this run: {enum.seconds:.1f} s",
                      f"- checkpoint records found invalid (never used; their tasks computed again): "
                      f"{len(enum.bad_records)}"
                      + (" (" + "; ".join(enum.bad_records[:5]) + (" ..." if len(enum.bad_records) > 5 else "")
                         + ")" if enum.bad_records else "")]
            if getattr(enum, "zero_fish", False):
                lines.append("- hit frequency not compared: a FISH value of 0 can be drawn on these strips")
        lines += [f"- figures compared: {len(checks)}; equal: {len(checks) - len(bad)}", ""]
        lines += ["| figure | enumerated | engine | equal |", "| --- | --- | --- | --- |"]
        shown = [c for c in checks if not c.figure.startswith("ways ") or c.figure == "ways pays" or not c.equal]
        for c in shown:
            lines.append(f"| {c.figure} | {fraction_text(c.enumerated)} ({decimal(c.enumerated, 8)}) | "
                         f"{fraction_text(c.engine)} | {'yes' if c.equal else 'NO'} |")
        per_symbol = sum(1 for c in checks if c.figure.startswith("ways ") and c.figure != "ways pays")
        if per_symbol:
            lines += ["", f"(ways pays per symbol and OAK: {per_symbol} figures, all compared; only differing "
                      "ones are listed.)"]
        lines.append("")
    lines += [f"Enumeration = factorisation: {'PASS' if ok else 'FAIL'} (every phase equal to the engine)", ""]
    return lines, ok


def _simulation_section(rep) -> tuple[list[str], bool]:
    lines = ["### Monte Carlo simulation of whole game rounds", ""]
    if rep is None:
        lines += ["Not run for this certificate (`--rounds 0`).", ""]
        return lines, True
    lines += ["Method: whole rounds (base spin, FISH values and WILD multipliers drawn from their weight "
              "tables, free spins through the KEY-counter ladder or the retrigger rules; each bet mode with its "
              "cost, strips, trigger and respin, prize wheels drawn, each buy from its trigger, the gamble of "
              "every eligible win), numpy with `numpy.random.Generator` streams from `SeedSequence(seed).spawn` "
              f"(`proofs/simulate.py`). Statistics: {rep.method}.", "",
              (f"- rounds: {rep.rounds:,}; seed: {rep.seed}; wall time {rep.seconds:.1f} s "
               f"({rep.rounds / rep.seconds:,.0f} rounds/s, {rep.where})") if rep.seconds
              else f"- rounds: {rep.rounds:,}; seed: {rep.seed}"]
    for u in rep.units:
        who = "" if len(rep.units) == 1 else f"{u.unit.label} ({u.rounds:,} rounds, cost {u.cost}): "
        lines.append(f"- {who}SD of the round win: exact {u.sd_exact:.6f} credits (used), sample {u.sd_sample:.6f}"
                     + u.sd_notes("upper bound"))
    lines += ["", f"| figure | estimate | {rep.level:.4%} interval | exact | inside |",
              "| --- | ---: | --- | ---: | --- |"]
    for f in rep.figures:
        lines.append(f"| {f.name} | {f.estimate:.8f} | [{f.interval[0]:.8f}, {f.interval[1]:.8f}] | "
                     f"{float(f.exact):.8f} | {'yes' if f.inside else 'NO'} |")
    lines += ["", f"Exact values inside their intervals: {'PASS' if rep.passed else 'FAIL'}", ""]
    return lines, rep.passed


def _mode_result(ms, rr, analysis) -> ModeResult:
    """The default mode's exact figures from the certificate's own round and analysis (computed once)."""
    return ModeResult(name=DEFAULT_MODE, cost=ms.model.bet, set=ms, analysis=analysis, round=rr)


def made_by(name: str, exhaustive: bool, rounds: int, seed: int, mode: str | None = None,
              buy: str | None = None) -> str:
    """The ``rtp prove`` command line that makes a certificate again (its run-dependent part aside).

    >>> made_by("rules_page", True, 1000, 7, buy="fs")
    'rtp prove --set rules_page --exhaustive --rounds 1000 --seed 7 --buy fs'
    """
    out = f"rtp prove --set {shlex.quote(name)}" + (" --exhaustive" if exhaustive else "")
    out += f" --rounds {rounds} --seed {seed}" if rounds else " --rounds 0"
    out += f" --mode {shlex.quote(mode)}" if mode else ""
    out += f" --buy {shlex.quote(buy)}" if buy else ""
    return out


def certificate_text(ms, *, exhaustive: bool = False, rounds: int = 0, seed: int = 0, workers: int = 1,
                     checkpoint_dir=None, progress: bool = False, cluster: Cluster | None = None,
                     task_stops: int | None = None, mode: str | None = None,
                     buy: str | None = None) -> tuple[str, bool]:
    """The whole certificate of ``ms`` as Markdown, and whether everything passed.

    Parameters
    ----------
    ms : MathSet
    exhaustive : bool
        Enumerate every strip set the game plays (:func:`proofs.exhaustive.prove_exhaustively`).
    rounds, seed : int
        Simulated rounds (0: none) and seed.
    workers : int
        Local worker processes when ``cluster`` is None.
    checkpoint_dir : path, optional
        Enumeration checkpoint directory (default under the user's cache).
    progress : bool
        Progress bars on stderr.
    cluster : Cluster, optional
        Where the enumeration and the simulation run (:mod:`proofs.dask_runner`).
    task_stops : int, optional
        Reel-1 stops per enumeration task (default: set by the set's size).
    mode, buy : str, optional
        Simulate only this bet mode or buy (default: every mode and buy, the
        rounds split evenly, :func:`proofs.simulate.run_simulation`).

    Raises
    ------
    ValueError
        A rule or size the enumeration or simulation cannot handle, a
        checkpoint that cannot be used, a scheduler that cannot be reached.
    """
    cluster = cluster or Cluster(workers=workers)
    if falls_game(ms.model):      # spins that fall: the exact figures are an exhaustive enumeration already
        return falls_certificate(ms, rounds, seed, exhaustive=exhaustive, cluster=cluster, progress=progress)
    timings = []
    t0 = time.perf_counter()
    analysis = analyse(ms)
    timings.append(("exact engine (all phases)", time.perf_counter() - t0))
    t0 = time.perf_counter()
    cert = certificate.build(ms, analysis)
    timings.append(("chain, facts, examples, sympy", time.perf_counter() - t0))
    proofs = None
    if exhaustive:
        t0 = time.perf_counter()
        proofs = ex.prove_exhaustively(ms, analysis, cluster=cluster, progress=progress,
                                               checkpoint_dir=checkpoint_dir or en.default_checkpoint_dir(),
                                               task_stops=task_stops)
        computed = sum(p.enumeration.computed_tasks for p in proofs if not p.reused)
        reused = sum(p.enumeration.reused_tasks for p in proofs if not p.reused)
        timings.append((f"enumeration of {sum(1 for p in proofs if not p.reused)} strip sets ({computed} tasks "
                        f"computed, {reused} reused)", time.perf_counter() - t0))
    rep = None
    if rounds:
        t0 = time.perf_counter()
        exact = None
        if sim.is_plain(ms):   # the certificate's own exact figures (a game without bet modes)
            exact = sim.Exact({DEFAULT_MODE: _mode_result(ms, cert.round, analysis)}, {})
        rep = sim.run_simulation(ms, rounds, seed, mode=mode, buy=buy, cluster=cluster, progress=progress,
                                 exact=exact)
        timings.append((f"simulation ({rep.where}), with the exact figures it is compared with",
                        time.perf_counter() - t0))
    enum_lines, enum_ok = _enumeration_section(proofs)
    sim_lines, sim_ok = _simulation_section(rep)
    ok = cert.passed and enum_ok and sim_ok
    head = [f"# Certificate of math set `{ms.name}`", "",
            "Made by `" + made_by(ms.name, exhaustive, rounds, seed, mode, buy)
            + "`. Sections 1-5 hold exact figures only and are the same on every run of an unchanged set; "
              "section 6 depends on the run (timings, simulation).", "", ""]
    run_part = ["## 6. Independent checks (run-dependent)", ""] + enum_lines + sim_lines + \
        ["### Timings", "",
         f"Run: rtp (slot-exact) {__version__}, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC. "
         f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}.", ""] + \
        [f"- {name}: {sec:.2f} s" for name, sec in timings] + \
        ["", f"## Verdict: {'PASS' if ok else 'FAIL'}", ""]
    return "\n".join(head) + render_deterministic(cert) + "\n" + "\n".join(run_part), ok
