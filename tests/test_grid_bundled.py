"""The bundled 5x5 grid set with every random feature, the four free-spin games and a win cap
(strips/finn), the grid workbook (rtp export) and the calibration by a feature's probabilities: small
runs only (the certified figures of the set are its README's, measured in the benchmarks)."""
from __future__ import annotations

import csv
import json
import zipfile

from exact.cli import main
from proofs.grid_calibrate import calibrate
from strips.loader import load_math_set
from tests.gen_grid import write_grid

FEATURES = '''
[features.irish_luck]
probability = { no_win = "1/10" }
orientation = { row = 1, column = 2 }
symbols = { A = 1, B = 2 }

[features.magic_transform]
probability = { win = "1/9", no_win = "1/11" }
from = ["B", "C"]
to = { A = 1, B = 3 }

[free_spins.games.lucky_mug]
spins = 2
'''


def test_the_bundled_set_simulates_every_feature_game_and_the_cap(capsys):
    assert main(["simulate", "--set", "finn", "--rounds", "20000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "simulation" and out["rounds"] == 20000 and out["default_choice"] == "star_bar"
    assert set(out["features"]) == {"starfall_wilds", "dragon_destroy", "irish_luck", "magic_transform"}
    assert set(out["free_spin_games"]) == {"star_bar", "lava_lair", "lucky_mug", "golden_pot"}
    assert out["free_spin_games"]["star_bar"]["rtp"] == out["rtp"]
    lo, hi = out["rtp_ci99"]
    assert lo < out["rtp"] < hi and out["win_cap"]["bets"] == 2500 and out["win_cap"]["coins"] == 25000
    shares = out["base_game"]["rtp_share"] + out["free_spins"]["rtp_share"] + sum(
        f["rtp_share"] for f in out["features"].values())
    assert abs(shares - 1 - out["win_cap"]["removed_rtp"] / out["rtp"]) < 1e-9
    assert "/" in out["first_drop"]["no_win"] and out["lowest_choice"] in out["free_spin_games"]


def test_a_grid_workbook_has_its_sections_and_one_line_per_sheet_it_cannot_make(tmp_path, capsys):
    d = str(write_grid(tmp_path / "g", rows=3, columns=3, extra=FEATURES))
    xl = tmp_path / "g.xlsx"
    argv = ["export", "--set", d, "--target-halfwidth", "0.5", "--max-rounds", "20000"]
    assert main(argv + ["--xlsx", str(xl)]) == 0
    names = zipfile.ZipFile(xl).read("xl/workbook.xml").decode()
    for sheet in ("Summary", "RTP split", "Free-spin games", "Win ranges", "Evaluations", "First drop", "Not made"):
        assert f'name="{sheet}"' in names, sheet
    assert main(argv + ["--csv", str(tmp_path / "csv")]) == 0
    capsys.readouterr()
    rows = list(csv.reader((tmp_path / "csv" / "not_made.csv").open(encoding="utf-8")))
    assert [r[0] for r in rows[1:]] == ["Reel strips", "Pays by symbol", "Compliance", "Win distribution (exact)"]
    assert all(r[1] and "\n" not in r[1] for r in rows[1:])
    split = list(csv.reader((tmp_path / "csv" / "rtp_split.csv").open(encoding="utf-8")))
    assert [r[0] for r in split[1:]] == ["base game without a feature", "feature irish_luck",
                                         "feature magic_transform", "free spins (lucky_mug)"]


def test_calibration_keeps_a_feature_s_probabilities_at_the_simulated_rtp(tmp_path):
    ms = load_math_set(str(write_grid(tmp_path / "g", rows=2, columns=3, extra=FEATURES)))
    first = calibrate(ms, "magic_transform", 1.0, 20_000, 3)
    again = calibrate(ms, "magic_transform", first["rtp_before"], 20_000, 3)
    assert first["slope"] > 0 and abs(again["scale"] - 1) < 1e-9
    assert (first["scale"] > 1) == (first["rtp_before"] < 1.0)
