"""The PAR report of a math set: one object, two views (text and JSON).

``build_report`` runs the exact engine and the free-spin chain; every exact
figure of the :class:`Report` is an int or Fraction.  Standard deviation,
volatility index and confidence bands involve square roots, so they are
floats, for display only.

Source: rules page sections 2 (game round), 5-11 (the win), 10 (trigger
table), 13 (2+ KEY); PAR-sheet figures as game mathematicians use them
(VI = z x standard deviation per bet; observed-RTP band RTP +/- VI / sqrt(N)).
"""
from __future__ import annotations

import dataclasses
import math
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from statistics import NormalDist
from typing import Mapping

from exact.bonus import BuyResult, ModeResult, analyse_buys, analyse_mode, analyse_modes
from exact.engine import GameAnalysis
from strips.model import Finding, MathSet
from markov.round import RoundResult
from strips import published as pub
from strips.fingerprint import fingerprint
from strips.published import applies_to

CONFIDENCE = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))
BAND_ROUNDS = (10**3, 10**5, 10**7)


@dataclass(frozen=True)
class SymbolRow:
    """One pay symbol of the base game: OAK probabilities and RTP contributions.

    ``oak_prob[i]`` and ``rtp[i]`` are for OAK = ``oaks[i]`` (the OAKs that
    pay); ``rtp`` is a fraction of the bet, per base spin.
    """

    symbol: str
    oaks: tuple[int, ...]
    oak_prob: tuple[Fraction, ...]
    rtp: tuple[Fraction, ...]

    @property
    def rtp_total(self) -> Fraction:
        return sum(self.rtp, Fraction(0))


@dataclass(frozen=True)
class Published:
    """A figure the rules page prints beside its exact value on the set."""

    text: str
    passes: bool


@dataclass(frozen=True)
class Report:
    """Every figure of the PAR report.  Exact figures are Fractions.

    Attributes
    ----------
    set_name, fingerprint, title : str
    bet : int
        Credits per round.
    analysis : GameAnalysis
        One-spin figures of every phase.
    round : RoundResult
        Whole-round figures (credits per round).
    findings : tuple of Finding
        Soft strip-rule findings of the loader.
    published_trigger : mapping int -> (Published, Published) or empty
        Probability and "1 in N" as printed, for the rules-page game.
    published_key_2plus : mapping str -> Published or empty
    paying_oaks : mapping str -> tuple of int
        Pay symbol -> the OAKs with a non-zero paytable value (section 5).
    scatter_name : str
        Name of the scatter symbol for labels (``FS`` in the rules-page game).
    has_collect : bool
        Whether the game has KEY symbols (collect and the KEY figures apply).
    reel_lengths : mapping str -> tuple of int
        Strip set -> stops of each reel (reel 1 first); their product is the
        set's cycle (:meth:`cycle`).
    facts : tuple of proofs.facts.FactResult
        Every published fact of the rules page checked on the set (``rtp
        check``), for the rules-page game; empty for other games.
    paylines : int
        Number of paylines of a line game (0: a ways game); the symbol table
        then holds line wins (issue 15).
    """

    set_name: str
    fingerprint: str
    title: str
    bet: int
    analysis: GameAnalysis
    round: RoundResult
    findings: tuple[Finding, ...]
    published_trigger: Mapping[int, tuple[Published, Published]]
    published_key_2plus: Mapping[str, Published]
    paying_oaks: Mapping[str, tuple[int, ...]]
    scatter_name: str = "FS"
    has_collect: bool = True
    facts: tuple = ()
    reel_lengths: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    paylines: int = 0

    def cycle(self, strip_set: str) -> int:
        """Stop combinations of one strip set: the product of its reel lengths (the full cycle)."""
        return math.prod(self.reel_lengths[strip_set])
    modes: Mapping[str, "ModeResult"] = field(default_factory=dict)
    buys: Mapping[str, "BuyResult"] = field(default_factory=dict)

    # ---- derived exact figures ------------------------------------------------
    @property
    def rtp(self) -> Fraction:
        """E[round win] / bet."""
        return self.round.rtp

    @property
    def components(self) -> dict[str, Fraction]:
        """Credits per round: base ways, base collect, base scatter pays, free spins (sum = mean win)."""
        r = self.round
        out = {"base_ways": r.base_ways, "base_collect": r.base_collect,
               "base_scatter": self.analysis.base.scatter_mean, "free_spins": r.free_spins}
        if r.respin_prob:
            out["respin"] = r.respin
        if r.wheels:
            out["wheel"] = r.wheel
        return out

    @property
    def key_2plus(self) -> dict[str, Fraction]:
        """P(2+ KEY) per base spin and per free spin (level 1; every level spins the same strips)."""
        out = {"base": self.analysis.base.key_2plus}
        if self.analysis.levels:
            out["free"] = self.analysis.levels[0].key_2plus
        return out

    def symbol_rows(self) -> list[SymbolRow]:
        """Per-symbol ways table of the base game (a PAR sheet's symbol table), paying OAKs only."""
        base = self.analysis.base
        rows = []
        for s, ways in base.ways_by_symbol.items():
            oaks = self.paying_oaks[s]
            rows.append(SymbolRow(s, oaks, tuple(base.oak_prob[s][n - 1] for n in oaks),
                                  tuple(ways[n - 1] / self.bet for n in oaks)))
        return rows

    # ---- display figures (floats) ------------------------------------------
    @property
    def sd_per_bet(self) -> float:
        """Standard deviation of the round win in bets (float, display)."""
        return math.sqrt(self.round.variance) / self.bet

    def volatility_index(self, confidence: Fraction) -> float:
        """VI = z x sd per bet, z the two-sided standard normal quantile (float, display)."""
        z = NormalDist().inv_cdf(float((1 + confidence) / 2))
        return z * self.sd_per_bet

    def rtp_band(self, rounds: int, confidence: Fraction) -> tuple[float, float]:
        """Observed-RTP band after ``rounds`` rounds: RTP +/- VI / sqrt(rounds) (floats)."""
        half = self.volatility_index(confidence) / math.sqrt(rounds)
        return float(self.rtp) - half, float(self.rtp) + half


def build_report(ms: MathSet, checker=None) -> Report:
    """Run the exact engine and the free-spin chain on a math set.

    ``checker(ms, analysis) -> list of FactResult`` (e.g. :func:`proofs.facts.check_facts`)
    checks the set's published facts; without it the report holds none.

    Raises
    ------
    ValueError
        If the set's strips and game file disagree (see :func:`exact.engine.analyse`).
    """
    default = analyse_mode(ms)
    analysis, rr = default.analysis, default.round
    trig, keys, facts = {}, {}, ()
    if checker is not None and applies_to(ms):
        facts = tuple(checker(ms, analysis))
        for n, printed in pub.TRIGGER_PROBABILITY.items():
            p = analysis.base.by_scatter.prob[n] if n < len(analysis.base.by_scatter.prob) else Fraction(0)
            freq = pub.TRIGGER_FREQUENCY[n]
            trig[n] = (Published(printed.text, pub.rounds_to(p, printed)),
                       Published(freq.text, p != 0 and pub.rounds_to(1 / p, freq)))
        for k, printed in pub.KEY_2PLUS.items():
            phase = analysis.base if k == "base" else (analysis.levels[0] if analysis.levels else None)
            if phase is not None:
                keys["base" if k == "base" else "free"] = Published(printed.text, pub.rounds_to(phase.key_2plus, printed))
    rep = Report(set_name=ms.name, fingerprint=fingerprint(ms), title=ms.model.title, bet=ms.model.bet,
                 analysis=analysis, round=rr, findings=ms.findings, published_trigger=trig,
                 published_key_2plus=keys,
                 paying_oaks={s.name: tuple(i + 1 for i, v in enumerate(s.pays) if v) for s in ms.model.pay_symbols
                              + tuple(w for w in ms.model.of_kind("wild") if w.pays)},
                 scatter_name=ms.model.trigger_symbol.name if ms.model.trigger_symbol else "scatter",
                 has_collect=bool(ms.model.of_kind("key")), facts=facts, paylines=len(ms.model.paylines),
                 reel_lengths={k: rs.lengths for k, rs in ms.strips.items()},
                 modes=analyse_modes(ms, default), buys=analyse_buys(ms, default))
    return rep


# ---------------------------------------------------------------------------
# formatting
# ---------------------------------------------------------------------------
def int_text(n: int) -> str:
    """Decimal digits of an int of any length (exact figures can pass Python's 4300-digit str limit)."""
    try:
        return str(n)
    except ValueError:
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return str(n)
        finally:
            sys.set_int_max_str_digits(old)


def fraction_text(x: Fraction) -> str:
    """``"p/q"`` (or ``"n"`` for an integer): the exact JSON form."""
    x = Fraction(x)
    return int_text(x.numerator) if x.denominator == 1 else f"{int_text(x.numerator)}/{int_text(x.denominator)}"


def decimal_text(x: Fraction, digits: int) -> str:
    """Exact decimal rounding (half to even) of a Fraction to ``digits`` places."""
    q = round(Fraction(x), digits)
    sign = "-" if q < 0 else ""
    q = abs(q)
    scaled = q.numerator * 10**digits // q.denominator
    whole, frac = divmod(scaled, 10**digits)
    return f"{sign}{whole}" + (f".{frac:0{digits}d}" if digits > 0 else "")


def percent(x: Fraction, digits: int) -> str:
    return decimal_text(100 * Fraction(x), digits) + "%"


def one_in(p: Fraction) -> str:
    """``"1 in N"`` with N = 1/p to two decimals, or ``"never"``."""
    return "never" if p == 0 else f"1 in {decimal_text(1 / p, 2)}"


def table_lines(headers: list[str], rows: list[list[str]], align: str | None = None) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    align = align or "l" + "r" * (len(headers) - 1)
    def fmt(cells):
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, align)).rstrip()
    return [fmt(headers), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]


def report_text(rep: Report, digits: int = 6) -> str:
    """The PAR report as aligned text sections."""
    r = rep.round
    a = rep.analysis
    out: list[str] = []
    add = out.append
    add(f"PAR report: math set {rep.set_name}")
    if rep.title:
        add(f"game         {rep.title}")
    add(f"fingerprint  sha256:{rep.fingerprint}")
    add(f"bet          {rep.bet} credits per round")
    for k, lengths in rep.reel_lengths.items():
        add(f"{k + ' strips':<12} {len(lengths)} reels of {'/'.join(map(str, lengths))} stops, "
            f"cycle {rep.cycle(k):,} stop combinations")
    add("")
    add("RETURN TO PLAYER")
    add(f"RTP          {percent(rep.rtp, digits)}")
    exact = fraction_text(rep.rtp)
    if len(exact) > 120:
        num, den = exact.split("/")
        exact = f"{num[:24]}.../{den[:24]}... ({len(num)}-digit / {len(den)}-digit fraction; full value: --json)"
    add(f"exact        {exact}")
    add(f"mean win     {decimal_text(r.mean, digits)} credits per round")
    add("")
    labels = {"base_ways": "base game line pays" if rep.paylines else "base game ways pays", "base_collect": "base game collect",
              "base_scatter": "base game scatter pays", "free_spins": "free spins",
              "respin": "respin pays", "wheel": "prize wheels (their free spins included)"}
    rows = [[labels[k], decimal_text(v, digits), percent(v / rep.bet, digits)] for k, v in rep.components.items()
            if v or k == "base_ways" or (k == "free_spins" and r.features) or (k == "base_collect" and rep.has_collect)]
    if len(r.free_spins_by_level) > 1:
        for i, w in enumerate(r.free_spins_by_level, start=1):
            lv = a.levels[i - 1].phase
            rows.append([f"  level {i} (x{lv.multiplier})", decimal_text(w, digits), percent(w / rep.bet, digits)])
    rows.append(["total", decimal_text(r.mean, digits), percent(rep.rtp, digits)])
    out += table_lines(["RTP split", "credits/round", "RTP"], rows)
    add("")
    add(f"BASE GAME LINE WINS BY SYMBOL (per base spin; P: one payline of {rep.paylines} wins so)" if rep.paylines
        else "BASE GAME WAYS BY SYMBOL (per base spin)")
    srows = rep.symbol_rows()
    oaks = sorted({n for row in srows for n in row.oaks})
    rows = []
    for row in srows:
        cells = [row.symbol]
        for n in oaks:
            cells.append(decimal_text(row.oak_prob[row.oaks.index(n)], 8) if n in row.oaks else "")
        for n in oaks:
            cells.append(percent(row.rtp[row.oaks.index(n)], 4) if n in row.oaks else "")
        cells.append(percent(row.rtp_total, 4))
        rows.append(cells)
    out += table_lines(["symbol"] + [f"P({n} OAK)" for n in oaks] + [f"RTP {n} OAK" for n in oaks] + ["RTP"], rows)
    add("")
    add("HIT FREQUENCY AND VOLATILITY")
    add(f"base spin hit frequency  {percent(a.base.hit_frequency, 4)} ({one_in(a.base.hit_frequency)})")
    add(f"variance                 {decimal_text(r.variance, 2)} credits^2 per round")
    add(f"standard deviation       {rep.sd_per_bet:.4f} bets per round")
    for c in CONFIDENCE:
        add(f"volatility index {int(c * 100)}%     {rep.volatility_index(c):.4f}")
    add("")
    add("OBSERVED RTP BAND (RTP +/- VI/sqrt(N))")
    rows = []
    for n in BAND_ROUNDS:
        rows.append([f"{n:,}"] + [f"{100 * lo:.4f}% .. {100 * hi:.4f}%" for lo, hi in
                                  (rep.rtp_band(n, c) for c in CONFIDENCE)])
    out += table_lines(["rounds"] + [f"{int(c * 100)}% band" for c in CONFIDENCE], rows)
    if r.features:
        add("")
        add("FREE SPINS TRIGGER (per base spin)")
        rows = []
        for n, p in r.trigger_prob.items():
            spins = r.features[n].initial_spins
            pub = rep.published_trigger.get(n)
            rows.append([f"{n} {rep.scatter_name}", str(spins), decimal_text(p, 8), one_in(p)]
                        + ([f"{pub[0].text} / 1 in {pub[1].text}", "PASS" if pub[0].passes and pub[1].passes else "FAIL"]
                           if pub else ["", ""]))
        rows.append(["any", "", decimal_text(r.trigger_probability, 8), one_in(r.trigger_probability), "", ""])
        headers = [rep.scatter_name, "spins", "probability", "frequency", "published", "check"]
        if not rep.published_trigger:
            headers, rows = headers[:4], [row[:4] for row in rows]
        out += table_lines(headers, rows, "lrrrrl")
        add(f"expected free spins awarded per paid spin (q)  {decimal_text(r.q, 6)}")
        if r.retrigger_per_spin:
            cap = "no cap" if r.retrigger_cap is None else f"cap {r.retrigger_cap} spins"
            add(f"expected retrigger spins per free spin E[R]    {decimal_text(r.retrigger_per_spin, 6)} ({cap})")
        add(f"expected free spins played per round           {decimal_text(r.free_spins_played, 6)}")
    if rep.has_collect:
        add("")
        add("TWO OR MORE KEY SYMBOLS")
        rows = []
        for k, p in rep.key_2plus.items():
            pub = rep.published_key_2plus.get(k)
            rows.append([f"per {k} spin" if k == "base" else "per free spin", percent(p, 4)]
                        + ([pub.text, "PASS" if pub.passes else "FAIL"] if pub else ["", ""]))
        out += table_lines(["", "probability", "published", "check"], rows, "lrrl")
    if r.features:
        add("")
        add("FREE SPINS FEATURE BY TRIGGER")
        levels = len(a.levels)
        rows = []
        for n, f in r.features.items():
            rows.append([f"{n} {rep.scatter_name}", str(f.initial_spins), decimal_text(f.mean, 2),
                         f"{math.sqrt(f.variance):.2f}", decimal_text(f.spins, 3)]
                        + ([decimal_text(f.keys, 3)] if rep.has_collect else [])
                        + [percent(f.reach[i], 3) for i in range(1, levels)])
        out += table_lines(["trigger", "spins", "mean win", "sd", "E[spins]"] + (["E[KEY]"] if rep.has_collect else [])
                      + [f"reach L{i + 1}" for i in range(1, levels)], rows)
        add("")
        add("per free spin (one spin of each level)")
        rows = []
        for lv in a.levels:
            rows.append([lv.phase.name, f"x{lv.phase.multiplier}", decimal_text(lv.mean, 4),
                         percent(lv.hit_frequency, 3)] + ([percent(lv.key_2plus, 4)] if rep.has_collect else []))
        out += table_lines(["level", "mult", "mean win", "hit freq"] + (["P(2+ KEY)"] if rep.has_collect else []), rows)
    if rep.facts:
        checked = [f for f in rep.facts if f.is_fact]
        failed = [f for f in checked if f.failed]
        add("")
        add("PUBLISHED FACTS OF THE RULES PAGE (rtp check lists each)")
        add(f"{len(checked) - len(failed)} of {len(checked)} pass" + (f"; {len(failed)} FAIL:" if failed else ""))
        out += [f"  FAIL {f.fact} [{f.source}]: published {f.published}, here {f.shown}" for f in failed]
    out += bonus_text(rep, digits)
    if rep.findings:
        add("")
        add("FINDINGS (strip rules of rules-page section 3)")
        out += [f"  {f}" for f in rep.findings]
    return "\n".join(out) + "\n"


def report_json(rep: Report, digits: int = 6) -> dict:
    """The PAR report as one JSON-ready dict.

    Exact figures are ``"p/q"`` strings; a float for readers sits beside under
    the same key with the suffix ``_float``.  Schema: README, section "JSON".
    """
    r = rep.round
    a = rep.analysis

    def ex(x: Fraction) -> str:
        return fraction_text(x)

    def pair(d: dict, key: str, x: Fraction) -> None:
        d[key] = ex(x)
        d[key + "_float"] = float(x)

    out: dict = {"set": rep.set_name, "fingerprint": rep.fingerprint, "bet": rep.bet}
    out["strips"] = {k: {"lengths": list(v), "cycle": rep.cycle(k)} for k, v in rep.reel_lengths.items()}
    pair(out, "rtp", rep.rtp)
    out["rtp_percent"] = decimal_text(100 * rep.rtp, digits)
    pair(out, "mean_win", r.mean)
    pair(out, "variance", r.variance)
    out["sd_per_bet"] = rep.sd_per_bet
    out["volatility_index"] = {str(int(c * 100)): rep.volatility_index(c) for c in CONFIDENCE}
    out["rtp_band"] = {str(n): {str(int(c * 100)): list(rep.rtp_band(n, c)) for c in CONFIDENCE} for n in BAND_ROUNDS}
    comps: dict = {}
    for k, v in rep.components.items():
        pair(comps, k, v)
    out["components"] = comps
    lv: dict = {}
    for i, w in enumerate(r.free_spins_by_level, start=1):
        pair(lv, str(i), w)
    out["free_spins_by_level"] = lv
    trig: dict = {}
    for n, p in r.trigger_prob.items():
        pair(trig, str(n), p)
    out["trigger"] = trig
    pair(out, "trigger_any", r.trigger_probability)
    pair(out, "q", r.q)
    pair(out, "retrigger_per_spin", r.retrigger_per_spin)
    pair(out, "free_spins_played", r.free_spins_played)
    feats: dict = {}
    for n, f in r.features.items():
        fd: dict = {"initial_spins": f.initial_spins}
        pair(fd, "mean", f.mean)
        pair(fd, "variance", f.variance)
        fd["reach"] = {}
        for i in range(1, len(f.reach)):
            pair(fd["reach"], str(i + 1), f.reach[i])
        pair(fd, "spins", f.spins)
        pair(fd, "keys", f.keys)
        feats[str(n)] = fd
    out["feature"] = feats
    k2: dict = {}
    for k, p in rep.key_2plus.items():
        pair(k2, k, p)
    out["key_2plus"] = k2
    pair(out, "hit_frequency_base", a.base.hit_frequency)
    out["symbols"] = {row.symbol: {str(n): {"probability": ex(p), "rtp": ex(x)}
                                   for n, p, x in zip(row.oaks, row.oak_prob, row.rtp)}
                      for row in rep.symbol_rows()}
    out["published"] = {
        "trigger": {str(n): {"probability": p.text, "frequency": f"1 in {q.text}", "pass": p.passes and q.passes}
                    for n, (p, q) in rep.published_trigger.items()},
        "key_2plus": {k: {"probability": p.text, "pass": p.passes} for k, p in rep.published_key_2plus.items()},
    }
    out.update(bonus_json(rep))
    out["findings"] = [str(f) for f in rep.findings]
    if rep.facts:
        checked = [f for f in rep.facts if f.is_fact]
        out["published"]["facts"] = {"checked": len(checked), "failed": [f.fact for f in checked if f.failed]}
    return out


def published_ok(rep: Report) -> bool:
    """True when every published figure printed in the report and every fact of ``rtp check`` passes."""
    return all(p.passes and q.passes for p, q in rep.published_trigger.values()) and \
        all(p.passes for p in rep.published_key_2plus.values()) and not any(f.failed for f in rep.facts)


# ---------------------------------------------------------------------------
# issue 16: bet modes, buys, respins, wheels (text and JSON)
# ---------------------------------------------------------------------------
def _pair(d: dict, key: str, x: Fraction) -> None:
    d[key] = fraction_text(x)
    d[key + "_float"] = float(x)


def bonus_text(rep: Report, digits: int = 6) -> list[str]:
    """The BET MODES, BOUGHT FEATURES and PRIZE WHEELS sections (empty for a game with none)."""
    out: list[str] = []
    if len(rep.modes) > 1 or any(m.round.respin_prob for m in rep.modes.values()):
        out += ["", "BET MODES (every figure per round of the mode; RTP = mean win / cost)"]
        rows = []
        for m in rep.modes.values():
            r = m.round
            rows.append([m.name, str(m.cost), percent(m.rtp, digits), decimal_text(r.mean, 4),
                         f"{math.sqrt(m.variance) / m.cost:.4f}", one_in(r.trigger_probability) if r.features else "",
                         one_in(r.respin_prob) if r.respin_prob else "", percent(r.respin / m.cost, 4) if r.respin_prob else "",
                         percent(r.wheel / m.cost, 4) if r.wheels else ""])
        out += table_lines(["mode", "cost", "RTP", "mean win", "sd/cost", "free spins", "respin",
                            "respin RTP", "wheel RTP"], rows)
        for m in rep.modes.values():
            out.append(f"  {m.name}: RTP exact {_short(fraction_text(m.rtp))}, variance {decimal_text(m.variance, 2)} credits^2 per round")
    if rep.buys:
        out += ["", "BOUGHT FEATURES (the free spins as after the trigger; no base spin, no wheel)"]
        rows = [[b.name, str(b.cost), str(b.trigger), str(b.feature.initial_spins), percent(b.rtp, digits),
                 decimal_text(b.feature.mean, 4), f"{math.sqrt(b.variance) / b.cost:.4f}"] for b in rep.buys.values()]
        out += table_lines(["buy", "cost", "trigger", "spins", "RTP", "mean win", "sd/cost"], rows)
        out += [f"  WARNING: {b.warning} ({percent(b.rtp, 4)} vs {percent(b.mode_rtp, 4)})"
                for b in rep.buys.values() if b.warning]
    if rep.round.wheels:
        out += ["", "PRIZE WHEELS (default mode, per round; a wheel's share includes the free spins it awards)"]
        for w in rep.round.wheels.values():
            out.append(f"{w.name}: starts {one_in(w.prob)} rounds ({decimal_text(w.prob, 8)}), "
                       f"RTP share {percent(w.mean / rep.bet, digits)} (exact {_short(fraction_text(w.mean / rep.bet))})")
            rows = [[text, decimal_text(p, 10), one_in(p)] for text, p in w.awards.items()]
            out += ["  " + line for line in table_lines(["award", "probability per round", "odds"], rows)]
    return out


def _short(exact: str) -> str:
    if len(exact) <= 60:
        return exact
    num, _, den = exact.partition("/")
    return f"{num[:20]}.../{den[:20]}... ({len(num)}/{len(den)} digits; full: --json)"


def bonus_json(rep: Report) -> dict:
    """JSON keys ``modes``, ``buy`` and ``wheel`` (issue 16; exact figures as "p/q" strings)."""
    out: dict = {"modes": {}, "buy": {}, "wheel": {}}
    for m in rep.modes.values():
        r = m.round
        d: dict = {"cost": m.cost}
        _pair(d, "rtp", m.rtp)
        _pair(d, "variance", m.variance)
        _pair(d, "mean_win", r.mean)
        _pair(d, "trigger_any", r.trigger_probability)
        if r.respin_prob:
            d["respin"] = {}
            _pair(d["respin"], "probability", r.respin_prob)
            _pair(d["respin"], "rtp", r.respin / m.cost)
        if r.wheels:
            _pair(d, "wheel_rtp", r.wheel / m.cost)
        out["modes"][m.name] = d
    for b in rep.buys.values():
        d = {"cost": b.cost, "trigger": b.trigger, "initial_spins": b.feature.initial_spins}
        _pair(d, "rtp", b.rtp)
        _pair(d, "variance", b.variance)
        _pair(d, "mean_win", b.feature.mean)
        if b.warning:
            d["warning"] = b.warning
        out["buy"][b.name] = d
    for w in rep.round.wheels.values():
        d = {}
        _pair(d, "rtp", w.mean / rep.bet)
        _pair(d, "probability", w.prob)
        d["awards"] = {text: fraction_text(p) for text, p in w.awards.items()}
        out["wheel"][w.name] = d
    return out
