"""The five-stage leaderboard (SPEC §6), built so that a slider move only re-aggregates.

What no parameter changes was computed at load: every submission's overlapping (prediction,
ground truth) pairs with their intersection sizes and effectiveness probabilities, before and
after overlap removal (in the competition's table store), and both FP1 scores. A call to
:meth:`Scorer.leaderboard` then

1. matches the candidate pairs for (threshold, matching order, overlap removal), one
   submission at a time, streamed from the table store — cached as a bit mask per submission;
2. sums, per (submission, group, class), matched pairs, Σquality, Σprobability and
   predictions — cached per (1, quality, attributes);
3. turns the sums into F1 for the given ``w`` (linear in ``w``), softmin over groups for
   ``alpha`` and the boost — microseconds, whatever the number of submissions.

Steps 1–2 report ``progress(done, total, name)`` per submission (``Scorer(comp,
progress=…)``, or ``progress=`` on a call) — at thousands of submissions a threshold change
takes seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core.cache import LRU, nbytes
from ..core.family import Box, UnitStats
from ..core.params import Params
from ..core.ranking import rank
from .aggregate import softmin_matrix, softmin_range
from .competition import Competition
from .data import MISSING
from .efficiency import boost_arrays
from .matching import fractional_tp_values
from .params import DEFAULTS, LEADERBOARD_COLUMNS, PARAMS  # noqa: F401  (re-exported)
from .rematch import GtArrays, Job, np_of, run, sums_of, unpack_mask


@dataclass
class GroupScores:
    """Per-group segment scores: ``scores`` (submission × group label), ``sizes`` (essays)."""

    scores: pd.DataFrame
    sizes: pd.Series
    labels: list[str]


CACHE_SIZES = {"match": 8, "sums": 32, "np": 8, "groups": 32}
CACHE_BYTES = 256 << 20  # per level: matchings of thousands of submissions are tens of MB each

Progress = Callable[[int, int, str], None]


class Scorer:
    """Precomputes a competition so that :meth:`leaderboard` is cheap (see module doc).

    ``progress(done, total, name)``, when given, is called per submission while a call
    re-matches or re-sums (a threshold, quality, attribute or overlap-removal change);
    ``workers`` processes do that for competitions whose tables are on disk (default: every
    core)."""

    def __init__(self, competition: Competition, *, progress: Progress | None = None, workers: int | None = None):
        self.comp = competition
        gt = competition.gt
        self.names = competition.submission_names
        self.S = len(self.names)
        self.C = len(gt.classes)
        self.E = len(gt.essays)
        self.progress = progress
        self.workers = workers
        self._gt = GtArrays(gt.segs.size, gt.segs.wmin, gt.segs.row)
        self.fp1 = np.array([p.fp1 for p in competition.prepared], dtype=float)
        self.fp1_removed = np.array([p.overlap_removed for p in competition.prepared], dtype=float)
        self.runtime = np.array([competition.runtimes.get(n, np.nan) for n in self.names], dtype=float)
        self._gt_essay = gt.segs.essay
        self._gt_cls = gt.segs.cls
        # one LRU per level, so cheap entries never push out a matching (the costly level)
        self._caches = {level: LRU(size, max_bytes=CACHE_BYTES, weigh=nbytes) for level, size in CACHE_SIZES.items()}

    def cache_info(self) -> dict[str, dict[str, int]]:
        """Hits, misses and entries per cache level (``match``, ``sums``, ``np``, ``groups``)."""
        return {level: c.info() for level, c in self._caches.items()}

    def _cached(self, level: str, key, fn):
        return self._caches[level].get(key, fn)

    # ---- parameter validation ------------------------------------------------------------
    def check(self, p: Mapping[str, Any] | None = None, /, **params) -> Params:
        """Validated, complete parameters (defaults filled in; :class:`~scoring.core.params.Params`);
        attributes must be columns of the loaded demographics. ``p``: parameters as one mapping
        (those this scorer already checked are returned as they are), ``params`` by name."""
        if isinstance(p, Params) and not params:
            return PARAMS.validate(p, context={"attributes": self.comp.attributes})
        params = {**(p or {}), **params}
        if isinstance(params.get("attributes"), str):
            params["attributes"] = [a for a in params["attributes"].split(",") if a.strip()]
        if params.get("attributes") is None:
            params["attributes"] = ()
        return PARAMS.validate(params, context={"attributes": self.comp.attributes})

    def _attributes(self, attributes) -> tuple[str, ...]:
        known = self.comp.attributes
        if isinstance(attributes, tuple) and len(set(attributes)) == len(attributes) and all(
                isinstance(a, str) and a in known for a in attributes):
            return attributes  # as checked parameters hold them: nothing to normalise
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

    def _lookup(self, level: str, key):
        """A cached entry, or None (counted as a miss: the caller computes it)."""
        cache = self._caches[level]
        val = cache.peek(key)
        if val is None:
            cache.misses += 1
        return val

    def _pass(self, removal: bool, threshold: float, order_key: str, quality: str | None,
              attrs: tuple[str, ...] | None, progress: Progress | None, excl: bool = False):
        """One streaming pass over the submissions for what is not cached: the matching at
        (removal, threshold, order), and the sums and prediction counts of ``attrs``. With
        ``excl`` the groups have one more slot, last, for the essays left out of them."""
        masks = self._lookup("match", (removal, threshold, order_key))
        gcode, labels, _ = self.groups(attrs or (), excl)
        G = len(labels) + int(excl)
        NP = self._lookup("np", (removal, attrs, excl)) if attrs is not None else None
        want_np = attrs is not None and NP is None
        job = Job(self._gt, removal, threshold, order_key, quality, gcode, G, self.C, want_np)
        if masks is not None and quality is None and not want_np:
            return masks, None, None, NP
        res = run(self.comp, job, masks, progress or self.progress, self.workers)
        if masks is None:
            masks = [r.mask for r in res]
            self._caches["match"].put((removal, threshold, order_key), masks)
        sums = (np.stack([r.sums for r in res]).reshape(self.S, 3, G, self.C) if res else np.zeros((0, 3, G, self.C))
                ) if quality is not None else None
        if want_np:
            NP = np.stack([r.np_ for r in res]).reshape(self.S, G, self.C) if res else np.zeros((0, G, self.C))
            self._caches["np"].put((removal, attrs, excl), NP)
        return masks, sums, gcode, NP

    def _masks(self, removal: bool, threshold: float, order_key: str, progress: Progress | None = None) -> list:
        masks = self._caches["match"].peek((removal, threshold, order_key))
        return masks if masks is not None else self._pass(removal, threshold, order_key, None, None, progress)[0]

    def matched(self, k: int, removal: bool, threshold: float, quality: str) -> np.ndarray:
        """Positions of submission ``k``'s matched pairs in ``comp.tables(k, removal)`` (cached)."""
        masks = self._masks(bool(removal), float(threshold), "iou" if quality == "iou" else "max")
        return unpack_mask(masks[k], self.comp.tables(k, bool(removal)).n_pairs)

    def _sums(self, removal: bool, threshold: float, quality: str, attrs: tuple[str, ...], excl: bool = False,
              progress: Progress | None = None):
        """Arrays (S, G, C): matched M, Σquality, Σprobability, predictions NP; and NG (G, C).
        With ``excl`` G has one more slot, last, for the essays left out of the groups."""
        key = (removal, threshold, quality, attrs, excl)
        hit = self._caches["sums"].peek(key)
        if hit is not None:
            return hit
        self._caches["sums"].misses += 1
        order_key = "iou" if quality == "iou" else "max"
        _, sums, gcode, NP = self._pass(removal, threshold, order_key, quality, attrs, progress, excl)
        C = self.C
        M, Sq, Sd = sums[:, 0], sums[:, 1], sums[:, 2]
        G = M.shape[1]
        NG = np.bincount(gcode[self._gt_essay] * C + self._gt_cls, minlength=G * C).reshape(G, C).astype(float)
        out = (np.ascontiguousarray(M), np.ascontiguousarray(Sq), np.ascontiguousarray(Sd), NP, NG)
        self._caches["sums"].put(key, out)
        return out

    def _segment_and_groups(self, w, quality, threshold, attrs, removal, excl=False, progress=None):
        M, Sq, Sd, NP, NG = self._sums(removal, threshold, quality, attrs, excl, progress)
        return segment_and_group_scores(w, M, Sq, Sd, NP, NG)

    def group_scores(self, params: Params | None = None, /,
                     *, w=0.5, quality="iou", threshold=0.51, attributes=(),
                     overlap_removal=True, exclude_missing=False, progress: Progress | None = None) -> GroupScores:
        """Segment score of every submission on every group of ``attributes`` (SPEC §4); given
        checked parameters (``params``) it reads those six from them."""
        p = self.check(params) if isinstance(params, Params) else self.check(
            w=w, quality=quality, threshold=threshold, attributes=attributes, overlap_removal=overlap_removal,
            exclude_missing=exclude_missing)
        attrs, excl = p["attributes"], p["exclude_missing"] and bool(p["attributes"])
        _, grp = self._segment_and_groups(p["w"], p["quality"], p["threshold"], attrs, p["overlap_removal"], excl,
                                          progress)
        _, labels, sizes = self.groups(attrs, excl)
        grp = grp[:, :len(labels)]
        return GroupScores(pd.DataFrame(grp, index=pd.Index(self.names, name="submission"), columns=labels),
                           pd.Series(sizes, index=labels, name="essays"), labels)

    def leaderboard(self, p: Mapping[str, Any] | None = None, /, **params) -> pd.DataFrame:
        """The five-stage leaderboard (SPEC §6) as a DataFrame: ``LEADERBOARD_COLUMNS`` plus one
        column per group score. Keyword arguments: ``w, quality, threshold, alpha, attributes,
        band, max_boost, window, overlap_removal`` (defaults: :data:`DEFAULTS`), and ``progress``
        (``progress(done, total, name)`` per submission while re-matching; default the scorer's);
        or the parameters as one mapping ``p`` (checked ones are not checked again)."""
        progress = params.pop("progress", None)
        st, labels, attrs = self._stages(self.check(p, **params), progress)
        data = {
            "submission": self.names,
            "fp1": self.fp1, "fp1_rank": rank(self.fp1),
            "overlap_removed": self.fp1_removed, "overlap_removed_rank": rank(self.fp1_removed),
            "segment_score": st["segment_score"], "segment_score_rank": rank(st["segment_score"]),
            "bias_score": st["bias_score"], "bias_score_rank": rank(st["bias_score"]),
            "eligible": st["eligible"], "boost": st["boost"], "final_score": st["final_score"],
            "rank": rank(st["final_score"]),
        }
        df = pd.DataFrame(data)
        if attrs:  # the group scores as one block (teams × groups), not one array per column
            df = pd.concat([df, pd.DataFrame(st["groups"][:, :len(labels)], columns=labels)], axis=1)
        return df.sort_values(["rank", "submission"], kind="stable").reset_index(drop=True)

    def final_ranks(self, p: Mapping[str, Any] | None = None, /, **params) -> np.ndarray:
        """The final rank of every submission, in the order of :attr:`names`: the leaderboard's
        ``rank`` column without building the leaderboard (a stability map asks for it in each of
        its cells). Keyword arguments as for :meth:`leaderboard`."""
        progress = params.pop("progress", None)
        return rank(self._stages(self.check(p, **params), progress)[0]["final_score"])

    def _stages(self, p: Params, progress: Progress | None):
        """(stage scores, group labels, attributes in effect) at the checked parameters ``p``."""
        attrs, excl = p["attributes"], p["exclude_missing"] and bool(p["attributes"])
        M, Sq, Sd, NP, NG = self._sums(p["overlap_removal"], p["threshold"], p["quality"], attrs, excl, progress)
        _, labels, sizes = self.groups(attrs, excl)
        attrs = attrs if len(labels) else ()  # every essay left out: no groups, as without attributes
        return stage_scores(M, Sq, Sd, NP, NG, sizes, self.runtime, grouped=bool(attrs), **_agg(p)), labels, attrs

    def warnings(self, p: Mapping[str, Any] | None = None, /, *, min_group: int = 30, share: float = 1 / 3,
                 **params) -> list[str]:
        """Where a conclusion at these parameters is fragile (``guardrails.group_warnings``): a
        group under ``min_group`` essays carrying more than ``share`` of a team's weight."""
        from .guardrails import group_warnings

        return group_warnings(self, self.check(p, **params), min_group=min_group, share=share)

    def letter_warnings(self, iv, p: Mapping[str, Any] | None = None, /, **params) -> list[str]:
        """Where the letters of ``iv`` (``scoring.core.robustness.bootstrap`` at these parameters)
        can hide a real gap (``guardrails.letter_warnings``): two teams sharing a letter although
        one is 5 or more paired SEs ahead on the segment score (with groups)."""
        from .guardrails import letter_warnings

        return letter_warnings(self, iv, self.check(p, **params))

    # ---- per-unit statistics ---------------------------------------------------------------
    def unit_stats(self, p: Mapping[str, Any] | None = None, /, **params) -> UnitStats:
        """What every submission earned on every essay, as additive sums (see :class:`UnitStats`).

        Per (essay, submission, class): matched pairs M, Σquality, Σprobability and
        predictions NP (``team``, k = 4 × classes); per (essay, class) the ground truths NG and
        a 1 that counts the essay (``shared``). An essay's cell is its demographic group, so
        :meth:`UnitStats.scores` gives every stage from ``segment_score`` on, exactly as
        :meth:`leaderboard` does. ``team`` is dense: essays × submissions × 4 × classes floats
        (2.3 MB per submission at the Feedback Prize scale, 4.6 GB for 2,000), filled one
        submission at a time from the table store.
        """
        progress = params.pop("progress", None)
        p = self.check(p, **params)
        attrs, removal = p["attributes"], p["overlap_removal"]
        excl = p["exclude_missing"] and bool(attrs)
        masks = self._masks(removal, p["threshold"], "iou" if p["quality"] == "iou" else "max", progress)
        S, E, C = self.S, self.E, self.C
        team = np.empty((E, S, 4, C))
        essay = np.arange(E)  # each essay its own group
        for k in range(S):  # one submission at a time, streamed from the table store
            T = self.comp.tables(k, removal)
            sums = sums_of(T, unpack_mask(masks[k], T.n_pairs), p["quality"], essay, E, C, self._gt.size)
            team[:, k, :3] = sums.reshape(3, E, C).transpose(1, 0, 2)
            team[:, k, 3] = np_of(T, essay, E, C).reshape(E, C)
        ng = np.bincount(self._gt_essay * C + self._gt_cls, minlength=E * C).reshape(E, C)
        shared = np.concatenate((ng, np.ones((E, 1))), axis=1)
        gcode, labels, _ = self.groups(attrs, excl)
        agg, runtime, grouped, n_groups = _agg(p), self.runtime, bool(attrs) and bool(labels), len(labels)

        def score(team_sums: np.ndarray, shared_sums: np.ndarray, teams=None) -> dict[str, np.ndarray]:
            g, s = team_sums.shape[-3], team_sums.shape[-2]
            t = np.swapaxes(team_sums, -3, -2).reshape(*team_sums.shape[:-3], s, g, 4, C)
            # the four sums apart, each contiguous (…, S, G, C): one copy, then every step of
            # the scoring runs over plain arrays instead of strided views
            M, Sq, Sd, NP = np.ascontiguousarray(np.moveaxis(t, -2, 0))
            rt = runtime if teams is None else runtime[teams]  # the boost is relative to the field
            # the group sizes: essays per cell, the left-out slot (the last, with excl) dropped
            return stage_scores(M, Sq, Sd, NP, shared_sums[..., :C], shared_sums[..., :n_groups, C], rt,
                                grouped=grouped, **agg)

        box = softmin_box(np.bincount(gcode, minlength=n_groups)[:n_groups], agg["alpha"]) if grouped else None
        return UnitStats(units=list(self.comp.gt.essays), cell=gcode, n_cells=len(labels) + int(excl),
                         team=team.reshape(E, S, 4 * C), shared=shared, score=score, final="final_score",
                         names=list(self.names), box=box, pooled="segment_score" if grouped else None)


#: the score interval with groups (``UnitStats.box``; docs/robustness.md, "Score intervals")
BOX_WORDS = ("the lowest to the highest bias-aware score (times the team's boost) over an interval of its group "
             "scores that holds them all together in {pct} of the replicates")


def softmin_box(sizes, alpha: float) -> Box:
    """The score interval with groups (:class:`~scoring.core.family.Box`): the bias-aware score is the
    softmin of the ``groups`` stage (essays per group ``sizes``, the softmin's ``alpha``), so its range
    over the groups' joint band is :func:`~scoring.shovel_ready.aggregate.softmin_range`, times each
    team's boost on the data (``1 + boost``: the boost is held as it is on the test set); with a group
    under ``guardrails.MIN_GROUP`` essays, its ``note`` (``guardrails.interval_note``)."""
    from .guardrails import interval_note

    n = np.asarray(sizes, dtype=float)

    def bounds(low, high, full):
        lo, hi = softmin_range(low, high, n, alpha)
        up = 1 + np.asarray(full["boost"], dtype=float)
        return lo * up, hi * up

    return Box("groups", bounds, BOX_WORDS, interval_note(int(n.min()) if len(n) else 0, int(n.sum())))


def _agg(p: dict) -> dict:
    return {k: p[k] for k in ("w", "alpha", "band", "max_boost", "window")}


def _f1(w, M, Sq, Sd, NP, NG):
    """Mean F1 over the classes present in the ground truth, along the last axis. ``NG`` may
    lack the submissions' axis (it broadcasts): what depends on it alone is computed once."""
    tp = fractional_tp_values(w, Sq, Sd)
    fp = NP - M
    fn = NG - tp
    denom = fp
    denom += fn
    denom *= 0.5
    denom += tp  # tp + ½(fp + fn), in place
    f1 = np.divide(tp, denom, out=np.zeros_like(tp), where=denom > 0)
    present = NG > 0
    f1 *= present
    return f1.sum(axis=-1) / np.maximum(present.sum(axis=-1), 1)


def segment_and_group_scores(w, M, Sq, Sd, NP, NG) -> tuple[np.ndarray, np.ndarray]:
    """Segment score (…, S) and group scores (…, S, G) from sums (…, S, G, C) and NG (…, G, C)."""
    NG = np.asarray(NG)[..., None, :, :]  # (…, 1, G, C): the same for every submission
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
