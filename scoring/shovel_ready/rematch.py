"""The costly levels of the leaderboard, one submission at a time: matching (a threshold or
quality change) and the per-group sums (an attribute or overlap-removal change).

Each submission's tables are read back from the competition's :class:`TableStore`, matched
and summed, and only small results stay: a packed bit mask of its matched pairs and its sums
per (group, class). The arithmetic is the same, pair for pair and in the same order, as
one matching of all submissions at once (pairs of two submissions never compete), so the
results are identical. With the tables on disk and many submissions the passes run in the
process pool (:func:`scoring.core.fanout.fan_out`), each worker memory-mapping its files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core.fanout import default_workers, fan_out
from .matching import match, overlaps, quality_values, selection_key
from .tablestore import SubTables, read_file

#: a re-match of at least this many submissions, with tables on disk, runs in the process pool
POOL_MIN_SUBMISSIONS = 32


@dataclass
class GtArrays:
    """The ground-truth columns matching needs: size, smallest word and file row per segment."""

    size: np.ndarray
    wmin: np.ndarray
    row: np.ndarray

    @property
    def n(self) -> int:
        return len(self.size)


@dataclass
class Job:
    """One pass over the submissions: match at (threshold, order) unless a mask is given; sum
    matched pairs per (group, class) when ``quality`` is set; count predictions when ``want_np``."""

    gt: GtArrays
    removal: bool
    threshold: float
    order_key: str
    quality: str | None
    gcode: np.ndarray  # group of each essay
    G: int
    C: int
    want_np: bool


@dataclass
class SubResult:
    mask: np.ndarray  # packed bits: which pairs are matched
    sums: np.ndarray | None  # (3, G·C): matched, Σquality, Σprobability
    np_: np.ndarray | None  # (G·C,): predictions


def matched_pairs(T: SubTables, gt: GtArrays, threshold: float, order_key: str) -> np.ndarray:
    """Positions (ascending) of the matched pairs of one submission (SPEC §3)."""
    o_p, o_g, iou = overlaps(T.inter, T.size[T.p], gt.size[T.g])
    key = selection_key(order_key, o_p, o_g, iou)

    def tiebreak(c):
        pc, gc = T.p[c], T.g[c]
        return gt.wmin[gc], T.wmin[pc], T.row[pc], gt.row[gc]

    return match(T.p, T.g, o_p, o_g, key, threshold, tiebreak, T.n, gt.n)


def pack_mask(positions: np.ndarray, n: int) -> np.ndarray:
    mask = np.zeros(n, dtype=bool)
    mask[positions] = True
    return np.packbits(mask)


def unpack_mask(packed: np.ndarray, n: int) -> np.ndarray:
    """Positions of the set bits of a packed mask of ``n`` pairs."""
    return np.flatnonzero(np.unpackbits(packed, count=n))


def sums_of(T: SubTables, m: np.ndarray, quality: str, gcode: np.ndarray, G: int, C: int,
            gsize: np.ndarray) -> np.ndarray:
    """(3, G·C): matched pairs, Σquality and Σprobability of the matched pairs ``m``."""
    pm = T.p[m]
    idx = gcode[T.essay[pm]] * C + T.cls[pm]
    q = quality_values(quality, *overlaps(T.inter[m], T.size[pm], gsize[T.g[m]]))
    out = np.empty((3, G * C))
    out[0] = np.bincount(idx, minlength=G * C)
    out[1] = np.bincount(idx, weights=q, minlength=G * C)
    out[2] = np.bincount(idx, weights=T.d[m], minlength=G * C)
    return out


def np_of(T: SubTables, gcode: np.ndarray, G: int, C: int) -> np.ndarray:
    """(G·C,): predictions of known classes per (group, class)."""
    k = T.cls < C
    return np.bincount(gcode[T.essay[k]] * C + T.cls[k], minlength=G * C).astype(float)


def run_one(job: Job, T: SubTables, packed: np.ndarray | None) -> SubResult:
    if packed is None:
        m = matched_pairs(T, job.gt, job.threshold, job.order_key)
        packed = pack_mask(m, T.n_pairs)
    elif job.quality is not None:
        m = unpack_mask(packed, T.n_pairs)
    sums = sums_of(T, m, job.quality, job.gcode, job.G, job.C, job.gt.size) if job.quality is not None else None
    return SubResult(packed, sums, np_of(T, job.gcode, job.G, job.C) if job.want_np else None)


def _task(job: Job, item: tuple) -> SubResult:
    """Pool task: ``item = (file, layout, dtypes, packed mask or None)``."""
    path, layout, dtypes, packed = item
    return run_one(job, read_file(path, layout, dtypes, job.removal), packed)


def run(comp, job: Job, masks: list | None, progress: Callable[[int, int, str], None] | None = None,
        workers: int | None = None) -> list[SubResult]:
    """``job`` over every submission of ``comp`` (``masks``: the packed matches, if known)."""
    S = len(comp.prepared)
    names = comp.submission_names
    workers = default_workers() if workers is None else workers
    store = comp.store
    if store.where == "disk" and S >= POOL_MIN_SUBMISSIONS and workers > 1:
        items = [(store.file_of(k), *store.layout_of(k), None if masks is None else masks[k]) for k in range(S)]
        chunk = max(1, min(16, S // (8 * workers)))  # a few ms per file: several files per round trip
        return list(fan_out(_task, items, shared=job, progress=progress, names=names, workers=workers, chunk=chunk))

    def one(_, k):
        return run_one(job, comp.tables(k, job.removal), None if masks is None else masks[k])

    return list(fan_out(one, range(S), progress=progress, names=names, mode="inline"))
