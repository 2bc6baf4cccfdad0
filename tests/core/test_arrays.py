"""The engine's small array helpers against the obvious slow answer on random cases."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.core.arrays import merge_positions, unique_sorted


@pytest.mark.parametrize("seed", range(3))
def test_merge_positions_is_a_stable_merge(seed):
    rng = np.random.default_rng(seed)
    for _ in range(300):
        a = np.sort(rng.integers(0, 12, rng.integers(0, 15)))
        b = np.sort(rng.integers(0, 12, rng.integers(0, 6)))
        ia, ib = merge_positions(a, b)
        # the slow answer: a stable sort of a then b puts a's items first among equals
        order = np.argsort(np.concatenate((a, b)), kind="stable")
        where = np.empty(len(order), dtype=np.int64)
        where[order] = np.arange(len(order))
        assert ia.tolist() == where[:len(a)].tolist()
        assert ib.tolist() == where[len(a):].tolist()


def test_merge_positions_by_hand():
    # a = 2 2 4, b = 1 2 5: merged 1(b) 2(a) 2(a) 2(b) 4(a) 5(b)
    ia, ib = merge_positions(np.array([2, 2, 4]), np.array([1, 2, 5]))
    assert ia.tolist() == [1, 2, 4]
    assert ib.tolist() == [0, 3, 5]


def test_unique_sorted_equals_np_unique():
    rng = np.random.default_rng(7)
    for n in (0, 1, 2, 50, 1000):
        x = rng.integers(-5, 30, n)
        assert unique_sorted(x).tolist() == np.unique(x).tolist()
