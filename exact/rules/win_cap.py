"""The win cap (``[game] max_win = 5000``): a round's total win is capped at ``max_win`` times the bet.

Most published games state it: "the maximum win is 5,000x the bet".  The rule,
read literally: with ``W`` the round's total win in credits (base spin, its
respin, wheels and free spins together, before any gamble) and
``c = max_win x bet``, the round pays ``min(W, c)``.

The cap is not linear in the stops, so it has no per-reel terms: its exact
figures come from the round's exact win distribution,

    E[min(W, c)^k] = sum over x of min(x, c)^k P(W = x),    P(cap) = P(W >= c),

where ``P(W = x)`` is, for a round that is one base spin, the count of stop
combinations with win ``x`` over the cycle (:func:`exact.enumeration.spin_histogram`,
the generic exact path) or the one-spin distribution DP when values are drawn
per spin; for a round with free spins, the round distribution of
:func:`exact.win_distribution` when it is exact.  A cap no round can reach
(the exact largest round win is below it) changes nothing, and the report says
so.  A cap that a round reaches whose distribution is only known within a
bound is refused by the exact report (one line); the other analyses that do
not take the cap refuse it too.

The RTP split gets one more component, ``win_cap``: the credits per round the
cap removes (negative), so the split still sums to the mean win.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exact.rules.base import Rule, one_spin_round
from exact.rules.grid import EXTRA_KEYS as GRID_KEYS
from strips import plugins

__all__ = ["WinCap", "WinCapConfig", "WinCapSection", "capped"]


@dataclass(frozen=True)
class WinCapConfig:
    """The cap of ``[game] max_win``: ``bets`` times the bet of the mode played (an integer >= 1)."""

    bets: int
    rule: str = "win cap"

    def describe(self) -> str:
        """The cap in words, as ``rtp diff`` lists a change of it."""
        return f"{self.bets:,} x bet"


def capped(win: int, cap: int) -> int:
    """The literal reading: a round whose total win is ``win`` credits pays ``min(win, cap)``.

    >>> capped(70000, 50000), capped(120, 50000)
    (50000, 120)
    """
    return min(win, cap)


@dataclass(frozen=True)
class WinCapSection:
    """The win cap's part of the PAR sheet (credits per round; ``cap`` in credits).

    Attributes
    ----------
    bets, cap : int
        The cap in bets and in credits per round.
    reached : bool
        Whether some round reaches it (P(W >= cap) > 0).
    probability : Fraction
        P(round win >= cap): the probability that the cap applies.
    mean, second : Fraction
        E[min(W, cap)] and E[min(W, cap)^2], credits and credits^2 per round.
    removed : Fraction
        E[W] - E[min(W, cap)] >= 0: credits per round the cap takes away.
    max_win : int
        The largest uncapped round win, credits.
    method : str
        How the round distribution was computed (``"enumeration of N stop combinations"``, ...).
    """

    bets: int
    cap: int
    reached: bool
    probability: Fraction
    mean: Fraction
    second: Fraction
    removed: Fraction
    max_win: int
    method: str

    def overrides(self) -> dict[str, Fraction]:
        """The round figures the cap replaces: ``mean`` and ``second`` (credits per round)."""
        return {"mean": self.mean, "second": self.second} if self.reached else {}

    def components(self) -> dict[str, Fraction]:
        """The round's component the cap adds: ``win_cap``, minus the credits per round it removes."""
        return {"win_cap": -self.removed}

    def figures(self) -> dict[str, Fraction | int | bool | str]:
        """The section's figures as the JSON report keys them (under ``win_cap``)."""
        return {"bets": self.bets, "credits": self.cap, "reached": self.reached, "probability": self.probability,
                "removed": self.removed, "max_round_win": self.max_win}

    def lines(self) -> list[str]:
        """The report's lines of the section."""
        credits = f"{self.cap:,} credit{'s' if self.cap != 1 else ''}"
        if not self.reached:
            return [f"win cap      {self.bets:,} x bet ({credits}): never reached "
                    f"(largest round win {self.max_win:,} credits); every figure is uncapped"]
        p = float(self.probability)
        return [f"win cap      {self.bets:,} x bet ({credits}): reached with probability "
                f"{p:.6e} (1 in {1 / p:,.2f}); it removes {float(self.removed):.6f} credits per round; "
                f"RTP and variance are of the capped round",
                f"method       {self.method} (the cap is not linear in the stops)"]


class WinCap(Rule):
    """The win cap: exact report (by the round's exact distribution), spin, check, diff, simulation
    (each simulated round capped: :meth:`vector_step`) and the proof (its enumeration checks the
    uncapped phases, its simulation the capped round).

    A rule that acts on the round's total win: the driver (:mod:`exact.rounds`) hands it the round's
    exact distribution and it returns its section (:meth:`section`).

    >>> from fractions import Fraction
    >>> s = WinCap.section(WinCapConfig(bets=3), 1, {0: Fraction(3, 4), 5: Fraction(1, 4)}, "by hand")
    >>> s.mean, s.probability, s.removed
    (Fraction(3, 4), Fraction(1, 4), Fraction(1, 2))
    """

    name = "win cap"
    keys = "[game] max_win"
    implements = frozenset({"report", "spin", "check", "diff", "simulate", "prove", "export", "comply"})
    parses = (("game", "max_win"),)
    narrows = frozenset({"report", "simulate", "prove", "export", "comply"})
    #: The rule acts on the round's total win: the report needs the round's exact distribution.
    acts_on_round = True
    component = "win_cap"
    component_words = "removed by the win cap"

    @classmethod
    def parse(cls, t, doc: dict, model) -> WinCapConfig | None:
        game = doc.get("game", {})
        if "max_win" not in game:
            return None
        bets = game["max_win"]
        if type(bets) is not int or bets < 1:
            raise t.error(("game", "max_win"), f"must be a whole number of bets >= 1 (the win cap), got {bets!r}")
        return WinCapConfig(bets=bets)

    @classmethod
    def needs(cls, model, analysis: str) -> str | None:
        """The exact capped round of a round that is more than one base spin needs its win distribution:
        the report, and the simulation and the proof that compare with it."""
        if analysis in ("report", "simulate", "prove") and not one_spin_round(model):
            return "distribution"
        return None

    @classmethod
    def refusal(cls, model, analysis: str) -> str | None:
        if analysis in ("report", "simulate", "prove") and model.buys:
            return "a win cap with bought features (the cap of a bought round is not modelled)"
        if analysis in ("report", "simulate", "prove") and model.modes:
            return ("win cap with [modes] (the capped round of each bet mode needs its win distribution "
                    "(rtp distribution, exact.win_distribution), which the capped figures do not compute)")
        if analysis == "export" and model.evaluation != "grid":
            return "win cap (the reel-strip workbook does not model it; a grid game's workbook does)"
        if analysis == "comply" and model.evaluation != "grid":
            return "win cap (the jurisdiction check of a reel-strip game does not model it; a grid game's does)"
        return super().refusal(model, analysis)

    @staticmethod
    def literal(config: WinCapConfig, bet: int, win: int) -> int:
        """The literal reading on one round: what a round whose total win is ``win`` credits pays.

        >>> WinCap.literal(WinCapConfig(bets=3), 2, 9)
        6
        """
        return capped(win, config.bets * bet)

    @staticmethod
    def vector_step(config: WinCapConfig, bet: int, wins):
        """The literal reading on many rounds at once: ``wins`` (numpy int64 array of round wins in
        credits, shape (n,)) capped at ``bets x bet``; the simulator's step.

        >>> import numpy as np
        >>> WinCap.vector_step(WinCapConfig(bets=3), 2, np.array([0, 5, 6, 9])).tolist()
        [0, 5, 6, 6]
        """
        return np.minimum(wins, config.bets * bet)

    @staticmethod
    def section(config: WinCapConfig, bet: int, dist, method: str, max_win: int | None = None) -> WinCapSection:
        """The capped round from the round's exact distribution ``dist`` ({win credits: Fraction}).

        ``max_win``, when given, is the exact largest round win and ``dist`` may then be empty: the
        cap is above it and never reached.
        """
        cap = config.bets * bet
        top = max_win if max_win is not None else max(x for x, p in dist.items() if p)
        if top < cap:
            return WinCapSection(config.bets, cap, False, Fraction(0), Fraction(0), Fraction(0), Fraction(0),
                                 top, method)
        mean = sum((x * p for x, p in dist.items()), Fraction(0))
        c_mean = sum((capped(x, cap) * p for x, p in dist.items()), Fraction(0))
        c_second = sum((capped(x, cap) ** 2 * p for x, p in dist.items()), Fraction(0))
        prob = sum((p for x, p in dist.items() if x >= cap), Fraction(0))
        return WinCapSection(config.bets, cap, True, prob, c_mean, c_second, mean - c_mean, top, method)


plugins.register(WinCap.name, WinCap.parses, WinCap.parse)


# A grid game's [game] max_win: the same cap on the round's total (base cascade and free spins), read by
# the grid parser (exact.rules.grid) through its table of other rules' keys.
GRID_KEYS[("game", "max_win")] = lambda t, doc, cfg: WinCap.parse(t, doc, None)
