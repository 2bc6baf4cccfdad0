"""The difficulty-weighted leaderboard, built so that a slider move only re-aggregates.

For each ease *source* — a samples column (WSBias, WOOD), the similarity to the training
texts for one top-k (WOOD from ``--train``), or the models' confidence (WMProb, one order
per model) — the samples are sorted once, highest ease first, and kept with every model's
correctness in that order and its running count (:class:`Ordered`, cached). A parameter
change then only finds the split boundaries (``equal``: arithmetic; ``threshold``: a binary
search per threshold) and reads counts at them: O(models × splits). Scaled rewards and
continuous weights add one pass of sums over the ordered masses (:mod:`.metric`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from ..core.cache import LRU
from ..core.errors import InputError
from ..core.family import UnitStats
from ..core.params_typed import given
from ..core.ranking import rank
from .data import Competition
from .metric import (
    difficulty_factor,
    eq4,
    equal_bounds,
    threshold_bounds,
    unit_scale,
    weighted_sums,
)
from .params import PARAMS, Setting, resolve
from .sorting import argsort_rows, sort_rows

TIE = 1e-9  # spec §3: scores within 1e-9 share a rank


@dataclass
class Ordered:
    """The samples of one ease source in order, highest E first (ties: samples file order).

    ``order`` (R, m): the sample at each position, R = 1 (one order for every model) or the
    number of models (WMProb); ``neg`` (R, m): −E there (ascending), or None when ``factor``
    (R, m; 1/max(E, δ) or E) is E itself, per model (one array the size of the predictions
    less to make); :meth:`threshold_bounds` reads either. Samples without E are left out (m ≤ N). Per model, ``correct`` (M, m)
    holds each model's correctness in its order and ``cum`` (M, m + 1) the running counts; an
    ease column's shared order keeps running counts too, so that a new split count or
    threshold is O(models × splits).
    """

    order: np.ndarray
    neg: np.ndarray | None
    factor: np.ndarray
    correct: np.ndarray | None = None
    cum: np.ndarray | None = None

    @property
    def m(self) -> int:
        return self.order.shape[1]

    @property
    def shared(self) -> bool:
        return self.order.shape[0] == 1

    def threshold_bounds(self, thresholds) -> np.ndarray:
        """:func:`.metric.threshold_bounds` of this order: from ``neg``, or from E descending
        (``factor``) when ``neg`` is None — ``#(E > t) = m − #(E ≤ t)``, counted in E
        reversed (ascending, a view), the same counts.

        >>> e = np.array([[0.9, 0.6, 0.4, 0.4, 0.1]])
        >>> Ordered(np.zeros((1, 5), int), None, e).threshold_bounds([0.4, 0.8]).tolist()
        [[0, 1, 2, 5]]
        """
        if self.neg is not None:
            return threshold_bounds(self.neg, thresholds)
        r, m = self.factor.shape
        t = np.asarray(thresholds, dtype=float)[::-1]  # t_{n−1}, …, t_1 descending
        inner = np.empty((r, len(t)), dtype=np.int64)
        for i in range(r):
            inner[i] = m - np.searchsorted(self.factor[i, ::-1], t, side="right")
        return np.concatenate((np.zeros((r, 1), np.int64), inner, np.full((r, 1), m, np.int64)), axis=1)

    def split_sums(self, bounds: np.ndarray, power: int, numbers):
        """(n, correct, U, U⁺), each (M, k), for boundaries (R, k + 1): samples, correct
        predictions, and the sums of u = factor ** power (0: u = 1) and of u·correct per split.

        A shared order puts each sample's split (and u) into an (N, k) matrix and multiplies
        the models' correctness (M, N) by it: one product per boundary change — in float32 for
        counts alone (exact for sums below 2**24), float64 with the masses; ``numbers`` holds
        them (``correct``, ``correct_f``, ``correct_32``: the scorer, made on first use). Per
        model, counts come from the running counts and masses from sums over the ordered u and
        u·correct, made a row at a time when asked (:meth:`_row_masses`)."""
        models, n_samples = numbers.correct.shape
        n = np.diff(np.broadcast_to(bounds, (models, bounds.shape[1])), axis=1)
        if self.shared:
            b = bounds[0]
            k = len(b) - 1
            split = np.repeat(np.arange(k), np.diff(b))
            if power == 0 and self.cum is not None:  # running counts (M, m + 1)
                correct = np.diff(self.cum[:, b], axis=1).astype(np.int64)
                return n, correct, n.astype(float), correct.astype(float)
            if power == 0:
                fast = numbers.correct_32 is not None
                z = np.zeros((n_samples, k), dtype=np.float32 if fast else float)
                z[self.order[0], split] = 1.0
                correct = np.rint((numbers.correct_32 if fast else numbers.correct_f) @ z).astype(np.int64)
                return n, correct, n.astype(float), correct.astype(float)
            u = self.factor[0] ** power
            z = np.zeros((n_samples, 2 * k))
            z[self.order[0], split] = 1.0
            z[self.order[0], k + split] = u
            both = numbers.correct_f @ z
            mass = np.bincount(split, weights=u, minlength=k)
            return n, np.rint(both[:, :k]).astype(np.int64), np.broadcast_to(mass, n.shape), both[:, k:]
        full = np.broadcast_to(bounds, n.shape[:1] + bounds.shape[1:])
        correct = np.diff(np.take_along_axis(self.cum, full, axis=1), axis=1).astype(np.int64)
        if power == 0:
            return n, correct, n.astype(float), correct.astype(float)
        return (n, correct) + self._row_masses(bounds, power)

    def _row_masses(self, bounds: np.ndarray, power: int) -> tuple[np.ndarray, np.ndarray]:
        """Per model (a row of the order), the sums of u = factor ** power and of u·correct over
        the ranges of ``bounds`` (1 or R rows): u and u·correct are made in two buffers of one
        row, never kept for the whole matrix (the sums are what a setting keeps: the scorer's
        cache). The same sums, bit for bit, as :func:`.metric.segment_sums` of the whole."""
        rows, m = self.factor.shape
        out, out_c = np.zeros((rows, bounds.shape[1] - 1)), np.zeros((rows, bounds.shape[1] - 1))
        u_row, uc_row = np.empty(m), np.empty(m)
        for i in range(rows):
            f = self.factor[i]
            u = f if power == 1 else np.multiply(f, f, out=u_row) if power == 2 else np.power(f, power, out=u_row)
            np.multiply(u, self.correct[i], out=uc_row)
            b = bounds[0] if bounds.shape[0] == 1 else bounds[i]
            keep = np.flatnonzero(np.diff(b) > 0)
            if len(keep):
                out[i, keep] = np.add.reduceat(u, b[keep])
                out_c[i, keep] = np.add.reduceat(uc_row, b[keep])
        return out, out_c


def order_samples(ease: np.ndarray, correct: np.ndarray, metric: str, *, order: np.ndarray | None = None,
                  counts: bool = False) -> Ordered:
    """Sort the samples by ``ease`` (1 × N, shared; or M × N, per model; NaN = left out)
    descending, stably. Per model, ``correct`` (M, N) is kept in order with its running
    counts; for a shared order, the running counts ``cum`` (M, m + 1) only when ``counts`` is
    true. ``order``: the shared order, when already known (NaN-free ease)."""
    if ease.shape[0] == 1:
        if order is not None:
            o = order
        else:
            valid = np.flatnonzero(~np.isnan(ease[0]))
            o = valid[np.argsort(-ease[0, valid], kind="stable")]
        out = Ordered(o[None, :], -ease[0, o][None, :], difficulty_factor(ease[0, o][None, :], metric))
        if counts:
            out.cum = np.zeros((correct.shape[0], len(o) + 1), dtype=np.int64 if len(o) >= 2**31 else np.int32)
            np.cumsum(np.take(correct, o, axis=1), axis=1, out=out.cum[:, 1:])
        return out
    order, e, corr, cum = sort_rows(ease, correct)
    f, neg = (e, None) if metric == "wmprob" else (difficulty_factor(e, metric), np.negative(e))
    return Ordered(order, neg, f, corr, cum)


@dataclass
class Sums:
    """Per model and split (M, k): samples ``n``, ``correct``, masses U and U⁺, and the Eq. 4
    sums (of the weights and (d, e) scaled by :func:`.metric.unit_scale`: every ratio as Eq. 4
    gives it); ``bounds`` (R, k + 1) the split boundaries in the source's order, ``weights``
    the split weights as given."""

    n: np.ndarray
    correct: np.ndarray
    mass: np.ndarray
    mass_correct: np.ndarray
    kw: np.ndarray
    dw: np.ndarray
    ew: np.ndarray
    bounds: np.ndarray
    weights: np.ndarray  # b_x (k,)


class Scorer:
    """Precomputes a competition so that :meth:`leaderboard` is cheap (see the module doc)."""

    def __init__(self, competition: Competition):
        self.comp = competition
        self.names = list(competition.submission_names)
        self.correct = competition.predictions.correct
        self.accuracy = self.correct.mean(axis=1)
        columns = competition.ease_columns
        self._sources = LRU(len(columns) + 8)
        self._splits = LRU(64)  # per (source, mass power, split boundaries): counts and masses
        # sorted before the first call: with a training file every top-k's order (the k slider
        # then only reads one), the models' confidence (WMProb, the default metric), every column
        sts = competition.sts
        self._sts_order = argsort_rows(-sts).astype(np.int32) if sts is not None else None
        self._no_value = {c for c in columns if np.isnan(competition.samples.ease[c]).all()}
        self.ordered(("confidence",))
        for c in columns:
            self.ordered(("column", c))

    @cached_property
    def correct_f(self) -> np.ndarray:
        """(M, N) correctness as floats: multiplied by a split matrix per boundary change of a
        top-k order, and for scaled sums over a shared order."""
        return self.correct.astype(float)

    @cached_property
    def correct_32(self) -> np.ndarray | None:
        """The same in float32 (counts alone: exact below 2**24 samples), or None."""
        return self.correct.astype(np.float32) if self.correct.shape[1] < 2**24 else None

    def cache_info(self) -> dict[str, int]:
        """Hits, misses and entries of the sorted ease sources (a miss sorts)."""
        return self._sources.info()

    def clear_cache(self, *, sources: bool = True) -> None:
        """Forget the per-split sums (and, with ``sources``, the top-k sources of a training
        file; the confidence and column orders sorted at start stay): memory back, or a cold
        start for a benchmark."""
        self._splits = LRU(self._splits.size)
        if sources:
            keep = {k: self._sources.items[k] for k in list(self._sources.items) if k[0] != "sts"}
            self._sources = LRU(self._sources.size)
            for k, v in keep.items():
                self._sources.get(k, lambda v=v: v)

    # ---- parameters ------------------------------------------------------------------------
    def check(self, p: Mapping[str, Any] | None = None, /, **params) -> dict:
        """Validated, complete parameters (defaults filled in)."""
        return PARAMS.validate(given(p, params), context={"ease_columns": self.comp.ease_columns})

    def setting(self, p: Mapping[str, Any] | None = None, /, **params) -> Setting:
        """The :class:`Setting` of ``params``, checked against the data: the ease column must be
        a numeric column of the samples (an error names the samples file and row) with a value
        somewhere, WOOD needs an ease column unless a training-text file was loaded, and every
        model must have a score (some sample in a split weighted above 0; issue 31: never a
        NaN score ranked)."""
        s = resolve(self.check(p, **params))
        if s.ease_column is not None:
            self.comp.samples.ease_values(s.ease_column)
            if s.ease_column in self._no_value:
                raise InputError(self.comp.samples.file, None, f"column {s.ease_column!r} is empty in every row, so "
                                 f"no sample has an ease value and no score can be computed with it as the ease "
                                 f"column")
        elif s.metric == "wood" and self.comp.sts is None:
            raise InputError("ease_column", None, "required with metric wood unless a training-text file is given "
                                                  "(--train)")
        t = self.sums(s)  # cached: the leaderboard reads the same sums
        missing = (t.dw.sum(axis=1) == 0) & (t.ew.sum(axis=1) == 0)  # Eq. 4 would be 0/0
        if missing.any():
            raise self._no_score(s, missing)
        return s

    @staticmethod
    def source_key(s: Setting) -> tuple:
        if s.metric == "wmprob":
            return ("confidence",)
        return ("column", s.ease_column) if s.ease_column is not None else ("sts", s.sts_top)

    def ease(self, key: tuple) -> np.ndarray:
        """E of every sample, (1, N) or per model (M, N); NaN = left out."""
        if key[0] == "confidence":
            return self.comp.predictions.confidence
        if key[0] == "column":
            return self.comp.samples.ease_values(key[1])[None, :]
        return self.comp.sts[key[1] - 1][None, :]

    def ordered(self, key: tuple) -> Ordered:
        metric = "wmprob" if key[0] == "confidence" else "wsbias"
        known = self._sts_order[key[1] - 1] if key[0] == "sts" else None
        return self._sources.get(key, lambda: order_samples(self.ease(key), self.correct, metric, order=known,
                                                            counts=key[0] == "column"))

    # ---- sums ------------------------------------------------------------------------------
    def sums(self, s: Setting) -> Sums:
        """Per model and split: counts, masses and the sums of Eq. 4 for setting ``s``."""
        o = self.ordered(self.source_key(s))
        m = o.m
        if s.mode == "continuous":
            bounds, b, power = np.array([[0, m]]), np.ones(1), 1 + s.scale
        elif s.mode == "equal":
            bounds, b, power = equal_bounds(m, s.n)[None, :], np.asarray(s.weights), int(s.scale)
        else:
            bounds, b, power = o.threshold_bounds(s.thresholds), np.asarray(s.weights), int(s.scale)
        key = (self.source_key(s), power, bounds.shape, bounds.tobytes())
        n, correct, mass, mass_correct = self._splits.get(
            key, lambda: o.split_sums(bounds, power, self))
        kw, dw, ew = weighted_sums(mass, mass_correct, *unit_scale(b, s.reward, s.penalty))
        return Sums(n.astype(np.int64), correct, mass, mass_correct, kw, dw, ew, bounds, b)

    # ---- the leaderboard -------------------------------------------------------------------
    def leaderboard(self, p: Mapping[str, Any] | None = None, /, **params) -> pd.DataFrame:
        """The leaderboard of spec §3: ``Metric = 100 · Σ K·W / Σ d·W`` per model (Eq. 4; over
        ``Σ |e|·W`` when ``Σ d·W = 0``), split-wise the same within each split, and accuracy.

        Parameters
        ----------
        **params
            ``metric, ease_column, sts_top, split_mode, splits, thresholds, weights, reward,
            penalty, scale_by_difficulty`` (see ``PARAMS``); missing ones take their defaults.

        Returns
        -------
        pandas.DataFrame
            ``submission, accuracy, accuracy_rank, score, rank``, then the split-wise scores
            ``split_1 … split_n`` (none in continuous mode), then each split's ``split_x_n``
            (samples) and ``split_x_correct``; rows by rank (descending scores, ties within
            1e-9 share the better rank), then name. ``attrs["parameters"]`` holds the
            effective parameters (:meth:`Setting.parameters`).

        Raises
        ------
        InputError
            Naming the parameter (or the samples file and row for a bad ease column); also when
            some model would have no score (both denominators of Eq. 4 are 0: reward and
            penalty 0, every weight 0, an ease column with no value, or no sample in a split
            weighted above 0), never a NaN score ranked.
        """
        s = self.setting(p, **params)
        t = self.sums(s)
        score = eq4(t.kw.sum(axis=1), t.dw.sum(axis=1), t.ew.sum(axis=1))  # no NaN: setting() refuses those
        data = {"submission": self.names, "accuracy": self.accuracy, "accuracy_rank": rank(self.accuracy, tol=TIE),
                "score": score, "rank": rank(score, tol=TIE)}
        if s.mode != "continuous":
            split_scores = eq4(t.kw, t.dw, t.ew)
            for x in range(s.n):
                data[f"split_{x + 1}"] = split_scores[:, x]
            for x in range(s.n):
                data[f"split_{x + 1}_n"] = t.n[:, x]
                data[f"split_{x + 1}_correct"] = t.correct[:, x]
        df = pd.DataFrame(data).sort_values(["rank", "submission"], kind="stable").reset_index(drop=True)
        df.attrs["parameters"] = s.parameters()
        return df

    def _no_score(self, s: Setting, missing: np.ndarray) -> InputError:
        """Why some model has no score (both denominators of Eq. 4 are 0): never a NaN rank."""
        names = [self.names[i] for i in np.flatnonzero(missing)]
        who = "any model" if missing.all() else "model " + ", ".join(repr(n) for n in names[:5]) + (
            f" (and {len(names) - 5} more)" if len(names) > 5 else "")
        if s.mode == "continuous":
            return InputError("split_mode", None, f"every sample of {who} weighs 0 (continuous weights from its "
                                                  f"ease E), so its score would be 0/0")
        return InputError("weights", None, f"no sample of {who} is in a split with a weight above 0 (weights "
                                           f"{s.weights_name}), so its score would be 0/0: give a split that holds "
                                           f"samples a weight above 0")

    # ---- per-sample views ------------------------------------------------------------------
    def assignment(self, p: Mapping[str, Any] | None = None, /,
                   **params) -> tuple[np.ndarray, np.ndarray, Setting]:
        """``(split, ease, setting)``: each sample's split index from 0 (−1: left out; 0 for
        every sample in continuous mode), shape (1, N) shared or (M, N) per model (WMProb), and
        its E of the same shape (NaN: left out)."""
        s = self.setting(p, **params)
        key = self.source_key(s)
        o, t = self.ordered(key), self.sums(s)
        r, n_samples = o.order.shape[0], self.comp.n_samples
        split = np.full((r, n_samples), -1, dtype=np.int64)
        for i in range(r):
            bi = t.bounds[min(i, t.bounds.shape[0] - 1)]
            split[i, o.order[i]] = np.repeat(np.arange(len(bi) - 1), np.diff(bi))
        return split, self.ease(key), s

    def unit_stats(self, p: Mapping[str, Any] | None = None, /, **params) -> UnitStats:
        """What every model earned on every sample, as additive sums (see :class:`UnitStats`).

        ``team`` (N, M, 4): K·W, d·W, |e|·W (weights and (d, e) scaled by powers of two, as in
        :meth:`sums`; 0 for a sample left out of the metric) and 1 if
        correct; ``shared`` (N, 1): 1 per sample. A sample's cell is its split, assigned once
        on the full data; WMProb orders the samples per model, so a sample has no one split
        there: every scored sample is in cell 0 (as in continuous mode). Samples left out of
        the metric (no E) form one more cell. ``score`` gives ``score`` (Eq. 4) and
        ``accuracy``, exactly as :meth:`leaderboard` does.
        """
        split, ease, s = self.assignment(p, **params)
        M = len(self.names)
        factor = difficulty_factor(ease, "wmprob" if s.metric == "wmprob" else "wsbias")
        scored = split >= 0
        # weights and (d, e) scaled into [0.5, 1) by powers of two (unit_scale: the same scores, no overflow)
        b, d, e = unit_scale(np.ones(1) if s.mode == "continuous" else s.weights, s.reward, s.penalty)
        if s.mode == "continuous":
            w = np.where(scored, factor ** (1 + s.scale), 0.0)
        else:
            b = np.append(b, 0.0)  # index -1: left out, weight 0
            w = b[split] * (np.where(scored, factor, 0.0) if s.scale else 1.0)
        w = np.broadcast_to(w, (M, split.shape[1]))
        team = np.stack((w * np.where(self.correct, d, e), w * d, w * abs(e), self.correct.astype(float)), axis=-1)
        if split.shape[0] == 1 and s.mode != "continuous":
            k = s.n  # the sample's split
            cell = np.where(split[0] >= 0, split[0], k)
        else:  # WMProb (a split per model) or continuous (no splits): one cell
            k = 1
            cell = np.where(scored.any(axis=0), 0, k)
        n_cells = k + int((cell == k).any())

        def score(team_sums: np.ndarray, shared_sums: np.ndarray) -> dict[str, np.ndarray]:
            tot = team_sums.sum(axis=-3)
            count = shared_sums.sum(axis=-2)[..., :1]
            return {"score": eq4(tot[..., 0], tot[..., 1], tot[..., 2]), "accuracy": tot[..., 3] / count}

        return UnitStats(units=self.comp.sample_ids, cell=cell, n_cells=n_cells, team=np.ascontiguousarray(
            np.swapaxes(team, 0, 1)), shared=np.ones((split.shape[1], 1)), score=score, final="score",
            names=list(self.names))
