"""The PAR report's tables as plain data: one :class:`Table` per section, for notebooks and HTML.

:func:`par_tables` turns a :class:`exact.par.ParSheet` into the tables of ``rtp
report`` (RTP split, symbol table, trigger table with the published check,
2+ KEY, features by trigger, levels, bet modes, buys, prize wheels, gamble,
published facts, compliance summary); :func:`distribution_tables` does the
same for a :class:`exact.distribution.WinDistribution` (win ranges of the round
and of the base spin, tail, percentiles in bets with credits beside, max wins).
Cells hold the exact figures (int, Fraction) or, where the figure is a float,
the float; every column says its kind and unit (:class:`Column`).

Two views read these tables and nothing else: the DataFrames of
:mod:`exact.notebook` (``ParSheet.tables()``, ``WinDistribution.to_frame()``)
and the HTML of ``_repr_html_`` (:func:`html_tables`).  Neither needs pandas.

Source: the PAR report (:mod:`exact.report`), the win distribution
(:mod:`exact.distribution`), issue "The whole PAR sheet ... in the notebook".
"""
from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass
from fractions import Fraction

from exact.formatting import decimal_text, one_in, percent, scientific, significant
from exact.rules import component_rows, placed, published_cells

__all__ = ["Column", "Table", "par_tables", "distribution_tables", "cell_text", "html_tables", "KINDS"]

#: Column kinds: how a cell is shown (its unit is in the column's ``unit``).
KINDS = ("text", "count", "probability", "odds", "rtp", "credits", "number", "float", "bool")


@dataclass(frozen=True)
class Column:
    """One column: ``label`` (as printed), ``kind`` (:data:`KINDS`), ``unit`` (text); ``name`` is the
    DataFrame column name (:func:`column_name` of the label).

    A ``probability``, ``rtp``, ``credits`` or ``number`` column holds exact ints/Fractions, or
    floats where the figure is a float (a probability within a proven bound); a ``float`` column
    holds floats only (square roots, bounds).
    """

    label: str
    kind: str = "text"
    unit: str = ""

    @property
    def name(self) -> str:
        return column_name(self.label)


_NAMES = {"1 in N": "one_in", "P(2+ KEY)": "key_2plus", "E[spins]": "spins_expected", "E[KEY]": "keys_expected",
          "sd/cost": "sd_per_cost", "RTP": "rtp"}


def column_name(label: str) -> str:
    """The DataFrame name of a column label: lower case, words joined by ``_``.

    >>> column_name("mean win"), column_name("1 in N"), column_name("reach L2")
    ('mean_win', 'one_in', 'reach_l2')
    """
    return _NAMES.get(label) or re.sub(r"[^0-9a-zA-Z]+", "_", label).strip("_").lower()


@dataclass(frozen=True)
class Table:
    """One table of the report: ``name`` (the key of :func:`par_tables`), ``title``, ``columns``,
    ``rows`` (tuples of cells, None for an empty cell) and a ``note`` said under it."""

    name: str
    title: str
    columns: tuple
    rows: tuple
    note: str = ""


def _table(name, title, columns, rows, note="") -> Table:
    """A Table; the columns ``published`` and ``check`` are left out when no row has a value there."""
    columns = [Column(*c) if isinstance(c, tuple) else c for c in columns]
    rows = [tuple(r) for r in rows]
    keep = [j for j, c in enumerate(columns) if c.label not in ("published", "check") or any(r[j] for r in rows)]
    return Table(name, title, tuple(columns[j] for j in keep), tuple(tuple(r[j] for j in keep) for r in rows), note)


def _inv(p):
    """1 / p, exact for an exact p; None for 0 or None."""
    if not p:
        return None
    return 1 / p if isinstance(p, float) else 1 / Fraction(p)


def par_tables(sheet, confidence=(), band_rounds=()) -> dict[str, Table]:
    """Every table of the PAR report of ``sheet`` (an :class:`exact.par.ParSheet`), in report order.

    ``confidence`` (fractions) and ``band_rounds`` (ints) are the volatility-index levels and the
    observed-RTP-band round counts of the report (:data:`exact.par.CONFIDENCE`, ``BAND_ROUNDS``);
    ``ParSheet.tables()`` passes them.  The compliance summary is there when the sheet carries one
    (``sheet.compliance``, set by :func:`exact.par_sheet`).

    Keys: ``summary``, ``rtp_split``, ``symbols``, ``volatility``, ``trigger``, ``key_2plus``,
    ``features``, ``levels``, ``scatter_pays``, ``modes``, ``buys``, ``wheels``, ``gamble``,
    ``published``, ``compliance``; a table the game has nothing for is left out.  Probabilities per
    base spin or per round as the title says, wins in credits, RTP as a fraction of 1.

    Examples
    --------
    >>> import exact
    >>> t = exact.par_sheet(exact.load_math_set("rules_page")).tables(frames=False)
    >>> list(t)[:4]
    ['summary', 'rtp_split', 'symbols', 'volatility']
    >>> split = t["rtp_split"]
    >>> split.rows[-1][0], split.rows[-1][2] == exact.par_sheet(exact.load_math_set("rules_page")).rtp
    ('total', True)
    """
    r, a, bet = sheet.round, sheet.analysis, sheet.bet
    out: dict[str, Table] = {}

    def add(t: Table) -> None:
        if t.rows:
            out[t.name] = t

    def placed_tables(place: str) -> None:
        """The tables of the rules the game uses that stand at ``place`` (:meth:`exact.rules.Rule.report_tables`)."""
        for rule in placed(sheet.rules, "tables", place):
            for table in rule.report_tables(sheet, _table, _inv):
                add(table)

    rows = [("RTP", sheet.rtp, "fraction of the bet"), ("mean win", sheet.mean_win, "credits"),
            ("variance", sheet.variance, "credits^2"), ("hit frequency of the base spin", sheet.hit_frequency_base,
                                                         "probability")]
    if r.features:
        rows += [("free spins trigger per base spin", sheet.trigger_any, "probability"),
                 ("free spins awarded per round (q)", sheet.q, "spins"),
                 ("free spins played per round", sheet.free_spins_played, "spins")]
    add(_table("summary", "Summary (per round)", [("figure",), ("value", "number"), ("unit",)], rows))

    rows = [(words, v, v / bet) for _, words, v in component_rows(sheet)]
    if len(r.free_spins_by_level) > 1:
        rows += [(f"  level {i} (x{a.levels[i - 1].phase.multiplier})", w, w / bet)
                 for i, w in enumerate(r.free_spins_by_level, start=1)]
    rows.append(("total", sheet.mean_win, sheet.rtp))
    add(_table("rtp_split", "RTP split", [("component",), ("credits per round", "credits", "credits"),
                                          ("RTP", "rtp", "fraction of the bet")], rows))

    rows = [(row.symbol, n, p, _inv(p), x) for row in sheet.symbol_rows()
            for n, p, x in zip(row.oaks, row.oak_prob, row.rtp)]
    add(_table("symbols", f"Base game {sheet.words.by_symbol} by symbol (per base spin{sheet.words.note})",
               [("symbol",), ("OAK", "count"), ("probability", "probability", "per base spin"),
                ("1 in N", "odds"), ("RTP", "rtp", "fraction of the bet")], rows))

    rows = [("standard deviation", sheet.sd_per_bet, "bets per round")]
    rows += [(f"volatility index {int(c * 100)}%", sheet.volatility_index(c), "bets") for c in confidence]
    for n in band_rounds:
        for c in confidence:
            lo, hi = sheet.rtp_band(n, c)
            rows += [(f"observed RTP band, {n:,} rounds, {int(c * 100)}%: low", lo, "fraction of the bet"),
                     (f"observed RTP band, {n:,} rounds, {int(c * 100)}%: high", hi, "fraction of the bet")]
    add(_table("volatility", "Volatility (floats: square roots)", [("figure",), ("value", "float"), ("unit",)], rows))

    if r.features:
        rows = [(f"{n} {sheet.scatter_name}", r.features[n].initial_spins, p, _inv(p), *published_cells(sheet, f"trigger.{n}"))
                for n, p in r.trigger_prob.items()]
        rows.append(("any", None, r.trigger_probability, _inv(r.trigger_probability), *published_cells(sheet, "trigger_any")))
        add(_table("trigger", "Free spins trigger (per base spin)",
                   [("trigger",), ("spins", "count"), ("probability", "probability", "per base spin"),
                    ("1 in N", "odds"), ("published",), ("check",)], rows))
    placed_tables("after_trigger")     # the KEY collect's 2+ KEY odds
    if r.features:
        levels = len(a.levels)
        rows = [(f"{n} {sheet.scatter_name}", f.initial_spins, f.mean, f.variance, math.sqrt(f.variance), f.spins)
                + ((f.keys,) if sheet.has_collect else ()) + tuple(f.reach[i] for i in range(1, levels))
                for n, f in r.features.items()]
        add(_table("features", "Free spins feature by trigger",
                   [("trigger",), ("spins", "count"), ("mean win", "credits", "credits"),
                    ("variance", "credits", "credits^2"), ("sd", "float", "credits"), ("E[spins]", "number", "spins")]
                   + ([("E[KEY]", "number", "KEYs")] if sheet.has_collect else [])
                   + [(f"reach L{i + 1}", "probability", "per feature") for i in range(1, levels)], rows))
        rows = [(lv.phase.name, lv.phase.multiplier, lv.mean, lv.hit_frequency)
                + ((lv.key_2plus,) if sheet.has_collect else ()) for lv in a.levels]
        add(_table("levels", "Per free spin (one spin of each level)",
                   [("level",), ("multiplier", "count"), ("mean win", "credits", "credits per spin"),
                    ("hit frequency", "probability", "per spin")]
                   + ([("P(2+ KEY)", "probability", "per spin")] if sheet.has_collect else []), rows))
    placed_tables("after_levels")
    for i, lv in enumerate(a.levels, start=1):
        add(level_symbols_table(sheet, i))
    placed_tables("end")        # the rules beyond the spins: bet modes, buys, prize wheels, the gamble
    for name, rows in sheet.section_rows().items():   # the rules acting on or reporting on the round
        add(_table("section_" + column_name(name), name[:1].upper() + name[1:], [("figure",), ("value", "number")],
                   rows))
    rows = [(f.fact, f.source, f.published, f.shown, f.status) for f in sheet.facts if f.is_fact]
    add(_table("published", "Published facts (the set's published.toml)",
               [("fact",), ("source",), ("published",), ("exact, as printed",), ("verdict",)], rows))
    add(compliance_table(sheet))
    return out


def level_symbol_rows(sheet, level: int) -> list[tuple]:
    """(symbol, OAK, P(OAK) per free spin, mean win per free spin in credits) of free-spin level ``level``
    (1-based): the per-symbol OAK table of the free-spin strips, the level's multiplier and weights applied."""
    lv = sheet.analysis.levels[level - 1]
    return [(s, n, lv.oak_prob[s][n - 1], ways[n - 1]) for s, ways in lv.ways_by_symbol.items()
            for n in sheet.paying_oaks[s]]


def level_symbols_table(sheet, level: int) -> Table:
    """The free-spin symbol table of one level (empty without free spins)."""
    lv = sheet.analysis.levels[level - 1]
    rows = [(s, n, p, _inv(p), w, w / sheet.bet) for s, n, p, w in level_symbol_rows(sheet, level)]
    return _table(f"free_spin_symbols_{level}", f"Free spins level {level} (x{lv.phase.multiplier}) by symbol "
                  f"(per free spin, {lv.phase.strips} strips)",
                  [("symbol",), ("OAK", "count"), ("probability", "probability", "per free spin"), ("1 in N", "odds"),
                   ("mean win", "credits", "credits per free spin"), ("share of the bet", "rtp", "per free spin")], rows)


def compliance_table(sheet) -> Table:
    """One row per jurisdiction: checks passed of checks run (``rtp report``'s summary line), from
    ``sheet.compliance`` (a callable returning {jurisdiction: (passed, checks)}); the top award is not
    checked here (it needs the win distribution; ``rtp comply`` checks it)."""
    columns = [("jurisdiction",), ("passed", "count"), ("checks", "count")]
    counts_of = getattr(sheet, "compliance", None)
    if counts_of is None:
        return _table("compliance", "Compliance summary", columns, [])
    try:
        counts = counts_of()
    except ValueError as e:
        return _table("compliance", "Compliance summary", columns, [], f"not computed ({e})")
    return _table("compliance", "Compliance summary (rtp comply lists every check)", columns,
                  [(j, p, n) for j, (p, n) in counts.items()],
                  "top award (the largest round win) not checked here: it needs the win distribution; "
                  "rtp comply checks it")


def distribution_tables(wd, tail_bets=(1, 10, 100, 1000, 5000)) -> dict[str, Table]:
    """The tables of ``rtp distribution`` for a :class:`exact.distribution.WinDistribution`
    (``tail_bets``: the k of P(round win >= k x bet), ``exact.distribution.TAIL_BETS``).

    Keys: ``win_ranges`` (the round), ``base_win_ranges`` (one base spin, exact, hits per cycle),
    ``tail`` (P(round win >= k x bet)), ``percentiles`` (bets and credits), ``max_wins``.  A float
    probability carries its proven bound in the column beside it.
    """
    out: dict[str, Table] = {}

    def ranges(rows, name, title, with_hits):
        cols = [("from", "number", "bets"), ("to", "number", "bets"), ("probability", "probability", "per round"),
                ("probability bound", "float"), ("1 in N", "odds"), ("RTP", "rtp", "fraction of the bet"),
                ("RTP bound", "float")] + ([("hits per cycle", "number", "stop combinations")] if with_hits else [])
        body = [(x.from_bets, x.to_bets, x.probability, x.bound, _inv(x.probability), x.rtp, x.rtp_bound)
                + ((x.hits,) if with_hits else ()) for x in rows]
        out[name] = _table(name, title, cols, body)

    ranges(wd.win_ranges(), "win_ranges", "Win ranges of the round (x bet; the row 0 to 0 is no win)",
           not wd.trigger_prob)
    if wd.trigger_prob:
        ranges(wd.base_win_ranges(), "base_win_ranges", "Win ranges of one base spin (exact)", True)
    rows = [("round win > 0 (hit frequency)", 0, *wd.hit_frequency)]
    rows += [(f"round win >= {k} x bet", k, *wd.tail(k)) for k in tail_bets]
    out["tail"] = _table("tail", "Tail (per round)", [("event",), ("k", "count", "bets"),
                                                      ("probability", "probability", "per round"),
                                                      ("bound", "float")], rows)
    rows = [("round", q, x.bets, x.credits, x.certain) for q, x in wd.percentiles().items()]
    rows += [(f"feature ({n0} free spins)", q, x.bets, x.credits, x.certain)
             for n0, fp in wd.feature_percentiles().items() for q, x in fp.items()]
    out["percentiles"] = _table("percentiles", "Percentiles (the smallest win w with P(win <= w) >= q)",
                                [("of",), ("percent",), ("win", "number", "bets"), ("win credits", "count", "credits"),
                                 ("certain", "bool")], rows)
    rows = [("base spin", wd.base.max_win, Fraction(wd.base.max_win, wd.bet), wd.base.max_win_probability, True)]
    rows += [(f"free spin, level {i}", w, Fraction(w, wd.bet), p, True)
             for i, (w, p) in enumerate(wd.max_level_wins, start=1)]
    rows.append(("round", wd.max_round_win, Fraction(wd.max_round_win, wd.bet), wd.max_round_win_probability,
                 wd.max_round_exact))
    out["max_wins"] = _table("max_wins", "Max win", [("of",), ("win credits", "count", "credits"),
                                                     ("win", "number", "bets"), ("probability", "probability"),
                                                     ("exact", "bool")], rows)
    return out


# ---------------------------------------------------------------------------
# text of one cell, and HTML
# ---------------------------------------------------------------------------
def probability_text(x, figures: int = 6) -> str:
    """A probability (or any number >= 0) to ``figures`` significant digits at any size: plain from 1e-4
    up, scientific below (the one rounding rule, :mod:`exact.formatting`); a float as its nearest
    exact value.

    >>> probability_text(Fraction(6103672, 10 ** 15)), probability_text(Fraction(1, 3)), probability_text(0.25)
    ('6.10367e-09', '0.333333', '0.25')
    """
    if isinstance(x, float):
        if x != 0 and abs(x) < 1e-4:
            return f"{x:.{figures - 1}e}"
        return f"{x:.{figures}g}"
    x = Fraction(x)
    if x != 0 and abs(x) < Fraction(1, 10 ** 4):
        return scientific(x, figures)
    return significant(x, figures)


def _sig(x) -> str:
    return probability_text(x, 6)


def cell_text(value, kind: str) -> str:
    """A cell as the report shows it: probabilities to 6 significant digits (scientific below 1e-4),
    ``1 in N``, RTP in percent, credits to 6 places, counts with separators.

    >>> cell_text(Fraction(1, 3), "probability"), cell_text(Fraction(8), "odds"), cell_text(Fraction(1, 3), "rtp")
    ('0.333333', '1 in 8.00', '33.333333%')
    >>> cell_text(Fraction(61, 10 ** 10), "probability"), cell_text(None, "rtp"), cell_text(1234567, "count")
    ('6.1e-09', '', '1,234,567')
    """
    if value is None:
        return ""
    if kind == "bool":
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if kind == "odds":
        if isinstance(value, float):
            return "1 in " + _sig(value)
        return one_in(1 / Fraction(value)) if value else "never"
    if kind == "count" and isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if kind == "rtp":
            return f"{100 * value:.6f}%"
        return _sig(value)
    if kind == "rtp":
        return percent(value, 6)
    if kind == "probability":
        return _sig(value)
    if kind == "credits":
        return decimal_text(Fraction(value), 6, grouping=True)
    v = Fraction(value)
    return f"{v.numerator:,}" if v.denominator == 1 else _sig(v)


#: The HTML view's style: numbers right-aligned, text (class ``l``) left-aligned.
HTML_STYLE = ("<style>table.rtp td, table.rtp th {text-align: right; padding: 1px 6px} "
              "table.rtp .l {text-align: left} table.rtp caption {text-align: left}</style>")


def html_table(t: Table) -> str:
    """One table as HTML: a caption, a header row with units, right-aligned numbers."""
    def cls(kind):
        return " class='l'" if kind in ("text", "bool") else ""
    heads = "".join(f"<th{cls(c.kind)}>{html.escape(c.label)}"
                    f"{'<br><small>' + html.escape(c.unit) + '</small>' if c.unit else ''}</th>" for c in t.columns)
    body = []
    for row in t.rows:
        kinds = [c.kind for c in t.columns]
        if [c.label for c in t.columns[1:3]] == ["value", "unit"]:   # a (figure, value, unit) table
            kinds[1] = {"fraction of the bet": "rtp", "probability": "probability"}.get(row[2], kinds[1])
        body.append("<tr>" + "".join(f"<td{cls(k)}>{html.escape(cell_text(v, k))}</td>" for v, k in zip(row, kinds))
                    + "</tr>")
    note = f"<p><small>{html.escape(t.note)}</small></p>" if t.note else ""
    return (f"<table class='rtp'><caption><b>{html.escape(t.title)}</b></caption>"
            f"<thead><tr>{heads}</tr></thead><tbody>{''.join(body)}</tbody></table>{note}")


def html_tables(title: str, tables, lines=()) -> str:
    """An HTML page section: a title, some lines of text, then every table (no raw arrays)."""
    head = f"<h3>{html.escape(title)}</h3>" + "".join(f"<p>{html.escape(x)}</p>" for x in lines)
    return "<div>" + HTML_STYLE + head + "".join(html_table(t) for t in tables) + "</div>"
