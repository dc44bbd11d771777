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
``Scatter pays``, ``Free-spin combinations``
    scatter pays by count (pay, probability, 1 in N, RTP share); per free-spin level, symbol and
    OAK: probability, 1 in N, mean win per free spin (games with these only).
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
``Win cap``, ``Spin chance``, ``Gamble wheel``, ``Enumeration``, ...
    one sheet per section of a rule acting on or reporting on the round
    (:meth:`exact.par.ParSheet.section_rows`): its figures, dotted as the JSON keys them.
``Exact``
    every exact figure of the other sheets as ``"p/q"`` text, with the sheet
    and cell it stands in.

Numbers are numeric cells with number formats: every probability with 6
significant digits at any size (``0.00555827``, ``6.10367E-09``: scientific
below 1e-4, the format chosen per cell from its value), odds as ``1 in N``, RTP
and shares in percent, ``#,##0`` for counts; a float cell is for reading
(openpyxl keeps 16 significant digits, Excel computes with 15), the ``Exact``
sheet holds the value.  Each sheet of the workbook has two header rows: the
column names, then their units (``credits``, ``per base spin``, ``fraction of
the bet``); each is aligned as its column (numbers right), widths follow the
content (numbers never cut to ``###``, text capped and wrapped), and every sheet
is set up to print: landscape, fitted to the page width, the two header rows
repeated on every page, the sheet name and page number in the header and
footer.  The CSV view writes the same tables, one file each, numbers
unformatted, the unit in brackets after each column name.

This module builds the file contents (:func:`xlsx_bytes`, :func:`csv_files`);
the command line writes them atomically with its one writer
(:mod:`exact.cli.outputs`).

Source: the PAR report (:mod:`exact.report`); compliance (:mod:`exact.comply`);
the lab's PAR workbook.
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
from types import SimpleNamespace
from typing import Mapping, Sequence

from exact.formatting import fraction_text, scientific
from exact.par import CONFIDENCE, ParSheet
from exact.rules import component_rows, placed, require
from strips.model import FISH, PAY, MathSet

#: Longest text an XLSX cell holds.
XLSX_CELL_LIMIT = 32767

PERCENT = "0.000000%"
#: A probability: 6 significant digits at any size, the format chosen per cell (:func:`cell_format`).
PROB = "probability"
#: Odds ``1 in N``: N with 2 decimals, scientific from 10^12 (per cell, :func:`cell_format`).
ONE_IN = "1 in N"
#: A column whose format is the row's (``Sheet.row_formats``): a sheet of mixed figures.
ROW = "row"
#: Header rows of every sheet of the workbook: column names, then units.
HEADER_ROWS = 2
#: Widest text column (characters); longer text wraps.  Numbers are never cut.
TEXT_WIDTH = 48
#: Width of the Exact sheet's p/q column (characters; longer fractions wrap).
EXACT_WIDTH = 90
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
        Excel number format per column (None: General); :data:`PROB` and :data:`ONE_IN` are
        chosen per cell from its value (:func:`cell_format`); the CSV view ignores them.
    row_formats : tuple of (str or None)
        For a sheet of mixed figures (``Summary``, ``Compliance``): the number format of each row
        in the columns whose format is :data:`ROW`.
    units : tuple of str
        The unit of each column (the workbook's second header row; ``""``: none).
    """

    name: str
    slug: str
    header: tuple[str, ...]
    rows: tuple[tuple, ...]
    formats: tuple = ()
    row_formats: tuple = ()
    units: tuple = ()

    @property
    def csv_header(self) -> tuple[str, ...]:
        """The CSV header: each column name with its unit in brackets (``pay [credits per way]``)."""
        units = tuple(self.units) + ("",) * (len(self.header) - len(self.units))
        return tuple(f"{h} [{u}]" if u else h for h, u in zip(self.header, units))


@dataclass
class _Book:
    """Collects sheets and, for every exact figure placed, its ``"p/q"`` with the cell it stands in."""

    sheets: list = field(default_factory=list)
    exact: list = field(default_factory=list)
    titles: set = field(default_factory=set)

    def add(self, name: str, slug: str, header: Sequence, rows: Sequence[Sequence], formats=(),
            row_formats=(), keys: int = 1) -> None:
        """Add a sheet (its title fitted by :func:`_fit_title`); Fraction cells become floats (ints when integral)
        and are recorded in ``Exact``
        under the row's label (its first ``keys`` cells, space-separated) and the column name.

        ``header`` items are column names, or (name, unit) pairs (the unit goes to the second header row).
        """
        if not rows:
            return
        name = _fit_title(name, self.titles)      # Excel's 31 characters, every title distinct
        names = tuple(h[0] if isinstance(h, tuple) else h for h in header)
        units = tuple(h[1] if isinstance(h, tuple) else "" for h in header)
        out = []
        for i, row in enumerate(rows):
            cells = []
            for j, c in enumerate(row):
                if isinstance(c, Fraction):
                    label = " ".join(str(x) for x in row[:keys])
                    self.exact.append((name, f"{_column(j)}{i + 1 + HEADER_ROWS}", label, names[j], fraction_text(c)))
                    c = _cell_number(c)
                cells.append(c)
            out.append(tuple(cells))
        self.sheets.append(Sheet(name, slug, names, tuple(out), tuple(formats), tuple(row_formats), units))


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


#: What the Summary says for the round's figures when the win distribution is not computed.
NOT_COMPUTED = "not computed, run rtp distribution (or rtp export --distribution)"


def round_rows(rep: ParSheet, distribution=None) -> list[list]:
    """Summary rows [figure, value, unit, format] of the round's hit frequency and max win: from the
    win distribution when given, else one row saying they are not computed (:data:`NOT_COMPUTED`)."""
    if distribution is None:
        return [["hit frequency and max win of the round", NOT_COMPUTED, "", None]]
    bet = rep.bet
    p = distribution.max_round_win_probability      # Fraction, or a float within the bound
    hit, _ = distribution.hit_frequency
    return [["hit frequency of the round", hit, "per round", PERCENT],
            ["hit frequency of the round, odds", _one_in(hit), "1 in N rounds", ONE_IN],
            ["max win of a round", distribution.max_round_win, "credits", COUNT],
            ["max win of a round, in bets", Fraction(distribution.max_round_win, bet), "bets", TWO],
            ["max win probability" + ("" if distribution.max_round_exact else " (float, within bound)"),
             p, "per round", PROB], ["max win, odds", _one_in(p) if p else None, "1 in N rounds", ONE_IN]]


def par_sheets(rep: ParSheet, ms: MathSet, *, checks: Sequence | None = None, distribution=None,
               meta: Mapping[str, str] | None = None, round_distribution=None,
               unit_distributions: Mapping | None = None) -> list[Sheet]:
    """Every table of the PAR workbook.

    Parameters
    ----------
    rep : ParSheet
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
    round_distribution : exact.distribution.WinDistribution, optional
        Gives the Summary's round hit frequency and max win without the distribution's own sheets
        (``rtp export`` passes it when the distribution is cheap); ``distribution`` does both.
    unit_distributions : mapping, optional
        ``"bet mode NAME"`` / ``"buy NAME"`` -> WinDistribution of the other bet modes and the buys: one
        ``Win distribution`` sheet each (per round of that mode or buy, in bets of its cost).

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

    # ---- Summary: figure, value, unit ------------------------------------------------
    rows: list[list] = [["game", model.title or model.name, "", None], ["math set", rep.set_name, "", None],
                        ["fingerprint", rep.fingerprint, "sha256 of the parsed maths", None]]
    for fname, data in sorted(ms.sources.items()):
        rows.append([f"sha256 of {fname}", _sha(data), "", None])
    if ms.published.sha256:   # the published facts checked (not maths: not in the fingerprint)
        rows.append([f"sha256 of {Path(ms.published.file).name}", ms.published.sha256, "", None])
    rows += [["tool version", meta.get("version", ""), "", None], ["date", meta.get("date", ""), "", None],
             ["bet", bet, "credits per round", COUNT]]
    for name, rs in ms.strips.items():
        rows.append([f"cycle of strip set {name}", math.prod(rs.lengths), "stop combinations", COUNT])
    rows.append(["RTP", rep.rtp, "% of the bet", PERCENT])
    for _, words, v in component_rows(rep):
        rows.append([f"RTP {words}", v / bet, "% of the bet", PERCENT])
    for i, w in enumerate(r.free_spins_by_level, start=1):
        rows.append([f"RTP free spins level {i}", w / bet, "% of the bet", PERCENT])
    rows += [["mean win", r.mean, "credits per round", CREDITS],
             ["variance", r.variance, "credits^2 per round", CREDITS],
             ["hit frequency of the base spin", a.base.hit_frequency, "per base spin", PERCENT],
             ["hit frequency of the base spin, odds", _one_in(a.base.hit_frequency), "1 in N base spins", ONE_IN],
             ["standard deviation", rep.sd_per_bet, "bets per round", TWO]]
    rows += [[f"volatility index {int(c * 100)}%", rep.volatility_index(c), "bets", TWO] for c in CONFIDENCE]
    if model.levels:
        rows += [["trigger probability", r.trigger_probability, "per base spin", PROB],
                 ["trigger, odds", _one_in(r.trigger_probability), "1 in N base spins", ONE_IN],
                 ["free spins awarded (q)", r.q, "spins per round", PROB],
                 ["free spins played", r.free_spins_played, "spins per round", PROB]]
    rows += round_rows(rep, distribution if distribution is not None else round_distribution)
    book.add("Summary", "summary", ("figure", "value", "unit"), [row[:3] for row in rows], (None, ROW, None),
             [row[3] for row in rows])

    # ---- Paytable --------------------------------------------------------------
    rows = []
    for s in model.symbols:
        if s.kind == PAY or s.pays:
            rows.append([s.name, s.kind] + [s.pays[n] if n < len(s.pays) else 0 for n in range(model.reels)])
    header = ["symbol", "class"] + [(f"{n} OAK", "credits") for n in range(1, model.reels + 1)]
    counts = []
    for name, rs in ms.strips.items():
        for s in model.symbols:
            per = [sum(1 for x in reel if x == s.name) for reel in rs.reels]
            if any(per):
                counts.append([s.name, name] + per + [sum(per)])
    book.add("Paytable", "paytable", header, rows, (None, None) + (COUNT,) * model.reels)
    book.add("Symbol counts", "symbol_counts", ["symbol", "strip set"]
             + [(f"reel {i + 1}", "stops") for i in range(model.reels)] + [("total", "stops")], counts,
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
             ("symbol", "OAK", ("pay", "credits per " + rep.words.unit),
              ("hits per cycle", f"of {cycle:,} stop combinations"), ("probability", "per base spin"),
              ("odds", "1 in N base spins"), ("RTP contribution", "% of the bet")), rows,
             (None, COUNT, COUNT, COUNT, PROB, ONE_IN, PERCENT), keys=2)

    formats = SimpleNamespace(COUNT=COUNT, PERCENT=PERCENT, CREDITS=CREDITS, PROB=PROB, ONE_IN=ONE_IN, TWO=TWO, ROW=ROW,
                              one_in=_one_in)
    for rule in placed(rep.rules, "workbook", "after_combinations"):     # scatter pays, the free spins' sheets
        rule.workbook_sheets(rep, book, formats)
    # ---- Win distribution ---------------------------------------------------------
    units = ([("", distribution)] if distribution is not None else []) + list((unit_distributions or {}).items())
    for label, d in units:      # the default mode's, then each other bet mode's and each buy's
        rows = [[wr.from_bets, wr.to_bets, wr.probability, wr.one_in, wr.rtp, wr.bound or None]
                for wr in d.win_ranges()]
        book.add(_unit_title(label), "win_distribution" + (
            "_" + re.sub(r"[^0-9a-z]+", "_", label.lower()) if label else ""),
                 (("from", "bets"), ("to", "bets"), ("probability", "per round"), ("odds", "1 in N rounds"),
                  ("RTP contribution", "% of the bet"), ("bound", "of a float value")),
                 rows, (TWO, TWO, PROB, ONE_IN, PERCENT, None), keys=2)
    if distribution is not None:
        rows = [[wr.from_bets, wr.to_bets, wr.probability, wr.one_in, wr.rtp,
                 Fraction(wr.hits) if isinstance(wr.hits, int) else wr.hits] for wr in distribution.base_win_ranges()]
        book.add("Base spin win ranges", "base_win_ranges",
                 (("from", "bets"), ("to", "bets"), ("probability", "per base spin"), ("odds", "1 in N base spins"),
                  ("RTP contribution", "% of the bet"),
                  ("hits per cycle", f"of {distribution.base_cycle:,} stop combinations (expected hits where a value is drawn)")),
                 rows, (TWO, TWO, PROB, ONE_IN, PERCENT, CREDITS), keys=2)
        rows = [[f"P(round win >= {k} x bet)", distribution.tail(k)[0], "per round", PROB] for k in (1, 10, 100, 1000, 5000)]
        rows += [[f"percentile {q}", x.bets, "bets", TWO] for q, x in distribution.percentiles().items()]
        rows += [[f"percentile {q}, in credits", x.credits, "credits", COUNT] for q, x in distribution.percentiles().items()]
        book.add("Tail and percentiles", "tail_percentiles", ("figure", "value", "unit"), [x[:3] for x in rows],
                 (None, ROW, None), [x[3] for x in rows])
    # ---- the sections of the rules beyond the spins (bet modes, buys, prize wheels, gamble) ----------
    for rule in placed(rep.rules, "workbook", "end"):
        rule.workbook_sheets(rep, book, formats)
    # ---- the sections of the rules acting on or reporting on the round (win cap, ...): one sheet each -----
    for name, rows in rep.section_rows().items():
        book.add(name[:1].upper() + name[1:], "section_" + re.sub(r"[^0-9a-z]+", "_", name.lower()),
                 ("figure", "value"), rows, (None, ROW),
                 [COUNT if isinstance(v, int) else PROB if isinstance(v, Fraction) else None for _, v in rows])

    # ---- Compliance, Published -----------------------------------------------------
    if checks:
        book.add("Compliance", "compliance", ("rule", "jurisdiction", "item", "value", "value, odds", "min", "max",
                                              "limit, odds", "verdict", "exact or bound", "source"),
                 [compliance_row(c) for c in checks],
                 (None, None, None, ROW, ONE_IN, ROW, ROW, ONE_IN, None, None, None),
                 [_MEASURE_FORMATS.get(c.rule.measure, PROB) for c in checks])
    facts = [f for f in rep.facts if getattr(f, "is_fact", True)]
    if facts:
        rows = [[f.fact, f.source, f.published, plain_text(f.exact), f.shown, f.status] for f in facts]
        book.add("Published", "published", ("fact", "source", "published", ("exact", "p/q where a fraction"),
                                            "exact, as printed", "verdict"), rows)

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
    book.add("Fish weights", "fish_weights", ("symbol", "table", ("value", "credits"), "weight",
                                              ("probability", "per FISH drawn")), rows,
             (None, None, COUNT, COUNT, PROB))

    book.sheets.append(Sheet("Exact", "exact", ("sheet", "cell", "row", "column", "exact value"),
                             tuple(book.exact), units=("", "", "", "", "p/q")))
    return book.sheets


_MEASURE_FORMATS = {"award_odds": PROB, "pattern_odds_ways": PROB, "hit_frequency": PROB, "rtp": PERCENT,
                    "sd_per_bet": TWO, "max_win_bets": TWO}


def compliance_row(c) -> list:
    """One Compliance row: rule, jurisdiction, item, value (exact, or a float), its odds where the measure is
    a probability, the limits (and their odds), PASS/FAIL, and whether the value is exact or a bound."""
    value = c.value if c.value is not None else c.value_float
    odds = _MEASURE_FORMATS.get(c.rule.measure) is PROB
    limit = c.rule.min if c.rule.min is not None else c.rule.max
    if c.exact:
        kind = "exact"
    elif c.value is not None:
        kind = "lower bound (the value is at least this; the rule passes only when the bound passes)"
    elif c.rule.measure == "sd_per_bet":
        kind = "float (a square root; the rule is checked exactly on the variance)"
    else:
        kind = "float within the win distribution's proven bound"
    return [c.rule.id, c.rule.jurisdiction, c.item, value, _one_in(value) if odds else None, c.rule.min, c.rule.max,
            _one_in(limit) if odds and limit else None, "PASS" if c.passed else "FAIL", kind,
            c.rule.citation()]


def plain_text(x) -> str | int:
    """An exact value of a published fact as plain text: ``p/q`` for a fraction, values joined by ``, ``,
    ``yes``/``no``, ``none`` for an empty list; an int stays an int.

    >>> plain_text((Fraction(1, 2), 3)), plain_text(True), plain_text(()), plain_text(7), plain_text("4; no")
    ('1/2, 3', 'yes', 'none', 7, '4; no')
    """
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return x
    if isinstance(x, Fraction):
        return fraction_text(x)
    if isinstance(x, (tuple, list, set, frozenset)):
        return ", ".join(str(plain_text(v)) for v in x) if x else "none"
    return str(x)


# --------------------------------------------------------------------------
# file contents (the command line writes them with its one atomic writer, exact/cli/outputs.py)
# --------------------------------------------------------------------------
def cell_format(fmt: str | None, value) -> str | None:
    """The Excel number format of one numeric cell: :data:`PROB` keeps 6 significant digits at any size
    (plain from 1e-4, ``0.00000E+00`` below), :data:`ONE_IN` is ``"1 in "#,##0.00`` (scientific from
    10^12); any other format as given.

    >>> cell_format(PROB, 0.00555827), cell_format(PROB, 6.103672e-09), cell_format(PROB, 0.42)
    ('0.00000000', '0.00000E+00', '0.000000')
    >>> cell_format(ONE_IN, 179.9), cell_format(ONE_IN, 3.2e13), cell_format(PERCENT, 0.96)
    ('"1 in "#,##0.00', '"1 in "0.00000E+00', '0.000000%')
    """
    if fmt == PROB:
        if not isinstance(value, (int, float)) or value == 0:
            return "0"
        a = abs(value)
        if a < 1e-4:
            return "0.00000E+00"
        places = max(0, 5 - math.floor(math.log10(a)))
        return "0." + "0" * places if places else "#,##0"
    if fmt == ONE_IN:
        return '"1 in "0.00000E+00' if isinstance(value, (int, float)) and abs(value) >= 1e12 else '"1 in "#,##0.00'
    return fmt


def shown_text(value, fmt: str | None) -> str:
    """About the text a spreadsheet shows for a cell under its format (for column widths)."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    fmt = cell_format(fmt, value)
    if not fmt:
        return f"{value:.10g}" if isinstance(value, float) else str(value)
    prefix = "1 in " if fmt.startswith('"1 in "') else ""
    body = fmt[len('"1 in "'):] if prefix else fmt
    if "E+" in body:
        return prefix + f"{value:.5e}"
    places = len(body.split(".")[1].rstrip("%")) if "." in body else 0
    scale = 100 if body.endswith("%") else 1
    return prefix + f"{value * scale:{',' if ',' in body else ''}.{places}f}" + ("%" if scale == 100 else "")


def _numeric(sh: Sheet, j: int) -> bool:
    """Whether column j of a sheet holds numbers (its header aligns right over them)."""
    cells = [r[j] for r in sh.rows if j < len(r) and r[j] is not None]
    return bool(cells) and all(isinstance(c, (int, float)) and not isinstance(c, bool) or _NUMBER_TEXT.fullmatch(str(c))
                               for c in cells)


def _unit_title(label: str) -> str:
    """The sheet title of a unit's win distribution: ``Win distribution`` for the default mode, else
    ``Dist. <label>`` ("bet mode NAME" shortened to "mode NAME"; :meth:`_Book.add` fits it to Excel).

    >>> _unit_title(""), _unit_title("bet mode fortune_bet"), _unit_title("buy fs")
    ('Win distribution', 'Dist. mode fortune_bet', 'Dist. buy fs')
    """
    if not label:
        return "Win distribution"
    return "Dist. " + (label.replace("bet mode ", "mode ", 1) if label.startswith("bet mode ") else label)


def _fit_title(title: str, used: set) -> str:
    """``title`` as a sheet title: at most Excel's 31 characters and distinct from the titles in ``used`` (a cut or
    repeated title ends in ``~k``); the title is added to ``used``.

    >>> used = set()
    >>> _fit_title("Summary", used), _fit_title("Summary", used)
    ('Summary', 'Summary~1')
    >>> a, b = _fit_title("Dist. mode " + "x" * 40, used), _fit_title("Dist. mode " + "x" * 41, used)
    >>> a != b and len(a) <= 31 and len(b) <= 31
    True
    """
    if len(title) > 31 or title in used:
        k = 1
        while f"{title[:31 - len(str(k)) - 1]}~{k}" in used:
            k += 1
        title = f"{title[:31 - len(str(k)) - 1]}~{k}"
    used.add(title)
    return title


def xlsx_bytes(sheets: list[Sheet], title: str = "") -> bytes:
    """The tables as an XLSX workbook (openpyxl): numbers as numeric cells, exact fractions as text.

    Every sheet: the column names (bold) and their units (italic) as two header rows aligned as their
    columns, widths from the content (numbers in full, text up to :data:`TEXT_WIDTH` characters, then
    wrapped), frozen header rows, and a print setup (landscape, fitted to the page width, header rows
    repeated on every page, ``title`` and the sheet name in the page header, page numbers in the footer).
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
    from openpyxl.styles import Alignment, Font
    from openpyxl.worksheet.properties import PageSetupProperties

    wb = Workbook()
    wb.remove(wb.active)
    for sh in sheets:
        ws = wb.create_sheet(sh.name)
        numeric = [_numeric(sh, j) for j in range(len(sh.header))]
        units = tuple(sh.units) + ("",) * (len(sh.header) - len(sh.units))
        ws.append(list(sh.header))
        ws.append(list(units))
        for r, font in ((1, Font(bold=True)), (2, Font(italic=True))):
            for j, cell in enumerate(ws[r]):
                cell.font = font
                cell.alignment = Alignment(horizontal="right" if numeric[j] else "left", vertical="bottom",
                                           wrap_text=True)
                _as_text(cell)
        widths = [max([len(w) for w in f"{h} {u}".split()] + [8]) for h, u in zip(sh.header, units)]
        # the Exact sheet's p/q column is wide (a 166-digit fraction wraps in a few lines)
        cap = [EXACT_WIDTH if sh.name == "Exact" and j == len(sh.header) - 1 else TEXT_WIDTH
               for j in range(len(sh.header))]
        for i, row in enumerate(sh.rows):
            for c in row:
                if isinstance(c, str) and len(c) > XLSX_CELL_LIMIT:
                    raise ValueError(f"an exact value of sheet {sh.name!r} has {len(c)} characters, more than "
                                     f"an XLSX cell holds; use --csv")
            ws.append(list(row))
            r = i + 1 + HEADER_ROWS
            for j, c in enumerate(row):
                cell = ws.cell(row=r, column=j + 1)
                if formula_like(c):
                    _as_text(cell)
                fmt = sh.formats[j] if j < len(sh.formats) else None
                if fmt == ROW:
                    fmt = sh.row_formats[i] if i < len(sh.row_formats) else None
                if isinstance(c, (int, float)) and not isinstance(c, bool):
                    f = cell_format(fmt, c)
                    if f:
                        cell.number_format = f
                text = shown_text(c, fmt) if isinstance(c, (int, float)) else ("" if c is None else str(c))
                if isinstance(c, str) and (numeric[j] or _NUMBER_TEXT.fullmatch(c)):   # a number as text
                    long = len(c) > cap[j]
                    cell.alignment = Alignment(horizontal="right", wrap_text=long, vertical="top" if long else None)
                    if fmt == ONE_IN:
                        cell.value = text = "1 in " + c
                elif isinstance(c, str) and len(c) > cap[j]:
                    cell.alignment = Alignment(wrap_text=True, vertical="top")
                width = len(text) if isinstance(c, (int, float)) else min(len(text), cap[j])
                widths[j] = max(widths[j], width)
        for j, w in enumerate(widths):
            ws.column_dimensions[_column(j)].width = w + 2
        ws.freeze_panes = f"A{HEADER_ROWS + 1}"
        ws.print_title_rows = f"1:{HEADER_ROWS}"
        ws.page_setup.orientation = "landscape"
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
        ws.print_options.gridLines = True
        ws.oddHeader.left.text = title.replace("&", "&&")
        ws.oddHeader.center.text = "&A"
        ws.oddFooter.center.text = "page &P of &N"
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
        w.writerow([_csv_cell(c) for c in sh.csv_header])
        for row in sh.rows:
            w.writerow([_csv_cell(c) for c in row])
        out[f"{sh.slug}.csv"] = buf.getvalue().encode("utf-8")
    return out


# ---- grid games ------------------------------------------------------------------------------------

#: The sheets of the reel-strip workbook a grid game's workbook cannot make, each with its one-line reason.
GRID_NOT_MADE = (
    ("Reel strips", "a grid game has no reel strips: each cell draws its symbol from [cells] weights"),
    ("Pays by symbol", "the wins of a grid are runs along its rows and columns in a cascade: the round's "
                       "figures by symbol and length are not tallied"),
    ("Compliance", "rtp comply on a grid game with random features or free-spin games is not modelled"),
    ("Win distribution (exact)", "a cascade can last any number of evaluations: the exact round "
                                 "distribution exists only for the chain-solved small grids (Round distribution)"),
)


def _figure(v):
    """A JSON figure: an exact ``"p/q"`` -> Fraction, a number as it is."""
    return Fraction(v) if isinstance(v, str) else v


def grid_sheets(figs: dict, meta: Mapping[str, str] | None = None) -> list[Sheet]:
    """The workbook of a grid game from its report's JSON figures (``rtp report --json`` on it: the
    chain's exact or bounded figures, or the certified simulation's, each simulated figure with its
    99% interval): ``Summary``, ``RTP split`` (the base game, each random feature, the free spins and the
    win cap's removal, with their shares), ``Free-spin games``, ``Win ranges``, ``Evaluations``,
    ``Round distribution`` (chain), ``First drop`` (exact), ``Not made`` (one line per sheet of the
    reel-strip workbook a grid game cannot have) and ``Exact``.

    >>> sheets = grid_sheets({"method": "simulation", "rtp": 0.9, "rtp_ci99": [0.89, 0.91],
    ...                       "first_drop": {"no_win": "1/2", "mean": "3/4"}})
    >>> [s.name for s in sheets]
    ['Summary', 'First drop', 'Not made', 'Exact']
    """
    book = _Book()
    how = {"simulation": "simulated, 99% interval", "chain": "chain, floating point within its bound",
           "exact": "exact"}.get(figs.get("method"), figs.get("method", ""))
    rows = []
    for key, label in (("rtp", "RTP (default choice)"), ("sd_per_bet", "SD per bet"),
                       ("hit_frequency", "hit frequency (P(round win > 0))"), ("p_free_spins", "P(free spins)"),
                       ("evaluations_mean", "evaluations per round (base cascade)"),
                       ("variance_reduction", "variance reduction (x, against plain Monte Carlo)"),
                       ("max_win_observed", "max win observed (coins, before the cap)"), ("rounds", "rounds simulated"),
                       ("seed", "seed")):
        if key in figs:
            ci = figs.get(f"{key}_ci99") or [None, None]
            rows.append((label, _figure(figs[key]), ci[0], ci[1],
                         "simulated" if key == "sd_per_bet" and figs.get("method") == "simulation" else
                         how if key not in ("rounds", "seed", "variance_reduction", "max_win_observed") else ""))
    cap = figs.get("win_cap")
    if cap:
        ci = cap.get("probability_ci99") or [None, None]
        rows.append((f"win cap {cap['bets']:,} x bet ({cap['coins']:,} coins): P(reached)", cap["probability"],
                     ci[0], ci[1], "simulated, 99% interval"))
    for k, v in (meta or {}).items():
        rows.append((k, v, None, None, ""))
    book.add("Summary", "summary", ("figure", "value", "99% low", "99% high", "how"), rows,
             ())
    if "base_game" in figs:
        split = [("base game without a feature", figs["base_game"])]
        split += [(f"feature {k}", v) for k, v in figs.get("features", {}).items()]
        split.append((f"free spins ({figs.get('default_choice', '')})", figs["free_spins"]))
        out = [(name, v["rtp"], *v["rtp_ci99"], v["rtp_share"], *v["rtp_share_ci99"]) for name, v in split]
        if cap:
            out.append(("removed by the win cap", -cap["removed_rtp"], -cap["removed_rtp_ci99"][1],
                        -cap["removed_rtp_ci99"][0], None, None, None))
        book.add("RTP split", "rtp_split", (("component", ""), ("RTP", "per bet"), "99% low", "99% high",
                                           ("share", "of the RTP"), "99% low", "99% high"), out,
                 (None, PERCENT, PERCENT, PERCENT, PERCENT, PERCENT, PERCENT))
    games = figs.get("free_spin_games")
    if games:
        out = []
        for g, v in games.items():
            ci = v.get("rtp_ci99") or [None, None]
            out.append((g, v.get("spins"), v.get("unlock"), _figure(v["rtp"]), ci[0], ci[1],
                        _figure(v.get("free_spins_rtp", v.get("award_mean_per_bet"))), v.get("rtp_share")))
        book.add("Free-spin games", "free_spin_games",
                 ("game", "spins", ("unlocked at", "keys"), ("round RTP", "fixed choice"), "99% low", "99% high",
                  ("free spins", "RTP per bet (chain: an award's mean per bet)"), ("share", "of the round RTP")),
                 out, (None, None, None, PERCENT, PERCENT, PERCENT, CREDITS, PERCENT))
    if figs.get("win_ranges_bets"):
        book.add("Win ranges", "win_ranges", (("from", "x bet"), ("to", "x bet"), "probability", "99% low", "99% high"),
                 [(r["from"], r["to"], r["probability"], *r["probability_ci99"]) for r in figs["win_ranges_bets"]],
                 (None, None, PROB, PROB, PROB))
    if figs.get("evaluations"):
        book.add("Evaluations", "evaluations", ("evaluations", "probability", "99% low", "99% high"),
                 [(e["evaluations"], e["probability"], *e["probability_ci99"]) for e in figs["evaluations"]],
                 (None, PROB, PROB, PROB))
    rd = figs.get("round_distribution") or {}
    if rd.get("distribution"):
        book.add("Round distribution", "round_distribution", (("win", "coins"), "probability"),
                 [(w, p) for w, p in rd["distribution"]], (None, PROB))
    fd = figs.get("first_drop") or {}
    if fd:
        out = [("P(no win)", _figure(fd["no_win"])), ("mean win (coins)", _figure(fd["mean"]))]
        out += [(f"P(first evaluation pays {w} coins)", _figure(p)) for w, p in fd.get("distribution") or []]
        book.add("First drop", "first_drop", ("figure (the initial drop before any feature, exact)", "value"), out,
                 ())
    book.add("Not made", "not_made", ("sheet", "why"), GRID_NOT_MADE)
    book.add("Exact", "exact", ("sheet", "cell", "row", "column", "exact value"), book.exact)
    return book.sheets
