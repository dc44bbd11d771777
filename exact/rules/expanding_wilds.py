"""Expanding WILDs (``[symbols.W] expands = true``): a WILD on a reel turns that whole reel into that WILD
for the line evaluation only.

Scatters under it still count and trigger; expansion happens only on reels where the WILD stands; a
WILD with its own pays counts expanded reels in its WILD-only run.  Every payline is evaluated on its
own (expansion makes the rows unlike), so the published figures of such games are those of the bet
lines their files select.

Literal reading: :func:`expanded` (the window a payline reads); factorised fast path: the per-reel
line view :func:`line_view` (the symbol each stop shows on each row to a payline), which the per-line
chains of :mod:`exact.lines` read instead of the window's rows; the scatter counts keep the window.
Both live in :mod:`exact.rules.line_reading` (the composed reading applies them) and are named here.

``expands = { phases = ["free_spins"] }`` (or ``["base"]``, or both): the WILD expands in those phases only.
Literal reading: a spin of a phase is read on :func:`for_phase` (the game whose expanding WILDs are those of
the phase; :func:`exact.rules.registry.phase_reading`); every analysis of a phase reads that game, so each
figure is exact phase by phase.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from exact.rules.line_reading import LineReadingRule, expanded, line_view
from strips import plugins

__all__ = ["ExpandingConfig", "ExpandingWilds", "expanded", "line_view", "PHASES"]

#: The phase names of ``expands = { phases = [...] }``: the base game, every free spin.
PHASES = ("base", "free_spins")


@dataclass(frozen=True)
class ExpandingConfig:
    """``wilds``: the names of the WILDs that expand; ``phases``: per WILD (same order), the phases of
    :data:`PHASES` it expands in (empty: every phase)."""

    wilds: tuple
    rule: str = "expanding wilds"
    phases: tuple = ()

    def of_phase(self, phase) -> tuple:
        """The WILDs that expand in ``phase`` (``base``, else a free spin), file order."""
        key = "base" if phase.name == "base" else "free_spins"
        return tuple(w for i, w in enumerate(self.wilds) if not self.phases or key in self.phases[i])


def parse_expands(t, doc: dict, model) -> ExpandingConfig | None:
    """Every ``[symbols.W] expands``: ``true`` or ``false`` on a WILD; the phase table form is refused.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(extra="[symbols.C]\\nclass = 'pay'\\npays = [0, 0, 1]\\nexpands = true"))
    game.toml:23:1: symbols.C.expands: only a WILD expands (C is class 'pay')
    """
    out = []
    for name, spec in (doc.get("symbols") or {}).items():
        if not isinstance(spec, dict) or "expands" not in spec:
            continue
        path = ("symbols", name, "expands")
        v = spec["expands"]
        kind = model.symbol(name).kind
        if kind != "wild":
            raise t.error(path, f"only a WILD expands ({name} is class {kind!r})")
        phases = PHASES
        if isinstance(v, dict):
            for k in v:
                if k != "phases":
                    raise t.error(path + (k,), f"unknown key {k!r} of expands (phases)")
            phases = t.get(v, path, "phases", list)
            if not phases or any(x not in PHASES for x in phases) or len(set(phases)) != len(phases):
                raise t.error(path + ("phases",), f'must list "base" and/or "free_spins" once each, got {phases!r}')
            phases, v = tuple(phases), True
        if not isinstance(v, bool):
            raise t.error(path, f"must be true or false, got {v!r}")
        if model.evaluation != "lines":
            raise t.error(path, "unsupported rule: expanding WILDs outside a payline game")
        if v:
            out.append((name, tuple(phases)))
    if not out:
        return None
    every = all(set(ph) == set(PHASES) for _, ph in out)
    return ExpandingConfig(tuple(n for n, _ in out), phases=() if every else tuple(ph for _, ph in out))


def for_phase(model, phase):
    """The game a spin of ``phase`` is read with: ``model`` when its expanding WILDs expand in every phase, else
    the game whose expanding WILDs are those of ``phase`` (none: the rule's configuration left out).

    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(rules=(ExpandingConfig(("W",), phases=(("free_spins",),)),))
    >>> for_phase(m, SimpleNamespace(name="base")).rules, for_phase(m, SimpleNamespace(name="level1")) is m
    ((), False)
    """
    cfg = ExpandingWilds.config(model)
    if cfg is None or not cfg.phases:
        return model
    wilds = cfg.of_phase(phase)
    rules = tuple(c for c in model.rules if c is not cfg) + ((ExpandingConfig(wilds),) if wilds else ())
    if dataclasses.is_dataclass(model):
        return dataclasses.replace(model, rules=rules)
    return type(model)(**{**vars(model), "rules": rules})


class ExpandingWilds(LineReadingRule):
    """Expanding WILDs.

    >>> from strips.loader import load_math_set
    >>> ExpandingWilds.present(load_math_set("rules_page").model)
    False
    """

    name = "expanding wilds"
    keys = '[symbols.W] expands = true | { phases = ["base", "free_spins"] }'
    parses = (("symbols", "*", "expands"),)

    @classmethod
    def for_phase(cls, model, phase):
        """The game a spin of ``phase`` is read with (:func:`for_phase`)."""
        return for_phase(model, phase)


plugins.register(ExpandingWilds.name, ExpandingWilds.parses, parse_expands)
