"""Parsing predictionstrings into :class:`~.segments.Segs` (SPEC §1), vectorised.

Most Feedback Prize predictionstrings are the canonical text of one contiguous range
(``"12 13 14"``); :func:`canonical_ranges` recognises those byte for byte without reading a
single token. The rest go through numpy's C parser (:func:`parse_wordlists`); a bad token is
found and named only when that fails.
"""

from __future__ import annotations

import re
import unicodedata
import warnings

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core.tables import arrow_array
from .segments import _RANGE_CAP, MAX_WORD, Segs, _line_index, _number_line, build_segs

_TOKEN = re.compile(r"[0-9]+")


class TokenError(Exception):
    """A bad predictionstring: `index` is the position of the string in its column."""

    def __init__(self, index: int, problem: str):
        super().__init__(problem)
        self.index = index
        self.problem = problem


_SPACE = re.compile(r"[ \t\n\r\f\v]+")  # ASCII white space only, as the C parser sees it


def _first_bad_token(strings) -> tuple[int, str]:
    """(position, problem) of the first string with a token that is not a word index."""
    for i, s in enumerate(strings):
        for m in re.finditer(r"[^ \t\n\r\f\v]+", s):
            tok = m.group()
            if not _TOKEN.fullmatch(tok):
                odd = next((c for c in tok if not ("0" <= c <= "9" or c == "-")), None)
                if odd is not None and (odd.isspace() or unicodedata.category(odd)[0] in "CZ"):
                    return i, (f"predictionstring contains the character U+{ord(odd):04X} "
                               f"({unicodedata.name(odd, 'a control character')}); separate word indices "
                               "with plain spaces")
                if tok.startswith("-") and _TOKEN.fullmatch(tok[1:]):
                    return i, f"negative word index {tok[:20]} in predictionstring"
                return i, f"word index {tok[:20]!r} in predictionstring is not a non-negative integer"
            if len(tok) > 10 or int(tok) >= MAX_WORD:
                return i, f"word index {tok[:20]} in predictionstring is too large (limit {MAX_WORD})"
    # the C parser refused what this scan accepts: say so plainly rather than guess
    return 0, "predictionstring is not a space-separated list of non-negative integers"


def _first_token(data: np.ndarray, start: np.ndarray, length: np.ndarray, width: int = 8) -> np.ndarray:
    """The first space-delimited token of each string as an int; -1 unless it is 1 to
    ``width - 1`` digits followed by a space or the string's end. One column of bytes at a
    time, stopping when every token has ended (word indices have few digits)."""
    n = len(start)
    running = np.ones(n, dtype=bool)  # still inside the leading run of digits
    ok = np.zeros(n, dtype=bool)  # the run ended at a space or at the string's edge
    val = np.zeros(n, dtype=np.int32)
    nonempty = length > 0
    pos = np.minimum(start, len(data) - 1)
    for j in range(width):
        inside = length > j
        d = data[pos].astype(np.int32) - 48
        isd = inside & (d >= 0) & (d <= 9)
        ok |= running & ~isd & (~inside | (d == -16)) & (j > 0)  # -16: a space
        running &= isd
        val = np.where(running, val * 10 + d, val)
        if not running.any():  # every token has ended: the remaining columns change nothing
            break
        pos = np.minimum(pos + 1, len(data) - 1)
    return np.where(ok & nonempty, val.astype(np.int64), -1)


def canonical_ranges(strings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which strings are exactly the canonical text of a contiguous range ``"a a+1 ... b"``.

    Returns ``(mask, a, b)``. The check is exact: each string is compared byte for byte with
    the canonical text of its range, taken as a zero-copy view into one line of numbers, so
    those rows need no token parsing at all. Strings that fail go through
    :func:`parse_wordlists`. Without pyarrow (or on any surprise) every mask entry is False.
    """
    n = len(strings)
    none = (np.zeros(n, dtype=bool), np.zeros(n, np.int64), np.zeros(n, np.int64))
    arr = arrow_array(strings)
    if arr is None or n == 0:
        return none
    try:

        if arr.null_count or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            return none
        offs_buf, data_buf = arr.buffers()[1], arr.buffers()[2]
        odt = np.int64 if pa.types.is_large_string(arr.type) else np.int32
        offsets = np.frombuffer(offs_buf, dtype=odt)[arr.offset: arr.offset + n + 1].astype(np.int64)
        data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
        if len(data) == 0:
            return none
        size = offsets[1:] - offsets[:-1]
        a = _first_token(data, offsets[:-1], size)
        ok = (a >= 0) & (a < _RANGE_CAP)
        if not ok.any():
            return none
        # the range a..b whose text is as long as the string: its end is where the line of
        # numbers reaches the string's length (if no number ends exactly there, no range fits)
        # a canonical range a..b of length L has b <= a + (L - 1) / 2 (a digit and a space a
        # word at the least): strings whose range could pass the cap are not ranges we look up,
        # so the line of numbers never grows with a long (hostile) cell
        need = a + (size + 1) // 2 + 2
        ok &= need < _RANGE_CAP
        if not ok.any():
            return none
        k = 1 << max(10, int(need[ok].max()).bit_length())
        line, offs = _number_line(k)
        number_at, prefix = _line_index(k)
        aa = np.where(ok, a, 0)
        start = offs[aa]
        stop = np.minimum(start + size + 1, len(number_at) - 1)
        b = number_at[stop] - 1  # the number that ends just before ``stop`` (-2: none does)
        ok &= (b >= aa) & (offs[aa] + size + 1 == offs[np.maximum(b, 0) + 1])
        if not ok.any():
            return none
        length = np.where(ok, size, 0)
        # Arrow string_view layout (16 bytes): int32 length, then 12 inline bytes, or a 4-byte
        # prefix, a buffer index (0) and an offset for longer strings.
        views = np.zeros((n, 4), dtype="<i4")
        views[:, 0] = length
        li = np.flatnonzero(length > 12)
        views[li, 1] = prefix[start[li]]
        views[li, 3] = start[li]
        ii = np.flatnonzero(length <= 12)
        if len(ii):
            lb = np.frombuffer(line, dtype=np.uint8)
            cols = np.arange(12)
            take = np.minimum(start[ii, None] + cols, len(lb) - 1)
            views.view(np.uint8).reshape(n, 16)[ii, 4:] = np.where(cols < length[ii, None], lb[take], 0)
        expected = pa.Array.from_buffers(pa.string_view(), n, [None, pa.py_buffer(views), pa.py_buffer(line)])
        eq = pc.equal(arr.cast(pa.string_view()), expected)
        mask = np.asarray(pc.fill_null(eq, False), dtype=bool) & ok
        return mask, a, b
    except Exception:  # pragma: no cover - an older pyarrow: the general parser does it all
        return none


def parse_segs(strings, essay, cls, row) -> Segs:
    """Parse (stripped, non-empty) predictionstrings into canonical :class:`Segs`.

    Raises :class:`TokenError` with the position of the first bad string.
    """
    essay, cls, row = (np.asarray(x, dtype=np.int64) for x in (essay, cls, row))
    n = len(row)
    canon, a, b = canonical_ranges(strings)
    if canon.all():
        return Segs(essay, cls, row, b - a + 1, a, b, np.arange(n, dtype=np.int64), a, b)
    other = np.flatnonzero(~canon)
    sub = strings.iloc[other] if hasattr(strings, "iloc") else [strings[i] for i in other]
    try:
        values, counts = parse_wordlists(sub)
    except TokenError as e:
        raise TokenError(int(other[e.index]), e.problem) from None
    part = build_segs(values, counts, essay[other], cls[other], row[other])
    if len(other) == n:
        return part
    ci = np.flatnonzero(canon)
    size, wmin, wmax = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
    size[ci], wmin[ci], wmax[ci] = b[ci] - a[ci] + 1, a[ci], b[ci]
    size[other], wmin[other], wmax[other] = part.size, part.wmin, part.wmax
    run_seg = np.concatenate((ci, other[part.run_seg]))
    order = np.argsort(run_seg, kind="stable")
    return Segs(essay, cls, row, size, wmin, wmax, run_seg[order],
                np.concatenate((a[ci], part.run_lo))[order], np.concatenate((b[ci], part.run_hi))[order])


def parse_wordlists(strings) -> tuple[np.ndarray, np.ndarray]:
    """Parse non-empty, stripped predictionstrings into (values, counts).

    ``values`` holds the tokens of all strings in order, ``counts`` the number of tokens per
    string. Raises :class:`TokenError` naming the first bad string.

    >>> v, c = parse_wordlists(["1 2 3", "7  5"])
    >>> v.tolist(), c.tolist()
    ([1, 2, 3, 7, 5], [3, 2])
    """
    arr = arrow_array(strings)
    strings = strings.tolist() if hasattr(strings, "tolist") else list(strings)
    n = len(strings)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if arr is not None:

        # single-spaced strings: tokens = spaces + 1, no sentinels needed
        if not pc.any(pc.match_substring(arr, "  ")).as_py():
            counts = np.asarray(pc.count_substring(arr, " "), dtype=np.int64) + 1
            text = " ".join(strings)
            vals = None if ("-" in text or "+" in text) else _fromstring(text)
            if vals is not None and len(vals) == counts.sum() and vals.max() < MAX_WORD:
                return vals, counts
    joined = " -1 ".join(strings)
    vals = _fromstring(joined)
    if vals is None or np.count_nonzero(vals < 0) != n - 1 or (vals >= MAX_WORD).any() or \
            joined.count("-") != n - 1 or "+" in joined:
        i, p = _first_bad_token(strings)
        raise TokenError(i, p)
    sent = np.flatnonzero(vals < 0)
    bounds = np.concatenate(([-1], sent, [len(vals)]))
    counts = np.diff(bounds) - 1
    if (counts <= 0).any():
        i, p = _first_bad_token(strings)
        raise TokenError(i, p)
    return vals[vals >= 0], counts


def _fromstring(text: str) -> np.ndarray | None:
    """All integers of a whitespace-separated text (numpy's C parser), or None if it stops early."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            return np.fromstring(text, dtype=np.int64, sep=" ")
        except (DeprecationWarning, ValueError):
            return None


