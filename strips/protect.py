"""The guard of every writer: the input files of a math set, and the checks a target path must pass.

Every file the project writes (the outputs of ``rtp`` commands, see
:mod:`exact.cli.outputs`, and the checkpoint store of the enumeration,
:mod:`proofs.enumerate_checkpoint`) goes through :func:`refuse_target`: a
target that is, or is a symbolic or hard link to, an input file of a set,
one inside a directory holding input files, one inside the installed
package's bundled sets, a symbolic link, or not a regular file is refused
in one line (:class:`~strips.errors.UsageError`).

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> (d / "game.toml").write_text("x")
1
>>> prot = Protected(); prot.add_file(d / "game.toml")
>>> import os; os.link(d / "game.toml", d.parent / (d.name + "-link"))
>>> refuse_target(d.parent / (d.name + "-link"), "demo", prot, "file")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
strips.errors.UsageError: demo: is an input file of the math set (the same file or a hard link to it); refusing to overwrite it
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from strips.errors import MathSetError, UsageError
from strips.loader import GAME_FILE, resolve
from strips.model import MathSet

__all__ = ["Protected", "protected_inputs", "set_inputs", "refuse_package_data", "refuse_target", "as_protected"]


@dataclass
class Protected:
    """The input files of one or more math sets, as the writer must never touch them.

    Attributes
    ----------
    files : set of Path
        Resolved paths of every input file (game file, strip files).
    inodes : set of (int, int)
        ``(st_dev, st_ino)`` of every input file, so a hard link elsewhere is recognised.
    directories : set of Path
        Resolved directories that hold an input file: the set's directory and
        the real directory of each input file.
    """

    files: set = field(default_factory=set)
    inodes: set = field(default_factory=set)
    directories: set = field(default_factory=set)

    def add_file(self, path: Path) -> None:
        """Protect one input file (its resolved path, its inode and its real directory)."""
        real = path.resolve()
        self.files.add(real)
        self.directories.add(real.parent)
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            return
        self.inodes.add((st.st_dev, st.st_ino))

    def __contains__(self, directory) -> bool:  # ``parent.resolve() in protected``, as the old set of directories
        return Path(directory) in self.directories

    def __or__(self, other: "Protected") -> "Protected":
        return Protected(self.files | other.files, self.inodes | other.inodes, self.directories | other.directories)


def protected_inputs(spec, ms: MathSet | None = None) -> Protected:
    """The :class:`Protected` inputs of the math set named by ``spec`` (a ``--set`` value).

    Protects the set's directory, its game file, every file the loader read
    (``ms.sources``) and every file in the directory.

    Raises
    ------
    MathSetError
        If ``spec`` names no math set (from :func:`strips.loader.resolve`).
    """
    _, directory = resolve(spec)
    prot = Protected(directories={directory.resolve()})
    game = directory / GAME_FILE
    names = set(ms.sources) if ms is not None else set()   # every file the loader read
    try:
        names |= {p.name for p in directory.iterdir() if p.is_file()}   # and every other file of the directory
    except OSError:
        pass
    for p in [game] + [directory / n for n in sorted(names)]:
        prot.add_file(p)
    return prot


#: The name older callers use; it returns the full :class:`Protected` record.
input_directories = protected_inputs


def set_inputs(ms: MathSet) -> Protected:
    """The :class:`Protected` inputs of a loaded math set, found from its name (empty for a set built in memory).

    >>> from strips.loader import load_math_set
    >>> any(p.name == "game.toml" for p in set_inputs(load_math_set("rules_page")).files)
    True
    """
    try:
        return protected_inputs(ms.name, ms)
    except (MathSetError, OSError, ValueError):
        return Protected()


def as_protected(protected) -> Protected:
    if isinstance(protected, Protected):
        return protected
    return Protected(directories={Path(d) for d in (protected or ())})


def refuse_package_data(target: Path, what: str) -> None:
    """Refuse a target inside the installed ``strips`` package: its bundled math sets are data of the
    package, never an output (whichever set a command reads, whatever ``--force`` says).

    Raises
    ------
    UsageError
        ``"<what>: refusing to write into the installed package's bundled math sets (...)"``.

    >>> from strips.loader import bundled_path
    >>> refuse_package_data(bundled_path("wheel_game"), "demo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strips.errors.UsageError: demo: refusing to write into the installed package's bundled math sets (...strips/wheel_game); give a directory outside it
    """
    root = Path(str(resources.files("strips"))).resolve()
    try:
        real = Path(target).resolve()
    except (OSError, ValueError, RuntimeError):
        return   # the other checks refuse such a path
    if real == root or root in real.parents:
        raise UsageError(f"{what}: refusing to write into the installed package's bundled math sets ({real}); "
                         f"give a directory outside it")


def refuse_target(p: Path, what: str, prot: Protected, kind: str) -> None:
    """The checks shared by the guard and the writer (see the module docstring)."""
    refuse_package_data(p, what)
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        st = None
    except (OSError, ValueError) as e:
        raise UsageError(f"{what}: cannot use this path ({getattr(e, 'strerror', None) or e})") from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        real = p.resolve()
        if real in prot.files or real.parent in prot.directories:
            raise UsageError(f"{what}: is a symbolic link into the math set ({real}); refusing to write "
                             f"over or next to its input files")
        raise UsageError(f"{what}: is a symbolic link (to {os.readlink(p)}); refusing to write through it, "
                         f"give the real path")
    if st is not None:
        if (st.st_dev, st.st_ino) in prot.inodes or p.resolve() in prot.files:
            raise UsageError(f"{what}: is an input file of the math set (the same file or a hard link to it); "
                             f"refusing to overwrite it")
        if kind == "file" and stat.S_ISDIR(st.st_mode):
            raise UsageError(f"{what}: is a directory, expected a file name")
        if kind == "dir" and not stat.S_ISDIR(st.st_mode):
            raise UsageError(f"{what}: is a file, expected a directory")
        if kind == "file" and not stat.S_ISREG(st.st_mode):
            raise UsageError(f"{what}: is not a regular file (a FIFO, socket or device); refusing to write to it")
    parent = p.parent
    if not parent.is_dir():
        raise UsageError(f"{what}: directory {parent} does not exist")
    real_parent = parent.resolve()
    if real_parent in prot.directories:
        raise UsageError(f"{what}: refusing to write into {parent}, it holds input files of the math set")
    if kind == "dir" and st is not None and p.resolve() in prot.directories:
        raise UsageError(f"{what}: refusing to write into {p}, it holds input files of the math set")
