"""The loader's plug-in point: ``game.toml`` keys parsed by rule modules above ``strips``.

``strips`` is the bottom layer and imports no rule.  A rule module of
:mod:`exact.rules` that owns keys of its own registers, on import, the key
paths it parses and its parser; the loader then accepts those keys (any other
unknown key stays refused as an unsupported rule) and stores what the parser
returns on :attr:`strips.model.GameModel.rules`.  Importing :mod:`exact`
registers every rule of the registry; a program that loads through
``strips.loader`` alone, without :mod:`exact`, sees those keys refused.

A parser is ``parser(t, doc, model) -> config or None``: ``t`` locates keys
for errors (``t.error(path, message)`` is a :class:`strips.errors.MathSetError`
naming file, row and column), ``doc`` is the whole parsed TOML document,
``model`` the :class:`~strips.model.GameModel` parsed so far; the config is a
frozen dataclass with a ``rule`` attribute (the rule's name).
"""
from __future__ import annotations

from typing import Callable

__all__ = ["register", "keys_of", "parsers"]

_PARSERS: dict[str, tuple[tuple[tuple[str, ...], ...], Callable]] = {}


def register(name: str, paths: tuple[tuple[str, ...], ...], parser: Callable) -> None:
    """Register the parser of rule ``name`` for the key paths ``paths`` (``("game", "max_win")``,
    or ``("cascade",)`` for a whole table).  Registering a name again replaces it.

    >>> register("example", (("example_table",),), lambda t, doc, model: None)
    >>> "example_table" in keys_of(())
    True
    >>> _ = _PARSERS.pop("example")
    """
    _PARSERS[name] = (tuple(tuple(p) for p in paths), parser)


def keys_of(table: tuple[str, ...]) -> tuple[str, ...]:
    """The keys registered rules parse directly inside ``table`` (``()`` = the document's top level)."""
    n = len(table)
    return tuple(dict.fromkeys(p[n] for paths, _ in _PARSERS.values() for p in paths
                               if len(p) == n + 1 and p[:n] == table))


def parsers() -> tuple[Callable, ...]:
    """Every registered parser, in registration order."""
    return tuple(parser for _, parser in _PARSERS.values())
