"""The one CSV reader (scoring.core.csvread): the limits before the parser, pyarrow.csv's
records with the spreadsheet rows a person sees, and every problem the parser meets named in
our words with its file and row."""

from __future__ import annotations

import pyarrow as pa
import pytest

from scoring.core import csvread, limits
from scoring.core.errors import InputError


def problem(data: bytes, **kw) -> InputError:
    with pytest.raises(InputError) as err:
        csvread.read_arrow(data, "f.csv", **kw)
    return err.value


def test_rows_count_blank_lines_and_cells_that_span_lines():
    # row 2; blank row 3; row 4 holds a quoted line break (a spreadsheet shows it as one row); row 5
    t, header, rows = csvread.read_arrow(b'a,b\n1,x\n\n2,"y\nz"\n3,w\n', "f.csv")
    assert t.column("b").to_pylist() == ["x", "y\nz", "w"] and header == ["a", "b"]
    assert rows.tolist() == [2, 4, 5]


def test_columns_asked_as_numbers_are_numbers_only_when_every_cell_is_one():
    t = csvread.read_arrow(b"a,p\nx,0.5\ny, 1e-1\n", "f.csv", types={"p": pa.float64()})[0]
    assert t.column("p").type == pa.float64() and t.column("p").to_pylist() == [0.5, 0.1]
    for odd in (b"high", b"", b"nan", b"True"):  # text, empty, NaN: the column stays text as written
        t = csvread.read_arrow(b"a,p\nx,0.5\ny," + odd + b"\n", "f.csv", types=lambda c: pa.float64() if c == "p" else None)[0]
        assert t.column("p").to_pylist() == ["0.5", odd.decode()]


def test_problems_the_parser_meets_are_named_by_our_own_checks():
    e = problem(b'a,b\n1,"x"\n2,y,z\n')  # quoted file: the parser stops; the row is found again
    assert (e.file, e.row) == ("f.csv", 3) and "3 fields but the header has 2" in e.problem
    e = problem(b'a,b\n1,x\n2,"y\n3,z\n')
    assert e.row == 3 and "never closed" in e.problem
    e = problem(b"a,b\n1,x\n2,\xe9\n")
    assert e.row == 3 and "not a UTF-8" in e.problem
    e = problem(b"a,b\n1,x\n2\n3,y,z\n")  # comma total matches: the quick count passes, the parser does not
    assert e.row == 3 and "1 field but the header has 2" in e.problem


def test_limits_come_before_the_parser(monkeypatch):
    monkeypatch.setattr(limits, "MAX_CELL_BYTES", 64)
    e = problem(b"a,b\n1," + b"x" * 100 + b"\n")
    assert e.row == 2 and "over the limit" in e.problem
    # a quoted cell whose lines are each under the limit: measured once parsed, its row named
    cell = b'"' + b"\n".join([b"y" * 40] * 4) + b'"'
    e = problem(b"a,b\n1,x\n2," + cell + b"\n" + b"3,z\n" * 30)
    assert e.row == 3 and "a cell holds 163 bytes" in e.problem
    assert "binary data" in problem(b"a,b\n1,\x00\n").problem
    assert "empty" in problem(b"\xef\xbb\xbf \n").problem


def test_kept_columns_and_a_header_without_rows():
    t, header, rows = csvread.read_arrow(b"a, b ,c\n1,2,3\n4,5,6\n", "f.csv", keep={"b"})
    assert t.column_names == ["b"] and header == ["a", " b ", "c"] and rows.tolist() == [2, 3]
    t, _, rows = csvread.read_arrow(b"a,b\n1,2\n4,5\n", "f.csv", keep={"zz"})
    assert t.num_columns == 0 and t.num_rows == 2 and rows.tolist() == [2, 3]
    t, _, rows = csvread.read_arrow(b"a,b\n\n", "f.csv")
    assert t.num_rows == 0 and t.column_names == ["a", "b"] and len(rows) == 0
