"""The external reference case: African Simba (Novomatic), reel set 85.225703 of the
MIT-licensed slotopol/server, with the figures published for its full cycle.

The reel strips are third-party data: they are read from ../shared/external at
test time and assembled with the project's own game file into a temporary math
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

ROOT = Path(__file__).resolve().parents[1]
EXTERNAL = ROOT.parent / "shared" / "external" / "african-simba" / "base.csv"
GAME = ROOT / "strips" / "external" / "african_simba" / "game.toml"

pytestmark = pytest.mark.skipif(not EXTERNAL.is_file(), reason=f"third-party strips not found at {EXTERNAL}")


@pytest.fixture(scope="module")
def simba_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("african_simba")
    shutil.copyfile(GAME, d / "game.toml")
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
    assert ga.base.collect_mean == 0 and ga.base.scatter_mean == 0
    assert decimal_text(100 * ga.base.ways_mean / simba.model.bet, 6) == "77.047670"


def test_trigger_and_q_match_published_digits(simba):
    ga = analyse(simba)
    p3 = ga.base.by_scatter.prob[3]
    assert sum(ga.base.by_scatter.prob[4:]) == 0          # SCATTER is on reels 1, 3, 5 only
    assert decimal_text(1 / p3, 2) == "351.17"
    q = p3 * simba.model.initial_spins(3)                   # expected free spins awarded per paid spin
    assert decimal_text(q, 6) == "0.034172"


def test_free_spins_pay_three_times_the_base_ways(simba):
    """Same reels, every win x3: one free spin's mean is exactly 3 x the base spin's."""
    ga = analyse(simba)
    assert ga.levels[0].mean == 3 * ga.base.mean
    assert ga.levels[0].by_scatter.prob == ga.base.by_scatter.prob
