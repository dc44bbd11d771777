"""Screen fills (``[[screen.fill]] symbols = ["CHERRY", "PLUM"], pays = "x2"``): a window whose every cell
shows one of the listed symbols (the same one) multiplies the spin's line wins by 2.

Several ``[[screen.fill]]`` entries for several symbols (a symbol in one entry only).  The jackpot form
(``pays = "jackpot NAME", instead = true``): a window filled with one of the listed pay symbols pays the
jackpot (its credits in ``[jackpots]``, else 0 in the RTP) and none of the spin's line wins; scatter pays
and triggers stay (a filled window shows no scatter).  The jackpot is paid as is (never multiplied by a
level multiplier).  Its figures are exact in the report, check and spin; every other analysis refuses it.

Literal reading: :func:`filled` (the factor of a window), applied to every line win by the composed
reading (:func:`exact.rules.line_reading.window_line_wins`).  Factorised fast path: a fill of symbol X
needs every reel's window to show X only, so its count is the product over reels of the stops whose
window is all X, and on it every payline reads X on every reel: :func:`fill_terms` gives, per X, that
count, one such stop per reel and each line's win, and :func:`exact.lines.analyse_lines_phase` adds
``(factor - 1) x`` those wins to the first moments and ``(factor^2 - 1) x`` their square to the second.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import prod

import numpy as np

from exact.rules.base import Refusal, rule_config
from exact.rules.line_reading import LineReadingRule, line_wins, parts
from strips import plugins
from strips.model import window_codes

__all__ = ["ScreenFillConfig", "ScreenFill", "fill_terms", "jackpot_odds"]


@dataclass(frozen=True)
class ScreenFillConfig:
    """``fills``: (symbol names, factor, jackpot) per ``[[screen.fill]]`` entry: factor N of ``"xN"`` and
    jackpot None, or factor 0 (the line wins dropped) and jackpot (NAME, credits) of ``"jackpot NAME"``
    (credits 0 when ``[jackpots]`` does not value it)."""

    fills: tuple
    rule: str = "screen fills"


def parse_fills(t, doc: dict, model) -> ScreenFillConfig | None:
    """The ``[[screen.fill]]`` entries, each bad key refused at its file, row and column.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(extra='[[screen.fill]]\\nsymbols = ["A"]\\npays = "x0"'))
    game.toml:22:1: screen.fill[1].pays: must be "xN" with N >= 1 or "jackpot NAME", got 'x0'
    """
    screen = doc.get("screen")
    if screen is None:
        return None
    if not isinstance(screen, dict) or set(screen) - {"fill"}:
        raise t.error(("screen",), "must hold [[screen.fill]] entries only")
    entries = t.get(screen, ("screen",), "fill", list)
    if model.evaluation != "lines":
        raise t.error(("screen", "fill"), "unsupported rule: a screen fill outside a payline game")
    seen, out = set(), []
    for i, e in enumerate(entries):
        path = ("screen", "fill", i)
        if not isinstance(e, dict):
            raise t.error(path, "must be a table { symbols, pays }")
        for k in e:
            if k not in ("symbols", "pays", "instead"):
                raise t.error(path + (k,), f"unknown key {k!r} of a screen fill (symbols, pays, instead)")
        names = t.get(e, path, "symbols", list)
        for n in names:
            if not isinstance(n, str) or n not in {s.name for s in model.symbols}:
                raise t.error(path + ("symbols",), f"{n!r} is not a symbol of the game")
            if n in seen:
                raise t.error(path + ("symbols",), f"{n} fills the screen in two entries")
            seen.add(n)
        pays = t.get(e, path, "pays", str)
        m = re.fullmatch(r"x(\d+)", pays)
        j = re.fullmatch(r"jackpot (\S+)", pays)
        if j:
            if e.get("instead") is not True:
                raise t.error(path + ("pays",), "unsupported rule: a screen fill that pays a jackpot on top of the "
                              "line wins (only instead = true is modelled)")
            for n in names:
                if model.symbol(n).kind != "pay":
                    raise t.error(path + ("symbols",), f"unsupported rule: a jackpot screen fill of {n}, not a "
                                  "pay symbol")
            jackpots = doc.get("jackpots") or {}
            value = jackpots.get(j.group(1), 0) if isinstance(jackpots, dict) else 0
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                value = 0        # the [jackpots] table refuses it itself
            out.append((tuple(names), 0, (j.group(1), value)))
            continue
        if "instead" in e:
            raise t.error(path + ("instead",), "instead = true belongs to a jackpot fill (pays = \"jackpot NAME\")")
        if not m or int(m.group(1)) < 1:
            raise t.error(path + ("pays",), f'must be "xN" with N >= 1 or "jackpot NAME", got {pays!r}')
        out.append((tuple(names), int(m.group(1)), None))
    return ScreenFillConfig(tuple(out))


def fill_terms(model, windows, combination: int = 1):
    """Per fill symbol X that can fill the screen: (stop combinations filled with X, one such stop per
    reel, the factor (0: the line wins are dropped), [(payline index, its win, its label)], the jackpot
    (NAME, credits) paid instead or None) -- the factorised part of the rule.

    ``windows``: per reel, (stops, rows) int codes.  Empty without the rule.

    >>> from exact.rules.line_reading import example_game
    >>> import numpy as np
    >>> m = example_game(extra='[[screen.fill]]\\nsymbols = ["A"]\\npays = "x2"')
    >>> fill_terms(m, [np.array([[0], [1]])] * 3)
    [(1, [0, 0, 0], 2, [(0, 10, ('A', 3))], None)]
    """
    cfg = ScreenFill.config(model)
    if cfg is None:
        return []
    p = parts(model)
    out = []
    for names, factor, jackpot in cfg.fills:
        for name in names:
            x = model.code(name)
            full = [np.flatnonzero((w == x).all(axis=1)) for w in windows]
            count = int(np.prod([len(f) for f in full], dtype=object))
            if not count:
                continue
            wins = []
            for li in range(len(model.paylines)):
                ws = line_wins(p, (x,) * model.reels, combination)
                if ws:
                    wins.append((li, sum(w[0] for w in ws), max(ws, key=lambda w: w[0])[1:3]))
            out.append((count, [int(f[0]) for f in full], factor, wins, jackpot))
    return out


def jackpot_odds(ms, default=None) -> dict:
    """The jackpot fills' odds per base spin: {NAME: (probability (Fraction), credits)}, every window of
    the base strips filled with a symbol of a ``pays = "jackpot NAME"`` entry counted exactly (the
    product over reels of the stops whose window shows that symbol only); empty without one.
    ``default`` (the default mode's result) is not read.  (Not yet printed by the report.)

    >>> from strips.loader import load_math_set
    >>> jackpot_odds(load_math_set("rules_page"))
    {}
    """
    model = ms.model
    if ScreenFill.config(model) is None:
        return {}
    strips = ms.phase_strips(model.base_phase)
    windows = [window_codes(c, model.rows) for c in strips.codes]
    total = prod(w.shape[0] for w in windows)
    out: dict = {}
    for count, _, factor, _, jackpot in fill_terms(model, windows):
        if jackpot is not None:
            p, _ = out.get(jackpot[0], (Fraction(0), jackpot[1]))
            out[jackpot[0]] = (p + Fraction(count, total), jackpot[1])
    for names, _, jackpot in ScreenFill.config(model).fills:
        if jackpot is not None:
            out.setdefault(jackpot[0], (Fraction(0), jackpot[1]))
    return out


class ScreenFill(LineReadingRule):
    """Screen fills.

    >>> from strips.loader import load_math_set
    >>> ScreenFill.present(load_math_set("rules_page").model)
    False
    """

    name = "screen fills"
    keys = '[[screen.fill]] symbols, pays = "xN" or "jackpot NAME", instead = true'
    parses = (("screen",),)

    #: What a game with a jackpot fill runs: the exact figures and the literal spin (the window evaluator
    #: of the simulation, the proof and the comply tables drops the line wins but pays no jackpot).
    jackpot_analyses = frozenset({"report", "check", "spin"})

    @classmethod
    def spin_json(cls, model, phase, window, res) -> dict:
        """The jackpot a filled window pays instead of its line wins (``jackpot``: {name, credits}, or None on a
        window that fills no jackpot), on a game with a jackpot fill."""
        cfg = cls.config(model)
        if cfg is None or not any(j for _, _, j in cfg.fills):
            return {}
        j = getattr(res, "jackpot", None)
        return {"jackpot": {"name": j[0], "credits": j[1]} if j else None}

    @classmethod
    def spin_text(cls, model, phase, window, res) -> dict[str, list[str]]:
        """The jackpot line of a filled window (after the paying combinations)."""
        j = getattr(res, "jackpot", None)
        if not j:
            return {}
        return {"pays": [f"jackpot {j[0]}: {j[1]:,} credits (screen fill, instead of the line wins)"
                         if j[1] else f"jackpot {j[0]}: not valued in [jackpots] (0 credits; screen fill, instead of "
                         "the line wins)"]}

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        cfg = cls.config(model)
        if cfg is not None and any(j for _, _, j in cfg.fills) and analysis not in cls.jackpot_analyses:
            return Refusal("a screen fill that pays a jackpot instead of the line wins (report, check and spin only)")
        if cfg is not None and analysis != "spin" and rule_config(model, "skip_wild_line") is not None:
            # the fill's correction of the filled windows values their lines without the level's skip: not
            # checked against a brute force together, so refused rather than risk a wrong figure
            return Refusal("a screen fill together with skip_wild_line (not modelled together; spin only)")
        return super().refusal(model, analysis)


plugins.register(ScreenFill.name, ScreenFill.parses, parse_fills)
