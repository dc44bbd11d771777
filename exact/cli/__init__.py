"""The ``rtp`` command line.

``rtp`` with no command runs ``rtp report``.  Each command lives in its own
module, which defines ``add_arguments(parser)`` and ``run(args) -> int``; only
the module of the command given is imported, so ``rtp spin`` and ``rtp --help``
start fast.

Exit codes: 0 success, 1 a published fact fails (or an exact value falls
outside a simulation's interval), 2 bad input: one line on stderr naming the
file, row and column, never a traceback.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
import signal
import sys
from typing import Sequence

from exact import __version__
from exact.cli.args import Parser, UsageError, add_limit_arguments, limits_of
from strips.errors import MathSetError
from strips.display import printable
from strips.limits import Limits, option, using

#: Longest error line shown (characters); the rest is cut with a count of what was left out.
MAX_ERROR_LINE = 400

#: command -> (module, one-line help)
COMMANDS = {
    "report": ("exact.cli.report", "exact PAR report of a math set (the default command)"),
    "spin": ("exact.cli.spin", "evaluate one spin (given stops) with the literal evaluator: window, pays, triggers"),
    "check": ("exact.cli.check", "each published fact of a math set (published.toml): printed, exact, PASS/FAIL"),
    "chain": ("exact.cli.chain", "the free-spin ladder as an absorbing Markov chain: summary and graph export"),
    "prove": ("exact.cli.prove", "independent checks: exhaustive enumeration, simulation, certificate"),
    "simulate": ("exact.cli.simulate", "Monte Carlo simulation of whole game rounds beside the exact values"),
    "diff": ("exact.cli.diff", "compare two math sets figure by figure"),
    "sensitivity": ("exact.cli.sensitivity", "exact change of RTP per strip edit and per fish weight"),
    "export": ("exact.cli.export", "PAR-sheet workbook (XLSX) or CSV tables of a math set"),
    "comply": ("exact.cli.comply", "jurisdiction rules (GLI-11, AU/NZ, ...): exact award odds and RTP against each limit"),
    "tune": ("exact.cli.tune", "RTP variants of a math set with few strip edits, exactly"),
    "distribution": ("exact.cli.distribution", "the whole win distribution: win ranges, max win, percentiles, plot"),
}


def _top_parser() -> Parser:
    epilog = "commands:\n" + "\n".join(f"  {c:<12} {h}" for c, (_, h) in COMMANDS.items())
    epilog += ("\n\n'rtp --version' prints the version; "
               "'rtp COMMAND --help' shows the options of a command; 'rtp' alone is 'rtp report' "
               "(options --set SET, --json, --digits N, --check).")
    p = Parser(prog="rtp", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=epilog,
               description="Exact slot-math calculator: exact RTP, variance and PAR figures of a "
                           "math set. Without a command: 'report'.")
    p.add_argument("-V", "--version", action="store_true", help="print the version and exit")
    return p


def error_line(text: str, limit: int = MAX_ERROR_LINE) -> str:
    """One printable line of at most ``limit`` characters (plus the note of how many were left out).

    >>> error_line("bad\\x1b[2J input\\nsecond line")
    'bad input second line'
    >>> error_line("x" * 500, 10)
    'xxxxxxxxxx... (490 more characters)'
    """
    line = printable(" ".join(str(text).splitlines()))
    if len(line) > limit:
        line = f"{line[:limit]}... ({len(line) - limit:,} more characters)"
    return line


def _say(text: str) -> None:
    print(error_line(text), file=sys.stderr)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every writer removes its temporary file before the process ends."""


def _terminated(signum, frame):
    raise Terminated()


def _on_sigterm():
    """Install :func:`_terminated` for SIGTERM (main thread only); returns the handler to put back, or None."""
    try:
        return signal.signal(signal.SIGTERM, _terminated)
    except (ValueError, OSError):   # not the main thread
        return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rtp`` command; returns the exit code (0 ok, 1 a published fact fails, 2 bad input, 130/143 a
    Ctrl-C or SIGTERM, after every temporary file is removed)."""
    previous = _on_sigterm()
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _hint(raised: tuple, lower: str) -> str:
    """What to do after running out of memory, depth or range: drop ``--no-limits`` or lower the limits the
    command line raised (``raised``: the options given), else report the input (within the default limits)."""
    if "--no-limits" in raised:
        return f"drop --no-limits or lower {lower}"
    if raised:
        return f"lower {', '.join(raised)}"
    return "the input is within the default limits: please report it, with the set, as a missing up-front estimate"


def _negative_values(parser, argv: list[str]) -> list[str]:
    """``--stops -1,0,0`` as ``--stops=-1,0,0``: a value that starts with a minus sign after an option that
    takes one, which argparse would read as an option (``expected one argument``); the command then says
    what is wrong with the value itself.

    >>> p = argparse.ArgumentParser(); _ = p.add_argument("--stops"); _ = p.add_argument("--json", action="store_true")
    >>> _negative_values(p, ["--stops", "-1,0", "--json"])
    ['--stops=-1,0', '--json']
    """
    takes = {o for a in parser._actions if a.nargs is None and a.option_strings and not isinstance(
        a, (argparse._StoreTrueAction, argparse._StoreFalseAction, argparse._StoreConstAction)) for o in a.option_strings}
    out, i = [], 0
    while i < len(argv):
        tok = argv[i]
        if tok in takes and i + 1 < len(argv) and len(argv[i + 1]) > 1 and argv[i + 1][0] == "-" and \
                (argv[i + 1][1].isdigit() or argv[i + 1][1] == "."):
            out.append(f"{tok}={argv[i + 1]}")
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


def _main(argv: list[str]) -> int:
    raised: tuple = ()   # --no-limits or the --max-... options given (the hint of a MemoryError depends on it)
    try:
        if argv and argv[0] in ("-h", "--help"):
            _top_parser().print_help()
            return 0
        if argv and argv[0] in ("-V", "--version"):
            print(f"rtp (slot-exact) {__version__}")
            return 0
        command = argv[0] if argv and argv[0] in COMMANDS else None
        if command is None:
            if argv and not argv[0].startswith("-"):
                raise UsageError(f"rtp: unknown command {argv[0]!r} (commands: {', '.join(COMMANDS)})")
            command, rest = "report", argv
        else:
            rest = argv[1:]
        module_name, help_text = COMMANDS[command]
        module = importlib.import_module(module_name)
        parser = Parser(prog=f"rtp {command}", description=help_text)
        module.add_arguments(parser)
        add_limit_arguments(parser)
        args = parser.parse_args(_negative_values(parser, rest))
        args.command = command
        from strips.loader import shadow_note
        for spec in dict.fromkeys(getattr(args, k, None) for k in ("set", "a", "b")):
            note = shadow_note(spec) if isinstance(spec, str) else None
            if note:
                print(f"rtp: {note}", file=sys.stderr)
        chosen, default = limits_of(args), Limits()
        raised = ("--no-limits",) if getattr(args, "no_limits", False) else tuple(
            option(f.name) for f in dataclasses.fields(Limits) if getattr(chosen, f.name) != getattr(default, f.name))
        with using(limits_of(args)):
            return int(module.run(args))
    except MathSetError as e:
        _say(f"rtp: error: {e}")
        return 2
    except UsageError as e:
        # a command's refusal raised while handling a bad input file is that file's error: its one line,
        # never behind the command's or the set's name (rtp: SET: SET/published.toml:2:1: ...)
        cause = e.__context__
        _say(f"rtp: error: {cause}" if isinstance(cause, MathSetError) else f"{e}")
        return 2
    except SystemExit as e:  # argparse's --help and --version exit; main() returns the code instead
        return e.code if isinstance(e.code, int) else 0
    except BrokenPipeError:
        return 0
    except OSError as e:  # a file or directory the system refuses (permissions, disk full, ...)
        where = f"{e.filename}: " if e.filename else ""
        _say(f"rtp: error: {where}{e.strerror or e}")
        return 2
    except MemoryError:  # the default input limits are meant to keep every command within 4 GiB
        _say(f"rtp: error: out of memory; the default input limits keep every command within 4 GiB "
             f"({_hint(raised, 'the --max-... options')})")
        return 2
    except RecursionError:
        _say(f"rtp: error: input nested too deeply to process ({_hint(raised, '--max-depth')})")
        return 2
    except OverflowError as e:  # a figure beyond float range or int64 (limits raised)
        _say(f"rtp: error: a number too large to show or compute here ({e}); "
             f"{_hint(raised, '--max-digits') if raised else 'the default --max-digits limit refuses such input'}")
        return 2
    except Terminated:
        print("rtp: terminated (SIGTERM)", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print("rtp: interrupted", file=sys.stderr)
        return 130


