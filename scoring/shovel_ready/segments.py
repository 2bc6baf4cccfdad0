"""Segments as runs of word indices, overlap removal and overlapping pairs (vectorised).

A segment is a *set* of word indices. It is stored as its maximal runs of consecutive
indices (most Feedback Prize segments are one run), so intersections cost O(runs), not
O(words). Every table of segments is a :class:`Segs`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

MAX_WORD = 10**9  # word indices must stay below this (they are stored as int64 keys)


@dataclass
class Segs:
    """A table of segments.

    Per segment (length n): ``essay`` (int code), ``cls`` (int code), ``row`` (0-based data
    row of the file), ``size`` (number of words), ``wmin``/``wmax`` (smallest/largest word).
    Runs (length r), sorted by (segment, start): ``run_seg``, ``run_lo``, ``run_hi``
    (inclusive). ``multi`` is True when some segment has more than one run.
    """

    essay: np.ndarray
    cls: np.ndarray
    row: np.ndarray
    size: np.ndarray
    wmin: np.ndarray
    wmax: np.ndarray
    run_seg: np.ndarray
    run_lo: np.ndarray
    run_hi: np.ndarray

    @property
    def n(self) -> int:
        return len(self.size)

    @property
    def multi(self) -> bool:
        return len(self.run_seg) != len(self.size)

    def take(self, idx: np.ndarray) -> Segs:
        """The segments at positions ``idx`` (ascending), with their runs."""
        idx = np.asarray(idx, dtype=np.int64)
        keep = np.zeros(self.n, dtype=bool)
        keep[idx] = True
        rkeep = keep[self.run_seg]
        newid = np.cumsum(keep) - 1
        return Segs(self.essay[idx], self.cls[idx], self.row[idx], self.size[idx], self.wmin[idx],
                    self.wmax[idx], newid[self.run_seg[rkeep]].astype(np.int64),
                    self.run_lo[rkeep], self.run_hi[rkeep])

    def words(self, i: int) -> list[int]:
        """The sorted word indices of segment ``i`` (for display and small examples)."""
        lo, hi = np.searchsorted(self.run_seg, [i, i + 1])
        out: list[int] = []
        for a, b in zip(self.run_lo[lo:hi], self.run_hi[lo:hi], strict=True):
            out.extend(range(int(a), int(b) + 1))
        return out

    def strings(self) -> list[str]:
        """Canonical predictionstrings (sorted unique indices joined by single spaces)."""
        if self.n == 0:
            return []
        top = int(self.run_hi.max()) + 2
        if top < _RANGE_CAP:  # every run is a slice of one line of numbers
            line, offs = _number_line(1 << max(10, top.bit_length()))
            text = line.decode("ascii")
            starts, ends = offs[self.run_lo].tolist(), (offs[self.run_hi + 1] - 1).tolist()
            runs = [text[a:b] for a, b in zip(starts, ends, strict=True)]
        else:
            runs = [" ".join(map(str, range(a, b + 1))) for a, b in zip(self.run_lo.tolist(), self.run_hi.tolist(),
                                                                        strict=True)]
        if not self.multi:
            return runs
        parts: list[list[str]] = [[] for _ in range(self.n)]
        for seg, r in zip(self.run_seg.tolist(), runs, strict=True):
            parts[seg].append(r)
        return [" ".join(p) for p in parts]


_RANGE_CAP = 1 << 20  # canonical-range fast path for word indices below this


@lru_cache(maxsize=4)
def _number_line(k: int) -> tuple[bytes, np.ndarray]:
    """``b"0 1 2 ... k-1 "`` and the offset of each number in it."""
    digits = np.ones(k, dtype=np.int64)
    for p in range(1, 8):
        digits += np.arange(k) >= 10**p
    offs = np.concatenate(([0], np.cumsum(digits + 1)))
    return (" ".join(map(str, range(k))) + " ").encode("ascii"), offs


def build_segs(values: np.ndarray, counts: np.ndarray, essay: np.ndarray, cls: np.ndarray,
               row: np.ndarray) -> Segs:
    """Canonicalise parsed word lists (sort, drop duplicates) and cut them into runs."""
    n = len(counts)
    if n == 0:
        z = np.zeros(0, np.int64)
        return Segs(z, z, z, z, z, z, z, z, z)
    v = values
    ends_excl = np.cumsum(counts)
    last = ends_excl - 1  # position of each segment's last token
    if len(v) > 1:
        step = np.diff(v)
        step[last[:-1]] = 1  # segment boundaries never count as disorder
        if (step <= 0).any():  # unsorted or duplicated somewhere: canonicalise
            seg = np.repeat(np.arange(n, dtype=np.int64), counts)
            order = np.lexsort((v, seg))
            v, seg = v[order], seg[order]
            keep = np.concatenate(([True], (seg[1:] != seg[:-1]) | (v[1:] != v[:-1])))
            v, seg = v[keep], seg[keep]
            counts = np.bincount(seg, minlength=n).astype(np.int64)
            ends_excl = np.cumsum(counts)
            last = ends_excl - 1
            step = np.diff(v)
            step[last[:-1]] = 0
        else:
            step[last[:-1]] = 0
        brk = np.concatenate(([True], step != 1))
    else:
        brk = np.ones(len(v), dtype=bool)
    starts = np.flatnonzero(brk)
    run_seg = np.searchsorted(ends_excl, starts, side="right")
    run_end = np.concatenate((starts[1:], [len(v)])) - 1
    first = ends_excl - counts
    return Segs(np.asarray(essay, np.int64), np.asarray(cls, np.int64), np.asarray(row, np.int64),
                counts.astype(np.int64), v[first].astype(np.int64), v[last].astype(np.int64),
                run_seg.astype(np.int64), v[starts].astype(np.int64), v[run_end].astype(np.int64))


def segs_from_sets(sets, essay=None, cls=None, row=None) -> Segs:
    """A :class:`Segs` from Python iterables of word indices (small inputs, examples)."""
    lists = [sorted(set(int(x) for x in s)) for s in sets]
    n = len(lists)
    counts = np.array([len(s) for s in lists], dtype=np.int64)
    values = np.array([x for s in lists for x in s], dtype=np.int64)
    z = np.zeros(n, dtype=np.int64)
    return build_segs(values, counts, z if essay is None else essay, z if cls is None else cls,
                      np.arange(n) if row is None else row)


def remove_overlaps(segs: Segs) -> tuple[Segs, np.ndarray]:
    """SPEC §2 overlap removal, per essay across all classes.

    Returns the kept segments (possibly trimmed, in the input's order) and the positions of
    the kept segments in the input. Segments are visited by (smallest word, file row); a
    segment that loses words survives only as a contiguous remainder of at least 2 words.
    """
    n = segs.n
    if n == 0:
        return segs, np.zeros(0, np.int64)
    if segs.essay.max() < 1 << 22 and segs.wmin.max() < 1 << 20 and segs.row.max() < 1 << 21:
        order = np.argsort((segs.essay << 41) + (segs.wmin << 21) + segs.row)  # keys unique: no ties
    else:
        order = np.lexsort((segs.row, segs.wmin, segs.essay))
    ess = segs.essay[order]
    lo = segs.wmin[order]
    hi = segs.wmax[order]
    single = np.bincount(segs.run_seg, minlength=n)[order] == 1
    # essays containing a multi-run segment take the general (set-based) path
    multi_essays = np.unique(ess[~single]) if not single.all() else np.zeros(0, np.int64)
    slow = np.isin(ess, multi_essays) if len(multi_essays) else np.zeros(n, dtype=bool)

    new_lo = lo.copy()
    keep = np.ones(n, dtype=bool)
    fast = ~slow
    if fast.any():
        f_idx = np.flatnonzero(fast)
        fe, flo, fhi = ess[f_idx], lo[f_idx], hi[f_idx]
        big = np.int64(MAX_WORD) * 4
        key = fe * big + fhi
        cm = np.maximum.accumulate(key)
        prev = np.empty_like(cm)
        prev[0] = -1
        prev[1:] = cm[:-1]
        prev_end = np.where(prev >= fe * big, prev - fe * big, -1)  # max end of earlier segments
        touched = prev_end >= flo
        rem_lo = np.maximum(flo, prev_end + 1)
        rem_size = fhi - rem_lo + 1
        k = ~touched | (rem_size >= 2)
        keep[f_idx] = k
        new_lo[f_idx] = np.where(touched, rem_lo, flo)
    trimmed_runs: dict[int, list[tuple[int, int]]] = {}
    if slow.any():
        s_idx = np.flatnonzero(slow)
        used: set[int] = set()
        cur = None
        for j in s_idx.tolist():
            if ess[j] != cur:
                cur, used = ess[j], set()
            S = set(segs.words(int(order[j])))
            R = S - used
            if R != S:
                if len(R) >= 2 and max(R) - min(R) + 1 == len(R):
                    trimmed_runs[j] = [(min(R), max(R))]
                else:
                    keep[j] = False
            used |= S
    # rebuild in input order
    kept_sorted = np.flatnonzero(keep)
    kept_input = np.sort(order[kept_sorted])
    pos_in_sorted = np.empty(n, dtype=np.int64)
    pos_in_sorted[order] = np.arange(n)
    out = segs.take(kept_input)
    # apply trims: fast path (single run, new start) and slow path (explicit runs)
    ps = pos_in_sorted[kept_input]
    changed_fast = (~slow[ps]) & (new_lo[ps] != lo[ps])
    if changed_fast.any() or trimmed_runs:
        run_lo = out.run_lo.copy()
        run_hi = out.run_hi.copy()
        run_seg = out.run_seg
        size = out.size.copy()
        wmin = out.wmin.copy()
        wmax = out.wmax.copy()
        if changed_fast.any():
            ci = np.flatnonzero(changed_fast)
            # single-run segments: run index == first run of the segment
            first_run = np.searchsorted(run_seg, ci)
            run_lo[first_run] = new_lo[ps[ci]]
            size[ci] = run_hi[first_run] - run_lo[first_run] + 1
            wmin[ci] = run_lo[first_run]
        if trimmed_runs:
            rs, rl, rh = [run_seg], [run_lo], [run_hi]
            drop = np.zeros(len(run_seg), dtype=bool)
            for j, runs in trimmed_runs.items():
                i = int(np.searchsorted(kept_input, order[j]))
                a, b = np.searchsorted(run_seg, [i, i + 1])
                drop[a:b] = True
                for r0, r1 in runs:
                    rs.append(np.array([i])), rl.append(np.array([r0])), rh.append(np.array([r1]))
                size[i] = sum(r1 - r0 + 1 for r0, r1 in runs)
                wmin[i] = runs[0][0]
                wmax[i] = runs[-1][1]
            keep_r = np.concatenate((~drop, np.ones(len(rs) - 1, dtype=bool)))
            run_seg = np.concatenate(rs)[keep_r]
            run_lo = np.concatenate(rl)[keep_r]
            run_hi = np.concatenate(rh)[keep_r]
            o = np.lexsort((run_lo, run_seg))
            run_seg, run_lo, run_hi = run_seg[o], run_lo[o], run_hi[o]
        out = Segs(out.essay, out.cls, out.row, size, wmin, wmax, run_seg, run_lo, run_hi)
    return out, kept_input


@dataclass
class RunIndex:
    """Ground-truth runs sorted by (essay·class cell, start), for interval look-ups."""

    key: np.ndarray  # cell·W + start, ascending
    end: np.ndarray  # running maximum of cell·W + end
    lo: np.ndarray
    hi: np.ndarray
    seg: np.ndarray
    n_classes: int


_W = np.int64(MAX_WORD) + 2


def run_index(gt: Segs, n_classes: int) -> RunIndex:
    g_cls = gt.cls[gt.run_seg]
    g_cell = gt.essay[gt.run_seg] * n_classes + g_cls
    order = np.lexsort((gt.run_lo, g_cell))
    order = order[g_cls[order] < n_classes]
    gc = g_cell[order]
    lo, hi = gt.run_lo[order], gt.run_hi[order]
    return RunIndex(gc * _W + lo, np.maximum.accumulate(gc * _W + hi) if len(gc) else gc, lo, hi,
                    gt.run_seg[order], n_classes)


def overlapping_pairs(pred: Segs, gt: Segs, n_classes: int, index: RunIndex | None = None
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All (prediction, ground truth) pairs of one essay and one class that share words.

    Returns ``(p, g, inter)``: segment positions and the intersection sizes, ordered by
    ``p``. Classes with code >= ``n_classes`` never pair. ``index`` (from
    :func:`run_index`) saves re-sorting the ground truth for every submission.
    """
    empty = (np.zeros(0, np.int64),) * 3
    if pred.n == 0 or gt.n == 0:
        return empty
    ix = index if index is not None and index.n_classes == n_classes else run_index(gt, n_classes)
    p_cls = pred.cls[pred.run_seg]
    pr = np.flatnonzero(p_cls < n_classes)
    p_cell = pred.essay[pred.run_seg[pr]] * n_classes + p_cls[pr]
    plo, phi = pred.run_lo[pr], pred.run_hi[pr]
    hi_idx = np.searchsorted(ix.key, p_cell * _W + phi, side="right")
    lo_idx = np.searchsorted(ix.end, p_cell * _W + plo, side="left")
    cnt = np.maximum(hi_idx - lo_idx, 0)
    total = int(cnt.sum())
    if total == 0:
        return empty
    rep = np.repeat(np.arange(len(pr)), cnt)
    gi = np.repeat(lo_idx - np.concatenate(([0], np.cumsum(cnt)[:-1])), cnt) + np.arange(total)
    ov = np.minimum(phi[rep], ix.hi[gi]) - np.maximum(plo[rep], ix.lo[gi]) + 1
    ok = ov > 0
    p = pred.run_seg[pr[rep[ok]]]
    g = ix.seg[gi[ok]]
    inter = ov[ok]
    if pred.multi or gt.multi:
        key = p * np.int64(gt.n) + g
        uk, inv = np.unique(key, return_inverse=True)
        inter = np.bincount(inv, weights=inter).astype(np.int64)
        p, g = uk // gt.n, uk % gt.n
    return p, g, inter
