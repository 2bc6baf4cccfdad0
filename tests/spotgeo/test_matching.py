"""The vectorised matching (isolated pairs and stars settled at once, the solver only for the
rest) against the plain per-frame solver, on thousands of random frames, under both cost
constants; and the starter kit's constant shown to matter exactly where the spec says."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

import scoring.spotgeo as sg
from scoring.spotgeo.explain import kit_constant_example
from scoring.spotgeo.matching import distances, match_frame, match_submission
from tests.spotgeo.flat import flatten


def plain(pred, obj, tau, constant):
    """linear_sum_assignment on the full matrix, beyond-τ entries = ``constant``: TP pairs."""
    D = distances(pred, obj)
    if D.size == 0:
        return set()
    r, c = linear_sum_assignment(np.where(D <= tau, D, constant))
    return {(int(i), int(j)) for i, j in zip(r, c, strict=True) if D[i, j] <= tau}


def _inside(xy):
    """Points outside the frame are dropped, not clipped: clipping would stack points on the
    border and make exact ties."""
    return xy[(xy[:, 0] >= -0.5) & (xy[:, 0] <= 639.5) & (xy[:, 1] >= -0.5) & (xy[:, 1] <= 479.5)]


def random_frames(rng, n_frames):
    """Frames of 0-30 points: sparse, clustered and crowded ones."""
    frames = []
    for f in range(n_frames):
        big = f % 7 == 0
        n, m = (rng.integers(15, 31, 2) if big else rng.integers(0, 9, 2))
        c = rng.uniform([0, 0], [640, 480])
        spread = rng.choice([10.0, 40.0, 120.0, 400.0])
        obj = _inside(c + rng.normal(0, spread, (n, 2)))
        n = len(obj)
        if rng.random() < 0.5 and n:  # predictions near the objects
            k = min(m, n)
            pred = obj[rng.permutation(n)[:k]] + rng.normal(0, rng.choice([2.0, 8.0, 30.0]), (k, 2))
            pred = np.vstack([pred, c + rng.normal(0, spread, (m - k, 2))])
        else:
            pred = c + rng.normal(0, spread, (m, 2))
        frames.append((_inside(pred), obj))
    return frames


def engine_pairs(frames, tau):
    """match_submission over all frames at once: {frame: set of (pred, obj)} for both constants."""
    pred_xy, obj_xy, pf, of, p, g, d = flatten(frames)
    p0 = np.concatenate(([0], np.cumsum([len(p) for p, _ in frames])))
    o0 = np.concatenate(([0], np.cumsum([len(o) for _, o in frames])))
    seed, kit, stats = match_submission(p, g, d, pf, len(pred_xy), len(obj_xy), tau)
    out = []
    for ids in (seed, kit):
        per = [set() for _ in frames]
        for i, j in zip(p[ids].tolist(), g[ids].tolist(), strict=True):
            f = pf[i]
            per[f].add((i - p0[f], j - o0[f]))
        out.append(per)
    return out[0], out[1], stats


@pytest.mark.parametrize("tau", [2.0, 5.0, 10.0, 17.5, 33.0, 40.0, 50.0])
def test_shortcut_equals_plain_solver(tau):
    rng = np.random.default_rng(int(tau * 10))
    frames = random_frames(rng, 700)
    seed, kit, stats = engine_pairs(frames, tau)
    assert stats.settled + stats.solver_pairs == stats.pairs
    for f, (pred, obj) in enumerate(frames):
        m = min(len(pred), len(obj))
        assert seed[f] == plain(pred, obj, tau, (m + 1) * tau + 1), (tau, f)
        assert kit[f] == plain(pred, obj, tau, 1000.0), (tau, f)
        if m * tau < 1000:
            assert kit[f] == seed[f]


def test_shortcut_settles_most_pairs_at_the_official_tau():
    """On spotGEO-like frames (a few objects anywhere, points within a few px, some false
    points) the solver sees a small minority of the frames."""
    rng = np.random.default_rng(3)
    frames = []
    for _ in range(2000):
        obj = rng.uniform([-0.5, -0.5], [639.5, 479.5], (rng.integers(0, 12), 2))
        pred = _inside(np.vstack([obj + rng.normal(0, 2.0, obj.shape),
                                  rng.uniform([-0.5, -0.5], [639.5, 479.5], (rng.integers(0, 3), 2))]))
        frames.append((pred, obj))
    _, _, stats = engine_pairs(frames, 10.0)
    assert stats.settled > 0.5 * stats.pairs
    assert stats.solver_frames < 0.1 * len(frames)


def test_frame_matching_independent_of_point_order():
    rng = np.random.default_rng(11)
    for pred, obj in random_frames(rng, 300):
        a = match_frame(pred, obj, tau=12.0)
        pp, po = rng.permutation(len(pred)), rng.permutation(len(obj))
        b = match_frame(pred[pp], obj[po], tau=12.0)
        assert len(a[0]) == len(b[0])
        assert sorted(a[2].tolist()) == pytest.approx(sorted(b[2].tolist()))


def test_kit_constant_example_through_the_engine():
    pred, obj = kit_constant_example(49.5)
    # every prediction 49.1 px from its own object and 0.3 px from the next one
    assert np.allclose(np.hypot(*(pred - obj).T), 49.1)
    assert np.allclose(np.hypot(*(pred[:-1] - obj[1:]).T), 0.3)
    assert ((pred >= -0.5) & (pred <= [639.5, 479.5])).all() and ((obj >= 0) & (obj <= [639.5, 479.5])).all()
    seed, kit, stats = engine_pairs([(pred, obj)], 49.5)
    assert seed[0] == {(i, i) for i in range(22)}  # 22 TP
    assert kit[0] == {(i, i + 1) for i in range(21)}  # 21 TP
    assert stats.solver_calls == 2  # one frame, solved under both constants
    # at τ = 45 every d of 49.1 is beyond τ: only the 0.3 px pairs, under both rules
    seed, kit, _ = engine_pairs([(pred, obj)], 45.0)
    assert seed[0] == kit[0] == {(i, i + 1) for i in range(21)}


def test_kit_constant_in_a_competition():
    pred, obj = kit_constant_example(49.5)
    gt = [{"sequence_id": 1, "frame": 1, "num_objects": 22, "object_coords": obj.tolist()}]
    sub = [{"sequence_id": 1, "frame": 1, "num_objects": 22, "object_coords": pred.tolist()}]
    scorer = sg.Scorer(sg.load_competition(gt, {"chain": sub}))
    seed = scorer.leaderboard(tau=49.5, epsilon=0, rules="seed").iloc[0]
    kit = scorer.leaderboard(tau=49.5, epsilon=0, rules="starter-kit").iloc[0]
    assert (seed.tp, seed.fp, seed.fn) == (22, 0, 0)
    assert (kit.tp, kit.fp, kit.fn) == (21, 1, 1)
    assert seed.mse == pytest.approx(49.1**2)  # every TP at 49.1 px, squared, pooled
    assert kit.mse == pytest.approx((21 * 0.3 + 2 * 49.5**2) / 23)  # d, plus τ² for the FP and the FN


def test_pairs_within_max_tau_only_and_sorted():
    rng = np.random.default_rng(5)
    frames = random_frames(rng, 400)
    pred_xy, obj_xy, pf, of, p, g, d = flatten(frames)
    assert (np.diff(d) >= 0).all() and (d <= 50).all() and (pf[p] == of[g]).all()
    D = np.hypot(pred_xy[:, None, 0] - obj_xy[None, :, 0], pred_xy[:, None, 1] - obj_xy[None, :, 1])
    want = {(i, j) for i, j in zip(*np.nonzero((D <= 50) & (pf[:, None] == of[None, :])), strict=True)}
    assert set(zip(p.tolist(), g.tolist(), strict=True)) == want
