"""The win distribution as text and JSON (``rtp distribution``): every printed digit right.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from exact.distribution_results import (DEFAULT_EDGES, TAIL_BETS, TRUNCATE_BELOW, WinDistribution, WinRange, bets_text,
                                        digits_text, sig_fraction)
from exact.formatting import decimal_text
from strips.decimals import exact_text

def sig_float(x: float, digits: int) -> str:
    """A float rounded to ``digits`` significant digits (correctly rounded from its binary value)."""
    if x == 0:
        return "0"
    s = f"{x:.{digits - 1}e}"
    mant, e = s.split("e")
    return digits_text(mant.replace(".", ""), int(e))


def certain_text(value, bound: float = 0.0, digits: int = 6) -> str:
    """``value`` with only the digits the bound leaves certain (at most ``digits`` significant).

    Exact values (bound 0, int or Fraction) are rounded exactly.  A float within ``bound``:
    the most significant digits d such that value - bound and value + bound round alike
    (rounding is monotone, so the exact value rounds to them too); when no digit is
    certain, ``"<= u"`` (or ``"v +- b"``).
    """
    if not bound and (not isinstance(value, float) or value == 0):
        return sig_fraction(value, digits) if not isinstance(value, float) else "0"
    lo, hi = value - bound, value + bound
    for d in range(digits, 0, -1):
        a, b = sig_float(max(lo, 0.0), d), sig_float(hi, d)
        if a == b and lo > 0:
            return a
    if lo <= 0:
        return "<= " + sig_float(hi, 2)
    return f"{sig_float(value, 2)} +- {sig_float(bound, 1)}"


def one_in_text(p, bound: float = 0.0, digits: int = 6) -> str:
    """``1 in N`` with N = 1/p and only certain digits."""
    if not bound and not isinstance(p, float):
        return "never" if p == 0 else "1 in " + sig_fraction(1 / Fraction(p), digits)
    lo, hi = p - bound, p + bound
    if lo <= 0:
        return "1 in >= " + sig_float(1 / hi, 2) if hi > 0 else "never"
    for d in range(digits, 0, -1):
        a, b = sig_float(1 / hi, d), sig_float(1 / lo, d)
        if a == b:
            return "1 in " + a
    return "1 in " + sig_float(1 / p, 2) + " (+-)"


def frac_text(x) -> str:
    """An exact value as ``"p/q"``."""
    return exact_text(x, ratio=True)


def _prob_json(p):
    return frac_text(p) if not isinstance(p, float) else p


def distribution_json(wd: WinDistribution, name: str, edges: Sequence = DEFAULT_EDGES) -> dict:
    """The JSON object of ``rtp distribution --json`` (its keys fixed; more may be added).

    Exact probabilities are ``"p/q"`` strings, floats are within ``error_bound`` (per round
    entry) or the ``*_bound`` given beside them.
    """
    r = wd.round
    base = wd.base.marginal()
    ranges = wd.win_ranges(edges)
    pct = wd.percentiles()
    out = {
        "set": name,
        "bet": wd.bet,
        "exact": r.is_exact,
        "grid_step": r.step,
        "base": [[w, frac_text(p)] for w, p in base],
        "round": [[w, _prob_json(p)] for w, p in r.items()],
        "error_bound": float(r.bound),
        "truncated_mass": float(r.truncated),
        "max_round_win": int(wd.max_round_win),
        "max_round_win_probability": _prob_json(wd.max_round_win_probability),
        "max_round_win_exact": wd.max_round_exact,
        "max_base_win": wd.base.max_win,
        "max_base_win_probability": frac_text(wd.base.max_win_probability),
        "max_free_spin_win": [{"level": i, "win": w, "probability": frac_text(p)}
                              for i, (w, p) in enumerate(wd.max_level_wins, start=1)],
        "hit_frequency": _prob_json(wd.hit_frequency[0]),
        "hit_frequency_bound": float(wd.hit_frequency[1]),
        "at_least": {str(k): _prob_json(wd.tail(k)[0]) for k in TAIL_BETS},
        "at_least_bound": {str(k): float(wd.tail(k)[1]) for k in TAIL_BETS},
        "win_ranges": [_range_json(x) for x in ranges],
        "base_win_ranges": [_range_json(x) for x in wd.base_win_ranges(edges)],
        "base_cycle": wd.base_cycle,
        "percentiles": {q: x.credits for q, x in pct.items()},
        "percentiles_bets": {q: _json_num(x.bets) for q, x in pct.items()},
        "percentiles_certain": {q: x.certain for q, x in pct.items()},
        "features": {str(n0): {"trigger_probability": frac_text(wd.trigger_prob[n0]),
                               "percentiles": {q: x.credits for q, x in fp.items()},
                               "max_win": int(wd.max_feature[n0][0]),
                               "max_win_probability": _prob_json(wd.max_feature[n0][1]),
                               "truncated_mass": float(wd.features[n0].truncated)}
                     for n0, fp in wd.feature_percentiles().items()},
    }
    return out


def _range_json(x: WinRange) -> dict:
    d = {"from_bets": _json_num(x.from_bets), "to_bets": _json_num(x.to_bets),
         "probability": _prob_json(x.probability), "rtp": _prob_json(x.rtp),
         "probability_bound": float(x.bound), "rtp_bound": float(x.rtp_bound)}
    if x.hits is not None:
        d["hits_per_cycle"] = _json_num(x.hits)
    return d


def _json_num(x):
    if x is None or isinstance(x, int):
        return x
    return frac_text(x)


def _win_text(w: int, bet: int) -> str:
    return f"{w} credits ({bets_text(Fraction(w, bet))} x bet)"


def distribution_text(wd: WinDistribution, name: str, edges: Sequence = DEFAULT_EDGES) -> str:
    """The ``rtp distribution`` text: win-range table, hit frequency, tails, percentiles, max wins."""
    r = wd.round
    lines = [f"WIN DISTRIBUTION  {name}  (bet {wd.bet} credits; wins in multiples of the bet)"]
    if r.is_exact:
        lines.append("round: exact (Fractions); every figure below is exact, rounded to the digits shown")
    else:
        lines.append(f"round: floats (FFT over {len(r.probabilities)} grid points of {r.step} credit"
                     f"{'s' if r.step > 1 else ''}); every probability within {sig_float(r.bound, 2)} "
                     f"(a sum of m of them within sqrt(m) x that); only certain digits are printed")
    if r.truncated:
        lines.append(f"endless retrigger cut off where the live mass is below {TRUNCATE_BELOW:g}: "
                     f"truncated mass {sig_float(r.truncated, 3)}")
    lines.append("base spin and free-spin levels: exact")
    lines.append("")
    lines += _range_table(wd.win_ranges(edges), "win range (x bet)", wd.base_cycle)
    lines.append("")
    if wd.trigger_prob:
        lines.append(f"one base spin (exact; hits in the cycle of {wd.base_cycle:,} stop combinations, "
                     f"expected hits where a value is drawn):")
        lines += _range_table(wd.base_win_ranges(edges), "base spin win (x bet)", wd.base_cycle)
        lines.append("")
    hf, hb = wd.hit_frequency
    lines.append(f"hit frequency of the round  {certain_text(hf, hb)}  ({one_in_text(hf, hb)})")
    for k in TAIL_BETS:
        p, b = wd.tail(k)
        lines.append(f"P(round win >= {k} x bet)  {certain_text(p, b)}  ({one_in_text(p, b)})")
    lines.append("")
    pct = wd.percentiles()
    lines.append("percentiles of the round win: " + ", ".join(
        f"{q}%: {bets_text(x.bets)} x bet" + ("" if x.certain else " (uncertain within the bound)")
        for q, x in pct.items()))
    for n0, fp in wd.feature_percentiles().items():
        lines.append(f"percentiles of the feature win ({n0} free spins): " + ", ".join(
            f"{q}%: {bets_text(x.bets)} x bet" + ("" if x.certain else " (uncertain)") for q, x in fp.items()))
    lines.append("")
    w, p = wd.max_base_win
    lines.append(f"max win of a base spin   {_win_text(w, wd.bet)}, P = {sig_fraction(p, 6)} "
                 f"({one_in_text(p)}), exact")
    for i, (w, p) in enumerate(wd.max_level_wins, start=1):
        lines.append(f"max win of a free spin, level {i}  {_win_text(w, wd.bet)}, P = {sig_fraction(p, 6)} "
                     f"({one_in_text(p)}), exact")
    p = wd.max_round_win_probability
    if wd.max_round_exact:
        lines.append(f"max win of a round       {_win_text(wd.max_round_win, wd.bet)}, P = {sig_fraction(p, 6)} "
                     f"({one_in_text(p)}), exact")
    else:
        lines.append(f"max win of a round       infinite support (endless retrigger): the largest win with "
                     f"P > {TRUNCATE_BELOW:g} is {_win_text(wd.max_round_win, wd.bet)}, P = "
                     f"{certain_text(p, r.bound)}")
    return "\n".join(lines) + "\n"


def _range_table(ranges: Sequence[WinRange], title: str, cycle: int) -> list[str]:
    """A win-range table; with a column of hits per cycle when its rows have them."""
    hits = all(x.hits is not None for x in ranges)
    rows = []
    for x in ranges:
        label = "0 (no win)" if x.from_bets == 0 and x.to_bets == 0 else \
            f"(0, {bets_text(x.to_bets)})" if x.from_bets == 0 else f"[{bets_text(x.from_bets)}, {bets_text(x.to_bets)})"
        row = [label, certain_text(x.probability, x.bound), one_in_text(x.probability, x.bound),
               certain_text(x.rtp * 100, x.rtp_bound * 100) + "%"]
        if hits:
            row.append(f"{x.hits:,}" if isinstance(x.hits, int) else decimal_text(x.hits, 2, grouping=True))
        rows.append(row)
    return _table([title, "probability", "1 in N", "RTP"] + (["hits per cycle"] if hits else []), rows)


def _table(headers, rows):
    widths = [max(len(h), *(len(x[i]) for x in rows)) for i, h in enumerate(headers)]
    def fmt(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return [fmt(headers), fmt(["-" * w for w in widths])] + [fmt(x) for x in rows]


def gamble_json(wd: WinDistribution, gamble) -> dict:
    """The gamble's effect on the round of ``wd`` (``rtp distribution --json`` key ``gamble``; the round itself
    excludes it): every eligible round win (``min_win <= x <= max_win / multiplier``, credits) gambled once
    (:mod:`exact.gamble`).  Exact ``"p/q"`` strings when the round is exact, else floats with their
    ``*_bound``; RTP per bet of ``wd`` (a mode's cost).

    >>> from exact.distribution_results import GridDistribution, WinDistribution
    >>> from strips.model import Gamble
    >>> g = Gamble(min_win=10, max_win=100, multiplier=2, probability=Fraction(12, 25))
    >>> wd = WinDistribution(10, None, (), GridDistribution(10, {0: Fraction(1, 2), 20: Fraction(1, 2)}), {}, {},
    ...                      20, Fraction(1, 2), True, {}, 1)
    >>> gamble_json(wd, g)["rtp_gamble_once"]
    '24/25'
    """
    r = wd.round
    lo, hi = gamble.min_win, gamble.max_win // gamble.multiplier
    p, pb = r.prob_between(lo, hi + 1) if lo <= hi else (Fraction(0), 0.0)
    e, eb = r.win_between(lo, hi + 1) if lo <= hi else (Fraction(0), 0.0)
    mean, mb = r.win_between(0, None)
    pm = gamble.probability * gamble.multiplier
    once = (mean + (pm - 1) * e) / wd.bet if r.is_exact else (float(mean) + float(pm - 1) * float(e)) / wd.bet
    out = {"min_win": gamble.min_win, "max_win": gamble.max_win, "multiplier": _json_num(gamble.multiplier),
           "probability": frac_text(gamble.probability), "return_per_stake": frac_text(pm), "exact": r.is_exact,
           "eligible_probability": _prob_json(p), "eligible_win": _prob_json(e),
           "rtp_without_gamble": _prob_json(mean / wd.bet if r.is_exact else float(mean) / wd.bet),
           "rtp_gamble_once": _prob_json(once)}
    if not r.is_exact:
        out.update(eligible_probability_bound=float(pb), eligible_win_bound=float(eb),
                   rtp_without_gamble_bound=float(mb) / wd.bet,
                   rtp_gamble_once_bound=(float(mb) + abs(float(pm - 1)) * float(eb)) / wd.bet * (1 + 1e-9))
    return out
