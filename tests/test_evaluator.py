"""The rules-page evaluator reproduces every worked example (sections 6, 8, 10, 11)."""
import pytest

from exact.evaluator import evaluate, ways_pays
from rules_page_examples import EXAMPLES, window_of



@pytest.fixture(scope="module")
def model():
    from strips.loader import bundled_path, parse_game
    p = bundled_path("rules_page") / "game.toml"
    return parse_game(p.read_bytes(), str(p))


@pytest.mark.parametrize("number", sorted(EXAMPLES))
def test_example_window(model, number):
    ex = EXAMPLES[number]
    mult = ex.get("multiplier", 1)
    res = evaluate(model, window_of(ex), ex["fish"], mult)
    if ex["ways"] is not None:
        assert {w.symbol: (w.oak, w.ways, w.pay) for w in res.ways} == ex["ways"]
        assert res.ways_pays == ex["ways_pays"]
    assert res.collect == ex["collect"]
    assert res.scatters == ex["fs"]
    assert res.keys == ex["keys"]
    if "fish_sum" in ex:
        assert res.fish_sum == ex["fish_sum"]
    if "win" in ex:
        assert res.win == ex["win"]


def test_example4_combination_too_short(model):
    """PIC3 stops after reel 2 (2 OAK pays 0); the PIC3 on reel 4 is not part of it."""
    wins = ways_pays(model, window_of(EXAMPLES[4]))
    assert wins == ()


def test_example6_fish_without_key_pays_nothing(model):
    res = evaluate(model, window_of(EXAMPLES[6]), (1, 10, 1))
    assert res.fish_sum == 12 and res.keys == 0 and res.win == 0


def test_key_without_fish_collects_zero(model):
    w = [["KEY", "PIC1", "PIC2", "PIC3"]] + [["AUS1", "AUS2", "AUS3", "AUS4"]] * 4
    res = evaluate(model, w)
    assert res.keys == 1 and res.collect == 0


def test_hook_is_an_alias_of_key(model):
    w = [["HOOK", "PIC1", "PIC2", "FISH1"]] + [["AUS1", "AUS2", "AUS3", "AUS4"]] * 4
    res = evaluate(model, w, (5,))
    assert res.keys == 1 and res.collect == 5
    assert res.window[0][0] == "KEY"


def test_wild_counts_for_every_pay_symbol_and_blockers_break(model):
    # reel 1 has PIC1 and AUS1; reels 2-5 all WILD except a blocker column on reel 3
    w = [["PIC1", "AUS1", "PIC2", "PIC2"], ["WILD"] * 4, ["FS", "FISH1", "KEY", "FISH2"],
         ["WILD"] * 4, ["WILD"] * 4]
    res = evaluate(model, w, (1, 10))
    # all combinations end after reel 2: 2 OAK pays 0
    assert res.ways == ()
    assert res.collect == 11 and res.scatters == 1 and res.keys == 1


def test_several_wilds_and_specials_on_one_reel(model):
    w = [["PIC1", "PIC1", "KEY", "KEY"], ["WILD", "PIC1", "WILD", "FISH2"], ["PIC1"] * 4,
         ["FS", "FS", "AUS1", "AUS1"], ["PIC1"] * 4]
    res = evaluate(model, w, (25,), multiplier=10)
    assert {x.symbol: (x.oak, x.ways, x.pay) for x in res.ways} == {"PIC1": (3, 2 * 3 * 4, 5 * 24)}
    assert res.keys == 2 and res.collect == 50 and res.scatters == 2
    assert res.win == 10 * (120 + 50)


def test_raises_wrong_fish_count(model):
    with pytest.raises(ValueError, match="fish values"):
        evaluate(model, window_of(EXAMPLES[5]), (5, 1))


def test_raises_impossible_fish_value(model):
    with pytest.raises(ValueError, match="cannot show"):
        evaluate(model, window_of(EXAMPLES[5]), (5, 1, 4))


def test_raises_wrong_window_shape(model):
    with pytest.raises(ValueError, match="window must be"):
        evaluate(model, window_of(EXAMPLES[5])[:4])
