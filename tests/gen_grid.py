"""Grid games (``[grid]``) for the tests: game files written into a directory, and small random configs.

Not a test module: the grid tests import it (no test module imports another).
"""
from __future__ import annotations

import hashlib
import math
import random
from pathlib import Path

import numpy as np

from exact.rules import IntegerChooser
from exact.rules.grid import GridConfig, grid_config_of, spiral


def path_text(rows: int, columns: int, path=None) -> str:
    """``[[r, c], ...]`` of a path (default: the spiral from the bottom-left cell), 1-based."""
    cells = spiral(rows, columns) if path is None else path
    return "[" + ", ".join(f"[{c // columns + 1}, {c % columns + 1}]" for c in cells) + "]"


def grid_toml(rows: int = 3, columns: int = 3, pays: dict | None = None, base: dict | None = None,
              key: bool = True, free: dict | None = None, spins: int = 2, bet: int = 10, extra: str = "") -> str:
    """The text of a grid game's ``game.toml``: the spiral path, pay symbols A, B, C (or ``pays``), a WILD
    ``W``, the key ``K`` with ``spins`` free spins on table ``free``."""
    span = max(rows, columns)
    pays = pays or {"A": [0, 0] + [20 + 10 * i for i in range(span - 2)],
                    "B": [0, 0] + [10 + 5 * i for i in range(span - 2)],
                    "C": [0, 0] + [5 + 2 * i for i in range(span - 2)]}
    base = base or {s: i + 1 for i, s in enumerate(reversed(list(pays)))}
    free = free or {s: 1 for s in pays}
    out = [f'[game]\nname = "grid{rows}x{columns}"\nbet = {bet}\n',
           f"[grid]\nrows = {rows}\ncolumns = {columns}\npath = {path_text(rows, columns)}\n"
           f'wild_only = "if_no_other_win"\nwild_explodes = "orthogonal"\n']
    for s, p in pays.items():
        out.append(f'[symbols.{s}]\nclass = "pay"\npays = {list(p)}\n')
    out.append('[symbols.W]\nclass = "wild"\n')
    if key:
        out.append(f'[key]\nsymbol = "K"\nstart = "entry"\n\n[free_spins]\nspins = {spins}\nweights = "free"\n')
    table = lambda w: "{ " + ", ".join(f"{s} = {v}" for s, v in w.items()) + " }"   # noqa: E731
    out.append(f"[cells]\nweights.base = {table(base)}\n" + (f"weights.free = {table(free)}\n" if key else ""))
    return "\n".join(out) + extra


def write_grid(directory: Path, **kw) -> Path:
    """Write a grid math set into ``directory`` (created) and return it."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "game.toml").write_text(grid_toml(**kw), encoding="utf-8")
    return directory


def random_config(rng: random.Random, rows: int, columns: int, symbols: int = 3, key: bool = False,
                  wild: bool = True) -> GridConfig:
    """A random small grid config: ``symbols`` pay symbols with random pays and weights 1..5, the spiral."""
    span = max(rows, columns)
    names = "ABCDEFG"[:symbols]
    pays = {s: tuple([0, 0] + [rng.randint(0, 9) for _ in range(span - 2)]) for s in names}
    weights = {s: rng.randint(1, 5) for s in names}
    return grid_config_of(rows, columns, pays, wild="W" if wild else None, weights=weights,
                          key="K" if key else None, free_spins=2 if key else 0)


def tape(stream, i: int) -> int:
    """The ``i``-th integer of a stream of draws (deterministic, spread over 0 .. 2^64-1)."""
    return int.from_bytes(hashlib.blake2b(repr((stream, i)).encode(), digest_size=8).digest(), "little")


class TapeDraws:
    """The draws of :mod:`exact.grid_rounds` read from :func:`tape`: each batch row has a stream id
    (``streams``), and the ``i``-th draw of a stream is ``tape(stream, i) % bound``, as
    :func:`tape_chooser` gives them to the literal reading."""

    def __init__(self, t, streams, counts=None):
        self.t, self.streams, self.count = t, list(streams), {} if counts is None else counts

    def _next(self, stream, bound: int) -> int:
        i = self.count.get(stream, 0)
        self.count[stream] = i + 1
        return tape(stream, i) % bound

    def ints(self, rows, bound):
        b = np.broadcast_to(np.asarray(bound, dtype=np.int64), np.shape(rows))
        return np.array([self._next(self.streams[r], int(x)) for r, x in zip(rows, b)], dtype=np.int64)

    def cells(self, rows, table, counts):
        cum = self.t.cumulative(table)
        k = int(max(counts)) if len(counts) else 0
        out = np.zeros((len(rows), k), dtype=np.int8)
        for i, (r, c) in enumerate(zip(rows, counts)):
            for j in range(int(c)):
                out[i, j] = int(np.searchsorted(cum, self._next(self.streams[r], int(cum[-1])), side="right"))
        return out

    def spawn(self, rows, game, spins):
        return TapeDraws(self.t, [(self.streams[r], game, s) for r in rows for s in range(spins)], self.count)


def tape_chooser(cfg, stream):
    """The literal reading's chooser of one stream of :class:`TapeDraws` (its own count)."""
    state = {"i": 0}

    def next_int(bound: int) -> int:
        i = state["i"]
        state["i"] = i + 1
        return tape(stream, i) % bound
    return IntegerChooser(cfg, next_int)


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p): how likely k or more misses of an interval of miss rate p are."""
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))
