"""Mutated copies of the bundled math sets for the fuzz tests (tests/test_fuzz_inputs.py).

:func:`fuzz_case` draws, from a seed, one bundled set, one to three mutations of its files (types,
signs, extreme numbers, huge spin counts, awards and thresholds, encodings, look-alike names, damaged
strip rows and published figures) and one command; :func:`run_case` runs it in process under a time
and a memory bound and returns what a passing run must satisfy.
"""
from __future__ import annotations

import contextlib
import io
import os
import pickle
import random
import re
import resource
import shutil
import signal
import tomllib
from dataclasses import dataclass
from pathlib import Path

from exact.cli import main
from strips.loader import bundled_path

BUNDLED = ("rules_page", "wheel_game", "hold_and_win", "tumble_anywhere")

#: Every command, as argv after the command name; "OUT" is replaced by a fresh path outside the set.
COMMANDS = ([], ["--json"], ["check"], ["check", "--json"], ["chain"], ["spin", "--stops", "STOPS"],
            ["simulate", "--rounds", "300", "--workers", "1"], ["simulate", "--rounds", "300", "--json"],
            ["distribution"], ["comply", "--no-distribution"], ["prove", "--rounds", "0"],
            ["export", "--csv", "OUT"], ["sensitivity"], ["diff", "SET", "rules_page"],
            ["tune", "--target-rtp", "0.9", "--out", "OUT", "--time-limit", "2"])

EXTREME = ["0", "-1", "-7", "1", "999999999999", "1000000000000", "9223372036854775808", "1" + "0" * 5000,
           "1e9", "0.5", '"12/0"', '"1/' + "3" * 400 + '"']
TYPES = ['"text"', "[1, 2]", "true", "{ a = 1 }", "[]", '""', "-0", "nan", "inf", "[[1], [2]]"]
HUGE_COUNTS = ["1001", "100000", "1000000000000", "0", "-3"]
NAMES = {"A": "\u0410", "O": "0", "I": "l", "E": "\u0415"}


@dataclass(frozen=True)
class Case:
    seed: int
    set_name: str
    mutations: tuple[str, ...]
    command: tuple[str, ...]


def _number_sites(lines):
    return [(i, m) for i, line in enumerate(lines) if not line.lstrip().startswith("#")
            for m in re.finditer(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])", line.split("#")[0])]


def mutate_game(text: str, rng: random.Random, log: list) -> bytes:
    lines = text.splitlines()
    for _ in range(rng.choices([1, 2, 3], weights=[6, 3, 1])[0]):
        kind = rng.choice(["type", "sign", "extreme", "count", "award", "encoding", "lookalike", "drop", "dup"])
        sites = _number_sites(lines)
        if kind in ("sign", "extreme") and sites:
            i, m = rng.choice(sites)
            new = ("-" + m.group().lstrip("-")) if kind == "sign" else rng.choice(EXTREME)
            lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
        elif kind == "type":
            keyed = [i for i, line in enumerate(lines) if re.match(r"^\s*[\w.\"]+\s*=", line)]
            if keyed:
                i = rng.choice(keyed)
                lines[i] = lines[i].split("=", 1)[0] + "= " + rng.choice(TYPES)
        elif kind in ("count", "award"):
            pat = (r"(spins|respins|threshold|retrigger_cap|count|cost)\s*=\s*\d+" if kind == "count"
                   else r"(free_spins|credits|jackpot \w+|x)\s*\d+")
            hits = [(i, m) for i, line in enumerate(lines) for m in re.finditer(pat, line)]
            if hits:
                i, m = rng.choice(hits)
                num = re.search(r"\d+$", m.group())
                lines[i] = (lines[i][:m.start() + num.start()] + rng.choice(HUGE_COUNTS)
                            + lines[i][m.start() + num.end():])
        elif kind == "lookalike":
            i = rng.randrange(len(lines))
            for a, b in NAMES.items():
                if a in lines[i]:
                    lines[i] = lines[i].replace(a, b, 1)
                    break
        elif kind == "drop":
            del lines[rng.randrange(len(lines))]
        elif kind == "dup":
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
        else:
            log.append("encoding")
            body = "\n".join(lines) + "\n"
            return rng.choice([body.encode("utf-16"), b"\xff\xfe" + body.encode(), body.encode("latin-1", "replace")
                               + b"\xe9\n", body.replace("=", "\uff1d", 1).encode()])
        log.append(kind)
    return ("\n".join(lines) + "\n").encode("utf-8")


def mutate_csv(data: bytes, rng: random.Random, log: list) -> bytes:
    rows = data.decode("utf-8").splitlines()
    i = rng.randrange(1, len(rows))
    cells = rows[i].split(",")
    kind = rng.choice(["cell", "drop", "extra", "name"])
    if kind == "cell":
        cells[rng.randrange(len(cells))] = rng.choice(["", "ZZ", "\u0410US1", " A", "x" * 300, "1"])
    elif kind == "drop":
        cells = cells[:-1]
    elif kind == "extra":
        cells.append("A")
    else:
        cells[0] = "\x1b[2J" + cells[0]
    rows[i] = ",".join(cells)
    log.append(f"csv-{kind}")
    return ("\n".join(rows) + "\n").encode("utf-8")


def mutate_published(data: bytes, rng: random.Random, log: list) -> bytes:
    text = data.decode("utf-8")
    printed = list(re.finditer(r'printed = "([^"]*)"', text))
    if not printed:
        return data
    m = rng.choice(printed)
    new = rng.choice(["abc", "1 in 0", "-5%", "1" * 5000, "0." + "9" * 60, "1e999", "\u0661\u0662"])
    log.append("published")
    return (text[:m.start(1)] + new + text[m.end(1):]).encode("utf-8")


def fuzz_case(seed: int, commands=COMMANDS) -> tuple[Case, dict[str, bytes]]:
    """(the case, the files of the mutated set) drawn from ``seed``."""
    rng = random.Random(seed)
    name = rng.choice(BUNDLED)
    src = bundled_path(name)
    files = {p.name: p.read_bytes() for p in sorted(src.iterdir())
             if p.is_file() and p.suffix in (".toml", ".csv")}
    log: list[str] = []
    target = rng.choices(["game", "csv", "published"], weights=[6, 2, 1])[0]
    csvs = [n for n in files if n.endswith(".csv")]
    if target == "csv" and csvs:
        n = rng.choice(csvs)
        files[n] = mutate_csv(files[n], rng, log)
    elif target == "published" and "published.toml" in files:
        files["published.toml"] = mutate_published(files["published.toml"], rng, log)
    else:
        files["game.toml"] = mutate_game(files["game.toml"].decode("utf-8"), rng, log)
    command = tuple(rng.choice(commands))
    reels = tomllib.loads((src / "game.toml").read_text())["game"]["reels"]
    command = tuple(",".join(["0"] * reels) if a == "STOPS" else a for a in command)
    return Case(seed, name, tuple(log), command), files


class Overrun(BaseException):
    """A run past its time bound (raised by SIGPROF; a BaseException so that no handler of the code swallows it)."""


def _vm_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


def run_case(case: Case, files: dict[str, bytes], tmp: Path, seconds: int = 20,
             memory: int = 1 << 30) -> tuple[int, str, bool]:
    """Run one case in a forked child of this process: (exit code, stderr, bound kept).  The child is
    stopped after ``seconds`` of CPU time (``ITIMER_PROF``: the bound does not depend on the machine's
    load) and its address space may grow by at most ``memory`` bytes (RLIMIT_AS); a run that hits either
    bound does not keep it.  The limits are set in the child only, so the test runner's own threads (a
    pytest-xdist worker's channel) never run under them."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the child: run, send the result, leave at once
        os.close(reader)
        try:
            result = _run_limited(case, files, tmp, seconds, memory)
        except MemoryError:                        # past the address-space bound
            result = (-1, "out of memory", False)
        except BaseException as e:                 # noqa: BLE001 - a crash is the finding
            result = (-2, f"{type(e).__name__}: {e}", True)
        with os.fdopen(writer, "wb") as w:
            w.write(pickle.dumps(result))
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as r:
        data = r.read()
    _, status = os.waitpid(pid, 0)
    if not data:                                   # killed (the address-space bound, a signal)
        return -os.waitstatus_to_exitcode(status) or -3, "", False
    return pickle.loads(data)


def _run_limited(case: Case, files: dict[str, bytes], tmp: Path, seconds: int, memory: int
                 ) -> tuple[int, str, bool]:
    """:func:`run_case`'s run, in the calling process, under its bounds."""
    d = tmp / "set"
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    for n, data in files.items():
        (d / n).write_bytes(data)
    out_path = tmp / f"out-{case.seed}"
    if out_path.exists():
        shutil.rmtree(out_path)
    argv = [a.replace("OUT", str(out_path)) if a == "OUT" else a for a in case.command]
    argv = ["diff", str(d), "rules_page"] if argv[:1] == ["diff"] else argv + ["--set", str(d)]

    def overrun(signum, frame):
        raise Overrun()

    old_handler = signal.signal(signal.SIGPROF, overrun)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = _vm_bytes() + memory
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    out, err = io.StringIO(), io.StringIO()
    kept = True
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except Overrun:
        code, kept = -1, False
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        signal.signal(signal.SIGPROF, old_handler)
    text = err.getvalue()
    if "out of memory" in text:
        kept = False
    return code, text, kept
