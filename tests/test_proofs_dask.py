"""The long proofs on Dask: the same seed or set gives bit-identical results in process, on a
LocalCluster of 1, 2 or 3 workers with any task size, and on a cluster started with `dask scheduler`
and two `dask worker` processes on 127.0.0.1."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import exact.enumeration as enumeration
from exact import math_set
from exact.cli import main
from gen_cascade import random_game
from proofs.dask_runner import IN_PROCESS, Cluster
from proofs.simulate_falls import enumerate_falls
from proofs.enumerate import enumerate_phase
from proofs.simulate import exact_values, prepare, report, run_simulation, simulate
from strips.loader import load_math_set
from generators import random_set
from mathset_files import plain_wheel_game

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 5 * (1 << 16) + 123  # six seed streams, the last one short


def units_json(rep):
    """The JSON estimates of a run of every mode and buy, without its timing and place."""
    out = rep.to_json()
    del out["seconds"], out["rounds_per_second"]
    assert out["modes"] and out["gamble"]
    return out


def estimates(ms, tally, seed, exact):
    out = report(ms, tally, seed, exact).to_json()
    del out["seconds"], out["rounds_per_second"]
    return out


@pytest.fixture(scope="module")
def sets(tmp_path_factory):
    base = tmp_path_factory.mktemp("dask")
    sim_set = random_set(base / "sim", 7, lengths=(20, 21, 22, 23, 24), special_share=0.15)
    enum_set = random_set(base / "enum", 8, lengths=(9, 8, 7, 8, 9), special_share=0.25)
    return sim_set, enum_set


@pytest.fixture(scope="module")
def reference(sets):
    sim_set, enum_set = sets
    here = Cluster(mode=IN_PROCESS)
    exact = exact_values(sim_set)
    tally = simulate(sim_set, ROUNDS, 11, cluster=here)
    return tally, estimates(sim_set, tally, 11, exact), enumerate_phase(enum_set, cluster=here).totals, exact


def test_task_sizes_in_process_give_identical_results(sets, reference):
    sim_set, enum_set = sets
    tally, est, totals, exact = reference
    here = Cluster(mode=IN_PROCESS)
    game = prepare(sim_set)
    for streams in (1, 4):
        assert simulate(sim_set, ROUNDS, 11, cluster=here, task_streams=streams, game=game) == tally
    for stops in (1, 2, 5, 9):
        assert enumerate_phase(enum_set, cluster=here, task_stops=stops).totals == totals
    assert tally.rounds == ROUNDS and tally.free_spins > 0
    assert simulate(sim_set, ROUNDS, 12, cluster=here, game=game) != tally  # the seed matters


@pytest.mark.parametrize("plan", [((1, 1, 1), (2, 4, 3)),
                                  pytest.param(((1, 1, 1), (2, 2, 3), (3, 4, 2)), marks=pytest.mark.slow)],
                         ids=["1-2-workers", "1-2-3-workers"])
def test_local_cluster_with_1_2_3_workers_and_task_sizes(sets, reference, plan):
    from dask.distributed import Client, LocalCluster
    sim_set, enum_set = sets
    tally, est, totals, exact = reference
    game = prepare(sim_set)
    wheel = load_math_set(plain_wheel_game())   # without its frames (simulate refuses them): every bet mode (respin, wheel, gamble): three units of its own streams
    modes = units_json(run_simulation(wheel, ROUNDS, 11, cluster=Cluster(mode=IN_PROCESS)))
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            Client(lc) as client:
        for workers, streams, stops in plan:
            lc.scale(workers)
            client.wait_for_workers(workers, timeout=120)
            here = Cluster(client=client)
            t = simulate(sim_set, ROUNDS, 11, cluster=here, game=game, task_streams=streams)
            assert t == tally
            assert estimates(sim_set, t, 11, exact) == est
            e = enumerate_phase(enum_set, cluster=here, task_stops=stops)
            assert e.totals == totals and e.where.startswith("Dask cluster at tcp://")
            assert len(client.scheduler_info()["workers"]) == workers
            assert units_json(run_simulation(wheel, ROUNDS, 11, cluster=here, task_streams=streams)) == modes
        # a cascade game's enumeration (tasks of exact tallies, past the in-process limit) on the same cluster
        game_c, strips_c = random_game(5, "anywhere", free_spins=True)
        falls = math_set(game_c, strips_c)
        want = enumeration.analyse_phase(falls, falls.model.base_phase)
        enumeration._RESULTS.clear()
        where = enumerate_falls(falls, cluster=Cluster(client=client), tasks_per_worker=3)
        assert where[0][2].startswith("Dask cluster at tcp://")
        got = enumeration.analyse_phase(falls, falls.model.base_phase)
        assert (got.mean, got.second, got.hit_frequency, got.by_scatter, got.falls, got.distribution) == \
            (want.mean, want.second, want.hit_frequency, want.by_scatter, want.falls, want.distribution)


def test_cluster_spec_descriptions():
    assert Cluster(workers=1).describe() == "in process"
    assert Cluster(workers=4, mode="local").describe() == "local Dask cluster of 4 worker processes"
    assert Cluster(workers=4).describe(small=True) == "in process"
    assert Cluster(scheduler_file="f.json").in_process(small=True) is False


def test_unreachable_scheduler_is_a_clear_error(sets):
    from proofs.dask_runner import run_tasks
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler tcp://127.0.0.1:9"):
        list(run_tasks(Cluster(scheduler="tcp://127.0.0.1:9", timeout=1), pow, 2, [1]))


def _start(cmd, env, log):
    return subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


@pytest.mark.slow   # a scheduler and two workers as separate processes (about 20 s); the LocalCluster test covers the Dask path in the default run
def test_dask_scheduler_and_two_workers_on_localhost(sets, reference, tmp_path):
    sim_set, enum_set = sets
    tally, est, totals, exact = reference
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    sched_file = tmp_path / "scheduler.json"
    log = open(tmp_path / "dask.log", "wb")
    procs = [_start(["dask", "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(sched_file)], env, log)]
    try:
        deadline = time.monotonic() + 60
        while not sched_file.is_file() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for _ in range(2):
            procs.append(_start(["dask", "worker", address, "--nthreads", "1", "--no-dashboard",
                                 "--host", "127.0.0.1"], env, log))
        from dask.distributed import Client
        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=120)
        # the commands against the address, as a user runs them
        cli = [sys.executable, "-c", "from exact.cli import main; raise SystemExit(main())"]
        out = subprocess.run(cli + ["simulate", "--set", sim_set.name, "--rounds", str(ROUNDS), "--seed", "11",
                                    "--json", "--scheduler", address], env=env, capture_output=True, text=True,
                             timeout=300)
        assert out.returncode in (0, 1), out.stderr
        got = json.loads(out.stdout)
        assert got.pop("set") == sim_set.name
        del got["seconds"], got["rounds_per_second"]
        assert got == est
        cert = tmp_path / "cert.md"
        code = main(["prove", "--set", enum_set.name, "--exhaustive", "--rounds", str(ROUNDS), "--seed", "11",
                     "--scheduler-file", str(sched_file), "--task-stops", "2",
                     "--checkpoint-dir", str(tmp_path / "ck"), "--out", str(cert)])
        assert code in (0, 1)
        text = cert.read_text()
        assert "Enumeration = factorisation: PASS" in text
        assert "5 computed in this run (Dask cluster of scheduler file" in text
        # the same tasks computed in process give the same totals as the cluster's checkpoint records
        e = enumerate_phase(enum_set, cluster=Cluster(mode=IN_PROCESS), task_stops=2,
                            checkpoint_dir=tmp_path / "ck")
        assert (e.reused_tasks, e.computed_tasks) == (5, 0) and e.totals == totals
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        log.close()


@pytest.mark.parametrize("content", [None, "", "{bad", "{}", '{"address": 3}'])
def test_a_missing_or_bad_scheduler_file_is_one_line_exit_2(tmp_path, capsys, content):
    from exact.cli import main
    f = tmp_path / "s.json"
    if content is not None:
        f.write_text(content)
    code = main(["simulate", "--rounds", "1000", "--scheduler-file", str(f)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "scheduler-file" in err[0]


def test_nothing_listening_at_the_scheduler_address_is_said_at_once(capsys):
    """A refused connection is one line, exit 2, without waiting for Dask's connect timeout."""
    import time
    from exact.cli import main
    start = time.monotonic()
    assert main(["simulate", "--rounds", "1000", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert time.monotonic() - start < 5
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot reach the Dask scheduler tcp://127.0.0.1:1" in err[0]


def test_a_directory_as_scheduler_file_is_named_as_such(tmp_path, capsys):
    from exact.cli import main
    assert main(["simulate", "--rounds", "1000", "--scheduler-file", str(tmp_path)]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_a_worker_ignores_sigint():
    """The local cluster's workers run proofs.dask_worker_quiet at start: SIGINT ignored there, so a Ctrl-C
    stops the run's own process alone (which closes them), without a traceback from every worker."""
    import signal
    from proofs import dask_worker_quiet
    before = signal.getsignal(signal.SIGINT)
    try:
        dask_worker_quiet.dask_setup(None)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.slow
def test_ctrl_c_on_a_dask_run_prints_one_line(tmp_path):
    """Ctrl-C (SIGINT to the process group) during rtp simulate on a local cluster: exit 130, one line
    (it printed 34-122 lines of worker tracebacks)."""
    import signal
    p = subprocess.Popen([sys.executable, "-m", "exact", "simulate", "--set", "rules_page", "--rounds", "200000000",
                          "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), cwd=tmp_path)
    time.sleep(25)
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130 and err.decode().strip() == "rtp: interrupted"
