"""The candidate pairs' order: by distance, ties by position (``stable_argsort``), so that a
τ keeps a prefix and every tie-break downstream (a star's shortest pair, the settling, the
enumeration) is the same on every machine. ``stable_argsort`` sorts with numpy's default
(SIMD) sort and puts only the runs of equal values back in position order; it must equal
numpy's stable sort, and the default sort alone must not (else the test data has no ties
worth the name)."""

from __future__ import annotations

import numpy as np

from scoring.spotgeo.competition import stable_argsort


def cases():
    rng = np.random.default_rng(27)
    for _ in range(60):
        n = int(rng.integers(0, 6000))
        grid = rng.choice([1.0, 0.5, 0.01])  # coordinates on a grid: many equal distances
        xy = np.round(rng.uniform(-50, 50, (n, 2)) / grid) * grid
        yield np.hypot(xy[:, 0], xy[:, 1])
    yield np.zeros(100)
    yield np.array([2.0, 1.0, 2.0, 1.0, 0.5, 2.0])


def test_stable_argsort_is_numpys_stable_sort():
    for x in cases():
        assert np.array_equal(stable_argsort(x), np.argsort(x, kind="stable"))


def test_the_default_sort_alone_would_be_caught():
    assert any(not np.array_equal(np.argsort(x), np.argsort(x, kind="stable")) for x in cases())
