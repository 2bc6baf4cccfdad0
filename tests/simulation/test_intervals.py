"""The score-interval methods compared in tests/simulation/intervals.py (docs/robustness.md, "Score
intervals"), against references: scipy's BCa on the same bootstrap distribution, explicit
leave-one-out re-scorings, and the jackknife variance of a mean by hand. Quick."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

from scoring.core.family import UnitStats
from scoring.core.robustness import resample_counts
from tests.simulation.intervals import bca, block_ids, block_jackknife, jack_bias, jack_var, unit_jackknife


def _ratio(x: np.ndarray, y: np.ndarray) -> UnitStats:
    """Two cells (x's units, y's units); the score: mean of cell 0 over mean of cell 1 (one team)."""
    v = np.concatenate([x, y])
    cell = np.repeat([0, 1], [len(x), len(y)])

    def score(team_sums, shared_sums):
        means = team_sums[..., 0] / shared_sums[..., :, :1]  # (…, cells, teams)
        return {"s": means[..., 0, :] / means[..., 1, :]}

    return UnitStats(units=[str(i) for i in range(len(v))], cell=cell, n_cells=2, team=v[:, None, None],
                     shared=np.ones((len(v), 1)), score=score, final="s")


def test_the_unit_jackknife_equals_leaving_each_unit_out_by_hand():
    rng = np.random.default_rng(0)
    x, y = rng.exponential(1.0, 12), rng.exponential(2.0, 9)
    jk = unit_jackknife(_ratio(x, y))[:, 0]
    want = [np.delete(x, i).mean() / y.mean() for i in range(len(x))] + \
           [x.mean() / np.delete(y, i).mean() for i in range(len(y))]
    assert jk == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_bca_equals_scipys_on_the_same_bootstrap_distribution(seed):
    # scipy.stats.bootstrap with two samples resamples each apart (our cells) and jackknifes each apart; given
    # our replicates as a previous result and no new resamples, its BCa interval must be ours
    rng = np.random.default_rng(seed)
    x, y = rng.lognormal(0, 0.8, int(rng.integers(8, 30))), rng.lognormal(0.3, 0.5, int(rng.integers(8, 30)))
    us = _ratio(x, y)
    reps = np.asarray(us.scores(resample_counts(us.cell, 2000, seed=seed))["s"], dtype=float)
    full = np.asarray(us.scores()["s"], dtype=float)
    lo, hi = bca(reps, full, unit_jackknife(us), us.cell, 0.9)
    ref = stats.bootstrap((x, y), lambda a, b, axis=-1: a.mean(axis=axis) / b.mean(axis=axis), n_resamples=0,
                          bootstrap_result=SimpleNamespace(bootstrap_distribution=reps[:, 0]), method="BCa",
                          confidence_level=0.9)
    assert lo[0] == pytest.approx(ref.confidence_interval.low, rel=1e-10)
    assert hi[0] == pytest.approx(ref.confidence_interval.high, rel=1e-10)
    # and it is not the percentile interval (the check has teeth: a skewed ratio moves the ends)
    assert abs(lo[0] - np.percentile(reps[:, 0], 5)) + abs(hi[0] - np.percentile(reps[:, 0], 95)) > 1e-6


def test_jackknife_variance_and_bias_of_a_mean_by_hand():
    # the delete-one jackknife variance of a mean is s^2 / n exactly, and its bias estimate is 0; of a
    # square of a mean, the bias estimate is s^2 / n (E[xbar^2] = mu^2 + sigma^2 / n)
    rng = np.random.default_rng(3)
    x = rng.normal(2.0, 1.5, 25)
    team = x[:, None, None]

    def mean(team_sums, shared_sums):
        return {"m": team_sums[..., 0, :, 0] / shared_sums[..., 0, :1]}

    us = UnitStats(units=[str(i) for i in range(25)], cell=np.zeros(25, dtype=np.int64), n_cells=1, team=team,
                   shared=np.ones((25, 1)), score=mean, final="m")
    block, strata = block_ids(us.cell, 25, stratified=True)  # one unit per block: the delete-one jackknife
    theta = block_jackknife(us, np.ones((1, 25)), block)[0]
    assert jack_var(theta[None], strata)[0, 0] == pytest.approx(x.var(ddof=1) / 25, rel=1e-12)
    jk = unit_jackknife(us)
    assert jack_bias(jk, np.array([x.mean()]), us.cell)[0] == pytest.approx(0.0, abs=1e-12)
    square = UnitStats(units=us.units, cell=us.cell, n_cells=1, team=team, shared=us.shared,
                       score=lambda t, s: {"m": (t[..., 0, :, 0] / s[..., 0, :1]) ** 2}, final="m")
    assert jack_bias(unit_jackknife(square), np.array([x.mean() ** 2]), us.cell)[0] == \
        pytest.approx(x.var(ddof=1) / 25, rel=1e-10)
