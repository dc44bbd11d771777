"""The external reference case: African Simba (Novomatic), reel set 85.225703 of the
MIT-licensed slotopol/server, with the figures published for its full cycle.

The reel strips are third-party data: they are read from ../shared/external at
test time and assembled with the project's own game file and published facts
(``strips/external/african_simba/{game,published}.toml``) into a temporary math
set; they are never copied into the project.  Source of the published figures:
../shared/external/african-simba/README.md.
"""
from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from exact.cli import main
from exact.engine import analyse
from exact.report import decimal_text
from strips.loader import load_math_set
from exact.rules import initial_spins

ROOT = Path(__file__).resolve().parents[1]
EXTERNAL = ROOT.parent / "shared" / "external" / "african-simba" / "base.csv"
GAME = ROOT / "strips" / "external" / "african_simba" / "game.toml"
PUBLISHED = GAME.with_name("published.toml")

pytestmark = pytest.mark.skipif(not EXTERNAL.is_file(), reason=f"third-party strips not found at {EXTERNAL}")


@pytest.fixture(scope="module")
def simba_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("african_simba")
    shutil.copyfile(GAME, d / "game.toml")
    shutil.copyfile(PUBLISHED, d / "published.toml")
    shutil.copyfile(EXTERNAL, d / "base.csv")
    return d


@pytest.fixture(scope="module")
def simba(simba_dir):
    return load_math_set(simba_dir)


def test_set_shape_as_published(simba):
    assert simba.model.reels == 5 and simba.model.rows == 3
    assert simba.strips["base"].lengths == (42, 41, 43, 41, 42)
    assert simba.model.free_spin_strips == "base"
    assert simba.findings == ()


def test_base_ways_return_matches_published_digits(simba):
    ga = analyse(simba)
    assert ga.base.parts["collect"] == 0 and ga.base.parts["scatter"] == 0
    assert decimal_text(100 * ga.base.parts["pays"] / simba.model.bet, 6) == "77.047670"


def test_trigger_and_q_match_published_digits(simba):
    ga = analyse(simba)
    p3 = ga.base.by_scatter.prob[3]
    assert sum(ga.base.by_scatter.prob[4:]) == 0          # SCATTER is on reels 1, 3, 5 only
    assert decimal_text(1 / p3, 2) == "351.17"
    q = p3 * initial_spins(simba.model, 3)                   # expected free spins awarded per paid spin
    assert decimal_text(q, 6) == "0.034172"


def test_free_spins_pay_three_times_the_base_ways(simba):
    """Same reels, every win x3: one free spin's mean is exactly 3 x the base spin's."""
    ga = analyse(simba)
    assert ga.levels[0].mean == 3 * ga.base.mean
    assert ga.levels[0].by_scatter.prob == ga.base.by_scatter.prob


def test_rtp_report_prints_the_published_figures(simba_dir, capsys):
    """`rtp --set DIR --json` on the assembled set: RTP 85.225703%, trigger 1 in 351.17, q 0.034172."""
    assert main(["--set", str(simba_dir), "--json", "--digits", "6"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rtp_percent"] == "85.225703"
    assert decimal_text(100 * Fraction(out["components"]["base_ways"]) / out["bet"], 6) == "77.047670"
    assert decimal_text(1 / Fraction(out["trigger"]["3"]), 2) == "351.17"
    assert decimal_text(Fraction(out["q"]), 6) == "0.034172"
    comps = sum(Fraction(v) for k, v in out["components"].items() if not k.endswith("_float"))
    assert comps == Fraction(out["mean_win"])


def test_rtp_equals_closed_form_of_the_retrigger_game(simba):
    """RTP = (E[B] + p N0 E[W_fs] / (1 - q_fs)) / cost, the geometric closed form, derived here
    independently of the chain: p = P(trigger), N0 = 12 spins, q_fs = 12 P(3 SCATTER in a free spin)."""
    from markov.round import round_result
    ga = analyse(simba)
    p = ga.base.by_scatter.prob[3]
    q_fs = 12 * ga.levels[0].by_scatter.prob[3]
    expected = (ga.base.mean + p * 12 * ga.levels[0].mean / (1 - q_fs)) / 25
    assert round_result(simba.model, ga.base, ga.levels).rtp == expected


def test_rtp_check_passes_every_published_fact(simba_dir, capsys):
    """`rtp check` reads the set's published.toml: the README's four figures and its rules, all PASS."""
    assert main(["check", "--set", str(simba_dir), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["passed"] is True
    by_figure = {f["figure"]: f for f in out["facts"] if f["figure"]}
    assert by_figure["rtp"]["published"] == "85.225703%" and by_figure["rtp"]["status"] == "PASS"
    assert by_figure["rtp"]["exact"]["fraction"] == "6142812426/7207699345"
    assert by_figure["trigger.3"]["shown"] == "1 in 351.17"
    assert by_figure["q"]["shown"] == "0.034172"
    assert by_figure["components.base_ways"]["shown"] == "77.047670%"
    assert len(out["facts"]) == 21 and all(f["status"] == "PASS" for f in out["facts"])


@pytest.mark.parametrize("old, new, fact", [
    ('printed = "85.225703%"', 'printed = "85.225704%"', "RTP"),
    ('printed = "1 in 351.17"', 'printed = "1 in 351.18"', "free-spin trigger, 1 in N spins"),
    ('printed = "77.047670%"', 'printed = "77.04767%"', None),            # fewer digits: still PASS
])
def test_rtp_check_fails_naming_a_wrong_printed_figure(simba_dir, tmp_path, capsys, old, new, fact):
    d = tmp_path / "simba"
    shutil.copytree(simba_dir, d)
    text = (d / "published.toml").read_text()
    assert old in text
    (d / "published.toml").write_text(text.replace(old, new))
    code = main(["check", "--set", str(d)])
    out = capsys.readouterr().out
    if fact is None:
        assert code == 0 and "21 of 21 facts pass" in out
        return
    assert code == 1 and "20 of 21 facts pass; 1 FAIL" in out
    assert f"FAIL               {fact} [README, published figures]" in out


def test_report_shows_the_published_trigger_beside_the_exact_one(simba_dir, capsys):
    """The trigger table's published/check columns come from published.toml, for any game."""
    assert main(["--set", str(simba_dir), "--check"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("3 SCATTER"))
    assert "1 in 351.17" in row and row.rstrip().endswith("PASS")
    assert "21 of 21 pass" in out
