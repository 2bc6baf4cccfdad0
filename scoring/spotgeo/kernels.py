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
    label = np.full(n, -1, np.int32)  # first the roots' component ids, then each point's
    local = np.empty(n, np.int32)
    rn = np.zeros(m, np.int32)
    cn = np.zeros(m, np.int32)
    n_comp = 0
    n_frames = 0
    last_frame = -1
    for x in range(n):  # ascending: components numbered by their lowest point
        if parent[x] < 0:
            continue
        r = _find(parent, x)
        c = label[r]
        if c < 0:  # (r <= x: the root is the component's lowest point, seen first)
            c = n_comp
            n_comp += 1
        label[x] = c
        if x < n_pred:
            local[x] = rn[c]
            rn[c] += 1
            f = pred_frame[x]
            if f != last_frame:
                n_frames += 1
                last_frame = f
        else:
            local[x] = cn[c]
            cn[c] += 1
    comp = np.empty(m, np.int64)
    row = np.empty(m, np.int64)
    col = np.empty(m, np.int64)
    for k in range(m):
        a = q[k]
        b = n_pred + gq[k]
        comp[k] = label[a]
        row[k] = local[a]
        col[k] = local[b]
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
