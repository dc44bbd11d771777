"""The one output writer of every ``rtp`` command: atomic, and never over or next to a math set's input files.

Every command that writes a file (``rtp export``, ``rtp chain --graphml/--dot``,
``rtp prove --out``, plots and variants of newer commands) does two things:

1. before any work, :func:`check_output` (or :func:`check_output_dir`) with the
   :class:`Protected` inputs of the math set (:func:`protected_inputs`), so a
   bad path is refused in one line (exit 2) without computing anything;
2. to write, :func:`write_output` (one file) or :func:`write_output_dir` (a
   directory of files, e.g. CSV tables), which check the target again and
   then write it atomically.

The rules:

* a target whose resolved path, or whose inode (a hard link), is an input
  file of the set is refused; so is a target whose directory resolves to a
  directory holding an input file (the set's own directory, and the real
  directory of every input file reached through a symbolic link), dangling
  links included;
* a target inside the installed package (its bundled math sets and game
  files) is refused whatever the set and whatever ``--force`` says;
* a target that is itself a symbolic link is refused (the writer never writes
  through a link to somewhere else), as is one that exists but is not a
  regular file (a FIFO, a device, a directory where a file is wanted);
* the data goes to a temporary file in the target's directory, is flushed and
  fsync'ed, takes the mode of the file it replaces (else the user's umask),
  and is renamed over the target; the directory is fsync'ed.  On any failure
  (disk full, a signal, an exception of the producer) the temporary file is
  removed and the old target is left untouched;
* a directory output is built whole in a temporary directory next to the
  target and renamed into place; an existing target directory is swapped out
  only if it holds nothing but files the new output also writes (a previous
  export), otherwise the write is refused.

Example
-------
>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> p = write_output(str(d / "a.txt"), "hello\\n", Protected(), "rtp demo")
>>> p.read_text(), sorted(x.name for x in d.iterdir())
('hello\\n', ['a.txt'])
"""
from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable, Mapping, Union

from strips.errors import UsageError
from strips.protect import (Protected, as_protected, input_directories, protected_inputs, refuse_package_data,
                            refuse_target)

__all__ = ["Protected", "protected_inputs", "refuse_package_data", "input_directories", "check_output", "check_output_dir",
           "write_output", "write_output_dir"]

#: What a writer accepts: bytes, text (written as UTF-8), or a callable given the open binary temporary file.
Data = Union[bytes, str, Callable[[BinaryIO], None]]


def check_output(target: str, command: str, kind: str, protected, suffix: str | None = None) -> Path:
    """Validate an output path before any work is done.

    Parameters
    ----------
    target : str
        The user's output path.
    command : str
        For messages, e.g. ``"rtp export"``.
    kind : str
        ``"file"`` or ``"dir"`` (a directory output, see :func:`write_output_dir`).
    protected : Protected or set of Path
        The inputs (:func:`protected_inputs`); a set of resolved directories is accepted too.
    suffix : str, optional
        Required file-name ending, e.g. ``".xlsx"``.

    Returns
    -------
    Path

    Raises
    ------
    UsageError
        If the target is empty, a symbolic link, an input file or a hard link
        to one, in a directory holding input files, not a regular file (or a
        directory where a file is wanted, or the reverse), in a directory that
        does not exist, or lacks ``suffix``.
    """
    if not target.strip():
        raise UsageError(f"{command}: the output path is empty")
    if "\x00" in target:
        raise UsageError(f"{command}: the output path contains a NUL character")
    p = Path(target)
    refuse_target(p, f"{command}: {target}", as_protected(protected), kind)
    if suffix and p.suffix.lower() != suffix:
        raise UsageError(f"{command}: {target}: the file name must end in {suffix}")
    return p


def check_output_dir(target: str, command: str, protected) -> Path:
    """Validate a directory the command writes into itself (e.g. ``--checkpoint-dir``).

    The directory may be new (its parent must exist) or existing; it must not
    resolve to a directory holding input files.  A symbolic link to a
    directory elsewhere is allowed (its resolved path is what is checked).

    Raises
    ------
    UsageError
        As :func:`check_output`.
    """
    if not target.strip():
        raise UsageError(f"{command}: the output path is empty")
    if "\x00" in target:
        raise UsageError(f"{command}: the output path contains a NUL character")
    p = Path(target)
    prot = as_protected(protected)
    what = f"{command}: {target}"
    refuse_package_data(p, what)
    if p.exists() and not p.is_dir():
        raise UsageError(f"{what}: is a file, expected a directory")
    real = p.resolve()
    if real in prot.directories or (not p.exists() and real.parent in prot.directories):
        raise UsageError(f"{what}: refusing to write into {real if p.exists() else real.parent}, "
                         f"it holds input files of the math set")
    if not p.exists() and not p.parent.is_dir():
        raise UsageError(f"{what}: directory {p.parent} does not exist")
    return p


def _umask_mode(base: int = 0o666) -> int:
    umask = os.umask(0)
    os.umask(umask)
    return base & ~umask


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _lock_directory(directory: Path) -> int | None:
    """An exclusive ``flock`` on a directory (released when the descriptor is closed); None where unsupported."""
    import fcntl
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:
        os.close(fd)
        return None
    return fd


def _fill(fd: int, data: Data) -> None:
    """Write ``data`` to the open descriptor and fsync it; the descriptor is closed."""
    with os.fdopen(fd, "wb") as f:
        if callable(data):
            data(f)
        else:
            f.write(data.encode("utf-8") if isinstance(data, str) else bytes(data))
        f.flush()
        os.fsync(f.fileno())


def _cannot(what: str, e: OSError) -> UsageError:
    reason = e.strerror or str(e)
    if e.errno == errno.ENOSPC:
        reason = "no space left on the device"
    return UsageError(f"{what}: cannot write ({reason}); nothing was changed")


def write_output(target: str | Path, data: Data, protected, command: str = "rtp") -> Path:
    """Write one output file atomically (see the module docstring for every rule).

    Parameters
    ----------
    target : str or Path
        The output path (as checked by :func:`check_output`).
    data : bytes, str or callable
        The content; a ``str`` is written as UTF-8; a callable is called with
        the open binary temporary file and writes into it (e.g.
        ``lambda f: fig.savefig(f, format="png")``).
    protected : Protected
        The inputs the write must not touch (:func:`protected_inputs`).
    command : str
        For messages.

    Returns
    -------
    Path
        The target.

    Raises
    ------
    UsageError
        If the target is refused, or the write fails (disk full, permissions):
        the old file is then intact and no temporary file remains.  Any other
        exception of ``data`` (and KeyboardInterrupt) propagates after the same
        clean-up.
    """
    p = Path(target)
    what = f"{command}: {target}"
    prot = as_protected(protected)
    refuse_target(p, what, prot, "file")
    try:
        old = os.stat(p)
    except FileNotFoundError:
        old = None
    mode = stat.S_IMODE(old.st_mode) if old is not None else _umask_mode()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    except OSError as e:
        raise _cannot(what, e) from None
    try:
        _fill(fd, data)
        os.chmod(tmp, mode)
        refuse_target(p, what, prot, "file")  # again: the target may have changed while the data was made
        os.replace(tmp, p)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise _cannot(what, e) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(p.parent)
    return p


def write_output_dir(target: str | Path, files: Mapping[str, Data], protected, command: str = "rtp") -> list[Path]:
    """Write a directory of output files whole: built in a temporary directory, then renamed into place.

    Parameters
    ----------
    target : str or Path
        The output directory (new, or an existing one holding only files this
        output writes again, e.g. a previous export).
    files : mapping of file name -> data
        Plain file names (no ``/``); data as for :func:`write_output`.
    protected : Protected
    command : str

    Returns
    -------
    list of Path
        The files written, in the order of ``files``.

    Raises
    ------
    UsageError
        If the target is refused, an existing target directory holds anything
        else, or the write fails; on failure the old directory is intact and
        no temporary directory remains.
    """
    p = Path(target)
    what = f"{command}: {target}"
    prot = as_protected(protected)
    for name in files:
        if not name or "/" in name or "\\" in name or name in (".", "..") or "\x00" in name:
            raise ValueError(f"not a plain file name: {name!r}")
    refuse_target(p, what, prot, "dir")
    if p.is_dir():
        try:
            other = sorted(x.name for x in p.iterdir() if x.name not in files)
        except OSError as e:
            raise _cannot(what, e) from None
        if other:
            shown = ", ".join(other[:5]) + (f" and {len(other) - 5} more" if len(other) > 5 else "")
            raise UsageError(f"{what}: the directory holds files this output does not write ({shown}); "
                             f"give a new or empty directory")
        dir_mode = stat.S_IMODE(os.stat(p).st_mode)
    else:
        dir_mode = _umask_mode(0o777)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent))
    except OSError as e:
        raise _cannot(what, e) from None
    backup, swapped, lock = None, False, None
    try:
        file_mode = _umask_mode()
        for name, data in files.items():
            fd = os.open(tmp / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            _fill(fd, data)
            os.chmod(tmp / name, file_mode)
        _fsync_dir(tmp)
        os.chmod(tmp, dir_mode)
        lock = _lock_directory(p.parent)   # one writer at a time swaps a directory output: racing runs never
        refuse_target(p, what, prot, "dir")   # leave the old directory behind
        if p.is_dir():
            backup = Path(tempfile.mkdtemp(prefix=f".{p.name}.", suffix=".old", dir=p.parent))
            os.replace(p, backup / "old")
            try:
                os.replace(tmp, p)
            except BaseException:
                try:
                    os.replace(backup / "old", p)
                except OSError:
                    raise UsageError(f"{what}: cannot write, and the old directory could not be put back: "
                                     f"it is kept as {backup / 'old'}") from None
                raise
            swapped = True
        else:
            os.replace(tmp, p)
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise _cannot(what, e) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        if lock is not None:
            os.close(lock)
        if backup is not None:
            if swapped:  # the old directory, now replaced
                shutil.rmtree(backup, ignore_errors=True)
            else:  # empty unless restoring the old directory failed: then keep it
                try:
                    backup.rmdir()
                except OSError:
                    pass
    _fsync_dir(p.parent)
    return [p / name for name in files]
