"""Per-window tables of the rules-page enumeration: one lookup per reel and stop.

``counts[r][s, k]`` rows of the window of reel ``r`` at stop ``s`` showing
pay symbol ``k`` or a WILD; ``keys[r][s]``, ``scatters[r][s]`` KEY and FS
symbols in that column; ``fish[r][s]`` the sum of the exact mean values of
the FISH symbols in that column over a common denominator
(:func:`window_tables`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from strips.model import FISH, KEY, SCATTER, WILD, MathSet, Phase, window_counts, window_table
from exact.rules import drawn_wilds, trigger_scatter_pay


@dataclass(frozen=True)
class WindowTables:
    """Per reel and stop facts of the window column of one phase's strips.

    Attributes
    ----------
    phase : Phase
    lengths : tuple of int, length reels
        Stops of each reel strip.
    pay_names : tuple of str, length n_pay
        Pay symbols in model order (section 5).
    pays : numpy.ndarray, shape (n_pay, reels), int64
        ``pays[k, n - 1]`` credits per way for OAK ``n`` of pay symbol ``k``.
    counts : tuple of numpy.ndarray, each shape (L_r, n_pay), int64
        Rows of the column showing pay symbol ``k`` or WILD (section 6).
    keys, scatters : tuple of numpy.ndarray, each shape (L_r,), int64
        KEY and FS (scatter) symbols in the column (sections 8, 10).
    fish : tuple of numpy.ndarray, each shape (L_r,), int64
        Sum over the FISH symbols of the column of ``D * E[value]`` (exact
        integer numerators, credits times ``denominator``), section 7.
    fish_codes : tuple of numpy.ndarray, each shape (L_r, n_fish), int64
        FISH symbols of each kind in the column (kind order: ``fish_names``).
    fish_names : tuple of str, length n_fish
    denominator : int
        ``D``: least common multiple of the weight totals of the phase's FISH tables.
    multiplier : int
        Level multiplier of the phase (section 11); 1 in the base game.
    scatter_pays : tuple of int
        ``scatter_pays[n]``: scatter pay in credits for n scatter symbols in
        the window, n = 0 .. max (all 0 in the rules-page game).
    ways_counts : tuple of numpy.ndarray, each shape (L_r, n_pay), int64
        ``ways_scale[r] x E[c_k | stop]``: the ways count of pay symbol ``k``
        with each substituting WILD counted as its multiplier (a drawn one at
        its exact mean, the draws being independent of the stops and of each
        other; :class:`strips.model.WildMultiplier`).  Equal to ``counts``
        without WILD multipliers.  Zero exactly where ``counts`` is zero
        (a multiplier is >= 1), so the OAK of a combination is read off
        either.
    ways_scale : tuple of int, length reels
        Integer scale of each reel's ``ways_counts``: the lcm of the weight
        sums of the drawn WILD multipliers the reel's strip shows (1 if none).
    extra_fish : tuple of tuple of numpy.ndarray
        Per extra phase (:func:`window_tables` ``extra_phases``: phases on the
        same strips that differ only in their FISH tables), its ``fish`` table;
        the enumeration sums its collect in the same pass.
    extra_denominators : tuple of int
        The ``denominator`` of each extra phase.
    """

    phase: Phase
    lengths: tuple[int, ...]
    pay_names: tuple[str, ...]
    pays: np.ndarray
    counts: tuple[np.ndarray, ...]
    keys: tuple[np.ndarray, ...]
    scatters: tuple[np.ndarray, ...]
    fish: tuple[np.ndarray, ...]
    fish_codes: tuple[np.ndarray, ...]
    fish_names: tuple[str, ...]
    denominator: int
    multiplier: int
    scatter_pays: tuple[int, ...] = ()
    ways_counts: tuple[np.ndarray, ...] = ()
    ways_scale: tuple[int, ...] = ()
    extra_fish: tuple[tuple[np.ndarray, ...], ...] = ()
    extra_denominators: tuple[int, ...] = ()

    @property
    def reels(self) -> int:
        """Number of reels."""
        return len(self.lengths)

    @property
    def combinations(self) -> int:
        """Number of stop combinations, ``prod(lengths)``."""
        return math.prod(self.lengths)


def fish_weight_table(ms: MathSet, phase: Phase) -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """FISH symbol -> (values in credits, integer weights) of the phase's table (section 7).

    Raises
    ------
    ValueError
        If a FISH symbol on the phase's strips has no weight table for the phase.
    """
    model = ms.model
    on_strips = {n for reel in ms.phase_strips(phase).reels for n in reel}
    out = {}
    for s in model.of_kind(FISH):
        w = s.weights.get(phase.weights)
        if w is None:
            if s.name in on_strips:
                raise ValueError(f"{s.name} has no weight table {phase.weights!r}")
            continue
        out[s.name] = (tuple(s.values), tuple(w))
    return out


def window_tables(ms: MathSet, phase: Phase, extra_phases: Sequence[Phase] = ()) -> WindowTables:
    """Read the per-stop window facts of every reel of ``phase``'s strips.

    Each column is read exactly as the evaluator reads it: rows ``s, s+1, ...,
    s+rows-1`` of the strip with wrap-around (section 3).

    Raises
    ------
    ValueError
        If a FISH symbol on the strips has no weight table for the phase, or
        a WILD with a drawn multiplier on the strips has no weight table for
        it, or an extra phase differs from ``phase`` in more than its FISH tables.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> t = window_tables(ms, ms.model.base_phase)
    >>> t.lengths, t.counts[0].shape == (100, len(t.pay_names)), t.ways_scale
    ((100, 100, 100, 100, 100), True, (1, 1, 1, 1, 1))
    """
    model = ms.model
    strips = ms.phase_strips(phase)
    names = model.names
    pay_codes = [model.code(s.name) for s in model.pay_symbols]
    fish_names = tuple(s.name for s in model.of_kind(FISH))
    d, fish_num = _fish_numerators(ms, phase)
    extras = [_fish_numerators(ms, ep) for ep in extra_phases]
    for ep in extra_phases:
        if ms.phase_strips(ep) != strips or _drawn_tables(ms, ep) != _drawn_tables(ms, phase):
            raise ValueError(f"phase {ep.name} differs from {phase.name} in more than its FISH tables")
    # subst[k, code]: the symbol counts for pay symbol k (itself, or a WILD substituting for it; section 6)
    subst = np.array([[n == s.name or model.symbol(n).substitutes_for(s.name) for n in names]
                      for s in model.pay_symbols], dtype=bool).reshape(len(pay_codes), len(names))
    key = model.kind_mask(KEY)
    scat = model.kind_mask(SCATTER)
    counts, keys, scatters, fish, fish_codes = [], [], [], [], []
    extra_fish: list[list[np.ndarray]] = [[] for _ in extras]
    fish_cols = [model.code(f) for f in fish_names]
    for codes in strips.codes:
        n = len(codes)
        c = window_counts(codes, model.rows, len(names))        # (n, symbols): the reel's window table
        counts.append((c @ subst.T.astype(np.int64)).reshape(n, len(pay_codes)))
        keys.append(c @ key.astype(np.int64))
        scatters.append(c @ scat.astype(np.int64))
        fish.append(c @ fish_num)
        for (_, num), acc in zip(extras, extra_fish):
            acc.append(c @ num)
        fish_codes.append(c[:, fish_cols].reshape(n, len(fish_names)))
    max_scatters = sum(int(x.max(initial=0)) for x in scatters)
    pays = np.array([s.pays for s in model.pay_symbols], dtype=np.int64).reshape(len(pay_codes), model.reels)
    ways_counts, ways_scale = [], []
    for codes, c in zip(strips.codes, counts):
        scale, per_code = wild_means(ms, phase, set(int(x) for x in np.unique(codes)))
        if per_code is None:
            ways_counts.append(c)
        else:
            # per_code[k, code]: what one symbol of `code` adds to pay symbol k's count, times the scale
            ways_counts.append(window_table(codes, model.rows, per_code.T).reshape(len(codes), len(pay_codes)))
        ways_scale.append(scale)
    return WindowTables(phase=phase, lengths=strips.lengths, pay_names=tuple(s.name for s in model.pay_symbols),
                        pays=pays, counts=tuple(counts), keys=tuple(keys), scatters=tuple(scatters),
                        fish=tuple(fish), fish_codes=tuple(fish_codes), fish_names=fish_names,
                        denominator=d, multiplier=phase.multiplier,
                        scatter_pays=tuple(trigger_scatter_pay(model, k) for k in range(max_scatters + 1)),
                        ways_counts=tuple(ways_counts), ways_scale=tuple(ways_scale),
                        extra_fish=tuple(tuple(x) for x in extra_fish),
                        extra_denominators=tuple(e[0] for e in extras))


def _fish_numerators(ms: MathSet, phase: Phase) -> tuple[int, np.ndarray]:
    """(D, per code D x E[FISH value]) of the phase's FISH tables, D the lcm of their weight sums (section 7)."""
    model = ms.model
    table = fish_weight_table(ms, phase)
    d = 1
    for _, w in table.values():
        d = math.lcm(d, sum(w))
    num = np.zeros(len(model.symbols), dtype=np.int64)
    for name, (values, w) in table.items():
        num[model.code(name)] = sum(v * wi for v, wi in zip(values, w)) * (d // sum(w))
    return d, num


def _drawn_tables(ms: MathSet, phase: Phase) -> tuple:
    """The drawn WILD multiplier tables ``phase`` uses (what its ways counts depend on besides the strips)."""
    return tuple((s.name, s.multiplier.weights.get(phase.weights)) for s in drawn_wilds(ms.model))


def wild_means(ms: MathSet, phase: Phase, codes_on_reel: set[int]) -> tuple[int, np.ndarray | None]:
    """Scale and per-symbol ways contributions of one reel whose strip shows the symbol codes given.

    Returns ``(s, per_code)``: ``per_code[k, code]`` is ``s`` times the mean
    amount one symbol ``code`` adds to the ways count of pay symbol ``k``
    (``s`` for the symbol itself, ``s x E[m]`` for a WILD with multiplier
    ``m`` that substitutes for it, 0 otherwise); ``s`` is the lcm of the
    weight sums of the drawn multipliers on the reel (so every entry is an
    integer).  ``per_code`` is None when no WILD of the reel has a multiplier
    (the plain counts apply).

    Raises
    ------
    ValueError
        If a drawn multiplier on the reel has no weight table ``phase.weights``.
    """
    model = ms.model
    wilds = [(c, model.symbols[c]) for c in sorted(codes_on_reel)
             if model.symbols[c].kind == WILD and model.symbols[c].multiplier is not None]
    if not wilds:
        return 1, None
    scale = 1
    for _, w in wilds:
        if w.multiplier.is_random:
            if phase.weights not in w.multiplier.weights:
                raise ValueError(f"{w.name} has no multiplier weight table {phase.weights!r}")
            scale = math.lcm(scale, sum(w.multiplier.weights[phase.weights]))
    pay = model.pay_symbols
    per_code = np.zeros((len(pay), len(model.symbols)), dtype=np.int64)
    for k, p in enumerate(pay):
        for c, sym in enumerate(model.symbols):
            if sym.name == p.name:
                per_code[k, c] = scale
            elif sym.substitutes_for(p.name) and c in codes_on_reel:
                if sym.multiplier is None:
                    per_code[k, c] = scale
                else:
                    pairs = sym.multiplier.table(phase.weights)
                    total = sum(w for _, w in pairs)
                    per_code[k, c] = sum(v * w for v, w in pairs) * (scale // total)
    return scale, per_code
