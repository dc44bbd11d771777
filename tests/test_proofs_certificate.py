"""The certificate: sympy derivations against an independent count, examples, `rtp prove`, and the
committed proofs/CERTIFICATE.md against a fresh regeneration of its deterministic part."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from exact.cli import main
from exact.engine import analyse
from strips.model import KEY, SCATTER
from proofs.certificate import build, count_formula, decimal, example_checks
from proofs.enumerate import enumerate_phase
from proofs.prove import BEGIN, END, deterministic_part, render_deterministic
from strips.loader import bundled_path, load_math_set
from generators import random_set, write_random_set

COMMITTED = Path(__file__).resolve().parents[1] / "proofs" / "CERTIFICATE.md"


def test_decimal_is_exact_half_up():
    assert decimal(Fraction(1, 8), 2) == "0.13"
    assert decimal(Fraction(-1, 8), 2) == "-0.13"
    assert decimal(Fraction(2, 3), 0) == "1"


def test_count_formulas_equal_enumerated_counts(tmp_path):
    # special_share 0: each allowed special exactly once per reel, so a window shows at most one FS / KEY
    ms = random_set(tmp_path / "s", 3, lengths=(12, 13, 14, 12, 13), special_share=0.0)
    e = enumerate_phase(ms, workers=1)
    for kind, oracle in ((SCATTER, e.scatter_prob), (KEY, e.key_prob)):
        f = count_formula(ms, ms.model.base_phase, kind)
        assert not f.general
        n = max(len(f.values), len(oracle))
        pad = lambda xs: list(xs) + [Fraction(0)] * (n - len(xs))  # noqa: E731
        assert pad(f.values) == pad(oracle)
        assert sum(f.values) == 1
    fs = count_formula(ms, ms.model.base_phase, SCATTER)
    assert fs.reels == (1, 2, 3, 4, 5)
    assert str(fs.formulas[5]) == "p1*p2*p3*p4*p5"


def test_count_formula_general_case(tmp_path):
    ms = random_set(tmp_path / "s", 4, lengths=(5, 5, 5, 5, 5), special_share=0.9)
    t = count_formula(ms, ms.model.base_phase, SCATTER)
    assert t.general and t.formulas == ()
    with pytest.raises(ValueError):
        count_formula(ms, ms.model.base_phase, "wild")


def test_examples_fail_on_other_strips(tmp_path):
    d = write_random_set(tmp_path / "s", 5, lengths=(100,) * 5, special_share=0.1)
    assert example_checks(load_math_set(str(d))) == []        # publishes no example: nothing to evaluate
    (d / "published.toml").write_bytes((bundled_path("rules_page") / "published.toml").read_bytes())
    checks = example_checks(load_math_set(str(d)))
    assert len(checks) == 9
    assert not all(c.passed for c in checks)


def test_prove_cli_on_a_user_set(tmp_path, capsys):
    d = write_random_set(tmp_path / "set", 6, lengths=(8, 9, 8, 9, 8), special_share=0.25)
    (d / "published.toml").write_bytes((bundled_path("rules_page") / "published.toml").read_bytes())
    out = tmp_path / "report" / "cert.md"
    out.parent.mkdir()
    code = main(["prove", "--set", str(d), "--exhaustive", "--rounds", "20000", "--seed", "2",
                 "--out", str(out), "--workers", "1", "--checkpoint-dir", str(tmp_path / "ck")])
    text = out.read_text()
    assert code == 1  # a random set cannot honour the published facts
    assert "Enumeration = factorisation: PASS" in text
    assert "| FAIL |" in text and "## Verdict: FAIL" in text
    assert BEGIN in text and END in text
    # the certificate says how to make it again, with which version, when (new-user finding)
    import shlex
    from exact import __version__
    assert f"Made by `rtp prove --set {shlex.quote(str(d))} --exhaustive --rounds 20000 --seed 2`" in text
    assert f"Run: rtp (slot-exact) {__version__}, 20" in text and " UTC." in text
    assert sorted(p.name for p in d.iterdir()) == ["base.csv", "bonus.csv", "game.toml", "published.toml"]  # nothing written next to inputs
    # never inside the set's directory
    assert main(["prove", "--set", str(d), "--rounds", "0", "--out", str(d / "cert.md")]) == 2
    assert "refusing to write into" in capsys.readouterr().err
    assert not (d / "cert.md").exists()


def test_deterministic_part_is_deterministic(tmp_path):
    ms = random_set(tmp_path / "s", 8, lengths=(8, 9, 8, 9, 8), special_share=0.2)
    a = render_deterministic(build(ms, analyse(ms)))
    b = render_deterministic(build(ms))
    assert a == b and deterministic_part(a) == deterministic_part(b)
    with pytest.raises(ValueError):
        deterministic_part("no markers")


def test_committed_certificate_matches_a_fresh_run():
    ms = load_math_set()
    cert = build(ms)
    assert cert.passed
    assert all(c.passed for c in cert.examples)
    fresh = deterministic_part(render_deterministic(cert))
    committed = deterministic_part(COMMITTED.read_text(encoding="utf-8"))
    assert committed == fresh, "math changed: regenerate with `rtp prove --exhaustive --out proofs/CERTIFICATE.md`"
    text = COMMITTED.read_text(encoding="utf-8")
    assert "Enumeration = factorisation: PASS" in text and "## Verdict: PASS" in text
