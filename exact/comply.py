"""Jurisdiction rules checked exactly: award odds per game round, RTP limits, reported figures.

The rules are data (``exact/jurisdictions.toml``, or a lab's own file in the
same format): each names what it measures, its limit as an exact number, and
the document, section and version it comes from.  This module computes the
measured figures exactly and compares them with the limits.

Award odds per game round
-------------------------
GLI-11 counts an award's odds per game: a round (the paid base spin and the
free spins it starts) contains the award if any of its spins shows it.  For an
event ``E`` of one spin (a paying combination ``s`` with exactly ``n`` OAK, a
count of scatters that pays or triggers)::

    P(round avoids E) = sum_m P(base spin avoids E, S = m) * A(m)

with ``S`` the base spin's scatter count and ``A(m)`` the probability that the
feature started by ``m`` scatters avoids ``E`` (1 when ``m`` does not
trigger), from :mod:`markov.occurrence` over the same chain as the RTP: the
KEY-counter ladder (``A`` needs ``P(avoid E, KEY = k)`` per level) or the
retrigger chain (``P(avoid E, scatters = n)``).  Each joint split is a
product of per-reel polynomials: with ``I_r(x)``, ``O_r(x)``, ``T_r(x)`` the
sums of ``x^(count in the window)`` over the stops of reel ``r`` whose window
does / does not show ``s`` or a WILD that substitutes for it / all stops,
"exactly ``n`` OAK" is ``I_1 ... I_n O_(n+1) T_(n+2) ... T_N`` (ways games,
rules page section 6).  Scatter events use polynomials in two counts.

Patterns per line or way (AU/NZ 1.22.16a): with ``f_r`` the share of stops of
reel ``r`` whose row shows ``s`` or a substituting WILD (the same for every
row), one fixed way shows exactly ``n`` OAK with probability
``f_1 ... f_n (1 - f_(n+1))``; multiplied by the number of ways (``rows^N``)
that is the expected number of such ways per game.

Cost: per phase and combination one product of ``N`` polynomials of degree at
most ``rows x N``, then one forward pass of the chain per trigger.

References
----------
GLI-11 Standards for Gaming Devices v3.0 (2016), section 4.8.2; Australia/New
Zealand Gaming Machine National Standard rev. 5, sections 1.22.15-1.22.17.
"""
from __future__ import annotations

import dataclasses
import math
import re
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from exact.engine import GameAnalysis, analyse, fish_scale, multiplier_scale, reel_tables
from exact.lines import boundary_keys, combination_table, line_first_moments, line_machine, scatter_tags
from markov.feature import chain_class
from markov.occurrence import Bounds, feature_avoids
from exact.distribution import WinDistribution
from exact.par import ParSheet, par_sheet
from exact.enumeration import analyse_phase as enumerated_phase
from exact.falls import falls_game
from exact.frames import bowl_jackpot_odds
from exact.rules import (award_odds_refusal, factorisation, initial_spins, line_combinations, line_view, paying_scatters,
                         phase_reading, require,
                         scatter_codes, symbol_scatter_pay)
from exact.polynomials import poly_product
from markov.round import round_result
from strips.errors import MathSetError
from strips.model import DEFAULT_MODE, PAY, SCATTER, MathSet, Phase, window_codes
from strips.decimals import exact_text
from strips.display import printable
from strips.limits import integer_too_long, read_regular_file
from strips.toml_reader import parse_toml

__all__ = ["MEASURES", "Award", "Check", "Rule", "awards", "comply", "load_rules", "parse_rules", "patterns", "summary", "top_award_refusal"]

#: What a rule may measure (the ``measure`` key).
MEASURES = ("award_odds", "pattern_odds_ways", "rtp", "sd_per_bet", "hit_frequency", "max_win_bets")
_KEYS = ("id", "jurisdiction", "measure", "min", "max", "decimals", "source", "section", "version", "note")
RULES_FILE = "jurisdictions.toml"


# --------------------------------------------------------------------------
# rules
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Rule:
    """One rule of a jurisdiction.

    Attributes
    ----------
    id, jurisdiction, measure : str
        Lower-case ids; ``measure`` is one of :data:`MEASURES`.
    min, max : Fraction or None
        Limits, exact (probabilities per game round, RTP as a fraction of 1,
        bets, ...).
    decimals : int or None
        For a reported figure: the decimals it is reported to.
    source, section, version, note : str
        The document, its section, the version of the document, the reading.
    """

    id: str
    jurisdiction: str
    measure: str
    min: Fraction | None = None
    max: Fraction | None = None
    decimals: int | None = None
    source: str = ""
    section: str = ""
    version: str = ""
    note: str = ""

    def citation(self) -> str:
        """Where the rule is written, its empty parts left out: ``GLI-11, 3.3.1 (v3.0)``, ``my lab``.

        >>> Rule("x", "lab", "rtp", source="GLI-11", section="3.3.1", version="v3.0").citation()
        'GLI-11, 3.3.1 (v3.0)'
        >>> Rule("x", "lab", "rtp", source="my lab").citation()
        'my lab'
        """
        text = ", ".join(p for p in (self.source, self.section) if p)
        return f"{text} ({self.version})".lstrip() if self.version else text

    def limit_text(self) -> str:
        """The limit as a line shows it: ``>= 1/100000000``, ``<= 1``, ``reported``."""
        parts = []
        if self.min is not None:
            parts.append(f">= {_q(self.min)}")
        if self.max is not None:
            parts.append(f"<= {_q(self.max)}")
        return " and ".join(parts) or (f"reported to {self.decimals} decimals" if self.decimals is not None
                                        else "reported")


def _q(x: Fraction) -> str:
    return exact_text(x)


def _line_of(text: str, rule_index: int) -> int:
    """1-based line of the ``rule_index``-th ``[[rules]]`` header (0 if not found)."""
    seen = -1
    for i, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith("[[rules]]"):
            seen += 1
            if seen == rule_index:
                return i
    return 0


def _key_line(text: str, header: int, key: str) -> int:
    """1-based line of ``key = ...`` in the rule whose ``[[rules]]`` header is on line ``header``."""
    for i, line in enumerate(text.splitlines()[header:], start=header + 1):
        stripped = line.strip()
        if stripped.startswith("[["):
            break
        if stripped.split("=", 1)[0].strip().strip('"') == key:
            return i
    return header


def _number(text, file: str, row: int, key: str) -> Fraction:
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise MathSetError(file, row, 1, f"{key} must be an exact number in a string such as \"1/7000000\", "
                                         f"\"0.75\" or \"85%\" (or an integer), got {text!r}")
    s = str(text).strip().replace(",", "").replace("_", "")
    if len(s) > 60 or re.search(r"[eE][+-]?\d{4,}", s):   # 1e999999999 would build a billion-digit integer
        raise MathSetError(file, row, 1, f"{key} must be an exact number of at most 60 characters with an "
                                         f"exponent below 1000, got {str(text)[:40]!r}")
    scale = Fraction(1)
    if s.endswith("%"):
        s, scale = s[:-1].strip(), Fraction(1, 100)
    try:
        return Fraction(s) * scale
    except (ValueError, ZeroDivisionError):
        raise MathSetError(file, row, 1, f"{key} must be an exact number such as \"1/7000000\", \"0.75\" "
                                         f"or \"85%\", got {text!r}") from None


def parse_rules(data: bytes, file: str) -> tuple[Rule, ...]:
    """Rules from the bytes of a rules file (the format of ``exact/jurisdictions.toml``).

    Raises
    ------
    MathSetError
        Malformed TOML, a rule without ``id``/``jurisdiction``/``measure``, an
        unknown key or measure, a limit that is not an exact number, two rules
        with one id: with the file, row and column.

    Examples
    --------
    >>> rules = parse_rules(b'[[rules]]\\nid = "x"\\njurisdiction = "own"\\nmeasure = "rtp"\\nmin = "92%"\\n', "own.toml")
    >>> rules[0].min
    Fraction(23, 25)
    """
    try:
        text = data.decode("utf-8-sig")
        doc = tomllib.loads(text)
    except UnicodeDecodeError as e:
        raise MathSetError(file, 1, e.start + 1, "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        row = col = 1
        if "(at line " in msg:
            where = msg.rsplit("(at line ", 1)[1].rstrip(")")
            row, _, col_text = where.partition(", column ")
            row, col = int(row), int(col_text or 1)
            msg = msg.rsplit(" (at line ", 1)[0]
        raise MathSetError(file, row, col, f"not valid TOML: {msg}") from None
    except (ValueError, RecursionError):   # an integer past Python's digit limit, nesting too deep: one line
        doc = parse_toml(text, file)
    unknown = [k for k in doc if k != "rules"]
    if unknown:
        raise MathSetError(file, 1, 1, f"unknown table or key {unknown[0]!r} (a rules file holds [[rules]] only)")
    entries = doc.get("rules", [])
    if not isinstance(entries, list):
        raise MathSetError(file, 1, 1, "rules must be an array of tables ([[rules]])")
    out, ids = [], set()
    for i, e in enumerate(entries):
        row = _line_of(text, i)
        if not isinstance(e, dict):
            raise MathSetError(file, row, 1, "each [[rules]] entry must be a table")
        for k in e:
            if k not in _KEYS:
                raise MathSetError(file, _key_line(text, row, k), 1,
                                   f"rule {i + 1}: unknown key {k!r} (known: {', '.join(_KEYS)})")
        for k in ("id", "jurisdiction", "measure"):
            if not isinstance(e.get(k), str) or not e[k].strip():
                raise MathSetError(file, row, 1, f"rule {i + 1}: {k} must be a non-empty string")
        for k in ("id", "jurisdiction", "measure", "source", "section", "version"):   # an escape sequence
            # in a name would reach the terminal raw
            if isinstance(e.get(k), str) and printable(e[k]) != e[k]:
                raise MathSetError(file, _key_line(text, row, k), 1, f"rule {i + 1}: {k} holds a control or "
                                   f"invisible character ({printable(e[k])[:40]!r}); use printable text")
        dec = e.get("decimals")
        if isinstance(dec, int) and not isinstance(dec, bool) and integer_too_long(dec, 3):
            raise MathSetError(file, _key_line(text, row, "decimals"), 1,
                               f"rule {i + 1}: decimals must be an integer from 0 to 20")
        if e["measure"] not in MEASURES:
            raise MathSetError(file, _key_line(text, row, "measure"), 1, f"rule {e['id']}: unknown measure {e['measure']!r} "
                                             f"(known: {', '.join(MEASURES)})")
        if e["id"] in ids:
            raise MathSetError(file, row, 1, f"rule id {e['id']!r} appears twice")
        ids.add(e["id"])
        lo = None if "min" not in e else _number(e["min"], file, _key_line(text, row, "min"), "min")
        hi = None if "max" not in e else _number(e["max"], file, _key_line(text, row, "max"), "max")
        dec = e.get("decimals")
        if dec is not None and (not isinstance(dec, int) or isinstance(dec, bool) or not 0 <= dec <= 20):
            raise MathSetError(file, row, 1, f"rule {e['id']}: decimals must be an integer from 0 to 20")
        if lo is None and hi is None and e["measure"] not in ("sd_per_bet",):
            raise MathSetError(file, row, 1, f"rule {e['id']}: give min or max")
        out.append(Rule(id=e["id"].strip().lower(), jurisdiction=e["jurisdiction"].strip().lower(),
                        measure=e["measure"], min=lo, max=hi, decimals=dec,
                        **{k: str(e.get(k, "")) for k in ("source", "section", "version", "note")}))
    return tuple(out)


def load_rules(extra: str | Path | None = None) -> tuple[Rule, ...]:
    """The package's rules, then those of ``extra`` (a rule with an id already present replaces it).

    Raises
    ------
    MathSetError
        As :func:`parse_rules`; also when ``extra`` cannot be read.

    Examples
    --------
    >>> sorted({r.jurisdiction for r in load_rules()})
    ['au-nz', 'gli-11', 'nevada', 'south-dakota']
    """
    data = resources.files("exact").joinpath(RULES_FILE).read_bytes()
    rules = {r.id: r for r in parse_rules(data, f"exact/{RULES_FILE}")}
    if extra is not None:
        path = Path(extra)
        if not path.is_file():
            raise MathSetError(str(path), 0, 0, "no such rules file (or not a regular file)")
        for r in parse_rules(read_regular_file(path), str(path)):   # bounded by --max-file-bytes
            rules[r.id] = r
    return tuple(rules.values())


# --------------------------------------------------------------------------
# per-reel polynomials
# --------------------------------------------------------------------------
def _poly(counts: Iterable, keep: Iterable[bool]) -> dict:
    out: dict = {}
    for c, k in zip(counts, keep):
        if k:
            out[c] = out.get(c, 0) + 1
    return out


@dataclass(frozen=True)
class _Reel:
    present: tuple       # present[p][stop]: pay symbol p (or a substituting WILD) in the window
    scatters: tuple      # per stop: the triggering scatter count
    chain: tuple         # per stop: the count the phase's chain reads (scatters or KEYs)
    stops: int
    paying: Mapping      # scatter name -> per-stop count of that paying scatter (its own codes)


def _reels(ms: MathSet, phase: Phase, chain_count: str) -> list[_Reel]:
    """The per-reel pieces of ``phase``; ``chain_count`` the count the phase's chain reads (a chain's
    ``count_by``: ``"scatter"`` or ``"key"``)."""
    model = ms.model
    d = fish_scale(model, phase.weights)
    dm = multiplier_scale(model, phase.weights)
    out = []
    for codes in ms.phase_strips(phase).codes:
        t = reel_tables(model, codes, phase.weights, d, dm)
        present = tuple(tuple(bool(v) for v in row) for row in (t.ways_count > 0))
        sc = tuple(int(v) for v in t.scatters)
        ch = sc if chain_count == "scatter" else tuple(int(v) for v in t.keys)
        paying = {s.name: tuple(int(v) for v in t.counts[list(scatter_codes(model, s))].sum(axis=0))
                  for s in paying_scatters(model)}
        out.append(_Reel(present, sc, ch, t.stops, paying))
    return out


def _split(joint: Mapping, denominator: int, size: int | None = None) -> list[Fraction]:
    n = (max(joint, default=0) + 1) if size is None else size
    return [Fraction(joint.get(k, 0), denominator) for k in range(n)]


def _oak_avoid(reels: list[_Reel], p: int, n: int) -> dict:
    """Joint (avoid exactly-n OAK of pay symbol p, chain count) as integer weights over prod(stops)."""
    total = poly_product([_poly(r.chain, [True] * r.stops) for r in reels])
    event = [_poly(r.chain, r.present[p]) for r in reels[:n]]
    if n < len(reels):
        event.append(_poly(reels[n].chain, [not x for x in reels[n].present[p]]))
        event += [_poly(r.chain, [True] * r.stops) for r in reels[n + 1:]]
    hit = poly_product(event)
    return {k: total.get(k, 0) - hit.get(k, 0) for k in total}


def _scatter_avoid(reels: list[_Reel], lo: int, hi: int, same: bool, symbol: str) -> dict:
    """Joint (avoid lo <= count < hi of the paying scatter ``symbol``, chain count); ``same``: the chain
    count is that scatter's count."""
    if same:
        total = poly_product([_poly(r.chain, [True] * r.stops) for r in reels])
        return {k: (0 if lo <= k < hi else v) for k, v in total.items()}
    joint = poly_product([_poly(zip(r.paying[symbol], r.chain), [True] * r.stops) for r in reels])
    out: dict = {}
    for (s, c), v in joint.items():
        if not lo <= s < hi:
            out[c] = out.get(c, 0) + v
    return out


# --------------------------------------------------------------------------
# awards
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Award:
    """An advertised award and its probability per game round.

    Attributes
    ----------
    item : str
        ``"PIC1 5 OAK"``, ``"FS 3 scatter pay"``, ``"trigger 3 FS"``, ``"max win"``.
    kind : str
        ``combination``, ``scatter pay``, ``trigger``, ``retrigger``, ``wheel``, ``bowl jackpot`` or ``max win``.
    probability : Bounds
        P(a round contains the award); exact unless the feature is an
        uncapped retrigger (rational bounds at most 1e-30 apart).
    credits : int or None
        The award's pay in credits where it is one (base game, before multipliers).
    """

    item: str
    kind: str
    probability: Bounds
    credits: int | None = None


class _Round:
    """The chain pieces shared by every award of one math set."""

    def __init__(self, ms: MathSet, analysis: GameAnalysis):
        model = ms.model
        self.ms, self.model = ms, model
        chain = chain_class(model)          # the free spins' chain (markov.feature) and the count it reads
        self.count_by = chain.count_by
        self.levels = list(model.levels)
        self.base = _reels(ms, model.base_phase, "scatter")
        self.free = [_reels(ms, model.level_phase(lv), self.count_by) for lv in self.levels]
        self.den_base = math.prod(r.stops for r in self.base)
        self.den_free = [math.prod(r.stops for r in rs) for rs in self.free]
        self.chain = chain.of(model, analysis.levels) if self.levels else None
        self.memo: dict = {}     # the chain's states and rows, read once for every award

    def feature_avoids(self, counts, per_level: list[dict]) -> dict[int, Bounds]:
        """Scatter count of the base spin -> P(its feature avoids the event), for each of ``counts``:
        one pass of the chain for every start."""
        spins = {m: initial_spins(self.model, m) for m in counts}
        starts = sorted({n for n in spins.values() if n})
        got = feature_avoids(self.chain, [_split(j, d) for j, d in zip(per_level, self.den_free)], starts,
                             self.memo) if starts and self.levels else {}
        one = Bounds(Fraction(1), Fraction(1))
        return {m: got.get(n, one) for m, n in spins.items()}

    def contains(self, base_avoid: dict, per_level: list[dict]) -> Bounds:
        """P(round contains the event) from the base joint (avoid, scatter count) and the per-level joints."""
        lo = hi = Fraction(0)
        avoids = self.feature_avoids([m for m, v in base_avoid.items() if v], per_level)
        for m, v in base_avoid.items():
            if v:
                a = avoids[m]
                w = Fraction(v, self.den_base)
                lo += w * a.low
                hi += w * a.high
        return Bounds(1 - hi, 1 - lo)


def awards(ms: MathSet, analysis: GameAnalysis | None = None) -> list[Award]:
    """Every advertised award of a ways game with its probability per game round.

    Parameters
    ----------
    ms : MathSet
    analysis : GameAnalysis, optional
        The exact engine's analysis (computed when not given).
    Returns
    -------
    list of Award
        Each paying combination (symbol, OAK) in any spin of the round, each
        scatter pay, each trigger (base spin) and retrigger (free spins).  The
        top award (the largest round win) comes from the win distribution
        (:func:`comply`).

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> a = awards(load_math_set("rules_page"))
    >>> [x.item for x in a if x.kind == "trigger"]
    ['trigger 3 FS', 'trigger 4 FS', 'trigger 5 FS']
    """
    model = ms.model
    analysis = analysis or analyse(ms)
    if falls_game(model):       # spins that fall, or pay anywhere: the enumerated awards
        return _enumerated_awards(ms, analysis)
    rd = _Round(ms, analysis)
    out: list[Award] = []
    out += COMBINATION_AWARDS[factorisation(model)](ms, analysis, rd)   # the evaluation's combinations
    trig = model.trigger_symbol
    scatter = trig.name if trig is not None else "scatter"
    max_sc = model.reels * model.rows
    for s in model.of_kind(SCATTER):
        for m in range(1, min(len(s.pays), max_sc) + 1):
            pay = symbol_scatter_pay(s, m)
            if pay:   # the last paytable entry pays every larger count too: one award, "n or more"
                top = m == len(s.pays)
                is_trig = trig is not None and s.name == trig.name
                hi = 10**9 if top else m + 1
                base = _scatter_avoid(rd.base, m, hi, is_trig, s.name)
                per_level = [_scatter_avoid(reels, m, hi, is_trig and rd.count_by == "scatter", s.name) for reels in rd.free]
                name = f"{s.name} {m}{'+' if top and m < max_sc else ''} scatter pay"
                out.append(Award(name, "scatter pay", rd.contains(base, per_level), pay))
    split = analysis.base.trigger_split.prob
    for m, hi in _ranges(model.trigger):
        p = sum(split[m:hi], Fraction(0))
        out.append(Award(f"trigger {m} {scatter}", "trigger", Bounds(p, p)))
    base = None
    for m, hi in _ranges(model.retrigger):      # the retrigger table's awards (a retrigger's free spins have a level)
        if base is None:     # no retrigger in the base spin
            base = poly_product([_poly(r.scatters, [True] * r.stops) for r in rd.base])
        per_level = []
        for reels in rd.free:
            total = poly_product([_poly(r.chain, [True] * r.stops) for r in reels])
            per_level.append({k: (0 if m <= k < hi else v) for k, v in total.items()})
        out.append(Award(f"retrigger {m} {scatter}", "retrigger", rd.contains(base, per_level)))
    return out


def _enumerated_awards(ms: MathSet, analysis: GameAnalysis) -> list[Award]:
    """The awards of a game whose phases are computed without per-reel terms (cascades, pay anywhere,
    clusters, the multiplier symbol): each advertised award (pay entry of a symbol's count, OAK or cluster
    size; scatter pay) with P(a spin pays it in some fall) from the phase's enumeration or count product
    (:attr:`exact.phase_law.EnumeratedPhase.award_odds`), then the triggers.

    Per round: exact through the free-spin chain (:class:`_FallsRound`) from each phase's joint law of (pays
    the award, award index); where that joint is missing (the count products) or the index is the free spins
    awarded over the falls, proven bounds: lower, P(the base spin pays it); upper (union bound), that plus the
    expected free spins played per round times the largest P(a free spin pays it) over the levels.  Exact for
    a game without free spins.  A trigger's odds are exact (the base spin's split).
    """
    model = ms.model
    rr = round_result(model, analysis.base, analysis.levels)

    def counted(a):          # the phase with its awards counted (the engine's, or enumerated again)
        return a if getattr(a, "award_odds", None) is not None else enumerated_phase(ms, a.phase, awards=True)

    def odds(a) -> dict:
        return {label: (credits, p) for label, credits, p in a.award_odds}

    phases = [counted(analysis.base)] + ([counted(lv) for lv in analysis.levels] if rr.free_spins_played else [])
    base = odds(phases[0])
    levels = [odds(lv) for lv in phases[1:]]
    rd = _FallsRound(ms, analysis, phases) if levels else None
    out = []
    for label in dict.fromkeys(list(base) + [x for lv in levels for x in lv]):
        credits, low = base.get(label, (None, Fraction(0)))
        free = max((lv[label][1] for lv in levels if label in lv), default=Fraction(0))
        credits = credits if credits is not None else next(lv[label][0] for lv in levels if label in lv)
        kind = "scatter pay" if label.endswith("scatter pay") else "combination"
        bounds = rd.award(label) if rd is not None else None
        out.append(Award(label, kind, bounds or Bounds(low, min(Fraction(1), low + rr.free_spins_played * free)),
                         credits))
    split = analysis.base.trigger_split.prob
    trig = model.trigger_symbol
    if getattr(analysis.base, "awards_by_spins", False):   # the split counts the spins awarded over the falls
        out += [Award(f"trigger: {a} free spins awarded", "trigger", Bounds(p, p)) for a, p in enumerate(split) if a and p]
    else:
        for m, hi in _ranges(model.trigger):
            p = sum(split[m:hi], Fraction(0))
            out.append(Award(f"trigger {m} {trig.name if trig is not None else 'scatter'}", "trigger", Bounds(p, p)))
    return out


class _FallsRound(_Round):
    """The chain pieces of :class:`_Round` for a game whose phases are enumerated: the joints (avoid the award,
    award index) come from each phase's ``award_split`` (probabilities, so the denominators are 1), not from
    per-reel polynomials; the feature chain is the same as the RTP's."""

    def __init__(self, ms: MathSet, analysis: GameAnalysis, phases: list):
        model = ms.model
        chain = chain_class(model)
        self.ms, self.model, self.count_by, self.levels = ms, model, chain.count_by, list(model.levels)
        self.phases = phases           # base, then each level: enumerated with their awards counted
        self.den_base, self.den_free = 1, [1] * len(self.levels)
        self.chain = chain.of(model, analysis.levels) if self.levels else None
        self.memo = {}
        self.exact = not getattr(analysis.base, "awards_by_spins", False) and len(phases) == 1 + len(self.levels) \
            and all(getattr(a, "award_split", None) is not None for a in phases)

    def award(self, label: str) -> Bounds | None:
        """P(a round pays the award ``label`` in some spin) through the chain, or None without the splits."""
        if not self.exact:
            return None
        base = self.phases[0]
        split = base.trigger_split.prob
        hit = base.award_split.get(label, ())
        base_avoid = {m: p - (hit[m] if m < len(hit) else 0) for m, p in enumerate(split)}
        per_level = []
        for lv in self.phases[1:]:
            hit = lv.award_split.get(label, ())
            if self.count_by == "scatter":
                per_level.append({i: p - (hit[i] if i < len(hit) else 0) for i, p in enumerate(lv.by_scatter.prob)})
            else:             # a ladder: these games show no KEY, every free spin has KEY count 0
                per_level.append({0: 1 - sum(hit, Fraction(0))})
        return self.contains(base_avoid, per_level)


def line_probabilities(ms: MathSet, phase: Phase) -> dict[tuple[str, int], list[Fraction]]:
    """P(payline l pays the combination (symbol, run)) for every payline of a line game, one spin of ``phase``.

    The line's paid combination as :func:`exact.evaluator.line_pays` reads it (the higher of the
    symbol run and the WILD-only run); a combination multiplier drawn per spin is mixed by its
    exact weight.  Computed by the payline scan of :mod:`exact.lines`, one line at a time.

    Returns
    -------
    dict (symbol, run) -> list of Fraction, one per payline (payline order of the game file)
    """
    model = ms.model
    strips = ms.phase_strips(phase)
    windows = [window_codes(c, model.rows) for c in strips.codes]
    total = math.prod(w.shape[0] for w in windows)
    tags = scatter_tags(model, strips)
    keymaps = boundary_keys(tags, lambda k: k)
    table = combination_table(model, phase.weights)
    wsum = sum(w for _, w in table)
    out: dict = {}
    for m, w in table:
        if not w:
            continue
        _, _, count_label, labels = line_first_moments(line_machine(model, m), line_view(phase_reading(model, phase), windows), tags, keymaps,
                                                       model.paylines)
        for j, label in enumerate(labels):
            if label is None:
                continue
            acc = out.setdefault(label, [Fraction(0)] * len(model.paylines))
            for li in range(len(model.paylines)):
                acc[li] += Fraction(w * int(count_label[li, j]), wsum * total)
    return out


def _ways_awards(ms: MathSet, analysis: GameAnalysis, rd: "_Round") -> list[Award]:
    """Each paying OAK of each pay symbol of a ways game: P(some spin of the round shows it)."""
    model = ms.model
    out = []
    for p, s in enumerate(s for s in model.symbols if s.kind == PAY):
        for n in range(1, model.reels + 1):
            if n > len(s.pays) or not s.pays[n - 1]:
                continue
            base = _oak_avoid(rd.base, p, n)
            per_level = [_oak_avoid(reels, p, n) for reels in rd.free]
            out.append(Award(f"{s.name} {n} OAK", "combination", rd.contains(base, per_level), s.pays[n - 1]))
    return out


def _line_awards(ms: MathSet, analysis: GameAnalysis, rd: "_Round | None" = None) -> list[Award]:
    """Combinations of a line game per game round, as proven bounds.

    Lower bound: the larger of the likeliest single payline of the base spin (a round that shows it on that
    line contains the award) and P(the base spin triggers) x the likeliest payline of the first free spin
    (played at the first level, its stops independent of the base spin's).  Upper bound (union bound): the sum over paylines of the base spin, plus
    the expected free spins played per round times the largest per-spin sum over the levels.
    """
    model = ms.model
    rr = round_result(model, analysis.base, analysis.levels)
    base = line_probabilities(ms, model.base_phase)
    levels = [line_probabilities(ms, model.level_phase(lv)) for lv in model.levels]
    out = []
    for name, pays in line_combinations(model):     # each symbol's and each group's combinations
        for n in range(1, model.reels + 1):
            if n > len(pays) or not pays[n - 1]:
                continue
            per_line = base.get((name, n), [Fraction(0)])
            free = max((sum(lv.get((name, n), []), Fraction(0)) for lv in levels), default=Fraction(0))
            high = min(Fraction(1), sum(per_line, Fraction(0)) + rr.free_spins_played * free)
            first = max(levels[0].get((name, n), [Fraction(0)])) if levels else Fraction(0)
            low = max(max(per_line), rr.trigger_probability * first)
            out.append(Award(f"{name} {n} OAK", "combination", Bounds(low, high), pays[n - 1]))
    return out


def _ranges(table) -> list[tuple[int, int]]:
    """``(count, next count)`` per key of a trigger table: ``count <= n < next`` takes that key's award."""
    keys = sorted(c for c, _ in table)
    return [(c, keys[i + 1] if i + 1 < len(keys) else 10**9) for i, c in enumerate(keys)]


def patterns(ms: MathSet) -> list[tuple[str, Fraction]]:
    """Each base-game winning pattern's probability per way, times the number of ways (AU/NZ 1.22.16a).

    Returns
    -------
    list of (str, Fraction)
        ``("PIC1 5 OAK", expected ways showing exactly 5 OAK of PIC1 per base game)``.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> dict(patterns(load_math_set("rules_page")))["PIC1 5 OAK"] > 0
    True
    """
    return PATTERNS[factorisation(ms.model)](ms)


def _line_patterns(ms: MathSet) -> list[tuple[str, Fraction]]:
    """Expected paylines paying each combination per base spin: sum over lines of P(the line pays it)."""
    model = ms.model
    probs = line_probabilities(ms, model.base_phase)
    return [(f"{name} {n} OAK", sum(probs.get((name, n), []), Fraction(0)))
            for name, pays in line_combinations(model)
            for n in range(1, model.reels + 1) if n <= len(pays) and pays[n - 1]]


def _ways_patterns(ms: MathSet) -> list[tuple[str, Fraction]]:
    """Expected ways paying each combination per base spin of a ways game."""
    model = ms.model
    reels = _reels(ms, model.base_phase, "scatter")
    pays = [s for s in model.symbols if s.kind == PAY]
    ways = model.rows ** model.reels
    out = []
    for p, s in enumerate(pays):
        # each row of a reel shows s (or a substituting WILD) at the same share of stops
        f = [Fraction(_row_hits(ms, r, s.name), reels[r].stops) for r in range(model.reels)]
        for n in range(1, model.reels + 1):
            if n > len(s.pays) or not s.pays[n - 1]:
                continue
            q = math.prod(f[:n], start=Fraction(1)) * (1 - f[n] if n < model.reels else 1)
            out.append((f"{s.name} {n} OAK", q * ways))
    return out


#: The combination awards and patterns per factorisation of the evaluation (:func:`exact.rules.factorisation`).
COMBINATION_AWARDS = {"ways": _ways_awards, "lines": _line_awards}
PATTERNS = {"ways": _ways_patterns, "lines": _line_patterns}


def _row_hits(ms: MathSet, reel: int, symbol: str) -> int:
    model = ms.model
    return sum(1 for name in ms.phase_strips(model.base_phase).reels[reel]
               if name == symbol or (model.symbol(name).kind == "wild" and model.symbol(name).substitutes_for(symbol)))


# --------------------------------------------------------------------------
# checks
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Check:
    """One line of ``rtp comply``.

    Attributes
    ----------
    rule : Rule
    item : str
        What the line is about (``"PIC1 5 OAK"``, ``"RTP"``, ``"max win"``).
    value : Fraction or None
        The exact value (a lower bound where ``exact`` is False); None for a
        float-only figure (``value_float``).
    value_float : float
        The value as a float, for display.
    exact : bool
        False when ``value`` is a proven bound (uncapped retrigger, square roots).
    passed : bool
    """

    rule: Rule
    item: str
    value: Fraction | None
    value_float: float
    exact: bool
    passed: bool


def _verdict(rule: Rule, low: Fraction, high: Fraction | None = None) -> bool:
    high = low if high is None else high
    return (rule.min is None or low >= rule.min) and (rule.max is None or high <= rule.max)


def rtp_items(sheet: ParSheet) -> list[tuple[str, Fraction]]:
    """("RTP", rtp) of the default mode, then one per other bet mode and per buy (each wager available)."""
    out = [("RTP", sheet.rtp)]
    out += [(f"RTP of bet mode {name}", f["rtp"]) for name, f in sheet.modes_figures.items() if name != "default"]
    out += [(f"RTP of buy {name}", f["rtp"]) for name, f in sheet.buy.items()]
    return out


def wheel_awards(rr) -> list[Award]:
    """Every prize-wheel award (credits, jackpots, free spins) with its probability per round of the
    round ``rr`` (:class:`markov.round.RoundResult` of a bet mode: ``ParSheet.round`` for the default)."""
    out = []
    for name, w in rr.wheels.items():
        out.append(Award(f"wheel {name} starts", "wheel", Bounds(w.prob, w.prob)))
        out += [Award(f"{award} (wheel {name})", "wheel", Bounds(p, p)) for award, p in w.awards.items()]
    return out


def _widen_for_wheel_spins(found: list[Award], rr) -> list[Award]:
    """Free spins a prize wheel awards are extra spins of the round that :func:`awards` does not play:
    an award they could show gets the upper bound raised by P(a wheel awards free spins)."""
    q = sum((p for w in rr.wheels.values() for award, p in w.awards.items()
             if award.startswith("free_spins")), Fraction(0))
    if not q:
        return found
    return [Award(a.item, a.kind, Bounds(a.probability.low, min(Fraction(1), a.probability.high + q)), a.credits)
            if a.kind in ("combination", "scatter pay", "retrigger") else a for a in found]


def odds_not_computed(sheet: ParSheet) -> dict[str, str]:
    """Bet mode -> why :func:`mode_awards` leaves its combinations' odds out (a respin: its held-reel
    spins are not played by :func:`awards`; its triggers and wheel awards are given, :func:`round_awards`);
    every other mode's odds are computed."""
    out = {}
    for name, m in sheet.modes.items():
        why = award_odds_refusal(m.set.model)
        if why:
            out[name] = why
    return out


def round_awards(model, rr) -> list[Award]:
    """The awards of a round read off its exact :class:`markov.round.RoundResult` ``rr`` alone: each trigger
    range of ``model``'s trigger table (P(the window that decides the features shows that many triggering
    scatters), a respin's window where the spin is respun) and every prize-wheel award (:func:`wheel_awards`);
    what a bet mode with a respin has of the award odds (its combinations are not played through the respin)."""
    trig = model.trigger_symbol
    scatter = trig.name if trig is not None else "scatter"
    out = []
    for m, hi in _ranges(model.trigger):
        p = sum((q for n, q in rr.trigger_prob.items() if m <= n < hi), Fraction(0))
        out.append(Award(f"trigger {m} {scatter}", "trigger", Bounds(p, p)))
    return out + wheel_awards(rr)


def mode_awards(ms: MathSet, sheet: ParSheet) -> list[Award]:
    """The awards of the default mode (as :func:`awards`, plus its prize wheels), then those of every
    other bet mode, each item prefixed ``"bet mode NAME: "`` (per round of that mode: its own strips and
    trigger); a mode with a respin has its triggers and wheel awards only (:func:`round_awards`,
    :func:`odds_not_computed`)."""
    out = []
    for n, m in sheet.modes.items():
        if n in odds_not_computed(sheet):
            prefix = "" if n == DEFAULT_MODE else f"bet mode {n}: "
            out += [dataclasses.replace(a, item=prefix + a.item) for a in round_awards(m.set.model, m.round)]
    modes = [(DEFAULT_MODE, ms, sheet.analysis, sheet.round)] if DEFAULT_MODE not in odds_not_computed(sheet) else []
    modes += [(n, m.set, m.analysis, m.round) for n, m in sheet.modes.items()
              if n != DEFAULT_MODE and n not in odds_not_computed(sheet)]
    for name, mset, analysis, rr in modes:
        found = _widen_for_wheel_spins(awards(mset, analysis), rr) + wheel_awards(rr)
        figs = sheet.modes[name].frames if name in sheet.modes else None
        if figs is not None:      # the bowls' jackpots of the wheel awards with frames
            found += [Award(f"a bowl wins jackpot {j}", "bowl jackpot", Bounds(lo, hi))
                      for j, (lo, hi) in bowl_jackpot_odds(mset.model, rr, figs).items()]
        prefix = "" if name == DEFAULT_MODE else f"bet mode {name}: "
        out += [dataclasses.replace(a, item=prefix + a.item) for a in found]
    return out


def top_award_refusal(d: WinDistribution) -> str | None:
    """Why the top award (the largest round win) of ``d`` cannot be checked, or None when it can: an endless
    retrigger has no largest round win (its distribution's support is infinite; the largest win above the
    distribution's cut-off is no award of the game).

    >>> from types import SimpleNamespace
    >>> top_award_refusal(SimpleNamespace(max_round_exact=True)) is None
    True
    >>> print(top_award_refusal(SimpleNamespace(max_round_exact=False)))
    an endless retrigger has no largest round win
    """
    return None if d.max_round_exact else "an endless retrigger has no largest round win"


def _top_award(rule: Rule, d: WinDistribution) -> Check:
    """The largest round win as an award: exact, or (endless retrigger) the largest win above 1e-15 as a float."""
    item = f"max win {d.max_round_win} credits ({Fraction(d.max_round_win, d.bet)} bets)"
    p = d.max_round_win_probability
    if d.max_round_exact and isinstance(p, Fraction):
        return Check(rule, item, p, float(p), True, _verdict(rule, p))
    limit_ok = rule.min is None or p - d.round.bound >= float(rule.min)
    return Check(rule, item + " (within the distribution's bound)", None, float(p), False, limit_ok)


def comply(ms: MathSet, rules: Sequence[Rule], jurisdictions: Sequence[str] | None = None, *,
           sheet: ParSheet | None = None, distribution: WinDistribution | None = None,
           unit_distributions: Mapping[str, WinDistribution] | None = None) -> list[Check]:
    """Check every rule of the chosen jurisdictions on a math set.

    Parameters
    ----------
    ms : MathSet
    rules : sequence of Rule
        :func:`load_rules`.
    jurisdictions : sequence of str, optional
        Lower-case ids; all jurisdictions of ``rules`` when None.
    sheet : ParSheet, optional
        The set's PAR sheet (:func:`exact.par.par_sheet`, computed when not given): the engine's
        analysis, the round, the bet modes, buys and prize wheels.  An ``rtp`` rule is checked
        on every bet mode and every buy (each wager available); every prize-wheel award
        (jackpots included) is an advertised award of the default mode, per round.
    distribution : WinDistribution, optional
        The win distribution (:func:`exact.distribution.win_distribution`): its
        largest round win is the top award of ``award_odds`` (left out for an endless
        retrigger, which has none: :func:`top_award_refusal`) and the value of
        ``max_win_bets``; without it the top award is left out and a
        ``max_win_bets`` rule is refused with a ValueError.
    unit_distributions : mapping, optional
        The win distributions of the other bet modes and of the buys (:func:`exact.round_distribution.units`:
        ``"bet mode NAME"`` / ``"buy NAME"`` -> WinDistribution): each one's top award and max win, per round of
        that mode or buy, items prefixed with its label.

    Raises
    ------
    ValueError
        An unknown jurisdiction; a ``max_win_bets`` rule without ``distribution``.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> checks = comply(ms, load_rules(), ["nevada"])
    >>> [(c.item, c.passed) for c in checks]
    [('RTP', True)]
    """
    require(ms, "comply")
    known = sorted({r.jurisdiction for r in rules})
    chosen = known if not jurisdictions else [j.lower() for j in jurisdictions]
    for j in chosen:
        if j not in known:
            raise ValueError(f"unknown jurisdiction {j!r} (known: {', '.join(known)})")
    sheet = sheet or par_sheet(ms)
    analysis, rr = sheet.analysis, sheet.round
    cache: dict = {}
    out: list[Check] = []
    for rule in rules:
        if rule.jurisdiction not in chosen:
            continue
        m = rule.measure
        if m == "award_odds":
            if "awards" not in cache:
                cache["awards"] = mode_awards(ms, sheet)
            for a in cache["awards"]:
                b = a.probability
                out.append(Check(rule, a.item, b.low, float(b.low), b.exact, _verdict(rule, b.low, b.high)))
            if distribution is not None and top_award_refusal(distribution) is None:
                out.append(_top_award(rule, distribution))
            for label, d in (unit_distributions or {}).items():
                if top_award_refusal(d) is not None:    # said in the summary line by the caller
                    continue
                c = _top_award(rule, d)
                out.append(dataclasses.replace(c, item=f"{label}: {c.item}"))
        elif m == "pattern_odds_ways" and falls_game(ms.model):
            continue                     # ways patterns of one window: not the awards of a spin's falls
        elif m == "pattern_odds_ways":   # per base spin of each bet mode (its own strips)
            for name, mset in {**{n: x.set for n, x in sheet.modes.items()}, DEFAULT_MODE: ms}.items():
                prefix = "" if name == DEFAULT_MODE else f"bet mode {name}: "
                for item, q in patterns(mset):
                    out.append(Check(rule, prefix + item, q, float(q), True, _verdict(rule, q)))
        elif m == "rtp":
            for item, x in rtp_items(sheet):
                out.append(Check(rule, item, x, float(x), True, _verdict(rule, x)))
        elif m == "hit_frequency":
            h = analysis.base.hit_frequency
            out.append(Check(rule, "base spin hit frequency", h, float(h), True, _verdict(rule, h)))
        elif m == "sd_per_bet":
            var = rr.variance / (rr.bet * rr.bet)       # exact; sd >= limit <=> var >= limit^2
            sd = math.sqrt(var)
            ok = (rule.min is None or var >= rule.min ** 2) and (rule.max is None or var <= rule.max ** 2)
            out.append(Check(rule, "standard deviation (bets per round)", None, sd, False, ok))
        elif m == "max_win_bets":
            if distribution is None:
                raise ValueError(f"rule {rule.id} needs the win distribution (max win)")
            x = Fraction(distribution.max_round_win, ms.model.bet)
            out.append(Check(rule, "max win (bets)", x, float(x), True, _verdict(rule, x)))
            for label, d in (unit_distributions or {}).items():
                x = Fraction(d.max_round_win, d.bet)
                out.append(Check(rule, f"{label}: max win (bets)", x, float(x), True, _verdict(rule, x)))
    return out


def summary(checks: Sequence[Check]) -> dict[str, tuple[int, int]]:
    """Per jurisdiction: (checks passed, checks), in the order the jurisdictions first appear.

    >>> from strips.loader import load_math_set
    >>> summary(comply(load_math_set("rules_page"), load_rules(), ["nevada"]))
    {'nevada': (1, 1)}
    """
    out: dict[str, list[int]] = {}
    for c in checks:
        acc = out.setdefault(c.rule.jurisdiction, [0, 0])
        acc[0] += c.passed
        acc[1] += 1
    return {j: (a, b) for j, (a, b) in out.items()}
