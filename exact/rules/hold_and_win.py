"""Hold-and-win (cash collect): coins that land stay held while the respin counter lasts.

Keys (``game.toml``; the readings are fixed):

* ``[symbols.COIN] class = "coin"`` (exactly one coin-class symbol; ``reels`` as for a scatter),
  ``values = ["credits 10", "jackpot Mini", ...]`` with integer ``weights.base = [...]`` and
  ``weights.respin = [...]``: the coins of the triggering window draw their values from
  ``weights.base``, each coin landing in a respin from ``weights.respin``, every draw independent of
  the others and of positions; ``credits N`` pays N credits, ``jackpot NAME`` pays ``[jackpots] NAME``
  (several coins may win the same jackpot, each paying it).
* ``[hold_and_win] symbol = "COIN"``, ``trigger = 6``: that many coins or more in a base-game window
  start the feature; the triggering spin also pays its ordinary pays; a WILD neither substitutes for
  a coin nor counts toward ``trigger``.
* ``strips = "respin"`` (a key of ``[strips]``): each respin draws one stop per reel of that strip
  set, every stop equally likely, the window shown as in the base game; a held cell keeps its coin
  whatever the strip shows there; an empty cell showing the coin symbol holds it from then on; in a
  respin only coins count.
* ``respins = 3``: the counter starts at 3; after each respin it is set back to 3 if at least one new
  coin landed, else it drops by one; the feature ends at 0 or when every cell holds a coin (a
  triggering window that is all coins ends at once).
* ``full = "jackpot Grand"`` (optional): paid on top of the held values when the window is full at
  the end.

The round win is the base spin plus the feature's held values and jackpots, paid once at the end;
base-game coins pay nothing by themselves.

This module holds the configuration, its validation (file, row and column of every bad key) and the
literal reading (:func:`respin_step`, :func:`play_feature`, :func:`feature_win`): the oracle.  The
exact chain over per-reel held cells times respins left is :mod:`markov.hold_and_win`; the round
figures are :mod:`exact.hold_and_win`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

from exact.rules.base import Rule
from exact.rules.wild import combination_wilds
from strips import limits as _limits
from strips import plugins

__all__ = ["HoldAndWin", "HoldAndWinConfig", "CoinValue", "COIN", "coin_cells", "respin_step", "play_feature",
           "feature_win", "value_moments", "window_of"]

COIN = "coin"
CLASS_KEYS = ("values", "weights")
TABLE_KEYS = ("symbol", "trigger", "strips", "respins", "full")
_AWARD = re.compile(r"^\s*(credits|jackpot)\s+(\S+)\s*$")


@dataclass(frozen=True)
class CoinValue:
    """One coin value: ``credits`` credits, or the jackpot ``jackpot`` paying ``credits``."""

    credits: int
    jackpot: str = ""

    @property
    def text(self) -> str:
        return f"jackpot {self.jackpot}" if self.jackpot else f"credits {self.credits}"


@dataclass(frozen=True)
class HoldAndWinConfig:
    """The parsed ``[hold_and_win]`` table and its coin symbol.

    Attributes
    ----------
    symbol : str
        The coin-class symbol.
    trigger : int
        Coins in a base-game window that start the feature (at least).
    strips : str
        The strip set of the respins (a key of ``[strips]``).
    respins : int
        The counter's start and reset value.
    values : tuple of CoinValue
    base_weights, respin_weights : tuple of int
        Integer weights of ``values`` for the triggering window's coins and for coins landing in a respin.
    full : CoinValue or None
        Paid on top when every cell holds a coin at the end.
    """

    symbol: str
    trigger: int
    strips: str
    respins: int
    values: tuple[CoinValue, ...]
    base_weights: tuple[int, ...]
    respin_weights: tuple[int, ...]
    full: CoinValue | None = None
    rule: str = "hold and win"

    @property
    def full_credits(self) -> int:
        """Credits of the ``full`` award (0 without one)."""
        return self.full.credits if self.full else 0

    def law(self, table: str) -> tuple[tuple[CoinValue, Fraction], ...]:
        """(value, probability) of one coin drawn from ``table`` (``"base"`` or ``"respin"``), positive only.

        >>> c = HoldAndWinConfig("C", 2, "respin", 3, (CoinValue(5), CoinValue(100, "Mini")), (3, 1), (1, 0))
        >>> [(v.text, p) for v, p in c.law("base")]
        [('credits 5', Fraction(3, 4)), ('jackpot Mini', Fraction(1, 4))]
        """
        w = self.base_weights if table == "base" else self.respin_weights
        total = sum(w)
        return tuple((v, Fraction(x, total)) for v, x in zip(self.values, w) if x)


def value_moments(config: HoldAndWinConfig, table: str) -> tuple[Fraction, Fraction]:
    """E[v] and E[v^2] of one coin's value drawn from ``table`` (credits, credits^2).

    >>> c = HoldAndWinConfig("C", 2, "respin", 3, (CoinValue(5), CoinValue(100, "Mini")), (3, 1), (1, 0))
    >>> value_moments(c, "base"), value_moments(c, "respin")
    ((Fraction(115, 4), Fraction(10075, 4)), (Fraction(5, 1), Fraction(25, 1)))
    """
    law = config.law(table)
    return (sum((p * v.credits for v, p in law), Fraction(0)),
            sum((p * v.credits * v.credits for v, p in law), Fraction(0)))


# ---------------------------------------------------------------------------
# the literal reading
# ---------------------------------------------------------------------------
def window_of(strips: Sequence[Sequence[int]], stops: Sequence[int], rows: int) -> tuple[tuple[int, ...], ...]:
    """The window of one spin: per reel, the codes of rows 1..rows at ``stops`` (row i shows
    ``strip[(p + i) mod L]``).

    >>> window_of([[0, 1, 2], [3, 4]], [2, 1], 2)
    ((2, 0), (4, 3))
    """
    return tuple(tuple(int(s[(p + i) % len(s)]) for i in range(rows)) for s, p in zip(strips, stops))


def coin_cells(window: Sequence[Sequence[int]], coin: int) -> frozenset[tuple[int, int]]:
    """The cells (reel, row), 0-based, of a window showing the coin symbol (code ``coin``).

    >>> sorted(coin_cells(((7, 1), (1, 1)), 1))
    [(0, 1), (1, 0), (1, 1)]
    """
    return frozenset((r, i) for r, col in enumerate(window) for i, c in enumerate(col) if c == coin)


def respin_step(held: frozenset, window: Sequence[Sequence[int]], coin: int) -> tuple[frozenset, int]:
    """One respin read literally: the held cells after it and the number of new coins.

    A held cell keeps its coin whatever ``window`` shows there; an empty cell showing the coin symbol
    holds it from then on.

    >>> respin_step(frozenset({(0, 0)}), ((1, 1), (0, 1)), 1)
    (frozenset({(0, 1), (1, 1), (0, 0)}), 2)
    """
    new = coin_cells(window, coin) - held
    return held | new, len(new)


def play_feature(held: frozenset, windows: Iterable, coin: int, respins: int, cells: int) -> tuple[frozenset, int]:
    """Play the respins literally from the triggering window's ``held`` cells, taking each respin's
    window from ``windows`` as needed; returns (the cells held at the end, respins played).

    The counter starts at ``respins``; after each respin it is set back to ``respins`` if a new coin
    landed, else it drops by one; the feature ends at 0 or when all ``cells`` hold a coin.

    >>> play_feature(frozenset({(0, 0)}), iter([((0,), (0,)), ((0,), (1,))]), 1, 1, 2)
    (frozenset({(0, 0)}), 1)
    >>> play_feature(frozenset({(0, 0)}), iter([((0,), (1,))]), 1, 1, 2)
    (frozenset({(1, 0), (0, 0)}), 1)
    """
    counter, played = respins, 0
    it = iter(windows)
    while counter > 0 and len(held) < cells:
        held, new = respin_step(held, next(it), coin)
        played += 1
        counter = respins if new else counter - 1
    return held, played


def feature_win(config: HoldAndWinConfig, base_values: Sequence[CoinValue], respin_values: Sequence[CoinValue],
                cells: int) -> int:
    """The feature's win read literally: every held coin's value (the triggering window's coins drawn from
    ``weights.base``, each coin landed in a respin from ``weights.respin``), plus ``full`` when all
    ``cells`` hold a coin.

    >>> c = HoldAndWinConfig("C", 1, "respin", 1, (CoinValue(5), CoinValue(100, "Mini")), (1, 1), (1, 1),
    ...                      full=CoinValue(1000, "Grand"))
    >>> feature_win(c, [CoinValue(5)], [CoinValue(100, "Mini")], 2), feature_win(c, [CoinValue(5)], [], 2)
    (1105, 5)
    """
    held = len(base_values) + len(respin_values)
    return sum(v.credits for v in base_values) + sum(v.credits for v in respin_values) + (
        config.full_credits if held == cells else 0)


# ---------------------------------------------------------------------------
# keys and validation
# ---------------------------------------------------------------------------
def _coin_value(t, path: tuple, text, jackpots: dict) -> CoinValue:
    m = _AWARD.match(text) if isinstance(text, str) else None
    if not m:
        raise t.error(path, f"value {text!r} is not 'credits N' or 'jackpot NAME'")
    kind, arg = m.groups()
    if kind == "jackpot":
        if arg not in jackpots:
            raise t.error(path, f"value {text!r} names unknown jackpot {arg!r} ([jackpots]: {', '.join(jackpots) or 'none'})")
        return CoinValue(int(jackpots[arg]), arg)
    if not arg.isdigit():
        raise t.error(path, f"value {text!r}: N must be an integer >= 0")
    return CoinValue(int(arg))


def _weights(t, spec: dict, path: tuple, table: str, n: int) -> tuple[int, ...]:
    wt = spec.get("weights")
    if not isinstance(wt, dict):
        raise t.error(path + ("weights",), "needs weights.base and weights.respin (integer weights of values)")
    if table not in wt:
        raise t.error(path + ("weights",), f"weights.{table} is missing")
    w = t.get(wt, path + ("weights",), table, "ints")
    if len(w) != n or any(x < 0 for x in w) or not sum(w):
        raise t.error(path + ("weights", table), f"needs {n} weights >= 0 (one per value), not all 0")
    return tuple(w)


def parse(t, doc: dict, model) -> HoldAndWinConfig | None:
    """The ``[hold_and_win]`` table and its coin symbol, validated (each error names file, row and column)."""
    coins = [(n, s) for n, s in doc.get("symbols", {}).items() if isinstance(s, dict) and s.get("class") == COIN]
    spec = doc.get("hold_and_win")
    if spec is None:
        if coins:
            raise t.error(("symbols", coins[0][0], "class"), "a coin symbol needs a [hold_and_win] table")
        return None
    path = ("hold_and_win",)
    if not isinstance(spec, dict):
        raise t.error(path, "must be a table")
    unknown = [k for k in spec if k not in TABLE_KEYS]
    if unknown:
        raise t.error(path + (unknown[0],), f"unknown key (known: {', '.join(TABLE_KEYS)})")
    symbol = t.get(spec, path, "symbol", str)
    if len(coins) != 1:
        where = ("symbols", coins[1][0], "class") if coins else path + ("symbol",)
        raise t.error(where, f"needs exactly one coin-class symbol, the game has {len(coins)}")
    if symbol != coins[0][0]:
        raise t.error(path + ("symbol",), f"names {symbol!r}, but the coin-class symbol is {coins[0][0]!r}")
    cells = model.reels * model.rows
    trigger = t.get(spec, path, "trigger", int)
    if not 1 <= trigger <= cells:
        raise t.error(path + ("trigger",), f"must be between 1 and {cells} (the window's cells)")
    strips = t.get(spec, path, "strips", str)
    if strips not in model.strip_files:
        raise t.error(path + ("strips",), f"names no key of [strips] ({', '.join(model.strip_files)})")
    respins = t.get(spec, path, "respins", int)
    over = _limits.exceeds("spins", respins)
    if over is not None:
        raise t.error(path + ("respins",), _limits.refusal("spins", respins, over, "respins"))
    if respins < 1:
        raise t.error(path + ("respins",), "must be at least 1")
    jackpots = dict(getattr(model, "jackpots", {}) or {})
    cpath = ("symbols", symbol)
    cspec = coins[0][1]
    texts = cspec.get("values")
    if not isinstance(texts, list) or not texts:
        raise t.error(cpath + ("values",), "must be a non-empty list of 'credits N' or 'jackpot NAME'")
    values = tuple(_coin_value(t, cpath + ("values",), x, jackpots) for x in texts)
    base = _weights(t, cspec, cpath, "base", len(values))
    respin = _weights(t, cspec, cpath, "respin", len(values))
    extra = [k for k in cspec["weights"] if k not in ("base", "respin")]
    if extra:
        raise t.error(cpath + ("weights", extra[0]), "unknown weight table (known: base, respin)")
    full = None
    if "full" in spec:
        full = _coin_value(t, path + ("full",), t.get(spec, path, "full", str), jackpots)
    return HoldAndWinConfig(symbol, trigger, strips, respins, values, base, respin, full)


class HoldAndWin(Rule):
    """Hold-and-win: exact by the chain over per-reel held cells times respins left
    (:mod:`markov.hold_and_win`), combined with the base spin split by the coins' cells
    (:mod:`exact.hold_and_win`).

    >>> from exact.rules.base import ANALYSES
    >>> sorted(HoldAndWin.implements)
    ['check', 'diff', 'report', 'spin']
    """

    name = "hold and win"
    keys = '[hold_and_win] symbol, trigger, strips, respins, full; [symbols.C] class = "coin", values, weights'
    implements = frozenset({"report", "check", "diff", "spin"})
    narrows = frozenset({"report", "check", "diff", "spin"})
    parses = (("hold_and_win",),)
    adds_to_round = True
    component = "hold_and_win"
    component_words = "hold-and-win feature"

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if analysis in cls.implements:
            why = cls.unmodelled(model)
            if why:
                return f"hold and win with {why}"
        return super().refusal(model, analysis)

    @staticmethod
    def unmodelled(model) -> str | None:
        """The part of the rest of the game the exact hold-and-win figures do not model, or None."""
        if model.evaluation != "ways":
            return f"{model.evaluation} evaluation"
        checks = (
            (model.trigger, "free spins"), (model.respin is not None, "a respin"), (model.wheels, "prize wheels"),
            (model.modes, "bet modes"), (model.buys, "bought features"),
            (model.of_kind("key") or model.of_kind("fish"), "KEY/FISH collect"),
            (any(s.has_random_multiplier for s in model.of_kind("wild")) or combination_wilds(model),
             "drawn or combination WILD multipliers"),
            (any(s.pays and any(s.pays) for s in model.of_kind("scatter")), "scatter pays"),
        )
        other = next((c.rule for c in model.rules if c.rule != HoldAndWin.name), None)
        checks += ((other is not None, f"the {other} rule"),)
        return next((why for cond, why in checks if cond), None)


plugins.register_symbol_class(COIN, CLASS_KEYS)
plugins.register(HoldAndWin.name, HoldAndWin.parses, parse)
