"""A whole spotGEO JSON file read at once, with numpy and Arrow, when it is written the usual way.

Nearly every file is the same few tokens over and over: ``[{"sequence_id": 1, "frame": 1,
"num_objects": 2, "object_coords": [[x, y], [x, y]]}, ...]`` (a ground truth may end each
entry with ``"object_brightness": [b, b]``). :func:`read_canonical` reads such a file without
building a Python object per number:

1. every byte is classified (a look-up table); anything but ASCII whitespace, the JSON
   punctuation, digits, ``+-.eE`` and key letters — an escape, a literal such as ``true``
   or ``NaN``, a byte of another encoding — means *not canonical*;
2. the tokens (punctuation, strings, numbers) are found in one pass; the token sequence
   each entry must have is built from the entry's own counts and compared, token for token,
   with the file's — so the JSON grammar, the key order and every array's shape are checked
   by one comparison; the keys' letters are compared too;
3. the number tokens are checked against the JSON number grammar and converted by Arrow
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

# token codes
_OPEN_A, _CLOSE_A, _OPEN_O, _CLOSE_O, _COMMA, _COLON, _STR, _NUM = range(8)
_PUNCT = {ord("["): _OPEN_A, ord("]"): _CLOSE_A, ord("{"): _OPEN_O, ord("}"): _CLOSE_O, ord(","): _COMMA,
          ord(":"): _COLON}
_NONE = 255

# byte classes: 0 not allowed, 1 whitespace, 2 punctuation, 3 quote, 4 number character, 5 key letter
_CLASS = np.zeros(256, dtype=np.uint8)
_CLASS[[9, 10, 13, 32]] = 1
_CLASS[list(_PUNCT)] = 2
_CLASS[ord('"')] = 3
_CLASS[[ord(c) for c in "0123456789+-.eE"]] = 4
_CLASS[[ord(c) for c in "abcdfghijklmnopqrstuvwxyz_"]] = 5  # e: a number character outside strings
_KEY_CHAR = np.zeros(256, dtype=bool)  # what a key may hold
_KEY_CHAR[[ord(c) for c in "abcdefghijklmnopqrstuvwxyz_"]] = True
_TOKEN_OF = np.full(256, _NONE, dtype=np.uint8)
for _b, _t in _PUNCT.items():
    _TOKEN_OF[_b] = _t

KEYS = (b"sequence_id", b"frame", b"num_objects", b"object_coords", b"object_brightness")

# the pieces an entry's token sequence is made of, and how many of each an entry has
_S, _N, _C, _K, _OA, _CA = _STR, _NUM, _COMMA, _COLON, _OPEN_A, _CLOSE_A
_PIECES = [
    [_OPEN_O, _S, _K, _N, _C, _S, _K, _N, _C, _S, _K, _N, _C, _S, _K, _OA],  # 0: the head, up to coords' [
    [_OA, _N, _C, _N, _CA],  # 1: the first point
    [_C, _OA, _N, _C, _N, _CA],  # 2: each further point
    [_CA],  # 3: end of the points
    [_C, _S, _K, _OA],  # 4: the brightness key
    [_N],  # 5: the first brightness
    [_C, _N],  # 6: each further brightness
    [_CA],  # 7: end of the brightness
    [_CLOSE_O],  # 8: end of the entry
    [_C],  # 9: between entries
]
_PIECE_LEN = np.array([len(p) for p in _PIECES], dtype=np.int64)
_PIECE_TOKENS = np.full((len(_PIECES), int(_PIECE_LEN.max())), _NONE, dtype=np.uint8)
for _i, _p in enumerate(_PIECES):
    _PIECE_TOKENS[_i, :len(_p)] = _p

_INT = r"^-?(0|[1-9][0-9]*)$"
_NUMBER = r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"


def read_canonical(raw, *, brightness: bool = False, chunk: int = CHUNK):
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
    if not data:
        return None
    arr = np.frombuffer(data, dtype=np.uint8)
    cls = _CLASS[arr]
    if not cls.all():
        return None
    quote = np.flatnonzero(cls == 3)
    if len(quote) % 2:
        return None
    q0, q1 = quote[0::2], quote[1::2]
    mark = np.zeros(len(arr) + 1, dtype=np.int8)
    mark[q0 + 1] = 1
    mark[q1] -= 1
    inside = np.cumsum(mark[:-1], dtype=np.int8).view(bool)
    if ((cls == 5) & ~inside).any() or (inside & ~_KEY_CHAR[arr]).any():
        return None
    num = (cls == 4) & ~inside
    tok = _TOKEN_OF[arr]
    tok[inside] = _NONE
    tok[q1] = _NONE
    tok[q0] = _STR
    n_start = np.flatnonzero(num & ~np.concatenate(([False], num[:-1])))
    n_end = np.flatnonzero(num & ~np.concatenate((num[1:], [False]))) + 1
    tok[n_start] = _NUM
    T = tok[tok != _NONE]
    del cls, mark, inside, num, tok
    if first:
        if not len(T) or T[0] != _OPEN_A:
            return None
        T = T[1:]
    if last:
        if not len(T) or T[-1] != _CLOSE_A:
            return None
        T = T[:-1]
    return _entries(arr, T, q0, q1, n_start, n_end, brightness)


def _entries(arr, body, q0, q1, n_start, n_end, brightness: bool):
    """The entries of a piece from its tokens ``body`` (entries and the commas between them)."""
    starts = np.flatnonzero(body == _OPEN_O)
    E = len(starts)
    if E == 0 or starts[0] != 0:
        return None
    c_arr = np.add.reduceat((body == _OPEN_A).astype(np.int64), starts)
    c_num = np.add.reduceat((body == _NUM).astype(np.int64), starts)
    c_str = np.add.reduceat((body == _STR).astype(np.int64), starts)
    has_b = c_str == 5
    if not ((c_str == 4) | has_b).all():
        return None
    n = c_arr - 1 - has_b
    b = np.where(has_b, c_num - 3 - 2 * n, -1)
    if (n < 0).any() or (has_b & (b < 0)).any():
        return None
    # the token sequence these counts call for, compared with the file's
    reps = np.stack([np.ones(E, np.int64), n >= 1, np.maximum(n - 1, 0), np.ones(E, np.int64), has_b, b >= 1,
                     np.maximum(b - 1, 0), has_b, np.ones(E, np.int64), np.arange(E) < E - 1], axis=1).astype(np.int64)
    piece = np.repeat(np.tile(np.arange(len(_PIECES)), E), reps.ravel())
    plen = _PIECE_LEN[piece]
    if int(plen.sum()) != len(body):
        return None
    local = np.arange(len(body)) - np.repeat(np.cumsum(plen) - plen, plen)
    if not np.array_equal(_PIECE_TOKENS[np.repeat(piece, plen), local], body):
        return None
    # the keys, in their order
    key = np.arange(len(q0)) - np.repeat(np.cumsum(c_str) - c_str, c_str)
    klen = q1 - q0 - 1
    for k, word in enumerate(KEYS):
        at = q0[key == k] + 1
        if not len(at):
            continue
        if (klen[key == k] != len(word)).any():
            return None
        if not (arr[at[:, None] + np.arange(len(word))] == np.frombuffer(word, np.uint8)).all():
            return None
    # the numbers: three integers, 2n coordinates, b brightness values per entry
    length = n_end - n_start
    if len(length) and int(length.max()) > limits.MAX_JSON_NUMBER_CHARS:
        return None
    local = np.arange(len(n_start)) - np.repeat(np.cumsum(c_num) - c_num, c_num)
    entry_n = np.repeat(n, c_num)
    is_int, is_xy = local < 3, (local >= 3) & (local < 3 + 2 * entry_n)
    text = _strings(arr, n_start, length)
    ints, xy_text = text.filter(pa.array(is_int)), text.filter(pa.array(is_xy))
    if not pc.all(pc.match_substring_regex(ints, _INT)).as_py():
        return None
    if pc.any(pc.invert(pc.match_substring_regex(text.filter(pa.array(~is_int)), _NUMBER))).as_py():
        return None
    try:
        head = pc.cast(ints, pa.int64()).to_numpy().reshape(E, 3)
        xy = pc.cast(xy_text, pa.float64()).to_numpy(zero_copy_only=False).reshape(-1, 2)
        bright = pc.cast(text.filter(pa.array(~is_int & ~is_xy)), pa.float64()).to_numpy(zero_copy_only=False)
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


def _strings(arr: np.ndarray, start: np.ndarray, length: np.ndarray) -> pa.StringArray:
    """The byte ranges ``[start, start + length)`` of ``arr`` as one Arrow string array."""
    offsets = np.zeros(len(start) + 1, dtype=np.int64)
    np.cumsum(length, out=offsets[1:])
    total = int(offsets[-1])
    idx = np.repeat(start - offsets[:-1], length) + np.arange(total)
    data = arr[idx]
    return pa.Array.from_buffers(pa.large_string(), len(start), [None, pa.py_buffer(offsets), pa.py_buffer(data)])
