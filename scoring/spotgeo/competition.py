"""A loaded spotGEO competition: the ground truth, and per submission its points and every
(prediction, object) pair within the largest τ (spec §1–§2).

What no parameter changes is computed here, once: each submission's frames are aligned with
the ground truth's, and its candidate pairs — every prediction and object of one frame at
most :data:`MAX_TAU` pixels apart — are kept sorted by distance. A τ then selects a prefix of
those pairs (no re-reading, no new distances); ε and the rule set only re-sum.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..core.errors import InputError
from ..core.fanout import POOL_MIN_BYTES, fan_out
from ..core.sources import expand_submissions, path_of, source_name
from .data import Frames
from .matching import COMPILED_MIN_POINTS, Settling, compiled, settling
from .stream import read_frames

MAX_TAU = 50.0
_KEY_STRIDE = 1000.0  # frame index stride of the x look-up key (> 640 + 2·MAX_TAU)


@dataclass
class GroundTruth:
    """The ground truth: ``frames`` (sorted by sequence, frame), each frame's sequence index
    ``frame_seq`` into ``sequences`` (the sorted sequence ids), and each object's frame."""

    frames: Frames
    sequences: np.ndarray
    frame_seq: np.ndarray
    point_frame: np.ndarray

    @property
    def name(self) -> str:
        return self.frames.name

    @property
    def n_frames(self) -> int:
        return self.frames.n_frames

    @property
    def n_points(self) -> int:
        return len(self.point_frame)

    @property
    def brightness(self) -> np.ndarray | None:
        return self.frames.brightness

    @cached_property
    def x_index(self) -> XIndex:
        """The objects sorted by their ``frame · 1000 + x`` look-up key (see
        :func:`candidate_pairs`), built once for every submission."""
        return x_index(self.frames.xy, self.point_frame)


@dataclass
class Submission:
    """One submission aligned with the ground truth's frames.

    ``xy`` (P, 2) its points, frame by frame in ground-truth frame order (``start`` (F + 1,)
    offsets), ``point_frame`` (P,); the candidate pairs ``p`` (prediction), ``g`` (object) and
    ``d`` (distance ≤ :data:`MAX_TAU`), sorted by ``d``; ``settled``, their
    :func:`~.matching.settling` (the same at every τ: made as the submission loads, in the
    worker process that reads it), or None for the scorer to make.
    """

    name: str
    file: str
    xy: np.ndarray
    start: np.ndarray
    point_frame: np.ndarray
    p: np.ndarray
    g: np.ndarray
    d: np.ndarray
    settled: Settling | None = None

    @property
    def n_points(self) -> int:
        return len(self.point_frame)


@dataclass
class Competition:
    """Ground truth and submissions (``submission_names`` in load order); ``report`` holds
    the load's warnings."""

    gt: GroundTruth
    submissions: list[Submission]
    report: list[str] = field(default_factory=list)

    @property
    def submission_names(self) -> list[str]:
        return [s.name for s in self.submissions]

    def submission(self, name: str) -> Submission:
        for s in self.submissions:
            if s.name == name:
                return s
        raise KeyError(f"unknown submission {name!r}")

    @property
    def sequences(self) -> list[int]:
        return self.gt.sequences.tolist()

    @property
    def has_brightness(self) -> bool:
        return self.gt.brightness is not None

    def frames_of(self, sequence_id: int) -> list[int]:
        """The frame numbers the ground truth lists for one sequence (empty if unknown)."""
        fr = self.gt.frames
        return fr.frame[fr.seq == int(sequence_id)].tolist()


def ground_truth_from_frames(frames: Frames) -> GroundTruth:
    sequences, frame_seq = np.unique(frames.seq, return_inverse=True)
    point_frame = np.repeat(np.arange(frames.n_frames), frames.counts)
    return GroundTruth(frames, sequences, frame_seq.astype(np.int64), point_frame)


def load_ground_truth(src, *, report: list[str] | None = None) -> GroundTruth:
    """Read and validate a ground-truth file (spec §1)."""
    name = source_name(src, "ground_truth.json")
    frames = read_frames(src, name, ground_truth=True, report=report)
    return ground_truth_from_frames(frames)


def _describe(frames: Frames, i: int) -> str:
    return f"sequence_id {int(frames.seq[i])}, frame {int(frames.frame[i])}"


def align(sub: Frames, gt: GroundTruth, name: str) -> None:
    """Check that ``sub`` holds exactly the ground truth's (sequence_id, frame) pairs (both
    are sorted by key, so equal keys mean equal order); else an error that says how many
    are missing or extra and names the first."""
    gk, sk = gt.frames.keys, sub.keys
    if len(gk) == len(sk) and np.array_equal(gk, sk):
        return
    extra = ~np.isin(sk, gk)
    if extra.any():
        i = np.flatnonzero(extra)
        first = i[np.argmin(sub.entry[i])]  # first in file order
        raise InputError(name, None, f"{len(i)} (sequence_id, frame) pair{'s' if len(i) > 1 else ''} not in the "
                         f"ground truth (first: entry {int(sub.entry[first])}, {_describe(sub, first)})")
    missing = np.flatnonzero(~np.isin(gk, sk))
    raise InputError(name, None, f"{len(missing)} (sequence_id, frame) pair{'s' if len(missing) > 1 else ''} "
                     f"of the ground truth missing (first: {_describe(gt.frames, missing[0])})")


class XIndex(NamedTuple):
    """The objects sorted by their ``frame · 1000 + x`` look-up key: ``order`` (positions of
    the objects in that order), ``key`` (sorted), their ``x`` and ``y`` in that order, and
    the key's buckets for a reach of ``reach`` (:func:`_buckets`)."""

    order: np.ndarray
    key: np.ndarray
    x: np.ndarray
    y: np.ndarray
    reach: float
    buckets: tuple[float, np.ndarray] | None


#: the widest reach :func:`candidate_pairs` accepts (a window of ±reach in x, plus a bucket,
#: stays within one frame's stretch of the look-up key)
MAX_REACH = 150.0


def x_index(gt_xy: np.ndarray, gt_frame: np.ndarray, reach: float = MAX_TAU) -> XIndex:
    """The :class:`XIndex` of objects at ``gt_xy`` (N, 2) in frames ``gt_frame``, for look-ups
    up to ``reach`` apart."""
    gkey = gt_frame * _KEY_STRIDE + gt_xy[:, 0]
    order = np.argsort(gkey, kind="stable")
    skey = gkey[order]
    return XIndex(order, skey, gt_xy[order, 0], gt_xy[order, 1], reach, _buckets(skey, _margin(reach)))


def _margin(reach: float) -> float:
    return reach + 1e-6


def _buckets(skey: np.ndarray, margin: float) -> tuple[float, np.ndarray] | None:
    """The sorted keys cut into buckets a quarter of ``margin`` wide (at least 8):
    ``(width, before)``, where ``before[b]`` counts the keys in the buckets below ``b`` — or
    None when the keys are spread too thin (more buckets than 8 per key)."""
    if not len(skey):
        return None
    width = max(margin / 4, 8.0)
    top = (float(skey[-1]) + margin + _KEY_STRIDE) / width
    if top > 8 * len(skey) + 4096:
        return None
    n_buckets = int(top) + 2
    # (key + stride) / width is never negative and never decreases as the key grows: the
    # buckets of sorted keys are sorted, and every key in [a, b] lies in the buckets of a to b
    counts = np.bincount(((skey + _KEY_STRIDE) / width).astype(np.int64), minlength=n_buckets)
    before = np.zeros(n_buckets + 1, dtype=np.int64)
    np.cumsum(counts, out=before[1:])
    return width, before


def _windows(index: XIndex, pkey: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """For each prediction's key, the range ``[lo, hi)`` of sorted object keys to measure: at
    least every key within the reach (and its rounding margin). With buckets
    (:func:`_buckets`) the window's ends are two look-ups, no ``searchsorted`` over all
    objects: the window is then the buckets that overlap ``[key − margin, key + margin]``, a
    little wider than it (the distance test drops the extra pairs)."""
    margin = _margin(reach)
    buckets = index.buckets if reach == index.reach else _buckets(index.key, margin)
    if buckets is None:
        return (np.searchsorted(index.key, pkey - margin, side="left"),
                np.searchsorted(index.key, pkey + margin, side="right"))
    width, before = buckets
    last = len(before) - 1
    lo = np.clip(((pkey - margin + _KEY_STRIDE) / width).astype(np.int64), 0, last)
    hi = np.clip(((pkey + margin + _KEY_STRIDE) / width).astype(np.int64) + 1, 0, last)
    return before[lo], before[hi]


def candidate_pairs(pred_xy: np.ndarray, pred_frame: np.ndarray, gt_xy: np.ndarray, gt_frame: np.ndarray,
                    max_d: float = MAX_TAU, index: XIndex | None = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (prediction, object) of one frame at most ``max_d`` apart, sorted by distance
    (ties by prediction, then by the objects' ``frame · 1000 + x`` order).

    Objects are looked up by ``frame · 1000 + x`` in a sorted key (a window of ±max_d in x
    for every prediction at once: :func:`_windows`), so only nearby pairs are ever measured;
    ``index`` is the objects' :func:`x_index` when already built. ``max_d`` is at most
    :data:`MAX_REACH` (ValueError).

    >>> p, g, d = candidate_pairs(np.array([[0., 0.], [100., 0.]]), np.array([0, 0]),
    ...                           np.array([[3., 4.], [0., 0.]]), np.array([0, 1]))
    >>> p.tolist(), g.tolist(), d.tolist()
    ([0], [0], [5.0])
    """
    if not 0 <= max_d <= MAX_REACH:
        raise ValueError(f"expected max_d between 0 and {MAX_REACH:g}, got {max_d!r}")
    index = index if index is not None else x_index(gt_xy, gt_frame, max_d)
    if not len(pred_xy) or not len(index.key):
        e = np.zeros(0, dtype=np.int32)
        return e, e, np.zeros(0)
    px, py = np.ascontiguousarray(pred_xy[:, 0]), np.ascontiguousarray(pred_xy[:, 1])
    pkey = pred_frame * _KEY_STRIDE + px
    lo, hi = _windows(index, pkey, max_d)
    k = compiled() if len(pkey) >= COMPILED_MIN_POINTS else None
    if k is not None:  # the same pairs, measured in one compiled pass (see .kernels)
        p, pos, d = k.window_pairs(px, py, lo, hi, index.x, index.y, float(max_d))
        g = index.order[pos]
        s = stable_argsort(d)
        return p[s], g[s].astype(np.int32), d[s]
    n = hi - lo
    total = int(n.sum())
    # each candidate's prediction and position in the sorted objects: runs of consecutive
    # positions, so the objects' coordinates (kept in that order) are read nearly in sequence
    pos = np.repeat(lo - np.concatenate(([0], np.cumsum(n)[:-1])), n) + np.arange(total)
    dx = np.repeat(px, n) - index.x[pos]
    dy = np.repeat(py, n) - index.y[pos]
    # the squared distance first (a few times cheaper than ``hypot``), with a margin far above
    # its rounding, so that ``hypot`` — the distance every rule compares — runs on the few
    # pairs that can be within ``max_d``; then the pairs are taken by position (cheaper than
    # three boolean masks)
    near = np.flatnonzero(dx * dx + dy * dy <= max_d * max_d * (1 + 1e-9) + 1e-300)
    pos = pos[near]
    p = np.repeat(np.arange(len(pkey), dtype=np.int32 if len(pkey) < 2**31 else np.int64), n)[near]
    d = np.hypot(dx[near], dy[near])
    within = np.flatnonzero(d <= max_d)
    p, g, d = p[within], index.order[pos[within]], d[within]
    s = stable_argsort(d)
    return p[s].astype(np.int32), g[s].astype(np.int32), d[s]


#: arrays at least this long put their ties in order by ``lexsort`` (run · n + position would overflow)
_ONE_KEY_LIMIT = 1 << 31


def stable_argsort(x: np.ndarray) -> np.ndarray:
    """``np.argsort(x, kind="stable")`` of a float array without NaN, by numpy's default
    (SIMD) sort — several times faster — with only the runs of equal values put back in
    position order.

    >>> stable_argsort(np.array([2.0, 1.0, 2.0, 1.0, 0.5, 2.0])).tolist()
    [4, 1, 3, 0, 2, 5]
    """
    s = np.argsort(x)
    v = x[s]
    tie = v[1:] == v[:-1]
    if tie.any():
        m = np.zeros(len(s), dtype=bool)
        m[1:] |= tie
        m[:-1] |= tie  # every member of a run of equal values; runs stay where they are
        at = np.flatnonzero(m)
        if len(s) >= _ONE_KEY_LIMIT:  # the key below would pass 64 bits
            s[at] = s[at][np.lexsort((s[at], v[at]))]
            return s
        # each member's run (numbered in order) and position as one integer key: one plain
        # sort puts every run's positions in order and leaves the runs where they are
        run = np.cumsum(np.r_[True, ~tie[at[:-1]]]).astype(np.int64)
        key = np.sort(run * len(s) + s[at])
        s[at] = key - run * len(s)
    return s


def prepare_submission(name: str, src, display: str, gt: GroundTruth) -> Submission:
    """Read, validate and align one submission, find its candidate pairs and settle them."""
    frames = read_frames(src, display)
    align(frames, gt, display)
    point_frame = np.repeat(np.arange(frames.n_frames), frames.counts)
    p, g, d = candidate_pairs(frames.xy, point_frame, gt.frames.xy, gt.point_frame, index=gt.x_index)
    return Submission(name, display, frames.xy, frames.start, point_frame, p, g, d,
                      settling(p, g, len(point_frame), gt.n_points))


def _prepare_task(gt: GroundTruth, item: tuple) -> Submission:
    """One submission of :func:`load_competition` (a task of :func:`~..core.fanout.fan_out`)."""
    name, src, display = item
    return prepare_submission(name, src, display, gt)


def _file_bytes(src) -> int | None:
    """The size of a source a worker process can be handed (a path or bytes), else None."""
    if isinstance(src, (str, Path)):
        try:
            return Path(src).stat().st_size
        except OSError:
            return 0  # the worker reports the missing file, as this process would
    if isinstance(src, (bytes, bytearray)):
        return len(src)
    return None


def load_competition(ground_truth, submissions, *, progress: Callable[[int, int, str], None] | None = None,
                     workers: int | None = None) -> Competition:
    """Load and validate a competition (spec §1); nothing is half-loaded.

    ``ground_truth``: a path, bytes, a file-like or a parsed list; ``submissions``: JSON
    files and/or folders (every ``*.json`` inside), or ``{name: source}``; the submission's
    name is its file stem. ``progress(done, total, name)`` is called as submissions load.

    ``workers``: processes reading submissions at once (:func:`~..core.fanout.fan_out`;
    default: every core, ``LAB_WORKERS``); 1 loads in this process. Files and bytes go to
    the worker processes when they hold ``LAB_POOL_MIN_BYTES`` (32 MiB) in all; parsed lists
    and open files always load in this process (a worker cannot be handed them cheaply, and
    threads would mostly wait for each other: their checks are Python code). The first bad
    submission (in order) raises, as when they are read one after the other.
    """
    report: list[str] = []
    gt = load_ground_truth(ground_truth, report=report)
    items = expand_submissions(submissions, suffix=".json")
    if not items:
        raise InputError("submissions", None, "no submission given")
    sizes = [_file_bytes(src) for _, src, _ in items]
    if None in sizes or (workers is None and sum(sizes) < POOL_MIN_BYTES):
        workers = 1
    if workers != 1:
        _ = gt.x_index  # built here once, and handed to the workers with the ground truth
    subs = list(fan_out(_prepare_task, items, shared=gt, progress=progress, names=[n for n, _, _ in items],
                        workers=workers, readahead=path_of))
    return Competition(gt, subs, report)
