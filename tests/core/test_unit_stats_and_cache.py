"""Additive per-unit statistics (a leaderboard is "sum the units, then score") and the one cache."""

from __future__ import annotations

import numpy as np

from scoring.core.cache import LRU, nbytes
from scoring.core.family import UnitStats


def _stats() -> UnitStats:
    # 4 units in 2 cells, 2 teams, k = 2 (hits, tries); score = hits / tries per cell, then the min
    team = np.array([[[1, 2], [2, 2]], [[0, 2], [1, 2]], [[2, 2], [0, 2]], [[1, 2], [2, 2]]], dtype=float)

    def score(t, s):
        rate = t[..., 0] / t[..., 1]  # (…, cells, teams)
        return {"final": rate.min(axis=-2), "units": s[..., 0].sum(axis=-1)}

    return UnitStats(units=list("abcd"), cell=[0, 0, 1, 1], n_cells=2, team=team, shared=np.ones((4, 1)),
                     score=score, final="final")


def test_cell_sums_and_scores_by_hand():
    us = _stats()
    t, s = us.cell_sums()
    assert t[0].tolist() == [[1, 4], [3, 4]] and t[1].tolist() == [[3, 4], [2, 4]]
    sc = us.scores()
    assert sc["final"].tolist() == [0.25, 0.5]  # team 0: min(1/4, 3/4); team 1: min(3/4, 2/4)
    assert sc["units"] == 4


def test_weighted_sums_are_one_product_per_replicate():
    us = _stats()
    w = np.array([[1, 1, 1, 1], [2, 0, 0, 2], [0, 0, 1, 0]], dtype=float)
    t, s = us.cell_sums(w)
    assert t.shape == (3, 2, 2, 2) and s[:, :, 0].tolist() == [[2, 2], [2, 2], [0, 1]]
    assert t[1, 0].tolist() == [[2, 4], [4, 4]]  # unit a twice
    for b in range(3):  # equals an explicit re-sum with repeated units
        reps = np.repeat(np.arange(4), w[b].astype(int))
        sub = UnitStats(units=[], cell=us.cell[reps], n_cells=2, team=us.team[reps], shared=us.shared[reps],
                        score=us.score, final="final")
        assert np.array_equal(sub.cell_sums()[0], t[b])


def test_lru_by_count_and_by_bytes():
    c = LRU(2)
    assert [c.get(k, lambda k=k: k * 10) for k in (1, 2, 1, 3)] == [10, 20, 10, 30]
    assert list(c.items) == [1, 3]  # 2 was the least recently used
    b = LRU(10, max_bytes=1000, weigh=nbytes)
    b.put("a", np.zeros(100))   # 800 bytes
    b.put("b", np.zeros(50))    # 400: over 1000 together, so "a" goes
    assert list(b.items) == ["b"] and b.info()["bytes"] == 400
    b.put("c", np.zeros(200))   # alone over the budget: kept (the newest always stays)
    assert list(b.items) == ["c"]
