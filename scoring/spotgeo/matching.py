"""One-to-one matching of predictions and objects, frame by frame (spec §2).

The rule: the assignment that first maximises the number of pairs with ``d ≤ τ``, then
minimises the sum of those pairs' distances. :func:`match_frame` is the plain solver: one
``scipy.optimize.linear_sum_assignment`` on the frame's distance matrix with every entry
beyond τ replaced by a constant (:func:`~.rules.cost_constant`).

:func:`match_submission` gives the same matching for a whole submission without a Python
loop over frames in the common case. The pairs within τ form a bipartite graph whose
connected components can be matched independently:

* a pair whose prediction and object have no other partner within τ (an *isolated* pair —
  every pair of a conflict-free frame is one) is always matched;
* a *star* — one point whose partners within τ have no other partner — can hold one pair
  only, so the shortest one is matched;

both settled at once for the whole submission with ``bincount``/``unique``. Only the pairs
left (components with a real choice) go to the assignment solver, one call per frame, on
the frame's points that take part. Under the starter kit's fixed constant 1000 the same
holds, and the solver's answer can only differ where ``min(rows, cols)·τ ≥ 1000``; those
frames are solved a second time with 1000.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from .rules import KIT_CONSTANT, SEED, RuleSet, cost_constant


def distances(pred_xy, gt_xy) -> np.ndarray:
    """Euclidean distances (M × N) between predictions and objects."""
    p = np.asarray(pred_xy, dtype=float).reshape(-1, 2)
    g = np.asarray(gt_xy, dtype=float).reshape(-1, 2)
    return np.hypot(p[:, None, 0] - g[None, :, 0], p[:, None, 1] - g[None, :, 1])


def match_frame(pred_xy, gt_xy, *, tau: float, rules: RuleSet = SEED) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The true-positive pairs of one frame with the plain solver: ``(pred, obj, d)``.

    >>> p, g, d = match_frame([[101, 100], [205, 200], [300, 300], [400, 50]],
    ...                       [[100, 100], [200, 200], [213, 200]], tau=10.0)
    >>> p.tolist(), g.tolist(), d.tolist()
    ([0, 1], [0, 1], [1.0, 5.0])
    """
    D = distances(pred_xy, gt_xy)
    if D.size == 0:
        e = np.zeros(0, dtype=np.int64)
        return e, e, np.zeros(0)
    within = D <= tau
    C = np.where(within, D, cost_constant(tau, min(D.shape), rules))
    r, c = linear_sum_assignment(C)
    keep = within[r, c]
    return r[keep], c[keep], D[r[keep], c[keep]]


@dataclass
class SolverStats:
    """How a submission's matching was settled: pairs within τ, pairs settled as isolated
    pairs or stars, frames and pairs sent to the solver, solver calls and seconds."""

    pairs: int = 0
    isolated: int = 0
    star: int = 0
    solver_frames: int = 0
    solver_pairs: int = 0
    solver_calls: int = 0
    seconds: float = 0.0

    def add(self, other: SolverStats) -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))


def match_submission(p, g, d, pred_frame, n_pred: int, n_gt: int, tau: float
                     ) -> tuple[np.ndarray, np.ndarray, SolverStats]:
    """The matched pairs of a whole submission under both constants, as positions into the
    candidate pairs ``(p, g, d)`` (sorted by ``d``), ascending — so their distances are
    ascending too: ``(seed, starter_kit, stats)``. ``pred_frame`` is each prediction's frame.
    """
    n = int(np.searchsorted(d, tau, side="right"))
    p, g, d = p[:n], g[:n], d[:n]
    stats = SolverStats(pairs=n)
    degp = np.bincount(p, minlength=n_pred)
    degg = np.bincount(g, minlength=n_gt)
    dp, dg = degp[p], degg[g]
    single_p, single_g = dp == 1, dg == 1
    iso = single_p & single_g
    # a star: every partner of its centre has no other partner
    star_p = ~single_p & (np.bincount(p, weights=single_g.astype(float), minlength=n_pred) == degp)[p]
    star_g = ~single_g & (np.bincount(g, weights=single_p.astype(float), minlength=n_gt) == degg)[g]
    picks = [np.flatnonzero(iso)]
    for star, centre in ((star_p, p), (star_g, g)):
        idx = np.flatnonzero(star)
        _, first = np.unique(centre[idx], return_index=True)  # pairs are sorted by d: the shortest
        picks.append(idx[first])
    base = np.concatenate(picks)
    stats.isolated = int(iso.sum())
    stats.star = int(star_p.sum() + star_g.sum())
    rest = np.flatnonzero(~(iso | star_p | star_g))
    seed_extra, kit_extra = _solve(rest, p, g, d, pred_frame, tau, stats)
    seed = np.sort(np.concatenate((base, seed_extra)))
    kit = seed if kit_extra is None else np.sort(np.concatenate((base, kit_extra)))
    return seed, kit, stats


def _blocks(points: np.ndarray, frame_of_point: np.ndarray, frames: np.ndarray):
    """Unique points (sorted, so grouped by frame), each pair's point position among them,
    and each frame's first position and count."""
    up, pos = np.unique(points, return_inverse=True)
    pf = frame_of_point[up]
    lo = np.searchsorted(pf, frames, side="left")
    hi = np.searchsorted(pf, frames, side="right")
    return pos.ravel(), lo, hi - lo


def _solve(rest, p, g, d, pred_frame, tau, stats: SolverStats):
    """Solve the remaining pairs frame by frame; positions of the matched pairs (seed, kit or
    None when the kit's answer cannot differ)."""
    empty = np.zeros(0, dtype=np.int64)
    if len(rest) == 0:
        return empty, None
    t0 = time.perf_counter()
    rp, rg = p[rest], g[rest]
    fr = pred_frame[rp]
    frames, fidx = np.unique(fr, return_inverse=True)
    fidx = fidx.ravel()
    rpos, rlo, rn = _blocks(rp, pred_frame, frames)
    # objects: frame of each object among these pairs (pairs never cross frames)
    gframe = np.empty(int(rg.max()) + 1, dtype=np.int64)
    gframe[rg] = fr
    cpos, clo, cn = _blocks(rg, gframe, frames)
    lr, lc = rpos - rlo[fidx], cpos - clo[fidx]
    size = rn * cn
    off = np.concatenate(([0], np.cumsum(size)))
    m = np.minimum(rn, cn)
    cost = np.repeat((m + 1) * tau + 1.0, size)  # = cost_constant(tau, m) per frame
    pid = np.full(int(off[-1]), -1, dtype=np.int64)
    at = off[fidx] + lr * cn[fidx] + lc
    cost[at] = d[rest]
    pid[at] = rest
    kit_frames = set(np.flatnonzero(m * tau >= KIT_CONSTANT).tolist())
    seed_sel, kit_sel = [], []
    lsa = linear_sum_assignment
    for k, (a, b, nc) in enumerate(zip(off[:-1].tolist(), off[1:].tolist(), cn.tolist(), strict=True)):
        block = cost[a:b].reshape(-1, nc)
        r, c = lsa(block)
        sel = a + r * nc + c
        seed_sel.append(sel)
        if k in kit_frames:
            kb = np.where(pid[a:b].reshape(-1, nc) >= 0, block, KIT_CONSTANT)
            r, c = lsa(kb)
            kit_sel.append(a + r * nc + c)
            stats.solver_calls += 1
        else:
            kit_sel.append(sel)
    stats.solver_frames += len(frames)
    stats.solver_calls += len(frames)
    stats.solver_pairs += len(rest)

    def picked(sels):
        ids = pid[np.concatenate(sels)]
        return ids[ids >= 0]

    seed = picked(seed_sel)
    kit = picked(kit_sel) if kit_frames else None
    stats.seconds += time.perf_counter() - t0
    return seed, kit
