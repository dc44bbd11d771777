"""The rules-page spin evaluator: one window at a time, the rules read literally.

This module is the oracle.  The factorised engine (:mod:`exact.engine`) never
calls it, so each checks the other in the brute-force tests.  It is correct for
any window, also for windows the rules page's strips never show (several
specials or WILDs on one reel).

WILD multipliers (a game-file rule beyond the rules page): a WILD
with multiplier m counts as m in the per-reel count of every pay symbol it
substitutes for, so ways = product over the combination's reels of (count of
the pay symbol + sum of the multipliers of the substituting WILDs on the
reel) and pay = paytable value x ways (section 6 with that change).  m >= 1,
so a multiplier never changes whether a combination continues.  Drawn
multipliers are given explicitly, like FISH values: one per WILD in the
window (mode ``wild``) or one per reel showing the WILD (mode ``reel``),
reel-major, top to bottom (:func:`wild_draws`).

Source: rules page sections 6 (ways pays), 8 (collect), 9 (win of a spin),
10 (free spins trigger) and 11 (level multiplier).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Sequence

from exact.rules import combination_wilds, scatter_codes, scatter_pay as literal_scatter_pay
from strips.model import FISH, KEY, PAY, PER_WILD, SCATTER, WILD, GameModel

Window = Sequence[Sequence[str]]  # shape (reels, rows): window[r][row]


@dataclass(frozen=True)
class WayWin:
    """The ways pay of one pay symbol (section 6).

    ``oak`` reels in the combination, ``ways`` = product of the per-reel counts
    of the symbol plus WILD (each WILD counted as its multiplier), ``pay`` = paytable value x ways, in credits
    before the level multiplier.
    """

    symbol: str
    oak: int
    ways: int
    pay: int


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


@dataclass(frozen=True)
class SpinResult:
    """Everything the rules page computes for one spin.

    Attributes
    ----------
    window : tuple of tuple of str, shape (reels, rows)
    ways : tuple of WayWin
        Paying combinations, in paytable order.
    ways_pays : int
        Sum of ``ways`` pays, credits (section 6).
    fish_sum : int
        Sum of the FISH values in the window, credits (section 8).
    keys : int
        KEY symbols in the window.
    collect : int
        keys x fish_sum, credits (section 8).
    scatters : int
        FS (scatter) symbols in the window (section 10).
    scatter_pay : int
        Scatter pay for that count, credits (0 in the rules-page game).
    multiplier : int
        Level multiplier (1 in the base game, section 11).
    win : int
        multiplier x (ways_pays + collect + scatter_pay), credits (section 9).
    wild_values : tuple of int
        The drawn WILD multipliers used, in :func:`wild_draws` order (empty
        without drawn multipliers).
    """

    window: tuple[tuple[str, ...], ...]
    ways: tuple[WayWin, ...]
    ways_pays: int
    fish_sum: int
    keys: int
    collect: int
    scatters: int
    multiplier: int
    win: int
    scatter_pay: int = 0
    wild_values: tuple[int, ...] = ()
    lines: tuple[LineWin, ...] = ()
    line_pays: int = 0
    scatter_counts: tuple[tuple[str, int], ...] = ()
    trigger_reels_shown: bool = True
    combination: int = 1

    @property
    def trigger_count(self) -> int:
        """The scatter count that awards free spins: ``scatters`` when every trigger reel shows the
        triggering scatter (``trigger_reels``), else 0."""
        return self.scatters if self.trigger_reels_shown else 0


def canonical_window(model: GameModel, window: Window) -> tuple[tuple[str, ...], ...]:
    """Window with aliases replaced by symbol names, checked against the model's shape.

    Raises
    ------
    ValueError
        If the window is not ``reels`` x ``rows`` or names an unknown symbol.
    """
    if len(window) != model.reels or any(len(col) != model.rows for col in window):
        raise ValueError(f"window must be {model.reels} reels x {model.rows} rows")
    out = []
    for col in window:
        try:
            out.append(tuple(model.symbol(s).name for s in col))
        except KeyError as e:
            raise ValueError(f"unknown symbol {e.args[0]!r}") from None
    return tuple(out)


def ways_pays(model: GameModel, window: Window,
              wild_multipliers: Sequence[Sequence[int]] | None = None) -> tuple[WayWin, ...]:
    """Ways pays of a window, section 6, literally, with WILD multipliers.

    Each pay symbol is examined independently: its combination starts on
    reel 1 and continues while a reel shows the symbol or a WILD; the OAK is
    the number of reels in the combination; the symbol pays once, for this
    longest combination, if its paytable value is not 0.  Blockers (KEY, FS,
    FISH) never count.  A WILD counts for the pay symbols it substitutes for
    (every pay symbol unless the game file names a subset).

    WILD multipliers (game file ``multiplier`` of a WILD): on each reel of
    the combination the count is (number of the pay symbol) + (sum of the
    multipliers of the substituting WILDs), and ways = product of these
    counts; pay = paytable value x ways.  Without multipliers every WILD
    counts 1 (the rules page).  A multiplier is >= 1, so it never changes the
    OAK or whether the symbol pays.

    Parameters
    ----------
    model : GameModel
    window : shape (reels, rows) of symbol names
    wild_multipliers : shape (reels, rows) of int, optional
        The multiplier of each cell (used at WILD cells only), from
        :func:`cell_multipliers`; default: fixed multipliers at their value,
        drawn ones at their lowest value, 1 for a WILD without multiplier.

    Returns
    -------
    tuple of WayWin, credits before the level multiplier.
    """
    if wild_multipliers is None:
        wild_multipliers = cell_multipliers(model, window)
    wins = []
    for sym in model.pay_symbols:
        counts = []
        for r, col in enumerate(window):
            present = [name == sym.name or model.symbol(name).substitutes_for(sym.name) for name in col]
            if not any(present):
                break
            counts.append(sum(1 if name == sym.name else wild_multipliers[r][i]
                              for i, (name, here) in enumerate(zip(col, present)) if here))
        oak = len(counts)
        if oak == 0:
            continue
        pay = sym.pays[oak - 1]
        if pay:
            ways = prod(counts)
            wins.append(WayWin(sym.name, oak, ways, pay * ways))
    return tuple(wins)


def wild_draws(model: GameModel, window: Window) -> tuple[tuple[int, int], ...]:
    """The WILD multiplier draws of a window: (reel, row) of the WILD that shows each drawn value.

    Reel-major, top to bottom: mode ``wild`` draws once per WILD symbol in
    the window; mode ``reel`` draws once per reel showing that WILD symbol
    (at its top-most cell; the other WILDs of the symbol on the reel share
    the value); fixed multipliers draw nothing.
    """
    out = []
    for r, col in enumerate(window):
        seen = set()
        for i, name in enumerate(col):
            s = model.symbol(name)
            if s.has_random_multiplier and (s.multiplier.mode == PER_WILD or s.name not in seen):
                out.append((r, i))
                seen.add(s.name)
    return tuple(out)


def default_wild_values(model: GameModel, window: Window) -> tuple[int, ...]:
    """The lowest multiplier of each WILD draw of the window (:func:`wild_draws` order)."""
    return tuple(min(model.symbol(window[r][i]).multiplier.values) for r, i in wild_draws(model, window))


def cell_multipliers(model: GameModel, window: Window,
                     wild_values: Sequence[int] | None = None) -> tuple[tuple[int, ...], ...]:
    """The multiplier of each cell of a window, shape (reels, rows), int (1 where no WILD multiplier).

    Parameters
    ----------
    model : GameModel
    window : shape (reels, rows) of symbol names (canonical names)
    wild_values : sequence of int, optional
        One drawn value per entry of :func:`wild_draws`; default the lowest
        value of each.  Fixed multipliers take their value.

    Raises
    ------
    ValueError
        If the number of values differs from the draws of the window, or a
        value is not one the WILD can take.
    """
    draws = wild_draws(model, window)
    values = default_wild_values(model, window) if wild_values is None else tuple(wild_values)
    if len(values) != len(draws):
        raise ValueError(f"{len(values)} WILD multiplier values given for {len(draws)} drawn "
                         f"WILD multipliers in the window")
    drawn = {}
    for (r, i), v in zip(draws, values):
        s = model.symbol(window[r][i])
        if v not in s.multiplier.values:
            raise ValueError(f"{s.name} multiplier cannot be {v} (values: {', '.join(map(str, s.multiplier.values))})")
        drawn[(r, i)] = v
    out = []
    for r, col in enumerate(window):
        row = []
        for i, name in enumerate(col):
            s = model.symbol(name)
            if s.multiplier is None or s.multiplier.is_combination:
                row.append(1)
            elif not s.multiplier.is_random:
                row.append(s.multiplier.values[0])
            elif s.multiplier.mode == PER_WILD:
                row.append(drawn[(r, i)])
            else:  # per reel: the value drawn at the top-most WILD of this symbol on the reel
                row.append(drawn[(r, col.index(name))])
        out.append(tuple(row))
    return tuple(out)


def payline_cells(model: GameModel, window: Window, line: int) -> tuple[str, ...]:
    """The symbols of 0-based payline ``line``, reel 1 first (``model.paylines`` rows)."""
    return tuple(window[r][row] for r, row in enumerate(model.paylines[line]))


def line_pays(model: GameModel, window: Window, combination: int = 1) -> tuple[LineWin, ...]:
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


def combination_ways(model: GameModel, window: Window, symbol: str, oak: int,
                     wild_multipliers: Sequence[Sequence[int]]) -> tuple[int, int]:
    """(ways using no combination WILD, all ways) of ``symbol`` over the first ``oak`` reels of a window.

    Ways without a combination WILD count, on each reel, the symbol and the
    other substituting WILDs (each as its multiplier); all ways add the
    combination WILDs (a way through at least one of them is
    multiplied once by the combination value).
    """
    comb = {s.name for s in combination_wilds(model)}
    pure, total = 1, 1
    for r, col in enumerate(window[:oak]):
        here = [(name, wild_multipliers[r][i]) for i, name in enumerate(col)
                if name == symbol or model.symbol(name).substitutes_for(symbol)]
        pure *= sum(1 if n == symbol else m for n, m in here if n not in comb)
        total *= sum(1 if n == symbol else m for n, m in here)
    return pure, total


def scatter_counts(model: GameModel, window: Window) -> tuple[tuple[str, int], ...]:
    """Each scatter symbol's count in the window, in file order (each counts on its own);
    a WILD with ``counts_as_scatter`` counts as one more of the triggering scatter."""
    trig = model.trigger_symbol
    extra = sum(1 for col in window for n in col if model.symbol(n).counts_as_scatter)
    return tuple((s.name, sum(1 for col in window for n in col if n == s.name)
                  + (extra if trig is not None and s.name == trig.name else 0))
                 for s in model.of_kind(SCATTER))


def default_fish_values(model: GameModel, window: Window) -> tuple[int, ...]:
    """The lowest value of each FISH symbol in the window, reel-major, top to bottom."""
    return tuple(min(model.symbol(n).values) for col in window for n in col if model.symbol(n).kind == FISH)


def evaluate(model: GameModel, window: Window, fish_values: Sequence[int] | None = None,
             multiplier: int = 1, wild_values: Sequence[int] | None = None,
             combination: int | None = None) -> SpinResult:
    """Win of one spin, section 9: ways pays + collect, times the level multiplier.

    Parameters
    ----------
    model : GameModel
    window : shape (reels, rows) of symbol names (aliases such as HOOK allowed)
    fish_values : sequence of int, optional
        Credit value shown by each FISH symbol of the window, in reel-major,
        top-to-bottom order.  Default: the lowest value of each.
    multiplier : int
        Level multiplier (section 11); 1 in the base game.
    wild_values : sequence of int, optional
        The drawn WILD multipliers, in the order of :func:`wild_draws`
        (reel-major, top to bottom; one per WILD in the window for mode
        ``wild``, one per reel showing the WILD for mode ``reel``; fixed
        multipliers take none).  Default: the lowest value of each.  See
        :func:`ways_pays` for how a multiplier counts.
    combination : int, optional
        The value drawn for the spin by the WILD with a ``combination``
        multiplier; default its lowest value (1 without one).
        A winning line or way that uses that WILD is multiplied by it once.

    Returns
    -------
    SpinResult
        All amounts in integer credits.

    Raises
    ------
    ValueError
        If the window has the wrong shape or an unknown symbol, if the number
        of fish values differs from the FISH symbols in the window, or a value
        is not one the symbol can show (section 7); the same for the WILD
        multiplier values.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> m = load_math_set().model
    >>> w = [["PIC2","AUS1","AUS1","PIC4"], ["PIC4","AUS5","AUS5","AUS5"],
    ...      ["AUS2","AUS2","AUS2","PIC4"], ["PIC5","AUS2","PIC5","AUS3"],
    ...      ["FISH4","AUS3","AUS4","PIC5"]]
    >>> evaluate(m, w).win   # rules page example 1
    3
    """
    window = canonical_window(model, window)
    fish = [(n, model.symbol(n)) for col in window for n in col if model.symbol(n).kind == FISH]
    if fish_values is None:
        fish_values = [min(s.values) for _, s in fish]
    fish_values = list(fish_values)
    if len(fish_values) != len(fish):
        raise ValueError(f"{len(fish_values)} fish values given for {len(fish)} FISH symbols in the window")
    for (n, s), v in zip(fish, fish_values):
        if v not in s.values:
            raise ValueError(f"{n} cannot show {v} (values: {', '.join(map(str, s.values))})")
    comb_wilds = combination_wilds(model)
    if combination is None:
        combination = min(comb_wilds[0].multiplier.values) if comb_wilds else 1
    elif comb_wilds and combination not in comb_wilds[0].multiplier.values:
        raise ValueError(f"{comb_wilds[0].name} combination multiplier cannot be {combination} "
                         f"(values: {', '.join(map(str, comb_wilds[0].multiplier.values))})")
    cells = cell_multipliers(model, window, wild_values)
    lines: tuple[LineWin, ...] = ()
    if model.is_lines:
        wins: tuple[WayWin, ...] = ()
        lines = line_pays(model, window, combination)
    else:
        wins = ways_pays(model, window, cells)
        if comb_wilds:   # a way through a combination WILD is multiplied once
            wins = tuple(WayWin(w.symbol, w.oak, w.ways, w.pay // w.ways * (
                (lambda pt: pt[0] + combination * (pt[1] - pt[0]))(
                    combination_ways(model, window, w.symbol, w.oak, cells)))) for w in wins)
    ways_total = sum(w.pay for w in wins)
    line_total = sum(w.pay for w in lines)
    keys = sum(1 for col in window for n in col if model.symbol(n).kind == KEY)
    counts = scatter_counts(model, window)
    trig = model.trigger_symbol
    scatters = dict(counts)[trig.name] if trig is not None else 0
    shown = all(any(model.code(n) in scatter_codes(model) for n in window[r]) for r in model.trigger_reels)
    fish_sum = sum(fish_values)
    collect = keys * fish_sum
    scatter_pay = sum(literal_scatter_pay(model.symbol(n).pays, c) for n, c in counts)
    return SpinResult(window=window, ways=wins, ways_pays=ways_total, fish_sum=fish_sum, keys=keys,
                      collect=collect, scatters=scatters, multiplier=multiplier,
                      win=multiplier * (ways_total + line_total + collect + scatter_pay), scatter_pay=scatter_pay,
                      wild_values=tuple(cells[r][i] for r, i in wild_draws(model, window)),
                      lines=lines, line_pays=line_total, scatter_counts=counts,
                      trigger_reels_shown=shown, combination=combination if comb_wilds else 1)
