"""Score intervals where the final score is a softmin of group scores (issue 40): the joint band of a
stage and the softmin's range over a box, against slow obvious references on many seeded cases, and
the interval the bootstrap reports with groups (docs/robustness.md, "Score intervals")."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import scoring
from scoring.core.robustness import PERCENTILE_WORDS, bootstrap, joint_band, resample_counts, score_interval
from scoring.shovel_ready.aggregate import softmin_matrix, softmin_range
from scoring.shovel_ready.scorer import BOX_WORDS


# ---- the softmin's range over a box ------------------------------------------------------------------
def _nu(s, n, alpha):
    return softmin_matrix(s, n, alpha)[0]


def _boxes(rng, k, g):
    lo = rng.uniform(0.2, 0.7, (k, g))
    return lo, lo + rng.uniform(0, 0.2, (k, g)) * (rng.uniform(size=(k, g)) < 0.8)  # some degenerate sides


@pytest.mark.parametrize("alpha", [0.0, 3.0, 50.0, 400.0])
def test_the_softmin_range_holds_every_point_of_the_box_and_is_attained(alpha):
    rng = np.random.default_rng(int(alpha) + 1)
    for g in (1, 2, 3, 5):
        lo, hi = _boxes(rng, 60, g)
        n = rng.integers(1, 200, g).astype(float)
        least, most = softmin_range(lo, hi, n, alpha)
        # every point of the box, a grid and random points, lies inside [least, most]
        pts = [lo + np.array(c) * (hi - lo) for c in itertools.product([0, 0.25, 0.5, 0.75, 1], repeat=min(g, 3))
               if len(c) == g] + [lo + rng.uniform(size=lo.shape) * (hi - lo) for _ in range(300)]
        nus = np.array([_nu(p, n, alpha) for p in pts])
        assert (nus >= least - 1e-12).all() and (nus <= most + 1e-12).all()
        # and both ends are reached: the lowest at a corner (each group at the end with the smaller
        # n e^{-α s}(s − c)), the highest with each group at clip(c + 1/α) (module doc)
        def h(s, c):
            return np.exp(-alpha * s) * (s - c)
        at_low = np.where(h(lo, least[:, None]) <= h(hi, least[:, None]), lo, hi)
        at_high = np.clip(most[:, None] + (1 / alpha if alpha else np.inf), lo, hi)
        assert _nu(at_low, n, alpha) == pytest.approx(least, abs=1e-9)
        assert _nu(at_high, n, alpha) == pytest.approx(most, abs=1e-9)


def test_corners_are_not_enough_for_the_highest_softmin():
    # two groups of one essay each, α = 50: group 0 fixed at 0.40, group 1 anywhere in [0.40, 0.50].
    # ν = (0.4 + s e^{-50 (s − 0.4)}) / (1 + e^{-50 (s − 0.4)}); its derivative in s is
    # β₁ (1 − α (s − ν)): zero at s = ν + 1/50. Corners give ν(0.40) = 0.40 and ν(0.50) =
    # (0.4 + 0.5 e^{-5}) / (1 + e^{-5}) = 0.400669; in between, at s = 0.44: e^{-2} = 0.135335, ν =
    # (0.4 + 0.44 · 0.135335) / 1.135335 = 0.404768, above both corners
    lo, hi = np.array([[0.40, 0.40]]), np.array([[0.40, 0.50]])
    least, most = softmin_range(lo, hi, [1, 1], 50.0)
    corners = [_nu(np.array([[0.40, s]]), [1, 1], 50.0)[0] for s in (0.40, 0.50)]
    assert corners == pytest.approx([0.40, 0.400669], abs=1e-6)
    assert _nu(np.array([[0.40, 0.44]]), [1, 1], 50.0)[0] == pytest.approx(0.404768, abs=1e-6)
    assert most[0] > max(corners) + 0.004 and least[0] == pytest.approx(0.40)
    # the maximum is where s = ν + 1/α
    s = np.linspace(0.40, 0.50, 100_001)
    nus = _nu(np.stack([np.full_like(s, 0.40), s], axis=1), [1, 1], 50.0)
    assert most[0] == pytest.approx(nus.max(), abs=1e-9)
    assert s[np.argmax(nus)] == pytest.approx(nus.max() + 0.02, abs=1e-5)


def test_the_softmin_range_of_infinite_alpha_and_of_missing_bounds():
    lo, hi = np.array([[0.3, 0.5], [0.6, 0.2]]), np.array([[0.4, 0.6], [0.7, 0.25]])
    least, most = softmin_range(lo, hi, [10, 1], float("inf"))
    assert least.tolist() == [0.3, 0.2] and most.tolist() == [0.4, 0.25]
    least, most = softmin_range(np.array([[0.3, np.nan]]), np.array([[0.4, 0.5]]), [1, 1], 50.0)
    assert np.isnan(least[0]) and np.isnan(most[0])
    with pytest.raises(ValueError, match="expected low and high"):
        softmin_range(lo, hi[:, :1], [1, 1], 5.0)


# ---- the joint band of a stage ---------------------------------------------------------------------
def _band_by_hand(x: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """One team (B × G, NaN: missing): try every depth as λ, smallest first, until the replicates whose
    every column has ``max(p, 1 − p) ≤ λ`` are at least ``confidence`` of all; then each column's
    interval is the smallest to the largest value of depth ≤ λ in that column."""
    b, g = x.shape
    depth = np.zeros((b, g))
    for c in range(g):
        col = x[:, c]
        ok = ~np.isnan(col)
        m = ok.sum()
        for i in np.flatnonzero(ok):
            below, same = (col[ok] < col[i]).sum(), (col[ok] == col[i]).sum()
            p = (below + (same + 1) / 2 - 0.5) / m  # the mid-rank, less a half, over m
            depth[i, c] = max(p, 1 - p)
    for lam in sorted(set(depth.max(axis=1).tolist())):
        if (depth.max(axis=1) <= lam + 1e-12).mean() >= confidence:
            break
    keep = (depth <= lam + 1e-12) & ~np.isnan(x)
    lo = np.array([x[keep[:, c], c].min() if keep[:, c].any() else np.nan for c in range(g)])
    hi = np.array([x[keep[:, c], c].max() if keep[:, c].any() else np.nan for c in range(g)])
    return lo, hi


def test_the_joint_band_equals_a_slow_search_on_random_replicates_with_ties_and_gaps():
    rng = np.random.default_rng(7)
    for case in range(40):
        b, k, g = int(rng.integers(5, 60)), int(rng.integers(1, 4)), int(rng.integers(1, 5))
        x = rng.normal(size=(b, k, g))
        if case % 3 == 0:
            x = np.round(x, 1)  # ties
        if case % 4 == 1:
            x[rng.uniform(size=x.shape) < 0.1] = np.nan  # a replicate without a value in a column
        conf = float(rng.choice([0.5, 0.8, 0.9, 0.95]))
        lo, hi = joint_band(x, conf)
        for t in range(k):
            want_lo, want_hi = _band_by_hand(x[:, t], conf)
            assert np.allclose(lo[t], want_lo, equal_nan=True), (case, t)
            assert np.allclose(hi[t], want_hi, equal_nan=True), (case, t)
            inside = ((x[:, t] >= lo[t]) & (x[:, t] <= hi[t])) | np.isnan(x[:, t])
            assert inside.all(axis=1).mean() >= conf


def test_the_joint_band_of_independent_columns_is_about_the_sidak_level_and_wider_than_each_alone():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(20_000, 1, 3))
    lo, hi = joint_band(x, 0.95)
    each = 0.95 ** (1 / 3)  # 0.98305: each column's share when all three hold together 95 % of the time
    share = ((x >= lo) & (x <= hi)).mean(axis=0)[0]
    assert share == pytest.approx([each] * 3, abs=0.003)
    assert (((x >= lo) & (x <= hi)).all(axis=2).mean()) == pytest.approx(0.95, abs=0.002)
    one = np.percentile(x[:, 0, 0], [2.5, 97.5])
    assert lo[0, 0] < one[0] and hi[0, 0] > one[1]
    # the block size does not change the answer
    x = rng.normal(size=(50, 30, 2))
    assert all(np.array_equal(a, c) for a, c in zip(joint_band(x, 0.9), joint_band(x, 0.9, block=100), strict=True))


# ---- the bootstrap's score interval with groups -------------------------------------------------------
def test_with_groups_the_score_interval_is_the_softmin_range_over_the_groups_joint_band():
    folder = scoring.get("shovel-ready").sample_dir
    comp = scoring.load_competition(ground_truth=folder / "ground_truth.csv", submissions=[folder / "submissions"],
                                    demographics=folder / "demographics.csv", runtimes=folder / "runtimes.csv")
    sc = scoring.Scorer(comp)
    params = dict(attributes=("ell_status",), alpha=20.0)
    us = sc.unit_stats(**params)
    iv = bootstrap(us, b=200, seed=3, confidence=0.9)
    groups = np.asarray(us.scores(resample_counts(us.cell, 200, seed=3))["groups"], dtype=float)
    lo, hi = joint_band(groups, 0.9)
    sizes = sc.group_scores(attributes=("ell_status",)).sizes.to_numpy(dtype=float)
    least, most = softmin_range(lo, hi, sizes, 20.0)
    boost = np.asarray(us.scores()["boost"], dtype=float)
    assert boost.any()  # the sample has runtimes: the boost multiplies both ends
    assert iv["score_low"].to_numpy() == pytest.approx(least * (1 + boost), abs=1e-12)
    assert iv["score_high"].to_numpy() == pytest.approx(most * (1 + boost), abs=1e-12)
    assert (iv["score_low"] <= iv["score"] + 1e-12).all() and (iv["score"] <= iv["score_high"] + 1e-12).all()
    assert (iv["score_low"] < iv["score_high"]).all()
    assert iv.attrs["score_interval"] == BOX_WORDS.format(pct="90%")
    # score_interval gives the same ends without the rank sets
    lo_only, hi_only = score_interval(us, b=200, seed=3, confidence=0.9)
    assert np.array_equal(lo_only, iv["score_low"].to_numpy()) and np.array_equal(hi_only, iv["score_high"].to_numpy())
    # without groups the percentile interval, and the words say so
    us0 = sc.unit_stats(attributes=())
    plain = bootstrap(us0, b=200, seed=3, confidence=0.9)
    reps = np.asarray(us0.scores(resample_counts(us0.cell, 200, seed=3))["final_score"], dtype=float)
    assert plain["score_low"].to_numpy() == pytest.approx(np.percentile(reps, 5, axis=0), abs=1e-12)
    assert plain["score_high"].to_numpy() == pytest.approx(np.percentile(reps, 95, axis=0), abs=1e-12)
    assert plain.attrs["score_interval"] == PERCENTILE_WORDS.format(pct="90%")
    assert np.array_equal(score_interval(us0, b=200, seed=3, confidence=0.9)[1], plain["score_high"].to_numpy())
