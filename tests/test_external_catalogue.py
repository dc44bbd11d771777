"""External reference cases of the catalogue's payline rules: published games of the MIT-licensed
slotopol/server (../shared/external/<game>/README.md), every published reel set reproduced exactly.

Each game's rules are the project's own game file (strips/external/<game>/game.toml); the reel strips
are third-party data, read from ../shared/external at test time (each base_<RTP>.csv copied into a
temporary math set as base.csv, never into the project).  Every published figure is checked: the RTP
its file name carries (6 decimals), and the base spin's RTP and q where the README prints them.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import exact
from exact.engine import analyse
from exact.report import decimal_text
from markov.round import round_result
from strips.loader import load_math_set

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "external"

#: game folder of ../shared/external -> the project's game file folder under strips/external
GAMES = {"jewels": "jewels", "captains-treasure": "captains_treasure", "double-hot-habanero": "double_hot_habanero",
         "devils-fruits": "devils_fruits", "misty-forest": "misty_forest", "ultra-hot": "ultra_hot",
         "mighty-rex": "mighty_rex", "chicago": "chicago", "forest-nymph": "forest_nymph", "book-of-ra": "book_of_ra",
         "fruit-shop": "fruit_shop"}


def published(game: str) -> list[tuple[str, str, str | None, str | None]]:
    """(csv name, RTP, base spin RTP, q) of every published reel set the README lists."""
    text = (SHARED / game / "README.md").read_text()
    out = []
    for m in re.finditer(r"- `(base_[\d.]+\.csv)`: published RTP \*\*([\d.]+)%\*\* \(base spin ([\d.]+)%"
                         r"(?:, free spins awarded per paid spin q = ([\d.]+))?\)", text):
        out.append((m.group(1), m.group(2), m.group(3), m.group(4)))
    return out


CASES = [(g, *row) for g in GAMES if (SHARED / g / "README.md").is_file() for row in published(g)]


@pytest.mark.skipif(not CASES, reason=f"third-party strips not found at {SHARED}")
def test_every_handed_over_game_lists_three_published_sets():
    for g in GAMES:
        assert len(published(g)) == 3, g


@pytest.mark.parametrize("game, csv, rtp, base, q", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_published_rtp_reproduces_exactly(tmp_path, game, csv, rtp, base, q):
    shutil.copyfile(ROOT / "strips" / "external" / GAMES[game] / "game.toml", tmp_path / "game.toml")
    shutil.copyfile(SHARED / game / csv, tmp_path / "base.csv")
    if (SHARED / game / "bonus.csv").is_file():     # the free spins' strips, one set for every base set
        shutil.copyfile(SHARED / game / "bonus.csv", tmp_path / "bonus.csv")
    ms = load_math_set(tmp_path)
    an = analyse(ms)
    rr = round_result(ms.model, an.base, an.levels)
    cost = ms.model.bet
    assert decimal_text(100 * rr.rtp, 6) == rtp
    assert decimal_text(100 * an.base.mean / cost, 6) == base
    if q is not None:
        assert decimal_text(rr.q, 6) == q


@pytest.mark.skipif(not (SHARED / "devils-fruits").is_dir(), reason=f"third-party strips not found at {SHARED}")
def test_the_by_symbol_table_says_what_share_no_single_symbol_pays(tmp_path):
    """Devils Fruits' ANYBAR group pays wins of mixed symbols: the report's by-symbol table names their share,
    so that the rows and it sum to the base game's line pays exactly (it left 11.7 points out unsaid)."""
    from exact.formatting import percent
    from exact.report import report_text
    shutil.copyfile(ROOT / "strips" / "external" / "devils_fruits" / "game.toml", tmp_path / "game.toml")
    shutil.copyfile(SHARED / "devils-fruits" / "base_88.933143.csv", tmp_path / "base.csv")
    sheet = exact.par_sheet(load_math_set(tmp_path))
    rest = sheet.analysis.base.pays_mean / sheet.bet - sum(r.rtp_total for r in sheet.symbol_rows())
    assert rest > 0
    assert f"not by symbol: {percent(rest, 4)} of the line pays" in report_text(sheet)


FIRST_SETS = [(g, published(g)[0][0]) for g in GAMES if (SHARED / g / "README.md").is_file()]


@pytest.mark.parametrize("game, csv", FIRST_SETS, ids=[g for g, _ in FIRST_SETS])
def test_spin_distributions_have_the_engines_means_or_refuse_by_name(tmp_path, game, csv):
    """Every phase's one-spin distribution (the joint payline chain) has the engine's exact mean, or is refused
    in one line naming the rule, as the win distribution's support says (never a silently wrong figure)."""
    from exact.distribution import spin_distribution
    from exact.rules import supports
    from strips.errors import UnsupportedRule
    shutil.copyfile(ROOT / "strips" / "external" / GAMES[game] / "game.toml", tmp_path / "game.toml")
    shutil.copyfile(SHARED / game / csv, tmp_path / "base.csv")
    if (SHARED / game / "bonus.csv").is_file():
        shutil.copyfile(SHARED / game / "bonus.csv", tmp_path / "bonus.csv")
    ms = load_math_set(tmp_path)
    m, s = ms.model, supports(ms, "distribution")
    phases = [m.base_phase] + [m.level_phase(lv) for lv in m.levels]
    if not s:
        for phase in phases:
            with pytest.raises(UnsupportedRule, match=re.escape(s.reason)):
                spin_distribution(ms, phase)
        return
    an = analyse(ms)
    for phase, a in zip(phases, [an.base, *an.levels]):
        assert spin_distribution(ms, phase).mean == a.mean


@pytest.mark.skipif(not (SHARED / "captains-treasure").is_dir(), reason=f"third-party strips not found at {SHARED}")
def test_comply_never_passes_a_game_it_could_not_check(tmp_path, capsys):
    """Captain's Treasure (both-way pays, ``both_pay = "sum"``): its award odds and its win distribution are not
    computed, so GLI-11 (award odds only) has nothing to check: one line, exit 2, never "0 of 0 checks pass"; and
    the whole comply says that the top award was not checked."""
    from exact.cli import main
    shutil.copyfile(ROOT / "strips" / "external" / "captains_treasure" / "game.toml", tmp_path / "game.toml")
    shutil.copyfile(SHARED / "captains-treasure" / published("captains-treasure")[0][0], tmp_path / "base.csv")
    import json
    assert main(["comply", "--set", str(tmp_path), "--jurisdiction", "gli-11"]) == 2
    assert "none of the chosen rules could be checked" in capsys.readouterr().err
    assert main(["comply", "--set", str(tmp_path), "--json"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    assert doc["checks"] and doc["top_award_checked"] is False and "both-way" in doc["top_award_not_checked"]
