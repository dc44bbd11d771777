"""Published facts as data: what a game's rules page or PAR sheet prints.

A math set may hold ``published.toml``; the loader parses it into a
:class:`Published` (``MathSet.published``) of immutable value objects:

* :class:`Fact` -- a figure of the PAR report (a key of the report's
  figures, dotted for nesting: ``rtp``, ``trigger.3``, ``key_2plus.base``) as
  printed: ``"96.2%"``, ``"1 in 180"``, ``"1 in 3,815"``, ``"0.005558"``;
* :class:`Window` -- a worked example: the window at given stop positions;
* :class:`StripShape`, :class:`Placement`, :class:`Total` -- strip rules,
  the reels a symbol may stand on, symbol totals of a strip set;
* :class:`RulesText` -- the rules transcribed from the page (bet, paytable,
  substitutions, collect values and their probabilities, trigger spins,
  ladder), compared with the game file (double entry);
* :class:`Assumption` -- a figure the page does NOT publish but the set is
  tuned to (listed, never a PASS/FAIL).

Printed figures (:class:`Printed`) hold the text exactly and its value as a
Fraction; no float ever enters.  **Rounding rule (PASS):** an exact value
passes a printed figure when it lies within half a unit of the printed last
digit, ends included: ``|x - printed| <= 10**-d / 2`` with ``d`` the printed
decimals (of the per-cent number for ``"%"``; of N, compared with ``1/x``,
for ``"1 in N"``).  A value exactly halfway therefore passes both neighbours,
whichever way the publisher rounds ties (half up, half even).

The second part of this module is the rules page's own transcription used by
the strip reconstruction (``proofs.reconstruction``): examples, totals and
rounded figures of that page as constants.

Source: issue 12 item 4; rules page sections 3, 4, 6, 8, 10, 11 and 13.
"""
from __future__ import annotations

import functools
import re
import sys
from dataclasses import dataclass, field
from fractions import Fraction

from strips import limits as _limits
from strips.decimals import decimal_text

PERCENT, ONE_IN, DECIMAL = "percent", "one in", "decimal"

_NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_PRINTED = re.compile(rf"^(?P<one>1 in )?(?P<num>{_NUMBER})(?P<pct>%)?$")


@dataclass(frozen=True)
class Printed:
    """A figure as printed: ``"96.2%"``, ``"1 in 3,815"``, ``"0.005558"``, ``"12.5"``.

    Attributes
    ----------
    text : str
        Exactly as printed.
    kind : str
        ``"percent"``, ``"one in"`` (a frequency: ``1 in N``) or ``"decimal"``.
    number : Fraction
        The printed number (per cent sign and "1 in" left off, grouping
        commas removed): 96.2 for ``"96.2%"``, 3815 for ``"1 in 3,815"``.
    decimals : int
        Decimal places of ``number`` as printed.

    Examples
    --------
    >>> p = Printed.parse("1 in 3,815")
    >>> p.kind, p.number, p.decimals
    ('one in', Fraction(3815, 1), 0)
    >>> Printed.parse("0.47%").matches(Fraction(4672, 10**6))
    True
    """

    text: str
    kind: str
    number: Fraction
    decimals: int

    @classmethod
    def parse(cls, text: str) -> "Printed":
        """Parse a printed figure.

        Raises
        ------
        ValueError
            Anything but a non-negative decimal with optional thousands
            grouping (``3,815``), optionally ``%`` after or ``1 in `` before.
        """
        m = _PRINTED.match(text) if isinstance(text, str) else None
        if not m or (m.group("one") and m.group("pct")):
            raise ValueError(f"printed figure {text!r} is not a decimal like \"0.005558\", \"96.2%\", "
                             f"\"1 in 3,815\" or \"12.5\"")
        body = m.group("num").replace(",", "")
        digits = len(body.replace(".", "").lstrip("0"))
        if _limits.exceeds("digits", digits) is not None or digits > sys.get_int_max_str_digits():
            raise ValueError(_limits.digits_refusal(digits, "significant digits in a printed figure"))
        kind = ONE_IN if m.group("one") else PERCENT if m.group("pct") else DECIMAL
        if kind == ONE_IN and Fraction(body) == 0:
            raise ValueError(f"printed figure {text!r}: N of \"1 in N\" must be positive")
        return cls(text, kind, Fraction(body), len(body.split(".")[1]) if "." in body else 0)

    @property
    def half_unit(self) -> Fraction:
        """Half a unit of the last printed digit, in the units of ``number``."""
        return Fraction(1, 2 * 10 ** self.decimals)

    def compared(self, x: Fraction) -> Fraction | None:
        """The exact value in the units of ``number``: 100 x for per cent, 1 / x for "1 in N" (None if x = 0)."""
        if self.kind == PERCENT:
            return 100 * x
        if self.kind == ONE_IN:
            return None if x == 0 else 1 / x
        return x

    def matches(self, x: Fraction) -> bool:
        """True when the exact ``x`` lies within half a unit of the printed last digit (ends included)."""
        y = self.compared(Fraction(x))
        return y is not None and abs(y - self.number) <= self.half_unit

    def show(self, x: Fraction) -> str:
        """The exact ``x`` printed the way this figure is printed (same form and decimals, half up)."""
        y = self.compared(Fraction(x))
        if y is None:
            return "never" if self.kind == ONE_IN else "0"
        grouping = "," in self.text
        body = decimal_text(abs(y), self.decimals, grouping)
        body = ("-" if y < 0 and Fraction(body.replace(",", "")) != 0 else "") + body
        return f"1 in {body}" if self.kind == ONE_IN else body + ("%" if self.kind == PERCENT else "")


@dataclass(frozen=True)
class Located:
    """Where an entry of ``published.toml`` stands: file, 1-based row and column (for messages)."""

    file: str = ""
    row: int = 0
    column: int = 0


@dataclass(frozen=True)
class Fact:
    """A figure of the PAR report as printed (``[[facts]]``).

    Attributes
    ----------
    figure : str
        Dotted key of the report's figures, e.g. ``trigger.3``.
    printed : Printed
    source : str
        Where it is printed (``"rules page, section 10"``).
    label : str
        Words for the fact (default: the figure key).
    per_bet : bool
        The printed figure is the figure divided by the bet (a return in per
        cent of the cost, e.g. ``components.base_ways`` printed as 77.047670%).
    at : Located
        Where the ``figure`` key stands, for an unknown-figure error.
    """

    figure: str
    printed: Printed
    source: str = ""
    label: str = ""
    per_bet: bool = False
    at: Located = field(default=Located(), compare=False)

    @property
    def name(self) -> str:
        return self.label or f"{self.figure}{' per bet' if self.per_bet else ''}"


@dataclass(frozen=True)
class Window:
    """A worked example (``[[windows]]``): the window shown at given stops.

    ``stops`` are 0-based strip positions of row 1 of each reel; ``rows``
    the printed window, top row first, symbol names separated by spaces.
    """

    strip_set: str
    stops: tuple[int, ...]
    rows: tuple[str, ...]
    source: str = ""

    @property
    def window(self) -> tuple[tuple[str, ...], ...]:
        """The printed window, shape (reels, rows) of symbol names."""
        cells = [r.split() for r in self.rows]
        return tuple(tuple(row[r] for row in cells) for r in range(len(cells[0])))


@dataclass(frozen=True)
class StripShape:
    """Strip rules of one strip set as printed (``[[strip_rules]]``); None where not printed.

    ``length``: stops of every reel; ``lengths``: stops of each reel, reel 1 first.

    ``max_run_symbols`` / ``max_run_length``: at most that many of these
    symbols in sequence (cyclic); ``min_pay_between_specials``: at least that
    many pay symbols between two special symbols (cyclic).
    """

    strip_set: str
    reels: int | None = None
    length: int | None = None
    lengths: tuple[int, ...] | None = None
    min_pay_between_specials: int | None = None
    max_run_symbols: tuple[str, ...] = ()
    max_run_length: int | None = None
    source: str = ""


@dataclass(frozen=True)
class Placement:
    """``[[placements]]``: ``symbol`` stands only on these 1-based ``reels`` of ``strip_set`` (empty: none)."""

    strip_set: str
    symbol: str
    reels: tuple[int, ...]
    source: str = ""


@dataclass(frozen=True)
class Total:
    """``[[totals]]``: ``count`` symbols of ``symbols`` on all reels of ``strip_set`` together.

    ``label`` names the group in words (``FISH``): the symbol class when the
    entry gives ``class``, else the names joined by ``/``.
    """

    strip_set: str
    symbols: tuple[str, ...]
    count: int
    label: str
    source: str = ""


@dataclass(frozen=True)
class Level:
    """One level of a printed ladder: KEY threshold, spins (None: the initial spins), multiplier."""

    threshold: int
    spins: int | None
    multiplier: int


@dataclass(frozen=True)
class RulesText:
    """``[rules]``: the rules as printed, each part optional (None / empty: not transcribed).

    ``pays`` symbol -> credits per way for 1..N OAK; ``substitutes`` WILD ->
    symbols it substitutes for; ``values`` collect symbol -> credit values;
    ``probabilities`` symbol -> weight table -> printed probability of each
    value; ``trigger_spins`` scatter count -> initial free spins; ``levels``
    the ladder; ``sources`` part -> where it is printed (default ``source``).
    """

    source: str = ""
    bet: int | None = None
    pays: tuple[tuple[str, tuple[int, ...]], ...] = ()
    substitutes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    values: tuple[tuple[str, tuple[int, ...]], ...] = ()
    probabilities: tuple[tuple[str, tuple[tuple[str, tuple[Printed, ...]], ...]], ...] = ()
    trigger_spins: tuple[tuple[int, int], ...] | None = None
    levels: tuple[Level, ...] | None = None
    retrigger: bool | None = None
    sources: tuple[tuple[str, str], ...] = ()

    def source_of(self, part: str) -> str:
        return dict(self.sources).get(part, self.source)

    @property
    def empty(self) -> bool:
        return not (self.bet is not None or self.pays or self.substitutes or self.values or self.probabilities
                    or self.trigger_spins is not None or self.levels is not None or self.retrigger is not None)


@dataclass(frozen=True)
class Assumption:
    """``[[assumptions]]``: a figure the set is tuned to, not printed: ``target`` +/- ``tolerance`` (same units)."""

    figure: str
    target: Printed
    tolerance: Printed
    source: str = ""
    at: Located = field(default=Located(), compare=False)

    def met(self, x: Fraction) -> bool:
        y = self.target.compared(Fraction(x))
        return y is not None and abs(y - self.target.number) <= self.tolerance.number


@dataclass(frozen=True)
class Published:
    """Everything a math set's ``published.toml`` holds (empty without one), and its ``sha256``.

    >>> Published().empty
    True
    """

    file: str = ""
    facts: tuple[Fact, ...] = ()
    windows: tuple[Window, ...] = ()
    strip_rules: tuple[StripShape, ...] = ()
    placements: tuple[Placement, ...] = ()
    totals: tuple[Total, ...] = ()
    rules: RulesText = RulesText()
    assumptions: tuple[Assumption, ...] = ()
    #: hex SHA-256 of the file's bytes (the PAR workbook lists it beside the other input files); "" without one
    sha256: str = ""

    @property
    def empty(self) -> bool:
        return not (self.facts or self.windows or self.strip_rules or self.placements or self.totals
                    or self.assumptions) and self.rules.empty


def window_positions(windows, strip_set: str, lengths) -> dict[tuple[int, int], tuple[str, tuple[str, ...]]]:
    """Merge the windows of one strip set into known strip positions.

    Parameters
    ----------
    windows : iterable of Window
    strip_set : str
    lengths : sequence of int
        Stops of each reel of the strip set (row i of reel r at stop s shows
        position ``(s + i) mod lengths[r]``).

    Returns
    -------
    dict (reel, position) -> (symbol, sources)
        0-based; the symbol the windows show there and each window's source.

    Raises
    ------
    ValueError
        If two windows show different symbols at one position.

    >>> w = Window("base", (0, 5), ("A B", "C D"), "example 1")
    >>> window_positions([w], "base", (10, 10))[(1, 6)]
    ('D', ('example 1',))
    """
    known: dict[tuple[int, int], tuple[str, tuple[str, ...]]] = {}
    for w in windows:
        if w.strip_set != strip_set:
            continue
        for r, column in enumerate(w.window):
            for i, name in enumerate(column):
                key = (r, (w.stops[r] + i) % lengths[r])
                if key in known:
                    seen, sources = known[key]
                    if seen != name:
                        raise ValueError(f"{strip_set} reel {r + 1} position {key[1]}: {sources[0]} "
                                         f"shows {seen}, {w.source} shows {name}")
                    known[key] = (seen, sources + (w.source,))
                else:
                    known[key] = (name, (w.source,))
    return dict(sorted(known.items()))


# ---------------------------------------------------------------------------
# The rules page's transcription for the strip reconstruction (proofs.reconstruction).
# ---------------------------------------------------------------------------
BASE, BONUS = "base", "bonus"


@dataclass(frozen=True)
class Example:
    """One worked example of the rules page: where it stops and what it shows.

    Attributes
    ----------
    number : int
        Example number on the page (1-9).
    strip_set : str
        ``"base"`` or ``"bonus"``: the strips the stops refer to.
    stops : tuple of int, length 5
        Stop position (row 1) of each reel, 0-based strip positions.
    rows : tuple of str, length 4
        The window as printed, top row first, symbol names separated by
        spaces (FISH values left out: they are not strip content).
    """

    number: int
    strip_set: str
    stops: tuple[int, ...]
    rows: tuple[str, ...]

    @property
    def window(self) -> tuple[tuple[str, ...], ...]:
        """The printed window, shape (reels, rows) of symbol names."""
        cells = [r.split() for r in self.rows]
        return tuple(tuple(row[r] for row in cells) for r in range(len(cells[0])))


#: The nine worked examples (rules page sections 6, 8, 10, 11).
EXAMPLES: tuple[Example, ...] = (
    Example(1, BASE, (10, 11, 81, 14, 32), (
        "PIC2 PIC4 AUS2 PIC5 FISH4", "AUS1 AUS5 AUS2 AUS2 AUS3",
        "AUS1 AUS5 AUS2 PIC5 AUS4", "PIC4 AUS5 PIC4 AUS3 PIC5")),
    Example(2, BASE, (33, 97, 5, 53, 55), (
        "AUS5 PIC2 AUS4 WILD PIC5", "PIC1 AUS2 PIC1 AUS5 AUS2",
        "AUS2 AUS2 AUS2 AUS5 PIC3", "FS AUS2 WILD PIC5 AUS4")),
    Example(3, BASE, (55, 71, 37, 1, 26), (
        "AUS3 AUS3 AUS3 FS AUS2", "AUS3 PIC4 PIC4 AUS2 AUS2",
        "PIC4 AUS4 PIC2 AUS2 PIC1", "AUS4 AUS4 PIC2 AUS2 AUS4")),
    Example(4, BASE, (88, 22, 49, 5, 26), (
        "AUS4 PIC5 PIC4 PIC3 AUS2", "PIC3 AUS4 AUS5 PIC3 AUS2",
        "PIC3 AUS4 AUS5 AUS1 PIC1", "AUS3 PIC3 FISH1 AUS1 AUS4")),
    Example(5, BASE, (91, 77, 51, 72, 58), (
        "AUS3 AUS4 AUS5 WILD AUS4", "AUS3 PIC4 FISH1 AUS5 AUS4",
        "KEY AUS4 AUS4 AUS5 FISH1", "AUS4 FISH1 AUS4 PIC3 AUS5")),
    Example(6, BASE, (15, 58, 78, 10, 63), (
        "AUS1 PIC3 PIC5 AUS5 AUS5", "AUS2 AUS5 AUS2 PIC2 PIC3",
        "PIC4 AUS5 FISH2 AUS4 AUS2", "AUS3 FISH1 AUS2 PIC5 FISH1")),
    Example(7, BASE, (1, 1, 19, 98, 5), (
        "AUS4 FS PIC5 PIC4 AUS1", "AUS4 AUS3 AUS4 AUS5 PIC4",
        "PIC3 AUS3 PIC3 AUS5 PIC4", "PIC3 PIC3 FS FS AUS5")),
    Example(8, BONUS, (66, 86, 97, 22, 30), (
        "PIC4 PIC4 AUS1 PIC5 PIC2", "FISH1 PIC4 PIC2 PIC4 PIC2",
        "PIC2 PIC3 PIC4 FISH1 AUS5", "PIC2 PIC5 KEY AUS5 PIC1")),
    Example(9, BONUS, (50, 53, 0, 45, 23), (
        "AUS2 AUS3 KEY AUS2 PIC4", "KEY FISH2 AUS1 PIC5 FISH1",
        "PIC5 PIC3 AUS1 PIC4 PIC1", "PIC5 AUS3 AUS1 PIC1 AUS2")),
)

#: Section 3: reels, rows and symbols on each reel strip.
REELS, ROWS, STRIP_LENGTH = 5, 4, 100

#: Section 11: FISH and KEY symbols in total on each strip set.
TOTALS: dict[str, dict[str, int]] = {
    BASE: {"FISH": 24, "KEY": 3},
    BONUS: {"FISH": 70, "KEY": 5},
}

#: Sections 4, 8, 11 and 13: the 1-based reels each special symbol is on, per
#: strip set.  A symbol not named for a strip set is not on it (section 11:
#: "The bonus reel strips have no WILD symbol and no FS symbol").
SPECIAL_REELS: dict[str, dict[str, tuple[int, ...]]] = {
    BASE: {"WILD": (2, 3, 4, 5), "KEY": (1, 2, 3), "FS": (1, 2, 3, 4, 5),
           "FISH1": (1, 2, 3, 4, 5), "FISH2": (1, 2, 3, 4, 5), "FISH3": (4,), "FISH4": (5,)},
    BONUS: {"KEY": (1, 2, 3),
            "FISH1": (1, 2, 3, 4, 5), "FISH2": (1, 2, 3, 4, 5), "FISH3": (4,), "FISH4": (5,)},
}

#: Section 3: pay symbols between two special symbols (at least), and the
#: longest run of AUS symbols (at most), both cyclic.
MIN_PAY_BETWEEN_SPECIALS = 3
MAX_AUS_RUN = 3


@dataclass(frozen=True)
class Rounded:
    """A probability or frequency as the page prints it.

    Attributes
    ----------
    text : str
        The printed figure, e.g. ``"0.005558"``, ``"3,815"``, ``"0.47%"``.
    value : Fraction
        The printed figure as an exact number (per cent already divided out).
    decimals : int
        Decimal places of ``value`` as printed (0 for "1 in N" frequencies).
    """

    text: str
    value: Fraction
    decimals: int


def _decimal(text: str) -> Rounded:
    """Parse a printed decimal (``"0.005558"``, ``"0.47%"``, ``"3,815"``) exactly."""
    body = text.replace(",", "")
    scale = 100 if body.endswith("%") else 1
    body = body.rstrip("%")
    decimals = len(body.split(".")[1]) if "." in body else 0
    return Rounded(text, Fraction(body) / scale, decimals + (2 if scale == 100 else 0))


#: Section 10: P(exactly n FS symbols) per base spin, as printed.
TRIGGER_PROBABILITY: dict[int, Rounded] = {3: _decimal("0.005558"), 4: _decimal("0.000262"),
                                           5: _decimal("0.000005")}
#: Section 10: the frequency "1 in N" of exactly n FS symbols, N as printed.
TRIGGER_FREQUENCY: dict[int, Rounded] = {3: _decimal("180"), 4: _decimal("3,815"), 5: _decimal("203,451")}
#: Section 13: P(2 or more KEY symbols in the window), per base spin and per free spin.
KEY_2PLUS: dict[str, Rounded] = {BASE: _decimal("0.47%"), BONUS: _decimal("1.23%")}


def round_half_up(x: Fraction, decimals: int) -> Fraction:
    """Round an exact non-negative number to ``decimals`` places, halves up.

    Parameters
    ----------
    x : Fraction
        The exact value (>= 0).
    decimals : int
        Decimal places (0 rounds to an integer).

    Returns
    -------
    Fraction
        The rounded value, exact (e.g. ``Fraction(5558, 10**6)``).
    """
    scale = 10 ** decimals
    return Fraction(int(x * scale + Fraction(1, 2)), scale)


def rounds_to(x: Fraction, printed: Rounded) -> bool:
    """True when the exact ``x`` rounds (half up) to the printed figure."""
    return round_half_up(x, printed.decimals) == printed.value


def published_positions(strip_set: str) -> dict[tuple[int, int], tuple[str, tuple[int, ...]]]:
    """Merge the example windows of one strip set into known strip positions.

    Parameters
    ----------
    strip_set : str
        ``"base"`` (examples 1-7) or ``"bonus"`` (examples 8-9).

    Returns
    -------
    dict (reel, position) -> (symbol, example numbers)
        0-based reel and strip position; the symbol the page shows there and
        every example whose window shows that position.

    Raises
    ------
    ValueError
        If two examples show different symbols at the same position (the
        page would then contradict itself).

    Notes
    -----
    Row ``i`` (0-based) of reel ``r`` at stop ``s`` shows position
    ``(s + i) mod 100`` (section 3).  Computed once per strip set (a fresh dict each call).
    """
    return dict(_published_positions(strip_set, EXAMPLES))


@functools.lru_cache(maxsize=8)
def _published_positions(strip_set: str, examples: tuple[Example, ...]) -> tuple:
    windows = [Window(ex.strip_set, ex.stops, ex.rows, f"example {ex.number}") for ex in examples]
    known = window_positions(windows, strip_set, (STRIP_LENGTH,) * REELS)
    return tuple((key, (name, tuple(int(src.removeprefix("example ")) for src in sources)))
                 for key, (name, sources) in known.items())


# ---------------------------------------------------------------------------
# The rules as printed: a second transcription of the page, independent of
# strips/rules_page/game.toml, so `rtp check` can tell whether a math set's
# game file still says what the page says (double entry).
# ---------------------------------------------------------------------------

#: Section 2: credits per base spin.
BET = 10

#: Section 5: credits per way for 1, 2, 3, 4, 5 of a kind.
PAYTABLE: dict[str, tuple[int, ...]] = {
    "PIC1": (0, 0, 5, 15, 50), "PIC2": (0, 0, 4, 10, 30), "PIC3": (0, 0, 3, 8, 20),
    "PIC4": (0, 0, 3, 6, 15), "PIC5": (0, 0, 2, 5, 12),
    "AUS1": (0, 0, 1, 2, 5), "AUS2": (0, 0, 1, 2, 5), "AUS3": (0, 0, 1, 2, 4),
    "AUS4": (0, 0, 1, 2, 4), "AUS5": (0, 0, 1, 2, 4),
}

#: Section 7: the credit value ("art") of each FISH value.
FISH_VALUES: dict[str, tuple[int, ...]] = {
    "FISH1": (1, 2, 3, 5), "FISH2": (10, 15, 20, 25), "FISH3": (50, 100, 150, 200), "FISH4": (500, 2000),
}

#: Section 7: probability of each value, per cent as printed, per weight table.
FISH_PERCENT: dict[str, dict[str, tuple[str, ...]]] = {
    "FISH1": {"base": ("42.2", "27.8", "20.0", "10.0"), "level1": ("40.0", "30.0", "20.0", "10.0"),
              "level2": ("35.0", "30.0", "20.0", "15.0"), "level3": ("30.0", "30.0", "22.0", "18.0"),
              "level4": ("25.0", "30.0", "25.0", "20.0")},
    "FISH2": {"base": ("55.0", "27.0", "12.0", "6.0"), "level1": ("35.0", "30.0", "20.0", "15.0"),
              "level2": ("30.0", "30.0", "22.0", "18.0"), "level3": ("25.0", "30.0", "25.0", "20.0"),
              "level4": ("20.0", "30.0", "27.0", "23.0")},
    "FISH3": {"base": ("75.0", "17.0", "6.0", "2.0"), "level1": ("60.0", "25.0", "10.0", "5.0"),
              "level2": ("50.0", "28.0", "14.0", "8.0"), "level3": ("45.0", "30.0", "15.0", "10.0"),
              "level4": ("40.0", "30.0", "18.0", "12.0")},
    "FISH4": {t: ("88.9", "11.1") for t in ("base", "level1", "level2", "level3", "level4")},
}

#: Section 10: initial free spins for 3, 4, 5 FS symbols.
TRIGGER_SPINS: dict[int, int] = {3: 10, 4: 15, 5: 20}

#: Section 11: per level (threshold of the KEY counter, spins, multiplier); level 1
#: plays the initial free spins (spins None).
LADDER: tuple[tuple[int, int | None, int], ...] = ((0, None, 1), (3, 8, 2), (6, 8, 5), (9, 8, 10))
