"""The samples file (spec §1): ``sample_id, label``, optional ``text``, and numeric ease columns.

Every column other than ``sample_id``, ``label`` and ``text`` whose non-empty cells are all
finite numbers is an *ease column* (an empty cell = not scored); any other extra column is
kept out of the choice and, when asked for as ``ease_column``, named with its first
non-numeric cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..core.errors import InputError
from ..core.sources import source_bytes
from ..core.tables import arrow_array, read_table, require_columns
from .reading import arrow_read, header_of, row_numbers, text_column

KEY_COLUMNS = ("sample_id", "label", "text")


@dataclass
class Samples:
    """The validated samples: ids (file order), gold labels, text, ease columns."""

    file: str
    ids: pa.Array  # stripped ids, file order
    labels: tuple[str, ...]  # the gold labels, sorted
    gold: np.ndarray  # (N,) code of each sample's label in ``labels``
    text: np.ndarray | None  # (N,) str, or None without a text column
    ease: dict[str, np.ndarray]  # numeric column -> (N,) float, NaN = not scored
    not_numeric: dict[str, tuple[int, str]] = field(default_factory=dict)  # column -> (index, cell)
    key_columns: tuple[str, ...] = ()  # sample_id, label and text when present
    _rows: np.ndarray | None = None
    _data: bytes | None = None
    _n_fields: int = 0

    @property
    def n(self) -> int:
        return len(self.ids)

    @cached_property
    def rows(self) -> np.ndarray:
        """Spreadsheet row (header = 1) of every sample."""
        if self._rows is None:
            self._rows = row_numbers(self._data, self._n_fields, self.n, self.file)
            self._data = None
        return self._rows

    @cached_property
    def id_list(self) -> list[str]:
        return self.ids.to_pylist()

    def ease_values(self, column: str) -> np.ndarray:
        """The (N,) values of ease column ``column``; ``InputError`` naming the samples file,
        the row and the problem when there is no such column or it is not numeric."""
        if column in self.ease:
            return self.ease[column]
        if column in self.not_numeric:
            i, cell = self.not_numeric[column]
            raise InputError(self.file, int(self.rows[i]),
                             f"column {column!r} is not numeric ({cell[:40]!r}), so it cannot be the ease column")
        known = ", ".join(self.ease) or "none"
        if column in self.key_columns:
            raise InputError(self.file, 1, f"column {column!r} is the samples' {column.replace('_', ' ')}, not an ease "
                                           f"column (numeric columns: {known})")
        raise InputError(self.file, 1, f"no column {column!r} to use as the ease column (numeric columns: {known})")


def read_samples(src, name: str) -> Samples:
    """Read and validate a samples file (path, bytes, file-like or DataFrame)."""
    cols, rows, data, n_fields = _columns(src, name)
    require_columns(pd.DataFrame(columns=list(cols)), ["sample_id", "label"], name)
    ids, labels = cols["sample_id"], cols["label"]
    n = len(ids)
    if n == 0:
        raise InputError(name, None, "no samples (the file has a header but no rows)")

    def row(i: int) -> int:
        nonlocal rows
        if rows is None:
            rows = row_numbers(data, n_fields, n, name)
        return int(rows[i])

    for col, what in ((ids, "sample_id"), (labels, "label")):
        empty = np.asarray(pc.equal(pc.utf8_length(col), 0), dtype=bool)
        if empty.any():
            raise InputError(name, row(int(np.flatnonzero(empty)[0])), f"{what} is empty")
    codes, uniques = pd.factorize(pd.Series(ids.to_numpy(zero_copy_only=False)))
    if len(uniques) != n:
        seen = np.zeros(len(uniques), dtype=bool)
        for i, c in enumerate(codes):
            if seen[c]:
                first = int(np.flatnonzero(codes == c)[0])
                raise InputError(name, row(i), f"duplicate sample_id {uniques[c]!r} (first on row {row(first)})")
            seen[c] = True
    gold_codes, gold_values = pd.factorize(pd.Series(labels.to_numpy(zero_copy_only=False)), sort=True)
    ease: dict[str, np.ndarray] = {}
    not_numeric: dict[str, tuple[int, str]] = {}
    for c, arr in cols.items():
        if c in KEY_COLUMNS:
            continue
        values, bad = _numbers(arr)
        if bad is None:
            ease[c] = values
        else:
            not_numeric[c] = bad
    text = cols["text"].to_numpy(zero_copy_only=False) if "text" in cols else None
    return Samples(file=name, ids=ids, labels=tuple(str(v) for v in gold_values), gold=gold_codes.astype(np.int64),
                   text=text, ease=ease, not_numeric=not_numeric, key_columns=tuple(c for c in KEY_COLUMNS if c in cols),
                   _rows=rows, _data=data if rows is None else None,
                   _n_fields=n_fields)


def _columns(src, name: str) -> tuple[dict[str, pa.Array], np.ndarray | None, bytes | None, int]:
    """Every column as stripped text; the rows (or None: computed from the bytes on demand)."""
    if not isinstance(src, pd.DataFrame):
        data = source_bytes(src, name)
        header = header_of(data, name)
        table = arrow_read(data, {}, name)
        if table is not None:
            return {c: text_column(table[c]) for c in header}, None, data, len(header)
        src = data
    df = read_table(src, name)
    cols = {str(c): arrow_array(df[c]) for c in df.columns}
    return cols, np.asarray(df.attrs["rows"]), None, len(df.columns)


def _numbers(arr: pa.Array) -> tuple[np.ndarray, tuple[int, str] | None]:
    """(values with NaN for empty cells, None) for a numeric column (every cell empty or a finite
    number), else (…, (index, cell)) of its first non-numeric cell."""
    empty = pc.equal(pc.utf8_length(arr), 0)
    if pc.all(empty).as_py():  # no score at all: every sample is left out with this column
        return np.full(len(arr), np.nan), None
    try:
        values = np.asarray(pc.cast(pc.if_else(empty, pa.scalar(None, pa.string()), arr), pa.float64())
                            .to_numpy(zero_copy_only=False), dtype=float)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        values = None
    filled = np.asarray(empty, dtype=bool)
    if values is not None and np.isfinite(values[~filled]).all():
        return values, None
    cells = arr.to_pylist()
    for i, cell in enumerate(cells):
        if cell == "":
            continue
        try:
            ok = math.isfinite(float(cell))
        except ValueError:
            ok = False
        if not ok:
            return np.empty(0), (i, cell)
    return np.empty(0), (0, cells[0])  # arrow refused a cell Python reads: name the first
