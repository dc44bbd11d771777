r"""The gamble after a round win (``[gamble]``): exact returns.

A round win x with ``min_win <= x`` and ``multiplier * x <= max_win`` may be
gambled once: it becomes ``multiplier * x`` with probability p, else 0.  With
X the round win (credits, the gamble excluded)::

    RTP without gamble  = E[X] / bet
    RTP gamble once     = (E[X] + (p m - 1) E[X 1{eligible}]) / bet
    return per stake    = p m

``E[X 1{eligible}]`` needs the distribution of the round win on the eligible
range [min_win, floor(max_win / m)], nothing above it:

* one spin's exact joint distribution of (counts, win) by a dynamic programme
  over the reels (:func:`spin_joint`): state = (ways so far of every pay
  symbol still running, credits already paid, counts so far), equal states
  merged with integer weights; cost (states) x (distinct windows of a reel);
* the feature after n initial free spins: the n-fold convolution of one free
  spin's win (one level, no retrigger: the spins are independent and alike);
  a wheel: its weighted mixture of atoms and features;
* the round: for each class of base spins (the free spins and prize tables they
  start) the base win convolved with the feature and the wheel.

Every convolution is exact integer arithmetic modulo primes below 2^24 on
int64 arrays truncated at the top of the eligible range (products < 2^48,
sums of at most 2^14 of them < 2^62: no overflow), and the two eligible sums
of each class are rebuilt from their residues by the Chinese remainder
theorem with enough primes for their bound (a sum of at most cap x denominator).
Games beyond that (KEY collect, FISH, drawn WILD multipliers, a multi-level
ladder, retrigger, paylines, catalogue trigger rules) are refused with the
rule's name.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

import numpy as np

from exact.rules import initial_spins, require, scatter_codes, substitute_codes, trigger_scatter_pay
from strips.model import FISH, FREE_SPINS, KEY, Gamble, MathSet, Phase, window_codes

_PRIME_BITS = 24


@dataclass(frozen=True)
class GambleResult:
    """Exact gamble figures of one mode, per round.

    Attributes
    ----------
    rtp_without_gamble : Fraction
        E[X] / bet: the figure regulators use.
    rtp_gamble_once : Fraction
        The RTP when every eligible round win is gambled once.
    return_per_stake : Fraction
        p x multiplier: the gamble's own return per credit staked on it.
    eligible_probability : Fraction
        P(the round win may be gambled), per round.
    eligible_win : Fraction
        E[X 1{eligible}], credits per round.
    """

    rtp_without_gamble: Fraction
    rtp_gamble_once: Fraction
    return_per_stake: Fraction
    eligible_probability: Fraction
    eligible_win: Fraction


def gamble_result(gamble: Gamble, bet: int, mean: Fraction, eligible_probability: Fraction,
                  eligible_win: Fraction) -> GambleResult:
    """The gamble figures from E[X] and the eligible part of the round win (module docstring).

    Examples
    --------
    >>> from strips.model import Gamble
    >>> g = Gamble(min_win=10, max_win=100, multiplier=2, probability=Fraction(12, 25))
    >>> gamble_result(g, 10, Fraction(9), Fraction(1, 10), Fraction(5)).rtp_gamble_once
    Fraction(22, 25)
    """
    pm = gamble.probability * gamble.multiplier
    return GambleResult(rtp_without_gamble=mean / bet, rtp_gamble_once=(mean + (pm - 1) * eligible_win) / bet,
                        return_per_stake=pm, eligible_probability=eligible_probability, eligible_win=eligible_win)


def eligible_range(gamble: Gamble) -> tuple[int, int]:
    """(lowest, highest) round win in credits that may be gambled (empty when lowest > highest)."""
    return gamble.min_win, gamble.max_win // gamble.multiplier


def gamble_of_distribution(gamble: Gamble, bet: int, dist: Mapping[int, Fraction]) -> GambleResult:
    """The gamble figures of an explicit round-win distribution {credits: probability}."""
    lo, hi = eligible_range(gamble)
    mean = sum((x * p for x, p in dist.items()), Fraction(0))
    return gamble_result(gamble, bet, mean, sum((p for x, p in dist.items() if lo <= x <= hi), Fraction(0)),
                         sum((x * p for x, p in dist.items() if lo <= x <= hi), Fraction(0)))


# ---------------------------------------------------------------------------
# one spin: exact joint distribution of (counts, win)
# ---------------------------------------------------------------------------
def spin_joint(ms: MathSet, phase: Phase, count_codes: tuple[tuple[int, ...], ...]) -> tuple[int, dict]:
    """Exact joint distribution of (counts, win) of one spin of ``phase`` (module docstring).

    Parameters
    ----------
    count_codes : tuple of tuple of int
        The symbol codes of each count (e.g. the trigger scatter's, a wheel symbol's).

    Returns
    -------
    (total, {(counts tuple, win credits): integer weight})
        P = weight / total; the win includes the phase's multiplier and the
        trigger scatter's pay (``count_codes[0]`` must then be the trigger scatter).
    """
    model = ms.model
    pays = [s.pays for s in model.pay_symbols]
    pay_codes = [model.code(s.name) for s in model.pay_symbols]
    subst = substitute_codes(model)
    reels = model.reels
    states: dict = {}
    total = 1
    for r, strip in enumerate(ms.phase_strips(phase).codes):
        total *= len(strip)
        outcomes: dict = {}
        for win in window_codes(strip, model.rows):
            codes = win.tolist()
            c = tuple(codes.count(p) + sum(codes.count(w) for w in ws) for p, ws in zip(pay_codes, subst))
            k = tuple(sum(codes.count(x) for x in cc) for cc in count_codes)
            outcomes[c, k] = outcomes.get((c, k), 0) + 1
        nxt: dict = {}
        if r == 0:
            for (c, k), w in outcomes.items():
                nxt[c, 0, k] = nxt.get((c, 0, k), 0) + w
        else:
            by_alive: dict = {}
            for (alive, paid, k0), w0 in states.items():
                by_alive.setdefault(alive, []).append((paid, k0, w0))
            for alive, group in by_alive.items():
                moves = []   # per outcome: (new ways, credits paid by the combinations ending here, counts, weight)
                for (c, k), w in outcomes.items():
                    ways, add = [], 0
                    for i, (a, x) in enumerate(zip(alive, c)):
                        if a and x:
                            ways.append(a * x)
                        else:
                            if a:
                                add += pays[i][r - 1] * a   # the combination ends at OAK r
                            ways.append(0)
                    moves.append((tuple(ways), add, k, w))
                for paid, k0, w0 in group:
                    for ways, add, k, w in moves:
                        key = (ways, paid + add, tuple(a + b for a, b in zip(k0, k)) if k else k0)
                        nxt[key] = nxt.get(key, 0) + w0 * w
        states = nxt
    out: dict = {}
    for (alive, paid, k), w in states.items():
        win = paid + sum(pays[i][reels - 1] * a for i, a in enumerate(alive))
        if count_codes:
            win += trigger_scatter_pay(model, k[0])
        key = (k, win * phase.multiplier)
        out[key] = out.get(key, 0) + w
    return total, out


# ---------------------------------------------------------------------------
# modular convolution, truncated at the top of the eligible range
# ---------------------------------------------------------------------------
def _primes(count: int) -> list[int]:
    from sympy import prevprime   # imported here: sympy costs every command 0.3 s of start-up
    out, p = [], 2 ** _PRIME_BITS
    for _ in range(count):
        p = prevprime(p)
        out.append(p)
    return out


def _conv(a: np.ndarray, b: np.ndarray, p: int, size: int) -> np.ndarray:
    """(a * b) mod p, truncated to ``size`` entries; entries of a and b in [0, p), p < 2^24.

    Each operand is split into 12-bit limbs; the three limb products are
    float64 FFT convolutions (length n <= 2^15, at most 2^14 terms per
    coefficient) whose exact coefficients are integers below 2^39 (2 x 2^12 x
    2^12 x 2^14); Percival's bound on the FFT's round-off, ||x||_2 ||y||_2 x
    (about 3 log2(n) (2 + sqrt 5) eps) <= 2^38 x 2^-45 < 1/100, keeps every
    rounding exact.  Other lengths use the exact int64 ``np.convolve``.
    """
    n = len(a) + len(b) - 1
    out = min(n, size)
    if min(len(a), len(b)) > 2 ** 14 or n > 2 ** 15 or min(len(a), len(b)) < 64:
        return np.convolve(a, b)[:out] % p
    fft_len = 1 << (n - 1).bit_length()
    fa = [np.fft.rfft(x, fft_len) for x in (a & 0xFFF, a >> 12)]
    fb = [np.fft.rfft(x, fft_len) for x in (b & 0xFFF, b >> 12)]
    parts = [np.fft.irfft(f, fft_len)[:out] for f in (fa[0] * fb[0], fa[0] * fb[1] + fa[1] * fb[0], fa[1] * fb[1])]
    c0, c1, c2 = (np.rint(x).astype(np.int64) % p for x in parts)
    return (c0 + c1 * (1 << 12) % p + c2 * ((1 << 24) % p) % p) % p


def _shift_add(acc: np.ndarray, arr: np.ndarray, shift: int, weight: int, p: int, size: int) -> np.ndarray:
    """acc + weight x (arr shifted right by ``shift``), mod p, at most ``size`` entries."""
    end = min(size, shift + len(arr))
    if end <= shift:
        return acc
    if len(acc) < end:
        acc = np.concatenate([acc, np.zeros(end - len(acc), dtype=np.int64)])
    acc[shift:end] = (acc[shift:end] + arr[:end - shift] * (weight % p)) % p
    return acc


def _array(weights: Mapping[int, int], p: int, size: int) -> np.ndarray:
    arr = np.zeros(min(size, max(weights, default=0) + 1), dtype=np.int64)
    for x, w in weights.items():
        if x < size:
            arr[x] = (int(arr[x]) + w) % p
    return arr


def _crt(residues: list[int], primes: list[int]) -> int:
    x, m = 0, 1
    for r, p in zip(residues, primes):
        t = ((r - x) * pow(m, -1, p)) % p
        x, m = x + m * t, m * p
    return x


#: (id(ms), phase, codes) -> (ms, spin_joint(...)): the last few joints, each with its math set kept alive
#: (so the id cannot name another set), for the gamble figures that read the same round more than once.
_JOINTS: dict = {}


def _joint(ms: MathSet, phase: Phase, codes) -> tuple[int, dict]:
    key = (id(ms), phase, codes)
    hit = _JOINTS.get(key)
    if hit is None or hit[0] is not ms:
        while len(_JOINTS) >= 4:
            _JOINTS.pop(next(iter(_JOINTS)))
        hit = _JOINTS[key] = (ms, spin_joint(ms, phase, codes))
    return hit[1]


def round_eligible(ms: MathSet, gamble: Gamble) -> tuple[Fraction, Fraction]:
    """(P(eligible), E[X 1{eligible}]) of the round win of ``ms`` (its default mode), exact.

    Raises
    ------
    ValueError
        ``unsupported rule: ...`` (:class:`strips.errors.UnsupportedRule`) for a game the analysis
        ``gamble`` of :func:`exact.rules.supports` refuses.
    """
    lo, hi = eligible_range(gamble)
    return round_ranges(ms, lo, (hi,))[0]


def round_ranges(ms: MathSet, lo: int, his: tuple[int, ...]) -> list[tuple[Fraction, Fraction]]:
    """(P(lo <= X <= hi), E[X 1{lo <= X <= hi}]) of the round win X of ``ms`` for each ``hi`` of ``his``,
    in one pass over the range up to the largest (module docstring); exact.

    Raises
    ------
    ValueError
        As :func:`round_eligible`.
    """
    require(ms, "gamble")
    model = ms.model
    zero = (Fraction(0), Fraction(0))
    if all(lo > hi for hi in his):
        return [zero for _ in his]
    hi = max(his)
    size = hi + 1
    codes = (tuple(scatter_codes(model)),) + tuple((model.code(w.symbol),) for w in model.wheels)
    base_total, base = _joint(ms, model.base_phase, codes)
    # classes of base spins: (initial free spins, prize table of each wheel) -> {win: weight}
    classes: dict = {}
    for (k, win), w in base.items():
        tables = tuple(wh.table_for(b) for wh, b in zip(model.wheels, k[1:]))
        key = (initial_spins(model, k[0]), tuple(t.name if t else None for t in tables))
        cls = classes.setdefault(key, {})
        cls[win] = cls.get(win, 0) + w
    fs_total, fs = 1, {}
    spins_needed = {s for s, _ in classes if s}
    for wh in model.wheels:
        for t in wh.prizes.values():
            spins_needed |= {a.amount for a in t.awards if a.kind == FREE_SPINS}
    if spins_needed:
        ft, joint = _joint(ms, model.level_phase(model.levels[0]), ())
        fs_total = ft
        for (_, win), w in joint.items():
            fs[win] = fs.get(win, 0) + w
    # each wheel's draw over one denominator: (prize weight total) x fs_total^(its most award spins)
    wheel_den, wheel_spins = {}, {}
    for wh in model.wheels:
        for t in wh.prizes.values():
            n_max = max((a.amount for a in t.awards if a.kind == FREE_SPINS), default=0)
            wheel_spins[wh.name, t.name] = n_max
            wheel_den[wh.name, t.name] = sum(t.weights) * fs_total ** n_max
    dens = {}
    for s, tables in classes:
        d = base_total * fs_total ** s
        for wh, t in zip(model.wheels, tables):
            if t:
                d *= wheel_den[wh.name, t]
        dens[s, tables] = d
    need = {key: (size * d * 2).bit_length() // (_PRIME_BITS - 1) + 2 for key, d in dens.items()}
    primes = _primes(max(need.values(), default=1))
    residues = {key: [([], []) for _ in his] for key in classes}
    xs = np.arange(size, dtype=np.int64)
    masks = [((xs >= lo) & (xs <= h)).astype(np.int64) for h in his]
    for i, p in enumerate(primes):
        spin = _array(fs, p, size)
        top = max((k[0] for k in classes if need[k] > i), default=0)
        top = max([top] + [wheel_spins[wh.name, t] for wh in model.wheels for t in wh.prizes
                           if any(need[k] > i and t in k[1] for k in classes)])
        feature = {0: _array({0: 1}, p, size)}
        for s in range(1, top + 1):
            feature[s] = _conv(feature[s - 1], spin, p, size)
        for key, dist in classes.items():
            if len(residues[key][0][0]) >= need[key]:
                continue   # enough residues for this class's bound
            s, tables = key
            arr = _array(dist, p, size)
            if s:
                arr = _conv(arr, feature[s], p, size)
            for wh, t in zip(model.wheels, tables):
                if t:
                    arr = _draw(arr, wh.prizes[t], wheel_spins[wh.name, t], feature, fs_total, model.jackpots, p, size)
            for (r0, r1), eligible in zip(residues[key], masks):
                masked = arr * eligible[:len(arr)] % p
                r0.append(int(masked.sum() % p))
                r1.append(int((masked * xs[:len(arr)] % p).sum() % p))
    out = []
    for j, h in enumerate(his):
        prob = win = Fraction(0)
        if lo <= h:
            for key, per in residues.items():
                r0, r1 = per[j]
                prob += Fraction(_crt(r0, primes), dens[key])
                win += Fraction(_crt(r1, primes), dens[key])
        out.append((prob, win))
    return out


def _draw(arr: np.ndarray, table, n_max: int, feature: dict, fs_total: int, jackpots, p: int, size: int) -> np.ndarray:
    """arr convolved with one draw of a prize table, over (weight total) x fs_total^n_max, mod p."""
    acc = np.zeros(0, dtype=np.int64)
    for a, w in zip(table.awards, table.weights):
        if a.kind == FREE_SPINS:
            part = _conv(arr, feature[a.amount], p, size)
            acc = _shift_add(acc, part, 0, w * pow(fs_total, n_max - a.amount, p), p, size)
        else:
            value = jackpots[a.jackpot] if a.jackpot else a.amount
            acc = _shift_add(acc, arr, value, w * pow(fs_total, n_max, p), p, size)
    return acc
