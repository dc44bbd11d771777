"""The wheel holds every module of the four packages (a subpackage left out of the build passes every
in-tree test and breaks the installed command)."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_holds_every_module_and_the_bundled_sets(tmp_path):
    src = tmp_path / "src"       # a clean copy: a stale build/ directory must not hide a missing package
    skip = shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", ".venv*", ".hypothesis")
    for name in ("exact", "markov", "strips", "proofs"):
        shutil.copytree(ROOT / name, src / name, ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                          "-w", str(tmp_path / "dist"), str(src)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    [wheel] = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    want = {p.relative_to(ROOT).as_posix() for top in ("exact", "markov", "strips", "proofs")
            for p in (ROOT / top).rglob("*.py")}
    assert not want - names, sorted(want - names)[:10]
    data = {p.relative_to(ROOT).as_posix() for p in (ROOT / "strips").rglob("*")
            if p.suffix in (".csv", ".toml", ".md") and p.is_file()}
    assert not data - names, sorted(data - names)[:10]
