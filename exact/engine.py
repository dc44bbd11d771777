r"""Exact analysis of one spin by per-reel factorisation over all stop combinations.

Method
------
Reels stop independently and uniformly, so for any functions :math:`g_r` of
reel r's stop, :math:`E[\prod_r g_r(s_r)] = \prod_r E[g_r(s_r)]`.  The spin win
(before the level multiplier, scaled by the fish denominator D) is written as a
sum of such product terms,

.. math::  \tilde W = D\,(\text{ways} + \text{collect}) = \sum_t a_t \prod_r g_{t,r}(s_r),

* one **ways term** per pay symbol p and OAK n with a non-zero pay
  (section 6): :math:`a_t = D\,\text{pay}_p(n)`, :math:`g_{t,r} = c_{p,r}` (count
  of p plus WILD in the reel window) for reels before n, the indicator
  :math:`[c_{p,n}=0]` on reel n (when n is not the last reel), 1 after;
* one **collect term** per pair of reels (a, b) (section 8,
  collect = (sum of KEY counts) x (sum of FISH values)): :math:`a_t = 1`,
  :math:`g_{t,a} = k_a` (KEY count), :math:`g_{t,b} = D F_b` (sum of the FISH
  values on reel b, random), both factors on one reel when a = b;
* a constant term t = 0 (:math:`a_0 = 0`, g = 1) that carries probabilities.

Then :math:`E[\tilde W^2] = \sum_{t,u} a_t a_u \prod_r S_r[t,u]` with the per-reel
second-moment matrices :math:`S_r[t,u] = \sum_s E[g_{t,r} g_{u,r} \mid s]`; the
fish values enter through their exact means and variances (independent per
FISH symbol, section 7).  To split by a count N of symbols in the window (FS in
the base game, KEY in the free spins) each reel's matrix becomes a polynomial
:math:`S_r(z) = \sum_s z^{N_r(s)} E[\ldots \mid s]`; the product over reels is a
convolution in z and an element-wise (Hadamard) product in (t, u), and the
coefficient of :math:`z^n` gives the moments on the event N = n.

WILD multipliers (game file ``multiplier`` of a WILD, :class:`strips.model.WildMultiplier`):
a WILD with multiplier m counts as m in the count of every pay symbol it
substitutes for, so the ways factor of a reel becomes random,
:math:`c_p = n_p + Y_p` with :math:`Y_p` the sum of the multipliers of the
substituting WILDs in the window; the pay stays paytable value x ways.  The
multipliers are drawn independently of the stops, of each other and of the
FISH values, and on every reel separately, so the product form survives with
the factor's conditional mean :math:`E[c_p | s] = n_p + \sum_w n_w(s)\,E[m_w]`
in the first moments and, in :math:`S_r`, the added covariance
:math:`\mathrm{Cov}(c_p, c_q | s) = \sum_w [w \text{ subst. } p, q]\, v_w(s)` with
:math:`v_w = n_w \mathrm{Var}(m_w)` (mode ``wild``: one draw per WILD) or
:math:`v_w = n_w^2 \mathrm{Var}(M_w)` (mode ``reel``: one draw per reel shared
by its WILDs); every mixed FISH/multiplier term is a product of means.  To
stay in integers every factor of a reel whose strip shows a drawn multiplier
is scaled by :math:`D_m` (lcm of the phase's multiplier weight sums): scaling
all rows of a reel by the same integer multiplies every product term alike,
so the scale :math:`\prod_r s_r^2` is divided out once with the number of stop
combinations.  A fixed multiplier is deterministic (m x count).  The
indicator :math:`[c_{p,n} = 0]`, the OAK probabilities and the hit frequency
do not change, since m >= 1.

Per-reel tables are int64 numpy arrays (object arrays if a bound says int64 could
overflow); the cross-reel products are Python integers; Fractions are formed
once, at the end.  Nothing is a float.

References
----------
Rules page sections 6 (ways), 7 (fish values), 8 (collect), 9 (win of a
spin), 10 (trigger), 11 (level multiplier); WILD multipliers.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from math import prod

import numpy as np

from strips.model import FISH, KEY, PAY, SCATTER, WILD, GameModel, MathSet, Phase, window_counts
from markov.moments import CountSplit, PhaseAnalysis, mixed_parts, spin_parts
from exact.enumeration import analyse_phase as enumerated_phase
from exact.polynomials import poly_product
from exact.lines import analyse_lines_phase, combination_table
from exact.rules.registry import phase_path, reel_set_members, reel_set_mixture
from exact.rules import (INT64_SAFE, ReelTerms, combination_wilds, other_scatters,  # noqa: F401
                         scatter_codes, symbol_scatter_pay, trigger_scatter_pay, count_array, extra_counts,
                         factorisation, refuse_ways_rules, trigger_moments, with_drawn_multiplier)
from exact.rules import reel_terms as rules_reel_terms



@dataclass(frozen=True)
class GameAnalysis:
    """Exact one-spin analyses of every phase of a math set.

    Attributes
    ----------
    base : PhaseAnalysis
        The base game (base strips, multiplier 1, weight table ``base``).
    levels : tuple of PhaseAnalysis
        One per free-spin level, level 1 first (free-spin strips, the
        level's multiplier and weight table).
    """

    base: PhaseAnalysis
    levels: tuple[PhaseAnalysis, ...]


def analyse(ms: MathSet) -> GameAnalysis:
    """Exact analysis of the base game and of every free-spin level of a math set.

    Returns
    -------
    GameAnalysis
        All figures exact Fractions in credits per spin.

    Raises
    ------
    ValueError
        If a FISH symbol on a phase's strips has no weight table for that phase.
    """
    model = ms.model
    shared: dict = {}   # strip set -> (OAK probabilities, hit frequency): the same for every level
    base = analyse_phase(ms, model.base_phase, shared)
    levels = tuple(analyse_phase(ms, model.level_phase(lv), shared) for lv in model.levels)
    return GameAnalysis(base=base, levels=levels)


# --------------------------------------------------------------------------
# per-reel window tables
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class ReelTables:
    """Integer tables of one reel's windows, one column per stop.

    Attributes
    ----------
    counts : ndarray, shape (n_symbols, stops), int64
        counts[c, s] = number of symbol code c in the window at stop s.
    ways_count : ndarray, shape (n_pay, stops), int64
        Count of each pay symbol plus every WILD that substitutes for it (section 6).
    keys, scatters : ndarray, shape (stops,), int64
        KEY and scatter counts in the window.
    fish_mean : ndarray, shape (stops,), int64 or object
        D x E[sum of FISH values in the window], credits x D.
    fish_var : ndarray, shape (stops,), int64 or object
        D^2 x Var[sum of FISH values in the window].
    scale : int
        s_r: the integer every factor of this reel is scaled by; D_m (the
        WILD multiplier scale of the phase) if the strip shows a WILD with
        a drawn multiplier, else 1.
    ways_mean : ndarray, shape (n_pay, stops), int64 or object
        s_r x E[c_p | stop]: the ways count of each pay symbol with every
        substituting WILD counted as its multiplier (mean of a drawn one);
        equals ``ways_count`` without WILD multipliers.
    wild_var : ndarray, shape (n_drawn, stops), int64 or object
        For each WILD with a drawn multiplier on the strip (k = 0..n_drawn-1):
        s_r^2 x its variance contribution to every count it enters, n_w
        Var(m) (mode ``wild``) or n_w^2 Var(M) (mode ``reel``).
    wild_subst : ndarray, shape (n_drawn, n_pay), bool
        wild_subst[k, p]: drawn WILD k substitutes for pay symbol p.
    """

    counts: np.ndarray
    ways_count: np.ndarray
    keys: np.ndarray
    scatters: np.ndarray
    fish_mean: np.ndarray
    fish_var: np.ndarray
    scale: int
    ways_mean: np.ndarray
    wild_var: np.ndarray
    wild_subst: np.ndarray

    @property
    def stops(self) -> int:
        return self.counts.shape[1]


_TERMS: dict = {}


def phase_terms(model: GameModel, table: str) -> ReelTerms:
    """The per-reel terms of every rule ``model`` uses for a phase with weight table ``table``, merged
    (:func:`exact.rules.reel_terms`): a part no rule gives is the default (no drawn value: scale 1, moments 0;
    each pay symbol's ways count its plain count, scale 1).  Cached by the model's identity.

    Raises
    ------
    ValueError
        Two rules giving the same part (the factorisation takes one of each).

    >>> from strips.loader import load_math_set
    >>> t = phase_terms(load_math_set("rules_page").model, "base")
    >>> t.value_scale, t.ways_scale
    (1000, 1)
    """
    hit = _TERMS.get((id(model), table))
    if hit is not None and hit[0] is model:
        return hit[1]
    parts = rules_reel_terms(model, table)
    merged: dict = {"value_moments": _no_values(model), "ways_tables": _plain_ways}
    for part in ("value_moments", "ways_tables"):
        given = [t for t in parts if getattr(t, part) is not None]
        if len(given) > 1:
            raise ValueError(f"{given[0].rule} and {given[1].rule} both give the per-reel {part.replace('_', ' ')}")
        if given:
            merged[part] = getattr(given[0], part)
            merged[part.split("_")[0] + "_scale"] = getattr(given[0], part.split("_")[0] + "_scale")
    out = ReelTerms("", key=tuple(t.key for t in parts), **merged)
    if len(_TERMS) > 256:          # the edited models of a sensitivity or tune run: keep the cache small
        _TERMS.clear()
    _TERMS[(id(model), table)] = (model, out)
    return out


def _no_values(model: GameModel):
    """No symbol shows a drawn value: moments 0 for every symbol."""
    return lambda d: (np.zeros(len(model.symbols), dtype=np.int64), np.zeros(len(model.symbols), dtype=np.int64))


def _plain_ways(counts: np.ndarray, pay_codes: np.ndarray, dm: int):
    """Each pay symbol's ways count is its plain count (no symbol counts as another, no multiplier)."""
    ways_count = counts[pay_codes].copy()
    return (ways_count, 1, ways_count, np.zeros((0, counts.shape[1]), dtype=np.int64),
            np.zeros((0, len(pay_codes)), dtype=bool))


def fish_scale(model: GameModel, table: str) -> int:
    """D: the scale of the drawn values of a phase with weight table ``table`` (:func:`phase_terms`)."""
    return phase_terms(model, table).value_scale


def multiplier_scale(model: GameModel, table: str) -> int:
    """D_m: the scale of the drawn multipliers in the ways counts of a phase with weight table ``table``."""
    return phase_terms(model, table).ways_scale


def reel_tables(model: GameModel, strip: np.ndarray, table: str, d: int, dm: int = 1) -> ReelTables:
    """Window tables of one reel strip for a phase with weight table ``table`` (FISH values, WILD multipliers).

    Parameters
    ----------
    model : GameModel
    strip : ndarray, shape (stops,), int64
        Symbol codes of the reel strip.
    table : str
        Weight-table name of the phase (``base``, ``level1``, ...).
    d : int
        Fish scale D (:func:`fish_scale`).
    dm : int
        WILD multiplier scale D_m (:func:`multiplier_scale`); it becomes the
        reel's ``scale`` if the strip shows a WILD with a drawn multiplier.

    Raises
    ------
    ValueError
        If a FISH symbol or a WILD with a drawn multiplier on the strip has
        no weight table ``table``, or ``dm`` is not a multiple of that WILD's
        weight sum (a caller that does not handle drawn multipliers).
    """
    counts = np.ascontiguousarray(window_counts(strip, model.rows, len(model.symbols)).T)   # (symbols, stops)
    kinds = np.array([s.kind for s in model.symbols])
    pay_codes = np.flatnonzero(kinds == PAY)
    keys = counts[kinds == KEY].sum(axis=0)
    # the triggering scatter (and WILDs that count as it); other scatters count on their own
    scatters = counts[list(scatter_codes(model))].sum(axis=0) if model.trigger_symbol else counts[:0].sum(axis=0)
    terms = phase_terms(model, table)      # the rules' per-reel terms: drawn values, ways counts
    mean, var = terms.value_moments(d)
    ways_count, scale, ways_mean, wild_var, wild_subst = terms.ways_tables(counts, pay_codes, dm)
    t = ReelTables(counts=counts, ways_count=ways_count, keys=keys, scatters=scatters,
                   fish_mean=_dot(mean, counts), fish_var=_dot(var, counts),
                   scale=scale, ways_mean=ways_mean, wild_var=wild_var, wild_subst=wild_subst)
    _check_weights(model, [t], table)
    return t


def _dot(per_symbol: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per stop: sum over symbols of a per-symbol value times its count, shape (stops,)."""
    return per_symbol @ counts if per_symbol.dtype != object else per_symbol.dot(counts.astype(object))


def _check_weights(model: GameModel, tables: list, table: str) -> None:
    for code, s in enumerate(model.symbols):
        if s.kind == FISH and table not in s.weights and any(t.counts[code].any() for t in tables):
            raise ValueError(f"{s.name} has no weight table {table!r}")


# --------------------------------------------------------------------------
# product terms
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Term:
    """One product term of the scaled win: kind ``const``, ``ways`` (symbol, oak) or ``collect`` (reels a, b)."""

    kind: str
    coef: int
    symbol: str = ""
    oak: int = 0
    key_reel: int = -1
    fish_reel: int = -1


def product_terms(model: GameModel, tables: list[ReelTables], d: int, combination: int = 1) -> list[Term]:
    """The product terms of D x (ways + collect); terms identically 0 on these strips are left out.

    With a combination WILD multiplier m a symbol it substitutes
    for pays value x (m x all ways + (1 - m) x the ways through no
    combination WILD): a ``ways`` term with coefficient D value m and a
    ``pure`` term with D value (1 - m), both closed by the full count.
    """
    terms = [Term("const", 0)]
    comb = combination_wilds(model)
    for p, sym in enumerate(model.pay_symbols):
        multiplied = combination != 1 and any(w.substitutes_for(sym.name) for w in comb)
        for oak in range(1, model.reels + 1):
            if sym.pays[oak - 1]:
                if multiplied:
                    terms.append(Term("ways", d * sym.pays[oak - 1] * combination, symbol=sym.name, oak=oak))
                    terms.append(Term("pure", d * sym.pays[oak - 1] * (1 - combination), symbol=sym.name, oak=oak))
                else:
                    terms.append(Term("ways", d * sym.pays[oak - 1], symbol=sym.name, oak=oak))
    key_reels = [r for r, t in enumerate(tables) if t.keys.any()]
    fish_reels = [r for r, t in enumerate(tables) if t.fish_mean.any() or t.fish_var.any()]
    for a in key_reels:
        for b in fish_reels:
            terms.append(Term("collect", 1, key_reel=a, fish_reel=b))
    return terms


def term_factors(model: GameModel, terms: list[Term], r: int, t: ReelTables) -> tuple[np.ndarray, np.ndarray]:
    """Reel r's factor of every term (its conditional mean given the stop), scaled by the reel's ``t.scale``.

    Returns
    -------
    x : ndarray, shape (n_terms, stops), int64 (object if large)
        s_r x the deterministic part of g_{t,r}(s); for a ways term on a reel
        of its combination, s_r x E[c_p | s] (WILD multipliers at their mean).
    phi : ndarray, shape (n_terms,), bool
        True where g_{t,r} = x * (D x sum of FISH values on the reel), a random factor.
    """
    pay_index = {s.name: i for i, s in enumerate(model.pay_symbols)}
    dtype = object if t.ways_mean.dtype == object else np.int64
    x = np.full((len(terms), t.stops), t.scale, dtype=dtype)
    phi = np.zeros(len(terms), dtype=bool)
    comb = [model.code(w.name) for w in combination_wilds(model)]
    for i, term in enumerate(terms):
        if term.kind in ("ways", "pure"):
            p = pay_index[term.symbol]
            if r < term.oak:
                x[i] = t.ways_mean[p]
                if term.kind == "pure":   # the ways through no combination WILD (each counted 1, scale 1)
                    x[i] = x[i] - sum(t.counts[c] for c in comb
                                      if model.symbols[c].substitutes_for(term.symbol))
            elif r == term.oak:  # 0-based reel index oak is the reel after the combination
                x[i] = t.scale * (t.ways_count[p] == 0)
        elif term.kind == "collect":
            if r == term.key_reel:
                x[i] = t.scale * t.keys
            if r == term.fish_reel:
                phi[i] = True
    return x, phi


def wild_tags(model: GameModel, terms: list[Term], r: int, t: ReelTables) -> np.ndarray | None:
    """Which drawn WILD multipliers enter each term's factor on reel r, as a bit mask.

    Returns
    -------
    ndarray, shape (n_terms,), int64, or None
        Bit k set where the factor is the ways count c_p of a combination
        running through reel r and drawn WILD k of the reel substitutes for
        p (so the factor is random); None if the reel has no drawn multiplier.
    """
    if not len(t.wild_subst):
        return None
    pay_index = {s.name: i for i, s in enumerate(model.pay_symbols)}
    bits = (t.wild_subst.astype(np.int64) << np.arange(len(t.wild_subst))[:, None]).sum(axis=0)
    return np.array([bits[pay_index[term.symbol]] if term.kind == "ways" and r < term.oak else 0
                     for term in terms], dtype=np.int64)


def distinct_factors(x: np.ndarray, phi: np.ndarray, tags: np.ndarray | None = None):
    """The distinct rows of (phi, drawn-WILD tag, x).

    Two terms whose factors have equal conditional means, the same FISH flag
    and the same drawn-WILD mask are the same random variable, so the
    per-reel matrices need only the distinct rows.

    Returns
    -------
    (x_distinct, phi_distinct, tags_distinct or None, inv)
        inv[t] is the distinct row of term t.
    """
    rows: dict[bytes, int] = {}
    head = phi.astype(np.int64) if tags is None else phi.astype(np.int64) + 2 * tags
    body = x if x.dtype != object else [repr(list(row)).encode() for row in x]
    inv = np.array([rows.setdefault(int(h).to_bytes(8, "little", signed=True) + bytes(row), len(rows))
                    for h, row in zip(head, body)])
    first_of = np.unique(inv, return_index=True)[1]
    return x[first_of], phi[first_of], (None if tags is None else tags[first_of]), inv


def reel_moment_polynomials(x: np.ndarray, phi: np.ndarray, t: ReelTables, counts: dict[str, np.ndarray],
                            iu: np.ndarray, ju: np.ndarray, dedupe=None) -> dict[str, dict[int, np.ndarray]]:
    """Per-reel second-moment matrices, each split by a count of the stop's window.

    Parameters
    ----------
    x : ndarray, shape (n_terms, stops), int64
    phi : ndarray, shape (n_terms,), bool
        From :func:`term_factors`: g_t = x_t, times D x (FISH sum) where phi_t.
    t : ReelTables
    counts : dict str -> ndarray, shape (stops,), int64, or tuple of such arrays
        Named counts per stop (e.g. ``{"scatter": t.scatters, "key": t.keys}``);
        a tuple of arrays splits by the joint counts (keys are then tuples).
    iu, ju : ndarray, shape (n_pairs,), int
        The (t, u) pairs wanted, t <= u (upper triangle).
    dedupe : tuple, optional
        ``distinct_factors(x, phi, tags)`` when already known (then x and phi
        are ignored).

    Returns
    -------
    dict name -> dict (int or tuple of int) -> ndarray, shape (n_pairs,), object (Python ints)
        For each named count, d -> sum over stops s whose count is d of
        E[g_t(s) g_u(s)] = E[g_t | s] E[g_u | s] + Cov(g_t, g_u | s); the
        FISH variance adds x_t x_u D^2 Var[F | s] where phi_t and phi_u, and
        each drawn WILD multiplier k adds its ``t.wild_var[k]`` where both
        tags have bit k (FISH values and multipliers are independent, so no
        mixed covariance).  Scaled by ``t.scale`` squared.

    Notes
    -----
    Many terms share their factor on a reel (e.g. every ways term of a symbol
    whose combination ended before this reel has factor 1), so the matrices
    are computed over the distinct factors only and then expanded.
    """
    x, phi, tags, inv = distinct_factors(x, phi) if dedupe is None else dedupe
    if int(np.max(np.abs(x), initial=0)) * max(int(np.max(t.fish_mean, initial=0)), 1) >= INT64_SAFE:
        x = x.astype(object)   # scaled factors x D x FISH means could overflow int64
    mean_factor = np.where(phi[:, None], t.fish_mean[None, :], 1)
    gbar = x * mean_factor
    xphi = x * phi[:, None]
    big = max(int(np.max(np.abs(gbar), initial=0)), 1) ** 2 * t.stops
    big += max(int(np.max(np.abs(xphi), initial=0)), 1) ** 2 * max(int(np.max(t.fish_var, initial=0)), 1) * t.stops
    wsel = None
    if tags is not None and tags.any():
        wsel = ((tags[:, None] >> np.arange(len(t.wild_var))[None, :]) & 1).astype(np.int64)  # (distinct, n_drawn)
        big += int(t.wild_var.sum())
    dtype = np.int64 if (big < INT64_SAFE and gbar.dtype != object and t.fish_var.dtype != object
                         and t.wild_var.dtype != object) else object
    gbar, xphi, var = gbar.astype(dtype), xphi.astype(dtype), t.fish_var.astype(dtype)
    wvar = t.wild_var.astype(dtype)
    names = list(counts)
    arrays = {n: (counts[n] if isinstance(counts[n], tuple) else (counts[n],)) for n in names}
    code = np.zeros(t.stops, dtype=np.int64)
    for n in names:
        for arr in arrays[n]:
            code = code * (int(arr.max(initial=0)) + 1) + arr
    _, first, ginv = np.unique(code, return_index=True, return_inverse=True)
    groups = [tuple(tuple(int(arr[i]) for arr in arrays[n]) if isinstance(counts[n], tuple)
                    else int(counts[n][i]) for n in names) for i in first]
    ginv = ginv.reshape(-1)
    acc: dict[str, dict] = {n: {} for n in names}
    for gi, g in enumerate(groups):
        sel = ginv == gi
        gb = gbar[:, sel]
        m = gb @ gb.T
        if phi.any():
            xp = xphi[:, sel]
            m = m + (xp * var[sel][None, :]) @ xp.T
        if wsel is not None:
            m = m + (wsel.astype(dtype) * wvar[:, sel].sum(axis=1)[None, :]) @ wsel.T.astype(dtype)
        for n, d in zip(names, g):   # sums over stops stay within the int64 bound checked above
            acc[n][d] = acc[n][d] + m if d in acc[n] else m
    a, b = inv[iu], inv[ju]
    return {n: {d: m[a, b].astype(object) for d, m in acc[n].items()} for n in names}


def read_moments(acc: dict, coef, total: int, d: int, multiplier: int) -> dict:
    """count -> (P, E[W 1{count}], E[W^2 1{count}]) as Fractions, credits, W including the multiplier.

    ``acc`` holds, per count, the upper-triangle entries (flattened) of the
    product matrices; ``coef`` = (first-moment weights, second-moment
    weights) over the same flattened (t, u) order.
    """
    w1, w2 = coef
    return {n: (Fraction(int(v[0]), total),
                Fraction(int(w1.dot(v)) * multiplier, total * d),
                Fraction(int(w2.dot(v)) * multiplier * multiplier, total * d * d))
            for n, v in acc.items()}


def to_split(moments: dict) -> CountSplit:
    """A CountSplit from count -> (P, E[W 1], E[W^2 1]); missing counts are 0."""
    zero = (Fraction(0),) * 3
    rows = [moments.get(n, zero) for n in range(max(moments) + 1)]
    return CountSplit(prob=tuple(r[0] for r in rows), win=tuple(r[1] for r in rows), win2=tuple(r[2] for r in rows))


def with_scatter_pays(joint: dict, model: GameModel, multiplier: int) -> dict:
    """Add the scatter pays (each scatter symbol on its own count) to joint moments keyed
    (n triggering scatters, k KEY, :func:`extra_counts` ...).

    With W' = W + m SP: E[W' 1] = E[W 1] + m SP P and
    E[W'^2 1] = E[W^2 1] + 2 m SP E[W 1] + m^2 SP^2 P, SP the sum of the
    triggering scatter's pay for n and each other paying scatter's pay for its count.
    """
    others = [(i, model.symbol(a[3:])) for i, a in enumerate(extra_counts(model), start=2) if a.startswith("sc:")]
    out = {}
    for key, (p, w1, w2) in joint.items():
        sp = multiplier * (trigger_scatter_pay(model, key[0]) + sum(symbol_scatter_pay(s, key[i]) for i, s in others))
        out[key] = (p, w1 + sp * p, w2 + 2 * sp * w1 + sp * sp * p)
    return out


def marginal(joint: dict, axis: int) -> dict:
    """Sum joint moments keyed by tuples over every axis but ``axis``."""
    out: dict = {}
    for key, vals in joint.items():
        k = key[axis]
        out[k] = tuple(a + b for a, b in zip(out[k], vals)) if k in out else vals
    return out


@dataclass(frozen=True)
class SpinTerms:
    """The product-term machinery of one phase's spin: per-reel tables, terms, distinct factors, read-out weights.

    Attributes
    ----------
    tables : list of ReelTables, one per reel
    terms : list of Term
    dedupes : list, one per reel
        :func:`distinct_factors` of each reel's term factors.
    total : int
        Stop combinations times prod s_r^2 (the divisor of every read-out).
    d : int
        Fish scale D.
    multiplier : int
        The phase's win multiplier.
    iu, ju : ndarray, shape (n_pairs,), int
        The (t, u) pairs, t <= u.
    w1, w2 : ndarray, shape (n_pairs,), object
        First- and second-moment weights over the pairs (:func:`read_moments`).
    """

    tables: list
    terms: list
    dedupes: list
    total: int
    d: int
    multiplier: int
    iu: np.ndarray
    ju: np.ndarray
    w1: np.ndarray
    w2: np.ndarray


def spin_terms(ms: MathSet, phase: Phase, shared: dict | None = None, combination: int = 1) -> SpinTerms:
    """The per-reel tables, product terms and read-out weights of one spin of ``phase`` (module docstring).

    ``shared`` caches the parts that depend on the strips only (as in :func:`analyse_phase`).
    ``combination``: the value of a combination WILD multiplier this spin is computed for.

    Raises
    ------
    ValueError
        If a FISH symbol on the phase's strips has no weight table for the phase.
    """
    model = ms.model
    shared = {} if shared is None else shared
    strips = ms.phase_strips(phase)
    rt = phase_terms(model, phase.weights)
    d, dm = rt.value_scale, rt.ways_scale
    # the rules' per-reel terms of the phase (scales, drawn multiplier tables) shape the factors: the cache key
    key = ("structure", phase.strips, rt.key, combination)
    if key in shared:   # same strips, scales and multiplier tables: only the drawn values' moments differ
        tables, terms, dedupes = shared[key]
        mean, var = rt.value_moments(d)
        _check_weights(model, tables, phase.weights)
        tables = [dataclasses.replace(t, fish_mean=_dot(mean, t.counts), fish_var=_dot(var, t.counts))
                  for t in tables]
    else:
        tables = [reel_tables(model, s, phase.weights, d, dm) for s in strips.codes]
        terms = product_terms(model, tables, d, combination)
        dedupes = [distinct_factors(*term_factors(model, terms, r, t), wild_tags(model, terms, r, t))
                   for r, t in enumerate(tables)]
        shared[key] = (tables, terms, dedupes)
    # every factor of reel r carries s_r: the second-moment products carry prod s_r^2 (1 without
    # drawn WILD multipliers), divided out with the number of stop combinations
    total = prod(t.stops for t in tables) * prod(t.scale for t in tables) ** 2
    mult = phase.multiplier

    iu, ju = np.triu_indices(len(terms))
    a = np.array([term.coef for term in terms], dtype=object)
    w1 = np.where(iu == 0, a[ju], 0).astype(object)                       # row 0: E[g_u]
    w2 = (a[iu] * a[ju] * np.where(iu == ju, 1, 2)).astype(object)       # sum over t <= u
    return SpinTerms(tables=tables, terms=terms, dedupes=dedupes, total=total, d=d, multiplier=mult,
                     iu=iu, ju=ju, w1=w1, w2=w2)


def analyse_phase(ms: MathSet, phase: Phase, shared: dict | None = None) -> PhaseAnalysis:
    """Exact analysis of one spin of ``phase`` over all stop combinations.

    Parameters
    ----------
    ms : MathSet
    phase : Phase
        ``model.base_phase`` or ``model.level_phase(level)``.
    shared : dict, optional
        Cache of the figures that depend on the strips only (OAK
        probabilities, hit frequency), keyed by strip set; phases on the
        same strips (the free-spin levels) compute them once.

    Returns
    -------
    PhaseAnalysis
        E[W], E[W^2], the ways/collect split, ways per symbol and OAK, OAK
        probabilities, the splits by scatter count and by KEY count, and the
        hit frequency; Fractions, credits per spin, W including the phase's
        multiplier.

    Raises
    ------
    ValueError
        If a FISH symbol on the phase's strips has no weight table for the phase.

    References
    ----------
    Rules page sections 6-11; the factorisation is described in the module docstring.
    """
    sets = reel_set_members(ms.model, phase.strips)   # a reel set drawn by weight per spin: the mixture of its sets
    if sets is not None:
        return reel_set_mixture([(w, _one_reel_set(ms, dataclasses.replace(phase, strips=name), shared))
                                 for name, w in sets if w], phase, PhaseAnalysis)
    return _one_reel_set(ms, phase, shared)


def _one_reel_set(ms: MathSet, phase: Phase, shared: dict | None = None) -> PhaseAnalysis:
    """:func:`analyse_phase` of ``phase`` on the one reel set it names."""
    model = ms.model
    path = phase_path(model)      # a rule without per-reel terms: its fast path, or exact enumeration
    if path is not None:
        fast = None if path == "enumeration" else path(ms, phase)     # None: the fast path declines this game
        return fast if fast is not None else enumerated_phase(ms, phase, shared)
    # a multiplier drawn per free spin mixes the phase (exact.rules.drawn_multiplier)
    return with_drawn_multiplier(model, phase, FACTORISATIONS[factorisation(model)](ms, phase, shared))


def _ways_phase(ms: MathSet, phase: Phase, shared: dict | None = None) -> PhaseAnalysis:
    """:func:`analyse_phase` of a ways game: the ways factorisation (a combination WILD multiplier mixes
    one analysis per value it draws)."""
    model = ms.model
    refuse_ways_rules(model)
    shared = {} if shared is None else shared
    if combination_wilds(model):   # one value per spin: each value's analysis, mixed by its exact weight
        parts = [(Fraction(w), _analyse_ways(ms, phase, shared, m))
                 for m, w in combination_table(model, phase.weights) if w]
        return mix_analyses(parts)
    return _analyse_ways(ms, phase, shared)


#: The engine's factorisation per evaluation rule (:attr:`exact.rules.Rule.factorisation`): the ways'
#: per-reel count products, the paylines' per-line chains (:mod:`exact.lines`).
FACTORISATIONS = {"ways": _ways_phase, "lines": lambda ms, phase, shared=None: analyse_lines_phase(ms, phase)}


def mix_analyses(parts: list[tuple[Fraction, PhaseAnalysis]]) -> PhaseAnalysis:
    """The mixture of phase analyses with weights (a value drawn per spin independently of the stops):
    every mean, moment and split averaged; OAK probabilities and the hit frequency (which the
    draw does not change) taken from the first."""
    total = sum(w for w, _ in parts)
    first = parts[0][1]

    def avg(get):
        return sum((w * get(a) for w, a in parts), Fraction(0)) / total

    def split(get):
        if get(first) is None:
            return None
        n = max(len(get(a).prob) for _, a in parts)
        pad = (lambda t: tuple(t) + (Fraction(0),) * (n - len(t)))
        return CountSplit(*(tuple(sum(w * pad(getattr(get(a), f))[i] for w, a in parts) / total for i in range(n))
                            for f in ("prob", "win", "win2")))

    return dataclasses.replace(
        first, mean=avg(lambda a: a.mean), second=avg(lambda a: a.second), parts=mixed_parts(parts, total),
        ways_by_symbol={s: tuple(avg(lambda a, s=s, i=i: a.ways_by_symbol[s][i]) for i in range(len(v)))
                        for s, v in first.ways_by_symbol.items()},
        by_scatter=split(lambda a: a.by_scatter), by_key=split(lambda a: a.by_key),
        by_trigger=split(lambda a: a.by_trigger))


def _analyse_ways(ms: MathSet, phase: Phase, shared: dict, combination: int = 1) -> PhaseAnalysis:
    """:func:`analyse_phase` of a ways game for one value of its combination WILD multiplier."""
    model = ms.model
    st = spin_terms(ms, phase, shared, combination)
    tables, terms, dedupes, total, d, mult = st.tables, st.terms, st.dedupes, st.total, st.d, st.multiplier
    n_terms, iu, ju, w1, w2 = len(terms), st.iu, st.ju, st.w1, st.w2

    scatter_pays = any(s.pays and any(s.pays) for s in model.of_kind(SCATTER))
    extra = extra_counts(model)
    # split by the scatter count and by the KEY count; with scatter pays (or the catalogue rules' counts:
    # trigger reels, other paying scatters), by all of them jointly
    wanted = ({"joint": ("scatters", "keys") + extra} if scatter_pays or extra
              else {"scatter": "scatters", "key": "keys"})
    for name, attr in (("scatter", "scatters"), ("key", "keys")):
        if name in wanted and not any(getattr(t, attr).any() for t in tables):
            del wanted[name]   # the count is 0 on every stop: its split is one bucket, read off the other
            if not wanted:
                wanted = {name: attr}
    per_reel = []
    for r, t in enumerate(tables):
        counts = {name: (tuple(count_array(model, t, r, a) for a in attr) if isinstance(attr, tuple)
                         else getattr(t, attr)) for name, attr in wanted.items()}
        per_reel.append(reel_moment_polynomials(None, None, t, counts, iu, ju, dedupes[r]))
    moments = {name: read_moments(poly_product([p[name] for p in per_reel]), (w1, w2), total, d, mult)
               for name in wanted}
    by_trigger = None
    if "joint" in moments:
        joint = with_scatter_pays(moments["joint"], model, mult)
        trig = trigger_moments(model, joint)   # the trigger reels' count that awards free spins
        by_trigger = None if trig is None else to_split(trig)
        moments = {"scatter": marginal(joint, 0), "key": marginal(joint, 1)}
    for name in ("scatter", "key"):
        if name not in moments:   # never in the window: all of the spin is the count-0 bucket
            moments[name] = {0: tuple(sum(v[i] for v in next(iter(moments.values())).values()) for i in range(3))}
    by = {name: to_split(moments[name]) for name in ("scatter", "key")}
    # first moments sum_s E[g_u(s)] are the pairs (0, u): the first n_terms entries of the triangle
    first = [sum(next(iter(p.values())).values())[:n_terms] for p in per_reel]

    # ways by symbol and OAK: a_t prod_r E[g_{t,r}]
    prod_first = np.ones(n_terms, dtype=object)
    for f in first:
        prod_first = prod_first * f
    ways_by_symbol = {s.name: [Fraction(0)] * model.reels for s in model.pay_symbols}
    collect_total = 0
    for i, term in enumerate(terms):
        if term.kind in ("ways", "pure"):
            ways_by_symbol[term.symbol][term.oak - 1] += Fraction(term.coef * int(prod_first[i]) * mult, total * d)
        elif term.kind == "collect":
            collect_total += int(prod_first[i])
    ways_by_symbol = {k: tuple(v) for k, v in ways_by_symbol.items()}
    collect_mean = Fraction(collect_total * mult, total * d)
    ways_mean = sum((sum(v) for v in ways_by_symbol.values()), Fraction(0))
    scatter_mean = by["scatter"].mean - ways_mean - collect_mean

    if phase.strips not in shared:
        shared[phase.strips] = (oak_probabilities(model, tables), hit_frequency(model, tables))
    oak_prob, hit = shared[phase.strips]
    return PhaseAnalysis(
        phase=phase,
        mean=by["scatter"].mean,
        second=by["scatter"].second,
        parts=spin_parts(ways_mean, collect_mean, scatter_mean),
        ways_by_symbol=ways_by_symbol,
        oak_prob=oak_prob,
        by_scatter=by["scatter"],
        by_key=by["key"],
        by_trigger=by_trigger,
        hit_frequency=hit,
    )


def oak_probabilities(model: GameModel, tables: list[ReelTables]) -> dict[str, tuple[Fraction, ...]]:
    """P(the combination of each pay symbol has exactly OAK = n), n = 1..reels (section 6).

    P(OAK = n) = prod_{r < n} P(c_r > 0) x P(c_n = 0), with c the count of the
    symbol plus WILD on a reel; the last reel has no closing factor.
    """
    out = {}
    for p, sym in enumerate(model.pay_symbols):
        present = [int((t.ways_count[p] > 0).sum()) for t in tables]
        sizes = [t.stops for t in tables]
        probs = []
        for n in range(1, model.reels + 1):
            num = prod(present[:n])
            den = prod(sizes[:n])
            if n < model.reels:
                num *= sizes[n] - present[n]
                den *= sizes[n]
            probs.append(Fraction(num, den))
        out[sym.name] = tuple(probs)
    return out


def hit_frequency(model: GameModel, tables: list[ReelTables]) -> Fraction:
    """P(win > 0): some pay symbol pays, a KEY and a FISH are both in the window, or the scatters pay.

    Exact dynamic programme over the reels: the state is (set of pay symbols
    whose combination is still running, as a bit mask; a KEY seen; a FISH
    seen; the scatter count, capped where the scatter paytable ends) with an
    integer count of stop prefixes; a prefix in which a symbol's
    combination ended with a paying OAK leaves the programme into a won count.
    FISH values are all positive, so collect > 0 iff a KEY and a FISH are
    both in the window (section 8); a pay symbol pays iff its paytable value
    at its OAK is > 0 (section 6).  Counts are int64 (object if the number
    of stop combinations could overflow it).
    """
    pays = [sym.pays for sym in model.pay_symbols]
    n_pay = len(pays)
    fish_codes = [c for c, s in enumerate(model.symbols) if s.kind == FISH and all(v > 0 for v in s.values)]
    total = prod(t.stops for t in tables)
    dtype = np.int64 if total < INT64_SAFE and n_pay < 62 else object
    bitval = np.array([1 << p for p in range(n_pay)], dtype=dtype)
    # state arrays: mask, key flag, fish flag, count
    mask = np.array([(1 << n_pay) - 1], dtype=dtype)
    flag = np.zeros(1, dtype=np.int64)          # bit 0: KEY seen, bit 1: FISH seen, bits 2+: scatter count
    count = np.ones(1, dtype=dtype)
    won = 0
    # scatter counts matter up to the last entry of a scatter paytable; each paying scatter symbol
    # has its own field of bits above the KEY and FISH bits (each counts on its own)
    trig = model.trigger_symbol
    fields = [(None, trig)] if trig is not None and trig.pays else []
    fields += [(model.code(x.name), x) for x in other_scatters(model) if x.pays and any(x.pays)]
    caps = [len(x.pays) for _, x in fields]
    shifts = [2 + sum(c.bit_length() for c in caps[:i]) for i in range(len(caps))]
    # sure[L]: symbols whose every OAK from L on pays, so a combination of length L is a sure win
    sure = [sum(1 << p for p in range(n_pay) if L >= 1 and all(v > 0 for v in pays[p][L - 1:]))
            for L in range(model.reels + 1)]
    for r, t in enumerate(tables):
        bits = (t.ways_count > 0).astype(dtype).T @ bitval if n_pay else np.zeros(t.stops, dtype=dtype)
        has_fish = t.counts[fish_codes].sum(axis=0) > 0 if fish_codes else np.zeros(t.stops, dtype=bool)
        cflag = (t.keys > 0).astype(np.int64) | (has_fish.astype(np.int64) << 1)
        for (code, _), cap, sh in zip(fields, caps, shifts):
            cflag = cflag | (np.minimum(t.scatters if code is None else t.counts[code], cap).astype(np.int64) << sh)
        # group the reel's stops into classes (presence mask, flags)
        ccode = np.stack([bits.astype(object) if dtype is object else bits, cflag]).T
        classes, ccount = np.unique(ccode, axis=0, return_counts=True) if dtype is not object else \
            _unique_rows(ccode)
        cmask, cfl = classes[:, 0].astype(dtype), classes[:, 1].astype(np.int64)
        pay_here = sum(1 << p for p in range(n_pay) if r > 0 and pays[p][r - 1] > 0)  # OAK = r ends here
        won *= t.stops
        nm = mask[:, None] & cmask[None, :]
        ended = mask[:, None] & ~cmask[None, :]
        nc = count[:, None] * ccount.astype(dtype)[None, :]
        nf = (flag[:, None] | cfl[None, :]) & 3
        for cap, sh in zip(caps, shifts):
            mask_f = (1 << cap.bit_length()) - 1
            nf = nf | (np.minimum(((flag[:, None] >> sh) & mask_f) + ((cfl[None, :] >> sh) & mask_f), cap) << sh)
        # paid: a combination ended at a paying OAK; sure: a running combination pays whatever follows
        paid = ((ended & pay_here) != 0) | ((nm & sure[r + 1]) != 0)
        won += int(nc[paid].sum())
        keep = ~paid
        mask, flag, count = _aggregate(nm[keep], nf[keep], nc[keep])
    last = sum(1 << p for p in range(n_pay) if pays[p][model.reels - 1] > 0)
    final = ((mask & last) != 0) | ((flag & 3) == 3)
    for (_, sym), cap, sh in zip(fields, caps, shifts):
        paid = np.array([symbol_scatter_pay(sym, n) > 0 for n in range(cap + 1)])
        final = final | paid[(flag >> sh) & ((1 << cap.bit_length()) - 1)]
    won += int(count[final].sum())
    return Fraction(won, total)


def _unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    seen: dict[tuple, int] = {}
    for row in map(tuple, rows):
        seen[row] = seen.get(row, 0) + 1
    return np.array(list(seen), dtype=object), np.array(list(seen.values()), dtype=np.int64)


def _aggregate(mask: np.ndarray, flag: np.ndarray, count: np.ndarray):
    """Sum the counts of equal (mask, flag) states, exactly (integer reduceat)."""
    if len(mask) == 0:
        return mask, flag, count
    order = np.lexsort((flag, mask)) if mask.dtype != object else \
        np.array(sorted(range(len(mask)), key=lambda i: (mask[i], flag[i])))
    mask, flag, count = mask[order], flag[order], count[order]
    start = np.ones(len(mask), dtype=bool)
    start[1:] = (mask[1:] != mask[:-1]) | (flag[1:] != flag[:-1])
    idx = np.flatnonzero(start)
    return mask[idx], flag[idx], np.add.reduceat(count, idx)
