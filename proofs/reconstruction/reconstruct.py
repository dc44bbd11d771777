"""Rebuild the bundled ``rules_page`` reel strips from the facts the rules page publishes.

``python -m exact.cli.reconstruct --out DIR [--seed N] [--target-rtp 0.96]``
writes ``base.csv``, ``bonus.csv``, ``game.toml`` (a byte copy of the bundled
game file) and ``PROVENANCE.md`` into ``DIR``.  The same arguments give
byte-identical files.

Pipeline (each step is a pure function; the rules are those of
``PROVENANCE.md``):

1. :func:`observe`: the published positions of every reel (examples 1-9),
   merged and checked for consistency (:func:`proofs.reconstruction.rules_page.published_positions`).
2. :func:`special_counts`: how many of each special symbol every reel carries.
   FS and KEY counts are forced by the published probabilities
   (:mod:`proofs.reconstruction.derive`, exact search); where the facts leave a choice
   (which reel, FISH spread, WILD), a fixed rule decides.
3. :func:`place_specials`: the unseen positions of the specials, one 0/1
   linear program per reel (``scipy.optimize.milp``, HiGHS) under the
   spacing rule of section 3, with seeded random costs (a unique optimum).
4. :func:`fill_pays`: the remaining unseen positions get pay symbols drawn
   (seeded) from the published pay-symbol frequencies of the strip set,
   never more than 3 AUS symbols in sequence.
5. :func:`proofs.reconstruction.rtp_fit.fit_rtp`: a seeded local search changes pay symbols at unseen
   positions until the exact RTP of the whole game (base spin + free spins)
   is within the tolerance of the target.  The objective is exact: the ways
   means by the closed form of :mod:`proofs.reconstruction.ways`, the rest from one run of
   the exact engine and the free-spin chain on the untuned set (placing pay
   symbols changes neither the FS/KEY probabilities nor any collect figure).

Source: rules page sections 3, 4, 10, 11 and 13.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import numpy as np

from proofs.reconstruction import derive
from strips.loader import GAME_FILE, bundled_path
from proofs.reconstruction.common import (DEFAULT_SEED, DEFAULT_TARGET, HIGH_VALUE_FISH, LOW_VALUE_FISH,
    STRIP_SETS, aus_run_ok, csv_bytes, game_model, math_set)
from proofs.reconstruction.provenance import provenance_text
from proofs.reconstruction.rtp_fit import fit_rtp
from proofs.reconstruction.rules_page import (
    MIN_PAY_BETWEEN_SPECIALS,
    REELS,
    SPECIAL_REELS,
    STRIP_LENGTH,
    TOTALS,
    published_positions,
    round_half_up,
)



@dataclass(frozen=True)
class Observation:
    """What the published windows show of one strip set.

    Attributes
    ----------
    strip_set : str
    known : dict (reel, position) -> (symbol, example numbers)
        0-based reel and position, from :func:`published_positions`.
    shown : tuple of int, length 5
        Distinct published positions per reel.
    """

    strip_set: str
    known: dict
    shown: tuple[int, ...]

    def seen(self, symbol: str) -> tuple[int, ...]:
        """Copies of ``symbol`` in the published positions, per reel."""
        out = [0] * REELS
        for (r, _), (name, _) in self.known.items():
            if name == symbol:
                out[r] += 1
        return tuple(out)


def observe(strip_set: str) -> Observation:
    """The published positions of ``strip_set`` (examples 1-7 base, 8-9 bonus).

    Raises
    ------
    ValueError
        If two examples disagree on a position.
    """
    known = published_positions(strip_set)
    shown = tuple(sum(1 for (r, _) in known if r == reel) for reel in range(REELS))
    return Observation(strip_set, known, shown)


# --------------------------------------------------------------------------
# step 2: counts of the special symbols
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Counts:
    """Special-symbol counts of one strip set and the rule that set each.

    Attributes
    ----------
    counts : dict str -> tuple of int, length 5
        Special symbol -> copies on each reel (0 where not allowed).
    rules : dict str -> str
        Special symbol -> the rule (R1..R6 of PROVENANCE.md) that fixed it.
    """

    counts: dict
    rules: dict


def laplace_density(seen: int, shown: int) -> Fraction:
    """Rule-of-succession estimate (seen + 1) / (shown + 2) of a symbol's share of a strip."""
    return Fraction(seen + 1, shown + 2)


def allocate(total: int, targets: list[Fraction], lower: list[int]) -> list[int]:
    """Integer counts summing to ``total``, each >= its lower bound, close to ``targets``.

    Starts at the lower bounds and gives each further unit to the cell whose
    target exceeds its count most (first cell on ties): the greedy that
    minimises sum |count - target| for a fixed total.

    Raises
    ------
    ValueError
        If the lower bounds already exceed ``total``.
    """
    counts = list(lower)
    if sum(counts) > total:
        raise ValueError(f"lower bounds {counts} exceed the total {total}")
    while sum(counts) < total:
        i = max(range(len(counts)), key=lambda j: (targets[j] - counts[j], -j))
        counts[i] += 1
    return counts


def special_counts(obs: Observation) -> Counts:
    """Copies of each special symbol on each reel of one strip set.

    Rules (PROVENANCE.md): R1 FS and KEY counts are the only ones the
    published probabilities allow (exact search, :mod:`proofs.reconstruction.derive`); R2
    where a forced count can sit on more than one reel, the ordering that
    makes the published windows most likely; R3 every symbol is on every reel
    the page lists for it, at least as often as the windows show it; R4
    FISH3 and FISH4 take the fewest copies R3 allows; R5 FISH1 and FISH2 share
    the rest of the FISH total in proportion to their Laplace densities in
    the published windows; R6 WILD (base) takes its Laplace density of 100
    positions, rounded.

    Raises
    ------
    ValueError
        If the facts admit no FS or KEY count vector, or more than one FS
        multiset, or the counts overfill a reel.
    """
    s = obs.strip_set
    allowed = SPECIAL_REELS[s]
    counts: dict[str, tuple[int, ...]] = {}
    rules: dict[str, str] = {}
    if "FS" in allowed:
        found, _ = derive.fs_count_solutions()
        if len(found) != 1:
            raise ValueError(f"the FS facts allow {len(found)} count multisets, expected exactly 1")
        counts["FS"] = derive.most_likely(permutations(found[0].counts), obs.seen("FS"), obs.shown)
        rules["FS"] = "R1, R2"
    key_reels = allowed["KEY"]
    idx = [r - 1 for r in key_reels]
    found, _ = derive.key_count_solutions(s, len(key_reels))
    if not found:
        raise ValueError(f"no KEY count vector gives the published P(2+ KEY) on the {s} strips")
    seen, shown = obs.seen("KEY"), obs.shown
    chosen = derive.most_likely([c for c, _ in found], [seen[i] for i in idx], [shown[i] for i in idx])
    counts["KEY"] = _spread(dict(zip(idx, chosen)))
    rules["KEY"] = "R1, R2"
    for name in HIGH_VALUE_FISH:
        counts[name] = _spread({r - 1: max(1, obs.seen(name)[r - 1]) for r in allowed[name]})
        rules[name] = "R3, R4"
    rest = TOTALS[s]["FISH"] - sum(sum(counts[n]) for n in HIGH_VALUE_FISH)
    cells = [(name, r - 1) for name in LOW_VALUE_FISH for r in allowed[name]]
    dens = [laplace_density(obs.seen(n)[r], obs.shown[r]) for n, r in cells]
    targets = [rest * d / sum(dens) for d in dens]
    lower = [max(1, obs.seen(n)[r]) for n, r in cells]
    for (name, r), c in zip(cells, allocate(rest, targets, lower)):
        counts.setdefault(name, (0,) * REELS)
        counts[name] = counts[name][:r] + (c,) + counts[name][r + 1:]
        rules[name] = "R3, R5"
    if "WILD" in allowed:
        counts["WILD"] = _spread({
            r - 1: max(1, obs.seen("WILD")[r - 1],
                       int(round_half_up(STRIP_LENGTH * laplace_density(obs.seen("WILD")[r - 1], obs.shown[r - 1]), 0)))
            for r in allowed["WILD"]})
        rules["WILD"] = "R3, R6"
    for r in range(REELS):
        total = sum(c[r] for c in counts.values())
        if total > derive.MAX_SPECIALS:
            raise ValueError(f"{s} reel {r + 1}: {total} specials do not fit the spacing rule "
                             f"({derive.MAX_SPECIALS} at most)")
    order = [n for n in ("WILD", "KEY", "FS", "FISH1", "FISH2", "FISH3", "FISH4") if n in counts]
    return Counts({n: counts[n] for n in order}, {n: rules[n] for n in order})


def _spread(by_reel: dict[int, int]) -> tuple[int, ...]:
    return tuple(by_reel.get(r, 0) for r in range(REELS))


# --------------------------------------------------------------------------
# step 3: positions of the special symbols
# --------------------------------------------------------------------------
def place_specials(obs: Observation, counts: Counts, specials: frozenset[str], seed: int) -> list[list[str | None]]:
    """Strips with the published positions and every special symbol placed.

    Per reel, a 0/1 linear program (HiGHS via ``scipy.optimize.milp``):
    x[p, s] = 1 puts special ``s`` at unseen position ``p``; each symbol
    gets exactly its missing copies; every 4 consecutive positions (cyclic)
    hold at most one special, published specials included (section 3: 3 or
    more pay symbols between two specials).  The costs are seeded uniform
    random numbers, so the optimum is unique and the result reproducible.

    Returns
    -------
    list of list, shape (5, 100)
        Symbol names; ``None`` at positions still to be filled with pay symbols.

    Raises
    ------
    ValueError
        If a reel's specials cannot be placed (the program is infeasible) or
        a published window already breaks the spacing rule.
    """
    from scipy.optimize import Bounds, LinearConstraint, milp

    rng = np.random.default_rng([seed, STRIP_SETS.index(obs.strip_set)])
    window = MIN_PAY_BETWEEN_SPECIALS + 1
    reels: list[list[str | None]] = []
    for r in range(REELS):
        strip: list[str | None] = [None] * STRIP_LENGTH
        for (rr, p), (name, _) in obs.known.items():
            if rr == r:
                strip[p] = name
        need = {n: c[r] - sum(1 for x in strip if x == n) for n, c in counts.counts.items()}
        need = {n: k for n, k in need.items() if k > 0}
        free = [p for p in range(STRIP_LENGTH) if strip[p] is None]
        names = list(need)
        nvar = len(free) * len(names)
        cost = rng.random(nvar)
        if not names:
            reels.append(strip)
            continue
        col = {(p, n): i * len(names) + j for i, p in enumerate(free) for j, n in enumerate(names)}
        rows, lo, hi = [], [], []
        for n in names:
            a = np.zeros(nvar)
            for p in free:
                a[col[p, n]] = 1
            rows.append(a), lo.append(need[n]), hi.append(need[n])
        for start in range(STRIP_LENGTH):
            span = [(start + k) % STRIP_LENGTH for k in range(window)]
            fixed = sum(1 for p in span if strip[p] in specials)
            if fixed > 1:
                raise ValueError(f"{obs.strip_set} reel {r + 1}: published positions {span} hold {fixed} specials")
            a = np.zeros(nvar)
            for p in span:
                if strip[p] is None:
                    for n in names:
                        a[col[p, n]] = 1
            if a.any():
                rows.append(a), lo.append(0), hi.append(1 - fixed)
        res = milp(cost, constraints=LinearConstraint(np.array(rows), lo, hi),
                   integrality=np.ones(nvar), bounds=Bounds(0, 1))
        if res.x is None:
            raise ValueError(f"{obs.strip_set} reel {r + 1}: the specials {need} cannot be placed "
                             f"under the spacing rule ({res.message})")
        for (p, n), i in col.items():
            if res.x[i] > 0.5:
                strip[p] = n
        reels.append(strip)
    return reels


# --------------------------------------------------------------------------
# step 4: pay symbols at the unseen positions
# --------------------------------------------------------------------------
def pay_weights(obs: Observation, pay_names: tuple[str, ...]) -> list[int]:
    """Published count + 1 of each pay symbol over all reels of the strip set (Laplace)."""
    seen = [0] * len(pay_names)
    for (_, _), (name, _) in obs.known.items():
        if name in pay_names:
            seen[pay_names.index(name)] += 1
    return [k + 1 for k in seen]


def fill_pays(strips: list[list[str | None]], weights: list[int], pay_names: tuple[str, ...],
              aus: frozenset[str], rng: np.random.Generator) -> list[list[str]]:
    """Fill every ``None`` with a pay symbol drawn by integer ``weights``, AUS runs <= 3.

    A drawn AUS symbol that would make a run of 4 is redrawn among the PIC
    symbols (same weights).
    """
    pics = [i for i, n in enumerate(pay_names) if n not in aus]
    out = []
    for strip in strips:
        strip = list(strip)
        for p in range(len(strip)):
            if strip[p] is not None:
                continue
            name = pay_names[_draw(weights, range(len(pay_names)), rng)]
            if not aus_run_ok(strip, p, name, aus):
                name = pay_names[_draw(weights, pics, rng)]
            strip[p] = name
        out.append(strip)
    return out


def _draw(weights: list[int], choices, rng: np.random.Generator) -> int:
    choices = list(choices)
    total = sum(weights[i] for i in choices)
    u = int(rng.integers(total))
    for i in choices:
        u -= weights[i]
        if u < 0:
            return i
    raise AssertionError("unreachable")


# --------------------------------------------------------------------------
# assembling and writing a set
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Build:
    """Everything one reconstruction produced.

    Attributes
    ----------
    strips : dict str -> list of list of str, shape (5, 100) each
    counts : dict str -> Counts
    observations : dict str -> Observation
    rtp_untuned, rtp : Fraction or None
        Exact RTP of the whole game before and after tuning (None when not tuned).
    tuning_steps, tuning_moves : int
        Candidate moves tried and moves kept.
    """

    strips: dict
    counts: dict
    observations: dict
    seed: int
    target: Fraction | None
    rtp_untuned: Fraction | None = None
    rtp: Fraction | None = None
    tuning_steps: int = 0
    tuning_moves: int = 0


def build(seed: int = DEFAULT_SEED, target: Fraction | None = DEFAULT_TARGET) -> Build:
    """Run the whole reconstruction (steps 1-5); pure: writes nothing.

    Parameters
    ----------
    seed : int
        Seed of every random choice (placement costs, pay draws, tuning moves).
    target : Fraction or None
        RTP to tune to (a fraction of 1); ``None`` skips step 5.

    Raises
    ------
    ValueError
        If the facts cannot be met, or the tuning does not reach the target.
    """
    model = game_model()
    specials = frozenset(s.name for s in model.symbols if s.is_special)
    pay_names = tuple(s.name for s in model.pay_symbols)
    aus = frozenset(model.strip_rules.max_run_symbols)
    rng = np.random.default_rng(seed)
    strips, counts, observations = {}, {}, {}
    for s in STRIP_SETS:
        obs = observe(s)
        cts = special_counts(obs)
        placed = place_specials(obs, cts, specials, seed)
        strips[s] = fill_pays(placed, pay_weights(obs, pay_names), pay_names, aus, rng)
        counts[s], observations[s] = cts, obs
    if target is None:
        return Build(strips, counts, observations, seed, None)
    result = fit_rtp(model, strips, observations, target, rng)
    return Build(result.strips, counts, observations, seed, target, result.rtp_untuned, result.rtp,
                 result.steps, result.moves)


def write(b: Build, out: Path) -> list[Path]:
    """Write base.csv, bonus.csv, game.toml and PROVENANCE.md of a build into ``out``."""
    model = game_model()
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for s in STRIP_SETS:
        path = out / model.strip_files[s]
        path.write_bytes(csv_bytes(b.strips[s]))
        written.append(path)
    game = (bundled_path("rules_page") / GAME_FILE).read_bytes()
    if not (out / GAME_FILE).is_file() or (out / GAME_FILE).read_bytes() != game:
        (out / GAME_FILE).write_bytes(game)
    (out / "PROVENANCE.md").write_text(provenance_text(b), encoding="utf-8")
    return written + [out / GAME_FILE, out / "PROVENANCE.md"]
