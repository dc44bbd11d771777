"""The fingerprint of a math set: SHA-256 of a canonical form of its parsed maths.

The canonical form is built from the parsed :class:`strips.model.GameModel`
and the parsed strips, never from file bytes, so

* equal maths give an equal fingerprint whether the set was loaded from files
  (any key order, layout, comments, aliases such as ``HOOK`` for ``KEY``,
  strip file names) or built in memory (:func:`strips.builder.math_set`);
* any change to the maths (a strip symbol, a pay, a weight, a rule) changes it;
* the game's ``name`` and ``title`` are not maths and do not enter it.

Canonical form: every dataclass becomes a JSON object of its fields (sorted by
name; :data:`NOT_MATHS` left out), mappings become objects with sorted keys,
sets become sorted arrays, tuples arrays, Fractions ``"p/q"`` strings tagged as
such; a field at its declared default is left out (a rule added to the schema
later, at a default that keeps today's maths, changes no fingerprint); the symbols enter sorted by name (their order in the file only fixes the
engine's integer codes, not the maths); the strip sets enter sorted by name,
each reel as its list of symbol names (aliases resolved), in strip order.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from fractions import Fraction
from typing import Any, Mapping

import numpy as np

from strips.model import GameModel, MathSet, ReelStrips

__all__ = ["fingerprint", "canonical_form", "NOT_MATHS"]

#: (class name, field) pairs that are names, labels or file locations, not maths.
NOT_MATHS = frozenset({("GameModel", "name"), ("GameModel", "title"), ("ReelStrips", "codes")})


def _is_default(f: dataclasses.Field, value: Any) -> bool:
    """Whether a field holds its declared default: such a field is left out of the canonical form,
    so a rule added to the schema later (with a default that keeps today's maths) leaves every
    existing fingerprint unchanged."""
    if f.default is not dataclasses.MISSING:
        default = f.default
    elif f.default_factory is not dataclasses.MISSING:
        default = f.default_factory()
    else:
        return False
    try:
        return type(value) is type(default) and bool(value == default)
    except (TypeError, ValueError):      # e.g. numpy arrays: never a default
        return False


def _canonical(x: Any) -> Any:
    """A JSON-ready, order-independent form of a parsed value (see the module docstring)."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        cls = type(x).__name__
        out = {f.name: _canonical(getattr(x, f.name)) for f in dataclasses.fields(x)
               if (cls, f.name) not in NOT_MATHS and not _is_default(f, getattr(x, f.name))}
        if isinstance(x, GameModel):
            out["symbols"] = sorted(out["symbols"], key=lambda s: s["name"])
            out["strip_files"] = sorted(x.strip_files)     # the strip sets, not their file names
        return {"@": cls, **out}
    if isinstance(x, bool) or x is None or isinstance(x, (int, str)):
        return x
    if isinstance(x, Fraction):
        return {"@": "Fraction", "v": f"{x.numerator}/{x.denominator}"}
    if isinstance(x, float):
        return {"@": "float", "v": x.hex()}
    if isinstance(x, Mapping):
        return {"@": "map", "v": sorted([str(k), _canonical(v)] for k, v in x.items())}
    if isinstance(x, (set, frozenset)):
        return {"@": "set", "v": sorted((_canonical(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True))}
    if isinstance(x, (tuple, list)):
        return [_canonical(v) for v in x]
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.integer):
        return int(x)
    return {"@": type(x).__name__, "v": repr(x)}


def _strips(strips: Mapping[str, ReelStrips]) -> dict:
    return {name: [list(reel) for reel in strips[name].reels] for name in sorted(strips)}


def canonical_form(model: GameModel, strips: Mapping[str, ReelStrips],
                   mode_strips: Mapping[str, Mapping[str, ReelStrips]] | None = None) -> str:
    """The canonical JSON text that :func:`fingerprint` hashes.

    Parameters
    ----------
    model : GameModel
    strips : mapping str -> ReelStrips
        Strip set name -> parsed strips.
    mode_strips : mapping str -> mapping str -> ReelStrips, optional
        Bet mode -> the strip sets it spins instead; left out when empty.

    Returns
    -------
    str
        Compact JSON, keys sorted.

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> '"title"' in canonical_form(ms.model, ms.strips)
    False
    """
    doc = {"model": _canonical(model), "strips": _strips(strips)}
    if mode_strips:
        doc["mode_strips"] = {mode: _strips(mode_strips[mode]) for mode in sorted(mode_strips)}
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fingerprint(ms: MathSet) -> str:
    """SHA-256 of the canonical form of the parsed maths of ``ms`` (model, strips, bet modes' strips; no name, no title).

    Returns
    -------
    str
        64 hexadecimal digits.

    Examples
    --------
    >>> import dataclasses
    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> len(fingerprint(ms))
    64
    >>> renamed = dataclasses.replace(ms, model=dataclasses.replace(ms.model, title="other", name="x"))
    >>> fingerprint(renamed) == fingerprint(ms)
    True
    """
    return hashlib.sha256(canonical_form(ms.model, ms.strips, ms.mode_strips).encode("utf-8")).hexdigest()
