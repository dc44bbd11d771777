r"""Bet modes, bought features, respins with held reels and prize wheels, exactly.

* A **bet mode** is another math set sharing the game (:meth:`strips.model.MathSet.mode`):
  every figure is computed on it as on any set, RTP = E[round win] / the mode's cost.
* A **buy** is the free-spin chain started as after a trigger of the buy's
  count: E[F | trigger] and Var[F | trigger], no base spin, no wheel.
* A **prize wheel** needs the base spin's win split jointly by the trigger
  scatters and each wheel's symbol count: one more product of the per-reel
  polynomials of :mod:`exact.engine` (the count is a tuple; the convolution
  runs over tuples), then :func:`markov.wheels.wheel_round`.
* A **respin** (symbol S, count c) is a conditional spin of the reels not
  held.  Split the spin additionally by the S count.  A spin is respun iff
  its window shows exactly c of S and starts no feature.  For each hold set
  H (the reels showing S) and each choice h of the held reels' windows
  (stops grouped by their window, with multiplicity), given h the original
  spin (non-held reels on the stops that show no S) and the respin (non-held
  reels on all stops) are independent:

  .. math::  E[(B + R)^2 1\{k'\}\,|\,h] = E[B^2 1_{nf}] P_R(k') + 2 E[B 1_{nf}] E[R 1\{k'\}] + P(nf) E[R^2 1\{k'\}]

  with nf = "the original starts no feature" and k' the respin window's
  counts (held symbols included), which decide the features.  Each side is
  a product of per-reel polynomials of :func:`exact.engine.reel_moment_polynomials`
  over a subset of stops; the non-held reels' product is formed once per H.
  Cost: per hold set, one product over the non-held reels, then one small
  product per combination of held windows.

Exact throughout: integer polynomial coefficients, Fractions formed once per
read-out.
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from fractions import Fraction
from math import prod

import numpy as np

from exact.frames import FramesFigures, frames_figures
from exact.engine import GameAnalysis, SpinTerms, analyse, read_moments, reel_moment_polynomials, spin_terms
from exact.polynomials import poly_mul, poly_product
from markov import protocol
from markov.round_chain import RoundChain, decided, split_by_counts
from markov.wheels import PreSplit, wheel_chain, wheel_round, features_for_spins
from markov.chain import ZERO, FeatureResult
from markov.feature import feature_chain
from markov.round import RoundResult
from strips.model import DEFAULT_MODE, GameModel, MathSet, window_codes
from exact.rules import initial_spins, pre_feature_refusal, pre_feature_rules, starts_feature, trigger_scatter_pay

#: An operator approval rule: a buy's RTP may differ from its mode's by at most this.
BUY_RTP_TOLERANCE = Fraction(5, 100)


@dataclass(frozen=True)
class ModeResult:
    """Exact figures of one bet mode.

    Attributes
    ----------
    name : str
        ``"default"`` or the ``[modes]`` name.
    cost : int
        Credits per round.
    set : MathSet
        The math set the mode plays.
    analysis : GameAnalysis
    round : RoundResult
        ``round.bet`` is the cost; ``round.rtp`` = E[round win] / cost.
    frames : FramesFigures or None
        The wheel awards with frames (:mod:`exact.frames`).
    """

    name: str
    cost: int
    set: MathSet
    analysis: GameAnalysis
    round: RoundResult
    frames: FramesFigures | None = None

    @property
    def rtp(self) -> Fraction:
        return self.round.rtp

    @property
    def variance(self) -> Fraction:
        """Var[round win], credits^2 per round."""
        return self.round.variance


@dataclass(frozen=True)
class BuyResult:
    """A bought feature: E[F | trigger] / cost and Var[F | trigger] (credits^2 per buy)."""

    name: str
    cost: int
    trigger: int
    feature: FeatureResult
    mode_rtp: Fraction

    @property
    def rtp(self) -> Fraction:
        return self.feature.mean / self.cost

    @property
    def variance(self) -> Fraction:
        return self.feature.variance

    @property
    def warning(self) -> str:
        """Non-empty when the buy's RTP differs from its mode's RTP by more than 5 percentage points."""
        if abs(self.rtp - self.mode_rtp) > BUY_RTP_TOLERANCE:
            return (f"buy {self.name}: RTP differs from the default mode's by more than "
                    f"{int(BUY_RTP_TOLERANCE * 100)} percentage points")
        return ""


def analyse_mode(ms: MathSet, name: str = DEFAULT_MODE) -> ModeResult:
    """Exact figures of one bet mode of a math set.

    Raises
    ------
    KeyError
        If the game has no mode ``name``.
    ValueError
        As :func:`exact.engine.analyse` and :func:`markov.round.round_result`.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> analyse_mode(load_math_set("rules_page")).cost
    10
    """
    mset = ms.mode(name)
    model = mset.model
    analysis = analyse(mset)
    stage, frames = round_stage(mset)
    rr = wheel_round(model, analysis.base, analysis.levels, *stage)
    return ModeResult(name=name, cost=model.bet, set=mset, analysis=analysis, round=rr, frames=frames)


def round_stage(mset: MathSet) -> tuple[tuple, object]:
    """The arguments of :func:`markov.wheels.wheel_round` / :func:`markov.wheels.wheel_chain` beyond the phases
    for one bet mode's set ``mset`` (its spin's stage, the frames' award values and window awards; none for a
    round whose base spin's split decides the features) and the frames' figures (or None).

    Raises
    ------
    ValueError
        ``unsupported rule: ... with a prize wheel or a respin`` (:func:`exact.rules.pre_feature_refusal`).
    """
    model = mset.model
    if not pre_feature_rules(model):      # no respin, no prize wheel: the base spin's split decides the features
        return (), None
    rule = pre_feature_refusal(model)
    if rule:
        raise ValueError(f"unsupported rule: {rule} with a prize wheel or a respin")
    frames = frames_figures(mset, lambda extra: pre_feature_split(mset, extra)[0])
    return (spin_stage(mset), frames.values(model) if frames else None,
            frames.by_counts(model) if frames else None), frames


def mode_chain(ms: MathSet, name: str = DEFAULT_MODE):
    """One bet mode's game round as a chain of the protocol (:class:`markov.round_chain.RoundChain`: the spin, a
    respin, the prize wheels, the free spins) and its :class:`~markov.round.RoundResult` before the wheels
    (:func:`markov.wheels.wheel_chain`): what ``rtp chain --round`` solves and exports.

    Raises
    ------
    KeyError, ValueError
        As :func:`analyse_mode`.

    >>> from strips.loader import load_math_set
    >>> from markov import protocol
    >>> ms = load_math_set("wheel_game")
    >>> chain, _ = mode_chain(ms)
    >>> protocol.solve(chain, [0])[0].mean == analyse_mode(ms).round.mean
    True
    """
    mset = ms.mode(name)
    analysis = analyse(mset)
    stage, _ = round_stage(mset)
    chain, rr, _ = wheel_chain(mset.model, analysis.base, analysis.levels, *stage)
    return chain, rr


def buy_chain(ms: MathSet, name: str):
    """A bought feature's round as one chain of the protocol: the free-spin chain of the default mode
    (:func:`markov.feature.feature_chain`) started with the spins of the buy's trigger count, and that start.
    The round pays the feature's win for the buy's cost (the base spin is not played); what
    ``rtp chain --round --buy NAME`` solves and exports.

    Returns
    -------
    (chain, start)
        ``start``: the initial free spins (:func:`exact.rules.initial_spins` of the buy's ``trigger``).

    Raises
    ------
    KeyError
        No buy ``name`` (the message lists the buys).
    ValueError
        As :func:`markov.feature.feature_chain`.

    >>> from strips.loader import load_math_set
    >>> buy_chain(load_math_set("rules_page"), "feature")
    Traceback (most recent call last):
    ...
    KeyError: "no buy 'feature' (buys: none)"
    """
    buys = {b.name: b for b in ms.model.buys}
    if name not in buys:
        raise KeyError(f"no buy {name!r} (buys: {', '.join(buys) or 'none'})")
    analysis = analyse(ms)
    return feature_chain(ms.model, analysis.levels), initial_spins(ms.model, buys[name].trigger)


def analyse_modes(ms: MathSet, default: ModeResult | None = None) -> dict[str, ModeResult]:
    """Every bet mode of a math set, the default mode first (``default`` reused when given)."""
    out = {DEFAULT_MODE: default or analyse_mode(ms)}
    for name in ms.mode_names[1:]:
        out[name] = analyse_mode(ms, name)
    return out


def analyse_buys(ms: MathSet, default: ModeResult) -> dict[str, BuyResult]:
    """Every ``[buy]`` of a math set: the free spins started as after the buy's trigger count (default mode)."""
    model = default.set.model
    spins = {b.name: initial_spins(model, b.trigger) for b in ms.model.buys}
    features = features_for_spins(model, default.analysis.levels, spins.values())
    return {b.name: BuyResult(b.name, b.cost, b.trigger, features[spins[b.name]], default.rtp) for b in ms.model.buys}


# ---------------------------------------------------------------------------
# the split that decides the features, and the respin
# ---------------------------------------------------------------------------
def _subset_tables(t, idx: np.ndarray):
    """Reel tables restricted to the stops ``idx`` (every per-stop array sliced on its last axis)."""
    return dataclasses.replace(
        t, counts=t.counts[:, idx], ways_count=t.ways_count[:, idx], keys=t.keys[idx], scatters=t.scatters[idx],
        fish_mean=t.fish_mean[idx], fish_var=t.fish_var[idx], ways_mean=t.ways_mean[:, idx],
        wild_var=t.wild_var[:, idx])


class _Reels:
    """Per-reel moment polynomials of one spin, split by the counts that decide the features (and by
    ``extra[r]``, per-stop arrays of reel r appended to the key)."""

    def __init__(self, ms: MathSet, st: SpinTerms, count_codes: list[int], extra: list | None = None):
        self.model, self.st = ms.model, st
        self.count_codes = count_codes
        self.extra = extra

    def counts(self, r: int, idx: np.ndarray | None) -> tuple:
        t = self.st.tables[r]
        arrays = (t.scatters,) + tuple(t.counts[c] for c in self.count_codes)
        if self.extra is not None:
            arrays += (self.extra[r],)
        return arrays if idx is None else tuple(a[idx] for a in arrays)

    def poly(self, r: int, idx: np.ndarray | None = None) -> dict:
        """sum over the stops ``idx`` (all if None) of the reel's moment matrices, by count tuple."""
        st = self.st
        t = st.tables[r]
        dedupe = st.dedupes[r]
        if idx is not None:
            if len(idx) == 0:
                return {}
            t = _subset_tables(t, idx)
            x, phi, tags, inv = dedupe
            dedupe = (x[:, idx], phi, tags, inv)
        return reel_moment_polynomials(None, None, t, {"k": self.counts(r, idx)}, st.iu, st.ju, dedupe)["k"]

    def read(self, acc: dict, stops: int) -> dict:
        """count tuple -> (P, E[W 1], E[W^2 1]) given ``stops`` equally likely stop combinations, scatter pays added."""
        st = self.st
        scale2 = st.total // prod(t.stops for t in st.tables)
        out = {}
        for k, (p, w1, w2) in read_moments(acc, (st.w1, st.w2), stops * scale2, st.d, st.multiplier).items():
            sp = st.multiplier * trigger_scatter_pay(self.model, k[0])
            out[k] = (p, w1 + sp * p, w2 + 2 * sp * w1 + sp * sp * p)
        return out


def _add(acc: dict, k, vals) -> None:
    acc[k] = tuple(a + b for a, b in zip(acc[k], vals)) if k in acc else tuple(vals)


def pre_feature_split(ms: MathSet, extra: list | None = None) -> tuple[PreSplit, Fraction, Fraction]:
    """The round's win before its features, split by the counts (n, b_1, ..., b_W) that decide them.

    Without respin this is the base spin's win; with the model's respin it
    is the base spin's win plus the respin's pays, the counts read from the
    respin's window when the spin is respun (module docstring): the split by the state it ends in of the
    spin's stage of the round's chain (:func:`spin_stage`, :func:`markov.protocol.exits`).

    ``extra``: per reel, a per-stop int array of the base strips whose sum over the deciding window's
    reels is appended to each key (``(n, b_1, ..., b_W, x)``: a rule reading where a symbol lands,
    each reel's mask in its own bits); then only the first moments are computed (each value's third
    entry is 0).

    Returns
    -------
    (split, E[respin pays] per round, P(respin) per round)
        Exact Fractions; credits per round.
    """
    spin_rows, respin_rows = spin_stage(ms, extra)
    chain = RoundChain(spin_rows, respin_rows, (), {}, None)
    pre = split_by_counts(chain)
    if not respin_rows:
        return pre, ZERO, ZERO
    stages, = protocol.features(chain, [0])     # stage 1: the respin
    return pre, stages.win_by_level[1], stages.reach[1]


def spin_stage(ms: MathSet, extra: list | None = None) -> tuple[list, dict]:
    """The spin's stage of the round as a chain (:class:`markov.round_chain.RoundChain`): the outcomes of
    the spin and of each respin, computed by per-reel polynomial products (module docstring).

    Returns
    -------
    (spin_rows, respin_rows)
        ``spin_rows``: ``(label, p, w, v, successor)`` per outcome of the spin: the deciding counts ``k``
        of a spin that is not respun (successor ``decided(k)``: P, E[B 1], E[B^2 1]), or a hold of the
        respin (successor ``("respin", h)``: P(that hold and no feature), E[B 1], E[B^2 1] with the other
        reels showing no respin symbol); ``respin_rows``: per respin state, the outcomes of its window
        (P, E[R 1], E[R^2 1] given the hold, R the respin's pays), successor ``decided(k)``.  ``extra`` as
        :func:`pre_feature_split` (first moments only: ``v`` = 0).
    """
    model = ms.model
    phase = model.base_phase
    st = spin_terms(ms, phase)
    if extra is not None:       # first moments only: the pairs (0, u)
        n = len(st.terms)
        st = dataclasses.replace(st, iu=np.zeros(n, dtype=np.int64), ju=np.arange(n), w1=st.w1[:n],
                                 w2=np.zeros(n, dtype=object))
    codes = [model.code(w.symbol) for w in model.wheels]
    respin = model.respin
    if respin is not None:
        codes.append(model.code(respin.symbol))
    reels = _Reels(ms, st, codes, extra)
    lengths = [t.stops for t in st.tables]
    full = reels.read(poly_product([reels.poly(r) for r in range(model.reels)]), prod(lengths))
    spin_rows: list = []
    respin_rows: dict = {}
    width = 1 + len(model.wheels)
    tail = () if extra is None else (-1,)        # the key: the deciding counts, then the extra sum

    def key(k):
        return k[:width] + tuple(k[i] for i in tail)

    merged: dict = {}       # counts -> the spin's outcome (several keys of the product read as one)
    for k, vals in full.items():
        if respin is None or k[width] != respin.count or starts_feature(model, k[:width]):
            _add(merged, key(k), vals)
    spin_rows += [(k, *vals, decided(k)) for k, vals in merged.items()]
    if respin is None:
        return spin_rows, respin_rows
    code = model.code(respin.symbol)
    strips = ms.phase_strips(phase)
    shown = [st.tables[r].counts[code] for r in range(model.reels)]
    no_symbol = [np.flatnonzero(s == 0) for s in shown]
    # the held windows of each reel: (representative stop, number of stops with that window, symbols shown)
    held = []
    for r in range(model.reels):
        idx = np.flatnonzero(shown[r] > 0)
        win = window_codes(strips.codes[r], model.rows)[idx]
        groups: dict[bytes, list] = {}
        for i, row in zip(idx, win):
            g = groups.setdefault(row.tobytes(), [int(i), 0, int(shown[r][i])])
            g[1] += 1
        held.append(list(groups.values()))
    polys_all = [reels.poly(r) for r in range(model.reels)]
    polys_none = [reels.poly(r, no_symbol[r]) for r in range(model.reels)]
    for size in range(1, model.reels + 1):
        for hold in itertools.combinations(range(model.reels), size):
            rest = [r for r in range(model.reels) if r not in hold]
            if any(len(no_symbol[r]) == 0 for r in rest) or any(not held[r] for r in hold):
                continue
            orig_rest = poly_product([polys_none[r] for r in rest]) if rest else None
            resp_rest = poly_product([polys_all[r] for r in rest]) if rest else None
            n_none = prod(len(no_symbol[r]) for r in rest)
            n_all = prod(lengths[r] for r in rest)
            for choice in itertools.product(*(held[r] for r in hold)):
                if sum(g[2] for g in choice) != respin.count:
                    continue
                fixed = [reels.poly(r, np.array([g[0]])) for r, g in zip(hold, choice)]
                orig = reels.read(_times(orig_rest, fixed), n_none)
                # P(this hold set and these held windows, the other reels showing no S)
                weight = Fraction(prod(g[1] for g in choice) * n_none, prod(lengths))
                po = b1 = b2 = ZERO
                for k, (p, w1, w2) in orig.items():
                    if not starts_feature(model, k[:width]):
                        po, b1, b2 = po + p, b1 + w1, b2 + w2
                if not po:
                    continue
                state = ("respin", (hold, tuple(g[0] for g in choice)))
                spin_rows.append((state[1], weight * po, weight * b1, weight * b2, state))
                resp = reels.read(_times(resp_rest, fixed), n_all)
                # given the hold, the respin's window: its outcomes (the held symbols counted)
                respin_rows[state] = [(key(k), pr, r1, r2, decided(key(k))) for k, (pr, r1, r2) in resp.items()]
    return spin_rows, respin_rows


def _times(rest: dict | None, fixed: list[dict]) -> dict:
    """The product of the non-held reels' polynomial with the held reels' one-stop polynomials."""
    acc = rest
    for f in fixed:
        acc = f if acc is None else poly_mul(acc, f)
    return acc
