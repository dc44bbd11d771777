"""Messages that say what happened: each case of the reliability probe gives one line (exit 2) naming
the real cause, and every option and file is bounded like the game files."""
from __future__ import annotations

import socket
import threading

import pytest

import exact.cli.spin
from generators import run
from strips.toml_reader import TomlFile


def one_line(argv) -> str:
    code, _, err = run(argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (code, err)
    return err.strip()


def test_a_service_that_is_not_dask_is_named_so_not_out_of_memory():
    """A server that answers with an HTTP line (read by Dask as a frame length of terabytes: MemoryError)."""
    from proofs.dask_runner import Cluster, _connect
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    port = server.getsockname()[1]

    def serve():
        while True:
            try:
                c, _ = server.accept()
            except OSError:
                return
            try:
                c.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
                c.recv(1024)
            except OSError:
                pass
            c.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        with pytest.raises(ValueError, match=f"tcp://127.0.0.1:{port}: the service there does not answer as a "
                                             f"Dask scheduler"):
            _connect(Cluster(scheduler=f"tcp://127.0.0.1:{port}", timeout=1.0))
    finally:
        server.close()


@pytest.mark.parametrize("extra,hint", [([], "within the default limits"), (["--no-limits"], "drop --no-limits")])
def test_out_of_memory_names_no_limits_only_when_it_was_given(monkeypatch, extra, hint):
    def exhausted(args):
        raise MemoryError
    monkeypatch.setattr(exact.cli.spin, "run", exhausted)
    err = one_line(["spin", "--stops", "0,0,0,0,0"] + extra)
    assert "out of memory" in err and hint in err
    assert ("--no-limits" in err) == bool(extra)


@pytest.mark.parametrize("argv,what", [
    (["--hit-tolerance", "-1", "--keep", "hit-frequency"], "--hit-tolerance must be at least 0"),
    (["--hit-tolerance", "0.01"], "--hit-tolerance applies to --keep hit-frequency only"),
    (["--hit-tolerance", "1e999999999", "--keep", "hit-frequency"], "without an exponent"),
    (["--tolerance", "9" * 100], "at most 40 characters"),
])
def test_tune_numbers_are_bounded(tmp_path, argv, what):
    err = one_line(["tune", "--target-rtp", "0.95", "--out", str(tmp_path / "v")] + argv)
    assert what in err and err.startswith("rtp tune:")


@pytest.mark.parametrize("ranges,what", [
    (",".join(str(i) for i in range(201)), "201 edges, more than the 200"),
    ("0,1e999999999", "without an exponent"),
])
def test_distribution_ranges_are_bounded(ranges, what):
    err = one_line(["distribution", "--ranges", ranges])
    assert what in err and "--ranges" in err


class CountingLines(list):
    reads = 0

    def __getitem__(self, i):
        CountingLines.reads += 1
        return super().__getitem__(i)


def test_locating_every_fact_of_a_long_published_file_is_linear():
    """50,000 facts once took minutes: each lookup scanned the whole file.  Now the table headers are found
    once, so locating all n facts reads O(n) lines (a quadratic reading would read n^2)."""
    n = 2000
    text = "".join(f'[[facts]]\nfigure = "trigger.3"\nprinted = "0.{i:06d}"\nlabel = "x"\n\n' for i in range(n))
    t = TomlFile(text, "published.toml")
    t.lines = CountingLines(t.lines)
    CountingLines.reads = 0
    rows = [t.locate(("facts", i, "printed"))[0] for i in range(n)]
    assert rows == [5 * i + 3 for i in range(n)]
    assert CountingLines.reads < 20 * n


@pytest.mark.parametrize("award,what", [("free_spins 1001", "1,001 free spins of the award"),
                                        ("free_spins 1" + "0" * 5000, "5,001 digits in an integer")])
def test_a_wheel_award_of_free_spins_is_bounded_by_max_spins(tmp_path, award, what):
    import shutil
    from strips.loader import bundled_path
    d = tmp_path / "set"
    shutil.copytree(bundled_path("wheel_game"), d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    text = (d / "game.toml").read_text()
    old = '"free_spins 6 rollin_bones"'
    assert old in text
    (d / "game.toml").write_text(text.replace(old, f'"{award} rollin_bones"', 1))
    row = text[:text.index(old)].count("\n") + 1
    err = one_line(["comply", "--no-distribution", "--set", str(d)])
    assert f"game.toml:{row}:1: wheel.bonus.prizes." in err and what in err


def copied_set(tmp_path, name: str):
    import shutil
    from strips.loader import bundled_path
    d = tmp_path / name
    shutil.copytree(bundled_path(name), d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    return d


def test_an_unknown_published_key_names_its_entry_one_way(tmp_path):
    """The key path and the table in words name the same entry of the array (from 1, as the path does)."""
    d = copied_set(tmp_path, "rules_page")
    text = (d / "published.toml").read_text()
    first = 'source = "section 10"\n'
    (d / "published.toml").write_text(text.replace(first, first + "bogus = 1\n", 1))
    err = one_line(["check", "--set", str(d)])
    assert "facts[1].bogus" in err and "in [facts[1]]" in err and "facts.0" not in err


def test_an_unclosed_array_is_located_where_it_opens(tmp_path):
    d = copied_set(tmp_path, "rules_page")
    lines = (d / "game.toml").read_text().split("\n")
    row = next(i for i, x in enumerate(lines) if x.startswith("pays = [")) + 1
    lines[row - 1] = lines[row - 1].rstrip("]")
    (d / "game.toml").write_text("\n".join(lines))
    err = one_line(["check", "--set", str(d)])
    assert f"game.toml:{row}:{lines[row - 1].index('[') + 1}: malformed TOML: Unclosed array" in err


def test_features_over_one_are_located_at_the_entry_that_passes_one(tmp_path):
    d = copied_set(tmp_path, "finn")
    text = (d / "game.toml").read_text()
    old = "[features.irish_luck]\nprobability = { no_win = "
    assert old in text
    start = text.index(old) + len(old)
    text = text[:start] + '"1/1"' + text[text.index("}", start) - 1:]
    (d / "game.toml").write_text(text)
    err = one_line(["spin", "--set", str(d), "--seed", "1"])
    row = text[:start].count("\n") + 1
    assert f"game.toml:{row}:" in err and "features.irish_luck.probability.no_win" in err


def test_a_supported_list_names_each_key_once():
    from strips.toml_reader import refuse_unknown
    from strips.errors import MathSetError
    with pytest.raises(MathSetError) as e:
        refuse_unknown(TomlFile("x = 1\n", "g.toml"), {"x": 1}, (), ("a", "symbols", "symbols", "b"), "key")
    assert "(supported: a, symbols, b)" in str(e.value)


def test_a_grid_spin_without_cells_names_the_set():
    err = one_line(["spin", "--set", "finn"])
    assert err.startswith("rtp spin: finn: give --cells")


def test_hold_and_win_names_the_rule_it_does_not_model_with(tmp_path):
    d = copied_set(tmp_path, "hold_and_win")
    text = (d / "game.toml").read_text()
    (d / "game.toml").write_text(text.replace("[game]\n", "[game]\nmax_win = 2000\n", 1))
    err = one_line(["--set", str(d)])
    assert "hold and win with the win cap rule" in err


def test_a_rules_file_without_section_or_version_cites_its_source_alone(tmp_path):
    f = tmp_path / "lab.toml"
    f.write_text('[[rules]]\nid = "lab-rtp"\njurisdiction = "lab"\nmeasure = "rtp"\nmin = "0.9"\nsource = "lab"\n')
    code, out, err = run(["comply", "--no-distribution", "--rules", str(f)])
    assert code in (0, 1), err
    assert "  lab-rtp: lab\n" in out and "()" not in out


@pytest.mark.parametrize("value", ["abc", "-1", "nan", "inf"])
def test_a_round_budget_that_is_no_number_of_seconds_is_refused(monkeypatch, value):
    """RTP_ROUND_BUDGET set to anything but a number of seconds >= 0: one line, exit 2 (it was ignored)."""
    monkeypatch.setenv("RTP_ROUND_BUDGET", value)
    code, _, err = run([])
    assert code == 2 and err.strip().count("\n") == 0 and "RTP_ROUND_BUDGET must be a number of seconds >= 0" in err


def _rules_page_copy(tmp_path):
    """Copy the bundled rules-page set's game and strip files into ``tmp_path``; returns it."""
    import shutil
    from pathlib import Path
    src = Path(__file__).resolve().parents[1] / "strips" / "rules_page"
    for f in src.iterdir():
        if f.suffix in (".toml", ".csv"):
            shutil.copyfile(f, tmp_path / f.name)
    return tmp_path


def test_a_negative_level_threshold_says_so(tmp_path):
    """A level's KEY threshold below 0 is named as such, apart from a threshold below the level before's."""
    _rules_page_copy(tmp_path)
    text = (tmp_path / "game.toml").read_text()
    (tmp_path / "game.toml").write_text(text.replace("threshold = 6", "threshold = -3", 1))
    code, _, err = run(["--set", str(tmp_path)])
    assert code == 2 and "level 3 threshold must be >= 0 (a KEY count), got -3" in err
    (tmp_path / "game.toml").write_text(text.replace("threshold = 6", "threshold = 2", 1))
    code, _, err = run(["--set", str(tmp_path)])
    assert code == 2 and "level 3 threshold must not fall below level 2's (3)" in err


def test_check_on_a_published_file_without_facts_names_the_file(tmp_path):
    """An empty published.toml: nothing to check, said of that file (it said there was no published.toml)."""
    _rules_page_copy(tmp_path)
    (tmp_path / "published.toml").write_text("")
    code, out, _ = run(["check", "--set", str(tmp_path)])
    assert code == 0 and "published.toml holds no fact, nothing to check" in out


@pytest.mark.parametrize("extra", [["--max-digits", "6000"], ["--max-digits", "4300"], []])
def test_a_number_past_the_digits_python_reads_is_located_whatever_the_limit(tmp_path, extra):
    """A 5,000-digit bet: its own row, column and digit count, whatever --max-digits says (with --max-digits
    6000 it said game.toml:1:1: 4,301 digits; with 4300 it advised raising --max-digits, which cannot help)."""
    d = _rules_page_copy(tmp_path)
    text = (d / "game.toml").read_text()
    (d / "game.toml").write_text(text.replace("bet = 10 ", "bet = " + "9" * 5000 + " ", 1))
    row = next(i for i, line in enumerate((d / "game.toml").read_text().splitlines(), 1) if line.startswith("bet = 9"))
    err = one_line(["--set", str(d)] + extra)
    assert f"game.toml:{row}:7: " in err and "5,000 digits in an integer" in err and "4,300 digits" in err
    assert ("raise it with --max-digits" in err) is False


def test_a_number_too_large_for_a_raised_limit_names_the_raised_option_only(monkeypatch):
    """An overflow after --max-digits was raised names that option, never a --no-limits that was not given."""
    def overflow(args):
        raise OverflowError("Python int too large to convert to C long")
    monkeypatch.setattr(exact.cli.spin, "run", overflow)
    err = one_line(["spin", "--stops", "0,0,0,0,0", "--max-digits", "20"])
    assert "lower --max-digits" in err and "--no-limits" not in err
    err = one_line(["spin", "--stops", "0,0,0,0,0", "--no-limits"])
    assert "drop --no-limits" in err


def test_a_negative_value_after_a_space_is_read_as_the_value():
    """rtp spin --stops -1,0,0,0,0 says what is wrong with the stop (it said: expected one argument)."""
    assert "stop -1 of reel 1 is outside 0..99" in one_line(["spin", "--stops", "-1,0,0,0,0"])
    assert "--ranges must start at 0" in one_line(["distribution", "--ranges", "-1,0,1"])


@pytest.mark.parametrize("value", ['"cluster"', '"scatter"', "5"])
def test_an_unknown_evaluation_is_named_at_its_key(tmp_path, value):
    """[game] evaluation = "cluster" (a typo) is refused at that key with the evaluations known (it was read
    as ways, and the symbols' pays were refused instead)."""
    (tmp_path / "game.toml").write_text(f'[game]\nname = "g"\nreels = 3\nrows = 2\nbet = 1\nevaluation = {value}\n'
                                        '[strips]\nbase = "base.csv"\n[symbols.A]\nclass = "pay"\n'
                                        'pays = [0, 0, 0, 0, 2, 5]\n')
    (tmp_path / "base.csv").write_text("reel1,reel2,reel3\nA,A,A\nA,A,A\n")
    err = one_line(["--set", str(tmp_path)])
    assert "game.toml:6:" in err and "game.evaluation" in err and "pays" not in err
