"""The exact first drop of a grid game: the distribution of its first evaluation's win and P(no win).

The first evaluation of a round sees the initial drop: every cell drawn
independently from the phase's weight table (no WILD is drawn), the key, in the
base game, on the path's entry.  Its win is the sum over the rows and columns of
``pays[n-1]`` of each maximal run of ``n >= 3`` cells of one symbol (the key breaks
runs).  Three exact computations, all integer counts over ``T^cells`` (``T`` the
table's total weight), returned as Fractions:

* :func:`no_win_probability` — a transfer-matrix DP over the rows on a numpy
  tensor with one (symbol, run length 1 or 2) axis pair per column: the run
  length each column has so far of its last symbol, i.e. what it still needs for
  a vertical run; a row's own runs are evaluated within the row (its factor is
  zero where it holds a run of 3).  ``(S+1)^C 2^C`` integers (5x5, 7 symbols:
  about a million), modulo primes below 2^31 and recovered exactly by the
  Chinese remainder theorem.
* :func:`first_drop_mean` — linearity: the sum over lines, symbols, starts and
  lengths of ``pays[n-1]`` times the probability of that maximal run.
* :func:`first_drop_distribution` — the whole distribution by the same DP over
  the rows, cell by cell (a broken profile): the state is, per column, the
  symbol and length of its current vertical run (dropped once no run through it
  can reach 3), and the current row's run; each run pays when it ends.  Cost
  grows with the states (about ``(S L)^C``): small grids in well under a second.

Every figure is checked against the literal reading (:func:`exact.rules.grid.find_wins`)
on every board of small grids (``tests/test_grid_drop.py``).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exact.rules import GridConfig
from strips.decimals import exact_text

__all__ = ["FirstDrop", "first_drop", "no_win_probability", "first_drop_mean", "first_drop_distribution",
           "cell_weights"]

_KEY = -1


def cell_weights(cfg: GridConfig, table: str, key: bool) -> tuple[list[dict[int, int]], int]:
    """Per cell (row-major), the values it draws {symbol index (or -1 for the key): weight}, and the
    table's total weight ``T`` (the key's cell: {-1: T}, so every cell's weights sum to ``T``)."""
    w = dict(cfg.table(table))
    sw = {i: w[s] for i, s in enumerate(cfg.pay_symbols) if w[s]}
    total = sum(sw.values())
    cells = [dict(sw) for _ in range(cfg.cells)]
    if key:
        cells[cfg.path[0]] = {_KEY: total}
    return cells, total


def _pay_of(cfg: GridConfig):
    pays = [p for _, p in cfg.pays]
    return lambda s, n: pays[s][n - 1] if n >= 3 and s >= 0 else 0


def first_drop_distribution(cfg: GridConfig, table: str = "base", key: bool | None = None) -> dict[int, Fraction]:
    """The exact distribution {win in coins: probability} of the initial drop's first evaluation.

    ``key`` (default: the game has a key and ``table`` is ``base``) puts the key on the path's entry.

    >>> from exact.rules import grid_config_of
    >>> cfg = grid_config_of(1, 3, {"A": (0, 0, 5), "B": (0, 0, 2)})
    >>> first_drop_distribution(cfg)
    {0: Fraction(3, 4), 2: Fraction(1, 8), 5: Fraction(1, 8)}
    """
    key = _with_key(cfg, table, key)
    cells, total = cell_weights(cfg, table, key)
    pay = _pay_of(cfg)
    R, C = cfg.rows, cfg.columns
    # state: (column runs..., row run) each None or (symbol, length); value: {win: count}
    states: dict[tuple, dict[int, int]] = {(None,) * C + (None,): {0: 1}}
    for i in range(R):
        for j in range(C):
            last_row, last_col = i == R - 1, j == C - 1
            nxt: dict[tuple, dict[int, int]] = {}
            for st, dist in states.items():
                for x, wx in cells[i * C + j].items():
                    add = 0
                    col, row = st[j], st[C]
                    if col is not None and col[0] == x:
                        col = (x, col[1] + 1)
                    else:
                        add += pay(*col) if col else 0
                        col = (x, 1) if x != _KEY else None
                    if row is not None and row[0] == x:
                        row = (x, row[1] + 1)
                    else:
                        add += pay(*row) if row else 0
                        row = (x, 1) if x != _KEY else None
                    if col and col[1] < 3 and col[1] + (R - 1 - i) < 3:
                        col = None               # no vertical run through it can reach 3
                    if last_row and col:
                        add += pay(*col)
                        col = None
                    if row and (last_col or (row[1] < 3 and row[1] + (C - 1 - j) < 3)):
                        add += pay(*row) if last_col else 0
                        row = None
                    key_ = st[:j] + (col,) + st[j + 1:C] + (row,)
                    into = nxt.setdefault(key_, {})
                    for win, c in dist.items():
                        into[win + add] = into.get(win + add, 0) + c * wx
            states = nxt
    out: dict[int, int] = {}
    for dist in states.values():
        for win, c in dist.items():
            out[win] = out.get(win, 0) + c
    denom = total ** cfg.cells
    return {w: Fraction(c, denom) for w, c in sorted(out.items())}


def _with_key(cfg: GridConfig, table: str, key: bool | None) -> bool:
    return (cfg.key is not None and table == "base") if key is None else key


def _row_factor(cfg: GridConfig, cells: list[dict[int, int]], i: int, syms: int) -> np.ndarray:
    """Weight of each row pattern of row ``i`` (axes: one symbol index per column, ``syms`` = S+1 with the
    key last) that holds no run of 3 in the row; object dtype (exact ints)."""
    C = cfg.columns
    f = np.zeros((syms,) * C, dtype=object)
    for pattern in itertools.product(*[[(x, w) for x, w in cells[i * C + j].items()] for j in range(C)]):
        xs = [x for x, _ in pattern]
        if any(xs[k] == xs[k + 1] == xs[k + 2] != _KEY for k in range(C - 2)):
            continue
        weight = 1
        for _, w in pattern:
            weight *= w
        f[tuple(x if x != _KEY else syms - 1 for x in xs)] = weight
    return f


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 3,215,031,751 (bases 2, 3, 5, 7)."""
    if n < 2 or n % 2 == 0:
        return n == 2
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in (2, 3, 5, 7):
        if a % n == 0:
            continue
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _primes(bits: int) -> list[int]:
    """Primes just below 2^31 whose product exceeds 2^bits (residues multiply within int64)."""
    out, n, prod = [], (1 << 31) - 1, 1
    while prod.bit_length() <= bits + 1:
        if _is_prime(n):
            out.append(n)
            prod *= n
        n -= 2
    return out


def _no_win_count(cfg: GridConfig, factors: list, mod: int) -> int:
    """The integer weight of the drops without a win, modulo the prime ``mod`` (int64 residues);
    ``factors`` the rows' exact factors (:func:`_row_factor`)."""
    S = len(cfg.pay_symbols) + 1
    C = cfg.columns
    v = None
    for i in range(cfg.rows):
        f = (factors[i] % mod).astype(np.int64)
        f = f.reshape(tuple(d for _ in range(C) for d in (S, 1)))
        if v is None:
            v = np.zeros(tuple(d for _ in range(C) for d in (S, 2)), dtype=np.int64)
            v[(slice(None), 0) * C] = f.reshape((S,) * C)
            continue
        for j in range(C):       # the column kernel: (s, l) -> (x, 1) for x != s, (s, 1) -> (s, 2)
            ax = 2 * j
            run = v.take(0, axis=ax + 1)                                   # (s, 1) -> (s, 2)
            tot = v.sum(axis=(ax, ax + 1), keepdims=True) % mod           # every old state
            same = v.sum(axis=ax + 1, keepdims=True) % mod                # old states of symbol x
            new = np.zeros_like(v)
            idx0 = [slice(None)] * v.ndim
            idx0[ax + 1] = 0
            new[tuple(idx0)] = ((tot - same) % mod).take(0, axis=ax + 1)
            idx1 = list(idx0)
            idx1[ax + 1] = 1
            new[tuple(idx1)] = run
            key_ix = [slice(None)] * v.ndim            # the key matches nothing: never a length 2
            key_ix[ax], key_ix[ax + 1] = S - 1, 0
            new[tuple(key_ix)] = tot.take(0, axis=ax).take(0, axis=ax)
            key_ix[ax + 1] = 1
            new[tuple(key_ix)] = 0
            v = new
        v = (v * f) % mod
    return int(v.sum() % mod)


def no_win_probability(cfg: GridConfig, table: str = "base", key: bool | None = None) -> Fraction:
    """P(the initial drop has no win), exactly, by the transfer-matrix DP over the rows.

    The tensor has, per column, a symbol axis (the pay symbols, then the key) and a length axis (1 or 2:
    the column's last symbols; a third equal one would be a win and is dropped).  The count (at most
    ``T^cells``) is computed modulo primes just below 2^31 (int64 residues) and recovered exactly by the
    Chinese remainder theorem.

    >>> from exact.rules import grid_config_of
    >>> no_win_probability(grid_config_of(3, 1, {"A": (0, 0, 5), "B": (0, 0, 2)}))
    Fraction(3, 4)
    """
    key = _with_key(cfg, table, key)
    cells, total = cell_weights(cfg, table, key)
    denom = total ** cfg.cells
    count, modulus = 0, 1
    S = len(cfg.pay_symbols) + 1
    factors = [_row_factor(cfg, cells, i, S) for i in range(cfg.rows)]
    for p in _primes(denom.bit_length()):
        r = _no_win_count(cfg, factors, p)
        # CRT: count = r mod p and count (so far) mod modulus
        t = ((r - count) * pow(modulus, -1, p)) % p
        count += modulus * t
        modulus *= p
    return Fraction(count, denom)


def first_drop_mean(cfg: GridConfig, table: str = "base", key: bool | None = None) -> Fraction:
    """E[first evaluation's win] of the initial drop in coins, exactly, by linearity over maximal runs.

    >>> from exact.rules import grid_config_of
    >>> first_drop_mean(grid_config_of(1, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}))
    Fraction(7, 8)
    """
    key = _with_key(cfg, table, key)
    cells, total = cell_weights(cfg, table, key)
    pay = _pay_of(cfg)
    mean = Fraction(0)
    for line in cfg.lines:
        L = len(line)
        for s in range(len(cfg.pay_symbols)):
            p = [Fraction(cells[c].get(s, 0), total) for c in line]
            for a in range(L):
                for n in range(3, L - a + 1):
                    pr = Fraction(1)
                    for k in range(a, a + n):
                        pr *= p[k]
                    if a > 0:
                        pr *= 1 - p[a - 1]
                    if a + n < L:
                        pr *= 1 - p[a + n]
                    mean += pr * pay(s, n)
    return mean


@dataclass(frozen=True)
class FirstDrop:
    """The exact first drop of a phase: ``no_win`` = P(no win), ``mean`` in coins, and the
    ``distribution`` ((win in coins, probability), ...) or None where it was not computed."""

    table: str
    key: bool
    no_win: Fraction
    mean: Fraction
    distribution: tuple[tuple[int, Fraction], ...] | None

    def figures(self) -> dict:
        """JSON: ``no_win`` and ``mean`` as "p/q" strings, ``distribution`` [[win, "p/q"], ...]."""
        out = {"no_win": exact_text(self.no_win, ratio=True),
               "mean": exact_text(self.mean, ratio=True)}
        if self.distribution is not None:
            out["distribution"] = [[w, exact_text(p, ratio=True)] for w, p in self.distribution]
        return out


def first_drop(cfg: GridConfig, table: str = "base", key: bool | None = None, distribution: bool = True) -> FirstDrop:
    """The exact first drop of ``table``: P(no win), the mean and (``distribution``) the distribution.

    >>> from exact.rules import grid_config_of
    >>> d = first_drop(grid_config_of(2, 3, {"A": (0, 0, 5), "B": (0, 0, 2)}))
    >>> d.no_win, d.mean, sum(p for _, p in d.distribution)
    (Fraction(9, 16), Fraction(7, 4), Fraction(1, 1))
    """
    key = _with_key(cfg, table, key)
    dist = tuple(first_drop_distribution(cfg, table, key).items()) if distribution else None
    return FirstDrop(table, key, no_win_probability(cfg, table, key), first_drop_mean(cfg, table, key), dist)
