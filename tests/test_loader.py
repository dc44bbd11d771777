"""The math-set loader: one test per validation rule of the game file and the strips, soft findings, garbage input.

Every hard error must be a :class:`MathSetError` naming the file, the 1-based
row and column of the offending cell (0, 0 where the problem is the file or
directory as a whole) and what is wrong.  The expected cells are worked out
here from the bad input the test writes, never read back from the loader.

Source: rules page sections 3 (strips, window, soft strip rules), 4 (which
reels each symbol may occupy), 7 (fish weights).
"""
from __future__ import annotations

import random
import string
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strips.errors import MathSetError
from strips.model import Finding
from mathset_files import (BUNDLED_GAME, MODEL, csv_text, snapshot,
                           valid_columns, write_set)
from strips.loader import bundled_names, bundled_path, load_math_set, parse_game, resolve

GAME_TEXT = BUNDLED_GAME.read_text()


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def load_error(directory: Path) -> MathSetError:
    with pytest.raises(MathSetError) as info:
        load_math_set(str(directory))
    return info.value


def assert_error(err: MathSetError, file: Path | str, row: int, column: int, *words: str) -> None:
    """The error names ``file`` at (row, column), says each of ``words``, and prints as one line."""
    assert err.file == str(file)
    assert (err.row, err.column) == (row, column), str(err)
    for w in words:
        assert w.lower() in err.message.lower(), str(err)
    assert str(err).startswith(f"{file}:{row}:{column}: " if (row, column) != (0, 0) else f"{file}: ")
    assert "\n" not in str(err) and "\r" not in str(err)


def placed(strip_set: str, reel: int, position: int, symbol: str) -> list[list[str]]:
    """Valid columns of ``strip_set`` with ``symbol`` at 0-based ``position`` of 0-based ``reel``."""
    cols = valid_columns(strip_set)
    cols[reel][position] = symbol
    return cols


def line_of(text: str, fragment: str, occurrence: int = 0) -> int:
    """1-based line of the ``occurrence``-th line containing ``fragment``."""
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if fragment in line]
    return hits[occurrence]


def game_with(old: str, new: str) -> str:
    assert GAME_TEXT.count(old) == 1, old
    return GAME_TEXT.replace(old, new)


# A cell at 0-based position p of a strip is on CSV line p + 2 (line 1 is the header).
def row_of(position: int) -> int:
    return position + 2


# ---------------------------------------------------------------------------
# the valid baseline
# ---------------------------------------------------------------------------
def test_valid_set_loads_without_findings(tmp_path):
    ms = load_math_set(str(write_set(tmp_path)))
    assert ms.findings == ()
    assert ms.strips["base"].lengths == (100,) * 5 and ms.strips["bonus"].lengths == (100,) * 5
    assert ms.strips["base"].reels == tuple(tuple(c) for c in valid_columns("base"))
    assert ms.strips["bonus"].reels == tuple(tuple(c) for c in valid_columns("bonus"))
    assert ms.model.name == "rules_page"           # write_set copies the bundled game file


def test_hook_is_accepted_as_alias_of_key(tmp_path):
    write_set(tmp_path, base=placed("base", 1, 5, "HOOK"), bonus=placed("bonus", 2, 5, "HOOK"))
    ms = load_math_set(str(tmp_path))
    assert ms.strips["base"].reels[1][5] == "KEY"
    assert ms.strips["bonus"].reels[2][5] == "KEY"
    assert ms.strips["base"].codes[1][5] == MODEL.code("KEY")


def test_short_columns_end_with_empty_trailing_cells(tmp_path):
    cols = valid_columns("base")
    cols[2] = cols[2][:60]
    write_set(tmp_path, base=cols)
    ms = load_math_set(str(tmp_path))
    assert ms.strips["base"].lengths == (100, 100, 60, 100, 100)


def test_crlf_bom_spaces_and_trailing_empty_cells_are_accepted(tmp_path):
    text = csv_text(valid_columns("base")).replace(",", " , ").replace("\n", ",\r\n")
    write_set(tmp_path, base=b"\xef\xbb\xbf" + text.encode())
    ms = load_math_set(str(tmp_path))
    assert ms.strips["base"].reels == tuple(tuple(c) for c in valid_columns("base"))


# ---------------------------------------------------------------------------
# hard errors: strip files
# ---------------------------------------------------------------------------
def test_raises_unknown_symbol(tmp_path):
    write_set(tmp_path, base=placed("base", 1, 5, "PIC6"))
    assert_error(load_error(tmp_path), tmp_path / "base.csv", row_of(5), 2, "unknown symbol", "PIC6")


def test_raises_unknown_symbol_is_case_sensitive(tmp_path):
    write_set(tmp_path, bonus=placed("bonus", 4, 98, "aus1"))
    assert_error(load_error(tmp_path), tmp_path / "bonus.csv", row_of(98), 5, "unknown symbol", "aus1")


@pytest.mark.parametrize("columns, column", [(4, 5), (6, 6)])
def test_raises_wrong_reel_count_in_header(tmp_path, columns, column):
    header = [f"reel{i + 1}" for i in range(columns)]
    cols = valid_columns("base")
    body = csv_text(cols).split("\n", 1)[1]
    write_set(tmp_path, base=",".join(header) + "\n" + body)
    assert_error(load_error(tmp_path), tmp_path / "base.csv", 1, column, "wrong reel count", f"{columns} columns")


def test_raises_wrong_reel_count_sixth_cell_in_data_row(tmp_path):
    lines = csv_text(valid_columns("bonus")).split("\n")
    lines[30] += ",PIC1"                            # line 31 = strip position 29
    write_set(tmp_path, bonus="\n".join(lines))
    assert_error(load_error(tmp_path), tmp_path / "bonus.csv", 31, 6, "wrong reel count", "6 cells")


def test_raises_wrong_header_name(tmp_path):
    text = csv_text(valid_columns("base")).replace("reel3", "reel 3", 1)
    write_set(tmp_path, base=text)
    assert_error(load_error(tmp_path), tmp_path / "base.csv", 1, 3, "header", "reel3")


def test_raises_empty_reel(tmp_path):
    cols = valid_columns("base")
    cols[3] = []
    write_set(tmp_path, base=cols)
    # reel 4 ends at once: its first empty cell is on line 2
    assert_error(load_error(tmp_path), tmp_path / "base.csv", 2, 4, "reel 4", "0 symbols", "4 window rows")


def test_raises_reel_shorter_than_the_window(tmp_path):
    cols = valid_columns("bonus")
    cols[1] = cols[1][:3]
    write_set(tmp_path, bonus=cols)
    # 3 symbols on lines 2-4, the reel ends on line 5
    assert_error(load_error(tmp_path), tmp_path / "bonus.csv", 5, 2, "reel 2", "3 symbols", "4 window rows")


def test_raises_gap_inside_a_column(tmp_path):
    cols = valid_columns("base")
    cols[3][7] = ""
    write_set(tmp_path, base=cols)
    assert_error(load_error(tmp_path), tmp_path / "base.csv", row_of(7), 4, "reel 4", "empty cell")


@pytest.mark.parametrize("strip_set, reel, symbol, words", [
    ("base", 0, "WILD", ("WILD", "base reel 1")),        # WILD: reels 2-5 of the base game
    ("bonus", 2, "WILD", ("WILD", "bonus reel 3")),      # no WILD on the bonus strips
    ("bonus", 4, "FS", ("FS", "bonus reel 5")),          # no FS on the bonus strips
    ("base", 3, "KEY", ("KEY", "base reel 4")),          # KEY: reels 1-3
    ("bonus", 4, "HOOK", ("HOOK", "bonus reel 5")),      # ... also under its alias
    ("base", 4, "FISH3", ("FISH3", "base reel 5")),      # FISH3: reel 4 only
    ("bonus", 0, "FISH3", ("FISH3", "bonus reel 1")),
    ("base", 3, "FISH4", ("FISH4", "base reel 4")),      # FISH4: reel 5 only
    ("bonus", 1, "FISH4", ("FISH4", "bonus reel 2")),
])
def test_raises_symbol_on_forbidden_reel(tmp_path, strip_set, reel, symbol, words):
    position = 55
    write_set(tmp_path, **{strip_set: placed(strip_set, reel, position, symbol)})
    assert_error(load_error(tmp_path), tmp_path / f"{strip_set}.csv", row_of(position), reel + 1,
                 "not allowed", *words)


def test_raises_malformed_csv_unterminated_quote(tmp_path):
    lines = csv_text(valid_columns("base")).split("\n")
    cells = lines[9].split(",")
    cells[2] = '"' + cells[2]                       # an opening quote in cell 3 of line 10, never closed
    lines[9] = ",".join(cells)
    write_set(tmp_path, base="\n".join(lines))
    assert_error(load_error(tmp_path), tmp_path / "base.csv", 10, 3, "malformed CSV")


def test_raises_malformed_csv_text_after_closing_quote(tmp_path):
    lines = csv_text(valid_columns("base")).split("\n")
    cells = lines[4].split(",")
    cells[1] = f'"{cells[1]}"x'
    lines[4] = ",".join(cells)
    write_set(tmp_path, base="\n".join(lines))
    assert_error(load_error(tmp_path), tmp_path / "base.csv", 5, 2, "malformed CSV")


def test_raises_non_utf8_bytes(tmp_path):
    lines = csv_text(valid_columns("bonus")).encode().split(b"\n")
    cells = lines[20].split(b",")
    cells[3] = b"PIC\xe91"                          # Latin-1 e-acute inside cell 4
    lines[20] = b",".join(cells)
    write_set(tmp_path, bonus=b"\n".join(lines))
    assert_error(load_error(tmp_path), tmp_path / "bonus.csv", 21, 4, "not UTF-8")


def test_raises_nul_byte(tmp_path):
    lines = csv_text(valid_columns("base")).split("\n")
    cells = lines[12].split(",")
    cells[4] = cells[4][:2] + "\x00" + cells[4][2:]
    lines[12] = ",".join(cells)
    write_set(tmp_path, base="\n".join(lines))
    assert_error(load_error(tmp_path), tmp_path / "base.csv", 13, 5, "NUL")


def test_raises_empty_file(tmp_path):
    write_set(tmp_path, bonus=b"")
    assert_error(load_error(tmp_path), tmp_path / "bonus.csv", 1, 1, "header", "reel1,reel2,reel3,reel4,reel5")


def test_raises_error_line_counts_quoted_newlines(tmp_path):
    # a quoted cell holding a line break (line 4) shifts every later record down one line
    lines = csv_text(valid_columns("base")).split("\n")
    cells = lines[3].split(",")
    cells[0] = f'"{cells[0]}\n"'
    lines[3] = ",".join(cells)
    cells = lines[50].split(",")                    # strip position 49: file line 51 + 1
    cells[1] = "BOGUS"
    lines[50] = ",".join(cells)
    write_set(tmp_path, base="\n".join(lines))
    assert_error(load_error(tmp_path), tmp_path / "base.csv", 52, 2, "unknown symbol", "BOGUS")


# ---------------------------------------------------------------------------
# hard errors: game.toml
# ---------------------------------------------------------------------------
def test_raises_malformed_toml_with_line_and_column(tmp_path):
    game = game_with("rows = 4 ", "rows = = 4 ")
    write_set(tmp_path, game=game)
    line = line_of(game, "rows = = 4")
    column = game.splitlines()[line - 1].index("= 4") + 1                 # the second '='
    assert_error(load_error(tmp_path), tmp_path / "game.toml", line, column, "malformed TOML")


def test_raises_malformed_toml_at_end_of_document(tmp_path):
    game = GAME_TEXT.rstrip("\n") + '\n[extra]\nname = "unterminated'
    write_set(tmp_path, game=game)
    last = game.splitlines()
    # the error is at the end of the file: last line, one past its last character
    assert_error(load_error(tmp_path), tmp_path / "game.toml", len(last), len(last[-1]) + 1,
                 "malformed TOML", "Unterminated string")


@pytest.mark.parametrize("old, new, header, occurrence, key", [
    ("bet = 10 ", "# bet removed ", "[game]", 0, "game.bet"),
    ("[strips]", "[strip_files]", None, 0, "strips"),
    ('class = "fish"\nreels = { base = [4], bonus = [4] }\nvalues = [50, 100, 150, 200]\n',
     'class = "fish"\nreels = { base = [4], bonus = [4] }\n', "[symbols.FISH3]", 0, "symbols.FISH3.values"),
    ("multiplier = 5\n", "", "[[free_spins.levels]]", 2, "free_spins.levels[3].multiplier"),
])
def test_raises_missing_key_in_game_toml(tmp_path, old, new, header, occurrence, key):
    game = game_with(old, new)
    write_set(tmp_path, game=game)
    # a missing key is located at the header of the table that lacks it (line 1 for a top-level table)
    line = line_of(game, header, occurrence) if header else 1
    assert_error(load_error(tmp_path), tmp_path / "game.toml", line, 1, key, "missing")


def test_raises_game_value_of_wrong_type(tmp_path):
    game = game_with("reels = 5 ", 'reels = "5" ')
    write_set(tmp_path, game=game)
    assert_error(load_error(tmp_path), tmp_path / "game.toml", line_of(game, 'reels = "5"'), 1,
                 "game.reels", "integer")


def test_raises_game_without_base_strip_set(tmp_path):
    game = game_with('base = "base.csv"', 'main = "base.csv"')
    write_set(tmp_path, game=game)
    assert_error(load_error(tmp_path), tmp_path / "game.toml", line_of(game, "[strips]"), 1, "strips", "'base'")


FISH1_BASE = "weights.base = [422, 278, 200, 100]"
FISH2_LEVEL2 = "weights.level2 = [300, 300, 220, 180]"


@pytest.mark.parametrize("old, new, key, words", [
    (FISH1_BASE, "weights.base = [422, -278, 200, 100]", "symbols.FISH1.weights.base", ("negative",)),
    (FISH2_LEVEL2, "weights.level2 = [300, 300, -220, 180]", "symbols.FISH2.weights.level2", ("negative",)),
    ("weights.level3 = [889, 111]", "weights.level3 = [0, 0]", "symbols.FISH4.weights.level3", ("sum to zero",)),
    (FISH1_BASE, "weights.base = [42.2, 27.8, 20.0, 10.0]", "symbols.FISH1.weights.base", ("integers", "42.2")),
    (FISH1_BASE, 'weights.base = ["422", 278, 200, 100]', "symbols.FISH1.weights.base", ("integers", "'422'")),
    (FISH2_LEVEL2, "weights.level2 = [300, 300, 220]", "symbols.FISH2.weights.level2", ("3 weights", "4 values")),
    (FISH2_LEVEL2, "weights.level2 = [300, 300, 220, 180, 1]", "symbols.FISH2.weights.level2", ("5 weights",)),
])
def test_raises_bad_fish_weights(tmp_path, old, new, key, words):
    game = game_with(old, new)
    write_set(tmp_path, game=game)
    assert_error(load_error(tmp_path), tmp_path / "game.toml", line_of(game, new), 1, key, *words)


def test_raises_bad_fish_weights_in_inline_table(tmp_path):
    game = GAME_TEXT.replace(FISH1_BASE + "\n", "weights = { base = [422, 278, 200, -1], ", 1)
    for lv, w in (("1", "400, 300, 200, 100"), ("2", "350, 300, 200, 150"), ("3", "300, 300, 220, 180")):
        game = game.replace(f"weights.level{lv} = [{w}]\n", f"level{lv} = [{w}], ", 1)
    game = game.replace("weights.level4 = [250, 300, 250, 200]", "level4 = [250, 300, 250, 200] }", 1)
    write_set(tmp_path, game=game)
    line = line_of(game, "weights = { base")
    column = game.splitlines()[line - 1].index("base = ") + 1
    assert_error(load_error(tmp_path), tmp_path / "game.toml", line, column, "symbols.FISH1.weights.base", "negative")


def test_raises_non_utf8_game_file(tmp_path):
    game = GAME_TEXT.encode().replace(b"Rules-page game", b"Rules-page g\xe4me", 1)
    write_set(tmp_path, game=game)
    line = line_of(GAME_TEXT, "Rules-page game")
    column = GAME_TEXT.splitlines()[line - 1].index("Rules-page game") + len("Rules-page g") + 1
    assert_error(load_error(tmp_path), tmp_path / "game.toml", line, column, "not UTF-8")


def test_parse_game_accepts_the_bundled_game():
    m = parse_game(BUNDLED_GAME.read_bytes(), str(BUNDLED_GAME))
    assert m.symbol("HOOK") is m.symbol("KEY")
    assert m.symbol("FISH1").weights["base"] == (422, 278, 200, 100)


# ---------------------------------------------------------------------------
# hard errors: files and set names
# ---------------------------------------------------------------------------
def test_raises_missing_strip_file(tmp_path):
    write_set(tmp_path)
    (tmp_path / "base.csv").unlink()
    assert_error(load_error(tmp_path), tmp_path / "base.csv", 0, 0, "not found")


def test_raises_strip_file_that_is_a_directory(tmp_path):
    write_set(tmp_path)
    (tmp_path / "bonus.csv").unlink()
    (tmp_path / "bonus.csv").mkdir()
    assert_error(load_error(tmp_path), tmp_path / "bonus.csv", 0, 0, "directory")


def test_raises_set_path_that_does_not_exist(tmp_path):
    spec = str(tmp_path / "no" / "such" / "set")
    assert_error(load_error(Path(spec)), spec, 0, 0, "no such directory")


def test_raises_set_path_that_is_a_file(tmp_path):
    write_set(tmp_path)
    spec = tmp_path / "base.csv"
    assert_error(load_error(spec), spec, 0, 0, "is a file", "game.toml")
    assert "bonus.csv" not in str(load_error(spec))   # a set needs its game file, not a fixed pair of strips


@pytest.mark.parametrize("written, name", [("PIC\\u00072", "PIC\x072"), ("PIC\\U0000200B2", "PIC\u200b2"),
                                           ("PIC\\u200b2", "PIC\u200b2"), ("PIC\t2", "PIC\t2")])
def test_raises_control_character_in_a_symbol_name_at_its_own_line(tmp_path, written, name):
    game = game_with("[symbols.PIC2]", f'[symbols."{written}"]')
    write_set(tmp_path, game=game)
    assert_error(load_error(tmp_path), tmp_path / "game.toml", line_of(game, f'[symbols."{written}"]'), 1,
                 "control or invisible character", repr(name))


def test_raises_unknown_bundled_name():
    with pytest.raises(MathSetError) as info:
        load_math_set("no_such_bundled_set")
    assert_error(info.value, "no_such_bundled_set", 0, 0, "no math-set directory or bundled set", "rules_page")


def test_bundled_names_and_paths():
    assert "rules_page" in bundled_names()
    assert (bundled_path("rules_page") / "game.toml").is_file()
    assert resolve(None) == ("rules_page", bundled_path("rules_page"))


def test_directory_wins_over_bundled_name(tmp_path, monkeypatch):
    write_set(tmp_path / "rules_page")
    monkeypatch.chdir(tmp_path)
    name, directory = resolve("rules_page")
    assert directory == Path("rules_page") and directory.resolve() == (tmp_path / "rules_page").resolve()


def test_bundled_set_loads_by_name():
    ms = load_math_set("rules_page")
    assert ms.strips["base"].lengths == (100,) * 5 and ms.strips["bonus"].lengths == (100,) * 5


def test_set_with_own_game_file_uses_it(tmp_path):
    game = game_with("bet = 10 ", "bet = 20 ")
    write_set(tmp_path, game=game)
    assert load_math_set(str(tmp_path)).model.bet == 20


# ---------------------------------------------------------------------------
# soft findings (section 3): reported, never fatal
# ---------------------------------------------------------------------------
def findings_of(tmp_path, **files) -> tuple[Finding, ...]:
    write_set(tmp_path, **files)
    return load_math_set(str(tmp_path)).findings


def test_finding_two_specials_within_one_window(tmp_path):
    # base reel 2 has specials at 0, 10, 20, ...; a FISH1 at 12 leaves 1 pay symbol after the one at 10
    (f,) = findings_of(tmp_path, base=placed("base", 1, 12, "FISH1"))
    assert (f.file, f.row, f.column) == (str(tmp_path / "base.csv"), row_of(10), 2)
    assert "1 pay symbols between" in f.message and "3 or more" in f.message
    assert "[strip_rules] min_pay_between_specials" in f.message   # the game file's rule, any game's


def test_finding_two_specials_across_the_wrap_around(tmp_path):
    # position 99 and position 0 are neighbours on the loop (section 3)
    (f,) = findings_of(tmp_path, bonus=placed("bonus", 3, 98, "FISH3"))
    assert (f.file, f.row, f.column) == (str(tmp_path / "bonus.csv"), row_of(98), 4)
    assert "1 pay symbols between" in f.message


def test_finding_run_of_four_aus(tmp_path):
    cols = valid_columns("base")
    cols[2][41:45] = ["AUS1", "AUS2", "AUS3", "AUS4"]
    cols[2][45] = "PIC1"                          # position 40 is a special: the run is exactly 41-44
    (f,) = findings_of(tmp_path, base=cols)
    assert (f.file, f.row, f.column) == (str(tmp_path / "base.csv"), row_of(41), 3)
    assert "run of more than 3" in f.message and "([strip_rules] max_run: 3 at most)" in f.message


def test_run_of_three_aus_is_no_finding(tmp_path):
    cols = valid_columns("base")
    cols[2][41:45] = ["AUS1", "AUS2", "AUS3", "PIC2"]
    cols[2][45] = "PIC1"
    assert findings_of(tmp_path, base=cols) == ()


def test_finding_strip_length_other_than_100(tmp_path):
    cols = valid_columns("bonus")
    cols[3] = cols[3][:95]
    (f,) = findings_of(tmp_path, bonus=cols)
    assert (f.file, f.row, f.column) == (str(tmp_path / "bonus.csv"), 1, 4)
    assert "95" in f.message and "100" in f.message


# ---------------------------------------------------------------------------
# property: garbage in -> a valid set or one clean MathSetError; nothing written
# ---------------------------------------------------------------------------
VALID_BASE = csv_text(valid_columns("base"))
TOKENS = list(MODEL.names) + ["HOOK", "", " ", "reel1", "reel5", "reel6", "WILD", "FS", '"', '""', "\x00",
                              "\r", "\t", "é", "PIC", "100", "-1", ";"]


def csvish(rows):
    return "\n".join(",".join(r) for r in rows)


def mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    for pos, kind, ch in edits:
        i = pos % (len(text) + 1)
        text = (text[:i] + ch + text[i:]) if kind == 0 else (text[:i] + text[i + 1:]) if kind == 1 \
            else (text[:i] + ch + text[i + 1:])
    return text


garbage = st.one_of(
    st.binary(max_size=3000),
    st.text(max_size=600).map(str.encode),
    st.lists(st.lists(st.sampled_from(TOKENS), max_size=7), max_size=40).map(lambda r: csvish(r).encode()),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 2),
                       st.sampled_from(list(',"\n\r\x00 ') + ["é", "X", "1"])), max_size=4)
      .map(lambda e: mutate(VALID_BASE, e).encode("utf-8", "surrogatepass")),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=3)
      .map(lambda e: bytes(b if i not in {p % len(VALID_BASE) for p, _ in e} else dict((p % len(VALID_BASE), v) for p, v in e)[i]
                           for i, b in enumerate(VALID_BASE.encode()))),
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=garbage)
def test_garbage_base_csv_loads_or_raises_clean_error(data):
    with tempfile.TemporaryDirectory() as d:
        directory = write_set(Path(d) / "set", base=data)
        before = snapshot(Path(d))
        try:
            ms = load_math_set(str(directory))
        except MathSetError as e:
            assert e.file == str(directory / "base.csv")
            assert e.row >= 1 and e.column >= 1          # every cell-level problem has a location
            assert "\n" not in str(e) and "\r" not in str(e)
        else:
            assert len(ms.strips["base"].reels) == 5
            assert all(len(r) >= MODEL.rows for r in ms.strips["base"].reels)
        assert snapshot(Path(d)) == before


def test_garbage_property_sometimes_loads():
    """The mutation strategy keeps valid inputs reachable (zero edits = the valid set)."""
    rng = random.Random(7)
    ok = 0
    for _ in range(20):
        text = mutate(VALID_BASE, [(rng.randrange(len(VALID_BASE)), 2, rng.choice(string.ascii_uppercase))])
        with tempfile.TemporaryDirectory() as d:
            try:
                load_math_set(str(write_set(Path(d), base=text)))
                ok += 1
            except MathSetError:
                pass
    assert 0 < ok < 20


# ---------------------------------------------------------------------------
# no default game, shadowed bundled names, short reels, whole-file errors
# ---------------------------------------------------------------------------
def test_raises_set_without_game_file(tmp_path):
    """No default game: a directory of strips without game.toml is refused, naming the directory."""
    write_set(tmp_path)
    (tmp_path / "game.toml").unlink()
    err = load_error(tmp_path)
    assert_error(err, tmp_path, 0, 0, "no game.toml")
    assert str(err) == f"{tmp_path}: {err.message}"      # no fake row and column


def test_whole_file_error_prints_without_row_and_column(tmp_path, capsys):
    from exact.cli import main
    write_set(tmp_path)
    (tmp_path / "bonus.csv").unlink()
    assert main(["--set", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"rtp: error: {tmp_path / 'bonus.csv'}: file not found"
    assert ":0:0" not in err


def test_local_directory_named_like_a_bundled_set_is_used_and_said(tmp_path, monkeypatch, capsys):
    """A directory ./rules_page wins over the bundled set; the CLI says which path it used (stderr)."""
    from exact.cli import main
    from strips.loader import shadow_note
    local = tmp_path / "rules_page"
    cols = valid_columns("base")
    cols[0] = cols[0][:99] + ["PIC1"]          # a different strip: the figures must come from the local one
    write_set(local, base=cols)
    monkeypatch.chdir(tmp_path)
    assert resolve("rules_page") == ("rules_page", Path("rules_page"))
    assert load_math_set("rules_page").strips["base"].reels[0][99] == "PIC1"
    note = shadow_note("rules_page")
    assert note and str(local.resolve()) in note and "bundled" in note
    assert shadow_note("./rules_page") is None and shadow_note("nothing_here") is None
    assert main(["--set", "rules_page", "--json"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(local.resolve()) in err[0]


def test_no_set_is_the_bundled_set_even_beside_a_local_rules_page(tmp_path, monkeypatch, capsys):
    """Plain ``rtp`` (no --set) is the bundled set, as the README says; a ./rules_page directory is
    used only when named (it used to be taken silently)."""
    import json as _json
    from exact.cli import main
    local = tmp_path / "rules_page"
    cols = valid_columns("base")
    cols[0] = cols[0][:99] + ["PIC1"]
    write_set(local, base=cols)
    monkeypatch.chdir(tmp_path)
    assert resolve(None) == ("rules_page", bundled_path("rules_page"))
    assert load_math_set().strips["base"].reels[0][99] == load_math_set(bundled_path("rules_page")).strips["base"].reels[0][99]
    assert main(["--json"]) == 0
    out = capsys.readouterr()
    assert out.err == "" and _json.loads(out.out)["fingerprint"] == _json.loads(_bundled_json(capsys))["fingerprint"]


def _bundled_json(capsys) -> str:
    from exact.cli import main
    assert main(["--set", str(bundled_path("rules_page")), "--json"]) == 0
    return capsys.readouterr().out


def test_bundled_name_without_local_directory_gives_no_note(tmp_path, monkeypatch, capsys):
    from exact.cli import main
    monkeypatch.chdir(tmp_path)
    assert main(["--set", "rules_page", "--json"]) == 0
    assert capsys.readouterr().err == ""


def test_reel_shorter_than_its_neighbours_is_a_finding(tmp_path):
    """Without [strip_rules] length(s), a column that ends early is a finding naming the reel, length and line."""
    game = "\n".join(line for line in GAME_TEXT.splitlines() if not line.strip().startswith("length"))
    assert "length = 100" not in game
    cols = valid_columns("base")
    cols[2] = cols[2][:60]
    write_set(tmp_path, base=cols, game=game)
    ms = load_math_set(str(tmp_path))
    assert ms.strips["base"].lengths == (100, 100, 60, 100, 100)
    found = [f for f in ms.findings if "ends early" in f.message]
    assert len(found) == 1
    f = found[0]
    assert (f.file, f.row, f.column) == (str(tmp_path / "base.csv"), 62, 3)
    assert f.message.startswith("reel 3 has 60 stops, fewer than reel 1 (100)")


def test_declared_reel_lengths_silence_the_short_reel_finding(tmp_path):
    game = GAME_TEXT.replace("length = 100", "lengths = [100, 100, 60, 100, 100]")
    assert game != GAME_TEXT
    cols = valid_columns("base")
    cols[2] = cols[2][:60]
    write_set(tmp_path, base=cols, game=game)
    ms = load_math_set(str(tmp_path))
    assert not any("stops" in f.message for f in ms.findings if "base.csv" in f.file)
    # the bonus strips have 100 stops on reel 3: the declared 60 is broken there
    bonus = [f for f in ms.findings if "bonus.csv" in f.file and "stops" in f.message]
    assert [str(f).split(": ", 1)[1] for f in bonus] == ["reel 3 has 100 stops, [strip_rules] lengths says 60"]


def test_reel_lengths_declared_per_strip_set(tmp_path):
    """lengths = { base = [...] }: the base strips' short reel is declared; the bonus strips (not named) keep the
    short-reel finding, which suggests the per-set form."""
    game = GAME_TEXT.replace("length = 100", "lengths = { base = [100, 100, 60, 100, 100] }")
    cols = valid_columns("base")
    cols[2] = cols[2][:60]
    bonus = valid_columns("bonus")
    bonus[4] = bonus[4][:70]
    write_set(tmp_path, base=cols, bonus=bonus, game=game)
    ms = load_math_set(str(tmp_path))
    assert ms.model.strip_rules.lengths_of("base") == (100, 100, 60, 100, 100)
    assert not [f for f in ms.findings if "base.csv" in f.file and "stops" in f.message]
    found = [f for f in ms.findings if "bonus.csv" in f.file and "stops" in f.message]
    assert [(f.row, f.column) for f in found] == [(72, 5)]
    assert "lengths = { bonus = [100, 100, 100, 100, 70], ... }" in found[0].message


@pytest.mark.parametrize("value, words", [("[100, 100]", ("must be 5 stop counts",)),
                                          ("[100, 100, 0, 100, 100]", ("must be 5 stop counts",)),
                                          ('"100"', ("list of integers",)),
                                          # per strip set: the error is at the strip set's key
                                          ("{ base = [100, 100] }", ("strip_rules.lengths.base", "must be 5")),
                                          ("{ reels = [100, 100, 100, 100, 100] }", ("unknown strip set 'reels'",)),
                                          ('{ base = "100" }', ("strip_rules.lengths.base", "list of integers"))])
def test_raises_bad_strip_rules_lengths(tmp_path, value, words):
    game = GAME_TEXT.replace("length = 100", f"lengths = {value}")
    write_set(tmp_path, game=game)
    err = load_error(tmp_path)
    line = next(i for i, x in enumerate(game.splitlines(), 1) if x.startswith(f"lengths = {value}"))
    column = len("lengths = { ") + 1 if value.startswith("{") else 1
    assert_error(err, tmp_path / "game.toml", line, column, *words)


@pytest.mark.parametrize("old, new, key, words", [
    ("length = 100 ", "length = -100 ", "strip_rules.length", ("at least 1", "-100")),
    ("length = 100 ", "length = 0 ", "strip_rules.length", ("at least 1",)),
    ("min_pay_between_specials = 3 ", "min_pay_between_specials = -1 ", "strip_rules.min_pay_between_specials",
     ("at least 0", "-1")),
    ('"AUS5"], length = 3 }', '"AUS5"], length = -3 }', "strip_rules.max_run.length", ("at least 1", "-3")),
    ('"AUS5"], length = 3 }', '"AUS5"], length = 0 }', "strip_rules.max_run.length", ("at least 1",)),
])
def test_raises_strip_rule_no_strip_can_keep(tmp_path, old, new, key, words):
    """A soft strip rule is a finding when a strip breaks it; a rule no strip can keep (a negative length or
    run) is a bad game file, never silently ignored."""
    game = game_with(old, new)
    write_set(tmp_path, game=game)
    assert_error(load_error(tmp_path), tmp_path / "game.toml", line_of(game, new.strip()),
                 game.splitlines()[line_of(game, new.strip()) - 1].index(key.rsplit(".", 1)[1]) + 1, key, *words)


@pytest.mark.parametrize("value", [0, -2])
def test_raises_level_multiplier_below_one(tmp_path, value):
    game = game_with("threshold = 6\nspins = 8\nmultiplier = 5", f"threshold = 6\nspins = 8\nmultiplier = {value}")
    write_set(tmp_path, game=game)
    assert_error(load_error(tmp_path), tmp_path / "game.toml", line_of(game, f"multiplier = {value}"), 1,
                 "free_spins.levels", "multiplier", "at least 1")


def test_raises_trigger_count_no_window_can_show(tmp_path):
    """The bundled window has 5 x 4 = 20 cells: a trigger of 30 scatters never happens; refused at its key."""
    game = game_with("trigger = { 3 = 10, 4 = 15, 5 = 20 }", "trigger = { 3 = 10, 4 = 15, 5 = 20, 30 = 10 }")
    write_set(tmp_path, game=game)
    line = line_of(game, "30 = 10")
    assert_error(load_error(tmp_path), tmp_path / "game.toml", line, game.splitlines()[line - 1].index("30 =") + 1,
                 "free_spins.trigger.30", "no window can show", "20 cells")


def test_raises_strip_rules_length_and_lengths_together(tmp_path):
    game = GAME_TEXT.replace("length = 100", "length = 100\nlengths = [100, 100, 100, 100, 100]")
    write_set(tmp_path, game=game)
    err = load_error(tmp_path)
    line = next(i for i, x in enumerate(game.splitlines(), 1) if x.startswith("lengths = [100, 100, 100"))
    assert_error(err, tmp_path / "game.toml", line, 1, "not both")


def test_report_shows_reel_lengths_and_cycle(tmp_path, capsys):
    import json
    from exact.cli import main
    cols = valid_columns("base")
    cols[2] = cols[2][:60]
    write_set(tmp_path, base=cols)
    assert main(["--set", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "base strips  5 reels of 100/100/60/100/100 stops, cycle 6,000,000,000 stop combinations" in text
    assert "bonus strips 5 reels of 100/100/100/100/100 stops, cycle 10,000,000,000 stop combinations" in text
    assert main(["--set", str(tmp_path), "--json"]) == 0
    j = json.loads(capsys.readouterr().out)
    assert j["strips"]["base"] == {"lengths": [100, 100, 60, 100, 100], "cycle": 100**4 * 60}
