r"""Exact analysis of one spin of a payline game by per-reel factorisation over lines.

Rules (read literally by :func:`exact.evaluator.line_pays`)
---------------------------------------------------------------------
A payline reads one row on each reel.  Its symbol is its first symbol that
is not a WILD, its run the number of leading positions showing that symbol
or a WILD that substitutes for it; it pays the symbol's paytable value for
the run, times the combination multiplier m if the run uses a WILD with a
``combination`` multiplier.  A WILD with own pays pays for a run of leading
WILDs of that symbol alone; the line pays the higher of the two.  Scatter
pays (each scatter symbol on its own count) are added, and the level
multiplier multiplies everything.

Method
------
Reels stop independently and uniformly.  A payline's win is decided by a
left-to-right scan whose state after reel r (the leading WILDs seen, or the
line's symbol, whether the run used a combination WILD, and the WILD-only
pay already fixed) is a finite state machine :math:`\delta_r(\text{state},
x)` over the symbol x on the line's row of reel r, ending in an outcome
(pay, paying symbol and run).  The machine is built once per game and
minimised (states with the same future merge; a state whose every future
has one outcome is that outcome).

* **First moments** (per line, per symbol and run, per scatter count): one
  line is a Markov chain over reels; reel r contributes the joint count
  :math:`C_r^h[x, \tau]` of stops showing x on the line's row h with tag
  :math:`\tau` (the window's scatter counts).  Cost per line:
  reels x states x symbols x tags.
* **Second moment**: :math:`E[W^2] = \sum_{a,b} E[L_a L_b] + \ldots`; both
  lines of a pair read the same stops, so the pair is a chain on the
  product of their states, reel r contributing
  :math:`N_r^{h_a h_b}[x, y, \tau]` (stops showing x on row h_a and y on
  row h_b).  A line that ends carries its pay forward (value-weighted
  blocks), so the state vector of a pair is (both running: K^2 x T, one
  ended: 2 K x T, both ended: T) with T scatter-count keys.  The pairs are
  grouped by the rows they read on a reel and advanced by one sparse
  integer matrix per (reel, row pair).  Cost: lines^2 / 2 x reels x
  (non-zero pair states, at most K^2 T) x (outcomes per state pair, at most
  9 for a symbol run) plus the matrices: reels x rows^2 x K^2 x stops.
  K is about twice the number of pay symbols.
* **Scatter counts**: the tag of a stop is (triggering scatters in its
  window, whether a trigger reel shows one, counts of the other paying
  scatters); tags add over reels, so every figure is split exactly by the
  trigger count (and by the ``trigger_reels`` condition).
* **Hit frequency** P(W > 0) (not a sum over lines): a chain over reels on
  the joint state of every line in the machine minimised for "pays > 0"
  (ended lines drop out; a spin leaves as soon as one line is sure to pay),
  with the paying scatter counts; exact integer counts of stop prefixes.
* A combination multiplier drawn per spin: every figure is computed for
  each value and mixed by its exact weight (the draw is independent of the
  stops); the hit frequency does not depend on it (m >= 1).

Integers throughout; Fractions are formed once at the end.  Nothing is a float.
A chain runs in int64 where a bound from the set's maxima (the largest line pay,
squared for the pairs, times the stop combinations) proves every entry below
2^62; beyond it (long strips, large pays) the same chain runs modulo as few
primes below 2^31 as the bound needs (each product of two residues below
2^62) and its results are rebuilt exactly by the Chinese remainder theorem
(:func:`exact.limbs.from_residues`): never a refusal for size.  Cost: one
pass per prime over the same index work (a 20-line 5x3 game with 256-stop
reels needs 3 primes for the pairs); the hit frequency and the award split
fall back to Python integers past the bound.

References
----------
The catalogue rules (paylines, WILD pays, combination multipliers, several scatters,
``trigger_reels``); rules page sections 9-11 (scatter count, level
multiplier).
"""
from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import prod

import numpy as np

from exact.limbs import RESIDUE_BITS, IntRing, residue_primes
from markov.moments import CountSplit, PhaseAnalysis, mixed_parts, spin_parts
from strips.model import PAY, WILD, GameModel, MathSet, Phase, window_codes
from exact.rules import (award_of, combination_wilds, phase_reading, counted_pays, feature_draws, fill_terms, phase_awards, level_line_values, line_scan_of, line_view, other_scatters,
                         paying_scatters, paying_wilds, scatter_codes, symbol_scatter_pay, trigger_reel_shown,
                         trigger_scatter_pay, wilds_with_pays)

_INT64_SAFE = 2**62


# --------------------------------------------------------------------------
# the line state machine
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class LineMachine:
    """A minimised payline scan.

    Attributes
    ----------
    tables : tuple of ndarray, one per reel, shape (K_r, n_symbols), int64
        ``tables[r][k, x]`` >= 0: the class at boundary r + 1 after class k
        reads symbol code x on reel r; < 0: the line ends with outcome
        ``-1 - value`` (an index into ``outcomes``).  Class 0 at boundary 0
        is the start.
    outcomes : tuple
        The outcome keys (see :func:`line_machine`).
    """

    tables: tuple[np.ndarray, ...]
    outcomes: tuple

    def classes(self, r: int) -> int:
        """Number of running classes before reel r (0-based; 0 after the last reel)."""
        return self.tables[r].shape[0] if r < len(self.tables) else 0


def _raw_transitions(model: GameModel, combination: int):
    """The unminimised scan: per reel, {state: [outcome or state per symbol code]}.

    States: ``("L", seq)`` leading WILD names so far; ``("R", p, used, wp, wlabel)``
    the line's symbol p with its run running, ``used`` a combination WILD in the
    run, ``wp`` the WILD-only pay already fixed with its label.  Outcomes:
    ``("O", value, label)``, label (symbol, run) or None.
    """
    syms = model.symbols
    n_reels = model.reels
    comb = {s.name for s in combination_wilds(model)}
    wild_pays = {s.name: s.pays for s in wilds_with_pays(model)}

    def lead_pay(seq):
        if not seq or seq[0] not in wild_pays:
            return 0, None
        j = 0
        while j < len(seq) and seq[j] == seq[0]:
            j += 1
        v = wild_pays[seq[0]][j - 1]
        return v, ((seq[0], j) if v else None)

    def finish(p, n, used, wp, wl):
        sp = syms[p].pays[n - 1] * (combination if used else 1) if n >= 1 else 0
        if sp > wp:
            return ("O", sp, (syms[p].name, n))
        return ("O", wp, wl) if wp > 0 else ("O", 0, None)

    def step(state, r, x):
        sx = syms[x]
        last = r == n_reels - 1
        if state[0] == "L":
            seq = state[1]
            if sx.kind == WILD:
                seq2 = seq + (sx.name,)
                if last:
                    wp, wl = lead_pay(seq2)
                    return ("O", wp, wl) if wp else ("O", 0, None)
                return ("L", seq2)
            wp, wl = lead_pay(seq)
            if sx.kind != PAY:
                return ("O", wp, wl) if wp else ("O", 0, None)
            k = next((i for i, w in enumerate(seq) if not model.symbol(w).substitutes_for(sx.name)), len(seq))
            if k < len(seq):
                return finish(x, k, any(w in comb for w in seq[:k]), wp, wl)
            used = any(w in comb for w in seq)
            if last:
                return finish(x, n_reels, used, wp, wl)
            return ("R", x, used, wp, wl)
        _, p, used, wp, wl = state
        if x == p or sx.substitutes_for(syms[p].name):
            used2 = used or sx.name in comb
            if last:
                return finish(p, n_reels, used2, wp, wl)
            return ("R", p, used2, wp, wl)
        return finish(p, r, used, wp, wl)

    frontier = [("L", ())]
    raw = []
    for r in range(n_reels):
        trans = {}
        nxt = {}
        for st in frontier:
            row = [step(st, r, x) for x in range(len(syms))]
            trans[st] = row
            for t in row:
                if t[0] != "O":
                    nxt[t] = None
        raw.append(trans)
        frontier = list(nxt)
    return raw


def line_machine(model: GameModel, combination: int = 1, key=lambda value, label: (value, label),
                 value_of=lambda value, label: value) -> LineMachine:
    """The minimised payline scan of ``model`` for combination multiplier ``combination``.

    Parameters
    ----------
    key : callable (value, label) -> hashable
        What of an outcome matters: ``(value, label)`` for the per-symbol
        table (default), the value for moments, ``value > 0`` for the hit
        frequency.  States with the same outcomes under ``key`` merge.
    value_of : callable (value, label) -> int
        The credits an outcome pays in the phase (default its value; a level with ``skip_wild_line``).

    Examples
    --------
    >>> import dataclasses
    >>> from strips.loader import load_math_set
    >>> model = dataclasses.replace(load_math_set().model, evaluation="lines", paylines=((0, 0, 0, 0, 0),))
    >>> m = line_machine(model, key=lambda v, l: v > 0)
    >>> m.classes(0), sorted(m.outcomes)
    (1, [False, True])
    """
    raw = (line_scan_of(model) or _raw_transitions)(model, combination)   # a catalogue reading's scan
    outcomes: dict = {}
    tables = [None] * model.reels
    nxt_class: dict = {}      # raw state at boundary r + 1 -> ("c", class) or ("o", outcome index)
    for r in range(model.reels - 1, -1, -1):
        sigs: dict = {}
        state_sig = {}
        for st, row in raw[r].items():
            sig = []
            for t in row:
                if t[0] == "O":
                    k = key(value_of(t[1], t[2]), t[2])
                    if k not in outcomes:
                        outcomes[k] = len(outcomes)
                    sig.append(("o", outcomes[k]))
                else:
                    sig.append(nxt_class[t])
            sig = tuple(sig)
            state_sig[st] = sig
        cur: dict = {}
        for st, sig in state_sig.items():
            if r > 0 and all(e == sig[0] for e in sig) and sig[0][0] == "o":
                cur[st] = sig[0]            # one outcome whatever follows: the line is decided
                continue
            if sig not in sigs:
                sigs[sig] = len(sigs)
            cur[st] = ("c", sigs[sig])
        table = np.zeros((len(sigs), len(model.symbols)), dtype=np.int64)
        for sig, k in sigs.items():
            table[k] = [e[1] if e[0] == "c" else -1 - e[1] for e in sig]
        tables[r] = table
        nxt_class = cur
    out = [None] * len(outcomes)
    for k, i in outcomes.items():
        out[i] = k
    return LineMachine(tables=tuple(tables), outcomes=tuple(out))


# --------------------------------------------------------------------------
# per-reel tags: scatter counts of each stop's window
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Tags:
    """Scatter-count tags of every stop of every reel, and how they add up over reels.

    A tag is (triggering scatters in the window, 1 if the reel is not a
    trigger reel or shows a triggering scatter, each other paying scatter's
    count).  A key is the sum over reels so far (the flag is an AND; other
    scatter counts are capped at their paytable length).
    """

    stop_tag: tuple[np.ndarray, ...]         # per reel: (stops,) int tag id
    tag_list: tuple[tuple[tuple, ...], ...]  # per reel: tag id -> tag tuple
    caps: tuple[int, ...]

    def combine(self, key: tuple, tag: tuple) -> tuple:
        return (key[0] + tag[0], key[1] & tag[1]) + tuple(min(a + b, c) for a, b, c in
                                                          zip(key[2:], tag[2:], self.caps))


def extra_counts(model: GameModel) -> list[tuple]:
    """The counts a spin's tags carry beside the triggering scatters: (per-stop count of a window
    ``(stops, rows) -> (stops,)``, cap, pays by count, whether the pays are line pays), for each other
    paying scatter (its cells) and each pay by the number of reels showing a symbol
    (:func:`exact.rules.counted_pays`: the drawn expanding symbol)."""
    out = [((lambda win, c=model.code(s.name): (win == c).sum(axis=1)), len(s.pays), tuple(s.pays), False)
           for s in paying_scatters(model, others=True)]
    out += [((lambda win, c=c: (win == c).any(axis=1).astype(np.int64)), len(pays), pays, True)
            for c, pays in counted_pays(model)]
    return out


def _count_pay(pays, count: int) -> int:
    """The pay of a count (the last entry beyond the table, 0 for none)."""
    return pays[min(count, len(pays)) - 1] if count >= 1 and pays else 0


def scatter_tags(model: GameModel, strips) -> Tags:
    """The :class:`Tags` of a strip set (each stop's window, wrap-around as in section 3)."""
    others = extra_counts(model)
    trig_codes = np.array(scatter_codes(model), dtype=np.int64)
    stop_tag, tag_list = [], []
    for r, strip in enumerate(strips.codes):
        win = window_codes(strip, model.rows)
        n = len(win)            # the stops of the cycle (a weighted stop counts its weight)
        cols = [np.isin(win, trig_codes).sum(axis=1) if len(trig_codes) else np.zeros(n, dtype=np.int64)]
        cols.append(trigger_reel_shown(model, r, cols[0], 1))
        for count, _, _, _ in others:
            cols.append(count(win))
        arr = np.stack(cols, axis=1)
        uniq, inv = np.unique(arr, axis=0, return_inverse=True)
        stop_tag.append(inv.reshape(-1))
        tag_list.append(tuple(tuple(int(v) for v in row) for row in uniq))
    return Tags(tuple(stop_tag), tuple(tag_list), tuple(cap for _, cap, _, _ in others))


def boundary_keys(tags: Tags, project) -> list[tuple[list, np.ndarray]]:
    """Per boundary r: (list of keys, combine map (n_keys_r, n_tags_r) -> key index at r + 1)."""
    n_extra = len(tags.caps)
    keys = [project((0, 1) + (0,) * n_extra)]
    out = []
    for tl in tags.tag_list:
        index: dict = {}
        cmap = np.zeros((len(keys), len(tl)), dtype=np.int64)
        for i, k in enumerate(keys):
            for j, t in enumerate(tl):
                k2 = project(tags.combine(_full(k, n_extra), t))
                if k2 not in index:
                    index[k2] = len(index)
                cmap[i, j] = index[k2]
        out.append((keys, cmap))
        keys = list(index)
    out.append((keys, None))
    return out


def _full(key: tuple, n_extra: int) -> tuple:
    """A projected key padded back to the full length (projection drops the other scatters' counts)."""
    return key + (0,) * (2 + n_extra - len(key))


# --------------------------------------------------------------------------
# sparse chains over reels
# --------------------------------------------------------------------------
def _grouped(values: np.ndarray, *cols: np.ndarray):
    """Distinct rows of integer columns (each >= 0) with the sum of ``values`` over equal rows.

    Returns (columns of the distinct rows, summed values); one 1-D sort on an
    int64 code instead of a row-wise unique.
    """
    code = np.zeros(len(values), dtype=np.int64)
    for c in cols:
        code = code * (int(c.max(initial=0)) + 1) + c
    uniq, inv = np.unique(code, return_inverse=True)
    total = np.zeros(len(uniq), dtype=values.dtype)
    np.add.at(total, inv.reshape(-1), values)
    first = np.zeros(len(uniq), dtype=np.int64)
    first[inv.reshape(-1)] = np.arange(len(code))
    return tuple(c[first] for c in cols), total


#: Entries of a chain below this are summed in int64; from it on the chain runs on residues.
INT64_CHAIN_BOUND = 2**62

def chain_ring(entry_bound: int, result_bound: int) -> IntRing:
    """The arithmetic of a chain whose entries (every partial sum) are at most ``entry_bound`` and whose
    results, rebuilt at the end, at most ``result_bound`` in magnitude: int64 while ``4 entry_bound`` stays
    below :data:`INT64_CHAIN_BOUND` (2^62), else residues modulo the primes below 2^``RESIDUE_BITS``
    (31; tests set fewer bits) that rebuild every result (:func:`exact.limbs.residue_primes`).

    >>> chain_ring(2**40, 2**50).primes is None, chain_ring(2**70, 2**80).primes
    (True, (2147483647, 2147483629, 2147483587))
    """
    if 4 * entry_bound < INT64_CHAIN_BOUND:
        return IntRing()
    return IntRing(residue_primes(result_bound, RESIDUE_BITS))


@dataclass(frozen=True)
class _Rows:
    """A sparse integer matrix as coordinates: one row per line (or pair of lines), one column per state.

    ``row``, ``col``: int64 arrays (nnz,), no duplicate (row, col); ``val``: int64 ring values (P, nnz)
    (:class:`exact.limbs.IntRing`: P = 1 in int64, else one row per residue prime), no all-zero column.
    """

    row: np.ndarray
    col: np.ndarray
    val: np.ndarray
    shape: tuple[int, int]

    @classmethod
    def start(cls, n: int, n_cols: int, ring: IntRing) -> "_Rows":
        """Every row at state 0 with weight 1."""
        return cls(np.arange(n, dtype=np.int64), np.zeros(n, dtype=np.int64), ring.lift(np.ones(n, dtype=np.int64)),
                   (n, n_cols))

    def dense(self, ring: IntRing) -> np.ndarray:
        """The matrix as a dense object array of Python ints, shape ``shape``."""
        out = np.zeros((self.val.shape[0],) + self.shape, dtype=np.int64)
        out[:, self.row, self.col] = self.val
        return ring.exact(out.reshape(out.shape[0], -1)).reshape(self.shape)

    def column_sums(self, weight: np.ndarray, ring: IntRing) -> np.ndarray:
        """sum_i weight[i] x row i (``weight`` int64 per row, small): object array of Python ints, one per column."""
        if ring.primes is None:
            out = np.zeros(self.shape[1], dtype=object)
            np.add.at(out, self.col, self.val[0].astype(object) * weight[self.row].astype(object))
            return out
        t = _aggregate(np.zeros_like(self.col), self.col, ring.mul(self.val, ring.lift(weight[self.row])),
                       (1, self.shape[1]), ring)
        dense = np.zeros((self.val.shape[0], self.shape[1]), dtype=np.int64)
        dense[:, t.col] = t.val
        return ring.exact(dense)


def _aggregate(row, col, val, shape, ring: IntRing) -> _Rows:
    """Sum the ring values (``val`` (P, n), each entry >= 0 below 2^62, below 2^31 on residues) of equal
    (row, col) coordinates and drop the all-zero ones.

    Exact: with few enough cells the sums are ``bincount`` passes over 21-bit limbs (each limb sum stays far
    below 2^53, so the float64 sums are exact integers), else one sort of an int64 code; residue sums of
    fewer than 2^32 entries stay below 2^63 and are reduced after.
    """
    cells = shape[0] * shape[1]
    code = row * shape[1] + col
    n_p = val.shape[0]
    if cells <= 1 << 22 and 4 * len(code) >= cells:
        total = np.zeros((n_p, cells), dtype=np.int64)
        shifts = (0, 21, 42) if ring.primes is None else (0, 21)
        for i in range(n_p):
            for shift in shifts:
                limb = ((val[i] >> shift) & ((1 << 21) - 1)).astype(np.float64)
                total[i] += np.bincount(code, weights=limb, minlength=cells).astype(np.int64) << shift
        total = ring.reduce(total)
        nz = np.flatnonzero(total.any(axis=0))
        return _Rows(nz // shape[1], nz % shape[1], total[:, nz], shape)
    order = np.argsort(code)
    code, val = code[order], val[:, order]
    start = np.flatnonzero(np.concatenate(([True], code[1:] != code[:-1]))) if len(code) else np.zeros(0, dtype=np.int64)
    total = ring.reduce(np.add.reduceat(val, start, axis=1)) if len(code) else val
    code = code[start]
    keep = total.any(axis=0)
    return _Rows(code[keep] // shape[1], code[keep] % shape[1], total[:, keep], shape)


#: From this many rows (pairs of lines) on, a reel's products run in scipy's compiled sparse
#: product; below it in numpy alone, which spares the import of scipy (a tenth of a second).
SCIPY_ROWS = 1000


def _advance(x: _Rows, group: np.ndarray, matrix, ring: IntRing) -> _Rows:
    """One reel of a chain for many lines (or pairs) at once: row i of ``x`` times the matrix of ``group[i]``.

    Rows with the same group (the rows they read on the reel) share one
    transition, ``matrix(group, sources) -> (src, dst, weight, n_cols)``: the
    ring entries (P, m) of the rows ``sources`` (the states in use).  Each
    entry of ``x`` is expanded by its state's row of the transition and the
    products summed exactly (int64 bounded by the caller, or residues reduced
    after each product); with :data:`SCIPY_ROWS` rows or more the int64 product is scipy's.
    """
    g_of = group[x.row]
    order = np.argsort(g_of, kind="stable")
    bounds = np.flatnonzero(np.diff(g_of[order])) + 1
    rows, cols, vals = [], [], []
    n_cols = None
    use_scipy = x.shape[0] >= SCIPY_ROWS and ring.primes is None
    for idx in np.split(order, bounds):
        if not len(idx):
            continue
        xc, xr, xv = x.col[idx], x.row[idx], x.val[:, idx]
        sources = np.unique(xc)
        src, dst, w, n_cols = matrix(int(g_of[idx[0]]), sources)
        if use_scipy:
            from scipy import sparse   # large games only: its import costs more than small games take
            t = sparse.csr_matrix((w[0], (src, dst)), shape=(x.shape[1], n_cols), dtype=np.int64)
            y = (sparse.csr_matrix((xv[0], (xr, xc)), shape=x.shape, dtype=np.int64) @ t).tocoo()
            rows.append(y.row.astype(np.int64))
            cols.append(y.col.astype(np.int64))
            vals.append(y.data.astype(np.int64)[None])
            continue
        local = np.searchsorted(sources, src)
        used = (local < len(sources)) & (sources[np.minimum(local, len(sources) - 1)] == src)
        lc = np.searchsorted(sources, xc)
        t = _aggregate(local[used], dst[used], w[:, used], (len(sources), n_cols), ring)   # sorted by (source, dst)
        dst, w = t.col, t.val
        indptr = np.concatenate(([0], np.cumsum(np.bincount(t.row, minlength=len(sources)))))
        lens = indptr[lc + 1] - indptr[lc]
        rep = np.repeat(np.arange(len(lc)), lens)
        pos = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens - indptr[lc], lens)
        rows.append(xr[rep])
        cols.append(dst[pos])
        vals.append(ring.mul(xv[:, rep], w[:, pos]))
    if n_cols is None:
        n_cols = matrix(int(group[0]), np.zeros(0, dtype=np.int64))[3]
    cat = (lambda a: np.concatenate(a) if a else np.zeros(0, dtype=np.int64))
    v = np.concatenate(vals, axis=1) if vals else np.zeros((ring.size, 0), dtype=np.int64)
    if use_scipy:   # each row is in one group: the products are already summed
        r, c = cat(rows), cat(cols)
        keep = v.any(axis=0)
        return _Rows(r[keep], c[keep], v[:, keep], (x.shape[0], n_cols))
    return _aggregate(cat(rows), cat(cols), v, (x.shape[0], n_cols), ring)


def _coo(rows, cols, data, n_cols, ring: IntRing):
    """The (src, dst, weight (P, m), n_cols) of a transition from lists of coordinate and ring value arrays."""
    cat = (lambda a: np.concatenate(a).astype(np.int64) if a else np.zeros(0, dtype=np.int64))
    vals = np.concatenate(data, axis=1) if data else np.zeros((ring.size, 0), dtype=np.int64)
    return cat(rows), cat(cols), vals, n_cols


# --------------------------------------------------------------------------
# first moments: every line, one chain each
# --------------------------------------------------------------------------
def _single_matrix(table, k_next, values, label_of, n_labels, x, tag, cmap, rest, ring: IntRing):
    """The sparse transition of one line's state vector over one reel for the line's row.

    Layout with K classes and Q keys: running ``(k, q)`` -> ``k Q + q``;
    ended (its pay carried) ``K Q + q``; then per label the pay sum and the
    count over all stop combinations (``rest`` = stops of the later reels).
    ``values`` are the outcomes' pays as ring values (P, outcomes).
    """
    k, kn = table.shape[0], k_next
    nq = cmap.shape[0]
    nq2 = int(cmap.max(initial=-1)) + 1     # the keys at the next boundary (every one is reached)
    dim2 = kn * nq2 + nq2 + 2 * n_labels
    (xs, tg), cnt = _grouped(np.ones(len(x), dtype=np.int64), x, tag)
    kk = np.repeat(np.arange(k), len(xs))
    xs_, tg_, c_ = np.tile(xs, k), np.tile(tg, k), np.tile(cnt, k)
    t = table[kk, xs_]
    q = np.arange(nq)
    rows, cols, data = [], [], []
    run = t >= 0
    rows.append(((kk[run] * nq)[:, None] + q[None, :]).reshape(-1))
    cols.append(((t[run] * nq2)[:, None] + cmap[q[None, :], tg_[run][:, None]]).reshape(-1))
    data.append(ring.lift(np.repeat(c_[run], nq)))
    o = -1 - t[~run]
    pay = values.positive[o]
    src = kk[~run][pay]
    o, cc, tgo = o[pay], c_[~run][pay], tg_[~run][pay]
    vcc = ring.mul(values.ring[:, o], ring.lift(cc))
    rest_r = ring.lift(rest).reshape(-1, 1)
    rows.append(((src * nq)[:, None] + q[None, :]).reshape(-1))
    cols.append((kn * nq2 + cmap[q[None, :], tgo[:, None]]).reshape(-1))
    data.append(np.repeat(vcc, nq, axis=1))
    lab = np.asarray(label_of, dtype=np.int64)[o]
    for off, w in ((0, ring.mul(vcc, rest_r)), (n_labels, ring.mul(ring.lift(cc), rest_r))):
        rows.append(((src * nq)[:, None] + q[None, :]).reshape(-1))
        cols.append(np.repeat(kn * nq2 + nq2 + off + lab, nq))
        data.append(np.repeat(w, nq, axis=1))
    tcount = np.bincount(tag, minlength=cmap.shape[1]).astype(np.int64)
    for tgi in np.flatnonzero(tcount):
        rows.append(k * nq + q)
        cols.append(kn * nq2 + cmap[q, tgi])
        data.append(ring.lift(np.full(nq, tcount[tgi])))
    li = np.arange(2 * n_labels)
    rows.append(k * nq + nq + li)
    cols.append(kn * nq2 + nq2 + li)
    data.append(ring.lift(np.ones(2 * n_labels, dtype=np.int64)))
    return _coo(rows, cols, data, dim2, ring)


@dataclass(frozen=True)
class _Values:
    """The pays of a machine's outcomes as ring values (P, outcomes) and which of them are > 0."""

    ring: np.ndarray
    positive: np.ndarray

    @classmethod
    def of(cls, values, ring: IntRing) -> "_Values":
        vals = [int(v) for v in values]
        return cls(ring.lift(np.array(vals, dtype=object)), np.array([v > 0 for v in vals], dtype=bool))


def line_first_moments(machine: LineMachine, windows, tags: Tags, keymaps, paylines, ring: IntRing | None = None):
    """First moments of every payline over all stop combinations, exact integers.

    ``machine`` is minimised by (value, label).  Returns ``(done, by_label,
    count_label, labels)``: ``done[i, q]`` the sum of line i's pay over the
    stop combinations with final key q; ``by_label[j]`` the sum over every
    line of the pay won with label j; ``count_label[i, j]`` the number of
    stop combinations where line i wins with label j (object arrays of Python ints).

    ``ring``: the arithmetic (:func:`chain_ring`; by default int64 when the largest pay times the stop
    combinations proves it safe, else residues rebuilt by the Chinese remainder theorem).
    """
    values = [o[0] for o in machine.outcomes]
    labels = sorted({o[1] for o in machine.outcomes if o[0] > 0})
    index = {lab: i for i, lab in enumerate(labels)}
    label_of = [index.get(o[1], 0) for o in machine.outcomes]
    nl = len(labels)
    lengths = [w.shape[0] for w in windows]
    if ring is None:
        bound = max([abs(int(v)) for v in values] + [1]) * prod(lengths)
        ring = chain_ring(bound, bound)
    vals = _Values.of(values, ring)
    lines = np.array(paylines, dtype=np.int64)
    n = len(lines)
    nq0 = len(keymaps[0][0])
    x = _Rows.start(n, machine.classes(0) * nq0 + nq0 + 2 * nl, ring)
    for r in range(len(windows)):
        rest = prod(lengths[r + 1:])
        x = _advance(x, lines[:, r], lambda h, _: _single_matrix(
            machine.tables[r], machine.classes(r + 1), vals, label_of, nl, windows[r][:, h],
            tags.stop_tag[r], keymaps[r][1], rest, ring), ring)
    dense = x.dense(ring)
    nq = len(keymaps[-1][0])
    return dense[:, :nq], dense[:, nq:nq + nl].sum(axis=0), dense[:, nq + nl:], labels


# --------------------------------------------------------------------------
# second moments: pairs of lines
# --------------------------------------------------------------------------
def _pair_matrix(table, k_next, values, xa, xb, tag, cmap, n_keys, n_keys2, sources, ring: IntRing):
    """The sparse integer transition of a pair state vector over one reel for rows (h_a, h_b).

    Layout at a boundary with K classes and Q keys: both running
    ``(ka, kb, q)`` -> ``(ka K + kb) Q + q``; a ended (its pay carried):
    ``K^2 Q + kb Q + q``; b ended: ``K^2 Q + K Q + ka Q + q``; both ended:
    ``K^2 Q + 2 K Q + q``.  Only the rows of ``sources`` (the states some
    pair of the group is in) are filled.  ``values``: the outcomes' pays as ring values.
    """
    k, kn, nq, nq2 = table.shape[0], k_next, n_keys, n_keys2
    base_a, base_b, base_r = kn * kn * nq2, kn * kn * nq2 + kn * nq2, kn * kn * nq2 + 2 * kn * nq2
    val = values.ring
    rows_, cols_, data_ = [], [], []

    def emit(src, dst, w):
        keep = w.any(axis=0)
        rows_.append(src[keep])
        cols_.append(dst[keep])
        data_.append(w[:, keep])

    def pay(t):
        return np.where(t < 0, val[:, np.maximum(-1 - t, 0)], 0)

    sources = np.asarray(sources, dtype=np.int64)
    # both running: every (x, y, tag) the reel's stops show on the two rows
    js = sources[sources < k * k * nq]
    if len(js):
        (ex, ey, et), ec = _grouped(np.ones(len(xa), dtype=np.int64), xa, xb, tag)
        ka, kb, q = js // (k * nq), (js // nq) % k, js % nq
        ta, tb = table[ka[:, None], ex[None, :]], table[kb[:, None], ey[None, :]]
        q2 = cmap[q[:, None], et[None, :]]
        src = np.broadcast_to(js[:, None], ta.shape)
        c = np.broadcast_to(ec[None, :], ta.shape)
        ra, rb = ta >= 0, tb >= 0
        for sel, dst, pa, pb in ((ra & rb, (ta * kn + tb) * nq2 + q2, False, False),
                                 (~ra & rb, base_a + tb * nq2 + q2, True, False),
                                 (ra & ~rb, base_b + ta * nq2 + q2, False, True),
                                 (~ra & ~rb, base_r + q2, True, True)):
            w = ring.lift(c[sel])       # the stops showing the pair's symbols, times the pays of the ended lines
            if pa:
                w = ring.mul(w, pay(ta[sel]))
            if pb:
                w = ring.mul(w, pay(tb[sel]))
            emit(src[sel], dst[sel], w)
    # one line ended: the other moves by its own row's symbols
    for xs, lo, dst_base in ((xb, k * k * nq, base_a), (xa, k * k * nq + k * nq, base_b)):
        ss = sources[(sources >= lo) & (sources < lo + k * nq)]
        if not len(ss):
            continue
        (ex, et), ec = _grouped(np.ones(len(xs), dtype=np.int64), xs, tag)
        kk, q = (ss - lo) // nq, (ss - lo) % nq
        t = table[kk[:, None], ex[None, :]]
        q2 = cmap[q[:, None], et[None, :]]
        src = np.broadcast_to(ss[:, None], t.shape)
        c = np.broadcast_to(ec[None, :], t.shape)
        run = t >= 0
        emit(src[run], (dst_base + t * nq2 + q2)[run], ring.lift(c[run]))
        emit(src[~run], (base_r + q2)[~run], ring.mul(ring.lift(c[~run]), pay(t[~run])))
    # both ended: only the scatter-count key moves
    rs = sources[sources >= k * k * nq + 2 * k * nq]
    if len(rs):
        tcount = np.bincount(tag, minlength=cmap.shape[1]).astype(np.int64)
        tg = np.flatnonzero(tcount)
        q = rs - (k * k * nq + 2 * k * nq)
        emit(np.repeat(rs, len(tg)), (base_r + cmap[q[:, None], tg[None, :]]).reshape(-1),
             ring.lift(np.tile(tcount[tg], len(rs))))
    return _coo(rows_, cols_, data_, base_r + nq2, ring)


def pair_moments(machine: LineMachine, values, windows, tags: Tags, keymaps, paylines,
                 ring: IntRing | None = None) -> dict:
    """{key: sum over every ordered pair of lines (a, b) and all stop combinations of L_a L_b 1{key}}.

    Integer (Python int) sums; see the module docstring for the method.  ``ring``: the arithmetic
    (:func:`chain_ring`; by default int64 when the largest pay squared times the stop combinations proves
    it safe, else residues modulo primes below 2^31, rebuilt by the Chinese remainder theorem).
    """
    n_lines = len(paylines)
    if ring is None:
        entry = max([abs(int(v)) for v in values] + [1]) ** 2 * prod(w.shape[0] for w in windows)
        ring = chain_ring(entry, entry * n_lines * n_lines)
    vals = _Values.of(values, ring)
    ia, ib = np.triu_indices(n_lines)
    weight = np.where(ia == ib, 1, 2).astype(np.int64)
    lines = np.array(paylines, dtype=np.int64)
    nq0 = len(keymaps[0][0])
    k0 = machine.classes(0)
    x = _Rows.start(len(ia), k0 * k0 * nq0 + 2 * k0 * nq0 + nq0, ring)
    for r in range(len(windows)):
        rows = windows[r].shape[1]
        x = _advance(x, lines[ia, r] * rows + lines[ib, r], lambda g, sources: _pair_matrix(
            machine.tables[r], machine.classes(r + 1), vals, windows[r][:, g // rows], windows[r][:, g % rows],
            tags.stop_tag[r], keymaps[r][1], len(keymaps[r][0]), len(keymaps[r + 1][0]), sources, ring), ring)
    final = x.column_sums(weight, ring)
    keys = keymaps[-1][0]
    return {keys[i]: int(final[i]) for i in range(len(keys)) if final[i]}


# --------------------------------------------------------------------------
# hit frequency
# --------------------------------------------------------------------------
def hit_count(model: GameModel, machine: LineMachine, windows, tags: Tags, line_windows=None) -> int:
    """Number of stop combinations whose spin wins (a line pays or the scatters pay), exactly.

    ``machine`` is minimised for ``value > 0``: its outcomes are True/False.
    The chain's state is every line's class (-1: ended unpaid) plus the
    paying scatter counts (capped where their paytables end); a state leaves
    as won as soon as one line's outcome is True.  Classes are int16;
    counts of stop prefixes int64 (object beyond the int64 bound).
    """
    line_windows = windows if line_windows is None else line_windows   # what paylines read (line_view)
    lines = np.array(model.paylines, dtype=np.int64)
    n_lines = len(lines)
    positive = np.array([bool(o) for o in machine.outcomes] + [False])
    pay_scatters = paying_scatters(model)
    # each paying scatter's count per stop (the triggering one with counts_as_scatter WILDs), then the pays by
    # the number of reels showing a symbol (the drawn expanding symbol)
    columns = [((lambda win, codes=np.array(scatter_codes(model, s)): np.isin(win, codes).sum(axis=1)), s.pays)
               for s in pay_scatters]
    columns += [((lambda win, c=c: (win == c).any(axis=1)), pays) for c, pays in counted_pays(model)]
    caps = np.array([len(p) for _, p in columns], dtype=np.int16)
    total_rest = [prod(w.shape[0] for w in windows[r + 1:]) for r in range(len(windows))]
    dtype = np.int64 if prod(w.shape[0] for w in windows) < _INT64_SAFE else object
    dead = np.int16(-1)
    state = np.zeros((1, n_lines + len(caps)), dtype=np.int16)
    mult = np.ones(1, dtype=dtype)
    won = 0
    for r in range(len(windows)):
        table = machine.tables[r].astype(np.int16)
        sym = line_windows[r][:, lines[:, r]]                  # (stops, lines)
        n_st = sym.shape[0]
        # each stop's count of each paying scatter (the triggering one with counts_as_scatter WILDs)
        counts = np.stack([count(windows[r]) for count, _ in columns], axis=1).astype(np.int16) if columns else \
            np.zeros((n_st, 0), dtype=np.int16)
        cls = state[:, :n_lines]
        alive = cls >= 0
        if table.shape[0]:
            tgt = table[np.where(alive, cls, 0)[:, None, :], sym[None, :, :]]     # (states, stops, lines)
            tgt[~np.broadcast_to(alive[:, None, :], tgt.shape)] = dead
        else:                                                    # every line is decided already
            tgt = np.full((len(cls), n_st, n_lines), dead, dtype=np.int16)
        ended = tgt < 0
        hit = (ended & positive[np.where(ended, -1 - tgt, len(machine.outcomes))]
               & np.broadcast_to(alive[:, None, :], tgt.shape)).any(axis=2)        # (states, stops)
        tgt[ended] = dead
        sc = np.minimum(state[:, n_lines:][:, None, :] + counts[None, :, :], caps[None, None, :])
        if r == len(windows) - 1:
            for i, (_, pays) in enumerate(columns):
                table_pay = np.array([_count_pay(pays, n) > 0 for n in range(int(caps[i]) + 1)])
                hit |= table_pay[sc[:, :, i]]
        cnt = np.broadcast_to(mult[:, None], hit.shape)
        won += int(cnt[hit].sum()) * total_rest[r]
        if r == len(windows) - 1:
            break
        keep = ~hit
        rows = np.ascontiguousarray(np.concatenate([tgt, sc], axis=2)[keep])
        kc = cnt[keep]
        if not len(rows):
            break
        void = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).reshape(-1)
        _, first, inv = np.unique(void, return_index=True, return_inverse=True)
        agg = np.zeros(len(first), dtype=dtype)
        np.add.at(agg, inv.reshape(-1), kc)
        state, mult = rows[first], agg
    return won


# --------------------------------------------------------------------------
# the split by the spins the line wins award
# --------------------------------------------------------------------------
def award_split(model: GameModel, machine: LineMachine, line_windows) -> dict:
    """{spins awarded: (stop combinations, sum of the line wins, sum of their squares)} over every stop
    combination, exact integers: the chain over reels on the joint state of every payline.

    ``machine`` is minimised by ``(value, award)`` of each outcome (the award: the spins the line's outcome
    awards); the state is every line's class (-1: ended) and the spins awarded by the
    ended lines, each carrying its stop count, the sum of the ended lines' wins and of their squares (a
    line that ends adds v: sum' = sum + n v, squares' = squares + 2 v sum + n v^2); equal states merge.
    Integers are int64 while the bound (combinations x the largest total win squared) stays below 2^62,
    else Python ints.
    """
    lines = np.array(model.paylines, dtype=np.int64)
    n_lines = len(lines)
    values = np.array([o[0] for o in machine.outcomes], dtype=np.int64)
    awards = np.array([o[1] for o in machine.outcomes], dtype=np.int64)
    total = prod(w.shape[0] for w in line_windows)
    top = n_lines * int(values.max(initial=0))
    dtype = np.int64 if total * top * top < _INT64_SAFE else object
    cls = np.zeros((1, n_lines), dtype=np.int32)
    spins = np.zeros(1, dtype=np.int64)
    c, w1, w2 = (np.ones(1, dtype=dtype), np.zeros(1, dtype=dtype), np.zeros(1, dtype=dtype))
    for r in range(model.reels):
        table = machine.tables[r]
        sym = line_windows[r][:, lines[:, r]]                  # (stops, lines)
        alive = cls >= 0
        if table.shape[0]:
            tgt = table[np.where(alive, cls, 0)[:, None, :], sym[None, :, :]]      # (states, stops, lines)
        else:
            tgt = np.zeros((len(cls), sym.shape[0], n_lines), dtype=np.int64)
        live = np.broadcast_to(alive[:, None, :], tgt.shape)
        ended = live & (tgt < 0)
        o = np.where(ended, -1 - tgt, 0)
        dv = np.where(ended, values[o], 0).sum(axis=2).astype(dtype)           # (states, stops)
        da = np.where(ended, awards[o], 0).sum(axis=2)
        new_cls = np.where(live & (tgt >= 0), tgt, -1).astype(np.int32).reshape(-1, n_lines)
        new_spins = (spins[:, None] + da).reshape(-1)
        cc = np.broadcast_to(c[:, None], dv.shape).reshape(-1)
        s1 = np.broadcast_to(w1[:, None], dv.shape).reshape(-1)
        s2 = np.broadcast_to(w2[:, None], dv.shape).reshape(-1)
        dv = dv.reshape(-1)
        s2 = s2 + 2 * dv * s1 + cc * dv * dv
        s1 = s1 + cc * dv
        rows = np.ascontiguousarray(np.concatenate([new_cls, new_spins[:, None].astype(np.int32)], axis=1))
        void = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).reshape(-1)
        _, first, inv = np.unique(void, return_index=True, return_inverse=True)
        inv = inv.reshape(-1)
        agg = [np.zeros(len(first), dtype=dtype) for _ in range(3)]
        for a, v in zip(agg, (cc, s1, s2)):
            np.add.at(a, inv, v)
        cls, spins, (c, w1, w2) = new_cls[first], new_spins[first], agg
    out: dict = {}
    for s_, n, a, b in zip(spins.tolist(), c.tolist(), w1.tolist(), w2.tolist()):
        prev = out.get(s_, (0, 0, 0))
        out[s_] = (prev[0] + int(n), prev[1] + int(a), prev[2] + int(b))
    return out


@dataclass(frozen=True)
class AwardsPhase(PhaseAnalysis):
    """A phase whose free spins are awarded by its line wins: ``by_trigger`` is split by the spins a spin
    awards (index s: s spins), which the round reads as its trigger and retrigger
    (:func:`markov.round.by_spins_awarded`)."""

    awards_by_spins: bool = True


def with_awards(ms: MathSet, phase: Phase, an: PhaseAnalysis, line_windows, value_of, mult: int) -> PhaseAnalysis:
    """``an`` with its split by the spins the line wins award (:func:`award_split`), when the game awards
    free spins by line wins (:func:`exact.rules.phase_awards`); ``an`` unchanged otherwise.  ``value_of``
    and ``mult``: the phase's value of a line outcome and its line multiplier (:func:`exact.rules.level_line_values`).

    Raises
    ------
    ValueError
        If the split disagrees with the phase's moments from the pair chains (a failed self-check).
    """
    model = ms.model
    table = phase_awards(model, phase)
    if table is None:
        return an
    total = prod(w.shape[0] for w in line_windows)
    joint: dict = defaultdict(lambda: [Fraction(0)] * 3)
    comb = combination_table(model, phase.weights)
    wsum = sum(w for _, w in comb)
    for m, w in comb:
        if not w:
            continue
        machine = line_machine(model, m, key=lambda v, lab: (v, award_of(table, lab[0], lab[1]) if v > 0 else 0),
                               value_of=value_of)
        for s_, (n, a, b) in award_split(model, machine, line_windows).items():
            acc = joint[s_]
            acc[0] += Fraction(w * n, wsum * total)
            acc[1] += Fraction(w * a * mult, wsum * total)
            acc[2] += Fraction(w * b * mult * mult, wsum * total)
    top = max(joint)
    split = CountSplit(*(tuple(joint[s_][i] if s_ in joint else Fraction(0) for s_ in range(top + 1))
                         for i in range(3)))
    if split.mean != an.mean or split.second != an.second:
        raise ValueError(f"the split by the spins awarded ({split.mean}, {split.second}) disagrees with the "
                         f"phase ({an.mean}, {an.second})")
    fields = {f.name: getattr(an, f.name) for f in dataclasses.fields(PhaseAnalysis)}
    fields["by_trigger"] = split
    return AwardsPhase(**fields)


# --------------------------------------------------------------------------
# the phase
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class DrawnPhase(PhaseAnalysis):
    """A free-spin phase whose feature first draws one of several readings (the expanding symbol): every
    figure of one spin is the weighted mean over the draws, and ``feature_draw`` keeps (weight, the phase of
    that draw) so that the feature is the mixture of the features of each draw
    (:func:`markov.feature.feature_chain`): the draw is made once per feature, not per spin."""

    feature_draw: tuple = ()


def drawn_mixture(parts) -> DrawnPhase:
    """The :class:`DrawnPhase` of ``[(integer weight, PhaseAnalysis), ...]``: every mean, moment, split,
    table, probability and hit frequency averaged with the weights.

    >>> from fractions import Fraction as F
    >>> from types import SimpleNamespace
    >>> s = CountSplit((F(1),), (F(2),), (F(4),))
    >>> a = PhaseAnalysis(None, F(2), F(4), {"pays": F(2)}, {}, {}, s, s, F(1, 2), line_means=(F(2),), line_hits=(F(1),))
    >>> b = dataclasses.replace(a, mean=F(4), hit_frequency=F(1))
    >>> m = drawn_mixture([(1, a), (3, b)])
    >>> m.mean, m.hit_frequency, len(m.feature_draw)
    (Fraction(7, 2), Fraction(7, 8), 2)
    """
    total = sum(w for w, _ in parts)
    first = parts[0][1]

    def avg(get):
        return sum((Fraction(w) * get(a) for w, a in parts), Fraction(0)) / total

    def split(get):
        if get(first) is None:
            return None
        n = max(len(get(a).prob) for _, a in parts)
        pad = (lambda t: tuple(t) + (Fraction(0),) * (n - len(t)))
        return CountSplit(*(tuple(avg(lambda a, f=f, i=i: pad(getattr(get(a), f))[i]) for i in range(n))
                            for f in ("prob", "win", "win2")))

    def table(get):
        return {k: tuple(avg(lambda a, k=k, i=i: get(a)[k][i]) for i in range(len(v))) for k, v in get(first).items()}

    fields = {f.name: getattr(first, f.name) for f in dataclasses.fields(PhaseAnalysis)}
    fields.update(
        mean=avg(lambda a: a.mean), second=avg(lambda a: a.second), parts=mixed_parts(parts, total),
        ways_by_symbol=table(lambda a: a.ways_by_symbol), oak_prob=table(lambda a: a.oak_prob),
        by_scatter=split(lambda a: a.by_scatter), by_key=split(lambda a: a.by_key),
        by_trigger=split(lambda a: a.by_trigger), hit_frequency=avg(lambda a: a.hit_frequency),
        line_means=tuple(avg(lambda a, i=i: a.line_means[i]) for i in range(len(first.line_means))),
        line_hits=tuple(avg(lambda a, i=i: a.line_hits[i]) for i in range(len(first.line_hits))))
    return DrawnPhase(**fields, feature_draw=tuple((Fraction(w, total), a) for w, a in parts))


def combination_table(model: GameModel, table: str) -> tuple[tuple[int, int], ...]:
    """(value, integer weight) of the combination multiplier drawn per spin in weight table ``table``;
    ((1, 1),) without a combination WILD."""
    wilds = combination_wilds(model)
    return wilds[0].multiplier.combination_table(table) if wilds else ((1, 1),)


def analyse_lines_phase(ms: MathSet, phase: Phase) -> PhaseAnalysis:
    """Exact analysis of one spin of ``phase`` of a line game over all stop combinations.

    Returns
    -------
    PhaseAnalysis
        Fractions, credits per spin, W including the phase's multiplier:
        mean, second moment, line/scatter split, the win by paying symbol and
        run, P(one payline wins so), the splits by trigger count (and by the
        ``trigger_reels`` condition in ``by_trigger``), per-line means and
        hit rates, and the hit frequency.

    Examples
    --------
    >>> import numpy as np
    >>> from strips.loader import parse_game
    >>> from strips.model import MathSet, ReelStrips
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
    ... pays = [0, 0, 9]
    ... [symbols.B]
    ... class = "pay"
    ... pays = [0, 0, 1]
    ... ''', "game.toml")
    >>> reels = (("A", "B"),) * 3
    >>> ms = MathSet("doc", m, {"base": ReelStrips("base", reels, tuple(np.array([0, 1]) for _ in reels))})
    >>> an = analyse_lines_phase(ms, m.base_phase)   # AAA pays 9, BBB pays 1, each 1 in 8
    >>> an.mean, an.hit_frequency
    (Fraction(5, 4), Fraction(1, 4))

    ``tests/test_lines.py`` checks every figure against the brute force
    through :func:`exact.evaluator.evaluate`.
    """
    model = ms.model
    narrowed = phase_reading(model, phase)   # the game this phase reads (a WILD expanding in some phases only)
    if narrowed is not model:
        return analyse_lines_phase(dataclasses.replace(ms, model=narrowed), phase)
    draws = feature_draws(model, phase)     # a symbol drawn per feature (the expanding symbol): the mixture
    if draws:
        return drawn_mixture([(w, analyse_lines_phase(dataclasses.replace(ms, model=m), phase)) for w, m in draws])
    strips = ms.phase_strips(phase)
    windows = [window_codes(c, model.rows) for c in strips.codes]
    line_windows = line_view(model, windows)     # what a payline reads (expanding WILDs)
    lengths = [w.shape[0] for w in windows]
    total = prod(lengths)
    tags = scatter_tags(model, strips)
    full_keys = boundary_keys(tags, lambda k: k)
    pair_keys = boundary_keys(tags, lambda k: k[:2])
    # the level's value of each line outcome and its multipliers of lines and scatters (skip_wild_line)
    value_of, mult, scatter_mult = level_line_values(model, phase)
    others = extra_counts(model)

    def sp(key):
        return scatter_mult * (trigger_scatter_pay(model, key[0])
                               + sum(_count_pay(pays, c) for (_, _, pays, _), c in zip(others, key[2:])))

    def counted(key):      # the part of sp(key) that is line pays (the drawn expanding symbol's)
        return scatter_mult * sum(_count_pay(pays, c) for (_, _, pays, line), c in zip(others, key[2:]) if line)

    # P(key): the tags alone
    dist = {full_keys[0][0][0]: 1}
    for r in range(model.reels):
        nd: dict = defaultdict(int)
        tc = np.bincount(tags.stop_tag[r], minlength=len(tags.tag_list[r]))
        keys, cmap = full_keys[r]
        index = {k: i for i, k in enumerate(keys)}
        for k, c in dist.items():
            for tg, n in enumerate(tc):
                if n:
                    nd[full_keys[r + 1][0][cmap[index[k], tg]]] += c * int(n)
        dist = nd

    table = combination_table(model, phase.weights)
    wsum = sum(w for _, w in table)
    l1: dict = defaultdict(Fraction)       # full key -> E[lines 1{key}] x total (mixed over m)
    l2: dict = defaultdict(Fraction)       # pair key -> E[lines^2 1{key}] x total
    by_label: dict = defaultdict(Fraction)
    count_label: dict = defaultdict(Fraction)
    line_sum = [Fraction(0)] * len(model.paylines)
    line_hit = [Fraction(0)] * len(model.paylines)
    for m, w in table:
        if not w:
            continue
        f = Fraction(w, wsum)
        lab_m = line_machine(model, m, value_of=value_of)
        done, lab_sum, lab_count, labels = line_first_moments(lab_m, line_windows, tags, full_keys,
                                                              model.paylines)
        final_keys = full_keys[-1][0]
        for q, v in enumerate(done.sum(axis=0)):
            if v:
                l1[final_keys[q]] += f * v
        for li in range(len(model.paylines)):
            line_sum[li] += f * sum(done[li])
            line_hit[li] += f * sum(lab_count[li])
        for j, key in enumerate(labels):
            by_label[key] += f * lab_sum[j]
            count_label[key] += f * lab_count[0, j]
        for count, stops, factor, wins, jackpot in fill_terms(model, windows, m):   # a screen fill's extra wins
            key = full_keys[0][0][0]
            for r, s_ in enumerate(stops):
                key = tags.combine(key, tags.tag_list[r][tags.stop_tag[r][s_]])
            filled = sum(v for _, v, _ in wins)
            # a jackpot fill: the line wins dropped (factor 0), its credits paid as is (the level's mult undone)
            jv = Fraction(jackpot[1], mult) if jackpot else Fraction(0)
            l1[key] += f * count * ((factor - 1) * filled + jv)
            l2[key[:2]] += f * count * ((factor * factor - 1) * filled * filled + jv * jv)
            for li, v, label in wins:
                line_sum[li] += f * count * (factor - 1) * v
                by_label[label] += f * count * (factor - 1) * v
                if not factor:                  # the line no longer pays
                    line_hit[li] -= f * count
                    if li == 0:
                        count_label[label] -= f * count
        val_m = line_machine(model, m, key=lambda v, l: v, value_of=value_of)
        for key, v in pair_moments(val_m, list(val_m.outcomes), line_windows, tags, pair_keys,
                                   model.paylines).items():
            l2[key] += f * v

    # the pays by the number of reels showing a symbol (the drawn expanding symbol): every payline wins
    # them, in the symbol table under that symbol and count, an equal share in each line's mean
    n_lines = len(model.paylines)
    for (code, pays), i in zip(counted_pays(model), [i for i, o in enumerate(others) if o[3]]):
        for key, c in dist.items():
            n = key[2 + i]
            if _count_pay(pays, n):
                label = (model.symbols[code].name, n)
                by_label[label] += c * scatter_mult * _count_pay(pays, n)
                count_label[label] += c
                for li in range(n_lines):
                    line_sum[li] += Fraction(c * scatter_mult * _count_pay(pays, n), n_lines)

    # assemble by pair key (n, ok)
    p_pk: dict = defaultdict(int)
    w_pk: dict = defaultdict(Fraction)
    w2_pk: dict = defaultdict(Fraction)
    for key, c in dist.items():
        pk = key[:2]
        s = sp(key)
        lm = l1.get(key, Fraction(0))
        p_pk[pk] += c
        w_pk[pk] += lm + s * c
        w2_pk[pk] += 2 * s * lm + s * s * c
    for pk, v in l2.items():
        w2_pk[pk] += v
    n_max = max(k[0] for k in p_pk)
    prob = [Fraction(0)] * (n_max + 1)
    win = [Fraction(0)] * (n_max + 1)
    win2 = [Fraction(0)] * (n_max + 1)
    tprob, twin, twin2 = list(prob), list(win), list(win2)
    for (n, ok), c in p_pk.items():
        p, w1, w2 = Fraction(c, total), mult * w_pk[(n, ok)] / total, mult * mult * w2_pk[(n, ok)] / total
        prob[n] += p
        win[n] += w1
        win2[n] += w2
        i = n if ok else 0
        tprob[i] += p
        twin[i] += w1
        twin2[i] += w2
    by_scatter = CountSplit(tuple(prob), tuple(win), tuple(win2))
    by_trigger = CountSplit(tuple(tprob), tuple(twin), tuple(twin2)) if model.trigger_reels else None
    mean, second = by_scatter.mean, by_scatter.second
    lines_mean = (sum(l1.values(), Fraction(0)) + sum(c * counted(k) for k, c in dist.items())) * mult / total
    scatter_mean = mean - lines_mean
    paying = list(model.pay_symbols) + list(paying_wilds(model))
    ways_by_symbol = {s.name: tuple(by_label.get((s.name, n), Fraction(0)) * mult / total
                                    for n in range(1, model.reels + 1)) for s in paying}
    oak_prob = {s.name: tuple(count_label.get((s.name, n), Fraction(0)) / total
                              for n in range(1, model.reels + 1)) for s in paying}
    hit_m = line_machine(model, table[0][0], key=lambda v, l: v > 0)
    hit = Fraction(hit_count(model, hit_m, windows, tags, line_windows), total)
    for count, _, factor, wins, jackpot in fill_terms(model, windows, table[0][0]):
        if not factor:          # a jackpot fill (no scatter shows): a win when the jackpot has credits
            hit += Fraction(count * (int(jackpot[1] > 0) - int(bool(wins))), total)
    return with_awards(ms, phase, PhaseAnalysis(
        phase=phase, mean=mean, second=second, parts=spin_parts(lines_mean, scatter=scatter_mean),
        ways_by_symbol=ways_by_symbol, oak_prob=oak_prob, by_scatter=by_scatter,
        by_key=CountSplit((Fraction(1),), (mean,), (second,)), hit_frequency=hit,
        by_trigger=by_trigger,
        line_means=tuple(v * mult / total for v in line_sum), line_hits=tuple(v / total for v in line_hit)),
        line_windows, value_of, mult)
