"""Parsing predictionstrings into :class:`~.segments.Segs` (SPEC §1), vectorised.

Most Feedback Prize predictionstrings are the canonical text of one contiguous range
(``"12 13 14"``); :func:`canonical_ranges` recognises those byte for byte without reading a
single token. The rest (:func:`parse_wordlists`) are split at their spaces and read by arrow
when every byte is a digit or a single space, else by numpy's C parser; a bad token is found
and named only when that fails.
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


_U = np.uint64
_ALL = _U(0xFFFFFFFFFFFFFFFF)
_HIGH_NIBBLES, _ZEROS = _U(0xF0F0F0F0F0F0F0F0), _U(0x3030303030303030)  # '0' is 0x30


def _words_at(data: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The 8 bytes from each ``start`` as one little-endian uint64 (zero past the buffer's end).

    One gather of 8-byte rows from an overlapping (stride 1) view of the buffer — no copy of
    the buffer to pad it; the few strings in its last 8 bytes are read one by one."""
    m = len(data)
    out = np.zeros(len(start), dtype=_U)
    near = np.ones(len(start), dtype=bool)
    if m >= 8:
        near = start > m - 8
        rows = np.lib.stride_tricks.as_strided(data, shape=(m - 7, 8), strides=(data.strides[0], data.strides[0]),
                                               writeable=False)
        # (fancy indexing: ``take`` would first copy the overlapping view, 8 bytes per byte)
        out = np.ascontiguousarray(rows[np.where(near, 0, start)]).view("<u8").ravel()
        out[near] = 0
    for i in np.flatnonzero(near).tolist():  # the last 8 bytes of the buffer, one by one
        s = int(start[i])
        out[i] = int.from_bytes(bytes(data[s:s + 8]).ljust(8, b"\0"), "little")
    return out


def _first_token(data: np.ndarray, start: np.ndarray, length: np.ndarray, *, words=None) -> np.ndarray:
    """The first space-delimited token of each string as an int; -1 unless it is 1 to 7
    digits followed by a space or the string's end.

    Reads each string's first 8 bytes as one uint64 (``words``, from :func:`_words_at`) and
    works on all 8 bytes at once (SWAR): a byte is a digit when its high nibble is 3 and
    adding 6 keeps it so; the first non-digit ends the token; the digits are summed in three
    multiply-and-shift steps (pairs, fours, eights)."""
    n = len(start)
    if n == 0 or len(data) == 0:
        return np.full(n, -1, dtype=np.int64)
    w = _words_at(data, start) if words is None else words
    # a non-zero byte in ``bad``: not a digit (a carry of +6 only spoils bytes after a non-digit)
    bad = ((w & _HIGH_NIBBLES) ^ _ZEROS) | (((w + _U(0x0606060606060606)) & _HIGH_NIBBLES) ^ _ZEROS)
    size = np.minimum(length, 8).astype(_U)
    bad |= np.where(size >= 8, _U(0), _ALL << ((size * _U(8)) & _U(63)))  # bytes past the string's end
    bad |= np.where(size == 0, _ALL, _U(0))
    low7 = _U(0x7F7F7F7F7F7F7F7F)
    flag = (((bad & low7) + low7) | bad) & _U(0x8080808080808080)  # 0x80 in each non-digit byte
    first = flag & (~flag + _U(1))  # the first non-digit
    digits = np.where(flag == 0, 8, np.bitwise_count(first - _U(1)).astype(np.int64) >> 3)
    d = np.clip(digits, 1, 7).astype(_U)
    after = (w >> (d * _U(8))) & _U(0xFF)
    ok = (digits >= 1) & (digits <= 7) & ((digits >= length) | (after == _U(32)))
    shift = (_U(8) - d) * _U(8)
    keep = _ALL >> shift  # the token's bytes
    v = ((w & keep) - (_ZEROS & keep)) << shift  # digit values, right-aligned (leading zeros low)
    v = (v * _U(10) + (v >> _U(8))) & _U(0x00FF00FF00FF00FF)
    v = (v * _U(100) + (v >> _U(16))) & _U(0x0000FFFF0000FFFF)
    v = (v * _U(10000) + (v >> _U(32))) & _U(0xFFFFFFFF)
    return np.where(ok, v.astype(np.int64), -1)


def _as_views(arr, data: np.ndarray, start: np.ndarray, length: np.ndarray, words: np.ndarray):
    """The strings as an Arrow ``string_view`` array over their own data buffer (no copy),
    each cut to ``length`` bytes — what ``arr.cast(pa.string_view())`` gives for the full
    lengths, built from the first 8 bytes already read (``words``) instead of every string's."""
    n = len(start)
    if len(data) >= 1 << 31:  # view offsets are int32
        return arr.cast(pa.string_view())  # (rows not compared have length 0 in the other side)
    views = np.zeros((n, 4), dtype="<u4")
    views[:, 0] = length
    low = (words & _U(0xFFFFFFFF)).astype(np.uint32)
    li = np.flatnonzero(length > 12)
    views[li, 1] = low[li]  # prefix
    views[li, 3] = start[li]  # buffer 0, offset
    ii = np.flatnonzero(length <= 12)
    if len(ii):  # inline: the first 12 bytes, zero past the length
        size = length[ii].astype(_U)
        first = words[ii] & np.where(size >= 8, _ALL, ~(_ALL << ((size * _U(8)) & _U(63))))
        first = np.where(size == 0, _U(0), first)
        rest = _words_at(data, start[ii] + 8) & _U(0xFFFFFFFF)
        rest &= np.where(size >= 12, _ALL, np.where(size <= 8, _U(0), ~(_ALL << (((size - _U(8)) * _U(8)) & _U(63)))))
        views[ii, 1] = (first & _U(0xFFFFFFFF)).astype(np.uint32)
        views[ii, 2] = (first >> _U(32)).astype(np.uint32)
        views[ii, 3] = rest.astype(np.uint32)
    return pa.Array.from_buffers(pa.string_view(), n, [None, pa.py_buffer(views), arr.buffers()[2]])


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
        words = _words_at(data, offsets[:-1])
        a = _first_token(data, offsets[:-1], size, words=words)
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
        eq = pc.equal(_as_views(arr, data, offsets[:-1], length, words), expected)
        mask = np.asarray(pc.fill_null(eq, False), dtype=bool) & ok
        return mask, a, b
    except Exception:  # pragma: no cover - an older pyarrow: the general parser does it all
        return none


def scan_wordlists(strings, canon: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | TokenError:
    """The word lists of the non-empty strings that are not canonical ranges: ``(positions,
    values, counts)`` (see :func:`parse_wordlists`), or the :class:`TokenError` of the first
    bad one (returned, not raised, so that a caller can report it when its turn comes)."""
    arr = arrow_array(strings)
    if arr is not None:
        empty = np.asarray(pc.fill_null(pc.equal(pc.binary_length(arr), 0), True), dtype=bool)
    else:
        empty = np.array([len(x) == 0 for x in strings], dtype=bool)
    other = np.flatnonzero(~canon & ~empty)
    sub = arr.take(pa.array(other)) if arr is not None else [strings[i] for i in other]
    try:
        values, counts = parse_wordlists(sub)
    except TokenError as e:
        return TokenError(int(other[e.index]), e.problem)
    return other, values, counts


def parse_segs(strings, essay, cls, row, ranges=None, words=None) -> Segs:
    """Parse (stripped, non-empty) predictionstrings into canonical :class:`Segs`.

    ``ranges``: :func:`canonical_ranges` of ``strings`` when already computed; ``words``: the
    :func:`scan_wordlists` of the others. Raises :class:`TokenError` with the position of the
    first bad string.
    """
    essay, cls, row = (np.asarray(x, dtype=np.int64) for x in (essay, cls, row))
    n = len(row)
    canon, a, b = canonical_ranges(strings) if ranges is None else ranges
    if canon.all():
        return Segs(essay, cls, row, b - a + 1, a, b, np.arange(n, dtype=np.int64), a, b)
    if words is None:
        words = scan_wordlists(strings, canon)
    if isinstance(words, TokenError):
        raise words
    other, values, counts = words
    part = build_segs(values, counts, essay[other], cls[other], row[other])
    if len(other) == n:
        return part
    ci = np.flatnonzero(canon)
    # whole columns from the ranges (a, b are 0 off them), then the other strings' values
    size, wmin, wmax = b - a + 1, a.astype(np.int64, copy=True), b.astype(np.int64, copy=True)
    size[other], wmin[other], wmax[other] = part.size, part.wmin, part.wmax
    # runs in string order without a sort: string i's runs start at ``first[i]``; a canonical
    # string has one, the others' runs arrive grouped by string and in order
    n_runs = np.ones(n, dtype=np.int64)
    n_runs[other] = np.bincount(part.run_seg, minlength=len(other))
    first = np.cumsum(n_runs) - n_runs
    at = np.empty(len(ci) + len(part.run_seg), dtype=np.int64)
    at[: len(ci)] = first[ci]
    rs = part.run_seg
    rank = np.arange(len(rs)) - np.searchsorted(rs, rs)  # position among its string's runs
    at[len(ci):] = first[other[rs]] + rank
    run_seg, run_lo, run_hi = (np.empty(len(at), dtype=np.int64) for _ in range(3))
    run_seg[at] = np.concatenate((ci, other[rs]))
    run_lo[at] = np.concatenate((a[ci], part.run_lo))
    run_hi[at] = np.concatenate((b[ci], part.run_hi))
    return Segs(essay, cls, row, size, wmin, wmax, run_seg, run_lo, run_hi)


def _single_spaced_tokens(arr) -> tuple[np.ndarray, np.ndarray] | None:
    """(values, counts) of strings that are word indices of 1 to 7 digits, one space apart;
    None when any string is otherwise (the general parser then decides and names the problem).

    Once every byte is known to be a digit or a space, arrow splits the strings at the
    spaces and reads each token as an integer (no Python string per token)."""
    try:
        if arr.null_count or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            return None
        n = len(arr)
        odt = np.int64 if pa.types.is_large_string(arr.type) else np.int32
        offs = np.frombuffer(arr.buffers()[1], dtype=odt)[arr.offset: arr.offset + n + 1]
        if arr.buffers()[2] is None or (offs[1:] == offs[:-1]).any():
            return None
        body = np.frombuffer(arr.buffers()[2], dtype=np.uint8)[int(offs[0]): int(offs[-1])]
        if (((body - np.uint8(48)) > 9) & (body != 32)).any():  # a byte neither a digit nor a space
            return None
        parts = pc.split_pattern(arr, " ")
        tokens = parts.flatten()
        size = pc.min_max(pc.binary_length(tokens)).as_py()
        if size["min"] is None or size["min"] < 1 or size["max"] > 7:  # two spaces in a row; 8+ digits
            return None
        values = np.asarray(pc.cast(tokens, pa.int64()), dtype=np.int64)
        if values.max() >= MAX_WORD:
            return None
        return values, np.asarray(pc.list_value_length(parts), dtype=np.int64)
    except Exception:  # pragma: no cover - an unexpected layout: the general parser does it
        return None


def parse_wordlists(strings) -> tuple[np.ndarray, np.ndarray]:
    """Parse non-empty, stripped predictionstrings into (values, counts).

    ``values`` holds the tokens of all strings in order, ``counts`` the number of tokens per
    string. Raises :class:`TokenError` naming the first bad string.

    >>> v, c = parse_wordlists(["1 2 3", "7  5"])
    >>> v.tolist(), c.tolist()
    ([1, 2, 3, 7, 5], [3, 2])
    """
    arr = strings if isinstance(strings, pa.Array) else arrow_array(strings)
    if arr is not None and len(arr):
        fast = _single_spaced_tokens(arr)
        if fast is not None:
            return fast
    strings = strings.to_pylist() if isinstance(strings, pa.Array) else \
        strings.tolist() if hasattr(strings, "tolist") else list(strings)
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


