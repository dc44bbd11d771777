"""A retrigger allowed only below a total (``[free_spins] retrigger_total_below = 100``).

A retrigger adds its spins only while the spins played plus the spins left (the current spin counted)
are below the bound; with 15 initial spins and 100 per retrigger below 100 that is at most one
retrigger (a feature of 15 or 115 spins).

How it relates to ``retrigger_cap``: the cap truncates an award to what fits under it
(``min(award, cap - total)``).  When every trigger awards the same s spins and every retrigger the
same r, the totals a feature reaches are s + k r, and "allowed while the total is below B" is the cap
``C = s + ceil((B - s) / r) r`` exactly (for k < K = ceil((B - s) / r) both add r; at s + K r both add
nothing).  The rule is parsed into that cap (:attr:`RetriggerBelowConfig.rewrites`), and every
analysis that takes the cap takes it.  With several award sizes no cap plays the same; the game then keeps
the bound (``GameModel.retrigger_below``): the retrigger chain of :mod:`markov.retrigger` reads it on its
state (spins left, spins played), adding a retrigger's spins only while left + played is below it, so the
exact PAR sheet, check, chain, diff and the literal spin are exact; every other analysis (they play the cap
in their own ways) refuses in one line.  Literal reading: :func:`allowed`
(:func:`exact.rules.free_spins.retrigger_step`).
"""
from __future__ import annotations

from dataclasses import dataclass

from exact.rules.base import ANALYSES, Refusal, Rule
from strips import plugins

__all__ = ["RetriggerBelowConfig", "RetriggerTotalBelow", "allowed", "equivalent_cap"]


@dataclass(frozen=True)
class RetriggerBelowConfig:
    """``below``: the bound B; ``cap``: the equivalent ``retrigger_cap`` (None with several award sizes)."""

    below: int
    cap: int | None
    rule: str = "retrigger_total_below"

    @property
    def rewrites(self) -> dict:
        """The core fields this rule sets on the parsed game: the equivalent cap, or (several award sizes,
        ``cap`` None) the bound itself."""
        return {"retrigger_cap": self.cap} if self.cap is not None else {"retrigger_below": self.below}


def allowed(below: int, played: int, left: int) -> bool:
    """The literal reading: a retrigger in a free spin adds its spins when ``played + left`` (the current
    spin counted among the left ones) is below ``below``.

    >>> allowed(100, 0, 15), allowed(100, 3, 112)
    (True, False)
    """
    return played + left < below


def equivalent_cap(below: int, initial: int, extra: int) -> int:
    """The ``retrigger_cap`` that plays as ``retrigger_total_below`` with ``initial`` spins per trigger
    and ``extra`` per retrigger.

    >>> equivalent_cap(100, 15, 100), equivalent_cap(100, 15, 15), equivalent_cap(10, 15, 5)
    (115, 105, 15)
    """
    if below <= initial:
        return initial
    return initial + -(-(below - initial) // extra) * extra


def parse_below(t, doc: dict, model) -> RetriggerBelowConfig | None:
    """``[free_spins] retrigger_total_below``: an integer >= 1 with a retrigger, no ``retrigger_cap``, and
    one award size per trigger and per retrigger.

    >>> from exact.rules.line_reading import example_game
    >>> print(example_game(extra='[symbols.S]\\nclass = "scatter"\\nreels = { base = [1, 2, 3] }\\n'
    ...       '[free_spins]\\nstrips = "base"\\ntrigger = { 3 = 5 }\\nretrigger = { 3 = 5 }\\n'
    ...       'retrigger_cap = 9\\nretrigger_total_below = 9\\n[[free_spins.levels]]\\nmultiplier = 1'))
    game.toml:28:1: free_spins.retrigger_total_below: give retrigger_cap or retrigger_total_below, not both
    """
    fs = doc.get("free_spins") or {}
    if "retrigger_total_below" not in fs:
        return None
    path = ("free_spins", "retrigger_total_below")
    b = fs["retrigger_total_below"]
    if type(b) is not int or b < 1:
        raise t.error(path, f"must be a whole number of free spins >= 1, got {b!r}")
    if not model.retrigger:
        raise t.error(path, "needs [free_spins] retrigger")
    if model.retrigger_cap is not None:
        raise t.error(path, "give retrigger_cap or retrigger_total_below, not both")
    initial = {s for _, s in model.trigger}
    extra = {s for _, s in model.retrigger}
    if len(initial) != 1 or len(extra) != 1:       # no equivalent cap: the chain reads the bound itself
        return RetriggerBelowConfig(b, None)
    return RetriggerBelowConfig(b, equivalent_cap(b, initial.pop(), extra.pop()))


class RetriggerTotalBelow(Rule):
    """A retrigger below a total: an exact rewriting into ``retrigger_cap`` (every analysis that takes
    the capped retrigger takes it)."""

    name = "retrigger_total_below"
    keys = "[free_spins] retrigger_total_below"
    implements = frozenset(ANALYSES)
    parses = (("free_spins", "retrigger_total_below"),)
    #: With several award sizes only the exact chain and the literal spin read the bound.
    BOUND_READERS = frozenset({"report", "check", "chain", "diff", "spin"})
    narrows = frozenset(ANALYSES) - BOUND_READERS

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        cfg = cls.config(model)
        if cfg is not None and cfg.cap is None and analysis not in cls.BOUND_READERS:
            return Refusal("retrigger_total_below with several award sizes (only the exact chain and the "
                           "literal spin read the bound)")
        return super().refusal(model, analysis)


plugins.register(RetriggerTotalBelow.name, RetriggerTotalBelow.parses, parse_below)
