"""``rtp check``: every published fact of a math set (its ``published.toml``), checked exactly.

For each fact the command prints what is printed, the exact value on the set
(a Fraction, and at the printed precision) and PASS or FAIL; exit 1 if any
fact fails, 0 otherwise.  Assumptions (``[[assumptions]]``: a figure the set is
tuned to but that is not printed) are listed on their own lines and never
change the exit code.

What is checked is data of the set (:class:`strips.published.Published`),
never a game's name: figures of the PAR report as printed (``[[facts]]``, at
the printed precision: :meth:`strips.published.Printed.matches` states the
rounding rule), worked-example windows, strip shape and rules, symbol
placement and totals, and the rules transcribed from the page (``[rules]``)
against the game file.

Figure values come from one function, :func:`figure_values`
(:meth:`exact.par.ParSheet.figures`).

Source: for the bundled set, rules page sections 2-13 and
examples 1-9 (``strips/rules_page/published.toml``).
"""
from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass
from fractions import Fraction

from exact.par import ParSheet, par_sheet
from exact.rules import published_rule_facts
from strips.decimals import exact_text, safe_float
from strips.errors import MathSetError
from strips.model import MathSet
from strips.published import Assumption, Fact, Printed, Published

PASS, FAIL, MET, NOT_MET = "PASS", "FAIL", "assumption met", "assumption NOT met"


@dataclass(frozen=True)
class FactResult:
    """One published fact checked on a math set.

    Attributes
    ----------
    fact : str
        What is printed, in words.
    source : str
        Where it is printed (section, example).
    published : str
        The figure or content as printed.
    exact : object
        The exact value on the set: a Fraction (figures), an int (counts) or
        a str (window contents, placements).
    shown : str
        The exact value at the printed precision / in the printed form.
    status : str
        ``PASS`` or ``FAIL``; for an assumption ``assumption met`` or
        ``assumption NOT met``.
    figure : str
        The report figure key for a ``[[facts]]`` entry (e.g. ``trigger.3``),
        empty for the other kinds of fact.
    """

    fact: str
    source: str
    published: str
    exact: object
    shown: str
    status: str
    figure: str = ""

    @property
    def is_fact(self) -> bool:
        """False for an assumption line."""
        return self.status in (PASS, FAIL)

    @property
    def failed(self) -> bool:
        return self.status == FAIL


def _status(ok: bool) -> str:
    return PASS if ok else FAIL


def _window_text(window) -> str:
    """A window, shape (reels, rows), as printed: rows top to bottom separated by ' / '."""
    return " / ".join(" ".join(col[i] for col in window) for i in range(len(window[0])))


def figure_values(sheet: ParSheet) -> dict[str, Fraction | float]:
    """Every figure of the PAR sheet by dotted key (``rtp``, ``trigger.3``, ``levels.2.key_2plus``).

    The exact figures of :meth:`exact.par.ParSheet.figures` (Fractions), and
    beside them the display figures (:meth:`~exact.par.ParSheet.display_figures`,
    floats: they involve square roots), so a fact naming one is told it cannot
    be checked exactly rather than that it does not exist.
    """
    return {**sheet.display_figures(), **sheet.figures()}


def figure_facts(published: Published, figures: dict) -> list[FactResult]:
    """``[[facts]]``: each printed figure against the exact figure, at the printed precision.

    Raises
    ------
    MathSetError
        At the fact's ``figure`` key when the report has no such figure, or
        when it is a display float (it involves a square root) that cannot be
        compared exactly.
    """
    out = []
    for f in published.facts:
        x = _figure(f, figures)
        if f.per_bet:
            x = x / figures["bet"]
        out.append(FactResult(f.name, f.source, f.printed.text + (" of the bet" if f.per_bet else ""), x,
                              f.printed.show(x), _status(f.printed.matches(x)), figure=f.figure))
    return out


def _figure(f: Fact | Assumption, figures: dict) -> Fraction:
    x = figures.get(f.figure)
    if x is None:
        near = difflib.get_close_matches(f.figure, list(figures), n=3)
        hint = f" (did you mean {', '.join(near)}?)" if near else " (rtp --json lists the figures)"
        raise MathSetError(f.at.file, f.at.row, f.at.column,
                           f"figure {f.figure!r} is not a figure of this set's PAR report{hint}")
    if isinstance(x, float):
        raise MathSetError(f.at.file, f.at.row, f.at.column,
                           f"figure {f.figure!r} is a display float (it involves a square root), "
                           "not an exact figure: it cannot be checked exactly")
    return x


def assumption_lines(published: Published, figures: dict) -> list[FactResult]:
    """``[[assumptions]]``: target +/- tolerance of a figure that is not printed (never PASS/FAIL)."""
    out = []
    for a in published.assumptions:
        x = _figure(a, figures)
        shown = Printed(a.target.text, a.target.kind, a.target.number, a.target.decimals + 3).show(x)
        out.append(FactResult(f"{a.figure} (assumption: not a published figure)", a.source,
                              f"{a.target.text} +/- {a.tolerance.text}", x, shown,
                              MET if a.met(x) else NOT_MET, figure=a.figure))
    return out


def window_facts(ms: MathSet, published: Published) -> list[FactResult]:
    """``[[windows]]``: the window at the printed stops shows exactly the printed symbols."""
    out = []
    for w in published.windows:
        printed = " / ".join(w.rows)
        rs = ms.strips[w.strip_set]
        past = [r for r, (stop, n) in enumerate(zip(w.stops, rs.lengths)) if stop >= n]
        if past:
            got = f"reel {past[0] + 1} has {rs.lengths[past[0]]} stops, no stop {w.stops[past[0]]}"
        elif len(w.rows) != ms.model.rows:
            got = f"the game's window has {ms.model.rows} rows, the printed one {len(w.rows)}"
        else:
            got = _window_text(rs.window(w.stops, ms.model.rows))
        out.append(FactResult(f"{w.source} window at stops {','.join(map(str, w.stops))} "
                              f"({w.strip_set} strips)", w.source, printed, got, got, _status(got == printed)))
    return out


def longest_run(reel, members: frozenset[str]) -> int:
    """Longest cyclic run of symbols from ``members`` on a reel (the reel length if all are)."""
    n = len(reel)
    flags = [s in members for s in reel]
    if all(flags):
        return n
    start = flags.index(False)
    best = run = 0
    for k in range(1, n + 1):
        if flags[(start + k) % n]:
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best


def fewest_between(reel, specials: frozenset[str]) -> int | None:
    """Fewest symbols between two cyclically consecutive specials (None with fewer than 2 specials)."""
    pos = [i for i, s in enumerate(reel) if s in specials]
    if len(pos) < 2:
        return None
    n = len(reel)
    return min((b - a - 1) % n for a, b in zip(pos, pos[1:] + pos[:1]))


def strip_facts(ms: MathSet, published: Published) -> list[FactResult]:
    """``[[strip_rules]]``, ``[[placements]]``, ``[[totals]]``: shape, spacing, runs, placement, totals.

    Grouped by strip set (in the order the file names them): shape, each
    placement, spacing between specials, longest run, each total.
    """
    model = ms.model
    specials = frozenset(s.name for s in model.symbols if s.is_special)
    order = list(dict.fromkeys([x.strip_set for x in published.strip_rules]
                               + [x.strip_set for x in published.placements]
                               + [x.strip_set for x in published.totals]))
    out = []
    for set_name in order:
        rs = ms.strips[set_name]
        shapes = [x for x in published.strip_rules if x.strip_set == set_name]
        for sh in shapes:
            if sh.reels is None and sh.length is None and sh.lengths is None:
                continue
            reels = sh.reels if sh.reels is not None else len(sh.lengths or rs.reels)
            if sh.lengths is not None:
                stops, ok_len = "/".join(map(str, sh.lengths)), rs.lengths == sh.lengths
                have = "/".join(map(str, rs.lengths))
            else:
                stops = str(sh.length) if sh.length is not None else "any number of"
                ok_len = sh.length is None or all(n == sh.length for n in rs.lengths)
                have = "/".join(map(str, sorted(set(rs.lengths))))
            ok = len(rs.reels) == reels and ok_len
            out.append(FactResult(f"{set_name} strips: {reels} reels x {stops} stops", sh.source,
                                  f"{reels} x {stops}", f"{len(rs.reels)} x {have}", f"{len(rs.reels)} x {have}",
                                  _status(ok)))
        for pl in (x for x in published.placements if x.strip_set == set_name):
            reels_on = tuple(r + 1 for r, reel in enumerate(rs.reels) if pl.symbol in reel)
            text = f"reels {', '.join(map(str, pl.reels))}" if pl.reels else "no reel"
            out.append(FactResult(f"{set_name} strips: {pl.symbol} only on {text}", pl.source, text,
                                  reels_on, f"reels {', '.join(map(str, reels_on))}" if reels_on else "no reel",
                                  _status(set(reels_on) <= set(pl.reels))))
        for sh in shapes:
            if sh.min_pay_between_specials is not None:
                gaps = [g for g in (fewest_between(reel, specials) for reel in rs.reels) if g is not None]
                least = min(gaps) if gaps else None
                want = sh.min_pay_between_specials
                out.append(FactResult(f"{set_name} strips: {want} or more pay symbols between two specials "
                                      "(cyclic)", sh.source, f">= {want}", least,
                                      "no two specials" if least is None else f"fewest {least}",
                                      _status(least is None or least >= want)))
            if sh.max_run_length is not None and sh.max_run_symbols:
                run = max(longest_run(reel, frozenset(sh.max_run_symbols)) for reel in rs.reels)
                group = _group_name(sh.max_run_symbols)
                out.append(FactResult(f"{set_name} strips: at most {sh.max_run_length} {group} symbols in "
                                      "sequence (cyclic)", sh.source, f"<= {sh.max_run_length}", run,
                                      f"longest {run}", _status(run <= sh.max_run_length)))
        for tot in (x for x in published.totals if x.strip_set == set_name):
            members = set(tot.symbols)
            total = sum(1 for reel in rs.reels for s in reel if s in members)
            out.append(FactResult(f"{set_name} strips: {tot.count} {tot.label} symbols in total", tot.source,
                                  str(tot.count), total, str(total), _status(total == tot.count)))
    return out


def _group_name(names) -> str:
    """``AUS`` for AUS1..AUS5 (their common prefix), else the names joined by '/'."""
    prefix = "".join(c[0] for c in zip(*names) if len(set(c)) == 1).rstrip("0123456789")
    return prefix if prefix and len(names) > 1 else "/".join(names)


def rule_facts(ms: MathSet, published: Published) -> list[FactResult]:
    """``[rules]``: the game file's rules against the rules as printed (double entry).

    Compares bet, paytable, substitutions, collect values, value
    probabilities (``w / sum w`` of the game's weight table against each
    printed per cent at its printed precision), trigger spins, the ladder
    (thresholds, spins, multipliers) and retrigger.
    """
    model, rules = ms.model, published.rules
    out = []
    if rules.bet is not None:
        out.append(FactResult("bet per base spin, credits", rules.source_of("bet"), str(rules.bet), model.bet,
                              str(model.bet), _status(model.bet == rules.bet)))
    names = {s.name: s for s in model.symbols}
    for name, pays in rules.pays:
        s = names[name]
        have = tuple(s.pays) if s.kind == "pay" else None
        oaks = [i for i, v in enumerate(pays) if v]
        first = oaks[0] if oaks else len(pays)
        lead = "/".join(str(i + 1) for i in range(first, len(pays)))
        shown = "not a pay symbol" if have is None else "/".join(map(str, have[first:])) + (
            "" if have[:first] == pays[:first] else f" ({'/'.join(map(str, range(1, first + 1)))} OAK "
                                                    f"{'/'.join(map(str, have[:first]))})")
        out.append(FactResult(f"{name} pays for {lead} OAK, credits per way", rules.source_of("pays"),
                              "/".join(map(str, pays[first:])), have, shown, _status(have == pays)))
    for name, subs in rules.substitutes:
        s = names[name]
        ok = s.kind == "wild" and (not s.substitutes or s.substitutes >= set(subs))
        out.append(FactResult(f"{name} substitutes for {', '.join(subs)}", rules.source_of("substitutes"),
                              ", ".join(subs), ok, "yes" if ok else "no", _status(ok)))
    for name, values in rules.values:
        have = tuple(names[name].values) if names[name].kind == "fish" else None
        out.append(FactResult(f"{name} values, credits", rules.source_of("values"), ", ".join(map(str, values)),
                              have, "not a collect symbol" if have is None else ", ".join(map(str, have)),
                              _status(have == values)))
    for name, tables in rules.probabilities:
        s = names[name]
        for table, printed in tables:
            w = s.weights.get(table) if s.kind == "fish" else None
            have = tuple(Fraction(x, sum(w)) for x in w) if w else None
            ok = have is not None and len(have) == len(printed) and all(p.matches(x) for p, x in zip(printed, have))
            out.append(FactResult(f"{name} value probabilities, {table}", rules.source_of("probabilities"),
                                  " / ".join(p.text for p in printed), have,
                                  f"no weight table {table!r}" if have is None else
                                  " / ".join(p.show(x) for p, x in zip(printed, have)), _status(ok)))
    if rules.trigger_spins is not None:
        scatter = "/".join(s.name for s in model.of_kind("scatter")) or "scatter"
        counts = "/".join(str(n) for n, _ in rules.trigger_spins)
        have = tuple(sorted(model.trigger))
        out.append(FactResult(f"initial free spins for {counts} {scatter}", rules.source_of("trigger_spins"),
                              "/".join(str(v) for _, v in rules.trigger_spins), have,
                              ", ".join(f"{n}: {v}" for n, v in have) or "no trigger",
                              _status(have == rules.trigger_spins)))
    for what, key, printed, have, shown, ok in published_rule_facts(rules, model):    # the rules' own rows
        out.append(FactResult(what, rules.source_of(key), printed, have, shown, _status(ok)))
    return out


def check_facts(ms: MathSet, sheet: ParSheet | None = None) -> list[FactResult]:
    """Every published fact of ``ms`` (its ``published.toml``) checked exactly, then its assumptions.

    Parameters
    ----------
    ms : MathSet
    sheet : exact.par.ParSheet, optional
        The PAR sheet of ``ms`` (figures are read from it); built when not given.

    Returns
    -------
    list of FactResult
        Rules, windows, strip facts, figures (in that order), then the
        assumption lines (``is_fact`` False).  Empty when the set publishes
        nothing.

    Raises
    ------
    MathSetError
        A ``[[facts]]`` or ``[[assumptions]]`` figure the report does not
        have, or a display float (file, row and column of its ``figure`` key).

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> results = check_facts(load_math_set("rules_page"))
    >>> sum(r.is_fact for r in results), any(r.failed for r in results)
    (86, False)
    """
    published = ms.published
    if published.empty:
        return []
    needs_figures = published.facts or published.assumptions
    figures = figure_values(sheet if sheet is not None else par_sheet(ms)) if needs_figures else {}
    return (rule_facts(ms, published) + window_facts(ms, published) + strip_facts(ms, published)
            + figure_facts(published, figures) + assumption_lines(published, figures))


def checked_sheet(ms: MathSet, sheet: ParSheet | None = None) -> ParSheet:
    """The PAR sheet of ``ms`` with its published facts checked on it (``facts``).

    What :func:`exact.par_sheet` and ``rtp report`` / ``rtp export`` return:
    :func:`exact.par.par_sheet` (which checks no fact) and :func:`check_facts`
    on its figures.

    Parameters
    ----------
    ms : MathSet
    sheet : exact.par.ParSheet, optional
        The unchecked PAR sheet of ``ms``; built when not given.

    Returns
    -------
    exact.par.ParSheet
        ``sheet`` with ``facts`` = :func:`check_facts` ``(ms, sheet)`` (empty
        when the set publishes nothing).

    Raises
    ------
    MathSetError
        As :func:`check_facts`.
    ValueError
        As :func:`exact.par.par_sheet`.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> p = checked_sheet(load_math_set("rules_page"))
    >>> [f.status for f in p.published("trigger.3")]
    ['PASS', 'PASS']
    """
    sheet = sheet if sheet is not None else par_sheet(ms)
    return dataclasses.replace(sheet, facts=tuple(check_facts(ms, sheet)))


def json_value(x):
    if isinstance(x, Fraction):
        return {"fraction": exact_text(x, ratio=True), "float": safe_float(x)}
    if isinstance(x, (tuple, list)):
        return [json_value(v) for v in x]
    if isinstance(x, dict):
        return {str(k): json_value(v) for k, v in x.items()}
    return x
