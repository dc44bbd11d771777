"""Payline games: the per-reel/per-pair factorisation of exact.lines against the
brute-force oracle (every stop combination and every combination-multiplier value through the
literal evaluator), exactly.

Random small line games: 3-5 reels, 3-4 rows, 1-20 paylines (crossing ones included), a WILD
with and without own pays and with a fixed or drawn combination multiplier, a second WILD that
substitutes for some symbols only, scatter pays, a second paying scatter, a WILD that counts as
a scatter, trigger reels, free spins with a level multiplier and retrigger under a cap.

Set HYPOTHESIS_PROFILE=thorough for hundreds of random sets (opt-in, long).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from exact.engine import analyse, analyse_phase
from exact.evaluator import evaluate, line_pays
from markov.moments import CountSplit
from markov.round import round_result
from oracle import brute_force_lines, make_set
from strips.errors import MathSetError
from generators import game_text, line_games, model_of, ways_games_with_catalogue_rules



def padded(t, n):
    return tuple(t) + (Fraction(0),) * (n - len(t))


def assert_splits_equal(model, an, bf):
    """The split by trigger count (and, with trigger reels, by the count that awards free spins) equals
    the brute force's, exactly."""
    n = max([len(an.by_scatter.prob)] + [k[0] + 1 for k in bf.prob])
    for split, by_trigger in ((an.by_scatter, False), (an.trigger_split, bool(model.trigger_reels))):
        for field in ("prob", "win", "win2"):
            want = [Fraction(0)] * n
            for (c, shown), v in getattr(bf, field).items():
                want[c if shown or not by_trigger else 0] += v
            assert padded(getattr(split, field), n) == tuple(want), field


def assert_lines_phase_equal(ms, phase):
    an = analyse_phase(ms, phase)
    bf = brute_force_lines(ms, phase)
    assert_splits_equal(ms.model, an, bf)
    assert an.mean == sum(bf.win.values()) and an.second == sum(bf.win2.values())
    assert an.variance == sum(bf.win2.values()) - sum(bf.win.values()) ** 2
    assert an.scatter_mean == bf.scatter_mean
    assert an.hit_frequency == bf.hit
    assert list(an.line_means) == bf.line_means
    assert list(an.line_hits) == bf.line_hits
    table = {(s, i + 1): v for s, row in an.ways_by_symbol.items() for i, v in enumerate(row) if v}
    assert table == {k: v for k, v in bf.by_label.items() if v}
    probs = {(s, i + 1): v for s, row in an.oak_prob.items() for i, v in enumerate(row) if v}
    assert probs == bf.line1_label
    assert an.parts["pays"] + an.parts["scatter"] == an.mean
    return an, bf


@given(line_games())
def test_line_game_base_and_free_spin_equal_brute_force(ms):
    assert_lines_phase_equal(ms, ms.model.base_phase)
    assert_lines_phase_equal(ms, ms.model.level_phase(ms.model.levels[0]))


@given(line_games(max_stops=3))
def test_line_game_round_from_engine_equals_round_from_brute_force_splits(ms):
    """The whole round (free spins with level multiplier, retrigger under a cap) from the engine's
    splits equals the round from the brute-force splits."""
    model = ms.model
    ga = analyse(ms)

    def split_of(bf, by_trigger):
        n = max(k[0] for k in bf.prob) + 1
        out = []
        for field in ("prob", "win", "win2"):
            v = [Fraction(0)] * n
            for (c, shown), x in getattr(bf, field).items():
                v[c if shown or not by_trigger else 0] += x
            out.append(tuple(v))
        return CountSplit(*out)

    def phase_of(an, bf):
        trig = split_of(bf, True) if model.trigger_reels else None
        return dataclasses.replace(an, by_scatter=split_of(bf, False), by_trigger=trig)

    bb = brute_force_lines(ms, model.base_phase)
    bl = brute_force_lines(ms, model.level_phase(model.levels[0]))
    try:
        mine = round_result(model, ga.base, ga.levels)
    except ValueError as e:   # E[R] >= 1 is refused the same way for both
        with pytest.raises(ValueError):
            round_result(model, phase_of(ga.base, bb), (phase_of(ga.levels[0], bl),))
        assert "infinite" in str(e) or "cap" in str(e)
        return
    theirs = round_result(model, phase_of(ga.base, bb), (phase_of(ga.levels[0], bl),))
    assert (mine.mean, mine.second, mine.trigger_prob) == (theirs.mean, theirs.second, theirs.trigger_prob)


def test_crossing_lines_and_wild_pays_by_hand():
    """Five reels, lines that cross; WILD pays, a doubled WILD run, a scatter as the line's symbol."""
    lines = [(1, 1, 1, 1, 1), (0, 1, 2, 1, 0), (2, 1, 0, 1, 2)]
    text = game_text(5, 3, lines, wild_pays=[0, 10, 50, 200, 1000],
                     comb='{ values = [2], mode = "combination" }', scatter_pays=[0, 2, 5, 20, 50], free_spins=False)
    m = model_of(text)
    window = [["W", "W", "S"], ["A", "W", "B"], ["W", "A", "B"], ["B", "A", "C"], ["C", "S", "B"]]
    wins = {w.line: w for w in line_pays(m, window, 2)}
    # line 1 reads W W A A S: A run 4 uses a WILD: 20 x 2 = 40 beats the WILD-only 10 for 2
    assert (wins[1].symbol, wins[1].run, wins[1].multiplier, wins[1].pay) == ("A", 4, 2, 40)
    # line 2 reads W W B A C: WILD-only 2 pays 10; B run 3 pays 4 x 2 = 8: the WILD win is higher
    assert (wins[2].symbol, wins[2].run, wins[2].pay) == ("W", 2, 10)
    # line 3 reads S W W A B: the line's symbol is the scatter S: no line win
    assert 3 not in wins
    res = evaluate(m, window, combination=2)
    assert res.scatters == 2 and res.scatter_pay == 2 and res.win == 40 + 10 + 2
    ms = make_set(m, [["W", "A", "S", "B"], ["A", "W", "B"], ["W", "A", "B", "C"], ["B", "A", "C"],
                      ["C", "S", "B", "A"]])
    assert_lines_phase_equal(ms, m.base_phase)


def test_trigger_reels_game_by_hand_round_equals_brute_force():
    """A trigger needs a scatter on reels 1 and 3 as well as 2 in the window; one free spin x3.
    The whole round (base spin and its free spin) enumerated literally."""
    text = game_text(3, 3, [(0, 0, 0), (1, 1, 1), (0, 1, 2)], scatter_pays=[0, 1, 4],
                     trigger_reels=[1, 3], retrigger=False, level_multiplier=3)
    text = text.replace("trigger = { 2 = 2, 3 = 3 }", "trigger = { 2 = 1 }")
    m = model_of(text)
    base = [["A", "S", "B", "C"], ["S", "A", "W"], ["B", "S", "C", "A"]]
    bonus = [["A", "W", "B"], ["S", "B", "A"], ["C", "A", "S"]]
    ms = make_set(m, base, bonus)
    rr = round_result(m, *_analysis(ms))
    mean, second = _round_brute_force(ms, lambda res: 1 if res.trigger_count >= 2 else 0, lambda res: 3)
    assert (rr.mean, rr.second) == (mean, second)
    # the condition matters: the plain count would trigger more often
    pm = dataclasses.replace(m, trigger_reels=frozenset())
    plain = round_result(pm, *_analysis(make_set(pm, base, bonus)))
    assert plain.trigger_probability > rr.trigger_probability > 0


def test_multiplier_by_trigger_game_by_hand_round_equals_brute_force():
    """2 scatters: 1 free spin x2; 3 scatters: 1 free spin x5 (the level multiplier is 1)."""
    text = game_text(3, 3, [(0, 0, 0), (2, 1, 0)], scatter_pays=[0, 1, 4], retrigger=False,
                     level_multiplier=1, multiplier_by_trigger="{ 2 = 2, 3 = 5 }")
    text = text.replace("trigger = { 2 = 2, 3 = 3 }", "trigger = { 2 = 1 }")
    m = model_of(text)
    base = [["A", "S", "B", "C"], ["S", "A", "W"], ["B", "S", "C", "S"]]
    bonus = [["A", "W", "B"], ["S", "B", "A"], ["C", "A", "S"]]
    ms = make_set(m, base, bonus)
    rr = round_result(m, *_analysis(ms))
    mean, second = _round_brute_force(ms, lambda res: 1 if res.scatters >= 2 else 0,
                                      lambda res: 5 if res.scatters >= 3 else 2)
    assert (rr.mean, rr.second) == (mean, second)
    assert rr.features[3].mean == Fraction(5, 2) * rr.features[2].mean


def _analysis(ms):
    ga = analyse(ms)
    return ga.base, ga.levels


def _round_brute_force(ms, spins_of, multiplier_of):
    """E[X], E[X^2] of a round whose base spin awards spins_of(res) free spins (no retrigger), each
    multiplied by multiplier_of(res): every base stop combination x every free-spin stop combination."""
    import itertools
    from math import prod
    model = ms.model
    base, bonus = ms.strips["base"], ms.strips["bonus"]
    bonus_wins = []
    for stops in itertools.product(*(range(n) for n in bonus.lengths)):
        bonus_wins.append(evaluate(model, bonus.window(stops, model.rows)).win)
    nb = prod(bonus.lengths)
    mean = second = Fraction(0)
    total = prod(base.lengths)
    for stops in itertools.product(*(range(n) for n in base.lengths)):
        res = evaluate(model, base.window(stops, model.rows))
        k, mult = spins_of(res), multiplier_of(res)
        assert k <= 1
        if k == 0:
            mean += Fraction(res.win, total)
            second += Fraction(res.win ** 2, total)
        else:
            for f in bonus_wins:
                x = res.win + mult * f
                mean += Fraction(x, total * nb)
                second += Fraction(x * x, total * nb)
    return mean, second


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace('evaluation = "lines"', 'evaluation = "cluster"'), "must be 'ways' or 'lines'"),
    (lambda t: t.replace("paylines = [[1, 1, 1]]", "paylines = [[1, 1]]"), "has 2 rows"),
    (lambda t: t.replace("paylines = [[1, 1, 1]]", "paylines = [[1, 4, 1]]"), "between 1 (top) and 3"),
    (lambda t: t.replace("paylines = [[1, 1, 1]]", "paylines = []"), "at least one payline"),
    (lambda t: t.replace("[lines]\npaylines = [[1, 1, 1]]", ""), "required key is missing"),
    (lambda t: t.replace('evaluation = "lines"', 'evaluation = "ways"'), "a ways game has no paylines"),
    (lambda t: t.replace('class = "wild"', 'class = "wild"\npays = [1, 2]'), "has 2 entries"),
    (lambda t: t.replace('trigger = { 2 = 2, 3 = 3 }', 'trigger = { 2 = 2 }\nscatter = "X"'),
     "'X' is not a scatter symbol"),
    (lambda t: t.replace('trigger = { 2 = 2, 3 = 3 }', 'trigger = { 2 = 2 }\ntrigger_reels = [4]'),
     "reels between 1 and 3"),
    (lambda t: t.replace('trigger = { 2 = 2, 3 = 3 }', 'trigger = { 2 = 2 }\nmultiplier_by_trigger = { 3 = 2 }'),
     "sets no multiplier for a trigger of 2"),
])
def test_loader_refuses_bad_line_rules_with_file_row_column(change, message):
    text = change(game_text(3, 3, [(0, 0, 0)], retrigger=False))
    with pytest.raises(MathSetError) as e:
        model_of(text)
    assert message in str(e.value) and e.value.row >= 1


def test_several_scatters_need_the_triggering_one_named_and_count_apart():
    text = game_text(3, 3, [(0, 0, 0)], scatter_pays=[0, 2, 5], scatter2_pays=[1, 4, 9], retrigger=False)
    with pytest.raises(MathSetError, match="name the one that triggers"):
        model_of(text.replace('scatter = "S"\n', ""))
    m = model_of(text)
    res = evaluate(m, [["S", "T", "A"], ["T", "B", "C"], ["S", "A", "B"]])
    # S twice and T twice: each pays on its own count, and only S counts for the trigger
    assert res.scatters == 2 and dict(res.scatter_counts) == {"S": 2, "T": 2} and res.scatter_pay == 2 + 4


def test_combination_multiplier_rules_refused_in_one_line():
    comb = '{ values = [2, 3], weights.base = [1, 1], mode = "combination" }'
    with pytest.raises(MathSetError, match="missing weight table 'level1'"):
        model_of(game_text(3, 3, [(0, 0, 0)], comb=comb, retrigger=False))
    text = game_text(3, 3, [(0, 0, 0)], comb='{ values = [2], mode = "combination" }', wild2=True, retrigger=False)
    text = text.replace('substitutes = ["A", "B"]', 'substitutes = ["A", "B"]\nmultiplier = { values = [3], mode = "combination" }')
    with pytest.raises(MathSetError, match="several WILDs with combination multipliers"):
        model_of(text)


@settings(max_examples=10)
@given(line_games())
def test_scipy_product_path_equals_brute_force(ms):
    """Large games (many pairs of lines) run the pair chains through scipy's sparse product: forced here."""
    import exact.lines as lines_module
    old = lines_module.SCIPY_ROWS
    lines_module.SCIPY_ROWS = 0
    try:
        assert_lines_phase_equal(ms, ms.model.base_phase)
    finally:
        lines_module.SCIPY_ROWS = old


@given(ways_games_with_catalogue_rules())
def test_ways_game_trigger_reels_and_several_scatters_equal_brute_force(ms):
    model = ms.model
    assert not model.is_lines
    for phase in (model.base_phase, model.level_phase(model.levels[0])):
        an = analyse_phase(ms, phase)
        bf = brute_force_lines(ms, phase)
        assert_splits_equal(model, an, bf)
        assert an.scatter_mean == bf.scatter_mean and an.hit_frequency == bf.hit


def test_diff_names_the_catalogue_rule_changes():
    from exact.diff import model_changes
    lines = [(0, 0, 0), (1, 1, 1)]
    a = model_of(game_text(3, 3, lines, wild_pays=[0, 3, 12], comb='{ values = [2], mode = "combination" }',
                           scatter_pays=[0, 2, 5], retrigger=False))
    b = model_of(game_text(3, 3, [(0, 0, 0), (1, 2, 1)], wild_pays=[0, 3, 15], counts_as_scatter=True,
                           comb='{ values = [3], mode = "combination" }', scatter_pays=[0, 2, 5],
                           trigger_reels=[1, 3], retrigger=False))
    strips = [["A", "B", "W"]] * 3
    changes = model_changes(make_set(a, strips), make_set(b, strips))
    assert changes == ["W pays 3 OAK 12 -> 15", "W multiplier x2 per combination -> x3 per combination",
                       "W counts as scatter no -> yes", "payline 2 2,2,2 -> 2,3,2", "trigger reels none -> 1, 3"]


@given(ways_games_with_catalogue_rules(), st.sampled_from(('{ values = [2], mode = "combination" }',
                                                           '{ values = [2, 5], weights.base = [2, 1], '
                                                           'weights.level1 = [1, 3], mode = "combination" }')))
def test_ways_game_combination_multiplier_equals_brute_force(ms, comb):
    """A way through the combination WILD is multiplied once by the value drawn for the spin."""
    import tomllib
    from strips.game_toml import parse_wild_multiplier
    from strips.toml_reader import TomlFile
    text = f"[W]\nmultiplier = {comb}\n"
    mult = parse_wild_multiplier(TomlFile(text, "x"), tomllib.loads(text)["W"], ("W",))
    model = dataclasses.replace(ms.model, symbols=tuple(dataclasses.replace(s, multiplier=mult) if s.name == "W"
                                                         else s for s in ms.model.symbols))
    ms = make_set(model, ms.strips["base"].reels, ms.strips["bonus"].reels)
    for phase in (model.base_phase, model.level_phase(model.levels[0])):
        an = analyse_phase(ms, phase)
        bf = brute_force_lines(ms, phase)
        assert_splits_equal(model, an, bf)
        assert an.scatter_mean == bf.scatter_mean and an.hit_frequency == bf.hit
        assert an.parts["pays"] == sum(sum(v) for v in an.ways_by_symbol.values()) == an.mean - an.parts["scatter"]
