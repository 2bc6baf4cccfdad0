"""Compiled loops (numba) for the part of a τ change that numpy can only do in many passes.

:func:`components` finds the connected components of the pairs left with a real choice
(see :mod:`.matching`) with one union-find over the pairs, and numbers them and their points
exactly as the numpy route does (``connected_components`` on the compacted graph, then each
point's position among its component's points, ascending): components in the order of
their lowest point, predictions before objects. numpy needed a radix sort, two compactions,
a sparse graph and two more sorts for it, about half of the matching's time at τ = 50 in
crowded frames; this is one pass over the pairs and one over the points.

:func:`window_pairs` measures each prediction's nearby objects for the candidate pairs and
:func:`settle` settles them, at load, where numpy needed a dozen passes over a few million
window entries and four ``ufunc.at`` scatters.

Imported on first use by :func:`.matching.compiled` (numba takes about a quarter of a second
to import, and loading the cached machine code as much again), and only for large inputs
(:data:`.matching.COMPILED_MIN_PAIRS`, :data:`.matching.COMPILED_MIN_POINTS`); compiled
once, then cached beside this file (or in numba's user-wide cache where this folder is
read-only). Where numba is missing the numpy route does the same work
(``tests/spotgeo/test_kernels.py`` compares the two, result for result).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .data import KEY_BYTES


@njit(cache=True, nogil=True)
def _find(parent, x):
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:  # path compression
        nxt = parent[x]
        parent[x] = root
        x = nxt
    return root


@njit(cache=True, nogil=True)
def components(q, gq, n_pred, n_gt, pred_frame):  # pragma: no cover - compiled (tested through the numpy twin)
    """The components of the pairs ``(q[k], gq[k])`` (prediction, object ids).

    Returns ``(n_comp, comp, row, col, rn, cn, n_frames)``: each pair's component, its
    prediction's position among its component's predictions and its object's among its
    objects (both ascending by id); each component's predictions and objects; and how many
    distinct frames (``pred_frame``) the pairs' predictions lie in."""
    m = len(q)
    n = n_pred + n_gt
    parent = np.full(n, -1, np.int32)
    for k in range(m):
        a = q[k]
        b = n_pred + gq[k]
        if parent[a] < 0:
            parent[a] = a
        if parent[b] < 0:
            parent[b] = b
        ra = _find(parent, a)
        rb = _find(parent, b)
        if ra != rb:  # the lower id becomes the root
            if ra < rb:
                parent[rb] = ra
            else:
                parent[ra] = rb
    # each point's component and its position among the component's points, side by side
    # (the pairs read both at random: one cache line, not two)
    lab = np.empty((n, 2), np.int32)
    rn = np.zeros(m, np.int32)
    cn = np.zeros(m, np.int32)
    n_comp = 0
    n_frames = 0
    last_frame = -1
    for x in range(n):  # ascending: components numbered by their lowest point
        if parent[x] < 0:
            continue
        r = parent[x]
        while parent[r] != r:
            r = parent[r]
        if r == x:  # the root is its component's lowest point (the lower id always became it)
            c = n_comp
            n_comp += 1
        else:  # (its root, lower, was numbered before)
            c = lab[r, 0]
        lab[x, 0] = c
        if x < n_pred:
            lab[x, 1] = rn[c]
            rn[c] += 1
            f = pred_frame[x]
            if f != last_frame:
                n_frames += 1
                last_frame = f
        else:
            lab[x, 1] = cn[c]
            cn[c] += 1
    comp = np.empty(m, np.int64)
    row = np.empty(m, np.int64)
    col = np.empty(m, np.int64)
    for k in range(m):
        a = q[k]
        b = n_pred + gq[k]
        comp[k] = lab[a, 0]
        row[k] = lab[a, 1]
        col[k] = lab[b, 1]
    return n_comp, comp, row, col, rn[:n_comp].copy(), cn[:n_comp].copy(), n_frames


@njit(cache=True, nogil=True)
def window_pairs(px, py, lo, hi, ox, oy, max_d):  # pragma: no cover - compiled (tested through the numpy twin)
    """Each prediction's pairs within ``max_d`` among the objects ``lo[i]:hi[i]`` (sorted by
    their look-up key, coordinates ``ox, oy``), in the order the numpy route lists them
    (prediction, then position): ``(p, pos, d)`` — the same test (the squared distance with
    its margin, then ``hypot``), the same distances to the last bit."""
    total = 0
    for i in range(len(lo)):
        total += hi[i] - lo[i]
    p = np.empty(total, np.int32)
    pos = np.empty(total, np.int64)
    d = np.empty(total, np.float64)
    bound = max_d * max_d * (1 + 1e-9) + 1e-300
    k = 0
    for i in range(len(lo)):
        x, y = px[i], py[i]
        for j in range(lo[i], hi[i]):
            dx = x - ox[j]
            dy = y - oy[j]
            sq = dx * dx
            sq += dy * dy
            if sq <= bound:
                h = np.hypot(dx, dy)
                if h <= max_d:
                    p[k] = i
                    pos[k] = j
                    d[k] = h
                    k += 1
    return p[:k], pos[:k], d[:k]


@njit(cache=True, nogil=True)
def settle(p, g, n_pred, n_gt, solver_from, lone):  # pragma: no cover - compiled (tested through the numpy twin)
    """:func:`.matching.settling`'s two arrays, written into ``solver_from`` and ``lone``
    (one per pair, of the caller's dtype), in three passes over the pairs: the same meaning
    and the same values. Fewer than 2**31 pairs (int32 positions).

    Each point keeps its first pair, its second pair and the position from which a partner
    is crowded side by side (one cache line per point and pass: the points are read in the
    pairs' order, which is by distance, so at random)."""
    m = len(p)
    at_p = np.full((n_pred, 3), m, np.int32)  # first pair, second pair, crowded from
    at_g = np.full((n_gt, 3), m, np.int32)
    for k in range(m):  # each point's first and second pair (the pairs are in order)
        a = p[k]
        if at_p[a, 0] == m:
            at_p[a, 0] = k
        elif at_p[a, 1] == m:
            at_p[a, 1] = k
        b = g[k]
        if at_g[b, 0] == m:
            at_g[b, 0] = k
        elif at_g[b, 1] == m:
            at_g[b, 1] = k
    for k in range(m):
        a = p[k]
        b = g[k]
        v = max(k, at_g[b, 1])
        if v < at_p[a, 2]:
            at_p[a, 2] = v
        v = max(k, at_p[a, 1])
        if v < at_g[b, 2]:
            at_g[b, 2] = v
    for k in range(m):
        a = p[k]
        b = g[k]
        solver_from[k] = max(at_p[a, 2], at_g[b, 2])
        lone[k] = at_p[a, 0] == k and at_g[b, 0] == k


# the keys of an entry, in order, padded with zeros (constants: no array passed per call)
_KEYS = np.zeros((len(KEY_BYTES), 24), np.uint8)
for _i, _k in enumerate(KEY_BYTES):
    _KEYS[_i, :len(_k)] = np.frombuffer(_k, np.uint8)
_KEY_LENS = np.array([len(k) for k in KEY_BYTES], np.int64)
_POW10 = np.array([10.0**k for k in range(23)])  # exact doubles
_EXACT = 2**53  # every integer up to this is a double


@njit(cache=True, nogil=True, inline="always")
def _skip_ws(a, i):
    n = len(a)
    while i < n and (a[i] == 32 or a[i] == 9 or a[i] == 10 or a[i] == 13):
        i += 1
    return i


@njit(cache=True, nogil=True, inline="always")
def _is_num(c):
    return (48 <= c <= 57) or c == 43 or c == 45 or c == 46  # 0-9 + - .


@njit(cache=True, nogil=True)
def _key(a, i, key):
    """Past ``"key"`` (one of :data:`.data.KEY_BYTES`, by number) and the colon after it (white
    space around), or -1."""
    i = _skip_ws(a, i)
    n = len(a)
    size = _KEY_LENS[key]
    if i + size + 1 >= n or a[i] != 34:
        return -1
    i += 1
    for j in range(size):
        if a[i + j] != _KEYS[key, j]:
            return -1
    i += size
    if a[i] != 34:
        return -1
    i = _skip_ws(a, i + 1)
    if i >= n or a[i] != 58:
        return -1
    return i + 1


@njit(cache=True, nogil=True)
def _number(a, i):
    r"""The number token from ``i`` (after white space): ``(start, end, value, integral)``;
    ``end`` is -1 when there is no number there, -2 when it breaks the JSON number grammar
    without an exponent, ``-?(0|[1-9][0-9]*)(\.[0-9]+)?``.

    ``value`` is Python's ``float`` of the text whenever the digits, read as one integer,
    are at most 2**53 and the fraction has at most 22 digits: both that integer and 10**f
    are then exact doubles, and one IEEE division rounds their quotient correctly. Else it
    is NaN, and the caller has Arrow's correctly rounded cast read the text."""
    start = _skip_ws(a, i)
    n = len(a)
    end = start
    while end < n and _is_num(a[end]):
        end += 1
    if end == start:
        return start, -1, 0.0, False
    j = start
    neg = a[j] == 45
    if neg:
        j += 1
    if j >= end or not (48 <= a[j] <= 57):
        return start, -2, 0.0, False
    mant = 0
    digits = 0
    if a[j] == 48:  # a leading 0 stands alone before the fraction
        j += 1
    else:
        while j < end and 48 <= a[j] <= 57:
            if digits < 18:
                mant = mant * 10 + (a[j] - 48)
            digits += 1
            j += 1
    frac = 0
    whole = True
    if j < end:
        if a[j] != 46:
            return start, -2, 0.0, False
        j += 1
        if j >= end or not (48 <= a[j] <= 57):
            return start, -2, 0.0, False
        while j < end and 48 <= a[j] <= 57:
            if digits < 18:
                mant = mant * 10 + (a[j] - 48)
            if mant > 0 or digits > 0:
                digits += 1
            frac += 1
            j += 1
        if j < end:
            return start, -2, 0.0, False
        whole = False
    if digits <= 18 and mant <= _EXACT and frac <= 22:
        v = mant / _POW10[frac]
        return start, end, (-v if (neg and not (whole and v == 0.0)) else v), whole
    return start, end, np.nan, whole


@njit(cache=True, nogil=True, inline="always")
def _punct(a, i, ch):
    """Past the punctuation ``ch`` (after white space), or -1."""
    i = _skip_ws(a, i)
    if i < len(a) and a[i] == ch:
        return i + 1
    return -1


@njit(cache=True, nogil=True)
def scan_piece(a, first, last):  # pragma: no cover - compiled (tested against the numpy route)
    """The entries of one piece of a spotGEO file written the usual way (see
    :mod:`.fastread`), in one pass: ``(ok, n_entries, points, has_b, n_bright, start, end,
    values, integral)`` — each entry's points and brightness values; each number's first
    and last byte (+1) in the piece, its value (NaN where :func:`_number` leaves the rounding
    to Arrow) and whether it has no fraction. Accepts exactly the usual layout (the keys in
    order, white space ``" \t\n\r"`` between tokens only, numbers in the JSON grammar
    without an exponent); ``ok`` is False on anything else."""
    n = len(a)
    most = n // 2 + 1  # a number and its separator: 2 bytes at least
    start = np.empty(most, np.int64)
    end = np.empty(most, np.int64)
    values = np.empty(most, np.float64)
    integral = np.empty(most, np.bool_)
    cap = n // 8 + 1  # an entry is far longer than 8 bytes
    points = np.empty(cap, np.int64)
    has_b = np.zeros(cap, np.bool_)
    n_bright = np.zeros(cap, np.int64)
    fail = (False, 0, points[:0], has_b[:0], n_bright[:0], start[:0], end[:0], values[:0], integral[:0])
    # (each number is kept in place, three times below, rather than by a helper that takes the
    # four arrays: numba then passes and counts references to them per number, and the scan
    # took 107 ms for a 6.8 MB file instead of 50)
    i, k, e = 0, 0, 0
    if first:
        i = _punct(a, i, 91)  # [
        if i < 0:
            return fail
    while True:
        if e >= cap:
            return fail
        i = _punct(a, i, 123)  # {
        if i < 0:
            return fail
        for key in range(3):  # sequence_id, frame, num_objects
            i = _key(a, i, key)
            if i < 0:
                return fail
            s0, i, v, w = _number(a, i)
            if i < 0:
                return fail
            start[k], end[k], values[k], integral[k] = s0, i, v, w
            k += 1
            i = _punct(a, i, 44)  # ,
            if i < 0:
                return fail
        i = _key(a, i, 3)  # object_coords
        if i < 0:
            return fail
        i = _punct(a, i, 91)
        if i < 0:
            return fail
        m = 0
        j = _skip_ws(a, i)
        if j < n and a[j] == 93:  # ] no points
            i = j + 1
        else:
            while True:
                i = _punct(a, i, 91)
                if i < 0:
                    return fail
                for half in range(2):
                    if half:
                        i = _punct(a, i, 44)
                        if i < 0:
                            return fail
                    s0, i, v, w = _number(a, i)
                    if i < 0:
                        return fail
                    start[k], end[k], values[k], integral[k] = s0, i, v, w
                    k += 1
                i = _punct(a, i, 93)
                if i < 0:
                    return fail
                m += 1
                j = _skip_ws(a, i)
                if j < n and a[j] == 44:
                    i = j + 1
                    continue
                if j < n and a[j] == 93:
                    i = j + 1
                    break
                return fail
        points[e] = m
        j = _skip_ws(a, i)
        if j < n and a[j] == 44:  # the brightness
            i = _key(a, j + 1, 4)
            if i < 0:
                return fail
            i = _punct(a, i, 91)
            if i < 0:
                return fail
            b = 0
            j = _skip_ws(a, i)
            if j < n and a[j] == 93:
                i = j + 1
            else:
                while True:
                    s0, i, v, w = _number(a, i)
                    if i < 0:
                        return fail
                    start[k], end[k], values[k], integral[k] = s0, i, v, w
                    k += 1
                    b += 1
                    j = _skip_ws(a, i)
                    if j < n and a[j] == 44:
                        i = j + 1
                        continue
                    if j < n and a[j] == 93:
                        i = j + 1
                        break
                    return fail
            has_b[e] = True
            n_bright[e] = b
        i = _punct(a, i, 125)  # }
        if i < 0:
            return fail
        e += 1
        j = _skip_ws(a, i)
        if j >= n:
            if last:
                return fail  # the array was never closed
            break
        if a[j] == 44:  # , another entry
            i = j + 1
            continue
        if last and a[j] == 93:  # ] the end
            if _skip_ws(a, j + 1) != n:
                return fail
            break
        return fail
    return True, e, points[:e], has_b[:e], n_bright[:e], start[:k], end[:k], values[:k], integral[:k]
