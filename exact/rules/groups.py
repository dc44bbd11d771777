"""Mixed-symbol groups (``[groups.ANYBAR] members, pays``) and blank stops (``class = "blank"``).

A line of mixed members of a group (WILDs substituting for every member; the per-WILD multiplier
applies) pays the group's pays; a line pays only its best combination (a run of one member may pay
more).  A blank is a stop with no symbol: it breaks every run and never pays.

Literal reading: :func:`exact.rules.line_reading.line_wins`; the per-line chains of :mod:`exact.lines`
run the composed scan.
"""
from __future__ import annotations

from dataclasses import dataclass

from exact.rules.line_reading import LineReadingRule
from strips import plugins

__all__ = ["GroupsConfig", "SymbolGroups", "BlankStops"]


@dataclass(frozen=True)
class GroupsConfig:
    """``groups``: (name, member names, pays by run 1..reels) per ``[groups.NAME]``."""

    groups: tuple
    rule: str = "symbol groups"


def parse_groups(t, doc: dict, model) -> GroupsConfig | None:
    """The ``[groups.NAME]`` tables, each bad key refused at its file, row and column.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(extra='[groups.ANY]\\nmembers = ["A", "Z"]\\npays = [0, 0, 1]'))
    game.toml:21:1: groups.ANY.members: 'Z' is not a pay symbol
    """
    table = doc.get("groups")
    if table is None:
        return None
    if not isinstance(table, dict) or not table:
        raise t.error(("groups",), "must hold tables [groups.NAME] with members and pays")
    if model.evaluation != "lines":
        raise t.error(("groups",), "unsupported rule: symbol groups outside a payline game")
    pay_names = {s.name for s in model.pay_symbols}
    out = []
    for name, spec in table.items():
        path = ("groups", name)
        if not isinstance(spec, dict):
            raise t.error(path, "must be a table { members, pays }")
        for k in spec:
            if k not in ("members", "pays"):
                raise t.error(path + (k,), f"unknown key {k!r} of a group (members, pays)")
        members = t.get(spec, path, "members", list)
        if len(members) < 2:
            raise t.error(path + ("members",), "a group needs at least two member symbols")
        for m in members:
            if m not in pay_names:
                raise t.error(path + ("members",), f"{m!r} is not a pay symbol")
        pays = tuple(t.get(spec, path, "pays", "ints"))
        if len(pays) != model.reels or any(p < 0 for p in pays):
            raise t.error(path + ("pays",), f"must be {model.reels} pays >= 0, one per run length")
        out.append((name, tuple(members), pays))
    return GroupsConfig(tuple(out))


class SymbolGroups(LineReadingRule):
    """Mixed-symbol groups.

    >>> from strips.loader import load_math_set
    >>> SymbolGroups.present(load_math_set("rules_page").model)
    False
    """

    name = "symbol groups"
    keys = "[groups.NAME] members, pays"
    parses = (("groups",),)


class BlankStops(LineReadingRule):
    """Blank stops: a symbol of class ``blank``."""

    name = "blank stops"
    keys = '[symbols.X] class = "blank"'

    @classmethod
    def present(cls, model) -> bool:
        return any(s.kind == "blank" for s in model.symbols)


plugins.register(SymbolGroups.name, SymbolGroups.parses, parse_groups)
plugins.register_symbol_class("blank", ())
