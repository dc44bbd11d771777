"""Value algebras of the win distribution: the feature chain is linear in the distribution of the win
so far, so one runner (:func:`markov.protocol.run`) computes, in each algebra, the exact distribution
(Fractions), its largest win, its mass, its real FFT on a grid with a proven error bound, or that
bound alone.

Error bounds: Higham, *Accuracy and Stability of Numerical Algorithms* (2002), Thm 24.2 (the FFT).
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

U = 2.0 ** -53            # unit roundoff of float64
ETA = 10 * U             # error of one FFT pass (Higham 2002, Thm 24.2: mu + gamma_4 (sqrt 2 + mu), mu <= u)


def dyadic(theta: float, bits: int = 20) -> float:
    """``theta`` rounded to ``bits`` significant bits, so that ``theta * i`` is exact in float64 for
    every grid index i < 2^(53 - bits) (2^33 here; grids stop at :data:`MAX_GRID` = 2^23).

    A tilt e^(theta i) then carries only the rounding of ``exp`` itself (<= 1 ulp): the argument's
    own rounding would add a relative error of about theta i x 2^-53, up to 600 x 2^-53, which the
    bound does not allow for (a tilted pass claimed 1.88e-14 where the error was 1.92e-14).

    >>> t = dyadic(0.1234567890123)
    >>> t * 12345 == float(__import__("fractions").Fraction(t) * 12345)
    True
    """
    if theta == 0:
        return 0.0
    m, e = math.frexp(theta)
    return math.ldexp(round(math.ldexp(m, bits)), e - bits)


# -- value algebras: the chain is linear in the distribution of the win so far ----------
class ExactAlgebra:
    """Sub-distributions as {win: Fraction}; convolution and sum exact."""

    name = "exact"

    def kernel(self, table: dict[int, Fraction]):
        return dict(table)

    def one(self):
        return {0: Fraction(1)}

    def mul(self, a, k):
        out: dict[int, Fraction] = defaultdict(Fraction)
        for x, p in a.items():
            for y, q in k.items():
                out[x + y] += p * q
        return dict(out)

    def add(self, a, b):
        out = dict(a)
        for x, p in b.items():
            out[x] = out.get(x, 0) + p
        return out

    def mass(self, a) -> float:
        return float(sum(a.values(), Fraction(0)))

    def mul_add(self, acc, a, k):
        u = self.mul(a, k)
        return u if acc is None else self.add(acc, u)

    def scale(self, a, c: Fraction):
        return {x: p * c for x, p in a.items()}


class MaxAlgebra:
    """(largest win, its exact probability) of a sub-distribution: max-plus with probabilities."""

    name = "max"

    def kernel(self, table):
        m = max(table)
        return (m, table[m])

    def one(self):
        return (0, Fraction(1))

    def mul(self, a, k):
        return (a[0] + k[0], a[1] * k[1])

    def add(self, a, b):
        if a[0] == b[0]:
            return (a[0], a[1] + b[1])
        return a if a[0] > b[0] else b

    def mass(self, a) -> float:
        return 1.0   # the largest win is unaffected by how much mass is left: never a reason to stop

    mul_add = ExactAlgebra.mul_add


class MassAlgebra:
    """Only the mass (float): finds how many free spins an endless retrigger needs before the cut-off."""

    name = "mass"

    def kernel(self, table):
        return float(sum(table.values(), Fraction(0)))

    def one(self):
        return 1.0

    def mul(self, a, k):
        return a * k

    def add(self, a, b):
        return a + b

    def mass(self, a) -> float:
        return a

    mul_add = ExactAlgebra.mul_add


@dataclass
class Spectrum:
    """A sub-distribution on the grid 0, g, 2g, ... as its real FFT, with its mass and an error bound.

    ``err`` bounds the root-mean-square (over the n frequencies) of the error of ``spec``; by
    Parseval it bounds the 2-norm, hence every entry, of the error of the probabilities.
    """

    spec: np.ndarray
    mass: float
    err: float


class SpectralAlgebra:
    """Sub-distributions as real FFTs of length ``n`` on the grid of step ``step`` credits (float64).

    With ``theta`` > 0 every kernel is tilted, entry i times e^(theta i): the chain is linear and
    e^(theta (i + j)) = e^(theta i) e^(theta j), so the result is the round's distribution times
    e^(theta i), whose tail entries are large enough for the FFT's absolute error to leave them
    many certain digits (exponential tilting, as in the Chernoff bound).

    Error bound (module docstring): every kernel carries ``(log2 n) eta + 4 u`` times its mass,
    every product ``a k`` adds ``err(a) mass(k) + mass(a) err(k) + 3 u mass(a) mass(k)`` (|k| <=
    mass(k), |a| <= mass(a) at every frequency: the entries are non-negative), every sum
    ``u (mass(a) + mass(b))``.
    """

    name = "spectral"

    def __init__(self, n: int, step: int, theta: float = 0.0):
        if theta != dyadic(theta):
            raise ValueError("a tilt must be dyadic (exact products theta x i): use dyadic(theta)")
        self.n = n
        self.step = step
        self.theta = theta
        self.fft_err = np.log2(n) * ETA + 4 * U

    def kernel(self, table):
        dense = np.zeros(self.n, dtype=np.float64)
        idx = np.array([w // self.step for w in table], dtype=np.int64)
        vals = np.array([float(p) for p in table.values()], dtype=np.float64)
        if self.theta:
            vals = vals * np.exp(self.theta * idx.astype(np.float64))
        np.add.at(dense, idx, vals)
        mass = math.fsum(vals) * (1 + 8 * U)
        return Spectrum(np.fft.rfft(dense), mass, self.fft_err * mass)

    def one(self):
        return Spectrum(np.ones(self.n // 2 + 1, dtype=np.complex128), 1.0, 0.0)

    def mul(self, a, k):
        return Spectrum(a.spec * k.spec, a.mass * k.mass,
                        a.err * k.mass + a.mass * k.err + 3 * U * a.mass * k.mass)

    def add(self, a, b):
        return Spectrum(a.spec + b.spec, a.mass + b.mass, a.err + b.err + U * (a.mass + b.mass))

    def scale(self, a, c: Fraction):
        """c a for an exact c > 0: c rounded to a float (u), the product rounded (u); plus the
        underflow of the products that made ``a`` (< 2^-1074 per entry each, a c <= 1e250 keeps it
        below 1e-60 in all)."""
        m = a.mass * float(c) * (1 + 2 * U)
        return Spectrum(a.spec * float(c), m, a.err * float(c) * (1 + 2 * U) + 2 * U * m + 1e-60)

    def mass(self, a) -> float:
        return a.mass

    def mul_add(self, acc, a, k):
        """acc + a k, in place in ``acc`` (a new Spectrum when acc is None)."""
        if acc is None:
            return self.mul(a, k)
        buf = self._buf if getattr(self, "_buf", None) is not None and self._buf.shape == a.spec.shape \
            else np.empty_like(a.spec)
        self._buf = buf
        np.multiply(a.spec, k.spec, out=buf)
        np.add(acc.spec, buf, out=acc.spec)
        m = a.mass * k.mass
        acc.err += a.err * k.mass + a.mass * k.err + 3 * U * m + U * (acc.mass + m)
        acc.mass += m
        return acc

    def probabilities(self, a) -> "GridPass":
        """The probabilities on the grid (tilt undone) and their weighted 2-norm error bound."""
        q = np.fft.irfft(a.spec, n=self.n)
        bound = (a.err + (np.log2(self.n) * ETA + 3 * U) * max(a.mass, 1.0)) * (1 + 1e-6)
        if self.theta:
            q = q * np.exp(-self.theta * np.arange(self.n, dtype=np.float64))
        return GridPass(q, float(bound), self.theta)


@dataclass(frozen=True)
class GridPass:
    """One FFT evaluation of a distribution on the grid, with its proven error bound.

    ``p[i]`` approximates P(win = i x step); the error vector e satisfies
    ``|| e_i e^(theta i) ||_2 <= bound`` (theta = 0: the plain 2-norm, so every entry is within
    ``bound`` and a sum of m entries within sqrt(m) x bound).
    """

    p: np.ndarray
    bound: float
    theta: float = 0.0

    def weights(self, a: int, b: int) -> np.ndarray:
        """e^(-theta i) for i in [a, b): the factor of each entry's error bound."""
        i = np.arange(a, b, dtype=np.float64)
        return np.exp(-self.theta * i) if self.theta else np.ones(len(i))

    def entry_bounds(self) -> np.ndarray:
        """Per grid point: ``bound`` e^(-theta i), plus, after a tilt, the rounding of undoing it
        (``p_i`` = q_i x exp(-theta i): <= 3 u |p_i|)."""
        return self.bound * self.weights(0, len(self.p)) + self.untilt_error(0, len(self.p))

    def untilt_error(self, a: int, b: int) -> np.ndarray:
        """3 u |p_i| for i in [a, b) after a tilt (exp <= 1 ulp, the product 1/2 ulp), else 0."""
        return 3 * U * np.abs(self.p[a:b]) if self.theta else np.zeros(b - a)


class BoundAlgebra:
    """The (mass, error bound) bookkeeping of :class:`SpectralAlgebra` without the arrays.

    Predicts, in scalars, the bound a (tilted) spectral pass would prove, so the tilt can be
    chosen by the bound it actually gives.
    """

    name = "bound"

    def __init__(self, n: int, step: int, theta: float, arrays: dict | None = None):
        self.n, self.step, self.theta = n, step, theta
        self.fft_err = np.log2(n) * ETA + 4 * U
        #: id(table) -> (table, grid indices, float probabilities): shared by the passes of one distribution
        self.arrays = {} if arrays is None else arrays

    def kernel(self, table):
        got = self.arrays.get(id(table))
        if got is None or got[0] is not table:
            got = self.arrays[id(table)] = (table, np.array([w // self.step for w in table], dtype=np.float64),
                                            np.array([float(p) for p in table.values()], dtype=np.float64))
        _, idx, probs = got
        vals = probs * np.exp(self.theta * idx)
        mass = math.fsum(vals) * (1 + 8 * U)
        return (mass, self.fft_err * mass)

    def one(self):
        return (1.0, 0.0)

    def mul(self, a, k):
        return (a[0] * k[0], a[1] * k[0] + a[0] * k[1] + 3 * U * a[0] * k[0])

    def add(self, a, b):
        return (a[0] + b[0], a[1] + b[1] + U * (a[0] + b[0]))

    def scale(self, a, c: Fraction):
        m = a[0] * float(c) * (1 + 2 * U)
        return (m, a[1] * float(c) * (1 + 2 * U) + 2 * U * m + 1e-60)

    def mul_add(self, acc, a, k):
        u = self.mul(a, k)
        return u if acc is None else self.add(acc, u)

    def mass(self, a) -> float:
        return a[0]

    def final_bound(self, a) -> float:
        """The bound :meth:`SpectralAlgebra.probabilities` would give."""
        return (a[1] + (np.log2(self.n) * ETA + 3 * U) * max(a[0], 1.0)) * (1 + 1e-6)


def combine(alg, parts):
    acc = None
    for v in parts:
        acc = v if acc is None else alg.add(acc, v)
    return acc
