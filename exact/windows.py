"""Vectorised literal evaluation of many windows of one phase: the rules of :mod:`exact.evaluator`, in numpy.

:class:`WindowEvaluator` reads the windows of ``n`` stop combinations off a
phase's reel strips (or a bet mode's own strips) and evaluates each one with
the semantics of :func:`exact.evaluator.evaluate`, for every rule that
evaluator supports:

* ways pays (rules page section 6): per pay symbol the combination runs from
  reel 1 while a reel shows the symbol or a WILD substituting for it
  (blockers never count), ways = product of the per-reel counts, a WILD
  counted as its multiplier (fixed, drawn per WILD, drawn per reel); a way
  through a ``combination`` WILD is multiplied once by the value drawn for
  the spin;
* paylines: per line the first non-WILD symbol and its run of
  leading positions, the combination multiplier when the run uses that WILD,
  a WILD's own pays for a run of leading WILDs of one symbol; the line pays
  the higher of the two;
* collect (section 8): KEY count x sum of the FISH values;
* every scatter symbol counted on its own, a ``counts_as_scatter`` WILD
  counted as one more triggering scatter, scatter pays per symbol, and the
  trigger count (0 unless every ``trigger_reels`` reel shows a triggering
  scatter), as :attr:`exact.evaluator.SpinResult.trigger_count`.

Two modes:

* ``rng=None``: exact conditional means.  ``Outcome.pay / Outcome.denominator``
  is, for each window, the exact mean of the evaluator's win (before the
  level multiplier) over every FISH value, every drawn WILD multiplier and
  the combination value, drawn from the phase's weight tables.  The draws
  are independent of each other and of the stops, so the mean of a way's
  product of per-reel counts is the product of the per-reel means (each
  drawn multiplier at its exact mean, scaled to integers by the lcm ``S`` of
  the weight sums), collect is linear in the FISH values (their means scaled
  by the lcm ``F`` of the FISH weight sums), a way's pay is linear in the
  combination value (mean scaled by its weight sum ``W``), and a line's pay
  (the higher of two pays, not linear) is summed over the combination values
  with their weights.  ``denominator`` = lcm(S^reels x W, F) for ways games,
  ``W`` for line games, 1 without draws.
* ``rng`` given: one draw per window, ``denominator`` 1.  The values drawn are
  returned (``Outcome.cells``, ``Outcome.combination``) so the evaluator can
  be fed the same values.  Draw order (one ``Generator.integers`` call each,
  an index drawn uniformly below the weight total and mapped through the
  cumulative weights, ``searchsorted(side="right")``): first the combination
  value, one per window (only when the combination WILD has a weight table
  with several values); then, for each symbol in model order that draws a
  value (FISH symbols; WILDs with ``wild`` or ``reel`` multipliers), one value
  per window cell showing it, cells in C order of the ``(n, reels, rows)``
  window array.  A ``reel``-mode WILD uses the value drawn at its top-most
  cell of the reel for every cell of it on the reel (the others' draws are
  discarded, so the rng stream does not depend on the mode).

Every amount is an int64 numerator; construction refuses (ValueError naming
the rule) a game whose largest possible numerator, times :data:`SUM_HEADROOM`
windows, could overflow int64.

Source: rules page sections 3, 6, 7, 8, 9, 10; WILD multipliers; the catalogue rules (paylines,
combination multipliers, WILD pays, several scatters, ``counts_as_scatter``, ``trigger_reels``);
:mod:`exact.evaluator`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from strips.model import (FISH, KEY, PER_REEL, SCATTER, WILD, MathSet, Phase, ReelStrips, window_codes,
                          window_counts)
from exact.rules import combination_wilds, line_step, reading_step, scatter_codes, symbol_scatter_pay

#: The evaluator guarantees that this many windows' numerators sum without int64 overflow.
SUM_HEADROOM = 1 << 20

_INT63 = (1 << 63) - 1


@dataclass(frozen=True)
class Outcome:
    """The literal evaluation of ``n`` windows.

    Attributes
    ----------
    pay : numpy.ndarray, shape (n,), int64
        Win numerators in credits before the level multiplier: ways or line
        pays + scatter pays + collect (``pay / denominator``).
    denominator : int
        1 when an rng drew the values (or nothing is drawn); otherwise
        ``pay / denominator`` is the exact mean over the draws.
    scatter_counts : dict str -> numpy.ndarray, shape (n,), int64
        Per scatter symbol (file order), its count in the window
        (:func:`exact.evaluator.scatter_counts`: the triggering one includes
        the ``counts_as_scatter`` WILDs).
    trigger_count : numpy.ndarray, shape (n,), int64
        The count that awards free spins (``SpinResult.trigger_count``).
    keys : numpy.ndarray, shape (n,), int64
        KEY symbols in the window.
    ways_pay, scatter_pay, collect : numpy.ndarray, shape (n,), int64
        The parts of ``pay`` (same denominator): ways or line pays, scatter
        pays, collect.
    hit : numpy.ndarray, shape (n,), bool
        The win is > 0 for every draw (with an rng: for the draw made).  A
        FISH value of 0 can make a window's win 0 for some draws only; it is
        then False (see :attr:`WindowEvaluator.zero_fish`).
    cells : numpy.ndarray or None, shape (n, reels, rows), int64
        With an rng: the value drawn at each cell (FISH value at a FISH cell,
        WILD multiplier at a drawn-multiplier WILD cell, a ``reel`` WILD's
        shared value at each of its cells), 0 elsewhere.  None without rng.
    combination : numpy.ndarray or None, shape (n,), int64
        With an rng and a combination WILD: its value for each window (1 without one).
    line_pays, line_hits : numpy.ndarray or None, shape (n, paylines), int64 / bool
        Line games: each payline's pay (numerators, same denominator) and whether it pays.
    """

    pay: np.ndarray
    denominator: int
    scatter_counts: dict
    trigger_count: np.ndarray
    keys: np.ndarray
    ways_pay: np.ndarray | None = None
    scatter_pay: np.ndarray | None = None
    collect: np.ndarray | None = None
    hit: np.ndarray | None = None
    cells: np.ndarray | None = None
    combination: np.ndarray | None = None
    line_pays: np.ndarray | None = None
    line_hits: np.ndarray | None = None


def _draw(rng: np.random.Generator, weights: Sequence[int], size: int) -> np.ndarray:
    """Indices drawn with integer ``weights``: one ``rng.integers`` call, then the cumulative weights."""
    cum = np.cumsum(np.asarray(weights, dtype=np.int64))
    return np.searchsorted(cum, rng.integers(0, int(cum[-1]), size=size), side="right")


class WindowEvaluator:
    """Literal evaluation of many windows of one phase (see the module docstring for the rules).

    Parameters
    ----------
    ms : MathSet
    phase : Phase
        Gives the strip set (``phase.strips``) and the weight tables (``phase.weights``);
        the level multiplier is not applied.
    strips : ReelStrips or sequence of int arrays, optional
        Reel strips to use instead of the phase's (a bet mode's own strips):
        per reel the symbol codes.

    Attributes
    ----------
    lengths : tuple of int
        Stops of each reel.
    denominator : int
        The denominator of the exact (``rng=None``) outcomes.
    zero_fish : bool
        A FISH symbol on the strips can show 0 credits (``Outcome.hit`` then
        means "wins whatever the draws").

    Raises
    ------
    ValueError
        A FISH symbol or a drawn WILD multiplier on the strips has no weight
        table for the phase, a strip is shorter than the window, or the
        amounts could overflow int64 (the message names the rule).

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> ev = WindowEvaluator(ms, ms.model.base_phase)
    >>> ev.lengths
    (100, 100, 100, 100, 100)
    >>> out = ev.evaluate(np.zeros((1, 5), dtype=np.int64))
    >>> out.pay.dtype, out.keys.shape
    (dtype('int64'), (1,))
    """

    def __init__(self, ms: MathSet, phase: Phase, strips=None) -> None:
        model = ms.model
        self.model, self.phase = model, phase
        if strips is None:
            strips = ms.phase_strips(phase)
        codes = strips.codes if isinstance(strips, ReelStrips) else strips
        codes = [np.asarray(c, dtype=np.int64) for c in codes]
        if len(codes) != model.reels:
            raise ValueError(f"{len(codes)} reel strips given for {model.reels} reels")
        rows = model.rows
        self.lengths = tuple(len(c) for c in codes)
        if min(self.lengths) < 1:
            raise ValueError("a reel strip is empty")
        syms = model.symbols
        nsym = len(syms)
        self._dtype = np.int16 if nsym < (1 << 15) else np.int32
        # the window column of every stop of each reel (wrap-around, section 3)
        self._wc = [window_codes(c, rows).astype(self._dtype) for c in codes]
        present = sorted({int(x) for c in codes for x in np.unique(c)})
        on = np.zeros(nsym, dtype=bool)
        on[present] = True
        self._kind = np.array([s.kind for s in syms])
        w = phase.weights
        # ---- draw tables of the symbols on the strips
        self._tables: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        for c, s in enumerate(syms):
            if not on[c]:
                continue
            if s.kind == FISH:
                if w not in s.weights:
                    raise ValueError(f"{s.name} has no weight table {w!r}")
                self._tables[c] = (tuple(s.values), tuple(s.weights[w]))
            elif s.has_random_multiplier:
                if w not in s.multiplier.weights:
                    raise ValueError(f"{s.name} has no multiplier weight table {w!r}")
                pairs = s.multiplier.table(w)
                self._tables[c] = (tuple(v for v, _ in pairs), tuple(x for _, x in pairs))
        self.zero_fish = any(syms[c].kind == FISH and any(a == 0 and b for a, b in zip(v, x))
                             for c, (v, x) in self._tables.items())
        self._per_reel = np.array([s.has_random_multiplier and s.multiplier.mode == PER_REEL for s in syms])
        comb = [s for s in combination_wilds(model) if on[model.code(s.name)]]
        self._comb_code = model.code(comb[0].name) if comb else None
        self._comb_table = tuple(comb[0].multiplier.combination_table(w)) if comb else ((1, 1),)
        cw = sum(x for _, x in self._comb_table)
        self._comb_w = cw if len(self._comb_table) > 1 else 1
        if len(self._comb_table) == 1:
            self._comb_table = ((self._comb_table[0][0], 1),)
        self._comb_num = sum(v * x for v, x in self._comb_table)   # W x E[c]
        # ---- scales: S for drawn WILD multipliers, F for FISH values
        S = 1
        F = 1
        for c, (v, x) in self._tables.items():
            if syms[c].kind == FISH:
                F = math.lcm(F, sum(x))
            else:
                S = math.lcm(S, sum(x))
        self._S, self._F = S, F
        R = model.reels
        # the payline rule's vectorised step (None: the game pays ways, evaluated below); the catalogue's
        # composed line reading has its own (exact.rules.line_reading.ReadingLineStep)
        self._line_step = (reading_step(model, self._comb_code, self._comb_table) if model.is_lines else None) \
            or line_step(model, self._comb_code, self._comb_table)
        self.is_lines = self._line_step is not None
        if self._line_step is not None:
            self.denominator = self._comb_w
        else:
            self.denominator = math.lcm(S ** R * self._comb_w, F)
        # ---- per code tables
        pay_syms = model.pay_symbols
        self._pay_codes = np.array([model.code(p.name) for p in pay_syms], dtype=np.int64)
        npay = len(pay_syms)
        # subst[code, k]: the symbol counts for pay symbol k (itself or a substituting WILD)
        self._subst = np.array([[s.name == p.name or s.substitutes_for(p.name) for p in pay_syms] for s in syms],
                               dtype=bool).reshape(nsym, npay)
        # mean count contribution x S per code and pay symbol; 'pure' leaves out the combination WILD
        mean_m = np.zeros(nsym, dtype=object)
        fixed_m = np.ones(nsym, dtype=np.int64)
        for c, s in enumerate(syms):
            if s.kind == WILD and s.multiplier is not None and not s.multiplier.is_combination:
                if s.multiplier.is_random:
                    if c in self._tables:
                        v, x = self._tables[c]
                        mean_m[c] = sum(a * b for a, b in zip(v, x)) * (S // sum(x))
                    else:
                        mean_m[c] = S   # not on these strips: never counted
                    fixed_m[c] = 0      # marks drawn
                else:
                    mean_m[c] = s.multiplier.values[0] * S
                    fixed_m[c] = s.multiplier.values[0]
            else:
                mean_m[c] = S
        self._fixed_m = fixed_m
        self._drawn_m = np.array([s.has_random_multiplier for s in syms], dtype=bool)
        is_comb = np.zeros(nsym, dtype=bool)
        if self._comb_code is not None:
            is_comb[self._comb_code] = True
        self._is_comb = is_comb
        self._is_wild = np.array([s.kind == WILD for s in syms], dtype=bool)
        self._is_key = np.array([s.kind == KEY for s in syms], dtype=bool)
        self._is_fish = np.array([s.kind == FISH for s in syms], dtype=bool)
        contrib_all = self._subst.astype(object) * mean_m[:, None]
        contrib_pure = contrib_all * (~is_comb)[:, None]
        fish_num = np.zeros(nsym, dtype=object)
        for c, (v, x) in self._tables.items():
            if syms[c].kind == FISH:
                fish_num[c] = sum(a * b for a, b in zip(v, x)) * (F // sum(x))
        scat = model.of_kind(SCATTER)
        self._scatter_names = tuple(s.name for s in scat)
        trig = model.trigger_symbol
        self._trig_index = None if trig is None else self._scatter_names.index(trig.name)
        scat_of = np.zeros((nsym, len(scat)), dtype=np.int64)
        for j, s in enumerate(scat):
            for c in scatter_codes(model, s):
                scat_of[c, j] = 1
        trig_codes = np.zeros(nsym, dtype=bool)
        trig_codes[list(scatter_codes(model))] = True
        self._trigger_reels = sorted(model.trigger_reels)
        # ---- per reel, per stop tables (the window column of each stop)
        self._col = []
        nonzero_fish = _nonzero_fish(self, syms)
        self._counts = [window_counts(c, rows, nsym) for c in codes]            # (L, symbols) per reel
        for wc in self._counts:
            t = {
                "nz": (wc @ self._subst.astype(np.int64)) > 0,                     # (L, npay)
                "all": _obj_to_int(wc.astype(object) @ contrib_all, "WILD multipliers"),
                "pure": _obj_to_int(wc.astype(object) @ contrib_pure, "WILD multipliers"),
                "keys": wc @ self._is_key.astype(np.int64),
                "fish": _obj_to_int(wc.astype(object) @ fish_num, "FISH values"),
                "scat": wc @ scat_of,                                              # (L, n_scat)
                "trig": (wc @ trig_codes.astype(np.int64)) > 0,
                "fishany": (wc @ nonzero_fish.astype(np.int64)) > 0,
            }
            self._col.append(t)
        # ---- pay tables
        self._pays = np.zeros((npay, R + 1), dtype=np.int64)   # column 0: OAK 0 pays nothing
        for k, p in enumerate(pay_syms):
            self._pays[k, 1:] = p.pays
        paying = [n for n in range(1, R + 1) if self._pays[:, n].any()]
        self._min_oak = paying[0] if paying else 0              # the shortest paying OAK (0: nothing pays)
        # one gather per reel: KEY, FISH numerators, FISH > 0 shown, trigger scatter shown, the bit mask of
        # the pay symbols the column counts for (npay <= 62), each scatter's count
        self._use_mask = npay <= 62
        bit = np.array([1 << k for k in range(npay)], dtype=np.int64) if self._use_mask else None
        self._packed = []
        for t in self._col:
            mask = (t["nz"].astype(np.int64) @ bit) if self._use_mask and npay else np.zeros(len(t["keys"]), np.int64)
            self._packed.append(np.column_stack([t["keys"], t["fish"], t["fishany"].astype(np.int64),
                                                 t["trig"].astype(np.int64), mask, t["scat"]]).astype(np.int64))
        self._flat = [(t["nz"].ravel(), t["all"].ravel(), t["pure"].ravel()) for t in self._col]
        self._bits = np.arange(npay, dtype=np.int64)
        max_sc = [sum(int(t["scat"][:, j].max(initial=0)) for t in self._col) for j in range(len(scat))]
        self._scatter_pay_tab = [np.array([symbol_scatter_pay(s, n) for n in range(m + 1)], dtype=np.int64)
                                 for s, m in zip(scat, max_sc)]
        self._check_bounds()

    @property
    def scatter_names(self) -> tuple[str, ...]:
        """The scatter symbols, file order (the keys of ``Outcome.scatter_counts``)."""
        return self._scatter_names

    def max_counts(self) -> tuple[int, tuple[int, ...], int]:
        """(largest KEY count, largest count of each scatter symbol, largest trigger count) any window can show.

        >>> from strips.loader import load_math_set
        >>> ms = load_math_set("rules_page")
        >>> WindowEvaluator(ms, ms.model.base_phase).max_counts()[1]
        (5,)
        """
        keys = sum(int(t["keys"].max(initial=0)) for t in self._col)
        scat = tuple(sum(int(t["scat"][:, j].max(initial=0)) for t in self._col)
                     for j in range(len(self._scatter_names)))
        trig = scat[self._trig_index] if self._trig_index is not None else 0
        return keys, scat, trig

    # ------------------------------------------------------------------
    def _check_bounds(self) -> None:
        """Refuse a game whose largest numerator x SUM_HEADROOM could overflow int64 (never wrap)."""
        R = self.model.reels
        maxc = max(v for v, _ in self._comb_table)
        scatter = sum(int(t.max(initial=0)) for t in self._scatter_pay_tab)
        if self._line_step is not None:
            parts, bound = self._line_step.bound(maxc, scatter, self.denominator)
        else:
            syms = self.model.symbols
            maxm = np.array([max(self._tables[c][0]) if (c in self._tables and not self._is_fish[c])
                             else int(self._fixed_m[c]) if not self._drawn_m[c] else 1 for c in range(len(syms))],
                            dtype=object)
            maxp = sum(int(self._pays[k].max(initial=0)) for k in range(len(self._pays)))
            exact_ways, drawn_ways = 1, 1
            for r, t in enumerate(self._col):
                exact_ways *= max(1, int(t["all"].max(initial=0)))
                per = self._counts[r].astype(object) @ (self._subst.astype(object) * maxm[:, None])
                drawn_ways *= max(1, max((int(x) for x in per.ravel()), default=1))
            den_w = self._S ** R * self._comb_w
            ways = maxp * max(maxc, 1) * max(exact_ways * self._comb_w * (self.denominator // den_w), drawn_ways)
            fishmax = max([max(v) for c, (v, _) in self._tables.items() if self._is_fish[c]] + [0])
            keys = sum(int(t["keys"].max(initial=0)) for t in self._col)
            fish_exact = sum(int(t["fish"].max(initial=0)) for t in self._col)
            collect = keys * max(fish_exact * (self.denominator // self._F), (self.model.rows * R) * fishmax)
            bound = ways + collect + scatter * self.denominator
            wild_m = self._S > 1 or int(self._fixed_m.max(initial=1)) > 1
            parts = {"ways pays with WILD multipliers" if wild_m else "ways pays": ways,
                     "collect (KEY count x FISH values)": collect, "scatter pays": scatter * self.denominator}
        if bound * SUM_HEADROOM > _INT63:
            rule = max(parts, key=parts.get)   # the part that makes the amounts too large
            raise ValueError(f"unsupported rule: {rule} too large for the exact int64 window evaluation "
                             f"(largest numerator about 2^{bound.bit_length()})")

    # ------------------------------------------------------------------
    def windows(self, stops: np.ndarray) -> np.ndarray:
        """Symbol codes of the windows at ``stops``.

        Parameters
        ----------
        stops : numpy.ndarray, shape (n, reels), int64
            0-based stop of each reel (row 1 of the window, section 3).

        Returns
        -------
        numpy.ndarray, shape (n, reels, rows), int16 (int32 beyond 32767 symbols)
            ``out[j, r, i]`` the code (index in ``model.symbols``) at row ``i`` of reel ``r``.
        """
        stops = np.asarray(stops, dtype=np.int64)
        rows = self.model.rows
        out = np.empty((stops.shape[0], len(self.lengths), rows), dtype=self._dtype)
        for r, wc in enumerate(self._wc):
            out[:, r, :] = wc[stops[:, r]]
        return out

    # ------------------------------------------------------------------
    def evaluate(self, stops: np.ndarray, rng: np.random.Generator | None = None) -> Outcome:
        """Evaluate the windows at ``stops`` (shape (n, reels), int64).

        ``rng=None``: exact conditional means over the draws (``Outcome.denominator``);
        with an rng: one draw per window in the documented order, denominator 1.

        Raises
        ------
        ValueError
            If ``stops`` is not (n, reels) or a stop is out of range.
        """
        stops = np.asarray(stops, dtype=np.int64)
        R = len(self.lengths)
        if stops.ndim != 2 or stops.shape[1] != R:
            raise ValueError(f"stops must have shape (n, {R})")
        n = stops.shape[0]
        if n and ((stops < 0).any() or (stops >= np.array(self.lengths)).any()):
            raise ValueError("a stop is outside its reel strip")
        cols = [tab[stops[:, r]] for r, tab in enumerate(self._packed)]     # (n, 5 + scatters) per reel
        acc = cols[0].copy()
        for c in cols[1:]:
            acc += c
        keys = acc[:, 0]
        scat = acc[:, 5:]
        scatter_counts = {name: scat[:, j] for j, name in enumerate(self._scatter_names)}
        if self._trig_index is not None:
            shown = np.ones(n, dtype=bool)
            for r in self._trigger_reels:
                shown &= cols[r][:, 3] > 0
            trigger = np.where(shown, scat[:, self._trig_index], 0)
        else:
            trigger = np.zeros(n, dtype=np.int64)
        scatter_pay = np.zeros(n, dtype=np.int64)
        for j, tab in enumerate(self._scatter_pay_tab):
            scatter_pay += tab[scat[:, j]]
        win = cells = comb_values = line_pays = line_hits = None
        if rng is not None:
            win = self.windows(stops)
            comb_values, cells = self._draws(win, rng)
        if self._line_step is not None:
            if win is None:
                win = self.windows(stops)
            line_pays, line_hits = self._line_step(win, comb_values)
            main, hit_main = line_pays.sum(axis=1), line_hits.any(axis=1)
            den = 1 if rng is not None else self.denominator
            collect = np.zeros(n, dtype=np.int64)
            fish_hit = np.zeros(n, dtype=bool)
        else:
            main, hit_main, collect, fish_hit, den = self._ways(stops, cols, acc, win, cells, comb_values)
        pay = main + collect + scatter_pay * den
        hit = hit_main | (scatter_pay > 0) | ((keys > 0) & fish_hit)
        return Outcome(pay=pay, denominator=den, scatter_counts=scatter_counts, trigger_count=trigger, keys=keys,
                       ways_pay=main, scatter_pay=scatter_pay * den, collect=collect, hit=hit, cells=cells,
                       line_pays=line_pays, line_hits=line_hits,
                       combination=comb_values)

    # ------------------------------------------------------------------
    def _draws(self, win: np.ndarray, rng: np.random.Generator):
        """(combination values (n,), cell values (n, reels, rows)) drawn in the documented order."""
        n = win.shape[0]
        comb = None
        if self._comb_code is not None:
            vals = np.array([v for v, _ in self._comb_table], dtype=np.int64)
            if len(self._comb_table) > 1:
                comb = vals[_draw(rng, [x for _, x in self._comb_table], n)]
            else:
                comb = np.full(n, vals[0], dtype=np.int64)
        cells = np.zeros(win.shape, dtype=np.int64)
        for c in sorted(self._tables):
            v, x = self._tables[c]
            where = win == c
            k = int(where.sum())
            if k == 0:
                continue
            cells[where] = np.asarray(v, dtype=np.int64)[_draw(rng, x, k)]
            if self._per_reel[c]:   # every cell of the symbol on a reel takes the top-most cell's value
                top = np.argmax(where, axis=2)                                   # (n, reels)
                topv = np.take_along_axis(cells, top[:, :, None], axis=2)        # (n, reels, 1)
                cells = np.where(where, topv, cells)
        return comb, cells

    def _ways(self, stops, cols, acc, win, cells, comb):
        """Ways pays (numerators), hit of the ways, collect (numerators), a FISH > 0 shown, denominator.

        Only the (window, pay symbol) pairs whose combination reaches the shortest paying OAK are
        followed reel by reel (bit masks of the first reels select them); the others pay nothing.
        """
        n, R = stops.shape
        npay = len(self._pay_codes)
        drawn = cells is not None and any(not self._is_fish[c] for c in self._tables)
        exact = cells is None
        S = self._S if exact else 1
        keys = acc[:, 0]
        m = self._min_oak
        if m and npay:
            if self._use_mask:
                live = cols[0][:, 4].copy()
                for c in cols[1:m]:
                    live &= c[:, 4]
                w, k = np.nonzero((live[:, None] >> self._bits[None, :]) & 1)
            else:
                alive = np.ones((n, npay), dtype=bool)
                for r in range(m):
                    alive &= self._col[r]["nz"][stops[:, r]]
                w, k = np.nonzero(alive)
        else:
            w = k = np.zeros(0, dtype=np.int64)
        np_ = len(w)
        alive = np.ones(np_, dtype=bool)
        oak = np.zeros(np_, dtype=np.int64)
        tot = np.ones(np_, dtype=np.int64)
        pure = np.ones(np_, dtype=np.int64)
        comb_on = self._comb_code is not None
        if drawn:   # per-cell multipliers: drawn values at drawn WILDs, fixed elsewhere
            w64 = win[w].astype(np.int64)                                   # (pairs, reels, rows)
            mult = np.where(self._drawn_m[w64], cells[w], self._fixed_m[w64])
            own = self._pay_codes[k][:, None]
        for r in range(R):
            st = stops[w, r]
            nz, a_tab, p_tab = self._flat[r]
            if r >= m:
                alive &= nz[st * npay + k]
            oak += alive
            if drawn:
                wr = w64[:, r, :]                                           # (pairs, rows)
                sub = self._subst[wr, k[:, None]]
                cnt = np.where(wr == own, 1, mult[:, r, :]) * sub           # a pay symbol counts 1, a WILD its multiplier
                a = cnt.sum(axis=1)
                p = (cnt * ~self._is_comb[wr]).sum(axis=1) if comb_on else None
            else:   # exact means, or fixed multipliers only (the exact tables then have S = 1)
                idx = st * npay + k
                a = a_tab[idx]
                p = p_tab[idx] if comb_on else None
            tot *= np.where(alive, a, S)
            if comb_on:
                pure *= np.where(alive, p, S)
        P = self._pays[k, oak]
        if not comb_on:
            pairs = P * tot
            den_w = S ** R
        elif exact:
            pairs = P * (self._comb_w * pure + self._comb_num * (tot - pure))
            den_w = S ** R * self._comb_w
        else:
            pairs = P * (pure + comb[w] * (tot - pure))
            den_w = 1
        ways = np.zeros(n, dtype=np.int64)
        hit = np.zeros(n, dtype=bool)
        if np_:   # w ascends (row-major nonzero): exact integer segment sums per window
            starts = np.flatnonzero(np.r_[True, w[1:] != w[:-1]])
            ways[w[starts]] = np.add.reduceat(pairs, starts)
            hit[w[P > 0]] = True
        if exact:
            den = self.denominator
            collect = keys * acc[:, 1] * (den // self._F)
            ways = ways * (den // den_w)
            fish_hit = acc[:, 2] > 0
        else:
            den = 1
            fish_sum = (cells * self._is_fish[win.astype(np.int64)]).sum(axis=(1, 2))
            collect = keys * fish_sum
            fish_hit = fish_sum > 0
        return ways, hit, collect, fish_hit, den


def _nonzero_fish(ev: WindowEvaluator, syms) -> np.ndarray:
    """Per code: a FISH symbol whose every value drawn with a positive weight (phase's table) is > 0."""
    out = np.zeros(len(syms), dtype=bool)
    for c, (v, x) in ev._tables.items():
        if syms[c].kind == FISH and all(a > 0 for a, b in zip(v, x) if b):
            out[c] = True
    return out


def _obj_to_int(a: np.ndarray, rule: str) -> np.ndarray:
    """An object array of Python ints as int64, refusing (ValueError naming ``rule``) what int64 cannot hold."""
    if a.size and max(abs(int(x)) for x in a.ravel()) > _INT63:
        raise ValueError(f"unsupported rule: {rule} too large for the exact int64 window evaluation")
    return a.astype(np.int64)
