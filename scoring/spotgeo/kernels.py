"""Compiled loops (numba) for the part of a τ change that numpy can only do in many passes.

:func:`components` finds the connected components of the pairs left with a real choice
(see :mod:`.matching`) with one union-find over the pairs, and numbers them and their points
exactly as the numpy route does (``connected_components`` on the compacted graph, then each
point's position among its component's points, ascending): components in the order of
their lowest point, predictions before objects. numpy needed a radix sort, two compactions,
a sparse graph and two more sorts for it, about half of the matching's time at τ = 50 in
crowded frames; this is one pass over the pairs and one over the points.

Imported on first use by :mod:`.matching` (numba takes about a quarter of a second to
import, and a spotGEO matching is the only user); compiled once, then cached beside this
file (or in numba's user-wide cache where this folder is read-only). Where numba is missing
the numpy route does the same work (``tests/spotgeo/test_kernels.py`` compares the two).
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
