"""The PAR workbook as a lab prints it, read back with openpyxl: number formats (6 significant digits at any
size, 1 in N, percent), no cell cut to ###, headers aligned with their numbers, units in their own header row,
a print setup on every sheet, Compliance saying exact or bound, Published in plain text, Exact last."""
from __future__ import annotations

import math
import re
from fractions import Fraction

import openpyxl
import pytest

from exact.cli import main
from exact.comply import comply, load_rules
from exact.export import EXACT_WIDTH, PROB, TEXT_WIDTH, cell_format, shown_text
from exact.par import par_sheet
from strips.loader import load_math_set
from mathset_files import plain_wheel_game


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    out = {}
    for name in ("rules_page", "wheel_game"):       # export refuses frames: the wheel game without them
        path = tmp_path_factory.mktemp(name) / "par.xlsx"
        where = str(plain_wheel_game()) if name == "wheel_game" else name
        assert main(["export", "--set", where, "--xlsx", str(path)]) == 0
        out[name] = openpyxl.load_workbook(path)
    return out


#: A number written as text (an exact p/q, a value beyond a float's range): aligned as a number.
NUMBER = re.compile(r"[+-]?\d+(\.\d+)?([eE][+-]?\d+)?(/\d+)?")


def _data(ws):
    return list(ws.iter_rows(min_row=3))


def _significant_digits(text: str) -> int:
    mant = text.replace("1 in ", "").replace(",", "").replace("%", "").split("E")[0]
    return len(mant.replace(".", "").replace("-", "").lstrip("0"))


def test_probability_cells_keep_six_significant_digits_at_any_size(books):
    seen_small = seen_plain = 0
    for wb in books.values():
        for ws in wb.worksheets:
            names = [c.value for c in ws[1]]
            for row in _data(ws):
                for name, cell in zip(names, row):
                    v = cell.value
                    if name != "probability" or not isinstance(v, float) or v == 0:
                        continue
                    fmt = cell.number_format
                    if abs(v) < 1e-4:
                        assert fmt == "0.00000E+00", (ws.title, cell.coordinate, v, fmt)
                        seen_small += 1
                    else:
                        places = len(fmt.split(".")[1])
                        text = f"{v:.{places}f}"
                        assert _significant_digits(text) == 6 or (v >= 1 and places == 5), (ws.title, cell.coordinate)
                        seen_plain += 1
    assert seen_small and seen_plain


def test_odds_are_one_in_n_and_rtp_is_percent(books):
    wb = books["rules_page"]
    for ws in wb.worksheets:
        names = [c.value for c in ws[1]]
        for row in _data(ws):
            for name, cell in zip(names, row):
                if name in ("odds", "value, odds", "limit, odds") and isinstance(cell.value, (int, float)):
                    assert cell.number_format.startswith('"1 in "'), (ws.title, cell.coordinate)
                if name in ("RTP", "RTP contribution") and isinstance(cell.value, float):
                    assert cell.number_format.endswith("%"), (ws.title, cell.coordinate)
    summary = {r[0].value: r[1] for r in _data(wb["Summary"])}
    assert summary["RTP"].number_format.endswith("%")
    assert summary["trigger, odds"].number_format.startswith('"1 in "')
    comp = wb["Compliance"]
    names = [c.value for c in comp[1]]
    for row in _data(comp):
        d = dict(zip(names, row))
        if d["item"].value == "RTP":
            limit = d["min"] if d["min"].value is not None else d["max"]
            assert d["value"].number_format.endswith("%") and limit.number_format.endswith("%")
        if d["rule"].value == "gli-11-4.8.2":
            assert d["min"].number_format == "0.00000E+00" and d["limit, odds"].value == 100_000_000
            assert d["limit, odds"].number_format == '"1 in "#,##0.00'


def test_compliance_says_exact_or_bound_for_every_check(books):
    ms = load_math_set(plain_wheel_game())
    checks = comply(ms, load_rules(), sheet=par_sheet(ms))
    comp = books["wheel_game"]["Compliance"]
    names = [c.value for c in comp[1]]
    col = names.index("exact or bound")
    kinds = [row[col].value for row in _data(comp)]
    assert len(kinds) == len(checks)
    assert [k == "exact" for k in kinds] == [c.exact for c in checks]
    assert any(k.startswith("lower bound") for k in kinds) and "exact" in kinds


def test_no_cell_is_cut_and_headers_align_with_their_numbers(books):
    for wb in books.values():
        for ws in wb.worksheets:
            for j, (head, unit) in enumerate(zip(ws[1], ws[2])):
                letter = head.column_letter
                width = ws.column_dimensions[letter].width
                cells = [row[j] for row in _data(ws) if j < len(row) and row[j].value is not None]
                numbers = [c for c in cells if isinstance(c.value, (int, float)) and not isinstance(c.value, bool)]
                number_text = [c for c in cells if isinstance(c.value, str) and NUMBER.fullmatch(c.value)]
                for c in numbers:
                    assert len(shown_text(c.value, c.number_format)) < width, (ws.title, c.coordinate, width)
                if cells and len(numbers) + len(number_text) == len(cells):
                    assert head.alignment.horizontal == "right" and unit.alignment.horizontal == "right", \
                        (ws.title, letter)
                if cells and not numbers and not number_text:
                    assert head.alignment.horizontal == "left", (ws.title, letter)
                cap = EXACT_WIDTH if ws.title == "Exact" and j == ws.max_column - 1 else TEXT_WIDTH
                assert width <= max(cap + 2, max((len(shown_text(c.value, c.number_format)) + 2 for c in numbers),
                                                 default=0)), (ws.title, letter, width)
                for c in cells:
                    if isinstance(c.value, str) and len(c.value) > cap:
                        assert c.alignment.wrap_text, (ws.title, c.coordinate)


def test_the_shown_text_is_what_the_format_shows():
    assert shown_text(100_000_000, '"1 in "#,##0.00') == "1 in 100,000,000.00"
    assert shown_text(6.103672e-09, cell_format(PROB, 6.103672e-09)) == "6.10367e-09"
    assert shown_text(0.95999669, "0.000000%") == "95.999669%"
    assert shown_text(0.00555827, cell_format(PROB, 0.00555827)) == "0.00555827"


def test_every_sheet_prints_landscape_fitted_with_repeated_headers(books):
    for wb in books.values():
        for ws in wb.worksheets:
            assert ws.page_setup.orientation == "landscape", ws.title
            assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 0, ws.title
            assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
            assert ws.print_title_rows == "$1:$2" and ws.freeze_panes == "A3", ws.title
            assert ws.oddHeader.center.text == "&A" and "&P" in ws.oddFooter.center.text, ws.title


def test_units_have_their_own_header_row(books):
    for wb in books.values():
        for ws in wb.worksheets:
            names = [c.value for c in ws[1]]
            assert all(isinstance(n, str) and "(" not in n for n in names), (ws.title, names)
    comb = books["rules_page"]["Combinations"]
    units = dict(zip([c.value for c in comb[1]], [c.value for c in comb[2]]))
    assert units["probability"] == "per base spin" and units["pay"] == "credits per way"
    assert units["hits per cycle"] == f"of {100 ** 5:,} stop combinations"
    summary = {r[0].value: r[2].value for r in _data(books["rules_page"]["Summary"])}
    assert summary["mean win"] == "credits per round" and summary["variance"] == "credits^2 per round"


def test_published_is_plain_text_and_exact_is_last_and_readable(books):
    wb = books["rules_page"]
    assert wb.sheetnames[-1] == "Exact"
    for row in _data(wb["Published"]):
        for c in row:
            if isinstance(c.value, str):
                assert not re.search(r"Fraction\(|^\(|^True$|^False$|^\(\)$|\[\]", c.value), (c.coordinate, c.value)
    rows = {r[0].value: r for r in _data(wb["Published"])}
    pays = next(r for k, r in rows.items() if k.startswith("PIC1 pays"))
    assert pays[3].value == "0, 0, 5, 15, 50"
    ws = wb["Exact"]
    assert [c.value for c in ws[2]][-1] == "p/q" and ws.column_dimensions["E"].width >= 80
    assert all(ws.column_dimensions[x].width <= TEXT_WIDTH + 2 for x in "ABCD")
    rtp = next(r for r in _data(ws) if r[0].value == "Summary" and r[2].value == "RTP")
    assert Fraction(rtp[4].value) == par_sheet(load_math_set("rules_page")).rtp and rtp[4].alignment.wrap_text
    assert math.isclose(wb["Summary"][rtp[1].value].value, float(Fraction(rtp[4].value)))
