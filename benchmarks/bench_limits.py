"""Time and memory of ``rtp report`` at each input limit's default (README "Input limits").

Builds copies of the bundled rules-page set grown along one axis to the
limit (symbols, stops, spins, threshold, chain work; a retrigger cap on a
small retrigger game; a 12 x 32 window on a small game) and runs ``rtp --set DIR`` in a subprocess under
``/usr/bin/time``, ``--repeat`` times each; prints the median and the spread
of the wall time and the peak RSS.

    python benchmarks/bench_limits.py [--repeat 2] [--only stops,spins]
    python benchmarks/bench_limits.py --costs [--repeat 2]

``--costs``: each up-front estimate (``exact.rules.costs``) against the measured command on sets of
``tests/gen_costs.py``: one just under its limit or below (the command runs; wall, CPU and peak RSS against
the estimate) and one above (the one-line refusal, and how long it takes, loading included).
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from strips.limits import Limits  # noqa: E402
from strips.loader import bundled_path  # noqa: E402

L = Limits()
RETRIGGER_GAME = """\
[game]
reels = 3
rows = 1
bet = 1
[strips]
base = "base.csv"
[symbols.A]
class = "pay"
pays = [0, 0, 5]
[symbols.B]
class = "pay"
pays = [0, 1, 2]
[symbols.S]
class = "scatter"
reels = {{ base = [1, 2, 3] }}
[free_spins]
strips = "base"
trigger = {{ 3 = 10 }}
retrigger = {{ 3 = 10 }}
retrigger_cap = {cap}
[[free_spins.levels]]
multiplier = 2
"""


def window_game(d: Path, reels: int, rows: int, stops: int = 64) -> None:
    """A game of ``reels`` x ``rows`` with pay, WILD, KEY, FISH and scatter symbols on random strips."""
    import random
    r = list(range(1, reels + 1))
    g = (f"[game]\nreels = {reels}\nrows = {rows}\nbet = 1\n[strips]\nbase = \"base.csv\"\n"
         f"[symbols.A]\nclass = \"pay\"\npays = {[0, 0] + list(range(1, reels - 1))}\n"
         f"[symbols.B]\nclass = \"pay\"\npays = {[0, 1] + [2 * i for i in range(1, reels - 1)]}\n"
         f"[symbols.W]\nclass = \"wild\"\nreels = {{ base = {r[1:]} }}\n"
         f"[symbols.K]\nclass = \"key\"\nreels = {{ base = {r} }}\n"
         f"[symbols.F]\nclass = \"fish\"\nreels = {{ base = {r} }}\nvalues = [1, 5]\n"
         f"weights.base = [3, 1]\nweights.level1 = [1, 1]\nweights.level2 = [1, 2]\n"
         f"[symbols.S]\nclass = \"scatter\"\nreels = {{ base = {r} }}\n"
         f"[free_spins]\nstrips = \"base\"\ntrigger = {{ 3 = 10 }}\nretrigger = false\n"
         f"[[free_spins.levels]]\nmultiplier = 1\nweights = \"level1\"\n"
         f"[[free_spins.levels]]\nthreshold = 5\nspins = 5\nmultiplier = 2\nweights = \"level2\"\n")
    d.mkdir()
    (d / "game.toml").write_text(g)
    rng = random.Random(1)
    lines = [",".join(f"reel{j + 1}" for j in range(reels))]
    lines += [",".join(rng.choice(["A", "B", "A", "B", "S", "K", "F"] + (["W"] if j else [])) for j in range(reels))
              for _ in range(stops)]
    (d / "base.csv").write_text("\n".join(lines) + "\n")


def grown(d: Path, axis: str) -> None:
    """Write the bundled set grown along ``axis`` to the default limit into ``d``."""
    if axis == "window":
        window_game(d, L.reels, L.rows)
        return
    if axis == "retrigger_cap":
        d.mkdir()
        (d / "game.toml").write_text(RETRIGGER_GAME.format(cap=L.retrigger_cap))
        (d / "base.csv").write_text("reel1,reel2,reel3\nA,A,B\nS,S,S\nB,A,A\nA,B,A\n")
        return
    shutil.copytree(bundled_path("rules_page"), d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__", "*.md"))
    g = (d / "game.toml").read_text()
    if axis == "symbols":
        n = L.symbols - len([ln for ln in g.splitlines() if ln.startswith("[symbols.")]) - 1  # HOOK is an alias
        g += "".join(f'\n[symbols.X{i}]\nclass = "pay"\npays = [0, 0, 1, 2, 3]\n' for i in range(n))
    elif axis == "stops":
        for f in ("base.csv", "bonus.csv"):
            lines = (d / f).read_text().splitlines()
            (d / f).write_text("\n".join([lines[0]] + [lines[1 + i % (len(lines) - 1)] for i in range(L.stops)]) + "\n")
        g = g.replace("length = 100 ", f"length = {L.stops} ")
    elif axis == "spins":
        g = g.replace("trigger = { 3 = 10,", f"trigger = {{ 3 = {L.spins},")
    elif axis == "threshold":
        g = g.replace("threshold = 9\n", f"threshold = {L.threshold}\n")
    elif axis == "chain_work":  # spins and threshold together, just under the chain-work estimate
        g = g.replace("trigger = { 3 = 10,", "trigger = { 3 = 440,").replace("threshold = 9\n", "threshold = 440\n")
    (d / "game.toml").write_text(g)


def measure(d: Path) -> tuple[float, int]:
    """(wall seconds, peak RSS KiB) of ``rtp --set d``."""
    cmd = ["/usr/bin/time", "-f", "%e %M", sys.executable, "-c",
           "import sys; from exact.cli import main; sys.exit(main(sys.argv[1:]))", "--set", str(d)]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    if p.returncode not in (0, 1):
        raise SystemExit(f"{d}: exit {p.returncode}: {p.stderr.strip().splitlines()[0]}")
    wall, rss = p.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss)


#: (label, generator name and arguments, command) of the estimates' runs (README "Input limits", the table of
#: estimates against measured figures); the runs below the limit first, then the refusals above it.
COST_CASES = (
    ("win distribution, 160 initial spins", ("initial_spins", 160), ["distribution"]),
    ("exact figures, ladder 300 spins x threshold 300", ("chain_work_ladder", 300, 300), []),
    ("award odds, ladder 100 x 100", ("chain_work_ladder", 100, 100), ["comply", "--no-distribution"]),
    ("hold and win, 100 respins", ("hold_and_win_respins", 100), []),
    ("simulation, rules page, 10^7 rounds", ("bundled_copy", "rules_page"), ["simulate", "--rounds", "10000000"]),
    ("refused: win distribution at the chain-work limit", ("chain_work_ladder",), ["distribution"]),
    ("refused: win distribution, 1,000 initial spins", ("initial_spins", 1000), ["distribution"]),
    ("refused: award odds at the chain-work limit", ("chain_work_ladder",), ["comply", "--no-distribution"]),
    ("refused: hold and win, 1,000 respins", ("hold_and_win_respins", 1000), []),
)


def measure_costs(tmp: Path, repeat: int, refusals_only: bool = False, case: str | None = None) -> None:
    """Print each of :data:`COST_CASES`: its estimates and the measured wall (median, spread), CPU and peak RSS."""
    sys.path.insert(0, str(ROOT / "tests"))
    import gen_costs
    from exact.rules import costs
    from strips.loader import load_math_set
    for label, (gen, *gargs), command in COST_CASES:
        if (refusals_only and not label.startswith("refused")) or (case and case not in label):
            continue
        d = tmp / gen / ("_".join(map(str, gargs)) or "defaults")
        if not d.exists():
            getattr(gen_costs, gen)(d, *gargs)
        analysis = command[0] if command else "report"
        est = ", ".join(f"{c.estimate:,} {'s' if c.limit == 'seconds' else 'MiB'}"
                        for c in costs(load_math_set(d), analysis))
        if analysis == "simulate":      # the simulation's own estimate, from the exact chain's spins a round
            from exact import par_sheet
            from exact.rules.estimates import simulation_cost
            played = 1 + float(par_sheet(load_math_set(d)).round.free_spins_played)
            est += f"; simulation {simulation_cost([('default', int(command[2]), played)]).estimate:,} s"
        runs = []
        for _ in range(repeat):
            cmd = ["/usr/bin/time", "-f", "%e %U %M", sys.executable, "-c",
                   "import sys; from exact.cli import main; sys.exit(main(sys.argv[1:]))", *command, "--set", str(d)]
            p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                               env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "RTP_PROGRESS": "0"})
            wall, cpu, rss = p.stderr.strip().splitlines()[-1].split()
            runs.append((float(wall), float(cpu), int(rss), p.returncode))
        walls = [w for w, *_ in runs]
        print(f"{label}: estimated {est}; exit {runs[0][3]}, wall median {statistics.median(walls):.2f} s "
              f"(spread {min(walls):.2f}-{max(walls):.2f}), CPU {statistics.median(c for _, c, _, _ in runs):.2f} s, "
              f"peak RSS {max(r for _, _, r, _ in runs) / 1024:.0f} MiB", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--costs", action="store_true", help="the up-front estimates against measured runs")
    ap.add_argument("--refusals", action="store_true", help="with --costs: only the refusals above the limits")
    ap.add_argument("--case", default=None, help="with --costs: only the cases whose label contains this")
    ap.add_argument("--only", default="symbols,stops,spins,threshold,chain_work,retrigger_cap,window")
    args = ap.parse_args()
    if args.costs:
        with tempfile.TemporaryDirectory() as tmp:
            measure_costs(Path(tmp), args.repeat, args.refusals, args.case)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for axis in args.only.split(","):
            d = Path(tmp) / axis
            grown(d, axis)
            runs = [measure(d) for _ in range(args.repeat)]
            walls = [w for w, _ in runs]
            limit = f"{L.reels} x {L.rows}" if axis == "window" else f"{getattr(L, axis):,}"
            print(f"{axis:<14} limit {limit:>13}: wall median {statistics.median(walls):6.2f} s "
                  f"(spread {min(walls):.2f}-{max(walls):.2f}), peak RSS {max(r for _, r in runs) / 1024:6.0f} MiB",
                  flush=True)


if __name__ == "__main__":
    main()
