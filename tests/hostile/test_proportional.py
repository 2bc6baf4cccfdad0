"""UnitStats.cell_sums and resample_counts cost what the data costs (issue 30.2): no
(cells × units) one-hot, no scan of every unit per cell — and give what the plain
definitions give (written out here as the references)."""

from __future__ import annotations

import numpy as np

from scoring.core.family import UnitStats
from scoring.core.robustness import resample_counts


def reference_counts(cell, b, seed=0):
    """The definition: cell by cell (ascending), draw its n units n times with replacement."""
    cell = np.asarray(cell, dtype=np.int64)
    rng = np.random.default_rng(seed)
    out = np.zeros((b, len(cell)))  # the draws of a cell are one (b × n) call
    for g in np.unique(cell):
        idx = np.flatnonzero(cell == g)
        draws = rng.integers(0, len(idx), size=(b, len(idx)))
        for r in range(b):
            for d in draws[r]:
                out[r, idx[d]] += 1
    return out


def test_resampling_draws_what_the_definition_draws():
    rng = np.random.default_rng(1)
    for _ in range(150):
        cell = rng.integers(0, rng.integers(1, 8), size=rng.integers(1, 30))
        assert np.array_equal(resample_counts(cell, 7, seed=3), reference_counts(cell, 7, seed=3))


def test_cell_sums_are_the_one_hot_products():
    rng = np.random.default_rng(2)
    for _ in range(100):
        u, t, k, j, cells = (int(x) for x in rng.integers(1, 6, size=5))
        u = int(rng.integers(0, 12))
        cell = rng.integers(0, cells, size=u)
        team, shared = rng.random((u, t, k)), rng.random((u, j))
        us = UnitStats(units=[str(i) for i in range(u)], cell=cell, n_cells=cells, team=team, shared=shared,
                       score=lambda a, b: {}, final="x")
        onehot = (cell[None, :] == np.arange(cells)[:, None]).astype(float)
        got_t, got_s = us.cell_sums()
        assert np.allclose(got_t, (onehot @ team.reshape(u, t * k)).reshape(cells, t, k), rtol=1e-13, atol=0)
        assert np.allclose(got_s, onehot @ shared, rtol=1e-13, atol=0)
        w = rng.integers(0, 3, size=(4, u)).astype(float)
        wt, ws = us.cell_sums(w)
        for r in range(4):
            assert np.allclose(wt[r], ((onehot * w[r]) @ team.reshape(u, t * k)).reshape(cells, t, k), rtol=1e-13)
            assert np.allclose(ws[r], (onehot * w[r]) @ shared, rtol=1e-13)


def test_a_hundred_thousand_one_unit_cells():
    """Issue 30: 10^5 themes of one question each; the one-hot alone was 74.5 GiB."""
    n = 100_000
    cell = np.arange(n)[::-1].copy()
    counts = resample_counts(cell, 3, seed=0)
    assert counts.shape == (3, n) and (counts == 1).all()  # a one-unit cell always draws itself
    team = np.arange(n * 2, dtype=float).reshape(n, 2, 1)
    us = UnitStats(units=[""] * n, cell=cell, n_cells=n, team=team, shared=np.ones((n, 1)),
                   score=lambda a, b: {}, final="x")
    t, s = us.cell_sums()
    assert t.shape == (n, 2, 1) and t[cell[0], :, 0].tolist() == [0.0, 1.0] and (s == 1).all()
    wt, ws = us.cell_sums(counts[:2])
    assert np.array_equal(wt[1], t) and np.array_equal(ws[0], s)
