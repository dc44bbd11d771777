"""The external reference case for line games: Dolphin's Pearl (Novomatic), base reel set
96.178109 and the bonus reel set of the MIT-licensed slotopol/server, with the figures
published for their full cycles.

The reel strips are third-party data: they are read from ../shared/external at test time
and assembled with the project's own game file (strips/external/dolphins_pearl/game.toml)
into a temporary math set; they are never copied into the project.  Source of the
published figures: ../shared/external/dolphins-pearl/README.md.
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
from markov.retrigger import retrigger_of, subtree_moments
from markov.round import round_result
from strips.loader import load_math_set

ROOT = Path(__file__).resolve().parents[1]
EXTERNAL = ROOT.parent / "shared" / "external" / "dolphins-pearl"
GAME = ROOT / "strips" / "external" / "dolphins_pearl" / "game.toml"

pytestmark = pytest.mark.skipif(not (EXTERNAL / "base.csv").is_file(),
                                reason=f"third-party strips not found at {EXTERNAL}")


@pytest.fixture(scope="module")
def pearl_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("dolphins_pearl")
    shutil.copyfile(GAME, d / "game.toml")
    for f in ("base.csv", "bonus.csv"):
        shutil.copyfile(EXTERNAL / f, d / f)
    return d


@pytest.fixture(scope="module")
def pearl(pearl_dir):
    return load_math_set(pearl_dir)


@pytest.fixture(scope="module")
def analysis(pearl):
    return analyse(pearl)


def pct(x: Fraction, digits: int) -> str:
    return decimal_text(100 * x, digits)


def test_its_own_data_loads_without_findings(pearl):
    """The game file declares the published reel lengths per strip set: the set's own strips raise no finding."""
    assert pearl.findings == ()
    assert pearl.model.strip_rules.lengths_of("bonus") == (33, 36, 36, 36, 36)


def test_set_shape_as_published(pearl):
    from math import prod
    assert pearl.model.is_lines and len(pearl.model.paylines) == 10
    assert pearl.strips["base"].lengths == (30, 43, 43, 43, 43)
    assert pearl.strips["bonus"].lengths == (33, 36, 36, 36, 36)
    assert prod(pearl.strips["base"].lengths) == 102_564_030
    assert prod(pearl.strips["bonus"].lengths) == 55_427_328


def test_base_game_line_and_scatter_shares(pearl, analysis):
    cost = pearl.model.bet
    b = analysis.base
    assert pct(b.parts["pays"] / cost, 3) == "49.522"
    assert pct(b.parts["scatter"] / cost, 3) == "11.288"
    assert pct(b.mean / cost, 6) == "60.809506"


def test_trigger_and_q(pearl, analysis):
    rr = round_result(pearl.model, analysis.base, analysis.levels)
    assert decimal_text(1 / rr.trigger_probability, 2) == "262.16"
    assert decimal_text(rr.q, 6) == "0.057217"


def test_one_free_spin_and_its_series(pearl, analysis):
    cost = pearl.model.bet
    fs = analysis.levels[0]
    assert pct(fs.parts["pays"] / cost, 2) == "226.19"
    assert pct(fs.parts["scatter"] / cost, 2) == "144.15"
    assert pct(fs.mean / cost, 6) == "370.339985"
    chain = retrigger_of(pearl.model, analysis.levels)
    assert decimal_text(chain.expected_extra, 5) == "0.40088"
    series, _, _ = subtree_moments(chain)     # one awarded spin and everything it retriggers
    assert pct(series / cost, 6) == "618.143873"


def test_rtp_is_base_plus_q_times_series(pearl, analysis):
    rr = round_result(pearl.model, analysis.base, analysis.levels)
    assert pct(rr.rtp, 6) == "96.178109"
    series, _, _ = subtree_moments(retrigger_of(pearl.model, analysis.levels))
    assert rr.rtp == (analysis.base.mean + rr.q * series) / pearl.model.bet


def test_rtp_report_prints_the_published_figures(pearl_dir, capsys):
    assert main(["--set", str(pearl_dir), "--json", "--digits", "6"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rtp_percent"] == "96.178109"
    assert decimal_text(1 / Fraction(out["trigger_any"]), 2) == "262.16"
    assert sum(Fraction(v) for k, v in out["trigger"].items() if not k.endswith("_float")) == Fraction(out["trigger_any"])
    assert decimal_text(Fraction(out["q"]), 6) == "0.057217"


def test_report_json_lists_each_payline(pearl_dir, pearl, analysis, capsys):
    """Per-line figures: every payline of a uniform-stop game returns the same, and they sum to the line wins."""
    assert main(["--set", str(pearl_dir), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    lines = out["paylines"]
    assert [x["line"] for x in lines] == list(range(1, 11))
    assert sum(Fraction(x["rtp"]) for x in lines) * pearl.model.bet == analysis.base.parts["pays"]
    assert len({x["rtp"] for x in lines}) == 1 and len({x["hit"] for x in lines}) == 1


def test_the_spin_distributions_have_the_engines_means_exactly(pearl, analysis):
    """The joint payline chain's one-spin distributions (base, free spin): their means are the engine's exact
    phase means, their probabilities sum to 1, their cycles are the strips' stop combinations."""
    from exact.distribution import spin_distribution
    model = pearl.model
    for phase, an in zip([model.base_phase] + [model.level_phase(lv) for lv in model.levels],
                         [analysis.base, *analysis.levels]):
        d = spin_distribution(pearl, phase)
        assert d.mean == an.mean
        assert sum(d.joint().values()) == 1
        assert d.count_probabilities() == {n: p for n, p in enumerate(an.trigger_split.prob) if p}


@pytest.mark.slow
def test_distribution_plot_export_and_comply_run(pearl_dir, tmp_path, capsys):
    """``rtp distribution --plot``, ``rtp export --distribution`` and ``rtp comply`` (its top award not checked:
    the endless retrigger has no largest round win) on Dolphin's Pearl (opt-in: the round's FFT takes seconds)."""
    png, xlsx = tmp_path / "d.png", tmp_path / "d.xlsx"
    assert main(["distribution", "--set", str(pearl_dir), "--plot", str(png)]) == 0 and png.stat().st_size
    assert main(["export", "--set", str(pearl_dir), "--xlsx", str(xlsx), "--distribution"]) == 0
    capsys.readouterr()
    assert main(["comply", "--set", str(pearl_dir), "--json"]) in (0, 1)
    out = json.loads(capsys.readouterr().out)
    assert out["top_award_checked"] is False and "endless retrigger" in out["top_award_not_checked"]
    assert not any(c["item"].startswith("max win") for c in out["checks"])
