r"""RTP variants of a math set with few strip edits, exactly (``rtp tune``).

A variant is the input math set with some strip positions changed so that its
**exact** RTP (engine + free-spin chain) is within a tolerance of a target.

What is kept
------------
By default only *pay symbols are swapped for pay symbols* at positions that a
published example does not show, and only swaps that keep every strip rule of
the game file (rules page section 3) are used (:func:`exact.sensitivity.edit_breaks`).
Hence, exactly and without being assumed: the strip lengths, every position
of a feature symbol (WILD, KEY, scatter, FISH), so the trigger
probabilities, the KEY-count distributions and every collect figure, and
every published fact.  :func:`kept_figures` re-checks all of them on the
result; the command also re-runs the published-fact checker.

Method
------
1. **Exact linearisation.**  :func:`exact.sensitivity.sensitivity` gives the
   exact RTP change :math:`\delta_e` (a Fraction) of every single edit e of
   the current strips.  Two edits of one reel whose windows do not overlap
   change disjoint sets of windows, so their changes of that reel's first
   moments add exactly; the edits of this module are therefore kept at
   least :math:`\max(\text{rows}, \text{max\_run}+1)` positions apart on a
   reel (cyclic), which also makes the AUS-run rule of two edits follow from
   each edit's own check.  Base and bonus strips enter the RTP through
   separate additive parts (pay swaps change neither the trigger nor the
   reach probabilities).  Across reels of one strip set the ways mean is a
   product of per-reel moments, so the RTP is **not** linear: a set of edits
   changes it by :math:`\sum_e \delta_e` plus cross-reel interaction terms.
2. **MILP.**  Binary :math:`x_e` per candidate edit; minimise the number of
   positions that differ from the input subject to
   :math:`|\text{RTP}_k + \sum_e \delta_e x_e - \text{target}| \le h`
   (h: half the tolerance), one edit per position and the separation above;
   a continuous deviation term with a weight below one edit centres the
   solution in the band.  Solved by HiGHS through :func:`scipy.optimize.milp`
   (floats: the MILP is only the search).  Edits at positions already
   changed cost 0 (another symbol) or -1 (back to the input's symbol), so a
   later round can repair earlier choices.
3. **Exact recheck and repair.**  The chosen edits are applied and the RTP
   recomputed exactly (engine + chain, Fractions).  If it is outside the
   tolerance (the interaction terms), the sensitivities of the edited set
   are taken and step 2 is solved again from there; this repeats until the
   exact RTP is within the tolerance or the round limit is reached.
4. **Unreachable targets.**  When the linearised band is infeasible the
   MILP instead moves the RTP as far as it can towards the target; the
   closest exact RTP reached is reported and the variant is "not met".
5. **Narrow tolerances** (below the default, 0 = exactly the target).  A
   band narrower than the MILP's float resolution means nothing to it, so
   the search starts with the default band and narrows it by 4 each time
   the exact RTP lands inside, down to the tolerance (repair rounds then
   aim at the narrowed band); it stops when the allowed edits cannot narrow
   further, at :data:`NARROW_ROUNDS` rounds, or at the time bound
   (``seconds``), and the closest exact RTP of every state visited is the
   result.  On the bundled set, 0.94 with tolerance 0 ends at 93.999998%
   (4 edits, about 20 s) where the default band gives 94.004353%.

Minimality: the edit count is the MILP optimum of the linearised model at
the last round, which is a **heuristic upper bound** on the fewest edits.
It is reported as **proven minimal** only when it equals a proven lower
bound: 0 if the input is within the tolerance, else 1, and 2 when no single
allowed edit (exact deltas of all of them) lands within the tolerance.

``keep_hit_frequency`` (a relative tolerance) adds the exact change of the
base hit frequency of every edit (:func:`hit_frequency_deltas`) as a second
linear band, rechecked exactly by the engine.

Source: rules page sections 3-11; :mod:`exact.sensitivity` (exact deltas),
:mod:`exact.engine` (exact recheck).
"""
from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csr_array

from exact.bet_modes import analyse_mode
from exact.rules import require
from exact.progress import progress_of
from exact.engine import GameAnalysis, analyse, hit_frequency, reel_tables
from exact.sensitivity import EditSensitivity, StripEdit, sensitivity
from strips.loader import strip_findings
from strips.model import PAY, GameModel, MathSet, ReelStrips
from markov.moments import COLLECT

#: Default tolerance of the variant's RTP: +/- 0.01 percentage point.
DEFAULT_TOLERANCE = Fraction(1, 10000)
#: What ``allow`` may name.
ALLOW = ("fish-weights",)
#: Rounds of exact recheck and repair before giving up.
MAX_ROUNDS = 12
#: Rounds when the band is narrowed (a tolerance below the default; bounded by the seconds too).
NARROW_ROUNDS = 40
#: Seconds one search (one target) may take in all, MILPs and exact rechecks (``rtp tune --time-limit``).
SEARCH_SECONDS = 60.0
#: Scale of RTP deltas in the MILP (parts per million of the bet).
_SCALE = 1e6
#: MILP outcomes: proven optimum, a solution at the time limit, proven infeasible, none found in time.
OPTIMAL, FEASIBLE, INFEASIBLE, NO_SOLUTION = "optimal", "feasible", "infeasible", "no solution in time"

__all__ = ["DEFAULT_TOLERANCE", "Variant", "Check", "tune", "separation", "kept_figures", "with_strips",
           "strips_csv", "variant_files", "hit_frequency_deltas", "allowed_edits"]


@dataclass(frozen=True)
class Variant:
    """A tuned variant of a math set.

    Attributes
    ----------
    target, tolerance : Fraction
        Requested RTP and the half-width of the accepted band (fractions of 1).
    rtp_input, rtp : Fraction
        Exact RTP of the input and of the variant (the closest reached if not met).
    met : bool
        |rtp - target| <= tolerance (and the hit frequency kept, if asked).
    math_set : MathSet
        The variant in memory (same game model, new strips).
    edits : tuple of StripEdit
        Every position that differs from the input (``old``: the input's symbol).
    lower_bound : int
        Proven: no set of fewer allowed edits is within the tolerance.
    rounds : int
        Exact rechecks made.
    hit_frequency_input, hit_frequency : Fraction or None
        Base hit frequency before and after (only when it was to be kept).
    weights : tuple of (symbol, table, old weights, new weights)
        FISH weight tables changed (only with ``allow={"fish-weights"}``).
    seconds : float
        Wall time of the search (MILPs and exact rechecks).
    stopped : str
        Why the search ended: ``"met"``, ``"round limit"``, ``"time limit"``, ``"no closer state"``.
    rejected : tuple of str
        What the ``check`` of :func:`tune` found broken (published facts) on the closest state the
        search reached that is closer to the target than this one; empty if there was none.
    """

    target: Fraction
    tolerance: Fraction
    rtp_input: Fraction
    rtp: Fraction
    met: bool
    math_set: MathSet = field(repr=False)
    edits: tuple[StripEdit, ...]
    lower_bound: int
    rounds: int
    hit_frequency_input: Fraction | None = None
    hit_frequency: Fraction | None = None
    weights: tuple = ()
    rejected: tuple[str, ...] = ()
    seconds: float = 0.0
    stopped: str = ""

    @property
    def changes(self) -> int:
        """Strip positions plus FISH weights that differ from the input."""
        return len(self.edits) + sum(sum(1 for x, y in zip(old, new) if x != y) for _, _, old, new in self.weights)

    @property
    def minimal(self) -> bool:
        """True when the change count is proven minimal (equals the proven lower bound)."""
        return self.met and self.changes == self.lower_bound


@dataclass(frozen=True)
class Check:
    """One kept figure: before, after, and whether it is kept."""

    name: str
    before: object
    after: object
    ok: bool


# --------------------------------------------------------------------------
# in-memory strips and files
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class _Block:
    """FISH weights as MILP variables: ``y_j = w'_j - 1`` for each entry of each table, then one
    changed-entry indicator per entry (cost 1).  The totals stay, so the RTP change is exactly
    ``sum_j coef_j (w'_j - w_j)`` (module docstring of :mod:`exact.sensitivity`: affine in each mean value)."""

    keys: list[tuple[str, str, int]]
    coef: list[Fraction]
    cost: np.ndarray
    delta: np.ndarray
    upper: np.ndarray
    offset: float
    rows: csr_array
    row_lo: np.ndarray
    row_hi: np.ndarray


def _weight_block(original: GameModel, sens) -> _Block | None:
    """The FISH-weight variables at the current weights (``sens.weights``), costs against ``original``."""
    tables: dict[tuple[str, str], list] = {}
    for w in sens.weights:
        tables.setdefault((w.symbol, w.table), []).append(w)
    keys, coef, upper, offset, cur, orig = [], [], [], Fraction(0), [], []
    sums = []
    for (sym, table), ws in tables.items():
        total = sum(w.weight for w in ws)
        if len(ws) < 2:
            continue
        start = len(keys)
        for j, w in enumerate(ws):
            c = w.mean_derivative * w.value / total
            keys.append((sym, table, j))
            coef.append(c)
            upper.append(float(total - len(ws)))
            offset += c * (1 - w.weight)
            cur.append(w.weight)
            orig.append(original.symbol(sym).weights[table][j])
        sums.append((range(start, len(keys)), float(total - len(ws)), total))
    k = len(keys)
    if not k:
        return None
    rows, weights, lo, hi = [], [], [], []
    for idx, s, _ in sums:
        rows.append(list(idx))
        weights.append([1.0] * len(idx))
        lo.append(s)
        hi.append(s)
    for j in range(k):
        big = float(upper[j] + 1)
        rows += [[j, k + j], [j, k + j]]
        weights += [[1.0, -big], [-1.0, -big]]
        lo += [-np.inf, -np.inf]
        hi += [float(orig[j] - 1), float(1 - orig[j])]
    data, ri, ci = [], [], []
    for r, (idx, w) in enumerate(zip(rows, weights)):
        ri += [r] * len(idx)
        ci += idx
        data += w
    return _Block(keys=keys, coef=coef, cost=np.concatenate([np.zeros(k), np.ones(k)]),
                  delta=np.concatenate([np.array([float(c) * _SCALE for c in coef]), np.zeros(k)]),
                  upper=np.concatenate([np.array(upper), np.ones(k)]), offset=float(offset * _SCALE),
                  rows=csr_array((data, (ri, ci)), shape=(len(rows), 2 * k)), row_lo=np.array(lo),
                  row_hi=np.array(hi))


def with_weights(model: GameModel, weights: Mapping[tuple[str, str], Sequence[int]]) -> GameModel:
    """``model`` with other FISH weight tables: (symbol, table) -> integer weights.

    >>> from strips.loader import load_math_set
    >>> m = with_weights(load_math_set("rules_page").model, {("FISH4", "base"): (900, 100)})
    >>> m.symbol("FISH4").weights["base"]
    (900, 100)
    """
    by_symbol: dict[str, dict] = {}
    for (sym, table), w in weights.items():
        by_symbol.setdefault(sym, {})[table] = tuple(int(x) for x in w)
    symbols = tuple(dataclasses.replace(s, weights={**s.weights, **by_symbol[s.name]}) if s.name in by_symbol else s
                    for s in model.symbols)
    return dataclasses.replace(model, symbols=symbols)


def game_file_with_weights(data: bytes, changes: Mapping[tuple[str, str], Sequence[int]]) -> bytes:
    r"""The game file with FISH weight tables replaced in place (comments and layout kept).

    Handles ``weights.TABLE = [...]`` in ``[symbols.NAME]`` and ``TABLE = [...]`` in
    ``[symbols.NAME.weights]``.

    Raises
    ------
    ValueError
        If a table is written in another layout (e.g. an inline table).

    >>> game_file_with_weights(b"[symbols.F]\nweights.base = [1, 2]\n", {("F", "base"): (2, 1)}).decode()
    '[symbols.F]\nweights.base = [2, 1]\n'
    """
    lines = data.decode("utf-8-sig").split("\n")
    for (sym, table), w in changes.items():
        new = "[" + ", ".join(str(int(x)) for x in w) + "]"
        section, done = None, False
        for i, line in enumerate(lines):
            head = re.match(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$", line)
            if head:
                section = head.group(1).replace(" ", "").replace('"', "")
                continue
            if section == f"symbols.{sym}":
                m = re.match(rf"^(\s*weights\.\"?{re.escape(table)}\"?\s*=\s*)\[[^\]]*\](.*)$", line)
            elif section == f"symbols.{sym}.weights":
                m = re.match(rf"^(\s*\"?{re.escape(table)}\"?\s*=\s*)\[[^\]]*\](.*)$", line)
            else:
                m = None
            if m:
                lines[i] = m.group(1) + new + m.group(2)
                done = True
                break
        if not done:
            raise ValueError(f"cannot rewrite the {table} weights of {sym} in this game file "
                             f"(write them as weights.{table} = [...] under [symbols.{sym}])")
    return "\n".join(lines).encode()


def with_strips(ms: MathSet, strips: Mapping[str, Sequence[Sequence[str]]], name: str | None = None) -> MathSet:
    """A copy of ``ms`` with other strips (symbol names), same game model, game-file bytes and published data.

    The published data (``published.toml``: the example windows, totals, facts) is kept, so every
    check of an edit against it (:func:`exact.sensitivity.edit_breaks`) sees it on the copy too; the
    strip-rule findings are those of the new strips (:func:`strips.loader.strip_findings`).

    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> with_strips(ms, {k: v.reels for k, v in ms.strips.items()}).strips["base"].reels == ms.strips["base"].reels
    True
    """
    model = ms.model
    new = {k: ReelStrips(name=k, reels=tuple(tuple(r) for r in reels),
                         codes=tuple(np.array([model.code(x) for x in r], dtype=np.int64) for r in reels))
           for k, reels in strips.items()}
    files = set(model.strip_files.values())
    sources = {k: v for k, v in ms.sources.items() if k not in files}
    findings = tuple(f for f in ms.findings if Path(f.file).name not in files) + tuple(
        f for k, file in model.strip_files.items() if k in new for f in strip_findings(new[k], model, file))
    return dataclasses.replace(ms, name=name or ms.name, strips=new, sources=sources, findings=findings)


def strips_csv(reels: Sequence[Sequence[str]]) -> bytes:
    """One strip set in the loader's CSV format: header ``reel1..reelN``, row i = position i.

    Reels of different lengths end with empty cells.

    >>> strips_csv([["A", "B"], ["C"]]).decode()
    'reel1,reel2\\nA,C\\nB,\\n'
    """
    lines = [",".join(f"reel{i + 1}" for i in range(len(reels)))]
    for i in range(max((len(r) for r in reels), default=0)):
        lines.append(",".join(r[i] if i < len(r) else "" for r in reels))
    return ("\n".join(lines) + "\n").encode()


def variant_files(ms: MathSet, v: Variant) -> dict[str, bytes]:
    """File name -> bytes of the variant's math set: the game file (a byte copy, FISH weights rewritten in
    place if they changed) and one CSV per strip set.

    Raises
    ------
    ValueError
        If changed weights are written in a layout :func:`game_file_with_weights` cannot rewrite.
    """
    out = {name: data for name, data in ms.sources.items() if name not in ms.model.strip_files.values()}
    if v.weights:
        out["game.toml"] = game_file_with_weights(out["game.toml"], {(s, t): new for s, t, _, new in v.weights})
    for strip_set, file_name in ms.model.strip_files.items():
        out[file_name] = strips_csv(v.math_set.strips[strip_set].reels)
    return out


# --------------------------------------------------------------------------
# candidates and constraints
# --------------------------------------------------------------------------
def separation(ms: MathSet) -> int:
    """Fewest positions between two edits of one reel: max(rows, max_run + 1).

    At this distance no window shows two edited positions (so their effects
    on the reel add exactly) and two edits cannot join one run of the
    run-limited symbols (so each edit's own rule check covers both).

    >>> from strips.loader import load_math_set
    >>> separation(load_math_set("rules_page"))
    4
    """
    rules = ms.model.strip_rules
    run = rules.max_run_length + 1 if rules.max_run_length and rules.max_run_symbols else 1
    return max(ms.model.rows, run)


def allowed_edits(ms: MathSet, edits: Sequence[EditSensitivity]) -> list[EditSensitivity]:
    """The edits a default variant may use: pay symbol -> pay symbol, breaking no rule or published window."""
    model = ms.model
    return [e for e in edits if not e.breaks and model.symbol(e.edit.old).kind == PAY
            and model.symbol(e.edit.new).kind == PAY]


def hit_frequency_deltas(ms: MathSet, edits: Sequence[StripEdit]) -> list[Fraction]:
    """Exact change of the base game's hit frequency for each single edit of the base strips (0 for others).

    The hit frequency is a sum over the stops of one reel of P(win | that
    reel's window), and that conditional probability depends on the window
    only through its class (which pay symbols it shows with WILD, KEY and FISH
    presence, scatter count).  Each class's conditional is computed once, by
    the engine's exact hit-frequency programme with that reel reduced to one
    window of the class; an edit changes the classes of the ``rows`` windows
    showing its position.
    """
    model = ms.model
    rows = model.rows
    strips = ms.strips["base"]
    tables = [reel_tables(model, c, "base", 1) for c in strips.codes]
    cache: dict[tuple, Fraction] = {}

    def cls(t, s) -> tuple:
        return (tuple(bool(x) for x in t.ways_count[:, s]), tuple(int(x) for x in t.counts[:, s] > 0),
                int(t.keys[s]), int(t.scatters[s]))

    by_window: dict[tuple, Fraction] = {}

    def conditional(r: int, window: np.ndarray) -> Fraction:
        wkey = (r, tuple(int(x) for x in window))
        if wkey in by_window:
            return by_window[wkey]
        t = reel_tables(model, window, "base", 1)   # a strip of exactly one window: its stop 0
        key = (r, cls(t, 0))
        if key not in cache:
            one = [tables[i] if i != r else _first_stop(t) for i in range(len(tables))]
            cache[key] = hit_frequency(model, one)
        by_window[wkey] = cache[key]
        return cache[key]

    out = []
    for e in edits:
        if e.strip_set != "base":
            out.append(Fraction(0))
            continue
        strip = strips.codes[e.reel]
        n = len(strip)
        new = strip.copy()
        new[e.position] = model.code(e.new)
        delta = Fraction(0)
        for k in range(rows):
            stop = (e.position - k) % n
            idx = (stop + np.arange(rows)) % n
            delta += conditional(e.reel, new[idx]) - conditional(e.reel, strip[idx])
        out.append(delta / n)
    return out


def _first_stop(t):
    """Reel tables reduced to their first stop (a reel of one window)."""
    return dataclasses.replace(t, counts=t.counts[:, :1], ways_count=t.ways_count[:, :1], keys=t.keys[:1],
                       scatters=t.scatters[:1], fish_mean=t.fish_mean[:1], fish_var=t.fish_var[:1],
                       ways_mean=t.ways_mean[:, :1], wild_var=t.wild_var[:, :1])


@dataclass(frozen=True)
class _Problem:
    """The linearised choice at one round: candidate edits, their exact deltas, the separation windows."""

    edits: list[StripEdit]
    delta: np.ndarray            # (n,) float64, RTP change x _SCALE
    cost: np.ndarray             # (n,) float64: 1 new position, 0 other symbol, -1 back to the input
    rows: list[list[int]]        # separation windows: candidate indices (negated-weight reverts marked below)
    row_weight: list[list[float]]
    row_ub: list[float]


def _problem(ms: MathSet, original: Mapping[str, Sequence[Sequence[str]]], current: Mapping[str, list[list[str]]],
             cands: Sequence[EditSensitivity], sep: int) -> _Problem:
    edits = [c.edit for c in cands]
    delta = np.array([float(c.delta) * _SCALE for c in cands])
    cost = np.empty(len(edits))
    by_pos: dict[tuple[str, int, int], list[int]] = {}
    for i, e in enumerate(edits):
        orig = original[e.strip_set][e.reel][e.position]
        changed = current[e.strip_set][e.reel][e.position] != orig
        cost[i] = (-1.0 if e.new == orig else 0.0) if changed else 1.0
        by_pos.setdefault((e.strip_set, e.reel, e.position), []).append(i)
    rows, weights, ub = [], [], []
    for strip_set, reels in current.items():
        for r, reel in enumerate(reels):
            n = len(reel)
            changed = [reel[p] != original[strip_set][r][p] for p in range(n)]
            for start in range(n):
                window = sorted({(start + k) % n for k in range(sep)})
                idx, w, occupied = [], [], 0
                for p in window:
                    members = by_pos.get((strip_set, r, p), [])
                    if changed[p]:
                        occupied += 1
                        reverts = [i for i in members if cost[i] < 0]
                        idx += reverts
                        w += [-1.0] * len(reverts)
                    else:
                        idx += members
                        w += [1.0] * len(members)
                if any(x > 0 for x in w):
                    rows.append(idx)
                    weights.append(w)
                    ub.append(1.0 - occupied)
            for p in range(n):   # one choice per changed position
                members = by_pos.get((strip_set, r, p), [])
                if changed[p] and len(members) > 1:
                    rows.append(members)
                    weights.append([1.0] * len(members))
                    ub.append(1.0)
    return _Problem(edits, delta, cost, rows, weights, ub)


def _milp(cost: np.ndarray, delta: np.ndarray, upper: np.ndarray, lo: float, hi: float, *,
          rows: csr_array | None = None, row_lo: np.ndarray | None = None, row_hi: np.ndarray | None = None,
          extra: Sequence[tuple[np.ndarray, float, float]] = (), direction: int = 0,
          one_reel: tuple[np.ndarray, np.ndarray] | None = None, more: "_Block | None" = None,
          time_limit: float = 20.0) -> tuple[np.ndarray | None, str]:
    """One MILP of the module docstring over integer counts ``0 <= y <= upper``: (y or None, status).

    Minimises ``cost @ y`` subject to ``lo <= delta @ y <= hi``, ``row_lo <= rows @ y <= row_hi``
    and the ``extra`` bands (row, lo, hi).  ``direction`` != 0 drops the RTP band and maximises
    ``direction x delta @ y`` (the closest reachable value of an unreachable target).
    ``one_reel`` = (reel id of each variable, strip-set id of each reel id): every variable
    used lies on one reel per strip set (binary reel indicators), which makes the RTP
    change of the choice exactly the sum of its single-edit changes.  ``more``: further
    variables after ``y`` (FISH weights, :class:`_Block`); the result then holds them too.
    """
    n0 = len(cost)
    if more is not None:
        cost, delta, upper = (np.concatenate([cost, more.cost]), np.concatenate([delta, more.delta]),
                              np.concatenate([upper, more.upper]))
        lo, hi = lo - more.offset, hi - more.offset
    n = len(cost)
    if n == 0:
        return None, INFEASIBLE
    nr = 0 if one_reel is None else len(one_reel[1])
    width = n + nr

    def full(row: np.ndarray) -> np.ndarray:
        return np.concatenate([row, np.zeros(width - len(row))])

    cons = []
    if rows is not None and rows.shape[0]:
        cons.append(LinearConstraint(csr_array((rows.data, rows.indices, rows.indptr), shape=(rows.shape[0], width)),
                                     row_lo, row_hi))
    if more is not None and more.rows.shape[0]:
        m = more.rows
        cons.append(LinearConstraint(csr_array((m.data, m.indices + n0, m.indptr), shape=(m.shape[0], width)),
                                     more.row_lo, more.row_hi))
    if direction:
        c = full(-direction * delta)
    else:
        c = full(cost)
        cons.append(LinearConstraint(full(delta), lo, hi))
    for row, a, b in extra:
        cons.append(LinearConstraint(full(row), a, b))
    if one_reel is not None:
        reel_id, set_id = one_reel
        link = csr_array((np.concatenate([np.ones(n0), -upper[:n0]]),
                          (np.concatenate([np.arange(n0), np.arange(n0)]), np.concatenate([np.arange(n0), n + reel_id]))),
                         shape=(n0, width))
        cons.append(LinearConstraint(link, -np.inf, 0.0))             # y_g <= upper_g u_reel(g)
        sets = sorted(set(int(x) for x in set_id))
        pick = csr_array((np.ones(nr), ([sets.index(int(x)) for x in set_id], n + np.arange(nr))),
                         shape=(len(sets), width))
        cons.append(LinearConstraint(pick, -np.inf, 1.0))              # one reel per strip set
    res = milp(c, constraints=cons, integrality=np.ones(width),
               bounds=Bounds(np.zeros(width), np.concatenate([upper, np.ones(nr)])),
               options={"time_limit": time_limit, "presolve": True})
    if res.x is None:
        return None, (INFEASIBLE if res.status == 2 else NO_SOLUTION)
    return np.round(res.x[:n]).astype(np.int64), (OPTIMAL if res.status == 0 else FEASIBLE)


def _sparse(rows: Sequence[Sequence[int]], weights: Sequence[Sequence[float]], n: int) -> csr_array:
    data, ri, ci = [], [], []
    for k, (idx, w) in enumerate(zip(rows, weights)):
        ri += [k] * len(idx)
        ci += list(idx)
        data += list(w)
    return csr_array((data, (ri, ci)), shape=(len(rows), n))


def _capacity(positions: Sequence[int], n: int, sep: int) -> int:
    """Most of ``positions`` (on a cyclic reel of ``n``) pairwise at least ``sep`` apart: greedy from each start."""
    pts = sorted(set(positions))
    if len(pts) <= 1:
        return len(pts)
    best = 1
    for k in range(len(pts)):
        order = pts[k:] + [p + n for p in pts[:k]]
        last, count = order[0], 1
        for p in order[1:]:
            if p - last >= sep and order[0] + n - p >= sep:
                last, count = p, count + 1
        best = max(best, count)
    return best


def _choose(ms: MathSet, original, current, cands: Sequence[EditSensitivity], sep: int, lo: float, hi: float,
            extra_deltas: Sequence[tuple[Sequence[Fraction], float, float]], direction: int,
            time_limit: float, one_reel: bool = False,
            block: _Block | None = None) -> tuple[list[StripEdit] | None, np.ndarray | None, str]:
    """The edits of one round and the MILP status: a MILP over groups of equivalent edits, then their positions.

    Edits of one reel replacing the same symbol by the same symbol with the same
    exact changes are interchangeable but for their positions: the first MILP
    chooses how many of each group (no symmetry to branch on), with at most
    as many from the groups within one set of positions as that set can
    hold apart; a second, small one places them under the separation rule.
    New edits keep the separation from every position already changed.  If
    the counts cannot be placed, they are cut off and the first MILP runs
    again (a few times), then the position-level MILP decides.
    """
    n_reel = {(k, r): len(reel) for k, reels in current.items() for r, reel in enumerate(reels)}
    changed = {(k, r, p) for k, reels in current.items() for r, reel in enumerate(reels)
               for p, x in enumerate(reel) if x != original[k][r][p]}
    near = set()
    for k, r, p in changed:
        near |= {(k, r, (p + d) % n_reel[k, r]) for d in range(-sep + 1, sep) if d}
    keep = [i for i, c in enumerate(cands) if (c.edit.strip_set, c.edit.reel, c.edit.position) in changed
            or (c.edit.strip_set, c.edit.reel, c.edit.position) not in near]
    cands = [cands[i] for i in keep]
    extra_deltas = [([d[i] for i in keep], a, b) for d, a, b in extra_deltas]
    pb = _problem(ms, original, current, cands, sep)
    n = len(pb.edits)
    if n == 0:
        return None, None, INFEASIBLE
    gi = np.empty(n, dtype=np.int64)
    group_of: dict[tuple, int] = {}
    for i, e in enumerate(pb.edits):
        at_changed = pb.cost[i] != 1.0
        key = (e.strip_set, e.reel, e.old, e.new, cands[i].delta, tuple(d[i] for d, _, _ in extra_deltas),
               e.position if at_changed else -1)
        gi[i] = group_of.setdefault(key, len(group_of))
    m = len(group_of)
    first = np.zeros(m, dtype=np.int64)
    first[gi[::-1]] = np.arange(n)[::-1]
    upper = np.bincount(gi, minlength=m).astype(float)
    cost, delta = pb.cost[first], pb.delta[first]
    members: dict[int, list[int]] = {}
    for i in range(n):
        members.setdefault(int(gi[i]), []).append(i)
    rows, caps = [], []
    by_pos: dict[tuple, set] = {}
    for i, e in enumerate(pb.edits):
        if pb.cost[i] != 1.0:
            by_pos.setdefault((e.strip_set, e.reel, e.position), set()).add(int(gi[i]))
    for gs in by_pos.values():           # one choice per changed position
        if len(gs) > 1:
            rows.append(sorted(gs))
            caps.append(1.0)
    # groups whose positions all lie in the positions of another group share that group's capacity
    pos_set = {g: frozenset(pb.edits[i].position for i in idx) for g, idx in members.items() if cost[g] == 1.0}
    reel_of = {g: (pb.edits[members[g][0]].strip_set, pb.edits[members[g][0]].reel) for g in pos_set}
    by_reel: dict[tuple, list[int]] = {}
    for g in pos_set:
        by_reel.setdefault(reel_of[g], []).append(g)
    for key, gs in by_reel.items():
        for ps in {pos_set[g] for g in gs}:
            inside = [g for g in gs if pos_set[g] <= ps]
            cap = _capacity(ps, n_reel[key], sep)
            if len(inside) > 1 or cap < upper[inside[0]]:
                rows.append(sorted(inside))
                caps.append(float(cap))
    extra = [(np.array([float(x) for x in d])[first], a, b) for d, a, b in extra_deltas]
    reels = _reel_ids([pb.edits[i] for i in first]) if one_reel else None
    status = INFEASIBLE
    for _ in range(4):
        mat = _sparse(rows, [[1.0] * len(r) for r in rows], m) if rows else None
        y, status = _milp(cost, delta, upper, lo, hi, rows=mat, row_lo=np.full(len(rows), -np.inf),
                          row_hi=np.array(caps), extra=extra, direction=direction, one_reel=reels, more=block,
                          time_limit=time_limit)
        if y is None:
            return None, None, status
        y, wv = y[:m], (y[m:m + len(block.keys)] if block is not None else None)
        placed = _place(ms, original, current, pb, cands, gi, y, sep, time_limit)
        if placed is not None:
            return placed, wv, status
        chosen = sorted(int(g) for g in np.flatnonzero(y))     # cut off this choice of counts
        rows.append(chosen)
        caps.append(float(sum(y[g] for g in chosen) - 1))
    # the counts could not be placed: the position-level model (same objective and bands)
    sep_rows = _sparse(pb.rows, pb.row_weight, n)
    extra_full = [(np.array([float(v) for v in d]), a, b) for d, a, b in extra_deltas]
    x, status = _milp(pb.cost, pb.delta, np.ones(n), lo, hi, rows=sep_rows, row_lo=np.full(len(pb.rows), -np.inf),
                      row_hi=np.array(pb.row_ub, dtype=float), extra=extra_full, direction=direction,
                      one_reel=_reel_ids(pb.edits) if one_reel else None, more=block, time_limit=time_limit)
    if x is None:
        return None, None, status
    return [pb.edits[i] for i in range(n) if x[i]], (x[n:n + len(block.keys)] if block is not None else None), status


def _reel_ids(edits: Sequence[StripEdit]) -> tuple[np.ndarray, np.ndarray]:
    """(reel id of each edit, strip-set id of each reel id) for the one-reel restriction."""
    ids: dict[tuple[str, int], int] = {}
    sets: dict[str, int] = {}
    reel_id = np.array([ids.setdefault((e.strip_set, e.reel), len(ids)) for e in edits], dtype=np.int64)
    set_id = np.array([sets.setdefault(k, len(sets)) for k, _ in ids], dtype=np.int64)
    return reel_id, set_id


def _place(ms: MathSet, original, current, pb: _Problem, cands, gi: np.ndarray, y: np.ndarray, sep: int,
           time_limit: float) -> list[StripEdit] | None:
    """Positions for ``y[g]`` edits of each group g under the separation rule, or None if impossible."""
    members = [i for i in range(len(pb.edits)) if y[gi[i]] > 0]
    if not members:
        return []
    sub = _problem(ms, original, current, [cands[i] for i in members], sep)
    chosen = sorted({int(gi[i]) for i in members})
    eq_rows = [[j for j, i in enumerate(members) if gi[i] == g] for g in chosen]
    counts = [float(y[g]) for g in chosen]
    k = len(members)
    mat = _sparse(sub.rows + eq_rows, sub.row_weight + [[1.0] * len(r) for r in eq_rows], k)
    x, _ = _milp(np.zeros(k), np.zeros(k), np.ones(k), 0.0, 0.0, rows=mat,
                 row_lo=np.concatenate([np.full(len(sub.rows), -np.inf), counts]),
                 row_hi=np.concatenate([np.array(sub.row_ub, dtype=float), counts]), time_limit=time_limit)
    return None if x is None else [sub.edits[j] for j in range(k) if x[j]]


def _apply(current: dict[str, list[list[str]]], edits: Sequence[StripEdit]) -> dict[str, list[list[str]]]:
    out = {k: [list(r) for r in v] for k, v in current.items()}
    for e in edits:
        assert out[e.strip_set][e.reel][e.position] == e.old, e
        out[e.strip_set][e.reel][e.position] = e.new
    return out


def _diff_edits(original, current) -> tuple[StripEdit, ...]:
    return tuple(StripEdit(k, r, p, a, b) for k in original for r, (ra, rb) in enumerate(zip(original[k], current[k]))
                 for p, (a, b) in enumerate(zip(ra, rb)) if a != b)


def _state_key(current) -> tuple:
    return tuple((k, tuple(tuple(r) for r in v)) for k, v in sorted(current.items()))


def tune(ms: MathSet, target: Fraction, tolerance: Fraction = DEFAULT_TOLERANCE, *,
         keep_hit_frequency: Fraction | None = None, allow: frozenset[str] = frozenset(),
         max_rounds: int = MAX_ROUNDS, time_limit: float = 20.0, analysis: GameAnalysis | None = None,
         check: Callable[[MathSet], Sequence[str]] | None = None, seconds: float | None = SEARCH_SECONDS) -> Variant:
    """A variant of ``ms`` whose exact RTP is within ``tolerance`` of ``target`` (module docstring).

    Parameters
    ----------
    ms : MathSet
    target, tolerance : Fraction
        Fractions of 1 (0.94 = 94%; the default tolerance 1/10000 is 0.01 pp).
    keep_hit_frequency : Fraction, optional
        Also keep the base hit frequency within this relative tolerance of the input's.
    allow : frozenset of str
        ``{"fish-weights"}``: when pay swaps alone cannot meet the target, FISH
        weights may change too (each table keeps its total and every value
        keeps a weight >= 1; each changed weight counts as one change).
    max_rounds : int
        Exact rechecks before giving up.
    time_limit : float
        Seconds HiGHS may spend on one MILP.
    seconds : float or None
        Seconds the whole search may take (``None``: no bound); at the bound the
        closest state found so far is the result (``stopped == "time limit"``).
    check : callable MathSet -> sequence of str, optional
        What a state of the search breaks that the input kept (``rtp tune``:
        the published facts, :func:`exact.facts.check_facts`); empty when
        nothing.  A state with a non-empty answer is never returned: the
        result is the closest state that passes (the input always does), and
        ``rejected`` names what the closest rejected state broke.  States with
        changed FISH weights are not checked (their published FISH
        probabilities change by request).

    Returns
    -------
    Variant
        ``met`` False when the target is not reached; ``rtp`` is then the
        closest exact RTP reached (by a state that passes ``check``) and
        ``math_set`` the set that reaches it.

    Raises
    ------
    ValueError
        If the game has a rule the exact sensitivities do not cover
        (:func:`exact.rules.supports`: a :class:`strips.errors.UnsupportedRule`), the set is
        inconsistent with its game file, or ``allow`` names something else.

    >>> from strips.loader import load_math_set
    >>> v = tune(load_math_set("rules_page"), Fraction(95, 100))
    >>> v.met, abs(v.rtp - Fraction(95, 100)) <= DEFAULT_TOLERANCE
    (True, True)
    """
    require(ms, "tune")
    unknown = set(allow) - set(ALLOW)
    if unknown:
        raise ValueError(f"cannot allow {', '.join(sorted(unknown))} (can allow: {', '.join(ALLOW)})")
    start = time.monotonic()
    v = _tune(ms, Fraction(target), Fraction(tolerance), keep_hit_frequency, False, max_rounds, time_limit, analysis,
              check, None if seconds is None else start + seconds)
    if v.met or "fish-weights" not in allow:
        return v
    w = _tune(ms, Fraction(target), Fraction(tolerance), keep_hit_frequency, True, max_rounds, time_limit, analysis,
              check, None if seconds is None else start + seconds)
    w = dataclasses.replace(w, seconds=time.monotonic() - start)
    return w if w.met or abs(w.rtp - w.target) < abs(v.rtp - v.target) else v


def _tune(ms: MathSet, target: Fraction, tolerance: Fraction, keep_hit_frequency: Fraction | None,
          weights: bool, max_rounds: int, time_limit: float, analysis: GameAnalysis | None,
          check: Callable[[MathSet], Sequence[str]] | None = None, deadline: float | None = None) -> Variant:
    started = time.monotonic()
    sep = separation(ms)
    original = {k: [list(r) for r in v.reels] for k, v in ms.strips.items()}
    current = {k: [list(r) for r in v] for k, v in original.items()}
    table_changes: dict[tuple[str, str], tuple[int, ...]] = {}
    an = analysis or analyse(ms)
    hf_input = an.base.hit_frequency if keep_hit_frequency is not None else None
    best: tuple | None = None
    rejected: tuple | None = None           # (distance to the target, what broke) of the closest rejected state
    seen: set = set()
    lower = 0
    rtp_input = None
    # the band searched: the tolerance, or (a tolerance below the default, 0 included) the default band,
    # narrowed by 4 each time the exact RTP lands in it, down to the tolerance (continuation)
    work = max(tolerance, DEFAULT_TOLERANCE)
    half = work / 2
    rounds = 0
    stalled = 0
    stopped = "round limit"
    limit = max_rounds if work == tolerance else NARROW_ROUNDS
    for rounds in range(1, limit + 1):
        model = with_weights(ms.model, table_changes) if table_changes else ms.model
        cur_ms = ms if rounds == 1 else dataclasses.replace(with_strips(ms, current), model=model)
        cur_an = an if rounds == 1 else analyse(cur_ms)
        sens = sensitivity(cur_ms, cur_an)
        rtp = sens.rtp
        hf = cur_an.base.hit_frequency if hf_input is not None else None
        hf_ok = hf_input is None or abs(hf - hf_input) <= keep_hit_frequency * hf_input
        broken = tuple(check(cur_ms)) if check is not None and not table_changes else ()
        if broken and (rejected is None or abs(rtp - target) < rejected[0]):
            rejected = (abs(rtp - target), broken)
        ok = abs(rtp - target) <= tolerance and hf_ok and not broken
        changed_weights = _weight_changes(ms.model, table_changes)
        n_changes = len(_diff_edits(original, current)) + sum(
            sum(1 for x, y in zip(old, new) if x != y) for _, _, old, new in changed_weights)
        score = (not ok, bool(broken), not hf_ok, abs(rtp - target), n_changes)
        improved = best is None or score < best[0]
        if improved:
            best = (score, rtp, hf, {k: [list(r) for r in v] for k, v in current.items()}, dict(table_changes))
        cands = allowed_edits(cur_ms, sens.edits)
        if rounds == 1:
            rtp_input = rtp
            lower = _lower_bound(rtp, cands, target, tolerance)
        if ok:
            stopped = "met"
            break
        if work > tolerance and abs(rtp - target) <= work and hf_ok and not broken:
            work = max(work / 4, tolerance)     # in the working band: narrow it
            half = min(half, work / 2)
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            stopped = "time limit"
            break
        tl = time_limit if left is None else min(time_limit, left)
        seen.add((_state_key(current), tuple(sorted(table_changes.items()))))
        block = _weight_block(ms.model, sens) if weights else None
        extra = []
        if hf_input is not None:
            room = float(keep_hit_frequency * hf_input)
            gap_h = float(hf_input - hf)
            extra.append((hit_frequency_deltas(cur_ms, [c.edit for c in cands]), gap_h - room / 2, gap_h + room / 2))
        gap = float((target - rtp) * _SCALE)
        h = float(half * _SCALE)
        chosen = None
        if rounds > 1:                      # a repair: changes on one reel per strip set add exactly
            exact_h = float(work * _SCALE) * 0.9
            chosen, wv, status = _choose(ms, original, current, cands, sep, gap - exact_h, gap + exact_h, extra, 0,
                                         tl, one_reel=True, block=block)
        if chosen is None:
            chosen, wv, status = _choose(ms, original, current, cands, sep, gap - h, gap + h, extra, 0, tl,
                                         block=block)
        if chosen is None and work < max(tolerance, DEFAULT_TOLERANCE):
            stopped = "no closer state"     # narrowed as far as the allowed edits go
            break
        if chosen is None:                  # unreachable from here: go as far as possible towards the target
            chosen, wv, _ = _choose(ms, original, current, cands, sep, 0.0, 0.0, extra, 1 if target > rtp else -1,
                                    tl, block=block)
            if chosen is None or stalled >= 2:
                stopped = "no closer state"
                break
            stalled += 1
        nxt = _apply(current, chosen)
        nxt_tables = dict(table_changes)
        if block is not None and wv is not None:
            by_table: dict[tuple[str, str], list[int]] = {}
            for (sym, table, j), y in zip(block.keys, wv):
                by_table.setdefault((sym, table), []).append(int(y) + 1)
            for key, new in by_table.items():
                if tuple(new) != tuple(model.symbol(key[0]).weights[key[1]]):
                    nxt_tables[key] = tuple(new)
        moved = bool(chosen) or nxt_tables != table_changes
        if not moved or (_state_key(nxt), tuple(sorted(nxt_tables.items()))) in seen:
            half /= 2                       # the same point again: narrow the band
            if not moved:
                stopped = "no closer state"
                break
        current, table_changes = nxt, nxt_tables
    _, rtp, hf, state, tables = best
    model = with_weights(ms.model, tables) if tables else ms.model
    met = best[0][0] is False
    closer = rejected is not None and (not met and rejected[0] < abs(rtp - target))
    return Variant(target=target, tolerance=tolerance, rtp_input=rtp_input, rtp=rtp, met=met,
                   math_set=dataclasses.replace(with_strips(ms, state), model=model),
                   edits=_diff_edits(original, state), lower_bound=lower if not tables else 1, rounds=rounds,
                   hit_frequency_input=hf_input, hit_frequency=hf, weights=_weight_changes(ms.model, tables),
                   rejected=rejected[1] if closer else (), seconds=time.monotonic() - started, stopped=stopped)


def _weight_changes(model: GameModel, tables: Mapping[tuple[str, str], tuple[int, ...]]) -> tuple:
    """(symbol, table, old weights, new weights) of every table that differs from ``model``."""
    return tuple((sym, table, tuple(model.symbol(sym).weights[table]), tuple(new))
                 for (sym, table), new in sorted(tables.items()) if tuple(new) != tuple(model.symbol(sym).weights[table]))


def _lower_bound(rtp: Fraction, cands: Sequence[EditSensitivity], target: Fraction, tolerance: Fraction) -> int:
    """Proven fewest edits: 0 if already within the tolerance, 2 if no single allowed edit lands in it, else 1."""
    if abs(rtp - target) <= tolerance:
        return 0
    if any(abs(rtp + c.delta - target) <= tolerance for c in cands):
        return 1
    return 2


def kept_figures(a: MathSet, b: MathSet, hit_tolerance: Fraction | None = None,
                 weights_changed: bool = False) -> list[Check]:
    """What a default variant keeps, checked exactly on the two sets.

    Strip lengths; every position of a feature (non-pay) symbol; the trigger
    probabilities; the KEY-count distributions of the base game and the free
    spins; every collect mean; no strip-rule finding the input did not have;
    with ``hit_tolerance``, the base hit frequency within that relative tolerance.
    ``weights_changed`` (FISH weights allowed to change) leaves out the collect means.
    """
    model = a.model
    ga, gb = analyse(a), analyse(b)
    out = []
    for k in a.strips:
        la, lb = a.strips[k].lengths, b.strips[k].lengths
        out.append(Check(f"{k} strip lengths", la, lb, la == lb))
        feat = [(r, p) for r, reel in enumerate(a.strips[k].reels) for p, x in enumerate(reel)
                if model.symbol(x).kind != PAY]
        moved = [(r, p) for r, p in feat if r >= len(b.strips[k].reels) or p >= len(b.strips[k].reels[r])
                 or b.strips[k].reels[r][p] != a.strips[k].reels[r][p]]
        out.append(Check(f"{k} feature-symbol positions ({len(feat)})", len(feat), len(feat) - len(moved), not moved))
    out.append(Check("scatter-count probabilities n = 0, 1, ... (the trigger odds)", ga.base.by_scatter.prob, gb.base.by_scatter.prob,
                     ga.base.by_scatter.prob == gb.base.by_scatter.prob))
    out.append(Check("base KEY-count distribution", ga.base.by_key.prob, gb.base.by_key.prob,
                     ga.base.by_key.prob == gb.base.by_key.prob))
    if ga.levels:
        out.append(Check("free-spin KEY-count distribution", ga.levels[0].by_key.prob, gb.levels[0].by_key.prob,
                         ga.levels[0].by_key.prob == gb.levels[0].by_key.prob))
    ca = tuple(p.parts[COLLECT] for p in (ga.base,) + tuple(ga.levels))
    cb = tuple(p.parts[COLLECT] for p in (gb.base,) + tuple(gb.levels))
    if not weights_changed:
        out.append(Check("collect means", ca, cb, ca == cb))
    fa = {(f.column, f.message) for f in a.findings}
    new = [m for c, m in ((f.column, f.message) for f in b.findings) if (c, m) not in fa]
    out.append(Check("strip rules (no new finding)", len(a.findings), len(b.findings), not new))
    if hit_tolerance is not None:
        ha, hb = ga.base.hit_frequency, gb.base.hit_frequency
        out.append(Check(f"base hit frequency (relative tolerance {float(hit_tolerance):g})", ha, hb,
                         abs(hb - ha) <= hit_tolerance * ha))
    return out


def exact_rtp(ms: MathSet) -> Fraction:
    """The exact RTP of a math set (engine + free-spin chain + its prize wheels), a fraction of 1."""
    return analyse_mode(ms).rtp


#: ``tune(..., progress=None)``: a progress line after 2 s where stderr is a terminal (:mod:`exact.progress`).
tune = progress_of("tune")(tune)
