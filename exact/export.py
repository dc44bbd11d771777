"""``rtp export``: the PAR sheet of a math set as an XLSX workbook or as CSV tables.

One sheet (or CSV file) per table: summary, per-symbol ways of the base game,
the reel strips (one column per reel, position 0 first, as math teams keep
them), the FISH weight tables, the trigger table with the feature per
trigger, and the ladder.  Every exact figure is written twice, side by side:
as a number (a float cell, for reading and charts) and, in the column to its
right headed ``... exact``, as the exact fraction ``"p/q"`` (text).  Integers
(bet, weights, spins, counts) are integer cells.  The number column is for
display: openpyxl stores a float with 16 significant digits (Excel computes
with 15), so only the ``exact`` column reads back exactly.  The tables are built once
(:func:`par_sheets`) from the report object; the XLSX and CSV writers are two
views of the same tables.

Output paths are checked before any work: the parent directory must exist,
the target must not be a directory (``--xlsx``) or a file (``--csv``), and
nothing is ever written into a directory that holds an input file of the
math set (so an input file can never be overwritten).  This module builds
the file contents (:func:`xlsx_bytes`, :func:`csv_files`); the command line
writes them atomically with its one writer (:mod:`exact.cli.outputs`): the
CSV tables as one directory renamed into place whole.

Source: the PAR report (:mod:`exact.report`); rules page sections 3, 5, 7,
10, 11; issue 8.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from fractions import Fraction

from strips.model import FISH, MathSet
from exact.report import CONFIDENCE, Report, fraction_text

#: Longest text an XLSX cell holds.
XLSX_CELL_LIMIT = 32767


@dataclass(frozen=True)
class Sheet:
    """One table of the PAR sheet.

    Attributes
    ----------
    name : str
        Sheet title (at most 31 characters); the CSV file is ``slug + ".csv"``.
    slug : str
        File-name form of the title.
    header : tuple of str
    rows : tuple of tuple
        Cells: int, float (an exact figure's numeric column), str (names and
        the ``"p/q"`` exact columns) or None (empty).
    """

    name: str
    slug: str
    header: tuple[str, ...]
    rows: tuple[tuple, ...]


def _num(x) -> list:
    """An exact figure as two cells: number (int if integral, else float) and exact ``"p/q"`` text."""
    x = Fraction(x)
    return [int(x) if x.denominator == 1 else float(x), fraction_text(x)]


def _cols(*names: str) -> list[str]:
    """Headers of exact figures: each name and ``name exact``."""
    return [h for n in names for h in (n, f"{n} exact")]


def par_sheets(rep: Report, ms: MathSet) -> list[Sheet]:
    """Every table of the PAR workbook, built from the report and the parsed set.

    Returns
    -------
    list of Sheet
        Summary, Symbols, Strips <set> (one per strip set), Fish weights,
        Trigger, Ladder.  Probabilities per spin, wins in credits, RTPs as
        fractions of 1.
    """
    model, r, a = ms.model, rep.round, rep.analysis
    bet = rep.bet
    sheets = []

    rows: list[list] = [["math set", rep.set_name, None], ["fingerprint (sha256)", rep.fingerprint, None],
                        ["bet (credits per round)", bet, None]]
    figures = [("RTP", rep.rtp), ("mean win (credits per round)", r.mean),
               ("variance (credits^2 per round)", r.variance)]
    figures += [(f"RTP {k.replace('_', ' ')}", v / bet) for k, v in rep.components.items()]
    figures += [(f"RTP free spins level {i}", w / bet) for i, w in enumerate(r.free_spins_by_level, start=1)]
    figures += [("base spin hit frequency", a.base.hit_frequency), ("trigger probability (any)", r.trigger_probability),
                ("initial free spins per round (q)", r.q), ("free spins played per round", r.free_spins_played)]
    if rep.has_collect:
        figures += [(f"P(2+ KEY) per {'base' if k == 'base' else 'free'} spin", p) for k, p in rep.key_2plus.items()]
    rows += [[name] + _num(x) for name, x in figures]
    rows.append(["standard deviation (bets per round, float)", rep.sd_per_bet, None])
    rows += [[f"volatility index {int(c * 100)}% (float)", rep.volatility_index(c), None] for c in CONFIDENCE]
    sheets.append(Sheet("Summary", "summary", ("figure", "value", "value exact"), tuple(map(tuple, rows))))

    rows = []
    for row in rep.symbol_rows():
        pays = model.symbol(row.symbol).pays
        for n, p, x in zip(row.oaks, row.oak_prob, row.rtp):
            rows.append([row.symbol, n, pays[n - 1]] + _num(p) + _num(x))
    sheets.append(Sheet("Symbols", "symbols", ("symbol", "OAK", "pay (credits per way)")
                        + tuple(_cols("P(OAK) per base spin", "RTP")), tuple(map(tuple, rows))))

    for name, rs in ms.strips.items():
        rows = [[i] + [reel[i] if i < len(reel) else None for reel in rs.reels] for i in range(max(rs.lengths))]
        sheets.append(Sheet(f"Strips {name}", f"strips_{name}",
                            ("position",) + tuple(f"reel{j + 1}" for j in range(len(rs.reels))),
                            tuple(map(tuple, rows))))

    rows = []
    for s in model.of_kind(FISH):
        for table, w in s.weights.items():
            total = sum(w)
            for v, wi in zip(s.values, w):
                rows.append([s.name, table, v, wi] + _num(Fraction(wi, total)))
    sheets.append(Sheet("Fish weights", "fish_weights", ("symbol", "table", "value (credits)", "weight")
                        + tuple(_cols("probability")), tuple(map(tuple, rows))))

    levels = len(a.levels)
    rows = []
    for n, f in r.features.items():
        p = r.trigger_prob[n]
        rows.append([n, f.initial_spins] + _num(p) + _num(f.mean) + _num(f.variance) + _num(f.spins)
                    + _num(f.keys) + _num(p * f.mean / bet)
                    + [c for i in range(1, levels) for c in _num(f.reach[i])])
    sheets.append(Sheet("Trigger", "trigger", (rep.scatter_name + " count", "initial free spins")
                        + tuple(_cols("probability per base spin", "feature mean win", "feature variance",
                                      "feature spins", "feature KEY", "RTP contribution",
                                      *(f"reach level {i + 1}" for i in range(1, levels)))),
                        tuple(map(tuple, rows))))

    rows = []
    for lv, pa, w, reach in zip(model.levels, a.levels, r.free_spins_by_level, r.reach):
        rows.append([lv.number, lv.threshold, lv.spins, lv.multiplier, lv.weights] + _num(pa.mean)
                    + _num(pa.hit_frequency) + _num(pa.key_2plus) + _num(reach) + _num(w / bet))
    sheets.append(Sheet("Ladder", "ladder", ("level", "KEY threshold", "spins", "multiplier", "weight table")
                        + tuple(_cols("mean win per spin", "hit frequency", "P(2+ KEY) per spin",
                                      "reach per round", "RTP")), tuple(map(tuple, rows))))
    return sheets


# --------------------------------------------------------------------------
# file contents (the command line writes them with its one atomic writer, exact/cli/outputs.py)
# --------------------------------------------------------------------------
def xlsx_bytes(sheets: list[Sheet]) -> bytes:
    """The tables as an XLSX workbook (openpyxl): numbers as numeric cells, exact fractions as text.

    Returns
    -------
    bytes
        The ``.xlsx`` file content.

    Raises
    ------
    ValueError
        If an exact fraction is longer than an XLSX cell holds (32,767 characters).
    """
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    wb.remove(wb.active)
    for sh in sheets:
        ws = wb.create_sheet(sh.name)
        ws.append(list(sh.header))
        for cell in ws[1]:
            cell.font = Font(bold=True)
        for row in sh.rows:
            for c in row:
                if isinstance(c, str) and len(c) > XLSX_CELL_LIMIT:
                    raise ValueError(f"an exact value of sheet {sh.name!r} has {len(c)} characters, more than "
                                     f"an XLSX cell holds; use --csv")
            ws.append(list(row))
        ws.freeze_panes = "A2"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def csv_files(sheets: list[Sheet]) -> dict[str, bytes]:
    """One CSV file per table: file name (``slug + ".csv"``) -> UTF-8 content, in sheet order.

    >>> from exact.export import Sheet
    >>> csv_files([Sheet("A", "a", ("x", "y"), ((1, 0.5), (2, None)))])
    {'a.csv': b'x,y\\n1,0.5\\n2,\\n'}
    """
    out = {}
    for sh in sheets:
        buf = io.StringIO(newline="")
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(sh.header)
        for row in sh.rows:
            w.writerow(["" if c is None else repr(c) if isinstance(c, float) else c for c in row])
        out[f"{sh.slug}.csv"] = buf.getvalue().encode("utf-8")
    return out
