"""Build a math set in memory: a game in the ``game.toml`` schema plus lists of reels.

There is no second validator here.  The game (a dict) is written as TOML text
(:func:`game_toml`) and the strips as CSV text (:func:`strips_csv`), and both go
through the loader's own parsers (:func:`strips.loader.parse_game`,
:func:`strips.loader.parse_strip_sets`): same rules, same errors, same findings
as a set loaded from files.  Errors name a pseudo file, a row and a column of
that text:

* ``<game>``: the TOML text :func:`game_toml` renders from the dict;
* ``<strips.NAME>``: the CSV text of strip set NAME, header ``reel1,...`` on
  row 1, strip position ``i`` (0-based) on row ``i + 2``, reel ``r`` (1-based)
  in column ``r``.

Both texts are kept in :attr:`MathSet.sources` (``game.toml``, ``NAME.csv``),
so ``ms.sources["game.toml"].decode()`` shows the text an error points into.

Source: README, section "Python API".
"""
from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

from strips.errors import MathSetError
from strips.loader import GAME_FILE, parse_game, parse_strip_sets
from strips.model import GameModel, MathSet

__all__ = ["math_set", "game_toml", "strips_csv", "GAME_LABEL", "strips_label"]

#: Pseudo file name of an in-memory game in error messages.
GAME_LABEL = "<game>"
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def strips_label(strip_set: str) -> str:
    """Pseudo file name of an in-memory strip set in error messages, e.g. ``<strips.base>``."""
    return f"<strips.{strip_set}>"


# --------------------------------------------------------------------------
# dict -> TOML text
# --------------------------------------------------------------------------
def _key(k: Any) -> str:
    k = str(k)
    return k if _BARE_KEY.match(k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any, where: str) -> str:
    """An inline TOML value: string, integer, boolean, float, array or inline table."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(repr(v), repr(v))
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x, where) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x, where)}" for k, x in v.items()) + " }"
    raise MathSetError(GAME_LABEL, 1, 1, f"{where}: a {type(v).__name__} is not a TOML value (got {v!r})")


def _is_table_array(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and bool(v) and all(isinstance(x, Mapping) for x in v)


def _table(lines: list[str], path: tuple[str, ...], table: Mapping) -> None:
    """Write ``table``'s plain keys, then its sub-tables as ``[path.key]`` and arrays of tables as ``[[...]]``."""
    for k, v in table.items():
        if not isinstance(v, Mapping) and not _is_table_array(v):
            lines.append(f"{_key(k)} = {_value(v, '.'.join(path + (str(k),)))}")
    for k, v in table.items():
        sub = path + (_key(k),)
        if isinstance(v, Mapping):
            lines += ["", f"[{'.'.join(sub)}]"]
            _table(lines, sub, v)
        elif _is_table_array(v):
            for entry in v:
                lines += ["", f"[[{'.'.join(sub)}]]"]
                _table(lines, sub, entry)


def game_toml(game: Mapping) -> str:
    """The TOML text of a game dict in the ``game.toml`` schema (the text errors point into).

    Keys may be str or int (``{"trigger": {3: 10}}``); tables become ``[a.b]``
    sections, lists of tables ``[[a.b]]`` sections, everything else inline values.

    Raises
    ------
    MathSetError
        ``<game>:1:1`` for a value TOML cannot hold (e.g. a Fraction or None).

    Examples
    --------
    >>> print(game_toml({"game": {"reels": 3, "rows": 1, "bet": 1}, "strips": {"base": "base.csv"}}))
    <BLANKLINE>
    [game]
    reels = 3
    rows = 1
    bet = 1
    <BLANKLINE>
    [strips]
    base = "base.csv"
    <BLANKLINE>
    """
    if not isinstance(game, Mapping):
        raise MathSetError(GAME_LABEL, 1, 1, f"a game is a dict in the game.toml schema, got {type(game).__name__}")
    lines: list[str] = []
    _table(lines, (), game)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# reels -> CSV text
# --------------------------------------------------------------------------
def strips_csv(reels: Sequence[Sequence[str]], strip_set: str = "base") -> str:
    """The CSV text of one strip set: header ``reel1..reelN``, then one row per strip position.

    Raises
    ------
    MathSetError
        ``<strips.NAME>`` at the row and column of an entry that is not a
        symbol name (str), or at row 1 when the reels are not a list of lists.

    Examples
    --------
    >>> print(strips_csv([["A", "B"], ["C"]]), end="")
    reel1,reel2
    A,C
    B,
    """
    label = strips_label(strip_set)
    if isinstance(reels, (str, bytes)) or not isinstance(reels, Sequence):
        raise MathSetError(label, 1, 1, f"strip set {strip_set!r} must be a list of reels (lists of symbol "
                           f"names), got {type(reels).__name__}")
    for r, reel in enumerate(reels):
        if isinstance(reel, (str, bytes)) or not isinstance(reel, Sequence):
            raise MathSetError(label, 1, r + 1, f"reel {r + 1} must be a list of symbol names, "
                               f"got {type(reel).__name__}")
        for i, sym in enumerate(reel):
            if not isinstance(sym, str):
                raise MathSetError(label, i + 2, r + 1, f"reel {r + 1} position {i}: a symbol name is a str, "
                                   f"got {sym!r}")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([f"reel{r + 1}" for r in range(len(reels))])
    for i in range(max((len(reel) for reel in reels), default=0)):
        w.writerow([reel[i] if i < len(reel) else "" for reel in reels])
    return buf.getvalue()


# --------------------------------------------------------------------------
# the math set
# --------------------------------------------------------------------------
def math_set(game: Mapping | GameModel, strips: Mapping[str, Sequence[Sequence[str]]],
             name: str | None = None) -> MathSet:
    """Build a math set in memory, validated exactly as the loader validates files.

    Parameters
    ----------
    game : dict or GameModel
        A dict in the ``game.toml`` schema (README, "The game file"); its
        ``strips`` table may be left out (then every key of ``strips`` is a
        strip set).  A :class:`GameModel` (e.g. ``load_math_set(...).model``,
        already validated) is used as it is.
    strips : mapping str -> list of list of str
        Strip set name (``"base"``, ``"bonus"``, ...) -> reels, each reel the
        list of its symbol names from strip position 0 (aliases allowed); a
        bet mode's own strips (``[modes.NAME] strips``) under the file name
        the mode gives, without ``.csv``.
    name : str, optional
        Name of the set in reports; default the game's ``name``, else ``"in-memory"``.

    Returns
    -------
    MathSet
        With soft ``findings`` as for files, and ``sources`` holding the
        rendered ``game.toml`` and CSV texts.

    Raises
    ------
    MathSetError
        Any rule the loader refuses, naming ``<game>`` or ``<strips.NAME>``
        with row and column; also a strip set the game names but ``strips``
        lacks, or one it does not name.

    Examples
    --------
    >>> game = {"game": {"reels": 3, "rows": 1, "bet": 1},
    ...         "symbols": {"A": {"class": "pay", "pays": [0, 0, 5]},
    ...                     "B": {"class": "pay", "pays": [0, 0, 1]}}}
    >>> ms = math_set(game, {"base": [["A", "B"], ["A", "B"], ["A", "B"]]})
    >>> ms.strips["base"].lengths
    (2, 2, 2)
    >>> math_set(game, {"base": [["A", "B"], ["A", "C"], ["A", "B"]]})
    Traceback (most recent call last):
    ...
    strips.errors.MathSetError: <strips.base>:3:2: unknown symbol 'C' (known: A, B)
    """
    if not isinstance(strips, Mapping):
        raise MathSetError(strips_label("*"), 1, 1, f"strips must map a strip set name to its reels, "
                           f"got {type(strips).__name__}")
    sources: dict[str, bytes] = {}
    if isinstance(game, GameModel):
        model = game
    else:
        if isinstance(game, Mapping) and "strips" not in game:
            game = {**game, "strips": {str(k): f"{k}.csv" for k in strips}}
        text = game_toml(game)
        sources[GAME_FILE] = text.encode("utf-8")
        model = parse_game(sources[GAME_FILE], GAME_LABEL)
    set_name = name or model.name or "in-memory"
    if not model.name:
        model = dataclasses.replace(model, name=set_name)
    # a bet mode's own strips are given under their file name without ".csv"
    mode_files = {Path(f).stem: (set_name, f) for m in model.modes for set_name, f in m.strips.items()}
    for k in strips:
        if k not in model.strip_files and k not in mode_files:
            raise MathSetError(strips_label(str(k)), 1, 1, f"strip set {k!r} is not named by the game "
                               f"(its strip sets: {', '.join(list(model.strip_files) + list(mode_files))})")
    files = {}
    for k in list(model.strip_files) + list(mode_files):
        if k not in strips:
            raise MathSetError(strips_label(k), 1, 1, f"no reels given for strip set {k!r} "
                               f"(the game names {', '.join(list(model.strip_files) + list(mode_files))})")
    for k in model.strip_files:
        data = strips_csv(strips[k], k).encode("utf-8")
        files[k] = (strips_label(k), data)
        sources[f"{k}.csv"] = data
    parsed, findings = parse_strip_sets(model, files)
    by_file: dict[str, object] = {}
    for stem, (set_name_, file_name) in mode_files.items():
        data = strips_csv(strips[stem], stem).encode("utf-8")
        sources[file_name] = data
        found_strips, found = parse_strip_sets(model, {set_name_: (strips_label(stem), data)})
        by_file[file_name] = found_strips[set_name_]
        findings += found
    mode_strips = {m.name: {set_name_: by_file[f] for set_name_, f in m.strips.items()} for m in model.modes}
    return MathSet(name=set_name, model=model, strips=parsed, findings=tuple(findings), sources=sources,
                   mode_strips=mode_strips)
