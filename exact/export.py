"""``rtp export``: the PAR sheet of a math set, laid out as a test lab reads it (XLSX) or as CSV tables.

Sheets, one table each (a sheet with nothing in it is left out):

``Summary``
    game, math set, fingerprint, SHA-256 of each input file (``published.toml`` too), tool version,
    date, cycle size, RTP and its split, hit frequency, standard deviation,
    VI at 90/95/99%, and the largest win with its odds when the win
    distribution is given.
``Paytable``
    pays per symbol and OAK; symbol counts per reel of every strip set.
``Combinations``
    per symbol and OAK of the base game: hits per cycle (an exact integer),
    probability, 1 in N, RTP contribution.
``Features``
    per trigger: probability, 1 in N, spins, the chain's feature figures;
    per level: multiplier, spins, reach, RTP.
``Win distribution``
    the win-range table and percentiles (when given).
``Base spin win ranges``
    the same table for one base spin, exact, with hits per cycle (when the distribution is given).
``Compliance``
    the ``rtp comply`` table (when given).
``Published``
    each published fact: printed value, exact value, PASS/FAIL (when the set
    publishes any).
``Strips <set>``
    the reel strips, one column per reel, position 0 first.
``Fish weights``
    FISH value tables (games with FISH only).
``Bet modes``, ``Buys``, ``Prize wheels``, ``Gamble``
    per bet mode (cost, RTP, variance, trigger, respin, wheel share), per
    bought feature, every wheel award with its odds per round, the gamble's
    returns (games with these rules only).
``Exact``
    every exact figure of the other sheets as ``"p/q"`` text, with the sheet
    and cell it stands in.

Numbers are numeric cells with number formats (percent for RTP and shares,
``1 in N`` for odds, ``#,##0`` for counts); a float cell is for reading
(openpyxl keeps 16 significant digits, Excel computes with 15), the ``Exact``
sheet holds the value.  The CSV view writes the same tables, one file each,
numbers unformatted.

This module builds the file contents (:func:`xlsx_bytes`, :func:`csv_files`);
the command line writes them atomically with its one writer
(:mod:`exact.cli.outputs`).

Source: the PAR report (:mod:`exact.report`); compliance (:mod:`exact.comply`);
issue 14 (the lab's PAR workbook).
"""
from __future__ import annotations

import csv
import hashlib
import io
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Mapping, Sequence

from exact.formatting import fraction_text, scientific
from exact.par import CONFIDENCE, ParSheet as Report
from exact.rules import require
from strips.model import FISH, PAY, MathSet

#: Longest text an XLSX cell holds.
XLSX_CELL_LIMIT = 32767

PERCENT = "0.000000%"
PROB = "0.000000000"
ONE_IN = '"1 in "#,##0.00'
CREDITS = "#,##0.000000"
COUNT = "#,##0"
TWO = "0.00"


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
        Cells: int, float (an exact figure's display value; its exact form is
        in the ``Exact`` sheet), str or None (empty).
    formats : tuple of (str or None)
        Excel number format per column (None: General); the CSV view ignores it.
    row_formats : tuple of (str or None)
        For a sheet of mixed figures (``Summary``): the number format of each
        row's last column, overriding ``formats``.
    """

    name: str
    slug: str
    header: tuple[str, ...]
    rows: tuple[tuple, ...]
    formats: tuple = ()
    row_formats: tuple = ()


@dataclass
class _Book:
    """Collects sheets and, for every exact figure placed, its ``"p/q"`` with the cell it stands in."""

    sheets: list = field(default_factory=list)
    exact: list = field(default_factory=list)

    def add(self, name: str, slug: str, header: Sequence[str], rows: Sequence[Sequence], formats=(),
            row_formats=(), keys: int = 1) -> None:
        """Add a sheet; Fraction cells become floats (ints when integral) and are recorded in ``Exact``
        under the row's label (its first ``keys`` cells, space-separated) and the column header."""
        if not rows:
            return
        out = []
        for i, row in enumerate(rows):
            cells = []
            for j, c in enumerate(row):
                if isinstance(c, Fraction):
                    label = " ".join(str(x) for x in row[:keys])
                    self.exact.append((name, f"{_column(j)}{i + 2}", label, header[j], fraction_text(c)))
                    c = _cell_number(c)
                cells.append(c)
            out.append(tuple(cells))
        self.sheets.append(Sheet(name, slug, tuple(header), tuple(out), tuple(formats), tuple(row_formats)))


#: Beyond these magnitudes a float cell cannot hold the value (Excel's doubles): written as exact text.
_FLOAT_MAX, _FLOAT_MIN = Fraction(10) ** 300, Fraction(1, 10 ** 300)


def _cell_number(x: Fraction):
    """The display cell of an exact figure: an int, a float, or (beyond a float's range) its exact
    scientific text such as ``"8.95e-383"``; the ``Exact`` sheet holds the value itself."""
    if x.denominator == 1 and abs(x) < _FLOAT_MAX:
        return int(x)
    if x != 0 and not _FLOAT_MIN <= abs(x) <= _FLOAT_MAX:
        return scientific(x)
    return float(x)


def _column(j: int) -> str:
    s = ""
    j += 1
    while j:
        j, r = divmod(j - 1, 26)
        s = chr(65 + r) + s
    return s


def _one_in(p):
    """1 / p (a Fraction for a Fraction, a float for a float; None for 0)."""
    return None if not p else (Fraction(1) / p if isinstance(p, Fraction) else 1.0 / p)


#: First characters that make a spreadsheet read a text cell as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: A number written as text (an exact figure beyond a float's range, a ``p/q``): no formula can hide in it.
_NUMBER_TEXT = re.compile(r"[+-]?\d+(\.\d+)?([eE][+-]?\d+)?(/\d+)?")


def formula_like(text) -> bool:
    """Whether a text cell would be read as a formula by a spreadsheet: it starts with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return and is not a number written as text.

    Source: the OWASP CSV-injection rule.  Text of the user's files (title, symbol names, sources, printed
    facts) reaches the cells; such text is written as text, never a formula (:func:`xlsx_bytes`,
    :func:`csv_files`).

    >>> [formula_like(x) for x in ("=HYPERLINK(1)", "@A", "-2+3", "-8.95e-383", "-1/3", "PIC1", 5)]
    [True, True, True, False, False, False, False]
    """
    return isinstance(text, str) and text.startswith(FORMULA_STARTS) and not _NUMBER_TEXT.fullmatch(text)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def par_sheets(rep: Report, ms: MathSet, *, checks: Sequence | None = None, distribution=None,
               meta: Mapping[str, str] | None = None) -> list[Sheet]:
    """Every table of the PAR workbook.

    Parameters
    ----------
    rep : Report
        The PAR report of ``ms``.
    ms : MathSet
    checks : sequence of exact.comply.Check, optional
        The compliance table (``Compliance`` sheet).
    distribution : exact.distribution.WinDistribution, optional
        Adds the ``Win distribution`` and ``Tail and percentiles`` sheets and
        the max win with its odds and the round's hit frequency to the summary
        (float cells where the distribution is within a bound, never in ``Exact``).
    meta : mapping, optional
        ``version`` and ``date`` of the run (Summary).

    Returns
    -------
    list of Sheet
        In the order of the module docstring, ``Exact`` last.  Probabilities
        per spin or per round as labelled, wins in credits, RTP as a fraction
        of 1 (percent format).
    """
    require(ms, "export")
    model, r, a = ms.model, rep.round, rep.analysis
    bet = rep.bet
    meta = dict(meta or {})
    book = _Book()

    # ---- Summary ---------------------------------------------------------------
    rows: list[list] = [["game", model.title or model.name, None], ["math set", rep.set_name, None],
                        ["fingerprint (sha256 of the parsed maths)", rep.fingerprint, None]]
    for fname, data in sorted(ms.sources.items()):
        rows.append([f"sha256 of {fname}", _sha(data), None])
    if ms.published.sha256:   # the published facts checked (not maths: not in the fingerprint)
        rows.append([f"sha256 of {Path(ms.published.file).name}", ms.published.sha256, None])
    rows += [["tool version", meta.get("version", ""), None], ["date", meta.get("date", ""), None],
             ["bet (credits per round)", bet, COUNT]]
    for name, rs in ms.strips.items():
        rows.append([f"cycle of strip set {name} (stop combinations)", math.prod(rs.lengths), COUNT])
    rows.append(["RTP", rep.rtp, PERCENT])
    labels = {"base_ways": "RTP base game ways pays", "base_collect": "RTP base game collect",
              "base_scatter": "RTP base game scatter pays", "free_spins": "RTP free spins"}
    for k, v in rep.components.items():
        if v or k in ("base_ways", "free_spins"):
            rows.append([labels.get(k, f"RTP {k}"), v / bet, PERCENT])
    for i, w in enumerate(r.free_spins_by_level, start=1):
        rows.append([f"RTP free spins level {i}", w / bet, PERCENT])
    rows += [["mean win (credits per round)", r.mean, CREDITS], ["variance (credits^2 per round)", r.variance, CREDITS],
             ["hit frequency of the base spin", a.base.hit_frequency, PERCENT],
             ["hit frequency of the base spin, 1 in N", _one_in(a.base.hit_frequency), ONE_IN],
             ["standard deviation (bets per round)", rep.sd_per_bet, TWO]]
    rows += [[f"volatility index {int(c * 100)}% (bets)", rep.volatility_index(c), TWO] for c in CONFIDENCE]
    if model.levels:
        rows += [["trigger probability per base spin", r.trigger_probability, PROB],
                 ["trigger, 1 in N", _one_in(r.trigger_probability), ONE_IN],
                 ["free spins awarded per round (q)", r.q, PROB], ["free spins played per round", r.free_spins_played, PROB]]
    if distribution is not None:
        p = distribution.max_round_win_probability      # Fraction, or a float within the bound
        rows += [["max win of a round (credits)", distribution.max_round_win, COUNT],
                 ["max win of a round (bets)", Fraction(distribution.max_round_win, bet), TWO],
                 ["max win probability per round" + ("" if distribution.max_round_exact else " (float, within bound)"),
                  p, PROB], ["max win, 1 in N", _one_in(p) if p else None, ONE_IN]]
        hit, _ = distribution.hit_frequency
        rows.append(["hit frequency of the round", hit, PERCENT])
    book.add("Summary", "summary", ("figure", "value"), [row[:2] for row in rows], (None, None),
             [row[2] for row in rows])

    # ---- Paytable --------------------------------------------------------------
    rows = []
    for s in model.symbols:
        if s.kind == PAY or s.pays:
            rows.append([s.name, s.kind] + [s.pays[n] if n < len(s.pays) else 0 for n in range(model.reels)])
    header = ["symbol", "class"] + [f"{n} OAK (credits)" for n in range(1, model.reels + 1)]
    counts = []
    for name, rs in ms.strips.items():
        for s in model.symbols:
            per = [sum(1 for x in reel if x == s.name) for reel in rs.reels]
            if any(per):
                counts.append([s.name, name] + per + [sum(per)])
    book.add("Paytable", "paytable", header, rows, (None, None) + (COUNT,) * model.reels)
    book.add("Symbol counts", "symbol_counts", ["symbol", "strip set"]
             + [f"reel {i + 1}" for i in range(model.reels)] + ["total"], counts,
             (None, None) + (COUNT,) * (model.reels + 1))

    # ---- Combinations ----------------------------------------------------------
    cycle = math.prod(ms.phase_strips(model.base_phase).lengths)
    rows = []
    for row in rep.symbol_rows():
        pays = model.symbol(row.symbol).pays
        for n, p, x in zip(row.oaks, row.oak_prob, row.rtp):
            hits = p * cycle
            rows.append([row.symbol, n, pays[n - 1], int(hits) if hits.denominator == 1 else hits, p, _one_in(p), x])
    book.add("Combinations", "combinations",
             ("symbol", "OAK", "pay (credits per way)", "hits per cycle", "probability per base spin", "1 in N",
              "RTP contribution"), rows, (None, COUNT, COUNT, COUNT, PROB, ONE_IN, PERCENT), keys=2)

    # ---- Features ---------------------------------------------------------------
    levels = len(a.levels)
    rows = []
    for n, f in r.features.items():
        p = r.trigger_prob[n]
        rows.append([n, f.initial_spins, p, _one_in(p), f.mean, f.variance, f.spins, p * f.mean / bet]
                    + [f.reach[i] for i in range(1, levels)])
    book.add("Features", "features", (rep.scatter_name + " count", "initial free spins", "probability per base spin",
                                      "1 in N", "feature mean win (credits)", "feature variance (credits^2)",
                                      "feature spins", "RTP contribution")
             + tuple(f"reach level {i + 1}" for i in range(1, levels)), rows,
             (COUNT, COUNT, PROB, ONE_IN, CREDITS, CREDITS, TWO, PERCENT) + (PROB,) * (levels - 1))
    rows = []
    for lv, pa, w, reach in zip(model.levels, a.levels, r.free_spins_by_level, r.reach):
        rows.append([lv.number, lv.threshold, lv.spins, lv.multiplier, lv.weights, pa.mean, pa.hit_frequency,
                     reach, w / bet])
    book.add("Levels", "levels", ("level", "KEY threshold", "spins", "multiplier", "weight table",
                                  "mean win per spin (credits)", "hit frequency per spin", "reach per round", "RTP"),
             rows, (COUNT, COUNT, COUNT, COUNT, None, CREDITS, PERCENT, PROB, PERCENT))

    # ---- Win distribution ---------------------------------------------------------
    if distribution is not None:
        rows = [[wr.from_bets, wr.to_bets, wr.probability, wr.one_in, wr.rtp, wr.bound or None]
                for wr in distribution.win_ranges()]
        book.add("Win distribution", "win_distribution", ("from (bets)", "to (bets)", "probability per round",
                                                          "1 in N", "RTP contribution", "bound (floats)"),
                 rows, (TWO, TWO, PROB, ONE_IN, PERCENT, None), keys=2)
        rows = [[wr.from_bets, wr.to_bets, wr.probability, wr.one_in, wr.rtp,
                 Fraction(wr.hits) if isinstance(wr.hits, int) else wr.hits] for wr in distribution.base_win_ranges()]
        book.add("Base spin win ranges", "base_win_ranges",
                 ("from (bets)", "to (bets)", "probability per base spin", "1 in N", "RTP contribution",
                  f"hits per cycle ({distribution.base_cycle:,} stop combinations; expected hits where a value is drawn)"),
                 rows, (TWO, TWO, PROB, ONE_IN, PERCENT, CREDITS), keys=2)
        rows = [[f"P(round win >= {k} x bet)", distribution.tail(k)[0]] for k in (1, 10, 100, 1000, 5000)]
        rows += [[f"percentile {q} (credits)", x.credits] for q, x in distribution.percentiles().items()]
        book.add("Tail and percentiles", "tail_percentiles", ("figure", "value"), rows, (None, None),
                 [PROB] * 5 + [COUNT] * (len(rows) - 5))
    # ---- Bet modes, buys, prize wheels, gamble (issue 16) ---------------------------
    modes = getattr(rep, "modes_figures", {}) if getattr(rep, "modes", None) else {}
    if len(modes) > 1:
        rows = [[name, f["cost"], f["rtp"], f["mean_win"], f["variance"], f["trigger_any"],
                 _one_in(f["trigger_any"]), f.get("respin", {}).get("probability"), f.get("respin", {}).get("rtp"),
                 f.get("wheel_rtp")] for name, f in modes.items()]
        book.add("Bet modes", "bet_modes", ("mode", "cost (credits per round)", "RTP", "mean win (credits per round)",
                                            "variance (credits^2 per round)", "free spins trigger per round",
                                            "1 in N", "respin probability per round", "respin RTP", "wheel RTP"),
                 rows, (None, COUNT, PERCENT, CREDITS, CREDITS, PROB, ONE_IN, PROB, PERCENT, PERCENT))
    buys = getattr(rep, "buy", {})
    if buys:
        rows = [[name, b["cost"], b["trigger"], b["initial_spins"], b["rtp"], b["mean_win"], b["variance"]]
                for name, b in buys.items()]
        book.add("Buys", "buys", ("buy", "cost (credits)", "trigger", "initial free spins", "RTP",
                                  "mean win (credits per buy)", "variance (credits^2 per buy)"), rows,
                 (None, COUNT, COUNT, COUNT, PERCENT, CREDITS, CREDITS))
    wheels = getattr(rep, "wheel", {})
    if wheels:
        rows = []
        for name, w in wheels.items():
            rows.append([name, "wheel starts", w["probability"], _one_in(w["probability"]), w["rtp"]])
            rows += [[name, award, q, _one_in(q), None] for award, q in w["awards"].items()]
        book.add("Prize wheels", "prize_wheels", ("wheel", "award", "probability per round (default mode)", "1 in N",
                                                  "RTP share"), rows, (None, None, PROB, ONE_IN, PERCENT), keys=2)
    gamble = getattr(rep, "gamble", {})
    if gamble:
        labels = {"rtp_without_gamble": "RTP without gamble (the regulatory figure)",
                  "rtp_gamble_once": "RTP gambling every eligible win once",
                  "return_per_stake": "gamble return per unit staked (p x multiplier)",
                  "eligible_probability": "P(the round win may be gambled)"}
        rows = [[labels.get(k, k), v] for k, v in gamble.items()]
        book.add("Gamble", "gamble", ("figure", "value"), rows, (None, None),
                 [PROB if k == "eligible_probability" else PERCENT for k in gamble])

    # ---- Compliance, Published -----------------------------------------------------
    if checks:
        rows = [[c.rule.id, c.rule.jurisdiction, c.item, c.value if c.value is not None else c.value_float,
                 c.rule.min, c.rule.max, "PASS" if c.passed else "FAIL",
                 f"{c.rule.source}, {c.rule.section} ({c.rule.version})"] for c in checks]
        book.add("Compliance", "compliance", ("rule", "jurisdiction", "item", "value", "min", "max", "verdict",
                                              "source"), rows, (None, None, None, PROB, PROB, PROB, None, None))
    facts = [f for f in rep.facts if getattr(f, "is_fact", True)]
    if facts:
        rows = [[f.fact, f.source, f.published, f.exact if isinstance(f.exact, Fraction) else str(f.exact),
                 f.shown, f.status] for f in facts]
        book.add("Published", "published", ("fact", "source", "published", "exact", "exact, as printed", "verdict"),
                 rows)

    # ---- Strips, Fish weights ---------------------------------------------------------
    for name, rs in ms.strips.items():
        rows = [[i] + [reel[i] if i < len(reel) else None for reel in rs.reels] for i in range(max(rs.lengths))]
        book.add(f"Strips {name}", f"strips_{name}", ("position",) + tuple(f"reel{j + 1}" for j in range(len(rs.reels))),
                 rows, (COUNT,))
    rows = []
    for s in model.of_kind(FISH):
        for table, w in s.weights.items():
            total = sum(w)
            for v, wi in zip(s.values, w):
                rows.append([s.name, table, v, wi, Fraction(wi, total)])
    book.add("Fish weights", "fish_weights", ("symbol", "table", "value (credits)", "weight", "probability"), rows,
             (None, None, COUNT, COUNT, PROB))

    book.sheets.append(Sheet("Exact", "exact", ("sheet", "cell", "row", "column", "exact value (p/q)"),
                             tuple(book.exact)))
    return book.sheets


# --------------------------------------------------------------------------
# file contents (the command line writes them with its one atomic writer, exact/cli/outputs.py)
# --------------------------------------------------------------------------
def xlsx_bytes(sheets: list[Sheet]) -> bytes:
    """The tables as an XLSX workbook (openpyxl): numbers as numeric cells, exact fractions as text.

    A text cell that reads as a formula (:func:`formula_like`) is a string cell with Excel's quote prefix,
    so it shows and stays as typed and never runs.

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
            _as_text(cell)
        for i, row in enumerate(sh.rows):
            for c in row:
                if isinstance(c, str) and len(c) > XLSX_CELL_LIMIT:
                    raise ValueError(f"an exact value of sheet {sh.name!r} has {len(c)} characters, more than "
                                     f"an XLSX cell holds; use --csv")
            ws.append(list(row))
            for j, c in enumerate(row):
                if formula_like(c):
                    _as_text(ws.cell(row=i + 2, column=j + 1))
            for j, fmt in enumerate(sh.formats):
                if fmt and isinstance(row[j] if j < len(row) else None, (int, float)):
                    ws.cell(row=i + 2, column=j + 1).number_format = fmt
            if i < len(sh.row_formats) and sh.row_formats[i] and isinstance(row[-1], (int, float)):
                ws.cell(row=i + 2, column=len(row)).number_format = sh.row_formats[i]
        for j, h in enumerate(sh.header):
            width = max([len(str(h))] + [len(str(r[j])) for r in sh.rows[:200] if j < len(r) and r[j] is not None])
            ws.column_dimensions[_column(j)].width = min(max(10, width + 2), 70)
        ws.freeze_panes = "A2"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _as_text(cell) -> None:
    """Make an openpyxl cell holding formula-like text a string cell with the quote prefix."""
    if formula_like(cell.value):
        cell.data_type = "s"
        cell.quotePrefix = True


def _csv_cell(c):
    """A CSV field: empty for None, ``repr`` of a float (reads back to the same float), formula-like text
    behind one quote (the OWASP rule), anything else as is."""
    if c is None:
        return ""
    if isinstance(c, float):
        return repr(c)
    return "'" + c if formula_like(c) else c


def csv_files(sheets: list[Sheet]) -> dict[str, bytes]:
    """One CSV file per table: file name (``slug + ".csv"``) -> UTF-8 content, in sheet order.

    Text that a spreadsheet would read as a formula (:func:`formula_like`) is written behind one quote.

    >>> from exact.export import Sheet
    >>> csv_files([Sheet("A", "a", ("x", "y"), ((1, 0.5), (2, None), ("=1+1", -3)))])
    {'a.csv': b"x,y\\n1,0.5\\n2,\\n'=1+1,-3\\n"}
    """
    out = {}
    for sh in sheets:
        buf = io.StringIO(newline="")
        w = csv.writer(buf, lineterminator="\n")
        w.writerow([_csv_cell(c) for c in sh.header])
        for row in sh.rows:
            w.writerow([_csv_cell(c) for c in row])
        out[f"{sh.slug}.csv"] = buf.getvalue().encode("utf-8")
    return out
