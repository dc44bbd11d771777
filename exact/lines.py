r"""Exact analysis of one spin of a payline game (issue 15) by per-reel factorisation over lines.

Rules (issue 15, read literally by :func:`exact.evaluator.line_pays`)
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

Integers throughout (int64 with an overflow bound checked, Python ints for
sums); Fractions are formed once at the end.  Nothing is a float.

References
----------
Issue 15 (paylines, WILD pays, combination multipliers, several scatters,
``trigger_reels``); rules page sections 9-11 (scatter count, level
multiplier).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import prod

import numpy as np
from scipy import sparse

from markov.moments import CountSplit, PhaseAnalysis
from strips.model import PAY, WILD, GameModel, MathSet, Phase

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
    comb = {s.name for s in model.combination_wilds}
    wild_pays = {s.name: s.pays for s in model.of_kind(WILD) if s.pays}

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


def line_machine(model: GameModel, combination: int = 1, key=lambda value, label: (value, label)) -> LineMachine:
    """The minimised payline scan of ``model`` for combination multiplier ``combination``.

    Parameters
    ----------
    key : callable (value, label) -> hashable
        What of an outcome matters: ``(value, label)`` for the per-symbol
        table (default), the value for moments, ``value > 0`` for the hit
        frequency.  States with the same outcomes under ``key`` merge.

    Examples
    --------
    >>> import dataclasses
    >>> from strips.loader import load_math_set
    >>> model = dataclasses.replace(load_math_set().model, evaluation="lines", paylines=((0, 0, 0, 0, 0),))
    >>> m = line_machine(model, key=lambda v, l: v > 0)
    >>> m.classes(0), sorted(m.outcomes)
    (1, [False, True])
    """
    raw = _raw_transitions(model, combination)
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
                    k = key(t[1], t[2])
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


def scatter_tags(model: GameModel, strips) -> Tags:
    """The :class:`Tags` of a strip set (each stop's window, wrap-around as in section 3)."""
    others = [s for s in model.other_scatters if s.pays and any(s.pays)]
    trig_codes = np.array(model.scatter_codes(), dtype=np.int64)
    stop_tag, tag_list = [], []
    for r, strip in enumerate(strips.codes):
        n = len(strip)
        win = strip[(np.arange(n)[:, None] + np.arange(model.rows)[None, :]) % n]
        cols = [np.isin(win, trig_codes).sum(axis=1) if len(trig_codes) else np.zeros(n, dtype=np.int64)]
        cols.append((cols[0] > 0).astype(np.int64) if r in model.trigger_reels else np.ones(n, dtype=np.int64))
        for s in others:
            cols.append((win == model.code(s.name)).sum(axis=1))
        arr = np.stack(cols, axis=1)
        uniq, inv = np.unique(arr, axis=0, return_inverse=True)
        stop_tag.append(inv.reshape(-1))
        tag_list.append(tuple(tuple(int(v) for v in row) for row in uniq))
    return Tags(tuple(stop_tag), tuple(tag_list), tuple(len(s.pays) for s in others))


def _keys(tags: Tags, project) -> list[tuple[list, np.ndarray]]:
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


def _window_rows(strip: np.ndarray, rows: int) -> np.ndarray:
    """Symbol codes at each row of each stop's window: shape (stops, rows)."""
    n = len(strip)
    return strip[(np.arange(n)[:, None] + np.arange(rows)[None, :]) % n]


# --------------------------------------------------------------------------
# first moments: one line at a time
# --------------------------------------------------------------------------
def _single_line(machine: LineMachine, values, labels, windows, tags: Tags, keymaps, rows: tuple[int, ...]):
    """One payline: {final key: sum over stop combinations of its pay}, {label: pay sum}, count of paying combos.

    ``values[o]``/``labels[o]``: pay and label of outcome o.  Integer sums
    (Python ints) over all stop combinations.
    """
    n_reels = len(windows)
    lengths = [w.shape[0] for w in windows]
    rest = [prod(lengths[r + 1:]) for r in range(n_reels)]
    v = {(0, 0): 1}                       # (class, key index) -> count of stop prefixes
    done: dict = defaultdict(int)         # key index -> sum of pay x count
    by_label: dict = {}
    paying = 0
    for r in range(n_reels):
        table = machine.tables[r]
        cmap = keymaps[r][1]
        x = windows[r][:, rows[r]]
        t = tags.stop_tag[r]
        pairs, cnt = np.unique(np.stack([x, t], axis=1), axis=0, return_counts=True)
        nv: dict = defaultdict(int)
        nd: dict = defaultdict(int)
        tcount = np.bincount(t, minlength=len(tags.tag_list[r]))
        for q, s in done.items():
            for tg, c in enumerate(tcount):
                if c:
                    nd[int(cmap[q, tg])] += s * int(c)
        for (k, q), c0 in v.items():
            for (xs, tg), c in zip(pairs, cnt):
                tgt = int(table[k, xs])
                q2 = int(cmap[q, tg])
                m = c0 * int(c)
                if tgt >= 0:
                    nv[(tgt, q2)] += m
                else:
                    o = -1 - tgt
                    if values[o]:
                        nd[q2] += values[o] * m
                        acc = by_label.setdefault(labels[o], [0, 0])
                        acc[0] += values[o] * m * rest[r]
                        acc[1] += m * rest[r]
                        paying += m * rest[r]
        v, done = nv, nd
    return dict(done), dict(by_label), paying


# --------------------------------------------------------------------------
# second moments: pairs of lines
# --------------------------------------------------------------------------
def _pair_matrix(table, k_next, values, xa, xb, tag, cmap, n_keys, n_keys2):
    """The sparse integer transition of a pair state vector over one reel for rows (h_a, h_b).

    Layout at a boundary with K classes and Q keys: both running
    ``(ka, kb, q)`` -> ``(ka K + kb) Q + q``; a ended (its pay carried):
    ``K^2 Q + kb Q + q``; b ended: ``K^2 Q + K Q + ka Q + q``; both ended:
    ``K^2 Q + 2 K Q + q``.
    """
    k = table.shape[0]
    kn = k_next
    dim = k * k * n_keys + 2 * k * n_keys + n_keys
    dim2 = kn * kn * n_keys2 + 2 * kn * n_keys2 + n_keys2
    rows_, cols_, data_ = [], [], []
    # the reel's stops grouped by (x, y, tag)
    trip, cnt = np.unique(np.stack([xa, xb, tag], axis=1), axis=0, return_counts=True)
    cnt = cnt.astype(np.int64)
    val = np.asarray(values, dtype=np.int64)
    ka, kb = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
    ka, kb = ka.reshape(-1), kb.reshape(-1)
    ta = table[ka[:, None], trip[None, :, 0]]            # (K^2, E)
    tb = table[kb[:, None], trip[None, :, 1]]
    tg = np.broadcast_to(trip[None, :, 2], ta.shape)
    c = np.broadcast_to(cnt[None, :], ta.shape)
    src = np.broadcast_to((ka * k + kb)[:, None], ta.shape)
    va = np.where(ta < 0, val[np.maximum(-1 - ta, 0)], 0)
    vb = np.where(tb < 0, val[np.maximum(-1 - tb, 0)], 0)
    base_a, base_b, base_r = kn * kn * n_keys2, kn * kn * n_keys2 + kn * n_keys2, kn * kn * n_keys2 + 2 * kn * n_keys2
    q = np.arange(n_keys)
    for sel, tgt, weight in (
            ((ta >= 0) & (tb >= 0), lambda: (ta * kn + tb) * n_keys2, lambda: c),
            ((ta < 0) & (tb >= 0), lambda: base_a + tb * n_keys2, lambda: c * va),
            ((ta >= 0) & (tb < 0), lambda: base_b + ta * n_keys2, lambda: c * vb),
            ((ta < 0) & (tb < 0), lambda: np.full(ta.shape, base_r), lambda: c * va * vb)):
        w = weight()
        sel = sel & (w != 0)
        if not sel.any():
            continue
        s_src, s_tgt, s_tg, s_w = src[sel], tgt()[sel], tg[sel], w[sel]
        rows_.append((s_src[:, None] * n_keys + q[None, :]).reshape(-1))
        cols_.append((s_tgt[:, None] + cmap[q[None, :], s_tg[:, None]]).reshape(-1))
        data_.append(np.repeat(s_w[:, None], n_keys, axis=1).reshape(-1))
    # one line ended: the other moves by its own row's symbols
    for xs, base_src, base_dst_run in ((xb, k * k * n_keys, base_a), (xa, k * k * n_keys + k * n_keys, base_b)):
        pr, pc = np.unique(np.stack([xs, tag], axis=1), axis=0, return_counts=True)
        kk = np.arange(k)
        t = table[kk[:, None], pr[None, :, 0]]
        tgs = np.broadcast_to(pr[None, :, 1], t.shape)
        cc = np.broadcast_to(pc.astype(np.int64)[None, :], t.shape)
        srck = np.broadcast_to(kk[:, None], t.shape)
        vv = np.where(t < 0, val[np.maximum(-1 - t, 0)], 0)
        for sel, tgt, w in (((t >= 0), base_dst_run + t * n_keys2, cc),
                            ((t < 0), np.full(t.shape, base_r), cc * vv)):
            sel = sel & (w != 0)
            if not sel.any():
                continue
            rows_.append((base_src + srck[sel][:, None] * n_keys + q[None, :]).reshape(-1))
            cols_.append((tgt[sel][:, None] + cmap[q[None, :], tgs[sel][:, None]]).reshape(-1))
            data_.append(np.repeat(w[sel][:, None], n_keys, axis=1).reshape(-1))
    # both ended: only the scatter-count key moves
    tcount = np.bincount(tag, minlength=cmap.shape[1]).astype(np.int64)
    for tgi in np.flatnonzero(tcount):
        rows_.append(k * k * n_keys + 2 * k * n_keys + q)
        cols_.append(base_r + cmap[q, tgi])
        data_.append(np.full(n_keys, tcount[tgi]))
    r_ = np.concatenate(rows_) if rows_ else np.zeros(0, dtype=np.int64)
    c_ = np.concatenate(cols_) if cols_ else np.zeros(0, dtype=np.int64)
    d_ = np.concatenate(data_) if data_ else np.zeros(0, dtype=np.int64)
    return sparse.csr_matrix((d_, (r_, c_)), shape=(dim, dim2), dtype=np.int64)


def pair_moments(machine: LineMachine, values, windows, tags: Tags, keymaps, paylines) -> dict:
    """{key: sum over every ordered pair of lines (a, b) and all stop combinations of L_a L_b 1{key}}.

    Integer (Python int) sums; see the module docstring for the method.
    """
    n_lines = len(paylines)
    ia, ib = np.triu_indices(n_lines)
    weight = np.where(ia == ib, 1, 2).astype(np.int64)
    lines = np.array(paylines, dtype=np.int64)
    x = sparse.csr_matrix((np.ones(len(ia), dtype=np.int64), (np.arange(len(ia)), np.zeros(len(ia), dtype=np.int64))),
                          shape=(len(ia), machine.classes(0) ** 2 * len(keymaps[0][0])
                                 + 2 * machine.classes(0) * len(keymaps[0][0]) + len(keymaps[0][0])))
    for r in range(len(windows)):
        k_next = machine.classes(r + 1)
        n_keys, n_keys2 = len(keymaps[r][0]), len(keymaps[r + 1][0])
        ha, hb = lines[ia, r], lines[ib, r]
        group = ha * windows[r].shape[1] + hb
        order = np.argsort(group, kind="stable")
        parts = []
        for g in np.unique(group):
            idx = order[group[order] == g]
            h1, h2 = divmod(int(g), windows[r].shape[1])
            t = _pair_matrix(machine.tables[r], k_next, values, windows[r][:, h1], windows[r][:, h2],
                             tags.stop_tag[r], keymaps[r][1], n_keys, n_keys2)
            parts.append((idx, x[idx] @ t))
        stacked = sparse.vstack([p for _, p in parts], format="csr")
        perm = np.concatenate([i for i, _ in parts])
        inv = np.empty_like(perm)
        inv[perm] = np.arange(len(perm))
        x = stacked[inv]
    final = x.toarray().astype(object).T.dot(weight.astype(object))
    keys = keymaps[-1][0]
    return {keys[i]: int(final[i]) for i in range(len(keys)) if final[i]}


# --------------------------------------------------------------------------
# hit frequency
# --------------------------------------------------------------------------
def hit_count(model: GameModel, machine: LineMachine, windows, tags: Tags) -> int:
    """Number of stop combinations whose spin wins (a line pays or the scatters pay), exactly.

    ``machine`` is minimised for ``value > 0``: its outcomes are True/False.
    The chain's state is every line's class plus the paying scatter counts
    (capped); a state leaves as won when some line's outcome is True.
    """
    lines = np.array(model.paylines, dtype=np.int64)
    n_lines = len(lines)
    positive = np.array([bool(o) for o in machine.outcomes] + [False])
    pay_scatters = [s for s in model.of_kind("scatter") if s.pays and any(s.pays)]
    caps = [len(s.pays) for s in pay_scatters]
    # per reel, each stop's count of each paying scatter (the triggering one with counts_as_scatter WILDs)
    counts = []
    for r in range(len(windows)):
        counts.append(np.stack([np.isin(windows[r], np.array(model.scatter_codes(s))).sum(axis=1)
                                for s in pay_scatters], axis=1) if pay_scatters else
                      np.zeros((windows[r].shape[0], 0), dtype=np.int64))
    dead = -1
    state = np.zeros((1, n_lines + len(caps)), dtype=np.int64)   # class per line (-1: ended unpaid), counts
    mult = np.ones(1, dtype=object)
    won = 0
    total_rest = [prod(w.shape[0] for w in windows[r + 1:]) for r in range(len(windows))]
    for r in range(len(windows)):
        table = machine.tables[r]
        sym = windows[r][:, lines[:, r]]                      # (stops, lines)
        n_st = sym.shape[0]
        cls = state[:, :n_lines]
        alive = cls >= 0            # a line that ended unpaid is -1
        safe = np.where(alive, cls, 0)
        if table.shape[0]:
            tgt = table[safe[:, None, :], sym[None, :, :]]     # (states, stops, lines)
        else:                                                   # every line is decided already
            tgt = np.full((len(cls), n_st, n_lines), dead, dtype=np.int64)
        tgt = np.where(alive[:, None, :], tgt, dead)
        out_idx = np.where(alive[:, None, :] & (tgt < 0), -1 - tgt, len(machine.outcomes))
        hit = positive[out_idx].any(axis=2)                    # (states, stops)
        newcls = np.where(tgt >= 0, tgt, dead)
        sc = state[:, n_lines:][:, None, :] + counts[r][None, :, :]
        if caps:
            sc = np.minimum(sc, np.array(caps)[None, None, :])
        if r == len(windows) - 1 and caps:
            pays = np.zeros(sc.shape[:2], dtype=bool)
            for i, s in enumerate(pay_scatters):
                table_pay = np.array([model.symbol_scatter_pay(s, n) > 0 for n in range(caps[i] + 1)])
                pays |= table_pay[sc[:, :, i]]
            hit = hit | pays
        cnt = np.broadcast_to(mult[:, None], hit.shape)
        won += int(sum(cnt[hit])) * total_rest[r]
        keep = ~hit
        rows = np.concatenate([newcls, sc], axis=2)[keep]
        kc = cnt[keep]
        if r < len(windows) - 1:
            if len(rows):
                uniq, inv = np.unique(rows, axis=0, return_inverse=True)
                agg = np.zeros(len(uniq), dtype=object)
                np.add.at(agg, inv.reshape(-1), kc)
                state, mult = uniq, agg
            else:
                state, mult = np.zeros((0, n_lines + len(caps)), dtype=np.int64), np.zeros(0, dtype=object)
    return won


# --------------------------------------------------------------------------
# the phase
# --------------------------------------------------------------------------
def combination_table(model: GameModel, table: str) -> tuple[tuple[int, int], ...]:
    """(value, integer weight) of the combination multiplier drawn per spin in weight table ``table``;
    ((1, 1),) without a combination WILD."""
    wilds = model.combination_wilds
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

    Raises
    ------
    ValueError
        If the sums could overflow the int64 pair matrices (a bound on the
        largest line pay and the number of stop combinations).

    Examples
    --------
    See ``tests/test_lines.py`` (brute force through :func:`exact.evaluator.evaluate`).
    """
    model = ms.model
    strips = ms.phase_strips(phase)
    windows = [_window_rows(c, model.rows) for c in strips.codes]
    lengths = [w.shape[0] for w in windows]
    total = prod(lengths)
    tags = scatter_tags(model, strips)
    full_keys = _keys(tags, lambda k: k)
    pair_keys = _keys(tags, lambda k: k[:2])
    mult = phase.multiplier
    others = [s for s in model.other_scatters if s.pays and any(s.pays)]

    def sp(key):
        return model.scatter_pay(key[0]) + sum(model.symbol_scatter_pay(s, c) for s, c in zip(others, key[2:]))

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
        lab_m = line_machine(model, m)
        values = [o[0] for o in lab_m.outcomes]
        labels = [o[1] for o in lab_m.outcomes]
        for li, rows in enumerate(model.paylines):
            done, lab, paying = _single_line(lab_m, values, labels, windows, tags, full_keys, rows)
            for q, v in done.items():
                l1[full_keys[-1][0][q]] += f * v
            line_sum[li] += f * sum(done.values())
            line_hit[li] += f * paying
            if li == 0:
                for key, (v, c) in lab.items():
                    by_label[key] += f * v
                    count_label[key] += f * c
            elif li > 0:
                for key, (v, c) in lab.items():
                    by_label[key] += f * v
        val_m = line_machine(model, m, key=lambda v, l: v)
        vmax = max([abs(v) for v in val_m.outcomes] + [1])
        if vmax * vmax * total * 4 >= _INT64_SAFE:
            raise ValueError(f"unsupported rule: line pays up to {vmax} credits over {total} stop combinations "
                             f"exceed the exact int64 pair computation")
        for key, v in pair_moments(val_m, list(val_m.outcomes), windows, tags, pair_keys,
                                   model.paylines).items():
            l2[key] += f * v

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
    lines_mean = sum(l1.values(), Fraction(0)) * mult / total
    scatter_mean = mean - lines_mean
    paying = [s for s in model.pay_symbols] + [s for s in model.of_kind(WILD) if s.pays and any(s.pays)]
    ways_by_symbol = {s.name: tuple(by_label.get((s.name, n), Fraction(0)) * mult / total
                                    for n in range(1, model.reels + 1)) for s in paying}
    oak_prob = {s.name: tuple(count_label.get((s.name, n), Fraction(0)) / total
                              for n in range(1, model.reels + 1)) for s in paying}
    hit_m = line_machine(model, table[0][0], key=lambda v, l: v > 0)
    hit = Fraction(hit_count(model, hit_m, windows, tags), total)
    return PhaseAnalysis(
        phase=phase, mean=mean, second=second, ways_mean=lines_mean, collect_mean=Fraction(0),
        ways_by_symbol=ways_by_symbol, oak_prob=oak_prob, by_scatter=by_scatter,
        by_key=CountSplit((Fraction(1),), (mean,), (second,)), hit_frequency=hit,
        scatter_mean=scatter_mean, by_trigger=by_trigger,
        line_means=tuple(v * mult / total for v in line_sum), line_hits=tuple(v / total for v in line_hit))
