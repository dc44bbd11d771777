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

from exact.rules import (cascade_of, count_pay, fall_multiplier, initial_spins, line_automaton, multiplier_of,
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
    """

    plain: np.ndarray
    scatter_plain: np.ndarray
    drawn: dict
    award: np.ndarray
    falls: np.ndarray
    cut: np.ndarray
    paid: np.ndarray
    per_fall: list


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
        # scatters
        scat = model.of_kind(SCATTER)
        tsym = model.trigger_symbol
        self.scatters = []
        for s in scat:
            mask = np.zeros(nsym, dtype=bool)
            mask[list(scatter_codes(model, s))] = True
            paytab = np.array([symbol_scatter_pay(s, n) for n in range(top)], dtype=np.int64)
            self.scatters.append((mask, paytab, tsym is not None and s.name == tsym.name))
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

    def _clusters(self, win):
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
            pay += cp.reshape(m, cells + 1).sum(axis=1)
            cell_pay = np.zeros(win.shape, dtype=np.int64)
            cell_pay[M] = cp[key]
            rem |= cell_pay > 0
        return pay, rem

    def scatter_reading(self, win, evaluate: bool):
        """(scatter pay (m,), trigger count (m,), award (m,), removed (m, reels, rows)) of windows ``win``."""
        m = win.shape[0]
        spay = np.zeros(m, dtype=np.int64)
        trig = np.zeros(m, dtype=np.int64)
        rem = np.zeros(win.shape, dtype=bool)
        masks = []
        for mask, tab, is_trig in self.scatters:
            here = mask[win]
            n = here.sum(axis=(1, 2))
            p = tab[n] if evaluate else np.zeros(m, dtype=np.int64)
            spay += p
            masks.append((here, p, is_trig))
            if is_trig:
                trig = n
                if self.trigger_reels:
                    shown = np.ones(m, dtype=bool)
                    for r in self.trigger_reels:
                        shown &= here[:, r, :].any(axis=1)
                    trig = np.where(shown, n, 0)
        award = self.award_tab[trig] if evaluate else np.zeros(m, dtype=np.int64)
        if self.cfg is not None and self.cfg.remove_scatters:
            for here, p, is_trig in masks:
                go = (p > 0) | ((award > 0) if is_trig else False)
                rem |= here & np.asarray(go)[:, None, None]
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
        """Whether :meth:`quiet_filter` applies: a line game whose last reel has at most 63 stops, without
        trigger reels or a multiplier symbol, where every paying fall removes cells."""
        return (self.model.evaluation == "lines" and self.lengths[-1] <= 63 and not self.trigger_reels
                and self.mcfg is None and (self.cfg is None or self.cfg.remove_scatters))

    def quiet_filter(self, prefix: np.ndarray):
        """Fall 1 of every stop of the last reel after each prefix of stops (p, reels - 1), at once.

        Returns (mask, quiet): ``mask`` (p,) uint64, bit s set when fall 1 of (prefix, s) pays (lines or
        scatters) or awards; ``quiet`` {award index: stop combinations} of the others, which pay nothing,
        remove nothing and end at fall 1 (their index: 0, or the trigger count when awards are not summed).
        """
        if not hasattr(self, "_masks"):
            self._prepare_masks()
        p = prefix.shape[0]
        R = self.R
        win = np.empty((p, R - 1, self.rows), dtype=np.int16)
        for r in range(R - 1):
            win[:, r, :] = self._wc[r][prefix[:, r]]
        mask = np.zeros(p, dtype=np.uint64)
        for line, tab in zip(self.paylines, self._masks):
            state = self.auto_first[win[:, 0, line[0]]]
            for r in range(1, R - 1):
                state = self.auto_scaled[state + win[:, r, line[r]]]
            mask |= tab[state // self.nsym]
        trig = None
        for (smask, _, is_trig), tab in zip(self.scatters, self._scatter_masks):
            n4 = smask[win].sum(axis=(1, 2))
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
        return mask, quiet

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

    def play(self, stops: np.ndarray) -> FallsOutcome:
        """Play the spins at ``stops`` (n, reels) fall by fall (see the module docstring)."""
        stops = np.asarray(stops, dtype=np.int64)
        n = stops.shape[0]
        win = self.windows(stops)
        pos = stops.copy()
        act = np.arange(n)
        plain = np.zeros(n, dtype=np.int64)
        splain = np.zeros(n, dtype=np.int64)
        award = np.zeros(n, dtype=np.int64)
        falls = np.zeros(n, dtype=np.int64)
        cut = np.zeros(n, dtype=bool)
        paid = np.zeros(n, dtype=bool)
        drawn: dict = {}
        per_fall = []
        L = np.array(self.lengths, dtype=np.int64)
        rows = self.rows
        rowi = np.arange(rows)
        for k in range(1, self.max_falls + 1):
            falls[act] = k
            pay, rem = self.wins(win)
            evaluate = self.every_fall or k == 1
            spay, trig, aw, srem = self.scatter_reading(win, evaluate)
            if self.sum_awards:
                award[act] += aw
            elif k == 1:
                award[act] = trig
            rem |= srem
            fm = self.fall_mult[k - 1]
            paid[act] |= (pay > 0) | (spay > 0)
            stat = {"spins": int(act.size), "plain": 0, "drawn": {}}
            if self.mcfg is not None:
                rem &= win != self.mcode
                sig = self.signature(win)
                m_amount = fm * (pay + (spay if self.m_scatters else 0))
                p_amount = fm * np.where(sig == 0, pay + spay, 0 if self.m_scatters else spay)
                s_amount = fm * spay
                plain[act] += p_amount
                splain[act] += np.where(sig == 0, s_amount, 0 if self.m_scatters else s_amount)
                stat["plain"] = int(p_amount.sum())
                for i in np.flatnonzero((sig > 0) & (m_amount > 0)):
                    s = int(sig[i])
                    drawn.setdefault(int(act[i]), []).append((s, int(m_amount[i]),
                                                              int(s_amount[i]) if self.m_scatters else 0))
                    stat["drawn"][s] = stat["drawn"].get(s, 0) + int(m_amount[i])
            else:
                amount = fm * (pay + spay)
                plain[act] += amount
                splain[act] += fm * spay
                stat["plain"] = int(amount.sum())
            per_fall.append(stat)
            if self.cfg is None:
                break
            go = rem.any(axis=(1, 2))
            if k == self.max_falls:
                cut[act[go]] = True
                break
            if not go.any():
                break
            act, win, rem = act[go], win[go], rem[go]
            sub = pos[act]
            # refill from the strip: removed cells go, survivors fall, strip[t - n .. t - 1] on top
            pat = (rem * self._row_bits).sum(axis=2)                  # (m, R): the removed rows as bits
            sub = sub - self._removed[pat]
            new = np.empty_like(win)
            for r in range(self.R):
                src = self._refill[pat[:, r]]                          # (m, rows): old row, or -1 for fresh
                old = np.take_along_axis(win[:, r, :], np.maximum(src, 0), axis=1)
                fresh = self.codes[r][(sub[:, r, None] + rowi[None, :]) % L[r]]
                new[:, r, :] = np.where(src < 0, fresh, old)
            win = new
            pos[act] = sub % L
        return FallsOutcome(plain, splain, drawn, award, falls, cut, paid, per_fall)
