"""Reading a math set's text files with positions: UTF-8 decoding, the TOML reader that locates every key.

:class:`TomlFile` parses a ``game.toml`` or ``published.toml`` and gives the
file, row and column of any key path (``t.error(path, message)`` raises
:class:`strips.errors.MathSetError` there); the parsers of
:mod:`strips.game_toml`, :mod:`strips.modes_toml` and
:mod:`strips.published_toml` and the rule modules' key parsers
(:mod:`strips.plugins`) report through it.
"""
from __future__ import annotations

import bisect
import re
import sys
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

from strips import limits as _limits
from strips.errors import MathSetError


def _position(data: bytes | str, index: int, cells: bool) -> tuple[int, int]:
    """1-based (line, column) of ``data[index]``.

    ``column`` is the character column, or with ``cells`` the 1-based CSV cell
    (reel) number: one more than the commas before it on its line.
    """
    nl, comma = ("\n", ",") if isinstance(data, str) else (b"\n", b",")
    start = data.rfind(nl, 0, index) + 1
    line = data.count(nl, 0, index) + 1
    return line, (data.count(comma, start, index) + 1 if cells else index - start + 1)


def decode_text(data: bytes, file: str, cells: bool = False) -> str:
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


class TomlFile:
    """Typed access to a parsed TOML document that reports the line of a bad key.

    A key path is a tuple of table keys; an int in it is the 0-based index of
    an entry of an array of tables (``("free_spins", "levels", 2)`` is the
    third ``[[free_spins.levels]]``).
    """

    _HEADER = re.compile(r"^\s*\[")

    def __init__(self, text: str, file: str):
        self.text, self.file = text, file
        self.lines = text.splitlines()
        self._headers: list[int] | None = None      # 0-based lines of every table header, found once
        self._hits: dict[str, list[int]] = {}       # header pattern -> its lines (a file of n tables: O(n))

    def _header_lines(self) -> list[int]:
        if self._headers is None:
            self._headers = [i for i, line in enumerate(self.lines) if self._HEADER.match(line)]
        return self._headers

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
        headers = self._header_lines()
        hits = self._hits.get(name)
        if hits is None:
            pat = re.compile(r"^\s*\[\[?\s*" + name + r"\s*\]\]?\s*(#.*)?$")
            hits = self._hits[name] = [i for i in headers if pat.match(self.lines[i])]
        if len(hits) <= index:
            return None
        start = hits[index]
        after = bisect.bisect_right(headers, start)
        return start, headers[after] if after < len(headers) else len(self.lines)

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
            end = self._header_lines()[0] if self._header_lines() else len(self.lines)
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
            names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
            raise self.error(full, f"must be a {names}, got {value!r}")
        return value


def parse_toml(text: str, file: str) -> dict:
    """``tomllib.loads`` with every failure as one MathSetError (syntax, nesting too deep, huge integers)."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise MathSetError(file, 1, 1, "malformed TOML: tables or arrays nested too deeply to read") from None
    except ValueError as e:
        if isinstance(e, tomllib.TOMLDecodeError):
            raise _toml_error(e, text, file) from None
        # int() of a literal beyond Python's integer-string limit
        m = re.search(r"\d[\d_]{%d,}" % sys.get_int_max_str_digits(), text)    # the literal past that limit
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
    if msg.startswith("Unclosed"):   # the reader fails where it gave up: name the bracket left open
        opened = _open_bracket(text, row, col, "{" if "inline table" in msg else "[")
        if opened is not None:
            row, col = opened
            msg += " (opened here, never closed)"
    return MathSetError(file, row, col, f"malformed TOML: {msg}")


def _open_bracket(text: str, row: int, col: int, opener: str) -> tuple[int, int] | None:
    r"""Row and column (from 1) of the innermost ``opener`` still open at ``row:col``, strings and comments skipped.

    >>> _open_bracket("a = [1,\n  2\nb = 3\n", 3, 1, "[")
    (1, 5)
    >>> _open_bracket("a = '['\n", 1, 8, "[") is None
    True
    """
    lines = text.split("\n")
    end = sum(len(x) + 1 for x in lines[:row - 1]) + col - 1
    stack: list[tuple[str, int]] = []
    i, quote = 0, None
    while i < min(end, len(text)):
        c = text[i]
        if quote:
            if text.startswith(quote, i):
                i, quote = i + len(quote), None
                continue
            i += 2 if c == "\\" and quote[0] == '"' else 1
            continue
        if c == "#":
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
            continue
        if c in "\"'":
            quote = c * 3 if text.startswith(c * 3, i) else c
            i += len(quote)
            continue
        if c in "[{":
            stack.append((c, i))
        elif c in "]}" and stack:
            stack.pop()
        i += 1
    for c, at in reversed(stack):
        if c == opener:
            return _position(text, at, False)
    return None


def check_document(t: "TomlFile", doc: dict) -> None:
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


def check_limit(t: "TomlFile", path: tuple, name: str, value: int, what: str | None = None) -> None:
    """Refuse ``value`` at ``path`` if it is above the active limit ``name`` (one line, naming the option)."""
    limit = _limits.exceeds(name, value)
    if limit is not None:
        raise t.error(path, _limits.refusal(name, value, limit, what))


def refuse_unknown(t: "TomlFile", table: dict, path: tuple, known: tuple, what: str) -> None:
    """A key the schema does not know is a rule it cannot express: refuse it, never ignore it."""
    known = tuple(dict.fromkeys(known))   # each key named once, in order
    for key in table:
        if key not in known:
            where = f"[{_path_text(path)}]" if path else Path(t.file).name
            raise t.error(path + (key,), f"unsupported rule: {what} {key!r} in {where} "
                          f"(supported: {', '.join(known)})")


def count_table(t: "TomlFile", fs: dict, key: str, what: str, path: tuple = ("free_spins",),
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


def int_at_least(t: "TomlFile", spec: dict, path: tuple, key: str, least: int, what: str, default: Any = None):
    """The integer ``path.key``, refused at its key when below ``least``; ``default`` when absent (``...``:
    required)."""
    v = t.get(spec, path, key, int, default)
    if v is not None and v < least:
        raise t.error(path + (key,), f"must be at least {least} ({what}), got {v}")
    return v


def positive_int(t: "TomlFile", spec: dict, path: tuple, key: str, what: str) -> int:
    return int_at_least(t, spec, path, key, 1, what, ...)


_FRACTION = re.compile(r"^\s*(\d+)\s*(?:/\s*(\d+))?\s*$")


def exact_fraction(t: "TomlFile", path: tuple, value, form: str, integers: bool = False) -> Fraction:
    """An exact fraction written ``"p/q"`` (or ``"n"``; an integer too when ``integers``), read at ``path``.

    The digits of each part are counted on the text before any conversion, so
    a part longer than the ``digits`` limit is refused at its key (one line,
    file, row and column) instead of reaching Python's integer-string limit.

    Raises
    ------
    MathSetError
        Not of the form (``form`` says which is wanted), a zero denominator,
        or a part with too many digits.
    """
    ok = isinstance(value, str) or (integers and isinstance(value, int) and not isinstance(value, bool))
    m = _FRACTION.match(value if isinstance(value, str) else str(value) if ok else "") if ok else None
    if m:
        lim = _limits.active().digits
        longest = max(len(g) for g in m.groups() if g is not None)
        if (lim is not None and longest > lim) or longest > sys.get_int_max_str_digits():
            raise t.error(path, _limits.digits_refusal(longest, "digits in a fraction"))
    if not m or (m.group(2) is not None and int(m.group(2)) == 0):
        raise t.error(path, f"must be {form}, got {value!r}")
    return Fraction(int(m.group(1)), int(m.group(2) or 1))
