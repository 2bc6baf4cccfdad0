"""Reading the family's CSV files fast, with the same meaning as :func:`scoring.core.tables.read_table`.

A predictions file holds one row per model and sample (100,000 samples × 50 models is five
million rows). ``read_table`` reads a column of numeric-looking ids (``sample_id``) through
the same reader (:mod:`scoring.core.csvread`: the limits, then ``pyarrow.csv``) without
``read_table``'s row numbers (counted only when a message needs one) and with the model and
label columns as dictionaries. Whatever it cannot read exactly as ``read_table`` would (a
stray comma, an empty probability, bytes that are not UTF-8) sends the file to
``read_table``, which names the row and the problem.

Cells keep ``read_table``'s meaning: text as written (stripped), only an empty cell missing.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core import records
from ..core.csvread import checked_bytes, parse, rows_of
from ..core.errors import InputError

BOM = b"\xef\xbb\xbf"


def header_of(data: bytes, name: str) -> list[str]:
    """The header's column names, stripped (``scoring.core.records.header_of`` after a byte-order
    mark: ``[]`` when it cannot be read; too many columns is an ``InputError``).

    >>> header_of(b"model, sample_id ,p0\\nbert,1,0.5\\n", "p.csv")
    ['model', 'sample_id', 'p0']
    """
    return [c.strip() for c in records.header_of(data.removeprefix(BOM), name)]


def arrow_read(data: bytes, types: dict[str, pa.DataType], name: str) -> pa.Table | None:
    """The table :mod:`scoring.core.csvread` reads from ``data`` (limits first, then
    ``pyarrow.csv``) with the given column types (text columns as ``large_string`` or a
    dictionary of strings: an empty cell is ``''``, never null), or None when it cannot read
    every typed column as that type, or finds a problem (the caller then uses ``read_table``,
    which names it)."""
    try:
        body, header = checked_bytes(data, name)
        table = parse(body, header, name, types=types)
    except InputError:
        return None
    if any(table[c].type != t for c, t in types.items() if c in table.column_names):
        return None
    return table


def row_numbers(data: bytes, n_fields: int, n_rows: int, name: str) -> np.ndarray:
    """The spreadsheet row (header = 1) of each of ``n_rows`` records of ``data``.

    >>> row_numbers(b"a,b\\n1,2\\n\\n3,4\\n", 2, 2, "f.csv").tolist()
    [2, 4]
    """
    return rows_of(data.removeprefix(BOM), n_fields, n_rows, name)


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
