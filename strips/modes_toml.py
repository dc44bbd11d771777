"""The ``game.toml`` tables of bet modes, bought features, respins, jackpots, prize wheels and the gamble.

:func:`parse_round_rules` reads ``[modes]``, ``[buy]``, ``[jackpots]``,
``[wheel]`` and ``[gamble]`` into the model; errors name file, row and
column.
"""
from __future__ import annotations

import dataclasses
import re
import sys
from fractions import Fraction

from strips import plugins
from strips.model import (AWARD_KINDS, DEFAULT_MODE, FREE_SPINS, JACKPOT, Award, Buy, Gamble, Mode, PrizeTable,
                          Respin, Wheel, SCATTER, GameModel)
from strips import limits as _limits
from strips.toml_reader import TomlFile, check_limit, count_table, exact_fraction, positive_int, refuse_unknown


#: The top-level tables of the round rules (each parsed below).
ROUND_TABLES = ("modes", "buy", "jackpots", "wheel", "gamble")
_AWARD = re.compile(r"^\s*(\S+)\s+(\S+)(?:\s+(\S+))?\s*$")


def parse_round_rules(t: "TomlFile", doc: dict, model: GameModel) -> GameModel:
    """The model with its ``[modes]``, ``[buy]``, ``[jackpots]``, ``[wheel]`` and ``[gamble]``.

    Raises
    ------
    MathSetError
        At the key that is wrong: a wheel symbol that is not a scatter-class
        symbol of the game or is the one that starts the free spins; a mode named ``default`` or with a
        cost < 1, a strip set the game does not have, a trigger or a
        ``free_spins`` award in a game without free spins; a respin symbol
        that is not in the game or a count < 1; a buy trigger that is not a
        key of the trigger table; wheel weights that are negative, of the
        wrong length or sum to 0; an award that is not ``credits N``,
        ``jackpot NAME`` (NAME in ``[jackpots]``) or ``free_spins N``; a
        gamble probability that is not an exact fraction in [0, 1].
    """
    names = {n for s in model.symbols for n in (s.name,) + s.aliases}
    jackpots = {}
    jt = t.get(doc, (), "jackpots", dict, {})
    for name in jt:
        v = t.get(jt, ("jackpots",), name, int)
        if v < 0:
            raise t.error(("jackpots", name), "a jackpot is a fixed number of credits >= 0")
        jackpots[name] = v
    modes = []
    for name, spec in t.get(doc, (), "modes", dict, {}).items():
        path = ("modes", name)
        if not isinstance(spec, dict):
            raise t.error(path, "must be a table")
        if name == DEFAULT_MODE:
            raise t.error(path, f"{DEFAULT_MODE!r} is the game's own mode ([game] bet); give the mode another name")
        refuse_unknown(t, spec, path, ("cost", "strips", "trigger", "respin"), "key")
        cost = positive_int(t, spec, path, "cost", "credits per round")
        files = {}
        for set_name in t.get(spec, path, "strips", dict, {}):
            fname = t.get(spec["strips"], path + ("strips",), set_name, str)
            if set_name not in model.strip_files:
                raise t.error(path + ("strips", set_name), f"names unknown strip set {set_name!r} "
                              f"(the game's: {', '.join(model.strip_files)})")
            if not fname or "/" in fname or "\\" in fname:
                raise t.error(path + ("strips", set_name), "must be a file name inside the math-set directory")
            files[set_name] = fname
        trigger = ()
        if "trigger" in spec:
            if not model.trigger:
                raise t.error(path + ("trigger",), "the game has no [free_spins] whose trigger a mode could replace")
            trigger = count_table(t, spec, "trigger", "initial free spins", path,
                                   cells=model.reels * model.rows)
        respin = None
        if "respin" in spec:
            rp = path + ("respin",)
            rs = t.get(spec, path, "respin", dict)
            refuse_unknown(t, rs, rp, ("symbol", "count"), "key")
            symbol = t.get(rs, rp, "symbol", str)
            if symbol not in names:
                raise t.error(rp + ("symbol",), f"unknown symbol {symbol!r} (known: {', '.join(model.names)})")
            count = positive_int(t, rs, rp, "count", "symbols")
            if count > model.reels * model.rows:
                raise t.error(rp + ("count",), f"{count} {symbol} symbols cannot show in a window of "
                              f"{model.reels * model.rows} cells")
            respin = Respin(symbol=model.symbol(symbol).name, count=count)
        modes.append(Mode(name=name, cost=cost, strips=files, trigger=trigger, respin=respin))
    buys = []
    for name, spec in t.get(doc, (), "buy", dict, {}).items():
        path = ("buy", name)
        if not isinstance(spec, dict):
            raise t.error(path, "must be a table")
        refuse_unknown(t, spec, path, ("cost", "trigger"), "key")
        cost = positive_int(t, spec, path, "cost", "credits")
        trigger = t.get(spec, path, "trigger", int)
        if trigger not in dict(model.trigger):
            keys = ", ".join(str(c) for c, _ in model.trigger) or "none: the game has no [free_spins]"
            raise t.error(path + ("trigger",), f"the game cannot have a trigger of {trigger} "
                          f"(trigger table keys: {keys})")
        buys.append(Buy(name=name, cost=cost, trigger=trigger))
    wheels = []
    for name, spec in t.get(doc, (), "wheel", dict, {}).items():
        wheels.append(_wheel(t, ("wheel", name), spec, model, jackpots, doc))
    gamble = None
    if "gamble" in doc:
        gamble = _gamble(t, t.get(doc, (), "gamble", dict))
    return dataclasses.replace(model, modes=tuple(modes), buys=tuple(buys), jackpots=jackpots,
                               wheels=tuple(wheels), gamble=gamble)


def _scatter_symbol(t: "TomlFile", spec: dict, path: tuple, key: str, model: GameModel) -> str:
    """The canonical name of a scatter-class symbol named at ``path.key``."""
    name = t.get(spec, path, key, str)
    try:
        sym = model.symbol(name)
    except KeyError:
        raise t.error(path + (key,), f"unknown symbol {name!r} (known: {', '.join(model.names)})") from None
    if sym.kind != SCATTER:
        raise t.error(path + (key,), f"{name} is a {sym.kind} symbol, not a scatter-class symbol")
    return sym.name


def _wheel(t: "TomlFile", path: tuple, spec, model: GameModel, jackpots: dict, doc: dict | None = None) -> Wheel:
    """One ``[wheel.NAME]``: symbol, tables (count -> prize table), prizes (awards, weights)."""
    if not isinstance(spec, dict):
        raise t.error(path, "must be a table")
    refuse_unknown(t, spec, path, ("symbol", "tables", "prizes"), "key")
    symbol = _scatter_symbol(t, spec, path, "symbol", model)
    if model.trigger and symbol == model.trigger_symbol.name:
        raise t.error(path + ("symbol",), f"{symbol} starts the free spins ([free_spins] scatter, or the "
                      "game's only scatter); a wheel's symbol starts only its wheel")
    if any(model.symbol(symbol).pays):
        raise t.error(path + ("symbol",), f"unsupported rule: scatter pays of the wheel symbol {symbol}")
    tables = count_table(t, spec, "tables", "", path, kind=str)
    prize_specs = t.get(spec, path, "prizes", dict)
    for count, name in tables:
        if name not in prize_specs:
            raise t.error(path + ("tables", str(count)), f"names unknown prize table {name!r} "
                          f"(defined: {', '.join(prize_specs) or 'none'})")
    prizes = {}
    for name, ps in prize_specs.items():
        pp = path + ("prizes", name)
        if not isinstance(ps, dict):
            raise t.error(pp, "must be a table")
        if name not in {n for _, n in tables}:   # a table no count spins is a rule the file cannot mean
            raise t.error(pp, f"prize table {name!r} is used by no count of 'tables'")
        refuse_unknown(t, ps, pp, ("awards", "weights"), "key")
        texts = t.get(ps, pp, "awards", list)
        awards = tuple(_award(t, pp + ("awards",), a, model, jackpots, doc) for a in texts)
        weights = tuple(t.get(ps, pp, "weights", "ints"))
        if not awards:
            raise t.error(pp + ("awards",), "needs at least one award")
        if len(weights) != len(awards):
            raise t.error(pp + ("weights",), f"has {len(weights)} weights for {len(awards)} awards")
        if any(w < 0 for w in weights):
            raise t.error(pp + ("weights",), "weights must not be negative")
        if sum(weights) == 0:
            raise t.error(pp + ("weights",), "weights sum to zero")
        prizes[name] = PrizeTable(name=name, awards=awards, weights=weights)
    return Wheel(name=path[-1], symbol=symbol, tables=tables, prizes=prizes)


def _award(t: "TomlFile", path: tuple, text, model: GameModel, jackpots: dict, doc: dict | None = None) -> Award:
    """``credits N``, ``jackpot NAME``, ``free_spins N`` or ``free_spins N START`` (a start a rule module
    defines for the free spins' persistent cells, :func:`strips.plugins.award_starts`)."""
    m = _AWARD.match(text) if isinstance(text, str) else None
    if not m or m.group(1) not in AWARD_KINDS or (m.group(3) and m.group(1) != FREE_SPINS):
        raise t.error(path, f"award {text!r} is not 'credits N', 'jackpot NAME' or 'free_spins N'")
    kind, arg, start = m.groups()
    if start:
        known = plugins.award_starts(doc or {})
        if start not in known:
            raise t.error(path, f"award {text!r} names the start {start!r}, which no table of the game defines "
                          f"(defined: {', '.join(known) or 'none'})")
    if kind == JACKPOT:
        if arg not in jackpots:
            raise t.error(path, f"award {text!r} names unknown jackpot {arg!r} "
                          f"([jackpots]: {', '.join(jackpots) or 'none'})")
        return Award(kind, jackpot=arg)
    if not arg.isdigit() or (kind == FREE_SPINS and int(arg[:40]) < 1):
        raise t.error(path, f"award {text!r}: N must be an integer >= {1 if kind == FREE_SPINS else 0}")
    digits = _limits.active().digits
    if len(arg) > min(digits or sys.get_int_max_str_digits(), sys.get_int_max_str_digits()):
        raise t.error(path, _limits.digits_refusal(len(arg), "digits in an integer"))
    if kind == FREE_SPINS and not model.levels:
        raise t.error(path, f"award {text!r}: the game has no [free_spins]")
    if kind == FREE_SPINS:   # the feature chain and the simulation grow with the spins awarded
        check_limit(t, path, "spins", int(arg), f"free spins of the award {text!r}")
    return Award(kind, amount=int(arg), start=start or "")


def _gamble(t: "TomlFile", spec: dict) -> Gamble:
    """``[gamble]``: min_win, max_win (credits), multiplier, probability as an exact ``"p/q"``."""
    path = ("gamble",)
    refuse_unknown(t, spec, path, ("min_win", "max_win", "multiplier", "probability"), "key")
    min_win = t.get(spec, path, "min_win", int)
    max_win = t.get(spec, path, "max_win", int)
    multiplier = positive_int(t, spec, path, "multiplier", "the factor a won gamble pays")
    if min_win < 1:
        raise t.error(path + ("min_win",), "must be at least 1 credit")
    if max_win < min_win:
        raise t.error(path + ("max_win",), f"must be at least min_win ({min_win})")
    raw = spec.get("probability")
    if raw is None:
        raise t.error(path + ("probability",), "required key is missing")
    p = exact_fraction(t, path + ("probability",), raw, 'an exact fraction as a string such as "12/25"')
    if p > 1:
        raise t.error(path + ("probability",), f"must be between 0 and 1, got {raw}")
    return Gamble(min_win=min_win, max_win=max_win, multiplier=multiplier, probability=p)
