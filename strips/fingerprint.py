"""The fingerprint of a math set: SHA-256 of its maths."""
from __future__ import annotations

import hashlib
import json
import tomllib

from strips.model import MathSet

__all__ = ["fingerprint"]


def fingerprint(ms: MathSet) -> str:
    """SHA-256 of the normalised math: the parsed game file and the strips.

    The game file enters as canonical JSON of its parsed TOML (comments,
    key order and layout do not matter); each strip set as its symbol names
    (aliases resolved), reel by reel.  Two sets with the same fingerprint have
    the same math.

    Returns
    -------
    str
        64 hexadecimal digits.
    """
    h = hashlib.sha256()
    game = tomllib.loads(ms.sources["game.toml"].decode("utf-8-sig")) if "game.toml" in ms.sources else {}
    h.update(json.dumps(game, sort_keys=True, separators=(",", ":")).encode())
    for name in sorted(ms.strips):
        h.update(f"\n[{name}]".encode())
        for reel in ms.strips[name].reels:
            h.update(("\n" + ",".join(reel)).encode())
    return h.hexdigest()
