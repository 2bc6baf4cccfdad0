"""CSV text of a wide table (thousands of columns, few rows), as ``DataFrame.to_csv`` writes
it but without its per-column cost (~7 µs a column: 3.5 s for QA's 100,000 themes × 5).

Each column is formatted at once by kind — floats with the float format (NaN empty), integers
and booleans as ``str``, text as it is (missing values empty) — and the rows are written by
:mod:`csv` with pandas' defaults (minimal quoting, ``"`` doubled, ``\\n`` line ends).
:func:`scoring.core.export.to_csv` uses it past :data:`WIDE` columns; a test compares the two
on random tables byte for byte.
"""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd

WIDE = 1000  # columns from which the table is written here


def _kind(dt) -> str:
    if pd.api.types.is_float_dtype(dt) and isinstance(dt, np.dtype):
        return "float"
    if isinstance(dt, np.dtype) and (pd.api.types.is_integer_dtype(dt) or pd.api.types.is_bool_dtype(dt)):
        return "int"
    return "other"


def _text(values: list, kind: str, float_format: str | None) -> list[str]:
    if kind == "float":
        fmt = float_format or "%r"
        return ["" if x != x else fmt % x for x in values]
    if kind == "int":
        return [str(x) for x in values]
    return ["" if (x is None or x is pd.NA or (isinstance(x, float) and x != x)) else str(x) for x in values]


def wide_csv(df: pd.DataFrame, *, float_format: str | None = None) -> str:
    """``df.to_csv(index=False, float_format=float_format)`` for a table of simple columns
    (float, integer, boolean, text). Columns of one kind are taken out in one piece.

    >>> wide_csv(pd.DataFrame({"a": [1.5, float("nan")], "b": ["x,y", None], "c": [1, 2]}))
    'a,b,c\\n1.5,"x,y",1\\n,,2\\n'
    """
    n_rows, n_cols = df.shape
    kinds = [_kind(dt) for dt in df.dtypes.tolist()]
    cells: list[list[str]] = [[""] * n_cols for _ in range(n_rows)]
    for kind in ("float", "int", "other"):
        pos = [j for j, k in enumerate(kinds) if k == kind]
        if not pos or not n_rows:
            continue
        block = df.iloc[:, pos].to_numpy(dtype=object if kind == "other" else None)
        for r in range(n_rows):
            row, texts = cells[r], _text(block[r].tolist(), kind, float_format)
            for j, t in zip(pos, texts, strict=True):
                row[j] = t
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([str(c) for c in df.columns])
    w.writerows(cells)
    return out.getvalue()


def simple(df: pd.DataFrame) -> bool:
    """True when every column is float, integer, boolean or text (what :func:`wide_csv` writes)."""
    for dt in df.dtypes.tolist():
        if not (pd.api.types.is_float_dtype(dt) or pd.api.types.is_integer_dtype(dt)
                or pd.api.types.is_bool_dtype(dt) or pd.api.types.is_object_dtype(dt) or pd.api.types.is_string_dtype(dt)):
            return False
    return not isinstance(df.columns, pd.MultiIndex) and np.ndim(df.columns) == 1
