"""What the family's pages show, as pure functions of a :class:`~.scorer.Scorer` and the
parameters: split-wise tables (parallel coordinates, sunbursts, weights), per-sample tables
(beeswarm, hardest samples) and the Table 1 presets side by side.

The beeswarm samples points *for display* (:func:`display_samples`); scores always use every
sample.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..core.ranking import rank
from .metric import eq4
from .params import PRESET_LABELS, PRESETS
from .scorer import TIE, Scorer


def split_label(x: int, n: int) -> str:
    """``split 1 (easiest)``, …, ``split n (hardest)``.

    >>> split_label(1, 3), split_label(2, 3), split_label(3, 3)
    ('split 1 (easiest)', 'split 2', 'split 3 (hardest)')
    """
    return f"split {x}" + (" (easiest)" if x == 1 else " (hardest)" if x == n else "")


def split_table(scorer: Scorer, p: Mapping[str, Any] | None = None, /, **params) -> pd.DataFrame:
    """One row per model and split: ``submission, split, label, n, correct, incorrect, weight,
    score, weight_share, contribution``.

    ``weight`` is the split's ``b_x``; ``score`` its split-wise Eq. 4 (NaN where its denominator
    is 0); ``weight_share`` its share of the denominator (``Σ d·W`` over the split / in all: how
    much of the attainable score it holds); ``contribution`` = ``100 · Σ K·W`` of the split over
    the whole denominator, so a model's contributions add up to its score. In continuous mode
    one row per model (``split`` 0, ``all samples``; ``weight`` NaN: each sample has its own).
    """
    s = scorer.setting(p, **params)
    t = scorer.sums(s)
    den = np.where(t.dw.sum(axis=1) != 0, t.dw.sum(axis=1), t.ew.sum(axis=1))
    part = np.where(t.dw.sum(axis=1)[:, None] != 0, t.dw, t.ew)
    k = t.n.shape[1]
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(den[:, None] != 0, part / den[:, None], np.nan)
        contribution = np.where(den[:, None] != 0, 100.0 * t.kw / den[:, None], np.nan)
    continuous = s.mode == "continuous"
    names = np.repeat(np.asarray(scorer.names, dtype=object), k)
    splits = np.tile(np.arange(1, k + 1), len(scorer.names)) if not continuous else np.zeros(len(names), int)
    return pd.DataFrame({
        "submission": names,
        "split": splits,
        "label": ["all samples" if continuous else split_label(int(x), k) for x in splits],
        "n": t.n.ravel(), "correct": t.correct.ravel(), "incorrect": (t.n - t.correct).ravel(),
        "weight": np.full(len(names), np.nan) if continuous else np.tile(t.weights, len(scorer.names)),
        "score": eq4(t.kw, t.dw, t.ew).ravel(), "weight_share": share.ravel(), "contribution": contribution.ravel(),
    })


def display_samples(n_samples: int, n_models: int, *, max_points: int = 5000, seed: int = 0) -> np.ndarray:
    """Indices of the samples a beeswarm shows (the same for every model, so a hover can show
    every model's prediction): all of them when ``n_samples × n_models ≤ max_points``, else an
    even random subset (seeded, in file order). For display only: scores use every sample.

    >>> display_samples(5, 2).tolist(), len(display_samples(1000, 10, max_points=500))
    ([0, 1, 2, 3, 4], 50)
    """
    k = max(1, max_points // max(n_models, 1))
    if n_samples <= k:
        return np.arange(n_samples)
    return np.sort(np.random.default_rng(seed).choice(n_samples, size=k, replace=False))


def sample_points(scorer: Scorer, p: Mapping[str, Any] | None = None, /,
                  *, samples=None, **params) -> pd.DataFrame:
    """One row per model and sample (``samples``: indices to keep, e.g. from
    :func:`display_samples`): ``submission, sample, sample_id, ease, split, correct,
    predicted``. ``split`` counts from 1 (0: left out of the metric, no E; 1 for every sample
    in continuous mode); ``ease`` is the sample's E (WMProb: the model's own confidence)."""
    split, ease, _ = scorer.assignment(p, **params)
    idx = np.arange(scorer.comp.n_samples) if samples is None else np.asarray(samples, dtype=np.int64)
    m = len(scorer.names)
    preds = scorer.comp.predictions
    values = np.asarray(preds.values, dtype=object)
    return pd.DataFrame({
        "submission": np.repeat(np.asarray(scorer.names, dtype=object), len(idx)),
        "sample": np.tile(idx, m),
        "sample_id": np.tile(np.asarray(scorer.comp.sample_ids, dtype=object)[idx], m),
        "ease": np.broadcast_to(ease[:, idx], (m, len(idx))).ravel(),
        "split": np.broadcast_to(split[:, idx] + 1, (m, len(idx))).ravel(),
        "correct": preds.correct[:, idx].ravel(),
        "predicted": values[preds.predicted[:, idx]].ravel(),
    })


def sample_table(scorer: Scorer, p: Mapping[str, Any] | None = None, /, **params) -> pd.DataFrame:
    """One row per sample, in file order: ``sample_id, label, text, ease, split, missed_by``
    and one column per model with its prediction. ``ease`` and ``split`` are the sample's
    (NaN / 0 when left out); WMProb orders per model, so there ``ease`` is the mean confidence
    over the models and ``split`` 0. ``missed_by`` counts the models that get it wrong."""
    split, ease, s = scorer.assignment(p, **params)
    comp, preds = scorer.comp, scorer.comp.predictions
    shared = split.shape[0] == 1
    data = {
        "sample_id": comp.sample_ids,
        "label": np.asarray(comp.labels, dtype=object)[comp.samples.gold],
        "text": comp.samples.text if comp.samples.text is not None else np.full(comp.n_samples, "", dtype=object),
        "ease": ease[0] if shared else ease.mean(axis=0),
        "split": split[0] + 1 if shared else np.zeros(comp.n_samples, dtype=np.int64),
        "missed_by": (~preds.correct).sum(axis=0),
    }
    values = np.asarray(preds.values, dtype=object)
    for j, name in enumerate(scorer.names):
        data[name] = values[preds.predicted[j]]
    return pd.DataFrame(data)


def hardest_samples(scorer: Scorer, p: Mapping[str, Any] | None = None, /,
                    *, top: int = 20, **params) -> pd.DataFrame:
    """The ``top`` samples most models miss (:func:`sample_table` rows): most models wrong
    first, then the lowest ease (left-out samples last), then file order."""
    table = sample_table(scorer, p, **params)
    ease = table["ease"].to_numpy(dtype=float)
    order = np.lexsort((np.arange(len(table)), np.where(np.isnan(ease), np.inf, ease), -table["missed_by"].to_numpy()))
    return table.iloc[order[:top]].reset_index(drop=True)


def preset_table(scorer: Scorer, p: Mapping[str, Any] | None = None, /, **params) -> pd.DataFrame:
    """Table 1's schemes side by side for every model, on the current metric and splits: one
    row per model and case, ``submission, case, label, reward, penalty, split_mode,
    scale_by_difficulty, score, rank``. Cases 1–5 are the (reward, penalty) presets; ``6/7`` is
    continuous weights (1/max(E, δ), WMProb E) and ``8/9`` reward and penalty scaled by the
    difficulty, both with (1, −1). ``accuracy`` is the plain accuracy, as a reference."""
    v = scorer.check(p, **params)
    base = {k: v[k] for k in ("metric", "ease_column", "sts_top")}
    splits = {k: v[k] for k in ("split_mode", "splits", "thresholds", "weights")}
    if v["split_mode"] == "continuous":
        splits = {"split_mode": "equal"}
    cases = [(str(c), PRESET_LABELS[c], d, e, {"split_mode": v["split_mode"],
                                              **({k: v[k] for k in ("splits", "thresholds", "weights")}
                                                 if v["split_mode"] != "continuous" else {})}, False)
             for c, (d, e) in PRESETS.items()]
    cases.append(("6/7", "Continuous weights", 1.0, -1.0, {"split_mode": "continuous"}, False))
    cases.append(("8/9", "Reward = penalty scaled by difficulty", 1.0, -1.0, splits, True))
    frames = []
    for case, label, d, e, mode, scale in cases:
        lb = scorer.leaderboard(**base, **mode, reward=d, penalty=e, scale_by_difficulty=scale)
        frames.append(pd.DataFrame({"submission": lb["submission"], "case": case, "label": label, "reward": d,
                                    "penalty": e, "split_mode": mode["split_mode"], "scale_by_difficulty": scale,
                                    "score": lb["score"], "rank": lb["rank"]}))
    acc = scorer.accuracy
    frames.append(pd.DataFrame({"submission": scorer.names, "case": "accuracy", "label": "Accuracy", "reward": 1.0,
                                "penalty": 0.0, "split_mode": None, "scale_by_difficulty": False,
                                "score": 100 * acc, "rank": rank(acc, tol=TIE)}))
    return pd.concat(frames, ignore_index=True)
