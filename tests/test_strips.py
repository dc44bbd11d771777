"""The reconstructed rules_page strips: published data, exact derivations, rebuild, tuning objective.

Source: rules page sections 3, 4, 6, 10, 11, 13 and examples 1-9.
"""
from fractions import Fraction
from itertools import product
from math import prod

import numpy as np
import pytest

from exact.engine import analyse
from exact.evaluator import ways_pays
from proofs.reconstruction import derive
from proofs.reconstruction import rules_page
from strips.loader import bundled_path, load_math_set
from proofs.reconstruction.rules_page import BASE, BONUS, EXAMPLES, Rounded, round_half_up, rounds_to
from proofs.reconstruction import reconstruct
from exact.cli import reconstruct as reconstruct_cli
from proofs.reconstruction.reconstruct import aus_run_ok, allocate, game_model, math_set
from proofs.reconstruction.ways import WaysState
from rules_page_examples import EXAMPLES as PRINTED, window_of

BUNDLED = bundled_path("rules_page")
FILES = ("base.csv", "bonus.csv", "game.toml", "PROVENANCE.md")


@pytest.fixture(scope="module")
def model():
    return game_model()


@pytest.fixture(scope="module")
def fresh_build():
    return reconstruct.build()


# ---------------------------------------------------------------- published data
def test_published_examples_match_the_examples_as_printed():
    """proofs.reconstruction.rules_page transcribes the same 9 windows and stops as tests/rules_page_examples.py."""
    assert [e.number for e in EXAMPLES] == sorted(PRINTED)
    for e in EXAMPLES:
        ex = PRINTED[e.number]
        assert e.stops == ex["stops"]
        assert e.window == window_of(ex)
        assert e.strip_set == (BASE if ex["phase"] == "base" else BONUS)


def test_published_positions_overlaps_agree():
    """Examples 4/5 share base reel 1 position 91, examples 8/9 bonus reel 3 position 0."""
    base = rules_page.published_positions(BASE)
    assert base[(0, 91)] == ("AUS3", (4, 5))
    bonus = rules_page.published_positions(BONUS)
    assert bonus[(2, 0)] == ("KEY", (8, 9))
    assert sum(1 for r, _ in bonus if r == 2) == 7  # 8 rows, one shared


def test_published_positions_refuses_contradicting_examples(monkeypatch):
    bad = rules_page.Example(10, BONUS, (0, 0, 97, 0, 0), ("PIC1 PIC1 PIC1 PIC1 PIC1",) * 3
                            + ("PIC1 PIC1 PIC1 PIC1 PIC1",))
    monkeypatch.setattr(rules_page, "EXAMPLES", rules_page.EXAMPLES + (bad,))
    with pytest.raises(ValueError, match="bonus reel 3 position 97: example 8 shows AUS1, example 10 shows PIC1"):
        rules_page.published_positions(BONUS)


def test_printed_figures_parse_exactly():
    assert rules_page.TRIGGER_PROBABILITY[3] == Rounded("0.005558", Fraction(5558, 10**6), 6)
    assert rules_page.TRIGGER_FREQUENCY[4].value == 3815
    assert rules_page.KEY_2PLUS[BASE] == Rounded("0.47%", Fraction(47, 10**4), 4)
    assert round_half_up(Fraction(5, 2), 0) == 3 and round_half_up(Fraction(249, 100), 1) == Fraction(5, 2)
    assert rounds_to(Fraction(4672, 10**6), rules_page.KEY_2PLUS[BASE])
    assert not rounds_to(Fraction(4649, 10**6), rules_page.KEY_2PLUS[BASE])


# ---------------------------------------------------------------- exact derivations
def _brute_count_distribution(reels, symbol, rows):
    """Enumerate every stop combination and count reels whose window shows ``symbol``."""
    counts = [0] * (len(reels) + 1)
    per_reel = [[symbol in [r[(s + i) % len(r)] for i in range(rows)] for s in range(len(r))] for r in reels]
    for combo in product(*per_reel):
        counts[sum(combo)] += 1
    total = prod(len(r) for r in reels)
    return tuple(Fraction(c, total) for c in counts)


def test_count_distribution_equals_enumeration():
    """p_r = rows c_r / length holds on spaced strips: brute force over all stops agrees."""
    x, s = "x", "S"
    reels = [[s, x, x, x, x, x, x, x], [s, x, x, x, s, x, x, x], [x] * 8]
    assert derive.count_distribution((1, 2, 0), rows=4, length=8) == _brute_count_distribution(reels, s, 4)


def test_fs_counts_forced_are_2_2_2_2_3():
    """Hand arithmetic: p = 2/25 (four reels), 3/25 (one); P(5) = 48/25^5,
    P(4) = (4 * 23 * 2^3 * 3 + 22 * 2^4) / 25^5 = 2560 / 25^5."""
    found, searched = derive.fs_count_solutions()
    assert searched == 142506  # C(30, 5) multisets of 0..25
    assert [f.counts for f in found] == [(2, 2, 2, 2, 3)]
    prob = found[0].prob
    assert prob[5] == Fraction(48, 25**5)
    assert prob[4] == Fraction(4 * 23 * 2**3 * 3 + 22 * 2**4, 25**5)
    assert sum(prob) == 1


def test_key_counts_forced():
    base, _ = derive.key_count_solutions(BASE)
    assert base == [((1, 1, 1), Fraction(3 * 24 + 1, 25**3))]  # 3 pairs x (24/25) + all three, over 25^3
    bonus, searched = derive.key_count_solutions(BONUS)
    assert searched == 21
    assert sorted(c for c, _ in bonus) == [(1, 2, 2), (2, 1, 2), (2, 2, 1)]


def test_most_likely_prefers_fewer_copies_where_none_is_seen():
    assert derive.most_likely([(1, 2, 2), (2, 1, 2), (2, 2, 1)], (1, 0, 1), (8, 8, 7)) == (2, 1, 2)
    with pytest.raises(ValueError):
        derive.most_likely([(0, 1)], (1, 0), (5, 5))


def test_allocate_respects_bounds_and_total():
    assert allocate(10, [Fraction(1), Fraction(11, 2), Fraction(7, 2)], [2, 1, 1]) == [2, 5, 3]
    with pytest.raises(ValueError):
        allocate(2, [Fraction(1)] * 3, [1, 1, 1])


def test_aus_run_ok():
    aus = frozenset({"A"})
    strip = ["A", "A", None, "A", "P", "P"]
    assert not aus_run_ok(strip, 2, "A", aus)     # would make A A A A
    assert aus_run_ok(strip, 2, "P", aus)
    assert aus_run_ok(["A", "A", None, "P", "P", "P"], 2, "A", aus)
    assert not aus_run_ok(["A", None, "P", "P", "A", "A"], 1, "A", aus)  # cyclic: A A A + A at 0


# ---------------------------------------------------------------- the bundled set
def test_bundled_counts_follow_the_derivation():
    ms = load_math_set("rules_page")
    base, bonus = ms.strips[BASE].reels, ms.strips[BONUS].reels
    assert tuple(r.count("FS") for r in base) == (2, 2, 3, 2, 2)
    assert tuple(r.count("KEY") for r in base) == (1, 1, 1, 0, 0)
    assert tuple(r.count("KEY") for r in bonus) == (2, 1, 2, 0, 0)
    assert ms.findings == ()


def test_committed_files_equal_a_fresh_rebuild(fresh_build, tmp_path):
    reconstruct.write(fresh_build, tmp_path)
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (BUNDLED / name).read_bytes(), name


def test_rebuild_rtp_within_tolerance(fresh_build):
    assert abs(fresh_build.rtp - Fraction(96, 100)) <= Fraction(5, 100000)


def test_cli_refuses_non_empty_out(tmp_path, capsys):
    (tmp_path / "keep.txt").write_text("x")
    assert reconstruct_cli.main(["--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "non-empty" in err[0]
    assert (tmp_path / "keep.txt").read_text() == "x" and len(list(tmp_path.iterdir())) == 1


@pytest.mark.parametrize("where", ["rules_page", "external/dolphins_pearl", "", "rules_page/new"])
def test_cli_never_writes_into_the_installed_bundled_sets_whatever_force_says(capsys, where):
    import strips
    from pathlib import Path
    root = Path(strips.__file__).parent
    out = root / where
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert reconstruct_cli.main(["--out", str(out), "--force"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "refusing to write into the installed package's bundled math sets" in err[0], err
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert after == before and not (root / "rules_page" / "new").exists()


def test_cli_rejects_bad_target(tmp_path, capsys):
    assert reconstruct_cli.main(["--out", str(tmp_path / "new"), "--target-rtp", "abc"]) == 2
    assert "--target-rtp" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()


# ---------------------------------------------------------------- ways closed form
def _brute_ways_mean(model, strips):
    rows = model.rows
    windows = [[tuple(r[(s + i) % len(r)] for i in range(rows)) for s in range(len(r))] for r in strips]
    total = sum(sum(w.pay for w in ways_pays(model, combo)) for combo in product(*windows))
    return Fraction(total, prod(len(r) for r in strips))


def test_ways_closed_form_equals_enumeration(model):
    """Random short strips with WILD and blockers anywhere: closed form == the evaluator over all stops."""
    rng = np.random.default_rng(7)
    names = ["PIC1", "PIC3", "AUS1", "AUS4", "WILD", "FISH1", "KEY"]
    strips = [[names[i] for i in rng.integers(len(names), size=5)] for _ in range(5)]
    strips[0] = [n if n != "WILD" else "PIC1" for n in strips[0]]
    assert WaysState(model, strips).mean == _brute_ways_mean(model, strips)


def test_ways_update_equals_fresh_state(model):
    ms = load_math_set("rules_page")
    strips = [list(r) for r in ms.strips[BASE].reels]
    st = WaysState(model, strips)
    assert st.mean == analyse(ms).base.parts["pays"]
    p = next(i for i, n in enumerate(strips[2]) if n == "AUS2")
    st.set(2, p, "PIC1")
    strips[2][p] = "PIC1"
    assert st.mean == WaysState(model, strips).mean
    with pytest.raises(ValueError):
        st.set(2, strips[2].index("FS"), "PIC1")


def test_tuning_objective_predicts_exact_rtp_after_pay_edits(model):
    """RTP = (A + base ways + C bonus ways) / bet stays exact after pay-symbol edits (engine + chain)."""
    from proofs.reconstruction.rtp_fit import exact_rtp, linear_form
    ms = load_math_set("rules_page")
    strips = {s: [list(r) for r in ms.strips[s].reels] for s in (BASE, BONUS)}
    a, c, _ = linear_form(model, strips)
    strips[BASE][0][strips[BASE][0].index("PIC4")] = "PIC1"
    strips[BONUS][4][strips[BONUS][4].index("AUS3")] = "PIC2"
    predicted = (a + WaysState(model, strips[BASE]).mean + c * WaysState(model, strips[BONUS]).mean) / model.bet
    assert predicted == exact_rtp(model, strips)


def test_math_set_of_in_memory_strips_validates(model):
    bad = [["PIC1"] * 100 for _ in range(5)]
    bad[0][0] = "WILD"  # WILD is not allowed on reel 1
    from strips.errors import MathSetError
    with pytest.raises(MathSetError, match="WILD is not allowed"):
        math_set(model, {BASE: bad, BONUS: [["PIC1"] * 100 for _ in range(5)]})
