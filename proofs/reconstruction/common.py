"""Pieces shared by the reconstruction and its tuning: constants, the AUS-run rule, in-memory sets."""
from __future__ import annotations

from fractions import Fraction

from strips.loader import GAME_FILE, bundled_path, parse_game, parse_strips
from strips.model import GameModel, MathSet, ReelStrips
from proofs.reconstruction.rules_page import BASE, BONUS, MAX_AUS_RUN

STRIP_SETS = (BASE, BONUS)
HIGH_VALUE_FISH = ("FISH3", "FISH4")
LOW_VALUE_FISH = ("FISH1", "FISH2")
DEFAULT_SEED = 1
DEFAULT_TARGET = Fraction(96, 100)
#: Tolerance of the tuned RTP: +/- 0.005 percentage points.
TOLERANCE = Fraction(5, 100000)
#: The search stops once the exact RTP is this close (a tenth of the tolerance).
INNER_TOLERANCE = TOLERANCE / 10
MAX_TUNING_STEPS = 400_000


def aus_run_ok(strip: list[str | None], p: int, name: str, aus: frozenset[str]) -> bool:
    """Whether ``name`` at position ``p`` keeps every assigned run of AUS symbols <= 3 (cyclic).

    Unassigned positions (``None``) end a run, so a run is checked in full
    when its last position is assigned.
    """
    if name not in aus:
        return True
    n = len(strip)
    run = 1
    for step in (-1, 1):
        q = (p + step) % n
        while strip[q] in aus and q != p and run <= MAX_AUS_RUN:
            run += 1
            q = (q + step) % n
    return run <= MAX_AUS_RUN


def game_model() -> GameModel:
    """The bundled rules-page game (``strips/rules_page/game.toml``)."""
    path = bundled_path("rules_page") / GAME_FILE
    return parse_game(path.read_bytes(), str(path))


def csv_bytes(strip: list[list[str]]) -> bytes:
    """The strip set in the loader's CSV format: header ``reel1..reel5``, one row per position."""
    lines = [",".join(f"reel{r + 1}" for r in range(len(strip)))]
    for p in range(len(strip[0])):
        lines.append(",".join(reel[p] for reel in strip))
    return ("\n".join(lines) + "\n").encode()


def math_set(model: GameModel, strips: dict[str, list[list[str]]], name: str = "reconstruction") -> MathSet:
    """A :class:`MathSet` of in-memory strips, validated by the loader's CSV parser."""
    parsed: dict[str, ReelStrips] = {}
    findings = []
    for s, strip in strips.items():
        rs, found = parse_strips(csv_bytes(strip), f"{name}/{model.strip_files[s]}", model, s)
        parsed[s] = rs
        findings.extend(found)
    return MathSet(name=name, model=model, strips=parsed, findings=tuple(findings))
