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

Source: rules page sections 3, 4, 6, 8, 10, 11 and 13.
"""
from __future__ import annotations

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
