"""The catalogue's payline reading: one payline's cells read under the line rules a game uses.

The line rules of :mod:`exact.rules.line_direction` (both-way and centre pays), :mod:`exact.rules.per_wild`
(a multiplier per WILD in the paid run), :mod:`exact.rules.groups` (mixed-symbol groups), the blank stop
(:mod:`exact.rules.groups`: a symbol of class ``blank`` breaks every run) and
:mod:`exact.rules.expanding_wilds` (the line sees a reel holding an expanding WILD as that WILD) change
what one payline pays; this module composes them into one literal reading (:func:`read_line`, the oracle
of every figure) and into the payline scan the exact chains of :mod:`exact.lines` run
(:func:`prefix_transitions`).

Reading of one line (cells reel 1 first, names):

* a *run from the left* of symbol p: p is the line's first symbol that is not a WILD, the run the
  leading cells that show p or a WILD substituting for p, paying ``pays[p][run - 1]`` times the
  run's multiplier (:func:`run_multiplier`: the combination multiplier if a combination WILD stands
  in the run, times the per-WILD multipliers of the WILDs in it); a *group* G holding p pays
  ``G.pays[run - 1]`` for the leading cells that are members of G or WILDs (same multiplier); a WILD
  with its own pays pays for the leading cells equal to the first one (never multiplied); the line
  pays its best combination (the symbol run before a WILD-only pay of the same value);
* ``[lines] direction = "both"``: the same read right to left too; by default the larger win once;
  ``both_pay = "sum"``: the right run (at most reels - 1 cells) is read only when the left run is
  shorter than the line, and both pay;
* ``direction = "centre"``: the block of adjacent cells through the centre reel showing one symbol p
  (WILDs substituting), paid once by its length (best over p, groups and a WILD's own block).

The scan (:func:`prefix_transitions`) keeps as its state a canonical form of the cells read so far:
the cells themselves while a run from the left can still grow, else the left run's outcome; for
both-way pays also the longest tail of cells that one run can still hold (a run read from the right
can reach no further) and, when that tail is all WILDs, the cell before it (the right run's symbol); for centre pays the tail ending at the centre reel and the cells after it.
Two prefixes with the same form have the same outcome for every completion, so the scan is exact; it
is minimised by :func:`exact.lines.line_machine` like the plain payline scan.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exact.rules.base import Rule, rule_config
from strips.errors import MathSetError
from strips.loader import parse_game
from strips.model import PAY, WILD

__all__ = ["LineParts", "parts", "uses_reading", "read_line", "line_wins", "prefix_transitions",
           "run_multiplier", "READING_RULES", "window_line_wins", "line_reading_of", "line_scan_of",
           "LineReadingRule", "READING_ANALYSES", "expanded", "line_view", "EXAMPLE_GAME", "example_game", "fill_factor",
           "expanded_symbol_wins", "fill_jackpot", "ReadingLineStep", "reading_step", "line_combinations"]

#: The names of the rules whose configuration switches the composed reading on (their configs on
#: ``model.rules``); a blank symbol does too.
READING_RULES = frozenset({"both-way pays", "centre pays", "per-wild multipliers", "symbol groups",
                           "expanding wilds", "screen fills", "the drawn expanding symbol"})


@dataclass(frozen=True)
class LineParts:
    """What the reading needs of a game, by symbol code.

    ``syms``: the Symbol objects; ``wild``/``pay``: flags by code; ``subst[c]``: the pay codes WILD c
    substitutes for; ``groups``: (name, member codes, pays); ``per_wild[c]``: (factor, combine) of a
    WILD with a per-WILD multiplier; ``across``: how kinds join (product, sum, max); ``comb``: the codes
    of combination WILDs; ``direction``, ``both_pay``; ``expanding``: codes of expanding WILDs;
    ``void_first``: the code whose reel-1 cell voids a line's ordinary win (the drawn expanding symbol
    with ``first_line_pays = false``), else None.
    """

    syms: tuple
    wild: tuple
    pay: tuple
    subst: tuple
    groups: tuple
    per_wild: dict
    across: str
    comb: frozenset
    direction: str
    both_pay: str
    expanding: frozenset
    void_first: int | None = None


def uses_reading(model) -> bool:
    """Whether ``model`` uses a rule of the composed reading (its config, or a blank symbol).

    >>> from strips.loader import load_math_set
    >>> uses_reading(load_math_set("rules_page").model)
    False
    """
    return model.evaluation == "lines" and (
        any(getattr(c, "rule", None) in READING_RULES for c in getattr(model, "rules", ()))
        or any(s.kind == "blank" for s in model.symbols))


#: The small game of the rule modules' examples: 3 reels, 1 row, one payline; A pays 0, 2, 10,
#: B 0, 1, 5, W is a WILD; ``{lines}``, ``{wild}`` and ``{extra}`` take a rule's keys.
EXAMPLE_GAME = """[game]
reels = 3
rows = 1
bet = 1
evaluation = "lines"
[lines]
paylines = [[1, 1, 1]]
{lines}
[strips]
base = "base.csv"
[symbols.A]
class = "pay"
pays = [0, 2, 10]
[symbols.B]
class = "pay"
pays = [0, 1, 5]
[symbols.W]
class = "wild"
{wild}
{extra}
"""


def example_game(lines: str = "", wild: str = "", extra: str = ""):
    """The parsed :data:`EXAMPLE_GAME` with a rule's keys added (``lines``: in ``[lines]``, ``wild``: in
    ``[symbols.W]``, ``extra``: new tables), or the one line of its error (file:row:col: message).

    >>> example_game(lines='direction = "centre"').rules
    (LineDirectionConfig(direction='centre', both_pay='max', rule='centre pays'),)
    """
    try:
        return parse_game(EXAMPLE_GAME.format(lines=lines, wild=wild, extra=extra).encode(), "game.toml")
    except MathSetError as e:
        return str(e)


_PARTS: dict = {}


def parts(model) -> LineParts:
    """The :class:`LineParts` of ``model`` (cached by identity)."""
    hit = _PARTS.get(id(model))
    if hit is not None and hit[0] is model:
        return hit[1]
    syms = model.symbols
    codes = {s.name: c for c, s in enumerate(syms)}
    wild = tuple(s.kind == WILD for s in syms)
    pay = tuple(s.kind == PAY for s in syms)
    subst = tuple(frozenset(p for p, q in enumerate(syms) if q.kind == PAY and s.substitutes_for(q.name))
                  for s in syms)
    g = rule_config(model, "symbol groups")
    groups = tuple((name, frozenset(codes[m] for m in members), pays) for name, members, pays in
                   (g.groups if g else ()))
    pw = rule_config(model, "per-wild multipliers")
    per_wild = {codes[n]: (f, comb) for n, f, comb in (pw.wilds if pw else ())}
    d = rule_config(model, "both-way pays") or rule_config(model, "centre pays")
    ex = rule_config(model, "expanding wilds")
    out = LineParts(
        syms=syms, wild=wild, pay=pay, subst=subst, groups=groups, per_wild=per_wild,
        across=pw.across if pw else "product",
        comb=frozenset(c for c, s in enumerate(syms) if s.multiplier is not None and s.multiplier.is_combination),
        direction=d.direction if d else "left", both_pay=d.both_pay if d else "max",
        expanding=frozenset(codes[n] for n in (ex.wilds if ex else ())),
        void_first=codes[dr.symbol] if (dr := rule_config(model, "the drawn expanding symbol")) is not None
        and not dr.first_line_pays else None)
    _PARTS[id(model)] = (model, out)
    return out


def run_multiplier(p: LineParts, run, combination: int = 1) -> int:
    """The multiplier of a paid run (codes): the combination value if a combination WILD stands in it,
    times the per-WILD multipliers joined per kind (``product``: factor^k, ``sum``: k x factor,
    ``max``: factor) and across kinds by ``p.across`` (1 without such a WILD).

    >>> p = LineParts((), (), (), (), (), {7: (2, "product"), 8: (3, "product")}, "product", frozenset(),
    ...               "left", "max", frozenset())
    >>> run_multiplier(p, (1, 7, 7, 8))
    12
    """
    m = combination if any(c in p.comb for c in run) else 1
    if not p.per_wild:
        return m
    kinds = []
    for w, (f, comb) in p.per_wild.items():
        k = sum(1 for c in run if c == w)
        if k:
            kinds.append(f ** k if comb == "product" else k * f if comb == "sum" else f)
    if not kinds:
        return m
    if p.across == "product":
        v = 1
        for x in kinds:
            v *= x
    else:
        v = sum(kinds) if p.across == "sum" else max(kinds)
    return m * v


def _fits(p: LineParts, c: int, target) -> bool:
    """Whether cell code ``c`` counts for ``target``: a pay code, or a group's member set."""
    if isinstance(target, frozenset):
        return c in target or (p.wild[c] and target <= p.subst[c])
    return c == target or (p.wild[c] and target in p.subst[c])


def _targets(p: LineParts, c: int):
    """What a run whose first non-WILD cell is ``c`` may pay: the symbol and the groups holding it."""
    out = [(c, p.syms[c].name, p.syms[c].pays)] if p.pay[c] else []
    return out + [(members, name, pays) for name, members, pays in p.groups if c in members]


def _from_left(p: LineParts, cells, combination: int, cap: int):
    """The best win (pay, symbol, run, multiplier) of a run from the left over ``cells[:cap]``, and the
    longest run length of any candidate (the line's "left run")."""
    cells = cells[:cap]
    best, longest = (0, "", 0, 1), 0
    c0 = cells[0]
    if p.wild[c0]:
        j = 1
        while j < len(cells) and cells[j] == c0:
            j += 1
        longest = j
        pays = p.syms[c0].pays
        if pays and pays[j - 1] > 0:
            best = (pays[j - 1], p.syms[c0].name, j, 1)
    first = next((c for c in cells if not p.wild[c]), None)
    if first is None:
        return best, len(cells)
    sym_best = (0, "", 0, 1)
    for target, name, pays in _targets(p, first):
        n = 0
        while n < len(cells) and _fits(p, cells[n], target):
            n += 1
        longest = max(longest, n)
        if n and pays[n - 1]:
            m = run_multiplier(p, cells[:n], combination)
            if pays[n - 1] * m > sym_best[0]:
                sym_best = (pays[n - 1] * m, name, n, m)
    if not sym_best[0]:   # a breaker or an unpaid run: the leading WILDs are the left run
        longest = max(longest, next((i for i, c in enumerate(cells) if not p.wild[c]), len(cells)))
    return (sym_best if sym_best[0] > best[0] else best), longest


def _centre(p: LineParts, cells, combination: int):
    """The best block through the centre cell (pay, symbol, run, multiplier)."""
    mid = len(cells) // 2
    best = (0, "", 0, 1)
    cm = cells[mid]
    if p.wild[cm] and p.syms[cm].pays:
        lo, hi = mid, mid
        while lo > 0 and cells[lo - 1] == cm:
            lo -= 1
        while hi + 1 < len(cells) and cells[hi + 1] == cm:
            hi += 1
        v = p.syms[cm].pays[hi - lo]
        if v > 0:
            best = (v, p.syms[cm].name, hi - lo + 1, 1)
    sym_best = (0, "", 0, 1)
    for c in dict.fromkeys(cells):
        if p.wild[c]:
            continue
        for target, name, pays in _targets(p, c):
            if not _fits(p, cm, target):
                continue
            lo, hi = mid, mid
            while lo > 0 and _fits(p, cells[lo - 1], target):
                lo -= 1
            while hi + 1 < len(cells) and _fits(p, cells[hi + 1], target):
                hi += 1
            block = cells[lo:hi + 1]
            if not any(not p.wild[x] for x in block):
                continue
            n = hi - lo + 1
            if pays[n - 1]:
                m = run_multiplier(p, block, combination)
                if pays[n - 1] * m > sym_best[0]:
                    sym_best = (pays[n - 1] * m, name, n, m)
    return sym_best if sym_best[0] > best[0] else best


def line_wins(p: LineParts, cells, combination: int = 1) -> tuple:
    """The wins (pay, symbol, run, multiplier) one payline's cells (codes, reel 1 first) pay, literally:
    none, one, or two (both-way pays summed).

    >>> m = example_game(lines='direction = "centre"')
    >>> line_wins(parts(m), (1, 0, 0))    # B A A: the block through the centre is A A
    ((2, 'A', 2, 1),)
    """
    n = len(cells)
    if p.void_first is not None and cells[0] == p.void_first:
        return ()
    if p.direction == "centre":
        w = _centre(p, cells, combination)
        return (w,) if w[0] else ()
    left, longest = _from_left(p, cells, combination, n)
    if p.direction != "both":
        return (left,) if left[0] else ()
    if p.both_pay == "sum":
        wins = [left]
        if longest < n:
            wins.append(_from_left(p, cells[::-1], combination, n - 1)[0])
        return tuple(w for w in wins if w[0])
    right = _from_left(p, cells[::-1], combination, n)[0]
    w = right if right[0] > left[0] else left
    return (w,) if w[0] else ()


def read_line(model, cells, combination: int = 1) -> tuple:
    """:func:`line_wins` of a line's cells given by name.

    >>> from strips.loader import load_math_set
    >>> import dataclasses
    >>> m = dataclasses.replace(load_math_set().model, evaluation="lines", paylines=((0, 0, 0, 0, 0),))
    >>> read_line(m, ("AUS1",) * 5)
    ((5, 'AUS1', 5, 1),)
    """
    return line_wins(parts(model), tuple(model.code(c) for c in cells), combination)


def _alive(p: LineParts, cells) -> bool:
    """Whether one run can hold every cell: all WILDs, or one pay symbol or group with WILDs for it."""
    first = next((c for c in cells if not p.wild[c]), None)
    if first is None:
        return True
    return any(all(_fits(p, c, target) for c in cells) for target, _, _ in _targets(p, first))


def _tail(p: LineParts, cells):
    """The longest tail of ``cells`` one run can hold, whether a cell before it breaks it, and that cell
    when the tail is all WILDs (a run read from the right takes its symbol from it: ``C V W`` with V not
    standing for C is a run of C of the one cell W)."""
    i = len(cells)
    while i > 0 and _alive(p, cells[i - 1:]):
        i -= 1
    tail = tuple(cells[i:])
    return tail, i > 0, cells[i - 1] if i > 0 and all(p.wild[c] for c in tail) else None


def _outcome(p: LineParts, cells, combination: int):
    wins = line_wins(p, cells, combination)
    value = sum(w[0] for w in wins)
    if not value:
        return ("O", 0, None)
    best = max(wins, key=lambda w: w[0])
    return ("O", value, (best[1], best[2]))


def _canon(p: LineParts, prefix, n_reels: int, combination: int, breaker: int):
    """The canonical state of a read prefix (see the module docstring)."""
    if p.direction == "centre":
        mid = n_reels // 2
        if len(prefix) <= mid:
            return ("C",) + _tail(p, prefix)
        after = tuple(breaker if not (p.wild[c] or p.pay[c]) else c for c in prefix[mid + 1:])
        return ("C",) + _tail(p, prefix[:mid + 1]) + (after,)
    if p.void_first is not None and prefix and prefix[0] == p.void_first:
        return ("D", 0, None)       # (left-run reading only: the rule refuses the other directions)
    if _alive(p, prefix):
        return ("A", tuple(prefix))
    pad = tuple(prefix) + (prefix[-1],) * (n_reels - len(prefix))
    left, longest = _from_left(p, pad, combination, n_reels)
    if p.direction != "both":
        return ("D", left[0], left[1:3] if left[0] else None)
    return ("D", left, longest) + _tail(p, prefix)


_SCANS: dict = {}


def prefix_transitions(model, combination: int = 1):
    """The payline scan under the composed reading, unminimised: per reel, {state: [next state or
    ``("O", value, label)`` per symbol code]}, as :func:`exact.lines.line_machine` minimises it.

    >>> from strips.loader import load_math_set
    >>> import dataclasses
    >>> m = dataclasses.replace(load_math_set().model, evaluation="lines", paylines=((0, 0, 0, 0, 0),))
    >>> raw = prefix_transitions(m)
    >>> len(raw), len(raw[0])
    (5, 1)
    """
    hit = _SCANS.get((id(model), combination))
    if hit is not None and hit[0] is model:
        return hit[1]
    p = parts(model)
    n_reels = model.reels
    nsym = len(p.syms)
    breaker = next((c for c in range(nsym) if not (p.wild[c] or p.pay[c])), -1)
    start = _canon(p, (), n_reels, combination, breaker) if p.direction == "centre" else ("A", ())
    frontier = {start: ()}
    raw = []
    for r in range(n_reels):
        trans, nxt = {}, {}
        for st, rep in frontier.items():
            row = []
            for x in range(nsym):
                cells = rep + (x,)
                if r == n_reels - 1:
                    row.append(_outcome(p, cells, combination))
                    continue
                key = _canon(p, cells, n_reels, combination, breaker)
                if p.direction == "left" and key[0] == "D":
                    row.append(("O", key[1], key[2]))
                    continue
                nxt.setdefault(key, cells)
                row.append(key)
            trans[st] = row
        raw.append(trans)
        frontier = nxt
    _SCANS[(id(model), combination)] = (model, raw)
    return raw


def window_line_wins(model, window, combination: int = 1) -> tuple:
    """Every line win of a window (names, (reels, rows)) under the composed reading, payline order:
    (line from 1, symbol, run, multiplier, pay); a both-way line that pays twice gives two entries.
    The line reads the window :func:`exact.rules.expanding_wilds.expanded` shows it.

    >>> from strips.loader import load_math_set
    >>> import dataclasses
    >>> m = dataclasses.replace(load_math_set().model, evaluation="lines", paylines=((0, 0, 0, 0, 0),))
    >>> window_line_wins(m, [["AUS1"] * 4] * 5)
    ((1, 'AUS1', 5, 1, 5),)
    """
    view = expanded(model, window)
    factor = fill_factor(model, window)
    if not factor:           # a jackpot fill pays the jackpot instead of every line win (fill_jackpot)
        return ()
    p = parts(model)
    out = []
    for li, line in enumerate(model.paylines):
        cells = tuple(model.code(view[r][row]) for r, row in enumerate(line))
        for pay, sym, run, mult in line_wins(p, cells, combination):
            out.append((li + 1, sym, run, mult * factor, pay * factor))
    return tuple(out) + expanded_symbol_wins(model, window)


def expanded_symbol_wins(model, window) -> tuple:
    """The wins of the drawn expanding symbol in a free spin (``[free_spins] expanding_symbol``, on a model
    carrying the drawn symbol): when it shows on n reels of the window (cells of the symbol itself; WILDs do
    not count) and its n-of-a-kind pays, every payline pays that, as (line from 1, symbol, n, 1, pay).

    >>> from types import SimpleNamespace
    >>> from strips.model import Symbol
    >>> cfg = SimpleNamespace(rule="the drawn expanding symbol", symbol="A", first_line_pays=False)
    >>> m = SimpleNamespace(rules=(cfg,), paylines=((0, 0, 0),), symbol=lambda n: Symbol("A", "pay", (0, 2, 10)))
    >>> expanded_symbol_wins(m, [["A"], ["B"], ["A"]])
    ((1, 'A', 2, 1, 2),)
    """
    cfg = rule_config(model, "the drawn expanding symbol")
    if cfg is None:
        return ()
    n = sum(1 for col in window if cfg.symbol in col)
    pay = model.symbol(cfg.symbol).pays[n - 1] if n else 0
    return tuple((li + 1, cfg.symbol, n, 1, pay) for li in range(len(model.paylines))) if pay > 0 else ()


def _fill_of(model, window):
    """The ``[[screen.fill]]`` entry (names, factor, jackpot) listing the one symbol every cell of ``window``
    (names) shows, else None."""
    cfg = rule_config(model, "screen fills")
    shown = {c for col in window for c in col}
    if cfg is None or len(shown) != 1:
        return None
    x = shown.pop()
    return next((e for e in cfg.fills if x in e[0]), None)


def fill_jackpot(model, window):
    """The jackpot (NAME, credits) a window (names) filled under ``pays = "jackpot NAME", instead = true``
    pays instead of its line wins, else None (credits 0 when ``[jackpots]`` does not value it).

    >>> m = example_game(extra='[[screen.fill]]\\nsymbols = ["A"]\\npays = "jackpot MINI"\\ninstead = true')
    >>> fill_jackpot(m, [["A"], ["A"], ["A"]]), fill_jackpot(m, [["A"], ["B"], ["A"]])
    (('MINI', 0), None)
    """
    e = _fill_of(model, window)
    return e[2] if e is not None else None


def fill_factor(model, window) -> int:
    """The screen fill's factor of a window (names): the ``xN`` of the ``[[screen.fill]]`` entry listing
    the one symbol every cell shows (0 for a jackpot paid instead of the line wins), else 1.

    >>> m = example_game(extra='[[screen.fill]]\\nsymbols = ["A"]\\npays = "x2"')
    >>> fill_factor(m, [["A"], ["A"], ["A"]]), fill_factor(m, [["A"], ["B"], ["A"]])
    (2, 1)
    """
    e = _fill_of(model, window)
    return e[1] if e is not None else 1


def expanded(model, window):
    """The window a payline reads under ``[symbols.W] expands = true``: every reel holding an expanding
    WILD shows that WILD on every row (the first of them in file order when a reel holds two kinds).

    >>> from types import SimpleNamespace
    >>> from exact.rules.expanding_wilds import ExpandingConfig
    >>> m = SimpleNamespace(rules=(ExpandingConfig(("W",)),))
    >>> expanded(m, [["A", "W", "B"], ["A", "B", "C"]])
    (('W', 'W', 'W'), ('A', 'B', 'C'))
    """
    cfg = rule_config(model, "expanding wilds")
    out = []
    for col in window:
        w = next((n for n in cfg.wilds if n in col), None) if cfg else None
        out.append(tuple(w for _ in col) if w is not None else tuple(col))
    return tuple(out)


def line_view(model, windows):
    """The per-reel line view: ``windows`` (per reel, (stops, rows) int symbol codes) with every stop
    whose window holds an expanding WILD showing that WILD on every row; unchanged without the rule.

    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from exact.rules.expanding_wilds import ExpandingConfig
    >>> m = SimpleNamespace(rules=(ExpandingConfig(("W",)),), code=lambda n: 2)
    >>> line_view(m, [np.array([[0, 2], [1, 1]])])[0].tolist()
    [[2, 2], [1, 1]]
    """
    cfg = rule_config(model, "expanding wilds")
    if cfg is None:
        return windows
    out = []
    for orig in windows:
        w = orig.copy()
        for name in reversed(cfg.wilds):      # the first in file order wins a stop showing two kinds
            w[(orig == model.code(name)).any(axis=1)] = model.code(name)
        out.append(w)
    return out


def line_reading_of(model):
    """The composed reading of ``model`` (:func:`window_line_wins`) when it uses one of its rules, else None."""
    return window_line_wins if uses_reading(model) else None


def line_scan_of(model):
    """The composed scan of ``model`` (:func:`prefix_transitions`) when it uses one of its rules, else None."""
    return prefix_transitions if uses_reading(model) else None



class ReadingLineStep:
    """The composed reading's vectorised step over many windows (the window evaluator's, so the simulation's
    and the exhaustive enumeration's): :func:`prefix_transitions` as one integer table per reel, read for
    every payline of every window at once, on the window :func:`expanded` shows the lines and times the
    screen fill's factor (:func:`fill_factor`).

    ``step(win, comb)``: ``win`` the windows (int codes, (n, reels, rows)); ``comb`` the combination
    multiplier drawn per window ((n,) int) or None for the exact numerators (each line's pay summed over the
    combination values with their integer weights).  Returns (pays per line (n, lines) int64 credits, whether
    each line pays (n, lines) bool), as :class:`exact.rules.paylines.LineStep`.  The drawn expanding symbol
    (its pays by reels shown) is not read here: :func:`reading_step` refuses it (ValueError).

    >>> import numpy as np
    >>> m = example_game(lines='direction = "centre"')
    >>> pays, hit = ReadingLineStep(m, None, ((1, 1),))(np.array([[[1], [0], [0]]]), None)
    >>> pays.tolist(), hit.tolist()          # B A A: the block through the centre is A A
    ([[2]], [[True]])
    """

    def __init__(self, model, comb_code, comb_table, awards=None, value_of=None) -> None:
        if rule_config(model, "the drawn expanding symbol") is not None:
            raise ValueError("unsupported rule: the drawn expanding symbol in the vectorised line step")
        self.model = model
        self.nsym = len(model.symbols)
        self.paylines = [np.asarray(line, dtype=np.int64) for line in model.paylines]
        self.comb_table = tuple(comb_table) if comb_code is not None else ((1, 1),)
        self.award_of = awards          # free spins awarded by line wins: (symbol, run) -> spins, or None
        self.value_of = value_of        # a level's value of an outcome (value, label) -> credits (skip_wild_line)
        self.tables = {m: self._tables(model, m) for m, _ in self.comb_table}
        ex = rule_config(model, "expanding wilds")
        self.expanding = [model.code(n) for n in reversed(ex.wilds)] if ex else []
        sf = rule_config(model, "screen fills")
        self.fills = [(model.code(n), f) for names, f, _ in (sf.fills if sf else ()) for n in names]

    def awards(self, win: np.ndarray, comb) -> np.ndarray:
        """The free spins each window's line wins award ((n,) int64, summed over the paying lines), at the
        combination value drawn (``comb``), or, with ``comb`` None, at any value when every value awards the
        same (ValueError otherwise: the spins awarded depend on the draw)."""
        view = self.view(np.asarray(win, dtype=np.int64))
        if comb is None:
            got = [self._awards(view, m) for m, _ in self.comb_table]
            if any((g != got[0]).any() for g in got[1:]):
                raise ValueError("unsupported rule: free spins awarded by line wins that depend on the combination "
                                 "value drawn, in the exact window evaluation")
            return got[0]
        out = np.zeros(win.shape[0], dtype=np.int64)
        for m, _ in self.comb_table:
            out = np.where(np.asarray(comb) == m, self._awards(view, m), out)
        return out

    def _awards(self, view, combination):
        tables, _, n_out = self.tables[combination]
        spins = self.spins[combination]
        out = np.zeros(view.shape[0], dtype=np.int64)
        for line in self.paylines:
            state = np.full(view.shape[0], n_out, dtype=np.int64)
            for r, tab in enumerate(tables):
                state = tab[state, view[:, r, line[r]]]
            out += spins[state]
        return out

    def _tables(self, model, combination):
        """(per reel an int64 table (ids, symbols) of next ids, the value of each outcome id): ids below the
        number of outcomes are outcomes (absorbing), the others the scan's states of that reel."""
        raw = prefix_transitions(model, combination)
        outcomes: dict = {}
        for trans in raw:
            for row in trans.values():
                for t in row:
                    if t[0] == "O":
                        outcomes.setdefault(t, len(outcomes))
        n_out = len(outcomes)
        ids = [{st: n_out + i for i, st in enumerate(trans)} for trans in raw] + [{}]
        tables = []
        for r, trans in enumerate(raw):
            tab = np.zeros((n_out + len(trans), self.nsym), dtype=np.int64)
            tab[:n_out] = np.arange(n_out)[:, None]
            for st, row in trans.items():
                tab[ids[r][st]] = [outcomes[t] if t[0] == "O" else ids[r + 1][t] for t in row]
            tables.append(tab)
        values = np.zeros(max(n_out, 1), dtype=np.int64)
        spins = np.zeros(max(n_out, 1), dtype=np.int64)
        for o, i in outcomes.items():
            values[i] = o[1] if self.value_of is None or not o[1] else self.value_of(o[1], o[2])
            if self.award_of is not None and o[1] > 0 and o[2] is not None:
                spins[i] = self.award_of(*o[2])
        self.spins = getattr(self, "spins", {})
        self.spins[combination] = spins
        return tables, values, n_out

    def bound(self, max_comb: int, scatter: int, denominator: int) -> tuple[dict[str, int], int]:
        """(the parts of the largest window numerator by what makes them, that largest numerator)."""
        top = max(int(v.max(initial=0)) for _, v, _ in self.tables.values())
        factor = max([f for _, f in self.fills] + [1])
        parts = {"line pays": len(self.paylines) * top * factor, "scatter pays": scatter}
        return parts, (parts["line pays"] + scatter) * denominator

    def view(self, win: np.ndarray) -> np.ndarray:
        """The windows as the lines read them: a reel showing an expanding WILD shows it on every row."""
        if not self.expanding:
            return win
        out = win.copy()
        for code in self.expanding:          # the first in file order wins a reel showing two kinds
            shown = (win == code).any(axis=2)
            out[shown] = code
        return out

    def factor(self, win: np.ndarray) -> np.ndarray:
        """The screen fill's factor of each window ((n,) int64; 1 unfilled)."""
        f = np.ones(win.shape[0], dtype=np.int64)
        for code, x in self.fills:
            f[(win == code).all(axis=(1, 2))] = x
        return f

    def _values(self, win, combination):
        tables, values, n_out = self.tables[combination]
        out = np.zeros((win.shape[0], len(self.paylines)), dtype=np.int64)
        for i, line in enumerate(self.paylines):
            state = np.full(win.shape[0], n_out, dtype=np.int64)
            for r, tab in enumerate(tables):
                state = tab[state, win[:, r, line[r]]]
            out[:, i] = values[state]
        return out

    def __call__(self, win: np.ndarray, comb):
        view = self.view(np.asarray(win, dtype=np.int64))
        factor = self.factor(np.asarray(win, dtype=np.int64))[:, None]
        if len(self.comb_table) == 1:
            m = self.comb_table[0][0]
            v = self._values(view, m)
            per_line = v * (1 if comb is not None else self.comb_table[0][1])
            hit = v > 0
        else:
            per_line = np.zeros((win.shape[0], len(self.paylines)), dtype=np.int64)
            hit = np.zeros(per_line.shape, dtype=bool)
            for m, w in self.comb_table:
                v = self._values(view, m)
                hit |= v > 0
                if comb is None:
                    per_line += w * v
                else:
                    per_line = np.where((np.asarray(comb) == m)[:, None], v, per_line)
        return per_line * factor, hit


def reading_step(model, comb_code, comb_table, awards=None, value_of=None):
    """The :class:`ReadingLineStep` of a game under the composed reading, whose line wins award free spins
    (``awards``: (symbol, run) -> spins of the phase, :meth:`ReadingLineStep.awards` counts them) or whose phase
    values its line outcomes itself (``value_of``: a level skipping the all-WILD line), else None.

    >>> from strips.loader import load_math_set
    >>> reading_step(load_math_set("rules_page").model, None, ((1, 1),)) is None
    True
    """
    if not uses_reading(model) and awards is None and value_of is None:
        return None
    return ReadingLineStep(model, comb_code, comb_table, awards, value_of)


def line_combinations(model) -> list[tuple[str, tuple]]:
    """(name, pays by run 1..reels) of everything a payline pays: each pay symbol and each WILD with pays of
    its own (file order), then each mixed-symbol group (``[groups.NAME]``); the labels of the payline scan.

    >>> m = example_game(extra='[groups.AB]\\nmembers = ["A", "B"]\\npays = [0, 0, 1]')
    >>> line_combinations(m)
    [('A', (0, 2, 10)), ('B', (0, 1, 5)), ('AB', (0, 0, 1))]
    """
    out = [(s.name, tuple(s.pays)) for s in model.symbols if s.kind in (PAY, WILD) and s.pays]
    return out + [(name, tuple(pays)) for name, _, pays in parts(model).groups]


#: What a game under the composed reading runs: the exact PAR sheet and the views built on it, the literal
#: spin, the comply tables and the workbook (the payline scan's award odds), and the simulation and the
#: exhaustive proof (the window evaluator reads the lines through :class:`ReadingLineStep`); a rule whose
#: part the step does not read narrows this (the skipped level multiplier, the drawn expanding symbol).
READING_ANALYSES = frozenset({"report", "spin", "check", "diff", "chain", "comply", "export", "simulate", "prove"})


class LineReadingRule(Rule):
    """A rule of the composed payline reading: present when its configuration is on the game.

    >>> LineReadingRule.implements == READING_ANALYSES
    True
    """

    implements = READING_ANALYSES

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if model.evaluation != "lines" or rule_config(model, "cascading reels") is not None:
            return f"{cls.name} outside a payline game without cascades"
        return super().refusal(model, analysis)
