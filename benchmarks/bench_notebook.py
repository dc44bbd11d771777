"""Timing of the notebook views and the workbook (opt-in; not part of the test run).

Usage::

    python benchmarks/bench_notebook.py [--set SET] [--repeat N]

Prints the median and spread (min-max) over ``--repeat`` runs of: the PAR sheet
(``exact.par_sheet``), its tables as plain data (``tables(frames=False)``), as
DataFrames (``tables()``, needs pandas), its HTML (``_repr_html_``), and the
workbook's bytes (``par_sheets`` + ``xlsx_bytes``, without the distribution).
"""
from __future__ import annotations

import argparse
import statistics
import time

import exact
from exact.export import par_sheets, xlsx_bytes


def timed(label, fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    print(f"{label:<34} median {1000 * statistics.median(times):8.1f} ms  "
          f"(min {1000 * min(times):.1f}, max {1000 * max(times):.1f})")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", default="rules_page")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    ms = exact.load_math_set(a.set)
    sheet = timed("par_sheet", lambda: exact.par_sheet(ms, progress=False), a.repeat)
    timed("tables(frames=False)", lambda: sheet.tables(frames=False), a.repeat)
    try:
        timed("tables() (pandas DataFrames)", sheet.tables, a.repeat)
    except ImportError as e:
        print(f"tables(): {e}")
    page = timed("_repr_html_()", sheet._repr_html_, a.repeat)
    data = timed("workbook bytes (no distribution)", lambda: xlsx_bytes(par_sheets(sheet, ms)), a.repeat)
    print(f"HTML {len(page):,} characters; workbook {len(data):,} bytes")


if __name__ == "__main__":
    main()
