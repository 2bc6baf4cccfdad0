"""One-to-one deterministic matching of candidate pairs (SPEC §3), vectorised.

Candidate pairs are sorted by (selection key desc, ground truth's smallest word, the
prediction's smallest word, prediction row, ground-truth row) and accepted greedily when
neither side is taken. Pairs whose prediction and ground truth have no other candidate are
accepted at once; the rest are resolved in rounds of "locally dominant" pairs (a pair that
comes first among all remaining pairs of both its ends), which yields exactly the greedy
result.
"""

from __future__ import annotations

import numpy as np

from .params import PARAMS, QUALITIES  # noqa: F401  (QUALITIES re-exported)

TOL = 1e-12


def check_segment_params(w, quality, threshold) -> tuple[float, str, float]:
    """Validate ``w`` ∈ [0, 1], ``quality`` ∈ binary/max/iou and ``threshold`` ∈ (0, 1].

    >>> check_segment_params(0.5, "iou", 0.51)
    (0.5, 'iou', 0.51)
    """
    return PARAMS.values(w=w, quality=quality, threshold=threshold)


def fractional_tp_values(w, quality, d):
    """A matched pair's fractional true positive ``w·q + (1 − w)·d`` (memo §2; SPEC §3) —
    elementwise, so also the class sums ``w·Σq + (1 − w)·Σd``.

    >>> round(float(fractional_tp_values(0.5, 0.9, 0.8)), 12)
    0.85
    """
    return w * np.asarray(quality, dtype=float) + (1 - w) * np.asarray(d, dtype=float)


def overlaps(inter, psize, gsize):
    """``(o_P, o_G, IoU)`` of pairs with intersection ``inter`` and sizes ``psize``, ``gsize``."""
    inter = np.asarray(inter, dtype=float)
    return inter / psize, inter / gsize, inter / (np.asarray(psize) + np.asarray(gsize) - inter)


def quality_values(quality: str, o_p, o_g, iou):
    if quality == "binary":
        return np.ones_like(o_p)
    if quality == "max":
        return np.maximum(o_p, o_g)
    return iou


def selection_key(quality: str, o_p, o_g, iou):
    """Matching order key: IoU in ``iou`` mode, ``max(o_P, o_G)`` otherwise."""
    return iou if quality == "iou" else np.maximum(o_p, o_g)


def match(p, g, o_p, o_g, key, threshold, tiebreak, n_p: int, n_g: int) -> np.ndarray:
    """Positions (into the pair arrays) of the accepted pairs, ascending.

    ``p``/``g`` are prediction and ground-truth ids (< ``n_p`` / ``n_g``); ``key`` is the
    selection key; ``tiebreak(positions)`` returns the ground truth's smallest word, the
    prediction's smallest word, the prediction's row and the ground truth's row of those
    pairs (only asked for pairs in conflict).
    """
    cand = np.flatnonzero((o_p >= threshold - TOL) & (o_g >= threshold - TOL))
    if len(cand) == 0:
        return cand
    pc, gc = p[cand], g[cand]
    cnt_p = np.bincount(pc, minlength=n_p)
    cnt_g = np.bincount(gc, minlength=n_g)
    simple = (cnt_p[pc] == 1) & (cnt_g[gc] == 1)
    if simple.all():
        return cand
    conf = cand[~simple]
    gmin, pmin, prow, grow = tiebreak(conf)
    order = np.lexsort((grow, prow, pmin, gmin, -key[conf]))
    e = conf[order]
    ep, eg = p[e], g[e]
    alive = np.ones(len(e), dtype=bool)
    accepted = [cand[simple]]
    while alive.any():
        idx = np.flatnonzero(alive)
        _, fp = np.unique(ep[idx], return_index=True)
        _, fg = np.unique(eg[idx], return_index=True)
        first_p = np.zeros(len(idx), dtype=bool)
        first_p[fp] = True
        first_g = np.zeros(len(idx), dtype=bool)
        first_g[fg] = True
        acc = idx[first_p & first_g]
        accepted.append(e[acc])
        alive &= ~(np.isin(ep, ep[acc]) | np.isin(eg, eg[acc]))
    return np.sort(np.concatenate(accepted))
