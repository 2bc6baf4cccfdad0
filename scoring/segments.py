"""Segments as runs of word indices, overlap removal and overlapping pairs (vectorised).

A segment is a *set* of word indices. It is stored as its maximal runs of consecutive
indices (most Feedback Prize segments are one run), so intersections cost O(runs), not
O(words). Every table of segments is a :class:`Segs`.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

MAX_WORD = 10**9  # word indices must stay below this (they are stored as int64 keys)
_TOKEN = re.compile(r"[0-9]+")


class TokenError(Exception):
    """A bad predictionstring: `index` is the position of the string in its column."""

    def __init__(self, index: int, problem: str):
        super().__init__(problem)
        self.index = index
        self.problem = problem


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


def _first_bad_token(strings) -> tuple[int, str]:
    for i, s in enumerate(strings):
        for tok in s.split():
            if not _TOKEN.fullmatch(tok):
                if tok.startswith("-") and _TOKEN.fullmatch(tok[1:]):
                    return i, f"negative word index {tok} in predictionstring"
                return i, f"word index {tok[:20]!r} in predictionstring is not a non-negative integer"
            if int(tok) >= MAX_WORD:
                return i, f"word index {tok[:20]} in predictionstring is too large (limit {MAX_WORD})"
    raise AssertionError("no bad token found")  # pragma: no cover - guarded by the caller


def arrow_array(strings):
    """The pyarrow array behind a pandas (arrow-backed) string Series, or None."""
    arr = getattr(getattr(strings, "array", None), "_pa_array", None)
    if arr is None:
        return None
    if isinstance(arr, pa.ChunkedArray):  # one chunk (as read_table leaves them): no copy
        return arr.chunk(0) if arr.num_chunks == 1 else arr.combine_chunks()
    return arr


_RANGE_CAP = 1 << 20  # canonical-range fast path for word indices below this


@lru_cache(maxsize=4)
def _number_line(k: int) -> tuple[bytes, np.ndarray]:
    """``b"0 1 2 ... k-1 "`` and the offset of each number in it."""
    digits = np.ones(k, dtype=np.int64)
    for p in range(1, 8):
        digits += np.arange(k) >= 10**p
    offs = np.concatenate(([0], np.cumsum(digits + 1)))
    return (" ".join(map(str, range(k))) + " ").encode("ascii"), offs


def _edge_token(data: np.ndarray, start: np.ndarray, end: np.ndarray, *, first: bool, width: int = 8) -> np.ndarray:
    """The first (or last) space-delimited token of each string as an int, -1 if not all digits."""
    n = len(start)
    length = end - start
    running = np.ones(n, dtype=bool)  # still inside the leading run of digits
    stop_ok = np.zeros(n, dtype=bool)  # the run ended at a space or at the string's edge
    val = np.zeros(n, dtype=np.int64)
    k = np.zeros(n, dtype=np.int64)
    last = len(data) - 1
    for j in range(width):
        pos = start + j if first else end - 1 - j
        inside = j < length
        byte = data[np.clip(pos, 0, last)]
        d = byte.astype(np.int64) - 48
        isd = inside & (d >= 0) & (d <= 9)
        stop_ok |= running & ~isd & (~inside | (byte == 32))
        running &= isd
        if first:
            val = np.where(running, val * 10 + d, val)
        else:
            val = np.where(running, val + d * 10**j, val)
        k += running
        if not running.any():  # every token has ended: the remaining columns change nothing
            break
    return np.where((k > 0) & stop_ok, val, -1)


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
        a = _edge_token(data, offsets[:-1], offsets[1:], first=True)
        size = offsets[1:] - offsets[:-1]
        ok = (a >= 0) & (a < _RANGE_CAP)
        if not ok.any():
            return none
        # the range a..b whose text is as long as the string: its end is where the line of
        # numbers reaches the string's length (if no number ends exactly there, no range fits)
        k = 1 << max(10, int((a[ok] + size[ok]).max() + 2).bit_length())
        line, offs = _number_line(k)
        aa = np.where(ok, a, 0)
        start = offs[aa]
        stop = start + size + 1
        b = np.searchsorted(offs, stop) - 1
        ok &= (b < len(offs) - 1) & (offs[np.minimum(b + 1, len(offs) - 1)] == stop) & (b >= aa)
        if not ok.any():
            return none
        length = np.where(ok, size, 0)
        # Arrow string_view layout: int32 length, then 12 inline bytes, or a 4-byte prefix,
        # buffer index and offset for longer strings.
        views = np.zeros((n, 16), dtype=np.uint8)
        views[:, :4] = length.astype("<i4").view(np.uint8).reshape(n, 4)
        lb = np.frombuffer(line, dtype=np.uint8)
        inline = length <= 12
        ii = np.flatnonzero(inline)
        cols = np.arange(12)
        take = np.minimum(start[ii, None] + cols, len(lb) - 1)
        views[ii, 4:] = np.where(cols < length[ii, None], lb[take], 0)
        li = np.flatnonzero(~inline)
        views[li, 4:8] = lb[start[li, None] + np.arange(4)]
        views[li, 12:] = start[li].astype("<i4").view(np.uint8).reshape(-1, 4)
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
