"""Segments as runs of word indices, overlap removal and overlapping pairs (vectorised).

A segment is a *set* of word indices. It is stored as its maximal runs of consecutive
indices (most Feedback Prize segments are one run), so intersections cost O(runs), not
O(words). Every table of segments is a :class:`Segs`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core.arrays import merge_positions, unique_sorted
from .jit import loaded

MAX_WORD = 10**9  # word indices must stay below this (they are stored as int64 keys)
_W = np.int64(MAX_WORD) + 2  # essay·_W + word: one sortable key


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

    @cached_property
    def run_counts(self) -> np.ndarray:
        """The number of runs of each segment, counted once (a ground truth's serves every
        submission paired with it; the arrays of a ``Segs`` are not changed once it is made)."""
        return np.bincount(self.run_seg, minlength=self.n)

    def take(self, idx: np.ndarray) -> Segs:
        """The segments at positions ``idx`` (ascending), with their runs."""
        idx = np.asarray(idx, dtype=np.int64)
        cols = (self.essay[idx], self.cls[idx], self.row[idx], self.size[idx], self.wmin[idx], self.wmax[idx])
        if not self.multi:  # one run a segment, in segment order: the runs are taken like the segments
            return Segs(*cols, np.arange(len(idx), dtype=np.int64), self.run_lo[idx], self.run_hi[idx])
        if 8 * len(idx) < self.n:  # a few segments: their runs by binary search
            first = np.searchsorted(self.run_seg, idx)
            cnt = np.searchsorted(self.run_seg, idx, side="right") - first
            rr = _ranges(first, cnt)
            return Segs(*cols, np.repeat(np.arange(len(idx), dtype=np.int64), cnt), self.run_lo[rr], self.run_hi[rr])
        keep = np.zeros(self.n, dtype=bool)
        keep[idx] = True
        rkeep = np.flatnonzero(keep[self.run_seg])
        newid = np.cumsum(keep) - 1
        return Segs(*cols, newid[self.run_seg[rkeep]].astype(np.int64), self.run_lo[rkeep], self.run_hi[rkeep])

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
        # a segment's runs joined by spaces, all at once (runs are sorted by segment)
        offsets = np.concatenate(([0], np.cumsum(self.run_counts)))
        lists = pa.ListArray.from_arrays(pa.array(offsets, type=pa.int32()), pa.array(runs, type=pa.string()))
        return pc.binary_join(lists, " ").to_pylist()


_RANGE_CAP = 1 << 20  # canonical-range fast path for word indices below this


@lru_cache(maxsize=4)
def _number_line(k: int) -> tuple[bytes, np.ndarray]:
    """``b"0 1 2 ... k-1 "`` and the offset of each number in it."""
    digits = np.ones(k, dtype=np.int64)
    for p in range(1, 8):
        digits += np.arange(k) >= 10**p
    offs = np.concatenate(([0], np.cumsum(digits + 1)))
    return (" ".join(map(str, range(k))) + " ").encode("ascii"), offs


@lru_cache(maxsize=4)
def _line_index(k: int) -> tuple[np.ndarray, np.ndarray]:
    """For :func:`_number_line` ``(k)``: the number starting at each byte (-1 where none
    does, one entry past the end) and the 4 bytes from each byte on as a little-endian int32."""
    line, offs = _number_line(k)
    number_at = np.full(len(line) + 2, -1, dtype=np.int32)
    number_at[offs] = np.arange(len(offs), dtype=np.int32)
    lb = np.concatenate((np.frombuffer(line, dtype=np.uint8), np.zeros(4, np.uint8))).astype(np.uint32)
    prefix = lb[:-3] | (lb[1:-2] << 8) | (lb[2:-1] << 16) | (lb[3:] << 24)
    return number_at, prefix.view(np.int32)


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


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])``, vectorised."""
    total = int(counts.sum())
    offs = np.cumsum(counts) - counts
    return np.repeat(starts - offs, counts) + np.arange(total, dtype=np.int64)


def spans_apart(segs: Segs) -> bool:
    """True when no two segments of one essay have spans ``wmin..wmax`` that meet, so none
    share a word: a ground truth in reading order passes in one pass, without pairing. False
    says only that two spans meet (their words may still be apart: holes)."""
    if segs.n < 2:
        return True
    big = np.int64(MAX_WORD) * 4
    lo, hi = segs.essay * big + segs.wmin, segs.essay * big + segs.wmax
    if (lo[1:] < lo[:-1]).any():  # not in reading order: visit it so
        o = np.argsort(lo, kind="stable")
        lo, hi = lo[o], hi[o]
    # visited by start, spans that meet make some neighbours meet (the next start lies between)
    return not (lo[1:] <= hi[:-1]).any()


def _removal_contiguous(ess, lo, hi):
    """§2 for single-run segments, visited in order: a segment keeps what lies past the
    furthest end of the earlier segments of its essay.

    Returns ``(keep, touched, new_lo, prev_end)``; ``prev_end`` is that furthest end (-1 for
    an essay's first segment)."""
    big = np.int64(MAX_WORD) * 4
    cm = np.maximum.accumulate(ess * big + hi)
    prev = np.concatenate(([-1], cm[:-1]))
    prev_end = np.where(prev >= ess * big, prev - ess * big, -1)  # max end of earlier segments
    touched = prev_end >= lo
    rem_lo = np.maximum(lo, prev_end + 1)
    return ~touched | (hi - rem_lo + 1 >= 2), touched, np.where(touched, rem_lo, lo), prev_end


def _removal_runs(segs: Segs, seg: np.ndarray, ess: np.ndarray):
    """§2 for any segments (``seg``: segment ids in visiting order, ``ess`` their essays) as
    interval arithmetic over their runs.

    The runs' end points cut each essay into elementary intervals; a word is new to a
    segment when no earlier segment covers its elementary interval, i.e. when the segment is
    the first (in visiting order) to cover it. Returns ``(keep, touched, new_lo, new_hi)``
    per visited segment; a touched, kept segment is the single run ``new_lo..new_hi``.
    """
    q = len(seg)
    per_seg = segs.run_counts
    nruns = per_seg[seg]
    first_run = (np.cumsum(per_seg) - per_seg)[seg]  # a segment's runs sit together, in segment order
    rr = _ranges(first_run, nruns)
    run_q = np.repeat(np.arange(q, dtype=np.int64), nruns)  # visiting position of each run's segment
    base = ess[run_q] * _W
    a, b = base + segs.run_lo[rr], base + segs.run_hi[rr] + 1
    cuts = unique_sorted(np.concatenate((a, b)))
    si = np.searchsorted(cuts, a)
    cnt = np.searchsorted(cuts, b) - si  # elementary intervals [cuts[k], cuts[k + 1]) of each run
    inc = _ranges(si, cnt)
    inc_q = np.repeat(run_q, cnt)
    first = np.full(len(cuts), q, dtype=np.int64)
    np.minimum.at(first, inc, inc_q)  # the first visitor of each elementary interval
    own = first[inc] == inc_q
    length = cuts[inc + 1] - cuts[inc]
    new_words = np.bincount(inc_q[own], weights=length[own], minlength=q).astype(np.int64)
    touched = new_words < segs.size[seg]
    inc_run = np.repeat(np.arange(len(rr)), cnt)
    prev_same = np.concatenate(([False], own[:-1] & (inc_run[1:] == inc_run[:-1])))
    pieces = np.bincount(inc_q[own & ~prev_same], minlength=q)  # maximal runs of new words
    keep = ~touched | ((pieces == 1) & (new_words >= 2))
    new_lo, new_hi = np.zeros(q, np.int64), np.zeros(q, np.int64)
    oi = np.flatnonzero(own)
    if len(oi):
        oq = inc_q[oi]  # ascending: runs are visited segment by segment, word by word
        head = np.concatenate(([True], oq[1:] != oq[:-1]))
        tail = np.concatenate((oq[1:] != oq[:-1], [True]))
        new_lo[oq[head]] = cuts[inc[oi[head]]] - ess[oq[head]] * _W
        new_hi[oq[tail]] = cuts[inc[oi[tail]] + 1] - 1 - ess[oq[tail]] * _W
    return keep, touched, new_lo, new_hi


def remove_overlaps(segs: Segs, *, runs_only: bool = False) -> tuple[Segs, np.ndarray]:
    """SPEC §2 overlap removal, per essay across all classes (vectorised, no per-segment Python).

    Returns the kept segments (possibly trimmed, in the input's order) and the positions of
    the kept segments in the input. Segments are visited by (smallest word, file row); a
    segment that loses words survives only as a contiguous remainder of at least 2 words.

    In visiting order, a segment whose smallest word lies past the end of every earlier
    segment of its essay starts a new *cluster*; removal never reaches across clusters.
    Clusters of single-run segments take a running maximum of ends; a cluster of two or more
    segments, one of them non-contiguous, takes interval arithmetic over runs (``runs_only``
    sends every segment that way, for tests).
    """
    n = segs.n
    if n == 0:
        return segs, np.zeros(0, np.int64)
    if segs.essay.max() < 1 << 22 and segs.wmin.max() < 1 << 20 and segs.row.max() < 1 << 21:
        key = (segs.essay << 41) + (segs.wmin << 21) + segs.row  # unique: no ties
        # a file in reading order is sorted already (a check costs a tenth of the sort)
        order = np.arange(n) if bool((key[1:] > key[:-1]).all()) else np.argsort(key)
    else:
        order = np.lexsort((segs.row, segs.wmin, segs.essay))
    ess = segs.essay[order]
    lo, hi = segs.wmin[order], segs.wmax[order]
    keep, touched, new_lo, prev_end = _removal_contiguous(ess, lo, hi)
    new_hi = hi
    if runs_only:
        general = np.ones(n, dtype=bool)
    elif segs.multi:
        cluster = np.cumsum(prev_end < lo) - 1
        holed = np.zeros(int(cluster[-1]) + 1, dtype=bool)
        holed[cluster[segs.run_counts[order] > 1]] = True  # clusters with a non-contiguous segment
        general = holed[cluster] & (np.bincount(cluster)[cluster] > 1)  # (alone, a segment is untouched)
    else:
        general = None
    if general is not None and general.any():
        g = np.flatnonzero(general)
        new_hi = hi.copy()
        keep[g], touched[g], new_lo[g], new_hi[g] = _removal_runs(segs, order[g], ess[g])
    # rebuild in input order; a touched segment that is kept becomes one run
    pos_in_sorted = np.empty(n, dtype=np.int64)
    pos_in_sorted[order] = np.arange(n)
    kept_input = np.flatnonzero(keep[pos_in_sorted])
    out = segs.take(kept_input)
    ps = pos_in_sorted[kept_input]
    trim = np.flatnonzero(touched[ps])
    if len(trim):
        t_lo, t_hi = new_lo[ps[trim]], new_hi[ps[trim]]
        size, wmin, wmax = out.size.copy(), out.wmin.copy(), out.wmax.copy()
        size[trim], wmin[trim], wmax[trim] = t_hi - t_lo + 1, t_lo, t_hi
        keep_r = np.flatnonzero(~touched[ps][out.run_seg])
        run_seg = np.concatenate((out.run_seg[keep_r], trim))
        o = np.argsort(run_seg, kind="stable")  # a segment's runs stay in word order
        out = Segs(out.essay, out.cls, out.row, size, wmin, wmax, run_seg[o],
                   np.concatenate((out.run_lo[keep_r], t_lo))[o], np.concatenate((out.run_hi[keep_r], t_hi))[o])
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
    cell_start: np.ndarray | None = None  # runs of cell c: positions cell_start[c] to cell_start[c + 1]



def run_index(gt: Segs, n_classes: int) -> RunIndex:
    g_cls = gt.cls[gt.run_seg]
    g_cell = gt.essay[gt.run_seg] * n_classes + g_cls
    if len(g_cell) and int(g_cell.max()) < (1 << 62) // _W:  # one int64 key (stable: as a lexsort)
        order = np.argsort(g_cell * _W + gt.run_lo, kind="stable")
    else:
        order = np.lexsort((gt.run_lo, g_cell))
    order = order[g_cls[order] < n_classes]
    gc = g_cell[order]
    lo, hi = gt.run_lo[order], gt.run_hi[order]
    cell_start = np.zeros(int(gc.max()) + 2 if len(gc) else 1, dtype=np.int64)
    if len(gc):
        np.cumsum(np.bincount(gc), out=cell_start[1:])
    return RunIndex(gc * _W + lo, np.maximum.accumulate(gc * _W + hi) if len(gc) else gc, lo, hi,
                    gt.run_seg[order], n_classes, cell_start)


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
    kernels = loaded()
    if kernels is not None and ix.cell_start is not None:  # a process holding the compiled loops
        p, g, inter = kernels.pair_runs(pred.run_seg, pred.essay, pred.cls, pred.run_lo, pred.run_hi,
                                        ix.cell_start, ix.end, ix.lo, ix.hi, ix.seg, n_classes, _W)
    else:
        p, g, inter = _pairs_numpy(pred, ix, n_classes)
    if len(p) == 0:
        return empty  # (one type whichever route found none)
    if pred.multi or gt.multi:
        # a pair of segments can meet in several pairs of runs only when one of them has
        # several runs: only those pairs are summed (sorted by p, then g)
        several = pred.run_counts[p] > 1
        several |= gt.run_counts[g] > 1
        if several.any():
            single, several = np.flatnonzero(~several), np.flatnonzero(several)
            key = p[several] * np.int64(gt.n) + g[several]
            uk, inv = np.unique(key, return_inverse=True)
            m_inter = np.bincount(inv.ravel(), weights=inter[several]).astype(np.int64)
            p, g, inter = _merge_by_p(p[single], uk // gt.n, g[single], uk % gt.n, inter[single], m_inter)
    return p, g, inter


def _pairs_numpy(pred: Segs, ix: RunIndex, n_classes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs of runs (:func:`overlapping_pairs` before runs of one pair are summed), in
    numpy: :func:`.kernels.pair_runs` gives the same arrays in one compiled loop."""
    p_cls = pred.cls[pred.run_seg]
    pr = np.flatnonzero(p_cls < n_classes)
    p_cell = pred.essay[pred.run_seg[pr]] * n_classes + p_cls[pr]
    plo, phi = pred.run_lo[pr], pred.run_hi[pr]
    lo_idx = cnt = None
    if ix.cell_start is not None:
        # the usual case: few ground-truth runs per (essay, class), so every prediction is
        # tried against all runs of its cell (ruled out below by their overlap) instead of
        # two binary searches; a crowded cell (pairs would pass a few per run) takes the searches
        last = len(ix.cell_start) - 1
        c = np.minimum(p_cell, last)  # cells past the last one (essays only the predictions name) are empty
        lo_idx = ix.cell_start[c]
        cnt = ix.cell_start[np.minimum(c + 1, last)] - lo_idx
        if int(cnt.sum()) > 4 * (len(pr) + len(ix.key)):
            lo_idx = cnt = None
    if cnt is None:
        hi_idx = np.searchsorted(ix.key, p_cell * _W + phi, side="right")
        lo_idx = np.searchsorted(ix.end, p_cell * _W + plo, side="left")
        cnt = np.maximum(hi_idx - lo_idx, 0)
    total = int(cnt.sum())
    if total == 0:
        return (np.zeros(0, np.int64),) * 3
    # every (prediction run, candidate ground-truth run): repeats, not gathers, for the former
    gi = np.repeat(lo_idx - (np.cumsum(cnt) - cnt), cnt) + np.arange(total)
    # the overlap min(hi) - max(lo) + 1, worked out in place; the positions of the candidates
    # that meet are found once and gathered from (a boolean mask per column costs 60 % more)
    ov, lo = ix.hi[gi], ix.lo[gi]
    np.minimum(np.repeat(phi, cnt), ov, out=ov)
    np.maximum(np.repeat(plo, cnt), lo, out=lo)
    ov -= lo
    ov += 1
    ok = np.flatnonzero(ov > 0)
    return np.repeat(pred.run_seg[pr], cnt)[ok], ix.seg[gi[ok]], ov[ok]


def _merge_by_p(pa_, pb, ga, gb, ia, ib):
    """Two lists of pairs, each ordered by prediction, as one list ordered by prediction
    (``b``, the pairs summed over several runs, is the short one)."""
    at_a, at_b = merge_positions(pa_, pb)
    out = []
    for xa, xb in ((pa_, pb), (ga, gb), (ia, ib)):
        col = np.empty(len(pa_) + len(pb), dtype=np.int64)
        col[at_a], col[at_b] = xa, xb
        out.append(col)
    return tuple(out)
