"""The byte checks of a table read without quoting (:mod:`scoring.core.csvread` with
``quoting=False``, e.g. a published tab-separated leaderboard): a ``"`` is text, so a record
is a line. A line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (as Python's own readers count
lines), and a line of nothing but white space and delimiters is blank. Everything here is
linear in the file; nothing is built per cell."""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa

from .errors import InputError
from .records import check_cell_sizes, check_header, check_width, record_rows

#: bytes that are white space to ``str.strip`` (ASCII); other white space is not ASCII
_ASCII_SPACE = (9, 10, 11, 12, 13, 28, 29, 30, 31, 32)
#: the UTF-8 of every other character ``str.strip`` removes (U+0085, U+00A0, U+1680, U+2000…, U+3000)
_UNICODE_SPACE = tuple(chr(c).encode() for c in range(0x80, 0x10000) if chr(c).isspace())


def checked_lines(data: bytes, name: str, sep: bytes) -> tuple[bytes, list[str]]:
    """``data`` (no NUL byte, no byte-order mark) with every line end a ``\\n`` and every
    blank line emptied (lines keep their numbers), and its header as written, once the
    limits hold: at most ``MAX_COLUMNS`` columns (counted before the line is split), no cell
    over ``MAX_CELL_BYTES``, UTF-8 text, columns named once (stripped).

    >>> checked_lines(b"a\\tb\\r1\\t2\\r \\t \\r3\\t4", "f.tsv", b"\\t")
    (b'a\\tb\\n1\\t2\\n\\n3\\t4', ['a', 'b'])
    """
    if data.count(b"\r") != data.count(b"\r\n"):  # a lone \r ends a line
        data = re.sub(rb"\r\n?", b"\n", data)  # one copy
    cut = data.find(b"\n")
    first = data if cut < 0 else data[:cut]
    check_width(first, name, sep)  # before the line is split
    check_cell_sizes(data, name, delimiter=sep)
    check_utf8(data, name)
    if not first:  # a file opening with an empty line: no names, every row names its own width
        data = blank_lines_emptied(data, sep)
        record_rows(data, 0, name, delimiter=sep, quoting=False)
        raise InputError(name, None, "the file is empty")
    header = first.removesuffix(b"\r").decode("utf-8").split(sep.decode())
    check_header([h.strip() for h in header], name)
    return blank_lines_emptied(data, sep), header


def check_utf8(data: bytes, name: str) -> None:
    """Raise naming the line of the first byte that is not UTF-8 (arrow checks the bytes
    in place; only a file that fails is decoded, to find the line).

    >>> check_utf8(b"a\\n\\xc3\\xa9\\n", "f.tsv")
    >>> check_utf8(b"a\\nb\\n\\xe9\\n", "f.tsv")
    Traceback (most recent call last):
    scoring.core.errors.InputError: f.tsv, row 3: not a UTF-8 text file (undecodable bytes)
    """
    offsets = pa.py_buffer(np.array([0, len(data)], dtype=np.int64))
    whole = pa.Array.from_buffers(pa.large_binary(), 1, [None, offsets, pa.py_buffer(data)])
    try:
        whole.cast(pa.large_string())
    except pa.ArrowInvalid:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(name, data.count(b"\n", 0, e.start) + 1,
                             "not a UTF-8 text file (undecodable bytes)") from None


def blank_lines_emptied(data: bytes, sep: bytes) -> bytes:
    """``data`` (UTF-8, ``\\n`` line ends) with the bytes of every blank line that is not
    empty removed (its ``\\n`` kept, so that lines keep their numbers): a blank line holds
    nothing but white space (as ``str.strip`` sees it) and ``sep``. ``data`` itself when no
    such line exists.

    >>> blank_lines_emptied(b"a\\tb\\n \\t\\n1\\t2\\n\\xc2\\xa0\\n\\t", b"\\t")
    b'a\\tb\\n\\n1\\t2\\n\\n'
    """
    if not data:
        return data
    buf = np.frombuffer(data, dtype=np.uint8)
    text = np.ones(256, dtype=bool)  # bytes that make a line not blank
    text[list(_ASCII_SPACE) + [sep[0]]] = False
    starts = np.concatenate(([0], np.flatnonzero(buf == 10) + 1))
    starts = starts[starts < len(buf)]  # each line with its \n: no empty segment
    blank = ~np.logical_or.reduceat(text[buf] & (buf < 128), starts)
    if not blank.any():
        return data
    lengths = np.diff(np.append(starts, len(buf)))
    high = np.logical_or.reduceat(buf >= 128, starts)
    if (blank & high).any():  # non-ASCII: blank when every such byte belongs to a white space character
        spaced = data
        for seq in _UNICODE_SPACE:  # a few passes over the bytes, whatever the number of lines
            if seq in spaced:
                spaced = spaced.replace(seq, b" " * len(seq))
        blank &= ~np.logical_or.reduceat(np.frombuffer(spaced, dtype=np.uint8) >= 128, starts)
    ends_nl = buf[starts + lengths - 1] == 10
    drop = blank & (lengths > ends_nl)  # blank, and more than its \n
    if not drop.any():
        return data
    gone = np.repeat(drop, lengths) & (buf != 10)
    return buf[~gone].tobytes()
