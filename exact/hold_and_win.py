r"""Hold-and-win round figures, exactly: the base spin split by its coins' cells, then the chain.

The round win is ``W = X + F``: ``X`` the base spin's pays, ``F`` the feature's (zero unless the base
window shows at least ``trigger`` coins).  Given the triggering window's coin cells ``h0`` (one mask
per reel), ``F`` is independent of ``X`` (the respins and every value draw are new), and depends on
``h0`` only through the law of the final coin count ``N`` (:func:`markov.hold_and_win.final_law`) and
``k = |h0|``: with ``S_b`` the sum of the ``k`` base-drawn values, ``S_r`` of the ``N - k`` respin-drawn
ones and ``J`` the ``full`` award when ``N`` = cells,

.. math::  E[W] = E[X] + \sum_{h_0} P(h_0) E[F | h_0], \qquad
           E[W^2] = E[X^2] + \sum_{h_0} P(h_0) E[F^2 | h_0] + 2 \sum_{h_0} E[X 1\{h_0\}] E[F | h_0].

``P(h0)`` and ``E[X 1{h0}]`` are products over reels: ``X`` is a sum of products of per-reel factors
(:mod:`exact.engine`'s ways terms), so ``E[X 1{h0}] = sum_u a_u prod_r S_{u,r}(h0_r)`` with
``S_{u,r}(m)`` the sum of term ``u``'s factor over the stops of reel ``r`` whose window shows coins on
the rows of ``m``.  Award odds per round follow from the same sums: the trigger, the full window,
every value's expected count and every jackpot's probability (at least one coin of it, or the
``full`` award naming it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import prod

import numpy as np

from exact.engine import spin_terms
from exact.formatting import decimal_text
from exact.rules import HoldAndWin, value_moments
from markov.hold_and_win import final_law, reel_groups
from strips.errors import UnsupportedRule
from strips.model import MathSet, window_codes

__all__ = ["HoldAndWinSection", "hold_and_win_section", "hold_and_win_spin", "coin_masks", "MAX_CELLS"]

#: The largest window (cells) whose coin cells are split exactly (2^cells held sets).
MAX_CELLS = 20


def coin_masks(strip, rows: int, coin: int) -> np.ndarray:
    """Per stop of one reel strip, the bit mask of the window's rows showing the coin (bit i = row i).

    >>> coin_masks(np.array([5, 1, 5, 5]), 2, 5).tolist()
    [1, 2, 3, 3]
    """
    win = window_codes(strip, rows)
    return ((win == coin).astype(np.int64) << np.arange(rows)[None, :]).sum(axis=1)


@dataclass(frozen=True)
class HoldAndWinSection:
    """The hold-and-win part of the PAR sheet (credits per round unless said; ``bet`` credits per round).

    Attributes
    ----------
    trigger : Fraction
        P(the base window starts the feature), per round.
    feature : Fraction
        E[F]: credits per round won in the feature (its RTP share times the bet).
    mean : Fraction
        E[F | the feature starts]: credits per feature.
    full : Fraction
        P(every cell holds a coin at the end), per round.
    respins : Fraction
        Expected respins played per feature.
    coins : tuple of Fraction
        P(n coins held at the end | the feature starts), n = 0..cells.
    awards : dict {value text: Fraction}
        Expected coins of each value per round.
    jackpots : dict {name: Fraction}
        P(the round wins jackpot NAME at least once), per round.
    round_mean, round_second : Fraction
        E[W], E[W^2] of the round (credits, credits^2).
    states : int
        Held sets the chain solved (canonical under exchangeable reels; times the counter's values this
        is the protocol chain's size folded by symmetry).
    starts : int
        Distinct triggering held sets (canonical).
    """

    bet: int
    trigger: Fraction
    feature: Fraction
    mean: Fraction
    full: Fraction
    respins: Fraction
    coins: tuple
    awards: dict
    award_credits: dict
    jackpots: dict
    round_mean: Fraction
    round_second: Fraction
    states: int
    starts: int
    counter: int
    reached: bool = True
    values: dict = field(default_factory=dict)

    @property
    def method(self) -> str:
        return (f"per-reel factorisation of the base spin split by its coins' cells; the hold-and-win chain "
                f"over {self.states:,} held sets x {self.counter} respin counts")

    def overrides(self) -> dict:
        return {"mean": self.round_mean, "second": self.round_second}

    def components(self) -> dict:
        """The round's component this feature adds (credits per round)."""
        return {"hold_and_win": self.feature}

    def figures(self) -> dict:
        """The JSON report's ``hold_and_win`` figures."""
        return {"trigger": self.trigger, "rtp": self.feature / self.bet, "mean": self.mean, "full": self.full,
                "respins": self.respins,
                "awards": {t: {"per_round": n, "rtp": self.award_credits[t] / self.bet} for t, n in self.awards.items()},
                "jackpots": dict(self.jackpots),
                "coins_at_end": {str(n): p for n, p in enumerate(self.coins) if p},
                "states": self.states}

    def lines(self) -> list[str]:
        def one_in(p):
            return f"1 in {float(1 / p):,.2f}" if p else "never"

        out = [f"method       {self.method}",
               f"hold & win   starts with probability {decimal_text(self.trigger, 8)} ({one_in(self.trigger)}); "
               f"RTP {decimal_text(100 * self.feature / self.bet, 6)}%; mean {decimal_text(self.mean, 4)} credits "
               f"per feature; {decimal_text(self.respins, 4)} respins per feature",
               f"  full       {decimal_text(self.full, 10)} per round ({one_in(self.full)})"]
        for name, p in self.jackpots.items():
            out.append(f"  jackpot    {name}: {decimal_text(p, 10)} per round ({one_in(p)})")
        for t, n in self.awards.items():
            out.append(f"  value      {t}: {decimal_text(n, 8)} coins per round, RTP "
                       f"{decimal_text(100 * self.award_credits[t] / self.bet, 6)}%")
        shown = ", ".join(f"{n}: {decimal_text(p, 6)}" for n, p in enumerate(self.coins) if p)
        out.append(f"  coins held at the end (per feature) {shown}")
        return out


def _base_split(ms: MathSet, coin: int):
    """(count of base stop combinations, sum of the base win over them) per full coin mask, as arrays over
    every mask code sum_r m_r << (rows r); and the number of base combinations."""
    model = ms.model
    rows, reels = model.rows, model.reels
    st = spin_terms(ms, model.base_phase)
    if st.d != 1 or any(t.scale != 1 for t in st.tables) or st.multiplier != 1:
        raise UnsupportedRule("unsupported rule: hold and win with drawn values in the base spin",
                              rule=HoldAndWin.name, analysis="report")
    size = 1 << rows
    counts, sums = [], []
    for r, strip in enumerate(ms.strips["base"].codes):
        masks = coin_masks(strip, rows, coin)
        x, _, _, inv = st.dedupes[r]
        counts.append(np.bincount(masks, minlength=size).astype(object))
        s = np.zeros((x.shape[0], size), dtype=object)
        for m in range(size):
            sel = masks == m
            if sel.any():
                s[:, m] = [int(v) for v in x[:, sel].sum(axis=1)]
        sums.append(s[inv])                       # (terms, masks)
    codes = np.arange(1 << (rows * reels), dtype=np.int64)
    digits = [(codes >> (rows * r)) & (size - 1) for r in range(reels)]
    coef = [term.coef for term in st.terms]
    # int64 when every product and the sum over terms stay below 2^62, else Python integers
    bound = sum(abs(a) for a in coef) * prod(max(int(np.abs(s).max()), 1) for s in sums)
    bound = max(bound, prod(len(s) for s in ms.strips["base"].codes))
    dtype = np.int64 if bound < 2 ** 62 else object
    counts = [c.astype(dtype) for c in counts]
    sums = [s.astype(dtype) for s in sums]
    count = np.ones(len(codes), dtype=dtype)
    for r in range(reels):
        count = count * counts[r][digits[r]]
    xsum = np.zeros(len(codes), dtype=dtype)
    for u, a in enumerate(coef):
        if a:
            f = np.full(len(codes), a, dtype=dtype)
            for r in range(reels):
                f = f * sums[r][u][digits[r]]
            xsum = xsum + f
    count, xsum = count.astype(object), xsum.astype(object)
    return count, xsum, digits, prod(len(s) for s in ms.strips["base"].codes)


def hold_and_win_section(ms: MathSet, base_mean: Fraction, base_second: Fraction) -> HoldAndWinSection:
    """The exact hold-and-win figures of ``ms`` (module docstring); ``base_mean``, ``base_second`` are
    E[X], E[X^2] of its base spin (credits, credits^2).

    Raises
    ------
    strips.errors.UnsupportedRule
        A window of more than :data:`MAX_CELLS` cells, or drawn values in the base spin.

    Examples
    --------
    >>> import exact
    >>> ms = exact.load_math_set("hold_and_win")
    >>> s = exact.par_sheet(ms).sections["hold and win"]
    >>> s.round_mean == exact.par_sheet(ms).mean_win
    True
    """
    model = ms.model
    config = HoldAndWin.config(model)
    rows, reels, cells = model.rows, model.reels, model.reels * model.rows
    if cells > MAX_CELLS:
        raise UnsupportedRule(f"unsupported rule: hold and win on {cells} cells (at most {MAX_CELLS} are split "
                              f"exactly)", rule=HoldAndWin.name, analysis="report")
    coin = model.code(config.symbol)
    count, xsum, digits, total = _base_split(ms, coin)
    if Fraction(int(xsum.sum()), total) != base_mean:
        raise ValueError("hold and win: the base spin split by coin cells does not sum to the base mean")
    respin_masks = [tuple(int(m) for m in coin_masks(s, rows, coin)) for s in ms.strips[config.strips].codes]
    groups = reel_groups(respin_masks)
    size = 1 << rows
    pc = np.array([bin(m).count("1") for m in range(size)], dtype=np.int64)
    k_all = sum(pc[d] for d in digits)
    stacked = np.stack(digits, axis=1)
    for g in groups:
        stacked[:, g] = np.sort(stacked[:, g], axis=1)
    canon = sum(stacked[:, r] << (rows * r) for r in range(reels))
    trig = k_all >= config.trigger
    keys, inv = np.unique(canon[trig], return_inverse=True)
    c_sum = np.zeros(len(keys), dtype=object)
    x_sum = np.zeros(len(keys), dtype=object)
    np.add.at(c_sum, inv.reshape(-1), count[trig])
    np.add.at(x_sum, inv.reshape(-1), xsum[trig])
    starts = [tuple(int(key >> (rows * r)) & (size - 1) for r in range(reels)) for key in keys]
    chain = final_law(respin_masks, rows, config.respins, starts)

    mb, m2b = value_moments(config, "base")
    mr, m2r = value_moments(config, "respin")
    vb, vr = m2b - mb * mb, m2r - mr * mr
    big_j = config.full_credits
    law_b = config.law("base")
    law_r = config.law("respin")
    jackpot_names = list(dict.fromkeys([v.jackpot for v, _ in law_b + law_r if v.jackpot]
                                       + ([config.full.jackpot] if config.full and config.full.jackpot else [])))
    p_jb = {j: sum((p for v, p in law_b if v.jackpot == j), Fraction(0)) for j in jackpot_names}
    p_jr = {j: sum((p for v, p in law_r if v.jackpot == j), Fraction(0)) for j in jackpot_names}
    texts = list(dict.fromkeys(v.text for v in config.values))
    pb = {t: sum((p for v, p in law_b if v.text == t), Fraction(0)) for t in texts}
    prr = {t: sum((p for v, p in law_r if v.text == t), Fraction(0)) for t in texts}
    credits_of = {v.text: v.credits for v in config.values}

    zero = Fraction(0)
    trigger = feature = second_f = cross = full = respins = zero
    coins = [zero] * (cells + 1)
    awards = {t: zero for t in texts}
    no_jackpot = {j: zero for j in jackpot_names}
    for start, c, xs in zip(starts, c_sum, x_sum):
        p0 = Fraction(int(c), total)
        e_x = Fraction(int(xs), total)
        law, resp = chain.of(start)
        k = sum(bin(m).count("1") for m in start)
        ef = ef2 = zero
        m_mean = zero
        for n, pn in enumerate(law):
            if not pn:
                continue
            m = n - k
            j = big_j if n == cells else 0
            ef += pn * (k * mb + m * mr + j)
            ef2 += pn * (k * vb + k * k * mb * mb + m * vr + m * m * mr * mr + j * j
                         + 2 * k * mb * m * mr + 2 * j * (k * mb + m * mr))
            m_mean += pn * m
            coins[n] += p0 * pn
            for name in jackpot_names:
                if not (n == cells and config.full and config.full.jackpot == name):
                    no_jackpot[name] += p0 * pn * (1 - p_jb[name]) ** k * (1 - p_jr[name]) ** m
        trigger += p0
        feature += p0 * ef
        second_f += p0 * ef2
        cross += e_x * ef
        full += p0 * law[cells]
        respins += p0 * resp
        for t in texts:
            awards[t] += p0 * (k * pb[t] + m_mean * prr[t])
    per = (lambda x: x / trigger) if trigger else (lambda x: zero)
    return HoldAndWinSection(
        bet=model.bet, trigger=trigger, feature=feature, mean=per(feature), full=full, respins=per(respins),
        coins=tuple(per(p) for p in coins), awards=awards,
        award_credits={t: n * credits_of[t] for t, n in awards.items()},
        jackpots={j: trigger - no_jackpot[j] for j in jackpot_names},
        round_mean=base_mean + feature, round_second=base_second + second_f + 2 * cross,
        states=chain.states, starts=len(starts), counter=config.respins)


def hold_and_win_spin(ms: MathSet, window) -> dict:
    """What one base window starts: ``coins`` in view, ``trigger`` (the coins needed), ``starts``, and when
    it starts the feature, its exact ``mean`` (E[F | this window], credits), ``full`` (P(full)),
    ``respins`` (expected respins) and ``coins_at_end`` {n: P}; ``window`` is reels x rows of symbol names.

    >>> import exact
    >>> ms = exact.load_math_set("hold_and_win")
    >>> hold_and_win_spin(ms, ms.strips["base"].window([0, 0, 0, 0, 0], 3))["coins"]
    4
    """
    model = ms.model
    config = HoldAndWin.config(model)
    held = tuple(sum(1 << i for i, x in enumerate(col) if x == config.symbol) for col in window)
    k = sum(bin(m).count("1") for m in held)
    out: dict = {"coins": k, "trigger": config.trigger, "starts": k >= config.trigger}
    if not out["starts"]:
        return out
    cells = model.reels * model.rows
    coin = model.code(config.symbol)
    masks = [tuple(int(m) for m in coin_masks(s, model.rows, coin)) for s in ms.strips[config.strips].codes]
    law, respins = final_law(masks, model.rows, config.respins, [held]).of(held)
    mb, _ = value_moments(config, "base")
    mr, _ = value_moments(config, "respin")
    mean = sum((p * (k * mb + (n - k) * mr + (config.full_credits if n == cells else 0))
                for n, p in enumerate(law)), Fraction(0))
    out.update(mean=mean, full=law[cells], respins=respins, coins_at_end={str(n): p for n, p in enumerate(law) if p})
    return out
