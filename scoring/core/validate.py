"""Every problem of an input bundle at once (up to a cap), not only the first.

The loaders stop at the first problem, which is right for a load (nothing half-loaded) and
slow for the person fixing the files. :func:`table_errors` reads a CSV input once as a table
and repeats the loader's check on it, each time leaving out the row the last problem named,
so each later problem is found too; the rows keep their spreadsheet numbers, so every message
names the row of the file. :func:`check_inputs` does this for a family: its own ``validate``
(file by file) when it has one, else :func:`file_by_file` (the load's first problem, then the
first problem of each further bad file of an input that takes many, each file checked once).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .errors import InputError
from .records import FieldCountError
from .sources import expand_submissions, source_bytes
from .tables import read_table

#: the problems reported for one bundle, and for one file
MAX_ERRORS = 25
PER_FILE = 10


def stopped(errors: list[InputError]) -> list[InputError]:
    """Mark the last problem as the one the check stopped at (``e.stopped``): what comes after
    it in its file — and in the files checked against it — was not checked, so the count of
    problems is a lower bound (the Data page says "at least")."""
    if errors:
        errors[-1].stopped = True
    return errors


def blank_record(data: bytes, row: int, *, quoting: bool = True, delimiter: str = ",") -> bytes:
    """``data`` with the record on spreadsheet row ``row`` made a blank line (the other records
    keep their rows: a blank line is skipped but counted). A record is a line unless quoting
    lets a quoted cell span lines (then the record's lines become one blank line).

    >>> blank_record(b"a,b\\n1,2,3\\n4,5\\n", 2)
    b'a,b\\n\\n4,5\\n'
    >>> blank_record(b'a,b\\n"x\\ny",1,9\\n4,5\\n', 2)
    b'a,b\\n\\n4,5\\n'
    """
    lines = data.split(b"\n")
    if quoting and b'"' in data:
        reader = csv.reader(io.StringIO(data.decode("utf-8", "replace"), newline=""), delimiter=delimiter)
        before = 0
        for number, _ in enumerate(reader, start=1):
            if number == row:
                return b"\n".join(lines[:before] + [b""] + lines[reader.line_num:])
            before = reader.line_num
        return data
    if 1 <= row <= len(lines):
        lines[row - 1] = b""
    return b"\n".join(lines)


def read_rows(read: Callable[[Any], pd.DataFrame], src, name: str, *, limit: int = PER_FILE, quoting: bool = True,
              delimiter: str = ",") -> tuple[pd.DataFrame | None, list[InputError]]:
    """``read(src)`` (a table reader), and the problems it met: a record with more or fewer
    fields than the header is named and left out (made blank), and the rest read again — up to
    ``limit`` problems. Any other problem reading the file ends it (marked :func:`stopped`)."""
    errors: list[InputError] = []
    try:
        if isinstance(src, pd.DataFrame):
            return read(src), errors
        data = source_bytes(src, name)  # once: a stream is read once
    except InputError as e:
        return None, stopped([e])
    while True:
        try:
            return read(data), errors
        except FieldCountError as e:
            errors.append(e)
            if len(errors) >= limit or e.row is None or e.row < 2:
                return None, stopped(errors)
            data = blank_record(data, e.row, quoting=quoting, delimiter=delimiter)
        except InputError as e:
            return None, stopped(errors + [e])


def table_errors(check: Callable[[pd.DataFrame], Any], src, name: str, *, limit: int = PER_FILE
                 ) -> tuple[list[InputError], Any]:
    """The problems of one CSV input, and what ``check`` returned once none was left (None if
    it never got there). A record with the wrong number of fields is named and left out, the
    rest read again (:func:`read_rows`); any other problem reading the file is its last one; a
    problem that names no data row (a missing column, an empty file) ends the file's list. A
    list that ends before the check went through is marked :func:`stopped`."""
    df, errors = read_rows(lambda s: read_table(s, name), src, name, limit=limit)
    if df is None:
        return errors, None
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
                stopped(errors)
                break
            keep = np.ones(len(df), dtype=bool)
            keep[at] = False
            df = df[keep].reset_index(drop=True)
            df.attrs["rows"] = rows[keep]
    return sorted(errors, key=lambda e: e.row or 0), result


def check_inputs(fam, *, limit: int = MAX_ERRORS, progress: Callable[[int, int, str], None] | None = None,
                 **sources) -> tuple[list[InputError], bool]:
    """``(problems, more)``: at most ``limit`` problems of a family's inputs (the keywords of
    its loader), and whether checking stopped with more to find. ``progress(done, total,
    name)`` counts the files checked (a family's own ``validate`` may ignore it)."""
    if getattr(fam, "validate", None) is not None:
        found = list(fam.validate(limit=limit + 1, progress=progress, **sources))
    else:
        found = file_by_file(fam, limit=limit + 1, progress=progress, **sources)
    return found[:limit], len(found) > limit


def file_by_file(fam, *, limit: int = MAX_ERRORS, progress: Callable[[int, int, str], None] | None = None,
                 **sources) -> list[InputError]:
    """Problems of a bundle for a family whose loader stops at the first one, each file
    checked once: the bundle is loaded; when the problem is in a file of an input that takes
    many files (the submissions), that file is left out together with the files the load had
    already finished (a loader counts them in order through ``progress``, as
    ``scoring.core.fanout.fan_out`` does), and the rest is loaded again with the other
    inputs — until a load succeeds, a problem is not in such a file, or ``limit`` problems are
    found. So every bad submission is named with its own first problem, and ``B`` bad files
    among ``K`` cost ``B + 1`` loads of the other inputs and one check of each submission
    (loading each good file alone with the ground truth cost ``K`` loads of it). A problem
    seen before is not repeated; nothing is reported for a bundle that loads."""
    many = [inp for inp in fam.inputs if inp.many and sources.get(inp.role) is not None]
    done = [0]  # files the current load has finished, in order

    def counted(offset: int = 0, total: int | None = None) -> Callable[[int, int, str], None]:
        def report(k: int, n: int, name: str) -> None:
            done[0] = max(done[0], k)
            if progress is not None:
                progress(offset + k, n if total is None else total, name)
        return report

    try:
        fam.load(**sources, progress=counted())
        return []
    except InputError as e:
        found = [e]
    for inp in many:
        try:
            items = expand_submissions(sources[inp.role], suffix=inp.suffix)
        except InputError:
            return found  # a bad name or folder: the load's own problem says so
        if found[0].file in {disp for _, _, disp in items}:
            break
    else:
        return found  # the problem is in no file of an input of many files
    seen = {str(found[0])}
    rest = list(items)
    while len(found) < limit:
        at = [k for k, (_, _, disp) in enumerate(rest) if disp == found[-1].file]
        if not at:
            break  # the last problem is not in one of these files (the ground truth, a limit)
        k = next((k for k in at if k >= done[0]), at[0])
        rest = rest[k + 1:] if k <= done[0] else rest[:k] + rest[k + 1:]
        if not rest:
            break
        done[0] = 0
        one = {name: _named(src, disp) for name, src, disp in rest} if isinstance(sources[inp.role], Mapping) \
            else [(name, _named(src, disp)) for name, src, disp in rest]
        try:
            fam.load(**{**sources, inp.role: one}, progress=counted(len(items) - len(rest), len(items)))
            break
        except InputError as e:
            if str(e) in seen:
                break
            seen.add(str(e))
            found.append(e)
    return found


def _named(src, disp: str):
    """A source as the loader takes it again: an upload read once (bytes) keeps its file name."""
    if isinstance(src, (bytes, bytearray, memoryview)):
        out = io.BytesIO(src)
        out.name = disp
        return out
    return src
