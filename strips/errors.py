"""The one error type for bad input: a math-set file that cannot be used.

Every message names the file, the 1-based row and the 1-based column, so the
CLI can print exactly one line (``file:row:column: message``) and exit 2.
"""
from __future__ import annotations

from dataclasses import dataclass


class MathSetError(ValueError):
    """Bad input in a math-set file: malformed CSV or TOML, unknown symbol,
    wrong reel count, impossible weights, missing or unreadable file.

    Parameters
    ----------
    file : str
        Path of the offending file as the user named it.
    row, column : int
        1-based line and column in that file; both 0 where the problem is the
        file (or directory) as a whole (missing, unreadable): the message is
        then ``file: message``, with no row or column.
    message : str
        What is wrong, in one sentence.
    """

    def __init__(self, file: str, row: int, column: int, message: str):
        self.file, self.row, self.column, self.message = str(file), row, column, message
        super().__init__(str(self))

    def __str__(self) -> str:
        """``file:row:column: message``, or ``file: message`` for the file as a whole.

        >>> str(MathSetError("set/base.csv", 3, 2, "unknown symbol 'X'"))
        "set/base.csv:3:2: unknown symbol 'X'"
        >>> str(MathSetError("set/base.csv", 0, 0, "file not found"))
        'set/base.csv: file not found'
        """
        if self.row == 0 and self.column == 0:
            return f"{self.file}: {self.message}"
        return f"{self.file}:{self.row}:{self.column}: {self.message}"


class UsageError(ValueError):
    """A request the user got wrong: an option value, an output path, a rule a command does not model (exit 2).

    The message is the whole line to show, e.g. ``"rtp diff: --digits must be 0 or more"``.
    """


class UnsupportedRule(UsageError):
    """An analysis asked of a game with a rule it does not model (:func:`exact.rules.supports`).

    The message is one line, ``unsupported rule: <rule>: <analysis> does not model it``; the
    command line prefixes the command and the set and exits 2.

    Attributes
    ----------
    rule : str
        The refusing rule's name.
    analysis : str
        The analysis refused (a key of ``exact.rules.ANALYSES``).
    """

    def __init__(self, message: str, rule: str = "", analysis: str = ""):
        super().__init__(message)
        self.rule, self.analysis = rule, analysis


@dataclass(frozen=True)
class Finding:
    """A soft finding about a strip: reported, never fatal.

    ``file`` and ``row`` (1-based line in the CSV file) and ``column`` (1-based)
    locate it; ``message`` says which rules-page rule it breaks.
    """

    file: str
    row: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.row}:{self.column}: {self.message}"
