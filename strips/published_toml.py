"""The ``published.toml`` parser: what the game's rules page or PAR sheet prints.

:func:`parse_published` reads the facts, windows, strip rules, placements,
totals and assumptions into :class:`strips.published.Published`, checking
each against the game and its strips; errors name file, row and column.
"""
from __future__ import annotations

import hashlib
import re

from strips import published as pub
from strips.model import GameModel, ReelStrips
from strips.toml_reader import TomlFile, check_document, decode_text, parse_toml, refuse_unknown


#: The tables of published.toml and the keys of each entry (any other is refused).
PUBLISHED_KEYS = {
    "facts": ("figure", "printed", "source", "label", "per_bet"),
    "windows": ("strip_set", "stops", "window", "source"),
    "strip_rules": ("strip_set", "reels", "length", "lengths", "min_pay_between_specials", "max_run", "source"),
    "placements": ("strip_set", "symbol", "reels", "source"),
    "totals": ("strip_set", "symbols", "class", "count", "source"),
    "assumptions": ("figure", "target", "tolerance", "source"),
}
RULES_KEYS = ("source", "sources", "bet", "pays", "substitutes", "values", "probabilities", "trigger_spins",
              "levels", "retrigger")
_FIGURE = re.compile(r"^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$")


def parse_published(data: bytes, file: str, model: GameModel, strips: dict[str, ReelStrips]) -> pub.Published:
    """Parse and validate a ``published.toml`` against the set's game and strips.

    Parameters
    ----------
    data : bytes
        File content.
    file : str
        Path used in messages.
    model : GameModel
    strips : mapping str -> ReelStrips
        The set's strips (a window's stops must lie on them).

    Returns
    -------
    strips.published.Published

    Raises
    ------
    MathSetError
        Naming file, row and column: malformed TOML; an unknown table or key;
        a missing or mistyped key; a printed figure that is not a decimal, a
        per cent or ``1 in N``; a figure key that is not dotted words; a strip
        set, symbol or symbol class the game does not have; a window whose
        stops or rows do not name one entry per reel; a reel out of range; a
        negative count.  (A stop past the end of a reel, or a window of
        another height than the game's, is a FAIL of that fact: data of the
        strips and game, checked by ``rtp check``.)  (A figure the report does not have is found when the
        facts are checked: ``exact.facts``.)

    Examples
    --------
    >>> from strips.loader import load_math_set
    >>> ms = load_math_set("rules_page")
    >>> ms.published.facts[0].figure, ms.published.facts[0].printed.text
    ('trigger.3', '0.005558')
    """
    text = decode_text(data, file)
    doc = parse_toml(text, file)
    t = TomlFile(text, file)
    check_document(t, doc)
    refuse_unknown(t, doc, (), tuple(PUBLISHED_KEYS) + ("rules",), "table")

    def entries(table: str):
        rows = doc.get(table, [])
        if not isinstance(rows, list) or not all(isinstance(e, dict) for e in rows):
            raise t.error((table,), f"must be an array of tables: [[{table}]]")
        for i, e in enumerate(rows):
            path = (table, i)
            refuse_unknown(t, e, path, PUBLISHED_KEYS[table], "key")
            yield path, e

    def text_key(e, path, key, default=...):
        v = t.get(e, path, key, str, default)
        if v is not default and isinstance(v, str) and not v.strip():
            raise t.error(path + (key,), "must not be empty")
        return v

    def printed(e, path, key) -> pub.Printed:
        value = t.get(e, path, key, str)   # its own error, once
        try:
            return pub.Printed.parse(value)
        except ValueError as err:
            raise t.error(path + (key,), str(err)) from None

    def located(path, key) -> pub.Located:
        row, col = t.locate(path + (key,))
        return pub.Located(file, row, col)

    def strip_set(e, path) -> str:
        name = t.get(e, path, "strip_set", str)
        if name not in strips:
            raise t.error(path + ("strip_set",), f"the game has no strip set {name!r} "
                          f"(it has {', '.join(strips)})")
        return name

    def symbol(name, where) -> str:
        if not isinstance(name, str):
            raise t.error(where, f"must be a symbol name, got {name!r}")
        try:
            return model.symbol(name).name
        except (KeyError, ValueError):
            raise t.error(where, f"unknown symbol {name!r} (known: {', '.join(model.names)})") from None

    def reel_list(e, path, key) -> tuple[int, ...]:
        reels = t.get(e, path, key, "ints")
        if any(r < 1 or r > model.reels for r in reels):
            raise t.error(path + (key,), f"reels are 1 to {model.reels}, got {reels!r}")
        return tuple(reels)

    def count(e, path, key, least=0, default=...):
        v = t.get(e, path, key, int, default)
        if v is not None and v is not default and v < least:
            raise t.error(path + (key,), f"must be {least} or more, got {v}")
        return v

    facts = []
    for path, e in entries("facts"):
        figure = t.get(e, path, "figure", str)
        if not _FIGURE.match(figure):
            raise t.error(path + ("figure",), f"figure {figure!r} is not a report figure key "
                          "(dotted words, e.g. rtp, trigger.3, key_2plus.base)")
        facts.append(pub.Fact(figure=figure, printed=printed(e, path, "printed"),
                              source=text_key(e, path, "source", ""), label=text_key(e, path, "label", ""),
                              per_bet=t.get(e, path, "per_bet", bool, False), at=located(path, "figure")))

    windows = []
    for path, e in entries("windows"):
        name = strip_set(e, path)
        stops = tuple(t.get(e, path, "stops", "ints"))
        if len(stops) != model.reels or any(x < 0 for x in stops):
            raise t.error(path + ("stops",), f"must be {model.reels} stop positions >= 0, one per reel, "
                          f"got {list(stops)!r}")
        rows = t.get(e, path, "window", list)
        if not rows:
            raise t.error(path + ("window",), "must list the window's rows, top row first")
        for row in rows:
            cells = row.split() if isinstance(row, str) else None
            if cells is None or len(cells) != model.reels:
                raise t.error(path + ("window",), f"row {row!r} must name {model.reels} symbols "
                              "separated by spaces")
            for c in cells:
                symbol(c, path + ("window",))
        windows.append(pub.Window(name, stops, tuple(" ".join(symbol(c, ()) for c in r.split()) for r in rows),
                                  text_key(e, path, "source", "")))

    shapes = []
    for path, e in entries("strip_rules"):
        run = t.get(e, path, "max_run", dict, {})
        refuse_unknown(t, run, path + ("max_run",), ("symbols", "length"), "key")
        run_symbols = tuple(symbol(x, path + ("max_run", "symbols")) for x in
                            t.get(run, path + ("max_run",), "symbols", list, []))
        lengths = t.get(e, path, "lengths", "ints", None)
        if lengths is not None and ("length" in e or any(n < 1 for n in lengths)):
            raise t.error(path + ("lengths",), "must be stop counts >= 1, one per reel, and not given with length")
        shapes.append(pub.StripShape(
            strip_set(e, path), reels=count(e, path, "reels", 1, None), length=count(e, path, "length", 1, None),
            lengths=None if lengths is None else tuple(lengths),
            min_pay_between_specials=count(e, path, "min_pay_between_specials", 0, None),
            max_run_symbols=run_symbols, max_run_length=count(run, path + ("max_run",), "length", 1, None),
            source=text_key(e, path, "source", "")))

    placements = []
    for path, e in entries("placements"):
        placements.append(pub.Placement(strip_set(e, path), symbol(t.get(e, path, "symbol", str), path + ("symbol",)),
                                        reel_list(e, path, "reels"), text_key(e, path, "source", "")))

    totals = []
    for path, e in entries("totals"):
        name = strip_set(e, path)
        if ("symbols" in e) == ("class" in e):
            raise t.error(path, "give the symbols counted: either symbols = [...] or class = \"...\" (not both)")
        if "class" in e:
            kind = t.get(e, path, "class", str)
            members = tuple(s.name for s in model.of_kind(kind))
            if not members:
                raise t.error(path + ("class",), f"the game has no symbol of class {kind!r}")
            label = kind.upper()
        else:
            members = tuple(symbol(x, path + ("symbols",)) for x in t.get(e, path, "symbols", list))
            if not members:
                raise t.error(path + ("symbols",), "must name at least one symbol")
            label = "/".join(members)
        totals.append(pub.Total(name, members, count(e, path, "count"), label, text_key(e, path, "source", "")))

    assumptions = []
    for path, e in entries("assumptions"):
        figure = t.get(e, path, "figure", str)
        if not _FIGURE.match(figure):
            raise t.error(path + ("figure",), f"figure {figure!r} is not a report figure key")
        target, tol = printed(e, path, "target"), printed(e, path, "tolerance")
        if tol.kind != target.kind or tol.kind == pub.ONE_IN:
            raise t.error(path + ("tolerance",), "must be printed like the target (both per cent or both decimal)")
        assumptions.append(pub.Assumption(figure, target, tol, text_key(e, path, "source", ""),
                                          at=located(path, "figure")))

    rules = _published_rules(t, doc.get("rules", {}), model, symbol)
    return pub.Published(file=file, facts=tuple(facts), windows=tuple(windows), strip_rules=tuple(shapes),
                         placements=tuple(placements), totals=tuple(totals), rules=rules,
                         assumptions=tuple(assumptions), sha256=hashlib.sha256(data).hexdigest())


def _published_rules(t: "TomlFile", rules, model: GameModel, symbol) -> pub.RulesText:
    """The ``[rules]`` table of published.toml (see :class:`strips.published.RulesText`)."""
    path = ("rules",)
    if not isinstance(rules, dict):
        raise t.error(path, "must be a table")
    refuse_unknown(t, rules, path, RULES_KEYS, "key")
    sources = t.get(rules, path, "sources", dict, {})
    refuse_unknown(t, sources, path + ("sources",), RULES_KEYS[2:], "key")
    for k in sources:
        t.get(sources, path + ("sources",), k, str)

    def table(key, kind):
        tab = t.get(rules, path, key, dict, {})
        return tuple((symbol(k, path + (key, k)), tuple(t.get(tab, path + (key,), k, kind))) for k in tab)

    pays = table("pays", "ints")
    for name, p in pays:
        if len(p) != model.reels or any(x < 0 for x in p):
            raise t.error(path + ("pays", name), f"must be {model.reels} pays >= 0, one per OAK 1..{model.reels}")
    substitutes = tuple((w, tuple(symbol(x, path + ("substitutes", w)) for x in xs))
                        for w, xs in table("substitutes", list))
    values = table("values", "ints")
    probs = []
    ptab = t.get(rules, path, "probabilities", dict, {})
    for name in ptab:
        where = path + ("probabilities", name)
        per_table = t.get(ptab, path + ("probabilities",), name, dict)
        rows = []
        for tn in per_table:
            texts = t.get(per_table, where, tn, list)
            parsed = []
            for x in texts:
                try:
                    parsed.append(pub.Printed.parse(x))
                except ValueError as err:
                    raise t.error(where + (tn,), str(err)) from None
            rows.append((tn, tuple(parsed)))
        probs.append((symbol(name, where), tuple(rows)))
    trigger = None
    if "trigger_spins" in rules:
        tab = t.get(rules, path, "trigger_spins", dict)
        pairs = []
        for k in tab:
            if not k.isdigit():
                raise t.error(path + ("trigger_spins", k), "keys must be scatter counts")
            pairs.append((int(k), t.get(tab, path + ("trigger_spins",), k, int)))
        trigger = tuple(sorted(pairs))
    levels = None
    if "levels" in rules:
        raw = t.get(rules, path, "levels", list)
        levels = []
        for i, lv in enumerate(raw):
            where = path + ("levels",)
            if not isinstance(lv, dict):
                raise t.error(where, f"level {i + 1} must be a table {{ threshold, spins, multiplier }}")
            refuse_unknown(t, lv, where, ("threshold", "spins", "multiplier"), "key")
            levels.append(pub.Level(t.get(lv, where, "threshold", int), t.get(lv, where, "spins", int, None),
                                    t.get(lv, where, "multiplier", int)))
        levels = tuple(levels)
    return pub.RulesText(source=t.get(rules, path, "source", str, ""), bet=t.get(rules, path, "bet", int, None),
                         pays=pays, substitutes=substitutes, values=values, probabilities=tuple(probs),
                         trigger_spins=trigger, levels=levels, retrigger=t.get(rules, path, "retrigger", bool, None),
                         sources=tuple(sources.items()))
