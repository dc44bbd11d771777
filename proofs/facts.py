"""``rtp check``: every published fact of the rules page, checked exactly on a math set.

For each fact the command prints the published value, the exact value on the
set (a Fraction, and rounded as the page rounds it) and PASS or FAIL; exit 1
if any fact fails, 0 otherwise.  The RTP target of the bundled set (96.00%
+/- 0.005 pp) is not a published fact: it is listed on its own line as an
assumption and never changes the exit code.

The facts themselves are data in :mod:`strips.published`; probabilities come
from the exact engine (:func:`exact.engine.analyse`), the RTP from the
free-spin chain (:func:`markov.round.round_result`).

Source: rules page sections 3, 4, 10, 11 and 13, examples 1-9; issue 3.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exact.engine import analyse
from markov.round import round_result
from strips.model import FISH, KEY, MathSet
from strips import published as pub
from strips.published import (
    BASE,
    BONUS,
    EXAMPLES,
    KEY_2PLUS,
    MAX_AUS_RUN,
    MIN_PAY_BETWEEN_SPECIALS,
    REELS,
    ROWS,
    SPECIAL_REELS,
    STRIP_LENGTH,
    TOTALS,
    TRIGGER_FREQUENCY,
    TRIGGER_PROBABILITY,
    decimal_text,
    rounds_to,
)

#: Assumed RTP of the bundled reconstruction and its tolerance (issue 3): not a fact of the page.
ASSUMED_RTP = Fraction(96, 100)
ASSUMED_RTP_TOLERANCE = Fraction(5, 100000)
PASS, FAIL, MET, NOT_MET = "PASS", "FAIL", "assumption met", "assumption NOT met"


@dataclass(frozen=True)
class FactResult:
    """One published fact checked on a math set.

    Attributes
    ----------
    fact : str
        What the page states, in words.
    source : str
        Rules-page section or example.
    published : str
        The figure or content as printed.
    exact : object
        The exact value on the set: a Fraction (probabilities, per spin), an
        int (counts) or a str (window contents, placements).
    shown : str
        The exact value as the page would print it (rounded the page's way).
    status : str
        ``PASS`` or ``FAIL``; for the RTP assumption ``assumption met`` or
        ``assumption NOT met``.
    """

    fact: str
    source: str
    published: str
    exact: object
    shown: str
    status: str

    @property
    def is_fact(self) -> bool:
        """False for the RTP assumption line."""
        return self.status in (PASS, FAIL)

    @property
    def failed(self) -> bool:
        return self.status == FAIL


def _status(ok: bool) -> str:
    return PASS if ok else FAIL


def _fixed(x: Fraction, places: int) -> str:
    return decimal_text(x, places, grouping=True)


def _window_text(window) -> str:
    """A window, shape (reels, rows), as printed: rows top to bottom separated by ' / '."""
    return " / ".join(" ".join(col[i] for col in window) for i in range(len(window[0])))


def example_facts(ms: MathSet) -> list[FactResult]:
    """Examples 1-9: the window at the printed stops shows exactly the printed symbols."""
    out = []
    for ex in EXAMPLES:
        strips = ms.strips.get(ex.strip_set)
        printed = _window_text(ex.window)
        if strips is None:
            out.append(FactResult(f"example {ex.number} window", f"example {ex.number}", printed,
                                  "", f"no {ex.strip_set} strips", FAIL))
            continue
        got = _window_text(strips.window(ex.stops, ms.model.rows))
        out.append(FactResult(f"example {ex.number} window at stops {','.join(map(str, ex.stops))} "
                              f"({ex.strip_set} strips)", f"example {ex.number}", printed, got, got,
                              _status(got == printed)))
    return out


def longest_run(reel, members: frozenset[str]) -> int:
    """Longest cyclic run of symbols from ``members`` on a reel (the reel length if all are)."""
    n = len(reel)
    flags = [s in members for s in reel]
    if all(flags):
        return n
    start = flags.index(False)
    best = run = 0
    for k in range(1, n + 1):
        if flags[(start + k) % n]:
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best


def fewest_between(reel, specials: frozenset[str]) -> int | None:
    """Fewest symbols between two cyclically consecutive specials (None with fewer than 2 specials)."""
    pos = [i for i, s in enumerate(reel) if s in specials]
    if len(pos) < 2:
        return None
    n = len(reel)
    return min((b - a - 1) % n for a, b in zip(pos, pos[1:] + pos[:1]))


def strip_facts(ms: MathSet) -> list[FactResult]:
    """Section 3, 4 and 11 facts: shape, placement, spacing, AUS runs, FISH and KEY totals."""
    model = ms.model
    specials = frozenset(s.name for s in model.symbols if s.is_special)
    aus = frozenset(model.strip_rules.max_run_symbols) or frozenset(
        s.name for s in model.pay_symbols if s.name.startswith("AUS"))
    out = []
    for set_name in (BASE, BONUS):
        rs = ms.strips.get(set_name)
        if rs is None:
            out.append(FactResult(f"{set_name} strips exist", "section 3", "yes", "no", "no", FAIL))
            continue
        shape = (len(rs.reels), rs.lengths)
        ok = len(rs.reels) == REELS and all(n == STRIP_LENGTH for n in rs.lengths)
        out.append(FactResult(f"{set_name} strips: {REELS} reels x {STRIP_LENGTH} stops", "section 3",
                              f"{REELS} x {STRIP_LENGTH}", str(shape),
                              f"{len(rs.reels)} x {'/'.join(map(str, sorted(set(rs.lengths))))}", _status(ok)))
        allowed = SPECIAL_REELS[set_name]
        for name in sorted(specials):
            reels_on = tuple(r + 1 for r, reel in enumerate(rs.reels) if name in reel)
            legal = allowed.get(name, ())
            text = f"reels {', '.join(map(str, legal))}" if legal else "no reel"
            out.append(FactResult(f"{set_name} strips: {name} only on {text}", "sections 4, 11, 13", text,
                                  str(reels_on), f"reels {', '.join(map(str, reels_on))}" if reels_on else "no reel",
                                  _status(set(reels_on) <= set(legal))))
        gaps = [fewest_between(reel, specials) for reel in rs.reels]
        known = [g for g in gaps if g is not None]
        least = min(known) if known else None
        out.append(FactResult(f"{set_name} strips: {MIN_PAY_BETWEEN_SPECIALS} or more pay symbols between "
                              "two specials (cyclic)", "section 3", f">= {MIN_PAY_BETWEEN_SPECIALS}",
                              least, "no two specials" if least is None else f"fewest {least}",
                              _status(least is None or least >= MIN_PAY_BETWEEN_SPECIALS)))
        run = max(longest_run(reel, aus) for reel in rs.reels)
        out.append(FactResult(f"{set_name} strips: at most {MAX_AUS_RUN} AUS symbols in sequence (cyclic)",
                              "section 3", f"<= {MAX_AUS_RUN}", run, f"longest {run}",
                              _status(run <= MAX_AUS_RUN)))
        for label, kind in (("FISH", FISH), ("KEY", KEY)):
            names = {s.name for s in model.symbols if s.kind == kind}
            total = sum(1 for reel in rs.reels for s in reel if s in names)
            want = TOTALS[set_name][label]
            out.append(FactResult(f"{set_name} strips: {want} {label} symbols in total", "section 11",
                                  str(want), total, str(total), _status(total == want)))
    return out


def rule_facts(ms: MathSet) -> list[FactResult]:
    """Sections 2, 5, 6, 7, 10, 11: the game file's rules against the page's printed rules.

    Compares bet, paytable, WILD substitution, FISH values, FISH probabilities
    (weights are compared as exact probabilities w / sum w, so any scaling of a
    table passes), trigger spins, ladder thresholds, spins and multipliers, and
    the absence of retrigger, with :mod:`strips.published` (a transcription of
    the page independent of the game file).
    """
    model = ms.model
    out = [FactResult("bet per base spin, credits", "section 2", str(pub.BET), model.bet, str(model.bet),
                      _status(model.bet == pub.BET))]
    names = {s.name: s for s in model.symbols}
    for name, pays in pub.PAYTABLE.items():
        s = names.get(name)
        have = tuple(s.pays) if s is not None and s.kind == "pay" else None
        text = "/".join(map(str, pays[2:]))
        out.append(FactResult(f"{name} pays for 3/4/5 OAK, credits per way", "section 5", text, have,
                              "missing" if have is None else "/".join(map(str, have[2:])) +
                              ("" if have[:2] == pays[:2] else f" (1/2 OAK {have[0]}/{have[1]})"),
                              _status(have == pays)))
    wilds = [s for s in model.symbols if s.kind == "wild"]
    ok = bool(wilds) and all(not s.substitutes or s.substitutes >= set(pub.PAYTABLE) for s in wilds)
    out.append(FactResult("WILD substitutes for every PIC and AUS symbol", "section 6", "PIC1-PIC5, AUS1-AUS5",
                          ok, "yes" if ok else "no", _status(ok)))
    for name, values in pub.FISH_VALUES.items():
        s = names.get(name)
        have = tuple(s.values) if s is not None else None
        out.append(FactResult(f"{name} values, credits (reading: the art values, as examples 5, 6, 8, 9 collect "
                              "them; the section 7 table's credits column prints a tenth of them)",
                              "section 7, examples 5, 6, 8, 9", ", ".join(map(str, values)), have,
                              "missing" if have is None else ", ".join(map(str, have)), _status(have == values)))
        for table, percents in pub.FISH_PERCENT[name].items():
            want = tuple(Fraction(p) / 100 for p in percents)
            w = s.weights.get(table) if s is not None else None
            have_p = tuple(Fraction(x, sum(w)) for x in w) if w else None
            out.append(FactResult(f"{name} value probabilities, {table}", "section 7",
                                  "/".join(percents) + " %", have_p,
                                  "missing" if have_p is None else "/".join(_fixed(p * 100, 1) for p in have_p) + " %",
                                  _status(have_p == want)))
    trig = dict(model.trigger)
    out.append(FactResult("initial free spins for 3/4/5 FS", "section 10",
                          "/".join(str(pub.TRIGGER_SPINS[n]) for n in (3, 4, 5)), trig,
                          "/".join(str(model.initial_spins(n)) for n in (3, 4, 5)),
                          _status(all(model.initial_spins(n) == v for n, v in pub.TRIGGER_SPINS.items())
                                  and model.initial_spins(2) == 0)))
    have_ladder = tuple((lv.threshold, lv.spins, lv.multiplier) for lv in model.levels)
    for i, want in enumerate(pub.LADDER, start=1):
        have = have_ladder[i - 1] if i <= len(have_ladder) else None
        out.append(FactResult(f"level {i}: KEY threshold, spins, multiplier", "section 11",
                              f"{want[0]}, {want[1] or 'initial'}, x{want[2]}", have,
                              "missing" if have is None else f"{have[0]}, {have[1] or 'initial'}, x{have[2]}",
                              _status(have == want)))
    out.append(FactResult("levels in the ladder; no retrigger", "section 11", f"{len(pub.LADDER)}; no",
                          (len(have_ladder), bool(model.retrigger)),
                          f"{len(have_ladder)}; {'yes' if model.retrigger else 'no'}",
                          _status(len(have_ladder) == len(pub.LADDER) and not model.retrigger)))
    return out


def probability_facts(ms: MathSet, analysis) -> list[FactResult]:
    """Section 10 trigger probabilities and frequencies, section 13 P(2+ KEY), from the exact engine."""
    out = []
    prob = analysis.base.by_scatter.prob
    for n, printed in TRIGGER_PROBABILITY.items():
        p = prob[n] if n < len(prob) else Fraction(0)
        out.append(FactResult(f"P({n} FS symbols) per base spin", "section 10", printed.text, p,
                              _fixed(p, printed.decimals), _status(rounds_to(p, printed))))
        freq = TRIGGER_FREQUENCY[n]
        inv = 1 / p if p else None
        out.append(FactResult(f"frequency of {n} FS symbols, 1 in N", "section 10", f"1 in {freq.text}",
                              inv, "never" if inv is None else f"1 in {_fixed(inv, 0)}",
                              _status(inv is not None and rounds_to(inv, freq))))
    phases = [(BASE, "per base spin", analysis.base)]
    phases += [(BONUS, f"per free spin (level {i})", pa) for i, pa in enumerate(analysis.levels, start=1)]
    for set_name, label, pa in phases:
        printed = KEY_2PLUS[set_name]
        p = pa.key_2plus
        out.append(FactResult(f"P(2 or more KEY symbols) {label}", "section 13", printed.text, p,
                              _fixed(p * 100, printed.decimals - 2) + "%", _status(rounds_to(p, printed))))
    return out


def rtp_assumption(ms: MathSet, analysis) -> FactResult:
    """The assumed RTP of the bundled set (96.00% +/- 0.005 pp): an assumption, not a fact."""
    rtp = round_result(ms.model, analysis.base, analysis.levels).rtp
    ok = abs(rtp - ASSUMED_RTP) <= ASSUMED_RTP_TOLERANCE
    return FactResult("RTP of the whole game (assumption: the page publishes no RTP)", "PROVENANCE.md",
                      f"{_fixed(ASSUMED_RTP * 100, 2)}% +/- {_fixed(ASSUMED_RTP_TOLERANCE * 100, 3)} pp", rtp,
                      _fixed(rtp * 100, 5) + "%", MET if ok else NOT_MET)


def check_facts(ms: MathSet, analysis=None) -> list[FactResult]:
    """Every published fact of the rules page checked on ``ms``, then the RTP assumption line.

    Parameters
    ----------
    ms : MathSet
        A math set of the rules-page game (``base`` and ``bonus`` strips).
    analysis : exact.engine.GameAnalysis, optional
        The exact analysis of ``ms``; computed when not given.

    Returns
    -------
    list of FactResult
        The game file's rules against the printed rules, example windows (9),
        strip facts, probability facts, and last the RTP assumption
        (``is_fact`` False).

    Notes
    -----
    The window rows are fixed by section 3 (``ROWS`` = 4); a set whose game
    has another number of rows fails the example facts.
    """
    if analysis is None:
        analysis = analyse(ms)
    results = rule_facts(ms) + example_facts(ms) + strip_facts(ms) + probability_facts(ms, analysis)
    if ms.model.rows != ROWS:
        results.append(FactResult(f"window of {ROWS} rows", "section 3", str(ROWS), ms.model.rows,
                                  str(ms.model.rows), FAIL))
    return results + [rtp_assumption(ms, analysis)]


def _json_value(x):
    if isinstance(x, Fraction):
        return {"fraction": f"{x.numerator}/{x.denominator}", "float": float(x)}
    if isinstance(x, (tuple, list)):
        return [_json_value(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _json_value(v) for k, v in x.items()}
    return x
