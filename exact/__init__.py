"""Exact slot maths: the public Python API of ``slot-exact`` (the ``rtp`` command uses the same).

Every exact figure is an int or a ``fractions.Fraction``; floats appear only
for display.  Three calls cover a notebook session:

>>> import exact
>>> p = exact.par_sheet(exact.load_math_set("rules_page"))
>>> print(exact.formatting.percent(p.rtp, 6))
95.999669%
>>> p.figures()["trigger.3"] == p.trigger["3"]
True

* :func:`load_math_set` loads a math set from a directory or by bundled name;
* :func:`math_set` builds one in memory from a game dict and lists of reels,
  with the loader's own validation and errors;
* :func:`par_sheet` computes its :class:`ParSheet`: every exact figure of
  ``rtp report`` as attributes, :meth:`ParSheet.figures` keyed as the JSON
  report, the fingerprint of the parsed maths, a short ``repr`` and an HTML
  view for Jupyter.

Layers (one way down): ``strips`` (model, loader, builder, fingerprint) <-
``markov`` (moments, chains, round) <- ``exact`` (evaluator, engine, PAR
sheet, diff, sensitivity, export) <- ``proofs`` <- ``exact.cli``.
"""
from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path
from typing import Mapping, Sequence

from exact.progress import progress_of
from strips import plugins as _plugins
from strips.errors import MathSetError, UsageError

__version__ = "0.1.0"

#: Public names imported on first use, so ``import exact`` and ``rtp --help`` stay light; a submodule
#: (``exact.engine``, ``exact.sensitivity``, ...) is imported when first read as an attribute.
_LAZY = ("formatting", "ParSheet", "fingerprint", "GameModel", "MathSet", "WinDistribution", "win_distribution",
         "supports", "require")


def __getattr__(name: str):
    """A public name or a submodule of ``exact``, imported when first read (PEP 562).

    Raises
    ------
    AttributeError
        Neither a public name nor a submodule.
    """
    if name == "ParSheet":
        from exact.par import ParSheet as value
    elif name == "fingerprint":
        from strips.fingerprint import fingerprint as value
    elif name in ("GameModel", "MathSet"):
        from strips import model
        value = getattr(model, name)
    elif name in ("WinDistribution", "win_distribution"):
        from exact import distribution
        value = getattr(distribution, name)
    elif name in ("supports", "require"):
        from exact import rules
        value = getattr(rules, name)
    elif name.isidentifier() and not name.startswith("_"):      # formatting and every other submodule
        try:
            value = importlib.import_module(f"exact.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"exact.{name}":
                raise
            raise AttributeError(f"module 'exact' has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module 'exact' has no attribute {name!r}")
    globals()[name] = value
    return value


def _register_rules() -> None:
    """Import the rule registry, whose modules register their ``game.toml`` keys with the loader."""
    from exact import rules  # noqa: F401


_plugins.provide(_register_rules)    # run before the first game is parsed, by any loader


def __dir__():
    return sorted(set(globals()) | set(_LAZY))

__all__ = ["load_math_set", "math_set", "par_sheet", "fingerprint", "ParSheet", "MathSet", "GameModel",
           "MathSetError", "UsageError", "formatting", "__version__", "WinDistribution", "win_distribution",
           "supports", "require"]


def load_math_set(path_or_bundled_name: str | Path | None = None) -> MathSet:
    """Load and validate a math set from a directory or by the name of a bundled set.

    Parameters
    ----------
    path_or_bundled_name : str or pathlib.Path, optional
        A directory holding ``game.toml`` and the strip CSV files it names,
        or a bundled set name (``"rules_page"``, the default).

    Returns
    -------
    MathSet
        ``model`` (GameModel), ``strips`` (strip set name -> ReelStrips),
        soft ``findings`` of the strip rules, ``sources`` (the bytes read).

    Raises
    ------
    MathSetError
        On any bad input, naming file, row and column (README, "Errors").

    Examples
    --------
    >>> ms = load_math_set("rules_page")
    >>> ms.model.reels, ms.model.rows, ms.model.bet
    (5, 4, 10)
    >>> try:
    ...     load_math_set("no_such_set")
    ... except MathSetError as e:
    ...     print(e.file)
    no_such_set
    """
    from strips import loader
    return loader.load_math_set(path_or_bundled_name)


def math_set(game: Mapping | GameModel, strips: Mapping[str, Sequence[Sequence[str]]],
             name: str | None = None) -> MathSet:
    """Build a math set in memory: a game in the ``game.toml`` schema and its reels.

    The game goes through the loader's own parser (same validation, same
    errors); errors name the pseudo files ``<game>`` and ``<strips.NAME>``
    with a row and column (see :mod:`strips.builder`).

    Parameters
    ----------
    game : dict or GameModel
        A dict as ``tomllib`` reads a ``game.toml`` (the ``strips`` table may
        be left out), or a parsed GameModel (e.g. ``load_math_set(...).model``).
    strips : mapping str -> list of list of str
        Strip set name -> reels, each the list of its symbol names from strip
        position 0.
    name : str, optional
        Name of the set in reports.

    Returns
    -------
    MathSet

    Raises
    ------
    MathSetError
        Any rule the loader refuses.

    Examples
    --------
    >>> ms = load_math_set("rules_page")
    >>> reels = [list(r) for r in ms.strips["base"].reels]
    >>> same = math_set(ms.model, {"base": reels, "bonus": ms.strips["bonus"].reels})
    >>> fingerprint(same) == fingerprint(ms)
    True
    >>> reels[0][0] = "PIC1" if reels[0][0] != "PIC1" else "PIC2"
    >>> fingerprint(math_set(ms.model, {"base": reels, "bonus": ms.strips["bonus"].reels})) == fingerprint(ms)
    False
    """
    from strips import builder
    return builder.math_set(game, strips, name)


@progress_of("par sheet")
def par_sheet(math_set: MathSet) -> ParSheet:
    """The PAR sheet of a math set: every exact figure of ``rtp report``.

    The set's published facts (its ``published.toml``) are checked on the sheet
    exactly as ``rtp report`` checks them (:func:`exact.facts.checked_sheet`):
    ``facts``, :meth:`ParSheet.published` and the ``published`` and ``check``
    columns of the trigger table.

    Parameters
    ----------
    math_set : MathSet
        From :func:`load_math_set` or :func:`math_set`.
    progress : bool, optional (keyword)
        A progress line on stderr when the call runs over 2 s (default: where stderr is a
        terminal or a Jupyter kernel; :mod:`exact.progress`); False: none.

    Returns
    -------
    ParSheet
        Attributes ``rtp``, ``mean_win``, ``variance``, ``components``,
        ``trigger``, ``hit_frequency_base``, ... (Fractions; credits per
        round, probabilities per round or per spin as named),
        ``figures()`` -> {dotted JSON key: Fraction}, ``fingerprint``.

    Raises
    ------
    ValueError
        If the set's strips and game disagree (a rule the engine does not model).
    MathSetError
        A published fact naming a figure the sheet does not have (file, row and column).

    Examples
    --------
    >>> p = par_sheet(load_math_set("rules_page"))
    >>> p.rtp == p.mean_win / p.bet
    True
    >>> sorted(p.components)
    ['base_collect', 'base_scatter', 'base_ways', 'free_spins']
    """
    from exact.comply import comply, load_rules, summary
    from exact.facts import checked_sheet
    sheet = checked_sheet(math_set)
    return dataclasses.replace(sheet, compliance=lambda: summary(comply(math_set, load_rules(), sheet=sheet)))
