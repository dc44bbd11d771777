"""``rtp export``: the PAR sheet as an XLSX workbook or CSV tables."""
from __future__ import annotations

from exact.cli.args import UsageError, add_set_argument
from exact.cli.outputs import check_output, input_directories
from exact.export import par_sheets, write_csv, write_xlsx
from exact.report import build_report
from proofs.facts import check_facts
from strips.loader import load_math_set


def add_arguments(p) -> None:
    add_set_argument(p)
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument("--xlsx", metavar="FILE", help="write the PAR workbook to FILE (.xlsx)")
    out.add_argument("--csv", metavar="DIR", help="write one CSV file per table into DIR")


def run(args) -> int:
    """``rtp export``: write the workbook or the CSV tables; exit 0, or 2 on bad input (one line)."""
    ms = load_math_set(args.set)
    protected = input_directories(args.set, ms)
    kind, target = ("xlsx", args.xlsx) if args.xlsx is not None else ("csv", args.csv)
    path = check_output(target, "rtp export", "file" if kind == "xlsx" else "dir", protected,
                        ".xlsx" if kind == "xlsx" else None)
    try:
        sheets = par_sheets(build_report(ms, check_facts), ms)
        if kind == "xlsx":
            write_xlsx(sheets, path)
            print(f"wrote {path} ({len(sheets)} sheets: {', '.join(s.name for s in sheets)})")
        else:
            files = write_csv(sheets, path)
            print(f"wrote {len(files)} CSV files into {path}: {', '.join(f.name for f in files)}")
    except ValueError as e:
        raise UsageError(f"rtp export: {ms.name}: {e}") from None
    except OSError as e:
        raise UsageError(f"rtp export: {target}: cannot write ({e.strerror or e})") from None
    return 0
