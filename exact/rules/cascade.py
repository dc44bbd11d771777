"""Cascading reels (``[cascade]``: tumbles, avalanches, falls) for any evaluation: ways, lines, anywhere, clusters.

Keys of ``[cascade]``: ``refill = "strip"`` (the only refill, the default), ``multipliers`` (the win
multiplier of fall 1, 2, 3 ...; the last entry repeats; default ``[1]``), ``scatters = "every_fall"``
(default) or ``"first_fall"``, ``max_falls`` (default 100), ``remove_scatters`` (default true); and per
free-spin level ``[[free_spins.levels]] cascade_multipliers`` (default: the ``[cascade]`` list).

The literal reading (:func:`play_falls`), one spin:

* fall k is the k-th window evaluated; fall 1 is the window at the stops;
* the wins of a fall are paid (ways, lines, anywhere or clusters, plus scatter pays) times the fall's
  multiplier (times the level's ``multiplier``, times the multiplier symbols' combined value);
* the cells of every paying combination are removed: lines, the cells of the paying run; ways,
  every cell of the paying symbol and of its substituting WILDs on the reels of its combination;
  anywhere and clusters, the paying cells (WILDs included); scatter cells when their count pays or
  awards spins (``remove_scatters``); multiplier symbols never;
* refill from the strip: each reel keeps a position t, at first its stop (row 1); removing n cells
  sets t to t - n and the top n rows show strip[t .. t + n - 1] (cyclic) above the survivors, which
  keep their order;
* the spin ends at the first fall that removes nothing; a spin whose fall ``max_falls`` still removes
  cells ends there and is counted as cut (a finding with its probability, never a hang);
* scatter pays and free-spin awards are evaluated on every fall (``every_fall``: the spin awards the
  sum of its falls' awards) or on fall 1 only (``first_fall``); an award without a pay removes the
  scatters and the spin goes on.

Exact figures: enumeration of every stop combination through the vectorised reading
(:mod:`exact.falls`, :mod:`exact.enumeration`), with per-fall statistics.
"""
from __future__ import annotations

from dataclasses import dataclass

from exact.rules.anywhere import anywhere_wins
from exact.rules.base import ENUMERATED, Rule
from exact.rules.clusters import cluster_wins
from exact.rules.free_spins import initial_spins, retrigger_spins
from exact.rules.multiplier_symbol import MultiplierSymbolConfig, combined_value
from exact.rules.scatter import scatter_codes, symbol_scatter_pay
from strips import plugins

__all__ = ["Cascade", "CascadeConfig", "Fall", "SpinFalls", "fall_wins", "play_falls", "fall_multiplier",
           "cascade_of", "multiplier_of"]


@dataclass(frozen=True)
class CascadeConfig:
    """The ``[cascade]`` table: ``multipliers`` per fall (last repeats), per level ``level_multipliers``
    ((level number, list) pairs), ``scatters``, ``max_falls``, ``remove_scatters``, ``refill``."""

    multipliers: tuple[int, ...] = (1,)
    level_multipliers: tuple[tuple[int, tuple[int, ...]], ...] = ()
    scatters: str = "every_fall"
    max_falls: int = 100
    remove_scatters: bool = True
    refill: str = "strip"
    rule: str = "cascading reels"


def cascade_of(model) -> CascadeConfig | None:
    """The cascade configuration kept on ``model.rules`` (None: no ``[cascade]``)."""
    return next((c for c in getattr(model, "rules", ()) if isinstance(c, CascadeConfig)), None)


def multiplier_of(model) -> MultiplierSymbolConfig | None:
    """The multiplier symbol's configuration kept on ``model.rules`` (None: none)."""
    return next((c for c in getattr(model, "rules", ()) if isinstance(c, MultiplierSymbolConfig)), None)


def fall_multiplier(config: CascadeConfig | None, phase, k: int) -> int:
    """The win multiplier of fall ``k`` (1-based) in ``phase``: the level's ``cascade_multipliers`` if
    given, else ``[cascade] multipliers``; the last entry repeats; 1 without a cascade.

    >>> fall_multiplier(CascadeConfig(multipliers=(1, 2, 3, 5)), None, 7)
    5
    """
    if config is None:
        return 1
    lst = config.multipliers
    if phase is not None and phase.name.startswith("level"):
        lst = dict(config.level_multipliers).get(int(phase.name[5:]), lst)
    return lst[min(k, len(lst)) - 1]


def fall_wins(model, window) -> tuple[tuple[str, int, int, frozenset], ...]:
    """The wins of one window by the game's evaluation, literally, with the cells each removes:
    (symbol, count or run, pay in credits before multipliers, cells as (reel, row) pairs).

    Ways: every cell of the symbol and its substituting WILDs on the reels of its combination; lines:
    the cells of the paying run (a payline's win is one entry, its symbol and run); anywhere and
    clusters: the paying cells.
    """
    ev = model.evaluation
    if ev == "anywhere":
        return anywhere_wins(model, window)
    if ev == "clusters":
        return cluster_wins(model, window)
    out = []
    if ev == "lines":
        for rows in model.paylines:
            symbol, run, pay = line_win(model, [window[r][i] for r, i in enumerate(rows)])
            if pay:
                out.append((symbol, run, pay, frozenset((r, rows[r]) for r in range(run))))
        return tuple(out)
    for p in model.pay_symbols:   # ways
        counts, cells = [], set()
        for r, col in enumerate(window):
            here = [i for i, name in enumerate(col) if name == p.name or model.symbol(name).substitutes_for(p.name)]
            if not here:
                break
            counts.append(len(here))
            cells |= {(r, i) for i in here}
        oak = len(counts)
        if oak and p.pays[oak - 1]:
            ways = 1
            for c in counts:
                ways *= c
            out.append((p.name, oak, p.pays[oak - 1] * ways, frozenset(cells)))
    return tuple(out)


def line_win(model, cells) -> tuple[str, int, int]:
    """(symbol, run, pay) of one payline's cells (names, reel 1 first), as :func:`exact.evaluator.line_pays`
    reads a line without a combination multiplier: the first non-WILD symbol's run of it or substituting
    WILDs, or a leading WILD's run of itself when its own pay is higher; (``""``, 0, 0) when it pays nothing.

    >>> from strips.loader import load_math_set
    >>> line_win(load_math_set("rules_page").model, ["PIC1", "PIC1", "PIC1", "AUS1", "AUS1"])[:2]
    ('PIC1', 3)
    """
    syms = [model.symbol(c) for c in cells]
    wild = (0, "", 0)
    if syms[0].kind == "wild" and syms[0].pays:
        j = 0
        while j < len(cells) and cells[j] == cells[0]:
            j += 1
        wild = (syms[0].pays[j - 1], cells[0], j)
    first = next((s for s in syms if s.kind != "wild"), None)
    if first is not None and first.kind == "pay":
        n = 0
        while n < len(cells) and (cells[n] == first.name or syms[n].substitutes_for(first.name)):
            n += 1
        if n and first.pays[n - 1] > wild[0]:
            return first.name, n, first.pays[n - 1]
    return (wild[1], wild[2], wild[0]) if wild[0] else ("", 0, 0)


@dataclass(frozen=True)
class Fall:
    """One fall of a spin: its window (names), wins ((symbol, count, pay, cells)), scatter pays ((symbol,
    count, pay)), free spins awarded, the removed cells, its multipliers and its win in credits
    (before the level multiplier)."""

    index: int
    window: tuple[tuple[str, ...], ...]
    wins: tuple
    scatters: tuple
    award: int
    removed: frozenset
    fall_multiplier: int
    symbol_multiplier: int
    win: int


@dataclass(frozen=True)
class SpinFalls:
    """A whole spin: its falls, its win in credits (the level multiplier included), the free spins it
    awards, whether it was cut at ``max_falls``, and the multiplier values drawn ((key, value) pairs)."""

    falls: tuple[Fall, ...]
    win: int
    award: int
    cut: bool
    drawn: tuple = ()


def _scatter_reading(model, window, phase, evaluate: bool):
    """((symbol, count, pay, cells) per scatter symbol, trigger count, award) of one window."""
    scat = []
    trig = 0
    tsym = model.trigger_symbol
    for s in model.of_kind("scatter"):
        names = {model.symbols[c].name for c in scatter_codes(model, s)}
        cells = frozenset((r, i) for r, col in enumerate(window) for i, n in enumerate(col) if n in names)
        pay = symbol_scatter_pay(s, len(cells)) if evaluate else 0
        scat.append((s.name, len(cells), pay, cells))
        if tsym is not None and s.name == tsym.name:
            trig = len(cells)
            if model.trigger_reels and not all(any((r, i) in cells for i in range(model.rows))
                                               for r in model.trigger_reels):
                trig = 0
    if not evaluate:
        return tuple(scat), trig, 0
    award = initial_spins(model, trig) if phase is None or phase.name == "base" else retrigger_spins(model, trig)
    return tuple(scat), trig, award


def play_falls(model, phase, strips, stops, draw=None) -> SpinFalls:
    """Play one spin literally: every fall until one removes nothing (or ``max_falls``).

    Parameters
    ----------
    model : strips.model.GameModel
    phase : strips.model.Phase (the base game or a free-spin level)
    strips : sequence of sequences of symbol names, one per reel (the phase's strip set)
    stops : sequence of int, the stop (row 1's position) of each reel
    draw : callable ``(key) -> int``, optional
        The multiplier symbol's value for ``key`` = ``(symbol, k)`` (the k-th cell showing it in the
        spin, 0-based, in order of appearance: reel by reel, top to bottom, at the start then at each
        refill) or ``(symbol, "reel", r)`` for ``per = "reel"``; default (or None returned): its first value.

    Returns
    -------
    SpinFalls

    Examples
    --------
    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "anywhere"},
    ...                      "cascade": {"multipliers": [1, 2]},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "A", "B"], ["A", "B", "B"]]})
    >>> s = play_falls(ms.model, ms.model.base_phase, [["A", "A", "B"], ["A", "B", "B"]], [0, 0])
    >>> [(f.window, f.win) for f in s.falls], s.win
    ([((('A',), ('A',)), 5), ((('B',), ('B',)), 2), ((('A',), ('B',)), 0)], 7)
    """
    cfg = cascade_of(model)
    mcfg = multiplier_of(model)
    mtable = mcfg.table(phase.weights) if mcfg is not None else None
    mname = mcfg.name if mcfg is not None and mtable is not None else None
    pos = [int(s) for s in stops]
    L = [len(s) for s in strips]
    rows = model.rows
    # each cell: (name, key of its drawn multiplier value or None)
    serial = [0]
    drawn: dict = {}

    def cell(r: int, name: str):
        if name != mname:
            return (name, None)
        key = (name, "reel", r) if mcfg.per == "reel" else (name, serial[0])
        if mcfg.per != "reel":
            serial[0] += 1
        if key not in drawn:
            value = draw(key) if draw is not None else None
            drawn[key] = mtable[0][0] if value is None else value
        return (name, key)

    cols = [[cell(r, strips[r][(pos[r] + i) % L[r]]) for i in range(rows)] for r in range(model.reels)]
    falls, total, award_total, cut = [], 0, 0, False
    max_falls = cfg.max_falls if cfg is not None else 1
    k = 0
    while True:
        k += 1
        window = tuple(tuple(n for n, _ in col) for col in cols)
        wins = fall_wins(model, window)
        evaluate_scatters = cfg is None or cfg.scatters == "every_fall" or k == 1
        scat, _, award = _scatter_reading(model, window, phase, evaluate_scatters)
        fm = fall_multiplier(cfg, phase, k)
        slots: dict = {}
        for col in cols:
            for _, key in col:
                if key is not None:
                    slots[key] = slots.get(key, 0) + 1
        sm = combined_value(mcfg, [(drawn[key], n) for key, n in slots.items()]) if mcfg is not None else 1
        spay = sum(p for _, _, p, _ in scat)
        win = fm * (sm * sum(w[2] for w in wins) + (sm if mcfg is None or mcfg.applies_to_scatters else 1) * spay)
        removed = set()
        for w in wins:
            removed |= w[3]
        if cfg is not None and cfg.remove_scatters:
            for name, n, p, cells in scat:
                tsym = model.trigger_symbol
                if p or (award and tsym is not None and name == tsym.name):
                    removed |= cells
        removed = frozenset(rc for rc in removed if cols[rc[0]][rc[1]][0] != mname)
        if cfg is None:
            removed = frozenset()
        falls.append(Fall(k, window, tuple(wins), tuple((n, c, p) for n, c, p, _ in scat), award, removed, fm, sm, win))
        total += win
        award_total += award
        if not removed:
            break
        if k >= max_falls:
            cut = True
            break
        for r in range(model.reels):
            gone = [i for i in range(rows) if (r, i) in removed]
            if not gone:
                continue
            n = len(gone)
            pos[r] -= n
            survivors = [c for i, c in enumerate(cols[r]) if i not in gone]
            cols[r] = [cell(r, strips[r][(pos[r] + j) % L[r]]) for j in range(n)] + survivors
    return SpinFalls(tuple(falls), total * phase.multiplier, award_total, cut, tuple(sorted(drawn.items(), key=str)))


class Cascade(Rule):
    """Cascading reels: exact by enumeration of every stop combination (per-fall statistics)."""

    name = "cascading reels"
    keys = "[cascade] refill, multipliers, scatters, max_falls, remove_scatters; [[free_spins.levels]] cascade_multipliers"
    implements = ENUMERATED
    factorised = False
    parses = (("cascade",), ("free_spins", "levels", "cascade_multipliers"))

    @classmethod
    def parse(cls, t, doc: dict, model) -> CascadeConfig | None:
        levels = (doc.get("free_spins") or {}).get("levels") or []
        per_level = [(i, lv) for i, lv in enumerate(levels) if isinstance(lv, dict) and "cascade_multipliers" in lv]
        if "cascade" not in doc:
            if per_level:
                raise t.error(("free_spins", "levels", per_level[0][0], "cascade_multipliers"),
                              "needs a [cascade] table (the falls it multiplies)")
            return None
        c = t.get(doc, (), "cascade", dict)
        path = ("cascade",)
        for key in c:
            if key not in ("refill", "multipliers", "scatters", "max_falls", "remove_scatters"):
                raise t.error(path + (key,), f"unknown key {key!r} (supported: refill, multipliers, scatters, "
                              f"max_falls, remove_scatters)")
        refill = t.get(c, path, "refill", str, "strip")
        if refill != "strip":
            raise t.error(path + ("refill",), f"must be 'strip' (the strip above the window), got {refill!r}")

        def mults(table, p, key):
            m = tuple(t.get(table, p, key, "ints"))
            if not m or any(v < 1 for v in m):
                raise t.error(p + (key,), "must be a non-empty list of multipliers >= 1")
            return m

        multipliers = mults(c, path, "multipliers") if "multipliers" in c else (1,)
        scatters = t.get(c, path, "scatters", str, "every_fall")
        if scatters not in ("every_fall", "first_fall"):
            raise t.error(path + ("scatters",), f"must be 'every_fall' or 'first_fall', got {scatters!r}")
        max_falls = t.get(c, path, "max_falls", int, 100)
        if not 1 <= max_falls <= 10_000:
            raise t.error(path + ("max_falls",), f"must be between 1 and 10000, got {max_falls}")
        remove = t.get(c, path, "remove_scatters", bool, True)
        lv_mults = tuple((i + 1, mults(lv, ("free_spins", "levels", i), "cascade_multipliers")) for i, lv in per_level)
        refuse = [(("symbols", s.name), f"{s.kind} symbols (collect)") for s in model.symbols if s.kind in ("key", "fish")]
        refuse += [(("symbols", s.name, "multiplier"), "a WILD multiplier") for s in model.symbols if s.multiplier]
        refuse += [(("free_spins", "levels"), "a free-spin ladder of several levels")] if len(model.levels) > 1 else []
        refuse += [((k,), k) for k in ("modes", "buy", "jackpots", "wheel", "gamble") if k in doc]
        for where, what in refuse:
            raise t.error(where, f"unsupported rule: {what} under [cascade]")
        return CascadeConfig(multipliers, lv_mults, scatters, max_falls, remove, refill)


plugins.register(Cascade.name, Cascade.parses, Cascade.parse)
