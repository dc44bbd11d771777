"""The game model: frozen value objects loaded from a math set's ``game.toml``.

Nothing in this module knows the rules page's particular numbers; they are
data (``strips/rules_page/game.toml``).  Every amount is an integer number of
credits and every probability an integer weight, so the engine can stay exact.

Source: rules page sections 3 (reels and window), 4 (symbols), 5 (paytable),
7 (fish values), 10 (free spins trigger) and 11 (free spins levels).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import Mapping

import numpy as np

PAY, WILD, KEY, SCATTER, FISH = "pay", "wild", "key", "scatter", "fish"
SYMBOL_CLASSES = (PAY, WILD, KEY, SCATTER, FISH)
BLOCKER_CLASSES = (KEY, SCATTER, FISH)
#: WILD multiplier modes: one fixed value; one draw per WILD symbol in the window; one draw per reel.
FIXED, PER_WILD, PER_REEL = "fixed", "wild", "reel"
MULTIPLIER_MODES = (PER_WILD, PER_REEL)


@dataclass(frozen=True)
class WildMultiplier:
    """The multiplier of a WILD symbol (game file key ``multiplier`` of a WILD).

    Semantics (ways games, rules page section 6 with one change): a WILD with
    multiplier m counts as m, not 1, in the per-reel count of every pay
    symbol it substitutes for, so

    ways = product over the combination's reels of
    (count of the pay symbol + sum of the multipliers of the substituting WILDs on the reel),

    and the pay is the paytable value x ways.  Since m >= 1 the multiplier
    never changes whether a combination continues, its OAK, or whether it pays.

    Attributes
    ----------
    values : tuple of int
        Possible multipliers, each an integer >= 1; one value when ``mode`` is
        ``fixed``.
    weights : mapping str -> tuple of int
        Weight-table name (``"base"``, ``"level1"``, ... as for FISH values,
        section 7) -> integer weight of each value; empty when fixed.
    mode : str
        ``fixed``: always ``values[0]``.  ``wild``: every WILD of this symbol
        in the window draws its value independently.  ``reel``: one value is
        drawn per reel and shared by every WILD of this symbol on that reel.
        Draws are independent of the stops, of the FISH values and of each
        other.
    """

    values: tuple[int, ...]
    weights: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    mode: str = FIXED

    @property
    def is_random(self) -> bool:
        """True unless the multiplier is one fixed value."""
        return self.mode != FIXED

    def table(self, name: str) -> tuple[tuple[int, int], ...]:
        """(value, integer weight) pairs of the weight table ``name``; ((m, 1),) when fixed.

        Raises
        ------
        KeyError
            If a random multiplier has no weight table named ``name``.
        """
        if not self.is_random:
            return ((self.values[0], 1),)
        return tuple(zip(self.values, self.weights[name]))


@dataclass(frozen=True)
class Symbol:
    """One symbol of the game (rules page section 4).

    Attributes
    ----------
    name : str
        The rules-page name, e.g. ``"PIC1"``, ``"KEY"``.
    kind : str
        One of ``pay``, ``wild``, ``key``, ``scatter``, ``fish``.  KEY,
        scatter and FISH symbols are blockers: never part of a way.
    pays : tuple of int, length = reels
        Credits per way for 1..reels of a kind (pay symbols; zeros otherwise),
        section 5.
    reels : mapping str -> frozenset of int
        Strip set name (``"base"``, ``"bonus"``) -> 0-based reels the symbol
        may occupy.  Pay symbols may be on every reel of every strip set and
        have an empty mapping.
    values : tuple of int
        FISH credit values (section 7); empty for other classes.
    weights : mapping str -> tuple of int
        Weight-table name (``"base"``, ``"level1"``, ...) -> integer weight of
        each value, same length as ``values``.
    aliases : tuple of str
        Other names accepted in strip files (``HOOK`` for ``KEY``).
    substitutes : frozenset of str
        WILD only: the pay symbols it substitutes for; empty means every pay
        symbol (rules page section 6).
    multiplier : WildMultiplier or None
        WILD only: its multiplier in the ways count (see
        :class:`WildMultiplier`); None counts the WILD as 1 (rules page).
    pays (scatter symbols) : tuple of int
        For a scatter, ``pays[n - 1]`` is the scatter pay for n scatter
        symbols anywhere in the window, in credits (empty: pays nothing).
    """

    name: str
    kind: str
    pays: tuple[int, ...] = ()
    reels: Mapping[str, frozenset[int]] = field(default_factory=dict)
    values: tuple[int, ...] = ()
    weights: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    substitutes: frozenset[str] = frozenset()
    multiplier: WildMultiplier | None = None

    @property
    def has_random_multiplier(self) -> bool:
        """True for a WILD whose multiplier is drawn from a weight table."""
        return self.multiplier is not None and self.multiplier.is_random

    @property
    def is_blocker(self) -> bool:
        """True for KEY, scatter and FISH symbols (section 4: never part of a way)."""
        return self.kind in BLOCKER_CLASSES

    @property
    def is_special(self) -> bool:
        """True for every symbol that is not a pay symbol (section 4)."""
        return self.kind != PAY

    def substitutes_for(self, pay_symbol: str) -> bool:
        """WILD only: whether it substitutes for ``pay_symbol`` (section 6)."""
        return self.kind == WILD and (not self.substitutes or pay_symbol in self.substitutes)

    def allowed_on(self, strip_set: str, reel: int) -> bool:
        """Whether the symbol may stand on 0-based ``reel`` of ``strip_set``."""
        if self.kind == PAY:
            return True
        return reel in self.reels.get(strip_set, frozenset())

    def value_moments(self, table: str) -> tuple[Fraction, Fraction]:
        """Exact E[v] and E[v^2] of a FISH value, in credits and credits^2.

        Raises
        ------
        KeyError
            If the symbol has no weight table named ``table``.
        """
        w = self.weights[table]
        total = sum(w)
        m1 = Fraction(sum(wi * v for wi, v in zip(w, self.values)), total)
        m2 = Fraction(sum(wi * v * v for wi, v in zip(w, self.values)), total)
        return m1, m2


@dataclass(frozen=True)
class Level:
    """One level of the free-spin ladder (rules page section 11).

    Attributes
    ----------
    number : int
        1-based level number.
    threshold : int
        KEY-counter total needed at the end of the previous level to start
        this level (0 for level 1).
    spins : int or None
        Free spins played on this level; ``None`` for level 1, which plays the
        initial free spins of the trigger.
    multiplier : int
        Multiplies the whole spin win (ways pays + collect).
    weights : str
        Name of the FISH weight table used on this level.
    """

    number: int
    threshold: int
    spins: int | None
    multiplier: int
    weights: str


@dataclass(frozen=True)
class Phase:
    """A kind of spin: the base game or one free-spin level.

    Attributes
    ----------
    name : str
        ``"base"`` or ``"level1"``, ``"level2"``, ...
    strips : str
        Name of the strip set the phase spins (``"base"`` or ``"bonus"``).
    weights : str
        Name of the FISH weight table of the phase (section 7).
    multiplier : int
        Win multiplier of the phase (1 in the base game, section 11).
    """

    name: str
    strips: str
    weights: str
    multiplier: int


@dataclass(frozen=True)
class StripRules:
    """Soft strip rules of the game file's ``[strip_rules]``, checked as findings, never errors.

    ``length`` is the one stop count of every reel; ``lengths`` (one per reel,
    reel 1 first) declares reels of different lengths on purpose.  With
    neither, reels of different lengths get a finding (a CSV column that
    ends early).
    """

    length: int | None = None
    min_pay_between_specials: int | None = None
    max_run_symbols: frozenset[str] = frozenset()
    max_run_length: int | None = None
    lengths: tuple[int, ...] | None = None


@dataclass(frozen=True)
class GameModel:
    """A whole game as data: shape, symbols, paytable, features.

    Attributes
    ----------
    name : str
        Short name of the game file.
    reels, rows : int
        Window shape (section 3): ``reels`` columns of ``rows`` symbols.
    bet : int
        Credits per base spin (section 2).
    symbols : tuple of Symbol
        All symbols; their order fixes the integer symbol codes used by the
        engine (code = index in this tuple).
    strip_files : mapping str -> str
        Strip set name -> CSV file name inside the math-set directory.
    strip_rules : StripRules
    trigger : tuple of (int, int)
        (scatter count, initial free spins), ascending; a count above the
        largest entry takes the largest entry's spins (section 10).
    free_spin_strips : str
        Strip set the free spins use.
    levels : tuple of Level
        The ladder, level 1 first (section 11).
    retrigger : tuple of (int, int)
        (scatter count in a free spin, extra free spins), ascending; empty:
        no retrigger (the rules-page game).  A count above the largest entry
        takes the largest entry's spins.
    retrigger_cap : int or None
        Most free spins one feature can play in total (None: no cap).
    """

    name: str
    reels: int
    rows: int
    bet: int
    symbols: tuple[Symbol, ...]
    strip_files: Mapping[str, str]
    strip_rules: StripRules
    trigger: tuple[tuple[int, int], ...]
    free_spin_strips: str
    levels: tuple[Level, ...]
    title: str = ""
    retrigger: tuple[tuple[int, int], ...] = ()
    retrigger_cap: int | None = None

    # -- lookups ---------------------------------------------------------
    def symbol(self, name: str) -> Symbol:
        """The symbol called ``name`` or one of its aliases.

        Raises
        ------
        KeyError
            If no symbol has that name or alias.
        """
        return self._by_name[name]

    @cached_property
    def _by_name(self) -> dict[str, Symbol]:
        out = {}
        for s in self.symbols:
            for n in (s.name,) + s.aliases:
                out[n] = s
        return out

    def code(self, name: str) -> int:
        """Integer code of a symbol name or alias (its index in ``symbols``).

        Raises
        ------
        KeyError
            If no symbol has that name or alias.
        """
        return self._codes[self.symbol(name).name]

    @cached_property
    def _codes(self) -> dict[str, int]:
        return {s.name: i for i, s in enumerate(self.symbols)}

    def of_kind(self, kind: str) -> tuple[Symbol, ...]:
        """Symbols of one class, in file order."""
        return tuple(s for s in self.symbols if s.kind == kind)

    @property
    def pay_symbols(self) -> tuple[Symbol, ...]:
        return self.of_kind(PAY)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.symbols)

    def kind_mask(self, *kinds: str) -> np.ndarray:
        """Boolean array, shape (n_symbols,), true where the symbol's class is in ``kinds``."""
        return np.array([s.kind in kinds for s in self.symbols], dtype=bool)

    # -- phases ----------------------------------------------------------
    @property
    def base_phase(self) -> Phase:
        return Phase("base", "base", "base", 1)

    def level_phase(self, level: Level) -> Phase:
        return Phase(f"level{level.number}", self.free_spin_strips, level.weights, level.multiplier)

    @property
    def phases(self) -> tuple[Phase, ...]:
        """The base phase, then one phase per free-spin level."""
        return (self.base_phase,) + tuple(self.level_phase(lv) for lv in self.levels)

    def initial_spins(self, scatters: int) -> int:
        """Initial free spins for ``scatters`` scatter symbols (0 if no trigger), section 10."""
        spins = 0
        for count, n in self.trigger:
            if scatters >= count:
                spins = n
        return spins

    def retrigger_spins(self, scatters: int) -> int:
        """Extra free spins for ``scatters`` scatter symbols in a free spin (0 if none)."""
        spins = 0
        for count, n in self.retrigger:
            if scatters >= count:
                spins = n
        return spins

    def scatter_pay(self, scatters: int) -> int:
        """Scatter pay in credits for ``scatters`` scatter symbols in the window (0 if none pays)."""
        total = 0
        for s in self.of_kind(SCATTER):
            if s.pays and scatters >= 1:
                total += s.pays[min(scatters, len(s.pays)) - 1]
        return total

    @property
    def has_wild_multipliers(self) -> bool:
        """True when a WILD counts as more than 1 in the ways (a fixed multiplier other than 1, or a drawn one)."""
        return any(s.multiplier is not None and (s.multiplier.is_random or s.multiplier.values != (1,))
                   for s in self.of_kind(WILD))

    @property
    def min_trigger(self) -> int:
        """Fewest scatter symbols that trigger the free spins."""
        return self.trigger[0][0]


@dataclass(frozen=True)
class Finding:
    """A soft finding about a strip: reported, never fatal.

    ``file`` and ``row`` (1-based line in the CSV file) and ``column`` (1-based)
    locate it; ``message`` says which rules-page rule it breaks.
    """

    file: str
    row: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.row}:{self.column}: {self.message}"


@dataclass(frozen=True)
class ReelStrips:
    """One strip set (``base`` or ``bonus``) of a math set.

    Attributes
    ----------
    name : str
        Strip set name.
    reels : tuple of tuple of str
        ``reels[r][i]`` is the symbol name at 0-based position ``i`` of reel
        ``r``; lengths may differ between reels.
    codes : tuple of numpy.ndarray
        Same content as integer codes, one int64 array of shape (len(reel),)
        per reel (code = index in ``GameModel.symbols``).
    """

    name: str
    reels: tuple[tuple[str, ...], ...]
    codes: tuple[np.ndarray, ...] = field(compare=False, repr=False)

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(len(r) for r in self.reels)

    def window(self, stops, rows: int) -> tuple[tuple[str, ...], ...]:
        """The window at ``stops``: shape (reels, rows) of names.

        Row 1 is the stop position; rows below show the next positions, with
        wrap-around (section 3).

        Raises
        ------
        ValueError
            If the number of stops differs from the number of reels.
        """
        if len(stops) != len(self.reels):
            raise ValueError(f"{len(stops)} stops given for {len(self.reels)} reels")
        return tuple(
            tuple(reel[(s + i) % len(reel)] for i in range(rows))
            for reel, s in zip(self.reels, stops)
        )


@dataclass(frozen=True)
class MathSet:
    """A math set: the game model plus its strip sets.

    Attributes
    ----------
    name : str
        Bundled name or the directory path given by the user.
    model : GameModel
    strips : mapping str -> ReelStrips
        Strip set name -> strips (``"base"``, ``"bonus"``).
    findings : tuple of Finding
        Soft findings of the loader (section 3 strip rules).
    sources : mapping str -> bytes
        Raw bytes of each file read, for the fingerprint.
    """

    name: str
    model: GameModel
    strips: Mapping[str, ReelStrips]
    findings: tuple[Finding, ...] = ()
    sources: Mapping[str, bytes] = field(default_factory=dict, compare=False, repr=False)

    def phase_strips(self, phase: Phase) -> ReelStrips:
        return self.strips[phase.strips]
