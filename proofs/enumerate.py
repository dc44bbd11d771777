"""Exhaustive enumeration of every stop combination of one phase of a math set.

This is the test lab's proof by enumeration: each of the
``L1 x L2 x ... x LR`` stop combinations (10^10 for the rules-page base game)
is evaluated and its result added to exact integer totals.  It is written
independently of the factorised engine (:mod:`exact.engine`): it only reads
the windows off the reel strips and applies the rules page's semantics.

What is precomputed per reel and stop (a lookup of one reel's window, the
same facts the evaluator reads off that window column):

* ``counts[r][s, k]`` rows of the window of reel ``r`` at stop ``s`` showing
  pay symbol ``k`` or a WILD (blockers never count; section 6);
* ``keys[r][s]``, ``scatters[r][s]`` KEY and FS symbols in that column
  (sections 8 and 10);
* ``fish[r][s]`` the sum of the exact mean values of the FISH symbols in that
  column, as an integer numerator over the common denominator ``D`` (the
  least common multiple of the weight totals of the phase's tables, section 7).

Everything that depends on the combination is evaluated per combination, in
numpy blocks of up to :data:`CHUNK` combinations:

* ways pays (section 6): for each pay symbol the combination is extended
  reel by reel; combinations whose combination has ended are dropped (the
  evaluator's ``break``); the pay of OAK ``n`` is ``P_n x ways`` for each
  combination whose reel ``n + 1`` shows no such symbol (or ``n`` = reels),
  and this value is added once for every completion of the remaining reels
  (a broadcast array summed element by element, never multiplied out);
* collect (section 8): ``(sum of KEY) x (sum of FISH means)`` per combination;
* the joint histogram of (FS count, KEY count) per combination.

No product-of-sums factorisation is used anywhere: every total is a sum of an
array holding one entry per combination (or per combination of a prefix and
every completion of it).  The work is split over reel-1 stops, one task per
stop, run on a process pool; each finished task is appended to a checkpoint
file keyed by the content hash of the math set, so an interrupted run resumes.

Source: rules page sections 3 (window), 6 (ways), 7 (fish values), 8
(collect), 9 (win of a spin) and 10 (FS count).
"""
from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from strips.model import FISH, KEY, SCATTER, MathSet, Phase

#: Combinations evaluated in one numpy block (memory bound: a few arrays of this length).
CHUNK = 1 << 18

#: Bump when the enumeration's semantics or checkpoint format change: old checkpoints are then ignored.
ENUMERATOR_VERSION = 1

_INT63 = (1 << 63) - 1


# --------------------------------------------------------------------------
# per-window tables
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class WindowTables:
    """Per reel and stop facts of the window column of one phase's strips.

    Attributes
    ----------
    phase : Phase
    lengths : tuple of int, length reels
        Stops of each reel strip.
    pay_names : tuple of str, length n_pay
        Pay symbols in model order (section 5).
    pays : numpy.ndarray, shape (n_pay, reels), int64
        ``pays[k, n - 1]`` credits per way for OAK ``n`` of pay symbol ``k``.
    counts : tuple of numpy.ndarray, each shape (L_r, n_pay), int64
        Rows of the column showing pay symbol ``k`` or WILD (section 6).
    keys, scatters : tuple of numpy.ndarray, each shape (L_r,), int64
        KEY and FS (scatter) symbols in the column (sections 8, 10).
    fish : tuple of numpy.ndarray, each shape (L_r,), int64
        Sum over the FISH symbols of the column of ``D * E[value]`` (exact
        integer numerators, credits times ``denominator``), section 7.
    fish_codes : tuple of numpy.ndarray, each shape (L_r, n_fish), int64
        FISH symbols of each kind in the column (kind order: ``fish_names``).
    fish_names : tuple of str, length n_fish
    denominator : int
        ``D``: least common multiple of the weight totals of the phase's FISH tables.
    multiplier : int
        Level multiplier of the phase (section 11); 1 in the base game.
    scatter_pays : tuple of int
        ``scatter_pays[n]``: scatter pay in credits for n scatter symbols in
        the window, n = 0 .. max (all 0 in the rules-page game).
    """

    phase: Phase
    lengths: tuple[int, ...]
    pay_names: tuple[str, ...]
    pays: np.ndarray
    counts: tuple[np.ndarray, ...]
    keys: tuple[np.ndarray, ...]
    scatters: tuple[np.ndarray, ...]
    fish: tuple[np.ndarray, ...]
    fish_codes: tuple[np.ndarray, ...]
    fish_names: tuple[str, ...]
    denominator: int
    multiplier: int
    scatter_pays: tuple[int, ...] = ()

    @property
    def reels(self) -> int:
        """Number of reels."""
        return len(self.lengths)

    @property
    def combinations(self) -> int:
        """Number of stop combinations, ``prod(lengths)``."""
        return math.prod(self.lengths)


def fish_weight_table(ms: MathSet, phase: Phase) -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """FISH symbol -> (values in credits, integer weights) of the phase's table (section 7).

    Raises
    ------
    ValueError
        If a FISH symbol on the phase's strips has no weight table for the phase.
    """
    model = ms.model
    on_strips = {n for reel in ms.phase_strips(phase).reels for n in reel}
    out = {}
    for s in model.of_kind(FISH):
        w = s.weights.get(phase.weights)
        if w is None:
            if s.name in on_strips:
                raise ValueError(f"{s.name} has no weight table {phase.weights!r}")
            continue
        out[s.name] = (tuple(s.values), tuple(w))
    return out


def window_tables(ms: MathSet, phase: Phase) -> WindowTables:
    """Read the per-stop window facts of every reel of ``phase``'s strips.

    Each column is read exactly as the evaluator reads it: rows ``s, s+1, ...,
    s+rows-1`` of the strip with wrap-around (section 3).

    Raises
    ------
    ValueError
        If a FISH symbol on the strips has no weight table for the phase, or
        the game has WILD multipliers (the enumeration counts a WILD as 1).
    """
    model = ms.model
    strips = ms.phase_strips(phase)
    if model.has_wild_multipliers:
        raise ValueError("unsupported rule for the exhaustive enumeration: WILD multipliers")
    table = fish_weight_table(ms, phase)
    d = 1
    for _, w in table.values():
        d = math.lcm(d, sum(w))
    names = model.names
    pay_codes = [model.code(s.name) for s in model.pay_symbols]
    fish_names = tuple(s.name for s in model.of_kind(FISH))
    fish_num = np.zeros(len(names), dtype=np.int64)
    for name, (values, w) in table.items():
        fish_num[model.code(name)] = sum(v * wi for v, wi in zip(values, w)) * (d // sum(w))
    # subst[k, code]: the symbol counts for pay symbol k (itself, or a WILD substituting for it; section 6)
    subst = np.array([[n == s.name or model.symbol(n).substitutes_for(s.name) for n in names]
                      for s in model.pay_symbols], dtype=bool).reshape(len(pay_codes), len(names))
    key = model.kind_mask(KEY)
    scat = model.kind_mask(SCATTER)
    counts, keys, scatters, fish, fish_codes = [], [], [], [], []
    for codes in strips.codes:
        n = len(codes)
        win = np.asarray(codes, dtype=np.int64)[(np.arange(n)[:, None] + np.arange(model.rows)[None, :]) % n]
        counts.append(subst[:, win].sum(axis=2).T.astype(np.int64).reshape(n, len(pay_codes)))
        keys.append(key[win].sum(axis=1).astype(np.int64))
        scatters.append(scat[win].sum(axis=1).astype(np.int64))
        fish.append(fish_num[win].sum(axis=1))
        fish_codes.append(np.array([[int((row == model.code(f)).sum()) for f in fish_names] for row in win],
                                   dtype=np.int64).reshape(n, len(fish_names)))
    max_scatters = sum(int(x.max(initial=0)) for x in scatters)
    pays = np.array([s.pays for s in model.pay_symbols], dtype=np.int64).reshape(len(pay_codes), model.reels)
    return WindowTables(phase=phase, lengths=strips.lengths, pay_names=tuple(s.name for s in model.pay_symbols),
                        pays=pays, counts=tuple(counts), keys=tuple(keys), scatters=tuple(scatters),
                        fish=tuple(fish), fish_codes=tuple(fish_codes), fish_names=fish_names,
                        denominator=d, multiplier=phase.multiplier,
                        scatter_pays=tuple(model.scatter_pay(k) for k in range(max_scatters + 1)))


# --------------------------------------------------------------------------
# exact totals
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Totals:
    """Exact integer totals over a set of stop combinations.

    Attributes
    ----------
    combinations : int
        Number of combinations summed.
    ways : tuple of tuple of int, shape (n_pay, reels)
        ``ways[k][n - 1]``: sum over the combinations of the pay of symbol
        ``k`` when its OAK is ``n``, credits before the level multiplier.
    collect : int
        Sum over combinations of ``KEY count x sum of FISH mean numerators``;
        the collect in credits is ``collect / denominator``.
    joint : tuple of tuple of int, shape (max FS + 1, max KEY + 1)
        Combinations by (FS count, KEY count).
    """

    combinations: int
    ways: tuple[tuple[int, ...], ...]
    collect: int
    joint: tuple[tuple[int, ...], ...]

    def __add__(self, other: "Totals") -> "Totals":
        return Totals(self.combinations + other.combinations,
                      tuple(tuple(a + b for a, b in zip(x, y)) for x, y in zip(self.ways, other.ways)),
                      self.collect + other.collect,
                      tuple(tuple(a + b for a, b in zip(x, y)) for x, y in zip(self.joint, other.joint)))

    @classmethod
    def zero(cls, n_pay: int, reels: int, max_fs: int, max_key: int) -> "Totals":
        """Totals of no combination, with the given table sizes."""
        return cls(0, ((0,) * reels,) * n_pay, 0, ((0,) * (max_key + 1),) * (max_fs + 1))

    def to_json(self) -> dict:
        """JSON-able dict (the collect as a decimal string: exact at any size)."""
        return {"combinations": self.combinations, "ways": [list(w) for w in self.ways],
                "collect": str(self.collect), "joint": [list(j) for j in self.joint]}

    @classmethod
    def from_json(cls, d: dict) -> "Totals":
        """Inverse of :meth:`to_json`."""
        return cls(int(d["combinations"]), tuple(tuple(int(x) for x in w) for w in d["ways"]),
                   int(d["collect"]), tuple(tuple(int(x) for x in j) for j in d["joint"]))


def _max_counts(t: WindowTables) -> tuple[int, int]:
    return (sum(int(s.max()) for s in t.scatters), sum(int(k.max()) for k in t.keys))


def _check_bounds(t: WindowTables) -> None:
    """Refuse tables whose per-block int64 sums could overflow (never silently wrong)."""
    max_key = sum(int(k.max()) for k in t.keys)
    max_fish = sum(int(f.max()) for f in t.fish)
    max_ways = math.prod(max(1, int(c.max())) for c in t.counts) * max(1, int(t.pays.max()))
    if CHUNK * max(max_key * max_fish, max_ways, 1) > _INT63:
        raise ValueError("amounts too large for exact int64 block sums; lower CHUNK")


@dataclass(frozen=True)
class BlockPlan:
    """How one task (a reel-1 stop) is cut into blocks of at most CHUNK combinations.

    Reels ``1 .. split - 1`` (0-based, after reel 0) are looped stop by stop,
    reel ``split`` is taken in ranges of ``step`` stops, reels after it are dense.
    """

    split: int
    step: int


def block_plan(lengths: Sequence[int], chunk: int = CHUNK) -> BlockPlan:
    """The block plan for reel lengths ``lengths`` (at least 2 reels)."""
    if len(lengths) < 2:
        raise ValueError("enumeration needs 2 or more reels")
    for j in range(1, len(lengths)):
        tail = math.prod(lengths[j + 1:])
        if tail <= chunk:
            return BlockPlan(j, max(1, min(lengths[j], chunk // tail)))
    raise AssertionError("unreachable")  # j = reels - 1 has tail 1


def _blocks(t: WindowTables, plan: BlockPlan, s0: int):
    """Yield (stops per reel) for each block of task ``s0``: list of index arrays."""
    j, step = plan.split, plan.step
    dense = [np.arange(n) for n in t.lengths[j + 1:]]
    for mid in itertools.product(*(range(n) for n in t.lengths[1:j])):
        for a in range(0, t.lengths[j], step):
            yield [np.array([s0])] + [np.array([s]) for s in mid] + \
                  [np.arange(a, min(a + step, t.lengths[j]))] + dense


def _grid_sum(tables: Sequence[np.ndarray], stops: Sequence[np.ndarray]) -> np.ndarray:
    """Per-combination sum of a per-stop quantity: flat array, one entry per combination, row-major."""
    acc = np.zeros(1, dtype=np.int64)
    for tab, st in zip(tables, stops):
        acc = (acc[:, None] + tab[st][None, :]).ravel()
    return acc


def _every(values: np.ndarray, completions: int) -> int:
    """Sum of ``values`` once for each of ``completions`` completions: each element visited."""
    if completions == 1 or values.size == 0:
        return int(values.sum(dtype=np.int64))
    return int(np.broadcast_to(values[:, None], (values.size, completions)).sum(dtype=np.int64))


@dataclass(frozen=True)
class Tail:
    """Per-combination values of the dense trailing reels of a block plan (shared by its blocks).

    ``start`` is the first trailing reel; ``keys``, ``fish`` and ``code`` are
    flat arrays with one entry per combination of the trailing reels
    (row-major): KEY count, FISH mean numerator sum and ``FS x (max_key + 1)
    + KEY``.  They are element-wise sums of per-window lookups, never sums
    over combinations.
    """

    start: int
    keys: np.ndarray
    fish: np.ndarray
    code: np.ndarray


def _tail(t: WindowTables, stops: Sequence[np.ndarray], start: int, max_key: int, dtype) -> Tail:
    keys = _grid_sum(t.keys[start:], stops[start:])
    scat = _grid_sum(t.scatters[start:], stops[start:])
    return Tail(start, keys.astype(dtype), _grid_sum(t.fish[start:], stops[start:]).astype(dtype),
                (scat * (max_key + 1) + keys).astype(dtype))


def _dtype(t: WindowTables):
    """int32 when KEY count x FISH numerator of any window fits, else int64 (exactness first)."""
    max_key = sum(int(k.max(initial=0)) for k in t.keys)
    max_fish = sum(int(f.max(initial=0)) for f in t.fish)
    return np.int32 if max(max_key * max_fish, max_fish) < 2 ** 31 - 1 else np.int64


def evaluate_block(t: WindowTables, stops: Sequence[np.ndarray], max_fs: int, max_key: int,
                   tail: Tail | None = None) -> Totals:
    """Exact totals over the combinations ``stops[0] x stops[1] x ... x stops[R-1]``.

    Parameters
    ----------
    t : WindowTables
    stops : sequence of int64 arrays, one per reel
        Stop positions of each reel taken by this block.
    max_fs, max_key : int
        Histogram sizes (largest possible FS and KEY counts).
    tail : Tail, optional
        Precomputed values of the trailing reels ``stops[tail.start:]``
        (must be the same stops); default: computed here.

    Returns
    -------
    Totals
        Ways pays per symbol and OAK, collect numerator, (FS, KEY) histogram.
        Source: rules page sections 6, 8, 10.
    """
    sizes = [len(s) for s in stops]
    reels = len(sizes)
    n = math.prod(sizes)
    # completions[r] = combinations of the reels after r
    completions = [math.prod(sizes[r + 1:]) for r in range(reels)]
    ways = []
    for k in range(len(t.pay_names)):
        row = [0] * reels
        alive = np.ones(1, dtype=np.int64)  # ways through the reels so far, one entry per live combination
        for r in range(reels):
            c = t.counts[r][stops[r], k]
            alive = (alive[:, None] * c[None, :]).ravel()
            alive = alive[alive != 0]  # the combination ended on reel r: no further OAK
            if alive.size == 0:
                break
            pay = int(t.pays[k, r])
            if pay == 0:
                continue
            if r + 1 < reels:
                ends = t.counts[r + 1][stops[r + 1], k] == 0  # reel r+1 shows neither the symbol nor WILD
                row[r] += pay * _every((alive[:, None] * ends[None, :]).ravel(), completions[r + 1])
            else:
                row[r] += pay * int(alive.sum(dtype=np.int64))
        ways.append(tuple(row))
    if tail is None:
        tail = _tail(t, stops, reels, max_key, _dtype(t))
    head = stops[:tail.start]
    hk = _grid_sum(t.keys[:tail.start], head)
    hf = _grid_sum(t.fish[:tail.start], head)
    hc = _grid_sum(t.scatters[:tail.start], head) * (max_key + 1) + hk
    dt = tail.keys.dtype
    # one entry per combination: (head combination) x (tail combination), row-major
    keys = hk.astype(dt)[:, None] + tail.keys[None, :]
    fish = hf.astype(dt)[:, None] + tail.fish[None, :]
    collect = int((keys * fish).sum(dtype=np.int64))
    code = hc.astype(dt)[:, None] + tail.code[None, :]
    hist = np.bincount(code.ravel(), minlength=(max_fs + 1) * (max_key + 1))
    joint = tuple(tuple(int(x) for x in hist[i * (max_key + 1):(i + 1) * (max_key + 1)]) for i in range(max_fs + 1))
    return Totals(n, tuple(ways), collect, joint)


def task_totals(t: WindowTables, s0: int, plan: BlockPlan | None = None) -> Totals:
    """Exact totals over every combination whose reel-1 stop is ``s0``."""
    plan = plan or block_plan(t.lengths)
    max_fs, max_key = _max_counts(t)
    acc = Totals.zero(len(t.pay_names), t.reels, max_fs, max_key)
    tail = None
    for stops in _blocks(t, plan, s0):
        if tail is None:  # the dense reels after the split reel are the same in every block
            tail = _tail(t, stops, plan.split + 1, max_key, _dtype(t))
        acc = acc + evaluate_block(t, stops, max_fs, max_key, tail)
    return acc


# --------------------------------------------------------------------------
# result
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Enumeration:
    """Exact figures of one phase from the enumeration of its stop combinations.

    All figures are per spin of the phase, including the level multiplier.

    Attributes
    ----------
    phase : Phase
    totals : Totals
        Integer totals (ways pays before the multiplier).
    pay_names : tuple of str
    denominator : int
        Common denominator of the fish means.
    multiplier : int
    complete : bool
        True when every combination was evaluated (not a slice).
    seconds : float
        Wall time of the run (run-dependent, for display only).
    """

    phase: Phase
    totals: Totals
    pay_names: tuple[str, ...]
    denominator: int
    multiplier: int
    complete: bool
    seconds: float = 0.0
    scatter_pays: tuple[int, ...] = ()

    @property
    def combinations(self) -> int:
        """Number of stop combinations summed."""
        return self.totals.combinations

    def ways_by_symbol(self) -> dict[str, tuple[Fraction, ...]]:
        """Symbol -> E[multiplier x ways pay with OAK n] at index n-1, credits per spin."""
        n = self.combinations
        return {s: tuple(Fraction(self.multiplier * v, n) for v in row)
                for s, row in zip(self.pay_names, self.totals.ways)}

    @property
    def ways_mean(self) -> Fraction:
        """E[multiplier x ways pays], credits per spin."""
        return Fraction(self.multiplier * sum(map(sum, self.totals.ways)), self.combinations)

    @property
    def collect_mean(self) -> Fraction:
        """E[multiplier x collect win], credits per spin (fish values at their exact means)."""
        return Fraction(self.multiplier * self.totals.collect, self.denominator * self.combinations)

    @property
    def scatter_mean(self) -> Fraction:
        """E[multiplier x scatter pay], credits per spin: each combination's pay for its FS count
        (combinations grouped by FS count); 0 in the rules-page game."""
        total = sum(sum(row) * pay for row, pay in zip(self.totals.joint, self.scatter_pays))
        return Fraction(self.multiplier * total, self.combinations)

    @property
    def mean(self) -> Fraction:
        """E[spin win], credits per spin."""
        return self.ways_mean + self.collect_mean + self.scatter_mean

    @property
    def scatter_prob(self) -> tuple[Fraction, ...]:
        """P(FS count = n), n = 0 .. max."""
        return tuple(Fraction(sum(row), self.combinations) for row in self.totals.joint)

    @property
    def key_prob(self) -> tuple[Fraction, ...]:
        """P(KEY count = n), n = 0 .. max."""
        cols = zip(*self.totals.joint)
        return tuple(Fraction(sum(c), self.combinations) for c in cols)


@dataclass(frozen=True)
class Comparison:
    """One figure computed two ways: ``enumerated`` and ``engine``, exact Fractions."""

    figure: str
    enumerated: Fraction
    engine: Fraction

    @property
    def equal(self) -> bool:
        """Exact equality of the two Fractions."""
        return self.enumerated == self.engine


def _padded(xs: Sequence[Fraction], n: int) -> list[Fraction]:
    return list(xs) + [Fraction(0)] * (n - len(xs))


def compare(e: Enumeration, analysis) -> list[Comparison]:
    """Each enumerated figure beside the factorised engine's (a PhaseAnalysis), exact.

    Figures: ways pays per symbol and OAK, ways mean, collect mean, mean spin
    win, P(FS = n) and P(KEY = n) for every n.
    """
    out = []
    for sym, row in e.ways_by_symbol().items():
        eng = analysis.ways_by_symbol[sym]
        for i, v in enumerate(row):
            out.append(Comparison(f"ways {sym} {i + 1} OAK", v, eng[i]))
    out.append(Comparison("ways pays", e.ways_mean, analysis.ways_mean))
    out.append(Comparison("collect", e.collect_mean, analysis.collect_mean))
    out.append(Comparison("spin win", e.mean, analysis.mean))
    for name, mine, theirs in (("FS", e.scatter_prob, analysis.by_scatter.prob),
                               ("KEY", e.key_prob, analysis.by_key.prob)):
        n = max(len(mine), len(theirs))
        for i, (a, b) in enumerate(zip(_padded(mine, n), _padded(theirs, n))):
            out.append(Comparison(f"P({name} = {i})", a, b))
    return out


# --------------------------------------------------------------------------
# checkpointed, parallel run
# --------------------------------------------------------------------------
def set_hash(ms: MathSet, phase: Phase) -> str:
    """Content hash of what the enumeration of ``phase`` depends on: hex sha256.

    Covers the raw bytes of every source file of the set (game file and strip
    files), the phase and :data:`ENUMERATOR_VERSION`, so a checkpoint of a
    changed set is never reused.
    """
    h = hashlib.sha256()
    h.update(f"enumerate v{ENUMERATOR_VERSION} phase={phase.name} strips={phase.strips} "
             f"weights={phase.weights} x{phase.multiplier}\n".encode())
    for name in sorted(ms.sources):
        data = ms.sources[name]
        h.update(f"{name} {len(data)}\n".encode())
        h.update(data)
    # the parsed strips too: a set built in memory has no sources
    strips = ms.phase_strips(phase)
    h.update(json.dumps([list(r) for r in strips.reels]).encode())
    return h.hexdigest()


def default_checkpoint_dir() -> Path:
    """``$XDG_CACHE_HOME/slot-exact/enumerate`` (default ``~/.cache/slot-exact/enumerate``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "slot-exact" / "enumerate"


def _read_checkpoint(path: Path, key: str) -> dict[int, Totals]:
    done: dict[int, Totals] = {}
    if not path.is_file():
        return done
    with path.open("r", encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut by an interruption
            if rec.get("key") != key or "task" not in rec:
                continue
            done[int(rec["task"])] = Totals.from_json(rec["totals"])
    return done


_WORKER: dict = {}


def _init_worker(tables: WindowTables, plan: BlockPlan) -> None:
    _WORKER["t"], _WORKER["plan"] = tables, plan


def _run_task(s0: int) -> tuple[int, Totals]:
    return s0, task_totals(_WORKER["t"], s0, _WORKER["plan"])


def enumerate_phase(ms: MathSet, phase: Phase | None = None, *, first_stops: Iterable[int] | None = None,
                    workers: int | None = None, checkpoint_dir: str | Path | None = None,
                    progress: bool = False, chunk: int = CHUNK) -> Enumeration:
    """Enumerate every stop combination of ``phase`` (default: the base game).

    Parameters
    ----------
    ms : MathSet
    phase : Phase, optional
        Default ``ms.model.base_phase``.
    first_stops : iterable of int, optional
        Only these reel-1 stops (a slice, for benchmarks); default all.
    workers : int, optional
        Processes; default ``os.cpu_count()``.  1 runs in this process.
    checkpoint_dir : str or Path, optional
        Directory of the checkpoint file ``<set hash>.jsonl``; each finished
        reel-1 stop is appended, and a rerun skips the stops it holds.  None:
        no checkpoint.  Never place it next to input files.
    progress : bool
        Show a tqdm progress bar with ETA on stderr.
    chunk : int
        Combinations per numpy block (memory bound).

    Returns
    -------
    Enumeration
        Exact totals; ``complete`` is False for a slice.

    Raises
    ------
    ValueError
        If a reel-1 stop is out of range, or amounts could overflow int64.
    """
    phase = phase or ms.model.base_phase
    t = window_tables(ms, phase)
    _check_bounds(t)
    plan = block_plan(t.lengths, chunk)
    all_stops = list(range(t.lengths[0]))
    wanted = all_stops if first_stops is None else sorted(set(first_stops))
    for s in wanted:
        if not 0 <= s < t.lengths[0]:
            raise ValueError(f"reel-1 stop {s} outside 0..{t.lengths[0] - 1}")
    key = set_hash(ms, phase)
    ckpt = None
    done: dict[int, Totals] = {}
    if checkpoint_dir is not None:
        ckpt = Path(checkpoint_dir) / f"{key}.jsonl"
        done = {s: v for s, v in _read_checkpoint(ckpt, key).items() if s in wanted}
        ckpt.parent.mkdir(parents=True, exist_ok=True)
    per_task = t.combinations // t.lengths[0]
    pending = [s for s in wanted if s not in done]
    max_fs, max_key = _max_counts(t)
    acc = Totals.zero(len(t.pay_names), t.reels, max_fs, max_key)
    for v in done.values():
        acc = acc + v
    workers = max(1, min(workers or os.cpu_count() or 1, len(pending) or 1))
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=per_task * len(wanted), initial=per_task * len(done), unit="combo", unit_scale=True,
                   file=sys.stderr, desc=f"enumerate {phase.name}", smoothing=0.1)
    start = time.perf_counter()
    out = ckpt.open("a", encoding="utf-8") if ckpt is not None else None
    try:
        if workers == 1:
            results = ((s, task_totals(t, s, plan)) for s in pending)
            pool = None
        else:
            import multiprocessing as mp
            ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
            pool = ctx.Pool(workers, initializer=_init_worker, initargs=(t, plan))
            results = pool.imap_unordered(_run_task, pending)
        try:
            for s0, tot in results:
                acc = acc + tot
                if out is not None:
                    out.write(json.dumps({"key": key, "task": s0, "totals": tot.to_json()}) + "\n")
                    out.flush()
                if bar is not None:
                    bar.update(per_task)
        finally:
            if pool is not None:
                pool.terminate()
                pool.join()
    finally:
        if out is not None:
            out.close()
        if bar is not None:
            bar.close()
    return Enumeration(phase=phase, totals=acc, pay_names=t.pay_names, denominator=t.denominator,
                       multiplier=t.multiplier, complete=len(wanted) == len(all_stops),
                       seconds=time.perf_counter() - start, scatter_pays=t.scatter_pays)
