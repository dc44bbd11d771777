"""Generators of the sets that are small on disk and dear to compute (the reliability probe's cases): each within
every input limit, written into a temporary directory at test time (never committed).  Not a test module.

>>> import tempfile
>>> d = many_modes(Path(tempfile.mkdtemp()) / "m", 3)
>>> (d / "game.toml").read_text().count("[modes.")
3
"""
from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

from strips.loader import bundled_path

__all__ = ["bundled_copy", "later_level_spins", "initial_spins", "chain_work_ladder", "many_modes",
           "hold_and_win_respins", "many_lines_game", "tiny_ladder"]


def bundled_copy(directory: Path, name: str, edit=None) -> Path:
    """A copy of bundled set ``name`` (every file) in ``directory``, its game.toml passed through ``edit(text)``."""
    directory.mkdir(parents=True, exist_ok=True)
    for f in bundled_path(name).iterdir():
        if f.is_file():
            shutil.copyfile(f, directory / f.name)
    if edit is not None:
        game = directory / "game.toml"
        game.write_text(edit(game.read_text()))
    return directory


def later_level_spins(directory: Path, spins: int = 1000) -> Path:
    """The rules-page game with ``spins`` free spins in each later level (levels 2-4; 8 in the bundled set)."""
    return bundled_copy(directory, "rules_page", lambda t: t.replace("spins = 8", f"spins = {spins}"))


def initial_spins(directory: Path, spins: int = 1000) -> Path:
    """The rules-page game whose every trigger awards ``spins`` initial free spins."""
    return bundled_copy(directory, "rules_page", lambda t: re.sub(r"trigger = \{[^}]*\}",
                                                                  f"trigger = {{ 3 = {spins}, 4 = {spins}, 5 = {spins} }}", t))


def chain_work_ladder(directory: Path, spins: int = 440, threshold: int = 440) -> Path:
    """The rules-page game at the default chain-work limit: ``spins`` initial spins on every trigger and the last
    level's KEY threshold ``threshold`` ((440 + 24)^2 x 441 = 9.5e7 units, under 1e8)."""
    d = initial_spins(directory, spins)
    game = d / "game.toml"
    game.write_text(game.read_text().replace("threshold = 9", f"threshold = {threshold}"))
    return d


def many_modes(directory: Path, modes: int = 1000) -> Path:
    """The rules-page game with ``modes`` bet modes (each costing the bet and playing the base strips)."""
    text = "".join(f"\n[modes.m{i}]\ncost = 10\n" for i in range(modes))
    return bundled_copy(directory, "rules_page", lambda t: t + text)


def hold_and_win_respins(directory: Path, respins: int = 1000) -> Path:
    """The bundled hold-and-win game with ``respins`` respins, reset by every new coin (3 in the bundled set)."""
    return bundled_copy(directory, "hold_and_win", lambda t: re.sub(r"(?m)^respins = 3\b", f"respins = {respins}", t))


def many_lines_game(directory: Path, reels: int = 12, rows: int = 32, stops: int = 10_000, symbols: int = 128,
                    lines: int = 2000, seed: int = 1) -> Path:
    """A payline game at the window limits: ``reels`` x ``rows``, ``stops`` stops a reel, ``symbols`` pay symbols
    (one a WILD) and ``lines`` random paylines (its game.toml about 40 KB for 2,000 lines of 12 reels)."""
    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    names = [f"S{i}" for i in range(symbols - 1)]
    seen: set = set()
    paylines = []
    while len(paylines) < lines:
        line = tuple(rng.randint(1, rows) for _ in range(reels))
        if line not in seen:
            seen.add(line)
            paylines.append(line)
    pays = [0, 0] + [5] * (reels - 2)
    text = (f'[game]\nname = "many_lines"\nreels = {reels}\nrows = {rows}\nbet = {lines}\nevaluation = "lines"\n'
            f'\n[lines]\npaylines = [' + ", ".join("[" + ",".join(map(str, p)) + "]" for p in paylines) + "]\n"
            f'\n[strips]\nbase = "base.csv"\n\n[symbols.W]\nclass = "wild"\nreels = {{ base = {list(range(1, reels + 1))} }}\n'
            + "".join(f'[symbols.{n}]\nclass = "pay"\npays = {pays}\n' for n in names))
    (directory / "game.toml").write_text(text)
    every = names + ["W"]
    columns = [[every[(i + r * 7 + rng.randrange(3)) % len(every)] for i in range(stops)] for r in range(reels)]
    rows_out = [",".join(f"reel{r + 1}" for r in range(reels))]
    rows_out += [",".join(columns[r][i] for r in range(reels)) for i in range(stops)]
    (directory / "base.csv").write_text("\n".join(rows_out) + "\n")
    return directory


def tiny_ladder(directory: Path, spins: int = 4, threshold: int = 2, later: int = 2) -> Path:
    """A 3-reel, 1-row game with a two-level KEY ladder: ``spins`` initial free spins on 3 scatters, level 2
    (``later`` spins, multiplier 2) at ``threshold`` KEYs; 4 stops a reel (its win distribution takes well under
    a second at the defaults)."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "game.toml").write_text(
        '[game]\nreels = 3\nrows = 1\nbet = 1\n[strips]\nbase = "base.csv"\n'
        '[symbols.A]\nclass = "pay"\npays = [0, 0, 5]\n[symbols.B]\nclass = "pay"\npays = [0, 1, 2]\n'
        '[symbols.K]\nclass = "key"\nreels = { base = [1, 2, 3] }\n'
        '[symbols.S]\nclass = "scatter"\nreels = { base = [1, 2, 3] }\n'
        f'[free_spins]\nstrips = "base"\ntrigger = {{ 3 = {spins} }}\nretrigger = false\n'
        '[[free_spins.levels]]\nmultiplier = 1\n'
        f'[[free_spins.levels]]\nthreshold = {threshold}\nspins = {later}\nmultiplier = 2\n')
    (directory / "base.csv").write_text("reel1,reel2,reel3\nA,A,B\nS,S,S\nB,K,A\nK,B,K\n")
    return directory
