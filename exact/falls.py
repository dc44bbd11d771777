"""Vectorised literal reading of whole spins with falls: the rules of :func:`exact.rules.cascade.play_falls`, in numpy.

:class:`FallEvaluator` plays ``n`` spins of one phase at once, fall after fall, for every evaluation
(ways, lines, anywhere, clusters), with or without ``[cascade]`` (without it a spin is one fall and
nothing is removed), scatter pays and awards on every fall or on the first, the fall multipliers and
the multiplier symbol.  The spins still falling are kept in a shrinking index set, so the work of fall k
is proportional to the spins that reach it.

Per spin it returns (:class:`FallsOutcome`) the parts of its win in credits *before* the level
multiplier and *before* the multiplier symbol's values (which are drawn, not stopped):

* ``plain``: the credits multiplied by no drawn value (every win when no multiplier symbol is in view,
  scatter pays when ``applies_to_scatters = false``), fall multipliers included;
* ``drawn``: per spin a list of (signature, credits): the credits of falls whose multiplier symbols in
  view have the ``signature`` (the cell count of each drawn value), to be multiplied by that
  signature's combined value (:func:`exact.rules.multiplier_symbol.value_law`);

and the free spins awarded (or the trigger count of fall 1 when awards are not summed over falls), the
falls evaluated and whether the spin was cut at ``max_falls``, plus per-fall sums for the statistics.
All amounts are int64 (the construction refuses strips whose largest spin win could overflow).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exact.rules import (award_label, cascade_of, count_award, count_pay, fall_multiplier, initial_spins, line_automaton, multiplier_of,
                         paying_wilds, play_falls, retrigger_spins, scatter_codes, symbol_scatter_pay)
from exact.rules.registry import phase_path
from strips.model import PAY, SCATTER, WILD, MathSet, Phase, window_codes

__all__ = ["FallEvaluator", "FallsOutcome", "play_falls", "falls_game"]


def falls_game(model) -> bool:
    """Whether a phase of ``model`` is computed by a rule without per-reel terms (the registry's
    :func:`exact.rules.registry.phase_path`: enumeration through the falls, or that rule's own fast path):
    its spins are then read by :func:`play_falls`.

    >>> from strips.loader import load_math_set
    >>> falls_game(load_math_set("rules_page").model)
    False
    """
    return phase_path(model) is not None


@dataclass
class FallsOutcome:
    """The spins played by :meth:`FallEvaluator.play` (n spins; see the module docstring).

    Attributes
    ----------
    plain : ndarray (n,), int64
    scatter_plain : ndarray (n,), int64
        The scatter-pay part of ``plain``.
    drawn : dict int -> list of (tuple, int, int)
        Spin index -> (signature, credits, of which scatter credits) for the spins that showed a multiplier symbol.
    award : ndarray (n,), int64
        Free spins awarded by the spin over its falls (``every_fall``), else the trigger count of fall 1.
    falls : ndarray (n,), int64
        The falls evaluated.
    cut : ndarray (n,), bool
        Fall ``max_falls`` still removed cells.
    paid : ndarray (n,), bool
        Some fall paid.
    per_fall : list of dict
        Fall k-1 -> {"spins": spins reaching it, "plain": credits, "drawn": {signature: credits}}.
    awards : ndarray (n, awards) bool or None
        Which advertised awards (:attr:`FallEvaluator.awards`) each spin pays in some fall (when asked).
    """

    plain: np.ndarray
    scatter_plain: np.ndarray
    drawn: dict
    award: np.ndarray
    falls: np.ndarray
    cut: np.ndarray
    paid: np.ndarray
    per_fall: list
    awards: np.ndarray | None = None


#: The largest survivor table (entries) of the coded line reading (:class:`_CodedLines`).
CODED_TABLE_CELLS = 1 << 21


class _CodedLines:
    """A line game's windows as one integer per reel column (``code = sum of symbol x nsym^(rows-1-row)``,
    row 0 the most significant digit), for :meth:`FallEvaluator.play`: the payline automaton steps on a
    whole column at once, the lines that share their rows on the first reels share those steps (a trie of
    the paylines' row prefixes), the removed cells are one bit mask per spin (bit ``reel x rows + row``) and
    the refill of a reel is two table reads (the fresh cells of the strip above its position, the survivors
    of its column).  Windows are (reels, n) int64 codes, reel-major; positions likewise.  The same rules as
    the cell reading (:meth:`FallEvaluator.wins`, :meth:`FallEvaluator.scatter_reading`), built from the
    same automaton and tables.

    Taken only when the tables stay small (:data:`CODED_TABLE_CELLS`), for lines without the multiplier
    symbol; else the cell reading plays the spins."""

    def __init__(self, ev: "FallEvaluator", auto) -> None:
        S, rows, R = ev.nsym, ev.rows, ev.R
        self.R, self.rows, self.ncodes = R, rows, S ** rows
        place = S ** np.arange(rows - 1, -1, -1, dtype=np.int64)                 # (rows,): row 0 most significant
        codes = np.arange(self.ncodes, dtype=np.int64)
        dig = (codes[None, :] // place[:, None]) % S                              # (rows, codes): symbol at row
        self.wcode = [(wc.astype(np.int64) * place).sum(axis=1) for wc in ev._wc]   # per reel (L,): window codes
        table = auto.table                                                        # (states, nsym)
        apay = np.maximum(auto.pay, auto.wild_pay)
        # the symbol at each row of a code; the step table [state x nsym + symbol] -> next state x nsym: small
        # enough to stay in cache; a line's last step reads its pay and removed cells at once (below)
        self.dig = [d.copy() for d in dig]
        self.inner = (table * S).ravel()
        self.S = S
        # the trie of row prefixes: nodes (depth 1..R, row, parent node or -1) in depth order; line -> its leaf
        index: dict[tuple, int] = {}
        self.nodes: list[tuple[int, int, int]] = []
        self.line_leaf = []
        for line in ev.paylines:
            for d in range(1, R + 1):
                key = tuple(line[:d])
                if key not in index:
                    index[key] = len(self.nodes)
                    self.nodes.append((d, line[d - 1], index[key[:-1]] if d > 1 else -1))
            self.line_leaf.append(index[tuple(line)])
        order = sorted(range(len(self.nodes)), key=lambda j: self.nodes[j][0])
        renum = {j: i for i, j in enumerate(order)}
        self.nodes = [(d, row, renum[p] if p >= 0 else -1) for d, row, p in (self.nodes[j] for j in order)]
        self.line_leaf = [renum[j] for j in self.line_leaf]
        #: the nodes of depth R - 1 a leaf steps from (the quiet filter hands their states over)
        self.parents = sorted({p for d, _, p in self.nodes if d == R and p >= 0})
        self._parent_set = frozenset(self.parents)
        # depth-first order: (node, depth, row, parent, the lines ending there)
        children: dict[int, list[int]] = {j: [] for j in range(-1, len(self.nodes))}
        for j, (_, _, p) in enumerate(self.nodes):
            children[p].append(j)
        ends: dict[int, list[int]] = {}
        for line, leaf in enumerate(self.line_leaf):
            ends.setdefault(leaf, []).append(line)
        self.dfs = []
        todo = list(reversed(children[-1]))
        while todo:
            j = todo.pop()
            self.dfs.append((j,) + self.nodes[j] + (tuple(ends.get(j, ())),))
            todo.extend(reversed(children[j]))
        self._cap = 0
        # the last step of a line, [state x nsym + symbol]: the pay of the final state, and per line the cells
        # of its paying run as bits
        self.last_pay = apay[table].ravel()
        self.last_bits = []
        for line in ev.paylines:
            cell = np.array([1 << (r * rows + line[r]) for r in range(R)] + [0], dtype=np.int64)
            upto = np.concatenate([[0], np.cumsum(cell[:R])])                    # bits of the first k reels
            self.last_bits.append(upto[np.minimum(auto.run, R)][table].ravel())
        # scatters: per code the count of the scatter's cells and their rows as bits
        self.scatters = []
        for mask, paytab, is_trig in ev.scatters:
            here = mask[dig]                                                      # (rows, codes)
            self.scatters.append((here.sum(axis=0), (here * (1 << np.arange(rows))[:, None]).sum(axis=0),
                                  paytab, is_trig, [bool(mask[np.asarray(c)].any()) for c in ev.codes]))
        # refill: the fresh cells strip[t .. t + n - 1] on top, per reel [n x L + t]; the survivors of pattern
        # p (removed rows as bits) moved to the bottom rows, [p x ncodes + code]
        self.fresh = []
        for c in ev.codes:
            L = len(c)
            c = np.asarray(c, dtype=np.int64)
            tab = np.zeros((rows + 1, L), dtype=np.int64)
            for n in range(1, rows + 1):
                for j in range(n):
                    tab[n] += c[(np.arange(L) + j) % L] * place[j]
            self.fresh.append(tab.ravel())
        surv = np.zeros((1 << rows, self.ncodes), dtype=np.int64)
        for p in range(1 << rows):
            keep = [i for i in range(rows) if not p >> i & 1]
            n = rows - len(keep)
            for k, i in enumerate(keep):
                surv[p] += dig[i] * place[n + k]
        self.surv = surv.ravel()
        self.removed = ev._removed
        self.lengths = np.array(ev.lengths, dtype=np.int64)
        self.row_mask = (1 << rows) - 1

    @staticmethod
    def fits(ev: "FallEvaluator") -> bool:
        """Whether the survivor table of ``ev`` stays within :data:`CODED_TABLE_CELLS` entries."""
        return ev.nsym ** ev.rows << ev.rows <= CODED_TABLE_CELLS

    def start(self, stops: np.ndarray) -> np.ndarray:
        """The fall-1 window codes at ``stops`` (n, reels): (reels, n) int64."""
        return np.stack([self.wcode[r][stops[:, r]] for r in range(self.R)])

    def _buffers(self, m: int):
        """Work arrays for ``m`` windows, kept between calls (no allocation per fall): the states by depth
        (reels + 1, m), the cells read (reels x rows, m), one scratch row."""
        if self._cap < m:
            self._cap = max(m, 2 * self._cap)
            self._st = np.empty((self.R + 1, self._cap), dtype=np.int64)
            self._cells = np.empty((self.R * self.rows, self._cap), dtype=np.int64)
            self._tmp = np.empty(self._cap, dtype=np.int64)
        return self._st[:, :m], self._cells[:, :m], self._tmp[:m]

    def walk(self, col: np.ndarray, given: dict | None = None, gidx: np.ndarray | None = None,
             prefix: bool = False):
        """Read the paylines of windows ``col`` (reels, m) on the trie, depth first (a node's state in its
        depth's row of the work array, its children next).

        ``prefix``: read only the first reels - 1 reels and return {node: (m,) states} of the nodes the
        lines' last step starts from (:attr:`parents`).  ``given`` (those states for some prefixes) and
        ``gidx`` (m,): the prefix of each window, whose parents' states are then read from ``given`` and
        only the last reel stepped.  Else returns (pay (m,), removed cells as bits (m,)).
        """
        m = col.shape[1]
        st, cells, tmp = self._buffers(m)
        R, rows = self.R, self.rows
        read = [False] * (R * rows)
        kept = {}
        pay = np.zeros(m, dtype=np.int64)
        bits = np.zeros(m, dtype=np.int64)
        for j, d, row, par, lines in self.dfs:
            if prefix and d == R:
                continue
            out = st[d]
            if given is not None and d < R:
                if d == R - 1:
                    np.take(given[j], gidx, out=out)
                continue
            c = (d - 1) * rows + row
            if not read[c]:
                np.take(self.dig[row], col[d - 1], out=cells[c])
                read[c] = True
            if d == R:                             # a line's last step: its pay and removed cells
                idx = cells[c] if par < 0 else np.add(st[d - 1], cells[c], out=out)
                for line in lines:
                    np.take(self.last_pay, idx, out=tmp)
                    pay += tmp
                    np.take(self.last_bits[line], idx, out=tmp)
                    bits |= tmp
                continue
            if par < 0:
                np.take(self.inner, cells[c], out=out)
            else:
                np.add(st[d - 1], cells[c], out=tmp)
                np.take(self.inner, tmp, out=out)
            if prefix and j in self._parent_set:
                kept[j] = out.copy()
        return kept if prefix else (pay, bits)

    def scatter_cells(self, i: int, col: np.ndarray):
        """Scatter ``i``'s cells on windows ``col`` (reels, m): (per reel its count (m,), or 0 on a reel whose
        strip never shows it; a function giving the cells as bits (m,))."""
        cnt, rbits, _, _, on = self.scatters[i]
        per = [np.take(cnt, col[r]) if on[r] else 0 for r in range(self.R)]
        return per, lambda: sum(np.take(rbits, col[r]) << (r * self.rows) for r in range(self.R) if on[r])

    def refill(self, col: np.ndarray, bits: np.ndarray, pos: np.ndarray) -> None:
        """Refill windows ``col`` (reels, m) whose cells ``bits`` (m,) go, from positions ``pos`` (reels, m),
        in place: the survivors fall, strip[t - n .. t - 1] on top, t -> t - n."""
        for r in range(self.R):
            p = (bits >> (r * self.rows)) & self.row_mask
            if not p.any():
                continue                                  # the reel keeps its column and position
            L = self.lengths[r]
            n = np.take(self.removed, p)
            t = pos[r] - n
            t %= L
            pos[r] = t
            n *= L
            n += t
            col[r] = np.take(self.fresh[r], n) + np.take(self.surv, p * self.ncodes + col[r])


class FallEvaluator:
    """Plays spins of one phase fall by fall (see the module docstring).

    Parameters
    ----------
    ms : MathSet
    phase : Phase

    Examples
    --------
    >>> import exact
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "anywhere"},
    ...                      "cascade": {"multipliers": [1, 2]},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}, "B": {"class": "pay", "pays": [0, 1]}}},
    ...                     {"base": [["A", "A", "B"], ["A", "B", "B"]]})
    >>> out = FallEvaluator(ms, ms.model.base_phase).play(np.array([[0, 0]]))
    >>> int(out.plain[0]), int(out.falls[0])
    (7, 3)
    """

    def __init__(self, ms: MathSet, phase: Phase) -> None:
        model = ms.model
        self.model, self.phase = model, phase
        strips = ms.phase_strips(phase)
        self.codes = [np.asarray(c, dtype=np.int64) for c in strips.codes]
        self.lengths = tuple(len(c) for c in self.codes)
        self.R, self.rows = model.reels, model.rows
        self.cfg = cascade_of(model)
        self.max_falls = self.cfg.max_falls if self.cfg is not None else 1
        self.every_fall = self.cfg is None or self.cfg.scatters == "every_fall"
        self.sum_awards = self.cfg is not None and self.cfg.scatters == "every_fall" and bool(model.trigger)
        syms = model.symbols
        nsym = len(syms)
        self.nsym = nsym
        self._wc = [window_codes(c, self.rows).astype(np.int16) for c in self.codes]
        self.codes = [c.astype(np.int16) for c in self.codes]
        # refill by the pattern of removed rows of a reel (bits): the rows removed, and per new row its old row
        # (the survivors in order below) or -1 (a fresh cell from the strip above)
        self._row_bits = 1 << np.arange(self.rows)
        pats = range(1 << self.rows)
        self._removed = np.array([bin(p).count("1") for p in pats], dtype=np.int64)
        self._refill = np.array([[-1] * bin(p).count("1") + [i for i in range(self.rows) if not p >> i & 1]
                                 for p in pats], dtype=np.int64)
        pays = model.pay_symbols
        self.npay = len(pays)
        self.subst = np.array([[s.name == p.name or s.substitutes_for(p.name) for p in pays] for s in syms],
                              dtype=bool).reshape(nsym, self.npay)
        self.own = np.array([[s.name == p.name for p in pays] for s in syms], dtype=bool).reshape(nsym, self.npay)
        self.is_wild = np.array([s.kind == WILD for s in syms])
        cells = self.R * self.rows
        top = cells + 1
        self.paytab = np.array([[count_pay(p.pays, n) for n in range(top)] for p in pays], dtype=np.int64)
        self.wild_pays = [(model.code(w.name), np.array([count_pay(w.pays, n) for n in range(top)], dtype=np.int64))
                          for w in paying_wilds(model)]
        # lines: counts_for[a, b] = a counts for the line symbol b; symbol and WILD-run pays by run length
        if model.evaluation == "lines":
            self.counts_for = np.array([[a == b or (syms[a].kind == WILD and syms[b].kind == PAY
                                                    and syms[a].substitutes_for(syms[b].name))
                                         for b in range(nsym)] for a in range(nsym)], dtype=bool)
            self.symtab = np.array([[(s.pays[n - 1] if n and s.kind == PAY else 0) for n in range(self.R + 1)]
                                    for s in syms], dtype=np.int64)
            self.wildtab = np.array([[(s.pays[n - 1] if n and s.kind == WILD and s.pays else 0)
                                      for n in range(self.R + 1)] for s in syms], dtype=np.int64)
            self.paylines = [tuple(line) for line in model.paylines]
            auto = line_automaton(model, self.R, None, ((1, 1),))   # the literal payline reading, one builder
            table, apay, arun = auto.table, np.maximum(auto.pay, auto.wild_pay), auto.run
            # states numbered x nsym, so one step is scaled[state + code]; the pay and run read at that index
            self.auto_scaled = (table * nsym).ravel()
            self.auto_first = table[0] * nsym
            self.auto_pay_s = np.repeat(apay, nsym)
            self.auto_run_s = np.repeat(arun, nsym)
            self.auto_award_s = np.repeat(auto.award, nsym)
        # scatters
        scat = model.of_kind(SCATTER)
        tsym = model.trigger_symbol
        self.scatters = []
        for s in scat:
            mask = np.zeros(nsym, dtype=bool)
            mask[list(scatter_codes(model, s))] = True
            paytab = np.array([symbol_scatter_pay(s, n) for n in range(top)], dtype=np.int64)
            self.scatters.append((mask, paytab, tsym is not None and s.name == tsym.name))
        self._award_tables(paying_wilds(model))
        base = phase.name == "base"
        self.award_tab = np.array([(initial_spins(model, n) if base else retrigger_spins(model, n)) for n in range(top)],
                                  dtype=np.int64)
        self.trigger_reels = sorted(model.trigger_reels)
        # the multiplier symbol of this phase (a phase without its weights shows it as a blank)
        mcfg = multiplier_of(model)
        self.mcfg = mcfg if mcfg is not None and mcfg.table(phase.weights) is not None else None
        self.mcode = model.code(self.mcfg.name) if self.mcfg is not None else None
        self.m_scatters = self.mcfg is None or self.mcfg.applies_to_scatters
        self.fall_mult = [fall_multiplier(self.cfg, phase, k) for k in range(1, self.max_falls + 1)]
        self._check_overflow()
        self._coded = None
        if model.evaluation == "lines" and self.mcfg is None and _CodedLines.fits(self):
            self._coded = _CodedLines(self, auto)

    def _award_tables(self, wilds) -> None:
        """The advertised awards of one spin (:attr:`awards`: (label, credits) per award) and the tables that
        map what a fall pays to them: per pay symbol and count (``comb_award[p, n]``: its OAK under ways, its
        cells or cluster size under anywhere and clusters, the last pay entry for every larger count), per
        paying WILD (anywhere) and per scatter and count; per automaton award code under lines."""
        model, R, cells = self.model, self.R, self.R * self.rows
        ev = model.evaluation
        self.awards: list[tuple[str, int]] = []
        index: dict = {}

        def add(key, label, credits) -> int:
            if key not in index:
                index[key] = len(self.awards)
                self.awards.append((label, int(credits)))
            return index[key]

        def per_count(name: str, pays, top: int, unit: str) -> np.ndarray:
            tab = np.full(cells + 1, -1, dtype=np.int64)
            for n in range(1, cells + 1):
                e = count_award(pays, n, top)
                if e:
                    tab[n] = add((unit, name, e), award_label(name, e, pays, top, unit), pays[e - 1])
            return tab

        pays = model.pay_symbols
        if ev == "lines":
            syms = model.symbols
            codes = np.arange(len(syms) * (R + 1))
            self.line_award = np.full(len(codes), -1, dtype=np.int64)
            for c in codes:
                sym, run = divmod(int(c), R + 1)
                s_ = syms[sym]
                if s_.kind in (PAY, WILD) and run and s_.pays and run <= len(s_.pays) and s_.pays[run - 1]:
                    self.line_award[c] = add(("OAK", s_.name, run), f"{s_.name} {run} OAK", s_.pays[run - 1])
        else:
            unit, top = {"ways": ("OAK", R), "anywhere": ("cells", cells), "clusters": ("cluster", cells)}.get(ev, ("", cells))
            self.comb_award = np.stack([per_count(p.name, p.pays, top, unit) for p in pays]) if pays else \
                np.zeros((0, cells + 1), dtype=np.int64)
            self.wild_award = [per_count(w.name, w.pays, cells, "cells") for w in wilds] if ev == "anywhere" else []
        self.scatter_award = [per_count(s.name, s.pays or (), cells, "scatter pay") for s in model.of_kind(SCATTER)]

    def _mark(self, hits, ids) -> None:
        """Mark the awards ``ids`` ((m,) or (m, k), -1: none) of the windows in ``hits`` (m, awards)."""
        ids = np.asarray(ids)
        ids = ids.reshape(ids.shape[0], -1)
        r, c = np.nonzero(ids >= 0)
        hits[r, ids[r, c]] = True

    def award_hits(self, win, evaluate: bool) -> np.ndarray:
        """Which advertised awards (:attr:`awards`) the windows ``win`` pay: (m, awards) bool; ``win`` cells
        (m, reels, rows), or the coded line reading's column codes (reels, m), read as cells here."""
        cd = self._coded
        if cd is not None:
            win = np.stack([np.stack([cd.dig[row][win[r]] for row in range(self.rows)], axis=1)
                            for r in range(self.R)], axis=1)
        m = win.shape[0]
        hits = np.zeros((m, len(self.awards)), dtype=bool)
        ev = self.model.evaluation
        if ev == "lines":
            for line in self.paylines:
                state = self.auto_first[win[:, 0, line[0]]]
                for r in range(1, self.R):
                    state = self.auto_scaled[state + win[:, r, line[r]]]
                code = self.auto_award_s[state]
                self._mark(hits, np.where(code >= 0, self.line_award[np.maximum(code, 0)], -1))
        elif ev in ("ways", "anywhere"):
            C = self.subst[win]
            if ev == "ways":
                alive = np.cumprod(C.sum(axis=2) > 0, axis=1).astype(bool)
                count = alive.sum(axis=1)                                    # (m, npay): OAK
            else:
                count = C.sum(axis=(1, 2))                                   # (m, npay): cells
            self._mark(hits, self.comb_award[np.arange(self.npay)[None, :], count])
            for (code, _), tab in zip(self.wild_pays, self.wild_award):
                self._mark(hits, tab[(win == code).sum(axis=(1, 2))])
        else:
            self._clusters(win, hits)
        if evaluate:
            for (mask, _, _), tab in zip(self.scatters, self.scatter_award):
                self._mark(hits, tab[mask[win].sum(axis=(1, 2))])
        return hits

    def key(self) -> tuple:
        """What the spins of the phase depend on besides the level multiplier (phases with equal keys
        differ only by it): strips, the multiplier symbol's table, the fall multipliers, the award table."""
        table = self.mcfg.table(self.phase.weights) if self.mcfg is not None else None
        return (self.phase.strips, table, tuple(self.fall_mult), tuple(self.award_tab.tolist()), self.sum_awards)

    def _check_overflow(self) -> None:
        """Refuse (ValueError) strips whose spin win could overflow int64: every pay, multiplier and fall."""
        big = int(self.paytab.max(initial=0)) * max(self.npay, 1) * self.R * self.rows
        big += sum(int(t.max(initial=0)) for _, t, _ in self.scatters)
        big += sum(int(t.max(initial=0)) for _, t in self.wild_pays)
        if self.model.evaluation == "ways":
            big *= self.rows ** self.R
        big *= max(self.fall_mult) * self.max_falls
        if big >= 1 << 62:
            raise ValueError("unsupported rule: wins too large for the exact int64 fall evaluation")

    # ------------------------------------------------------------------
    def windows(self, stops: np.ndarray) -> np.ndarray:
        """The fall-1 windows at ``stops`` (n, reels): codes, shape (n, reels, rows), int64."""
        out = np.empty((stops.shape[0], self.R, self.rows), dtype=np.int16)
        for r, wc in enumerate(self._wc):
            out[:, r, :] = wc[stops[:, r]]
        return out

    def wins(self, win: np.ndarray):
        """(pay (m,), removed cells (m, reels, rows) bool) of the evaluation's wins of windows ``win``."""
        ev = self.model.evaluation
        if ev == "lines":
            return self._lines(win)
        m = win.shape[0]
        rem = np.zeros(win.shape, dtype=bool)
        pay = np.zeros(m, dtype=np.int64)
        if ev == "ways":
            C = self.subst[win]                                          # (m, R, rows, npay)
            cnt = C.sum(axis=2)                                          # (m, R, npay)
            alive = np.cumprod(cnt > 0, axis=1).astype(bool)
            oak = alive.sum(axis=1)                                      # (m, npay)
            ways = np.where(alive, cnt, 1).prod(axis=1)
            pk = self.paytab[np.arange(self.npay)[None, :], np.where(oak > 0, oak, 0)] * ways
            pk = np.where(oak > 0, pk, 0)
            pay = pk.sum(axis=1)
            rem = (C & alive[:, :, None, :] & (pk > 0)[:, None, None, :]).any(axis=3)
            return pay, rem
        if ev == "anywhere":
            C = self.subst[win]
            count = C.sum(axis=(1, 2))                                   # (m, npay)
            pk = self.paytab[np.arange(self.npay)[None, :], count]
            pay = pk.sum(axis=1)
            rem = (C & (pk > 0)[:, None, None, :]).any(axis=3)
            for code, tab in self.wild_pays:
                here = win == code
                wp = tab[here.sum(axis=(1, 2))]
                pay = pay + wp
                rem |= here & (wp > 0)[:, None, None]
            return pay, rem
        return self._clusters(win)

    def _lines(self, win):
        m = win.shape[0]
        rem = np.zeros(win.shape, dtype=bool)
        pay = np.zeros(m, dtype=np.int64)
        scaled = self.auto_scaled                       # next state x codes, flat
        cells = {(r, i): np.ascontiguousarray(win[:, r, i]) for r in range(self.R) for i in range(self.rows)}
        for line in self.paylines:
            state = self.auto_first[cells[0, line[0]]]
            for r in range(1, self.R):
                state = scaled[state + cells[r, line[r]]]
            pay += self.auto_pay_s[state]
            run = self.auto_run_s[state]
            for r in range(self.R):
                rem[:, r, line[r]] |= run > r
        return pay, rem

    def _clusters(self, win, hits=None):
        m, R, rows = win.shape
        cells = R * rows
        pay = np.zeros(m, dtype=np.int64)
        rem = np.zeros(win.shape, dtype=bool)
        idx = np.arange(cells, dtype=np.int64).reshape(R, rows)
        big = cells
        for k in range(self.npay):
            M = self.subst[win, k]
            if not M.any():
                continue
            lab = np.where(M, idx[None], big)
            while True:
                nb = lab.copy()
                nb[:, 1:, :] = np.minimum(nb[:, 1:, :], lab[:, :-1, :])
                nb[:, :-1, :] = np.minimum(nb[:, :-1, :], lab[:, 1:, :])
                nb[:, :, 1:] = np.minimum(nb[:, :, 1:], lab[:, :, :-1])
                nb[:, :, :-1] = np.minimum(nb[:, :, :-1], lab[:, :, 1:])
                nb = np.where(M, nb, big)
                if np.array_equal(nb, lab):
                    break
                lab = nb
            key = (np.arange(m, dtype=np.int64)[:, None, None] * (cells + 1) + lab)[M]
            size = np.bincount(key, minlength=m * (cells + 1))
            owned = np.bincount(key, weights=self.own[win, k][M], minlength=m * (cells + 1)) > 0
            cp = np.where(owned, self.paytab[k][np.minimum(size, cells)], 0)     # pay per (spin, label)
            if hits is not None:       # each paying cluster's award by its size
                self._mark(hits, np.where(cp > 0, self.comb_award[k][np.minimum(size, cells)], -1).reshape(m, -1))
            pay += cp.reshape(m, cells + 1).sum(axis=1)
            cell_pay = np.zeros(win.shape, dtype=np.int64)
            cell_pay[M] = cp[key]
            rem |= cell_pay > 0
        return pay, rem

    def scatter_reading(self, win, evaluate: bool):
        """(scatter pay (m,), trigger count (m,), award (m,), removed cells) of windows ``win``: cells
        (m, reels, rows) and removed (m, reels, rows) bool, or in the coded line reading column codes
        (reels, m) and removed cells as bits (m,)."""
        cd = self._coded
        m = win.shape[1] if cd is not None else win.shape[0]
        spay = np.zeros(m, dtype=np.int64)
        trig = np.zeros(m, dtype=np.int64)
        rem = np.zeros(m, dtype=np.int64) if cd is not None else np.zeros(win.shape, dtype=bool)
        masks = []
        for i, (mask, tab, is_trig) in enumerate(self.scatters):
            if cd is not None:
                per, here = cd.scatter_cells(i, win)
            else:
                cells = mask[win]
                per, here = list(cells.sum(axis=2).T), (lambda c=cells: c)
            n = sum(per) + np.zeros(m, dtype=np.int64)
            p = tab[n] if evaluate else np.zeros(m, dtype=np.int64)
            spay += p
            masks.append((here, p, is_trig))
            if is_trig:
                trig = n
                if self.trigger_reels:
                    shown = np.ones(m, dtype=bool)
                    for r in self.trigger_reels:
                        shown &= np.asarray(per[r]) > 0
                    trig = np.where(shown, n, 0)
        award = self.award_tab[trig] if evaluate else np.zeros(m, dtype=np.int64)
        if self.cfg is not None and self.cfg.remove_scatters:
            for here, p, is_trig in masks:
                go = (p > 0) | (award > 0) if is_trig else p > 0
                if go.any():
                    rem |= np.where(go, here(), 0) if cd is not None else here() & go[:, None, None]
        return spay, trig, award, rem

    def signature(self, win) -> np.ndarray:
        """The multiplier symbol's signature code of each window (0: none in view): per cell its cell count;
        per reel the counts of its cells on each reel as digits base rows + 1."""
        here = win == self.mcode
        if self.mcfg.per == "cell":
            return here.sum(axis=(1, 2))
        digits = here.sum(axis=2)                                  # (m, R)
        return (digits * (self.rows + 1) ** np.arange(self.R)).sum(axis=1)

    def decode(self, sig: int) -> tuple[int, ...]:
        """The signature as the cell count of each drawn value in view (per cell: ones; per reel: by reel)."""
        if self.mcfg.per == "cell":
            return (1,) * sig
        out = []
        for _ in range(self.R):
            out.append(sig % (self.rows + 1))
            sig //= self.rows + 1
        return tuple(out)

    # ------------------------------------------------------------------
    @property
    def filters_quiet(self) -> bool:
        """Whether :meth:`quiet_filter` applies: a line game read coded (:class:`_CodedLines`) whose last reel
        has at most 63 stops, without trigger reels or a multiplier symbol, where every paying fall removes
        cells."""
        return (self._coded is not None and self.lengths[-1] <= 63 and not self.trigger_reels
                and (self.cfg is None or self.cfg.remove_scatters))

    def quiet_filter(self, prefix: np.ndarray):
        """Fall 1 of every stop of the last reel after each prefix of stops (p, reels - 1), at once.

        Returns (mask, quiet, given): ``mask`` (p,) uint64, bit s set when fall 1 of (prefix, s) pays (lines
        or scatters) or awards; ``quiet`` {award index: stop combinations} of the others, which pay nothing,
        remove nothing and end at fall 1 (their index: 0, or the trigger count when awards are not summed);
        ``given`` {trie node: (p,) states} the automaton states of the prefixes where the lines' last step
        starts, for :meth:`play` (its fall 1 then reads only the last reel).
        """
        if not hasattr(self, "_masks"):
            self._prepare_masks()
        cd = self._coded
        p = prefix.shape[0]
        R = self.R
        col = np.stack([cd.wcode[r][prefix[:, r]] for r in range(R - 1)]) if R > 1 else np.zeros((0, p), np.int64)
        given = cd.walk(col, prefix=True)
        mask = np.zeros(p, dtype=np.uint64)
        for leaf, tab in zip(cd.line_leaf, self._masks):
            par = cd.nodes[leaf][2]
            mask |= tab[given[par] // cd.S] if par >= 0 else tab[np.zeros(p, dtype=np.int64)]
        trig = None
        for (cnt, _, _, is_trig, on), tab in zip(cd.scatters, self._scatter_masks):
            n4 = sum((cnt[col[r]] for r in range(R - 1) if on[r]), np.zeros(p, dtype=np.int64))
            mask |= tab[n4]
            if is_trig:
                trig = n4
        quiet_mask = ~mask & np.uint64((1 << self.lengths[-1]) - 1)
        quiet: dict[int, int] = {}
        if self.sum_awards or trig is None:
            quiet[0] = int(np.bitwise_count(quiet_mask).sum())
        else:
            for v, bits in enumerate(self._last_counts):
                got = np.bitwise_count(quiet_mask & bits).astype(np.int64)
                sums = np.bincount(trig + v, weights=got, minlength=1)
                for idx in np.flatnonzero(sums):
                    quiet[int(idx)] = quiet.get(int(idx), 0) + int(sums[idx])
        return mask, quiet, given

    def _prepare_masks(self) -> None:
        """Per payline the bit mask over the last reel's stops that pay after each automaton state; per
        scatter, after each count on the other reels; per count on the last reel, its stops."""
        last = self._wc[-1]                                           # (L, rows)
        L = last.shape[0]
        nstates = self.auto_scaled.size // self.nsym
        bit = np.uint64(1) << np.arange(L, dtype=np.uint64)
        self._masks = []
        for line in self.paylines:
            nxt = self.auto_scaled.reshape(nstates, self.nsym)[:, last[:, line[-1]]]   # (states, L)
            pays = self.auto_pay_s[nxt] > 0
            self._masks.append((pays * bit[None, :]).sum(axis=1).astype(np.uint64))
        self._scatter_masks = []
        top = (self.R - 1) * self.rows + 1
        for smask, tab, is_trig in self.scatters:
            c5 = smask[last].sum(axis=1)                              # (L,)
            rows = []
            for n4 in range(top):
                total = n4 + c5
                go = (tab[total] > 0) | ((self.award_tab[total] > 0) if is_trig else False)
                rows.append(int((go * bit).sum()))
            self._scatter_masks.append(np.array(rows, dtype=np.uint64))
            if is_trig:
                self._last_counts = [np.uint64(int(((c5 == v) * bit).sum())) for v in range(self.rows + 1)]

    def _refill_cells(self, win: np.ndarray, rem: np.ndarray, pos: np.ndarray):
        """The windows ``win`` (m, reels, rows) refilled after removing ``rem`` from positions ``pos`` (m, reels):
        removed cells go, survivors fall, strip[t - n .. t - 1] on top; returns (windows, new positions)."""
        pat = (rem * self._row_bits).sum(axis=2)                      # (m, R): the removed rows as bits
        sub = pos - self._removed[pat]
        new = np.empty_like(win)
        rowi = np.arange(self.rows)
        for r in range(self.R):
            L = self.lengths[r]
            src = self._refill[pat[:, r]]                              # (m, rows): old row, or -1 for fresh
            old = np.take_along_axis(win[:, r, :], np.maximum(src, 0), axis=1)
            fresh = self.codes[r][(sub[:, r, None] + rowi[None, :]) % L]
            new[:, r, :] = np.where(src < 0, fresh, old)
        return new, sub % np.array(self.lengths, dtype=np.int64)

    def play(self, stops: np.ndarray, given: dict | None = None, gidx: np.ndarray | None = None,
             awards: bool = False) -> FallsOutcome:
        """Play the spins at ``stops`` (n, reels) fall by fall (see the module docstring); ``given`` and
        ``gidx``: the automaton states of prefixes from :meth:`quiet_filter` and each stop's prefix;
        ``awards``: also mark which advertised awards (:attr:`awards`) each spin pays in some fall."""
        stops = np.asarray(stops, dtype=np.int64)
        n = stops.shape[0]
        cd = self._coded
        if cd is not None:                 # windows (reels, n) of column codes, positions (reels, n)
            win, pos = cd.start(stops), stops.T.copy()
        else:                              # windows (n, reels, rows) of cells, positions (n, reels)
            win, pos = self.windows(stops), stops.copy()
        act = np.arange(n)
        plain = np.zeros(n, dtype=np.int64)
        splain = np.zeros(n, dtype=np.int64)
        award = np.zeros(n, dtype=np.int64)
        falls = np.zeros(n, dtype=np.int64)
        cut = np.zeros(n, dtype=bool)
        paid = np.zeros(n, dtype=bool)
        drawn: dict = {}
        per_fall = []
        seen = np.zeros((n, len(self.awards)), dtype=bool) if awards else None
        for k in range(1, self.max_falls + 1):
            at = slice(None) if k == 1 else act        # the spins still falling
            falls[at] = k
            evaluate = self.every_fall or k == 1
            if cd is not None:             # removed cells as bits (m,)
                pay, rem = cd.walk(win, given, gidx) if k == 1 else cd.walk(win)
            else:                          # removed cells (m, reels, rows) bool
                pay, rem = self.wins(win)
            spay, trig, aw, srem = self.scatter_reading(win, evaluate)
            if seen is not None:
                seen[act if k > 1 else slice(None)] |= self.award_hits(win, evaluate)
            if self.sum_awards:
                award[at] += aw
            elif k == 1:
                award[at] = trig
            rem |= srem
            fm = self.fall_mult[k - 1]
            paid[at] |= (pay > 0) | (spay > 0)
            stat = {"spins": int(act.size), "plain": 0, "drawn": {}}
            if self.mcfg is not None:
                rem &= win != self.mcode
                sig = self.signature(win)
                m_amount = fm * (pay + (spay if self.m_scatters else 0))
                p_amount = fm * np.where(sig == 0, pay + spay, 0 if self.m_scatters else spay)
                s_amount = fm * spay
                plain[at] += p_amount
                splain[at] += np.where(sig == 0, s_amount, 0 if self.m_scatters else s_amount)
                stat["plain"] = int(p_amount.sum())
                for i in np.flatnonzero((sig > 0) & (m_amount > 0)):
                    s = int(sig[i])
                    drawn.setdefault(int(act[i]), []).append((s, int(m_amount[i]),
                                                              int(s_amount[i]) if self.m_scatters else 0))
                    stat["drawn"][s] = stat["drawn"].get(s, 0) + int(m_amount[i])
            else:
                amount = fm * (pay + spay)
                plain[at] += amount
                splain[at] += fm * spay
                stat["plain"] = int(amount.sum())
            per_fall.append(stat)
            if self.cfg is None:
                break
            go = rem != 0 if cd is not None else rem.any(axis=(1, 2))
            if k == self.max_falls:
                cut[act[go]] = True
                break
            if not go.any():
                break
            act, rem = act[go], rem[go]
            if cd is not None:
                win, pos = win[:, go], pos[:, go]
                cd.refill(win, rem, pos)
            else:
                win, pos = self._refill_cells(win[go], rem, pos[go])
        return FallsOutcome(plain, splain, drawn, award, falls, cut, paid, per_fall, seen)
