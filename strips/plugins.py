"""The loader's plug-in point: ``game.toml`` keys parsed by rule modules above ``strips``.

``strips`` is the bottom layer and imports no rule.  A rule module of
:mod:`exact.rules` that owns keys of its own registers, on import, the key
paths it parses and its parser; the loader then accepts those keys (any other
unknown key stays refused as an unsupported rule) and stores what the parser
returns on :attr:`strips.model.GameModel.rules`.  Importing :mod:`exact`
registers every rule of the registry (a provider, :func:`provide`, run before the
first game is parsed, so ``import exact`` itself stays light); a program that
loads through ``strips.loader`` alone, without :mod:`exact`, sees those keys refused.

A parser is ``parser(t, doc, model) -> config or None``: ``t`` locates keys
for errors (``t.error(path, message)`` is a :class:`strips.errors.MathSetError`
naming file, row and column), ``doc`` is the whole parsed TOML document,
``model`` the :class:`~strips.model.GameModel` parsed so far; the config is a
frozen dataclass with a ``rule`` attribute (the rule's name).
"""
from __future__ import annotations

from typing import Callable

__all__ = ["register", "register_core", "core_parsers", "keys_of", "parsers", "register_game", "game_parser", "register_award_starts", "award_starts",
           "provide", "load"]

_PARSERS: dict[str, tuple[tuple[tuple[str, ...], ...], Callable]] = {}
_STARTS: dict[str, Callable] = {}


def register_award_starts(name: str, starts: Callable) -> None:
    """Register the named starts of free spins that rule ``name`` defines: ``starts(doc) -> names`` (the
    third word of a wheel award ``free_spins 6 go_large`` must be one of them).

    >>> register_award_starts("example", lambda doc: tuple(doc.get("example_starts", ())))
    >>> award_starts({"example_starts": ["go"]})
    ('go',)
    >>> _ = _STARTS.pop("example")
    """
    _STARTS[name] = starts


def award_starts(doc: dict) -> tuple[str, ...]:
    """Every start of free spins the registered rules define in the parsed document ``doc``."""
    return tuple(dict.fromkeys(n for f in _STARTS.values() for n in f(doc)))


_GAMES: dict[str, tuple[str, Callable]] = {}
_PROVIDERS: list[Callable[[], None]] = []


def provide(provider: Callable[[], None]) -> None:
    """Add ``provider()``, which registers rules (imports their modules), to run once before the
    first game is parsed (:func:`load`).

    >>> seen = []
    >>> provide(lambda: seen.append("registered"))
    >>> load(); load(); seen
    ['registered']
    """
    _PROVIDERS.append(provider)


def load() -> None:
    """Run every provider not run yet (the loader calls this before it parses a game)."""
    while _PROVIDERS:
        _PROVIDERS.pop(0)()


def register(name: str, paths: tuple[tuple[str, ...], ...], parser: Callable) -> None:
    """Register the parser of rule ``name`` for the key paths ``paths`` (``("game", "max_win")``,
    or ``("cascade",)`` for a whole table).  Registering a name again replaces it.

    >>> register("example", (("example_table",),), lambda t, doc, model: None)
    >>> "example_table" in keys_of(())
    True
    >>> _ = _PARSERS.pop("example")
    """
    _PARSERS[name] = (tuple(tuple(p) for p in paths), parser)


_CORE: dict[str, tuple[tuple[tuple[str, ...], ...], Callable]] = {}


def register_core(name: str, paths: tuple[tuple[str, ...], ...], parser: Callable) -> None:
    """Register the parser of rule ``name`` for keys whose values are fields of the core
    :class:`~strips.model.GameModel` (``[free_spins] trigger_reels``), or that only check the core's keys
    against the rule (the weight tables of a drawn WILD multiplier): ``parser(t, doc, model) -> dict`` of
    the fields to set (``{}``: nothing to set), run on the game as soon as its core is parsed, before the
    round's tables (:func:`core_parsers`).  No configuration is kept on ``model.rules``, so the game's
    fingerprint is the same as when the core parsed these keys.

    >>> register_core("example", (("free_spins", "example_key"),), lambda t, doc, model: {})
    >>> "example_key" in keys_of(("free_spins",)), len(core_parsers()) > 0
    (True, True)
    >>> _ = _CORE.pop("example")
    """
    _CORE[name] = (tuple(tuple(p) for p in paths), parser)


def core_parsers() -> tuple[Callable, ...]:
    """Every parser registered with :func:`register_core`, in registration order."""
    return tuple(parser for _, parser in _CORE.values())


def keys_of(table: tuple[str, ...]) -> tuple[str, ...]:
    """The keys registered rules parse directly inside ``table`` (``()`` = the document's top level)."""
    n = len(table)
    return tuple(dict.fromkeys(p[n] for paths, _ in (*_PARSERS.values(), *_CORE.values()) for p in paths
                               if len(p) == n + 1 and p[:n] == table))


def parsers() -> tuple[Callable, ...]:
    """Every registered parser, in registration order."""
    return tuple(parser for _, parser in _PARSERS.values())


# ---------------------------------------------------------------------------
# evaluations and symbol classes of rule modules
# ---------------------------------------------------------------------------
_EVALUATIONS: dict[str, dict] = {}
_CLASSES: dict[str, tuple[str, ...]] = {}


def register_evaluation(name: str, pays_by_cells: bool = True, wild_pays: bool = False) -> None:
    """Register ``[game] evaluation = name`` of a rule module (``"anywhere"``, ``"clusters"``).

    ``pays_by_cells``: a pay symbol's ``pays`` list is indexed by a count of cells (1 .. reels x rows
    entries) rather than by reels; ``wild_pays``: a WILD may have ``pays`` of its own.

    >>> register_evaluation("example_eval")
    >>> "example_eval" in evaluations(), evaluation("example_eval")["pays_by_cells"]
    (True, True)
    >>> _ = _EVALUATIONS.pop("example_eval")
    """
    _EVALUATIONS[name] = {"pays_by_cells": pays_by_cells, "wild_pays": wild_pays}


def evaluations() -> tuple[str, ...]:
    """The evaluations registered by rule modules."""
    return tuple(_EVALUATIONS)


def evaluation(name: str) -> dict | None:
    """The registered properties of evaluation ``name`` (None: a core evaluation or unknown)."""
    return _EVALUATIONS.get(name)


def register_symbol_class(name: str, keys: tuple[str, ...]) -> None:
    """Register ``[symbols.X] class = name`` of a rule module with the keys its table may hold (besides
    ``class``, ``aliases`` and ``reels``, which the loader reads); the rule's parser reads the rest.

    >>> register_symbol_class("example_class", ("values",))
    >>> symbol_classes()["example_class"]
    ('values',)
    >>> _ = _CLASSES.pop("example_class")
    """
    _CLASSES[name] = tuple(keys)


def symbol_classes() -> dict[str, tuple[str, ...]]:
    """Symbol class -> its keys, for the classes registered by rule modules."""
    return dict(_CLASSES)
def register_game(name: str, table: str, parser: Callable) -> None:
    """Register rule ``name`` as the parser of a whole game file that holds the top-level ``table``
    (``"grid"``: a grid of independent cells has neither ``[game] reels/rows`` nor ``[strips]``).
    ``parser(t, doc) -> GameModel``; the loader hands it such a file instead of parsing reels and strips.

    >>> register_game("example", "example_grid", lambda t, doc: "a model")
    >>> game_parser({"example_grid": {}})(None, {}), game_parser({"game": {}})
    ('a model', None)
    >>> _ = _GAMES.pop("example")
    """
    _GAMES[name] = (table, parser)


def game_parser(doc: dict) -> Callable | None:
    """The registered whole-file parser whose table ``doc`` holds, or None (a reel-strip game)."""
    return next((parser for table, parser in _GAMES.values() if table in doc), None)
