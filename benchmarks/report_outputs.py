"""Capture every view of the PAR sheet for a list of math sets, and compare two captures byte for byte.

The check run when a view of the PAR sheet moves (a section from ``exact/report.py`` into its rule module):
capture with the code before the change, capture with the code after it, compare; only intended differences
may show.  For every set it writes ``rtp --set X --json``, the text report, ``rtp check``, ``rtp diff`` of the
set against a variant (its strips with one stop changed), ``rtp export --csv`` (every CSV file) and
``rtp export --xlsx`` (each sheet's cells, read back with openpyxl: the file's bytes carry a timestamp), and
the notebook tables (``ParSheet.tables(frames=False)``, every cell as the HTML view shows it).

Sets: the bundled sets of ``strips/`` whose report is a PAR sheet (the grid set ``finn`` is simulated, and
left out) and the external sets the tests assemble from ``../shared/external`` (one reel set each; the
free-spin strips where the game has them).

Usage (``--code DIR`` runs the ``rtp`` of another checkout, e.g. ``/work/main``)::

    python benchmarks/report_outputs.py capture OUT [--code DIR] [--only NAME ...] [--jobs N]
    python benchmarks/report_outputs.py compare BEFORE AFTER

``compare`` prints each differing file with a unified diff (at most 40 lines each) and exits 1 when any file
differs or is missing on one side.
"""
from __future__ import annotations

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "external"
if not SHARED.is_dir():
    SHARED = Path("/work/shared/external")

#: Bundled sets whose report is a PAR sheet (finn, a grid game, is reported by simulation: left out).
BUNDLED = ("rules_page", "wheel_game", "hold_and_win", "tumble_anywhere")

#: game folder of ../shared/external -> the project's game file folder under strips/external.
EXTERNAL = {"african-simba": "african_simba", "book-of-ra": "book_of_ra", "captains-treasure": "captains_treasure",
            "chicago": "chicago", "devils-fruits": "devils_fruits", "dolphins-pearl": "dolphins_pearl",
            "double-hot-habanero": "double_hot_habanero", "forest-nymph": "forest_nymph", "fruit-shop": "fruit_shop",
            "gonzos-quest": "gonzos_quest", "jewels": "jewels", "mighty-rex": "mighty_rex",
            "misty-forest": "misty_forest", "ultra-hot": "ultra_hot"}

NOTEBOOK = """
import sys
import exact
from exact.tables import cell_text
ms = exact.load_math_set(sys.argv[1])
sheet = exact.par_sheet(ms)
for name, t in sheet.tables(frames=False).items():
    print("##", name, "|", t.title, "|", t.note)
    print(" | ".join(f"{c.label} [{c.kind}, {c.unit}]" for c in t.columns))
    for row in t.rows:
        print(" | ".join(cell_text(v, c.kind) for v, c in zip(row, t.columns)))
for k, v in sheet.figures().items():
    print(k, v)
"""

XLSX = """
import sys
from openpyxl import load_workbook
wb = load_workbook(sys.argv[1])
for ws in wb.worksheets:
    print("##", ws.title)
    for row in ws.iter_rows(values_only=True):
        print(repr(row))
"""


def external_sets(work: Path) -> dict[str, Path]:
    """Assemble each external game (its first reel set as base.csv) under ``work``: name -> directory."""
    out = {}
    for game, folder in EXTERNAL.items():
        src = SHARED / game
        if not src.is_dir():
            continue
        bases = sorted(p for p in src.glob("base*.csv"))
        d = work / folder
        d.mkdir(parents=True)
        for f in (ROOT / "strips" / "external" / folder).iterdir():
            shutil.copyfile(f, d / f.name)
        shutil.copyfile(bases[0], d / "base.csv")
        if (src / "bonus.csv").is_file():
            shutil.copyfile(src / "bonus.csv", d / "bonus.csv")
        out[folder] = d
    return out


def variant(src: Path, dst: Path) -> Path:
    """A copy of the math set ``src`` with the second data row of its base strips rotated by one reel:
    a small change every view of ``rtp diff`` reports."""
    shutil.copytree(src, dst)
    base = dst / "base.csv"
    lines = base.read_text().splitlines()
    for i in range(1, len(lines)):
        cells = lines[i].split(",")
        if len(set(cells)) > 1 and all(cells):
            lines[i] = ",".join(cells[1:] + cells[:1])
            break
    base.write_text("\n".join(lines) + "\n")
    return dst


def run(cmd: list[str], env: dict, out: Path, work: Path) -> None:
    """Run ``cmd``, write its stdout, stderr and exit code to ``out``, the folder ``work`` written ``SETS``
    (each capture assembles its sets in a folder of its own)."""
    p = subprocess.run(cmd, env=env, capture_output=True, cwd=tempfile.gettempdir())
    text = p.stdout + b"\n--- stderr ---\n" + p.stderr + f"\n--- exit {p.returncode} ---\n".encode()
    out.write_bytes(text.replace(str(work).encode(), b"SETS"))


def capture_set(name: str, path: Path, out: Path, work: Path, env: dict) -> str:
    """Every view of one math set ``path`` into ``out/name``."""
    py = sys.executable
    rtp = [py, "-m", "exact"]
    d = out / name
    d.mkdir(exist_ok=True)
    s = str(path)
    run(rtp + ["--set", s, "--json"], env, d / "report.json", work)
    run(rtp + ["--set", s], env, d / "report.txt", work)
    run(rtp + ["--set", s, "--digits", "2"], env, d / "report_digits2.txt", work)
    run(rtp + ["check", "--set", s], env, d / "check.txt", work)
    if (path / "base.csv").is_file():
        v = variant(path, work / "variants" / name)
        run(rtp + ["diff", s, str(v)], env, d / "diff.txt", work)
        run(rtp + ["diff", s, str(v), "--json"], env, d / "diff.json", work)
    csv_dir = work / "csv" / name
    csv_dir.parent.mkdir(parents=True, exist_ok=True)
    run(rtp + ["export", "--set", s, "--csv", str(csv_dir)], env, d / "export_csv.txt", work)
    for f in sorted(csv_dir.glob("*")) if csv_dir.is_dir() else ():
        (d / f"csv_{f.name}").write_bytes(f.read_bytes())
    xlsx = work / "xlsx" / f"{name}.xlsx"
    xlsx.parent.mkdir(parents=True, exist_ok=True)
    run(rtp + ["export", "--set", s, "--xlsx", str(xlsx)], env, d / "export_xlsx.txt", work)
    if xlsx.is_file():
        run([py, "-c", XLSX, str(xlsx)], env, d / "xlsx_cells.txt", work)
    run([py, "-c", NOTEBOOK, s], env, d / "notebook.txt", work)
    return name


def capture(out: Path, code: Path | None, only: list[str], jobs: int = 2) -> None:
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="rtp_outputs_"))
    try:
        sets = {}
        for name in BUNDLED:     # copied, so that the paths printed do not name the checkout
            sets[name] = work / "bundled" / name
            shutil.copytree((code or ROOT) / "strips" / name, sets[name])
        sets.update(external_sets(work / "ext"))
        chosen = [(n, p) for n, p in sets.items() if not only or n in only]
        with ThreadPoolExecutor(jobs) as pool:       # each set's commands in one thread, ``jobs`` sets at a time
            for name in pool.map(lambda item: capture_set(item[0], item[1], out, work, env), chosen):
                print(name, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def compare(a: Path, b: Path) -> int:
    fa = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    fb = {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    bad = 0
    for rel in sorted(fa | fb):
        if rel not in fa or rel not in fb:
            print(f"only in {'after' if rel in fb else 'before'}: {rel}")
            bad += 1
            continue
        x, y = (a / rel).read_bytes(), (b / rel).read_bytes()
        if x == y:
            continue
        bad += 1
        print(f"DIFFERS: {rel}")
        diff = difflib.unified_diff(x.decode(errors="replace").splitlines(), y.decode(errors="replace").splitlines(),
                                    "before", "after", lineterm="", n=1)
        for i, line in enumerate(diff):
            if i >= 40:
                print("  ...")
                break
            print("  " + line[:300])
    print(f"{len(fa | fb)} files, {bad} differ")
    return 1 if bad else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("capture")
    c.add_argument("out", type=Path)
    c.add_argument("--code", type=Path, default=None, help="the checkout whose rtp runs (default: this one)")
    c.add_argument("--only", nargs="*", default=[], help="only these sets")
    c.add_argument("--jobs", type=int, default=2, help="sets captured at once (default 2)")
    k = sub.add_parser("compare")
    k.add_argument("before", type=Path)
    k.add_argument("after", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "capture":
        capture(args.out, args.code, args.only, args.jobs)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
