"""Every problem of an input bundle at once (up to a cap), not only the first.

The loaders stop at the first problem, which is right for a load (nothing half-loaded) and
slow for the person fixing the files. :func:`table_errors` reads a CSV input once as a table
and repeats the loader's check on it, each time leaving out the row the last problem named,
so each later problem is found too; the rows keep their spreadsheet numbers, so every message
names the row of the file. :func:`check_inputs` does this for a family: its own ``validate``
(file by file) when it has one, else :func:`file_by_file` (the load's first problem, then the
first problem of each further file of an input that takes many).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .errors import InputError
from .sources import expand_submissions
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
        found = file_by_file(fam, limit=limit + 1, **sources)
    return found[:limit], len(found) > limit


def file_by_file(fam, *, limit: int = MAX_ERRORS, **sources) -> list[InputError]:
    """Problems of a bundle for a family whose loader stops at the first one: that first
    problem; then, when it is in a file of an input that takes many files (the submissions),
    each of that input's files loaded alone with the rest of the bundle, so that every bad
    submission is named with its own first problem. A problem seen before is not repeated;
    nothing is reported for a bundle that loads."""
    try:
        fam.load(**sources)
        return []
    except InputError as e:
        found = [e]
    seen = {str(found[0])}
    for inp in fam.inputs:
        if not inp.many or sources.get(inp.role) is None:
            continue
        try:
            items = expand_submissions(sources[inp.role], suffix=inp.suffix)
        except InputError:
            continue  # a bad name or folder: the load's own problem says so
        if len(items) < 2 or found[0].file not in {disp for _, _, disp in items}:
            continue
        for name, src, disp in items:
            if len(found) >= limit:
                break
            if disp == found[0].file:
                continue
            try:
                if isinstance(src, (bytes, bytearray, memoryview)):  # an upload read once: keep its file name
                    src = io.BytesIO(src)
                    src.name = disp
                one = {name: src} if isinstance(sources[inp.role], Mapping) else [(name, src)]
                fam.load(**{**sources, inp.role: one})
            except InputError as e:
                if str(e) not in seen:
                    seen.add(str(e))
                    found.append(e)
    return found
