"""Output paths and system errors: one line, exit 2, nothing written next to a math set's files."""
from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from exact.cli import main
from strips.loader import bundled_path


def copy_set(tmp_path) -> Path:
    d = tmp_path / "set"
    shutil.copytree(bundled_path("rules_page"), d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__", "*.md"))
    return d


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("argv", [
    ["export", "--xlsx", ""],
    ["chain", "--dot", ""],
    ["prove", "--rounds", "0", "--out", ""],
])
def test_empty_output_path_is_refused(capsys, argv):
    assert main(argv) == 2
    assert "output path is empty" in one_line(capsys)


def test_prove_checkpoint_dir_inside_the_set_is_refused(tmp_path, capsys):
    d = copy_set(tmp_path)
    before = sorted(p.name for p in d.iterdir())
    assert main(["prove", "--set", str(d), "--rounds", "0", "--checkpoint-dir", str(d)]) == 2
    assert "refusing to write into" in one_line(capsys)
    assert sorted(p.name for p in d.iterdir()) == before


def test_export_follows_the_umask(tmp_path, capsys):
    old = os.umask(0o022)
    try:
        assert main(["export", "--xlsx", str(tmp_path / "par.xlsx")]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "par.xlsx").stat().st_mode) == 0o644


def test_system_error_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    """An OSError the loader does not expect (e.g. an unreadable directory) is one line, exit 2."""
    d = copy_set(tmp_path)
    real = os.open

    def refuse(path, *a, **k):
        if Path(path).parent == d:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *a, **k)

    monkeypatch.setattr(os, "open", refuse)
    assert main(["--set", str(d)]) == 2
    err = one_line(capsys)
    assert "Permission denied" in err and str(d) in err
