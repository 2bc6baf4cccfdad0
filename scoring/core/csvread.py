"""The one CSV reader: a file's bytes checked against the limits, then parsed by ``pyarrow.csv``.

Every family reads its CSV files here (through :func:`scoring.core.tables.read_table`, or
:func:`read_arrow` for a table kept in arrow). The order is fixed: the size of the file
(:func:`~scoring.core.sources.source_bytes`), then its bytes — empty, binary (a NUL byte), the
header's width and repeated names, the size of every cell, the number of fields of every
record (:mod:`scoring.core.records`) — and only then the parser, which builds nothing bigger
than the valid data. When the parser refuses the bytes, the problem is found again by our own
checks (undecodable bytes, a record's fields, a quote never closed), so that the message names
the file, the row and the problem in our words; another library's message is never parsed.

Cells are text exactly as written (a column asked for as ``float64`` is parsed as numbers when
every cell is one, else it too comes back as text); only an empty cell is empty, never missing.

Two keyword-only options, the same on every function here, read other text tables:
``delimiter`` (one ASCII character; ``","`` by default, ``"\t"`` for tab-separated text) and
``quoting`` (``True`` by default: ``"`` quotes a cell, which may then hold delimiters and line
breaks). With ``quoting=False`` (published tab-separated leaderboards) a ``"`` is text and a
record is a line, checked by :mod:`scoring.core.plaintext`: a line ends at ``\n``, ``\r\n`` or
a lone ``\r``, and a line of nothing but white space and delimiters is blank, skipped like an
empty one. Messages call a file that is not comma-separated a "text file", not a "CSV file".
"""

from __future__ import annotations

import contextvars
import re
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pv

from . import limits, plaintext
from .errors import InputError
from .records import cell_error, check_cell_sizes, check_header, header_of, one_record_a_line, record_rows
from .sources import source_bytes

BOM = b"\xef\xbb\xbf"
_ERRORS = (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, UnicodeDecodeError)


def dialect(delimiter: str = ",", quoting: bool = True) -> bytes:
    """The options checked, ``delimiter`` as one byte. Raises ValueError for a delimiter that
    is not one ASCII character other than ``"``, a line end and NUL; TypeError for a
    ``quoting`` that is not a bool.

    >>> dialect("\\t", False)
    b'\\t'
    """
    if not isinstance(delimiter, str) or len(delimiter) != 1 or not delimiter.isascii() or delimiter in '"\r\n\x00':
        raise ValueError(f"delimiter must be one ASCII character other than a quote, a line end or NUL, "
                         f"not {delimiter!r}")
    if not isinstance(quoting, bool):
        raise TypeError(f"quoting must be True or False, not {quoting!r}")
    return delimiter.encode()


def _kind(sep: bytes) -> str:
    return "CSV " if sep == b"," else ""


def checked_bytes(src, name: str, *, delimiter: str = ",", quoting: bool = True) -> tuple[bytes, list[str]]:
    """A CSV source's bytes (without a byte-order mark) and its header, once the limits hold:
    the file's size, text (no NUL byte), at most ``MAX_COLUMNS`` columns named once, no cell
    over ``MAX_CELL_BYTES``. Raises :class:`InputError` naming the file (and the row). With
    ``quoting=False``, the bytes of :func:`scoring.core.plaintext.checked_lines` (line ends
    made ``\\n``, blank lines emptied, UTF-8 checked).

    >>> checked_bytes(b"\\xef\\xbb\\xbfa,b\\n1,2\\n", "f.csv")
    (b'a,b\\n1,2\\n', ['a', 'b'])
    """
    sep = dialect(delimiter, quoting)
    data = source_bytes(src, name)
    if re.search(rb"\S", data) is None:
        raise InputError(name, None, "the file is empty")
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise InputError(name, None, f"not a {_kind(sep)}text file (it contains binary data: a NUL byte on line {line})")
    data = data.removeprefix(BOM)
    if re.search(rb"\S", data) is None:
        raise InputError(name, None, "the file is empty (nothing but a byte-order mark and white space)")
    if not quoting:
        return plaintext.checked_lines(data, name, sep)
    header = header_of(data, name, sep)
    if not header:
        raise InputError(name, 1, "not a CSV file: its first line holds no column names that can be read")
    check_header(header, name)
    check_cell_sizes(data, name, delimiter=sep)
    return data, header


def parse(data: bytes, header: list[str], name: str, *, types=None, keep=None, delimiter: str = ",",
          quoting: bool = True) -> pa.Table:
    """The records after the header line of ``data`` (checked by :func:`checked_bytes`) as an
    arrow table whose columns are the header's names, stripped; ``keep`` (a set of names)
    leaves out the other columns. A column of ``types`` (a dict, or a function of the stripped
    name giving a type or None) is read as that type when every cell converts, else as text;
    every other column is text (``large_string``). Names repeated once stripped are refused.

    >>> parse(b"a, b\\n 1 ,x\\n\\n2,y\\n", ["a", " b"], "f.csv", types={"a": pa.float64()}).to_pylist()
    [{'a': 1.0, 'b': 'x'}, {'a': 2.0, 'b': 'y'}]
    """
    sep = dialect(delimiter, quoting)
    names = [h.strip() for h in header]
    check_header(names, name)  # ' a' and 'a' would be one column
    wanted = [j for j, c in enumerate(names) if keep is None or c in keep]
    read = wanted or [0]  # no column kept: the first is still read, for the records' count
    cut = data.find(b"\n")
    body = pa.py_buffer(data).slice(len(data) if cut < 0 else cut + 1)
    # positional names: the header may hold names arrow would refuse (empty, repeated after stripping)
    raw = [f"f{j}" for j in range(len(header))]
    kind = (types.get if isinstance(types, dict) else types) if types else (lambda c: None)
    typed = {raw[j]: kind(names[j]) for j in read if kind(names[j]) is not None}
    if not body.size or (body.size < 4096 and not body.to_pybytes().strip(b"\r\n")):
        table = pa.table({raw[j]: pa.array([], typed.get(raw[j], pa.large_string())) for j in read})
    else:
        table = _read(body, raw, read, typed, data, name, sep, quoting)
    if quoting and len(data) > limits.MAX_CELL_BYTES and b'"' in data:  # a quoted cell may span lines each under the limit
        _check_cells(table, data, len(header), name, [names[j] for j in read], sep)
    table = table.rename_columns([names[j] for j in read])
    return table if wanted else table.select([])


def _read(body: pa.Buffer, raw: list[str], read: list[int], typed: dict, data: bytes, name: str, sep: bytes,
          quoting: bool) -> pa.Table:
    """``pyarrow.csv`` over the records; a typed column that does not convert whole (or holds
    a NaN, which a number column never means) is read again as text."""
    options = dict(
        # 1 MiB blocks (the least CPU on these files); one thread in a pool's worker process
        read_options=pv.ReadOptions(column_names=raw, use_threads=not _one_thread()),
        parse_options=pv.ParseOptions(delimiter=sep.decode(), quote_char='"' if quoting else False,
                                      newlines_in_values=quoting and b'"' in data, ignore_empty_lines=True))

    def convert(column_types):
        return pv.ConvertOptions(
            column_types={raw[j]: column_types.get(raw[j], pa.large_string()) for j in read},
            include_columns=[raw[j] for j in read], strings_can_be_null=False, quoted_strings_can_be_null=False,
            null_values=[], true_values=[], false_values=[])

    try:
        try:
            table = pv.read_csv(pa.BufferReader(body), convert_options=convert(typed), **options)
        except _ERRORS:
            if not typed:
                raise
            typed = {}
            table = pv.read_csv(pa.BufferReader(body), convert_options=convert(typed), **options)  # numbers as text
        nan = [c for c in typed if table.num_rows and pa.types.is_floating(table[c].type)
               and pc.any(pc.is_nan(table[c])).as_py()]
        if nan:
            table = pv.read_csv(pa.BufferReader(body), convert_options=convert(
                {c: t for c, t in typed.items() if c not in nan}), **options)
    except _ERRORS:
        raise diagnose(data, len(raw), name, delimiter=sep.decode(), quoting=quoting) from None
    return table


#: set (``single_threaded()``) where the caller already reads files side by side on the cores
_SINGLE = contextvars.ContextVar("lab_csv_single_threaded", default=False)


@contextmanager
def single_threaded():
    """Within the block (this thread or task), the parser uses one thread: for a caller that
    already reads several files at once, one per core, where arrow's own threads would only
    add their coordination to the CPU time."""
    token = _SINGLE.set(True)
    try:
        yield
    finally:
        _SINGLE.reset(token)


def _one_thread() -> bool:
    """True in a process told to parse on one thread (pandas' ``mode.max_threads`` = 1, which
    the pool's workers set: the other workers have the other cores), or within
    :func:`single_threaded`."""
    if _SINGLE.get():
        return True
    try:
        return pd.get_option("mode.max_threads") == 1
    except (KeyError, pd.errors.OptionError):
        return False


def _check_cells(table: pa.Table, data: bytes, n_fields: int, name: str, names: list[str], sep: bytes) -> None:
    for c, col in zip(names, table.columns, strict=True):
        if not pa.types.is_large_string(col.type):
            continue
        for k, chunk in enumerate(col.chunks):
            lengths = np.asarray(pc.binary_length(chunk), dtype=np.int64)
            if len(lengths) and lengths.max() > limits.MAX_CELL_BYTES:
                i = int(np.argmax(lengths)) + sum(len(x) for x in col.chunks[:k])
                raise cell_error(name, int(rows_of(data, n_fields, table.num_rows, name,
                                                       delimiter=sep.decode())[i]), int(lengths.max()), c)


def diagnose(data: bytes, n_fields: int, name: str, *, delimiter: str = ",", quoting: bool = True) -> InputError:
    """The problem the parser met in ``data``, found by our own checks: the first undecodable
    byte's line, a record with more or fewer fields than the header, a quote never closed."""
    sep = dialect(delimiter, quoting)
    lines = not quoting or b'"' not in data  # a record is a line: its fields are counted without decoding
    if lines:
        try:
            record_rows(data, n_fields, name, quick=False, delimiter=sep, quoting=quoting)
        except InputError as e:
            return e
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return InputError(name, data.count(b"\n", 0, e.start) + 1, f"not a UTF-8 text {_kind(sep)}file (undecodable bytes)")
    if not lines:
        try:
            record_rows(data, n_fields, name, quick=False, delimiter=sep, quoting=quoting)
        except InputError as e:
            return e
    return InputError(name, None, "not a well-formed CSV file (a record the CSV parser cannot read)")


def rows_of(data: bytes, n_fields: int, n_rows: int, name: str, *, delimiter: str = ",",
            quoting: bool = True) -> np.ndarray:
    """The spreadsheet row (header = 1) of each of the ``n_rows`` records of ``data``: counted
    from the line ends when no record spans lines and no line is blank, else by
    :func:`~scoring.core.records.record_rows`.

    >>> rows_of(b"a,b\\n1,2\\n\\n3,4\\n", 2, 2, "f.csv").tolist()
    [2, 4]
    """
    if one_record_a_line(data, n_rows + 1):  # no blank line: record i is on line i + 2
        return np.arange(2, n_rows + 2)
    rows = record_rows(data, n_fields, name, quick=False, delimiter=dialect(delimiter, quoting), quoting=quoting)
    if rows is None or len(rows) != n_rows:
        return np.arange(2, n_rows + 2)
    return rows


def read_arrow(src, name: str, *, types=None, keep=None, delimiter: str = ",",
               quoting: bool = True) -> tuple[pa.Table, list[str], np.ndarray]:
    """A CSV source read whole: ``(table, header, rows)`` — the arrow table of :func:`parse`,
    the header as written, and the spreadsheet row of each record (header = 1).
    ``delimiter`` and ``quoting``: the module doc.

    >>> t, header, rows = read_arrow(b"id,x\\ne1, 7\\n\\ne2,8\\n", "f.csv")
    >>> t.column("x").to_pylist(), header, rows.tolist()
    ([' 7', '8'], ['id', 'x'], [2, 4])
    """
    data, header = checked_bytes(src, name, delimiter=delimiter, quoting=quoting)
    # the parser checks every record's fields as it reads (a record it refuses is named by
    # ``diagnose``); the rows are then counted from the line ends, one pass, no second parse
    table = parse(data, header, name, types=types, keep=keep, delimiter=delimiter, quoting=quoting)
    return table, header, rows_of(data, len(header), table.num_rows, name, delimiter=delimiter, quoting=quoting)
