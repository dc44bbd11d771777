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
"""
from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import re
import sys
import tomllib
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from strips import plugins
from strips import limits as _limits
from strips.display import name_findings, printable
from strips.errors import MathSetError
from strips import published as pub
from strips.model import (
    COMBINATION,
    EVALUATIONS,
    AWARD_KINDS,
    DEFAULT_MODE,
    FREE_SPINS,
    JACKPOT,
    Award,
    Buy,
    Gamble,
    Mode,
    PrizeTable,
    Respin,
    Wheel,
    FISH,
    KEY,
    LINES,
    MULTIPLIER_MODES,
    WAYS,
    PAY,
    SCATTER,
    SYMBOL_CLASSES,
    WILD,
    Finding,
    GameModel,
    Level,
    MathSet,
    ReelStrips,
    StripRules,
    Symbol,
    WildMultiplier,
    window_codes,
)

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
    for mode in model.modes:   # issue 16: the strip sets a bet mode uses instead
        mode_strips[mode.name] = {}
        for set_name, file_name in mode.strips.items():
            if (set_name, file_name) not in loaded:
                loaded[set_name, file_name] = _load_strips(directory, file_name, model, set_name, sources, findings)
            mode_strips[mode.name][set_name] = loaded[set_name, file_name]
    _check_retrigger_work(model, strips, str(game_path), game_bytes)
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
    t = _Toml(data.decode("utf-8-sig", errors="replace"), file)
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


def _position(data: bytes | str, index: int, cells: bool) -> tuple[int, int]:
    """1-based (line, column) of ``data[index]``.

    ``column`` is the character column, or with ``cells`` the 1-based CSV cell
    (reel) number: one more than the commas before it on its line.
    """
    nl, comma = ("\n", ",") if isinstance(data, str) else (b"\n", b",")
    start = data.rfind(nl, 0, index) + 1
    line = data.count(nl, 0, index) + 1
    return line, (data.count(comma, start, index) + 1 if cells else index - start + 1)


def _decode(data: bytes, file: str, cells: bool = False) -> str:
    """UTF-8 text of a file (a leading BOM dropped).

    Raises
    ------
    MathSetError
        At the first byte that is not UTF-8, or the first NUL character
        (no math-set file holds one); the column is the CSV cell with ``cells``.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line, col = _position(data, e.start, cells)
        raise MathSetError(file, line, col, f"not UTF-8 text (byte 0x{data[e.start]:02x})") from None
    nul = text.find("\x00")
    if nul >= 0:
        line, col = _position(text, nul, cells)
        raise MathSetError(file, line, col, "contains a NUL byte (binary file, not text)")
    return text


# --------------------------------------------------------------------------
# game.toml
# --------------------------------------------------------------------------
def _path_text(path: tuple) -> str:
    """``free_spins.levels[3].multiplier``: a key path for messages (``[n]``: the n-th array entry, from 1).

    >>> _path_text(("free_spins", "levels", 2, "multiplier"))
    'free_spins.levels[3].multiplier'
    """
    out = ""
    for k in path:
        out += f"[{k + 1}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


#: A TOML basic string's short escapes.
_SHORT_ESCAPES = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def _escaped_char(ch: str) -> str:
    """Regex of one character of a TOML basic string: itself, or any escape that writes it.

    >>> bool(re.fullmatch(_escaped_char("\x07"), "\\u0007")), bool(re.fullmatch(_escaped_char("A"), "A"))
    (True, True)
    """
    if ch.isascii() and ch.isprintable() and ch not in '"\\':
        return re.escape(ch)
    o = ord(ch)
    forms = [f"\\U{o:08x}", f"\\U{o:08X}"] + ([f"\\u{o:04x}", f"\\u{o:04X}"] if o < 0x10000 else [])
    forms += [_SHORT_ESCAPES[ch]] if ch in _SHORT_ESCAPES else []
    return "(?:" + "|".join(re.escape(f) for f in [ch] + forms) + ")"


class _Toml:
    """Typed access to a parsed TOML document that reports the line of a bad key.

    A key path is a tuple of table keys; an int in it is the 0-based index of
    an entry of an array of tables (``("free_spins", "levels", 2)`` is the
    third ``[[free_spins.levels]]``).
    """

    _HEADER = re.compile(r"^\s*\[")

    def __init__(self, text: str, file: str):
        self.text, self.file = text, file
        self.lines = text.splitlines()

    @staticmethod
    def _key(k: str) -> str:
        """Regex of a bare or quoted TOML key; in a basic string ``"..."`` a character may be written as
        an escape (``\\u0007``, ``\\U0000200B``, ``\\t``, ``\\"``)."""
        k = str(k)
        e = re.escape(k)
        quoted = "".join(_escaped_char(ch) for ch in k)
        return rf"(?:{e}|\"{quoted}\"|'{e}')"

    def _table(self, path: tuple) -> tuple[int, int] | None:
        """0-based line of the table header named by ``path`` and the line where that table ends."""
        index = 0
        if path and isinstance(path[-1], int):
            path, index = path[:-1], path[-1]
        if not path or any(isinstance(k, int) for k in path):
            return None
        name = r"\s*\.\s*".join(self._key(k) for k in path)
        pat = re.compile(r"^\s*\[\[?\s*" + name + r"\s*\]\]?\s*(#.*)?$")
        hits = [i for i, line in enumerate(self.lines) if pat.match(line)]
        if len(hits) <= index:
            return None
        start = hits[index]
        end = next((i for i in range(start + 1, len(self.lines)) if self._HEADER.match(self.lines[i])),
                   len(self.lines))
        return start, end

    def locate(self, path: tuple) -> tuple[int, int]:
        """1-based (line, column) of a key path: the key itself if written, else its table's header.

        Handles ``[table]`` and ``[[array]]`` headers, dotted keys
        (``weights.base = ...``) and keys inside an inline table
        (``reels = { base = [...] }``).  A key that is missing (or that the
        file does not spell out) is located at the deepest enclosing table
        header, or at line 1 for a top-level key.
        """
        start, end, rest = 0, len(self.lines), path
        for depth in range(len(path), 0, -1):
            found = self._table(path[:depth])
            if found:
                (start, end), rest = found, path[depth:]
                break
        else:
            first = next((i for i, line in enumerate(self.lines) if self._HEADER.match(line)), len(self.lines))
            end = first
        keys = [k for k in rest if not isinstance(k, int)]
        # the longest dotted prefix of the remaining keys written as a key of this table
        for m in range(len(keys), 0, -1):
            kpat = re.compile(r"^\s*(" + r"\s*\.\s*".join(self._key(k) for k in keys[:m]) + r")\s*[=.]")
            for i in range(start, end):
                hit = kpat.match(self.lines[i])
                if not hit:
                    continue
                if m == len(keys):
                    return i + 1, hit.start(1) + 1
                # the rest sits in an inline table on this or the following lines
                inner = re.compile(r"(?<![\w.])" + self._key(keys[m]) + r"\s*=")
                for j in range(i, end):
                    h = inner.search(self.lines[j], hit.end() if j == i else 0)
                    if h:
                        return j + 1, h.start() + 1
                return i + 1, hit.start(1) + 1
        return start + 1, 1

    def error(self, path: tuple[str, ...], message: str) -> MathSetError:
        row, col = self.locate(path)
        return MathSetError(self.file, row, col, f"{_path_text(path)}: {message}")

    def get(self, table: dict, path: tuple[str, ...], key: str, kind, default: Any = ...):
        if key not in table:
            if default is ...:
                raise self.error(path + (key,), "required key is missing")
            return default
        value = table[key]
        full = path + (key,)
        if kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.error(full, f"must be an integer, got {value!r}")
        elif kind == "ints":
            if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                raise self.error(full, f"must be a list of integers, got {value!r}")
        elif kind is not None and not isinstance(value, kind):
            raise self.error(full, f"must be a {kind.__name__}, got {value!r}")
        return value


def _parse_toml(text: str, file: str) -> dict:
    """``tomllib.loads`` with every failure as one MathSetError (syntax, nesting too deep, huge integers)."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise MathSetError(file, 1, 1, "malformed TOML: tables or arrays nested too deeply to read") from None
    except ValueError as e:
        if isinstance(e, tomllib.TOMLDecodeError):
            raise _toml_error(e, text, file) from None
        # int() of a literal beyond Python's integer-string limit
        m = re.search(r"\d[\d_]{%d,}" % max(_limits.active().digits or 0, 100), text)
        row, col = _position(text, m.start(), False) if m else (1, 1)
        digits = len(m.group().replace("_", "")) if m else sys.get_int_max_str_digits() + 1
        raise MathSetError(file, row, col, _limits.digits_refusal(digits, "digits in an integer")) from None


def _toml_error(e: tomllib.TOMLDecodeError, text: str, file: str) -> MathSetError:
    """A TOML syntax error as a MathSetError at its line and column."""
    m = re.search(r"at line (\d+), column (\d+)", str(e))
    if m:
        row, col = int(m.group(1)), int(m.group(2))
    else:  # "(at end of document)": just after the last character
        row = text.count("\n") + 1
        col = len(text) - (text.rfind("\n") + 1) + 1
    msg = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(e))
    return MathSetError(file, row, col, f"malformed TOML: {msg}")


def _check_document(t: "_Toml", doc: dict) -> None:
    """The ``depth`` and ``digits`` limits over the whole parsed document, before any other work."""
    lim = _limits.active()
    if lim.depth is not None:
        deep = _limits.nesting_depth(doc, lim.depth)
        if deep is not None:
            raise t.error(tuple(k for k in deep[0] if not isinstance(k, int)) or deep[0][:1],
                          _limits.refusal("depth", deep[1], lim.depth, "levels of nesting"))
    if lim.digits is None:
        return
    stack = [((), doc)]
    while stack:   # depth first, in the file's order: the first integer too long is the one named
        path, node = stack.pop()
        if isinstance(node, dict):
            stack.extend(reversed([(path + (k,), v) for k, v in node.items()]))
        elif isinstance(node, list):   # the entry's index: an array of tables names its element and line
            stack.extend(reversed([(path + (i,), v) for i, v in enumerate(node)]))
        elif isinstance(node, int) and not isinstance(node, bool) and _limits.integer_too_long(node, lim.digits):
            raise t.error(path, _limits.refusal("digits", len(str(abs(node))), lim.digits, "digits in an integer"))


def _limit(t: "_Toml", path: tuple, name: str, value: int, what: str | None = None) -> None:
    """Refuse ``value`` at ``path`` if it is above the active limit ``name`` (one line, naming the option)."""
    limit = _limits.exceeds(name, value)
    if limit is not None:
        raise t.error(path, _limits.refusal(name, value, limit, what))


def parse_game(data: bytes, file: str) -> GameModel:
    """Parse and validate a ``game.toml`` document.

    Parameters
    ----------
    data : bytes
        File content.
    file : str
        Path used in error messages.

    Returns
    -------
    GameModel

    Raises
    ------
    MathSetError
        Malformed TOML, a missing or mistyped key, an unknown symbol class,
        a paytable whose length is not the reel count, negative pays, reels
        out of range, FISH weights that are negative, non-integer, of the
        wrong length or sum to zero, a ladder without levels or with falling
        thresholds, a WILD multiplier that is not an integer >= 1 or a valid
        weighted table (same weight rules as FISH).  Source: rules page
        sections 3-5, 7, 10, 11.
    """
    text = _decode(data, file)
    doc = _parse_toml(text, file)
    t = _Toml(text, file)
    _check_document(t, doc)
    whole = plugins.game_parser(doc)    # a game without reel strips ([grid]): its rule module parses it
    if whole is not None:
        return whole(t, doc)
    game = t.get(doc, (), "game", dict)
    reels = t.get(game, ("game",), "reels", int)
    rows = t.get(game, ("game",), "rows", int)
    bet = t.get(game, ("game",), "bet", int)
    if reels < 1:
        raise t.error(("game", "reels"), "must be at least 1")
    if rows < 1:
        raise t.error(("game", "rows"), "must be at least 1")
    if bet < 1:
        raise t.error(("game", "bet"), "must be a positive number of credits")
    _limit(t, ("game", "reels"), "reels", reels)
    _limit(t, ("game", "rows"), "rows", rows)
    name = printable(t.get(game, ("game",), "name", str, Path(file).parent.name))  # shown on screen: no escapes
    title = printable(t.get(game, ("game",), "title", str, ""))
    _refuse_unknown(t, game, ("game",), ("name", "title", "reels", "rows", "bet", "evaluation")
                    + plugins.keys_of(("game",)), "key")

    strip_table = t.get(doc, (), "strips", dict)
    strip_files = {}
    for set_name, fname in strip_table.items():
        if not isinstance(fname, str) or not fname or "/" in fname or "\\" in fname or "\x00" in fname:
            raise t.error(("strips", set_name), "must be a file name inside the math-set directory")
        strip_files[set_name] = fname
    if "base" not in strip_files:
        raise t.error(("strips",), "names no 'base' strip set (the base game spins it)")

    sr = t.get(doc, (), "strip_rules", dict, {})
    _refuse_unknown(t, sr, ("strip_rules",), ("length", "lengths", "min_pay_between_specials", "max_run"), "key")
    # lengths = [...] (every strip set) or { base = [...], bonus = [...] } (per strip set)
    per_set = sr.get("lengths") if isinstance(sr.get("lengths"), dict) else None
    lengths = None if per_set is not None else t.get(sr, ("strip_rules",), "lengths", "ints", None)
    set_lengths = {}
    for set_name in (per_set or {}):
        if set_name not in strip_files:
            raise t.error(("strip_rules", "lengths", set_name), f"names unknown strip set {set_name!r}")
        set_lengths[set_name] = t.get(per_set, ("strip_rules", "lengths"), set_name, "ints")
    for where, lst in ([(("strip_rules", "lengths"), lengths)] if lengths is not None else []) + [
            (("strip_rules", "lengths", k), v) for k, v in set_lengths.items()]:
        if "length" in sr:
            raise t.error(where, "give length (every reel) or lengths (one per reel), not both")
        if len(lst) != reels or any(n < 1 for n in lst):
            raise t.error(where, f"must be {reels} stop counts >= 1, one per reel, got {lst!r}")
    run = t.get(sr, ("strip_rules",), "max_run", dict, {})
    _refuse_unknown(t, run, ("strip_rules", "max_run"), ("symbols", "length"), "key")
    # a soft rule is checked as a finding, but a rule no strip can keep is a bad game file
    strip_rules = StripRules(
        length=_at_least(t, sr, ("strip_rules",), "length", 1, "stops on each reel strip"),
        min_pay_between_specials=_at_least(t, sr, ("strip_rules",), "min_pay_between_specials", 0,
                                           "pay symbols between two specials"),
        max_run_symbols=frozenset(t.get(run, ("strip_rules", "max_run"), "symbols", list, [])),
        max_run_length=_at_least(t, run, ("strip_rules", "max_run"), "length", 1, "symbols in a run"),
        lengths=None if lengths is None else tuple(lengths),
        set_lengths=tuple((k, tuple(v)) for k, v in sorted(set_lengths.items())),
    )

    sym_table = t.get(doc, (), "symbols", dict)
    _limit(t, ("symbols",), "symbols", len(sym_table) + sum(
        len(v["aliases"]) for v in sym_table.values() if isinstance(v, dict) and isinstance(v.get("aliases"), list)))
    symbols: list[Symbol] = []
    seen_names: set[str] = set()
    for sname, spec in sym_table.items():
        path = ("symbols", sname)
        if not isinstance(spec, dict):
            raise t.error(path, "must be a table")
        kind = t.get(spec, path, "class", str)
        plugin_classes = plugins.symbol_classes()          # classes of rule modules (strips.plugins)
        if kind not in SYMBOL_CLASSES and kind not in plugin_classes:
            raise t.error(path + ("class",), f"unknown class {kind!r} "
                          f"(known: {', '.join(SYMBOL_CLASSES + tuple(plugin_classes))})")
        _refuse_unknown(t, spec, path, SYMBOL_KEYS.get(kind) or ("class", "reels", "aliases")
                        + plugin_classes[kind], "key")
        aliases = tuple(t.get(spec, path, "aliases", list, []))
        for n in (sname,) + aliases:
            if not isinstance(n, str) or not n or n in seen_names:
                raise t.error(path, f"name {n!r} is empty or used twice")
            if printable(n) != n:
                raise t.error(path, f"name {n!r} holds a control or invisible character")
            seen_names.add(n)
        pays: tuple[int, ...] = (0,) * reels
        if kind == PAY:
            pays = tuple(t.get(spec, path, "pays", "ints"))
            _check_pays_length(t, doc, path, pays, reels, rows)
            if any(p < 0 for p in pays):
                raise t.error(path + ("pays",), "pays must not be negative")
        if kind == SCATTER and "pays" in spec:
            pays = tuple(t.get(spec, path, "pays", "ints"))
            if any(p < 0 for p in pays):
                raise t.error(path + ("pays",), "scatter pays must not be negative")
        elif kind != PAY:
            pays = ()
        substitutes = frozenset(t.get(spec, path, "substitutes", list, [])) if kind == WILD else frozenset()
        allowed: dict[str, frozenset[int]] = {}
        if kind != PAY:
            rt = t.get(spec, path, "reels", dict, {})
            for set_name, lst in rt.items():
                if set_name not in strip_files:
                    raise t.error(path + ("reels", set_name), f"names unknown strip set {set_name!r}")
                lst = t.get(rt, path + ("reels",), set_name, "ints")
                if any(r < 1 or r > reels for r in lst):
                    raise t.error(path + ("reels", set_name), f"reels must be between 1 and {reels}")
                allowed[set_name] = frozenset(r - 1 for r in lst)
        values: tuple[int, ...] = ()
        weights: dict[str, tuple[int, ...]] = {}
        if kind == FISH:
            values = tuple(t.get(spec, path, "values", "ints"))
            if not values or any(v < 0 for v in values):
                raise t.error(path + ("values",), "must be a non-empty list of credit values >= 0")
            weights = _weight_tables(t, spec, path, values)
        multiplier = _wild_multiplier(t, spec, path) if kind == WILD and "multiplier" in spec else None
        symbols.append(Symbol(name=sname, kind=kind, pays=pays, reels=allowed,
                              values=values, weights=weights, aliases=aliases, substitutes=substitutes,
                              multiplier=multiplier))
    if not any(s.kind == PAY for s in symbols):
        raise t.error(("symbols",), "the game has no pay symbol")
    pay_names = {s.name for s in symbols if s.kind == PAY}
    for s in symbols:
        for n in sorted(s.substitutes - pay_names):
            raise t.error(("symbols", s.name, "substitutes"), f"{n!r} is not a pay symbol")
    for n in strip_rules.max_run_symbols:
        if n not in seen_names:
            raise t.error(("strip_rules", "max_run", "symbols"), f"unknown symbol {n!r}")

    fs = t.get(doc, (), "free_spins", dict, None)
    trigger: tuple[tuple[int, int], ...] = ()
    retrigger: tuple[tuple[int, int], ...] = ()
    retrigger_cap = None
    levels: list[Level] = []
    fs_strips = next(iter(strip_files))
    if fs is not None:
        fs_strips = t.get(fs, ("free_spins",), "strips", str)
        if fs_strips not in strip_files:
            raise t.error(("free_spins", "strips"), f"names unknown strip set {fs_strips!r}")
        _refuse_unknown(t, fs, ("free_spins",), ("strips", "trigger", "retrigger", "retrigger_cap", "levels")
                        + FREE_SPIN_RULE_KEYS, "key")
        trigger = _count_table(t, fs, "trigger", "initial free spins", cells=reels * rows)
        if fs.get("retrigger", False) is not False:
            retrigger = _count_table(t, fs, "retrigger", "extra free spins", cells=reels * rows)
        retrigger_cap = t.get(fs, ("free_spins",), "retrigger_cap", int, None)
        if retrigger_cap is not None and retrigger_cap < 1:
            raise t.error(("free_spins", "retrigger_cap"), "must be at least 1 free spin")
        lv_list = t.get(fs, ("free_spins",), "levels", list)
        if not lv_list:
            raise t.error(("free_spins", "levels"), "needs at least one level")
        prev = -1
        for i, lv in enumerate(lv_list):
            path = ("free_spins", "levels", i)
            if not isinstance(lv, dict):
                raise t.error(path, f"level {i + 1} must be a table")
            threshold = t.get(lv, path, "threshold", int, 0)
            spins = t.get(lv, path, "spins", int, None)
            mult = t.get(lv, path, "multiplier", int)
            _refuse_unknown(t, lv, path, ("threshold", "spins", "multiplier", "weights")
                            + plugins.keys_of(("free_spins", "levels")), "key")
            wname = t.get(lv, path, "weights", str, f"level{i + 1}")
            if i == 0 and spins is not None:
                raise t.error(path + ("spins",), "level 1 plays the initial free spins; give it no 'spins'")
            if i > 0 and (spins is None or spins < 1):
                raise t.error(path + ("spins",), f"level {i + 1} needs spins >= 1")
            if threshold < 0 or threshold < prev:
                raise t.error(path + ("threshold",), f"level {i + 1} threshold must not fall")
            if mult < 1:
                raise t.error(path + ("multiplier",), f"level {i + 1} multiplier must be at least 1 (got {mult}: "
                              f"its free spins would pay {'nothing' if mult == 0 else 'negative wins'})")
            prev = threshold
            levels.append(Level(number=i + 1, threshold=threshold, spins=spins, multiplier=mult, weights=wname))
        if retrigger and len(levels) > 1:
            raise t.error(("free_spins", "retrigger"), "unsupported rule: retrigger with a multi-level ladder")
    _check_free_spin_limits(t, trigger, retrigger, retrigger_cap, levels)
    # every FISH symbol and every WILD with a drawn multiplier needs a weight table
    # for every phase that can show it
    tables = ["base"] + [lv.weights for lv in levels]
    for s in symbols:
        if s.kind == FISH:
            weights, where = s.weights, ("symbols", s.name, "weights")
        elif s.has_random_multiplier:
            weights, where = s.multiplier.weights, ("symbols", s.name, "multiplier", "weights")
        else:
            continue
        for tn in tables:
            strip_set = "base" if tn == "base" else fs_strips
            if s.reels.get(strip_set) and tn not in weights:
                raise t.error(where, f"missing weight table {tn!r}")
        for tn in weights:
            if tn not in tables:   # a table no phase uses is a rule the file cannot mean: refuse it
                raise t.error(where + (tn,), f"weight table {tn!r} is used by no phase "
                              f"(the phases use {', '.join(dict.fromkeys(tables))})")
    _refuse_unknown(t, doc, (), ("game", "strips", "strip_rules", "symbols", "free_spins", "lines") + BONUS_TABLES
                    + plugins.keys_of(()), "table")
    symbols, extra = _catalogue_rules(t, doc, symbols, reels, rows, trigger, levels)
    model = GameModel(name=name, reels=reels, rows=rows, bet=bet, symbols=tuple(symbols),
                      strip_files=strip_files, strip_rules=strip_rules, trigger=trigger,
                      free_spin_strips=fs_strips, levels=tuple(levels), title=title,
                      retrigger=retrigger, retrigger_cap=retrigger_cap, **extra)
    model = parse_bonus_rules(t, doc, model)
    for parser in plugins.parsers():      # the keys of rule modules (strips.plugins)
        config = parser(t, doc, model)
        if config is not None:
            model = dataclasses.replace(model, rules=model.rules + (config,))
    return model


def _check_free_spin_limits(t: "_Toml", trigger, retrigger, retrigger_cap, levels) -> None:
    """The ``spins``, ``threshold``, ``retrigger_cap`` and ``chain_work`` limits of the free spins (before any work)."""
    for key, table in (("trigger", trigger), ("retrigger", retrigger)):
        for n, spins in table:
            _limit(t, ("free_spins", key, str(n)), "spins", spins, "free spins")
    for i, lv in enumerate(levels):
        if lv.spins is not None:
            _limit(t, ("free_spins", "levels", i, "spins"), "spins", lv.spins, "free spins")
        _limit(t, ("free_spins", "levels", i, "threshold"), "threshold", lv.threshold, "KEYs (threshold)")
    if retrigger and retrigger_cap is not None:
        _limit(t, ("free_spins", "retrigger_cap"), "retrigger_cap", retrigger_cap, "free spins (retrigger cap)")
    if not levels or retrigger:          # a retrigger's work needs the strips: _check_retrigger_work
        return
    cap = max((lv.threshold for lv in levels[1:]), default=0)
    work = _limits.chain_work(max((s for _, s in trigger), default=0), [lv.spins or 0 for lv in levels[1:]], cap)
    _limit(t, ("free_spins",), "chain_work", work, "work units of the free-spin chain (spins x KEY counter x spins)")


def _check_retrigger_work(model: GameModel, strips: dict[str, ReelStrips], file: str, data: bytes) -> None:
    """The ``chain_work`` limit of free spins with retrigger under a cap (:func:`strips.limits.retrigger_work`).

    Needs the free-spin strips: the scatter counts a window can show and the
    bits of the stop combinations.  Refused in one line at the game file's
    ``retrigger_cap`` key.
    """
    cap = model.retrigger_cap
    if not model.retrigger or cap is None or not model.levels or model.free_spin_strips not in strips:
        return
    rs = strips[model.free_spin_strips]
    counted = [model.code(s.name) for s in model.symbols if s.kind == SCATTER or s.counts_as_scatter]
    outcomes = 1 + sum(int(np.isin(window_codes(c, model.rows), counted).sum(axis=1).max(initial=0))
                       for c in rs.codes)
    combos = 1
    for n in rs.lengths:
        combos *= n
    awards = sum(1 for s in model.symbols if s.kind in (PAY, SCATTER) for x in s.pays if x)
    passes = (awards + len(model.retrigger)) * max(len(model.trigger), 1)
    work = _limits.retrigger_work([n for _, n in model.trigger], [n for _, n in model.retrigger], cap, passes,
                                  outcomes, combos.bit_length())
    limit = _limits.exceeds("chain_work", work)
    if limit is not None:
        text = data.decode("utf-8", "replace").split("\n")
        row = next((i + 1 for i, line in enumerate(text) if re.match(r"\s*retrigger_cap\s*=", line)), 0)
        col = text[row - 1].index("retrigger_cap") + 1 if row else 0
        raise MathSetError(file, row, col, _limits.refusal(
            "chain_work", work, limit, f"work units of the free-spin chain (retrigger_cap = {cap:,}, {passes} award "
            f"passes, {outcomes} scatter counts; a lower retrigger_cap costs less)"))


#: The keys each symbol class may have; any other key is a rule the schema cannot express.
SYMBOL_KEYS = {
    PAY: ("class", "pays", "aliases"),
    WILD: ("class", "reels", "aliases", "substitutes", "multiplier", "pays", "counts_as_scatter"),
    KEY: ("class", "reels", "aliases"),
    SCATTER: ("class", "reels", "aliases", "pays"),
    FISH: ("class", "reels", "aliases", "values", "weights"),
}


def _weight_tables(t: "_Toml", spec: dict, path: tuple, values: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
    """The ``weights`` table of a FISH symbol or of a WILD multiplier: name -> integer weights.

    Each table (one per phase, section 7) has one integer weight per value,
    none negative, and a positive sum.

    Raises
    ------
    MathSetError
        At the table that is missing, not a list of integers, of the wrong
        length, has a negative weight or sums to zero.
    """
    wt = t.get(spec, path, "weights", dict)
    weights = {}
    for table_name in wt:
        w = t.get(wt, path + ("weights",), table_name, "ints")
        if len(w) != len(values):
            raise t.error(path + ("weights", table_name), f"has {len(w)} weights for {len(values)} values")
        if any(x < 0 for x in w):
            raise t.error(path + ("weights", table_name), "weights must not be negative")
        if sum(w) == 0:
            raise t.error(path + ("weights", table_name), "weights sum to zero")
        weights[table_name] = tuple(w)
    return weights


def _wild_multiplier(t: "_Toml", spec: dict, path: tuple) -> WildMultiplier:
    """A WILD's ``multiplier``: an integer >= 1 (fixed) or ``{ values, weights.<phase>, mode }``.

    ``mode`` is ``wild`` (one draw per WILD symbol in the window) or ``reel``
    (one draw per reel, shared by every WILD of the symbol on that reel); the
    weight tables are validated as FISH weight tables (:func:`_weight_tables`).

    Raises
    ------
    MathSetError
        A multiplier that is not an integer >= 1 or a table, values that are
        not integers >= 1, an unknown mode, bad weights, or an unknown key.
    """
    mp = path + ("multiplier",)
    raw = spec["multiplier"]
    if isinstance(raw, dict):
        _refuse_unknown(t, raw, mp, ("values", "weights", "mode"), "key")
        values = tuple(t.get(raw, mp, "values", "ints"))
        if not values or any(v < 1 for v in values):
            raise t.error(mp + ("values",), "must be a non-empty list of integer multipliers >= 1")
        mode = t.get(raw, mp, "mode", str)
        if mode not in MULTIPLIER_MODES:
            raise t.error(mp + ("mode",), f"must be 'wild' (one draw per WILD symbol), 'reel' "
                          f"(one draw per reel) or 'combination' (once per winning line or way), got {mode!r}")
        if mode == COMBINATION and len(values) == 1 and "weights" not in raw:
            return WildMultiplier(values=values, mode=mode)
        return WildMultiplier(values=values, weights=_weight_tables(t, raw, mp, values), mode=mode)
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        raise t.error(mp, f"must be an integer >= 1 or a table {{ values, weights, mode }}, got {raw!r}")
    return WildMultiplier(values=(raw,))


#: ``[free_spins]`` keys of issue 15 (real-catalogue trigger rules), parsed by :func:`_catalogue_rules`.
FREE_SPIN_RULE_KEYS = ("trigger_reels", "multiplier_by_trigger", "scatter")


def _catalogue_rules(t: "_Toml", doc: dict, symbols: list[Symbol], reels: int, rows: int,
                     trigger: tuple, levels: list[Level]) -> tuple[list[Symbol], dict]:
    """The rules of issue 15: ``[game] evaluation``, ``[lines] paylines``, a WILD's own ``pays`` and
    ``counts_as_scatter``, ``[free_spins] trigger_reels``, ``multiplier_by_trigger`` and ``scatter``.

    Returns
    -------
    (symbols, extra)
        The symbols with the WILD keys applied, and the extra
        :class:`GameModel` fields (``evaluation``, ``paylines`` 0-based,
        ``trigger_reels`` 0-based, ``multiplier_by_trigger``, ``scatter``).

    Raises
    ------
    MathSetError
        An unknown evaluation; ``[lines]`` in a ways game or missing in a
        line game; a payline with the wrong number of rows or a row outside
        1..rows; a WILD ``pays`` list of the wrong length or negative, or
        in a ways game; ``counts_as_scatter`` not a boolean or without a
        scatter symbol; several scatters with free spins and no
        ``[free_spins] scatter``; a ``scatter`` that names no scatter
        symbol; trigger reels out of range; a ``multiplier_by_trigger``
        with a key above the lowest trigger count or a multiplier < 1; and
        rules a line game cannot mean (KEY/FISH collect, a WILD multiplier
        in mode ``wild``/``reel``/fixed).
    """
    game = doc["game"]
    evaluation = t.get(game, ("game",), "evaluation", str, WAYS)
    if evaluation not in EVALUATIONS + plugins.evaluations():
        known = " or ".join(repr(e) for e in EVALUATIONS + plugins.evaluations())
        raise t.error(("game", "evaluation"), f"must be {known}, got {evaluation!r}")
    plugin_eval = plugins.evaluation(evaluation) or {}
    paylines: tuple[tuple[int, ...], ...] = ()
    if evaluation == LINES:
        lines = t.get(doc, (), "lines", dict)
        _refuse_unknown(t, lines, ("lines",), ("paylines",), "key")
        raw = t.get(lines, ("lines",), "paylines", list)
        if not raw:
            raise t.error(("lines", "paylines"), "needs at least one payline")
        out = []
        for i, line in enumerate(raw):
            if not isinstance(line, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in line):
                raise t.error(("lines", "paylines"), f"payline {i + 1} must be a list of row numbers, got {line!r}")
            if len(line) != reels:
                raise t.error(("lines", "paylines"), f"payline {i + 1} has {len(line)} rows, the game has {reels} reels")
            if any(v < 1 or v > rows for v in line):
                raise t.error(("lines", "paylines"), f"payline {i + 1}: rows must be between 1 (top) and {rows}")
            if tuple(v - 1 for v in line) in out:   # it would pay twice: never what a paytable means
                raise t.error(("lines", "paylines"), f"payline {i + 1} repeats payline "
                              f"{out.index(tuple(v - 1 for v in line)) + 1} ({line!r}): a duplicated payline pays twice")
            out.append(tuple(v - 1 for v in line))
        paylines = tuple(out)
        for s in symbols:
            if s.kind in (KEY, FISH):
                raise t.error(("symbols", s.name, "class"), f"unsupported rule: {s.kind} symbols (collect) in a "
                              f"line game")
            if s.multiplier is not None and not s.multiplier.is_combination:
                raise t.error(("symbols", s.name, "multiplier"), "unsupported rule: a WILD multiplier in a line "
                              "game other than mode = \"combination\"")
    elif "lines" in doc:
        raise t.error(("lines",), "a ways game has no paylines (set [game] evaluation = \"lines\")")
    scatters = [s for s in symbols if s.kind == SCATTER]
    fs = doc.get("free_spins") or {}
    scatter = t.get(fs, ("free_spins",), "scatter", str, None)
    if scatter is not None and scatter not in {s.name for s in scatters}:
        raise t.error(("free_spins", "scatter"), f"{scatter!r} is not a scatter symbol "
                      f"(scatters: {', '.join(s.name for s in scatters) or 'none'})")
    if scatter is None and trigger and len(scatters) > 1:
        raise t.error(("free_spins",), f"several scatter symbols ({', '.join(s.name for s in scatters)}): "
                      f"name the one that triggers with scatter = \"NAME\"")
    sym_table = doc["symbols"]
    new = []
    for s in symbols:
        spec = sym_table[s.name]
        path = ("symbols", s.name)
        if s.kind == WILD:
            changes = {}
            if "pays" in spec:
                pays = tuple(t.get(spec, path, "pays", "ints"))
                if evaluation != LINES and not plugin_eval.get("wild_pays"):
                    raise t.error(path + ("pays",), f"unsupported rule: own pays of a WILD in a {evaluation} game")
                _check_pays_length(t, doc, path, pays, reels, rows)
                if any(p < 0 for p in pays):
                    raise t.error(path + ("pays",), "pays must not be negative")
                changes["pays"] = pays
            cas = t.get(spec, path, "counts_as_scatter", bool, False)
            if cas and not scatters:
                raise t.error(path + ("counts_as_scatter",), "the game has no scatter symbol to count as")
            changes["counts_as_scatter"] = cas
            s = dataclasses.replace(s, **changes)
        new.append(s)
    wild_payers = [s for s in new if s.kind == WILD and s.pays and any(s.pays)]
    if wild_payers and len([s for s in new if s.kind == WILD]) > 1:
        raise t.error(("symbols", wild_payers[0].name, "pays"), "unsupported rule: own pays of a WILD in a "
                      "game with several WILD symbols")
    combination = [s for s in new if s.multiplier is not None and s.multiplier.is_combination]
    if len(combination) > 1:
        raise t.error(("symbols", combination[1].name, "multiplier"), "unsupported rule: several WILDs with "
                      "combination multipliers (one value is drawn per spin)")
    for s in combination:
        if s.multiplier.weights or len(s.multiplier.values) > 1:
            where = ("symbols", s.name, "multiplier", "weights")
            tables = ["base"] + [lv.weights for lv in levels]
            for tn in tables:
                if tn not in s.multiplier.weights:
                    raise t.error(where, f"missing weight table {tn!r}")
            for tn in s.multiplier.weights:
                if tn not in tables:
                    raise t.error(where + (tn,), f"weight table {tn!r} is used by no phase "
                                  f"(the phases use {', '.join(dict.fromkeys(tables))})")
    trigger_reels: frozenset[int] = frozenset()
    by_trigger: tuple[tuple[int, int], ...] = ()
    if "trigger_reels" in fs:
        lst = t.get(fs, ("free_spins",), "trigger_reels", "ints")
        if not lst or any(r < 1 or r > reels for r in lst):
            raise t.error(("free_spins", "trigger_reels"), f"must list reels between 1 and {reels}")
        trigger_reels = frozenset(r - 1 for r in lst)
    if "multiplier_by_trigger" in fs:
        by_trigger = _count_table(t, fs, "multiplier_by_trigger", "the free-spin multiplier", cells=reels * rows)
        if by_trigger[0][0] > trigger[0][0]:
            raise t.error(("free_spins", "multiplier_by_trigger"), f"sets no multiplier for a trigger of "
                          f"{trigger[0][0]} scatters (its lowest count is {by_trigger[0][0]})")
        if len(levels) > 1:
            raise t.error(("free_spins", "multiplier_by_trigger"), "unsupported rule: multiplier_by_trigger "
                          "with a multi-level ladder")
    return new, {"evaluation": evaluation, "paylines": paylines, "trigger_reels": trigger_reels,
                 "multiplier_by_trigger": by_trigger, "scatter": scatter}


def _check_pays_length(t: "_Toml", doc: dict, path: tuple, pays: tuple, reels: int, rows: int) -> None:
    """A ``pays`` list has one entry per reel, or, under an evaluation of a rule module that pays by a
    count of cells (:func:`strips.plugins.register_evaluation`), 1 .. reels x rows entries."""
    ev = plugins.evaluation(str(doc.get("game", {}).get("evaluation", WAYS)))
    if ev and ev["pays_by_cells"]:
        if not 1 <= len(pays) <= reels * rows:
            raise t.error(path + ("pays",), f"has {len(pays)} entries: give 1 to {reels * rows} (one per count of "
                          f"cells, the window has {reels * rows})")
    elif len(pays) != reels:
        raise t.error(path + ("pays",), f"has {len(pays)} entries, the game has {reels} reels")


def _refuse_unknown(t: "_Toml", table: dict, path: tuple, known: tuple, what: str) -> None:
    """A key the schema does not know is a rule it cannot express: refuse it, never ignore it."""
    for key in table:
        if key not in known:
            where = f"[{'.'.join(map(str, path))}]" if path else Path(t.file).name
            raise t.error(path + (key,), f"unsupported rule: {what} {key!r} in {where} "
                          f"(supported: {', '.join(known)})")


def _count_table(t: "_Toml", fs: dict, key: str, what: str, path: tuple = ("free_spins",),
                 kind=int, cells: int | None = None) -> tuple[tuple[int, Any], ...]:
    """Parse ``{ 3 = 10, 4 = 15 }``: scatter count -> spins (or another value of ``kind``), ascending.

    A count above ``cells`` (the window's reels x rows) is one no window can show: refused at its key.
    """
    table = t.get(fs, path, key, dict)
    pairs = []
    for k in table:
        if not k.isdigit() or int(k) < 1:
            raise t.error(path + (key, k), f"{key} keys must be scatter counts >= 1")
        if cells is not None and int(k) > cells:
            raise t.error(path + (key, k), f"{key} key {k} is a scatter count no window can show "
                          f"(the window has {cells} cells)")
        v = t.get(table, path + (key,), k, kind)
        if kind is int and v < 1:
            raise t.error(path + (key, k), f"{what} must be >= 1")
        pairs.append((int(k), v))
    if not pairs:
        raise t.error(path + (key,), "is empty")
    return tuple(sorted(pairs))


# --------------------------------------------------------------------------
# reel-strip CSV
# --------------------------------------------------------------------------
def parse_strips(data: bytes, file: str, model: GameModel, strip_set: str) -> tuple[ReelStrips, list[Finding]]:
    """Parse and validate one strip-set CSV.

    Parameters
    ----------
    data : bytes
        CSV content: header ``reel1..reelN``, then one row per strip position.
    file : str
        Path used in messages.
    model : GameModel
    strip_set : str
        ``"base"`` or ``"bonus"``: which placement rules apply.

    Returns
    -------
    (ReelStrips, list of Finding)

    Raises
    ------
    MathSetError
        Malformed CSV, a header that is not ``reel1..reelN`` for the model's
        N reels, an unknown symbol, a symbol on a reel the model forbids for
        this strip set, a gap inside a column, a reel with fewer symbols than
        window rows.  Source: rules page sections 3 and 4.
    """
    text = _decode(data, file, cells=True)
    records: list[tuple[int, list[str]]] = []  # (1-based line where the record starts, cells)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    line = 1
    max_stops = _limits.active().stops
    try:
        for cells in reader:
            records.append((line, cells))
            if max_stops is not None and len(records) > max_stops + 1:  # the header and max_stops stops
                raise MathSetError(file, line, 1, f"more than the limit of {max_stops:,} stops per reel strip "
                                   f"(raise it with {_limits.option('stops')} N, or --no-limits)")
            line = reader.line_num + 1
    except csv.Error as e:
        row, col = _csv_error_cell(text, line)
        raise MathSetError(file, row, col, f"malformed CSV: {e}") from None
    expected = [f"reel{i + 1}" for i in range(model.reels)]
    if not records or not any(c.strip() for c in records[0][1]):
        raise MathSetError(file, 1, 1, f"no header: line 1 must be {','.join(expected)}")
    header = [c.strip() for c in records[0][1]]
    while len(header) > model.reels and not header[-1]:
        header.pop()  # trailing empty cells, as in the data rows
    if len(header) != model.reels:
        raise MathSetError(file, 1, min(len(header), model.reels) + 1,
                           f"wrong reel count: header has {len(header)} columns, "
                           f"the game has {model.reels} reels ({','.join(expected)})")
    for j, (h, e) in enumerate(zip(header, expected)):
        if h.lower() != e:
            raise MathSetError(file, 1, j + 1, f"header column {j + 1} is {h!r}, expected {e!r}")
    columns: list[list[str]] = [[] for _ in range(model.reels)]
    ended = [0] * model.reels  # line where the column ended, 0 = still open
    lookup = {}
    for code, s in enumerate(model.symbols):
        for n in (s.name,) + s.aliases:
            lookup[n] = code
    codes: list[list[int]] = [[] for _ in range(model.reels)]
    for i, row in records[1:]:
        if len(row) > model.reels and any(c.strip() for c in row[model.reels:]):
            raise MathSetError(file, i, model.reels + 1, f"wrong reel count: row has {len(row)} cells, "
                               f"the game has {model.reels} reels")
        for j in range(model.reels):
            cell = row[j].strip() if j < len(row) else ""
            if not cell:
                if not ended[j]:
                    ended[j] = i
                continue
            if ended[j]:
                raise MathSetError(file, ended[j], j + 1, f"reel {j + 1} has an empty cell inside its strip "
                                   f"(a reel may only end with empty trailing cells)")
            code = lookup.get(cell)
            if code is None:
                raise MathSetError(file, i, j + 1, f"unknown symbol {cell!r} "
                                   f"(known: {', '.join(model.names)})")
            sym = model.symbols[code]
            if not sym.allowed_on(strip_set, j):
                where = sorted(r + 1 for r in sym.reels.get(strip_set, ()))
                allowed = (f"reel{'s' if len(where) > 1 else ''} {', '.join(map(str, where))}"
                           if where else "no reel")
                named = sym.name if cell == sym.name else f"{cell} ({sym.name})"
                raise MathSetError(file, i, j + 1, f"{named} is not allowed on {strip_set} reel {j + 1} "
                                   f"(allowed on {allowed} of the {strip_set} strips)")
            columns[j].append(sym.name)
            codes[j].append(code)
    for j, col in enumerate(columns):
        if len(col) < model.rows:
            raise MathSetError(file, ended[j] or line, j + 1, f"reel {j + 1} has {len(col)} symbols, "
                               f"fewer than the {model.rows} window rows")
    strips = ReelStrips(name=strip_set, reels=tuple(tuple(c) for c in columns),
                        codes=tuple(np.array(c, dtype=np.int64) for c in codes))
    return strips, strip_findings(strips, model, file)


def _csv_error_cell(text: str, line: int) -> tuple[int, int]:
    """(line, cell) of the quoting error in the CSV record that starts on 1-based ``line``.

    Finds an opening quote that is never closed, a character after a closing
    quote, or a cell longer than the csv module's field limit; else the start
    of the record.  Lines are split as the csv module splits them.
    """
    lines = list(io.StringIO(text, newline=""))
    limit = csv.field_size_limit()
    cell, state, size, opened = 1, "start", 0, (line, 1)
    for n in range(line - 1, len(lines)):
        for ch in lines[n]:
            if state == "quoted":
                if ch == '"':
                    state = "closed"
                else:
                    size += 1
                    if size > limit:
                        return opened
                continue
            if state == "closed":
                if ch == '"':  # a doubled quote inside a quoted cell
                    state, size = "quoted", size + 1
                    continue
                if ch not in ",\r\n":
                    return n + 1, cell
            if ch == ",":
                cell, state, size = cell + 1, "start", 0
            elif ch in "\r\n":
                return line, 1
            elif ch == '"' and state == "start":
                state, opened = "quoted", (n + 1, cell)
            else:
                state, size = "field", size + 1
                if size > limit:
                    return n + 1, cell
    return opened if state == "quoted" else (line, 1)


def strip_findings(strips: ReelStrips, model: GameModel, file: str) -> list[Finding]:
    """Soft findings for the strip rules of the game file (rules-page section 3 in the bundled set).

    Returns one :class:`Finding` per reel and rule broken: a strip length
    other than ``strip_rules.length`` or its entry of ``strip_rules.lengths``;
    with neither declared, a reel shorter than the longest reel (its CSV
    column ends early: the finding names the reel, its length and the line);
    two special symbols with fewer than
    ``min_pay_between_specials`` pay symbols between them (cyclic); a run of
    more than ``max_run_length`` symbols from ``max_run_symbols`` (cyclic).
    """
    rules = model.strip_rules
    out: list[Finding] = []
    special = {s.name for s in model.symbols if s.is_special}
    longest = max(strips.lengths)
    declared = rules.lengths_of(strips.name)
    for j, reel in enumerate(strips.reels):
        n = len(reel)
        if rules.length is not None and n != rules.length:
            out.append(Finding(file, 1, j + 1, f"reel {j + 1} has {n} stops, [strip_rules] length says {rules.length}"))
        elif declared is not None and n != declared[j]:
            out.append(Finding(file, n + 2, j + 1, f"reel {j + 1} has {n} stops, [strip_rules] lengths says "
                               f"{declared[j]}"))
        elif rules.length is None and declared is None and n < longest:
            widest = strips.lengths.index(longest) + 1
            shown = f"[{', '.join(map(str, strips.lengths))}]"
            hint = shown if len(model.strip_files) == 1 else f"{{ {strips.name} = {shown}, ... }} (one list per strip set)"
            out.append(Finding(file, n + 2, j + 1, f"reel {j + 1} has {n} stops, fewer than reel {widest} "
                               f"({longest}): its column ends early at line {n + 2} (if the reels differ on "
                               f"purpose, say so in game.toml: [strip_rules] lengths = {hint})"))
        gap = rules.min_pay_between_specials
        if gap:
            pos = [i for i, s in enumerate(reel) if s in special]
            for a, b in zip(pos, pos[1:] + [pos[0] + n] if pos else []):
                between = b - a - 1
                if len(pos) == 1:
                    between = n - 1
                if between < gap:
                    out.append(Finding(file, a + 2, j + 1, f"reel {j + 1}: only {between} pay symbols between "
                                       f"{reel[a]} at position {a} and {reel[b % n]} at position {b % n} "
                                       f"([strip_rules] min_pay_between_specials: {gap} or more)"))
                    break
        if rules.max_run_length and rules.max_run_symbols:
            inrun = [s in rules.max_run_symbols for s in reel]
            if all(inrun):
                out.append(Finding(file, 2, j + 1, f"reel {j + 1} holds only {'/'.join(sorted(rules.max_run_symbols))} symbols"))
                continue
            start = next(i for i in range(n) if not inrun[i])
            length = 0
            for k in range(1, n + 1):
                i = (start + k) % n
                if inrun[i]:
                    length += 1
                    if length == rules.max_run_length + 1:
                        first = (i - length + 1) % n
                        out.append(Finding(file, first + 2, j + 1, f"reel {j + 1}: run of more than "
                                           f"{rules.max_run_length} of {', '.join(sorted(rules.max_run_symbols))} from position {first} "
                                           f"([strip_rules] max_run: {rules.max_run_length} at most)"))
                        break
                else:
                    length = 0
    return out


# --------------------------------------------------------------------------
# issue 16: bet modes, bought features, respins, jackpots, prize wheels, gamble
# --------------------------------------------------------------------------
#: The top-level tables of issue 16 (each parsed below).
BONUS_TABLES = ("modes", "buy", "jackpots", "wheel", "gamble")
_AWARD = re.compile(r"^\s*(\S+)\s+(\S+)\s*$")
_FRACTION = re.compile(r"^\s*(\d+)\s*(?:/\s*(\d+))?\s*$")


def parse_bonus_rules(t: "_Toml", doc: dict, model: GameModel) -> GameModel:
    """The model with its ``[modes]``, ``[buy]``, ``[jackpots]``, ``[wheel]`` and ``[gamble]``.

    Raises
    ------
    MathSetError
        At the key that is wrong: a wheel symbol that is not a scatter-class
        symbol of the game or is the one that starts the free spins; a mode named ``default`` or with a
        cost < 1, a strip set the game does not have, a trigger or a
        ``free_spins`` award in a game without free spins; a respin symbol
        that is not in the game or a count < 1; a buy trigger that is not a
        key of the trigger table; wheel weights that are negative, of the
        wrong length or sum to 0; an award that is not ``credits N``,
        ``jackpot NAME`` (NAME in ``[jackpots]``) or ``free_spins N``; a
        gamble probability that is not an exact fraction in [0, 1].
        Source: issue 16.
    """
    names = {n for s in model.symbols for n in (s.name,) + s.aliases}
    jackpots = {}
    jt = t.get(doc, (), "jackpots", dict, {})
    for name in jt:
        v = t.get(jt, ("jackpots",), name, int)
        if v < 0:
            raise t.error(("jackpots", name), "a jackpot is a fixed number of credits >= 0")
        jackpots[name] = v
    modes = []
    for name, spec in t.get(doc, (), "modes", dict, {}).items():
        path = ("modes", name)
        if not isinstance(spec, dict):
            raise t.error(path, "must be a table")
        if name == DEFAULT_MODE:
            raise t.error(path, f"{DEFAULT_MODE!r} is the game's own mode ([game] bet); give the mode another name")
        _refuse_unknown(t, spec, path, ("cost", "strips", "trigger", "respin"), "key")
        cost = _positive(t, spec, path, "cost", "credits per round")
        files = {}
        for set_name in t.get(spec, path, "strips", dict, {}):
            fname = t.get(spec["strips"], path + ("strips",), set_name, str)
            if set_name not in model.strip_files:
                raise t.error(path + ("strips", set_name), f"names unknown strip set {set_name!r} "
                              f"(the game's: {', '.join(model.strip_files)})")
            if not fname or "/" in fname or "\\" in fname:
                raise t.error(path + ("strips", set_name), "must be a file name inside the math-set directory")
            files[set_name] = fname
        trigger = ()
        if "trigger" in spec:
            if not model.trigger:
                raise t.error(path + ("trigger",), "the game has no [free_spins] whose trigger a mode could replace")
            trigger = _count_table(t, spec, "trigger", "initial free spins", path,
                                   cells=model.reels * model.rows)
        respin = None
        if "respin" in spec:
            rp = path + ("respin",)
            rs = t.get(spec, path, "respin", dict)
            _refuse_unknown(t, rs, rp, ("symbol", "count"), "key")
            symbol = t.get(rs, rp, "symbol", str)
            if symbol not in names:
                raise t.error(rp + ("symbol",), f"unknown symbol {symbol!r} (known: {', '.join(model.names)})")
            count = _positive(t, rs, rp, "count", "symbols")
            if count > model.reels * model.rows:
                raise t.error(rp + ("count",), f"{count} {symbol} symbols cannot show in a window of "
                              f"{model.reels * model.rows} cells")
            respin = Respin(symbol=model.symbol(symbol).name, count=count)
        modes.append(Mode(name=name, cost=cost, strips=files, trigger=trigger, respin=respin))
    buys = []
    for name, spec in t.get(doc, (), "buy", dict, {}).items():
        path = ("buy", name)
        if not isinstance(spec, dict):
            raise t.error(path, "must be a table")
        _refuse_unknown(t, spec, path, ("cost", "trigger"), "key")
        cost = _positive(t, spec, path, "cost", "credits")
        trigger = t.get(spec, path, "trigger", int)
        if trigger not in dict(model.trigger):
            keys = ", ".join(str(c) for c, _ in model.trigger) or "none: the game has no [free_spins]"
            raise t.error(path + ("trigger",), f"the game cannot have a trigger of {trigger} "
                          f"(trigger table keys: {keys})")
        buys.append(Buy(name=name, cost=cost, trigger=trigger))
    wheels = []
    for name, spec in t.get(doc, (), "wheel", dict, {}).items():
        wheels.append(_wheel(t, ("wheel", name), spec, model, jackpots))
    gamble = None
    if "gamble" in doc:
        gamble = _gamble(t, t.get(doc, (), "gamble", dict))
    return dataclasses.replace(model, modes=tuple(modes), buys=tuple(buys), jackpots=jackpots,
                               wheels=tuple(wheels), gamble=gamble)


def _at_least(t: "_Toml", spec: dict, path: tuple, key: str, least: int, what: str, default: Any = None):
    """The integer ``path.key``, refused at its key when below ``least``; ``default`` when absent (``...``:
    required)."""
    v = t.get(spec, path, key, int, default)
    if v is not None and v < least:
        raise t.error(path + (key,), f"must be at least {least} ({what}), got {v}")
    return v


def _positive(t: "_Toml", spec: dict, path: tuple, key: str, what: str) -> int:
    return _at_least(t, spec, path, key, 1, what, ...)


def _scatter_symbol(t: "_Toml", spec: dict, path: tuple, key: str, model: GameModel) -> str:
    """The canonical name of a scatter-class symbol named at ``path.key``."""
    name = t.get(spec, path, key, str)
    try:
        sym = model.symbol(name)
    except KeyError:
        raise t.error(path + (key,), f"unknown symbol {name!r} (known: {', '.join(model.names)})") from None
    if sym.kind != SCATTER:
        raise t.error(path + (key,), f"{name} is a {sym.kind} symbol, not a scatter-class symbol")
    return sym.name


def _wheel(t: "_Toml", path: tuple, spec, model: GameModel, jackpots: dict) -> Wheel:
    """One ``[wheel.NAME]``: symbol, tables (count -> prize table), prizes (awards, weights)."""
    if not isinstance(spec, dict):
        raise t.error(path, "must be a table")
    _refuse_unknown(t, spec, path, ("symbol", "tables", "prizes"), "key")
    symbol = _scatter_symbol(t, spec, path, "symbol", model)
    if model.trigger and symbol == model.trigger_symbol.name:
        raise t.error(path + ("symbol",), f"{symbol} starts the free spins ([free_spins] scatter, or the "
                      "game's only scatter); a wheel's symbol starts only its wheel")
    if any(model.symbol(symbol).pays):
        raise t.error(path + ("symbol",), f"unsupported rule: scatter pays of the wheel symbol {symbol}")
    tables = _count_table(t, spec, "tables", "", path, kind=str)
    prize_specs = t.get(spec, path, "prizes", dict)
    for count, name in tables:
        if name not in prize_specs:
            raise t.error(path + ("tables", str(count)), f"names unknown prize table {name!r} "
                          f"(defined: {', '.join(prize_specs) or 'none'})")
    prizes = {}
    for name, ps in prize_specs.items():
        pp = path + ("prizes", name)
        if not isinstance(ps, dict):
            raise t.error(pp, "must be a table")
        if name not in {n for _, n in tables}:   # a table no count spins is a rule the file cannot mean
            raise t.error(pp, f"prize table {name!r} is used by no count of 'tables'")
        _refuse_unknown(t, ps, pp, ("awards", "weights"), "key")
        texts = t.get(ps, pp, "awards", list)
        awards = tuple(_award(t, pp + ("awards",), a, model, jackpots) for a in texts)
        weights = tuple(t.get(ps, pp, "weights", "ints"))
        if not awards:
            raise t.error(pp + ("awards",), "needs at least one award")
        if len(weights) != len(awards):
            raise t.error(pp + ("weights",), f"has {len(weights)} weights for {len(awards)} awards")
        if any(w < 0 for w in weights):
            raise t.error(pp + ("weights",), "weights must not be negative")
        if sum(weights) == 0:
            raise t.error(pp + ("weights",), "weights sum to zero")
        prizes[name] = PrizeTable(name=name, awards=awards, weights=weights)
    return Wheel(name=path[-1], symbol=symbol, tables=tables, prizes=prizes)


def _award(t: "_Toml", path: tuple, text, model: GameModel, jackpots: dict) -> Award:
    """``credits N``, ``jackpot NAME`` or ``free_spins N``."""
    m = _AWARD.match(text) if isinstance(text, str) else None
    if not m or m.group(1) not in AWARD_KINDS:
        raise t.error(path, f"award {text!r} is not 'credits N', 'jackpot NAME' or 'free_spins N'")
    kind, arg = m.groups()
    if kind == JACKPOT:
        if arg not in jackpots:
            raise t.error(path, f"award {text!r} names unknown jackpot {arg!r} "
                          f"([jackpots]: {', '.join(jackpots) or 'none'})")
        return Award(kind, jackpot=arg)
    if not arg.isdigit() or (kind == FREE_SPINS and int(arg) < 1):
        raise t.error(path, f"award {text!r}: N must be an integer >= {1 if kind == FREE_SPINS else 0}")
    if kind == FREE_SPINS and not model.levels:
        raise t.error(path, f"award {text!r}: the game has no [free_spins]")
    return Award(kind, amount=int(arg))


def _gamble(t: "_Toml", spec: dict) -> Gamble:
    """``[gamble]``: min_win, max_win (credits), multiplier, probability as an exact ``"p/q"``."""
    path = ("gamble",)
    _refuse_unknown(t, spec, path, ("min_win", "max_win", "multiplier", "probability"), "key")
    min_win = t.get(spec, path, "min_win", int)
    max_win = t.get(spec, path, "max_win", int)
    multiplier = _positive(t, spec, path, "multiplier", "the factor a won gamble pays")
    if min_win < 1:
        raise t.error(path + ("min_win",), "must be at least 1 credit")
    if max_win < min_win:
        raise t.error(path + ("max_win",), f"must be at least min_win ({min_win})")
    raw = spec.get("probability")
    m = _FRACTION.match(raw) if isinstance(raw, str) else None
    if raw is None:
        raise t.error(path + ("probability",), "required key is missing")
    if not m or (m.group(2) is not None and int(m.group(2)) == 0):
        raise t.error(path + ("probability",), f"must be an exact fraction as a string such as \"12/25\", got {raw!r}")
    p = Fraction(int(m.group(1)), int(m.group(2) or 1))
    if p > 1:
        raise t.error(path + ("probability",), f"must be between 0 and 1, got {raw}")
    return Gamble(min_win=min_win, max_win=max_win, multiplier=multiplier, probability=p)


# --------------------------------------------------------------------------
# published.toml: what the game's rules page or PAR sheet prints
# --------------------------------------------------------------------------
#: The tables of published.toml and the keys of each entry (any other is refused).
PUBLISHED_KEYS = {
    "facts": ("figure", "printed", "source", "label", "per_bet"),
    "windows": ("strip_set", "stops", "window", "source"),
    "strip_rules": ("strip_set", "reels", "length", "lengths", "min_pay_between_specials", "max_run", "source"),
    "placements": ("strip_set", "symbol", "reels", "source"),
    "totals": ("strip_set", "symbols", "class", "count", "source"),
    "assumptions": ("figure", "target", "tolerance", "source"),
}
RULES_KEYS = ("source", "sources", "bet", "pays", "substitutes", "values", "probabilities", "trigger_spins",
              "levels", "retrigger")
_FIGURE = re.compile(r"^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$")


def parse_published(data: bytes, file: str, model: GameModel, strips: dict[str, ReelStrips]) -> pub.Published:
    """Parse and validate a ``published.toml`` against the set's game and strips.

    Parameters
    ----------
    data : bytes
        File content.
    file : str
        Path used in messages.
    model : GameModel
    strips : mapping str -> ReelStrips
        The set's strips (a window's stops must lie on them).

    Returns
    -------
    strips.published.Published

    Raises
    ------
    MathSetError
        Naming file, row and column: malformed TOML; an unknown table or key;
        a missing or mistyped key; a printed figure that is not a decimal, a
        per cent or ``1 in N``; a figure key that is not dotted words; a strip
        set, symbol or symbol class the game does not have; a window whose
        stops or rows do not name one entry per reel; a reel out of range; a
        negative count.  (A stop past the end of a reel, or a window of
        another height than the game's, is a FAIL of that fact: data of the
        strips and game, checked by ``rtp check``.)  (A figure the report does not have is found when the
        facts are checked: ``exact.facts``.)

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> ms.published.facts[0].figure, ms.published.facts[0].printed.text
    ('trigger.3', '0.005558')
    """
    text = _decode(data, file)
    doc = _parse_toml(text, file)
    t = _Toml(text, file)
    _check_document(t, doc)
    _refuse_unknown(t, doc, (), tuple(PUBLISHED_KEYS) + ("rules",), "table")

    def entries(table: str):
        rows = doc.get(table, [])
        if not isinstance(rows, list) or not all(isinstance(e, dict) for e in rows):
            raise t.error((table,), f"must be an array of tables: [[{table}]]")
        for i, e in enumerate(rows):
            path = (table, i)
            _refuse_unknown(t, e, path, PUBLISHED_KEYS[table], "key")
            yield path, e

    def text_key(e, path, key, default=...):
        v = t.get(e, path, key, str, default)
        if v is not default and isinstance(v, str) and not v.strip():
            raise t.error(path + (key,), "must not be empty")
        return v

    def printed(e, path, key) -> pub.Printed:
        value = t.get(e, path, key, str)   # its own error, once
        try:
            return pub.Printed.parse(value)
        except ValueError as err:
            raise t.error(path + (key,), str(err)) from None

    def located(path, key) -> pub.Located:
        row, col = t.locate(path + (key,))
        return pub.Located(file, row, col)

    def strip_set(e, path) -> str:
        name = t.get(e, path, "strip_set", str)
        if name not in strips:
            raise t.error(path + ("strip_set",), f"the game has no strip set {name!r} "
                          f"(it has {', '.join(strips)})")
        return name

    def symbol(name, where) -> str:
        if not isinstance(name, str):
            raise t.error(where, f"must be a symbol name, got {name!r}")
        try:
            return model.symbol(name).name
        except (KeyError, ValueError):
            raise t.error(where, f"unknown symbol {name!r} (known: {', '.join(model.names)})") from None

    def reel_list(e, path, key) -> tuple[int, ...]:
        reels = t.get(e, path, key, "ints")
        if any(r < 1 or r > model.reels for r in reels):
            raise t.error(path + (key,), f"reels are 1 to {model.reels}, got {reels!r}")
        return tuple(reels)

    def count(e, path, key, least=0, default=...):
        v = t.get(e, path, key, int, default)
        if v is not None and v is not default and v < least:
            raise t.error(path + (key,), f"must be {least} or more, got {v}")
        return v

    facts = []
    for path, e in entries("facts"):
        figure = t.get(e, path, "figure", str)
        if not _FIGURE.match(figure):
            raise t.error(path + ("figure",), f"figure {figure!r} is not a report figure key "
                          "(dotted words, e.g. rtp, trigger.3, key_2plus.base)")
        facts.append(pub.Fact(figure=figure, printed=printed(e, path, "printed"),
                              source=text_key(e, path, "source", ""), label=text_key(e, path, "label", ""),
                              per_bet=t.get(e, path, "per_bet", bool, False), at=located(path, "figure")))

    windows = []
    for path, e in entries("windows"):
        name = strip_set(e, path)
        stops = tuple(t.get(e, path, "stops", "ints"))
        if len(stops) != model.reels or any(x < 0 for x in stops):
            raise t.error(path + ("stops",), f"must be {model.reels} stop positions >= 0, one per reel, "
                          f"got {list(stops)!r}")
        rows = t.get(e, path, "window", list)
        if not rows:
            raise t.error(path + ("window",), "must list the window's rows, top row first")
        for row in rows:
            cells = row.split() if isinstance(row, str) else None
            if cells is None or len(cells) != model.reels:
                raise t.error(path + ("window",), f"row {row!r} must name {model.reels} symbols "
                              "separated by spaces")
            for c in cells:
                symbol(c, path + ("window",))
        windows.append(pub.Window(name, stops, tuple(" ".join(symbol(c, ()) for c in r.split()) for r in rows),
                                  text_key(e, path, "source", "")))

    shapes = []
    for path, e in entries("strip_rules"):
        run = t.get(e, path, "max_run", dict, {})
        _refuse_unknown(t, run, path + ("max_run",), ("symbols", "length"), "key")
        run_symbols = tuple(symbol(x, path + ("max_run", "symbols")) for x in
                            t.get(run, path + ("max_run",), "symbols", list, []))
        lengths = t.get(e, path, "lengths", "ints", None)
        if lengths is not None and ("length" in e or any(n < 1 for n in lengths)):
            raise t.error(path + ("lengths",), "must be stop counts >= 1, one per reel, and not given with length")
        shapes.append(pub.StripShape(
            strip_set(e, path), reels=count(e, path, "reels", 1, None), length=count(e, path, "length", 1, None),
            lengths=None if lengths is None else tuple(lengths),
            min_pay_between_specials=count(e, path, "min_pay_between_specials", 0, None),
            max_run_symbols=run_symbols, max_run_length=count(run, path + ("max_run",), "length", 1, None),
            source=text_key(e, path, "source", "")))

    placements = []
    for path, e in entries("placements"):
        placements.append(pub.Placement(strip_set(e, path), symbol(t.get(e, path, "symbol", str), path + ("symbol",)),
                                        reel_list(e, path, "reels"), text_key(e, path, "source", "")))

    totals = []
    for path, e in entries("totals"):
        name = strip_set(e, path)
        if ("symbols" in e) == ("class" in e):
            raise t.error(path, "give the symbols counted: either symbols = [...] or class = \"...\" (not both)")
        if "class" in e:
            kind = t.get(e, path, "class", str)
            members = tuple(s.name for s in model.of_kind(kind))
            if not members:
                raise t.error(path + ("class",), f"the game has no symbol of class {kind!r}")
            label = kind.upper()
        else:
            members = tuple(symbol(x, path + ("symbols",)) for x in t.get(e, path, "symbols", list))
            if not members:
                raise t.error(path + ("symbols",), "must name at least one symbol")
            label = "/".join(members)
        totals.append(pub.Total(name, members, count(e, path, "count"), label, text_key(e, path, "source", "")))

    assumptions = []
    for path, e in entries("assumptions"):
        figure = t.get(e, path, "figure", str)
        if not _FIGURE.match(figure):
            raise t.error(path + ("figure",), f"figure {figure!r} is not a report figure key")
        target, tol = printed(e, path, "target"), printed(e, path, "tolerance")
        if tol.kind != target.kind or tol.kind == pub.ONE_IN:
            raise t.error(path + ("tolerance",), "must be printed like the target (both per cent or both decimal)")
        assumptions.append(pub.Assumption(figure, target, tol, text_key(e, path, "source", ""),
                                          at=located(path, "figure")))

    rules = _published_rules(t, doc.get("rules", {}), model, symbol)
    return pub.Published(file=file, facts=tuple(facts), windows=tuple(windows), strip_rules=tuple(shapes),
                         placements=tuple(placements), totals=tuple(totals), rules=rules,
                         assumptions=tuple(assumptions), sha256=hashlib.sha256(data).hexdigest())


def _published_rules(t: "_Toml", rules, model: GameModel, symbol) -> pub.RulesText:
    """The ``[rules]`` table of published.toml (see :class:`strips.published.RulesText`)."""
    path = ("rules",)
    if not isinstance(rules, dict):
        raise t.error(path, "must be a table")
    _refuse_unknown(t, rules, path, RULES_KEYS, "key")
    sources = t.get(rules, path, "sources", dict, {})
    _refuse_unknown(t, sources, path + ("sources",), RULES_KEYS[2:], "key")
    for k in sources:
        t.get(sources, path + ("sources",), k, str)

    def table(key, kind):
        tab = t.get(rules, path, key, dict, {})
        return tuple((symbol(k, path + (key, k)), tuple(t.get(tab, path + (key,), k, kind))) for k in tab)

    pays = table("pays", "ints")
    for name, p in pays:
        if len(p) != model.reels or any(x < 0 for x in p):
            raise t.error(path + ("pays", name), f"must be {model.reels} pays >= 0, one per OAK 1..{model.reels}")
    substitutes = tuple((w, tuple(symbol(x, path + ("substitutes", w)) for x in xs))
                        for w, xs in table("substitutes", list))
    values = table("values", "ints")
    probs = []
    ptab = t.get(rules, path, "probabilities", dict, {})
    for name in ptab:
        where = path + ("probabilities", name)
        per_table = t.get(ptab, path + ("probabilities",), name, dict)
        rows = []
        for tn in per_table:
            texts = t.get(per_table, where, tn, list)
            parsed = []
            for x in texts:
                try:
                    parsed.append(pub.Printed.parse(x))
                except ValueError as err:
                    raise t.error(where + (tn,), str(err)) from None
            rows.append((tn, tuple(parsed)))
        probs.append((symbol(name, where), tuple(rows)))
    trigger = None
    if "trigger_spins" in rules:
        tab = t.get(rules, path, "trigger_spins", dict)
        pairs = []
        for k in tab:
            if not k.isdigit():
                raise t.error(path + ("trigger_spins", k), "keys must be scatter counts")
            pairs.append((int(k), t.get(tab, path + ("trigger_spins",), k, int)))
        trigger = tuple(sorted(pairs))
    levels = None
    if "levels" in rules:
        raw = t.get(rules, path, "levels", list)
        levels = []
        for i, lv in enumerate(raw):
            where = path + ("levels",)
            if not isinstance(lv, dict):
                raise t.error(where, f"level {i + 1} must be a table {{ threshold, spins, multiplier }}")
            _refuse_unknown(t, lv, where, ("threshold", "spins", "multiplier"), "key")
            levels.append(pub.Level(t.get(lv, where, "threshold", int), t.get(lv, where, "spins", int, None),
                                    t.get(lv, where, "multiplier", int)))
        levels = tuple(levels)
    return pub.RulesText(source=t.get(rules, path, "source", str, ""), bet=t.get(rules, path, "bet", int, None),
                         pays=pays, substitutes=substitutes, values=values, probabilities=tuple(probs),
                         trigger_spins=trigger, levels=levels, retrigger=t.get(rules, path, "retrigger", bool, None),
                         sources=tuple(sources.items()))
