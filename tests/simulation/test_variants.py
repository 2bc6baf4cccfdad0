"""The pieces of tests/simulation/variants.py, by hand (quick; the variants' figures are in
docs/robustness.md)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.simulation.variants import _scale, stepdown, variant_sets

IDX = np.arange(20)  # the replicates 0 … 19


def test_stepdown_rejects_a_second_hypothesis_only_once_the_first_is_gone():
    # 20 replicates; hypothesis 0's null replicates are 0.3 i, hypothesis 1's 0.05 i. At 95 % the
    # critical value is the 19th smallest of the replicates' maxima: first 0.3 × 18 = 5.4 (over both),
    # then, over hypothesis 1 alone, 0.05 × 18 = 0.9
    null = np.stack([0.3 * IDX, 0.05 * IDX], axis=1)
    assert stepdown(np.array([6.0, 0.92]), null, 0.95).tolist() == [True, True]
    assert stepdown(np.array([6.0, 0.85]), null, 0.95).tolist() == [True, False]
    assert stepdown(np.array([5.0, 0.92]), null, 0.95).tolist() == [False, False]  # no first step, no second


def test_moment_selection_drops_a_hypothesis_far_below_zero_from_the_maximum():
    # null replicates 0.3 i and 0.4 (19 − i); hypothesis 1's statistic is −20. Without selection, at 90 %
    # the critical value is the 18th smallest of max(0.3 i, 0.4 (19 − i)) = 6.8 (the maxima run 7.6, 7.2,
    # 6.8, ...), above 6.5. With β = 0.05: c_β, the 95 % point of max(−null) over the replicates, is 0
    # (0 at i = 0 and i = 19, below elsewhere), so hypothesis 1's replicates move down by 20, and the
    # critical value at 95 % is hypothesis 0's 19th smallest: 0.3 × 18 = 5.4, below 6.5
    null = np.stack([0.3 * IDX, 0.4 * (19 - IDX)], axis=1)
    stat = np.array([6.5, -20.0])
    assert stepdown(stat, null, 0.90).tolist() == [False, False]
    assert stepdown(stat, null, 0.90, beta=0.05).tolist() == [True, False]


def test_scales_by_hand_and_one_per_tail():
    # two teams, four replicates: team 1 minus team 0 is 0, 0, 0, 4 (d = 0)
    reps = np.array([[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 4.0]])
    dstar = reps[:, None, :] - reps[:, :, None]
    d = np.zeros((2, 2))
    # SD: mean 1, squares 1 + 1 + 1 + 9 = 12, over 3: 4
    assert _scale(dstar, d, "sd")[0, 1] == pytest.approx(2.0)
    # IQR: the 25th percentile 0, the 75th 0 + 0.25 × 4 = 1 (linear), over 2 × 0.6745
    assert _scale(dstar, d, "iqr")[0, 1] == pytest.approx(1 / 1.34898, rel=1e-4)
    # semi-deviation: above the mean 1 only the 4 (by 3): √(2 × 9 / 4); the other direction (0, 0, 0, −4,
    # mean −1): three replicates 1 above: √(2 × 3 / 4) — the heavy tail is the upper one of [0, 1]
    semi = _scale(dstar, d, "semi")
    assert semi[0, 1] == pytest.approx(np.sqrt(4.5)) and semi[1, 0] == pytest.approx(np.sqrt(1.5))


def test_variant_defaults_separate_a_clear_pair_and_keep_a_tie():
    rng = np.random.default_rng(3)
    common = rng.normal(0, 0.05, 400)
    full = np.array([0.70, 0.50, 0.50])
    reps = full + common[:, None] + rng.normal(0, 0.01, (400, 3))
    rs = variant_sets(full, reps)
    assert rs.rank_low.tolist() == [1, 2, 2] and rs.rank_high.tolist() == [1, 3, 3]
    assert rs.letters == ["a", "b", "b"]
