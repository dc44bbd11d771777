"""Benchmark: exact RTP of Gonzo's Quest (slotopol/server reel set 95.310212, 50,722,560 stop combinations with
avalanches), whole process `rtp --set DIR --json`, and the combinations per second; and a 6x5 pay-anywhere
game without cascades (the bundled tumble_anywhere's base strips, its [cascade] and multiplier symbol taken
out, free spins on the base strips), exact by the per-reel product of count polynomials, whole process; and a
6x5 pay-anywhere game of realistic size (60-stop strips, 12-entry pays), exact by pairs of counts.

The Gonzo's Quest set is assembled in a temporary directory from the project's game file and the third-party
strips in ../shared/external/gonzos-quest (as tests/test_external_cascade.py does).  Usage:

    python benchmarks/bench_cascade.py [--repeat 2] [--only gonzo|anywhere|realistic]
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STRIPS = ROOT.parent / "shared" / "external" / "gonzos-quest" / "base.csv"
GAME = ROOT / "strips" / "external" / "gonzos_quest"
CYCLE = 50_722_560
TUMBLE = ROOT / "strips" / "tumble_anywhere"


def _timed(cmd, repeat: int, expect: str) -> list[float]:
    """Wall times of ``repeat`` runs of ``cmd`` (sorted), each output checked to hold ``expect``."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        times.append(time.perf_counter() - t)
        assert expect in out, out[:400]
    return sorted(times)


def anywhere(repeat: int) -> None:
    """The 6x5 pay-anywhere game without cascades, whole process."""
    game = (TUMBLE / "game.toml").read_text()
    plain = re.sub(r"\n\[cascade\].*?(?=\n# pays)", "\n", game, flags=re.S)
    plain = re.sub(r"\n\[symbols\.M\].*?(?=\n\[free_spins\])", "\n", plain, flags=re.S)
    plain = re.sub(r'\nbonus = "bonus.csv".*', "", plain).replace('strips = "bonus"', 'strips = "base"')
    plain = plain.replace("reels = { base = [1, 3, 5], bonus = [1, 6] }", "reels = { base = [1, 3, 5] }")
    assert "[cascade]" not in plain and "symbols.M" not in plain and "bonus" not in plain
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "game.toml").write_text(plain)
        shutil.copyfile(TUMBLE / "base.csv", Path(d) / "base.csv")
        times = _timed([sys.executable, "-m", "exact", "--set", d, "--json"], repeat,
                       '"method": "per-reel product of count polynomials (262,144 stop combinations)"')
    print(f"6x5 pay anywhere without cascades (tumble_anywhere's base strips), exact by the per-reel product, "
          f"whole process: {', '.join(f'{x:.2f} s' for x in times)}; median {times[len(times) // 2]:.2f} s")


#: A 6x5 pay-anywhere game of realistic size: 60-stop strips drawn from a fixed seed, seven pay symbols with
#: 12-entry pays (8+ cells pay), a paying scatter that triggers free spins on the base strips (illustrative).
REALISTIC = """[game]
name = "realistic_anywhere"
reels = 6
rows = 5
bet = 100
evaluation = "anywhere"
[strips]
base = "base.csv"
{symbols}
[symbols.S]
class = "scatter"
pays = [0, 0, 0, 300, 500, 10000]
reels = {{ base = [1, 2, 3, 4, 5, 6] }}
[free_spins]
strips = "base"
trigger = {{ 4 = 10, 5 = 15, 6 = 20 }}
[[free_spins.levels]]
multiplier = 1
"""


def realistic(repeat: int) -> None:
    """The realistic 6x5 pay-anywhere game (46,656,000,000 stop combinations): moments by pairs of counts, the
    hit frequency by inclusion-exclusion, whole process."""
    import random
    rng = random.Random(6)
    pays = {"H1": [160, 160, 400, 400, 800], "H2": [80, 80, 200, 200, 400], "H3": [64, 64, 160, 160, 320],
            "L1": [8, 8, 16, 16, 40], "L2": [20, 20, 40, 40, 80], "L3": [16, 16, 32, 32, 64], "L4": [10, 10, 20, 20, 50]}
    symbols = "".join(f'[symbols.{n}]\nclass = "pay"\npays = {[0] * 7 + p}\n' for n, p in pays.items())
    names, weights = list(pays) + ["S"], [4, 5, 6, 9, 10, 11, 12, 2]
    strips = [rng.choices(names, weights, k=60) for _ in range(6)]
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "game.toml").write_text(REALISTIC.format(symbols=symbols))
        rows = [",".join(f"reel{r + 1}" for r in range(6))] + [",".join(s[i] for s in strips) for i in range(60)]
        (Path(d) / "base.csv").write_text("\n".join(rows) + "\n")
        times = _timed([sys.executable, "-m", "exact", "--set", d, "--json"], repeat,
                       '"method": "per-reel products of count polynomials, by pairs of counts (46,656,000,000 stop '
                       'combinations)"')
    print(f"6x5 pay anywhere of realistic size (60-stop strips, 12-entry pays, 46.7 G stop combinations), exact by "
          f"pairs of counts, whole process: {', '.join(f'{x:.2f} s' for x in times)}; median {times[len(times) // 2]:.2f} s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--only", choices=("gonzo", "anywhere", "realistic"))
    args = p.parse_args()
    if args.only in (None, "anywhere"):
        anywhere(args.repeat)
    if args.only in (None, "realistic"):
        realistic(args.repeat)
    if args.only in ("anywhere", "realistic"):
        return
    with tempfile.TemporaryDirectory() as d:
        for f in ("game.toml", "published.toml"):
            shutil.copyfile(GAME / f, Path(d) / f)
        shutil.copyfile(STRIPS, Path(d) / "base.csv")
        times = _timed([sys.executable, "-m", "exact", "--set", d, "--json", "--max-enumeration", str(10**8)],
                       args.repeat, '"rtp_percent": "95.310212"')
        med = times[len(times) // 2]
        print(f"Gonzo's Quest exact RTP 95.310212%, whole process: {', '.join(f'{x:.1f} s' for x in times)}; "
              f"median {med:.1f} s = {CYCLE / med / 1e6:.2f} M stop combinations/s (the base spin enumerated once; "
              f"the free spins are the same spins x3)")


if __name__ == "__main__":
    main()
