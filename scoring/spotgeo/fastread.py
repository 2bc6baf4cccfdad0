"""A whole spotGEO JSON file read at once, with numpy and Arrow, when it is written the usual way.

Nearly every file is the same few tokens over and over: ``[{"sequence_id": 1, "frame": 1,
"num_objects": 2, "object_coords": [[x, y], [x, y]]}, ...]`` (a ground truth may end each
entry with ``"object_brightness": [b, b]``). :func:`read_canonical` reads such a file without
building a Python object per number:

1. the file is read in pieces of about :data:`CHUNK` bytes cut between two entries (at a
   ``},``), so memory stays that of the streaming reader;
2. every byte becomes a token code (``bytes.translate``), and a token starts at every byte
   but ASCII whitespace, lower-case letters, ``_`` and a number's later characters (one
   ``flatnonzero``); a number is made of digits and ``+-.``; any other byte (an escape, a
   byte of another encoding, an exponent's ``E``) is a token of its own that no entry holds;
3. the token sequence each entry must have is built from the entry's own counts and
   compared, token for token, with the piece's — so the JSON grammar, the key order and
   every array's shape are checked by one comparison; then each string's bytes are compared
   with its key's, and the piece's letters counted: none may stand outside a key (a literal
   such as ``true`` or ``NaN``);
4. the numbers' characters, gathered back to back (one boolean mask), become one Arrow
   string array: RE2 checks the JSON number grammar and Arrow's ``string → float64`` cast
   rounds correctly — the value Python's ``float`` gives; then the rules of spec §1 (ranges,
   ``num_objects``) are applied.

A submission file of :data:`COMPILED_MIN_BYTES` or more has steps 2–4 done, from its second
piece on, by one compiled pass over each piece (:func:`.kernels.scan_piece`, numba). Its first
piece, and a ground truth, stay with numpy, so that numba's fixed memory is taken only for a
file already found in the usual layout; a process that has loaded the kernels already scans
every piece of such a file with them, ground truths too. The compiled pass walks the usual layout token by token
and reads each number's value itself where one division is exact (the digits as an integer
up to 2**53, at most 22 decimals: Python's ``float`` to the bit), leaving the others to
Arrow's cast; the same pieces are accepted and refused, and the same arrays come out
(every test of ``test_fastread.py`` runs on both routes).

Whatever fails any step returns ``None``, and the caller reads the file with the general
streaming reader (:mod:`scoring.spotgeo.stream`), which accepts every other valid layout and
words every error. So this module never produces a message and never accepts a file the
general reader refuses; ``tests/spotgeo/test_fastread.py`` compares the two on random and
hand-made files.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core import limits
from .data import FRAMES, KEY_BYTES, MAX_OBJECTS, MAX_SEQUENCE_ID, X_RANGE, Y_RANGE

#: files at least this long are scanned by the compiled :func:`.kernels.scan_piece`: a
#: crowded benchmark submission (6.8 MB) is read in 70–81 ms against 159–163 ms by the numpy
#: passes (3 runs of 5 files each way, 2026-11-29). numba costs about half a second to load
#: once per process, so the few-megabyte files of a sparse competition keep to numpy
COMPILED_MIN_BYTES = 4 << 20
#: the tests' switch: the compiled scan from the first piece on, ground truths too (see
#: :func:`read_canonical`: otherwise numba is loaded only for a submission's later pieces)
_EVERY_PIECE = False

#: bytes read at once (each piece costs a few bytes of memory per byte while it is read)
CHUNK = 1 << 18  # (smaller pieces stay in the cache: 256 KiB read ~28 % faster than 1 MiB)

_LETTERS = b"_abcdefghijklmnopqrstuvwxyz"
# token codes: 0 whitespace and letters (dropped), punctuation, a string, a number character,
# and any other byte (a token no entry's sequence holds, so the comparison refuses it)
_WS, _OA, _CA, _OO, _CO, _C, _K, _S, _N, _OTHER = range(10)
_TABLE = bytearray([_OTHER]) * 256
for _c in b" \t\n\r" + _LETTERS:
    _TABLE[_c] = _WS
for _c, _t in zip(b'[]{},:"', (_OA, _CA, _OO, _CO, _C, _K, _S), strict=True):
    _TABLE[_c] = _t
for _c in b"0123456789+-.":
    _TABLE[_c] = _N
_TABLE = bytes(_TABLE)
_KEY_LEN = np.array([len(k) for k in KEY_BYTES])

# the pieces an entry's token sequence is made of, and how many of each an entry has
_PIECES = [
    [_OO, _S, _S, _K, _N, _C, _S, _S, _K, _N, _C, _S, _S, _K, _N, _C, _S, _S, _K, _OA],  # 0: head, to coords' [
    [_OA, _N, _C, _N, _CA],  # 1: the first point
    [_C, _OA, _N, _C, _N, _CA],  # 2: each further point
    [_CA],  # 3: end of the points
    [_C, _S, _S, _K, _OA],  # 4: the brightness key
    [_N],  # 5: the first brightness
    [_C, _N],  # 6: each further brightness
    [_CA],  # 7: end of the brightness
    [_CO],  # 8: end of the entry
    [_C],  # 9: between entries
]
_PIECE_LEN = np.array([len(p) for p in _PIECES], dtype=np.int32)
_PIECE_AT = (np.cumsum(_PIECE_LEN) - _PIECE_LEN).astype(np.int32)
_FLAT = np.array([t for p in _PIECES for t in p], dtype=np.uint8)



def read_canonical(raw, *, brightness: bool = False, chunk: int | None = None):
    """``(seq, frame, counts, xy, bright)`` of a valid file written the usual way, read from
    the binary stream ``raw`` piece by piece (entries in file order; ``bright`` the
    ``object_brightness`` values when ``brightness`` and every entry has them), or ``None``
    when the general reader must decide (module doc; the stream is then partly read).

    >>> import io
    >>> seq, frame, counts, xy, b = read_canonical(io.BytesIO(
    ...     b'[{"sequence_id": 7, "frame": 2, "num_objects": 1, "object_coords": [[3, 4.5]]}]'))
    >>> seq.tolist(), frame.tolist(), counts.tolist(), xy.tolist(), b
    ([7], [2], [1], [[3.0, 4.5]], None)
    >>> read_canonical(io.BytesIO(b'[{"frame": 2, "sequence_id": 7, "num_objects": 0, "object_coords": []}]')) is None
    True
    """
    chunk = chunk or CHUNK
    kernels = None
    try:
        size = raw.seek(0, 2)
        raw.seek(0)
    except (OSError, AttributeError, ValueError):  # pragma: no cover - not seekable: numpy
        size = 0
    # a submission's later pieces only: the first piece (which finds most files that are not
    # the usual layout) and a ground truth (read once, in the server's own process) keep to
    # numpy, so that numba's fixed memory (~100 MiB) is never taken for them -- unless this
    # process holds the kernels already, when the whole file is scanned by them
    big = size >= COMPILED_MIN_BYTES
    if big:
        from .matching import compiled, loaded

        if _EVERY_PIECE or loaded() is not None:
            kernels = compiled()
    compile_later = big and not brightness
    parts: list[tuple] = []
    pending, first = b"", True
    while True:
        data = raw.read(chunk)
        buf = pending + data
        if data:
            cut = buf.rfind(b"},")  # pieces end between two entries
            if cut < 0:
                if len(buf) > 8 * chunk:  # an entry that long is not the usual layout
                    return None
                pending = buf
                continue
            piece, pending = buf[:cut + 1], buf[cut + 2:]
            one = piece.find(b"},")  # the first entry alone says "not the usual layout" cheaply
            if first and one >= 0 and _piece(piece[:one + 1], True, False, brightness, kernels) is None:
                return None  # (before a whole piece's arrays are built)
        else:
            piece, pending = buf, b""
        got = _piece(piece, first, not data, brightness, kernels)
        if got is None:
            return None
        parts.append(got)
        first = False
        if compile_later and kernels is None:
            kernels = compiled()
        if not data:
            break
    seq, frame, num, xy = (np.concatenate([p[k] for p in parts]) for k in range(4))
    bright = [p[4] for p in parts]
    if not brightness or all(b is None for b in bright):
        return seq, frame, num, xy, None
    if any(b is None for b in bright):
        return None  # some entries lack it: the general reader says which
    return seq, frame, num, xy, np.concatenate(bright)


def _piece(data: bytes, first: bool, last: bool, brightness: bool, kernels=None):
    """The entries of one piece of the file (the first opens the array, the last closes it);
    ``kernels``: :mod:`.kernels`, to scan the piece in one compiled pass."""
    if not data or _TABLE[data[-1]] == _N:
        return None
    if kernels is not None:
        arr = np.frombuffer(data, dtype=np.uint8)
        ok, _, n, has_b, n_bright, start, end, values, integral = kernels.scan_piece(arr, first, last)
        if not ok:
            return None
        if np.isnan(values).any():  # a number the scan left to Arrow's correctly rounded cast
            length = end - start
            if int(length.max()) > limits.MAX_JSON_NUMBER_CHARS:
                return None
            offsets = np.zeros(len(start) + 1, dtype=np.int64)
            np.cumsum(length, out=offsets[1:])
            values = _cast(arr[np.repeat(start - offsets[:-1], length) + np.arange(int(offsets[-1]))], offsets)
            if values is None:  # pragma: no cover - the grammar admits only numbers Arrow reads
                return None
            values = np.where(integral & (values == 0), 0.0, values)
        c_num = 3 + 2 * n + np.where(has_b, n_bright, 0)
        return _values_of(values, integral, c_num, n, has_b, np.where(has_b, n_bright, -1), brightness)
    codes = np.frombuffer(data.translate(_TABLE), dtype=np.uint8)
    is_num = codes == _N
    start = codes != 0  # a token starts at every byte but whitespace and letters ...
    start[1:] &= ~(is_num[1:] & is_num[:-1])  # ... a number's first character only
    pos = np.flatnonzero(start)
    T = codes[pos]
    if not len(T):
        return None
    chars = np.frombuffer(data, dtype=np.uint8)[is_num]  # the numbers' characters, back to back
    offsets = np.append(np.flatnonzero(start[is_num]), len(chars))  # where each number begins in them
    s_at = pos[T == _S]  # the quotes, two per string (checked with the token sequence)
    if first:
        if T[0] != _OA:
            return None
        T = T[1:]
    if last:
        if T[-1] != _CA:
            return None
        T = T[:-1]
    arr = np.frombuffer(data, dtype=np.uint8)
    return _entries(arr, T, chars, offsets, s_at, len(data) - len(data.translate(None, _LETTERS)), brightness)


def _entries(arr: np.ndarray, body, chars, offsets, s_at, letters: int, brightness: bool):
    """The entries of a piece from its tokens ``body`` (entries and the commas between them),
    its numbers' characters back to back and where each begins in them (and a last offset),
    its quotes' positions and its number of letters."""
    starts = np.flatnonzero(body == _OO)
    E = len(starts)
    if E == 0 or starts[0] != 0:
        return None
    c_arr = np.add.reduceat((body == _OA).astype(np.int32), starts)  # (a piece is < 2^31 bytes;
    c_num = np.add.reduceat((body == _N).astype(np.int32), starts)  # 32-bit arrays halve the traffic)
    c_str = np.add.reduceat((body == _S).astype(np.int32), starts) // 2
    has_b = c_str == 5
    n = c_arr - 1 - has_b
    b = np.where(has_b, c_num - 3 - 2 * n, -1)
    if (n < 0).any() or (has_b & (b < 0)).any():
        return None
    # the token sequence these counts call for, compared with the piece's
    one = np.ones(E, np.int32)
    reps = np.stack([one, n >= 1, np.maximum(n - 1, 0), one, has_b, b >= 1, np.maximum(b - 1, 0), has_b, one,
                     np.arange(E) < E - 1], axis=1).astype(np.int32)
    piece = np.repeat(np.tile(np.arange(len(_PIECES), dtype=np.int8), E), reps.ravel())
    plen = _PIECE_LEN[piece]
    ends = np.cumsum(plen, dtype=np.int32)
    if int(ends[-1]) != len(body):
        return None
    idx = np.repeat(_PIECE_AT[piece] - (ends - plen), plen)
    idx += np.arange(len(body), dtype=np.int32)
    if not np.array_equal(_FLAT[idx], body):
        return None
    # the keys: 4 or 5 per entry, in order, each string exactly its key; no letter outside them
    s_start, s_end = s_at[0::2], s_at[1::2]
    key = np.arange(len(s_start)) - np.repeat(np.cumsum(c_str) - c_str, c_str)
    klen = _KEY_LEN[key]
    if not np.array_equal(s_end - s_start - 1, klen) or int(klen.sum()) != letters:
        return None
    for k, word in enumerate(KEY_BYTES):
        at = s_start[key == k] + 1
        if len(at) and not (arr[at[:, None] + np.arange(len(word))] == np.frombuffer(word, np.uint8)).all():
            return None
    values, integral = _values(chars, offsets)
    if values is None:
        return None
    return _values_of(values, integral, c_num, n, has_b, b, brightness)


def _values_of(values, integral, c_num, n, has_b, b, brightness: bool):
    """The entries' arrays from their numbers' ``values`` (and which are ``integral``):
    ``c_num`` per entry, the first three integers (``sequence_id``, ``frame``,
    ``num_objects``), then ``2 n`` coordinates, then ``b`` brightness values where ``has_b``
    (spec §1's rules applied)."""
    E = len(n)
    # the numbers: three integers, 2n coordinates, b brightness values per entry
    local = np.arange(len(values)) - np.repeat(np.cumsum(c_num) - c_num, c_num)
    is_int = local < 3
    if not integral[is_int].all():
        return None
    is_xy = ~is_int & (local < 3 + 2 * np.repeat(n, c_num))
    head = values[is_int].reshape(E, 3)
    if not (np.abs(head) < 2.0**53).all():
        return None  # (so the float is the integer)
    head = head.astype(np.int64)
    xy = values[is_xy].reshape(-1, 2)
    seq, frame, num = head[:, 0], head[:, 1], head[:, 2]
    if ((seq < 1) | (seq > MAX_SEQUENCE_ID) | (frame < FRAMES[0]) | (frame > FRAMES[1])).any():
        return None
    if ((num < 0) | (num > MAX_OBJECTS) | (num != n)).any():
        return None
    x, y = xy[:, 0], xy[:, 1]
    if not ((x >= X_RANGE[0]) & (x <= X_RANGE[1]) & (y >= Y_RANGE[0]) & (y <= Y_RANGE[1])).all():
        return None
    if not brightness or not has_b.any():
        return seq, frame, num, xy, None
    bright = values[~is_int & ~is_xy]
    if not has_b.all() or not np.array_equal(b, n) or not np.isfinite(bright).all():
        return None  # the general reader decides what to say about the brightness
    return seq, frame, num, xy, bright


def _numbers(arr: np.ndarray, start: np.ndarray, length: np.ndarray):
    """The values of the number tokens ``arr[start : start + length]`` (characters from
    ``0-9.+-`` only): :func:`_values` of their characters gathered back to back."""
    offsets = np.zeros(len(start) + 1, dtype=np.int64)
    np.cumsum(length, out=offsets[1:])
    return _values(arr[np.repeat(start - offsets[:-1], length) + np.arange(int(offsets[-1]))], offsets)


def _values(chars: np.ndarray, offsets: np.ndarray):
    """The values of the numbers ``chars[offsets[i] : offsets[i + 1]]`` as Python's ``float``
    reads them, and whether each is an integer (no ``.``); ``(None, None)`` when one breaks
    the JSON number grammar (no exponent) or a limit.

    The grammar is checked in numpy (:func:`_integral`); then the numbers become one Arrow
    string array (their characters and offsets, no copy), and Arrow's ``string → float64``
    cast rounds correctly, as ``float`` does."""
    n = len(offsets) - 1
    if not n:
        return np.zeros(0), np.zeros(0, dtype=bool)
    if int(np.diff(offsets).max()) > limits.MAX_JSON_NUMBER_CHARS:
        return None, None
    integral = _integral(chars, offsets)
    if integral is None:
        return None, None
    value = _cast(chars, offsets)
    if value is None:  # pragma: no cover - the grammar admits only numbers Arrow reads
        return None, None
    return np.where(integral & (value == 0), 0.0, value), integral


def _cast(chars: np.ndarray, offsets: np.ndarray) -> np.ndarray | None:
    """The numbers ``chars[offsets[i] : offsets[i + 1]]`` (in the JSON grammar) as Python's
    ``float`` reads them: one Arrow string array over them (no copy), cast to float64 by
    Arrow, which rounds correctly; None if Arrow refuses one."""
    n = len(offsets) - 1
    text = pa.Array.from_buffers(pa.large_string(), n, [None, pa.py_buffer(offsets.astype(np.int64)),
                                                        pa.py_buffer(chars)])
    try:
        cast = pc.cast(text, pa.float64())
    except pa.ArrowInvalid:  # pragma: no cover - the grammar admits only numbers Arrow reads
        return None
    # the values buffer itself (no nulls: every string is a number); ``to_numpy`` would import
    # pandas, which a worker process reading files otherwise never needs
    return np.frombuffer(cast.buffers()[1], dtype=np.float64, count=n, offset=cast.offset * 8)


_DIGIT = np.uint8(9)  # a byte c is a digit when c - 48 (wrapping) is at most 9


def _integral(chars: np.ndarray, offsets: np.ndarray) -> np.ndarray | None:
    """Whether each number ``chars[offsets[i] : offsets[i + 1]]`` (of ``0-9.+-``, at least one
    character) has no ``.``, or None when one breaks ``-?(0|[1-9][0-9]*)(\\.[0-9]+)?``: a digit
    first (after an optional ``-``), no other digit after a leading ``0`` but a ``.``, ``-``
    only first, no ``+``, each ``.`` between two digits of its number and one at most.

    >>> c = np.frombuffer(b"-0.5" b"12" b"0", dtype=np.uint8)
    >>> _integral(c, np.array([0, 4, 6, 7])).tolist()
    [False, True, True]
    >>> [_integral(np.frombuffer(t, dtype=np.uint8), np.array([0, len(t)])) for t in (b"01", b"1.", b"-", b"1.2.3")]
    [None, None, None, None]
    """
    head, end = offsets[:-1], offsets[1:]
    c = np.append(chars, np.zeros(2, dtype=np.uint8))  # (so one past a number's end can be read)
    starts = np.zeros(len(c), dtype=bool)  # a number begins here (or the text has ended)
    starts[head] = True
    starts[len(chars):] = True
    lead = head + (c[head] == 45)  # the first digit, after a '-'
    first = c[lead]
    if ((lead >= end) | (first - np.uint8(48) > _DIGIT)).any():
        return None
    if ((first == 48) & (lead + 1 < end) & (c[lead + 1] != 46)).any():
        return None  # a leading zero
    if (c == 43).any() or not starts[np.flatnonzero(c == 45)].all():
        return None
    dots = np.flatnonzero(c == 46)
    integral = np.ones(len(head), dtype=bool)
    if not len(dots):
        return integral
    if starts[dots].any() or starts[dots + 1].any():
        return None  # a '.' first or last in its number
    if ((c[dots - 1] - np.uint8(48) > _DIGIT) | (c[dots + 1] - np.uint8(48) > _DIGIT)).any():
        return None
    owner = np.cumsum(starts, dtype=np.int32)[dots] - 1  # each '.''s number
    if (owner[1:] == owner[:-1]).any():
        return None  # two in one number
    integral[owner] = False
    return integral
