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

from ..core.errors import InputError
from ..core.sources import source_bytes
from ..core.tables import read_table


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
