"""Math-set files for the loader, CLI and report tests, written into a temp directory.

:func:`valid_columns` builds reel strips that obey every hard rule and every
soft rule of rules-page sections 3 and 4 for the bundled game (100 stops,
3 or more pay symbols between specials, no run of more than 3 AUS), so a set
written with them loads with no error and no finding.  Tests then break one
cell or one key and expect exactly that cell in the error.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Sequence

from strips.loader import GAME_FILE, bundled_path, parse_game

BUNDLED_DIR = bundled_path("rules_page")
BUNDLED_GAME = BUNDLED_DIR / GAME_FILE
MODEL = parse_game(BUNDLED_GAME.read_bytes(), str(BUNDLED_GAME))

#: pay symbols in an order with never more than one AUS in sequence
PAY_CYCLE = ("PIC1", "AUS1", "PIC2", "AUS2", "PIC3", "AUS3", "PIC4", "AUS4", "PIC5", "AUS5")


def specials_allowed(strip_set: str, reel: int) -> list[str]:
    """Special symbols the bundled game allows on 0-based ``reel`` of ``strip_set`` (section 4)."""
    return [s.name for s in MODEL.symbols if s.is_special and s.allowed_on(strip_set, reel)]


def valid_columns(strip_set: str, length: int = 100, spacing: int = 10) -> list[list[str]]:
    """Five reel strips for ``strip_set`` that obey every rule of sections 3-4.

    Pay symbols follow :data:`PAY_CYCLE` shifted per reel; every ``spacing``-th
    position holds the next allowed special of that reel, so specials are
    ``spacing - 1`` pay symbols apart.
    """
    cols = []
    for r in range(MODEL.reels):
        specials = specials_allowed(strip_set, r)
        col = [PAY_CYCLE[(i + 3 * r) % len(PAY_CYCLE)] for i in range(length)]
        for k, i in enumerate(range(0, length, spacing)):
            col[i] = specials[k % len(specials)]
        cols.append(col)
    return cols


def csv_text(columns: Sequence[Sequence[str]], header: Sequence[str] | None = None) -> str:
    """CSV text: header ``reel1..reelN`` (or ``header``), row i = position i; short columns end with empty cells."""
    header = list(header) if header is not None else [f"reel{i + 1}" for i in range(len(columns))]
    lines = [",".join(header)]
    for i in range(max((len(c) for c in columns), default=0)):
        lines.append(",".join(c[i] if i < len(c) else "" for c in columns))
    return "\n".join(lines) + "\n"


def write_set(directory: Path, base=None, bonus=None, game: str | bytes | None = None,
              published: bool | None = None) -> Path:
    """Write a math set into ``directory``: base.csv, bonus.csv (valid ones by default), game.toml (the bundled
    one by default) and, with ``published`` (default: when the game is the bundled one), the bundled
    published.toml (the rules page's facts).

    ``base``/``bonus`` may be column lists, CSV text or bytes.
    """
    directory.mkdir(parents=True, exist_ok=True)
    for name, content in (("base", base), ("bonus", bonus)):
        if content is None:
            content = valid_columns(name)
        if isinstance(content, list):
            content = csv_text(content)
        if isinstance(content, str):
            content = content.encode()
        (directory / f"{name}.csv").write_bytes(content)
    if published is None:
        published = game is None
    if game is None:
        game = BUNDLED_GAME.read_bytes()    # a math set needs its game file: the bundled rules by default
    (directory / GAME_FILE).write_bytes(game.encode() if isinstance(game, str) else game)
    if published:
        (directory / "published.toml").write_bytes((BUNDLED_DIR / "published.toml").read_bytes())
    return directory


def copy_bundled_game(directory: Path) -> Path:
    """Copy the bundled game.toml into ``directory``; returns its path."""
    directory.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copyfile(BUNDLED_GAME, directory / GAME_FILE))


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (relative path -> bytes): to show nothing was written."""
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


_PLAIN_WHEEL: list[Path] = []


def plain_wheel_game() -> Path:
    """A copy of the bundled ``wheel_game`` without its frames (no ``[frames]`` tables, the wheel's free
    spins plain), written once per process into a temp directory: the bet modes, respin, wheel and gamble
    for the analyses that refuse frames (simulate, prove, comply, export, the gamble's distribution).

    >>> any(line.startswith("[frames") for line in (plain_wheel_game() / "game.toml").read_text().splitlines())
    False
    """
    if not _PLAIN_WHEEL:
        import re
        import tempfile
        src = bundled_path("wheel_game")
        out = Path(tempfile.mkdtemp(prefix="plain_wheel_")) / "wheel_game"
        shutil.copytree(src, out)
        text = (src / GAME_FILE).read_text()
        kept, skipping = [], False
        for line in text.splitlines(keepends=True):
            if line.startswith("["):
                skipping = line.startswith("[frames")
            if not skipping:
                kept.append(line)
        plain = re.sub(r'"free_spins (\d+) \w+"', r'"free_spins \1"', "".join(kept))
        (out / GAME_FILE).write_text(plain)
        _PLAIN_WHEEL.append(out)
    return _PLAIN_WHEEL[0]
