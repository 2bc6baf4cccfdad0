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

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.cache import LRU
from ..core.family import UnitStats
from ..core.ranking import rank
from .aggregate import softmin_matrix
from .competition import Competition
from .data import MISSING
from .efficiency import boost_arrays
from .matching import fractional_tp_values, match, overlaps, quality_values, selection_key
from .params import DEFAULTS, LEADERBOARD_COLUMNS, PARAMS  # noqa: F401  (re-exported)


@dataclass
class GroupScores:
    """Per-group segment scores: ``scores`` (submission × group label), ``sizes`` (essays)."""

    scores: pd.DataFrame
    sizes: pd.Series
    labels: list[str]


CACHE_SIZES = {"match": 8, "sums": 32, "np": 8, "groups": 32}


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
        self._caches = {level: LRU(size) for level, size in CACHE_SIZES.items()}

    def cache_info(self) -> dict[str, dict[str, int]]:
        """Hits, misses and entries per cache level (``match``, ``sums``, ``np``, ``groups``)."""
        return {level: c.info() for level, c in self._caches.items()}

    def _cached(self, level: str, key, fn):
        return self._caches[level].get(key, fn)

    # ---- parameter validation ------------------------------------------------------------
    def check(self, **params) -> dict:
        """Validated, complete parameters (defaults filled in); attributes must be columns of
        the loaded demographics."""
        if isinstance(params.get("attributes"), str):
            params["attributes"] = [a for a in params["attributes"].split(",") if a.strip()]
        if params.get("attributes") is None:
            params["attributes"] = ()
        return PARAMS.validate(params, context={"attributes": self.comp.attributes})

    def _attributes(self, attributes) -> tuple[str, ...]:
        return self.check(attributes=attributes)["attributes"]

    # ---- stages --------------------------------------------------------------------------
    def groups(self, attributes: Sequence[str] = (), exclude_missing: bool = False
               ) -> tuple[np.ndarray, list[str], np.ndarray]:
        """(group code per essay, group labels, group sizes) for the cross product of ``attributes``.

        With ``exclude_missing`` an essay without a value for a chosen attribute is in no group:
        its code is ``len(labels)``, one past the last group (it still counts in the segment score).
        """
        attrs = self._attributes(attributes)
        excl = bool(exclude_missing) and bool(attrs)
        return self._cached("groups", (attrs, excl), lambda: self._groups(attrs, excl))

    def _groups(self, attrs, excl=False):
        if not attrs:
            return np.zeros(self.E, dtype=np.int64), ["all essays"], np.array([self.E])
        demo = self.comp.demographics
        # a group is a tuple of values (never its label text: "a=1 & b=2" can be spelled by
        # two different tuples); groups are ordered by their values, attribute by attribute
        values = [demo[a].fillna(MISSING).astype(str).to_numpy() for a in attrs]
        keep = ~np.any([v == MISSING for v in values], axis=0) if excl else np.ones(self.E, dtype=bool)
        parts = [pd.factorize(v, sort=True) for v in values]
        combo = np.zeros(self.E, dtype=np.int64)
        for codes, uniques in parts:
            combo = combo * len(uniques) + codes
        used, kept_codes = np.unique(combo[keep], return_inverse=True)
        codes = np.full(self.E, len(used), dtype=np.int64)
        codes[keep] = kept_codes.ravel()
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
        return codes, labels, np.bincount(codes[keep], minlength=len(used))

    def _overlaps(self, removal: bool):
        T, gsize = self._tables[removal], self.comp.gt.segs.size
        return overlaps(T.inter, T.pred_size[T.p], gsize[T.g])

    def matched(self, removal: bool, threshold: float, quality: str) -> np.ndarray:
        """Positions of the matched pairs in ``comp.tables[removal]`` (cached)."""
        return self._matched(bool(removal), float(threshold), "iou" if quality == "iou" else "max")

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

    def _sums(self, removal: bool, threshold: float, quality: str, attrs: tuple[str, ...], excl: bool = False):
        """Arrays (S, G, C): matched M, Σquality, Σprobability, predictions NP; and NG (G, C).
        With ``excl`` G has one more slot, last, for the essays left out of the groups."""
        order_key = "iou" if quality == "iou" else "max"

        def run():
            T = self._tables[removal]
            m = self._matched(removal, threshold, order_key)
            gcode, labels, _ = self.groups(attrs, excl)
            G, C, S = len(labels) + int(excl), self.C, self.S
            size = S * G * C
            pm = T.p[m]
            idx = (T.pred_sub[pm].astype(np.int64) * G + gcode[T.pred_essay[pm]]) * C + T.pred_cls[pm]
            inter = T.inter[m]
            psize, gsize = T.pred_size[pm], self.comp.gt.segs.size[T.g[m]]
            q = quality_values(quality, *overlaps(inter, psize, gsize))
            M = np.bincount(idx, minlength=size).reshape(S, G, C).astype(float)
            Sq = np.bincount(idx, weights=q, minlength=size).reshape(S, G, C)
            Sd = np.bincount(idx, weights=T.d[m], minlength=size).reshape(S, G, C)
            NP = self._cached("np", (removal, attrs, excl), lambda: self._np(removal, gcode, G))
            NG = np.bincount(gcode[self._gt_essay] * C + self._gt_cls, minlength=G * C).reshape(G, C).astype(float)
            return M, Sq, Sd, NP, NG
        return self._cached("sums", (removal, threshold, quality, attrs, excl), run)

    def _np(self, removal: bool, gcode: np.ndarray, G: int) -> np.ndarray:
        T = self._tables[removal]
        k = T.pred_cls < self.C
        idx = (T.pred_sub[k].astype(np.int64) * G + gcode[T.pred_essay[k]]) * self.C + T.pred_cls[k]
        return np.bincount(idx, minlength=self.S * G * self.C).reshape(self.S, G, self.C).astype(float)

    def _segment_and_groups(self, w, quality, threshold, attrs, removal, excl=False):
        M, Sq, Sd, NP, NG = self._sums(removal, threshold, quality, attrs, excl)
        return segment_and_group_scores(w, M, Sq, Sd, NP, NG)

    def group_scores(self, *, w=0.5, quality="iou", threshold=0.51, attributes=(), overlap_removal=True,
                     exclude_missing=False) -> GroupScores:
        """Segment score of every submission on every group of ``attributes`` (SPEC §4)."""
        p = self.check(w=w, quality=quality, threshold=threshold, attributes=attributes,
                       overlap_removal=overlap_removal, exclude_missing=exclude_missing)
        attrs, excl = p["attributes"], p["exclude_missing"] and bool(p["attributes"])
        _, grp = self._segment_and_groups(p["w"], p["quality"], p["threshold"], attrs, p["overlap_removal"], excl)
        _, labels, sizes = self.groups(attrs, excl)
        grp = grp[:, :len(labels)]
        return GroupScores(pd.DataFrame(grp, index=pd.Index(self.names, name="submission"), columns=labels),
                           pd.Series(sizes, index=labels, name="essays"), labels)

    def leaderboard(self, **params) -> pd.DataFrame:
        """The five-stage leaderboard (SPEC §6) as a DataFrame: ``LEADERBOARD_COLUMNS`` plus one
        column per group score. Keyword arguments: ``w, quality, threshold, alpha, attributes,
        band, max_boost, window, overlap_removal`` (defaults: :data:`DEFAULTS`)."""
        p = self.check(**params)
        attrs, excl = p["attributes"], p["exclude_missing"] and bool(p["attributes"])
        M, Sq, Sd, NP, NG = self._sums(p["overlap_removal"], p["threshold"], p["quality"], attrs, excl)
        _, labels, sizes = self.groups(attrs, excl)
        attrs = attrs if len(labels) else ()  # every essay left out: no groups, as without attributes
        st = stage_scores(M, Sq, Sd, NP, NG, sizes, self.runtime, grouped=bool(attrs), **_agg(p))
        data = {
            "submission": self.names,
            "fp1": self.fp1, "fp1_rank": rank(self.fp1),
            "overlap_removed": self.fp1_removed, "overlap_removed_rank": rank(self.fp1_removed),
            "segment_score": st["segment_score"], "segment_score_rank": rank(st["segment_score"]),
            "bias_score": st["bias_score"], "bias_score_rank": rank(st["bias_score"]),
            "eligible": st["eligible"], "boost": st["boost"], "final_score": st["final_score"],
            "rank": rank(st["final_score"]),
        }
        if attrs:
            for j, lab in enumerate(labels):
                data[lab] = st["groups"][:, j]
        df = pd.DataFrame(data)
        return df.sort_values(["rank", "submission"], kind="stable").reset_index(drop=True)

    def warnings(self, *, min_group: int = 30, share: float = 1 / 3, **params) -> list[str]:
        """Where a conclusion at these parameters is fragile (``guardrails.group_warnings``): a
        group under ``min_group`` essays carrying more than ``share`` of a team's weight."""
        from .guardrails import group_warnings

        return group_warnings(self, min_group=min_group, share=share, **params)

    # ---- per-unit statistics ---------------------------------------------------------------
    def unit_stats(self, **params) -> UnitStats:
        """What every submission earned on every essay, as additive sums (see :class:`UnitStats`).

        Per (essay, submission, class): matched pairs M, Σquality, Σprobability and
        predictions NP (``team``, k = 4 × classes); per (essay, class) the ground truths NG and
        a 1 that counts the essay (``shared``). An essay's cell is its demographic group, so
        :meth:`UnitStats.scores` gives every stage from ``segment_score`` on, exactly as
        :meth:`leaderboard` does.
        """
        p = self.check(**params)
        attrs, removal = p["attributes"], p["overlap_removal"]
        excl = p["exclude_missing"] and bool(attrs)
        T = self._tables[removal]
        m = self.matched(removal, p["threshold"], p["quality"])
        S, E, C = self.S, self.E, self.C
        pm = T.p[m]
        idx = (T.pred_essay[pm].astype(np.int64) * S + T.pred_sub[pm]) * C + T.pred_cls[pm]
        q = quality_values(p["quality"], *overlaps(T.inter[m], T.pred_size[pm], self.comp.gt.segs.size[T.g[m]]))
        size = E * S * C
        k = T.pred_cls < C
        pidx = (T.pred_essay[k].astype(np.int64) * S + T.pred_sub[k]) * C + T.pred_cls[k]
        team = np.empty((E, S, 4, C))
        team[:, :, 0] = np.bincount(idx, minlength=size).reshape(E, S, C)
        team[:, :, 1] = np.bincount(idx, weights=q, minlength=size).reshape(E, S, C)
        team[:, :, 2] = np.bincount(idx, weights=T.d[m], minlength=size).reshape(E, S, C)
        team[:, :, 3] = np.bincount(pidx, minlength=size).reshape(E, S, C)
        ng = np.bincount(self._gt_essay * C + self._gt_cls, minlength=E * C).reshape(E, C)
        shared = np.concatenate((ng, np.ones((E, 1))), axis=1)
        gcode, labels, _ = self.groups(attrs, excl)
        agg, runtime, grouped, n_groups = _agg(p), self.runtime, bool(attrs) and bool(labels), len(labels)

        def score(team_sums: np.ndarray, shared_sums: np.ndarray, teams=None) -> dict[str, np.ndarray]:
            g, s = team_sums.shape[-3], team_sums.shape[-2]
            t = np.swapaxes(team_sums, -3, -2).reshape(*team_sums.shape[:-3], s, g, 4, C)
            rt = runtime if teams is None else runtime[teams]  # the boost is relative to the field
            # the group sizes: essays per cell, the left-out slot (the last, with excl) dropped
            return stage_scores(t[..., 0, :], t[..., 1, :], t[..., 2, :], t[..., 3, :], shared_sums[..., :C],
                                shared_sums[..., :n_groups, C], rt, grouped=grouped, **agg)

        return UnitStats(units=list(self.comp.gt.essays), cell=gcode, n_cells=len(labels) + int(excl),
                         team=team.reshape(E, S, 4 * C), shared=shared, score=score, final="final_score",
                         names=list(self.names))


def _agg(p: dict) -> dict:
    return {k: p[k] for k in ("w", "alpha", "band", "max_boost", "window")}


def _f1(w, M, Sq, Sd, NP, NG):
    """Mean F1 over the classes present in the ground truth, along the last axis."""
    tp = fractional_tp_values(w, Sq, Sd)
    fp = NP - M
    fn = NG - tp
    denom = tp + 0.5 * (fp + fn)
    f1 = np.divide(tp, denom, out=np.zeros_like(tp), where=denom > 0)
    present = NG > 0
    return (f1 * present).sum(axis=-1) / np.maximum(present.sum(axis=-1), 1)


def segment_and_group_scores(w, M, Sq, Sd, NP, NG) -> tuple[np.ndarray, np.ndarray]:
    """Segment score (…, S) and group scores (…, S, G) from sums (…, S, G, C) and NG (…, G, C)."""
    NG = np.broadcast_to(NG[..., None, :, :], M.shape)
    seg = _f1(w, M.sum(-2), Sq.sum(-2), Sd.sum(-2), NP.sum(-2), NG.sum(-2))
    return seg, _f1(w, M, Sq, Sd, NP, NG)


def stage_scores(M, Sq, Sd, NP, NG, sizes, runtime, *, w, alpha, band, max_boost, window,
                 grouped: bool) -> dict[str, np.ndarray]:
    """Stages 3–5 from summed statistics — the one function from sums to scores.

    ``M, Sq, Sd, NP`` (…, S, G, C): matched pairs, Σquality, Σprobability and predictions of
    each submission, group and class; ``NG`` (…, G, C) ground truths; ``sizes`` (…, G) essays
    per group (the sums may carry one more slot, last, for essays left out of the groups: it
    counts in the segment score only); ``runtime`` (S) seconds (NaN: none). Per class
    ``F1 = TP / (TP + ½(FP + FN))`` with ``TP = w·Σq + (1 − w)·Σd``, ``FP = NP − M``,
    ``FN = NG − TP``; the segment score is the mean over the classes present in the ground
    truth; the bias score the softmin of the group scores (SPEC §4); then the boost (§5).
    """
    seg, grp = segment_and_group_scores(w, M, Sq, Sd, NP, NG)
    grp = grp[..., :np.shape(sizes)[-1]]  # a last slot beyond the groups holds essays left out of them
    if grouped:
        bias, _ = softmin_matrix(grp, np.asarray(sizes, dtype=float)[..., None, :], alpha)
        bias = bias.reshape(seg.shape)
    else:
        bias = seg
    eligible, boost = boost_arrays(bias, runtime, band, max_boost, window)
    return {"segment_score": seg, "groups": grp, "bias_score": bias, "eligible": eligible, "boost": boost,
            "final_score": bias * (1 + boost)}
