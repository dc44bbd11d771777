"""A level multiplier that skips the all-WILD line (``[[free_spins.levels]] skip_wild_line = true``).

In a free spin of such a level the level multiplier does not apply to a payline that shows a WILD (one
with its own pays) on every reel, paid that WILD's n-of-a-kind for the whole line; every other line
win (WILD-only runs shorter than the line included) and the scatter pays are multiplied as usual.

Literal reading: :func:`unmultiplied` (what :func:`exact.evaluator.evaluate` takes back from a spin's
multiplied win).  Fast path: the payline scan is the same; its outcomes are valued per phase
(:func:`level_line_values`: the all-WILD outcome at its pay, every other outcome times the level
multiplier, the scatter pays times it apart), so the per-line chains of :mod:`exact.lines` give every
figure exactly.  One level only (a retrigger or a ladder of one level).
"""
from __future__ import annotations

from dataclasses import dataclass

from exact.rules.line_reading import READING_ANALYSES, LineReadingRule
from strips import plugins

__all__ = ["SkipWildLineConfig", "SkipWildLine", "level_line_values", "unmultiplied"]


@dataclass(frozen=True)
class SkipWildLineConfig:
    """``levels``: the level numbers with ``skip_wild_line = true``; ``wilds``: the WILDs with own pays."""

    levels: tuple
    wilds: tuple
    rule: str = "skip_wild_line"


def parse_skip(t, doc: dict, model) -> SkipWildLineConfig | None:
    """``[[free_spins.levels]] skip_wild_line``: a boolean, in a payline game with one level and a paying WILD.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(extra='[symbols.S]\\nclass = "scatter"\\nreels = { base = [1, 2, 3] }\\n'
    ...       '[free_spins]\\nstrips = "base"\\ntrigger = { 3 = 5 }\\n[[free_spins.levels]]\\n'
    ...       'multiplier = 3\\nskip_wild_line = true'))
    game.toml:28:1: free_spins.levels[1].skip_wild_line: needs a WILD with pays of its own (the line it skips pays them)
    """
    levels = []
    for i, lv in enumerate((doc.get("free_spins") or {}).get("levels") or []):
        if not isinstance(lv, dict) or "skip_wild_line" not in lv:
            continue
        path = ("free_spins", "levels", i, "skip_wild_line")
        v = lv["skip_wild_line"]
        if not isinstance(v, bool):
            raise t.error(path, f"must be true or false, got {v!r}")
        if model.evaluation != "lines":
            raise t.error(path, "unsupported rule: skip_wild_line outside a payline game")
        if not any(s.kind == "wild" and s.pays and any(s.pays) for s in model.symbols):
            raise t.error(path, "needs a WILD with pays of its own (the line it skips pays them)")
        if len(model.levels) != 1:
            raise t.error(path, "unsupported rule: skip_wild_line with several levels")
        if v:
            levels.append(i + 1)
    if not levels:
        return None
    return SkipWildLineConfig(tuple(levels), tuple(s.name for s in model.symbols if s.kind == "wild" and s.pays))


def _skips(model, level: int) -> SkipWildLineConfig | None:
    cfg = SkipWildLine.config(model)
    return cfg if cfg is not None and level in cfg.levels else None


def level_line_values(model, phase):
    """(value of an outcome ``(value, label) -> credits``, line multiplier, scatter multiplier) of ``phase``:
    the identity, the phase's multiplier and 1, except on a level with the rule: the all-WILD outcome at
    its pay, every other one times the multiplier, and the multiplier on the scatters instead.

    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(reels=5, rules=(SkipWildLineConfig((1,), ("W",)),))
    >>> f, lm, sm = level_line_values(m, SimpleNamespace(name="level1", multiplier=3))
    >>> f(10000, ("W", 5)), f(10, ("A", 3)), lm, sm
    (10000, 30, 1, 3)
    """
    level = int(phase.name[5:]) if phase.name.startswith("level") else 0
    cfg = _skips(model, level)
    if cfg is None:
        return (lambda value, label: value), phase.multiplier, 1
    m, n = phase.multiplier, model.reels
    return (lambda value, label: value if label and label[0] in cfg.wilds and label[1] == n else value * m), 1, m


def unmultiplied(model, lines, multiplier: int) -> int:
    """The credits a spin's multiplied win takes back: (multiplier - 1) x the pays of the lines (LineWin)
    showing a paying WILD on every reel, when the game's one level has the rule and ``multiplier`` is its
    level's (a base spin has multiplier 1: nothing).

    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(reels=3, rules=(SkipWildLineConfig((1,), ("W",)),))
    >>> unmultiplied(m, [SimpleNamespace(symbol="W", run=3, pay=50)], 3)
    100
    """
    cfg = SkipWildLine.config(model)
    if cfg is None or multiplier == 1:
        return 0
    return (multiplier - 1) * sum(w.pay for w in lines if w.symbol in cfg.wilds and w.run == model.reels)


class SkipWildLine(LineReadingRule):
    """The all-WILD line skips the level multiplier."""

    name = "skip_wild_line"
    keys = "[[free_spins.levels]] skip_wild_line = true"
    #: The simulation's level multiplier multiplies a free spin's whole win (the skipped line is not read apart).
    implements = READING_ANALYSES - {"simulate", "prove"}
    parses = (("free_spins", "levels", "skip_wild_line"),)


plugins.register(SkipWildLine.name, SkipWildLine.parses, parse_skip)
