"""Free spins awarded by line wins (``[symbols.X] awards_spins = { base = { 3 = 10 }, free_spins = { 3 = 10 } }``).

A winning payline (pay above 0) whose paying symbol is X and whose run is n awards the spins of X's table
for the phase (the entry of the largest count n reaches; none below the first), summed over every winning
line of the spin.  In the base game the awards start the free spins; in a free spin they add spins (a
retrigger; ``[free_spins] retrigger_cap`` caps it as usual).  ``[free_spins]`` then has no ``trigger`` (nor
``retrigger``): the line wins are the only way in.  Payline games without scatter symbols, one free-spin
level.

Literal reading: :func:`awarded` (the spins a spin's line wins award).  Fast path: a spin's award is a sum
over lines of a function of each line's outcome, so the phase's figures split by the spins awarded come
from one chain over reels on the joint state of every payline (:func:`exact.lines.award_split`: each line's
scan class, ended lines dropping out with their pay and award), exact integer counts and win sums; the
round then reads that split as the free spins' trigger and retrigger (``awards_by_spins``, as the cascade's
awards on every fall).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exact.rules.base import Rule
from strips import plugins
from strips.model import count_table_value

__all__ = ["LineAwardsConfig", "LineAwards", "awarded", "award_of", "phase_awards", "spins_tables"]

PHASES = ("base", "free_spins")


@dataclass(frozen=True)
class LineAwardsConfig:
    """``tables``: per phase (``base``, ``free_spins``), ((symbol name, ((run, spins), ...)), ...)."""

    tables: tuple
    rule: str = "free spins awarded by line wins"

    @property
    def rewrites(self) -> dict:
        """The round reads the spins awarded as the trigger and the retrigger (indexed by the spins)."""
        out = {"trigger": ((1, 1),)}
        if any(t for phase, t in self.tables if phase == "free_spins"):
            out["retrigger"] = ((1, 1),)
        return out


def parse_awards(t, doc: dict, model) -> LineAwardsConfig | None:
    """Every ``[symbols.X] awards_spins``: on a pay symbol, a table by phase of { run = spins }.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(extra="[symbols.C]\\nclass = 'pay'\\npays = [0, 0, 1]\\nawards_spins = { bonus = { 3 = 1 } }"))
    game.toml:23:18: symbols.C.awards_spins.bonus: unknown phase 'bonus' (base, free_spins)
    """
    found = {p: [] for p in PHASES}
    any_key = False
    for name, spec in (doc.get("symbols") or {}).items():
        if not isinstance(spec, dict) or "awards_spins" not in spec:
            continue
        any_key = True
        path = ("symbols", name, "awards_spins")
        if model.symbol(name).kind != "pay":
            raise t.error(path, f"only a pay symbol's line wins award spins ({name} is class {model.symbol(name).kind!r})")
        table = t.get(spec, ("symbols", name), "awards_spins", dict)
        for phase in table:
            if phase not in PHASES:
                raise t.error(path + (phase,), f"unknown phase {phase!r} (base, free_spins)")
            runs = t.get(table, path, phase, dict)
            pairs = []
            for k in runs:
                if not k.isdigit() or not 1 <= int(k) <= model.reels:
                    raise t.error(path + (phase, k), f"keys must be runs 1 to {model.reels}")
                v = t.get(runs, path + (phase,), k, int)
                if v < 0:
                    raise t.error(path + (phase, k), f"spins must be >= 0, got {v}")
                pairs.append((int(k), v))
            if pairs:
                found[phase].append((name, tuple(sorted(pairs))))
    if not any_key:
        return None
    where = ("symbols", next(n for n, s in doc["symbols"].items() if isinstance(s, dict) and "awards_spins" in s),
             "awards_spins")
    fs = doc.get("free_spins")
    if model.evaluation != "lines":
        raise t.error(where, "unsupported rule: free spins awarded by line wins outside a payline game")
    if not isinstance(fs, dict):
        raise t.error(where, "needs [free_spins] (the spins it awards are played there)")
    for key in ("trigger", "retrigger", "multiplier_by_trigger", "trigger_reels"):
        if key in fs:
            raise t.error(("free_spins", key), f"unsupported rule: {key} with free spins awarded by line wins "
                          "(the line wins award the spins)")
    if model.of_kind("scatter") or any(s.counts_as_scatter for s in model.symbols):
        raise t.error(where, "unsupported rule: free spins awarded by line wins in a game with scatter symbols")
    if len(model.levels) != 1:
        raise t.error(where, "unsupported rule: free spins awarded by line wins with several levels")
    if not found["base"]:
        raise t.error(where, "awards no spins in the base game: the free spins would never start")
    return LineAwardsConfig(tuple((p, tuple(found[p])) for p in PHASES))


def phase_awards(model, phase) -> dict | None:
    """{symbol name: ((run, spins), ...)} of ``phase`` (a base or free-spin phase), or None without the rule.

    >>> from strips.loader import load_math_set
    >>> m = load_math_set("rules_page").model
    >>> phase_awards(m, m.base_phase) is None
    True
    """
    cfg = LineAwards.config(model)
    if cfg is None:
        return None
    key = "base" if phase.name == "base" else "free_spins"
    return dict(dict(cfg.tables)[key])


def award_of(table: dict, symbol: str, run: int) -> int:
    """The spins a winning line of ``run`` of ``symbol`` awards under ``table`` (:func:`phase_awards`).

    >>> award_of({"CHERRY": ((2, 1), (4, 2), (5, 5))}, "CHERRY", 3), award_of({}, "A", 5)
    (1, 0)
    """
    return count_table_value(table.get(symbol, ()), run)


def awarded(model, phase, lines) -> int:
    """The literal reading: the spins the line wins ``lines`` (:class:`exact.rules.LineWin`) of a spin of
    ``phase`` award, summed over the winning lines (0 without the rule).

    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(rules=(LineAwardsConfig((("base", (("A", ((3, 2),)),)), ("free_spins", ()))),))
    >>> awarded(m, SimpleNamespace(name="base"), [SimpleNamespace(symbol="A", run=3, pay=10)] * 2)
    4
    """
    table = phase_awards(model, phase)
    if table is None:
        return 0
    return sum(award_of(table, w.symbol, w.run) for w in lines if w.pay > 0)


def spins_tables(model):
    """(trigger, retrigger) of the simulator when the line wins award the free spins: int64 arrays indexed by the
    spins a spin awards (index s: s spins), up to the most a spin can award (every payline its phase's largest
    award); retrigger None when the free spins award none.  None without the rule.

    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(paylines=((0, 0, 0),) * 2, rules=(LineAwardsConfig((("base", (("A", ((3, 2),)),)),
    ...                                                                          ("free_spins", ()))),))
    >>> [None if t is None else t.tolist() for t in spins_tables(m)]
    [[0, 1, 2, 3, 4], None]
    """
    cfg = LineAwards.config(model)
    if cfg is None:
        return None
    out = []
    for phase, table in cfg.tables:
        top = len(model.paylines) * max((s for _, pairs in table for _, s in pairs), default=0)
        out.append(np.arange(top + 1, dtype=np.int64) if top else None)
    return out[0] if out[0] is not None else np.zeros(1, dtype=np.int64), out[1]


class LineAwards(Rule):
    """Free spins awarded by line wins.

    >>> from strips.loader import load_math_set
    >>> LineAwards.present(load_math_set("rules_page").model)
    False
    """

    name = "free spins awarded by line wins"
    keys = "[symbols.X] awards_spins = { base = { RUN = SPINS }, free_spins = { RUN = SPINS } }"
    #: The simulation: the window evaluator counts the spins the line wins award as the trigger count and the
    #: simulator's trigger and retrigger read it as the spins (:func:`spins_tables`).
    implements = frozenset({"report", "check", "chain", "diff", "spin", "simulate"})
    parses = (("symbols", "*", "awards_spins"),)

    @classmethod
    def spin_json(cls, model, phase, window, res) -> dict:
        """The spins the spin's line wins award, and which line awards what."""
        table = phase_awards(model, phase)
        if table is None:
            return {}
        each = [{"line": w.line, "symbol": w.symbol, "run": w.run, "spins": award_of(table, w.symbol, w.run)}
                for w in res.lines if w.pay > 0 and award_of(table, w.symbol, w.run)]
        return {"spins_by_line_wins": {"spins": sum(e["spins"] for e in each), "lines": each}}

    @classmethod
    def spin_text(cls, model, phase, window, res) -> dict[str, list[str]]:
        """``free spins     3 start after this spin (by line wins: line 2 CHERRY x2 1, ...)``."""
        table = phase_awards(model, phase)
        if table is None:
            return {}
        each = [(w, award_of(table, w.symbol, w.run)) for w in res.lines if w.pay > 0]
        each = [(w, n) for w, n in each if n]
        if not each:
            return {"starts": [f"{'free spins':<14} none awarded by line wins"]}
        total = sum(n for _, n in each)
        what = "start" if phase.name == "base" else "more"
        return {"starts": [f"{'free spins':<14} {total} {what} after this spin, awarded by line wins: "
                           + ", ".join(f"line {w.line} {w.symbol} x{w.run} {n}" for w, n in each)]}
    #: The trigger tables' rows are the spins a spin's line wins award (row "3 by line wins": 3 spins).
    trigger_words = "by line wins"


plugins.register(LineAwards.name, LineAwards.parses, parse_awards)
