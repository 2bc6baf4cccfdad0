"""Every problem of an input bundle at once (up to a cap), not only the first.

The loaders stop at the first problem, which is right for a load (nothing half-loaded) and
slow for the person fixing the files. :func:`table_errors` reads a CSV input once as a table
and repeats the loader's check on it, each time leaving out the row the last problem named,
so each later problem is found too; the rows keep their spreadsheet numbers, so every message
names the row of the file. :func:`check_inputs` does this for a family: its own ``validate``
(file by file) when it has one, else one load (its first problem).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .errors import InputError
from .tables import read_table

#: the problems reported for one bundle, and for one file
MAX_ERRORS = 25
PER_FILE = 10


def table_errors(check: Callable[[pd.DataFrame], Any], src, name: str, *, limit: int = PER_FILE
                 ) -> tuple[list[InputError], Any]:
    """The problems of one CSV input, and what ``check`` returned once none was left (None if
    it never got there). A problem reading the file is its only one; a problem that names no
    data row (a missing column, an empty file) ends the file's list."""
    try:
        df = read_table(src, name)
    except InputError as e:
        return [e], None
    errors: list[InputError] = []
    result = None
    while True:
        try:
            result = check(df)
            break
        except InputError as e:
            errors.append(e)
            rows = np.asarray(df.attrs["rows"])
            at = np.flatnonzero(rows == e.row) if e.row is not None and e.row >= 2 else np.zeros(0, int)
            if len(errors) >= limit or len(at) == 0:
                break
            keep = np.ones(len(df), dtype=bool)
            keep[at] = False
            df = df[keep].reset_index(drop=True)
            df.attrs["rows"] = rows[keep]
    return sorted(errors, key=lambda e: e.row or 0), result


def check_inputs(fam, *, limit: int = MAX_ERRORS, **sources) -> tuple[list[InputError], bool]:
    """``(problems, more)``: at most ``limit`` problems of a family's inputs (the keywords of
    its loader), and whether checking stopped with more to find."""
    if getattr(fam, "validate", None) is not None:
        found = list(fam.validate(limit=limit + 1, **sources))
    else:
        try:
            fam.load(**sources)
            found = []
        except InputError as e:
            found = [e]
    return found[:limit], len(found) > limit
