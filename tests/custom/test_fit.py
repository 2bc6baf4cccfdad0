"""The published aggregate's fit (``scoring.custom.fit``) on seeded random tables whose
aggregate is known: a weighted mean of a random subset of the columns, every cell and the
aggregate rounded as published. The fit must find the subset, the weights' proportions and the
columns it ignores; and it must refuse aggregates that are not weighted means (a win rate, a
shuffled column, one that subtracts a column)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scoring.custom.fit import decimals, fit

CASES = 200


def _table(rng):
    n, k = int(rng.integers(25, 90)), int(rng.integers(3, 9))
    d = rng.integers(1, 3, size=k)  # decimals each column shows
    x = np.column_stack([np.round(rng.uniform(20, 95, n), int(dj)) for dj in d])
    in_mean = rng.random(k) < 0.7
    in_mean[rng.integers(k)] = True
    w = np.where(in_mean, rng.integers(1, 16, size=k), 0).astype(float)
    dy = int(rng.integers(1, 3))
    y = np.round(x @ w / w.sum(), dy)
    xd = np.tile(d, (n, 1))
    return x, xd, y, np.full(n, dy), w, [f"c{j}" for j in range(k)]


@pytest.mark.parametrize("seed", range(CASES))
def test_a_weighted_mean_of_a_subset_is_found(seed):
    rng = np.random.default_rng(seed)
    x, xd, y, yd, w, names = _table(rng)
    f = fit("Avg", y, yd, names, x, xd)
    assert f is not None and f.ok
    assert f.weighed() == [c for c, wj in zip(names, w, strict=True) if wj > 0]
    assert f.ignored() == [c for c, wj in zip(names, w, strict=True) if wj == 0]
    truth = w[w > 0] / w[w > 0].min()
    got = np.array(list(f.relative().values()))
    assert np.allclose(got, truth, rtol=0.1), (got, truth)
    assert f.equal == bool(np.all(truth == truth[0]))


@pytest.mark.parametrize("seed", range(40))
def test_aggregates_that_are_not_weighted_means_are_not_taken_for_one(seed):
    rng = np.random.default_rng(1000 + seed)
    x, xd, y, yd, w, names = _table(rng)
    n, k = x.shape
    # a mean win rate over the columns (HELM's): not linear in the values
    beats = (x[:, None, :] > x[None, :, :]).sum(axis=1) + 0.5 * ((x[:, None, :] == x[None, :, :]).sum(axis=1) - 1)
    winrate = np.round((beats / (n - 1)).mean(axis=1), 3)
    assert not fit("wr", winrate, np.full(n, 3), names, x, xd).ok
    # the aggregate of other rows (shuffled)
    assert not fit("shuffled", rng.permutation(y), yd, names, x, xd).ok
    # one that subtracts a column
    j = int(np.flatnonzero(w > 0)[0])
    bad = np.round((x @ w - 2 * w[j] * x[:, j]) / w.sum(), int(yd[0]))
    assert not fit("minus", bad, yd, names, x, xd).ok


def test_too_few_rows_or_too_many_cells_give_no_fit():
    x = np.ones((5, 4))
    assert fit("a", np.ones(5), np.ones(5), list("abcd"), x, np.ones((5, 4))) is None  # 5 < 4 + 3


def test_decimals_against_a_reading_by_hand():
    cells = ["0.125", "12", "1.5e-3", "94.2/92.35", "-", "7.", "+3.25", "1E2", "100.0/50"]
    want = [3, 0, 4, 1, 0, 0, 2, 0, 0]
    assert decimals(pd.Series(cells)).tolist() == want
