"""Where a command may write: never next to or over a math set's input files.

Used by every command that writes a file (``rtp export``, ``rtp chain --graphml/--dot``).
"""
from __future__ import annotations

from pathlib import Path

from strips.errors import UsageError
from strips.model import MathSet
from strips.loader import BUNDLED_DEFAULT, GAME_FILE, bundled_path, resolve


def input_directories(spec, ms: MathSet) -> set[Path]:
    """Resolved directories holding an input file of the set: its own, and the bundled game's if it falls back to it.

    Raises
    ------
    MathSetError
        If ``spec`` names no math set (from :func:`strips.loader.resolve`).
    """
    _, directory = resolve(spec)
    dirs = {directory.resolve()}
    if not (directory / GAME_FILE).is_file():
        dirs.add(bundled_path(BUNDLED_DEFAULT).resolve())
    return dirs


def check_output(target: str, command: str, kind: str, protected: set[Path], suffix: str | None = None) -> Path:
    """Validate an output path before any work is done.

    Parameters
    ----------
    target : str
        The user's output path.
    command : str
        For messages, e.g. ``"rtp export"``.
    kind : str
        ``"file"`` or ``"dir"`` (a directory, created by the caller if missing).
    protected : set of Path
        Resolved directories holding input files (:func:`input_directories`).
    suffix : str, optional
        Required file-name ending, e.g. ``".xlsx"``.

    Returns
    -------
    Path

    Raises
    ------
    UsageError
        If the target is empty, an existing file inside a protected directory, a
        directory where a file is wanted (or the reverse), in a directory that
        does not exist, inside a protected directory, or lacks ``suffix``.
    """
    if not target.strip():
        raise UsageError(f"{command}: the output path is empty")
    p = Path(target)
    what = f"{command}: {target}"
    if p.exists() and not p.is_dir() and p.resolve().parent in protected:
        raise UsageError(f"{what}: refusing to overwrite a file in the math-set directory (it holds the input files)")
    if kind == "file" and p.is_dir():
        raise UsageError(f"{what}: is a directory, expected a file name" + (f" ending in {suffix}" if suffix else ""))
    if kind == "dir" and p.exists() and not p.is_dir():
        raise UsageError(f"{what}: is a file, expected a directory")
    parent = p if kind == "dir" and p.is_dir() else p.parent
    if not parent.is_dir():
        raise UsageError(f"{what}: directory {parent} does not exist")
    if parent.resolve() in protected:
        raise UsageError(f"{what}: refusing to write into {parent}, it holds input files of the math set")
    if suffix and p.suffix.lower() != suffix:
        raise UsageError(f"{what}: the file name must end in {suffix}")
    return p
