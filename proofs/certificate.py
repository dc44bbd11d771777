"""The published-facts certificate: every figure the rules page publishes, with its exact value.

The certificate's deterministic part (this module) holds only exact figures of
the math set, so regenerating it on an unchanged set gives the same text byte
for byte; a test compares it with the committed ``proofs/CERTIFICATE.md``.
Its sections:

1. the set and its content hash;
2. exact figures of the whole game (engine + ladder chain);
3. every published fact of the set's ``published.toml`` (reused from
   :func:`exact.facts.check_facts`): for the bundled set the rules, example
   windows, strip facts, trigger probabilities and frequencies, P(2 or more KEY);
4. examples 1-9 evaluated at their stops on the set with the page's FISH
   values, beside the figures the page prints;
5. derivations with sympy: the distribution of the FS count (and of the KEY
   count) as the coefficients of ``prod_r (1 - p_r + p_r x)``, that is the
   elementary symmetric polynomials of the per-reel probabilities, shown
   equal to the engine's values.

The run-dependent part (enumeration, simulation, timings) is added by
:mod:`proofs.prove`.

Source: rules page sections 3, 6, 8, 10, 11 and 13, examples 1-9.
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy

from exact.evaluator import evaluate
from exact.formatting import ROUNDING, decimal_text, fraction_text as full_fraction_text
from exact.par import par_sheet
from exact.facts import check_facts
from strips.model import KEY, SCATTER, MathSet, Phase, window_table
from proofs.enumerate import set_hash, window_tables
from proofs.reconstruction.rules_page import EXAMPLES
from exact.rules import scatter_codes

#: What the page prints for examples 1-9 (sections 6, 8, 10, 11): the phase,
#: the FISH values shown (reel-major, top to bottom; None = no FISH printed)
#: and the figures the page states for the spin, in credits.
EXAMPLE_FIGURES: dict[int, tuple[str, tuple[int, ...] | None, dict[str, int]]] = {
    1: ("base", None, {"ways_pays": 3, "win": 3}),
    2: ("base", None, {"ways_pays": 30, "win": 30}),
    3: ("base", None, {"ways_pays": 5, "win": 5}),
    4: ("base", None, {"ways_pays": 0, "win": 0}),
    5: ("base", (5, 1, 3), {"ways_pays": 32, "collect": 9, "win": 41}),
    6: ("base", (1, 10, 1), {"collect": 0, "win": 0}),
    7: ("base", None, {"ways_pays": 6, "scatters": 3, "win": 6}),
    8: ("level3", (1, 3), {"ways_pays": 12, "collect": 4, "keys": 1, "win": 80}),
    9: ("level1", (20, 3), {"collect": 46, "keys": 2}),
}


#: Exact decimal text (:mod:`exact.formatting`: the one rounding rule of every view).
decimal = decimal_text


def fraction_text(x: Fraction) -> str:
    """``p/q`` in full, every digit (an integer as ``n``): a lab checks the number, not its length; a part of
    more than 4,000 digits (:data:`strips.decimals.EXACT_DIGITS`) is shown by its digit counts.

    >>> fraction_text(Fraction(6142812426, 7207699345))
    '6142812426/7207699345'
    """
    return full_fraction_text(x)


# --------------------------------------------------------------------------
# count distributions with sympy
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class CountFormula:
    """The distribution of a count of symbols in the window as a polynomial identity.

    Attributes
    ----------
    kind : str
        ``"scatter"`` (FS) or ``"key"``.
    phase : str
    reels : tuple of int
        1-based reels that can show the symbol (p_r > 0).
    p : tuple of Fraction
        ``p_r`` = P(the window of reel r shows the symbol), one per entry of ``reels``.
    formulas : tuple of sympy.Expr
        ``formulas[n]`` = P(count = n) as a sum over the n-subsets S of the
        reels of ``prod_{r in S} p_r prod_{r not in S} (1 - p_r)``.
    values : tuple of Fraction
        ``formulas[n]`` at the exact ``p_r``.
    n_reels : int
        Reels of the game.
    general : bool
        True when a window column can show 2 or more of the symbol (then the
        elementary symmetric form does not apply and ``formulas`` is empty).
    """

    kind: str
    phase: str
    reels: tuple[int, ...]
    p: tuple[Fraction, ...]
    formulas: tuple
    values: tuple[Fraction, ...]
    n_reels: int = 0
    general: bool = False


def count_formula(ms: MathSet, phase: Phase, kind: str) -> CountFormula:
    """Derive P(count = n) of the triggering scatter (``kind="scatter"``: FS, with the WILDs that count as it;
    other scatter symbols count apart) or of KEY symbols with sympy.

    Each reel's column shows the symbol with probability ``p_r`` (stops whose
    column shows it / strip length, read off the strips) independently of the
    other reels (section 3), so the count's generating function is
    ``prod_r (1 - p_r + p_r x)`` and P(count = n) is its x^n coefficient: the
    sum over n-subsets written out in ``formulas``.  The identity of that sum
    with the coefficient is checked symbolically (sympy ``expand``).

    Raises
    ------
    ValueError
        If ``kind`` is not ``scatter`` or ``key``.
    AssertionError
        If the written sum differs from the coefficient (never, for a correct sympy).
    """
    if kind not in (SCATTER, KEY):
        raise ValueError(f"kind must be {SCATTER!r} or {KEY!r}")
    t = window_tables(ms, phase)
    per_reel = t.keys
    if kind == SCATTER:   # the triggering scatter (and the WILDs counting as it): other scatters count apart
        counted = np.zeros(len(ms.model.symbols), dtype=bool)
        counted[list(scatter_codes(ms.model))] = True
        per_reel = [window_table(c, ms.model.rows, counted) for c in ms.phase_strips(phase).codes]
    if any(int(c.max(initial=0)) > 1 for c in per_reel):
        return CountFormula(kind, phase.name, (), (), (), (), t.reels, general=True)
    reels = tuple(r + 1 for r, c in enumerate(per_reel) if c.any())
    p = tuple(Fraction(int(per_reel[r - 1].sum()), len(per_reel[r - 1])) for r in reels)
    ps = sympy.symbols(" ".join(f"p{r}" for r in reels)) if reels else ()
    ps = ps if isinstance(ps, tuple) else (ps,)
    x = sympy.Symbol("x")
    gen = sympy.Poly(sympy.prod([1 - s + s * x for s in ps]), x)
    formulas, values = [], []
    subs = {s: sympy.Rational(v.numerator, v.denominator) for s, v in zip(ps, p)}
    for n in range(len(ps) + 1):
        terms = [sympy.Mul(*[s if i in chosen else (1 - s) for i, s in enumerate(ps)])
                 for chosen in itertools.combinations(range(len(ps)), n)]
        expr = sympy.Add(*terms)
        assert sympy.expand(expr - gen.coeff_monomial(x ** n)) == 0
        v = expr.subs(subs)
        formulas.append(expr)
        values.append(Fraction(int(v.p), int(v.q)))
    return CountFormula(kind, phase.name, reels, p, tuple(formulas), tuple(values), t.reels)


# --------------------------------------------------------------------------
# examples
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class ExampleCheck:
    """One worked example evaluated on the set at its printed stops.

    ``figures`` maps a figure name to (printed value, value on the set), credits.
    """

    number: int
    phase: str
    stops: tuple[int, ...]
    fish: tuple[int, ...] | None
    figures: dict[str, tuple[int, int | None]]
    note: str = ""

    @property
    def passed(self) -> bool:
        """Whether every printed figure equals the set's."""
        return not self.note and all(a == b for a, b in self.figures.values())


def example_checks(ms: MathSet) -> list[ExampleCheck]:
    """Examples 1-9: the rules-page evaluator at the printed stops with the printed FISH values.

    Only the examples the set itself publishes (the same window at the same stops in its
    ``published.toml``); [] for a set that publishes none of them (the page's examples say
    nothing about another game).
    """
    model = ms.model
    phases = {p.name: p for p in model.phases}
    out = []
    published = {(w.strip_set, w.stops, w.rows) for w in ms.published.windows}
    for ex in EXAMPLES:
        if (ex.strip_set, ex.stops, ex.rows) not in published:
            continue
        phase_name, fish, printed = EXAMPLE_FIGURES[ex.number]
        phase = phases[phase_name]
        strips = ms.phase_strips(phase)
        window = strips.window(ex.stops, model.rows)
        try:
            res = evaluate(model, window, fish, phase.multiplier)
        except ValueError as e:  # the set's window shows other FISH than the page
            out.append(ExampleCheck(ex.number, phase_name, ex.stops, fish,
                                    {k: (v, None) for k, v in printed.items()}, note=str(e)))
            continue
        # the page states ways pays and collect before the level multiplier, the win after it
        got = {"ways_pays": res.ways_pays, "collect": res.collect,
               "keys": res.keys, "scatters": res.scatters, "win": res.win}
        out.append(ExampleCheck(ex.number, phase_name, ex.stops, fish,
                                {k: (v, got[k]) for k, v in printed.items()}))
    return out


# --------------------------------------------------------------------------
# the deterministic certificate
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Certificate:
    """Exact, deterministic content of the certificate of a math set.

    Attributes
    ----------
    name : str
    fingerprint : str
        The report's fingerprint of the set (:func:`strips.fingerprint.fingerprint`).
    hash : str
        Content hash of the base game (:func:`proofs.enumerate.set_hash`).
    analysis : exact.engine.GameAnalysis
    round : markov.round.RoundResult
    facts : list of exact.facts.FactResult
    examples : list of ExampleCheck
    formulas : list of CountFormula
    labels : mapping str -> str
        Symbol class (``scatter``, ``key``) -> the game's own symbol name(s) for the text.
    """

    name: str
    fingerprint: str
    hash: str
    analysis: object
    round: object
    facts: list
    examples: list
    formulas: list
    labels: dict = dataclasses.field(default_factory=lambda: {SCATTER: "scatter", KEY: "KEY"})

    @property
    def formulas_agree(self) -> list[tuple[str, bool]]:
        """(label, sympy value == engine value) for each derived distribution."""
        out = []
        for f in self.formulas:
            if f.general:
                continue
            pa = self.analysis.base if f.phase == "base" else \
                self.analysis.levels[int(f.phase.removeprefix("level")) - 1]
            split = pa.by_scatter if f.kind == SCATTER else pa.by_key
            n = max(len(split.prob), len(f.values))
            eng = list(split.prob) + [Fraction(0)] * (n - len(split.prob))
            mine = list(f.values) + [Fraction(0)] * (n - len(f.values))
            out.append((f"{f.kind} count, {f.phase}", eng == mine))
        return out

    @property
    def passed(self) -> bool:
        """Whether every fact, example and derivation passes."""
        return (not any(r.failed for r in self.facts) and all(e.passed for e in self.examples)
                and all(ok for _, ok in self.formulas_agree))


def build(ms: MathSet, analysis=None) -> Certificate:
    """Compute the deterministic certificate of ``ms`` (engine, chain, facts, examples, sympy).

    The exact figures come from the set's PAR sheet (:func:`exact.par.par_sheet`: the
    engine and the round run once there); ``analysis``, an engine run of the caller, is
    checked to agree with it.
    """
    sheet = par_sheet(ms)
    if analysis is not None and analysis.base.mean != sheet.analysis.base.mean:
        raise ValueError("the analysis given is not the analysis of this math set")
    model = ms.model
    labels = {SCATTER: "/".join(model.symbols[c].name for c in scatter_codes(model)),
              KEY: "/".join(s.name for s in model.of_kind(KEY))}
    formulas = [count_formula(ms, model.base_phase, SCATTER)]
    if labels[KEY]:
        formulas.append(count_formula(ms, model.base_phase, KEY))
        if model.levels:
            formulas.append(count_formula(ms, model.level_phase(model.levels[0]), KEY))
    return Certificate(name=ms.name, fingerprint=sheet.fingerprint, hash=set_hash(ms, model.base_phase),
                       analysis=sheet.analysis, round=sheet.round, facts=check_facts(ms, sheet),
                       examples=example_checks(ms), formulas=formulas,
                       labels={k: v or k for k, v in labels.items()})


def _row(*cells) -> str:
    return "| " + " | ".join(str(c).replace("|", "/") for c in cells) + " |"


def render(cert: Certificate) -> str:
    """Markdown of the deterministic part (exact figures only; same set -> same text)."""
    rr, base = cert.round, cert.analysis.base
    out = ["## 1. Math set", "",
           f"- set: `{cert.name}`",
           f"- fingerprint (as `rtp` prints it: the parsed game file and the strips): `{cert.fingerprint}`",
           f"- enumeration key (sha256 of the base phase's strips and rules; names the base phase's checkpoint file, "
           f"each strip set enumerated has its own): "
           f"`{cert.hash}`",
           "",
           "## 2. Exact figures of the whole game", "",
           "Exact engine (per-reel factorisation) and the free-spin chain; "
           "credits per round, bet " + f"{rr.bet} credits; decimals rounded {ROUNDING}.", "",
           _row("figure", "exact", "decimal"), _row("---", "---", "---:"),
           _row("RTP", fraction_text(rr.rtp), decimal(rr.rtp * 100, 6) + "%")]
    out += [_row(f"RTP {k}", fraction_text(v), decimal(v * 100, 6) + "%") for k, v in rr.rtp_split.items()
            if v or k in ("base ways", "free spins")]
    out += [_row("variance of the round win (credits^2)", fraction_text(rr.variance), decimal(rr.variance, 4)),
            _row("hit frequency (base spin win > 0)", fraction_text(base.hit_frequency),
                 decimal(base.hit_frequency, 8)),
            _row("trigger probability (per round)", fraction_text(rr.trigger_probability),
                 decimal(rr.trigger_probability, 8))]
    for i, p in enumerate(rr.reach, start=1):
        out.append(_row(f"P(level {i} is played)", fraction_text(p), decimal(p, 10)))
    out += ["", "## 3. Published facts", "",
            "Each fact of the set's published.toml (what its rules page prints), its exact value "
            "on the set and the verdict (`rtp check`).", "",
            _row("status", "fact", "source", "published", "on the set", "exact"),
            _row("---", "---", "---", "---", "---", "---")]
    for r in cert.facts:
        exact = fraction_text(r.exact) if isinstance(r.exact, Fraction) else ""
        out.append(_row(r.status, r.fact, r.source, r.published, r.shown, exact))
    if not cert.facts:
        out += ["", "None: this tool holds published facts of the rules-page game only, and this set is "
                "not a math set of that game."]
    out += ["", "## 4. Worked examples 1-9 at their stops", "",
            "The rules-page evaluator applied to the window at the printed stops with the printed "
            "FISH values; ways pays and collect in credits before the level multiplier, "
            "the win after it (section 11).", "",
            _row("example", "phase", "stops", "FISH values", "figure", "printed", "on the set", "status"),
            _row("---", "---", "---", "---", "---", "---:", "---:", "---")]
    for e in cert.examples:
        for k, (printed, got) in e.figures.items():
            out.append(_row(e.number, e.phase, ",".join(map(str, e.stops)),
                            "-" if e.fish is None else ",".join(map(str, e.fish)), k, printed,
                            "-" if got is None else got, "PASS" if printed == got else "FAIL"))
        if e.note:
            out.append(_row(e.number, e.phase, "", "", "note", "", e.note, "FAIL"))
    if not cert.examples:
        out += ["", "Not applicable: the worked examples are the rules-page game's."]
    out += ["", "## 5. Derivations (sympy)", ""]
    agree = dict(cert.formulas_agree)
    for f in cert.formulas:
        label = f"{f.kind} count, {f.phase}"
        name = cert.labels.get(f.kind, f.kind)
        out.append(f"### {name} symbols in the window, {f.phase}")
        out.append("")
        if f.general:
            out.append("A window column can show two or more of these symbols: the elementary symmetric "
                       "form does not apply; the engine's value stands alone.")
            out.append("")
            continue
        out.append(f"One reel shows at most one {name} symbol and the reels stop independently (section 3), "
                   f"so with p_r = P(reel r shows {name}) the count N has the generating function "
                   f"prod_r (1 - p_r + p_r x); P(N = n) is the elementary symmetric sum below "
                   f"(checked equal to the x^n coefficient by sympy).")
        out.append("")
        out.append(", ".join(f"p{r} = {fraction_text(v)}" for r, v in zip(f.reels, f.p))
                   + (" (other reels: 0)" if len(f.reels) < f.n_reels else ""))
        out.append("")
        out.append(_row("n", "P(N = n) as a formula", "exact value", "decimal"))
        out.append(_row("---", "---", "---", "---:"))
        for n, (expr, v) in enumerate(zip(f.formulas, f.values)):
            out.append(_row(n, f"`{sympy.sstr(expr)}`", fraction_text(v), decimal(v, 10)))
        if f.kind == KEY:
            two = sum(f.values[2:], Fraction(0))
            out.append(_row("2+", "1 - P(N = 0) - P(N = 1)", fraction_text(two), decimal(two * 100, 4) + "%"))
        out.append("")
        out.append(f"Equal to the engine's distribution (exact Fractions): "
                   f"{'PASS' if agree.get(label) else 'FAIL'}")
        out.append("")
    out.append(f"Deterministic part: {'PASS' if cert.passed else 'FAIL'}")
    return "\n".join(out) + "\n"
