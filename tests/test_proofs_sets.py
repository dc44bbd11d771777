"""The small random math sets of the proofs tests (`generators.write_random_set`, written to a temp directory).

A set is a directory with ``base.csv``, ``bonus.csv`` and a copy of the bundled
rules-page ``game.toml`` (a math set needs its game file: there is no default game).  Symbols are placed only
where the game allows them (section 4), with many specials so that windows
show several KEY, FS and FISH symbols and WILDs at once (the semantics must
hold for any window, not only the ones the bundled strips show).
"""
from __future__ import annotations

import random

from generators import MODEL, random_set


def test_random_set_obeys_placement_and_shows_specials(tmp_path):
    ms = random_set(tmp_path / "s", 1, lengths=(18, 19, 20, 21, 18))
    assert ms.strips["base"].lengths == (18, 19, 20, 21, 18)
    kinds = {MODEL.symbol(n).kind for reel in ms.strips["base"].reels for n in reel}
    assert {"wild", "key", "scatter", "fish", "pay"} <= kinds
    bonus = {n for reel in ms.strips["bonus"].reels for n in reel}
    assert "WILD" not in bonus and "FS" not in bonus
