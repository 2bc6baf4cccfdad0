"""Reading CSV input with every cell as text, and the checks every family's loader shares.

A file is read by :mod:`scoring.core.csvread` (the limits on its bytes, then ``pyarrow.csv``);
here its columns become pandas text (or float) columns, stripped.

A table comes back with its spreadsheet row numbers (header = row 1) in ``df.attrs["rows"]``,
so that every message can name the file, the row and the problem.
"""

from __future__ import annotations

import difflib

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from . import limits
from .csvread import read_arrow
from .errors import InputError
from .records import cell_error, check_header
from .sources import source_bytes, source_name  # noqa: F401  (re-exported)

_STR = pd.StringDtype("pyarrow", na_value=np.nan)


def arrow_array(strings):
    """The pyarrow array behind a pandas (arrow-backed) string Series, or None."""
    arr = getattr(getattr(strings, "array", None), "_pa_array", None)
    if arr is None:
        return None
    if isinstance(arr, pa.ChunkedArray):  # one chunk (as read_table leaves them): no copy
        return arr.chunk(0) if arr.num_chunks == 1 else arr.combine_chunks()
    return arr


def text_series(arr, index=None) -> pd.Series:
    """An arrow text array as a pandas text Series (the dtype :func:`read_table` gives), no copy."""
    return pd.Series(pd.arrays.ArrowStringArray(pa.chunked_array([arr]), dtype=_STR), index=index, copy=False)


def read_table(src, name: str, numeric=None, keep=None, *, delimiter: str = ",", quoting: bool = True) -> pd.DataFrame:
    """Read a CSV (or take a DataFrame) with every cell as stripped text; only '' is missing.

    ``numeric(column) -> bool`` names columns that hold numbers (probabilities, runtimes):
    those come back as float columns when every cell is a number (else as text, for the
    caller's check to name the cell: :func:`parse_number_column`). Every other column is
    text exactly as written (``007`` stays ``007``, ``NA`` stays ``NA``). Blank lines are
    skipped; a line with more or fewer fields than the header is an error naming its row.
    :func:`row_of` gives the spreadsheet row (header = 1) of each row of the result.
    ``keep`` (a set of names) leaves out the other columns once the header has been checked
    whole (of a DataFrame, only the kept columns are converted). ``delimiter`` and ``quoting``
    (a file's; :mod:`scoring.core.csvread`): ``"\t"`` and ``False`` read tab-separated text.
    """
    if isinstance(src, pd.DataFrame):
        names = [str(c).strip() for c in src.columns]
        check_header(names, name)
        # cells become (arrow) text, as if read from a file; a missing cell is ''
        cols = {}
        for j, c in enumerate(names):
            if keep is None or c in keep:
                cols[c] = col = _text_column(src.iloc[:, j])
                lengths = _lengths(arrow_array(col))
                if len(lengths) and lengths.max() > limits.MAX_CELL_BYTES:
                    i = int(np.argmax(lengths))
                    raise cell_error(name, i + 2, int(lengths[i]), c)
        df = pd.DataFrame(cols)
        rows = src.attrs.get("rows")  # a table read before (a re-check keeps its spreadsheet rows)
        df.attrs["rows"] = np.asarray(rows) if rows is not None and len(rows) == len(df) else np.arange(len(df)) + 2
        if keep is not None:
            df.attrs["header"] = names  # for require_columns' hints
        return df
    types = None if numeric is None else (lambda c: pa.float64() if numeric(c) else None)
    table, header, rows = read_arrow(src, name, types=types, keep=keep, delimiter=delimiter, quoting=quoting)
    cols = {}
    for c, col in zip(table.column_names, table.columns, strict=True):
        arr = col.chunk(0) if col.num_chunks == 1 else col.combine_chunks()
        if pa.types.is_floating(arr.type):
            cols[c] = pd.Series(arr.to_numpy(zero_copy_only=False), dtype=float, copy=False)
        else:
            cols[c] = text_series(_trim(arr))
    df = pd.DataFrame(cols) if cols else pd.DataFrame(index=pd.RangeIndex(len(rows)))
    if keep is not None:
        df.attrs["header"] = [h.strip() for h in header]  # for require_columns' hints
    df.attrs["rows"] = rows if len(rows) == len(df) else np.arange(len(df)) + 2
    return df


def _offsets(arr) -> np.ndarray | None:
    """The offsets of a (large) string array without nulls, as a numpy view; else None."""
    if len(arr) == 0 or arr.null_count or arr.buffers()[1] is None or not (
            pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        return None
    odt = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    return np.frombuffer(arr.buffers()[1], dtype=odt)[arr.offset: arr.offset + len(arr) + 1]


def _lengths(arr) -> np.ndarray:
    """Bytes per cell."""
    offs = _offsets(arr)
    if offs is not None:
        return np.diff(offs).astype(np.int64)
    return np.asarray(pc.fill_null(pc.binary_length(arr), 0), dtype=np.int64)


def _trim(arr):
    """``utf8_trim_whitespace``, skipped when no cell starts or ends with a byte that could
    be white space (ASCII space or control, or any non-ASCII byte): most columns have none."""
    offs = _offsets(arr)
    if offs is not None and arr.buffers()[2] is not None and offs[-1] > offs[0]:
        data = np.frombuffer(arr.buffers()[2], dtype=np.uint8)[: int(offs[-1])]
        # each cell's first and last byte. An empty cell reads its neighbours' bytes: at worst
        # a needless trim, never a missed one.
        first = data.take(offs[:-1], mode="clip")
        last = data.take(offs[1:] - 1, mode="clip")
        if not ((first <= 32) | (first >= 127) | (last <= 32) | (last >= 127)).any():
            return arr
    return pc.utf8_trim_whitespace(arr)


def _text_column(col: pd.Series) -> pd.Series:
    arr = arrow_array(col)
    if arr is None or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        values = col.to_numpy(dtype=object)
        arr = pa.array(["" if v is None or (isinstance(v, float) and v != v) else str(v) for v in values],
                       type=pa.large_string())
    arr = _trim(pc.fill_null(arr, ""))
    return text_series(arr)


def row_of(df: pd.DataFrame, i: int) -> int:
    """The spreadsheet row number (header = 1) of row ``i`` of a table from :func:`read_table`."""
    rows = df.attrs.get("rows")
    return int(rows[i]) if rows is not None and i < len(rows) else int(i) + 2


def first_duplicate(df: pd.DataFrame, column: str, name: str, what: str) -> None:
    """Raise for the first repeated value of ``column``, naming both rows."""
    dup = df[column].duplicated(keep="first").to_numpy()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        first = int(np.flatnonzero((df[column] == df[column].iloc[i]).to_numpy())[0])
        raise InputError(name, row_of(df, i), f"duplicate {what} {df[column].iloc[i]!r} (first on row {row_of(df, first)})",
                         column=column, value=str(df[column].iloc[i]))


def read_named_numbers(src, name: str, column: str, *, positive: bool) -> dict[str, float]:
    """A ``submission,<column>`` file (runtimes, scores): names unique and non-empty, every
    value a finite number, > 0 when ``positive`` else >= 0. Returns name -> value in file order."""
    df = read_table(src, name, numeric=lambda c: c == column)
    require_columns(df, ["submission", column], name)
    first_empty(df, "submission", name)
    first_duplicate(df, "submission", name, "submission")
    vals = parse_number_column(df[column], name, column, df.attrs["rows"])
    bad = ~np.isfinite(vals) | ((vals <= 0) if positive else (vals < 0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        limit = "> 0" if positive else ">= 0"
        raise InputError(name, row_of(df, i), f"{column} must be a finite number {limit}, got {cell(df[column], i)}",
                         column=column, value=str(df[column].iloc[i]))
    return dict(zip(df["submission"].tolist(), vals.tolist(), strict=True))


def cell(col: pd.Series, i: int) -> str:
    """A cell for a message, quoted: text as written, numbers as read."""
    v = col.iloc[i]
    return repr(v if isinstance(v, str) else format(float(v), "g"))


def codes(col: pd.Series | pa.Array, categories) -> np.ndarray:
    """Position of each cell's value in ``categories`` (-1 when absent), as int64.
    ``col`` is a text column of :func:`read_table` or an arrow array; ``categories`` may be a
    pyarrow array already (built once for many calls)."""
    arr = col if isinstance(col, pa.Array) else arrow_array(col)  # read_table's columns are arrow-backed
    values = categories.cast(arr.type) if isinstance(categories, pa.Array) else \
        pa.array([str(c) for c in categories], type=arr.type)
    idx = pc.index_in(arr, value_set=values)
    return np.asarray(pc.fill_null(idx, -1), dtype=np.int64)


def factorize(col: pd.Series, *, sort: bool = False, grouped: bool = False) -> tuple[np.ndarray, pa.Array]:
    """``(codes, categories)`` of a text column in one hashing pass: ``categories[codes]`` is
    the column. Categories come in order of first appearance, or sorted with ``sort=True``.
    ``grouped``: equal values usually sit together (essay ids), so when the rows form few
    runs only one value per run is hashed.

    >>> c, cats = factorize(pd.Series(["b", "b", "a", "b"], dtype="str"), sort=True, grouped=True)
    >>> c.tolist(), cats.to_pylist()
    ([1, 1, 0, 1], ['a', 'b'])
    """
    arr = arrow_array(col)
    if arr is None:
        arr = pa.array(col.astype(str).tolist(), type=pa.large_string())
    n = len(arr)
    run_len = None
    if grouped and n > 1 and arr.null_count == 0:
        change = np.asarray(pc.not_equal(arr.slice(1), arr.slice(0, n - 1)), dtype=bool)
        starts = np.flatnonzero(np.concatenate(([True], change)))
        if 4 * len(starts) <= n:
            run_len = np.diff(np.append(starts, n))
            arr = arr.take(pa.array(starts))
    enc = pc.dictionary_encode(arr)
    idx = np.asarray(pc.fill_null(enc.indices, -1), dtype=np.int64)
    cats = enc.dictionary
    if sort and len(cats) > 1:
        order = np.asarray(pc.array_sort_indices(cats), dtype=np.int64)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        idx, cats = rank[idx], cats.take(pa.array(order))
    return (idx if run_len is None else np.repeat(idx, run_len)), cats


def require_columns(df: pd.DataFrame, required: list[str], name: str) -> None:
    cols = list(df.attrs.get("header", df.columns))  # the whole header of a table read with ``keep``
    check_header(cols, name)
    for c in required:
        if c not in df.columns:
            hint = difflib.get_close_matches(c, cols, n=1, cutoff=0.6)
            extra = f"; did you mean {hint[0]!r}?" if hint else ""
            found = ", ".join(repr(x) for x in cols[:12]) or "none"
            raise InputError(name, 1, f"missing column {c!r} (columns found: {found}){extra}", column=c)


def empty_cells(col: pd.Series) -> np.ndarray | None:
    """Boolean mask of the empty cells of a text column, or None when there are none."""
    arr = arrow_array(col)  # every text column of read_table is arrow-backed
    offs = _offsets(arr)
    if offs is not None:  # lengths straight from the offsets buffer (no per-cell work)
        empty = offs[1:] == offs[:-1]
        return empty if empty.any() else None
    eq = pc.equal(pc.utf8_length(arr), 0)
    return np.asarray(eq, dtype=bool) if pc.any(eq).as_py() else None


def first_empty(df: pd.DataFrame, column: str, name: str, what: str | None = None) -> None:
    empty = empty_cells(df[column])
    if empty is not None:
        i = int(np.flatnonzero(empty)[0])
        raise InputError(name, row_of(df, i), f"{what or column!r} is empty", column=column, value="")


def parse_number_column(col: pd.Series, name: str, what: str, lines, column: str | None = None) -> np.ndarray:
    """Numbers from text; raise for the first empty or non-numeric cell (``lines``: the
    spreadsheet row of each cell, as ``read_table`` records them; ``column``: its name, for
    the error, else the Series' name)."""
    column = column if column is not None else (str(col.name) if col.name is not None else None)
    if pd.api.types.is_float_dtype(col.dtype):  # parsed by the CSV reader
        return col.to_numpy(dtype=float)
    try:  # arrow's string -> float cast is a correctly rounded parser
        vals = np.asarray(pc.cast(arrow_array(col), pa.float64()), dtype=float)
        if not np.isnan(vals).any():
            return vals
    except pa.ArrowInvalid:  # not all numbers: find the first bad cell below
        pass
    s = col.to_numpy(dtype=object)
    empty = col.to_numpy() == ""
    if empty.any():
        i = int(np.flatnonzero(empty)[0])
        raise InputError(name, int(lines[i]), f"{what} is missing (empty cell)", column=column, value="")
    vals = pd.to_numeric(pd.Series(s), errors="coerce").to_numpy(dtype=float)
    bad = np.isnan(vals)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(name, int(lines[i]), f"{what} {str(s[i])[:30]!r} is not a number", column=column,
                         value=str(s[i]))
    return vals
