"""Payline pays (``[game] evaluation = "lines"`` with ``[lines] paylines``): each payline pays its
leftmost run, WILDs substituting; a WILD's own pays for a WILD-only run.

Literal reading: :func:`exact.evaluator.line_pays`, as an automaton over a line's cells
(:func:`line_automaton`, also the fall evaluator's); its vectorised step over many windows
(:class:`LineStep`, the window evaluator's, so the enumeration's and the simulator's); per-line
chains: :mod:`exact.lines`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from strips import plugins
from strips.decimals import exact_text
from strips.model import FISH, KEY, PAY, WILD

from exact.rules.base import ANALYSES, Cost, EvaluationRule, PaysWords, Rule, seconds_of
from exact.rules.line_reading import line_reading_of
from exact.rules.wild import combination_wilds

__all__ = ["Paylines", "payline_count", "LineAutomaton", "line_automaton", "LineStep", "line_step", "LineWin",
           "line_pays", "payline_cells"]


@dataclass(frozen=True)
class LineWin:
    """The win of one payline, credits before the level multiplier.

    ``line`` is the 1-based payline number; ``symbol`` the paying symbol (a
    WILD's name for a WILD-only win); ``run`` the number of leading positions
    in the win; ``multiplier`` the combination multiplier applied (1 if
    none); ``pay`` = paytable value x ``multiplier``.
    """

    line: int
    symbol: str
    run: int
    multiplier: int
    pay: int


def payline_cells(model, window, line: int) -> tuple[str, ...]:
    """The symbols of 0-based payline ``line``, reel 1 first (``model.paylines`` rows)."""
    return tuple(window[r][row] for r, row in enumerate(model.paylines[line]))


def line_pays(model, window, combination: int = 1) -> tuple[LineWin, ...]:
    """Line wins of a window, literally; one win per paying line, in payline order.

    A line pays left to right from reel 1.  Its symbol is its first symbol
    that is not a WILD; its run is the number of leading positions showing
    that symbol or a WILD that substitutes for it; it pays the symbol's
    paytable value for that run (a scatter, KEY or FISH as the line's symbol
    pays nothing on the line).  If the run uses a WILD with a ``combination``
    multiplier the pay is multiplied by ``combination`` (the value drawn for
    the spin).  A WILD with own ``pays`` pays for a run of leading WILDs of
    that symbol alone, never multiplied.  The line pays the higher of the
    two (the WILD-only pay when they are equal); nothing if both are 0.

    Parameters
    ----------
    model : GameModel
        A line game (``model.paylines``).
    window : shape (reels, rows) of canonical symbol names
    combination : int
        The combination multiplier drawn for the spin (1 without one).

    Returns
    -------
    tuple of LineWin, credits before the level multiplier.

    Examples
    --------
    >>> from strips.loader import parse_game
    >>> m = parse_game(b'''[game]
    ... reels = 3
    ... rows = 1
    ... bet = 1
    ... evaluation = "lines"
    ... [lines]
    ... paylines = [[1, 1, 1]]
    ... [strips]
    ... base = "base.csv"
    ... [symbols.A]
    ... class = "pay"
    ... pays = [0, 2, 10]
    ... [symbols.W]
    ... class = "wild"
    ... reels = { base = [1, 2, 3] }
    ... pays = [0, 5, 50]
    ... multiplier = { values = [2], mode = "combination" }
    ... ''', "game.toml")
    >>> line_pays(m, [["W"], ["A"], ["A"]], combination=2)   # A x3 through a WILD: 10 x 2
    (LineWin(line=1, symbol='A', run=3, multiplier=2, pay=20),)
    >>> line_pays(m, [["W"], ["W"], ["A"]], combination=2)   # the WILD-only 5 loses to 10 x 2
    (LineWin(line=1, symbol='A', run=3, multiplier=2, pay=20),)
    """
    reading = line_reading_of(model)    # the catalogue's line rules (exact.rules.line_reading)
    if reading is not None:
        return tuple(LineWin(*w) for w in reading(model, window, combination))
    comb = {s.name for s in combination_wilds(model)}
    wins = []
    for li in range(len(model.paylines)):
        cells = payline_cells(model, window, li)
        syms = [model.symbol(c) for c in cells]
        wild_win = (0, "", 0)
        if syms[0].kind == WILD and syms[0].pays:
            j = 0
            while j < len(cells) and cells[j] == cells[0]:
                j += 1
            wild_win = (syms[0].pays[j - 1], cells[0], j)
        sym_win = (0, "", 0, 1)
        first = next((s for s in syms if s.kind != WILD), None)
        if first is not None and first.kind == PAY:
            n = 0
            while n < len(cells) and (cells[n] == first.name or syms[n].substitutes_for(first.name)):
                n += 1
            if n and first.pays[n - 1]:
                m = combination if any(c in comb for c in cells[:n]) else 1
                sym_win = (first.pays[n - 1] * m, first.name, n, m)
        if sym_win[0] > wild_win[0]:
            wins.append(LineWin(li + 1, sym_win[1], sym_win[2], sym_win[3], sym_win[0]))
        elif wild_win[0] > 0:
            wins.append(LineWin(li + 1, wild_win[1], wild_win[2], 1, wild_win[0]))
    return tuple(wins)


class Paylines(EvaluationRule):
    """Payline evaluation: no sensitivity, tune, win distribution or gamble figure yet.

    >>> from strips.loader import load_math_set
    >>> Paylines.present(load_math_set("rules_page").model)
    False
    """

    name = 'payline evaluation (evaluation = "lines")'
    keys = '[game] evaluation = "lines", [lines] paylines'
    implements = frozenset(ANALYSES) - {"sensitivity", "tune", "distribution", "gamble"}
    factorisation = "lines"
    count_tables = False
    window_read = True

    #: The analyses that run the exact payline engine (:mod:`exact.lines`) on every phase: all but the literal spin.
    ENGINE = frozenset(ANALYSES) - {"spin"}

    @classmethod
    def costs(cls, ms, analysis: str, factorised: bool = True) -> tuple:
        """The exact payline engine's estimated seconds (:func:`engine_seconds`) over the game's strip sets, for
        every analysis that runs it (all but ``spin``; a game with a rule without per-reel terms is enumerated
        instead and bounded by ``--max-enumeration``)."""
        if analysis not in cls.ENGINE or not factorised or not hasattr(ms, "strips"):
            return ()
        model = ms.model
        secs = sum(engine_seconds(len(model.paylines), model.rows, s.lengths) for s in ms.strips.values())
        return (Cost("seconds", seconds_of(secs, 1.0),
                     f"the exact payline engine ({len(model.paylines):,} paylines on {model.reels} reels x "
                     f"{model.rows} rows)"),)

    @classmethod
    def present(cls, model) -> bool:
        return model.evaluation == "lines"

    @classmethod
    def literal_wins(cls, model, window, cells, combination: int) -> dict:
        """The line wins of ``window`` (:func:`line_pays`)."""
        return {"lines": line_pays(model, window, combination)}

    @classmethod
    def pays_words(cls, model) -> PaysWords:
        return PaysWords("line pays", "line wins", f"; P: one payline of {len(model.paylines)} wins so", "line")

    @classmethod
    def spin_json(cls, model, phase, window, res) -> dict:
        """Each winning payline with its number, and the line pays."""
        return {"lines": [{"line": w.line, "symbol": w.symbol, "run": w.run, "multiplier": w.multiplier,
                           "pay": w.pay} for w in res.lines], "line_pays": res.line_pays}

    @classmethod
    def spin_text(cls, model, phase, window, res) -> dict[str, list[str]]:
        return {"pays": [f"line pays      {res.line_pays}"]}

    @classmethod
    def changes(cls, ma, mb) -> list[str]:
        """The evaluation and each payline (1-based rows) that differ."""
        out = [f"evaluation {ma.evaluation} -> {mb.evaluation}"] if ma.evaluation != mb.evaluation else []
        la, lb = ma.paylines, mb.paylines
        for i in range(max(len(la), len(lb))):
            xa = ",".join(str(v + 1) for v in la[i]) if i < len(la) else "none"
            xb = ",".join(str(v + 1) for v in lb[i]) if i < len(lb) else "none"
            if xa != xb:
                out.append(f"payline {i + 1} {xa} -> {xb}")
        return out

    @classmethod
    def report_json(cls, sheet) -> dict:
        """``paylines``: each payline's exact return (fraction of the bet) and hit rate per base spin, when the
        base spin's analysis has them (a line game: ``line_means``, ``line_hits``)."""
        base = sheet.analysis.base
        if not getattr(base, "line_means", None):
            return {}
        return {"paylines": [{"line": i + 1, "rtp": exact_text(m / sheet.bet), "rtp_float": float(m / sheet.bet),
                              "hit": exact_text(h), "hit_float": float(h)}
                             for i, (m, h) in enumerate(zip(base.line_means, base.line_hits))]}

def check_line_symbols(t, doc: dict, model) -> dict:
    """A line game's symbols (a check of the core's keys, no field set): KEY/FISH collect and a WILD
    multiplier other than ``mode = "combination"`` are refused in a line game, at the symbol's key.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(wild="multiplier = 2"))
    game.toml:19:1: symbols.W.multiplier: unsupported rule: a WILD multiplier in a line game other than mode = "combination"
    """
    if not Paylines.present(model):
        return {}
    for s in model.symbols:
        if s.kind in (KEY, FISH):
            raise t.error(("symbols", s.name, "class"), f"unsupported rule: {s.kind} symbols (collect) in a "
                          f"line game")
        if s.multiplier is not None and not s.multiplier.is_combination:
            raise t.error(("symbols", s.name, "multiplier"), "unsupported rule: a WILD multiplier in a line "
                          "game other than mode = \"combination\"")
    return {}


plugins.register_core(Paylines.name, (), check_line_symbols)


def payline_count(model) -> int:
    """The number of paylines a game pays on (0 for a game that does not pay by lines).

    >>> from strips.loader import load_math_set
    >>> payline_count(load_math_set("rules_page").model)
    0
    """
    return len(model.paylines) if model.is_lines else 0


@dataclass(frozen=True)
class LineAutomaton:
    """A finite automaton that reads one payline's cells, reel 1 first, and ends in a state that knows its pay.

    ``table[state, code]`` is the next state (state 0: nothing read); for a final state ``pay`` is the
    paytable value of its symbol run (0 if none), ``used`` whether that run uses the combination WILD,
    ``wild_pay`` the pay of its run of leading WILDs of one symbol, ``exact`` the line's pay summed over
    the combination values with their weights, ``hit`` whether the line pays, ``run`` the length of the
    paying run (the cells a cascade removes: the symbol run when its pay is the larger, else the WILD
    run, 0 when the line pays nothing; combination multipliers aside).  Arrays are int64 / bool, shape
    (states,) ((states, codes) for ``table``).
    """

    table: np.ndarray
    pay: np.ndarray
    used: np.ndarray
    wild_pay: np.ndarray
    exact: np.ndarray
    hit: np.ndarray
    run: np.ndarray
    #: The combination a final state pays, as ``symbol code x (reels + 1) + run`` (the symbol run, or the
    #: WILD run when its pay is the larger), -1 when the line pays nothing.
    award: np.ndarray | None = None


def line_automaton(model, reels: int, comb_code: int | None, comb_table) -> LineAutomaton:
    """The payline automaton of :func:`exact.evaluator.line_pays`, built by a breadth-first search.

    A state holds: whether a cell was read; the first non-WILD symbol (-1: only WILDs so far); the
    length of the run that counts for it (the cells read, while only WILDs were) and whether it still
    grows; while only WILDs were read, per pay symbol the number of leading WILDs substituting for it
    and where the first combination WILD stood; whether the run uses the combination WILD; the first
    cell's WILD (-1: none), the length of its run of that WILD and whether it still grows.

    >>> from strips.loader import load_math_set
    >>> a = line_automaton(load_math_set("rules_page").model, 5, None, ((1, 1),))
    >>> a.table.shape[1] == len(load_math_set("rules_page").model.symbols)
    True
    """
    syms = model.symbols
    nsym = len(syms)
    pay_codes = frozenset(c for c, s in enumerate(syms) if s.kind == PAY)
    wild = [s.kind == WILD for s in syms]
    subst = [frozenset(p for p in pay_codes if syms[c].substitutes_for(syms[p].name)) for c in range(nsym)]
    counts_for = [[a == b or (wild[a] and b in subst[a]) for b in range(nsym)] for a in range(nsym)]

    pays_order = sorted(pay_codes)
    pos = {c: i for i, c in enumerate(pays_order)}

    def step(st, c):
        started, first, run, alive, pre, comb_at, used, w0, wrun, walive = st
        if not started:
            w0, wrun, walive = (c, 1, True) if wild[c] else (-1, 0, False)
        elif walive:
            if c == w0:
                wrun += 1
            else:
                walive = False
        if first == -1:   # only WILDs so far: run = cells read; pre[p] = leading WILDs substituting for p
            k = run
            if wild[c]:
                pre = tuple(x + 1 if x == k and p in subst[c] else x for p, x in zip(pays_order, pre))
                comb_at = k if c == comb_code and comb_at == -1 else comb_at
                run = k + 1
            else:
                first = c
                if c in pos:   # the run: the leading cells that count for c
                    lead = pre[pos[c]]
                    run, alive = (k + 1, True) if lead == k else (lead, False)
                else:
                    run, alive = 0, False
                used = comb_at != -1 and comb_at < run
                pre, comb_at = (), -1
        elif alive:
            if counts_for[c][first]:
                run, used = run + 1, used or c == comb_code
            else:
                alive = False
        return (True, first, run, alive, pre, comb_at, used, w0, wrun, walive)

    start = (False, -1, 0, True, (0,) * len(pays_order), -1, False, -1, 0, True)
    index = {start: 0}
    states = [start]
    frontier = [start]
    rows: dict[int, list[int]] = {}
    for _ in range(reels):
        nxt = []
        for st in frontier:
            i = index[st]
            if i in rows:
                continue
            row = []
            for c in range(nsym):
                t = step(st, c)
                if t not in index:
                    index[t] = len(states)
                    states.append(t)
                    nxt.append(t)
                row.append(index[t])
            rows[i] = row
        frontier = nxt
    table = np.zeros((len(states), nsym), dtype=np.int64)
    for i, row in rows.items():
        table[i] = row
    pay = np.zeros(len(states), dtype=np.int64)
    used = np.zeros(len(states), dtype=bool)
    wild_pay = np.zeros(len(states), dtype=np.int64)
    paid_run = np.zeros(len(states), dtype=np.int64)
    for i, (_, first, run, _, _, _, u, w0, wrun, _) in enumerate(states):
        if first >= 0 and syms[first].kind == PAY and run:
            pay[i] = syms[first].pays[run - 1]
        used[i] = u
        if w0 >= 0 and syms[w0].pays and wrun:
            wild_pay[i] = syms[w0].pays[wrun - 1]
        paid_run[i] = run if pay[i] > wild_pay[i] else (wrun if wild_pay[i] else 0)
    exact = np.zeros(len(states), dtype=np.int64)
    for v, x in comb_table:
        exact += x * np.maximum(pay * np.where(used, v, 1), wild_pay)
    award = np.full(len(states), -1, dtype=np.int64)
    for i, (_, first, run, _, _, _, _, w0, wrun, _) in enumerate(states):
        if pay[i] > wild_pay[i]:
            award[i] = first * (reels + 1) + run
        elif wild_pay[i]:
            award[i] = w0 * (reels + 1) + wrun
    return LineAutomaton(table, pay, used, wild_pay, exact, (pay > 0) | (wild_pay > 0), paid_run, award)


class LineStep:
    """The payline rule's vectorised literal step: every payline of many windows at once.

    ``step(win, comb)``: ``win`` the windows (int codes, shape (n, reels, rows)); ``comb`` the drawn
    combination multiplier per window (shape (n,)) or None for the exact numerators (the line's pay
    summed over the combination values with their weights).  Returns (pays per line (n, lines) int64,
    whether each line pays (n, lines) bool).  Each payline runs :func:`line_automaton` over its cells,
    reel 1 first: one table lookup per reel, then the pay of the final state.

    >>> from strips.builder import math_set
    >>> ms = math_set({"game": {"reels": 3, "rows": 1, "bet": 1, "evaluation": "lines"},
    ...                "lines": {"paylines": [[1, 1, 1]]},
    ...                "symbols": {"A": {"class": "pay", "pays": [0, 0, 5]}}}, {"base": [["A"], ["A"], ["A"]]})
    >>> pays, hit = line_step(ms.model, None, ((1, 1),))(np.zeros((1, 3, 1), dtype=np.int64), None)
    >>> pays.tolist(), hit.tolist()
    ([[5]], [[True]])
    """

    def __init__(self, model, comb_code: int | None, comb_table) -> None:
        syms = model.symbols
        reels = model.reels
        self.nsym = len(syms)
        self.paylines = [np.asarray(line, dtype=np.int64) for line in model.paylines]
        self.code_pays = np.zeros((self.nsym, reels + 1), dtype=np.int64)      # a pay symbol's line pays by run
        self.wild_pays = np.zeros((self.nsym, reels + 1), dtype=np.int64)      # a WILD's own pays by run
        for c, s in enumerate(syms):
            if s.kind == PAY:
                self.code_pays[c, 1:] = s.pays
            elif s.kind == WILD and s.pays:
                self.wild_pays[c, 1:] = s.pays
        self.automaton = line_automaton(model, reels, comb_code, comb_table)

    def bound(self, max_comb: int, scatter: int, denominator: int) -> tuple[dict[str, int], int]:
        """(the parts of the largest window numerator by what makes them, that largest numerator)."""
        lines = len(self.paylines)
        parts = {"line pays": lines * int(self.code_pays.max(initial=0)) * max_comb,
                 "a WILD's own line pays": lines * int(self.wild_pays.max(initial=0)),
                 "scatter pays": scatter}
        return parts, (max(parts["line pays"], parts["a WILD's own line pays"]) + scatter) * denominator

    def __call__(self, win: np.ndarray, comb):
        n, R, _ = win.shape
        auto = self.automaton
        per_line = np.zeros((n, len(self.paylines)), dtype=np.int64)
        line_hit = np.zeros((n, len(self.paylines)), dtype=bool)
        flat = auto.table.ravel()
        for i, line in enumerate(self.paylines):
            state = np.zeros(n, dtype=np.int64)
            for r in range(R):
                state = flat[state * self.nsym + win[:, r, line[r]]]
            if comb is not None:
                per_line[:, i] = np.maximum(auto.pay[state] * np.where(auto.used[state], comb, 1),
                                            auto.wild_pay[state])
            else:
                per_line[:, i] = auto.exact[state]
            line_hit[:, i] = auto.hit[state]
        return per_line, line_hit


def line_step(model, comb_code: int | None, comb_table) -> LineStep | None:
    """The :class:`LineStep` of a payline game (``comb_code`` its combination WILD, ``comb_table`` the
    combination values and weights, ``((1, 1),)`` without one); None for a game that does not pay by lines.

    >>> from strips.loader import load_math_set
    >>> line_step(load_math_set("rules_page").model, None, ((1, 1),)) is None
    True
    """
    return LineStep(model, comb_code, comb_table) if Paylines.present(model) else None


def engine_seconds(lines: int, rows: int, lengths) -> float:
    """Estimated seconds of the exact payline engine (:mod:`exact.lines`) on one strip set of reel ``lengths``.

    Its per-line chains cost lines x reels x stops, its pairs of lines lines^2 x reels x (row pairs) x stops,
    its pair matrices reels x rows^2 x stops; calibrated on random line games (``tests/gen_costs.py``
    ``many_lines_game``) whose measured ``rtp --json`` took 2.0 s to 76 s (5-6 reels, 3-6 rows, 100-1,000 stops,
    50-400 lines, load 6): the estimate was 0.75 to 2.4 times each (README "Input limits").

    >>> round(engine_seconds(10, 3, (30, 43, 43, 43, 43)), 3)      # Dolphin's Pearl's base strips
    0.309
    >>> engine_seconds(2000, 32, (10_000,) * 12) > 10 ** 6          # 2,000 paylines on a 12 x 32 window
    True
    """
    reels = len(lengths)
    stops = sum(lengths) / max(reels, 1)
    return (3.5e-5 * lines * reels * stops + 1e-6 * lines * lines * reels * rows * rows * stops / 100
            + 1.3e-4 * reels * rows * rows * stops)
