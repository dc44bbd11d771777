"""Published facts as data of a math set: ``published.toml``, its validation, the
rounding rule of a printed figure, and ``rtp check`` on any game.

Each ``test_raises_*`` writes one bad ``published.toml`` into a copy of the bundled set and expects a
:class:`MathSetError` at the row and column worked out here from the text written, never read back
from the loader.
"""
from __future__ import annotations

import doctest
import json
import shutil
from fractions import Fraction

import pytest

import strips.errors
import strips.published
from exact.cli import main
from mathset_files import write_set
from exact.facts import FAIL, PASS, check_facts
from strips.errors import MathSetError
from strips.loader import bundled_path, load_math_set
from strips.published import Printed

BUNDLED = bundled_path("rules_page")


def _copy(tmp_path, published: str | None = None):
    d = tmp_path / "set"
    shutil.copytree(BUNDLED, d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__", "*.md"))
    if published is not None:
        (d / "published.toml").write_text(published)
    return d


def _error(tmp_path, text: str) -> MathSetError:
    d = _copy(tmp_path, text)
    with pytest.raises(MathSetError) as info:
        load_math_set(str(d))
    assert info.value.file == str(d / "published.toml")
    return info.value


def _at(text: str, needle: str) -> tuple[int, int]:
    """1-based (row, column) of the first occurrence of ``needle`` in ``text``."""
    for i, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return i, line.index(needle) + 1
    raise AssertionError(needle)


FACT = '[[facts]]\nfigure = "rtp"\nprinted = "96.00%"\nsource = "page"\n'


# ---------------------------------------------------------------------------
# the rounding rule
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("text, kind, number, decimals", [
    ("96.2%", "percent", Fraction(962, 10), 1), ("1 in 180", "one in", Fraction(180), 0),
    ("1 in 3,815", "one in", Fraction(3815), 0), ("1 in 203,451.5", "one in", Fraction(406903, 2), 1),
    ("0.005558", "decimal", Fraction(5558, 10**6), 6), ("12.5", "decimal", Fraction(25, 2), 1),
    ("1,234,567", "decimal", Fraction(1234567), 0),
])
def test_printed_forms(text, kind, number, decimals):
    p = Printed.parse(text)
    assert (p.text, p.kind, p.number, p.decimals) == (text, kind, number, decimals)


@pytest.mark.parametrize("text", ["", "96.2 %", "1 in", "1 in 0", "one in 5", "-0.5", "1e-3", "3,81", "1,2345",
                                  ".5", "5.", "1 in 5%", "0x10", " 5"])
def test_printed_garbage_is_refused(text):
    with pytest.raises(ValueError):
        Printed.parse(text)


def test_half_a_unit_either_side_passes_ends_included():
    p = Printed.parse("0.005558")
    assert p.matches(Fraction(5558, 10**6))
    assert p.matches(Fraction(55575, 10**7)) and p.matches(Fraction(55585, 10**7))      # the two ends
    assert not p.matches(Fraction(55575, 10**7) - Fraction(1, 10**30))
    assert not p.matches(Fraction(55585, 10**7) + Fraction(1, 10**30))


def test_percent_and_one_in_compare_what_is_printed():
    assert Printed.parse("0.47%").matches(Fraction(73, 25**3))              # 0.4672%
    assert not Printed.parse("0.46%").matches(Fraction(73, 25**3))
    one_in = Printed.parse("1 in 3,815")
    assert one_in.matches(Fraction(1, 3815))
    assert one_in.matches(Fraction(2, 7629)) and one_in.matches(Fraction(2, 7631))    # 1/p = 3814.5, 3815.5: ends
    assert not one_in.matches(Fraction(2, 7633)) and not one_in.matches(Fraction(0))  # 3816.5; never
    assert Printed.parse("1 in 3,815").show(Fraction(1, 3815)) == "1 in 3,815"
    assert Printed.parse("1 in 180").show(Fraction(0)) == "never"
    assert Printed.parse("96.2%").show(Fraction(96249, 100000)) == "96.2%"


def test_doctests_of_the_published_modules():
    for module in (strips.published, strips.errors):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


# ---------------------------------------------------------------------------
# rtp check on any game
# ---------------------------------------------------------------------------
def test_bundled_set_passes_all_86_facts(capsys):
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert "86 of 86 facts pass" in out and "assumption met" in out
    results = check_facts(load_math_set("rules_page"))
    assert sum(r.is_fact for r in results) == 86 and not any(r.failed for r in results)


def test_wrong_printed_figure_fails_naming_the_fact(tmp_path, capsys):
    d = _copy(tmp_path)
    text = (d / "published.toml").read_text()
    (d / "published.toml").write_text(text.replace('printed = "1 in 3,815"', 'printed = "1 in 3,816"'))
    assert main(["check", "--set", str(d)]) == 1
    out = capsys.readouterr().out
    assert "FAIL               frequency of 4 FS symbols, 1 in N [section 10]" in out
    assert "85 of 86 facts pass; 1 FAIL" in out
    assert main(["check", "--set", str(d), "--json"]) == 1
    j = json.loads(capsys.readouterr().out)
    assert [f["fact"] for f in j["facts"] if f["status"] == FAIL] == ["frequency of 4 FS symbols, 1 in N"]
    assert main(["--set", str(d), "--check"]) == 1                      # the report reads the same data


def test_set_without_published_file_has_nothing_to_check(tmp_path, capsys):
    d = _copy(tmp_path)
    (d / "published.toml").unlink()
    assert main(["check", "--set", str(d)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "no published.toml, nothing to check" in out[0]
    assert main(["check", "--set", str(d), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["facts"] == []
    assert check_facts(load_math_set(str(d))) == []
    assert main(["--set", str(d), "--check"]) == 0


def test_unknown_figure_is_bad_input_naming_file_row_column(tmp_path, capsys):
    text = FACT.replace('"rtp"', '"trigger.9"')
    d = _copy(tmp_path, text)
    assert main(["check", "--set", str(d)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    row, col = _at(text, "figure")
    assert len(err) == 1 and f"{d / 'published.toml'}:{row}:{col}:" in err[0] and "'trigger.9'" in err[0]
    assert "did you mean" in err[0]


def test_display_float_figure_is_bad_input(tmp_path, capsys):
    d = _copy(tmp_path, FACT.replace('"rtp"', '"sd_per_bet"').replace('"96.00%"', '"12.5"'))
    assert main(["check", "--set", str(d)]) == 2
    assert "display float" in capsys.readouterr().err


def test_any_game_with_published_figures(tmp_path, capsys):
    """A game other than the rules page's (a 3-row copy) with its own published.toml: PASS and FAIL by data."""
    d = _copy(tmp_path, FACT.replace('"96.00%"', '"95.9997%"') + FACT.replace('"96.00%"', '"95.9%"')
              .replace('"page"', '"page 2"'))
    game = (d / "game.toml").read_text().replace('name = "rules_page"', 'name = "other_game"')
    assert game != (d / "game.toml").read_text()
    (d / "game.toml").write_text(game)
    results = check_facts(load_math_set(str(d)))
    assert [(r.published, r.status) for r in results] == [("95.9997%", PASS), ("95.9%", FAIL)]
    assert main(["check", "--set", str(d)]) == 1


def test_checked_windows_totals_and_rules_come_from_the_data(tmp_path):
    """Dropping entries from published.toml drops exactly those checks: nothing is held in code."""
    text = (BUNDLED / "published.toml").read_text()
    head = text[:text.index("[[windows]]")]
    d = _copy(tmp_path, head)
    results = check_facts(load_math_set(str(d)))
    assert sum(r.is_fact for r in results) == 11        # the 11 figure facts, no window, strip or rule fact


# ---------------------------------------------------------------------------
# validation: one test per rule
# ---------------------------------------------------------------------------
def test_raises_malformed_toml(tmp_path):
    err = _error(tmp_path, '[[facts]]\nfigure = "rtp\n')
    assert (err.row, err.column) == (2, len('figure = "rtp') + 1) and "malformed TOML" in err.message


def test_raises_unknown_table(tmp_path):
    text = FACT + "[[examples]]\nstops = [1]\n"
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "[[examples]]") and "unsupported rule: table 'examples'" in err.message
    assert "in published.toml" in err.message and "game file" not in err.message


def test_raises_unknown_key_in_a_fact(tmp_path):
    text = FACT + 'rounding = "half up"\n'
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "rounding") and "key 'rounding'" in err.message


def test_raises_missing_figure(tmp_path):
    text = FACT.replace('figure = "rtp"\n', "")
    err = _error(tmp_path, text)
    assert (err.row, err.column) == (1, 1) and "figure: required key is missing" in err.message


def test_raises_missing_printed(tmp_path):
    text = FACT.replace('printed = "96.00%"\n', "")
    err = _error(tmp_path, text)
    assert (err.row, err.column) == (1, 1) and "printed: required key is missing" in err.message


def test_raises_printed_that_is_not_a_figure(tmp_path):
    text = FACT.replace('"96.00%"', '"about 96%"')
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "printed") and "is not a decimal" in err.message


def test_raises_printed_as_a_number_not_text(tmp_path):
    text = FACT.replace('"96.00%"', "0.96")
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "printed") and "must be a str" in err.message
    assert str(err).count("published.toml") == 1 and str(err).count("facts[1].printed") == 1, str(err)


def test_raises_figure_that_is_not_a_key(tmp_path):
    text = FACT.replace('"rtp"', '"RTP of the game"')
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "figure") and "is not a report figure key" in err.message


def test_raises_per_bet_not_a_boolean(tmp_path):
    text = FACT + "per_bet = 1\n"
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "per_bet") and "must be a bool" in err.message


def test_raises_facts_not_an_array_of_tables(tmp_path):
    text = '[facts]\nfigure = "rtp"\n'
    err = _error(tmp_path, text)
    assert err.row == 1 and "array of tables" in err.message


WINDOW = ('[[windows]]\nsource = "example 1"\nstrip_set = "base"\nstops = [10, 11, 81, 14, 32]\n'
          'window = ["PIC2 PIC4 AUS2 PIC5 FISH4", "AUS1 AUS5 AUS2 AUS2 AUS3", "AUS1 AUS5 AUS2 PIC5 AUS4", '
          '"PIC4 AUS5 PIC4 AUS3 PIC5"]\n')


def test_one_window_entry_checks_that_window(tmp_path):
    d = _copy(tmp_path, WINDOW)
    [r] = check_facts(load_math_set(str(d)))
    assert r.status == PASS and r.fact == "example 1 window at stops 10,11,81,14,32 (base strips)"


def test_raises_unknown_strip_set(tmp_path):
    text = WINDOW.replace('"base"', '"respin"')
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "strip_set") and "no strip set 'respin'" in err.message


def test_raises_window_stops_not_one_per_reel(tmp_path):
    text = WINDOW.replace("[10, 11, 81, 14, 32]", "[10, 11, 81]")
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "stops") and "5 stop positions" in err.message


def test_raises_window_row_with_wrong_count(tmp_path):
    text = WINDOW.replace('"PIC2 PIC4 AUS2 PIC5 FISH4"', '"PIC2 PIC4 AUS2 PIC5"')
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "window = ") and "must name 5 symbols" in err.message


def test_raises_window_unknown_symbol(tmp_path):
    text = WINDOW.replace('"PIC2 PIC4', '"PIC9 PIC4')
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "window = ") and "unknown symbol 'PIC9'" in err.message


def test_window_past_the_strip_or_of_another_height_fails(tmp_path):
    """Data of the strips, not of the file: a stop past a reel's end or a window of another height FAILs."""
    text = WINDOW.replace("[10, 11, 81, 14, 32]", "[10, 11, 181, 14, 32]") + WINDOW.replace(
        ', "PIC4 AUS5 PIC4 AUS3 PIC5"]', "]").replace("example 1", "example 1b")
    d = _copy(tmp_path, text)
    a, b = check_facts(load_math_set(str(d)))
    assert a.status == FAIL and a.shown == "reel 3 has 100 stops, no stop 181"
    assert b.status == FAIL and "window has 4 rows, the printed one 3" in b.shown


def test_raises_placement_reel_out_of_range(tmp_path):
    text = '[[placements]]\nstrip_set = "base"\nsymbol = "WILD"\nreels = [2, 6]\n'
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "reels") and "reels are 1 to 5" in err.message


def test_raises_placement_unknown_symbol(tmp_path):
    text = '[[placements]]\nstrip_set = "base"\nsymbol = "JOKER"\nreels = [2]\n'
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "symbol") and "unknown symbol 'JOKER'" in err.message


def test_raises_total_with_symbols_and_class(tmp_path):
    text = '[[totals]]\nstrip_set = "base"\nclass = "fish"\nsymbols = ["FISH1"]\ncount = 3\n'
    err = _error(tmp_path, text)
    assert (err.row, err.column) == (1, 1) and "not both" in err.message


def test_raises_total_of_a_class_the_game_lacks(tmp_path):
    text = '[[totals]]\nstrip_set = "base"\nclass = "bonus"\ncount = 3\n'
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "class") and "no symbol of class 'bonus'" in err.message


def test_raises_negative_total(tmp_path):
    text = '[[totals]]\nstrip_set = "base"\nclass = "fish"\ncount = -1\n'
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "count") and "must be 0 or more" in err.message


def test_raises_strip_rules_unknown_key(tmp_path):
    text = '[[strip_rules]]\nstrip_set = "base"\nlength = 100\nmax_gap = 3\n'
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "max_gap") and "key 'max_gap'" in err.message


def test_raises_strip_rules_length_and_lengths(tmp_path):
    text = '[[strip_rules]]\nstrip_set = "base"\nlength = 100\nlengths = [100, 100, 100, 100, 100]\n'
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "lengths") and "not given with length" in err.message


def test_raises_rules_unknown_key(tmp_path):
    text = "[rules]\nbet = 10\nrtp = 96\n"
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "rtp") and "key 'rtp'" in err.message


def test_raises_rules_pays_of_wrong_length(tmp_path):
    text = "[rules.pays]\nPIC1 = [0, 5, 15, 50]\n"
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "PIC1") and "must be 5 pays" in err.message


def test_raises_rules_probability_not_printed_figure(tmp_path):
    text = '[rules.probabilities.FISH4]\nbase = ["88.9%", 0.111]\n'
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "base") and "is not a decimal" in err.message


def test_raises_rules_level_unknown_key(tmp_path):
    text = "[rules]\nlevels = [{ threshold = 0, multiplier = 1, bonus = 2 }]\n"
    err = _error(tmp_path, text)
    assert err.row == 2 and "key 'bonus'" in err.message


def test_raises_assumption_tolerance_printed_otherwise(tmp_path):
    text = '[[assumptions]]\nfigure = "rtp"\ntarget = "96.00%"\ntolerance = "0.00005"\n'
    err = _error(tmp_path, text)
    assert (err.row, err.column) == _at(text, "tolerance") and "printed like the target" in err.message


def test_raises_published_file_that_is_not_utf8(tmp_path):
    d = _copy(tmp_path)
    (d / "published.toml").write_bytes(FACT.encode() + b"source2 = \"\xff\"\n")
    with pytest.raises(MathSetError) as info:
        load_math_set(str(d))
    assert (info.value.row, info.value.column) == (5, len('source2 = "') + 1) and "not UTF-8" in info.value.message


# ---------------------------------------------------------------------------
# no generic module tests a game's name
# ---------------------------------------------------------------------------
def test_report_diff_and_sensitivity_read_the_data_not_the_name(tmp_path):
    """The bundled set renamed keeps every published check; the bundled name without the data has none."""
    renamed = _copy(tmp_path)
    (renamed / "game.toml").write_text((renamed / "game.toml").read_text()
                                       .replace('name = "rules_page"', 'name = "renamed"'))
    ms = load_math_set(str(renamed))
    assert ms.model.name == "renamed"
    assert sum(r.is_fact for r in check_facts(ms)) == 86
    from exact.sensitivity import StripEdit, edit_breaks
    w = ms.published.windows[0]
    sym = ms.strips[w.strip_set].reels[0][w.stops[0]]
    assert edit_breaks(ms, StripEdit(w.strip_set, 0, w.stops[0], sym, "PIC1" if sym != "PIC1" else "PIC2")) \
        == f"{w.source} shows {sym} here"
    bare = tmp_path / "bare"
    write_set(bare, published=False)
    ms2 = load_math_set(str(bare))
    assert ms2.model.name == "rules_page" and ms2.published.empty and check_facts(ms2) == []
    for pos in range(100):      # no window, no total: no edit is blamed on published data
        what = edit_breaks(ms2, StripEdit("base", 0, pos, ms2.strips["base"].reels[0][pos], "PIC1"))
        assert "example" not in what and "published" not in what


def test_no_generic_module_names_the_rules_page_game():
    """Only the loader's default set name and the rules page's own reconstruction tooling may say rules_page."""
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[1]
    for package in ("exact", "markov", "proofs", "strips"):
        for path in (root / package).rglob("*.py"):
            rel = path.relative_to(root).as_posix()
            if rel.startswith("proofs/reconstruction/") or rel == "strips/loader.py":
                continue
            code = "\n".join(line for line in path.read_text().splitlines()
                             if not line.lstrip().startswith(("#", ">>>")))
            code = code.replace("applies_to_scatters", "")   # the multiplier symbol's key (game.toml), not the rule
            assert '== "rules_page"' not in code and "applies_to" not in code, rel


# ---------------------------------------------------------------------------
# the reconstruction's transcription (proofs.reconstruction.rules_page) = the bundled published.toml
# ---------------------------------------------------------------------------
def test_bundled_published_file_equals_the_reconstruction_transcription():
    """Two transcriptions of one page must not drift: the strip reconstruction's constants and the data."""
    from proofs.reconstruction import rules_page as P
    pub = load_math_set("rules_page").published
    assert [(w.source, w.strip_set, w.stops, w.rows) for w in pub.windows] == \
        [(f"example {e.number}", e.strip_set, e.stops, e.rows) for e in P.EXAMPLES]
    assert {(t.strip_set, t.label): t.count for t in pub.totals} == \
        {(s, k): v for s, d in P.TOTALS.items() for k, v in d.items()}
    placed = {(p.strip_set, p.symbol): p.reels for p in pub.placements}
    assert {k: v for k, v in placed.items() if v} == \
        {(s, k): v for s, d in P.SPECIAL_REELS.items() for k, v in d.items()}
    for sh in pub.strip_rules:
        assert (sh.reels, sh.length, sh.min_pay_between_specials, sh.max_run_length) == \
            (P.REELS, P.STRIP_LENGTH, P.MIN_PAY_BETWEEN_SPECIALS, P.MAX_AUS_RUN)
    printed = {(f.figure, f.printed.kind): f.printed.text for f in pub.facts}
    for n in (3, 4, 5):
        assert printed[f"trigger.{n}", "decimal"] == P.TRIGGER_PROBABILITY[n].text
        assert printed[f"trigger.{n}", "one in"] == f"1 in {P.TRIGGER_FREQUENCY[n].text}"
    assert printed["key_2plus.base", "percent"] == P.KEY_2PLUS["base"].text
    assert printed["key_2plus.free", "percent"] == P.KEY_2PLUS["bonus"].text
    rules = pub.rules
    assert rules.bet == P.BET and dict(rules.pays) == P.PAYTABLE and dict(rules.values) == P.FISH_VALUES
    assert dict(rules.trigger_spins) == P.TRIGGER_SPINS
    assert [(lv.threshold, lv.spins, lv.multiplier) for lv in rules.levels] == list(P.LADDER)
    assert {name: {t: tuple(p.text.rstrip("%") for p in ps) for t, ps in tables}
            for name, tables in rules.probabilities} == P.FISH_PERCENT


@pytest.mark.parametrize("command", [[], ["check"], ["export", "--csv", "OUT"], ["sensitivity"], ["diff", "SET"]])
def test_bad_fact_is_one_line_naming_its_file_once(tmp_path, capsys, command):
    """A fact the report cannot check is the published file's error, said once: never behind the command's or
    the set's name (``rtp: SET: SET/published.toml:2:1: ...``)."""
    text = FACT.replace('"rtp"', '"trigger.9"')
    d = _copy(tmp_path, text)
    argv = [str(tmp_path / "out") if a == "OUT" else str(d) if a == "SET" else a for a in command] + ["--set", str(d)]
    if command and command[0] == "diff":
        argv = ["diff", str(d), str(d)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    row, col = _at(text, "figure")
    assert len(err) == 1 and err[0].startswith(f"rtp: error: {d / 'published.toml'}:{row}:{col}: figure 'trigger.9'"), err
    assert err[0].count(str(d)) == 1


@pytest.mark.parametrize("lifted", [[], ["--no-limits"]])
def test_raises_printed_figure_of_5000_digits_in_the_projects_words(tmp_path, capsys, lifted):
    text = FACT.replace('"96.00%"', '"0.' + "1" * 5000 + '"')
    d = _copy(tmp_path, text)
    assert main(["check", "--set", str(d)] + lifted) == 2
    err = capsys.readouterr().err.strip().splitlines()
    row, col = _at(text, "printed")
    assert len(err) == 1 and f"published.toml:{row}:{col}: facts[1].printed: 5,000 significant digits" in err[0], err
    assert "sys." not in err[0] and "4300" not in err[0]
    assert ("--max-digits" in err[0]) == (not lifted)


def test_printed_figure_within_a_raised_digits_limit_is_read(tmp_path, capsys):
    d = _copy(tmp_path, FACT.replace('"96.00%"', '"0.' + "1" * 20 + '"'))
    assert main(["check", "--set", str(d)]) == 2
    assert "--max-digits" in capsys.readouterr().err
    assert main(["check", "--set", str(d), "--max-digits", "30"]) == 1   # read, and FAIL: the RTP is not 0.111...
