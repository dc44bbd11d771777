"""Every command that writes goes through the one atomic writer (exact/cli/outputs.py).

For each writer (export --xlsx, export --csv, chain --dot, chain --graphml,
prove --out): a math set whose files are symbolic links, a hard link to an
input, a dangling link into the set's real directory, a symbolic link as the
target, disk full and SIGINT in the middle of the write.  Afterwards the
inputs are byte-identical, the old output is intact (or absent) and no
temporary file is left.
"""
from __future__ import annotations

import errno
import os
import re
import shutil
from pathlib import Path

import pytest

from exact.cli import main
from exact.cli.outputs import Protected, protected_inputs, write_output, write_output_dir
from strips.errors import UsageError
from strips.loader import bundled_path

WRITERS = {
    "export-xlsx": (["export", "--xlsx"], "out.xlsx", "file"),
    "export-csv": (["export", "--csv"], "tables", "dir"),
    "chain-dot": (["chain", "--dot"], "chain.dot", "file"),
    "chain-graphml": (["chain", "--graphml"], "chain.graphml", "file"),
    "prove-out": (["prove", "--rounds", "0", "--out"], "cert.txt", "file"),
}


def argv(writer: str, set_dir: Path, target: Path) -> list[str]:
    head, _, _ = WRITERS[writer]
    return [head[0], "--set", str(set_dir)] + head[1:] + [str(target)]


@pytest.fixture
def sets(tmp_path):
    """``sets/v2`` holds the real files; ``linkset`` holds symbolic links to them; ``out`` is a free directory."""
    real = tmp_path / "sets" / "v2"
    shutil.copytree(bundled_path("rules_page"), real,
                    ignore=shutil.ignore_patterns("__init__.py", "__pycache__", "*.md"))
    link = tmp_path / "linkset"
    link.mkdir()
    for f in real.iterdir():
        (link / f.name).symlink_to(f)
    (tmp_path / "out").mkdir()
    return tmp_path, real, link


def undated(snap: dict) -> dict:
    """A snapshot with the export's date stamp (``YYYY-MM-DD HH:MM UTC``) blanked."""
    stamp = re.compile(rb"\d{4}-\d\d-\d\d \d\d:\d\d UTC")
    return {p: stamp.sub(b"DATE", v) if isinstance(v, bytes) else v for p, v in snap.items()}


def snapshot(*dirs: Path) -> dict:
    """Every entry below the directories: path -> bytes (files) or link text (symbolic links)."""
    out = {}
    for d in dirs:
        for p in sorted(d.rglob("*")):
            out[p] = ("link", os.readlink(p)) if p.is_symlink() else ("dir",) if p.is_dir() else p.read_bytes()
    return out


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def no_temp(*dirs: Path) -> None:
    left = [p for d in dirs for p in d.rglob("*") if p.name.startswith(".") and (".tmp" in p.name or ".old" in p.name)]
    assert not left, left


@pytest.mark.parametrize("writer", WRITERS)
def test_target_is_an_input_file_through_a_symlinked_set(sets, capsys, writer):
    tmp, real, link = sets
    before = snapshot(real, link)
    assert main(argv(writer, link, real / "base.csv")) == 2
    err = one_line(capsys)
    assert "input file" in err or "refusing" in err
    assert snapshot(real, link) == before


@pytest.mark.parametrize("writer", WRITERS)
def test_target_in_the_real_directory_of_a_symlinked_set(sets, capsys, writer):
    tmp, real, link = sets
    before = snapshot(real, link)
    _, name, _ = WRITERS[writer]
    assert main(argv(writer, link, real / name)) == 2
    assert "refusing to write into" in one_line(capsys)
    assert snapshot(real, link) == before


@pytest.mark.parametrize("writer", [w for w in WRITERS if WRITERS[w][2] == "file"])
def test_hard_link_to_an_input_is_refused(sets, capsys, writer):
    tmp, real, link = sets
    _, name, _ = WRITERS[writer]
    hard = tmp / "out" / name
    os.link(real / "base.csv", hard)
    before = snapshot(real, link, tmp / "out")
    assert main(argv(writer, link, hard)) == 2
    assert "hard link" in one_line(capsys)
    assert snapshot(real, link, tmp / "out") == before


@pytest.mark.parametrize("writer", WRITERS)
def test_dangling_link_into_the_set_is_refused(sets, capsys, writer):
    tmp, real, link = sets
    _, name, _ = WRITERS[writer]
    dangling = tmp / "out" / name
    dangling.symlink_to(real / ("new-" + name))
    before = snapshot(real, link, tmp / "out")
    assert main(argv(writer, link, dangling)) == 2
    assert "symbolic link into the math set" in one_line(capsys)
    assert snapshot(real, link, tmp / "out") == before
    assert not (real / ("new-" + name)).exists()


@pytest.mark.parametrize("writer", WRITERS)
def test_symlinked_target_is_never_written_through(sets, capsys, writer):
    tmp, real, link = sets
    _, name, kind = WRITERS[writer]
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    if kind == "file":
        (elsewhere / name).write_bytes(b"OLD")
    else:
        (elsewhere / name).mkdir()
    (tmp / "out" / name).symlink_to(elsewhere / name)
    before = snapshot(real, link, tmp / "out", elsewhere)
    assert main(argv(writer, real, tmp / "out" / name)) == 2
    assert "symbolic link" in one_line(capsys)
    assert snapshot(real, link, tmp / "out", elsewhere) == before


def _old_output(tmp: Path, writer: str) -> Path:
    _, name, kind = WRITERS[writer]
    target = tmp / "out" / name
    assert main(argv(writer, bundled_path("rules_page"), target)) == 0
    return target


@pytest.mark.parametrize("fault", ["disk full", "SIGINT"])
@pytest.mark.parametrize("writer", WRITERS)
def test_fault_mid_write_leaves_the_old_output_and_no_temporary(sets, capsys, monkeypatch, writer, fault):
    tmp, real, link = sets
    target = _old_output(tmp, writer)
    capsys.readouterr()
    before = snapshot(real, link, tmp / "out")
    calls = []
    real_fsync = os.fsync

    def failing_fsync(fd):
        calls.append(fd)
        if len(calls) == 2 or WRITERS[writer][2] == "file":  # a CSV export fails on its second file
            if fault == "disk full":
                raise OSError(errno.ENOSPC, "No space left on device")
            raise KeyboardInterrupt
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing_fsync)
    code = main(argv(writer, link, target))
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert calls, "the writer never reached fsync"
    if fault == "disk full":
        assert code == 2
        assert "no space left" in one_line(capsys)
    else:
        assert code == 130
    assert snapshot(real, link, tmp / "out") == before
    no_temp(tmp / "out")


@pytest.mark.parametrize("writer", WRITERS)
def test_fault_on_a_new_output_leaves_nothing(sets, capsys, monkeypatch, writer):
    tmp, real, link = sets
    _, name, _ = WRITERS[writer]

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    assert main(argv(writer, link, tmp / "out" / name)) == 2
    one_line(capsys)
    assert list((tmp / "out").iterdir()) == []


def test_replacing_keeps_the_mode_of_the_old_file(tmp_path):
    target = tmp_path / "a.txt"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_output(target, "new", Protected(), "rtp test")
    assert target.read_text() == "new" and (target.stat().st_mode & 0o777) == 0o640


def test_fifo_target_is_refused(tmp_path, capsys):
    fifo = tmp_path / "pipe.dot"
    os.mkfifo(fifo)
    assert main(["chain", "--dot", str(fifo)]) == 2
    assert "not a regular file" in one_line(capsys)


def test_csv_directory_with_foreign_files_is_refused(tmp_path, capsys):
    d = tmp_path / "tables"
    d.mkdir()
    (d / "notes.txt").write_text("mine")
    assert main(["export", "--csv", str(d)]) == 2
    assert "notes.txt" in one_line(capsys)
    assert [p.name for p in d.iterdir()] == ["notes.txt"]


def test_csv_export_replaces_a_previous_export_whole(tmp_path, capsys):
    d = tmp_path / "tables"
    assert main(["export", "--csv", str(d)]) == 0
    first = undated(snapshot(d))
    (d / "summary.csv").write_text("stale")
    assert main(["export", "--csv", str(d)]) == 0
    assert undated(snapshot(d)) == first   # the two exports may fall in different minutes of the Summary's date
    no_temp(tmp_path)


def test_write_output_dir_failure_keeps_the_old_directory(tmp_path, monkeypatch):
    d = tmp_path / "d"
    write_output_dir(d, {"a": b"1", "b": b"2"}, Protected(), "rtp test")
    real_replace = os.replace
    failed = []

    def refuse(src, dst):
        if Path(dst) == d and not failed:  # the new directory cannot be renamed into place; putting back works
            failed.append(src)
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(UsageError, match="nothing was changed"):
        write_output_dir(d, {"a": b"X", "b": b"Y"}, Protected(), "rtp test")
    assert failed and snapshot(d) == {d / "a": b"1", d / "b": b"2"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d"]


def test_protected_inputs_cover_the_real_files_of_a_symlinked_set(sets):
    tmp, real, link = sets
    prot = protected_inputs(str(link))
    assert (real / "base.csv").resolve() in prot.files
    assert real.resolve() in prot.directories and link.resolve() in prot.directories


def test_prove_out_is_written_atomically(tmp_path, capsys):
    target = tmp_path / "cert.txt"
    target.write_text("old certificate")
    assert main(["prove", "--rounds", "0", "--out", str(target)]) == 0
    assert target.read_text().startswith("") and "old certificate" not in target.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cert.txt"]


# --------------------------------------------------------------------------
# rtp tune --out: a whole math-set directory through write_output_dir
# --------------------------------------------------------------------------
def _tune_argv(src: Path, out: Path) -> list[str]:
    from generators import _frac_arg, reachable_target  # the small sets of the tune tests

    from strips.loader import load_math_set
    target = reachable_target(load_math_set(str(src)), 1)
    return ["tune", "--set", str(src), "--target-rtp", _frac_arg(target), "--tolerance", "1/500", "--out", str(out)]


@pytest.fixture
def tune_sets(tmp_path):
    from generators import write_small
    real = write_small(tmp_path / "sets" / "v2", 1)
    link = tmp_path / "linkset"
    link.mkdir()
    for f in real.iterdir():
        (link / f.name).symlink_to(f)
    (tmp_path / "out").mkdir()
    return tmp_path, real, link


def test_tune_refuses_the_real_directory_a_dangling_link_and_a_symlinked_target(tune_sets, capsys):
    tmp, real, link = tune_sets
    before = snapshot(real, link, tmp / "out")
    argv = _tune_argv(link, real / "variant")
    assert main(argv) == 2 and "refusing to write into" in one_line(capsys)
    (tmp / "out" / "dangling").symlink_to(real / "variant")
    argv = _tune_argv(link, tmp / "out" / "dangling")
    assert main(argv) == 2 and "symbolic link into the math set" in one_line(capsys)
    (tmp / "elsewhere").mkdir()
    (tmp / "out" / "linked").symlink_to(tmp / "elsewhere")
    assert main(_tune_argv(link, tmp / "out" / "linked")) == 2 and "symbolic link" in one_line(capsys)
    (tmp / "out" / "dangling").unlink()
    (tmp / "out" / "linked").unlink()
    assert snapshot(real, link, tmp / "out") == before and not list((tmp / "elsewhere").iterdir())


@pytest.mark.parametrize("fault", ["disk full", "SIGINT"])
def test_tune_fault_mid_write_leaves_nothing(tune_sets, capsys, monkeypatch, fault):
    tmp, real, link = tune_sets
    before = snapshot(real, link)
    argv = _tune_argv(link, tmp / "out" / "variant")
    real_fsync, calls = os.fsync, []

    def failing(fd):
        calls.append(fd)
        if len(calls) == 2:  # the second file of the set
            if fault == "disk full":
                raise OSError(errno.ENOSPC, "No space left on device")
            raise KeyboardInterrupt
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing)
    code = main(argv)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert code == (2 if fault == "disk full" else 130)
    assert calls
    assert snapshot(real, link) == before
    assert list((tmp / "out").iterdir()) == []


# --------------------------------------------------------------------------
# rtp distribution --plot: a PNG written by a callable through write_output
# --------------------------------------------------------------------------
def test_distribution_plot_refusals(tune_sets, capsys):
    tmp, real, link = tune_sets
    before = snapshot(real, link, tmp / "out")
    base = ["distribution", "--set", str(link), "--plot"]
    assert main(base + [str(real / "base.csv")]) == 2 and "input file" in one_line(capsys)
    assert main(base + [str(real / "plot.png")]) == 2 and "refusing to write into" in one_line(capsys)
    os.link(real / "base.csv", tmp / "out" / "hard.png")
    assert main(base + [str(tmp / "out" / "hard.png")]) == 2 and "hard link" in one_line(capsys)
    (tmp / "out" / "hard.png").unlink()
    (tmp / "out" / "dangling.png").symlink_to(real / "new.png")
    assert main(base + [str(tmp / "out" / "dangling.png")]) == 2 and "into the math set" in one_line(capsys)
    (tmp / "out" / "dangling.png").unlink()
    (tmp / "other.png").write_bytes(b"OLD")
    (tmp / "out" / "linked.png").symlink_to(tmp / "other.png")
    assert main(base + [str(tmp / "out" / "linked.png")]) == 2 and "symbolic link" in one_line(capsys)
    (tmp / "out" / "linked.png").unlink()
    assert snapshot(real, link, tmp / "out") == before and (tmp / "other.png").read_bytes() == b"OLD"


@pytest.mark.parametrize("fault", ["disk full", "SIGINT"])
def test_distribution_plot_fault_keeps_the_old_plot(tune_sets, capsys, monkeypatch, fault):
    tmp, real, link = tune_sets
    target = tmp / "out" / "plot.png"
    target.write_bytes(b"OLD PLOT")
    before = snapshot(real, link, tmp / "out")

    def failing(fd):
        if fault == "disk full":
            raise OSError(errno.ENOSPC, "No space left on device")
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", failing)
    code = main(["distribution", "--set", str(link), "--plot", str(target)])
    monkeypatch.undo()
    assert code == (2 if fault == "disk full" else 130), capsys.readouterr()
    assert snapshot(real, link, tmp / "out") == before
    no_temp(tmp / "out")


def test_racing_directory_writers_leave_one_whole_output_and_no_temporary(tmp_path):
    """Eight writers of one directory output at once, three times: one writer's files whole, nothing else."""
    import threading
    target = tmp_path / "tables"
    for _ in range(3):
        errors = []

        def write(i):
            try:
                write_output_dir(target, {"a.csv": f"{i}\n", "b.csv": f"{i}\n"}, Protected(), "rtp test")
            except UsageError as e:   # a writer may lose the race with a clear refusal, never leave a file
                errors.append(str(e))

        threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["tables"], errors
        a, b = (target / "a.csv").read_text(), (target / "b.csv").read_text()
        assert a == b and len(errors) < 8


def test_sigterm_mid_write_removes_the_temporary_file(tmp_path):
    """The command line turns SIGTERM into an interrupt, so the writer's clean-up runs: no temporary file."""
    import signal
    import subprocess
    import sys
    script = (
        "import sys, time\n"
        "from exact.cli import _on_sigterm\n"
        "from exact.cli.outputs import Protected, write_output\n"
        "_on_sigterm()\n"
        "def slow(f):\n"
        "    f.write(b'partial'); print('ready', flush=True); time.sleep(60)\n"
        "try:\n"
        f"    write_output({str(tmp_path / 'out.txt')!r}, slow, Protected(), 'rtp test')\n"
        "except KeyboardInterrupt as e:\n"
        "    sys.exit(143 if type(e).__name__ == 'Terminated' else 130)\n")
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(root)})
    assert proc.stdout.readline().strip() == "ready"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]   # the temporary file exists now
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 143
    proc.stdout.close()
    assert list(tmp_path.iterdir()) == []
