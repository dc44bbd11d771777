"""The game model: frozen value objects loaded from a math set's ``game.toml``.

Nothing in this module knows the rules page's particular numbers; they are
data (``strips/rules_page/game.toml``).  Every amount is an integer number of
credits and every probability an integer weight, so the engine can stay exact.

Source: rules page sections 3 (reels and window), 4 (symbols), 5 (paytable),
7 (fish values), 10 (free spins trigger) and 11 (free spins levels).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import Mapping

import numpy as np

from strips.errors import Finding
from strips.published import Published

PAY, WILD, KEY, SCATTER, FISH = "pay", "wild", "key", "scatter", "fish"
SYMBOL_CLASSES = (PAY, WILD, KEY, SCATTER, FISH)
BLOCKER_CLASSES = (KEY, SCATTER, FISH)
#: WILD multiplier modes: one fixed value; one draw per WILD symbol in the window; one draw per reel.
FIXED, PER_WILD, PER_REEL = "fixed", "wild", "reel"
#: WILD multiplier mode of the catalogue rules: one multiplier per winning line or way that uses a WILD, drawn once per spin.
COMBINATION = "combination"
MULTIPLIER_MODES = (PER_WILD, PER_REEL, COMBINATION)
#: How line wins are evaluated: ways (the rules page) or paylines.
WAYS, LINES = "ways", "lines"
EVALUATIONS = (WAYS, LINES)


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
        ``combination``: the WILD never changes a count; a
        winning line or way whose run uses at least one WILD of this symbol
        is multiplied once by the value, drawn once per spin (fixed when
        there is one value and no weights); a WILD-only win is not.
        Draws are independent of the stops, of the FISH values and of each
        other.
    """

    values: tuple[int, ...]
    weights: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    mode: str = FIXED

    @property
    def is_random(self) -> bool:
        """True unless the multiplier is one fixed value (a ``combination`` multiplier is never random here:
        it does not change the ways count; see :attr:`is_combination`)."""
        return self.mode not in (FIXED, COMBINATION)

    @property
    def is_combination(self) -> bool:
        """True for mode ``combination``: the win of a line or way using the WILD is multiplied once."""
        return self.mode == COMBINATION

    def combination_table(self, name: str) -> tuple[tuple[int, int], ...]:
        """(value, integer weight) pairs of a ``combination`` multiplier for weight table ``name``.

        One value without weights is ((value, 1),).

        Raises
        ------
        KeyError
            If several values have no weight table ``name``.
        """
        if len(self.values) == 1 and name not in self.weights:
            return ((self.values[0], 1),)
        return tuple(zip(self.values, self.weights[name]))

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
        Each scatter symbol pays on its own count.
    pays (WILD symbols) : tuple of int, length = reels, or empty
        Line games: credits per line for a run of 1..reels leading WILDs of
        this symbol alone; empty: no own pays.
    counts_as_scatter : bool
        WILD only: the WILD also counts as one triggering scatter
        (toward the trigger count and that scatter's pays).
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
    counts_as_scatter: bool = False

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
    reel 1 first) declares reels of different lengths on purpose;
    ``set_lengths`` does so per strip set (``(("base", (30, 43, ...)), ...)``,
    from ``lengths = { base = [...], bonus = [...] }``), a strip set it does
    not name being checked as with neither.  With neither, reels of different
    lengths get a finding (a CSV column that ends early).
    """

    length: int | None = None
    min_pay_between_specials: int | None = None
    max_run_symbols: frozenset[str] = frozenset()
    max_run_length: int | None = None
    lengths: tuple[int, ...] | None = None
    set_lengths: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def lengths_of(self, strip_set: str) -> tuple[int, ...] | None:
        """The declared stop count of each reel of ``strip_set`` (None: not declared reel by reel).

        >>> StripRules(set_lengths=(("base", (30, 43)),)).lengths_of("base")
        (30, 43)
        """
        return self.lengths if self.lengths is not None else dict(self.set_lengths).get(strip_set)


def count_table_value(table, count: int, default: int = 0) -> int:
    """The value of a count table (``trigger``, ``retrigger``, ``multiplier_by_trigger``: (count, value)
    pairs, ascending) for ``count``: the value of the last entry whose count ``count`` reaches, else
    ``default``.  The data layer's reading of the table, used by the engines and chains; the rules'
    literal reading is :func:`exact.rules.by_count`, written apart so that the brute-force tests catch a
    mistake in either.

    >>> count_table_value(((3, 10), (4, 15)), 5), count_table_value(((3, 10),), 2), count_table_value(((3, 2),), 1, 1)
    (15, 0, 1)
    """
    value = default
    for c, v in table:
        if count >= c:
            value = v
    return value


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
    evaluation : str
        ``ways`` (default) or ``lines``.
    paylines : tuple of tuple of int
        Lines games: one entry per payline, the 0-based row on each reel
        (the file's rows are 1-based, 1 = top); empty for ways games.
    trigger_reels : frozenset of int
        0-based reels that must each show at least one triggering scatter
        for a trigger or retrigger (empty: no such condition).
    multiplier_by_trigger : tuple of (int, int)
        (trigger count, free-spin multiplier), ascending: the multiplier of
        the whole feature started by that many scatters (a count above the
        largest entry takes its value); empty: the level's multiplier.
    scatter : str or None
        Name of the scatter symbol that triggers (``[free_spins] scatter``);
        None: the game's only scatter symbol (or none).
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
    #: ``[free_spins] retrigger_total_below`` with several award sizes: a retrigger adds its spins only while
    #: the feature's spins awarded so far (played + left, the current spin counted) are below it; None without.
    retrigger_below: int | None = None
    evaluation: str = WAYS
    paylines: tuple[tuple[int, ...], ...] = ()
    trigger_reels: frozenset[int] = frozenset()
    multiplier_by_trigger: tuple[tuple[int, int], ...] = ()
    scatter: str | None = None
    # bet modes, buys, respin, jackpots, wheels, gamble (see the dataclasses at the end)
    modes: tuple["Mode", ...] = ()
    buys: tuple["Buy", ...] = ()
    respin: "Respin | None" = None
    jackpots: Mapping[str, int] = field(default_factory=dict)
    wheels: tuple["Wheel", ...] = ()
    gamble: "Gamble | None" = None
    #: Configurations of the rules whose modules parse their own keys (:mod:`strips.plugins`), in
    #: registration order; each a frozen dataclass with a ``rule`` attribute naming its rule.
    rules: tuple = ()

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

    @property
    def trigger_symbol(self) -> Symbol | None:
        """The scatter symbol counted for the trigger: ``[free_spins] scatter``, else the first scatter (None: none)."""
        if self.scatter is not None:
            return self.symbol(self.scatter)
        sc = self.of_kind(SCATTER)
        return sc[0] if sc else None

    @property
    def is_lines(self) -> bool:
        """True for a payline game (``evaluation = "lines"``)."""
        return self.evaluation == LINES


class WeightedStops(np.ndarray):
    """A reel strip's symbol codes (int64, shape (stops,)) carrying an integer weight per stop
    (``stop_weights``, a virtual reel as land-based PAR sheets print it: stop i is drawn with
    probability weight / total).  Every per-stop table of the exact analyses is built from
    :func:`window_codes`, which repeats each stop's window ``weight`` times, so each stop counts with
    its weight (the cycle is the product of the reels' weight totals).

    >>> s = WeightedStops([7, 8, 9], [1, 0, 2])
    >>> window_codes(s, 2).tolist(), int(s.stop_weights.sum())
    ([[7, 8], [9, 7], [9, 7]], 3)
    """

    def __new__(cls, codes, weights):
        obj = np.asarray(codes, dtype=np.int64).view(cls)
        obj.stop_weights = np.asarray(weights, dtype=np.int64)
        return obj

    def __array_finalize__(self, obj):
        w = getattr(obj, "stop_weights", None)
        self.stop_weights = w if w is not None and self.shape == w.shape else None


@dataclass(frozen=True)
class StopWeightsConfig:
    """The strip sets whose stops carry weights (``reel1_weight``, ... columns), set by the loader."""

    sets: tuple
    rule: str = "weighted stops"


def window_codes(strip, rows: int) -> np.ndarray:
    """Symbol codes of the window of every stop of one reel strip: shape (stops, rows), int64.

    Row 1 shows the stop, each row below the next position of the strip, wrapping at its
    end (rules page section 3).  A strip with stop weights (:class:`WeightedStops`) gives each stop's
    window as many times as its weight.

    >>> window_codes(np.array([7, 8, 9]), 2).tolist()
    [[7, 8], [8, 9], [9, 7]]
    """
    weights = getattr(strip, "stop_weights", None)
    strip = np.asarray(strip, dtype=np.int64)
    n = len(strip)
    win = strip[(np.arange(n)[:, None] + np.arange(rows)[None, :]) % n]
    return win if weights is None else np.repeat(win, weights, axis=0)


def window_counts(strip, rows: int, symbols: int) -> np.ndarray:
    """How many cells of the window of every stop of one reel strip show each symbol code.

    The one per-reel window table: every per-stop table of the analyses (ways counts, KEY, scatter
    and FISH counts, FISH means, WILD contributions) is a sum over the window's cells of a per-code
    value, that is :func:`window_table` of these counts.  Shape (stops, symbols), int64; ``symbols``
    more than the largest code on the strip (else ValueError).

    >>> window_counts(np.array([0, 1, 1]), 2, 3).tolist()
    [[1, 1, 0], [0, 2, 0], [1, 1, 0]]
    """
    win = window_codes(strip, rows)
    n = len(win)
    if win.size and int(win.max()) >= symbols:
        raise ValueError(f"symbol code {int(win.max())} on the strip, {symbols} symbols counted")
    cells = (np.arange(n, dtype=np.int64)[:, None] * symbols + win).ravel()
    return np.bincount(cells, minlength=n * symbols).reshape(n, symbols)


def window_table(strip, rows: int, per_code) -> np.ndarray:
    """Per stop of one reel strip, the sum of ``per_code`` over the cells of its window.

    ``per_code`` has one entry per symbol code along its first axis: shape (symbols,) gives
    shape (stops,), shape (symbols, k) gives (stops, k); a bool table counts the cells where it
    holds (int64), an object table (Python ints) stays exact.

    >>> window_table(np.array([0, 1, 1]), 2, np.array([5, 7])).tolist()
    [12, 14, 12]
    >>> window_table(np.array([0, 1, 1]), 2, np.array([[1, 0], [0, 1]], dtype=bool)).tolist()
    [[1, 1], [0, 2], [1, 1]]
    """
    per_code = np.asarray(per_code)
    counts = window_counts(strip, rows, per_code.shape[0])
    if per_code.dtype == bool:
        per_code = per_code.astype(np.int64)
    elif per_code.dtype == object:
        counts = counts.astype(object)
    return counts @ per_code


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

    @property
    def cycle_lengths(self) -> tuple[int, ...]:
        """Per reel, the stops of the full cycle: its length, or the total of its stop weights (a virtual reel)."""
        return tuple(len(r) if getattr(c, "stop_weights", None) is None else int(c.stop_weights.sum())
                     for r, c in zip(self.reels, self.codes))

    def stop_weight(self, r: int, stop: int) -> int:
        """The weight of ``stop`` of reel ``r`` (1 on a strip without weights)."""
        w = getattr(self.codes[r], "stop_weights", None)
        return 1 if w is None else int(w[stop])

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
    published : strips.published.Published
        What the set's ``published.toml`` says its rules page or PAR sheet
        prints (empty without one); not maths: not in the fingerprint.
    """

    name: str
    model: GameModel
    strips: Mapping[str, ReelStrips]
    findings: tuple[Finding, ...] = ()
    sources: Mapping[str, bytes] = field(default_factory=dict, compare=False, repr=False)
    mode_strips: Mapping[str, Mapping[str, ReelStrips]] = field(default_factory=dict, compare=False, repr=False)
    published: Published = field(default_factory=Published, compare=False, repr=False)

    def phase_strips(self, phase: Phase) -> ReelStrips:
        return self.strips[phase.strips]

    @property
    def mode_names(self) -> tuple[str, ...]:
        """``"default"`` (the game as its ``[game]`` and ``[free_spins]`` tables say), then each ``[modes]`` entry."""
        return (DEFAULT_MODE,) + tuple(m.name for m in self.model.modes)

    def mode(self, name: str) -> "MathSet":
        """The math set a bet mode plays: the same game with the mode's cost, strips, trigger and respin.

        ``"default"`` is the game itself with no modes and buys; any other
        mode replaces ``bet`` by its ``cost``, the strip sets it names, the
        trigger table if it gives one, and adds its respin.  The result has
        no modes and no buys, so every analysis of one math set runs on it
        unchanged.

        Raises
        ------
        KeyError
            If the game has no mode ``name``.

        Examples
        --------
        >>> from strips.loader import load_math_set
        >>> load_math_set("rules_page").mode("default").model.bet
        10
        """
        model = self.model
        if name == DEFAULT_MODE:
            return dataclasses.replace(self, model=dataclasses.replace(model, modes=(), buys=()), mode_strips={})
        m = next((m for m in model.modes if m.name == name), None)
        if m is None:
            raise KeyError(name)
        strip_files = dict(model.strip_files)
        strip_files.update(m.strips)
        strips = dict(self.strips)
        strips.update(self.mode_strips.get(name, {}))
        mm = dataclasses.replace(model, bet=m.cost, strip_files=strip_files, modes=(), buys=(),
                                 trigger=m.trigger or model.trigger, respin=m.respin)
        return dataclasses.replace(self, model=mm, strips=strips, mode_strips={})


# --------------------------------------------------------------------------
# bet modes, bought features, respins, jackpots, prize wheels, gamble
# --------------------------------------------------------------------------
#: The name of the game's own mode (its ``[game] bet``, strips and trigger).
DEFAULT_MODE = "default"
#: Wheel award kinds: credits, a fixed jackpot, free spins of the game's free spins from level 1.
CREDITS, JACKPOT, FREE_SPINS = "credits", "jackpot", "free_spins"
AWARD_KINDS = (CREDITS, JACKPOT, FREE_SPINS)


@dataclass(frozen=True)
class Respin:
    """A respin with held reels (game file ``respin = { symbol, count }`` of a mode).

    A base spin whose window shows exactly ``count`` of ``symbol`` (the
    symbol itself; a WILD does not count) and that starts no feature is
    respun once: every reel showing the symbol holds its stop, the others
    get new stops; the respin's pays are added and the respin may start
    the features, its held symbols counted.
    """

    symbol: str
    count: int


@dataclass(frozen=True)
class Mode:
    """A bet mode (game file ``[modes.NAME]``): another math set sharing the game.

    Attributes
    ----------
    name : str
    cost : int
        Credits per round in this mode.
    strips : mapping str -> str
        Strip set name -> CSV file this mode uses instead (empty: the game's).
    trigger : tuple of (int, int)
        (scatter count, initial free spins) replacing ``[free_spins] trigger``; empty: the game's.
    respin : Respin or None
    """

    name: str
    cost: int
    strips: Mapping[str, str] = field(default_factory=dict)
    trigger: tuple[tuple[int, int], ...] = ()
    respin: Respin | None = None


@dataclass(frozen=True)
class Buy:
    """A bought feature (game file ``[buy.NAME]``): ``cost`` credits start the free spins as a trigger of ``trigger`` scatters."""

    name: str
    cost: int
    trigger: int


@dataclass(frozen=True)
class Award:
    """One wheel segment: ``credits N``, ``jackpot NAME`` or ``free_spins N`` (``text`` as written).

    ``start``: the named start of the free spins' persistent cells (``free_spins 6 go_large``: a start
    a rule module defines, :func:`strips.plugins.register_award_starts`); empty for plain free spins.
    """

    kind: str
    amount: int = 0
    jackpot: str = ""
    start: str = ""

    @property
    def text(self) -> str:
        tail = f" {self.start}" if self.start else ""
        return f"{self.kind} {self.jackpot if self.kind == JACKPOT else self.amount}{tail}"


@dataclass(frozen=True)
class PrizeTable:
    """One prize table of a wheel: awards with integer weights (a finite weighted draw)."""

    name: str
    awards: tuple[Award, ...]
    weights: tuple[int, ...]


@dataclass(frozen=True)
class Wheel:
    """A prize wheel (game file ``[wheel.NAME]``): ``symbol`` n or more times in a base-game window start it.

    Attributes
    ----------
    name : str
    symbol : str
        A scatter-class symbol that starts only this wheel.
    tables : tuple of (int, str)
        (count, prize table name), ascending; a count between keys takes the
        lower key's table, above the largest the largest; below the smallest
        no wheel.
    prizes : mapping str -> PrizeTable
    """

    name: str
    symbol: str
    tables: tuple[tuple[int, str], ...]
    prizes: Mapping[str, PrizeTable]

    @property
    def min_count(self) -> int:
        return self.tables[0][0]

    def table_for(self, count: int) -> PrizeTable | None:
        """The prize table a window with ``count`` wheel symbols spins (None: no wheel)."""
        name = None
        for c, t in self.tables:
            if count >= c:
                name = t
        return None if name is None else self.prizes[name]


@dataclass(frozen=True)
class Gamble:
    """The gamble offered after a round win (game file ``[gamble]``).

    A round win x with ``min_win <= x`` and ``multiplier * x <= max_win``
    may be gambled once: it becomes ``multiplier * x`` with ``probability``,
    else 0.  Credits; ``probability`` an exact Fraction.
    """

    min_win: int
    max_win: int
    multiplier: int
    probability: Fraction
