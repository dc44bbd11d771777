"""Strings a game file puts on screen: control characters removed, look-alike symbol names found.

A game file is input from outside: its ``title`` could carry ANSI or OSC
escape sequences that reach the terminal raw, and a symbol name could use a
Cyrillic ``А`` so that ``АUS1`` and ``AUS1`` print as two identical rows.

* :func:`printable` removes every control character (Unicode categories Cc,
  Cf -- bidirectional overrides, zero-width characters --, Co, Cs, Zl, Zp)
  and the rest of an ANSI/OSC escape sequence; the loader applies it to the
  display strings of the game file (``name``, ``title``) and the CLI to every
  error line.
* :func:`name_findings` reports a symbol name (or alias) that is not plain
  printable ASCII, and one whose look-alike skeleton equals another's (the
  Latin look-alikes of Unicode's confusables: Cyrillic and Greek letters
  that render as Latin ones, full-width and mathematical forms through NFKC,
  ``0``/``O``, ``1``/``l``/``I``, invisible characters dropped).

Example
-------
>>> printable("Game\\x1b[31m red\\x1b]0;pwned\\x07 \\u202eend")
'Game red end'
>>> skeleton("\\u0410US1") == skeleton("AUS1")
True
"""
from __future__ import annotations

import re
import unicodedata

from strips.errors import Finding

__all__ = ["printable", "skeleton", "name_findings"]

# ANSI CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other two-character escapes, and C1 CSI/OSC.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|"
                      r"\x9b[0-?]*[ -/]*[@-~]|\x9d[^\x07\x9c]*(?:\x07|\x9c)?")
_INVISIBLE = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


def printable(text: str, keep: str = "") -> str:
    """``text`` without escape sequences and control characters (``keep``: characters to keep, e.g. ``"\\n"``).

    >>> printable("a\\tb\\nc", keep="\\n")
    'ab\\nc'
    """
    text = _ESCAPES.sub("", text)
    return "".join(ch for ch in text if ch in keep or unicodedata.category(ch) not in _INVISIBLE)


# Latin look-alikes (a subset of Unicode's confusables.txt: the letters that render like Latin capitals and
# small letters in common fonts), applied after NFKC.
_LOOKALIKE = str.maketrans({
    # Cyrillic capitals and small letters
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "У": "Y", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W", "Ү": "Y", "Һ": "h", "Ӏ": "l",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j",
    "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ү": "y", "ɡ": "g",
    # Greek capitals and small letters
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v", "α": "a", "ι": "i", "κ": "k", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x",
    # Latin look-alikes among themselves
    "0": "O", "1": "l", "I": "l", "|": "l",
})


def skeleton(name: str) -> str:
    """The look-alike skeleton of a name: NFKC, invisible characters dropped, look-alikes mapped to Latin.

    Two names with the same skeleton print (nearly) the same.

    >>> skeleton("PIC1") == skeleton("PICl"), skeleton("PIC1") == skeleton("PIC2")
    (True, False)
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in _INVISIBLE)
    return text.translate(_LOOKALIKE)


def name_findings(names, file: str) -> list[Finding]:
    """Findings for symbol names (and aliases) that are not plain printable ASCII or look like another.

    Parameters
    ----------
    names : iterable of (str, int)
        Each name with the 1-based line of the game file where it is defined.
    file : str
        The game file, for the findings.

    Returns
    -------
    list of Finding
        One per name that is not printable ASCII (naming its first other
        character as ``U+XXXX NAME``), and one per pair of distinct names with
        the same :func:`skeleton`.
    """
    out: list[Finding] = []
    seen: dict[str, str] = {}
    for name, line in names:
        odd = next((ch for ch in name if not (" " < ch < "\x7f")), None)
        if odd is not None:
            out.append(Finding(file, line, 1, f"symbol name {printable(name)!r} is not plain ASCII: it holds "
                               f"U+{ord(odd):04X} {unicodedata.name(odd, 'a control character')}"))
        key = skeleton(name)
        other = seen.get(key)
        if other is not None and other != name:
            out.append(Finding(file, line, 1, f"symbol name {printable(name)!r} looks like {printable(other)!r} "
                               f"(they differ only by look-alike characters)"))
        else:
            seen.setdefault(key, name)
    return out
