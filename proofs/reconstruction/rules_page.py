"""The rules page's own transcription, for the strip reconstruction (:mod:`proofs.reconstruction`).

The worked examples, symbol totals, special reels, strip rules and rounded figures the page prints,
as constants; and a second transcription of its rules (bet, paytable, FISH values and their
probabilities, trigger spins, the ladder), independent of ``strips/rules_page/game.toml``, so a test
can tell whether the game file still says what the page says (double entry).  What a set's
``published.toml`` holds is data (:mod:`strips.published`); these constants are the reconstruction's.

Source: rules page sections 2-8, 10, 11 and 13.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from strips.published import Window, window_positions

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
# strips/rules_page/game.toml, so tests/test_published.py can tell whether the
# bundled game file and published.toml still say what the page says (double entry).
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
