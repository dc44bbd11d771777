"""Small payline games with the catalogue's line rules (both-way and centre pays, per-WILD multipliers,
symbol groups, blank stops, expanding WILDs), for the brute-force tests of tests/test_line_rules.py.

The game text is tests/generators.py's line game with the rules' keys added (the loader is part of
what is tested); the strips are drawn so that every rule meets every other on a few stops.
"""
from __future__ import annotations

from hypothesis import strategies as st

from generators import game_text, model_of
from oracle import make_set

#: The WILD multiplier keys drawn for W (and, for a per-WILD one, the matching one of V).
MULTIPLIERS = (None, '{ values = [2], mode = "combination" }', '{ per_wild = 2, combine = "product" }',
               '{ per_wild = 3, combine = "sum" }', '{ per_wild = 2, combine = "max" }')


def rule_text(text: str, *, direction=None, both_pay=None, v_multiplier=None, group=None, blank=False,
              expands=(), reels=3, fill=None, skip=False, phases=()) -> str:
    """``text`` (a :func:`generators.game_text` game) with the catalogue line rules' keys added."""
    if direction:
        extra = f'direction = "{direction}"' + (f'\nboth_pay = "{both_pay}"' if both_pay else "")
        text = text.replace("[strips]", extra + "\n\n[strips]", 1)
    if v_multiplier:
        text = text.replace('substitutes = ["A", "B"]', f'substitutes = ["A", "B"]\nmultiplier = {v_multiplier}')
    for i, w in enumerate(expands):
        head = f"[symbols.{w}]\nclass = \"wild\""
        key = "true" if not phases else "{ phases = " + str(list(phases[i])).replace("'", '"') + " }"
        text = text.replace(head, head + "\nexpands = " + key, 1)
    if group:
        text += f'\n[groups.AB]\nmembers = ["A", "B"]\npays = {group[:reels]}\n'
    if skip:
        text = text.replace("[[free_spins.levels]]\nmultiplier = ", "[[free_spins.levels]]\nskip_wild_line = true\nmultiplier = ")
    if fill:
        text += f'\n[[screen.fill]]\nsymbols = {fill[0]!r}\npays = "x{fill[1]}"\n'.replace("'", '"')
    if blank:
        every = list(range(1, reels + 1))
        text += f'\n[symbols.X]\nclass = "blank"\nreels = {{ base = {every}, bonus = {every} }}\n'
    return text


@st.composite
def catalogue_line_games(draw, max_stops=None):
    """A line game of 3 or 5 reels with a random choice of the catalogue's line rules."""
    reels = draw(st.sampled_from((3, 5)))
    rows = draw(st.integers(2, 3))
    n_lines = draw(st.integers(1, 6))
    lines = list(dict.fromkeys(tuple(draw(st.integers(0, rows - 1)) for _ in range(reels)) for _ in range(n_lines)))
    direction = draw(st.sampled_from((None, "both", "both-sum", "centre")))
    mult = draw(st.sampled_from(MULTIPLIERS))
    wild_pays = draw(st.sampled_from((None, [0, 3, 12, 40, 100])))
    wild2 = wild_pays is None and draw(st.booleans())
    v_mult = mult.replace("2", "3", 1) if (wild2 and mult and "per_wild" in mult and draw(st.booleans())) else None
    group = draw(st.sampled_from((None, [0, 1, 3, 6, 9], [1, 2, 7, 11, 13])))
    blank = draw(st.booleans())
    expands = [w for w in ("W", "V") if (w == "W" or wild2) and draw(st.booleans())]
    phases = [draw(st.sampled_from((("base", "free_spins"), ("free_spins",), ("base",)))) for _ in expands]
    scatter_pays = draw(st.sampled_from((None, [0, 2, 7, 30, 100])))
    fill = draw(st.sampled_from((None, (["A"], 2), (["A", "C"], 3))))
    skip = wild_pays is not None and draw(st.booleans())
    text = game_text(reels, rows, lines, wild_pays=wild_pays, comb=mult, wild2=wild2, scatter_pays=scatter_pays,
                     level_multiplier=draw(st.integers(1, 3)))
    text = rule_text(text, direction="both" if direction == "both-sum" else direction,
                     both_pay="sum" if direction == "both-sum" else None, v_multiplier=v_mult, group=group,
                     blank=blank, expands=expands, reels=reels, fill=fill, skip=skip, phases=phases)
    model = model_of(text)
    names = [s.name for s in model.symbols]
    max_stops = max_stops or {3: 4, 5: 3}[reels]
    pool = names + ["A", "B", "C", "W"]

    def strip():
        n = draw(st.integers(rows, max(rows, max_stops)))
        return draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))

    return make_set(model, [strip() for _ in range(reels)], [strip() for _ in range(reels)])


def expanding_text(reels: int, rows: int, lines, *, wild_scatter: bool, first_line_pays: bool,
                   draw=(("A", 1), ("B", 2), ("C", 1)), level_multiplier: int = 1, cap=None) -> str:
    """A line game with the expanding symbol of the free spins (``[free_spins] expanding_symbol``) and,
    with ``wild_scatter``, the WILD W as the game's only scatter (``counts_as_scatter``, ``scatter_pays``,
    ``[free_spins] scatter = "W"``); else a scatter S triggers."""
    every = list(range(1, reels + 1))
    out = [f'[game]\nreels = {reels}\nrows = {rows}\nbet = {len(lines)}\nevaluation = "lines"',
           f"[lines]\npaylines = {[[r + 1 for r in line] for line in lines]}",
           '[strips]\nbase = "base.csv"\nbonus = "bonus.csv"']
    for s, pays in (("A", [0, 5, 10, 20, 50]), ("B", [0, 0, 4, 8, 30]), ("C", [1, 2, 3, 4, 5])):
        out.append(f'[symbols.{s}]\nclass = "pay"\npays = {pays[:reels]}')
    w = f'[symbols.W]\nclass = "wild"\nreels = {{ base = {every}, bonus = {every} }}'
    if wild_scatter:
        w += "\ncounts_as_scatter = true\nscatter_pays = [0, 2, 7]"
    else:
        out.append(f'[symbols.S]\nclass = "scatter"\nreels = {{ base = {every}, bonus = {every} }}\npays = [0, 2, 7]')
    out.insert(3, w)
    fs = '[free_spins]\nstrips = "bonus"\ntrigger = { 2 = 2, 3 = 3 }\nretrigger = { 2 = 1 }'
    fs += f"\nretrigger_cap = {cap}" if cap else ""
    fs += '\nscatter = "W"' if wild_scatter else ""
    fs += ("\nexpanding_symbol = { draw = { " + ", ".join(f"{n} = {v}" for n, v in draw) + " }, first_line_pays = "
           + ("true" if first_line_pays else "false") + " }")
    out.append(fs)
    out.append(f"[[free_spins.levels]]\nmultiplier = {level_multiplier}")
    return "\n\n".join(out) + "\n"


@st.composite
def expanding_symbol_games(draw):
    """A small line game with the expanding symbol of the free spins (3 or 5 reels, a few stops), the WILD
    being the only scatter or not."""
    reels = draw(st.sampled_from((3, 5)))
    rows = draw(st.integers(2, 3))
    lines = list(dict.fromkeys(tuple(draw(st.integers(0, rows - 1)) for _ in range(reels))
                               for _ in range(draw(st.integers(1, 5)))))
    wild_scatter = draw(st.booleans())
    model = model_of(expanding_text(reels, rows, lines, wild_scatter=wild_scatter, first_line_pays=draw(st.booleans()),
                                    level_multiplier=draw(st.integers(1, 2)), cap=draw(st.sampled_from((3, 5)))))
    pool = [s.name for s in model.symbols] + ["A", "B", "C"]
    max_stops = {3: 4, 5: 3}[reels]

    def strip():
        n = draw(st.integers(rows, max(rows, max_stops)))
        return draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))

    return make_set(model, [strip() for _ in range(reels)], [strip() for _ in range(reels)])


def awards_text(reels: int, rows: int, lines, *, comb: bool, level_multiplier: int = 2, cap=None) -> str:
    """A line game whose free spins are awarded by line wins (``[symbols.X] awards_spins``): A awards in both
    phases, B in the free spins only; a WILD W with a combination multiplier x2 when ``comb``."""
    every = list(range(1, reels + 1))
    out = [f'[game]\nreels = {reels}\nrows = {rows}\nbet = {len(lines)}\nevaluation = "lines"',
           f"[lines]\npaylines = {[[r + 1 for r in line] for line in lines]}",
           '[strips]\nbase = "base.csv"\nbonus = "bonus.csv"',
           f'[symbols.W]\nclass = "wild"\nreels = {{ base = {every}, bonus = {every} }}'
           + ('\nmultiplier = { values = [2], mode = "combination" }' if comb else ""),
           f'[symbols.A]\nclass = "pay"\npays = {[0, 5, 10, 20, 50][:reels]}\n'
           "awards_spins = { base = { 2 = 1, 3 = 2 }, free_spins = { 3 = 1 } }",
           f'[symbols.B]\nclass = "pay"\npays = {[0, 0, 4, 8, 30][:reels]}\nawards_spins = {{ free_spins = {{ 3 = 2 }} }}',
           f'[symbols.C]\nclass = "pay"\npays = {[1, 2, 3, 4, 5][:reels]}',
           '[free_spins]\nstrips = "bonus"' + (f"\nretrigger_cap = {cap}" if cap else ""),
           f"[[free_spins.levels]]\nmultiplier = {level_multiplier}"]
    return "\n\n".join(out) + "\n"


@st.composite
def awards_games(draw):
    """A small line game whose free spins are awarded by line wins (3 reels, a few stops)."""
    rows = draw(st.integers(1, 3))
    lines = list(dict.fromkeys(tuple(draw(st.integers(0, rows - 1)) for _ in range(3))
                               for _ in range(draw(st.integers(1, 4)))))
    model = model_of(awards_text(3, rows, lines, comb=draw(st.booleans()), level_multiplier=draw(st.integers(1, 2)),
                                 cap=draw(st.sampled_from((None, 4)))))
    pool = ["A", "B", "C", "W", "C"]

    def strip():
        n = draw(st.integers(max(rows, 2), 4))
        return draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))

    return make_set(model, [strip() for _ in range(3)], [strip() for _ in range(3)])


def fill_text(text: str, fills, jackpots=None) -> str:
    """``text`` with ``[[screen.fill]]`` entries ``fills`` ((symbol names, pays text)); a ``"jackpot NAME"``
    pays is paid instead of the line wins; ``jackpots``: the ``[jackpots]`` credits by name, or None."""
    for names, pays in fills:
        text += f'\n[[screen.fill]]\nsymbols = {list(names)!r}\npays = "{pays}"\n'.replace("'", '"')
        if pays.startswith("jackpot "):
            text += "instead = true\n"
    if jackpots:
        text += "\n[jackpots]\n" + "".join(f"{k} = {v}\n" for k, v in jackpots.items())
    return text


@st.composite
def jackpot_fill_games(draw):
    """A 3-reel, 2-row line game whose screen fills pay a jackpot instead of the line wins (valued or not;
    one or two entries, or a jackpot entry with an x2 entry), WILDs substituting, every reel able to
    fill the window with A and with C (two stops of each in a row)."""
    lines = list(dict.fromkeys(tuple(draw(st.integers(0, 1)) for _ in range(3)) for _ in range(draw(st.integers(1, 3)))))
    second = draw(st.sampled_from((None, "x2", "jackpot MAJOR")))
    fills = [(["A"], "jackpot MINI")] + ([(["C"], second)] if second else [])
    jackpots = draw(st.sampled_from((None, {"MINI": 40}, {"MINI": 40, "MAJOR": 500})))
    text = fill_text(game_text(3, 2, lines, scatter_pays=draw(st.sampled_from((None, [0, 2, 7]))),
                               level_multiplier=draw(st.integers(1, 2))), fills, jackpots)
    model = model_of(text)
    pool = [s.name for s in model.symbols] + ["A", "C", "W"]

    def strip():
        extra = draw(st.lists(st.sampled_from(pool), min_size=0, max_size=2))
        return ["A", "A", "C", "C"] + extra

    return make_set(model, [strip() for _ in range(3)], [strip() for _ in range(3)])
