"""The original Feedback Prize 2021 metric (FP1), reproduced with the reference's quirks."""

from __future__ import annotations

import numpy as np

from .jit import loaded
from .segments import Segs


def gt_groups(gt: Segs) -> np.ndarray:
    """Group id per ground-truth segment: identical (essay, class, word set) share a group."""
    n = gt.n
    if n == 0:
        return np.zeros(0, np.int64)
    nruns = gt.run_counts
    single = nruns == 1
    gid = np.empty(n, dtype=np.int64)
    s_idx = np.flatnonzero(single)
    if len(s_idx):
        e, c, lo, hi = gt.essay[s_idx], gt.cls[s_idx], gt.wmin[s_idx], gt.wmax[s_idx]
        n_cls = int(c.max()) + 1
        if int(hi.max()) < 1 << 20 and (int(e.max()) + 1) * n_cls < 1 << 23:
            key = ((((e * n_cls + c) << 20) + lo) << 20) + hi  # one int64 sort instead of four keys
            ordered = np.sort(key)
            if len(ordered) < 2 or (ordered[1:] != ordered[:-1]).all():
                gid[s_idx] = np.arange(len(s_idx))  # no duplicates (the usual case): a group each
            else:
                _, inv = np.unique(key, return_inverse=True)
                gid[s_idx] = inv.ravel()
        else:
            order = np.lexsort((hi, lo, c, e))
            e, c, lo, hi = e[order], c[order], lo[order], hi[order]
            new = np.ones(len(order), dtype=bool)
            new[1:] = (e[1:] != e[:-1]) | (c[1:] != c[:-1]) | (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])
            gid[s_idx[order]] = np.cumsum(new) - 1
    m_idx = np.flatnonzero(~single)
    if len(m_idx):
        base = int(gid[s_idx].max()) + 1 if len(s_idx) else 0
        gid[m_idx] = base + _multi_run_groups(gt, m_idx)
    return gid


_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9], dtype=np.uint64)


def _multi_run_groups(gt: Segs, idx: np.ndarray) -> np.ndarray:
    """Group ids (0, 1, …) of the multi-run segments ``idx``: equal (essay, class, runs) share one.

    Segments are grouped by a key that includes a 64-bit hash of their runs, then every
    member's runs are compared with its group's first member; a hash collision (never seen)
    falls back to exact tuples."""
    first = np.searchsorted(gt.run_seg, idx)
    nr = np.searchsorted(gt.run_seg, idx, side="right") - first
    offs = np.cumsum(nr) - nr
    rr = np.repeat(first - offs, nr) + np.arange(int(nr.sum()))
    k = np.arange(len(rr)) - np.repeat(offs, nr)
    lo, hi = gt.run_lo[rr].astype(np.uint64), gt.run_hi[rr].astype(np.uint64)
    with np.errstate(over="ignore"):
        h = np.add.reduceat(lo * _MIX[0] + (hi ^ (lo >> np.uint64(7))) * _MIX[1] + k.astype(np.uint64) * _MIX[2], offs)
    key = np.column_stack((gt.essay[idx], gt.cls[idx], nr, gt.wmin[idx], gt.wmax[idx], gt.size[idx], h.view(np.int64)))
    _, first_of, grp = np.unique(key, axis=0, return_index=True, return_inverse=True)
    grp = grp.ravel()
    rep_run = np.repeat(first[first_of[grp]], nr) + k  # the same run of the group's first member
    if np.array_equal(gt.run_lo[rep_run], gt.run_lo[rr]) and np.array_equal(gt.run_hi[rep_run], gt.run_hi[rr]):
        return grp
    seen: dict[tuple, int] = {}  # a 64-bit hash collision
    out = np.empty(len(idx), dtype=np.int64)
    for j, i in enumerate(idx.tolist()):
        a, b = int(first[j]), int(first[j] + nr[j])
        key_j = (int(gt.essay[i]), int(gt.cls[i]), tuple(gt.run_lo[a:b].tolist()), tuple(gt.run_hi[a:b].tolist()))
        out[j] = seen.setdefault(key_j, len(seen))
    return out


def _gt_parts(gt: Segs, groups: np.ndarray, C: int, n_essays: int):
    """What FP1 needs of the ground truth alone — per class counts, the number of groups,
    each group's class, the (essay, class) cells with ground truth — computed once per
    ground truth (kept on its :class:`Segs`), not once per submission."""
    cache = gt.__dict__.setdefault("_fp1_parts", {})
    hit = cache.get((C, n_essays))
    if hit is not None and hit[0] is groups:
        return hit[1]
    n_groups = int(groups.max()) + 1 if len(groups) else 0
    grp_cls = np.zeros(n_groups, dtype=np.int64)
    grp_cls[groups] = gt.cls  # class of each group = class of any of its ground truths
    parts = (np.bincount(gt.cls, minlength=C), n_groups, grp_cls,
             np.bincount(gt.essay * C + gt.cls, minlength=n_essays * C) > 0)
    if len(cache) > 4:
        cache.clear()
    cache[(C, n_essays)] = (groups, parts)
    return parts


def fp1_from_pairs(pred: Segs, gt: Segs, groups: np.ndarray, n_classes: int, n_essays: int,
                   p: np.ndarray, g: np.ndarray, inter: np.ndarray) -> float:
    """FP1 macro F1 over the classes present in the ground truth (SPEC §3).

    Candidates: ``o_P >= 0.5`` and ``o_G >= 0.5`` (exact: ``2·I >= |P|`` and ``2·I >= |G|``).
    Each ground-truth group with a candidate takes its best prediction (max overlap, then
    earlier row); TP = such groups, FP = predictions that are no group's best, FN = ground
    truths without a candidate, plus the reference's +1 quirks.
    """
    C = n_classes
    gt_cls_counts, n_groups, grp_cls, gt_cell = _gt_parts(gt, groups, C, n_essays)
    present = gt_cls_counts > 0
    if not present.any():
        return 0.0
    kernels = loaded()
    if kernels is not None:  # a process holding the compiled loops: one pass over the pairs
        best, matched = kernels.fp1_best(p, g, inter, pred.size, gt.size, pred.row, groups, n_groups, gt.n)
        best_grp = np.flatnonzero(best >= 0)
        best_pred = best[best_grp]
        matched_gt = np.flatnonzero(matched)
    else:
        best_pred, best_grp, matched_gt = _matches_numpy(pred, gt, groups, n_groups, p, g, inter)
    tp = np.bincount(grp_cls[best_grp], minlength=C).astype(float)

    # predictions of classes the ground truth lacks have code C: counted in a bin of their own
    n_pred = np.bincount(pred.cls, minlength=C + 1)[:C].astype(float)
    is_best = np.zeros(pred.n, dtype=bool)
    is_best[best_pred] = True  # a prediction may be the best of several groups: counted once
    n_best = np.bincount(pred.cls[np.flatnonzero(is_best)], minlength=C + 1)[:C].astype(float)
    fp = n_pred - n_best

    fn = (gt_cls_counts - np.bincount(gt.cls[matched_gt], minlength=C)).astype(float)

    # the quirks: a class with ground truth in an essay the submission leaves without a
    # prediction of it adds a false positive; a class predicted in an essay without its ground
    # truth, a false negative (each at most once per class)
    cells = np.bincount(pred.essay * (C + 1) + pred.cls, minlength=n_essays * (C + 1))
    pred_cell = cells.reshape(n_essays, C + 1)[:, :C] > 0
    differ = np.flatnonzero(pred_cell.ravel() != gt_cell)  # cells where one side has the class
    has_gt = gt_cell[differ]
    for out, at in ((fp, differ[has_gt]), (fn, differ[~has_gt])):
        hit = np.zeros(C, dtype=bool)
        hit[at % C] = True
        out += hit
    denom = tp + 0.5 * (fp + fn)
    f1 = np.divide(tp, denom, out=np.zeros(C), where=denom > 0)
    return float(f1[present].mean())


def _matches_numpy(pred: Segs, gt: Segs, groups: np.ndarray, n_groups: int, p: np.ndarray, g: np.ndarray,
                   inter: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """FP1's matches in numpy (:func:`.kernels.fp1_best` in one compiled pass): the best
    prediction of each group with a candidate, those groups, and the ground truths (positions,
    ascending) with a candidate."""
    # (boolean masks are turned into positions once: gathering by position is 2-3x faster)
    psz = pred.size[p]
    gsz = gt.size[g]
    cand = np.flatnonzero((2 * inter >= psz) & (2 * inter >= gsz))
    cp, cg, ci = p[cand], g[cand], inter[cand]
    grp = groups[cg]
    # a group with one candidate takes it; only groups with several need the ordering
    per_group = np.bincount(grp, minlength=n_groups)
    alone = per_group[grp] == 1
    one = np.flatnonzero(alone)
    best_pred, best_grp = cp[one], grp[one]
    if len(one) < len(alone):
        many = np.flatnonzero(~alone)
        mp, mg = cp[many], grp[many]
        maxo = np.maximum(ci[many] / pred.size[mp], ci[many] / gt.size[cg[many]])
        order = np.lexsort((pred.row[mp], -maxo, mg))
        ms = mg[order]
        first = np.flatnonzero(np.concatenate(([True], ms[1:] != ms[:-1])))
        best_pred = np.concatenate((best_pred, mp[order[first]]))
        best_grp = np.concatenate((best_grp, ms[first]))
    matched_gt = np.zeros(gt.n, dtype=bool)
    matched_gt[cg] = True
    return best_pred, best_grp, np.flatnonzero(matched_gt)
