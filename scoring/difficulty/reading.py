"""Reading the family's CSV files fast, with the same meaning as :func:`scoring.core.tables.read_table`.

A predictions file holds one row per model and sample (100,000 samples × 50 models is five
million rows). ``read_table`` reads a column of numeric-looking ids (``sample_id``) through
its all-text path, some 15× slower than ``pandas.read_csv``; here pyarrow's CSV reader parses
the bytes (from :func:`scoring.core.sources.source_bytes`, which enforces the size limits)
with the text columns as text and the probability columns as numbers. Whatever it cannot
read exactly as ``read_table`` would (a stray comma, a cell with spaces around a number, an
empty probability, bytes that are not UTF-8, a quoted line break) sends the file to
``read_table``, which reads it or names the row and the problem.

Cells keep ``read_table``'s meaning: text as written (stripped), only an empty cell missing.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pv

from ..core.records import record_rows  # the spreadsheet row of every record (quotes, blank lines)

BOM = b"\xef\xbb\xbf"


def header_of(data: bytes) -> list[str]:
    """The header's column names, stripped (``[]`` when it cannot be read).

    >>> header_of(b"model, sample_id ,p0\\nbert,1,0.5\\n")
    ['model', 'sample_id', 'p0']
    """
    cut = data.find(b"\n")
    first = (data if cut < 0 else data[:cut]).removeprefix(BOM).decode("utf-8", "replace").rstrip("\r")
    try:
        return [c.strip() for c in next(csv.reader([first]))]
    except (csv.Error, StopIteration):
        return []


def arrow_read(data: bytes, header: list[str], types: dict[str, pa.DataType], *,
               newlines: bool = False) -> pa.Table | None:
    """The table pyarrow reads from ``data`` with the given column types (text columns as
    ``pa.string()`` or a dictionary of strings: an empty cell is ``''``, never null), or None
    when it cannot (the caller then uses ``read_table``)."""
    if not header or len(set(header)) != len(header) or any(h == "" for h in header):
        return None
    body = data.removeprefix(BOM)
    cut = body.find(b"\n")
    raw = next(csv.reader([(body if cut < 0 else body[:cut]).decode("utf-8", "replace").rstrip("\r")]))
    if [c.strip() for c in raw] != header:
        return None
    try:
        return pv.read_csv(
            pa.BufferReader(body),
            read_options=pv.ReadOptions(column_names=raw, skip_rows=1),
            parse_options=pv.ParseOptions(newlines_in_values=newlines),
            convert_options=pv.ConvertOptions(
                column_types={r: types.get(h, pa.string()) for r, h in zip(raw, header, strict=True)},
                strings_can_be_null=False, quoted_strings_can_be_null=False,
                null_values=[""], true_values=[], false_values=[]),
        ).rename_columns(header)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, UnicodeDecodeError):
        return None


def row_numbers(data: bytes, n_fields: int, n_rows: int, name: str) -> np.ndarray:
    """The spreadsheet row (header = 1) of each of ``n_rows`` records of ``data``.

    >>> row_numbers(b"a,b\\n1,2\\n\\n3,4\\n", 2, 2, "f.csv").tolist()
    [2, 4]
    """
    if b'"' not in data:
        lines = data.count(b"\n") + (not data.endswith(b"\n"))
        if lines == n_rows + 1:  # no blank line: record i is on line i + 2
            return np.arange(2, n_rows + 2)
    rows = record_rows(data.removeprefix(BOM), n_fields, name, quick=False)
    if rows is None or len(rows) != n_rows:
        return np.arange(2, n_rows + 2)
    return rows


def text_column(col) -> pa.Array:
    """One contiguous, stripped string array from a (chunked) arrow text column."""
    arr = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    if pa.types.is_dictionary(arr.type):
        arr = arr.cast(pa.string())
    return pc.utf8_trim_whitespace(arr)


def dictionary_codes(col: pa.ChunkedArray, known: dict[str, int] | None = None) -> tuple[np.ndarray, list[str]]:
    """Codes (int32) of a dictionary-typed text column and its values (stripped), numbered in
    the order the values are met (``known`` values keep their numbers)."""
    values: dict[str, int] = dict(known or {})
    out = np.empty(len(col), dtype=np.int32)
    at = 0
    for chunk in col.chunks:
        names = [str(v).strip() for v in chunk.dictionary.to_pylist()]
        lookup = np.array([values.setdefault(v, len(values)) for v in names] or [0], dtype=np.int32)
        idx = chunk.indices.to_numpy(zero_copy_only=False)
        out[at:at + len(chunk)] = lookup[idx]
        at += len(chunk)
    return out, list(values)


def first_appearance(codes: np.ndarray, n: int) -> np.ndarray:
    """The row of the first appearance of each code ``0..n-1`` (len(codes) when absent), in
    O(rows) also for long runs of one value.

    >>> first_appearance(np.array([2, 2, 0, 0, 2, 1]), 4).tolist()
    [2, 5, 0, 6]
    """
    first = np.full(n, len(codes), dtype=np.int64)
    if len(codes):
        starts = np.concatenate(([0], np.flatnonzero(codes[1:] != codes[:-1]) + 1))
        np.minimum.at(first, codes[starts], starts)
    return first


def index_of(col: pa.Array, values: pa.Array) -> np.ndarray:
    """Position of each cell in ``values`` (-1 when absent), as int64."""
    idx = pc.index_in(col, value_set=values)
    return np.asarray(pc.fill_null(idx, -1), dtype=np.int64)


def listing(rows: Iterable[int], total: int, limit: int = 10) -> str:
    """``rows 3, 7 and 9`` / ``rows 3, 7, … (12 in all)``.

    >>> listing([5], 1), listing([2, 4, 9], 3), listing([2, 4, 9], 12, limit=2)
    ('row 5', 'rows 2, 4 and 9', 'rows 2, 4, … (12 in all)')
    """
    rows = [str(r) for r in list(rows)[:limit]]
    if total == 1:
        return f"row {rows[0]}"
    if total > len(rows):
        return f"rows {', '.join(rows)}, … ({total} in all)"
    return f"rows {', '.join(rows[:-1])} and {rows[-1]}"
