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


# ---- delimiter and quoting (tab-separated text, read without quoting) ---------------------------

def tsv(data: bytes, **kw):
    return csvread.read_arrow(data, "f.tsv", delimiter="\t", quoting=False, **kw)


def test_options_are_checked():
    for bad in ("", ",,", '"', "\n", "\r", "é", 9):
        with pytest.raises(ValueError, match="one ASCII character"):
            csvread.read_arrow(b"a,b\n1,2\n", "f.csv", delimiter=bad)
    with pytest.raises(TypeError, match="True or False"):
        csvread.read_arrow(b"a,b\n1,2\n", "f.csv", quoting="no")


def test_tab_separated_without_quoting_is_read_line_by_line():
    # a quote is text; a comma is text; a line of spaces and tabs is blank (row 3 here)
    t, header, rows = tsv(b'a\tb\n"x\t1,5\n \t  \ny"\t"\n')
    assert header == ["a", "b"] and t.column("a").to_pylist() == ['"x', 'y"'] and t.column("b").to_pylist() == ["1,5", '"']
    assert rows.tolist() == [2, 4]
    # a lone \r ends a line (as Python's readers count lines); \r\n is one line end
    t, _, rows = tsv(b"a\tb\r1\t2\r\r3\t4\r\n5\t6")
    assert t.column("a").to_pylist() == ["1", "3", "5"] and rows.tolist() == [2, 4, 5]
    # non-ASCII white space makes a blank line too; other non-ASCII text does not
    t, _, rows = tsv("a\tb\n\u00a0\t\u3000\né\t1\n".encode())
    assert t.column("a").to_pylist() == ["é"] and rows.tolist() == [3]
    # the same file read as a CSV with a tab delimiter: quotes are quotes
    t, _, _ = csvread.read_arrow(b'a\tb\n"x\ty"\t1\n', "f.tsv", delimiter="\t")
    assert t.column("a").to_pylist() == ["x\ty"]


def test_tab_separated_problems_name_the_row():
    e = pytest.raises(InputError, tsv, b"a\tb\n1\t2\n\n3\t4\t5\n").value
    assert (e.file, e.row) == ("f.tsv", 4) and e.problem == "the row has 3 fields but the header has 2 (a stray or missing tab?)"
    e = pytest.raises(InputError, tsv, b"a\tb\r1\t2\r3\t\xe9\r").value  # rows counted as the field error counts them
    assert e.row == 3 and e.problem == "not a UTF-8 text file (undecodable bytes)"
    e = pytest.raises(InputError, tsv, b"a\tb\n1\t\x00\n").value
    assert e.problem.startswith("not a text file (it contains binary data")
    e = pytest.raises(InputError, tsv, b"a\t a \n1\t2\n").value
    assert e.row == 1 and e.problem == "duplicate column 'a' in the header"
    e = pytest.raises(InputError, tsv, b"\ra\tb\n1\t2\n").value  # an empty first line: no names
    assert e.row == 2 and "2 fields but the header has 0" in e.problem
    e = pytest.raises(InputError, tsv, b"\t".join(b"c%d" % i for i in range(limits.MAX_COLUMNS + 1)) + b"\n").value
    assert e.row == 1 and f"over the limit of {limits.MAX_COLUMNS:,}" in e.problem


def test_a_huge_tab_separated_cell_is_refused_before_anything_is_built_from_it():
    # 24 MiB in one cell: refused from the bytes (its row named), the memory it takes a small
    # multiple of the file (a parser, or a decoded copy, would hold the cell again and again)
    import tracemalloc
    for end in (b"\n", b"\r"):  # lone \r line ends: the bytes are copied once, with \n ends
        data = b"a\tb" + end + b"1\t2" + end + b"x" * (24 << 20) + b"\t3" + end
        tracemalloc.start()
        try:
            e = pytest.raises(InputError, tsv, data).value
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert e.row == 3 and "over the limit" in e.problem and "per cell" in e.problem
        assert peak < 2.5 * len(data)


def test_a_comma_separated_header_repeating_a_name_once_stripped_is_refused():
    e = problem(b"a,b, b\n1,2,3\n")  # read as written, 'b' and ' b' would be one column
    assert e.row == 1 and e.problem == "duplicate column 'b' in the header"


def test_cells_are_stripped_wherever_their_white_space_sits():
    from scoring.core.tables import read_table

    # the quick check looks at each cell's first and last byte: white space in the first cell,
    # the last cell, a cell after an empty one, a non-ASCII edge; and a column with none
    df = read_table(b"a,b\n x,1\ny,2\n,3\nz ,4\n\xc2\xa0w,5\nv\t,6\n", "f.csv")
    assert df["a"].tolist() == ["x", "y", "", "z", "w", "v"]
    assert df["b"].tolist() == ["1", "2", "3", "4", "5", "6"]
    assert read_table(b"a\nx\n \n", "f.csv")["a"].tolist() == ["x", ""]
