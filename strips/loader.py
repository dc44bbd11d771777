"""Load and validate a math set: ``game.toml`` plus one reel-strip CSV per strip set.

A math set is a directory holding ``game.toml`` (the rules: required, there is
no default game), the strip CSVs its ``[strips]`` table names (``base.csv``,
``bonus.csv``, ...) and optionally ``published.toml`` (what the game's rules
page or PAR sheet prints, :mod:`strips.published`).  A set is named by a
directory path or by the name of a bundled set (``rules_page``); an existing
directory wins over a bundled set of the same name, and :func:`shadow_note`
says so (the CLI prints it on stderr).

Hard errors raise :class:`strips.errors.MathSetError` naming file, row and
column.  Soft rule breaks of rules-page section 3 (two specials in one
window, a run of more than 3 AUS symbols, a strip length other than 100)
become :class:`strips.model.Finding` objects on the returned set.

CSV format: a header ``reel1,...,reelN``; data row i (file line i + 2) holds
strip position i of each reel; a column may end early with empty trailing
cells; every reel needs at least ``rows`` symbols.

The parsers: :mod:`strips.game_toml` (``game.toml``), :mod:`strips.modes_toml`
(its bet modes, buys, respins, jackpots, wheels and gamble),
:mod:`strips.strips_csv` (the strip CSVs and their findings),
:mod:`strips.published_toml` (``published.toml``), all reading through
:mod:`strips.toml_reader` (decoding and key positions).  This module locates
math sets and loads them; :func:`parse_game`, :func:`parse_strips` and
:func:`strip_findings` are importable from here as before.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

from strips import limits as _limits
from strips.display import name_findings
from strips.errors import MathSetError
from strips import published as pub
import dataclasses

from strips.model import Finding, GameModel, MathSet, ReelStrips, StopWeightsConfig
from strips.toml_reader import TomlFile
from strips.game_toml import check_retrigger_work, parse_game
from strips.strips_csv import parse_strips, strip_findings
from strips.published_toml import parse_published


BUNDLED_DEFAULT = "rules_page"
GAME_FILE = "game.toml"
PUBLISHED_FILE = "published.toml"


# --------------------------------------------------------------------------
# locating math sets
# --------------------------------------------------------------------------
def bundled_names() -> tuple[str, ...]:
    """Names of the math sets shipped inside the package."""
    root = resources.files("strips")
    return tuple(sorted(p.name for p in root.iterdir() if p.is_dir() and (p / GAME_FILE).is_file()))


def bundled_path(name: str) -> Path:
    """Directory of a bundled math set.

    Raises
    ------
    MathSetError
        If no bundled set has that name.
    """
    root = resources.files("strips") / name
    if not (root / GAME_FILE).is_file():
        raise MathSetError(name, 0, 0, f"no math-set directory or bundled set named {name!r} "
                           f"(bundled: {', '.join(bundled_names())})")
    return Path(str(root))


def resolve(spec: str | Path | None) -> tuple[str, Path]:
    """Turn a user's ``--set`` argument into (display name, directory).

    A path to an existing directory wins over a bundled name; no ``spec`` (no ``--set``) is the
    bundled default set, whatever the working directory holds.

    Raises
    ------
    MathSetError
        If ``spec`` is neither a directory nor a bundled set name, or names a file.
    """
    if spec is None:   # no --set: the bundled set itself, never a directory that happens to share its name
        return BUNDLED_DEFAULT, bundled_path(BUNDLED_DEFAULT)
    p = Path(spec)
    if p.is_dir():
        return str(spec), p
    if p.exists():
        raise MathSetError(str(spec), 0, 0, f"is a file; a math set is a directory holding its {GAME_FILE} and "
                           f"the strip files it names (such as base.csv)")
    if "/" in str(spec) or "\\" in str(spec):
        raise MathSetError(str(spec), 0, 0, "no such directory")
    return str(spec), bundled_path(str(spec))


def shadow_note(spec: str | Path | None) -> str | None:
    """One line saying which math set a name means when it is both a directory and a bundled set.

    A name like ``rules_page`` that is a directory in the working directory
    AND the name of a bundled set means the directory (a path is what was
    typed); this returns the note to show so the choice is never silent, or
    None when the name is unambiguous.

    >>> shadow_note("no/such/dir") is None
    True
    """
    if spec is None:
        return None
    text = str(spec)
    if "/" in text or "\\" in text or not Path(text).is_dir():
        return None
    if text not in bundled_names():
        return None
    return (f"note: math set {text!r} is the directory {Path(text).resolve()}, not the bundled set "
            f"{text!r} (a directory wins; move or rename it to use the bundled set)")


def load_math_set(spec: str | Path | None = None) -> MathSet:
    """Load a math set by directory path or bundled name (default ``rules_page``).

    Returns
    -------
    MathSet
        With ``model``, one :class:`ReelStrips` per strip set named by the game
        file, soft ``findings``, the raw ``sources`` bytes and the
        ``published`` facts of ``published.toml`` (empty without one).

    Raises
    ------
    MathSetError
        On any bad input: no ``game.toml`` in the directory, missing or
        unreadable file, malformed TOML or CSV, unknown symbol, wrong reel
        count, forbidden symbol placement, impossible weights, a bad
        ``published.toml`` entry.  Source: rules page sections 3-11.
    """
    name, directory = resolve(spec)
    game_path = directory / GAME_FILE
    if not game_path.is_file() and not game_path.exists():
        raise MathSetError(name, 0, 0, f"no {GAME_FILE} in this math-set directory (a math set needs its "
                           f"game file, the rules of its game; there is no default game)")
    game_bytes = _read_bytes(game_path)
    model = parse_game(game_bytes, str(game_path))
    strips: dict[str, ReelStrips] = {}
    findings: list[Finding] = _symbol_name_findings(model, game_bytes, str(game_path))
    sources = {GAME_FILE: game_bytes}
    loaded: dict[tuple[str, str], ReelStrips] = {}   # (strip set, file) -> strips, each file read once
    for set_name, file_name in model.strip_files.items():
        strips[set_name] = loaded[set_name, file_name] = _load_strips(directory, file_name, model, set_name,
                                                                      sources, findings)
    mode_strips = {}
    for mode in model.modes:   # the strip sets a bet mode uses instead
        mode_strips[mode.name] = {}
        for set_name, file_name in mode.strips.items():
            if (set_name, file_name) not in loaded:
                loaded[set_name, file_name] = _load_strips(directory, file_name, model, set_name, sources, findings)
            mode_strips[mode.name][set_name] = loaded[set_name, file_name]
    weighted = tuple(dict.fromkeys(f for (_, f), rs in loaded.items()
                                   if any(getattr(c, "stop_weights", None) is not None for c in rs.codes)))
    if weighted:          # the rule of virtual reels (exact.rules.weighted_stops) sees the model only
        model = dataclasses.replace(model, rules=model.rules + (StopWeightsConfig(weighted),))
    check_retrigger_work(model, strips, str(game_path), game_bytes)
    published = pub.Published()
    pub_path = directory / PUBLISHED_FILE
    if pub_path.exists():
        published = parse_published(_read_bytes(pub_path), str(pub_path), model, strips)
    return MathSet(name=name, model=model, strips=strips, findings=tuple(findings), sources=sources,
                   mode_strips=mode_strips, published=published)


def _load_strips(directory: Path, file_name: str, model: GameModel, set_name: str,
                 sources: dict, findings: list) -> ReelStrips:
    """Read and parse one strip CSV; its bytes go into ``sources``, its soft findings into ``findings``."""
    path = directory / file_name
    data = _read_bytes(path)
    sources[file_name] = data
    rs, found = parse_strips(data, str(path), model, set_name)
    findings.extend(found)
    return rs


def parse_strip_sets(model: GameModel, files: dict[str, tuple[str, bytes]]) -> tuple[dict[str, ReelStrips], list[Finding]]:
    """Parse every strip set of a game: the one path from CSV bytes to strips, files or memory.

    Parameters
    ----------
    model : GameModel
    files : mapping str -> (str, bytes)
        Strip set name -> (file label for messages, CSV bytes), one entry per
        strip set the game names, in the game's order.

    Returns
    -------
    (dict str -> ReelStrips, list of Finding)

    Raises
    ------
    MathSetError
        As :func:`parse_strips`.
    """
    strips: dict[str, ReelStrips] = {}
    findings: list[Finding] = []
    for set_name, (label, data) in files.items():
        strips[set_name], found = parse_strips(data, label, model, set_name)
        findings.extend(found)
    return strips, findings


def _symbol_name_findings(model: GameModel, data: bytes, file: str) -> list[Finding]:
    """Symbol names that are not plain ASCII or look like another (:func:`strips.display.name_findings`)."""
    t = TomlFile(data.decode("utf-8-sig", errors="replace"), file)
    names = [(n, t.locate(("symbols", s.name) if n == s.name else ("symbols", s.name, "aliases"))[0])
             for s in model.symbols for n in (s.name,) + s.aliases]
    return name_findings(names, file)


def _read_bytes(path: Path) -> bytes:
    """A regular input file within the ``file_bytes`` limit (:func:`strips.limits.read_regular_file`)."""
    try:
        return _limits.read_regular_file(path)
    except ValueError as e:  # MathSetError passes; "embedded null byte" from the OS layer
        if isinstance(e, MathSetError):
            raise
        raise MathSetError(str(path).replace("\x00", "\\0"), 0, 0, f"cannot read file ({e})") from None
    except FileNotFoundError:
        raise MathSetError(str(path), 0, 0, "file not found") from None
    except IsADirectoryError:
        raise MathSetError(str(path), 0, 0, "is a directory, expected a file") from None
    except OSError as e:
        raise MathSetError(str(path), 0, 0, f"cannot read file ({e.strerror or e})") from None

#: This module's names and those of its split modules importable from here.
__all__ = ['bundled_names', 'bundled_path', 'load_math_set', 'parse_game', 'parse_strip_sets', 'parse_strips',
           'resolve', 'shadow_note', 'strip_findings']
