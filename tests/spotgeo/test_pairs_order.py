"""The candidate pairs' order: by distance, ties by position (``stable_argsort``), so that a
τ keeps a prefix and every tie-break downstream (a star's shortest pair, the settling, the
enumeration) is the same on every machine. ``stable_argsort`` sorts with numpy's default
(SIMD) sort and puts only the runs of equal values back in position order; it must equal
numpy's stable sort, and the default sort alone must not (else the test data has no ties
worth the name)."""

from __future__ import annotations

import numpy as np
import pytest

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


def test_the_lexsort_fallback_for_huge_arrays_is_the_same(monkeypatch):
    import scoring.spotgeo.competition as competition

    monkeypatch.setattr(competition, "_ONE_KEY_LIMIT", 0)  # every array takes the fallback
    for x in cases():
        assert np.array_equal(stable_argsort(x), np.argsort(x, kind="stable"))


def test_the_default_sort_alone_would_be_caught():
    assert any(not np.array_equal(np.argsort(x), np.argsort(x, kind="stable")) for x in cases())


def brute_pairs(pred_xy, pred_frame, gt_xy, gt_frame, max_d):
    """Every (prediction, object) of one frame with ``hypot`` ≤ ``max_d``, in position order,
    then stably by distance: the obvious double loop."""
    rows = [(i, j, float(np.hypot(pred_xy[i, 0] - gt_xy[j, 0], pred_xy[i, 1] - gt_xy[j, 1])))
            for i in range(len(pred_xy)) for j in range(len(gt_xy)) if pred_frame[i] == gt_frame[j]]
    rows = [r for r in rows if r[2] <= max_d]
    rows.sort(key=lambda r: r[2])  # stable: ties keep (prediction, object-by-x) order
    return rows


def test_candidate_pairs_are_every_pair_within_reach():
    from scoring.spotgeo.competition import candidate_pairs, x_index

    rng = np.random.default_rng(42)
    at_reach = 0
    for trial in range(40):
        n_f = int(rng.integers(1, 4))
        n_p, n_g = int(rng.integers(0, 60)), int(rng.integers(1, 60))
        grid = rng.choice([1.0, 0.5])  # on a grid: pairs exactly at the reach, and ties
        pred = np.round(rng.uniform(0, 120, (n_p, 2)) / grid) * grid
        obj = np.round(rng.uniform(0, 120, (n_g, 2)) / grid) * grid
        pf, of = np.sort(rng.integers(0, n_f, n_p)), rng.integers(0, n_f, n_g)
        max_d = float(rng.choice([5.0, 10.0, 50.0]))
        p, g, d = candidate_pairs(pred, pf, obj, of, max_d=max_d)
        want = brute_pairs(pred, pf, obj, of, max_d)
        assert len(p) == len(want), trial
        assert np.array_equal(d, [w[2] for w in want])  # the same distances, bit for bit, in order
        # the same pairs (within a run of equal distances the order is the pairs' position order)
        assert sorted(zip(p.tolist(), g.tolist(), strict=True)) == sorted((w[0], w[1]) for w in want)
        order = x_index(obj, of).order
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        key = list(zip(d.tolist(), p.tolist(), rank[g].tolist(), strict=True))
        assert key == sorted(key)  # ties: by prediction, then by the objects' (frame, x) order
        at_reach += sum(w[2] == max_d for w in want)
    assert at_reach > 0  # the boundary was met: pairs exactly at the reach (3-4-5 triangles) are kept


def check_against_brute(rng, trials, *, spread_frames=False):
    from scoring.spotgeo.competition import candidate_pairs

    for trial in range(trials):
        n_f = int(rng.integers(1, 5))
        n_p, n_g = int(rng.integers(0, 80)), int(rng.integers(0, 80))
        # the whole image: the look-up key's buckets reach each frame's two edges
        pred = np.round(rng.uniform(-0.5, 639.5, (n_p, 2)) * 2) / 2
        obj = np.round(rng.uniform(-0.5, 639.5, (n_g, 2)) * 2) / 2
        pred[:, 1] %= 480
        obj[:, 1] %= 480
        pf, of = np.sort(rng.integers(0, n_f + 1, n_p)), rng.integers(0, n_f, n_g)  # frame n_f: no object
        if spread_frames:  # frame numbers far apart: more buckets than points, so no buckets
            pf, of = pf * 1_000_003, of * 1_000_003
        max_d = float(rng.choice([0.0, 3.0, 10.0, 50.0, 150.0]))
        p, g, d = candidate_pairs(pred, pf, obj, of, max_d=max_d)
        want = brute_pairs(pred, pf, obj, of, max_d)
        assert np.array_equal(d, [w[2] for w in want]), trial
        assert sorted(zip(p.tolist(), g.tolist(), strict=True)) == sorted((w[0], w[1]) for w in want), trial


def test_bucketed_windows_find_every_pair_across_the_image():
    check_against_brute(np.random.default_rng(7), 60)


def test_the_searchsorted_windows_find_the_same_pairs(monkeypatch):
    import scoring.spotgeo.competition as competition

    calls = []
    real = competition._buckets
    monkeypatch.setattr(competition, "_buckets", lambda *a: calls.append(real(*a)))  # always None
    check_against_brute(np.random.default_rng(7), 60)
    assert any(c is not None for c in calls)  # the buckets would have been used


def test_frames_far_apart_take_the_searchsorted_windows():
    import scoring.spotgeo.competition as competition

    key = np.array([0.0, 5e9])
    assert competition._buckets(key, 50.0) is None
    assert competition._buckets(np.array([0.0, 1e4]), 50.0) is not None
    check_against_brute(np.random.default_rng(8), 20, spread_frames=True)


def test_a_reach_beyond_one_frame_is_refused():
    from scoring.spotgeo.competition import MAX_REACH, candidate_pairs

    xy, fr = np.zeros((1, 2)), np.zeros(1, dtype=np.int64)
    for bad in (MAX_REACH + 1, -1.0, float("nan")):
        with pytest.raises(ValueError, match="expected max_d between 0 and 150"):
            candidate_pairs(xy, fr, xy, fr, max_d=bad)



def _narrow(real, how):
    """``_windows`` made one object too narrow: at the high end (the last bucket left out) or
    at the low end (the first object in the window skipped)."""
    import scoring.spotgeo.competition as competition

    def windows(index, pkey, reach):
        lo, hi = real(index, pkey, reach)
        if how == "no last bucket":
            width, before = index.buckets
            b = ((pkey + competition._margin(reach) + competition._KEY_STRIDE) / width).astype(np.int64)
            return lo, before[np.clip(b, 0, len(before) - 1)]
        return np.minimum(lo + 1, hi), hi
    return windows


@pytest.mark.parametrize("how", ["no last bucket", "first object skipped"])
def test_a_narrowed_window_is_caught(how, monkeypatch):
    import scoring.spotgeo.competition as competition

    monkeypatch.setattr(competition, "_windows", _narrow(competition._windows, how))
    with pytest.raises(AssertionError):
        check_against_brute(np.random.default_rng(7), 60)
