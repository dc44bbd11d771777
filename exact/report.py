"""The PAR report of a math set: two views (text and JSON) of one :class:`exact.par.ParSheet`.

:func:`exact.par.par_sheet` runs the exact engine and the round once; the
views here only format its figures (:mod:`exact.formatting`, one rounding
rule).

Source: rules page sections 2 (game round), 5-11 (the win), 10 (trigger
table), 13 (2+ KEY); the JSON schema: README, section "JSON".
"""
from __future__ import annotations

import math
from fractions import Fraction

from exact.budget import budget_seconds, within
from exact.rules import component_rows, one_spin_round, placed, published_cells, report_json_keys
from exact.distribution import certain_text, one_in_text, sig_fraction, win_distribution
from exact import formatting
from exact.formatting import decimal_text, fraction_text, one_in, percent, table_lines
from exact.par import BAND_ROUNDS, CONFIDENCE, ParSheet
from exact.phase_law import EnumeratedPhase
from exact.tables import level_symbol_rows

#: Blocks of the JSON report whose exact figures have no ``_float`` companion (wheel awards are keyed by text).
NO_FLOATS = frozenset({"awards"})

#: What the report says when the round's win distribution is not computed.
ROUND_NOT_COMPUTED = "not computed, run rtp distribution"


def by_symbol_missing(a) -> str | None:
    """Why a phase analysis ``a`` has no by-symbol figures (its exact figures come from the total win of each
    window: enumeration, or the pay-anywhere count product), or None when it has them.

    >>> import exact
    >>> from exact.engine import analyse_phase
    >>> ms = exact.math_set({"game": {"reels": 2, "rows": 1, "bet": 1, "evaluation": "clusters"},
    ...                      "symbols": {"A": {"class": "pay", "pays": [0, 5]}}}, {"base": [["A", "A"], ["A", "A"]]})
    >>> by_symbol_missing(analyse_phase(ms, ms.model.base_phase))
    'not computed: the exact figures come from the total win of each window (enumeration of 4 stop combinations), not symbol by symbol'
    """
    if isinstance(a, EnumeratedPhase) and not a.ways_by_symbol:
        return (f"not computed: the exact figures come from the total win of each window ({a.method}), "
                f"not symbol by symbol")
    return None


def cheap_distribution(ms):
    """(the win distribution, None) when the report computes it, else (None, why not).

    By default the report computes it only where it is cheap by construction: a round that is one base
    spin (the one-spin DP, no feature chain), so the report's content, time and memory never depend
    on the machine's speed.  ``RTP_ROUND_BUDGET=S`` in the environment instead tries any game within
    ``S`` seconds (:func:`exact.budget.within`; the result then depends on the machine)."""
    seconds = budget_seconds()
    if seconds is None:
        if not one_spin_round(ms.model):
            return None, ("the round has free spins, a respin, wheels or bet modes: its distribution takes "
                          "seconds (RTP_ROUND_BUDGET=S tries it within S seconds)")
    try:
        wd, why = (within(seconds, win_distribution, ms, progress=False) if seconds is not None
                   else (win_distribution(ms, progress=False), None))
    except ValueError as e:
        return None, f"the win distribution refuses this game: {e}"
    return wd, None if wd is not None else f"the win distribution {why}"


def _not_computed(why: str) -> str:
    """Why the round's figures are not shown: run rtp distribution, unless it refuses the game too."""
    return f"not computed ({why})" if "refuses this game" in why else f"{ROUND_NOT_COMPUTED} ({why})"


def round_text(wd, why: str | None) -> list[str]:
    """The report's ROUND lines: hit frequency of the round and max win with its probability, or why not."""
    out = ["", "ROUND (from the win distribution)"]
    if wd is None:
        return out + [f"hit frequency and max win of the round: {_not_computed(why)}"]
    hf, hb = wd.hit_frequency
    p = wd.max_round_win_probability
    exact = wd.max_round_exact and not isinstance(p, float)
    pb = 0.0 if exact else wd.round.bound
    return out + [f"hit frequency of the round   {certain_text(hf, hb)} ({one_in_text(hf, hb)})",
                  f"max win of a round           {wd.max_round_win:,} credits "
                  f"({sig_fraction(Fraction(wd.max_round_win, wd.bet), 8)} x bet), P = {certain_text(p, pb)} "
                  f"({one_in_text(p, pb)}), " + ("exact" if exact else "within the distribution's bound")]


def round_json(wd, why: str | None) -> dict:
    """JSON ``round_figures``: ``computed``; the round's hit frequency and max win (exact ``"p/q"`` or a float
    within ``*_bound``) when computed, else ``reason``."""
    if wd is None:
        return {"computed": False, "reason": _not_computed(why)}
    hf, hb = wd.hit_frequency
    p = wd.max_round_win_probability
    def num(x):
        return x if isinstance(x, float) else fraction_text(x)
    return {"computed": True, "hit_frequency": num(hf), "hit_frequency_float": float(hf), "hit_frequency_bound": hb,
            "max_win": int(wd.max_round_win), "max_win_bets": fraction_text(Fraction(wd.max_round_win, wd.bet)),
            "max_win_bets_float": wd.max_round_win / wd.bet, "max_win_probability": num(p),
            "max_win_probability_float": float(p), "max_win_exact": bool(wd.max_round_exact)}


def report_text(rep: ParSheet, digits: int = 6, distribution=None, why: str | None = None) -> str:
    """The PAR report as aligned text sections; ``distribution`` (or ``why`` it is not there) gives the
    round's hit frequency and max win (:func:`cheap_distribution`)."""
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
    for s in rep.sections.values():
        out.extend(s.lines())
    add("")
    rows = [[words, decimal_text(v, digits), percent(v / rep.bet, digits)] for _, words, v in component_rows(rep)]
    if len(r.free_spins_by_level) > 1:
        for i, w in enumerate(r.free_spins_by_level, start=1):
            lv = a.levels[i - 1].phase
            rows.append([f"  level {i} (x{lv.multiplier})", decimal_text(w, digits), percent(w / rep.bet, digits)])
    rows.append(["total", decimal_text(r.mean, digits), percent(rep.rtp, digits)])
    out += table_lines(["RTP split", "credits/round", "RTP"], rows)
    add("")
    add(f"BASE GAME {rep.words.by_symbol.upper()} BY SYMBOL (per base spin{rep.words.note})")
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
    missing = by_symbol_missing(a.base)
    if missing and not rows:
        out.append(missing)
    else:
        out += table_lines(["symbol"] + [f"P({n} OAK)" for n in oaks] + [f"RTP {n} OAK" for n in oaks] + ["RTP"], rows)
        rest = a.base.pays_mean / rep.bet - sum((row.rtp_total for row in srows), Fraction(0))
        if rest:        # pays the table does not split by symbol (a group of mixed symbols)
            out.append(f"not by symbol: {percent(rest, 4)} of the {rep.words.pays} (wins of no single symbol: "
                       f"symbol groups); the rows and this sum to the base game's {percent(a.base.pays_mean / rep.bet, 4)}")
    out += placed_text(rep, "after_symbols", digits)
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
    if distribution is not None or why is not None:
        out += round_text(distribution, why)
    if r.features:
        add("")
        add("FREE SPINS TRIGGER (per base spin)")
        rows = []
        shown_any = False
        for n, p in r.trigger_prob.items():
            spins = r.features[n].initial_spins
            rows.append([f"{n} {rep.scatter_name}", str(spins), decimal_text(p, 8), one_in(p)]
                        + published_cells(rep, f"trigger.{n}", ""))
            shown_any |= bool(rep.published(f"trigger.{n}"))
        rows.append(["any", "", decimal_text(r.trigger_probability, 8), one_in(r.trigger_probability)]
                    + published_cells(rep, "trigger_any", ""))
        shown_any |= bool(rep.published("trigger_any"))
        headers = [rep.scatter_name, "spins", "probability", "frequency", "published", "check"]
        if not shown_any:
            headers, rows = headers[:4], [row[:4] for row in rows]
        out += table_lines(headers, rows, "lrrrrl")
        add(f"expected free spins awarded per paid spin (q)  {decimal_text(r.q, 6)}")
        if r.retrigger_per_spin:
            cap = "no cap" if r.retrigger_cap is None else f"cap {r.retrigger_cap} spins"
            add(f"expected retrigger spins per free spin E[R]    {decimal_text(r.retrigger_per_spin, 6)} ({cap})")
        add(f"expected free spins played per round           {decimal_text(r.free_spins_played, 6)}")
    out += placed_text(rep, "after_trigger", digits)     # the KEY collect's 2+ KEY odds
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
        out += free_spin_symbols_text(rep)
    if rep.facts:
        checked = [f for f in rep.facts if f.is_fact]
        failed = [f for f in checked if f.failed]
        add("")
        add("PUBLISHED FACTS (the set's published.toml; rtp check lists each)")
        add(f"{len(checked) - len(failed)} of {len(checked)} pass" + (f"; {len(failed)} FAIL:" if failed else ""))
        out += [f"  FAIL {f.fact} [{f.source}]: published {f.published}, here {f.shown}" for f in failed]
    out += bonus_text(rep, digits)
    if rep.findings:
        add("")
        add("FINDINGS (soft strip rules of the game file, [strip_rules])")
        out += [f"  {f}" for f in rep.findings]
    return "\n".join(out) + "\n"


def placed_text(rep: ParSheet, place: str, digits: int = 6) -> list[str]:
    """The sections of the rules the game uses that stand at ``place`` of the text report
    (:meth:`exact.rules.Rule.report_text`, :data:`exact.rules.base.VIEW_PLACES`), in registry order."""
    return [line for rule in placed(rep.rules, "text", place) for line in rule.report_text(rep, formatting, digits)]


def free_spin_symbols_text(rep: ParSheet) -> list[str]:
    """FREE SPINS BY SYMBOL: the per-symbol OAK table of the free-spin strips, one table per level."""
    out: list[str] = []
    for i, lv in enumerate(rep.analysis.levels, start=1):
        rows = [[s, str(n), sig_fraction(p, 6), one_in(p), decimal_text(w, 6)] for s, n, p, w in level_symbol_rows(rep, i)
                if p]
        out += ["", f"FREE SPINS LEVEL {i} (x{lv.phase.multiplier}) BY SYMBOL (per free spin, {lv.phase.strips} strips)"]
        missing = by_symbol_missing(lv)
        if missing and not rows:
            out.append(missing)
            continue
        out += table_lines(["symbol", "OAK", "probability", "frequency", "mean win (credits)"], rows, "llrrr")
    return out


def free_spin_symbols_json(rep: ParSheet) -> dict:
    """``free_spin_symbols`` {level: {symbol: {OAK: {probability, mean_win (credits per free spin)}}}} with floats."""
    out: dict = {}
    for i in range(1, len(rep.analysis.levels) + 1):
        level: dict = {}
        for s, n, p, w in level_symbol_rows(rep, i):
            level.setdefault(s, {})[str(n)] = {"probability": fraction_text(p), "probability_float": float(p),
                                               "mean_win": fraction_text(w), "mean_win_float": float(w)}
        out[str(i)] = level
    return out


def report_json(rep: ParSheet, digits: int = 6, distribution=None, why: str | None = None) -> dict:
    """The PAR report as one JSON-ready dict.

    Exact figures (:meth:`ParSheet.tree`) are ``"p/q"`` strings (counts stay
    integers); a float for readers sits beside each under the same key with
    the suffix ``_float`` (not in ``symbols`` and wheel ``awards``).  Schema:
    README, section "JSON".
    """
    def view(node: dict, floats: bool) -> dict:
        out: dict = {}
        for k, v in node.items():
            if isinstance(v, dict):
                out[k] = view(v, floats and k not in NO_FLOATS)
            elif isinstance(v, (int, str)):   # counts, and a section's reason in words
                out[k] = v
            else:
                out[k] = fraction_text(v)
                if floats:
                    out[k + "_float"] = float(v)
        return out

    exact = view(rep.tree(), True)
    out: dict = {"set": rep.set_name, "fingerprint": rep.fingerprint}
    if rep.sections:      # a rule on the round's total: say how its round was computed
        out["method"] = rep.method
    for k, v in exact.items():
        out[k] = v
        if k == "bet":
            out["strips"] = {s: {"lengths": list(n), "cycle": rep.cycle(s)} for s, n in rep.reel_lengths.items()}
        elif k == "rtp_float":
            out["rtp_percent"] = decimal_text(100 * rep.rtp, digits)
        elif k == "variance_float":
            out["sd_per_bet"] = rep.sd_per_bet
            out["volatility_index"] = {str(int(c * 100)): rep.volatility_index(c) for c in CONFIDENCE}
            out["rtp_band"] = {str(n): {str(int(c * 100)): list(rep.rtp_band(n, c)) for c in CONFIDENCE}
                               for n in BAND_ROUNDS}
        elif k == "symbols":
            if (missing := by_symbol_missing(rep.analysis.base)) and not v:
                out["symbols_not_computed"] = missing
            out["published"] = published_json(rep)
    out.update(report_json_keys(rep))       # each rule's keys beyond the exact figures (paylines, scatter_pays)
    if rep.analysis.levels:
        out["free_spin_symbols"] = free_spin_symbols_json(rep)
    if distribution is not None or why is not None:
        out["round_figures"] = round_json(distribution, why)
    out["findings"] = [str(f) for f in rep.findings]
    return out


def published_json(rep: ParSheet) -> dict:
    """``published``: {``figures`` {figure: {``printed``, ``pass``}}, ``facts`` {``checked``, ``failed``}}."""
    figures: dict = {}
    for f in rep.facts:
        if f.is_fact and f.figure:
            entry = figures.setdefault(f.figure, {"printed": [], "pass": True})
            entry["printed"].append(f.published)
            entry["pass"] = entry["pass"] and not f.failed
    checked = [f for f in rep.facts if f.is_fact]
    return {"figures": figures, "facts": {"checked": len(checked), "failed": [f.fact for f in checked if f.failed]}}


def published_ok(rep: ParSheet) -> bool:
    """True when every published fact of the set (``rtp check``) passes on the sheet."""
    return not any(f.failed for f in rep.facts)


# ---------------------------------------------------------------------------
# bet modes, buys, respins, wheels (text and JSON)
# ---------------------------------------------------------------------------
def bonus_text(rep: ParSheet, digits: int = 6) -> list[str]:
    """The sections of the rules the game uses beyond its spins (:meth:`exact.rules.Rule.report_text`: BET
    MODES, BOUGHT FEATURES, PRIZE WHEELS, GAMBLE), in registry order; empty for a game with none."""
    return placed_text(rep, "end", digits)


