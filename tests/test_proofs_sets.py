"""Small random math sets for the proofs tests (written to a temp directory).

A set is a directory with ``base.csv``, ``bonus.csv`` and a copy of the bundled
rules-page ``game.toml`` (a math set needs its game file: there is no default game).  Symbols are placed only
where the game allows them (section 4), with many specials so that windows
show several KEY, FS and FISH symbols and WILDs at once (the semantics must
hold for any window, not only the ones the bundled strips show).
"""
from __future__ import annotations

import random
from pathlib import Path

from strips.loader import GAME_FILE, bundled_path, load_math_set, parse_game

_GAME = bundled_path("rules_page") / GAME_FILE
MODEL = parse_game(_GAME.read_bytes(), str(_GAME))


def allowed(strip_set: str, reel: int) -> list[str]:
    """Symbols the bundled game allows on 0-based ``reel`` of ``strip_set``."""
    return [s.name for s in MODEL.symbols if s.allowed_on(strip_set, reel)]


def write_random_set(directory: Path, seed: int, lengths=(7, 8, 9, 10, 6), special_share: float = 0.35,
                     bonus_lengths=None) -> Path:
    """Write a random math set (base.csv, bonus.csv, the bundled game.toml) into ``directory``; returns the directory."""
    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    for strip_set, lens in (("base", lengths), ("bonus", bonus_lengths or lengths)):
        cols = []
        for r, n in enumerate(lens):
            names = allowed(strip_set, r)
            pays = [x for x in names if not MODEL.symbol(x).is_special]
            specials = [x for x in names if MODEL.symbol(x).is_special]
            col = [rng.choice(specials) if specials and rng.random() < special_share else rng.choice(pays)
                   for _ in range(n)]
            if n >= len(specials) + 3:
                for x, i in zip(specials, rng.sample(range(n), len(specials))):
                    col[i] = x  # each allowed special at least once per reel
            cols.append(col)
        lines = [",".join(f"reel{i + 1}" for i in range(len(lens)))]
        for i in range(max(lens)):
            lines.append(",".join(c[i] if i < len(c) else "" for c in cols))
        (directory / f"{strip_set}.csv").write_text("\n".join(lines) + "\n")
    if not (directory / GAME_FILE).exists():
        (directory / GAME_FILE).write_bytes(_GAME.read_bytes())
    return directory


def random_set(directory: Path, seed: int, **kw):
    """Load a freshly written random math set."""
    return load_math_set(str(write_random_set(directory, seed, **kw)))


def test_random_set_obeys_placement_and_shows_specials(tmp_path):
    ms = random_set(tmp_path / "s", 1, lengths=(18, 19, 20, 21, 18))
    assert ms.strips["base"].lengths == (18, 19, 20, 21, 18)
    kinds = {MODEL.symbol(n).kind for reel in ms.strips["base"].reels for n in reel}
    assert {"wild", "key", "scatter", "fish", "pay"} <= kinds
    bonus = {n for reel in ms.strips["bonus"].reels for n in reel}
    assert "WILD" not in bonus and "FS" not in bonus
