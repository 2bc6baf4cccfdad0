"""The checks a CSV file's bytes pass before any parser sees them: the header (width,
repeated names), the size of every cell, and the spreadsheet row of every record (a record with
more or fewer fields than the header is named by its row). Linear in the file, whatever its
shape, so a hostile file costs no more than its size."""

from __future__ import annotations

import csv
import io
from collections import Counter

import numpy as np

from . import limits
from .errors import InputError
from .limits import human


def record_rows(data: bytes, n_fields: int, name: str, quick: bool = True, *, delimiter: bytes = b",",
                quoting: bool = True) -> np.ndarray | None:
    """Spreadsheet row of every non-blank record after the header; raise for a record whose
    number of fields differs from the header's. None when the text cannot be scanned cheaply
    (not UTF-8; :mod:`scoring.core.csvread` then names the problem). ``quick`` accepts a file
    whose comma total matches without counting per line (a +1/-1 pair of rows then stops
    ``pyarrow.csv``, and :func:`scoring.core.csvread.diagnose` scans again with ``quick=False``).
    ``delimiter`` (one byte) separates the fields; with ``quoting`` false a ``"`` is text, so
    a record is always a line."""
    sep = delimiter[0]
    if not quoting or b'"' not in data:  # no quoting: a record is a line, its fields are its delimiters + 1
        buf = np.frombuffer(data, dtype=np.uint8)
        newlines, commas = _count_bytes(buf, sep)
        n_lines = newlines + (not data.endswith(b"\n"))
        if quick and commas == (n_fields - 1) * n_lines:
            # the common case, settled by two byte counts: no blank line (a blank line would
            # need a row with extra fields to balance it, and pandas flags such a row)
            return np.arange(2, n_lines + 1)
        ends = np.flatnonzero(buf == 10)
        if len(ends) == 0 or ends[-1] != len(buf) - 1:
            ends = np.append(ends, len(buf))
        starts = np.concatenate(([0], ends[:-1] + 1))
        length = ends - starts
        cr = (length > 0) & (buf[np.clip(ends - 1, 0, len(buf) - 1)] == 13)
        blank = (length - cr) == 0
        lines = np.flatnonzero(~blank) + 1
        commas = np.flatnonzero(buf == sep)  # positions of the delimiters (far fewer than bytes)
        n_commas = np.searchsorted(commas, ends) - np.searchsorted(commas, starts)
        bad = ~blank & (n_commas + 1 != n_fields)
        bad[0] = False  # the header itself
        if bad.any():
            line = int(np.flatnonzero(bad)[0])
            _field_error(name, line + 1, int(n_commas[line]) + 1, n_fields, delimiter)
        return lines[1:]
    try:
        # a spreadsheet numbers records (a quoted cell may span lines), blank ones included
        rows = []
        records = csv.reader(io.StringIO(data.decode("utf-8"), newline=""), delimiter=chr(sep))
        if data.count(b'"') % 2:  # a quote is never closed: the record that opens it runs to the end
            starts, line = [], 1
            for _ in records:
                starts.append(line)
                line = records.line_num + 1
            raise InputError(name, starts[-1], 'a quoted cell that opens on this row is never closed (a stray " ?)')
        for number, rec in enumerate(records, start=1):
            if number == 1 or not rec:
                continue
            if len(rec) != n_fields:
                _field_error(name, number, len(rec), n_fields, delimiter)
            widest = max(map(len, rec))
            if widest > limits.MAX_CELL_BYTES // 4 and max(len(f.encode()) for f in rec) > limits.MAX_CELL_BYTES:
                raise cell_error(name, number, max(len(f.encode()) for f in rec))
            rows.append(number)
        return np.array(rows, dtype=np.int64)
    except (UnicodeDecodeError, csv.Error):
        return None


def one_record_a_line(data: bytes, n_lines: int) -> bool:
    """True when ``data`` has exactly ``n_lines`` lines (the last may lack its ``\\n``) and no
    lone ``\\r`` (which a CSV parser would also take for a line end): then, for a file without
    quoted line breaks, the parser's records are its lines, none blank.

    >>> one_record_a_line(b"a,b\\n1,2\\r\\n3,4", 3), one_record_a_line(b"a,b\\n1,2\\r3,4\\n", 2)
    (True, False)
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    newlines = sum(int(np.count_nonzero(buf[i:i + (1 << 18)] == 10)) for i in range(0, len(buf), 1 << 18))
    if newlines + (not data.endswith(b"\n")) != n_lines:
        return False
    if b"\r" not in data:
        return True
    cr = np.flatnonzero(buf == 13)
    return bool((cr + 1 < len(buf)).all() and (buf[cr + 1] == 10).all())


def _count_bytes(buf: np.ndarray, sep: int = 44, block: int = 1 << 18) -> tuple[int, int]:
    """Newlines and delimiters (``sep``, a comma unless told) in ``buf``, a block at a time (the comparison's temporary stays in
    cache instead of being a new array the size of the file)."""
    newlines = commas = 0
    for i in range(0, len(buf), block):
        b = buf[i:i + block]
        newlines += int(np.count_nonzero(b == 10))
        commas += int(np.count_nonzero(b == sep))
    return newlines, commas


#: what a message calls a delimiter
DELIMITER_NAMES = {b",": "comma", b"\t": "tab", b";": "semicolon", b"|": "bar"}


class FieldCountError(InputError):
    """A record with more or fewer fields than the header (its row named): the rest of the file
    can still be read without it (``scoring.core.validate`` does, to report every problem)."""


def _field_error(name: str, row: int, got: int, expected: int, delimiter: bytes = b","):
    what = DELIMITER_NAMES.get(delimiter, repr(delimiter.decode()))
    raise FieldCountError(name, row, f"the row has {got} field{'s' if got != 1 else ''} but the header has {expected} "
                                f"(a stray or missing {what}?)")


def check_width(line: bytes, name: str, sep: bytes) -> None:
    """A header ``line`` with ``MAX_COLUMNS`` or more delimiters ``sep`` is an ``InputError``,
    decided before anything is built from the line."""
    if line.count(sep) >= limits.MAX_COLUMNS:
        raise InputError(name, 1, f"the header has {line.count(sep) + 1:,} columns, over the limit of "
                                  f"{limits.MAX_COLUMNS:,} (LAB_MAX_COLUMNS raises it)")


def header_of(data: bytes, name: str, sep: bytes = b",") -> list[str]:
    """The first line's names, quoted cells read as CSV with the one-byte delimiter ``sep``
    (``[]`` when it cannot be read); a line with ``MAX_COLUMNS`` or more delimiters is an
    ``InputError`` before anything is built from it.

    >>> header_of(b'a,"b,c"\\n1,2\\n', "f.csv"), header_of(b"a\\tb\\n", "f.tsv", b"\\t")
    (['a', 'b,c'], ['a', 'b'])
    """
    cut = data.find(b"\n")
    line = data if cut < 0 else data[:cut]
    check_width(line, name, sep)
    try:
        return next(csv.reader([line.decode("utf-8", "replace").rstrip("\r")], delimiter=sep.decode()))
    except (csv.Error, StopIteration):
        return []


def check_header(header: list[str], name: str) -> None:
    """At most ``MAX_COLUMNS`` columns, each named once (linear, whatever the width)."""
    if len(header) > limits.MAX_COLUMNS:
        raise InputError(name, 1, f"the header has {len(header):,} columns, over the limit of {limits.MAX_COLUMNS:,}")
    counts = Counter(header)
    dup = next((c for c in header if counts[c] > 1), None)
    if dup is not None:
        raise InputError(name, 1, f"duplicate column {dup!r} in the header")


def cell_error(name: str, row: int, size: int, column: str | None = None) -> InputError:
    where = f" in column {column!r}" if column else ""
    return InputError(name, row, f"a cell{where} holds {human(size)}, over the limit of {human(limits.MAX_CELL_BYTES)} "
                                 "per cell (LAB_MAX_CELL_BYTES raises it)")


def check_cell_sizes(data: bytes, name: str, *, delimiter: bytes = b",") -> None:
    """Refuse a cell over ``MAX_CELL_BYTES`` before the CSV parser builds it: no line longer
    than the limit means no such cell (one scan for the line ends); otherwise the long lines'
    fields (split at ``delimiter``) are measured."""
    if len(data) <= limits.MAX_CELL_BYTES:
        return
    # a line end in every window of half the limit: no line, so no cell, reaches the limit
    half = max(1, limits.MAX_CELL_BYTES // 2)
    if all(data.find(b"\n", i, i + half) >= 0 for i in range(0, len(data), half)):
        return
    buf = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    bounds = np.concatenate(([-1], ends, [len(buf)]))
    long = np.flatnonzero(np.diff(bounds) - 1 > limits.MAX_CELL_BYTES)
    for k in long.tolist():
        a, b = int(bounds[k]) + 1, int(bounds[k + 1])
        cuts = np.concatenate(([a - 1], a + np.flatnonzero(buf[a:b] == delimiter[0]), [b]))
        widths = np.diff(cuts) - 1
        if widths.max() > limits.MAX_CELL_BYTES:
            raise cell_error(name, k + 1, int(widths.max()))
