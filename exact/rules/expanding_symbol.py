"""The expanding symbol of the free spins (``[free_spins] expanding_symbol = { draw = { A = 1, K = 1, ... },
first_line_pays = false }``; the Book of Ra rule).

At the start of the free spins one pay symbol is drawn with probability weight / total (kept through
retriggers).  In each free spin, when it shows on n reels of the window (cells of the symbol itself; WILDs
do not count) and its n-of-a-kind pays more than 0, it expands over those reels and pays that n-of-a-kind
on every payline played, in addition to the ordinary line wins; with ``first_line_pays = false`` a payline
whose reel-1 cell shows the drawn symbol pays no ordinary win (a line that starts with WILDs followed by it
does).  Payline games, left-to-right pays, one free-spin level (with or without a retrigger).

Literal reading: a free spin with symbol d drawn is read on :func:`drawn_model` (the game carrying
:class:`DrawnSymbolConfig`): the composed payline reading voids a line whose reel-1 cell shows d
(:mod:`exact.rules.line_reading`) and adds d's expanded wins
(:func:`exact.rules.line_reading.expanded_symbol_wins`).

Fast path: given d, the expanded pay depends on the window through the number of reels showing d only, a
sum of per-reel 0/1 counts; the payline chains of :mod:`exact.lines` carry it as one more count tag
(:func:`counted_pays`: credits L x pays[n - 1] for n reels, L paylines) beside the scatter counts, so
every figure of the spin (moments, the split by scatter count, the hit frequency) is exact per d.  The
free-spin level is the mixture over d (:func:`feature_draws`): each spin's figures are the weighted means,
and the feature (:mod:`markov.feature`) is the mixture of the d features (the draw is made once per
feature), so the round's second moment is exact too.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from exact.rules.base import Rule
from strips import plugins

__all__ = ["ExpandingSymbolConfig", "DrawnSymbolConfig", "ExpandingSymbol", "drawn_model", "feature_draws",
           "counted_pays", "drawn_symbol", "spin_draw", "expansion"]


@dataclass(frozen=True)
class ExpandingSymbolConfig:
    """``draw``: (symbol name, integer weight) of the draw at the start of the free spins;
    ``first_line_pays``: whether a line whose reel-1 cell shows the drawn symbol pays its ordinary win."""

    draw: tuple
    first_line_pays: bool = True
    rule: str = "expanding symbol"


@dataclass(frozen=True)
class DrawnSymbolConfig:
    """The symbol drawn for one feature, on the model a free spin is read with (:func:`drawn_model`)."""

    symbol: str
    first_line_pays: bool = True
    rule: str = "the drawn expanding symbol"


def parse_expanding_symbol(t, doc: dict, model) -> ExpandingSymbolConfig | None:
    """``[free_spins] expanding_symbol = { draw = { NAME = weight, ... }, first_line_pays = true | false }``.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(extra='[symbols.S]\\nclass = "scatter"\\nreels = { base = [1, 2, 3] }\\n'
    ...       '[free_spins]\\nstrips = "base"\\ntrigger = { 3 = 5 }\\nexpanding_symbol = { draw = { W = 1 } }\\n'
    ...       '[[free_spins.levels]]\\nmultiplier = 1'))
    game.toml:26:22: free_spins.expanding_symbol.draw.W: W is not a pay symbol (the drawn symbol pays its n-of-a-kind)
    """
    fs = doc.get("free_spins") or {}
    if "expanding_symbol" not in fs:
        return None
    path = ("free_spins", "expanding_symbol")
    spec = t.get(fs, ("free_spins",), "expanding_symbol", dict)
    for k in spec:
        if k not in ("draw", "first_line_pays"):
            raise t.error(path + (k,), f"unknown key {k!r} of the expanding symbol (draw, first_line_pays)")
    if model.evaluation != "lines":
        raise t.error(path, "unsupported rule: an expanding symbol outside a payline game")
    if any(getattr(c, "rule", None) in ("both-way pays", "centre pays") for c in model.rules) or \
            (doc.get("lines") or {}).get("direction", "left") != "left":
        raise t.error(path, "unsupported rule: an expanding symbol with both-way or centre pays")
    if len(model.levels) != 1:
        raise t.error(path, "unsupported rule: an expanding symbol with several free-spin levels")
    draw = t.get(spec, path, "draw", dict)
    if not draw:
        raise t.error(path + ("draw",), "needs at least one symbol")
    out = []
    for name in draw:
        w = t.get(draw, path + ("draw",), name, int)
        if name not in {s.name for s in model.symbols} or model.symbol(name).kind != "pay":
            raise t.error(path + ("draw", name), f"{name} is not a pay symbol (the drawn symbol pays its n-of-a-kind)")
        if w < 0:
            raise t.error(path + ("draw", name), f"weight must be >= 0, got {w}")
        out.append((name, w))
    if not sum(w for _, w in out):
        raise t.error(path + ("draw",), "the weights sum to 0")
    first = t.get(spec, path, "first_line_pays", bool, True)
    return ExpandingSymbolConfig(tuple(out), first)


def drawn_symbol(model) -> DrawnSymbolConfig | None:
    """The :class:`DrawnSymbolConfig` a model of one draw carries (None on the game itself)."""
    return next((c for c in getattr(model, "rules", ()) if isinstance(c, DrawnSymbolConfig)), None)


def drawn_model(model, symbol: str):
    """The game a free spin is read with when ``symbol`` was drawn (its :class:`DrawnSymbolConfig` added).

    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(rules=(ExpandingSymbolConfig((("A", 1),), False),))
    >>> drawn_model(m, "A").rules[-1]
    DrawnSymbolConfig(symbol='A', first_line_pays=False, rule='the drawn expanding symbol')
    """
    cfg = ExpandingSymbol.config(model)
    extra = (DrawnSymbolConfig(symbol, cfg.first_line_pays),)
    if dataclasses.is_dataclass(model):
        return dataclasses.replace(model, rules=model.rules + extra)
    return type(model)(**{**vars(model), "rules": model.rules + extra})


def feature_draws(model, phase) -> tuple:
    """((integer weight, the model of that draw), ...) of a free-spin phase of a game with the rule (weight-0
    symbols left out); () for the base game or without the rule.

    >>> from strips.loader import load_math_set
    >>> m = load_math_set("rules_page").model
    >>> feature_draws(m, m.level_phase(m.levels[0]))
    ()
    """
    cfg = ExpandingSymbol.config(model)
    if cfg is None or not phase.name.startswith("level") or drawn_symbol(model) is not None:
        return ()
    return tuple((w, drawn_model(model, name)) for name, w in cfg.draw if w)


def counted_pays(model) -> tuple:
    """The pays of a free spin by the number of reels showing a symbol, for the payline chains: ((symbol code,
    credits for 1..reels reels showing it), ...): the drawn expanding symbol's n-of-a-kind on every payline.

    >>> from types import SimpleNamespace
    >>> from strips.model import Symbol
    >>> m = SimpleNamespace(rules=(DrawnSymbolConfig("A"),), paylines=((0, 0, 0),) * 2, code=lambda n: 0,
    ...                     symbol=lambda n: Symbol("A", "pay", (0, 2, 10)))
    >>> counted_pays(m)
    ((0, (0, 4, 20)),)
    """
    cfg = drawn_symbol(model)
    if cfg is None:
        return ()
    lines = len(model.paylines)
    return ((model.code(cfg.symbol), tuple(lines * p for p in model.symbol(cfg.symbol).pays)),)


def spin_draw(model, phase, name: str | None):
    """The game one spin of ``phase`` is read with (``rtp spin --draw NAME``): in a free spin of a game with
    the rule, the model of the symbol ``name`` drawn (default: the first of the draw table with a positive
    weight); ``model`` itself elsewhere.

    Raises
    ------
    ValueError
        ``name`` given where no symbol is drawn, or not a symbol of the draw table.

    >>> from strips.loader import load_math_set
    >>> m = load_math_set("rules_page").model
    >>> spin_draw(m, m.base_phase, None) is m
    True
    """
    draws = feature_draws(model, phase)
    if not draws:
        if name is not None:
            raise ValueError("--draw: only a free spin of a game with an expanding symbol draws a symbol")
        return model
    names = [drawn_symbol(m).symbol for _, m in draws]
    if name is None:
        return draws[0][1]
    if name not in names:
        raise ValueError(f"--draw must be one of {', '.join(names)} (the expanding symbol's draw), got {name!r}")
    return draws[names.index(name)][1]


def expansion(model, window) -> tuple | None:
    """(symbol, the 1-based reels showing it, its n-of-a-kind pay per line, paylines) of the drawn expanding
    symbol in ``window`` (names) when it expands and pays, else None (no draw, or it does not pay).

    >>> from types import SimpleNamespace
    >>> from strips.model import Symbol
    >>> m = SimpleNamespace(rules=(DrawnSymbolConfig("A"),), paylines=((0, 0, 0),) * 2,
    ...                     symbol=lambda n: Symbol("A", "pay", (0, 2, 10)))
    >>> expansion(m, [["A"], ["B"], ["A"]])
    ('A', (1, 3), 2, 2)
    """
    cfg = drawn_symbol(model)
    if cfg is None:
        return None
    reels = tuple(r + 1 for r, col in enumerate(window) if cfg.symbol in col)
    pay = model.symbol(cfg.symbol).pays[len(reels) - 1] if reels else 0
    return (cfg.symbol, reels, pay, len(model.paylines)) if pay > 0 else None


_IMPLEMENTS = frozenset({"report", "check", "chain", "diff", "spin"})


class ExpandingSymbol(Rule):
    """The expanding symbol of the free spins.

    >>> from strips.loader import load_math_set
    >>> ExpandingSymbol.present(load_math_set("rules_page").model)
    False
    """

    name = "expanding symbol"
    keys = "[free_spins] expanding_symbol = { draw, first_line_pays }"
    implements = _IMPLEMENTS
    parses = (("free_spins", "expanding_symbol"),)

    @classmethod
    def spin_json(cls, model, phase, window, res) -> dict:
        """The drawn symbol of a free spin and its expansion (reels, pay per line, lines, credits) or None."""
        cfg = drawn_symbol(model)
        if cfg is None:
            return {}
        ex = expansion(model, window)
        return {"expanding_symbol": {"drawn": cfg.symbol, "expands": None if ex is None else {
            "reels": list(ex[1]), "pay_per_line": ex[2], "lines": ex[3], "credits": ex[2] * ex[3]}}}

    @classmethod
    def spin_text(cls, model, phase, window, res) -> dict[str, list[str]]:
        """``expanding     K drawn: on reels 1, 3, 4 it expands and pays 3 of a kind on each of 10 lines (...)``."""
        cfg = drawn_symbol(model)
        if cfg is None:
            return {}
        ex = expansion(model, window)
        if ex is None:
            return {"pays": [f"{'expanding':<14} {cfg.symbol} drawn (--draw): shown on too few reels to pay, "
                             f"no expansion"]}
        sym, reels, pay, lines = ex
        return {"pays": [f"{'expanding':<14} {sym} drawn (--draw): on reels {', '.join(map(str, reels))} it "
                         f"expands and pays {len(reels)} of a kind on each of {lines} lines ({lines} x {pay} = "
                         f"{lines * pay} credits, in the line wins above)"]}


plugins.register(ExpandingSymbol.name, ExpandingSymbol.parses, parse_expanding_symbol)
