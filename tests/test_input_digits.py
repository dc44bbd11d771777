"""Numbers bounded on input, huge exact values bounded on output.

Every integer and fraction of game.toml, rules files and checkpoints has a digit limit (``--max-digits``
for the game file, far below Python's 4,300-digit integer-string limit): refused at its key with file,
row and column, exit 2, one line.  Every view prints an exact value of more than EXACT_DIGITS digits by
its digit counts, without converting the integer to text.
"""
from __future__ import annotations

import json
import shutil
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from exact.facts import json_value
from exact.formatting import fraction_text, short_fraction_text
from generators import run
from strips.decimals import EXACT_DIGITS, decimal_text, digit_count, exact_text
from strips.loader import bundled_path

HUGE = Fraction(10 ** 5000 + 7, 3 ** 9000)


def set_copy(tmp_path, name) -> Path:
    d = tmp_path / name
    shutil.copytree(bundled_path(name), d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__", "*.md"))
    return d


def one_line_refusal(argv) -> str:
    code, _, err = run(argv)
    assert code == 2 and len(err.strip().splitlines()) == 1, (code, err)
    assert "Traceback" not in err and "sys." not in err and "4300" not in err
    return err.strip()


@pytest.mark.parametrize("key,old,new", [
    ("gamble.probability", 'probability = "12/25"', 'probability = "1/' + "7" * 5000 + '"'),
    ("gamble.probability", 'probability = "12/25"', 'probability = "' + "1" * 13 + '/' + "3" * 14 + '"'),
    ("gamble_wheel.return", 'return = "24/25"', 'return = "' + "2" * 4400 + '/25"'),
])
def test_a_long_fraction_in_the_game_file_is_refused_at_its_key(tmp_path, key, old, new):
    d = set_copy(tmp_path, "wheel_game")
    text = (d / "game.toml").read_text()
    assert old in text
    (d / "game.toml").write_text(text.replace(old, new))
    row = text[:text.index(old)].count("\n") + 1
    for argv in (["check"], ["spin", "--stops", "0,0,0,0,0"], ["--json"]):
        err = one_line_refusal(argv + ["--set", str(d)])
        assert f"game.toml:{row}:1: {key}: " in err and "digits in a fraction" in err and "--max-digits" in err


@pytest.mark.parametrize("text,what", [
    ('[[rules]]\nid = "x"\njurisdiction = "own"\nmeasure = "rtp"\nmin = "92%"\ndecimals = ' + "9" * 5000 + "\n",
     "digits in an integer"),
    ('[[rules]]\nid = "x\\u001b[2J"\njurisdiction = "own"\nmeasure = "rtp"\nmin = "92%"\n', "control or invisible"),
    ('[[rules]]\nid = "x"\njurisdiction = "own"\nmeasure = "rtp"\nmin = "92%"\ndecimals = 10000\n',
     "decimals must be an integer from 0 to 20"),
])
def test_rules_file_numbers_and_names_are_bounded(tmp_path, text, what):
    f = tmp_path / "own.toml"
    f.write_text(text)
    err = one_line_refusal(["comply", "--rules", str(f)])
    assert what in err and "own.toml:" in err and "\x1b" not in err


def test_rules_file_is_bounded_by_max_file_bytes(tmp_path):
    f = tmp_path / "own.toml"
    f.write_text('[[rules]]\nid = "x"\njurisdiction = "own"\nmeasure = "rtp"\nmin = "92%"\n' + "# pad\n" * 2000)
    err = one_line_refusal(["comply", "--rules", str(f), "--max-file-bytes", "1000"])
    assert "own.toml" in err and "--max-file-bytes" in err


def test_digit_count_without_text():
    for n in (0, 9, 10, 10 ** 17, 10 ** 18 - 1, 10 ** 18, 2 ** 200, 10 ** 4299, 10 ** 4300 - 1):
        assert digit_count(n) == digit_count(-n) == len(str(n))
    assert digit_count(10 ** 100_000) == 100_001 and digit_count(10 ** 100_000 - 1) == 100_000


def test_every_view_shortens_a_huge_exact_value_without_converting_it(monkeypatch):
    dn, dd = digit_count(HUGE.numerator), digit_count(HUGE.denominator)
    want = f"(fraction of {dn:,}/{dd:,} digits)"
    assert max(dn, dd) > sys.get_int_max_str_digits() > EXACT_DIGITS
    monkeypatch.setattr(sys, "set_int_max_str_digits", None)   # nothing lifts Python's limit
    assert exact_text(HUGE) == fraction_text(HUGE) == short_fraction_text(HUGE) == want
    assert json_value(HUGE) == {"fraction": want, "float": None}          # about 10^706: past the float range
    assert json.loads(json.dumps(json_value(1 / HUGE))) == {"fraction": f"(fraction of {dd:,}/{dn:,} digits)",
                                                            "float": 0.0}
    assert decimal_text(Fraction(10 ** 5000, 3), 2) == "(number of 5,000 digits)"
    small = Fraction(10 ** 3999, 7)
    assert exact_text(small) == f"{10 ** 3999}/7"   # below the limit: every digit


def test_long_checkpoint_integers_are_a_bad_record_not_a_crash(tmp_path):
    from proofs.enumerate import enumerate_phase, set_hash
    from generators import random_set
    ms = random_set(tmp_path / "s", 31, lengths=(6, 5, 5, 6, 5), special_share=0.25)
    clean = enumerate_phase(ms, workers=1, task_stops=1)
    e = enumerate_phase(ms, workers=1, task_stops=1, checkpoint_dir=tmp_path / "ck")
    path = tmp_path / "ck" / f"{set_hash(ms, ms.model.base_phase)}.jsonl"
    lines = path.read_text().splitlines()
    rec = json.loads(lines[0])
    lines[0] = lines[0].replace(f'"combinations": {rec["combinations"]}', '"combinations": ' + "9" * 5000, 1)
    path.write_text("\n".join(lines) + "\n")
    again = enumerate_phase(ms, workers=1, task_stops=1, checkpoint_dir=tmp_path / "ck")
    assert again.totals == clean.totals == e.totals and again.computed_tasks == 1
    assert "5,000 digits" in again.bad_records[0]
