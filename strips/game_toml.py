"""The ``game.toml`` parser: game, symbols, pays, free spins, strip rules and the catalogue's rules.

:func:`parse_game` returns the :class:`strips.model.GameModel`; every bad
key or value raises :class:`strips.errors.MathSetError` naming file, row and
column.  Keys of rule modules are handed to them through
:mod:`strips.plugins`; ``[modes]``, ``[buy]``, ``[jackpots]``, ``[wheel]``
and ``[gamble]`` are parsed by :mod:`strips.modes_toml`.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np

from strips import plugins
from strips import limits as _limits
from strips.display import printable
from strips.errors import MathSetError
from strips.model import (COMBINATION, EVALUATIONS, FISH, KEY, LINES, MULTIPLIER_MODES, WAYS, PAY, SCATTER,
                          SYMBOL_CLASSES, WILD, GameModel, Level, ReelStrips, StripRules, Symbol, WildMultiplier,
                          window_table)
from strips.toml_reader import (TomlFile, check_document, check_limit, count_table, decode_text, int_at_least,
                                parse_toml, refuse_unknown)
from strips.modes_toml import ROUND_TABLES, parse_round_rules


def reel_set_files(t: TomlFile, table: dict, path: tuple) -> list[str]:
    """The files of a strip set of weighted reel sets, ``{ sets = ["base1.csv", ...], weights = [3, 1] }``
    (the shape checked here; :mod:`exact.rules.reel_sets` keeps the weights).

    Raises
    ------
    MathSetError
        An unknown key; ``sets`` not a list of 1 or more file names; ``weights`` not one whole number >= 0
        per set, not all 0.
    """
    refuse_unknown(t, table, path, ("sets", "weights"), "key")
    sets = t.get(table, path, "sets", list)
    if not sets or not all(isinstance(f, str) for f in sets):
        raise t.error(path + ("sets",), "must be a list of one or more strip file names")
    weights = t.get(table, path, "weights", "ints")
    if len(weights) != len(sets) or any(w < 0 for w in weights) or not any(weights):
        raise t.error(path + ("weights",), f"needs one whole number >= 0 per reel set ({len(sets)}), not all 0")
    return list(sets)


def parse_game(data: bytes, file: str) -> GameModel:
    """Parse and validate a ``game.toml`` document.

    Parameters
    ----------
    data : bytes
        File content.
    file : str
        Path used in error messages.

    Returns
    -------
    GameModel

    Raises
    ------
    MathSetError
        Malformed TOML, a missing or mistyped key, an unknown symbol class,
        a paytable whose length is not the reel count, negative pays, reels
        out of range, FISH weights that are negative, non-integer, of the
        wrong length or sum to zero, a ladder without levels or with falling
        thresholds, a WILD multiplier that is not an integer >= 1 or a valid
        weighted table (same weight rules as FISH).  Source: rules page
        sections 3-5, 7, 10, 11.
    """
    plugins.load()                      # the rules of the modules above (importing exact provides them)
    text = decode_text(data, file)
    doc = parse_toml(text, file)
    t = TomlFile(text, file)
    check_document(t, doc)
    whole = plugins.game_parser(doc)    # a game without reel strips ([grid]): its rule module parses it
    if whole is not None:
        return whole(t, doc)
    game = t.get(doc, (), "game", dict)
    reels = t.get(game, ("game",), "reels", int)
    rows = t.get(game, ("game",), "rows", int)
    bet = t.get(game, ("game",), "bet", int)
    if reels < 1:
        raise t.error(("game", "reels"), "must be at least 1")
    if rows < 1:
        raise t.error(("game", "rows"), "must be at least 1")
    if bet < 1:
        raise t.error(("game", "bet"), "must be a positive number of credits")
    check_limit(t, ("game", "reels"), "reels", reels)
    check_limit(t, ("game", "rows"), "rows", rows)
    name = printable(t.get(game, ("game",), "name", str, Path(file).parent.name))  # shown on screen: no escapes
    title = printable(t.get(game, ("game",), "title", str, ""))
    refuse_unknown(t, game, ("game",), ("name", "title", "reels", "rows", "bet", "evaluation")
                    + plugins.keys_of(("game",)), "key")
    evaluation_of(t, game)        # an unknown evaluation is named before the symbols are read by another one

    strip_table = t.get(doc, (), "strips", dict)
    strip_files = {}

    def file_name(fname, where) -> str:
        if not isinstance(fname, str) or not fname or "/" in fname or "\\" in fname or "\x00" in fname:
            raise t.error(where, "must be a file name inside the math-set directory")
        return fname

    for set_name, fname in strip_table.items():
        if isinstance(fname, dict):     # weighted reel sets (exact/rules/reel_sets.py): members NAME, NAME#2, ...
            for k, f in enumerate(reel_set_files(t, fname, ("strips", set_name)), start=1):
                member = set_name if k == 1 else f"{set_name}#{k}"
                if k > 1 and member in strip_table:
                    raise t.error(("strips", set_name), f"its reel set {k} is named {member!r}, as another strip set")
                strip_files[member] = file_name(f, ("strips", set_name, "sets"))
            continue
        strip_files[set_name] = file_name(fname, ("strips", set_name))
    if "base" not in strip_files:
        raise t.error(("strips",), "names no 'base' strip set (the base game spins it)")

    sr = t.get(doc, (), "strip_rules", dict, {})
    refuse_unknown(t, sr, ("strip_rules",), ("length", "lengths", "min_pay_between_specials", "max_run"), "key")
    # lengths = [...] (every strip set) or { base = [...], bonus = [...] } (per strip set)
    per_set = sr.get("lengths") if isinstance(sr.get("lengths"), dict) else None
    lengths = None if per_set is not None else t.get(sr, ("strip_rules",), "lengths", "ints", None)
    set_lengths = {}
    for set_name in (per_set or {}):
        if set_name not in strip_files:
            raise t.error(("strip_rules", "lengths", set_name), f"names unknown strip set {set_name!r}")
        set_lengths[set_name] = t.get(per_set, ("strip_rules", "lengths"), set_name, "ints")
    for where, lst in ([(("strip_rules", "lengths"), lengths)] if lengths is not None else []) + [
            (("strip_rules", "lengths", k), v) for k, v in set_lengths.items()]:
        if "length" in sr:
            raise t.error(where, "give length (every reel) or lengths (one per reel), not both")
        if len(lst) != reels or any(n < 1 for n in lst):
            raise t.error(where, f"must be {reels} stop counts >= 1, one per reel, got {lst!r}")
    run = t.get(sr, ("strip_rules",), "max_run", dict, {})
    refuse_unknown(t, run, ("strip_rules", "max_run"), ("symbols", "length"), "key")
    # a soft rule is checked as a finding, but a rule no strip can keep is a bad game file
    strip_rules = StripRules(
        length=int_at_least(t, sr, ("strip_rules",), "length", 1, "stops on each reel strip"),
        min_pay_between_specials=int_at_least(t, sr, ("strip_rules",), "min_pay_between_specials", 0,
                                           "pay symbols between two specials"),
        max_run_symbols=frozenset(t.get(run, ("strip_rules", "max_run"), "symbols", list, [])),
        max_run_length=int_at_least(t, run, ("strip_rules", "max_run"), "length", 1, "symbols in a run"),
        lengths=None if lengths is None else tuple(lengths),
        set_lengths=tuple((k, tuple(v)) for k, v in sorted(set_lengths.items())),
    )

    sym_table = t.get(doc, (), "symbols", dict)
    check_limit(t, ("symbols",), "symbols", len(sym_table) + sum(
        len(v["aliases"]) for v in sym_table.values() if isinstance(v, dict) and isinstance(v.get("aliases"), list)))
    symbols: list[Symbol] = []
    seen_names: set[str] = set()
    for sname, spec in sym_table.items():
        path = ("symbols", sname)
        if not isinstance(spec, dict):
            raise t.error(path, "must be a table")
        kind = t.get(spec, path, "class", str)
        plugin_classes = plugins.symbol_classes()          # classes of rule modules (strips.plugins)
        if kind not in SYMBOL_CLASSES and kind not in plugin_classes:
            raise t.error(path + ("class",), f"unknown class {kind!r} "
                          f"(known: {', '.join(SYMBOL_CLASSES + tuple(plugin_classes))})")
        refuse_unknown(t, spec, path, (SYMBOL_KEYS.get(kind) or ("class", "reels", "aliases")
                        + plugin_classes[kind]) + plugins.keys_of(("symbols", "*")), "key")
        aliases = tuple(t.get(spec, path, "aliases", list, []))
        for n in (sname,) + aliases:
            if not isinstance(n, str) or not n or n in seen_names:
                raise t.error(path, f"name {n!r} is empty or used twice")
            if printable(n) != n:
                raise t.error(path, f"name {n!r} holds a control or invisible character")
            seen_names.add(n)
        pays: tuple[int, ...] = (0,) * reels
        if kind == PAY:
            pays = tuple(t.get(spec, path, "pays", "ints"))
            _check_pays_length(t, doc, path, pays, reels, rows)
            if any(p < 0 for p in pays):
                raise t.error(path + ("pays",), "pays must not be negative")
        if kind == SCATTER and "pays" in spec:
            pays = tuple(t.get(spec, path, "pays", "ints"))
            if any(p < 0 for p in pays):
                raise t.error(path + ("pays",), "scatter pays must not be negative")
        elif kind != PAY:
            pays = ()
        substitutes = frozenset(t.get(spec, path, "substitutes", list, [])) if kind == WILD else frozenset()
        allowed: dict[str, frozenset[int]] = {}
        if kind != PAY:
            rt = t.get(spec, path, "reels", dict, {})
            for set_name, lst in rt.items():
                if set_name not in strip_files:
                    raise t.error(path + ("reels", set_name), f"names unknown strip set {set_name!r}")
                lst = t.get(rt, path + ("reels",), set_name, "ints")
                if any(r < 1 or r > reels for r in lst):
                    raise t.error(path + ("reels", set_name), f"reels must be between 1 and {reels}")
                allowed[set_name] = frozenset(r - 1 for r in lst)
        values: tuple[int, ...] = ()
        weights: dict[str, tuple[int, ...]] = {}
        if kind == FISH:
            values = tuple(t.get(spec, path, "values", "ints"))
            if not values or any(v < 0 for v in values):
                raise t.error(path + ("values",), "must be a non-empty list of credit values >= 0")
            weights = _weight_tables(t, spec, path, values)
        multiplier = parse_wild_multiplier(t, spec, path) if kind == WILD and not plugin_multiplier(spec) else None
        symbols.append(Symbol(name=sname, kind=kind, pays=pays, reels=allowed,
                              values=values, weights=weights, aliases=aliases, substitutes=substitutes,
                              multiplier=multiplier))
    if not any(s.kind == PAY for s in symbols):
        raise t.error(("symbols",), "the game has no pay symbol")
    pay_names = {s.name for s in symbols if s.kind == PAY}
    for s in symbols:
        for n in sorted(s.substitutes - pay_names):
            raise t.error(("symbols", s.name, "substitutes"), f"{n!r} is not a pay symbol")
    for n in strip_rules.max_run_symbols:
        if n not in seen_names:
            raise t.error(("strip_rules", "max_run", "symbols"), f"unknown symbol {n!r}")

    fs = t.get(doc, (), "free_spins", dict, None)
    trigger: tuple[tuple[int, int], ...] = ()
    retrigger: tuple[tuple[int, int], ...] = ()
    retrigger_cap = None
    levels: list[Level] = []
    fs_strips = next(iter(strip_files))
    if fs is not None:
        fs_strips = t.get(fs, ("free_spins",), "strips", str)
        if fs_strips not in strip_files:
            raise t.error(("free_spins", "strips"), f"names unknown strip set {fs_strips!r}")
        refuse_unknown(t, fs, ("free_spins",), ("strips", "trigger", "retrigger", "retrigger_cap", "levels")
                        + FREE_SPIN_RULE_KEYS + plugins.keys_of(("free_spins",)), "key")
        # free spins awarded by line wins ([symbols.X] awards_spins, a rule module's key) need no trigger
        by_lines = any(isinstance(v, dict) and "awards_spins" in v for v in sym_table.values())
        if "trigger" in fs or not by_lines:
            trigger = count_table(t, fs, "trigger", "initial free spins", cells=reels * rows)
        if fs.get("retrigger", False) is not False:
            retrigger = count_table(t, fs, "retrigger", "extra free spins", cells=reels * rows)
        retrigger_cap = t.get(fs, ("free_spins",), "retrigger_cap", int, None)
        if retrigger_cap is not None and retrigger_cap < 1:
            raise t.error(("free_spins", "retrigger_cap"), "must be at least 1 free spin")
        lv_list = t.get(fs, ("free_spins",), "levels", list)
        if not lv_list:
            raise t.error(("free_spins", "levels"), "needs at least one level")
        prev = -1
        for i, lv in enumerate(lv_list):
            path = ("free_spins", "levels", i)
            if not isinstance(lv, dict):
                raise t.error(path, f"level {i + 1} must be a table")
            threshold = t.get(lv, path, "threshold", int, 0)
            spins = t.get(lv, path, "spins", int, None)
            # a multiplier table a rule module parses (drawn per free spin): the level's own multiplier is 1
            mult = (1 if "multiplier" in lv and plugin_multiplier(lv, ("free_spins", "levels"))   # a drawn multiplier: its rule's
                    else t.get(lv, path, "multiplier", int))                           # else required
            refuse_unknown(t, lv, path, ("threshold", "spins", "multiplier", "weights")
                            + plugins.keys_of(("free_spins", "levels")), "key")
            wname = t.get(lv, path, "weights", str, f"level{i + 1}")
            if i == 0 and spins is not None:
                raise t.error(path + ("spins",), "level 1 plays the initial free spins; give it no 'spins'")
            if i > 0 and (spins is None or spins < 1):
                raise t.error(path + ("spins",), f"level {i + 1} needs spins >= 1")
            if threshold < 0:
                raise t.error(path + ("threshold",), f"level {i + 1} threshold must be >= 0 (a KEY count), got {threshold}")
            if threshold < prev:
                raise t.error(path + ("threshold",), f"level {i + 1} threshold must not fall below level {i}'s ({prev})")
            if mult < 1:
                raise t.error(path + ("multiplier",), f"level {i + 1} multiplier must be at least 1 (got {mult}: "
                              f"its free spins would pay {'nothing' if mult == 0 else 'negative wins'})")
            prev = threshold
            levels.append(Level(number=i + 1, threshold=threshold, spins=spins, multiplier=mult, weights=wname))
        if retrigger and len(levels) > 1:
            raise t.error(("free_spins", "retrigger"), "unsupported rule: retrigger with a multi-level ladder")
    _check_free_spin_limits(t, trigger, retrigger, retrigger_cap, levels)
    # every FISH symbol needs a weight table for every phase that can show it (the weight tables of a
    # WILD's drawn multiplier are checked by its rule module: strips.plugins.register_core)
    for s in symbols:
        if s.kind == FISH:
            check_weight_tables(t, s.weights, ("symbols", s.name, "weights"), shown_tables(s, levels, fs_strips),
                                ["base"] + [lv.weights for lv in levels])
    refuse_unknown(t, doc, (), ("game", "strips", "strip_rules", "symbols", "free_spins", "lines") + ROUND_TABLES
                    + plugins.keys_of(()), "table")
    symbols, extra = _catalogue_rules(t, doc, symbols, reels, rows, trigger, levels)
    model = GameModel(name=name, reels=reels, rows=rows, bet=bet, symbols=tuple(symbols),
                      strip_files=strip_files, strip_rules=strip_rules, trigger=trigger,
                      free_spin_strips=fs_strips, levels=tuple(levels), title=title,
                      retrigger=retrigger, retrigger_cap=retrigger_cap, **extra)
    for parser in plugins.core_parsers():   # rule modules' keys that set or check the core's fields
        model = dataclasses.replace(model, **parser(t, doc, model))
    model = parse_round_rules(t, doc, model)
    for parser in plugins.parsers():      # the keys of rule modules (strips.plugins)
        config = parser(t, doc, model)
        if config is not None:   # a rule that is an exact rewriting of core keys sets them (``rewrites``)
            model = dataclasses.replace(model, rules=model.rules + (config,), **getattr(config, "rewrites", {}))
    return model


def shown_tables(symbol: Symbol, levels, fs_strips: str) -> list[str]:
    """The weight tables of the phases whose strips may show ``symbol`` (``base``, then each level's)."""
    tables = ["base"] + [lv.weights for lv in levels]
    return [tn for tn in tables if symbol.reels.get("base" if tn == "base" else fs_strips)]


def check_weight_tables(t: "TomlFile", weights, where: tuple, needed, tables) -> None:
    """Refuse at ``where`` a weight table of ``needed`` missing from ``weights``, or one of ``weights``
    that no phase uses (not in ``tables``, the phases' tables: a rule the file cannot mean).

    Raises
    ------
    MathSetError
        ``missing weight table 'level1'``, or ``weight table 'x' is used by no phase (...)``.
    """
    for tn in needed:
        if tn not in weights:
            raise t.error(where, f"missing weight table {tn!r}")
    for tn in weights:
        if tn not in tables:
            raise t.error(where + (tn,), f"weight table {tn!r} is used by no phase "
                          f"(the phases use {', '.join(dict.fromkeys(tables))})")


def _check_free_spin_limits(t: "TomlFile", trigger, retrigger, retrigger_cap, levels) -> None:
    """The ``spins``, ``threshold``, ``retrigger_cap`` and ``chain_work`` limits of the free spins (before any work)."""
    for key, table in (("trigger", trigger), ("retrigger", retrigger)):
        for n, spins in table:
            check_limit(t, ("free_spins", key, str(n)), "spins", spins, "free spins")
    for i, lv in enumerate(levels):
        if lv.spins is not None:
            check_limit(t, ("free_spins", "levels", i, "spins"), "spins", lv.spins, "free spins")
        check_limit(t, ("free_spins", "levels", i, "threshold"), "threshold", lv.threshold, "KEYs (threshold)")
    if retrigger and retrigger_cap is not None:
        check_limit(t, ("free_spins", "retrigger_cap"), "retrigger_cap", retrigger_cap, "free spins (retrigger cap)")
    if not levels or retrigger:          # a retrigger's work needs the strips: check_retrigger_work
        return
    cap = max((lv.threshold for lv in levels[1:]), default=0)
    work = _limits.chain_work(max((s for _, s in trigger), default=0), [lv.spins or 0 for lv in levels[1:]], cap)
    check_limit(t, ("free_spins",), "chain_work", work, "work units of the free-spin chain (spins x KEY counter x spins)")


def check_retrigger_work(model: GameModel, strips: dict[str, ReelStrips], file: str, data: bytes) -> None:
    """The ``chain_work`` limit of free spins with retrigger under a cap (:func:`strips.limits.retrigger_work`).

    Needs the free-spin strips: the scatter counts a window can show and the
    bits of the stop combinations.  Refused in one line at the game file's
    ``retrigger_cap`` key.
    """
    cap = model.retrigger_cap
    if not model.retrigger or cap is None or not model.levels or model.free_spin_strips not in strips:
        return
    rs = strips[model.free_spin_strips]
    counted = np.array([s.kind == SCATTER or s.counts_as_scatter for s in model.symbols], dtype=bool)
    outcomes = 1 + sum(int(window_table(c, model.rows, counted).max(initial=0)) for c in rs.codes)
    combos = 1
    for n in rs.lengths:
        combos *= n
    awards = sum(1 for s in model.symbols if s.kind in (PAY, SCATTER) for x in s.pays if x)
    passes = (awards + len(model.retrigger)) * max(len(model.trigger), 1)
    work = _limits.retrigger_work([n for _, n in model.trigger], [n for _, n in model.retrigger], cap, passes,
                                  outcomes, combos.bit_length())
    limit = _limits.exceeds("chain_work", work)
    if limit is not None:
        text = data.decode("utf-8", "replace").split("\n")
        row = next((i + 1 for i, line in enumerate(text) if re.match(r"\s*retrigger_cap\s*=", line)), 0)
        col = text[row - 1].index("retrigger_cap") + 1 if row else 0
        raise MathSetError(file, row, col, _limits.refusal(
            "chain_work", work, limit, f"work units of the free-spin chain (retrigger_cap = {cap:,}, {passes} award "
            f"passes, {outcomes} scatter counts; a lower retrigger_cap costs less)"))


#: The keys each symbol class may have; any other key is a rule the schema cannot express.
SYMBOL_KEYS = {
    PAY: ("class", "pays", "aliases"),
    WILD: ("class", "reels", "aliases", "substitutes", "multiplier", "pays", "counts_as_scatter"),
    KEY: ("class", "reels", "aliases"),
    SCATTER: ("class", "reels", "aliases", "pays"),
    FISH: ("class", "reels", "aliases", "values", "weights"),
}


def _weight_tables(t: "TomlFile", spec: dict, path: tuple, values: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
    """The ``weights`` table of a FISH symbol or of a WILD multiplier: name -> integer weights.

    Each table (one per phase, section 7) has one integer weight per value,
    none negative, and a positive sum.

    Raises
    ------
    MathSetError
        At the table that is missing, not a list of integers, of the wrong
        length, has a negative weight or sums to zero.
    """
    wt = t.get(spec, path, "weights", dict)
    weights = {}
    for table_name in wt:
        w = t.get(wt, path + ("weights",), table_name, "ints")
        if len(w) != len(values):
            raise t.error(path + ("weights", table_name), f"has {len(w)} weights for {len(values)} values")
        if any(x < 0 for x in w):
            raise t.error(path + ("weights", table_name), "weights must not be negative")
        if sum(w) == 0:
            raise t.error(path + ("weights", table_name), "weights sum to zero")
        weights[table_name] = tuple(w)
    return weights


def plugin_multiplier(spec: dict, table: tuple = ("symbols", "*")) -> bool:
    """Whether ``spec`` (a symbol's or a level's table) has no ``multiplier`` or one a rule module parses (a
    table holding a key registered under ``table + ("multiplier",)``, e.g. ``per_wild``)."""
    raw = spec.get("multiplier")
    return raw is None or (isinstance(raw, dict) and bool(set(raw) & set(plugins.keys_of(table + ("multiplier",)))))


def parse_wild_multiplier(t: "TomlFile", spec: dict, path: tuple) -> WildMultiplier:
    """A WILD's ``multiplier``: an integer >= 1 (fixed) or ``{ values, weights.<phase>, mode }``.

    ``mode`` is ``wild`` (one draw per WILD symbol in the window) or ``reel``
    (one draw per reel, shared by every WILD of the symbol on that reel); the
    weight tables are validated as FISH weight tables (:func:`_weight_tables`).

    Raises
    ------
    MathSetError
        A multiplier that is not an integer >= 1 or a table, values that are
        not integers >= 1, an unknown mode, bad weights, or an unknown key.
    """
    mp = path + ("multiplier",)
    raw = spec["multiplier"]
    if isinstance(raw, dict):
        refuse_unknown(t, raw, mp, ("values", "weights", "mode"), "key")
        values = tuple(t.get(raw, mp, "values", "ints"))
        if not values or any(v < 1 for v in values):
            raise t.error(mp + ("values",), "must be a non-empty list of integer multipliers >= 1")
        mode = t.get(raw, mp, "mode", str)
        if mode not in MULTIPLIER_MODES:
            raise t.error(mp + ("mode",), f"must be 'wild' (one draw per WILD symbol), 'reel' "
                          f"(one draw per reel) or 'combination' (once per winning line or way), got {mode!r}")
        if mode == COMBINATION and len(values) == 1 and "weights" not in raw:
            return WildMultiplier(values=values, mode=mode)
        return WildMultiplier(values=values, weights=_weight_tables(t, raw, mp, values), mode=mode)
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        raise t.error(mp, f"must be an integer >= 1 or a table {{ values, weights, mode }}, got {raw!r}")
    return WildMultiplier(values=(raw,))


#: ``[free_spins]`` keys of the catalogue's trigger rules, parsed by :func:`_catalogue_rules` (``trigger_reels``
#: and ``multiplier_by_trigger`` by the scatter rule's module, :func:`strips.plugins.register_core`).
FREE_SPIN_RULE_KEYS = ("scatter",)


def evaluation_of(t: "TomlFile", game: dict) -> str:
    """``[game] evaluation`` (default ways), one of the evaluations the core and the rule modules know.

    Raises
    ------
    MathSetError
        Not a string, or an unknown evaluation (located at the key, before any symbol is read).
    """
    evaluation = t.get(game, ("game",), "evaluation", str, WAYS)
    if evaluation not in EVALUATIONS + plugins.evaluations():
        known = " or ".join(repr(e) for e in EVALUATIONS + plugins.evaluations())
        raise t.error(("game", "evaluation"), f"must be {known}, got {evaluation!r}")
    return evaluation


def _catalogue_rules(t: "TomlFile", doc: dict, symbols: list[Symbol], reels: int, rows: int,
                     trigger: tuple, levels: list[Level]) -> tuple[list[Symbol], dict]:
    """The catalogue rules: ``[game] evaluation``, ``[lines] paylines``, a WILD's own ``pays`` and
    ``counts_as_scatter``, ``[free_spins] scatter`` (the rule modules parse ``trigger_reels``,
    ``multiplier_by_trigger``, and check a line game's symbols and a WILD's multiplier tables).

    Returns
    -------
    (symbols, extra)
        The symbols with the WILD keys applied, and the extra
        :class:`GameModel` fields (``evaluation``, ``paylines`` 0-based, ``scatter``).

    Raises
    ------
    MathSetError
        An unknown evaluation; ``[lines]`` in a ways game or missing in a
        line game; a payline with the wrong number of rows or a row outside
        1..rows; a WILD ``pays`` list of the wrong length or negative, or
        in a ways game; ``counts_as_scatter`` not a boolean or without a
        scatter symbol; several scatters with free spins and no
        ``[free_spins] scatter``; a ``scatter`` that names no scatter
        symbol.
    """
    game = doc["game"]
    evaluation = evaluation_of(t, game)
    plugin_eval = plugins.evaluation(evaluation) or {}
    paylines: tuple[tuple[int, ...], ...] = ()
    if evaluation == LINES:
        lines = t.get(doc, (), "lines", dict)
        refuse_unknown(t, lines, ("lines",), ("paylines",) + plugins.keys_of(("lines",)), "key")
        raw = t.get(lines, ("lines",), "paylines", list)
        if not raw:
            raise t.error(("lines", "paylines"), "needs at least one payline")
        out = []
        for i, line in enumerate(raw):
            if not isinstance(line, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in line):
                raise t.error(("lines", "paylines"), f"payline {i + 1} must be a list of row numbers, got {line!r}")
            if len(line) != reels:
                raise t.error(("lines", "paylines"), f"payline {i + 1} has {len(line)} rows, the game has {reels} reels")
            if any(v < 1 or v > rows for v in line):
                raise t.error(("lines", "paylines"), f"payline {i + 1}: rows must be between 1 (top) and {rows}")
            if tuple(v - 1 for v in line) in out:   # it would pay twice: never what a paytable means
                raise t.error(("lines", "paylines"), f"payline {i + 1} repeats payline "
                              f"{out.index(tuple(v - 1 for v in line)) + 1} ({line!r}): a duplicated payline pays twice")
            out.append(tuple(v - 1 for v in line))
        paylines = tuple(out)
    elif "lines" in doc:
        raise t.error(("lines",), "a ways game has no paylines (set [game] evaluation = \"lines\")")
    scatters = [s for s in symbols if s.kind == SCATTER]
    fs = doc.get("free_spins") or {}
    scatter = t.get(fs, ("free_spins",), "scatter", str, None)
    # a WILD counted as a scatter may be the game's only scatter (its scatter pays: a rule module's key)
    wild_scatters = {n for n, spec in doc["symbols"].items() if isinstance(spec, dict)
                     and spec.get("class") == WILD and spec.get("counts_as_scatter") is True}
    if scatter is not None and scatter not in {s.name for s in scatters} and not (scatter in wild_scatters
                                                                                 and not scatters):
        raise t.error(("free_spins", "scatter"), f"{scatter!r} is not a scatter symbol "
                      f"(scatters: {', '.join(s.name for s in scatters) or 'none'})")
    if scatter is None and trigger and len(scatters) > 1:
        raise t.error(("free_spins",), f"several scatter symbols ({', '.join(s.name for s in scatters)}): "
                      f"name the one that triggers with scatter = \"NAME\"")
    sym_table = doc["symbols"]
    new = []
    for s in symbols:
        spec = sym_table[s.name]
        path = ("symbols", s.name)
        if s.kind == WILD:
            changes = {}
            if "pays" in spec:
                pays = tuple(t.get(spec, path, "pays", "ints"))
                if evaluation != LINES and not plugin_eval.get("wild_pays"):
                    raise t.error(path + ("pays",), f"unsupported rule: own pays of a WILD in a {evaluation} game")
                _check_pays_length(t, doc, path, pays, reels, rows)
                if any(p < 0 for p in pays):
                    raise t.error(path + ("pays",), "pays must not be negative")
                changes["pays"] = pays
            cas = t.get(spec, path, "counts_as_scatter", bool, False)
            if cas and not scatters and scatter != s.name:
                raise t.error(path + ("counts_as_scatter",), "the game has no scatter symbol to count as")
            changes["counts_as_scatter"] = cas
            s = dataclasses.replace(s, **changes)
        new.append(s)
    wild_payers = [s for s in new if s.kind == WILD and s.pays and any(s.pays)]
    if wild_payers and len([s for s in new if s.kind == WILD]) > 1:
        raise t.error(("symbols", wild_payers[0].name, "pays"), "unsupported rule: own pays of a WILD in a "
                      "game with several WILD symbols")
    return new, {"evaluation": evaluation, "paylines": paylines, "scatter": scatter}


def _check_pays_length(t: "TomlFile", doc: dict, path: tuple, pays: tuple, reels: int, rows: int) -> None:
    """A ``pays`` list has one entry per reel, or, under an evaluation of a rule module that pays by a
    count of cells (:func:`strips.plugins.register_evaluation`), 1 .. reels x rows entries."""
    ev = plugins.evaluation(str(doc.get("game", {}).get("evaluation", WAYS)))
    if ev and ev["pays_by_cells"]:
        if not 1 <= len(pays) <= reels * rows:
            raise t.error(path + ("pays",), f"has {len(pays)} entries: give 1 to {reels * rows} (one per count of "
                          f"cells, the window has {reels * rows})")
    elif len(pays) != reels:
        raise t.error(path + ("pays",), f"has {len(pays)} entries, the game has {reels} reels")
