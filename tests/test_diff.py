"""``rtp diff``: change list, exact deltas against two full computations, published facts, exit codes."""
from __future__ import annotations

import json
import shutil
from fractions import Fraction

import pytest

from exact.cli import main
from exact.diff import diff_sets, model_changes, sheet_figures, strip_changes
from strips.errors import MathSetError
from exact.facts import check_facts, checked_sheet
from exact.par import par_sheet
from exact.sensitivity import StripEdit, sensitivity
from strips.loader import bundled_path, load_math_set
from generators import full_rtp, write_edited, write_random_set, write_strips
from mathset_files import plain_wheel_game


def run(capsys, *argv):
    code = main(["diff", *argv])
    return code, capsys.readouterr()


def test_diff_of_a_set_with_itself_shows_no_change(tmp_path, capsys):
    d = write_random_set(tmp_path / "a", 1)
    code, out = run(capsys, str(d), str(d), "--json")
    assert code == 0
    j = json.loads(out.out)
    assert j["same_math"] and j["changes"] == [] and j["published"]["broken"] == []
    assert j["figures"] and all(not f["changed"] and f["delta"] in ("0", 0.0) for f in j["figures"])
    code, out = run(capsys, str(d), str(d))
    assert code == 0 and "CHANGES (0)" in out.out and "same math" in out.out


def test_one_position_edit_shows_that_edit_and_the_exact_rtp_delta(tmp_path, capsys):
    a = write_random_set(tmp_path / "a", 2, lengths=(9, 10, 11, 12, 9))
    ms = load_math_set(str(a))
    for strip_set, reel, pos in (("base", 2, 4), ("bonus", 0, 7)):
        old = ms.strips[strip_set].reels[reel][pos]
        new = next(s.name for s in ms.model.symbols if s.allowed_on(strip_set, reel) and s.name not in (old, "PIC1")
                   and s.is_special) if old.startswith(("PIC", "AUS")) else "PIC1"
        edit = StripEdit(strip_set, reel, pos, old, new)
        b = write_edited(ms, tmp_path / f"b_{strip_set}", [edit])
        code, out = run(capsys, str(a), str(b), "--json")
        j = json.loads(out.out)
        assert j["changes"] == [f"{strip_set} reel {reel + 1} pos {pos}: {old} -> {new}"] == [str(edit)]
        rtp = next(f for f in j["figures"] if f["figure"] == "rtp")
        want = full_rtp(load_math_set(str(b))) - full_rtp(ms)
        assert Fraction(rtp["delta"]) == want
        # the same edit in the sensitivity table
        assert next(e.delta for e in sensitivity(ms).edits if e.edit == edit) == want
        # exit code and broken facts agree with the fact checker run on each set
        fa = {f.fact: f.status for f in check_facts(ms) if f.is_fact}
        fb = {f.fact: f.status for f in check_facts(load_math_set(str(b))) if f.is_fact}
        assert j["published"]["broken"] == [k for k in fa if fa[k] == "PASS" and fb[k] == "FAIL"]
        assert code == (1 if j["published"]["broken"] else 0)


def test_every_figure_is_compared_exactly(tmp_path):
    a = write_random_set(tmp_path / "a", 3)
    ms = load_math_set(str(a))
    edit = StripEdit("base", 0, 0, ms.strips["base"].reels[0][0],
                     "FS" if ms.strips["base"].reels[0][0] != "FS" else "PIC2")
    b = load_math_set(str(write_edited(ms, tmp_path / "b", [edit])))
    d = diff_sets(ms, b)
    fa, fb = sheet_figures(par_sheet(ms)), sheet_figures(par_sheet(b))
    assert {f.figure for f in d.figures} == set(fa) | set(fb)
    for f in d.figures:
        if f.exact and f.before is not None and f.after is not None:
            assert isinstance(f.delta, Fraction) and f.delta == fb[f.figure] - fa[f.figure]
    names = {f.figure for f in d.figures}
    assert {"rtp", "variance", "components.base_ways", "trigger.3", "feature.3.mean", "feature.3.reach.2",
            "key_2plus.base", "hit_frequency_base", "symbols.PIC1.3.rtp"} <= names


def test_breaking_a_published_trigger_probability_exits_1_and_names_it(tmp_path, capsys):
    src = bundled_path("rules_page")
    a = tmp_path / "a"
    a.mkdir()
    for f in ("game.toml", "published.toml", "base.csv", "bonus.csv"):
        shutil.copy(src / f, a / f)
    ms = load_math_set(str(a))
    # the bundled set is expected to pass the section 10 trigger facts; this test needs that
    ra = checked_sheet(ms)
    trig = [f for n in (3, 4, 5) for f in ra.published(f"trigger.{n}")]
    assert len(trig) == 6 and not any(f.failed for f in trig)
    reel = 0
    pos = ms.strips["base"].reels[reel].index("FS")
    edit = StripEdit("base", reel, pos, "FS", "PIC1")         # one FS fewer: every trigger probability falls
    b = write_edited(ms, tmp_path / "b", [edit])
    code, out = run(capsys, str(a), str(b))
    assert code == 1
    assert "BROKEN  P(3 FS symbols) per base spin" in out.out
    assert str(edit) in out.out
    code, out = run(capsys, str(a), str(b), "--json")
    j = json.loads(out.out)
    assert code == 1 and j["exit"] == 1 and "P(3 FS symbols) per base spin" in j["published"]["broken"]
    code, out = run(capsys, str(b), str(a), "--json")      # the reverse change fixes it
    j = json.loads(out.out)
    assert code == 0 and "P(3 FS symbols) per base spin" in j["published"]["fixed"]


def test_game_file_changes_are_listed(tmp_path):
    a = write_random_set(tmp_path / "a", 4)
    b = write_random_set(tmp_path / "b", 4)
    game = (bundled_path("rules_page") / "game.toml").read_text()
    old_w = "weights.level2 = [300, 300, 220, 180]"
    assert old_w in game and "pays = [0, 0, 5, 15, 50]" in game and "threshold = 6" in game
    game = game.replace(old_w, "weights.level2 = [300, 320, 220, 180]")
    game = game.replace("pays = [0, 0, 5, 15, 50]", "pays = [0, 0, 5, 16, 50]")
    game = game.replace("threshold = 6", "threshold = 7")
    game = game.replace("bet = 10 ", "bet = 20 ")
    (b / "game.toml").write_text(game)
    changes = model_changes(load_math_set(str(a)), load_math_set(str(b)))
    assert set(changes) == {"level 2 FISH2 weight 300 -> 320 (value 15)", "PIC1 pays 4 OAK 15 -> 16",
                            "level 3 threshold 6 -> 7", "bet 10 -> 20"}


def test_reel_length_changes():
    a = (("PIC1", "PIC2", "PIC3", "AUS1", "AUS2"),)
    assert strip_changes("base", a, (("PIC1", "PIC2", "AUS1", "AUS2"),)) == \
        ["base reel 1 length 5 -> 4", "base reel 1 pos 2-2: removed PIC3"]
    assert strip_changes("base", a, (("PIC1", "PIC2", "PIC3", "KEY", "AUS1", "AUS2"),)) == \
        ["base reel 1 length 5 -> 6", "base reel 1 before pos 3: inserted KEY"]


def test_reel_length_change_end_to_end(tmp_path, capsys):
    a = write_random_set(tmp_path / "a", 5, lengths=(8, 8, 8, 8, 8))
    ms = load_math_set(str(a))
    b = tmp_path / "b"
    b.mkdir()
    reels = [list(r) for r in ms.strips["base"].reels]
    reels[1].append("PIC3")
    write_strips(b / "base.csv", reels)
    shutil.copy(a / "bonus.csv", b / "bonus.csv")
    shutil.copy(a / "game.toml", b / "game.toml")
    code, out = run(capsys, str(a), str(b), "--json")
    j = json.loads(out.out)
    assert j["changes"] == ["base reel 2 length 8 -> 9", "base reel 2 before pos 8: inserted PIC3"]
    rtp = next(f for f in j["figures"] if f["figure"] == "rtp")
    assert Fraction(rtp["delta"]) == full_rtp(load_math_set(str(b))) - full_rtp(ms)


def test_bad_input_is_one_line_exit_2(tmp_path, capsys):
    a = write_random_set(tmp_path / "a", 6)
    code, out = run(capsys, str(a), str(tmp_path / "nowhere" / "set"))
    assert code == 2 and len(out.err.strip().splitlines()) == 1 and "nowhere" in out.err
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "base.csv").write_text("reel1,reel2,reel3,reel4,reel5\nPIC1,PIC1,PIC1,PIC1,NOPE\n")
    shutil.copy(a / "bonus.csv", bad / "bonus.csv")
    shutil.copy(a / "game.toml", bad / "game.toml")
    code, out = run(capsys, str(a), str(bad))
    assert code == 2 and len(out.err.strip().splitlines()) == 1 and "base.csv:2:5" in out.err
    code, out = run(capsys, str(a))
    assert code == 2 and len(out.err.strip().splitlines()) == 1
    with pytest.raises(MathSetError):
        load_math_set(str(bad))


def test_wild_multiplier_change_is_listed(tmp_path, capsys):
    import shutil
    from strips.loader import bundled_path
    d = tmp_path / "wm"
    shutil.copytree(bundled_path("rules_page"), d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__", "*.md"))
    text = (d / "game.toml").read_text()
    (d / "game.toml").write_text(text.replace("reels = { base = [2, 3, 4, 5] }",
                                              "reels = { base = [2, 3, 4, 5] }\nmultiplier = 2", 1))
    main(["diff", "rules_page", str(d)])
    assert "WILD multiplier none -> x2" in capsys.readouterr().out


def test_b_without_published_facts_is_checked_against_a_s_facts(tmp_path, capsys):
    """An audited copy without its own published.toml is held to A's facts (it used to list every
    fact of A as broken, since B had none)."""
    b = tmp_path / "b"
    b.mkdir()
    for f in ("game.toml", "base.csv", "bonus.csv"):
        shutil.copyfile(bundled_path("rules_page") / f, b / f)
    code, out = run(capsys, "rules_page", str(b), "--json")
    j = json.loads(out.out)
    assert code == 0 and j["published"] == {"broken": [], "fixed": [], "facts_of": "a"}
    game = (b / "game.toml").read_text()
    (b / "game.toml").write_text(game.replace("pays = [0, 0, 5, 15, 50]", "pays = [0, 0, 5, 15, 51]", 1))
    code, out = run(capsys, "rules_page", str(b))
    assert code == 1 and "A's facts checked on B" in out.out
    assert [l for l in out.out.splitlines() if "BROKEN" in l] == ["  BROKEN  PIC1 pays for 3/4/5 OAK, credits per way"]


def test_a_s_facts_that_name_what_b_lacks_are_not_compared(tmp_path, capsys):
    """B without published.toml whose symbols differ from A's (PIC1 renamed): A's facts cannot be checked
    on it, so none is compared: exit 0 and a note, never a KeyError traceback (new-user finding)."""
    b = tmp_path / "b"
    b.mkdir()
    for f in ("game.toml", "base.csv", "bonus.csv"):
        shutil.copyfile(bundled_path("rules_page") / f, b / f)
    for f in ("game.toml", "base.csv", "bonus.csv"):
        (b / f).write_text((b / f).read_text().replace("PIC1", "LION"))
    code, out = run(capsys, "rules_page", str(b), "--json")
    j = json.loads(out.out)
    assert code == 0 and j["published"]["broken"] == [] and j["published"]["facts_of"].startswith("none")
    assert "PIC1" in j["published"]["facts_of"]
    code, out = run(capsys, "rules_page", str(plain_wheel_game()))
    assert code == 0 and "not compared" in out.out and "Traceback" not in out.err
