"""``rtp export``: the PAR sheet as an XLSX workbook or CSV tables."""
from __future__ import annotations

import datetime
import sys

from exact import __version__, load_math_set
from exact.cli import grid as grid_cli
from exact.cli.args import UsageError, add_set_argument, refuse_costly, refuse_unsupported
from exact.cli.comply import distribution_or_reason, unit_distributions_or_reasons
from exact.comply import comply, load_rules
from exact.cli.outputs import check_output, protected_inputs, write_output, write_output_dir
from exact.export import csv_files, par_sheets, xlsx_bytes
from exact.facts import checked_sheet
from exact.grid import is_grid
from exact.report import cheap_distribution


def add_arguments(p) -> None:
    add_set_argument(p)
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument("--xlsx", metavar="FILE", help="write the PAR workbook to FILE (.xlsx)")
    out.add_argument("--csv", metavar="DIR", help="write one CSV file per table into DIR")
    p.add_argument("--rules", metavar="FILE", default=None,
                   help="a jurisdiction rules file of your own for the Compliance sheet (see rtp comply)")
    p.add_argument("--distribution", action="store_true",
                   help="also compute the win distribution (seconds to a minute): Win distribution and Tail "
                        "sheets, max win, and the top award in the Compliance sheet")
    grid_cli.add_report_arguments(p)


def run(args) -> int:
    """``rtp export``: write the workbook or the CSV tables; exit 0, or 2 on bad input (one line)."""
    ms = load_math_set(args.set)
    refuse_unsupported(ms, 'export')
    if args.distribution:
        refuse_costly(ms, 'export', 'distribution', "or leave out --distribution")
    protected = protected_inputs(args.set, ms)
    kind, target = ("xlsx", args.xlsx) if args.xlsx is not None else ("csv", args.csv)
    path = check_output(target, "rtp export", "file" if kind == "xlsx" else "dir", protected,
                        ".xlsx" if kind == "xlsx" else None)
    try:
        meta = {"version": __version__, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
        if is_grid(ms):          # the grid's own workbook, from its report's figures
            sheets = grid_cli.export_sheets(args, ms, meta)
            return _write(ms, kind, path, sheets, protected)
        dist, why = distribution_or_reason(ms, not args.distribution)
        if args.distribution and dist is None:     # asked for and not computable: never silently left out
            raise ValueError(f"--distribution: {why} (leave out --distribution)")   # worded below
        rep = checked_sheet(ms)
        cheap = dist if dist is not None else cheap_distribution(ms)[0]   # the Summary's round figures when cheap
        others, others_why = unit_distributions_or_reasons(ms, not args.distribution)
        for label, reason in others_why.items():
            print(f"rtp export: {ms.name}: no win distribution sheet for {label} ({reason})", file=sys.stderr)
        checks = comply(ms, load_rules(args.rules), sheet=rep, distribution=dist, unit_distributions=others)
        sheets = par_sheets(rep, ms, checks=checks, meta=meta, distribution=dist, round_distribution=cheap,
                            unit_distributions=others)
    except ValueError as e:
        raise UsageError(f"rtp export: {ms.name}: {e}") from None
    return _write(ms, kind, path, sheets, protected)


def _write(ms, kind: str, path, sheets, protected) -> int:
    try:
        data = xlsx_bytes(sheets, f"{ms.model.title or ms.name} ({ms.name})") if kind == "xlsx" else csv_files(sheets)
    except ValueError as e:
        raise UsageError(f"rtp export: {ms.name}: {e}") from None
    if kind == "xlsx":
        write_output(path, data, protected, "rtp export")
        print(f"wrote {path} ({len(sheets)} sheets: {', '.join(s.name for s in sheets)})")
    else:
        files = write_output_dir(path, data, protected, "rtp export")
        print(f"wrote {len(files)} CSV files into {path}: {', '.join(f.name for f in files)}")
    return 0
