"""Reading and validating one spotGEO JSON file (spec §1).

A file is an array of entries ``{"sequence_id", "frame", "num_objects", "object_coords"}``,
read entry by entry by :mod:`scoring.spotgeo.stream`; here are the rules. A run of entries
is validated in two passes (:func:`check_batch`): a vectorised pass (a handful of list
comprehensions and numpy checks) that only says *whether* the run is valid, and — only when
it is not — a plain entry-by-entry scan that finds the first problem and names it. Both
passes check the same rules, so the message is always about the first bad entry in file order.

Every problem is an :class:`~scoring.core.errors.InputError` naming the file, the entry
(1-based position in the array, plus its ``sequence_id``/``frame`` when readable) and the
problem, e.g. ``gt.json: entry 7 (sequence_id 2, frame 3): num_objects is 3 but
object_coords has 2 points``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from itertools import chain

import numpy as np

from ..core.errors import InputError

FRAMES = (1, 5)  # frame numbers of a sequence
MAX_OBJECTS = 30
X_RANGE = (-0.5, 639.5)
Y_RANGE = (-0.5, 479.5)
MAX_SEQUENCE_ID = 2**53 - 1  # larger ids are not exact in many JSON readers
KEYS = ("sequence_id", "frame", "num_objects", "object_coords")
BRIGHTNESS_KEY = "object_brightness"  # optional, ground truth only (the sample carries it)
#: the five keys as bytes, numbered in this order by the fast readers (`.fastread`, `.kernels`)
KEY_BYTES = tuple(k.encode() for k in (*KEYS, BRIGHTNESS_KEY))
_ABSENT = object()


def entry_error(name: str, index: int, entry, problem: str) -> InputError:
    """An error about entry ``index`` (0-based) of file ``name``, naming its sequence and frame
    when they are readable integers.

    >>> str(entry_error("gt.json", 6, {"sequence_id": 2, "frame": 3}, "bad"))
    'gt.json: entry 7 (sequence_id 2, frame 3): bad'
    >>> str(entry_error("gt.json", 0, [1, 2], "bad"))
    'gt.json: entry 1: bad'
    """
    where = [f"entry {index + 1}"]
    if isinstance(entry, dict):
        ids = [f"{k} {entry[k]}" for k in ("sequence_id", "frame") if _is_int(entry.get(k))]
        if ids:
            where.append(f"({', '.join(ids)})")
    err = InputError(name, None, f"{' '.join(where)}: {problem}")
    err.entry = index + 1
    return err


def _is_int(v) -> bool:
    return type(v) is int  # bool is not an integer here


def _is_num(v) -> bool:
    return type(v) is int or type(v) is float


def _show(v) -> str:
    """A JSON value as the user wrote it (shortened)."""
    try:
        text = json.dumps(v)
    except (TypeError, ValueError):
        text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass
class Frames:
    """The frames of one file, sorted by (sequence_id, frame).

    ``seq`` / ``frame`` (F,) identify each frame; ``start`` (F + 1,) are the offsets of its
    points in ``xy`` (P, 2); ``entry`` (F,) is each frame's 1-based entry in the file;
    ``brightness`` (P,) is present only for a ground truth that carries ``object_brightness``.
    """

    name: str
    seq: np.ndarray
    frame: np.ndarray
    start: np.ndarray
    xy: np.ndarray
    entry: np.ndarray
    brightness: np.ndarray | None = None

    @property
    def n_frames(self) -> int:
        return len(self.seq)

    @property
    def counts(self) -> np.ndarray:
        return np.diff(self.start)

    @property
    def keys(self) -> np.ndarray:
        """One int64 per frame, increasing: ``sequence_id · 8 + frame``."""
        return self.seq * 8 + self.frame


class Invalid(Exception):
    """Entry ``index`` (0-based, within its batch) breaks a rule of spec §1: ``problem``."""

    def __init__(self, index: int, problem: str):
        self.index, self.problem = index, problem
        super().__init__(problem)


def check_batch(entries: list) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(seq, frame, counts, xy)`` of a run of entries when each is valid (vectorised, then —
    only for a bad run — entry by entry); else :class:`Invalid` for the first bad entry.
    Duplicate (sequence_id, frame) pairs are :func:`frames_from_arrays`' to find.

    >>> seq, frame, counts, xy = check_batch([{"sequence_id": 2, "frame": 1, "num_objects": 1,
    ...                                        "object_coords": [[3, 4]]}])
    >>> seq.tolist(), frame.tolist(), counts.tolist(), xy.tolist()
    ([2], [1], [1], [[3.0, 4.0]])
    """
    parsed = _fast(entries)
    if parsed is not None:
        return parsed
    for i, e in enumerate(entries):
        problem = entry_problem(e)
        if problem is not None:
            raise Invalid(i, problem)
    raise AssertionError("the fast and the slow check disagree")  # pragma: no cover


def frames_from_arrays(name: str, seq: np.ndarray, frame: np.ndarray, counts: np.ndarray, xy: np.ndarray
                       ) -> tuple[Frames, np.ndarray]:
    """The :class:`Frames` of valid entries given in file order, and the position in file
    order of each of its points (to reorder per-point extras); an error for the first
    duplicate (sequence_id, frame) in file order."""
    keys = seq * 8 + frame
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    dup = np.flatnonzero(sk[1:] == sk[:-1])
    if len(dup):  # the first duplicate in file order
        later = order[dup + 1]
        i = int(later.min())
        first = int(order[dup[np.argmin(later)]])
        entry = {"sequence_id": int(seq[i]), "frame": int(frame[i])}
        raise entry_error(name, i, entry, f"duplicate (sequence_id, frame): also entry {first + 1}")
    start_file = np.concatenate(([0], np.cumsum(counts)))
    c_sorted = counts[order]
    start = np.concatenate(([0], np.cumsum(c_sorted)))
    # point positions in file order, gathered frame by frame in sorted order
    idx = np.repeat(start_file[order] - start[:-1], c_sorted) + np.arange(start[-1])
    return Frames(name, seq[order], frame[order], start, xy[idx], order + 1), idx


def _kind(v) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(v), "a number")


def _fast(data: list):
    """(seq, frame, counts, xy) when every entry is valid, else None (then the slow scan)."""
    if set(map(type, data)) != {dict}:
        return None
    cols = []
    for k in KEYS:
        col = [e.get(k, _ABSENT) for e in data]
        cols.append(col)
    seq_l, frame_l, num_l, coords = cols
    if set(map(type, seq_l)) != {int} or set(map(type, frame_l)) != {int} or set(map(type, num_l)) != {int}:
        return None
    if set(map(type, coords)) != {list}:
        return None
    try:
        seq = np.array(seq_l, dtype=np.int64)
        frame = np.array(frame_l, dtype=np.int64)
        num = np.array(num_l, dtype=np.int64)
    except OverflowError:
        return None
    if (seq < 1).any() or (seq > MAX_SEQUENCE_ID).any() or (frame < FRAMES[0]).any() or (frame > FRAMES[1]).any():
        return None
    if (num < 0).any() or (num > MAX_OBJECTS).any():
        return None
    counts = np.fromiter(map(len, coords), dtype=np.int64, count=len(coords))
    if (counts != num).any():
        return None
    pts = list(chain.from_iterable(coords))
    if pts and (set(map(type, pts)) != {list} or set(map(len, pts)) != {2}):
        return None
    vals = list(chain.from_iterable(pts))
    if not set(map(type, vals)) <= {int, float}:
        return None
    try:
        xy = np.array(vals, dtype=np.float64).reshape(-1, 2)
    except OverflowError:
        return None
    x, y = xy[:, 0], xy[:, 1]
    with np.errstate(invalid="ignore"):
        ok = ((x >= X_RANGE[0]) & (x <= X_RANGE[1]) & (y >= Y_RANGE[0]) & (y <= Y_RANGE[1])).all()
    if not ok:  # NaN and ±inf fail the range test too
        return None
    return seq, frame, counts, xy


def entry_problem(entry) -> str | None:
    """The first problem of one entry (spec §1), or None. The plain-Python rule list.

    >>> entry_problem({"sequence_id": 1, "frame": 6, "num_objects": 0, "object_coords": []})
    'frame must be an integer in 1-5, got 6'
    >>> entry_problem({"sequence_id": 1, "frame": 1, "num_objects": 1, "object_coords": [[3, 4]]}) is None
    True
    """
    if not isinstance(entry, dict):
        return f"expected an object with keys {', '.join(KEYS)}, got {_kind(entry)}"
    for k in KEYS:
        if k not in entry:
            return f"missing key {k!r}"
    s, f, n, coords = (entry[k] for k in KEYS)
    if not _is_int(s) or not 1 <= s <= MAX_SEQUENCE_ID:
        return f"sequence_id must be an integer >= 1, got {_show(s)}" if not _is_int(s) or s < 1 else \
            f"sequence_id must be at most {MAX_SEQUENCE_ID}, got {s}"
    if not _is_int(f) or not FRAMES[0] <= f <= FRAMES[1]:
        return f"frame must be an integer in {FRAMES[0]}-{FRAMES[1]}, got {_show(f)}"
    if not _is_int(n) or not 0 <= n <= MAX_OBJECTS:
        return f"num_objects must be an integer in 0-{MAX_OBJECTS}, got {_show(n)}"
    if not isinstance(coords, list):
        return f"object_coords must be an array of [x, y] pairs, got {_show(coords)}"
    if len(coords) != n:
        return f"num_objects is {n} but object_coords has {len(coords)} point{'s' if len(coords) != 1 else ''}"
    for j, pt in enumerate(coords, start=1):
        if not isinstance(pt, list) or len(pt) != 2:
            return f"object_coords point {j} must be a pair [x, y], got {_show(pt)}"
        for axis, v, (lo, hi) in (("x", pt[0], X_RANGE), ("y", pt[1], Y_RANGE)):
            if not _is_num(v):
                return f"object_coords point {j}: {axis} must be a number, got {_show(v)}"
            try:
                fv = float(v)
            except OverflowError:
                return f"object_coords point {j}: {axis} = {_show(v)} is outside [{lo}, {hi}]"
            if not math.isfinite(fv):
                return f"object_coords point {j}: {axis} must be a finite number, got {fv}"
            if not lo <= fv <= hi:
                return f"object_coords point {j}: {axis} = {v!r} is outside [{lo}, {hi}]"
    return None


def _first_problem(data: list, name: str) -> None:
    seen: dict[tuple[int, int], int] = {}
    for i, e in enumerate(data):
        problem = entry_problem(e)
        if problem is not None:
            raise entry_error(name, i, e, problem)
        key = (e["sequence_id"], e["frame"])
        if key in seen:
            raise entry_error(name, i, e, f"duplicate (sequence_id, frame): also entry {seen[key] + 1}")
        seen[key] = i


def brightness_of(entries: list, counts: np.ndarray, offset: int = 0) -> tuple[np.ndarray | None, str | None]:
    """The ``object_brightness`` values of a run of entries (file positions ``offset`` on), in
    file order, or ``(None, why)`` naming the first entry that lacks a well-formed one (the
    ground truth's optional extra key; it never makes a file invalid)."""
    lists = [e.get(BRIGHTNESS_KEY, _ABSENT) for e in entries]
    # every entry at once (types, lengths, one array, finiteness); entry by entry only to name
    # the first one that fails
    if set(map(type, lists)) <= {list} and np.array_equal(
            np.fromiter(map(len, lists), dtype=np.int64, count=len(lists)), counts):
        vals = list(chain.from_iterable(lists))
        if set(map(type, vals)) <= {int, float}:
            try:
                out = np.array(vals, dtype=np.float64)
            except OverflowError:  # an integer past the float range
                out = None
            if out is not None and np.isfinite(out).all():
                return out, None
    for i, b in enumerate(lists):
        if not (isinstance(b, list) and len(b) == counts[i] and all(_is_num(v) and _finite(v) for v in b)):
            why = "missing" if b is _ABSENT else f"not {int(counts[i])} finite numbers"
            return None, f"entry {offset + i + 1}: {why}"
    return np.array(list(chain.from_iterable(lists)), dtype=np.float64), None  # (lists of a list subclass)


def _finite(v) -> bool:
    """A JSON number that is a finite float (an integer past the float range is not)."""
    try:
        return math.isfinite(float(v))
    except OverflowError:
        return False
