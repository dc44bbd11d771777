"""Checkpoints you can trust: every corruption is detected and redone, never used;
a second run on the directory is refused; a SIGKILLed run resumes to exactly the clean run's totals."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from exact.cli import main
from exact.engine import analyse_phase
from proofs.enumerate import (
    LOCK_FILE,
    Checkpoint,
    CheckpointError,
    checkpoint_record,
    compare,
    enumerate_phase,
    record_checksum,
    set_hash,
)
from generators import random_set, write_random_set

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A small set, its clean totals (no checkpoint) and a checkpoint of all 6 tasks."""
    base = tmp_path_factory.mktemp("ck")
    ms = random_set(base / "s", 31, lengths=(6, 5, 5, 6, 5), special_share=0.25)
    clean = enumerate_phase(ms, workers=1, task_stops=1)
    return ms, clean


def full_checkpoint(ms, directory: Path) -> Path:
    e = enumerate_phase(ms, workers=1, task_stops=1, checkpoint_dir=directory)
    assert e.computed_tasks == 6 and e.reused_tasks == 0 and e.bad_records == ()
    path = directory / f"{set_hash(ms, ms.model.base_phase)}.jsonl"
    assert len(path.read_text().splitlines()) == 6
    return path


def resume(ms, clean, directory, bad_count=1, computed=1):
    e = enumerate_phase(ms, workers=1, task_stops=1, checkpoint_dir=directory)
    assert e.totals == clean.totals
    assert len(e.bad_records) == bad_count, e.bad_records
    assert e.computed_tasks == computed and e.reused_tasks == 6 - computed
    return e


def test_resume_reuses_finished_tasks_and_reports_it(game, tmp_path):
    ms, clean = game
    part = enumerate_phase(ms, workers=1, task_stops=1, first_stops=[0, 2], checkpoint_dir=tmp_path)
    assert (part.computed_tasks, part.reused_tasks, part.complete) == (2, 0, False)
    e = enumerate_phase(ms, workers=1, task_stops=1, checkpoint_dir=tmp_path)
    assert (e.computed_tasks, e.reused_tasks, e.bad_records) == (4, 2, ())
    assert e.totals == clean.totals
    again = enumerate_phase(ms, workers=1, task_stops=1, checkpoint_dir=tmp_path)
    assert (again.computed_tasks, again.reused_tasks) == (0, 6) and again.totals == clean.totals


def test_changed_digit_is_detected_and_redone(game, tmp_path):
    ms, clean = game
    path = full_checkpoint(ms, tmp_path)
    lines = path.read_text().splitlines()
    rec = json.loads(lines[3])
    rec["totals"]["collect"] = str(int(rec["totals"]["collect"]) + 1)  # checksum left as it was
    lines[3] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n")
    e = resume(ms, clean, tmp_path)
    assert "line 4: checksum mismatch" in e.bad_records


def test_wrong_shape_with_a_valid_checksum_is_detected(game, tmp_path):
    ms, clean = game
    path = full_checkpoint(ms, tmp_path)
    lines = path.read_text().splitlines()
    rec = json.loads(lines[0])
    rec["totals"]["ways"] = rec["totals"]["ways"][1:]  # one pay symbol short
    rec["sha256"] = record_checksum(rec["key"], rec["task"], rec["totals"])
    lines[0] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n")
    e = resume(ms, clean, tmp_path)
    assert e.bad_records == ("line 1: wrong shape",)


def test_another_sets_records_rekeyed_are_detected(game, tmp_path):
    ms, clean = game
    path = full_checkpoint(ms, tmp_path)
    other = random_set(tmp_path / "other", 32, lengths=(6, 5, 5, 6, 6), special_share=0.25)
    odir = tmp_path / "other-ck"
    enumerate_phase(other, workers=1, task_stops=1, checkpoint_dir=odir)
    foreign = (odir / f"{set_hash(other, other.model.base_phase)}.jsonl").read_text().splitlines()
    key = set_hash(ms, ms.model.base_phase)
    lines = path.read_text().splitlines()
    rekeyed = []
    for i in (1, 2):
        rec = json.loads(foreign[i])
        rec["key"] = key
        rekeyed.append(json.dumps(rec))
    # the same tasks placed first: a reader that trusted the key would take them
    path.write_text("\n".join(rekeyed + [ln for j, ln in enumerate(lines) if j not in (1, 2)]) + "\n")
    e = resume(ms, clean, tmp_path, bad_count=2, computed=2)
    assert all("combination count" in b or "checksum" in b for b in e.bad_records)
    # re-keyed with a recomputed checksum, on a set of the same shape: the count and histogram still
    # have to hold; a record of the same shape and a recomputed checksum is indistinguishable (the key
    # is the set's content hash, which a checksum cannot authenticate)
    rec = json.loads(foreign[0])
    rec["key"] = key
    rec["sha256"] = record_checksum(key, rec["task"], rec["totals"])
    path.write_text(json.dumps(rec) + "\n")
    e = enumerate_phase(ms, workers=1, task_stops=1, checkpoint_dir=tmp_path)
    assert e.bad_records == ("line 1: combination count is not the task's 750",)
    assert e.totals == clean.totals


def test_torn_tail_is_redone_and_the_next_record_starts_a_new_line(game, tmp_path):
    ms, clean = game
    path = full_checkpoint(ms, tmp_path)
    text = path.read_text()
    path.write_text(text[: len(text) - 40])  # the last record cut mid-line, no newline
    e = resume(ms, clean, tmp_path)
    assert e.bad_records == ("line 6: not JSON (a torn or damaged line)",)
    lines = path.read_text().splitlines()
    assert len(lines) == 7 and json.loads(lines[6])["task"] == [5, 6]
    assert resume(ms, clean, tmp_path, bad_count=1, computed=0).bad_records == e.bad_records


@pytest.mark.parametrize("line", ["[1, 2, 3]", "42", '"text"', "null", "{}", '{"key": 1}', "\xff\xfe"])
def test_non_object_and_foreign_lines_are_reported(game, tmp_path, line):
    ms, clean = game
    path = full_checkpoint(ms, tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = line
    path.write_bytes(("\n".join(lines) + "\n").encode("latin-1" if "\xff" in line else "utf-8"))
    e = resume(ms, clean, tmp_path)
    assert e.bad_records[0].startswith("line 3: ")


def test_duplicate_records_that_disagree_are_both_redone(game, tmp_path):
    ms, clean = game
    path = full_checkpoint(ms, tmp_path)
    lines = path.read_text().splitlines()
    rec = json.loads(lines[0])
    tot = rec["totals"]
    cells = [(i, j) for i, row in enumerate(tot["joint"]) for j, v in enumerate(row)]
    i, j = next(c for c in cells if tot["joint"][c[0]][c[1]] > 0)
    k, m = next(c for c in cells if c != (i, j))
    tot["joint"][i][j] -= 1  # one combination moved to another (FS, KEY) cell: same count, other totals
    tot["joint"][k][m] += 1
    rec["sha256"] = record_checksum(rec["key"], rec["task"], tot)
    path.write_text("\n".join(lines + [json.dumps(rec)]) + "\n")
    e = resume(ms, clean, tmp_path)
    assert "recorded twice with different totals" in e.bad_records[0]


def test_symlinked_checkpoint_file_is_refused(game, tmp_path):
    ms, _ = game
    victim = tmp_path / "input.csv"
    victim.write_text("reel1\nA\n")
    ck = tmp_path / "ck"
    ck.mkdir()
    (ck / f"{set_hash(ms, ms.model.base_phase)}.jsonl").symlink_to(victim)
    with pytest.raises(CheckpointError, match="symbolic link"):
        enumerate_phase(ms, workers=1, checkpoint_dir=ck)
    assert victim.read_text() == "reel1\nA\n"


def test_a_second_run_on_the_directory_is_refused(game, tmp_path, capsys):
    ms, _ = game
    d = write_random_set(tmp_path / "set", 31, lengths=(6, 5, 5, 6, 5), special_share=0.25)
    from strips.loader import load_math_set
    ms = load_math_set(str(d))
    from proofs.enumerate import TaskPlan
    holder = Checkpoint(tmp_path / "ck", TaskPlan("x", (), 1, 1, 1, 0, 0))
    try:
        with pytest.raises(CheckpointError, match="in use by another run"):
            enumerate_phase(ms, workers=1, checkpoint_dir=tmp_path / "ck")
        code = main(["prove", "--set", str(d), "--exhaustive", "--rounds", "0",
                     "--checkpoint-dir", str(tmp_path / "ck")])
        err = capsys.readouterr().err
        assert code == 2 and str(tmp_path / "ck" / LOCK_FILE) in err and len(err.strip().splitlines()) == 1
    finally:
        holder.close()
    assert enumerate_phase(ms, workers=1, checkpoint_dir=tmp_path / "ck").computed_tasks == 1


def test_record_format():
    from proofs.enumerate import Totals
    line = checkpoint_record("k", (2, 3), Totals(5, ((1, 2),), 7, ((5,),)))
    rec = json.loads(line)
    assert line.endswith("\n") and rec["combinations"] == 5 and rec["task"] == [2, 3]
    assert rec["sha256"] == record_checksum("k", [2, 3], rec["totals"])


def test_sigkill_of_a_running_enumeration_then_resume(tmp_path):
    """A real run killed (SIGKILL of its process group) while writing records, then resumed."""
    d = write_random_set(tmp_path / "set", 77, lengths=(30, 56, 56, 56, 56), special_share=0.2)
    ck = tmp_path / "ck"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-c", "from exact.cli import main; raise SystemExit(main())", "prove", "--set", str(d),
           "--exhaustive", "--rounds", "0", "--checkpoint-dir", str(ck), "--workers", "1", "--task-stops", "1",
           "--out", str(tmp_path / "cert.md")]
    proc = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    from strips.loader import load_math_set
    ms = load_math_set(str(d))
    path = ck / f"{set_hash(ms, ms.model.base_phase)}.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if path.is_file() and len(path.read_bytes().splitlines()) >= 3:
            break
        assert proc.poll() is None, proc.stderr.read().decode()
        time.sleep(0.02)
    else:
        pytest.fail("no checkpoint records within 120 s")
    # stopped where it is (so it cannot finish while the second run starts), then a second run on the same
    # directory: refused, naming the lock file the first one holds
    os.killpg(proc.pid, signal.SIGSTOP)
    second = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert second.returncode == 2 and LOCK_FILE in second.stderr, second.stderr
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stderr.close()
    written = len(path.read_bytes().splitlines())
    assert 3 <= written < 30, "killed midway"
    resumed = enumerate_phase(ms, workers=1, task_stops=1, checkpoint_dir=ck)
    assert resumed.reused_tasks >= 3 and resumed.reused_tasks + resumed.computed_tasks == 30
    assert len(resumed.bad_records) <= 1  # at most the line the kill cut
    # the clean run's totals: every combination once (count), and each figure equal to the exact engine's
    # (a lost or double-counted task would change the count and the figures)
    assert resumed.combinations == 30 * 56 ** 4 and resumed.complete
    assert [c.figure for c in compare(resumed, analyse_phase(ms, ms.model.base_phase)) if not c.equal] == []


# --------------------------------------------------------------------------
# the checkpoint store goes through the writers' guard: nothing the user owns is changed
# --------------------------------------------------------------------------
@pytest.fixture
def small_set(tmp_path):
    """A small set on disk, and the names of the checkpoint files ``rtp prove --exhaustive`` writes for it."""
    from strips.loader import load_math_set
    d = write_random_set(tmp_path / "set", 31, lengths=(6, 5, 5, 6, 5), special_share=0.25)
    first = tmp_path / "first"
    assert main(["prove", "--set", str(d), "--exhaustive", "--rounds", "0", "--checkpoint-dir", str(first)]) == 0
    names = sorted(p.name for p in first.glob("*.jsonl"))
    assert names
    return d, load_math_set(str(d)), names


def snapshot(directory: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_hard_link_to_game_toml_at_the_checkpoint_path_leaves_it_byte_identical(small_set, tmp_path, capsys):
    d, _, names = small_set
    before = snapshot(d)
    ck = tmp_path / "ck"
    ck.mkdir()
    for name in names:
        os.link(d / "game.toml", ck / name)
    capsys.readouterr()
    code = main(["prove", "--set", str(d), "--exhaustive", "--rounds", "0", "--checkpoint-dir", str(ck)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "input file of the math set" in err and names[0] in err
    assert snapshot(d) == before
    assert main(["check", "--set", str(d)]) in (0, 1)   # the set still loads


def test_hard_link_to_any_other_file_is_refused(small_set, tmp_path, capsys):
    d, ms, names = small_set
    victim = tmp_path / "notes.txt"
    victim.write_bytes(b"mine\n")
    ck = tmp_path / "ck"
    ck.mkdir()
    os.link(victim, ck / names[0])
    with pytest.raises(CheckpointError, match="has 2 names"):
        enumerate_phase(ms, workers=1, checkpoint_dir=ck)
    assert victim.read_bytes() == b"mine\n"


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_lock_file_linked_to_an_input_is_refused(small_set, tmp_path, link):
    d, ms, _ = small_set
    before = snapshot(d)
    ck = tmp_path / "ck"
    ck.mkdir()
    (os.symlink if link == "symbolic" else os.link)(d / "game.toml", ck / LOCK_FILE)
    with pytest.raises(CheckpointError, match="symbolic link|input file"):
        enumerate_phase(ms, workers=1, checkpoint_dir=ck)
    assert snapshot(d) == before


def test_file_swapped_in_after_the_guard_is_caught_by_the_inode_check(small_set, tmp_path, monkeypatch):
    """A hard link to an input put at the checkpoint path between the guard's check and the open."""
    import proofs.enumerate_checkpoint as store
    d, ms, names = small_set
    before = snapshot(d)
    ck = tmp_path / "ck"
    guard = store.refuse_target

    def racing_guard(path, what, prot, kind):
        guard(path, what, prot, kind)
        if Path(path).suffix == ".jsonl" and not Path(path).exists():
            os.link(d / "game.toml", path)   # the attacker wins the race

    monkeypatch.setattr(store, "refuse_target", racing_guard)
    with pytest.raises(CheckpointError, match="input file of the math set|names"):
        enumerate_phase(ms, workers=1, checkpoint_dir=ck)
    assert snapshot(d) == before


def test_file_replaced_between_lstat_and_open_is_refused(small_set, tmp_path, monkeypatch):
    import proofs.enumerate_checkpoint as store
    _, ms, names = small_set
    ck = tmp_path / "ck"
    ck.mkdir()
    (ck / names[0]).write_text("")
    real_open = os.open

    def swapping_open(path, flags, *a):
        if str(path).endswith(".jsonl"):
            os.replace(ck / "other", path)   # a new inode at the path after the lstat
        return real_open(path, flags, *a)

    (ck / "other").write_text("")
    monkeypatch.setattr(store.os, "open", swapping_open)
    with pytest.raises(CheckpointError, match="replaced while it was being opened"):
        enumerate_phase(ms, workers=1, checkpoint_dir=ck)


def test_no_temporary_file_survives_runs_or_an_interrupt(small_set, tmp_path, monkeypatch):
    """The store writes into its one file: after a run, and after a run interrupted mid-record, the directory
    holds the lock and the checkpoint files only, and the resumed run gives the clean totals."""
    import proofs.enumerate_checkpoint as store
    _, ms, _ = small_set
    ck = tmp_path / "ck"
    clean = enumerate_phase(ms, workers=1, task_stops=1)
    calls = []
    real = store.Checkpoint.append

    def interrupted(self, task, totals):
        calls.append(task)
        if len(calls) == 3:
            raise KeyboardInterrupt
        real(self, task, totals)

    monkeypatch.setattr(store.Checkpoint, "append", interrupted)
    with pytest.raises(KeyboardInterrupt):
        enumerate_phase(ms, workers=1, task_stops=1, checkpoint_dir=ck)
    monkeypatch.undo()
    assert {p.name for p in ck.iterdir()} == {LOCK_FILE, f"{set_hash(ms, ms.model.base_phase)}.jsonl"}
    resumed = enumerate_phase(ms, workers=1, task_stops=1, checkpoint_dir=ck)
    assert resumed.totals == clean.totals and resumed.reused_tasks == 2
    assert {p.name for p in ck.iterdir()} == {LOCK_FILE, f"{set_hash(ms, ms.model.base_phase)}.jsonl"}


def test_disk_full_names_the_checkpoint_file(game, tmp_path, monkeypatch):
    import errno
    import proofs.enumerate_checkpoint as store
    from proofs.enumerate import TaskPlan
    ck = store.Checkpoint(tmp_path, TaskPlan("k", ((0, 1),), 1, 1, 1, 0, 0))

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store.os, "write", full)
    try:
        with pytest.raises(CheckpointError, match=r"k\.jsonl: no space left on the device"):
            ck.append((0, 1), store.Totals(1, ((0,),), 0, ((1,),)))
    finally:
        monkeypatch.undo()
        ck.close()


def test_an_overlong_line_is_skipped_without_reading_it_whole(game, tmp_path):
    ms, clean = game
    path = full_checkpoint(ms, tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:2]) + b"7" * (3 << 20) + b"\n" + b"".join(lines[3:]))
    e = resume(ms, clean, tmp_path)
    assert "longer than" in e.bad_records[0] and e.bad_records[0].startswith("line 3")
