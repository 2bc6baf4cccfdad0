"""Reading a results table as published: CSV or tab-separated, every cell as text.

Published leaderboards (HELM, the Open LLM Leaderboard, GLUE) come as tab-separated text;
the other families read CSV. A file whose first line holds more tabs than commas is read as
tab-separated, without quoting (a ``"`` is text, a record is a line; a line of nothing but
white space and tabs is blank), through the one reader every family uses
(:func:`scoring.core.tables.read_table` over :mod:`scoring.core.csvread`): the same limits
checked on its bytes before anything is built from them (file size, header width, cell size,
UTF-8, a record's number of fields naming its row), then ``pyarrow.csv``; cells stripped and
spreadsheet rows kept exactly as for a CSV. Every problem is an
:class:`~scoring.core.errors.InputError` naming the file, the row and the problem.
"""

from __future__ import annotations

import csv
import io
import itertools
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..core.errors import InputError
from ..core.sources import source_bytes
from ..core.tables import arrow_array, read_table


def is_tab_separated(data: bytes) -> bool:
    """Whether the first line of ``data`` separates its fields with tabs.

    >>> is_tab_separated(b"Model\\tMMLU\\nA\\t0.5\\n"), is_tab_separated(b"team,unit,value\\n")
    (True, False)
    """
    cut = data.find(b"\n")
    line = data if cut < 0 else data[:cut]
    return line.count(b"\t") > line.count(b",")


def read_text_table(src, name: str, *, extra_field: str = "refuse") -> pd.DataFrame:
    """A CSV or tab-separated table with every cell as stripped text (``df.attrs["rows"]``:
    the spreadsheet row of each row, header = 1). A DataFrame is taken as it is.
    ``extra_field`` (every row one field longer than the header): ``refuse`` (an error naming
    the row, and the fix), ``first`` (the header lacks the first column's name: it is read as
    :data:`ROW_NAMES`) or ``last`` (a separator after the last field: the column it makes is
    :data:`AFTER_LAST`).

    >>> df = read_text_table(b"Model\\tA\\n m1 \\t\\"0.5\\n\\t \\nm2\\t-\\n", "r.tsv")
    >>> df.to_dict("list"), df.attrs["rows"].tolist()
    ({'Model': ['m1', 'm2'], 'A': ['"0.5', '-']}, [2, 4])
    >>> read_text_table(b"A\\tB\\nm1\\t1\\t2\\n", "r.tsv", extra_field="first").columns.tolist()
    ['(row names)', 'A', 'B']
    """
    if isinstance(src, pd.DataFrame):
        return read_table(src, name)
    data = source_bytes(src, name)
    tab = is_tab_separated(data.removeprefix(b"\xef\xbb\xbf"))
    sep, quoting = ("\t", False) if tab else (",", True)
    if extra_field != "refuse":
        data = complete_header(data, extra_field, sep.encode())
    try:
        return read_table(data, name, delimiter=sep, quoting=quoting)
    except InputError as e:
        if extra_field == "refuse" and "field" in e.problem and extra_field_guess(data) is not None:
            raise InputError(e.file, e.row, e.problem + "; every row has one field more than the header: set the "
                             "recipe's inputs.results.extra_field to first (the header lacks the first column's "
                             "name) or last (a separator after the last field)") from None
        raise


#: the name of the first column when the header lacks it (``extra_field = first``), and of the
#: column a separator after the last field makes (``extra_field = last``)
ROW_NAMES = "(row names)"
AFTER_LAST = "(after the last separator)"
#: records read to guess the header's shape
GUESS_ROWS = 1000


def complete_header(data: bytes, how: str, sep: bytes) -> bytes:
    """``data`` with its header one field longer: :data:`ROW_NAMES` first (``how = "first"``)
    or :data:`AFTER_LAST` last (``"last"``).

    >>> complete_header(b"A,B\\r\\nx,1,2\\r\\n", "first", b",")
    b'(row names),A,B\\r\\nx,1,2\\r\\n'
    """
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    body = data[len(bom):]
    cut = body.find(b"\n")
    line = body if cut < 0 else body[:cut]
    head = line[:-1] if line.endswith(b"\r") else line
    new = ROW_NAMES.encode() + sep + head if how == "first" else head + sep + AFTER_LAST.encode()
    return bom + new + line[len(head):] + body[len(line):]


def extra_field_guess(data: bytes) -> str | None:
    """Whether every record (of the first :data:`GUESS_ROWS`) has one field more than the
    header: ``"last"`` when each of them ends with an empty field (a trailing separator),
    ``"first"`` otherwise (the header lacks the first column's name); None when the records
    fit the header, differ from it otherwise, or the text is not UTF-8.

    >>> extra_field_guess(b"A\\tB\\nm\\t1\\t2\\n"), extra_field_guess(b"A,B\\n1,2,\\n3,4,\\n")
    ('first', 'last')
    """
    body = data.removeprefix(b"\xef\xbb\xbf")
    tab = is_tab_separated(body)
    try:
        text = body[:1 << 22].decode("utf-8")
    except UnicodeDecodeError:
        text = body[:1 << 22].decode("utf-8", "ignore")
    lines = text.splitlines()[:GUESS_ROWS + 1] if tab else None
    rows = ([line.split("\t") for line in lines] if tab
            else list(itertools.islice(csv.reader(io.StringIO(text, newline="")), GUESS_ROWS + 1)))
    if len(body) > 1 << 22 and len(rows) > 1:
        rows = rows[:-1]  # the last record may be cut
    header, records = (rows[0], [r for r in rows[1:] if any(f.strip() for f in r)]) if rows else ([], [])
    if not records or any(len(r) != len(header) + 1 for r in records):
        return None
    return "last" if all(not r[-1].strip() for r in records) else "first"


# ---- cells --------------------------------------------------------------------------------

#: a cell holding two numbers, ``a/b`` (GLUE's F1/accuracy)
PAIR = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*/\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$")
SPLITS = ("refuse", "first", "second", "mean", "both")


def parse_cells(cells: list[str], missing: frozenset[str], split: str, name: str, column: str,
                rows, *, text_ok: bool = True) -> tuple[np.ndarray, np.ndarray | None, int]:
    """Numbers from one column's text cells: ``(values, second, n_text)``.

    A cell in ``missing`` (compared without case) is NaN; ``a/b`` is split as ``split`` says
    (``refuse`` raises naming the row; ``both`` gives the second numbers in ``second``); a
    cell that is none of these is text: the count of such cells is returned, and the first one
    raises only when the column also holds numbers (a column of text is not a unit) or when
    ``text_ok`` is false.

    >>> v, s, t = parse_cells(["0.5", "-", "94.2/92.3"], frozenset({"-", ""}), "mean", "f", "c", [2, 3, 4])
    >>> v.tolist(), s, t
    ([0.5, nan, 93.25], None, 0)
    """
    n = len(cells)
    first = np.full(n, np.nan)
    second = np.full(n, np.nan)
    pairs = np.zeros(n, dtype=bool)
    text_at: list[int] = []
    for i, c in enumerate(cells):
        if c.lower() in missing:
            continue
        try:
            x = float(c)
        except ValueError:
            m = PAIR.match(c)
            if m is None:
                text_at.append(i)
                continue
            if split == "refuse":
                raise InputError(name, int(rows[i]), f"the cell of column {column!r} holds two numbers {c!r} (a/b); "
                                                     "the recipe's results split (first, second, mean or both) says "
                                                     "which to use", column=column, value=c) from None
            a, b = float(m.group(1)), float(m.group(2))
            if not (np.isfinite(a) and np.isfinite(b) and np.isfinite(a / 2 + b / 2)):
                raise InputError(name, int(rows[i]), f"the cell of column {column!r} is {c!r}: both numbers of a/b "
                                                     "must be finite", column=column, value=c) from None
            first[i], second[i], pairs[i] = a, b, True
            continue
        if not np.isfinite(x):
            raise InputError(name, int(rows[i]), f"the cell of column {column!r} is {c!r}, not a finite number",
                             column=column, value=c)
        first[i] = second[i] = x
    has_numbers = bool(np.isfinite(first).any())
    if text_at and (has_numbers or not text_ok):
        i = text_at[0]
        shown = cells[i] if len(cells[i]) <= 40 else cells[i][:37] + "..."
        raise InputError(name, int(rows[i]), f"the cell of column {column!r} is {shown!r}, not a number (nor a "
                                             f"missing mark: {', '.join(repr(m) for m in sorted(missing))})",
                         column=column, value=cells[i])
    if not pairs.any():
        return first, None, len(text_at)
    if split == "first":
        return first, None, 0
    if split == "second":
        return second, None, 0
    if split == "mean":
        return first / 2 + second / 2, None, 0  # not (a + b) / 2: finite for a, b near the largest float
    return first, second, 0


def parse_column(col: pd.Series, missing: frozenset[str], split: str, name: str, column: str, rows, *,
                 text_ok: bool = True) -> tuple[np.ndarray, np.ndarray | None, int]:
    """:func:`parse_cells` of a text column (as :func:`read_text_table` gives it), without a
    Python string per cell when every cell is a finite number or a missing mark: arrow's cast
    reads them at once (a million cells of a long table: ~0.1 s, no ~60 bytes per cell). Any
    other cell (text, ``a/b``, ``inf``, a number arrow does not read) goes the cell-by-cell way,
    which says what is wrong — so the values and the messages are those of :func:`parse_cells`.

    >>> v, s, t = parse_column(pd.Series(["0.5", "-", "2e3"], dtype="string[pyarrow]"), frozenset({"-", ""}),
    ...                        "refuse", "f", "c", [2, 3, 4])
    >>> v.tolist(), s, t
    ([0.5, nan, 2000.0], None, 0)
    """
    arr = arrow_array(col)
    if arr is not None and len(arr) and (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        miss = pc.is_in(pc.utf8_lower(arr), value_set=pa.array(sorted(missing), type=arr.type))
        miss = pc.fill_null(miss, True)
        try:
            num = pc.cast(pc.if_else(miss, pa.scalar(None, type=arr.type), arr), pa.float64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            num = None
        if num is not None:
            x = num.to_numpy(zero_copy_only=False).copy()  # writable (a null: NaN already)
            gap = miss.to_numpy(zero_copy_only=False)
            if np.isfinite(x[~gap]).all():
                x[gap] = np.nan
                return x, None, 0
    return parse_cells(col.tolist(), missing, split, name, column, rows, text_ok=text_ok)


def digits_shown(cells, split: str = "first") -> np.ndarray:
    """The decimals each cell shows (``"0.123"`` → 3, ``"12"`` → 0, ``"1.5e-3"`` → 4; a pair
    ``a/b`` as ``split`` reads it, the mean by the coarser of the two; −1 where there is no
    number): what the rounding of a published cell can hide is half a unit of its last digit.
    ``cells`` is a list or a text column; plain decimals are counted at once by arrow (no Python
    string per cell: a long table's million cells), only cells with an exponent or a pair one
    by one.

    >>> digits_shown(["0.123", "12", "1.5e-3", "-", "94.2/92.35", "x"], "mean").tolist()
    [3, 0, 4, -1, 1, -1]
    """
    def one(text: str) -> int:
        t = text.strip().lstrip("+-")
        mant, _, exp = t.lower().partition("e")
        try:
            float(t)
        except ValueError:
            return -1
        d = len(mant.split(".", 1)[1]) if "." in mant else 0
        return max(0, d - int(exp)) if exp else d

    arr = arrow_array(cells) if isinstance(cells, pd.Series) else None
    if arr is None or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        arr = pa.array(["" if c is None else str(c) for c in cells], type=pa.string())
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    t = pc.utf8_trim_whitespace(arr)
    out = np.full(len(t), -1, dtype=np.int64)
    plain = pc.fill_null(pc.match_substring_regex(t, r"^[-+]?(\d+\.?\d*|\.\d+)$"), False).to_numpy(zero_copy_only=False)
    length = pc.fill_null(pc.utf8_length(t), 0).to_numpy(zero_copy_only=False).astype(np.int64)
    dot = pc.fill_null(pc.find_substring(t, "."), -1).to_numpy(zero_copy_only=False).astype(np.int64)
    out[plain] = np.where(dot[plain] >= 0, length[plain] - dot[plain] - 1, 0)
    other = ~plain & pc.fill_null(pc.match_substring_regex(t, r"\d"), False).to_numpy(zero_copy_only=False)
    idx = np.flatnonzero(other)
    for i, c in zip(idx.tolist(), pc.take(t, pa.array(idx)).to_pylist(), strict=True):
        m = PAIR.match(c)
        if m is None:
            out[i] = one(c)
            continue
        a, b = one(m.group(1)), one(m.group(2))
        out[i] = a if split == "first" else b if split == "second" else min(a, b)
    return out
