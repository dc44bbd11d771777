"""The reel-strip CSV parser and the strip rules' soft findings.

CSV format: a header ``reel1,...,reelN``; data row i (file line i + 2) holds
strip position i of each reel; a column may end early with empty trailing
cells; every reel needs at least ``rows`` symbols.  Hard errors raise
:class:`strips.errors.MathSetError` naming file, row and column; soft rule
breaks (two specials in one window, a run too long, a strip length other
than the rules') become :class:`strips.model.Finding` objects.
"""
from __future__ import annotations

import csv
import io

import numpy as np

from strips import limits as _limits
from strips.errors import MathSetError
from strips.model import Finding, GameModel, ReelStrips, WeightedStops
from strips.toml_reader import decode_text


def parse_strips(data: bytes, file: str, model: GameModel, strip_set: str) -> tuple[ReelStrips, list[Finding]]:
    """Parse and validate one strip-set CSV.

    Parameters
    ----------
    data : bytes
        CSV content: header ``reel1..reelN``, then one row per strip position.
    file : str
        Path used in messages.
    model : GameModel
    strip_set : str
        ``"base"`` or ``"bonus"``: which placement rules apply.

    Returns
    -------
    (ReelStrips, list of Finding)

    Raises
    ------
    MathSetError
        Malformed CSV, a header that is not ``reel1..reelN`` for the model's
        N reels, an unknown symbol, a symbol on a reel the model forbids for
        this strip set, a gap inside a column, a reel with fewer symbols than
        window rows.  Source: rules page sections 3 and 4.
    """
    rules_of_set = strip_set.split("#")[0]     # reel set k of weighted reel sets (NAME#k) keeps NAME's symbol reels
    text = decode_text(data, file, cells=True)
    records: list[tuple[int, list[str]]] = []  # (1-based line where the record starts, cells)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    line = 1
    max_stops = _limits.active().stops
    try:
        for cells in reader:
            records.append((line, cells))
            if max_stops is not None and len(records) > max_stops + 1:  # the header and max_stops stops
                raise MathSetError(file, line, 1, f"more than the limit of {max_stops:,} stops per reel strip "
                                   f"(raise it with {_limits.option('stops')} N, or --no-limits)")
            line = reader.line_num + 1
    except csv.Error as e:
        row, col = _csv_error_cell(text, line)
        raise MathSetError(file, row, col, f"malformed CSV: {e}") from None
    expected = [f"reel{i + 1}" for i in range(model.reels)]
    if not records or not any(c.strip() for c in records[0][1]):
        raise MathSetError(file, 1, 1, f"no header: line 1 must be {','.join(expected)}")
    header = [c.strip() for c in records[0][1]]
    while len(header) > model.reels and not header[-1]:
        header.pop()  # trailing empty cells, as in the data rows
    # a virtual reel: a weight column per reel after the symbol columns (reel1_weight, ...)
    weight_names = [f"reel{i + 1}_weight" for i in range(model.reels)]
    weighted = len(header) == 2 * model.reels and [h.lower() for h in header[model.reels:]] == weight_names
    if weighted:
        header = header[:model.reels]
    if len(header) != model.reels:
        raise MathSetError(file, 1, min(len(header), model.reels) + 1,
                           f"wrong reel count: header has {len(header)} columns, "
                           f"the game has {model.reels} reels ({','.join(expected)})")
    for j, (h, e) in enumerate(zip(header, expected)):
        if h.lower() != e:
            raise MathSetError(file, 1, j + 1, f"header column {j + 1} is {h!r}, expected {e!r}")
    columns: list[list[str]] = [[] for _ in range(model.reels)]
    ended = [0] * model.reels  # line where the column ended, 0 = still open
    lookup = {}
    for code, s in enumerate(model.symbols):
        for n in (s.name,) + s.aliases:
            lookup[n] = code
    codes: list[list[int]] = [[] for _ in range(model.reels)]
    weights: list[list[int]] = [[] for _ in range(model.reels)]
    width = 2 * model.reels if weighted else model.reels
    for i, row in records[1:]:
        if weighted:
            _stop_weights(file, i, row, model.reels, weights)
        if len(row) > width and any(c.strip() for c in row[width:]):
            raise MathSetError(file, i, model.reels + 1, f"wrong reel count: row has {len(row)} cells, "
                               f"the game has {model.reels} reels")
        for j in range(model.reels):
            cell = row[j].strip() if j < len(row) else ""
            if not cell:
                if not ended[j]:
                    ended[j] = i
                continue
            if ended[j]:
                raise MathSetError(file, ended[j], j + 1, f"reel {j + 1} has an empty cell inside its strip "
                                   f"(a reel may only end with empty trailing cells)")
            code = lookup.get(cell)
            if code is None:
                raise MathSetError(file, i, j + 1, f"unknown symbol {cell!r} "
                                   f"(known: {', '.join(model.names)})")
            sym = model.symbols[code]
            if not sym.allowed_on(rules_of_set, j):
                where = sorted(r + 1 for r in sym.reels.get(rules_of_set, ()))
                allowed = (f"reel{'s' if len(where) > 1 else ''} {', '.join(map(str, where))}"
                           if where else "no reel")
                named = sym.name if cell == sym.name else f"{cell} ({sym.name})"
                raise MathSetError(file, i, j + 1, f"{named} is not allowed on {strip_set} reel {j + 1} "
                                   f"(allowed on {allowed} of the {rules_of_set} strips)")
            columns[j].append(sym.name)
            codes[j].append(code)
    for j, col in enumerate(columns):
        if len(col) < model.rows:
            raise MathSetError(file, ended[j] or line, j + 1, f"reel {j + 1} has {len(col)} symbols, "
                               f"fewer than the {model.rows} window rows")
    if weighted:
        for j in range(model.reels):
            if not any(weights[j]):
                raise MathSetError(file, 1, model.reels + j + 1, f"reel{j + 1}_weight: the weights of reel "
                                   f"{j + 1} sum to 0 (no stop can be drawn)")
    strips = ReelStrips(name=strip_set, reels=tuple(tuple(c) for c in columns),
                        codes=tuple(WeightedStops(c, w) if weighted else np.array(c, dtype=np.int64)
                                    for c, w in zip(codes, weights)))
    return strips, strip_findings(strips, model, file)


def _stop_weights(file: str, line: int, row: list, reels: int, weights: list) -> None:
    """Check one data row's weight cells (``reelN_weight``: an integer >= 0 where reel N has a symbol,
    empty where its column has ended) and append them to ``weights``."""
    for j in range(reels):
        cell = row[j].strip() if j < len(row) else ""
        w = row[reels + j].strip() if reels + j < len(row) else ""
        if bool(cell) != bool(w):
            raise MathSetError(file, line, reels + j + 1, f"reel{j + 1}_weight: a weight is needed exactly where "
                               f"reel {j + 1} has a symbol")
        if not w:
            continue
        if not w.isdigit() or len(w) > 18:
            raise MathSetError(file, line, reels + j + 1, f"reel{j + 1}_weight: must be a whole number >= 0 "
                               f"(at most 18 digits), got {w!r}")
        weights[j].append(int(w))


def _csv_error_cell(text: str, line: int) -> tuple[int, int]:
    """(line, cell) of the quoting error in the CSV record that starts on 1-based ``line``.

    Finds an opening quote that is never closed, a character after a closing
    quote, or a cell longer than the csv module's field limit; else the start
    of the record.  Lines are split as the csv module splits them.
    """
    lines = list(io.StringIO(text, newline=""))
    limit = csv.field_size_limit()
    cell, state, size, opened = 1, "start", 0, (line, 1)
    for n in range(line - 1, len(lines)):
        for ch in lines[n]:
            if state == "quoted":
                if ch == '"':
                    state = "closed"
                else:
                    size += 1
                    if size > limit:
                        return opened
                continue
            if state == "closed":
                if ch == '"':  # a doubled quote inside a quoted cell
                    state, size = "quoted", size + 1
                    continue
                if ch not in ",\r\n":
                    return n + 1, cell
            if ch == ",":
                cell, state, size = cell + 1, "start", 0
            elif ch in "\r\n":
                return line, 1
            elif ch == '"' and state == "start":
                state, opened = "quoted", (n + 1, cell)
            else:
                state, size = "field", size + 1
                if size > limit:
                    return n + 1, cell
    return opened if state == "quoted" else (line, 1)


def strip_findings(strips: ReelStrips, model: GameModel, file: str) -> list[Finding]:
    """Soft findings for the strip rules of the game file (rules-page section 3 in the bundled set).

    Returns one :class:`Finding` per reel and rule broken: a strip length
    other than ``strip_rules.length`` or its entry of ``strip_rules.lengths``;
    with neither declared, a reel shorter than the longest reel (its CSV
    column ends early: the finding names the reel, its length and the line);
    two special symbols with fewer than
    ``min_pay_between_specials`` pay symbols between them (cyclic); a run of
    more than ``max_run_length`` symbols from ``max_run_symbols`` (cyclic).
    """
    rules = model.strip_rules
    out: list[Finding] = []
    special = {s.name for s in model.symbols if s.is_special}
    longest = max(strips.lengths)
    declared = rules.lengths_of(strips.name)
    for j, reel in enumerate(strips.reels):
        n = len(reel)
        if rules.length is not None and n != rules.length:
            out.append(Finding(file, 1, j + 1, f"reel {j + 1} has {n} stops, [strip_rules] length says {rules.length}"))
        elif declared is not None and n != declared[j]:
            out.append(Finding(file, n + 2, j + 1, f"reel {j + 1} has {n} stops, [strip_rules] lengths says "
                               f"{declared[j]}"))
        elif rules.length is None and declared is None and n < longest:
            widest = strips.lengths.index(longest) + 1
            shown = f"[{', '.join(map(str, strips.lengths))}]"
            hint = shown if len(model.strip_files) == 1 else f"{{ {strips.name} = {shown}, ... }} (one list per strip set)"
            out.append(Finding(file, n + 2, j + 1, f"reel {j + 1} has {n} stops, fewer than reel {widest} "
                               f"({longest}): its column ends early at line {n + 2} (if the reels differ on "
                               f"purpose, say so in game.toml: [strip_rules] lengths = {hint})"))
        gap = rules.min_pay_between_specials
        if gap:
            pos = [i for i, s in enumerate(reel) if s in special]
            for a, b in zip(pos, pos[1:] + [pos[0] + n] if pos else []):
                between = b - a - 1
                if len(pos) == 1:
                    between = n - 1
                if between < gap:
                    out.append(Finding(file, a + 2, j + 1, f"reel {j + 1}: only {between} pay symbols between "
                                       f"{reel[a]} at position {a} and {reel[b % n]} at position {b % n} "
                                       f"([strip_rules] min_pay_between_specials: {gap} or more)"))
                    break
        if rules.max_run_length and rules.max_run_symbols:
            inrun = [s in rules.max_run_symbols for s in reel]
            if all(inrun):
                out.append(Finding(file, 2, j + 1, f"reel {j + 1} holds only {'/'.join(sorted(rules.max_run_symbols))} symbols"))
                continue
            start = next(i for i in range(n) if not inrun[i])
            length = 0
            for k in range(1, n + 1):
                i = (start + k) % n
                if inrun[i]:
                    length += 1
                    if length == rules.max_run_length + 1:
                        first = (i - length + 1) % n
                        out.append(Finding(file, first + 2, j + 1, f"reel {j + 1}: run of more than "
                                           f"{rules.max_run_length} of {', '.join(sorted(rules.max_run_symbols))} from position {first} "
                                           f"([strip_rules] max_run: {rules.max_run_length} at most)"))
                        break
                else:
                    length = 0
    return out
