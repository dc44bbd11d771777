"""``rtp diff A B``: audit a math change figure by figure.

Two math sets (directories or bundled names) side by side:

* every figure of the PAR sheet (:meth:`exact.par.ParSheet.figures`): before,
  after and the exact delta (Fractions; the display-only floats of the report,
  standard deviation and volatility index, are compared as floats and marked
  so);
* a readable list of what differs in the math: strip positions
  (``base reel 3 pos 41: AUS2 -> PIC4``), reel lengths, paytable, FISH values
  and weights (``level 2 FISH2 weight 300 -> 320 (value 15)``), symbol
  placement, trigger table, ladder, bet and window;
* each published fact of the sets' ``published.toml``
  (:func:`exact.facts.check_facts`) that passes on A and fails on B.

Exit 0 when no published fact broke, 1 when one did, 2 on bad input (one line).

Source: the PAR report (:mod:`exact.report`), the published facts
(:mod:`exact.facts`, rules page sections 3, 4, 10, 11, 13, examples 1-9).
"""
from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass
from fractions import Fraction

from strips.model import GameModel, MathSet
from exact.formatting import decimal_text, fraction_text, table_lines, value_text
from exact.facts import check_facts
from exact.rules import RULES, multiplier_text
from exact.par import ParSheet, par_sheet


# --------------------------------------------------------------------------
# figures
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class FigureDelta:
    """One report figure on A and B.

    Attributes
    ----------
    figure : str
        Dotted path of the figure in the report's JSON view, e.g. ``rtp``,
        ``feature.3.reach.2``, ``symbols.PIC1.5.rtp``.
    before, after : Fraction, int, float or None
        The figure on A and on B (None where the report of that set has no
        such figure).  Fractions/ints are exact; floats are display figures.
    exact : bool
        True for exact figures (delta exact), False for display floats.
    """

    figure: str
    before: Fraction | float | None
    after: Fraction | float | None
    exact: bool

    @property
    def delta(self) -> Fraction | float | None:
        """after - before (exact for exact figures); None if either side is missing."""
        if self.before is None or self.after is None:
            return None
        return self.after - self.before

    @property
    def changed(self) -> bool:
        return self.before != self.after


def sheet_figures(p: ParSheet) -> dict[str, Fraction | float]:
    """Every figure of a PAR sheet by dotted JSON key: the exact figures (:meth:`ParSheet.figures`,
    Fractions) then the display floats (:meth:`ParSheet.display_figures`)."""
    return {**p.figures(), **p.display_figures()}


def figure_deltas(a: ParSheet, b: ParSheet) -> list[FigureDelta]:
    """Pair the figures of two PAR sheets (A's order, then figures only B has); no text round trip."""
    fa, fb = sheet_figures(a), sheet_figures(b)
    keys = list(fa) + [k for k in fb if k not in fa]
    return [FigureDelta(k, fa.get(k), fb.get(k),
                        not isinstance(fa.get(k), float) and not isinstance(fb.get(k), float)) for k in keys]


# --------------------------------------------------------------------------
# what changed in the math
# --------------------------------------------------------------------------
def _table_label(model: GameModel, table: str) -> str:
    if table == "base":
        return "base game"
    for lv in model.levels:
        if lv.weights == table:
            return f"level {lv.number}"
    return f"table {table}"


def _reels_text(reels) -> str:
    return ", ".join(str(r + 1) for r in sorted(reels)) or "none"


def strip_changes(name: str, a: tuple[tuple[str, ...], ...], b: tuple[tuple[str, ...], ...]) -> list[str]:
    """Readable changes between two strip sets: positions, insertions/deletions, lengths (0-based positions)."""
    out = []
    if len(a) != len(b):
        out.append(f"{name} strips: {len(a)} reels -> {len(b)} reels")
    for r, (ra, rb) in enumerate(zip(a, b)):
        where = f"{name} reel {r + 1}"
        if len(ra) == len(rb):
            out += [f"{where} pos {i}: {x} -> {y}" for i, (x, y) in enumerate(zip(ra, rb)) if x != y]
            continue
        out.append(f"{where} length {len(ra)} -> {len(rb)}")
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ra, b=rb, autojunk=False).get_opcodes():
            if op == "replace" and i2 - i1 == j2 - j1:
                out += [f"{where} pos {i1 + k}: {ra[i1 + k]} -> {rb[j1 + k]}" for k in range(i2 - i1)]
            elif op == "replace":
                out.append(f"{where} pos {i1}-{i2 - 1}: {_run(ra[i1:i2])} -> {_run(rb[j1:j2])}")
            elif op == "delete":
                out.append(f"{where} pos {i1}-{i2 - 1}: removed {_run(ra[i1:i2])}")
            elif op == "insert":
                out.append(f"{where} before pos {i1}: inserted {_run(rb[j1:j2])}")
    return out


def _run(symbols: tuple[str, ...], most: int = 12) -> str:
    """Symbols of a run, at most ``most`` of them spelled out."""
    shown = " ".join(symbols[:most])
    return shown if len(symbols) <= most else f"{shown} ... ({len(symbols)} symbols)"


def _symbol_changes(ma: GameModel, mb: GameModel) -> list[str]:
    out = []
    na, nb = [s.name for s in ma.symbols], [s.name for s in mb.symbols]
    out += [f"symbol {n} removed" for n in na if n not in nb]
    out += [f"symbol {n} added ({mb.symbol(n).kind})" for n in nb if n not in na]
    for n in (x for x in na if x in nb):
        sa, sb = ma.symbol(n), mb.symbol(n)
        if sa.kind != sb.kind:
            out.append(f"{n} class {sa.kind} -> {sb.kind}")
        if sa.pays != sb.pays:
            for k in range(max(len(sa.pays), len(sb.pays))):
                pa = sa.pays[k] if k < len(sa.pays) else 0
                pb = sb.pays[k] if k < len(sb.pays) else 0
                if pa != pb:
                    out.append(f"{n} pays {k + 1} OAK {pa} -> {pb}")
        for strip_set in sorted(set(sa.reels) | set(sb.reels)):
            ra, rb = sa.reels.get(strip_set, frozenset()), sb.reels.get(strip_set, frozenset())
            if ra != rb:
                out.append(f"{n} allowed on {strip_set} reels {_reels_text(ra)} -> {_reels_text(rb)}")
        if sa.values != sb.values:
            out.append(f"{n} values {list(sa.values)} -> {list(sb.values)}")
        for table in list(sa.weights) + [t for t in sb.weights if t not in sa.weights]:
            wa, wb = sa.weights.get(table), sb.weights.get(table)
            label = _table_label(mb if wb is not None else ma, table)
            if wa == wb:
                continue
            if wa is None or wb is None or sa.values != sb.values or len(wa) != len(wb):
                out.append(f"{label} {n} weights {list(wa) if wa else 'none'} -> {list(wb) if wb else 'none'}")
                continue
            out += [f"{label} {n} weight {x} -> {y} (value {v})"
                    for v, x, y in zip(sb.values, wa, wb) if x != y]
        for field in ("aliases", "substitutes"):
            xa, xb = getattr(sa, field), getattr(sb, field, None)
            if xa != xb:
                out.append(f"{n} {field} {value_text(sorted(xa))} -> {value_text(sorted(xb or ()))}")
        if sa.multiplier != sb.multiplier:
            out.append(f"{n} multiplier {multiplier_text(sa.multiplier)} -> {multiplier_text(sb.multiplier)}")
        out += [line for rule in RULES for line in rule.symbol_changes(n, sa, sb)]
    return out


def _rule_changes(ma: GameModel, mb: GameModel) -> list[str]:
    """Changes of the rules whose modules parse their own keys (a win cap: ``win cap none -> 5,000 x bet``)."""
    def by_name(m):
        return {c.rule: c for c in m.rules}
    a, b = by_name(ma), by_name(mb)
    out = []
    for name in list(a) + [n for n in b if n not in a]:
        x, y = a.get(name), b.get(name)
        if x != y:
            def text(c):
                return "none" if c is None else (c.describe() if hasattr(c, "describe") else value_text(c))
            out.append(f"{name} {text(x)} -> {text(y)}")
    return out


def _ladder_changes(ma: GameModel, mb: GameModel) -> list[str]:
    out = []
    if len(ma.levels) != len(mb.levels):
        out.append(f"free-spin levels {len(ma.levels)} -> {len(mb.levels)}")
    for la, lb in zip(ma.levels, mb.levels):
        for field in ("threshold", "spins", "multiplier", "weights"):
            x, y = getattr(la, field), getattr(lb, field)
            if x != y:
                out.append(f"level {la.number} {field} {value_text(x)} -> {value_text(y)}")
    ta, tb = dict(ma.trigger), dict(mb.trigger)
    for n in sorted(set(ta) | set(tb)):
        if ta.get(n) != tb.get(n):
            out.append(f"trigger {n} scatters: {ta.get(n, 'none')} -> {tb.get(n, 'none')} initial free spins")
    return out


def model_changes(a: MathSet, b: MathSet) -> list[str]:
    """Every difference between the parsed math of two sets, one readable line each.

    Compares the game (window, bet, symbols, paytable, placement, FISH values
    and weights, trigger table, ladder, remaining rule fields) and the strips
    (positions 0-based, reels 1-based, as the rules page prints them).
    """
    ma, mb = a.model, b.model
    out = []
    for field in ("reels", "rows", "bet"):
        x, y = getattr(ma, field), getattr(mb, field)
        if x != y:
            out.append(f"{field} {value_text(x)} -> {value_text(y)}")
    out += _symbol_changes(ma, mb)
    out += _ladder_changes(ma, mb)
    out += [line for rule in RULES for line in rule.changes(ma, mb)]   # each rule's own keys
    skip = {"name", "title", "reels", "rows", "bet", "symbols", "levels", "trigger", "evaluation", "paylines",
            "trigger_reels", "multiplier_by_trigger", "scatter", "rules"}
    out += _rule_changes(ma, mb)
    for f in dataclasses.fields(GameModel):
        if f.name in skip:
            continue
        x, y = getattr(ma, f.name), getattr(mb, f.name)
        if x != y:
            out.append(f"{f.name.replace('_', ' ')} {value_text(x)} -> {value_text(y)}")
    for name in list(a.strips) + [n for n in b.strips if n not in a.strips]:
        if name not in b.strips:
            out.append(f"{name} strips removed")
        elif name not in a.strips:
            out.append(f"{name} strips added")
        else:
            out += strip_changes(name, a.strips[name].reels, b.strips[name].reels)
    return out


# --------------------------------------------------------------------------
# the diff
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Diff:
    """Two math sets compared.

    Attributes
    ----------
    a, b : ParSheet
        The PAR sheets of A and B.
    figures : tuple of FigureDelta
        Every report figure, before / after / exact delta.
    changes : tuple of str
        What differs in the math (:func:`model_changes`).
    broken : tuple of str
        Published facts that pass on A and fail on B.
    fixed : tuple of str
        Published facts that fail on A and pass on B.
    facts_of : str
        ``"each"``: each set is checked against its own ``published.toml``; ``"a"``: B has none, so
        A's published facts are checked on B (an audited change must still meet them); ``"none: ..."``:
        B has none and A's do not apply to it (they name a symbol B lacks): no fact is compared.
    """

    a: ParSheet
    b: ParSheet
    figures: tuple[FigureDelta, ...]
    changes: tuple[str, ...]
    broken: tuple[str, ...]
    fixed: tuple[str, ...]
    facts_of: str = "each"

    @property
    def exit_code(self) -> int:
        """0 when no published fact broke, 1 otherwise."""
        return 1 if self.broken else 0


def _facts(ms: MathSet, rep: ParSheet) -> dict[str, bool]:
    """fact -> passes, for every published fact of the set (assumption lines are not facts)."""
    return {f.fact: not f.failed for f in check_facts(ms, rep) if f.is_fact}


def diff_sets(a: MathSet, b: MathSet) -> Diff:
    """Compare two math sets: report figures, math changes, published facts.

    Raises
    ------
    ValueError
        If a set's strips and game file disagree (see :func:`exact.par.par_sheet`).
    """
    ra, rb = par_sheet(a), par_sheet(b)
    facts_of = "a" if b.published.empty and not a.published.empty else "each"
    fa = _facts(a, ra)
    if facts_of == "a":
        try:
            fb = _facts(dataclasses.replace(b, published=a.published), rb)
        except (KeyError, ValueError, IndexError) as e:   # A's facts name what B does not have
            missing = e.args[0] if isinstance(e, KeyError) and e.args else e
            facts_of, fa, fb = f"none: A's published facts do not apply to B ({missing!s} is not in B)", {}, {}
    else:
        fb = _facts(b, rb)
    return Diff(a=ra, b=rb, figures=tuple(figure_deltas(ra, rb)),
                changes=tuple(model_changes(a, b)),
                broken=tuple(k for k, ok in fa.items() if ok and not fb.get(k, False)),
                fixed=tuple(k for k, ok in fb.items() if ok and not fa.get(k, True)), facts_of=facts_of)


# --------------------------------------------------------------------------
# views
# --------------------------------------------------------------------------
def _value(x, digits: int) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.6f}"
    return str(x.numerator) if x.denominator == 1 else decimal_text(x, digits)


def _delta(x, digits: int) -> str:
    if x is None:
        return "-"
    if x == 0:
        return "0"
    if isinstance(x, float):
        return f"{x:+.6f}"
    text = decimal_text(x, digits)
    if Fraction(text) == 0:                 # too small for the digits shown: say so
        return f"{float(x):+.3e}"
    return text if x < 0 else "+" + text


def diff_text(d: Diff, digits: int = 10, every: bool = True) -> str:
    """The diff as text: sets, change list, figures (all, or changed only), published facts."""
    out = [f"DIFF of math sets {d.a.set_name} -> {d.b.set_name}",
           f"A  {d.a.set_name}  sha256:{d.a.fingerprint}",
           f"B  {d.b.set_name}  sha256:{d.b.fingerprint}"]
    if d.a.fingerprint == d.b.fingerprint:
        out.append("same math (equal fingerprints)")
    out += ["", f"CHANGES ({len(d.changes)})"]
    out += [f"  {c}" for c in d.changes] or ["  none"]
    changed = [f for f in d.figures if f.changed]
    out += ["", f"FIGURES ({len(changed)} of {len(d.figures)} changed; delta = B - A, exact; "
                "'~' marks display floats)"]
    rows = [[("* " if f.changed else "  ") + f.figure + ("" if f.exact else " ~"), _value(f.before, digits),
             _value(f.after, digits), _delta(f.delta, digits)]
            for f in d.figures if every or f.changed]
    out += table_lines(["figure", "A", "B", "delta"], rows)
    out += ["", "PUBLISHED FACTS that pass on A and fail on B"
            + (" (B has no published.toml: A's facts checked on B)" if d.facts_of == "a" else
               f" (B has no published.toml; {d.facts_of[6:]}: not compared)" if d.facts_of.startswith("none") else "")]
    out += [f"  BROKEN  {x}" for x in d.broken] or ["  none"]
    if d.fixed:
        out += ["published facts that fail on A and pass on B"] + [f"  fixed   {x}" for x in d.fixed]
    return "\n".join(out) + "\n"


def diff_json(d: Diff) -> dict:
    """The diff as one JSON-ready dict: exact figures as ``"p/q"`` with floats beside."""
    def ex(x):
        return None if x is None else (x if isinstance(x, float) else fraction_text(x))

    def fl(x):
        return None if x is None else float(x)

    return {
        "a": {"set": d.a.set_name, "fingerprint": d.a.fingerprint},
        "b": {"set": d.b.set_name, "fingerprint": d.b.fingerprint},
        "same_math": d.a.fingerprint == d.b.fingerprint,
        "changes": list(d.changes),
        "figures": [{"figure": f.figure, "exact": f.exact, "changed": f.changed,
                     "before": ex(f.before), "after": ex(f.after), "delta": ex(f.delta),
                     "before_float": fl(f.before), "after_float": fl(f.after), "delta_float": fl(f.delta)}
                    for f in d.figures],
        "published": {"broken": list(d.broken), "fixed": list(d.fixed), "facts_of": d.facts_of},
        "exit": d.exit_code,
    }
