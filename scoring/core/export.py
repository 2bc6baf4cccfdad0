"""Leaderboards as strict JSON and as formula-safe CSV, for every family.

Spreadsheets run a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, so a
submission named ``=HYPERLINK(...)`` would become a link. :func:`escape_cell` prefixes such
text with ``'``; the command line and the app's downloads escape by default (the command
line's ``--raw-names`` opts out).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .widecsv import WIDE, simple, wide_csv

FORMULA_START = "=+-@\t\r"


def json_value(v: Any) -> Any:
    """A cell as a strict JSON value: numpy scalars unwrapped, ±∞ as "inf"/"-inf", NaN as null.

    >>> json_value(np.float64("inf")), json_value(np.int64(3)), json_value(np.bool_(True))
    ('inf', 3, True)
    """
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (float, np.floating)):
        v = float(v)
        if math.isnan(v):
            return None
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    if isinstance(v, tuple):
        return [json_value(x) for x in v]
    return v


def json_parameters(params: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments as JSON values (tuples as lists, ∞ as "inf")."""
    out = {}
    for k, v in params.items():
        if isinstance(v, (list, tuple)):
            out[k] = [json_value(x) for x in v]
        elif isinstance(v, Mapping):
            out[k] = {str(a): json_value(b) for a, b in v.items()}
        else:
            out[k] = json_value(v)
    return out


def escape_cell(value: Any) -> Any:
    """Neutralise a spreadsheet formula: text starting with = + - @ (or tab/CR) gets a ``'``.

    >>> escape_cell("=1+1"), escape_cell("team"), escape_cell(-1.5)
    ("'=1+1", 'team', -1.5)
    """
    if isinstance(value, str) and value and value[0] in FORMULA_START:
        return "'" + value
    return value


def escape_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` with every text cell and column name passed through :func:`escape_cell`."""
    out = df.copy()
    out.attrs = {}  # pandas deep-copies attrs at every column access (QA's hold every theme)
    out.columns = [escape_cell(str(c)) for c in out.columns]
    for i, dtype in enumerate(out.dtypes.tolist()):
        if pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
            out.isetitem(i, out.iloc[:, i].map(escape_cell))
    return out


def escape_document(doc: Any) -> Any:
    """A JSON document with every string value and key escaped; numbers, and ∞ written as
    ``"-inf"``, untouched.

    >>> escape_document({"=x": ["-inf", "+1", 2]})
    {"'=x": ['-inf', "'+1", 2]}
    """
    if isinstance(doc, Mapping):
        return {escape_cell(k) if isinstance(k, str) else k: escape_document(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [escape_document(v) for v in doc]
    return doc if doc == "-inf" else escape_cell(doc)


def to_csv(df: pd.DataFrame, columns: Sequence[str] | None = None, *, escape: bool = True,
           float_format: str | None = "%.10g") -> str:
    """The CSV text of ``df`` (``columns`` in that order), formula-safe unless ``escape=False``."""
    table = df if columns is None else df[list(columns)]
    if escape:
        table = escape_frame(table)
    if table.shape[1] > WIDE and simple(table):  # QA with thousands of themes: pandas pays per column
        return wide_csv(table, float_format=float_format)
    return table.to_csv(index=False, float_format=float_format)


def to_json(doc: Mapping[str, Any], *, escape: bool = False, ensure_ascii: bool = True) -> str:
    """Strict JSON text (indent 2, no NaN), optionally formula-safe."""
    return json.dumps(escape_document(doc) if escape else doc, indent=2, allow_nan=False,
                      ensure_ascii=ensure_ascii) + "\n"


def rows_document(lb: pd.DataFrame, columns: Sequence[str], params: Mapping[str, Any], *,
                  family: str | None = None, extra: Callable[[dict], dict] | None = None) -> dict[str, Any]:
    """``{"family"?, "parameters", "leaderboard": [{columns…, **extra(row)}]}`` in row order."""
    rows = []
    for rec in lb.to_dict("records"):
        row = {c: json_value(rec[c]) for c in columns}
        if extra is not None:
            row.update(extra(rec))
        rows.append(row)
    doc: dict[str, Any] = {} if family is None else {"family": family}
    doc["parameters"] = json_parameters(params)
    doc["leaderboard"] = rows
    return doc
