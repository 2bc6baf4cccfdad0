"""Compiled loops (numba) for a large submission: reading it in one pass when it is written
the usual way (:func:`scan_rows`), then pairing it with the ground truth (:func:`pair_runs`)
and choosing FP1's matches (:func:`fp1_best`) in a process that holds these loops.

:func:`scan_rows` walks the bytes after the header once and gives every record's text fields
(where they start and end), its probabilities as numbers and whether its predictionstring is
the canonical text of a range ``a a+1 … b`` (and which). The general reader needed the CSV
parser, three passes of checks over the bytes (sizes, record counts, white space at the
ends of cells) and a dozen numpy passes for the ranges. It refuses (status other than 0)
whatever is not the usual layout, and :mod:`.fastscan` then leaves the file to the general
reader, which finds and names any problem; so it never decides that a file is wrong.

Imported on first use by :func:`.jit.compiled` and only for large files
(:data:`.fastscan.COMPILED_MIN_BYTES`); compiled once, then cached beside this file (or in
numba's user-wide cache where this folder is read-only). Where numba is missing (or not yet
loaded) the general reader and the numpy code do the same work
(``tests/shovel_ready/test_fastscan.py`` and ``test_pair_kernels.py`` compare them).
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

# statuses: 0 read; any other, the general reader decides
OK, ODD_BYTE, NOT_A_NUMBER, FIELDS, EMPTY_CELL, SPACE_AT_END, BIG_CELL, BLANK_LINE, MANY_CLASSES, LONG_NUMBERS = \
    range(10)


_ONES = uint64(0x0101010101010101)
_HIGHS = uint64(0x8080808080808080)


@njit(cache=True)
def _load8(a, i):  # pragma: no cover - compiled
    """The 8 bytes ``a[i:i + 8]`` as one little-endian word (the compiler makes it one load)."""
    return (uint64(a[i]) | (uint64(a[i + 1]) << 8) | (uint64(a[i + 2]) << 16) | (uint64(a[i + 3]) << 24)
            | (uint64(a[i + 4]) << 32) | (uint64(a[i + 5]) << 40) | (uint64(a[i + 6]) << 48)
            | (uint64(a[i + 7]) << 56))


@njit(cache=True)
def _store8(a, i, w):  # pragma: no cover - compiled
    for k in range(8):
        a[i + k] = (w >> uint64(8 * k)) & uint64(0xFF)


@njit(cache=True)
def _has_byte(w, b):  # pragma: no cover - compiled
    """Non-zero when some byte of ``w`` is ``b`` (exact as a yes/no; which byte, not)."""
    x = w ^ (_ONES * uint64(b))
    return (x - _ONES) & ~x & _HIGHS


@njit(cache=True)
def _special8(w):  # pragma: no cover - compiled
    """Non-zero when one of the 8 bytes of ``w`` is special: below 32, 127 or above, a comma
    or a quote."""
    below = (w - _ONES * uint64(32)) & ~w & _HIGHS
    return (w & _HIGHS) | below | _has_byte(w, 44) | _has_byte(w, 34) | _has_byte(w, 127)


@njit(cache=True)
def _field_end(data, i, n, special):  # pragma: no cover - compiled
    """The first special byte from ``i`` on (``n``: none), 8 bytes at a time while none is."""
    while i + 8 <= n and _special8(_load8(data, i)) == 0:
        i += 8
    while i < n and not special[data[i]]:
        i += 1
    return i


@njit(cache=True)
def _same(data, s, t, size, n):  # pragma: no cover - compiled
    """True when the ``size`` bytes from ``s`` are those from ``t`` (``t < s``) and a special
    byte (or the end) follows them: the field at ``s`` is the one at ``t`` again."""
    end = s + size
    if end > n or (end < n and data[end] != 44 and data[end] != 10):
        return False
    k = 0
    while k + 8 <= size and _load8(data, s + k) == _load8(data, t + k):
        k += 8
    while k < size and data[s + k] == data[t + k]:
        k += 1
    return k == size


@njit(cache=True, nogil=True)
def count_lines(data):  # pragma: no cover - compiled
    """The line ends in ``data`` (counted from 0: a loop the compiler makes wide)."""
    n = 0
    for i in range(len(data)):
        n += data[i] == 10
    return n


@njit(cache=True, nogil=True)
def scan_rows(data, start, roles, n_prob, special, line, offs, number_at, tens, max_cell, cap, max_classes):  # pragma: no cover
    """The records of ``data[start:]`` (bytes, the header line left out; ``cap``: room for every
    record, :func:`count_lines`).

    ``roles[j]`` is the role of field j: 0, 1, 2 the text columns id, class and
    predictionstring; ``3 + k`` probability column k (a number); -1 a column left out (still
    one field). ``special[c]`` is True for a byte that ends a field or is refused (delimiter,
    line end, quote, control, 127 and non-ASCII); ``line``/``offs``/``number_at`` the line of
    numbers ``"0 1 2 … "``, where each starts and the number starting at each byte (one past
    the end: their count); ``tens[e]`` is 10.0**e, e ≤ 22.

    Returns ``(status, n, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, canon, a, b, probs,
    hard, n_hard)``: each record's id run (a new run where the id is not the record before's)
    and where each run's id is (``run_at[2, :n_runs]``, start and end), each record's class as
    the position among the classes in order of first appearance (at most ``max_classes``) and
    where each is, where each predictionstring is (``ps_at[2, :n]``), the canonical ranges, and
    ``probs[k, :n]``. A number is ``[0-9]+`` or ``[0-9]+.[0-9]+``. With a mantissa of at most
    2**53 and at most 22 decimals, mantissa / 10**decimals is its correctly rounded value (both
    are exact doubles), the one a correctly rounding parser gives; the others (a double written
    with 17 digits, ``0.14100000000000001``) are listed in ``hard[:, :n_hard]`` (record,
    column, start, end) for arrow's parser, the general reader's, to convert (at most two a
    record on average: past that, status ``LONG_NUMBERS``)."""
    n_bytes = len(data)
    nf = len(roles)
    run = np.zeros(cap, np.int64)
    run_at = np.zeros((2, cap), np.int64)
    cls = np.zeros(cap, np.int64)
    cls_at = np.zeros((2, max_classes), np.int64)
    ps_at = np.zeros((2, cap), np.int64)
    canon = np.zeros(cap, np.bool_)
    a_out = np.zeros(cap, np.int64)
    b_out = np.zeros(cap, np.int64)
    probs = np.zeros((n_prob, cap), np.float64)
    # numbers left to arrow (record, column, start, end): room for two a record, past which the
    # general reader reads the file (the room stays proportional to the file, whatever its width)
    hard = np.zeros((4, 2 * cap), np.int64)
    n_hard = 0
    n_runs = 0
    n_cls = 0
    last_cls = 0
    n_line = len(offs) - 1  # numbers in the line
    limit = np.int64(1) << 53
    r = 0
    i = start
    while i < n_bytes:
        if data[i] == 10:
            return BLANK_LINE, r, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, canon, a_out, b_out, probs, hard, n_hard
        for j in range(nf):
            role = roles[j]
            s = i
            if role >= 3:
                mant = np.int64(0)
                long = False  # a mantissa over 2**53 or more than 22 decimals: arrow converts it
                digits = 0
                dot = -1
                while i < n_bytes:
                    c = data[i]
                    if c >= 48 and c <= 57:
                        if not long:
                            mant = mant * 10 + (c - 48)
                            long = mant > limit
                        digits += 1
                    elif c == 46 and dot < 0 and digits > 0:
                        dot = digits
                    else:
                        break
                    i += 1
                if i - s > max_cell:
                    return BIG_CELL, r, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, canon, a_out, b_out, probs, hard, n_hard
                decimals = 0 if dot < 0 else digits - dot
                if digits == 0 or dot == digits:
                    return NOT_A_NUMBER, r, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, canon, a_out, b_out, \
                        probs, hard, n_hard
                if long or decimals > 22:
                    if n_hard == hard.shape[1]:
                        return LONG_NUMBERS, r, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, canon, a_out, b_out, \
                            probs, hard, n_hard
                    hard[0, n_hard] = r
                    hard[1, n_hard] = role - 3
                    hard[2, n_hard] = s
                    hard[3, n_hard] = i
                    n_hard += 1
                else:
                    probs[role - 3, r] = mant / tens[decimals]
            else:
                known = -1  # the id or class of an earlier record again: checked then
                if role == 0 and n_runs > 0:
                    t = run_at[0, n_runs - 1]
                    if _same(data, s, t, run_at[1, n_runs - 1] - t, n_bytes):
                        known = n_runs - 1
                        i = s + run_at[1, n_runs - 1] - t
                elif role == 1 and n_cls > 0:
                    for q in range(n_cls):
                        c = (last_cls + q) % n_cls  # the record before's class first
                        t = cls_at[0, c]
                        if _same(data, s, t, cls_at[1, c] - t, n_bytes):
                            known = c
                            i = s + cls_at[1, c] - t
                            break
                elif role == 2:
                    # the cell against the line of numbers from its first number, 8 bytes at a
                    # time while they agree (a delimiter never does), then byte by byte
                    v = 0
                    k = s
                    while k < n_bytes and k - s < 8 and data[k] >= 48 and data[k] <= 57:
                        v = v * 10 + (data[k] - 48)
                        k += 1
                    if k > s and k - s <= 7 and v < n_line:
                        p = offs[v] - s
                        top = min(n_bytes, len(line) - p)
                        while i + 8 <= top and _load8(data, i) == _load8(line, p + i):
                            i += 8
                        while i < top and data[i] == line[p + i]:
                            i += 1
                        if i < n_bytes and (data[i] == 44 or data[i] == 10) and i < top and line[p + i] == 32:
                            lo = number_at[p + i + 1] - 1  # the number before the one after the space
                            canon[r] = True
                            a_out[r] = v
                            b_out[r] = lo
                if known < 0:
                    i = _field_end(data, i, n_bytes, special)
                    e = i
                    if e == s:
                        return EMPTY_CELL, r, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, canon, a_out, b_out, \
                            probs, hard, n_hard
                    if e - s > max_cell:
                        return BIG_CELL, r, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, canon, a_out, b_out, probs, hard, n_hard
                    if data[s] <= 32 or data[e - 1] <= 32:  # (127 and above are special)
                        return SPACE_AT_END, r, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, canon, a_out, \
                            b_out, probs, hard, n_hard
                    if role == 0:
                        run_at[0, n_runs] = s
                        run_at[1, n_runs] = e
                        known = n_runs
                        n_runs += 1
                    elif role == 1:
                        if n_cls == max_classes:
                            return MANY_CLASSES, r, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, canon, a_out, \
                                b_out, probs, hard, n_hard
                        cls_at[0, n_cls] = s
                        cls_at[1, n_cls] = e
                        known = n_cls
                        n_cls += 1
                    elif role == 2:
                        ps_at[0, r] = s
                        ps_at[1, r] = e
                if role == 0:
                    run[r] = known
                elif role == 1:
                    cls[r] = known
                    last_cls = known
            # what ends the field: the delimiter before the last one, a line end (or the end
            # of the bytes) after it
            if j < nf - 1:
                if i >= n_bytes or data[i] != 44:
                    return FIELDS if i >= n_bytes or data[i] == 10 else ODD_BYTE, r, run, run_at, n_runs, cls, \
                        cls_at, n_cls, ps_at, canon, a_out, b_out, probs, hard, n_hard
            elif i < n_bytes and data[i] != 10:
                return FIELDS if data[i] == 44 else ODD_BYTE, r, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, \
                    canon, a_out, b_out, probs, hard, n_hard
            i += 1
        r += 1
    return OK, r, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, canon, a_out, b_out, probs, hard, n_hard


@njit(cache=True, nogil=True)
def gather(data, start, end):  # pragma: no cover - compiled
    """The bytes ``data[start[i]:end[i]]`` of every i, end to end, and their offsets (an arrow
    ``large_string`` array's two buffers), copied 8 bytes at a time."""
    n = len(start)
    n_bytes = len(data)
    offsets = np.empty(n + 1, np.int64)
    offsets[0] = 0
    for i in range(n):
        offsets[i + 1] = offsets[i] + (end[i] - start[i])
    out = np.empty(offsets[n] + 8, np.uint8)  # a last word may run 7 bytes past the end
    for i in range(n):
        o = offsets[i]
        s = start[i]
        size = end[i] - s
        k = 0
        while k < size and s + k + 8 <= n_bytes:
            _store8(out, o + k, _load8(data, s + k))  # past the cell: the next one overwrites it
            k += 8
        while k < size:
            out[o + k] = data[s + k]
            k += 1
    return offsets, out[:offsets[n]]


# ---- pairing with the ground truth, and FP1's choice of matches ---------------------------------
# (used by :func:`.segments.overlapping_pairs` and :func:`.fp1.fp1_from_pairs` in a process that
# holds these loops; the numpy code beside them gives the same arrays, compared in the tests)

_LINEAR = 16  # a cell with more ground-truth runs than this is entered by a binary search


@njit(cache=True, nogil=True)
def _first_reaching(end, s, e, value):  # pragma: no cover - compiled
    """The first position in ``s..e`` whose ``end`` (non-decreasing there) is >= ``value``."""
    while s < e:
        m = (s + e) >> 1
        if end[m] < value:
            s = m + 1
        else:
            e = m
    return s


@njit(cache=True, nogil=True)
def _pairs_of_run(r, p_seg, p_essay, p_cls, p_lo, p_hi, cell_start, g_end, n_classes, w):  # pragma: no cover
    """The candidate ground-truth runs of prediction run ``r``: ``(first, stop, lo, hi)``,
    empty (``first == stop``) when its class is one the ground truth lacks or its cell is."""
    seg = p_seg[r]
    c = p_cls[seg]
    last = len(cell_start) - 1
    if c >= n_classes:
        return 0, 0, 0, 0
    cell = p_essay[seg] * n_classes + c
    if cell >= last:
        return 0, 0, 0, 0
    s, e = cell_start[cell], cell_start[cell + 1]
    lo, hi = p_lo[r], p_hi[r]
    if e - s > _LINEAR:
        s = _first_reaching(g_end, s, e, cell * w + lo)
    return s, e, lo, hi


@njit(cache=True, nogil=True)
def pair_runs(p_seg, p_essay, p_cls, p_lo, p_hi, cell_start, g_end, g_lo, g_hi, g_seg, n_classes, w):  # pragma: no cover
    """Every (prediction run, ground-truth run) of one essay and class that share words: the
    prediction's segment, the ground truth's segment and the number of shared words (of
    ``g_hi``'s type), ordered by prediction run, then by ground-truth run (the order of the
    index: cell, start).

    Two passes: the first finds each prediction run's candidates and counts the pairs, the
    second writes them."""
    n = len(p_seg)
    first = np.empty(n, np.int64)
    stop = np.empty(n, np.int64)
    total = 0
    for r in range(n):
        j, e, lo, hi = _pairs_of_run(r, p_seg, p_essay, p_cls, p_lo, p_hi, cell_start, g_end, n_classes, w)
        first[r] = j
        while j < e and g_lo[j] <= hi:
            if min(hi, g_hi[j]) >= max(lo, g_lo[j]):
                total += 1
            j += 1
        stop[r] = j
    p = np.empty(total, np.int64)
    g = np.empty(total, np.int64)
    inter = np.empty(total, g_hi.dtype)
    k = 0
    for r in range(n):
        lo, hi = p_lo[r], p_hi[r]
        for j in range(first[r], stop[r]):
            ov = min(hi, g_hi[j]) - max(lo, g_lo[j]) + 1
            if ov > 0:
                p[k] = p_seg[r]
                g[k] = g_seg[j]
                inter[k] = ov
                k += 1
    return p, g, inter


@njit(cache=True, nogil=True)
def fp1_best(p, g, inter, p_size, g_size, p_row, groups, n_groups, n_gt):  # pragma: no cover - compiled
    """FP1's matches: each ground-truth group's best candidate prediction (-1: none) and
    which ground truths have a candidate. A pair is a candidate when ``2·inter >= |P|`` and
    ``2·inter >= |G|``; the best has the largest ``max(inter/|P|, inter/|G|)``, then the
    earliest row."""
    best = np.full(n_groups, -1, np.int64)
    best_o = np.zeros(n_groups, np.float64)
    matched = np.zeros(n_gt, np.bool_)
    for k in range(len(p)):
        i, pp, gg = inter[k], p[k], g[k]
        ps, gs = p_size[pp], g_size[gg]
        if 2 * i < ps or 2 * i < gs:
            continue
        matched[gg] = True
        o = max(i / ps, i / gs)
        grp = groups[gg]
        b = best[grp]
        if b < 0 or o > best_o[grp] or (o == best_o[grp] and p_row[pp] < p_row[b]):
            best[grp] = pp
            best_o[grp] = o
    return best, matched
