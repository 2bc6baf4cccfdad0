"""The five-stage leaderboard (SPEC §6), built so that a slider move only re-aggregates.

What no parameter changes is computed once in :class:`Scorer`: every submission's
overlapping (prediction, ground truth) pairs with their intersection sizes and effectiveness
probabilities, before and after overlap removal, and both FP1 scores. A call to
:meth:`Scorer.leaderboard` then

1. matches the candidate pairs for (threshold, matching order, overlap removal) — cached;
2. sums, per (submission, group, class), matched pairs, Σquality, Σprobability and
   predictions — cached per (1, quality, attributes);
3. turns the sums into F1 for the given ``w`` (linear in ``w``), softmin over groups for
   ``alpha`` and the boost — microseconds.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .aggregate import boost_arrays, check_alpha, check_nonneg, rank_scores, softmin_matrix
from .competition import MISSING, Competition
from .errors import parameter_error
from .matching import check_segment_params, match, overlaps, quality_values, selection_key

LEADERBOARD_COLUMNS = ["submission", "fp1", "fp1_rank", "overlap_removed", "overlap_removed_rank",
                       "segment_score", "segment_score_rank", "bias_score", "bias_score_rank",
                       "eligible", "boost", "final_score", "rank"]
DEFAULTS = dict(w=0.5, quality="iou", threshold=0.51, alpha=50.0, attributes=(), band=0.05,
                max_boost=0.05, window=0.2, overlap_removal=True)


@dataclass
class GroupScores:
    """Per-group segment scores: ``scores`` (submission × group label), ``sizes`` (essays)."""

    scores: pd.DataFrame
    sizes: pd.Series
    labels: list[str]


CACHE_SIZES = {"match": 8, "sums": 32, "np": 8, "groups": 32}


class _LRU:
    """A small thread-safe LRU map with hit/miss counts. One Scorer may serve several sessions
    (threads) at once; values are pure functions of their key, so two threads computing the
    same entry is harmless."""

    def __init__(self, size: int):
        self.size = size
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key, fn):
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                self.hits += 1
                return self.items[key]
            self.misses += 1
        val = fn()
        with self.lock:
            self.items[key] = val
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return val

    def info(self) -> dict[str, int]:
        return {"hits": self.hits, "misses": self.misses, "entries": len(self.items)}


class Scorer:
    """Precomputes a competition so that :meth:`leaderboard` is cheap (see module doc)."""

    def __init__(self, competition: Competition):
        self.comp = competition
        gt = competition.gt
        self.names = competition.submission_names
        self.S = len(self.names)
        self.C = len(gt.classes)
        self.E = len(gt.essays)
        self._tables = competition.tables
        self.fp1 = np.array([p.fp1 for p in competition.prepared], dtype=float)
        self.fp1_removed = np.array([p.overlap_removed for p in competition.prepared], dtype=float)
        self.runtime = np.array([competition.runtimes.get(n, np.nan) for n in self.names], dtype=float)
        self._gt_essay = gt.segs.essay
        self._gt_cls = gt.segs.cls
        # one LRU per level, so cheap entries never push out a matching (the costly level)
        self._caches = {level: _LRU(size) for level, size in CACHE_SIZES.items()}

    def cache_info(self) -> dict[str, dict[str, int]]:
        """Hits, misses and entries per cache level (``match``, ``sums``, ``np``, ``groups``)."""
        return {level: c.info() for level, c in self._caches.items()}

    def _cached(self, level: str, key, fn):
        return self._caches[level].get(key, fn)

    # ---- parameter validation ------------------------------------------------------------
    def _attributes(self, attributes) -> tuple[str, ...]:
        if attributes is None:
            return ()
        if isinstance(attributes, str):
            attributes = [a.strip() for a in attributes.split(",") if a.strip()]
        attrs = tuple(str(a) for a in attributes)
        for a in attrs:
            if a not in self.comp.attributes:
                have = ", ".join(self.comp.attributes) or "none: no demographics loaded"
                raise parameter_error("attributes", f"demographic columns ({have})", a)
        if len(set(attrs)) != len(attrs):
            raise parameter_error("attributes", "distinct attribute names", ",".join(attrs))
        return attrs

    # ---- stages --------------------------------------------------------------------------
    def groups(self, attributes: Sequence[str] = ()) -> tuple[np.ndarray, list[str], np.ndarray]:
        """(group code per essay, group labels, group sizes) for the cross product of ``attributes``."""
        attrs = self._attributes(attributes)
        return self._cached("groups", attrs, lambda: self._groups(attrs))

    def _groups(self, attrs):
        if not attrs:
            return np.zeros(self.E, dtype=np.int64), ["all essays"], np.array([self.E])
        demo = self.comp.demographics
        # a group is a tuple of values (never its label text: "a=1 & b=2" can be spelled by
        # two different tuples); groups are ordered by their values, attribute by attribute
        parts = [pd.factorize(demo[a].fillna(MISSING).astype(str).to_numpy(), sort=True) for a in attrs]
        combo = np.zeros(self.E, dtype=np.int64)
        for codes, uniques in parts:
            combo = combo * len(uniques) + codes
        used, codes = np.unique(combo, return_inverse=True)
        labels, seen = [], set()
        for u in used.tolist():
            values = []
            for (_, uniques), a in zip(reversed(parts), reversed(attrs), strict=True):
                u, r = divmod(u, len(uniques))
                values.append(f"{a}={uniques[r]}")
            label = " & ".join(reversed(values))
            while label in seen:  # only for values that themselves contain " & "
                label += " ′"
            seen.add(label)
            labels.append(label)
        return codes.ravel().astype(np.int64), labels, np.bincount(codes.ravel(), minlength=len(used))

    def _overlaps(self, removal: bool):
        T, gsize = self._tables[removal], self.comp.gt.segs.size
        return overlaps(T.inter, T.pred_size[T.p], gsize[T.g])

    def _matched(self, removal: bool, threshold: float, order_key: str) -> np.ndarray:
        def run():
            T, gt = self._tables[removal], self.comp.gt.segs
            o_p, o_g, iou = self._overlaps(removal)
            key = selection_key(order_key, o_p, o_g, iou)
            g_global = T.pred_sub[T.p].astype(np.int64) * gt.n + T.g

            def tiebreak(c):
                pc, gc = T.p[c], T.g[c]
                return gt.wmin[gc], T.pred_wmin[pc], T.pred_row[pc], gt.row[gc]

            return match(T.p, g_global, o_p, o_g, key, threshold, tiebreak, T.n_pred, gt.n * max(self.S, 1))
        return self._cached("match", (removal, threshold, order_key), run)

    def _sums(self, removal: bool, threshold: float, quality: str, attrs: tuple[str, ...]):
        """Arrays (S, G, C): matched M, Σquality, Σprobability, predictions NP; and NG (G, C)."""
        order_key = "iou" if quality == "iou" else "max"

        def run():
            T = self._tables[removal]
            m = self._matched(removal, threshold, order_key)
            gcode, labels, _ = self.groups(attrs)
            G, C, S = len(labels), self.C, self.S
            size = S * G * C
            pm = T.p[m]
            idx = (T.pred_sub[pm].astype(np.int64) * G + gcode[T.pred_essay[pm]]) * C + T.pred_cls[pm]
            inter = T.inter[m]
            psize, gsize = T.pred_size[pm], self.comp.gt.segs.size[T.g[m]]
            q = quality_values(quality, *overlaps(inter, psize, gsize))
            M = np.bincount(idx, minlength=size).reshape(S, G, C).astype(float)
            Sq = np.bincount(idx, weights=q, minlength=size).reshape(S, G, C)
            Sd = np.bincount(idx, weights=T.d[m], minlength=size).reshape(S, G, C)
            NP = self._cached("np", (removal, attrs), lambda: self._np(removal, gcode, G))
            NG = np.bincount(gcode[self._gt_essay] * C + self._gt_cls, minlength=G * C).reshape(G, C).astype(float)
            return M, Sq, Sd, NP, NG
        return self._cached("sums", (removal, threshold, quality, attrs), run)

    def _np(self, removal: bool, gcode: np.ndarray, G: int) -> np.ndarray:
        T = self._tables[removal]
        k = T.pred_cls < self.C
        idx = (T.pred_sub[k].astype(np.int64) * G + gcode[T.pred_essay[k]]) * self.C + T.pred_cls[k]
        return np.bincount(idx, minlength=self.S * G * self.C).reshape(self.S, G, self.C).astype(float)

    @staticmethod
    def _f1(w, M, Sq, Sd, NP, NG):
        """Mean F1 over classes present in the ground truth, along the last axis."""
        tp = w * Sq + (1 - w) * Sd
        fp = NP - M
        fn = NG - tp
        denom = tp + 0.5 * (fp + fn)
        f1 = np.divide(tp, denom, out=np.zeros_like(tp), where=denom > 0)
        present = NG > 0
        return (f1 * present).sum(axis=-1) / np.maximum(present.sum(axis=-1), 1)

    def _segment_and_groups(self, w, quality, threshold, attrs, removal):
        M, Sq, Sd, NP, NG = self._sums(removal, threshold, quality, attrs)
        seg = self._f1(w, M.sum(1), Sq.sum(1), Sd.sum(1), NP.sum(1), NG.sum(0))
        grp = self._f1(w, M, Sq, Sd, NP, NG[None, :, :])
        return seg, grp

    def group_scores(self, *, w=0.5, quality="iou", threshold=0.51, attributes=(), overlap_removal=True) -> GroupScores:
        """Segment score of every submission on every group of ``attributes`` (SPEC §4)."""
        w, quality, threshold = check_segment_params(w, quality, threshold)
        attrs = self._attributes(attributes)
        _, grp = self._segment_and_groups(w, quality, threshold, attrs, bool(overlap_removal))
        _, labels, sizes = self.groups(attrs)
        return GroupScores(pd.DataFrame(grp, index=pd.Index(self.names, name="submission"), columns=labels),
                           pd.Series(sizes, index=labels, name="essays"), labels)

    def leaderboard(self, *, w=0.5, quality="iou", threshold=0.51, alpha=50.0, attributes=(),
                    band=0.05, max_boost=0.05, window=0.2, overlap_removal=True) -> pd.DataFrame:
        """The five-stage leaderboard (SPEC §6) as a DataFrame; see ``LEADERBOARD_COLUMNS``."""
        w, quality, threshold = check_segment_params(w, quality, threshold)
        alpha = check_alpha(alpha)
        attrs = self._attributes(attributes)
        band = check_nonneg("band", band)
        max_boost = check_nonneg("max_boost", max_boost)
        window = check_nonneg("window", window, positive=True)
        removal = bool(overlap_removal)

        seg, grp = self._segment_and_groups(w, quality, threshold, attrs, removal)
        if attrs:
            _, labels, sizes = self.groups(attrs)
            bias, _ = softmin_matrix(grp, sizes, alpha)
        else:
            labels, bias = [], seg
        eligible, boost = boost_arrays(bias, self.runtime, band, max_boost, window)
        final = bias * (1 + boost)
        data = {
            "submission": self.names,
            "fp1": self.fp1, "fp1_rank": rank_scores(self.fp1),
            "overlap_removed": self.fp1_removed, "overlap_removed_rank": rank_scores(self.fp1_removed),
            "segment_score": seg, "segment_score_rank": rank_scores(seg),
            "bias_score": bias, "bias_score_rank": rank_scores(bias),
            "eligible": eligible, "boost": boost, "final_score": final, "rank": rank_scores(final),
        }
        for j, lab in enumerate(labels):
            data[lab] = grp[:, j]
        df = pd.DataFrame(data)
        return df.sort_values(["rank", "submission"], kind="stable").reset_index(drop=True)
