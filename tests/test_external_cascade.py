"""The external cascade case: Gonzo's Quest as the MIT-licensed slotopol/server computes it (reel set
95.310212), with the figures published for its full cycle of 50,722,560 stop combinations.

The reel strips are third-party data: read from ../shared/external/gonzos-quest at test time and
assembled with the project's own game file and published facts (``strips/external/gonzos_quest/``)
into a temporary math set; never copied into the project.  Source of every figure:
../shared/external/gonzos-quest/README.md.  One enumeration of the cycle (the free spins play the same
spins x3, computed once) serves every test of the module.
"""
from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

import exact
from exact.cli import main
from exact.formatting import decimal_text
from strips import limits
from strips.loader import load_math_set

ROOT = Path(__file__).resolve().parents[1]
EXTERNAL = ROOT.parent / "shared" / "external" / "gonzos-quest" / "base.csv"
GAME = ROOT / "strips" / "external" / "gonzos_quest" / "game.toml"
CYCLE = 50_722_560

pytestmark = [pytest.mark.skipif(not EXTERNAL.is_file(), reason=f"third-party strips not found at {EXTERNAL}"),
              pytest.mark.slow]


@pytest.fixture(scope="module")
def gonzo_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("gonzos_quest")
    for f in (GAME, GAME.with_name("published.toml")):
        shutil.copyfile(f, d / f.name)
    shutil.copyfile(EXTERNAL, d / "base.csv")
    return d


@pytest.fixture(scope="module")
def sheet(gonzo_dir):
    with limits.using(limits.active().but(enumeration=10**8)):
        return exact.par_sheet(load_math_set(gonzo_dir))


def test_set_shape_as_published(gonzo_dir):
    ms = load_math_set(gonzo_dir)
    assert ms.strips["base"].lengths == (34, 37, 35, 36, 32) and ms.findings == ()


def test_paid_spin_return_trigger_and_rtp_exactly(sheet):
    base = sheet.analysis.base
    assert base.combinations == CYCLE
    assert base.mean / 20 == Fraction(917248721, 1014451200)               # mu, every fall, no free spins
    assert base.awards_per_spin == Fraction(78, 4403)                      # 898,560 free spins in the cycle
    assert base.awards_per_spin * CYCLE == 898_560
    assert sheet.rtp == Fraction(4181736919039, 4387501440000)              # 95.3102118877%
    assert decimal_text(100 * sheet.rtp, 6) == "95.310212"
    assert sheet.analysis.levels[0].mean == 3 * base.mean                   # free spins: the same spins x3


def test_cascade_counts_and_hits_exactly(sheet):
    f = sheet.analysis.base.falls
    assert f.reach == (CYCLE, 17_002_368, 4_022_784, 974_592, 284_544, 62_208, 12_672, 3_456)   # N[1..8]
    assert f.cut == 0 and f.mean[7] == 0                                    # the 8th fall never wins
    assert decimal_text(f.mean_falls, 5) == "1.44088"
    assert sheet.analysis.base.hit_frequency * CYCLE == 16_963_200
    shares = [decimal_text(100 * m / sheet.analysis.base.mean, 2) for m in f.mean[:7]]
    assert shares == ["53.28", "28.05", "12.97", "4.62", "0.89", "0.16", "0.03"]


def test_rtp_report_and_check_print_the_published_figures(gonzo_dir, capsys):
    assert main(["--set", str(gonzo_dir), "--json", "--digits", "6", "--max-enumeration", str(10**8)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rtp_percent"] == "95.310212" and out["method"] == "enumeration of 50,722,560 stop combinations"
    assert Fraction(out["enumeration"]["falls"]["at_least"]["8"]) == Fraction(3_456, CYCLE)
    assert main(["check", "--set", str(gonzo_dir), "--max-enumeration", str(10**8)]) == 0
