"""A whole spotGEO JSON file read at once, with numpy and Arrow, when it is written the usual way.

Nearly every file is the same few tokens over and over: ``[{"sequence_id": 1, "frame": 1,
"num_objects": 2, "object_coords": [[x, y], [x, y]]}, ...]`` (a ground truth may end each
entry with ``"object_brightness": [b, b]``). :func:`read_canonical` reads such a file without
building a Python object per number:

1. the file is read in pieces of about :data:`CHUNK` bytes cut between two entries (at a
   ``},``), so memory stays that of the streaming reader;
2. a piece may hold only ASCII whitespace, the JSON punctuation, digits, ``+-.eE``, lower-case
   letters and ``_`` (so no escape, no byte of another encoding); each quoted key is
   replaced by one byte of its own, then every byte is turned into a token code
   (``bytes.translate``) — a quote or letter left over (a literal such as ``true`` or
   ``NaN``, another key, a string value) becomes a code no entry may hold;
3. the token sequence each entry must have is built from the entry's own counts and
   compared, token for token, with the piece's — so the JSON grammar, the keys, their order
   and every array's shape are checked by one comparison;
4. the number tokens are checked against the JSON number grammar and converted by Arrow
   (``pyarrow.compute``: RE2 and a correctly rounded ``string → float64``, the value
   Python's ``float`` gives), then the rules of spec §1 (ranges, ``num_objects``) are applied.

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
from .data import FRAMES, MAX_OBJECTS, MAX_SEQUENCE_ID, X_RANGE, Y_RANGE

#: bytes read at once (each piece costs a few bytes of memory per byte while it is read)
CHUNK = 1 << 20

KEYS = (b"sequence_id", b"frame", b"num_objects", b"object_coords", b"object_brightness")
_ALLOWED = b" \t\n\r[]{},:\"0123456789+-.eE_abcdefghijklmnopqrstuvwxyz"
_KEY_BYTE = [bytes([1 + k]) for k in range(len(KEYS))]  # a control byte no piece may hold
# token codes: 0 whitespace (dropped), punctuation, one per key, a number character, anything else
_WS, _OA, _CA, _OO, _CO, _C, _K = range(7)
_KEY = [7 + k for k in range(len(KEYS))]
_N = 7 + len(KEYS)
_BAD = _N + 1
_TABLE = bytearray([_BAD]) * 256
for _c in b" \t\n\r":
    _TABLE[_c] = _WS
for _c, _t in zip(b"[]{},:", (_OA, _CA, _OO, _CO, _C, _K), strict=True):
    _TABLE[_c] = _t
for _c in b"0123456789+-.eE":
    _TABLE[_c] = _N
for _k, _b in enumerate(_KEY_BYTE):
    _TABLE[_b[0]] = _KEY[_k]
_TABLE = bytes(_TABLE)

# the pieces an entry's token sequence is made of, and how many of each an entry has
_S0, _S1, _S2, _S3, _S4 = _KEY
_PIECES = [
    [_OO, _S0, _K, _N, _C, _S1, _K, _N, _C, _S2, _K, _N, _C, _S3, _K, _OA],  # 0: the head, up to coords' [
    [_OA, _N, _C, _N, _CA],  # 1: the first point
    [_C, _OA, _N, _C, _N, _CA],  # 2: each further point
    [_CA],  # 3: end of the points
    [_C, _S4, _K, _OA],  # 4: the brightness key
    [_N],  # 5: the first brightness
    [_C, _N],  # 6: each further brightness
    [_CA],  # 7: end of the brightness
    [_CO],  # 8: end of the entry
    [_C],  # 9: between entries
]
_PIECE_LEN = np.array([len(p) for p in _PIECES], dtype=np.int64)
_PIECE_AT = np.cumsum(_PIECE_LEN) - _PIECE_LEN
_FLAT = np.array([t for p in _PIECES for t in p], dtype=np.uint8)

# a number (its token runs to the next number, so anything after it is punctuation)
_NUMBER = r"^(?P<n>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)(?:[^0-9eE.+-]|$)"
_INT = r"^-?(0|[1-9][0-9]*)$"


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
        else:
            piece, pending = buf, b""
        got = _piece(piece, first, not data, brightness)
        if got is None:
            return None
        parts.append(got)
        first = False
        if not data:
            break
    seq, frame, num, xy = (np.concatenate([p[k] for p in parts]) for k in range(4))
    bright = [p[4] for p in parts]
    if not brightness or all(b is None for b in bright):
        return seq, frame, num, xy, None
    if any(b is None for b in bright):
        return None  # some entries lack it: the general reader says which
    return seq, frame, num, xy, np.concatenate(bright)


def _piece(data: bytes, first: bool, last: bool, brightness: bool):
    """The entries of one piece of the file (the first opens the array, the last closes it)."""
    if not data or data.translate(None, _ALLOWED):
        return None
    for word, code in zip(KEYS, _KEY_BYTE, strict=True):
        data = data.replace(b'"' + word + b'"', code)
    codes = np.frombuffer(data.translate(_TABLE), dtype=np.uint8)
    at = np.flatnonzero(codes)  # every byte but whitespace
    v = codes[at]
    if not len(v):
        return None
    num = v == _N
    cont = num[1:] & num[:-1]  # a number character after one
    if (cont & (np.diff(at) != 1)).any():
        return None  # two numbers with only whitespace between them
    keep = np.flatnonzero(np.concatenate(([True], ~cont)))
    T = v[keep]  # one code per token
    n_start = at[keep[T == _N]]
    if first:
        if not len(T) or T[0] != _OA:
            return None
        T = T[1:]
    if last:
        if not len(T) or T[-1] != _CA:
            return None
        T = T[:-1]
    return _entries(data, T, n_start, brightness)


def _entries(data: bytes, body: np.ndarray, n_start: np.ndarray, brightness: bool):
    """The entries of a piece from its tokens ``body`` (entries and the commas between them)
    and the byte positions of its numbers."""
    starts = np.flatnonzero(body == _OO)
    E = len(starts)
    if E == 0 or starts[0] != 0:
        return None
    c_arr = np.add.reduceat((body == _OA).astype(np.int64), starts)
    c_num = np.add.reduceat((body == _N).astype(np.int64), starts)
    has_b = np.add.reduceat((body == _S4).astype(np.int64), starts) > 0
    n = c_arr - 1 - has_b
    b = np.where(has_b, c_num - 3 - 2 * n, -1)
    if (n < 0).any() or (has_b & (b < 0)).any():
        return None
    # the token sequence these counts call for, compared with the piece's
    one = np.ones(E, np.int64)
    reps = np.stack([one, n >= 1, np.maximum(n - 1, 0), one, has_b, b >= 1, np.maximum(b - 1, 0), has_b, one,
                     np.arange(E) < E - 1], axis=1).astype(np.int64)
    piece = np.repeat(np.tile(np.arange(len(_PIECES)), E), reps.ravel())
    plen = _PIECE_LEN[piece]
    ends = np.cumsum(plen)
    if len(ends) == 0 or int(ends[-1]) != len(body):
        return None
    idx = np.repeat(_PIECE_AT[piece] - (ends - plen), plen) + np.arange(len(body))
    if not np.array_equal(_FLAT[idx], body):
        return None
    # the numbers: three integers, 2n coordinates, b brightness values per entry; each
    # token's text runs from its first character to the next number's
    offsets = np.append(n_start, len(data))
    text = pa.Array.from_buffers(pa.large_string(), len(n_start), [None, pa.py_buffer(offsets), pa.py_buffer(data)])
    if int(np.diff(offsets).max()) > limits.MAX_JSON_NUMBER_CHARS + 64:
        return None
    nums = pc.extract_regex(text, _NUMBER).field(0)
    if nums.null_count or pc.max(pc.utf8_length(nums)).as_py() > limits.MAX_JSON_NUMBER_CHARS:
        return None
    local = np.arange(len(n_start)) - np.repeat(np.cumsum(c_num) - c_num, c_num)
    is_int = local < 3
    is_xy = ~is_int & (local < 3 + 2 * np.repeat(n, c_num))
    ints = nums.filter(pa.array(is_int))
    if not pc.all(pc.match_substring_regex(ints, _INT)).as_py():
        return None
    try:
        head = pc.cast(ints, pa.int64()).to_numpy().reshape(E, 3)
        xy = pc.cast(nums.filter(pa.array(is_xy)), pa.float64()).to_numpy(zero_copy_only=False).reshape(-1, 2)
        bright = pc.cast(nums.filter(pa.array(~is_int & ~is_xy)), pa.float64()).to_numpy(zero_copy_only=False)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    seq, frame, num = head[:, 0], head[:, 1], head[:, 2]
    if ((seq < 1) | (seq > MAX_SEQUENCE_ID) | (frame < FRAMES[0]) | (frame > FRAMES[1])).any():
        return None
    if ((num < 0) | (num > MAX_OBJECTS) | (num != n)).any():
        return None
    x, y = xy[:, 0], xy[:, 1]
    with np.errstate(invalid="ignore"):
        if not ((x >= X_RANGE[0]) & (x <= X_RANGE[1]) & (y >= Y_RANGE[0]) & (y <= Y_RANGE[1])).all():
            return None
    if not brightness or not has_b.any():
        return seq, frame, num, xy, None
    if not has_b.all() or not np.array_equal(b, n) or not np.isfinite(bright).all():
        return None  # the general reader decides what to say about the brightness
    return seq, frame, num, xy, bright
